// Packed-lane activations as inference kernels write them: a ReLU gradient on half2 pairs through the half2
// comparisons (__hgt2 yields 1.0/0.0 per lane, __hbge2 whether both lanes hold), and byte-lane ReLU, clamp
// and distance through the SIMD video intrinsics (__vmaxs4, __vminu4, __vabsdiffu4, __vadd2); each checked
// against a scalar CPU loop.
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <random>
#include <vector>
#include <cuda.h>
#include <cuda_fp16.h>

__global__ void relu_grad_h2(const half2 *grad, const half2 *feat, half2 *out, int *both_nonneg, int n2)
{
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n2) return;
  const half2 zero = __float2half2_rn(0.f);
  out[i] = __hmul2(__hgt2(feat[i], zero), grad[i]);
  if (__hbge2(feat[i], zero)) atomicAdd(both_nonneg, 1);
}

__global__ void byte_lanes(const unsigned *a, const unsigned *b, unsigned *relu, unsigned *lo, unsigned *dist,
                           unsigned *sum2, int n)
{
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    relu[i] = __vmaxs4(a[i], 0);
    lo[i] = __vminu4(a[i], b[i]);
    dist[i] = __vabsdiffu4(a[i], b[i]);
    sum2[i] = __vadd2(a[i], b[i]);
  }
}

static unsigned lanes(unsigned a, unsigned b, int bits, int op)
{
  unsigned r = 0, mask = (1u << bits) - 1;
  for (int k = 0; k < 32 / bits; k++) {
    unsigned ua = (a >> (bits * k)) & mask, ub = (b >> (bits * k)) & mask;
    int sa = (signed char)ua;
    unsigned v = op == 0 ? (unsigned)(sa > 0 ? sa : 0) : op == 1 ? (ua < ub ? ua : ub)
               : op == 2 ? (ua > ub ? ua - ub : ub - ua) : ua + ub;
    r |= (v & mask) << (bits * k);
  }
  return r;
}

int main()
{
  const int n = 4099, n2 = n / 2;
  std::mt19937 gen(5);
  std::uniform_real_distribution<float> real(-1.f, 1.f);
  std::vector<half2> grad(n2), feat(n2), out(n2);
  for (int i = 0; i < n2; i++) {
    grad[i] = __floats2half2_rn(real(gen), real(gen));
    feat[i] = __floats2half2_rn(i % 7 == 0 ? 0.f : real(gen), real(gen));
  }
  std::vector<unsigned> a(n), b(n), r0(n), r1(n), r2(n), r3(n);
  for (int i = 0; i < n; i++) { a[i] = gen(); b[i] = gen(); }

  half2 *d_grad, *d_feat, *d_out;
  int *d_count, count = 0;
  unsigned *d_a, *d_b, *d_r;
  cudaMalloc(&d_grad, n2 * sizeof(half2));
  cudaMalloc(&d_feat, n2 * sizeof(half2));
  cudaMalloc(&d_out, n2 * sizeof(half2));
  cudaMalloc(&d_count, sizeof(int));
  cudaMalloc(&d_a, n * sizeof(unsigned));
  cudaMalloc(&d_b, n * sizeof(unsigned));
  cudaMalloc(&d_r, 4 * n * sizeof(unsigned));
  cudaMemcpy(d_grad, grad.data(), n2 * sizeof(half2), cudaMemcpyHostToDevice);
  cudaMemcpy(d_feat, feat.data(), n2 * sizeof(half2), cudaMemcpyHostToDevice);
  cudaMemcpy(d_count, &count, sizeof(int), cudaMemcpyHostToDevice);
  cudaMemcpy(d_a, a.data(), n * sizeof(unsigned), cudaMemcpyHostToDevice);
  cudaMemcpy(d_b, b.data(), n * sizeof(unsigned), cudaMemcpyHostToDevice);
  relu_grad_h2<<<(n2 + 127) / 128, 128>>>(d_grad, d_feat, d_out, d_count, n2);
  byte_lanes<<<(n + 255) / 256, 256>>>(d_a, d_b, d_r, d_r + n, d_r + 2 * n, d_r + 3 * n, n);
  cudaMemcpy(out.data(), d_out, n2 * sizeof(half2), cudaMemcpyDeviceToHost);
  cudaMemcpy(&count, d_count, sizeof(int), cudaMemcpyDeviceToHost);
  cudaMemcpy(r0.data(), d_r, n * sizeof(unsigned), cudaMemcpyDeviceToHost);
  cudaMemcpy(r1.data(), d_r + n, n * sizeof(unsigned), cudaMemcpyDeviceToHost);
  cudaMemcpy(r2.data(), d_r + 2 * n, n * sizeof(unsigned), cudaMemcpyDeviceToHost);
  cudaMemcpy(r3.data(), d_r + 3 * n, n * sizeof(unsigned), cudaMemcpyDeviceToHost);

  bool ok = true;
  int want_count = 0;
  for (int i = 0; i < n2; i++) {
    float fx = __low2float(feat[i]), fy = __high2float(feat[i]);
    float ex = fx > 0 ? __low2float(grad[i]) : 0.f, ey = fy > 0 ? __high2float(grad[i]) : 0.f;
    if (__low2float(out[i]) != ex || __high2float(out[i]) != ey) { printf("h2 %d\n", i); ok = false; break; }
    want_count += fx >= 0 && fy >= 0;
  }
  ok = ok && count == want_count;
  for (int i = 0; i < n && ok; i++)
    if (r0[i] != lanes(a[i], 0, 8, 0) || r1[i] != lanes(a[i], b[i], 8, 1) || r2[i] != lanes(a[i], b[i], 8, 2)
        || r3[i] != lanes(a[i], b[i], 16, 3)) { printf("lanes %d\n", i); ok = false; }
  printf("%d pairs with both lanes >= 0\n%s\n", count, ok ? "PASS" : "FAIL");
  return ok ? 0 : 1;
}
