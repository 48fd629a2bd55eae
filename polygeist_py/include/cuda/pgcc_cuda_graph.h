/* polygeist-py: CUDA graphs for --cpuify programs (runtime/pgcc_cuda_runtime.c implements them). Stream capture
   records the operations issued to a capturing stream (kernel launches with a copy of their arguments, copies,
   memsets, host functions) instead of running them; explicit graphs are built node by node; a launch of an
   instantiated graph runs its nodes one after another in an order that respects their dependencies (a
   topological order: here everything runs in order on the host, so one valid order is all a graph needs). */
#ifndef PGCC_CUDA_GRAPH_H
#define PGCC_CUDA_GRAPH_H

typedef struct CUgraph_st *cudaGraph_t;
typedef struct CUgraphExec_st *cudaGraphExec_t;
typedef struct CUgraphNode_st *cudaGraphNode_t;

enum cudaStreamCaptureMode { cudaStreamCaptureModeGlobal = 0, cudaStreamCaptureModeThreadLocal = 1,
                             cudaStreamCaptureModeRelaxed = 2 };
enum cudaStreamCaptureStatus { cudaStreamCaptureStatusNone = 0, cudaStreamCaptureStatusActive = 1,
                               cudaStreamCaptureStatusInvalidated = 2 };
enum cudaGraphInstantiateFlags { cudaGraphInstantiateFlagAutoFreeOnLaunch = 1, cudaGraphInstantiateFlagUpload = 2,
                                 cudaGraphInstantiateFlagDeviceLaunch = 4, cudaGraphInstantiateFlagUseNodePriority = 8 };
enum cudaGraphNodeType { cudaGraphNodeTypeKernel = 0, cudaGraphNodeTypeMemcpy = 1, cudaGraphNodeTypeMemset = 2,
                         cudaGraphNodeTypeHost = 3, cudaGraphNodeTypeGraph = 4, cudaGraphNodeTypeEmpty = 5 };
enum cudaGraphExecUpdateResult { cudaGraphExecUpdateSuccess = 0, cudaGraphExecUpdateError = 1 };

/* a kernel node: `func` is the kernel (`(void *)kernel`), `kernelParams` points to each argument's value */
struct cudaKernelNodeParams {
  void *func;
  dim3 gridDim;
  dim3 blockDim;
  unsigned int sharedMemBytes;
  void **kernelParams;
  void **extra;
};
/* a memset node: `height` rows of `width` elements of `elementSize` (1, 2 or 4) bytes, rows `pitch` bytes apart */
struct cudaMemsetParams {
  void *dst;
  size_t pitch;
  unsigned int value;
  unsigned int elementSize;
  size_t width;
  size_t height;
};
struct cudaHostNodeParams {
  void (*fn)(void *);
  void *userData;
};

extern "C" {
cudaError_t cudaStreamBeginCapture(cudaStream_t stream, enum cudaStreamCaptureMode mode = cudaStreamCaptureModeGlobal);
cudaError_t cudaStreamEndCapture(cudaStream_t stream, cudaGraph_t *graph);
cudaError_t cudaStreamIsCapturing(cudaStream_t stream, enum cudaStreamCaptureStatus *status);
cudaError_t cudaThreadExchangeStreamCaptureMode(enum cudaStreamCaptureMode *mode);
cudaError_t cudaGraphCreate(cudaGraph_t *graph, unsigned int flags);
cudaError_t cudaGraphDestroy(cudaGraph_t graph);
cudaError_t cudaGraphInstantiateWithFlags(cudaGraphExec_t *exec, cudaGraph_t graph, unsigned long long flags = 0);
cudaError_t cudaGraphLaunch(cudaGraphExec_t exec, cudaStream_t stream);
cudaError_t cudaGraphUpload(cudaGraphExec_t exec, cudaStream_t stream);
cudaError_t cudaGraphExecDestroy(cudaGraphExec_t exec);
cudaError_t cudaGraphAddKernelNode(cudaGraphNode_t *node, cudaGraph_t graph, const cudaGraphNode_t *dependencies,
                                   size_t count, const struct cudaKernelNodeParams *params);
cudaError_t cudaGraphKernelNodeGetParams(cudaGraphNode_t node, struct cudaKernelNodeParams *params);
cudaError_t cudaGraphKernelNodeSetParams(cudaGraphNode_t node, const struct cudaKernelNodeParams *params);
cudaError_t cudaGraphExecKernelNodeSetParams(cudaGraphExec_t exec, cudaGraphNode_t node,
                                             const struct cudaKernelNodeParams *params);
cudaError_t cudaGraphAddMemcpyNode1D(cudaGraphNode_t *node, cudaGraph_t graph, const cudaGraphNode_t *dependencies,
                                     size_t count, void *dst, const void *src, size_t bytes,
                                     enum cudaMemcpyKind kind);
cudaError_t cudaGraphMemcpyNodeSetParams1D(cudaGraphNode_t node, void *dst, const void *src, size_t bytes,
                                           enum cudaMemcpyKind kind);
cudaError_t cudaGraphExecMemcpyNodeSetParams1D(cudaGraphExec_t exec, cudaGraphNode_t node, void *dst, const void *src,
                                               size_t bytes, enum cudaMemcpyKind kind);
cudaError_t cudaGraphMemsetNodeSetParams(cudaGraphNode_t node, const struct cudaMemsetParams *params);
cudaError_t cudaGraphExecMemsetNodeSetParams(cudaGraphExec_t exec, cudaGraphNode_t node,
                                             const struct cudaMemsetParams *params);
cudaError_t cudaGraphHostNodeSetParams(cudaGraphNode_t node, const struct cudaHostNodeParams *params);
cudaError_t cudaGraphExecHostNodeSetParams(cudaGraphExec_t exec, cudaGraphNode_t node,
                                           const struct cudaHostNodeParams *params);
cudaError_t cudaGraphAddMemsetNode(cudaGraphNode_t *node, cudaGraph_t graph, const cudaGraphNode_t *dependencies,
                                   size_t count, const struct cudaMemsetParams *params);
cudaError_t cudaGraphAddHostNode(cudaGraphNode_t *node, cudaGraph_t graph, const cudaGraphNode_t *dependencies,
                                 size_t count, const struct cudaHostNodeParams *params);
cudaError_t cudaGraphAddEmptyNode(cudaGraphNode_t *node, cudaGraph_t graph, const cudaGraphNode_t *dependencies,
                                  size_t count);
cudaError_t cudaGraphAddChildGraphNode(cudaGraphNode_t *node, cudaGraph_t graph, const cudaGraphNode_t *dependencies,
                                       size_t count, cudaGraph_t child);
cudaError_t cudaGraphClone(cudaGraph_t *clone, cudaGraph_t graph);
cudaError_t cudaGraphAddEventRecordNode(cudaGraphNode_t *node, cudaGraph_t graph,
                                        const cudaGraphNode_t *dependencies, size_t count, cudaEvent_t event);
cudaError_t cudaGraphAddEventWaitNode(cudaGraphNode_t *node, cudaGraph_t graph, const cudaGraphNode_t *dependencies,
                                      size_t count, cudaEvent_t event);
cudaError_t cudaGraphAddDependencies(cudaGraph_t graph, const cudaGraphNode_t *from, const cudaGraphNode_t *to,
                                     size_t count);
cudaError_t cudaGraphGetNodes(cudaGraph_t graph, cudaGraphNode_t *nodes, size_t *count);
cudaError_t cudaGraphNodeGetType(cudaGraphNode_t node, enum cudaGraphNodeType *type);
cudaError_t cudaLaunchHostFunc(cudaStream_t stream, void (*fn)(void *), void *userData);
cudaError_t __pgcc_capture_info(cudaStream_t stream, enum cudaStreamCaptureStatus *status, unsigned long long *id,
                                cudaGraph_t *graph, const cudaGraphNode_t **dependencies, size_t *count);
cudaError_t __pgcc_graph_exec_update(cudaGraphExec_t exec, cudaGraph_t graph);
cudaError_t __pgcc_graph_add_copy3d(cudaGraphNode_t *node, cudaGraph_t graph, const cudaGraphNode_t *dependencies,
                                    size_t count, void *dst, size_t dpitch, size_t dslice, const void *src,
                                    size_t spitch, size_t sslice, size_t width, size_t height, size_t depth);
/* a kernel's stub (cuda_split.device_stubs) and the host's `(void *)kernel` (__pgcc_kernel_handle) hand the runtime
   what it needs to run a kernel later: a function that calls the stub with arguments read from an array */
int __pgcc_stream_capturing(void *stream);
void __pgcc_capture_launch(void *stream, const unsigned int *grid, const unsigned int *block, size_t shared,
                           void (*replay)(void **), void **args, const size_t *sizes, int count);
void __pgcc_register_kernel(void *func, void (*unpack)(void *, void **), int count, const size_t *sizes);
}
/* CUDA 12's cudaGraphInstantiate(exec, graph, flags) and CUDA 11's (exec, graph, error node, log, log size) */
static inline cudaError_t cudaGraphInstantiate(cudaGraphExec_t *exec, cudaGraph_t graph, unsigned long long flags = 0) {
  return cudaGraphInstantiateWithFlags(exec, graph, flags);
}
static inline cudaError_t cudaGraphInstantiate(cudaGraphExec_t *exec, cudaGraph_t graph, cudaGraphNode_t *error_node,
                                               char *log, size_t log_size) {
  if (error_node)
    *error_node = 0;
  if (log && log_size)
    log[0] = 0;
  return cudaGraphInstantiateWithFlags(exec, graph, 0);
}
/* a copy node described as cudaMemcpy3D's parameters (pitched pointers or arrays, positions, an extent) */
static inline cudaError_t cudaGraphAddMemcpyNode(cudaGraphNode_t *node, cudaGraph_t graph,
                                                 const cudaGraphNode_t *dependencies, size_t count,
                                                 const struct cudaMemcpy3DParms *m) {
  struct __pgcc_3d_copy c = __pgcc_3d_copy_of(m);
  char *src = c.src, *dst = c.dst;
  size_t sp = c.sp, dp = c.dp, width = c.width, src_rows = c.src_rows, dst_rows = c.dst_rows;
  return __pgcc_graph_add_copy3d(node, graph, dependencies, count, dst, dp, dst_rows * dp, src, sp, src_rows * sp,
                                 width, m->extent.height, m->extent.depth ? m->extent.depth : 1);
}
/* CUDA 12's query of a stream's capture: its status, an id, the graph and the nodes the next operation follows */
static inline cudaError_t cudaStreamGetCaptureInfo(cudaStream_t stream, enum cudaStreamCaptureStatus *status,
                                                   unsigned long long *id = 0, cudaGraph_t *graph = 0,
                                                   const cudaGraphNode_t **dependencies = 0, size_t *count = 0) {
  return __pgcc_capture_info(stream, status, id, graph, dependencies, count);
}
/* an executable graph made anew from `graph` (pgcc puts no restriction on the changes: its launch runs the
   graph's current nodes); CUDA 12's result record and CUDA 11's error node and result */
typedef struct cudaGraphExecUpdateResultInfo_st {
  enum cudaGraphExecUpdateResult result;
  cudaGraphNode_t errorNode;
  cudaGraphNode_t errorFromNode;
} cudaGraphExecUpdateResultInfo;
static inline cudaError_t cudaGraphExecUpdate(cudaGraphExec_t exec, cudaGraph_t graph,
                                              cudaGraphExecUpdateResultInfo *info) {
  cudaError_t e = __pgcc_graph_exec_update(exec, graph);
  if (info)
    info->result = e == cudaSuccess ? cudaGraphExecUpdateSuccess : cudaGraphExecUpdateError, info->errorNode = 0,
    info->errorFromNode = 0;
  return e;
}
static inline cudaError_t cudaGraphExecUpdate(cudaGraphExec_t exec, cudaGraph_t graph, cudaGraphNode_t *error_node,
                                              enum cudaGraphExecUpdateResult *result) {
  cudaError_t e = __pgcc_graph_exec_update(exec, graph);
  if (error_node)
    *error_node = 0;
  if (result)
    *result = e == cudaSuccess ? cudaGraphExecUpdateSuccess : cudaGraphExecUpdateError;
  return e;
}
struct cudaGraphInstantiateParams {
  unsigned long long flags;
  cudaStream_t uploadStream;
  cudaGraphNode_t errNode_out;
  int result_out;
};
static inline cudaError_t cudaGraphInstantiateWithParams(cudaGraphExec_t *exec, cudaGraph_t graph,
                                                         struct cudaGraphInstantiateParams *params) {
  cudaError_t e = cudaGraphInstantiateWithFlags(exec, graph, params ? params->flags : 0);
  if (params)
    params->errNode_out = 0, params->result_out = 0;
  return e;
}
#ifdef __PGCC_HOST_PASS__
/* `(void *)kernel` in host code (cuda_split.host_source rewrites it to this call): the kernel's stub, registered
   with a function that calls it with the arguments of an array, as a kernel node launches it */
template <class... P>
static void __pgcc_unpack_launch(void *f, void **args) {
  __pgcc_call_unpacked((void (*)(P...))f, args, typename __pgcc_make_index_seq<sizeof...(P)>::type());
}
template <class... P>
static inline void *__pgcc_kernel_handle(void (*f)(P...)) {
  static const size_t sizes[] = {sizeof(typename __pgcc_unref<P>::type)..., 0};
  __pgcc_register_kernel((void *)f, &__pgcc_unpack_launch<P...>, (int)sizeof...(P), sizes);
  return (void *)f;
}
#endif
#endif
