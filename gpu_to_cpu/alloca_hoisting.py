"""Stack objects of a kernel are allocated once per block, not once per thread (the last step of `--cpuify`).

Inlining a kernel (and the device functions it calls) into the thread loop puts their stack objects (the
`memref.alloca` of a local array, the `llvm.alloca` of a struct temporary) inside that loop, and often inside
loops of the kernel too. An alloca inside a loop is a dynamic stack allocation that lasts until the function
returns: a grid of 100,000 blocks of 256 threads with a 64-byte local array moved the stack pointer by 1.6 GB
and crashed. Once barriers are eliminated and the thread loops are serial (serialize_threads.py), each
thread's objects are dead when its iteration ends (C's block scope; a value live across a barrier has
already been moved to a per-thread cache or rejected), so every fixed-size alloca inside a block loop whose
address is only dereferenced moves to the top of the block loop's body: one object per block, reused by its
threads in turn. An object whose address is kept (a struct local live across a barrier: barrier elimination
passes each thread's address through a per-thread cache) stays where it is. Allocated there,
they are static allocas of the function OpenMP outlines for the block loop, which LLVM's SROA promotes to
registers (clang allocates every local in the entry block for the same reason).
"""

from __future__ import annotations

from mlir import ir
from mlir.dialects import llvm

from .ir_nav import collect, defined_inside
from .launch_to_loops import is_block_loop

ALLOCAS = ("memref.alloca", "llvm.alloca")
CONSTANTS = ("arith.constant", "llvm.mlir.constant")


def hoist_allocas_to_blocks(module: ir.Module) -> int:
    """Move the fixed-size allocas nested in each block loop of `module` (in place) to the top of its body.

    Returns:
        The number of allocas moved.
    """
    moved = 0
    for blocks in collect(module.operation, is_block_loop):
        body = blocks.regions[0].blocks[0]
        top = list(body.operations)[0]
        inner = [op for op in collect(blocks, lambda o: o.name in ALLOCAS)
                 if op.operation.parent.operation != blocks.operation]
        for op in inner:
            sizes = list(op.operands)
            if not all(not defined_inside(v, blocks) or _constant(v) for v in sizes):
                continue  # a variable-length array: its size is known only where it is declared
            if not _accessed_only(op.results[0]):
                continue  # its address is kept somewhere (a per-thread pointer cache across a barrier)
            with ir.InsertionPoint(top):
                for i, v in enumerate(sizes):
                    if defined_inside(v, blocks):
                        op.operands[i] = v.owner.clone().results[0]
            op.move_before(top)
            moved += 1
    return moved


def privatize_kept_allocas(module: ir.Module) -> int:
    """Give each thread its own slot of a per-block array for the fixed-size `llvm.alloca`s of a thread loop
    whose address is kept (a struct local live across a barrier, whose address barrier elimination passes
    through a per-thread pointer cache); runs before serialize_threads.py, on the thread loops
    (`scf.parallel {pgcc.threads}`).

    Left inside the serialized thread loop, such an alloca is a new stack object per iteration only until LLVM's
    loop vectorizer treats it as uniform: one object for 8 threads (a warp reduction of a `__half` went wrong
    that way). Raw bytes `memref<dz x dy x dx x n x i8>` allocated at the top of the block loop (as the
    per-thread caches are) give thread (tz, ty, tx) the address of its own n bytes.

    Returns:
        The number of allocas privatized.
    """
    from mlir.dialects import arith, memref

    from .ir_nav import enclosing, loop_bounds
    from .launch_to_loops import is_thread_loop

    done = 0
    i8, i64, index = ir.IntegerType.get_signless(8), ir.IntegerType.get_signless(64), ir.IndexType.get()
    for threads in collect(module.operation, is_thread_loop):
        blocks = enclosing(threads, is_block_loop)
        if blocks is None:
            continue
        lbs, ubs, steps = loop_bounds(threads)
        if not all(_constant_value(v) == 0 for v in lbs) or not all(_constant_value(v) == 1 for v in steps) or \
                any(defined_inside(v, blocks) and not _constant(v) for v in ubs):
            continue
        for op in collect(threads, lambda o: o.name == "llvm.alloca"):
            if enclosing(op, is_thread_loop) != threads or _accessed_only(op.results[0]):
                continue
            count = _constant_value(op.operands[0])
            if count is None or ir.TypeAttr(op.attributes["elem_type"]).value != i8:
                continue  # (pgcc's struct objects are bytes)
            align = ir.IntegerAttr(op.attributes["alignment"]).value if "alignment" in op.attributes else 16
            first = list(blocks.regions[0].blocks[0].operations)[0]
            with op.location, ir.InsertionPoint(first):
                sizes = [_top_value(v, blocks) for v in reversed(ubs)]
                buf = memref.AllocaOp(ir.MemRefType.get([ir.ShapedType.get_dynamic_size()] * len(sizes) + [count],
                                                        i8), sizes, [], alignment=max(align, 16)).result
            with op.location, ir.InsertionPoint(op):
                base = memref.ExtractAlignedPointerAsIndexOp(buf).result
                args = list(threads.regions[0].blocks[0].arguments)  # (tx, ty, tz)
                linear = args[-1]
                for d in range(len(args) - 2, -1, -1):
                    linear = arith.addi(arith.muli(linear, ubs[d]), args[d])
                addr = arith.addi(base, arith.muli(linear, arith.constant(index, count)))
                ptr = llvm.IntToPtrOp(op.results[0].type, arith.index_cast(i64, addr)).result
            op.results[0].replace_all_uses_with(ptr)
            op.erase()
            done += 1
    return done


def _constant_value(v):
    """The integer value of constant `v` (arith/llvm constant), else None."""
    if isinstance(v.owner, ir.Block) or v.owner.name not in CONSTANTS:
        return None
    attr = v.owner.attributes["value"]
    return ir.IntegerAttr(attr).value if isinstance(attr, ir.IntegerAttr) else None


def _top_value(v, blocks):
    """Thread-loop bound `v` usable at the top of block loop `blocks` (the insertion point): a constant defined
    inside the block loop is cloned there; other bounds are defined outside it."""
    if _constant(v) and defined_inside(v, blocks):
        return v.owner.clone().results[0]
    return v


# uses through which an address is only dereferenced (or offset and then dereferenced); any other use (a store
# of the address itself, ptrtoint into a per-thread cache, a call) may keep it beyond the thread's iteration
DEREFERENCES = {"llvm.load", "memref.load", "affine.load", "memref.store", "affine.store", "llvm.intr.memcpy",
                "llvm.intr.memmove", "llvm.intr.memset", "memref.atomic_rmw", "memref.generic_atomic_rmw",
                "memref.dim", "memref.prefetch", "affine.prefetch", "affine.vector_load", "affine.vector_store",
                "vector.load", "vector.store", "vector.transfer_read", "vector.transfer_write"}
VIEWS = {"llvm.getelementptr", "memref.subview", "memref.reinterpret_cast", "memref.cast", "memref.view"}
# conversions that carry the address on as another value: a local array passed to an inlined device function
# arrives there as a raw pointer (aligned pointer -> index -> i64 -> llvm.ptr -> a new memref descriptor)
CARRIERS = {"memref.extract_aligned_pointer_as_index", "memref.extract_strided_metadata", "arith.index_cast",
            "arith.index_castui", "arith.addi", "llvm.inttoptr", "llvm.ptrtoint", "llvm.insertvalue",
            "llvm.extractvalue", "builtin.unrealized_conversion_cast",
            "arith.muli"}  # (a view's offset in bytes, from extract_strided_metadata, added to its base)


def _accessed_only(address) -> bool:
    """Whether every use of `address` (through GEPs, memref views and the conversions of CARRIERS) reads or
    writes the memory it designates, never storing the address itself or passing it anywhere else."""
    todo = [address]
    while todo:
        v = todo.pop()
        for use in v.uses:
            user = use.owner
            kind = user.operation.name
            if kind in VIEWS and use.operand_number == 0 or kind in CARRIERS:
                todo.extend(user.results)
            elif kind == "llvm.store" and use.operand_number == 0:
                return False  # the address is the stored value
            elif kind in ("memref.store", "affine.store") and use.operand_number == 0:
                return False
            elif kind in ("func.call", "llvm.call") and _library_call(user):
                continue  # `sincosf(x, &s, &c)`: the C library writes through the address and keeps nothing
            elif kind not in DEREFERENCES:
                return False
    return True


def _library_call(call) -> bool:
    """Whether `call` calls a function the module only declares (the C library's, as `sincosf`): it gets no
    per-thread pointer cache of barrier elimination, and a local passed to it is dead when the thread's
    iteration ends, as any local (a function that kept the address would be read after its block ended)."""
    callee = call.attributes["callee"] if "callee" in call.attributes else None
    if callee is None:
        return False  # (an indirect call)
    name = ir.FlatSymbolRefAttr(callee).value
    op = call.operation
    while op.parent is not None:
        op = op.parent
    for f in op.regions[0].blocks[0].operations:
        if f.operation.name in ("func.func", "llvm.func") and "sym_name" in f.attributes \
                and ir.StringAttr(f.attributes["sym_name"]).value == name:
            return len(f.regions[0].blocks) == 0
    return False


def _constant(v) -> bool:
    return not isinstance(v.owner, ir.Block) and v.owner.name in CONSTANTS
