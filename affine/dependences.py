"""Value-based dependences of a SCoP from isl's dataflow analysis.

    RAW (flow):   for every read, the last write of the same element before it (must sources = writes);
    WAW (output): for every write, the last earlier write of the same element;
    WAR (anti):   for every write, the reads since the previous write of that element (may sources = reads,
                  kills = writes).

Each is an isl.UnionMap from source statement instances to sink instances. Validity of a schedule needs all
three (no array expansion is done); `all` is their union. Algorithm: Feautrier's array dataflow analysis as
implemented by isl (isl_union_access_info_compute_flow).
"""

from __future__ import annotations

from dataclasses import dataclass

import islpy as isl

from .isl_model import IslScop, maps

KINDS = ("RAW", "WAR", "WAW")


@dataclass
class Dependences:
    raw: isl.UnionMap
    war: isl.UnionMap
    waw: isl.UnionMap

    @property
    def all(self) -> isl.UnionMap:
        return self.raw.union(self.war).union(self.waw)

    def by_kind(self) -> dict:
        return {"RAW": self.raw, "WAR": self.war, "WAW": self.waw}

    def printable(self) -> dict:
        """{kind: isl text}, each relation coalesced for reading."""
        return {k: str(v.coalesce()) for k, v in self.by_kind().items()}


def compute(model: IslScop, arrays=None) -> Dependences:
    """RAW, WAR and WAW dependences of `model` under its original schedule; with `arrays` (array names), only
    those through these arrays (dataflow is per element, so the arrays' dependences partition the SCoP's)."""
    sched, reads, writes = model.original, model.reads, model.writes
    if arrays is not None:
        reads, writes = on_arrays(reads, arrays), on_arrays(writes, arrays)
    raw = (isl.UnionAccessInfo.from_sink(reads).set_must_source(writes)
           .set_schedule_map(sched).compute_flow().get_may_dependence())
    waw = (isl.UnionAccessInfo.from_sink(writes).set_must_source(writes)
           .set_schedule_map(sched).compute_flow().get_may_dependence())
    war = (isl.UnionAccessInfo.from_sink(writes).set_may_source(reads).set_kill(writes)
           .set_schedule_map(sched).compute_flow().get_may_dependence())
    # Not coalesced: coalescing merges the per-access pieces of a stencil (simple translations) into one
    # polyhedron with many facets, and the scheduler's Farkas step (isl_set_coefficients) on it took minutes
    # for heat-3d instead of 0.03 s.
    return Dependences(raw, war, waw)


def on_arrays(accesses: isl.UnionMap, arrays) -> isl.UnionMap:
    """The part of an access relation that touches the arrays named in `arrays`."""
    out = isl.UnionMap.empty(accesses.get_space())
    for m in maps(accesses):
        if m.get_tuple_name(isl.dim_type.out) in arrays:
            out = out.union(m)
    return out
