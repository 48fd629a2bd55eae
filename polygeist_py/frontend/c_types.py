"""C types to MLIR types, in one place.

Scalars map to signless integers and floats (signedness is kept by the walker, which picks the op).
Pointers to numeric data (``double *``, ``double (*)[m]``) map to memrefs whose leading dimension is unknown
and whose offset is dynamic, so pointer arithmetic and sub-arrays are plain ``memref.reinterpret_cast``s:
``memref<?xMxf64, strided<[M, 1], offset: ?>>``. Every other pointer (``char **``, ``FILE *``, ``void *``)
is an opaque ``!llvm.ptr``. At function boundaries every pointer is an ``!llvm.ptr`` (the C ABI, so
objects built by pgcc and by gcc link together); the walker rebuilds the memref on entry. A struct or union
value is the ``!llvm.ptr`` address of its bytes (records.py has layout and calling convention; the whole
model is in docs/memory_model.md).
"""

from __future__ import annotations

import math
import struct
from dataclasses import dataclass

from mlir import ir
from mlir.dialects import arith

from ..clang_ast import T, canonical, record_decl

INT_BITS = {T.BOOL: 1, T.CHAR_S: 8, T.SCHAR: 8, T.CHAR_U: 8, T.UCHAR: 8, T.SHORT: 16, T.USHORT: 16,
            T.INT: 32, T.UINT: 32, T.LONG: 64, T.ULONG: 64, T.LONGLONG: 64, T.ULONGLONG: 64, T.ENUM: 32,
            T.INT128: 128, T.UINT128: 128}  # (__int128: two registers across calls, as LLVM passes i128)
UNSIGNED = {T.BOOL, T.CHAR_U, T.UCHAR, T.USHORT, T.UINT, T.ULONG, T.ULONGLONG, T.UINT128}
FLOAT_BITS = {T.FLOAT: 32, T.DOUBLE: 64, T.LONGDOUBLE: 80}  # (long double: x87 extended, f80 / x86_fp80)
ARRAY_KINDS = {T.CONSTANTARRAY, T.VARIABLEARRAY, T.INCOMPLETEARRAY, T.DEPENDENTSIZEDARRAY}
REFERENCE_KINDS = {T.LVALUEREFERENCE, T.RVALUEREFERENCE}


class UnsupportedType(Exception):
    """A C type the walker does not translate; the walker turns it into a CompileError at the use."""


def is_int(ty) -> bool:
    return canonical(ty).kind in INT_BITS


def is_unsigned(ty) -> bool:
    c = canonical(ty)
    if c.kind == T.ENUM:  # gcc picks the enum's integer type from its values (unsigned int, long...)
        return is_unsigned(record_decl(c).enum_type)
    return c.kind in UNSIGNED


def is_float(ty) -> bool:
    return canonical(ty).kind in FLOAT_BITS


def is_arith(ty) -> bool:
    return is_int(ty) or is_float(ty)


def is_complex(ty) -> bool:
    """A C99 complex type pgcc translates (`double _Complex`, `float _Complex`, `long double _Complex`): an MLIR
    `complex<f64>` / `complex<f32>` / `complex<f80>` value."""
    c = canonical(ty)
    return c.kind == T.COMPLEX and canonical(c.element_type).kind in (T.FLOAT, T.DOUBLE, T.LONGDOUBLE)


def is_numeric(ty) -> bool:
    """An arithmetic or complex type: one value in registers, one element in memory (memrefs hold either)."""
    return is_arith(ty) or is_complex(ty)


def is_array(ty) -> bool:
    return canonical(ty).kind in ARRAY_KINDS


def is_pointer(ty) -> bool:
    return canonical(ty).kind == T.POINTER


def is_reference(ty) -> bool:
    """A C++ reference type (``T&``, ``T&&``): an address at function boundaries and in the walker."""
    return canonical(ty).kind in REFERENCE_KINDS


def unreferenced(ty):
    """The canonical type a reference refers to; any other type, canonical."""
    c = canonical(ty)
    return canonical(c.get_pointee()) if c.kind in REFERENCE_KINDS else c


def is_dim3(ty) -> bool:
    c = canonical(ty)
    return c.kind == T.RECORD and c.get_declaration().spelling in ("dim3", "uint3")


def scalar_type(ty) -> ir.Type:
    """MLIR type of an arithmetic C type (``int`` -> i32, ``double`` -> f64)."""
    c = canonical(ty)
    if c.kind == T.ENUM:
        return scalar_type(record_decl(c).enum_type)
    if c.kind in INT_BITS:
        return ir.IntegerType.get_signless(INT_BITS[c.kind])
    if c.kind == T.FLOAT:
        return ir.F32Type.get()
    if c.kind == T.DOUBLE:
        return ir.F64Type.get()
    if c.kind == T.LONGDOUBLE:  # x86-64: 80-bit x87 extended precision in a 16-byte slot (LLVM's x86_fp80)
        return ir.Type.parse("f80")
    if is_complex(c):  # (parsed: ComplexType.get rejects f80, which has no Python class)
        return ir.Type.parse(f"complex<{scalar_type(c.element_type)}>")
    raise UnsupportedType(f"type '{ty.spelling}'")


def memory_type(ty) -> ir.Type:
    """MLIR element type of an arithmetic C type stored in memory: as ``scalar_type``, except that a C
    ``bool``/``_Bool`` occupies one byte (i8), as in the C ABI (its value in registers is an i1)."""
    c = canonical(ty)
    return ir.IntegerType.get_signless(8) if c.kind == T.BOOL else scalar_type(c)


def is_bool(ty) -> bool:
    return canonical(ty).kind == T.BOOL


def as_stored(v, m):
    """Value `v` as memref `m` holds it: a C bool (an i1 value) is stored as one byte (i8 element)."""
    elem = ir.MemRefType(m.type).element_type
    if v.type != elem and v.type == ir.IntegerType.get_signless(1):
        return arith.extui(elem, v)
    return v


@dataclass
class ArrayShape:
    """A C array or pointee-array shape: element type and dims (None = size known only at run time)."""
    elem: object  # clang element Type (arithmetic)
    dims: list  # int or None per dimension, outermost first


def array_shape(ty) -> ArrayShape:
    """Flatten nested C array types: ``double[N][m]`` -> elem double, dims [N, None]."""
    dims = []
    c = canonical(ty)
    while c.kind in ARRAY_KINDS:
        dims.append(c.element_count if c.kind == T.CONSTANTARRAY else None)
        c = canonical(c.element_type)
    return ArrayShape(c, dims)


def pointee(ty):
    """What a pointer points to; for an array type (a parameter `double A[n][m]`), its element type."""
    c = canonical(ty)
    return canonical(c.element_type) if c.kind in ARRAY_KINDS else canonical(c.get_pointee())


def pointee_is_memref(ty) -> bool:
    """Whether a pointer type is represented as a memref (it points to numeric data or arrays of it, not
    volatile)."""
    c = canonical(ty)
    if c.kind != T.POINTER and c.kind not in ARRAY_KINDS:
        return False
    elem = array_shape(pointee(c)).elem
    return is_numeric(elem) and not canonical(elem).is_volatile_qualified()  # (volatile: LLVM's volatile accesses)


def dynamic() -> int:
    return ir.ShapedType.get_dynamic_size()


def pointer_value_type(ty) -> ir.Type:
    """The value type of pointer type `ty`, or of an array type that C adjusts to a pointer (a parameter
    `char *argv[]`): a memref for numeric pointees, else !llvm.ptr."""
    return pointer_memref_type(ty) if pointee_is_memref(ty) else llvm_ptr()


def pointer_memref_type(ty) -> ir.MemRefType:
    """The memref type of a pointer to numeric data: ``double (*)[M]`` -> memref<?xMxf64, strided<[M,1], offset:?>>."""
    shape = array_shape(pointee(ty))
    return strided_memref([None] + shape.dims, memory_type(shape.elem))


def strided_memref(dims: list, elem: ir.Type, dynamic_offset: bool = True) -> ir.MemRefType:
    """memref with row-major strides; dims entries None are dynamic; offset dynamic unless told otherwise."""
    dyn = ir.ShapedType.get_dynamic_size()
    dyn_stride = ir.ShapedType.get_dynamic_stride_or_offset()
    shape = [dyn if d is None else d for d in dims]
    strides, acc = [], 1
    for d in reversed(dims):
        strides.append(acc)
        acc = dyn_stride if (d is None or acc == dyn_stride) else acc * d
    strides.reverse()
    layout = ir.StridedLayoutAttr.get(dyn_stride if dynamic_offset else 0, strides)
    return ir.MemRefType.get(shape, elem, layout=layout)


def array_memref_type(ty) -> ir.MemRefType:
    """Storage type of a C array variable: ``double[N][M]`` -> memref<NxMxf64> (identity layout)."""
    shape = array_shape(ty)
    if not is_numeric(shape.elem):
        raise UnsupportedType(f"array of '{shape.elem.spelling}'")
    dyn = ir.ShapedType.get_dynamic_size()
    return ir.MemRefType.get([dyn if d is None else d for d in shape.dims], memory_type(shape.elem))


def llvm_ptr() -> ir.Type:
    return ir.Type.parse("!llvm.ptr")


def is_vector(ty) -> bool:
    """A GCC vector type (``vector_size``) or clang extended vector (``ext_vector_type``): one MLIR
    ``vector<NxT>`` value (frontend/vectors.py has its operators)."""
    return canonical(ty).kind in (T.VECTOR, T.EXTVECTOR)


def vector_type(ty) -> ir.VectorType:
    """``int __attribute__((vector_size(16)))`` -> vector<4xi32> (elements as ``scalar_type``; raises
    UnsupportedType for a vector of anything else, e.g. ``bool``)."""
    c = canonical(ty)
    elem = canonical(c.element_type)
    if not is_arith(elem) or elem.kind in (T.BOOL, T.LONGDOUBLE):
        raise UnsupportedType(f"vector type '{ty.spelling}'")
    return ir.VectorType.get([c.element_count], scalar_type(elem))


def value_type(ty) -> ir.Type:
    """MLIR type of a C rvalue of type ``ty`` inside a function."""
    c = canonical(ty)
    if is_numeric(c):
        return scalar_type(c)
    if is_vector(c):
        return vector_type(c)
    if c.kind == T.POINTER:
        return pointer_memref_type(c) if pointee_is_memref(c) else llvm_ptr()
    if c.kind == T.RECORD:  # a struct/union value is the address of its bytes (see docs/memory_model.md)
        return llvm_ptr()
    raise UnsupportedType(f"type '{ty.spelling}'")


def abi_type(ty) -> ir.Type:
    """MLIR type of a C value at a function boundary (C ABI: every pointer is !llvm.ptr)."""
    c = canonical(ty)
    if c.kind in (T.POINTER, T.CONSTANTARRAY, T.INCOMPLETEARRAY, T.VARIABLEARRAY, T.FUNCTIONPROTO,
                  T.FUNCTIONNOPROTO) or c.kind in REFERENCE_KINDS:  # (a parameter of function type: a pointer)
        return llvm_ptr()
    if c.kind == T.COMPLEX and canonical(c.element_type).kind == T.FLOAT:  # (x86-64: both parts in one SSE
        return ir.VectorType.get([2], ir.F32Type.get())  # register, clang's <2 x float>)
    return value_type(c)


def byte_width(t: ir.Type) -> int:
    """Bytes of one element of MLIR scalar type `t` (f64 -> 8, i32 -> 4, !llvm.ptr -> 8, f80 -> 16: LLVM's
    allocation size of x86_fp80, the stride of its arrays)."""
    if t == llvm_ptr():
        return 8
    if str(t) == "f80":
        return 16
    if isinstance(t, ir.ComplexType) or str(t).startswith("complex<"):
        return 2 * byte_width(ir.ComplexType(t).element_type)
    return max(int(str(t)[1:]) // 8, 1)


def size_of(ty) -> int:
    """sizeof a C type in bytes (static types only)."""
    return canonical(ty).get_size()


def float_bytes(v, size: int) -> bytes:
    """Little-endian bytes of number `v` as a C float (`size` 4) or double (8). A NaN keeps its sign, quiet bit and
    payload (the top of a double's mantissa for a float): packing a double NaN as a float through the FPU
    (struct.pack) quiets a signaling NaN (`FLT_SNAN`), which then no longer raises FE_INVALID."""
    v = float(v)
    if size == 8 or not math.isnan(v):
        return struct.pack("<d" if size == 8 else "<f", v)
    bits = struct.unpack("<Q", struct.pack("<d", v))[0]
    mant = (bits >> 29) & ((1 << 23) - 1) or 1 << 22
    return ((bits >> 63) << 31 | 0xFF << 23 | mant).to_bytes(4, "little")


def float_attribute(elem: ir.Type, v) -> ir.Attribute:
    """A FloatAttr of f32/f64 type `elem` holding number `v`; a NaN keeps its bits as in float_bytes (the
    FloatAttr builder's double-to-f32 conversion quiets a signaling NaN)."""
    if not math.isnan(float(v)) or not isinstance(elem, ir.F32Type):
        return ir.FloatAttr.get(elem, float(v))
    return ir.Attribute.parse(f"0x{int.from_bytes(float_bytes(v, 4), 'little'):08X} : f32")


def integer_attribute(t: ir.Type, v: int) -> ir.Attribute:
    """An IntegerAttr of integer or index type `t` holding `v` modulo 2^width. The builder takes a 64-bit value
    and zero-extends it, so an i128 (__int128) attribute is parsed from its text: -1 stays all ones, and values
    beyond 64 bits keep their high half."""
    if isinstance(t, ir.IntegerType) and ir.IntegerType(t).width > 64:
        w = ir.IntegerType(t).width
        v &= (1 << w) - 1
        return ir.Attribute.parse(f"{v - (1 << w) if v >> (w - 1) else v} : {t}")
    return ir.IntegerAttr.get(t, v)
