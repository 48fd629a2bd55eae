/*
 * stencil2d.cu - time-stepped 2-D Jacobi relaxation of a heated plate.
 *
 * The plate is W x H cells.  Boundary cells hold fixed temperatures; each
 * interior cell is replaced by the mean of its four neighbours every step.
 * The host loops over time steps, launching one kernel per step on a 2-D
 * grid of 16x8 blocks and ping-ponging two device buffers by swapping the
 * pointers.  The centre temperature is sampled every 50 steps.
 * Usage: stencil2d [steps]      (default 200)
 */
#include <stdio.h>
#include <stdlib.h>
#include <cuda_runtime.h>

#define W 160
#define H 120

__device__ float neighbour_mean(const float *g, int idx, int width)
{
    float vertical = g[idx - width] + g[idx + width];
    float horizontal = g[idx - 1] + g[idx + 1];
    return 0.25f * (vertical + horizontal);
}

__global__ void jacobi_step(const float *in, float *out, int width, int height)
{
    int x = blockIdx.x * blockDim.x + threadIdx.x;
    int y = blockIdx.y * blockDim.y + threadIdx.y;

    if (x > 0 && x < width - 1 && y > 0 && y < height - 1) {
        int idx = y * width + x;
        out[idx] = neighbour_mean(in, idx, width);
    }
}

static void init_plate(float *g)
{
    for (int y = 0; y < H; y++) {
        for (int x = 0; x < W; x++) {
            float v;
            if (y == 0)
                v = 100.0f;                         /* hot top edge */
            else if (y == H - 1)
                v = 0.0f;                           /* cold bottom edge */
            else if (x == 0)
                v = 75.0f;                          /* warm left edge */
            else if (x == W - 1)
                v = 25.0f + 0.25f * (float)y;       /* graded right edge */
            else if (x > W / 2 - 8 && x < W / 2 + 8 && y > H / 2 - 8 && y < H / 2 + 8)
                v = 400.0f;                         /* initial hot spot */
            else
                v = 20.0f + 0.5f * (float)((x * 13 + y * 7) % 31);
            g[y * W + x] = v;
        }
    }
}

int main(int argc, char **argv)
{
    int steps = 200;
    if (argc > 1)
        steps = atoi(argv[1]);
    if (steps < 0) {
        fprintf(stderr, "usage: %s [steps >= 0]\n", argv[0]);
        return 1;
    }

    size_t bytes = (size_t)W * H * sizeof(float);
    float *h_grid = (float *)malloc(bytes);
    init_plate(h_grid);

    float *d_cur, *d_next;
    cudaMalloc((void **)&d_cur, bytes);
    cudaMalloc((void **)&d_next, bytes);
    cudaMemcpy(d_cur, h_grid, bytes, cudaMemcpyHostToDevice);
    /* both buffers need the fixed boundary values */
    cudaMemcpy(d_next, d_cur, bytes, cudaMemcpyDeviceToDevice);

    dim3 block(16, 8);
    dim3 grid((W + block.x - 1) / block.x, (H + block.y - 1) / block.y);

    printf("stencil2d %dx%d steps=%d\n", W, H, steps);
    int centre = (H / 2) * W + W / 2;
    for (int t = 0; t < steps; t++) {
        jacobi_step<<<grid, block>>>(d_cur, d_next, W, H);
        float *tmp = d_cur;
        d_cur = d_next;
        d_next = tmp;

        if ((t + 1) % 50 == 0) {
            float probe;
            cudaMemcpy(&probe, d_cur + centre, sizeof(float), cudaMemcpyDeviceToHost);
            printf("step %4d centre %.5f\n", t + 1, probe);
        }
    }
    cudaError_t err = cudaGetLastError();
    if (err != cudaSuccess) {
        fprintf(stderr, "jacobi_step: %s\n", cudaGetErrorString(err));
        return 1;
    }
    cudaDeviceSynchronize();

    cudaMemcpy(h_grid, d_cur, bytes, cudaMemcpyDeviceToHost);

    double total = 0.0;
    float hottest = 0.0f;
    for (int y = 1; y < H - 1; y++)
        for (int x = 1; x < W - 1; x++) {
            float v = h_grid[y * W + x];
            total += v;
            if (v > hottest)
                hottest = v;
        }

    printf("interior sum %.4f\n", total);
    printf("interior max %.5f\n", hottest);
    for (int y = 10; y < H; y += 25)
        printf("row %3d: %.4f %.4f %.4f %.4f\n", y,
               h_grid[y * W + 1], h_grid[y * W + W / 4],
               h_grid[y * W + W / 2], h_grid[y * W + W - 2]);

    cudaFree(d_cur);
    cudaFree(d_next);
    free(h_grid);
    return 0;
}
