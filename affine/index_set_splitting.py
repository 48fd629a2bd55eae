"""Index-set splitting: a statement's domain cut where it reads the element it writes elsewhere.

``path[i][j] = min(path[i][j], path[i][k] + path[k][j])`` (Floyd-Warshall) reads row k and column k in iteration
k of its outer loop, and writes them there too (at i = k and at j = k). As one statement, every (i, j) instance
may depend on another one of the same k: isl finds no parallel loop. Cut along the hyperplanes where the
written element equals a read one (i = k, j = k), the pieces tell apart the instances that write row k from
those that only read it: the rows i < k read row k before it is written, the rows i > k after, and each side
is parallel (Griebl, Feautrier and Lengauer, "Index set splitting", IJPP 2000; Bondhugula et al., "Tiling and
optimizing time-iterated computations on periodic domains", PACT'14, split the same way for Pluto).

split(model) gives a model whose statement S becomes S__iss0, S__iss1, ... (one per non-empty piece, the
pieces disjoint and covering S's domain), with the same accesses restricted to each piece and the same ops:
code generation emits S's ops once per piece. The split is tried only where isl's schedule of the unsplit
model has its first parallel loop deeper than the split one (transform.py): the pieces multiply the code.
"""

from __future__ import annotations

import dataclasses
import itertools

import islpy as isl

from .isl_model import IslScop, maps, sets

PIECE = "__iss"
MAX_HYPERPLANES = 2  # 3^2 pieces per statement at most


def split(model: IslScop) -> IslScop | None:
    """The split model (its Scop lists a copy of each split statement per piece, sharing the statement's ops),
    or None when no statement of `model` reads, in the array it writes, an element that coincides with the
    written one on a hyperplane of its domain."""
    pieces = {}  # statement name -> list of isl.Set (its domain's pieces)
    for dom in sets(model.domain):
        name = dom.get_tuple_name()
        planes = _hyperplanes(model, name, dom)
        if not planes:
            continue
        parts = []
        for signs in itertools.product((-1, 0, 1), repeat=len(planes)):
            part = dom
            for f, sign in zip(planes, signs):
                zero = isl.PwAff.zero_on_domain(isl.LocalSpace.from_space(f.get_domain_space()))
                part = part.intersect({-1: f.lt_set, 0: f.eq_set, 1: f.gt_set}[sign](zero))
            part = part.remove_redundancies()
            if not part.is_empty():
                parts.append(part)
        if len(parts) > 1:
            pieces[name] = parts
    if not pieces:
        return None
    to_piece = isl.UnionMap.empty(model.domain.get_space())
    for dom in sets(model.domain):
        name = dom.get_tuple_name()
        for k, part in enumerate(pieces.get(name, [dom])):
            m = isl.Map.identity(part.get_space().map_from_set()).intersect_domain(part)
            if name in pieces:
                m = m.set_tuple_name(isl.dim_type.out, f"{name}{PIECE}{k}")
            to_piece = to_piece.union(m.to_union_map())
    iterators, accesses = dict(model.iterators), []
    for stmt, kind, m in model.accesses:
        if stmt not in pieces:
            accesses.append((stmt, kind, m))
            continue
        for k in range(len(pieces[stmt])):
            piece = f"{stmt}{PIECE}{k}"
            iterators[piece] = model.iterators[stmt]
            accesses.append((piece, kind, _piece_map(to_piece, piece).reverse().apply_range(m)))
    statements = []
    for st in model.scop.statements:
        statements += [dataclasses.replace(st, name=f"{st.name}{PIECE}{k}") for k in range(len(pieces[st.name]))] \
            if st.name in pieces else [st]
    split_scop = dataclasses.replace(model.scop, statements=statements)
    split_model = IslScop(split_scop, model.ctx, model.domain.apply(to_piece),
                          model.reads.apply_domain(to_piece), model.writes.apply_domain(to_piece),
                          model.original.apply_domain(to_piece), model.params, iterators, accesses)
    return split_model


def _hyperplanes(model: IslScop, name: str, dom: isl.Set) -> list:
    """Affine functions f (isl.PwAff on S's domain) with f = 0 where an element S writes equals one it reads in
    the same array at another place of its domain: one subscript differs between the write and the read by
    a non-constant affine function of the iterators. At most MAX_HYPERPLANES, distinct."""
    writes = [m for st, kind, m in model.accesses if st == name and kind == "write"]
    reads = [m for st, kind, m in model.accesses if st == name and kind == "read"]
    found = []
    for w in writes:
        for r in reads:
            if w.get_tuple_name(isl.dim_type.out) != r.get_tuple_name(isl.dim_type.out):
                continue
            fw, fr = _single_valued(w, dom), _single_valued(r, dom)
            if fw is None or fr is None or fw.dim(isl.dim_type.out) != fr.dim(isl.dim_type.out):
                continue
            diffs = [fw.get_pw_aff(d).sub(fr.get_pw_aff(d)) for d in range(fw.dim(isl.dim_type.out))]
            varying = [f for f in diffs if not f.is_cst()]
            if len(varying) != 1 or not all(_is_zero(f) for f in diffs if f.is_cst()):
                continue
            f = varying[0]
            if not any(f.is_equal(g) or f.neg().is_equal(g) for g in found):
                found.append(f)
    return found if len(found) <= MAX_HYPERPLANES else []


def _single_valued(access: isl.Map, dom: isl.Set):
    m = access.intersect_domain(dom)
    if not m.is_single_valued():
        return None
    pma = isl.PwMultiAff.from_map(m)
    return pma if pma.n_piece() == 1 else None


def _is_zero(f: isl.PwAff) -> bool:
    return f.zero_set().is_equal(f.domain())


def _piece_map(to_piece: isl.UnionMap, piece: str) -> isl.Map:
    """The part of `to_piece` (statement instance -> piece instance) that maps to `piece`."""
    return [p for p in maps(to_piece) if p.get_tuple_name(isl.dim_type.out) == piece][0]
