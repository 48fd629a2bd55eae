"""SCoP extraction from affine MLIR.

A SCoP (static control part) here is a maximal run of consecutive ops in one block made only of affine.for
(unit or constant step), affine.if, affine.load/affine.store, affine.apply and pure arith/math ops, with at
least one loop. Values defined outside the run (function arguments, outer induction variables, ...) that
appear in bounds or subscripts are the SCoP's parameters.

A statement is one affine.store together with its backward slice inside the SCoP (the loads and pure ops that
compute the stored value); code generation re-emits the slice at the statement's new position. That is only
correct when every load of the slice may move to the store, so before extraction this module rewrites the
region (Polygeist, PACT'21, handles the same cases by demotion to memory):

* loop-carried scalars (affine.for iter_args) and affine.if results are demoted to rank-0 memrefs;
* a load whose array is written between it and the store (a "pinned" load) is copied into a rank-0 memref
  right after it, and the store's slice reads the copy.

Arrays are memrefs; two memrefs on the same base pointer make the region no SCoP. Memrefs on different base
pointers are modelled as distinct arrays (as PPCG and Pluto model C arrays with different names); the pairs that
may still overlap (alias.py) are listed in `Scop.overlaps`, and the scheduled code runs only after a run-time
check that they do not (alias_checks.py).
"""

from __future__ import annotations

from dataclasses import dataclass, field

from mlir import ir
from mlir.dialects import affine, memref

from polygeist_py.gpu_to_cpu.ir_nav import defining_op, is_pure

from .alias import VERSIONED, array_base, overlapping_pairs, root  # noqa: F401  (array_base: imported from here by other modules)

LOOP, IF, LOAD, STORE, APPLY, YIELD = ("affine.for", "affine.if", "affine.load", "affine.store", "affine.apply",
                                       "affine.yield")


@dataclass
class Statement:
    """One affine.store and the ops that compute what it stores.

    loops: the enclosing affine.for ops inside the SCoP, outermost first (the statement's iterators i0..);
    guards: (affine.if op, True for its then region) pairs enclosing the store inside the SCoP;
    beta: the original schedule as a 2d+1 vector [p0, i0, p1, i1, ..., pd] of textual positions;
    slice: the ops inside the SCoP the stored value depends on, in program order (loads and pure ops).
    """
    name: str
    store: object
    loops: list
    guards: list
    beta: list
    slice: list = field(default_factory=list)

    @property
    def loads(self) -> list:
        return [op for op in self.slice if op.operation.name == LOAD]


@dataclass
class Scop:
    """A static control part: `ops` are the region's top-level ops (program order) in their block."""
    name: str
    function: str
    ops: list
    statements: list
    params: list            # ir.Value, in order; isl names p0, p1, ...
    arrays: dict            # array name -> memref ir.Value
    overlaps: list = field(default_factory=list)  # (array, array) pairs, one written, that may overlap (alias.py)

    def param_name(self, v) -> str:
        return f"p{self.params.index(v)}"

    def array_name(self, v) -> str:
        for name, a in self.arrays.items():
            if a == v:
                return name
        raise KeyError(v)

    @property
    def location(self):
        return self.ops[0].location


def source_location(op) -> str:
    """`file:line:col` of an op's location (the text of a plain file location; other kinds as printed)."""
    text = str(op.location)
    if text.startswith("loc(") and text.endswith(")"):
        text = text[4:-1]
    return text.replace('"', "")


class NotAScop(Exception):
    """The region cannot be modelled; the message says why (reported by --emit=scop, never an error)."""


# ----------------------------------------------------------------------------------------------- discovery

def _is_scop_op(op) -> bool:
    name = op.operation.name
    if name == LOOP:
        return _loop_ok(op)
    if name == IF:  # (results are demoted like iter_args)
        return (all(_demotable(r.type) for r in op.results) and
                all(_is_scop_op(o) for r in op.regions for b in r.blocks for o in b.operations))
    return name in (LOAD, STORE, APPLY, YIELD) or (is_pure(op) and not name.startswith("llvm."))


def _loop_ok(loop) -> bool:
    if not all(_demotable(a.type) for a in list(loop.regions[0].blocks[0].arguments)[1:]):
        return False
    return all(_is_scop_op(o) for o in loop.regions[0].blocks[0].operations)


def _demotable(ty) -> bool:
    return isinstance(ty, (ir.IntegerType, ir.IndexType, ir.F32Type, ir.F64Type, ir.F16Type))


def _has_store(op) -> bool:
    if op.operation.name == STORE:
        return True
    return any(_has_store(o) for r in op.regions for b in r.blocks for o in b.operations)


def candidate_regions(block) -> list:
    """Maximal runs of SCoP ops in `block` that contain a loop with a store (lists of ops, program order).

    Pure ops between the loops whose operands are defined before the run are hoisted above it first (always
    legal), so that, e.g., an index_cast of a loop bound does not split a SCoP in two."""
    runs, cur = [], []
    for op in list(block.operations):
        name = op.operation.name
        if name in (LOOP, IF, STORE) and _is_scop_op(op):
            cur.append(op)
        elif cur and is_pure(op) and not name.startswith("llvm.") and not _uses_any(op, cur):
            op.move_before(cur[0])
        else:
            runs.append(cur)
            cur = []
    runs.append(cur)
    return [r for r in runs if any(o.operation.name == LOOP and _has_store(o) for o in r)]


def _uses_any(op, ops) -> bool:
    region = _Region(ops)
    return any(region.value_inside(v) for v in op.operands)


def drop_dead_iter_args(region_ops) -> list:
    """Remove the iter_args (and affine.if results) whose values reach nothing but other such slots (C's final
    values of loop counters, passed from loop to loop; a scalar's last value passed through the branches of an
    if). Liveness is propagated backwards from real uses through loop inits and yields. Returns the region's
    ops with rebuilt loops and ifs in place of the old ones. (Upstream canonicalize removes unused iter_args of
    scf.for, not of affine.for, and not across loops.)"""
    carriers = []  # affine.for ops with iter_args and affine.if ops with results, outermost first

    def collect(op):
        if op.operation.name in (LOOP, IF) and len(op.results):
            carriers.append(op)
        for r in op.regions:
            for b in r.blocks:
                for o in b.operations:
                    collect(o)
    for op in region_ops:
        collect(op)
    slot_of = {}  # value carried in a slot (result, iter_arg block argument) -> (carrier index, slot)
    producers = {}  # (carrier index, slot) -> the values that flow into it (init and yielded values)
    init_slot = set()  # (loop op, operand number) of every iter_arg init
    yields = set()
    for n, op in enumerate(carriers):
        ends = [list(r.blocks[0].operations)[-1] for r in op.regions if len(r.blocks)]
        yields |= {e.operation for e in ends}
        args = list(op.regions[0].blocks[0].arguments)[1:] if op.operation.name == LOOP else []
        inits = list(op.inits) if args else []
        first_init = len(op.operands) - len(args)
        for k, r in enumerate(op.results):
            slot_of[r] = (n, k)
            producers[n, k] = [list(e.operands)[k] for e in ends]
            if args:
                slot_of[args[k]] = (n, k)
                producers[n, k].append(inits[k])
                init_slot.add((op.operation, first_init + k))

    def passes_along(use):
        """A use that only hands the value on: an iter_arg init, or a yield of a loop or if with slots."""
        owner = use.owner.operation
        return (owner, use.operand_number) in init_slot or owner in yields
    live = {slot for v, slot in slot_of.items() if any(not passes_along(u) for u in v.uses)}
    work = list(live)
    while work:  # a live slot makes the slots its values come from live
        for v in producers[work.pop()]:
            src = slot_of.get(v)
            if src is not None and src not in live:
                live.add(src)
                work.append(src)
    old = []
    for n, op in enumerate(carriers):
        keep = [k for k in range(len(op.results)) if (n, k) in live]
        if len(keep) < len(op.results):
            top = [i for i, o in enumerate(region_ops) if o.operation == op.operation]
            new = _rebuild_loop(op, keep) if op.operation.name == LOOP else _rebuild_if(op, keep)
            region_ops = [new if i in top else o for i, o in enumerate(region_ops)]
            old.append(op)
    for op in old:  # the old yields go first: they may use inner ops' dead results
        _erase_yields(op)
    for op in reversed(old):  # then users (later loops, inner ops) before what they use
        op.erase()
    return region_ops


def _erase_yields(op):
    """Erase the terminators (yields) of `op`'s regions, left behind when their contents moved to a rebuilt op."""
    for r in op.regions:
        if len(r.blocks):
            list(r.blocks[0].operations)[-1].erase()


def _rebuild_if(op, keep, stores=()):
    """A copy of affine.if `op`, inserted before it, that yields only the results at indices `keep`; the
    branches move over (each old yield stays for the caller to erase) and the kept results are replaced.
    `stores`: (rank-0 memref, result index) pairs whose yielded values each branch stores before its yield."""
    loc = op.location
    with ir.InsertionPoint(op), loc:
        new = ir.Operation.create(IF, results=[op.results[k].type for k in keep], operands=list(op.operands),
                                  attributes={"condition": op.attributes["condition"]}, regions=2)
    for old_region, new_region in zip(op.regions, new.regions):
        if not len(old_region.blocks):
            continue
        block = new_region.blocks.append()
        old_ops = list(old_region.blocks[0].operations)
        yielded = list(old_ops[-1].operands)
        with ir.InsertionPoint(block), loc:
            new_yield = affine.AffineYieldOp([yielded[k] for k in keep])
        for o in old_ops[:-1]:
            o.move_before(new_yield)
        for mem, k in stores:
            _store0(yielded[k], mem, ir.InsertionPoint(new_yield), loc)
    for j, k in enumerate(keep):
        op.results[k].replace_all_uses_with(new.results[j])
    return new


def _rebuild_loop(loop, keep):
    """A copy of affine.for `loop`, inserted before it, that keeps only the iter_args at indices `keep`; the
    body moves over and the kept block arguments and results are replaced. The old loop stays (with its
    yield and the other slots) for the caller to rewrite or erase."""
    body = loop.regions[0].blocks[0]
    args, inits, yield_op = list(body.arguments)[1:], list(loop.inits), list(body.operations)[-1]
    with ir.InsertionPoint(loop), loop.location:
        new = affine.AffineForOp(loop.attributes["lowerBoundMap"].value, loop.attributes["upperBoundMap"].value,
                                 ir.IntegerAttr(loop.attributes["step"]).value, [inits[k] for k in keep],
                                 lower_bound_operands=list(loop.lowerBoundOperands),
                                 upper_bound_operands=list(loop.upperBoundOperands))
        with ir.InsertionPoint(new.body):
            new_yield = affine.AffineYieldOp([list(yield_op.operands)[k] for k in keep])
    for o in list(body.operations)[:-1]:
        o.move_before(new_yield)
    body.arguments[0].replace_all_uses_with(new.induction_variable)
    new_args = list(new.body.arguments)[1:]
    for j, k in enumerate(keep):
        args[k].replace_all_uses_with(new_args[j])
        loop.results[k].replace_all_uses_with(new.results[j])
    return new


# OpenMP ops whose region every thread of a team runs (their loops' state, demoted to allocas at the function
# entry, would be shared by the threads), and ops whose region one thread at a time runs
OMP_TEAM_OPS = ("omp.parallel", "omp.wsloop", "omp.loop_nest")
OMP_ONE_THREAD_OPS = ("omp.single", "omp.master", "omp.masked", "omp.critical", "omp.section")


def find_regions(func) -> list:
    """Candidate SCoP regions anywhere in `func` (outermost first; a region's own blocks are not searched), not
    in code that the threads of an OpenMP team run concurrently."""
    found = []

    def search(op, team):
        name = op.operation.name
        team = (team or name in OMP_TEAM_OPS) and name not in OMP_ONE_THREAD_OPS
        for k, region in enumerate(op.regions):
            if k == 1 and VERSIONED in op.operation.attributes:
                continue  # (the original loops kept for a failed run-time alias check: not to be scheduled)
            for block in region.blocks:
                runs = [] if team else candidate_regions(block)
                found.extend(runs)
                inside = {o for r in runs for o in r}
                for o in block.operations:
                    if o not in inside:
                        search(o, team)
    search(func, False)
    return found


# ----------------------------------------------------------------------------------------------- demotion

def _entry_alloca(func, ty):
    """A rank-0 memref of element type `ty`, allocated at the function's entry."""
    entry = func.regions[0].blocks[0]
    with ir.InsertionPoint.at_block_begin(entry), func.location:
        return memref.AllocaOp(ir.MemRefType.get([], ty), [], []).result


def _store0(v, mem, ip, loc):
    with ip, loc:
        affine.AffineStoreOp(v, mem, [], map=ir.AffineMap.get(0, 0, []))


def _load0(mem, ip, loc):
    with ip, loc:
        return affine.AffineLoadOp(ir.MemRefType(mem.type).element_type, mem, [],
                                   map=ir.AffineMap.get(0, 0, [])).result


def demote_loop_state(func, region_ops) -> list:
    """Rewrite every affine.for with iter_args in the region so that it carries its values through rank-0
    memrefs (store the init before the loop, load at the top of the body, store the yielded value at its end,
    load the result after the loop), and every affine.if with results likewise (each branch stores what it
    yields, the result is loaded after the if); run drop_dead_iter_args first. Returns the region's ops,
    rewritten ops in place of the old ones."""
    return [_demote_in(func, op) for op in region_ops]


def _demote_in(func, op):
    # Outer loops first: dropping an outer loop's dead iter_arg leaves the inner loop's result it yielded unused.
    if op.operation.name == LOOP and len(op.results) > 0:
        op = _demote_for(func, op)
    elif op.operation.name == IF and len(op.results) > 0:
        op = _demote_if(func, op)
    for region in op.regions:
        for block in region.blocks:
            for inner in list(block.operations):
                _demote_in(func, inner)
    return op


def _demote_for(func, loop):
    """Carry every iter_arg of `loop` through a rank-0 memref (all are live after drop_dead_iter_args)."""
    loc = loop.location
    body = loop.regions[0].blocks[0]
    args, inits, yield_op = list(body.arguments)[1:], list(loop.inits), list(body.operations)[-1]
    new = _rebuild_loop(loop, [])
    first, new_yield = list(new.body.operations)[0], list(new.body.operations)[-1]
    mems = [_entry_alloca(func, a.type) for a in args]
    for arg, init, mem in zip(args, inits, mems):
        _store0(init, mem, ir.InsertionPoint(new.operation), loc)
        arg.replace_all_uses_with(_load0(mem, ir.InsertionPoint(first), loc))
    for k, mem in enumerate(mems):  # yielded values read after the replacement: a yield may pass an iter_arg on
        _store0(list(yield_op.operands)[k], mem, ir.InsertionPoint(new_yield), loc)
        loop.results[k].replace_all_uses_with(_load0(mem, ir.InsertionPoint(loop), loc))
    yield_op.erase()
    loop.erase()
    return new


def _demote_if(func, op):
    """Carry every result of affine.if `op` through a rank-0 memref: each branch stores what it yields, the
    result is loaded after the if."""
    mems = [_entry_alloca(func, r.type) for r in op.results]
    new = _rebuild_if(op, [], [(mem, k) for k, mem in enumerate(mems)])
    for result, mem in zip(op.results, mems):
        result.replace_all_uses_with(_load0(mem, ir.InsertionPoint(op), op.location))
    _erase_yields(op)
    op.erase()
    return new


# ----------------------------------------------------------------------------------------------- extraction

def extract_scop(func, region_ops, name) -> Scop:
    """Build the Scop of one candidate region (after demote_loop_state) of function `func`.

    Loads that cannot move to their store are demoted first (see the module docstring), which adds statements.

    Raises:
        NotAScop: the region uses a memref defined inside it or two views of one array.
    """
    fname = ir.StringAttr(func.attributes["sym_name"]).value
    region = _Region(region_ops)
    statements = _statements(region_ops)
    pinned = _pinned_loads(region, statements)
    if pinned:
        _demote_pinned(func, statements, pinned)
        region_ops = _refresh(region_ops)
        region = _Region(region_ops)
        statements = _statements(region_ops)
    for op in region.members():
        for r in op.results:
            if any(not region.inside(u.owner) for u in r.uses):
                raise NotAScop(f"{op.name} computes a value used after the loop nest")
    for s in statements:
        s.slice = slice_of(s.store, region.inside)
    scop = Scop(name, fname, region_ops, statements, [], {})
    bases = {}
    for s in statements:
        for op in [s.store, *s.loads]:
            mem = op.operands[1] if op.operation.name == STORE else op.operands[0]
            if region.value_inside(mem):
                raise NotAScop("a memref defined inside the loop nest")
            if any(a == mem for a in scop.arrays.values()):
                continue
            base = array_base(mem)
            if any(b == base for b in bases.values()):
                raise NotAScop("two memref views of the same array")
            aname = f"A{len(scop.arrays)}"
            scop.arrays[aname], bases[aname] = mem, base
    scop.overlaps = _overlapping_pairs(scop, statements)
    for v in _parameters(region, statements):
        scop.params.append(v)
    return scop


def _overlapping_pairs(scop, statements) -> list:
    """(name, name) of the array pairs of `scop` that may overlap in memory (alias.py), one of them written.

    Raises:
        NotAScop: two arrays are the same object (two memref.get_global of one global).
    """
    names = list(scop.arrays)
    roots = [root(scop.arrays[a]) for a in names]
    for i, r in enumerate(roots):
        if r[0] in ("global", "argument") and any(r[:2] == q[:2] for q in roots[i + 1:]):
            raise NotAScop("two memref views of the same array")
    written = [s.store.operands[1] for s in statements]
    return [(names[i], names[j]) for i, j in overlapping_pairs([scop.arrays[a] for a in names], written)]


class _Region:
    """Membership test for the ops of a candidate region (the top-level ops and everything nested in them)."""

    def __init__(self, ops):
        self.ops = ops
        self._members = set()
        for op in ops:
            self._add(op)

    def members(self) -> list:
        return list(self._members)

    def _add(self, op):
        self._members.add(op.operation)
        for r in op.regions:
            for b in r.blocks:
                for o in b.operations:
                    self._add(o)

    def inside(self, op) -> bool:
        return op.operation in self._members

    def value_inside(self, v) -> bool:
        return self.inside(defining_op(v)) if not isinstance(v.owner, ir.Block) else \
            self.inside(v.owner.owner)


def _refresh(region_ops) -> list:
    """The region's top-level ops again after a rewrite inserted ops among them (same block, same span)."""
    first, last = region_ops[0].operation, region_ops[-1].operation
    out, on = [], False
    for op in _block_of(first).operations:
        if op.operation == first:
            on = True
        if on:
            out.append(op)
        if op.operation == last:
            break
    return out


def _block_of(op):
    parent = op.parent
    for region in parent.regions:
        for block in region.blocks:
            for o in block.operations:
                if o.operation == op.operation:
                    return block
    raise ValueError("op not found in its parent")


def _statements(region_ops) -> list:
    """Statements in program order with their loops, guards and 2d+1 positions."""
    out = []

    def body(ops, loops, guards, beta, pos):
        for op in ops:
            if op.operation.name == LOOP:
                body(list(op.regions[0].blocks[0].operations), loops + [op], guards, beta + [pos], 0)
                pos += 1
            elif op.operation.name == IF:
                # An affine.if adds no schedule dimension: its statements take the next positions.
                for k, region in enumerate(op.regions):
                    if region.blocks:
                        pos = body(list(region.blocks[0].operations), loops, guards + [(op, k == 0)], beta, pos)
            elif op.operation.name == STORE:
                out.append(Statement(f"S{len(out)}", op, loops, guards, beta + [pos]))
                pos += 1
        return pos
    body(region_ops, [], [], [], 0)
    return out


def slice_of(store, inside) -> list:
    """The ops inside the region (per `inside`) that the stored value and subscripts depend on, in program
    order (a def always precedes its uses, so dependency order is program order here)."""
    seen, order = set(), []

    def visit(v):
        if isinstance(v.owner, ir.Block):
            return
        op = v.owner
        if not inside(op) or op.operation in seen:
            return
        seen.add(op.operation)
        for o in op.operands:
            visit(o)
        order.append(op)
    for o in list(store.operands)[:1] + list(store.operands)[2:]:
        visit(o)
    return order


def memref_and_indices(access) -> tuple:
    """(memref, index operands) of an affine.load or affine.store."""
    operands = list(access.operands)
    return (operands[0], operands[1:]) if access.name == LOAD else (operands[1], operands[2:])


def accesses(op) -> list:
    """The affine.load and affine.store ops in `op` (itself included), in walk order."""
    found = []
    op.operation.walk(lambda o: (found.append(o) if o.name in (LOAD, STORE) else None) or ir.WalkResult.ADVANCE)
    return found


def _writes(op) -> list:
    """Memrefs stored to by `op` or anything nested in it."""
    out = []
    if op.operation.name == STORE:
        out.append(op.operands[1])
    for r in op.regions:
        for b in r.blocks:
            for o in b.operations:
                out.extend(_writes(o))
    return out


def _pinned_loads(region, statements) -> dict:
    """{load op: [statements whose slice reads it but which may not re-execute it at the store]}.

    A load L may be re-executed at store S when no write to L's array can happen between them: take the op O
    of L's block that contains S (or is S); the writes in the ops strictly between L and O, and in all of O
    when O is not S itself (later iterations of a loop in O run after earlier writes), must miss L's array."""
    written_bases = {array_base(m) for op in region.ops for m in _writes(op)}
    pinned = {}
    for s in statements:
        for op in slice_of(s.store, region.inside):
            if op.operation.name != LOAD or array_base(op.operands[0]) not in written_bases:
                continue
            if _written_between(op, s.store):
                pinned.setdefault(op.operation, (op, []))[1].append(s)
    return pinned


def _written_between(load, store) -> bool:
    base = array_base(load.operands[0])
    block = _block_of(load)
    anchor = store.operation
    while _block_of(anchor) != block:
        anchor = anchor.parent
    after = False
    for op in block.operations:
        if op.operation == load.operation:
            after = True
            continue
        if not after:
            continue
        if op.operation == anchor:
            if anchor == store.operation:
                return False
            return any(array_base(m) == base for m in _writes(op))
        if any(array_base(m) == base for m in _writes(op)):
            return True
    return True  # the store is not after the load in its block (cannot happen for a slice); be safe


def _demote_pinned(func, statements, pinned) -> None:
    """Copy each pinned load into a rank-0 memref right after it; each affected store recomputes its slice
    from a load of that copy placed right before the store."""
    copies = {}
    for key, (load, _) in pinned.items():
        mem = _entry_alloca(func, load.result.type)
        nxt = _next_op(load)
        _store0(load.result, mem, ir.InsertionPoint(nxt), load.location)
        copies[key] = mem
    for key, (load, users) in pinned.items():
        for s in users:
            _rebuild_value_at_store(s, copies)


def _next_op(op):
    ops = list(_block_of(op).operations)
    i = next(k for k, o in enumerate(ops) if o.operation == op.operation)
    return ops[i + 1]


def _rebuild_value_at_store(s, copies) -> None:
    """Clone, right before the store, the part of its value's slice that depends on pinned loads, with each
    pinned load replaced by a load of its copy."""
    store = s.store
    ip = ir.InsertionPoint(store)
    mapping = {}

    def rebuilt(v):
        if isinstance(v.owner, ir.Block):
            return v
        op = v.owner
        key = op.operation
        if key in copies:
            if key not in mapping:
                mapping[key] = _load0(copies[key], ip, op.location)
            return mapping[key]  # a Value
        if not is_pure(op) and op.operation.name != LOAD:
            return v
        new_operands = [rebuilt(o) for o in op.operands]
        if all(a == b for a, b in zip(new_operands, op.operands)):
            return v
        if key not in mapping:
            clone = op.clone(ip=ip)
            for i, o in enumerate(new_operands):
                clone.operands[i] = o
            mapping[key] = clone
        return mapping[key].results[v.result_number] if key not in copies else mapping[key]
    value = store.operands[0]
    new_value = rebuilt(value)
    if new_value != value:
        store.operands[0] = new_value


def _parameters(region, statements) -> list:
    """Values defined outside the region used in loop bounds, guards or subscripts, first-use order."""
    params = []

    def use(v):
        if region.value_inside(v):
            owner = v.owner
            if not isinstance(owner, ir.Block) and owner.operation.name == APPLY:
                for o in owner.operands:
                    use(o)
            return
        if not any(p == v for p in params):
            params.append(v)
    for s in statements:
        for loop in s.loops:
            for v in list(loop.lowerBoundOperands) + list(loop.upperBoundOperands):
                use(v)
        for g, _ in s.guards:
            for v in g.operands:
                use(v)
        for op in [s.store, *s.loads]:
            for v in list(op.operands)[2 if op.operation.name == STORE else 1:]:
                use(v)
    return params
