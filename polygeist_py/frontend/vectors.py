"""GCC vector extensions: ``vector_size`` / ``ext_vector_type`` values as MLIR ``vector<NxT>``.

What gcc documents ("Using Vector Instructions through Built-in Functions") and clang implements, which the
x86 intrinsic headers are written in: element-wise arithmetic, bitwise, shift and comparison operators
(a comparison gives 0 / -1 per element, in a signed integer vector of the operands' element width), a scalar
operand splatted to every element, ``v[i]`` reads and writes, brace initializers (missing elements zero),
casts between vectors of the same size (the bits, reinterpreted), ``__builtin_shufflevector`` and
``__builtin_convertvector``. Values are ``arith``/``vector`` ops on vectors; element reads and writes are
``llvm.extractelement``/``llvm.insertelement`` (a run-time index).

In memory a vector is raw bytes (llvm_memory): a pointer to vectors is an ``!llvm.ptr``, and loads and stores
through it say alignment 1. That is what ``__m128i_u`` (``aligned(1)``) and the packed structs of
``_mm_loadu_si128`` mean, and it is never wrong for an aligned ``__m128i *`` (x86 has no slower unaligned
vector moves when the address is aligned; canonical types do not carry a typedef's alignment).

Each function takes the FunctionGen `gen` first (as complex_values and gnu_atomics do).
"""

from __future__ import annotations

from mlir import ir
from mlir.dialects import arith, llvm, vector

from ..clang_ast import K, T, canonical, children, evaluate, strip_implicit
from ..errors import CompileError, error_at
from . import c_types as CT

SHUFFLE = "__builtin_shufflevector"
CONVERT = "__builtin_convertvector"


def element_ctype(ty):
    """The canonical clang type of one element of vector type `ty`."""
    return canonical(canonical(ty).element_type)


def zero(ty) -> ir.Value:
    """The all-zero vector of C vector type `ty`."""
    vt = CT.vector_type(ty)
    elem = vt.element_type
    z = arith.constant(elem, 0.0) if isinstance(elem, ir.FloatType) else arith.constant(elem, 0)
    return vector.BroadcastOp(vt, z).result


def splat(gen, v, src, dst, cursor=None):
    """Scalar `v` of C type `src` in every element of vector type `dst` (C's conversion of a scalar operand)."""
    s = gen.convert(v, src, element_ctype(dst), cursor)
    return vector.BroadcastOp(CT.vector_type(dst), s).result


def bitcast(v, to: ir.Type):
    """The same bits as MLIR type `to` (vector or scalar of the same size)."""
    if v.type == to:
        return v
    if isinstance(v.type, ir.VectorType) and isinstance(to, ir.VectorType):
        return vector.BitCastOp(to, v).result
    return llvm.BitcastOp(to, v).result


def convert(gen, v, src, dst, cursor=None):
    """C conversion with a vector on either side, as clang makes it implicitly: scalar -> vector splats (an
    operand of a vector operator); vector -> vector or scalar of the same size reinterprets the bits (gcc's
    lax conversions between vector types).

    Raises CompileError (at `cursor`) for sizes that differ."""
    src, dst = canonical(src), canonical(dst)
    if CT.is_vector(dst) and CT.is_arith(src):
        return splat(gen, v, src, dst, cursor)
    return reinterpret(v, src, dst, cursor)


def explicit_cast(gen, v, src, dst, cursor):
    """`(T)x` with a vector on either side: the same bits (gcc: a cast between a vector and a vector or
    scalar of the same size); a scalar cast to a vector of another size splats it (clang's ext_vector_type)."""
    src, dst = canonical(src), canonical(dst)
    if dst.kind == T.VOID:  # `(void)v`
        return v
    if CT.is_vector(dst) and CT.is_arith(src) and CT.size_of(src) != CT.size_of(dst):
        return splat(gen, v, src, dst, cursor)
    return reinterpret(v, src, dst, cursor)


def reinterpret(v, src, dst, cursor):
    """Value `v` of C type `src` as C type `dst` of the same size (vector or scalar): the same bits.

    Raises CompileError (at `cursor`) when the sizes differ or `dst` is neither."""
    if CT.size_of(src) != CT.size_of(dst) or not (CT.is_vector(dst) or CT.is_arith(dst)):
        msg = f"unsupported conversion from '{src.spelling}' to '{dst.spelling}'"
        raise error_at(cursor, msg) if cursor is not None else CompileError(msg)
    return bitcast(v, CT.value_type(dst))


INT_OPS = {"Add": arith.addi, "Sub": arith.subi, "Mul": arith.muli, "And": arith.andi, "Or": arith.ori,
           "Xor": arith.xori, "Shl": arith.shli}
FLOAT_OPS = {"Add": arith.addf, "Sub": arith.subf, "Mul": arith.mulf, "Div": arith.divf}
COMPARES = ("LT", "GT", "LE", "GE", "EQ", "NE")


def operands(gen, a, b, ty):
    """Both operands of a binary operator as vectors of `ty` (clang has splatted a scalar operand already;
    a shift's scalar count it leaves scalar)."""
    va, vb = gen.rvalue(a), gen.rvalue(b)
    if not CT.is_vector(b.type):
        vb = splat(gen, vb, b.type, ty, b)
    if not CT.is_vector(a.type):
        va = splat(gen, va, a.type, ty, a)
    return va, vb


def arith_op(gen, op, va, vb, ty, e):
    """`va op vb` element-wise on vectors of C type `ty` (int: wrap-around; shifts: the count element-wise)."""
    elem = element_ctype(ty)
    if CT.is_float(elem):
        f = FLOAT_OPS.get(op)
        if f is None:
            raise gen.unsupported(e, f"operator {op} on a floating-point vector")
        return f(va, vb)
    u = CT.is_unsigned(elem)
    if vb.type != va.type:  # (a shift count vector of another element width)
        vt = ir.VectorType(va.type)
        w_b = ir.VectorType(vb.type).element_type.width
        vb = arith.extui(vt, vb) if w_b < vt.element_type.width else arith.trunci(vt, vb)
    f = INT_OPS.get(op) or {"Div": arith.divui if u else arith.divsi, "Rem": arith.remui if u else arith.remsi,
                            "Shr": arith.shrui if u else arith.shrsi}.get(op)
    if f is None:
        raise gen.unsupported(e, f"operator {op} on a vector")
    return f(va, vb)


def compare(op, va, vb, operand_ty, result_ty):
    """`va op vb` element-wise: -1 (all bits set) where true, 0 where false, as vector type `result_ty`."""
    elem = element_ctype(operand_ty)
    if CT.is_float(elem):
        pred = {"LT": "OLT", "GT": "OGT", "LE": "OLE", "GE": "OGE", "EQ": "OEQ", "NE": "UNE"}[op]
        m = arith.cmpf(getattr(arith.CmpFPredicate, pred), va, vb)
    else:
        u = CT.is_unsigned(elem)
        pred = {"LT": "ult" if u else "slt", "GT": "ugt" if u else "sgt", "LE": "ule" if u else "sle",
                "GE": "uge" if u else "sge", "EQ": "eq", "NE": "ne"}[op]
        m = arith.cmpi(getattr(arith.CmpIPredicate, pred), va, vb)
    return arith.extsi(CT.vector_type(result_ty), m)


def binary(gen, op, a, b, e):
    """A binary operator with a vector operand (expr_BINARY_OPERATOR's hook)."""
    ty = canonical(e.type)
    if op in ("LAnd", "LOr"):
        raise gen.unsupported(e, f"operator {'&&' if op == 'LAnd' else '||'} on vectors")
    operand_ty = a.type if CT.is_vector(a.type) else b.type
    va, vb = operands(gen, a, b, operand_ty)
    if op in COMPARES:
        return compare(op, va, vb, operand_ty, ty)
    return arith_op(gen, op, va, vb, ty, e)


def compound(gen, op, a, b, e):
    """`a op= b` on a vector lvalue `a` (expr_COMPOUND_ASSIGNMENT_OPERATOR's hook); returns the new value."""
    ty = canonical(a.type)
    if not CT.is_vector(ty):
        raise gen.unsupported(e, f"compound assignment of a vector to '{a.type.spelling}'")
    lv = gen.lvalue(a)
    cur = gen.load(lv)
    vb = gen.rvalue(b)
    if not CT.is_vector(b.type):
        vb = splat(gen, vb, b.type, ty, b)
    v = arith_op(gen, op, cur, vb, ty, e)
    stored = gen.store(lv, v)
    return v if stored is None else stored


def unary(gen, op, a, e):
    """`-v`, `+v`, `~v`, `!v`, `++v`, `v--`... element-wise (expr_UNARY_OPERATOR's hook; `!v` is `v == 0`)."""
    ty = canonical(e.type)
    if op in ("pre++", "pre--", "post++", "post--"):
        lv = gen.lvalue(a)
        old = gen.load(lv)
        one = splat(gen, gen.const_int(_int(), 1), _int(), ty, e)
        new = arith_op(gen, "Add" if "++" in op else "Sub", old, one, ty, e)
        gen.store(lv, new)
        return new if op.startswith("pre") else old
    if op == "+":
        return gen.rvalue(a)
    if op in ("-", "~", "!"):
        v = gen.rvalue(a)
        z = zero(a.type)
        if op == "!":
            return compare("EQ", v, z, a.type, ty)
        if op == "-":
            return arith.negf(v) if CT.is_float(element_ctype(ty)) else arith.subi(z, v)
        if CT.is_float(element_ctype(ty)):
            raise gen.unsupported(e, "operator ~ on a floating-point vector")
        ones = vector.BroadcastOp(v.type, arith.constant(ir.VectorType(v.type).element_type, -1)).result
        return arith.xori(v, ones)
    raise gen.unsupported(e, f"operator {op} on a vector")


# ------------------------------------------------------------------ elements
def element_lvalue(gen, e, base, index):
    """`v[i]` of vector lvalue `base`: ("vecelt", base lvalue, i64 index, element type)."""
    i = gen.convert(gen.rvalue(index), index.type, _long(), index)
    return ("vecelt", gen.lvalue(base), i, element_ctype(base.type))


def _int():
    from .values import ci_uint
    return ci_uint()


def _long():
    from .values import ci_long
    return ci_long()


def load_element(gen, lv):
    """The value of a ("vecelt", ...) lvalue: element i of the vector."""
    _, base, i, _elem = lv
    return llvm.ExtractElementOp(gen.load(base), i).result


def store_element(gen, lv, v):
    """`v[i] = x`: the whole vector, element i replaced, written back."""
    _, base, i, _elem = lv
    gen.store(base, llvm.InsertElementOp(gen.load(base), v, i).result)


def subscript_rvalue(gen, e, base, index):
    """`v[i]` of any vector expression (also a non-lvalue, e.g. a call's result)."""
    i = gen.convert(gen.rvalue(index), index.type, _long(), index)
    return llvm.ExtractElementOp(gen.rvalue(base), i).result


# ------------------------------------------------------------------ memory
def load(p, ty):
    """A vector of C type `ty` at !llvm.ptr `p` (any alignment)."""
    vol = True if canonical(ty).is_volatile_qualified() else None
    return llvm.LoadOp(CT.vector_type(ty), p, alignment=1, volatile_=vol).result


def store(p, ty, v):
    """Store vector `v` of C type `ty` at !llvm.ptr `p` (any alignment)."""
    vol = True if canonical(ty).is_volatile_qualified() else None
    llvm.StoreOp(v, p, alignment=1, volatile_=vol)


# ------------------------------------------------------------------ initializers and builtins
def init_list(gen, e, ty):
    """`{a, b, ...}` of vector type `ty`: elements converted, missing ones zero; a vector item supplies
    as many elements as it has (clang allows that for extended vectors)."""
    vt = CT.vector_type(ty)
    elem = element_ctype(ty)
    parts = []
    for item in children(e):
        if CT.is_vector(item.type):
            v = gen.rvalue(item)
            n = canonical(item.type).element_count
            parts += [llvm.ExtractElementOp(v, gen.const_int(_long(), k)).result for k in range(n)]
        else:
            parts.append(gen.convert(gen.rvalue(item), item.type, elem, item))
    n = vt.shape[0]
    if len(parts) > n:
        raise gen.unsupported(e, "vector initializer with too many elements")
    parts += [gen.zero(elem)] * (n - len(parts))
    return vector.FromElementsOp(vt, parts).result


def constant_elements(e):
    """The element initializers of a vector global's initializer `e` (a brace list, maybe inside a compound
    literal or a cast of one) and their C type (the innermost list's element type: a cast reinterprets the
    bytes); raises CompileError at `e` for anything else (a vector-valued call...)."""
    s = strip_implicit(e)
    while s.kind in (K.COMPOUND_LITERAL_EXPR, K.CSTYLE_CAST_EXPR, K.PAREN_EXPR) and children(s):
        s = strip_implicit([c for c in children(s) if c.kind.is_expression()][-1])
    if s.kind != K.INIT_LIST_EXPR:
        raise error_at(e, "unsupported construct: vector initializer of a global that is not a brace list")
    if not CT.is_vector(s.type):
        raise error_at(e, "unsupported construct: vector initializer of a global that is not a brace list")
    return children(s), element_ctype(s.type)


def first_token(e):
    """The spelling of the first token of cursor `e` (None when it has none)."""
    t = next(iter(e.get_tokens()), None)
    return t.spelling if t is not None else None


def _span(c):
    return (c.extent.start.file.name if c.extent.start.file else None, c.extent.start.offset, c.extent.end.offset)


def builtin_kind(e):
    """SHUFFLE / CONVERT for an UNEXPOSED_EXPR that is `__builtin_shufflevector(...)` /
    `__builtin_convertvector(...)`, else None. (libclang has no cursor kind for them: an implicit cast spans
    exactly its operand, a builtin call more; the first token names the builtin unless a macro wrote it.)"""
    if not CT.is_vector(e.type):
        return None
    ch = children(e)
    if not ch or len(ch) == 1 and _span(ch[0]) == _span(e):
        return None  # an implicit conversion (also one of a builtin's result: the same first token)
    tok = first_token(e)
    if tok in (SHUFFLE, CONVERT):
        return tok
    if len(ch) == 1 and CT.is_vector(ch[0].type) and \
            canonical(ch[0].type).element_count == canonical(e.type).element_count:
        return CONVERT
    if len(ch) >= 3 and CT.is_vector(ch[0].type) and all(evaluate(c) is not None for c in ch[2:]):
        return SHUFFLE
    return None


def shufflevector(gen, e):
    """`__builtin_shufflevector(a, b, i...)`: element k of the result is element i_k of a ++ b (-1: any)."""
    ch = children(e)
    a, b = ch[0], ch[1]
    idx = []
    for c in ch[2:]:
        k = evaluate(c)
        if not isinstance(k, int):
            raise gen.unsupported(c, "shuffle index that is not an integer constant")
        idx.append(k)
    va, vb = gen.rvalue(a), gen.rvalue(b)
    if va.type != vb.type:
        raise gen.unsupported(e, "__builtin_shufflevector of vectors of different types")
    return shuffle(va, vb, idx)


def shuffle(va, vb, idx):
    """vector.shuffle of two vectors of one type by constant indices (-1: undefined)."""
    n = 2 * ir.VectorType(va.type).shape[0]
    idx = [k if 0 <= k < n else -1 for k in idx]
    if -1 in idx:  # (undefined lanes: take lane 0, a defined value, rather than poison)
        idx = [0 if k == -1 else k for k in idx]
    return vector.ShuffleOp(va, vb, idx).result


def cast_elements(v, src_elem, dst_elem, dst_vt):
    """Element-wise C conversion of vector `v` (elements of C type `src_elem`) to vector type `dst_vt`
    (elements `dst_elem`): as a scalar conversion, per element."""
    s_t, d_t = ir.VectorType(v.type).element_type, dst_vt.element_type
    if s_t == d_t:
        return v
    if CT.is_float(dst_elem):
        if isinstance(s_t, ir.IntegerType):
            return (arith.uitofp if CT.is_unsigned(src_elem) else arith.sitofp)(dst_vt, v)
        return (arith.extf if ir.FloatType(d_t).width > ir.FloatType(s_t).width else arith.truncf)(dst_vt, v)
    if isinstance(s_t, ir.IntegerType):
        if d_t.width > s_t.width:
            return (arith.extui if CT.is_unsigned(src_elem) else arith.extsi)(dst_vt, v)
        return arith.trunci(dst_vt, v) if d_t.width < s_t.width else v
    return (arith.fptoui if CT.is_unsigned(dst_elem) else arith.fptosi)(dst_vt, v)


def convertvector(gen, e):
    """`__builtin_convertvector(v, T)`: each element converted as C converts a scalar."""
    src = children(e)[0]
    v = gen.rvalue(src)
    return cast_elements(v, element_ctype(src.type), element_ctype(e.type), CT.vector_type(e.type))


def unexposed(gen, e):
    """expr_UNEXPOSED_EXPR's hook: a shuffle or conversion builtin's value, or None for anything else."""
    kind = builtin_kind(e)
    if kind == SHUFFLE:
        return shufflevector(gen, e)
    if kind == CONVERT:
        return convertvector(gen, e)
    return None


def is_vector_subscript(e) -> bool:
    """Whether ARRAY_SUBSCRIPT_EXPR `e` subscripts a vector (not an array or pointer)."""
    base = children(e)[0]
    return CT.is_vector(strip_implicit(base).type) or CT.is_vector(base.type)
