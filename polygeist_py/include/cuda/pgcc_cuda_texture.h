/* polygeist-py: CUDA textures. Texture objects (further down) read linear memory, pitched 2-D memory and CUDA
   arrays. Legacy texture references (`texture<T, dim, cudaReadModeElementType> tex;`, the host compiler's
   objects, read by device code through their symbol): 1-D ones bound to linear memory (cudaBindTexture,
   tex1Dfetch(tex, i): element i of the bound memory, a plain load on the CPU), 1-D ones bound to CUDA arrays
   (cudaBindTextureToArray, tex1D) and 2-D ones bound to pitched memory or CUDA arrays (cudaBindTexture2D,
   cudaBindTextureToArray, tex2D), read with the texture's filterMode, normalized and addressMode settings as
   texture objects are. 3-D textures and normalized-float reads are declared so programs parse, and pgcc
   reports them as unsupported. */
#ifndef PGCC_CUDA_TEXTURE_H
#define PGCC_CUDA_TEXTURE_H
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum cudaTextureReadMode { cudaReadModeElementType = 0, cudaReadModeNormalizedFloat = 1 };
enum cudaTextureFilterMode { cudaFilterModePoint = 0, cudaFilterModeLinear = 1 };
enum cudaTextureAddressMode { cudaAddressModeWrap = 0, cudaAddressModeClamp = 1, cudaAddressModeMirror = 2,
                              cudaAddressModeBorder = 3 };
enum cudaChannelFormatKind { cudaChannelFormatKindSigned = 0, cudaChannelFormatKindUnsigned = 1,
                             cudaChannelFormatKindFloat = 2, cudaChannelFormatKindNone = 3 };
struct cudaChannelFormatDesc { int x, y, z, w; enum cudaChannelFormatKind f; };
/* a CUDA array: elements of `elem` bytes, rows of `width`, in host memory (pgcc_cuda_texture.h's texture objects) */
struct cudaArray {
  unsigned char *data;
  size_t width, height, elem;
  struct cudaChannelFormatDesc desc;
};
typedef struct cudaArray *cudaArray_t;
typedef const struct cudaArray *cudaArray_const_t;
struct textureReference {
  /* the memory cudaBindTexture bound (first: device code loads it from the texture's address) */
  const void *__pgcc_bound;
  int normalized;
  enum cudaTextureFilterMode filterMode;
  enum cudaTextureAddressMode addressMode[3];
  struct cudaChannelFormatDesc channelDesc;
  /* the bound memory's shape: texels per row, rows, bytes from one row to the next (tex1D, tex2D) */
  size_t __pgcc_width, __pgcc_height, __pgcc_pitch;
};
template <class T, int dim = 1, enum cudaTextureReadMode mode = cudaReadModeElementType>
struct texture : public textureReference {
  /* CUDA's defaults: unnormalized coordinates, point filtering, clamped addressing */
  texture(int norm = 0, enum cudaTextureFilterMode fMode = cudaFilterModePoint,
          enum cudaTextureAddressMode aMode = cudaAddressModeClamp) {
    __pgcc_bound = 0;
    normalized = norm;
    filterMode = fMode;
    addressMode[0] = addressMode[1] = addressMode[2] = aMode;
    channelDesc.x = channelDesc.y = channelDesc.z = channelDesc.w = 0;
    channelDesc.f = cudaChannelFormatKindNone;
    __pgcc_width = __pgcc_height = __pgcc_pitch = 0;
  }
};

#ifdef __PGCC_HOST_PASS__
/* nvcc's model: the host compiler's texture reference is the object device code reads (cuda_builtins.py:
   texture_global); binding stores the memory's address in it, and the memory is read from its first byte */
static inline cudaError_t cudaBindTexture(size_t *offset, const struct textureReference *texref, const void *devPtr,
                                          const struct cudaChannelFormatDesc *desc, size_t size = ~(size_t)0) {
  (void)desc, (void)size;
  if (texref == NULL)
    return cudaErrorInvalidValue;
  if (offset != NULL)
    *offset = 0;
  struct textureReference *t = (struct textureReference *)texref;
  t->__pgcc_bound = devPtr;
  t->__pgcc_width = size;  /* (bytes: tex1Dfetch does not check bounds) */
  t->__pgcc_height = 1;
  t->__pgcc_pitch = 0;
  return cudaSuccess;
}
/* 2-D texture references over pitched memory (cudaMallocPitch) and texture references over CUDA arrays */
static inline cudaError_t cudaBindTexture2D(size_t *offset, const struct textureReference *texref, const void *devPtr,
                                            const struct cudaChannelFormatDesc *desc, size_t width, size_t height,
                                            size_t pitch) {
  (void)desc;
  if (texref == NULL)
    return cudaErrorInvalidValue;
  if (offset != NULL)
    *offset = 0;
  struct textureReference *t = (struct textureReference *)texref;
  t->__pgcc_bound = devPtr;
  t->__pgcc_width = width;
  t->__pgcc_height = height;
  t->__pgcc_pitch = pitch;
  return cudaSuccess;
}
template <class T, int dim, enum cudaTextureReadMode mode>
cudaError_t cudaBindTexture2D(size_t *offset, const texture<T, dim, mode> &tex, const void *devPtr,
                              const struct cudaChannelFormatDesc &desc, size_t width, size_t height, size_t pitch) {
  return cudaBindTexture2D(offset, &tex, devPtr, &desc, width, height, pitch);
}
template <class T, int dim, enum cudaTextureReadMode mode>
cudaError_t cudaBindTexture2D(size_t *offset, const texture<T, dim, mode> &tex, const void *devPtr, size_t width,
                              size_t height, size_t pitch) {
  return cudaBindTexture2D(offset, &tex, devPtr, &tex.channelDesc, width, height, pitch);
}
static inline cudaError_t cudaBindTextureToArray(const struct textureReference *texref, cudaArray_const_t array,
                                                 const struct cudaChannelFormatDesc *desc) {
  (void)desc;
  if (texref == NULL || array == NULL)
    return cudaErrorInvalidValue;
  struct textureReference *t = (struct textureReference *)texref;
  t->__pgcc_bound = array->data;
  t->__pgcc_width = array->width;
  t->__pgcc_height = array->height;
  t->__pgcc_pitch = array->width * array->elem;
  return cudaSuccess;
}
template <class T, int dim, enum cudaTextureReadMode mode>
cudaError_t cudaBindTextureToArray(const texture<T, dim, mode> &tex, cudaArray_const_t array) {
  return cudaBindTextureToArray(&tex, array, (const struct cudaChannelFormatDesc *)NULL);
}
template <class T, int dim, enum cudaTextureReadMode mode>
cudaError_t cudaBindTextureToArray(const texture<T, dim, mode> &tex, cudaArray_const_t array,
                                   const struct cudaChannelFormatDesc &desc) {
  return cudaBindTextureToArray(&tex, array, &desc);
}
template <class T, int dim, enum cudaTextureReadMode mode>
cudaError_t cudaBindTexture(size_t *offset, const texture<T, dim, mode> &tex, const void *devPtr,
                            size_t size = ~(size_t)0) {
  return cudaBindTexture(offset, &tex, devPtr, (const struct cudaChannelFormatDesc *)NULL, size);
}
template <class T, int dim, enum cudaTextureReadMode mode>
cudaError_t cudaBindTexture(size_t *offset, const texture<T, dim, mode> &tex, const void *devPtr,
                            const struct cudaChannelFormatDesc &desc, size_t size = ~(size_t)0) {
  return cudaBindTexture(offset, &tex, devPtr, &desc, size);
}
static inline cudaError_t cudaUnbindTexture(const struct textureReference *texref) {
  if (texref == NULL)
    return cudaErrorInvalidValue;
  ((struct textureReference *)texref)->__pgcc_bound = NULL;
  return cudaSuccess;
}
template <class T, int dim, enum cudaTextureReadMode mode>
cudaError_t cudaUnbindTexture(const texture<T, dim, mode> &tex) {
  return cudaUnbindTexture(&tex);
}
#else
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
template <class T, int dim, enum cudaTextureReadMode mode>
cudaError_t cudaBindTexture2D(size_t *offset, const texture<T, dim, mode> &tex, const void *devPtr,
                              const struct cudaChannelFormatDesc &desc, size_t width, size_t height, size_t pitch);
template <class T, int dim, enum cudaTextureReadMode mode>
cudaError_t cudaBindTexture2D(size_t *offset, const texture<T, dim, mode> &tex, const void *devPtr, size_t width,
                              size_t height, size_t pitch);
cudaError_t cudaBindTexture2D(size_t *offset, const struct textureReference *texref, const void *devPtr,
                              const struct cudaChannelFormatDesc *desc, size_t width, size_t height, size_t pitch);
template <class T, int dim, enum cudaTextureReadMode mode>
cudaError_t cudaBindTextureToArray(const texture<T, dim, mode> &tex, cudaArray_const_t array);
template <class T, int dim, enum cudaTextureReadMode mode>
cudaError_t cudaBindTextureToArray(const texture<T, dim, mode> &tex, cudaArray_const_t array,
                                   const struct cudaChannelFormatDesc &desc);
cudaError_t cudaBindTextureToArray(const struct textureReference *texref, cudaArray_const_t array,
                                   const struct cudaChannelFormatDesc *desc);
#endif
template <class T> __device__ T tex1Dfetch(const texture<T, 1, cudaReadModeElementType> &tex, int x);
template <class T> __device__ float tex1Dfetch(const texture<T, 1, cudaReadModeNormalizedFloat> &tex, int x);

/* unsupported forms (pgcc reports them; in host code compiled by the host compiler, as that compiler's error) */
#ifdef __PGCC_HOST_PASS__
#define PGCC_UNSUPPORTED(what) __attribute__((error("unsupported construct: " what)))
#else
#define PGCC_UNSUPPORTED(what)
#endif
#ifdef __PGCC_HOST_PASS__
static inline cudaError_t cudaMallocArray(cudaArray_t *array, const struct cudaChannelFormatDesc *desc, size_t width,
                                          size_t height = 0, unsigned int flags = 0) {
  (void)flags;
  size_t elem = (size_t)(desc->x + desc->y + desc->z + desc->w) / 8;
  cudaArray_t a = (cudaArray_t)calloc(1, sizeof(struct cudaArray));
  if (a == NULL || elem == 0)
    return cudaErrorInvalidValue;
  a->width = width;
  a->height = height ? height : 1;
  a->elem = elem;
  a->desc = *desc;
  a->data = (unsigned char *)calloc(a->width * a->height, elem);
  *array = a;
  return a->data ? cudaSuccess : cudaErrorMemoryAllocation;
}
static inline cudaError_t cudaFreeArray(cudaArray_t array) {
  if (array) {
    free(array->data);
    free(array);
  }
  return cudaSuccess;
}
static inline cudaError_t cudaMemcpy2DToArray(cudaArray_t dst, size_t wOffset, size_t hOffset, const void *src,
                                              size_t spitch, size_t width, size_t height, enum cudaMemcpyKind kind) {
  (void)kind;
  if (wOffset + width > dst->width * dst->elem || hOffset + height > dst->height)
    return cudaErrorInvalidValue;
  for (size_t r = 0; r < height; r++)
    memcpy(dst->data + (hOffset + r) * dst->width * dst->elem + wOffset, (const unsigned char *)src + r * spitch, width);
  return cudaSuccess;
}
static inline cudaError_t cudaMemcpy2DFromArray(void *dst, size_t dpitch, cudaArray_const_t src, size_t wOffset,
                                                size_t hOffset, size_t width, size_t height, enum cudaMemcpyKind kind) {
  (void)kind;
  if (wOffset + width > src->width * src->elem || hOffset + height > src->height)
    return cudaErrorInvalidValue;
  for (size_t r = 0; r < height; r++)
    memcpy((unsigned char *)dst + r * dpitch, src->data + (hOffset + r) * src->width * src->elem + wOffset, width);
  return cudaSuccess;
}
static inline cudaError_t cudaMemcpyToArray(cudaArray_t dst, size_t wOffset, size_t hOffset, const void *src,
                                            size_t count, enum cudaMemcpyKind kind) {
  (void)kind;
  size_t at = hOffset * dst->width * dst->elem + wOffset;
  if (at + count > dst->width * dst->height * dst->elem)
    return cudaErrorInvalidValue;
  memcpy(dst->data + at, src, count);
  return cudaSuccess;
}
static inline struct cudaChannelFormatDesc cudaCreateChannelDesc(int x, int y, int z, int w,
                                                                 enum cudaChannelFormatKind f) {
  struct cudaChannelFormatDesc d = {x, y, z, w, f};
  return d;
}
template <class T> struct __pgcc_channel;
#define PGCC_CHANNEL(T, N, BITS, KIND)                                                              \
  template <> struct __pgcc_channel<T> {                                                           \
    static struct cudaChannelFormatDesc desc() {                                                   \
      return cudaCreateChannelDesc(BITS, N > 1 ? BITS : 0, N > 2 ? BITS : 0, N > 3 ? BITS : 0, KIND); \
    }                                                                                              \
  };
#define PGCC_CHANNELS(T, V, BITS, KIND)                                                             \
  PGCC_CHANNEL(T, 1, BITS, KIND) PGCC_CHANNEL(V##2, 2, BITS, KIND) PGCC_CHANNEL(V##4, 4, BITS, KIND)
PGCC_CHANNELS(float, float, 32, cudaChannelFormatKindFloat)
PGCC_CHANNELS(int, int, 32, cudaChannelFormatKindSigned)
PGCC_CHANNELS(unsigned int, uint, 32, cudaChannelFormatKindUnsigned)
PGCC_CHANNELS(signed char, char, 8, cudaChannelFormatKindSigned)
PGCC_CHANNELS(unsigned char, uchar, 8, cudaChannelFormatKindUnsigned)
PGCC_CHANNELS(short, short, 16, cudaChannelFormatKindSigned)
PGCC_CHANNELS(unsigned short, ushort, 16, cudaChannelFormatKindUnsigned)
PGCC_CHANNEL(char, 1, 8, cudaChannelFormatKindSigned)
#undef PGCC_CHANNELS
#undef PGCC_CHANNEL
template <class T> static inline struct cudaChannelFormatDesc cudaCreateChannelDesc(void) {
  return __pgcc_channel<T>::desc();
}
#else
cudaError_t cudaMallocArray(cudaArray_t *array, const struct cudaChannelFormatDesc *desc, size_t width,
                            size_t height = 0, unsigned int flags = 0);
cudaError_t cudaFreeArray(cudaArray_t array);
cudaError_t cudaMemcpy2DToArray(cudaArray_t dst, size_t wOffset, size_t hOffset, const void *src, size_t spitch,
                                size_t width, size_t height, enum cudaMemcpyKind kind);
cudaError_t cudaMemcpy2DFromArray(void *dst, size_t dpitch, cudaArray_const_t src, size_t wOffset, size_t hOffset,
                                  size_t width, size_t height, enum cudaMemcpyKind kind);
cudaError_t cudaMemcpyToArray(cudaArray_t dst, size_t wOffset, size_t hOffset, const void *src, size_t count,
                              enum cudaMemcpyKind kind);
template <class T> struct cudaChannelFormatDesc cudaCreateChannelDesc(void);
struct cudaChannelFormatDesc cudaCreateChannelDesc(int x, int y, int z, int w, enum cudaChannelFormatKind f);
#endif

/* Texture objects over linear memory, pitched 2-D memory and CUDA arrays: a cudaTextureObject_t designates a
   descriptor in host memory, read by tex1Dfetch/tex1D/tex2D (templates below, compiled like any device code:
   point or linear filtering, normalized coordinates, clamp/border/wrap/mirror addressing, a zero border). A
   normalized-float read mode, a border color other than zero and linear filtering of integer texels are not
   provided: cudaCreateTextureObject returns cudaErrorNotSupported and says so on stderr. */
enum cudaResourceType { cudaResourceTypeArray = 0, cudaResourceTypeMipmappedArray = 1, cudaResourceTypeLinear = 2,
                        cudaResourceTypePitch2D = 3 };
struct cudaResourceDesc {
  enum cudaResourceType resType;
  union {
    struct { cudaArray_t array; } array;
    struct { void *mipmap; } mipmap;
    struct { void *devPtr; struct cudaChannelFormatDesc desc; size_t sizeInBytes; } linear;
    struct { void *devPtr; struct cudaChannelFormatDesc desc; size_t width, height, pitchInBytes; } pitch2D;
  } res;
  unsigned int flags;
};
struct cudaTextureDesc {
  enum cudaTextureAddressMode addressMode[3];
  enum cudaTextureFilterMode filterMode;
  enum cudaTextureReadMode readMode;
  int sRGB;
  float borderColor[4];
  int normalizedCoords;
  unsigned int maxAnisotropy;
  enum cudaTextureFilterMode mipmapFilterMode;
  float mipmapLevelBias, minMipmapLevelClamp, maxMipmapLevelClamp;
  int disableTrilinearOptimization, seamlessCubemap;
};
struct cudaResourceViewDesc;
struct __pgcc_texture {
  const unsigned char *data;
  size_t width, height, pitch, elem;  /* pitch: bytes from one row to the next */
  int filter, normalized, address[2];
};
struct cudaTextureObject_t {  /* CUDA: an unsigned long long handle; here a class holding the descriptor */
  const struct __pgcc_texture *tex_;
  cudaTextureObject_t() = default;
  __host__ __device__ cudaTextureObject_t(unsigned long long h) : tex_((const struct __pgcc_texture *)h) {}
  __host__ __device__ operator unsigned long long() const { return (unsigned long long)tex_; }
};
#ifdef __PGCC_HOST_PASS__
static inline cudaError_t __pgcc_texture_unsupported(const char *what) {
  fprintf(stderr, "pgcc: cudaCreateTextureObject: %s is not supported\n", what);
  return (cudaError_t)801; /* cudaErrorNotSupported */
}
static inline cudaError_t cudaCreateTextureObject(cudaTextureObject_t *out, const struct cudaResourceDesc *r,
                                                  const struct cudaTextureDesc *t,
                                                  const struct cudaResourceViewDesc *view) {
  (void)view;
  struct __pgcc_texture d = {};
  const struct cudaChannelFormatDesc *c;
  if (r->resType == cudaResourceTypeLinear) {
    c = &r->res.linear.desc;
    d.data = (const unsigned char *)r->res.linear.devPtr;
    d.elem = (size_t)(c->x + c->y + c->z + c->w) / 8;
    d.width = d.elem ? r->res.linear.sizeInBytes / d.elem : 0;
    d.height = 1;
  } else if (r->resType == cudaResourceTypePitch2D) {
    c = &r->res.pitch2D.desc;
    d.data = (const unsigned char *)r->res.pitch2D.devPtr;
    d.elem = (size_t)(c->x + c->y + c->z + c->w) / 8;
    d.width = r->res.pitch2D.width;
    d.height = r->res.pitch2D.height;
    d.pitch = r->res.pitch2D.pitchInBytes;
  } else if (r->resType == cudaResourceTypeArray) {
    cudaArray_t a = r->res.array.array;
    c = &a->desc;
    d.data = a->data;
    d.elem = a->elem;
    d.width = a->width;
    d.height = a->height;
    d.pitch = a->width * a->elem;
  } else {
    return __pgcc_texture_unsupported("a mipmapped array");
  }
  if (d.elem == 0)
    return cudaErrorInvalidValue;
  if (d.pitch == 0)
    d.pitch = d.width * d.elem;
  if (t->readMode != cudaReadModeElementType)
    return __pgcc_texture_unsupported("cudaReadModeNormalizedFloat");
  if (t->filterMode == cudaFilterModeLinear && c->f != cudaChannelFormatKindFloat)
    return __pgcc_texture_unsupported("linear filtering of integer texels");
  if (t->borderColor[0] != 0 || t->borderColor[1] != 0 || t->borderColor[2] != 0 || t->borderColor[3] != 0)
    return __pgcc_texture_unsupported("a border color other than zero");
  d.filter = t->filterMode;
  d.normalized = t->normalizedCoords;
  d.address[0] = t->addressMode[0];
  d.address[1] = t->addressMode[1];
  struct __pgcc_texture *p = (struct __pgcc_texture *)malloc(sizeof d);
  if (p == NULL)
    return cudaErrorMemoryAllocation;
  *p = d;
  *out = cudaTextureObject_t((unsigned long long)p);
  return cudaSuccess;
}
static inline cudaError_t cudaDestroyTextureObject(cudaTextureObject_t t) {
  free((void *)t.tex_);
  return cudaSuccess;
}
#else
cudaError_t cudaCreateTextureObject(cudaTextureObject_t *out, const struct cudaResourceDesc *r,
                                    const struct cudaTextureDesc *t, const struct cudaResourceViewDesc *view);
cudaError_t cudaDestroyTextureObject(cudaTextureObject_t t);
#endif
/* one coordinate under an address mode (size n); false when a border read falls outside */
static inline __device__ bool __pgcc_tex_address(int mode, int n, int *i) {
  if (*i >= 0 && *i < n)
    return true;
  if (mode == cudaAddressModeBorder)
    return false;
  if (mode == cudaAddressModeWrap) {
    *i = ((*i % n) + n) % n;
  } else if (mode == cudaAddressModeMirror) {
    int m = ((*i % (2 * n)) + 2 * n) % (2 * n);
    *i = m < n ? m : 2 * n - 1 - m;
  } else {
    *i = *i < 0 ? 0 : n - 1;
  }
  return true;
}
template <class T>
static inline __device__ T __pgcc_texel_at(const unsigned char *data, size_t width, size_t height, size_t pitch,
                                           int am0, int am1, int i, int j) {
  if (!__pgcc_tex_address(am0, (int)width, &i) || !__pgcc_tex_address(am1, (int)height, &j))
    return T();
  return *(const T *)(data + (size_t)j * pitch + (size_t)i * sizeof(T));
}
static inline __device__ float __pgcc_lerp(float a, float b, float w) { return a + w * (b - a); }
static inline __device__ float2 __pgcc_lerp(float2 a, float2 b, float w) {
  return make_float2(__pgcc_lerp(a.x, b.x, w), __pgcc_lerp(a.y, b.y, w));
}
static inline __device__ float4 __pgcc_lerp(float4 a, float4 b, float w) {
  return make_float4(__pgcc_lerp(a.x, b.x, w), __pgcc_lerp(a.y, b.y, w), __pgcc_lerp(a.z, b.z, w),
                     __pgcc_lerp(a.w, b.w, w));
}
template <class T> static inline __device__ T __pgcc_lerp(T a, T b, float w) { return a; }  /* (integer texels: not created) */
template <class T> __device__ T tex1Dfetch(cudaTextureObject_t t, int x) {
  const struct __pgcc_texture *d = t.tex_;
  return x >= 0 && (size_t)x < d->width ? ((const T *)d->data)[x] : T();
}
/* a 2-D read at (x, y) of `height` rows of `width` texels `pitch` bytes apart: point filtering takes the texel
   holding the point, linear filtering weighs the four nearest texel centers (CUDA's tex2D; exact weights where a
   GPU uses 9-bit fixed point) */
template <class T>
static inline __device__ T __pgcc_tex2D_at(const unsigned char *data, size_t width, size_t height, size_t pitch,
                                           int filter, int normalized, int am0, int am1, float x, float y) {
  if (normalized) {
    x *= (float)width;
    y *= (float)height;
  }
  if (filter == cudaFilterModePoint)
    return __pgcc_texel_at<T>(data, width, height, pitch, am0, am1, (int)floorf(x), (int)floorf(y));
  float xb = x - 0.5f, yb = y - 0.5f;
  int i = (int)floorf(xb), j = (int)floorf(yb);
  float a = xb - floorf(xb), b = yb - floorf(yb);
  T top = __pgcc_lerp(__pgcc_texel_at<T>(data, width, height, pitch, am0, am1, i, j),
                      __pgcc_texel_at<T>(data, width, height, pitch, am0, am1, i + 1, j), a);
  T bottom = __pgcc_lerp(__pgcc_texel_at<T>(data, width, height, pitch, am0, am1, i, j + 1),
                         __pgcc_texel_at<T>(data, width, height, pitch, am0, am1, i + 1, j + 1), a);
  return __pgcc_lerp(top, bottom, b);
}
template <class T>
static inline __device__ T __pgcc_tex1D_at(const unsigned char *data, size_t width, int filter, int normalized,
                                           int am0, float x) {
  if (normalized)
    x *= (float)width;
  if (filter == cudaFilterModePoint)
    return __pgcc_texel_at<T>(data, width, 1, 0, am0, cudaAddressModeClamp, (int)floorf(x), 0);
  float xb = x - 0.5f;
  int i = (int)floorf(xb);
  return __pgcc_lerp(__pgcc_texel_at<T>(data, width, 1, 0, am0, cudaAddressModeClamp, i, 0),
                     __pgcc_texel_at<T>(data, width, 1, 0, am0, cudaAddressModeClamp, i + 1, 0), xb - floorf(xb));
}
template <class T> __device__ T tex2D(cudaTextureObject_t t, float x, float y) {
  const struct __pgcc_texture *d = t.tex_;
  return __pgcc_tex2D_at<T>(d->data, d->width, d->height, d->pitch, d->filter, d->normalized, d->address[0],
                            d->address[1], x, y);
}
template <class T> __device__ T tex1D(cudaTextureObject_t t, float x) {
  const struct __pgcc_texture *d = t.tex_;
  return __pgcc_tex1D_at<T>(d->data, d->width, d->filter, d->normalized, d->address[0], x);
}
/* texture references: the same reads, with the shape cudaBindTexture2D/cudaBindTextureToArray recorded and the
   settings the program gave the texture (read at each fetch, as a launch reads them on a GPU) */
template <class T> __device__ T tex1D(const texture<T, 1, cudaReadModeElementType> &tex, float x) {
  return __pgcc_tex1D_at<T>((const unsigned char *)tex.__pgcc_bound, tex.__pgcc_width, tex.filterMode,
                            tex.normalized, tex.addressMode[0], x);
}
template <class T> __device__ T tex2D(const texture<T, 2, cudaReadModeElementType> &tex, float x, float y) {
  return __pgcc_tex2D_at<T>((const unsigned char *)tex.__pgcc_bound, tex.__pgcc_width, tex.__pgcc_height,
                            tex.__pgcc_pitch, tex.filterMode, tex.normalized, tex.addressMode[0],
                            tex.addressMode[1], x, y);
}
template <class T> __device__ float tex1D(const texture<T, 1, cudaReadModeNormalizedFloat> &tex, float x);
template <class T> __device__ float tex2D(const texture<T, 2, cudaReadModeNormalizedFloat> &tex, float x, float y);
template <class T, enum cudaTextureReadMode mode>
__device__ T tex3D(const texture<T, 3, mode> &tex, float x, float y, float z);
#endif
