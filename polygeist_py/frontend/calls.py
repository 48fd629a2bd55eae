"""Calls: user functions (C ABI), C++ constructors and member functions, Enzyme's API, kernel launches, and the
builtins table (builtins.py: math.h as the math dialect, libc, variadic libc through the LLVM dialect, the CUDA
runtime API on host memory and host clocks).

Builtins are a table from C name to handler, not an if-chain.
"""

from __future__ import annotations

from mlir import ir
from mlir.dialects import func, llvm

from ..clang_ast import K, T, canonical, children, record_decl, top_level_cursors
from ..errors import error_at
from . import c_types as CT
from . import enzyme
from . import records as R
from . import x86_builtins
from .builtins import Builtins
from .cuda_builtins import WARP_SYNC, is_texture  # noqa: F401  (imported from here: gpu_to_cpu, older callers)
from .cxx_classes import check_callee
from .records import is_trivial_record


def calls_a_result(call, ch) -> bool:
    """Whether a call's callee expression (`ch[0]`, its children `ch`) is itself a call, `pick()(21)` (an ifunc
    resolver's result called): libclang's `referenced` names the inner call's function, which is not the one
    called. (C++ constructor calls have no callee child and operator calls list the first operand first: `T(f(x))`
    and `(a + b) * k` are not such calls.)"""
    ref = call.referenced
    if not ch or len(ch) != len(list(call.get_arguments())) + 1 or \
            ref is not None and (ref.kind == K.CONSTRUCTOR or ref.spelling.startswith("operator")):
        return False
    head = ch[0]
    while head.kind in (K.PAREN_EXPR, K.UNEXPOSED_EXPR) and len(children(head)) == 1:
        head = children(head)[0]
    return head.kind == K.CALL_EXPR


class Calls:
    """Emits CALL_EXPR nodes: kernel launches, builtins, then ordinary C-ABI calls."""

    def __init__(self, mg):
        self.mg = mg
        self.builtins = Builtins(mg)

    def emit(self, fg, call):
        ch = children(call)
        if len(ch) >= 2 and ch[1].kind == K.CALL_EXPR and ch[1].spelling in ("cudaConfigureCall", "__cudaPushCallConfiguration"):
            return fg.launch(call, ch[1])  # cuda_device
        callee = call.referenced
        if callee is None or callee.kind in (K.VAR_DECL, K.PARM_DECL, K.FIELD_DECL) or calls_a_result(call, ch):
            return fg.indirect_call(call, ch[0], list(call.get_arguments()))
        if (callee.kind == K.CXX_METHOD and callee.spelling == "operator="
                and any(self.builtins.is_texture_setting(c) for c in children(call))):
            return None  # tex.channelDesc = desc: a struct copy into a texture setting (no effect on a CPU)
        if callee.kind in (K.CONSTRUCTOR,):
            args = list(call.get_arguments()) or [c for c in children(call) if c.kind.is_expression()]
            if len(args) == 1 and canonical(args[0].type).kind == T.RECORD and is_trivial_record(call.type) and \
                    record_decl(args[0].type) == record_decl(call.type):
                return fg.record_value(args[0])  # a C struct's implicit copy/move constructor: the bytes
            return fg.constructed_temporary(call)  # a C++ object (cxx_classes)
        if callee.kind == K.CXX_METHOD or callee.kind == K.CONVERSION_FUNCTION and self.mg.device_stubs is not None:
            # obj.f(), p->f(), C::g(), member operators, and in device code conversion operators (cxx_classes)
            return fg.method_call(call)
        if callee.kind not in (K.FUNCTION_DECL,):
            raise error_at(call, f"unsupported construct: call of {callee.kind.name.lower()}")
        args = list(call.get_arguments())
        if callee.spelling in enzyme.TYPE_HINTS and canonical(call.type).kind == T.VOID:
            for a in args:  # (Enzyme's type hints: no effect but their arguments')
                fg.rvalue(a)
            return None
        if enzyme.mode_of(callee.spelling):  # __enzyme_autodiff* / __enzyme_fwddiff*, any prototype
            ty = canonical(call.type)
            if ty.kind == T.RECORD and enzyme.mode_of(callee.spelling) in ("reverse", "forward"):
                # a struct of gradients (tangents: vector mode) as a value (`return __enzyme_autodiff(...)`):
                # filled in a temporary
                ptr = fg.byte_alloca(ty.get_size(), ty.get_align())
                enzyme.emit(fg, call, args, struct_ptr=ptr)
                return ptr
            return enzyme.emit(fg, call, args)
        if enzyme.shadow_query(callee.spelling):  # (Enzyme's shadows of globals)
            return enzyme.emit_shadow_query(fg, call, args)
        missing = enzyme.unsupported_function(callee.spelling)
        if missing:
            raise error_at(call, f"unsupported construct: {missing}")
        handler = self.builtins.lookup_callee(callee)
        if handler is not None:
            return handler(fg, call, args)
        if callee.spelling == "__assert_fail" and self.mg.device_stubs is not None:  # assert() in device code:
            # the error CUDA reports (runtime/pgcc_cuda_runtime.c), not the C library's abort
            return self.user_call(fg, call, callee, args, name="__pgcc_device_assert_fail")
        if callee.get_num_template_arguments() > 0 or "operator" in callee.spelling:  # C++ (cxx_classes)
            # (host code too: a free function template's specialization is a function of its own, named by its
            # mangled name; the standard library stays an error)
            check_callee(callee, call, templates=self.mg.device_stubs is not None or callee.kind == K.FUNCTION_DECL)
        x86_builtins.check_target_features(fg, call, callee)  # (an intrinsic of <immintrin.h> needs its ISA)
        return self.user_call(fg, call, callee, args)

    def user_call(self, fg, call, callee, args, name=None):
        """A call of a C function by name under the C ABI (records.signature); a variadic one (a libc function
        like fprintf or open) is an llvm.call with its fixed part typed by the prototype. `name`: the symbol
        to call instead of the callee's own (a builtin's library function: `__builtin_strlen` -> strlen)."""
        if canonical(callee.type).kind == T.FUNCTIONNOPROTO:  # (also a builtin clang does not know: __builtin_exit)
            return self.unprototyped_call(fg, call, callee, args, name)
        sig = self.mg.signature(callee)
        if sig.variadic:
            return self.variadic_call(fg, call, callee, args, sig, name)
        name = self.mg.declare(callee, name)

        def emit(vals, results):
            op = func.CallOp(results, ir.FlatSymbolRefAttr.get(name), vals)
            return op.results[0] if results else None

        return fg.call_lowered(sig, args, call, emit)

    def variadic_call(self, fg, call, callee, args, sig, name=None):
        if any(CT.is_complex(p.ctype) for p in sig.params) or CT.is_complex(sig.ret_ctype):
            raise error_at(call, f"unsupported construct: complex parameter or result of the variadic function "
                                 f"'{callee.spelling}'")
        name = name or callee.spelling
        defn = callee.get_definition()
        if defn is not None and name == defn.spelling and name not in self.mg.defined:
            self.mg.pending.append(defn)  # (a definition in an included file is emitted where it is called)
        byval = {}  # struct arguments of the variadic part passed in memory (pack_args)

        def emit(vals, results):
            ret = results[0] if results else ir.Type.parse("!llvm.void")
            fixed = list(sig.ftype.inputs)
            ftype = self.mg.declare_llvm_vararg(name, ret, fixed)
            fixed_attrs = list(sig.arg_attrs) + [{}] * (len(vals) - len(sig.arg_attrs))  # (sret, byval)
            lead = 1 if sig.ret_kind == "sret" else 0  # (byval counts pack_args' values: the sret slot precedes)
            attrs = ir.ArrayAttr.get([ir.DictAttr.get({**fixed_attrs[i], **byval.get(i - lead, {})})
                                      for i in range(len(vals))]) if byval or any(sig.arg_attrs) else None
            op = llvm.CallOp(results[0] if results else None, vals, [], [], var_callee_type=ir.TypeAttr.get(ftype),
                             callee=ir.FlatSymbolRefAttr.get(name), arg_attrs=attrs)
            return op.result if results else None

        return fg.call_lowered(sig, args, call, emit, byval)

    def prototype_of(self, callee, name=None):
        """The declaration that gives the parameters of a function called without a prototype in scope: its
        definition (K&R or not) or a prototyped redeclaration anywhere in the file (of function `name` when
        given: a library function a builtin stands for); None when there is none (an implicitly declared
        `read`, or `int f();` defined in another file)."""
        defn = callee.get_definition() if name is None else None
        if defn is not None:
            return defn
        return self.library_prototype_of(name or callee.spelling)

    def file_definition(self, name):
        """The top-level definition of function `name` in this file (a cursor), or None."""
        defs = getattr(self, "_definitions", None)
        if defs is None:
            defs = self._definitions = {c.spelling: c for c in top_level_cursors(self.mg.tu)
                                        if c.kind == K.FUNCTION_DECL and c.is_definition()}
        return defs.get(name)

    def library_prototype_of(self, name):
        """The last file-scope declaration of function `name` with a prototype (a cursor; a header's, as stdio.h's
        fwrite; the last carries the attributes of those before it, an asm label's included), or None."""
        protos = getattr(self, "_prototypes", None)
        if protos is None:
            protos = self._prototypes = {}
            for c in top_level_cursors(self.mg.tu):
                if c.kind == K.FUNCTION_DECL and canonical(c.type).kind == T.FUNCTIONPROTO:
                    protos[c.spelling] = c
        return protos.get(name)

    def unprototyped_call(self, fg, call, callee, args, name=None):
        """A call of a function declared without a prototype (`int f();`, a K&R definition, or an implicit
        declaration, which clang gives type `int ()`): as in gcc, the arguments are passed as they are after the
        default argument promotions (clang's AST already holds them) and the result has the declared type.
        The call is a func.call when the function's own parameters lower to the same types, else an llvm.call
        with the promoted types: through the function's address when pgcc knows the function, else through an
        `int (...)`-style llvm.func declaration, as clang calls such functions. `name`: the symbol to call
        instead of the callee's own (gcc's `__builtin_exit`, which clang declares implicitly: exit)."""
        try:
            sig = R.signature([a.type for a in args], callee.result_type, False,
                              R.native_vector_bytes(tu=self.mg.tu))
        except CT.UnsupportedType as e:
            raise error_at(call, f"unsupported construct: {e} in a call of '{callee.spelling}' without a prototype") \
                from None
        # (struct arguments and results cross as the ABI passes them: sret/byval on the call site)
        attrs = ir.ArrayAttr.get([ir.DictAttr.get(dict(a)) for a in sig.arg_attrs]) if any(sig.arg_attrs) else None
        target = self.prototype_of(callee, name)
        if target is not None:
            tsig = self.mg.signature(target)
            if not tsig.variadic and tsig.ftype == sig.ftype and tsig.arg_attrs == sig.arg_attrs:
                name = self.mg.declare(target)

                def emit_direct(vals, results):
                    op = func.CallOp(results, ir.FlatSymbolRefAttr.get(name), vals)
                    return op.results[0] if results else None

                return fg.call_lowered(sig, args, call, emit_direct)
        name = name or callee.spelling
        if target is not None or name in self.mg.functions:
            # (also a function whose address was taken before: declared then as a func.func of no parameters)
            fp = fg.function_address(target or callee, call)

            def emit_indirect(vals, results):
                op = llvm.CallOp(results[0] if results else None, [fp] + vals, [], [])
                if attrs is not None:
                    op.attributes["arg_attrs"] = attrs  # (the arguments', not the callee pointer's)
                return op.result if results else None

            return fg.call_lowered(sig, args, call, emit_indirect)

        def emit_vararg(vals, results):
            ret = results[0] if results else ir.Type.parse("!llvm.void")
            decl = ir.Type.parse(f"!llvm.func<{ret} (...)>")
            if name not in self.mg.llvm_decls:
                with ir.Location.unknown(), ir.InsertionPoint(self.mg.module.body):
                    llvm.LLVMFuncOp(name, ir.TypeAttr.get(decl), linkage=ir.Attribute.parse("#llvm.linkage<external>"))
                self.mg.llvm_decls.add(name)
            if attrs is not None:  # (sret/byval cannot be on variadic arguments: call the address, typed as called)
                fp = llvm.AddressOfOp(CT.llvm_ptr(), name).result
                op = llvm.CallOp(results[0] if results else None, [fp] + vals, [], [])
                op.attributes["arg_attrs"] = attrs
                return op.result if results else None
            op = llvm.CallOp(results[0] if results else None, vals, [], [], var_callee_type=ir.TypeAttr.get(decl),
                             callee=ir.FlatSymbolRefAttr.get(name))
            return op.result if results else None

        return fg.call_lowered(sig, args, call, emit_vararg)
