/* polygeist-py's CUDA runtime for host code compiled by the host C++ compiler (nvcc's model, cuda_split.py).
   "Device" memory is host memory, copies are memmove, streams and events run in program order (every launch
   finishes before the host goes on), and the launch configuration travels from the host's rewritten launch
   (__pgcc_push_call_configuration) to the kernel's stub in the device object (__pgcc_pop_call_configuration),
   as clang's __cudaPushCallConfiguration / __cudaPopCallConfiguration pair does. Compiled by the system C
   compiler and linked into every `pgcc --cpuify` program; the same meanings as the calls pgcc translates
   itself in a whole-file (C) compile (frontend/calls.py).
   pgcc links it (host_compiler.runtime_archive) into every program, as nvcc links libcudart. */
#define _GNU_SOURCE /* sched_getcpu */
#define _POSIX_C_SOURCE 200809L
#include <fenv.h>
#include <math.h>
#include <sched.h>
#include <unistd.h>
#include <pthread.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>


typedef struct { unsigned int x, y, z; } pgcc_dim3;
typedef int cudaError_t;
enum { cudaSuccess = 0, cudaErrorInvalidValue = 1, cudaErrorMemoryAllocation = 2 };

static __thread pgcc_dim3 pending_grid, pending_block;
static __thread size_t pending_shared;
static __thread void *pending_stream;

int __pgcc_push_call_configuration(pgcc_dim3 grid, pgcc_dim3 block, size_t shared, void *stream) {
  pending_grid = grid;
  pending_block = block;
  pending_shared = shared;
  pending_stream = stream;
  return 0;
}

void __pgcc_pop_call_configuration(unsigned int *grid, unsigned int *block, size_t *shared, void **stream) {
  grid[0] = pending_grid.x, grid[1] = pending_grid.y, grid[2] = pending_grid.z;
  block[0] = pending_block.x, block[1] = pending_block.y, block[2] = pending_block.z;
  *shared = pending_shared;
  *stream = pending_stream;
}

/* device limits (cudaDeviceSetLimit): CUDA's defaults, remembered and reported */
static size_t device_limits[6] = {1024, 1 << 20, 8 << 20, 2, 2048, 64};
cudaError_t cudaDeviceSetLimit(int limit, size_t value) {
  if (limit < 0 || limit >= 6)
    return cudaErrorInvalidValue;
  device_limits[limit] = value;
  return cudaSuccess;
}
cudaError_t cudaDeviceGetLimit(size_t *value, int limit) {
  if (limit < 0 || limit >= 6)
    return cudaErrorInvalidValue;
  *value = device_limits[limit];
  return cudaSuccess;
}

/* clock64() and clock() in device code */
long long __pgcc_device_clock(void) { return (long long)clock(); }

/* PTX %globaltimer: nanoseconds of the real-time clock, as the GPU's global timer counts */
long long __pgcc_device_globaltimer(void) {
  struct timespec t;
  clock_gettime(CLOCK_REALTIME, &t);
  return (long long)t.tv_sec * 1000000000LL + t.tv_nsec;
}

/* PTX %nsmid and %smid: the "multiprocessors" are the host's online processors (multiProcessorCount of
   cudaGetDeviceProperties), and a block runs on the one its OpenMP thread is on (kept below the count) */
int __pgcc_device_nsmid(void) {
  long n = sysconf(_SC_NPROCESSORS_ONLN);
  return n > 0 ? (int)n : 1;
}
int __pgcc_device_smid(void) {
  int cpu = sched_getcpu();
  return cpu < 0 ? 0 : cpu % __pgcc_device_nsmid();
}

/* The blocks cudaMalloc and friends hand out, sorted by address, so that the derivatives of device code can ask
   at run time whether pointers lie in distinct allocations (__pgcc_ad_shadows_disjoint below). */
typedef struct { char *lo, *hi; } pgcc_block;
static pthread_mutex_t blocks_lock = PTHREAD_MUTEX_INITIALIZER;
static pgcc_block *blocks;
static size_t nblocks, blocks_cap;
static unsigned long blocks_generation; /* changes with every allocation and release (memoized answers expire) */

static size_t first_above(const char *p) { /* index of the first block with lo > p */
  size_t a = 0, b = nblocks;
  while (a < b) {
    size_t m = (a + b) / 2;
    if (blocks[m].lo <= p) a = m + 1; else b = m;
  }
  return a;
}
static void track_block(void *p, size_t n) {
  pthread_mutex_lock(&blocks_lock);
  if (nblocks == blocks_cap) {
    size_t cap = blocks_cap ? 2 * blocks_cap : 64;
    pgcc_block *grown = realloc(blocks, cap * sizeof *grown);
    if (!grown) { /* untracked: the check then takes the safe path for pointers into it */
      pthread_mutex_unlock(&blocks_lock);
      return;
    }
    blocks = grown, blocks_cap = cap;
  }
  size_t at = first_above(p);
  memmove(blocks + at + 1, blocks + at, (nblocks - at) * sizeof *blocks);
  blocks[at].lo = p, blocks[at].hi = (char *)p + (n ? n : 1);
  nblocks++;
  __atomic_add_fetch(&blocks_generation, 1, __ATOMIC_SEQ_CST);
  pthread_mutex_unlock(&blocks_lock);
}
static void untrack_block(void *p) {
  pthread_mutex_lock(&blocks_lock);
  size_t at = first_above(p);
  if (at > 0 && blocks[at - 1].lo == (char *)p) {
    memmove(blocks + at - 1, blocks + at, (nblocks - at) * sizeof *blocks);
    nblocks--;
    __atomic_add_fetch(&blocks_generation, 1, __ATOMIC_SEQ_CST);
  }
  pthread_mutex_unlock(&blocks_lock);
}
static long block_of(const void *p) { /* the tracked block holding byte p, or -1; blocks_lock held */
  size_t at = first_above(p);
  return at > 0 && (const char *)p < blocks[at - 1].hi ? (long)at - 1 : -1;
}

/* The run-time half of ad/gpu_block.py's overlap check, called by the derivative of a __device__ function that
   __enzyme_autodiff differentiates in a kernel before it adds adjoints without atomics. `ptrs` holds `n`
   (primal, shadow) pairs, the non-restrict pointer parameters; `what` names the kernel, the function and the
   arguments ("kernel 'k', __enzyme_autodiff of 'f'", then one name per pointer, separated by '\x1f').
   Returns 1 when the shadows lie in distinct cudaMalloc'd blocks (or there is only one), else 0: the caller
   then adds every adjoint atomically (shadows that overlap, or may). A shadow that is the primal memory of some
   parameter is an error, as for Enzyme (the adjoints would overwrite the values they are computed from).
   Memoized per thread: every thread of a launch asks with the same pointers. */
static const char *nth_name(const char *what, long k, int *len) {
  const char *s = strchr(what, '\x1f');
  for (long i = 0; s && i < k; i++)
    s = strchr(s + 1, '\x1f');
  if (!s) { *len = 1; return "?"; }
  const char *e = strchr(s + 1, '\x1f');
  *len = e ? (int)(e - s - 1) : (int)strlen(s + 1);
  return s + 1;
}
#define PGCC_AD_MEMO 16
static __thread void *memo_ptrs[2 * PGCC_AD_MEMO];
static __thread long long memo_n = -1;
static __thread unsigned long memo_generation;
static __thread int memo_answer;
int __pgcc_ad_shadows_disjoint(long long n, void *const *ptrs, const char *what) {
  unsigned long gen = __atomic_load_n(&blocks_generation, __ATOMIC_SEQ_CST);
  if (n == memo_n && gen == memo_generation && !memcmp(memo_ptrs, ptrs, 2 * n * sizeof *ptrs))
    return memo_answer;
  for (long long k = 0; k < n; k++)
    for (long long j = 0; j < n; j++)
      if (ptrs[2 * k + 1] && ptrs[2 * k + 1] == ptrs[2 * j]) {
        int l1, l2;
        const char *s = nth_name(what, 2 * k + 1, &l1), *p = nth_name(what, 2 * j, &l2);
        const char *e = strchr(what, '\x1f');
        fprintf(stderr, "pgcc: %.*s: the shadow '%.*s' is the same memory as the primal '%.*s' (a shadow must "
                        "be memory of its own)\n", e ? (int)(e - what) : (int)strlen(what), what, l1, s, l2, p);
        exit(1);
      }
  int answer = 1;
  pthread_mutex_lock(&blocks_lock);
  for (long long k = 0; k < n && answer; k++) {
    if (!ptrs[2 * k + 1])
      continue;
    long bk = block_of(ptrs[2 * k + 1]);
    for (long long j = k + 1; j < n && answer; j++) {
      if (!ptrs[2 * j + 1])
        continue;
      long bj = block_of(ptrs[2 * j + 1]);
      if (bk < 0 || bj < 0 || bj == bk) /* (a pointer into no tracked block may be anything: x - offset) */
        answer = 0;
    }
  }
  pthread_mutex_unlock(&blocks_lock);
  if (n <= PGCC_AD_MEMO) {
    memcpy(memo_ptrs, ptrs, 2 * n * sizeof *ptrs);
    memo_n = n, memo_generation = gen, memo_answer = answer;
  }
  return answer;
}

/* memory: aligned as cudaMalloc aligns (256 bytes) so that vector loads of device buffers stay aligned, and
   sized as a GPU's allocator hands memory out: large blocks in whole 2 MiB pages, small ones in 512-byte
   units. A kernel that writes a little past its buffer (HeCBench bezier-surface's `if (i > N) return;` lets
   thread N write one row too many) then writes into slack, as on a GPU, instead of the C library's heap
   metadata (munmap_chunk(): invalid pointer). The slack of a large block is never touched: no memory. */
static size_t device_granule(size_t n) {
  size_t unit = n >= ((size_t)1 << 20) ? ((size_t)2 << 20) : 512;
  return (n + unit - 1) / unit * unit + (n % unit == 0 ? unit : 0);
}
cudaError_t cudaMalloc(void **p, size_t n) {
  *p = NULL;
  if (posix_memalign(p, 256, device_granule(n ? n : 1)) != 0)
    return cudaErrorMemoryAllocation;
  track_block(*p, n);
  return cudaSuccess;
}
cudaError_t cudaMallocManaged(void **p, size_t n, unsigned int flags) { (void)flags; return cudaMalloc(p, n); }
cudaError_t cudaMallocHost(void **p, size_t n) { return cudaMalloc(p, n); }
cudaError_t cudaHostAlloc(void **p, size_t n, unsigned int flags) { (void)flags; return cudaMalloc(p, n); }
cudaError_t cudaMallocPitch(void **p, size_t *pitch, size_t width, size_t height) {
  *pitch = width;
  return cudaMalloc(p, width * height);
}
cudaError_t cudaFree(void *p) { untrack_block(p); free(p); return cudaSuccess; }
cudaError_t cudaFreeHost(void *p) { untrack_block(p); free(p); return cudaSuccess; }
cudaError_t cudaMemcpy(void *dst, const void *src, size_t n, int kind) {
  (void)kind;
  if (n)
    memmove(dst, src, n);
  return cudaSuccess;
}
struct CUstream_st;
static int capture_copy(struct CUstream_st *s, void *dst, const void *src, size_t n);
static int capture_memset(struct CUstream_st *s, void *dst, size_t pitch, unsigned int value, unsigned int size,
                          size_t width, size_t height);
cudaError_t cudaMemcpyAsync(void *dst, const void *src, size_t n, int kind, struct CUstream_st *stream) {
  if (capture_copy(stream, dst, src, n))
    return cudaSuccess;
  return cudaMemcpy(dst, src, n, kind);
}
cudaError_t cudaMemcpy2D(void *dst, size_t dpitch, const void *src, size_t spitch, size_t width, size_t height,
                         int kind) {
  (void)kind;
  for (size_t r = 0; r < height; r++)
    memmove((char *)dst + r * dpitch, (const char *)src + r * spitch, width);
  return cudaSuccess;
}
cudaError_t cudaMemset(void *p, int v, size_t n) { memset(p, v, n); return cudaSuccess; }
cudaError_t cudaMemsetAsync(void *p, int v, size_t n, struct CUstream_st *stream) {
  if (capture_memset(stream, p, n, (unsigned char)v, 1, n, 1))
    return cudaSuccess;
  return cudaMemset(p, v, n);
}
cudaError_t cudaMemcpyToSymbol_bytes(void *symbol, const void *src, size_t n, size_t offset) {
  memmove((char *)symbol + offset, src, n);
  return cudaSuccess;
}

/* A failed assert in device code (the device side calls this instead of the C library's __assert_fail): the
   message, then the error CUDA gives, cudaErrorAssert (710), which is sticky as on a GPU (the context is
   unusable): the synchronizations and error queries return it from then on. The thread goes on (a GPU stops
   the kernel; here the other threads of the launch run to their end). */
static int sticky_error;
void __pgcc_device_assert_fail(const char *expr, const char *file, unsigned int line, const char *func) {
  fprintf(stderr, "%s:%u: %s: Assertion `%s` failed.\n", file, line, func, expr);
  __atomic_store_n(&sticky_error, 710, __ATOMIC_SEQ_CST);
}
/* A loop or condition holding __syncthreads() whose control pgcc could not prove the same in every thread of
   a block is counted at run time (gpu_to_cpu/checked_uniformity.py); when threads disagree, a GPU's behavior is
   undefined (the block may hang): stop with the position of the construct. */
void __pgcc_nonuniform_control(const char *where, int yes, int taking_part) {
  fprintf(stderr, "%s: error: __syncthreads() or a warp intrinsic inside a loop or condition that differs "
          "between the threads of a block at run time (%d of %d threads go on); CUDA requires it to be the "
          "same in every thread\n", where, yes, taking_part);
  fflush(stderr);
  exit(1);
}
static cudaError_t sticky(void) { return (cudaError_t)__atomic_load_n(&sticky_error, __ATOMIC_SEQ_CST); }

/* synchronization and errors: everything has finished when a call returns */
cudaError_t cudaDeviceSynchronize(void) { return sticky(); }
cudaError_t cudaThreadSynchronize(void) { return sticky(); }
cudaError_t cudaDeviceReset(void) { return cudaSuccess; }
cudaError_t cudaSetDevice(int d) { return d == 0 ? cudaSuccess : 101; }
cudaError_t cudaGetLastError(void) { return sticky(); }
cudaError_t cudaPeekAtLastError(void) { return sticky(); }
const char *cudaGetErrorString(cudaError_t e) {
  return e == cudaSuccess ? "no error" : e == 710 ? "device-side assert triggered"
       : e == 13 ? "invalid device symbol" : e == 801 ? "operation not supported"
       : e == 900 ? "operation not permitted when stream is capturing" : e == 401 ? "the operation cannot be "
         "performed in the present state" : e == 1 ? "invalid argument" : "unknown error";
}
const char *cudaGetErrorName(cudaError_t e) {
  return e == cudaSuccess ? "cudaSuccess" : e == 710 ? "cudaErrorAssert" : e == 13 ? "cudaErrorInvalidSymbol"
       : e == 801 ? "cudaErrorNotSupported" : e == 900 ? "cudaErrorStreamCaptureUnsupported"
       : e == 401 ? "cudaErrorIllegalState" : e == 1 ? "cudaErrorInvalidValue" : "cudaErrorUnknown";
}

/* streams: everything runs in program order, so a stream's only state is the graph that captures what it is
   given (cudaStreamBeginCapture, below), if any */
struct CUgraph_st;
struct CUstream_st { struct CUgraph_st *capture; struct CUstream_st *next; };
static struct CUstream_st *all_streams; /* (an ended capture is cleared from every stream that joined it) */
/* a stream cudaStreamCreate made (not the default stream 0 or a special handle such as cudaStreamPerThread's) */
static int real_stream(const struct CUstream_st *s) { return (size_t)s > 4096; }
static pthread_mutex_t streams_lock = PTHREAD_MUTEX_INITIALIZER;
cudaError_t cudaStreamCreate(struct CUstream_st **s) {
  *s = calloc(1, sizeof(struct CUstream_st));
  if (!*s)
    return cudaErrorMemoryAllocation;
  pthread_mutex_lock(&streams_lock);
  (*s)->next = all_streams;
  all_streams = *s;
  pthread_mutex_unlock(&streams_lock);
  return cudaSuccess;
}
cudaError_t cudaStreamCreateWithFlags(struct CUstream_st **s, unsigned int flags) {
  (void)flags;
  return cudaStreamCreate(s);
}
cudaError_t cudaStreamDestroy(struct CUstream_st *s) {
  pthread_mutex_lock(&streams_lock);
  for (struct CUstream_st **p = &all_streams; *p; p = &(*p)->next)
    if (*p == s) {
      *p = s->next;
      free(s);
      break;
    }
  pthread_mutex_unlock(&streams_lock);
  return cudaSuccess;
}
cudaError_t cudaStreamSynchronize(void *s) { (void)s; return sticky(); }
cudaError_t cudaStreamQuery(void *s) { (void)s; return cudaSuccess; }

/* an event is the host time (ms) at which it was recorded; recorded on a capturing stream, it carries the
   capture to the streams that wait for it (the fork of a multi-stream capture) */
struct CUevent_st { double ms; struct CUgraph_st *capture; };
cudaError_t cudaStreamWaitEvent(struct CUstream_st *s, struct CUevent_st *e, unsigned int flags) {
  (void)flags;
  if (real_stream(s) && e && e->capture && !s->capture)
    s->capture = e->capture;
  return cudaSuccess;
}
static double now_ms(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return t.tv_sec * 1e3 + t.tv_nsec * 1e-6;
}
cudaError_t cudaEventCreate(struct CUevent_st **e) {
  *e = calloc(1, sizeof(struct CUevent_st));
  return *e ? cudaSuccess : cudaErrorMemoryAllocation;
}
cudaError_t cudaEventCreateWithFlags(struct CUevent_st **e, unsigned int flags) { (void)flags; return cudaEventCreate(e); }
cudaError_t cudaEventRecord(struct CUevent_st *e, struct CUstream_st *stream) {
  e->capture = real_stream(stream) ? stream->capture : NULL;
  if (!e->capture)
    e->ms = now_ms();
  return cudaSuccess;
}
cudaError_t cudaEventSynchronize(struct CUevent_st *e) { (void)e; return cudaSuccess; }
cudaError_t cudaEventQuery(struct CUevent_st *e) { (void)e; return cudaSuccess; }
cudaError_t cudaEventDestroy(struct CUevent_st *e) { free(e); return cudaSuccess; }
cudaError_t cudaEventElapsedTime(float *ms, struct CUevent_st *start, struct CUevent_st *end) {
  *ms = (float)(end->ms - start->ms);
  return cudaSuccess;
}

/* Grid-wide synchronization (cooperative groups' this_grid().sync()). --cpuify runs a kernel that synchronizes
   its grid with every block on an OpenMP thread of its own (gpu_to_cpu/launch_to_loops.py brackets its block
   loop with __pgcc_cooperative_begin/end, which ask OpenMP for as many threads as blocks), and one thread of
   each block waits here until every block has arrived. A GPU runs a cooperative launch only when all its
   blocks fit on the device at once; here the limit is the number of threads a program may reasonably start. */
#define PGCC_MAX_COOPERATIVE_BLOCKS 1024 /* as __PGCC_MAX_COOPERATIVE_BLOCKS in cuda_runtime.h */
extern int omp_get_max_threads(void) __attribute__((weak));
extern int omp_get_num_threads(void) __attribute__((weak));
extern void omp_set_num_threads(int) __attribute__((weak));

static pthread_mutex_t grid_lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t grid_wake = PTHREAD_COND_INITIALIZER;
static long long grid_blocks, grid_arrived;
static unsigned long long grid_generation;
static int grid_saved_threads;

void __pgcc_cooperative_begin(long long blocks) {
  if (blocks > PGCC_MAX_COOPERATIVE_BLOCKS) {
    fprintf(stderr, "pgcc: a kernel that synchronizes its grid (this_grid().sync()) was launched with %lld "
                    "blocks; at most %d blocks can run at once (cudaErrorCooperativeLaunchTooLarge)\n",
            blocks, PGCC_MAX_COOPERATIVE_BLOCKS);
    exit(1);
  }
  pthread_mutex_lock(&grid_lock);
  grid_blocks = blocks;
  grid_arrived = 0;
  pthread_mutex_unlock(&grid_lock);
  if (omp_set_num_threads && omp_get_max_threads) {
    grid_saved_threads = omp_get_max_threads();
    omp_set_num_threads((int)(blocks > 0 ? blocks : 1));
  }
}

void __pgcc_cooperative_end(void) {
  if (omp_set_num_threads && grid_saved_threads > 0)
    omp_set_num_threads(grid_saved_threads);
}

void __pgcc_grid_barrier(void) {
  if (omp_get_num_threads && grid_blocks > 1 && omp_get_num_threads() < grid_blocks) {
    fprintf(stderr, "pgcc: grid synchronization needs every block of the launch running at once: %lld blocks, "
                    "but OpenMP runs %d threads (is OMP_THREAD_LIMIT set?)\n", grid_blocks, omp_get_num_threads());
    exit(1);
  }
  pthread_mutex_lock(&grid_lock);
  unsigned long long generation = grid_generation;
  if (++grid_arrived >= grid_blocks) {
    grid_arrived = 0;
    grid_generation++;
    pthread_cond_broadcast(&grid_wake);
  } else {
    while (generation == grid_generation)
      pthread_cond_wait(&grid_wake, &grid_lock);
  }
  pthread_mutex_unlock(&grid_lock);
}

/* Directed-rounding arithmetic of device code (__fadd_rd, __dsqrt_ru, __fmaf_rz, ...: pgcc_cuda_math.h): the
   operation runs with the thread's floating-point rounding mode set to the one named and the previous mode
   restored, so the result is the correctly rounded one of IEEE 754 (the hardware's own rounding; the mode is
   per thread, so OpenMP threads do not disturb each other). The empty asm statements keep the compiler from
   moving the arithmetic across the mode changes (the library is also built with -frounding-math). */
static const int pgcc_rounding_modes[4] = {FE_TONEAREST, FE_TOWARDZERO, FE_DOWNWARD, FE_UPWARD};

#define PGCC_ROUNDED_OP(NAME, T, SQRT, FMA)                                                                   \
  T NAME(int op, int mode, T a, T b, T c) {                                                                 \
    int saved = fegetround();                                                                               \
    T r;                                                                                                    \
    fesetround(pgcc_rounding_modes[mode & 3]);                                                              \
    __asm__ volatile("" : "+m"(a), "+m"(b), "+m"(c));                                                       \
    switch (op) {                                                                                           \
    case 0: r = a + b; break;                                                                               \
    case 1: r = a - b; break;                                                                               \
    case 2: r = a * b; break;                                                                               \
    case 3: r = a / b; break;                                                                               \
    case 4: r = (T)1 / a; break;                                                                            \
    case 5: r = SQRT(a); break;                                                                             \
    default: r = FMA(a, b, c); break;                                                                       \
    }                                                                                                       \
    __asm__ volatile("" : "+m"(r));                                                                         \
    fesetround(saved);                                                                                      \
    return r;                                                                                               \
  }
PGCC_ROUNDED_OP(__pgcc_fop_rounded, float, sqrtf, fmaf)
PGCC_ROUNDED_OP(__pgcc_dop_rounded, double, sqrt, fma)

/* CUDA graphs (pgcc_cuda_graph.h). A graph is a list of nodes in the order they were added, with each node's
   dependencies; instantiation copies the nodes into a topological order (Kahn's algorithm, taking the earliest
   added ready node first, so a captured stream keeps its program order) and a launch runs them one after
   another. A kernel node holds a function that calls the kernel's stub with an array of arguments and its own
   copy of each argument's bytes, as CUDA copies kernel parameters when a node is made. */
enum { NODE_KERNEL, NODE_COPY, NODE_MEMSET, NODE_HOST, NODE_EMPTY, NODE_CALLBACK };
struct CUgraphNode_st {
  int kind;
  struct CUgraph_st *graph;
  /* kernel: replay(args) (a captured launch) or unpack(func, args) (a kernel node) */
  void (*replay)(void **);
  void (*unpack)(void *, void **);
  void *func;
  pgcc_dim3 grid, block;
  size_t shared;
  int nargs;
  void **args;
  size_t *sizes; /* (each argument's size: a graph node owns them, an executable graph's copy does not) */
  struct CUgraphNode_st *origin; /* (an executable graph's node: the graph's node it copies) */
  /* copy (`height` rows of `bytes`, rows `pitch` and `spitch` bytes apart) and memset */
  void *dst;
  const void *src;
  size_t bytes, pitch, spitch, width, height;
  size_t depth, dslice, sslice; /* (a 3-D copy node: `depth` slices, `dslice`/`sslice` bytes apart; else 0) */
  unsigned int value, element;
  /* host function, stream callback */
  void (*fn)(void *);
  void (*callback)(void *, int, void *);
  void *data;
  struct CUgraphNode_st **deps;
  size_t ndeps;
  int order; /* (instantiation's topological sort) */
};
struct CUgraph_st { struct CUgraphNode_st **nodes; size_t count, cap; };
struct CUgraphExec_st { struct CUgraphNode_st *nodes; size_t count; };

static struct CUgraph_st *stream_capture(struct CUstream_st *s) { return real_stream(s) ? s->capture : NULL; }

static struct CUgraphNode_st *add_node(struct CUgraph_st *g, int kind, struct CUgraphNode_st *const *deps,
                                       size_t ndeps) {
  if (g->count == g->cap) {
    size_t cap = g->cap ? 2 * g->cap : 16;
    struct CUgraphNode_st **n = realloc(g->nodes, cap * sizeof *n);
    if (!n)
      return NULL;
    g->nodes = n, g->cap = cap;
  }
  struct CUgraphNode_st *node = calloc(1, sizeof *node);
  if (!node)
    return NULL;
  node->kind = kind;
  node->graph = g;
  if (ndeps) {
    node->deps = malloc(ndeps * sizeof *node->deps);
    memcpy(node->deps, deps, ndeps * sizeof *node->deps);
    node->ndeps = ndeps;
  }
  g->nodes[g->count++] = node;
  return node;
}

/* each of `count` arguments (args[i] points to sizes[i] bytes) copied into one block: the node's own array */
static void **copy_arguments(void **args, const size_t *sizes, int count) {
  size_t total = 0;
  for (int i = 0; i < count; i++)
    total += (sizes[i] + 15) & ~(size_t)15;
  void **out = malloc(count * sizeof(void *) + total + 16);
  char *at = (char *)(((size_t)(out + count) + 15) & ~(size_t)15);
  for (int i = 0; i < count; i++) {
    memcpy(at, args[i], sizes[i]);
    out[i] = at;
    at += (sizes[i] + 15) & ~(size_t)15;
  }
  return out;
}

static size_t *copy_sizes(const size_t *sizes, int count) {
  size_t *out = malloc((count ? count : 1) * sizeof *out);
  memcpy(out, sizes, count * sizeof *out);
  return out;
}

/* (the stream's last captured node: what the next operation on it depends on, as a stream orders its work) */
static struct CUgraphNode_st *const *last_node(struct CUgraph_st *g) { return g->count ? &g->nodes[g->count - 1] : NULL; }

int __pgcc_stream_capturing(void *stream) { return stream_capture(stream) != NULL; }

void __pgcc_capture_launch(void *stream, const unsigned int *grid, const unsigned int *block, size_t shared,
                           void (*replay)(void **), void **args, const size_t *sizes, int count) {
  struct CUgraph_st *g = stream_capture(stream);
  struct CUgraphNode_st *n = add_node(g, NODE_KERNEL, last_node(g), g->count != 0);
  n->replay = replay;
  n->grid = (pgcc_dim3){grid[0], grid[1], grid[2]};
  n->block = (pgcc_dim3){block[0], block[1], block[2]};
  n->shared = shared;
  n->nargs = count;
  n->args = copy_arguments(args, sizes, count);
  n->sizes = copy_sizes(sizes, count);
}

int __pgcc_capture_copy2d(struct CUstream_st *s, void *dst, size_t dpitch, const void *src, size_t spitch,
                          size_t width, size_t height) {
  struct CUgraph_st *g = stream_capture(s);
  if (!g)
    return 0;
  struct CUgraphNode_st *node = add_node(g, NODE_COPY, last_node(g), g->count != 0);
  node->dst = dst, node->src = src, node->bytes = width, node->height = height;
  node->pitch = dpitch, node->spitch = spitch;
  return 1;
}
static int capture_copy(struct CUstream_st *s, void *dst, const void *src, size_t n) {
  return __pgcc_capture_copy2d(s, dst, n, src, n, n, 1);
}
int __pgcc_capture_memset2d(struct CUstream_st *s, void *dst, size_t pitch, int value, size_t width, size_t height) {
  return capture_memset(s, dst, pitch, (unsigned char)value, 1, width, height);
}
/* (a stream callback, cudaStreamAddCallback: called with the stream and cudaSuccess) */
int __pgcc_capture_callback(struct CUstream_st *s, void (*callback)(void *, int, void *), void *data) {
  struct CUgraph_st *g = stream_capture(s);
  if (!g)
    return 0;
  struct CUgraphNode_st *node = add_node(g, NODE_CALLBACK, last_node(g), g->count != 0);
  node->callback = callback, node->data = data;
  return 1;
}
/* cudaFreeAsync on a capturing stream: the graph's replays still use the memory, so it stays allocated */
int __pgcc_capture_free(struct CUstream_st *s) { return stream_capture(s) != NULL; }

static int capture_memset(struct CUstream_st *s, void *dst, size_t pitch, unsigned int value, unsigned int size,
                          size_t width, size_t height) {
  struct CUgraph_st *g = stream_capture(s);
  if (!g)
    return 0;
  struct CUgraphNode_st *node = add_node(g, NODE_MEMSET, last_node(g), g->count != 0);
  node->dst = dst, node->pitch = pitch, node->value = value, node->element = size;
  node->width = width, node->height = height;
  return 1;
}

cudaError_t cudaLaunchHostFunc(struct CUstream_st *stream, void (*fn)(void *), void *data) {
  struct CUgraph_st *g = stream_capture(stream);
  if (!g) {
    fn(data);
    return cudaSuccess;
  }
  struct CUgraphNode_st *node = add_node(g, NODE_HOST, last_node(g), g->count != 0);
  node->fn = fn, node->data = data;
  return cudaSuccess;
}

/* kernels whose address host code takes as `(void *)kernel` (__pgcc_kernel_handle): the stub, the function that
   calls it with an array of arguments, and the arguments' sizes */
struct kernel_entry { void *func; void (*unpack)(void *, void **); int count; const size_t *sizes;
                      struct kernel_entry *next; };
static struct kernel_entry *kernel_entries;
static pthread_mutex_t kernels_lock = PTHREAD_MUTEX_INITIALIZER;
void __pgcc_register_kernel(void *func, void (*unpack)(void *, void **), int count, const size_t *sizes) {
  pthread_mutex_lock(&kernels_lock);
  struct kernel_entry *e = kernel_entries;
  while (e && e->func != func)
    e = e->next;
  if (!e && (e = malloc(sizeof *e)) != NULL) {
    *e = (struct kernel_entry){func, unpack, count, sizes, kernel_entries};
    kernel_entries = e;
  }
  pthread_mutex_unlock(&kernels_lock);
}
static struct kernel_entry *find_kernel(void *func) {
  pthread_mutex_lock(&kernels_lock);
  struct kernel_entry *e = kernel_entries;
  while (e && e->func != func)
    e = e->next;
  pthread_mutex_unlock(&kernels_lock);
  return e;
}

cudaError_t cudaStreamBeginCapture(struct CUstream_st *stream, int mode) {
  (void)mode;
  if (!real_stream(stream))
    return 900; /* cudaErrorStreamCaptureUnsupported: the legacy default stream cannot be captured */
  if (stream->capture)
    return 401; /* cudaErrorIllegalState: already capturing */
  stream->capture = calloc(1, sizeof(struct CUgraph_st));
  return stream->capture ? cudaSuccess : cudaErrorMemoryAllocation;
}
cudaError_t cudaStreamEndCapture(struct CUstream_st *stream, struct CUgraph_st **graph) {
  struct CUgraph_st *g = stream_capture(stream);
  if (!g)
    return 401; /* cudaErrorIllegalState: the stream is not capturing */
  pthread_mutex_lock(&streams_lock);
  for (struct CUstream_st *s = all_streams; s; s = s->next)
    if (s->capture == g)
      s->capture = NULL;
  pthread_mutex_unlock(&streams_lock);
  *graph = g;
  return cudaSuccess;
}
cudaError_t cudaStreamIsCapturing(struct CUstream_st *stream, int *status) {
  *status = stream_capture(stream) ? 1 : 0;
  return cudaSuccess;
}
cudaError_t cudaThreadExchangeStreamCaptureMode(int *mode) { (void)mode; return cudaSuccess; }
cudaError_t cudaGraphCreate(struct CUgraph_st **graph, unsigned int flags) {
  (void)flags;
  *graph = calloc(1, sizeof(struct CUgraph_st));
  return *graph ? cudaSuccess : cudaErrorMemoryAllocation;
}
static void free_node(struct CUgraphNode_st *n) {
  free(n->args);
  free(n->sizes);
  free(n->deps);
}
cudaError_t cudaGraphDestroy(struct CUgraph_st *g) {
  if (!g)
    return cudaErrorInvalidValue;
  for (size_t i = 0; i < g->count; i++) {
    free_node(g->nodes[i]);
    free(g->nodes[i]);
  }
  free(g->nodes);
  free(g);
  return cudaSuccess;
}

/* (the layout of struct cudaKernelNodeParams in pgcc_cuda_graph.h) */
struct cudaKernelNodeParams_ { void *func; pgcc_dim3 grid, block; unsigned int shared; void **params; void **extra; };
struct cudaMemsetParams_ { void *dst; size_t pitch; unsigned int value, element; size_t width, height; };
struct cudaHostNodeParams_ { void (*fn)(void *); void *data; };

static cudaError_t set_kernel_params(struct CUgraphNode_st *n, const struct cudaKernelNodeParams_ *p) {
  struct kernel_entry *k = find_kernel(p->func);
  if (!k) {
    fprintf(stderr, "pgcc: a kernel node names a function that is not a kernel converted with (void *)kernel in "
                    "host code\n");
    return cudaErrorInvalidValue;
  }
  if (p->extra) {
    fprintf(stderr, "pgcc: kernel node parameters passed through 'extra' are not supported; use kernelParams\n");
    return cudaErrorInvalidValue;
  }
  void **args = copy_arguments(p->params, (size_t *)k->sizes, k->count);
  free(n->args);
  free(n->sizes);
  n->sizes = n->origin ? NULL : copy_sizes(k->sizes, k->count);
  n->unpack = k->unpack, n->func = p->func, n->replay = NULL;
  n->grid = p->grid, n->block = p->block, n->shared = p->shared;
  n->nargs = k->count, n->args = args;
  return cudaSuccess;
}

cudaError_t cudaGraphAddKernelNode(struct CUgraphNode_st **node, struct CUgraph_st *g,
                                   struct CUgraphNode_st *const *deps, size_t ndeps,
                                   const struct cudaKernelNodeParams_ *p) {
  struct CUgraphNode_st *n = add_node(g, NODE_KERNEL, deps, ndeps);
  if (!n)
    return cudaErrorMemoryAllocation;
  *node = n;
  return set_kernel_params(n, p);
}
cudaError_t cudaGraphKernelNodeGetParams(struct CUgraphNode_st *n, struct cudaKernelNodeParams_ *p) {
  if (n->kind != NODE_KERNEL || !n->func)
    return cudaErrorInvalidValue;
  *p = (struct cudaKernelNodeParams_){n->func, n->grid, n->block, (unsigned int)n->shared, n->args, NULL};
  return cudaSuccess;
}
cudaError_t cudaGraphKernelNodeSetParams(struct CUgraphNode_st *n, const struct cudaKernelNodeParams_ *p) {
  return n->kind == NODE_KERNEL ? set_kernel_params(n, p) : cudaErrorInvalidValue;
}
cudaError_t cudaGraphAddMemcpyNode1D(struct CUgraphNode_st **node, struct CUgraph_st *g,
                                     struct CUgraphNode_st *const *deps, size_t ndeps, void *dst, const void *src,
                                     size_t bytes, int kind) {
  (void)kind;
  struct CUgraphNode_st *n = add_node(g, NODE_COPY, deps, ndeps);
  if (!n)
    return cudaErrorMemoryAllocation;
  n->dst = dst, n->src = src, n->bytes = bytes, n->height = 1, n->pitch = n->spitch = bytes;
  *node = n;
  return cudaSuccess;
}
cudaError_t cudaGraphAddMemsetNode(struct CUgraphNode_st **node, struct CUgraph_st *g,
                                   struct CUgraphNode_st *const *deps, size_t ndeps,
                                   const struct cudaMemsetParams_ *p) {
  if (p->element != 1 && p->element != 2 && p->element != 4)
    return cudaErrorInvalidValue;
  struct CUgraphNode_st *n = add_node(g, NODE_MEMSET, deps, ndeps);
  if (!n)
    return cudaErrorMemoryAllocation;
  n->dst = p->dst, n->pitch = p->pitch, n->value = p->value, n->element = p->element;
  n->width = p->width, n->height = p->height;
  *node = n;
  return cudaSuccess;
}
cudaError_t cudaGraphAddHostNode(struct CUgraphNode_st **node, struct CUgraph_st *g,
                                 struct CUgraphNode_st *const *deps, size_t ndeps,
                                 const struct cudaHostNodeParams_ *p) {
  struct CUgraphNode_st *n = add_node(g, NODE_HOST, deps, ndeps);
  if (!n)
    return cudaErrorMemoryAllocation;
  n->fn = p->fn, n->data = p->data;
  *node = n;
  return cudaSuccess;
}
cudaError_t cudaGraphAddEmptyNode(struct CUgraphNode_st **node, struct CUgraph_st *g,
                                  struct CUgraphNode_st *const *deps, size_t ndeps) {
  struct CUgraphNode_st *n = add_node(g, NODE_EMPTY, deps, ndeps);
  if (!n)
    return cudaErrorMemoryAllocation;
  *node = n;
  return cudaSuccess;
}
cudaError_t cudaGraphAddDependencies(struct CUgraph_st *g, struct CUgraphNode_st *const *from,
                                     struct CUgraphNode_st *const *to, size_t count) {
  (void)g;
  for (size_t i = 0; i < count; i++) {
    struct CUgraphNode_st *n = to[i];
    struct CUgraphNode_st **d = realloc(n->deps, (n->ndeps + 1) * sizeof *d);
    if (!d)
      return cudaErrorMemoryAllocation;
    d[n->ndeps++] = from[i];
    n->deps = d;
  }
  return cudaSuccess;
}
cudaError_t cudaGraphGetNodes(struct CUgraph_st *g, struct CUgraphNode_st **nodes, size_t *count) {
  if (nodes)
    for (size_t i = 0; i < g->count && i < *count; i++)
      nodes[i] = g->nodes[i];
  else
    *count = g->count;
  return cudaSuccess;
}
cudaError_t cudaGraphNodeGetType(struct CUgraphNode_st *n, int *type) {
  static const int types[] = {0, 1, 2, 3, 5, 3};
  *type = types[n->kind];
  return cudaSuccess;
}

cudaError_t cudaGraphInstantiateWithFlags(struct CUgraphExec_st **exec, struct CUgraph_st *g,
                                          unsigned long long flags) {
  (void)flags;
  if (!g)
    return cudaErrorInvalidValue;
  struct CUgraphExec_st *x = calloc(1, sizeof *x);
  x->nodes = calloc(g->count ? g->count : 1, sizeof *x->nodes);
  for (size_t i = 0; i < g->count; i++)
    g->nodes[i]->order = -1;
  /* Kahn's algorithm: repeatedly the earliest added node whose dependencies have all been placed */
  for (size_t placed = 0; placed < g->count; placed++) {
    size_t i = 0;
    for (; i < g->count; i++) {
      struct CUgraphNode_st *n = g->nodes[i];
      size_t d = 0;
      if (n->order >= 0)
        continue;
      while (d < n->ndeps && n->deps[d]->order >= 0)
        d++;
      if (d == n->ndeps)
        break;
    }
    if (i == g->count) { /* a cycle: CUDA refuses such a graph */
      free(x->nodes);
      free(x);
      return cudaErrorInvalidValue;
    }
    struct CUgraphNode_st *n = g->nodes[i];
    n->order = (int)placed;
    x->nodes[placed] = *n;
    x->nodes[placed].deps = NULL, x->nodes[placed].ndeps = 0;
    x->nodes[placed].origin = n;
    if (n->kind == NODE_KERNEL) /* (the executable graph's own copy of the arguments) */
      x->nodes[placed].args = copy_arguments(n->args, n->sizes, n->nargs), x->nodes[placed].sizes = NULL;
  }
  x->count = g->count;
  *exec = x;
  return cudaSuccess;
}

cudaError_t cudaGraphExecKernelNodeSetParams(struct CUgraphExec_st *x, struct CUgraphNode_st *node,
                                             const struct cudaKernelNodeParams_ *p) {
  for (size_t i = 0; i < x->count; i++)
    if (x->nodes[i].origin == node)
      return x->nodes[i].kind == NODE_KERNEL ? set_kernel_params(&x->nodes[i], p) : cudaErrorInvalidValue;
  return cudaErrorInvalidValue;
}
cudaError_t cudaGraphExecDestroy(struct CUgraphExec_st *x) {
  if (!x)
    return cudaErrorInvalidValue;
  for (size_t i = 0; i < x->count; i++)
    free(x->nodes[i].args);
  free(x->nodes);
  free(x);
  return cudaSuccess;
}
cudaError_t cudaGraphUpload(struct CUgraphExec_st *x, struct CUstream_st *stream) {
  (void)x, (void)stream;
  return cudaSuccess;
}

/* a launch of an executable graph: its nodes run in their order; launched into a capturing stream, the graph's
   work is captured instead (a child graph's nodes, in order) */
cudaError_t cudaGraphLaunch(struct CUgraphExec_st *x, struct CUstream_st *stream) {
  if (!x)
    return cudaErrorInvalidValue;
  for (size_t i = 0; i < x->count; i++) {
    struct CUgraphNode_st *n = &x->nodes[i];
    switch (n->kind) {
    case NODE_KERNEL: {
      unsigned int g[3] = {n->grid.x, n->grid.y, n->grid.z}, b[3] = {n->block.x, n->block.y, n->block.z};
      if (stream_capture(stream)) {
        if (n->replay)
          __pgcc_capture_launch(stream, g, b, n->shared, n->replay, n->args, n->origin->sizes, n->nargs);
        else
          return 801; /* cudaErrorNotSupported: an explicit graph's kernel node captured into another graph */
        break;
      }
      __pgcc_push_call_configuration(n->grid, n->block, n->shared, NULL);
      if (n->replay)
        n->replay(n->args);
      else
        n->unpack(n->func, n->args);
      break;
    }
    case NODE_COPY:
      for (size_t z = 0; z < (n->depth ? n->depth : 1); z++) {
        char *dst = (char *)n->dst + z * n->dslice;
        const char *src = (const char *)n->src + z * n->sslice;
        if (__pgcc_capture_copy2d(stream, dst, n->pitch, src, n->spitch, n->bytes, n->height))
          continue;
        for (size_t r = 0; r < n->height; r++)
          memmove(dst + r * n->pitch, src + r * n->spitch, n->bytes);
      }
      break;
    case NODE_MEMSET:
      if (capture_memset(stream, n->dst, n->pitch, n->value, n->element, n->width, n->height))
        break;
      for (size_t r = 0; r < n->height; r++) {
        char *row = (char *)n->dst + r * n->pitch;
        for (size_t c = 0; c < n->width; c++)
          if (n->element == 1)
            row[c] = (char)n->value;
          else if (n->element == 2)
            ((unsigned short *)row)[c] = (unsigned short)n->value;
          else
            ((unsigned int *)row)[c] = n->value;
      }
      break;
    case NODE_HOST:
      cudaLaunchHostFunc(stream, n->fn, n->data);
      break;
    case NODE_CALLBACK:
      if (!__pgcc_capture_callback(stream, n->callback, n->data))
        n->callback(stream, cudaSuccess, n->data);
      break;
    default:
      break;
    }
  }
  return sticky();
}

cudaError_t __pgcc_capture_info(struct CUstream_st *stream, int *status, unsigned long long *id,
                                struct CUgraph_st **graph, struct CUgraphNode_st *const **deps, size_t *count) {
  struct CUgraph_st *g = stream_capture(stream);
  if (status)
    *status = g != NULL;
  if (g) {
    if (id)
      *id = (unsigned long long)(size_t)g;
    if (graph)
      *graph = g;
    if (deps)
      *deps = last_node(g);
    if (count)
      *count = g->count != 0;
  }
  return cudaSuccess;
}
cudaError_t __pgcc_graph_exec_update(struct CUgraphExec_st *x, struct CUgraph_st *g) {
  struct CUgraphExec_st *fresh;
  cudaError_t e = cudaGraphInstantiateWithFlags(&fresh, g, 0);
  if (e != cudaSuccess)
    return e;
  struct CUgraphExec_st old = *x;
  *x = *fresh, *fresh = old; /* (the old nodes go with `fresh`) */
  return cudaGraphExecDestroy(fresh);
}

/* the nodes of `child` (a copy, as CUDA copies a child graph when it is added) appended to `g` in a topological
   order of the child, each after the previous one, the first after `deps`; returns the last one (NULL for an
   empty child) or sets *error */
static struct CUgraphNode_st *append_copy(struct CUgraph_st *g, struct CUgraph_st *child,
                                          struct CUgraphNode_st *const *deps, size_t ndeps, cudaError_t *error) {
  struct CUgraphExec_st *x;
  *error = cudaGraphInstantiateWithFlags(&x, child, 0);
  if (*error != cudaSuccess)
    return NULL;
  struct CUgraphNode_st *last = NULL;
  for (size_t i = 0; i < x->count && *error == cudaSuccess; i++) {
    struct CUgraphNode_st *n = last ? add_node(g, x->nodes[i].kind, &last, 1) : add_node(g, x->nodes[i].kind, deps, ndeps);
    if (!n) {
      *error = cudaErrorMemoryAllocation;
      break;
    }
    struct CUgraphNode_st *keep_deps = (struct CUgraphNode_st *)n->deps;
    size_t keep_ndeps = n->ndeps;
    *n = x->nodes[i];
    n->graph = g, n->origin = NULL;
    n->deps = (struct CUgraphNode_st **)keep_deps, n->ndeps = keep_ndeps;
    n->sizes = n->kind == NODE_KERNEL ? copy_sizes(x->nodes[i].origin->sizes, n->nargs) : NULL;
    x->nodes[i].args = NULL; /* (moved to the new node) */
    last = n;
  }
  cudaGraphExecDestroy(x);
  return last;
}
cudaError_t cudaGraphAddChildGraphNode(struct CUgraphNode_st **node, struct CUgraph_st *g,
                                       struct CUgraphNode_st *const *deps, size_t ndeps, struct CUgraph_st *child) {
  cudaError_t e;
  struct CUgraphNode_st *last = append_copy(g, child, deps, ndeps, &e);
  if (e != cudaSuccess)
    return e;
  /* (the node the caller holds: an empty node after the child's work) */
  struct CUgraphNode_st *n = last ? add_node(g, NODE_EMPTY, &last, 1) : add_node(g, NODE_EMPTY, deps, ndeps);
  if (!n)
    return cudaErrorMemoryAllocation;
  *node = n;
  return cudaSuccess;
}
cudaError_t cudaGraphClone(struct CUgraph_st **clone, struct CUgraph_st *g) {
  cudaError_t e = cudaGraphCreate(clone, 0);
  if (e == cudaSuccess)
    append_copy(*clone, g, NULL, 0, &e);
  return e;
}
/* event nodes: every node runs after the ones before it here, so recording and waiting order nothing more */
cudaError_t cudaGraphAddEventRecordNode(struct CUgraphNode_st **node, struct CUgraph_st *g,
                                        struct CUgraphNode_st *const *deps, size_t ndeps, struct CUevent_st *event) {
  (void)event;
  return cudaGraphAddEmptyNode(node, g, deps, ndeps);
}
cudaError_t cudaGraphAddEventWaitNode(struct CUgraphNode_st **node, struct CUgraph_st *g,
                                      struct CUgraphNode_st *const *deps, size_t ndeps, struct CUevent_st *event) {
  (void)event;
  return cudaGraphAddEmptyNode(node, g, deps, ndeps);
}

/* cudaGraphAddMemcpyNode (pgcc_cuda_graph.h works out the addresses of its cudaMemcpy3DParms) */
cudaError_t __pgcc_graph_add_copy3d(struct CUgraphNode_st **node, struct CUgraph_st *g,
                                    struct CUgraphNode_st *const *deps, size_t ndeps, void *dst, size_t dpitch,
                                    size_t dslice, const void *src, size_t spitch, size_t sslice, size_t width,
                                    size_t height, size_t depth) {
  struct CUgraphNode_st *n = add_node(g, NODE_COPY, deps, ndeps);
  if (!n)
    return cudaErrorMemoryAllocation;
  n->dst = dst, n->pitch = dpitch, n->dslice = dslice, n->src = src, n->spitch = spitch, n->sslice = sslice;
  n->bytes = width, n->height = height, n->depth = depth;
  *node = n;
  return cudaSuccess;
}

/* changes to a copy, memset or host node of a graph, or of an executable graph (the node is the graph's) */
static struct CUgraphNode_st *exec_node(struct CUgraphExec_st *x, struct CUgraphNode_st *node, int kind) {
  for (size_t i = 0; x && i < x->count; i++)
    if (x->nodes[i].origin == node)
      return x->nodes[i].kind == kind ? &x->nodes[i] : NULL;
  return NULL;
}
static cudaError_t set_copy1d(struct CUgraphNode_st *n, void *dst, const void *src, size_t bytes) {
  if (!n || n->kind != NODE_COPY)
    return cudaErrorInvalidValue;
  n->dst = dst, n->src = src, n->bytes = bytes, n->height = 1, n->pitch = n->spitch = bytes;
  n->depth = 0, n->dslice = n->sslice = 0;
  return cudaSuccess;
}
cudaError_t cudaGraphMemcpyNodeSetParams1D(struct CUgraphNode_st *n, void *dst, const void *src, size_t bytes,
                                           int kind) {
  (void)kind;
  return set_copy1d(n, dst, src, bytes);
}
cudaError_t cudaGraphExecMemcpyNodeSetParams1D(struct CUgraphExec_st *x, struct CUgraphNode_st *node, void *dst,
                                               const void *src, size_t bytes, int kind) {
  (void)kind;
  return set_copy1d(exec_node(x, node, NODE_COPY), dst, src, bytes);
}
static cudaError_t set_memset(struct CUgraphNode_st *n, const struct cudaMemsetParams_ *p) {
  if (!n || n->kind != NODE_MEMSET || (p->element != 1 && p->element != 2 && p->element != 4))
    return cudaErrorInvalidValue;
  n->dst = p->dst, n->pitch = p->pitch, n->value = p->value, n->element = p->element;
  n->width = p->width, n->height = p->height;
  return cudaSuccess;
}
cudaError_t cudaGraphMemsetNodeSetParams(struct CUgraphNode_st *n, const struct cudaMemsetParams_ *p) {
  return set_memset(n, p);
}
cudaError_t cudaGraphExecMemsetNodeSetParams(struct CUgraphExec_st *x, struct CUgraphNode_st *node,
                                             const struct cudaMemsetParams_ *p) {
  return set_memset(exec_node(x, node, NODE_MEMSET), p);
}
static cudaError_t set_host(struct CUgraphNode_st *n, const struct cudaHostNodeParams_ *p) {
  if (!n || n->kind != NODE_HOST)
    return cudaErrorInvalidValue;
  n->fn = p->fn, n->data = p->data;
  return cudaSuccess;
}
cudaError_t cudaGraphHostNodeSetParams(struct CUgraphNode_st *n, const struct cudaHostNodeParams_ *p) {
  return set_host(n, p);
}
cudaError_t cudaGraphExecHostNodeSetParams(struct CUgraphExec_st *x, struct CUgraphNode_st *node,
                                           const struct cudaHostNodeParams_ *p) {
  return set_host(exec_node(x, node, NODE_HOST), p);
}
