"""Reverse mode through a scalar loop with one active input: the loop's Jacobian is preaccumulated in forward mode.

A loop whose only derivative-carrying input is one floating-point value u (a loop-carried initial value or a value
defined outside and read inside, e.g. ``y`` in ``for k: p *= y; s += p / k``) and which neither reads differentiated
memory nor writes any memory has a Jacobian with one column: d(results)/du. Instead of caching the loop's
intermediate values in the forward sweep and running a reversed loop over them (a tape of one element per
iteration and per carried value), the reverse sweep runs the loop again with the tangent of u seeded to 1 (forward
mode: Enzyme's/JAX's jvp rules, ad/rules_forward.py) and adds ``sum_j tangent(result_j) * adjoint(result_j)`` to
the adjoint of u. This is local Jacobian *preaccumulation* (Griewank & Walther, "Evaluating Derivatives", 2nd ed.,
ch. 9-10: any mix of modes over a computational subgraph gives the same derivative; forward mode is the cheap one
for a subgraph with a single independent): no cache, no reversed loop, and the forward sweep's copy of the loop is
dead code when only its derivative is needed.

The values the loop reads from outside are taken at the reverse point like every primal value of the reverse sweep
(Reverse.rv: recomputed or cached), so loads inside the loop are allowed only from memory that nothing overwrites
after them (cache.Overwrites).
"""

from __future__ import annotations

from mlir import ir
from mlir.dialects import arith

from polygeist_py.gpu_to_cpu.ir_nav import is_pure

from . import partials as P
from .activity import all_ops, is_float
from .forward import Forward

REGION_OPS = ("scf.for", "scf.if", "scf.yield")


def single_active_input(rv, op):
    """The one active input of primal scf.for `op` when its reversal may be a forward-mode preaccumulation, else
    None.

    Args:
        rv: the ad.reverse.Reverse building the derivative.
        op: a primal scf.for.
    Conditions: every op nested in the loop is a pure scalar op (derivative-carrying ones have a partial in
    partials.PARTIALS or are arith.select), a structured scf.for/scf.if, or a memref.load of memory that is not
    differentiated and that nothing overwrites later; the loop's results that carry derivatives are floats; the
    floats carrying derivatives into the loop (initial values and values used inside) are exactly one value.
    """
    if op.name != "scf.for":
        return None
    act = rv.act
    for inner in all_ops(op):
        name = inner.name
        if name in REGION_OPS:
            if any(act.is_varied(r) and not is_float(r.type) for r in inner.results):
                return None
            continue
        if name == "memref.load":
            if act.is_varied(inner.operands[0]) or not rv.caches.recompute(inner):
                return None
            continue
        if not is_pure(inner):
            return None
        for r in inner.results:
            if act.is_varied(r) and (not is_float(r.type) or (name not in P.PARTIALS and name != "arith.select")):
                return None
    n = len(op.results)
    if any(act.is_varied(r) and not is_float(r.type) for r in op.results):
        return None
    inits = list(op.operands)[3:]
    inputs = list(rv.free_values(op))
    for j in range(n):
        v = inits[j]
        if act.is_varied(v) and is_float(v.type) and v not in inputs:
            inputs.append(v)
    return inputs[0] if len(inputs) == 1 else None


def outside_operands(rv, op) -> list:
    """Primal values defined outside loop `op` and used inside it (what re-running the loop reads)."""
    out, seen = [], set()
    for inner in all_ops(op):
        for v in inner.operands:
            if v not in seen:
                seen.add(v)
                if not rv.defined_inside(v, op):
                    out.append(v)
    return out


class LoopTangents(Forward):
    """Forward-mode emitter for one primal loop inside a reverse sweep: the primal values it reads from outside
    the loop come from the reverse sweep (Reverse.rv); tangents are the derivatives with respect to one seeded
    input."""

    def __init__(self, rv, loop, seed_input):
        self.session = rv.session
        self.primal = rv.primal
        self.active = ()
        self.return_primal = False
        self.act = rv.act
        self.vmap = {v: rv.rv(v) for v in outside_operands(rv, loop) + list(loop.operands)}
        self.tmap = {seed_input: arith.constant(seed_input.type, 1.0)}


def preaccumulate(rv, op, u) -> None:
    """Reverse primal scf.for `op`, whose single active input is `u` (single_active_input): re-run it with the
    tangent of `u` seeded to 1 and add the contraction of its result tangents with their adjoints to the adjoint
    of `u`. Emits nothing when no result has an adjoint."""
    seeds = []
    for j, r in enumerate(op.results):
        if rv.act.is_varied(r) and is_float(r.type):
            g = rv.pop_adj(r)
            if g is not None:
                seeds.append((r, g))
    if not seeds:
        return
    fw = LoopTangents(rv, op, u)
    from .rules_forward import loop_rule
    loop_rule(fw, op)
    acc = None
    for r, g in seeds:
        t = fw.tmap.get(r)
        if t is None:
            continue
        term = arith.mulf(t, g, fastmath=P.contract())
        acc = term if acc is None else P.accumulate(acc, term)
    if acc is not None:
        rv.add_adj(u, acc)
