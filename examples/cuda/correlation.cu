/*
 * correlation.cu - Pearson correlation matrix of M variables observed N
 * times (double precision, data is N x M row-major).
 *
 * Four kernels:
 *   col_mean      1-D grid, one thread per variable: column means
 *   col_stddev    1-D grid, one thread per variable: column std. deviation
 *                 (sqrt; near-constant columns get 1.0 to avoid dividing by 0)
 *   center_scale  2-D grid of 16x16 blocks: data = (data - mean) / (sqrt(N) std)
 *   corr_matrix   1-D grid, one thread per row j1 of the symmetric result,
 *                 writing both corr[j1][j2] and corr[j2][j1]
 */
#include <stdio.h>
#include <stdlib.h>
#include <math.h>
#include <cuda_runtime.h>

#define N_OBS 400
#define M_VARS 160
#define EPS 0.005

__global__ void col_mean(const double *data, double *mean, int n, int m, double float_n)
{
    int j = blockIdx.x * blockDim.x + threadIdx.x;
    if (j < m) {
        double s = 0.0;
        for (int i = 0; i < n; i++)
            s += data[i * m + j];
        mean[j] = s / float_n;
    }
}

__global__ void col_stddev(const double *data, const double *mean, double *stddev,
                           int n, int m, double float_n)
{
    int j = blockIdx.x * blockDim.x + threadIdx.x;
    if (j < m) {
        double s = 0.0;
        for (int i = 0; i < n; i++) {
            double d = data[i * m + j] - mean[j];
            s += d * d;
        }
        s = s / float_n;
        s = sqrt(s);
        stddev[j] = (s <= EPS) ? 1.0 : s;
    }
}

__global__ void center_scale(double *data, const double *mean, const double *stddev,
                             int n, int m, double float_n)
{
    int j = blockIdx.x * blockDim.x + threadIdx.x;
    int i = blockIdx.y * blockDim.y + threadIdx.y;
    if (i < n && j < m)
        data[i * m + j] = (data[i * m + j] - mean[j]) / (sqrt(float_n) * stddev[j]);
}

__global__ void corr_matrix(const double *data, double *corr, int n, int m)
{
    int j1 = blockIdx.x * blockDim.x + threadIdx.x;
    if (j1 >= m)
        return;
    corr[j1 * m + j1] = 1.0;
    for (int j2 = j1 + 1; j2 < m; j2++) {
        double s = 0.0;
        for (int i = 0; i < n; i++)
            s += data[i * m + j1] * data[i * m + j2];
        corr[j1 * m + j2] = s;
        corr[j2 * m + j1] = s;
    }
}

int main(void)
{
    const int n = N_OBS, m = M_VARS;
    const double float_n = (double)n;

    double *data = (double *)malloc((size_t)n * m * sizeof(double));
    double *mean = (double *)malloc(m * sizeof(double));
    double *stddev = (double *)malloc(m * sizeof(double));
    double *corr = (double *)malloc((size_t)m * m * sizeof(double));

    for (int i = 0; i < n; i++)
        for (int j = 0; j < m; j++) {
            if (j == 7)
                data[i * m + j] = 2.5;  /* a constant column */
            else
                data[i * m + j] = (double)((i * (j + 3)) % 37) / 37.0
                                  + 0.1 * (double)(i % 5) * (double)(j % 4)
                                  + 0.01 * (double)j;
        }

    double *d_data, *d_mean, *d_std, *d_corr;
    cudaMalloc((void **)&d_data, (size_t)n * m * sizeof(double));
    cudaMalloc((void **)&d_mean, m * sizeof(double));
    cudaMalloc((void **)&d_std, m * sizeof(double));
    cudaMalloc((void **)&d_corr, (size_t)m * m * sizeof(double));
    cudaMemcpy(d_data, data, (size_t)n * m * sizeof(double), cudaMemcpyHostToDevice);

    int threads = 64;
    int blocks = (m + threads - 1) / threads;
    dim3 block2(16, 16);
    dim3 grid2((m + 15) / 16, (n + 15) / 16);

    col_mean<<<blocks, threads>>>(d_data, d_mean, n, m, float_n);
    col_stddev<<<blocks, threads>>>(d_data, d_mean, d_std, n, m, float_n);
    center_scale<<<grid2, block2>>>(d_data, d_mean, d_std, n, m, float_n);
    corr_matrix<<<blocks, threads>>>(d_data, d_corr, n, m);

    cudaError_t err = cudaGetLastError();
    if (err != cudaSuccess) {
        fprintf(stderr, "correlation: %s\n", cudaGetErrorString(err));
        return 1;
    }
    cudaDeviceSynchronize();

    cudaMemcpy(mean, d_mean, m * sizeof(double), cudaMemcpyDeviceToHost);
    cudaMemcpy(stddev, d_std, m * sizeof(double), cudaMemcpyDeviceToHost);
    cudaMemcpy(corr, d_corr, (size_t)m * m * sizeof(double), cudaMemcpyDeviceToHost);

    double total = 0.0, trace = 0.0, best = 0.0;
    int best_a = 0, best_b = 0;
    for (int a = 0; a < m; a++) {
        trace += corr[a * m + a];
        for (int b = 0; b < m; b++) {
            double v = corr[a * m + b];
            total += v;
            if (a != b && fabs(v) > best) {
                best = fabs(v);
                best_a = a;
                best_b = b;
            }
        }
    }

    printf("correlation n=%d m=%d\n", n, m);
    for (int j = 0; j < m; j += 40)
        printf("var %3d: mean %.6f std %.6f\n", j, mean[j], stddev[j]);
    printf("var   7: mean %.6f std %.6f\n", mean[7], stddev[7]);
    printf("corr[0][1] = %.6f\n", corr[1]);
    printf("corr[5][100] = %.6f\n", corr[5 * m + 100]);
    printf("corr[%d][%d] = %.6f\n", m - 2, m - 1, corr[(m - 2) * m + m - 1]);
    printf("max |corr| off-diagonal %.6f at (%d,%d)\n", best, best_a, best_b);
    printf("trace = %.4f\n", trace);
    printf("sum = %.6f\n", total);

    cudaFree(d_data);
    cudaFree(d_mean);
    cudaFree(d_std);
    cudaFree(d_corr);
    free(data);
    free(mean);
    free(stddev);
    free(corr);
    return 0;
}
