"""Jumps out of GNU statement expressions: `({ int r_ = f(); if (r_ < 0) return r_; r_; })`, the error-check
macros of C projects (`TRY(x)`), and `({ if (!p) continue; p; })` in loops.

The walker compiles return, break and continue into exit flags (stmts.py): the statements after one that may
exit run under a guard. A jump inside an expression is sound the same way only when nothing of the enclosing
statement runs after the expression, since later operands of the statement are not guarded: so it is accepted
where the statement expression is the whole statement (`TRY(x);`, `(void)TRY(x);`), the initializer of a local
variable (`int n = TRY(x);`) or the right side of an assignment to a local variable whose address is not taken
(`n = TRY(x);`, `sum += TRY(x);`). There an exit leaves the variable with a value nobody can read. A goto out of a statement
expression, and any jump from one in another position, stays an error naming it."""

from __future__ import annotations

from ..clang_ast import K, canonical, children, strip_implicit, var_decl_initializer
from .scan import decl_key


def _unparen(e):
    while e is not None and e.kind == K.PAREN_EXPR and len(children(e)) == 1:
        e = strip_implicit(children(e)[0])
    return e


def _is_local(d, fg) -> bool:
    """A block-scope automatic variable of the function whose address is not taken."""
    return d is not None and d.kind == K.VAR_DECL and d.semantic_parent is not None and \
        d.semantic_parent.kind in (K.FUNCTION_DECL, K.CXX_METHOD) and \
        d.storage_class not in (d.storage_class.STATIC, d.storage_class.EXTERN) and \
        decl_key(d) not in fg.addr_taken


def exit_safe(fg, s):
    """The hash of the statement expression that statement `s` ends with (see the module doc), else None.

    fg: the FunctionGen emitting `s` (its addr_taken set); s: a statement cursor."""
    e = None
    if s.kind == K.DECL_STMT:
        ds = children(s)
        if len(ds) == 1 and _is_local(ds[0], fg):
            e = var_decl_initializer(ds[0])
    elif s.kind == K.BINARY_OPERATOR and s.binary_operator.name == "Assign" or \
            s.kind == K.COMPOUND_ASSIGNMENT_OPERATOR:
        lhs, rhs = children(s)
        lhs = _unparen(strip_implicit(lhs))
        if lhs.kind == K.DECL_REF_EXPR and _is_local(lhs.referenced, fg):
            e = rhs
    elif s.kind == K.CSTYLE_CAST_EXPR and canonical(s.type).kind.name == "VOID":
        e = children(s)[-1]
    elif s.kind.is_expression():
        e = s
    e = _unparen(strip_implicit(e)) if e is not None else None
    return e.hash if e is not None and e.kind == K.StmtExpr else None
