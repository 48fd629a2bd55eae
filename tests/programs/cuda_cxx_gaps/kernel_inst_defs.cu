// Kernel templates explicitly instantiated (`template __global__ void k<float>(float *, int);`), nvcc's way to
// compile a kernel template's specializations in one file for launches in others (kernel_inst_main.cu), with a
// type and a non-type template argument, and a launch of an instantiated one in this file too.
template <typename T, int SCALE> __global__ void affine(T *x, int n, T shift)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) x[i] = x[i] * (T)SCALE + shift;
}

template __global__ void affine<float, 3>(float *, int, float);
template __global__ void affine<int, 2>(int *, int, int);
template __global__ void affine<double, 5>(double *, int, double);

void run_double(double *d, int n) { affine<double, 5><<<(n + 31) / 32, 32>>>(d, n, 0.5); }
