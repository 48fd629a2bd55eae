"""Gradients for the Python API: ``polygeist_py.compile(src, gradients=["f"])`` adds a function ``f_gradient``.

``f_gradient`` is ``__enzyme_autodiff(f, ...)`` with Enzyme's default activities: every pointer/array parameter
of f is followed by its shadow (named ``d_<name>``, same dtype and shape; the gradient is *added* to it), integer
parameters are constant, a floating-point scalar parameter is active and its gradient is returned. The wrapper is
an MLIR function whose body is the same placeholder call the frontend makes for ``__enzyme_autodiff`` in C, so
the AD stage differentiates it like any other call.
"""

from __future__ import annotations

import dataclasses

from mlir import ir
from mlir.dialects import func

from polygeist_py.frontend.enzyme import ACT_ATTR, FN_ATTR, MODE_ATTR, PLACEHOLDER

SUFFIX = "_gradient"


def gradient_signature(sig, make_param, make_signature):
    """The Python-side signature of ``<f>_gradient`` from f's (api.Signature): parameters interleaved with
    shadows, VLA dimension trees renumbered. Unsupported (with the reason) when f has several floating
    scalar parameters or f itself cannot be called from Python."""
    name = sig.name + SUFFIX
    params, where = [], {}
    for i, p in enumerate(sig.params):
        where[i] = len(params)
        params.append(p)
        if p.kind == "array":
            params.append(None)  # the shadow, filled below once all indices are known
    out = []
    for p in params:
        if p is None:
            src = out[-1]
            out.append(make_param(f"d_{src.name}", _shadow_decl(src), "array", src.scalar,
                                  _renumber(src.dims, where), False))
        else:
            out.append(dataclasses.replace(p, dims=_renumber(p.dims, where)) if p.kind == "array" else p)
    active = [p for p in sig.params if p.kind == "scalar" and p.scalar.kind == "float"]
    decl = f"{'void' if not active else active[0].scalar.spelling} {name}({', '.join(p.decl for p in out)})"
    g = make_signature(name, decl, out, "void" if not active else active[0].scalar)
    if sig.unsupported:
        g.unsupported = sig.unsupported
    elif len(active) > 1:
        g.unsupported = (f"'{sig.name}' has {len(active)} active floating-point scalars; write the "
                         "__enzyme_autodiff call in C to receive their gradients as a struct")
    return g


def _shadow_decl(p) -> str:
    """C text of the shadow parameter: `const double x[n]` -> `double d_x[n]`."""
    import re
    decl = re.sub(r"\bconst\b\s*", "", p.decl)
    hits = list(re.finditer(rf"\b{re.escape(p.name)}\b", decl))
    if not hits:
        return f"d_{p.name}"
    h = hits[-1]
    return decl[:h.start()] + "d_" + p.name + decl[h.end():]


def _renumber(dims, where):
    if dims is None:
        return None

    def tree(t):
        if t is None:
            return None
        if t[0] == "param":
            return ("param", where[t[1]])
        if t[0] == "const":
            return t
        if t[0] == "neg":
            return ("neg", tree(t[1]))
        return ("bin", t[1], tree(t[2]), tree(t[3]))
    return [tree(d) for d in dims]


def add_gradient_wrappers(module, names) -> None:
    """Add ``<f>_gradient`` for every f of `names` defined in `module` (after the frontend, before the AD stage).

    Raises:
        ValueError: a name that is not a function defined in the module.
    """
    funcs = {f.attributes["sym_name"].value: f for f in module.body.operations if f.operation.name == "func.func"}
    for k, name in enumerate(names):
        f = funcs.get(name)
        if f is None or not len(f.regions[0].blocks):
            raise ValueError(f"gradients: '{name}' is not a function defined in the program")
        ftype = ir.FunctionType(ir.TypeAttr(f.attributes["function_type"]).value)
        ptr = ir.Type.parse("!llvm.ptr")
        ins, acts, results = [], [], []
        for t in ftype.inputs:
            ins.append(t)
            if t == ptr:
                ins.append(t)
                acts.append("dup")
            elif isinstance(t, (ir.F32Type, ir.F64Type)):
                acts.append("active")
                results.append(t)
            else:
                acts.append("const")
        with ir.Location.unknown(), ir.InsertionPoint(module.body):
            pname = f"{PLACEHOLDER}api{k}"
            func.FuncOp(pname, ir.FunctionType.get(ins, results), visibility="private")
            w = func.FuncOp(name + SUFFIX, ir.FunctionType.get(ins, results))
            block = w.add_entry_block()
            with ir.InsertionPoint(block):
                call = func.CallOp(results, ir.FlatSymbolRefAttr.get(pname), list(block.arguments))
                call.attributes[FN_ATTR] = ir.FlatSymbolRefAttr.get(name)
                call.attributes[MODE_ATTR] = ir.StringAttr.get("reverse")
                call.attributes[ACT_ATTR] = ir.ArrayAttr.get([ir.StringAttr.get(a) for a in acts])
                func.ReturnOp(list(call.results))
