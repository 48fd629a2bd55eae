// Colour planes of an interleaved image and a separable box blur, written as host function templates that launch
// kernel templates with deduced arguments; instantiated explicitly for float and int here and called from
// explicit_inst_main.cu, as Rodinia dwt2d's components.cu is from its main file.
#include <cuda_runtime.h>

#define PLANE_THREADS 128

template <typename T> __device__ T to_sample(unsigned char c);
template <> __device__ float to_sample<float>(unsigned char c) { return c / 255.0f - 0.5f; }
template <> __device__ int to_sample<int>(unsigned char c) { return (int)c - 128; }

template <typename T>
__global__ void split_planes(T *r, T *g, T *b, const unsigned char *rgb, int pixels) {
  __shared__ unsigned char tile[PLANE_THREADS * 3];
  int first = blockIdx.x * blockDim.x;
  for (int k = threadIdx.x; k < PLANE_THREADS * 3; k += blockDim.x)
    tile[k] = (first * 3 + k < pixels * 3) ? rgb[first * 3 + k] : 0;
  __syncthreads();
  int p = first + threadIdx.x;
  if (p < pixels) {
    r[p] = to_sample<T>(tile[threadIdx.x * 3]);
    g[p] = to_sample<T>(tile[threadIdx.x * 3 + 1]);
    b[p] = to_sample<T>(tile[threadIdx.x * 3 + 2]);
  }
}

template <typename T>
__global__ void box_rows(const T *in, T *out, int w, int h) {
  int x = blockIdx.x * blockDim.x + threadIdx.x, y = blockIdx.y;
  if (x >= w) return;
  T left = in[y * w + (x > 0 ? x - 1 : x)], right = in[y * w + (x + 1 < w ? x + 1 : x)];
  out[y * w + x] = left + in[y * w + x] + right;
}

template <typename T>
void splitPlanes(T *d_r, T *d_g, T *d_b, const unsigned char *host_rgb, int w, int h) {
  unsigned char *d_rgb;
  int pixels = w * h;
  cudaMalloc((void **)&d_rgb, pixels * 3);
  cudaMemcpy(d_rgb, host_rgb, pixels * 3, cudaMemcpyHostToDevice);
  split_planes<<<(pixels + PLANE_THREADS - 1) / PLANE_THREADS, PLANE_THREADS>>>(d_r, d_g, d_b, d_rgb, pixels);
  cudaDeviceSynchronize();
  cudaFree(d_rgb);
}

template <typename T>
void blurRows(const T *d_in, T *d_out, int w, int h) {
  dim3 grid((w + 63) / 64, h);
  box_rows<<<grid, 64>>>(d_in, d_out, w, h);
  cudaDeviceSynchronize();
}

template void splitPlanes<float>(float *d_r, float *d_g, float *d_b, const unsigned char *host_rgb, int w, int h);
template void splitPlanes<int>(int *, int *, int *, const unsigned char *, int, int);
template void blurRows(const float *d_in, float *d_out, int w, int h);  // arguments deduced
template void blurRows<int>(const int *d_in, int *d_out, int w, int h);
