"""C++ expressions of CUDA host code that C has no counterpart for: ``new T[n]``, ``new T``/``new T(v)``,
``delete``/``delete[]``. They are the C allocator's calls (malloc/free) on arrays of numbers, so the memory is
the same memrefs that ``malloc`` gives C programs. Installed as ``expr_*`` methods of codegen.FunctionGen (its
expression dispatch finds them by cursor kind); classes, constructors and placement new are errors.
"""

from __future__ import annotations

from mlir import ir
from mlir.dialects import arith, memref

from ..clang_ast import K, canonical, children
from . import c_types as CT
from .codegen import FunctionGen


def _is_array_new(e) -> bool:
    """`new T[n]` (not `new T` or `new T(v)`): a '[' after `new` before any '('; libclang shows both forms as
    a CXX_NEW_EXPR with the count or the initializer as its child."""
    for t in list(e.get_tokens())[1:]:
        if t.spelling in ("[", "(", "{"):
            return t.spelling == "["
    return False


def expr_CXX_NEW_EXPR(self: FunctionGen, e):
    """``new T[n]`` / ``new T`` / ``new T(v)`` for a number type T: malloc of the bytes, a pointer memref."""
    ty = canonical(e.type)
    elem = canonical(ty.get_pointee())
    if not CT.is_arith(elem):
        raise self.unsupported(e, f"new of '{ty.get_pointee().spelling}' (only arrays of numbers)")
    args = [c for c in children(e) if c.kind.is_expression()]
    i64 = ir.IntegerType.get_signless(64)
    size = arith.constant(i64, elem.get_size())
    array = _is_array_new(e)
    if array:
        if not args:
            raise self.unsupported(e, "new[] without a size")
        count = self.mg.builtins.size_arg(self, args[0])
        if len(args) > 1:
            raise self.unsupported(args[1], "an initializer of new[]")
        size = arith.muli(size, count)
    elif len(args) > 1:
        raise self.unsupported(e, "placement new or several initializers")
    raw = self.mg.builtins.libc("malloc", CT.llvm_ptr(), [size])
    m = self.coerce_pointer(raw, ty)
    if not array and args:  # new T(v)
        init = args[0]
        if init.kind == K.PAREN_EXPR or init.kind == K.INIT_LIST_EXPR:
            inner = [c for c in children(init) if c.kind.is_expression()]
            if len(inner) != 1:
                raise self.unsupported(init, "this initializer of new")
            init = inner[0]
        v = self.convert(self.rvalue(init), init.type, elem, init)
        memref.StoreOp(CT.as_stored(v, m), m, [self.const_index(0)])
    return m


def expr_CXX_DELETE_EXPR(self: FunctionGen, e):
    """``delete p`` / ``delete[] p`` of a number array: free (the memory came from malloc, see new)."""
    target = [c for c in children(e) if c.kind.is_expression()]
    pointee = canonical(canonical(target[0].type).get_pointee()) if target else None
    if pointee is None or not (CT.is_arith(pointee) or pointee.kind.name == "VOID"):
        raise self.unsupported(e, "delete of this type (only arrays of numbers)")
    self.mg.builtins.libc("free", None, [self.raw_pointer(target[0])])
    return None


FunctionGen.expr_CXX_NEW_EXPR = expr_CXX_NEW_EXPR
FunctionGen.expr_CXX_DELETE_EXPR = expr_CXX_DELETE_EXPR
