/*
 * OpenMP version of examples/cuda/nn_layer.cu (for benchmarks/cpuify_vs_openmp.py): the same training step
 * with each loop nest over outputs split between the OpenMP threads.  Every float sum keeps the CUDA thread
 * layout's order (strided partials, then the halving tree), so the results are identical.
 * The training step is timed and the time printed on stderr.
 */
#include <stdio.h>
#include <stdlib.h>
#include <omp.h>
#include <math.h>

#define IN 600
#define OUT 100
#define BATCH 8
#define FWD_THREADS 128
#define BWD_THREADS 64
#define LR 0.5f

static float sigmoid(float z)
{
    return 1.0f / (1.0f + expf(-z));
}

/* sum_k a[k*sa] * b[k*sb] for k < n, as `threads` strided partials and a tree */
static float block_dot(const float *a, int sa, const float *b, int sb, int n, int threads)
{
    float part[FWD_THREADS];
    int t, k, half;
    for (t = 0; t < threads; t++) {
        float acc = 0.0f;
        for (k = t; k < n; k += threads)
            acc += a[k * sa] * b[k * sb];
        part[t] = acc;
    }
    for (half = threads / 2; half > 0; half >>= 1)
        for (t = 0; t < half; t++)
            part[t] += part[t + half];
    return part[0];
}

static void layer_forward(const float *W, const float *b, const float *x, float *y)
{
    int s, j;
#pragma omp parallel for collapse(2)
    for (s = 0; s < BATCH; s++)
        for (j = 0; j < OUT; j++)
            y[s * OUT + j] = sigmoid(block_dot(W + j * IN, 1, x + s * IN, 1, IN, FWD_THREADS) + b[j]);
}

static unsigned int rng = 31337u;

static float uniform01(void)
{
    rng = rng * 1664525u + 1013904223u;
    return (float)(rng >> 8) / 16777216.0f;
}

static double half_sse(const float *y, const float *t, int count)
{
    double l = 0.0;
    int k;
    for (k = 0; k < count; k++) {
        double e = (double)y[k] - (double)t[k];
        l += 0.5 * e * e;
    }
    return l / BATCH;
}

static double checksum(const float *v, int count)
{
    double c = 0.0;
    int k;
    for (k = 0; k < count; k++)
        c += (double)v[k] * (double)(k % 13 + 1);
    return c;
}

int main(void)
{
    const int nW = OUT * IN, nX = BATCH * IN, nY = BATCH * OUT;
    float *W = (float *)malloc(nW * sizeof(float));
    float *b = (float *)malloc(OUT * sizeof(float));
    float *x = (float *)malloc(nX * sizeof(float));
    float *t = (float *)malloc(nY * sizeof(float));
    float *y = (float *)malloc(nY * sizeof(float));
    float *delta = (float *)malloc(nY * sizeof(float));
    float *dW = (float *)malloc(nW * sizeof(float));
    float *db = (float *)malloc(OUT * sizeof(float));
    float *dx = (float *)malloc(nX * sizeof(float));
    int i, j, k, s;

    for (k = 0; k < nW; k++)
        W[k] = 0.1f * uniform01() - 0.05f;
    for (j = 0; j < OUT; j++)
        b[j] = 0.2f * uniform01() - 0.1f;
    for (k = 0; k < nX; k++)
        x[k] = uniform01() - 0.5f;
    for (s = 0; s < BATCH; s++)
        for (j = 0; j < OUT; j++)
            t[s * OUT + j] = j % BATCH == s ? 0.9f : 0.1f;

    double t0 = omp_get_wtime();
    layer_forward(W, b, x, y);
    double loss0 = half_sse(y, t, nY);

#pragma omp parallel for
    for (k = 0; k < nY; k++) {
        float yk = y[k];
        delta[k] = (yk - t[k]) * yk * (1.0f - yk) / (float)BATCH;
    }
#pragma omp parallel for private(i, s)
    for (j = 0; j < OUT; j++) {
        for (i = 0; i < IN; i++) {
            float g = 0.0f;
            for (s = 0; s < BATCH; s++)
                g += delta[s * OUT + j] * x[s * IN + i];
            dW[j * IN + i] = g;
        }
        float g = 0.0f;
        for (s = 0; s < BATCH; s++)
            g += delta[s * OUT + j];
        db[j] = g;
    }
#pragma omp parallel for collapse(2)
    for (s = 0; s < BATCH; s++)
        for (i = 0; i < IN; i++)
            dx[s * IN + i] = block_dot(W + i, IN, delta + s * OUT, 1, OUT, BWD_THREADS);

#pragma omp parallel for
    for (k = 0; k < nW; k++)
        W[k] -= LR * dW[k];
    for (j = 0; j < OUT; j++)
        b[j] -= LR * db[j];

    float y_first[4];
    for (k = 0; k < 4; k++)
        y_first[k] = y[k * (OUT + 1)];
    layer_forward(W, b, x, y);
    fprintf(stderr, "layer %d -> %d, batch %d: training step %.3f ms\n", IN, OUT, BATCH,
            (omp_get_wtime() - t0) * 1e3);
    double loss1 = half_sse(y, t, nY);

    printf("nn_layer in=%d out=%d batch=%d lr=%.2f\n", IN, OUT, BATCH, LR);
    for (k = 0; k < 4; k++)
        printf("y[%d][%d]: %.6f -> %.6f\n", k, k * (OUT + 1) % OUT, y_first[k], y[k * (OUT + 1)]);
    printf("dW[0][0] = %.6e\n", dW[0]);
    printf("dW[%d][%d] = %.6e\n", OUT - 1, IN - 1, dW[nW - 1]);
    printf("db[3] = %.6e\n", db[3]);
    printf("dx[2][17] = %.6e\n", dx[2 * IN + 17]);
    printf("checksum dW = %.6e\n", checksum(dW, nW));
    printf("checksum db = %.6e\n", checksum(db, OUT));
    printf("checksum dx = %.6e\n", checksum(dx, nX));
    printf("loss before = %.6f\n", loss0);
    printf("loss after  = %.6f\n", loss1);

    free(W); free(b); free(x); free(t); free(y);
    free(delta); free(dW); free(db); free(dx);
    return 0;
}
