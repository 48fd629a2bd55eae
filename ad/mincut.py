"""Cache reduction: which primal values of a loop body the forward sweep caches, chosen by a minimum cut
(Enzyme, Moses & Churavy NeurIPS'20, sec. 4.3 "cache reduction"; the same construction gpu_to_cpu uses for
values live across barriers, whose Edmonds-Karp max flow is reused here).

For one primal block, the values its reversal needs (operands that derivative rules read, indices, conditions,
bounds) are the sinks. Values the reverse sweep cannot recompute inside the block (loop-carried values, region
results, loads of memory overwritten later, call results) are sources that must be cached if reached. Pure ops
(math included) and loads of memory nothing overwrites later may be recomputed from their operands. Each cached
value costs one element per iteration; a minimum vertex cut between sources and sinks gives the smallest set of
values to cache, everything downstream of it being recomputed (e.g. caching x once instead of sin(x), cos(x)
and exp(x)). Recomputing a libm function is not free: an edge from the source into it, cut when it is recomputed,
charges its cost (recompute_cost), so a lone tanh(a) that the reverse needs is cached instead of re-evaluated.
Values defined outside the block and induction variables are free.
"""

from __future__ import annotations

from mlir import ir
from mlir.dialects import func

from polygeist_py.max_flow import min_cut_source_side
from polygeist_py.gpu_to_cpu.ir_nav import is_pure

from . import partials as P
from .activity import all_ops, is_float

INF = float("inf")
# Costs in the cut, per iteration: caching a value (a store in the forward sweep, a load in the reverse) costs
# CACHE_COST, or HOISTED_CACHE_COST when the value does not change in some enclosing loop (cache.py drops that
# loop's dimension: a small array that stays in cache); recomputing a libm function (exp, tanh, sin, pow, ...) in
# the reverse sweep costs RECOMPUTE_LIBM: half a cache element, so one cached x still beats caching sin(x), cos(x)
# and exp(x), but tanh(a) is cached rather than a when the reverse needs only tanh(a), and exp(-s[k]) inside a
# loop over data points i is cached once per k instead of re-evaluated per (i, k). Other pure ops (arith, sqrt,
# ...) recompute for free.
CACHE_COST = 4
HOISTED_CACHE_COST = 1
RECOMPUTE_LIBM = 2
CHEAP_MATH = ("math.absf", "math.floor", "math.ceil", "math.round", "math.roundeven", "math.trunc",
              "math.copysign", "math.fma", "math.sqrt", "math.rsqrt")


def recompute_cost(op) -> int:
    """Cost of evaluating pure op `op` again in the reverse sweep (see CACHE_COST)."""
    name = op.name
    return RECOMPUTE_LIBM if name.startswith("math.") and name not in CHEAP_MATH else 0


def cacheable(t) -> bool:
    return isinstance(t, (ir.IntegerType, ir.IndexType, ir.F16Type, ir.F32Type, ir.F64Type, ir.BF16Type))


class PartialNeeds:
    """Which primal operands / result a partial rule reads, found by running it once on placeholders in a
    scratch function (memoized per op name and operand)."""

    def __init__(self, module):
        self.module = module
        self.memo = {}

    def __call__(self, op, k):
        key = (op.name, k, tuple(str(v.type) for v in op.operands))
        if key in self.memo:
            return self.memo[key]
        used = set()
        with ir.Location.unknown(), ir.InsertionPoint(self.module.body):
            scratch = func.FuncOp("__pgcc_ad_scratch", ir.FunctionType.get([v.type for v in op.operands]
                                                                           + [op.results[0].type], []))
            block = scratch.add_entry_block()
            args = list(block.arguments)
            with ir.InsertionPoint(block):
                def x(i):
                    used.add(("x", i))
                    return args[i]

                def r():
                    used.add(("r", 0))
                    return args[-1]
                P.PARTIALS[op.name](k, x, r, op.results[0].type)
                func.ReturnOp([])
        scratch.operation.erase()
        self.memo[key] = used
        return used


class Planner:
    """Per-block cache plans for one reverse-mode derivative.

    Args:
        rev: the ad.reverse.Reverse (activity, structure queries).
        loads_recomputable: function(memref.load op) -> bool (not overwritten after it).
    """

    def __init__(self, rev, loads_recomputable):
        self.rev = rev
        self.loads_recomputable = loads_recomputable
        self.needs = PartialNeeds(rev.session.module)
        self.plans = {}

    def recomputable(self, op) -> bool:
        if isinstance(op, ir.Block):
            return False
        if op.name in ("memref.load", "llvm.load"):
            return self.loads_recomputable(op)
        return is_pure(op)

    def stored(self, block) -> set:
        """Values defined in primal `block` that the forward sweep caches."""
        if block not in self.plans:
            self.plans[block] = self._plan(block)
        return self.plans[block]

    def cache_cost(self, v, block) -> int:
        """Cost of caching value `v` of primal `block` per iteration (CACHE_COST / HOISTED_CACHE_COST)."""
        from polygeist_py.errors import CompileError
        caches = self.rev.caches
        try:
            kind, loops = caches.layout(block)
        except CompileError:
            return CACHE_COST
        if kind == "indexed" and any(caches.invariant_in(v, lp) for lp in loops):
            return HOISTED_CACHE_COST
        return CACHE_COST

    # -------------------------------------------------------------- sinks
    def _reads(self, op) -> list:
        """Primal values the reverse rule of `op` reads (an over-approximation is harmless)."""
        act = self.rev.act
        name = op.name
        if op not in act.touched:
            return []
        if name in P.PARTIALS:
            if not act.is_varied(op.results[0]):
                return []
            out = []
            for k, v in enumerate(op.operands):
                if act.is_varied(v) and is_float(v.type):
                    for kind, i in self.needs(op, k):
                        out.append(op.operands[i] if kind == "x" else op.results[0])
            return out
        if name == "arith.select":
            return [op.operands[0]]
        if name == "memref.load":
            return list(op.operands)[1:]
        if name == "memref.store":
            return list(op.operands)[2:]
        if name == "scf.for":
            return list(op.operands)[:3]
        if name == "scf.if":
            return [op.operands[0]]
        if name == "scf.parallel":
            n = len(op.regions[0].blocks[0].arguments)
            return list(op.operands)[:3 * n]
        if name == "func.call":
            return list(op.operands)
        return []

    def _plan(self, block) -> set:
        defined = {}
        for op in block.operations:
            for r in op.results:
                defined[r] = op
        for a in block.arguments:
            defined[a] = block
        ivs = set()
        owner = block.owner
        if owner.name in ("scf.for", "scf.parallel"):
            n = 1 if owner.name == "scf.for" else len(block.arguments)
            ivs = set(list(block.arguments)[:n])
        needed = []
        for op in block.operations:
            for inner in [op] + all_ops(op):
                for v in self._reads(inner):
                    if v in defined and v not in ivs:
                        needed.append(v)
        if not needed:
            return set()
        # the graph: values that needed ones may be recomputed from, within this block
        nodes, work = set(), list(needed)
        while work:
            v = work.pop()
            if v in nodes:
                continue
            nodes.add(v)
            op = defined[v]
            if self.recomputable(op):
                # (a memref carried by the loop is rebuilt from its cached offset: free here)
                work += [o for o in op.operands if o in defined and o not in ivs
                         and not (isinstance(defined[o], ir.Block) and isinstance(o.type, ir.MemRefType))]
        cap = {}

        def edge(a, b, c):
            cap.setdefault(a, {})[b] = cap.get(a, {}).get(b, 0) + c
            cap.setdefault(b, {}).setdefault(a, 0)

        for v in nodes:
            op = defined[v]
            edge(("in", v), ("out", v), self.cache_cost(v, block) if cacheable(v.type) else INF)
            if self.recomputable(op):
                for o in op.operands:
                    if o in nodes:
                        edge(("out", o), ("in", v), INF)
                w = recompute_cost(op)
                if w:  # paid when v ends on the sink side (recomputed) rather than cached or unused
                    edge("S", ("in", v), w)
            else:
                edge("S", ("in", v), INF)
        for v in set(needed):
            edge(("out", v), "T", INF)
        if any(not cacheable(v.type) and not self.recomputable(defined[v]) for v in nodes):
            return set()  # (a pointer carried by the loop: the rules report it)
        reach = min_cut_source_side(cap, "S", "T")
        return {v for v in nodes if ("in", v) in reach and ("out", v) not in reach}
