// Tiled single-precision GEMM, C = alpha*A*B + beta*C, with a TILE x TILE shared-memory tile per block, each
// thread computing a 1x4 strip of C loaded and stored as float4, `#pragma unroll` inner products, a non-square
// problem with edges, 2-D grids and blocks; a double-precision CPU reference and a relative error check.
#include <chrono>
#include <cstdio>
#include <random>
#include <vector>
#include "check.h"

template <int TILE>
__global__ void sgemm_strips(int M, int N, int K, float alpha, const float *A, const float *B, float beta, float *C) {
  __shared__ float As[TILE][TILE];
  __shared__ float Bs[TILE][TILE * 4];
  const int tx = threadIdx.x, ty = threadIdx.y;
  const int row = blockIdx.y * TILE + ty;
  const int col0 = (blockIdx.x * TILE + tx) * 4;
  float4 acc = make_float4(0.f, 0.f, 0.f, 0.f);
  for (int t = 0; t < K; t += TILE) {
    As[ty][tx] = (row < M && t + tx < K) ? A[row * K + t + tx] : 0.f;
#pragma unroll
    for (int q = 0; q < 4; q++) {
      int c = col0 + q;
      Bs[ty][tx * 4 + q] = (t + ty < K && c < N) ? B[(t + ty) * N + c] : 0.f;
    }
    __syncthreads();
#pragma unroll
    for (int k = 0; k < TILE; k++) {
      float a = As[ty][k];
      acc.x += a * Bs[k][tx * 4 + 0];
      acc.y += a * Bs[k][tx * 4 + 1];
      acc.z += a * Bs[k][tx * 4 + 2];
      acc.w += a * Bs[k][tx * 4 + 3];
    }
    __syncthreads();
  }
  if (row < M) {
    if (col0 + 3 < N && N % 4 == 0) {
      float4 *dst = reinterpret_cast<float4 *>(&C[row * N + col0]);
      float4 old = *dst;
      *dst = make_float4(alpha * acc.x + beta * old.x, alpha * acc.y + beta * old.y,
                         alpha * acc.z + beta * old.z, alpha * acc.w + beta * old.w);
    } else {
      float v[4] = {acc.x, acc.y, acc.z, acc.w};
      for (int q = 0; q < 4; q++)
        if (col0 + q < N) C[row * N + col0 + q] = alpha * v[q] + beta * C[row * N + col0 + q];
    }
  }
}

bool run(int M, int N, int K) {
  constexpr int TILE = 16;
  std::mt19937 gen(M * 31 + N);
  std::normal_distribution<float> d(0.f, 1.f);
  std::vector<float> A(M * K), B(K * N), C(M * N);
  for (auto &v : A) v = d(gen);
  for (auto &v : B) v = d(gen);
  for (auto &v : C) v = d(gen);
  const float alpha = 1.5f, beta = -0.5f;
  float *dA, *dB, *dC;
  CHECK_CUDA(cudaMalloc(&dA, A.size() * 4));
  CHECK_CUDA(cudaMalloc(&dB, B.size() * 4));
  CHECK_CUDA(cudaMalloc(&dC, C.size() * 4));
  CHECK_CUDA(cudaMemcpy(dA, A.data(), A.size() * 4, cudaMemcpyHostToDevice));
  CHECK_CUDA(cudaMemcpy(dB, B.data(), B.size() * 4, cudaMemcpyHostToDevice));
  CHECK_CUDA(cudaMemcpy(dC, C.data(), C.size() * 4, cudaMemcpyHostToDevice));
  dim3 block(TILE, TILE);
  dim3 grid((N + TILE * 4 - 1) / (TILE * 4), (M + TILE - 1) / TILE);
  auto t0 = std::chrono::steady_clock::now();
  sgemm_strips<TILE><<<grid, block>>>(M, N, K, alpha, dA, dB, beta, dC);
  CHECK_CUDA(cudaDeviceSynchronize());
  auto t1 = std::chrono::steady_clock::now();
  std::vector<float> got(C.size());
  CHECK_CUDA(cudaMemcpy(got.data(), dC, C.size() * 4, cudaMemcpyDeviceToHost));
  double max_err = 0;
  for (int i = 0; i < M; i++)
    for (int j = 0; j < N; j++) {
      double s = 0;
      for (int k = 0; k < K; k++) s += (double)A[i * K + k] * B[k * N + j];
      double want = alpha * s + beta * C[i * N + j];
      max_err = std::max(max_err, std::fabs(want - got[i * N + j]) / (1 + std::fabs(want)));
    }
  printf("%dx%dx%d: max rel err %.2e, %.2f ms\n", M, N, K, max_err,
         std::chrono::duration<double, std::milli>(t1 - t0).count());
  cudaFree(dA); cudaFree(dB); cudaFree(dC);
  return max_err < 1e-4;
}

int main() {
  bool ok = run(128, 256, 96) && run(77, 130, 50) && run(64, 61, 33);
  printf("%s\n", ok ? "PASS" : "FAIL");
  return ok ? 0 : 1;
}
