/*
 * vector_add.cu - element-wise addition of two float vectors.
 *
 * One thread per element on a 1-D grid of 256-thread blocks.
 * Usage: vector_add [n]        (default n = 1000000)
 */
#include <stdio.h>
#include <stdlib.h>
#include <cuda_runtime.h>

__global__ void vector_add(const float *a, const float *b, float *c, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        c[i] = a[i] + b[i];
}

int main(int argc, char **argv)
{
    int n = 1000000;
    if (argc > 1)
        n = atoi(argv[1]);
    if (n <= 0) {
        fprintf(stderr, "usage: %s [n > 0]\n", argv[0]);
        return 1;
    }

    size_t bytes = (size_t)n * sizeof(float);
    float *h_a = (float *)malloc(bytes);
    float *h_b = (float *)malloc(bytes);
    float *h_c = (float *)malloc(bytes);
    if (!h_a || !h_b || !h_c) {
        fprintf(stderr, "host allocation failed\n");
        return 1;
    }

    for (int i = 0; i < n; i++) {
        h_a[i] = (float)(i % 1000) * 0.001f;
        h_b[i] = (float)((i % 500) * 7 % 500) * 0.002f + 1.0f;
    }

    float *d_a, *d_b, *d_c;
    cudaMalloc((void **)&d_a, bytes);
    cudaMalloc((void **)&d_b, bytes);
    cudaMalloc((void **)&d_c, bytes);

    cudaMemcpy(d_a, h_a, bytes, cudaMemcpyHostToDevice);
    cudaMemcpy(d_b, h_b, bytes, cudaMemcpyHostToDevice);

    int threads = 256;
    int blocks = (n + 255) / 256;
    vector_add<<<blocks, threads>>>(d_a, d_b, d_c, n);

    cudaError_t err = cudaGetLastError();
    if (err != cudaSuccess) {
        fprintf(stderr, "kernel launch failed: %s\n", cudaGetErrorString(err));
        return 1;
    }
    cudaDeviceSynchronize();

    cudaMemcpy(h_c, d_c, bytes, cudaMemcpyDeviceToHost);

    /* verify on the host and build a checksum in a fixed order */
    int errors = 0;
    double checksum = 0.0;
    for (int i = 0; i < n; i++) {
        if (h_c[i] != h_a[i] + h_b[i])
            errors++;
        checksum += h_c[i];
    }

    printf("vector_add n=%d blocks=%d threads=%d\n", n, blocks, threads);
    printf("c[0]=%.4f c[%d]=%.4f c[%d]=%.4f\n",
           h_c[0], n / 2, h_c[n / 2], n - 1, h_c[n - 1]);
    printf("checksum=%.4f\n", checksum);
    printf("errors=%d\n", errors);

    cudaFree(d_a);
    cudaFree(d_b);
    cudaFree(d_c);
    free(h_a);
    free(h_b);
    free(h_c);
    return errors != 0;
}
