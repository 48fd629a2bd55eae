"""The memref side of the memory model (docs/memory_model.md): pointer-valued expressions and the conversions
between memrefs and raw ``!llvm.ptr`` pointers.

A pointer to numeric data is a memref whose leading dimension is unbounded and whose offset is dynamic
(c_types); ``p + k``, ``&A[i][j]``, array decay and row pointers are ``memref.reinterpret_cast``s of the same
base. ``to_ptr``/``from_ptr`` are the one pair of functions through which the two kinds of pointer meet (their
LLVM-pointer counterparts are in llvm_memory).
"""

from __future__ import annotations

from mlir import ir
from mlir.dialects import arith, llvm, memref

from ..clang_ast import (K, T, canonical, children, evaluate, generic_choice, is_binary_conditional, is_va_arg,
                         spelled_word, strip_implicit, unary_op)
from ..errors import CompileError, error_at
from . import c_types as CT
from .scan import decl_key, is_array_parameter
from .values import MemLV, VarLV, size_expressions


class PointerGen:
    """Mixin for FunctionGen: memref <-> !llvm.ptr conversions and pointer-valued expressions."""

    # ---------------------------------------------------------------- pointers <-> memrefs
    def from_ptr(self, ptr, ty, inner_sizes, cursor):
        """Wrap a raw C pointer (!llvm.ptr) into the memref of pointer type `ty`.

        The descriptor is built with llvm.insertvalue and cast with unrealized_conversion_cast, the same
        representation finalize-memref-to-llvm uses, so the casts cancel after lowering.
        Args: inner_sizes: i32/i64 values for the run-time (VLA) dimensions of the pointee, outermost first.
        """
        mtype = CT.pointer_memref_type(ty)
        shape = list(mtype.shape)
        rank = len(shape)
        i64 = ir.IntegerType.get_signless(64)
        st = ir.Type.parse(f"!llvm.struct<(ptr, ptr, i64, array<{rank} x i64>, array<{rank} x i64>)>")
        dyn = ir.ShapedType.get_dynamic_size()
        inner_sizes = list(inner_sizes or [])
        sizes = [llvm.ConstantOp(i64, ir.IntegerAttr.get(i64, 1 << 40)).result]
        for d in shape[1:]:
            if d == dyn:
                if not inner_sizes:
                    raise error_at(cursor, "variable-length array type whose size is unknown here") if cursor else \
                        CompileError("variable-length array type whose size is unknown")
                v = inner_sizes.pop(0)
                sizes.append(v if v.type == i64 else arith.extsi(i64, v))
            else:
                sizes.append(llvm.ConstantOp(i64, ir.IntegerAttr.get(i64, d)).result)
        strides = [None] * rank
        acc = llvm.ConstantOp(i64, ir.IntegerAttr.get(i64, 1)).result
        for i in reversed(range(rank)):
            strides[i] = acc
            if i > 0:
                acc = arith.muli(acc, sizes[i])
        s = llvm.UndefOp(st).result
        s = llvm.InsertValueOp(s, ptr, [0]).result
        s = llvm.InsertValueOp(s, ptr, [1]).result
        s = llvm.InsertValueOp(s, llvm.ConstantOp(i64, ir.IntegerAttr.get(i64, 0)).result, [2]).result
        for i in range(rank):
            s = llvm.InsertValueOp(s, sizes[i], [3, i]).result
            s = llvm.InsertValueOp(s, strides[i], [4, i]).result
        return ir.Operation.create("builtin.unrealized_conversion_cast", [mtype], [s]).result

    def to_ptr(self, m):
        """The raw address of a memref's first element (aligned pointer + offset), as !llvm.ptr."""
        if m.type == CT.llvm_ptr():
            return m
        mt = ir.MemRefType(m.type)
        idx = ir.IndexType.get()
        base = memref.ExtractAlignedPointerAsIndexOp(m).result
        meta = memref.ExtractStridedMetadataOp(m)
        offset = meta.results[1]
        addr = arith.addi(base, arith.muli(offset, self.const_index(CT.byte_width(mt.element_type))))
        i64 = ir.IntegerType.get_signless(64)
        return llvm.IntToPtrOp(CT.llvm_ptr(), arith.index_cast(i64, addr)).result

    def offset_pointer(self, m, count_index, ty):
        """`p + k` for a memref pointer: the same memref shifted by k leading rows (raw pointers: k elements)."""
        if m.type == CT.llvm_ptr():
            return self.raw_offset(m, count_index, ty)
        base, new_off, sizes, strides = self.shifted_rows(m, count_index)
        return self.reinterpret(base, new_off, sizes, strides, ir.MemRefType(m.type))

    @staticmethod
    def shifted_rows(m, rows):
        """Strided metadata of memref `m` moved `rows` (index) leading rows on: (base, offset, sizes, strides)."""
        rank = ir.MemRefType(m.type).rank
        meta = memref.ExtractStridedMetadataOp(m)
        base, offset = meta.results[0], meta.results[1]
        sizes = list(meta.results[2:2 + rank])
        strides = list(meta.results[2 + rank:2 + 2 * rank])
        return base, arith.addi(offset, arith.muli(rows, strides[0])), sizes, strides

    def reinterpret(self, base, offset, sizes, strides, mtype):
        """memref.reinterpret_cast to `mtype`; dims and strides that `mtype` knows statically stay static."""
        dyn = ir.ShapedType.get_dynamic_size()
        dyn_s = ir.ShapedType.get_dynamic_stride_or_offset()
        shape = list(mtype.shape)
        static_strides = list(ir.StridedLayoutAttr(mtype.layout).strides)
        dyn_sizes = [v for d, v in zip(shape, sizes) if d == dyn]
        dyn_strides = [v for s, v in zip(static_strides, strides) if s == dyn_s]
        return memref.ReinterpretCastOp(mtype, base, [offset], dyn_sizes, dyn_strides,
                                        ir.DenseI64ArrayAttr.get([dyn_s]),
                                        ir.DenseI64ArrayAttr.get(shape),
                                        ir.DenseI64ArrayAttr.get(static_strides)).result

    def subarray(self, m, index, result_ptr_ty):
        """`A[i]` where the element is itself an array: a memref of rank one less, offset by row i."""
        base, new_off, sizes, strides = self.shifted_rows(m, index)
        return self.reinterpret(base, new_off, sizes[1:], strides[1:], CT.pointer_memref_type(result_ptr_ty))

    def coerce_pointer(self, m, ty):
        """Give a memref the canonical memref type of C pointer type `ty` (memref.cast, or ptr conversion)."""
        target = CT.pointer_value_type(ty)
        if m.type == target:
            return m
        if target == CT.llvm_ptr():
            return self.to_ptr(m)
        if m.type == CT.llvm_ptr():
            return self.from_ptr(m, ty, None, None)
        src = ir.MemRefType(m.type)
        tgt = ir.MemRefType(target)
        if src.rank == tgt.rank and src.element_type == tgt.element_type:
            return memref.CastOp(target, m).result
        # a different view of the same bytes (pointer casts): rebuild from the raw pointer
        return self.from_ptr(self.to_ptr(m), ty, None, None)

    # ---------------------------------------------------------------- pointer-valued expressions
    def pointer(self, e):
        """Value of a pointer-typed expression (memref, or !llvm.ptr for non-numeric pointees)."""
        ty = canonical(e.type)
        k = e.kind
        fdecl = self.function_decl_of(e) if canonical(CT.pointee(ty) if ty.kind == T.POINTER else ty).kind \
            in (T.FUNCTIONPROTO, T.FUNCTIONNOPROTO) else None
        if fdecl is not None:
            return self.function_address(fdecl, e)
        if k == K.UNARY_OPERATOR and unary_op(e) == "&":
            target = strip_implicit(children(e)[0])
            if target.kind == K.DECL_REF_EXPR and decl_key(target.referenced) in self.struct_vars:
                return self.coerce_pointer(self.struct_vars[decl_key(target.referenced)], ty)
        if k == K.PAREN_EXPR:
            return self.pointer(children(e)[0])
        if k == K.GENERIC_SELECTION_EXPR:
            return self.pointer(generic_choice(e))
        if is_va_arg(e) or is_binary_conditional(e):
            return self.rvalue(e)
        if k in (K.UNEXPOSED_EXPR, K.CSTYLE_CAST_EXPR, K.CXX_STATIC_CAST_EXPR, K.CXX_REINTERPRET_CAST_EXPR):
            inner = children(e)[-1]
            it = canonical(inner.type)
            if k == K.CSTYLE_CAST_EXPR and self.has_vla_pointee(ty) and it.kind == T.POINTER:
                return self.vla_pointer(inner, ty, size_expressions(e, exclude=inner), e)
            if is_array_parameter(inner):
                return self.coerce_pointer(self.pointer(inner), ty)  # (`argv + 1`: a pointer libclang types as the array)
            if CT.is_array(it):
                return self.decay(inner, ty)
            if it.kind == T.POINTER:
                si = strip_implicit(inner)
                if si.kind == K.CALL_EXPR and self.mg.builtins.is_allocator(si) and CT.pointee_is_memref(ty):
                    return self.mg.builtins.allocate(self, si, ty)
                return self.coerce_pointer(self.convert_class_pointer(self.pointer(inner), it, ty, e), ty)
            if CT.is_int(it):
                return self.convert(self.rvalue(inner), it, ty, inner)
            if it.kind in (T.FUNCTIONPROTO, T.FUNCTIONNOPROTO):  # `*fp` or `(fp)` designating a function
                f = strip_implicit(inner)
                # (`*fp` designates the function fp points to; `*pp` with pp a pointer to a function pointer is
                # the function pointer stored there, loaded below: sqlite's `(**(finder_type*)p)(...)`)
                while f.kind == K.UNARY_OPERATOR and unary_op(f) == "*" and \
                        _designates_function(children(f)[0].type) or \
                        f.kind == K.UNEXPOSED_EXPR and len(children(f)) == 3 and \
                        spelled_word(f) == "__builtin_choose_expr" and isinstance(evaluate(children(f)[0]), int):
                    if f.kind == K.UNEXPOSED_EXPR:  # (GNU's choice between functions: the chosen one)
                        f = strip_implicit(children(f)[1] if evaluate(children(f)[0]) else children(f)[2])
                        continue
                    f = strip_implicit(children(f)[0])
                if canonical(f.type).kind == T.POINTER:
                    return self.pointer(f)
                if f.kind == K.DECL_REF_EXPR and f.referenced is not None and f.referenced.kind == K.PARM_DECL:
                    return self.rvalue(f)  # a parameter of function type holds the pointer C adjusted it to
                if f.kind == K.DECL_REF_EXPR and f.referenced is not None and f.referenced.kind == K.FUNCTION_DECL:
                    from .llvm_memory import function_pointer
                    return function_pointer(self.mg, f.referenced)
                raise self.unsupported(e, "function designator")
            return self.rvalue(e)
        if k == K.UNARY_OPERATOR and unary_op(e) == "&":
            inner = strip_implicit(children(e)[0])
            if inner.kind == K.ARRAY_SUBSCRIPT_EXPR and self.memref_subscript(inner):  # (else: the raw address
                _check_not_before_array(inner)                                         # below, evaluated once)
                lv = self.lvalue(inner)
                if isinstance(lv, MemLV):
                    return self.element_pointer(lv, ty)
                return self.coerce_pointer(self.lvalue_address(lv, inner), ty)
            if inner.kind == K.ARRAY_SUBSCRIPT_EXPR and self.has_vla_pointee(ty):
                return self.row_address(inner, ty)
            if inner.kind == K.DECL_REF_EXPR:
                lv = self.lvalue(inner)
                if isinstance(lv, MemLV) and not lv.indices:
                    return self.coerce_pointer(self.to_ptr(lv.memref), ty)
            return self.coerce_pointer(self.address(inner), ty)
        if k == K.STRING_LITERAL:
            return self.mg.literal(e)
        return self.rvalue(e)

    def row_address(self, sub, ty):
        """`&a[i]` where the element is a variable-length row (`double (*p)[m] = &grid[k]`): `a + i`, the memref
        of the rows shifted by i (its run-time row size stays with it), as pointer type `ty`."""
        base, idx = children(sub)
        if canonical(base.type).kind != T.POINTER:  # (`i[a]`)
            base, idx = idx, base
        rows = self.pointer(base)
        if rows.type == CT.llvm_ptr():
            raise self.unsupported(sub, "address of a row of a variable-length array kept as a raw pointer")
        return self.coerce_pointer(self.offset_pointer(rows, self.index_of(self.rvalue(idx), idx.type),
                                                       canonical(base.type)), ty)

    def raw_pointer(self, e):
        """A pointer-typed argument as the raw !llvm.ptr the C ABI passes (string literals directly)."""
        s = strip_implicit(e)
        if s.kind == K.STRING_LITERAL:
            return self.mg.literal(s)
        m = self.pointer(e)
        if m.type != CT.llvm_ptr() and not isinstance(m.type, ir.MemRefType):  # e.g. a function's address
            raise error_at(e, f"unsupported construct: '{e.type.spelling}' argument passed as a pointer")
        return self.to_ptr(m)

    def element_pointer(self, lv, ty):
        """&A[i][j]: a pointer memref starting at that element (offset = linearized position)."""
        m = lv.memref
        mt = ir.MemRefType(m.type)
        meta = memref.ExtractStridedMetadataOp(m)
        base, off = meta.results[0], meta.results[1]
        rank = mt.rank
        strides = list(meta.results[2 + rank:2 + 2 * rank])
        for i, s in zip(self.index_values(lv.indices), strides):
            off = arith.addi(off, arith.muli(i, s))
        if not CT.pointee_is_memref(ty):
            return self.to_ptr(m)
        target = CT.pointer_memref_type(ty)
        tr = target.rank
        sizes = [self.const_index(1 << 40)] + [self.const_index(d) for d in list(target.shape)[1:]]
        if any(d == ir.ShapedType.get_dynamic_size() for d in list(target.shape)[1:]):
            raise CompileError("unsupported construct: address of a variable-length sub-array")
        tstrides = strides[rank - tr:] if tr <= rank else None
        return self.reinterpret(base, off, sizes, tstrides, target)

    def decay(self, arr, ptr_ty):
        """Array-to-pointer decay of array expression `arr`."""
        a = strip_implicit(arr)  # (also `__extension__ __PRETTY_FUNCTION__`: a string literal)
        if not self.memref_array(a):
            return self.coerce_pointer(self.address(a), ptr_ty)
        if a.kind == K.STRING_LITERAL:
            p = self.mg.literal(a)
            return p if not CT.pointee_is_memref(ptr_ty) else self.from_ptr(p, ptr_ty, None, None)
        if a.kind == K.ARRAY_SUBSCRIPT_EXPR:
            # A[i] where the element is an array: the sub-array at row i
            base, idx = children(a)
            bptr = self.pointer(base) if canonical(base.type).kind == T.POINTER else None
            if bptr is None:
                raise self.unsupported(a, "subscript of this array expression")
            i = self.index_of(self.rvalue(idx), idx.type)
            return self.subarray(bptr, i, ptr_ty)
        if a.kind == K.UNARY_OPERATOR and unary_op(a) == "*":
            # *A where A points to arrays: row 0
            p = self.pointer(children(a)[0])
            return self.subarray(p, self.const_index(0), ptr_ty)
        lv = self.lvalue(a)
        if isinstance(lv, VarLV):  # an array parameter: already a pointer memref
            if CT.is_array(ptr_ty):  # a VLA parameter passed on as itself (`f(n, w)` with `double w[n]`)
                return self.env[lv.key].value
            return self.coerce_pointer(self.env[lv.key].value, ptr_ty)
        if not isinstance(lv, MemLV):
            raise self.unsupported(a, "array value")
        return self.coerce_pointer(lv.memref, ptr_ty)

    def memref_array(self, a):
        """Whether array expression `a` (already stripped) decays through the memref model."""
        if a.kind == K.DECL_REF_EXPR and a.referenced is not None and a.referenced.kind == K.PARM_DECL:
            return True  # an array parameter is a pointer variable
        if a.kind == K.STRING_LITERAL or a.kind == K.DECL_REF_EXPR and not self.is_byte_var(a):
            return CT.is_arith(CT.array_shape(a.type).elem)
        if a.kind == K.ARRAY_SUBSCRIPT_EXPR or a.kind == K.UNARY_OPERATOR and unary_op(a) == "*":
            base = children(a)[0]
            return canonical(base.type).kind == T.POINTER and CT.pointee_is_memref(base.type) and \
                (a.kind != K.ARRAY_SUBSCRIPT_EXPR or not CT.is_array(strip_implicit(base).type) or
                 self.memref_array(strip_implicit(base)))
        return False

    def pointer_arith(self, e, op, a, b):
        def is_ptr(x):  # (an array parameter is a pointer)
            return canonical(x.type).kind == T.POINTER or CT.is_array(x.type)

        if is_ptr(a) and is_ptr(b):
            return self.pointer_difference(e, a, b)
        p, n = (a, b) if is_ptr(a) else (b, a)
        pv = self.pointer(p)
        if pv.type == CT.llvm_ptr():
            k = self.as_i64(self.rvalue(n), n.type)
            if op == "Sub":
                k = arith.subi(arith.constant(k.type, 0), k)
            return self.raw_offset(pv, k, canonical(p.type))
        k = self.index_of(self.rvalue(n), n.type)
        if op == "Sub":
            k = arith.subi(self.const_index(0), k)
        return self.offset_pointer(pv, k, canonical(e.type))


def _designates_function(t) -> bool:
    """Whether `*e` with `e` of type `t` designates a function: `e` is a function pointer (or a function, before
    its decay to one)."""
    c = canonical(t)
    if c.kind == T.POINTER:
        c = canonical(c.get_pointee())
    return c.kind in (T.FUNCTIONPROTO, T.FUNCTIONNOPROTO)


def _check_not_before_array(sub):
    """Reject `&a[-4]` with `a` an array object: a pointer before the array's start (undefined behaviour in C11
    6.5.6p8, even unused), which the memref of the array cannot hold (gcc.dg/builtin-object-size-5.c was an
    internal error).

    Raises:
        CompileError: naming the array and the index."""
    base, idx = children(sub)
    b = strip_implicit(base)
    n = evaluate(idx)
    if b.kind == K.DECL_REF_EXPR and CT.is_array(b.type) and isinstance(n, int) and n < 0:
        raise error_at(sub, f"unsupported construct: the address of element {n} of array '{b.spelling}', before its "
                            "start (undefined behaviour)")
