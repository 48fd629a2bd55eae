"""Declarations: parameters, local variables and their initializers, variable-length arrays.

A scalar whose address is never taken is an SSA value (``define``); an address-taken scalar or an array of
numbers a memref (``memref.alloca`` at the function entry, or sized at the declaration for a VLA); structs,
unions and arrays of them raw bytes (llvm_memory); ``static``/``extern`` locals globals (module.ModuleGen);
``__shared__`` variables CUDA shared memory (cuda_device); C++ references the storage they name (cxx).
"""

from __future__ import annotations

import math

from mlir import ir
from mlir.dialects import arith, func, llvm, memref

from ..clang_ast import (K, T, canonical, children, evaluate, has_attr, string_initializer, strip_implicit,
                         var_decl_initializer)
from ..errors import CompileError
from . import complex_values
from . import array_init
from . import attributes
from . import big_init
from . import c_types as CT
from . import enzyme
from . import records as R
from .scan import decl_key, parameter_type
from .values import Binding, MemLV, MemVar, VarLV, dynamic_sizes, has_designator, size_expressions


class DeclGen:
    """Mixin for FunctionGen: parameters, locals, initializers."""

    # ---------------------------------------------------------------- parameters
    def bind_param(self, p, arg):
        ty = canonical(p.type)
        key = decl_key(p)
        with self.loc(p):
            if CT.is_reference(ty):  # a C++ reference: the address of the caller's object (cxx)
                self.bind_reference(key, CT.unreferenced(ty), arg, p)
            elif ty.kind == T.POINTER or CT.is_array(ty):
                # (an array parameter whose address is taken lives in memory as the pointer C makes it)
                held = canonical(parameter_type(p)) if key in self.addr_taken else ty
                if CT.pointee_is_memref(ty):
                    sizes = self.vla_sizes(size_expressions(p), ty, p)
                    self.define(key, held, self.from_ptr(arg, ty, sizes, p), cursor=p)
                else:
                    self.define(key, held, arg, cursor=p)
            elif CT.is_arith(ty) or CT.is_vector(ty):
                self.define(key, ty, arg, cursor=p)
            elif CT.is_complex(ty):
                self.define(key, ty, complex_values.from_abi(arg, ty), cursor=p)
            elif ty.kind in (T.FUNCTIONPROTO, T.FUNCTIONNOPROTO):  # `callback cb`: C adjusts it to a pointer
                self.define(key, ty, arg, cursor=p)
            else:
                raise self.unsupported(p, f"parameter of type '{p.type.spelling}'")

    def bind_record_param(self, p, pabi, args):
        """A struct/union parameter: its bytes (the byval copy, or the register pieces stored to the stack)."""
        with self.loc(p):
            if pabi.kind == "byval":
                self.struct_vars[decl_key(p)] = args[0]
            else:
                self.struct_vars[decl_key(p)] = self.pieces_to_memory(args, pabi.ctype)

    def to_abi(self, v, ty):
        """A value as passed across a function boundary (pointers as !llvm.ptr)."""
        if CT.is_complex(ty):
            return complex_values.to_abi(v, ty)
        return self.to_ptr(v) if canonical(ty).kind == T.POINTER else v

    # ---------------------------------------------------------------- variables
    def define(self, key, ty, value, form=None, cursor=None):
        """Bind a new variable: SSA unless its address is taken (then a 0-d memref; pointers are stored raw).
        `cursor`, its declaration, places an error."""
        if key in self.addr_taken:
            if CT.is_numeric(ty):
                m = self.alloca_entry(ir.MemRefType.get([], CT.memory_type(ty)), key=key)
            elif canonical(ty).kind == T.POINTER or CT.is_vector(ty):  # raw bytes (no memref of pointers/vectors)
                size, align = (8, 8) if canonical(ty).kind == T.POINTER else (CT.size_of(ty), canonical(ty).get_align())
                self.struct_vars[key] = self.byte_alloca(size, max(align, self.local_aligns.get(key, 1)))
                self.store_scalar(self.struct_vars[key], ty, value)
                return
            else:
                what = f"address of a variable of type '{ty.spelling}'"
                raise self.unsupported(cursor, what) if cursor is not None else CompileError(f"unsupported construct: {what}")
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

    def visit_DECL_STMT(self, c, initialize=True):
        """Declare the variables of `c` (`initialize=False`: without running their initializers, for a switch
        body's declarations hoisted before its dispatch). A switch body's hoisted declaration met in place
        (switch.check_hoistable's deferred_inits) assigns its scalars' initializers instead."""
        if initialize and c.hash in self.deferred_inits:
            for d in children(c):
                init = var_decl_initializer(d) if d.kind == K.VAR_DECL else None
                if init is not None:
                    value = self.convert(self.rvalue(init), init.type, d.type, init)
                    self.store(self.lvalue_of_decl(d, d), value)
            return
        for d in children(c):
            if d.kind == K.VAR_DECL and not initialize and d.storage_class not in (
                    d.storage_class.STATIC, d.storage_class.EXTERN):
                self.declare_local(d, initialize=False)
            elif d.kind == K.VAR_DECL:
                cleanup = attributes.declaration_attributes(d, "local").cleanup
                if cleanup is not None:
                    self.addr_taken.add(decl_key(d))  # (its address goes to the cleanup function)
                self.declare_local(d)
                if cleanup is not None:
                    self.arm_cleanup(d, cleanup, flagged=c.hash not in self.sure_declarations)
            elif d.kind in (K.TYPEDEF_DECL, K.STRUCT_DECL, K.ENUM_DECL, K.CLASS_DECL, K.UNION_DECL):
                self.mg.check_record(d)
            elif d.kind in (K.STATIC_ASSERT, K.FUNCTION_DECL):  # (clang has checked it; a block-scope prototype)
                pass
            elif d.kind in (K.NAMESPACE_ALIAS, K.USING_DIRECTIVE, K.USING_DECLARATION, K.TYPE_ALIAS_DECL):
                pass  # names only: clang has resolved every use (`namespace cg = cooperative_groups;` in a kernel)
            elif d.kind == K.UNEXPOSED_DECL and next((t.spelling for t in d.get_tokens()), None) == "__label__":
                pass  # GNU local label declaration: the label's scope only (gotos.py plans labels by name)
            else:
                raise self.unsupported(d)

    def arm_cleanup(self, d, fn, flagged=True):
        """`T v __attribute__((cleanup(fn)))` declared here: `fn(&v)` runs when the enclosing block ends, by any
        path (its end, return, break, goto: the walker's flags always reach the block's end), if the declaration
        ran; a byte at the function entry records that (reset after the call, for loops). `flagged=False`: the
        declaration runs whenever the block's end does (gotos.emit_compound), no byte: one per guard made
        opt's SROA and IPSCCP superlinear on tinycc's 65,536 guarded blocks (tests2/101_cleanup)."""
        if not flagged:
            self.block_cleanups[-1].append((d, fn, None))
            return
        i8, i64 = ir.IntegerType.get_signless(8), ir.IntegerType.get_signless(64)
        with ir.InsertionPoint.at_block_begin(self.entry), ir.Location.unknown():
            n = llvm.ConstantOp(i64, ir.IntegerAttr.get(i64, 1)).result
            armed = llvm.AllocaOp(CT.llvm_ptr(), n, i8, alignment=1).result
            llvm.StoreOp(llvm.ConstantOp(i8, ir.IntegerAttr.get(i8, 0)).result, armed)
        llvm.StoreOp(llvm.ConstantOp(i8, ir.IntegerAttr.get(i8, 1)).result, armed)
        self.block_cleanups[-1].append((d, fn, armed))

    def run_cleanups(self, cleanups):
        """At a block's end: the armed cleanups of its variables, last declared first."""
        i8 = ir.IntegerType.get_signless(8)
        for d, fn, armed in reversed(cleanups):
            if armed is None:
                with self.loc(d):
                    func.CallOp([], ir.FlatSymbolRefAttr.get(self.mg.declare(fn)),
                                [self.lvalue_address(self.lvalue_of_decl(d, d), d)])
                continue
            flag = llvm.LoadOp(i8, armed).result
            on = arith.cmpi(arith.CmpIPredicate.ne, flag, arith.constant(i8, 0))
            address = self.lvalue_address(self.lvalue_of_decl(d, d), d)

            def call(fn=fn, address=address, armed=armed):
                name = self.mg.declare(fn)
                func.CallOp([], ir.FlatSymbolRefAttr.get(name), [address])
                llvm.StoreOp(arith.constant(i8, 0), armed)
            with self.loc(d):
                self.emit_if(on, call, None, [])

    def declare_local(self, d, initialize=True):
        """Declare local variable `d` (`initialize=False`: a scalar without its initializer, zero until assigned)."""
        ty = canonical(d.type)
        key = decl_key(d)
        align = attributes.declaration_attributes(d, "local").align
        if d.type.get_align() > max(ty.get_align(), align or 0):  # (a typedef's `aligned(n)`: `aint x;`)
            align = d.type.get_align()
        if align:
            self.local_aligns[key] = align
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
        init = var_decl_initializer(d) if initialize else None
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
                m = self.alloca_entry(mtype, sizes, key=key)
                inits = []
            else:
                m = self.alloca_entry(mtype, key=key)
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
        if not (CT.is_numeric(ty) or ty.kind == T.POINTER or CT.is_vector(ty)):
            raise self.unsupported(d, f"variable of type '{d.type.spelling}'")
        init = inits[-1] if inits else None
        if self.has_vla_pointee(ty):
            self.define(key, ty, self.vla_pointer(init, ty, size_expressions(d, exclude=init), d), cursor=d)
            return
        if init is not None and key in self.addr_taken and _refers_to(init, key):
            # `uintptr_t v = (uintptr_t) &v / 16;` (gnulib's tempname.c): the scope of v begins at its declarator
            # (C11 6.2.1p7), so its storage exists while the initializer runs
            self.define(key, ty, self.zero(ty), cursor=d)
            self.store(self.lvalue_of_decl(d, d), self.convert(self.rvalue(init), init.type, ty, init))
            return
        if init is not None:
            value, form = self.rvalue_form(init)
            value = self.convert(value, init.type, ty, init)
            if form is not None and not (CT.is_int(ty) and not CT.is_unsigned(ty)):
                form = None
        else:
            value, form = self.zero(ty), None
        self.define(key, ty, value, form, cursor=d)

    def enzyme_struct_init(self, init):
        call = strip_implicit(init)
        return call.kind == K.CALL_EXPR and call.referenced is not None and bool(enzyme.mode_of(call.referenced.spelling))

    def struct_storage(self, d, ty, inits):
        """A local struct of scalar fields (e.g. `struct timeval` for gettimeofday) as raw bytes on the stack:
        fields are read and written through their byte offsets, `&s` is the C pointer. Struct copies,
        initializers and nested aggregates are not supported yet."""
        call = strip_implicit(inits[-1]) if inits else None
        gradients = call is not None and call.kind == K.CALL_EXPR and call.referenced is not None \
            and enzyme.mode_of(call.referenced.spelling)  # `struct grads g = __enzyme_autodiff(...)`
        for f in ty.get_fields():
            ft = canonical(f.type)
            if gradients and ft.kind == T.CONSTANTARRAY and CT.is_float(canonical(ft.element_type)):
                continue  # (`struct { double df[3]; } g = __enzyme_autodiff(...)`: enzyme.value_slots)
            if f.is_bitfield() or not (CT.is_arith(ft) or ft.kind == T.POINTER):
                raise self.unsupported(d, f"struct with a field of type '{f.type.spelling}'")
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

    def init_array(self, m, ty, init):
        """Store the elements of initializer list `init` into the memref array `m` of C type `ty` under C's
        rules (array_init.walk: brace elision, strings for rows of characters); missing elements are zero."""
        shape = CT.array_shape(ty)
        elem, dims = shape.elem, shape.dims
        listed = {}
        array_init.walk(init, dims, listed.__setitem__)  # flat index -> cursor or character (source order)
        big = big_init.is_large(dims)
        if big:  # zero everything with one loop nest, then store only the listed elements
            big_init.fill_zero(self, m, dims, self.zero(elem))

        def store(at, v):
            idx = []
            for d in reversed(dims):
                idx.append(at % d)
                at //= d
            memref.StoreOp(CT.as_stored(v, m), m, [self.const_index(j) for j in reversed(idx)])

        for at, e in listed.items():
            v = self.const_int(elem, e) if isinstance(e, int) else self.convert(self.rvalue(e), e.type, elem, e)
            store(at, v)
        if not big:
            for at in range(math.prod(dims)):
                if at not in listed:
                    store(at, self.zero(elem))

    # ---------------------------------------------------------------- variable-length array types
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
        if CT.is_array(src.type):  # `(double (*)[n]) grid`: the array decays to its first element's address
            return self.raw_pointer(operand)
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


def _refers_to(e, key) -> bool:
    """Whether expression cursor `e` names the variable whose decl_key is `key`."""
    return any(c.kind == K.DECL_REF_EXPR and c.referenced is not None and decl_key(c.referenced) == key
               for c in e.walk_preorder())
