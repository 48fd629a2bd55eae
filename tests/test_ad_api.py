"""Derivatives through the Python API: a C function and its Enzyme gradient wrapper, called on numpy arrays;
checked against central finite differences of the primal computed through the same API."""

from __future__ import annotations

import numpy as np
import pytest

import polygeist_py as pg

SRC = r"""
#include <math.h>
extern int enzyme_const;
extern double __enzyme_autodiff(void *, ...);
extern double __enzyme_fwddiff(void *, ...);

double loss(int n, double w[n], double x[n], double b) {
  double s = 0;
  for (int i = 0; i < n; i++) s += tanh(w[i] * x[i] + b);
  return s * s;
}
/* d loss / d w into dw (VLA parameters), d loss / d b returned */
double loss_grad(int n, double w[n], double dw[n], double x[n], double b) {
  return __enzyme_autodiff((void *)loss, n, w, dw, enzyme_const, x, b);
}
/* directional derivative along (vw, vb) */
double loss_jvp(int n, double w[n], double vw[n], double x[n], double b, double vb) {
  return __enzyme_fwddiff((void *)loss, n, w, vw, enzyme_const, x, b, vb);
}
"""


def test_gradient_of_c_function_on_numpy_arrays():
    prog = pg.compile(SRC)
    rng = np.random.default_rng(5)
    n = 9
    w, x, b = rng.normal(size=n), rng.normal(size=n), 0.3
    dw = np.zeros(n)
    db = prog.loss_grad(n, w, dw, x, b)
    h = 1e-6
    fd_w = np.array([(prog.loss(n, w + h * e, x, b) - prog.loss(n, w - h * e, x, b)) / (2 * h) for e in np.eye(n)])
    fd_b = (prog.loss(n, w, x, b + h) - prog.loss(n, w, x, b - h)) / (2 * h)
    np.testing.assert_allclose(dw, fd_w, rtol=1e-6, atol=1e-8)
    assert abs(db - fd_b) < 1e-6 * (1 + abs(fd_b))
    assert np.abs(dw).max() > 1e-2
    # forward mode along a random direction agrees with the reverse gradient (dot-product test)
    vw, vb = rng.normal(size=n), 0.7
    t = prog.loss_jvp(n, w, vw, x, b, vb)
    assert abs(t - (dw @ vw + db * vb)) < 1e-10 * (1 + abs(t))


def test_compile_with_gradients_adds_gradient_functions():
    src = r"""
    #include <math.h>
    double loss(int n, const double w[n], const double x[n], double b) {
      double s = 0;
      for (int i = 0; i < n; i++) s += tanh(w[i] * x[i] + b);
      return s * s;
    }
    void scale(int n, double v[n], double *out) { for (int i = 0; i < n; i++) out[i] = exp(v[i]) * v[i]; }
    """
    prog = pg.compile(src, gradients=["loss", "scale"])
    assert prog.loss_gradient.signature == ("double loss_gradient(int n, const double w[n], double d_w[n], "
                                            "const double x[n], double d_x[n], double b)")
    rng = np.random.default_rng(3)
    n = 6
    w, x, b = rng.normal(size=n), rng.normal(size=n), -0.2
    dw, dx = np.zeros(n), np.zeros(n)
    db = prog.loss_gradient(n, w, dw, x, dx, b)
    h = 1e-6
    fd = lambda dw_, dx_, db_: (prog.loss(n, w + h * dw_, x + h * dx_, b + h * db_)
                                - prog.loss(n, w - h * dw_, x - h * dx_, b - h * db_)) / (2 * h)
    np.testing.assert_allclose(dw, [fd(e, 0 * e, 0) for e in np.eye(n)], rtol=1e-6, atol=1e-9)
    np.testing.assert_allclose(dx, [fd(0 * e, e, 0) for e in np.eye(n)], rtol=1e-6, atol=1e-9)
    assert abs(db - fd(0 * w, 0 * x, 1)) < 1e-6 * (1 + abs(db))
    # a void function: the seed in d_out selects the output combination; d_v receives J^T seed
    v, out, seed, dv = rng.normal(size=n), np.zeros(n), rng.normal(size=n), np.zeros(n)
    prog.scale_gradient(n, v, dv, out, seed.copy())
    np.testing.assert_allclose(dv, seed * np.exp(v) * (1 + v), rtol=1e-12)
    with pytest.raises(ValueError, match="shape"):
        prog.loss_gradient(n, w, np.zeros(n - 1), x, dx, b)
    with pytest.raises(ValueError, match="not a function"):
        pg.compile(src, gradients=["nope"])


def test_gradient_of_cuda_host_function_from_python():
    from conftest import PROGRAMS

    src = (PROGRAMS / "ad" / "cuda_timesteps.cu").read_text().split("int main()")[0]
    prog = pg.compile(src, language="cuda", cpuify=True, gradients=["run"])
    n, steps = 19, 3
    u0 = np.sin(0.3 * np.arange(n))
    du, dv = np.zeros(n), np.zeros(n)
    prog.run_gradient(u0.copy(), du, np.zeros(n), dv, n, steps)
    h = 1e-6
    fd = [(prog.run(u0 + h * e, np.zeros(n), n, steps) - prog.run(u0 - h * e, np.zeros(n), n, steps)) / (2 * h)
          for e in np.eye(n)]
    np.testing.assert_allclose(du, fd, rtol=1e-6, atol=1e-8)
    assert np.abs(du).max() > 1.0
