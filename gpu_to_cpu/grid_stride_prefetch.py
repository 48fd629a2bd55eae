"""Software prefetch of the next chunk of a grid-stride loop (a `--cpuify` optimization after the interchange).

After thread_loop_interchange.py a grid-stride loop of a block runs as

    while (j < n) { par (tx) { i = j + d(tx); if (i < n) { ... a[i] ... } }; j += gridDim.x * blockDim.x }

so one CPU thread reads a chunk of blockDim.x consecutive elements, then jumps over the chunks of all the other
blocks (48 blocks x 256 ints: 1 KB read, 48 KB skipped). Each chunk starts on a new page, where the hardware
stream prefetcher has to start over, and the loop stalls on the first lines of every chunk (a histogram of
100 MB spent half of its time on those loads). This pass prefetches the chunk of the next iteration while the
current one is processed: before the thread loop, ``for (q = 0; q < blockDim.x; q += line) prefetch(&a[i'])``
where i' is a's subscript with j replaced by j + stride and the thread id by q (other thread ids 0). It is
the classic software prefetching of strided streams (Mowry, Lam and Gupta, ASPLOS'92); a prefetch has no
effect on the program's results, also past the end of the array (no fault; the address may be any).

Only loads whose subscript is ``j + tx + (uniform)`` (contiguous in threadIdx.x, see unit_in) are prefetched,
one prefetch stream per array.
"""

from __future__ import annotations

from mlir import ir
from mlir.dialects import arith, memref, scf

from .barrier_elimination import _full_extent
from .ir_nav import collect, defined_inside, is_pure, loop_bounds
from .launch_to_loops import is_thread_loop
from .thread_loop_interchange import GRID_STRIDE, depends_on, unit_in

LINE_BYTES = 64


def prefetch_grid_stride_loops(module: ir.Module) -> None:
    """Add the prefetches to every while loop marked GRID_STRIDE in `module` (in place); raises nothing
    (loops and loads that do not match are left alone)."""
    for w in collect(module.operation, lambda o: o.name == "scf.while" and GRID_STRIDE in o.attributes):
        _prefetch_next_chunk(w)
        del w.attributes[GRID_STRIDE]


def _prefetch_next_chunk(w) -> None:
    k = ir.IntegerAttr(w.attributes[GRID_STRIDE]).value
    after = w.regions[1].blocks[0]
    ops = list(after.operations)
    j, j_next = after.arguments[k], ops[-1].operands[k]
    q = next((op for op in ops if is_thread_loop(op)), None)
    step = j_next.owner
    if q is None or isinstance(step, ir.Block) or step.name != "arith.addi" or any(
            defined_inside(o, w) and o != j for o in step.operands):
        return
    tx = q.regions[0].blocks[0].arguments[0]
    others = list(q.regions[0].blocks[0].arguments)[1:]
    seen = set()
    for load in collect(q, lambda o: o.name == "memref.load"):
        base, subs = load.operands[0], list(load.operands)[1:]
        elem = ir.MemRefType(base.type).element_type
        local = not isinstance(base.owner, ir.Block) and base.owner.name == "memref.alloca"
        if (len(subs) != 1 or local or defined_inside(base, q) or base in seen or not _bytes(elem)
                or not unit_in(subs[0], tx) or not depends_on(subs[0], j) or not _pure_in(subs[0], q, w)):
            continue
        seen.add(base)
        idx = ir.IndexType.get()
        with w.location, ir.InsertionPoint(q):
            extent = _full_extent(loop_bounds(q)[1][0])
            step = arith.constant(idx, max(1, LINE_BYTES // _bytes(elem)))
            sweep = scf.ForOp(arith.constant(idx, 0), extent, step)
            with ir.InsertionPoint(sweep.body):
                nxt = j_next.owner.clone(ip=ir.InsertionPoint.current)  # j + stride, as the loop's yield has it
                where = {j: nxt.results[0], tx: sweep.induction_variable}
                where.update({t: arith.constant(idx, 0) for t in others})
                sub = _clone_with(subs[0], where, q)
                memref.prefetch(base, [sub], is_write=False, locality_hint=3, is_data_cache=True)
                scf.YieldOp([])


def _bytes(elem) -> int:
    width = getattr(elem, "width", None)
    return width // 8 if width and width % 8 == 0 else 0


def _pure_in(v, q, w) -> bool:
    """v is computed inside loop w by pure ops only, from values defined outside w, w's carried index and q's
    thread ids (the values _clone_with can substitute)."""
    if not defined_inside(v, w):
        return True
    owner = v.owner
    if isinstance(owner, ir.Block):
        return owner in (w.regions[1].blocks[0], q.regions[0].blocks[0])
    return is_pure(owner) and all(_pure_in(o, q, w) for o in owner.operands)


def _clone_with(v, where, q):
    """A copy of pure expression v at the insertion point with the values in `where` substituted (thread ids
    are index values; a use through a cast gets the cast re-applied by the cloned cast op)."""
    if v in where:
        return where[v]
    if not defined_inside(v, q) and not any(depends_on(v, x) for x in where):
        return v
    op = v.owner
    operands = []
    for o in op.operands:  # first, so that the defining ops come before the clone
        new = _clone_with(o, where, q)
        if new.type != o.type:  # a thread id (index) standing where its cast to i32 was expected
            new = arith.index_cast(o.type, new)
        operands.append(new)
    clone = op.clone(ip=ir.InsertionPoint.current)
    for i, new in enumerate(operands):
        clone.operands[i] = new
    where[v] = clone.results[ir.OpResult(v).result_number]
    return where[v]
