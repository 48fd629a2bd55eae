"""The libclang walker: one translation unit to one MLIR module of func/affine/scf/memref/arith/math ops.

Shape (after Triton's code_generator): a ``visit_<KIND>`` method per statement kind, expressions through
``rvalue``/``lvalue``/``pointer``, C types mapped in ``c_types``, libc/math/CUDA calls in ``builtins``.

How C becomes structured MLIR (Polygeist, PACT'21, does the same with an MLIR mem2reg pass afterwards; here
SSA is built directly while walking):
- Scalars whose address is not taken are SSA values. The walker keeps an environment ``env`` from variable to
  current value; before a region op (scf.if, scf.for, affine.for, scf.while) it pre-scans the region for the
  variables it assigns, which become the op's results / iter_args.
- ``break``, ``continue`` and ``return`` inside structured code set flag variables (carried like any other
  variable); statements after one are guarded by ``scf.if`` on the flags, and loop conditions test them.
- A counted ``for`` loop whose bounds are affine in loop indices and symbols (values defined at the top
  level of the function) becomes ``affine.for``; affine subscripts become ``affine.load``/``affine.store``.
  Other counted loops with loop-invariant bounds are ``scf.for``; all remaining loops ``scf.while``.
- Address-taken scalars and arrays live in memrefs; pointers to numeric data are memrefs (see c_types).
  Structs, unions, arrays of them or of pointers, and address-taken pointers live in raw bytes behind an
  !llvm.ptr (the LLVMMemory mixin in llvm_memory.py; docs/memory_model.md says how the two meet).
"""

from __future__ import annotations

import itertools
from dataclasses import dataclass

from mlir import ir
from mlir.dialects import affine, arith, func, gpu, llvm, memref, scf

from ..clang_ast import (K, T, canonical, children, evaluate, has_attr, string_literal, strip_implicit, unary_op,
                         string_initializer, var_decl_initializer)
from ..errors import CompileError, error_at
from . import affine_forms as AF
from . import big_init
from . import c_types as CT
from . import enzyme
from . import records as R
from .llvm_memory import LLVMMemory, is_default_construction
from . import int_semantics as IS
from . import gotos, openmp, switch
from .scan import address_taken, assigned_decls, contains, decl_key, exits

RET, RETVAL = "$ret", "$retval"
WARP_SIZE = 32
GPU_IDS = {"threadIdx": gpu.ThreadIdOp, "blockIdx": gpu.BlockIdOp, "blockDim": gpu.BlockDimOp,
           "gridDim": gpu.GridDimOp}


@dataclass
class Binding:
    """Current SSA value of a scalar C variable, and its affine form when it has one."""
    value: ir.Value
    form: tuple | None = None


@dataclass
class MemVar:
    """A C variable stored in memory: an array, a global, or an address-taken scalar (0-d memref)."""
    memref: ir.Value | None
    ctype: object
    global_name: str | None = None
    mtype: ir.Type | None = None  # a global's memref type; None for a global raw pointer (an LLVM global)

    @property
    def is_raw_global(self) -> bool:
        return self.global_name is not None and self.mtype is None


@dataclass
class MemLV:
    """An element of a memref: indices are affine forms or index values."""
    memref: ir.Value
    indices: list
    ctype: object


@dataclass
class VarLV:
    key: object
    ctype: object


def size_expressions(node, exclude=None):
    """The array-size expressions written in a declaration's (or a cast's) type, outermost first.

    libclang visits an array type's element before its size, so it lists them innermost first; they are
    reversed rather than sorted by position (inside a macro expansion every position is the expansion's).
    `exclude`: an initializer or cast operand, which is an expression child too."""
    return [e for e in children(node) if e.kind.is_expression() and e != exclude][::-1]


def dynamic_sizes(exprs, dims):
    """The expressions of the run-time dims among `dims` (array_shape dims, None = run-time), matching
    `exprs` (outermost first) from the innermost dim: an outer `[]`, or a parameter's adjusted-away outer
    dim, has no expression in `dims`."""
    exprs = exprs[len(exprs) - len(dims):] if len(exprs) >= len(dims) else [None] * (len(dims) - len(exprs)) + exprs
    return [e for e, d in zip(exprs, dims) if d is None]


def has_designator(init) -> bool:
    """Whether a brace initializer uses designators (`[i] = v`, `.f = v`) anywhere."""
    return any(c.kind == K.UNEXPOSED_EXPR and canonical(c.type).kind == T.VOID or
               c.kind == K.INIT_LIST_EXPR and has_designator(c) for c in children(init))


def base_key(k):
    return k[0] if isinstance(k, tuple) and len(k) == 2 and k[1] in ("x", "y", "z") else k


class FunctionGen(LLVMMemory):
    """Emits one C function definition as a func.func; see the module docstring for the scheme."""

    def __init__(self, mg, cursor):
        self.mg = mg
        self.cursor = cursor
        self.env: dict = {}
        self.mem: dict = {}
        self.loops: list = []  # (break key, continue key) of enclosing loops
        self.func = None
        self.entry = None
        self.sym_cache: dict = {}
        self.struct_vars: dict = {}  # locals kept as raw bytes (structs, arrays of them): key -> !llvm.ptr
        self.loop_ids = itertools.count()
        self.omp: dict = {}  # statement hash -> its `#pragma omp` directives (frontend/openmp.py)

    # ---------------------------------------------------------------- locations and errors
    def loc(self, c) -> ir.Location:
        f = c.location.file
        return ir.Location.file(f.name if f else self.mg.filename, c.location.line, c.location.column)

    def error(self, c, msg):
        return error_at(c, msg)

    def unsupported(self, c, what=None):
        return error_at(c, f"unsupported construct: {what or c.kind.name.lower().replace('_', ' ')}")

    # ---------------------------------------------------------------- function
    def emit(self):
        c = self.cursor
        name = self.mg.func_name(c)
        params = [a for a in c.get_children() if a.kind == K.PARM_DECL]
        self.sig = self.mg.signature(c)
        if self.sig.variadic:
            raise self.unsupported(c, f"definition of the variadic function '{c.spelling}'")
        ftype = self.sig.ftype
        with self.loc(c), ir.InsertionPoint(self.mg.module.body):
            self.func = func.FuncOp(name, ftype)
            if c.storage_class == c.storage_class.STATIC or self.mg.is_internal(c):
                # private: MLIR may drop it when unused; internal linkage: other objects may reuse the name
                self.func.attributes["sym_visibility"] = ir.StringAttr.get("private")
                self.func.attributes["llvm.linkage"] = ir.Attribute.parse("#llvm.linkage<internal>")
            self.entry = self.func.add_entry_block()
            if any(canonical(p.type).is_restrict_qualified() for p in params) or self.sig.has_records:
                # C99 restrict -> llvm.noalias (for LLVM, and for AD's hoisting of read-only calls)
                self.func.arg_attrs = R.attrs_array(self.sig, [
                    {"llvm.noalias": ir.UnitAttr.get()} if canonical(p.type).is_restrict_qualified() else {}
                    for p in params])
        body = next(ch for ch in c.get_children() if ch.kind == K.COMPOUND_STMT)
        self.addr_taken = address_taken(body)
        if getattr(self.mg.tu, "openmp", False):  # -fopenmp
            self.omp = openmp.directives(self.mg.tu, c)
        self.ret_type = canonical(c.result_type)
        with ir.InsertionPoint(self.entry), self.loc(c):
            args = list(self.entry.arguments)
            self.this_ptr = args[-1] if self.sig.has_this else None  # a C++ method's object (cxx_classes)
            for p, pabi in zip(params, self.sig.params):
                if pabi.kind == "scalar":
                    self.bind_param(p, args[pabi.first])
                else:
                    self.bind_record_param(p, pabi, args[pabi.first:pabi.first + len(pabi.types)])
            if self.ret_type.kind == T.RECORD:  # the returned record's address (a zeroed slot until `return`)
                slot = self.byte_alloca(CT.size_of(self.ret_type), self.ret_type.get_align())
                self.zero_bytes(slot, CT.size_of(self.ret_type))
                self.env[RETVAL] = Binding(slot)
            elif self.ret_type.kind != T.VOID:
                self.env[RETVAL] = Binding(self.zero(self.ret_type))
            self.env[RET] = Binding(self.const_bool(False))
            if c.kind == K.CONSTRUCTOR:  # member initializers before the body (cxx_classes)
                self.init_members(c)
            self.visit(body)
            if self.ret_type.kind == T.VOID:
                func.ReturnOp([])
            elif self.sig.ret_kind == "sret":
                self.copy_bytes(args[0], self.env[RETVAL].value, CT.size_of(self.ret_type))
                func.ReturnOp([])
            elif self.sig.ret_kind == "coerced":
                func.ReturnOp([self.coerced_result(self.env[RETVAL].value, self.sig)])
            else:
                func.ReturnOp([self.to_abi(self.env[RETVAL].value, self.ret_type)])

    def bind_param(self, p, arg):
        ty = canonical(p.type)
        key = decl_key(p)
        with self.loc(p):
            if CT.is_reference(ty):  # a C++ reference: the address of the caller's object (cxx)
                self.bind_reference(key, CT.unreferenced(ty), arg, p)
            elif ty.kind == T.POINTER or CT.is_array(ty):
                if CT.pointee_is_memref(ty):
                    sizes = self.vla_sizes(size_expressions(p), ty, p)
                    self.define(key, ty, self.from_ptr(arg, ty, sizes, p))
                else:
                    self.define(key, ty, arg)
            elif CT.is_arith(ty):
                self.define(key, ty, arg)
            else:
                raise self.unsupported(p, f"parameter of type '{p.type.spelling}'")

    def bind_record_param(self, p, pabi, args):
        """A struct/union parameter: its bytes (the byval copy, or the register pieces stored to the stack)."""
        with self.loc(p):
            if pabi.kind == "byval":
                self.struct_vars[decl_key(p)] = args[0]
            else:
                self.struct_vars[decl_key(p)] = self.pieces_to_memory(args, pabi.ctype)

    def vla_sizes(self, exprs, ptr_ty, cursor):
        """Values of the run-time dims of pointer type `ptr_ty`'s pointee, from the size expressions written in
        its declaration or cast (`exprs`, outermost first), evaluated here as C does."""
        sel = dynamic_sizes(exprs, CT.array_shape(CT.pointee(ptr_ty)).dims)
        if None in sel:
            raise self.error(cursor, "variable-length array type whose size is unknown here")
        return [self.rvalue(e) for e in sel]

    def has_vla_pointee(self, ty):
        c = canonical(ty)
        return c.kind == T.POINTER and CT.pointee_is_memref(c) and None in CT.array_shape(CT.pointee(c)).dims

    def vla_pointer(self, operand, ty, exprs, cursor):
        """`operand` converted to pointer-to-VLA type `ty` whose sizes are written in `exprs` (a declaration
        `double (*A)[n][m] = p;` or a cast `(double (*)[n][m]) p`): the sizes are evaluated now."""
        sizes = self.vla_sizes(exprs, ty, cursor)
        return self.from_ptr(self.raw_operand(operand), ty, sizes, cursor)

    def raw_operand(self, operand):
        """The !llvm.ptr value of a pointer operand before its implicit conversion (None or 0: null)."""
        src = strip_implicit(operand) if operand is not None else None
        if src is None or CT.is_int(src.type):
            if src is not None and evaluate(src) != 0:
                raise self.unsupported(src, "integer to pointer conversion")
            return llvm.ZeroOp(CT.llvm_ptr()).result
        return self.raw_pointer(src)

    def pointer_like(self, raw, like, ty):
        """Raw pointer `raw` as pointer-to-VLA type `ty`, with the run-time dims of memref `like` (a variable's
        VLA sizes are fixed at its declaration, so `A = malloc(...)` keeps them)."""
        mt = ir.MemRefType(like.type)
        meta = memref.ExtractStridedMetadataOp(like)
        i64 = ir.IntegerType.get_signless(64)
        inner = zip(list(mt.shape)[1:], list(meta.results)[3:2 + mt.rank])
        sizes = [arith.index_cast(i64, v) for d, v in inner if d == ir.ShapedType.get_dynamic_size()]
        return self.from_ptr(raw, ty, sizes, None)

    def to_abi(self, v, ty):
        """A value as passed across a function boundary (pointers as !llvm.ptr)."""
        return self.to_ptr(v) if canonical(ty).kind == T.POINTER else v

    def define(self, key, ty, value, form=None):
        """Bind a new variable: SSA unless its address is taken (then a 0-d memref; pointers are stored raw)."""
        if key in self.addr_taken:
            if CT.is_arith(ty):
                m = self.alloca_entry(ir.MemRefType.get([], CT.memory_type(ty)))
            elif canonical(ty).kind == T.POINTER:  # a pointer in memory: raw bytes (no memref of pointers)
                self.struct_vars[key] = self.byte_alloca(8, 8)
                self.store_scalar(self.struct_vars[key], ty, value)
                return
            else:
                raise CompileError(f"unsupported construct: address of a variable of type '{ty.spelling}'")
            self.mem[key] = MemVar(m, ty)
            self.store(MemLV(m, [], canonical(ty)), value)
        else:
            self.env[key] = Binding(value, form)

    def lvalue_of_decl(self, decl, cursor):
        """The lvalue of variable `decl` (for calls that assign through `&var`)."""
        key = decl_key(decl)
        if key in self.struct_vars:
            return ("llvm", self.struct_vars[key], CT.unreferenced(decl.type), None)
        if key in self.mem:
            return MemLV(self.mem_ref(self.mem[key]), [], CT.unreferenced(decl.type))
        if key in self.env:
            return VarLV(key, canonical(decl.type))
        raise self.unsupported(cursor, f"assignment to '{decl.spelling}' here")

    # ---------------------------------------------------------------- small builders
    def const_int(self, ty, v):
        t = ty if isinstance(ty, ir.Type) else CT.scalar_type(ty)
        if not isinstance(t, (ir.IntegerType, ir.IndexType)):  # MLIR would abort the process (an assertion)
            raise TypeError(f"integer constant of type {t}")
        return arith.constant(t, int(v))

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
        if ty.kind == T.POINTER:
            return self.null_pointer(ty)
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

    def alloca_entry(self, mtype, dyn_sizes=()):
        if dyn_sizes:
            return memref.AllocaOp(mtype, list(dyn_sizes), []).result
        with ir.InsertionPoint.at_block_begin(self.entry):
            return memref.AllocaOp(mtype, [], []).result

    def index_of(self, value, ty):
        """C integer value -> index."""
        if CT.is_unsigned(ty):
            return arith.index_castui(ir.IndexType.get(), value)
        return arith.index_cast(ir.IndexType.get(), value)

    def from_index(self, value, ty):
        if CT.is_unsigned(ty):
            return arith.index_castui(CT.scalar_type(ty), value)
        return arith.index_cast(CT.scalar_type(ty), value)

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
        mt = ir.MemRefType(m.type)
        meta = memref.ExtractStridedMetadataOp(m)
        base, offset = meta.results[0], meta.results[1]
        rank = mt.rank
        sizes = list(meta.results[2:2 + rank])
        strides = list(meta.results[2 + rank:2 + 2 * rank])
        new_off = arith.addi(offset, arith.muli(count_index, strides[0]))
        return self.reinterpret(base, new_off, sizes, strides, mt)

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
        mt = ir.MemRefType(m.type)
        meta = memref.ExtractStridedMetadataOp(m)
        base, offset = meta.results[0], meta.results[1]
        rank = mt.rank
        sizes = list(meta.results[2:2 + rank])
        strides = list(meta.results[2 + rank:2 + 2 * rank])
        new_off = arith.addi(offset, arith.muli(index, strides[0]))
        return self.reinterpret(base, new_off, sizes[1:], strides[1:], CT.pointer_memref_type(result_ptr_ty))

    def coerce_pointer(self, m, ty):
        """Give a memref the canonical memref type of C pointer type `ty` (memref.cast, or ptr conversion)."""
        target = CT.value_type(ty)
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

    # ---------------------------------------------------------------- statements
    def visit(self, c):
        if self.omp and c.hash in self.omp:
            with self.loc(c):
                return openmp.emit(self, c, self.omp[c.hash])
        with self.loc(c):
            method = getattr(self, "visit_" + c.kind.name, None)
            if method is None:
                if c.kind.is_expression():
                    self.rvalue(c, discard=True)
                    return
                raise self.unsupported(c)
            method(c)

    def visit_COMPOUND_STMT(self, c):
        gotos.emit_compound(self, c)

    def visit_NULL_STMT(self, c):
        pass

    def flags_active(self):
        keys = [RET] + [k for k in self.env if gotos.is_flag(k)]
        if self.loops:
            keys += [k for k in self.loops[-1] if k is not None]
        return [k for k in keys if k in self.env]

    def may_exit(self, s):
        kinds = [K.RETURN_STMT, K.GOTO_STMT]
        if self.loops:
            kinds += [K.BREAK_STMT, K.CONTINUE_STMT]
        return exits(s, tuple(kinds))

    def emit_stmts(self, stmts):
        m = next((j for j, s in enumerate(stmts) if any(gotos.entries(self, s))), 0)
        if m and not gotos.entries(self, stmts[m])[0]:  # on the way to a label: a set flag skips what precedes
            self.emit_guarded(stmts[:m])
            self.emit_stmts(stmts[m:])
            return
        for i, s in enumerate(stmts):
            loop, route = gotos.entries(self, s)
            if loop:  # the rest of the block is the label's loop (see gotos)
                gotos.emit_labeled(self, s, stmts[i + 1:], loop, route)
                return
            if route:
                gotos.emit_route(self, s, route)
            else:
                self.visit(s)
            rest = stmts[i + 1:]
            if rest and (route or self.may_exit(s)):
                self.emit_rest(rest)
                return

    def emit_rest(self, rest):
        """The statements after one that may exit: skipped while an exit is pending, except a statement on the
        way to a label, which its own goto flag enters."""
        rest = [r for r in rest if r.kind != K.NULL_STMT]
        m = next((j for j, r in enumerate(rest) if any(gotos.entries(self, r))), len(rest))
        if rest[:m]:
            self.emit_guarded(rest[:m])
        if m < len(rest):
            self.emit_stmts(rest[m:])

    def not_exited(self, exclude=()):
        """i1: none of the active exit flags (return, break, continue, goto) but `exclude` is set."""
        cond = None
        for k in self.flags_active():
            if k in exclude:
                continue
            nf = arith.xori(self.env[k].value, self.const_bool(True))
            cond = nf if cond is None else arith.andi(cond, nf)
        return cond

    def emit_guarded(self, stmts):
        cond = self.not_exited()
        if cond is None:
            self.emit_stmts(stmts)
            return
        self.emit_if(cond, lambda: self.emit_stmts(stmts), None, stmts)

    def carried(self, nodes, extra=()):
        assigned = assigned_decls(nodes)
        keys = [k for k in self.env if base_key(k) in assigned]
        flags = set(extra)
        for n in nodes:
            if exits(n, (K.RETURN_STMT,)):
                flags |= {RET, RETVAL}
            if exits(n, (K.GOTO_STMT,)) or contains(n, (K.LABEL_STMT,)):  # a goto sets a flag, a label clears it
                flags |= {k for k in self.env if gotos.is_flag(k)}
        if self.loops:
            brk, cont = self.loops[-1]
            for n in nodes:
                if brk and exits(n, (K.BREAK_STMT,)):
                    flags.add(brk)
                if cont and exits(n, (K.CONTINUE_STMT,)):
                    flags.add(cont)
        keys += [k for k in self.env if k in flags and k not in keys]
        return keys

    def emit_if(self, cond, then_fn, else_fn, nodes, result_type=None, affine_cond=None):
        """scf.if whose results are the variables the branches assign (and an optional value); with
        `affine_cond` (an integer set and its operands, from affine_condition), affine.if instead."""
        keys = self.carried(nodes)
        types = [self.env[k].value.type for k in keys]
        if result_type is not None:
            types = [result_type] + types
        has_else = bool(types) or else_fn is not None
        if affine_cond is None:
            op, yield_op = scf.IfOp(cond, types, has_else=has_else), scf.YieldOp
        else:
            cond_set, operands = affine_cond
            op = affine.AffineIfOp(cond_set, types, cond_operands=operands, has_else=has_else)
            yield_op = affine.AffineYieldOp
        saved = dict(self.env)
        outs = []
        blocks = [op.regions[0].blocks[0], op.regions[1].blocks[0] if has_else else None]
        for block, fn in zip(blocks, (then_fn, else_fn)):
            if block is None:
                continue
            self.env = dict(saved)
            with ir.InsertionPoint(block):
                val = fn() if fn is not None else None
                vals = [self.env[k].value for k in keys]
                if result_type is not None:
                    vals = [val] + vals
                yield_op(vals)
        self.env = saved
        res = list(op.results)
        if result_type is not None:
            outs, res = res[0], res[1:]
        for k, r in zip(keys, res):
            self.env[k] = Binding(r)
        return outs

    def visit_IF_STMT(self, c):
        ch = children(c)
        cond, then = ch[0], ch[1]
        els = ch[2] if len(ch) > 2 else None
        if cond.kind == K.DECL_STMT:
            raise self.unsupported(c, "declaration in an if condition")
        cv = gotos.if_condition(self, c, cond)  # (steered to a label's branch by its goto flag)
        affine_cond = self.affine_condition(cond) if cv is None else None
        if cv is None and affine_cond is None:
            cv = self.condition(cond)
        nodes = [then] + ([els] if els is not None else [])
        self.emit_if(cv, lambda: self.visit(then), (lambda: self.visit(els)) if els is not None else None, nodes,
                     affine_cond=affine_cond)

    def affine_condition(self, e):
        """(integer set, operands) for an if condition that is a conjunction (&&) of comparisons (<, <=, >, >=,
        ==) of signed affine forms (form_of) over the indices of enclosing affine loops (one at least) and
        symbols, so that the if becomes an affine.if a SCoP can hold (nussinov's guards); else None. Host code
        only: the CUDA lowering works on scf.if."""
        if has_attr(self.cursor, K.CUDAGLOBAL_ATTR) or has_attr(self.cursor, K.CUDADEVICE_ATTR):
            return None
        constraints = []
        if not self.affine_constraints(e, constraints):
            return None
        forms = [f for f, _ in constraints]
        if all(AF.symbolic(f) for f in forms) or not all(AF.is_affine(f) for f in forms):
            return None
        return AF.to_set(constraints)

    def affine_constraints(self, e, out) -> bool:
        """Append (form, is_equality) pairs meaning `form >= 0` / `form == 0` for condition `e` to `out`;
        False when `e` is not a conjunction of comparisons of affine forms."""
        e = strip_implicit(e)
        while e.kind == K.PAREN_EXPR and len(children(e)) == 1:
            e = strip_implicit(children(e)[0])
        if e.kind != K.BINARY_OPERATOR:
            return False
        op = e.binary_operator.name
        a, b = children(e)
        if op == "LAnd":
            return self.affine_constraints(a, out) and self.affine_constraints(b, out)
        if op not in ("LT", "LE", "GT", "GE", "EQ"):
            return False
        fa, fb = self.form_of(a), self.form_of(b)
        if fa is None or fb is None:
            return False
        if op in ("GT", "LT"):  # a > b: a - b - 1 >= 0
            diff = AF.sub(fa, fb) if op == "GT" else AF.sub(fb, fa)
            out.append((AF.add(diff, AF.const(-1)), False))
        elif op in ("GE", "LE"):
            out.append((AF.sub(fa, fb) if op == "GE" else AF.sub(fb, fa), False))
        else:
            out.append((AF.sub(fa, fb), True))
        return out[-1][0] is not None

    def visit_DECL_STMT(self, c):
        for d in children(c):
            if d.kind == K.VAR_DECL:
                self.declare_local(d)
            elif d.kind in (K.TYPEDEF_DECL, K.STRUCT_DECL, K.ENUM_DECL, K.CLASS_DECL):
                self.mg.check_record(d)
            else:
                raise self.unsupported(d)

    def declare_local(self, d):
        ty = canonical(d.type)
        key = decl_key(d)
        if CT.is_reference(ty):  # `T &r = x;` names x's storage (cxx)
            self.declare_reference(d, ty)
            return
        if has_attr(d, K.CUDASHARED_ATTR):
            if R.is_byte_object(ty) and not CT.is_dim3(ty):
                self.struct_vars[key] = self.shared_bytes(d, ty)
            else:
                self.mem[key] = MemVar(self.shared_memory(d, ty), ty)
            return
        if d.storage_class in (d.storage_class.STATIC, d.storage_class.EXTERN):
            self.mem[key] = self.mg.global_var(d)
            return
        init = var_decl_initializer(d)
        inits = [init] if init is not None else []
        if R.is_byte_object(ty) and not CT.is_dim3(ty) and not (ty.kind == T.RECORD and (inits and (
                self.mg.builtins.is_channel_desc(inits[-1]) or self.enzyme_struct_init(inits[-1])))):
            self.byte_local(d, ty, init)
            return
        if CT.is_array(ty):
            shape = CT.array_shape(ty)
            mtype = CT.array_memref_type(ty)
            if None in shape.dims:
                size_exprs = dynamic_sizes(size_expressions(d, exclude=init), shape.dims)
                if None in size_exprs:
                    raise self.unsupported(d, "variable-length array without a size expression")
                sizes = [self.index_of(self.rvalue(e), e.type) for e in size_exprs]
                m = self.alloca_entry(mtype, sizes)
                inits = []
            else:
                m = self.alloca_entry(mtype)
            self.mem[key] = MemVar(m, ty)
            big = big_init.is_large(shape.dims)  # zeroed by one loop, then only the listed elements stored
            text = string_initializer(inits[0], shape.dims[0], pad=not big) if inits and len(shape.dims) == 1 and shape.dims[0] else None
            if text is not None and big:
                big_init.fill_zero(self, m, shape.dims, self.zero(shape.elem))
            if text is not None:
                for i, b in enumerate(text):
                    memref.StoreOp(CT.as_stored(self.const_int(shape.elem, b), m), m, [self.const_index(i)])
                return
            init = next((e for e in inits if e.kind == K.INIT_LIST_EXPR), None)
            if init is not None and has_designator(init):  # `{[3] = 4, 5}`: through the bytes (llvm_memory)
                self.init_object(self.to_ptr(m), ty, init)
            elif init is not None:
                self.init_array(m, ty, init)
            elif inits:
                raise self.unsupported(inits[0], "array initializer that is not a brace list")
            return
        if CT.is_dim3(ty):
            vals = self.dim3_value(inits[0]) if inits else [self.const_int(ir.IntegerType.get_signless(32), 1)] * 3
            for comp, v in zip("xyz", vals):
                self.env[(key, comp)] = Binding(v)
            return
        if ty.kind == T.RECORD:
            self.struct_vars[key] = self.struct_storage(d, ty, inits)
            return
        if not (CT.is_arith(ty) or ty.kind == T.POINTER):
            raise self.unsupported(d, f"variable of type '{d.type.spelling}'")
        init = inits[-1] if inits else None
        if self.has_vla_pointee(ty):
            self.define(key, ty, self.vla_pointer(init, ty, size_expressions(d, exclude=init), d))
            return
        if init is not None:
            value, form = self.rvalue_form(init)
            value = self.convert(value, init.type, ty, init)
            if form is not None and not (CT.is_int(ty) and not CT.is_unsigned(ty)):
                form = None
        else:
            value, form = self.zero(ty), None
        self.define(key, ty, value, form)

    def enzyme_struct_init(self, init):
        call = strip_implicit(init)
        return call.kind == K.CALL_EXPR and call.referenced is not None and bool(enzyme.mode_of(call.referenced.spelling))

    def struct_storage(self, d, ty, inits):
        """A local struct of scalar fields (e.g. `struct timeval` for gettimeofday) as raw bytes on the stack:
        fields are read and written through their byte offsets, `&s` is the C pointer. Struct copies,
        initializers and nested aggregates are not supported yet."""
        for f in ty.get_fields():
            ft = canonical(f.type)
            if f.is_bitfield() or not (CT.is_arith(ft) or ft.kind == T.POINTER):
                raise self.unsupported(d, f"struct with a field of type '{f.type.spelling}'")
        call = strip_implicit(inits[-1]) if inits else None
        gradients = call is not None and call.kind == K.CALL_EXPR and call.referenced is not None \
            and enzyme.mode_of(call.referenced.spelling)  # `struct grads g = __enzyme_autodiff(...)`
        if inits and not gradients and not self.mg.builtins.is_channel_desc(inits[-1]):
            raise self.unsupported(d, "struct initializer")
        i64 = ir.IntegerType.get_signless(64)
        with ir.InsertionPoint.at_block_begin(self.entry):
            n = llvm.ConstantOp(i64, ir.IntegerAttr.get(i64, ty.get_size()))
            ptr = llvm.AllocaOp(CT.llvm_ptr(), n.result, ir.IntegerType.get_signless(8),
                                alignment=ty.get_align()).result
        if gradients:
            enzyme.emit(self, call, list(call.get_arguments()), struct_ptr=ptr)
        return ptr

    def shared_memory(self, d, ty):
        """A `__shared__` variable: a memref marked `pgcc.shared`, which --cpuify allocates once per block.
        ``extern __shared__ T s[]`` (sized by the launch) is a call to @__pgcc_dynamic_shared_<T>."""
        if CT.is_array(ty):
            shape = CT.array_shape(ty)
            if not CT.is_arith(shape.elem):
                raise self.unsupported(d, f"__shared__ array of '{shape.elem.spelling}'")
            if ty.kind == T.INCOMPLETEARRAY and len(shape.dims) == 1:
                elem = CT.memory_type(shape.elem)
                mtype = ir.MemRefType.get([ir.ShapedType.get_dynamic_size()], elem)
                name = self.mg.declare_dynamic_shared(elem, mtype)
                return func.CallOp([mtype], ir.FlatSymbolRefAttr.get(name), []).result
            if None in shape.dims:
                raise self.unsupported(d, "__shared__ array of variable size")
            m = self.alloca_entry(CT.array_memref_type(ty))
        elif CT.is_arith(ty):
            m = self.alloca_entry(ir.MemRefType.get([], CT.memory_type(ty)))
        else:
            raise self.unsupported(d, f"__shared__ variable of type '{d.type.spelling}'")
        m.owner.attributes["pgcc.shared"] = ir.UnitAttr.get()
        if var_decl_initializer(d) is not None:
            raise self.error(d, "initializer on a __shared__ variable (CUDA does not allow one)")
        return m

    def shared_bytes(self, d, ty):
        """A `__shared__` struct, union or array of them (`__shared__ float4 tile[64]`): raw bytes with the
        C layout, like a local struct (docs/memory_model.md), in an i8 memref marked `pgcc.shared` so that
        --cpuify allocates it once per block; returns the !llvm.ptr to its first byte.

        Raises:
            CompileError: a variable-size or initialized __shared__ object.
        """
        if ty.kind in (T.INCOMPLETEARRAY, T.VARIABLEARRAY):
            raise self.unsupported(d, f"__shared__ array of '{CT.array_shape(ty).elem.spelling}' of variable size")
        init = var_decl_initializer(d)
        if init is not None and not is_default_construction(init, ty):
            raise self.error(d, "initializer on a __shared__ variable (CUDA does not allow one)")
        i8 = ir.IntegerType.get_signless(8)
        m = self.alloca_entry(ir.MemRefType.get([CT.size_of(ty)], i8))
        m.owner.attributes["pgcc.shared"] = ir.UnitAttr.get()
        m.owner.attributes["alignment"] = ir.IntegerAttr.get(ir.IntegerType.get_signless(64), max(ty.get_align(), 16))
        return self.to_ptr(m)

    def init_array(self, m, ty, init):
        """Store the elements of an initializer list (missing elements are zero)."""
        shape = CT.array_shape(ty)
        elem = shape.elem
        big = big_init.is_large(shape.dims)
        if big:  # zero everything with one loop nest, then store only the listed elements
            big_init.fill_zero(self, m, shape.dims, self.zero(elem))

        def flat(node, prefix, depth):
            items = [e for e in children(node)]
            for i in range(min(shape.dims[depth], len(items)) if big else shape.dims[depth]):
                if depth + 1 < len(shape.dims):
                    sub = items[i] if i < len(items) and items[i].kind == K.INIT_LIST_EXPR else None
                    if sub is None:
                        if not big:
                            zero_fill(prefix + [i], depth + 1)
                    else:
                        flat(sub, prefix + [i], depth + 1)
                else:
                    v = self.convert(self.rvalue(items[i]), items[i].type, elem, items[i]) if i < len(items) else self.zero(elem)
                    memref.StoreOp(CT.as_stored(v, m), m, [self.const_index(j) for j in prefix + [i]])

        def zero_fill(prefix, depth):
            for i in range(shape.dims[depth]):
                if depth + 1 < len(shape.dims):
                    zero_fill(prefix + [i], depth + 1)
                else:
                    memref.StoreOp(CT.as_stored(self.zero(elem), m), m, [self.const_index(j) for j in prefix + [i]])

        flat(init, [], 0)

    def visit_RETURN_STMT(self, c):
        ch = children(c)
        if ch and self.ret_type.kind == T.RECORD:  # copied now: later statements may change the object
            self.copy_bytes(self.env[RETVAL].value, self.record_value(ch[0]), CT.size_of(self.ret_type))
        elif ch and CT.is_reference(self.ret_type):  # `return data[i];` from `double &at(int i)`: an address
            self.env[RETVAL] = Binding(self.reference_to(ch[0], CT.unreferenced(self.ret_type)))
        elif ch:
            v = self.rvalue(ch[0])
            self.env[RETVAL] = Binding(self.convert(v, ch[0].type, self.ret_type, ch[0]))
        self.env[RET] = Binding(self.const_bool(True))

    def visit_BREAK_STMT(self, c):
        if not self.loops or self.loops[-1][0] is None:
            raise self.unsupported(c, "break outside a loop")
        self.env[self.loops[-1][0]] = Binding(self.const_bool(True))

    def visit_CONTINUE_STMT(self, c):
        if not self.loops or self.loops[-1][1] is None:
            raise self.unsupported(c, "continue outside a loop")
        self.env[self.loops[-1][1]] = Binding(self.const_bool(True))

    def visit_LABEL_STMT(self, c):
        gotos.emit_label(self, c)

    def visit_GOTO_STMT(self, c):
        gotos.emit_goto(self, c)

    def visit_INDIRECT_GOTO_STMT(self, c):
        raise self.error(c, "goto is not supported: computed goto")

    def visit_SWITCH_STMT(self, c):
        switch.emit_switch(self, c)

    def visit_CASE_STMT(self, c):
        raise self.unsupported(c, "case label outside the top level of a switch body")

    visit_DEFAULT_STMT = visit_CASE_STMT

    # ---------------------------------------------------------------- loops
    def for_parts(self, c):
        """init, cond, inc, body of a FOR_STMT (absent parts are None), told apart by the `;` tokens."""
        ch = children(c)
        body = ch[-1]
        if len(ch) == 4:  # all three present (no tokens needed: a loop written by a macro has none usable)
            return ch[0], ch[1], ch[2], body
        parts = {"init": None, "cond": None, "inc": None}
        # the two ';' of the header are the first ones at parenthesis depth 1
        semis, depth = [], 0
        for t in c.get_tokens():
            if t.spelling == "(":
                depth += 1
            elif t.spelling == ")":
                depth -= 1
                if depth == 0:
                    break
            elif t.spelling == ";" and depth == 1:
                semis.append(t.extent.start.offset)
        for part in ch[:-1]:
            off = part.extent.start.offset
            if off < semis[0]:
                parts["init"] = part
            elif off < semis[1]:
                parts["cond"] = part
            else:
                parts["inc"] = part
        return parts["init"], parts["cond"], parts["inc"], body

    def counted_loop(self, init, cond, inc, body):
        """Match `for (i = lb; i < ub; i += s)` (and <=, >, >=, decrements). Returns a dict or None."""
        if init is None or cond is None or inc is None:
            return None
        var = None
        lb = None
        if init.kind == K.DECL_STMT:
            ds = children(init)
            if len(ds) != 1 or ds[0].kind != K.VAR_DECL:
                return None
            var = ds[0]
            ie = [e for e in children(var) if e.kind.is_expression()]
            if not ie:
                return None
            lb = ie[-1]
            declared = True
        elif init.kind == K.BINARY_OPERATOR and init.binary_operator.name == "Assign":
            lhs, lb = children(init)
            lhs = strip_implicit(lhs)
            if lhs.kind != K.DECL_REF_EXPR:
                return None
            var = lhs.referenced
            declared = False
        else:
            return None
        ty = canonical(var.type)
        if not CT.is_int(ty) or decl_key(var) in self.addr_taken or decl_key(var) in self.mem:
            return None
        if var.kind == K.VAR_DECL and (var.storage_class in (var.storage_class.STATIC, var.storage_class.EXTERN) or
                                       var.semantic_parent is None or var.semantic_parent.kind != K.FUNCTION_DECL):
            return None  # a global or static index lives in memory, where calls in the body see it
        key = decl_key(var)
        # increment
        step = None
        inc_s = strip_implicit(inc)
        if inc_s.kind == K.UNARY_OPERATOR and unary_op(inc_s) in ("pre++", "post++", "pre--", "post--"):
            if self.refers_to(children(inc_s)[0], key):
                step = 1 if "++" in unary_op(inc_s) else -1
        elif inc_s.kind == K.COMPOUND_ASSIGNMENT_OPERATOR:
            lhs, rhs = children(inc_s)
            v = evaluate(rhs)
            if self.refers_to(lhs, key) and isinstance(v, int) and v != 0:
                op = inc_s.binary_operator.name
                step = v if op == "AddAssign" else -v if op == "SubAssign" else None
        elif inc_s.kind == K.BINARY_OPERATOR and inc_s.binary_operator.name == "Assign":
            lhs, rhs = children(inc_s)
            r = strip_implicit(rhs)
            if self.refers_to(lhs, key) and r.kind == K.BINARY_OPERATOR and r.binary_operator.name in ("Add", "Sub"):
                a, b = children(r)
                v = evaluate(b)
                if self.refers_to(a, key) and isinstance(v, int) and v != 0:
                    step = v if r.binary_operator.name == "Add" else -v
        if step is None:
            return None
        # condition
        cs = strip_implicit(cond)
        if cs.kind != K.BINARY_OPERATOR:
            return None
        op = cs.binary_operator.name
        a, b = children(cs)
        flip = {"LT": "GT", "LE": "GE", "GT": "LT", "GE": "LE"}
        if op not in flip:
            return None
        if self.refers_to(a, key):
            bound = b
        elif self.refers_to(b, key):
            bound, op = a, flip[op]
        else:
            return None
        if step > 0 and op not in ("LT", "LE") or step < 0 and op not in ("GT", "GE"):
            return None
        if not IS.counted_compare_ok(ty, a.type, step, b if bound is b else a):
            return None
        if step < 0 and CT.is_unsigned(ty):
            return None
        if key in assigned_decls([body]) or self.mentions(bound, key) or self.mentions(lb, key) and not declared:
            return None
        if exits(body, (K.BREAK_STMT, K.RETURN_STMT, K.GOTO_STMT)):
            return None
        return dict(var=var, key=key, ty=ty, lb=lb, bound=bound, inclusive=op in ("LE", "GE"), step=step,
                    declared=declared)

    def refers_to(self, e, key):
        e = strip_implicit(e)
        return e.kind == K.DECL_REF_EXPR and e.referenced is not None and decl_key(e.referenced) == key

    def mentions(self, e, key):
        if e.kind == K.DECL_REF_EXPR and e.referenced is not None and decl_key(e.referenced) == key:
            return True
        return any(self.mentions(ch, key) for ch in e.get_children())

    def invariant(self, e, loop_nodes):
        """Whether expression `e` has the same value on every iteration: no memory reads, calls or side effects,
        and no variable assigned in the loop."""
        assigned = assigned_decls(loop_nodes)

        def ok(n):
            k = n.kind
            if k in (K.CALL_EXPR, K.ARRAY_SUBSCRIPT_EXPR, K.COMPOUND_ASSIGNMENT_OPERATOR, K.MEMBER_REF_EXPR):
                return False
            if k == K.UNARY_OPERATOR and unary_op(n) in ("pre++", "pre--", "post++", "post--", "*"):
                return False
            if k == K.BINARY_OPERATOR and n.binary_operator.name == "Assign":
                return False
            if k == K.DECL_REF_EXPR and n.referenced is not None:
                r = n.referenced
                if r.kind in (K.VAR_DECL, K.PARM_DECL):
                    rk = decl_key(r)
                    if rk in assigned or rk in self.mem or rk not in self.env:
                        return False
            return all(ok(ch) for ch in n.get_children())

        return ok(e)

    def visit_FOR_STMT(self, c):
        init, cond, inc, body = self.for_parts(c)
        m = self.counted_loop(init, cond, inc, body)
        if m is not None and self.invariant(m["lb"], [c]) and self.invariant(m["bound"], [c]):
            lb_v, lb_f = self.rvalue_form(m["lb"])
            ub_v, ub_f = self.rvalue_form(m["bound"])
            lb_v = self.convert(lb_v, m["lb"].type, m["ty"], m["lb"])
            if not IS.wider_signed(m["bound"].type, m["ty"]):  # (a wider bound keeps its width: index_cast)
                ub_v = self.convert(ub_v, m["bound"].type, m["ty"], m["bound"])
            if lb_f is not None and ub_f is not None:
                self.emit_affine_for(m, lb_f, ub_f, body, c)
            else:
                self.emit_scf_for(m, lb_v, ub_v, body, c)
        else:
            if init is not None:
                self.visit(init)
            self.emit_while(cond, body, inc, c)

    def emit_affine_for(self, m, lb_f, ub_f, body, c):
        step = m["step"]
        idx = ir.IndexType.get()
        if m["inclusive"]:
            ub_f = AF.add(ub_f, AF.const(1 if step > 0 else -1))
        if step > 0:
            lo, hi, st = lb_f, ub_f, step
        else:  # normalized: k in [0, (lb - ub) floordiv |s| + 1), i = lb - |s| k  (ub exclusive here)
            lo, hi, st = AF.const(0), None, 1
        lmap, lops = AF.to_map([lo])
        if hi is not None:
            umap, uops = AF.to_map([hi])
        else:
            m1, ops1 = AF.to_map([AF.sub(lb_f, ub_f)])
            e = m1.results[0]
            trip = ir.AffineAddExpr.get(ir.AffineFloorDivExpr.get(ir.AffineAddExpr.get(e, ir.AffineConstantExpr.get(-1)), ir.AffineConstantExpr.get(-step)), ir.AffineConstantExpr.get(1))
            umap, uops = AF.map_with(m1.n_dims, m1.n_symbols, [trip]), ops1
        self.lower_counted(m, body, c, lambda init_vals: affine.AffineForOp(
            lmap, umap, st, init_vals, lower_bound_operands=lops, upper_bound_operands=uops), affine.AffineYieldOp,
            lambda iv: ("dim", iv) if step > 0 else AF.add(lb_f, AF.mul(AF.const(step), ("dim", iv))),
            final=lambda: self.affine_final(lb_f, ub_f, step))

    def affine_final(self, lb_f, ub_f, step):
        """Value of the index after the loop, as index: max(lb, lb + ceil((ub-lb)/s)*s) (or the mirror)."""
        if step > 0:
            mp, ops = AF.to_map([lb_f, ub_f])
            lb, ub = mp.results
            e = ir.AffineAddExpr.get(lb, ir.AffineMulExpr.get(ir.AffineCeilDivExpr.get(ir.AffineAddExpr.get(ub, ir.AffineMulExpr.get(lb, ir.AffineConstantExpr.get(-1))), ir.AffineConstantExpr.get(step)), ir.AffineConstantExpr.get(step)))
            return affine.AffineMaxOp(AF.map_with(mp.n_dims, mp.n_symbols, [lb, e]), ops).result
        mp, ops = AF.to_map([lb_f, ub_f])
        lb, ub = mp.results
        s = -step
        trip = ir.AffineAddExpr.get(ir.AffineFloorDivExpr.get(ir.AffineAddExpr.get(ir.AffineAddExpr.get(lb, ir.AffineMulExpr.get(ub, ir.AffineConstantExpr.get(-1))), ir.AffineConstantExpr.get(-1)), ir.AffineConstantExpr.get(s)), ir.AffineConstantExpr.get(1))
        e = ir.AffineAddExpr.get(lb, ir.AffineMulExpr.get(trip, ir.AffineConstantExpr.get(-s)))
        return affine.AffineMinOp(AF.map_with(mp.n_dims, mp.n_symbols, [lb, e]), ops).result

    def emit_scf_for(self, m, lb_v, ub_v, body, c):
        ty, step = m["ty"], m["step"]
        lb_i, ub_i = self.index_of(lb_v, ty), self.index_of(ub_v, ty)
        one = self.const_index(1)
        if m["inclusive"]:
            ub_i = arith.addi(ub_i, one) if step > 0 else arith.subi(ub_i, one)
        s = self.const_index(abs(step))
        if step > 0:
            lo, hi = lb_i, ub_i
        else:  # k in [0, ceil((lb - ub)/|s|)), i = lb - |s| k
            diff = arith.subi(lb_i, ub_i)
            lo, hi = self.const_index(0), arith.ceildivsi(arith.maxsi(diff, self.const_index(0)), s)

        def make(init_vals):
            return scf.ForOp(lo, hi, s if step > 0 else one, init_vals)

        def final():
            if step > 0:
                trip = arith.ceildivsi(arith.maxsi(arith.subi(ub_i, lb_i), self.const_index(0)), s)
                return arith.addi(lb_i, arith.muli(trip, s))
            return arith.subi(lb_i, arith.muli(hi, s))

        def iv_value(iv):
            return None if step > 0 else arith.subi(lb_i, arith.muli(iv, s))

        self.lower_counted(m, body, c, make, scf.YieldOp, None, final=final, iv_value=iv_value)

    def lower_counted(self, m, body, c, make, yield_op, iv_form, final, iv_value=None):
        """Shared body of affine.for / scf.for emission: iter_args for assigned variables, `continue` flag."""
        key, ty = m["key"], m["ty"]
        cont = ("cont", next(self.loop_ids)) if exits(body, (K.CONTINUE_STMT,)) else None
        keys = [k for k in self.carried([body]) if k != key]
        op = make([self.env[k].value for k in keys])
        saved = dict(self.env)
        self.loops.append((None, cont))
        with ir.InsertionPoint(op.body):
            for k, a in zip(keys, op.inner_iter_args):
                self.env[k] = Binding(a)
            iv = op.induction_variable
            form = iv_form(iv) if iv_form else None
            if form is not None and form[0] != "dim":
                mp, ops = AF.to_map([form])
                iv_idx = affine.AffineApplyOp(mp, ops).result
                form = ("dim", iv_idx)
            else:
                iv_idx = iv_value(iv) if iv_value else None
                iv_idx = iv if iv_idx is None else iv_idx
            self.env[key] = Binding(self.from_index(iv_idx, ty), form)
            if cont:
                self.env[cont] = Binding(self.const_bool(False))
            self.visit(body)
            yield_op([self.env[k].value for k in keys])
        self.loops.pop()
        self.env = saved
        for k, r in zip(keys, op.results):
            self.env[k] = Binding(r)
        if not m["declared"] and key in self.env:
            self.env[key] = Binding(self.from_index(final(), ty))

    def emit_while(self, cond, body, inc, c, do_while=False):
        """scf.while for any loop: the before region tests the condition (for do-while: runs the body first)."""
        lid = next(self.loop_ids)
        brk = ("brk", lid) if exits(body, (K.BREAK_STMT,)) else None
        cont = ("cont", lid) if exits(body, (K.CONTINUE_STMT,)) else None
        nodes = [n for n in (cond, body, inc) if n is not None]
        if brk:
            self.env[brk] = Binding(self.const_bool(False))
        keys = self.carried(nodes, extra=[brk] if brk else [])
        if brk and brk not in keys:
            keys.append(brk)
        types = [self.env[k].value.type for k in keys]
        op = scf.WhileOp(types, [self.env[k].value for k in keys])
        before = op.before.blocks.append(*types)
        after = op.after.blocks.append(*types)
        saved = dict(self.env)
        self.loops.append((brk, cont))
        with ir.InsertionPoint(before):
            for k, a in zip(keys, before.arguments):
                self.env[k] = Binding(a)
            if do_while:
                if cont:
                    self.env[cont] = Binding(self.const_bool(False))
                self.visit(body)
                if cont:
                    del self.env[cont]
            go = self.loop_condition(cond, c)
            scf.ConditionOp(go, [self.env[k].value for k in keys])
        self.env = dict(saved)
        with ir.InsertionPoint(after):
            for k, a in zip(keys, after.arguments):
                self.env[k] = Binding(a)
            if not do_while:
                if cont:
                    self.env[cont] = Binding(self.const_bool(False))
                self.visit(body)
                if cont:
                    del self.env[cont]
                if inc is not None:
                    self.emit_guarded_expr(inc)
            scf.YieldOp([self.env[k].value for k in keys])
        self.loops.pop()
        self.env = saved
        for k, r in zip(keys, op.results):
            self.env[k] = Binding(r)
        if brk:
            del self.env[brk]

    def emit_guarded_expr(self, e):
        cond = self.not_exited()
        if cond is None:
            self.visit(e)
        else:
            self.emit_if(cond, lambda: self.visit(e), None, [e])

    def loop_condition(self, cond, c):
        """The loop test, false once break/return flags are set (then the C condition is not evaluated)."""
        flags = [k for k in (self.loops[-1][0], RET) if k is not None and k in self.env]
        flags += [k for k in self.env if gotos.is_flag(k)]
        if cond is None:
            test = lambda: self.const_bool(True)  # noqa: E731
        else:
            test = lambda: self.condition(cond)  # noqa: E731
        if not flags:
            return test()
        stop = None
        for k in flags:
            stop = self.env[k].value if stop is None else arith.ori(stop, self.env[k].value)
        go = arith.xori(stop, self.const_bool(True))
        if cond is None or self.pure(cond) and not self.reads_memory(cond):
            t = test()
            return arith.select(go, t, self.const_bool(False)) if cond is not None and self.may_be_poison(cond) \
                else arith.andi(go, t)
        return self.emit_if(go, test, lambda: self.const_bool(False), [cond], result_type=ir.IntegerType.get_signless(1))

    def pure(self, e):
        return not (assigned_decls([e]) or self.has_call(e))

    def has_call(self, e):
        return e.kind == K.CALL_EXPR or any(self.has_call(ch) for ch in e.get_children())

    def visit_WHILE_STMT(self, c):
        cond, body = children(c)
        self.emit_while(cond, body, None, c)

    def visit_DO_STMT(self, c):
        body, cond = children(c)
        self.emit_while(cond, body, None, c, do_while=True)

    # ---------------------------------------------------------------- expressions: values
    def condition(self, e):
        return self.to_bool(self.rvalue(e), e.type)

    def to_bool(self, v, ty):
        ty = canonical(ty)
        if v.type == ir.IntegerType.get_signless(1):
            return v
        if CT.is_int(ty):
            return arith.cmpi(arith.CmpIPredicate.ne, v, self.const_int(v.type, 0))
        if CT.is_float(ty):
            return arith.cmpf(arith.CmpFPredicate.UNE, v, arith.constant(v.type, 0.0))
        if ty.kind == T.POINTER:
            p = self.to_ptr(v) if v.type != CT.llvm_ptr() else v
            return llvm.ICmpOp(llvm.ICmpPredicate.ne, p, llvm.ZeroOp(CT.llvm_ptr()).result).result
        raise CompileError(f"cannot test a value of type '{ty.spelling}'")

    def convert(self, v, src, dst, cursor=None):
        """C conversion of value `v` from type `src` to type `dst` (usual arithmetic conversions, casts)."""
        src, dst = canonical(src), canonical(dst)
        if dst.kind == T.VOID or dst.kind == T.RECORD and src.kind == T.RECORD:
            return v
        if dst.kind == T.BOOL:
            return self.to_bool(v, src)
        if CT.is_arith(dst):
            dt = CT.scalar_type(dst)
            if v.type == dt and not (CT.is_int(dst) and src.kind == T.BOOL):
                return v
            if src.kind == T.POINTER:  # (uintptr_t)p: the address
                if not CT.is_int(dst):
                    raise error_at(cursor, "unsupported construct: pointer to floating conversion")
                a = llvm.PtrToIntOp(ir.IntegerType.get_signless(64), self.to_ptr(v)).result
                return a if dt.width == 64 else arith.trunci(dt, a)
            if CT.is_float(dst):
                if isinstance(v.type, ir.IntegerType):
                    if CT.is_unsigned(src) or v.type.width == 1:
                        return arith.uitofp(dt, v)
                    return arith.sitofp(dt, v)
                return arith.extf(dt, v) if dt.width > v.type.width else arith.truncf(dt, v)
            if isinstance(v.type, ir.IntegerType):
                if dt.width > v.type.width:
                    return arith.extui(dt, v) if (CT.is_unsigned(src) or v.type.width == 1) else arith.extsi(dt, v)
                if dt.width < v.type.width:
                    return arith.trunci(dt, v)
                return v
            return arith.fptoui(dt, v) if CT.is_unsigned(dst) else arith.fptosi(dt, v)
        if dst.kind == T.POINTER:
            if src.kind == T.NULLPTR:
                return self.null_pointer(dst)
            if CT.is_int(src):
                n = evaluate(cursor) if cursor is not None else None
                if n == 0:
                    return self.null_pointer(dst)
                if self.has_vla_pointee(dst):
                    raise error_at(cursor, "unsupported construct: integer to pointer-to-VLA conversion")
                i64 = ir.IntegerType.get_signless(64)  # (T *)n: the address n
                if v.type != i64:
                    v = arith.extui(i64, v) if CT.is_unsigned(src) or v.type.width == 1 else arith.extsi(i64, v)
                return self.coerce_pointer(llvm.IntToPtrOp(CT.llvm_ptr(), v).result, dst)
            return self.coerce_pointer(v, dst)
        raise error_at(cursor, f"unsupported conversion to '{dst.spelling}'") if cursor else CompileError("unsupported conversion")

    def rvalue_form(self, e):
        """The value of an integer expression and, when it is affine here, its affine form."""
        form = self.form_of(e)
        return self.rvalue(e), form

    def rvalue(self, e, discard=False):
        """Emit expression `e` and return its value (of the MLIR type of e's C type)."""
        with self.loc(e):
            k = e.kind
            m = getattr(self, "expr_" + k.name, None)
            if m is None:
                raise self.unsupported(e, f"expression '{k.name.lower().replace('_', ' ')}'")
            return m(e, discard) if k in (K.CALL_EXPR, K.BINARY_OPERATOR, K.COMPOUND_ASSIGNMENT_OPERATOR, K.UNARY_OPERATOR) else m(e)

    def expr_INTEGER_LITERAL(self, e):
        v = evaluate(e)
        ty = canonical(e.type)
        return self.const_int(ty, v if not CT.is_unsigned(ty) else self.signed_bits(v, CT.scalar_type(ty).width))

    def signed_bits(self, v, width):
        v &= (1 << width) - 1
        return v - (1 << width) if v >= 1 << (width - 1) else v

    def expr_CHARACTER_LITERAL(self, e):
        return self.const_int(e.type, evaluate(e))

    def expr_CXX_BOOL_LITERAL_EXPR(self, e):
        return self.const_int(e.type, 1 if evaluate(e) else 0)

    def expr_GNU_NULL_EXPR(self, e):
        """C++'s NULL (GNU __null): an integer zero that converts to any null pointer."""
        return self.const_int(e.type, 0)

    def expr_CXX_NULL_PTR_LITERAL_EXPR(self, e):
        return llvm.ZeroOp(CT.llvm_ptr()).result

    def expr_FLOATING_LITERAL(self, e):
        return arith.constant(CT.scalar_type(e.type), float(evaluate(e)))

    def expr_PAREN_EXPR(self, e):
        return self.rvalue(children(e)[0])

    def expr_CXX_UNARY_EXPR(self, e):  # sizeof / alignof
        v = evaluate(e)
        if not isinstance(v, int):
            raise self.unsupported(e, "sizeof of a variable-length type")
        return self.const_int(e.type, v)

    def expr_UNARY_EXPR(self, e):
        return self.expr_CXX_UNARY_EXPR(e)

    def expr_STRING_LITERAL(self, e):
        return self.mg.string_constant(string_literal(e))

    def expr_DECL_REF_EXPR(self, e):
        r = e.referenced
        if r is None:
            raise self.unsupported(e, f"reference to '{e.spelling}'")
        if r.kind == K.ENUM_CONSTANT_DECL:
            return self.const_int(e.type, r.enum_value)
        if r.kind in (K.VAR_DECL, K.PARM_DECL):
            ty = canonical(e.type)
            if CT.is_array(ty):
                raise self.unsupported(e, "array used as a value")
            if r.spelling == "warpSize" and r.semantic_parent.kind == K.TRANSLATION_UNIT:
                return self.const_int(ty, WARP_SIZE)
            return self.load(self.lvalue(e))
        if r.kind == K.FUNCTION_DECL:
            return self.function_address(r, e)
        raise self.unsupported(e, f"reference to {r.kind.name.lower()}")

    def expr_UNEXPOSED_EXPR(self, e):
        ch = children(e)
        if not ch:  # a default argument (CXXDefaultArgExpr) or similar: constant-fold it
            v = evaluate(e)
            if v is None:
                if canonical(e.type).kind == T.POINTER:
                    return self.null_pointer(canonical(e.type))
                raise self.unsupported(e, "default argument that is not a constant")
            return arith.constant(CT.scalar_type(e.type), float(v)) if CT.is_float(e.type) else self.const_int(e.type, v)
        if len(ch) != 1:
            raise self.unsupported(e)
        return self.cast(ch[0], e.type, e)

    def expr_CSTYLE_CAST_EXPR(self, e):
        return self.cast(children(e)[-1], e.type, e)

    expr_CXX_STATIC_CAST_EXPR = expr_CSTYLE_CAST_EXPR
    expr_CXX_FUNCTIONAL_CAST_EXPR = expr_CSTYLE_CAST_EXPR
    expr_CXX_REINTERPRET_CAST_EXPR = expr_CSTYLE_CAST_EXPR

    def cast(self, inner, to_ty, e):
        """Implicit or explicit conversion of `inner` to `to_ty` (decay, lvalue-to-rvalue, arithmetic)."""
        to_c = canonical(to_ty)
        from_c = canonical(inner.type)
        if to_c.kind == T.POINTER and (CT.is_array(from_c) or from_c.kind == T.FUNCTIONPROTO):
            return self.pointer(e)
        if to_c.kind == T.POINTER and from_c.kind == T.POINTER:
            si = strip_implicit(inner)
            if si.kind == K.CALL_EXPR and self.mg.builtins.is_allocator(si):
                return self.mg.builtins.allocate(self, si, to_c)
            return self.pointer(e)
        v = self.rvalue(inner)
        if to_c.kind == T.RECORD and from_c.kind == T.RECORD:
            return v
        return self.convert(v, from_c, to_c, inner)

    def expr_ARRAY_SUBSCRIPT_EXPR(self, e):
        return self.load(self.lvalue(e))

    def expr_MEMBER_REF_EXPR(self, e):
        return self.load(self.lvalue(e))

    def expr_CONDITIONAL_OPERATOR(self, e):
        cond, a, b = children(e)
        cv = self.condition(cond)
        ty = canonical(e.type)
        if ty.kind == T.VOID:
            self.emit_if(cv, lambda: self.rvalue(a, discard=True), lambda: self.rvalue(b, discard=True), [a, b])
            return None
        rt = CT.value_type(ty)
        if self.pure(a) and self.pure(b) and not self.reads_memory(a) and not self.reads_memory(b):
            va = self.convert(self.rvalue(a), a.type, ty, a)
            vb = self.convert(self.rvalue(b), b.type, ty, b)
            return arith.select(cv, va, vb)
        return self.emit_if(cv, lambda: self.convert(self.rvalue(a), a.type, ty, a),
                            lambda: self.convert(self.rvalue(b), b.type, ty, b), [a, b], result_type=rt)

    def may_be_poison(self, e):
        """Whether `e` has a shift, whose LLVM result is poison for an out-of-range count."""
        if e.kind in (K.BINARY_OPERATOR, K.COMPOUND_ASSIGNMENT_OPERATOR) and \
                e.binary_operator.name.replace("Assign", "") in ("Shl", "Shr"):
            return True
        return any(self.may_be_poison(ch) for ch in e.get_children())

    def reads_memory(self, e):
        """Whether `e` may not be evaluated speculatively (as a select operand, a `?:` arm or the right of
        `&&`/`||`): it reads through a subscript, a pointer or a struct member (`p->f` with p null), or divides
        integers (a division by zero or INT_MIN / -1 traps; csmith's safe math guards them with `?:`)."""
        if e.kind in (K.ARRAY_SUBSCRIPT_EXPR,) or e.kind == K.UNARY_OPERATOR and unary_op(e) == "*":
            return True
        if e.kind == K.MEMBER_REF_EXPR and children(e) and not CT.is_dim3(children(e)[0].type):
            return True  # a struct member (threadIdx.x and dim3 variables are values)
        if e.kind in (K.BINARY_OPERATOR, K.COMPOUND_ASSIGNMENT_OPERATOR) and \
                e.binary_operator.name.replace("Assign", "") in ("Div", "Rem") and CT.is_int(e.type):
            return True
        # a shift by an out-of-range count, or a float-to-int conversion out of range, is poison in LLVM, and
        # `c || b` computed as `or` keeps it even when c holds: C never evaluates b then
        if e.kind == K.BINARY_OPERATOR and e.binary_operator.name in ("Shl", "Shr"):
            return True
        if e.kind in (K.UNEXPOSED_EXPR, K.CSTYLE_CAST_EXPR) and CT.is_int(e.type) and children(e) and \
                CT.is_float(children(e)[-1].type):
            return True
        return any(self.reads_memory(ch) for ch in e.get_children())

    def expr_BINARY_OPERATOR(self, e, discard=False):
        op = e.binary_operator.name
        a, b = children(e)
        if op == "Assign":
            if self.mg.builtins.is_texture_setting(a):  # tex.filterMode = ...: no meaning on a CPU
                return self.mg.builtins.texture_setting(self, a, b)
            lv = self.lvalue(a)
            raw_rhs = not CT.pointee_is_memref(strip_implicit(b).type)  # void *, 0
            if isinstance(lv, VarLV) and self.has_vla_pointee(a.type) and raw_rhs:
                v = self.pointer_like(self.raw_operand(b), self.env[lv.key].value, canonical(a.type))
                self.store(lv, v)
                return v
            v, form = self.rvalue_form(b)
            v = self.convert(v, b.type, a.type, b)
            stored = self.store(lv, v, form)
            return v if stored is None else stored
        if op == "Comma":
            self.rvalue(a, discard=True)
            return self.rvalue(b)
        if op in ("LAnd", "LOr"):
            return self.logical(op, a, b, e)
        ty = canonical(e.type)
        at, bt = canonical(a.type), canonical(b.type)
        if op in ("Add", "Sub") and (at.kind == T.POINTER or bt.kind == T.POINTER):
            return self.pointer_arith(e, op, a, b)
        va, vb = self.rvalue(a), self.rvalue(b)
        if op in ("LT", "GT", "LE", "GE", "EQ", "NE"):
            return self.from_bool(self.compare(op, va, vb, at), ty)
        return self.arith_op(op, va, vb, ty, e)

    def from_bool(self, v, ty):
        ty = canonical(ty)
        if ty.kind == T.BOOL:
            return v
        return arith.extui(CT.scalar_type(ty), v)

    def compare(self, op, va, vb, operand_ty):
        if CT.is_float(operand_ty):
            pred = {"LT": "olt", "GT": "ogt", "LE": "ole", "GE": "oge", "EQ": "oeq", "NE": "une"}[op]
            return arith.cmpf(getattr(arith.CmpFPredicate, pred.upper()), va, vb)
        if canonical(operand_ty).kind == T.POINTER:
            if op not in ("EQ", "NE"):
                return self.pointer_order(op, va, vb)
            pa, pb = self.to_ptr(va), self.to_ptr(vb)
            return llvm.ICmpOp(llvm.ICmpPredicate.eq if op == "EQ" else llvm.ICmpPredicate.ne, pa, pb).result
        u = CT.is_unsigned(operand_ty)
        pred = {"LT": "ult" if u else "slt", "GT": "ugt" if u else "sgt", "LE": "ule" if u else "sle",
                "GE": "uge" if u else "sge", "EQ": "eq", "NE": "ne"}[op]
        return arith.cmpi(getattr(arith.CmpIPredicate, pred), va, vb)

    def arith_op(self, op, va, vb, ty, e):
        if CT.is_float(ty):
            f = {"Add": arith.addf, "Sub": arith.subf, "Mul": arith.mulf, "Div": arith.divf, "Rem": arith.remf}.get(op)
            if f is None:
                raise self.unsupported(e, f"operator {op} on floating point")
            return f(va, vb)
        u = CT.is_unsigned(ty)
        if op in ("Shl", "Shr") and vb.type != va.type:
            vb = arith.extui(va.type, vb) if vb.type.width < va.type.width else arith.trunci(va.type, vb)
        f = {"Add": arith.addi, "Sub": arith.subi, "Mul": arith.muli, "Div": arith.divui if u else arith.divsi,
             "Rem": arith.remui if u else arith.remsi, "And": arith.andi, "Or": arith.ori, "Xor": arith.xori,
             "Shl": arith.shli, "Shr": arith.shrui if u else arith.shrsi}.get(op)
        if f is None:
            raise self.unsupported(e, f"operator {op}")
        return f(va, vb)

    def logical(self, op, a, b, e):
        va = self.condition(a)
        i1 = ir.IntegerType.get_signless(1)
        if self.pure(b) and not self.reads_memory(b):
            vb = self.condition(b)
            if self.may_be_poison(b):  # select blocks the poison of a side C does not evaluate (`n >= 32 || x >> n`)
                r = arith.select(va, vb, self.const_bool(False)) if op == "LAnd" else \
                    arith.select(va, self.const_bool(True), vb)
            else:  # and/or trees: what guard narrowing (--cpuify) reads
                r = arith.andi(va, vb) if op == "LAnd" else arith.ori(va, vb)
        elif op == "LAnd":
            r = self.emit_if(va, lambda: self.condition(b), lambda: self.const_bool(False), [b], result_type=i1)
        else:
            r = self.emit_if(va, lambda: self.const_bool(True), lambda: self.condition(b), [b], result_type=i1)
        return self.from_bool(r, e.type)

    def expr_COMPOUND_ASSIGNMENT_OPERATOR(self, e, discard=False):
        op = e.binary_operator.name.replace("Assign", "")
        a, b = children(e)
        lv = self.lvalue(a)
        at = canonical(a.type)
        if at.kind == T.POINTER:
            cur = self.load(lv)
            k = self.index_of(self.rvalue(b), b.type)
            if op == "Sub":
                k = arith.subi(self.const_index(0), k)
            v = self.offset_pointer(cur, k, at)
            self.store(lv, v)
            return v
        # the computation type: usual arithmetic conversions (promoted lhs for shifts), then back to lhs's type
        if not (CT.is_arith(at) and CT.is_arith(b.type)):
            raise self.unsupported(e, f"compound assignment to '{a.type.spelling}'")
        comp = IS.compound_computation_type(op, at, b.type)
        cur = self.convert(self.load(lv), at, comp, a)
        rv = self.convert(self.rvalue(b), b.type, comp, b)
        form = None
        if lv.__class__ is VarLV and op in ("Add", "Sub") and CT.is_int(at) and not CT.is_unsigned(at):
            f0 = self.env[lv.key].form if lv.key in self.env else None
            fb = self.form_of(b)
            if f0 is not None and fb is not None:
                form = AF.add(f0, fb) if op == "Add" else AF.sub(f0, fb)
        v = self.convert(self.arith_op(op, cur, rv, comp, e), comp, at, e)
        stored = self.store(lv, v, form)
        return v if stored is None else stored

    def expr_UNARY_OPERATOR(self, e, discard=False):
        op = unary_op(e)
        a = children(e)[0]
        ty = canonical(e.type)
        if op == "__extension__":  # GNU: only silences pedantic warnings
            return self.rvalue(a, discard=discard)
        if op in ("pre++", "pre--", "post++", "post--"):
            lv = self.lvalue(a)
            at = canonical(a.type)
            old = self.load(lv)
            if at.kind == T.POINTER:
                new = self.offset_pointer(old, self.const_index(1 if "++" in op else -1), at)
            elif at.kind == T.BOOL:  # b + 1 is nonzero: true; b - 1 is nonzero exactly when b was false
                new = self.const_bool(True) if "++" in op else arith.xori(old, self.const_bool(True))
            elif CT.is_float(at):
                one = arith.constant(old.type, 1.0)
                new = arith.addf(old, one) if "++" in op else arith.subf(old, one)
            elif not isinstance(old.type, ir.IntegerType):  # e.g. ++ on an array parameter of VLA rows
                raise self.unsupported(e, f"{op[-2:]} on a value of type '{a.type.spelling}'")
            else:
                one = self.const_int(old.type, 1)
                new = arith.addi(old, one) if "++" in op else arith.subi(old, one)
            form = None
            if isinstance(lv, VarLV) and lv.key in self.env and self.env[lv.key].form is not None:
                form = AF.add(self.env[lv.key].form, AF.const(1 if "++" in op else -1))
            stored = self.store(lv, new, form)
            return (new if stored is None else stored) if op.startswith("pre") else old
        if op == "&":
            return self.pointer(e)
        if op == "*":
            return self.load(self.lvalue(e))
        v = self.rvalue(a)
        if op == "+":
            return v
        if op == "-":
            if CT.is_float(ty):
                return arith.negf(v)
            return arith.subi(self.const_int(v.type, 0), v)
        if op == "~":
            return arith.xori(v, self.const_int(v.type, -1))
        if op == "!":
            b = self.to_bool(v, a.type)
            return self.from_bool(arith.xori(b, self.const_bool(True)), ty)
        raise self.unsupported(e, f"unary operator {op}")

    def expr_CALL_EXPR(self, e, discard=False):
        if self.returns_reference(e):  # the value of the object the returned reference names
            return self.load(self.lvalue(e))
        return self.mg.calls.emit(self, e)

    def expr_StmtExpr(self, e):
        """GNU statement expression ``({ s1; ...; e; })`` (glibc's assert): the statements, then the value of
        the last one when the expression is not void."""
        stmts = children(children(e)[0])
        if any(self.may_exit(s) for s in stmts):
            raise self.unsupported(e, "return, break or continue inside a statement expression")
        if canonical(e.type).kind == T.VOID or not stmts:
            self.emit_stmts(stmts)
            return None
        self.emit_stmts(stmts[:-1])
        return self.rvalue(stmts[-1])

    def expr_INIT_LIST_EXPR(self, e):
        raise self.unsupported(e, "initializer list here")

    # ---------------------------------------------------------------- affine forms of expressions
    def form_of(self, e):
        """Affine form of a signed integer expression, or None (see affine_forms)."""
        ty = canonical(e.type)
        if not CT.is_int(ty) or CT.is_unsigned(ty):
            return None
        k = e.kind
        if k in (K.UNEXPOSED_EXPR, K.PAREN_EXPR, K.CSTYLE_CAST_EXPR):
            ch = children(e)
            if len(ch) != 1 and k != K.CSTYLE_CAST_EXPR:
                return None
            inner = ch[-1]
            it = canonical(inner.type)
            if not CT.is_int(it) or CT.is_unsigned(it) or CT.size_of(it) > CT.size_of(ty):
                return None
            return self.form_of(inner)
        if k == K.INTEGER_LITERAL:
            v = evaluate(e)
            return AF.const(v) if isinstance(v, int) else None
        if k == K.DECL_REF_EXPR:
            r = e.referenced
            if r is None:
                return None
            if r.kind == K.ENUM_CONSTANT_DECL:
                return AF.const(r.enum_value)
            key = decl_key(r)
            b = self.env.get(key)
            if b is None:
                return None
            if b.form is not None:
                return b.form
            sym = self.symbol_index(b.value, ty)
            return ("sym", sym) if sym is not None else None
        if k == K.BINARY_OPERATOR:
            op = e.binary_operator.name
            if op not in ("Add", "Sub", "Mul"):
                v = evaluate(e) if op in ("Div", "Rem", "Shl") else None
                return AF.const(v) if isinstance(v, int) else None
            a, b = children(e)
            fa, fb = self.form_of(a), self.form_of(b)
            if fa is None or fb is None:
                return None
            return AF.add(fa, fb) if op == "Add" else AF.sub(fa, fb) if op == "Sub" else AF.mul(fa, fb)
        if k == K.UNARY_OPERATOR and unary_op(e) in ("-", "+"):
            f = self.form_of(children(e)[0])
            return None if f is None else (f if unary_op(e) == "+" else AF.neg(f))
        return None

    def symbol_index(self, value, ty):
        """An index value usable as an affine symbol for integer `value`, if it is defined at the function's
        top level (the index_cast is placed at the top level too); else None."""
        owner = value.owner
        if isinstance(owner, ir.Block):
            if owner != self.entry:
                return None
            anchor = None
        else:
            op = owner.operation if hasattr(owner, "operation") else owner
            if op.parent is None or op.parent.operation != self.func.operation:
                return None
            if op.name == "arith.constant":
                return arith.constant(ir.IndexType.get(), ir.IntegerAttr(op.attributes["value"]).value)
            anchor = op
        key = value
        for k, v in self.sym_cache.items():
            if k == key:
                return v
        if anchor is None:
            ip = ir.InsertionPoint.at_block_begin(self.entry)
            # after allocas is fine too; block arguments are available everywhere
        else:
            ops = list(self.entry.operations)
            pos = next(i for i, o in enumerate(ops) if o == anchor)
            ip = ir.InsertionPoint(ops[pos + 1]) if pos + 1 < len(ops) else ir.InsertionPoint(self.entry)
        with ip:
            idx = self.index_of(value, ty)
        self.sym_cache[key] = idx
        return idx

    # ---------------------------------------------------------------- lvalues, loads and stores
    def lvalue(self, e):
        e0 = e
        e = strip_implicit(e) if e.kind == K.PAREN_EXPR else e
        k = e.kind
        if k == K.PAREN_EXPR:
            return self.lvalue(children(e)[0])
        if k == K.DECL_REF_EXPR:
            r = e.referenced
            key = decl_key(r)
            rt = CT.unreferenced(r.type)  # (a reference variable: the object it names)
            if key in self.struct_vars:
                return ("llvm", self.struct_vars[key], rt, None)
            if key in self.mem:
                mv = self.mem[key]
                if mv.is_raw_global:
                    return ("llvm", self.mem_ref(mv), rt, None)
                return MemLV(self.mem_ref(mv), [], rt)
            if key in self.env:
                return VarLV(key, canonical(r.type))
            if r.kind == K.VAR_DECL and r.semantic_parent is not None and r.semantic_parent.kind in (K.TRANSLATION_UNIT, K.NAMESPACE, K.LINKAGE_SPEC,
                                                                                 K.STRUCT_DECL, K.CLASS_DECL):
                if r.spelling in GPU_IDS:
                    raise self.unsupported(e, f"'{r.spelling}' used as a whole value")
                self.mem[key] = self.mg.global_var(r)
                return self.lvalue(e)
            raise self.unsupported(e, f"use of '{r.spelling}' here")
        if k == K.ARRAY_SUBSCRIPT_EXPR:
            return self.subscript_lvalue(e)
        if k == K.UNARY_OPERATOR and unary_op(e) == "*":
            inner = children(e)[0]
            pt = canonical(inner.type)
            if not CT.pointee_is_memref(pt):
                return self.llvm_lvalue(e)
            m = self.rvalue(inner)
            rank = ir.MemRefType(m.type).rank
            return MemLV(m, [AF.const(0)] * rank if rank == 1 else [AF.const(0)], canonical(e.type))
        if k == K.MEMBER_REF_EXPR:
            base = strip_implicit(children(e)[0]) if children(e) else None
            if base is not None and base.kind == K.DECL_REF_EXPR:
                r = base.referenced
                if r is not None and r.spelling in GPU_IDS and r.semantic_parent.kind != K.FUNCTION_DECL:
                    return ("gpu", r.spelling, e.spelling)
                key = decl_key(r)
                if (key, e.spelling) in self.env:
                    return VarLV((key, e.spelling), canonical(e.type))
            if e.referenced is not None and e.referenced.kind == K.FIELD_DECL:
                return self.member_lvalue(e)
            raise self.unsupported(e, f"member access '.{e.spelling}'")
        if k in (K.UNEXPOSED_EXPR,) and len(children(e)) == 1:
            return self.lvalue(children(e)[0])
        if k == K.CALL_EXPR and self.returns_reference(e):  # `v.at(i) = x`
            return self.reference_lvalue(self.mg.calls.emit(self, e), CT.unreferenced(e.referenced.result_type))
        raise self.unsupported(e0, "expression used as an lvalue")

    def mem_ref(self, mv: MemVar):
        if mv.memref is None or mv.global_name is not None:
            return self.mg.get_global(self, mv)
        return mv.memref

    def subscript_lvalue(self, e):
        if not self.memref_subscript(e):
            return self.llvm_lvalue(e)
        idx_exprs = []
        c = e
        while True:
            base, idx = children(c)
            idx_exprs.insert(0, idx)
            bs = strip_implicit(base)
            if bs.kind == K.ARRAY_SUBSCRIPT_EXPR and CT.is_array(bs.type):
                c = bs
                continue
            break
        if bs.kind == K.DECL_REF_EXPR and CT.is_array(bs.type):
            lv = self.lvalue(bs)
            m = lv.memref if isinstance(lv, MemLV) else self.env[lv.key].value
        else:
            bt = canonical(base.type)
            if bt.kind != T.POINTER or not CT.pointee_is_memref(bt):
                raise self.unsupported(e, f"subscript of '{base.type.spelling}'")
            m = self.rvalue(base)
        rank = ir.MemRefType(m.type).rank
        if len(idx_exprs) != rank:
            raise self.unsupported(e, "partial subscript used as a value")
        indices = []
        for ie in idx_exprs:
            f = self.form_of(ie)
            if f is None:
                v = self.rvalue(ie)
                f = self.index_of(v, ie.type)
            indices.append(f)
        return MemLV(m, indices, canonical(e.type))

    def memref_subscript(self, e):
        """Whether subscript `e` indexes a memref: numeric elements, reached from a memref-backed array variable
        or a pointer to numeric data (else it goes through raw bytes)."""
        if not CT.is_arith(e.type):
            return False
        c = e
        while c.kind == K.ARRAY_SUBSCRIPT_EXPR:
            base = children(c)[0]
            bs = strip_implicit(base)
            if canonical(base.type).kind == T.POINTER and not CT.is_array(bs.type):
                return CT.pointee_is_memref(base.type)
            c = bs
        if c.kind == K.DECL_REF_EXPR and CT.is_array(c.type):
            return not self.is_byte_var(c)
        return False

    @staticmethod
    def byte_offset(ptr, offset):
        """!llvm.ptr `ptr` advanced by i64 `offset` bytes (ptrtoint/add/inttoptr: a GEP's printed no-wrap
        flags do not parse back in this MLIR version)."""
        i64 = ir.IntegerType.get_signless(64)
        return llvm.IntToPtrOp(CT.llvm_ptr(), arith.addi(llvm.PtrToIntOp(i64, ptr).result, offset)).result

    def load(self, lv):
        if isinstance(lv, VarLV):
            return self.env[lv.key].value
        if isinstance(lv, tuple) and lv[0] == "gpu":
            return self.gpu_id(lv[1], lv[2])
        if isinstance(lv, tuple) and lv[0] == "llvm":
            return self.load_llvm(lv[1], lv[2])
        if isinstance(lv, tuple) and lv[0] == "bits":
            return self.load_bits(lv)
        mt = ir.MemRefType(lv.memref.type)
        if all(isinstance(i, tuple) for i in lv.indices) and lv.indices:
            mp, ops = AF.to_map(lv.indices)
            v = affine.AffineLoadOp(mt.element_type, lv.memref, ops, ir.AffineMapAttr.get(mp)).result
        else:
            v = memref.LoadOp(lv.memref, self.index_values(lv.indices)).result
        if CT.is_bool(lv.ctype):  # one byte in memory, an i1 in registers
            return arith.trunci(CT.scalar_type(lv.ctype), v)
        if lv.ctype.kind == T.POINTER and CT.pointee_is_memref(lv.ctype):
            return self.from_ptr(v, lv.ctype, None, None)
        return v

    def index_values(self, indices):
        out = []
        for i in indices:
            if isinstance(i, tuple):
                if i[0] == "const":
                    out.append(self.const_index(i[1]))
                else:
                    mp, ops = AF.to_map([i])
                    out.append(affine.AffineApplyOp(mp, ops).result)
            else:
                out.append(i)
        return out

    def store(self, lv, v, form=None):
        if isinstance(lv, VarLV):
            self.env[lv.key] = Binding(v, form)
            return
        if isinstance(lv, tuple) and lv[0] == "gpu":
            raise CompileError(f"cannot assign to {lv[1]}.{lv[2]}")
        if isinstance(lv, tuple) and lv[0] == "llvm":
            self.store_llvm(lv[1], lv[2], v)
            return
        if isinstance(lv, tuple) and lv[0] == "bits":  # the value the field holds now (truncated)
            return self.store_bits(lv, v)
        if lv.ctype.kind == T.POINTER:
            v = self.to_ptr(v)
        v = CT.as_stored(v, lv.memref)
        if all(isinstance(i, tuple) for i in lv.indices) and lv.indices:
            mp, ops = AF.to_map(lv.indices)
            affine.AffineStoreOp(v, lv.memref, ops, ir.AffineMapAttr.get(mp))
            return
        memref.StoreOp(v, lv.memref, self.index_values(lv.indices))

    def gpu_id(self, var, comp):
        op = GPU_IDS[var](getattr(gpu.Dimension, comp)).result
        return arith.index_castui(ir.IntegerType.get_signless(32), op)

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
        if k in (K.UNEXPOSED_EXPR, K.CSTYLE_CAST_EXPR, K.CXX_STATIC_CAST_EXPR, K.CXX_REINTERPRET_CAST_EXPR):
            inner = children(e)[-1]
            it = canonical(inner.type)
            if k == K.CSTYLE_CAST_EXPR and self.has_vla_pointee(ty) and it.kind == T.POINTER:
                return self.vla_pointer(inner, ty, size_expressions(e, exclude=inner), e)
            if CT.is_array(it):
                return self.decay(inner, ty)
            if it.kind == T.POINTER:
                si = strip_implicit(inner)
                if si.kind == K.CALL_EXPR and self.mg.builtins.is_allocator(si) and CT.pointee_is_memref(ty):
                    return self.mg.builtins.allocate(self, si, ty)
                return self.coerce_pointer(self.pointer(inner), ty)
            if CT.is_int(it):
                return self.convert(self.rvalue(inner), it, ty, inner)
            if it.kind in (T.FUNCTIONPROTO, T.FUNCTIONNOPROTO):  # `*fp` or `(fp)` designating a function
                f = strip_implicit(inner)
                while f.kind == K.UNARY_OPERATOR and unary_op(f) == "*":
                    f = strip_implicit(children(f)[0])
                if canonical(f.type).kind == T.POINTER:
                    return self.pointer(f)
                raise self.unsupported(e, "function designator")
            return self.rvalue(e)
        if k == K.UNARY_OPERATOR and unary_op(e) == "&":
            inner = strip_implicit(children(e)[0])
            if inner.kind == K.ARRAY_SUBSCRIPT_EXPR:
                lv = self.lvalue(inner)
                if isinstance(lv, MemLV):
                    return self.element_pointer(lv, ty)
            if inner.kind == K.DECL_REF_EXPR:
                lv = self.lvalue(inner)
                if isinstance(lv, MemLV) and not lv.indices:
                    return self.coerce_pointer(self.to_ptr(lv.memref), ty)
            return self.coerce_pointer(self.address(inner), ty)
        if k == K.STRING_LITERAL:
            return self.mg.string_constant(string_literal(e))
        return self.rvalue(e)

    def raw_pointer(self, e):
        """A pointer-typed argument as the raw !llvm.ptr the C ABI passes (string literals directly)."""
        s = strip_implicit(e)
        if s.kind == K.STRING_LITERAL:
            return self.mg.string_constant(string_literal(s))
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
            p = self.mg.string_constant(string_literal(a))
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
        at = canonical(a.type)
        if at.kind == T.POINTER and canonical(b.type).kind == T.POINTER:
            return self.pointer_difference(e, a, b)
        p, n = (a, b) if at.kind == T.POINTER else (b, a)
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

    # ---------------------------------------------------------------- CUDA dim3 values
    def dim3_value(self, e):
        """A dim3 expression as three i32 values."""
        e = strip_implicit(e)
        i32 = ir.IntegerType.get_signless(32)
        if e.kind in (K.CXX_FUNCTIONAL_CAST_EXPR, K.UNEXPOSED_EXPR, K.CSTYLE_CAST_EXPR) and children(e):
            return self.dim3_value(children(e)[-1])
        if e.kind == K.CALL_EXPR and e.spelling in ("dim3", "uint3"):
            args = list(e.get_arguments())
            if len(args) == 1 and CT.is_dim3(args[0].type):
                return self.dim3_value(args[0])
            vals = []
            for a in args[:3]:
                if a.kind == K.UNEXPOSED_EXPR and not children(a):
                    vals.append(self.const_int(i32, evaluate(a) or 1))
                else:
                    vals.append(self.convert(self.rvalue(a), a.type, canonical(a.type) if CT.is_int(a.type) and CT.size_of(a.type) == 4 else ci_uint(), a))
            while len(vals) < 3:
                vals.append(self.const_int(i32, 1))
            return vals
        if e.kind == K.DECL_REF_EXPR:
            r = e.referenced
            if r.spelling in GPU_IDS:
                return [self.gpu_id(r.spelling, c) for c in "xyz"]
            key = decl_key(r)
            if (key, "x") in self.env:
                return [self.env[(key, c)].value for c in "xyz"]
        if CT.is_int(e.type):
            return [self.convert(self.rvalue(e), e.type, ci_uint(), e), self.const_int(i32, 1), self.const_int(i32, 1)]
        raise self.unsupported(e, "dim3 expression")


def ci_uint():
    """A clang-like 'unsigned int' type object (for conversions the walker makes itself)."""
    return IS.UINT


def ci_long():
    return IS.LONG
