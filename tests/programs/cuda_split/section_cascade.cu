// A cascade of first-order filter sections, one thread per section, as second-order-section filters are
// written for GPUs: at each step thread t takes thread t-1's output from shared memory and writes its own,
// with one __syncthreads() per step; the last section's outputs go to global memory. Written for lockstep
// warps: every lane reads its input before any lane overwrites its output. The CPU reference steps all
// sections the same way.
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <vector>

#define SECTIONS 48

__global__ void cascade(const float *coef, const float *x, float *y, int nsamples) {
  __shared__ float out[SECTIONS];
  __shared__ float state[SECTIONS];
  const int t = threadIdx.x;
  const float *sig = x + blockIdx.x * nsamples;
  float *res = y + blockIdx.x * (nsamples + SECTIONS - 1);
  out[t] = 0.0f;
  state[t] = 0.0f;
  __syncthreads();
  for (int n = 0; n < nsamples + SECTIONS - 1; n++) {
    float in = t == 0 ? (n < nsamples ? sig[n] : 0.0f) : out[t - 1];
    float v = coef[t] * in + state[t];
    state[t] = 0.5f * v;
    out[t] = v;
    if (t == SECTIONS - 1) res[n] = v;
    __syncthreads();
  }
}

int main() {
  const int signals = 6, nsamples = 200, nout = nsamples + SECTIONS - 1;
  std::vector<float> coef(SECTIONS), x(signals * nsamples), y(signals * nout);
  for (int s = 0; s < SECTIONS; s++) coef[s] = 0.9f + 0.002f * s;
  srand(3);
  for (auto &v : x) v = (float)rand() / (float)RAND_MAX - 0.5f;
  float *d_coef, *d_x, *d_y;
  cudaMalloc(&d_coef, SECTIONS * sizeof(float));
  cudaMalloc(&d_x, x.size() * sizeof(float));
  cudaMalloc(&d_y, y.size() * sizeof(float));
  cudaMemcpy(d_coef, coef.data(), SECTIONS * sizeof(float), cudaMemcpyHostToDevice);
  cudaMemcpy(d_x, x.data(), x.size() * sizeof(float), cudaMemcpyHostToDevice);
  cascade<<<signals, SECTIONS>>>(d_coef, d_x, d_y, nsamples);
  cudaMemcpy(y.data(), d_y, y.size() * sizeof(float), cudaMemcpyDeviceToHost);
  int bad = 0;
  for (int s = 0; s < signals; s++) {
    std::vector<float> out(SECTIONS, 0.0f), state(SECTIONS, 0.0f), in(SECTIONS);
    for (int n = 0; n < nout; n++) {
      for (int t = 0; t < SECTIONS; t++)  // every section reads its input first
        in[t] = t == 0 ? (n < nsamples ? x[s * nsamples + n] : 0.0f) : out[t - 1];
      for (int t = 0; t < SECTIONS; t++) {
        float v = coef[t] * in[t] + state[t];
        state[t] = 0.5f * v;
        out[t] = v;
      }
      float got = y[s * nout + n], want = out[SECTIONS - 1];
      if (std::fabs(got - want) > 1e-4f * (1 + std::fabs(want)) && bad++ < 3)
        printf("signal %d sample %d: %f, expected %f\n", s, n, got, want);
    }
  }
  cudaFree(d_coef);
  cudaFree(d_x);
  cudaFree(d_y);
  printf("%s\n", bad ? "FAIL" : "PASS");
  return bad != 0;
}
