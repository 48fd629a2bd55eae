"""Expressions: one ``expr_<KIND>`` per expression kind (dispatched by ``rvalue``), C conversions, operators.

Values follow gcc x86-64: the usual arithmetic conversions (clang has made them explicit as implicit casts),
wrap-around integer arithmetic, IEEE floating point as written. ``&&``, ``||`` and ``?:`` evaluate their right
side only when C does (``scf.if``) unless it is pure and cannot trap. ``form_of`` gives the affine form of a
signed integer expression, which subscripts and loop bounds use.
"""

from __future__ import annotations

from mlir import ir
from mlir.dialects import arith, llvm

from .line_macro import gcc_line_value
from ..clang_ast import K, T, canonical, children, evaluate, generic_choice, is_binary_conditional, is_type_trait, is_va_arg, is_variable_template_specialization, spelled_word, strip_implicit, unary_op
from ..constant_bounds import constant_int
from ..errors import CompileError, error_at
from . import complex_values
from . import records as R
from . import affine_forms as AF
from . import bitfield_types as BT
from . import c_types as CT
from . import gnu_atomics
from . import gotos
from . import x87
from . import int_semantics as IS
from . import varargs
from . import vectors
from .builtins import UNKNOWN_PREFIXES
from .scan import decl_key, exits, is_array_parameter
from .values import WARP_SIZE, VarLV




def _gotos_leaving(node, outer) -> bool:
    """Whether statement `node` holds a goto to a label outside cursor `outer` (a computed goto counts)."""
    if node.kind == K.INDIRECT_GOTO_STMT:
        return True
    if node.kind == K.GOTO_STMT:
        label = next((c.referenced for c in children(node) if c.kind == K.LABEL_REF), None)
        if label is None:
            return True
        a, b, x = outer.extent.start, outer.extent.end, label.extent.start
        return x.file is None or str(x.file) != str(a.file) or not a.offset <= x.offset < b.offset
    return any(_gotos_leaving(c, outer) for c in children(node))


def _safe_divisor(v, unsigned: bool) -> bool:
    """Whether integer Value `v` is a constant by which division cannot trap (nonzero; not -1 when signed)."""
    c = constant_int(v)
    return c is not None and c != 0 and (unsigned or c != -1)


class ExprGen:
    """Mixin for FunctionGen: expression values, conversions, operators, affine forms."""

    # ---------------------------------------------------------------- conditions and conversions
    def condition(self, e):
        return self.to_bool(self.rvalue(e), e.type)

    def to_bool(self, v, ty):
        ty = canonical(ty)
        if v.type == ir.IntegerType.get_signless(1):
            return v
        if CT.is_complex(ty):
            return complex_values.to_bool(v)
        if CT.is_int(ty):
            return arith.cmpi(arith.CmpIPredicate.ne, v, self.const_int(v.type, 0))
        if CT.is_float(ty):
            return arith.cmpf(arith.CmpFPredicate.UNE, v, arith.constant(v.type, 0.0))
        if ty.kind == T.POINTER or CT.is_array(ty):  # (an array parameter)
            p = self.to_ptr(v) if v.type != CT.llvm_ptr() else v
            return llvm.ICmpOp(llvm.ICmpPredicate.ne, p, llvm.ZeroOp(CT.llvm_ptr()).result).result
        raise CompileError(f"cannot test a value of type '{ty.spelling}'")

    def convert(self, v, src, dst, cursor=None):
        """C conversion of value `v` from type `src` to type `dst` (usual arithmetic conversions, casts)."""
        src, dst = canonical(src), canonical(dst)
        if dst.kind == T.VOID or dst.kind == T.RECORD and src.kind == T.RECORD:
            return v
        if CT.is_vector(src) or CT.is_vector(dst):  # (GCC vector extensions: vectors.py)
            return vectors.convert(self, v, src, dst, cursor)
        if CT.is_complex(src) or CT.is_complex(dst):
            if not (CT.is_numeric(src) and CT.is_numeric(dst) or dst.kind == T.BOOL):
                raise error_at(cursor, f"unsupported conversion from '{src.spelling}' to '{dst.spelling}'") \
                    if cursor else CompileError("unsupported conversion")
            return complex_values.convert(self, v, src, dst, cursor)
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
                wider = ir.FloatType(dt).width > ir.FloatType(v.type).width  # (f80 has no Python type of its own)
                return arith.extf(dt, v) if wider else arith.truncf(dt, v)
            if isinstance(v.type, ir.IntegerType):
                if dt.width > v.type.width:
                    return arith.extui(dt, v) if (CT.is_unsigned(src) or v.type.width == 1) else arith.extsi(dt, v)
                if dt.width < v.type.width:
                    return arith.trunci(dt, v)
                return v
            folded = self.fold_float_to_int(cursor, dst)
            if folded is not None:
                return folded
            return arith.fptoui(dt, v) if CT.is_unsigned(dst) else arith.fptosi(dt, v)
        if dst.kind in (T.POINTER, T.FUNCTIONPROTO, T.FUNCTIONNOPROTO) or CT.is_array(dst):
            # (to an array or function parameter, whose type C adjusts to a pointer)
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

    def fold_float_to_int(self, cursor, dst):
        """The conversion of floating constant expression `cursor` (the operand) to integer type `dst` as gcc
        folds it: out-of-range values saturate, NaN is 0 (LLVM's fptosi of them is poison); None when the operand
        is not a constant."""
        x = evaluate(cursor) if cursor is not None and CT.is_float(cursor.type) else None
        if not isinstance(x, float):
            return None
        bits = CT.scalar_type(dst).width
        lo, hi = (0, (1 << bits) - 1) if CT.is_unsigned(dst) else (-(1 << bits - 1), (1 << bits - 1) - 1)
        n = 0 if x != x else lo if x < lo else hi if x > hi else int(x)
        return self.const_int(dst, self.signed_bits(n, bits))

    # ---------------------------------------------------------------- values
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
            try:
                return m(e, discard) if k in (K.CALL_EXPR, K.BINARY_OPERATOR, K.COMPOUND_ASSIGNMENT_OPERATOR,
                                              K.UNARY_OPERATOR) else m(e)
            except CT.UnsupportedType as err:  # (a type met inside, `long double _Complex` through a pointer)
                raise self.unsupported(e, str(err)) from None

    def expr_INTEGER_LITERAL(self, e):
        v = gcc_line_value(e, evaluate(e))
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
        if canonical(e.type).kind == T.LONGDOUBLE:  # (clang evaluates in double: round the text once)
            v = x87.literal(e)
            if v is None:
                raise self.unsupported(e, "long double literal from a built-in macro")
            return x87.constant(v)
        return arith.constant(CT.scalar_type(e.type), float(evaluate(e)))

    def expr_IMAGINARY_LITERAL(self, e):
        """`2.0i`, `1.0iF` (complex.h's I): real part +0, the literal's number as the imaginary part."""
        ch = children(e)
        if len(ch) != 1 or not CT.is_complex(e.type):
            raise self.unsupported(e, "imaginary literal")
        pt = complex_values.part_ctype(e.type)
        im = self.convert(self.rvalue(ch[0]), ch[0].type, pt, ch[0])
        return complex_values.make(arith.constant(im.type, 0.0), im)

    def expr_PAREN_EXPR(self, e):
        return self.rvalue(children(e)[0])

    def expr_CXX_UNARY_EXPR(self, e):  # sizeof / alignof
        v = evaluate(e)
        if not isinstance(v, int):
            n = self.vla_sizeof(e)
            if n is None:
                raise self.unsupported(e, "sizeof of a variable-length type")
            return arith.index_cast(CT.scalar_type(e.type), n)
        return self.const_int(e.type, v)

    def vla_sizeof(self, e):
        """`sizeof x` for an operand of variable-length array type (an index Value: its run-time dims times the
        element's size): a local VLA (`sizeof a`), a row of one or of a pointer to VLA rows (`sizeof b[i]`,
        `sizeof *p`), read off the memref it is an element of; None for another operand (`sizeof(double[n])`
        written as a type) or one whose evaluation has effects (C evaluates a VLA-typed operand)."""
        from mlir.dialects import memref as M
        kids = [c for c in children(e) if c.kind.is_expression()]
        if len(kids) != 1 or spelled_word(e) != "sizeof" or not self.side_effect_free(kids[0]) \
                or canonical(kids[0].type).kind != T.VARIABLEARRAY:
            return None
        ref = self.strip_parens(kids[0])
        key = decl_key(ref.referenced) if ref.kind == K.DECL_REF_EXPR and ref.referenced else None
        if key is not None and key in getattr(self, "vla_sizes_of", {}):  # (pointers, structs: bytes)
            return arith.index_cast(ir.IndexType.get(), self.vla_sizes_of[key])
        elem = CT.array_shape(canonical(ref.type)).elem
        depth = 0
        # `b[i]`, `p[i]`, `*p`, `**p`: one dim of the memref per subscript or dereference
        while ref.kind == K.ARRAY_SUBSCRIPT_EXPR or ref.kind == K.UNARY_OPERATOR and unary_op(ref) == "*":
            ref, depth = self.strip_parens(children(ref)[0]), depth + 1
        key = decl_key(ref.referenced) if ref.kind == K.DECL_REF_EXPR and ref.referenced else None
        if ref.kind == K.DECL_REF_EXPR and canonical(ref.type).kind == T.POINTER and \
                CT.pointee_is_memref(canonical(ref.type)) and key not in self.env and key not in self.mem:
            return self.declared_row_bytes(ref, depth, elem)  # (`T (*p)[m] = malloc(n * sizeof *p)`)
        if ref.kind == K.DECL_REF_EXPR and canonical(ref.type).kind == T.POINTER and \
                CT.pointee_is_memref(canonical(ref.type)) or self.is_array_parameter(ref):
            mem = self.rvalue(ref)  # (a pointer to VLA rows: a memref whose first dim is the rows)
        elif key is not None and key in self.mem:
            mem = self.mem_ref(self.mem[key])
        else:
            return None
        if not isinstance(mem.type, ir.MemRefType) or depth >= ir.MemRefType(mem.type).rank:
            return None
        mt = ir.MemRefType(mem.type)
        n = arith.constant(ir.IndexType.get(), CT.size_of(elem))
        for k in range(depth, mt.rank):
            n = arith.muli(n, M.DimOp(mem, arith.constant(ir.IndexType.get(), k)).result)
        return n

    @staticmethod
    def is_array_parameter(ref) -> bool:
        """Whether DECL_REF_EXPR `ref` names a parameter declared as a variable-length array (`double a[n][m]`:
        libclang types the reference as declared, the parameter is the pointer to its rows)."""
        d = ref.referenced
        return d is not None and d.kind == K.PARM_DECL and canonical(ref.type).kind == T.VARIABLEARRAY

    def declared_row_bytes(self, ref, depth, elem):
        """sizeof of `*p` (`depth` 1) or deeper for pointer variable `p` in its own initializer, before it has a
        value: the size expressions of its declaration's type evaluated again (they have no effects: checked),
        or None."""
        from .values import dynamic_sizes, size_expressions
        d = ref.referenced
        shape = CT.array_shape(canonical(canonical(d.type).get_pointee()))
        from ..clang_ast import var_decl_initializer
        exprs = size_expressions(d, exclude=var_decl_initializer(d))
        runtime = dynamic_sizes(exprs, shape.dims)
        if None in runtime or not all(self.side_effect_free(x) for x in runtime) or depth < 1:
            return None
        values = iter(runtime)
        n = arith.constant(ir.IndexType.get(), CT.size_of(elem))
        for k, dim in enumerate(shape.dims):
            v = next(values) if dim is None else None
            if k < depth - 1:
                continue
            size = self.index_of(self.rvalue(v), v.type) if v is not None else arith.constant(ir.IndexType.get(), dim)
            n = arith.muli(n, size)
        return n

    @staticmethod
    def strip_parens(c):
        c = strip_implicit(c)
        while c.kind == K.PAREN_EXPR:
            c = strip_implicit(children(c)[0])
        return c

    def side_effect_free(self, c) -> bool:
        """Whether evaluating expression `c` has no effects: no calls, assignments, increments or decrements."""
        if c.kind in (K.CALL_EXPR, K.COMPOUND_ASSIGNMENT_OPERATOR):
            return False
        if c.kind == K.UNARY_OPERATOR and unary_op(c) in ("++", "--"):
            return False
        if c.kind == K.BINARY_OPERATOR and c.binary_operator.name == "Assign":  # (not tokens: a macro may write it)
            return False
        return all(self.side_effect_free(k) for k in children(c))

    def expr_UNARY_EXPR(self, e):
        return self.expr_CXX_UNARY_EXPR(e)

    def expr_STRING_LITERAL(self, e):
        return self.mg.literal(e)

    def expr_DECL_REF_EXPR(self, e):
        r = e.referenced
        sub = children(e)
        if r is None and len(sub) == 1 and sub[0].kind.is_expression():
            # a non-type template parameter in an instantiated body (SubstNonTypeTemplateParmExpr): its value
            return self.convert(self.rvalue(sub[0]), sub[0].type, e.type, e)
        if r is None:
            raise self.unsupported(e, f"reference to '{e.spelling}'")
        if r.kind == K.ENUM_CONSTANT_DECL:
            return self.const_int(e.type, r.enum_value)
        if r.kind in (K.VAR_DECL, K.PARM_DECL) or is_variable_template_specialization(r):
            ty = canonical(e.type)
            if CT.is_array(ty) and r.kind != K.PARM_DECL:  # (an array parameter is a pointer)
                raise self.unsupported(e, "array used as a value")
            if r.spelling == "warpSize" and r.semantic_parent.kind == K.TRANSLATION_UNIT:
                return self.const_int(ty, WARP_SIZE)
            if r.kind != K.PARM_DECL and CT.is_int(ty) and ty.is_const_qualified() and not ty.is_volatile_qualified():
                v = evaluate(e)  # `const int N = 30;`, `constexpr int BLOCK = 128;`: C++ constants, not loads
                if isinstance(v, int) and not isinstance(v, bool):  # (as the attribute's signed bit pattern)
                    return self.const_int(ty, self.signed_bits(v, CT.scalar_type(ty).width))
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
        if is_va_arg(e):
            return varargs.va_arg(self, e)
        vector_builtin = vectors.unexposed(self, e) if CT.is_vector(e.type) else None
        if vector_builtin is not None:  # (__builtin_shufflevector / __builtin_convertvector)
            return vector_builtin
        if is_binary_conditional(e):
            return self.binary_conditional(e)
        if len(ch) != 1 or is_type_trait(e, ch[0]):
            v = evaluate(e) if CT.is_arith(e.type) and self.pure(e) else None
            if isinstance(v, (int, float)):  # `__builtin_offsetof(T, m)`, GNU constant builtins
                return arith.constant(CT.scalar_type(e.type), float(v)) if CT.is_float(e.type) else \
                    self.const_int(e.type, self.signed_bits(int(v), CT.scalar_type(e.type).width))
            first = spelled_word(e)  # (`__atomic_load_n(p, order)` is an AtomicExpr, no call; macros may write them)
            if first == "__builtin_choose_expr" and len(ch) == 3 and \
                    isinstance(evaluate(ch[0]), int):  # GNU: the chosen operand only, as it is
                return self.rvalue(ch[1] if evaluate(ch[0]) else ch[2])
            if first == "__builtin_choose_expr" and len(ch) == 3 and CT.is_arith(e.type) and \
                    isinstance(v := evaluate(e), (int, float)):
                # (a condition libclang does not fold, `!__builtin_constant_p(x)`: clang's value of the chosen
                # constant operand; the other one, with its side effects, is never evaluated)
                return arith.constant(CT.scalar_type(e.type), float(v)) if CT.is_float(e.type) else \
                    self.const_int(e.type, self.signed_bits(int(v), CT.scalar_type(e.type).width))
            atomic = gnu_atomics.builtin_name(e)
            if atomic in gnu_atomics.BUILTINS:  # `__atomic_fetch_add(p, v, order)`: an AtomicExpr
                return gnu_atomics.BUILTINS[atomic](self, e, gnu_atomics.atomic_expr_arguments(ch))
            if first.startswith(UNKNOWN_PREFIXES):
                raise error_at(e, f"unsupported builtin '{first}'")
            raise self.unsupported(e)
        return self.cast(ch[0], e.type, e)

    def expr_GENERIC_SELECTION_EXPR(self, e):
        return self.rvalue(generic_choice(e))

    def expr_ADDR_LABEL_EXPR(self, e):
        return gotos.label_address(children(e)[0])

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
        if CT.is_array(to_c) and from_c.kind == T.POINTER:  # to an array parameter's type: a pointer
            return self.pointer(inner)
        if to_c.kind == T.POINTER and from_c.kind == T.POINTER:
            si = strip_implicit(inner)
            if si.kind == K.CALL_EXPR and self.mg.builtins.is_allocator(si):
                return self.mg.builtins.allocate(self, si, to_c)
            return self.pointer(e)
        v = self.rvalue(inner)
        if to_c.kind == T.RECORD and from_c.kind == T.RECORD:
            return self.convert_object(v, from_c, to_c, e)  # (a derived class's base subobject: cxx_classes)
        if CT.is_array(to_c) and is_array_parameter(inner):
            return v  # (an array parameter's value is its pointer)
        if e.kind == K.CSTYLE_CAST_EXPR and (CT.is_vector(to_c) or CT.is_vector(from_c)):  # (vectors.py)
            return vectors.explicit_cast(self, v, from_c, to_c, inner)
        return self.convert(v, from_c, to_c, inner)

    def expr_ARRAY_SUBSCRIPT_EXPR(self, e):
        if vectors.is_vector_subscript(e):  # `v[i]` of any vector value
            return vectors.subscript_rvalue(self, e, *children(e))
        return self.load(self.lvalue(e))

    def expr_MEMBER_REF_EXPR(self, e):
        return self.load(self.lvalue(e))

    # ---------------------------------------------------------------- operators
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

    def binary_conditional(self, e):
        """GNU `x ?: y`: x evaluated once; its value if it is nonzero, else y (evaluated only then)."""
        common, other = children(e)[0], children(e)[3]
        ty = canonical(e.type)
        v = self.rvalue(common)
        cv = self.to_bool(v, common.type)
        va = self.convert(v, common.type, ty, common)
        if self.pure(other) and not self.reads_memory(other):
            return arith.select(cv, va, self.convert(self.rvalue(other), other.type, ty, other))
        return self.emit_if(cv, lambda: va, lambda: self.convert(self.rvalue(other), other.type, ty, other),
                            [other], result_type=CT.value_type(ty))

    def may_be_poison(self, e):
        """Whether `e` has a shift, whose LLVM result is poison for an out-of-range count."""
        if e.kind in (K.BINARY_OPERATOR, K.COMPOUND_ASSIGNMENT_OPERATOR) and \
                e.binary_operator.name.replace("Assign", "") in ("Shl", "Shr"):
            return True
        return any(self.may_be_poison(ch) for ch in e.get_children())

    def reads_memory(self, e):
        """Whether `e` may not be evaluated speculatively (as a select operand, a `?:` arm or the right of
        `&&`/`||`): it reads through a subscript, a pointer or a struct member (`p->f` with p null), or divides
        (an integer division by zero or INT_MIN / -1 traps, csmith's safe math guards them with `?:`; a float
        division by zero traps in a program that enabled FE_DIVBYZERO, as libpng's pngvalid does)."""
        if e.kind in (K.ARRAY_SUBSCRIPT_EXPR,) or e.kind == K.UNARY_OPERATOR and unary_op(e) == "*":
            return True
        if e.kind == K.MEMBER_REF_EXPR and children(e) and not CT.is_dim3(children(e)[0].type):
            return True  # a struct member (threadIdx.x and dim3 variables are values)
        if e.kind in (K.BINARY_OPERATOR, K.COMPOUND_ASSIGNMENT_OPERATOR) and \
                e.binary_operator.name.replace("Assign", "") in ("Div", "Rem") and \
                (CT.is_int(e.type) or CT.is_float(e.type)):
            return True  # (a float division may trap too once a program enables traps: gcc's -ftrapping-math)
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
        if CT.is_vector(at) or CT.is_vector(bt):  # element-wise (vectors.py)
            return vectors.binary(self, op, a, b, e)
        if op in ("Add", "Sub") and (at.kind == T.POINTER or bt.kind == T.POINTER or CT.is_array(at) or
                                     CT.is_array(bt)):  # (an array operand is a pointer: `argv + n + 1`)
            return self.pointer_arith(e, op, a, b)
        va, vb = self.rvalue(a), self.rvalue(b)
        if CT.is_complex(at) or CT.is_complex(bt):
            v = self.complex_op(op, va, vb, e)
            return self.from_bool(v, ty) if op in ("EQ", "NE") else v
        narrow = BT.operand_type(e, op) if CT.is_int(at) and CT.is_int(bt) else None
        if narrow is not None:  # gcc computes in a wide bit-field's own N-bit type (bitfield_types.py)
            return self.narrow_op(op, a, b, va, vb, narrow, e)
        if op in ("LT", "GT", "LE", "GE", "EQ", "NE"):
            return self.from_bool(self.compare(op, va, vb, at), ty)
        return self.arith_op(op, va, vb, ty, e)

    def narrow_op(self, op, a, b, va, vb, narrow, e):
        """`va op vb` in gcc's N-bit bit-field type `narrow` = (N, unsigned): operands of another type converted
        to it, the result reduced to N bits (clang's types are 64-bit; bitfield_types.py)."""
        if BT.gcc_type(a) != narrow:
            va = BT.reduce(va, narrow)
        if op not in ("Shl", "Shr") and BT.gcc_type(b) != narrow:
            vb = BT.reduce(vb, narrow)
        sign = IS.LONGLONG if not narrow[1] else IS.ULONGLONG
        if op in ("LT", "GT", "LE", "GE", "EQ", "NE"):
            return self.from_bool(self.compare(op, va, vb, sign), e.type)
        v = self.arith_op(op, va, vb, sign, e)
        return BT.reduce(v, narrow) if op in ("Add", "Sub", "Mul", "Shl", "Div") else v

    def complex_op(self, op, va, vb, e):
        """`va op vb` with a complex operand (complex_values.binary); other operators are errors."""
        sym = {"Add": "+", "Sub": "-", "Mul": "*", "Div": "/", "EQ": "==", "NE": "!="}.get(op)
        if sym is None:
            raise self.unsupported(e, f"operator {op} on a complex value")
        return complex_values.binary(self, sym, va, vb)

    def from_bool(self, v, ty):
        ty = canonical(ty)
        if ty.kind == T.BOOL:
            return v
        return arith.extui(CT.scalar_type(ty), v)

    def compare(self, op, va, vb, operand_ty):
        if CT.is_float(operand_ty):
            pred = {"LT": "olt", "GT": "ogt", "LE": "ole", "GE": "oge", "EQ": "oeq", "NE": "une"}[op]
            return arith.cmpf(getattr(arith.CmpFPredicate, pred.upper()), va, vb)
        if canonical(operand_ty).kind in (T.POINTER, T.FUNCTIONPROTO, T.FUNCTIONNOPROTO) or CT.is_array(operand_ty):
            # (an array or function parameter is a pointer)
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
        if op in ("Shl", "Shr") and self.in_device_function():  # the GPU's clamped amounts (cuda_device.py)
            return self.ptx_shift(op, va, vb, u)
        if op == "Rem" and not _safe_divisor(vb, u):
            # MLIR counts arith.remsi/remui as speculatable (unlike divsi/divui), so its loop-invariant code motion
            # would hoist `a % b` above the test or call that guards it; computed as a - (a / b) * b, which LLVM
            # folds back into one srem/urem
            q = (arith.divui if u else arith.divsi)(va, vb)
            return arith.subi(va, arith.muli(q, vb))
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
        if CT.is_vector(a.type) or CT.is_vector(b.type):  # element-wise (vectors.py)
            return vectors.compound(self, op, a, b, e)
        lv = self.lvalue(a)
        at = canonical(a.type)
        # (the right operand first, then the load: `x[0] |= f()` sees what f stored into x[0], as gcc and clang)
        if at.kind == T.POINTER or is_array_parameter(a):
            k = self.index_of(self.rvalue(b), b.type)
            cur = self.load(lv)
            if op == "Sub":
                k = arith.subi(self.const_index(0), k)
            v = self.offset_pointer(cur, k, at)
            self.store(lv, v)
            return v
        if CT.is_complex(at) or CT.is_complex(b.type):  # (clang's computation type: complex, or the lhs real)
            if not (CT.is_numeric(at) and CT.is_numeric(b.type)) or CT.is_int(at) or CT.is_int(b.type):
                raise self.unsupported(e, f"compound assignment of '{b.type.spelling}' to '{a.type.spelling}'")
            rb = self.rvalue(b)
            cur, rv = complex_values.common(self.load(lv), rb)
            v = complex_values.narrow(self.complex_op(op, cur, rv, e), at)
            stored = self.store(lv, v)
            return v if stored is None else stored
        # the computation type: usual arithmetic conversions (promoted lhs for shifts), then back to lhs's type
        if not (CT.is_arith(at) and CT.is_arith(b.type)):
            raise self.unsupported(e, f"compound assignment to '{a.type.spelling}'")
        comp = IS.compound_computation_type(op, at, b.type)
        rv = self.convert(self.rvalue(b), b.type, comp, b)
        cur = self.convert(self.load(lv), at, comp, a)
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
        if op in ("-", "+", "~", "!", "pre++", "pre--", "post++", "post--") and CT.is_vector(ty):  # (vectors.py)
            return vectors.unary(self, op, a, e)
        if op in ("pre++", "pre--", "post++", "post--"):
            lv = self.lvalue(a)
            at = canonical(a.type)
            old = self.load(lv)
            if at.kind == T.POINTER or is_array_parameter(a):
                new = self.offset_pointer(old, self.const_index(1 if "++" in op else -1), at)
            elif at.kind == T.BOOL:  # b + 1 is nonzero: true; b - 1 is nonzero exactly when b was false
                new = self.const_bool(True) if "++" in op else arith.xori(old, self.const_bool(True))
            elif CT.is_float(at):
                one = arith.constant(old.type, 1.0)
                new = arith.addf(old, one) if "++" in op else arith.subf(old, one)
            elif CT.is_complex(at):  # (z + 1: the real part only)
                re, im = complex_values.parts(old)
                one = arith.constant(re.type, 1.0)
                new = complex_values.make(arith.addf(re, one) if "++" in op else arith.subf(re, one), im)
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
        if CT.is_complex(a.type):
            if op in ("__real", "__imag"):
                return complex_values.parts(v)[op == "__imag"]
            if op in ("-", "~"):  # (GNU C: ~z is the conjugate)
                return complex_values.negate(v) if op == "-" else complex_values.conjugate(v)
            if op == "!":
                return self.from_bool(arith.xori(complex_values.to_bool(v), self.const_bool(True)), ty)
        elif canonical(a.type).kind == T.COMPLEX:
            raise self.unsupported(e, f"operator {op} on a value of type '{a.type.spelling}'")
        elif op in ("__real", "__imag"):  # of a real: the value, and zero
            return v if op == "__real" else self.zero(ty)
        if op == "+":
            return v
        narrow = BT.narrow_type(e) if op in ("-", "~") else None
        if op == "-":
            if CT.is_float(ty):
                return arith.negf(v)
            v = arith.subi(self.const_int(v.type, 0), v)
            return v if narrow is None else BT.reduce(v, narrow)
        if op == "~":
            v = arith.xori(v, self.const_int(v.type, -1))
            return v if narrow is None else BT.reduce(v, narrow)
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
        ty = canonical(e.type)
        if any(_gotos_leaving(s, e) for s in stmts):
            raise self.unsupported(e, "goto out of a statement expression")
        # (a goto to a label inside the expression, `({ __label__ again; again: ... goto again; })`, stays inside)
        kinds = (K.RETURN_STMT, K.BREAK_STMT, K.CONTINUE_STMT) if self.loops else (K.RETURN_STMT,)
        exiting = [exits(s, kinds) for s in stmts]
        jumps = any(exiting)
        if jumps and (e.hash != self.exit_safe_expr or R.is_record(ty)):
            raise self.unsupported(e, "return, break or continue inside a statement expression that is not a "
                                      "whole statement, a local variable's initializer or assigned to a local "
                                      "variable")
        labels = gotos.enter_expression_block(self, children(e)[0]) if any(
            exits(s, (K.GOTO_STMT,)) for s in stmts) else []
        try:
            return self.stmt_expr_value(e, stmts, ty, exiting)
        finally:
            for k in labels:
                self.env.pop(k, None)

    def stmt_expr_value(self, e, stmts, ty, exiting):
        """The statements of statement expression `e`, then its value (None when void); `exiting`: which of them
        may leave it by return, break or continue."""
        if ty.kind == T.VOID or not stmts:
            self.emit_stmts(stmts)
            return None
        self.emit_stmts(stmts[:-1])
        last = stmts[-1]
        while last.kind == K.LABEL_STMT:  # `({ ...; goto done; ...; done: v; })`: reached, the label's flag clears
            if exits(children(last)[0], (K.GOTO_STMT,)):
                raise self.unsupported(last, "goto inside the labelled last statement of a statement expression")
            gotos.emit_label_flag(self, last)
            last = children(last)[0]
        cond = self.not_exited() if any(exiting[:-1]) else None
        if cond is None:
            return self.rvalue(last)
        # (after a jump the value is never read: stmt_exprs.exit_safe)
        return self.emit_if(cond, lambda: self.convert(self.rvalue(last), last.type, ty, last),
                            lambda: self.zero(ty), [last], result_type=CT.value_type(ty))

    def expr_INIT_LIST_EXPR(self, e):
        """A braced temporary of class type (`cg::plus<float>{}`, `Pair{a, b}` as an argument): a stack object
        initialized as a local would be; its value is the address of its bytes, as every struct value is."""
        ty = canonical(e.type)
        if CT.is_vector(ty):  # `{a, b, c, d}` of a vector (vectors.py)
            return vectors.init_list(self, e, ty)
        items = children(e)
        if ty.kind != T.RECORD and len(items) == 1 and canonical(items[0].type).kind != T.RECORD \
                and (CT.is_arith(ty) or ty.kind == T.POINTER):
            # a scalar's initializer in braces (C11 6.7.9p11: `char *p = { "xyz" + 1 };`, tcc's tests)
            return self.convert(self.rvalue(items[0]), items[0].type, ty, items[0])
        if ty.kind != T.RECORD:
            raise self.unsupported(e, "initializer list here")
        ptr = self.byte_alloca(CT.size_of(ty), ty.get_align())
        self.init_object(ptr, ty, e)
        return ptr

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
