"""Reverse mode (adjoints) on structured MLIR: func, scf (for, if, while, parallel), memref, arith, math.

The derivative function runs a *forward sweep* (a copy of the primal code) and then a *reverse sweep* that
visits the ops backwards, one rule per op name in REVERSE_RULES (scalar ops through partials.PARTIALS, shared
with forward mode). Loops reverse into scf.for loops counting down; scf.if into scf.if on the same condition;
adjoints of values defined outside a region and used inside it are carried through the reversed region as
loop-carried values / if results, so no adjoint lives in memory.

Primal values needed by the reverse sweep (ad/cache.py decides how):
  * defined at function level: the forward sweep's SSA value itself;
  * inside regions: per block, a minimum cut (mincut.py) picks the fewest values to cache such that every
    value the reverse needs is cached or recomputable from cached ones; pure ops and loads of memory that is not
    overwritten later are recomputed, hoisted to the start of the reversed block that defines them; cached values
    (cache.py) live in arrays indexed by the iterations of the enclosing loops, freed at the end.
Memory is handled with shadows: a load's adjoint is added to the shadow; a store moves the shadow's value into
the stored value's adjoint and zeroes it. The forward sweep never touches shadows, so shadows of local
allocations are created (zeroed) lazily in the reverse sweep.
(Enzyme, Moses & Churavy NeurIPS'20; Enzyme-MLIR; JAX transpose rules for the table shape.)
"""

from __future__ import annotations

from mlir import ir
from mlir.dialects import arith, func, memref, scf

from polygeist_py.errors import error_at_op

from . import partials as P
from .activity import ALLOCS, MALLOCS, PLUMBING, Activity, all_ops, is_float
from .cache import Caches
from .mincut import Planner
from .emit import body_ops, create_like, fill_zero, terminator, zero


class Scope:
    """The reversal of one primal block: where its recomputed values go (before `sentinel`), their memo, and the
    adjoints known at the current point of the reverse sweep."""

    def __init__(self, block, parent, sentinel, loop=None, rev_index=None):
        self.block = block
        self.parent = parent
        self.sentinel = sentinel
        self.loop = loop            # the primal loop whose body this is (None for if branches / function)
        self.rev_index = rev_index  # its iteration numbers (one per loop dimension) in the reversed loop
        self.memo = {}
        self.smemo = {}
        self.adj = {}


class Reverse:
    """Synthesizes the reverse-mode derivative of one primal function.

    Args:
        session: the ad.api_calls.Session.
        primal: prepared primal copy (func.func, one block, affine lowered to scf).
        active: per parameter, whether it is differentiated (duplicated pointer or active scalar).
        extra: ("entry", activities) for a function called from __enzyme_autodiff (the seed of a floating
            result is 1.0), or ("call",) for a callee's derivative (one seed argument per floating result).
    Signature built: per parameter its primal, followed by its shadow for an active pointer; then (call only)
    the seeds; results: the adjoints of the active floating-point parameters, in order.
    """

    def __init__(self, session, primal, active, extra):
        self.session = session
        self.primal = primal
        self.active = active
        self.entry_mode = extra[0] == "entry"
        self.act = Activity(primal, [i for i, a in enumerate(active) if a], session.inactive)
        self.vmap = {}      # primal value -> forward-sweep value
        self.fops = {}      # primal op -> forward-sweep op
        self.tmap = {}      # primal pointer argument -> shadow argument
        self.sentinels = []
        self.pending_free = {}  # primal allocation op -> emits the free of its shadow
        self.ancestors = {}

    def signature(self):
        """The derivative's type (see the class docstring)."""
        ftype = ir.FunctionType(ir.TypeAttr(self.primal.attributes["function_type"]).value)
        ins, outs = [], []
        for t, a in zip(ftype.inputs, self.active):
            ins.append(t)
            if a and not is_float(t):
                ins.append(t)
            if a and is_float(t):
                outs.append(t)
        if not self.entry_mode:
            ins += [t for t in ftype.results if is_float(t)]
        return ir.FunctionType.get(ins, outs)

    def build(self, name: str, ftype=None):
        """Create func `name` (type `ftype`, else signature()) in the module and fill it: forward sweep, reverse

        sweep, return of the adjoints. Returns the func op."""
        ftype = ftype or self.signature()
        if list(ftype.inputs) != list(self.signature().inputs):
            raise error_at_op(self.primal, "the arguments of __enzyme_autodiff do not match the function's "
                                           "parameters")
        with ir.InsertionPoint(self.session.module.body), self.primal.location:
            f = func.FuncOp(name, ftype, visibility="private")
            self.session.register(f)
            entry = f.add_entry_block()
        pentry = self.primal.regions[0].blocks[0]
        k = 0
        for i, a in enumerate(pentry.arguments):
            self.vmap[a] = entry.arguments[k]
            k += 1
            if self.active[i] and not is_float(a.type):
                self.tmap[a] = entry.arguments[k]
                k += 1
        seeds = list(entry.arguments)[k:]
        ret = terminator(pentry)
        with ir.InsertionPoint(entry):
            # forward sweep: the primal code, op for op
            for op in body_ops(pentry):
                with op.location:
                    self.clone_tree(op)
            self.caches = Caches(self, entry)
            self.planner = Planner(self, self.caches.recompute)
            with self.primal.location:
                sentinel = arith.constant(ir.IndexType.get(), 0).owner
            top = Scope(pentry, None, sentinel)
            self.scope = top
            with ret.location:
                floats = [v for v in ret.operands if is_float(v.type)]
                for i, v in enumerate(floats):
                    seed = seeds[i] if not self.entry_mode else arith.constant(v.type, 1.0)
                    self.add_adj(v, seed)
            self.reverse_ops(body_ops(pentry))
            with ret.location:
                outs = []
                for i, a in enumerate(pentry.arguments):
                    if self.active[i] and is_float(a.type):
                        g = top.adj.get(a)
                        outs.append(g if g is not None else zero(a.type))
                self.caches.free_all()
                func.ReturnOp(outs)
        for st in [sentinel] + self.sentinels:
            st.erase()
        return f

    # ------------------------------------------------------------------ forward sweep
    def clone_tree(self, op):
        """Clone top-level `op` with its regions; map every primal value and op inside to its copy."""
        new = op.clone()
        from .emit import remap_operands
        remap_operands(new.operation, self.vmap)
        olds, news = [op.operation] + all_ops(op), [new.operation] + all_ops(new)
        for o, n in zip(olds, news):
            self.fops[o] = n
            for a, b in zip(o.results, n.results):
                self.vmap[a] = b
            for ro, rn in zip(o.regions, n.regions):
                for bo, bn in zip(ro.blocks, rn.blocks):
                    for a, b in zip(bo.arguments, bn.arguments):
                        self.vmap[a] = b
        return new

    # ------------------------------------------------------------------ structure queries
    def parent_ops(self, block):
        """Primal ops enclosing `block`, innermost first (up to, not including, the function)."""
        key = block
        if key in self.ancestors:
            return self.ancestors[key]
        out = []
        op = block.owner
        while op is not None and op.name != "func.func":
            out.append(op)
            op = op.operation.parent
        self.ancestors[key] = out
        return out

    @staticmethod
    def def_block(v):
        """The primal block defining value `v`."""
        owner = v.owner
        return owner if isinstance(owner, ir.Block) else owner.operation.block

    def is_top(self, v) -> bool:
        """Whether `v` is defined at function level (its forward value is usable directly in the reverse sweep)."""
        return self.def_block(v) == self.primal.regions[0].blocks[0]

    def scope_of(self, block):
        """The open reverse scope reversing primal `block`."""
        s = self.scope
        while s is not None and s.block != block:
            s = s.parent
        if s is None:
            raise AssertionError("value used outside the region that defines it")
        return s

    def defined_inside(self, v, region_op) -> bool:
        """Whether `v` is defined inside region op `region_op`."""
        return region_op.operation in [o.operation for o in self.parent_ops(self.def_block(v))]

    def free_values(self, region_op):
        """Varied floats used inside `region_op` and defined outside it (their adjoints are carried through)."""
        out, seen = [], set()
        for inner in all_ops(region_op):
            for v in inner.operands:
                if v in seen or not is_float(v.type) or not self.act.is_varied(v):
                    continue
                seen.add(v)
                if not self.defined_inside(v, region_op):
                    out.append(v)
        return out

    # ------------------------------------------------------------------ primal values in the reverse sweep
    def rv(self, v):
        """The primal value of `v` at the current point of the reverse sweep (recomputed or cached)."""
        if self.is_top(v):
            return self.vmap[v]
        scope = self.scope_of(self.def_block(v))
        got = scope.memo.get(v)
        if got is not None:
            return got
        owner = v.owner
        if isinstance(owner, ir.Block) and isinstance(v.type, ir.MemRefType):
            val = self.carried_memref(v, scope, shadow=False)
        elif isinstance(owner, ir.Block):
            val = self.caches.load(v, scope)
        elif v not in self.planner.stored(scope.block) and self.planner.recomputable(owner):
            operands = [self.rv(o) for o in owner.operands]
            with ir.InsertionPoint(scope.sentinel), owner.location:
                new = owner.clone()
                for i, o in enumerate(operands):
                    new.operands[i] = o
            for r, nr in zip(owner.results, new.results):
                scope.memo[r] = nr
            return scope.memo[v]
        else:
            val = self.caches.load(v, scope)
        scope.memo[v] = val
        return val

    def shadow(self, v):
        """The shadow of pointer/memref `v` in the reverse sweep (None when `v` is not varied)."""
        if not self.act.is_varied(v):
            return None
        if v in self.tmap:
            return self.tmap[v]
        owner = v.owner
        scope = self.scope_of(self.def_block(v)) if not self.is_top(v) else self.top_scope()
        got = scope.smemo.get(v)
        if got is None and isinstance(owner, ir.Block) and isinstance(v.type, ir.MemRefType):
            got = scope.smemo[v] = self.carried_memref(v, scope, shadow=True)
        if isinstance(owner, ir.Block) and got is None:
            raise error_at_op(owner.owner, "unsupported construct: a pointer carried through a loop in reverse "
                                           "mode")
        if got is not None:
            return got
        if owner.name in PLUMBING or owner.name in ("llvm.load", "arith.select"):
            # (llvm.load: a pointer from a pointer array; select: `c ? a : b` on pointers)
            if owner.name == "arith.select" and not all(self.act.is_varied(o) for o in list(owner.operands)[1:]):
                raise error_at_op(owner, "unsupported construct: choosing between a differentiated pointer and "
                                         "one without a shadow")
            operands = [self.shadow(o) if self.act.is_varied(o) else self.rv(o) for o in owner.operands]
            with ir.InsertionPoint(scope.sentinel), owner.location:
                new = owner.clone()
                for i, o in enumerate(operands):
                    new.operands[i] = o
            for r, nr in zip(owner.results, new.results):
                scope.smemo[r] = nr
            return scope.smemo[v]
        if owner.name in ALLOCS:
            sizes = [self.rv(o) for o in owner.operands]
            with ir.InsertionPoint(scope.sentinel), owner.location:
                new = owner.clone()
                for i, o in enumerate(sizes):
                    new.operands[i] = o
                fill_zero(new.results[0])
            scope.smemo[v] = new.results[0]
            if owner.name == "memref.alloc":
                self.shadow_frees(owner, lambda: memref.DeallocOp(new.results[0]))
            return new.results[0]
        if owner.name == "func.call" and owner.attributes["callee"].value in MALLOCS:
            from mlir.dialects import llvm
            size = [self.rv(o) for o in owner.operands]
            with ir.InsertionPoint(scope.sentinel), owner.location:
                new = owner.clone()
                for i, o in enumerate(size):
                    new.operands[i] = o
                nbytes = size[0] if len(size) == 1 else arith.muli(size[0], size[1])
                i8 = ir.IntegerType.get_signless(8)
                llvm.MemsetOp(new.results[0], arith.constant(i8, 0), nbytes, ir.BoolAttr.get(False))
            scope.smemo[v] = new.results[0]
            self.shadow_frees(owner, lambda: self.session_free(new.results[0]))
            return new.results[0]
        raise error_at_op(owner, f"unsupported construct: no shadow for a pointer made by '{owner.name}'")

    def carried_memref(self, v, scope, shadow):
        """A memref carried by a loop (`p++` in a loop): it stays inside the buffer of its initial value, so the
        forward sweep caches its offset, sizes and strides per iteration and the reverse sweep rebuilds it (or
        its shadow) on the initial value's buffer (or the shadow's).

        Raises:
            CompileError: the carried memref may come from another buffer.
        """
        from mlir.dialects import memref as m
        from .prepare import memory_root
        block = v.owner
        loop = block.owner
        idx = list(block.arguments).index(v)
        init, own, yields = None, set(), []
        if loop.name == "scf.for":
            init = list(loop.operands)[3 + idx - 1]
            yields, own = [terminator(block).operands[idx - 1]], {v}
        elif loop.name == "scf.while":
            before, after = loop.regions[0].blocks[0], loop.regions[1].blocks[0]
            cargs = list(terminator(before).operands)[1:]
            if block == after:  # an after argument is the before argument passed to scf.condition
                carg = cargs[idx]
                idx = list(before.arguments).index(carg) if isinstance(carg.owner, ir.Block) and \
                    carg.owner == before else None
            if idx is not None:
                j = idx
                init = list(loop.operands)[j]
                own = {before.arguments[j]} | {after.arguments[k] for k, c in enumerate(cargs)
                                                if c == before.arguments[j]}
                yields = [terminator(after).operands[j]]
        roots = memory_root(init) if init is not None else set()
        # the yielded pointer derives from the initial buffer or from this same carried pointer only
        if init is None or not all(memory_root(y) <= roots | own for y in yields) \
                or not self.is_top(init):
            raise error_at_op(loop, "unsupported construct: reverse mode through a loop that carries a pointer "
                                    "which may move to another buffer")
        mt = ir.MemRefType(v.type)
        fv = self.vmap[v]
        key = ("carried-memref", v)
        if key not in self.caches.slots:
            with ir.InsertionPoint(self.caches.anchor(block)), loop.location:
                meta = m.ExtractStridedMetadataOp(fv)
            self.carried_meta = getattr(self, "carried_meta", {})
            self.carried_meta[key] = meta
        meta = self.carried_meta[key]
        rank = mt.rank
        parts = list(meta.results)[1:]  # offset, sizes, strides
        vals = [self.caches.load_pseudo((key, i), block, parts[i], scope, loop.location, at_anchor=True)
                for i in range(len(parts))]
        base_of = self.shadow(init) if shadow else self.vmap[init]
        layout = ir.StridedLayoutAttr(mt.layout)
        dyn_off, dyn_size = ir.ShapedType.get_dynamic_stride_or_offset(), ir.ShapedType.get_dynamic_size()
        st_off, st_sizes, st_strides = [layout.offset], list(mt.shape), list(layout.strides)
        offs = [vals[0]] if st_off[0] == dyn_off else []
        sizes = [x for x, c in zip(vals[1:1 + rank], st_sizes) if c == dyn_size]
        strides = [x for x, c in zip(vals[1 + rank:], st_strides) if c == dyn_off]
        with ir.InsertionPoint(scope.sentinel), loop.location:
            base = m.ExtractStridedMetadataOp(base_of).results[0]
            return m.ReinterpretCastOp(mt, base, offs, sizes, strides, st_off, st_sizes, st_strides).result

    def top_scope(self):
        s = self.scope
        while s.parent is not None:
            s = s.parent
        return s

    def shadow_frees(self, alloc_op, emit):
        """Free a shadow when the reverse sweep reaches its primal allocation (the last op reversed that can use
        it)."""
        self.pending_free[alloc_op] = emit

    def session_free(self, p):
        self.libc("free", [p], None)

    def libc(self, name, args, result):
        """Call C library function `name` (declared like the frontend declares it when missing)."""
        if name not in self.session.funcs:
            with ir.InsertionPoint(self.session.module.body), ir.Location.unknown():
                self.session.register(func.FuncOp(name, ir.FunctionType.get([a.type for a in args],
                                                                            [result] if result else []),
                                                  visibility="private"))
        call = func.CallOp([result] if result else [], ir.FlatSymbolRefAttr.get(name), args)
        return call.results[0] if result else None

    # ------------------------------------------------------------------ adjoints
    def add_adj(self, v, d):
        """Accumulate `d` into the adjoint of primal value `v` (ignored for values that are not varied)."""
        if d is None or not is_float(v.type) or not self.act.is_varied(v):
            return
        adj = self.scope.adj
        old = adj.get(v)
        adj[v] = d if old is None else arith.addf(old, d)

    def pop_adj(self, v):
        """Take (and forget) the adjoint of `v` in the current scope; None when it has none."""
        return self.scope.adj.pop(v, None)

    def reverse_ops(self, ops):
        """Emit the reversal of `ops` (a block's ops in program order) at the current insertion point."""
        for op in reversed(ops):
            if op not in self.act.touched:
                self.after_reverse(op)
                continue
            rule = REVERSE_RULES.get(op.name)
            if rule is None:
                if op.name in P.PARTIALS:
                    rule = scalar_rule
                elif op.name in PLUMBING or (op.name.startswith(("arith.", "math.")) and not any(
                        self.act.is_varied(r) for r in op.results)):
                    rule = no_adjoint
                else:
                    raise error_at_op(op, f"unsupported construct: no reverse-mode derivative rule for '{op.name}'")
            with op.location:
                rule(self, op)
            self.after_reverse(op)

    def after_reverse(self, op):
        emit = self.pending_free.pop(op, None)
        if emit is not None:
            with op.location:
                emit()

    # ------------------------------------------------------------------ nested scopes
    def enter(self, block, sentinel, loop=None, rev_index=None):
        """Open the reverse scope of primal `block` (recomputed values go before `sentinel`)."""
        s = Scope(block, self.scope, sentinel, loop, rev_index)
        self.scope = s
        self.sentinels.append(sentinel)
        self.caches.register_scope(s)
        return s

    def leave(self):
        """Close the current reverse scope."""
        self.scope = self.scope.parent

    def atomic_context(self) -> bool:
        """Inside the reversal of a parallel loop: shadow updates may collide between iterations."""
        s = self.scope
        while s is not None:
            if s.loop is not None and s.loop.name == "scf.parallel":
                return True
            s = s.parent
        return False


def new_sentinel():
    return arith.constant(ir.IndexType.get(), 0).owner


# ---------------------------------------------------------------------- rules
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
    if rv.atomic_context():
        memref.AtomicRMWOp(arith.AtomicRMWKind.addf, g, sh, idx)
    else:
        memref.StoreOp(arith.addf(memref.LoadOp(sh, idx).result, g), sh, idx)


def store_rule(rv, op):
    """memref.store into shadowed memory: the shadow element becomes the stored value's adjoint and is reset to 0."""
    val, mem = op.operands[0], op.operands[1]
    sh = rv.shadow(mem)
    if sh is None:
        if rv.act.is_varied(val):
            raise error_at_op(op, "storing an active value into memory that has no shadow (an enzyme_const "
                                  "argument or a global)")
        return
    if not is_float(ir.MemRefType(mem.type).element_type):
        return
    idx = [rv.rv(i) for i in list(op.operands)[2:]]
    g = memref.LoadOp(sh, idx).result
    memref.StoreOp(zero(g.type), sh, idx)
    if rv.act.is_varied(val):
        rv.add_adj(val, g)


def atomic_rule(rv, op):
    """memref.atomic_rmw addf (CUDA atomicAdd): adds commute, so the adjoint of the added value is the shadow
    element as it is when the reverse sweep gets here (left unchanged: the location keeps accumulating)."""
    from .forward import atomic_kind
    kind = atomic_kind(op)
    val, mem = op.operands[0], op.operands[1]
    if kind != "addf" and (rv.act.is_varied(val) or rv.act.is_varied(mem)):
        raise error_at_op(op, f"unsupported construct: differentiating atomic {kind}")
    if len(list(op.results[0].uses)) and rv.act.is_varied(mem):
        raise error_at_op(op, "unsupported construct: differentiating the value an atomic add returns")
    sh = rv.shadow(mem)
    if sh is None:
        if rv.act.is_varied(val):
            raise error_at_op(op, "an atomic add of an active value into memory that has no shadow")
        return
    if rv.act.is_varied(val):
        rv.add_adj(val, memref.LoadOp(sh, [rv.rv(i) for i in list(op.operands)[2:]]).result)


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
    elem = element_type_of(dst) or element_type_of(src)
    if elem is None or not is_float(elem):
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
    """scf.for: a loop counting the iterations down, adjoints of iter_args and free values carried."""
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
    """Whether reversing `op`'s regions touches shadow memory."""
    return any(o.name in ("memref.load", "memref.store", "func.call") and o in rv.act.touched for o in all_ops(op))


def alloc_rule(rv, op):
    """memref.alloca/alloc: nothing (a shadow made on demand is freed by after_reverse)."""
    pass  # the shadow (if any) is freed by after_reverse


def call_rule(rv, op):
    """A call that was not inlined (recursion): the callee's reverse derivative, recomputing its forward sweep.
    Exact when the callee writes no memory that is differentiated."""
    name = op.attributes["callee"].value
    if name in MALLOCS or name == "free" or name in rv.session.inactive:
        return
    if name in rv.session.gradient_rules:
        custom_gradient(rv, op, rv.session.gradient_rules[name][1])
        return
    if name not in rv.session.funcs or not len(rv.session.funcs[name].regions[0].blocks):
        if any(rv.act.is_varied(v) for v in list(op.results) + list(op.operands)):
            raise error_at_op(op, f"unsupported construct: differentiating a call of '{name}', whose body is "
                                  f"not in this file (register a gradient with __enzyme_register_gradient_{name}"
                                  " or mark it __enzyme_inactivefn)")
        return
    active = tuple(rv.act.is_varied(v) for v in op.operands)
    callee_primal = rv.session.primal(name, "reverse")
    for inner in all_ops(callee_primal):
        if inner.name in ("memref.store",) and inner.operands[0].type is not None:
            mem = inner.operands[1]
            from .activity import root_alloc
            if root_alloc(mem) is None:
                raise error_at_op(op, f"unsupported construct: reverse mode through the recursive function "
                                      f"'{name}', which writes memory it does not allocate")
    dname = rv.session.derivative(name, "reverse", active, extra=("call",), at=op)
    args = []
    for v, a in zip(op.operands, active):
        args.append(rv.rv(v))
        if a and not is_float(v.type):
            args.append(rv.shadow(v))
    for r in op.results:
        if is_float(r.type):
            g = rv.pop_adj(r)
            args.append(g if g is not None else zero(r.type))
    ftype = ir.FunctionType(ir.TypeAttr(rv.session.funcs[dname].attributes["function_type"]).value)
    call = func.CallOp(list(ftype.results), ir.FlatSymbolRefAttr.get(dname), args)
    k = 0
    for v, a in zip(op.operands, active):
        if a and is_float(v.type):
            rv.add_adj(v, call.results[k])
            k += 1


def custom_gradient(rv, op, rev):
    """A call of f with ``__enzyme_register_gradient_f = {f, aug, rev}``: the forward sweep ran f; here
    rev(args, seed) is called with each pointer argument followed by its shadow (when differentiated) and the
    adjoint of f's floating result last; it returns the adjoints of f's floating arguments, in order."""
    from .forward import check_signature
    args = []
    for v in op.operands:
        args.append(rv.rv(v))
        if not is_float(v.type) and rv.act.is_varied(v):
            args.append(rv.shadow(v))
    for r in op.results:
        if is_float(r.type):
            g = rv.pop_adj(r)
            args.append(g if g is not None else zero(r.type))
    floats = [v for v in op.operands if is_float(v.type)]
    check_signature(rv.session, op, rev, args, [v.type for v in floats])
    call = func.CallOp([v.type for v in floats], ir.FlatSymbolRefAttr.get(rev), args)
    for v, g in zip(floats, call.results):
        rv.add_adj(v, g)


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
    """scf.parallel (no reductions): the iterations are independent, so the reversed loop is parallel over the
    same space, each iteration reversing its own body. Shadow accumulations from loads use atomics (two
    iterations may read one element); adjoints of values defined outside the loop are summed into a slot with
    atomic adds. A race-free primal writes each element from one iteration only, so the shadow resets of
    stores need no atomics."""
    if len(op.results):
        raise error_at_op(op, "unsupported construct: reverse mode through a parallel loop with reductions")
    body = op.regions[0].blocks[0]
    n = len(body.arguments)
    ops = list(op.operands)
    lbs, ubs, steps = ops[:n], ops[n:2 * n], ops[2 * n:3 * n]
    F = rv.free_values(op)
    slots = {}
    for f in F:
        with ir.InsertionPoint.at_block_begin(rv.caches.entry), op.location:
            slots[f] = memref.AllocaOp(ir.MemRefType.get([], f.type), [], []).result
        cur = rv.scope.adj.get(f)
        memref.StoreOp(cur if cur is not None else zero(f.type), slots[f], [])
    new = create_like(op, [rv.rv(v) for v in lbs + ubs + steps], [])
    block = new.regions[0].blocks.append(*[a.type for a in body.arguments])
    with ir.InsertionPoint(block):
        rlbs, rsteps = [rv.rv(v) for v in lbs], [rv.rv(v) for v in steps]
        idx = [arith.divui(arith.subi(iv, lb), st) for iv, lb, st in zip(block.arguments, rlbs, rsteps)]
        sentinel = new_sentinel()
        scope = rv.enter(body, sentinel, op, idx)
        for a, na in zip(body.arguments, block.arguments):
            scope.memo[a] = na
        rv.reverse_ops(body_ops(body))
        for f in F:
            g = scope.adj.get(f)
            if g is not None:
                memref.AtomicRMWOp(arith.AtomicRMWKind.addf, g, slots[f], [])
        rv.leave()
        scf.ReduceOp([], 0)
    for f in F:
        rv.scope.adj[f] = memref.LoadOp(slots[f], []).result


REVERSE_RULES = {
    "arith.select": select_rule,
    "memref.atomic_rmw": atomic_rule,
    "llvm.intr.memcpy": memcpy_rule,
    "llvm.intr.memset": memset_rule,
    "memref.load": load_rule,
    "memref.store": store_rule,
    **{n: alloc_rule for n in ALLOCS},
    "memref.dealloc": no_adjoint,
    "scf.for": loop_rule,
    "scf.if": if_rule,
    "scf.while": while_rule,
    "scf.parallel": parallel_rule,
    "func.call": call_rule,
    "llvm.call": no_adjoint,
    "llvm.load": no_adjoint,  # a pointer load: its shadow is made on demand by Reverse.shadow
}
