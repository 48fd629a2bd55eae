// Exact-match lengths of reads against a reference, in blocks of reads sized by the free device memory that
// the driver API reports (cuMemGetInfo), after the SDK's driver-API device check (cuInit, cuDeviceGetCount,
// cuDeviceComputeCapability, cuDeviceGet). CPU reference; prints PASS or FAIL.
#include <cuda.h>
#include <cuda_runtime.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define DRV_CHECK(call) do { CUresult e_ = (call); if (e_ != CUDA_SUCCESS) { \
    fprintf(stderr, "driver error %d at line %d\n", (int)e_, __LINE__); exit(1); } } while (0)

static const int REF_LEN = 4096, READ_LEN = 48, NUM_READS = 700;

// Longest prefix of read r that occurs at reference position p, for every p: the best one per read.
__global__ void longest_match(const char *ref, int ref_len, const char *reads, int nreads, int *best, int *where) {
  int r = blockIdx.x * blockDim.x + threadIdx.x;
  if (r >= nreads) return;
  const char *q = reads + r * READ_LEN;
  int b = 0, w = -1;
  for (int p = 0; p + 1 <= ref_len; p++) {
    int k = 0;
    while (k < READ_LEN && p + k < ref_len && ref[p + k] == q[k]) k++;
    if (k > b) { b = k; w = p; }
  }
  best[r] = b;
  where[r] = w;
}

static void device_init(void) {
  int count = 0, dev, major = 0, minor = 0;
  CUdevice cu;
  DRV_CHECK(cuInit(0));
  DRV_CHECK(cuDeviceGetCount(&count));
  if (count == 0) { printf("no device\nFAIL\n"); exit(1); }
  for (dev = 0; dev < count; ++dev) {
    DRV_CHECK(cuDeviceComputeCapability(&major, &minor, dev));
    if (major >= 1) break;
  }
  DRV_CHECK(cuDeviceGet(&cu, dev));
  if (cuDeviceGet(&cu, count) == CUDA_SUCCESS) { printf("device %d should not exist\nFAIL\n", count); exit(1); }
  char name[64];
  size_t total = 0;
  DRV_CHECK(cuDeviceGetName(name, sizeof name, cu));
  DRV_CHECK(cuDeviceTotalMem(&total, cu));
  if (name[0] == 0 || total == 0) { printf("empty device description\nFAIL\n"); exit(1); }
}

int main(void) {
  device_init();
  char *ref = (char *)malloc(REF_LEN), *reads = (char *)malloc(NUM_READS * READ_LEN);
  unsigned s = 12345;
  for (int i = 0; i < REF_LEN; i++) { s = s * 1103515245u + 12345u; ref[i] = "ACGT"[(s >> 16) & 3]; }
  for (int r = 0; r < NUM_READS; r++) {
    s = s * 1103515245u + 12345u;
    int p = (s >> 8) % (REF_LEN - READ_LEN);
    memcpy(reads + r * READ_LEN, ref + p, READ_LEN);
    s = s * 1103515245u + 12345u;
    reads[r * READ_LEN + 8 + (s >> 16) % 36] = 'N';  // a mismatch somewhere past the 8th base
  }
  size_t free_mem = 0, total_mem = 0;
  DRV_CHECK(cuMemGetInfo(&free_mem, &total_mem));
  if (free_mem == 0 || free_mem > total_mem) { printf("free %zu total %zu\nFAIL\n", free_mem, total_mem); return 1; }
  // as mummergpu does: leave breathing room, then fit as many reads per block as the rest allows (capped so
  // that the blocks here come out several)
  size_t avail = free_mem - (free_mem / 4);
  size_t per_read = READ_LEN + 2 * sizeof(int);
  int block_reads = (int)(avail / per_read);
  if (block_reads > 256) block_reads = 256;

  char *d_ref, *d_reads;
  int *d_best, *d_where;
  cudaMalloc(&d_ref, REF_LEN);
  cudaMemcpy(d_ref, ref, REF_LEN, cudaMemcpyHostToDevice);
  cudaMalloc(&d_reads, block_reads * READ_LEN);
  cudaMalloc(&d_best, block_reads * sizeof(int));
  cudaMalloc(&d_where, block_reads * sizeof(int));
  int *best = (int *)malloc(NUM_READS * sizeof(int)), *where = (int *)malloc(NUM_READS * sizeof(int));
  int blocks = 0;
  for (int first = 0; first < NUM_READS; first += block_reads, blocks++) {
    int n = NUM_READS - first < block_reads ? NUM_READS - first : block_reads;
    cudaMemcpy(d_reads, reads + first * READ_LEN, n * READ_LEN, cudaMemcpyHostToDevice);
    longest_match<<<(n + 63) / 64, 64>>>(d_ref, REF_LEN, d_reads, n, d_best, d_where);
    cudaMemcpy(best + first, d_best, n * sizeof(int), cudaMemcpyDeviceToHost);
    cudaMemcpy(where + first, d_where, n * sizeof(int), cudaMemcpyDeviceToHost);
  }
  int bad = 0;
  for (int r = 0; r < NUM_READS; r++) {
    const char *q = reads + r * READ_LEN;
    int b = 0, w = -1;
    for (int p = 0; p < REF_LEN; p++) {
      int k = 0;
      while (k < READ_LEN && p + k < REF_LEN && ref[p + k] == q[k]) k++;
      if (k > b) { b = k; w = p; }
    }
    if (b != best[r] || w != where[r]) bad++;
  }
  printf("%d reads in %d blocks, %d differ\n", NUM_READS, blocks, bad);
  printf(bad == 0 && blocks == 3 ? "PASS\n" : "FAIL\n");
  return bad != 0;
}
