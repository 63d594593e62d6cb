// Slicing and broadcasting copies (hip.slice, hip.tile, hip.expand), for
// xhip/backend/gpu_movement.py: one grid-stride kernel per element size that
// reads, for output index i (per dim), source element (i mod src_shape) at the
// source's strides. Expand is src_shape 1 on the broadcast dims, Tile the
// source's shape, Slice a strided view of the source (steps folded into its
// strides, negative ones too) with src_shape the output's shape.
// Each element's bytes are copied, whatever they mean.
//
// meta: shape[rank] (of out), out_strides[rank], src_shape[rank],
// src_strides[rank]; strides in elements; n = the product of shape.

template <typename T>
__device__ inline void xhip_tile_copy(T* out, const T* a, int rank,
                                      const xhip_index* meta, xhip_index n) {
  const xhip_index* shape = meta;
  const xhip_index* out_strides = meta + rank;
  const xhip_index* src_shape = meta + 2 * rank;
  const xhip_index* src_strides = meta + 3 * rank;
  xhip_index step = (xhip_index)blockDim.x * gridDim.x;
  for (xhip_index i = (xhip_index)blockIdx.x * blockDim.x + threadIdx.x; i < n;
       i += step) {
    xhip_index linear = i;
    xhip_index at = 0;
    xhip_index at_a = 0;
    for (int d = rank - 1; d >= 0; --d) {
      xhip_index index = linear % shape[d];
      linear /= shape[d];
      at += index * out_strides[d];
      at_a += (index % src_shape[d]) * src_strides[d];
    }
    out[at] = a[at_a];
  }
}

extern "C" __global__ void xhip_tile_1(unsigned char* out, const unsigned char* a,
                                       int rank, const xhip_index* meta,
                                       xhip_index n) {
  xhip_tile_copy(out, a, rank, meta, n);
}

extern "C" __global__ void xhip_tile_2(unsigned short* out, const unsigned short* a,
                                       int rank, const xhip_index* meta,
                                       xhip_index n) {
  xhip_tile_copy(out, a, rank, meta, n);
}

extern "C" __global__ void xhip_tile_4(unsigned int* out, const unsigned int* a,
                                       int rank, const xhip_index* meta,
                                       xhip_index n) {
  xhip_tile_copy(out, a, rank, meta, n);
}

extern "C" __global__ void xhip_tile_8(unsigned long long* out,
                                       const unsigned long long* a, int rank,
                                       const xhip_index* meta, xhip_index n) {
  xhip_tile_copy(out, a, rank, meta, n);
}
