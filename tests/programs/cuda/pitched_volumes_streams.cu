// A 3-D stencil in the style of volume-processing benchmarks: the volume lives in pitched device memory
// (cudaMalloc3D, cudaMemcpy3D in both directions with offsets, cudaMemset3D/cudaMemset2D for halos), work is
// queued on prioritized streams (cudaDeviceGetStreamPriorityRange, cudaStreamCreateWithPriority), completion is
// reported by host functions in stream order (cudaLaunchHostFunc, cudaStreamAddCallback with CUDART_CB), events are
// created without timing, and the block size comes from cudaFuncGetAttributes. The host recomputes the stencil.
#include <cstdio>
#include <cstring>
#include <vector>
#include <cuda_runtime.h>

#define NX 20
#define NY 12
#define NZ 7

__global__ void smooth(cudaPitchedPtr in, cudaPitchedPtr out, int nx, int ny, int nz)
{
  int x = blockIdx.x * blockDim.x + threadIdx.x, y = blockIdx.y, z = blockIdx.z;
  if (x >= nx) return;
  const char *base = (const char *)in.ptr;
  auto at = [&](int i, int j, int k) -> float {
    if (i < 0 || j < 0 || k < 0 || i >= nx || j >= ny || k >= nz) return 0.f;
    return ((const float *)(base + ((size_t)k * in.ysize + j) * in.pitch))[i];
  };
  float v = 0.5f * at(x, y, z) + 0.1f * (at(x - 1, y, z) + at(x + 1, y, z) + at(x, y - 1, z) + at(x, y + 1, z) +
                                         at(x, y, z - 1)) - 0.05f * at(x, y, z + 1);
  ((float *)((char *)out.ptr + ((size_t)z * out.ysize + y) * out.pitch))[x] = v;
}

struct Progress { int host_fns, callbacks; float first_seen; const float *watch; };

static void CUDART_CB after_kernel(void *p)
{
  Progress *g = (Progress *)p;
  g->host_fns++;
  g->first_seen = g->watch[0];  // (the copy queued before it on the stream has completed)
}

static void CUDART_CB on_done(cudaStream_t s, cudaError_t status, void *p)
{
  if (status == cudaSuccess) ((Progress *)p)->callbacks++;
}

int main()
{
  std::vector<float> h(NX * NY * NZ), back(NX * NY * NZ, -1.f), want(NX * NY * NZ);
  for (int i = 0; i < NX * NY * NZ; i++) h[i] = (float)((i * 37) % 101) / 7.f;
  int least, greatest;
  cudaDeviceGetStreamPriorityRange(&least, &greatest);
  cudaStream_t s;
  cudaStreamCreateWithPriority(&s, cudaStreamNonBlocking, greatest);
  cudaEvent_t done;
  cudaEventCreateWithFlags(&done, cudaEventDisableTiming);

  cudaExtent ext = make_cudaExtent(NX * sizeof(float), NY, NZ);
  cudaPitchedPtr din, dout;
  cudaMalloc3D(&din, ext);
  cudaMalloc3D(&dout, ext);
  cudaMemset3D(dout, 0xff, ext);
  cudaMemset2D(din.ptr, din.pitch, 0, NX * sizeof(float), NY * NZ);

  cudaMemcpy3DParms up = {0};
  up.srcPtr = make_cudaPitchedPtr(h.data(), NX * sizeof(float), NX, NY);
  up.dstPtr = din;
  up.extent = ext;
  up.kind = cudaMemcpyHostToDevice;
  cudaMemcpy3DAsync(&up, s);

  cudaFuncAttributes attr;
  cudaFuncGetAttributes(&attr, smooth);
  int threads = attr.maxThreadsPerBlock >= 32 ? 32 : attr.maxThreadsPerBlock;
  smooth<<<dim3((NX + threads - 1) / threads, NY, NZ), threads, 0, s>>>(din, dout, NX, NY, NZ);

  // back to the host with an offset: slices 1.. of the result into slices 1.. of `back`
  cudaMemcpy3DParms down = {0};
  down.srcPtr = dout;
  down.srcPos = make_cudaPos(0, 0, 1);
  down.dstPtr = make_cudaPitchedPtr(back.data(), NX * sizeof(float), NX, NY);
  down.dstPos = make_cudaPos(0, 0, 1);
  down.extent = make_cudaExtent(NX * sizeof(float), NY, NZ - 1);
  down.kind = cudaMemcpyDeviceToHost;
  cudaMemcpy3DAsync(&down, s);
  Progress g = {0, 0, 0.f, back.data() + NX * NY};
  cudaLaunchHostFunc(s, after_kernel, &g);
  cudaStreamAddCallback(s, on_done, &g, 0);
  cudaEventRecord(done, s);
  cudaEventSynchronize(done);

  auto at = [&](int i, int j, int k) -> float {
    if (i < 0 || j < 0 || k < 0 || i >= NX || j >= NY || k >= NZ) return 0.f;
    return h[(k * NY + j) * NX + i];
  };
  int bad = 0;
  for (int z = 0; z < NZ; z++)
    for (int y = 0; y < NY; y++)
      for (int x = 0; x < NX; x++) {
        float v = 0.5f * at(x, y, z) + 0.1f * (at(x - 1, y, z) + at(x + 1, y, z) + at(x, y - 1, z) +
                                               at(x, y + 1, z) + at(x, y, z - 1)) - 0.05f * at(x, y, z + 1);
        float got = back[(z * NY + y) * NX + x];
        bad += z == 0 ? got != -1.f : got != v;  // (slice 0 was not copied back)
      }
  bad += g.host_fns != 1 || g.callbacks != 1 || g.first_seen != back[NX * NY];
  bad += greatest < least ? 0 : 1;  // (a greater priority is a lower number)
  printf("mismatches: %d\n%s\n", bad, bad ? "FAIL" : "PASS");
  return bad != 0;
}
