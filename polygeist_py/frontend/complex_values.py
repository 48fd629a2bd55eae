"""C99 complex values (`double _Complex`, `float _Complex`): MLIR `complex<f64>`/`complex<f32>` values.

A complex value is built and taken apart with the `complex` dialect (create/re/im, lowered by the upstream
complex-to-LLVM patterns); arithmetic is done on the parts with `arith`, as gcc does at -O0/-O2 without
-ffast-math: `+`/`-` part by part, a real operand (clang leaves it real) touching only the parts it meets,
complex `*` as gcc's inline textbook product with libgcc's __muldc3/__mulsc3 when both parts come out NaN,
complex `/` always through __divdc3/__divsc3 (C11 G.5.1's infinity and NaN recovery, as gcc calls them).
In memory a complex object is its real part then its imaginary part (memref elements of complex type, or two
floats in raw LLVM memory). At a function boundary (x86-64 System V) a `double _Complex` is a struct of two
doubles (two SSE registers, returned in xmm0:xmm1; in memory when fewer than two SSE registers are left) and a
`float _Complex` one SSE register holding both floats (clang's `<2 x float>`). `long double _Complex` is not
translated (c_types.is_complex is false for it, so every use is an error).
"""

from __future__ import annotations

import math
from fractions import Fraction
from typing import NamedTuple

from mlir import ir
from mlir.dialects import arith, complex as cplx, llvm, scf, vector

from ..clang_ast import K, T, canonical, children, evaluate, strip_implicit, unary_op
from ..errors import error_at
from . import c_types as CT
from . import x87

# libgcc's complex multiplication/division helpers, by part type
HELPERS = {"mul": {64: "__muldc3", 32: "__mulsc3", 80: "__mulxc3"}, "div": {64: "__divdc3", 32: "__divsc3",
                                                                         80: "__divxc3"}}


def part_ctype(ty):
    """The clang type of each part of complex type `ty` (float or double)."""
    return canonical(canonical(ty).element_type)


def parts(v):
    """(real, imaginary) MLIR values of complex value `v`."""
    return cplx.ReOp(v).result, cplx.ImOp(v).result


def complex_type(t) -> ir.Type:
    """complex<t> for MLIR float type `t` (parsed: ComplexType.get rejects f80, which has no Python class)."""
    return ir.Type.parse(f"complex<{t}>")


def make(re, im):
    """The complex value with parts `re`, `im` (MLIR floats of one type)."""
    return cplx.CreateOp(complex_type(re.type), re, im).result


def from_abi(v, ty):
    """A complex argument or call result as received at the boundary (float complex: a vector<2xf32>)."""
    if isinstance(v.type, ir.VectorType):
        return make(vector.extract(v, [], [0]), vector.extract(v, [], [1]))
    return v


def to_abi(v, ty):
    """A complex value as passed at a function boundary (see from_abi)."""
    t = CT.abi_type(ty)
    if isinstance(t, ir.VectorType):
        re, im = parts(v)
        return vector.FromElementsOp(t, [re, im]).result
    return v


def llvm_type(t):
    """MLIR type `t` as an LLVM dialect type for llvm.call: complex<fN> -> !llvm.struct<(fN, fN)>."""
    if isinstance(t, ir.ComplexType):
        e = ir.ComplexType(t).element_type
        return ir.Type.parse(f"!llvm.struct<({e}, {e})>")
    return t


def to_llvm(v):
    """Value `v` as an llvm.call operand (a complex: the LLVM struct of its parts, see llvm_type)."""
    if not isinstance(v.type, ir.ComplexType):
        return v
    re, im = parts(v)
    s = llvm.UndefOp(llvm_type(v.type)).result
    return llvm.InsertValueOp(llvm.InsertValueOp(s, re, [0]).result, im, [1]).result


def from_llvm(v, t):
    """An llvm.call result `v` as MLIR type `t` (the inverse of to_llvm)."""
    if not isinstance(t, ir.ComplexType):
        return v
    e = ir.ComplexType(t).element_type
    return make(llvm.ExtractValueOp(e, v, [0]).result, llvm.ExtractValueOp(e, v, [1]).result)


def zero(ty):
    """+0 + 0i of complex C type `ty`."""
    t = CT.scalar_type(part_ctype(ty))
    z = arith.constant(t, 0.0)
    return make(z, z)


def convert(fg, v, src, dst, cursor=None):
    """C conversion of `v` from `src` to `dst` where one of them is complex (C11 6.3.1.7): a real becomes the
    real part (imaginary part +0), a complex becomes its real part, to _Bool both parts are tested."""
    src, dst = canonical(src), canonical(dst)
    if CT.is_complex(src) and CT.is_complex(dst):
        pt = part_ctype(src)
        re, im = parts(v)
        return make(fg.convert(re, pt, part_ctype(dst), cursor), fg.convert(im, pt, part_ctype(dst), cursor))
    if CT.is_complex(dst):
        re = fg.convert(v, src, part_ctype(dst), cursor)
        return make(re, arith.constant(re.type, 0.0))
    if dst.kind == T.BOOL:
        return to_bool(v)
    re, _ = parts(v)
    return fg.convert(re, part_ctype(src), dst, cursor)


def to_bool(v):
    """`z != 0`: either part nonzero (unordered: a NaN part is true)."""
    re, im = parts(v)
    z = arith.constant(re.type, 0.0)
    return arith.ori(arith.cmpf(arith.CmpFPredicate.UNE, re, z), arith.cmpf(arith.CmpFPredicate.UNE, im, z))


def split(v):
    """(real, imaginary or None) of operand `v`, a complex value or a real one (which has no imaginary part)."""
    return parts(v) if isinstance(v.type, ir.ComplexType) else (v, None)


def binary(fg, op, va, vb):
    """`va op vb` for op in + - * / == != where either operand is complex (the other one a real of the part
    type, as clang's usual arithmetic conversions leave it). Returns a complex value, or an i1 for == and !=.
    Raises KeyError for any other op (the caller reports it)."""
    (a, b), (c, d) = split(va), split(vb)
    t = a.type
    zero_ = arith.constant(t, 0.0)
    if op in ("==", "!="):
        b, d = (zero_ if x is None else x for x in (b, d))
        eq = arith.andi(arith.cmpf(arith.CmpFPredicate.OEQ, a, c), arith.cmpf(arith.CmpFPredicate.OEQ, b, d))
        return eq if op == "==" else arith.xori(eq, arith.constant(ir.IntegerType.get_signless(1), 1))
    if op == "+":
        im = d if b is None else b if d is None else arith.addf(b, d)
        return make(arith.addf(a, c), im)
    if op == "-":
        im = arith.negf(d) if b is None else b if d is None else arith.subf(b, d)
        return make(arith.subf(a, c), im)
    if op == "*":
        if b is None:
            return make(arith.mulf(a, c), arith.mulf(a, d))
        if d is None:
            return make(arith.mulf(a, c), arith.mulf(b, c))
        return product(fg, a, b, c, d)
    if op == "/":
        if d is None:
            return make(arith.divf(a, c), arith.divf(b, c))
        return helper(fg, "div", a, b if b is not None else zero_, c, d)
    raise KeyError(op)


def _part_type(v):
    return ir.ComplexType(v.type).element_type if isinstance(v.type, ir.ComplexType) else v.type


def _widen(v, t):
    if _part_type(v) == t:
        return v
    if isinstance(v.type, ir.ComplexType):
        re, im = parts(v)
        return make(arith.extf(t, re), arith.extf(t, im))
    return arith.extf(t, v)


def common(va, vb):
    """Floating operands `va`, `vb` (real or complex) with parts of their wider float type (the computation
    type of a compound assignment such as `zf *= zd` or `x += z`)."""
    ta, tb = _part_type(va), _part_type(vb)
    t = ta if ir.FloatType(ta).width >= ir.FloatType(tb).width else tb
    return _widen(va, t), _widen(vb, t)


def narrow(v, ty):
    """Complex value `v` (parts possibly wider) as the value of lvalue type `ty`: complex (parts truncated)
    or real (its real part, C11 6.3.1.7)."""
    t = CT.scalar_type(part_ctype(ty)) if CT.is_complex(ty) else CT.scalar_type(ty)
    re, im = parts(v)
    if re.type != t:
        re, im = arith.truncf(t, re), arith.truncf(t, im)
    return make(re, im) if CT.is_complex(ty) else re


def product(fg, a, b, c, d):
    """(a+bi)(c+di) as gcc computes it: the textbook formula, and libgcc's __muldc3 (which recomputes it and
    recovers infinities, C11 G.5.1) only when both parts of that are NaN."""
    re = arith.subf(arith.mulf(a, c), arith.mulf(b, d))
    im = arith.addf(arith.mulf(a, d), arith.mulf(b, c))
    both_nan = arith.andi(arith.cmpf(arith.CmpFPredicate.UNO, re, re), arith.cmpf(arith.CmpFPredicate.UNO, im, im))
    t = complex_type(a.type)
    op = scf.IfOp(both_nan, [t], has_else=True)
    with ir.InsertionPoint(op.then_block):
        scf.YieldOp([helper(fg, "mul", a, b, c, d)])
    with ir.InsertionPoint(op.else_block):
        scf.YieldOp([make(re, im)])
    return op.results[0]


def helper(fg, kind, a, b, c, d):
    """libgcc's __muldc3/__divdc3 (or the float forms) on parts a+bi, c+di."""
    width = ir.FloatType(a.type).width
    ret = ir.VectorType.get([2], a.type) if width == 32 else complex_type(a.type)
    return from_abi(fg.mg.builtins.libc(HELPERS[kind][width], ret, [a, b, c, d]), None)


def negate(v):
    """-z: both parts negated."""
    re, im = parts(v)
    return make(arith.negf(re), arith.negf(im))


def conjugate(v):
    """conj(z) (and GNU's ~z): the imaginary part negated."""
    re, im = parts(v)
    return make(re, arith.negf(im))


# ---------------------------------------------------------------- complex.h functions gcc expands itself
def creal_like(which):
    """creal/cimag (and f forms, `__builtin_` forms): a part of the argument (clang made it complex)."""
    def handler(fg, call, args):
        v = fg.rvalue(args[0])
        return parts(v)[which]
    return handler


def conj_builtin(fg, call, args):
    """conj/conjf (also `__builtin_` forms): see conjugate."""
    return conjugate(fg.rvalue(args[0]))


def build(fg, call, args):
    """`__builtin_complex(re, im)` (C11's CMPLX): the parts as given, with no arithmetic (so a NaN or an infinity
    stays as it is, which `re + im * I` does not guarantee)."""
    if not CT.is_complex(call.type):
        raise error_at(call, f"unsupported construct: a complex value of type '{call.type.spelling}'")
    pt = part_ctype(call.type)
    return make(fg.convert(fg.rvalue(args[0]), args[0].type, pt, args[0]),
                fg.convert(fg.rvalue(args[1]), args[1].type, pt, args[1]))


BUILTINS = {
    "__builtin_complex": build,
    **{p + n + s: creal_like(0) for p in ("", "__builtin_") for n in ("creal",) for s in ("", "f", "l")},
    **{p + n + s: creal_like(1) for p in ("", "__builtin_") for n in ("cimag",) for s in ("", "f", "l")},
    **{p + "conj" + s: conj_builtin for p in ("", "__builtin_") for s in ("", "f", "l")},
}

# libm's complex functions, callable as `__builtin_<name>` too (a call of the library function)
LIBM_COMPLEX = [n + s for n in ("cabs carg cexp clog csqrt cpow csin ccos ctan csinh ccosh ctanh casin cacos "
                                "catan casinh cacosh catanh cproj").split() for s in ("", "f")]


# ---------------------------------------------------------------- constants of globals' initializers
def constant(e):
    """The value of constant expression `e` (complex or real) for a global's initializer: literals, imaginary
    literals (`I`), CMPLX, casts, unary -/+, and + - * / of constants, part by part as `binary` computes them at
    run time (a real operand has no imaginary part: `-3.0 * I` is -0 - 3i); the parts are rounded to the
    expression's type. A Python complex, or for `long double _Complex` an ExactComplex of Fractions (x87
    extended parts, each operation rounded to it: a double would round `1.0L / 3` twice).

    Raises:
        CompileError: an expression that is not such a constant."""
    re, im = _constant(e)
    if isinstance(re, Fraction) or isinstance(im, Fraction):
        return ExactComplex(_exact(re), _exact(0 if im is None else im))
    return complex(re, 0.0 if im is None else im)


class ExactComplex(NamedTuple):
    """A `long double _Complex` constant: exact real and imaginary parts (Fractions; an infinity or NaN part is a
    float)."""
    real: Fraction
    imag: Fraction


def _is_long_double(ty) -> bool:
    c = canonical(ty)
    return c.kind == T.LONGDOUBLE or c.kind == T.COMPLEX and part_ctype(c).kind == T.LONGDOUBLE


def _constant(e):
    """(real, imaginary or None for a real value) of constant expression `e` (see constant): floats, or
    Fractions under a long double type."""
    s = strip_implicit(e)
    while s.kind in (K.PAREN_EXPR, K.CSTYLE_CAST_EXPR) or s.kind == K.UNEXPOSED_EXPR and len(children(s)) == 1:
        s = strip_implicit(children(s)[-1])
    exact = _is_long_double(e.type)
    if s.kind == K.IMAGINARY_LITERAL:
        re, im = 0.0, _constant(children(s)[0])[0]
    elif s.kind == K.CALL_EXPR and s.spelling == "__builtin_complex":  # CMPLX(x, y)
        re, im = (_constant(x)[0] for x in s.get_arguments())
    elif s.kind == K.UNARY_OPERATOR and unary_op(s) in ("-", "+", "__extension__"):
        re, im = _constant(children(s)[0])
        if unary_op(s) == "-":
            re, im = _negated(re), None if im is None else _negated(im)
    elif s.kind == K.BINARY_OPERATOR and s.binary_operator.name in ("Add", "Sub", "Mul", "Div"):
        (a, b), (c, d) = (_constant(x) for x in children(s))
        if exact:  # (exact operands, each result rounded below: Fraction arithmetic never meets a float)
            a, b, c, d = (None if x is None else Fraction(x) for x in (a, b, c, d))
        op = s.binary_operator.name
        if op == "Add":
            re, im = a + c, d if b is None else b if d is None else b + d
        elif op == "Sub":
            re, im = a - c, (None if d is None else -d) if b is None else b if d is None else b - d
        elif op == "Mul":
            if b is None or d is None:
                re, im = a * c, (None if d is None else a * d) if b is None else b * c
            elif exact:
                re, im = x87.rounded(x87.rounded(a * c) - x87.rounded(b * d)), \
                    x87.rounded(x87.rounded(a * d) + x87.rounded(b * c))
            else:
                re, im = a * c - b * d, a * d + b * c
        elif d is not None:
            raise error_at(e, "unsupported construct: division by a complex number in a global's initializer")
        elif exact and c == 0:
            raise error_at(e, "unsupported construct: division by zero in a long double initializer")
        else:
            re, im = a / c, None if b is None else b / c
    elif canonical(s.type).kind == T.LONGDOUBLE:  # (clang evaluates in double: the literal's own text)
        re, im = _exact(x87.exact_constant(s, evaluate, error_at)), None
    else:
        r = evaluate(s) if not CT.is_complex(s.type) else None
        if not isinstance(r, (int, float)):
            raise error_at(e, "unsupported construct: non-constant initializer of a complex global")
        re, im = float(r), None
    ty = canonical(e.type)
    if CT.is_complex(ty) and part_ctype(ty).kind == T.FLOAT or ty.kind == T.FLOAT:
        re, im = _to_f32(re), None if im is None else _to_f32(im)
    elif exact:
        re, im = _rounded(re), None if im is None else _rounded(im)
    if CT.is_complex(ty) and im is None:
        im = 0.0
    return re, im


def _negated(v):
    """-v, where the negation of an exact zero (a Fraction has no sign) is the float -0.0 (`-0.0L`)."""
    return -0.0 if isinstance(v, Fraction) and v == 0 else -v


def _special(v) -> bool:
    """Whether number `v` is a float that a Fraction cannot hold: an infinity, a NaN or -0.0."""
    return isinstance(v, float) and (not math.isfinite(v) or v == 0 and math.copysign(1.0, v) < 0)


def _exact(v):
    """A Fraction of number `v`, or `v` itself when it is an infinity, NaN or -0.0 (a float: x87.value_bits
    encodes it)."""
    return v if _special(v) else Fraction(v)


def _rounded(v):
    """`v` rounded to long double (x87.rounded), or `v` itself when it is an infinity, NaN or -0.0."""
    return v if _special(v) else x87.rounded(Fraction(v))


def _to_f32(x: float) -> float:
    import struct
    return struct.unpack("f", struct.pack("f", x))[0]


def check_array_initializer(d, mtype, vals):
    """An array of `long double _Complex` (memref `mtype`) whose initial values `vals` hold a part that is not a
    double: an error at declaration `d`, since MLIR's translation of such an array's dense attribute to LLVM
    rounds every part to double (a scalar's it keeps exact).

    Raises:
        CompileError."""
    if not mtype.shape or str(ir.ComplexType(mtype.element_type).element_type) != "f80":
        return
    for v in vals:
        for part in (v.real, v.imag):
            if Fraction(part) != Fraction(float(part)):
                raise error_at(d, "unsupported construct: an array of long double _Complex initialized with a "
                                  "part that is not a double (it would be rounded to double)")


def dense_attribute(shape, elem, vals):
    """The text of a dense attribute of complex type `elem` and `shape` holding Python numbers `vals`
    (row-major)."""
    def text(v):
        if str(ir.ComplexType(elem).element_type) == "f80":  # (exact parts: their x87 bits)
            return f"(0x{x87.value_bits(v.real):020X}, 0x{x87.value_bits(v.imag):020X})"
        v = complex(v)
        return f"({part(v.real)}, {part(v.imag)})"

    def part(x: float) -> str:  # (an infinity or NaN as its bits: MLIR's parser reads no `inf`/`nan` literal)
        if math.isfinite(x):
            return repr(x)
        size = 4 if str(ir.ComplexType(elem).element_type) == "f32" else 8
        return f"0x{int.from_bytes(CT.float_bytes(x, size), 'little'):0{2 * size}X}"
    if all(v == vals[0] for v in vals):
        return f"dense<{text(vals[0])}>"

    def nested(flat, dims):
        if not dims:
            return text(flat[0])
        step = len(flat) // dims[0]
        return "[" + ", ".join(nested(flat[i * step:(i + 1) * step], dims[1:]) for i in range(dims[0])) + "]"
    return f"dense<{nested(list(vals), list(shape))}>"


def global_op(module, name, mtype, vis, init_text, constant, alignment):
    """Insert `memref.global` @name of complex element type with initializer text `init_text` (dense_attribute)
    at the current insertion point (the Python bindings cannot hold a complex DenseElementsAttr)."""
    text = (f'memref.global {chr(34) + vis + chr(34) + " " if vis else ""}{"constant " if constant else ""}'
            f'@{name} : {mtype} = {init_text} {{alignment = {alignment} : i64}}')
    op = ir.Operation.parse(text)
    ir.InsertionPoint.current.insert(op)
