// Enzyme's GPU form with two-dimensional blocks: a tile of the input is loaded into __shared__ memory (a 2-D
// shared array indexed by threadIdx.y and threadIdx.x), a barrier, and written transposed through the sine:
//   out[j][i] = sin(in[i][j])  so  d in[i][j] = cos(in[i][j]) * d out[j][i]
// (the shadow tile is zeroed by the 2-D block; global indices row * n + col are not provably thread-private, so
// their adjoints are atomic).
#include <cstdio>
#include <cmath>
#include <vector>
extern int enzyme_dup, enzyme_const;
template <typename... T> __device__ void __enzyme_autodiff(void *, T...);

constexpr int T = 8;

__device__ void transpose_sin(const double *in, double *out, int n) {
  __shared__ double tile[T][T + 1];
  int x = blockIdx.x * T + threadIdx.x, y = blockIdx.y * T + threadIdx.y;
  if (x < n && y < n) tile[threadIdx.y][threadIdx.x] = in[y * n + x];
  __syncthreads();
  x = blockIdx.y * T + threadIdx.x;
  y = blockIdx.x * T + threadIdx.y;
  if (x < n && y < n) out[y * n + x] = sin(tile[threadIdx.x][threadIdx.y]);
}

__global__ void grad(const double *in, double *din, double *out, double *dout, int n) {
  __enzyme_autodiff((void *)transpose_sin, enzyme_dup, in, din, enzyme_dup, out, dout, enzyme_const, n);
}

int main() {
  const int n = 27;  // not a multiple of the tile: edge blocks are partly outside
  const size_t bytes = n * n * sizeof(double);
  std::vector<double> hin(n * n), hdin(n * n), hdout(n * n);
  for (int i = 0; i < n * n; i++) { hin[i] = 0.01 * i - 2.0; hdout[i] = 1.0 + 0.001 * i; }
  double *in, *din, *out, *dout;
  cudaMalloc(&in, bytes); cudaMalloc(&din, bytes); cudaMalloc(&out, bytes); cudaMalloc(&dout, bytes);
  cudaMemcpy(in, hin.data(), bytes, cudaMemcpyHostToDevice);
  cudaMemcpy(dout, hdout.data(), bytes, cudaMemcpyHostToDevice);
  cudaMemset(din, 0, bytes);
  dim3 block(T, T), grid((n + T - 1) / T, (n + T - 1) / T);
  grad<<<grid, block>>>(in, din, out, dout, n);
  cudaMemcpy(hdin.data(), din, bytes, cudaMemcpyDeviceToHost);
  double worst = 0;
  for (int i = 0; i < n; i++)
    for (int j = 0; j < n; j++)
      worst = std::fmax(worst, std::fabs(hdin[i * n + j] - std::cos(hin[i * n + j]) * hdout[j * n + i]));
  printf("din[1][2] = %.8f, max error %.3g\n", hdin[1 * n + 2], worst);
  bool ok = worst < 1e-12;
  printf("%s\n", ok ? "PASS" : "FAIL");
  return ok ? 0 : 1;
}
