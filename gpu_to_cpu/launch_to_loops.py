"""gpu.launch -> a parallel loop over blocks around a parallel loop over threads, kernels inlined (`--cpuify`).

Guarantees: every ``gpu.launch { func.call @k(args) }`` becomes

    scf.parallel (bx, by, bz) = (0, 0, 0) to (gx, gy, gz) {pgcc.blocks}   // OpenMP-parallel over blocks
      [__shared__ allocations of the kernel, once per block]
      scf.parallel (tx, ty, tz) = (0, 0, 0) to (dx, dy, dz) {pgcc.threads}
        <body of @k and of the __device__ functions it calls, inlined>

with every ``gpu.block_id``/``thread_id``/``grid_dim``/``block_dim`` replaced by the loops' induction variables
and bounds. Kernels and device functions are inlined with upstream's `inline` pass (host calls are marked
``no_inline``); their affine ops are lowered first, because values computed from thread ids inside a loop are
no longer valid affine symbols. The thread loop still contains ``gpu.barrier`` ops: barrier_elimination.py
removes them, then serialize_threads.py turns each thread loop into a serial loop nest (Polygeist, PPoPP'23).
"""

from __future__ import annotations

from mlir import ir
from mlir.dialects import arith, func, memref, scf
from mlir.passmanager import PassManager

from polygeist_py.errors import error_at_op
from polygeist_py.frontend.c_types import byte_width

from .ir_nav import collect, enclosing, loop_bounds

ID_OPS = ("gpu.block_id", "gpu.thread_id", "gpu.grid_dim", "gpu.block_dim")
BLOCKS, THREADS, SHARED = "pgcc.blocks", "pgcc.threads", "pgcc.shared"
DYNAMIC_SHARED = "__pgcc_dynamic_shared_"


def functions(module) -> dict:
    return {f.attributes["sym_name"].value: f for f in module.body.operations if f.operation.name == "func.func"}


def _callee(op) -> str:
    return op.attributes["callee"].value


def device_functions(module, funcs) -> set:
    """Kernels launched anywhere and every function they call, transitively."""
    launched = {_callee(c) for launch in collect(module.operation, lambda o: o.name == "gpu.launch")
                for c in collect(launch, lambda o: o.name == "func.call")}
    device, work = set(), list(launched)
    while work:
        name = work.pop()
        if name in device or name not in funcs:
            continue
        device.add(name)
        work += [_callee(c) for c in collect(funcs[name], lambda o: o.name == "func.call")]
    return device


def launches_to_loops(module: ir.Module) -> None:
    """Rewrite every kernel launch in `module` into block and thread loops with the kernel inlined (in place).

    Raises:
        CompileError: a kernel or device function that could not be inlined (recursion) uses thread ids or
            barriers.
    """
    funcs = functions(module)
    device = device_functions(module, funcs)
    for name in device:
        if funcs[name].regions[0].blocks:
            PassManager.parse("func.func(lower-affine)").run(funcs[name].operation)
    for name, f in funcs.items():
        if name not in device:
            for call in collect(f, lambda o: o.name == "func.call"):
                if not _in_launch(call):
                    call.attributes["no_inline"] = ir.UnitAttr.get()
    for launch in collect(module.operation, lambda o: o.name == "gpu.launch"):
        _launch_to_loops(launch)
    PassManager.parse("builtin.module(inline{default-pipeline=})").run(module.operation)
    for call in collect(module.operation, lambda o: o.name == "func.call" and "no_inline" in o.attributes):
        del call.attributes["no_inline"]  # host calls stay inlinable for LLVM
    for blocks in collect(module.operation, is_block_loop):
        _bind_ids(blocks)
        _allocate_shared(blocks)
        if collect(blocks, lambda o: o.name == "func.call" and _callee(o) == GRID_BARRIER):
            _run_blocks_together(module, blocks)
    _erase_device_functions(module, device)


def _in_launch(op) -> bool:
    return enclosing(op, lambda p: p.name == "gpu.launch") is not None


def parallel_loop(lbs, ubs, steps, attr: str):
    """An empty scf.parallel at the current insertion point, marked with `attr`; returns (op, body block)."""
    idx = ir.IndexType.get()
    par = scf.ParallelOp([], lbs, ubs, steps, [])
    par.attributes[attr] = ir.UnitAttr.get()
    body = par.regions[0].blocks.append(*[idx] * len(lbs))
    with ir.InsertionPoint(body):
        ir.Operation.create("scf.reduce", [], [])
    return par, body


def _launch_to_loops(launch) -> None:
    ops = list(launch.operands)
    grid, block = ops[0:3], ops[3:6]
    shared_bytes = ops[6] if len(ops) > 6 else None
    body = launch.regions[0].blocks[0]
    idx = ir.IndexType.get()
    with launch.location, ir.InsertionPoint(launch):
        zero, one = arith.constant(idx, 0), arith.constant(idx, 1)
        blocks, bbody = parallel_loop([zero] * 3, grid, [one] * 3, BLOCKS)
        with ir.InsertionPoint(list(bbody.operations)[0]):
            if shared_bytes is not None:
                bytes_type = ir.MemRefType.get([ir.ShapedType.get_dynamic_size()], ir.IntegerType.get_signless(8))
                buf = memref.AllocaOp(bytes_type, [arith.index_castui(idx, shared_bytes)], [])
                buf.attributes[DYNAMIC_SHARED] = ir.UnitAttr.get()
            threads, tbody = parallel_loop([zero] * 3, block, [one] * 3, THREADS)
    term = list(tbody.operations)[-1]
    for op in list(body.operations):
        if op.name != "gpu.terminator":
            op.move_before(term)
    launch.erase()


GRID_BARRIER = "__pgcc_grid_barrier"  # cooperative groups' grid sync (cooperative_groups.h), in pgcc's runtime
COOPERATIVE = ("__pgcc_cooperative_begin", "__pgcc_cooperative_end")


def _run_blocks_together(module, blocks) -> None:
    """A kernel that synchronizes its grid (`this_grid().sync()`: a call of @__pgcc_grid_barrier by one thread
    of each block between two block barriers) needs all its blocks running at once, as a cooperative launch
    guarantees on a GPU: bracket block loop `blocks` with @__pgcc_cooperative_begin(number of blocks), which
    asks OpenMP for one thread per block, and @__pgcc_cooperative_end() (pgcc's CUDA runtime).

    Every block then runs on a thread of its own and the grid barrier is a real barrier among those threads;
    within a block, barrier elimination splits the thread loop at the block barriers around it as at any
    __syncthreads(). (Splitting the block loop at the grid barrier instead would keep every thread's live
    values and every block's shared memory for the whole grid between phases, and would need the loops around
    the barrier moved out of the block loop; real threads need neither.)"""
    i64 = ir.IntegerType.get_signless(64)
    for name, args in zip(COOPERATIVE, ([i64], [])):
        if not any(op.operation.name == "func.func" and op.attributes["sym_name"].value == name
                   for op in module.body.operations):
            with ir.Location.unknown(), ir.InsertionPoint(module.body):
                func.FuncOp(name, ir.FunctionType.get(args, []), visibility="private")
    grid = loop_bounds(blocks)[1]
    with blocks.location, ir.InsertionPoint(blocks):
        n = arith.muli(arith.muli(grid[0], grid[1]), grid[2])
        func.CallOp([], ir.FlatSymbolRefAttr.get(COOPERATIVE[0]), [arith.index_cast(i64, n)])
    with blocks.location, ir.InsertionPoint.after(blocks):
        func.CallOp([], ir.FlatSymbolRefAttr.get(COOPERATIVE[1]), [])


def _bind_ids(blocks) -> None:
    """Replace the gpu id ops inside a block loop with induction variables and bounds."""
    bargs = list(blocks.regions[0].blocks[0].arguments)
    grid = loop_bounds(blocks)[1]
    for op in collect(blocks, lambda o: o.name in ID_OPS):
        d = "xyz".index(str(op.attributes["dimension"]).split()[-1].rstrip(">"))
        if op.name == "gpu.block_id":
            v = bargs[d]
        elif op.name == "gpu.grid_dim":
            v = grid[d]
        else:
            threads = enclosing(op, is_thread_loop)
            v = (threads.regions[0].blocks[0].arguments[d] if op.name == "gpu.thread_id"
                 else loop_bounds(threads)[1][d])
        op.results[0].replace_all_uses_with(v)
        op.erase()


def is_thread_loop(op) -> bool:
    return op.name == "scf.parallel" and THREADS in op.attributes


def is_block_loop(op) -> bool:
    return op.name == "scf.parallel" and BLOCKS in op.attributes


def _allocate_shared(blocks) -> None:
    """Move __shared__ allocations out of the thread loop (one per block); bind extern __shared__ arrays to the
    launch's dynamic shared memory."""
    bbody = blocks.regions[0].blocks[0]
    first = list(bbody.operations)[0]
    dynamic = next((o for o in bbody.operations if DYNAMIC_SHARED in o.attributes), None)
    for op in collect(blocks, lambda o: o.name == "memref.alloca" and SHARED in o.attributes):
        op.move_before(first)
    for call in collect(blocks, lambda o: o.name == "func.call" and _callee(o).startswith(DYNAMIC_SHARED)):
        if dynamic is None:
            raise error_at_op(call, "extern __shared__ array in a kernel launched without a dynamic shared "
                                    "memory size (the third <<<>>> argument)")
        mtype = ir.MemRefType(call.results[0].type)
        width = byte_width(mtype.element_type)
        with call.location, ir.InsertionPoint(call):
            idx = ir.IndexType.get()
            c0 = arith.constant(idx, 0)
            nbytes = memref.dim(dynamic.results[0], c0)
            view = memref.view(mtype, dynamic.results[0], c0, [arith.divui(nbytes, arith.constant(idx, width))])
        call.results[0].replace_all_uses_with(view)
        call.erase()


def _erase_device_functions(module, device) -> None:
    """Kernels and device functions were inlined; keep only those host code still calls or whose address is still
    taken (a function pointer passed to a device function: func.constant), which must not use ids."""
    called = {_callee(c) for c in collect(module.operation, lambda o: o.name == "func.call")}
    addressed = {ir.FlatSymbolRefAttr(c.attributes["value"]).value
                 for c in collect(module.operation, lambda o: o.name == "func.constant")}
    for name, f in functions(module).items():
        if name in device and name not in called and name not in addressed:
            f.operation.erase()
        elif name in device and f.regions[0].blocks:
            bad = collect(f, lambda o: o.name in ID_OPS or o.name == "gpu.barrier" or SHARED in o.attributes)
            if bad:
                what = "recursive __device__ function" if name in called else \
                    "__device__ function called through a function pointer"
                raise error_at_op(bad[0], f"unsupported construct: a {what} that uses thread ids, barriers or "
                                          "shared memory")
    for name, f in functions(module).items():
        if name.startswith(DYNAMIC_SHARED):
            f.operation.erase()
