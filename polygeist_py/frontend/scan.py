"""Pre-scans of statement subtrees that the walker needs before emitting a region op.

A structured op (scf.if, scf.for, affine.for, scf.while) must know, before its body is built, which C variables
the body assigns (they become results / iter_args) and whether the body can leave early (break, continue,
return), which the walker models with flag variables.
"""

from __future__ import annotations

from ..clang_ast import K, T, canonical, children, strip_implicit, unary_op
from . import c_types as CT

# declarations whose body declares local variables (a variable declared elsewhere is a global or a member)
BODY_KINDS = (K.FUNCTION_DECL, K.CXX_METHOD, K.CONSTRUCTOR, K.DESTRUCTOR, K.CONVERSION_FUNCTION, K.FUNCTION_TEMPLATE)

LOOPS = (K.FOR_STMT, K.WHILE_STMT, K.DO_STMT)
ASSIGN_OPS = ("=",)

# Functions whose first argument `&var` (or a cast of it) is written by the call: the walker assigns `var`
# itself instead of taking its address.
OUT_PARAM_CALLS = {"cudaMalloc": 0, "cudaMallocManaged": 0, "cudaMallocHost": 0, "posix_memalign": 0,
                   "cudaEventCreate": 0, "cudaEventElapsedTime": 0}
RECORD_CALLS = {"cudaEventRecord": 0}  # the event argument is assigned the current time


def decl_key(cursor) -> int:
    return cursor.hash


def assigned_target(lhs):
    """The declaration a C lvalue expression assigns as a whole variable (x, or d.x of a dim3), else None."""
    lhs = strip_implicit(lhs)
    if lhs.kind == K.MEMBER_REF_EXPR:
        ch = children(lhs)
        if ch:
            lhs = strip_implicit(ch[0])
    if lhs.kind == K.DECL_REF_EXPR and lhs.referenced is not None and lhs.referenced.kind in (K.VAR_DECL, K.PARM_DECL):
        return lhs.referenced
    return None


def address_of_operand(arg):
    """`&x` or `(void**)&x` -> the UNARY_OPERATOR `&` cursor, else None."""
    a = strip_implicit(arg)
    while a.kind in (K.CSTYLE_CAST_EXPR, K.CXX_STATIC_CAST_EXPR, K.CXX_REINTERPRET_CAST_EXPR):
        a = strip_implicit(children(a)[-1])
    return a if a.kind == K.UNARY_OPERATOR and unary_op(a) == "&" else None


def out_param_var(arg):
    """`&x` or `(void**)&x` -> x's declaration, else None."""
    amp = address_of_operand(arg)
    return assigned_target(children(amp)[0]) if amp is not None else None


def call_name(call) -> str:
    ref = call.referenced
    return ref.spelling if ref is not None else ""


# Per-node answers of the scans below, memoized for the translation unit being walked: the walker asks them of
# every statement it emits about everything nested inside it (an `else if` chain of n arms would otherwise cost
# O(n^2) cursor visits). Cleared per translation unit (clear_memo).
_MEMO: dict = {}


def clear_memo() -> None:
    """Forget the memoized scans (call before walking another translation unit)."""
    _MEMO.clear()


def _memo_key(c, *what):
    return (c.hash, c.kind.value, c.extent.start.offset, c.extent.end.offset) + what


def assigned_decls(nodes) -> set:
    """Keys of the variables assigned anywhere in `nodes` (declared inside or outside them)."""
    out = set()
    for n in nodes:
        out |= _assigned(n)
    return out


def _assigned(c) -> frozenset:
    key = _memo_key(c, "assigned")
    hit = _MEMO.get(key)
    if hit is None:
        hit = _MEMO[key] = frozenset(_assigned_uncached(c))
    return hit


def _assigned_uncached(c) -> set:
    out = set()

    def visit(c):
        k = c.kind
        if k == K.BINARY_OPERATOR and c.binary_operator.name == "Assign" or k == K.COMPOUND_ASSIGNMENT_OPERATOR:
            t = assigned_target(children(c)[0])
            if t is not None:
                out.add(decl_key(t))
        elif k == K.UNARY_OPERATOR and unary_op(c) in ("pre++", "pre--", "post++", "post--"):
            t = assigned_target(children(c)[0])
            if t is not None:
                out.add(decl_key(t))
        elif k == K.ASM_STMT:  # (its outputs: inputs too, conservatively)
            out.update(decl_key(t) for t in map(assigned_target, children(c)) if t is not None)
        elif k == K.CALL_EXPR:
            name = call_name(c)
            args = list(c.get_arguments())
            pos = OUT_PARAM_CALLS.get(name, RECORD_CALLS.get(name))
            if pos is not None and pos < len(args):
                t = out_param_var(args[pos]) if name in OUT_PARAM_CALLS else assigned_target(args[pos])
                if t is not None:
                    out.add(decl_key(t))
        for ch in c.get_children():
            if ch.kind.is_statement():  # (memoized per statement)
                out.update(_assigned(ch))
            else:
                visit(ch)

    visit(c)
    return out


def parameters(fn) -> list:
    """The PARM_DECL cursors of function declaration `fn` itself. Its children also hold the parameters of a
    function type written in its result (`int (*pick(int cls))(const void *, int)` has three PARM_DECL
    children, sqlite's ftsHashFunction), so they are read as the function's arguments."""
    if fn.kind in (K.FUNCTION_DECL, K.CXX_METHOD, K.CONSTRUCTOR, K.DESTRUCTOR, K.CONVERSION_FUNCTION):
        return list(fn.get_arguments())
    return [c for c in children(fn) if c.kind == K.PARM_DECL]


def reference_arguments(call) -> list:
    """The arguments of a C++ call that bind to reference parameters (`f(x)` with `void f(int &)`)."""
    callee = call.referenced
    if callee is None or callee.kind not in (K.FUNCTION_DECL, K.CXX_METHOD, K.CONSTRUCTOR):
        return []
    ft = callee.type.get_canonical()
    if ft.kind != T.FUNCTIONPROTO:
        return []
    params = list(ft.argument_types())
    args = list(call.get_arguments())
    if len(args) == len(params) + 1 and callee.kind == K.CXX_METHOD:  # `a + b`: the object comes first
        args = args[1:]
    return [a for a, p in zip(args, params) if p.get_canonical().kind in (T.LVALUEREFERENCE, T.RVALUEREFERENCE)]


def reference_initializer(decl):
    """The expression a reference variable `T &r = x;` is bound to, else None."""
    if decl.type.get_canonical().kind not in (T.LVALUEREFERENCE, T.RVALUEREFERENCE):
        return None
    inits = [e for e in children(decl) if e.kind.is_expression()]
    return inits[-1] if inits else None


def address_taken(body) -> set:
    """Keys of variables whose address escapes (`&x` other than in the out-parameter calls above, and C++
    references bound to them: arguments of `T &` parameters, `T &r = x;`)."""
    out, skip = set(), set()

    def bound(e):
        t = strip_implicit(e)
        if t.kind == K.DECL_REF_EXPR and t.referenced is not None and t.referenced.kind in (K.VAR_DECL, K.PARM_DECL):
            out.add(decl_key(t.referenced))

    def visit(c):
        if c.kind == K.LAMBDA_EXPR and any(t.spelling == "&" for t in _capture_tokens(c)):
            for ch in c.walk_preorder():  # captured by reference: the closure holds their addresses
                if ch.kind == K.DECL_REF_EXPR:
                    bound(ch)
                elif ch.kind == K.VARIABLE_REF and ch.referenced is not None and \
                        ch.referenced.kind == K.VAR_DECL and canonical(ch.referenced.type).kind == T.LVALUEREFERENCE:
                    for init in ch.referenced.get_children():  # an init capture by reference `[&r = x]`
                        bound(init)
        if c.kind == K.CALL_EXPR:
            for a in reference_arguments(c):
                bound(a)
        elif c.kind == K.VAR_DECL and reference_initializer(c) is not None:
            bound(reference_initializer(c))
        elif c.kind == K.INIT_LIST_EXPR and canonical(c.type).kind == T.RECORD:
            fields = list(canonical(c.type).get_fields())  # `Acc a{local};` with a member `int &count`
            for f, item in zip(fields, children(c)):
                if f.type.get_canonical().kind in (T.LVALUEREFERENCE, T.RVALUEREFERENCE):
                    bound(item)
        if c.kind == K.CALL_EXPR and call_name(c) in OUT_PARAM_CALLS:
            args = list(c.get_arguments())
            pos = OUT_PARAM_CALLS[call_name(c)]
            amp = address_of_operand(args[pos]) if pos < len(args) else None
            if amp is not None:
                skip.add(amp.hash)
        if c.kind == K.UNARY_OPERATOR and unary_op(c) == "&" and c.hash not in skip:
            t = strip_implicit(children(c)[0])
            while t.kind == K.PAREN_EXPR or t.kind == K.UNARY_OPERATOR and unary_op(t) in ("__real", "__imag"):
                t = strip_implicit(children(t)[0])  # (`&__imag__ z`: the address of a part of z)
            if t.kind == K.DECL_REF_EXPR and t.referenced is not None and t.referenced.kind in (K.VAR_DECL, K.PARM_DECL):
                out.add(decl_key(t.referenced))
        for ch in c.get_children():
            visit(ch)

    visit(body)
    return out


def _capture_tokens(lam) -> list:
    """The tokens of LAMBDA_EXPR `lam`'s capture list (`[&, n]` -> '&', ',', 'n')."""
    out = []
    for t in list(lam.get_tokens())[1:]:
        if t.spelling == "]":
            break
        out.append(t)
    return out


def exits(node, kinds) -> bool:
    """Whether `node` contains a statement of `kinds` (BREAK_STMT binds to the nearest loop or switch,
    CONTINUE_STMT to the nearest loop, so those nested inside `node` hide them; RETURN_STMT is never hidden).
    A computed goto (`goto *p`) is a GOTO_STMT here."""
    kinds = frozenset(kinds)
    if K.GOTO_STMT in kinds:
        kinds |= {K.INDIRECT_GOTO_STMT}
    return not kinds.isdisjoint(_escaping(node))


_JUMPS = frozenset({K.RETURN_STMT, K.GOTO_STMT, K.INDIRECT_GOTO_STMT, K.BREAK_STMT, K.CONTINUE_STMT})


def _escaping(c) -> frozenset:
    """The kinds of jump statements inside `c` that leave it (one summary per statement, memoized: the walker
    asks about several kinds of every statement it emits)."""
    k = c.kind
    if k == K.LAMBDA_EXPR:
        return frozenset()  # the body of another function
    if not k.is_statement():
        return frozenset().union(*(_escaping(ch) for ch in c.get_children()))
    key = _memo_key(c, "escaping")
    hit = _MEMO.get(key)
    if hit is None:
        hit = frozenset().union(*(_escaping(ch) for ch in c.get_children()))
        if k in LOOPS:
            hit -= {K.BREAK_STMT, K.CONTINUE_STMT}
        elif k == K.SWITCH_STMT:
            hit -= {K.BREAK_STMT}
        if k in _JUMPS:
            hit |= {k}
        _MEMO[key] = hit
    return hit


def contains(node, kinds) -> bool:
    """Whether `node` is or contains a node of cursor kinds `kinds`."""
    if node.kind in kinds:
        return True
    if not node.kind.is_statement():
        return any(contains(ch, kinds) for ch in node.get_children())
    kinds = frozenset(kinds)
    key = _memo_key(node, "contains", kinds)
    hit = _MEMO.get(key)
    if hit is None:
        hit = _MEMO[key] = any(contains(ch, kinds) for ch in node.get_children())
    return hit


def parameter_type(p):
    """The type of parameter declaration `p` after C's adjustment (C11 6.7.6.3p7: `char *argv[]` is `char **`).

    libclang reports a parameter's declared type (clang's DecayedType shows its original array type); the
    canonical prototype of the enclosing function holds the adjusted one. A K&R definition has no prototype:
    its declared type is returned."""
    t = p.type
    if not CT.is_array(t):
        return t
    fn = p.semantic_parent
    params = parameters(fn) if fn is not None else []
    proto = fn.type.get_canonical() if fn is not None else None
    if proto is None or proto.kind != T.FUNCTIONPROTO or p not in params:
        return t
    return list(proto.argument_types())[params.index(p)]


def adjusted_type(e):
    """The canonical type of expression `e` as C gives it. libclang types an array parameter, and pointer
    arithmetic on it (`argv + 1`, `argv++`, `p = argv`, `c ? argv : q`), with the parameter's declared array
    type; these are pointers. Every other expression keeps its canonical type."""
    ty = e.type.get_canonical()
    if ty.kind not in CT.ARRAY_KINDS:
        return ty
    s = strip_implicit(e)
    if s.kind == K.DECL_REF_EXPR:
        r = s.referenced
        return parameter_type(r).get_canonical() if r is not None and r.kind == K.PARM_DECL else ty
    if s.kind in (K.BINARY_OPERATOR, K.COMPOUND_ASSIGNMENT_OPERATOR, K.CONDITIONAL_OPERATOR) or \
            s.kind == K.UNARY_OPERATOR and unary_op(s) in ("pre++", "pre--", "post++", "post--"):
        for operand in children(s):
            at = adjusted_type(operand)
            if at.kind == T.POINTER:
                return at
    return ty


def is_array_parameter(e) -> bool:
    """Whether `e`, which libclang types as an array, is a pointer in C (see `adjusted_type`)."""
    return CT.is_array(e.type) and adjusted_type(e).kind == T.POINTER
