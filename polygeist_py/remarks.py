"""Optimization remarks in clang's form: ``-Rpass=<regex>``, ``-Rpass-missed=<regex>``, ``-Rpass-analysis=<regex>``.

A remark is ``file:line:col: remark: <message> [-Rpass=<stage>]`` on stderr, at the source location of the loop,
launch or barrier it is about. ``<stage>`` is one of pgcc's stages (:data:`STAGES`); a remark is printed when the
regular expression given for its kind matches the stage's name (``re.search``, as clang does).

Kinds (clang's): ``pass`` what a stage did (SCoP scheduled, loop made parallel, tiled, unrolled and jammed;
launch made a loop nest, barrier eliminated), ``missed`` what it did not do and why (loop nest not modelled and
the construct that prevents it, schedule kept, loop not parallel and the dependence that prevents it),
``analysis`` facts behind the decisions (statements, parameters, dependences of a SCoP). For automatic
differentiation (stage ``ad``, hooks called from ad/cache.py): ``pass`` each primal value the reverse sweep
caches, with the cache's layout and size; ``analysis`` each value it recomputes instead, or caches because the
memory it was loaded from may be overwritten (Enzyme's cache-or-recompute decision).

gcc's ``-fopt-info[-kinds][-groups]`` maps onto them (:func:`from_opt_info`).
"""

from __future__ import annotations

import re
import sys

STAGES = ("polyhedral", "cpuify", "ad")
KINDS = {"pass": "-Rpass", "missed": "-Rpass-missed", "analysis": "-Rpass-analysis"}


class Remarks:
    """The remark filters of one command: {kind: compiled regex} (kinds of :data:`KINDS`)."""

    def __init__(self, patterns: dict) -> None:
        self.patterns = patterns
        self.emitted: list[str] = []

    def wants(self, stage: str, kind: str | None = None) -> bool:
        """Whether any remark of `stage` (of `kind`, or of any kind) would be printed."""
        kinds = [kind] if kind else list(self.patterns)
        return any(k in self.patterns and self.patterns[k].search(stage) for k in kinds)

    def emit(self, kind: str, stage: str, location: str | None, message: str, file=None) -> None:
        """Print one remark (when `kind`'s regex matches `stage`). `location`: ``file:line:col`` or None."""
        if not self.wants(stage, kind):
            return
        line = f"{location + ': ' if location else 'pgcc: '}remark: {message} [{KINDS[kind]}={stage}]"
        if line in self.emitted:  # (the same code specialized twice: a kernel's two launch variants)
            return
        self.emitted.append(line)
        print(line, file=file or sys.stderr)


_current: Remarks | None = None


def set_active(r: Remarks | None) -> None:
    """Make `r` the remarks of this compilation (None: no remarks)."""
    global _current
    _current = r


def active(stage: str) -> Remarks | None:
    """The active Remarks when some remark of `stage` is wanted, else None (cheap: callers skip the analysis)."""
    return _current if _current is not None and _current.wants(stage) else None


def compile_pattern(flag: str, text: str):
    """`text` as a regular expression for `flag`.

    Raises:
        CompileError: an invalid regular expression (re's message).
    """
    from .errors import CompileError

    try:
        return re.compile(text)
    except re.error as e:
        raise CompileError(f"invalid regular expression '{text}' in '{flag}={text}': {e}") from None


OPT_INFO_KINDS = {"optimized": ("pass",), "missed": ("missed",), "note": ("analysis",),
                  "all": ("pass", "missed", "analysis")}
# gcc's groups that name work pgcc's stages do; the others (vec, inline, ipa) belong to LLVM's passes, whose
# remarks pgcc does not relay
OPT_INFO_GROUPS = {"loop": "polyhedral|cpuify", "omp": "polyhedral|cpuify", "vec": None, "inline": None,
                   "ipa": None}


def from_opt_info(arg: str) -> dict:
    """gcc's ``-fopt-info[-options][=file]`` as {kind: regex text}: kinds optimized (default) / missed / note /
    all -> pass / missed / analysis; groups loop and omp -> pgcc's polyhedral and cpuify stages (default: all).

    Raises:
        CompileError: a file name (remarks go to stderr only), an unknown option, or only groups pgcc has no
            remarks for (vec, inline, ipa: LLVM's passes).
    """
    from .errors import CompileError

    body = arg[len("-fopt-info"):]
    if "=" in body:
        raise CompileError(f"'{arg}': pgcc writes remarks to stderr only (drop '={body.split('=', 1)[1]}')")
    words = [w for w in body.split("-") if w]
    kinds, stages = [], []
    for w in words:
        if w in OPT_INFO_KINDS:
            kinds += OPT_INFO_KINDS[w]
        elif w in OPT_INFO_GROUPS:
            stages.append(OPT_INFO_GROUPS[w])
        else:
            raise CompileError(f"'{arg}': unknown -fopt-info option '{w}' (pgcc knows optimized, missed, note, "
                               "all, loop, omp)")
    if stages and all(s is None for s in stages):
        raise CompileError(f"'{arg}': pgcc has remarks for its loop stages only (-fopt-info-loop, "
                           "-Rpass=polyhedral|cpuify); LLVM's vectorizer and inliner remarks are not relayed")
    regex = "|".join(s for s in stages if s) or ".*"
    return {k: regex for k in (kinds or ["pass"])}


def _loc(op) -> str:
    text = str(op.location)
    if text.startswith("loc(") and text.endswith(")"):
        text = text[4:-1]
    return text.replace('"', "")


_line_counts: dict = {}
_POSITION = re.compile(r"([^\s()]+):(\d+):(\d+)")


def _beyond_file(loc: str) -> bool:
    """Whether `loc` (file:line:col) points past the end of its file: code pgcc appended to a parse (the kernel
    stubs of nvcc's model, cuda_split.py)."""
    try:
        path, line, _ = loc.rsplit(":", 2)
        if path not in _line_counts:
            with open(path, "rb") as f:
                _line_counts[path] = f.read().count(b"\n") + 1
        return int(line) > _line_counts[path]
    except (OSError, ValueError):
        return False


def _launch_loc(launch, funcs: dict) -> str:
    """A launch's location; for a launch in a kernel stub that pgcc appended (nvcc's model), the location of the
    kernel it calls instead (`funcs`: function name -> func.func)."""
    loc = _loc(launch)
    if not _beyond_file(loc):
        return loc
    for region in launch.regions:
        for block in region.blocks:
            for o in block.operations:
                if o.operation.name == "func.call":
                    from mlir import ir
                    callee = funcs.get(ir.FlatSymbolRefAttr(o.attributes["callee"]).value)
                    m = _POSITION.search(_loc(callee)) if callee is not None else None
                    if m and not _beyond_file(m.group(0)):
                        return m.group(0)
    return loc


def cpuify_survey(module) -> list:
    """[(kind, location, message)] of the cpuify stage, read from `module` before the stage runs (the stage
    either rewrites every launch and eliminates every barrier or fails): one per kernel launch and one per
    barrier, saying how barrier elimination (gpu_to_cpu/barrier_elimination.py) removes it."""
    out = []

    def enclosing(op):
        chain = []
        parent = op.operation.parent
        while parent is not None and parent.name != "gpu.launch":
            chain.append(parent.name)
            parent = parent.parent
        return chain

    def visit(op):
        name = op.operation.name
        if name == "gpu.launch":
            out.append(("pass", _launch_loc(op, funcs), "kernel launch became a parallel loop nest over blocks (OpenMP) "
                                                 "with the threads of a block as inner loops"))
        elif name == "gpu.barrier":
            chain = enclosing(op)
            loops = [c for c in chain if c in ("scf.for", "scf.while", "affine.for")]
            conds = [c for c in chain if c in ("scf.if", "affine.if")]
            if loops:
                how = (f"the enclosing loop{'s' * (len(loops) > 1)} (the same for every thread) interchanged "
                       "outward of the threads' loop, which is then split at the barrier")
            elif conds:
                how = "the condition around it split at the barrier, then the threads' loop"
            else:
                how = "the threads' loop split in two at the barrier (loop fission)"
            out.append(("pass", _loc(op), f"barrier (__syncthreads) eliminated: {how}; values live across it are "
                                          "recomputed or kept per thread"))
        for region in op.regions:
            for block in region.blocks:
                for o in block.operations:
                    visit(o)

    from mlir import ir

    funcs = {ir.StringAttr(f.attributes["sym_name"]).value: f for f in module.body.operations
             if f.operation.name == "func.func"}
    visit(module.operation)
    return out


def _location_text(location) -> str | None:
    """``file:line:col`` of an MLIR location (the first position in it), or None."""
    m = _POSITION.search(str(location).replace('"', ""))
    return m.group(0) if m else None


def _function_name(caches) -> str:
    try:
        from mlir import ir
        return ir.StringAttr(caches.rev.primal.attributes["sym_name"]).value.split(".ad_")[0]  # (AD's clones)
    except (AttributeError, KeyError, ValueError):
        return "?"


def ad_cached(key, slot, value_type, location, caches) -> None:
    """Hook of ad/cache.py (Caches.slot, after it creates a cache): a ``pass`` remark [-Rpass=ad] naming the
    value cached for the reverse sweep of a derivative and the cache's layout and size. `key`: the primal value
    (or a pseudo key: a while loop's trip count); `slot`: the ad.cache.Slot; `value_type`: the stored type;
    `location`: an MLIR location; `caches`: the ad.cache.Caches. A no-op unless remarks of stage ad are on."""
    r = active("ad")
    if r is None:
        return
    from mlir import ir

    from .ad.cache import _constant_index, elem_bytes
    what = (f"result of '{key.owner.name}'" if isinstance(key, ir.Value) and not isinstance(key.owner, ir.Block)
            else "loop argument" if isinstance(key, ir.Value) else "trip count of a while loop")
    width = elem_bytes(value_type)
    if slot.kind == "rank0":
        size = f"one {value_type} slot ({width} bytes)"
    elif slot.kind == "indexed":
        count = None
        if slot.sizes:
            count = 1
            for n in slot.sizes:
                c = _constant_index(n)
                count = None if c is None or count is None else count * c
        dims = f"{len(slot.loops)} loop{'s' * (len(slot.loops) > 1)}"
        size = (f"an array of {count} x {value_type} ({count * width} bytes) indexed by {dims}" if count is not None
                else f"an array of {value_type} indexed by {dims}, sized by the trip counts at run time")
    else:
        size = f"an array of {value_type} grown by realloc as the loop runs (its trip count is data-dependent)"
    r.emit("pass", "ad", _location_text(location),
           f"{_function_name(caches)}: {what} cached for the reverse sweep in {size}")


def ad_recompute(op, recomputed: bool, caches) -> None:
    """Hook of ad/cache.py (Caches.recompute): an ``analysis`` remark [-Rpass-analysis=ad] saying whether the
    reverse sweep recomputes `op`'s result or caches it, and why (`recomputed`: the decision). A no-op unless
    remarks of stage ad are on."""
    r = active("ad")
    if r is None or not r.wants("ad", "analysis"):
        return
    name = op.name
    if name in ("memref.load", "llvm.load"):
        why = ("recomputed (loaded again): nothing may overwrite its memory before the reverse sweep" if recomputed
               else "cached: its memory may be overwritten before the reverse sweep reads it")
    elif recomputed:
        why = "recomputed: a cheap pure operation"
    elif name.startswith("math."):
        why = "cached: a transcendental function, dearer to evaluate again than to load"
    else:
        why = "cached: not a pure operation"
    r.emit("analysis", "ad", _location_text(op.location), f"{_function_name(caches)}: result of '{name}' {why}")
