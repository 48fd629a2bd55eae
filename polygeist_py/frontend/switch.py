"""`switch` as structured control flow.

The body is cut into segments at its top-level `case`/`default` labels. A flag `matched` (an i1 carried like a
variable) says whether control has entered the body: a segment's labels set it when the controlling value
equals one of their constants (`default`: when it equals none of the switch's constants), and each segment runs
under `scf.if (matched and no break/continue/return yet)`. Fall-through is then just `matched` staying set;
`break` sets the switch's own break flag (the walker's loop-exit machinery, with the enclosing loop's `continue`
flag passed through), which guards the remaining segments.

A goto from inside the switch to a label in a segment (`default: dflt: ...`, or inside a case's block) enters
that segment: the segments become one loop that repeats while the label's flag is set (gotos.py), the flag
skips every segment but the label's, and entering it sets `matched` so that fall-through goes on from there.

A switch whose arms (a labelled statement and the unlabelled ones after it) each end in `break`, `return` or
`continue`, except the last, has no fall-through: it becomes an `scf.index_switch` with one region per arm (and
a first `scf.index_switch` mapping case values to arms when an arm has several labels), which LLVM compiles as a
`switch` in linear time; the flag form above is for the rest.

A case label nested inside a statement of the body (a state machine's `case S:` inside a loop, Duff's device)
is a label that the dispatch jumps to: its flag starts set when the value matches it. Declarations directly in
the body (their scope spans segments) are declared before the dispatch when passing them runs no code (no
initializer, no run-time size); others are rejected with an error naming the construct.
"""

from __future__ import annotations

from mlir import ir
from mlir.dialects import arith, scf

from ..clang_ast import K, T, canonical, children, evaluate, var_decl_initializer
from . import attributes
from . import c_types as CT
from . import gotos
from .values import Binding

LABELS = (K.CASE_STMT, K.DEFAULT_STMT)


def segments(fg, body):
    """[(labels, stmt)] of a switch body: labels is a list of int constants, ("range", lo, hi) for a long GNU case
    range, and the string 'default'.

    Raises:
        CompileError: for a declaration directly in the body that `check_hoistable` rejects, or a label
        `case_values` rejects.
    """
    stmts = children(body) if body.kind == K.COMPOUND_STMT else [body]
    out = []
    for s in stmts:
        labels = []
        while s.kind in LABELS:
            labels += case_values(fg, s) if s.kind == K.CASE_STMT else ["default"]
            s = children(s)[-1]
        if s.kind == K.DECL_STMT:
            check_hoistable(fg, s)
        out.append((labels, s))
    return out


def check_hoistable(fg, decl_stmt):
    """A declaration directly in a switch body (lemon's parsers put `YYMINORTYPE yylhsminor;` before the first
    label; `case 'u': int h = unhex4(in);` in a JSON parser) is declared once before the dispatch, its scope being
    the whole body. The initializer of a scalar runs where the declaration stands, as an assignment
    (`deferred_inits`: a case entered past it sees the variable uninitialized, as C says). Other initializers,
    variable-length arrays and cleanups would run code at the hoisted declaration: errors.

    Raises:
        CompileError: for a declaration that runs code where it stands and is not a scalar's initializer."""
    deferred = False
    for d in children(decl_stmt):
        if d.kind != K.VAR_DECL or d.storage_class in (d.storage_class.STATIC, d.storage_class.EXTERN):
            continue
        ty = canonical(d.type)
        init = var_decl_initializer(d)
        sized = (CT.is_array(ty) and None in CT.array_shape(ty).dims) or fg.has_vla_pointee(ty)
        scalar = CT.is_numeric(ty) or ty.kind == T.POINTER
        if attributes.declaration_attributes(d, "local").cleanup is not None or sized or \
                init is not None and (not scalar or init.kind == K.INIT_LIST_EXPR):
            raise fg.unsupported(decl_stmt, "declaration directly inside a switch body with an initializer or a run-time "
                                    "size (put it in braces)")
        deferred |= init is not None
    if deferred:
        fg.deferred_inits.add(decl_stmt.hash)


def nested_labels(node) -> list:
    """The case/default labels inside statement `node` that belong to the enclosing switch (not to a nested
    switch): the switch's dispatch enters them as gotos (gotos.plan)."""
    out = []
    if node.kind == K.SWITCH_STMT:
        return out
    if node.kind in LABELS:
        out.append(node)
    for ch in node.get_children():
        out += nested_labels(ch)
    return out


RANGE_EXPANDED = 256  # a GNU case range of at most this many values is its values


def case_values(fg, case) -> list:
    """The labels of CASE_STMT `case`: [its integer constant]; for GNU's `case lo ... hi:` every value, or
    [("range", lo, hi)] when there are more than RANGE_EXPANDED (an empty range matches nothing: []).

    Raises:
        CompileError: a label that is not an integer constant."""
    ch = children(case)
    bounds = [evaluate(b) for b in ch[:-1]]
    if not bounds or not all(isinstance(v, int) for v in bounds):
        raise fg.unsupported(case, "case label that is not an integer constant")
    if len(bounds) == 1:
        return bounds
    lo, hi = bounds
    if hi - lo < RANGE_EXPANDED:
        return list(range(lo, hi + 1))
    return [("range", lo, hi)]


def emit_switch(fg, c):
    """Emit SWITCH_STMT `c` with FunctionGen `fg`.

    Raises:
        CompileError: for a switch with an initializer, on a non-integer value, or with a body `segments`
        rejects."""
    ch = children(c)
    if len(ch) != 2:
        raise fg.unsupported(c, "switch with an initializer or a declaration in its condition")
    cond, body = ch
    segs = segments(fg, body)
    for _, s in segs:  # (checked by segments: declaring them here runs no code; initializers run in place)
        if s.kind == K.DECL_STMT:
            fg.visit_DECL_STMT(s, initialize=False)
    seeking = gotos.entering_switch(fg, c)  # gotos from outside to labels in the body
    ct = canonical(cond.type)
    if not CT.is_int(ct):
        raise fg.unsupported(cond, f"switch on a value of type '{cond.type.spelling}'")
    flying = None  # a goto from outside is entering the body: the dispatch selects nothing then
    for k in seeking:
        flying = fg.env[k].value if flying is None else arith.ori(flying, fg.env[k].value)
    if seeking and not fg.pure(cond):  # evaluated only when no goto enters the body
        x = fg.emit_if(flying, lambda: fg.zero(ct), lambda: fg.rvalue(cond), [cond], result_type=CT.value_type(ct))
    else:
        x = fg.rvalue(cond)  # clang has promoted it already
    width = ir.IntegerType(x.type).width
    inner = [lab for _, s in segs for lab in nested_labels(s)]  # entered by the dispatch as gotos
    consts = [v for labels, _ in segs for v in labels if v != "default"] + \
        [v for lab in inner if lab.kind == K.CASE_STMT for v in case_values(fg, lab)]
    ranges = any(isinstance(v, tuple) for v in consts)
    unsigned = CT.is_unsigned(ct)

    def matches(v):
        if isinstance(v, tuple):  # lo <= x <= hi in the controlling type
            le = arith.CmpIPredicate.ule if unsigned else arith.CmpIPredicate.sle
            return arith.andi(arith.cmpi(le, fg.const_int(x.type, wrap(v[1], width)), x),
                              arith.cmpi(le, x, fg.const_int(x.type, wrap(v[2], width))))
        return arith.cmpi(arith.CmpIPredicate.eq, x, fg.const_int(x.type, wrap(v, width)))

    def hit(labels):
        h = fg.const_bool(False)  # (a segment whose only label is an empty range)
        for v in labels:
            if v == "default":
                t = fg.const_bool(True)
                for k in consts:  # default: no case matches
                    t = arith.andi(t, arith.xori(matches(k), fg.const_bool(True)))
            else:
                t = matches(v)
            h = arith.ori(h, t)
        if flying is not None:
            h = arith.andi(h, arith.xori(flying, fg.const_bool(True)))
        return h

    lid = next(fg.loop_ids)
    matched, brk = ("switch.matched", lid), ("switch.brk", lid)
    outer_cont = fg.loops[-1][1] if fg.loops else None
    parts = arms(segs)
    jumps = gotos.switch_labels(fg, c)  # labels of segments that gotos in this switch enter
    # (scf.index_switch lowers to a `switch` on the value truncated to 32 bits: wider values take the flag form)
    if width <= 32 and not ranges and not seeking and not inner and not jumps and without_fall_through(parts):
        fg.env[brk] = _binding(fg.const_bool(False))
        fg.loops.append((brk, outer_cont))
        try:
            switch_on_arms(fg, x, width, parts)
        finally:
            fg.loops.pop()
        del fg.env[brk]
        return
    fg.env[matched] = _binding(fg.const_bool(False))
    fg.env[brk] = _binding(fg.const_bool(False))
    fg.loops.append((brk, outer_cont))
    for n in jumps:
        fg.env[gotos.flag_key(n)] = _binding(fg.const_bool(False))
    for lab in inner:  # the dispatch: a nested case label matching the value is a goto to it
        vs = case_values(fg, lab) if lab.kind == K.CASE_STMT else ["default"]
        fg.env[gotos.flag_key(gotos.case_label(lab))] = _binding(hit(vs))

    def emit_segments():
        for labels, stmt in segs:
            if labels:
                fg.env[matched] = _binding(arith.ori(fg.env[matched].value, hit(labels)))
            if stmt.kind == K.NULL_STMT or stmt.kind == K.DECL_STMT and stmt.hash not in fg.deferred_inits:
                continue  # (declarations: before the dispatch; a scalar's initializer runs here)
            entered = tuple(gotos.flag_key(n) for n, entry in jumps.items() if entry == stmt.hash) + \
                tuple(k for k, route in seeking.items() if stmt.hash in route)
            for k in entered:  # a goto enters here: as if this segment's case matched
                fg.env[matched] = _binding(arith.ori(fg.env[matched].value, fg.env[k].value))
            go = fg.env[matched].value
            rest = fg.not_exited(exclude=entered)
            if rest is not None:
                go = arith.andi(go, rest)
            fg.emit_if(go, lambda s=stmt: fg.visit(s), None, [stmt])

    try:
        if jumps:
            gotos.repeat_while_set(fg, [gotos.flag_key(n) for n in jumps], [s for _, s in segs], emit_segments,
                                   extra=[matched, brk])
        else:
            emit_segments()
    finally:
        fg.loops.pop()
        for n in jumps:
            fg.env.pop(gotos.flag_key(n), None)
    del fg.env[matched]
    del fg.env[brk]


def arms(segs) -> list:
    """[(labels, [stmt...])]: each labelled segment with the unlabelled ones that follow it."""
    out = []
    for labels, stmt in segs:
        if labels or not out:
            out.append((list(labels), [stmt]))
        else:
            out[-1][1].append(stmt)
    return out


def _ends_in_jump(stmt) -> bool:
    while stmt.kind == K.COMPOUND_STMT and children(stmt):
        stmt = children(stmt)[-1]
    return stmt.kind in (K.BREAK_STMT, K.RETURN_STMT, K.CONTINUE_STMT)


def without_fall_through(parts) -> bool:
    """Whether control never falls from one arm into the next: every arm but the last ends in a jump (and the
    body starts with a label: statements before the first one are unreachable except through gotos)."""
    return bool(parts) and bool(parts[0][0]) and all(_ends_in_jump(stmts[-1]) for _, stmts in parts[:-1])


def switch_on_arms(fg, x, width, parts):
    """Emit a switch without fall-through on value `x` (an integer of `width` bits) as scf.index_switch over its
    arms `parts` (see arms)."""
    index = arith.index_cast(ir.IndexType.get(), x)
    default = next((i for i, (labels, _) in enumerate(parts) if "default" in labels), None)
    nodes = [s for _, stmts in parts for s in stmts]

    def body(stmts):
        return lambda: fg.emit_stmts([s for s in stmts if s.kind != K.DECL_STMT or s.hash in fg.deferred_inits])

    if all(len(labels) == 1 for labels, _ in parts):  # one label per arm: switch on the value itself
        arm = [(wrap(labels[0], width), i) for i, (labels, _) in enumerate(parts) if i != default]
    else:  # several: the value selects its arm's number first (LLVM makes that a lookup table)
        arm_of = [(wrap(v, width), i) for i, (labels, _) in enumerate(parts) for v in labels if v != "default"]
        none = -1 if default is None else default
        selected = scf.IndexSwitchOp([ir.IndexType.get()], index, [v for v, _ in arm_of])
        for block, i in [(selected.default_block, none)] + [(b, i) for b, (_, i) in zip(selected.case_blocks, arm_of)]:
            with ir.InsertionPoint(block):
                scf.YieldOp([fg.const_index(i)])
        index = selected.results[0]
        arm = [(i, i) for i in range(len(parts)) if i != default]
    fg.emit_index_switch(index, [v for v, _ in arm], [body(parts[i][1]) for _, i in arm],
                         body(parts[default][1]) if default is not None else None, nodes)


def wrap(v: int, width: int) -> int:
    """Case constant `v` converted to the (promoted) controlling type of `width` bits, as a signed value."""
    v &= (1 << width) - 1
    return v - (1 << width) if v >> (width - 1) else v


def _binding(v):
    return Binding(v)
