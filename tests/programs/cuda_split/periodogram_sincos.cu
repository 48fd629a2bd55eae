// A Lomb-Scargle-style periodogram: a grid-stride loop over frequencies where each thread calls sincosf with
// the addresses of two locals, launched on a large grid (100,000 blocks here). The locals are one stack object
// per block reused by its threads, not one per thread and iteration (which overflowed the stack).
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <vector>

__global__ void periodogram(int n, int nfreq, const float *__restrict__ t, const float *__restrict__ y,
                            const float *__restrict__ freqs, float *__restrict__ power) {
  const int stride = blockDim.x * gridDim.x;
  for (int k = blockIdx.x * blockDim.x + threadIdx.x; k < nfreq; k += stride) {
    float yc = 0, ys = 0, cc = 0, ss = 0;
    for (int j = 0; j < n; j++) {
      float s, c;
      sincosf(freqs[k] * t[j], &s, &c);
      yc += y[j] * c;
      ys += y[j] * s;
      cc += c * c;
      ss += s * s;
    }
    power[k] = 0.5f * (yc * yc / cc + ys * ys / ss);
  }
}

int main() {
  const int n = 24, nfreq = 20000, blocks = 100000, threads = 64;
  std::vector<float> t(n), y(n), f(nfreq), p(nfreq);
  for (int j = 0; j < n; j++) {
    t[j] = 0.3f * j + 0.01f * (j % 5);
    y[j] = 2.0f * sinf(1.3f * t[j] + 0.4f);
  }
  for (int k = 0; k < nfreq; k++) f[k] = 0.05f + k * 0.0004f;
  float *d_t, *d_y, *d_f, *d_p;
  cudaMalloc(&d_t, n * sizeof(float));
  cudaMalloc(&d_y, n * sizeof(float));
  cudaMalloc(&d_f, nfreq * sizeof(float));
  cudaMalloc(&d_p, nfreq * sizeof(float));
  cudaMemcpy(d_t, t.data(), n * sizeof(float), cudaMemcpyHostToDevice);
  cudaMemcpy(d_y, y.data(), n * sizeof(float), cudaMemcpyHostToDevice);
  cudaMemcpy(d_f, f.data(), nfreq * sizeof(float), cudaMemcpyHostToDevice);
  periodogram<<<blocks, threads>>>(n, nfreq, d_t, d_y, d_f, d_p);
  cudaMemcpy(p.data(), d_p, nfreq * sizeof(float), cudaMemcpyDeviceToHost);
  int bad = 0;
  for (int k = 0; k < nfreq; k++) {
    double yc = 0, ys = 0, cc = 0, ss = 0;
    for (int j = 0; j < n; j++) {
      double a = (double)f[k] * t[j], c = cos(a), s = sin(a);
      yc += y[j] * c; ys += y[j] * s; cc += c * c; ss += s * s;
    }
    double want = 0.5 * (yc * yc / cc + ys * ys / ss);
    if (fabs(p[k] - want) > 1e-3 * (1 + fabs(want))) {
      if (bad++ < 3) printf("freq %d: %f, expected %f\n", k, p[k], want);
    }
  }
  cudaFree(d_t); cudaFree(d_y); cudaFree(d_f); cudaFree(d_p);
  printf("%s\n", bad ? "FAIL" : "PASS");
  return bad != 0;
}
