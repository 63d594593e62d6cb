// Block-quantized weights (ONNX Runtime's MatMulNBits, GatherBlockQuantized),
// for xhip/backend/gpu_nbits.py. Grid-stride loops over the output, one
// element per thread (no warp-size assumption). Packed values are `bits`
// wide, low bits first, 8 / bits per byte. Weights, scales and zero points
// are read where they lie: no float copy of the weights.

__device__ inline int xhip_nbits_at(const unsigned char* p, xhip_index i,
                                    int bits) {
  int per = 8 / bits;
  return (p[i / per] >> ((int)(i % per) * bits)) & ((1 << bits) - 1);
}

// out (rows x n, strided: meta = shape, strides) = a (rows x k, dense) @ w^T
// (+ bias), w[j, i] = (q - zero) * scale of block i / block of column j: b
// (n, blocks, block * bits / 8) packed; scales (n, blocks); zero packed
// (n, zero_bytes) u8 when zero_packed, else f32 (n, blocks). The weight is
// dequantized at its load (float32, as cpu_nbits.py). With int8 (ONNX
// Runtime's accuracy level 4, MLAS CompInt8): each block of a's row is
// quantized to int8 (scale amax / 127, rintf(a * (127 / amax))), dotted with
// q - zero in int32, and the dots summed times scale_a * scale in float32.
extern "C" __global__ void xhip_matmul_nbits(
    float* out, const float* a, const unsigned char* b, const float* scales,
    const void* zero, int rank, const xhip_index* meta, xhip_index total,
    xhip_index k, xhip_index n, int bits, xhip_index block, int zero_packed,
    const float* bias, int int8) {
  xhip_index blocks = (k + block - 1) / block;
  xhip_index row_bytes = block * bits / 8;
  xhip_index zero_bytes = (blocks * bits + 7) / 8;
  xhip_index step = (xhip_index)blockDim.x * gridDim.x;
  for (xhip_index i = (xhip_index)blockIdx.x * blockDim.x + threadIdx.x;
       i < total; i += step) {
    xhip_index r = i / n, j = i % n;
    const float* row = a + r * k;
    const unsigned char* col = b + j * blocks * row_bytes;
    float acc = 0.0f;
    for (xhip_index t = 0; t < blocks; ++t) {
      xhip_index start = t * block;
      xhip_index end = start + block < k ? start + block : k;
      float s = scales[j * blocks + t];
      const unsigned char* q = col + t * row_bytes;
      if (zero_packed) {
        int z = xhip_nbits_at((const unsigned char*)zero + j * zero_bytes, t,
                              bits);
        if (int8) {
          float amax = 0.0f;
          for (xhip_index c = start; c < end; ++c) {
            float v = fabsf(row[c]);
            amax = v > amax ? v : amax;
          }
          float inverse = amax != 0.0f ? 127.0f / amax : 0.0f;
          int dot = 0;
          for (xhip_index c = start; c < end; ++c) {
            int qa = (int)rintf(row[c] * inverse);
            dot += qa * (xhip_nbits_at(q, c - start, bits) - z);
          }
          acc += (amax / 127.0f * s) * (float)dot;
          continue;
        }
        for (xhip_index c = start; c < end; ++c) {
          float w = (float)(xhip_nbits_at(q, c - start, bits) - z) * s;
          acc += row[c] * w;
        }
      } else {
        float z = ((const float*)zero)[j * blocks + t];
        for (xhip_index c = start; c < end; ++c) {
          float w = ((float)xhip_nbits_at(q, c - start, bits) - z) * s;
          acc += row[c] * w;
        }
      }
    }
    if (bias) acc += bias[j];
    out[xhip_offset(i, rank, meta, meta + rank)] = acc;
  }
}

// out (strided: meta = shape, strides) = GatherBlockQuantized of u8 data
// (dense: `count` rows along axis 0, each `inner` rows of `bytes` packed
// bytes, i.e. `width` values) at `indices` (dense, i64 when idx64 else i32),
// dequantized float(q - zero) * scale with scales (dense, count * inner rows
// of `blocks`) and zero (dense, u8 packed rows of zero_bytes, or null:
// 2^(bits-1)). An index outside [-count, count) gives zeros.
extern "C" __global__ void xhip_gather_block_quantized(
    float* out, const unsigned char* data, const void* indices,
    const float* scales, const unsigned char* zero, int rank,
    const xhip_index* meta, xhip_index total, int idx64, xhip_index count,
    xhip_index inner, xhip_index bytes, int bits, xhip_index block) {
  xhip_index width = bytes * (8 / bits);
  xhip_index blocks = (width + block - 1) / block;
  xhip_index zero_bytes = (blocks * bits + 7) / 8;
  xhip_index step = (xhip_index)blockDim.x * gridDim.x;
  for (xhip_index i = (xhip_index)blockIdx.x * blockDim.x + threadIdx.x;
       i < total; i += step) {
    xhip_index c = i % width, m = (i / width) % inner, g = i / (width * inner);
    xhip_index index = idx64 ? ((const long long*)indices)[g]
                             : (xhip_index)((const int*)indices)[g];
    float y = 0.0f;
    if (index >= -count && index < count) {
      if (index < 0) index += count;
      xhip_index row = index * inner + m;
      int q = xhip_nbits_at(data + row * bytes, c, bits);
      int z = zero ? xhip_nbits_at(zero + row * zero_bytes, c / block, bits)
                   : 1 << (bits - 1);
      y = (float)(q - z) * scales[row * blocks + c / block];
    }
    out[xhip_offset(i, rank, meta, meta + rank)] = y;
  }
}
