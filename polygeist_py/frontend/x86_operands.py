"""Operands of x86 builtins as LLVM's intrinsics take them, shared by x86_builtins.py and x86_avx512.py."""

from __future__ import annotations

from mlir import ir
from mlir.dialects import llvm

from ..clang_ast import T, canonical, evaluate
from ..errors import error_at
from . import vectors


def _values(fg, args):
    """The builtin's operands as the intrinsic takes them (a pointer as the raw !llvm.ptr, also one to numbers,
    which the walker holds as a memref)."""
    return [fg.raw_pointer(a) if canonical(a.type).kind == T.POINTER else fg.rvalue(a) for a in args]


def _imm(fg, call, arg):
    v = evaluate(arg)
    if not isinstance(v, int):
        raise error_at(arg, f"argument to '{call.spelling}' must be a constant integer")
    return v


def mask_bits(m, n):
    """An AVX-512 mask register value (an integer of at least n bits) as vector<n x i1>, bit i lane i."""
    w = ir.IntegerType(m.type).width
    bits = vectors.bitcast(m, ir.VectorType.get([w], ir.IntegerType.get_signless(1)))
    return bits if w == n else vectors.shuffle(bits, bits, list(range(n)))


def intrinsic(name, result_type, args):
    """`llvm.call_intrinsic` of LLVM intrinsic `name` (overloaded ones are resolved from the operand types)."""
    op = llvm.CallIntrinsicOp(result_type, ir.StringAttr.get(name), list(args), [], ir.DenseI32ArrayAttr.get([]))
    return op.results[0] if result_type is not None else None


def _bits(t):
    return ir.IntegerType(t).width if isinstance(t, ir.IntegerType) else ir.FloatType(t).width
