"""Unsigned 32-bit offsets into `__shared__` memory wrap around as on a GPU (part of `--cpuify`).

A GPU addresses shared memory with 32-bit offsets, so `p[~i]` or `p[i - j]` with an `unsigned` index that
wrapped past zero lands `2^32 - k` bytes further, which the 32-bit shared window takes as `k` bytes back:
merge-path kernels index their shared windows with `~Ax` (`BSm1[~Ax]`, Ax unsigned) and rely on it. On a CPU
the zero-extended index is 4 GB away. For an access whose memref is (a view of) a `__shared__` allocation and
whose index is an `unsigned` 32-bit value produced by a bitwise not/xor or a subtraction (the values that wrap),
the index is sign-extended instead of zero-extended: the same element as on a GPU for every index a shared
window of less than 2 GB can hold, and no change elsewhere (other indices keep their zero extension, which
LLVM's loop analyses prefer).
"""

from __future__ import annotations

from mlir import ir
from mlir.dialects import arith

from .ir_nav import collect

ACCESSES = ("memref.load", "memref.store")
# ops through which a view or the address of a shared allocation passes
VIEWS = ("memref.reinterpret_cast", "memref.subview", "memref.cast", "memref.view",
         "builtin.unrealized_conversion_cast", "llvm.insertvalue", "llvm.inttoptr", "arith.index_cast",
         "arith.addi", "memref.extract_aligned_pointer_as_index", "llvm.getelementptr")
WRAPPING = ("arith.xori", "arith.subi")


def sign_extend_wrapped_shared_offsets(module: ir.Module) -> int:
    """Rewrite (in place) the `arith.index_castui` of a wrapping i32 value (WRAPPING) that indexes a view of a
    `__shared__` allocation into `arith.index_cast`. Returns the number of indices rewritten."""
    done = 0
    for op in collect(module.operation, lambda o: o.operation.name in ACCESSES):
        first = 1 if op.operation.name == "memref.load" else 2  # (a store's operands: value, memref, indices)
        indices = list(op.operands)[first:]
        if not any(_wrapping_u32(i) for i in indices) or not _views_shared(op.operands[first - 1]):
            continue
        for k, i in enumerate(indices):
            if _wrapping_u32(i):
                with i.owner.location, ir.InsertionPoint(op):
                    op.operands[first + k] = arith.index_cast(ir.IndexType.get(), i.owner.operands[0])
                done += 1
    return done


def _wrapping_u32(v) -> bool:
    """`v` is `arith.index_castui` of an i32 made by a bitwise not/xor or a subtraction."""
    owner = v.owner
    if isinstance(owner, ir.Block) or owner.operation.name != "arith.index_castui":
        return False
    src = owner.operands[0]
    if not isinstance(src.type, ir.IntegerType) or ir.IntegerType(src.type).width != 32:
        return False
    return not isinstance(src.owner, ir.Block) and src.owner.operation.name in WRAPPING


def _views_shared(m, budget=32) -> bool:
    """Whether memref `m` is, through VIEWS, a view of a `memref.alloca` marked `pgcc.shared`."""
    todo = [m]
    while todo and budget > 0:
        budget -= 1
        v = todo.pop()
        owner = v.owner
        if isinstance(owner, ir.Block):
            continue
        name = owner.operation.name
        if name == "memref.alloca":
            if "pgcc.shared" in owner.attributes:
                return True
            continue
        if name in VIEWS:
            todo.extend(owner.operands)
    return False
