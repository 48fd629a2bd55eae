// Warp-tile reductions of a struct with cooperative groups: each row of a matrix gets its largest element and
// that element's column from cg::reduce over a 32-thread tile, the reduction operator being a __device__ function
// (passed as a function pointer) or a functor, and a tile's shfl_down moving a three-word struct. The helper that
// times the launches uses std::chrono having included only the CUDA headers, as programs written for nvcc do.
// Results are compared with a host computation.
#include <cstdio>
#include <cstdlib>
#include <vector>
#include <cooperative_groups.h>
#include <cooperative_groups/reduce.h>

namespace cg = cooperative_groups;

struct Best {
  float value;
  int column;
};

struct Triple {
  int a, b, c;
};

__device__ Best better_of(Best x, Best y) {
  if (x.value != y.value) return x.value > y.value ? x : y;
  return x.column < y.column ? x : y;  // ties: the first column, whatever the order of the reduction
}

struct BetterOf {
  __device__ Best operator()(Best x, Best y) const { return better_of(x, y); }
};

__global__ void row_best(const float *m, int rows, int cols, Best *by_pointer, Best *by_functor)
{
  cg::thread_block block = cg::this_thread_block();
  cg::thread_block_tile<32> tile = cg::tiled_partition<32>(block);
  int row = blockIdx.x * tile.meta_group_size() + tile.meta_group_rank();
  if (row >= rows) return;
  Best mine = {-1e30f, cols};
  for (int c = tile.thread_rank(); c < cols; c += tile.size())
    mine = better_of(mine, Best{m[row * cols + c], c});
  Best a = cg::reduce(tile, mine, better_of);
  Best b = cg::reduce(tile, mine, BetterOf());
  if (tile.thread_rank() == 0) {
    by_pointer[row] = a;
    by_functor[row] = b;
  }
}

__global__ void shift_triples(const Triple *in, Triple *out)
{
  cg::thread_block_tile<32> tile = cg::tiled_partition<32>(cg::this_thread_block());
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  out[i] = tile.shfl_down(in[i], 3);  // the last three lanes keep their own
}

template <class F>
double seconds(F f) {
  auto start = std::chrono::steady_clock::now();
  f();
  cudaDeviceSynchronize();
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

int main()
{
  const int rows = 45, cols = 203, n = 128;
  std::vector<float> m(rows * cols);
  for (int i = 0; i < rows * cols; i++) m[i] = (float)((i * 7919) % 1009);
  for (int r = 0; r < rows; r += 4) m[r * cols + (r * 13) % cols] = 5000.f;  // a clear winner in some rows
  m[2 * cols + 17] = m[2 * cols + 150] = 9000.f;                              // a tie in row 2
  float *dm;
  Best *dp, *df;
  cudaMalloc(&dm, m.size() * sizeof(float));
  cudaMalloc(&dp, rows * sizeof(Best));
  cudaMalloc(&df, rows * sizeof(Best));
  cudaMemcpy(dm, m.data(), m.size() * sizeof(float), cudaMemcpyHostToDevice);
  double t = seconds([&] { row_best<<<(rows + 3) / 4, 128>>>(dm, rows, cols, dp, df); });
  std::vector<Best> p(rows), f(rows);
  cudaMemcpy(p.data(), dp, rows * sizeof(Best), cudaMemcpyDeviceToHost);
  cudaMemcpy(f.data(), df, rows * sizeof(Best), cudaMemcpyDeviceToHost);
  int bad = 0;
  for (int r = 0; r < rows; r++) {
    int best = 0;
    for (int c = 1; c < cols; c++)
      if (m[r * cols + c] > m[r * cols + best]) best = c;
    if (p[r].column != best || f[r].column != best || p[r].value != m[r * cols + best] ||
        f[r].value != m[r * cols + best]) {
      printf("row %d: %d %d (want %d)\n", r, p[r].column, f[r].column, best);
      bad++;
    }
  }
  printf("row 2: column %d value %.0f\n", p[2].column, p[2].value);

  std::vector<Triple> in(n), out(n);
  for (int i = 0; i < n; i++) in[i] = Triple{i, -i, i * i};
  Triple *din, *dout;
  cudaMalloc(&din, n * sizeof(Triple));
  cudaMalloc(&dout, n * sizeof(Triple));
  cudaMemcpy(din, in.data(), n * sizeof(Triple), cudaMemcpyHostToDevice);
  t += seconds([&] { shift_triples<<<n / 64, 64>>>(din, dout); });
  cudaMemcpy(out.data(), dout, n * sizeof(Triple), cudaMemcpyDeviceToHost);
  for (int i = 0; i < n; i++) {
    int src = i % 32 + 3 < 32 ? i + 3 : i;
    if (out[i].a != in[src].a || out[i].b != in[src].b || out[i].c != in[src].c) {
      printf("triple %d: %d %d %d\n", i, out[i].a, out[i].b, out[i].c);
      bad++;
    }
  }
  printf("timed: %s\n", t >= 0 ? "yes" : "no");
  cudaFree(dm); cudaFree(dp); cudaFree(df); cudaFree(din); cudaFree(dout);
  printf("%s\n", bad == 0 ? "PASS" : "FAIL");
  return bad != 0;
}
