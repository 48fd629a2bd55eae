"""Cut function-body blocks that hold many `scf.if` into chunks before the SCF to CF lowering.

convert-scf-to-cf lowers each `scf.if` by splitting its block after the op, which moves every later op of the
block into a new block; it visits the ops first to last, so a block of N sequential `scf.if` costs O(N^2) op
moves (tinycc's 101_cleanup: 65,536 cleanup guards in `main`). Cutting such a block into chunks of CHUNK_IFS
ifs first, last chunk first (each cut moves one chunk), joined by `cf.br`, bounds every later split by a chunk:
linear in N (with the pass's pattern rollback off, pipeline.LOWER_REST: 4,096 guards took 7.4 s in the pass,
0.1 s cut; stages.py cuts after LOWER_PREP, whose canonicalize would merge the chunks back). Only blocks
directly in a `func.func` body are cut (SCF regions stay single-block); the lowering splits
them at each `scf.if` anyway, so LLVM sees the same control flow plus a few unconditional branches it folds.
"""

from __future__ import annotations

from mlir import ir
from mlir.dialects import cf

CHUNK_IFS = 64  # ifs per chunk; a block with no more is left alone


def split_long_blocks(module: ir.Module) -> int:
    """Cut every function-body block of `module` that holds more than CHUNK_IFS `scf.if` (at its top level)
    into chunks of CHUNK_IFS ifs, each chunk a block that branches to the next. Returns the number of cuts."""
    cuts = 0
    for fn in module.body.operations:
        if fn.operation.name == "func.func" and fn.regions[0].blocks:
            for block in list(fn.regions[0].blocks):
                cuts += _cut(block)
    return cuts


def _cut(block) -> int:
    ops = list(block.operations)
    ifs = [i for i, op in enumerate(ops) if op.operation.name == "scf.if"]
    if len(ifs) <= CHUNK_IFS:
        return 0
    starts = [ifs[k] for k in range(CHUNK_IFS, len(ifs), CHUNK_IFS)]  # each later chunk starts at an scf.if
    end, tail = len(ops), None  # `block` holds ops[:end], then `tail`: the branch to the chunk after them
    for start in reversed(starts):
        chunk = block.create_after()
        for op in ops[start:end]:
            chunk.append(op.operation)
        if tail is not None:
            chunk.append(tail.operation)
        with ir.Location.unknown(), ir.InsertionPoint(block):
            tail = cf.BranchOp([], chunk)
        end = start
    return len(starts)
