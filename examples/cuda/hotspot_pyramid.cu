/*
 * hotspot_pyramid.cu - transient 2-D thermal simulation of a chip with
 * ghost-zone ("pyramid") tiling: several time steps per kernel launch.
 *
 * Each cell's temperature is updated from its four neighbours, its power
 * density and a leak to the ambient temperature (explicit Euler).  Cells on
 * the edge of the chip use their own temperature for the missing neighbour.
 *
 * A 16x16 block loads a 16x16 tile of temperatures and powers into
 * __shared__ memory; the tile overlaps its neighbours by a halo of PYR
 * cells on each side.  The block then advances up to PYR steps entirely in
 * shared memory: in step s only cells at least s+1 away from the tile edge
 * can be updated (their neighbours are still valid), so the valid region
 * shrinks by one cell per step like a pyramid; __syncthreads() separates
 * computing the new values from publishing them and publishing from the
 * next step.  Finally the central (16 - 2*PYR)^2 cells are written back.
 * The host launches the kernel repeatedly, ping-ponging two buffers, until
 * the requested number of steps is done.
 *
 * Determinism: every cell value is produced by the same float expression
 * from the same inputs as in a plain step-by-step stencil (the halo cells
 * are recomputed redundantly but identically), so the results are
 * bit-identical to the sequential C reference.
 * Usage: hotspot_pyramid [steps]     (default 50)
 */
#include <stdio.h>
#include <stdlib.h>
#include <cuda_runtime.h>

#define ROWS 200
#define COLS 170
#define BLOCK 16
#define PYR 3                       /* time steps per launch (halo width) */
#define OUT_TILE (BLOCK - 2 * PYR)  /* cells written back per block side */

#define CAP 0.5f    /* time step / heat capacity */
#define RX 0.2f     /* lateral conductance, x */
#define RY 0.15f    /* lateral conductance, y */
#define RZ 0.01f    /* vertical conductance to the heat sink */
#define AMB 80.0f   /* ambient temperature */

__global__ void hotspot_steps(const float *power, const float *temp_in,
                              float *temp_out, int rows, int cols, int steps)
{
    __shared__ float t_cur[BLOCK][BLOCK];
    __shared__ float t_new[BLOCK][BLOCK];
    __shared__ float p_loc[BLOCK][BLOCK];

    int tx = threadIdx.x;
    int ty = threadIdx.y;
    int gx = blockIdx.x * OUT_TILE - PYR + tx;
    int gy = blockIdx.y * OUT_TILE - PYR + ty;
    bool inside = gx >= 0 && gx < cols && gy >= 0 && gy < rows;

    if (inside) {
        t_cur[ty][tx] = temp_in[gy * cols + gx];
        p_loc[ty][tx] = power[gy * cols + gx];
    } else {
        t_cur[ty][tx] = 0.0f;
        p_loc[ty][tx] = 0.0f;
    }
    __syncthreads();

    for (int s = 0; s < steps; s++) {
        bool update = inside &&
                      tx >= s + 1 && tx <= BLOCK - 2 - s &&
                      ty >= s + 1 && ty <= BLOCK - 2 - s;
        if (update) {
            float c = t_cur[ty][tx];
            float north = gy == 0 ? c : t_cur[ty - 1][tx];
            float south = gy == rows - 1 ? c : t_cur[ty + 1][tx];
            float west = gx == 0 ? c : t_cur[ty][tx - 1];
            float east = gx == cols - 1 ? c : t_cur[ty][tx + 1];
            t_new[ty][tx] = c + CAP * (p_loc[ty][tx] +
                                       (north + south - 2.0f * c) * RY +
                                       (east + west - 2.0f * c) * RX +
                                       (AMB - c) * RZ);
        }
        __syncthreads();
        if (update)
            t_cur[ty][tx] = t_new[ty][tx];
        __syncthreads();
    }

    if (inside && tx >= PYR && tx < BLOCK - PYR && ty >= PYR && ty < BLOCK - PYR)
        temp_out[gy * cols + gx] = t_cur[ty][tx];
}

static void init_chip(float *power, float *temp)
{
    for (int y = 0; y < ROWS; y++) {
        for (int x = 0; x < COLS; x++) {
            float p = 0.02f * (float)((x * 7 + y * 11) % 13);
            /* two hot functional units and a warm strip */
            if (x >= 30 && x < 60 && y >= 40 && y < 80)
                p += 3.0f;
            if (x >= 110 && x < 125 && y >= 120 && y < 170)
                p += 5.0f;
            if (y >= 10 && y < 14)
                p += 1.0f;
            power[y * COLS + x] = p;
            temp[y * COLS + x] = AMB + 0.5f * (float)((x * 3 + y * 5) % 9);
        }
    }
}

int main(int argc, char **argv)
{
    int total_steps = 50;
    if (argc > 1)
        total_steps = atoi(argv[1]);
    if (total_steps < 0) {
        fprintf(stderr, "usage: %s [steps >= 0]\n", argv[0]);
        return 1;
    }

    size_t bytes = (size_t)ROWS * COLS * sizeof(float);
    float *h_power = (float *)malloc(bytes);
    float *h_temp = (float *)malloc(bytes);
    if (!h_power || !h_temp) {
        fprintf(stderr, "host malloc failed\n");
        return 1;
    }
    init_chip(h_power, h_temp);

    float *d_power, *d_a, *d_b;
    cudaMalloc((void **)&d_power, bytes);
    cudaMalloc((void **)&d_a, bytes);
    cudaMalloc((void **)&d_b, bytes);
    cudaMemcpy(d_power, h_power, bytes, cudaMemcpyHostToDevice);
    cudaMemcpy(d_a, h_temp, bytes, cudaMemcpyHostToDevice);

    dim3 block(BLOCK, BLOCK);
    dim3 grid((COLS + OUT_TILE - 1) / OUT_TILE, (ROWS + OUT_TILE - 1) / OUT_TILE);

    cudaEvent_t t0, t1;
    cudaEventCreate(&t0);
    cudaEventCreate(&t1);
    cudaEventRecord(t0, 0);

    int launches = 0;
    for (int done = 0; done < total_steps; done += PYR) {
        int steps = total_steps - done < PYR ? total_steps - done : PYR;
        hotspot_steps<<<grid, block>>>(d_power, d_a, d_b, ROWS, COLS, steps);
        float *tmp = d_a;
        d_a = d_b;
        d_b = tmp;
        launches++;
    }

    cudaEventRecord(t1, 0);
    cudaEventSynchronize(t1);
    cudaError_t err = cudaGetLastError();
    if (err != cudaSuccess) {
        fprintf(stderr, "hotspot_steps: %s\n", cudaGetErrorString(err));
        return 1;
    }
    float ms = 0.0f;
    cudaEventElapsedTime(&ms, t0, t1);
    fprintf(stderr, "%d steps in %d launches on %ux%u blocks: %.3f ms\n",
            total_steps, launches, grid.x, grid.y, ms);

    cudaMemcpy(h_temp, d_a, bytes, cudaMemcpyDeviceToHost);

    double sum = 0.0;
    int hot = 0, cold = 0;
    for (int i = 0; i < ROWS * COLS; i++) {
        sum += h_temp[i];
        if (h_temp[i] > h_temp[hot])
            hot = i;
        if (h_temp[i] < h_temp[cold])
            cold = i;
    }
    printf("hotspot_pyramid %dx%d, %d steps, %d steps per launch\n",
           ROWS, COLS, total_steps, PYR);
    printf("T[0][0] = %.4f\n", h_temp[0]);
    printf("T[60][45] = %.4f\n", h_temp[60 * COLS + 45]);
    printf("T[145][117] = %.4f\n", h_temp[145 * COLS + 117]);
    printf("T[12][100] = %.4f\n", h_temp[12 * COLS + 100]);
    printf("T[%d][%d] = %.4f\n", ROWS - 1, COLS - 1, h_temp[ROWS * COLS - 1]);
    printf("hottest T[%d][%d] = %.4f\n", hot / COLS, hot % COLS, h_temp[hot]);
    printf("coolest T[%d][%d] = %.4f\n", cold / COLS, cold % COLS, h_temp[cold]);
    printf("mean = %.4f\n", sum / (ROWS * COLS));

    cudaEventDestroy(t0);
    cudaEventDestroy(t1);
    cudaFree(d_power);
    cudaFree(d_a);
    cudaFree(d_b);
    free(h_power);
    free(h_temp);
    return 0;
}
