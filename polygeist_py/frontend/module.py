"""Translation unit -> MLIR module: functions, declarations, globals and string constants."""

from __future__ import annotations

import math
import re

from clang.cindex import LanguageKind, LinkageKind, PrintingPolicy, StorageClass
from mlir import ir
from mlir.dialects import llvm, memref

from ..clang_ast import (K, T, canonical, char_width, children, has_attr, in_main_file, language_of, string_literal,
                         is_variable_template_specialization,
                         string_initializer, top_level_cursors, var_decl_initializer)
from .. import aliases, constructors, pipeline, sections
from ..errors import CompileError, error_at
from . import complex_values
from . import array_init
from . import attributes
from . import big_init
from . import c_types as CT
from . import cxx_classes
from . import enzyme
from . import inline_asm, inline_linkage
from . import records as R
from . import x86_builtins
from . import x87
from .calls import Calls
from .codegen import FunctionGen
from .cuda_builtins import CUDA_CONSTANT, is_texture
from .llvm_memory import is_null_constant, is_thread_local
from .scan import clear_memo, decl_key, parameters
from .values import MemVar
from ..cuda_split import host_symbol, is_device_variable, variable_symbol


RETURNS_TWICE = frozenset({"setjmp", "_setjmp", "sigsetjmp", "__sigsetjmp", "savectx", "vfork", "getcontext"})


class ModuleGen:
    """Builds one MLIR module from a libclang TranslationUnit.

    Args:
        tu: the parsed translation unit (clang_ast.parse).
        filename: the source path, used in locations.
        device_stubs: nvcc's model (cuda_split.py): {stub function name: (host symbol, shared)}. Only the stubs, what they
            launch and call, and device variables are translated; device functions get internal linkage and
            each stub is renamed to its kernel's host symbol. None: the whole unit.
    """

    def __init__(self, tu, filename: str, device_stubs: dict | None = None):
        self.tu = tu
        self._tentative = None  # key -> tentative definition (tentative_definition)
        self.filename = filename
        self.device_stubs = device_stubs
        self.module = ir.Module.create(ir.Location.file(filename, 1, 1))
        self.calls = Calls(self)
        self.builtins = self.calls.builtins
        self.functions: dict[str, object] = {}  # name -> func op (defined or declared)
        self.defined: set[str] = set()
        self.pending: list = []
        self.globals: dict = {}
        self.strings: dict[str, str] = {}
        self.llvm_decls: set[str] = set()
        self.addressed_globals: set = set()  # globals kept as LLVM globals (see addressed_in_initializers)
        self.named: dict = {}  # function name -> its declaration (C++ overloads are rejected: func_name)
        self.depth = self.max_depth = 0  # statement nesting while walking, and its maximum
        self.startup: dict = {}  # 'constructor'/'destructor' -> [(function symbol, priority)]
        self.aliases: dict = {}  # alias symbol -> (target symbol, weak[, "ifunc": target is its resolver])
        self.sections: dict = {}  # symbol -> `section("name")` of its function or variable (sections.py)
        self._asm_labels: set | None = None  # (asm_labels)
        self.frame_pointers = False  # every function keeps a frame pointer (a builtin walks the frame chain)
        self.kept: list = []  # static symbols marked `used`: kept in the object file (sections.py)
        self.module_asm: list = []  # the text of file-scope asm statements, in order

    def generate(self) -> ir.Module:
        clear_memo()
        self.addressed_globals = addressed_in_initializers(self.tu) | external_unsized_arrays(self.tu) | \
            alias_targets(self.tu)
        for c in top_level_cursors(self.tu):
            if not in_main_file(c, self.tu):
                if is_included_definition(c):  # (nvcc's model: the host compiler defines a header's host code)
                    self.top_level(c) if self.device_stubs is None else self.device_top_level(c)
                continue
            if c.kind == K.LINKAGE_SPEC:
                items = children(c)
            else:
                items = [c]
            for d in items:
                if self.device_stubs is None:
                    self.top_level(d)
                else:
                    self.device_top_level(d)
        while self.pending:
            self.define_function(self.pending.pop())
        if self.frame_pointers:  # (`__builtin_return_address(1)` walks the callers' frames: each keeps its frame
            # pointer and stays on the stack, no tail call replacing it)
            for op in self.module.body.operations:
                if op.operation.name == "func.func" and op.regions[0].blocks:
                    attributes.add_passthrough(op, "frame-pointer", "all")
                    attributes.add_passthrough(op, "disable-tail-calls", "true")
        if self.startup:
            constructors.record(self.module, self.startup)
        if self.aliases:
            aliases.record(self.module, self.aliases)
        if self.sections:
            sections.record(self.module, self.sections)
        if self.kept:
            sections.record_kept(self.module, self.kept)
        if self.module_asm:  # (LLVM's `module asm` lines)
            self.module.operation.attributes["llvm.module_asm"] = ir.ArrayAttr.get(
                [ir.StringAttr.get(line) for text in self.module_asm for line in text.split("\n")])
        if self.max_depth > pipeline.DEEP_NESTING:
            self.module.operation.attributes[pipeline.DEEP_ATTR] = ir.UnitAttr.get()
        if self.device_stubs is not None:
            for name, (symbol, shared) in self.device_stubs.items():
                stub = self.functions[name]
                stub.attributes["sym_name"] = ir.StringAttr.get(symbol)
                # (the stub's replay function, which a captured launch calls: cuda_split.device_stubs)
                ir.SymbolTable.replace_all_symbol_uses(name, symbol, self.module.operation)
                if shared:  # a template's instantiation: other files may define the same stub
                    stub.attributes["llvm.linkage"] = ir.Attribute.parse("#llvm.linkage<weak_odr>")
        return self.module

    def device_top_level(self, d):
        """nvcc's model: the roots of the device object are the kernels' stubs and the device variables."""
        if d.kind == K.FUNCTION_DECL and d.is_definition() and d.spelling in self.device_stubs:
            self.define_function(d)
        elif d.kind == K.VAR_DECL and is_device_variable(d):
            self.global_var(d)
        elif d.kind == K.NAMESPACE:
            for c in d.get_children():
                self.device_top_level(c)

    def top_level(self, d):
        if d.kind in cxx_classes.METHOD_KINDS + (K.FUNCTION_TEMPLATE, K.VAR_DECL) and \
                d.semantic_parent is not None and \
                d.semantic_parent.kind in (K.CLASS_TEMPLATE, K.CLASS_TEMPLATE_PARTIAL_SPECIALIZATION):
            pass  # (a member of a class template defined outside it: each specialization's is defined where used)
        elif d.kind in cxx_classes.METHOD_KINDS:  # `double P::get() const { ... }` outside its class
            cxx_classes.check_method(d)
            if d.is_definition():
                self.define_function(d)
        elif d.kind in (K.CLASS_TEMPLATE, K.CLASS_TEMPLATE_PARTIAL_SPECIALIZATION) or \
                d.kind == K.FUNCTION_TEMPLATE and d.semantic_parent.kind != K.CLASS_TEMPLATE:
            pass  # (a free function template: each specialization called is defined under its mangled name)
        elif d.kind in (K.STRUCT_DECL, K.CLASS_DECL, K.UNION_DECL, K.FUNCTION_TEMPLATE, K.CLASS_TEMPLATE):
            self.check_record(d)
        elif d.kind == K.FUNCTION_DECL and d.is_definition():
            self.define_function(d)
        elif d.kind == K.FUNCTION_DECL:
            attrs = attributes.declaration_attributes(d, "function")
            if attrs.alias is not None:  # another name of a definition in this file: aliases.py
                self.aliases[self.func_name(d)] = (attrs.alias, attrs.weak) + (
                    ("internal",) if d.linkage == LinkageKind.INTERNAL else ())
            if attrs.ifunc is not None:  # the address its resolver returns (aliases.py)
                self.aliases[self.func_name(d)] = (attrs.ifunc, False, "ifunc")
                self.declare(d)  # (the ifunc's function type)
        elif d.kind == K.VAR_DECL and enzyme.registration_kind(d.spelling):
            enzyme.register(self, d)  # __enzyme_register_gradient_f = {...}, __enzyme_inactivefn = f
        elif d.kind == K.UNEXPOSED_DECL and (text := inline_asm.file_scope_asm(d)) is not None:
            self.module_asm.append(text)  # `__asm__(".symver ...")`: module asm
        elif d.kind == K.VAR_DECL:
            attrs = attributes.declaration_attributes(d, "global")  # (each declaration's: uses reach only the first)
            if attrs.alias is not None:  # another name of a variable this file defines: aliases.py
                self.aliases[attributes.asm_label(d) or d.spelling] = (attrs.alias, attrs.weak) + (
                    ("internal",) if d.linkage == LinkageKind.INTERNAL else ())
            self.global_var(d)
        elif d.kind in (K.FUNCTION_DECL, K.TYPEDEF_DECL, K.STRUCT_DECL, K.ENUM_DECL, K.UNEXPOSED_DECL,
                        K.FUNCTION_TEMPLATE, K.USING_DIRECTIVE, K.NAMESPACE, K.INCLUSION_DIRECTIVE,
                        K.MACRO_DEFINITION, K.MACRO_INSTANTIATION, K.UNION_DECL, K.CLASS_DECL, K.CLASS_TEMPLATE,
                        K.STATIC_ASSERT,  # (clang has checked a static assertion)
                        K.TYPE_ALIAS_DECL, K.USING_DECLARATION, K.NAMESPACE_ALIAS):  # (`using T = double;`)
            pass
        else:
            raise error_at(d, f"unsupported construct: top-level {d.kind.name.lower().replace('_', ' ')}")

    def define_function(self, c):
        name = self.func_name(c)
        if name in self.defined:
            return
        if has_attr(c, K.CUDAGLOBAL_ATTR) and not canonical(c.result_type).kind == T.VOID:
            raise error_at(c, "a __global__ function must return void")
        self.defined.add(name)
        attrs = attributes.declaration_attributes(c, "function")
        old = self.functions.pop(name, None)
        fg = FunctionGen(self, c)
        fg.emit()
        target = x86_builtins.llvm_target(c)  # (`target("avx2")`, an intrinsic header's function)
        if attrs.noinline:
            attributes.add_passthrough(fg.func, "noinline")
        for k, v in target or ():
            attributes.add_passthrough(fg.func, k, v)
        if attrs.weak:
            fg.func.attributes["llvm.linkage"] = ir.Attribute.parse("#llvm.linkage<weak>")
        if attrs.section is not None:
            self.sections[name] = attrs.section
        if attrs.used:
            self.kept.append(name)
        for which in ("constructor", "destructor"):  # run before/after main: constructors.py, after lowering
            prio = getattr(attrs, which)
            if prio is not None:
                self.startup.setdefault(which, []).append((name, prio))
        recursive = self.functions.pop(name, None)  # declared by a recursive call while the body was emitted
        if recursive is not None:
            recursive.operation.erase()
        if old is not None:  # an earlier declaration: move the definition to its place, drop it
            fg.func.operation.move_before(old.operation)
            old.operation.erase()
        self.functions[name] = fg.func

    def func_name(self, c) -> str:
        """The symbol of a function: its name (C, and C++ free functions: pgcc objects link by name), or
        `Class::method` for a C++ member function (cxx_classes.method_symbol)."""
        if c.kind in cxx_classes.METHOD_KINDS and self.device_stubs is None:
            return cxx_classes.method_symbol(c)
        if self.device_stubs is not None and c.spelling not in self.device_stubs:
            # device code: specializations and overloads by their mangled names; a kernel's own name is its stub's
            symbol = host_symbol(c) if c.mangled_name else c.spelling
            return "__pgcc_kernel." + symbol if has_attr(c, K.CUDAGLOBAL_ATTR) else symbol
        if is_free_specialization(c) and c.mangled_name:
            return c.mangled_name  # (a function template's specialization: one symbol each, as g++ names it)
        first = self.named.setdefault(c.spelling, c.canonical)
        if first != c.canonical:  # two C++ functions of one name: a symbol for each is not supported
            raise error_at(c, f"unsupported C++ construct 'overloaded function' ('{c.spelling}')")
        label = attributes.asm_label(c)
        if label:
            return label
        # (inline definitions first: the labels are read from every file-scope declaration, the headers' too)
        definition = c.get_definition() or c
        if inline_linkage.is_inline_definition(definition) and (
                c.spelling in self.asm_labels() or definition.location.is_in_system_header):
            # (glibc's `extern wint_t __btowc_alias (int) __asm ("btowc");` called from its extern inline btowc:
            # the internal copy of an inline definition must not take the external symbol that an asm label
            # names, or the call recurses into the copy; nor a C library function's, which LLVM's library-call
            # folding calls: its `__strcpy_chk(d, s, -1)` becomes `strcpy(d, s)`, glibc's fortified strcpy)
            return c.spelling + ".inline"
        return c.spelling

    def asm_labels(self) -> set:
        """The symbols that file-scope function declarations name by asm labels (`f() __asm__("name")`)."""
        if self._asm_labels is None:
            self._asm_labels = {label for d in self.tu.cursor.get_children() if d.kind == K.FUNCTION_DECL
                                and (label := attributes.asm_label(d))}
        return self._asm_labels

    def is_internal(self, c) -> bool:
        """Whether function definition `c` gets internal linkage besides `static` ones: those an earlier `static`
        declaration makes internal, C's inline definitions (inline_linkage.py), C++ member functions
        defined inside their class (inline: every unit that uses one emits its own copy), and in device code
        (nvcc's model) everything but the stubs: the host compiler defines the host versions."""
        if self.device_stubs is not None:
            return c.spelling not in self.device_stubs
        if c.linkage == LinkageKind.INTERNAL or inline_linkage.is_inline_definition(c):
            return True  # (`static int f(void);` then `int f(void) {...}`; C's inline definitions)
        return cxx_classes.is_inline_method(c) or is_free_specialization(c) or \
            c.kind in cxx_classes.METHOD_KINDS and c.semantic_parent.type.get_num_template_arguments() > 0
        # (other units instantiate their own specializations and members of class templates)

    def check_record(self, d):
        """Reject the C++ of a class/struct definition pgcc does not translate (cxx_classes.check_record), and an
        `aligned(N)` bit-field that `#pragma pack` or `packed` overrides: gcc still aligns such a field's unit
        and clang does not (sizes differ), and pgcc uses clang's layout.

        Raises:
            CompileError: naming the construct."""
        cxx_classes.check_record(d)
        if d.kind not in (K.STRUCT_DECL, K.UNION_DECL) or not d.is_definition():
            return
        for f in children(d):
            if f.kind != K.FIELD_DECL or not f.is_bitfield():
                continue
            for a in children(f):
                # (an argument pgcc cannot read asks for at least 2: a 1-aligned record has overridden it)
                if a.kind == K.ALIGNED_ATTR and canonical(d.type).get_align() < (attributes.aligned_value(a) or 2):
                    raise error_at(a, f"unsupported construct: aligned bit-field '{f.spelling}' in a packed record "
                                      "(gcc and clang lay it out differently)")

    def function_type(self, c) -> ir.FunctionType:
        return self.signature(c).ftype

    def signature(self, c) -> R.Signature:
        """The C-ABI lowering of function declaration `c`'s prototype (records.signature).

        Raises:
            CompileError: a parameter or result type that cannot cross a function boundary."""
        params = parameters(c)
        ft = canonical(c.type)  # (a prototype written `__typeof(f) g;` is a typeof type)
        try:
            types = [p.type for p in params]
            # a K&R definition `float h(x) float x; {...}`: clang gives it the prototype of the promoted types
            # (`float (double)`), which callers pass; a float or _Bool parameter is converted on entry
            # (codegen.FunctionGen.emit), as gcc does
            proto = list(ft.argument_types()) if ft.kind == T.FUNCTIONPROTO else []
            for i, (p, a) in enumerate(zip(params, proto if len(proto) == len(params) else [])):
                if canonical(p.type).kind in (T.FLOAT, T.BOOL) and canonical(a).kind != canonical(p.type).kind:
                    types[i] = a
            if not params and ft.kind == T.FUNCTIONPROTO:
                types = list(ft.argument_types())
            variadic = ft.kind == T.FUNCTIONPROTO and ft.is_function_variadic()
            # (a static function's vectors need not be as gcc passes them: LLVM's way on both sides)
            width = None if c.linkage == LinkageKind.INTERNAL else R.native_vector_bytes(tu=self.tu, decl=c)
            sig = R.signature(types, c.result_type, variadic, width)
            return cxx_classes.with_this(sig) if cxx_classes.has_this(c) else sig
        except CT.UnsupportedType as e:
            raise error_at(c, f"unsupported construct: {e} in the signature of '{c.spelling}'") from None

    def declare(self, callee, name=None) -> str:
        """The symbol to call for function declaration `callee` (or `name`, another symbol of the same
        prototype); declares it (or queues the callee's definition)."""
        name = name or self.func_name(callee)
        if name in self.functions:
            return name
        defn = callee.get_definition()
        if defn is not None and name not in self.defined:
            self.pending.append(defn)
        from mlir.dialects import func
        weak = attributes.declaration_attributes(callee, "function").weak
        with ir.Location.file(self.filename, 1, 1), ir.InsertionPoint(self.module.body):
            # (`double f();` named before its definition `double f(double a, double b) {...}`: the definition's)
            unprototyped = canonical(callee.type).kind == T.FUNCTIONNOPROTO
            sig = self.signature(defn if unprototyped and defn is not None else callee)
            f = func.FuncOp(name, sig.ftype, visibility="private")
            if weak and defn is None:  # `extern int f(void) __attribute__((weak));`: null when not linked in
                f.attributes["llvm.linkage"] = ir.Attribute.parse("#llvm.linkage<extern_weak>")
            if name in RETURNS_TWICE:  # (setjmp: LLVM must know that the call returns again, as clang tells it)
                f.attributes["passthrough"] = ir.ArrayAttr.get([ir.StringAttr.get("returns_twice")])
            if sig.has_records:
                f.arg_attrs = R.attrs_array(sig)
        self.functions[name] = f
        if self.device_stubs is None and (is_free_specialization(callee) or callee.kind in cxx_classes.METHOD_KINDS
                                          and callee.semantic_parent.type.get_num_template_arguments() > 0):
            enzyme.template_rules(self, callee, name)  # (enzyme_inactive on the template or the class template's)
        return name

    # ---------------------------------------------------------------- globals
    def tentative_definition(self, key):
        """The file-scope `int x;` (a tentative definition) of the variable with key `key`, or None: libclang gives
        no definition for it, and a use may reference an earlier `extern int x;` (flex's `yytext`, bc's scanner).
        """
        if self._tentative is None:
            self._tentative = {decl_key(c.canonical): c for c in self.tu.cursor.get_children()
                               if c.kind == K.VAR_DECL and is_tentative(c)}
        return self._tentative.get(key)

    def global_var(self, d) -> MemVar:
        """The global variable of declaration `d` (a VAR_DECL, or a variable template's specialization:
        `is_variable_template_specialization`), emitted on first use. A `__constant__` one is marked
        CUDA_CONSTANT: device code cannot write it, so a launch reads the same value everywhere."""
        new = decl_key(d.canonical) not in self.globals
        mv = self._global_var(d)
        name = getattr(mv, "global_name", None)
        if new and name and has_attr(d, K.CUDACONSTANT_ATTR):
            for op in self.module.body.operations:
                if op.operation.name in ("memref.global", "llvm.mlir.global") and \
                        ir.StringAttr(op.attributes["sym_name"]).value == name:
                    op.attributes[CUDA_CONSTANT] = ir.UnitAttr.get()
        return mv

    def _global_var(self, d) -> MemVar:
        key = decl_key(d.canonical)
        if key in self.globals:
            return self.globals[key]
        target = variable_alias_target(d)
        if target is not None:  # `extern int w __attribute__((alias("v")));`: uses of w are uses of v
            if canonical(target.type).spelling != canonical(d.type).spelling:
                raise error_at(d, f"unsupported construct: __attribute__((alias)) on '{d.spelling}' of type "
                                  f"'{d.type.spelling}', whose target has type '{target.type.spelling}'")
            self.globals[key] = self.global_var(target)
            return self.globals[key]
        d = d.get_definition() or self.tentative_definition(key) or d  # (the defining one has the initializer)
        ty = canonical(d.type)
        if has_attr(d, K.CUDASHARED_ATTR):
            raise error_at(d, "unsupported construct: __shared__ memory (CUDA shared memory is not supported yet)")
        # __constant__ and __device__ globals are ordinary globals on the CPU (cudaMemcpyToSymbol copies into them)
        name = attributes.asm_label(d) or d.spelling
        if name != d.spelling:  # another declaration may name the same symbol (`extern int v __asm__("w");`)
            same = next((mv for k, mv in self.globals.items() if mv.global_name == name), None)
            if same is not None:
                if canonical(same.ctype).spelling != ty.spelling:
                    raise error_at(d, f"unsupported construct: asm label '{name}' on variables of different types")
                self.globals[key] = same
                return same
        if self.device_stubs is not None and is_device_variable(d):
            name = variable_symbol(d)  # the host compiler's name for it (`app::counter`: _ZN3app7counterE)
        templ_member = False  # a static data member of a class template's specialization, or a variable template's
        if is_variable_template_specialization(d):  # (one symbol per specialization, as g++ names it)
            name, templ_member = d.mangled_name, True
            enzyme.variable_template_rules(self, d, name)  # (enzyme_inactive on the variable template)
        if d.semantic_parent is not None and d.semantic_parent.kind in cxx_classes.RECORD_KINDS:
            name = cxx_classes.member_symbol(d)  # a static data member
            if self.device_stubs is None and d.semantic_parent.type.get_num_template_arguments() > 0:
                enzyme.template_rules(self, d, name)  # (enzyme_inactive on the class template's member)
                templ_member = d.is_definition()
        if d.semantic_parent is not None and d.semantic_parent.kind == K.FUNCTION_DECL:
            name = f"{d.semantic_parent.spelling}.{d.spelling}"  # a static local
            taken = {mv.global_name for mv in self.globals.values()}
            base, n = name, 1
            while name in taken:  # static locals of the same name in different blocks of one function
                name, n = f"{base}.{n}", n + 1
        attrs = attributes.declaration_attributes(d, "global")
        if attrs.section is not None:
            self.sections[name] = attrs.section
        if attrs.used and name not in self.kept:
            self.kept.append(name)
        init0 = var_decl_initializer(d)
        if R.is_byte_object(ty) and not is_texture(ty) and not CT.is_dim3(ty) or ty.kind == T.POINTER and init0 is not None and not is_null_constant(init0) \
                or CT.is_vector(ty) \
                or key in self.addressed_globals or is_thread_local(d) or templ_member:
            from .llvm_memory import byte_global
            init = var_decl_initializer(d)
            external = d.storage_class == d.storage_class.EXTERN and init is None
            mv = byte_global(self, d, key, name, init, (d.is_definition() or is_tentative(d)) and not external,
                             external)
            if templ_member:  # every unit that uses it defines it, as g++ does (a weak definition): one object
                for op in self.module.body.operations:
                    if op.operation.name == "llvm.mlir.global" and \
                            ir.StringAttr(op.attributes["sym_name"]).value == name:
                        op.attributes["linkage"] = ir.Attribute.parse("#llvm.linkage<linkonce_odr>")
            return mv
        try:
            if CT.is_array(ty):
                mtype = CT.array_memref_type(ty)
                if not mtype.has_static_shape:
                    raise error_at(d, "unsupported construct: global variable-length array")
            elif CT.is_numeric(ty):
                mtype = ir.MemRefType.get([], CT.memory_type(ty))
            elif ty.kind == T.POINTER:
                return self.llvm_global(d, key, name)
            elif is_texture(ty):
                return self.builtins.texture_global(d, key, name)
            else:
                raise error_at(d, f"unsupported construct: global of type '{d.type.spelling}'")
        except CT.UnsupportedType as e:
            raise error_at(d, f"unsupported construct: {e}") from None
        init = var_decl_initializer(d)
        external = d.storage_class == d.storage_class.EXTERN and init is None
        is_def = (d.is_definition() or is_tentative(d)) and not external
        attrs = {}
        if is_def:
            attrs["initial_value"] = self.initializer(d, ty, mtype, init)
        member = d.semantic_parent.kind in cxx_classes.RECORD_KINDS  # a C++ static data member: external
        # nvcc's model: device variables are the host's too (its `extern` declarations), host ones copies
        shared_with_host = self.device_stubs is not None and is_device_variable(d)
        vis = "private" if (d.storage_class == d.storage_class.STATIC and not member and not shared_with_host or
                            d.semantic_parent.kind == K.FUNCTION_DECL or
                            self.device_stubs is not None and not shared_with_host) else None
        with ir.Location.file(self.filename, d.location.line, d.location.column), ir.InsertionPoint.at_block_begin(self.module.body):
            if isinstance(attrs.get("initial_value"), str):  # complex elements: built from text (complex_values)
                complex_values.global_op(self.module, name, mtype, vis, attrs["initial_value"],
                                         bool(canonical(d.type).is_const_qualified()),
                                         max(_definition_alignment(mtype) or 1,
                                             attributes.declaration_attributes(d, "global").align or 1))
            else:
                memref.GlobalOp(name, ir.TypeAttr.get(mtype), sym_visibility=vis,
                                initial_value=attrs.get("initial_value"),
                                constant=bool(canonical(d.type).is_const_qualified()) and is_def or None,
                                alignment=max(_definition_alignment(mtype) or 1, _typedef_alignment(d),
                                              attributes.declaration_attributes(d, "global").align or 1)
                                if is_def else None)
        mv = MemVar(None, ty, global_name=name, mtype=mtype)
        self.globals[key] = mv
        return mv

    def initial_values(self, init, shape, d, vals):
        """Write the constant values of global array initializer `init` into `vals` (a zero-filled list, or
        a dict of the listed elements) by row-major flat index.

        Raises:
            CompileError: a non-constant initializer.
        """
        if not shape and init.kind == K.INIT_LIST_EXPR and len(children(init)) == 1:
            init = children(init)[0]  # a scalar's initializer in braces (C11 6.7.9p11: `int g = { 5 };`)
        text = string_initializer(init, math.prod(shape), pad=False) if len(shape) == 1 else None
        if text is not None:
            for i, v in enumerate(text):
                vals[i] = v
        elif init.kind == K.INIT_LIST_EXPR:
            array_init.flatten(init, shape, vals)
        else:
            vals[0] = array_init.constant_value(init)

    def initializer(self, d, ty, mtype, init):
        if isinstance(mtype.element_type, ir.ComplexType):  # (no Python builder for complex elements: the
            vals = [0] * math.prod(mtype.shape)  # attribute's text, which complex_values.global_op parses)
            if init is not None:
                self.initial_values(init, list(mtype.shape), d, vals)
            complex_values.check_array_initializer(d, mtype, vals)
            return complex_values.dense_attribute(list(mtype.shape), mtype.element_type, vals)
        large = big_init.global_initializer(self, d, mtype, init)  # None unless more than LARGE elements
        if large is not None:
            return large
        elem = mtype.element_type
        shape = list(mtype.shape)
        vals = [0] * math.prod(shape)
        if init is not None:
            self.initial_values(init, shape, d, vals)
        if CT.is_bool(CT.array_shape(ty).elem):  # C converts to bool: any non-zero value is 1
            vals = [int(v != 0) for v in vals]
        is_f = isinstance(elem, (ir.F32Type, ir.F64Type))
        if str(elem) == "f80":
            attrs = [x87.attribute(v) for v in vals]
        elif is_f:
            attrs = [CT.float_attribute(elem, v) for v in vals]
        else:
            # C converts to the element type modulo 2^width; the attribute wants the signed bit pattern
            w = ir.IntegerType(elem).width
            attrs = [CT.integer_attribute(elem, wrap_signed(int(v), w)) for v in vals]
        tt = ir.RankedTensorType.get(shape, elem)
        if all(v == vals[0] for v in vals):
            return ir.DenseElementsAttr.get_splat(tt, attrs[0])
        return ir.DenseElementsAttr.get(attrs, type=tt)

    def llvm_global(self, d, key, name):
        """A global pointer (FILE *stderr, char *names[]...) as an LLVM global holding a raw pointer."""
        ext = d.storage_class == d.storage_class.EXTERN or not (d.is_definition() or is_tentative(d))
        init = var_decl_initializer(d)
        if init is not None and not is_null_constant(init):
            raise error_at(d, "unsupported construct: global pointer with an initializer")
        if name not in self.llvm_decls:
            with ir.Location.file(self.filename, d.location.line, d.location.column), ir.InsertionPoint.at_block_begin(self.module.body):
                internal = d.storage_class == d.storage_class.STATIC and d.semantic_parent.kind not in cxx_classes.RECORD_KINDS
                linkage = ir.Attribute.parse("#llvm.linkage<internal>" if internal else "#llvm.linkage<external>")
                g = llvm.GlobalOp(CT.llvm_ptr(), name, linkage)
                if not ext:
                    blk = g.initializer.blocks.append()
                    with ir.InsertionPoint(blk):
                        llvm.ReturnOp(arg=llvm.ZeroOp(CT.llvm_ptr()).result)
            self.llvm_decls.add(name)
        mv = MemVar(None, canonical(d.type), global_name=name)
        self.globals[key] = mv
        return mv

    def get_global(self, fg, mv):
        """The memref of a global inside function `fg` (memref.get_global at the function entry)."""
        cache = fg.__dict__.setdefault("global_refs", {})
        if mv.global_name in cache:
            return cache[mv.global_name]
        with ir.InsertionPoint.at_block_begin(fg.entry), ir.Location.unknown():
            if mv.mtype is None:
                v = llvm.AddressOfOp(CT.llvm_ptr(), mv.global_name).result
            else:
                v = memref.GetGlobalOp(mv.mtype, mv.global_name).result
        cache[mv.global_name] = v
        return v

    def string_constant(self, text: str, width: int = 1, own_object: bool = False):
        """!llvm.ptr to a private constant holding `text` (one char per byte) and a terminator of `width` zero
        bytes (a wide literal's code units: clang_ast.string_literal), aligned to `width`. Literals of equal text
        share one constant; with `own_object` (a function's `__func__` array, C11 6.4.2.2) the constant is not a
        literal's and is shared only with the same name's other uses, so `"main" == __func__` stays false."""
        key = text if width == 1 else (text, width)
        if own_object:
            key = ("__func__", key)
        name = self.strings.get(key)
        data = text.encode("latin-1") + bytes(width)
        if name is None:
            name = f"__func__.{len(self.strings)}" if own_object else f".str.{len(self.strings)}"
            self.strings[key] = name
            with ir.Location.unknown(), ir.InsertionPoint.at_block_begin(self.module.body):
                ty = ir.Type.parse(f"!llvm.array<{len(data)} x i8>")
                g = llvm.GlobalOp(ty, name, ir.Attribute.parse("#llvm.linkage<private>"), constant=True,
                                  value=ir.StringAttr.get(data))  # bytes: one i8 per byte, whatever the encoding
                if width > 1:
                    g.attributes["alignment"] = ir.IntegerAttr.get(ir.IntegerType.get_signless(64), width)
        return llvm.AddressOfOp(CT.llvm_ptr(), name).result

    def literal(self, cursor):
        """!llvm.ptr to the array of STRING_LITERAL `cursor` (narrow or wide); a function-name STRING_LITERAL
        (`__func__`, `__FUNCTION__`, `__PRETTY_FUNCTION__`) gets an array of its own."""
        if not is_function_name(cursor):
            return self.string_constant(string_literal(cursor), char_width(cursor))
        text = string_literal(cursor)
        if language_of(cursor.translation_unit.spelling) == "c":
            text = _plain_function_name(text)
        return self.string_constant(text, char_width(cursor), own_object=True)

    def declare_dynamic_shared(self, elem: ir.Type, mtype: ir.MemRefType) -> str:
        """@__pgcc_dynamic_shared_<elem>: stands for ``extern __shared__ elem s[]`` until --cpuify allocates the
        launch's dynamic shared memory (its third configuration argument, in bytes) once per block."""
        name = f"__pgcc_dynamic_shared_{elem}"
        if name not in self.functions:
            from mlir.dialects import func
            with ir.Location.unknown(), ir.InsertionPoint(self.module.body):
                self.functions[name] = func.FuncOp(name, ir.FunctionType.get([], [mtype]), visibility="private")
        return name

    def declare_llvm_vararg(self, name: str, ret: ir.Type, fixed: list):
        """An external variadic C function (printf, fprintf, ...) as an llvm.func declaration."""
        ftype = ir.Type.parse(f"!llvm.func<{ret} ({', '.join(str(t) for t in fixed)}, ...)>")
        if name not in self.llvm_decls:
            with ir.Location.unknown(), ir.InsertionPoint(self.module.body):
                llvm.LLVMFuncOp(name, ir.TypeAttr.get(ftype), linkage=ir.Attribute.parse("#llvm.linkage<external>"))
            self.llvm_decls.add(name)
        return ftype


_FUNCTION_NAMES = ("__func__", "__FUNCTION__", "__PRETTY_FUNCTION__")


def is_function_name(cursor) -> bool:
    """Whether STRING_LITERAL `cursor` is clang's PredefinedExpr for a function's name: its first token names it,
    or (in C, where literals are `char[N]`) its type is const, as `__func__`'s `static const char[]` is, which
    also catches one written through a macro."""
    tok = next(iter(cursor.get_tokens()), None)
    if tok is not None and tok.spelling in _FUNCTION_NAMES:
        return True
    return cursor.type.is_const_qualified() and language_of(cursor.translation_unit.spelling) == "c"


def _plain_function_name(pretty: str) -> str:
    """The name in clang's C `__PRETTY_FUNCTION__` text (`int main(void)`, `void (*f(int))(int)`): gcc's C
    gives the plain name, as for `__func__`; other texts are returned unchanged."""
    for m in re.finditer(r"([A-Za-z_]\w*)\(", pretty):
        if m.group(1) not in ("_Atomic", "__attribute__"):
            return m.group(1)
    return pretty


def _typedef_alignment(d) -> int:
    """The alignment a typedef's `aligned(n)` gives variable `d` (`typedef int aint __attribute__((aligned(16)));
    aint x;`) when it exceeds its canonical type's, else 1 (LLVM's own choice stays)."""
    a = d.type.get_align()
    return a if a > canonical(d.type).get_align() else 1


def external_unsized_arrays(tu) -> set:
    """Keys of file-scope arrays of unknown size defined in another file (`extern const uch _length_code[];`):
    LLVM globals of unknown size (llvm_memory.byte_global), whatever their elements, since a memref global needs
    its shape. (A block-scope `extern T a[];` stays the error 'global variable-length array'.)"""
    out = set()
    for d in top_level_cursors(tu):
        if d.kind == K.VAR_DECL and canonical(d.type).kind == T.INCOMPLETEARRAY:
            defn = d.get_definition()
            if defn is None or canonical(defn.type).kind == T.INCOMPLETEARRAY:
                out.add(decl_key(d.canonical))
    return out


def variable_alias_target(d):
    """The variable that global `d` is another name of (`__attribute__((alias("v")))` on one of its
    declarations), as a cursor; or None."""
    for r in (d, d.canonical):
        if any(a.kind.is_attribute() for a in r.get_children()):  # (printing only declarations with attributes)
            m = _ALIAS.search(r.pretty_printed(PrintingPolicy.create(r)))
            if m:
                return attributes.alias_target_variable(d.translation_unit, m.group(1))
    return None


_ALIAS = re.compile(r'__attribute__\(\(alias\("([^"]*)"\)\)\)')


def alias_targets(tu) -> set:
    """Keys of the file-scope variables that `alias` attributes name, of the aliases and of weak variables: LLVM
    globals, which an `llvm.mlir.alias` can point to (aliases.py), which uses through either name address
    alike, and which carry a linkage."""
    out = set()
    for c in top_level_cursors(tu):
        if c.kind == K.VAR_DECL:
            t = variable_alias_target(c)
            if t is not None:
                out |= {decl_key(t.canonical), decl_key(c.canonical)}
            elif attributes.is_weak_variable(c) or attributes.is_common_variable(c):
                out.add(decl_key(c.canonical))  # (weak or common linkage: an LLVM global's, llvm_memory.byte_global)
    return out


def addressed_in_initializers(tu) -> set:
    """Keys of globals (and static locals) whose address appears in the initializer of another one (`int *p =
    &g;`): they are LLVM globals, since an LLVM global initializer can only take the address of an LLVM
    global."""
    out = set()

    def visit(c):
        if c.kind == K.DECL_REF_EXPR and c.referenced is not None and c.referenced.kind == K.VAR_DECL:
            out.add(decl_key(c.referenced.canonical))
        for ch in c.get_children():
            visit(ch)

    def initializer(d):
        init = var_decl_initializer(d)
        if init is not None and (canonical(d.type).kind == T.POINTER or R.is_byte_object(d.type)):
            visit(init)

    # (and of static locals: `static const char *const t[] = {KW_A, KW_B};` inside a function, expat;
    # `static int *p = &x;` with x a static local too)
    def static_locals(c):
        for ch in c.get_children():
            if ch.kind == K.VAR_DECL and ch.storage_class == StorageClass.STATIC:
                initializer(ch)
            elif ch.kind not in (K.DECL_REF_EXPR, K.INTEGER_LITERAL, K.FLOATING_LITERAL, K.STRING_LITERAL):
                static_locals(ch)

    def own(d):  # (the program's own files: a .c file included by another one, expat's xmltok_ns.c; not system
        # headers; asked after the kind, as the headers' thousands of declarations are mostly of other kinds)
        return in_main_file(d, tu) or d.location.file is not None and not d.location.is_in_system_header

    for d in top_level_cursors(tu):
        kind = d.kind
        if kind == K.VAR_DECL and own(d):
            initializer(d)
        elif kind == K.FUNCTION_DECL and d.is_definition() and own(d):
            static_locals(d)
    return out


def wrap_signed(v: int, width: int) -> int:
    """`v` reduced modulo 2**width, as the signed number with those bits (0xFFFFFFFF, 32 -> -1)."""
    v &= (1 << width) - 1
    return v - (1 << width) if width > 1 and v >> (width - 1) else v


def is_included_definition(d) -> bool:
    """A C function or variable defined with external linkage in a file the main file includes (not a system
    header): `#include "cJSON.c"` in a test, a header that defines a global. gcc emits it, so other objects
    link against it; pgcc does too (otherwise only what the main file uses would be emitted). C++ functions and C
    inline definitions are still emitted only when used, as their definitions may appear in every unit.
    """
    loc = d.location
    # (a system header first: the headers' thousands of declarations, without asking for their file and line)
    if loc.is_in_system_header or loc.file is None or d.language != LanguageKind.C:
        return False
    if d.linkage != LinkageKind.EXTERNAL or d.storage_class == d.storage_class.EXTERN and not (
            d.kind == K.FUNCTION_DECL and d.is_function_inlined()):  # (`extern inline`: an external definition)
        return False
    if d.kind == K.FUNCTION_DECL:  # (an inline function only where it is the external definition: `extern inline`)
        return d.is_definition() and (not d.is_function_inlined() or not inline_linkage.is_inline_definition(d))
    return d.kind == K.VAR_DECL and (d.is_definition() or is_tentative(d))


def is_tentative(d) -> bool:
    """A file-scope `int x;` with no definition in the unit: C makes it a zero-initialized definition."""
    return (d.storage_class in (d.storage_class.NONE, d.storage_class.STATIC) and d.get_definition() is None
            and d.semantic_parent is not None and d.semantic_parent.kind == K.TRANSLATION_UNIT)


def is_free_specialization(c) -> bool:
    """Whether function cursor `c` is a specialization of a free function template (`square<double>`, the
    cursor a call references: its children are the instantiated body)."""
    return c.kind == K.FUNCTION_DECL and c.get_num_template_arguments() > 0


def generate(tu, filename: str, device_stubs: dict | None = None) -> ir.Module:
    """Translate a parsed translation unit into an MLIR module (the caller holds an MLIR Context);
    `device_stubs` (nvcc's model, see ModuleGen) translates only the device side.

    Raises:
        CompileError: for unsupported constructs, at their source position.
    """
    mg = ModuleGen(tu, filename, device_stubs)
    try:
        with ir.Location.file(filename, 1, 1):
            m = mg.generate()
    except CT.UnsupportedType as e:
        raise CompileError(f"unsupported construct: {e}") from None
    return m


# Arrays defined here of at least a cache line start on one, as gcc aligns large arrays for vector access: vector
# loads and stores of aligned rows then never straddle two lines. Declarations claim nothing (the definition
# elsewhere has its own alignment).
CACHE_LINE = 64


def _definition_alignment(mtype) -> int | None:
    mt = ir.MemRefType(mtype)
    if str(mt.element_type) == "f80":  # (long double: 16-byte aligned in the x86-64 ABI, as gcc places it)
        return max(16, _definition_alignment(ir.MemRefType.get(mt.shape, ir.F64Type.get())) or 16)
    if mt.rank == 0 or not mt.has_static_shape:
        return None
    width = mt.element_type.width if hasattr(mt.element_type, "width") else 0
    return CACHE_LINE if math.prod(mt.shape) * width // 8 >= CACHE_LINE else None
