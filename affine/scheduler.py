"""Pluto-style schedules from isl's scheduler: fusion policy, tiling, intra-tile order, parallel loops.

The schedule tree from isl_schedule_constraints_compute_schedule (validity = all dependences, proximity =
all dependences, coincidence = all dependences, outer coincidence on: a parallel outer loop when there is one)
is post-processed bottom-up. When its outer loop is sequential anyway, the schedule computed without outer
coincidence replaces it if it is one permutable, unskewed band over every loop (lu: a blocked factorization).

* every permutable band of at least two members with temporal reuse (an access that does not move with
  some member, or a skewed member) is tiled (Pluto's rectangular tiling; sizes from ScheduleOptions, 32 by
  default as in Pluto); a band without reuse would only pay the tiling overhead;
* the point band inside a tile (or an untiled permutable band) is permuted so that its innermost member is the
  one with the most stride-1 accesses, each weighted by how many loops walk it (the innermost loop then
  vectorizes, or streams the largest arrays along their rows); when a one-member band below it walks across
  rows and that innermost member along them, the member moves below it if the result is legal (trmm);
* on every root-to-leaf path the outermost coincident band member gets a "parallel" mark, so code generation
  emits affine.parallel for it; a tiled band with no coincident member gets a wavefront (its first tile loop
  becomes the sum of the first two, which makes the second one parallel: Pluto's pipelined parallelism for
  time-tiled stencils); inside a sequential loop, a member with no loop below it gets a "parallel-if-large"
  mark instead: code generation emits it twice, parallel when its trip count reaches LARGE_TRIP at run time
  and sequential otherwise, so that a parallel region always has enough work for its fork and join.

Fusion policy: "max" schedules each connected component as a whole (isl's whole-component scheduler, which
fuses wherever it can), "smart" uses isl's incremental clustering (fuses when it keeps parallelism and band
depth), "none" serializes strongly connected components (no fusion).
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass, field

import islpy as isl

from .dependences import Dependences
from .isl_model import IslScop, pw_affs, subscript_coefficients

PARALLEL_MARK = "parallel"
LARGE_PARALLEL_MARK = "parallel-if-large"  # parallel when its trip count is at least LARGE_TRIP (checked at run time)
# durbin's two vector updates (a few arithmetic ops per element) inside its sequential k loop lost 45% of the
# sequential time when run in parallel from 16384 elements (two parallel regions per k), and gained nothing from
# 4096; jacobi-1d's 200000-point sweeps halve.
LARGE_TRIP = 65536
UNROLL_JAM_MARK = "unroll-jam"  # the loop of the marked member is unrolled by UNROLL_JAM_FACTOR and jammed (unroll_jam.py)
PRIVATE_MARK = "private"  # "private A3 A5" under a parallel mark: each iteration gets its own copy of A3 and A5
FUSION_POLICIES = ("max", "smart", "none")


@dataclass
class ScheduleOptions:
    """Choices of the scheduler.

    fusion: one of FUSION_POLICIES; tile: tile permutable bands; tile_sizes: sizes for the members of a band,
    outermost first, aligned on the innermost member (band_tile_sizes); two_member_tile: the sizes of bands of two
    members unless None; parallel: mark parallel loops;
    vectorize: choose the innermost member of permutable bands for stride-1 access; unroll_jam: unroll-and-jam
    the loop around an innermost reduction (mark_unroll_jam, unroll_jam.py).
    """
    fusion: str = "smart"
    tile: bool = True
    tile_sizes: tuple = (32, 32, 32)
    # two-member bands (matrix-vector nests: gesummv, mvt, gemver) stream their matrix in row pieces of 512
    # (4 KiB of doubles, as original_schedule.STREAM_TILE): 32 x 32 tiles took 1.9x gcc's time for gesummv on
    # one core, 32 x 512 ones 0.9x; None: tile_sizes for them too (a user's --tile-sizes)
    two_member_tile: tuple | None = (32, 512)
    parallel: bool = True
    vectorize: bool = True
    unroll_jam: bool = True
    extra: dict = field(default_factory=dict)

    def without_parallel(self) -> "ScheduleOptions":
        """These options with parallel marks turned off."""
        return dataclasses.replace(self, parallel=False)

    def __post_init__(self):
        if self.fusion not in FUSION_POLICIES:
            raise ValueError(f"fusion policy {self.fusion!r}: expected one of {', '.join(FUSION_POLICIES)}")
        if any(int(t) < 1 for t in self.tile_sizes):
            raise ValueError(f"tile sizes must be positive: {self.tile_sizes}")


def compute_schedule(model: IslScop, deps: Dependences, options: ScheduleOptions,
                     order_only: isl.UnionMap | None = None) -> isl.Schedule:
    """An isl schedule tree for `model` that respects `deps`, post-processed as the module docstring says.
    `order_only`: more dependences to respect (validity) that do not prevent a loop from being parallel (not
    coincidence): those of private scalars (scalar_expansion.py).

    With parallel loops wanted and smart fusion, a second schedule is computed with isl's
    maximize_coincidence option (clusters are not fused when fusion would lose coincident members) and chosen
    when more statements run in outer parallel loops in it: fdtd-2d's two field updates, fused with a shift,
    kept only their inner loop parallel (0.76 of gcc's time at 2 threads); unfused, both rows loops are parallel
    (0.48). When both put the same statements in parallel loops, the fused one stays (gemver's rank-2 update
    and product read the matrix once: 0.20 against 0.28)."""
    from .profitability import parallel_statements

    chosen = _compute_schedule(model, deps, options, order_only, maximize_coincidence=False)
    if options.parallel and options.fusion == "smart":
        parallel = parallel_statements(chosen)
        everything = set()
        model.domain.foreach_set(lambda s: everything.add(s.get_tuple_name()))
        if parallel != everything:  # (else no schedule can put more statements in parallel loops)
            unfused = _compute_schedule(model, deps, options, order_only, maximize_coincidence=True)
            if parallel_statements(unfused) > parallel:
                chosen = unfused
    return chosen


def _compute_schedule(model, deps, options, order_only, maximize_coincidence: bool) -> isl.Schedule:
    ctx = model.ctx
    ctx.set_schedule_serialize_sccs(1 if options.fusion == "none" else 0)
    ctx.set_schedule_whole_component(1 if options.fusion == "max" else 0)
    ctx.set_schedule_outer_coincidence(1)
    ctx.set_schedule_maximize_band_depth(1)
    ctx.set_schedule_maximize_coincidence(1 if maximize_coincidence else 0)
    dep = deps.all
    validity = dep if order_only is None else dep.union(order_only)
    sc = (isl.ScheduleConstraints.on_domain(model.domain).set_validity(validity).set_proximity(dep)
          .set_coincidence(dep))
    schedule = sc.compute_schedule()
    if largest_coefficient(schedule) > MAX_COEFFICIENT:
        # isl's step that carries dependences when no band is found, given loops with constant bounds, can fuse
        # them into one dimension (30600*r + 255*q + s for doitgen written in main with literal sizes); carrying
        # the other dependences first gives the loops back
        ctx.set_schedule_carry_self_first(0)
        schedule = sc.compute_schedule()
        ctx.set_schedule_carry_self_first(1)
    if options.tile and _outer_loop_is_sequential(schedule):
        ctx.set_schedule_outer_coincidence(0)
        blocked = sc.compute_schedule()
        ctx.set_schedule_outer_coincidence(1)
        if _is_unskewed_full_band(model, blocked):
            schedule = blocked
    unmarked = options.without_parallel()  # parallel marks go on last, on the schedule chosen
    chosen = post_process(model, schedule, unmarked)
    if options.vectorize:
        sunk = post_process(model, schedule, unmarked, sink=True)
        if not sunk.plain_is_equal(chosen) and _respects(model, deps, order_only, sunk):
            # a member moved below another band keeps its coincident flag, which held under that band only
            # (Floyd-Warshall's i, parallel inside the wavefront i + j, carries row k's dependence above it)
            chosen = clear_false_coincidence(sunk, deps.all)
    return mark_parallel(chosen) if options.parallel else chosen


def clear_false_coincidence(schedule: isl.Schedule, dependences: isl.UnionMap) -> isl.Schedule:
    """`schedule` with the coincident flag removed from every band member along which some dependence between
    instances that agree on all outer dimensions has a non-zero distance (such a loop is not parallel)."""
    def visit(node):
        if node.get_type() != isl.schedule_node_type.band:
            return node
        outer = node.get_prefix_schedule_union_map()
        mupa = node.band_get_partial_schedule()
        for k in range(node.band_n_member()):
            member = isl.UnionMap.from_union_pw_aff(mupa.get_union_pw_aff(k))
            same_outer = dependences.intersect(outer.apply_range(outer.reverse()))
            if node.band_member_get_coincident(k) and \
                    not same_outer.is_subset(member.apply_range(member.reverse())):
                node = node.band_member_set_coincident(k, 0)
            outer = outer.flat_range_product(member)
        return node

    return schedule.get_root().map_descendant_bottom_up(visit).get_schedule()


# Skews of stencils and wavefronts use small factors (2 for jacobi-2d's time skew); a larger coefficient of a loop
# iterator enumerates several loops as one through their constant bounds, in one sequential loop around tiny
# parallel ones (doitgen with literal sizes: 9x slower than the original loops).
MAX_COEFFICIENT = 8


def largest_coefficient(schedule: isl.Schedule) -> int:
    """The largest absolute coefficient of a loop iterator in a band member of `schedule` (0 when none)."""
    found = [0]

    def visit(node):
        if node.get_type() == isl.schedule_node_type.band:
            mupa = node.band_get_partial_schedule()
            for k in range(node.band_n_member()):
                for pa in pw_affs(mupa.get_union_pw_aff(k)):
                    for _, aff in pa.get_pieces():
                        for d in range(aff.dim(isl.dim_type.in_)):
                            found[0] = max(found[0], abs(aff.get_coefficient_val(isl.dim_type.in_, d).to_python()))
        return node

    schedule.get_root().map_descendant_bottom_up(visit)
    return found[0]


def _outer_loop_is_sequential(schedule: isl.Schedule) -> bool:
    """Whether the schedule starts with a band whose first member is not coincident (lu's k loop)."""
    node = schedule.get_root().child(0)
    return node.get_type() == isl.schedule_node_type.band and not node.band_member_get_coincident(0)


def _is_unskewed_full_band(model: IslScop, schedule: isl.Schedule) -> bool:
    """Whether `schedule` starts with one permutable band with a member for every loop of the deepest statements,
    each member a plain iterator of every statement (or constant for it): a blocked factorization (lu's k, i and j
    tiled together, run as a wavefront of tiles, as a blocked LU does). Chosen over a sequential outer loop
    around parallel ones; a skewed band (a stencil's time tiling) is not, since its tiles' inner loops, skewed
    and guarded, vectorize badly here (jacobi-2d: 1.1 of gcc's time against 0.5 without time tiling)."""
    node = schedule.get_root().child(0)
    if node.get_type() != isl.schedule_node_type.band or not node.band_get_permutable():
        return False
    depth = max(len(s.loops) for s in model.scop.statements)
    if node.band_n_member() != depth or depth < 2:
        return False
    mupa = node.band_get_partial_schedule()
    return all(it is not None for k in range(depth)
               for it in _member_iterators(mupa.get_union_pw_aff(k)).values())


def _respects(model, deps, order_only, schedule) -> bool:
    from .legality import flat_map, violations

    if violations(model, deps, schedule):
        return False
    if order_only is None:
        return True
    s = flat_map(model, schedule)
    return order_only.intersect(s.lex_ge_union_map(s)).is_empty()


def post_process(model: IslScop, schedule: isl.Schedule, options: ScheduleOptions,
                 sink: bool = False) -> isl.Schedule:
    """Tile, reorder for stride-1 access and mark parallel loops in `schedule` (see the module docstring).
    `sink`: also move the innermost member of a band below a one-member band under it when that member walks
    along rows and the other does not (trmm's point loops (i, j) above its k loop: j goes innermost); the
    caller checks that the result is legal."""
    strides = _stride_table(model) if options.vectorize else None

    def band_pass(node):
        if node.get_type() != isl.schedule_node_type.band or not node.band_get_permutable():
            return node
        n = node.band_n_member()
        if n >= 2 and strides is not None:
            best = _best_innermost(node, strides)
            node = permute_band(node, [i for i in range(n) if i != best] + [best])
        if options.tile and n >= 2 and _has_temporal_reuse(node, strides or _stride_table(model)):
            sizes = list(options.two_member_tile) if n == 2 and options.two_member_tile else \
                band_tile_sizes(options.tile_sizes, n)
            node = tile_band(node, sizes)
            # Tile loops in any order are legal (the band is permutable): parallel ones outermost, so one
            # fork/join covers the tiled nest instead of one per outer tile (gramschmidt's column updates).
            coincident = [i for i in range(n) if node.band_member_get_coincident(i)]
            node = permute_band(node, coincident + [i for i in range(n) if i not in coincident])
        return node

    schedule = schedule.get_root().map_descendant_bottom_up(band_pass).get_schedule()
    if sink and strides is not None:
        schedule = schedule.get_root().map_descendant_bottom_up(lambda n: _sink_stride_one(n, strides)).get_schedule()
    if options.parallel:
        schedule = mark_parallel(schedule)
    return schedule


def band_tile_sizes(sizes: tuple, n: int) -> list:
    """Tile sizes for the n members of a band, aligned on the innermost member: the last of `sizes` for the
    innermost member (the stride-1 one after post_process's permutation), the one before it for the member
    above, ...; members further out than `sizes` reaches get its first size."""
    return [sizes[max(0, len(sizes) - n + i)] for i in range(n)]


def tile_band(node, sizes):
    """Tile a permutable band node with `sizes`; returns the tile band (its child is the point band). Tile loops
    count tiles (floor(i / size), not multiples of the size), so that a wavefront over tiles of unequal sizes is
    the sum of tile numbers."""
    ctx = node.get_ctx()
    ctx.set_tile_scale_tile_loops(0)
    mv = isl.MultiVal.zero(node.band_get_space())
    for i, t in enumerate(sizes):
        mv = mv.set_val(i, isl.Val.int_from_si(ctx, int(t)))
    coincident = [node.band_member_get_coincident(i) for i in range(node.band_n_member())]
    node = node.band_tile(mv)
    for i, c in enumerate(coincident):  # band_tile keeps them on the tile band only on some isl versions
        node = node.band_member_set_coincident(i, c)
        child = node.child(0)
        if child.get_type() == isl.schedule_node_type.band:
            node = child.band_member_set_coincident(i, c).parent()
    return node


def permute_band(node, order):
    """Reorder the members of a permutable band node: new member k is old member order[k]."""
    n = node.band_n_member()
    if list(order) == list(range(n)):
        return node
    mupa = node.band_get_partial_schedule()
    upas = [mupa.get_union_pw_aff(i) for i in range(n)]
    coincident = [node.band_member_get_coincident(i) for i in range(n)]
    for k, i in enumerate(order):
        mupa = mupa.set_union_pw_aff(k, upas[i])
    node = node.delete().insert_partial_schedule(mupa).band_set_permutable(1)
    for k, i in enumerate(order):
        node = node.band_member_set_coincident(k, coincident[i])
    return node


def mark_parallel(schedule: isl.Schedule) -> isl.Schedule:
    """Put a "parallel" mark on the outermost coincident band member of every root-to-leaf path (a
    "parallel-if-large" mark when it is a one-dimensional loop inside a sequential one, or any loop inside two)."""
    ctx = schedule.get_ctx()

    def visit(node, inside_parallel, under_sequential=0):
        # Returns the node at the position it was given (splits and marks add levels below it).
        # `under_sequential`: the number of sequential loops around `node`.
        down = 0
        is_band = node.get_type() == isl.schedule_node_type.band
        if is_band and not inside_parallel:
            n = node.band_n_member()
            members = [i for i in range(n) if node.band_member_get_coincident(i)]
            large_only = False
            outside = under_sequential + (members[0] if members else 0)
            if members and (outside >= 2 or outside and loop_depth(node) - members[0] < 2):
                # A one-dimensional parallel loop inside a sequential one forks threads for too little work
                # when it is short (durbin's inner products, fdtd-2d's rows after fusion) and pays when it is long
                # (jacobi-1d's 200000 points per time step): parallel only when its trip count is large. So does
                # a parallel loop inside two sequential ones: doitgen's 8 tiles of p per (r, q) forked 12000
                # times took 0.55 of gcc's time at 2 threads, against 0.48 sequentially.
                members, large_only = members[:1], True
            if not members and not inside_parallel and n >= 2 and node.band_get_permutable() and _is_tile_band(node):
                node = _wavefront(node)
                members = [1]
            if members:
                m = members[0]
                if m > 0:
                    node, down = node.band_split(m).child(0), down + 1
                if node.band_n_member() > 1:
                    node = node.band_split(1)
                mark = LARGE_PARALLEL_MARK if large_only else PARALLEL_MARK
                node = node.insert_mark(isl.Id(mark, context=ctx)).child(0)
                down += 1
                inside_parallel = True
        under = under_sequential + (node.band_n_member() if is_band and not inside_parallel else 0)
        for k in range(node.n_children()):
            node = visit(node.child(k), inside_parallel, under).parent()
        for _ in range(down):
            node = node.parent()
        return node

    return visit(schedule.get_root(), False).get_schedule()


def first_parallel_depth(schedule: isl.Schedule) -> int:
    """The largest number, over root-to-leaf paths of `schedule`, of band members above the path's first
    coincident member (all of the path's members when none is)."""
    def depth(node, above):
        if node.get_type() == isl.schedule_node_type.band:
            for k in range(node.band_n_member()):
                if node.band_member_get_coincident(k):
                    return above + k
            above += node.band_n_member()
        return max((depth(node.child(k), above) for k in range(node.n_children())), default=above)

    return depth(schedule.get_root(), 0)


def loop_depth(node) -> int:
    """The largest number of band members on a path from `node` (included) down to a leaf."""
    own = node.band_n_member() if node.get_type() == isl.schedule_node_type.band else 0
    return own + max((loop_depth(node.child(k)) for k in range(node.n_children())), default=0)


def _is_tile_band(node) -> bool:
    child = node.child(0) if node.n_children() else None
    return child is not None and child.get_type() == isl.schedule_node_type.band and child.band_get_permutable()


def _wavefront(node):
    """Replace the first member t0 of a permutable band by t0 + t1 (legal: every dependence distance is
    non-negative in a permutable band); then member 1 carries no dependence inside a wavefront."""
    mupa = node.band_get_partial_schedule()
    mupa = mupa.set_union_pw_aff(0, mupa.get_union_pw_aff(0).add(mupa.get_union_pw_aff(1)))
    node = node.delete().insert_partial_schedule(mupa).band_set_permutable(1)
    return node.band_member_set_coincident(1, 1)


# ------------------------------------------------------------------------------------------ stride-1 choice

def _stride_table(model: IslScop) -> dict:
    """statement name -> list of accesses, each a list (per array subscript) of {iterator index: coefficient}."""
    table = {}
    for stmt, _, m in model.accesses:
        table.setdefault(stmt, []).append(subscript_coefficients(m))
    return table


CONSTANT = "constant"


def _member_iterators(upa) -> dict:
    """statement name -> the iterator index a band member equals (coefficient +-1, alone), CONSTANT when the
    member does not depend on the statement's iterators, or None (a combination: skewed)."""
    out = {}
    for pa in pw_affs(upa):
        stmt = pa.get_domain_space().get_tuple_name(isl.dim_type.set)
        it = None
        for _, aff in pa.get_pieces():
            nz = [k for k in range(aff.dim(isl.dim_type.in_))
                  if aff.get_coefficient_val(isl.dim_type.in_, k).to_python()]
            it = nz[0] if len(nz) == 1 else (CONSTANT if not nz else None)
        out[stmt] = it
    return out


def _has_temporal_reuse(node, strides) -> bool:
    """True when some access of the band's statements does not move with some band member (the same element
    is used again along that member, so tiling keeps it in cache), or a member is not a plain iterator
    (skewed bands: time tiling). A band whose every access moves with every member (a plain stencil sweep)
    gains nothing from tiling but its overhead."""
    mupa = node.band_get_partial_schedule()
    members = [_member_iterators(mupa.get_union_pw_aff(i)) for i in range(node.band_n_member())]
    for i, its in enumerate(members):
        for stmt, it in its.items():
            if it is None:
                return True
            if it == CONSTANT:
                continue
            others = {m.get(stmt) for k, m in enumerate(members) if k != i} - {None, CONSTANT}
            for subs in strides.get(stmt, []):
                moved = {k for sub in subs for k in sub}
                # reused along `it` but walking along another member: a footprint tiling keeps in cache
                # (an access that no member moves is a register value in the band, not a reason to tile)
                if subs and it not in moved and moved & others:
                    return True
    return False


def _sink_stride_one(node, strides):
    """Band `node` over a one-member band over a leaf: when node's last member scores better as the innermost
    loop (_member_scores), it moves below the other band. Returns the node at node's position."""
    if node.get_type() != isl.schedule_node_type.band or node.n_children() != 1:
        return node
    child = node.child(0)
    if child.get_type() != isl.schedule_node_type.band or child.band_n_member() != 1 or \
            child.child(0).get_type() != isl.schedule_node_type.leaf:
        return node
    n = node.band_n_member()
    last = _member_scores(node.band_get_partial_schedule(), strides)[n - 1]
    if last <= _member_scores(child.band_get_partial_schedule(), strides)[0]:
        return node
    coincident = node.band_member_get_coincident(n - 1)
    moving = node.band_split(n - 1).child(0) if n > 1 else node
    upa = moving.band_get_partial_schedule()
    below = moving.delete().child(0).insert_partial_schedule(upa).band_member_set_coincident(0, coincident)
    return below.parent().parent() if n > 1 else below.parent()


def _member_scores(mupa, strides) -> list:
    """Per band member of partial schedule `mupa`: +w for each access whose last subscript only it moves by
    +-1, -w for each access whose earlier subscript it moves (w: the number of iterators of the access)."""
    scores = []
    for i in range(mupa.dim(isl.dim_type.set)):
        score = 0
        for stmt, it in _member_iterators(mupa.get_union_pw_aff(i)).items():
            if it is None or it == CONSTANT:
                continue
            for subs in strides.get(stmt, []):
                if not subs:
                    continue
                weight = len({k for sub in subs for k in sub})
                if any(it in s for s in subs[:-1]):
                    score -= weight
                elif abs(subs[-1].get(it, 0)) == 1:
                    score += weight
        scores.append(score)
    return scores


def _best_innermost(node, strides) -> int:
    """The band member best as the innermost loop, scored per access: +w when the member moves only the last
    subscript by +-1, -w when it moves an earlier one, where w is the number of iterators the access depends on
    (a matrix walked by two loops streams more data than a vector walked by one, so gesummv's A[i][j] makes j
    innermost although tmp[i] moves with i); the current innermost member wins ties."""
    n = node.band_n_member()
    scores = _member_scores(node.band_get_partial_schedule(), strides)
    return max(range(n), key=lambda i: (scores[i], i))
