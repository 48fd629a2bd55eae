"""The frontend's module structure: imports among polygeist_py/frontend modules go one way (no cycle), and the
FunctionGen mixins (decls, stmts, loops, exprs, lvalues, pointers, cuda_device, cxx, cxx_classes, llvm_memory,
gen_base) never import codegen.py, which assembles them, nor each other's classes."""

from __future__ import annotations

import ast
import subprocess
import sys
from pathlib import Path

import pytest

FRONTEND = Path(__file__).resolve().parent.parent / "polygeist_py" / "frontend"
MIXINS = {"gen_base": "GenBase", "decls": "DeclGen", "stmts": "StmtGen", "loops": "LoopGen", "exprs": "ExprGen",
          "lvalues": "LValueGen", "pointers": "PointerGen", "cuda_device": "CudaDeviceGen", "cxx": "CxxGen",
          "cxx_classes": "CxxClassGen", "llvm_memory": "LLVMMemory"}


def frontend_imports() -> dict:
    """module name -> set of frontend modules it imports (anywhere in the file, also inside functions)."""
    names = {p.stem for p in FRONTEND.glob("*.py")}
    graph = {}
    for p in FRONTEND.glob("*.py"):
        deps = set()
        for node in ast.walk(ast.parse(p.read_text())):
            if isinstance(node, ast.ImportFrom) and node.level == 1:  # from . import x / from .x import y
                if node.module:
                    deps.add(node.module.split(".")[0])
                else:
                    deps.update(a.name for a in node.names)
            elif isinstance(node, ast.ImportFrom) and node.module and node.module.startswith("polygeist_py.frontend."):
                deps.add(node.module.split(".")[2])
        graph[p.stem] = {d for d in deps if d in names and d != p.stem}
    return graph


def test_frontend_imports_are_acyclic():
    graph = frontend_imports()
    state: dict = {}

    def visit(m, path):
        if state.get(m) == "done":
            return
        assert state.get(m) != "active", f"import cycle: {' -> '.join(path + [m])}"
        state[m] = "active"
        for d in sorted(graph[m]):
            visit(d, path + [m])
        state[m] = "done"

    for m in sorted(graph):
        visit(m, [])


def test_mixins_import_neither_codegen_nor_each_other():
    """Only module.py imports codegen.py, and only codegen.py imports the mixin classes it assembles (a mixin
    module may use a lower module's plain helper functions, e.g. llvm_memory.member_object)."""
    graph = frontend_imports()
    assert not any("codegen" in deps for m, deps in graph.items() if m != "module"), \
        {m: deps for m, deps in graph.items() if "codegen" in deps}
    for p in FRONTEND.glob("*.py"):
        if p.stem == "codegen":
            continue
        for node in ast.walk(ast.parse(p.read_text())):
            if isinstance(node, ast.ImportFrom) and node.level == 1:
                taken = {a.name for a in node.names} & set(MIXINS.values())
                assert not taken, (p.name, taken)


@pytest.mark.parametrize("name", sorted(p.stem for p in FRONTEND.glob("*.py") if p.stem != "__init__"))
def test_each_module_imports_alone(name):
    """Importing any frontend module first, in a fresh interpreter, works (a cycle would fail for some)."""
    r = subprocess.run([sys.executable, "-c", f"import polygeist_py.frontend.{name}"], capture_output=True, text=True)
    assert r.returncode == 0, r.stderr
