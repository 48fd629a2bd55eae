/*
 * blackscholes.cu - European call and put prices with the Black-Scholes
 * closed form, single precision, one option per thread (1-D grid, 256
 * threads per block).  The normal CDF is a __device__ helper using the
 * classic 5-term polynomial approximation; the kernel uses expf, logf and
 * sqrtf.  Option parameters come from a small integer LCG on the host.
 * Usage: blackscholes [n_options]   (default 100000)
 */
#include <stdio.h>
#include <stdlib.h>
#include <math.h>
#include <cuda_runtime.h>

#define RISK_FREE 0.03f
#define VOLATILITY 0.25f

__device__ float normal_cdf(float d)
{
    const float a1 = 0.319381530f;
    const float a2 = -0.356563782f;
    const float a3 = 1.781477937f;
    const float a4 = -1.821255978f;
    const float a5 = 1.330274429f;
    const float inv_sqrt_2pi = 0.39894228040f;

    float ad = fabsf(d);
    float k = 1.0f / (1.0f + 0.2316419f * ad);
    float poly = k * (a1 + k * (a2 + k * (a3 + k * (a4 + k * a5))));
    float tail = inv_sqrt_2pi * expf(-0.5f * d * d) * poly;
    return (d > 0.0f) ? 1.0f - tail : tail;
}

__global__ void price_options(const float *spot, const float *strike, const float *years,
                              float *call, float *put, float r, float v, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n)
        return;

    float S = spot[i];
    float K = strike[i];
    float T = years[i];
    float sqrtT = sqrtf(T);
    float d1 = (logf(S / K) + (r + 0.5f * v * v) * T) / (v * sqrtT);
    float d2 = d1 - v * sqrtT;
    float discount = expf(-r * T);

    call[i] = S * normal_cdf(d1) - K * discount * normal_cdf(d2);
    put[i] = K * discount * normal_cdf(-d2) - S * normal_cdf(-d1);
}

static unsigned int lcg_state = 12345u;

static float lcg_uniform(float lo, float hi)
{
    lcg_state = lcg_state * 1664525u + 1013904223u;
    float u = (float)(lcg_state >> 8) / 16777216.0f;
    return lo + (hi - lo) * u;
}

int main(int argc, char **argv)
{
    int n = 100000;
    if (argc > 1)
        n = atoi(argv[1]);
    if (n < 1) {
        fprintf(stderr, "usage: %s [n_options >= 1]\n", argv[0]);
        return 1;
    }
    size_t bytes = (size_t)n * sizeof(float);

    float *spot = (float *)malloc(bytes);
    float *strike = (float *)malloc(bytes);
    float *years = (float *)malloc(bytes);
    float *call = (float *)malloc(bytes);
    float *put = (float *)malloc(bytes);
    for (int i = 0; i < n; i++) {
        spot[i] = lcg_uniform(10.0f, 100.0f);
        strike[i] = lcg_uniform(5.0f, 110.0f);
        years[i] = lcg_uniform(0.1f, 5.0f);
    }

    float *d_spot, *d_strike, *d_years, *d_call, *d_put;
    cudaMalloc((void **)&d_spot, bytes);
    cudaMalloc((void **)&d_strike, bytes);
    cudaMalloc((void **)&d_years, bytes);
    cudaMalloc((void **)&d_call, bytes);
    cudaMalloc((void **)&d_put, bytes);
    cudaMemcpy(d_spot, spot, bytes, cudaMemcpyHostToDevice);
    cudaMemcpy(d_strike, strike, bytes, cudaMemcpyHostToDevice);
    cudaMemcpy(d_years, years, bytes, cudaMemcpyHostToDevice);

    cudaEvent_t begin, end;
    cudaEventCreate(&begin);
    cudaEventCreate(&end);

    int threads = 256;
    int blocks = (n + threads - 1) / threads;
    cudaEventRecord(begin, 0);
    price_options<<<blocks, threads>>>(d_spot, d_strike, d_years, d_call, d_put,
                                       RISK_FREE, VOLATILITY, n);
    cudaEventRecord(end, 0);
    cudaEventSynchronize(end);
    cudaError_t err = cudaGetLastError();
    if (err != cudaSuccess) {
        fprintf(stderr, "price_options: %s\n", cudaGetErrorString(err));
        return 1;
    }
    float ms = 0.0f;
    cudaEventElapsedTime(&ms, begin, end);
    fprintf(stderr, "priced %d options in %.3f ms\n", n, ms);

    cudaMemcpy(call, d_call, bytes, cudaMemcpyDeviceToHost);
    cudaMemcpy(put, d_put, bytes, cudaMemcpyDeviceToHost);

    /* put-call parity: C - P = S - K exp(-rT); report the worst deviation */
    double call_sum = 0.0, put_sum = 0.0, worst = 0.0;
    for (int i = 0; i < n; i++) {
        call_sum += call[i];
        put_sum += put[i];
        double parity = (double)call[i] - (double)put[i]
                        - ((double)spot[i] - (double)strike[i] * exp(-0.03 * (double)years[i]));
        if (fabs(parity) > worst)
            worst = fabs(parity);
    }

    printf("blackscholes n=%d r=%.2f v=%.2f\n", n, RISK_FREE, VOLATILITY);
    for (int i = 0; i < n; i += (n + 3) / 4)
        printf("opt %6d S=%.3f K=%.3f T=%.3f call=%.4f put=%.4f\n",
               i, spot[i], strike[i], years[i], call[i], put[i]);
    printf("sum(call) = %.3f\n", call_sum);
    printf("sum(put)  = %.3f\n", put_sum);
    printf("parity ok = %s\n", worst < 0.01 ? "yes" : "no");

    cudaEventDestroy(begin);
    cudaEventDestroy(end);
    cudaFree(d_spot);
    cudaFree(d_strike);
    cudaFree(d_years);
    cudaFree(d_call);
    cudaFree(d_put);
    free(spot);
    free(strike);
    free(years);
    free(call);
    free(put);
    return 0;
}
