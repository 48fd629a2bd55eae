"""gpu.launch -> a parallel loop over blocks around a serial loop nest over threads (`--cpuify`).

Guarantees: every ``gpu.launch { func.call @k(args) }`` becomes

    scf.parallel (bx, by, bz) = (0, 0, 0) to (gx, gy, gz) {      // OpenMP-parallel over blocks
      scf.for tz, ty, tx (tx innermost: consecutive threads touch consecutive data)
        func.call @k(args, block ids, thread ids, grid dims, block dims)
    }

and every function that reads ``gpu.thread_id``/``block_id``/``block_dim``/``grid_dim`` (kernels and the
``__device__`` functions they call) receives those twelve values as trailing ``index`` arguments instead.
Running the threads of a block one after another is exact for kernels without barriers; kernels with
``__syncthreads`` are rejected by the frontend until barrier elimination exists (Polygeist, PPoPP'23).
"""

from __future__ import annotations

from mlir import ir
from mlir.dialects import arith, func, scf

ID_OPS = ("gpu.block_id", "gpu.thread_id", "gpu.grid_dim", "gpu.block_dim")
ID_ORDER = [(op, d) for op in ID_OPS for d in "xyz"]  # the order of the twelve extra arguments


def _walk(op, fn):
    for region in op.regions:
        for block in region.blocks:
            for inner in block.operations:
                fn(inner)
                _walk(inner, fn)


def _functions(module):
    return {f.attributes["sym_name"].value: f for f in module.body.operations if f.operation.name == "func.func"}


def _inside_launch(op) -> bool:
    p = op.parent
    while p is not None:
        if p.name == "gpu.launch":
            return True
        if p.name == "func.func":
            return False
        p = p.parent
    return False


def _dim(op) -> str:
    return str(op.attributes["dimension"]).split()[-1].rstrip(">")


def cpuify(module: ir.Module) -> None:
    """Rewrite every kernel launch in `module` into loops (in place); see the module docstring."""
    funcs = _functions(module)
    uses_ids = set()
    callers: dict[str, set] = {}

    for name, f in funcs.items():
        def visit(op, name=name):
            if op.name in ID_OPS:
                uses_ids.add(name)
            elif op.name == "func.call" and not _inside_launch(op):
                callers.setdefault(op.attributes["callee"].value, set()).add(name)
        _walk(f.operation, visit)
    # callers of id-using functions need the ids too (a kernel calling a __device__ function that reads them)
    work = list(uses_ids)
    while work:
        callee = work.pop()
        for caller in callers.get(callee, ()):
            if caller not in uses_ids:
                uses_ids.add(caller)
                work.append(caller)
    idx = ir.IndexType.get()
    for name in uses_ids:
        _add_id_arguments(funcs[name], uses_ids)
    launches = []
    for f in funcs.values():
        _walk(f.operation, lambda op: launches.append(op) if op.name == "gpu.launch" else None)
    for launch in launches:
        _launch_to_loops(launch, uses_ids, idx)


def _add_id_arguments(f, uses_ids):
    idx = ir.IndexType.get()
    entry = f.regions[0].blocks[0]
    loc = f.location
    args = [entry.add_argument(idx, loc) for _ in ID_ORDER]
    ftype = ir.FunctionType(ir.TypeAttr(f.attributes["function_type"]).value)
    f.attributes["function_type"] = ir.TypeAttr.get(ir.FunctionType.get(list(ftype.inputs) + [idx] * len(ID_ORDER),
                                                                         list(ftype.results)))
    found = []
    _walk(f, lambda op: found.append(op) if op.name in ID_OPS or op.name == "func.call" else None)
    for op in found:
        if op.name in ID_OPS:
            op.results[0].replace_all_uses_with(args[ID_ORDER.index((op.name, _dim(op)))])
            op.erase()
        elif op.attributes["callee"].value in uses_ids:
            _extend_call(op, args)


def _extend_call(call, extra):
    with call.location, ir.InsertionPoint(call):
        new = func.CallOp([r.type for r in call.results], call.attributes["callee"], list(call.operands) + list(extra))
    for old_r, new_r in zip(call.results, new.results):
        old_r.replace_all_uses_with(new_r)
    call.erase()


def _launch_to_loops(launch, uses_ids, idx):
    ops = list(launch.operands)
    grid, block = ops[0:3], ops[3:6]
    body = launch.regions[0].blocks[0]
    with launch.location, ir.InsertionPoint(launch):
        zero = arith.constant(idx, 0)
        one = arith.constant(idx, 1)
        par = scf.ParallelOp([], [zero] * 3, grid, [one] * 3, [])
        pblock = par.regions[0].blocks.append(idx, idx, idx)
        with ir.InsertionPoint(pblock):
            loops = []
            ip = ir.InsertionPoint(pblock)
            for extent in (block[2], block[1], block[0]):  # tz, ty, tx: x innermost
                with ip:
                    loop = scf.ForOp(zero, extent, one)
                loops.append(loop)
                ip = ir.InsertionPoint(loop.body)
            for loop in loops:
                with ir.InsertionPoint(loop.body):
                    scf.YieldOp([])
            ir.Operation.create("scf.reduce", [], [])
        innermost = loops[-1].body
        term = list(innermost.operations)[-1]
        tids = [loops[2].induction_variable, loops[1].induction_variable, loops[0].induction_variable]
        ids = list(pblock.arguments) + tids + list(grid) + list(block)
        for op in list(body.operations):
            if op.name != "gpu.terminator":
                op.move_before(term)
        for op in list(innermost.operations):
            if op.name == "func.call" and op.attributes["callee"].value in uses_ids:
                _extend_call(op, ids)
            elif op.name in ID_OPS:  # ids read directly in the launch body
                op.results[0].replace_all_uses_with(ids[ID_ORDER.index((op.name, _dim(op)))])
                op.erase()
    launch.erase()
