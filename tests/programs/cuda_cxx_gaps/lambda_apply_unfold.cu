// Lambdas through function templates in device code, in the style of HeCBench's unfold: a __device__ function
// template calls the callable it is given (`template <typename F> __device__ void apply(F f, ...)`), with
// lambdas capturing by reference (the closure holds addresses) and by value, a template that calls its lambda
// several times and returns a value, and a `__device__` lambda passed to a kernel template (nvcc's
// --extended-lambda). Checked against a CPU version.
#include <cstdio>
#include <cmath>

template <typename F> __device__ void apply(F f, int i) { f(i); }

template <typename F> __device__ float sum3(F f, float a) { return f(a) + f(a + 1.0f) + f(a + 2.0f); }

template <typename F> __device__ void unfold(F f, int n) {
    for (int k = 0; k < n; k++) f(k);
}

__global__ void kernel(float *out, int *counts, const float *in, int n, float s)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    float acc = 0.0f;
    int hits = 0;
    apply([&](int k) { acc = in[k] * s; hits++; }, i);
    unfold([&](int k) { acc += 0.25f * k; if (k % 2) hits++; }, i % 5);
    acc += sum3([=](float x) { return x * s - 1.0f; }, in[i]);
    out[i] = acc;
    counts[i] = hits;
}

template <typename Op> __global__ void map(float *x, int n, Op op)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) x[i] = op(x[i], i);
}

int main()
{
    const int n = 300;
    float in[n], out[n];
    int counts[n];
    for (int i = 0; i < n; i++) in[i] = 0.5f * (i % 17) - 2.0f;
    float *d_in, *d_out;
    int *d_counts;
    cudaMalloc((void **)&d_in, sizeof in);
    cudaMalloc((void **)&d_out, sizeof out);
    cudaMalloc((void **)&d_counts, sizeof counts);
    cudaMemcpy(d_in, in, sizeof in, cudaMemcpyHostToDevice);
    const float s = 1.5f;
    kernel<<<(n + 63) / 64, 64>>>(d_out, d_counts, d_in, n, s);
    const float c = 0.75f;
    map<<<(n + 127) / 128, 128>>>(d_out, n, [=] __device__ (float v, int i) { return v * c + (float)(i % 3); });
    cudaMemcpy(out, d_out, sizeof out, cudaMemcpyDeviceToHost);
    cudaMemcpy(counts, d_counts, sizeof counts, cudaMemcpyDeviceToHost);
    int bad = 0;
    for (int i = 0; i < n; i++) {
        float acc = in[i] * s;
        int hits = 1;
        for (int k = 0; k < i % 5; k++) { acc += 0.25f * k; if (k % 2) hits++; }
        acc += (in[i] * s - 1.0f) + ((in[i] + 1.0f) * s - 1.0f) + ((in[i] + 2.0f) * s - 1.0f);
        acc = acc * c + (float)(i % 3);
        if (std::fabs(out[i] - acc) > 1e-5f * (1.0f + std::fabs(acc)) || counts[i] != hits) bad++;
    }
    printf("out[7] %.4f, counts[9] %d, %d differ\n", out[7], counts[9], bad);
    printf(bad ? "FAIL\n" : "PASS\n");
    return 0;
}
