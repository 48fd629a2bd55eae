"""gcc's N-bit types of wide bit-fields in arithmetic (`unsigned long long x:40`).

The C standard leaves the type of a bit-field wider than int to the implementation. gcc gives the field an
integer type of exactly its width: it is not promoted (its precision exceeds int's), the usual arithmetic
conversions pick the operand of greater precision (unsigned on a tie), and the operation wraps at that
precision, so `x.b << 32` is 0 for a 40-bit field and `(s.b - 8) + 8` wraps at 2^40. Clang computes in the
declared 64-bit type instead. The walker keeps clang's 64-bit values and reduces them to gcc's N bits (zero-
or sign-extended back to 64) where gcc's result type is such an N-bit type.
"""

from __future__ import annotations

from mlir import ir
from mlir.dialects import arith

from ..clang_ast import K, T, canonical, children, unary_op
from . import c_types as CT
from .scan import _MEMO

_ARITH = {"Add", "Sub", "Mul", "Div", "Rem", "And", "Or", "Xor"}
_COMPARE = {"LT", "GT", "LE", "GE", "EQ", "NE"}
INT_BITS = 32
_MISSING = object()  # (gcc_type's memo: None is an answer)


def _clang_type(e):
    """(precision, unsigned) of a promoted integer expression as clang types it, or None if not an integer."""
    ty = canonical(e.type)
    if not CT.is_int(ty) or ty.kind == T.ENUM:
        return (INT_BITS, False) if ty.kind == T.ENUM else None
    bits = ty.get_size() * 8
    if bits < INT_BITS or ty.kind == T.BOOL:
        return (INT_BITS, False)
    return (bits, CT.is_unsigned(ty))


def common(a, b):
    """gcc's usual arithmetic conversions of two (precision, unsigned) integer types: the greater precision,
    unsigned when equal (gcc's c_common_type)."""
    if a is None or b is None:
        return None
    if a[0] != b[0]:
        return a if a[0] > b[0] else b
    return (a[0], a[1] or b[1])


def gcc_type(e):
    """(precision, unsigned) of integer expression cursor `e` in gcc's view (after integer promotion), or None
    for a non-integer. Differs from clang's only through wide bit-fields.

    Memoized per node for the translation unit being walked (scan.py's memo, cleared per unit): the walker asks
    it of every integer binary operator, and each answer looks at the whole operand subtree, so a chain
    `x + x + ... + x` of n terms cost O(n^2) cursor visits (1,000 terms: 20 s of CPU in the walk). The key is the
    cursor's own fields, which libclang's clang_equalCursors compares (no foreign call)."""
    key = ("gcc_type", e._kind_id, e.xdata, *e.data)
    got = _MEMO.get(key, _MISSING)
    if got is _MISSING:
        got = _MEMO[key] = _gcc_type(e)
    return got


def _gcc_type(e):
    """gcc_type(e), computed (its operands' through the memo)."""
    k = e.kind
    if k == K.PAREN_EXPR or (k == K.UNEXPOSED_EXPR and len(children(e)) == 1):
        inner = children(e)[0]
        if k == K.PAREN_EXPR:
            return gcc_type(inner)
        t, clang = gcc_type(inner), _clang_type(e)
        # (an implicit widening: clang's usual arithmetic conversions, which gcc does not make)
        return t if t is not None and clang is not None and t[0] <= clang[0] else clang
    if k == K.MEMBER_REF_EXPR:
        f = e.referenced
        if f is not None and f.kind == K.FIELD_DECL and f.is_bitfield():
            w = f.get_bitfield_width()
            full = canonical(f.type).get_size() * 8
            if INT_BITS < w < full and CT.is_int(canonical(f.type)):
                return (w, CT.is_unsigned(canonical(f.type)))
        return _clang_type(e)
    if k == K.BINARY_OPERATOR:
        op = e.binary_operator.name
        ch = children(e)
        if op in _ARITH and CT.is_int(canonical(e.type)):
            return common(gcc_type(ch[0]), gcc_type(ch[1]))
        if op in ("Shl", "Shr"):
            return gcc_type(ch[0])
        if op == "Comma":
            return gcc_type(ch[1])
        if op == "Assign":
            return gcc_type(ch[0])
        return _clang_type(e)
    if k == K.COMPOUND_ASSIGNMENT_OPERATOR:
        return gcc_type(children(e)[0])
    if k == K.UNARY_OPERATOR and unary_op(e) in ("-", "~", "+", "pre++", "pre--", "post++", "post--"):
        return gcc_type(children(e)[0])
    if k == K.CONDITIONAL_OPERATOR and len(children(e)) == 3:
        ch = children(e)
        return common(gcc_type(ch[1]), gcc_type(ch[2]))
    return _clang_type(e)


def narrow_type(e):
    """gcc's (precision, unsigned) of `e` when it is a bit-field type narrower than clang's 64-bit type for the
    same expression, else None."""
    t = gcc_type(e)
    clang = _clang_type(e)
    if t is None or clang is None or t[0] >= clang[0]:
        return None
    return t


def operand_type(e, op):
    """The narrow type binary operator cursor `e` (operator name `op`) computes in, or None: for a comparison
    the common type of its operands, else its own type."""
    if op in _COMPARE:
        a, b = children(e)
        t = common(gcc_type(a), gcc_type(b))
        clang = _clang_type(a)
        return t if t is not None and clang is not None and t[0] < clang[0] else None
    return narrow_type(e)


def reduce(v, t):
    """64-bit integer Value `v` reduced to gcc's type `t` = (precision, unsigned): truncated to the precision,
    then zero- or sign-extended back to v's width."""
    w, unsigned = t
    narrow = ir.IntegerType.get_signless(w)
    cut = arith.trunci(narrow, v)
    return arith.extui(v.type, cut) if unsigned else arith.extsi(v.type, cut)
