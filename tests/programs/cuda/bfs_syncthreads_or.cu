// Level-synchronous BFS of a small graph inside one block per source, the frontier loop ending when
// __syncthreads_or says no thread found a new vertex; a CSR graph from <random>, distances compared with a
// host queue-based BFS, and a second kernel counting per-level vertices with __syncthreads_count.
#include <cstdio>
#include <queue>
#include <random>
#include <vector>
#include "check.h"

__global__ void bfs_block(const int *row, const int *col, int nv, const int *sources, int *dist) {
  int src = sources[blockIdx.x];
  int *d = dist + (size_t)blockIdx.x * nv;
  for (int v = threadIdx.x; v < nv; v += blockDim.x) d[v] = v == src ? 0 : -1;
  __syncthreads();
  int level = 0;
  int changed = 1;
  while (changed) {
    int found = 0;
    for (int v = threadIdx.x; v < nv; v += blockDim.x)
      if (d[v] == level)
        for (int e = row[v]; e < row[v + 1]; e++)
          if (d[col[e]] == -1) { d[col[e]] = level + 1; found = 1; }
    changed = __syncthreads_or(found);
    level++;
  }
}

__global__ void level_sizes(const int *dist, int nv, int levels, int *counts) {
  const int *d = dist + (size_t)blockIdx.x * nv;
  for (int l = 0; l < levels; l++) {
    int mine = 0;
    for (int v = threadIdx.x; v < nv; v += blockDim.x) mine += d[v] == l;
    int any = __syncthreads_count(mine > 0);
    __shared__ int total;
    if (threadIdx.x == 0) total = 0;
    __syncthreads();
    atomicAdd(&total, mine);
    __syncthreads();
    if (threadIdx.x == 0) counts[blockIdx.x * levels + l] = any > 0 ? total : 0;
    __syncthreads();
  }
}

int main() {
  const int nv = 3000, deg = 3, nsrc = 8, levels = 40;
  std::mt19937 gen(21);
  std::uniform_int_distribution<int> pick(0, nv - 1);
  std::vector<std::vector<int>> adj(nv);
  for (int v = 0; v < nv; v++)
    for (int k = 0; k < deg; k++) { int w = pick(gen); adj[v].push_back(w); adj[w].push_back(v); }
  std::vector<int> row(nv + 1, 0), col;
  for (int v = 0; v < nv; v++) { row[v + 1] = row[v] + (int)adj[v].size(); col.insert(col.end(), adj[v].begin(), adj[v].end()); }
  std::vector<int> src(nsrc);
  for (auto &s : src) s = pick(gen);
  int *d_row, *d_col, *d_src, *d_dist, *d_counts;
  CHECK_CUDA(cudaMalloc(&d_row, row.size() * 4));
  CHECK_CUDA(cudaMalloc(&d_col, col.size() * 4));
  CHECK_CUDA(cudaMalloc(&d_src, nsrc * 4));
  CHECK_CUDA(cudaMalloc(&d_dist, nsrc * nv * 4));
  CHECK_CUDA(cudaMalloc(&d_counts, nsrc * levels * 4));
  CHECK_CUDA(cudaMemcpy(d_row, row.data(), row.size() * 4, cudaMemcpyHostToDevice));
  CHECK_CUDA(cudaMemcpy(d_col, col.data(), col.size() * 4, cudaMemcpyHostToDevice));
  CHECK_CUDA(cudaMemcpy(d_src, src.data(), nsrc * 4, cudaMemcpyHostToDevice));
  bfs_block<<<nsrc, 128>>>(d_row, d_col, nv, d_src, d_dist);
  level_sizes<<<nsrc, 128>>>(d_dist, nv, levels, d_counts);
  std::vector<int> dist(nsrc * nv), counts(nsrc * levels);
  CHECK_CUDA(cudaMemcpy(dist.data(), d_dist, dist.size() * 4, cudaMemcpyDeviceToHost));
  CHECK_CUDA(cudaMemcpy(counts.data(), d_counts, counts.size() * 4, cudaMemcpyDeviceToHost));
  bool ok = true;
  for (int s = 0; s < nsrc; s++) {
    std::vector<int> want(nv, -1);
    std::queue<int> q;
    want[src[s]] = 0; q.push(src[s]);
    while (!q.empty()) { int v = q.front(); q.pop(); for (int w : adj[v]) if (want[w] < 0) { want[w] = want[v] + 1; q.push(w); } }
    std::vector<int> per(levels, 0);
    for (int v = 0; v < nv; v++) { ok = ok && dist[s * nv + v] == want[v]; if (want[v] >= 0 && want[v] < levels) per[want[v]]++; }
    for (int l = 0; l < levels; l++) ok = ok && counts[s * levels + l] == per[l];
  }
  printf("source 0: %d %d %d %d vertices at levels 0-3\n%s\n", counts[0], counts[1], counts[2], counts[3], ok ? "PASS" : "FAIL");
  return ok ? 0 : 1;
}
