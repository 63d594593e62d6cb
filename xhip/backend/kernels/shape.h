// Shape values on the device: ONNX Range (`hip.range`). One thread per
// element, grid-stride; start and delta are 0-D device tensors.

template <typename T>
__device__ void xhip_range(T* out, const T* start, const T* delta, xhip_index n) {
  const T s = start[0], d = delta[0];
  for (xhip_index i = blockIdx.x * (xhip_index)blockDim.x + threadIdx.x; i < n;
       i += (xhip_index)gridDim.x * blockDim.x)
    out[i] = (T)(s + (T)i * d);
}

extern "C" __global__ void xhip_range_f32(float* out, const float* start,
                                          const float* delta, xhip_index n) {
  xhip_range(out, start, delta, n);
}

extern "C" __global__ void xhip_range_f64(double* out, const double* start,
                                          const double* delta, xhip_index n) {
  xhip_range(out, start, delta, n);
}

extern "C" __global__ void xhip_range_i32(int* out, const int* start,
                                          const int* delta, xhip_index n) {
  xhip_range(out, start, delta, n);
}

extern "C" __global__ void xhip_range_i64(xhip_index* out, const xhip_index* start,
                                          const xhip_index* delta, xhip_index n) {
  xhip_range(out, start, delta, n);
}
