/* Per-thread bools that live across __syncthreads(): a block relaxes a shared row of integers a few steps at a
 * time (min of a cell and its neighbours plus a cost), each thread remembering in a bool whether it wrote this
 * step; the loop leaves through a block-uniform `break` between two barriers.  The host redoes the relaxation
 * serially and counts differences. */
#include <stdio.h>
#include <stdlib.h>
#include <cuda_runtime.h>

#define TILE 128

__global__ void relax(const int *cost, const int *in, int *out, int n, int steps)
{
    __shared__ int cur[TILE];
    __shared__ int nxt[TILE];
    int t = threadIdx.x, g = blockIdx.x * TILE + t;
    bool live = g < n;
    cur[t] = live ? in[g] : 1 << 20;
    __syncthreads();
    bool wrote = false;
    for (int s = 0; s < steps; s++) {
        wrote = false;
        if (live && t > 0 && t < TILE - 1) {
            int m = cur[t];
            m = cur[t - 1] < m ? cur[t - 1] : m;
            m = cur[t + 1] < m ? cur[t + 1] : m;
            nxt[t] = m + cost[g];
            wrote = true;
        }
        __syncthreads();
        if (s == steps - 1)
            break;
        if (wrote)
            cur[t] = nxt[t];
        __syncthreads();
    }
    if (live)
        out[g] = wrote ? nxt[t] : -1;
}

int main(void)
{
    const int n = 1000, steps = 5;
    int *cost = (int *)malloc(n * sizeof(int)), *in = (int *)malloc(n * sizeof(int));
    int *out = (int *)malloc(n * sizeof(int));
    for (int i = 0; i < n; i++) {
        cost[i] = (i * 7) % 5;
        in[i] = (i * 13) % 29;
    }
    int *dcost, *din, *dout;
    cudaMalloc((void **)&dcost, n * sizeof(int));
    cudaMalloc((void **)&din, n * sizeof(int));
    cudaMalloc((void **)&dout, n * sizeof(int));
    cudaMemcpy(dcost, cost, n * sizeof(int), cudaMemcpyHostToDevice);
    cudaMemcpy(din, in, n * sizeof(int), cudaMemcpyHostToDevice);
    relax<<<(n + TILE - 1) / TILE, TILE>>>(dcost, din, dout, n, steps);
    cudaMemcpy(out, dout, n * sizeof(int), cudaMemcpyDeviceToHost);

    int cur[TILE], nxt[TILE], wrong = 0;
    long sum = 0;
    for (int b = 0; b * TILE < n; b++) {
        for (int t = 0; t < TILE; t++)
            cur[t] = b * TILE + t < n ? in[b * TILE + t] : 1 << 20;
        for (int s = 0; s < steps; s++) {
            for (int t = 1; t < TILE - 1; t++) {
                int m = cur[t];
                m = cur[t - 1] < m ? cur[t - 1] : m;
                m = cur[t + 1] < m ? cur[t + 1] : m;
                nxt[t] = m + (b * TILE + t < n ? cost[b * TILE + t] : 0);
            }
            if (s < steps - 1)
                for (int t = 1; t < TILE - 1; t++)
                    cur[t] = nxt[t];
        }
        for (int t = 0; t < TILE && b * TILE + t < n; t++) {
            int want = (t > 0 && t < TILE - 1) ? nxt[t] : -1;
            wrong += out[b * TILE + t] != want;
            sum += out[b * TILE + t];
        }
    }
    printf("wrong %d sum %ld\n", wrong, sum);
    return wrong != 0;
}
