"""C++ expressions of CUDA host code that C has no counterpart for: references, ``new``/``delete``.

References. A reference is the address of the object it names, exactly as a pointer would hold it: an
``!llvm.ptr`` at function boundaries (``T &`` parameters and results are pointers in the lowered signature,
c_types.abi_type), bound inside a function to the storage the walker already uses for address-taken objects
(docs/memory_model.md): a reference to a number is a 0-d memref over that address (``memref.load/store``, like
an address-taken scalar), to an array of numbers a pointer memref over its rows (subscripts stay memref and
affine accesses), to a struct, class or pointer the raw address (``llvm.load/store``, like a struct local or an
address-taken pointer). A variable a reference binds to lives in memory (scan.address_taken); binding a
``const T &`` to a value that is not an object materializes a temporary.

``new T[n]``, ``new T``/``new T(v)`` and ``delete``/``delete[]`` are the C allocator's calls (malloc/free): on
arrays of numbers the memory is the same memrefs that ``malloc`` gives C programs; ``new C(args)`` of a class
runs its constructor on the new bytes (cxx_classes). Placement new and arrays of classes that need
construction are errors. Everything is the mixin class CxxGen of codegen.FunctionGen (its expression dispatch
finds ``expr_*`` methods by cursor kind).
"""

from __future__ import annotations

from mlir import ir
from mlir.dialects import arith, llvm, memref

from ..clang_ast import K, T, canonical, children, unary_op, var_decl_initializer
from ..errors import CompileError
from . import c_types as CT
from . import records as R
from .cxx_classes import check_used_record
from .scan import decl_key
from .values import Binding, MemLV, MemVar


def _is_array_new(e) -> bool:
    """`new T[n]` (not `new T` or `new T(v)`): a '[' after `new` before any '('; libclang shows both forms as
    a CXX_NEW_EXPR with the count or the initializer as its child."""
    for t in list(e.get_tokens())[1:]:
        if t.spelling in ("[", "(", "{"):
            return t.spelling == "["
    return False


def _is_glvalue(e) -> bool:
    """Whether expression `e` designates an object (so a reference binds to it rather than to a copy)."""
    while e.kind in (K.PAREN_EXPR, K.UNEXPOSED_EXPR) and len(children(e)) == 1:
        inner = children(e)[0]  # (parentheses, or a cast adding `const`: the same object)
        if e.kind == K.UNEXPOSED_EXPR and canonical(inner.type).get_size() != canonical(e.type).get_size() or \
                e.kind == K.UNEXPOSED_EXPR and canonical(inner.type).kind != canonical(e.type).kind:
            return False
        e = inner
    k = e.kind
    if k == K.DECL_REF_EXPR:
        return e.referenced is not None and e.referenced.kind in (K.VAR_DECL, K.PARM_DECL)
    if k in (K.MEMBER_REF_EXPR, K.ARRAY_SUBSCRIPT_EXPR):
        return True
    if k == K.UNARY_OPERATOR:
        return unary_op(e) in ("*", "pre++", "pre--")
    if k in (K.BINARY_OPERATOR, K.COMPOUND_ASSIGNMENT_OPERATOR):
        return k == K.COMPOUND_ASSIGNMENT_OPERATOR or e.binary_operator.name == "Assign"
    if k == K.CONDITIONAL_OPERATOR:  # `c ? x : y` of two lvalues of one type is an lvalue
        ch = children(e)
        return len(ch) == 3 and _is_glvalue(ch[1]) and _is_glvalue(ch[2]) and \
            canonical(ch[1].type).spelling == canonical(ch[2].type).spelling
    if k == K.CALL_EXPR:
        r = e.referenced
        return r is not None and r.kind in (K.FUNCTION_DECL, K.CXX_METHOD) and CT.is_reference(r.result_type)
    return False


class CxxGen:
    """Mixin for FunctionGen: C++ references and ``new``/``delete`` expressions."""

    def expr_CXX_NEW_EXPR(self, e):
        """``new T[n]`` / ``new T`` / ``new T(v)`` for a number type T (and ``new T*[n]``): malloc of the bytes,
        a pointer memref."""
        ty = canonical(e.type)
        elem = canonical(ty.get_pointee())
        if elem.kind == T.RECORD:
            return self.new_object(e, elem)
        args = [c for c in children(e) if c.kind.is_expression()]
        if not CT.is_arith(elem) and not (elem.kind == T.POINTER and _is_array_new(e) and len(args) == 1):
            raise self.unsupported(e, f"new of '{ty.get_pointee().spelling}' (only numbers, classes and arrays "
                                      "of pointers without an initializer)")
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


    def expr_CXX_DELETE_EXPR(self, e):
        """``delete p`` / ``delete[] p`` of a number array: free (the memory came from malloc, see new)."""
        target = [c for c in children(e) if c.kind.is_expression()]
        pointee = canonical(canonical(target[0].type).get_pointee()) if target else None
        if pointee is None or not (CT.is_arith(pointee) or pointee.kind.name == "VOID" or pointee.kind == T.RECORD
                                   or pointee.kind == T.POINTER):
            raise self.unsupported(e, "delete of this type (only numbers, pointers and classes)")
        if pointee.kind == T.RECORD:  # nothing runs before free: the class must have no destructor body
            check_used_record(pointee, e)
        self.mg.builtins.libc("free", None, [self.raw_pointer(target[0])])
        return None


    def new_object(self, e, elem):
        """``new C``, ``new C(args)``, ``new C{...}``, ``new C[n]`` of a struct/class: malloc, then the
        constructor (or initializer) on the bytes; the result is the raw pointer."""
        i64 = ir.IntegerType.get_signless(64)
        size = arith.constant(i64, max(CT.size_of(elem), 1))
        inits = [c for c in children(e) if c.kind.is_expression()]
        if _is_array_new(e):
            if not inits:
                raise self.unsupported(e, "new[] without a size")
            if len(inits) > 1 or self.needs_construction(elem):
                raise self.unsupported(e, f"new[] of '{elem.spelling}' with a constructor or an initializer")
            raw = self.mg.builtins.libc("malloc", CT.llvm_ptr(), [arith.muli(size, self.mg.builtins.size_arg(self, inits[0]))])
            return raw
        raw = self.mg.builtins.libc("malloc", CT.llvm_ptr(), [size])
        if len(inits) > 1:
            raise self.unsupported(e, "placement new")
        if inits:
            self.init_object(raw, elem, inits[0])
        elif self.needs_construction(elem):
            self.default_construct(raw, elem, e)
        return raw


    # ---------------------------------------------------------------- references
    def returns_reference(self, e) -> bool:
        """Whether call expression `e` calls a function whose result is a reference (an lvalue)."""
        r = e.referenced if e.kind == K.CALL_EXPR else None
        return r is not None and r.kind in (K.FUNCTION_DECL, K.CXX_METHOD) and CT.is_reference(r.result_type) and \
            self.mg.builtins.lookup(r.spelling) is None  # (std::max is a builtin of values)


    def scalar_view(self, ptr, ty):
        """A 0-d memref (``memref<T, strided<[], offset: ?>>``) over the number of C type `ty` at !llvm.ptr `ptr`
        (descriptor built as in FunctionGen.from_ptr, so the cast folds away when lowered)."""
        i64 = ir.IntegerType.get_signless(64)
        st = ir.Type.parse("!llvm.struct<(ptr, ptr, i64)>")
        d = llvm.UndefOp(st).result
        d = llvm.InsertValueOp(d, ptr, [0]).result
        d = llvm.InsertValueOp(d, ptr, [1]).result
        d = llvm.InsertValueOp(d, llvm.ConstantOp(i64, ir.IntegerAttr.get(i64, 0)).result, [2]).result
        mtype = CT.strided_memref([], CT.memory_type(ty))
        return ir.Operation.create("builtin.unrealized_conversion_cast", [mtype], [d]).result


    def reference_lvalue(self, ptr, ty):
        """The lvalue a reference (address `ptr`, a raw pointer) to an object of canonical type `ty` designates.

        Raises:
            CompileError: a reference to a type pgcc does not address this way (a function, an array returned)."""
        ty = canonical(ty)
        if CT.is_arith(ty):
            return MemLV(self.scalar_view(ptr, ty), [], ty)
        if ty.kind in (T.RECORD, T.POINTER) or R.is_byte_object(ty):
            return ("llvm", ptr, ty, None)
        raise CompileError(f"unsupported construct: reference to '{ty.spelling}' here")


    def bind_reference(self, key, ty, ptr, cursor):
        """Make variable `key` (a reference parameter or local) name the object of type `ty` at `ptr`."""
        ty = canonical(ty)
        if CT.is_arith(ty):
            self.mem[key] = MemVar(self.scalar_view(ptr, ty), ty)
        elif CT.is_array(ty) and not R.is_byte_object(ty):  # an array of numbers: a pointer memref to its rows
            self.env[key] = Binding(self.from_ptr(ptr, ty, None, cursor))
        elif ty.kind in (T.RECORD, T.POINTER) or R.is_byte_object(ty):
            self.struct_vars[key] = ptr
        else:
            raise self.unsupported(cursor, f"reference to '{ty.spelling}'")


    def declare_reference(self, d, ty):
        """``T &r = x;`` / ``const T &r = value;``: r names x (or a temporary holding the value)."""
        init = var_decl_initializer(d)
        if init is None:
            raise self.error(d, f"reference '{d.spelling}' without an initializer")
        target = CT.unreferenced(ty)
        self.bind_reference(decl_key(d), target, self.reference_to(init, target), d)


    def reference_to(self, e, ty):
        """The address (!llvm.ptr) a reference to type `ty` bound to expression `e` holds: the object `e`
        designates, or for a `const T &` bound to a value, a new temporary holding it."""
        ty = canonical(ty)
        if ty.kind == T.RECORD:  # an object or a temporary: its bytes
            return self.address(e)
        if _is_glvalue(e):
            s = e
            while s.kind in (K.PAREN_EXPR, K.UNEXPOSED_EXPR) and len(children(s)) == 1:
                s = children(s)[0]
            if s.kind == K.CONDITIONAL_OPERATOR:  # the address of the object the taken arm designates
                cond, a, b = children(s)
                return self.emit_if(self.condition(cond), lambda: self.reference_to(a, ty),
                                    lambda: self.reference_to(b, ty), [a, b], result_type=CT.llvm_ptr())
            if CT.is_array(ty):
                lv = self.lvalue(s)
                return self.to_ptr(lv.memref if isinstance(lv, MemLV) else self.load(lv))
            return self.address(s)
        if not (CT.is_arith(ty) or ty.kind == T.POINTER):
            raise self.unsupported(e, f"reference to a temporary of type '{ty.spelling}'")
        v = self.convert(self.rvalue(e), e.type, ty, e)
        tmp = self.byte_alloca(CT.size_of(ty), ty.get_align())
        self.store_scalar(tmp, ty, v)
        return tmp
