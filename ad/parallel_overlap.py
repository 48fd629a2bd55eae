"""Run-time overlap check for the reversal of a parallel loop (OpenMP ``parallel for``, a kernel launch differentiated
from host code): adjoints added without atomics must not race with another iteration's update of the same shadow
element through another pointer parameter.

`rules_reverse.injective_access` proves that no two iterations reach the same element through *one* pointer
parameter; distinct parameters may still point into one buffer (C allows ``product(n, x, x + n / 2, y)``; only
``restrict`` excludes it), and their shadows then overlap too. So a plain accumulation into the shadow of a
non-restrict parameter is guarded by an i1 computed just before the reversed loop: the shadow element ranges the
loop's plain accumulations touch (``[lb + c, ub + c)`` for an index ``iv + c`` of a one-dimensional loop) are
pairwise disjoint between distinct parameters; where it fails, or where a range is not of that form, or another
non-restrict parameter's shadow is updated atomically in the same loop, the accumulation is atomic (the same
adjoints, in some order). Byte ranges as in the polyhedral stage's alias checks (affine/alias_checks.py).
"""

from __future__ import annotations

from mlir import ir
from mlir.dialects import arith, memref

from .activity import all_ops, is_float


def single_parallel(op):
    """The only scf.parallel around primal op `op` (None when there is none or several)."""
    par, p = None, op.operation.parent
    while p is not None and p.operation.name != "func.func":
        if p.operation.name == "scf.parallel":
            if par is not None:
                return None
            par = p
        p = p.parent
    return par


def _argument_root(rv, load):
    """The primal's parameter whose memory primal memref.load `load` reads, when it is not ``restrict``; else
    None (an allocation, a restrict parameter or an unknown root: no other parameter reaches it)."""
    from .gpu_block import _is_restrict
    from .rules_reverse import _memory_root
    root = _memory_root(load.operands[0])
    entry = rv.primal.regions[0].blocks[0]
    if root is None or not isinstance(root.owner, ir.Block) or root.owner != entry or _is_restrict(rv, root):
        return None
    return root


def _state(rv, par):
    return rv.__dict__.setdefault("parallel_overlap", {}).setdefault(
        par.operation, {"flag": None, "plain": [], "atomic": set()})


def note_atomic(rv, load) -> None:
    """Record that the reversal of primal `load` adds to its shadow atomically (inside a parallel loop)."""
    par = single_parallel(load)
    root = _argument_root(rv, load) if par is not None else None
    if root is not None:
        _state(rv, par)["atomic"].add(root)


def plain_guard(rv, load, sh):
    """For the plain accumulation of primal `load`'s adjoint into shadow memref `sh` in a reversed parallel loop:
    None when nothing can overlap it (its root is an allocation or a restrict parameter), else an i1 value that
    says whether the plain update is safe (a placeholder until `finish` builds the check before the loop)."""
    par = single_parallel(load)
    root = _argument_root(rv, load) if par is not None else None
    if root is None:
        return None
    st = _state(rv, par)
    if st["flag"] is None:
        new = rv.reversed_parallel[par.operation]
        with ir.InsertionPoint(new), load.location:
            st["flag"] = arith.constant(ir.IntegerType.get_signless(1), 1)
    st["plain"].append((root, load, sh))
    return st["flag"]


def finish(rv, par, new) -> None:
    """Replace the placeholder of primal parallel loop `par` (reversed as `new`) by the check, built before `new`."""
    st = rv.__dict__.get("parallel_overlap", {}).pop(par.operation, None)
    if st is None or st["flag"] is None:
        return
    placeholder = st["flag"]
    roots = {r for r, _, _ in st["plain"]}
    st["atomic"] |= _other_updates(rv, par, roots)
    i1 = ir.IntegerType.get_signless(1)
    with ir.InsertionPoint(new), par.location:
        if st["atomic"] - roots:  # (another parameter's shadow updated atomically: it may be any element)
            flag = arith.constant(i1, 0)
        elif len(roots) == 1:  # (one parameter: injective_access already excludes collisions)
            flag = arith.constant(i1, 1)
        else:
            flag = _disjoint_ranges(rv, par, new, st["plain"])
    placeholder.replace_all_uses_with(flag)
    placeholder.owner.erase()


OTHER_UPDATES = ("llvm.load", "memref.atomic_rmw", "llvm.intr.memcpy", "llvm.intr.memmove", "func.call",
                 "llvm.call")


def _other_updates(rv, par, roots) -> set:
    """The non-restrict parameters with a shadow, other than `roots`, that the reversal of primal parallel loop
    `par` may update by other means than memref.load's rule (raw loads, atomics, copies, calls): their shadow
    elements are unknown, so they may meet a plain update."""
    from .gpu_block import _is_restrict
    from .prepare import memory_root
    entry = rv.primal.regions[0].blocks[0]
    out = set()
    for o in [par] + all_ops(par):
        if o.operation.name not in OTHER_UPDATES:
            continue
        for v in o.operands:
            if not (isinstance(v.type, ir.MemRefType) or str(v.type).startswith("!llvm.ptr")):
                continue
            for r in memory_root(v):
                if isinstance(r.owner, ir.Block) and r.owner == entry and r in rv.tmap and r not in roots and \
                        not _is_restrict(rv, r):
                    out.add(r)
    return out


def _disjoint_ranges(rv, par, new, plain):
    """i1: the byte ranges of the plain accumulations `plain` [(root, load, shadow)] are pairwise disjoint between
    distinct roots; false when some range is not of the form ``sh[iv + c]`` over a one-dimensional loop with `sh`
    defined before the loop."""
    i1, i64, idx_t = ir.IntegerType.get_signless(1), ir.IntegerType.get_signless(64), ir.IndexType.get()
    if len(list(new.regions[0].blocks[0].arguments)) != 1:
        return arith.constant(i1, 0)
    lb, ub = new.operands[0], new.operands[1]
    iv = par.regions[0].blocks[0].arguments[0]
    ranges = []
    for root, load, sh in plain:
        index = list(load.operands)[1:]
        c = _offset_from(index[0], iv) if len(index) == 1 else None
        mt = sh.type
        if c is None or not isinstance(mt, ir.MemRefType) or mt.rank != 1 or _inside(sh, new) or \
                not is_float(mt.element_type):
            return arith.constant(i1, 0)
        width = 8 if str(mt.element_type) == "f64" else 4 if str(mt.element_type) == "f32" else 2
        meta = memref.ExtractStridedMetadataOp(sh)
        base = arith.index_cast(i64, memref.ExtractAlignedPointerAsIndexOp(sh).result)
        offset, stride = meta.results[1], meta.results[3]
        first = arith.addi(offset, arith.muli(arith.addi(lb, arith.constant(idx_t, c)), stride))
        last = arith.addi(offset, arith.muli(arith.addi(arith.subi(ub, arith.constant(idx_t, 1)),
                                                        arith.constant(idx_t, c)), stride))
        lo_e, hi_e = arith.minsi(first, last), arith.maxsi(first, last)
        w = arith.constant(i64, width)
        lo = arith.addi(base, arith.muli(arith.index_cast(i64, lo_e), w))
        hi = arith.addi(base, arith.muli(arith.addi(arith.index_cast(i64, hi_e), arith.constant(i64, 1)), w))
        ranges.append((root, lo, hi))
    ok = arith.constant(i1, 1)
    for k, (ra, lo_a, hi_a) in enumerate(ranges):
        for rb, lo_b, hi_b in ranges[k + 1:]:
            if ra == rb:
                continue
            apart = arith.ori(arith.cmpi(arith.CmpIPredicate.ule, hi_a, lo_b),
                              arith.cmpi(arith.CmpIPredicate.ule, hi_b, lo_a))
            ok = arith.andi(ok, apart)
    # (an empty loop touches nothing: its ranges would be reversed)
    return arith.ori(ok, arith.cmpi(arith.CmpIPredicate.sle, ub, lb))


def _offset_from(v, iv):
    """c when index `v` is ``iv + c`` (c a constant, through integer casts), else None."""
    c = 0
    for _ in range(16):
        if v == iv:
            return c
        o = v.owner
        if isinstance(o, ir.Block):
            return None
        if o.name in ("arith.index_cast", "arith.index_castui", "arith.extsi", "arith.extui"):
            v = o.operands[0]
            continue
        if o.name in ("arith.addi", "arith.subi"):
            k = _constant(o.operands[1])
            if k is not None:
                c += k if o.name == "arith.addi" else -k
                v = o.operands[0]
                continue
            k = _constant(o.operands[0])
            if k is not None and o.name == "arith.addi":
                c += k
                v = o.operands[1]
                continue
        return None
    return None


def _constant(v):
    o = v.owner
    if isinstance(o, ir.Block) or o.name != "arith.constant":
        return None
    try:
        return ir.IntegerAttr(o.attributes["value"]).value
    except ValueError:
        return None


def _inside(v, op) -> bool:
    """Whether value `v` is defined inside op `op`'s regions."""
    o = v.owner
    p = o.owner if isinstance(o, ir.Block) else o
    p = p.operation if hasattr(p, "operation") else p
    while p is not None:
        if p == op.operation:
            return True
        p = p.parent
    return False
