"""Derivative rules of the scalar (elementwise) ops of arith and math: one rule per op, keyed by op name.

A rule maps the primal operands and result of one op to the partial derivatives of the result with respect to
each operand (JAX's linear "jvp" rules written as partials). Both modes read this one table:

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


def const(like, v: float):
    """An f32/f64 constant of the type of `like`."""
    return arith.constant(like.type, float(v))


def op1(name, x):
    return ir.Operation.create(name, [x.type], [x]).result


def mul(a, b):
    return arith.mulf(a, b)


def div(a, b):
    return arith.divf(a, b)


def sq(a):
    return arith.mulf(a, a)


def _sign_select(x):
    # d|x|/dx: +1 for x >= 0 (Enzyme's choice at 0 is also +1), -1 below
    neg = arith.cmpf(arith.CmpFPredicate.OLT, x, const(x, 0.0))
    return arith.select(neg, const(x, -1.0), const(x, 1.0))


def _max_min(pred):
    def rule(xs, r):
        a, b = xs
        take_a = arith.cmpf(pred, a, b)
        one, zero = const(a, 1.0), const(a, 0.0)
        return [arith.select(take_a, one, zero), arith.select(take_a, zero, one)]
    return rule


def _powf(xs, r):
    a, b = xs
    # d/da a^b = b a^(b-1); d/db a^b = a^b log a (taken as 0 where a <= 0, where Enzyme's log gives NaN/-inf only
    # when the exponent is active: the common constant-exponent case stays finite)
    da = mul(b, ir.Operation.create("math.powf", [a.type], [a, arith.subf(b, const(b, 1.0))]).result)
    pos = arith.cmpf(arith.CmpFPredicate.OGT, a, const(a, 0.0))
    safe = arith.select(pos, a, const(a, 1.0))
    db = arith.select(pos, mul(r, op1("math.log", safe)), const(a, 0.0))
    return [da, db]


def _fpowi(xs, r):
    a, n = xs  # math.fpowi: float base, integer exponent
    nf = arith.sitofp(a.type, n)
    return [mul(nf, ir.Operation.create("math.fpowi", [a.type], [a, arith.subi(n, arith.constant(n.type, 1))]).result),
            None]


def _atan2(xs, r):
    y, x = xs
    d = arith.addf(sq(x), sq(y))
    return [div(x, d), arith.negf(div(y, d))]


def _copysign(xs, r):
    a, b = xs
    # |a| with b's sign: derivative sign(a)*sign(b) w.r.t. a, 0 w.r.t. b
    return [mul(_sign_select(a), _sign_select(b)), None]


def _remf(xs, r):
    a, b = xs  # fmod: r = a - b*trunc(a/b)
    return [ONE, arith.negf(op1("math.trunc", div(a, b)))]


def _fma(xs, r):
    a, b, c = xs
    return [b, a, ONE]


PARTIALS = {
    # arith
    "arith.addf": lambda xs, r: [ONE, ONE],
    "arith.subf": lambda xs, r: [ONE, MINUS_ONE],
    "arith.mulf": lambda xs, r: [xs[1], xs[0]],
    "arith.divf": lambda xs, r: [div(const(r, 1.0), xs[1]), arith.negf(div(r, xs[1]))],
    "arith.negf": lambda xs, r: [MINUS_ONE],
    "arith.remf": _remf,
    "arith.maxnumf": _max_min(arith.CmpFPredicate.OGE),
    "arith.maximumf": _max_min(arith.CmpFPredicate.OGE),
    "arith.minnumf": _max_min(arith.CmpFPredicate.OLE),
    "arith.minimumf": _max_min(arith.CmpFPredicate.OLE),
    # math
    "math.sqrt": lambda xs, r: [div(const(r, 0.5), r)],
    "math.rsqrt": lambda xs, r: [div(mul(const(r, -0.5), r), xs[0])],
    "math.cbrt": lambda xs, r: [div(r, mul(const(r, 3.0), xs[0]))],
    "math.exp": lambda xs, r: [r],
    "math.exp2": lambda xs, r: [mul(r, const(r, pymath.log(2.0)))],
    "math.expm1": lambda xs, r: [arith.addf(r, const(r, 1.0))],
    "math.log": lambda xs, r: [div(const(r, 1.0), xs[0])],
    "math.log2": lambda xs, r: [div(const(r, 1.0 / pymath.log(2.0)), xs[0])],
    "math.log10": lambda xs, r: [div(const(r, 1.0 / pymath.log(10.0)), xs[0])],
    "math.log1p": lambda xs, r: [div(const(r, 1.0), arith.addf(xs[0], const(r, 1.0)))],
    "math.sin": lambda xs, r: [op1("math.cos", xs[0])],
    "math.cos": lambda xs, r: [arith.negf(op1("math.sin", xs[0]))],
    "math.tan": lambda xs, r: [arith.addf(const(r, 1.0), sq(r))],
    "math.sinh": lambda xs, r: [op1("math.cosh", xs[0])],
    "math.cosh": lambda xs, r: [op1("math.sinh", xs[0])],
    "math.tanh": lambda xs, r: [arith.subf(const(r, 1.0), sq(r))],
    "math.atan": lambda xs, r: [div(const(r, 1.0), arith.addf(const(r, 1.0), sq(xs[0])))],
    "math.asin": lambda xs, r: [div(const(r, 1.0), op1("math.sqrt", arith.subf(const(r, 1.0), sq(xs[0]))))],
    "math.acos": lambda xs, r: [div(const(r, -1.0), op1("math.sqrt", arith.subf(const(r, 1.0), sq(xs[0]))))],
    "math.erf": lambda xs, r: [mul(const(r, 2.0 / pymath.sqrt(pymath.pi)),
                                   op1("math.exp", arith.negf(sq(xs[0]))))],
    "math.absf": lambda xs, r: [_sign_select(xs[0])],
    "math.powf": _powf,
    "math.fpowi": _fpowi,
    "math.atan2": _atan2,
    "math.copysign": _copysign,
    "math.fma": _fma,
    "arith.extf": lambda xs, r: ["convert"],
    "arith.truncf": lambda xs, r: ["convert"],
    # piecewise constant: zero derivative
    "math.floor": lambda xs, r: [None],
    "math.ceil": lambda xs, r: [None],
    "math.round": lambda xs, r: [None],
    "math.roundeven": lambda xs, r: [None],
    "math.trunc": lambda xs, r: [None],
}
# extf/truncf change the type: their "partial" is a conversion of the tangent/adjoint, not a product
CONVERT = "convert"


def apply(partial, v):
    """partial * v for a partial from PARTIALS (v is a tangent or an adjoint of the right type)."""
    if partial is ONE:
        return v
    if partial is MINUS_ONE:
        return arith.negf(v)
    return arith.mulf(partial, v)


def convert(v, to_type):
    """A tangent/adjoint converted across extf/truncf."""
    if v.type == to_type:
        return v
    return arith.extf(to_type, v) if to_type.width > v.type.width else arith.truncf(to_type, v)
