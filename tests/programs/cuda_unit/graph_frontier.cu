/* Level-synchronous breadth-first search with one thread per vertex: an array of vertex records (first edge,
 * degree), bool frontier/next/visited masks copied to and from the device, and a bool "changed" flag read
 * back after each level.  The host checks the levels against a queue-based BFS and prints a checksum. */
#include <stdio.h>
#include <stdlib.h>
#include <cuda_runtime.h>

struct vertex { int first; int degree; };

__global__ void expand(const vertex *v, const int *adj, bool *frontier, bool *next, const bool *visited,
                       int *level, int n)
{
    int u = blockIdx.x * blockDim.x + threadIdx.x;
    if (u >= n || !frontier[u])
        return;
    frontier[u] = false;
    for (int e = v[u].first; e < v[u].first + v[u].degree; e++) {
        int w = adj[e];
        if (!visited[w]) {
            level[w] = level[u] + 1;
            next[w] = true;
        }
    }
}

__global__ void advance(bool *frontier, bool *next, bool *visited, bool *changed, int n)
{
    int u = blockIdx.x * blockDim.x + threadIdx.x;
    if (u < n && next[u]) {
        frontier[u] = true;
        visited[u] = true;
        next[u] = false;
        *changed = true;
    }
}

int main(void)
{
    const int n = 3000, deg = 3, m = n * deg;
    vertex *hv = (vertex *)malloc(n * sizeof(vertex));
    int *hadj = (int *)malloc(m * sizeof(int));
    bool *hmask = (bool *)calloc(n, sizeof(bool));
    int *hlevel = (int *)malloc(n * sizeof(int));
    unsigned s = 7;
    for (int u = 0; u < n; u++) {
        hv[u].first = u * deg;
        hv[u].degree = deg;
        hlevel[u] = -1;
    }
    for (int e = 0; e < m; e++) {
        s = s * 1664525u + 1013904223u;
        hadj[e] = (int)((s >> 9) % n);
    }
    hlevel[0] = 0;
    hmask[0] = true;

    vertex *dv; int *dadj, *dlevel; bool *dfrontier, *dnext, *dvisited, *dchanged;
    cudaMalloc((void **)&dv, n * sizeof(vertex));
    cudaMalloc((void **)&dadj, m * sizeof(int));
    cudaMalloc((void **)&dlevel, n * sizeof(int));
    cudaMalloc((void **)&dfrontier, n * sizeof(bool));
    cudaMalloc((void **)&dnext, n * sizeof(bool));
    cudaMalloc((void **)&dvisited, n * sizeof(bool));
    cudaMalloc((void **)&dchanged, sizeof(bool));
    cudaMemcpy(dv, hv, n * sizeof(vertex), cudaMemcpyHostToDevice);
    cudaMemcpy(dadj, hadj, m * sizeof(int), cudaMemcpyHostToDevice);
    cudaMemcpy(dlevel, hlevel, n * sizeof(int), cudaMemcpyHostToDevice);
    cudaMemcpy(dfrontier, hmask, n * sizeof(bool), cudaMemcpyHostToDevice);
    cudaMemcpy(dvisited, hmask, n * sizeof(bool), cudaMemcpyHostToDevice);
    cudaMemset(dnext, 0, n * sizeof(bool));

    int threads = 128, blocks = (n + threads - 1) / threads, rounds = 0;
    bool changed;
    do {
        changed = false;
        cudaMemcpy(dchanged, &changed, sizeof(bool), cudaMemcpyHostToDevice);
        expand<<<blocks, threads>>>(dv, dadj, dfrontier, dnext, dvisited, dlevel, n);
        advance<<<blocks, threads>>>(dfrontier, dnext, dvisited, dchanged, n);
        cudaMemcpy(&changed, dchanged, sizeof(bool), cudaMemcpyDeviceToHost);
        rounds++;
    } while (changed);
    cudaMemcpy(hlevel, dlevel, n * sizeof(int), cudaMemcpyDeviceToHost);

    /* reference: queue-based BFS on the host */
    int *ref = (int *)malloc(n * sizeof(int)), *queue = (int *)malloc(n * sizeof(int));
    for (int u = 0; u < n; u++)
        ref[u] = -1;
    int head = 0, tail = 0;
    ref[0] = 0;
    queue[tail++] = 0;
    while (head < tail) {
        int u = queue[head++];
        for (int e = hv[u].first; e < hv[u].first + hv[u].degree; e++)
            if (ref[hadj[e]] < 0) {
                ref[hadj[e]] = ref[u] + 1;
                queue[tail++] = hadj[e];
            }
    }
    int wrong = 0, reached = 0;
    long sum = 0;
    for (int u = 0; u < n; u++) {
        wrong += hlevel[u] != ref[u];
        reached += hlevel[u] >= 0;
        sum += (long)hlevel[u] * (u % 5 + 1);
    }
    printf("rounds %d reached %d checksum %ld wrong %d\n", rounds, reached, sum, wrong);
    cudaFree(dv); cudaFree(dadj); cudaFree(dlevel); cudaFree(dfrontier); cudaFree(dnext); cudaFree(dvisited);
    cudaFree(dchanged);
    free(hv); free(hadj); free(hmask); free(hlevel); free(ref); free(queue);
    return wrong != 0;
}
