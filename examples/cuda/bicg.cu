/*
 * bicg.cu - the two matrix-vector products of a BiCG iteration:
 *   q = A p      (one thread per row,    kernel bicg_q)
 *   s = A^T r    (one thread per column, kernel bicg_s)
 * A is NR x NC, double precision; 1-D grids of 128-thread blocks.
 */
#include <stdio.h>
#include <stdlib.h>
#include <cuda_runtime.h>

#define CHECK(x) do { cudaError_t e = (x); if (e != cudaSuccess) { fprintf(stderr, "%s\n", cudaGetErrorString(e)); exit(1);} } while (0)

#define NR 1200
#define NC 1000

__global__ void bicg_q(const double *A, const double *p, double *q, int nr, int nc)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= nr)
        return;
    double acc = 0.0;
    for (int j = 0; j < nc; j++)
        acc += A[i * nc + j] * p[j];
    q[i] = acc;
}

__global__ void bicg_s(const double *A, const double *r, double *s, int nr, int nc)
{
    int j = blockIdx.x * blockDim.x + threadIdx.x;
    if (j >= nc)
        return;
    double acc = 0.0;
    for (int i = 0; i < nr; i++)
        acc += r[i] * A[i * nc + j];
    s[j] = acc;
}

int main(void)
{
    int nr = NR, nc = NC;
    size_t a_bytes = (size_t)nr * nc * sizeof(double);
    double *A = (double *)malloc(a_bytes);
    double *p = (double *)malloc(nc * sizeof(double));
    double *r = (double *)malloc(nr * sizeof(double));
    double *q = (double *)malloc(nr * sizeof(double));
    double *s = (double *)malloc(nc * sizeof(double));

    for (int j = 0; j < nc; j++)
        p[j] = (double)(j % 11) / 11.0;
    for (int i = 0; i < nr; i++) {
        r[i] = 0.5 + (double)(i % 9) / 9.0;
        for (int j = 0; j < nc; j++)
            A[i * nc + j] = (double)((i * (j + 1)) % nr) / (double)nr;
    }

    double *d_A, *d_p, *d_r, *d_q, *d_s;
    CHECK(cudaMalloc((void **)&d_A, a_bytes));
    CHECK(cudaMalloc((void **)&d_p, nc * sizeof(double)));
    CHECK(cudaMalloc((void **)&d_r, nr * sizeof(double)));
    CHECK(cudaMalloc((void **)&d_q, nr * sizeof(double)));
    CHECK(cudaMalloc((void **)&d_s, nc * sizeof(double)));
    CHECK(cudaMemcpy(d_A, A, a_bytes, cudaMemcpyHostToDevice));
    CHECK(cudaMemcpy(d_p, p, nc * sizeof(double), cudaMemcpyHostToDevice));
    CHECK(cudaMemcpy(d_r, r, nr * sizeof(double), cudaMemcpyHostToDevice));

    int block = 128;
    bicg_q<<<(nr + block - 1) / block, block>>>(d_A, d_p, d_q, nr, nc);
    CHECK(cudaGetLastError());
    bicg_s<<<(nc + block - 1) / block, block>>>(d_A, d_r, d_s, nr, nc);
    CHECK(cudaGetLastError());
    CHECK(cudaDeviceSynchronize());

    CHECK(cudaMemcpy(q, d_q, nr * sizeof(double), cudaMemcpyDeviceToHost));
    CHECK(cudaMemcpy(s, d_s, nc * sizeof(double), cudaMemcpyDeviceToHost));

    double q_sum = 0.0, s_sum = 0.0, q_max = q[0], s_max = s[0];
    int q_arg = 0, s_arg = 0;
    for (int i = 0; i < nr; i++) {
        q_sum += q[i];
        if (q[i] > q_max) { q_max = q[i]; q_arg = i; }
    }
    for (int j = 0; j < nc; j++) {
        s_sum += s[j];
        if (s[j] > s_max) { s_max = s[j]; s_arg = j; }
    }

    printf("bicg %d x %d\n", nr, nc);
    printf("q: sum %.6f max %.6f at %d\n", q_sum, q_max, q_arg);
    printf("s: sum %.6f max %.6f at %d\n", s_sum, s_max, s_arg);
    printf("q[1] %.6f q[%d] %.6f\n", q[1], nr - 1, q[nr - 1]);
    printf("s[1] %.6f s[%d] %.6f\n", s[1], nc - 1, s[nc - 1]);

    CHECK(cudaFree(d_A));
    CHECK(cudaFree(d_p));
    CHECK(cudaFree(d_r));
    CHECK(cudaFree(d_q));
    CHECK(cudaFree(d_s));
    free(A);
    free(p);
    free(r);
    free(q);
    free(s);
    return 0;
}
