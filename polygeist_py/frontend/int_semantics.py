"""C integer semantics on x86-64 (LP64, as gcc): integer promotions and the usual arithmetic conversions.

Clang makes most conversions explicit as implicit-cast nodes, so binary operators see operands already
converted. Two places where it does not are the walker's own business: the computation type of a compound
assignment (`u8 += 300`, `i16 >>= 9`, `int x; x /= 2u`), which libclang does not expose, and conversions the
walker introduces itself. The types returned here are stand-ins with the clang Type interface the walker and
c_types use (`kind`, `get_canonical()`, `get_size()`); only width and signedness matter to the generated code.
"""

from __future__ import annotations

from ..clang_ast import T, canonical, evaluate, record_decl
from . import c_types as CT


class IntType:
    """A builtin integer or floating type built by the walker (stand-in for a clang Type)."""

    def __init__(self, kind, size):
        self.kind = kind
        self._size = size
        self.spelling = kind.name.lower()

    def get_canonical(self):
        return self

    def get_size(self):
        return self._size

    def is_const_qualified(self):
        return False


INT = IntType(T.INT, 4)
UINT = IntType(T.UINT, 4)
LONG = IntType(T.LONG, 8)
ULONG = IntType(T.ULONG, 8)
LONGLONG = IntType(T.LONGLONG, 8)
ULONGLONG = IntType(T.ULONGLONG, 8)

# conversion rank (C11 6.3.1.1): bool < char < short < int < long < long long
RANK = {T.BOOL: 0, T.CHAR_S: 1, T.SCHAR: 1, T.CHAR_U: 1, T.UCHAR: 1, T.SHORT: 2, T.USHORT: 2, T.INT: 3,
        T.UINT: 3, T.ENUM: 3, T.LONG: 4, T.ULONG: 4, T.LONGLONG: 5, T.ULONGLONG: 5, T.INT128: 6, T.UINT128: 6}
UINT128 = IntType(T.UINT128, 16)
UNSIGNED_OF = {T.INT: UINT, T.ENUM: UINT, T.LONG: ULONG, T.LONGLONG: ULONGLONG, T.INT128: UINT128}


def promote(ty):
    """Integer promotion: types of rank below int become int (every value of them fits in int on x86-64);
    other types are returned unchanged (canonical)."""
    c = canonical(ty)
    if c.kind == T.ENUM:  # as its integer type (int, unsigned int or a 64-bit type, from its values)
        return promote(record_decl(c).enum_type)
    if c.kind in RANK and RANK[c.kind] < RANK[T.INT]:
        return INT
    return c


def common_type(a, b):
    """The usual arithmetic conversions (C11 6.3.1.8) of arithmetic types `a` and `b`: the type both operands
    are converted to and the arithmetic is done in.

    Raises:
        ValueError: when either type is not arithmetic.
    """
    a, b = canonical(a), canonical(b)
    if not (CT.is_arith(a) and CT.is_arith(b)):
        raise ValueError("usual arithmetic conversions of a non-arithmetic type")
    if CT.is_float(a) or CT.is_float(b):
        fa = CT.FLOAT_BITS.get(a.kind, 0)
        fb = CT.FLOAT_BITS.get(b.kind, 0)
        return a if fa >= fb else b
    a, b = promote(a), promote(b)
    if a.kind == b.kind:
        return a
    ua, ub = CT.is_unsigned(a), CT.is_unsigned(b)
    if ua == ub:
        return a if RANK[a.kind] >= RANK[b.kind] else b
    u, s = (a, b) if ua else (b, a)
    if RANK[u.kind] >= RANK[s.kind]:
        return u
    if s.get_size() > u.get_size():  # the signed type holds every value of the unsigned one
        return s
    return UNSIGNED_OF[s.kind]


def compound_computation_type(op: str, lhs_ty, rhs_ty):
    """The type `lhs op= rhs` computes in: the promoted lhs for shifts, else the usual arithmetic conversions."""
    if op in ("Shl", "Shr"):
        return promote(lhs_ty)
    return common_type(lhs_ty, rhs_ty)


def counted_compare_ok(var_ty, compare_ty, step: int, bound) -> bool:
    """Whether `for (...; i < bound; i += step)` on a variable of type `var_ty`, whose test compares in type
    `compare_ty` (after the usual conversions), can run as a counted loop over the mathematical integers.

    It cannot when the test is done in another type (a narrow `i` is promoted, so `u8 < 300` never fails and
    `i` wraps; an unsigned test wraps a negative `i`), except a wider signed one (`int i < long n`: `i` cannot
    step past INT_MAX without undefined behaviour, and the bound is used at its own width), nor when an unsigned `i` could step past the bound and wrap:
    for a step other than +-1 the bound must be a constant at least |step| below the type's maximum.
    `bound`: the bound expression (a libclang cursor)."""
    v, c = canonical(var_ty), canonical(compare_ty)
    if not (CT.is_int(v) and CT.is_int(c)) or v.get_size() < 4 or CT.is_unsigned(v) != CT.is_unsigned(c):
        return False
    if v.get_size() != c.get_size() and not (wider_signed(c, v)):
        return False
    if CT.is_unsigned(v) and abs(step) != 1:
        n = evaluate(bound)
        if not isinstance(n, int) or n + abs(step) >= 1 << (8 * v.get_size()):
            return False
    return True


def wider_signed(ty, than) -> bool:
    """Whether `ty` and `than` are signed integer types and `ty` is the wider."""
    a, b = canonical(ty), canonical(than)
    return CT.is_int(a) and CT.is_int(b) and not CT.is_unsigned(a) and not CT.is_unsigned(b) and \
        a.get_size() > b.get_size()
