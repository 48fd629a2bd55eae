"""Per-thread caches for pointer values held as memrefs, for barrier elimination (barrier_elimination.py).

A C pointer to numeric data is a memref (docs/memory_model.md), e.g. heartwall's
``fp *d_in = &d_unique[bx].d_T[d_unique[bx].in_pointer];`` computed before a ``__syncthreads()`` and used after
it. A memref cannot be stored in a memref of scalars, so the cache keeps its descriptor's parts: the aligned base
address (i64), the offset and every size and stride (index); reloading builds the same descriptor again
(``llvm.insertvalue`` + ``unrealized_conversion_cast``, the representation finalize-memref-to-llvm uses, as the
frontend's ``from_ptr`` does). Only pointers into storage that outlives the thread loop may be cached: a
pointer derived from a local array of the thread loop itself (an alloca inside it) would dangle after the split.
"""

from __future__ import annotations

from mlir import ir
from mlir.dialects import arith, llvm, memref

from .ir_nav import defined_inside

ALLOCAS = ("memref.alloca", "llvm.alloca", "memref.alloc")
LOADS = ("memref.load", "llvm.load", "affine.load")


class PointerCache:
    """Caches of one memref-typed per-thread value: `base` (i64 address) and `parts` (index: offset, sizes,
    strides), each a ``memref<dz x dy x dx x T>`` allocated by `new_scalar_cache`."""

    def __init__(self, mtype, base, parts):
        self.type, self.base, self.parts = mtype, base, parts


def is_cacheable_pointer(v, p) -> bool:
    """True when `v` is a ranked memref in the default memory space whose storage is not a local array of
    thread loop `p` (so its address stays valid in later thread loops of the same block)."""
    if not isinstance(v.type, ir.MemRefType):
        return False
    mt = ir.MemRefType(v.type)
    if mt.rank == 0 or mt.memory_space is not None:
        return False
    work, seen = [v], set()
    while work:
        w = work.pop()
        if w in seen or isinstance(w.owner, ir.Block):
            continue
        seen.add(w)
        op = w.owner
        if op.name in ALLOCAS and defined_inside(w, p):
            return False
        if op.name not in LOADS:
            work += list(op.operands)
    return True


def new_pointer_cache(mtype, new_scalar_cache) -> PointerCache:
    """A PointerCache for values of memref type `mtype`; `new_scalar_cache(ty)` allocates one scalar cache."""
    rank = ir.MemRefType(mtype).rank
    i64, idx = ir.IntegerType.get_signless(64), ir.IndexType.get()
    return PointerCache(mtype, new_scalar_cache(i64), [new_scalar_cache(idx) for _ in range(1 + 2 * rank)])


def store_pointer(v, cache: PointerCache, ids) -> None:
    """Store memref `v`'s descriptor parts at subscript `ids` of `cache` (at the current insertion point)."""
    rank = ir.MemRefType(v.type).rank
    i64 = ir.IntegerType.get_signless(64)
    base = arith.index_cast(i64, memref.ExtractAlignedPointerAsIndexOp(v).result)
    meta = memref.ExtractStridedMetadataOp(v)
    memref.StoreOp(base, cache.base, ids)
    for part, c in zip(list(meta.results)[1:2 + 2 * rank], cache.parts):
        memref.StoreOp(part, c, ids)


def load_pointer(cache: PointerCache, ids):
    """The memref stored at subscript `ids` of `cache`, rebuilt from its parts."""
    parts = [memref.LoadOp(c, ids).result for c in cache.parts]
    return build_pointer(cache.type, memref.LoadOp(cache.base, ids).result, parts)


def null_pointer(mtype):
    """A placeholder memref of type `mtype` (null base, zero extents): the real value lives in a cache."""
    i64 = ir.IntegerType.get_signless(64)
    zero = arith.constant(ir.IndexType.get(), 0)
    rank = ir.MemRefType(mtype).rank
    return build_pointer(mtype, arith.constant(i64, 0), [zero] * (1 + 2 * rank))


def build_pointer(mtype, base_i64, parts):
    """A memref of type `mtype` whose allocated and aligned pointers are `base_i64` (i64), with offset, sizes
    and strides `parts` (index, in that order)."""
    rank = ir.MemRefType(mtype).rank
    i64 = ir.IntegerType.get_signless(64)
    st = ir.Type.parse(f"!llvm.struct<(ptr, ptr, i64, array<{rank} x i64>, array<{rank} x i64>)>")
    ptr = llvm.IntToPtrOp(ir.Type.parse("!llvm.ptr"), base_i64).result
    vals = [arith.index_cast(i64, x) for x in parts]
    s = llvm.UndefOp(st).result
    s = llvm.InsertValueOp(s, ptr, [0]).result
    s = llvm.InsertValueOp(s, ptr, [1]).result
    s = llvm.InsertValueOp(s, vals[0], [2]).result
    for i in range(rank):
        s = llvm.InsertValueOp(s, vals[1 + i], [3, i]).result
        s = llvm.InsertValueOp(s, vals[1 + rank + i], [4, i]).result
    return ir.Operation.create("builtin.unrealized_conversion_cast", [mtype], [s]).result
