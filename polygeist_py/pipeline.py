"""Pass pipelines between the stages of the data flow (see shared/DESIGN.md), upstream passes throughout.

cleanup:  canonicalize, cse, loop-invariant code motion, affine scalar replacement on the frontend's output
          (scalrep_guard.py first keeps upstream's affine-scalrep from erasing a load that still has uses);
          then (`cleanup`) licm.py moves read-only calls and loop nests that upstream's LICM cannot move out of
          loops (parallel ones too), and the passes run again when something moved.
          (Not affine-loop-invariant-code-motion: it hoists ops out of nested scf.if regions and breaks
          dominance, e.g. on an if/else-if chain inside an affine.for.)
to_openmp: affine -> scf, scf.parallel -> omp (then omp_schedule.py may pick a loop's schedule).
lower:    affine/scf/memref/arith/math/omp -> LLVM dialect. The order follows
          shared/TOOLCHAIN.md: convert-scf-to-openmp wraps bodies in memref.alloca_scope, so canonicalize
          runs right after it; math goes to libm before the generic conversion so results match gcc's libm
          calls bit for bit. expand-strided-metadata writes the offsets of views of views (a pointer to the rows
          of a 3-D VLA moved by a row) as affine.apply, so lower-affine runs again after it.
"""

from __future__ import annotations

from mlir import ir
from mlir.passmanager import PassManager

from .errors import CompileError, InternalError  # noqa: F401  (InternalError is re-exported)

# The cleanup pipeline, in two runs with scalrep_guard.py between them (affine-scalrep may otherwise abort)
CLEANUP_BEFORE_SCALREP, CLEANUP_FROM_SCALREP = (
    "builtin.module(canonicalize,cse,loop-invariant-code-motion)",
    "builtin.module(func.func(affine-scalrep),canonicalize,cse,canonicalize)")

LICM_ROUNDS = 4  # rounds of licm.py + CLEANUP: one per loop level a guarded op leaves
TO_OPENMP = "builtin.module(lower-affine,convert-scf-to-openmp)"
# (convert-scf-to-cf without pattern rollback: with it, the dialect conversion's bookkeeping of every op that an
# scf.if's block split moves made a block of N sequential scf.if quadratic, tinycc's 101_cleanup with 4,096
# cleanup guards most of its 21 s; 2,048 guards: 3.1 s against 0.6 s; the SCF patterns never fail once they
# rewrite, which is what the option asks, and the output is identical)
# LOWER in two parts, LOWER_PREP then LOWER_REST, for stages to cut long blocks between them (block_chunks.py:
# after the canonicalize, which would merge the chunks back)
LOWER_PREP = "builtin.module(canonicalize,lower-affine,expand-strided-metadata,lower-affine,finalize-memref-to-llvm)"
LOWER_REST = ("builtin.module(convert-scf-to-cf{allow-pattern-rollback=false},convert-math-to-libm,"
              "convert-math-to-llvm,convert-openmp-to-llvm,convert-to-llvm,reconcile-unrealized-casts,canonicalize)")
LOWER = LOWER_PREP[:-1] + "," + LOWER_REST[len("builtin.module("):]


# Statement nesting beyond which the frontend marks the module (DEEP_ATTR) and canonicalize visits ops bottom-up:
# the greedy driver's default top-down order takes time quadratic in the depth of nested regions (an else-if
# chain of 600 arms: 17 s against 0.6 s), while on ordinary code it finds a slightly different fixpoint, so it
# stays the default there (generated code unchanged).
DEEP_NESTING = 64
DEEP_ATTR = "pgcc.deep_nesting"
# Modules with a function of more ops than this (the frontend's output) are canonicalized bottom-up too: top-down,
# the region branch patterns (RemoveDuplicateSuccessorInputUses: 58% of the samples) made the cleanup of Lua's
# lvm.c (luaV_execute: 55,000 ops) take 4.4 s of CPU time, 1.0 s bottom-up. But sqlite3.c (461,000 ops in many
# functions, sqlite3VdbeExec 42,500) took twice as long bottom-up (18.4 s against 9.1 s): the limit sits between
# the two, measured on these two files only. The PolyBench-style kernels and the tests' programs stay far below.
LARGE_FUNCTION_OPS = 50000


def mark_large(module: ir.Module) -> None:
    """Set DEEP_ATTR on `module` (canonicalize bottom-up in `run`) when one of its top-level ops (functions)
    holds more than LARGE_FUNCTION_OPS ops."""
    if DEEP_ATTR in module.operation.attributes:
        return
    for fn in module.body.operations:
        count = [0]

        def visit(op):
            count[0] += 1
            return ir.WalkResult.INTERRUPT if count[0] > LARGE_FUNCTION_OPS else ir.WalkResult.ADVANCE

        fn.operation.walk(visit, ir.WalkOrder.PRE_ORDER)
        if count[0] > LARGE_FUNCTION_OPS:
            module.operation.attributes[DEEP_ATTR] = ir.UnitAttr.get()
            return


def run(module: ir.Module, pipeline: str, stage: str) -> None:
    """Run a textual pass pipeline in place.

    Raises:
        CompileError: an internal compiler error naming the stage (a pass or the verifier failed).
    """
    if DEEP_ATTR in module.operation.attributes:
        pipeline = pipeline.replace("canonicalize,", "canonicalize{top-down=false},").replace(
            "canonicalize)", "canonicalize{top-down=false})")
    from .time_report import phase
    try:
        with phase(stage, "MLIR passes"):
            PassManager.parse(pipeline).run(module.operation)
    except Exception as e:  # MLIRError carries the diagnostics
        raise InternalError(f"{stage} failed: {e}") from e


def cleanup(module: ir.Module, stage: str) -> None:
    """The cleanup pipeline (run_cleanup), then loop-invariant code motion of read-only calls and loop nests (licm.py); when
    something moved, the cleanup again (what depends on a moved value may now be invariant too).

    Raises:
        InternalError: a pass or the verifier failed (naming `stage`).
    """
    run_cleanup(module, stage)
    from .licm import hoist_invariant_code
    from .time_report import phase
    for _ in range(LICM_ROUNDS):  # (a guard's test is computed in the loop it leaves: upstream LICM hoists it)
        with phase("loop-invariant calls (licm.py)", "MLIR passes"):
            moved = hoist_invariant_code(module)
        if not moved:
            break
        verify(module, f"invariant code motion ({stage})")
        run_cleanup(module, stage)


def run_cleanup(module: ir.Module, stage: str) -> None:
    """The cleanup pipeline, with scalrep_guard.py's demotion of the loads that would make affine-scalrep abort run just before
    that pass.

    Raises:
        InternalError: a pass or the verifier failed (naming `stage`).
    """
    from .scalrep_guard import guard_redundant_loads
    run(module, CLEANUP_BEFORE_SCALREP, stage)
    guard_redundant_loads(module)
    run(module, CLEANUP_FROM_SCALREP, stage)


def verify(module: ir.Module, stage: str) -> None:
    """Verify `module` after `stage` (a phrase naming it).

    Raises:
        InternalError: the module does not verify.
    """
    from .time_report import phase
    try:
        with phase("verifier", "MLIR passes"):
            module.operation.verify()
    except Exception as e:
        raise InternalError(f"the module does not verify after {stage}: {e}") from e
