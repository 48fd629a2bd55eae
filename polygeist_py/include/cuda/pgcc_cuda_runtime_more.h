/* polygeist-py: more of the CUDA runtime API, header-only because pgcc runs every launch, copy and callback
   synchronously in program order: event flags, stream priorities, host functions and callbacks in stream order
   (they run at once: everything before them in the stream has run), the managed-memory attach flags, 2D/3D
   copies and memsets on linear memory (cudaPitchedPtr, cudaExtent; a CUDA array endpoint of cudaMemcpy3D is a
   2D array of pgcc_cuda_texture.h), and function attributes (one device: the limits cudaGetDeviceProperties gives). */
#ifndef PGCC_CUDA_RUNTIME_MORE_H
#define PGCC_CUDA_RUNTIME_MORE_H

#define CUDART_CB
#define cudaEventDefault 0x00
#define cudaEventBlockingSync 0x01
#define cudaEventDisableTiming 0x02
#define cudaEventInterprocess 0x04
#define cudaMemAttachGlobal 0x01
#define cudaMemAttachHost 0x02
#define cudaMemAttachSingle 0x04

/* priorities order nothing when streams run in program order; the range is a GPU's (0 least, -5 greatest) */
static inline cudaError_t cudaDeviceGetStreamPriorityRange(int *least, int *greatest) {
  if (least) *least = 0;
  if (greatest) *greatest = -5;
  return cudaSuccess;
}
static inline cudaError_t cudaStreamCreateWithPriority(cudaStream_t *s, unsigned int flags, int priority) {
  return cudaStreamCreateWithFlags(s, flags);
}
static inline cudaError_t cudaStreamGetPriority(cudaStream_t s, int *priority) { *priority = 0; return cudaSuccess; }
static inline cudaError_t cudaStreamGetFlags(cudaStream_t s, unsigned int *flags) { *flags = 0; return cudaSuccess; }
static inline cudaError_t cudaStreamAttachMemAsync(cudaStream_t s, void *p, size_t length = 0,
                                                   unsigned int flags = cudaMemAttachSingle) {
  return cudaSuccess;
}
typedef void (*cudaHostFn_t)(void *userData);
typedef void (*cudaStreamCallback_t)(cudaStream_t stream, cudaError_t status, void *userData);
/* cudaLaunchHostFunc: pgcc_cuda_graph.h (a capturing stream records it) */
/* (pgcc's runtime: operations of the functions below on a stream that a graph captures are recorded into it,
   pgcc_cuda_graph.h; each returns whether it recorded) */
extern "C" {
int __pgcc_capture_copy2d(cudaStream_t s, void *dst, size_t dpitch, const void *src, size_t spitch, size_t width,
                          size_t height);
int __pgcc_capture_memset2d(cudaStream_t s, void *dst, size_t pitch, int value, size_t width, size_t height);
int __pgcc_capture_callback(cudaStream_t s, cudaStreamCallback_t cb, void *userData);
}
static inline cudaError_t cudaStreamAddCallback(cudaStream_t s, cudaStreamCallback_t cb, void *userData,
                                                unsigned int flags) {
  if (!__pgcc_capture_callback(s, cb, userData))
    cb(s, cudaSuccess, userData);
  return cudaSuccess;
}

/* pitched linear memory: rows of `pitch` bytes, `ysize` rows to a slice; widths and x positions in bytes */
struct cudaExtent { size_t width, height, depth; };
struct cudaPitchedPtr { void *ptr; size_t pitch, xsize, ysize; };
struct cudaPos { size_t x, y, z; };
static inline struct cudaExtent make_cudaExtent(size_t w, size_t h, size_t d) {
  struct cudaExtent e = {w, h, d};
  return e;
}
static inline struct cudaPitchedPtr make_cudaPitchedPtr(void *p, size_t pitch, size_t xsize, size_t ysize) {
  struct cudaPitchedPtr r = {p, pitch, xsize, ysize};
  return r;
}
static inline struct cudaPos make_cudaPos(size_t x, size_t y, size_t z) {
  struct cudaPos r = {x, y, z};
  return r;
}
static inline cudaError_t cudaMemset2D(void *p, size_t pitch, int value, size_t width, size_t height) {
  for (size_t r = 0; r < height; r++) memset((char *)p + r * pitch, value, width);
  return cudaSuccess;
}
static inline cudaError_t cudaMemset2DAsync(void *p, size_t pitch, int value, size_t width, size_t height,
                                            cudaStream_t s = 0) {
  if (__pgcc_capture_memset2d(s, p, pitch, value, width, height))
    return cudaSuccess;
  return cudaMemset2D(p, pitch, value, width, height);
}
static inline cudaError_t cudaMemcpy2DAsync(void *dst, size_t dpitch, const void *src, size_t spitch, size_t width,
                                            size_t height, enum cudaMemcpyKind kind, cudaStream_t s = 0) {
  if (__pgcc_capture_copy2d(s, dst, dpitch, src, spitch, width, height))
    return cudaSuccess;
  return cudaMemcpy2D(dst, dpitch, src, spitch, width, height, kind);
}
static inline cudaError_t cudaMalloc3D(struct cudaPitchedPtr *p, struct cudaExtent e) {
  size_t pitch;
  cudaError_t err = cudaMallocPitch(&p->ptr, &pitch, e.width, e.height * (e.depth ? e.depth : 1));
  p->pitch = pitch;
  p->xsize = e.width;
  p->ysize = e.height;
  return err;
}
static inline cudaError_t cudaMemset3D(struct cudaPitchedPtr p, int value, struct cudaExtent e) {
  for (size_t z = 0; z < e.depth; z++)
    for (size_t y = 0; y < e.height; y++) memset((char *)p.ptr + (z * p.ysize + y) * p.pitch, value, e.width);
  return cudaSuccess;
}
static inline cudaError_t cudaMemset3DAsync(struct cudaPitchedPtr p, int value, struct cudaExtent e,
                                            cudaStream_t s = 0) {
  int captured = 0;
  for (size_t z = 0; z < e.depth; z++) /* (one slice at a time) */
    captured = __pgcc_capture_memset2d(s, (char *)p.ptr + z * p.ysize * p.pitch, p.pitch, value, e.width, e.height);
  if (captured)
    return cudaSuccess;
  return cudaMemset3D(p, value, e);
}
struct cudaMemcpy3DParms {
  cudaArray_t srcArray;
  struct cudaPos srcPos;
  struct cudaPitchedPtr srcPtr;
  cudaArray_t dstArray;
  struct cudaPos dstPos;
  struct cudaPitchedPtr dstPtr;
  struct cudaExtent extent;
  enum cudaMemcpyKind kind;
};
/* (an array endpoint: its rows of width * elem bytes; positions and the extent's width then count elements) */
static inline char *__pgcc_3d_address(cudaArray_t a, struct cudaPitchedPtr p, struct cudaPos pos, size_t *pitch) {
  if (a) {
    *pitch = a->width * a->elem;
    return (char *)a->data + (pos.z * a->height + pos.y) * *pitch + pos.x * a->elem;
  }
  *pitch = p.pitch;
  return (char *)p.ptr + (pos.z * p.ysize + pos.y) * p.pitch + pos.x;
}
/* the addresses, pitches, row width in bytes and rows per slice of both sides of cudaMemcpy3DParms (one place
   for the synchronous, asynchronous and graph-node forms) */
struct __pgcc_3d_copy { char *src, *dst; size_t sp, dp, width, src_rows, dst_rows; };
static inline struct __pgcc_3d_copy __pgcc_3d_copy_of(const struct cudaMemcpy3DParms *m) {
  struct __pgcc_3d_copy c;
  c.src = __pgcc_3d_address(m->srcArray, m->srcPtr, m->srcPos, &c.sp);
  c.dst = __pgcc_3d_address(m->dstArray, m->dstPtr, m->dstPos, &c.dp);
  c.width = m->extent.width * (m->srcArray ? m->srcArray->elem : m->dstArray ? m->dstArray->elem : 1);
  c.src_rows = m->srcArray ? m->srcArray->height : m->srcPtr.ysize;
  c.dst_rows = m->dstArray ? m->dstArray->height : m->dstPtr.ysize;
  return c;
}
static inline cudaError_t cudaMemcpy3D(const struct cudaMemcpy3DParms *m) {
  struct __pgcc_3d_copy c = __pgcc_3d_copy_of(m);
  char *src = c.src, *dst = c.dst;
  size_t sp = c.sp, dp = c.dp, width = c.width, src_rows = c.src_rows, dst_rows = c.dst_rows;
  for (size_t z = 0; z < (m->extent.depth ? m->extent.depth : 1); z++)
    for (size_t y = 0; y < m->extent.height; y++)
      memmove(dst + (z * dst_rows + y) * dp, src + (z * src_rows + y) * sp, width);
  return cudaSuccess;
}
static inline cudaError_t cudaMemcpy3DAsync(const struct cudaMemcpy3DParms *m, cudaStream_t s = 0) {
  struct __pgcc_3d_copy c = __pgcc_3d_copy_of(m);
  char *src = c.src, *dst = c.dst;
  size_t sp = c.sp, dp = c.dp, width = c.width, src_rows = c.src_rows, dst_rows = c.dst_rows;
  int captured = 0;
  for (size_t z = 0; z < (m->extent.depth ? m->extent.depth : 1); z++) /* (one slice at a time) */
    captured = __pgcc_capture_copy2d(s, dst + z * dst_rows * dp, dp, src + z * src_rows * sp, sp, width,
                                     m->extent.height);
  if (captured)
    return cudaSuccess;
  return cudaMemcpy3D(m);
}

/* function attributes: no registers or local memory to report on a CPU; the block limit of the device */
struct cudaFuncAttributes {
  size_t sharedSizeBytes, constSizeBytes, localSizeBytes;
  int maxThreadsPerBlock, numRegs, ptxVersion, binaryVersion, cacheModeCA, maxDynamicSharedSizeBytes,
      preferredShmemCarveout;
};
template <class T> static inline cudaError_t cudaFuncGetAttributes(struct cudaFuncAttributes *a, T func) {
  memset(a, 0, sizeof *a);
  a->maxThreadsPerBlock = 1024;
  a->ptxVersion = a->binaryVersion = 60;
  a->maxDynamicSharedSizeBytes = 48 * 1024;
  return cudaSuccess;
}
#endif
