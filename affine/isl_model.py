"""The isl model of a SCoP: iteration domains, access relations and the original schedule.

Statement S with iterators i0..i(d-1) (its enclosing affine.for loops, outermost first) and parameters p0..
(the Scop's params) becomes

    domain   [p..] -> { S[i0, ..] : lower_k <= i_k < upper_k (every bound-map result), guards }
    reads    [p..] -> { S[i..] -> A[subscripts] }   one per affine.load in its slice
    writes   [p..] -> { S[i..] -> A[subscripts] }   its affine.store
    schedule { S[i..] -> [b0, i0, b1, i1, ..., bd, 0, ..] }   the 2d+1 textual order, padded to one length

Affine expressions are translated to isl syntax (floor/ceil division, mod as x - c*floor(x/c)).
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

import islpy as isl
from mlir import ir
from mlir.dialects import affine

from .scop import APPLY, STORE, NotAScop, Scop


def expr_to_isl(e, dims: list, syms: list) -> str:
    """isl syntax for AffineExpr `e` whose dims/symbols stand for the isl expressions `dims`/`syms`."""
    if isinstance(e, affine.AffineConstantExpr):
        return str(e.value)
    if isinstance(e, affine.AffineDimExpr):
        return f"({dims[e.position]})"
    if isinstance(e, affine.AffineSymbolExpr):
        return f"({syms[e.position]})"
    lhs, rhs = expr_to_isl(e.lhs, dims, syms), expr_to_isl(e.rhs, dims, syms)
    if isinstance(e, affine.AffineAddExpr):
        return f"({lhs} + {rhs})"
    if isinstance(e, affine.AffineMulExpr):
        if not isinstance(e.lhs, affine.AffineConstantExpr) and not isinstance(e.rhs, affine.AffineConstantExpr):
            raise NotAScop(f"the product {e} of two variables (a linearized array subscript?) is not affine")
        return f"({lhs} * {rhs})"
    if isinstance(e, affine.AffineFloorDivExpr):
        return f"floor({lhs} / {rhs})"
    if isinstance(e, affine.AffineCeilDivExpr):
        return f"ceil({lhs} / {rhs})"
    if isinstance(e, affine.AffineModExpr):
        return f"({lhs} - {rhs} * floor({lhs} / {rhs}))"
    raise NotAScop(f"affine expression {e}")


def linear_terms(e, dims: list, syms: list) -> dict:
    """Split AffineExpr `e` as sum of symbol * (affine part) plus an affine rest: {symbol isl text: isl text of
    its factor, None: isl text of the rest}. A linearized subscript ``i * n + j`` gives {"p0": "i", None: "j"}.

    Raises:
        NotAScop: a product that is not symbol * affine expression, or one under a division or modulo.
    """
    if isinstance(e, (affine.AffineConstantExpr, affine.AffineDimExpr, affine.AffineSymbolExpr)):
        return {None: expr_to_isl(e, dims, syms)}
    if isinstance(e, affine.AffineAddExpr):
        out = linear_terms(e.lhs, dims, syms)
        for k, v in linear_terms(e.rhs, dims, syms).items():
            out[k] = f"({out[k]} + {v})" if k in out else v
        return out
    if isinstance(e, affine.AffineMulExpr):
        for a, b in ((e.lhs, e.rhs), (e.rhs, e.lhs)):
            if isinstance(a, affine.AffineConstantExpr):
                return {k: f"({a.value} * {v})" for k, v in linear_terms(b, dims, syms).items()}
        for a, b in ((e.lhs, e.rhs), (e.rhs, e.lhs)):
            if isinstance(a, affine.AffineSymbolExpr):
                return {syms[a.position]: expr_to_isl(b, dims, syms)}
    return {None: expr_to_isl(e, dims, syms)}


def integer_set_constraints(attr) -> list:
    """[(AffineExpr, is_equality)] of an IntegerSetAttr."""
    amap, eqs = integer_set_map(attr)
    return list(zip(amap.results, eqs))


def integer_set_map(attr) -> tuple:
    """(AffineMap of the constraints' expressions, [is_equality]) of an IntegerSetAttr (the Python bindings do
    not expose its IntegerSet, so the printed form is re-parsed as an affine map; its dims and symbols are the
    set's)."""
    text = str(attr)
    m = re.fullmatch(r"affine_set<(\([^)]*\)(?:\[[^\]]*\])?)\s*:\s*\((.*)\)>", text, re.S)
    if not m:
        raise NotAScop(f"integer set {text}")
    header, body = m.group(1), m.group(2)
    parts, depth, cur = [], 0, ""
    for ch in body:
        if ch == "," and depth == 0:
            parts.append(cur)
            cur = ""
            continue
        depth += ch == "("
        depth -= ch == ")"
        cur += ch
    parts.append(cur)
    exprs, eqs = [], []
    for p in parts:
        p = p.strip()
        eq = p.endswith("== 0")
        exprs.append(p[: -len("== 0") if eq else -len(">= 0")].strip())
        eqs.append(eq)
    amap = ir.AffineMapAttr(ir.Attribute.parse(f"affine_map<{header} -> ({', '.join(exprs)})>")).value
    return amap, eqs


@dataclass
class IslScop:
    """isl objects for one Scop (all in one isl.Context). Statement and array names are the Scop's."""
    scop: Scop
    ctx: isl.Context
    domain: isl.UnionSet
    reads: isl.UnionMap
    writes: isl.UnionMap
    original: isl.UnionMap
    params: list
    iterators: dict  # statement name -> list of iterator names
    accesses: list   # (statement name, "read" | "write", isl.Map), one per affine.load/store
    rows: dict = field(default_factory=dict)  # delinearized array -> the parameter that is its row length

    @property
    def param_header(self) -> str:
        return "[" + ", ".join(self.params) + "]"


class _Namer:
    """isl expressions for the MLIR values a statement uses in affine positions."""

    def __init__(self, scop: Scop, loops: list):
        self.scop, self.loops = scop, loops

    def value(self, v) -> str:
        owner = v.owner
        if isinstance(owner, ir.Block):
            for k, loop in enumerate(self.loops):
                if loop.induction_variable == v:
                    return f"i{k}"
        elif owner.name == "arith.constant" and isinstance(v.type, (ir.IndexType, ir.IntegerType)):
            return str(ir.IntegerAttr(owner.attributes["value"]).value)
        elif owner.name == APPLY and not any(p == v for p in self.scop.params):
            amap = owner.attributes["map"].value
            return self.map_results(amap, list(owner.operands))[0]
        for k, p in enumerate(self.scop.params):
            if p == v:
                return f"p{k}"
        raise NotAScop(f"value {v.get_name() if hasattr(v, 'get_name') else v} in an affine position")

    def map_results(self, amap, operands) -> list:
        names = [self.value(v) for v in operands]
        dims, syms = names[: amap.n_dims], names[amap.n_dims:]
        return [expr_to_isl(e, dims, syms) for e in amap.results]


def domain_constraints(scop: Scop, s) -> list:
    """isl constraints (strings) of statement `s`'s iteration domain."""
    namer = _Namer(scop, s.loops)
    cons = []
    for k, loop in enumerate(s.loops):
        iv = f"i{k}"
        lbs = namer.map_results(loop.attributes["lowerBoundMap"].value, list(loop.lowerBoundOperands))
        ubs = namer.map_results(loop.attributes["upperBoundMap"].value, list(loop.upperBoundOperands))
        cons += [f"{iv} >= {lb}" for lb in lbs] + [f"{iv} < {ub}" for ub in ubs]
        step = ir.IntegerAttr(loop.attributes["step"]).value
        if step != 1:
            if len(lbs) != 1:
                raise NotAScop("a loop with a step and a max lower bound")
            cons.append(f"exists (e{k} : {iv} = {lbs[0]} + {step} * e{k})")
    for guard, then in s.guards:
        names = [namer.value(v) for v in guard.operands]
        sides = []
        for e, eq in integer_set_constraints(guard.attributes["condition"]):
            ndims = _set_dims(guard.attributes["condition"])
            text = expr_to_isl(e, names[:ndims], names[ndims:])
            sides.append(f"{text} = 0" if eq else f"{text} >= 0")
        if then:
            cons += sides
        else:
            cons.append("not (" + " and ".join(sides) + ")")
    return cons


def _set_dims(attr) -> int:
    m = re.match(r"affine_set<\(([^)]*)\)", str(attr))
    return len([d for d in m.group(1).split(",") if d.strip()])


def access_map(scop: Scop, s, op, rows: dict | None = None) -> str:
    """The isl access relation text (without parameters) of affine.load/store `op` of statement `s`.

    A linearized subscript ``A[i * n + j]`` of a one-dimensional array is delinearized to ``A[i, j]`` (rows of
    length n, as Polly does); `rows` collects {array: (n, [inner subscripts])} so that build() can check that
    every access to the array uses the same row length and that 0 <= j < n holds on the domain.
    """
    namer = _Namer(scop, s.loops)
    is_store = op.name == STORE
    mem = op.operands[1] if is_store else op.operands[0]
    indices = list(op.operands)[2:] if is_store else list(op.operands)[1:]
    amap = op.attributes["map"].value
    name = scop.array_name(mem)
    try:
        subs = namer.map_results(amap, indices)
        row = None
    except NotAScop:
        names = [namer.value(v) for v in indices]
        terms = linear_terms(amap.results[0], names[: amap.n_dims], names[amap.n_dims:]) \
            if len(amap.results) == 1 else {}
        products = [k for k in terms if k is not None]
        if len(products) != 1 or not re.fullmatch(r"\(?p\d+\)?", products[0]) or rows is None:
            raise
        row = products[0].strip("()")
        subs = [terms[products[0]], terms.get(None, "0")]
    if rows is not None:
        prev = rows.setdefault(name, (row, []))
        if prev[0] != row:
            raise NotAScop(f"array {name} is accessed both linearized and not (or with two row lengths)")
        if row is not None:
            prev[1].append((_tuple(s), subs[1]))
    return f"{_tuple(s)} -> {name}[{', '.join(subs)}]"


def _tuple(s) -> str:
    return f"{s.name}[{', '.join(f'i{k}' for k in range(len(s.loops)))}]"


def build(scop: Scop, ctx: isl.Context | None = None) -> IslScop:
    """The IslScop of `scop`.

    Raises:
        NotAScop: an access or bound that is not affine in the loop iterators and parameters.
    """
    ctx = ctx or isl.Context()
    params = [f"p{k}" for k in range(len(scop.params))]
    head = "[" + ", ".join(params) + "] -> "
    doms, reads, writes, scheds, accesses = [], [], [], [], []
    depth = max(len(s.loops) for s in scop.statements)
    rows = {}
    for s in scop.statements:
        cons = domain_constraints(scop, s)
        doms.append(f"{_tuple(s)}" + (" : " + " and ".join(cons) if cons else ""))
        writes.append(access_map(scop, s, s.store, rows))
        reads += [access_map(scop, s, ld, rows) for ld in s.loads]
        accesses += [(s.name, "write", writes[-1])] + [(s.name, "read", r) for r in reads[len(reads) - len(s.loads):]]
        beta = []
        for k, b in enumerate(s.beta):
            beta.append(str(b))
            if k < len(s.loops):
                beta.append(f"i{k}")
        beta += ["0"] * (2 * depth + 1 - len(beta))
        scheds.append(f"{_tuple(s)} -> [{', '.join(beta)}]")
    try:
        dom = isl.UnionSet.read_from_str(ctx, head + "{ " + "; ".join(doms) + " }")
        rd = _umap(ctx, head, reads).intersect_domain(dom)
        wr = _umap(ctx, head, writes).intersect_domain(dom)
        orig = _umap(ctx, head, scheds).intersect_domain(dom)
        accesses = [(st, kind, isl.Map.read_from_str(ctx, head + "{ " + text + " }")) for st, kind, text in accesses]
        _check_rows(ctx, head, dom, rows)
    except isl.Error as e:
        raise NotAScop(f"isl rejected the model: {e}") from e
    iters = {s.name: [f"i{k}" for k in range(len(s.loops))] for s in scop.statements}
    return IslScop(scop, ctx, dom, rd, wr, orig, params, iters, accesses,
                   {name: row for name, (row, _) in rows.items() if row is not None})


def _check_rows(ctx, head, dom, rows):
    """Delinearized accesses are exact only when the column subscript stays within a row on the domain."""
    for name, (row, cols) in rows.items():
        for tup, col in cols:
            outside = isl.UnionSet.read_from_str(ctx, head + f"{{ {tup} : {col} < 0 or {col} >= {row} }}")
            if not outside.intersect(dom).is_empty():
                raise NotAScop(f"array {name}: a linearized subscript's column {col} may leave its row of {row}")


def subscript_coefficients(access: isl.Map) -> list:
    """Per array subscript of an access relation, {iterator index: coefficient} of the iterators it moves with
    (``S[i, j] -> A[i, 2j + 1]`` -> [{0: 1}, {1: 2}])."""
    pma = isl.PwMultiAff.from_map(access)
    subs = []
    for j in range(access.dim(isl.dim_type.out)):
        coeffs = {}
        for _, aff in pma.get_pw_aff(j).get_pieces():
            for k in range(access.dim(isl.dim_type.in_)):
                c = aff.get_coefficient_val(isl.dim_type.in_, k).to_python()
                if c:
                    coeffs[k] = c
        subs.append(coeffs)
    return subs


def sets(uset: isl.UnionSet) -> list:
    """The isl.Set pieces of a union set, as a Python list."""
    out = []
    uset.foreach_set(out.append)
    return out


def maps(umap: isl.UnionMap) -> list:
    """The isl.Map pieces of a union map, as a Python list."""
    out = []
    umap.foreach_map(out.append)
    return out


def pw_affs(upa: isl.UnionPwAff) -> list:
    out = []
    upa.foreach_pw_aff(out.append)
    return out


def _umap(ctx, head, parts) -> isl.UnionMap:
    return isl.UnionMap.read_from_str(ctx, head + "{ " + "; ".join(parts) + " }")
