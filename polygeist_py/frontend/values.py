"""The walker's shared vocabulary: what the FunctionGen mixins (decls, stmts, loops, exprs, lvalues, pointers,
cuda_device, cxx, cxx_classes, llvm_memory) and the helpers they call (gotos, switch, openmp, calls, builtins)
pass to each other.

- ``Binding``: the current SSA value of a scalar variable (and its affine form);
- ``MemVar``: a variable in memory (array, global, address-taken scalar);
- lvalues: ``MemLV`` (an element of a memref), ``VarLV`` (an SSA variable); the raw-byte lvalues are tuples
  ``("llvm", ptr, ctype, None)`` / ``("bits", ptr, ctype, bitfield)`` (llvm_memory) and ``("gpu", var, comp)``
  (a CUDA thread/block id component, cuda_device);
- the environment keys of the function's return flag and value (``RET``, ``RETVAL``);
- declarator helpers (size expressions of variable-length array types) and CUDA's built-in variables.

This module imports no other module of the walker.
"""

from __future__ import annotations

from dataclasses import dataclass

from mlir import ir
from mlir.dialects import gpu

from ..clang_ast import K, T, canonical, children
from ..errors import error_at
from . import int_semantics as IS

RET, RETVAL = "$ret", "$retval"
WARP_SIZE = 32
GPU_IDS = {"threadIdx": gpu.ThreadIdOp, "blockIdx": gpu.BlockIdOp, "blockDim": gpu.BlockDimOp,
           "gridDim": gpu.GridDimOp}


@dataclass
class Binding:
    """Current SSA value of a scalar C variable, and its affine form when it has one."""
    value: ir.Value
    form: tuple | None = None


@dataclass
class MemVar:
    """A C variable stored in memory: an array, a global, or an address-taken scalar (0-d memref)."""
    memref: ir.Value | None
    ctype: object
    global_name: str | None = None
    mtype: ir.Type | None = None  # a global's memref type; None for a global raw pointer (an LLVM global)

    @property
    def is_raw_global(self) -> bool:
        return self.global_name is not None and self.mtype is None


@dataclass
class MemLV:
    """An element of a memref: indices are affine forms or index values."""
    memref: ir.Value
    indices: list
    ctype: object


@dataclass
class VarLV:
    """A scalar variable held as an SSA value: its key in the walker's environment ``env``."""
    key: object
    ctype: object


def size_expressions(node, exclude=None):
    """The array-size expressions written in a declaration's (or a cast's) type, outermost first.

    libclang visits an array type's element before its size, so it lists them innermost first; they are
    reversed rather than sorted by position (inside a macro expansion every position is the expansion's).
    `exclude`: an initializer or cast operand, which is an expression child too.

    Raises:
        CompileError: an expression child that is no size (not an integer: `__typeof__(b[i++]) c;` or a cast to
            `typeof((int (*)[k = ++i])p)`, whose variably modified type comes from an expression that C
            evaluates there; pgcc would have taken the operand for a size)."""
    exprs = [e for e in children(node) if e.kind.is_expression() and e != exclude]
    for e in exprs:
        if canonical(e.type).kind not in _INTEGER_KINDS:
            raise error_at(e, "unsupported construct: a variably modified type taken from an expression (typeof)")
    return exprs[::-1]


_INTEGER_KINDS = {T.BOOL, T.CHAR_U, T.UCHAR, T.USHORT, T.UINT, T.ULONG, T.ULONGLONG, T.UINT128, T.CHAR_S, T.SCHAR,
                  T.SHORT, T.INT, T.LONG, T.LONGLONG, T.INT128, T.ENUM, T.WCHAR, T.CHAR16, T.CHAR32}


def dynamic_sizes(exprs, dims):
    """The expressions of the run-time dims among `dims` (array_shape dims, None = run-time), matching
    `exprs` (outermost first) from the innermost dim: an outer `[]`, or a parameter's adjusted-away outer
    dim, has no expression in `dims`."""
    exprs = exprs[len(exprs) - len(dims):] if len(exprs) >= len(dims) else [None] * (len(dims) - len(exprs)) + exprs
    return [e for e, d in zip(exprs, dims) if d is None]


def has_designator(init) -> bool:
    """Whether a brace initializer uses designators (`[i] = v`, `.f = v`) anywhere."""
    return any(c.kind == K.UNEXPOSED_EXPR and canonical(c.type).kind == T.VOID or
               c.kind == K.INIT_LIST_EXPR and has_designator(c) for c in children(init))


def base_key(k):
    """The variable of environment key `k` (a dim3 variable's component keys are `(var, "x")`...)."""
    return k[0] if isinstance(k, tuple) and len(k) == 2 and k[1] in ("x", "y", "z") else k


def ci_uint():
    """A clang-like 'unsigned int' type object (for conversions the walker makes itself)."""
    return IS.UINT


def ci_long():
    """A clang-like 'long' type object (for conversions the walker makes itself)."""
    return IS.LONG

