"""Reverse-mode rules: one per op name in REVERSE_RULES (scalar arith/math ops go through partials.PARTIALS).

A rule is called by ad.reverse.Reverse.reverse_ops with the Reverse instance `rv` and the primal op, at the point
of the reverse sweep where the op is undone; it reads primal values with rv.rv (recomputed or cached), shadows
with rv.shadow, and moves adjoints with rv.pop_adj / rv.add_adj (JAX's transpose rules, Enzyme's adjoint
generator).
"""

from __future__ import annotations

from mlir import ir
from mlir.dialects import arith, func, memref, scf

from polygeist_py.errors import error_at_op

from . import partials as P
from .activity import ALLOCS, MALLOCS, all_ops, is_float
from .allocators import is_free
from .libm import is_libm_call
from .emit import body_ops, create_like, terminator, zero
from .parallel_overlap import finish as finish_overlap_check, note_atomic, plain_guard, single_parallel
from .gpu_block import accumulate as device_accumulate, barrier_rule, contains_barrier, is_dynamic_shared
from .gpu_block import while_count as device_while_count
from .raw_memory import rev_copy_rule, rev_load_rule, rev_store_rule


def new_sentinel():
    return arith.constant(ir.IndexType.get(), 0).owner


def no_adjoint(rv, op):
    """Ops without adjoint effects (plumbing, printing, deallocation)."""
    pass


def scalar_rule(rv, op):
    """Scalar arith/math op: adjoint(x_k) += partial_k * adjoint(result), reading primal values only when a partial


    needs them."""
    g = rv.pop_adj(op.results[0])
    if g is None:
        return
    rule = P.PARTIALS[op.name]
    memo = {}

    def x(i):  # primal operands on demand: a linear op needs none, so none is cached
        if i not in memo:
            memo[i] = rv.rv(op.operands[i])
        return memo[i]

    for k, v in enumerate(op.operands):
        if not rv.act.is_varied(v) or not is_float(v.type):
            continue
        part = rule(k, x, lambda: rv.rv(op.results[0]), op.results[0].type)
        if part is None:
            continue
        rv.add_adj(v, P.convert(g, v.type) if part == P.CONVERT else P.apply(part, g))


def select_rule(rv, op):
    """arith.select: the adjoint goes to the selected operand."""
    g = rv.pop_adj(op.results[0])
    if g is None:
        return
    c, a, b = op.operands
    z = zero(g.type)
    cond = rv.rv(c)
    rv.add_adj(a, arith.select(cond, g, z))
    rv.add_adj(b, arith.select(cond, z, g))


def load_rule(rv, op):
    """memref.load of a varied value: its adjoint is added to the shadow element (atomically inside a parallel loop)."""
    r = op.results[0]
    g = rv.pop_adj(r)
    if g is None or not rv.act.is_varied(r):
        return
    sh = rv.shadow(op.operands[0])
    idx = [rv.rv(i) for i in list(op.operands)[1:]]
    if rv.session.device:  # one thread's code: atomic where threads may collide (ad/gpu_block.py)
        device_accumulate(rv, op, g, sh, idx)
    elif rv.atomic_context() and not injective_access(op):
        note_atomic(rv, op)
        memref.AtomicRMWOp(arith.AtomicRMWKind.addf, g, sh, idx)
    elif rv.atomic_context():  # (another parameter's shadow may overlap this one: ad/parallel_overlap.py)
        safe = plain_guard(rv, op, sh)
        if safe is None:
            memref.StoreOp(P.accumulate(memref.LoadOp(sh, idx).result, g), sh, idx)
            return
        branch = scf.IfOp(safe, [], has_else=True)
        with ir.InsertionPoint(branch.then_block):
            memref.StoreOp(P.accumulate(memref.LoadOp(sh, idx).result, g), sh, idx)
            scf.YieldOp([])
        with ir.InsertionPoint(branch.else_block):
            memref.AtomicRMWOp(arith.AtomicRMWKind.addf, g, sh, idx)
            scf.YieldOp([])
    else:
        memref.StoreOp(P.accumulate(memref.LoadOp(sh, idx).result, g), sh, idx)


def injective_access(load) -> bool:
    """Whether no two iterations of the scf.parallel around memref.load `load` touch the element it reads, so
    that its reversed iterations may update the shadow element without atomics. Proved when the parallel loop
    is the only one around the load, every access in the loop to memory with the load's root (a function
    argument or an allocation, through casts and views) is a load or store of the same memref at the same
    indices, and every induction variable of the loop is one of the indices (up to integer casts and
    loop-invariant offsets). Distinct function arguments are assumed not to alias (the polyhedral stage's
    assumption for distinct C arrays)."""
    par = single_parallel(load)
    if par is None:
        return False
    mem, index = load.operands[0], list(load.operands)[1:]
    ivs = list(par.regions[0].blocks[0].arguments)
    base = _memory_root(mem)
    if base is None:
        return False

    def inside(v):
        o = v.owner
        return _op_inside(o.owner if isinstance(o, ir.Block) else o, par)

    def iv_of(v):
        """The induction variable `v` equals up to casts and invariant offsets, else None."""
        while True:
            if any(v == a for a in ivs):
                return v
            o = v.owner
            if isinstance(o, ir.Block):
                return None
            if o.name in ("arith.index_cast", "arith.index_castui", "arith.extsi", "arith.extui"):
                v = o.operands[0]
            elif o.name in ("arith.addi", "arith.subi") and not inside(o.operands[1]):
                v = o.operands[0]
            elif o.name == "arith.addi" and not inside(o.operands[0]):
                v = o.operands[1]
            else:
                return None

    covered = [iv_of(v) for v in index]
    if not all(any(c is not None and a == c for c in covered) for a in ivs):
        return False
    for op in all_ops(par):
        for k, v in enumerate(op.operands):
            if not isinstance(v.type, ir.MemRefType):
                continue
            root = _memory_root(v)
            if root is None and op.name not in ("memref.load", "memref.store"):
                return False
            if root is not None and root != base:
                continue
            first = 1 if op.name == "memref.load" else 2 if op.name == "memref.store" else None
            if first is None or k != first - 1 or v != mem or len(op.operands) - first != len(index) or \
                    any(a != b for a, b in zip(list(op.operands)[first:], index)):
                return False
    return True


VIEWS = ("memref.cast", "memref.reinterpret_cast", "memref.subview", "memref.view", "memref.expand_shape",
         "memref.collapse_shape", "memref.transpose")


def _memory_root(v):
    """The function argument or allocation memref `v` views (through VIEWS, and the frontend's memref
    descriptors built around a pointer argument), None when unknown."""
    while True:
        o = v.owner
        if isinstance(o, ir.Block):
            parent = o.owner
            return v if parent is not None and parent.operation.name == "func.func" else None
        if o.name in ALLOCS:
            return v
        if o.name == "builtin.unrealized_conversion_cast" and len(o.operands) == 1:
            v = _aligned_pointer(o.operands[0])  # an !llvm.struct descriptor -> its aligned pointer
            if v is None:
                return None
            continue
        if o.name not in VIEWS:
            return None
        v = o.operands[0]


def _aligned_pointer(desc):
    """The pointer a memref descriptor built by llvm.insertvalue ops holds as its aligned pointer (field 1)."""
    while not isinstance(desc.owner, ir.Block) and desc.owner.name == "llvm.insertvalue":
        o = desc.owner
        if list(ir.DenseI64ArrayAttr(o.attributes["position"])) == [1]:
            return o.operands[1]
        desc = o.operands[0]
    return None


def _op_inside(op, ancestor) -> bool:
    o = getattr(op, "operation", op).parent
    while o is not None:
        if o == ancestor:
            return True
        o = o.parent
    return False


def store_rule(rv, op):
    """memref.store into shadowed memory: the shadow element becomes the stored value's adjoint and is reset to 0."""
    val, mem = op.operands[0], op.operands[1]
    sh = rv.shadow(mem)
    if sh is None:
        if rv.act.is_varied(val) and not rv.session.in_inactive_global(mem):
            raise error_at_op(op, "storing an active value into memory that has no shadow (an enzyme_const "
                                  "argument or a global)")
        return
    if not is_float(ir.MemRefType(mem.type).element_type):
        from .activity import int_move_source
        src = int_move_source(op)
        if src is not None and rv.act.is_varied(src.operands[0]):
            _move_int_adjoint(rv, op, src, sh)
        return
    idx = [rv.rv(i) for i in list(op.operands)[2:]]
    g = memref.LoadOp(sh, idx).result
    memref.StoreOp(zero(g.type), sh, idx)
    if rv.act.is_varied(val):
        rv.add_adj(val, g)


def _move_int_adjoint(rv, store, load, sh):
    """`dst[j] = src[i]` of an integer holding a float's bits (activity.int_move_source): the adjoint bits in
    dst's shadow are added, as a float of the integer's width, to src's shadow, and dst's shadow is reset."""
    t = store.operands[0].type
    ft = ir.F64Type.get() if t.width == 64 else ir.F32Type.get()
    idx = [rv.rv(i) for i in list(store.operands)[2:]]
    g = memref.LoadOp(sh, idx).result
    memref.StoreOp(arith.constant(t, 0), sh, idx)
    ssh = rv.shadow(load.operands[0])
    sidx = [rv.rv(i) for i in list(load.operands)[1:]]
    old = memref.LoadOp(ssh, sidx).result
    total = arith.addf(arith.bitcast(ft, old), arith.bitcast(ft, g))
    memref.StoreOp(arith.bitcast(t, total), ssh, sidx)


def vararg_call_rule(rv, op):
    """llvm.call (the frontend's variadic C calls): printing has no adjoint; anything else is not
    differentiated."""
    from .rules_forward import PRINTING
    callee = ir.FlatSymbolRefAttr(op.attributes["callee"]).value if "callee" in op.attributes else None
    if callee is None:
        raise error_at_op(op, "unsupported construct: differentiating a call through a function pointer that is "
                              "not one known function where it is differentiated (call the function by name)")
    if callee not in PRINTING:
        raise error_at_op(op, f"unsupported construct: differentiating a call of '{callee}'")


def atomic_rule(rv, op):
    """memref.atomic_rmw: old = M; M = old + val (addf: CUDA atomicAdd, `#pragma omp atomic` update, read as an
    add of 0, capture) or M = val (assign: atomic write). With dM the shadow element when the reverse sweep gets
    here and g the adjoint of the old value the program used: addf gives val the adjoint dM (left in place: adds
    commute, the location keeps accumulating) and then adds g to the shadow; assign exchanges g into the shadow
    and gives val the adjoint dM. In a parallel loop (or device code) the shadow updates are atomic; there an
    addf whose old value and added value are both differentiated (a capture) depends on the order the threads
    ran in, which is not recorded: an error. Other kinds (mul, min, max) are errors too.

    Raises:
        CompileError: the cases above; an active value added into memory that has no shadow."""
    from .rules_forward import atomic_kind
    kind = atomic_kind(op)
    val, mem, res = op.operands[0], op.operands[1], op.results[0]
    if kind not in ("addf", "assign") and (rv.act.is_varied(val) or rv.act.is_varied(mem)):
        raise error_at_op(op, f"unsupported construct: differentiating atomic {kind}")
    g = rv.pop_adj(res) if rv.act.is_varied(res) else None
    sh = rv.shadow(mem)
    if sh is None:
        if rv.act.is_varied(val) and not rv.session.in_inactive_global(mem):
            raise error_at_op(op, "an atomic add of an active value into memory that has no shadow")
        return
    idx = [rv.rv(i) for i in list(op.operands)[2:]]
    parallel = rv.atomic_context()
    if kind == "assign":
        old = zero(val.type) if g is None else g
        if parallel:
            d = memref.AtomicRMWOp(arith.AtomicRMWKind.assign, old, sh, idx).result
        else:
            d = memref.LoadOp(sh, idx).result
            memref.StoreOp(old, sh, idx)
        if rv.act.is_varied(val):
            rv.add_adj(val, d)
        return
    if g is not None and rv.act.is_varied(val) and parallel:
        raise error_at_op(op, "unsupported construct: reverse mode through an atomic capture (the old value "
                              "used) of a differentiated sum in a parallel loop: its derivative depends on the "
                              "order the threads ran in")
    if rv.act.is_varied(val):
        rv.add_adj(val, memref.LoadOp(sh, idx).result)
    if g is not None:
        if parallel:
            memref.AtomicRMWOp(arith.AtomicRMWKind.addf, g, sh, idx)
        else:
            memref.StoreOp(arith.addf(memref.LoadOp(sh, idx).result, g), sh, idx)


def memcpy_rule(rv, op):
    """llvm.intr.memcpy(dst, src, n): the destination's shadow flows back into the source's and is reset."""
    from .activity import element_type_of
    from .cache import memref_of
    dst, src, n = op.operands[0], op.operands[1], op.operands[2]
    sd = rv.shadow(dst) if rv.act.is_varied(dst) else None
    ss = rv.shadow(src) if rv.act.is_varied(src) else None
    if sd is None:
        if ss is not None:
            raise error_at_op(op, "copying differentiated memory into memory that has no shadow")
        return
    # (a bit copy through an integer: `memcpy(&u, &x, 8)` with u an unsigned long long, the float side's type)
    floats = [t for t in (element_type_of(dst), element_type_of(src)) if t is not None and is_float(t)]
    elem = floats[0] if floats else None
    if elem is None:
        raise error_at_op(op, "unsupported construct: memcpy of differentiated memory of unknown element type")
    idx = ir.IndexType.get()
    width = 8 if isinstance(elem, ir.F64Type) else 4
    count = arith.index_cast(idx, arith.divui(rv.rv(n), arith.constant(rv.rv(n).type, width)))
    md, ms = memref_of(sd, elem), (memref_of(ss, elem) if ss is not None else None)
    loop = scf.ForOp(arith.constant(idx, 0), count, arith.constant(idx, 1))
    with ir.InsertionPoint(loop.body):
        k = loop.induction_variable
        g = memref.LoadOp(md, [k]).result
        memref.StoreOp(zero(elem), md, [k])
        if ms is not None:
            if rv.atomic_context():
                memref.AtomicRMWOp(arith.AtomicRMWKind.addf, g, ms, [k])
            else:
                memref.StoreOp(arith.addf(memref.LoadOp(ms, [k]).result, g), ms, [k])
        scf.YieldOp([])


def memset_rule(rv, op):
    """llvm.intr.memset: the filled bytes are constants, their shadow is reset."""
    from mlir.dialects import llvm
    if rv.act.is_varied(op.operands[0]):
        llvm.MemsetOp(rv.shadow(op.operands[0]), arith.constant(ir.IntegerType.get_signless(8), 0),
                      rv.rv(op.operands[2]), ir.BoolAttr.get(False))


def loop_rule(rv, op):
    """scf.for: a loop counting the iterations down, adjoints of iter_args and free values carried (a scalar loop
    with a single active input is preaccumulated in forward mode instead: ad/preaccumulate.py)."""
    from .preaccumulate import preaccumulate, single_active_input
    u = single_active_input(rv, op)
    if u is not None:
        preaccumulate(rv, op, u)
        return
    n_res = len(op.results)
    ops = list(op.operands)
    lb, step = ops[0], ops[2]
    inits = ops[3:]
    body = op.regions[0].blocks[0]
    A = [j for j in range(n_res) if rv.act.is_varied(op.results[j]) and is_float(op.results[j].type)]
    F = rv.free_values(op)
    carried = [rv.pop_adj(op.results[j]) for j in A]
    carried = [c if c is not None else zero(op.results[j].type) for c, j in zip(carried, A)]
    carried += [rv.scope.adj.get(f) if rv.scope.adj.get(f) is not None else zero(f.type) for f in F]
    n = rv.caches.trip_count(op, rv.rv)
    idx = ir.IndexType.get()
    c0, c1 = arith.constant(idx, 0), arith.constant(idx, 1)
    loop = scf.ForOp(c0, n, c1, carried)
    rv.reversed_loops.append(loop)
    with ir.InsertionPoint(loop.body):
        kk = arith.subi(arith.subi(n, c1), loop.induction_variable)
        iv = arith.addi(rv.rv(lb), arith.muli(kk, rv.rv(step)))
        sentinel = new_sentinel()  # recomputed values and cache loads of this body go before it, after kk
        scope = rv.enter(body, sentinel, op, [kk])
        scope.memo[body.arguments[0]] = iv
        args = list(loop.inner_iter_args)
        for k, f in enumerate(F):
            scope.adj[f] = args[len(A) + k]
        y = terminator(body)
        for k, j in enumerate(A):
            rv.add_adj(y.operands[j], args[k])
        rv.reverse_ops(body_ops(body))
        outs = []
        for j in A:
            a = body.arguments[1 + j]
            g = scope.adj.get(a)
            outs.append(g if g is not None else zero(a.type))
        outs += [scope.adj.get(f) if scope.adj.get(f) is not None else zero(f.type) for f in F]
        rv.leave()
        scf.YieldOp(outs)
    res = list(loop.results)
    for k, f in enumerate(F):  # (before the inits: an init may also be a free value)
        rv.scope.adj[f] = res[len(A) + k]
    for k, j in enumerate(A):
        rv.add_adj(inits[j], res[k])


def if_rule(rv, op):
    """scf.if: the same condition; each branch reversed; adjoints of free values are the if's results."""
    n_res = len(op.results)
    A = [j for j in range(n_res) if rv.act.is_varied(op.results[j]) and is_float(op.results[j].type)]
    F = rv.free_values(op)
    gs = [rv.pop_adj(op.results[j]) for j in A]
    if not F and all(g is None for g in gs) and not has_memory_adjoints(rv, op):
        return
    outer = {f: rv.scope.adj.get(f) for f in F}
    new = scf.IfOp(rv.rv(op.operands[0]), [f.type for f in F], has_else=True)
    for region, nblock in zip(op.regions, (new.then_block, new.else_block)):
        with ir.InsertionPoint(nblock):
            sentinel = new_sentinel()
            if len(region.blocks):
                body = region.blocks[0]
                scope = rv.enter(body, sentinel)
                scope.adj.update({f: g for f, g in outer.items() if g is not None})
                y = terminator(body)
                for g, j in zip(gs, A):
                    if g is not None:
                        rv.add_adj(y.operands[j], g)
                rv.reverse_ops(body_ops(body))
                outs = [scope.adj.get(f) if scope.adj.get(f) is not None else zero(f.type) for f in F]
                rv.leave()
            else:
                outs = [outer[f] if outer[f] is not None else zero(f.type) for f in F]
            scf.YieldOp(outs)
    for k, f in enumerate(F):
        rv.scope.adj[f] = new.results[k]


def has_memory_adjoints(rv, op) -> bool:
    """Whether reversing `op`'s regions touches shadow memory (or synchronizes threads: a barrier is mirrored)."""
    return any((o.name in ("memref.load", "memref.store", "func.call") and o in rv.act.touched)
               or o.name == "gpu.barrier" for o in all_ops(op))


def alloc_rule(rv, op):
    """memref.alloca/alloc: nothing (a shadow made on demand is freed by after_reverse)."""
    pass  # the shadow (if any) is freed by after_reverse


def call_rule(rv, op):
    """A call that was not inlined (recursion): the callee's reverse derivative, recomputing its forward sweep
    (exact when the callee writes no memory it does not allocate and the caller leaves the memory it reads
    alone after the call); otherwise the forward sweep called the callee's augmented forward pass and this
    calls its reverse with the tape (`taped_call`, `taped_reverse`: Enzyme's treatment of recursion)."""
    name = op.attributes["callee"].value
    if name in MALLOCS or is_free(name) or name == "realloc" or name in rv.session.inactive or \
            is_dynamic_shared(op):  # (realloc: Reverse.realloc_shadow)
        return
    if name in rv.session.gradient_rules:
        custom_gradient(rv, op, rv.session.gradient_rules[name][1])
        return
    if name in rv.session.function_like or is_libm_call(rv.session, op):
        from .rules_forward import call_partials
        g = rv.pop_adj(op.results[0]) if len(op.results) else None
        if g is None:
            return
        for k, part, _ in call_partials(rv.session, op, rv.rv, lambda: rv.rv(op.results[0])):
            if rv.act.is_varied(op.operands[k]):
                rv.add_adj(op.operands[k], P.apply(part, g))
        return
    if name not in rv.session.funcs or not len(rv.session.funcs[name].regions[0].blocks):
        if any(rv.act.is_varied(v) for v in list(op.results) + list(op.operands)):
            raise error_at_op(op, f"unsupported construct: differentiating a call of '{name}', whose body is "
                                  f"not in this file (register a gradient with __enzyme_register_gradient_{name}"
                                  " or mark it __enzyme_inactivefn)")
        return
    active = tuple(rv.act.is_varied(v) for v in op.operands)
    if op in rv.tapes:  # (its augmented forward ran in the forward sweep: taped_call)
        taped_reverse(rv, op, name, active)
        return
    if taped_recursive(rv.session, name):
        raise error_at_op(op, f"unsupported construct: reverse mode through the recursive function "
                              f"'{name}', which writes memory it does not allocate")
    _check_memory_kept(rv, op, name)
    dname = rv.session.derivative(name, "reverse", active, extra=("call",), at=op)
    args = _reverse_arguments(rv, op, active)
    ftype = ir.FunctionType(ir.TypeAttr(rv.session.funcs[dname].attributes["function_type"]).value)
    call = func.CallOp(list(ftype.results), ir.FlatSymbolRefAttr.get(dname), args)
    k = 0
    for v, a in zip(op.operands, active):
        if a and is_float(v.type):
            rv.add_adj(v, call.results[k])
            k += 1


def _reverse_arguments(rv, op, active) -> list:
    """The arguments of the reverse derivative of call `op`: each argument's reverse-sweep value (then its shadow
    when it is an active pointer), then the adjoint of each floating result (zero when nothing used it)."""
    args = []
    for v, a in zip(op.operands, active):
        args.append(rv.rv(v))
        if a and not is_float(v.type):
            args.append(rv.shadow(v))
    for r in op.results:
        if is_float(r.type):
            g = rv.pop_adj(r)
            args.append(g if g is not None else zero(r.type))
    return args


def taped_recursive(session, name) -> bool:
    """Whether defined function `name`, which stays a call (recursion), writes memory it does not allocate: its
    derivative cannot re-run it in the reverse sweep (the writes would repeat on memory already changed), so its
    calls run its augmented forward, which keeps a tape, and its reverse reads the tape (`taped_reverse`)."""
    memo = session.__dict__.setdefault("taped_recursive", {})
    if name not in memo:
        from .activity import COPIES, root_alloc
        memo[name] = False
        for inner in all_ops(session.primal(name, "reverse")):
            target = inner.operands[1] if inner.name in ("memref.store", "llvm.store", "memref.atomic_rmw") else \
                inner.operands[0] if inner.name in COPIES or inner.name == "llvm.intr.memset" else None
            if target is not None and root_alloc(target) is None:
                memo[name] = True
                break
    return memo[name]


def taped_call(rv, op) -> None:
    """Forward sweep of primal call `op` of a `taped_recursive` function with differentiated arguments: one call
    of its augmented forward (Enzyme's split mode, api_calls.Session.split_derivative with a full tape) instead of
    the primal call: the same writes and results, and a tape kept in `rv.tapes` for `taped_reverse`."""
    from .raw_memory import fshadow
    from mlir.dialects import llvm
    name = op.attributes["callee"].value
    active = tuple(rv.act.is_varied(v) for v in op.operands)
    aug, _ = rv.session.split_derivative(name, active, at=op, taped=True)
    fcall = rv.fops[op]
    with ir.InsertionPoint(fcall), op.location:
        args = []
        for v, a in zip(op.operands, active):
            args.append(rv.vmap.get(v, v))
            if a and not is_float(v.type):
                args.append(fshadow(rv, v))
        ptr = ir.Type.parse("!llvm.ptr")
        call = func.CallOp([ptr] + [r.type for r in op.results], ir.FlatSymbolRefAttr.get(aug), args)
        rv.tapes[op] = llvm.PtrToIntOp(ir.IntegerType.get_signless(64), call.results[0]).result
    for old, new, r in zip(fcall.results, list(call.results)[1:], op.results):
        old.replace_all_uses_with(new)
        rv.vmap[r] = new
    rv.fops[op] = call.operation
    fcall.erase()


def taped_reverse(rv, op, name, active) -> None:
    """Reverse sweep of a call `taped_call` made: the reverse of the split derivative, with the call's arguments
    and shadows, the adjoints of its floating results, then the tape; its results are the adjoints of the active
    floating arguments."""
    _, rev = rv.session.split_derivative(name, active, at=op, taped=True)
    args = _reverse_arguments(rv, op, active)
    args.append(_tape_in_reverse(rv, op, rv.tapes[op]))
    floats = [v for v, a in zip(op.operands, active) if a and is_float(v.type)]
    call = func.CallOp([v.type for v in floats], ir.FlatSymbolRefAttr.get(rev), args)
    for v, g in zip(floats, call.results):
        rv.add_adj(v, g)


def _check_memory_kept(rv, op, name, check_only=False):
    """The callee's derivative re-runs its forward sweep in the reverse sweep, reading the memory its pointer
    arguments reach as it is then: that memory must not be written after the call, except by stores of floats
    of a type whose values that derivative does not need (_needed_read_types). A free of the memory after the
    call is moved to the reverse sweep (_defer_free). With `check_only` (the forward sweep, choosing between
    that and a taped call): returns whether the memory is kept, changing nothing.

    Raises:
        CompileError: a write after the call that may reach the memory a pointer argument points to."""
    from .cache import Overwrites
    from .activity import is_pointer_like
    caches = getattr(rv, "caches", None)
    if caches is None:  # (the forward sweep)
        ow = Overwrites(rv.primal, rv.session, getattr(rv, "taped", False))
    else:
        if caches.overwrites is None:
            caches.overwrites = Overwrites(rv.primal, rv.session, getattr(rv, "taped", False))
        ow = caches.overwrites
    reads = set()
    for v in op.operands:
        if is_pointer_like(v.type):
            reads |= ow.roots(v)
    if not reads:
        return True
    if ow.outside(reads):
        # (in a taped derivative the caller may write this memory before the reverse runs, after this call
        # returns: `s = rsum(a, s, n); a[i] = s;` around a taped call of a recursive rsum reading `a`)
        if check_only:
            return False
        raise error_at_op(op, f"unsupported construct: reverse mode through the recursive call of '{name}' "
                              "whose argument memory may be written after the call")
    needed = _needed_read_types(rv.session, name)
    from .raw_memory import writes_outside
    for later in ow.later_ops(op):
        if later.name == "func.call" and is_free(later.attributes["callee"].value):
            freed = set().union(*(ow.roots(x) for x in later.operands if is_pointer_like(x.type)))
            if freed & reads and not check_only:
                _defer_free(rv, op, name, later, freed)
            continue
        if later.name == "func.call" and not writes_outside(rv.session, later.attributes["callee"].value):
            continue
        if needed is not None and later.name in ("llvm.store", "memref.store", "affine.store") and \
                is_float(later.operands[0].type) and _scalar_type_key(later.operands[0].type) not in needed:
            # (C's effective-type rule: a store of a float cannot change the integers and pointers the callee's
            # derivative needs; the floats it re-reads only flow into sums, whose derivative needs no value)
            continue
        w = ow.writes_of(later)
        if w is None or (w and ow.alias(reads, w)):
            if check_only:
                return False
            raise error_at_op(op, f"unsupported construct: reverse mode through the recursive call of '{name}' "
                                  "whose argument memory may be written after the call")
    return True


def _scalar_type_key(t):
    """A hashable key of scalar type `t` (its printed form; pointers of any kind are one key)."""
    return "ptr" if str(t).startswith("!llvm.ptr") or isinstance(t, ir.MemRefType) else str(t)


LINEAR_FLOAT_USERS = {"arith.addf", "arith.subf", "arith.negf", "arith.extf", "arith.truncf", "arith.select",
                      "scf.yield", "func.return"}


def _needed_read_types(session, name):
    """The scalar types (_scalar_type_key) of the values that the derivative of kept function `name` re-reads from
    memory and needs: every load except a float that flows only through sums and differences into the result or
    into memory (its value never enters the derivative); a copy (a struct assignment) reads bytes that matter only
    through this function's loads of the copy. None when the function calls other functions that stay calls
    (anything may be needed)."""
    memo = session.__dict__.setdefault("needed_read_types", {})
    if name in memo:
        return memo[name]
    f = session.primal(name, "reverse")
    out = set()
    from .activity import COPIES
    for o in all_ops(f):
        oname = o.name
        if oname in COPIES:
            continue  # (the bytes copied are needed only as the loads of this function from the copy read them)
        if oname == "llvm.call":
            out = None
            break
        if oname == "func.call":
            callee = o.attributes["callee"].value
            if callee != name and callee in session.funcs and len(session.funcs[callee].regions[0].blocks):
                out = None
                break
            continue
        if oname in ("llvm.load", "memref.load", "affine.load"):
            r = o.results[0]
            if not (is_float(r.type) and _linear_only(r)):
                out.add(_scalar_type_key(r.type))
    memo[name] = out
    return out


def _linear_only(v, seen=None) -> bool:
    """Whether float `v` reaches only sums, differences, selections, yields, returns and stored values (no
    product, call, comparison or conversion to an integer: the derivative never needs its value); values carried
    by loops and branches are followed (a cycle adds nothing)."""
    seen = set() if seen is None else seen
    if v in seen:
        return True
    seen.add(v)
    for use in v.uses:
        user = use.owner
        uname = user.operation.name
        k = use.operand_number
        if uname in ("llvm.store", "memref.store", "affine.store") and k == 0:
            continue
        if uname == "scf.while":  # (an initial value carried by the loop)
            if not _linear_only(user.regions[0].blocks[0].arguments[k], seen):
                return False
            continue
        if uname == "scf.for" and k >= 3:
            if not all(_linear_only(x, seen) for x in (user.results[k - 3],
                                                       user.regions[0].blocks[0].arguments[k - 2])):
                return False
            continue
        if uname not in LINEAR_FLOAT_USERS | {"scf.condition"} or (uname == "arith.select" and k == 0):
            return False
        nexts = []
        if uname in ("arith.addf", "arith.subf", "arith.negf", "arith.extf", "arith.truncf", "arith.select"):
            nexts = [user.results[0]]
        elif uname == "scf.condition":  # (operand k >= 1: the loop's result and the `do` region's argument)
            loop = user.operation.parent
            nexts = [loop.results[k - 1], loop.regions[1].blocks[0].arguments[k - 1]]
        elif uname == "scf.yield":
            parent = user.operation.parent
            if parent.name == "scf.if":
                nexts = [parent.results[k]]
            elif parent.name == "scf.for":
                nexts = [parent.results[k], parent.regions[0].blocks[0].arguments[k + 1]]
            elif parent.name == "scf.while":
                nexts = [parent.regions[0].blocks[0].arguments[k]]
            else:
                return False
        if not all(_linear_only(x, seen) for x in nexts):
            return False
    return True


def _defer_free(rv, op, name, free_op, freed):
    """`free(p)` after the kept call `op`, whose derivative re-reads p's memory in the reverse sweep (a record
    malloc'd, filled, passed to a recursive call and freed: Enzyme's mixedstruct tests): the forward sweep keeps
    the memory and the reverse sweep frees it when it reaches p's malloc (as Enzyme defers a free the reverse
    pass needs).

    Raises:
        CompileError: p's memory is not one malloc of this function at the level of the free."""
    from .activity import is_pointer_like, root_alloc
    allocs = {root_alloc(x) for x in free_op.operands if is_pointer_like(x.type)}
    alloc = next(iter(allocs)) if len(allocs) == 1 else None
    if alloc is None or alloc.name != "func.call" or alloc.attributes["callee"].value not in MALLOCS or \
            free_op.attributes["callee"].value != "free" or alloc.operation.block != free_op.operation.block:
        raise error_at_op(op, f"unsupported construct: reverse mode through the recursive call of '{name}' "
                              "whose argument memory is freed after the call")
    fwd = rv.fops.get(free_op.operation)
    if fwd is None or fwd in rv.deferred_frees:
        return
    rv.deferred_frees.add(fwd)
    fwd.erase()
    rv.fops[free_op.operation] = None
    ptr = alloc.results[0]
    rv.shadow_frees(alloc, lambda: rv.session_free(rv.rv(ptr)))


def custom_gradient(rv, op, rev):
    """A call of f with ``__enzyme_register_gradient_f = {f, aug, rev}`` (Enzyme's calling convention): the forward
    sweep called aug instead of f (raw_memory.forward_sweep_shadows -> augmented_call); here rev is called with
    f's arguments, each differentiated pointer followed by its shadow, then the adjoint of f's floating result,
    then the tape when aug returns one; rev returns the adjoints of f's floating arguments (one: a scalar;
    several: a struct of them)."""
    from .rules_forward import check_signature
    args = []
    for v in op.operands:
        args.append(rv.rv(v))
        if not is_float(v.type) and rv.act.is_varied(v):
            args.append(rv.shadow(v))
    for r in op.results:
        if is_float(r.type):
            g = rv.pop_adj(r)
            args.append(g if g is not None else zero(r.type))
    tape = rv.tapes.get(op)
    if tape is not None:
        args.append(_tape_in_reverse(rv, op, tape))
    floats = [v for v in op.operands if is_float(v.type)]
    results = [v.type for v in floats]
    packed = None
    if len(floats) > 1:
        packed = ir.Type.parse("!llvm.struct<(" + ", ".join(str(t) for t in results) + ")>")
        f = rv.session.funcs.get(rev)
        if f is not None and list(ir.FunctionType(ir.TypeAttr(f.attributes["function_type"]).value).results) \
                == [packed]:
            results = [packed]
    check_signature(rv.session, op, rev, args, results)
    call = func.CallOp(results, ir.FlatSymbolRefAttr.get(rev), args)
    if results and results[0] == packed:
        from mlir.dialects import llvm
        grads = [llvm.ExtractValueOp(t, call.results[0], ir.DenseI64ArrayAttr.get([k])).result
                 for k, t in enumerate([v.type for v in floats])]
    else:
        grads = list(call.results)
    for v, g in zip(floats, grads):
        if rv.act.is_varied(v):
            rv.add_adj(v, g)


def _tape_in_reverse(rv, op, tape):
    """The tape aug returned for call `op` (kept as an i64 by the forward sweep), at the reverse sweep's point."""
    from mlir.dialects import llvm
    if rv.is_top(op.results[0]) if len(op.results) else op.operation.block == rv.primal.regions[0].blocks[0]:
        v = tape
    else:
        scope = rv.scope_of(op.operation.block)
        v = rv.caches.load_pseudo(("tape", op), op.operation.block, tape, scope, op.location)
    return llvm.IntToPtrOp(ir.Type.parse("!llvm.ptr"), v).result


def while_rule(rv, op):
    """scf.while: the last `before` execution reversed first, then a loop counting the `do` executions down, each
    iteration reversing `do` then `before`. The trip count is counted by the forward sweep (and cached when the
    loop is itself inside a loop); values from inside are cached in grown arrays (cache.py)."""
    before, after = op.regions[0].blocks[0], op.regions[1].blocks[0]
    cond, ayield = terminator(before), terminator(after)
    cargs = list(cond.operands)[1:]
    A_res = [j for j in range(len(op.results)) if rv.act.is_varied(op.results[j]) and is_float(op.results[j].type)]
    A_b = [j for j in range(len(before.arguments))
           if rv.act.is_varied(before.arguments[j]) and is_float(before.arguments[j].type)]
    F = rv.free_values(op)
    if rv.session.device and contains_barrier(op):
        n = device_while_count(rv, op)  # (a count cpuify sees as uniform)
    else:
        n = rv.caches.while_count(op, rv.scope)
    g_res = [rv.pop_adj(op.results[j]) for j in A_res]
    outer = rv.scope

    def reverse_before(seeds, free_adj):
        scope = rv.enter(before, new_sentinel())
        scope.adj.update({f: g for f, g in free_adj.items() if g is not None})
        for g, j in zip(seeds, A_res):
            if g is not None:
                rv.add_adj(cargs[j], g)
        rv.reverse_ops(body_ops(before))
        outs = [scope.adj.get(before.arguments[j]) for j in A_b]
        outs = [g if g is not None else zero(before.arguments[j].type) for g, j in zip(outs, A_b)]
        fr = {f: scope.adj.get(f) for f in F}
        rv.leave()
        return outs, fr

    # the final evaluation of the condition (the one that exits)
    carried, free_adj = reverse_before(g_res, {f: outer.adj.get(f) for f in F})
    init = carried + [free_adj[f] if free_adj[f] is not None else zero(f.type) for f in F]
    idx = ir.IndexType.get()
    loop = scf.ForOp(arith.constant(idx, 0), n, arith.constant(idx, 1), init)
    with ir.InsertionPoint(loop.body):
        args = list(loop.inner_iter_args)
        scope = rv.enter(after, new_sentinel())
        for k, f in enumerate(F):
            scope.adj[f] = args[len(A_b) + k]
        for k, j in enumerate(A_b):
            rv.add_adj(ayield.operands[j], args[k])
        rv.reverse_ops(body_ops(after))
        seeds = [scope.adj.get(after.arguments[j]) for j in A_res]
        fr = {f: scope.adj.get(f) for f in F}
        rv.leave()
        outs, fr = reverse_before(seeds, fr)
        scf.YieldOp(outs + [fr[f] if fr[f] is not None else zero(f.type) for f in F])
    res = list(loop.results)
    for k, f in enumerate(F):  # (before the inits: an init may also be a free value)
        outer.adj[f] = res[len(A_b) + k]
    for k, j in enumerate(A_b):
        rv.add_adj(op.operands[j], res[k])


def parallel_rule(rv, op):
    """scf.parallel: the iterations are independent, so the reversed loop is parallel over the same space, each
    iteration reversing its own body. Shadow accumulations from loads use atomics unless no two iterations
    read the same element (`injective_access`); adjoints of values defined outside the loop (a hoisted norm's
    result) are sums over the iterations: reductions of the reversed loop (`scf.reduce`, lowered to OpenMP's
    reduction clause), each thread summing its own part, instead of one atomic add per iteration on one slot,
    which serialized the threads on that cache line (2 threads ran 2.6x slower than 1). A race-free primal writes each element from one iteration only, so the shadow
    resets of stores need no atomics. A sum reduction passes its result's adjoint unchanged to its initial
    value and to every iteration's reduced value (activity.py rejects other varied reductions)."""
    body = op.regions[0].blocks[0]
    n = len(body.arguments)
    ops = list(op.operands)
    lbs, ubs, steps = ops[:n], ops[n:2 * n], ops[2 * n:3 * n]
    reduced = list(terminator(body).operands)
    seeds = [rv.pop_adj(r) for r in op.results]
    for init, g in zip(ops[3 * n:], seeds):
        if g is not None and rv.act.is_varied(init):
            rv.add_adj(init, g)
    F = rv.free_values(op)
    outer = {f: rv.scope.adj.get(f) for f in F}
    new = create_like(op, [rv.rv(v) for v in lbs + ubs + steps] + [zero(f.type) for f in F],
                      [f.type for f in F], segments=[n, n, n, len(F)])
    rv.__dict__.setdefault("reversed_parallel", {})[op.operation] = new
    block = new.regions[0].blocks.append(*[a.type for a in body.arguments])
    with ir.InsertionPoint(block):
        rlbs, rsteps = [rv.rv(v) for v in lbs], [rv.rv(v) for v in steps]
        idx = [arith.divui(arith.subi(iv, lb), st) for iv, lb, st in zip(block.arguments, rlbs, rsteps)]
        sentinel = new_sentinel()
        scope = rv.enter(body, sentinel, op, idx)
        for a, na in zip(body.arguments, block.arguments):
            scope.memo[a] = na
        for v, g in zip(reduced, seeds):
            if g is not None and rv.act.is_varied(v):
                rv.add_adj(v, g)
        rv.reverse_ops(body_ops(body))
        parts = [scope.adj.get(f) for f in F]
        rv.leave()
        red = scf.ReduceOp([g if g is not None else zero(f.type) for f, g in zip(F, parts)], len(F))
        for region, f in zip(red.regions, F):
            rb = region.blocks.append(f.type, f.type)
            with ir.InsertionPoint(rb):
                scf.ReduceReturnOp(P.accumulate(rb.arguments[0], rb.arguments[1]))
    finish_overlap_check(rv, op, new)
    for f, total in zip(F, new.results):
        rv.scope.adj[f] = total if outer[f] is None else P.accumulate(outer[f], total)


REVERSE_RULES = {
    "arith.select": select_rule,
    "memref.atomic_rmw": atomic_rule,
    "llvm.intr.memcpy": rev_copy_rule,
    "llvm.intr.memmove": rev_copy_rule,
    "llvm.intr.memset": memset_rule,
    "memref.load": load_rule,
    "memref.store": store_rule,
    **{n: alloc_rule for n in ALLOCS},
    "memref.dealloc": no_adjoint,
    "memref.prefetch": no_adjoint,  # (a hint: grid-stride loops of cpuified kernels, gpu_to_cpu/grid_stride_prefetch.py)
    "scf.for": loop_rule,
    "scf.if": if_rule,
    "scf.while": while_rule,
    "scf.parallel": parallel_rule,
    "func.call": call_rule,
    "llvm.call": vararg_call_rule,
    "llvm.load": rev_load_rule,  # (a pointer load: its shadow is made on demand by Reverse.shadow)
    "llvm.store": rev_store_rule,
    "llvm.alloca": no_adjoint,  # (its shadow is made by the forward sweep: raw_memory.forward_sweep_shadows)
    "gpu.barrier": barrier_rule,  # (mirrored: ad/gpu_block.py)
}
