"""Warp-synchronous code on volatile shared memory: lockstep order for `volatile` stores to `__shared__` memory.

Code written for GPUs whose warps ran in lockstep reduces the last 64 values of a block without barriers, through
a volatile pointer (the CUDA samples' legacy reduction):

    if (tid < 32) { volatile float *v = sdata; v[tid] += v[tid + 32]; v[tid] += v[tid + 16]; ... }

Each statement loads for all 32 lanes, then stores for all of them. Run as a serial loop over threads, thread 0
would finish every statement before thread 16 starts, and read values not yet updated. CUDA no longer promises
lockstep (such code is a race under its rules), but programs rely on it, so each volatile store to shared memory
gets a warp-level barrier (gpu.barrier marked WARP_SYNC) before and after it: the loads of the statement happen
in every lane before any lane stores, and every lane's store before the next statement. Barrier elimination then
splits the thread loop there as for a warp shuffle (the condition around it need only be uniform within each
warp, `tid < 32`). A store inside a loop whose bounds are not the same for all threads keeps its order (no
barriers: such a loop cannot hold one), as does a volatile store to global memory.

The same code relies on lockstep at the end of a divergent `if` without `volatile` (Romberg integration's
per-row sums): `if (tid < 17) { ...; s[tid] = sum; }  if (tid == 0) { ... s[1] ... s[16] ... }`, no barrier
between. A warp reconverged after the first `if`, so thread 0 read the sums of lanes 1..16; run serially, thread
0 would read them before those lanes wrote them. So an `if` that stores to `__shared__` memory, followed in its
stretch (before the next barrier) by a load from `__shared__` memory, gets a warp-level barrier after it, where
the warp reconverged (order_divergent_shared_stores; only for an `if` that every thread of a warp reaches: one
in the thread loop itself, or in loops and `if`s whose bounds and conditions all threads share).

Lockstep also orders reads before writes: in a pipeline of threads (a cascade of filter sections, thread t
taking thread t-1's output), `x = s_out[t - 1]; ...; s_out[t] = y;` with a barrier only at the end of each
step reads every lane's previous value before any lane overwrites it. Run serially, thread t would read the
value thread t-1 wrote in the same step. So a store to a `__shared__` allocation that follows, in its stretch,
a load from the same allocation (views of `extern __shared__` memory are one) in an earlier statement gets a
warp-level barrier before that statement (order_shared_stores_after_loads; a copy between two arrays gets
none, nor a thread's update of the element it reads, `counts[bin][tid]++`): every thread loads, then every thread stores, as in lockstep warps (and
as the programs' own CPU references compute). Barrier elimination splits the whole thread loop at such a
barrier, which orders the lanes of all warps alike. A load that only reads what the same thread stores gets
none: one whose subscript in some dimension is the store's own subscript there, a value that differs between
any two threads (Rodinia lud's `peri_row[i][idx] -= dia[i][j] * peri_row[j][idx]`, column idx = threadIdx.x,
in a branch that half of the warp takes, where a warp-level barrier could not go).
"""

from __future__ import annotations

from mlir import ir
from mlir.dialects import gpu

from polygeist_py.frontend.calls import WARP_SYNC

from .ir_nav import collect, defined_inside, enclosing
from .launch_to_loops import DYNAMIC_SHARED, SHARED, is_thread_loop

VOLATILE = "pgcc.volatile"  # set by the frontend on memref stores through volatile lvalues (frontend/lvalues.py)
PASS_THROUGH = ("memref.cast", "memref.subview", "memref.reinterpret_cast", "memref.view",
                "builtin.unrealized_conversion_cast", "llvm.insertvalue", "llvm.inttoptr", "llvm.getelementptr",
                "arith.index_cast", "arith.index_castui", "memref.extract_aligned_pointer_as_index", "arith.addi",
                "memref.view")
STORES = ("memref.store", "affine.store", "llvm.store")
LOADS = ("memref.load", "affine.load", "llvm.load")


def order_volatile_shared_stores(module: ir.Module) -> None:
    """Put warp-level barriers around each volatile store to `__shared__` memory in a thread loop (in place)."""
    for store in collect(module.operation, _is_volatile_store):
        threads = enclosing(store, is_thread_loop)
        if threads is None or not _is_shared(store.operands[1]) or not _lockstep_reachable(store, threads):
            continue
        prev = _neighbour(store, -1)
        if prev is None or prev.name != "gpu.barrier":
            with store.location, ir.InsertionPoint(store):
                gpu.BarrierOp().attributes[WARP_SYNC] = ir.UnitAttr.get()
        with store.location, ir.InsertionPoint.after(store):
            gpu.BarrierOp().attributes[WARP_SYNC] = ir.UnitAttr.get()


def _is_volatile_store(op) -> bool:
    """A store through a volatile lvalue: a memref store the frontend marked, or a volatile llvm.store (a
    volatile element reached through raw bytes)."""
    if op.name in ("memref.store", "affine.store"):
        return VOLATILE in op.attributes
    return op.name == "llvm.store" and "volatile_" in op.attributes


def _is_shared(m) -> bool:
    """Whether memref or pointer `m` designates a `__shared__` allocation: followed back through views and through
    the raw pointer a `volatile float *v = sdata` conversion makes (aligned pointer -> int -> ptr -> memref)."""
    return _shared_base(m) is not None


def _shared_base(m):
    """The `__shared__` allocation (the op) that memref or pointer `m` designates (see _is_shared), or None."""
    todo, seen = [m], set()
    while todo and len(seen) < 64:
        v = todo.pop()
        if isinstance(v.owner, ir.Block) or v in seen:
            continue
        seen.add(v)
        op = v.owner
        if DYNAMIC_SHARED in op.attributes:  # (the launch's dynamic shared memory: extern __shared__ arrays)
            return op
        if op.name == "memref.alloca":
            if SHARED in op.attributes:
                return op
        elif op.name in PASS_THROUGH:
            todo += list(op.operands)
    return None


def _lockstep_reachable(op, threads) -> bool:
    """Whether every region between `op` and thread loop `threads` is an `if` or a loop whose bounds are defined
    outside the thread loop (the same for all threads), so that barriers may be placed at `op`."""
    p = op.operation.parent
    while p is not None and p != threads.operation:
        if p.name in ("scf.for", "affine.for"):
            if not all(_uniform(v, threads) for v in list(p.operands)[:3]):
                return False
        elif p.name not in ("scf.if", "affine.if"):
            return False
        p = p.parent
    return p is not None


def _uniform(v, threads, depth: int = 8) -> bool:
    """Whether value `v` is the same in every thread of thread loop `threads`: defined outside it, or computed
    inside it by arithmetic on such values (the inlined kernel converts its parameter `rounds` to the index
    bound of `for (s = 0; s < rounds; s++)` inside the thread loop). Thread ids are the loop's block arguments."""
    if not defined_inside(v, threads):
        return True
    if isinstance(v.owner, ir.Block) or depth == 0:
        return False
    op = v.owner
    if not (op.name.startswith("arith.") or op.name in ("llvm.mlir.constant", "llvm.sext", "llvm.zext",
                                                        "llvm.trunc")) or len(op.regions):
        return False
    return all(_uniform(x, threads, depth - 1) for x in op.operands)


def _neighbour(op, step):
    ops = list(op.operation.block.operations)
    i = next(k for k, o in enumerate(ops) if o.operation == op.operation) + step
    return ops[i] if 0 <= i < len(ops) else None


def order_divergent_shared_stores(module: ir.Module) -> None:
    """Put a warp-level barrier after each `if` of a thread loop that stores to `__shared__` memory when a load
    from `__shared__` memory follows it before the next barrier (in place; see the module's docstring)."""
    for threads in collect(module.operation, is_thread_loop):
        for guard in collect(threads, lambda o: o.name in ("scf.if", "affine.if")):
            if not _uniformly_reached(guard, threads) or not collect(guard, _is_shared_access(STORES)):
                continue
            nxt = _neighbour(guard, 1)
            if nxt is not None and nxt.name == "gpu.barrier":
                continue
            if _shared_load_follows(guard, threads):
                with guard.location, ir.InsertionPoint.after(guard):
                    gpu.BarrierOp().attributes[WARP_SYNC] = ir.UnitAttr.get()


def _is_shared_access(names):
    def pred(op) -> bool:
        if op.name not in names:
            return False
        ref = op.operands[1] if op.name in STORES else op.operands[0]
        return _is_shared(ref)
    return pred


def _uniformly_reached(op, threads) -> bool:
    """Whether every thread of the loop `threads` reaches `op`: only loops with bounds defined outside the thread
    loop lie between them (an enclosing `if` could leave some lanes of a warp out of a warp barrier)."""
    p = op.operation.parent
    while p is not None and p != threads.operation:
        if p.name == "scf.if":
            if not _uniform(p.operands[0], threads):
                return False
        elif p.name not in ("scf.for", "affine.for") or not all(_uniform(v, threads) for v in list(p.operands)[:3]):
            return False
        p = p.parent
    return p is not None


def _shared_load_follows(op, threads) -> bool:
    """Whether a load from `__shared__` memory follows `op` in the thread loop before a barrier (in `op`'s block,
    then in the blocks of the ops around it)."""
    load = _is_shared_access(LOADS)
    cur = op.operation
    while cur is not None and cur != threads.operation:
        ops = list(cur.block.operations)
        i = next(k for k, o in enumerate(ops) if o.operation == cur)
        for o in ops[i + 1:]:
            if o.name == "gpu.barrier" or collect(o, lambda x: x.name == "gpu.barrier"):
                return False
            if load(o) or collect(o, load):
                return True
        cur = cur.parent
    return False


def order_shared_stores_after_loads(module: ir.Module) -> None:
    """Put a warp-level barrier before each statement of a thread loop that stores to a `__shared__`
    allocation when an earlier statement of its stretch (same block, after the last barrier) loads from that
    allocation (in place; see the module's docstring). The statement is the store itself, or the loop around it
    whose bounds differ between threads (`if`s around it are fine: lockstep among the lanes that enter)."""
    store = _is_shared_access(STORES)
    for threads in collect(module.operation, is_thread_loop):
        anchors = []  # [(statement, [(store, the shared allocation it writes)])]
        for st in collect(threads, store):
            anchor = _statement_of(st, threads)
            if anchor is None:
                continue
            base = _shared_base(st.operands[1])
            for a, writes in anchors:
                if a.operation == anchor.operation:
                    writes.append((st, base))
                    break
            else:
                anchors.append((anchor, [(st, base)]))
        for anchor, writes in anchors:
            ops = list(anchor.operation.block.operations)
            i = next(k for k, o in enumerate(ops) if o.operation == anchor.operation)
            if i == 0 or ops[i - 1].name == "gpu.barrier":
                continue

            def same_memory(op, writes=writes, threads=threads):  # a load of memory another thread writes here
                if op.name not in LOADS or all(_same_address(op, st) for st, _ in writes):
                    return False  # (each thread reading the element it then writes: `s[v][tid]++`, no hazard)
                b = _shared_base(op.operands[0])
                return b is not None and any(b.operation == base.operation and
                                             not _own_element(op, st, threads) for st, base in writes)
            for o in reversed(ops[:i]):
                if o.name == "gpu.barrier" or collect(o, lambda x: x.name == "gpu.barrier"):
                    break
                if same_memory(o) or collect(o, same_memory):
                    with anchor.location, ir.InsertionPoint(anchor):
                        gpu.BarrierOp().attributes[WARP_SYNC] = ir.UnitAttr.get()
                    break


def _own_element(load, store, threads) -> bool:
    """Whether memref `load` reads only elements that the same thread's `store` writes, never another thread's:
    both index the same memref, and either the thread ids that their shared subscripts (the same SSA value in the
    same dimension) tell apart cover every thread dimension of `threads` with more than one thread, or some
    shared subscript depends on a thread id and the store's other subscripts are uniform (then a thread storing
    where this one loads would store where this one stores: a race lockstep does not order either)."""
    if load.name != "memref.load" or store.name != "memref.store" or load.operands[0] != store.operands[1]:
        return False
    ivs = list(threads.regions[0].blocks[0].arguments)
    uppers = list(threads.operands)[len(ivs):2 * len(ivs)]
    covered = {k for k, ub in enumerate(uppers) if _constant_one(ub)}
    distinct = set()
    pairs = list(zip(list(load.operands)[1:], list(store.operands)[2:]))
    for a, b in pairs:
        if a == b:
            distinct |= _thread_injective(a, ivs, threads)
    if len(covered | distinct) == len(ivs):
        return True
    return bool(distinct) and all(a == b or _uniform_subscript(b, threads) for a, b in pairs)


def _uniform_subscript(v, threads) -> bool:
    """_uniform, or the induction variable of a loop inside the thread loop whose bounds are uniform (every
    thread runs the same iterations: `for (i = 0; i < BLOCK_SIZE; i++)`)."""
    if not isinstance(v.owner, ir.Block):
        return _uniform(v, threads)
    loop = v.owner.owner
    return loop is not None and loop.name == "scf.for" and v == loop.regions[0].blocks[0].arguments[0] and \
        all(_uniform(x, threads) for x in list(loop.operands)[:3])


def _constant_one(v) -> bool:
    op = v.owner
    return not isinstance(op, ir.Block) and op.name == "arith.constant" and \
        ir.IntegerAttr(op.attributes["value"]).value == 1


def _thread_injective(v, ivs, threads, depth: int = 8) -> set:
    """The indices of the thread ids in `ivs` of which value `v` is a one-to-one function (the id itself, a cast
    of it, the id plus or minus a uniform value); empty when there is none."""
    for _ in range(depth):
        if isinstance(v.owner, ir.Block):
            return {k for k, iv in enumerate(ivs) if iv == v}
        op = v.owner
        if op.name in ("arith.index_cast", "arith.index_castui", "arith.extsi", "arith.extui"):
            v = op.operands[0]
        elif op.name in ("arith.addi", "arith.subi") and _uniform(op.operands[1], threads):
            v = op.operands[0]
        elif op.name == "arith.addi" and _uniform(op.operands[0], threads):
            v = op.operands[1]
        else:
            return set()
    return set()


def _same_address(load, store) -> bool:
    """Whether `load` reads the very element `store` writes (the same memref and index values, or the same
    pointer value): a thread updating its own element, which lockstep order does not concern (another thread
    writing that element would race with the store anyway)."""
    if load.name == "llvm.load" and store.name == "llvm.store":
        return load.operands[0] == store.operands[1]
    if load.name in ("memref.load", "affine.load") and store.name == load.name.replace("load", "store") \
            and "map" not in load.attributes:
        return list(load.operands) == list(store.operands)[1:]
    return False


def _statement_of(op, threads):
    """The ancestor of `op` (or `op`) where a warp-level barrier may go: `op` itself when only `if`s and loops
    with uniform bounds lie around it, else the innermost loop around it whose bounds differ between threads
    (a barrier goes before it); None when there is none."""
    chain, p = [op], op.operation.parent
    while p is not None and p != threads.operation:
        chain.append(p)
        p = p.parent
    if p is None:
        return None
    for cand in chain:
        if _lockstep_reachable(cand, threads):  # (inside an `if` that some lanes skip: lockstep among the others)
            return cand
    return None
