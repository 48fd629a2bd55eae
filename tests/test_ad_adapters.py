"""PyTorch and JAX adapters (polygeist_py.ad.adapters): a C function and its Enzyme gradient as a
torch.autograd.Function / jax.custom_vjp. Gradients are checked against central finite differences of the C
primal (numpy) and against jax.grad / torch.autograd of the same math written in the framework. torch and jax
are optional: their tests skip when the package is not installed."""

from __future__ import annotations

import sys

import numpy as np
import pytest

import polygeist_py as pg

SRC = r"""
#include <math.h>
/* one array input, scalar output */
double sq_sin(int n, const double x[n]) {
  double s = 0;
  for (int i = 0; i < n; i++) s += x[i] * x[i] * sin(x[i]);
  return s;
}
/* two array inputs and an active floating scalar */
double loss(int n, const double w[n], const double x[n], double b) {
  double s = 0;
  for (int i = 0; i < n; i++) s += tanh(w[i] * x[i] + b);
  return s * s;
}
/* a void function with two outputs; n and m follow from A's shape */
void mv_tanh(int n, int m, const double A[n][m], const double x[m], double y[n], double norm[1]) {
  norm[0] = 0;
  for (int i = 0; i < n; i++) {
    double s = 0;
    for (int j = 0; j < m; j++) s += A[i][j] * x[j];
    y[i] = tanh(s);
    norm[0] += y[i] * y[i];
  }
}
/* an integer that is no array size: passed by keyword or in constants */
double powsum(int n, int p, const double x[n]) {
  double s = 0;
  for (int i = 0; i < n; i++) { double t = 1; for (int k = 0; k < p; k++) t *= x[i]; s += t; }
  return s;
}
/* an integer array input (no gradient) */
double gather(int n, const int idx[n], const double v[n]) {
  double s = 0;
  for (int i = 0; i < n; i++) s += v[idx[i]] * v[i];
  return s;
}
/* single precision */
float sumexp(int n, const float x[n]) {
  float s = 0;
  for (int i = 0; i < n; i++) s += expf(x[i]);
  return s;
}
double no_grad(int n, const double x[n]) { return x[0]; }
void writes(int n, const double x[n], double *out) { for (int i = 0; i < n; i++) out[i] = x[i] * x[i]; }
double scales(int n, double u[n]) { double s = 0; for (int i = 0; i < n; i++) { u[i] *= 2; s += u[i]; } return s; }
"""

GRADIENTS = ["sq_sin", "loss", "mv_tanh", "powsum", "gather", "sumexp", "writes", "scales"]


@pytest.fixture(scope="module")
def prog():
    return pg.compile(SRC, gradients=GRADIENTS)


@pytest.fixture(scope="module")
def jax():
    jax = pytest.importorskip("jax")
    jax.config.update("jax_enable_x64", True)
    return jax


@pytest.fixture(scope="module")
def torch():
    return pytest.importorskip("torch")


@pytest.fixture(scope="module")
def adapters():
    from polygeist_py.ad import adapters

    return adapters


def fd(fun, x, h=1e-6):
    """Central finite differences of scalar fun at numpy array x (one entry at a time)."""
    x = np.asarray(x, dtype=np.float64)
    g = np.zeros_like(x)
    for i in np.ndindex(x.shape):
        e = np.zeros_like(x)
        e[i] = h
        g[i] = (fun(x + e) - fun(x - e)) / (2 * h)
    return g


RNG = np.random.default_rng(7)
X = RNG.normal(size=7)
W, X2, B = RNG.normal(size=5), RNG.normal(size=5), 0.25
A, XM = RNG.normal(size=(4, 3)), RNG.normal(size=3)


# ------------------------------------------------------------------------------------------------ always
def test_missing_framework_is_a_clear_import_error(prog, adapters, monkeypatch):
    assert pg.torch_function is adapters.torch_function and pg.jax_function is adapters.jax_function
    monkeypatch.setitem(sys.modules, "torch", None)  # `import torch` now raises ImportError
    monkeypatch.setitem(sys.modules, "jax", None)
    with pytest.raises(ImportError, match=r"needs torch.*pip install 'polygeist-py\[torch\]'"):
        adapters.torch_function(prog, "sq_sin")
    with pytest.raises(ImportError, match=r"needs jax.*pip install 'polygeist-py\[jax\]'"):
        adapters.jax_function(prog, "sq_sin")


def test_extras_are_optional():
    from pathlib import Path

    tomllib = pytest.importorskip("tomllib")  # Python >= 3.11

    meta = tomllib.loads((Path(__file__).resolve().parent.parent / "pyproject.toml").read_text())["project"]
    extras = meta["optional-dependencies"]
    assert any(d.startswith("torch") for d in extras["torch"])
    assert any(d.startswith("jax") for d in extras["jax"])
    required = " ".join(meta["dependencies"] + extras["test"])
    assert "torch" not in required and "jax" not in required


def test_const_array_parameters_take_read_only_arrays(prog):
    # `const double x[n]` is const like `const double *x` (canonical array types carry the qualifier)
    assert [p.const for p in prog.loss.params] == [False, True, True, False]
    x = np.array(X)
    x.flags.writeable = False
    assert abs(prog.sq_sin(7, x) - np.sum(X * X * np.sin(X))) < 1e-12
    with pytest.raises(ValueError, match="read-only"):
        prog.scales(7, x)


# ------------------------------------------------------------------------------------------------ JAX
def test_jax_array_to_scalar(prog, jax, adapters):
    import jax.numpy as jnp

    f = adapters.jax_function(prog, "sq_sin")
    x = jnp.asarray(X)
    assert abs(float(f(x)) - np.sum(X * X * np.sin(X))) < 1e-12
    g = np.asarray(jax.grad(f)(x))
    np.testing.assert_allclose(g, fd(lambda v: prog.sq_sin(len(v), v), X), rtol=1e-6, atol=1e-9)
    ref = jax.grad(lambda v: jnp.sum(v * v * jnp.sin(v)))(x)
    np.testing.assert_allclose(g, ref, rtol=1e-12, atol=1e-14)
    assert np.abs(g).max() > 0.1
    # under jit: primal, gradient, and value_and_grad agree with the eager results
    assert float(jax.jit(f)(x)) == float(f(x))
    np.testing.assert_allclose(jax.jit(jax.grad(f))(x), g, rtol=1e-14)
    v, g2 = jax.jit(jax.value_and_grad(f))(2 * x)
    np.testing.assert_allclose(g2, jax.grad(lambda v: jnp.sum(v * v * jnp.sin(v)))(2 * x), rtol=1e-12)
    # a different size is a different n (read from the shape), also under jit
    np.testing.assert_allclose(jax.jit(jax.grad(f))(x[:3]), g[:3], rtol=1e-14)


def test_jax_two_arrays_and_scalar(prog, jax, adapters):
    import jax.numpy as jnp

    f = adapters.jax_function(prog, "loss")
    ref = lambda w, x, b: jnp.sum(jnp.tanh(w * x + b)) ** 2
    args = (jnp.asarray(W), jnp.asarray(X2), B)
    gw, gx, gb = jax.grad(f, argnums=(0, 1, 2))(*args)
    rw, rx, rb = jax.grad(ref, argnums=(0, 1, 2))(*args)
    np.testing.assert_allclose(gw, rw, rtol=1e-12)
    np.testing.assert_allclose(gx, rx, rtol=1e-12)
    assert abs(float(gb) - float(rb)) < 1e-12 * (1 + abs(float(rb)))
    np.testing.assert_allclose(gw, fd(lambda w: prog.loss(5, w, X2, B), W), rtol=1e-6, atol=1e-9)
    np.testing.assert_allclose(gx, fd(lambda x: prog.loss(5, W, x, B), X2), rtol=1e-6, atol=1e-9)
    assert abs(float(gb) - fd(lambda b: prog.loss(5, W, X2, float(b[0])), [B])[0]) < 1e-6
    jg = jax.jit(jax.grad(f, argnums=(0, 1, 2)))(*args)
    for a, b in zip(jg, (gw, gx, gb)):
        np.testing.assert_allclose(a, b, rtol=1e-14)
    # composed with jax code around it: d/dw of 3*f(2w, x, b) + sum(w)
    h = lambda w: 3 * f(2 * w, args[1], B) + jnp.sum(w)
    hr = lambda w: 3 * ref(2 * w, args[1], B) + jnp.sum(w)
    np.testing.assert_allclose(jax.jit(jax.grad(h))(args[0]), jax.grad(hr)(args[0]), rtol=1e-12)
    # vmap over a batch of w (one C call per element)
    ws = jnp.stack([args[0], 2 * args[0], -args[0]])
    np.testing.assert_allclose(jax.vmap(f, in_axes=(0, None, None))(ws, args[1], B),
                               [float(ref(w, args[1], B)) for w in ws], rtol=1e-12)


def test_jax_outputs_vjp(prog, jax, adapters):
    import jax.numpy as jnp

    f = adapters.jax_function(prog, "mv_tanh", outputs=["y", "norm"])
    ref = lambda A, x: (jnp.tanh(A @ x), jnp.sum(jnp.tanh(A @ x) ** 2)[None])
    a, x = jnp.asarray(A), jnp.asarray(XM)
    y, norm = f(a, x)
    assert y.shape == (4,) and norm.shape == (1,) and y.dtype == jnp.float64
    np.testing.assert_allclose(y, np.tanh(A @ XM), rtol=1e-13)
    ct = (jnp.asarray(RNG.normal(size=4)), jnp.asarray([0.7]))
    _, vjp = jax.vjp(f, a, x)
    _, vjp_ref = jax.vjp(ref, a, x)
    for g, r in zip(vjp(ct), vjp_ref(ct)):
        np.testing.assert_allclose(g, r, rtol=1e-12, atol=1e-14)
        assert np.abs(np.asarray(g)).max() > 1e-2
    # a loss built on the outputs, under jit, against finite differences of the C primal
    def c_loss(A_, x_):
        yy, nn = np.zeros(4), np.zeros(1)
        prog.mv_tanh(4, 3, A_, x_, yy, nn)
        return np.sum(np.sin(yy)) + nn[0]

    loss = jax.jit(lambda A_, x_: jnp.sum(jnp.sin(f(A_, x_)[0])) + f(A_, x_)[1][0])
    gA, gx = jax.jit(jax.grad(loss, argnums=(0, 1)))(a, x)
    assert abs(float(loss(a, x)) - c_loss(A, XM)) < 1e-12
    np.testing.assert_allclose(gA, fd(lambda A_: c_loss(A_, XM), A), rtol=1e-6, atol=1e-9)
    np.testing.assert_allclose(gx, fd(lambda x_: c_loss(A, x_), XM), rtol=1e-6, atol=1e-9)
    # the full Jacobian (reverse mode, vmapped vjp)
    np.testing.assert_allclose(jax.jacrev(lambda x_: f(a, x_)[0])(x),
                               jax.jacrev(lambda x_: ref(a, x_)[0])(x), rtol=1e-12, atol=1e-14)


def test_jax_integer_parameters_and_arrays(prog, jax, adapters):
    import jax.numpy as jnp

    f = adapters.jax_function(prog, "powsum")
    x = jnp.asarray(X)
    with pytest.raises(TypeError, match=r"\['p'\].*by keyword"):
        f(x)
    g = jax.jit(jax.grad(lambda v: f(v, p=3)))(x)
    np.testing.assert_allclose(g, 3 * X ** 2, rtol=1e-12)
    f4 = adapters.jax_function(prog, "powsum", constants={"p": 4})
    np.testing.assert_allclose(jax.grad(f4)(x), 4 * X ** 3, rtol=1e-12)
    with pytest.raises(TypeError, match="already given in constants"):
        f4(x, p=2)
    # an integer array input: passed, no gradient (float0 cotangent)
    gth = adapters.jax_function(prog, "gather")
    idx = np.array([2, 0, 1, 4, 3], dtype=np.int32)
    v = jnp.asarray(W)
    ref = lambda v_: jnp.sum(v_[idx] * v_)
    assert abs(float(gth(idx, v)) - float(ref(v))) < 1e-12
    np.testing.assert_allclose(jax.jit(jax.grad(gth, argnums=1))(jnp.asarray(idx), v), jax.grad(ref)(v),
                               rtol=1e-12)
    with pytest.raises(TypeError, match="int32 values"):
        gth(idx.astype(np.float64), v)


def test_jax_float32_and_errors(prog, jax, adapters):
    import jax.numpy as jnp

    f = adapters.jax_function(prog, "sumexp")
    x = jnp.asarray(X, dtype=jnp.float32)
    assert f(x).dtype == jnp.float32
    np.testing.assert_allclose(jax.grad(f)(x), np.exp(X.astype(np.float32)), rtol=1e-6)
    with pytest.raises(ValueError, match="gradients=\\['no_grad'\\]"):
        adapters.jax_function(prog, "no_grad")
    with pytest.raises(KeyError, match="nope"):
        adapters.jax_function(prog, "nope")
    with pytest.raises(ValueError, match="nothing to differentiate"):
        adapters.jax_function(prog, "writes")
    with pytest.raises(ValueError, match="does not follow from its declaration"):
        adapters.jax_function(prog, "writes", outputs=["out"])(jnp.asarray(X))
    w = adapters.jax_function(prog, "writes", outputs={"out": lambda x_: x_.shape})
    np.testing.assert_allclose(jax.jit(jax.grad(lambda x_: jnp.sum(w(x_))))(jnp.asarray(X)), 2 * X, rtol=1e-14)
    with pytest.raises(ValueError, match="is const"):
        adapters.jax_function(prog, "mv_tanh", outputs=["A"])
    with pytest.raises(ValueError, match="returns a value and writes outputs"):
        adapters.jax_function(prog, "scales", outputs=["u"])
    # the C function overwrites its input array: it works on a copy, the caller's array is unchanged
    u = jnp.asarray(X)
    assert abs(float(adapters.jax_function(prog, "scales")(u)) - 2 * X.sum()) < 1e-12
    np.testing.assert_array_equal(u, X)
    np.testing.assert_allclose(jax.grad(adapters.jax_function(prog, "scales"))(u), 2 * np.ones(7))
    with pytest.raises(ValueError, match="not a parameter"):
        adapters.jax_function(prog, "loss", constants={"q": 1})
    with pytest.raises(ValueError, match=r"\['b'\] are neither inputs"):
        adapters.jax_function(prog, "loss", inputs=["w", "x"])
    loss_wx = adapters.jax_function(prog, "loss", inputs=["x", "w"], constants={"b": B})
    np.testing.assert_allclose(jax.grad(loss_wx, argnums=1)(jnp.asarray(X2), jnp.asarray(W)),
                               fd(lambda w_: prog.loss(5, w_, X2, B), W), rtol=1e-6, atol=1e-9)
    loss = adapters.jax_function(prog, "loss")
    with pytest.raises(ValueError, match="n = 5"):
        loss(jnp.asarray(W), jnp.asarray(X), B)
    with pytest.raises(TypeError, match="takes 3 input arguments"):
        loss(jnp.asarray(W), jnp.asarray(X2))
    jax.config.update("jax_enable_x64", False)
    try:
        with pytest.raises(RuntimeError, match="jax_enable_x64"):
            loss(W, X2, B)
    finally:
        jax.config.update("jax_enable_x64", True)


# ------------------------------------------------------------------------------------------------ PyTorch
def test_torch_array_to_scalar(prog, torch, adapters):
    f = adapters.torch_function(prog, "sq_sin")
    x = torch.tensor(X, requires_grad=True)
    y = f(x)
    assert y.shape == () and y.dtype == torch.float64 and type(y.grad_fn).__name__ == "sq_sinBackward"
    y.backward()
    np.testing.assert_allclose(x.grad.numpy(), fd(lambda v: prog.sq_sin(len(v), v), X), rtol=1e-6, atol=1e-9)
    xr = torch.tensor(X, requires_grad=True)
    (xr * xr * torch.sin(xr)).sum().backward()
    np.testing.assert_allclose(x.grad.numpy(), xr.grad.numpy(), rtol=1e-12, atol=1e-14)
    assert torch.autograd.gradcheck(f, (torch.tensor(X, requires_grad=True),))
    # the incoming gradient scales the result; float32 tensors get float32 gradients
    x32 = torch.tensor(X, dtype=torch.float32, requires_grad=True)
    (2.5 * f(x32)).backward()
    assert x32.grad.dtype == torch.float32
    np.testing.assert_allclose(x32.grad.numpy(), 2.5 * xr.grad.numpy(), rtol=1e-5)


def test_torch_two_arrays_outputs_and_integers(prog, torch, adapters):
    f = adapters.torch_function(prog, "loss")
    w, x = torch.tensor(W, requires_grad=True), torch.tensor(X2, requires_grad=True)
    b = torch.tensor(B, dtype=torch.float64, requires_grad=True)
    assert torch.autograd.gradcheck(f, (w, x, b))
    f(w, x, b).backward()
    wr, xr, br = (t.detach().clone().requires_grad_() for t in (w, x, b))
    (torch.tanh(wr * xr + br).sum() ** 2).backward()
    for a, r in ((w, wr), (x, xr), (b, br)):
        np.testing.assert_allclose(a.grad.numpy(), r.grad.numpy(), rtol=1e-12)
    # a Python float for the scalar: no gradient for it, the arrays still get theirs
    w.grad = None
    f(w, x.detach(), B).backward()
    np.testing.assert_allclose(w.grad.numpy(), wr.grad.numpy(), rtol=1e-12)
    # two outputs of a void function
    mv = adapters.torch_function(prog, "mv_tanh", outputs=["y", "norm"])
    a, xm = torch.tensor(A, requires_grad=True), torch.tensor(XM, requires_grad=True)
    assert torch.autograd.gradcheck(mv, (a, xm))
    y, norm = mv(a, xm)
    (torch.sin(y).sum() + 3 * norm[0]).backward()
    ar, xmr = torch.tensor(A, requires_grad=True), torch.tensor(XM, requires_grad=True)
    yr = torch.tanh(ar @ xmr)
    (torch.sin(yr).sum() + 3 * (yr ** 2).sum()).backward()
    np.testing.assert_allclose(a.grad.numpy(), ar.grad.numpy(), rtol=1e-12, atol=1e-14)
    np.testing.assert_allclose(xm.grad.numpy(), xmr.grad.numpy(), rtol=1e-12, atol=1e-14)
    # integer parameter by keyword; integer tensor input gets no gradient
    p = adapters.torch_function(prog, "powsum")
    assert torch.autograd.gradcheck(lambda v: p(v, p=3), (torch.tensor(X, requires_grad=True),))
    g = adapters.torch_function(prog, "gather")
    idx = torch.tensor([2, 0, 1, 4, 3], dtype=torch.int32)
    v = torch.tensor(W, requires_grad=True)
    g(idx, v).backward()
    vr = torch.tensor(W, requires_grad=True)
    (vr[idx.long()] * vr).sum().backward()
    np.testing.assert_allclose(v.grad.numpy(), vr.grad.numpy(), rtol=1e-12)
    assert idx.grad is None
    with pytest.raises(ValueError, match="shape"):
        f(w, torch.tensor(X), b)
