"""The --cpuify stage (gpu_to_cpu, installed as polygeist_py.gpu_to_cpu): kernel launches become a parallel
loop over blocks with the kernel inlined into a serial loop nest over threads, barriers eliminated."""

from __future__ import annotations

from mlir import ir
from mlir.dialects import arith, math

from .gpu_to_cpu.alloca_hoisting import hoist_allocas_to_blocks, privatize_kept_allocas
from .gpu_to_cpu.barrier_elimination import eliminate_barriers, resolve_active_lanes
from .gpu_to_cpu.grid_stride_prefetch import prefetch_grid_stride_loops
from .gpu_to_cpu.guard_narrowing import narrow_guarded_thread_loops
from .gpu_to_cpu.interior_versioning import version_interior_blocks
from .gpu_to_cpu.ir_nav import collect
from .gpu_to_cpu.launch_to_loops import launches_to_loops
from .gpu_to_cpu.per_thread_allocas import privatize_allocas_across_barriers
from .gpu_to_cpu.serialize_threads import serialize_thread_loops
from .gpu_to_cpu.shared_atomics import privatize_shared_atomics
from .gpu_to_cpu.shared_offsets import sign_extend_wrapped_shared_offsets
from .gpu_to_cpu.thread_loop_interchange import interchange_strided_loops
from .gpu_to_cpu.warp_synchronous import (order_divergent_shared_stores, order_shared_stores_after_loads,
                                          order_volatile_shared_stores)


def run_cpuify(module: ir.Module) -> None:
    """Rewrite every gpu.launch in `module` (in place); see the modules of gpu_to_cpu/.

    Raises:
        CompileError: non-uniform barriers and other GPU constructs that have no CPU translation.
    """
    sign_extend_wrapped_shared_offsets(module)
    launches_to_loops(module)
    order_volatile_shared_stores(module)
    order_divergent_shared_stores(module)
    order_shared_stores_after_loads(module)
    privatize_allocas_across_barriers(module)
    eliminate_barriers(module)
    resolve_active_lanes(module)
    narrow_guarded_thread_loops(module)
    interchange_strided_loops(module)
    narrow_guarded_thread_loops(module)  # the thread loops the interchange made inside strided loops
    prefetch_grid_stride_loops(module)
    version_interior_blocks(module)
    privatize_kept_allocas(module)
    serialize_thread_loops(module)
    privatize_shared_atomics(module)
    hoist_allocas_to_blocks(module)
    expand_rsqrt(module)


def expand_rsqrt(module: ir.Module) -> None:
    """CUDA's rsqrtf/rsqrt (math.rsqrt) as 1 / sqrt(x): the C library has no rsqrt, so the libm lowering's call
    of `rsqrtf` would not link (in place)."""
    for op in collect(module.operation, lambda o: o.name == "math.rsqrt"):
        x = op.operands[0]
        with op.location, ir.InsertionPoint(op):
            one = arith.constant(x.type, 1.0)
            op.results[0].replace_all_uses_with(arith.divf(one, math.sqrt(x)))
        op.erase()
