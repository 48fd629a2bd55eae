"""Affine forms: C integer expressions over loop indices and symbols, kept as small trees until they become
an affine map with operands.

A form is one of ('dim', v), ('sym', v), ('const', c), ('add', a, b), ('mul', a, b) where v is an MLIR
``index`` value. Products need a constant side, or a side made only of symbols: ``i * n`` is the semi-affine
product MLIR accepts (``d0 * s0``), which keeps linearized subscripts ``A[i*n + j]`` in affine.load/store.
The walker decides what a dim or symbol is (an affine loop index; a value defined at the function's top level).
"""

from __future__ import annotations

from mlir import ir


INT64 = range(-(1 << 63), 1 << 63)  # affine constants are int64: anything else is not an affine form


def const(c: int):
    """The constant form c, or None when c does not fit an affine constant (int64)."""
    return ("const", int(c)) if int(c) in INT64 else None


def add(a, b):
    """a+b, or None when either is None or a constant sum leaves int64."""
    if a is None or b is None:
        return None
    if a[0] == "const" and b[0] == "const":
        return const(a[1] + b[1])
    if b == ("const", 0):
        return a
    if a == ("const", 0):
        return b
    return ("add", a, b)


def mul(a, b):
    """a*b, or None when the product is not (semi-)affine (or a constant leaves int64)."""
    if a is None or b is None:
        return None
    if a[0] == "const" and b[0] == "const":
        return const(a[1] * b[1])
    if b[0] == "const":
        a, b = b, a
    if a[0] == "const":
        if a[1] == 0:
            return const(0)
        if a[1] == 1:
            return b
        return ("mul", a, b)
    if symbolic(a) or symbolic(b):
        return ("mul", a, b)
    return None


def neg(a):
    return mul(const(-1), a)


def sub(a, b):
    return add(a, neg(b))


def symbolic(f) -> bool:
    """True when the form has no dims."""
    tag = f[0]
    if tag == "dim":
        return False
    if tag in ("sym", "const"):
        return True
    return symbolic(f[1]) and symbolic(f[2])


def is_affine(f) -> bool:
    """True when the form has no product of two non-constant sides (semi-affine `i * n` is not affine)."""
    if f[0] == "mul":
        return f[1][0] == "const" and is_affine(f[2])
    if f[0] == "add":
        return is_affine(f[1]) and is_affine(f[2])
    return True


def to_set(constraints: list) -> tuple[ir.IntegerSet, list]:
    """Integer set {f >= 0 (or f == 0 when the flag is True) for (f, flag) in constraints} and its operands
    (dims first, then symbols); the forms must be affine (is_affine)."""
    m, operands = to_map([f for f, _ in constraints])
    return ir.IntegerSet.get(m.n_dims, m.n_symbols, list(m.results), [eq for _, eq in constraints]), operands


def to_map(forms: list) -> tuple[ir.AffineMap, list]:
    """Affine map with one result per form, and its operands (dims first, then symbols)."""
    dims, syms = [], []

    def collect(f):
        if f[0] == "dim":
            if not any(f[1] == d for d in dims):
                dims.append(f[1])
        elif f[0] == "sym":
            if not any(f[1] == s for s in syms):
                syms.append(f[1])
        elif f[0] in ("add", "mul"):
            collect(f[1])
            collect(f[2])

    for f in forms:
        collect(f)

    def build(f):
        tag = f[0]
        if tag == "const":
            return ir.AffineConstantExpr.get(f[1])
        if tag == "dim":
            return ir.AffineDimExpr.get(next(i for i, d in enumerate(dims) if d == f[1]))
        if tag == "sym":
            return ir.AffineSymbolExpr.get(next(i for i, s in enumerate(syms) if s == f[1]))
        if tag == "add":
            return ir.AffineAddExpr.get(build(f[1]), build(f[2]))
        return ir.AffineMulExpr.get(build(f[1]), build(f[2]))

    exprs = [build(f) for f in forms]
    return ir.AffineMap.get(len(dims), len(syms), exprs), dims + syms


def map_with(nd: int, ns: int, exprs) -> ir.AffineMap:
    return ir.AffineMap.get(nd, ns, list(exprs))
