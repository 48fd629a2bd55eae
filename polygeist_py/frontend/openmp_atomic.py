"""`#pragma omp atomic read|write|capture` (OpenMP 4.5 section 2.13.6) on memory -> memref.atomic_rmw; the
update form is openmp.emit_atomic."""

from __future__ import annotations

from mlir.dialects import arith, memref

from ..clang_ast import K, canonical, children, strip_implicit, unary_op
from . import c_types as CT
from . import openmp as O
from .values import Binding, MemLV, VarLV


def emit_atomic_form(gen, stmt, d) -> None:
    """`#pragma omp atomic read|write|capture` on memory: read as an atomic read-modify-write that keeps the value,
    write as one that replaces it (memref.atomic_rmw: `or 0` / `add -0.0`, `assign`), capture as one that updates
    it and hands back the old or new value.

    Raises:
        CompileError: another statement form, `atomic compare`, a target that is not in memory.
    """
    if d.name == "atomic compare":
        raise O.unsupported("atomic compare", d.where)
    e = strip_implicit(stmt)
    if d.name == "atomic read":
        v, x = _assignment(e)
        if x is None:
            raise O.unsupported(d.name, d.where, "the statement must be `v = x;`")
        ty = canonical(x.type)  # x + -0.0 is x, x | 0 is x: the old value, read atomically
        zero = arith.constant(CT.scalar_type(ty), -0.0) if CT.is_float(ty) else gen.const_int(ty, 0)
        _assign(gen, v, _rmw(gen, x, d, "add" if CT.is_float(ty) else "or", zero), x.type)
        return
    if d.name == "atomic write":
        x, val = _assignment(e)
        if x is None:
            raise O.unsupported(d.name, d.where, "the statement must be `x = expr;`")
        ty = canonical(x.type)
        new = gen.convert(gen.rvalue(val), val.type, ty, val)
        _rmw(gen, x, d, "assign", new)
        return
    # capture: `v = x op= e`, `v = x++`, `v = ++x`, `{v = x; x op= e;}`, `{x op= e; v = x;}`
    if e.kind == K.COMPOUND_STMT:
        parts = [strip_implicit(s) for s in children(e) if s.kind != K.NULL_STMT]
        if len(parts) == 2:
            a, b = _assignment(parts[0]), _assignment(parts[1])
            if a[0] is not None and O.atomic_update(parts[1]) is not None and _same(a[1], O.atomic_update(parts[1])[0]):
                return _capture(gen, a[0], parts[1], d, new=False)
            if b[0] is not None and O.atomic_update(parts[0]) is not None and _same(b[1], O.atomic_update(parts[0])[0]):
                return _capture(gen, b[0], parts[0], d, new=True)
    else:
        v, upd = _assignment(e)
        if v is not None and O.atomic_update(upd) is not None:
            u = strip_implicit(upd)
            new = not (u.kind == K.UNARY_OPERATOR and unary_op(u) in ("post++", "post--"))
            return _capture(gen, v, upd, d, new=new)
    raise O.unsupported(d.name, d.where, "the statement must be `v = x op= e`, `v = x++`, `v = ++x`, "
                                         "`{v = x; x op= e;}` or `{x op= e; v = x;}`")


def _assignment(e):
    e = strip_implicit(e)
    if e.kind == K.BINARY_OPERATOR and e.binary_operator.name == "Assign":
        a, b = children(e)
        return a, b
    return None, None


def _same(a, b) -> bool:
    """Whether two lvalue expressions are spelled the same (the `x` of a capture block)."""
    return [t.spelling for t in a.get_tokens()] == [t.spelling for t in b.get_tokens()]


def _rmw(gen, x, d, kind: str, value):
    """One memref.atomic_rmw of `kind` (an arith.AtomicRMWKind name without the i/f suffix: add, and, or, xor,
    assign) with `value` on memory lvalue `x`; returns the old value. (memref.generic_atomic_rmw would take
    any computation, but its lowering cannot split the blocks of structured loops around it.)

    Raises:
        CompileError: `x` not in memory, or not of an arithmetic type."""
    lv = gen.lvalue(x)
    if not isinstance(lv, MemLV):
        raise O.unsupported(d.name, d.where, f"'{' '.join(t.spelling for t in x.get_tokens())}' is not "
                                             "shared memory (an array element, a global or a shared variable)")
    ty = canonical(x.type)
    if not CT.is_arith(ty) or CT.is_bool(ty) or CT.is_float(ty) and kind in ("and", "or", "xor"):
        raise O.unsupported(d.name, d.where, f"on '{x.type.spelling}'")
    name = kind if kind == "assign" else kind + ("f" if CT.is_float(ty) else "i")
    return memref.AtomicRMWOp(getattr(arith.AtomicRMWKind, name), value, lv.memref,
                              gen.index_values(lv.indices)).result


def _capture(gen, v, upd_stmt, d, new: bool) -> None:
    target, opname, value = O.atomic_update(upd_stmt)
    ty = canonical(target.type)
    if value is None:
        val = gen.const_int(ty, 1) if CT.is_int(ty) else arith.constant(CT.scalar_type(ty), 1.0)
    else:
        if not O.exact_update(ty, value.type):
            raise O.unsupported(d.name, d.where, f"an update of '{target.type.spelling}' by a value of type "
                                                 f"'{value.type.spelling}'")
        val = gen.convert(gen.rvalue(value), value.type, ty, value)
    kind = {"+=": "add", "++": "add", "-=": "add", "--": "add", "&=": "and", "|=": "or", "^=": "xor"}.get(opname)
    if kind is None:
        raise O.unsupported(d.name, d.where, f"a capture of '{opname}'")
    if opname in ("-=", "--"):
        val = arith.negf(val) if CT.is_float(ty) else arith.subi(gen.const_int(ty, 0), val)
    old = _rmw(gen, target, d, kind, val)
    if new:
        f = CT.is_float(ty)
        old = {"add": arith.addf if f else arith.addi, "and": arith.andi, "or": arith.ori, "xor": arith.xori}[kind](
            old, val)
    _assign(gen, v, old, target.type)


def _assign(gen, v, value, from_type) -> None:
    lv = gen.lvalue(v)
    val = gen.convert(value, from_type, v.type, v)
    if isinstance(lv, VarLV):
        gen.env[lv.key] = Binding(val)
    else:
        gen.store(lv, val)
