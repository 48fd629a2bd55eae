// The perimeter step of a blocked LU factorization in the style of the classic suite's lud: a block of 2*B
// threads, the first B solving the row panel (forward substitution down each column), the other B the column
// panel (each thread one row), in the two branches of `if (threadIdx.x < B)`, updating __shared__ tiles in
// place with only the block barriers around them. Each thread reads and writes its own column or row, so no
// lockstep order is needed (and a warp barrier could not go in branches that split a warp). A CPU reference
// computes the same panels; the program prints PASS or FAIL.
#include <stdio.h>
#include <stdlib.h>
#include <math.h>
#include <cuda_runtime.h>

#define B 16

__global__ void lud_perimeter_like(float *m, int dim)
{
    __shared__ float dia[B][B];
    __shared__ float row[B][B];
    __shared__ float col[B][B];
    int i, j, idx;
    int panel = (blockIdx.x + 1) * B;

    if (threadIdx.x < B) {
        idx = threadIdx.x;
        for (i = 0; i < B; i++) {
            dia[i][idx] = m[i * dim + idx];
            row[i][idx] = m[i * dim + panel + idx];
        }
    } else {
        idx = threadIdx.x - B;
        for (i = 0; i < B; i++)
            col[i][idx] = m[(panel + i) * dim + idx];
    }
    __syncthreads();

    if (threadIdx.x < B) {
        idx = threadIdx.x;
        for (i = 1; i < B; i++)
            for (j = 0; j < i; j++)
                row[i][idx] -= dia[i][j] * row[j][idx];
    } else {
        idx = threadIdx.x - B;
        for (i = 0; i < B; i++) {
            for (j = 0; j < i; j++)
                col[idx][i] -= col[idx][j] * dia[j][i];
            col[idx][i] /= dia[i][i];
        }
    }
    __syncthreads();

    if (threadIdx.x < B) {
        idx = threadIdx.x;
        for (i = 1; i < B; i++)
            m[i * dim + panel + idx] = row[i][idx];
    } else {
        idx = threadIdx.x - B;
        for (i = 0; i < B; i++)
            m[(panel + i) * dim + idx] = col[i][idx];
    }
}

int main(void)
{
    const int dim = 4 * B, panels = dim / B - 1;
    float *a = (float *)malloc(dim * dim * sizeof(float));
    float *got = (float *)malloc(dim * dim * sizeof(float));
    for (int i = 0; i < dim; i++)
        for (int j = 0; j < dim; j++)
            a[i * dim + j] = (i == j ? 8.0f : 0.0f) + (float)((i * 31 + j * 17) % 23) / 23.0f;

    float *d;
    cudaMalloc((void **)&d, dim * dim * sizeof(float));
    cudaMemcpy(d, a, dim * dim * sizeof(float), cudaMemcpyHostToDevice);
    lud_perimeter_like<<<panels, 2 * B>>>(d, dim);
    cudaMemcpy(got, d, dim * dim * sizeof(float), cudaMemcpyDeviceToHost);

    // CPU reference: the same substitutions, panel by panel
    for (int p = 0; p < panels; p++) {
        int panel = (p + 1) * B;
        for (int c = 0; c < B; c++)
            for (int i = 1; i < B; i++)
                for (int j = 0; j < i; j++)
                    a[i * dim + panel + c] -= a[i * dim + j] * a[j * dim + panel + c];
        for (int r = 0; r < B; r++)
            for (int i = 0; i < B; i++) {
                for (int j = 0; j < i; j++)
                    a[(panel + r) * dim + i] -= a[(panel + r) * dim + j] * a[j * dim + i];
                a[(panel + r) * dim + i] /= a[i * dim + i];
            }
    }
    int bad = 0;
    double sum = 0.0;
    for (int k = 0; k < dim * dim; k++) {
        sum += got[k];
        if (fabsf(got[k] - a[k]) > 1e-5f * (1.0f + fabsf(a[k])))
            bad++;
    }
    printf("checksum %.5f, %d mismatches\n", sum, bad);
    printf("%s\n", bad ? "FAIL" : "PASS");
    cudaFree(d);
    free(a);
    free(got);
    return bad != 0;
}
