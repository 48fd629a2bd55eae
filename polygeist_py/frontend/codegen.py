"""The libclang walker: one translation unit to one MLIR module of func/affine/scf/memref/arith/math ops.

Shape (after Triton's code_generator and clang's CodeGen): a ``visit_<KIND>`` method per statement kind and an
``expr_<KIND>`` method per expression kind, expressions through ``rvalue``/``lvalue``/``pointer``, C types mapped
in ``c_types``, calls in ``calls`` with libc/math/GNU builtins in the ``builtins`` table. ``FunctionGen`` is
assembled here from one mixin class per concern; each mixin module imports only lower-level helpers (values,
c_types, records, scan, ...), never another mixin module or this one:

    gen_base.GenBase          locations, errors, constants, index casts, entry allocas
    decls.DeclGen             parameters, locals, initializers, variable-length arrays      (clang: CGDecl)
    stmts.StmtGen             statement dispatch, blocks and exit flags, if/return/goto/switch (CGStmt)
    loops.LoopGen             for/while/do as affine.for, scf.for, scf.while                 (CGStmt)
    exprs.ExprGen             expression dispatch, conversions, operators, affine forms      (CGExpr*)
    lvalues.LValueGen         lvalues, subscripts, loads and stores                          (CGExpr)
    pointers.PointerGen       pointer-valued expressions, memref <-> !llvm.ptr               (CGExpr)
    llvm_memory.LLVMMemory    raw-byte objects: structs, unions, initializers, calls' ABI    (CGExprAgg, CGCall)
    cxx.CxxGen                C++ references, new/delete                                     (CGExprCXX)
    cxx_classes.CxxClassGen   C++ classes: constructors, member calls, this                  (CGClass)
    cuda_device.CudaDeviceGen CUDA ids, dim3, __shared__ memory, launches                     (CGCUDARuntime)

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

import dataclasses

import itertools

from mlir import ir
from mlir.dialects import func

from ..clang_ast import K, T, canonical
from . import c_types as CT
from . import openmp, openmp_regions, openmp_scan
from . import records as R
from . import varargs
from .cuda_device import CudaDeviceGen
from .cxx import CxxGen
from .cxx_classes import CxxClassGen, is_lambda_class
from .decls import DeclGen
from .exprs import ExprGen
from .gen_base import GenBase
from .llvm_memory import LLVMMemory
from .loops import LoopGen
from .lvalues import LValueGen
from .pointers import PointerGen
from .scan import address_taken, parameters
from .stmts import StmtGen
from .values import (RET, RETVAL, Binding, MemLV, MemVar, VarLV, ci_long, ci_uint,  # noqa: F401  (re-exported)
                     size_expressions)


class FunctionGen(StmtGen, LoopGen, DeclGen, ExprGen, LValueGen, PointerGen, CudaDeviceGen, CxxGen, CxxClassGen,
                  LLVMMemory, GenBase):
    """Emits one C function definition as a func.func; see the module docstring for the scheme.

    Args:
        mg: the module.ModuleGen of the translation unit (declarations, globals, strings, the builtins table).
        cursor: the function definition's cursor (FUNCTION_DECL, CXX_METHOD, CONSTRUCTOR).
    """

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
        self.local_aligns: dict = {}  # local variable key -> bytes of its `aligned(N)` attribute (attributes.py)
        self.block_cleanups: list = []  # per open block: its `cleanup(f)` variables (decls.arm_cleanup)
        self.sure_declarations: set = set()  # DECL_STMTs that run whenever their block's end does (gotos)
        self.deferred_inits: set = set()  # hashes of switch-body declarations whose initializers run in place
        self.exit_safe_expr = None  # hash of the statement expression the current statement ends with (stmt_exprs)
        self.label_loops = 0  # open loops of goto labels (gotos._loop)

    # ---------------------------------------------------------------- function
    def emit(self):
        c = self.cursor
        name = self.mg.func_name(c)
        params = parameters(c)
        self.sig = self.mg.signature(c)
        ftype = self.sig.ftype
        internal = c.storage_class == c.storage_class.STATIC or self.mg.is_internal(c)
        if self.sig.variadic:  # the body of a variadic function, behind an llvm.func entry (varargs.py)
            entry_name, (name, ftype) = name, varargs.body_signature(self, c, name)
            varargs.define_entry(self.mg, c, entry_name, name, ftype, internal, self.sig.arg_attrs)
        with self.loc(c), ir.InsertionPoint(self.mg.module.body):
            self.func = func.FuncOp(name, ftype)
            if internal or self.sig.variadic:
                # private: MLIR may drop it when unused; internal linkage: other objects may reuse the name
                self.func.attributes["sym_visibility"] = ir.StringAttr.get("private")
                self.func.attributes["llvm.linkage"] = ir.Attribute.parse("#llvm.linkage<internal>")
            self.entry = self.func.add_entry_block()
            if any(canonical(p.type).is_restrict_qualified() for p in params) or self.sig.has_records:
                # C99 restrict -> llvm.noalias (for LLVM, and for AD's hoisting of read-only calls)
                sig = self.sig
                if sig.variadic:  # (the body takes plain addresses: its entry has the ABI's byval/sret, varargs.py)
                    sig = dataclasses.replace(sig, arg_attrs=[
                        {k: v for k, v in a.items() if k not in ("llvm.byval", "llvm.sret", "llvm.align")}
                        for a in sig.arg_attrs])
                attrs = R.attrs_array(sig, [
                    {"llvm.noalias": ir.UnitAttr.get()} if canonical(p.type).is_restrict_qualified() else {}
                    for p in params])
                if self.sig.variadic:  # the va_list argument
                    attrs = ir.ArrayAttr.get(list(attrs) + [ir.DictAttr.get({})])
                self.func.arg_attrs = attrs
        body = next(ch for ch in c.get_children() if ch.kind == K.COMPOUND_STMT)
        self.addr_taken = address_taken(body)
        if getattr(self.mg.tu, "openmp", False):  # -fopenmp
            self.omp = openmp.directives(self.mg.tu, c)
            self.addr_taken |= openmp_scan.memory_variables(self, body)  # assigned inside omp ops' regions
        self.ret_type = canonical(c.result_type)
        with ir.InsertionPoint(self.entry), self.loc(c):
            args = list(self.entry.arguments)
            self.this_ptr = args[-1] if self.sig.has_this else None  # a C++ method's object (cxx_classes)
            self.va_list_arg = args[-1] if self.sig.variadic else None  # the entry's va_list (varargs)
            for p, pabi in zip(params, self.sig.params):
                if pabi.kind == "scalar":
                    arg = args[pabi.first]
                    if canonical(p.type).kind in (T.FLOAT, T.BOOL) and pabi.ctype.kind != canonical(p.type).kind:
                        arg = self.convert(arg, pabi.ctype, p.type, p)  # a K&R float/_Bool: passed promoted
                    self.bind_param(p, arg)
                else:
                    self.bind_record_param(p, pabi, args[pabi.first:pabi.first + len(pabi.types)])
            for p in params:  # `int b[n++]`: a parameter's array bounds are evaluated on entry (C11 6.9.1p10)
                for size in p.get_children():
                    if size.kind.is_expression() and not self.pure(size):
                        self.rvalue(size, discard=True)
            if self.ret_type.kind == T.RECORD:  # the returned record's address (a zeroed slot until `return`)
                slot = self.byte_alloca(CT.size_of(self.ret_type), self.ret_type.get_align())
                self.zero_bytes(slot, CT.size_of(self.ret_type))
                self.env[RETVAL] = Binding(slot)
            elif self.ret_type.kind != T.VOID:
                self.env[RETVAL] = Binding(self.zero(self.ret_type))
            self.env[RET] = Binding(self.const_bool(False))
            if c.kind == K.CONSTRUCTOR:  # member initializers before the body (cxx_classes)
                self.init_members(c)
            elif c.kind == K.CXX_METHOD and is_lambda_class(c.semantic_parent):  # its captures (cxx_classes)
                self.bind_captures(c)
            self.visit(body)
            openmp_regions.finish(self)
            if self.ret_type.kind == T.VOID:
                func.ReturnOp([])
            elif self.sig.ret_kind == "sret":
                self.copy_bytes(args[0], self.env[RETVAL].value, CT.size_of(self.ret_type))
                func.ReturnOp([])
            elif self.sig.ret_kind == "coerced":
                func.ReturnOp([self.coerced_result(self.env[RETVAL].value, self.sig)])
            else:
                func.ReturnOp([self.to_abi(self.env[RETVAL].value, self.ret_type)])
