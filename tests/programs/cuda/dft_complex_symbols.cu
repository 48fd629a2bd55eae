// A batched discrete Fourier transform with cuComplex.h: each block transforms one signal staged in dynamic
// shared memory carved into a complex array and an int flag array, with twiddle factors in __constant__ memory
// (cudaMemcpyToSymbol) and a __device__ error counter read through cudaGetSymbolAddress and
// cudaMemcpyFromSymbol; a double-precision host DFT as the reference, an inverse transform as a round trip.
#include <cmath>
#include <cstdio>
#include <cuComplex.h>
#include <random>
#include <vector>
#include "check.h"

constexpr int N = 64;
__constant__ cuFloatComplex twiddle[N];
__device__ int nonfinite;

__global__ void dft(const cuFloatComplex *in, cuFloatComplex *out, int batch, bool inverse) {
  extern __shared__ float smem[];
  cuFloatComplex *x = reinterpret_cast<cuFloatComplex *>(smem);
  int *finite = reinterpret_cast<int *>(&smem[2 * N]);
  const cuFloatComplex *sig = in + (size_t)blockIdx.x * N;
  int k = threadIdx.x;
  x[k] = sig[k];
  finite[k] = isfinite(cuCrealf(x[k])) && isfinite(cuCimagf(x[k]));
  __syncthreads();
  cuFloatComplex acc = make_cuFloatComplex(0.f, 0.f);
  for (int n = 0; n < N; n++) {
    cuFloatComplex w = twiddle[(n * k) % N];
    if (inverse) w = cuConjf(w);
    acc = cuCfmaf(x[n], w, acc);
  }
  if (inverse) acc = make_cuFloatComplex(cuCrealf(acc) / N, cuCimagf(acc) / N);
  out[(size_t)blockIdx.x * N + k] = acc;
  if (!finite[k]) atomicAdd(&nonfinite, 1);
}

int main() {
  const int batch = 24;
  std::vector<cuFloatComplex> tw(N), sig(batch * N), spec(batch * N), back(batch * N);
  for (int i = 0; i < N; i++) tw[i] = make_cuFloatComplex(std::cos(-2 * M_PI * i / N), std::sin(-2 * M_PI * i / N));
  std::mt19937 gen(4);
  std::uniform_real_distribution<float> d(-1.f, 1.f);
  for (auto &v : sig) v = make_cuFloatComplex(d(gen), d(gen));
  sig[5] = make_cuFloatComplex(NAN, 0.f);  // one poisoned sample
  CHECK_CUDA(cudaMemcpyToSymbol(twiddle, tw.data(), sizeof(cuFloatComplex) * N));
  int zero = 0;
  CHECK_CUDA(cudaMemcpyToSymbol(nonfinite, &zero, sizeof zero));
  cuFloatComplex *d_sig, *d_spec, *d_back;
  CHECK_CUDA(cudaMalloc(&d_sig, sig.size() * sizeof(cuFloatComplex)));
  CHECK_CUDA(cudaMalloc(&d_spec, sig.size() * sizeof(cuFloatComplex)));
  CHECK_CUDA(cudaMalloc(&d_back, sig.size() * sizeof(cuFloatComplex)));
  CHECK_CUDA(cudaMemcpy(d_sig, sig.data(), sig.size() * sizeof(cuFloatComplex), cudaMemcpyHostToDevice));
  size_t shmem = N * sizeof(cuFloatComplex) + N * sizeof(int);
  dft<<<batch, N, shmem>>>(d_sig, d_spec, batch, false);
  dft<<<batch, N, shmem>>>(d_spec, d_back, batch, true);
  CHECK_CUDA(cudaMemcpy(spec.data(), d_spec, spec.size() * sizeof(cuFloatComplex), cudaMemcpyDeviceToHost));
  CHECK_CUDA(cudaMemcpy(back.data(), d_back, back.size() * sizeof(cuFloatComplex), cudaMemcpyDeviceToHost));
  int *counter, bad_direct = 0, bad_symbol = 0;
  CHECK_CUDA(cudaGetSymbolAddress((void **)&counter, nonfinite));
  CHECK_CUDA(cudaMemcpy(&bad_direct, counter, sizeof(int), cudaMemcpyDeviceToHost));
  CHECK_CUDA(cudaMemcpyFromSymbol(&bad_symbol, nonfinite, sizeof(int)));
  size_t bytes = 0;
  CHECK_CUDA(cudaGetSymbolSize(&bytes, twiddle));
  // the NaN sample, then the 64 values of its spectrum in the inverse transform
  bool ok = bad_direct == N + 1 && bad_symbol == N + 1 && bytes == sizeof(cuFloatComplex) * N;
  double worst = 0, worst_back = 0;
  for (int b = 1; b < batch; b++)  // (signal 0 holds the NaN)
    for (int k = 0; k < N; k++) {
      double re = 0, im = 0;
      for (int n = 0; n < N; n++) {
        double a = -2 * M_PI * ((n * k) % N) / N;
        cuFloatComplex s = sig[b * N + n];
        re += cuCrealf(s) * std::cos(a) - cuCimagf(s) * std::sin(a);
        im += cuCrealf(s) * std::sin(a) + cuCimagf(s) * std::cos(a);
      }
      cuDoubleComplex got = cuComplexFloatToDouble(spec[b * N + k]);
      worst = std::max(worst, cuCabs(cuCsub(got, make_cuDoubleComplex(re, im))));
      worst_back = std::max(worst_back, (double)cuCabsf(cuCsubf(back[b * N + k], sig[b * N + k])));
    }
  ok = ok && worst < 1e-4 && worst_back < 1e-5 && std::isnan(cuCrealf(spec[3]));
  printf("max error %.2e, round trip %.2e, non-finite %d\n%s\n", worst, worst_back, bad_direct, ok ? "PASS" : "FAIL");
  return ok ? 0 : 1;
}
