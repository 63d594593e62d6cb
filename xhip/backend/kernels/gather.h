// Gather, GatherElements and GatherND, for xhip/backend/gpu_gather.py: one
// kernel per element size (the bytes are copied, so every element type of
// that size is served), one thread per output element (grid-stride when the
// grid is smaller than the output). No shared memory, no warp-size
// assumption; all index arithmetic in 64-bit integers.
//
// Output element i (of `rank` dims, row-major over shape) reads
//   data[data_base(i) + sum_j norm_j(idx[idx_base(i) + j * idx_step]) * strides_j]
// for j < k, where data_base and idx_base are i's coordinates times the
// per-output-dim strides of data and of the indices (0 where a dim is not
// theirs). The three ops are three ways to fill `meta` (gpu_gather.py):
// Gather and GatherElements have k = 1 and idx_step = 0; GatherND has k the
// length of its index tuples.
//
// meta (int64): shape[rank], out_strides[rank], data_strides[rank],
//   idx_strides[rank], sizes[k], strides[k], idx_step; strides in elements.
// Indices are int32 (index_bytes 4) or int64 (8). A negative index counts
// from the end; one still out of [0, size) is clamped into it (ONNX Runtime
// fails instead), so no read leaves `data`. size is never 0 (the host refuses).

__device__ inline xhip_index xhip_gather_index(const void* indices,
                                               int index_bytes,
                                               xhip_index at,
                                               xhip_index size) {
  xhip_index v = index_bytes == 8 ? ((const long long*)indices)[at]
                                  : (xhip_index)((const int*)indices)[at];
  if (v < 0) v += size;
  if (v < 0) v = 0;
  if (v >= size) v = size - 1;
  return v;
}

template <class T>
__device__ inline void xhip_gather(T* out, const T* data, const void* indices,
                                   int index_bytes, int rank, int k,
                                   const xhip_index* meta, xhip_index n) {
  const xhip_index* shape = meta;
  const xhip_index* sizes = meta + 4 * rank;
  const xhip_index* strides = sizes + k;
  xhip_index idx_step = strides[k];
  xhip_index step = (xhip_index)blockDim.x * gridDim.x;
  for (xhip_index i = (xhip_index)blockIdx.x * blockDim.x + threadIdx.x; i < n;
       i += step) {
    xhip_index at = xhip_offset(i, rank, shape, meta + rank);
    xhip_index from = xhip_offset(i, rank, shape, meta + 2 * rank);
    xhip_index at_idx = xhip_offset(i, rank, shape, meta + 3 * rank);
    for (int j = 0; j < k; ++j)
      from += xhip_gather_index(indices, index_bytes,
                                at_idx + (xhip_index)j * idx_step, sizes[j]) *
              strides[j];
    out[at] = data[from];
  }
}

// One kernel per element size in bytes: gpu_gather.GATHER_KERNELS.
extern "C" __global__ void xhip_gather_1(unsigned char* out,
                                         const unsigned char* data,
                                         const void* indices, int index_bytes,
                                         int rank, int k,
                                         const xhip_index* meta, xhip_index n) {
  xhip_gather(out, data, indices, index_bytes, rank, k, meta, n);
}
extern "C" __global__ void xhip_gather_2(unsigned short* out,
                                         const unsigned short* data,
                                         const void* indices, int index_bytes,
                                         int rank, int k,
                                         const xhip_index* meta, xhip_index n) {
  xhip_gather(out, data, indices, index_bytes, rank, k, meta, n);
}
extern "C" __global__ void xhip_gather_4(unsigned int* out,
                                         const unsigned int* data,
                                         const void* indices, int index_bytes,
                                         int rank, int k,
                                         const xhip_index* meta, xhip_index n) {
  xhip_gather(out, data, indices, index_bytes, rank, k, meta, n);
}
extern "C" __global__ void xhip_gather_8(unsigned long long* out,
                                         const unsigned long long* data,
                                         const void* indices, int index_bytes,
                                         int rank, int k,
                                         const xhip_index* meta, xhip_index n) {
  xhip_gather(out, data, indices, index_bytes, rank, k, meta, n);
}
