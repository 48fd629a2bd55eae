// An iterative relaxation per cell in the style of Rodinia leukocyte's MGVF kernel: each block loads its own
// matrix size from global arrays before the first __syncthreads(), derives the number of "virtual thread
// blocks" from it (`max`), and loops `for (tb = 0; tb < max; tb++)` with barriers inside, within a while loop
// that stops on a __shared__ convergence flag set by thread 0 after a tree reduction; the shared buffer's size
// is a namespace-scope `const int`. Checked against a CPU version of the same steps and additions.
#include <cstdio>
#include <cstdlib>
#include <cmath>
#include <vector>

const int threads_per_block = 96;
const int next_lowest_power_of_two = 64;
#define NCELLS 5
#define MAXDIM 24

__global__ void relax(float **grids, int *m_array, int *n_array, int max_iterations, float cutoff, int *iters)
{
    __shared__ float g[MAXDIM * MAXDIM];
    __shared__ float buffer[threads_per_block];
    __shared__ int converged;
    int cell = blockIdx.x;
    float *G = grids[cell];
    int m = m_array[cell], n = n_array[cell];
    int max = (m * n + threads_per_block - 1) / threads_per_block;
    int tid = threadIdx.x, tb;
    for (tb = 0; tb < max; tb++) {
        int k = tid + tb * threads_per_block;
        if (k < m * n) g[k] = G[k];
    }
    __syncthreads();
    if (tid == 0) converged = 0;
    __syncthreads();
    int it = 0;
    while (!converged && it < max_iterations) {
        float diff = 0.0f;
        for (tb = 0; tb < max; tb++) {
            int k = tid + tb * threads_per_block;
            float nv = 0.0f, ov = 0.0f;
            if (k < m * n) {
                int i = k / n, j = k % n;
                int u = i == 0 ? 0 : i - 1, d = i == m - 1 ? m - 1 : i + 1;
                int l = j == 0 ? 0 : j - 1, r = j == n - 1 ? n - 1 : j + 1;
                ov = g[k];
                nv = 0.5f * ov + 0.125f * (g[u * n + j] + g[d * n + j] + g[i * n + l] + g[i * n + r]);
            }
            __syncthreads();
            if (k < m * n) g[k] = nv;
            diff += fabsf(nv - ov);
            __syncthreads();
        }
        buffer[tid] = diff;
        __syncthreads();
        if (tid >= next_lowest_power_of_two)
            buffer[tid - next_lowest_power_of_two] += buffer[tid];
        __syncthreads();
        for (int th = next_lowest_power_of_two / 2; th > 0; th /= 2) {
            if (tid < th) buffer[tid] += buffer[tid + th];
            __syncthreads();
        }
        if (tid == 0 && buffer[0] / (float)(m * n) < cutoff) converged = 1;
        __syncthreads();
        it++;
    }
    for (tb = 0; tb < max; tb++) {
        int k = tid + tb * threads_per_block;
        if (k < m * n) G[k] = g[k];
    }
    if (tid == 0) iters[cell] = it;
}

int main()
{
    int ms[NCELLS] = {9, 24, 13, 20, 7}, ns[NCELLS] = {17, 24, 11, 5, 23};
    std::vector<std::vector<float>> host(NCELLS);
    std::vector<float *> dev(NCELLS);
    for (int c = 0; c < NCELLS; c++) {
        host[c].resize(ms[c] * ns[c]);
        for (int k = 0; k < ms[c] * ns[c]; k++) host[c][k] = (float)((k * 37 + c * 11) % 53) / 53.0f;
        cudaMalloc((void **)&dev[c], host[c].size() * sizeof(float));
        cudaMemcpy(dev[c], host[c].data(), host[c].size() * sizeof(float), cudaMemcpyHostToDevice);
    }
    float **d_grids;
    int *d_m, *d_n, *d_iters;
    cudaMalloc((void **)&d_grids, NCELLS * sizeof(float *));
    cudaMalloc((void **)&d_m, sizeof ms);
    cudaMalloc((void **)&d_n, sizeof ns);
    cudaMalloc((void **)&d_iters, NCELLS * sizeof(int));
    cudaMemcpy(d_grids, dev.data(), NCELLS * sizeof(float *), cudaMemcpyHostToDevice);
    cudaMemcpy(d_m, ms, sizeof ms, cudaMemcpyHostToDevice);
    cudaMemcpy(d_n, ns, sizeof ns, cudaMemcpyHostToDevice);
    const float cutoff = 0.002f;
    relax<<<NCELLS, threads_per_block>>>(d_grids, d_m, d_n, 200, cutoff, d_iters);
    cudaDeviceSynchronize();
    int iters[NCELLS];
    cudaMemcpy(iters, d_iters, sizeof iters, cudaMemcpyDeviceToHost);

    int bad = 0;
    for (int c = 0; c < NCELLS; c++) {
        int m = ms[c], n = ns[c], mn = m * n, nb = (mn + threads_per_block - 1) / threads_per_block;
        std::vector<float> g = host[c], nv(mn);
        int it = 0, conv = 0;
        while (!conv && it < 200) {
            float buf[threads_per_block] = {0};
            for (int tb = 0; tb < nb; tb++) {  // a chunk reads the values the chunks before it wrote
                for (int t = 0; t < threads_per_block; t++) {
                    int k = t + tb * threads_per_block;
                    if (k >= mn) continue;
                    int i = k / n, j = k % n;
                    int u = i == 0 ? 0 : i - 1, d = i == m - 1 ? m - 1 : i + 1;
                    int l = j == 0 ? 0 : j - 1, r = j == n - 1 ? n - 1 : j + 1;
                    nv[k] = 0.5f * g[k] + 0.125f * (g[u * n + j] + g[d * n + j] + g[i * n + l] + g[i * n + r]);
                    buf[t] += std::fabs(nv[k] - g[k]);
                }
                for (int t = 0; t < threads_per_block; t++) {
                    int k = t + tb * threads_per_block;
                    if (k < mn) g[k] = nv[k];
                }
            }
            for (int t = next_lowest_power_of_two; t < threads_per_block; t++)
                buf[t - next_lowest_power_of_two] += buf[t];
            for (int th = next_lowest_power_of_two / 2; th > 0; th /= 2)
                for (int t = 0; t < th; t++) buf[t] += buf[t + th];
            if (buf[0] / (float)mn < cutoff) conv = 1;
            it++;
        }
        std::vector<float> got(mn);
        cudaMemcpy(got.data(), dev[c], mn * sizeof(float), cudaMemcpyDeviceToHost);
        if (iters[c] != it) bad++;
        for (int k = 0; k < mn; k++)
            if (std::fabs(got[k] - g[k]) > 1e-6f) bad++;
        printf("cell %d: %dx%d, %d iterations (CPU %d)\n", c, m, n, iters[c], it);
    }
    printf(bad ? "FAIL\n" : "PASS\n");
    return 0;
}
