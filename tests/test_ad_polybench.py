"""Reverse and forward mode on the PolyBench-style kernels of tests/programs/polybench: each kernel is
differentiated through __enzyme_autodiff / __enzyme_fwddiff (every floating-point array duplicated, scalars
constant) and checked on a random linear functional of its arrays against a central finite difference along a
random direction (<J^T w, v> = d/dh <w, kernel(x + h v)> = <w, J v>). Inputs are random with a dominant
diagonal on square matrices, so the factorizations are well defined."""

from __future__ import annotations

import re
import zlib

import numpy as np
import pytest

import polygeist_py as pg
from conftest import PROGRAMS

from polygeist_py.ad.python_api import _shadow_decl
from polygeist_py.api import _eval_dim

KERNELS = sorted(p.stem for p in (PROGRAMS / "polybench").glob("*.c"))
INTS = 5  # every integer parameter (sizes, time steps)


def load(name):
    path = PROGRAMS / "polybench" / f"{name}.c"
    src = path.read_text()
    m = re.search(r"static\s+void\s+(kernel_\w+)\s*\(", src)
    kernel = m.group(1)
    src = src[:m.start()] + src[m.start():].replace("static ", "", 1)  # callable from Python
    return path, src, kernel


def wrapper(kernel, params) -> str:
    decls, args = [], []
    for p in params:
        decls.append(p.decl)
        if p.kind == "array" and p.scalar.kind == "float":
            decls.append(_shadow_decl(p))
            args += [p.name, "d_" + p.name]
        elif p.kind == "array":
            args += ["enzyme_const", p.name]
        elif p.scalar.kind == "float":
            args += ["enzyme_const", p.name]
        else:
            args.append(p.name)
    return ("\nextern int enzyme_const;\nextern void __enzyme_autodiff(void *, ...);\n"
            "extern void __enzyme_fwddiff(void *, ...);\n"
            f"void ad_{kernel}({', '.join(decls)}) {{ __enzyme_autodiff((void *){kernel}, {', '.join(args)}); }}\n"
            f"void fwd_{kernel}({', '.join(decls)}) {{ __enzyme_fwddiff((void *){kernel}, {', '.join(args)}); }}\n")


@pytest.mark.parametrize("name", KERNELS)
def test_polybench_kernel_gradient(name):
    path, src, kernel = load(name)
    params = pg.compile(src, path=path)[kernel].params
    floats = [p for p in params if p.kind == "array" and p.scalar.kind == "float"]
    if not floats:
        pytest.skip("no floating-point array parameters (integer kernel or global arrays)")
    prog = pg.compile(src + wrapper(kernel, params), path=path)
    rng = np.random.default_rng(zlib.crc32(name.encode()))  # (stable across runs, unlike hash())
    values = []
    for p in params:
        if p.kind == "scalar":
            values.append(INTS if p.scalar.kind != "float" else p.scalar.dtype.type(0.7))
            continue
        dims = [_eval_dim(d, values) if d is not None else None for d in (p.dims or [])]
        if not dims or None in dims:
            pytest.skip(f"shape of {p.name} not known from the arguments")
        a = rng.uniform(0.1, 1.0, size=dims).astype(p.scalar.dtype)
        if a.ndim == 2 and a.shape[0] == a.shape[1]:
            a += a.shape[0] * np.eye(a.shape[0], dtype=a.dtype)
        values.append(a)
    arrays = [i for i, p in enumerate(params) if p.kind == "array" and p.scalar.kind == "float"]
    w = {i: rng.normal(size=values[i].shape).astype(values[i].dtype) for i in arrays}
    v = {i: rng.normal(size=values[i].shape).astype(values[i].dtype) for i in arrays}

    def functional(shift):
        vals = [x.copy() if isinstance(x, np.ndarray) else x for x in values]
        for i in arrays:
            vals[i] = vals[i] + shift * v[i]
        prog[kernel](*vals)
        return sum(float(np.sum(w[i].astype(np.float64) * vals[i])) for i in arrays)

    args, shadows = [], {}
    for i, (p, x) in enumerate(zip(params, values)):
        args.append(x.copy() if isinstance(x, np.ndarray) else x)
        if i in arrays:
            shadows[i] = w[i].copy()
            args.append(shadows[i])
    prog[f"ad_{kernel}"](*args)
    reverse = sum(float(np.sum(shadows[i].astype(np.float64) * v[i])) for i in arrays)
    single = any(values[i].dtype == np.float32 for i in arrays)
    h = 1e-2 if single else 1e-6
    fd = (functional(h) - functional(-h)) / (2 * h)
    assert np.isfinite(reverse) and abs(fd) > 1e-8
    assert abs(reverse - fd) <= (2e-2 if single else 1e-6) * (1 + abs(fd)), (reverse, fd)
    # forward mode: tangents seeded with v come out as J v in the shadows; <w, J v> is the same number
    args, tangents = [], {}
    for i, (p, x) in enumerate(zip(params, values)):
        args.append(x.copy() if isinstance(x, np.ndarray) else x)
        if i in arrays:
            tangents[i] = v[i].copy()
            args.append(tangents[i])
    prog[f"fwd_{kernel}"](*args)
    forward = sum(float(np.sum(w[i].astype(np.float64) * tangents[i])) for i in arrays)
    assert abs(forward - fd) <= (2e-2 if single else 1e-6) * (1 + abs(fd)), (forward, fd)
