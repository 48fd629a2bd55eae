/* Loads and stores with cache operators (CUDA's __ldcg, __ldca, __ldcs, __ldlu, __ldcv, __stwb, __stcg, __stcs,
   __stwt; PTX ld.cg/.ca/.cs/.lu/.cv and st.wb/.cg/.cs/.wt): the hints choose GPU cache levels, so on the CPU each is
   the plain load or store; __ldcv ("don't cache, fetch again") reads through a volatile pointer, as it must see
   another thread's store (for scalar types; a vector type's load is a plain one). Included by
   pgcc_cuda_atomics.h. */
#ifndef PGCC_CUDA_CACHE_HINTS_H
#define PGCC_CUDA_CACHE_HINTS_H
template <class T> static inline __device__ T __ldcg(const T *p) { return *p; }
template <class T> static inline __device__ T __ldca(const T *p) { return *p; }
template <class T> static inline __device__ T __ldcs(const T *p) { return *p; }
template <class T> static inline __device__ T __ldlu(const T *p) { return *p; }
template <class T> static inline __device__ T __ldcv(const T *p) { return *p; }
#define PGCC_LDCV(T) static inline __device__ T __ldcv(const T *p) { return *(const volatile T *)p; }
PGCC_LDCV(int) PGCC_LDCV(unsigned int) PGCC_LDCV(long long) PGCC_LDCV(unsigned long long) PGCC_LDCV(float)
PGCC_LDCV(double)
#undef PGCC_LDCV
template <class T> static inline __device__ void __stwb(T *p, T v) { *p = v; }
template <class T> static inline __device__ void __stcg(T *p, T v) { *p = v; }
template <class T> static inline __device__ void __stcs(T *p, T v) { *p = v; }
template <class T> static inline __device__ void __stwt(T *p, T v) { *p = v; }
#endif
