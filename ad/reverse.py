"""Reverse mode (adjoints) on structured MLIR: func, scf (for, if, while, parallel), memref, arith, math.

The derivative function runs a *forward sweep* (a copy of the primal code) and then a *reverse sweep* that
visits the ops backwards, one rule per op name in rules_reverse.REVERSE_RULES (scalar ops through partials, shared
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
A scalar loop with a single active input is not reversed but preaccumulated in forward mode (preaccumulate.py);
once the function is built, shadow accumulations at neighbouring or loop-invariant elements of innermost reversed
loops are carried in loop-carried values (shifted_adjoints.py).
(Enzyme, Moses & Churavy NeurIPS'20; Enzyme-MLIR; JAX transpose rules for the table shape.)
"""

from __future__ import annotations

from mlir import ir
from mlir.dialects import arith, func, memref

from polygeist_py.errors import error_at_op

from . import partials as P
from .activity import ALLOCS, MALLOCS, PLUMBING, Activity, all_ops, inactive_result, is_float
from .allocators import CUSTOM_ALLOCATORS, alloc_bytes, release_like_allocation
from .cache import Caches
from .mincut import Planner
from .emit import body_ops, copy_noalias, fill_zero, terminator, zero
from .raw_memory import forward_sweep_shadows
from .rules_reverse import REVERSE_RULES, no_adjoint, scalar_rule


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
            result is 1.0; in device code a third item: the parameters whose arguments are the same in every
            thread, gpu_block.uniform_parameters; a fourth: whether every thread of the block reaches its end; a
            fifth: whether every thread of the launch reaches its end exactly once; a sixth: the caller's name and
            the source text of the arguments, for run-time messages), or ("call",) for a callee's
            derivative (one seed argument per floating result).
    Signature built: per parameter its primal, followed by its shadow for an active pointer; then (call only)
    the seeds; results: the adjoints of the active floating-point parameters, in order.
    """

    def __init__(self, session, primal, active, extra):
        self.session = session
        self.primal = primal
        self.active = active
        self.entry_mode = extra[0] == "entry"
        self.split = extra[0] == "split"  # (Enzyme's split mode: ad/split_mode.py cuts the result in two)
        # device code: parameters whose pointer and shadow are the same in every thread (ad/gpu_block.py)
        self.uniform_params = set(extra[2]) if len(extra) > 2 else set()
        # device code: every thread of the block reaches the derivative's end (an Enzyme call at a kernel's top level)
        self.uniform_reach = len(extra) > 3 and extra[3]
        self.deferred = {}  # (root, access) -> per-thread adjoint rows summed at the end (gpu_block.py)
        # device code: every thread of the launch reaches the derivative's end once (gpu_block.defer_to_the_launch)
        self.launch_once = len(extra) > 4 and extra[4]
        # device code: the caller, then the source text of each argument (gpu_block.disjoint_shadows' message)
        self.site_names = extra[5] if len(extra) > 5 else ()
        self.launch_finals = []  # emitted before the return: adjoints run by the launch's last thread
        self.in_launch_final = False
        self.act = Activity(primal, [i for i, a in enumerate(active) if a], session.inactive,
                            session.inactive_globals, session.user_shadows)
        for o in self.act.ops:
            if o.name == "func.call" and o.attributes["callee"].value == "realloc" and self.act.is_varied(o.results[0]):
                from .activity import allocations_of
                unknown = []
                sources = allocations_of(o.operands[0], unknown)
                custom = [a for a in sources if a.attributes["callee"].value in CUSTOM_ALLOCATORS]
                if unknown or custom:
                    raise error_at_op(o, "unsupported construct: reverse mode through realloc of differentiated "
                                         "memory this function did not allocate with malloc, calloc or "
                                         "aligned_alloc")
        self.vmap = {}      # primal value -> forward-sweep value
        self.fops = {}      # primal op -> forward-sweep op
        self.tmap = {}      # primal pointer argument -> shadow argument
        self.raw_shadows = {}  # primal llvm.alloca -> its shadow, made by the forward sweep (raw_memory.py)
        self.loop_shadows = {}  # primal malloc result inside a loop or branch -> its forward sweep shadow
        self.tapes = {}     # primal call of a function with a registered gradient -> its tape (i64), forward sweep
        self.sentinels = []
        self.pending_free = {}  # primal allocation op -> emits the free of its shadow
        self.deferred_frees = set()  # forward-sweep frees moved to the reverse sweep (rules_reverse._defer_free)
        self.reversed_loops = []  # scf.for loops the reverse sweep emitted for primal scf.for loops
        self.ancestors = {}
        self.block_finals = []  # emitted before the return: frees of extern __shared__ shadows (gpu_block.py)
        # pointer slots of loops and branches, reallocs (ad/joined_shadows.py)
        self.joined, self.joined_bits, self.joined_errors, self.fwd_reallocs = {}, {}, {}, {}
        self.realloc_kinds = {}  # (realloc call -> joined_shadows.realloc_elements)
        self.joined_setup = set()
        self.fixed_anchors = {}  # primal block -> its caches anchor, fixed before slot loads went in front

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
        self.name = name
        if list(ftype.inputs) != list(self.signature().inputs):
            raise error_at_op(self.primal, "the arguments of __enzyme_autodiff do not match the function's "
                                           "parameters")
        with ir.InsertionPoint(self.session.module.body), self.primal.location:
            f = func.FuncOp(name, ftype, visibility="private")
            self.session.register(f)
            entry = f.add_entry_block()
        pentry = self.primal.regions[0].blocks[0]
        k = 0
        pairs = []
        for i, a in enumerate(pentry.arguments):
            self.vmap[a] = entry.arguments[k]
            pairs.append((i, k))
            k += 1
            if self.active[i] and not is_float(a.type):
                self.tmap[a] = entry.arguments[k]
                pairs.append((i, k))
                k += 1
        copy_noalias(self.primal, entry, f, pairs)
        seeds = list(entry.arguments)[k:]
        ret = terminator(pentry)
        self.entry = entry
        with ir.InsertionPoint(entry):
            # forward sweep: the primal code, op for op
            for op in body_ops(pentry):
                with op.location:
                    self.clone_tree(op)
                    forward_sweep_shadows(self, op)
            # shadows of pointers that loops and branches join, and of reallocs (ad/joined_shadows.py)
            from .joined_shadows import prepare
            prepare(self)
            self.caches = Caches(self, entry)
            self.caches.anchors.update(self.fixed_anchors)
            self.planner = Planner(self, self.caches.recompute)
            with self.primal.location:
                sentinel = arith.constant(ir.IndexType.get(), 0).owner
            # (the primal's results as the forward sweep computes them: split mode returns them)
            self.primal_results = [self.vmap.get(v, v) for v in ret.operands]
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
                for fin in self.launch_finals:  # (adjoints run once per launch: ad/gpu_block.py)
                    fin()
                self.caches.free_all()
                for fin in self.block_finals:  # (extern __shared__ shadows: ad/gpu_block.py)
                    fin()
                func.ReturnOp(outs)
        for st in ([] if self.split else [sentinel]) + self.sentinels:
            st.erase()
        if self.entry_mode or self.split:
            from .shadow_globals import zero_shadow_globals
            zero_shadow_globals(self.session, f)
        if self.split:  # (where the forward sweep ends: ad/split_mode.py)
            sentinel.attributes["pgcc.split"] = ir.UnitAttr.get()
        if self.session.device:  # (counters and cache pointers live across barriers: kept per thread)
            from .gpu_block import keep_slots_per_thread
            keep_slots_per_thread(f)
        from .shifted_adjoints import carry_shifted_accumulations
        for loop in self.reversed_loops:
            if not any(len(o.regions) for o in loop.body.operations):
                carry_shifted_accumulations(loop, f, set(self.tmap.values()))
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
        elif isinstance(owner, ir.Block) and str(v.type) == "!llvm.ptr":
            from .joined_shadows import cached_pointer
            val = cached_pointer(self, v, scope)
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
        elif isinstance(v.type, ir.MemRefType) or str(v.type) == "!llvm.ptr":
            from .joined_shadows import cached_pointer
            val = cached_pointer(self, v, scope)
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
        if v in self.raw_shadows:
            return self.raw_shadows[v]
        owner = v.owner
        if not isinstance(owner, ir.Block) and owner.name == "llvm.load":
            from .raw_memory import pointer_rewritten_after
            w = pointer_rewritten_after(self, owner)
            if w is not None and w == owner:  # (a taped recursive derivative: api_calls.split_derivative)
                raise error_at_op(owner, "unsupported construct: reverse mode through a recursive call whose "
                                         "function reads a differentiated pointer from memory its caller may "
                                         "change after the call")
            if w is not None:
                kind = w.operation.name
                what = f"a call of '{w.attributes['callee'].value}'" if kind == "func.call" else f"'{kind}'"
                raise error_at_op(owner, "unsupported construct: reverse mode through a pointer read from memory "
                                         f"that may be written again later (by {what})")
        scope = self.scope_of(self.def_block(v)) if not self.is_top(v) else self.top_scope()
        if v in self.joined or v in self.joined_errors:  # (a slot of a loop or branch: ad/joined_shadows.py)
            if v not in scope.smemo:
                from .joined_shadows import reverse_shadow
                scope.smemo[v] = reverse_shadow(self, v, scope)
            return scope.smemo[v]
        if v in self.loop_shadows and v not in scope.smemo:  # (raw_memory.fshadow: kept per iteration)
            from mlir.dialects import llvm
            block, fsh, i64 = self.def_block(v), self.loop_shadows[v], ir.IntegerType.get_signless(64)
            with ir.InsertionPoint.after(fsh.owner), owner.location:  # (caches hold integers, not pointers)
                bits = llvm.PtrToIntOp(i64, fsh).result
            got = self.caches.load_pseudo(("loop-shadow", v), block, bits, scope, owner.location)
            with ir.InsertionPoint(scope.sentinel), owner.location:
                sh = llvm.IntToPtrOp(v.type, got).result
            scope.smemo[v] = sh
            if owner.attributes["callee"].value != "realloc":  # (realloc: joined_shadows.realloc_back)
                self.shadow_frees(owner, lambda: release_like_allocation(
                    owner.attributes["callee"].value, [self.rv(o) for o in owner.operands], sh))
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
        if owner.operation.name == "llvm.mlir.addressof" and \
                ir.FlatSymbolRefAttr(owner.attributes["global_name"]).value in self.session.user_shadows:
            from .shadow_globals import shadow_of_addressof  # (a queried global in raw memory)
            with ir.InsertionPoint(scope.sentinel), owner.location:
                scope.smemo[v] = shadow_of_addressof(owner, self.session.user_shadows)
            return scope.smemo[v]
        if owner.name in ALLOCS and self.session.device and "pgcc.shared" in owner.attributes:
            # one per block, as the primal's (CUDA's __shared__ variables are static, also when declared in a
            # loop): made once, at the start of the reverse sweep
            from .gpu_block import shared_shadow
            top = self.top_scope()
            if v not in top.smemo:
                top.smemo[v] = shared_shadow(self, owner, top)
            return top.smemo[v]
        if owner.operation.name == "memref.get_global":  # (a mutable global holding varied values: ad/shadow_globals.py)
            from .shadow_globals import shadow_of_get_global
            with ir.InsertionPoint(scope.sentinel), owner.location:
                scope.smemo[v] = shadow_of_get_global(owner, self.session.user_shadows)
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
        if owner.name == "func.call" and self.session.device:
            from .gpu_block import dynamic_shared_shadow, is_dynamic_shared
            if is_dynamic_shared(owner):  # (at the top level: gpu_block.hoist_shared_allocations)
                with ir.InsertionPoint(scope.sentinel):
                    scope.smemo[v] = dynamic_shared_shadow(self, self.vmap[v], owner.location, self.block_finals)
                return scope.smemo[v]
        if owner.name == "func.call" and owner.attributes["callee"].value == "realloc":
            return self.realloc_shadow(v, owner, scope)
        if owner.name == "func.call" and owner.attributes["callee"].value in MALLOCS:
            from mlir.dialects import llvm
            size = [self.rv(o) for o in owner.operands]
            with ir.InsertionPoint(scope.sentinel), owner.location:
                new = owner.clone()
                for i, o in enumerate(size):
                    new.operands[i] = o
                nbytes = alloc_bytes(owner.attributes["callee"].value, size)
                i8 = ir.IntegerType.get_signless(8)
                llvm.MemsetOp(new.results[0], arith.constant(i8, 0), nbytes, ir.BoolAttr.get(False))
            scope.smemo[v] = new.results[0]
            self.shadow_frees(owner, lambda: release_like_allocation(
                owner.attributes["callee"].value, [self.rv(o) for o in owner.operands], new.results[0]))
            return new.results[0]
        if owner.name in ("scf.for", "affine.for", "scf.while", "scf.if"):
            raise error_at_op(owner, "unsupported construct: reverse mode through a pointer that a loop or branch "
                                     "chooses among buffers (e.g. buffers swapped each iteration)")
        raise error_at_op(owner, f"unsupported construct: no shadow for a pointer made by '{owner.name}'")

    def realloc_shadow(self, v, owner, scope):
        """The shadow of q = realloc(p, n) (at the function's top level): a zeroed block of n bytes; when the
        reverse sweep reaches the realloc, the adjoints it gathered for the moved elements flow back into p's
        shadow (its first min(n, usable size of p's shadow) bytes: beyond p's own size nothing reads them) and
        it is freed.

        Memory holding no floats gets its shadow in the forward sweep instead (joined_shadows.prepare).

        Raises:
            CompileError: q holds records mixing floats with pointers or integers."""
        from mlir.dialects import llvm, scf
        from .cache import memref_of
        elem = _float_elements(v)
        if elem is None:
            raise error_at_op(owner, "unsupported construct: reverse mode through realloc of records that mix "
                                     "floating-point fields with pointers or integers")
        ptr = v.type
        n = self.rv(owner.operands[1])
        with ir.InsertionPoint(scope.sentinel), owner.location:
            sq = self.libc("malloc", [n], ptr)
            llvm.MemsetOp(sq, arith.constant(ir.IntegerType.get_signless(8), 0), n, ir.BoolAttr.get(False))
        scope.smemo[v] = sq

        def back():
            sp = self.shadow(owner.operands[0])
            i64, idx = ir.IntegerType.get_signless(64), ir.IndexType.get()
            usable = self.libc("malloc_usable_size", [sp], i64)
            width = arith.constant(i64, ir.FloatType(elem).width // 8)
            count = arith.index_cast(idx, arith.divui(arith.minui(self.rv(owner.operands[1]), usable), width))
            mp, mq = memref_of(sp, elem), memref_of(sq, elem)
            loop = scf.ForOp(arith.constant(idx, 0), count, arith.constant(idx, 1))
            with ir.InsertionPoint(loop.body):
                k = loop.induction_variable
                memref.StoreOp(arith.addf(memref.LoadOp(mp, [k]).result, memref.LoadOp(mq, [k]).result), mp, [k])
                scf.YieldOp([])
            self.libc("free", [sq], None)
        self.shadow_frees(owner, back)
        return sq

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
            if shadow:  # (a slot's shadow: ad/joined_shadows.py)
                raise error_at_op(loop, "unsupported construct: reverse mode through a loop that carries a "
                                        "pointer which may move to another buffer")
            from .joined_shadows import cached_pointer
            return cached_pointer(self, v, scope)
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
        prev = self.pending_free.get(alloc_op)
        self.pending_free[alloc_op] = emit if prev is None else (lambda: (prev(), emit()))

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
        adj[v] = d if old is None else P.accumulate(old, d)

    def pop_adj(self, v):
        """Take (and forget) the adjoint of `v` in the current scope; None when it has none."""
        return self.scope.adj.pop(v, None)

    def reverse_ops(self, ops):
        """Emit the reversal of `ops` (a block's ops in program order) at the current insertion point."""
        for op in reversed(ops):
            if op not in self.act.touched:
                self.after_reverse(op)
                continue
            rule = REVERSE_RULES.get(op.operation.name)
            if rule is None and op.operation.name in ("memref.get_global", "llvm.mlir.addressof"):
                rule = no_adjoint  # (its shadow global is read on demand: Reverse.shadow)
            if rule is None:
                if op.name in P.PARTIALS:
                    rule = scalar_rule
                elif op.name in PLUMBING or inactive_result(self.act, op):
                    rule = no_adjoint
                elif op.name == "omp.parallel":  # (what ad/openmp_serial.py cannot run with a team of one)
                    raise error_at_op(op, "unsupported construct: reverse mode through an OpenMP parallel region "
                                          "whose work depends on its team (a call of the OpenMP runtime such as "
                                          "omp_get_thread_num, tasks, sections, atomics, private or reduction "
                                          "clauses inside the region)")
                elif op.name == "memref.copy":  # (the frontend copies an OpenMP region's variables only)
                    raise error_at_op(op, "unsupported construct: reverse mode through the copy of an OpenMP "
                                          "firstprivate or lastprivate variable (each thread works on its own "
                                          "copy: the derivative depends on the team)")
                else:
                    raise error_at_op(op, f"unsupported construct: no reverse-mode derivative rule for '{op.name}'")
            if self.session.device and op.operation.name == "scf.for":
                from .gpu_block import defer_to_the_launch
                with op.location:
                    deferred = defer_to_the_launch(self, op)
                if deferred:  # (its adjoint runs once, in the launch's last thread)
                    self.after_reverse(op)
                    continue
            with op.location:
                rule(self, op)
            self.after_reverse(op)

    def after_reverse(self, op):
        emit = self.pending_free.pop(op, None)
        if emit is not None:
            with op.location:
                emit()
        if op in self.fwd_reallocs:
            from .joined_shadows import realloc_back
            with op.location:
                realloc_back(self, op)

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
        """Inside the reversal of a parallel loop, or in device code (one thread's code): shadow updates may
        collide between iterations (threads)."""
        if self.session.device:
            return True
        s = self.scope
        while s is not None:
            if s.loop is not None and s.loop.name == "scf.parallel":
                return True
            s = s.parent
        return False


def _float_elements(v):
    """The float element type of the memref views pointer `v` is used through (None: none, several, or not
    floats)."""
    from .activity import PLUMBING, Worklist, is_float
    types, work = set(), Worklist([v])
    for x in work:
        for u in x.uses:
            o = u.owner
            for r in o.results:
                if isinstance(r.type, ir.MemRefType):
                    types.add(ir.MemRefType(r.type).element_type)
                elif o.name in PLUMBING:
                    work.push([r])
    return next(iter(types)) if len(types) == 1 and is_float(next(iter(types))) else None
