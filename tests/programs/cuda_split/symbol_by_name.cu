// Constant memory filled the old way, naming the symbol by a string (CUDA before 5.0, still in older
// benchmark suites): CUDA 5.0 and later answer cudaErrorInvalidSymbol and copy nothing, so the kernel reads
// the zero-initialized constants; the same copies through the symbols themselves (a char array included) work.
#include <cstdio>
#include <cstring>

__constant__ float weights[4];
__constant__ char label[8];

__global__ void apply(const float *in, float *out, char *name) {
    int i = threadIdx.x;
    out[i] = in[i] * weights[i % 4];
    if (i < 8)
        name[i] = label[i];
}

static bool run(float *h_out, char *h_name) {
    float in[16], *d_in, *d_out;
    char *d_name;
    for (int i = 0; i < 16; i++)
        in[i] = (float)(i + 1);
    cudaMalloc((void **)&d_in, sizeof in);
    cudaMalloc((void **)&d_out, sizeof in);
    cudaMalloc((void **)&d_name, 8);
    cudaMemcpy(d_in, in, sizeof in, cudaMemcpyHostToDevice);
    apply<<<1, 16>>>(d_in, d_out, d_name);
    cudaMemcpy(h_out, d_out, sizeof in, cudaMemcpyDeviceToHost);
    cudaMemcpy(h_name, d_name, 8, cudaMemcpyDeviceToHost);
    cudaFree(d_in);
    cudaFree(d_out);
    cudaFree(d_name);
    return true;
}

int main() {
    const float w[4] = {0.5f, 1.0f, 2.0f, 4.0f};
    char text[8] = "weights";
    float out[16];
    char name[8];
    bool ok = true;

    cudaError_t e = cudaMemcpyToSymbol("weights", w, sizeof w);
    printf("by name: %s\n", cudaGetErrorString(e));
    ok = ok && e == cudaErrorInvalidSymbol;
    float back[4] = {9, 9, 9, 9};
    ok = ok && cudaMemcpyFromSymbol(back, "weights", sizeof back) == cudaErrorInvalidSymbol && back[0] == 9;
    run(out, name);
    for (int i = 0; i < 16; i++)
        ok = ok && out[i] == 0.0f;  // nothing was copied

    ok = ok && cudaMemcpyToSymbol(weights, w, sizeof w) == cudaSuccess;
    ok = ok && cudaMemcpyToSymbol(label, text, sizeof text) == cudaSuccess;  // a char array is a symbol too
    run(out, name);
    for (int i = 0; i < 16; i++)
        ok = ok && out[i] == (float)(i + 1) * w[i % 4];
    ok = ok && strcmp(name, "weights") == 0;
    ok = ok && cudaMemcpyFromSymbol(back, weights, sizeof back) == cudaSuccess && back[3] == 4.0f;
    printf("%s\n", ok ? "PASS" : "FAIL");
    return !ok;
}
