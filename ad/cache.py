"""Caches of primal values for the reverse sweep (Enzyme, Moses & Churavy NeurIPS'20, sec. 4: "cache or
recompute").

Recompute instead of cache: pure ops without regions whose operands are themselves available, except
transcendental math (cheaper to load than to evaluate again).

A value the reverse sweep needs from inside a region is stored by the forward sweep where it is defined and
loaded back at the start of the reversed block. Three layouts, chosen per value:

* rank 0: the value is only under scf.if (no loop): one slot.
* indexed: every enclosing loop is an scf.for whose bounds are known before the outermost loop: a malloc'd
  array of prod(trip counts) elements, allocated before the outermost loop (hoisted out of the nest), indexed by
  the row-major iteration numbers; the reverse loop knows the same numbers.
* grown: a loop with a data-dependent trip count (scf.while, a break) or bounds that change with an enclosing
  loop: each execution of the innermost loop body gets an instance number from a counter (forward: 0, 1, 2...;
  the reverse sweep visits the instances in the opposite order and counts down), the array is grown with
  realloc (doubling).

Every cache is freed at the end of the derivative function.
"""

from __future__ import annotations

from mlir import ir
from mlir.dialects import arith, llvm, memref, scf

from polygeist_py.errors import error_at_op
from polygeist_py.frontend.c_types import byte_width
from polygeist_py.gpu_to_cpu.ir_nav import is_pure
from polygeist_py.remarks import ad_cached, ad_recompute
from .activity import MALLOCS, is_pointer_like
from .allocators import is_free
from .libm import is_libm_call

EXPENSIVE = ("math.",)
PER_THREAD_BYTES = 64  # (ad/gpu_block.py: local arrays of device code kept per thread across barriers)
LOOPISH = ("scf.for", "scf.while", "scf.parallel")


def index_type():
    return ir.IndexType.get()


def ptr_type():
    return ir.Type.parse("!llvm.ptr")


def i64():
    return ir.IntegerType.get_signless(64)


def load_ptr(slot):
    return llvm.IntToPtrOp(ptr_type(), memref.LoadOp(slot, []).result).result


def _constant_index(v, depth=0):
    """The value of index `v` when it folds to a constant (arith.constant and the arithmetic trip_count_of builds
    on constants), else None."""
    o = v.owner
    if isinstance(o, ir.Block) or depth > 16:
        return None
    if o.name == "arith.constant":
        return ir.IntegerAttr(o.attributes["value"]).value
    ops = {"arith.addi": lambda a, b: a + b, "arith.subi": lambda a, b: a - b, "arith.muli": lambda a, b: a * b,
           "arith.maxsi": max, "arith.ceildivsi": lambda a, b: -(-a // b) if b else None}
    if o.name not in ops:
        return None
    a, b = (_constant_index(x, depth + 1) for x in o.operands)
    return None if a is None or b is None else ops[o.name](a, b)


def trip_count_of(lb, ub, step):
    """max(0, ceil((ub - lb) / step)) for index values (step > 0, as scf.for requires)."""
    n = arith.ceildivsi(arith.subi(ub, lb), step)
    return arith.maxsi(n, arith.constant(index_type(), 0))


def memref_of(ptr, elem, n=None):
    """A one-dimensional memref<?xelem> over raw pointer `ptr` (the descriptor the C ABI lowering expects)."""
    i64_t = ir.IntegerType.get_signless(64)
    desc_t = ir.Type.parse("!llvm.struct<(ptr, ptr, i64, array<1 x i64>, array<1 x i64>)>")
    d = llvm.UndefOp(desc_t).result
    d = llvm.InsertValueOp(d, ptr, ir.DenseI64ArrayAttr.get([0])).result
    d = llvm.InsertValueOp(d, ptr, ir.DenseI64ArrayAttr.get([1])).result
    d = llvm.InsertValueOp(d, arith.constant(i64_t, 0), ir.DenseI64ArrayAttr.get([2])).result
    size = arith.index_cast(i64_t, n) if n is not None else arith.constant(i64_t, 1 << 40)
    d = llvm.InsertValueOp(d, size, ir.DenseI64ArrayAttr.get([3, 0])).result
    d = llvm.InsertValueOp(d, arith.constant(i64_t, 1), ir.DenseI64ArrayAttr.get([4, 0])).result
    dyn = ir.ShapedType.get_dynamic_size()
    return ir.Operation.create("builtin.unrealized_conversion_cast", [ir.MemRefType.get([dyn], elem)], [d]).result


def stored_type(t):
    """The element type a cache stores for values of type `t` (i1 as i8)."""
    return ir.IntegerType.get_signless(8) if t == ir.IntegerType.get_signless(1) else t


def elem_bytes(t) -> int:
    return 8 if isinstance(t, ir.IndexType) else max(byte_width(t), 1)


class Slot:
    """Where one cached value lives: kind 'rank0' (memref), 'indexed' (memref, loops, sizes) or 'grown'
    (pointer and capacity slots, counted block)."""

    def __init__(self, kind, **kw):
        self.kind = kind
        self.__dict__.update(kw)


class Caches:
    """The caches of one reverse-mode derivative function.

    Args:
        rev: the ad.reverse.Reverse building the function.
        entry: the derivative function's entry block (slots and counters are allocated at its start).
    """

    def __init__(self, rev, entry):
        self.rev = rev
        self.entry = entry
        self.slots = {}       # key (primal value or pseudo key) -> Slot
        self.fwd_index = {}   # primal scf.for -> forward iteration number
        self.anchors = {}     # primal block -> first op of its forward copy (per-instance code goes before it)
        self.counters = {}    # primal block -> counter memref<index> (grown layout)
        self.fwd_ids = {}     # primal block -> instance number in the forward sweep
        self.rev_ids = {}     # reverse scope -> instance number of its block
        self.scopes = {}      # primal block -> reverse scopes emitted for it
        self.frees = []       # emit-functions run at the end
        self.overwrites = None

    # ------------------------------------------------------------------ policy
    def recompute(self, op) -> bool:
        """Whether the reverse sweep recomputes `op` rather than loading a cached result: cheap pure ops, and
        loads of memory that nothing may overwrite after them (Enzyme's "overwritten" analysis)."""
        if op.name in ("memref.load", "llvm.load"):
            if self.overwrites is None:
                self.overwrites = Overwrites(self.rev.primal, self.rev.session, getattr(self.rev, "taped", False))
            decision = not self.overwrites.may_overwrite_after(op)
        else:
            decision = is_pure(op) and not op.name.startswith(EXPENSIVE)
        ad_recompute(op, decision, self)  # -Rpass-analysis=ad (polygeist_py/remarks.py)
        return decision

    def trip_count(self, loop, get):
        """Trip count of primal scf.for `loop`, its bounds read through `get` (a value mapper)."""
        ops = list(loop.operands)
        for v in ops[:3]:
            if v.type != index_type():
                raise error_at_op(loop, "unsupported construct: reverse mode through a loop with non-index bounds")
        return trip_count_of(get(ops[0]), get(ops[1]), get(ops[2]))

    def loopish_ancestors(self, block):
        """Enclosing primal loop ops of `block`, outermost first."""
        out = []
        for p in self.rev.parent_ops(block):
            if p.name in LOOPISH:
                out.append(p)
        return list(reversed(out))

    def innermost_loop_block(self, block):
        b = block
        while b.owner.name not in LOOPISH:
            b = b.owner.operation.block
        return b

    def layout(self, block):
        """("rank0" | "indexed" | "grown", enclosing loops) for values defined in primal `block`."""
        loops = self.loopish_ancestors(block)
        if not loops:
            return "rank0", loops
        if all(self.capacity_bounds(lp) is not None for lp in loops):
            return "indexed", loops
        par = next((lp for lp in loops if lp.name == "scf.parallel"), None)
        if par is not None:  # instance counters would race between parallel iterations
            grown = next(lp for lp in loops if self.capacity_bounds(lp) is None)
            if loops.index(grown) < loops.index(par):  # (the other nesting: say which, the message names par)
                raise error_at_op(par, "unsupported construct: reverse mode needs a value from a parallel loop "
                                       "inside a loop with a data-dependent trip count")
            raise error_at_op(par, "unsupported construct: reverse mode needs a value from a loop with a data-"
                                   "dependent trip count inside a parallel loop")
        return "grown", loops

    @staticmethod
    def bounds(loop):
        """Lower bounds, upper bounds and steps (flattened) of an scf.for / scf.parallel."""
        n = len(loop.regions[0].blocks[0].arguments) if loop.name == "scf.parallel" else 1
        return list(loop.operands)[:3 * n]

    def capacity_bounds(self, loop):
        """Function-level (lbs, ubs, steps) of scf.for / scf.parallel `loop` whose trip counts bound the loop's
        trip counts in every execution, or None. A bound defined inside the nest is accepted when it is
        ``min(x, top)`` with `top` at function level (the narrowed thread loop of a cpuified launch,
        ``min(n - b * bs, bs)``): the cache dimension is then sized by `top`."""
        if loop.name not in ("scf.for", "scf.parallel"):
            return None
        ops = self.bounds(loop)
        n = len(ops) // 3
        lbs, ubs, steps = ops[:n], ops[n:2 * n], ops[2 * n:]
        if not all(self.rev.is_top(v) for v in lbs + steps):
            return None
        capped = []
        for ub in ubs:
            if not self.rev.is_top(ub):
                owner = ub.owner
                if not isinstance(owner, ir.Block) and owner.name in ("arith.minsi", "arith.minui"):
                    ub = next((o for o in owner.operands if self.rev.is_top(o)), None)
                else:
                    ub = None
                if ub is None:
                    return None
            capped.append(ub)
        return lbs, capped, steps

    def dims(self, loop, get):
        """Cache extents of the dimensions of scf.for / scf.parallel `loop` (its trip counts, or their bounds
        from capacity_bounds), bounds read through `get`."""
        lbs, ubs, steps = self.capacity_bounds(loop)
        for v in lbs + ubs + steps:
            if v.type != index_type():
                raise error_at_op(loop, "unsupported construct: reverse mode through a loop with non-index bounds")
        return [trip_count_of(get(lb), get(ub), get(st)) for lb, ub, st in zip(lbs, ubs, steps)]

    # ------------------------------------------------------------------ forward-side positions
    def anchor(self, block):
        """The first op of the forward copy of primal `block` (fixed once asked)."""
        a = self.anchors.get(block)
        if a is None:
            fop = self.rev.fops[block.owner.operation]
            ri = [i for i, r in enumerate(block.owner.regions) if len(r.blocks) and r.blocks[0] == block][0]
            fblock = fop.regions[ri].blocks[0]
            a = self.anchors[block] = list(fblock.operations)[0]
        return a

    def forward_index(self, loop):
        """Iteration numbers (one per dimension) of primal loop `loop` in the forward sweep."""
        got = self.fwd_index.get(loop)
        if got is not None:
            return got
        fl = self.rev.fops[loop.operation]
        fbody = fl.regions[0].blocks[0]
        ops = list(fl.operands)
        n = len(fbody.arguments) if loop.name == "scf.parallel" else 1
        with ir.InsertionPoint(self.anchor(loop.regions[0].blocks[0])), loop.location:
            got = [arith.divui(arith.subi(fbody.arguments[d], ops[d]), ops[2 * n + d]) for d in range(n)]
        self.fwd_index[loop] = got
        return got

    def counter(self, block):
        """The instance counter (memref<index>) of loop body `block` (grown layout)."""
        c = self.counters.get(block)
        if c is None:
            with ir.InsertionPoint.at_block_begin(self.entry), ir.Location.unknown():
                c = memref.AllocaOp(ir.MemRefType.get([], index_type()), [], []).result
                memref.StoreOp(arith.constant(index_type(), 0), c, [])
            self.counters[block] = c
        return c

    def forward_id(self, block):
        """Instance number of the current execution of loop body `block` in the forward sweep."""
        got = self.fwd_ids.get(block)
        if got is None:
            c = self.counter(block)
            with ir.InsertionPoint(self.anchor(block)), block.owner.location:
                got = memref.LoadOp(c, []).result
                memref.StoreOp(arith.addi(got, arith.constant(index_type(), 1)), c, [])
            self.fwd_ids[block] = got
            for s in self.scopes.get(block, []):  # reversed copies emitted before the block needed a counter
                self.reverse_id(s)
        return got

    def register_scope(self, scope):
        """Every reversal of a counted block counts down, whether or not it loads anything."""
        self.scopes.setdefault(scope.block, []).append(scope)
        if scope.block in self.fwd_ids:
            self.reverse_id(scope)

    def reverse_id(self, scope):
        """Instance number of the execution of `scope.block` being reversed (counts down)."""
        got = self.rev_ids.get(scope)
        if got is None:
            c = self.counter(scope.block)
            with ir.InsertionPoint(scope.sentinel), scope.block.owner.location:
                got = arith.subi(memref.LoadOp(c, []).result, arith.constant(index_type(), 1))
                memref.StoreOp(got, c, [])
            self.rev_ids[scope] = got
        return got

    # ------------------------------------------------------------------ slots
    def slot(self, key, block, fwd_value, store_ip, loc):
        """Create the cache of `key` (a value defined in primal `block`) and store `fwd_value` at `store_ip`."""
        got = self.slots.get(key)
        if got is not None:
            return got
        rev = self.rev
        kind, loops = self.layout(block)
        if fwd_value.type == ir.IntegerType.get_signless(1):  # memrefs of i1 do not lower: keep bytes
            with store_ip, loc:
                fwd_value = arith.extui(ir.IntegerType.get_signless(8), fwd_value)
        t = fwd_value.type
        nest = loops
        if kind == "indexed" and isinstance(key, ir.Value):
            # cache hoisting: no dimension for a loop the value does not change in (h[j] read in a loop over i)
            loops = [lp for lp in loops if not self.invariant_in(key, lp)]
            if not loops:
                kind = "rank0"
        if kind == "rank0":
            with ir.InsertionPoint.at_block_begin(self.entry), loc:
                got = Slot(kind, mem=memref.AllocaOp(ir.MemRefType.get([], t), [], []).result)
            with store_ip, loc:
                memref.StoreOp(fwd_value, got.mem, [])
        elif kind == "indexed":
            # allocated at function level before the op holding the whole nest (when the nest sits in an scf.if,
            # also when the branch is not taken: the free at the end must be reached by the allocation)
            outer = nest[0]
            while outer.operation.parent.name != "func.func":
                outer = outer.operation.parent
            with ir.InsertionPoint(rev.fops[outer.operation]), loc:
                sizes = [d for lp in loops for d in self.dims(lp, lambda x: rev.vmap[x])]
                n = sizes[0]
                for m in sizes[1:]:
                    n = arith.muli(n, m)
                count = _constant_index(n)
                if rev.session.device and count is not None and count * elem_bytes(t) <= PER_THREAD_BYTES:
                    ptr = None  # (device code: a small local array, which gpu_block keeps per thread)
                    with ir.InsertionPoint.at_block_begin(self.entry):
                        mem = memref.AllocaOp(ir.MemRefType.get([count], t), [], []).result
                else:
                    i64_t = ir.IntegerType.get_signless(64)
                    nbytes = arith.muli(arith.index_cast(i64_t, n), arith.constant(i64_t, elem_bytes(t)))
                    ptr = rev.libc("malloc", [nbytes], ptr_type())
                    mem = memref_of(ptr, t, n)
                got = Slot(kind, mem=mem, loops=loops, sizes=sizes)
            if ptr is not None:
                self.frees.append(lambda p=ptr: rev.libc("free", [p], None))
            idx = [i for lp in loops for i in self.forward_index(lp)]
            with store_ip, loc:
                memref.StoreOp(fwd_value, got.mem, self.linear(idx, sizes))
        else:
            lblock = self.innermost_loop_block(block)
            fid = self.forward_id(lblock)
            with ir.InsertionPoint.at_block_begin(self.entry), loc:
                # the pointer is kept as an i64 (a memref cannot hold !llvm.ptr)
                pslot = memref.AllocaOp(ir.MemRefType.get([], i64()), [], []).result
                cslot = memref.AllocaOp(ir.MemRefType.get([], index_type()), [], []).result
                memref.StoreOp(arith.constant(i64(), 0), pslot, [])
                memref.StoreOp(arith.constant(index_type(), 0), cslot, [])
            got = Slot(kind, pslot=pslot, cslot=cslot, block=lblock)
            with store_ip, loc:
                self.grow(got, fid, t)
                mem = memref_of(load_ptr(pslot), t)
                memref.StoreOp(fwd_value, mem, [fid])
            self.frees.append(lambda s=pslot: rev.libc("free", [load_ptr(s)], None))
        ad_cached(key, got, t, loc, self)  # -Rpass=ad (polygeist_py/remarks.py)
        self.slots[key] = got
        return got

    def invariant_in(self, v, loop, depth=0) -> bool:
        """Whether primal value `v` does not depend on the iteration of `loop`: it is computed (pure ops, loads
        of memory no op in the loop writes) from values defined outside the loop and induction variables of
        scf.for loops nested in it (those keep their own cache dimensions)."""
        rev = self.rev
        if not rev.defined_inside(v, loop):
            return True
        owner = v.owner
        if isinstance(owner, ir.Block):
            inner = owner.owner
            return inner.name == "scf.for" and v == owner.arguments[0] and inner.operation != loop.operation
        if depth > 32:
            return False
        if owner.name in ("memref.load", "llvm.load"):
            if self.overwrites is None:
                self.overwrites = Overwrites(rev.primal, rev.session, getattr(rev, "taped", False))
            reads = self.overwrites.roots(owner.operands[0])
            if self.overwrites.outside(reads):
                return False
            from .activity import all_ops
            for op in all_ops(loop):
                w = self.overwrites.writes_of(op)
                if w is None or (w and self.overwrites.alias(reads, w)):
                    return False
        elif not is_pure(owner):
            return False
        return all(self.invariant_in(o, loop, depth + 1) for o in owner.operands)

    def grow(self, slot, i, t):
        """Make room for element `i` (realloc to max(2*capacity, i+1, 16) elements when full)."""
        idx = index_type()
        cap = memref.LoadOp(slot.cslot, []).result
        full = arith.cmpi(arith.CmpIPredicate.uge, i, cap)
        branch = scf.IfOp(full)
        with ir.InsertionPoint(branch.then_block):
            want = arith.maxui(arith.muli(cap, arith.constant(idx, 2)), arith.addi(i, arith.constant(idx, 1)))
            want = arith.maxui(want, arith.constant(idx, 16))
            i64_t = ir.IntegerType.get_signless(64)
            nbytes = arith.muli(arith.index_cast(i64_t, want), arith.constant(i64_t, elem_bytes(t)))
            p = self.rev.libc("realloc", [load_ptr(slot.pslot), nbytes], ptr_type())
            memref.StoreOp(llvm.PtrToIntOp(i64(), p).result, slot.pslot, [])
            memref.StoreOp(want, slot.cslot, [])
            scf.YieldOp([])

    def read(self, slot, scope, loc):
        """Load a cached value at the start of reversed block `scope` (emitted before its sentinel)."""
        rev = self.rev
        if slot.kind == "rank0":
            idx, mem = [], lambda: slot.mem
        elif slot.kind == "indexed":
            ids = [i for lp in slot.loops for i in rev.scope_of(lp.regions[0].blocks[0]).rev_index]
            idx, mem = None, lambda: slot.mem
        else:
            rid = self.reverse_id(rev.scope_of(slot.block))
            idx, mem = [rid], lambda: memref_of(load_ptr(slot.pslot), stored_type(slot.elem))
        with ir.InsertionPoint(scope.sentinel), loc:
            if idx is None:
                idx = self.linear(ids, slot.sizes)
            v = memref.LoadOp(mem(), idx).result
            if v.type != slot.elem:
                v = arith.trunci(slot.elem, v)
            return v

    def load(self, v, scope):
        """The cached value of primal value `v`, loaded at the start of the reversed block `scope`."""
        rev = self.rev
        where = v.owner.owner if isinstance(v.owner, ir.Block) else v.owner
        if v not in self.slots:
            if not isinstance(v.type, (ir.IntegerType, ir.IndexType, ir.FloatType)):
                raise error_at_op(where, f"unsupported construct: reverse mode needs a value of type '{v.type}' "
                                         "that it can neither recompute nor cache")
            fv = rev.vmap[v]
            if isinstance(v.owner, ir.Block):
                ip = ir.InsertionPoint(self.anchor(v.owner))
            else:
                ip = ir.InsertionPoint.after(fv.owner)
            s = self.slot(v, rev.def_block(v), fv, ip, where.location)
            s.elem = v.type
        return self.read(self.slots[v], scope, where.location)

    def load_pseudo(self, key, block, fwd_value, scope, loc, at_anchor=False):
        """Like load, for a value the forward sweep computed that is not a primal value (a while loop's trip
        count), defined in primal `block` right after op `fwd_value.owner` (or, `at_anchor`, stored where the
        block's per-iteration code goes)."""
        if key not in self.slots:
            ip = ir.InsertionPoint(self.anchor(block)) if at_anchor else ir.InsertionPoint.after(fwd_value.owner)
            s = self.slot(key, block, fwd_value, ip, loc)
            s.elem = fwd_value.type
        return self.read(self.slots[key], scope, loc)

    @staticmethod
    def linear(idx, sizes):
        """Row-major position of `idx` in an array of `sizes` (a cache is one-dimensional)."""
        if not idx:
            return []
        pos = idx[0]
        for i, n in zip(idx[1:], sizes[1:]):
            pos = arith.addi(arith.muli(pos, n), i)
        return [pos]

    def free_all(self):
        """Free every cache (emitted before the derivative returns)."""
        for emit in self.frees:
            emit()

    # ------------------------------------------------------------------ while loops
    def while_count(self, op, scope):
        """Number of executions of the `do` region of primal scf.while `op` in its current instance, available in
        reversed scope `scope` (the scope of the block holding `op`)."""
        rev = self.rev
        fop = rev.fops[op.operation]
        after = op.regions[1].blocks[0]
        with ir.InsertionPoint.at_block_begin(self.entry), op.location:
            c = memref.AllocaOp(ir.MemRefType.get([], index_type()), [], []).result
        with ir.InsertionPoint(fop), op.location:
            memref.StoreOp(arith.constant(index_type(), 0), c, [])
        with ir.InsertionPoint(self.anchor(after)), op.location:
            k = memref.LoadOp(c, []).result
            memref.StoreOp(arith.addi(k, arith.constant(index_type(), 1)), c, [])
        with ir.InsertionPoint.after(fop), op.location:
            n = memref.LoadOp(c, []).result
        block = op.operation.block
        if block == rev.primal.regions[0].blocks[0]:
            return n
        return self.load_pseudo(("while-count", op), block, n, scope, op.location)


class Overwrites:
    """May memory read by a load be written after it (before the function returns)? Roots of memory are
    function arguments and allocations (memory_root in prepare.py); distinct allocations never alias, an
    allocation never aliases an argument, two arguments alias unless one is ``restrict`` (llvm.noalias).
    Calls of functions that may write memory, and writes through unknown pointers, overwrite everything."""

    WRITE_OPS = ("memref.store", "affine.store", "llvm.store", "memref.atomic_rmw", "memref.generic_atomic_rmw",
                 "llvm.intr.memcpy", "llvm.intr.memmove", "llvm.intr.memset", "memref.copy")
    HARMLESS_CALLS = ("malloc", "calloc", "aligned_alloc", "printf", "fprintf", "puts")

    def __init__(self, func_op, session, taped=False):
        from .prepare import readonly_functions, recursive_names
        self.func = func_op
        # (a taped recursive derivative: the caller may write any memory but the function's own allocations
        # between its augmented forward and its reverse, api_calls.Session.split_derivative)
        self.taped = taped
        self.session = session
        self.readonly = readonly_functions(session.funcs, recursive_names(session.module))
        entry = func_op.regions[0].blocks[0]
        self.args = set(entry.arguments)
        self.noalias = set()
        if "arg_attrs" in func_op.attributes:
            for i, d in enumerate(ir.ArrayAttr(func_op.attributes["arg_attrs"])):
                if "llvm.noalias" in ir.DictAttr(d):
                    self.noalias.add(entry.arguments[i])
        self.memo = {}

    def roots(self, v):
        from .prepare import memory_root
        return memory_root(v)

    def kind(self, r):
        if r in self.args:
            return "noalias" if r in self.noalias else "arg"
        owner = r.owner
        if not isinstance(owner, ir.Block) and (owner.name in ("memref.alloca", "memref.alloc", "llvm.alloca") or (
                owner.name == "func.call" and owner.attributes["callee"].value in MALLOCS)):
            return "alloc"
        return "unknown"

    def alias(self, reads, writes) -> bool:
        for r in reads:
            for w in writes:
                if r == w:
                    return True
                kr, kw = self.kind(r), self.kind(w)
                if "unknown" in (kr, kw):
                    return True
                if kr == "arg" and kw == "arg":
                    return True
        return False

    def writes_of(self, op):
        """Roots written by `op` (None: may write anything; empty: writes nothing)."""
        name = op.name
        if name in ("memref.store", "affine.store"):
            return self.roots(op.operands[1])
        if name in ("memref.atomic_rmw", "memref.generic_atomic_rmw"):
            return self.roots(op.operands[1] if name == "memref.atomic_rmw" else op.operands[0])
        if name in ("llvm.store",):
            return self.roots(op.operands[1])
        if name in ("llvm.intr.memcpy", "llvm.intr.memmove", "llvm.intr.memset", "memref.copy"):
            return self.roots(op.operands[0] if name != "memref.copy" else op.operands[1])
        if name == "func.call":
            callee = op.attributes["callee"].value
            if is_free(callee):  # freed memory cannot be read again by the reverse sweep
                return set().union(*(self.roots(x) for x in op.operands if is_pointer_like(x.type)))
            if callee in self.readonly or callee in self.HARMLESS_CALLS or callee in self.session.inactive:
                return set()
            if is_libm_call(self.session, op):  # (frexp writes its int argument)
                return set().union(*(self.roots(x) for x in op.operands if is_pointer_like(x.type)))
            return None
        if name == "llvm.call":
            callee = op.attributes["callee"] if "callee" in op.attributes else None
            if callee is not None and ir.FlatSymbolRefAttr(callee).value in self.HARMLESS_CALLS:
                return set()
            return None
        return set()

    def outside(self, reads) -> bool:
        """Whether, in a taped derivative, memory of roots `reads` may change before its reverse runs."""
        return self.taped and any(self.kind(r) != "alloc" for r in reads)

    def may_overwrite_after(self, load) -> bool:
        """Whether memory read by load `load` may be written after it."""
        reads = self.roots(load.operands[0])
        if self.outside(reads):
            return True
        for op in self.later_ops(load):
            w = self.writes_of(op)
            if w is None or (w and self.alias(reads, w)):
                return True
        return False

    def later_ops(self, op):
        """Ops that may run after `op` within one call of the function (later iterations included)."""
        from .activity import all_ops
        out = []
        cur = op.operation
        while cur.name != "func.func":
            block = cur.block
            after = False
            for o in block.operations:
                if after:
                    out.append(o)
                    out.extend(all_ops(o))
                elif o.operation == cur:
                    after = True
            parent = block.owner
            if parent.name in LOOPISH:
                out.extend(all_ops(parent))
            cur = parent.operation
        return out
