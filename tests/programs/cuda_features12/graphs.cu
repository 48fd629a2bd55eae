// CUDA graphs as iterative solvers use them: a time step captured from two streams (fork and join through
// events) and replayed many times, and an explicit graph built node by node (copy, memset, kernel and host
// nodes, dependencies added out of order), instantiated with each signature of cudaGraphInstantiate and
// updated between launches. Every result is checked against a plain CPU loop.
#include <cstdio>
#include <cmath>
#include <algorithm>
#include <vector>
#include <cuda_runtime.h>

#define CHECK(call)                                                                   \
  do {                                                                                \
    cudaError_t err_ = (call);                                                        \
    if (err_ != cudaSuccess) {                                                        \
      printf("%s:%d: %s\n", __FILE__, __LINE__, cudaGetErrorString(err_));            \
      return 1;                                                                       \
    }                                                                                 \
  } while (0)

struct Stencil {
  float center, side;
  int n;
};

__global__ void smooth(Stencil s, const float *in, float *out) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= s.n) return;
  float l = i > 0 ? in[i - 1] : 0.0f, r = i + 1 < s.n ? in[i + 1] : 0.0f;
  out[i] = s.center * in[i] + s.side * (l + r);
}

template <class T>
__global__ void add_scaled(T *y, const T *x, T a, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) y[i] += a * x[i];
}

__global__ void count_step(int *counter) {
  if (threadIdx.x == 0 && blockIdx.x == 0) *counter += 1;
}

static int host_calls = 0;
static void on_host(void *data) { host_calls += *(int *)data; }

static void cpu_smooth(Stencil s, const std::vector<float> &in, std::vector<float> &out) {
  for (int i = 0; i < s.n; i++) {
    float l = i > 0 ? in[i - 1] : 0.0f, r = i + 1 < s.n ? in[i + 1] : 0.0f;
    out[i] = s.center * in[i] + s.side * (l + r);
  }
}

int main() {
  const int n = 777, steps = 25;
  std::vector<float> u0(n), acc0(n, 0.0f);
  for (int i = 0; i < n; i++) u0[i] = (float)((i * 37) % 101) / 100.0f;
  Stencil st{0.5f, 0.25f, n};

  float *u, *v, *acc;
  int *counter;
  CHECK(cudaMalloc(&u, n * sizeof(float)));
  CHECK(cudaMalloc(&v, n * sizeof(float)));
  CHECK(cudaMalloc(&acc, n * sizeof(float)));
  CHECK(cudaMalloc(&counter, sizeof(int)));
  CHECK(cudaMemcpy(u, u0.data(), n * sizeof(float), cudaMemcpyHostToDevice));
  CHECK(cudaMemset(acc, 0, n * sizeof(float)));
  CHECK(cudaMemset(counter, 0, sizeof(int)));

  // 1. one time step captured: smooth u -> v on s1, then (after a fork to s2) accumulate v into acc on s2 while
  //    s1 copies v back to u; s2 joins s1 before the capture ends
  cudaStream_t s1, s2;
  cudaEvent_t forked, joined;
  CHECK(cudaStreamCreate(&s1));
  CHECK(cudaStreamCreateWithFlags(&s2, cudaStreamNonBlocking));
  CHECK(cudaEventCreate(&forked));
  CHECK(cudaEventCreate(&joined));
  int one = 1;
  cudaGraph_t step;
  CHECK(cudaStreamBeginCapture(s1, cudaStreamCaptureModeGlobal));
  cudaStreamCaptureStatus status;
  CHECK(cudaStreamIsCapturing(s1, &status));
  int capturing = status == cudaStreamCaptureStatusActive;
  smooth<<<(n + 127) / 128, 128, 0, s1>>>(st, u, v);
  cudaGraph_t building = nullptr;
  size_t pending = 0;
  CHECK(cudaStreamGetCaptureInfo(s1, &status, nullptr, &building, nullptr, &pending));
  capturing += building != nullptr && pending == 1;
  CHECK(cudaEventRecord(forked, s1));
  CHECK(cudaStreamWaitEvent(s2, forked, 0));
  add_scaled<float><<<(n + 255) / 256, 256, 0, s2>>>(acc, v, 0.5f, n);
  count_step<<<1, 32, 0, s2>>>(counter);
  CHECK(cudaLaunchHostFunc(s2, on_host, &one));
  CHECK(cudaEventRecord(joined, s2));
  CHECK(cudaMemcpyAsync(u, v, n * sizeof(float), cudaMemcpyDeviceToDevice, s1));
  CHECK(cudaStreamWaitEvent(s1, joined, 0));
  CHECK(cudaStreamEndCapture(s1, &step));
  CHECK(cudaStreamIsCapturing(s1, &status));
  capturing += status == cudaStreamCaptureStatusNone;
  int calls_during_capture = host_calls;

  std::vector<float> probe(n);
  CHECK(cudaMemcpy(probe.data(), u, n * sizeof(float), cudaMemcpyDeviceToHost));
  int untouched = probe == u0;  // capture ran nothing

  size_t count = 0;
  CHECK(cudaGraphGetNodes(step, nullptr, &count));
  cudaGraphExec_t exec;
  CHECK(cudaGraphInstantiate(&exec, step, 0));  // CUDA 12: flags
  for (int t = 0; t < steps; t++) CHECK(cudaGraphLaunch(exec, s1));
  CHECK(cudaStreamSynchronize(s1));

  std::vector<float> cu = u0, cv(n), cacc = acc0;
  for (int t = 0; t < steps; t++) {
    cpu_smooth(st, cu, cv);
    for (int i = 0; i < n; i++) cacc[i] += 0.5f * cv[i];
    cu = cv;
  }
  std::vector<float> gu(n), gacc(n);
  int gcount = 0;
  CHECK(cudaMemcpy(gu.data(), u, n * sizeof(float), cudaMemcpyDeviceToHost));
  CHECK(cudaMemcpy(gacc.data(), acc, n * sizeof(float), cudaMemcpyDeviceToHost));
  CHECK(cudaMemcpy(&gcount, counter, sizeof(int), cudaMemcpyDeviceToHost));
  int bad = 0;
  for (int i = 0; i < n; i++) bad += gu[i] != cu[i] || gacc[i] != cacc[i];
  printf("capture: %zu nodes, %d steps, counter %d, host calls %d (%d during capture), status %d, untouched %d\n",
         count, steps, gcount, host_calls, calls_during_capture, capturing, untouched);
  bad += count != 5 || gcount != steps || host_calls != steps || calls_during_capture != 0 || capturing != 3 ||
         !untouched;

  // the step twice more: a parent graph holding the captured graph and a clone of it as child graphs
  cudaGraph_t parent, copy;
  cudaGraphNode_t first, second;
  CHECK(cudaGraphCreate(&parent, 0));
  CHECK(cudaGraphAddChildGraphNode(&first, parent, nullptr, 0, step));
  CHECK(cudaGraphClone(&copy, step));
  CHECK(cudaGraphAddChildGraphNode(&second, parent, &first, 1, copy));
  cudaGraphExec_t twice;
  CHECK(cudaGraphInstantiate(&twice, parent, 0));
  CHECK(cudaGraphDestroy(copy));  // (the parent holds its own copy)
  CHECK(cudaGraphLaunch(twice, s1));
  CHECK(cudaStreamSynchronize(s1));
  for (int t = 0; t < 2; t++) {
    cpu_smooth(st, cu, cv);
    for (int i = 0; i < n; i++) cacc[i] += 0.5f * cv[i];
    cu = cv;
  }
  CHECK(cudaMemcpy(gu.data(), u, n * sizeof(float), cudaMemcpyDeviceToHost));
  CHECK(cudaMemcpy(gacc.data(), acc, n * sizeof(float), cudaMemcpyDeviceToHost));
  CHECK(cudaMemcpy(&gcount, counter, sizeof(int), cudaMemcpyDeviceToHost));
  int bad_child = gcount != steps + 2 || host_calls != steps + 2;
  for (int i = 0; i < n; i++) bad_child += gu[i] != cu[i] || gacc[i] != cacc[i];
  printf("child graphs: %d wrong\n", bad_child);
  bad += bad_child;
  CHECK(cudaGraphExecDestroy(twice));
  CHECK(cudaGraphDestroy(parent));

  // 2. an explicit graph: x <- host data, y <- memset(0x3f800000 = 1.0f), y += a*x (kernel template), then y is
  //    smoothed into z and copied back; the dependencies of the last two are added after all nodes exist
  std::vector<float> hx(n), hz(n, -1.0f);
  for (int i = 0; i < n; i++) hx[i] = (float)(i % 13);
  float *x, *y, *z;
  CHECK(cudaMalloc(&x, n * sizeof(float)));
  CHECK(cudaMalloc(&y, n * sizeof(float)));
  CHECK(cudaMalloc(&z, n * sizeof(float)));
  cudaGraph_t g;
  CHECK(cudaGraphCreate(&g, 0));
  cudaGraphNode_t copy_in, fill, axpy, smooth_node, copy_out;
  cudaMemcpy3DParms cp = {};  // (the copy in as cudaMemcpy3D's parameters, as the toolkit samples write it)
  cp.srcPtr = make_cudaPitchedPtr(hx.data(), n * sizeof(float), n, 1);
  cp.dstPtr = make_cudaPitchedPtr(x, n * sizeof(float), n, 1);
  cp.extent = make_cudaExtent(n * sizeof(float), 1, 1);
  cp.kind = cudaMemcpyHostToDevice;
  CHECK(cudaGraphAddMemcpyNode(&copy_in, g, nullptr, 0, &cp));
  cudaMemsetParams mp = {};
  mp.dst = y;
  mp.value = 0x3f800000u;
  mp.elementSize = 4;
  mp.width = n;
  mp.height = 1;
  CHECK(cudaGraphAddMemsetNode(&fill, g, nullptr, 0, &mp));
  float a = 3.0f;
  int nn = n;
  void *axpy_args[] = {&y, &x, &a, &nn};
  cudaKernelNodeParams kp = {};
  kp.func = (void *)add_scaled<float>;
  kp.gridDim = dim3((n + 63) / 64);
  kp.blockDim = dim3(64);
  kp.kernelParams = axpy_args;
  cudaGraphNode_t before_axpy[] = {copy_in, fill};
  CHECK(cudaGraphAddKernelNode(&axpy, g, before_axpy, 2, &kp));
  a = -100.0f;  // (the node keeps the value it was given)
  Stencil st2{1.0f, 1.0f, n};
  void *smooth_args[] = {&st2, &y, &z};
  cudaKernelNodeParams sp = {reinterpret_cast<void *>(smooth), dim3((n + 127) / 128), dim3(128), 0, smooth_args,
                             nullptr};
  CHECK(cudaGraphAddKernelNode(&smooth_node, g, nullptr, 0, &sp));
  CHECK(cudaGraphAddMemcpyNode1D(&copy_out, g, nullptr, 0, hz.data(), z, n * sizeof(float),
                                 cudaMemcpyDeviceToHost));
  cudaGraphNode_t from[] = {smooth_node, axpy}, to[] = {copy_out, smooth_node};
  CHECK(cudaGraphAddDependencies(g, from, to, 2));
  cudaGraphExec_t ge;
  cudaGraphNode_t error_node;
  char log[64];
  CHECK(cudaGraphInstantiate(&ge, g, &error_node, log, sizeof log));  // CUDA 11: error node and log
  CHECK(cudaGraphLaunch(ge, 0));
  CHECK(cudaDeviceSynchronize());
  auto expect = [&](float scale, int i) {
    float yi = 1.0f + scale * hx[i], l = i > 0 ? 1.0f + scale * hx[i - 1] : 0.0f,
          r = i + 1 < n ? 1.0f + scale * hx[i + 1] : 0.0f;
    return yi + (l + r);
  };
  int bad2 = 0;
  for (int i = 0; i < n; i++) bad2 += hz[i] != expect(3.0f, i);
  // the executable graph's kernel node updated with a new scale; the graph itself keeps the old one
  a = 0.25f;
  CHECK(cudaGraphExecKernelNodeSetParams(ge, axpy, &kp));
  CHECK(cudaGraphLaunch(ge, 0));
  CHECK(cudaDeviceSynchronize());
  for (int i = 0; i < n; i++) bad2 += hz[i] != expect(0.25f, i);
  // the graph's node changed, then the executable graph updated from it (CUDA 12's result record)
  a = 2.0f;
  CHECK(cudaGraphKernelNodeSetParams(axpy, &kp));
  cudaGraphExecUpdateResultInfo info;
  CHECK(cudaGraphExecUpdate(ge, g, &info));
  CHECK(cudaGraphLaunch(ge, 0));
  CHECK(cudaDeviceSynchronize());
  for (int i = 0; i < n; i++) bad2 += hz[i] != expect(2.0f, i);
  bad2 += info.result != cudaGraphExecUpdateSuccess;
  a = 3.0f;
  CHECK(cudaGraphKernelNodeSetParams(axpy, &kp));
  cudaGraphExec_t ge2;
  CHECK(cudaGraphInstantiateWithFlags(&ge2, g, cudaGraphInstantiateFlagAutoFreeOnLaunch));
  CHECK(cudaGraphLaunch(ge2, s1));
  CHECK(cudaStreamSynchronize(s1));
  for (int i = 0; i < n; i++) bad2 += hz[i] != expect(3.0f, i);
  // the executable graph's copy out redirected to another host buffer, its memset to another value (2.0f)
  std::vector<float> hz2(n, -1.0f);
  CHECK(cudaGraphExecMemcpyNodeSetParams1D(ge2, copy_out, hz2.data(), z, n * sizeof(float), cudaMemcpyDeviceToHost));
  mp.value = 0x40000000u;
  CHECK(cudaGraphExecMemsetNodeSetParams(ge2, fill, &mp));
  CHECK(cudaGraphLaunch(ge2, s1));
  CHECK(cudaStreamSynchronize(s1));
  for (int i = 0; i < n; i++) {
    float yi = 2.0f + 3.0f * hx[i], l = i > 0 ? 2.0f + 3.0f * hx[i - 1] : 0.0f,
          r = i + 1 < n ? 2.0f + 3.0f * hx[i + 1] : 0.0f;
    bad2 += hz2[i] != yi + (l + r);
  }
  printf("explicit graph: %d wrong, z[5] %.2f\n", bad2, hz[5]);

  // 3. copies of pitched rows, a 2D memset, a stream callback and a stream-ordered free captured: the memory
  //    freed during the capture stays usable by every launch of the graph
  const int rows = 6, cols = 10;
  float *pitched, *dense;
  size_t pitch;
  CHECK(cudaMallocPitch((void **)&pitched, &pitch, cols * sizeof(float), rows));
  CHECK(cudaMallocAsync((void **)&dense, rows * cols * sizeof(float), s1));
  std::vector<float> grid(rows * cols), result(rows * cols, 0.0f);
  for (int i = 0; i < rows * cols; i++) grid[i] = (float)i;
  static int callbacks = 0;
  cudaGraph_t g3;
  CHECK(cudaStreamBeginCapture(s1, cudaStreamCaptureModeRelaxed));
  CHECK(cudaMemset2DAsync(pitched, pitch, 0, cols * sizeof(float), rows, s1));
  CHECK(cudaMemcpy2DAsync(pitched, pitch, grid.data(), cols * sizeof(float), (cols - 2) * sizeof(float), rows,
                          cudaMemcpyHostToDevice, s1));
  add_scaled<float><<<1, 64, 0, s1>>>(pitched, pitched, 1.0f, (int)(pitch / sizeof(float)) * (rows - 1) + cols);
  CHECK(cudaMemcpy2DAsync(dense, cols * sizeof(float), pitched, pitch, cols * sizeof(float), rows,
                          cudaMemcpyDeviceToDevice, s1));
  CHECK(cudaMemcpyAsync(result.data(), dense, rows * cols * sizeof(float), cudaMemcpyDeviceToHost, s1));
  CHECK(cudaStreamAddCallback(s1, [](cudaStream_t, cudaError_t status, void *) { callbacks += status == cudaSuccess; },
                              nullptr, 0));
  CHECK(cudaFreeAsync(dense, s1));
  CHECK(cudaStreamEndCapture(s1, &g3));
  cudaGraphExec_t ge3;
  CHECK(cudaGraphInstantiate(&ge3, g3, 0));
  int bad3 = callbacks != 0;
  for (int rep = 0; rep < 2; rep++) {
    std::fill(result.begin(), result.end(), -1.0f);
    CHECK(cudaGraphLaunch(ge3, s1));
    CHECK(cudaStreamSynchronize(s1));
    for (int r = 0; r < rows; r++)
      for (int c = 0; c < cols; c++) bad3 += result[r * cols + c] != (c < cols - 2 ? 2.0f * grid[r * cols + c] : 0.0f);
  }
  bad3 += callbacks != 2;
  printf("captured 2D copies: %d wrong, %d callbacks\n", bad3, callbacks);
  bad += bad3;
  CHECK(cudaGraphExecDestroy(ge3));
  CHECK(cudaGraphDestroy(g3));

  CHECK(cudaGraphExecDestroy(exec));
  CHECK(cudaGraphExecDestroy(ge));
  CHECK(cudaGraphExecDestroy(ge2));
  CHECK(cudaGraphDestroy(step));
  CHECK(cudaGraphDestroy(g));
  CHECK(cudaStreamDestroy(s1));
  CHECK(cudaStreamDestroy(s2));
  bad += bad2;
  printf(bad ? "FAIL\n" : "PASS\n");
  return bad != 0;
}
