"""Lvalues, loads and stores: what a C object designator becomes and how it is read and written.

An lvalue is a ``VarLV`` (a scalar held as an SSA value in ``env``), a ``MemLV`` (an element of a memref, its
subscripts affine forms when they are affine: ``affine.load/store``, else index values: ``memref.load/store``),
or a tuple for raw bytes (``("llvm", ...)``, ``("bits", ...)``: llvm_memory) and CUDA ids (``("gpu", ...)``).
"""

from __future__ import annotations

from mlir import ir
from mlir.dialects import affine, arith, llvm, memref

from ..clang_ast import (K, T, canonical, children, evaluate, is_variable_template_specialization, spelled_word,
                         strip_implicit, unary_op)
from ..errors import CompileError
from . import complex_values
from . import affine_forms as AF
from . import c_types as CT
from . import vectors
from .scan import decl_key, parameter_type
from .values import GPU_IDS, Binding, MemLV, MemVar, VarLV


class LValueGen:
    """Mixin for FunctionGen: lvalues of expressions, subscripts, loads and stores."""

    def lvalue(self, e):
        e0 = e
        e = strip_implicit(e) if e.kind in (K.PAREN_EXPR, K.GENERIC_SELECTION_EXPR) else e
        k = e.kind
        if k == K.PAREN_EXPR:
            return self.lvalue(children(e)[0])
        if k == K.DECL_REF_EXPR:
            r = e.referenced
            key = decl_key(r)
            rt = CT.unreferenced(parameter_type(r) if r.kind == K.PARM_DECL else r.type)  # (a reference: its object)
            if key in self.struct_vars:
                return ("llvm", self.struct_vars[key], rt, None)
            if key in self.mem:
                mv = self.mem[key]
                if mv.is_raw_global:
                    return ("llvm", self.mem_ref(mv), rt, None)
                return MemLV(self.mem_ref(mv), [], rt)
            if key in self.env:
                return VarLV(key, canonical(r.type))
            if (r.kind == K.VAR_DECL or is_variable_template_specialization(r)) and r.semantic_parent is not None \
                    and r.semantic_parent.kind in (K.TRANSLATION_UNIT, K.NAMESPACE, K.LINKAGE_SPEC,
                                                                                 K.STRUCT_DECL, K.CLASS_DECL):
                if r.spelling in GPU_IDS:
                    raise self.unsupported(e, f"'{r.spelling}' used as a whole value")
                self.mem[key] = self.mg.global_var(r)
                return self.lvalue(e)
            raise self.unsupported(e, f"use of '{r.spelling}' here")
        if k == K.ARRAY_SUBSCRIPT_EXPR:
            if vectors.is_vector_subscript(e):  # `v[i] = x` (vectors.py)
                return vectors.element_lvalue(self, e, *children(e))
            return self.subscript_lvalue(e)
        if k == K.UNARY_OPERATOR and unary_op(e) in ("__real", "__imag") and CT.is_complex(children(e)[0].type):
            # a part of a complex object (`__real__ z = x`): the whole is read and written back
            return ("cpart", self.lvalue(children(e)[0]), unary_op(e) == "__imag", canonical(e.type))
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
        if k == K.UNEXPOSED_EXPR and len(children(e)) == 3 and spelled_word(e) == "__builtin_choose_expr" and \
                isinstance(evaluate(children(e)[0]), int):  # GNU: the chosen operand is the lvalue
            return self.lvalue(children(e)[1] if evaluate(children(e)[0]) else children(e)[2])
        if k == K.STRING_LITERAL:  # (`&"abc"`: the literal's array, a read-only object)
            return ("llvm", self.mg.literal(e), canonical(e.type), None)
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
        or a pointer to numeric data (else it goes through raw bytes: also a volatile element)."""
        if not CT.is_numeric(e.type) or canonical(e.type).is_volatile_qualified():
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
        if isinstance(lv, tuple) and lv[0] == "cpart":
            return complex_values.parts(self.load(lv[1]))[lv[2]]
        if isinstance(lv, tuple) and lv[0] == "llvm":
            return self.load_llvm(lv[1], lv[2])
        if isinstance(lv, tuple) and lv[0] == "bits":
            return self.load_bits(lv)
        if isinstance(lv, tuple) and lv[0] == "vecelt":
            return vectors.load_element(self, lv)
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
        if isinstance(lv, tuple) and lv[0] == "cpart":
            re, im = complex_values.parts(self.load(lv[1]))
            self.store(lv[1], complex_values.make(re, v) if lv[2] else complex_values.make(v, im))
            return v
        if isinstance(lv, tuple) and lv[0] == "gpu":
            raise CompileError(f"cannot assign to {lv[1]}.{lv[2]}")
        if isinstance(lv, tuple) and lv[0] == "llvm":
            self.store_llvm(lv[1], lv[2], v)
            return
        if isinstance(lv, tuple) and lv[0] == "bits":  # the value the field holds now (truncated)
            return self.store_bits(lv, v)
        if isinstance(lv, tuple) and lv[0] == "vecelt":
            return vectors.store_element(self, lv, v)
        if lv.ctype.kind == T.POINTER:
            v = self.to_ptr(v)
        v = CT.as_stored(v, lv.memref)
        if all(isinstance(i, tuple) for i in lv.indices) and lv.indices:
            mp, ops = AF.to_map(lv.indices)
            op = affine.AffineStoreOp(v, lv.memref, ops, ir.AffineMapAttr.get(mp))
        else:
            op = memref.StoreOp(v, lv.memref, self.index_values(lv.indices))
        if lv.ctype.is_volatile_qualified():  # (gpu_to_cpu/warp_synchronous.py)
            op.attributes["pgcc.volatile"] = ir.UnitAttr.get()
