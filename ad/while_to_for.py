"""Uplift of counted while loops to scf.for, before differentiation.

CUDA's grid-stride loop ``for (int i = tid; i < n; i += blockDim.x * gridDim.x)`` reaches AD as an scf.while
(``i < n``, then ``i += step`` with a launch constant as the step): its trip count is not known where the loop
starts, and inside the parallel loop of a cpuified launch reverse mode has no per-iteration tape for it. But a
while loop of the form

    i = lb; while (i < ub) { body(i); i += step }          (also <=, unsigned < and <=, ub > i, ...)

whose ``ub`` and ``step`` are defined outside the loop runs exactly ``T = lb < ub ? (ub - lb - 1) / step + 1 : 0``
times (``(ub - lb) / step + 1`` for ``<=``; the difference taken as an unsigned number of the counter's width)
provided ``step > 0`` and the last ``i + step`` does not wrap around (``ub - 1 <= MAX - step``; MAX of the
comparison's signedness). This pass rewrites it as

    for k in [0, T) iter(others) { i = lb + k * step; body(i) };  i_final = lb + T * step

(``k * step`` in the counter's width wraps exactly as the repeated additions would). The loop form is the one
upstream MLIR's uplift-while-to-for pattern rewrites (a less-than against a loop-invariant bound, an additive
loop-invariant step; the pattern is not exposed in the Python bindings), here also ``<=`` and unsigned forms.
The no-overflow condition is checked at run time, before the loop, where it is not a fact of constants: when it
fails, the derivative aborts with a message naming the loop instead of computing a wrong derivative.

Inside a parallel loop the loop also gets a trip-count capacity known at function level, so that reverse mode
can keep per-iteration values in an indexed cache (ad/cache.py, the ``min(x, top)`` bound form): with ``lb0``
the value of ``lb`` when the enclosing loops' induction variables are at their lower bounds (``lb`` built from
them by additions, multiplications by non-negative constants and casts: a thread's first index is smallest in
thread 0 of block 0), ``Tcap`` is the trip count from ``lb0``; the loop runs ``min(T, Tcap)`` iterations and the
same run-time check verifies ``T <= Tcap``.
"""

from __future__ import annotations

from mlir import ir
from mlir.dialects import arith, scf

from polygeist_py.gpu_to_cpu.ir_nav import defined_inside

from .activity import all_ops
from .counted_loops import PREDICATES, int_width
from .run_time_checks import abort_if, declare_write_and_abort

# a condition `ub > i` is `i < ub`
SWAPPED = {"sgt": "slt", "sge": "sle", "ugt": "ult", "uge": "ule"}
LESS = ("slt", "sle", "ult", "ule")
MONOTONE_CASTS = ("arith.index_cast", "arith.index_castui", "arith.extsi", "arith.extui")


class _Shape:
    """A matched loop: the counter's position `j` among the carried values, its start `lb`, the bound `ub`, the
    `step` and the comparison `pred` (one of LESS)."""

    def __init__(self, j, lb, ub, step, pred):
        self.j, self.lb, self.ub, self.step, self.pred = j, lb, ub, step, pred


def uplift_while_loops(f, module) -> int:
    """Rewrite every scf.while of function `f` (of `module`) that counts with an invariant additive step up to an
    invariant bound into an scf.for (see the module docstring). Returns how many were rewritten; never raises:
    a loop of another form is left as it is."""
    done = 0
    for w in [op for op in all_ops(f) if op.name == "scf.while"]:  # (outer loops first: inner ones move along)
        shape = match(w)
        if shape is not None and declare_write_and_abort(module):
            _to_for(w, shape, f, module)
            done += 1
    return done


def match(w):
    """The _Shape of scf.while `w` when it is ``i = lb; while (i < ub) { ...; i += step }`` with `ub` and `step`
    defined outside the loop and a condition that only compares the counter (its carried values passed on
    unchanged); None otherwise."""
    before, after = w.regions[0].blocks[0], w.regions[1].blocks[0]
    ops = list(before.operations)
    if len(ops) != 2 or ops[0].name != "arith.cmpi":
        return None
    cmp, cond = ops
    args = list(before.arguments)
    if cond.operands[0] != cmp.results[0] or list(cond.operands)[1:] != args or len(after.arguments) != len(args):
        return None
    if any(a.type != b.type for a, b in zip(args, after.arguments)):
        return None
    pred = PREDICATES[ir.IntegerAttr(cmp.attributes["predicate"]).value]
    lhs, rhs = cmp.operands
    if _is_arg_of(rhs, before) and not defined_inside(lhs, w) and pred in SWAPPED:
        lhs, rhs, pred = rhs, lhs, SWAPPED[pred]
    if pred not in LESS or not _is_arg_of(lhs, before) or defined_inside(rhs, w):
        return None
    if not isinstance(lhs.type, (ir.IntegerType, ir.IndexType)):
        return None
    j = ir.BlockArgument(lhs).arg_number
    if len(list(cmp.results[0].uses)) != 1:
        return None
    nxt = list(after.operations)[-1].operands[j]
    add = nxt.owner
    if isinstance(add, ir.Block) or add.name != "arith.addi":
        return None
    a, b = add.operands
    if b == after.arguments[j]:
        a, b = b, a
    if a != after.arguments[j] or defined_inside(b, w):
        return None
    return _Shape(j, w.operands[j], rhs, b, pred)


def _is_arg_of(v, block) -> bool:
    return isinstance(v.owner, ir.Block) and v.owner == block


def _const(t, value: int):
    w = int_width(t)
    value &= (1 << w) - 1
    if value >> (w - 1):
        value -= 1 << w
    return arith.constant(t, value)


def _cmp(pred, a, b):
    return arith.cmpi(getattr(arith.CmpIPredicate, pred), a, b)


def _trip_count(s, lb):
    """(the trip count as an index, whether the loop runs at all, whether the counter never wraps) of the loop
    of shape `s` started at `lb`, built at the insertion point."""
    t = lb.type
    idx = ir.IndexType.get()
    signed = s.pred[0] == "s"
    strict = s.pred in ("slt", "ult")
    w = int_width(t)
    one, zero = _const(t, 1), _const(t, 0)
    runs = _cmp(s.pred, lb, s.ub)
    step_ok = _cmp("sgt" if signed else "ne", s.step, zero)
    safe_step = arith.select(step_ok, s.step, one)  # (no division by zero where the check fails anyway)
    diff = arith.subi(s.ub, lb)
    if strict:
        diff = arith.subi(diff, one)
    q = arith.divui(diff, safe_step)  # (the difference is exact as an unsigned number when the loop runs)
    if not isinstance(t, ir.IndexType):
        q = arith.index_castui(idx, q)
    count = arith.addi(q, arith.constant(idx, 1))
    top = _const(t, (1 << (w - 1)) - 1 if signed else (1 << w) - 1)
    last = arith.subi(s.ub, one) if strict else s.ub  # (the last counter value the loop may run with)
    no_wrap = _cmp("sle" if signed else "ule", last, arith.subi(top, safe_step))
    fits = _cmp("sge", count, arith.constant(idx, 0))  # (a 64-bit counter: at most 2^63 - 1 trips)
    ok = arith.andi(arith.andi(step_ok, no_wrap), fits)
    return arith.select(runs, count, arith.constant(idx, 0)), runs, ok


def _to_for(w, s, f, module) -> None:
    after = w.regions[1].blocks[0]
    t = s.lb.type
    idx = ir.IndexType.get()
    loc = w.location
    cap = _capacity(w, s, f)
    with loc, ir.InsertionPoint(w):
        trips, runs, ok = _trip_count(s, s.lb)
        bad = arith.andi(runs, arith.xori(ok, arith.constant(ir.IntegerType.get_signless(1), 1)))
        ub = trips
        if cap is not None:
            bad = arith.ori(bad, _cmp("sgt", trips, cap))
            ub = arith.minsi(trips, cap)  # (= trips, checked: the bound form ad/cache.py sizes by `cap`)
        abort_if(bad, _message(w), module)
        others = [v for i, v in enumerate(w.operands) if i != s.j]
        loop = scf.ForOp(arith.constant(idx, 0), ub, arith.constant(idx, 1), others)
    with loc, ir.InsertionPoint(loop.body):
        k = loop.induction_variable
        counter = arith.addi(s.lb, arith.muli(k if isinstance(t, ir.IndexType) else arith.index_cast(t, k), s.step))
        term = list(after.operations)[-1]
        new_yield = scf.YieldOp([v for i, v in enumerate(term.operands) if i != s.j])
    for op in list(after.operations)[:-1]:
        op.move_before(new_yield)
    carried = iter(loop.inner_iter_args)
    for i, a in enumerate(after.arguments):
        a.replace_all_uses_with(counter if i == s.j else next(carried))
    with loc, ir.InsertionPoint(w):
        n = trips if isinstance(t, ir.IndexType) else arith.index_cast(t, trips)
        final = arith.addi(s.lb, arith.muli(n, s.step))
    results = iter(loop.results)
    for i, r in enumerate(w.results):
        r.replace_all_uses_with(final if i == s.j else next(results))
    w.erase()


def _capacity(w, s, f):
    """The function-level trip count from the smallest start (module docstring) when `w` is inside a parallel
    loop and its bound, step and start allow one; else None. Built before the outermost loop around `w`."""
    entry = f.regions[0].blocks[0]
    outer, p, parallel = w, w.operation.parent, False
    while p is not None and p != f.operation:
        parallel |= p.name == "scf.parallel"
        outer, p = p, p.parent
    if not parallel or not all(_at_top(v, entry) for v in (s.ub, s.step)):
        return None
    plan = _smallest(s.lb, entry, 0)
    if plan is None:
        return None
    with w.location, ir.InsertionPoint(outer):
        lb0 = _build(plan)
        return _trip_count(s, lb0)[0]


def _at_top(v, entry) -> bool:
    owner = v.owner
    return (owner == entry) if isinstance(owner, ir.Block) else owner.operation.block == entry


def _smallest(v, entry, depth):
    """A recipe for the value of `v` when every loop induction variable it reads is at its lower bound (valid as
    a lower bound of `v` for the monotone ops accepted here), or None."""
    if depth > 12:
        return None
    if _at_top(v, entry):
        return ("value", v)
    owner = v.owner
    if isinstance(owner, ir.Block):
        loop = owner.owner
        if loop.name == "scf.parallel":
            n = len(owner.arguments)
            lbs = list(loop.operands)[:n]
            lower = lbs[ir.BlockArgument(v).arg_number]
        elif loop.name == "scf.for" and ir.BlockArgument(v).arg_number == 0:
            lower = loop.operands[0]
        else:
            return None
        return ("value", lower) if _at_top(lower, entry) else None
    name = owner.name
    if name == "arith.constant":
        return ("value", v)
    if name in MONOTONE_CASTS:
        inner = _smallest(owner.operands[0], entry, depth + 1)
        return None if inner is None else ("cast", name, v.type, inner)
    if name == "arith.addi":
        a, b = (_smallest(o, entry, depth + 1) for o in owner.operands)
        return None if a is None or b is None else ("add", a, b)
    if name == "arith.muli":
        for x, y in (tuple(owner.operands), tuple(reversed(list(owner.operands)))):
            c = _nonnegative_constant(y)
            if c is not None:
                inner = _smallest(x, entry, depth + 1)
                return None if inner is None else ("mul", inner, c, v.type)
    return None


def _nonnegative_constant(v):
    owner = v.owner
    if isinstance(owner, ir.Block) or owner.name != "arith.constant" or not isinstance(
            v.type, (ir.IntegerType, ir.IndexType)):
        return None
    c = ir.IntegerAttr(owner.attributes["value"]).value
    return c if c >= 0 else None


def _build(plan):
    kind = plan[0]
    if kind == "value":
        v = plan[1]
        owner = v.owner
        if not isinstance(owner, ir.Block) and owner.name == "arith.constant":  # (a copy that dominates)
            return arith.constant(v.type, owner.attributes["value"])
        return v
    if kind == "cast":
        _, name, t, inner = plan
        op = {"arith.index_cast": arith.index_cast, "arith.index_castui": arith.index_castui,
              "arith.extsi": arith.extsi, "arith.extui": arith.extui}[name]
        return op(t, _build(inner))
    if kind == "add":
        return arith.addi(_build(plan[1]), _build(plan[2]))
    _, inner, c, t = plan
    return arith.muli(_build(inner), _const(t, c))


def _message(w) -> str:
    import re
    m = re.search(r'"([^"]+)":(\d+):(\d+)', str(w.location))
    where = f"{m.group(1)}:{m.group(2)}:{m.group(3)}" if m else "a loop"
    return (f"pgcc: {where}: the loop's counter would wrap around (or its step is not positive): its derivative "
            "is not computed\n")

