"""Automatic differentiation on structured MLIR (Enzyme's C API; Moses & Churavy, NeurIPS'20; Enzyme-MLIR).

Stage entry point: :func:`differentiate` rewrites every ``__enzyme_autodiff``/``__enzyme_fwddiff`` call of a
module into a call of a synthesized derivative function. Modules, one job each:

    api_calls.py  the stage: finds the calls, memoizes derivative functions per (function, mode, activity)
    prepare.py    the primal copy: callees inlined, re-optimized before differentiation
    openmp_serial.py  omp.parallel regions of the primal copy run with a team of one (omp for, critical, ...)
    counted_loops.py  while loops with a constant trip count (tree loops of CUDA reductions) -> counted loops
    while_to_for.py   while loops counting with an invariant step to an invariant bound (grid-stride loops) ->
                  counted loops, with a run-time overflow check and a cache capacity inside parallel loops
    pointer_dispatch.py  calls through a function pointer chosen at run time -> a dispatch over the candidates
    run_time_checks.py   the derivative's run-time checks: a message on standard error, then abort
    activity.py   which values carry derivatives
    allocators.py which calls allocate/release memory (malloc, calloc, aligned_alloc, __enzyme_allocation_like)
                  and how shadows are allocated and released alike
    partials.py   derivative rules of scalar arith/math ops (shared by both modes)
    libm.py       derivative rules of libm functions that stay calls (hypot, erfc, lgamma/tgamma via digamma...)
    forward.py    forward mode: the derivative function, tangents and shadows of values
    rules_forward.py  forward-mode rule per op name (FORWARD_RULES)
    reverse.py    reverse mode: forward sweep, reverse sweep, scopes, primal values and shadows in the reverse
    joined_shadows.py  reverse mode: shadows of pointers loops and branches join (swapped buffers, list heads,
                  buffers realloc moves), kept in forward-sweep cells and cached per iteration
    rules_reverse.py  reverse-mode rule per op name (REVERSE_RULES); adjoints carried through reversed regions
    raw_memory.py struct fields, struct copies, pointers stored into memory, bytes moved through integers:
                  shadows of raw bytes (llvm.alloca/load/store/memmove), the fields of copied records
    cache.py      caches of primal values for the reverse sweep; the overwritten-memory analysis
    mincut.py     which values to cache: minimum cut per reversed block (Enzyme's cache reduction)
    preaccumulate.py  reverse of a scalar loop with one active input: forward-mode Jacobian preaccumulation
    shifted_adjoints.py  accumulations into neighbouring shadow elements carried in registers (stencils)
    gpu_block.py  CUDA device code (one thread's derivative, before --cpuify): barriers mirrored, shadows of
                  __shared__ memory, atomic or plain adjoint accumulation (thread-private indices)
    emit.py       cloning and rebuilding helpers
    python_api.py `compile(src, gradients=[f])`: f_gradient wrappers for the Python API
"""

from .api_calls import differentiate

__all__ = ["differentiate"]
