/*
 * mandelbrot.cu - escape-time iteration counts of the Mandelbrot set.
 *
 * One thread per pixel on a 2-D grid of 16x16 blocks; the per-pixel loop is
 * a __device__ helper.  The host prints a coarse ASCII rendering, the number
 * of pixels inside the set and the total iteration count.
 * Usage: mandelbrot [max_iter]  (default 256)
 */
#include <stdio.h>
#include <stdlib.h>
#include <cuda_runtime.h>

#define WIDTH 192
#define HEIGHT 128

__device__ int escape_time(float cr, float ci, int max_iter)
{
    float zr = 0.0f, zi = 0.0f;
    int it = 0;
    while (it < max_iter) {
        float zr2 = zr * zr;
        float zi2 = zi * zi;
        if (zr2 + zi2 > 4.0f)
            break;
        zi = 2.0f * zr * zi + ci;
        zr = zr2 - zi2 + cr;
        it++;
    }
    return it;
}

__global__ void mandel_kernel(int *counts, int width, int height,
                              float x0, float y0, float step, int max_iter)
{
    int px = blockIdx.x * blockDim.x + threadIdx.x;
    int py = blockIdx.y * blockDim.y + threadIdx.y;
    if (px < width && py < height) {
        float cr = x0 + (float)px * step;
        float ci = y0 + (float)py * step;
        counts[py * width + px] = escape_time(cr, ci, max_iter);
    }
}

int main(int argc, char **argv)
{
    int max_iter = 256;
    if (argc > 1)
        max_iter = atoi(argv[1]);
    if (max_iter < 1) {
        fprintf(stderr, "usage: %s [max_iter >= 1]\n", argv[0]);
        return 1;
    }
    const float x0 = -2.25f, y0 = -1.25f;
    const float step = 2.5f / (float)HEIGHT;

    int *counts = (int *)malloc(WIDTH * HEIGHT * sizeof(int));
    int *d_counts;
    cudaMalloc((void **)&d_counts, WIDTH * HEIGHT * sizeof(int));
    cudaMemset(d_counts, 0, WIDTH * HEIGHT * sizeof(int));

    dim3 block(16, 16);
    dim3 grid((WIDTH + 15) / 16, (HEIGHT + 15) / 16);
    mandel_kernel<<<grid, block>>>(d_counts, WIDTH, HEIGHT, x0, y0, step, max_iter);
    cudaError_t err = cudaGetLastError();
    if (err != cudaSuccess) {
        fprintf(stderr, "mandel_kernel: %s\n", cudaGetErrorString(err));
        return 1;
    }
    cudaDeviceSynchronize();
    cudaMemcpy(counts, d_counts, WIDTH * HEIGHT * sizeof(int), cudaMemcpyDeviceToHost);

    const char *shades = " .:-=+*#%@";
    for (int py = 0; py < HEIGHT; py += 4) {
        char line[WIDTH / 3 + 1];
        int len = 0;
        for (int px = 0; px < WIDTH; px += 3) {
            int c = counts[py * WIDTH + px];
            int shade = c / 3;
            if (shade > 8)
                shade = 8;
            line[len++] = (c >= max_iter) ? shades[9] : shades[shade];
        }
        line[len] = '\0';
        printf("|%s|\n", line);
    }

    long long total_iter = 0;
    int inside = 0;
    for (int i = 0; i < WIDTH * HEIGHT; i++) {
        total_iter += counts[i];
        if (counts[i] >= max_iter)
            inside++;
    }
    printf("image %dx%d max_iter=%d\n", WIDTH, HEIGHT, max_iter);
    printf("inside=%d total_iterations=%lld\n", inside, total_iter);
    printf("area estimate %.5f\n", (double)inside * step * step);

    cudaFree(d_counts);
    free(counts);
    return 0;
}
