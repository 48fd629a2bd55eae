"""Rows of a triangular substitution summed UNROLL_JAM_FACTOR at a time: register blocking of trisolv.

``for (i) { x[i] = b[i]; for (j < i) x[i] -= L[i][j] * x[j]; x[i] /= L[i][i]; }`` runs one chain of
subtractions per row, at the adder's latency, and no loop is parallel. Rows i and i + 1 cannot be jammed as
they are (row i + 1 reads x[i] at j = i), but in a block of F consecutive rows every row's chain over the
columns left of the block (j < F * floor(i / F)) only reads values final before the block starts. The nest
becomes, per block of rows: the statements before the inner loop for every row of the block; the rectangle
j < F * floor(i / F) with the block's rows unrolled and jammed (F independent chains, each in its original
order, so results are bit-exact); then each row's remaining triangle and the statements after the inner loop,
row by row. This is the register-blocked triangular solve of dense linear algebra libraries (e.g. the blocked
TRSV kernels of BLIS), derived here as a schedule: the blocks are a band floor(i / F), the rectangle is cut from
the inner statements' domain with isl, and the tree is checked against the dependences (legality.violations).
The jam itself is jam_marks.py's mark on the block's row loop and unroll_jam.py's transformation.

Used by transform.py when the computed schedule is predicted to lose and the original loops have no parallel
loop (transform._fallback).
"""

from __future__ import annotations

from functools import reduce

import islpy as isl

from .dependences import Dependences
from .isl_model import IslScop
from .legality import violations
from .original_schedule import _iterators, _tree, statement_domains
from .unroll_jam import UNROLL_JAM_FACTOR


def triangular_jam_schedule(model: IslScop, deps: Dependences) -> isl.Schedule | None:
    """The original schedule with every triangular two-level nest blocked by rows as the module docstring says,
    or None when `model` has no such nest or the blocked order violates a dependence.

    Args:
        model: the SCoP's isl model.
        deps: its dependences (dependences.compute).
    """
    domains, iterators = statement_domains(model), _iterators(model)
    stmts = [s for s in model.scop.statements if s.name in domains]
    parts, blocked = [], False
    for pos in sorted({s.beta[0] for s in stmts}):
        group = [s for s in stmts if s.beta[0] == pos]
        tree = _blocked_nest(model, group, domains, iterators)
        blocked = blocked or tree is not None
        parts.append(tree if tree is not None else _tree(group, 0, domains, iterators))
    if not blocked:
        return None
    schedule = reduce(isl.Schedule.sequence, parts)
    return None if violations(model, deps, schedule) else schedule


def _blocked_nest(model, group, domains, iterators) -> isl.Schedule | None:
    """The blocked tree of the nest `group` (an outer loop holding statements and one inner loop of statements,
    whose bounds depend on the outer iterator), or None when `group` is not such a nest."""
    inner = sorted((s for s in group if len(s.loops) == 2), key=lambda s: s.beta)
    outer = [s for s in group if len(s.loops) == 1]
    if not inner or len(inner) + len(outer) != len(group) or len({s.beta[1] for s in inner}) != 1:
        return None
    rows = reduce(isl.Set.union, (isl.Set.from_union_set(domains[s.name]).project_out(isl.dim_type.set, 1, len(
        s.loops) - 1).reset_tuple_id() for s in group))
    rect = reduce(isl.UnionSet.union, (_full_blocks(model, domains[s.name], rows) for s in inner))
    inner_dom = reduce(isl.UnionSet.union, (domains[s.name] for s in inner))
    tri = inner_dom.subtract(rect)
    if rect.is_empty() or tri.is_empty():
        return None  # no column is shared by a whole block, or a rectangle (jam_marks.py jams it as it is)

    def band(dom, level):
        return isl.MultiUnionPwAff.from_union_pw_aff(iterators.get_union_pw_aff(2 * level + 1).intersect_domain(dom))

    def rows_of(stmts, first=None):
        """Row by row (band i), the statements `stmts` in source order, the inner loop's part `first` first."""
        pieces = [isl.Schedule.from_domain(first).insert_partial_schedule(band(first, 1))] if first else []
        pieces += [isl.Schedule.from_domain(domains[s.name]) for s in sorted(stmts, key=lambda s: s.beta)]
        dom = reduce(isl.UnionSet.union, (p.get_domain() for p in pieces))
        return reduce(isl.Schedule.sequence, pieces).insert_partial_schedule(band(dom, 0))

    before = [s for s in outer if s.beta[1] < inner[0].beta[1]]
    after = [s for s in outer if s.beta[1] > inner[0].beta[1]]
    parts = [rows_of(before)] if before else []
    parts.append(isl.Schedule.from_domain(rect).insert_partial_schedule(band(rect, 1))
                 .insert_partial_schedule(band(rect, 0)))
    parts.append(rows_of(after, tri))
    whole = reduce(isl.Schedule.sequence, parts)
    blocks = band(whole.get_domain(), 0).scale_down_val(isl.Val.int_from_si(model.ctx, UNROLL_JAM_FACTOR)).floor()
    return whole.insert_partial_schedule(blocks)


def _full_blocks(model: IslScop, domain: isl.UnionSet, rows: isl.Set) -> isl.UnionSet:
    """The instances S[i, j] of `domain` (one statement) whose column j every row of i's block has: for every
    i2 in `rows` with floor(i2 / F) = floor(i / F), S[i2, j] is in `domain` too."""
    d = isl.Set.from_union_set(domain)
    name, f = d.get_tuple_name(), UNROLL_JAM_FACTOR
    same_block = isl.Map.read_from_str(
        model.ctx, f"{model.param_header} -> {{ {name}[i, j] -> {name}[i2, j] : "
                   f"floor(i / {f}) = floor(i2 / {f}) }}")
    existing = rows.insert_dims(isl.dim_type.set, 1, 1).set_tuple_name(name)
    missing = same_block.intersect_range(existing).subtract_range(d).domain()
    return isl.UnionSet.from_set(d.subtract(missing))
