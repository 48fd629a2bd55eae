"""Initializers of large arrays without one Python object (or one store) per element.

`int a[1000000] = {0};` and `char buf[65536] = "";` are common C. Element by element, a local array becomes a
million unrolled stores and a global a million attributes: minutes of compile time, or an out-of-memory for
`char s[2147483647] = "ACG"`. Here a large local array is zeroed by one loop nest and only the listed elements
are stored; a large global's listed elements are kept sparse and become a splat or a numpy-backed dense
attribute.
"""

from __future__ import annotations

import math

from mlir import ir
from mlir.dialects import memref, scf

from ..errors import error_at
from . import c_types as CT

LARGE = 4096                 # elements: above this, the paths below
MAX_DENSE_GLOBAL = 1 << 26   # elements of a global with non-zero initial values that pgcc materializes

_INT_DTYPES = {8: "int8", 16: "int16", 32: "int32", 64: "int64"}  # numpy dtypes (imported when used)


def is_large(dims) -> bool:
    """True for a static shape of more than LARGE elements."""
    return all(isinstance(d, int) for d in dims) and math.prod(dims) > LARGE


def fill_zero(fg, m, dims, zero) -> None:
    """Store `zero` into every element of memref `m` (static shape `dims`) with one scf.for nest."""
    idx = []
    ips = []
    try:
        for d in dims:
            loop = scf.ForOp(fg.const_index(0), fg.const_index(d), fg.const_index(1))
            ip = ir.InsertionPoint(loop.body)
            ip.__enter__()
            ips.append(ip)
            idx.append(loop.induction_variable)
        memref.StoreOp(CT.as_stored(zero, m), m, idx)
    finally:
        for ip in reversed(ips):
            scf.YieldOp([])
            ip.__exit__(None, None, None)


class _Sparse(dict):
    """Listed initial values by flat index (array_init.flatten writes `vals[i] = v`); the rest are zero."""


def global_initializer(mg, d, mtype, init):
    """The initial_value attribute of a global array of more than LARGE elements, or None for a smaller one
    (the caller's element-wise path).

    Raises:
        CompileError: a non-constant initializer; non-zero initial values in more than MAX_DENSE_GLOBAL
            elements' worth of array.
    """
    shape = list(mtype.shape)
    n = math.prod(shape)
    if 0 < n <= LARGE:  # zero-length arrays (a GNU extension) also take this path: no element to list
        return None
    elem = mtype.element_type
    vals = _Sparse()
    if init is not None:
        mg.initial_values(init, shape, d, vals)
    tt = ir.RankedTensorType.get(shape, elem)
    is_f = isinstance(elem, (ir.F32Type, ir.F64Type))
    if not any(vals.values()):
        zero = ir.FloatAttr.get(elem, 0.0) if is_f else ir.IntegerAttr.get(elem, 0)
        return ir.DenseElementsAttr.get_splat(tt, zero)
    if n > MAX_DENSE_GLOBAL:
        raise error_at(d, f"unsupported construct: initial values in a global array of {n} elements "
                          f"(at most {MAX_DENSE_GLOBAL})")
    import numpy as np  # only here: importing it costs every compilation 0.1 s (driver.import_mlir)
    if is_f:
        arr = np.zeros(n, dtype=np.float32 if isinstance(elem, ir.F32Type) else np.float64)
        for i, v in vals.items():
            arr[i] = float(v)
    else:
        width = ir.IntegerType(elem).width
        if width not in _INT_DTYPES:
            raise error_at(d, f"unsupported construct: initialized global array of {elem}")
        arr = np.zeros(n, dtype=_INT_DTYPES[width])
        half = 1 << (width - 1)
        for i, v in vals.items():
            arr[i] = (int(v) + half) % (1 << width) - half  # C's conversion to the element type
    return ir.DenseElementsAttr.get(arr.reshape(shape), type=tt)
