"""Affine conditions on the values of generated code, decided with isl under the bounds of the enclosing loops.

Code generation's helpers (scalar_promotion.py, guard_unswitching.py) ask questions such as "can these two
subscripts be equal in some iteration?" or "can this guard hold?". ValueNames names every index value the
question involves as an isl parameter (affine.apply results are inlined as expressions of their operands), adds
the bounds of the affine.for loops around the code in question, and asks isl whether the conditions have an
integer solution. Values that are not loop iterators are unconstrained, so "infeasible" is a proof.
"""

from __future__ import annotations

import functools

import islpy as isl
from mlir import ir

from .isl_model import expr_to_isl, integer_set_map
from .scop import memref_and_indices


def condition_parts(attr) -> tuple:
    """(number of dims, number of symbols, [(AffineExpr, is_equality)]) of an affine.if's "condition" attribute."""
    amap, eqs = integer_set_map(attr)
    return amap.n_dims, amap.n_symbols, list(zip(amap.results, eqs))


def integer_set(attr) -> ir.IntegerSet:
    """The IntegerSet of an affine.if's "condition" attribute."""
    amap, eqs = integer_set_map(attr)
    return ir.IntegerSet.get(amap.n_dims, amap.n_symbols, list(amap.results), eqs)


def unread_positions(amap) -> set:
    """Positions (dims, then symbols) of the operands of affine map `amap` that no result reads (code generation
    passes every loop index to its maps and conditions)."""
    out = set()
    for i in range(amap.n_dims + amap.n_symbols):
        e = ir.AffineExpr.get_dim(i) if i < amap.n_dims else ir.AffineExpr.get_symbol(i - amap.n_dims)
        if str(amap.replace(e, ir.AffineExpr.get_constant(0), amap.n_dims, amap.n_symbols)) == str(amap):
            out.add(i)
    return out


class ValueNames:
    """isl names (parameters v0, v1, ...) for index values, and the constraints built from them."""

    def __init__(self):
        self.params, self._values = [], []

    def of(self, v) -> str:
        """isl expression of index value `v`."""
        owner = v.owner
        if not isinstance(owner, ir.Block) and owner.name == "affine.apply":
            return self.results(ir.AffineMapAttr(owner.attributes["map"]).value, list(owner.operands))[0]
        for known, name in zip(self._values, self.params):
            if known == v:
                return name
        self._values.append(v)
        self.params.append(f"v{len(self.params)}")
        return self.params[-1]

    def results(self, amap, operands) -> list:
        """isl expressions of the results of affine map `amap` applied to `operands` (dims, then symbols)."""
        names = [self.of(o) for o in operands]
        return [expr_to_isl(e, names[:amap.n_dims], names[amap.n_dims:]) for e in amap.results]

    def subscripts(self, access) -> list:
        """isl expressions of the subscripts of an affine.load / affine.store."""
        return self.results(ir.AffineMapAttr(access.attributes["map"]).value, memref_and_indices(access)[1])

    def condition(self, guard) -> list:
        """The constraints (isl text) of an affine.if's integer set applied to its operands."""
        n_dims, _, constraints = condition_parts(guard.attributes["condition"])
        names = [self.of(o) for o in guard.operands]
        dims, syms = names[:n_dims], names[n_dims:]
        return [f"{expr_to_isl(e, dims, syms)} {'=' if eq else '>='} 0" for e, eq in constraints]

    def loop_bounds(self, op) -> list:
        """lb <= iv < ub for `op` (when it is an affine.for) and every affine.for around it in its function."""
        out = []
        while op is not None and op.operation.name != "func.func":
            op = op.operation
            if op.name == "affine.for":
                iv = self.of(op.regions[0].blocks[0].arguments[0])
                for key, operands, rel in (("lowerBoundMap", op.opview.lowerBoundOperands, ">="),
                                           ("upperBoundMap", op.opview.upperBoundOperands, "<")):
                    for bound in self.results(ir.AffineMapAttr(op.attributes[key]).value, list(operands)):
                        out.append(f"{iv} {rel} {bound}")
            op = op.parent
        return out

    def infeasible(self, constraints: list) -> bool:
        """Whether `constraints` (isl text over self.params) have no integer solution; False when isl cannot
        parse them."""
        return _empty(f"[{', '.join(self.params)}] -> {{ : {' and '.join(constraints) or '0 = 0'} }}")


@functools.lru_cache(maxsize=4096)
def _empty(text: str) -> bool:
    """Whether the isl set `text` is empty; False when isl cannot parse it. Kept per text: the helpers ask the
    same question again for each candidate (across the PolyBench kernels, 406 questions of which 235 differ)."""
    try:
        return isl.Set(text).is_empty()
    except isl.Error:
        return False
