"""Loop-invariant code motion of read-only calls and read-only loop nests, across parallel loops too.

Upstream's `loop-invariant-code-motion` moves only ops without memory effects. This pass moves what it cannot:
a `func.call` of a function that writes no memory (effects.py), and a read-only `scf.for`/`affine.for`/
`scf.if`/`affine.if` nest (a __device__ function inlined into a cpuified kernel, a reduction over an array the
loop does not change), out of `scf.for`, `affine.for`, `scf.while`, `scf.parallel` and `affine.parallel`:
the `for (i) out[i] = in[i] / mag(in)` of Enzyme's and Tapir's papers becomes O(n), serial or parallel.

Guarantees. An op X directly in the body block of loop L moves to just before L when
1. every value X uses (operands, and values its regions use) is defined outside L;
2. X writes no memory but allocations of its own that do not escape;
3. no memory X may read is written anywhere in L (any iteration, any thread): each address L writes and each
   address X reads is traced to its root (a function argument, an allocation, a global, or unknown), and two
   roots alias unless they are distinct allocations, distinct globals, an allocation that never escapes against
   anything else, or one is a `restrict` (llvm.noalias) argument and the other a different root (C11 6.7.3.1:
   an object modified through a restrict pointer is accessed through it only);
4. X runs in every iteration: it is not nested in a conditional of the body, and the ops before it in the body
   surely return (no call that may write memory or exit, no `scf.while`, no unknown op);
5. X runs at least once: when L may run zero times (bounds not constant), X moves under ``scf.if (L runs)``,
   whose else branch yields zeros (never a speculative call: the callee may read memory that is only valid
   when the loop runs). In an `scf.while`, X moves from the condition region, which always runs once, or
   from the body under ``scf.if (the condition's first evaluation)``: the condition region, copied before the
   loop with its arguments bound to the initial values, when it writes no memory (a grid-stride loop's
   `i < n`, a scan's `s[i] != 0`); not in CUDA device code before cpuify, whose thread-strided loops
   cpuify's interchange needs whole (the cleanup after cpuify moves X from the interchanged loop).
Then the value X computed is the same in every iteration (same operands, same memory), so computing it once
before L is equivalent.

Conditional X. When X (with conditions 1-3, given the pure ops of the branch that compute its operands) sits in
the then-branch of ``scf.if %c`` in L's body, after ops that surely return and write nothing X reads, it first
gets a branch of its own before that if, ``%r = scf.if %c {X} else {zeros}`` (same condition: X runs exactly
when it ran). When %c depends on L's induction variables through pure ops (``if (i < n)``, a thread guard),
such a branch leaves an `scf.for`/`scf.parallel` by speculation on the first iteration: the branch is computed
before L when L's first iteration would compute it (%c at the lower bounds), and inside L each iteration uses
that value when the first iteration's %c held, and computes X itself only otherwise (the fallback for a first
iteration that skips X). No call runs that the original program would not have run.

Parallel loops (Tapir's rule, Schardl, Moses, Leiserson, PPoPP'17): moving code from a parallel loop's body
to before the loop, or after its end, serializes that code with respect to all iterations, which is always
valid when conditions 1-5 hold (the memory X reads is written by no iteration, so there is no race to preserve
or create). This pass never moves code into a parallel loop's body: that would run it once per iteration,
concurrently, and may create races. A cpuified CUDA kernel is an `scf.parallel {pgcc.blocks}` around the
thread loops (gpu_to_cpu/launch_to_loops.py): code invariant across threads leaves the thread loop (once per
block), and code invariant across blocks leaves the block loop (once per launch).

The AD pipeline's primal copy (ad/prepare.py: hoist_readonly_calls) applies the same rule to calls before
differentiating; with this pass in the cleanup pipeline the primal it copies is already hoisted.
"""

from __future__ import annotations

from mlir import ir

from .effects import NONE, PURE_OPS, PURE_PREFIXES, STRUCTURE, EffectAnalysis, _escapes, global_name, root_kind

LOOPS = ("scf.for", "affine.for", "scf.while", "scf.parallel", "affine.parallel")
# region ops moved as a whole when they only read memory (a call inlined into them, a reduction loop)
REGION_CANDIDATES = ("scf.for", "affine.for", "scf.if", "affine.if")
MAX_ROUNDS = 16
CONSTANTS = ("arith.constant", "llvm.mlir.zero", "llvm.mlir.undef", "ub.poison")
SPECULATED = "pgcc.first_iteration"  # an scf.if whose branch _hoist_from_first_iteration copied before its loop


def hoist_invariant_code(module) -> int:
    """Move loop-invariant read-only calls and loop nests out of the loops of every function of `module`
    (in place; see the module docstring for the conditions). Returns how many ops moved (0: module unchanged).

    Nothing is analysed when no loop contains a call or another loop."""
    if not _has_candidates(module):
        return 0
    analysis = EffectAnalysis(module)
    moved = 0
    for f in analysis.funcs.values():
        if len(f.regions[0].blocks) == 0:
            continue
        for _ in range(MAX_ROUNDS):
            n = _one_round(f, analysis)
            moved += n
            if n == 0:
                break
    return moved


def hoist_in_function(f, module=None, keep=frozenset()) -> int:
    """`hoist_invariant_code` on func.func `f` alone (`module`: the module holding it, default its parent),
    leaving calls of the functions named in `keep` where they are (ad/prepare.py: functions with custom
    derivative rules). Returns how many ops moved."""
    if module is None:
        module = f.operation.parent
    analysis = EffectAnalysis(module)
    moved = 0
    for _ in range(MAX_ROUNDS):
        n = _one_round(f, analysis, keep)
        moved += n
        if n == 0:
            break
    return moved


def _has_candidates(module) -> bool:
    found = []

    def visit(op):
        op = op.operation
        if op.name == "func.call" or op.name in REGION_CANDIDATES:
            p = op.parent
            while p is not None and p.operation.name != "func.func":
                if p.operation.name in LOOPS:
                    found.append(op)
                    return ir.WalkResult.INTERRUPT
                p = p.operation.parent
        return ir.WalkResult.ADVANCE

    module.operation.walk(visit, ir.WalkOrder.PRE_ORDER)
    return bool(found)


class _Func:
    """Per-function facts: entry arguments, `restrict` ones."""

    def __init__(self, f):
        self.f = f
        entry = f.regions[0].blocks[0]
        self.args = list(entry.arguments)
        self.noalias = set()
        self._device = None
        if "arg_attrs" in f.attributes:
            for i, d in enumerate(ir.ArrayAttr(f.attributes["arg_attrs"])):
                if "llvm.noalias" in ir.DictAttr(d):
                    self.noalias.add(self.args[i])

    def device_code(self) -> bool:
        """Whether the function is CUDA device code not cpuified yet (it reads thread or block ids): its
        thread-strided while loops are left to cpuify's interchange (gpu_to_cpu/thread_loop_interchange.py),
        which needs them whole; the cleanup after cpuify moves invariant code out of the interchanged loop
        (before the thread loop: once per block, and by first-iteration speculation once per launch)."""
        if self._device is None:
            found = []

            def visit(op):
                if op.operation.name in ("gpu.thread_id", "gpu.block_id", "gpu.block_dim", "gpu.grid_dim"):
                    found.append(op)
                    return ir.WalkResult.INTERRUPT
                return ir.WalkResult.ADVANCE
            self.f.operation.walk(visit)
            self._device = bool(found)
        return self._device

    def kind(self, r) -> str:
        k = root_kind(r, self.args)
        if k == "arg" and r in self.noalias:
            return "restrict"
        return k

    def private(self, r) -> bool:
        """A root that nothing but its own loads and stores can reach: a restrict argument (for memory that is
        written through it) or an allocation whose address does not escape."""
        k = self.kind(r)
        return k == "restrict" or (k == "local" and not _escapes(r))

    def may_alias(self, a, b) -> bool:
        if a is None or b is None:
            return True
        if a == b:
            return True
        ka, kb = self.kind(a), self.kind(b)
        if "restrict" in (ka, kb):
            return False
        if ka == "local" or kb == "local":
            other = b if ka == "local" else a
            mine = a if ka == "local" else b
            if self.kind(other) in ("local", "arg", "global"):
                return False  # distinct allocations; an argument or a global existed before this allocation
            return _escapes(mine)
        if ka == "global" and kb == "global":
            return global_name(a) == global_name(b) or global_name(a) is None
        return True


def _one_round(f, analysis, keep=frozenset()) -> int:
    info = _Func(f)
    loops = []

    def visit(op):
        op = op.operation
        if op.name in LOOPS:
            loops.append(op.operation)
        return ir.WalkResult.ADVANCE

    f.operation.walk(visit, ir.WalkOrder.POST_ORDER)  # innermost loops first
    moved = 0
    for loop in loops:
        moved += _split_from_branches(loop, info, analysis, keep)
        moved += _hoist_from(loop, info, analysis, keep)
        if loop.name == "scf.while":
            moved += _split_from_branches(loop, info, analysis, keep, body=1)
            moved += _hoist_from_while_body(loop, info, analysis, keep)
    return moved


def _split_from_branches(loop, info, analysis, keep, body=0) -> int:
    """Give each loop-invariant read-only candidate X in the then-branch of an ``scf.if %c`` of `loop`'s body
    a branch of its own, before that if: ``%r = scf.if %c {X} else {zeros}`` (X runs exactly when it ran
    before: the ops before it in the branch surely return and write nothing X reads). Done only when the new
    branch can then leave `loop` (its condition is invariant, or computed from the induction variables:
    _hoist_from_first_iteration); `if (i < n) out[i] = in[i] / mag(in, n)`. `body`: the region of `loop`
    looked at (1: an scf.while's body). Returns how many ops moved."""
    region = loop.regions[body]
    if len(region.blocks) != 1:
        return 0
    moved = 0
    reads = _LoopReads(loop, analysis, info)
    for g in [o.operation for o in region.blocks[0].operations]:
        if g.name != "scf.if" or len(g.regions[0].blocks) != 1 or SPECULATED in g.attributes or \
                _speculated(g, loop):
            continue  # (a branch _hoist_from_first_iteration left: its candidate already runs before `loop`)
        c = g.operands[0]
        if _defined_inside(c, loop) and not (loop.name in ("scf.for", "scf.parallel") and
                                              _condition_slice(g, loop) is not None):
            continue
        before = []
        for x in [o.operation for o in g.regions[0].blocks[0].operations]:
            if not _surely_returns_before(x, analysis):
                break
            if _candidate(x, analysis) and not _calls_kept(x, keep):
                feed = _pure_feed(x, g, loop)
                if feed is not None and reads.unchanged(x) and not any(
                        _conflicts(analysis.accesses(b), analysis.accesses(x), info) for b in before):
                    _move_guarded(x, g, lambda: c, feed)
                    moved += 1
                    continue
            before.append(x)
    return moved


def _pure_feed(x, g, loop):
    """The ops of `g`'s then-block before `x` (in order) that compute, by pure ops without regions, values `x`
    uses; None unless every other value `x` or they use is defined outside `loop` (then `x` with this feed is
    loop-invariant: address casts of an argument, an index cast of `n`)."""
    block_ops = []
    for o in g.regions[0].blocks[0].operations:
        if o.operation == x:
            break
        block_ops.append(o.operation)
    need, work = set(), []

    def uses(op):
        vals = list(op.operands)
        for inner in _nested(op):
            vals += [v for v in inner.operands if not _defined_inside(v, op)]
        return vals

    work = uses(x)
    while work:
        v = work.pop()
        if not _defined_inside(v, loop):
            continue
        owner = v.owner
        if isinstance(owner, ir.Block):
            return None
        owner = owner.operation
        if owner not in block_ops or len(owner.regions) or not (
                owner.name.startswith(PURE_PREFIXES) or owner.name in PURE_OPS) or owner.name.endswith("alloca"):
            return None
        if owner not in need:
            need.add(owner)
            work.extend(owner.operands)
    return [o for o in block_ops if o in need]


def _calls_kept(op, keep) -> bool:
    return bool(keep) and any(o.name == "func.call" and ir.FlatSymbolRefAttr(o.attributes["callee"]).value in keep
                              for o in [op, *_nested(op)])


def _hoist_from(loop, info, analysis, keep=frozenset()) -> int:
    region = loop.regions[0]
    if len(region.blocks) != 1:
        return 0
    block = region.blocks[0]
    reads = _LoopReads(loop, analysis, info)
    moved = 0
    for op in [o.operation for o in block.operations]:
        if not _surely_returns_before(op, analysis):
            break  # (later ops might not run at all)
        if not _candidate(op, analysis) or _calls_kept(op, keep):
            continue
        first_iteration = False
        if not _invariant(op, loop):
            if not (op.name == "scf.if" and loop.name in ("scf.for", "scf.parallel") and SPECULATED not in
                    op.attributes and not _speculated(op, loop) and _runs_once(loop) is not False and
                    _invariant_branch(op, loop)):
                continue
            first_iteration = True  # the branch is invariant, its condition is not
        if not reads.unchanged(op):
            continue
        if first_iteration:
            moved += _hoist_from_first_iteration(op, loop)
            continue
        if loop.name == "scf.while":
            guard = None  # (the condition region runs at least once)
        else:
            guard = _runs_once(loop)
            if guard is False:
                continue
        if guard is None:
            op.move_before(loop)
        else:
            _move_guarded(op, loop, guard)
        moved += 1
    return moved


class _LoopReads:
    """Whether an op only reads, and nothing `loop` (its other ops) writes may change what it reads; what the
    loop accesses is worked out once, when first needed."""

    def __init__(self, loop, analysis, info):
        self.loop, self.analysis, self.info, self.loop_acc = loop, analysis, info, None

    def unchanged(self, op) -> bool:
        acc = self.analysis.accesses(op)
        if acc.writes:
            return False
        if self.loop_acc is None:
            self.loop_acc = self.analysis.accesses(self.loop, include_self=False)
        return not _conflicts(self.loop_acc, acc, self.info)


def _hoist_from_while_body(loop, info, analysis, keep) -> int:
    """Move the invariant read-only candidates of scf.while `loop`'s body (its `do` region, which runs only when
    the condition holds) to before the loop under ``scf.if (the condition's first evaluation)``: the body runs at
    least once exactly when the condition, computed on the loop's initial values, holds. That first evaluation
    is copied before the loop, so the condition region must write nothing (reading is fine: the copy reads what
    the loop's first evaluation reads, with nothing in between). Grid-stride loops of CUDA kernels
    (``for (i = tid; i < n; i += stride)``) and C while loops. Returns how many ops moved."""
    body = loop.regions[1]
    if len(body.blocks) != 1 or len(loop.regions[0].blocks) != 1 or info.device_code():
        return 0
    reads = _LoopReads(loop, analysis, info)
    moved = 0
    for op in [o.operation for o in body.blocks[0].operations]:
        if not _surely_returns_before(op, analysis):
            break
        if not _candidate(op, analysis) or _calls_kept(op, keep) or not _invariant(op, loop):
            continue
        if not reads.unchanged(op):
            continue
        condition = _first_condition(loop, analysis)
        if condition is None:
            return moved  # (the condition writes memory or may not return: it cannot be evaluated twice)
        _move_guarded(op, loop, condition)
        moved += 1
    return moved


def _first_condition(loop, analysis):
    """For scf.while `loop`: None when its condition region may write memory or not return (it cannot be
    evaluated one more time), else a function that copies the region before `loop` with its arguments bound to
    the loop's initial values and returns the i1 it passes to scf.condition (the first evaluation)."""
    before = loop.regions[0].blocks[0]
    ops = [o.operation for o in before.operations]
    for o in ops[:-1]:
        if not _surely_returns_before(o, analysis) or analysis.accesses(o).writes:
            return None

    def build():
        mapping = dict(zip(list(before.arguments), list(loop.operands)))
        for o in ops[:-1]:
            c = o.clone(ip=ir.InsertionPoint(loop))
            _remap_nested(c, mapping)
            for old, new in zip(o.results, c.results):
                mapping[old] = new
        c = ops[-1].operands[0]
        return mapping.get(c, c)
    return build


def _candidate(op, analysis) -> bool:
    name = op.name
    if len(op.results) == 0:
        return False
    if name == "func.call":
        return analysis.callee_effects(op).writes == NONE
    if name in REGION_CANDIDATES:
        # worth a move when it repeats work (a loop or a call inside; a loop itself) that upstream's LICM would
        # not move (something inside reads memory); a branch around a single load stays
        inner = [op, *_nested(op)]
        return any(o.name in LOOPS or o.name == "func.call" for o in inner) and any(
            o.name not in STRUCTURE and o.name not in PURE_OPS and not o.name.startswith(PURE_PREFIXES)
            for o in inner[1:])
    return False


def _nested(op):
    for region in op.regions:
        for block in region.blocks:
            for inner in block.operations:
                yield inner.operation
                yield from _nested(inner.operation)


def _invariant(op, loop) -> bool:
    """Whether every value `op` uses, in its operands or inside its regions, is defined outside `loop`."""
    for v in op.operands:
        if _defined_inside(v, loop):
            return False
    for inner in _nested(op):
        for v in inner.operands:
            if _defined_inside(v, loop) and not _defined_inside(v, op):
                return False
    return True


def _invariant_branch(op, loop) -> bool:
    """For ``scf.if`` `op` with results in `loop`'s body: its then-branch uses only values defined outside
    `loop` (or inside the branch), and its else-branch has only constants and a yield of values defined outside `loop`
    (the guards that _move_guarded builds, and `if (tid < n) x = f(in)` forms)."""
    if len(op.regions[1].blocks) == 0:
        return False
    else_ops = [o.operation for o in op.regions[1].blocks[0].operations]
    if any(o.name not in CONSTANTS for o in else_ops[:-1]) or any(
            _defined_inside(v, loop) and not _defined_inside(v, op) for v in else_ops[-1].operands):
        return False
    for inner in _nested_region(op.regions[0]):
        for v in inner.operands:
            if _defined_inside(v, loop) and not _defined_inside(v, op):
                return False
    return _condition_slice(op, loop) is not None


def _speculated(op, loop) -> bool:
    """Whether scf.if `op` is the form _hoist_from_first_iteration leaves (its SPECULATED mark may be gone
    after canonicalization): its then-branch starts with ``scf.if %c0 {yield %p} else {...}``, %c0 and %p
    defined outside `loop`."""
    first = [o.operation for o in op.regions[0].blocks[0].operations][0]
    if first.name != "scf.if" or _defined_inside(first.operands[0], loop) or len(first.regions[1].blocks) == 0:
        return False
    then_ops = [o.operation for o in first.regions[0].blocks[0].operations]
    return len(then_ops) == 1 and not any(_defined_inside(v, loop) for v in then_ops[0].operands)


def _nested_region(region):
    for block in region.blocks:
        for inner in block.operations:
            yield inner.operation
            yield from _nested(inner.operation)


def _condition_slice(op, loop):
    """The ops of `loop`'s body (in order) that compute `op`'s condition from the induction variables and
    values defined outside `loop`, all of them pure and without regions; None when there is another source."""
    body = loop.regions[0].blocks[0]
    ivs = list(body.arguments)[:len(_lower_bounds(loop))]
    need, work = set(), [op.operands[0]]
    while work:
        v = work.pop()
        if not _defined_inside(v, loop):
            continue
        owner = v.owner
        if isinstance(owner, ir.Block):
            if v not in ivs:
                return None
            continue
        owner = owner.operation
        if owner.parent is None or owner.parent.operation != loop.operation or len(owner.regions) or not (
                owner.name.startswith(PURE_PREFIXES) or owner.name in PURE_OPS) or owner.name.endswith("alloca"):
            return None
        if owner not in need:
            need.add(owner)
            work.extend(owner.operands)
    return [o.operation for o in body.operations if o.operation in need]


def _lower_bounds(loop):
    n = 1 if loop.name == "scf.for" else len(loop.regions[0].blocks[0].arguments)
    return list(loop.operands)[:n]


def _hoist_from_first_iteration(op, loop) -> int:
    """Speculation on the first iteration: ``%r = scf.if %c(iv) {B} else {yield z}`` in `loop`'s body, with B
    invariant, becomes

        %c0 = %c(first iteration)       // (the slice computing %c, cloned with the ivs := lower bounds)
        %p = scf.if (loop runs && %c0) {B} else {zeros}
        loop { %r = scf.if %c(iv) { scf.if %c0 {yield %p} else {B} } else {yield z} }

    B runs before the loop only when the loop's first iteration runs it (same operands, same memory: the
    caller checked that the loop writes nothing B reads); other iterations use %p whenever %c0 holds. A
    cpuified kernel's per-thread guard `tid < n` computed per block thus leaves the block loop: once per
    launch. Returns 1."""
    from mlir.dialects import arith, scf

    slice_ops = _condition_slice(op, loop)
    body = loop.regions[0].blocks[0]
    lbs = _lower_bounds(loop)
    mapping = {iv: lb for iv, lb in zip(list(body.arguments)[:len(lbs)], lbs)}
    runs = _runs_once(loop)
    with ir.InsertionPoint(loop), op.location:
        for o in slice_ops:
            c = o.clone(ip=ir.InsertionPoint(loop))
            for i, v in enumerate(c.operands):
                if v in mapping:
                    c.operands[i] = mapping[v]
            for old, new in zip(o.results, c.results):
                mapping[old] = new
        c0 = mapping[op.operands[0]]
        cond = c0 if runs is None else arith.andi(runs(), c0)
        types = [r.type for r in op.results]
        pre = scf.IfOp(cond, types, has_else=True)
    then_block = op.regions[0].blocks[0]
    then_ops = [o.operation for o in then_block.operations]
    # the speculated copy of B
    inner_map = {}
    for o in then_ops:
        c = o.clone(ip=ir.InsertionPoint(pre.then_block))
        _remap_nested(c, inner_map)
        for old, new in zip(o.results, c.results):
            inner_map[old] = new
    with ir.InsertionPoint(pre.else_block), op.location:
        scf.YieldOp([_zero(t) for t in types])
    # B inside the loop, behind %c0
    with ir.InsertionPoint.at_block_begin(then_block), op.location:
        sel = scf.IfOp(c0, types, has_else=True)
        with ir.InsertionPoint(sel.then_block):
            scf.YieldOp(list(pre.results))
    _move_ops_to(then_ops, sel.else_block)
    with ir.InsertionPoint(then_block), op.location:
        scf.YieldOp(list(sel.results))
    op.attributes[SPECULATED] = ir.UnitAttr.get()
    return 1


def _move_ops_to(ops, block):
    """Move `ops` (in order) to the end of `block`."""
    with ir.InsertionPoint(block), ir.Location.unknown():
        anchor = ir.Operation.create("arith.constant", [ir.IndexType.get()],
                                     attributes={"value": ir.IntegerAttr.get(ir.IndexType.get(), 0)})
    for o in ops:
        o.move_before(anchor)
    anchor.erase()


def _remap_nested(op, mapping) -> None:
    """Replace, in cloned `op` and the ops nested in it, operands that `mapping` maps."""
    for i, v in enumerate(op.operands):
        if v in mapping:
            op.operands[i] = mapping[v]
    for inner in _nested(op):
        for i, v in enumerate(inner.operands):
            if v in mapping:
                inner.operands[i] = mapping[v]


def _defined_inside(v, op) -> bool:
    owner = v.owner
    o = owner.owner if isinstance(owner, ir.Block) else owner
    o = o.operation if o is not None else None
    anc = op.operation
    while o is not None:
        if o == anc:
            return True
        o = o.parent
    return False


def _surely_returns_before(op, analysis) -> bool:
    """Whether `op` itself surely returns when it is not the one to move (checked on the ops before a
    candidate): no call that may write memory (it might exit), no scf.while (it might not terminate), no
    unknown op."""
    for o in [op, *_nested(op)]:
        name = o.name
        if name == "scf.while" or name == "llvm.call":
            return False
        if name == "func.call" and analysis.callee_effects(o).writes != NONE:
            return False
        if name.startswith(("gpu.", "omp.")):
            return False
    return True


def _conflicts(loop_acc, acc, info) -> bool:
    """Whether memory `acc` (the candidate's accesses) reads may be written by `loop_acc` (the loop's)."""
    if not acc.reads:
        return False
    if loop_acc.write_any:
        return True
    for w in loop_acc.write_roots:
        if acc.read_any and not (w is not None and info.private(w)):
            return True
        for r in acc.read_roots:
            if info.may_alias(w, r):
                return True
    return False


# ---------------------------------------------------------------- guards
def _const_index(v):
    owner = v.owner
    if isinstance(owner, ir.Block) or owner.operation.name != "arith.constant":
        return None
    try:
        return ir.IntegerAttr(owner.attributes["value"]).value
    except Exception:
        return None


def _runs_once(loop):
    """None when `loop` surely runs at least once (constant bounds), False when it surely never runs or the
    test cannot be built, else a function building the i1 "`loop` runs at least once" (at the insertion point
    before the loop)."""
    from mlir.dialects import arith

    loop = loop.operation
    name = loop.name
    if name in ("scf.for", "scf.parallel"):
        n = 1 if name == "scf.for" else len(loop.regions[0].blocks[0].arguments)
        ops = list(loop.operands)
        lbs, ubs = ops[:n], ops[n:2 * n]
        consts = [(_const_index(a), _const_index(b)) for a, b in zip(lbs, ubs)]
        if all(a is not None and b is not None for a, b in consts):
            return None if all(a < b for a, b in consts) else False
        unsigned = name == "scf.for" and "unsignedCmp" in loop.attributes

        def build():
            c = None
            for a, b in zip(lbs, ubs):
                t = arith.cmpi(arith.CmpIPredicate.ult if unsigned else arith.CmpIPredicate.slt, a, b)
                c = t if c is None else arith.andi(c, t)
            return c
        return build
    if name == "affine.for":
        lb_map = ir.AffineMapAttr(loop.attributes["lowerBoundMap"]).value
        ub_map = ir.AffineMapAttr(loop.attributes["upperBoundMap"]).value
        seg = list(ir.DenseI32ArrayAttr(loop.attributes["operandSegmentSizes"]))
        ops = list(loop.operands)
        groups = [(lb_map, ops[:seg[0]], ub_map, ops[seg[0]:seg[0] + seg[1]])]
        return _affine_runs_once(groups)
    if name == "affine.parallel":
        lbs = ir.AffineMapAttr(loop.attributes["lowerBoundsMap"]).value
        ubs = ir.AffineMapAttr(loop.attributes["upperBoundsMap"]).value
        lg = list(ir.DenseIntElementsAttr(loop.attributes["lowerBoundsGroups"]))
        ug = list(ir.DenseIntElementsAttr(loop.attributes["upperBoundsGroups"]))
        ops = list(loop.operands)
        lb_ops, ub_ops = ops[:lbs.n_dims + lbs.n_symbols], ops[lbs.n_dims + lbs.n_symbols:]
        groups, li, ui = [], 0, 0
        for a, b in zip(lg, ug):
            lres = [lbs.results[k] for k in range(li, li + a)]
            ures = [ubs.results[k] for k in range(ui, ui + b)]
            li, ui = li + a, ui + b
            groups.append((ir.AffineMap.get(lbs.n_dims, lbs.n_symbols, lres), lb_ops,
                           ir.AffineMap.get(ubs.n_dims, ubs.n_symbols, ures), ub_ops))
        return _affine_runs_once(groups)
    return False


def _affine_runs_once(groups):
    """The guard of affine loops: for each dimension (lower bound map, its operands, upper map, operands),
    max(lower results) < min(upper results)."""
    from mlir.dialects import affine, arith

    def const_results(m):
        if m.n_dims or m.n_symbols:
            return None
        try:
            return [ir.AffineConstantExpr(e).value for e in m.results]
        except Exception:
            return None
    known = []
    for lb, _, ub, _ in groups:
        a, b = const_results(lb), const_results(ub)
        known.append(None if a is None or b is None else max(a) < min(b))
    if all(k is True for k in known):
        return None
    if any(k is False for k in known):
        return False

    def build():
        c = None
        for lb, lops, ub, uops in groups:
            lo = _apply_each(lb, lops, arith.maxsi)
            hi = _apply_each(ub, uops, arith.minsi)
            t = arith.cmpi(arith.CmpIPredicate.slt, lo, hi)
            c = t if c is None else arith.andi(c, t)
        return c

    def _apply_each(m, operands, combine):
        v = None
        for e in m.results:
            one = affine.AffineApplyOp(ir.AffineMap.get(m.n_dims, m.n_symbols, [e]), list(operands)).result
            v = one if v is None else combine(v, one)
        return v
    return build


def _move_guarded(op, loop, cond, feed=()) -> None:
    """Move `op` before `loop` under ``scf.if (cond)``; its results outside are the if's results, zeros
    when the loop does not run (never read then: every use is inside the loop). The pure ops `feed` that compute
    its operands are copied along (they stay too: other ops may use them)."""
    from mlir.dialects import scf

    with ir.InsertionPoint(loop), op.location:
        types = [r.type for r in op.results]
        guard = scf.IfOp(cond(), types, has_else=True)
        with ir.InsertionPoint(guard.then_block):
            y = scf.YieldOp(list(op.results))
        mapping = {}
        for o in feed:
            c = o.clone(ip=ir.InsertionPoint(y))
            _remap_nested(c, mapping)
            for old, new in zip(o.results, c.results):
                mapping[old] = new
        op.move_before(y)
        if mapping:
            _remap_nested(op, mapping)
        with ir.InsertionPoint(guard.else_block):
            scf.YieldOp([_zero(t) for t in types])
    for old, new in zip(op.results, guard.results):
        for use in list(old.uses):
            if use.owner.operation != y.operation:
                use.owner.operands[use.operand_number] = new


def _zero(t):
    from mlir.dialects import arith
    if isinstance(t, (ir.F16Type, ir.F32Type, ir.F64Type, ir.BF16Type)):
        return arith.constant(t, 0.0)
    if isinstance(t, (ir.IntegerType, ir.IndexType)):
        return arith.constant(t, 0)
    if str(t) == "!llvm.ptr":
        return ir.Operation.create("llvm.mlir.zero", [t], []).result
    return ir.Operation.create("ub.poison", [t], []).result
