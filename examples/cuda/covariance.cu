/*
 * covariance.cu - sample covariance matrix of M variables observed N times
 * (single precision; data is N x M row-major).
 *
 *   cov_mean    1-D grid (128 threads/block): mean of each column
 *   cov_center  2-D grid of 32x4 blocks: subtract the column mean in place
 *   cov_matrix  2-D grid of 16x16 blocks: thread (j1, j2) with j1 <= j2
 *               computes one entry and mirrors it; other threads idle
 * Usage: covariance [n_obs]     (default 300)
 */
#include <stdio.h>
#include <stdlib.h>
#include <cuda_runtime.h>

#define M_VARS 120

__global__ void cov_mean(const float *data, float *mean, int n, int m)
{
    int j = blockIdx.x * blockDim.x + threadIdx.x;
    if (j < m) {
        float s = 0.0f;
        for (int i = 0; i < n; i++)
            s += data[i * m + j];
        mean[j] = s / (float)n;
    }
}

__global__ void cov_center(float *data, const float *mean, int n, int m)
{
    int j = blockIdx.x * blockDim.x + threadIdx.x;
    int i = blockIdx.y * blockDim.y + threadIdx.y;
    if (i < n && j < m)
        data[i * m + j] -= mean[j];
}

__global__ void cov_matrix(const float *data, float *cov, int n, int m)
{
    int j2 = blockIdx.x * blockDim.x + threadIdx.x;
    int j1 = blockIdx.y * blockDim.y + threadIdx.y;
    if (j1 < m && j2 < m && j1 <= j2) {
        float s = 0.0f;
        for (int i = 0; i < n; i++)
            s += data[i * m + j1] * data[i * m + j2];
        s = s / (float)(n - 1);
        cov[j1 * m + j2] = s;
        cov[j2 * m + j1] = s;
    }
}

int main(int argc, char **argv)
{
    int n = 300;
    const int m = M_VARS;
    if (argc > 1)
        n = atoi(argv[1]);
    if (n < 2) {
        fprintf(stderr, "usage: %s [n_obs >= 2]\n", argv[0]);
        return 1;
    }

    size_t data_bytes = (size_t)n * m * sizeof(float);
    size_t cov_bytes = (size_t)m * m * sizeof(float);
    float *data = (float *)malloc(data_bytes);
    float *mean = (float *)malloc(m * sizeof(float));
    float *cov = (float *)malloc(cov_bytes);

    for (int i = 0; i < n; i++)
        for (int j = 0; j < m; j++)
            data[i * m + j] = (float)((i * 5 + j * j) % 29) * 0.25f
                              + (float)(i % 10) * (float)(j % 6) * 0.05f;

    float *d_data, *d_mean, *d_cov;
    cudaMalloc((void **)&d_data, data_bytes);
    cudaMalloc((void **)&d_mean, m * sizeof(float));
    cudaMalloc((void **)&d_cov, cov_bytes);
    cudaMemcpy(d_data, data, data_bytes, cudaMemcpyHostToDevice);

    cov_mean<<<(m + 127) / 128, 128>>>(d_data, d_mean, n, m);

    dim3 center_block(32, 4);
    dim3 center_grid((m + 31) / 32, (n + 3) / 4);
    cov_center<<<center_grid, center_block>>>(d_data, d_mean, n, m);

    dim3 cov_block(16, 16);
    dim3 cov_grid((m + 15) / 16, (m + 15) / 16);
    cov_matrix<<<cov_grid, cov_block>>>(d_data, d_cov, n, m);

    cudaError_t err = cudaGetLastError();
    if (err != cudaSuccess) {
        fprintf(stderr, "covariance: %s\n", cudaGetErrorString(err));
        return 1;
    }
    cudaDeviceSynchronize();

    cudaMemcpy(mean, d_mean, m * sizeof(float), cudaMemcpyDeviceToHost);
    cudaMemcpy(cov, d_cov, cov_bytes, cudaMemcpyDeviceToHost);

    double mean_sum = 0.0, trace = 0.0, total = 0.0;
    for (int j = 0; j < m; j++) {
        mean_sum += mean[j];
        trace += cov[j * m + j];
    }
    for (int k = 0; k < m * m; k++)
        total += cov[k];

    printf("covariance n=%d m=%d\n", n, m);
    printf("mean[0] = %.5f mean[%d] = %.5f sum(mean) = %.4f\n",
           mean[0], m - 1, mean[m - 1], mean_sum);
    printf("cov[0][0] = %.5f\n", cov[0]);
    printf("cov[3][17] = %.5f cov[17][3] = %.5f\n", cov[3 * m + 17], cov[17 * m + 3]);
    printf("cov[%d][%d] = %.5f\n", m - 1, m - 1, cov[m * m - 1]);
    printf("trace = %.4f\n", trace);
    printf("sum = %.4f\n", total);

    cudaFree(d_data);
    cudaFree(d_mean);
    cudaFree(d_cov);
    free(data);
    free(mean);
    free(cov);
    return 0;
}
