/* polygeist-py: legacy CUDA texture references. pgcc supports 1-D textures bound to linear device memory:
   `texture<T, 1, cudaReadModeElementType> tex;`, cudaBindTexture / cudaUnbindTexture and tex1Dfetch(tex, i),
   which reads element i of the bound memory (a plain load on the CPU). The other forms (2-D/3-D textures,
   CUDA arrays, normalized-float reads) are declared so programs parse, and pgcc reports them as unsupported. */
#ifndef PGCC_CUDA_TEXTURE_H
#define PGCC_CUDA_TEXTURE_H

enum cudaTextureReadMode { cudaReadModeElementType = 0, cudaReadModeNormalizedFloat = 1 };
enum cudaTextureFilterMode { cudaFilterModePoint = 0, cudaFilterModeLinear = 1 };
enum cudaTextureAddressMode { cudaAddressModeWrap = 0, cudaAddressModeClamp = 1, cudaAddressModeMirror = 2,
                              cudaAddressModeBorder = 3 };
enum cudaChannelFormatKind { cudaChannelFormatKindSigned = 0, cudaChannelFormatKindUnsigned = 1,
                             cudaChannelFormatKindFloat = 2, cudaChannelFormatKindNone = 3 };
struct cudaChannelFormatDesc { int x, y, z, w; enum cudaChannelFormatKind f; };
struct cudaArray;
typedef struct cudaArray *cudaArray_t;
struct textureReference {
  int normalized;
  enum cudaTextureFilterMode filterMode;
  enum cudaTextureAddressMode addressMode[3];
  struct cudaChannelFormatDesc channelDesc;
};
template <class T, int dim = 1, enum cudaTextureReadMode mode = cudaReadModeElementType>
struct texture : public textureReference {};

template <class T, int dim, enum cudaTextureReadMode mode>
cudaError_t cudaBindTexture(size_t *offset, const texture<T, dim, mode> &tex, const void *devPtr,
                            size_t size = ~(size_t)0);
template <class T, int dim, enum cudaTextureReadMode mode>
cudaError_t cudaBindTexture(size_t *offset, const texture<T, dim, mode> &tex, const void *devPtr,
                            const struct cudaChannelFormatDesc &desc, size_t size = ~(size_t)0);
extern "C" cudaError_t cudaBindTexture(size_t *offset, const struct textureReference *texref, const void *devPtr,
                                       const struct cudaChannelFormatDesc *desc, size_t size = ~(size_t)0);
template <class T, int dim, enum cudaTextureReadMode mode>
cudaError_t cudaUnbindTexture(const texture<T, dim, mode> &tex);
extern "C" cudaError_t cudaUnbindTexture(const struct textureReference *texref);
template <class T> __device__ T tex1Dfetch(const texture<T, 1, cudaReadModeElementType> &tex, int x);
template <class T> __device__ float tex1Dfetch(const texture<T, 1, cudaReadModeNormalizedFloat> &tex, int x);

/* unsupported forms (pgcc reports them; in host code compiled by the host compiler, as that compiler's error) */
#ifdef __PGCC_HOST_PASS__
#define PGCC_UNSUPPORTED(what) __attribute__((error("unsupported construct: " what)))
#else
#define PGCC_UNSUPPORTED(what)
#endif
template <class T, int dim, enum cudaTextureReadMode mode>
PGCC_UNSUPPORTED("2-D textures (cudaBindTexture2D); only 1-D textures bound to linear memory are supported")
cudaError_t cudaBindTexture2D(size_t *offset, const texture<T, dim, mode> &tex, const void *devPtr,
                              const struct cudaChannelFormatDesc &desc, size_t width, size_t height, size_t pitch);
template <class T, int dim, enum cudaTextureReadMode mode>
PGCC_UNSUPPORTED("textures bound to CUDA arrays (cudaBindTextureToArray, cudaArray)")
cudaError_t cudaBindTextureToArray(const texture<T, dim, mode> &tex, cudaArray_t array);
template <class T, int dim, enum cudaTextureReadMode mode>
PGCC_UNSUPPORTED("textures bound to CUDA arrays (cudaBindTextureToArray, cudaArray)")
cudaError_t cudaBindTextureToArray(const texture<T, dim, mode> &tex, cudaArray_t array,
                                   const struct cudaChannelFormatDesc &desc);
PGCC_UNSUPPORTED("CUDA arrays (cudaMallocArray, cudaArray)")
cudaError_t cudaMallocArray(cudaArray_t *array, const struct cudaChannelFormatDesc *desc, size_t width,
                            size_t height = 0, unsigned int flags = 0);
PGCC_UNSUPPORTED("CUDA arrays (cudaFreeArray, cudaArray)") cudaError_t cudaFreeArray(cudaArray_t array);
template <class T> struct cudaChannelFormatDesc cudaCreateChannelDesc(void);
template <class T, enum cudaTextureReadMode mode> __device__ T tex1D(const texture<T, 1, mode> &tex, float x);
template <class T, enum cudaTextureReadMode mode> __device__ T tex2D(const texture<T, 2, mode> &tex, float x, float y);
template <class T, enum cudaTextureReadMode mode>
__device__ T tex3D(const texture<T, 3, mode> &tex, float x, float y, float z);
#endif
