// Legacy texture references bound to linear memory: a 1-D float texture read with tex1Dfetch in a 3-point
// smoothing kernel, an int texture used as a lookup table, rebinding a texture to another buffer between
// launches, cudaBindTexture's offset output and cudaUnbindTexture, and the C-API binding Rodinia's kmeans uses
// (a channel descriptor, texture settings, cudaBindTexture(NULL, &tex, ptr, &desc, size)). texture_ref.c
// prints the same in plain C.
#include <stdio.h>
#include <stdlib.h>
#include <cuda_runtime.h>

#define N 1000
#define LUT 64

texture<float, 1, cudaReadModeElementType> signal_tex;
texture<int> lut_tex;  // default arguments: 1-D, element reads
texture<float, 1, cudaReadModeElementType> t_features;

__global__ void weigh(float *out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        out[i] = tex1Dfetch(t_features, i) * (float)(i % 4 + 1);
}

__global__ void smooth(float *out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        float left = i > 0 ? tex1Dfetch(signal_tex, i - 1) : 0.0f;
        float right = i < n - 1 ? tex1Dfetch(signal_tex, i + 1) : 0.0f;
        out[i] = 0.25f * left + 0.5f * tex1Dfetch(signal_tex, i) + 0.25f * right;
    }
}

__global__ void classify(const float *x, int *bucket, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        int k = (int)(x[i] * 8.0f) & (LUT - 1);
        bucket[i] = tex1Dfetch(lut_tex, k) + tex1Dfetch(lut_tex, (k + 1) & (LUT - 1));
    }
}

int main(void)
{
    float *h_x = (float *)malloc(N * sizeof(float));
    float *h_y = (float *)malloc(N * sizeof(float));
    int *h_b = (int *)malloc(N * sizeof(int));
    int h_lut[LUT];
    for (int i = 0; i < N; i++)
        h_x[i] = (float)((i * 37) % 101) / 8.0f;
    for (int k = 0; k < LUT; k++)
        h_lut[k] = (k * k) % 17;

    float *d_x, *d_y, *d_z;
    int *d_lut, *d_b;
    cudaMalloc(&d_x, N * sizeof(float));
    cudaMalloc(&d_y, N * sizeof(float));
    cudaMalloc(&d_z, N * sizeof(float));
    cudaMalloc(&d_b, N * sizeof(int));
    cudaMalloc(&d_lut, LUT * sizeof(int));
    cudaMemcpy(d_x, h_x, N * sizeof(float), cudaMemcpyHostToDevice);
    cudaMemcpy(d_lut, h_lut, LUT * sizeof(int), cudaMemcpyHostToDevice);

    size_t offset = 12345;
    cudaBindTexture(&offset, signal_tex, d_x, N * sizeof(float));
    cudaBindTexture(0, lut_tex, d_lut, LUT * sizeof(int));
    smooth<<<(N + 127) / 128, 128>>>(d_y, N);
    cudaBindTexture(0, signal_tex, d_y, N * sizeof(float));  // rebind: smooth the smoothed signal
    smooth<<<(N + 127) / 128, 128>>>(d_z, N);
    classify<<<(N + 255) / 256, 256>>>(d_z, d_b, N);
    cudaUnbindTexture(signal_tex);
    cudaUnbindTexture(lut_tex);

    cudaChannelFormatDesc desc = cudaCreateChannelDesc<float>();
    t_features.filterMode = cudaFilterModePoint;
    t_features.normalized = false;
    t_features.addressMode[0] = cudaAddressModeClamp;
    t_features.channelDesc = desc;
    if (cudaBindTexture(NULL, &t_features, d_x, &desc, N * sizeof(float)) != cudaSuccess)
        printf("bind failed\n");
    weigh<<<(N + 63) / 64, 64>>>(d_y, N);
    cudaUnbindTexture(&t_features);
    float *h_w = (float *)malloc(N * sizeof(float));
    cudaMemcpy(h_w, d_y, N * sizeof(float), cudaMemcpyDeviceToHost);
    double ws = 0.0;
    for (int i = 0; i < N; i++)
        ws += h_w[i];

    cudaMemcpy(h_y, d_z, N * sizeof(float), cudaMemcpyDeviceToHost);
    cudaMemcpy(h_b, d_b, N * sizeof(int), cudaMemcpyDeviceToHost);
    double s = 0.0;
    long long t = 0;
    for (int i = 0; i < N; i++) {
        s += h_y[i] * (i % 5 + 1);
        t += h_b[i] * (i % 3 + 1);
    }
    printf("offset %d\n", (int)offset);
    printf("z[0] %.6f z[1] %.6f z[500] %.6f z[999] %.6f\n", h_y[0], h_y[1], h_y[500], h_y[N - 1]);
    printf("weighted sum %.6f buckets %lld b[7] %d\n", s, t, h_b[7]);
    printf("weights %.6f\n", ws);
    return 0;
}
