"""Structs, unions and other objects kept as raw bytes: layout, bit-fields, and the x86-64 System V calling
convention for aggregates.

Layout is clang's record layout (``Type.get_size``/``get_align``, ``Cursor.get_field_offsetof``), which on
x86-64 Linux is gcc's, bit-fields included. A struct passed or returned by value follows the System V ABI
as gcc applies it (classification into INTEGER/SSE eightbytes, MEMORY for larger objects), so functions
compiled by pgcc and by gcc call each other.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from mlir import ir

from ..clang_ast import K, T, canonical, children, record_decl, strip_implicit
from ..errors import error_at
from . import c_types as CT

INT_REGS, SSE_REGS = 6, 8


def is_record(ty) -> bool:
    """True for a struct or union type (after typedefs)."""
    return canonical(ty).kind == T.RECORD


def is_byte_object(ty) -> bool:
    """Whether a C object of type `ty` is kept as raw bytes behind an !llvm.ptr rather than in a memref: structs,
    unions, arrays whose elements are not arithmetic (arrays of structs, of pointers), and volatile objects
    (their loads and stores are LLVM's volatile ones, which memrefs and SSA values cannot be)."""
    c = canonical(ty)
    if c.kind == T.RECORD or c.is_volatile_qualified():
        return True
    if CT.is_array(c):
        elem = CT.array_shape(c).elem
        return not CT.is_numeric(elem) or canonical(elem).is_volatile_qualified()
    return False


def named_fields(ty) -> list:
    """The FIELD_DECLs of a record that initializers fill (unnamed bit-fields are skipped)."""
    return [f for f in canonical(ty).get_fields() if not (f.is_bitfield() and not f.spelling)]


def is_union(ty) -> bool:
    return record_decl(ty).kind == K.UNION_DECL


@dataclass
class BitField:
    """Where a bit-field lives: the bytes holding it (an integer of `unit_bits` at `unit_offset` bytes from the
    record) and its bits inside them."""
    unit_offset: int
    unit_bits: int
    shift: int
    width: int
    signed: bool


def field_location(f) -> tuple[int, BitField | None]:
    """(byte offset, bit-field info or None) of FIELD_DECL `f` inside its record."""
    bit = f.get_field_offsetof()
    if not f.is_bitfield():
        return bit // 8, None
    ft = canonical(f.type)
    # accessed through the bytes that hold it (an i24 load reads 3 bytes): never outside the field's bytes,
    # also in packed records where a field crosses its type's natural unit
    start, shift, width = bit // 8, bit % 8, f.get_bitfield_width()
    nbytes = max((shift + width + 7) // 8, 1)
    if ft.kind == T.ENUM:  # an enum's signedness is its underlying type's (unsigned int without negatives)
        ft = canonical(record_decl(ft).enum_type)
        return start, BitField(start, 8 * nbytes, shift, width, not CT.is_unsigned(ft))
    signed = not CT.is_unsigned(ft)
    if signed and ft.kind != T.BOOL and getattr(f.translation_unit, "unsigned_bitfields", False) and \
            not _written_signed(f):
        # gcc's -funsigned-bitfields: a bit-field of a plain integer type (not written `signed`, also through
        # typedefs) is unsigned. Below int's width its value promotes to int either way; from int's width on,
        # gcc's type is unsigned where clang's (which ignores the flag) is signed: arithmetic would differ
        if width >= 32:
            raise error_at(f, f"unsupported construct: -funsigned-bitfields on the {width}-bit bit-field "
                              f"'{f.spelling}' of type '{f.type.spelling}' (write `unsigned`)")
        signed = False
    return start, BitField(start, 8 * nbytes, shift, width, signed)


def _written_signed(decl) -> bool:
    """Whether the type of FIELD_DECL or TYPEDEF_DECL `decl` is written with `signed` (`signed char x : 1`,
    `typedef signed int si`), itself or through the typedefs it names."""
    for _ in range(64):
        words = [t.spelling for t in decl.get_tokens()]
        if "signed" in words or "__signed__" in words or "__signed" in words:
            return True
        ty = decl.type if decl.kind == K.FIELD_DECL else decl.underlying_typedef_type
        while ty.kind == T.ELABORATED:
            ty = ty.get_named_type()
        if ty.kind != T.TYPEDEF:
            return False
        decl = ty.get_declaration()
    return False


def member_location(record_ty, f) -> tuple[int, BitField | None]:
    """Like field_location, but relative to `record_ty`, which may hold `f` inside anonymous struct/union
    members (`s.i` for `struct { union { int i; }; }`: libclang shows no access of the anonymous member).

    Raises:
        CT.UnsupportedType: `f` is not a member of `record_ty`."""
    rec = canonical(record_ty)
    if f.semantic_parent is not None and f.semantic_parent == record_decl(rec):
        return field_location(f)
    for g in rec.get_fields():
        gt = canonical(g.type)
        if gt.kind == T.RECORD and (not g.spelling or record_decl(gt).is_anonymous()):
            try:
                off, bf = member_location(gt, f)
            except CT.UnsupportedType:
                continue
            base = g.get_field_offsetof() // 8
            if bf is not None:
                bf = BitField(bf.unit_offset + base, bf.unit_bits, bf.shift, bf.width, bf.signed)
            return off + base, bf
    raise CT.UnsupportedType(f"member '{f.spelling}' of '{record_ty.spelling}'")


def scalars(ty, base=0):
    """(byte offset, kind, size) of every scalar in an object of type `ty`: kind is 'int' or 'float'.

    Raises:
        CT.UnsupportedType: long double and other types with no x86-64 classification here."""
    c = canonical(ty)
    if c.kind == T.RECORD:
        out = []
        for b in c.get_bases():  # C++ base-class subobjects (device code), first
            out += scalars(b.type, base + b.get_base_offsetof(c.get_declaration()) // 8)
        for f in c.get_fields():
            off, bf = field_location(f)
            if bf is not None:
                if f.get_bitfield_width():
                    out.append((base + off, "int", 1))
                continue
            if CT.is_reference(f.type):  # a reference member (device code) holds an address
                out.append((base + off, "int", 8))
                continue
            out += scalars(f.type, base + off)
        return out
    if c.kind == T.CONSTANTARRAY:
        esz = CT.size_of(c.element_type)
        out = []
        for i in range(c.element_count):
            out += scalars(c.element_type, base + i * esz)
        return out
    if c.kind == T.LONGDOUBLE:
        return [(base, "x87", 16)]
    if CT.is_complex(c):  # (two floats of the part type: real, then imaginary)
        part = canonical(c.element_type)
        return scalars(part, base) + scalars(part, base + CT.size_of(part))
    if CT.is_float(c):
        return [(base, "float", CT.size_of(c))]
    if CT.is_int(c) or c.kind == T.POINTER:
        return [(base, "int", CT.size_of(c))]
    if CT.is_vector(c) and CT.size_of(c) <= 8:  # (SSE class, as a double)
        return [(base, "float", CT.size_of(c))]
    if CT.is_vector(c):  # (SSE then SSEUP eightbytes: classify)
        return [(base, "vector", CT.size_of(c))]
    raise CT.UnsupportedType(f"type '{ty.spelling}' in a value passed by value")


def classify(ty, named=True, result: bool = False):
    """x86-64 System V classes of a struct/union passed by value (or returned, `result`): a list of 'int'/'sse'
    per eightbyte, ['vector<N>'] for a record that is one N-byte vector register (its eightbytes SSE, SSEUP...: a
    record holding only a 16-byte vector, or a 32/64-byte one where the unit has AVX/AVX-512F and the argument is
    named, as gcc and clang pass `struct { __m256i v; }`), ['x87'] for a result that is one long double (returned
    in %st0), or None when the object goes in memory (bigger than 16 bytes otherwise, a field that is not
    naturally aligned, or a long double argument: the X87/X87UP classes mean memory, ABI 3.2.3). `named`: False
    for a variadic argument."""
    size = CT.size_of(ty)
    entries = scalars(ty)
    if any(k == "vector" for _, k, _ in entries):
        if all(k == "vector" and off == 0 and n == size for off, k, n in entries):
            return [f"vector{size}"] if size == 16 or named and size <= native_vector_bytes(ty) else None
        # (a vector beside other members, as `union { __m128 v; float f[4]; }`: SSE eightbytes; SSEUP only
        # follows SSE within one vector-only register)
        entries = [(off + i, "float", 8) if k == "vector" else (off, k, n)
                   for off, k, n in entries for i in (range(0, n, 8) if k == "vector" else (0,))]
    if size > 16 or size <= 0:
        return None
    classes = ["sse"] * ((size + 7) // 8)
    seen = [False] * len(classes)
    if any(kind == "x87" for _, kind, _ in entries):
        return ["x87"] if result and all(p == (0, "x87", 16) for p in entries) else None
    for off, kind, size in entries:
        if off % size:  # a packed record's unaligned field: gcc passes the object in memory
            return None
        i = off // 8
        seen[i] = True
        if kind == "int":
            classes[i] = "int"
    for i, s in enumerate(seen):
        if not s:  # padding only: gcc gives it no register; treat as INTEGER like clang's coerced type
            classes[i] = "int"
    return classes


def is_empty_class(ty) -> bool:
    """Whether record `ty` is a C++ empty class (size 1, no data: a stateless functor such as
    `struct Add { __device__ T operator()(...) }`). g++ and clang pass such an argument in no register and
    no stack slot (x86-64 System V 3.2.3: every eightbyte NO_CLASS), so the parameter takes no argument."""
    c = canonical(ty)
    return c.kind == T.RECORD and 0 < CT.size_of(c) <= 16 and not scalars(c)


def native_vector_bytes(ty=None, tu=None, decl=None) -> int:
    """The widest vector (bytes) passed in one register by the unit declaring record `ty` (or unit `tu`; in
    function `decl`, also by its own target attribute or intrinsic header): 64 with AVX-512F, 32 with AVX,
    else 16 (gcc's and clang's ABI follows the instruction sets)."""
    from .x86_builtins import caller_features, unit_features

    if tu is None:
        d = record_decl(ty)
        tu = d.translation_unit if d is not None else None
    features = unit_features(tu) if tu is not None else set()
    if decl is not None:
        own = caller_features(decl)
        if own is None:  # (`target("arch=...")`: any width)
            return 64
        features = features | own
    return 64 if "avx512f" in features else 32 if "avx" in features else 16


def check_vector_width(t, vector_bytes):
    """A vector parameter or result (C type `t`) wider than the `vector_bytes` of the vector registers (`__m256`
    without -mavx): gcc passes it in memory, LLVM would split it across registers; an error naming it rather
    than code gcc's objects cannot call.

    Raises:
        CT.UnsupportedType."""
    c = canonical(t)
    if vector_bytes is not None and CT.is_vector(c) and CT.size_of(c) > max(16, vector_bytes):
        need = "AVX-512F" if CT.size_of(c) > 32 else "AVX"
        raise CT.UnsupportedType(f"{CT.size_of(c)}-byte vector '{t.spelling}' passed or returned by value "
                                 f"without {need} (gcc passes it in memory; compile with -m{need.lower()})")


def register_counts(classes) -> tuple[int, int]:
    """(integer, SSE) registers an object of `classes` (classify's list) takes."""
    ni = classes.count("int")
    return ni, len(classes) - ni


def piece_type(cls) -> ir.Type:
    """The register-sized MLIR type carrying one eightbyte (the upper bytes of a partial one are don't-care), or
    the x87 register's f80 for class 'x87', the whole record for a 'vector<N>' class (a vector of i64: any N-byte
    vector takes one XMM/YMM/ZMM)."""
    if cls == "x87":
        return ir.Type.parse("f80")
    if cls.startswith("vector"):
        return ir.VectorType.get([int(cls[len("vector"):]) // 8], ir.IntegerType.get_signless(64))
    return ir.F64Type.get() if cls == "sse" else ir.IntegerType.get_signless(64)


@dataclass
class ParamABI:
    """How one C parameter crosses the boundary: 'scalar' (one value), 'expand' (one value per eightbyte),
    'byval' (pointer to a caller-made copy in the argument area)."""
    kind: str
    ctype: object
    types: list
    first: int = 0  # index of its first MLIR argument
    classes: list = field(default_factory=list)


@dataclass
class Signature:
    """The lowered C signature of a function: MLIR function type, argument attributes, and per-parameter and
    result lowering. ret_kind: 'void', 'scalar', 'coerced' (registers, an LLVM struct of pieces when two)
    or 'sret' (caller-provided memory passed as the hidden first argument)."""
    ftype: ir.FunctionType
    params: list
    ret_kind: str
    ret_ctype: object
    ret_classes: list
    arg_attrs: list
    variadic: bool = False
    has_this: bool = False  # a C++ method: the object's address is the last MLIR argument (cxx_classes)
    free_registers: tuple = (INT_REGS, SSE_REGS)  # (integer, SSE) argument registers the fixed ones leave

    @property
    def has_records(self) -> bool:
        return self.ret_kind in ("coerced", "sret") or any(p.kind != "scalar" for p in self.params)


def coerced_type(classes) -> ir.Type:
    pieces = [piece_type(c) for c in classes]
    if len(pieces) == 1:
        return pieces[0]
    return ir.Type.parse(f"!llvm.struct<({', '.join(str(p) for p in pieces)})>")


def bytes_type(ty) -> ir.Type:
    return ir.Type.parse(f"!llvm.array<{max(CT.size_of(ty), 1)} x i8>")


def signature(param_types, result_type, variadic=False, vector_bytes=None) -> Signature:
    """Lower a C prototype (clang parameter types, result type) to the x86-64 System V convention
    (`vector_bytes`: native_vector_bytes where the function is compiled or called; None: not checked).

    Raises:
        CT.UnsupportedType: a parameter or result type pgcc cannot pass."""
    rt = canonical(result_type)
    for t in (result_type, *param_types):
        check_vector_width(t, vector_bytes)
    ints, sses = INT_REGS, SSE_REGS
    ins, attrs, params = [], [], []
    ret_classes = []
    if rt.kind == T.VOID:
        ret_kind, outs = "void", []
    elif rt.kind == T.RECORD:
        ret_classes = classify(rt, result=True)
        if ret_classes is None:
            ret_kind, outs = "sret", []  # LLVM returns the address in %rax itself, as the ABI asks
            ins.append(CT.llvm_ptr())
            attrs.append({"llvm.sret": ir.TypeAttr.get(bytes_type(rt)),
                          "llvm.align": ir.IntegerAttr.get(ir.IntegerType.get_signless(64), max(rt.get_align(), 8))})
            ints -= 1
        else:
            ret_kind, outs = "coerced", [coerced_type(ret_classes)]
    else:
        ret_kind, outs = "scalar", [CT.abi_type(rt)]
    for pt in param_types:
        c = canonical(pt)
        first = len(ins)
        if c.kind == T.RECORD and (is_empty_class(c) or CT.size_of(c) == 0):
            # (no argument: its object is made in the callee; a C struct of size 0, GNU's `struct {}` or
            # `struct { char x[0]; }`, takes no register and no stack slot either, as gcc passes it)
            params.append(ParamABI("expand", c, [], first, []))
            continue
        if c.kind == T.RECORD:
            classes = classify(c)
            ni, ns = register_counts(classes) if classes else (0, 0)
            # (the counts go below zero once scalars overflow to the stack: a record needing no register of
            # that kind still fits, as a struct of floats after seven int arguments goes in XMM registers)
            if classes is not None and ni <= max(ints, 0) and ns <= max(sses, 0):
                ints, sses = ints - ni, sses - ns
                tys = [piece_type(k) for k in classes]
                params.append(ParamABI("expand", c, tys, first, classes))
                ins += tys
                attrs += [{} for _ in tys]
            else:
                params.append(ParamABI("byval", c, [CT.llvm_ptr()], first))
                ins.append(CT.llvm_ptr())
                attrs.append({"llvm.byval": ir.TypeAttr.get(bytes_type(c)),
                              "llvm.align": ir.IntegerAttr.get(ir.IntegerType.get_signless(64), max(c.get_align(), 8))})
            continue
        t = CT.abi_type(c)
        if CT.is_complex(c) and (canonical(c.element_type).kind == T.LONGDOUBLE or
                                 canonical(c.element_type).kind == T.DOUBLE and sses < 2):
            # (a long double _Complex, class COMPLEX_X87, always)
            # (not both parts in registers: the whole value in memory, as gcc passes it and clang says)
            params.append(ParamABI("byval", c, [CT.llvm_ptr()], first))
            ins.append(CT.llvm_ptr())
            attrs.append({"llvm.byval": ir.TypeAttr.get(bytes_type(c)),
                          "llvm.align": ir.IntegerAttr.get(ir.IntegerType.get_signless(64), max(c.get_align(), 8))})
            continue
        if CT.is_complex(c):  # (double _Complex: two SSE registers; float _Complex: one)
            sses -= 2 if canonical(c.element_type).kind == T.DOUBLE else 1
        elif CT.is_float(c) or CT.is_vector(c):  # (a vector: one SSE register)
            sses -= 1
        else:
            ints -= 1
        params.append(ParamABI("scalar", c, [t], first))
        ins.append(t)
        attrs.append({})
    return Signature(ir.FunctionType.get(ins, outs), params, ret_kind, rt, ret_classes, attrs, variadic,
                     free_registers=(max(ints, 0), max(sses, 0)))


def attrs_array(sig: Signature, extra=None):
    """The arg_attrs ArrayAttr of a lowered signature; `extra[i]` (per C parameter) adds attributes to that
    parameter's first MLIR argument (llvm.noalias for restrict)."""
    attrs = [dict(a) for a in sig.arg_attrs]
    for p, more in zip(sig.params, extra or []):
        if more and p.kind == "scalar":
            attrs[p.first].update(more)
    return ir.ArrayAttr.get([ir.DictAttr.get(a) for a in attrs])


def record_members(d) -> list:
    """The member declarations of record definition `d`. An implicit instantiation of a class template shows
    none in libclang: its template's (the pattern's constructors and methods; fields come from the type)."""
    ch = list(d.get_children())
    if not ch and d.specialized_template is not None:
        return list(d.specialized_template.get_children())
    return ch


def is_trivial_record(ty) -> bool:
    """A C-style struct in C++ (.cu) code: no user-written constructors or methods and no default member
    initializers (`float s = 0;`), so default construction runs no code and copies are byte copies."""

    d = record_decl(ty)
    if any(c.kind in (K.CONSTRUCTOR, K.CXX_METHOD, K.DESTRUCTOR) for c in record_members(d)):
        return False
    if any(not is_trivial_record(b.type) for b in canonical(ty).get_bases()):
        return False
    return not any(in_class_initializer(f) is not None for f in canonical(ty).get_fields())


def is_default_construction(init, ty) -> bool:
    """Whether initializer `init` of an object of type `ty` is C++'s implicit default construction of a C
    struct or an array of them (no constructors or methods: it runs no code)."""
    s = strip_implicit(init)
    if not (s.kind == K.CALL_EXPR and s.referenced is not None and s.referenced.kind == K.CONSTRUCTOR):
        return False
    if list(s.get_arguments()):
        return False
    return is_trivial_record(CT.array_shape(ty).elem) or trivially_default_constructed(CT.array_shape(ty).elem)


def trivially_default_constructed(ty) -> bool:
    """Whether default construction of record type `ty` runs no code although the class has constructors or
    methods: its default constructor is implicit or `= default` (`__half() = default;`) and no member has a
    default member initializer or needs construction itself."""

    ty = canonical(ty)
    if ty.kind != T.RECORD:
        return True
    for c in record_members(record_decl(ty)):
        if c.kind == K.CONSTRUCTOR and c.is_default_constructor() and not c.is_default_method():
            return False
    if any(not trivially_default_constructed(b.type) for b in ty.get_bases()):
        return False
    for f in ty.get_fields():
        ft = CT.array_shape(canonical(f.type)).elem
        if in_class_initializer(f) is not None or ft.kind == T.RECORD and not (
                is_trivial_record(ft) or trivially_default_constructed(ft)):
            return False
    return True


def in_class_initializer(f):
    """The default member initializer of FIELD_DECL `f` (`int n = 3;`, `double a[2] = {1, 2};`), else None
    (array sizes are expression children too: the initializer is the one after a top-level `=` or `{`)."""
    exprs = [c for c in children(f) if c.kind.is_expression()]
    if not exprs:
        return None
    depth, seen_name = 0, False
    for t in f.get_tokens():
        s = t.spelling
        if s == f.spelling and depth == 0:
            seen_name = True
        elif s in ("[", "("):
            depth += 1
        elif s in ("]", ")"):
            depth -= 1
        elif seen_name and depth == 0 and s in ("=", "{"):
            return exprs[-1]
    return None
