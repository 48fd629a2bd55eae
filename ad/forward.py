"""Forward mode (tangents) on structured MLIR: func, scf (for, if, while), affine (for, load, store), memref,
arith, math. One rule per op name in rules_forward.FORWARD_RULES; scalar ops share partials.PARTIALS with
reverse mode.

The derivative function takes the primal arguments, each active one followed by its tangent (a duplicated
pointer by its shadow), and returns the tangents of the results (with ``return_primal`` the primal results
first). Every op is cloned; ops that touch varied values get their tangent right after (Enzyme's forward mode,
Moses & Churavy NeurIPS'20; JAX's jvp rules).
"""

from __future__ import annotations

from mlir import ir
from mlir.dialects import func

from polygeist_py.errors import error_at_op

from . import partials as P
from .activity import PLUMBING, Activity, inactive_result, is_float
from .emit import body_ops, clone_mapped, copy_noalias, remap_operands, terminator, zero
from .rules_forward import FORWARD_RULES, plumbing_rule, scalar_rule


class Forward:
    """Synthesizes the forward-mode derivative of one primal function.

    Args:
        session: the ad.api_calls.Session (module, memo of derivative functions).
        primal: the prepared primal copy (func.func, one block).
        active: tuple of bools, one per parameter: does it carry a tangent/shadow.
        return_primal: also return the primal results (for calls from other derivative functions).
    """

    def __init__(self, session, primal, active, return_primal):
        self.session = session
        self.primal = primal
        self.active = active
        self.return_primal = return_primal
        self.act = Activity(primal, [i for i, a in enumerate(active) if a], session.inactive,
                            session.inactive_globals, session.user_shadows)
        self.vmap = {}
        self.tmap = {}
        self.block_finals = []  # emitted before the return: frees of extern __shared__ tangents (gpu_block.py)

    def signature(self):
        """The derivative's type: each parameter followed by its tangent/shadow when active; results: (primal results

        when return_primal,) tangents of the floating results."""
        ftype = ir.FunctionType(ir.TypeAttr(self.primal.attributes["function_type"]).value)
        ins = []
        for t, a in zip(ftype.inputs, self.active):
            ins += [t, t] if a else [t]
        outs = [t for t in ftype.results if is_float(t)]
        return ir.FunctionType.get(ins, (list(ftype.results) if self.return_primal else []) + outs)

    def build(self, name: str, ftype=None):
        """Create func `name` in the session's module and fill it. Returns the func op."""
        ftype = ftype or self.signature()
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
            if self.active[i]:
                self.tmap[a] = entry.arguments[k]
                pairs.append((i, k))
                k += 1
        copy_noalias(self.primal, entry, f, pairs)
        with ir.InsertionPoint(entry):
            self.emit_ops(body_ops(pentry))
            ret = terminator(pentry)
            with ret.location:
                outs = [self.vmap[v] for v in ret.operands] if self.return_primal else []
                outs += [self.tangent_or_zero(v) for v in ret.operands if is_float(v.type)]
                for fin in self.block_finals:
                    fin()
                func.ReturnOp(outs)
        if not self.return_primal:  # (called from __enzyme_fwddiff)
            from .shadow_globals import zero_shadow_globals
            zero_shadow_globals(self.session, f)
        return f

    # ------------------------------------------------------------------ helpers for rules
    def p(self, v):
        """The primal value of primal-function value `v` in the derivative function."""
        return self.vmap.get(v, v)

    def t(self, v):
        """The tangent (or shadow) of `v`, None when it is zero / absent."""
        return self.tmap.get(v)

    def tangent_or_zero(self, v):
        """The tangent of `v`, a 0 constant when it has none."""
        t = self.tmap.get(v)
        if t is None and not is_float(v.type):
            from .joined_shadows import is_null
            if is_null(v):
                return self.p(v)  # (the shadow of a null pointer: a list's empty head, `buf = NULL` before realloc)
        if t is None and not is_float(v.type):
            owner = v.owner.owner if isinstance(v.owner, ir.Block) else v.owner
            raise error_at_op(owner, "unsupported construct: a differentiated pointer mixed with one that has no "
                                     "shadow (pass it with enzyme_dup)")
        return t if t is not None else zero(self.p(v).type)

    def libc(self, name, args, result):
        """Call C library function `name` (declared when missing), as Reverse.libc."""
        from .reverse import Reverse
        return Reverse.libc(self, name, args, result)

    def clone(self, op):
        """Clone `op` into the derivative (operands mapped); returns the new op."""
        return clone_mapped(op, self.vmap)

    def shadow_clone(self, op, replace=None):
        """Clone `op` with every operand that has a tangent/shadow replaced by it (replace: index -> value)."""
        new = op.clone()
        for i, v in enumerate(op.operands):
            if replace and i in replace:
                new.operands[i] = replace[i]
            else:
                new.operands[i] = self.tmap.get(v, self.vmap.get(v, v))
        for region in new.regions:  # (no regions on the ops this is used for)
            for block in region.blocks:
                for inner in block.operations:
                    remap_operands(inner, self.vmap)
        return new

    def emit_ops(self, ops):
        """Emit the primal copy and tangent code of `ops` at the current insertion point, one rule per op."""
        for op in ops:
            with op.location:
                if op not in self.act.touched:
                    self.clone(op)
                    continue
                self.rule_for(op)(self, op)

    def rule_for(self, op):
        """The forward rule of touched op `op`: rule(self, op) emits its primal copy and tangent code.

        Raises:
            CompileError: an op with no forward-mode rule."""
        rule = FORWARD_RULES.get(op.operation.name)
        if rule is None and inactive_result(self.act, op):
            rule = type(self).clone
        if rule is None:
            if op.name in P.PARTIALS:
                rule = scalar_rule
            elif op.name in PLUMBING:
                rule = plumbing_rule
            else:
                raise error_at_op(op, f"unsupported construct: no forward-mode derivative rule for '{op.name}'")
        return rule

