// Managed memory moved with the location-based hints of CUDA 12.2 and later: cudaMemLocation (a device or the
// host) given to cudaMemPrefetchAsync (CUDA 13's form: location, flags, stream) and to cudaMemAdvise_v2. A
// saxpy-like update runs repeatedly on buffers prefetched to the device and back to the host; the host checks
// the values it reads after each round.
#include <cstdio>
#include <cmath>
#include "check.h"

__global__ void accumulate(int n, float a, const float *x, float *y)
{
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x)
    y[i] = a * x[i] + y[i];
}

int main()
{
  const int n = 100000, rounds = 3;
  float *x, *y;
  CHECK_CUDA(cudaMallocManaged(&x, n * sizeof(float)));
  CHECK_CUDA(cudaMallocManaged(&y, n * sizeof(float)));
  for (int i = 0; i < n; i++) {
    x[i] = (float)(i % 17);
    y[i] = 1.0f;
  }
  cudaMemLocation gpu, host;
  gpu.type = cudaMemLocationTypeDevice;
  gpu.id = 0;
  host.type = cudaMemLocationTypeHost;
  host.id = 0;
  CHECK_CUDA(cudaMemAdvise_v2(x, n * sizeof(float), cudaMemAdviseSetReadMostly, gpu));
  int bad = 0;
  for (int r = 1; r <= rounds; r++) {
    CHECK_CUDA(cudaMemPrefetchAsync(x, n * sizeof(float), gpu, 0));
    CHECK_CUDA(cudaMemPrefetchAsync(y, n * sizeof(float), gpu, 0, 0));
    accumulate<<<64, 128>>>(n, 0.5f, x, y);
    CHECK_CUDA(cudaMemPrefetchAsync(y, n * sizeof(float), host, 0));
    CHECK_CUDA(cudaDeviceSynchronize());
    for (int i = 0; i < n; i++)
      if (y[i] != 1.0f + r * 0.5f * (float)(i % 17)) bad++;
  }
  printf("y[16] after %d rounds: %.1f, mismatches: %d\n", rounds, y[16], bad);
  CHECK_CUDA(cudaFree(x));
  CHECK_CUDA(cudaFree(y));
  printf("%s\n", bad == 0 ? "PASS" : "FAIL");
  return bad != 0;
}
