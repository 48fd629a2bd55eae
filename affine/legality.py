"""Legality of a schedule: every dependence source must be scheduled strictly before its sink.

A schedule (tree or map) is flattened to one union map with ranges of one length; the violated pairs of a
dependence relation D are D intersected with { a -> b : schedule(a) >= schedule(b) } (lexicographically).
"""

from __future__ import annotations

import islpy as isl

from polygeist_py.errors import CompileError

from .dependences import KINDS, Dependences
from .isl_model import IslScop, maps
from .scop import source_location


class IllegalSchedule(CompileError):
    """A schedule that breaks a dependence; the message names the dependence and an instance pair."""


def flat_map(model: IslScop, schedule) -> isl.UnionMap:
    """The schedule as a union map whose ranges all have the same number of (anonymous) dimensions."""
    umap = schedule.get_map() if isinstance(schedule, isl.Schedule) else schedule
    umap = umap.intersect_domain(model.domain)
    pieces = maps(umap)
    width = max((m.dim(isl.dim_type.out) for m in pieces), default=0)
    out = isl.UnionMap.empty(umap.get_space())
    for m in pieces:
        m = m.reset_tuple_id(isl.dim_type.out)
        extra = width - m.dim(isl.dim_type.out)
        if extra:
            m = m.add_dims(isl.dim_type.out, extra)
            for d in range(width - extra, width):
                m = m.fix_si(isl.dim_type.out, d, 0)
        out = out.union(m)
    return out


def violations(model: IslScop, deps: Dependences, schedule) -> dict:
    """{kind: violated pairs (isl.UnionMap)} for the kinds (RAW/WAR/WAW) with at least one violation."""
    s = flat_map(model, schedule)
    if not _violated(s, deps.all):  # (the usual answer, found with one check instead of one per kind)
        return {}
    violated = [kind for kind, d in deps.by_kind().items() if _violated(s, d)]
    not_before = s.lex_ge_union_map(s)  # (pairs of instances: one relation per pair of statements)
    return {kind: deps.by_kind()[kind].intersect(not_before) for kind in violated}


def _violated(s: isl.UnionMap, d: isl.UnionMap) -> bool:
    """Whether dependence relation `d` has a pair (a, b) with s(a) >= s(b) lexicographically, for a flat schedule
    `s` (flat_map). Decided on the dependences' images in the one schedule space: cheaper than the pairs of
    instances of violations, which relate every two statements (ludcmp: 6 checks took 70 ms that way)."""
    image = d.apply_domain(s).apply_range(s)
    for m in maps(image):
        if not m.intersect(isl.Map.lex_ge(m.get_space().domain())).is_empty():
            return True
    return False


def check(model: IslScop, deps: Dependences, schedule, scop_name: str) -> None:
    """Raise IllegalSchedule when `schedule` violates a dependence of `model`.

    Raises:
        IllegalSchedule: names the first violated dependence (kind, statements with source locations, array)
            and one violating instance pair.
    """
    bad = violations(model, deps, schedule)
    for kind in KINDS:
        if kind in bad:
            m = maps(bad[kind])[0]
            src = m.get_tuple_name(isl.dim_type.in_)
            dst = m.get_tuple_name(isl.dim_type.out)
            stmts = {s.name: s for s in model.scop.statements}
            example = m.sample().to_str() if hasattr(m, "sample") else m.to_str()
            raise IllegalSchedule(
                f"the schedule of {scop_name} violates the {kind} dependence {src} -> {dst} "
                f"({_where(stmts[src])} -> {_where(stmts[dst])}); for example {example} "
                f"would run the sink before (or with) the source")


def _where(stmt) -> str:
    return source_location(stmt.store)


def schedule_from_map(model: IslScop, text) -> isl.Schedule:
    """A schedule tree with one band from a user's isl union map `{ S0[i0, ..] -> [..]; ... }` (or a list
    of such texts, one per statement); parameters p0.. may be declared as `[p0, ..] -> { ... }`; every statement
    of the SCoP must be mapped.

    Raises:
        IllegalSchedule: text isl cannot parse, a statement left out, or a map that is not a function.
    """
    umap = None
    for part in ([text] if isinstance(text, str) else list(text)):
        if not part.lstrip().startswith("["):
            part = model.param_header + " -> " + part
        try:
            piece = isl.UnionMap.read_from_str(model.ctx, part)
        except isl.Error as e:
            raise IllegalSchedule(f"cannot parse the schedule {part!r}: {e}") from e
        umap = piece if umap is None else umap.union(piece)
    missing = model.domain.subtract(umap.domain())
    if not missing.is_empty():
        raise IllegalSchedule(f"the schedule leaves statement instances unscheduled: {missing}")
    flat = flat_map(model, umap)
    if not flat.is_single_valued():
        raise IllegalSchedule("the schedule maps a statement instance to several times")
    mupa = isl.MultiUnionPwAff.from_union_map(flat)
    return isl.Schedule.from_domain(model.domain).insert_partial_schedule(mupa)


def carried_at(model: IslScop, deps: Dependences, schedule, dim: int) -> dict:
    """{kind: pairs} of dependences carried by schedule dimension `dim` (equal times before `dim`, different
    at `dim`): a loop at `dim` may run in parallel only when this is empty."""
    s = flat_map(model, schedule)
    width = max((m.dim(isl.dim_type.out) for m in maps(s)), default=0)
    if not 0 <= dim < width:
        raise IllegalSchedule(f"schedule dimension {dim} does not exist (the schedule has {width})")
    xs = [f"x{k}" for k in range(width)]
    ys = [f"y{k}" for k in range(width)]
    cond = " and ".join([f"x{k} = y{k}" for k in range(dim)] + [f"x{dim} != y{dim}"])
    same_prefix = isl.Map.read_from_str(model.ctx, f"{{ [{', '.join(xs)}] -> [{', '.join(ys)}] : {cond} }}")
    out = {}
    for kind, d in deps.by_kind().items():
        in_time = d.apply_domain(s).apply_range(s)
        bad = in_time.intersect(isl.UnionMap.from_map(same_prefix.align_params(in_time.get_space())))
        if not bad.is_empty():
            out[kind] = bad
    return out


def mark_dims_parallel(model: IslScop, deps: Dependences, schedule: isl.Schedule, dims, scop_name: str):
    """Put a "parallel" mark on schedule dimensions `dims` of a one-band schedule (from schedule_from_map).

    Raises:
        IllegalSchedule: a dimension carries a dependence (names its kind).
    """
    from .scheduler import PARALLEL_MARK

    for d in dims:
        bad = carried_at(model, deps, schedule, d)
        if bad:
            kind = next(iter(bad))
            raise IllegalSchedule(f"dimension {d} of the schedule of {scop_name} cannot be parallel: it carries "
                                  f"the {kind} dependence {maps(bad[kind])[0]}")
    node = schedule.get_root().child(0)
    done = 0
    for d in sorted(set(dims)):
        if d - done > 0:
            node = node.band_split(d - done).child(0)
            done = d
        if node.band_n_member() > 1:
            node = node.band_split(1)
        node = node.insert_mark(isl.Id(PARALLEL_MARK, context=model.ctx)).child(0)
        if node.band_n_member() == 1 and node.n_children() and node.child(0).get_type() == isl.schedule_node_type.band:
            node, done = node.child(0), d + 1
    return node.get_schedule()
