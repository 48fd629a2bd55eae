"""While loops with a constant trip count -> counted loops, before differentiation.

CUDA code walks trees with loops like ``for (s = 128; s > 0; s >>= 1)`` or ``for (s = 1; s < 256; s *= 2)``
(block reductions, scans). Their step is not additive, so they reach AD as ``scf.while``, whose reverse needs a
taped trip count -- which AD cannot keep inside a parallel loop (one counter per parallel iteration). But when
the loop's control -- its condition and the carried values the condition reads -- depends on constants only,
the trip count is a constant: this pass finds it by running the control at compile time (integer arithmetic
with C's wrap-around, at most MAX_TRIPS steps) and rewrites the loop as an ``scf.for`` over that many
iterations that carries the same values:

    while (before(b) -> c, f) { after(f) -> b' }
 -> b = for k in [0, N) iter(b) { before(b) -> f; after(f) -> b' };  before(b) -> results

which runs ``before`` N + 1 times and ``after`` N times, exactly as the while loop did, so effects and results
are unchanged. Counted loops are reversed without any tape of their trip count.
"""

from __future__ import annotations

from mlir import ir
from mlir.dialects import arith, scf

from polygeist_py.gpu_to_cpu.ir_nav import is_nested_in

from .activity import all_ops
from .emit import clone_mapped

MAX_TRIPS = 1 << 16
PREDICATES = ["eq", "ne", "slt", "sle", "sgt", "sge", "ult", "ule", "ugt", "uge"]


class NotConstant(Exception):
    """The loop's control reads something other than constants and its own carried values."""


def count_constant_while_loops(f) -> int:
    """Rewrite every scf.while of function `f` whose trip count is a compile-time constant (see the module
    docstring) into an scf.for, in place. Returns how many were rewritten; never raises."""
    done = 0
    # inner loops first: rewriting an outer loop clones its body and erases the inner loop it held
    for w in reversed([op for op in all_ops(f) if op.name == "scf.while"]):
        trips = constant_trip_count(w)
        if trips is not None:
            _to_for(w, trips)
            done += 1
    return done


def constant_trip_count(w, limit: int = MAX_TRIPS):
    """How many times the `after` region of scf.while `w` runs, when that is decided by constants alone (at
    most `limit` times); None otherwise."""
    before, after = w.regions[0].blocks[0], w.regions[1].blocks[0]
    cond = list(before.operations)[-1]
    step = list(after.operations)[-1]
    inits = list(w.operands)
    carried = {}
    try:
        for trips in range(limit + 1):
            run = _Run(before, after, cond, inits, carried)
            if not run.value(cond.operands[0]):
                return trips
            carried = {j: run.value(step.operands[j], lazy=True) for j in range(len(inits))}
    except NotConstant:
        return None
    return None


class _Run:
    """One evaluation of the loop's control: values of the before block's arguments come from `carried`
    (index -> int, or a thunk) or, on the first trip, from the constant initial operands."""

    def __init__(self, before, after, cond, inits, carried):
        self.before, self.after, self.cond, self.inits, self.carried = before, after, cond, inits, carried
        self.memo = {}

    def value(self, v, lazy=False):
        if lazy:  # the next trip's carried value: computed only if that trip reads it
            return lambda: self.value(v)
        if v in self.memo:
            return self.memo[v]
        r = self._compute(v)
        self.memo[v] = r
        return r

    def _compute(self, v):
        owner = v.owner
        if isinstance(owner, ir.Block):
            i = ir.BlockArgument(v).arg_number
            if owner == self.before:
                if not self.carried:
                    return _constant(self.inits[i])
                c = self.carried[i]
                return c() if callable(c) else c
            if owner == self.after:
                return self.value(self.cond.operands[1 + i])
            raise NotConstant
        if owner.name == "arith.constant":
            return _constant(v)
        if not is_nested_in(owner, self.before.owner):  # (defined outside the loop: not a constant)
            raise NotConstant
        if not all(isinstance(x.type, (ir.IntegerType, ir.IndexType)) for x in [v, *owner.operands]):
            raise NotConstant  # (a float in the exit test, `if (i * 0.25 > c) break;`: not evaluated here)
        return _evaluate(owner, [self.value(o) for o in owner.operands], v.type)


def int_width(t) -> int:
    """Bits of integer or index type `t` (index: 64, this target's)."""
    return 64 if isinstance(t, ir.IndexType) else ir.IntegerType(t).width


def _constant(v):
    owner = v.owner
    if isinstance(owner, ir.Block) or owner.name != "arith.constant":
        raise NotConstant
    if not isinstance(v.type, (ir.IntegerType, ir.IndexType)):
        raise NotConstant
    return ir.IntegerAttr(owner.attributes["value"]).value & ((1 << int_width(v.type)) - 1)


def _signed(x, w):
    return x - (1 << w) if x >> (w - 1) & 1 else x


def _evaluate(op, xs, rtype):
    """Result (as an unsigned bit pattern) of pure integer op `op` on operand bit patterns `xs`."""
    name = op.name
    if name == "arith.cmpi":
        w = int_width(op.operands[0].type)
        a, b = xs
        sa, sb = _signed(a, w), _signed(b, w)
        pred = PREDICATES[ir.IntegerAttr(op.attributes["predicate"]).value]
        return int({"eq": a == b, "ne": a != b, "slt": sa < sb, "sle": sa <= sb, "sgt": sa > sb, "sge": sa >= sb,
                    "ult": a < b, "ule": a <= b, "ugt": a > b, "uge": a >= b}[pred])
    if name == "arith.select":
        return xs[1] if xs[0] else xs[2]
    w = int_width(rtype)
    mask = (1 << w) - 1
    if name in ("arith.index_cast", "arith.extsi"):
        return _signed(xs[0], int_width(op.operands[0].type)) & mask
    if name in ("arith.index_castui", "arith.extui", "arith.trunci"):
        return xs[0] & mask
    a, b = xs if len(xs) == 2 else (None, None)
    if a is None:
        raise NotConstant
    sa, sb = _signed(a, w), _signed(b, w)
    if name in ("arith.divsi", "arith.remsi") and sb == 0 or name in ("arith.divui", "arith.remui") and b == 0:
        raise NotConstant  # (C leaves it undefined; the loop keeps its while form)
    simple = {
        "arith.addi": lambda: a + b, "arith.subi": lambda: a - b, "arith.muli": lambda: a * b,
        "arith.andi": lambda: a & b, "arith.ori": lambda: a | b, "arith.xori": lambda: a ^ b,
        "arith.shli": lambda: a << b if b < w else 0, "arith.shrui": lambda: a >> b if b < w else 0,
        "arith.shrsi": lambda: sa >> min(b, w - 1),
        "arith.divui": lambda: a // b, "arith.remui": lambda: a % b,
        "arith.divsi": lambda: abs(sa) // abs(sb) * (1 if (sa < 0) == (sb < 0) else -1),
        "arith.remsi": lambda: sa - sb * (abs(sa) // abs(sb) * (1 if (sa < 0) == (sb < 0) else -1)),
        "arith.minsi": lambda: min(sa, sb), "arith.maxsi": lambda: max(sa, sb),
        "arith.minui": lambda: min(a, b), "arith.maxui": lambda: max(a, b),
    }
    if name not in simple:
        raise NotConstant
    return simple[name]() & mask


def _to_for(w, trips: int) -> None:
    before, after = w.regions[0].blocks[0], w.regions[1].blocks[0]
    cond = list(before.operations)[-1]
    idx = ir.IndexType.get()
    with w.location, ir.InsertionPoint(w):
        lb, ub, one = (arith.constant(idx, c) for c in (0, trips, 1))
        loop = scf.ForOp(lb, ub, one, list(w.operands))
    with w.location, ir.InsertionPoint(loop.body):
        vmap = dict(zip(before.arguments, loop.inner_iter_args))
        for op in list(before.operations)[:-1]:
            clone_mapped(op, vmap)
        for a, f in zip(after.arguments, list(cond.operands)[1:]):
            vmap[a] = vmap.get(f, f)
        for op in list(after.operations)[:-1]:
            clone_mapped(op, vmap)
        step = list(after.operations)[-1]
        scf.YieldOp([vmap.get(v, v) for v in step.operands])
    with w.location, ir.InsertionPoint(w):  # the last evaluation of `before`, which ends the loop
        vmap = dict(zip(before.arguments, loop.results))
        for op in list(before.operations)[:-1]:
            clone_mapped(op, vmap)
        results = [vmap.get(f, f) for f in list(cond.operands)[1:]]
    for old, new in zip(w.results, results):
        old.replace_all_uses_with(new)
    w.erase()
