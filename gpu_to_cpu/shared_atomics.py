"""Atomics on __shared__ memory -> plain read-modify-write (a `--cpuify` optimization after serialization).

Guarantees: every ``memref.atomic_rmw`` / ``memref.generic_atomic_rmw`` whose memref is a block's __shared__
allocation (an ``alloca {pgcc.shared}`` or the launch's dynamic shared buffer, possibly through views and casts)
becomes ``load; op; store`` with the old value as its result. This is exact because after
serialize_threads.py a block's threads run one after the other inside one iteration of the OpenMP block loop,
and shared memory is allocated per block iteration, so no other CPU thread can see it (Polygeist, PPoPP'23,
runs blocks, not threads, in parallel for the same reason). Atomics on global memory stay atomic.
"""

from __future__ import annotations

from mlir import ir
from mlir.dialects import arith, memref

from .ir_nav import collect
from .launch_to_loops import DYNAMIC_SHARED, SHARED, is_block_loop, is_thread_loop

# arith.AtomicRMWKind name -> arith op combining (old, value); "assign" keeps the value
COMBINE = {
    "addf": arith.addf, "addi": arith.addi, "mulf": arith.mulf, "muli": arith.muli,
    "maxs": arith.maxsi, "maxu": arith.maxui, "mins": arith.minsi, "minu": arith.minui,
    "maxnumf": arith.maxnumf, "minnumf": arith.minnumf, "maximumf": arith.maximumf, "minimumf": arith.minimumf,
    "andi": arith.andi, "ori": arith.ori, "xori": arith.xori, "assign": None,
}
VIEWS = ("memref.view", "memref.cast", "memref.subview", "memref.reinterpret_cast")


def privatize_shared_atomics(module: ir.Module) -> None:
    """Rewrite the atomics on __shared__ memory in every block loop of `module` as plain loads and stores (in
    place). Must run after serialize_threads.py (thread loops must be serial); raises nothing."""
    for blocks in collect(module.operation, is_block_loop):
        if collect(blocks, is_thread_loop):
            continue  # not serialized yet: leave the atomics alone
        for op in collect(blocks, lambda o: o.name in ("memref.atomic_rmw", "memref.generic_atomic_rmw")):
            mem = op.operands[1] if op.name == "memref.atomic_rmw" else op.operands[0]
            if _is_shared(mem):
                _to_plain(op)


def _is_shared(v) -> bool:
    """True when memref value `v` is (a view or cast of) a per-block __shared__ allocation."""
    while True:
        owner = v.owner
        if isinstance(owner, ir.Block):
            return False
        if SHARED in owner.attributes or DYNAMIC_SHARED in owner.attributes:
            return True
        if owner.name not in VIEWS:
            return False
        v = owner.operands[0]


def _to_plain(op) -> None:
    with op.location, ir.InsertionPoint(op):
        if op.name == "memref.atomic_rmw":
            value, mem, idx = op.operands[0], op.operands[1], list(op.operands)[2:]
            kind = arith.AtomicRMWKind(ir.IntegerAttr(op.attributes["kind"]).value).name
            if kind not in COMBINE:
                return
            old = memref.load(mem, idx)
            new = value if COMBINE[kind] is None else COMBINE[kind](old, value)
        else:
            mem, idx = op.operands[0], list(op.operands)[1:]
            old = memref.load(mem, idx)
            body = op.regions[0].blocks[0]
            mapping = {body.arguments[0]: old}
            new = None
            for inner in body.operations:
                if inner.name == "memref.atomic_yield":
                    new = mapping.get(inner.operands[0], inner.operands[0])
                    break
                clone = inner.clone()
                for i, o in enumerate(inner.operands):
                    if o in mapping:
                        clone.operands[i] = mapping[o]
                for r, c in zip(inner.results, clone.results):
                    mapping[r] = c
        memref.store(new, mem, idx)
    op.results[0].replace_all_uses_with(old)
    op.erase()
