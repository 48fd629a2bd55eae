// Strided views built from class templates whose constructors initialize a base class that is itself a template
// specialization (`: ViewBase<T, RANK, Qual, I>(p, e, s)`), the way tensor-accessor helpers of ML frameworks are
// written: a rank-2 view passed by value to a kernel yields rank-1 row views constructed in device code, whose
// base initializer carries template arguments of every kind (a type, a constant, a template). Also a plain class
// derived from a specialization, and a base initializer between member initializers. Checked against the host.
#include <cstdio>
#include <cstdint>
#include <vector>
#include "check.h"

template <typename T> struct Plain { typedef T *Ptr; };
template <typename T> struct NoAlias { typedef T *__restrict__ Ptr; };

template <typename T, int RANK, template <typename> class Qual = Plain, typename I = int64_t>
class ViewBase {
public:
  typedef typename Qual<T>::Ptr Ptr;
  __host__ __device__ ViewBase(Ptr base, const I *extent, const I *step)
      : base(base), extent(extent), step(step) {}
  __host__ __device__ I extent_of(int d) const { return extent[d]; }
protected:
  Ptr base;
  const I *extent;
  const I *step;
};

// a view of rank RANK over memory whose extents and steps live elsewhere
template <typename T, int RANK, template <typename> class Qual = Plain, typename I = int64_t>
class View : public ViewBase<T, RANK, Qual, I> {
public:
  __host__ __device__ View(typename Qual<T>::Ptr p, const I *e, const I *s)
      : ViewBase<T, RANK, Qual, I>(p, e, s) {}
  __host__ __device__ View<T, RANK - 1, Qual, I> row(I r) const {
    return View<T, RANK - 1, Qual, I>(this->base + this->step[0] * r, this->extent + 1, this->step + 1);
  }
};

template <typename T, template <typename> class Qual, typename I>
class View<T, 1, Qual, I> : public ViewBase<T, 1, Qual, I> {
public:
  __host__ __device__ View(typename Qual<T>::Ptr p, const I *e, const I *s)
      : ViewBase<T, 1, Qual, I>(p, e, s) {}
  __host__ __device__ T &at(I k) const { return this->base[this->step[0] * k]; }
};

// a view that owns copies of its extents and steps, so that it can travel to the device by value
template <typename T, int RANK, template <typename> class Qual = Plain>
class Packed {
public:
  __host__ Packed(T *p, const int64_t *e, const int64_t *s) : base(p) {
    for (int d = 0; d < RANK; d++) { extent[d] = e[d]; step[d] = s[d]; }
  }
  __device__ View<T, RANK, Qual> view() const { return View<T, RANK, Qual>(base, extent, step); }
  __host__ __device__ int64_t extent_of(int d) const { return extent[d]; }
private:
  T *base;
  int64_t extent[RANK];
  int64_t step[RANK];
};

// a non-template class whose base is a specialization, and a base initializer among member initializers
struct Scaled : public ViewBase<float, 1, NoAlias, int> {
  float factor;
  int tag;
  __device__ Scaled(float *p, const int *e, const int *s, float f)
      : tag(7), ViewBase<float, 1, NoAlias, int>(p, e, s), factor(f) {}
  __device__ float get(int k) const { return factor * base[step[0] * k]; }
};

__global__ void matvec(Packed<float, 2, NoAlias> m, Packed<float, 1, NoAlias> v, float *out)
{
  int64_t i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < m.extent_of(0)) {
    View<float, 1, NoAlias> r = m.view().row(i);
    View<float, 1, NoAlias> x = v.view();
    float acc = 0.f;
    for (int64_t j = 0; j < r.extent_of(0); j++) acc += r.at(j) * x.at(j);
    out[i] = acc;
  }
}

__global__ void scaled_column(float *data, int rows, int cols, int col, float f, float *out)
{
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  int extent[1] = {rows};
  int step[1] = {cols};
  Scaled s(data + col, extent, step, f);
  if (i < s.extent_of(0)) out[i] = s.get(i) + s.tag;
}

int main()
{
  const int rows = 300, cols = 77;
  std::vector<float> m(rows * cols), v(cols), got(rows), want(rows), col(rows), col_want(rows);
  for (int i = 0; i < rows * cols; i++) m[i] = (float)((i * 37) % 101) / 101.f;
  for (int j = 0; j < cols; j++) v[j] = (float)(j % 13) - 6.f;
  for (int i = 0; i < rows; i++) {
    float acc = 0.f;
    for (int j = 0; j < cols; j++) acc += m[i * cols + j] * v[j];
    want[i] = acc;
    col_want[i] = 2.5f * m[i * cols + 5] + 7;
  }
  float *dm, *dv, *dout, *dcol;
  CHECK_CUDA(cudaMalloc(&dm, m.size() * sizeof(float)));
  CHECK_CUDA(cudaMalloc(&dv, v.size() * sizeof(float)));
  CHECK_CUDA(cudaMalloc(&dout, rows * sizeof(float)));
  CHECK_CUDA(cudaMalloc(&dcol, rows * sizeof(float)));
  CHECK_CUDA(cudaMemcpy(dm, m.data(), m.size() * sizeof(float), cudaMemcpyHostToDevice));
  CHECK_CUDA(cudaMemcpy(dv, v.data(), v.size() * sizeof(float), cudaMemcpyHostToDevice));
  const int64_t me[2] = {rows, cols}, ms[2] = {cols, 1};
  const int64_t ve[1] = {cols}, vs[1] = {1};
  Packed<float, 2, NoAlias> pm(dm, me, ms);
  Packed<float, 1, NoAlias> pv(dv, ve, vs);
  matvec<<<(rows + 63) / 64, 64>>>(pm, pv, dout);
  scaled_column<<<(rows + 127) / 128, 128>>>(dm, rows, cols, 5, 2.5f, dcol);
  CHECK_CUDA(cudaMemcpy(got.data(), dout, rows * sizeof(float), cudaMemcpyDeviceToHost));
  CHECK_CUDA(cudaMemcpy(col.data(), dcol, rows * sizeof(float), cudaMemcpyDeviceToHost));
  bool ok = close_enough(got.data(), want.data(), rows, 1e-5) && close_enough(col.data(), col_want.data(), rows, 1e-6);
  printf("row 17: %f (want %f)\n", got[17], want[17]);
  cudaFree(dm); cudaFree(dv); cudaFree(dout); cudaFree(dcol);
  printf("%s\n", ok ? "PASS" : "FAIL");
  return ok ? 0 : 1;
}
