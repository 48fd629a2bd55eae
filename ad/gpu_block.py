"""Block-level device code in reverse mode: barriers, the shadows of __shared__ memory, and which adjoint
accumulations several threads may race on (Enzyme's GPU form, Moses et al. SC'21, sec. 4).

Device code is differentiated per thread before --cpuify (ad/api_calls.py `device_code_only`), so the derivative
of a __device__ function is the code of one thread; what makes it right for a block of threads:

  * ``gpu.barrier`` (__syncthreads) is kept by the forward sweep and mirrored in the reverse sweep: the reversal
    of the ops between two barriers runs between the two mirrored barriers, so an adjoint another thread
    accumulates is complete before a thread reads it (the reverse of a value written before a barrier and read
    by other threads after it);
  * the shadow of a ``memref.alloca {pgcc.shared}`` is itself a shared allocation (cpuify allocates it once per
    block), zeroed by the threads of the block, each its part, and followed by a barrier before any thread
    accumulates into it (forward mode: tangents are stored wherever the primal stores, so the tangent memory is
    not zeroed, as the primal's is not); an ``extern __shared__`` array (sized by the launch) gets memory that
    the block's thread 0 allocates zeroed and publishes through a shared pointer (`dynamic_shared_shadow`);
  * an adjoint accumulated into a shadow is atomic unless no two threads can reach the same element: always for
    shared memory (free after --cpuify, which runs a block's threads in one CPU thread) and globals, never for
    thread-local memory, and for memory behind a pointer argument unless the pointer and its shadow are the same
    in every thread (`uniform_parameters`, at the Enzyme call) and every access of the function to that
    argument uses the same index, one that is injective in the thread ids (`private_condition`), guarded at run
    time by the launch shape it needs (one-dimensional grids and blocks for ``blockIdx.x * blockDim.x +
    threadIdx.x``); adjoints of one fixed element that every thread reads are summed by the block first
    (`_defer_to_block_sum`);
  * what --cpuify must see as uniform or per thread: the reverse of a while loop around a barrier counts its
    trips in a loop-carried value of the forward sweep (`while_count`), and the reverse sweep's counters, cache
    pointers and small local arrays that live across barriers are rows of per-block arrays indexed by the
    thread (`keep_slots_per_thread`).
"""

from __future__ import annotations

from mlir import ir
from mlir.dialects import arith, gpu, memref, scf

from polygeist_py.errors import error_at_op

from .activity import ALLOCS, MALLOCS, PLUMBING, all_ops, is_float

SHARED = "pgcc.shared"
DIMS = "xyz"


def is_shared_alloc(op) -> bool:
    """Whether `op` is a __shared__ allocation (``memref.alloca {pgcc.shared}``)."""
    return op.operation.name == "memref.alloca" and SHARED in op.attributes


def hoist_shared_allocations(f) -> None:
    """Move the __shared__ allocations of primal copy `f` (``memref.alloca {pgcc.shared}`` and the calls that stand
    for ``extern __shared__`` arrays) that inlining left inside loops or branches to the start of its body: a
    __shared__ variable is static, one per block wherever it is declared (--cpuify allocates it so), and the
    reverse sweep reads it and its shadow outside the region that declared it."""
    entry = f.regions[0].blocks[0]
    first = list(entry.operations)[0]
    for op in all_ops(f):
        if (is_shared_alloc(op) or is_dynamic_shared(op)) and not len(op.operands) and \
                op.operation.parent.name != "func.func":
            op.operation.move_before(first)


def barrier_rule(rv, op) -> None:
    """gpu.barrier in the reverse sweep: a barrier at the mirrored position (the forward sweep keeps its own);
    a copy, so that a warp-level exchange's barrier (frontend/cuda_builtins.py WARP_SYNC) stays one."""
    op.clone()


def contains_barrier(op) -> bool:
    """Whether `op` is or contains a gpu.barrier."""
    return op.operation.name == "gpu.barrier" or any(o.name == "gpu.barrier" for o in all_ops(op))


# ---------------------------------------------------------------------------------------------- shared shadows
def linear_thread_id():
    """(linear id of the thread in its block, threads per block) as index values, at the insertion point."""
    t = [gpu.thread_id(getattr(gpu.Dimension, d)) for d in DIMS]
    b = [gpu.block_dim(getattr(gpu.Dimension, d)) for d in DIMS]
    lin = arith.addi(t[0], arith.muli(b[0], arith.addi(t[1], arith.muli(b[1], t[2]))))
    return lin, arith.muli(b[0], arith.muli(b[1], b[2]))


def zero_by_the_block(mem) -> None:
    """Store 0 in every element of statically shaped memref `mem`, the block's threads sharing the elements
    (thread k zeroes the elements k, k + threads, ...), at the insertion point."""
    mt = ir.MemRefType(mem.type)
    idx = ir.IndexType.get()
    et = mt.element_type
    z = arith.constant(et, 0.0) if isinstance(et, (ir.F32Type, ir.F64Type, ir.F16Type, ir.BF16Type)) \
        else arith.constant(et, 0)
    total = 1
    for s in mt.shape:
        total *= s
    lin, nthreads = linear_thread_id()
    loop = scf.ForOp(lin, arith.constant(idx, total), nthreads)
    with ir.InsertionPoint(loop.body):
        k = loop.induction_variable
        ivs = []
        for d in reversed(range(mt.rank)):  # row-major delinearization
            size = arith.constant(idx, mt.shape[d])
            ivs.append(arith.remui(k, size) if d else k)
            k = arith.divui(k, size)
        memref.store(z, mem, list(reversed(ivs)))
        scf.YieldOp([])


def shared_shadow(rv, owner, scope):
    """The shadow of __shared__ allocation `owner` for the reverse sweep: a shared allocation of the same type,
    zeroed by the block and then a barrier, at the start of the reverse sweep (one per block, like the primal's:
    a __shared__ variable is static, also when declared, or inlined, inside a loop or branch).

    Args:
        rv: the ad.reverse.Reverse building the derivative; owner: the primal memref.alloca {pgcc.shared};
        scope: the function's reverse scope (the shadow is made before its sentinel).
    Raises:
        CompileError: a shared allocation of a dynamic shape.
    """
    if not ir.MemRefType(owner.results[0].type).has_static_shape:
        raise error_at_op(owner, "unsupported construct: differentiating __shared__ memory of a dynamic size")
    with ir.InsertionPoint(scope.sentinel), owner.location:
        new = owner.clone()
        zero_by_the_block(new.results[0])
        gpu.BarrierOp()
    return new.results[0]


def is_dynamic_shared(op) -> bool:
    """Whether `op` is the frontend's call that stands for an ``extern __shared__`` array (sized by the launch)."""
    from polygeist_py.gpu_to_cpu.launch_to_loops import DYNAMIC_SHARED
    return op.operation.name == "func.call" and \
        ir.FlatSymbolRefAttr(op.attributes["callee"]).value.startswith(DYNAMIC_SHARED)


def dynamic_shared_shadow(d, mem, loc, finals):
    """The shadow (reverse mode) or tangent memory (forward mode) of an ``extern __shared__`` array `mem` (the
    derivative's memref<?xT>, of the launch's dynamic size), at the insertion point, which must be at the
    function's top level: thread 0 of the block allocates it zeroed (calloc) and publishes the pointer through a
    __shared__ slot, a barrier, every thread reads it. Appended to `finals`: the code that frees it at the end of
    the derivative, after a barrier (every thread is done with it).

    Args:
        d: the Reverse/Forward building the derivative (for its libc calls); mem: the memref; loc: a location.
    """
    from .cache import memref_of, elem_bytes
    mt = ir.MemRefType(mem.type)
    idx, i64 = ir.IndexType.get(), ir.IntegerType.get_signless(64)
    ptr = ir.Type.parse("!llvm.ptr")
    from mlir.dialects import llvm
    with loc:
        n = memref.dim(mem, arith.constant(idx, 0))
        slot = memref.AllocaOp(ir.MemRefType.get([], i64), [], [])
        slot.attributes[SHARED] = ir.UnitAttr.get()
        lin, _ = linear_thread_id()
        first = arith.cmpi(arith.CmpIPredicate.eq, lin, arith.constant(idx, 0))
        branch = scf.IfOp(first)
        with ir.InsertionPoint(branch.then_block):
            p = d.libc("calloc", [arith.index_cast(i64, n), arith.constant(i64, elem_bytes(mt.element_type))], ptr)
            memref.store(llvm.PtrToIntOp(i64, p).result, slot.result, [])
            scf.YieldOp([])
        gpu.BarrierOp()
        p = llvm.IntToPtrOp(ptr, memref.load(slot.result, [])).result
        shadow = memref_of(p, mt.element_type, n)

    def free():
        with loc:
            gpu.BarrierOp()
            last = scf.IfOp(first)
            with ir.InsertionPoint(last.then_block):
                d.libc("free", [p], None)
                scf.YieldOp([])
    finals.append(free)
    return shadow


from .cache import PER_THREAD_BYTES  # noqa: E402  (largest local variable kept per thread, x 1024 per block)


def keep_slots_per_thread(f) -> None:
    """Move the small local variables of derivative function `f` (statically shaped ``memref.alloca`` of at most
    PER_THREAD_BYTES that only loads and stores use: the reverse sweep's counters and cache pointers, local
    arrays the reverse sweep reads again) into per-block __shared__ arrays with one row per thread, indexed by
    the thread's linear id: --cpuify keeps scalars that live across a barrier per thread, not local memory (the
    forward sweep writes them before a barrier, the reverse sweep reads them after it). Nothing to do without
    barriers."""
    from polygeist_py.frontend.cuda_builtins import MAX_BLOCK
    from polygeist_py.frontend.c_types import byte_width
    ops = all_ops(f)
    if not any(o.name == "gpu.barrier" for o in ops):
        return
    slots = []
    for o in ops:
        if o.name != "memref.alloca" or SHARED in o.attributes or len(o.operands):
            continue
        mt = ir.MemRefType(o.results[0].type)
        count = 1
        for d in mt.shape:
            count *= d
        plain = str(mt) == str(ir.MemRefType.get(list(mt.shape), mt.element_type, loc=o.location))  # (identity)
        width = 8 if isinstance(mt.element_type, ir.IndexType) else byte_width(mt.element_type)
        if not mt.has_static_shape or not plain or count * width > PER_THREAD_BYTES:
            continue
        mem = o.results[0]
        uses = [u.owner for u in mem.uses]
        if all((u.name == "memref.load" and u.operands[0] == mem) or u.name == "memref.dim" or
               (u.name == "memref.store" and u.operands[1] == mem and u.operands[0] != mem) for u in uses):
            slots.append((o, uses))
    if not slots:
        return
    entry = f.regions[0].blocks[0]
    with ir.InsertionPoint.at_block_begin(entry), f.location:
        lin, _ = linear_thread_id()
    for o, uses in slots:
        mt = ir.MemRefType(o.results[0].type)
        with ir.InsertionPoint(o), o.location:
            buf = memref.AllocaOp(ir.MemRefType.get([MAX_BLOCK] + list(mt.shape), mt.element_type), [], [])
            buf.attributes[SHARED] = ir.UnitAttr.get()
        for u in uses:
            with ir.InsertionPoint(u), u.location:
                if u.name == "memref.load":
                    new = memref.LoadOp(buf.result, [lin] + list(u.operands)[1:])
                    u.results[0].replace_all_uses_with(new.result)
                elif u.name == "memref.dim":  # (a static shape: the dimension of the thread's row)
                    u.results[0].replace_all_uses_with(memref.dim(buf.result, arith.addi(
                        u.operands[1], arith.constant(ir.IndexType.get(), 1))))
                else:
                    memref.StoreOp(u.operands[0], buf.result, [lin] + list(u.operands)[2:])
            u.erase()
        o.erase()


def while_count(rv, op):
    """The number of `do` executions of primal scf.while `op`, which holds a barrier, as a value --cpuify sees as
    uniform: the forward sweep's copy of the loop counts them in a loop-carried value (the loop's control is
    uniform, being around a barrier, so the count is too; a count kept in memory would be per thread).

    Raises:
        CompileError: the loop is nested in another loop or branch (its count would be cached per instance).
    """
    if op.operation.block != rv.primal.regions[0].blocks[0]:
        raise error_at_op(op, "unsupported construct: reverse mode through a loop with __syncthreads() and a "
                              "data-dependent trip count inside another loop or branch")
    old = rv.fops[op.operation]
    idx = ir.IndexType.get()
    before, after = old.regions[0].blocks[0], old.regions[1].blocks[0]
    with ir.InsertionPoint(old), op.location:
        c0 = arith.constant(idx, 0)
        new = scf.WhileOp([r.type for r in old.results] + [idx], list(old.operands) + [c0])
        nb = new.before.blocks.append(*([a.type for a in before.arguments] + [idx]))
        na = new.after.blocks.append(*([a.type for a in after.arguments] + [idx]))
    for ob, nblk in ((before, nb), (after, na)):
        for op_ in list(ob.operations):  # (moved: the forward sweep's map to these ops stays valid)
            op_.operation.detach_from_parent()
            ir.InsertionPoint(nblk).insert(op_.operation)
        for a, b in zip(ob.arguments, nblk.arguments):
            a.replace_all_uses_with(b)
    cond = list(nb.operations)[-1]
    with ir.InsertionPoint(cond), op.location:
        scf.ConditionOp(cond.operands[0], list(cond.operands)[1:] + [nb.arguments[-1]])
    cond.erase()
    y = list(na.operations)[-1]
    with ir.InsertionPoint(y), op.location:
        scf.YieldOp(list(y.operands) + [arith.addi(na.arguments[-1], arith.constant(idx, 1))])
    y.erase()
    for r, nr in zip(old.results, new.results):
        r.replace_all_uses_with(nr)
    old.erase()
    rv.fops[op.operation] = new.operation
    pb, pa = op.regions[0].blocks[0], op.regions[1].blocks[0]
    for pblk, nblk in ((pb, nb), (pa, na)):
        for a, b in zip(pblk.arguments, nblk.arguments):
            rv.vmap[a] = b
    for r, nr in zip(op.results, new.results):
        rv.vmap[r] = nr
    return new.results[len(op.results)]


# ---------------------------------------------------------------------------------- atomic or plain accumulation
def accumulate(rv, load, g, sh, idx) -> None:
    """Add adjoint `g` to shadow `sh` at `idx` for primal memref.load `load` of device code: plain for
    thread-local memory, atomic where two threads may reach the same element, guarded by the launch shape when
    the index is injective in the thread ids only for some shapes (`private_condition`)."""
    if _defer_to_block_sum(rv, load, g, sh):
        return
    cond = private_condition(rv, load)
    if cond is False:
        memref.AtomicRMWOp(arith.AtomicRMWKind.addf, g, sh, idx)
        return

    def plain():
        memref.StoreOp(arith.addf(memref.LoadOp(sh, idx).result, g), sh, idx)
    if cond is True:
        plain()
        return
    branch = scf.IfOp(cond(), [], has_else=True)
    with ir.InsertionPoint(branch.then_block):
        plain()
        scf.YieldOp([])
    with ir.InsertionPoint(branch.else_block):
        memref.AtomicRMWOp(arith.AtomicRMWKind.addf, g, sh, idx)
        scf.YieldOp([])


def _defer_to_block_sum(rv, load, g, sh) -> bool:
    """For a load of one fixed element that every thread may read (daxpy's ``a[0]``) from memory the function
    only reads: add adjoint `g` to the thread's row of a per-block array instead of the shadow, and at the end of
    the derivative (a barrier, then thread 0 sums the rows) add the block's sum to the shadow element with one
    atomic, instead of one atomic per thread on the same address. Only where every thread of the block reaches
    the end of the derivative (the Enzyme call at the top level of a kernel). Returns whether it did."""
    if not rv.uniform_reach or not is_float(g.type):
        return False
    from .rules_reverse import _memory_root
    mem = load.operands[0]
    root = _memory_root(mem)
    if root is None or not rv.is_top(mem) or not _is_pointer_argument(rv, root):
        return False
    key = _access_key(load, _uniform_integers(rv))
    if key is None or any(set(m for m, _ in p) - {()} for p in key[1]):
        return False  # (the index must be a constant)
    if not _only_loads(rv, root):
        return False
    slot = rv.deferred.get((root, key))
    if slot is None:
        from polygeist_py.frontend.cuda_builtins import MAX_BLOCK
        top = rv.top_scope()
        with ir.InsertionPoint(top.sentinel), load.location:
            row = memref.AllocaOp(ir.MemRefType.get([MAX_BLOCK], g.type), [], [])
            row.attributes[SHARED] = ir.UnitAttr.get()
            lin, nthreads = linear_thread_id()
            memref.store(arith.constant(g.type, 0.0), row.result, [lin])
            idx = [arith.constant(ir.IndexType.get(), dict(p).get((), 0)) for p in key[1]]
        slot = rv.deferred[(root, key)] = (row.result, lin)

        def block_sum(row=row.result, lin=lin, nthreads=nthreads, idx=idx, loc=load.location):
            with loc:
                index = ir.IndexType.get()
                gpu.BarrierOp()
                first = scf.IfOp(arith.cmpi(arith.CmpIPredicate.eq, lin, arith.constant(index, 0)))
                with ir.InsertionPoint(first.then_block):
                    total = scf.ForOp(arith.constant(index, 0), nthreads, arith.constant(index, 1),
                                      [arith.constant(g.type, 0.0)])
                    with ir.InsertionPoint(total.body):
                        acc = arith.addf(total.inner_iter_args[0],
                                         memref.load(row, [total.induction_variable]))
                        scf.YieldOp([acc])
                    memref.AtomicRMWOp(arith.AtomicRMWKind.addf, total.results[0], sh, idx)
                    scf.YieldOp([])
                gpu.BarrierOp()  # (the rows are reused by the next call)
        rv.block_finals.append(block_sum)
    row, lin = slot
    memref.store(arith.addf(memref.load(row, [lin]), g), row, [lin])
    return True


def _only_loads(rv, root) -> bool:
    """Whether the primal only loads from the memory of parameter `root` (through views), and every pointer of
    the function has a known root."""
    uses = _root_uses(rv, root)
    if uses is None:
        return False
    for op, k in uses:
        name = op.operation.name
        if name == "memref.load" and k == 0:
            continue
        if not _plumbing(op):
            return False
    return True


def _root_uses(rv, root):
    """[(op, operand index)] of the primal's uses of memory rooted at `root` (prepare.memory_root), or None when
    some pointer of the function has an unknown root (chosen, carried or loaded: it may be a view of `root`)."""
    from .prepare import memory_root
    entry = rv.primal.regions[0].blocks[0]
    out = []
    for op in all_ops(rv.primal):
        for k, v in enumerate(op.operands):
            if not (isinstance(v.type, ir.MemRefType) or str(v.type).startswith("!llvm.ptr")):
                continue
            roots = memory_root(v)
            if not all(_known_root(r, entry) for r in roots):
                return None
            if root in roots:
                out.append((op, k))
    return out


def _plumbing(op) -> bool:
    """An op that only passes addresses and indices along (a view, a cast, a descriptor op)."""
    return op.operation.name in PLUMBING and all(
        isinstance(r.type, ir.MemRefType) or str(r.type).startswith(("!llvm.ptr", "!llvm.struct"))
        or isinstance(r.type, (ir.IndexType, ir.IntegerType)) for r in op.results)


def private_condition(rv, load):
    """Whether no two threads of a launch read the element primal memref.load `load` reads: True (thread-local
    memory), False (may be shared: __shared__ memory, globals, unknown indices), or a builder of the i1 "the launch
    shape makes the index injective" (e.g. ``x[blockIdx.x * blockDim.x + threadIdx.x]`` is injective when the
    grid and the blocks are one-dimensional).

    The memory behind a pointer argument is private to a thread when every access of the function to that
    argument is a load or store of one unshifted view of it (offset a constant) at the same index polynomial, and
    that index is, per dimension, ``threadIdx.d``, ``blockIdx.d * blockDim.d + threadIdx.d``, either plus a
    loop iteration count times ``blockDim.d`` (block-stride loop) resp. ``gridDim.d * blockDim.d`` (grid-stride
    loop), plus terms of constants and launch dimensions; dimensions left out must have one thread (one block).
    """
    from .rules_reverse import _memory_root
    mem = load.operands[0]
    root = _memory_root(mem)
    if root is None:
        return False
    owner = root.owner
    if not isinstance(owner, ir.Block):
        if owner.name in ALLOCS:
            return not is_shared_alloc(owner)  # local memory of the thread
        return False
    if not _is_pointer_argument(rv, root):
        return False
    args = _uniform_integers(rv)
    key = _access_key(load, args)
    if key is None:
        return False
    uses = _root_uses(rv, root)
    if uses is None:
        return False
    for op, k in uses:
        name = op.operation.name
        if name in ("memref.load", "memref.store", "memref.atomic_rmw"):
            first = 1 if name == "memref.load" else 2
            if k != first - 1 or _access_key(op, args) != key:
                return False
        elif not _plumbing(op):
            return False
    shape = _shape_condition(key[1])
    if shape is False or _is_restrict(rv, root):
        return shape
    # (the shadows of distinct pointer parameters may overlap unless the run-time check says they do not)
    disjoint = disjoint_shadows(rv)
    if disjoint is None:
        return shape
    return (lambda: disjoint) if shape is True else (lambda: arith.andi(shape(), disjoint))


def _is_restrict(rv, param) -> bool:
    """Whether primal parameter `param` is ``restrict`` (llvm.noalias): its memory and its shadow's are reached
    through no other parameter."""
    entry = rv.primal.regions[0].blocks[0]
    attrs = rv.primal.attributes["arg_attrs"] if "arg_attrs" in rv.primal.attributes else None
    if attrs is None:
        return False
    k = list(entry.arguments).index(param)
    return "llvm.noalias" in ir.DictAttr(ir.ArrayAttr(attrs)[k])


def disjoint_shadows(rv):
    """An i1 at the start of derivative `rv`: the shadows of its pointer parameters that are not ``restrict`` lie
    in distinct cudaMalloc'd blocks (the runtime's __pgcc_ad_shadows_disjoint, which also stops the program with
    a message naming the caller and the arguments when a shadow is the primal memory of a parameter); None when
    there is no such parameter. Distinct pointer parameters may point into one buffer (nvcc and Enzyme assume
    nothing without ``__restrict__``): where they do, or may, an adjoint another thread could also reach through
    an overlapping shadow is added atomically (`private_condition`). Conservative: pointers outside the blocks
    the runtime knows (host memory, a pointer shifted before its block) count as overlapping."""
    if hasattr(rv, "disjoint_flag"):
        return rv.disjoint_flag
    from mlir.dialects import llvm
    entry = rv.primal.regions[0].blocks[0]
    dargs = list(rv.entry.arguments)
    pairs = [(rv.vmap[a], rv.tmap[a]) for a in entry.arguments
             if a in rv.tmap and str(a.type).startswith("!llvm.ptr") and not _is_restrict(rv, a)]
    if not pairs:
        rv.disjoint_flag = None
        return None
    names = list(rv.site_names)
    what = names[0] if names else f"__enzyme_autodiff of '{rv.name.split('.')[0]}'"
    texts = []
    for p, sh in pairs:
        for v in (p, sh):
            k = dargs.index(v) + 1 if v in dargs else 0
            texts.append(names[k] if 0 < k < len(names) and names[k] else f"argument {k}")
    idx, i64, i32 = ir.IndexType.get(), ir.IntegerType.get_signless(64), ir.IntegerType.get_signless(32)
    ptr = ir.Type.parse("!llvm.ptr")
    text = "\x1f".join([what] + texts)
    with ir.InsertionPoint.at_block_begin(rv.entry), rv.primal.location:
        buf = memref.AllocaOp(ir.MemRefType.get([2 * len(pairs)], i64), [], [])
        for k, v in enumerate(v for pair in pairs for v in pair):
            memref.store(llvm.PtrToIntOp(i64, v).result, buf.result, [arith.constant(idx, k)])
        base = memref.ExtractAlignedPointerAsIndexOp(buf.result).result
        at = llvm.IntToPtrOp(ptr, arith.index_cast(i64, base)).result
        message = llvm.AddressOfOp(ptr, _string_global(rv.session.module, text)).result
        r = rv.libc("__pgcc_ad_shadows_disjoint", [arith.constant(i64, len(pairs)), at, message], i32)
        rv.disjoint_flag = arith.cmpi(arith.CmpIPredicate.ne, r, arith.constant(i32, 0))
    return rv.disjoint_flag


def _string_global(module, text: str) -> str:
    """The name of a private constant global of `module` holding NUL-terminated `text` (made on first use)."""
    from mlir.dialects import llvm
    data = text.encode("utf-8") + b"\0"
    names = {ir.StringAttr(o.attributes["sym_name"]).value for o in module.body.operations
             if "sym_name" in o.attributes}
    k = 0
    while f".pgcc_ad_site.{k}" in names:
        k += 1
    name = f".pgcc_ad_site.{k}"
    with ir.Location.unknown(), ir.InsertionPoint.at_block_begin(module.body):
        llvm.GlobalOp(ir.Type.parse(f"!llvm.array<{len(data)} x i8>"), name,
                      ir.Attribute.parse("#llvm.linkage<private>"), constant=True, value=ir.StringAttr.get(data))
    return name


def _known_root(r, entry) -> bool:
    """Whether memory root `r` (prepare.memory_root) is a parameter, an allocation or a global: memory whose
    relation to a parameter's is known (distinct parameters are assumed not to overlap, as for C arrays in the
    polyhedral stage and parallel loops; the same argument passed twice is checked at the call)."""
    o = r.owner
    if isinstance(o, ir.Block):
        return o == entry
    name = o.operation.name
    return name in ALLOCS or name in ("llvm.alloca", "memref.get_global", "llvm.mlir.addressof") or (
        name == "func.call" and ir.FlatSymbolRefAttr(o.attributes["callee"]).value in MALLOCS)


def _is_pointer_argument(rv, v) -> bool:
    """Whether `v` is a parameter of the primal whose pointer and shadow are the same in every thread (the
    call site's `uniform_parameters`)."""
    entry = rv.primal.regions[0].blocks[0]
    return isinstance(v.owner, ir.Block) and v.owner == entry and \
        list(entry.arguments).index(v) in rv.uniform_params


def uniform_predicate(argument_ok, op_ok):
    """A memoized predicate on MLIR values: whether a value is the same in every thread of a launch, i.e. a
    block argument `argument_ok(v)` accepts, a launch dimension (`gpu.block_dim`/`gpu.grid_dim`), or the result of
    an op `op_ok(op, v)` accepts (no other gpu op) whose operands are uniform (depth-limited)."""
    memo = {}

    def uniform(v, depth=0):
        if v in memo:
            return memo[v]
        o = v.owner
        if isinstance(o, ir.Block):
            ok = argument_ok(v)
        elif o.name in ("gpu.block_dim", "gpu.grid_dim"):
            ok = True
        elif depth > 64 or o.name.startswith("gpu.") or not op_ok(o, v):
            ok = False
        else:
            ok = all(uniform(x, depth + 1) for x in o.operands)
        memo[v] = ok
        return ok

    return uniform


def uniform_parameters(module, call, acts) -> tuple:
    """Indices of the parameters of the function an Enzyme call in device code differentiates whose arguments
    (the pointer and its shadow) are the same in every thread of the launch: computed by pure ops from
    constants, launch dimensions and the parameters of a kernel (a function only called directly inside
    gpu.launch regions, with values defined outside them). Thread and block ids, loads and anything else make
    an argument per thread: its memory is then never assumed private to a thread (`private_condition`).

    Args:
        module: the module; call: the placeholder func.call; acts: the activity of each parameter ('const',
            'dup', 'dupnoneed', 'out', 'active'...), which says where shadows follow.
    """
    from polygeist_py.gpu_to_cpu.ir_nav import is_pure
    f = call.operation.parent
    while f.name != "func.func":
        f = f.parent
    entry = f.regions[0].blocks[0]
    kernel = _is_kernel(module, ir.StringAttr(f.attributes["sym_name"]).value)
    uniform = uniform_predicate(lambda v: kernel and v.owner == entry,
                                lambda o, v: is_pure(o) or o.name in PLUMBING)

    from .prepare import memory_root
    params, k, ops = [], 0, list(call.operands)
    for i, a in enumerate(acts):
        if k >= len(ops):
            break
        vals = [ops[k]]
        k += 1
        if a != "const" and not isinstance(vals[0].type, (ir.F32Type, ir.F64Type, ir.F16Type, ir.BF16Type)):
            vals.append(ops[k] if k < len(ops) else None)
            k += 1
        if all(v is not None for v in vals):
            params.append((i, vals))
    pointers = [(i, vals) for i, vals in params if str(vals[0].type).startswith("!llvm.ptr")]
    out = []
    for i, vals in params:
        if not all(uniform(v) for v in vals):
            continue
        mine = set().union(*[memory_root(v) for v in vals])
        # the same buffer given for two parameters (x, x + 1): their accesses may meet
        if any(j != i and mine & set().union(*[memory_root(v) for v in other]) for j, other in pointers):
            continue
        out.append(i)
    return tuple(out)


def reached_by_the_whole_block(module, call) -> bool:
    """Whether every thread of a block executes Enzyme call `call`: it is at the top level (no loop or branch
    around it) of a kernel."""
    f = call.operation.parent
    return f.name == "func.func" and _is_kernel(module, ir.StringAttr(f.attributes["sym_name"]).value)


def _is_kernel(module, name) -> bool:
    """Whether function `name` is only called directly inside gpu.launch regions, with operands defined outside
    them (the same in every thread)."""
    calls = [op for op in all_ops(module.operation)
             if op.name == "func.call" and ir.FlatSymbolRefAttr(op.attributes["callee"]).value == name]
    if not calls:
        return False
    for c in calls:
        launch = c.operation.parent
        if launch.name != "gpu.launch":
            return False
        for v in c.operands:
            o = v.owner
            inner = o.owner if isinstance(o, ir.Block) else o
            p = inner.operation
            while p is not None and p != launch:
                p = p.parent
            if p is not None:
                return False
    return True


def _access_key(op, args=None):
    """(view offset, index polynomials) of a memref load/store/atomic_rmw whose memref is an unshifted view of a
    pointer argument (descriptor with a constant offset, through casts), else None."""
    name = op.operation.name
    first = 1 if name == "memref.load" else 2
    mem = op.operands[first - 1]
    off = _view_offset(mem)
    if off is None:
        return None
    mt = ir.MemRefType(mem.type)
    if mt.rank != 1:
        return None
    polys = []
    for v in list(op.operands)[first:]:
        p = polynomial(v, args=args)
        if p is None:
            return None
        polys.append(tuple(sorted(p.items())))
    return off, tuple(polys)


def _view_offset(mem):
    """The constant offset of the descriptor memref `mem` is made from (through memref.cast), else None."""
    while True:
        o = mem.owner
        if isinstance(o, ir.Block):
            return None
        if o.name == "memref.cast":
            mem = o.operands[0]
            continue
        if o.name != "builtin.unrealized_conversion_cast" or len(o.operands) != 1:
            return None
        break
    desc = o.operands[0]
    fields = {}
    while not isinstance(desc.owner, ir.Block) and desc.owner.name == "llvm.insertvalue":
        pos = tuple(ir.DenseI64ArrayAttr(desc.owner.attributes["position"]))
        fields.setdefault(pos, desc.owner.operands[1])
        desc = desc.owner.operands[0]
    if isinstance(desc.owner, ir.Block) or desc.owner.name != "llvm.mlir.undef":
        return None
    base = fields.get((0,))
    if base is None or base != fields.get((1,)) or not isinstance(base.owner, ir.Block):
        return None
    off, stride = _const(fields.get((2,))), _const(fields.get((4, 0)))
    if off is None or stride != 1:
        return None
    return off


def _const(v):
    if v is None or isinstance(v.owner, ir.Block):
        return None
    if v.owner.name in ("arith.constant", "llvm.mlir.constant"):
        try:
            return ir.IntegerAttr(v.owner.attributes["value"]).value
        except (ValueError, TypeError):
            return None
    return None


# ------------------------------------------------------------------------------------- index polynomials
CASTS = ("arith.index_cast", "arith.index_castui", "arith.extsi", "arith.extui", "arith.trunci")
IDS = {"gpu.thread_id": "tid", "gpu.block_id": "bid", "gpu.block_dim": "bdim", "gpu.grid_dim": "gdim"}


def polynomial(v, _loops=None, args=None):
    """Integer value `v` as a polynomial (dict: sorted tuple of symbols -> integer coefficient) over the thread
    and block ids and dimensions ('tid.x', 'bid.x', 'bdim.x', 'gdim.x', ...), the iteration counts of the
    enclosing loops ('it.<n>') and the integer parameters in `args` (value -> 'arg.<k>': the same in every
    thread), or None when it depends on anything else (other parameters, memory)."""
    loops = _loops if _loops is not None else []
    o = v.owner
    if args and v in args:
        return {(args[v],): 1}
    if isinstance(o, ir.Block):
        loop = o.owner
        counted = _counted(v, loop)
        if counted is None:
            return None
        lb, step = polynomial(counted[0], loops, args), polynomial(counted[1], loops, args)
        if lb is None or step is None or not all(_uniform(m) for m in step):
            return None
        n = next((i for i, lp in enumerate(loops) if lp == loop.operation), None)
        if n is None:
            loops.append(loop.operation)
            n = len(loops) - 1
        return _add(lb, _mul({(f"it.{n}",): 1}, step))
    name = o.name
    if name in IDS:
        d = str(o.attributes["dimension"]).strip(">")[-1]
        return {(f"{IDS[name]}.{d}",): 1}
    if name in ("arith.constant", "llvm.mlir.constant"):
        c = _const(v)
        return None if c is None else ({(): c} if c else {})
    if name in CASTS:
        return polynomial(o.operands[0], loops, args)
    if name in ("arith.addi", "arith.subi", "arith.muli"):
        a, b = polynomial(o.operands[0], loops, args), polynomial(o.operands[1], loops, args)
        if a is None or b is None:
            return None
        if name == "arith.addi":
            return _add(a, b)
        if name == "arith.subi":
            return _add(a, {m: -c for m, c in b.items()})
        return _mul(a, b)
    if name == "arith.shli":
        a, b = polynomial(o.operands[0], loops, args), polynomial(o.operands[1], loops, args)
        if a is None or b is None or set(b) - {()} or not 0 <= b.get((), 0) < 32:
            return None
        return _mul(a, {(): 1 << b.get((), 0)})
    return None


def _counted(v, loop):
    """(initial value, step) when block argument `v` of `loop` advances by a fixed step per iteration: the
    induction variable of an scf.for, or a value an scf.while carries as ``v + step`` (a C loop over an int);
    else None."""
    if loop is None:
        return None
    name = loop.operation.name
    block = v.owner
    if name == "scf.for":
        return (loop.operands[0], loop.operands[2]) if v == block.arguments[0] else None
    if name != "scf.while":
        return None
    before, after = loop.regions[0].blocks[0], loop.regions[1].blocks[0]
    cargs = list(list(before.operations)[-1].operands)[1:]
    if block == after:  # the value the condition passed on: a before argument
        c = cargs[list(after.arguments).index(v)]
        if not (isinstance(c.owner, ir.Block) and c.owner == before):
            return None
        v = c
    k = list(before.arguments).index(v)
    nxt = list(list(after.operations)[-1].operands)[k]
    if isinstance(nxt.owner, ir.Block) or nxt.owner.name != "arith.addi":
        return None
    for a, step in ((nxt.owner.operands[0], nxt.owner.operands[1]), (nxt.owner.operands[1], nxt.owner.operands[0])):
        if isinstance(a.owner, ir.Block) and a.owner == after and cargs[list(after.arguments).index(a)] == v:
            return loop.operands[k], step
    return None


def _add(a, b):
    out = dict(a)
    for m, c in b.items():
        out[m] = out.get(m, 0) + c
        if out[m] == 0:
            del out[m]
    return out


def _mul(a, b):
    out = {}
    for ma, ca in a.items():
        for mb, cb in b.items():
            m = tuple(sorted(ma + mb))
            out[m] = out.get(m, 0) + ca * cb
            if out[m] == 0:
                del out[m]
    return out


def _uniform(monomial) -> bool:
    return all(s.startswith(("bdim.", "gdim.", "arg.")) for s in monomial)


def _uniform_integers(rv) -> dict:
    """The integer parameters of the primal that are the same in every thread (`uniform_parameters`), as
    polynomial symbols."""
    entry = rv.primal.regions[0].blocks[0]
    return {a: f"arg.{k}" for k, a in enumerate(entry.arguments)
            if k in rv.uniform_params and isinstance(a.type, (ir.IntegerType, ir.IndexType))}


def _thread_pattern(poly):
    """(dimension, covers the block index, bounds C on blockDim.d (blockDim.d <= C must hold)) when the
    thread-dependent part of index polynomial `poly` is one of the injective forms of `private_condition`, where
    blockDim.d may also be a constant C (``blockIdx.x * 256 + threadIdx.x``); (None, False, []) when it has none;
    None otherwise."""
    varying = {m: c for m, c in poly.items() if not _uniform(m)}
    if not varying:
        return None, False, []
    for d in DIMS:
        t, b, bd, gd = f"tid.{d}", f"bid.{d}", f"bdim.{d}", f"gdim.{d}"
        if varying.get((t,)) != 1:
            continue
        rest = {m: c for m, c in varying.items() if m != (t,)}
        bounds = []
        with_block = rest.get(tuple(sorted((b, bd)))) == 1
        if with_block:
            del rest[tuple(sorted((b, bd)))]
            size = [bd]          # the monomial factors standing for the block's size
        elif rest.get((b,), 0) > 0:
            with_block = True
            bounds.append(rest.pop((b,)))
            size = []
        else:
            size = None
        its = [m for m in rest if any(s.startswith("it.") for s in m)]
        if len(rest) == 1 and len(its) == 1:
            it = next(s for s in its[0] if s.startswith("it."))
            coeff = rest[its[0]]
            if with_block:  # grid-stride: the step is the number of threads of the grid in d
                want, c = tuple(sorted([it, gd] + size)), (1 if size else bounds[0])
            elif coeff == 1:  # block-stride: the step is blockDim.d
                want, c = tuple(sorted((it, bd))), 1
            else:  # block-stride by a constant C: blockDim.d <= C
                want, c = (it,), coeff
                bounds.append(coeff)
            if its[0] != want or coeff != c or c <= 0:
                return None
            rest = {}
        if rest:
            return None
        return d, with_block, bounds
    return None


def _shape_condition(polys):
    """True / False / a builder of the i1 that makes index polynomials `polys` injective in the thread ids."""
    tid, bid, bounds = set(), set(), []
    for p in polys:
        pat = _thread_pattern(dict(p))
        if pat is None:
            return False
        d, with_block, le = pat
        if d is None:
            continue
        if d in tid:
            return False
        tid.add(d)
        if with_block:
            bid.add(d)
        bounds += [(d, c) for c in le]
    if not tid:
        return False
    need = [("bdim", d) for d in DIMS if d not in tid] + [("gdim", d) for d in DIMS if d not in bid]

    def build():
        idx = ir.IndexType.get()
        one = arith.constant(idx, 1)
        conds = []
        for kind, d in need:
            dim = getattr(gpu.Dimension, d)
            v = gpu.block_dim(dim) if kind == "bdim" else gpu.grid_dim(dim)
            conds.append(arith.cmpi(arith.CmpIPredicate.eq, v, one))
        for d, c in bounds:
            conds.append(arith.cmpi(arith.CmpIPredicate.ule, gpu.block_dim(getattr(gpu.Dimension, d)),
                                    arith.constant(idx, c)))
        cond = conds[0]
        for c in conds[1:]:
            cond = arith.andi(cond, c)
        return cond
    return build if need or bounds else True


__all__ = ["barrier_rule", "contains_barrier", "is_shared_alloc", "shared_shadow", "accumulate",
           "private_condition", "polynomial", "zero_by_the_block", "linear_thread_id"]


# ------------------------------------------------------------------------------- adjoints run once per launch
def defer_to_the_launch(rv, op) -> bool:
    """The reversal of an scf.for that computes the same values in every thread of the launch (a `launch_uniform`
    reduction such as ``mag(in, n)`` in ``out[i] = in[i] / mag(in, n)``): instead of running the adjoint of the
    loop in each thread (O(n) per thread, O(n^2) per launch), each thread keeps its seeds (the adjoints of the
    loop's results) in its own column of a per-block __shared__ array; at the end of the derivative, after a
    barrier, the block's thread 0 adds the block's sums to launch-wide accumulators and counts the block's
    arrival, and thread 0 of the last block to arrive runs the adjoint once with the summed seeds. Right because
    an adjoint is linear in its seeds and the loop's code, operands and the memory it reads are the same in every
    thread (the threadFenceReduction pattern of the CUDA samples: blocks reduce first, the last block to finish
    does the final step). Per thread only plain stores to its column: one atomic per thread on one address made
    2 CPU threads slower than 1 after --cpuify.

    Only where every thread of the launch reaches the end of the derivative exactly once (`rv.launch_once`: the
    Enzyme call at a kernel's top level, the kernel's only call of this derivative), outside loops (the loop is
    at the function's level or inside branches only), and when no per-thread adjoint flows out of the loop (no
    varied float is used inside it that it does not define). The accumulators are module globals, reset by the
    last thread for the next launch (launches of one kernel do not overlap: --cpuify runs them in order).
    Returns whether it did; then the adjoints of the loop's results are consumed."""
    if not getattr(rv, "launch_once", False) or rv.in_launch_final or op.operation.name != "scf.for":
        return False
    seeds = [(k, rv.scope.adj.get(r)) for k, r in enumerate(op.results) if is_float(r.type)]
    seeds = [(k, g) for k, g in seeds if g is not None]
    if not seeds or not launch_uniform(rv, op):
        return False
    index, i64 = ir.IndexType.get(), ir.IntegerType.get_signless(64)
    ftype = seeds[0][1].type
    if any(g.type != ftype for _, g in seeds):
        return False
    base = f"{rv.name}.launch{len(rv.launch_finals)}"
    acc_t = ir.MemRefType.get([len(op.results)], ftype)
    cnt_t = ir.MemRefType.get([2], i64)  # (arrivals at the end of the derivative, threads that ran the loop)
    body = rv.session.module.body
    with ir.InsertionPoint.at_block_begin(body), op.location:
        for name, t, zero in ((base + ".seeds", acc_t, ir.FloatAttr.get(ftype, 0.0)),
                              (base + ".count", cnt_t, ir.IntegerAttr.get(i64, 0))):
            memref.GlobalOp(name, ir.TypeAttr.get(t), sym_visibility="private",
                            initial_value=ir.DenseElementsAttr.get_splat(
                                ir.RankedTensorType.get(list(t.shape), t.element_type), zero))
    from polygeist_py.frontend.cuda_builtins import MAX_BLOCK
    ran_row = len(op.results)  # (rows 0..: the seeds of the loop's results; this one: 1 where the thread ran it)
    with ir.InsertionPoint(rv.top_scope().sentinel), op.location:
        rows = memref.AllocaOp(ir.MemRefType.get([ran_row + 1, MAX_BLOCK], ftype), [], [])
        rows.attributes[SHARED] = ir.UnitAttr.get()
        lin, _ = linear_thread_id()
        for k in range(ran_row + 1):
            memref.store(arith.constant(ftype, 0.0), rows.result, [arith.constant(index, k), lin])
    with op.location:
        for k, g in seeds:
            at = [arith.constant(index, k), lin]
            memref.store(arith.addf(memref.load(rows.result, at), g), rows.result, at)
            rv.scope.adj.pop(op.results[k])
        memref.store(arith.constant(ftype, 1.0), rows.result, [arith.constant(index, ran_row), lin])

    def final(loc=op.location):
        with loc:
            _run_once_per_launch(rv, op, acc_t, cnt_t, base, [k for k, _ in seeds], rows.result)
    rv.launch_finals.append(final)
    return True


def _run_once_per_launch(rv, op, acc_t, cnt_t, base, ks, rows) -> None:
    """At the end of the derivative: a barrier, then the block's thread 0 adds the block's seeds (the columns of
    `rows`) to the launch's accumulators and counts the block's arrival; thread 0 of the last block takes the
    summed seeds (resetting the accumulators) and, when some thread ran the loop, emits the reversal of primal
    loop `op` with those seeds (its operands recomputed from the function's values: `launch_uniform`)."""
    index, i64 = ir.IndexType.get(), ir.IntegerType.get_signless(64)
    ftype = acc_t.element_type
    c0, c1 = arith.constant(index, 0), arith.constant(index, 1)
    gpu.BarrierOp()  # (every thread of the block has written its column)
    lin, nthreads = linear_thread_id()
    first = scf.IfOp(arith.cmpi(arith.CmpIPredicate.eq, lin, c0))
    with ir.InsertionPoint(first.then_block):
        n_rows = ir.MemRefType(rows.type).shape[0]
        sums = scf.ForOp(c0, nthreads, c1, [arith.constant(ftype, 0.0)] * n_rows)
        with ir.InsertionPoint(sums.body):
            t = sums.induction_variable
            scf.YieldOp([arith.addf(a, memref.load(rows, [arith.constant(index, r), t]))
                         for r, a in enumerate(sums.inner_iter_args)])
        acc = memref.GetGlobalOp(acc_t, base + ".seeds").result
        for k in ks:
            memref.AtomicRMWOp(arith.AtomicRMWKind.addf, sums.results[k], acc, [arith.constant(index, k)])
        cnt = memref.GetGlobalOp(cnt_t, base + ".count").result
        ran_here = arith.cmpf(arith.CmpFPredicate.ONE, sums.results[n_rows - 1], arith.constant(ftype, 0.0))
        memref.AtomicRMWOp(arith.AtomicRMWKind.addi, arith.extui(i64, ran_here), cnt, [c1])
        old = memref.AtomicRMWOp(arith.AtomicRMWKind.addi, arith.constant(i64, 1), cnt, [c0]).result
        _last_block_runs_the_loop(rv, op, acc_t, cnt, base, ks, old)
        scf.YieldOp([])


def _last_block_runs_the_loop(rv, op, acc_t, cnt, base, ks, old) -> None:
    """In the block's thread 0, `old` the blocks arrived before it: the last block resets the counters and
    accumulators and runs the reversal of `op` with the summed seeds when some thread ran the loop."""
    from .reverse import Scope
    from .rules_reverse import REVERSE_RULES
    index, i64 = ir.IndexType.get(), ir.IntegerType.get_signless(64)
    c0, c1 = arith.constant(index, 0), arith.constant(index, 1)
    n_blocks = arith.constant(index, 1)
    for d in DIMS:
        n_blocks = arith.muli(n_blocks, gpu.grid_dim(getattr(gpu.Dimension, d)))
    last = arith.cmpi(arith.CmpIPredicate.eq, arith.addi(old, arith.constant(i64, 1)),
                      arith.index_cast(i64, n_blocks))
    branch = scf.IfOp(last)
    with ir.InsertionPoint(branch.then_block):
        ran = memref.AtomicRMWOp(arith.AtomicRMWKind.addi, arith.constant(i64, 0), cnt, [c1]).result
        memref.store(arith.constant(i64, 0), cnt, [c0])
        memref.store(arith.constant(i64, 0), cnt, [c1])
        acc = memref.GetGlobalOp(acc_t, base + ".seeds").result
        ftype = acc_t.element_type
        totals = {}
        for k in ks:
            at = arith.constant(index, k)
            totals[k] = memref.AtomicRMWOp(arith.AtomicRMWKind.addf, arith.constant(ftype, 0.0), acc, [at]).result
            memref.store(arith.constant(ftype, 0.0), acc, [at])
        some = scf.IfOp(arith.cmpi(arith.CmpIPredicate.ne, ran, arith.constant(i64, 0)))
        with ir.InsertionPoint(some.then_block):
            # scopes for the branches around the loop (launch_uniform: no loop around it), innermost last
            blocks, b = [], op.operation.block
            while b != rv.primal.regions[0].blocks[0]:
                blocks.append(b)
                b = b.owner.operation.block
            saved = rv.scope
            rv.in_launch_final = True
            for blk in reversed(blocks):
                sentinel = arith.constant(index, 0).owner
                rv.scope = Scope(blk, rv.scope, sentinel)
                rv.sentinels.append(sentinel)
                rv.caches.register_scope(rv.scope)
            for k in ks:
                rv.add_adj(op.results[k], totals[k])
            REVERSE_RULES["scf.for"](rv, op)
            rv.scope = saved
            rv.in_launch_final = False
            scf.YieldOp([])
        scf.YieldOp([])


def launch_uniform(rv, op) -> bool:
    """Whether primal loop `op` computes the same values in every thread of the launch and its reversal needs
    nothing a thread keeps: inside it only pure ops, nested scf.for/scf.if and loads of memory of a parameter the
    same in every thread that the function only reads; every value it uses from outside is built by pure ops
    from such parameters, constants and launch dimensions, outside any loop, and is not a varied float; the
    forward sweep caches nothing of its body (everything is recomputed)."""
    from polygeist_py.gpu_to_cpu.ir_nav import is_pure
    from .prepare import memory_root
    top = op.operation.block == rv.primal.regions[0].blocks[0]
    for p in [] if top else rv.parent_ops(op.operation.block):
        if p.operation.name != "scf.if":
            return False
    inside = all_ops(op)
    own = {op.operation} | {o.operation for o in inside}
    uniform = uniform_predicate(
        lambda v: rv.is_top(v) and (_is_pointer_argument(rv, v) if str(v.type).startswith("!llvm.ptr") else
                                    list(v.owner.arguments).index(v) in rv.uniform_params),
        lambda o, v: is_pure(o) and (rv.is_top(v) or v not in rv.planner.stored(rv.def_block(v))))

    for o in [op] + inside:
        name = o.operation.name
        if name in ("scf.for", "scf.if", "scf.yield"):
            pass
        elif name == "memref.load":
            roots = memory_root(o.operands[0])
            if len(roots) != 1 or not all(_is_pointer_argument(rv, r) and _only_loads(rv, r) for r in roots):
                return False
        elif name.startswith("gpu.") or not is_pure(o):
            return False
        for v in o.operands:
            owner = v.owner
            mine = (owner.owner if isinstance(owner, ir.Block) else owner).operation in own
            if mine:
                continue
            if is_float(v.type) and rv.act.is_varied(v):
                return False
            if not uniform(v):
                return False
    for o in [op] + inside:
        for region in o.regions:
            for block in region.blocks:
                if rv.planner.stored(block):
                    return False
    return True
