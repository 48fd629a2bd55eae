// Per-block timestamps and processor ids read from PTX special registers, as timing and scheduling studies do
// (a `__globaltimer()` helper around `mov.u64 %0, %globaltimer;`, `%%smid`/`%%nsmid`, `%%clock64`, the 32-bit
// halves of the global timer), and a spin-wait kernel that holds each block for a given number of nanoseconds.
// The host checks the stamps against its own real-time clock around the launch and the ids against the device
// properties.
#include <cstdio>
#include <cstdint>
#include <ctime>
#include "check.h"

__device__ __forceinline__ unsigned long long __globaltimer()
{
  unsigned long long t;
  asm volatile("mov.u64 %0, %globaltimer;" : "=l"(t));
  return t;
}
static __device__ __inline__ uint32_t sm_id()
{
  uint32_t r;
  asm volatile("mov.u32 %0, %%smid;" : "=r"(r));
  return r;
}

__global__ void hold(unsigned long long *start, unsigned long long *stop, unsigned *sm, unsigned *nsm,
                     long long *cycles, unsigned *halves, long long ns)
{
  unsigned long long t0 = __globaltimer(), t;
  long long c0, c1;
  asm volatile("mov.u64 %0, %%clock64;" : "=l"(c0));
  do {
    t = __globaltimer();
  } while ((long long)(t - t0) < ns);
  asm volatile("mov.u64 %0, %%clock64;" : "=l"(c1));
  if (threadIdx.x == 0) {
    unsigned lo, hi, n;
    asm volatile("mov.u32 %0, %%globaltimer_hi;" : "=r"(hi));
    asm volatile("mov.u32 %0, %%globaltimer_lo;" : "=r"(lo));
    asm("mov.u32 %0, %%nsmid;" : "=r"(n));
    start[blockIdx.x] = t0;
    stop[blockIdx.x] = t;
    sm[blockIdx.x] = sm_id();
    nsm[blockIdx.x] = n;
    cycles[blockIdx.x] = c1 - c0;
    halves[2 * blockIdx.x] = hi;
    halves[2 * blockIdx.x + 1] = lo;
  }
}

static unsigned long long host_ns()
{
  timespec t;
  clock_gettime(CLOCK_REALTIME, &t);
  return (unsigned long long)t.tv_sec * 1000000000ull + t.tv_nsec;
}

int main()
{
  const int blocks = 12;
  const long long ns = 200000;  // 0.2 ms per block
  unsigned long long *start, *stop;
  unsigned *sm, *nsm, *halves;
  long long *cycles;
  CHECK_CUDA(cudaMallocManaged(&start, blocks * sizeof(*start)));
  CHECK_CUDA(cudaMallocManaged(&stop, blocks * sizeof(*stop)));
  CHECK_CUDA(cudaMallocManaged(&sm, blocks * sizeof(*sm)));
  CHECK_CUDA(cudaMallocManaged(&nsm, blocks * sizeof(*nsm)));
  CHECK_CUDA(cudaMallocManaged(&cycles, blocks * sizeof(*cycles)));
  CHECK_CUDA(cudaMallocManaged(&halves, 2 * blocks * sizeof(*halves)));
  cudaDeviceProp prop;
  CHECK_CUDA(cudaGetDeviceProperties(&prop, 0));

  unsigned long long before = host_ns();
  hold<<<blocks, 64>>>(start, stop, sm, nsm, cycles, halves, ns);
  CHECK_CUDA(cudaDeviceSynchronize());
  unsigned long long after = host_ns();

  int bad = 0;
  unsigned long long busy = 0;
  for (int b = 0; b < blocks; b++) {
    unsigned long long wide = ((unsigned long long)halves[2 * b] << 32) | halves[2 * b + 1];
    if (start[b] < before || stop[b] > after || stop[b] - start[b] < (unsigned long long)ns) bad++;
    if (wide < stop[b] || wide > after) bad++;  // read after the loop, as one 64-bit value would be
    if (nsm[b] != (unsigned)prop.multiProcessorCount || sm[b] >= nsm[b]) bad++;
    if (cycles[b] < 0) bad++;
    busy += stop[b] - start[b];
  }
  if (after - before < (unsigned long long)ns) bad++;
  printf("blocks: %d, held: %llu ns in all, wall: %llu ns, bad: %d\n", blocks, busy, after - before, bad);
  printf("%s\n", bad ? "FAIL" : "PASS");
  cudaFree(start); cudaFree(stop); cudaFree(sm); cudaFree(nsm); cudaFree(cycles); cudaFree(halves);
  return bad != 0;
}
