"""Memrefs of i1 -> memrefs of i8, just before the lowering to the LLVM dialect.

Compiler-made buffers can hold booleans: a per-thread cache of a C ``bool`` carried across ``__syncthreads()``
(gpu_to_cpu/barrier_elimination.py), an AD cache of a comparison (ad/cache.py). MLIR's memref-to-LLVM lowering
aborts on element types narrower than a byte (an assertion in MemRefToLLVM.cpp, not a diagnostic), and C keeps
a bool in one byte anyway (the frontend's own bool memory is i8 already: c_types.memory_type). So every
allocation of i1 elements becomes one of i8 elements: stores zero-extend, loads truncate.
"""

from __future__ import annotations

from mlir import ir
from mlir.dialects import arith

from .errors import CompileError

ALLOCATIONS = ("memref.alloca", "memref.alloc")
ACCESSES = {"memref.load": None, "affine.load": None, "memref.store": 1, "affine.store": 1}  # op -> memref operand
OTHER_USERS = ("memref.dealloc",)


def widen_i1_memrefs(module: ir.Module) -> int:
    """Rewrite each memref.alloca/alloc with i1 elements in `module` (in place) to i8 elements; returns how
    many were rewritten.

    Raises:
        CompileError: such an allocation is used by something other than loads, stores and deallocs (a view,
        a call): pgcc generates no such code, so this names an internal inconsistency instead of letting the
        LLVM lowering abort.
    """
    i1, i8 = ir.IntegerType.get_signless(1), ir.IntegerType.get_signless(8)
    found = []

    def visit(op):
        if op.name in ALLOCATIONS and ir.MemRefType(op.results[0].type).element_type == i1:
            found.append(op)
        return ir.WalkResult.ADVANCE

    module.operation.walk(visit)
    for alloc in found:
        mem = alloc.results[0]
        users = [u.owner for u in mem.uses]
        for user in users:
            role = ACCESSES.get(user.name, "other")
            if user.name not in OTHER_USERS and (role == "other" or (role == 1 and user.operands[1] != mem)):
                raise CompileError(f"internal compiler error: a buffer of booleans used by '{user.name}'")
        mt = ir.MemRefType(mem.type)
        mem.set_type(ir.MemRefType.get(mt.shape, i8, mt.layout, mt.memory_space, loc=alloc.location))
        for user in users:
            if user.name in ("memref.store", "affine.store"):
                with user.location, ir.InsertionPoint(user):
                    user.operands[0] = arith.extui(i8, user.operands[0])
            elif user.name in ("memref.load", "affine.load"):
                value = user.results[0]
                value.set_type(i8)
                with user.location, ir.InsertionPoint.after(user):
                    narrow = arith.trunci(i1, value)
                value.replace_all_uses_except(narrow, narrow.owner.operation)
    return len(found)
