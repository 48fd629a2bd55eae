"""Keep upstream's `affine-scalrep` from erasing a load that still has uses.

affine-scalrep's redundant-load elimination (loadCSE in mlir/lib/Dialect/Affine/Utils/Utils.cpp, MLIR 22) walks
the loads of a function, replaces each by an equivalent load that dominates it with no write in between, and
erases the replaced loads after the walk. Its no-intervening-write test is not transitive: for three loads A, B, C
of one element, A dominating B dominating C, with a write to another element of the memref between A and B and C
in a nested region (an `scf.if`), A -> B and B -> C pass but A -> C does not (the dependence test gives up on an
access under an `scf.if`). So B is replaced by A, C by B, and B is erased while C's users still read it: LLVM
aborts with "operation destroyed but still has uses" (nettle's knuth-lfib.c: `x[0] = x[100]; if (x[100] & 1)
x[37] -= x[100];`).

The guard runs just before the pass and turns each such C into a `memref.load` (its indices from `affine.apply`),
which the pass does not touch; LLVM's GVN removes the redundant load later. A load is demoted when at least two
equivalent loads (same memref, map and operands) may dominate it and the nearest of them is in another block:
loads in one block see the same intervening ops, so the test is transitive there. Loads of a block of a
multi-block region count as dominating everything after their region's blocks (an over-approximation: a demoted
load only loses the early redundant-load elimination).
"""

from __future__ import annotations

from collections import defaultdict

from mlir import ir


def guard_redundant_loads(module: ir.Module) -> int:
    """Demote to `memref.load` the `affine.load`s of `module` that could make affine-scalrep crash (see the module
    docstring). Returns the number of loads demoted; the module stays valid and means the same."""
    demoted = 0
    for f in module.body.operations:
        if f.operation.name != "func.func":
            continue
        groups: dict = defaultdict(list)

        def visit(op):
            if op.name == "affine.load":
                key = (op.operands[0], str(op.attributes["map"]), tuple(op.operands[1:]))
                groups[key].append(op)
            return ir.WalkResult.ADVANCE

        f.operation.walk(visit, ir.WalkOrder.PRE_ORDER)
        index = _BlockIndex()
        hazards = [c for group in groups.values() if len(group) >= 3 for c in group
                   if _crash_risk(c, group, index)]
        for c in hazards:
            _demote(c)
        demoted += len(hazards)
    return demoted


class _BlockIndex:
    """Positions of ops in their blocks, each block numbered once (a function body may hold 50,000 ops)."""

    def __init__(self):
        self.blocks: dict = {}

    def __call__(self, op) -> int:
        block = op.block
        numbers = self.blocks.get(block)
        if numbers is None:
            numbers = self.blocks[block] = {o.operation: i for i, o in enumerate(block.operations)}
        return numbers[op]

    def chain(self, op):
        """[(block, index of op's ancestor in that block), ...] from `op` up to its function, innermost first."""
        chain = []
        while op.name != "func.func":
            chain.append((op.block, self(op)))
            op = op.block.owner.operation
        return chain


def _crash_risk(c, group, index) -> bool:
    """True when two loads of `group` other than `c` may dominate `c` and the nearest one is in another block."""
    chain = index.chain(c)
    nearest = []
    for b in group:
        if b == c:
            continue
        where = _dominance(b, chain, index)
        if where is not None:
            nearest.append(where)
    if len(nearest) < 2:
        return False
    depth, same_block, _ = min(nearest, key=lambda w: (w[0], -w[1], -w[2]))
    return not (depth == 0 and same_block)


def _dominance(b, chain, index):
    """Where `b` may dominate the op whose position is `chain`: (depth of the block from the op, 1 if that block is
    on the chain (0 for another block of the same region), b's index), or None."""
    b_block = b.block
    b_index = index(b)
    for depth, (block, index) in enumerate(chain):
        if block == b_block:
            return (depth, 1, b_index) if b_index < index else None
        if block.region == b_block.region:
            return (depth, 0, b_index)
    return None


def _demote(load) -> None:
    """Replace `load` (an affine.load) by a memref.load of the same element."""
    amap = ir.AffineMapAttr(load.attributes["map"]).value
    operands = list(load.operands[1:])
    with ir.InsertionPoint(load), load.location:
        indices = []
        for expr in amap.results:
            one = ir.AffineMap.get(amap.n_dims, amap.n_symbols, [expr])
            indices.append(ir.Operation.create("affine.apply", [ir.IndexType.get()], operands,
                                               {"map": ir.AffineMapAttr.get(one)}).result)
        new = ir.Operation.create("memref.load", [load.results[0].type], [load.operands[0]] + indices)
    load.results[0].replace_all_uses_with(new.result)
    load.erase()
