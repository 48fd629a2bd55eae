"""Automatic differentiation on structured MLIR (Enzyme's C API; Moses & Churavy, NeurIPS'20; Enzyme-MLIR).

Stage entry point: :func:`differentiate` rewrites every ``__enzyme_autodiff``/``__enzyme_fwddiff`` call of a
module into a call of a synthesized derivative function. Modules, one job each:

    api_calls.py  the stage: finds the calls, memoizes derivative functions per (function, mode, activity)
    prepare.py    the primal copy: callees inlined, re-optimized before differentiation
    activity.py   which values carry derivatives
    partials.py   derivative rules of scalar arith/math ops (shared by both modes)
    forward.py    forward mode (tangent rules per op)
    reverse.py    reverse mode (adjoint rules per op; adjoints carried through reversed regions)
    cache.py      caches of primal values for the reverse sweep; the overwritten-memory analysis
    mincut.py     which values to cache: minimum cut per reversed block (Enzyme's cache reduction)
    emit.py       cloning and rebuilding helpers
"""

from .api_calls import differentiate

__all__ = ["differentiate"]
