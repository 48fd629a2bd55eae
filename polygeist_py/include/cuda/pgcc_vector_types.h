/* polygeist-py: CUDA's built-in vector types (vector_types.h / vector_functions.h of the toolkit) with CUDA's
   sizes and alignments, and their make_* constructors, for host and device code. uint3 and dim3 are in
   cuda_runtime.h (threadIdx and the launch configuration use them). */
#ifndef PGCC_VECTOR_TYPES_H
#define PGCC_VECTOR_TYPES_H

#define PGCC_VEC1(T, N, A)                                                                       \
  struct __attribute__((aligned(A))) N##1 { T x; };                                              \
  typedef struct N##1 N##1;                                                                      \
  static inline __host__ __device__ N##1 make_##N##1(T x) { N##1 r; r.x = x; return r; }
#define PGCC_VEC2(T, N, A)                                                                       \
  struct __attribute__((aligned(A))) N##2 { T x, y; };                                           \
  typedef struct N##2 N##2;                                                                      \
  static inline __host__ __device__ N##2 make_##N##2(T x, T y) { N##2 r; r.x = x; r.y = y; return r; }
#define PGCC_VEC3(T, N, A)                                                                       \
  struct __attribute__((aligned(A))) N##3 { T x, y, z; };                                        \
  typedef struct N##3 N##3;                                                                      \
  static inline __host__ __device__ N##3 make_##N##3(T x, T y, T z) {                            \
    N##3 r; r.x = x; r.y = y; r.z = z; return r;                                                 \
  }
#define PGCC_VEC4(T, N, A)                                                                       \
  struct __attribute__((aligned(A))) N##4 { T x, y, z, w; };                                     \
  typedef struct N##4 N##4;                                                                      \
  static inline __host__ __device__ N##4 make_##N##4(T x, T y, T z, T w) {                       \
    N##4 r; r.x = x; r.y = y; r.z = z; r.w = w; return r;                                        \
  }
/* alignments as CUDA gives them: 1-, 2- and 4-component vectors aligned to their size (up to 16 bytes), the
   3-component ones to their element */
#define PGCC_VECS(T, N, S)                                                                       \
  PGCC_VEC1(T, N, S) PGCC_VEC2(T, N, 2 * S) PGCC_VEC3(T, N, S) PGCC_VEC4(T, N, (4 * S > 16 ? 16 : 4 * S))

PGCC_VECS(signed char, char, 1)
PGCC_VECS(unsigned char, uchar, 1)
PGCC_VECS(short, short, 2)
PGCC_VECS(unsigned short, ushort, 2)
PGCC_VECS(int, int, 4)
PGCC_VECS(float, float, 4)
PGCC_VECS(long, long, 8)
PGCC_VECS(unsigned long, ulong, 8)
PGCC_VECS(long long, longlong, 8)
PGCC_VECS(unsigned long long, ulonglong, 8)
PGCC_VECS(double, double, 8)
PGCC_VEC1(unsigned int, uint, 4)
PGCC_VEC2(unsigned int, uint, 8)
PGCC_VEC4(unsigned int, uint, 16)
static inline __host__ __device__ uint3 make_uint3(unsigned int x, unsigned int y, unsigned int z) {
  uint3 r; r.x = x; r.y = y; r.z = z; return r;
}
static inline __host__ __device__ dim3 make_dim3(unsigned int x, unsigned int y, unsigned int z) {
  return dim3(x, y, z);
}

#undef PGCC_VEC1
#undef PGCC_VEC2
#undef PGCC_VEC3
#undef PGCC_VEC4
#undef PGCC_VECS
#endif
