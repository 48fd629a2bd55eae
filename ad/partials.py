"""Derivative rules of the scalar (elementwise) ops of arith and math: one rule per op, keyed by op name.

A rule gives the partial derivative of an op's result with respect to one of its operands (JAX's linear "jvp"
rules written as partials). Both modes read this one table:

    forward mode  tangent(r) = sum_k partial_k * tangent(x_k)
    reverse mode  adjoint(x_k) += partial_k * adjoint(r)            (the transpose of the same linear map)

A partial is a Value, ``ONE``/``MINUS_ONE`` (no multiplication emitted) or ``None`` (zero: the operand is not
differentiable or does not influence the result, e.g. floor). Rules run inside the caller's InsertionPoint and
Location and build with upstream arith/math ops only.
"""

from __future__ import annotations

import math as pymath

from mlir import ir
from mlir.dialects import arith

ONE, MINUS_ONE = "one", "minus_one"
CONVERT = "convert"  # extf/truncf: the tangent/adjoint is converted, not multiplied


def const(t, v: float):
    """A float constant of type `t`."""
    return arith.constant(t, float(v))


def op1(name, x):
    return ir.Operation.create(name, [x.type], [x]).result


def mul(a, b):
    return arith.mulf(a, b)


def div(a, b):
    return arith.divf(a, b)


def sq(a):
    return arith.mulf(a, a)


def recip(t, a):
    return div(const(t, 1.0), a)


def _sign(t, x):
    # d|x|/dx: the sign of x, read from its sign bit as Enzyme does: +1 at +0.0 and -1 at -0.0, so the side
    # from which x reached 0 decides (fabs(-x*x) at x = 0 has the second derivative 2 only with fabs'(-0.0) = -1)
    return _signbit_sign(const(t, 1.0), x)


def _max_min(pred):
    def rule(k, x, r, t):
        take_a = arith.cmpf(pred, x(0), x(1))
        one, zero = const(t, 1.0), const(t, 0.0)
        return arith.select(take_a, one, zero) if k == 0 else arith.select(take_a, zero, one)
    return rule


def _powf(k, x, r, t):
    a, b = x(0), x(1)
    if k == 0:  # b a^(b-1)
        return mul(b, ir.Operation.create("math.powf", [t], [a, arith.subf(b, const(t, 1.0))]).result)
    # a^b log a, taken as 0 where a <= 0 (the exponent is rarely active; a constant exponent stays finite)
    pos = arith.cmpf(arith.CmpFPredicate.OGT, a, const(t, 0.0))
    safe = arith.select(pos, a, const(t, 1.0))
    return arith.select(pos, mul(r(), op1("math.log", safe)), const(t, 0.0))


def _fpowi(k, x, r, t):
    if k == 1:
        return None  # integer exponent
    a, n = x(0), x(1)
    nm1 = arith.subi(n, arith.constant(n.type, 1))
    return mul(arith.sitofp(t, n), ir.Operation.create("math.fpowi", [t], [a, nm1]).result)


def _divf(k, x, r, t):
    # d(a/b)/da = 1/b, d(a/b)/db = -a/b^2 = -(a * (1/b)) * (1/b): one division, 1/b, shared by both partials (CSE)
    # and hoisted out of a loop in which b does not change; the quotient a/b is not needed, so the reverse
    # sweep neither re-divides nor caches it. (a * (1/b)) first: no overflow that -a/b/b would not have; negated
    # before the second factor, so that LLVM's InstCombine, folding the negation into a `reassoc` accumulation,
    # does not regroup the chain as a * (1/b)^2, which underflows for |b| > 1e154 (Enzyme's div_range test).
    inv = recip(t, x(1))
    return inv if k == 0 else mul(arith.negf(mul(x(0), inv)), inv)


def _atan2(k, x, r, t):
    y, xx = x(0), x(1)
    d = arith.addf(sq(xx), sq(y))
    return div(xx, d) if k == 0 else arith.negf(div(y, d))


def _remf(k, x, r, t):
    # fmod: r = a - b*n with n = trunc(a/b); n read back as (a - r)/b, rounded (a/b itself may round across an
    # integer when the quotient is large, (a - r)/b is an integer up to rounding)
    return ONE if k == 0 else arith.negf(op1("math.round", div(arith.subf(x(0), r()), x(1))))


def _copysign_partial(k, x, r, t):
    # |a| with b's sign: sign(a)*sign(b) w.r.t. a (the sign bits: -0.0 counts as negative), 0 w.r.t. b
    if k != 0:
        return None
    one = const(t, 1.0)
    return mul(_signbit_sign(one, x(0)), _signbit_sign(one, x(1)))


def _signbit_sign(one, v):
    return ir.Operation.create("llvm.intr.copysign", [v.type], [one, v]).result  # (math-to-libm rejects math.copysign)


# rule(k, x, r, t) -> the partial derivative of the result with respect to operand k. x(i) and r() give the
# primal operands and result (computed on demand: in reverse mode each is a recomputation or a cache load, so a
# rule asks only for what it needs); t is the result's float type.
PARTIALS = {
    # arith
    "arith.addf": lambda k, x, r, t: ONE,
    "arith.subf": lambda k, x, r, t: ONE if k == 0 else MINUS_ONE,
    "arith.mulf": lambda k, x, r, t: x(1 - k),
    "arith.divf": _divf,
    "arith.negf": lambda k, x, r, t: MINUS_ONE,
    "arith.remf": _remf,
    "arith.maxnumf": _max_min(arith.CmpFPredicate.OGE),
    "arith.maximumf": _max_min(arith.CmpFPredicate.OGE),
    "arith.minnumf": _max_min(arith.CmpFPredicate.OLE),
    "arith.minimumf": _max_min(arith.CmpFPredicate.OLE),
    "arith.extf": lambda k, x, r, t: CONVERT,
    "arith.truncf": lambda k, x, r, t: CONVERT,
    # math
    "math.sqrt": lambda k, x, r, t: div(const(t, 0.5), r()),
    "math.rsqrt": lambda k, x, r, t: div(mul(const(t, -0.5), r()), x(0)),
    "math.cbrt": lambda k, x, r, t: div(r(), mul(const(t, 3.0), x(0))),
    "math.exp": lambda k, x, r, t: r(),
    "math.exp2": lambda k, x, r, t: mul(r(), const(t, pymath.log(2.0))),
    "math.expm1": lambda k, x, r, t: arith.addf(r(), const(t, 1.0)),
    "math.log": lambda k, x, r, t: recip(t, x(0)),
    "math.log2": lambda k, x, r, t: div(const(t, 1.0 / pymath.log(2.0)), x(0)),
    "math.log10": lambda k, x, r, t: div(const(t, 1.0 / pymath.log(10.0)), x(0)),
    "math.log1p": lambda k, x, r, t: recip(t, arith.addf(x(0), const(t, 1.0))),
    "math.sin": lambda k, x, r, t: op1("math.cos", x(0)),
    "math.cos": lambda k, x, r, t: arith.negf(op1("math.sin", x(0))),
    "math.tan": lambda k, x, r, t: arith.addf(const(t, 1.0), sq(r())),
    "math.sinh": lambda k, x, r, t: op1("math.cosh", x(0)),
    "math.cosh": lambda k, x, r, t: op1("math.sinh", x(0)),
    "math.tanh": lambda k, x, r, t: arith.subf(const(t, 1.0), sq(r())),
    "math.atan": lambda k, x, r, t: recip(t, arith.addf(const(t, 1.0), sq(x(0)))),
    "math.asin": lambda k, x, r, t: recip(t, op1("math.sqrt", arith.subf(const(t, 1.0), sq(x(0))))),
    "math.acos": lambda k, x, r, t: div(const(t, -1.0), op1("math.sqrt", arith.subf(const(t, 1.0), sq(x(0))))),
    "math.erf": lambda k, x, r, t: mul(const(t, 2.0 / pymath.sqrt(pymath.pi)), op1("math.exp", arith.negf(sq(x(0))))),
    "math.absf": lambda k, x, r, t: _sign(t, x(0)),
    "math.powf": _powf,
    "math.fpowi": _fpowi,
    "math.atan2": _atan2,
    "math.copysign": _copysign_partial,
    "llvm.intr.copysign": _copysign_partial,  # (the frontend's copysign)
    "math.fma": lambda k, x, r, t: ONE if k == 2 else x(1 - k),
    # piecewise constant: zero derivative
    "math.floor": lambda k, x, r, t: None,
    "math.ceil": lambda k, x, r, t: None,
    "math.round": lambda k, x, r, t: None,
    "math.roundeven": lambda k, x, r, t: None,
    "math.trunc": lambda k, x, r, t: None,
}


def contract():
    """The fast-math flags of derivative arithmetic: ``contract`` only, so LLVM may fuse a product and the sum it
    feeds into one FMA (one rounding instead of two: never less accurate). Primal copies keep the source's exact
    arithmetic; only the tangent/adjoint products and accumulations built here and by the modes carry it, which
    takes the multiply-add latency off loop-carried adjoint and tangent chains."""
    return ir.Attribute.parse("#arith.fastmath<contract>")


def apply(partial, v):
    """partial * v for a partial from PARTIALS (v is a tangent or an adjoint of the right type)."""
    if partial is ONE:
        return v
    if partial is MINUS_ONE:
        return arith.negf(v)
    return arith.mulf(partial, v, fastmath=contract())


def accumulate(a, b):
    """a + b for tangent/adjoint contributions: contractible with the product that feeds it (see contract) and
    reassociable. The program fixes no order in which the contributions to one adjoint are summed (Enzyme's own
    order is just that of the reverse sweep), so LLVM may sum an adjoint accumulated over a loop (the adjoint of
    a loop-invariant value, e.g. of the norm in out[i] = in[i] / norm) in vector lanes instead of one serial
    chain; the sum differs from the sequential one by rounding only."""
    return arith.addf(a, b, fastmath=ir.Attribute.parse("#arith.fastmath<reassoc,contract>"))


def convert(v, to_type):
    """A tangent/adjoint converted across extf/truncf."""
    if v.type == to_type:
        return v
    return arith.extf(to_type, v) if to_type.width > v.type.width else arith.truncf(to_type, v)
