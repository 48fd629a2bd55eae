"""Derivative rules of C math library functions that stay calls (libm functions without a math-dialect op).

The frontend lowers most of math.h to math/arith ops (partials.PARTIALS differentiates those); `hypot`, `erfc`,
`tgamma`, `lgamma`, `remainder`, `ldexp`, `frexp`, `fma`, `fdim`, `exp10`, the inverse hyperbolic functions,
`logb`/`rint`/`nearbyint` (piecewise constant), the Bessel functions `j0`/`j1`/`y0`/`y1` (and the float `...f` forms;
`__builtin_<f>` is a call of f) reach AD as func.call of the library function. LIBM_PARTIALS gives their partial
derivatives in the form of partials.PARTIALS, so both modes use them like an op's: ``rule(k, x, r, t)`` -> the
partial of the result with respect to operand k (None: zero, e.g. the integer exponent of ldexp).

The derivatives of lgamma and tgamma need the digamma function psi, which libm lacks: `digamma` emits (once per
module) a private function computing it by the reflection formula psi(x) = psi(1-x) - pi/tan(pi x) for x < 1/2,
the recurrence psi(x) = psi(x+1) - 1/x up to x >= 10, then the asymptotic series
psi(x) ~ ln x - 1/(2x) - sum B_2k / (2k x^2k) (Abramowitz & Stegun 6.3.7, 6.3.5, 6.3.18; error below 1e-14
there).
"""

from __future__ import annotations

import math as pymath

from mlir import ir
from mlir.dialects import arith, func

from . import partials as P


def _module_body():
    """The body of the module enclosing the current insertion point."""
    op = ir.InsertionPoint.current.block.owner.operation
    while op.name != "builtin.module":
        op = op.parent
    return op.regions[0].blocks[0]


def _declared(name, ftype):
    """Declare private function `name` of type `ftype` in the current module unless it is there."""
    body = _module_body()
    for o in body.operations:
        if o.operation.name == "func.func" and ir.StringAttr(o.attributes["sym_name"]).value == name:
            return
    with ir.InsertionPoint.at_block_begin(body), ir.Location.unknown():
        func.FuncOp(name, ftype, visibility="private")


def libm_call(name, args, t):
    """A call of C library function `name` on `args` returning type `t` (declared when missing)."""
    _declared(name, ir.FunctionType.get([a.type for a in args], [t]))
    return func.CallOp([t], ir.FlatSymbolRefAttr.get(name), args).results[0]


DIGAMMA = "__pgcc_digamma"
_DIGAMMA_TEXT = """
func.func private @__pgcc_digamma(%x: f64) -> f64 {
  %half = arith.constant 0.5 : f64
  %one = arith.constant 1.0 : f64
  %zero = arith.constant 0.0 : f64
  %ten = arith.constant 10.0 : f64
  %pi = arith.constant 3.141592653589793 : f64
  %refl = arith.cmpf olt, %x, %half : f64
  %omx = arith.subf %one, %x : f64
  %y0 = arith.select %refl, %omx, %x : f64
  %pix = arith.mulf %pi, %x : f64
  %tn = math.tan %pix : f64
  %cot = arith.divf %pi, %tn : f64
  %corr = arith.select %refl, %cot, %zero : f64
  %r:2 = scf.while (%y = %y0, %acc = %zero) : (f64, f64) -> (f64, f64) {
    %c = arith.cmpf olt, %y, %ten : f64
    scf.condition(%c) %y, %acc : f64, f64
  } do {
  ^bb0(%y: f64, %acc: f64):
    %inv = arith.divf %one, %y : f64
    %a2 = arith.subf %acc, %inv : f64
    %y2 = arith.addf %y, %one : f64
    scf.yield %y2, %a2 : f64, f64
  }
  %iy = arith.divf %one, %r#0 : f64
  %z = arith.mulf %iy, %iy : f64
  %c5 = arith.constant 0.007575757575757576 : f64
  %c4 = arith.constant 0.004166666666666667 : f64
  %c3 = arith.constant 0.003968253968253968 : f64
  %c2 = arith.constant 0.008333333333333333 : f64
  %c1 = arith.constant 0.08333333333333333 : f64
  %p4 = arith.mulf %z, %c5 : f64
  %q4 = arith.subf %c4, %p4 : f64
  %p3 = arith.mulf %z, %q4 : f64
  %q3 = arith.subf %c3, %p3 : f64
  %p2 = arith.mulf %z, %q3 : f64
  %q2 = arith.subf %c2, %p2 : f64
  %p1 = arith.mulf %z, %q2 : f64
  %q1 = arith.subf %c1, %p1 : f64
  %ser = arith.mulf %z, %q1 : f64
  %ln = math.log %r#0 : f64
  %h = arith.mulf %half, %iy : f64
  %s1 = arith.subf %ln, %h : f64
  %s2 = arith.subf %s1, %ser : f64
  %s3 = arith.addf %s2, %r#1 : f64
  %res = arith.subf %s3, %corr : f64
  return %res : f64
}
"""


def digamma(x):
    """psi(x) (the derivative of lgamma) of an f32/f64 value, by a call of the module's digamma function."""
    body = _module_body()
    if not any(o.operation.name == "func.func" and ir.StringAttr(o.attributes["sym_name"]).value == DIGAMMA
               for o in body.operations):
        parsed = ir.Module.parse(_DIGAMMA_TEXT)
        with ir.InsertionPoint.at_block_begin(body):
            for o in parsed.body.operations:
                o.operation.clone()
    f64 = ir.F64Type.get()
    wide = x if x.type == f64 else arith.extf(f64, x)
    r = func.CallOp([f64], ir.FlatSymbolRefAttr.get(DIGAMMA), [wide]).results[0]
    return r if x.type == f64 else arith.truncf(x.type, r)


def _hypot(k, x, r, t):
    # d hypot(a, b)/da = a / hypot(a, b); 0 at the origin (where hypot has no derivative), as |x| at 0 has 1
    zero = P.const(t, 0.0)
    at0 = arith.cmpf(arith.CmpFPredicate.OEQ, r(), zero)
    return arith.select(at0, zero, P.div(x(k), r()))


def _remainder(k, x, r, t):
    # remainder(a, b) = a - b*n with n the integer nearest a/b, read back as (a - r)/b
    return P.ONE if k == 0 else arith.negf(P.op1("math.roundeven", P.div(arith.subf(x(0), r()), x(1))))


def _ldexp(k, x, r, t):
    # ldexp(a, n) = a * 2^n: 2^n w.r.t. a, nothing w.r.t. the integer n
    if k != 0:
        return None
    return libm_call("ldexp" if t == ir.F64Type.get() else "ldexpf", [P.const(t, 1.0), x(1)], t)


def _frexp(k, x, r, t):
    # frexp(a, &e) = a * 2^-e exactly, so its derivative r/a is exact; 1 at a = 0 (where e = 0)
    if k != 0:
        return None
    zero = P.const(t, 0.0)
    at0 = arith.cmpf(arith.CmpFPredicate.OEQ, x(0), zero)
    return arith.select(at0, P.const(t, 1.0), P.div(r(), x(0)))


def _erfc(k, x, r, t):
    return P.mul(P.const(t, -2.0 / pymath.sqrt(pymath.pi)), P.op1("math.exp", arith.negf(P.sq(x(0)))))


def _fdim(k, x, r, t):
    # fdim(a, b) = max(a - b, 0)
    above = arith.cmpf(arith.CmpFPredicate.OGT, x(0), x(1))
    one, zero = P.const(t, 1.0), P.const(t, 0.0)
    return arith.select(above, one, zero) if k == 0 else arith.select(above, P.const(t, -1.0), zero)


def _bessel(name):
    """j0' = -j1, y0' = -y1; j1' = j0 - j1/x, y1' = y0 - y1/x (A&S 9.1.28, 9.1.27)."""
    def rule(k, x, r, t):
        f = "" if t == ir.F64Type.get() else "f"
        kind = name[0]
        if name[1] == "0":
            return arith.negf(libm_call(f"{kind}1{f}", [x(0)], t))
        return arith.subf(libm_call(f"{kind}0{f}", [x(0)], t), P.div(r(), x(0)))
    return rule


# C name (double form) -> rule(k, x, r, t) as in partials.PARTIALS
LIBM_PARTIALS = {
    "asinh": lambda k, x, r, t: P.div(P.const(t, 1.0), P.op1("math.sqrt", arith.addf(P.sq(x(0)), P.const(t, 1.0)))),
    "acosh": lambda k, x, r, t: P.div(P.const(t, 1.0), P.op1("math.sqrt", arith.subf(P.sq(x(0)), P.const(t, 1.0)))),
    "atanh": lambda k, x, r, t: P.div(P.const(t, 1.0), arith.subf(P.const(t, 1.0), P.sq(x(0)))),
    # (piecewise constant: a zero derivative, as Enzyme gives)
    "logb": lambda k, x, r, t: None,
    "rint": lambda k, x, r, t: None,
    "nearbyint": lambda k, x, r, t: None,
    "j0": _bessel("j0"), "j1": _bessel("j1"), "y0": _bessel("y0"), "y1": _bessel("y1"),
    "hypot": _hypot,
    "erfc": _erfc,
    "lgamma": lambda k, x, r, t: digamma(x(0)),
    "tgamma": lambda k, x, r, t: P.mul(r(), digamma(x(0))),
    "remainder": _remainder,
    "ldexp": _ldexp,
    "scalbn": _ldexp,
    "frexp": _frexp,
    "fma": lambda k, x, r, t: P.ONE if k == 2 else x(1 - k),
    "fdim": _fdim,
    "exp10": lambda k, x, r, t: P.mul(r(), P.const(t, pymath.log(10.0))),
}
# libm functions of floats whose results are integers and which write nothing: inactive (derivative zero)
INTEGER_RESULTS = {n + f for n in ("lround", "llround", "lrint", "llrint", "ilogb") for f in ("", "f")}
# the functions above with an integer (or pointer to integer) argument
INTEGER_ARGUMENTS = {"ldexp", "scalbn", "frexp"}
# the functions above that write through a pointer argument (an int: never differentiated)
WRITES_INT = {"frexp", "frexpf"}
NAMES = set(LIBM_PARTIALS) | {n + "f" for n in LIBM_PARTIALS}


def base_name(name):
    """'hypotf' -> 'hypot'; None for a name that is not in LIBM_PARTIALS (in double or float form)."""
    if name in LIBM_PARTIALS:
        return name
    if name.endswith("f") and name[:-1] in LIBM_PARTIALS:
        return name[:-1]
    return None


def is_libm_call(session, op) -> bool:
    """Whether func.call `op` calls a libm function of LIBM_PARTIALS that has no body in this module."""
    name = op.attributes["callee"].value
    if name not in NAMES:
        return False
    f = session.funcs.get(name)
    return f is None or not len(f.regions[0].blocks)


def call_partials(op, primal, result):
    """[(operand index, partial, float type)] of a libm call `op` (is_libm_call) at the primal values
    `primal(v)`, its result given by `result()`.

    Raises:
        CompileError: the call's result is not a float of the function's type.
    """
    from polygeist_py.errors import error_at_op
    from .activity import is_float
    name = op.attributes["callee"].value
    rule = LIBM_PARTIALS[base_name(name)]
    if len(op.results) != 1 or not is_float(op.results[0].type):
        raise error_at_op(op, f"unsupported construct: differentiating a call of '{name}' declared with a "
                              "non-floating-point result")
    t = op.results[0].type
    out = []
    for k, v in enumerate(op.operands):
        if not is_float(v.type):
            if base_name(name) not in INTEGER_ARGUMENTS:
                raise error_at_op(op, f"unsupported construct: differentiating '{name}' with a "
                                      "non-floating-point argument")
            continue
        part = rule(k, lambda i: primal(op.operands[i]), result, t)
        if part is not None:
            out.append((k, part, t))
    return out
