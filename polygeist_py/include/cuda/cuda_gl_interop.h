/* polygeist-py: the CUDA runtime's OpenGL interoperability API (cuda_gl_interop.h), for programs that include it
   (Rodinia's hybridsort does, and calls nothing from it). There is no GPU to share buffers with OpenGL: the
   functions return cudaErrorNotSupported and say so on stderr, as a build without OpenGL support would. The
   OpenGL types are the platform's (GLuint is unsigned int, GLenum unsigned int), so no OpenGL header is needed. */
#ifndef PGCC_CUDA_GL_INTEROP_H
#define PGCC_CUDA_GL_INTEROP_H
#include <stdio.h>
#include "cuda_runtime.h"

struct cudaGraphicsResource;
typedef struct cudaGraphicsResource *cudaGraphicsResource_t;
enum cudaGraphicsRegisterFlags { cudaGraphicsRegisterFlagsNone = 0, cudaGraphicsRegisterFlagsReadOnly = 1,
                                 cudaGraphicsRegisterFlagsWriteDiscard = 2 };
enum cudaGraphicsMapFlags { cudaGraphicsMapFlagsNone = 0, cudaGraphicsMapFlagsReadOnly = 1,
                            cudaGraphicsMapFlagsWriteDiscard = 2 };
enum cudaGLDeviceList { cudaGLDeviceListAll = 1, cudaGLDeviceListCurrentFrame = 2, cudaGLDeviceListNextFrame = 3 };

#ifdef __PGCC_HOST_PASS__
static inline cudaError_t __pgcc_gl_unsupported(const char *name) {
  fprintf(stderr, "pgcc: %s: OpenGL interoperability is not supported (no GPU)\n", name);
  return cudaErrorNotSupported;
}
#define PGCC_GL(name, params) \
  static inline cudaError_t name params { return __pgcc_gl_unsupported(#name); }
#else
#define PGCC_GL(name, params) cudaError_t name params;
#endif
PGCC_GL(cudaGLGetDevices, (unsigned int *count, int *devices, unsigned int n, enum cudaGLDeviceList list))
PGCC_GL(cudaGLSetGLDevice, (int device))
PGCC_GL(cudaGraphicsGLRegisterBuffer, (cudaGraphicsResource_t *resource, unsigned int buffer, unsigned int flags))
PGCC_GL(cudaGraphicsGLRegisterImage, (cudaGraphicsResource_t *resource, unsigned int image, unsigned int target,
                                      unsigned int flags))
PGCC_GL(cudaGraphicsMapResources, (int count, cudaGraphicsResource_t *resources, cudaStream_t stream = 0))
PGCC_GL(cudaGraphicsUnmapResources, (int count, cudaGraphicsResource_t *resources, cudaStream_t stream = 0))
PGCC_GL(cudaGraphicsResourceGetMappedPointer, (void **devPtr, size_t *size, cudaGraphicsResource_t resource))
PGCC_GL(cudaGraphicsUnregisterResource, (cudaGraphicsResource_t resource))
PGCC_GL(cudaGraphicsResourceSetMapFlags, (cudaGraphicsResource_t resource, unsigned int flags))
PGCC_GL(cudaGLRegisterBufferObject, (unsigned int buffer))
PGCC_GL(cudaGLUnregisterBufferObject, (unsigned int buffer))
PGCC_GL(cudaGLMapBufferObject, (void **devPtr, unsigned int buffer))
PGCC_GL(cudaGLUnmapBufferObject, (unsigned int buffer))
#undef PGCC_GL
#endif
