"""`--schedule=FILE`: user schedules per SCoP, in the spirit of Polly's JSCoP.

The file is JSON: {"scops": [{"name": "kernel_gemm.scop0", "schedule": "{ S0[i0, i1] -> [i1, i0]; ... }",
"parallel": [0]}]}, the same document `--emit=scop` prints (edit its "schedule" entries); "parallel" lists the
schedule dimensions to run as parallel loops (checked: they must carry no dependence). A SCoP may instead give one schedule per
statement: "statements": [{"name": "S0", "schedule": "{ S0[i0, i1] -> [i1, i0] }"}, ...]. Parameters are
p0, p1, ... as in the printed model.
"""

from __future__ import annotations

import json

from polygeist_py.errors import CompileError


def read_schedule_file(path: str) -> dict:
    """{scop name: isl union map text} from a schedule file.

    Raises:
        CompileError: the file is missing, not JSON, or not in the format above.
    """
    try:
        with open(path, encoding="utf-8") as f:
            doc = json.load(f)
    except OSError as e:
        raise CompileError(f"cannot read schedule file '{path}': {e.strerror}") from e
    except json.JSONDecodeError as e:
        raise CompileError(f"{path}:{e.lineno}:{e.colno}: error: schedule file is not JSON: {e.msg}") from e
    return schedules_from_doc(doc, path)


def schedules_from_doc(doc, where: str = "schedule") -> dict:
    """{scop name: {"schedule": text or list of per-statement texts, "parallel": [dims]}} from a parsed
    schedule document."""
    if not isinstance(doc, dict) or not isinstance(doc.get("scops"), list):
        raise CompileError(f"{where}: expected an object with a list \"scops\"")
    out = {}
    for entry in doc["scops"]:
        if not isinstance(entry, dict) or "name" not in entry:
            raise CompileError(f"{where}: every SCoP entry needs a \"name\"")
        par = entry.get("parallel", [])
        if not isinstance(par, list) or not all(isinstance(d, int) for d in par):
            raise CompileError(f"{where}: \"parallel\" of {entry['name']} must be a list of dimensions")
        if isinstance(entry.get("schedule"), str):
            out[entry["name"]] = {"schedule": entry["schedule"], "parallel": par}
        elif isinstance(entry.get("statements"), list) and all("schedule" in s for s in entry["statements"]):
            out[entry["name"]] = {"schedule": [s["schedule"] for s in entry["statements"]], "parallel": par}
    return out
