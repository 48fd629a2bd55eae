"""Enzyme's vector forward mode (``enzyme_width, W``): one derivative function that runs the primal once and
carries W tangents (shadows) of every varied value, one per direction (Enzyme's vector mode, as its
documentation and ForwardModeVector tests define the calling convention).

The derivative takes each parameter followed, when it is active, by its W tangents or shadows, and returns the
W tangents of each floating-point result (direction-major per result). It is built with forward mode's rules
(rules_forward.FORWARD_RULES): the rule of an op without regions runs once per direction, with that direction's
tangent map, and its primal copy is made once (the first direction's; the others reuse it, so stores, allocations
and calls of the primal happen once, as in Enzyme's single vector derivative). Ops with regions (loops, ifs,
whiles) carry W tangents per varied value. Constructs whose rule would run the primal again (a call of a function
kept out of line: recursion, custom derivatives, realloc) and device code are clear errors.
"""

from __future__ import annotations

from mlir import ir
from mlir.dialects import func

from polygeist_py.errors import error_at_op

from .activity import is_float
from .emit import body_ops, copy_noalias, create_like, loop_parts, loop_segments, terminator
from .forward import Forward


class VectorForward(Forward):
    """The vector forward-mode derivative of one primal function (see the module docstring).

    Args:
        session, primal, active: as for ad.forward.Forward.
        width: the number of directions W (>= 1).
        at: the Enzyme call (errors about the whole function point there).
    """

    def __init__(self, session, primal, active, width, at=None):
        super().__init__(session, primal, active, False)
        self.width = width
        self.at = at
        self.tmaps = [self.tmap] + [{} for _ in range(width - 1)]
        self.lane = 0
        self.cloned = {}  # (primal op -> its copy, made by the first direction's rule)

    def signature(self):
        """Each parameter followed by W tangents/shadows when active; results: W tangents per float result."""
        ftype = ir.FunctionType(ir.TypeAttr(self.primal.attributes["function_type"]).value)
        ins = []
        for t, a in zip(ftype.inputs, self.active):
            ins += [t] + ([t] * self.width if a else [])
        outs = [t for t in ftype.results if is_float(t) for _ in range(self.width)]
        return ir.FunctionType.get(ins, outs)

    def build(self, name: str, ftype=None):
        """Create func `name` in the session's module and fill it. Returns the func op.

        Raises:
            CompileError: device code; constructs vector mode does not differentiate."""
        if self.session.device:
            raise error_at_op(self.at or self.primal, "unsupported construct: Enzyme's vector forward mode (enzyme_width) "
                                           "in CUDA device code")
        ftype = ftype or self.signature()
        with ir.InsertionPoint(self.session.module.body), self.primal.location:
            f = func.FuncOp(name, ftype, visibility="private")
            self.session.register(f)
            entry = f.add_entry_block()
        pentry = self.primal.regions[0].blocks[0]
        k, pairs = 0, []
        for i, a in enumerate(pentry.arguments):
            self.vmap[a] = entry.arguments[k]
            pairs.append((i, k))
            k += 1
            if self.active[i]:
                for lane in range(self.width):
                    self.tmaps[lane][a] = entry.arguments[k]
                    pairs.append((i, k))
                    k += 1
        copy_noalias(self.primal, entry, f, pairs)
        with ir.InsertionPoint(entry):
            self.emit_ops(body_ops(pentry))
            ret = terminator(pentry)
            with ret.location:
                outs = []
                for v in ret.operands:
                    if is_float(v.type):
                        outs += self.lanes(lambda: self.tangent_or_zero(v))
                func.ReturnOp(outs)
        from .shadow_globals import zero_shadow_globals
        zero_shadow_globals(self.session, f)
        return f

    # ------------------------------------------------------------------ directions
    def at_lane(self, lane):
        """Make direction `lane`'s tangent map the current one."""
        self.lane = lane
        self.tmap = self.tmaps[lane]

    def lanes(self, make):
        """[make() for each direction], each with that direction's tangent map current."""
        out = []
        for lane in range(self.width):
            self.at_lane(lane)
            out.append(make())
        self.at_lane(0)
        return out

    def clone(self, op):
        """The primal copy of `op`: made by the first direction, reused by the others."""
        if self.lane and op in self.cloned:
            return self.cloned[op]
        new = super().clone(op)
        self.cloned[op] = new
        return new

    def emit_ops(self, ops):
        """Emit the primal copy of `ops` once and the tangent code once per direction."""
        from .rules_forward import call_rule
        for op in ops:
            with op.location:
                if op not in self.act.touched:
                    super().clone(op)
                    continue
                name = op.operation.name
                if name in REGION_RULES:
                    REGION_RULES[name](self, op)
                    continue
                rule = self.rule_for(op)
                if rule is call_rule:
                    self._check_call(op)
                if name in ("memref.get_global", "llvm.mlir.addressof") and self.act.is_varied(op.results[0]):
                    g = op.attributes["name" if name == "memref.get_global" else "global_name"]
                    raise error_at_op(self.at or op, f"unsupported construct: Enzyme's vector forward mode "
                                                     f"(enzyme_width) through global '{ir.FlatSymbolRefAttr(g).value}'"
                                                     ", which holds differentiated values (its shadow global has "
                                                     "width 1)")
                for lane in range(self.width):
                    self.at_lane(lane)
                    rule(self, op)
                self.at_lane(0)

    def _check_call(self, op):
        """A call whose forward rule would run primal code again for each direction is an error.

        Raises:
            CompileError: a call of a function kept out of line (recursion), with a custom derivative, realloc."""
        from .activity import MALLOCS
        from .allocators import is_free
        from .libm import is_libm_call
        callee = op.attributes["callee"].value
        active = any(self.act.is_varied(v) for v in op.operands)
        s = self.session
        if callee in s.inactive or (not active and callee not in MALLOCS) or callee in s.function_like or \
                is_libm_call(s, op) or (callee in MALLOCS and callee != "realloc") or is_free(callee):
            return
        raise error_at_op(op, f"unsupported construct: Enzyme's vector forward mode (enzyme_width) through a call "
                              f"of '{callee}' (recursion, a custom derivative or realloc: pgcc's vector mode "
                              "differentiates inlined code)")

    def tangent_list(self, values):
        """The tangents (zero when absent) of `values`, for every direction in turn."""
        return [t for lane in self.lanes(lambda: [self.tangent_or_zero(v) for v in values]) for t in lane]

    def map_lane_values(self, olds, news):
        """Map each of `olds` to its tangents among `news` (direction-major, len(olds) per direction)."""
        n = len(olds)
        for lane in range(self.width):
            for k, old in enumerate(olds):
                self.tmaps[lane][old] = news[lane * n + k]


def _yield_with_tangents(vf, body, act):
    """Emit block `body` and its terminator with the W tangents of the yielded values at `act` appended."""
    vf.emit_ops(body_ops(body))
    y = terminator(body)
    with y.location:
        create_like(y, [vf.p(v) for v in y.operands] + vf.tangent_list([y.operands[j] for j in act]), [])


def _map_results(vf, op, new, act):
    n = len(op.results)
    for j, r in enumerate(op.results):
        vf.vmap[r] = new.results[j]
    vf.map_lane_values([op.results[j] for j in act], list(new.results)[n:])


def loop_rule(vf, op):
    """scf.for / affine.for: W tangents of each varied loop-carried value as extra iter_args."""
    ctrl, inits, body = loop_parts(op)
    act = [j for j in range(len(inits)) if vf.act.is_varied(op.results[j])]
    new_inits = [vf.p(v) for v in inits] + vf.tangent_list([inits[j] for j in act])
    types = [r.type for r in op.results] + [op.results[j].type for _ in range(vf.width) for j in act]
    new = create_like(op, [vf.p(v) for v in ctrl] + new_inits, types, segments=loop_segments(op, len(new_inits)))
    block = new.regions[0].blocks.append(*[a.type for a in body.arguments], *types[len(op.results):])
    for old, nv in zip(body.arguments, block.arguments):
        vf.vmap[old] = nv
    vf.map_lane_values([body.arguments[1 + j] for j in act], list(block.arguments)[len(body.arguments):])
    with ir.InsertionPoint(block):
        _yield_with_tangents(vf, body, act)
    _map_results(vf, op, new, act)


def if_rule(vf, op):
    """scf.if / affine.if: W tangents of each varied result as extra results of both branches."""
    act = [j for j in range(len(op.results)) if vf.act.is_varied(op.results[j])]
    types = [r.type for r in op.results] + [op.results[j].type for _ in range(vf.width) for j in act]
    new = create_like(op, [vf.p(v) for v in op.operands], types)
    for region, nregion in zip(op.regions, new.regions):
        if not len(region.blocks):
            continue
        block = nregion.blocks.append()
        with ir.InsertionPoint(block):
            _yield_with_tangents(vf, region.blocks[0], act)
    _map_results(vf, op, new, act)


def while_rule(vf, op):
    """scf.while: W tangents of each varied carried value through both regions."""
    before, after = op.regions[0].blocks[0], op.regions[1].blocks[0]
    cond = terminator(before)
    b_act = [j for j, a in enumerate(before.arguments) if vf.act.is_varied(a)]
    a_act = [j for j, a in enumerate(after.arguments) if vf.act.is_varied(a)]
    inits = [vf.p(v) for v in op.operands] + vf.tangent_list([op.operands[j] for j in b_act])
    btypes = [a.type for a in before.arguments] + [before.arguments[j].type for _ in range(vf.width) for j in b_act]
    rtypes = [r.type for r in op.results] + [op.results[j].type for _ in range(vf.width) for j in a_act]
    new = create_like(op, inits, rtypes)
    nb = new.regions[0].blocks.append(*btypes)
    na = new.regions[1].blocks.append(*rtypes)
    for old, nv in zip(before.arguments, nb.arguments):
        vf.vmap[old] = nv
    vf.map_lane_values([before.arguments[j] for j in b_act], list(nb.arguments)[len(before.arguments):])
    with ir.InsertionPoint(nb):
        vf.emit_ops(body_ops(before))
        with cond.location:
            cargs = list(cond.operands)[1:]
            create_like(cond, [vf.p(cond.operands[0])] + [vf.p(v) for v in cargs]
                        + vf.tangent_list([cargs[j] for j in a_act]), [])
    for old, nv in zip(after.arguments, na.arguments):
        vf.vmap[old] = nv
    vf.map_lane_values([after.arguments[j] for j in a_act], list(na.arguments)[len(after.arguments):])
    with ir.InsertionPoint(na):
        _yield_with_tangents(vf, after, b_act)
    _map_results(vf, op, new, a_act)


def parallel_rule(vf, op):
    """scf.parallel (OpenMP loops): an error in vector mode."""
    raise error_at_op(op, "unsupported construct: Enzyme's vector forward mode (enzyme_width) through a parallel "
                          "loop")


REGION_RULES = {"scf.for": loop_rule, "affine.for": loop_rule, "scf.if": if_rule, "affine.if": if_rule,
                "scf.while": while_rule, "scf.parallel": parallel_rule, "affine.parallel": parallel_rule}
