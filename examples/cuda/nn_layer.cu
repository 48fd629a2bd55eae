/*
 * nn_layer.cu - one training step of a dense sigmoid layer on a mini-batch:
 * forward pass y = sigmoid(W x + b), squared-error loss, backward pass
 * (gradients w.r.t. W, b and the input x), a gradient-descent update and a
 * second forward pass to show the loss going down.
 *
 * Kernels:
 *   layer_forward   grid (OUT, BATCH) x 128 threads: one block per output
 *                   neuron and sample; threads form strided partial dot
 *                   products, a __shared__ halving tree adds them, thread 0
 *                   adds the bias and applies the sigmoid.
 *   output_delta    1-D: dL/dz = (y - t) * y * (1 - y) / BATCH.
 *   grad_weights    OUT blocks x 128 threads: the block stages its column of
 *                   deltas in shared memory, then every thread forms
 *                   dW[j][i] = sum_s delta[s][j] * x[s][i] for its columns;
 *                   thread 0 forms db[j].
 *   grad_input      grid (IN, BATCH) x 64 threads: dx[s][i] =
 *                   sum_j W[j][i] * delta[s][j] with a shared-memory tree.
 *   sgd_update      1-D: W -= lr * dW, b -= lr * db.
 *
 * Determinism: every float sum has an order fixed by the thread layout
 * (strided partials, then the tree), and the C reference replays that order
 * with the same expressions, so the results are bit-identical.
 * Usage: nn_layer
 */
#include <stdio.h>
#include <stdlib.h>
#include <math.h>
#include <cuda_runtime.h>

#define IN 600
#define OUT 100
#define BATCH 8
#define FWD_THREADS 128
#define BWD_THREADS 64
#define LR 0.5f

#define CHECK(call)                                                        \
    do {                                                                   \
        cudaError_t e_ = (call);                                           \
        if (e_ != cudaSuccess) {                                           \
            fprintf(stderr, "%s:%d: %s\n", __FILE__, __LINE__,             \
                    cudaGetErrorString(e_));                               \
            exit(1);                                                       \
        }                                                                  \
    } while (0)

__device__ float sigmoid(float z)
{
    return 1.0f / (1.0f + expf(-z));
}

__global__ void layer_forward(const float *W, const float *b, const float *x,
                              float *y, int n_in, int n_out)
{
    __shared__ float part[FWD_THREADS];
    int j = blockIdx.x;
    int s = blockIdx.y;
    int tid = threadIdx.x;

    float acc = 0.0f;
    for (int i = tid; i < n_in; i += blockDim.x)
        acc += W[j * n_in + i] * x[s * n_in + i];
    part[tid] = acc;
    __syncthreads();

    for (int half = blockDim.x / 2; half > 0; half >>= 1) {
        if (tid < half)
            part[tid] += part[tid + half];
        __syncthreads();
    }
    if (tid == 0)
        y[s * n_out + j] = sigmoid(part[0] + b[j]);
}

__global__ void output_delta(const float *y, const float *target, float *delta, int count)
{
    int k = blockIdx.x * blockDim.x + threadIdx.x;
    if (k < count) {
        float yk = y[k];
        delta[k] = (yk - target[k]) * yk * (1.0f - yk) / (float)BATCH;
    }
}

__global__ void grad_weights(const float *delta, const float *x, float *dW, float *db,
                             int n_in, int n_out)
{
    __shared__ float d_col[BATCH];
    int j = blockIdx.x;
    int tid = threadIdx.x;

    if (tid < BATCH)
        d_col[tid] = delta[tid * n_out + j];
    __syncthreads();

    for (int i = tid; i < n_in; i += blockDim.x) {
        float g = 0.0f;
        for (int s = 0; s < BATCH; s++)
            g += d_col[s] * x[s * n_in + i];
        dW[j * n_in + i] = g;
    }
    if (tid == 0) {
        float g = 0.0f;
        for (int s = 0; s < BATCH; s++)
            g += d_col[s];
        db[j] = g;
    }
}

__global__ void grad_input(const float *W, const float *delta, float *dx, int n_in, int n_out)
{
    __shared__ float part[FWD_THREADS];
    int i = blockIdx.x;
    int s = blockIdx.y;
    int tid = threadIdx.x;

    float acc = 0.0f;
    for (int j = tid; j < n_out; j += blockDim.x)
        acc += W[j * n_in + i] * delta[s * n_out + j];
    part[tid] = acc;
    __syncthreads();

    for (int half = blockDim.x / 2; half > 0; half >>= 1) {
        if (tid < half)
            part[tid] += part[tid + half];
        __syncthreads();
    }
    if (tid == 0)
        dx[s * n_in + i] = part[0];
}

__global__ void sgd_update(float *p, const float *grad, float lr, int count)
{
    int k = blockIdx.x * blockDim.x + threadIdx.x;
    if (k < count)
        p[k] -= lr * grad[k];
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
    for (int k = 0; k < count; k++) {
        double e = (double)y[k] - (double)t[k];
        l += 0.5 * e * e;
    }
    return l / BATCH;
}

static double checksum(const float *v, int count)
{
    double c = 0.0;
    for (int k = 0; k < count; k++)
        c += (double)v[k] * (double)(k % 13 + 1);
    return c;
}

int main(void)
{
    const int nW = OUT * IN, nX = BATCH * IN, nY = BATCH * OUT;
    float *h_W = (float *)malloc(nW * sizeof(float));
    float *h_b = (float *)malloc(OUT * sizeof(float));
    float *h_x = (float *)malloc(nX * sizeof(float));
    float *h_t = (float *)malloc(nY * sizeof(float));
    float *h_y = (float *)malloc(nY * sizeof(float));
    float *h_dW = (float *)malloc(nW * sizeof(float));
    float *h_db = (float *)malloc(OUT * sizeof(float));
    float *h_dx = (float *)malloc(nX * sizeof(float));

    for (int k = 0; k < nW; k++)
        h_W[k] = 0.1f * uniform01() - 0.05f;
    for (int j = 0; j < OUT; j++)
        h_b[j] = 0.2f * uniform01() - 0.1f;
    for (int k = 0; k < nX; k++)
        h_x[k] = uniform01() - 0.5f;
    for (int s = 0; s < BATCH; s++)
        for (int j = 0; j < OUT; j++)
            h_t[s * OUT + j] = j % BATCH == s ? 0.9f : 0.1f;

    float *d_W, *d_b, *d_x, *d_t, *d_y, *d_delta, *d_dW, *d_db, *d_dx;
    CHECK(cudaMalloc((void **)&d_W, nW * sizeof(float)));
    CHECK(cudaMalloc((void **)&d_b, OUT * sizeof(float)));
    CHECK(cudaMalloc((void **)&d_x, nX * sizeof(float)));
    CHECK(cudaMalloc((void **)&d_t, nY * sizeof(float)));
    CHECK(cudaMalloc((void **)&d_y, nY * sizeof(float)));
    CHECK(cudaMalloc((void **)&d_delta, nY * sizeof(float)));
    CHECK(cudaMalloc((void **)&d_dW, nW * sizeof(float)));
    CHECK(cudaMalloc((void **)&d_db, OUT * sizeof(float)));
    CHECK(cudaMalloc((void **)&d_dx, nX * sizeof(float)));
    CHECK(cudaMemcpy(d_W, h_W, nW * sizeof(float), cudaMemcpyHostToDevice));
    CHECK(cudaMemcpy(d_b, h_b, OUT * sizeof(float), cudaMemcpyHostToDevice));
    CHECK(cudaMemcpy(d_x, h_x, nX * sizeof(float), cudaMemcpyHostToDevice));
    CHECK(cudaMemcpy(d_t, h_t, nY * sizeof(float), cudaMemcpyHostToDevice));

    dim3 fwd_grid(OUT, BATCH);
    dim3 bwd_grid(IN, BATCH);

    cudaEvent_t start, stop;
    CHECK(cudaEventCreate(&start));
    CHECK(cudaEventCreate(&stop));
    CHECK(cudaEventRecord(start, 0));

    layer_forward<<<fwd_grid, FWD_THREADS>>>(d_W, d_b, d_x, d_y, IN, OUT);
    CHECK(cudaGetLastError());
    CHECK(cudaMemcpy(h_y, d_y, nY * sizeof(float), cudaMemcpyDeviceToHost));
    double loss0 = half_sse(h_y, h_t, nY);

    output_delta<<<(nY + 255) / 256, 256>>>(d_y, d_t, d_delta, nY);
    grad_weights<<<OUT, FWD_THREADS>>>(d_delta, d_x, d_dW, d_db, IN, OUT);
    grad_input<<<bwd_grid, BWD_THREADS>>>(d_W, d_delta, d_dx, IN, OUT);
    CHECK(cudaGetLastError());
    CHECK(cudaMemcpy(h_dW, d_dW, nW * sizeof(float), cudaMemcpyDeviceToHost));
    CHECK(cudaMemcpy(h_db, d_db, OUT * sizeof(float), cudaMemcpyDeviceToHost));
    CHECK(cudaMemcpy(h_dx, d_dx, nX * sizeof(float), cudaMemcpyDeviceToHost));

    sgd_update<<<(nW + 255) / 256, 256>>>(d_W, d_dW, LR, nW);
    sgd_update<<<1, OUT>>>(d_b, d_db, LR, OUT);
    layer_forward<<<fwd_grid, FWD_THREADS>>>(d_W, d_b, d_x, d_y, IN, OUT);
    CHECK(cudaGetLastError());

    CHECK(cudaEventRecord(stop, 0));
    CHECK(cudaEventSynchronize(stop));
    float ms = 0.0f;
    CHECK(cudaEventElapsedTime(&ms, start, stop));
    fprintf(stderr, "layer %d -> %d, batch %d: training step %.3f ms\n", IN, OUT, BATCH, ms);

    float y_first[4];
    for (int k = 0; k < 4; k++)
        y_first[k] = h_y[k * (OUT + 1)];
    CHECK(cudaMemcpy(h_y, d_y, nY * sizeof(float), cudaMemcpyDeviceToHost));
    double loss1 = half_sse(h_y, h_t, nY);

    printf("nn_layer in=%d out=%d batch=%d lr=%.2f\n", IN, OUT, BATCH, LR);
    for (int k = 0; k < 4; k++)
        printf("y[%d][%d]: %.6f -> %.6f\n", k, k * (OUT + 1) % OUT, y_first[k], h_y[k * (OUT + 1)]);
    printf("dW[0][0] = %.6e\n", h_dW[0]);
    printf("dW[%d][%d] = %.6e\n", OUT - 1, IN - 1, h_dW[nW - 1]);
    printf("db[3] = %.6e\n", h_db[3]);
    printf("dx[2][17] = %.6e\n", h_dx[2 * IN + 17]);
    printf("checksum dW = %.6e\n", checksum(h_dW, nW));
    printf("checksum db = %.6e\n", checksum(h_db, OUT));
    printf("checksum dx = %.6e\n", checksum(h_dx, nX));
    printf("loss before = %.6f\n", loss0);
    printf("loss after  = %.6f\n", loss1);

    CHECK(cudaEventDestroy(start));
    CHECK(cudaEventDestroy(stop));
    cudaFree(d_W); cudaFree(d_b); cudaFree(d_x); cudaFree(d_t); cudaFree(d_y);
    cudaFree(d_delta); cudaFree(d_dW); cudaFree(d_db); cudaFree(d_dx);
    free(h_W); free(h_b); free(h_x); free(h_t); free(h_y);
    free(h_dW); free(h_db); free(h_dx);
    return 0;
}
