/*
 * atax.cu - y = A^T (A x) for a rectangular single-precision matrix.
 *
 * Two kernels on 1-D grids of 256-thread blocks:
 *   atax_rows: one thread per row i,    tmp[i] = sum_j A[i][j] * x[j]
 *   atax_cols: one thread per column j, y[j]   = sum_i A[i][j] * tmp[i]
 */
#include <stdio.h>
#include <stdlib.h>
#include <cuda_runtime.h>

#define NROWS 900
#define NCOLS 1100
#define THREADS 256

__global__ void atax_rows(const float *A, const float *x, float *tmp,
                          int rows, int cols)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < rows) {
        float acc = 0.0f;
        for (int j = 0; j < cols; j++)
            acc += A[i * cols + j] * x[j];
        tmp[i] = acc;
    }
}

__global__ void atax_cols(const float *A, const float *tmp, float *y,
                          int rows, int cols)
{
    int j = blockIdx.x * blockDim.x + threadIdx.x;
    if (j < cols) {
        float acc = 0.0f;
        for (int i = 0; i < rows; i++)
            acc += A[i * cols + j] * tmp[i];
        y[j] = acc;
    }
}

int main(void)
{
    const int rows = NROWS, cols = NCOLS;
    float *A = (float *)malloc((size_t)rows * cols * sizeof(float));
    float *x = (float *)malloc(cols * sizeof(float));
    float *y = (float *)malloc(cols * sizeof(float));
    float *tmp = (float *)malloc(rows * sizeof(float));

    for (int j = 0; j < cols; j++)
        x[j] = 1.0f + (float)(j % 7) * 0.125f;
    for (int i = 0; i < rows; i++)
        for (int j = 0; j < cols; j++)
            A[i * cols + j] = (float)((i + 2 * j) % 19) / 19.0f - 0.25f;

    float *d_A, *d_x, *d_y, *d_tmp;
    cudaMalloc((void **)&d_A, (size_t)rows * cols * sizeof(float));
    cudaMalloc((void **)&d_x, cols * sizeof(float));
    cudaMalloc((void **)&d_y, cols * sizeof(float));
    cudaMalloc((void **)&d_tmp, rows * sizeof(float));

    cudaMemcpy(d_A, A, (size_t)rows * cols * sizeof(float), cudaMemcpyHostToDevice);
    cudaMemcpy(d_x, x, cols * sizeof(float), cudaMemcpyHostToDevice);

    int grid_rows = (rows + THREADS - 1) / THREADS;
    int grid_cols = (cols + THREADS - 1) / THREADS;
    atax_rows<<<grid_rows, THREADS>>>(d_A, d_x, d_tmp, rows, cols);
    atax_cols<<<grid_cols, THREADS>>>(d_A, d_tmp, d_y, rows, cols);
    cudaDeviceSynchronize();

    cudaError_t err = cudaGetLastError();
    if (err != cudaSuccess) {
        fprintf(stderr, "atax: %s\n", cudaGetErrorString(err));
        return 1;
    }

    cudaMemcpy(tmp, d_tmp, rows * sizeof(float), cudaMemcpyDeviceToHost);
    cudaMemcpy(y, d_y, cols * sizeof(float), cudaMemcpyDeviceToHost);

    double tmp_sum = 0.0, y_sum = 0.0;
    for (int i = 0; i < rows; i++)
        tmp_sum += tmp[i];
    for (int j = 0; j < cols; j++)
        y_sum += y[j];

    printf("atax %d x %d\n", rows, cols);
    printf("tmp: sum %.4f first %.4f last %.4f\n", tmp_sum, tmp[0], tmp[rows - 1]);
    printf("y:   sum %.4f\n", y_sum);
    for (int j = 0; j < cols; j += cols / 5)
        printf("y[%4d] = %.4f\n", j, y[j]);

    cudaFree(d_A);
    cudaFree(d_x);
    cudaFree(d_y);
    cudaFree(d_tmp);
    free(A);
    free(x);
    free(y);
    free(tmp);
    return 0;
}
