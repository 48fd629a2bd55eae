"""Private scalars folded into the array element their final value is stored to.

``w = A[i][j]; for (k < j) w -= A[i][k] * A[k][j]; A[i][j] = w / A[j][j];`` (PolyBench's ludcmp) keeps a
partial result in a scalar whose last value goes to one element. The scalar orders every (i, j) iteration
after the previous one, and even expanded (scalar_expansion.py) it must stay contracted, so each live range
runs whole: k stays innermost and the factorization cannot be blocked. Using the element itself for the
scalar gives ``for (k < j) A[i][j] -= A[i][k] * A[k][j]; A[i][j] = A[i][j] / A[j][j];``, which computes the same
values in the same order (every operation is the same; only where the intermediate values live changes) and
which isl schedules as it schedules lu (blocked, a wavefront of tiles).

The element A[f] replaces scalar s when, in the block B that holds the store ``A[f] = ... s ...`` of its last
value (F):

* every use of s lies in the ops of B from the first op touching s to F, and that first op writes s before
  anything reads it (a store, or an affine.if whose branches both store it first): no value of s flows from
  one execution of the range to another;
* no other access in the range (at any depth) can touch A[f]: their subscripts cannot equal f under the bounds
  of the loops around them (isl, as loop_context.ValueNames decides it), and no other view of A's storage is
  accessed there; so nothing observes the intermediate values in A[f], and a read of A[f]'s old value in the
  range is excluded;
* f's operands are defined before the range (they name the element from its start) and A's element type is
  s's.

A copy ``A[f] = A[f]`` left behind (the range's first store was ``s = A[f]``, or F stores s unchanged) is
removed. In code the stage keeps (a schedule that is not applied), scalar_promotion.promote_in carries the
element in a register through innermost loops again. This is the reverse of register promotion; PPCG and Pluto
work on the PolyBench sources that are written this way (lu, trisolv) to begin with.
"""

from __future__ import annotations

from mlir import ir
from mlir.dialects import affine

from polygeist_py.gpu_to_cpu.ir_nav import is_pure

from .loop_context import ValueNames
from .alias import VERSIONED
from .scop import LOAD, STORE, accesses, array_base, memref_and_indices

IF = "affine.if"


def fold(func, region_ops) -> int:
    """Fold every qualifying rank-0 scalar of the candidate region `region_ops` (after scop.demote_loop_state)
    into its destination element, in place; returns the number of scalars folded. Raises nothing: a scalar
    that does not qualify is left alone."""
    folded = 0
    progress = True
    while progress:  # a scalar copied into another one folds once the other one has (nussinov's best)
        progress = False
        for s in _scalars(region_ops):
            if _fold_one(s):
                folded += 1
                progress = True
                break
    return folded


def _scalars(region_ops) -> list:
    """Rank-0 memrefs from memref.alloca accessed in the region."""
    seen = []
    for op in region_ops:
        for access in accesses(op):
            mem = memref_and_indices(access)[0]
            if ir.MemRefType(mem.type).rank == 0 and not isinstance(mem.owner, ir.Block) and \
                    mem.owner.name == "memref.alloca" and not any(m == mem for m in seen):
                seen.append(mem)
    return seen


def _top_level(op, block):
    """The op of `block` (an ir.Operation) that is or contains `op`, or None."""
    o = op.operation
    while o is not None and o.name not in ("func.func", "builtin.module"):
        if o.block == block:
            return o
        o = o.parent
        o = o.operation if o is not None else None
    return None


def _in_original_copy(op) -> bool:
    """Whether `op` lies in the original loops kept for a failed run-time alias check (the else-branch of an
    alias_checks guard): they read and write the scalar the same way, but never run with the folded code."""
    o = op
    while o.parent is not None and o.parent.name != "func.func":
        parent = o.parent.operation
        if VERSIONED in parent.attributes and o.block.region == parent.regions[1]:
            return True
        o = parent
    return False


def _fold_one(s) -> bool:
    uses = [u.owner.operation for u in s.uses if not _in_original_copy(u.owner.operation)]
    if not uses or any(u.name not in (LOAD, STORE) for u in uses):
        return False
    last = _last_load([u for u in uses if u.name == LOAD], uses)
    if last is None:
        return False
    block = last.block
    ops = [op.operation for op in block.operations]
    position = {op: k for k, op in enumerate(ops)}
    final = _final_store(ops, position[last], last, s)
    if final is None:
        return False
    tops = [_top_level(u, block) for u in uses]
    start = min(position[t] for t in tops)
    end = position[final]
    if max(position[t] for t in tops) > end or not _written_first(ops[start], s):
        return False
    target = final.operands[1]
    if ir.MemRefType(target.type).rank == 0 or \
            ir.MemRefType(target.type).element_type != ir.MemRefType(s.type).element_type:
        return False
    indices = list(final.operands)[2:]
    if not all(_defined_before(v, block, position, start) for v in indices):
        return False
    base = array_base(target)
    for op in ops[start:end]:
        for access in accesses(op):
            mem = memref_and_indices(access)[0]
            if mem == s:
                continue
            if mem != target:
                if array_base(mem) == base:
                    return False  # another view of the same storage
                continue
            if not _distinct(access, final):
                return False
    amap = ir.AffineMapAttr(final.attributes["map"]).value
    element = ir.MemRefType(target.type).element_type
    for access in uses:
        with ir.InsertionPoint(access), access.location:
            if access.name == LOAD:
                new = affine.AffineLoadOp(element, target, indices, map=amap)
                access.results[0].replace_all_uses_with(new.result)
            else:
                affine.AffineStoreOp(access.operands[0], target, indices, map=amap)
        access.erase()
    _drop_self_copies(block, target)
    return True


def _last_load(loads, uses):
    """The load of s whose block holds (at some depth) every use of s and that comes last there: the read of
    s's final value. None when there is none."""
    best = None
    for ld in loads:
        if any(_top_level(u, ld.block) is None for u in uses):
            continue
        if best is None or (best.block == ld.block and best.is_before_in_block(ld)):
            best = ld
    return best


def _final_store(ops, k, load, s):
    """The first top-level affine.store after position k whose stored value is computed from `load` through
    pure top-level ops, and into another memref than s."""
    derived = {load.results[0]}
    for op in ops[k + 1:]:
        if op.name == STORE:
            if op.operands[0] in derived and op.operands[1] != s:
                return op
            continue
        if is_pure(op) and any(o in derived for o in op.operands):
            derived.update(op.results)
    return None


def _written_first(op, s) -> bool:
    """Whether `op` (the first op of the range) writes s before any read of it: a store to s, or an affine.if
    whose branches each begin their use of s with a top-level store to it."""
    if op.name == STORE:
        return op.operands[1] == s
    if op.name != IF or len(op.regions[1].blocks) == 0:
        return False
    for region in op.regions:
        for inner in region.blocks[0].operations:
            touches = [a for a in accesses(inner) if memref_and_indices(a)[0] == s]
            if not touches:
                continue
            if inner.name != STORE:
                return False
            break
        else:
            return False
    return True


def _defined_before(v, block, position, start) -> bool:
    owner = v.owner
    if isinstance(owner, ir.Block):
        return True  # a loop index (or function argument) of this block or one around it
    top = _top_level(owner.operation, block)
    return top is None or position[top] < start


def _distinct(access, final) -> bool:
    """Whether `access` can never touch the element `final` stores to (isl, under the loops around access)."""
    names = ValueNames()
    equal = [f"{a} = {b}" for a, b in zip(names.subscripts(access), names.subscripts(final))]
    return names.infeasible(equal + names.loop_bounds(access))


def _drop_self_copies(block, target):
    """Remove `target[f] = target[f]` stores in `block` whose load is the previous memory access."""
    for op in [o.operation for o in block.operations]:
        if op.name != STORE or op.operands[1] != target:
            continue
        src = op.operands[0].owner
        if isinstance(src, ir.Block) or src.name != LOAD or \
                memref_and_indices(src) != memref_and_indices(op) or \
                str(src.attributes["map"]) != str(op.attributes["map"]):
            continue
        src = src.operation
        if src.block != block:
            continue
        ops = [o.operation for o in block.operations]
        between = ops[ops.index(src) + 1:ops.index(op)]
        if all(is_pure(o) for o in between):
            op.erase()
            if not list(src.results[0].uses):
                src.erase()
