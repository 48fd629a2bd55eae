"""Inline PTX assembly in CUDA device code (`asm("mov.u32 %0, %%laneid;" : "=r"(lane))`).

Device code runs on the CPU under --cpuify, so a PTX template cannot go to the assembler. The reads of the
special registers that programs use to learn their place in the warp are given their meaning for the warp of 32
consecutive threads (by linear thread index in the block) that pgcc's warp intrinsics use: `%laneid`, `%warpid`
(the warp's index in the block) and the lane masks `%lanemask_lt/le/eq/ge/gt`, read with `mov.u32`/`mov.s32`/
`mov.b32` into the one output. The clocks and the processor id have host meanings from pgcc's runtime library:
`%globaltimer` (u64 nanoseconds of the real-time clock; `_lo`/`_hi` its 32-bit halves), `%clock64`/`%clock`
(clock64()'s counter), `%smid` (the host processor the calling thread runs on, below `%nsmid`, which is the
online processor count that cudaGetDeviceProperties reports as multiProcessorCount). A register is named with
`%%` or, as nvcc also takes in a template without operand references to it, one `%`. Two more have a CPU
meaning: a prefetch (`prefetch.global.L2 [%0];`) does nothing
a program can observe, and a memory barrier (`membar.gl;`, `membar.cta;`, `membar.sys;`, `fence.sc.gpu;`...)
is a sequentially consistent fence, as __threadfence() is. Any other PTX (arithmetic, loads, `mma`,
`ld.matrix`...) is the error "unsupported construct: inline PTX assembly '<instruction>' in device code" at the
asm statement.
"""

from __future__ import annotations

import re

from mlir import ir
from mlir.dialects import arith, llvm

_PREFETCH = re.compile(r"^prefetchu?(?:\.global|\.local)?\.(?:L1|L2)(?:::evict_(?:last|normal))?\s+\[%0\]\s*;?$")
_FENCE = re.compile(r"^(?:membar\.(?:cta|gl|sys)|fence(?:\.(?:sc|acq_rel))?\.(?:cta|gpu|sys))\s*;?$")
_SPECIAL_READ = re.compile(r"^mov\.(?:u32|s32|b32)\s+%0\s*,\s*%%?(laneid|warpid|lanemask_(?:lt|le|eq|ge|gt)|smid|nsmid|"
                           r"clock|globaltimer_lo|globaltimer_hi)\s*;?$")
_SPECIAL_READ64 = re.compile(r"^mov\.(?:u64|s64|b64)\s+%0\s*,\s*%%?(globaltimer|clock64)\s*;?$")
# registers read through a call of pgcc's runtime library (runtime/pgcc_cuda_runtime.c): (function, bits)
_RUNTIME_REGISTERS = {"globaltimer": ("__pgcc_device_globaltimer", 64), "clock64": ("__pgcc_device_clock", 64),
                      "smid": ("__pgcc_device_smid", 32), "nsmid": ("__pgcc_device_nsmid", 32)}


def _lane_and_warp(fg):
    """(lane, warp) of the calling thread as i32: its linear index in the block modulo 32 and divided by 32."""
    ids = {(n, c): fg.gpu_id(n, c) for n in ("threadIdx", "blockDim") for c in "xyz"}
    tid = arith.addi(ids["threadIdx", "x"], arith.muli(ids["blockDim", "x"], arith.addi(
        ids["threadIdx", "y"], arith.muli(ids["blockDim", "y"], ids["threadIdx", "z"]))))
    i32 = ir.IntegerType.get_signless(32)
    return (arith.andi(tid, arith.constant(i32, 31)), arith.shrui(tid, arith.constant(i32, 5)))


def _runtime_register(fg, name: str):
    """The value (i64 or i32) of special register `name` read by a call of its runtime function."""
    from mlir.dialects import func
    fname, bits = _RUNTIME_REGISTERS[name]
    ty = ir.IntegerType.get_signless(bits)
    if fname not in fg.mg.functions:
        with ir.Location.unknown(), ir.InsertionPoint(fg.mg.module.body):
            fg.mg.functions[fname] = func.FuncOp(fname, ir.FunctionType.get([], [ty]), visibility="private")
    return func.CallOp([ty], ir.FlatSymbolRefAttr.get(fname), []).results[0]


def special_register(fg, name: str):
    """The value of PTX special register `name` for the calling thread: i64 for globaltimer and clock64, else
    i32 (laneid, warpid, lanemask_*, smid, nsmid, clock, globaltimer_lo/hi)."""
    i32 = ir.IntegerType.get_signless(32)
    if name in _RUNTIME_REGISTERS:
        return _runtime_register(fg, name)
    if name in ("clock", "globaltimer_lo", "globaltimer_hi"):
        wide = _runtime_register(fg, "clock64" if name == "clock" else "globaltimer")
        if name == "globaltimer_hi":
            wide = arith.shrui(wide, arith.constant(wide.type, 32))
        return arith.trunci(i32, wide)
    lane, warp = _lane_and_warp(fg)
    if name == "laneid":
        return lane
    if name == "warpid":
        return warp
    i32 = ir.IntegerType.get_signless(32)
    one = arith.shli(arith.constant(i32, 1), lane)  # (1 << lane)
    below = arith.subi(one, arith.constant(i32, 1))  # lanes under this one
    return {"lanemask_eq": one, "lanemask_lt": below, "lanemask_le": arith.ori(below, one),
            "lanemask_gt": arith.xori(arith.ori(below, one), arith.constant(i32, -1)),
            "lanemask_ge": arith.xori(below, arith.constant(i32, -1))}[name]


def emit_ptx(fg, c, spec, outputs, inputs, store):
    """ASM_STMT `c` (parsed as `spec`) in device code: a special-register read stored into its one output
    expression (`store(e, value)`), a prefetch of the address `inputs[0]` (evaluated for its side effects only)
    or a fence.

    Raises:
        CompileError: any other PTX, named by its first instruction."""
    text = " ".join(spec.template.split())
    if _PREFETCH.match(text) and not outputs and len(inputs) == 1:
        fg.rvalue(inputs[0])  # (a hint: nothing to do on the host's caches)
        return
    if _FENCE.match(text) and not outputs and not spec.inputs:
        llvm.FenceOp(llvm.AtomicOrdering.seq_cst)
        return
    m = _SPECIAL_READ.match(text) or _SPECIAL_READ64.match(text)
    if m and len(outputs) == 1 and not spec.inputs:
        store(outputs[0], special_register(fg, m.group(1)))
        return
    first = re.split(r"[\s;{]", text.strip("{} \t"), maxsplit=1)[0] or text
    raise fg.unsupported(c, f"inline PTX assembly '{first}' in device code")
