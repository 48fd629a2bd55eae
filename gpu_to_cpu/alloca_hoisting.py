"""Stack objects of a kernel are allocated once per block, not once per thread (the last step of `--cpuify`).

Inlining a kernel (and the device functions it calls) into the thread loop puts their stack objects (the
`memref.alloca` of a local array, the `llvm.alloca` of a struct temporary) inside that loop, and often inside
loops of the kernel too. An alloca inside a loop is a dynamic stack allocation that lasts until the function
returns: a grid of 100,000 blocks of 256 threads with a 64-byte local array moved the stack pointer by 1.6 GB
and crashed. Once barriers are eliminated and the thread loops are serial (serialize_threads.py), each
thread's objects are dead when its iteration ends (C's block scope; a value live across a barrier has
already been moved to a per-thread cache or rejected), so every fixed-size alloca inside a block loop whose
address is only dereferenced moves to the top of the block loop's body: one object per block, reused by its
threads in turn. An object whose address is kept (a struct local live across a barrier: barrier elimination
passes each thread's address through a per-thread cache) stays where it is. Allocated there,
they are static allocas of the function OpenMP outlines for the block loop, which LLVM's SROA promotes to
registers (clang allocates every local in the entry block for the same reason).
"""

from __future__ import annotations

from mlir import ir

from .ir_nav import collect, defined_inside
from .launch_to_loops import is_block_loop

ALLOCAS = ("memref.alloca", "llvm.alloca")
CONSTANTS = ("arith.constant", "llvm.mlir.constant")


def hoist_allocas_to_blocks(module: ir.Module) -> int:
    """Move the fixed-size allocas nested in each block loop of `module` (in place) to the top of its body.

    Returns:
        The number of allocas moved.
    """
    moved = 0
    for blocks in collect(module.operation, is_block_loop):
        body = blocks.regions[0].blocks[0]
        top = list(body.operations)[0]
        inner = [op for op in collect(blocks, lambda o: o.name in ALLOCAS)
                 if op.operation.parent.operation != blocks.operation]
        for op in inner:
            sizes = list(op.operands)
            if not all(not defined_inside(v, blocks) or _constant(v) for v in sizes):
                continue  # a variable-length array: its size is known only where it is declared
            if not _accessed_only(op.results[0]):
                continue  # its address is kept somewhere (a per-thread pointer cache across a barrier)
            with ir.InsertionPoint(top):
                for i, v in enumerate(sizes):
                    if defined_inside(v, blocks):
                        op.operands[i] = v.owner.clone().results[0]
            op.move_before(top)
            moved += 1
    return moved


# uses through which an address is only dereferenced (or offset and then dereferenced); any other use (a store
# of the address itself, ptrtoint into a per-thread cache, a call) may keep it beyond the thread's iteration
DEREFERENCES = {"llvm.load", "memref.load", "affine.load", "memref.store", "affine.store", "llvm.intr.memcpy",
                "llvm.intr.memmove", "llvm.intr.memset", "memref.atomic_rmw", "memref.generic_atomic_rmw",
                "memref.dim", "memref.prefetch", "affine.prefetch", "affine.vector_load", "affine.vector_store",
                "vector.load", "vector.store", "vector.transfer_read", "vector.transfer_write"}
VIEWS = {"llvm.getelementptr", "memref.subview", "memref.reinterpret_cast", "memref.cast", "memref.view"}


def _accessed_only(address) -> bool:
    """Whether every use of `address` (through GEPs and memref views) reads or writes the memory it designates,
    never storing or converting the address itself."""
    todo = [address]
    while todo:
        v = todo.pop()
        for use in v.uses:
            user = use.owner
            kind = user.operation.name
            if kind in VIEWS and use.operand_number == 0:
                todo.extend(user.results)
            elif kind == "llvm.store" and use.operand_number == 0:
                return False  # the address is the stored value
            elif kind in ("memref.store", "affine.store") and use.operand_number == 0:
                return False
            elif kind not in DEREFERENCES:
                return False
    return True


def _constant(v) -> bool:
    return not isinstance(v.owner, ir.Block) and v.owner.name in CONSTANTS
