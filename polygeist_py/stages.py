"""The stage sequence of the data flow (shared/DESIGN.md), shared by the `pgcc` driver and the Python API:
frontend -> cleanup -> cpuify (CUDA launches) -> ad (Enzyme calls) -> polyhedral (SCoPs scheduled with isl) ->
lowering to the LLVM dialect."""

from __future__ import annotations

from .errors import CompileError

STAGES = ("mlir", "cleanup", "cpuify", "ad", "polyhedral", "llvm-dialect")
# The ops that candidate SCoP regions are made of (affine/scop.py: LOOP, IF, STORE): without any, the polyhedral
# stage finds no region and changes nothing, and isl need not be imported.
AFFINE_SCOP_OPS = ("affine.for", "affine.if", "affine.store")


def run_stages(tu, path: str, *, cpuify: bool, on_stage=None, polyhedral=None, on_scops=None, device_stubs=None,
               gep_flags_in_mlir: bool = True):
    """The driver's stage sequence on a parsed translation unit, inside the current ``ir.Context``.

    frontend -> verify -> cleanup -> (cpuify + cleanup when CUDA launches are present) -> lowering to the
    LLVM dialect. ``on_stage(name, module)`` is called after each of :data:`STAGES`; returning True stops there.
    ``polyhedral`` (an affine.transform.PolyhedralOptions, a function of no arguments returning one, called only
    when the module has affine ops, so that isl is imported only then; or None to skip) schedules the SCoPs;
    ``on_scops(reports, not_modelled)`` receives its per-SCoP reports and, when only modelling
    (``polyhedral.only_model``), the loop nests that no SCoP contains (affine/remarks.py: survey). ``device_stubs`` (nvcc's model, cuda_split.py) translates
    only the device side of a .cu file. ``gep_flags_in_mlir``: clear the `nuw` flag of the LLVM dialect's GEPs
    (signed_offsets.py) in the module; False when the caller translates to LLVM IR and clears them there
    (backend.translate_to_llvm_ir, the cheaper form). Returns the module (LLVM dialect unless stopped early).

    Raises:
        CompileError: unsupported constructs; CUDA launches without ``cpuify``; an illegal user schedule;
            InternalError from a pass.
    """
    from . import pipeline
    from .time_report import phase
    with phase("imports (frontend)"):
        from .frontend.module import generate

    def stop(stage):
        return bool(on_stage and on_stage(stage, module))

    with phase("walk / codegen", "frontend"):
        module = generate(tu, path, device_stubs)
    pipeline.verify(module, "the frontend")
    with phase("function attributes (effects.py)", "frontend"):
        from .effects import annotate_declared
        annotate_declared(module, tu)  # __attribute__((pure/const)) of called functions, for licm.py (effects.py)
    with phase("module scans (Python)", "frontend"):
        from .constant_bounds import check as check_constant_bounds
        check_constant_bounds(module)  # before folding: MLIR asserts on a constant out-of-range global index
    if stop("mlir"):
        return module
    with phase("module scans (Python)", "frontend"):
        pipeline.mark_large(module)  # canonicalize's top-down order is slow on very large modules
    pipeline.cleanup(module, "cleanup")
    if stop("cleanup"):
        return module
    if has_op(module, lambda n: n == "gpu.launch"):
        differentiated = False
        if cpuify and has_enzyme_calls(module):
            with phase("imports (AD)"):
                from .ad import differentiate
            with phase("automatic differentiation", "AD"):
                differentiated = differentiate(module, device_code_only=True)
        if differentiated:  # __enzyme_autodiff inside kernels
            pipeline.verify(module, "automatic differentiation of device code")
            pipeline.cleanup(module, "cleanup after automatic differentiation")
        if not cpuify:
            raise CompileError(f"{path}: CUDA kernel launches need --cpuify (cpuify=True in the Python API); "
                               "pgcc has no GPU back end")
        with phase("imports (cpuify)"):
            from .gpu_to_cpu_stage import run_cpuify
        from .remarks import active, cpuify_survey
        remarks = active("cpuify")
        done = cpuify_survey(module) if remarks is not None else []
        with phase("cpuify", "cpuify"):
            run_cpuify(module)
        for kind, loc, message in done:
            remarks.emit(kind, "cpuify", loc, message)
        pipeline.cleanup(module, "cleanup after cpuify")
    if stop("cpuify"):
        return module
    if has_enzyme_calls(module):  # __enzyme_autodiff / __enzyme_fwddiff calls -> derivative functions
        with phase("imports (AD)"):
            from .ad import differentiate
        with phase("automatic differentiation", "AD"):
            differentiated = differentiate(module)
    else:
        differentiated = False
    from .frontend.enzyme import lower_iteration_counts
    lower_iteration_counts(module)  # (__enzyme_iter(n, k) left after AD: n)
    if differentiated:
        pipeline.verify(module, "automatic differentiation")
        pipeline.cleanup(module, "cleanup after automatic differentiation")
    if stop("ad"):
        return module
    if polyhedral is not None:
        # memref.load/store with affine indices (rank-0 globals such as `alpha`) become affine ops, so that
        # they do not end a SCoP (upstream pass)
        pipeline.run(module, "builtin.module(func.func(affine-raise-from-memref))", "raising to affine")
        from .remarks import active
        remarks = active("polyhedral")
        missed = []
        if remarks is not None or getattr(polyhedral, "only_model", False):  # remarks or --emit=scop
            from .affine import remarks as polyhedral_remarks
            missed = polyhedral_remarks.survey(module)
        if has_op(module, lambda n: n in AFFINE_SCOP_OPS):
            with phase("imports (polyhedral: isl)"):
                preload_islpy_version()
                from .affine import transform
                _bind_islpy_version()
                if callable(polyhedral):
                    polyhedral = polyhedral()
            with phase("SCoPs, isl scheduling, codegen", "polyhedral"):
                reports = transform.run(module, polyhedral)
            pipeline.verify(module, "the polyhedral stage")
        else:  # no candidate region (affine/scop.py: candidate_regions): the stage would leave the module as it is
            reports = []
        if remarks is not None:
            polyhedral_remarks.report(remarks, reports, missed)
        pipeline.cleanup(module, "cleanup after the polyhedral stage")
        if on_scops is not None and on_scops(reports, missed):
            return module
    if stop("polyhedral"):
        return module
    with phase("lowering rewrites (Python)", "lowering"):
        module = _lower(module, pipeline, gep_flags_in_mlir)
    stop("llvm-dialect")
    return module


def _lower(module, pipeline, gep_flags_in_mlir=True):
    """The lowering tail of run_stages: returns the module in the LLVM dialect (a new module when the GEP flags
    are cleared here)."""
    from .bool_memory import widen_i1_memrefs
    widen_i1_memrefs(module)  # compiler-made buffers of booleans: one byte each (the lowering needs >= 8 bits)
    from .c_abi_calls import copy_abi_attributes_to_calls
    copy_abi_attributes_to_calls(module)  # byval/sret on call sites too, as on the callee (C ABI)
    pipeline.run(module, pipeline.TO_OPENMP, "lowering parallel loops to OpenMP")
    from .omp_schedule import balance_triangular_loops
    balance_triangular_loops(module)
    from .block_chunks import split_long_blocks
    pipeline.run(module, pipeline.LOWER_PREP, "lowering to the LLVM dialect")
    split_long_blocks(module)  # (thousands of scf.if in one block: linear SCF to CF lowering)
    pipeline.run(module, pipeline.LOWER_REST, "lowering to the LLVM dialect")
    module2 = module
    if gep_flags_in_mlir:
        from .signed_offsets import drop_unsigned_wrap_flags
        module2 = drop_unsigned_wrap_flags(module)  # C pointers index backwards (p[-1]); memref GEPs assume not
    from .constructors import emit_global_ctors
    emit_global_ctors(module2)  # __attribute__((constructor/destructor)): llvm.global_ctors/dtors
    from .aliases import emit_aliases
    emit_aliases(module2)  # __attribute__((alias("f"))): llvm.mlir.alias
    from .sections import apply_sections
    apply_sections(module2)  # __attribute__((section("name"))) on functions and globals
    return module2


def has_enzyme_calls(module) -> bool:
    """Whether `module` holds a call that the frontend marked as an Enzyme call (what ad.differentiate rewrites);
    checked here so that the AD modules are imported only for programs that use them."""
    from mlir import ir

    from .frontend.enzyme import FN_ATTR

    found = []

    def visit(op):
        if op.name == "func.call" and FN_ATTR in op.attributes:
            found.append(op)
            return ir.WalkResult.INTERRUPT
        return ir.WalkResult.ADVANCE

    module.operation.walk(visit, ir.WalkOrder.PRE_ORDER)
    return bool(found)


def has_op(module, pred) -> bool:
    from mlir import ir

    found = []

    def visit(op):
        if pred(op.name):
            found.append(op.name)
            return ir.WalkResult.INTERRUPT
        return ir.WalkResult.ADVANCE

    module.operation.walk(visit, ir.WalkOrder.PRE_ORDER)
    return bool(found)


def preload_islpy_version() -> None:
    """Provide `islpy.version` (VERSION_TEXT, VERSION, VERSION_STATUS) from islpy's installed metadata file before
    islpy is imported: islpy's own module asks importlib.metadata, whose import (email, zipfile, socket...) and
    search of the installed distributions took 10-18 ms of every compilation with SCoPs. The same text is read from
    the same file (the `Version:` field of islpy's dist-info METADATA, which importlib.metadata reads too). Does
    nothing when islpy is already imported or its dist-info is not found as one directory next to the package
    (islpy then imports its module as usual)."""
    import sys
    if "islpy" in sys.modules or "islpy.version" in sys.modules:
        return
    import glob
    import importlib.util
    import os
    import re
    import types
    spec = importlib.util.find_spec("islpy")
    if spec is None or not spec.origin:
        return
    found = glob.glob(os.path.join(os.path.dirname(os.path.dirname(spec.origin)), "islpy-*.dist-info", "METADATA"))
    if len(found) != 1:
        return
    with open(found[0], encoding="utf-8") as f:
        text = next((line.split(":", 1)[1].strip() for line in f if line.startswith("Version:")), None)
    m = re.match(r"^([0-9.]+)([a-z0-9]*?)$", text or "")  # (islpy/version.py's pattern)
    if m is None:
        return
    module = types.ModuleType("islpy.version")
    module.VERSION_TEXT, module.VERSION_STATUS = text, m.group(2)
    module.VERSION = tuple(int(n) for n in m.group(1).split("."))
    sys.modules["islpy.version"] = module


def _bind_islpy_version() -> None:
    """islpy.version as an attribute of the package too, as a normal import of the submodule leaves it."""
    import sys
    if "islpy" in sys.modules and "islpy.version" in sys.modules:
        sys.modules["islpy"].version = sys.modules["islpy.version"]
