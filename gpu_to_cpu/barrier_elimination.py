"""Barrier elimination: split each thread loop at its `gpu.barrier`s (loop fission) so that no barrier is left.

After launch_to_loops.py a block runs ``scf.parallel (tx, ty, tz) {pgcc.threads} { ... gpu.barrier ... }``.
A barrier means: every thread finishes the code before it before any thread runs the code after it. Splitting
the parallel loop there gives exactly that order (Polygeist, PPoPP'23, "barrier lowering by fission"):

* barrier at the top of the thread loop: ``par { A; barrier; B }`` -> ``par { A }; par { B }``;
* barrier inside ``scf.for``/``scf.while``/``scf.if`` whose bounds or condition are the same for all threads of
  the block (uniform): the control op is interchanged outward, ``par { A; for { C } ; B }`` ->
  ``par { A }; for { par { C } }; par { B }``, and the new inner thread loop is split in turn;
* barrier inside an ``scf.if`` on a per-thread condition with no else branch (e.g. the guard the frontend puts
  around the rest of a kernel after ``if (tid >= n) return;``): the if is split at the barrier,
  ``if (c) { A; barrier; B }`` -> ``if (c) { A }; barrier; if (c) { B }`` (threads that returned do not
  wait, as on a GPU);
* warp-level barriers (shuffles, votes, __syncwarp) in loops or conditions inside such an ``if`` (the first
  warp reducing per-warp partials: ``if (warp == 0) v = warp_sum(v)``): the if's effects are predicated op by
  op and the barriers and loops around them are left to the cases above (_predicate_guard); so are the
  __syncthreads() in loops inside the guard of an early return (_exit_guard);
* a barrier in a loop or condition whose control is not proven uniform: the control is counted over the block
  at run time (checked_uniformity.py: a while loop is rotated so that its condition is evaluated around
  barriers; a for loop whose bounds are not uniform first becomes such a while loop), and the program stops
  with the construct's position when threads disagree; control written to differ (`threadIdx.x < 16`, `t & 1`) is an error at compile time.

Values computed before a split point and used after it are either recomputed after it (pure arithmetic on
thread ids and uniform values) or stored per thread in a cache ``memref<dz x dy x dx x T>`` allocated once per
block. The set to store is a minimum vertex cut of the def-use graph between values that cannot be recomputed
(loads, calls, region results) and the uses after the split, as in Polygeist's min-cut caching (and Enzyme's
cache reduction). Loop-carried values of an interchanged loop that differ between threads live in such caches.
"""

from __future__ import annotations

from mlir import ir
from mlir.dialects import arith, llvm, memref, scf

from polygeist_py.errors import error_at_op
from polygeist_py.frontend.calls import WARP_SYNC
from polygeist_py.frontend.cuda_builtins import ACTIVE_LANE, BLOCK_UNIFORM, CUDA_CONSTANT, WARP_PUBLISH
from polygeist_py.frontend.stmts import WRITTEN_IF
from polygeist_py.max_flow import min_cut_source_side

from .checked_uniformity import checked_condition, differs_by_construction, for_to_while, rotate_while
from .ir_nav import (TRAPPING, body_ops, collect, defined_inside, enclosing, is_nested_in, is_pure,
                     loop_bounds, replace_uses_inside, within)
from .launch_to_loops import THREADS, is_block_loop, is_thread_loop, parallel_loop
from .pointer_caches import PointerCache, is_cacheable_pointer, load_pointer, new_pointer_cache, null_pointer, \
    store_pointer

CONTROL = ("scf.if", "scf.for", "scf.while")


def eliminate_barriers(module: ir.Module) -> None:
    """Remove every gpu.barrier from the thread loops of `module` by fission (in place).

    Raises:
        CompileError: a barrier under control flow that differs between the threads of a block, or a value
            that lives across a barrier and can neither be recomputed nor stored (e.g. a per-thread array).
    """
    work = collect(module.operation, lambda o: is_thread_loop(o) and _has_barrier(o))
    while work:
        work += _split_at_first_barrier(work.pop())
    left = collect(module.operation, lambda o: o.name == "gpu.barrier")
    if left:
        raise error_at_op(left[0], "unsupported construct: __syncthreads() outside a kernel's thread loop")


def _has_barrier(op) -> bool:
    return op.name == "gpu.barrier" or bool(collect(op, lambda o: o.name == "gpu.barrier"))


def _split_at_first_barrier(p) -> list:
    """One fission step on thread loop `p`; returns the thread loops that may still hold barriers."""
    x = next((op for op in body_ops(p) if _has_barrier(op)), None)
    if x is None:
        return []
    if x.name == "gpu.barrier":
        _split_before(p, x)
        x.erase()
        return [p]
    if x.name not in CONTROL:
        raise error_at_op(x, f"unsupported construct: __syncthreads() inside '{x.name}'")
    _hoist_uniform(p, stop=x)
    if x.name == "scf.if" and not _uniform(x.operands[0], p):
        x = _guard_in_then(x)
        if _barrier_at_top_of_then(x) and WRITTEN_IF not in x.attributes:  # the guard of an early `return`
            _distribute_guard(p, x)
        elif _needs_block_uniform(x) and not differs_by_construction(x.operands[0], p):
            # (made uniform by a count checked at run time)
            x.operands[0] = checked_condition(p, x.operands[0], x)
        else:
            _predicate_guard(x)
        return [p]
    if x.name == "scf.while" and not _while_state_to_caches(p, x, plan_only=True):
        rotate_while(p, x)  # its condition is now a count checked at run time, evaluated around barriers
        return [p]
    if x.name == "scf.for" and any(defined_inside(o, p) and not _uniform(o, p) for o in list(x.operands)[:3]):
        # bounds read per thread (knn's loop over tiles from __shared__ begin/end that every thread writes):
        # the same loop as a while whose condition is counted at run time
        rotate_while(p, for_to_while(x))
        return [p]
    return _interchange(p, x)


# ------------------------------------------------------------------------------------------- uniformity
def _uniform(v, p, assumed=frozenset()) -> bool:
    """True when `v` has the same value in every thread of loop `p`: defined outside it, in `assumed`, pure
    arithmetic on such values, a result of an `if` on such a condition whose branches yield such values, or a
    result of an op uniform by construction (BLOCK_UNIFORM: the count of __syncthreads_or)."""
    if v in assumed or not defined_inside(v, p):
        return True
    owner = v.owner
    if isinstance(owner, ir.Block):
        return False
    if BLOCK_UNIFORM in owner.attributes:
        return True
    if owner.name == "scf.if":  # the same branch in every thread, yielding the same value
        i = ir.OpResult(v).result_number
        yields = [list(r.blocks[0].operations)[-1] for r in owner.regions if len(r.blocks)]
        return _uniform(owner.operands[0], p, assumed) and all(_uniform(y.operands[i], p, assumed) for y in yields)
    if _reads_constant(owner, p):
        return all(_uniform(o, p, assumed) for o in owner.operands)  # `constexpr int BLOCK`, `__constant__` data
    if _uniform_address_load(owner, p, assumed):
        return True
    if owner.name == "memref.load" and not isinstance(owner.operands[0].owner, ir.Block) \
            and UNIFORM_CACHE in owner.operands[0].owner.attributes:
        return True
    if not is_pure(owner):
        return False
    return all(_uniform(o, p, assumed) for o in owner.operands)


LOADS = ("llvm.load", "memref.load", "affine.load")


def _uniform_address_load(op, p, assumed=frozenset()) -> bool:
    """A non-volatile load whose address is the same in every thread of loop `p` (its pointer or memref and
    indices are uniform): `k < 1 + boxes[blockIdx.x].nn` bounding a loop with barriers (Rodinia's lavaMD). Every
    thread reads the same location, so in a program without data races every thread reads the same value: a
    write to it by any thread between the barriers around the reads would race with the other threads' reads.
    (Memory private to a thread has a per-thread address: it is defined inside `p` or indexed by the thread.)
    A `__shared__` variable that threads of `p` write is not: each thread may read its own write (knn stores
    `begin_A = BLOCK_DIM * blockIdx.y` in every thread and reads it back as a loop bound, no barrier between)."""
    if op.operation.name not in LOADS or "volatile_" in op.attributes or "pgcc.volatile" in op.attributes:
        return False
    alloc = _shared_allocation(op.operands[0]) if op.operation.name != "llvm.load" else None
    if alloc is not None and _written_in(alloc.results[0], p):
        return False
    return all(_uniform(o, p, assumed) for o in op.operands)


def _written_in(m, p) -> bool:
    """Whether an op of thread loop `p` stores to memref `m` or takes it other than as a load's operand."""
    return any(is_nested_in(u.owner, p) and u.owner.operation.name not in ("memref.load", "affine.load")
               for u in m.uses)


def _reads_constant(op, p=None) -> bool:
    """A load from memory that nothing writes during the launch, as free to recompute or hoist as a pure op: a
    global marked constant (`constexpr int BLOCK`, `__constant__` data), or (given the thread loop `p`) a
    struct argument passed by value (`cfg.rounds`: a private copy that the launch only reads)."""
    name = op.operation.name
    if name in ("memref.load", "affine.load"):
        return _is_constant_global(op.operands[0]) or p is not None and _shared_unwritten_in(op.operands[0], p)
    if name == "llvm.load" and _constant_memory(_base(op.operands[0])):
        return True  # a field of a `__constant__` struct (heartwall's `d_common_change.frame_no`)
    return name == "llvm.load" and p is not None and _read_only_copy(op.operands[0], p)


def _constant_memory(ptr) -> bool:
    """Whether `ptr` is the `llvm.mlir.addressof` of a `__constant__` global (CUDA_CONSTANT)."""
    op = ptr.owner
    if isinstance(op, ir.Block) or op.operation.name != "llvm.mlir.addressof":
        return False
    g = _global_op(op, ir.FlatSymbolRefAttr(op.attributes["global_name"]).value)
    return g is not None and CUDA_CONSTANT in g.attributes


def _shared_unwritten_in(m, p) -> bool:
    """Whether memref `m` is a `__shared__` allocation of the block that no op of thread loop `p` writes and
    whose memref does not escape (used by loads and stores only): a flag a thread set before the last
    barrier (`if (am_last)`, `while (s_changed)`) then holds the same value for every thread throughout `p`."""
    alloc = m.owner
    if isinstance(alloc, ir.Block) or alloc.operation.name != "memref.alloca" or "pgcc.shared" not in alloc.attributes \
            or is_nested_in(alloc, p):
        return False
    for use in m.uses:
        kind = use.owner.operation.name
        if kind in ("memref.load", "affine.load"):
            continue
        if kind in ("memref.store", "affine.store") and use.owner.operands[1] == m and use.owner.operands[0] != m:
            if is_nested_in(use.owner, p):
                return False
            continue
        return False
    return True


def _read_only_copy(ptr, p) -> bool:
    """Whether `ptr` points into private memory that thread loop `p` only reads: an `llvm.alloca` made outside
    `p` (the copy a call makes of a by-value struct argument) or an argument passed `llvm.byval`, whose address
    does not escape (every use, through GEPs, is a load, or, outside `p`, a store or copy into it)."""
    ptr = _base(ptr)
    if defined_inside(ptr, p):
        return False
    if isinstance(ptr.owner, ir.Block):
        func = ptr.owner.owner
        if func.operation.name != "func.func" or "arg_attrs" not in func.attributes or "llvm.byval" not in \
                ir.DictAttr(ir.ArrayAttr(func.attributes["arg_attrs"])[ir.BlockArgument(ptr).arg_number]):
            return False
    elif ptr.owner.operation.name != "llvm.alloca":
        return False
    todo = [ptr]
    while todo:
        v = todo.pop()
        for use in v.uses:
            user = use.owner
            kind = user.operation.name  # (an OpView's .name may be an attribute)
            if kind == "llvm.getelementptr":
                todo.append(user.results[0])
            elif kind == "llvm.load":
                continue
            elif is_nested_in(user, p) or kind not in ("llvm.store", "llvm.intr.memcpy", "llvm.intr.memmove",
                                                               "llvm.intr.memset"):
                return False  # written during the launch, or its address escapes
            elif kind == "llvm.store" and user.operands[0] == v:
                return False  # the address itself is stored somewhere
    return True


def _is_constant_global(m) -> bool:
    """Whether memref value `m` is a `memref.get_global` of a global marked `constant` (nothing writes it, so
    every thread reads the same value at the same subscripts)."""
    get = m.owner
    if isinstance(get, ir.Block) or get.operation.name != "memref.get_global":  # (.name: the symbol)
        return False
    g = _global_op(get, ir.FlatSymbolRefAttr(get.attributes["name"]).value)
    return g is not None and ("constant" in g.attributes or CUDA_CONSTANT in g.attributes)


def _global_op(user, name):
    """The memref.global or llvm.mlir.global named `name` in the module of op `user` (None if absent)."""
    module = user.operation
    while module.name != "builtin.module":
        module = module.parent
    for op in module.regions[0].blocks[0].operations:
        if op.operation.name in ("memref.global", "llvm.mlir.global") and \
                ir.StringAttr(op.attributes["sym_name"]).value == name:
            return op
    return None


def _hoist_uniform(p, stop=None) -> None:
    """Move the pure top-level ops of `p` whose operands are defined outside it (up to `stop`) before `p`, and
    the stack copies every thread makes of the same values (uniform_spill): a small struct argument, which the
    C ABI passes in registers and the inlined kernel stores to its stack, is then one copy for the block."""
    spills, written = set(), False
    for op in body_ops(p):
        if stop is not None and op.operation == stop.operation:
            break
        outside = all(not defined_inside(o, p) for o in op.operands)
        name = op.operation.name
        if outside and (is_pure(op) or _reads_constant(op, p) or name == "llvm.alloca" and _uniform_spill(op, p)
                        or name == "llvm.store" and _base(op.operands[1]) in spills
                        or name in ("scf.if", "scf.for", "scf.while") and _pure_select(op, p)
                        # a load every thread makes at the same address before any thread writes memory in
                        # this stretch (`if (blockIdx.x >= params.count) return;` on a __constant__ struct)
                        or not written and _uniform_address_load(op, p)):
            op.move_before(p)
            if name == "llvm.alloca":
                spills.add(op.results[0])
        elif not (is_pure(op) or name in LOADS):
            written = True


def _pure_select(x, p) -> bool:
    """Whether scf.if, scf.for or scf.while `x` (its operands defined outside thread loop `p`) only computes
    values: pure ops on values defined in it or outside `p` (``c = (blockIdx.x == gridDim.x - 1) ? n % 8 : 8``,
    or Rodinia srad's `for (i = 2; i <= N; i *= 2) if (nf >= i) df = i;`, the bound of a later loop with
    barriers), so that one evaluation before `p` serves every thread."""
    for op in collect(x, lambda o: True):
        if not (is_pure(op) or op.operation.name in ("scf.yield", "scf.condition", "scf.if", "scf.for",
                                                     "scf.while")):
            return False
        if any(defined_inside(o, p) and not defined_inside(o, x) for o in op.operands):
            return False
    return True


def _base(ptr):
    """The pointer `ptr` is a GEP of (itself when it is none)."""
    while not isinstance(ptr.owner, ir.Block) and ptr.owner.operation.name == "llvm.getelementptr":
        ptr = ptr.owner.operands[0]
    return ptr


def _uniform_spill(alloca, p) -> bool:
    """Whether `llvm.alloca` `alloca` (at the top level of thread loop `p`) only receives, at that top level,
    stores of values defined outside `p`, and is otherwise only read (through GEPs): every thread then holds the
    same bytes in it at every point, so one copy before `p` serves all threads."""
    todo = [alloca.results[0]]
    while todo:
        v = todo.pop()
        for use in v.uses:
            user = use.owner
            kind = user.operation.name
            if kind == "llvm.getelementptr" and user.operands[0] == v:
                todo.append(user.results[0])
            elif kind == "llvm.load":
                continue
            elif kind == "llvm.store" and user.operands[1] == v and user.operands[0] != v:
                if user.operation.parent.operation != p.operation or defined_inside(user.operands[0], p):
                    return False  # a store under control flow, or of a per-thread value
            else:
                return False
    return alloca.operation.parent.operation == p.operation


# ------------------------------------------------------------------------------------------- caches
def _thread_ids(p) -> list:
    """The cache subscripts of the current thread in loop `p`: (tz, ty, tx)."""
    args = list(p.regions[0].blocks[0].arguments)
    return list(reversed(args))


CACHE, STATE = "pgcc.cache", "pgcc.state"  # written once before a split / updated by an interchanged loop
PTR_CACHE = "pgcc.pointer_cache"  # a cache of !llvm.ptr values, kept as i64 addresses
UNIFORM_CACHE = "pgcc.uniform_cache"  # a cache of a value that is the same in every thread of the block


def _recomputable(op) -> bool:
    """Pure ops, loads of constant globals, and reloads from write-once caches (reloading again is cheaper than
    caching twice)."""
    if is_pure(op) or _reads_constant(op):
        return True
    if op.name != "memref.load":
        return False
    src = op.operands[0].owner
    return not isinstance(src, ir.Block) and CACHE in src.attributes


def _new_cache(p, ty, kind=CACHE):
    """A per-thread cache memref<dz x dy x dx x ty>, allocated once per block (at the top of the block loop)."""
    if not _cacheable(ty):
        return None
    blocks = enclosing(p, is_block_loop)
    sizes = [_full_extent(v) for v in reversed(loop_bounds(p)[1])]
    first = list(blocks.regions[0].blocks[0].operations)[0]
    dyn = ir.ShapedType.get_dynamic_size()
    is_ptr = str(ty) == "!llvm.ptr"  # no memref of !llvm.ptr: the address as i64
    with p.location, ir.InsertionPoint(first):
        elem = ir.IntegerType.get_signless(64) if is_ptr else ty
        alloca = memref.AllocaOp(ir.MemRefType.get([dyn] * len(sizes), elem), sizes, [])
    alloca.attributes[kind] = ir.UnitAttr.get()
    if is_ptr:
        alloca.attributes[PTR_CACHE] = ir.UnitAttr.get()
    return alloca.result


def _full_extent(ub):
    """The block size behind a thread-loop bound that guard_narrowing.py narrowed to ``min(blockDim, b)``."""
    while not isinstance(ub.owner, ir.Block) and "pgcc.narrowed" in ub.owner.attributes:
        ub = ub.owner.operands[0]
    return ub


def _cache_or_fail(p, v, where, kind=CACHE):
    if is_cacheable_pointer(v, p):
        return new_pointer_cache(v.type, lambda ty: _new_cache(p, ty, kind))
    cache = _new_cache(p, v.type, kind)
    if cache is None:
        raise error_at_op(where, f"unsupported construct: a value of type '{v.type}' that lives across "
                                 "__syncthreads() and cannot be recomputed")
    return cache


def _mark_uniform_cache(cache) -> None:
    """Mark the allocas of `cache` UNIFORM_CACHE: every thread stores the same value in it."""
    for c in ([cache.base] + cache.parts if isinstance(cache, PointerCache) else [cache]):
        c.owner.attributes[UNIFORM_CACHE] = ir.UnitAttr.get()


def _store(v, cache, p):
    if isinstance(cache, PointerCache):
        return store_pointer(v, cache, _thread_ids(p))
    if str(v.type) == "!llvm.ptr":
        v = llvm.PtrToIntOp(ir.IntegerType.get_signless(64), v).result
    memref.StoreOp(v, cache, _thread_ids(p))


def _load(cache, p):
    if isinstance(cache, PointerCache):
        return load_pointer(cache, _thread_ids(p))
    v = memref.LoadOp(cache, _thread_ids(p)).result
    if PTR_CACHE in cache.owner.attributes:
        v = llvm.IntToPtrOp(ir.Type.parse("!llvm.ptr"), v).result
    return v


def _dummy(ty, before):
    """A uniform placeholder of type `ty` (the real per-thread value lives in a cache)."""
    with before.location, ir.InsertionPoint(before):
        if isinstance(ty, ir.FloatType):
            return arith.constant(ty, 0.0)
        if isinstance(ty, (ir.IntegerType, ir.IndexType)):
            return arith.constant(ty, 0)
        if str(ty) == "!llvm.ptr":
            return llvm.ZeroOp(ty).result
        if isinstance(ty, ir.MemRefType) and ir.MemRefType(ty).rank > 0:
            return null_pointer(ty)
    raise error_at_op(before, f"unsupported construct: per-thread value of type '{ty}' carried across "
                              "__syncthreads()")


# ------------------------------------------------------------------------------------------- fission
def _new_thread_loop_before(p, anchor):
    with p.location, ir.InsertionPoint(anchor):
        q, _ = parallel_loop(*loop_bounds(p), THREADS)
    return q


def _move_into(ops, q, p) -> None:
    """Move `ops` (from thread loop p) into thread loop q, re-binding p's thread ids to q's."""
    term = list(q.regions[0].blocks[0].operations)[-1]
    for op in ops:
        op.move_before(term)
    for old, new in zip(p.regions[0].blocks[0].arguments, q.regions[0].blocks[0].arguments):
        replace_uses_inside(old, new, q)


def _split_before(p, x) -> None:
    """Move the ops of `p` before `x` into a new thread loop in front of `p`; values they define that are used
    later in `p` are recomputed at the top of `p` or passed through per-thread caches."""
    ops = _ops_before(p, x)
    if not ops:
        return
    q = _new_thread_loop_before(p, p)
    _move_into(ops, q, p)
    _pass_values(q, p)


def _ops_before(p, x) -> list:
    """The top-level ops of thread loop `p` that precede its op `x`."""
    ops = []
    for op in body_ops(p):
        if op.operation == x.operation:
            break
        ops.append(op)
    return ops


def _pass_values(q, p) -> None:
    """Make the values defined at the top level of thread loop q and used in the later thread loop p available
    there: store the min-cut set per thread at the end of q, reload it and recompute the rest at the top of p."""
    top = body_ops(q)
    defined = {r: op for op in top for r in op.results}
    needed = [r for r in defined if _used_in(r, p)]
    if not needed:
        return
    stored, recompute = _min_cut(needed, defined, q)
    qterm = list(q.regions[0].blocks[0].operations)[-1]
    first = list(p.regions[0].blocks[0].operations)[0]
    mapping = dict(zip(q.regions[0].blocks[0].arguments, p.regions[0].blocks[0].arguments))
    for v in stored:
        cache = _cache_or_fail(p, v, defined[v])
        if _uniform(v, q):  # its reloads stay uniform (a pointer set in a branch and yielded by a later one)
            _mark_uniform_cache(cache)
        with defined[v].location, ir.InsertionPoint(qterm):
            _store(v, cache, q)
        with defined[v].location, ir.InsertionPoint(first):
            mapping[v] = _load(cache, p)
    for op in top:  # program order keeps operands before their users
        if any(r in recompute for r in op.results):
            clone = op.clone(ip=ir.InsertionPoint(first))
            for i, o in enumerate(op.operands):
                if o in mapping:
                    clone.operands[i] = mapping[o]
            for r, c in zip(op.results, clone.results):
                mapping[r] = c
    for v in needed:
        replace_uses_inside(v, mapping[v], p)


def _min_cut(needed, defined, q):
    """Choose which values to store: a minimum vertex cut between values that cannot be recomputed and the
    needed ones, over the pure-op def-use graph (each stored value costs 1; `q` is the thread loop defining
    them). Returns (stored, recomputed)."""
    nodes, work = set(), list(needed)
    while work:  # the values the needed ones may be recomputed from
        v = work.pop()
        if v in nodes:
            continue
        nodes.add(v)
        if _recomputable(defined[v]):
            work += [o for o in defined[v].operands if o in defined]
    inf = float("inf")
    cap: dict = {}

    def edge(a, b, c):
        cap.setdefault(a, {})[b] = cap.get(a, {}).get(b, 0) + c
        cap.setdefault(b, {}).setdefault(a, 0)

    storable = {v: _cacheable(v.type) or is_cacheable_pointer(v, q) for v in nodes}
    for v in nodes:
        if not storable[v] and not _recomputable(defined[v]):
            raise error_at_op(defined[v], f"unsupported construct: a per-thread value of type '{v.type}' (e.g. a "
                                          "local array) used across __syncthreads()")
    for v in nodes:
        # a pointer costs one cache per descriptor part (pointer_caches.py): recomputing it is usually cheaper
        cost = 1 if not isinstance(v.type, ir.MemRefType) else 2 + 2 * ir.MemRefType(v.type).rank
        edge(("in", v), ("out", v), cost if storable[v] else inf)
        op = defined[v]
        if _recomputable(op):
            for o in op.operands:
                if o in nodes:
                    edge(("out", o), ("in", v), inf)
        else:
            edge("S", ("in", v), inf)
    for v in needed:
        edge(("out", v), "T", inf)
    reach = min_cut_source_side(cap, "S", "T")
    stored = [v for v in nodes if ("in", v) in reach and ("out", v) not in reach]
    recompute, work = set(), [v for v in needed if v not in stored]
    while work:
        v = work.pop()
        if v in recompute or v in stored:
            continue
        recompute.add(v)
        work += [o for o in defined[v].operands if o in defined]
    order = {v: i for i, v in enumerate(defined)}
    return sorted(stored, key=order.get), recompute


def _cacheable(ty) -> bool:
    return isinstance(ty, (ir.IntegerType, ir.IndexType, ir.FloatType)) or str(ty) == "!llvm.ptr"


# ------------------------------------------------------------------------------------------- interchange
def _interchange(p, x) -> list:
    """Hoist uniform control op `x` (holding a barrier) out of thread loop `p`; its regions get their own
    thread loops. Returns the thread loops to process further."""
    if x.name == "scf.if":
        _results_to_caches(p, x)
    elif x.name == "scf.for":
        _for_state_to_caches(p, x)
    else:
        _while_state_to_caches(p, x)
    _split_before(p, x)
    _sink_prefix_into_regions(p, x)
    for i, o in enumerate(list(x.operands)):
        if defined_inside(o, p):
            outside = _uniform_outside(o, p)
            if outside is None:
                raise error_at_op(x, "unsupported construct: __syncthreads() or a warp intrinsic inside a loop or "
                                     "condition that differs between the threads of a block (non-uniform barrier)")
            x.operands[i] = outside
    x.move_before(p)
    inner = []
    regions = [1] if x.name == "scf.while" else range(len(x.regions))
    for r in regions:
        block = x.regions[r].blocks[0] if len(x.regions[r].blocks) else None
        if block is None or len(list(block.operations)) <= 1:
            continue
        ops = list(block.operations)[:-1]
        q = _new_thread_loop_before(p, list(block.operations)[-1])
        _move_into(ops, q, p)
        _hoist_uniform(q)
        term = list(block.operations)[-1]
        for i, o in enumerate(list(term.operands)):
            # a result of a uniform control op holding a barrier is fine: that op leaves q in its own turn
            if defined_inside(o, q) and not _is_interchanged_later(o):
                if not _uniform(o, q) or not (_cacheable(o.type) or is_cacheable_pointer(o, q)):
                    raise error_at_op(x, "internal: a loop-carried value was classified uniform but is per-thread")
                term.operands[i] = _through_uniform_cell(q, o, term)
        inner.append(q)
    return inner + [p]


def _uniform_outside(v, p):
    """Value `v` of thread loop `p`, recomputed before `p`, when it is pure arithmetic on values defined outside
    `p` and reloads of UNIFORM_CACHE caches (read at thread (0, 0, 0): every thread stored the same value), as
    the bound of Rodinia leukocyte's `for (tb = 0; tb < max; tb++)` with `max` from a load before the first
    barrier; None otherwise."""
    if not defined_inside(v, p):
        return v
    op = v.owner
    if isinstance(op, ir.Block) or op.regions and len(op.regions):
        return None
    if op.name == "memref.load" and not isinstance(op.operands[0].owner, ir.Block) \
            and UNIFORM_CACHE in op.operands[0].owner.attributes and not defined_inside(op.operands[0], p):
        with op.location, ir.InsertionPoint(p):
            zero = arith.constant(ir.IndexType.get(), 0)
            return memref.LoadOp(op.operands[0], [zero] * (len(op.operands) - 1)).result
    if not is_pure(op):
        return None
    operands = [_uniform_outside(o, p) for o in op.operands]
    if any(o is None for o in operands):
        return None
    clone = op.clone(ip=ir.InsertionPoint(p))
    for i, o in enumerate(operands):
        clone.operands[i] = o
    return clone.results[ir.OpResult(v).result_number]


def _through_uniform_cell(q, v, user):
    """Value `v`, defined at the top level of thread loop `q` and the same in every thread (the result of
    __syncthreads_or), as a value for `user` after `q`: every thread stores it in one cell of the block, which
    `user` reads after the thread loops."""
    blocks = enclosing(q, is_block_loop)

    def new_cell(ty):
        with q.location, ir.InsertionPoint(list(blocks.regions[0].blocks[0].operations)[0]):
            cell = memref.AllocaOp(ir.MemRefType.get([], ty), [], [])
        cell.attributes[STATE] = ir.UnitAttr.get()
        return cell.result

    if isinstance(v.type, ir.MemRefType):  # a pointer (heartwall's `d_in` set in a branch holding barriers)
        cells = new_pointer_cache(v.type, new_cell)
        with q.location, ir.InsertionPoint.after(v.owner):
            store_pointer(v, cells, [])
        with q.location, ir.InsertionPoint(user):
            return load_pointer(cells, [])
    cell = new_cell(v.type)
    with q.location, ir.InsertionPoint.after(v.owner):
        memref.StoreOp(v, cell, [])
    with q.location, ir.InsertionPoint(user):
        return memref.LoadOp(cell, []).result


def _is_interchanged_later(v) -> bool:
    owner = v.owner
    return not isinstance(owner, ir.Block) and owner.name in CONTROL and _has_barrier(owner)


def _results_to_caches(p, x) -> None:
    """Per-thread results of scf.if `x` go through caches: each branch stores, the code after x loads."""
    yields = [list(x.regions[r].blocks[0].operations)[-1] for r in range(2) if len(x.regions[r].blocks)]
    for i, res in enumerate(x.results):
        if all(_uniform(y.operands[i], p) for y in yields):
            continue
        cache = _cache_or_fail(p, res, x, STATE)
        dummy = _dummy(res.type, p)
        for y in yields:
            with x.location, ir.InsertionPoint(y):
                _store(y.operands[i], cache, p)
            y.operands[i] = dummy
        with x.location, ir.InsertionPoint.after(x):
            loaded = _load(cache, p)
        _replace_uses_except_in(res, loaded, x)


def _for_state_to_caches(p, x) -> None:
    """Loop-carried values of scf.for `x` that differ between threads move to per-thread caches."""
    body = x.regions[0].blocks[0]
    iv, args = body.arguments[0], list(body.arguments)[1:]
    y = list(body.operations)[-1]
    inits = list(x.operands)[3:]
    uniform = _uniform_carried(p, inits, lambda ok: frozenset([iv] + [args[j] for j in ok]),
                               lambda i, assumed: _uniform(y.operands[i], p, assumed))
    for i, arg in enumerate(args):
        if i not in uniform:
            _carry_in_cache(p, x, 3 + i, arg, body, i)


def _while_state_to_caches(p, x, plan_only=False) -> bool:
    """scf.while with a barrier: its condition must be uniform; carried values that differ between threads
    (passed through the condition unchanged, e.g. `v += __shfl_down_sync(..., v, off)`) move to caches.
    `plan_only`: change nothing, return whether the loop has that form (else checked_uniformity rotates it)."""
    before, after = x.regions[0].blocks[0], x.regions[1].blocks[0]
    cond, y = list(before.operations)[-1], list(after.operations)[-1]
    bargs, aargs, inits = list(before.arguments), list(after.arguments), list(x.operands)
    forwarded = list(cond.operands)[1:]  # to the body's arguments and the results (not always every carried value)

    def assumed_of(ok):
        carried = frozenset(bargs[j] for j in ok)
        return carried | frozenset(aargs[k] for k, v in enumerate(forwarded) if _uniform(v, p, carried))

    uniform = _uniform_carried(p, inits, assumed_of, lambda i, assumed: _uniform(y.operands[i], p, assumed))
    flags = _shared_flags_read_after_barrier(p, x)
    assumed = frozenset([bargs[i] for i in uniform]) | flags
    per_thread = [i for i in range(len(bargs)) if i not in uniform]
    ok = _uniform(cond.operands[0], p, assumed)
    ok = ok and all(is_pure(op) or _reads_constant(op, p) or op.results[0] in flags
                    or _uniform_address_load(op, p, assumed) for op in list(before.operations)[:-1])
    # a per-thread carried value is passed through the condition unchanged, at its own position
    ok = ok and all(i < len(forwarded) and forwarded[i] == bargs[i] and i < len(aargs)
                    and all(u.owner.operation == cond.operation for u in bargs[i].uses) for i in per_thread)
    ok = ok and all(_uniform(v, p, assumed) or k in per_thread and v == bargs[k] for k, v in enumerate(forwarded))
    if not ok and (not plan_only or differs_by_construction(cond.operands[0], p)):
        raise error_at_op(x, "unsupported construct: __syncthreads() or a warp intrinsic inside a loop or "
                             "condition that differs between the threads of a block (a while loop whose condition does)")
    if plan_only or not ok:
        return ok
    for i in per_thread:
        _carry_in_cache(p, x, i, aargs[i], after, i)
    return True


def _shared_flags_read_after_barrier(p, x) -> frozenset:
    """The loads in the condition of scf.while `x` (a loop of thread loop `p` holding a barrier) of `__shared__`
    variables that only `x`'s body writes, when the body ends with __syncthreads(): every thread then reads
    them right after a barrier (the one before the loop, which starts `p`, or the body's last), so all read the
    same value (`while (top < stop) { ...; if (tid == 0) top += n; __syncthreads(); }`, merge-path and
    work-list loops). Returns the loads' results."""
    body = list(x.regions[1].blocks[0].operations)
    if len(body) < 2 or body[-2].operation.name != "gpu.barrier" or WARP_SYNC in body[-2].attributes:
        return frozenset()
    out = set()
    for op in list(x.regions[0].blocks[0].operations)[:-1]:
        if op.operation.name not in ("memref.load", "affine.load", "llvm.load"):
            continue
        alloc = _shared_allocation(op.operands[0])
        if alloc is None or is_nested_in(alloc, p) or not all(_uniform(i, p) for i in list(op.operands)[1:]):
            continue
        if _written_only_in(alloc.results[0], p, x):
            out.add(op.results[0])
    return frozenset(out)


# ops through which a `__shared__` object's address is passed on (a `volatile` one is read and written with
# llvm.load/llvm.store volatile through its aligned pointer)
ADDRESS_CARRIERS = ("memref.extract_aligned_pointer_as_index", "arith.index_cast", "arith.index_castui",
                    "arith.addi", "llvm.inttoptr", "llvm.getelementptr", "memref.cast")


def _shared_allocation(v):
    """The `__shared__` memref.alloca whose address value `v` is (through ADDRESS_CARRIERS), else None."""
    for _ in range(8):
        owner = v.owner
        if isinstance(owner, ir.Block):
            return None
        name = owner.operation.name
        if name == "memref.alloca":
            return owner if "pgcc.shared" in owner.attributes else None
        if name not in ADDRESS_CARRIERS:
            return None
        v = owner.operands[0]
    return None


def _written_only_in(m, p, x) -> bool:
    """Whether every write to the object of memref `m` (through its address too) within thread loop `p` is in
    loop `x`, and its address goes nowhere but to loads and stores."""
    todo, seen = [m], set()
    while todo:
        v = todo.pop()
        for use in v.uses:
            user = use.owner
            kind = user.operation.name
            if kind in ("memref.load", "affine.load", "llvm.load"):
                continue
            if kind in ADDRESS_CARRIERS:
                for r in user.results:
                    if r not in seen:
                        seen.add(r)
                        todo.append(r)
                continue
            stored_to = kind in ("memref.store", "affine.store", "llvm.store") and use.operand_number == 1
            if stored_to and (not is_nested_in(user, p) or is_nested_in(user, x)):
                continue
            return False  # written elsewhere in the thread loop, or the address escapes
    return True


def _uniform_carried(p, inits, assumed_of, update_uniform) -> set:
    """Indices of the loop-carried values of a loop in thread loop `p` that are uniform: the greatest fixpoint
    of "the initial value is uniform and the update is, assuming the uniform carried values are"."""
    uniform = {i for i, v in enumerate(inits) if _uniform(v, p)}
    while True:
        assumed = assumed_of(uniform)
        keep = {i for i in uniform if update_uniform(i, assumed)}
        if keep == uniform:
            return uniform
        uniform = keep


def _carry_in_cache(p, x, operand, arg, body, i) -> None:
    """Move loop-carried value number `i` of loop `x` (initial value `x.operands[operand]`, block argument `arg`
    of the loop body `body`, yielded as operand i, result i) into a per-thread state cache: stored before the
    loop and at each yield, loaded at the top of the body and after the loop; the loop itself carries a
    uniform placeholder."""
    cache = _cache_or_fail(p, arg, x, STATE)
    y = list(body.operations)[-1]
    with x.location, ir.InsertionPoint(x):
        _store(x.operands[operand], cache, p)
    x.operands[operand] = _dummy(arg.type, p)
    with x.location, ir.InsertionPoint(list(body.operations)[0]):
        loaded = _load(cache, p)
    replace_uses_inside(arg, loaded, x)
    with x.location, ir.InsertionPoint(y):
        _store(y.operands[i], cache, p)
    y.operands[i] = arg
    with x.location, ir.InsertionPoint.after(x):
        final = _load(cache, p)
    _replace_uses_except_in(x.results[i], final, x)


def _distribute_guard(p, x) -> None:
    """``if (c) { A; barrier; B }`` with per-thread c and no else -> ``if (c) { A }; barrier; if (c) { B }``.
    Values of A used in B are recomputed in B (pure ops) or stored per thread before the barrier."""
    ops = list(x.regions[0].blocks[0].operations)
    k = next(i for i, op in enumerate(ops[:-1]) if op.name == "gpu.barrier")  # _barrier_at_top_of_then holds
    bar, head, tail = ops[k], ops[:k], ops[k + 1:-1]
    with x.location, ir.InsertionPoint.after(x):
        second = scf.IfOp(x.operands[0])
        with ir.InsertionPoint(second.then_block):
            yield_op = scf.YieldOp([])
    for op in tail:
        op.move_before(yield_op)
    # Last op first, each clone or reload placed at the top of B: an op is seen after every user of its
    # results (so a value used only by a recomputed op is still passed), and B receives them in program order.
    for op in reversed(head):
        first = ir.InsertionPoint.at_block_begin(second.then_block)
        if not any(_used_in(r, second) for r in op.results):
            continue
        if _recomputable(op):
            clone = op.clone(ip=first)
            for r, c in zip(op.results, clone.results):
                replace_uses_inside(r, c, second)
            continue
        for r in op.results:
            if _used_in(r, second):
                cache = _cache_or_fail(p, r, op)
                with op.location, ir.InsertionPoint(bar):
                    _store(r, cache, p)
                with op.location, first:
                    replace_uses_inside(r, _load(cache, p), second)
    bar.move_before(second)


def _needs_block_uniform(x) -> bool:
    """scf.if `x` (on a condition not proven uniform) holds a __syncthreads() (not only warp-level barriers)
    or barriers in both branches, and is not the guard of an early return: CUDA requires its condition to be
    the same in every thread of the block, which checked_uniformity verifies at run time."""
    block_wide = any(WARP_SYNC not in b.attributes for b in collect(x, lambda o: o.name == "gpu.barrier"))
    both = len(x.regions[1].blocks) and any(_has_barrier(op) for op in body_ops(x, 1))
    return bool((block_wide and not _exit_guard(x)) or both)


def _barrier_at_top_of_then(x) -> bool:
    """True for ``if (c) { A; barrier; B }`` without else and results: the form _distribute_guard splits."""
    return not _has_else(x) and not len(x.results) and any(op.name == "gpu.barrier" for op in body_ops(x))


def _exit_guard(x) -> bool:
    """An ``if`` the walker made (not written in the source) with nothing in its else branch: the guard around
    the rest of a kernel after a per-thread ``return`` (`if (x >= width) return;` then a call of a __device__
    function holding __syncthreads() in a loop: HeCBench morphology). A thread that has returned no longer
    holds a GPU block's barriers back, so predicating the guard's effects (_predicate_guard) is what it does
    here too, for block-wide barriers as for warp-level ones."""
    return WRITTEN_IF not in x.attributes and not _has_else(x)


def _guard_in_then(x):
    """The guard of an early return with its code in the then branch: the canonicalizer turns
    ``if (!r) { rest }`` into ``if (r) {} else { rest }`` when r is not a comparison it can invert (`if (x >= w ||
    y >= h) return;`, whose r is the result of the short-circuit `if`), which would then look like a written
    if with code in both branches. Such an unwritten if with an empty then branch becomes ``if (!r) { rest }
    else {}`` again (the yields swapped with their branches); any other `x` is returned as is."""
    if WRITTEN_IF in x.attributes or body_ops(x) or not _has_else(x):
        return x
    with x.location, ir.InsertionPoint(x):
        flipped = arith.xori(x.operands[0], arith.constant(ir.IntegerType.get_signless(1), 1))
        y = scf.IfOp(flipped, [r.type for r in x.results], has_else=True)
    for dst, src in ((y.then_block, x.regions[1].blocks[0]), (y.else_block, x.regions[0].blocks[0])):
        for op in list(src.operations):
            dst.append(op)
    for a, b in zip(x.results, y.results):
        a.replace_all_uses_with(b)
    x.erase()
    return y.operation


def _has_else(x) -> bool:
    """scf.if `x` has an else branch with ops besides its yield."""
    return bool(len(x.regions[1].blocks) and body_ops(x, 1))


def _predicate_guard(x) -> None:
    """``if (c) { A } else { E }`` on a per-thread c where A holds warp-level barriers (WARP_SYNC: shuffles,
    votes, __syncwarp) inside loops or conditions, e.g. ``if (warp == 0) v = warp_sum(v)`` -> A's ops run in
    every thread with each effect guarded: ``A' ; if (c) {} else { E }``. The barriers and the control of the
    loops around them run unguarded; every other op with memory effects or regions (and every division, which
    may trap on a value the thread does not use) runs under ``if (c)``; pure ops compute values that threads
    outside the guard never use. CUDA only asks the lanes of a warp to meet at a warp intrinsic, so a condition
    uniform within each warp is legal there; the lanes of the other warps now pass the barrier without taking
    part, as they would on a GPU. Results of x become ``select(c, A's value, E's value)``; the loops and
    conditions left around the barriers are then interchanged as usual (their control must be uniform). A
    __syncthreads() in A is an error (CUDA requires block-uniform control for it), except in the guard of an
    early return (_exit_guard)."""
    c = x.operands[0]
    block_wide = [b for b in collect(x, lambda o: o.name == "gpu.barrier") if WARP_SYNC not in b.attributes]
    if block_wide and not _exit_guard(x):
        raise error_at_op(x, "unsupported construct: __syncthreads() or a warp intrinsic inside a condition that "
                             "differs between the threads of a block (non-uniform barrier)")
    if len(x.regions[1].blocks) and any(_has_barrier(op) for op in body_ops(x, 1)):
        raise error_at_op(x, "unsupported construct: __syncthreads() or a warp intrinsic in both branches of a "
                             "condition that differs between the threads of a block (non-uniform barrier)")
    then_yield = list(x.regions[0].blocks[0].operations)[-1]
    ops = list(x.regions[0].blocks[0].operations)[:-1]
    for op in ops:
        op.move_before(x)
    _predicate_ops(ops, c)
    if len(x.results):
        values = list(then_yield.operands)
        for i, (r, v) in enumerate(zip(x.results, values)):
            then_yield.operands[i] = _dummy(r.type, x)
            with x.location, ir.InsertionPoint.after(x):
                chosen = arith.select(c, v, r)
            _replace_uses_except_in(r, chosen, x)
    elif not _has_else(x):
        x.erase()


def _safe_division(op) -> bool:
    """A division or remainder that cannot trap: its divisor is a constant other than 0 and -1 (`m /= 2` in a
    shuffle loop's control, which must stay the same in every thread)."""
    d = op.operands[1]
    if isinstance(d.owner, ir.Block) or d.owner.name != "arith.constant":
        return False
    attr = d.owner.attributes["value"]
    return isinstance(attr, ir.IntegerAttr) and ir.IntegerAttr(attr).value not in (0, -1)


def _predicate_ops(ops, c) -> None:
    """Guard the effects of `ops` (one block's ops, in order, terminator excluded) by c, grouping consecutive
    guarded ops into one ``if``; ops holding a barrier are entered instead (see _predicate_guard)."""
    run = []
    for op in ops + [None]:
        if op is not None and op.name != "gpu.barrier" and not _has_barrier(op) and not (
                is_pure(op) and (op.name not in TRAPPING or _safe_division(op))) and WARP_PUBLISH not in op.attributes:
            run.append(op)
            continue
        if run:
            _guard_run(run, c)
            run = []
        if op is None or op.name == "gpu.barrier" or not _has_barrier(op):  # (a warp exchange's store: unguarded)
            continue
        if op.name == "scf.while" and not all(is_pure(o) for o in body_ops(op, 0)):
            raise error_at_op(op, "unsupported construct: a loop condition with side effects around a warp "
                                  "intrinsic or __syncthreads() under a per-thread condition")
        if op.name not in CONTROL:
            raise error_at_op(op, f"unsupported construct: __syncthreads() inside '{op.name}'")
        for r in ([1] if op.name == "scf.while" else range(len(op.regions))):
            if len(op.regions[r].blocks):
                _predicate_ops(body_ops(op, r), c)


def _guard_run(run, c) -> None:
    """Move the consecutive ops `run` into ``if (c)``; their results used after it become its results (a
    placeholder in threads where c is false)."""
    first = run[0]
    escaping = [r for o in run for r in o.results
                if any(not any(within(u.owner, o2) for o2 in run) for u in r.uses)]
    with first.location, ir.InsertionPoint(first):
        guard = scf.IfOp(c, [r.type for r in escaping], has_else=bool(escaping))
        with ir.InsertionPoint(guard.then_block):
            then_yield = scf.YieldOp(escaping)
        if escaping:
            dummies = [_dummy(r.type, guard) for r in escaping]
            with ir.InsertionPoint(guard.else_block):
                scf.YieldOp(dummies)
    for o in run:
        o.move_before(then_yield)
    for r, new in zip(escaping, guard.results):
        for use in list(r.uses):
            if not within(use.owner, guard):
                use.owner.operands[use.operand_number] = new


def resolve_active_lanes(module: ir.Module) -> None:
    """Replace each call @__pgcc_active_lane() left after barrier elimination by true (the lane reaches the warp
    intrinsic that made it; where a per-thread condition guards it, predication made it false in the lanes
    that do not: cuda_builtins.WARP_PUBLISH) and drop its declaration."""
    for call in collect(module.operation, lambda o: o.name == "func.call"
                        and ir.FlatSymbolRefAttr(o.attributes["callee"]).value == ACTIVE_LANE):
        with call.location, ir.InsertionPoint(call):
            call.results[0].replace_all_uses_with(arith.constant(ir.IntegerType.get_signless(1), 1))
        call.erase()
    for op in list(module.body.operations):
        if op.operation.name == "func.func" and ir.StringAttr(op.attributes["sym_name"]).value == ACTIVE_LANE:
            op.operation.erase()


def _used_in(v, scope) -> bool:
    return any(within(u.owner, scope) for u in v.uses)


def _replace_uses_except_in(v, new, x) -> None:
    """Replace the uses of `v` outside `x` (and outside the op defining `new`) with `new`."""
    for use in list(v.uses):
        owner = use.owner
        if not within(owner, x) and owner.operation != new.owner.operation:
            owner.operands[use.operand_number] = new


def _sink_prefix_into_regions(p, x) -> None:
    """After a split, the top of `p` holds the reloads/recomputations; copy them into the regions of `x` that
    use them (x is about to leave p) and keep them after x for the rest of p."""
    for op in reversed(_ops_before(p, x)):
        for region in x.regions:
            if not len(region.blocks):
                continue
            block = region.blocks[0]
            if not any(_used_in_block(r, block) for r in op.results):
                continue
            clone = op.clone(ip=ir.InsertionPoint(list(block.operations)[0]))
            for r, c in zip(op.results, clone.results):
                _replace_uses_in_block(r, c, block)
        if all(not list(r.uses) for r in op.results):
            op.erase()
        else:
            op.move_after(x)


def _used_in_block(v, block) -> bool:
    owner_op = block.owner
    return any(_in_block(u.owner, block, owner_op) for u in v.uses)


def _in_block(op, block, owner_op) -> bool:
    """True when `op` is in `block` (a block of owner_op's regions) or nested in an op of it."""
    if not is_nested_in(op, owner_op):
        return False
    o = op.operation
    while o.operation != owner_op.operation:
        if o.block == block:
            return True
        o = o.parent
    return False


def _replace_uses_in_block(v, new, block) -> None:
    owner_op = block.owner
    for use in list(v.uses):
        if _in_block(use.owner, block, owner_op):
            use.owner.operands[use.operand_number] = new

