"""Per-thread storage for the local variables and small local arrays of a kernel that live across a barrier.

A local whose address is taken (`int acc; add(&acc, v);`) or a local array (`float r[4];`) is a
`memref.alloca` in the thread loop. When its contents are needed on both sides of a `__syncthreads()`, barrier
fission (barrier_elimination.py) cannot pass it from one thread loop to the next as it passes scalars (a memref
is not a value it can store in a per-thread cache), and the object itself must survive the split once per
thread. As in Polygeist's GPU-to-CPU lowering (PPoPP'23: values live across a barrier get per-thread
allocations), such objects move to one byte buffer per block, `memref<(dz*dy*dx*slot) x i8>`, allocated at the
top of the block loop; thread (tz, ty, tx) uses the `slot` bytes at ((tz*dy + ty)*dx + tx) * slot through a
`memref.view` of the same type as the old alloca. The view is pure arithmetic on the thread ids, so fission
recomputes it in every thread loop it is used in, and every thread sees its own object in all of them.

Objects that do not live across a barrier stay in the thread loop, moved next to their first use so that fission
keeps them with their uses (the inliner puts allocas at the top; a local array used after the last barrier only
was an error); alloca_hoisting.py later reuses one object per block for them, which is cheaper. Variable-length arrays and elements without a byte layout (i1, pointers) are left
alone too: barrier elimination still reports them as errors.
"""

from __future__ import annotations

from mlir import ir
from mlir.dialects import arith, memref

from .ir_nav import collect, defined_inside, enclosing, is_pure, loop_bounds
from .launch_to_loops import SHARED, is_block_loop, is_thread_loop

# ops that only read or write through an address (their position is where the object is used)
_ACCESSES = {"memref.load", "memref.store", "affine.load", "affine.store", "llvm.load", "llvm.store",
             "llvm.intr.memcpy", "llvm.intr.memmove", "llvm.intr.memset", "memref.atomic_rmw",
             "memref.generic_atomic_rmw", "memref.copy", "func.call", "llvm.call", "vector.load", "vector.store",
             "vector.transfer_read", "vector.transfer_write", "affine.vector_load", "affine.vector_store"}


def privatize_allocas_across_barriers(module: ir.Module) -> int:
    """Move each fixed-size `memref.alloca` of a thread loop (with barriers) whose object is used on both sides
    of a barrier to a per-thread slot of a per-block buffer (in place; see the module docstring).

    Args:
        module: the module after launch_to_loops.py (block loops around thread loops, kernels inlined, barriers
            still present).

    Returns:
        The number of allocas privatized.
    """
    done = 0
    for threads in collect(module.operation, is_thread_loop):
        barriers = collect(threads, lambda o: o.name == "gpu.barrier")
        blocks = enclosing(threads, is_block_loop)
        if not barriers or blocks is None or not _simple_bounds(threads, blocks):
            continue
        for op in collect(threads, lambda o: o.name == "memref.alloca" and SHARED not in o.attributes):
            if enclosing(op, is_thread_loop) != threads or len(op.operands):
                continue  # another launch's loop, or a variable-length array
            slot = _slot_bytes(ir.MemRefType(op.results[0].type), op)
            if slot is None:
                continue
            first = _live_across(op, threads, barriers)
            if first is True:
                _privatize(op, threads, blocks, *slot)
                done += 1
            elif first is not None and op.operation.parent.operation == threads.operation:
                op.move_before(first)  # used between two barriers only: stays with its uses when fission splits
    return done


def _simple_bounds(threads, blocks) -> bool:
    """Thread loop from 0 by 1, its bounds available at the top of the block loop."""
    lbs, ubs, steps = loop_bounds(threads)
    return all(_constant_int(v) == 0 for v in lbs) and all(_constant_int(v) == 1 for v in steps) and \
        all(not defined_inside(v, blocks) or _constant_int(v) is not None for v in ubs)


def _constant_int(v):
    if isinstance(v.owner, ir.Block) or v.owner.name not in ("arith.constant", "llvm.mlir.constant"):
        return None
    attr = v.owner.attributes["value"]
    return ir.IntegerAttr(attr).value if isinstance(attr, ir.IntegerAttr) else None


def _slot_bytes(mtype, op):
    """(bytes of one thread's slot, its alignment) for a static identity-layout memref type, else None."""
    identity = str(ir.AffineMapAttr.get(ir.AffineMap.get_identity(mtype.rank)))
    if not mtype.has_static_shape or str(mtype.layout) != identity:
        return None
    elem = mtype.element_type
    lanes = 1
    if isinstance(elem, ir.VectorType):
        lanes = 1
        for d in elem.shape:
            lanes *= d
        elem = elem.element_type
    if isinstance(elem, ir.IndexType):
        width = 8
    elif isinstance(elem, (ir.IntegerType, ir.FloatType)) and elem.width % 8 == 0:
        width = elem.width // 8
    else:
        return None
    size = width * lanes
    align = 1
    while align < min(size, 16):
        align *= 2
    if "alignment" in op.attributes:
        align = max(align, ir.IntegerAttr(op.attributes["alignment"]).value)
    count = 1
    for d in mtype.shape:
        count *= d
    total = max(size * count, 1)
    return (total + align - 1) // align * align, align


def _top(op, threads):
    """The ancestor of `op` (or op itself) at the top level of thread loop `threads`."""
    op = op.operation
    while op.parent != threads.operation:
        op = op.parent
    return op


def _live_across(alloca, threads, barriers):
    """True when a barrier of `threads` may separate two uses of the alloca's object (through views, casts and
    addresses computed from it), judged on the top-level ops of the thread loop: a barrier strictly between the
    first and the last use, or one inside a top-level op that holds a use (a loop or condition around the
    barrier). Where the alloca itself sits does not matter (the inliner moves allocas to the entry block). An
    address that escapes into memory or control flow counts as used up to the end of the thread loop. Otherwise
    the top-level op holding the first use (None without uses)."""
    body = list(threads.regions[0].blocks[0].operations)
    index = {op.operation: i for i, op in enumerate(body)}
    holding = {index[_top(b, threads)] for b in barriers}
    uses, todo, seen = [], [alloca.results[0]], set()
    while todo:
        v = todo.pop()
        for use in v.uses:
            user = use.owner
            name = user.operation.name
            at = index[_top(user, threads)]
            if at in holding:
                return True
            uses.append(at)
            if is_pure(user):
                for r in user.results:
                    if r not in seen:
                        seen.add(r)
                        todo.append(r)
            elif name in ("llvm.store", "memref.store", "affine.store") and use.operand_number == 0:
                uses.append(len(body))  # the address itself is stored: it may be used anywhere later
            elif name not in _ACCESSES:
                uses.append(len(body))  # yielded out of a region or otherwise escaping
    if not uses:
        return None
    if any(min(uses) < h < max(uses) for h in holding):
        return True
    return body[min(uses)]


def _privatize(alloca, threads, blocks, slot, align) -> None:
    """Replace `alloca` by a view of thread (tz, ty, tx)'s slot of a new per-block buffer."""
    index_t, i8 = ir.IndexType.get(), ir.IntegerType.get_signless(8)
    ubs = loop_bounds(threads)[1]
    first = list(blocks.regions[0].blocks[0].operations)[0]
    consts = [_constant_int(v) for v in ubs]
    with alloca.location, ir.InsertionPoint(first):
        if all(c is not None for c in consts):
            n = slot
            for c in consts:
                n *= c
            buf = memref.AllocaOp(ir.MemRefType.get([n], i8), [], [], alignment=max(align, 16)).result
        else:
            n = arith.constant(index_t, slot)
            for v in ubs:
                n = arith.muli(n, v if not defined_inside(v, blocks) else v.owner.clone().results[0])
            buf = memref.AllocaOp(ir.MemRefType.get([ir.ShapedType.get_dynamic_size()], i8), [n], [],
                                  alignment=max(align, 16)).result
    with alloca.location, ir.InsertionPoint(alloca):
        args = list(threads.regions[0].blocks[0].arguments)  # (tx, ty, tz)
        linear = args[-1]
        for d in range(len(args) - 2, -1, -1):
            linear = arith.addi(arith.muli(linear, ubs[d]), args[d])
        shift = arith.muli(linear, arith.constant(index_t, slot))
        view = memref.ViewOp(alloca.results[0].type, buf, shift, []).result
    alloca.results[0].replace_all_uses_with(view)
    alloca.erase()
