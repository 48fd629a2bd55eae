"""The LLVM-pointer side of the memory model (see docs/memory_model.md).

Numeric arrays and pointers to numeric data stay memrefs (pointers.py, lvalues.py); everything a memref cannot describe
exactly lives in raw bytes behind an ``!llvm.ptr``: structs and unions, arrays of structs or of pointers,
pointers to pointers, pointers to structs, function pointers. This mixin gives FunctionGen the byte-level
operations: the address of any lvalue, field and bit-field access, aggregate copies and initializers,
pointer arithmetic/comparison/difference on raw pointers, function addresses, and the by-value passing of
aggregates at calls (records.signature).
"""

from __future__ import annotations

from fractions import Fraction

from mlir import ir
from mlir.dialects import arith, func, llvm

from ..clang_ast import K, T, canonical, children, evaluate, is_variable_template_specialization, macro_definitions, string_initializer, string_literal, strip_implicit, \
    unary_op
from ..errors import error_at
from . import complex_values
from . import attributes
from . import x87
from . import c_types as CT
from . import vectors
from . import gotos
from . import records as R
from .records import is_default_construction
from .scan import decl_key
from .values import MemLV, MemVar, has_designator

I64 = lambda: ir.IntegerType.get_signless(64)  # noqa: E731
DYNAMIC_INDEX = -2147483648  # llvm.getelementptr's marker: this index is an operand


class Designated:
    """The rest of a nested designator (`.b = v` left of `.a.b = v`) while the walk is inside `.a`."""

    def __init__(self, path, value, cursor):
        self.path, self.value, self.cursor = path, value, cursor


def cursor_of(item):
    return item.cursor if isinstance(item, Designated) else item


def _with_ranges(item, path) -> list:
    """The designator path of designated initializer `item` with each GNU range `[lo ... hi]` as one entry
    ("range", lo, hi): libclang shows lo and hi as two path entries, like `[lo][hi]`, so the tokens tell them
    apart. Other entries stay cursors.

    Raises:
        ValueError: a range bound that is not a constant, or a range a macro writes."""
    tokens = []
    for t in item.get_tokens():
        if t.spelling == "=":
            break
        tokens.append(t.spelling)
    if "..." not in tokens:
        if _macro_writes_range(item.translation_unit, tokens):
            raise ValueError("GNU range designator written inside a macro")
        return list(path)
    out, k, depth, ranged = [], 0, 0, False
    for t in tokens:
        if t == "[":
            depth += 1
            if depth == 1:
                ranged = False
        elif t == "...":
            ranged = depth == 1
        elif t == "]":
            depth -= 1
            if depth == 0:
                if ranged:
                    lo, hi = evaluate(path[k]), evaluate(path[k + 1])
                    if not (isinstance(lo, int) and isinstance(hi, int)):
                        raise ValueError("designator that is not a constant")
                    out.append(("range", lo, hi))
                    k += 2
                else:
                    out.append(path[k])
                    k += 1
        elif t != "." and depth == 0:  # `.name`
            out.append(path[k])
            k += 1
    return out + list(path[k:])


def _macro_writes_range(tu, tokens, depth: int = 0) -> bool:
    """Whether a macro used in designator `tokens` has `...` in its expansion: libclang's tokens show the macro's
    name there, so `[lo ... hi]` would read as `[lo][hi]` (wrong elements, silently)."""
    table = macro_definitions(tu)
    return depth < 16 and any(t in table and ("..." in table[t][1] or
                                              _macro_writes_range(tu, table[t][1], depth + 1)) for t in tokens)


def field_index(fields, name):
    """The position in `fields` (FIELD_DECL cursors) of the member a designator names (its spelling, or the
    FIELD_DECL of an anonymous member), or None."""
    if isinstance(name, str):
        return next((j for j, f in enumerate(fields) if f.spelling == name), None)
    return next((j for j, f in enumerate(fields) if f == name), None)


def designator_of(item):
    """For a designated initializer (an UNEXPOSED_EXPR of type void whose children are the designators, then
    the value): (field name or index, what initializes that member: the value, or a Designated for the rest
    of the path); None for a positional initializer. A GNU range `[lo ... hi]` gives ("range", lo, hi) for the
    index (array_position spreads it over the elements). A Designated's path holds cursors or indexes (ints).

    Raises:
        ValueError: an index that is not a constant, or a range whose value is not constant (GCC evaluates it
            once for all elements)."""
    if isinstance(item, Designated):
        path, value, cursor = item.path, item.value, item.cursor
    else:
        if item.kind != K.UNEXPOSED_EXPR or canonical(item.type).kind != T.VOID:
            return None
        ch = children(item)
        if len(ch) < 2:
            raise ValueError("designator")
        path, value, cursor = _with_ranges(item, ch[:-1]), ch[-1], item
        if any(isinstance(d, tuple) for d in path) and not _constant_value(value) and not _without_effects(value):
            raise ValueError("GNU array range designator `[lo ... hi] =` with a value that has side effects")
    d = path[0]
    if isinstance(d, (int, tuple)):
        head = d
    elif d.kind == K.MEMBER_REF:
        head = d.spelling or d.referenced  # (an anonymous struct/union member: its FIELD_DECL)
    else:
        head = evaluate(d)
        if not isinstance(head, int):
            raise ValueError("designator that is not a constant")
    return head, (Designated(path[1:], value, cursor) if len(path) > 1 else value)


def _constant_value(e) -> bool:
    """Whether initializer `e` is a constant, a string, or a braced list of such (a range repeats it)."""
    s = strip_implicit(e)
    if s.kind == K.INIT_LIST_EXPR:
        return all(_constant_value(c) for c in children(s))
    return s.kind == K.STRING_LITERAL or evaluate(s) is not None


_PURE_UNARY = ("+", "-", "~", "!")


def _without_effects(e) -> bool:
    """Whether scalar expression `e` reads only variables and computes (`elt`, `n + 1`): evaluating it once per
    element of a range gives what gcc's single evaluation gives."""
    s = strip_implicit(e)
    k = s.kind
    if k in (K.INTEGER_LITERAL, K.FLOATING_LITERAL, K.CHARACTER_LITERAL):
        return True
    if k == K.DECL_REF_EXPR:
        r = s.referenced
        return r is not None and (r.kind == K.FUNCTION_DECL or r.kind in (K.VAR_DECL, K.PARM_DECL) and
                                  not r.type.is_volatile_qualified())
    if k == K.UNARY_OPERATOR and unary_op(s) == "&":  # (an address: `[0 ... 2] = &handler`)
        return strip_implicit(children(s)[0]).kind == K.DECL_REF_EXPR
    if k == K.BINARY_OPERATOR:
        return "Assign" not in s.binary_operator.name and s.binary_operator.name != "Comma" and \
            all(_without_effects(c) for c in children(s))
    if k == K.UNARY_OPERATOR:
        return unary_op(s) in _PURE_UNARY and _without_effects(children(s)[0])
    if k == K.CSTYLE_CAST_EXPR:
        return _without_effects(children(s)[-1])
    return False


def array_position(items, pos, start, elided, i, des):
    """The element index the initializer `items[pos]` (designator `des`, from designator_of, or None) of an array
    initializes and the list with its designator consumed: (index, items); None when the item ends a sub-array
    whose braces are elided (a designator of the enclosing array). `i`: the next positional index. For a GNU
    range `[lo ... hi] = v`: (("range", lo, hi), [(index, the initializer of that element alone)]), each element
    to be filled from a list of its own (so that nothing after the range is taken for part of an element).

    Raises:
        CompileError: a field designator in an array initializer."""
    if des is None:
        return i, items
    if elided and not isinstance(items[pos], Designated) and pos > start:
        return None
    if isinstance(des[0], tuple):  # `[lo ... hi] = v`: `[lo] = v, ..., [hi] = v`
        _, lo, hi = des[0]
        if hi < lo:
            raise error_at(cursor_of(items[pos]), "empty index range in initializer")
        return des[0], [(k, des[1]) for k in range(lo, hi + 1)]
    if not isinstance(des[0], int):
        raise error_at(cursor_of(items[pos]), "unsupported construct: field designator in an array initializer")
    return des[0], items[:pos] + [des[1]] + items[pos + 1:]

def in_bounds(index: int, count: int, item) -> int:
    """`index` if an array of `count` elements has it; else a CompileError at initializer `item`."""
    if not 0 <= index < count:
        raise error_at(cursor_of(item), "unsupported construct: excess elements in an initializer")
    return index


class LLVMMemory:
    """Mixin for FunctionGen: raw-byte objects and !llvm.ptr pointers."""

    designated_init = False  # the brace initializer being stored uses designators (init_object)

    # ------------------------------------------------------------ small builders
    def i64_const(self, v):
        return llvm.ConstantOp(I64(), ir.IntegerAttr.get(I64(), int(v))).result

    def byte_alloca(self, size, align):
        """A stack object of `size` bytes at the function entry (so loops do not grow the stack)."""
        with ir.InsertionPoint.at_block_begin(self.entry), ir.Location.unknown():
            n = llvm.ConstantOp(I64(), ir.IntegerAttr.get(I64(), max(int(size), 1)))
            return llvm.AllocaOp(CT.llvm_ptr(), n.result, ir.IntegerType.get_signless(8), alignment=max(align, 1)).result

    def at_offset(self, ptr, offset):
        """`ptr` + constant or i64-value byte offset."""
        if isinstance(offset, int):
            return const_gep(ptr, offset)
        return self.gep_bytes(ptr, offset)

    @staticmethod
    def gep_bytes(ptr, offset):
        """`ptr` + i64 `offset` bytes: an i8 getelementptr without flags (LLVM keeps the pointer's provenance,
        so an alloca addressed this way can still become registers)."""
        op = ir.Operation.create("llvm.getelementptr", [CT.llvm_ptr()], [ptr, offset], {
            "rawConstantIndices": ir.DenseI32ArrayAttr.get([DYNAMIC_INDEX]),
            "elem_type": ir.TypeAttr.get(ir.IntegerType.get_signless(8))})
        return op.result

    def copy_bytes(self, dst, src, size):
        """An aggregate copy (memmove: `s = *p` may name the same object on both sides)."""
        if size > 0:
            llvm.MemmoveOp(dst, src, arith.constant(I64(), size), ir.BoolAttr.get(False))

    def zero_bytes(self, dst, size):
        if size > 0:
            llvm.MemsetOp(dst, arith.constant(ir.IntegerType.get_signless(8), 0), arith.constant(I64(), size),
                          ir.BoolAttr.get(False))

    def elem_size(self, ptr_ty):
        """Bytes one step of pointer type `ptr_ty` moves (GNU: void and functions count 1)."""
        pt = CT.pointee(ptr_ty)
        if pt.kind in (T.VOID, T.FUNCTIONPROTO, T.FUNCTIONNOPROTO):
            return 1
        if CT.size_of(pt) < 0:  # (a variable-length pointee has no static size: never step by clang's error code)
            raise CT.UnsupportedType("arithmetic on a pointer to a variable-length array kept as a raw pointer")
        return CT.size_of(pt)

    def as_i64(self, v, ty):
        if v.type == I64():
            return v
        return arith.extui(I64(), v) if CT.is_unsigned(ty) or v.type.width == 1 else arith.extsi(I64(), v)

    # ------------------------------------------------------------ byte objects
    def is_byte_var(self, e):
        """Whether DECL_REF_EXPR `e` names a variable kept as raw bytes (a local, or an LLVM global)."""
        r = e.referenced
        if r is None:
            return False
        if decl_key(r) in self.struct_vars:
            return True
        if is_variable_template_specialization(r):  # (module.global_var keeps each specialization as bytes)
            return True
        return r.kind == K.VAR_DECL and (decl_key(r.canonical) in self.mg.addressed_globals
                                         or R.is_byte_object(r.type) and CT.is_array(r.type))  # (volatile)

    def byte_local(self, d, ty, init):
        """Storage for a local struct/union/array-of-non-numeric variable, initialized as C says."""
        if ty.kind == T.VARIABLEARRAY and init is None:
            ptr = self.vla_bytes(d, ty)
            self.struct_vars[decl_key(d)] = ptr
            return ptr
        if ty.kind == T.INCOMPLETEARRAY or ty.kind == T.VARIABLEARRAY:
            raise self.unsupported(d, f"variable-length array of '{CT.array_shape(ty).elem.spelling}'")
        # (d.type: a typedef's `aligned(n)` is on the typedef, not on the canonical record)
        ptr = self.byte_alloca(CT.size_of(ty), max(ty.get_align(), d.type.get_align(),
                                                   self.local_aligns.get(decl_key(d), 1)))
        self.struct_vars[decl_key(d)] = ptr
        if init is not None:
            self.init_object(ptr, ty, init)
        return ptr

    def vla_bytes(self, d, ty):
        """Stack bytes, allocated where declared, for a variable-length array of pointers or structs whose only
        run-time dim is the outermost (`T *p[n]`, `struct s r[n][4]`); its size in bytes is kept for sizeof
        (self.vla_sizes).

        Raises:
            CompileError: an inner run-time dim, or no size expression."""
        from .values import size_expressions
        elem = canonical(ty.element_type)
        if CT.array_shape(elem).dims.count(None) or elem.kind == T.INCOMPLETEARRAY:
            raise self.unsupported(d, f"variable-length array of '{CT.array_shape(ty).elem.spelling}' with a "
                                      "run-time inner dimension")
        exprs = size_expressions(d)
        if not exprs:
            raise self.unsupported(d, "variable-length array without a size expression")
        n = self.rvalue(exprs[0])
        count = self.as_i64(n, exprs[0].type)
        nbytes = arith.muli(count, llvm.ConstantOp(I64(), ir.IntegerAttr.get(I64(), CT.size_of(elem))).result)
        ptr = llvm.AllocaOp(CT.llvm_ptr(), nbytes, ir.IntegerType.get_signless(8),
                            alignment=max(ty.get_align(), 1)).result
        if not hasattr(self, "vla_sizes_of"):
            self.vla_sizes_of = {}
        self.vla_sizes_of[decl_key(d)] = nbytes
        return ptr

    def init_object(self, ptr, ty, init):
        """Store initializer `init` into the object of type `ty` at `ptr` (a brace list zero-fills first; a
        reference member, `ty` a reference type, holds the address of the object `init` designates)."""
        ty = canonical(ty)
        if CT.is_reference(ty):
            llvm.StoreOp(self.reference_to(init, CT.unreferenced(ty)), ptr)
            return
        s = strip_implicit(init)
        if is_default_construction(init, ty):
            return
        if s.kind == K.CALL_EXPR and s.referenced is not None and s.referenced.kind == K.CONSTRUCTOR \
                and R.is_record(ty) and canonical(s.type) == ty:  # a C++ object: its constructor on these bytes
            self.construct(ptr, s)
            return
        if s.kind == K.INIT_LIST_EXPR and (R.is_record(ty) or CT.is_array(ty)):
            self.zero_bytes(ptr, CT.size_of(ty))
            items = children(s)
            # (with designators a braced sub-list may come after an initializer of the same subobject, which it
            # replaces whole: init_slot zeroes the subobject again first)
            outer, self.designated_init = self.designated_init, has_designator(s)
            try:
                pos = self.init_aggregate(ptr, ty, items, 0)
            finally:
                self.designated_init = outer
            if pos < len(items):
                raise self.unsupported(items[pos], "excess elements in an initializer")
            return
        if s.kind == K.INIT_LIST_EXPR and not CT.is_vector(ty):  # `int x = {3}` (a vector's list: its value)
            ch = children(s)
            if not ch:
                self.store_scalar(ptr, ty, self.zero(ty))
                return
            return self.init_object(ptr, ty, ch[0])
        if CT.is_array(ty):
            n = CT.size_of(ty)
            text = string_initializer(init, ty.element_count) if ty.kind == T.CONSTANTARRAY else None
            if text is None:
                raise self.unsupported(init, "array initializer")
            self.zero_bytes(ptr, n)
            esz = CT.size_of(ty.element_type)
            for i, b in enumerate(text[: ty.element_count]):
                self.store_scalar(self.at_offset(ptr, i * esz), canonical(ty.element_type),
                                  self.const_int(canonical(ty.element_type), b))
            return
        if R.is_record(ty):
            self.copy_bytes(ptr, self.record_value(init), CT.size_of(ty))
            return
        v = self.convert(self.rvalue(init), init.type, ty, init)
        self.store_scalar(ptr, ty, v)

    def store_scalar(self, ptr, ty, v):
        """Store scalar `v` of C type `ty` at !llvm.ptr `ptr` (volatile when `ty` is)."""
        if CT.is_vector(ty):  # (vectors.py: any alignment)
            vectors.store(ptr, ty, v)
            return
        if canonical(ty).kind == T.POINTER:
            v = self.to_ptr(v)
        vol = True if canonical(ty).is_volatile_qualified() else None
        if CT.is_complex(ty):  # (the two parts, real first)
            re, im = complex_values.parts(v)
            llvm.StoreOp(re, ptr, volatile_=vol)
            llvm.StoreOp(im, self.at_offset(ptr, CT.byte_width(re.type)), volatile_=vol)
            return
        llvm.StoreOp(v, ptr, volatile_=vol)

    def designator(self, item):
        """See `designator_of`; errors are CompileErrors at the item."""
        try:
            return designator_of(item)
        except ValueError as err:
            raise self.unsupported(cursor_of(item), str(err)) from None

    def init_aggregate(self, ptr, ty, items, pos, elided=False):
        """Fill aggregate `ty` at `ptr` from `items[pos:]` (brace elision consumes items for sub-aggregates);
        returns the position after the last item used. `elided`: `ty` has no braces of its own, so a
        designator in the list names a member of the enclosing braced object and ends this one."""
        start = pos
        if R.is_record(ty):
            fields = R.named_fields(ty)
            union = R.is_union(ty)
            i = 0
            # (a designator moves the position back, also after the last member: C11 6.7.9p17)
            while pos < len(items) and (i < len(fields) or self.designator(items[pos]) is not None):
                item = items[pos]
                des = self.designator(item)
                if des is not None and elided and not isinstance(item, Designated) and pos > start:
                    break
                if des is not None:
                    if des[0] is None or isinstance(des[0], int):
                        raise self.unsupported(cursor_of(item), "array designator in a struct initializer")
                    i = field_index(fields, des[0])
                    if i is None:
                        raise self.unsupported(cursor_of(item), f"designator '.{des[0]}'")
                    items = items[:pos] + [des[1]] + items[pos + 1:]
                pos = self.init_member(ptr, fields[i], items, pos)
                if union and not _same_member_next(items, pos, fields, i, self.designator):
                    break
                i += 1 if not union else 0
            return pos
        elem = canonical(ty.element_type)
        esz = CT.size_of(elem)
        i = 0
        while pos < len(items) and (i < ty.element_count or self.designator(items[pos]) is not None):
            at = array_position(items, pos, start, elided, i, self.designator(items[pos]))
            if at is None:
                break
            if isinstance(at[0], tuple):  # a GNU range: each element from its own copy of the initializer
                for k, one in at[1]:
                    self.init_slot(self.at_offset(ptr, in_bounds(k, ty.element_count, items[pos]) * esz), elem,
                                   [one], 0)
                i, pos = at[0][2] + 1, pos + 1
                continue
            i, items = at
            pos = self.init_slot(self.at_offset(ptr, i * esz), elem, items, pos)
            i += 1
        return pos

    def init_member(self, ptr, f, items, pos):
        off, bf = R.field_location(f)
        if bf is None:
            return self.init_slot(self.at_offset(ptr, off), canonical(f.type), items, pos)
        item = items[pos]
        if isinstance(item, Designated):
            raise self.unsupported(item.cursor, "designator inside a bit-field")
        v = self.convert(self.rvalue(item), item.type, f.type, item)
        self.store_bits(("bits", self.at_offset(ptr, off), canonical(f.type), bf), v)
        return pos + 1

    def init_slot(self, ptr, ty, items, pos):
        """One member or element: a brace list, a whole value of its type, or (brace elision) scalars."""
        item = items[pos]
        aggregate = R.is_record(ty) or CT.is_array(ty)
        if isinstance(item, Designated):  # `.a.b = v`: continues inside the sub-aggregate, as C says
            if not aggregate:
                raise self.unsupported(item.cursor, "designator into a scalar")
            return self.init_aggregate(ptr, ty, items, pos, elided=True)
        s = strip_implicit(item)
        if not aggregate or s.kind == K.INIT_LIST_EXPR:
            if s.kind == K.INIT_LIST_EXPR and aggregate:
                sub = children(s)
                if self.designated_init:
                    self.zero_bytes(ptr, CT.size_of(ty))
                used = self.init_aggregate(ptr, ty, sub, 0)
                if used < len(sub):
                    raise self.unsupported(sub[used], "excess elements in an initializer")
            else:
                self.init_object(ptr, ty, item)
            return pos + 1
        if R.is_record(ty) and R.is_record(item.type):
            self.copy_bytes(ptr, self.record_value(item), CT.size_of(ty))
            return pos + 1
        if CT.is_array(ty) and s.kind == K.STRING_LITERAL:
            self.init_object(ptr, ty, s)
            return pos + 1
        return self.init_aggregate(ptr, ty, items, pos, elided=True)

    # ------------------------------------------------------------ addresses and lvalues
    def address(self, e):
        """The !llvm.ptr address of lvalue expression `e` (of any type).

        Raises:
            CompileError: an expression with no address pgcc can form."""
        k = e.kind
        if k in (K.PAREN_EXPR,) or k == K.UNEXPOSED_EXPR and len(children(e)) == 1 and \
                canonical(children(e)[0].type) == canonical(e.type):
            return self.address(children(e)[0])
        if k == K.DECL_REF_EXPR:
            if decl_key(e.referenced) in self.struct_vars:
                return self.struct_vars[decl_key(e.referenced)]
            lv = self.lvalue(e)
            return self.lvalue_address(lv, e)
        if k == K.MEMBER_REF_EXPR:
            off, _ = self.member_offset(e)
            slot = self.at_offset(self.member_base(member_object(e)), off)
            if e.referenced is not None and e.referenced.kind == K.FIELD_DECL and CT.is_reference(e.referenced.type):
                return llvm.LoadOp(CT.llvm_ptr(), slot).result  # a reference member holds its object's address
            return slot
        if k == K.ARRAY_SUBSCRIPT_EXPR:
            base, idx = children(e)
            bt = canonical(base.type)
            if CT.is_int(bt):  # `i[a]`
                base, idx = idx, base
            p = self.to_ptr(self.pointer(base))
            n = self.as_i64(self.rvalue(idx), idx.type)
            return self.gep_bytes(p, arith.muli(n, arith.constant(I64(), CT.size_of(e.type))))
        if k == K.UNARY_OPERATOR and unary_op(e) == "*":
            return self.to_ptr(self.pointer(children(e)[0]))
        if k == K.COMPOUND_LITERAL_EXPR:
            return self.compound_literal(e)
        if k == K.UNARY_OPERATOR and unary_op(e) in ("__real", "__imag") and CT.is_complex(children(e)[0].type):
            # `&__imag__ z`: a part of a complex object in memory (the imaginary part follows the real one)
            part = CT.size_of(e.type)
            whole = self.address(children(e)[0])
            return self.gep_bytes(whole, arith.constant(I64(), part)) if unary_op(e) == "__imag" else whole
        if R.is_record(e.type):  # a call or assignment yielding a struct: its temporary
            return self.record_value(e)
        return self.lvalue_address(self.lvalue(e), e)

    def compound_literal(self, e):
        """`(T){...}`: a fresh object initialized from the list (its address)."""
        ty = canonical(e.type)
        if ty.kind in (T.INCOMPLETEARRAY, T.VARIABLEARRAY):
            raise self.unsupported(e, "compound literal of unknown size")
        ptr = self.byte_alloca(CT.size_of(ty), ty.get_align())
        init = [c for c in children(e) if c.kind.is_expression()][-1]
        self.init_object(ptr, ty, init)
        return ptr

    def expr_COMPOUND_LITERAL_EXPR(self, e):
        ty = canonical(e.type)
        if CT.is_vector(ty):  # `(__m128i){a, b}`: a value, no object
            return self.rvalue([c for c in children(e) if c.kind.is_expression()][-1])
        if R.is_record(ty):
            return self.compound_literal(e)
        if CT.is_array(ty):
            raise self.unsupported(e, "array compound literal used as a value")
        return self.load_llvm(self.compound_literal(e), ty)

    def lvalue_address(self, lv, e):
        if isinstance(lv, tuple) and lv[0] == "llvm":
            return lv[1]
        if isinstance(lv, MemLV):
            m = lv.memref
            if not lv.indices:
                return self.to_ptr(m)
            mt = ir.MemRefType(m.type)
            p = self.to_ptr(m)
            from mlir.dialects import memref as M
            meta = M.ExtractStridedMetadataOp(m)
            strides = list(meta.results[2 + mt.rank:2 + 2 * mt.rank])
            off = self.const_index(0)
            for i, s in zip(self.index_values(lv.indices), strides):
                off = arith.addi(off, arith.muli(i, s))
            nbytes = arith.muli(off, self.const_index(CT.byte_width(mt.element_type)))
            return self.gep_bytes(p, arith.index_cast(I64(), nbytes))
        raise self.unsupported(e, "address of this expression (a register variable)")

    def member_offset(self, e):
        """(byte offset, bit-field info) of member access `e` within the record its base designates."""
        base = member_object(e)
        bt = canonical(base.type) if base is not None else canonical(e.referenced.semantic_parent.type)
        if CT.is_array(bt):  # (`a->f`: a's first element)
            bt = canonical(bt.element_type)
        elif bt.kind == T.POINTER:
            bt = canonical(bt.get_pointee())
        return R.member_location(bt, e.referenced)

    def member_base(self, base):
        """Address of the record a MEMBER_REF_EXPR reads: `p->f` (pointer operand), `s.f` (record lvalue), or
        `f` inside a C++ method (`base` None: the implicit `this`)."""
        if base is None:
            return self.this_ptr
        if canonical(base.type).kind == T.POINTER or CT.is_array(canonical(base.type)):
            # (`x->f` of an array: its first element; a parameter `const mpz_t x`, gmp's one-element array
            # typedef, is libclang-typed as that array)
            return self.to_ptr(self.pointer(base))
        return self.address(base)

    def llvm_lvalue(self, e):
        """("llvm", address, type, None) lvalue of `e`, or a ("bits", ...) one for a bit-field member."""
        if e.kind == K.MEMBER_REF_EXPR:
            off, bf = self.member_offset(e)
            if bf is not None:
                return ("bits", self.at_offset(self.member_base(member_object(e)), off), canonical(e.type), bf)
        return ("llvm", self.address(e), canonical(e.type), None)

    def member_lvalue(self, e):
        try:
            return self.llvm_lvalue(e)
        except CT.UnsupportedType as err:
            raise self.unsupported(e, str(err)) from None

    def record_value(self, e):
        """The address of the bytes of a struct/union-valued expression (an object or a temporary)."""
        v = self.rvalue(e)
        if v is None or v.type != CT.llvm_ptr():
            raise self.unsupported(e, f"value of type '{e.type.spelling}'")
        return v

    # ------------------------------------------------------------ loads and stores through raw pointers
    def load_llvm(self, p, ety):
        """Load a value of C type `ety` at !llvm.ptr `p` (aggregates: their address is their value)."""
        ety = canonical(ety)
        if R.is_record(ety) or CT.is_array(ety):
            return p
        if CT.is_vector(ety):  # (vectors.py: any alignment)
            return vectors.load(p, ety)
        vol = True if ety.is_volatile_qualified() else None
        if ety.kind == T.POINTER:
            v = llvm.LoadOp(CT.llvm_ptr(), p, volatile_=vol).result
            return self.from_ptr(v, ety, None, None) if CT.pointee_is_memref(ety) else v
        if CT.is_complex(ety):  # (LLVM memory holds floats: the two parts, real first)
            t = CT.scalar_type(complex_values.part_ctype(ety))
            return complex_values.make(llvm.LoadOp(t, p, volatile_=vol).result,
                                       llvm.LoadOp(t, self.at_offset(p, CT.byte_width(t)), volatile_=vol).result)
        return llvm.LoadOp(CT.scalar_type(ety), p, volatile_=vol).result

    def store_llvm(self, p, ety, v):
        ety = canonical(ety)
        if R.is_record(ety):
            self.copy_bytes(p, v, CT.size_of(ety))
            return
        self.store_scalar(p, ety, v)

    def load_bits(self, lv):
        _, p, ety, bf = lv
        ut = ir.IntegerType.get_signless(bf.unit_bits)
        u = llvm.LoadOp(ut, p).result
        left = bf.unit_bits - bf.shift - bf.width
        if left:
            u = arith.shli(u, arith.constant(ut, left))
        right = bf.unit_bits - bf.width
        if right:
            u = (arith.shrsi if bf.signed else arith.shrui)(u, arith.constant(ut, right))
        rt = CT.scalar_type(ety)
        if rt.width < bf.unit_bits:
            u = arith.trunci(rt, u)
        elif rt.width > bf.unit_bits:
            u = (arith.extsi if bf.signed else arith.extui)(rt, u)
        return u

    def store_bits(self, lv, v):
        """Read-modify-write of a bit-field's storage unit; returns the value the field now holds."""
        _, p, ety, bf = lv
        ut = ir.IntegerType.get_signless(bf.unit_bits)
        if v.type != ut:
            v = arith.extui(ut, v) if v.type.width < bf.unit_bits else arith.trunci(ut, v)
        mask = ((1 << bf.width) - 1) << bf.shift
        old = llvm.LoadOp(ut, p).result
        keep = arith.andi(old, unit_constant(ut, ~mask))
        new = arith.andi(arith.shli(v, arith.constant(ut, bf.shift)), unit_constant(ut, mask))
        llvm.StoreOp(arith.ori(keep, new), p)
        return self.load_bits(lv)

    # ------------------------------------------------------------ raw pointer arithmetic
    def raw_offset(self, p, count, ptr_ty):
        """Raw pointer `p` moved by `count` (index or i64) elements of `ptr_ty`'s pointee."""
        if count.type == ir.IndexType.get():
            count = arith.index_cast(I64(), count)
        return self.gep_bytes(p, arith.muli(count, arith.constant(I64(), self.elem_size(ptr_ty))))

    def pointer_difference(self, e, a, b):
        """`a - b` on pointers: the byte distance divided by the element size (a ptrdiff_t)."""
        va = self.pointer(a)
        pa, pb = self.to_ptr(va), self.to_ptr(self.pointer(b))
        d = arith.subi(llvm.PtrToIntOp(I64(), pa).result, llvm.PtrToIntOp(I64(), pb).result)
        if CT.pointee(canonical(a.type)).kind == T.VARIABLEARRAY:  # rows of a VLA: their size is known at run time
            d = arith.divsi(d, arith.index_cast(I64(), self.row_bytes(va, a)))
        elif (size := self.elem_size(canonical(a.type))) != 1:
            d = arith.divsi(d, arith.constant(I64(), size))
        rt = CT.scalar_type(e.type)
        return d if rt == I64() else arith.trunci(rt, d)

    def row_bytes(self, p, e):
        """Bytes of one row that pointer `p` (the memref of expression `e`, a pointer to variable-length rows:
        its first dim counts rows) steps over: the element's size times the other dims, an index Value."""
        from mlir.dialects import memref as M
        if not isinstance(p.type, ir.MemRefType):
            raise self.unsupported(e, "pointer to a variable-length array kept as a raw pointer")
        n = arith.constant(ir.IndexType.get(), CT.size_of(CT.array_shape(CT.pointee(canonical(e.type))).elem))
        for k in range(1, ir.MemRefType(p.type).rank):
            n = arith.muli(n, M.DimOp(p, arith.constant(ir.IndexType.get(), k)).result)
        return n

    def pointer_order(self, op, va, vb):
        pa, pb = llvm.PtrToIntOp(I64(), self.to_ptr(va)).result, llvm.PtrToIntOp(I64(), self.to_ptr(vb)).result
        pred = {"LT": "ult", "GT": "ugt", "LE": "ule", "GE": "uge", "EQ": "eq", "NE": "ne"}[op]
        return arith.cmpi(getattr(arith.CmpIPredicate, pred), pa, pb)

    # ------------------------------------------------------------ functions as values
    def function_address(self, decl, e):
        """!llvm.ptr to function `decl` (see function_pointer)."""
        return function_pointer(self.mg, decl)

    def function_decl_of(self, e):
        """The FUNCTION_DECL an expression of function type names (`f`, `&f`, `*f`), else None."""
        s = strip_implicit(e)
        while s.kind == K.UNARY_OPERATOR and unary_op(s) in ("&", "*") or s.kind == K.PAREN_EXPR:
            s = strip_implicit(children(s)[0])
        if s.kind == K.DECL_REF_EXPR and s.referenced is not None and s.referenced.kind == K.FUNCTION_DECL:
            return s.referenced
        return None

    # ------------------------------------------------------------ aggregates at calls
    def pack_args(self, sig, args, call, byval=None):
        """MLIR arguments for C arguments `args` under lowered signature `sig`. In the variadic tail a struct or
        union goes where a named argument would (System V x86-64, 3.5.7: that is where va_arg looks for it):
        in registers as its eightbytes, or in memory as a `byval` copy, whose argument attributes are added to
        dict `byval` (position -> attributes; None: the call cannot carry them, an error)."""
        out = []
        ints, sses = sig.free_registers
        for i, a in enumerate(args):
            if i < len(sig.params):
                p = sig.params[i]
                if p.kind == "scalar":
                    if CT.is_reference(p.ctype):  # C++ `T &`: the address of the argument (cxx)
                        out.append(self.reference_to(a, CT.unreferenced(p.ctype)))
                    elif p.ctype.kind == T.POINTER or CT.is_array(p.ctype):
                        out.append(self.raw_pointer(a))
                    elif CT.is_complex(p.ctype):  # (float _Complex: a vector<2xf32>)
                        out.append(complex_values.to_abi(self.convert(self.rvalue(a), a.type, p.ctype, a), p.ctype))
                    else:
                        out.append(self.convert(self.rvalue(a), a.type, p.ctype, a))
                elif p.kind == "expand":
                    out += self.record_pieces(self.record_value(a), p.ctype, p.classes)
                elif CT.is_complex(p.ctype):  # (a double _Complex in memory: records.signature)
                    tmp = self.byte_alloca(CT.size_of(p.ctype), 16)
                    self.store_scalar(tmp, p.ctype, self.convert(self.rvalue(a), a.type, p.ctype, a))
                    out.append(tmp)
                else:  # byval: LLVM copies the bytes into the argument area
                    out.append(self.record_value(a))
                continue
            at = canonical(a.type)
            if at.kind == T.POINTER or CT.is_array(at) or at.kind == T.FUNCTIONPROTO:
                out.append(self.raw_pointer(a))
                ints = max(ints - 1, 0)
            elif CT.is_arith(at):
                out.append(self.rvalue(a))
                if CT.is_float(at) and at.kind != T.LONGDOUBLE:
                    sses = max(sses - 1, 0)
                elif at.kind != T.LONGDOUBLE:  # (an __int128 takes two registers or none)
                    need = 2 if CT.size_of(at) == 16 else 1
                    ints = ints - need if need <= ints else ints
            elif at.kind == T.RECORD and CT.size_of(at) == 0:
                self.record_value(a)  # (evaluated; a struct of size 0 is no argument: gcc passes nothing for it)
            elif at.kind == T.RECORD or CT.is_complex(at):
                if CT.is_complex(at):  # (in the variadic tail, a struct of its two parts: its bytes, as a record's)
                    tmp = self.byte_alloca(CT.size_of(at), 16)  # (32 bytes for a long double _Complex)
                    self.store_scalar(tmp, at, self.rvalue(a))
                    record = tmp
                else:
                    record = None
                try:
                    classes = R.classify(at, named=False)
                except CT.UnsupportedType as err:
                    raise self.unsupported(a, str(err)) from None
                ni, ns = R.register_counts(classes) if classes else (0, 0)
                if classes is not None and ni <= ints and ns <= sses:
                    out += self.record_pieces(record if record is not None else self.record_value(a), at, classes)
                    ints, sses = ints - ni, sses - ns
                elif byval is not None:  # in memory: a copy in the argument area, as for a named argument
                    byval[len(out)] = {"llvm.byval": ir.TypeAttr.get(R.bytes_type(at)), "llvm.align":
                                       ir.IntegerAttr.get(ir.IntegerType.get_signless(64), max(at.get_align(), 8))}
                    out.append(record if record is not None else self.record_value(a))
                else:
                    raise self.unsupported(a, f"passing a '{a.type.spelling}' in memory to a variadic function "
                                              "called through a pointer")
            else:
                raise self.unsupported(a, f"passing a '{a.type.spelling}' to a variadic function")
        return out

    def record_pieces(self, p, ty, classes):
        """The eightbytes of the record at `p` as register values (through a 16-byte temporary, so reading a
        partial last eightbyte stays inside an object)."""
        tmp = self.byte_alloca(max(16, CT.size_of(ty)), 16)
        self.copy_bytes(tmp, p, CT.size_of(ty))
        return [llvm.LoadOp(R.piece_type(c), self.at_offset(tmp, 8 * i)).result for i, c in enumerate(classes)]

    def pieces_to_memory(self, pieces, ty):
        """Store register pieces of a record into a fresh temporary; returns its address."""
        tmp = self.byte_alloca(max(16, CT.size_of(ty)), max(16, ty.get_align()))
        for i, v in enumerate(pieces):
            llvm.StoreOp(v, self.at_offset(tmp, 8 * i))
        return tmp

    def coerced_result(self, p, sig):
        """The register value(s) returning the record at `p` (an LLVM struct of pieces when two)."""
        pieces = self.record_pieces(p, sig.ret_ctype, sig.ret_classes)
        if len(pieces) == 1:
            return pieces[0]
        st = R.coerced_type(sig.ret_classes)
        s = llvm.UndefOp(st).result
        for i, v in enumerate(pieces):
            s = llvm.InsertValueOp(s, v, [i]).result
        return s

    def call_lowered(self, sig, args, call, emit, byval=None):
        """Emit a call under `sig`: `emit(mlir_args, result_types)` makes the op; returns the C result (for a
        record: the address of a temporary holding it). `byval`: see pack_args."""
        vals = self.pack_args(sig, args, call, byval)
        if sig.ret_kind == "sret":
            tmp = self.byte_alloca(CT.size_of(sig.ret_ctype), max(8, sig.ret_ctype.get_align()))
            emit([tmp] + vals, list(sig.ftype.results))
            return tmp
        res = emit(vals, list(sig.ftype.results))
        if sig.ret_kind == "void":
            return None
        if sig.ret_kind == "coerced":
            if len(sig.ret_classes) == 1:
                return self.pieces_to_memory([res], sig.ret_ctype)
            pieces = [llvm.ExtractValueOp(R.piece_type(c), res, [i]).result for i, c in enumerate(sig.ret_classes)]
            return self.pieces_to_memory(pieces, sig.ret_ctype)
        rt = sig.ret_ctype
        if rt.kind == T.POINTER and CT.pointee_is_memref(rt):
            return self.from_ptr(res, rt, None, call)
        if CT.is_complex(rt):
            return complex_values.from_abi(res, rt)
        return res

    def indirect_call(self, call, callee_expr, args):
        """A call through a function pointer: llvm.call on the pointer, with the C ABI of its prototype."""
        ft = canonical(callee_expr.type)
        if ft.kind == T.POINTER:
            ft = canonical(ft.get_pointee())
        # without a prototype (`double (*f)()`): the arguments as promoted (clang's AST holds them), as gcc calls;
        # records cross as the ABI passes them (byval/sret on the call site), as for a prototyped call
        params = list(ft.argument_types()) if ft.kind == T.FUNCTIONPROTO else [a.type for a in args]
        try:
            sig = R.signature(params, ft.get_result(), ft.kind == T.FUNCTIONPROTO and ft.is_function_variadic())
        except CT.UnsupportedType as err:
            raise self.unsupported(call, str(err)) from None
        fp = self.to_ptr(self.pointer(callee_expr))

        def emit(vals, results):
            # (a double _Complex is an LLVM struct of two doubles in llvm.call, as the func lowering makes it)
            vals = [complex_values.to_llvm(v) for v in vals]
            c_results, results = results, [complex_values.llvm_type(t) for t in results]
            ins = [v.type for v in vals][: len(sig.ftype.inputs)] if sig.variadic else \
                [complex_values.llvm_type(t) for t in sig.ftype.inputs]
            rt = results[0] if results else ir.Type.parse("!llvm.void")
            dots = ", ..." if sig.variadic else ""
            fty = ir.Type.parse(f"!llvm.func<{rt} ({', '.join(str(t) for t in ins)}{dots})>")
            op = llvm.CallOp(results[0] if results else None, [fp] + vals, [], [], var_callee_type=ir.TypeAttr.get(fty)
                             if sig.variadic else None)
            if any(sig.arg_attrs):  # byval/sret must be on the call site of an indirect call
                attrs = sig.arg_attrs + [{}] * (len(vals) - len(sig.arg_attrs))
                op.attributes["arg_attrs"] = ir.ArrayAttr.get([ir.DictAttr.get(a) for a in attrs])
            return complex_values.from_llvm(op.result, c_results[0]) if results else None

        return self.call_lowered(sig, args, call, emit)


def unit_constant(ut, v):
    """arith.constant of integer type `ut` (a bit-field's storage unit, which is wider than 64 bits when a
    packed record's field straddles eight bytes) holding the low bits of Python int `v`."""
    w = ir.IntegerType(ut).width
    v &= (1 << w) - 1
    v = v - (1 << w) if v >> (w - 1) else v
    return arith.ConstantOp(ut, ir.IntegerAttr.parse(f"{v} : {ut}")).result


def member_object(e):
    """The object expression of MEMBER_REF_EXPR `e` (`s` of `s.f`, `p` of `p->f`); None for a member named
    inside a C++ method without `this->` (libclang shows no implicit `this`); a qualifier (`Base::f()`, a
    TYPE_REF or TEMPLATE_REF child) is not the object."""
    return next((c for c in children(e) if c.kind.is_expression()), None)


# ---------------------------------------------------------------- globals kept as raw bytes


def function_pointer(mg, decl):
    """!llvm.ptr to function `decl`, at the insertion point: func.constant, then the cast that lowering to LLVM
    cancels; a variadic function (an llvm.func: frontend/varargs.py) by llvm.mlir.addressof."""
    sig = mg.signature(decl)
    if sig.variadic and not sig.has_records:
        ret = list(sig.ftype.results)
        mg.declare_llvm_vararg(decl.spelling, ret[0] if ret else ir.Type.parse("!llvm.void"), list(sig.ftype.inputs))
        return llvm.AddressOfOp(CT.llvm_ptr(), decl.spelling).result
    if decl.spelling in mg.llvm_decls and decl.spelling not in mg.functions:
        # (a function called before without a prototype: already an llvm.func `(...)`, calls.unprototyped_call)
        return llvm.AddressOfOp(CT.llvm_ptr(), decl.spelling).result
    name = mg.declare(decl)
    ftype = ir.FunctionType(ir.TypeAttr(mg.functions[name].attributes["function_type"]).value)
    f = func.ConstantOp(ftype, ir.FlatSymbolRefAttr.get(name)).result
    return ir.Operation.create("builtin.unrealized_conversion_cast", [CT.llvm_ptr()], [f]).result


def unbraced_string(s, ty):
    """The string literal of `{"text"}` initializing a character array `ty` (C11 6.7.9p14 allows the braces),
    else `s` itself."""
    if s.kind == K.INIT_LIST_EXPR and CT.is_array(ty):
        items = children(s)
        if len(items) == 1 and strip_implicit(items[0]).kind == K.STRING_LITERAL:
            return strip_implicit(items[0])
    return s


def const_image(ty, init):
    """The initial bytes of a global of type `ty` from constant initializer `init`: (bytearray, [(offset,
    cursor)]) where each cursor is a pointer-valued initializer (a string, `&x`, a function) to place at offset.

    Raises:
        CompileError: an initializer that is not a constant."""
    img = bytearray(max(CT.size_of(ty), 1))
    ptrs = {}  # offset -> cursor: an initializer given later for the same element overrides (C11 6.7.9p19)

    def put_scalar(off, t, e):
        t = canonical(t)
        if CT.is_vector(t):  # `{1, 2, 3, 4}` (also as `(v4si){...}`): its constant elements
            items, elem = vectors.constant_elements(e)
            for k, item in enumerate(items):
                put_scalar(off + k * CT.size_of(elem), elem, item)
            return
        if t.kind == T.POINTER:
            e = constant_branch(e)
            if is_null_constant(e):
                ptrs.pop(off, None)
                return
            ptrs[off] = e
            return
        if CT.is_complex(t):  # (the two parts, real first)
            v = complex_values.constant(e)
            pt = complex_values.part_ctype(t)
            write(off, pt, v.real)
            write(off + CT.size_of(pt), pt, v.imag)
            return
        if t.kind == T.LONGDOUBLE:  # (clang evaluates in double: exact, x87.exact_constant)
            write(off, t, x87.exact_constant(e, evaluate, error_at))
            return
        if not (CT.is_int(t) or CT.is_float(t) or canonical(t).kind in (T.POINTER, T.ENUM)):
            # (_Float16, __bf16...: `int(v)` would truncate 1.5 to 1, and a NaN stopped pgcc)
            raise error_at(e, f"unsupported construct: type '{t.spelling}'")
        v = evaluate(e)
        if not isinstance(v, (int, float)):
            raise error_at(e, "unsupported construct: non-constant initializer of a global")
        write(off, t, v)

    def write(off, t, v):
        n = CT.size_of(t)
        if canonical(t).kind == T.LONGDOUBLE:  # (the 80-bit x87 value in its 16-byte slot)
            img[off:off + 10] = x87.value_bits(v).to_bytes(10, "little")
        elif CT.is_float(t):
            img[off:off + n] = CT.float_bytes(v, n)
        else:
            img[off:off + n] = (int(v) & ((1 << (8 * n)) - 1)).to_bytes(n, "little")

    def put_bits(off, f, bf, e):
        v = evaluate(e)
        if not isinstance(v, int):
            raise error_at(e, "unsupported construct: non-constant initializer of a global")
        n = bf.unit_bits // 8
        u = int.from_bytes(img[off:off + n], "little")
        mask = ((1 << bf.width) - 1) << bf.shift
        u = (u & ~mask) | ((v << bf.shift) & mask)
        img[off:off + n] = u.to_bytes(n, "little")

    def clear(off, n):
        """A braced list or a string gives all of its subobject: what an earlier initializer put there goes."""
        img[off:off + n] = bytes(n)
        for k in [k for k in ptrs if off <= k < off + n]:
            del ptrs[k]

    def flexible(off, t, e):
        """A flexible array member's initializer (gcc's extension for static objects): the object grows by
        the elements given."""
        elem = canonical(t.element_type)
        s = strip_implicit(e)
        if s.kind == K.STRING_LITERAL:
            data = string_literal(s).encode("latin-1") + bytes(CT.size_of(elem))
            img.extend(bytes(max(0, off + len(data) - len(img))))
            img[off:off + len(data)] = data
            return
        if s.kind != K.INIT_LIST_EXPR:
            raise error_at(e, "unsupported construct: initializer of a flexible array member")
        items, pos, k = children(s), 0, 0
        while pos < len(items):
            if designated(items[pos]) is not None:
                raise error_at(items[pos], "unsupported construct: designator in a flexible array member's "
                                           "initializer")
            img.extend(bytes(max(0, off + (k + 1) * CT.size_of(elem) - len(img))))
            pos = slot(off + k * CT.size_of(elem), elem, items, pos)
            k += 1

    def obj(off, t, e):
        t = canonical(t)
        if t.kind == T.INCOMPLETEARRAY:
            return flexible(off, t, e)
        e = literal_list(e, t)
        s = unbraced_string(strip_implicit(e), t)
        if s.kind in (K.INIT_LIST_EXPR, K.STRING_LITERAL) and (R.is_record(t) or CT.is_array(t)):
            clear(off, CT.size_of(t))
        if s.kind == K.INIT_LIST_EXPR and (R.is_record(t) or CT.is_array(t)):
            items = children(s)
            used = agg(off, t, items, 0)
            if used < len(items):
                raise error_at(items[used], "unsupported construct: excess elements in an initializer")
        elif s.kind == K.INIT_LIST_EXPR and not CT.is_vector(t):  # (a vector's list: put_scalar)
            if children(s):
                obj(off, t, children(s)[0])
        elif CT.is_array(t) and s.kind == K.STRING_LITERAL:
            text = string_literal(s).encode("latin-1")[: t.element_count * CT.size_of(t.element_type)]
            img[off:off + len(text)] = text
        elif is_default_construction(s, t):  # `__device__ float2 v[4];`: C++'s trivial construction, zero bytes
            return
        elif R.is_record(t) or CT.is_array(t):
            raise error_at(e, "unsupported construct: non-constant initializer of a global")
        else:
            put_scalar(off, t, e)

    def designated(item):
        try:
            return designator_of(item)
        except ValueError as err:
            raise error_at(item.cursor if isinstance(item, Designated) else item,
                           f"unsupported construct: {err}") from None

    def agg(off, t, items, pos, elided=False):
        start = pos
        if R.is_record(t):
            fields = R.named_fields(t)
            i = 0
            while pos < len(items) and (i < len(fields) or designated(items[pos]) is not None):
                des = designated(items[pos])
                if des is not None and elided and not isinstance(items[pos], Designated) and pos > start:
                    break
                if des is not None:
                    i = field_index(fields, des[0])
                    if i is None:
                        raise error_at(items[pos], "unsupported construct: designator")
                    items = items[:pos] + [des[1]] + items[pos + 1:]
                f = fields[i]
                foff, bf = R.field_location(f)
                if bf is not None:
                    if isinstance(items[pos], Designated):
                        raise error_at(items[pos].cursor, "unsupported construct: designator inside a bit-field")
                    put_bits(off + foff, f, bf, items[pos])
                    pos += 1
                else:
                    pos = slot(off + foff, f.type, items, pos)
                if R.is_union(t) and not _same_member_next(items, pos, fields, i, designated):
                    break
                i += 1 if not R.is_union(t) else 0
            return pos
        elem = canonical(t.element_type)
        esz = CT.size_of(elem)
        i = 0
        while pos < len(items) and (i < t.element_count or designated(items[pos]) is not None):
            at = array_position(items, pos, start, elided, i, designated(items[pos]))
            if at is None:
                break
            if isinstance(at[0], tuple):  # a GNU range: each element from its own copy of the initializer
                for k, one in at[1]:
                    slot(off + in_bounds(k, t.element_count, items[pos]) * esz, elem, [one], 0)
                i, pos = at[0][2] + 1, pos + 1
                continue
            i, items = at
            pos = slot(off + i * esz, elem, items, pos)
            i += 1
        return pos

    def slot(off, t, items, pos):
        t = canonical(t)
        if t.kind == T.INCOMPLETEARRAY and not isinstance(items[pos], Designated):
            flexible(off, t, items[pos])
            return pos + 1
        aggregate = R.is_record(t) or CT.is_array(t)
        if isinstance(items[pos], Designated):
            if not aggregate:
                raise error_at(items[pos].cursor, "unsupported construct: designator into a scalar")
            return agg(off, t, items, pos, elided=True)
        s = strip_implicit(literal_list(items[pos], t))
        if not aggregate or s.kind == K.INIT_LIST_EXPR or (CT.is_array(t) and s.kind == K.STRING_LITERAL):
            obj(off, t, items[pos])
            return pos + 1
        return agg(off, t, items, pos, elided=True)

    if init is not None:
        obj(0, ty, init)
    return img, sorted(ptrs.items(), key=lambda x: x[0])


def _same_member_next(items, pos, fields, i, designator) -> bool:
    """Whether `items[pos]` designates union member `fields[i]` again: `{.x = 1, .y = 2}` where x and y are
    members of an anonymous struct that is the union's member i (`union { struct { float x, y; }; float v[2]; }`)."""
    if pos >= len(items):
        return False
    des = designator(items[pos])
    return des is not None and not isinstance(des[0], int) and des[0] is not None and \
        field_index(fields, des[0]) == i


def literal_list(e, t):
    """The braced list of compound literal `e` when it has record type `t` (canonical), else `e`: gcc accepts
    `(struct S){...}` as (part of) the initializer of a static object, an extension meaning the list itself."""
    s = strip_implicit(e) if not isinstance(e, Designated) else None
    if s is not None and s.kind == K.COMPOUND_LITERAL_EXPR and R.is_record(t) and \
            canonical(s.type).get_declaration() == t.get_declaration():  # (whatever its qualifiers)
        lists = [c for c in children(s) if c.kind == K.INIT_LIST_EXPR]
        if lists:
            return lists[0]
    return e


def byte_global(mg, d, key, name, init, is_def, external):
    """A global struct/union/array-of-non-numeric as an LLVM global of bytes (an !llvm.array<N x i8>, or a
    packed struct of byte runs and pointers when the initializer holds addresses).

    Returns the MemVar (a raw global: uses take its address with llvm.mlir.addressof)."""
    ty = canonical(d.type)
    if ty.kind == T.INCOMPLETEARRAY and not external:
        raise error_at(d, "unsupported construct: global array of unknown size")
    if ty.kind == T.INCOMPLETEARRAY and name not in mg.llvm_decls:
        # `extern T a[];` defined in another file: a declaration of unknown size, `[0 x i8]` as clang emits it
        # (LLVM assumes no size for it, so no access is taken for out of bounds)
        with ir.Location.file(mg.filename, d.location.line, d.location.column), \
                ir.InsertionPoint.at_block_begin(mg.module.body):
            llvm.GlobalOp(ir.Type.parse("!llvm.array<0 x i8>"), name,
                          ir.Attribute.parse("#llvm.linkage<external>"), alignment=ty.get_align())
        mg.llvm_decls.add(name)
    mv = MemVar(None, ty, global_name=name)
    mg.globals[key] = mv  # (before the initializer, which may take the variable's own address: `p = { &p }`)
    if name not in mg.llvm_decls:
        img, ptrs = const_image(ty, init) if is_def else (bytearray(max(CT.size_of(ty), 1)), [])
        static = d.storage_class == d.storage_class.STATIC and d.semantic_parent.kind not in (
            K.STRUCT_DECL, K.CLASS_DECL) or d.semantic_parent.kind == K.FUNCTION_DECL  # (C++ static members: external)
        align = max(ty.get_align(), d.type.get_align(), attributes.declaration_attributes(d, "global").align or 1)
        emit_byte_global(mg, name, ty, img, ptrs, static, external, d, align=align, thread_local=is_thread_local(d),
                         weak=attributes.is_weak_variable(d), common=attributes.is_common_variable(d))
        mg.llvm_decls.add(name)
    return mv


def is_thread_local(d) -> bool:
    """Whether VAR_DECL `d` is `_Thread_local`/`__thread` (each thread has its own: an LLVM thread-local global)."""
    return d.tls_kind.name != "NONE"


def emit_byte_global(mg, name, ty, img, ptrs, internal, external, where, align=None, thread_local=False,
                     weak=False, common=False):
    """Emit `llvm.mlir.global @name` for an object of C type `ty` with initial bytes `img` (bytearray) and
    pointer-valued initializers `ptrs` ([(byte offset, cursor)]): an array of bytes, or a packed struct of
    byte runs and pointers. `external`: a declaration (no initial value). `where`: cursor for the location.
    `align`: bytes (default: the type's); `thread_local`: one object per thread; `weak`: `__attribute__((weak))`
    (a definition another file's may replace; a declaration whose address is null when nothing defines it);
    `common`: a common symbol (-fcommon's tentative definition, zero bytes, merged with other files' by the
    linker)."""
    align = align or ty.get_align()
    tls = True if thread_local else None
    kind = "internal" if internal else ("extern_weak" if external else "weak") if weak else "external"
    if common and not (internal or external or weak or thread_local):
        kind = "common"
    linkage = ir.Attribute.parse(f"#llvm.linkage<{kind}>")
    loc = ir.Location.file(mg.filename, where.location.line, where.location.column)
    with loc, ir.InsertionPoint.at_block_begin(mg.module.body):
        if external:
            llvm.GlobalOp(ir.Type.parse(f"!llvm.array<{len(img)} x i8>"), name, linkage,
                          alignment=align, thread_local_=tls)
        elif not ptrs:
            llvm.GlobalOp(ir.Type.parse(f"!llvm.array<{len(img)} x i8>"), name, linkage,
                          value=byte_dense(img), alignment=align, thread_local_=tls)
        else:
            ptrs.sort(key=lambda x: x[0])
            parts, pos = [], 0
            for off, _ in ptrs:
                if off > pos:
                    parts.append(("bytes", pos, off))
                parts.append(("ptr", off, None))
                pos = off + 8
            if pos < len(img):
                parts.append(("bytes", pos, len(img)))
            fields = [f"!llvm.array<{b - a} x i8>" if k == "bytes" else "!llvm.ptr" for k, a, b in parts]
            st = ir.Type.parse(f"!llvm.struct<packed ({', '.join(fields)})>")
            g = llvm.GlobalOp(st, name, linkage, alignment=align, thread_local_=tls)
            with ir.InsertionPoint(g.initializer.blocks.append()):
                v = llvm.UndefOp(st).result
                targets = dict(ptrs)
                for i, (k, a, b) in enumerate(parts):
                    if k == "bytes":
                        at = ir.Type.parse(f"!llvm.array<{b - a} x i8>")
                        c = llvm.ConstantOp(at, byte_dense(img[a:b])).result
                    else:
                        c = global_address(mg, targets[a])
                    v = llvm.InsertValueOp(v, c, [i]).result
                llvm.ReturnOp(arg=v)


def is_null_constant(e) -> bool:
    """`0`, `NULL`, `(void*)0` and casts of them."""
    s = strip_implicit(e)
    while s.kind in (K.CSTYLE_CAST_EXPR, K.PAREN_EXPR) and children(s):
        s = strip_implicit(children(s)[-1])
    if s.kind in (K.GNU_NULL_EXPR, K.CXX_NULL_PTR_LITERAL_EXPR):
        return True
    return CT.is_int(s.type) and evaluate(s) == 0


def byte_dense(data):
    """dense<...> : tensor<Nxi8> holding `data` (a StringAttr would re-encode bytes >= 0x80 as UTF-8)."""
    import numpy as np
    return ir.DenseElementsAttr.get(np.frombuffer(bytes(data), dtype=np.int8).copy(),
                                    type=ir.IntegerType.get_signless(8))


def global_address(mg, e):
    """A constant address in a global initializer: a string literal, `&lvalue` of a global, a global array
    (decayed), a function.

    Raises:
        CompileError: any other pointer initializer."""
    s = strip_implicit(constant_branch(e))
    while s.kind == K.CSTYLE_CAST_EXPR:
        s = strip_implicit(children(s)[-1])
    if s.kind == K.STRING_LITERAL:
        return mg.literal(s)
    if s.kind == K.UNARY_OPERATOR and unary_op(s) == "&":
        return constant_lvalue_address(mg, strip_implicit(children(s)[0]), e)
    if s.kind == K.COMPOUND_LITERAL_EXPR:  # `(int[]){2, 3, 5}` at file scope: an unnamed static object
        return compound_literal_global(mg, s)
    if s.kind == K.BINARY_OPERATOR and s.binary_operator.name in ("Add", "Sub"):
        a, b = children(s)
        n = evaluate(b)
        if canonical(a.type).kind == T.POINTER and isinstance(n, int):
            step = CT.size_of(CT.pointee(a.type)) * (n if s.binary_operator.name == "Add" else -n)
            return const_gep(global_address(mg, a), step)
    if CT.is_int(s.type):  # `(char *)-1`, `(void *)0x1000`: an address given as a number
        n = evaluate(s)
        if isinstance(n, int):
            value = llvm.ConstantOp(I64(), ir.IntegerAttr.get(I64(), (n + (1 << 63)) % (1 << 64) - (1 << 63)))
            return llvm.IntToPtrOp(CT.llvm_ptr(), value.result).result
    return constant_lvalue_address(mg, s, e)


def constant_branch(e):
    """`c ? a : b` with a constant condition (`HAS_FEATURE ? test_f : NULL` in a static table) -> the chosen
    operand, repeatedly; any other expression as it is."""
    s = strip_implicit(e)
    while s.kind == K.CONDITIONAL_OPERATOR:
        cond, a, b = children(s)
        c = evaluate(cond)
        if not isinstance(c, (int, float)):
            break
        e = a if c else b
        s = strip_implicit(e)
    return e


def compound_literal_global(mg, lit):
    """!llvm.ptr to a new internal global holding file-scope compound literal `lit` (C11 6.5.2.5p5: static
    storage duration)."""
    ty = canonical(lit.type)
    init = next(c for c in children(lit) if c.kind == K.INIT_LIST_EXPR)
    img, ptrs = const_image(ty, init)
    name = f"__pgcc_compound_literal.{len(mg.llvm_decls)}"
    while name in mg.llvm_decls:
        name += "_"
    emit_byte_global(mg, name, ty, img, ptrs, True, False, lit)
    mg.llvm_decls.add(name)
    return llvm.AddressOfOp(CT.llvm_ptr(), name).result


def const_gep(p, offset):
    """`p` + constant `offset` bytes (also valid in a global's initializer region)."""
    if offset == 0:
        return p
    if not -(1 << 31) < offset < (1 << 31):
        return LLVMMemory.gep_bytes(p, llvm.ConstantOp(I64(), ir.IntegerAttr.get(I64(), offset)).result)
    op = ir.Operation.create("llvm.getelementptr", [CT.llvm_ptr()], [p], {
        "rawConstantIndices": ir.DenseI32ArrayAttr.get([offset]),
        "elem_type": ir.TypeAttr.get(ir.IntegerType.get_signless(8))})
    return op.result


def constant_lvalue_address(mg, s, e):
    """Address of a global lvalue `g`, `g.f`, `g[3]`, `g.a[1].b`, `"literal"[6]` (constant offsets) in a global
    initializer."""
    if s.kind == K.STRING_LITERAL:  # (`&"undef_EPERM"[6]`: json-c's table of errno names)
        return mg.literal(s)
    if s.kind == K.DECL_REF_EXPR and s.referenced is not None:
        r = s.referenced
        if r.kind == K.FUNCTION_DECL:
            return function_pointer(mg, r)
        if r.kind == K.VAR_DECL and decl_key(r.canonical) in mg.addressed_globals:
            return llvm.AddressOfOp(CT.llvm_ptr(), mg.global_var(r).global_name).result
    if s.kind == K.MEMBER_REF_EXPR and canonical(children(s)[0].type).kind != T.POINTER:
        off, bf = R.member_location(children(s)[0].type, s.referenced)
        if bf is None:
            return const_gep(constant_lvalue_address(mg, strip_implicit(children(s)[0]), e), off)
    if s.kind == K.ARRAY_SUBSCRIPT_EXPR:
        base, idx = children(s)
        n = evaluate(idx)
        b = strip_implicit(base)
        if isinstance(n, int) and CT.is_array(b.type):
            return const_gep(constant_lvalue_address(mg, b, e), n * CT.size_of(s.type))
    if s.kind == K.ADDR_LABEL_EXPR:  # (a dispatch table `static void *ops[] = {&&add, ...}`)
        return gotos.label_address(children(s)[0])
    raise error_at(e, "unsupported construct: this address in a global initializer")
