"""Pre-scans for OpenMP regions (openmp_regions): which `parallel` constructs are general regions, which
variables must live in memory because an omp op's region assigns them, and the data races that are errors.

A data race here is an assignment, in code the threads of a team run concurrently, to a variable they share:
declared outside the region and not private, or a global or static local. Code that one thread at a time
runs (critical, atomic, single, master, masked, sections, `if (omp_get_thread_num() == c)`) and the variables
a worksharing loop's clauses privatize are exempt. Accesses through pointers and array elements are not
checked (as gcc, pgcc cannot tell them apart from the disjoint accesses of well-formed loops).
"""

from __future__ import annotations

import re

from ..clang_ast import K, T, canonical, children, strip_implicit, unary_op
from ..errors import CompileError
from . import c_types as CT
from . import openmp as O
from .scan import BODY_KINDS, assigned_decls, assigned_target, decl_key, exits

SYNC = ("single", "master", "masked", "critical", "sections", "ordered")  # constructs that are one omp op with a region
EXCLUSIVE = ("single", "master", "masked", "critical", "section", "sections", "ordered", "atomic", "atomic read",
             "atomic write", "atomic capture")  # one thread at a time runs them: shared writes are no race


def general_parallel(gen, stmt, dirs) -> bool:
    """Whether a `parallel ...` construct is emitted as an omp.parallel region (else it is one of the simple
    forms openmp.py makes `scf.parallel`)."""
    names = [d.name for d in dirs]
    if names[0] == "parallel sections":
        return True
    if any(c.name in ("if", "num_threads") for c in dirs[0].clauses):
        return True  # (scf.parallel has no condition or thread count)
    if names in (["parallel for"], ["parallel", "for"]):
        return needs_region(gen, stmt, dirs)
    if names == ["parallel"]:
        return not O.simple_region(gen, stmt) or any(
            needs_region(gen, s, dirs + gen.omp[s.hash]) for s in children(stmt) if s.hash in gen.omp)
    return names[0] == "parallel"


def needs_region(gen, loop, dirs) -> bool:
    """Whether a worksharing loop needs omp ops: scf.parallel has no lastprivate, array reductions,
    per-thread copies of variables in memory, private scalars an iteration may read before assigning them
    (each thread's copy carries its value from one of the thread's iterations to the next), or constructs that
    one thread at a time runs."""
    return any(c.name in ("lastprivate", "ordered") or c.name == "reduction" and array_items(gen, loop, c)
               or c.name in ("private", "firstprivate", "reduction") and memory_items(gen, loop, c)
               for d in dirs for c in d.clauses) or \
        any(ds[0].name in EXCLUSIVE and ds[0].name != "atomic" for _, ds in directed(gen, loop)) or \
        _thread_copies_differ(gen, loop, dirs)


def _thread_copies_differ(gen, loop, dirs) -> bool:
    """Whether an iteration of `loop` may see what an earlier iteration of its thread left in a private,
    firstprivate or reduction scalar: it may read a private one before assigning it (hotspot's `delta`,
    assigned in an if / else-if chain without a final else), or assign a reduction one before reading it
    (backprop's `sum = 0.0` in a `reduction(+: sum)` loop, which then combines each thread's last value).
    scf.parallel's copies are per iteration, so only an omp.wsloop's per-thread copies give what OpenMP
    defines."""
    loop = O.unwrap_hints(loop)
    if loop is None or loop.kind != K.FOR_STMT or not dirs:
        return False
    private, reduced = listed(dirs, ("private", "firstprivate")), listed(dirs, ("reduction",))
    if not private and not reduced:
        return False
    ivs = loop_ivs(gen, loop, dirs[-1])
    body = gen.for_parts(loop)[3]
    assigned, local = assigned_decls([body]) - ivs, declared_in(body)
    ops = {decl_key(v): reduction_op(c) for d in dirs for c in d.clauses if c.name == "reduction"
           for t, _ in items(c) for v in var_refs(loop).get(t, [])}
    return any(k in assigned and k not in local and may_read_unassigned(gen, body, k)
               for k in keys(loop, private)) or \
        any(k in assigned and k not in local and (may_read_unassigned(gen, body, k, kill=True) or
                                                  not only_updates(body, k, ops.get(k)))
            for k in keys(loop, reduced))


def reduction_op(clause) -> str:
    """The operator of a `reduction(op: ...)` clause ('' when it has none)."""
    args = clause.args or []
    colon = next((i for i, (t, _) in enumerate(args) if t == ":"), None)
    return "".join(t for t, _ in args[:colon]) if colon is not None else ""


# the binary operators that update a reduction variable as its operator combines (x op= e, x = x op e)
_UPDATES = {"+": ("Add", "Sub"), "-": ("Add", "Sub"), "*": ("Mul",), "&": ("And",), "|": ("Or",), "^": ("Xor",),
            "&&": ("LAnd",), "||": ("LOr",)}


def only_updates(body, key, op) -> bool:
    """Whether `body` uses reduction variable `key` only to update it with its operator `op`: `x op= e`,
    `x++`, `x = x op e` (e not using x), an assignment `x = e` without x, and for max/min any assignment
    `x = f(x, e)` and the condition of an `if` that assigns x (`if (v > m) m = v;`). Any other read of x
    sees a thread's partial value, which scf.parallel's per-iteration copies would not give."""
    names = _UPDATES.get(op)

    def uses(c):
        return key in {decl_key(v) for vs in var_refs(c).values() for v in vs}

    def is_x(c):
        c = strip_implicit(c)
        return c.kind == K.DECL_REF_EXPR and c.referenced is not None and decl_key(c.referenced) == key

    def ok(c) -> bool:
        k = c.kind
        if k == K.DECL_REF_EXPR:
            return not is_x(c)
        if k == K.COMPOUND_ASSIGNMENT_OPERATOR and is_x(children(c)[0]):
            rhs = children(c)[1]
            return names is not None and c.binary_operator.name[:-len("Assign")] in names and not uses(rhs)
        if k == K.UNARY_OPERATOR and unary_op(c) in ("pre++", "pre--", "post++", "post--") and \
                is_x(children(c)[0]):
            return op in ("+", "-")
        if k == K.BINARY_OPERATOR and c.binary_operator.name == "Assign" and is_x(children(c)[0]):
            rhs = strip_implicit(children(c)[1])
            if not uses(rhs) or op in ("max", "min"):
                return True
            if names is None or rhs.kind != K.BINARY_OPERATOR or rhs.binary_operator.name not in names:
                return False
            a, b = children(rhs)
            return is_x(a) and not uses(b) or rhs.binary_operator.name != "Sub" and is_x(b) and not uses(a)
        if k == K.IF_STMT and op in ("max", "min") and key in assigned_decls(children(c)[1:]):
            return all(ok(ch) for ch in children(c)[1:])
        return all(ok(ch) for ch in c.get_children())

    return ok(body)


class _Read(Exception):
    pass


def may_read_unassigned(gen, node, key, kill: bool = False) -> bool:
    """Whether some path through statement `node` may read variable `key` before assigning it as a whole
    (a definite-assignment analysis in the manner of Java's JLS chapter 16, conservative: a loop body may run
    zero times, both arms of a branch must assign, any other use in a construct it does not model (switch,
    goto, a member or an address) counts as a read). With `kill`, the roles swap: whether some path may
    assign `key` as a whole (`x = e`) before reading it."""
    try:
        _flow(gen, node, key, False, kill)
    except _Read:
        return True
    return False


def _flow(gen, c, key, done: bool, kill: bool = False) -> bool:
    """Whether `key` is assigned (with `kill`: read) after `c` runs, given `done` before it; raises _Read at a
    read (an assignment) while not."""
    if c is None:
        return done
    k = c.kind

    if k == K.DECL_REF_EXPR:
        if c.referenced is not None and decl_key(c.referenced) == key:
            if kill:
                return True
            if not done:
                raise _Read
        return done
    if k == K.VAR_DECL and decl_key(c) == key:
        return True  # (a declaration of its own in the loop: assigned where it is declared, or each iteration's)
    if k == K.BINARY_OPERATOR and c.binary_operator.name == "Assign":
        lhs, rhs = children(c)
        done = _flow(gen, rhs, key, done, kill)
        lhs_s = strip_implicit(lhs)
        if lhs_s.kind == K.DECL_REF_EXPR and lhs_s.referenced is not None and decl_key(lhs_s.referenced) == key:
            if kill and not done:
                raise _Read
            return True
        return _flow(gen, lhs, key, done, kill)
    if k == K.BINARY_OPERATOR and c.binary_operator.name in ("LAnd", "LOr"):
        lhs, rhs = children(c)
        done = _flow(gen, lhs, key, done, kill)
        _flow(gen, rhs, key, done, kill)
        return done
    if k == K.CONDITIONAL_OPERATOR:
        cond, a, b = children(c)
        done = _flow(gen, cond, key, done, kill)
        return _flow(gen, a, key, done, kill) and _flow(gen, b, key, done, kill)
    if k == K.IF_STMT:
        ch = children(c)
        done = _flow(gen, ch[0], key, done, kill)
        then = _flow(gen, ch[1], key, done, kill)
        return then and (_flow(gen, ch[2], key, done, kill) if len(ch) > 2 else done)
    if k == K.FOR_STMT:
        init, cond, inc, body = gen.for_parts(c)
        done = _flow(gen, cond, key, _flow(gen, init, key, done, kill), kill)
        _flow(gen, inc, key, _flow(gen, body, key, done, kill), kill)
        return done
    if k == K.WHILE_STMT:
        cond, body = children(c)[-2:]
        done = _flow(gen, cond, key, done, kill)
        _flow(gen, body, key, done, kill)
        return done
    if k == K.DO_STMT:
        body, cond = children(c)
        return _flow(gen, cond, key, _flow(gen, body, key, done, kill), kill)
    if k in (K.COMPOUND_STMT, K.DECL_STMT, K.VAR_DECL, K.PAREN_EXPR, K.UNEXPOSED_EXPR, K.RETURN_STMT,
             K.NULL_STMT, K.BREAK_STMT, K.CONTINUE_STMT) or k.is_expression() and k not in (
                K.UNARY_OPERATOR, K.MEMBER_REF_EXPR, K.COMPOUND_ASSIGNMENT_OPERATOR):
        # in order; the operands of other expressions in an unspecified order: each sees only what came
        # before the expression (a break or continue ends no path here: more paths, still conservative)
        seq = k in (K.COMPOUND_STMT, K.DECL_STMT)
        out = done
        for ch in children(c):
            r = _flow(gen, ch, key, out if seq else done, kill)
            out = out or r
        return out
    used = key in {decl_key(v) for vs in var_refs(c).values() for v in vs}
    if kill:  # (an assignment there, as in `switch`, is conservatively one before the read)
        if used and not done and key in assigned_decls([c]) and k not in (K.UNARY_OPERATOR,
                                                                          K.COMPOUND_ASSIGNMENT_OPERATOR):
            raise _Read
        return done or used
    if done or not used:
        return done  # (the constructs not modelled: switch, goto, labels, ++/--, members, &)
    raise _Read


def array_items(gen, stmt, clause) -> bool:
    """Whether a reduction clause lists an array (`a`, `a[:n]`)."""
    if any(t == "[" for t, _ in clause.args or []):
        return True
    refs = var_refs(stmt)
    for t, _ in clause.args or []:
        for v in refs.get(t, []):
            if CT.is_array(canonical(v.type)):
                return True
    return False


def memory_items(gen, stmt, clause) -> bool:
    """Whether a clause lists a variable that lives in memory (a global, a static local, a struct, an array,
    a scalar whose address is taken): scf.parallel's per-iteration SSA copies cannot privatize those."""
    refs = var_refs(stmt)
    for t, _ in items(clause):
        for v in refs.get(t, []):
            ty = canonical(v.type)
            if shared_decl(v, None, set()) or decl_key(v) in gen.addr_taken or ty.kind == T.RECORD or \
                    CT.is_array(ty):
                return True
    return False



def var_refs(node) -> dict:
    """{name: [declarations of variables that `node` refers to by that name]}."""
    out: dict = {}

    def visit(c):
        if c.kind == K.DECL_REF_EXPR and c.referenced is not None and c.referenced.kind in (K.VAR_DECL, K.PARM_DECL):
            lst = out.setdefault(c.referenced.spelling, [])
            if all(decl_key(v) != decl_key(c.referenced) for v in lst):
                lst.append(c.referenced)
        for ch in c.get_children():
            visit(ch)

    visit(node)
    return out


def clause_refs(node) -> dict:
    """var_refs of a construct without the variables declared inside it: a clause's names are the variables
    visible at the directive (`private(j)` is the outer `j`, not a `for (int j = ...)` in the loop)."""
    inner = declared_in(node)
    refs = {n: [v for v in vs if decl_key(v) not in inner] for n, vs in var_refs(node).items()}
    return {n: vs for n, vs in refs.items() if vs}


def declared_in(node) -> set:
    out = set()

    def visit(c):
        if c.kind == K.VAR_DECL and c.storage_class not in (c.storage_class.STATIC, c.storage_class.EXTERN):
            out.add(decl_key(c))
        for ch in c.get_children():
            visit(ch)

    visit(node)
    return out


def items(clause) -> list:
    """[(name, where)] of a clause's list (after `op:` for reduction; array sections `a[lo:len]` by name)."""
    args = clause.args or []
    if clause.name == "reduction":
        colon = next((i for i, (t, _) in enumerate(args) if t == ":"), None)
        args = args[colon + 1:] if colon is not None else []
    out, depth = [], 0
    for t, w in args:
        depth += (t == "[") - (t == "]")
        if depth == 0 and re.match(r"[A-Za-z_]\w*$", t) and (not out or out[-1][2]):
            out.append([t, w, False])
        if depth == 0 and t == "," and out:
            out[-1][2] = True
    return [(t, w) for t, w, _ in out]


def listed(dirs, names) -> set:
    return {t for d in dirs for c in d.clauses if c.name in names for t, _ in items(c)}


def keys(node, names) -> set:
    refs = var_refs(node)
    return {decl_key(v) for n in names for v in refs.get(n, [])}


def loop_ivs(gen, stmt, d) -> set:
    """Keys of the induction variables of a worksharing loop (and of its collapsed loops)."""
    collapse = 1
    for c in d.clauses:
        if c.name == "collapse" and c.args and c.args[0][0].isdigit():
            collapse = int(c.args[0][0])
    out, c = set(), O.unwrap_hints(stmt)
    for _ in range(collapse):
        if c is None or c.kind != K.FOR_STMT:
            break
        init = children(c)[0]
        if init.kind == K.DECL_STMT and children(init):
            out.add(decl_key(children(init)[0]))
        elif init.kind == K.BINARY_OPERATOR:
            t = assigned_target(children(init)[0])
            if t is not None:
                out.add(decl_key(t))
        body = children(c)[-1]
        inner = [s for s in children(body) if s.kind != K.NULL_STMT] if body.kind == K.COMPOUND_STMT else [body]
        c = O.unwrap_hints(inner[0]) if len(inner) == 1 else None
    return out


def memory_variables(gen, body) -> set:
    """Keys of the variables that must live in memory because an omp op's region assigns them while they are
    declared outside it (the walker then treats them as address-taken; see the module docstring): shared
    variables assigned in a general parallel region, variables assigned inside single/master/masked/
    critical/sections, the reduction and lastprivate variables of omp.wsloop loops."""
    out = set()

    def visit(c, ctx):  # ctx: None outside parallel regions, "general" or "simple" (openmp.simple_region)
        dirs = [d for d in gen.omp.get(c.hash, []) if d.name not in O.STANDALONE]
        names = [d.name for d in dirs]
        if names and names[0].startswith("parallel"):
            if general_parallel(gen, c, dirs):
                ctx = "general"
                private = keys(c, listed(dirs[:1], ("private", "firstprivate")))
                ivs = set()
                for s, ds in directed(gen, c):
                    if ds[0].name in ("for", "parallel for"):
                        ivs |= loop_ivs(gen, s, ds[0])
                if names[0] == "parallel for":
                    ivs |= loop_ivs(gen, c, dirs[0])
                out.update(assigned_decls([c]) - declared_in(c) - private - ivs)
            else:
                ctx = "simple"
        if names and (names[0] in SYNC or names[0] == "parallel sections"):
            out.update(assigned_decls([c]) - declared_in(c))
        if names and ctx != "simple" and (names[0] == "for" or names[0] == "parallel for" and ctx == "general"):
            out.update(keys(c, listed(dirs, ("reduction", "lastprivate"))) -
                       pointer_sections(gen, c, [cl for d in dirs for cl in d.clauses]))
            out.update(carried(c, loop_ivs(gen, c, dirs[0])))
        for ch in c.get_children():
            visit(ch, ctx)

    visit(body, None)
    if out - gen.addr_taken:  # a list item now in memory may turn a simple parallel loop into a region
        gen.addr_taken |= out
        return out | memory_variables(gen, body)
    return out


def carried(loop, ivs) -> set:
    """Keys of the variables declared outside a worksharing loop that its body assigns, other than inner loop
    counters (`for (j = 0; ...)`, assigned before any use in each iteration): a thread's later iterations see
    what its earlier ones assigned (`local += ...`, then combined after the loop), so they live in memory."""
    body = children(loop)[-1]
    counters: dict = {}

    def visit(c, inside):
        if c.kind == K.FOR_STMT:
            init = children(c)[0]
            t = assigned_target(children(init)[0]) if init.kind == K.BINARY_OPERATOR and \
                init.binary_operator.name == "Assign" else None
            if t is not None:
                inside = inside | {decl_key(t)}
        if c.kind == K.DECL_REF_EXPR and c.referenced is not None:
            k = decl_key(c.referenced)
            counters[k] = counters.get(k, True) and k in inside
        for ch in c.get_children():
            visit(ch, inside)

    visit(body, frozenset())
    return {k for k in assigned_decls([body]) - declared_in(body) - ivs if not counters.get(k, False)}


def directed(gen, node) -> list:
    """[(statement, its directives)] of the statements inside `node` that have directives."""
    out = []

    def visit(c):
        if c.hash in gen.omp and c is not node:
            out.append((c, gen.omp[c.hash]))
        for ch in c.get_children():
            visit(ch)

    visit(node)
    return out


# ------------------------------------------------------------------------------------------ data races
def shared_decl(decl, region, private: set) -> bool:
    """Whether variable `decl` is shared by the threads of `region` (None: an orphaned construct)."""
    if decl.kind == K.VAR_DECL and (decl.storage_class in (decl.storage_class.STATIC, decl.storage_class.EXTERN)
                                    or decl.semantic_parent is None
                                    or decl.semantic_parent.kind not in BODY_KINDS):
        return True  # a global or a static local: one object for all threads
    if region is None or decl_key(decl) in private:
        return False
    s, e = region.extent.start.offset, region.extent.end.offset
    return not s <= decl.extent.start.offset < e


def check_races(gen, node, region, private: set, where, allowed=frozenset()) -> None:
    """Raise for an assignment in `node` to a variable shared by the threads of `region` outside the
    constructs that one thread at a time runs; `allowed` are the keys a worksharing loop's clauses privatize.

    Raises:
        CompileError: ``variable 'x' is shared in the parallel region and assigned in it (a data race)``.
    """
    tids = thread_ids(node)

    def visit(c, allowed):
        names = [d.name for d in gen.omp.get(c.hash, []) if d.name not in O.STANDALONE] if c is not node else []
        if names and names[0] in EXCLUSIVE:
            return
        if c.kind == K.IF_STMT and one_thread(children(c)[0], tids):
            for ch in children(c)[2:]:  # `if (tid == 0) x = ...;`: only the else branch runs in many threads
                visit(ch, allowed)
            return
        if names and names[0] in ("for", "parallel for"):
            privatized = listed(gen.omp[c.hash], ("private", "firstprivate", "lastprivate", "reduction"))
            allowed = allowed | keys(c, privatized) | loop_ivs(gen, c, gen.omp[c.hash][0])
        if names and names[0].startswith("parallel"):
            return  # a nested region: checked when it is emitted
        t = None
        if c.kind == K.BINARY_OPERATOR and c.binary_operator.name == "Assign" or \
                c.kind == K.COMPOUND_ASSIGNMENT_OPERATOR:
            t = assigned_target(children(c)[0])
        elif c.kind == K.UNARY_OPERATOR and unary_op(c) in ("pre++", "pre--", "post++", "post--"):
            t = assigned_target(children(c)[0])
        if t is not None and t.kind in (K.VAR_DECL, K.PARM_DECL) and decl_key(t) not in allowed and \
                shared_decl(t, region, private):
            raise CompileError(f"variable '{t.spelling}' is shared in the parallel region and assigned in it "
                               "outside 'critical', 'atomic', 'single', 'master' and 'sections' (a data race): "
                               "make it private or protect the update", *where)
        for ch in c.get_children():
            visit(ch, allowed)

    visit(node, allowed)


def is_thread_num(e) -> bool:
    e = strip_implicit(e)
    return e.kind == K.CALL_EXPR and e.spelling == "omp_get_thread_num" and not list(e.get_arguments())


def thread_ids(node) -> set:
    """Keys of the variables of `node` initialized with omp_get_thread_num() and never assigned."""
    out = set()

    def visit(c):
        if c.kind == K.VAR_DECL:
            inits = [e for e in children(c) if e.kind.is_expression()]
            if inits and is_thread_num(inits[-1]):
                out.add(decl_key(c))
        for ch in c.get_children():
            visit(ch)

    visit(node)
    return out - assigned_decls([node])


def one_thread(cond, tids) -> bool:
    """Whether an if condition holds in one thread of a team at most: `tid == c` / `c == tid` with tid
    omp_get_thread_num() or a variable initialized with it, and c an integer constant."""
    from ..clang_ast import evaluate
    e = strip_implicit(cond)
    if e.kind != K.BINARY_OPERATOR or e.binary_operator.name != "EQ":
        return False
    a, b = children(e)

    def tid(x):
        x = strip_implicit(x)
        return is_thread_num(x) or x.kind == K.DECL_REF_EXPR and x.referenced is not None and \
            decl_key(x.referenced) in tids

    return tid(a) and isinstance(evaluate(b), int) or tid(b) and isinstance(evaluate(a), int)


def no_exit(stmt, d) -> None:
    for kind, what in ((K.RETURN_STMT, "return"), (K.GOTO_STMT, "goto"), (K.BREAK_STMT, "break"),
                       (K.CONTINUE_STMT, "continue")):
        if exits(stmt, (kind,)):
            raise O.unsupported(what, d.where, f"leaving the '{d.name}' construct")

def sections_of(clause) -> dict:
    """{name: (lower bound tokens, length tokens)} of the array sections `name[lo:len]` / `name[:len]` of a
    clause's list."""
    args = clause.args or []
    out, i = {}, 0
    while i < len(args):
        if i + 1 < len(args) and args[i + 1][0] == "[" and re.match(r"[A-Za-z_]\w*$", args[i][0]):
            depth, j, colon = 0, i + 1, None
            while j < len(args):
                depth += (args[j][0] == "[") - (args[j][0] == "]")
                if args[j][0] == ":" and depth == 1 and colon is None:
                    colon = j
                if depth == 0:
                    break
                j += 1
            if colon is not None:
                out[args[i][0]] = (args[i + 2:colon], args[colon + 1:j])
            i = j
        i += 1
    return out


def pointer_sections(gen, node, clauses) -> set:
    """Keys of the pointer variables reduced over an array section (`reduction(+ : p[:n])`): they stay SSA
    pointers; their private copies are heap buffers (emit_for)."""
    refs = var_refs(node)
    return {decl_key(v) for c in clauses if c.name == "reduction" for t in sections_of(c)
            for v in refs.get(t, []) if canonical(v.type).kind == T.POINTER}
