// Warp-aware code in the style of hashing and histogram kernels: a lane's id, warp id and lane masks read from
// PTX special registers with inline asm ("mov.u32 %0, %%laneid;"; also a PTX prefetch and a membar), lanes
// grouped by key with __match_any_sync / __match_all_sync (a leader per distinct key adds the group's count),
// packed byte arithmetic (__dp4a, __vcmpeq4, __vsetgtu4, __vavgu4) and 16-bit float accumulators updated with
// atomicAdd (__half, __half2, __nv_bfloat16). The host recomputes every value from the same inputs.
#include <cstdio>
#include <cstring>
#include <vector>
#include <cuda_fp16.h>
#include <cuda_bf16.h>

#define THREADS 96 // three warps, laid out as a 2-D block (32 x 3)
#define KEYS 5

__device__ __forceinline__ unsigned lane_id() { unsigned r; asm volatile("mov.u32 %0, %%laneid;" : "=r"(r)); return r; }
__device__ __forceinline__ unsigned warp_id() { unsigned r; asm("mov.u32 %0, %%warpid;" : "=r"(r)); return r; }
__device__ __forceinline__ unsigned mask_lt() { unsigned r; asm("mov.u32 %0, %%lanemask_lt;" : "=r"(r)); return r; }
__device__ __forceinline__ unsigned mask_ge() { unsigned r; asm("mov.b32 %0, %%lanemask_ge;" : "=r"(r)); return r; }

struct Out {
  unsigned lane, warp, lt, ge, peers, all_same, dp_u;
  int dp_s, all_pred;
  unsigned eq4, gtu4, avg4;
};

__global__ void group(const int *keys, const unsigned *a, const unsigned *b, Out *out, int *counts,
                      __half *h, __half2 *h2, __nv_bfloat16 *bf)
{
  int t = threadIdx.x + blockDim.x * threadIdx.y;
  Out o;
  o.lane = lane_id();
  o.warp = warp_id();
  o.lt = mask_lt();
  o.ge = mask_ge();
  asm volatile("prefetch.global.L2 [%0];" :: "l"(keys + t));
  int key = keys[t];
  o.peers = __match_any_sync(0xffffffff, key);
  o.all_same = __match_all_sync(0xffffffff, key / 100, &o.all_pred);
  // the lowest lane of each group of equal keys adds the group's size
  if ((o.peers & o.lt) == 0) atomicAdd(&counts[key % KEYS], __popc(o.peers));
  o.dp_s = __dp4a((int)a[t], (int)b[t], t);
  o.dp_u = __dp4a(a[t], b[t], (unsigned)t);
  o.eq4 = __vcmpeq4(a[t], b[t]);
  o.gtu4 = __vsetgtu4(a[t], b[t]);
  o.avg4 = __vavgu4(a[t], b[t]);
  out[t] = o;
  asm volatile("membar.gl;" ::: "memory");
  atomicAdd(&h[key % 3], __float2half(1.0f + (t & 1)));
  atomicAdd(&h2[t % 2], __floats2half2_rn(1.0f, 2.0f));
  atomicAdd(&bf[t % 4], __float2bfloat16(1.0f));
}

int main()
{
  std::vector<int> keys(THREADS);
  std::vector<unsigned> a(THREADS), b(THREADS);
  unsigned s = 12345;
  for (int t = 0; t < THREADS; t++) {
    s = s * 1103515245u + 12345u;
    keys[t] = t < 32 ? 700 + (s >> 16) % 3 : (int)((s >> 16) % 7); // warp 0: all keys in the 700s
    a[t] = s * 2654435761u;
    b[t] = (t % 3 == 0) ? a[t] ^ 0x00ff0000u : s * 40503u;
  }
  int *dk, *dc; unsigned *da, *db; Out *dout; __half *dh; __half2 *dh2; __nv_bfloat16 *dbf;
  cudaMalloc(&dk, THREADS * sizeof(int)); cudaMalloc(&da, THREADS * 4); cudaMalloc(&db, THREADS * 4);
  cudaMalloc(&dout, THREADS * sizeof(Out)); cudaMalloc(&dc, KEYS * sizeof(int));
  cudaMalloc(&dh, 3 * sizeof(__half)); cudaMalloc(&dh2, 2 * sizeof(__half2)); cudaMalloc(&dbf, 4 * sizeof(__nv_bfloat16));
  cudaMemset(dc, 0, KEYS * sizeof(int)); cudaMemset(dh, 0, 3 * sizeof(__half));
  cudaMemset(dh2, 0, 2 * sizeof(__half2)); cudaMemset(dbf, 0, 4 * sizeof(__nv_bfloat16));
  cudaMemcpy(dk, keys.data(), THREADS * sizeof(int), cudaMemcpyHostToDevice);
  cudaMemcpy(da, a.data(), THREADS * 4, cudaMemcpyHostToDevice);
  cudaMemcpy(db, b.data(), THREADS * 4, cudaMemcpyHostToDevice);
  group<<<1, dim3(32, 3)>>>(dk, da, db, dout, dc, dh, dh2, dbf);
  std::vector<Out> out(THREADS);
  int counts[KEYS];
  __half h[3]; __half2 h2[2]; __nv_bfloat16 bf[4];
  cudaMemcpy(out.data(), dout, THREADS * sizeof(Out), cudaMemcpyDeviceToHost);
  cudaMemcpy(counts, dc, sizeof counts, cudaMemcpyDeviceToHost);
  cudaMemcpy(h, dh, sizeof h, cudaMemcpyDeviceToHost);
  cudaMemcpy(h2, dh2, sizeof h2, cudaMemcpyDeviceToHost);
  cudaMemcpy(bf, dbf, sizeof bf, cudaMemcpyDeviceToHost);

  int bad = 0;
  int want_counts[KEYS] = {0};
  float want_h[3] = {0}, want_bf[4] = {0};
  for (int t = 0; t < THREADS; t++) {
    const Out &o = out[t];
    unsigned lane = t % 32, w = t / 32, peers = 0;
    bool same = true;
    for (int l = 0; l < 32; l++) {
      if (keys[w * 32 + l] == keys[t]) peers |= 1u << l;
      same &= keys[w * 32 + l] / 100 == keys[w * 32] / 100;
    }
    int dps = t; unsigned dpu = t, eq = 0, gt = 0, avg = 0;
    for (int k = 0; k < 4; k++) {
      int sa = (signed char)(a[t] >> 8 * k), sb = (signed char)(b[t] >> 8 * k);
      unsigned ua = (a[t] >> 8 * k) & 0xff, ub = (b[t] >> 8 * k) & 0xff;
      dps += sa * sb; dpu += ua * ub;
      eq |= (ua == ub ? 0xffu : 0u) << 8 * k;
      gt |= (ua > ub ? 1u : 0u) << 8 * k;
      avg |= ((ua + ub + 1) >> 1) << 8 * k;
    }
    if (o.lane != lane || o.warp != w || o.lt != (1u << lane) - 1 || o.ge != ~((1u << lane) - 1)) bad++;
    if (o.peers != peers || o.all_pred != (int)same || o.all_same != (same ? 0xffffffffu : 0u)) bad++;
    if (o.dp_s != dps || o.dp_u != dpu || o.eq4 != eq || o.gtu4 != gt || o.avg4 != avg) bad++;
    want_counts[keys[t] % KEYS]++;
    want_h[keys[t] % 3] += 1.0f + (t & 1);
    want_bf[t % 4] += 1.0f;
  }
  for (int k = 0; k < KEYS; k++) bad += counts[k] != want_counts[k];
  for (int k = 0; k < 3; k++) bad += __half2float(h[k]) != want_h[k];
  for (int k = 0; k < 2; k++) bad += __low2float(h2[k]) != THREADS / 2 || __high2float(h2[k]) != THREADS;
  for (int k = 0; k < 4; k++) bad += __bfloat162float(bf[k]) != want_bf[k];
  printf("mismatches: %d\n%s\n", bad, bad ? "FAIL" : "PASS");
  return bad != 0;
}
