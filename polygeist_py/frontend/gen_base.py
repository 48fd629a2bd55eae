"""The base of the FunctionGen mixins: source locations, errors, constants, index conversions, entry allocas.

Every other mixin (decls, stmts, loops, exprs, lvalues, pointers, cuda_device, cxx, cxx_classes, llvm_memory)
relies on these small builders through ``self``; none of them is imported by another mixin module.
"""

from __future__ import annotations

from mlir import ir
from mlir.dialects import arith, llvm, memref

from ..clang_ast import T, canonical, is_va_arg
from ..errors import CompileError, error_at
from . import complex_values
from . import c_types as CT
from . import vectors


class GenBase:
    """Mixin for FunctionGen: locations and errors, constants and index casts (state: see codegen.FunctionGen)."""

    # ---------------------------------------------------------------- locations and errors
    def loc(self, c) -> ir.Location:
        f = c.location.file
        return ir.Location.file(f.name if f else self.mg.filename, c.location.line, c.location.column)

    def error(self, c, msg):
        return error_at(c, msg)

    def unsupported(self, c, what=None):
        if what is None and is_va_arg(c):  # libclang has no name for it
            what = f"va_arg of type '{c.type.spelling}'"
        return error_at(c, f"unsupported construct: {what or c.kind.name.lower().replace('_', ' ')}")

    # ---------------------------------------------------------------- small builders
    def const_int(self, ty, v):
        t = ty if isinstance(ty, ir.Type) else CT.scalar_type(ty)
        if not isinstance(t, (ir.IntegerType, ir.IndexType)):  # MLIR would abort the process (an assertion)
            raise TypeError(f"integer constant of type {t}")
        return arith.ConstantOp(t, CT.integer_attribute(t, int(v))).result

    def const_index(self, v):
        return arith.constant(ir.IndexType.get(), int(v))

    def const_bool(self, v):
        return arith.constant(ir.IntegerType.get_signless(1), 1 if v else 0)

    def zero(self, ty):
        ty = canonical(ty)
        if CT.is_float(ty):
            return arith.constant(CT.scalar_type(ty), 0.0)
        if CT.is_int(ty):
            return self.const_int(ty, 0)
        if CT.is_complex(ty):
            return complex_values.zero(ty)
        if ty.kind == T.POINTER:
            return self.null_pointer(ty)
        if CT.is_vector(ty):
            return vectors.zero(ty)
        if CT.is_reference(ty):  # a returned reference before `return` sets it
            return llvm.ZeroOp(CT.llvm_ptr()).result
        raise CompileError(f"unsupported type '{ty.spelling}'")

    def null_pointer(self, ty):
        p = llvm.ZeroOp(CT.llvm_ptr()).result
        if not CT.pointee_is_memref(ty):
            return p
        # a null pointer to VLA rows is never indexed: its run-time dims are placeholders (variables keep theirs,
        # see declare_local and the assignment in expr_BINARY_OPERATOR)
        n_dyn = CT.array_shape(CT.pointee(ty)).dims.count(None)
        return self.from_ptr(p, ty, [self.const_int(ir.IntegerType.get_signless(64), 0)] * n_dyn, None)

    def alloca_entry(self, mtype, dyn_sizes=(), key=None):
        """A memref stack slot (at the function entry unless it has run-time sizes); `key`: the local variable
        it holds, whose `aligned(N)` attribute (local_aligns) sets its alignment."""
        align = self.local_aligns.get(key) if key is not None else None
        attr = ir.IntegerAttr.get(ir.IntegerType.get_signless(64), align) if align else None
        if dyn_sizes:
            return memref.AllocaOp(mtype, list(dyn_sizes), [], alignment=attr).result
        with ir.InsertionPoint.at_block_begin(self.entry):
            return memref.AllocaOp(mtype, [], [], alignment=attr).result

    def index_of(self, value, ty):
        """C integer value -> index."""
        if CT.is_unsigned(ty):
            return arith.index_castui(ir.IndexType.get(), value)
        return arith.index_cast(ir.IndexType.get(), value)

    def from_index(self, value, ty):
        if CT.is_unsigned(ty):
            return arith.index_castui(CT.scalar_type(ty), value)
        return arith.index_cast(CT.scalar_type(ty), value)
