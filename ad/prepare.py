"""The primal copy that AD differentiates: the function cloned, its non-recursive callees inlined, re-optimized.

Inlining first lets the cleanup passes (canonicalize, CSE, loop-invariant code motion) see through calls, which
is Enzyme's "optimize before differentiating" (Moses & Churavy, NeurIPS'20, sec. 5), and gives every memory
effect of a callee a place in the caller's forward and reverse sweeps. Recursive calls stay calls; the modes
give them derivative functions of their own.
"""

from __future__ import annotations

from mlir import ir
from mlir.passmanager import PassManager

from polygeist_py.errors import error_at_op

from .activity import all_ops

OPTIMIZE = "func.func(canonicalize,cse,loop-invariant-code-motion,affine-scalrep,canonicalize,cse)"
LOWER_AFFINE = "func.func(lower-affine,canonicalize,cse)"
MAX_INLINE_ROUNDS = 16


def functions(module) -> dict:
    return {f.attributes["sym_name"].value: f for f in module.body.operations if f.operation.name == "func.func"}


def is_defined(f) -> bool:
    return len(f.regions[0].blocks) > 0


def call_graph(module) -> dict:
    """name -> set of callee names (defined functions only)."""
    funcs = functions(module)
    return {n: {c.attributes["callee"].value for c in all_ops(f) if c.name == "func.call"}
            for n, f in funcs.items() if is_defined(f)}


def recursive_names(module) -> set:
    """Functions that can reach themselves through calls."""
    graph = call_graph(module)
    rec = set()
    for start in graph:
        seen, work = set(), list(graph[start])
        while work:
            n = work.pop()
            if n == start:
                rec.add(start)
                break
            if n in seen or n not in graph:
                continue
            seen.add(n)
            work += graph[n]
    return rec


def primal_copy(module, name: str, copy_name: str, lower_affine: bool = False):
    """Clone function `name` as private `copy_name`, inline its calls to non-recursive defined functions and
    optimize it. Returns the new func op.

    Raises:
        CompileError: the function is only declared, or its body has several blocks (unstructured control flow).
    """
    funcs = functions(module)
    f = funcs.get(name)
    if f is None or not is_defined(f):
        raise error_at_op(f.operation if f is not None else module.operation,
                          f"cannot differentiate '{name}': its definition is not in this file")
    if len(f.regions[0].blocks) != 1:
        raise error_at_op(f.operation, f"unsupported construct: differentiating '{name}' with unstructured "
                                       "control flow")
    copy = f.operation.clone(ip=ir.InsertionPoint(module.body))
    copy.attributes["sym_name"] = ir.StringAttr.get(copy_name)
    copy.attributes["sym_visibility"] = ir.StringAttr.get("private")
    rec = recursive_names(module)
    for _ in range(MAX_INLINE_ROUNDS):
        calls = [c for c in all_ops(copy) if c.name == "func.call"
                 and c.attributes["callee"].value in funcs and c.attributes["callee"].value not in rec
                 and is_defined(funcs[c.attributes["callee"].value])
                 and len(funcs[c.attributes["callee"].value].regions[0].blocks) == 1]
        if not calls:
            break
        for c in calls:
            inline_call(c, funcs[c.attributes["callee"].value])
    PassManager.parse(OPTIMIZE).run(copy)
    if lower_affine:
        PassManager.parse(LOWER_AFFINE).run(copy)
    return copy.opview if hasattr(copy, "opview") else copy


def inline_call(call, callee) -> None:
    """Replace func.call `call` by a copy of single-block `callee`'s body."""
    body_copy = callee.operation.clone(ip=ir.InsertionPoint(callee.operation))
    block = body_copy.regions[0].blocks[0]
    for arg, actual in zip(block.arguments, call.operands):
        arg.replace_all_uses_with(actual)
    ops = list(block.operations)
    ret = ops[-1]
    for op in ops[:-1]:
        op.move_before(call)
    for r, v in zip(call.results, ret.operands):
        r.replace_all_uses_with(v)
    call.erase()
    body_copy.erase()
