/*
 * OpenMP version of examples/cuda/blackscholes.cu (for benchmarks/cpuify_vs_openmp.py): the options split
 * between the OpenMP threads, the same float formula per option.  The pricing is timed and the time printed
 * on stderr.
 */
#include <stdio.h>
#include <stdlib.h>
#include <omp.h>
#include <math.h>

#define RISK_FREE 0.03f
#define VOLATILITY 0.25f

static float normal_cdf(float d)
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

static void price_option(float S, float K, float T, float r, float v,
                         float *call, float *put)
{
    float sqrtT = sqrtf(T);
    float d1 = (logf(S / K) + (r + 0.5f * v * v) * T) / (v * sqrtT);
    float d2 = d1 - v * sqrtT;
    float discount = expf(-r * T);

    *call = S * normal_cdf(d1) - K * discount * normal_cdf(d2);
    *put = K * discount * normal_cdf(-d2) - S * normal_cdf(-d1);
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
    int i;
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
    for (i = 0; i < n; i++) {
        spot[i] = lcg_uniform(10.0f, 100.0f);
        strike[i] = lcg_uniform(5.0f, 110.0f);
        years[i] = lcg_uniform(0.1f, 5.0f);
    }

    double t0 = omp_get_wtime();
#pragma omp parallel for
    for (i = 0; i < n; i++)
        price_option(spot[i], strike[i], years[i], RISK_FREE, VOLATILITY,
                     &call[i], &put[i]);
    fprintf(stderr, "priced %d options in %.3f ms\n", n, (omp_get_wtime() - t0) * 1e3);

    double call_sum = 0.0, put_sum = 0.0, worst = 0.0;
    for (i = 0; i < n; i++) {
        call_sum += call[i];
        put_sum += put[i];
        double parity = (double)call[i] - (double)put[i]
                        - ((double)spot[i] - (double)strike[i] * exp(-0.03 * (double)years[i]));
        if (fabs(parity) > worst)
            worst = fabs(parity);
    }

    printf("blackscholes n=%d r=%.2f v=%.2f\n", n, RISK_FREE, VOLATILITY);
    for (i = 0; i < n; i += (n + 3) / 4)
        printf("opt %6d S=%.3f K=%.3f T=%.3f call=%.4f put=%.4f\n",
               i, spot[i], strike[i], years[i], call[i], put[i]);
    printf("sum(call) = %.3f\n", call_sum);
    printf("sum(put)  = %.3f\n", put_sum);
    printf("parity ok = %s\n", worst < 0.01 ? "yes" : "no");

    free(spot);
    free(strike);
    free(years);
    free(call);
    free(put);
    return 0;
}
