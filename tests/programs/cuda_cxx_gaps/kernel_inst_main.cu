// Launches of kernel template specializations that kernel_inst_defs.cu instantiates explicitly (declared here
// only). Checked against a CPU version.
#include <cstdio>

template <typename T, int SCALE> __global__ void affine(T *x, int n, T shift);
void run_double(double *d, int n);

int main()
{
    const int n = 100;
    float f[n];
    int k[n];
    double g[n];
    for (int i = 0; i < n; i++) { f[i] = 0.5f * i; k[i] = i - 7; g[i] = 0.25 * i; }
    float *df;
    int *dk;
    double *dg;
    cudaMalloc((void **)&df, sizeof f);
    cudaMalloc((void **)&dk, sizeof k);
    cudaMalloc((void **)&dg, sizeof g);
    cudaMemcpy(df, f, sizeof f, cudaMemcpyHostToDevice);
    cudaMemcpy(dk, k, sizeof k, cudaMemcpyHostToDevice);
    cudaMemcpy(dg, g, sizeof g, cudaMemcpyHostToDevice);
    affine<float, 3><<<4, 32>>>(df, n, 1.0f);
    affine<int, 2><<<4, 32>>>(dk, n, -1);
    run_double(dg, n);
    float rf[n];
    int rk[n];
    double rg[n];
    cudaMemcpy(rf, df, sizeof rf, cudaMemcpyDeviceToHost);
    cudaMemcpy(rk, dk, sizeof rk, cudaMemcpyDeviceToHost);
    cudaMemcpy(rg, dg, sizeof rg, cudaMemcpyDeviceToHost);
    int bad = 0;
    for (int i = 0; i < n; i++)
        if (rf[i] != f[i] * 3 + 1.0f || rk[i] != k[i] * 2 - 1 || rg[i] != g[i] * 5 + 0.5) bad++;
    printf("%.1f %d %.2f, %d differ\n", rf[9], rk[9], rg[9], bad);
    printf(bad ? "FAIL\n" : "PASS\n");
    return 0;
}
