"""`--emit=scop`: each SCoP's parameters, domains, accesses, dependences and schedules as JSON whose values are
in isl notation, and the options each SCoP was scheduled with ("compiled_with"). The same document, with
"schedule" entries edited, is what `--schedule=FILE` reads (user_schedule.py)."""

from __future__ import annotations

import json

from .legality import flat_map
from .scop import source_location


def scop_dict(report) -> dict:
    """The JSON-ready description of one ScopReport."""
    out = {"name": report.name, "function": report.function, "status": report.status}
    if report.reason:
        out["reason"] = report.reason
    if report.compiled_with is not None:  # (tile sizes, fusion, ...: the command line's or its schedule file entry's)
        out["compiled_with"] = report.compiled_with
    model = report.model
    if model is None:
        return out
    scop = model.scop
    out["location"] = source_location(scop.ops[0])
    out["parameters"] = model.params
    out["arrays"] = {name: str(v.type) for name, v in scop.arrays.items()}
    domains = {}
    model.domain.foreach_set(lambda st: domains.__setitem__(st.get_tuple_name(), st))
    stmts = []
    for s in scop.statements:
        dom = domains.get(s.name)
        if dom is None:  # an empty domain (the statement never runs)
            continue
        stmts.append({
            "name": s.name,
            "location": source_location(s.store),
            "domain": str(dom),
            "reads": str(model.reads.intersect_domain(dom)),
            "writes": str(model.writes.intersect_domain(dom)),
        })
    out["statements"] = stmts
    out["original_schedule"] = str(model.original)
    out["dependences"] = report.deps.printable()
    if report.schedule is not None:
        out["schedule"] = str(flat_map(model, report.schedule))
        out["schedule_tree"] = report.schedule.to_str() if hasattr(report.schedule, "to_str") else str(report.schedule)
    return out


def describe(reports, not_modelled=()) -> str:
    """JSON text {"scops": [...], "not_modelled": [...]} for the stage's reports and the loop nests it did not
    model (affine/remarks.py: survey's (location, reason, location of the construct) triples)."""
    doc = {"scops": [scop_dict(r) for r in reports]}
    doc["not_modelled"] = [{"location": loc, "reason": reason, **({"at": at} if at else {})}
                           for loc, reason, at in not_modelled]
    return json.dumps(doc, indent=2) + "\n"
