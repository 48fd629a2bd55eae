// Launches written with blanks inside the brackets (`k << < grid, block >> > (...)`, which nvcc accepts and
// older benchmark codes use), next to host templates closed with `> >`: a particle-weight step in the style of
// a particle filter (likelihood per particle, a block-level sum in shared memory, a normalization pass), with
// a CPU reference and PASS/FAIL. It includes cuda_gl_interop.h, as programs with an optional OpenGL display do,
// and checks that an interop call reports cudaErrorNotSupported (no GPU to share buffers with).
#include <stdio.h>
#include <stdlib.h>
#include <math.h>
#include <vector>
#include <cuda_runtime.h>
#include <cuda_gl_interop.h>

#define THREADS 128

typedef std::vector<std::vector<double> > Table;

__global__ void likelihood_kernel(const double *x, double *w, double *partial, int n)
{
    __shared__ double buf[THREADS];
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    double v = 0.0;
    if (i < n) {
        double d = x[i] - 3.0;
        w[i] = exp(-d * d / 8.0);
        v = w[i];
    }
    buf[threadIdx.x] = v;
    __syncthreads();
    for (unsigned int s = blockDim.x / 2; s > 0; s >>= 1) {
        if (threadIdx.x < s)
            buf[threadIdx.x] += buf[threadIdx.x + s];
        __syncthreads();
    }
    if (threadIdx.x == 0)
        partial[blockIdx.x] = buf[0];
}

__global__ void normalize_kernel(double *w, const double *partial, int nblocks, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    double total = 0.0;
    for (int b = 0; b < nblocks; b++)
        total += partial[b];
    if (i < n)
        w[i] /= total;
}

int main(void)
{
    const int n = 1000;
    const int nblocks = (n + THREADS - 1) / THREADS;
    Table rows(2, std::vector<double>(n));
    for (int i = 0; i < n; i++)
        rows[0][i] = (double)((i * 7919) % 613) / 100.0;

    double *d_x, *d_w, *d_partial;
    cudaMalloc((void **)&d_x, n * sizeof(double));
    cudaMalloc((void **)&d_w, n * sizeof(double));
    cudaMalloc((void **)&d_partial, nblocks * sizeof(double));
    cudaMemcpy(d_x, rows[0].data(), n * sizeof(double), cudaMemcpyHostToDevice);
    likelihood_kernel << < nblocks, THREADS >> > (d_x, d_w, d_partial, n);
    normalize_kernel<< <nblocks, THREADS>> >(d_w, d_partial, nblocks, n);
    cudaMemcpy(rows[1].data(), d_w, n * sizeof(double), cudaMemcpyDeviceToHost);

    // CPU reference: the same per-block partial sums, added in block order
    std::vector<double> w(n), partial(nblocks, 0.0);
    for (int b = 0; b < nblocks; b++) {
        double buf[THREADS];
        for (int t = 0; t < THREADS; t++) {
            int i = b * THREADS + t;
            buf[t] = 0.0;
            if (i < n) {
                double d = rows[0][i] - 3.0;
                w[i] = exp(-d * d / 8.0);
                buf[t] = w[i];
            }
        }
        for (int s = THREADS / 2; s > 0; s >>= 1)
            for (int t = 0; t < s; t++)
                buf[t] += buf[t + s];
        partial[b] = buf[0];
    }
    double total = 0.0, sum = 0.0;
    for (int b = 0; b < nblocks; b++)
        total += partial[b];
    int bad = 0;
    for (int i = 0; i < n; i++) {
        sum += rows[1][i];
        if (rows[1][i] != w[i] / total)
            bad++;
    }
    if (cudaGLSetGLDevice(0) != cudaErrorNotSupported)
        bad++;
    printf("sum of weights %.12f, %d mismatches\n", sum, bad);
    printf("%s\n", bad ? "FAIL" : "PASS");
    cudaFree(d_x);
    cudaFree(d_w);
    cudaFree(d_partial);
    return bad != 0;
}
