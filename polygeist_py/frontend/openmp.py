"""`#pragma omp ...` directives with ``-fopenmp``: parsing, and the simple forms as `scf.parallel`.

Directives are found in the function's tokens and attached to the statement that follows (a standalone
`barrier` after the last statement of a block to the end of that block). The simple forms, a parallel loop and
a region made only of worksharing loops, become `scf.parallel` (reductions as `scf.reduce`) here: the cleanup
and polyhedral stages optimize those, and the lowering stage turns them into OpenMP (upstream
convert-scf-to-openmp), as for CUDA kernels run with --cpuify. Everything else (general regions and the
constructs inside them, orphaned constructs, lastprivate, memory list items) is the `omp` dialect, emitted by
openmp_regions.py.

Simple forms (OpenMP 4.5, sections 2.5 `parallel`, 2.7.1 loop construct, 2.15 data-sharing clauses):

- `#pragma omp parallel for [clauses]` before a `for` loop; `#pragma omp parallel` whose statement is a block
  of loops under `#pragma omp for` and declarations without initializers; `collapse(n)` over perfectly
  nested loops with bounds that do not depend on the outer loops' indices.
- The loop in canonical form (`for (i = lb; i < ub; i += step)`, <=, >, >=, ++, --, -=; bounds invariant in
  the loop, evaluated once before it, so they may read memory: `i < s->n`); its index and the collapsed loops'
  indices are private and keep their value from before the loop. Loop hints (`#pragma GCC unroll`) between
  the directive and the loop are accepted.
- `private(x)` / `firstprivate(x)` of scalar variables, `shared(...)`, `default(shared|none)`,
  `schedule(...)` and `proc_bind(...)` (no effect on the results), `nowait`, `reduction(op: x, ...)` of
  scalar variables with
  op one of + - * max min & | ^; `#pragma omp atomic` updates in the loop.

Each iteration gets its own copies of the private variables (the walker builds SSA per iteration), whereas
OpenMP gives one copy per thread, which a thread's later iterations may see. The two agree when no
iteration reads a private copy before assigning it; that is checked (`unobserved`; a loop whose iterations
may, openmp_scan.needs_region routes to omp.wsloop, whose copies are per thread). A reduction variable starts each iteration at the
operator's identity and the partial values are combined by `scf.reduce` with the value from before the loop
(OpenMP reassociates the combination the same way).

Unsupported directives and clauses (task, ordered(n), copyin, linear, ...), loops that are not canonical or
are left early, and shared scalars assigned in the loop (data races) are errors, except a flag: an integer
variable the loop does not read and assigns only one constant (`stop = true` in a breadth-first search),
which is a reduction over "some iteration assigned it" and so gets the value any order of the iterations
gives. The errors read
``unsupported OpenMP construct '...'`` (or name the race), never translated approximately. Without
``-fopenmp`` the pragmas are ignored, as gcc does.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from mlir import ir
from mlir.dialects import arith, memref, scf, ub

from ..clang_ast import (K, canonical, children, evaluate, file_contents, in_skipped_range, macro_definitions,
                         strip_implicit, unary_op, var_decl_initializer)
from ..errors import CompileError
from . import c_types as CT, pragma_operator
from .macro_expand import expand_positioned, use_end
from .scan import assigned_decls, contains, decl_key, exits
from .values import Binding, MemLV

# directive words after `#pragma omp`: the name of the construct is the longest run of them at the start
DIRECTIVE_WORDS = {"parallel", "for", "simd", "sections", "section", "single", "master", "masked", "critical",
                   "atomic", "barrier", "task", "taskloop", "taskwait", "taskgroup", "taskyield", "ordered",
                   "flush", "teams", "distribute", "target", "declare", "threadprivate", "cancel",
                   "cancellation", "point", "loop", "scan", "depobj", "requires", "workshare", "data", "enter",
                   "exit", "update", "end", "begin", "variant", "metadirective", "tile", "unroll", "scope",
                   "interop", "dispatch", "assume", "assumes", "nothing", "error"}
SUPPORTED_DIRECTIVES = ("parallel for", "parallel", "for", "simd", "parallel for simd", "for simd", "atomic",
                        "atomic read", "atomic write", "atomic capture", "single", "master", "masked", "critical",
                        "barrier", "flush", "sections", "section", "parallel sections", "ordered")
# clauses accepted on the supported directives; all others are unsupported constructs. safelen, simdlen and
# aligned are vectorization hints: a loop that runs as written (LLVM's vectorizer decides) honours them.
CLAUSES = {"private", "firstprivate", "shared", "default", "schedule", "num_threads", "reduction", "collapse",
           "nowait", "proc_bind", "safelen", "simdlen", "aligned", "lastprivate", "filter", "if",
           "copyprivate", "ordered"}
SIMD_HINTS = ("safelen", "simdlen", "aligned")
ATOMIC_FORMS = ("read", "write", "capture", "compare")
# `#pragma omp atomic` updates: compound assignment operator (or ++/--) -> reduction operator
ATOMIC_UPDATES = {"+=": "+", "-=": "+", "*=": "*", "&=": "&", "|=": "|", "^=": "^", "++": "+", "--": "+"}
COMPOUND_OPERATORS = {"AddAssign": "+=", "SubAssign": "-=", "MulAssign": "*=", "AndAssign": "&=", "OrAssign": "|=",
                      "XorAssign": "^="}
REDUCTION_OPS = ("+", "-", "*", "max", "min", "&", "|", "^")
STANDALONE = ("barrier", "flush")  # directives without a statement of their own
_TOKEN = re.compile(r"[A-Za-z_]\w*|\d\w*|&&|\|\||\S")


def unsupported(what: str, where, detail: str = "") -> CompileError:
    """The error for an OpenMP construct pgcc does not translate. `where` is (file, line, col)."""
    return CompileError(f"unsupported OpenMP construct '{what}'" + (f": {detail}" if detail else ""), *where)


@dataclass
class Clause:
    """One clause: its name, the tokens between its parentheses (None without parentheses), its position."""
    name: str
    args: list | None
    where: tuple


@dataclass
class Directive:
    """One `#pragma omp` line: the construct's name ('parallel for'), its clauses, its position
    (file, line, col of the '#'), and the file offset where the logical line ends."""
    name: str
    clauses: list = field(default_factory=list)
    where: tuple = (None, 0, 0)
    end: int = 0
    arg: str | None = None  # the name of a named `critical`


# ---------------------------------------------------------------------------------------------- pragmas
def directives(tu, function) -> dict:
    """The `#pragma omp` directives in a function definition, keyed by the hash of the statement each one
    applies to (the first statement after it). Returns {statement hash: [Directive, ...] in source order}.

    Raises:
        CompileError: a directive that is not one of SUPPORTED_DIRECTIVES, or a malformed clause list.
    """
    if not getattr(tu, "_omp_file_scope_checked", False):
        tu._omp_file_scope_checked = True
        check_file_scope(tu)
    toks = list(function.get_tokens())
    found = []
    for i in range(len(toks) - 2):
        a, b, c = toks[i], toks[i + 1], toks[i + 2]
        if a.spelling == "#" and b.spelling == "pragma" and c.spelling == "omp" and \
                a.location.line == b.location.line == c.location.line and not in_skipped_range(tu, a.location):
            found.append(a)  # (the tokens of lines an `#if` skipped are there too: not directives)
    written = [(text, first, last) for text, first, last in pragma_operator.pragma_operands(tu, toks)
               if text.split()[:1] == ["omp"]]
    if not found and not written:
        return {}
    texts = {}
    out = []
    for hash_tok in found:
        f = hash_tok.location.file
        if f.name not in texts:
            texts[f.name] = file_contents(tu, f)
        out.append(parse_directive(texts[f.name], hash_tok.extent.start.offset, f.name, macro_definitions(tu)))
    for text, first, last in written:
        out.append(_operator_directive(text, first, last))
    out.sort(key=lambda d: d.end)
    stmts = []  # (start offset, pre-order position, cursor) of every statement and expression in the body
    body = next(ch for ch in function.get_children() if ch.kind == K.COMPOUND_STMT)

    def walk(c):
        if c.kind.is_statement() or c.kind.is_expression():
            stmts.append((c.extent.start.offset, len(stmts), c))
        for ch in c.get_children():
            walk(ch)

    walk(body)
    stmts.sort(key=lambda s: (s[0], s[1]))
    attached: dict = {}
    compounds = [s[2] for s in stmts if s[2].kind == K.COMPOUND_STMT]
    for d in out:
        nxt = next((s for s in stmts if s[0] >= d.end and s[2].location.file is not None and
                    s[2].location.file.name == d.where[0]), None)
        if d.name in STANDALONE:  # `barrier` as the last statement of a block: run at the end of the block
            inner = [c for c in compounds if c.extent.start.offset <= d.end < c.extent.end.offset]
            inner = max(inner, key=lambda c: c.extent.start.offset, default=None)
            if inner is not None and (nxt is None or nxt[0] >= inner.extent.end.offset):
                attached.setdefault(("end", inner.hash), []).append(d)
                continue
        if nxt is None:
            raise unsupported(d.name, d.where, "no statement follows the directive")
        attached.setdefault(nxt[2].hash, []).append(d)
    return attached


def _operator_directive(text: str, first, last) -> Directive:
    """The Directive of `_Pragma("omp ...")` written (or expanded from a macro used) between tokens `first`
    and `last`: it applies to the statement after `last`, and its diagnostics point at `first`'s line."""
    loc = first.location
    pad = b"\n" * (loc.line - 1) + b" " * (loc.column - 1)  # (so parse_directive's positions are first's)
    d = parse_directive(pad + b"#pragma " + text.encode("latin-1"), len(pad), loc.file.name)
    d.end = last.extent.end.offset
    return d


FILE_SCOPE_HINTS = ("declare simd", "declare target", "end declare target", "declare variant")
FUNCTION_KINDS = (K.FUNCTION_DECL, K.CXX_METHOD, K.CONSTRUCTOR, K.DESTRUCTOR, K.FUNCTION_TEMPLATE,
                  K.CONVERSION_FUNCTION)
SCOPE_KINDS = (K.NAMESPACE, K.STRUCT_DECL, K.CLASS_DECL, K.UNION_DECL, K.CLASS_TEMPLATE, K.LINKAGE_SPEC)


def check_file_scope(tu) -> None:
    """Directives outside function bodies (`threadprivate`, `declare reduction`, ...) change what a program
    means, so an unsupported one is an error rather than ignored; `declare simd`/`declare target` only concern
    vector variants and offloading and are ignored.

    Raises:
        CompileError: ``unsupported OpenMP construct '<name>'`` at the directive."""
    main = tu.cursor.spelling
    bodies = []

    def collect(parent):  # function bodies, also of templates and of methods inside classes and namespaces
        for c in parent.get_children():
            if c.location.file is None or c.location.file.name != main:
                continue
            if c.kind in FUNCTION_KINDS and c.is_definition():
                bodies.append((c.extent.start.offset, c.extent.end.offset))
            elif c.kind in SCOPE_KINDS:
                collect(c)

    collect(tu.cursor)
    toks = list(tu.cursor.get_tokens())
    text = None
    for i in range(len(toks) - 2):
        a, b, c = toks[i], toks[i + 1], toks[i + 2]
        if a.spelling != "#" or b.spelling != "pragma" or c.spelling != "omp" or \
                not a.location.line == b.location.line == c.location.line or in_skipped_range(tu, a.location):
            continue
        off = a.extent.start.offset
        if a.location.file is None or a.location.file.name != main or any(s <= off < e for s, e in bodies):
            continue
        text = text if text is not None else file_contents(tu, a.location.file)
        words = " ".join(t.spelling for t in toks[i + 3:i + 6] if t.location.line == a.location.line)
        if words.startswith(FILE_SCOPE_HINTS):
            continue
        parse_directive(text, off, main)  # raises for anything but the statement directives
        raise unsupported(words.split()[0] if words else "", (main, a.location.line, a.location.column),
                          "outside a function")


def parse_directive(text: bytes, start: int, filename: str, macros=None) -> Directive:
    """Parse the `#pragma omp ...` logical line that starts at byte `start` of `text` (backslash-newline
    continues it; comments are skipped). A macro of `macros` (clang_ast.macro_definitions) used where a clause
    goes is expanded (macro_expand.py), as the preprocessor does on `#pragma omp` lines (OpenMP 5.2
    section 3.1); clause arguments are expanded where they are evaluated (openmp_exprs).

    Raises:
        CompileError: an unsupported directive or clause, or a clause list that does not parse.
    """
    end = start
    while True:
        nl = text.find(b"\n", end)
        if nl < 0:
            end = len(text)
            break
        if text[max(nl - 1, 0):nl] == b"\\" or text[max(nl - 2, 0):nl] == b"\\\r":
            end = nl + 1
            continue
        end = nl
        break
    line = text[start:end].decode("latin-1")
    line = re.sub(r"/\*.*?\*/", lambda m: " " * len(m.group(0)), line, flags=re.S)
    line = re.sub(r"//.*", "", line)

    def where(offset):
        pos = start + offset
        ln = text.count(b"\n", 0, pos) + 1
        col = pos - (text.rfind(b"\n", 0, pos) + 1) + 1
        return (filename, ln, col)

    toks = [(m.group(0), m.start()) for m in _TOKEN.finditer(line) if m.group(0) != "\\"]
    toks = toks[3:]  # '#', 'pragma', 'omp'
    words = []
    while toks and toks[0][0] in DIRECTIVE_WORDS:
        if words and toks[0][0] in CLAUSES | {"ordered", "update", "error"}:
            break  # `for ordered` is a clause; `atomic update` is reported as 'atomic'
        words.append(toks.pop(0)[0])
    if words == ["atomic"] and toks and toks[0][0] in ("update", "seq_cst", "relaxed"):
        toks.pop(0)  # `atomic update` is `atomic`; the memory orders change nothing for one update
    elif words == ["atomic"] and toks and toks[0][0] in ATOMIC_FORMS:
        words = ["atomic " + toks.pop(0)[0]]
    d = Directive(" ".join(words) or (toks[0][0] if toks else ""), [], where(0), end)
    if d.name not in SUPPORTED_DIRECTIVES:
        raise unsupported(d.name, d.where)
    if d.name in ("critical", "flush") and toks and toks[0][0] == "(":  # `critical(name)`, `flush(list)`
        close = next((j for j, (t, _) in enumerate(toks) if t == ")"), None)
        if close is None or (d.name == "critical" and (close != 2 or not re.match(r"[A-Za-z_]\w*$", toks[1][0]))):
            raise CompileError(f"expected '(name)' after the OpenMP directive '{d.name}'", *where(toks[0][1]))
        d.arg = toks[1][0] if d.name == "critical" else None
        toks = toks[close + 1:]
    i, expanded = 0, 0
    while i < len(toks):
        name, off = toks[i]
        i += 1
        if name == ",":
            continue
        use = use_end([t for t, _ in toks], i - 1, macros) if name not in CLAUSES and macros and expanded < 64 \
            else None
        if use is not None:  # (diagnostics inside point at the macro's name)
            toks[i - 1:use] = expand_positioned(toks[i - 1:use], macros)
            i -= 1
            expanded += 1
            continue
        if not re.match(r"[A-Za-z_]", name):
            raise CompileError(f"expected an OpenMP clause, found '{name}'", *where(off))
        args = None
        if i < len(toks) and toks[i][0] == "(":
            depth, j = 0, i
            while j < len(toks):
                depth += toks[j][0] == "("
                depth -= toks[j][0] == ")"
                if depth == 0:
                    break
                j += 1
            if j == len(toks):
                raise CompileError(f"expected ')' after the arguments of the OpenMP clause '{name}'",
                                   *where(off))
            args = [(t, where(o)) for t, o in toks[i + 1:j]]
            i = j + 1
        if name not in CLAUSES:
            raise unsupported(name, where(off))
        if name not in SIMD_HINTS:
            d.clauses.append(Clause(name, args, where(off)))
    if d.name.endswith(" simd"):
        # `simd` asks for vector execution, which running the iterations as written (vectorized by LLVM where
        # it can) satisfies: `parallel for simd` / `for simd` are `parallel for` / `for`
        d.name = d.name[:-len(" simd")]
    return d


# ---------------------------------------------------------------------------------------------- loops
def unwrap_hints(stmt):
    """The loop under `#pragma GCC unroll n` / `#pragma nounroll` / `#pragma clang loop ...` (clang's
    AttributedStmt, which libclang shows as UNEXPOSED_STMT): hints that do not change the loop's meaning."""
    while stmt is not None and stmt.kind == K.UNEXPOSED_STMT:
        kids = children(stmt)
        if len(kids) != 1 or not kids[0].kind.is_statement():
            break
        stmt = kids[0]
    return stmt


def simple_region(gen, stmt) -> bool:
    """Whether a `parallel` region is made of `#pragma omp for` loops and declarations without initializers
    only: parallel_region emits those as a sequence of `scf.parallel` loops (unless a loop needs omp ops:
    openmp_regions.needs_region)."""
    if stmt.kind != K.COMPOUND_STMT:
        return False
    inner = [s for s in children(stmt) if s.kind != K.NULL_STMT]
    loops = [s for s in inner if [x.name for x in gen.omp.get(s.hash, [])] == ["for"]]
    if not loops or any(s not in loops and s.kind != K.DECL_STMT for s in inner):
        return False
    for s in inner:
        if s.kind == K.DECL_STMT and any(v.kind == K.VAR_DECL and var_decl_initializer(v) is not None
                                         for v in children(s)):
            return False  # an initialized variable of each thread: a general region
    return True


def parallel_region(gen, stmt, d: Directive) -> None:
    """A `parallel` region made of `#pragma omp for` loops (and declarations of the variables they use, which
    are private to each thread of the region; see simple_region): each loop is a parallel loop in turn, as the
    implicit barrier at the end of each `for` orders them (also with `nowait`: each loop's iterations still
    finish before the next loop, which is one of the executions `nowait` allows).

    Raises:
        CompileError: errors of the loops.
    """
    inner = [s for s in children(stmt) if s.kind != K.NULL_STMT]
    declared = set()
    for s in inner:
        with gen.loc(s):
            if s.kind == K.DECL_STMT:
                gen.visit(s)
                declared |= {decl_key(v) for v in children(s) if v.kind == K.VAR_DECL}
            else:
                loop = gen.omp[s.hash][0]
                ParallelLoop(gen, unwrap_hints(s), loop, d.clauses + loop.clauses,
                             thread_private=declared).emit()


def atomic_update(stmt):
    """(target expression, operator text, value expression or None for ++/--) of the statement under
    `#pragma omp atomic` (`x += e`, `x -= e`, `x *= e`, `x &= e`, `x |= e`, `x ^= e`, `x++`, `--x`, ...), or None
    for any other form."""
    e = strip_implicit(stmt)
    if e.kind == K.COMPOUND_ASSIGNMENT_OPERATOR:
        op = COMPOUND_OPERATORS.get(e.binary_operator.name)
        return (children(e)[0], op, children(e)[1]) if op is not None else None
    if e.kind == K.UNARY_OPERATOR and unary_op(e) in ("pre++", "pre--", "post++", "post--"):
        return children(e)[0], unary_op(e)[-2:], None
    if e.kind == K.BINARY_OPERATOR and e.binary_operator.name == "Assign":  # `x = x op e`, `x = e op x`
        x, rhs = children(e)
        r = strip_implicit(rhs)
        ops = {"Add": "+=", "Sub": "-=", "Mul": "*=", "And": "&=", "Or": "|=", "Xor": "^="}
        if r.kind == K.BINARY_OPERATOR and r.binary_operator.name in ops:
            a, b = children(r)
            if _same_lvalue(a, x):
                return x, ops[r.binary_operator.name], b
            if _same_lvalue(b, x) and r.binary_operator.name != "Sub":
                return x, ops[r.binary_operator.name], a
    return None


def _same_lvalue(e, x) -> bool:
    """Whether expression `e` is lvalue `x` read (spelled with the same tokens, of the same type)."""
    return canonical(strip_implicit(e).type) == canonical(x.type) and \
        [t.spelling for t in strip_implicit(e).get_tokens()] == [t.spelling for t in x.get_tokens()]


def exact_update(target_ty, value_ty) -> bool:
    """Whether `x op= e` may convert e to x's type first (what an atomic read-modify-write of x computes) and
    get what C computes (x op e in the usual arithmetic conversions, then converted back): not when e is
    floating and x an integer, or e a wider floating type than x."""
    t, v = canonical(target_ty), canonical(value_ty)
    if CT.is_int(t) and CT.is_float(v):
        return False
    return not (CT.is_float(t) and CT.is_float(v) and CT.size_of(v) > CT.size_of(t))


def emit_atomic(gen, stmt, d: Directive):
    """`#pragma omp atomic` on an update of memory (an array element, a global, a struct field through a memref
    subscript): a read-modify-write that is atomic (memref.atomic_rmw), so threads that update the same element
    do not race. An update of a scalar local shared by the loop is a reduction (ParallelLoop.data_sharing) and
    is emitted as the plain update of the iteration's partial value.

    Raises:
        CompileError: another statement form, or a target that is neither.
    """
    upd = atomic_update(stmt)
    if upd is None:
        raise unsupported("atomic", d.where, "the statement must be an update `x op= expr`, `x++` or `x--`")
    target, op, value = upd
    lv = gen.lvalue(target)
    if not isinstance(lv, MemLV):  # a shared scalar local: the loop made it a reduction variable
        attached = gen.omp.pop(stmt.hash)
        try:
            gen.visit(stmt)
        finally:
            gen.omp[stmt.hash] = attached
        return None
    ty = canonical(target.type)
    if not CT.is_arith(ty):
        raise unsupported("atomic", d.where, f"an update of '{target.type.spelling}'")
    if value is None:
        v = gen.const_int(ty, 1) if CT.is_int(ty) else arith.constant(CT.scalar_type(ty), 1.0)
    else:
        if not exact_update(ty, value.type):
            raise unsupported("atomic", d.where, f"an update of '{target.type.spelling}' by a value of type "
                                                 f"'{value.type.spelling}'")
        v = gen.convert(gen.rvalue(value), value.type, ty, value)
    is_f = CT.is_float(ty)
    if op in ("-=", "--"):
        v = arith.negf(v) if is_f else arith.subi(gen.const_int(ty, 0), v)
    kinds = {"+": ("addf", "addi"), "*": ("mulf", "muli"), "&": (None, "andi"), "|": (None, "ori"),
             "^": (None, "xori")}[ATOMIC_UPDATES[op]]
    kind = kinds[0] if is_f else kinds[1]
    if kind is None or kind == "xori":
        raise unsupported("atomic", d.where, f"'{op}' on '{target.type.spelling}'")
    memref.AtomicRMWOp(getattr(arith.AtomicRMWKind, kind), v, lv.memref, gen.index_values(lv.indices))
    return None


def identity(op: str, ty: ir.Type, unsigned: bool):
    """The identity element of reduction operator `op` on MLIR type `ty` (OpenMP 4.5, table 2.7)."""
    if isinstance(ty, ir.FloatType):
        v = {"+": 0.0, "-": 0.0, "*": 1.0, "max": float("-inf"), "min": float("inf")}[op]
        return arith.constant(ty, v)
    w = ir.IntegerType(ty).width
    if op in ("max", "min"):
        lo, hi = (0, (1 << w) - 1) if unsigned else (-(1 << (w - 1)), (1 << (w - 1)) - 1)
        v = lo if op == "max" else hi
        v = v - (1 << w) if v >= 1 << (w - 1) else v  # the attribute is signed
    else:
        v = {"+": 0, "-": 0, "*": 1, "|": 0, "^": 0, "&": -1}[op]
    return arith.constant(ty, v)


def combine(op: str, a, b, unsigned: bool):
    """`a op b` for the combiner region of a reduction (cmp + select for max/min: the form
    convert-scf-to-openmp recognizes)."""
    if isinstance(a.type, ir.FloatType):
        if op in ("+", "-"):
            return arith.addf(a, b)
        if op == "*":
            return arith.mulf(a, b)
        pred = arith.CmpFPredicate.OGT if op == "max" else arith.CmpFPredicate.OLT
        return arith.select(arith.cmpf(pred, a, b), a, b)
    if op in ("+", "-"):
        return arith.addi(a, b)
    if op == "*":
        return arith.muli(a, b)
    if op in ("&", "|", "^"):
        return {"&": arith.andi, "|": arith.ori, "^": arith.xori}[op](a, b)
    P = arith.CmpIPredicate
    pred = {("max", False): P.sgt, ("max", True): P.ugt, ("min", False): P.slt, ("min", True): P.ult}[op, unsigned]
    return arith.select(arith.cmpi(pred, a, b), a, b)


class ParallelLoop:
    """One OpenMP loop construct (with its collapsed loops) emitted as an `scf.parallel`.

    Args:
        gen: the FunctionGen emitting the function.
        stmt: the FOR_STMT under the directive.
        d: the loop directive (its position names the construct in errors).
        clauses: the clauses of the directive and of an enclosing `parallel` directive.
    """

    def __init__(self, gen, stmt, d: Directive, clauses: list, thread_private=frozenset()):
        self.gen, self.stmt, self.d, self.clauses = gen, stmt, d, clauses
        self.thread_private = thread_private  # variables declared in the enclosing parallel region

    def emit(self):
        gen, d = self.gen, self.d
        collapse = 1
        for cl in self.clauses:
            if cl.name == "collapse":
                if not cl.args or len(cl.args) != 1 or not cl.args[0][0].isdigit() or int(cl.args[0][0]) < 1:
                    raise unsupported("collapse", cl.where, "the argument must be a positive integer literal")
                collapse = int(cl.args[0][0])
        loops = self.loop_nest(collapse)
        body = loops[-1][1]["body"]
        ivs = {m["key"] for _, m in loops}
        sharing = self.data_sharing(body, ivs)
        lbs, ubs, steps, ivmaps = [], [], [], []
        for c, m in loops:
            with gen.loc(c):
                lo, hi, st, ivmap = self.bounds(m)
            lbs.append(lo), ubs.append(hi), steps.append(st), ivmaps.append(ivmap)
        reductions = sharing["reduction"]  # [(key, op, unsigned)]
        flags = sharing["flags"]  # {key: the constant the loop assigns}
        with gen.loc(self.stmt):
            i32 = ir.IntegerType.get_signless(32)  # (not i1: the OpenMP lowering combines with atomicrmw)
            inits = [gen.env[k].value for k, _, _ in reductions] + [gen.const_int(i32, 0) for _ in flags]
            op = scf.ParallelOp([v.type for v in inits], lbs, ubs, steps, inits)
            block = op.regions[0].blocks.append(*[ir.IndexType.get()] * len(loops))
        saved = dict(gen.env)
        entry_before = list(gen.entry.operations)
        markers = {}
        cont = ("cont", next(gen.loop_ids)) if exits(body, (K.CONTINUE_STMT,)) else None
        gen.loops.append((None, cont))
        with ir.InsertionPoint(block), gen.loc(self.stmt):
            for (c, m), iv, ivmap in zip(loops, block.arguments, ivmaps):
                gen.env[m["key"]] = _binding(gen, gen.from_index(ivmap(iv), m["ty"]))
            for k, opname, unsigned in reductions:
                gen.env[k] = _binding(gen, identity(opname, gen.env[k].value.type, unsigned))
            for k, c in flags.items():  # a value other than the constant: "not assigned by this iteration"
                gen.env[k] = _binding(gen, gen.const_int(gen.env[k].value.type, c ^ 1))
            for k, first in sharing["private"].items():
                if first and k not in sharing["assigned"]:
                    continue  # read only: the value from before the loop
                markers[k] = ub.PoisonOp(gen.env[k].value.type).result
                gen.env[k] = _binding(gen, markers[k])
            if cont:
                gen.env[cont] = _binding(gen, gen.const_bool(False))
            gen.visit(body)
            written = [arith.extui(i32, arith.cmpi(arith.CmpIPredicate.eq, gen.env[k].value,
                                                   gen.const_int(gen.env[k].value.type, c))) for k, c in flags.items()]
            red = scf.ReduceOp([gen.env[k].value for k, _, _ in reductions] + written, len(inits))
            for region, (k, opname, unsigned), v in zip(red.regions, reductions + [(None, "|", True)] * len(flags),
                                                        inits):
                rb = region.blocks.append(v.type, v.type)
                with ir.InsertionPoint(rb):
                    scf.ReduceReturnOp(combine(opname, rb.arguments[0], rb.arguments[1], unsigned))
        gen.loops.pop()
        gen.env = saved
        for k, m in markers.items():
            if not unobserved(m):
                name, first = sharing["names"][k], sharing["private"][k]
                raise CompileError(
                    f"{'firstprivate' if first else 'private'} variable '{name}' may be read in an iteration "
                    "before the iteration assigns it: its value would depend on how the iterations are shared "
                    "among threads (unsupported OpenMP construct)", *d.where)
        for (k, _, _), r in zip(reductions, op.results):
            gen.env[k] = _binding(gen, r)
        with gen.loc(self.stmt):
            for (k, c), r in zip(flags.items(), list(op.results)[len(reductions):]):
                ty = gen.env[k].value.type
                some = arith.cmpi(arith.CmpIPredicate.ne, r, gen.const_int(i32, 0))
                gen.env[k] = _binding(gen, arith.select(some, gen.const_int(ty, c), gen.env[k].value))
        _privatize_allocas(gen, op, entry_before)

    def loop_nest(self, collapse: int) -> list:
        """[(FOR_STMT, counted-loop match)] of the construct's loop and the collapsed loops inside it."""
        gen, d = self.gen, self.d
        out, c = [], self.stmt
        for depth in range(collapse):
            if c.kind != K.FOR_STMT:
                raise unsupported(d.name, d.where, f"collapse({collapse}) needs {collapse} perfectly nested "
                                                   "for loops" if depth else "the statement is not a for loop")
            init, cond, inc, body = gen.for_parts(c)
            for kind, what in ((K.BREAK_STMT, "break"), (K.RETURN_STMT, "return"), (K.GOTO_STMT, "goto")):
                if exits(body, (kind,)):
                    raise unsupported(what, d.where, "a parallel loop cannot be left early")
            if contains(body, (K.LABEL_STMT,)):
                raise unsupported("goto", d.where, "labels inside a parallel loop")
            m = gen.counted_loop(init, cond, inc, body)
            nodes = [lp for lp, _ in out] + [c]
            if m is None or not bound_invariant(gen, m["lb"], nodes) or not bound_invariant(gen, m["bound"], nodes):
                raise unsupported(d.name, d.where, "the loop is not in canonical form `for (i = lb; i < ub; "
                                                   "i += step)` with bounds invariant in the loop" +
                                  (" nest (collapse)" if depth else ""))
            m["body"] = body
            out.append((c, m))
            if depth + 1 < collapse:
                inner = [s for s in children(body) if s.kind != K.NULL_STMT] if body.kind == K.COMPOUND_STMT \
                    else [body]
                c = inner[0] if len(inner) == 1 else body
                c = unwrap_hints(c)
        return out

    def bounds(self, m):
        """(lower, upper, step, iv -> index of the C index) of a counted loop, as scf.for emission does."""
        gen = self.gen
        ty, step = m["ty"], m["step"]
        lb_v = gen.convert(gen.rvalue(m["lb"]), m["lb"].type, ty, m["lb"])
        ub_v = gen.rvalue(m["bound"])
        from . import int_semantics as IS
        if IS.wider_signed(m["bound"].type, ty):
            ub_i = gen.index_of(ub_v, m["bound"].type)
        else:
            ub_i = gen.index_of(gen.convert(ub_v, m["bound"].type, ty, m["bound"]), ty)
        lb_i = gen.index_of(lb_v, ty)
        one = gen.const_index(1)
        if m["inclusive"]:
            ub_i = arith.addi(ub_i, one) if step > 0 else arith.subi(ub_i, one)
        s = gen.const_index(abs(step))
        if step > 0:
            return lb_i, ub_i, s, lambda iv: iv
        # k in [0, ceil((lb - ub)/|s|)), i = lb - |s| k
        hi = arith.ceildivsi(arith.maxsi(arith.subi(lb_i, ub_i), gen.const_index(0)), s)
        return gen.const_index(0), hi, one, lambda iv: arith.subi(lb_i, arith.muli(iv, s))

    def atomic_reductions(self, body, outer_decl, ivs) -> dict:
        """{key: reduction operator} of the scalar locals shared by the loop that `#pragma omp atomic` updates:
        each thread's updates add up in its partial value, combined at the end as a reduction would, which is
        what the atomic updates compute when nothing else in the loop reads the variable.

        Raises:
            CompileError: the variable is also read or written outside its atomic updates in the loop, or
                updated with two different operators.
        """
        gen = self.gen
        out, stmts = {}, _atomic_statements(gen, body)
        for st in stmts:
            upd = atomic_update(st)
            t = strip_implicit(upd[0]) if upd else None
            if t is None or t.kind != K.DECL_REF_EXPR or t.referenced is None:
                continue
            v = outer_decl(t.referenced.spelling)
            k = decl_key(v) if v is not None else None
            if k is None or k in ivs or k not in gen.env or k in gen.mem or (k, "x") in gen.env:
                continue  # a local of the iteration, or memory (an atomic read-modify-write)
            op = ATOMIC_UPDATES[upd[1]]
            if out.get(k, op) != op:
                raise unsupported("atomic", self.d.where, f"'{t.spelling}' updated with two operators")
            out[k] = op
        if out:  # nothing else in the loop may touch them
            inside = {st.hash for st in stmts}

            def visit(c):
                if c.hash in inside:
                    return
                if c.kind == K.DECL_REF_EXPR and c.referenced is not None and decl_key(c.referenced) in out:
                    raise unsupported("atomic", self.d.where, f"'{c.spelling}' is read outside its atomic "
                                                              "updates in the loop")
                for ch in c.get_children():
                    visit(ch)

            visit(body)
        return out

    def data_sharing(self, body, ivs: set) -> dict:
        """Check the clauses against the loop body: private, firstprivate and reduction variables must be
        scalars the walker keeps as SSA values; no variable declared outside the loop and not private may be
        assigned in it (a data race).

        Returns {"private": {key: is_firstprivate}, "reduction": [(key, op, unsigned)], "assigned": keys
        assigned in the body, "names": {key: name}}.
        """
        gen = self.gen
        decls, local = {}, set()

        def visit(c):
            if c.kind == K.DECL_REF_EXPR and c.referenced is not None and \
                    c.referenced.kind in (K.VAR_DECL, K.PARM_DECL):
                decls.setdefault(c.referenced.spelling, []).append(c.referenced)
            if c.kind == K.VAR_DECL and c.storage_class not in (c.storage_class.STATIC, c.storage_class.EXTERN):
                local.add(decl_key(c))  # (a static or extern declaration names one object for all iterations)
            for ch in c.get_children():
                visit(ch)

        visit(self.stmt)
        names = {decl_key(v): n for n, vs in decls.items() for v in vs}

        def outer_decl(name):
            """The variable from outside the loop that `name` refers to in it, None when not referenced."""
            return next((v for v in decls.get(name, []) if decl_key(v) not in local), None)

        private, reduction, listed = {}, [], {}
        for cl in self.clauses:
            if cl.name in ("private", "firstprivate", "shared", "reduction"):
                if not cl.args:
                    raise CompileError(f"expected a variable list in the OpenMP clause '{cl.name}'", *cl.where)
                args = cl.args
                op = None
                if cl.name == "reduction":
                    colon = next((i for i, (t, _) in enumerate(args) if t == ":"), None)
                    op = "".join(t for t, _ in args[:colon]) if colon is not None else None
                    if op not in REDUCTION_OPS:
                        raise unsupported(f"reduction({op or ''}:...)", cl.where,
                                          "the operator must be one of " + " ".join(REDUCTION_OPS))
                    args = args[colon + 1:]
                for j, (t, w) in enumerate(args):
                    if t == ",":
                        continue
                    if not re.match(r"[A-Za-z_]\w*$", t) or (j + 1 < len(args) and args[j + 1][0] != ","):
                        raise unsupported(cl.name, w, "list items must be variable names")
                    v = outer_decl(t)
                    if v is None:
                        continue  # not used in the loop: the clause changes nothing
                    k = decl_key(v)
                    if k in listed and listed[k] != cl.name:
                        raise CompileError(f"variable '{t}' appears in both '{listed[k]}' and '{cl.name}' "
                                           "clauses", *w)
                    listed[k] = cl.name
                    if cl.name == "shared" or k in ivs:
                        continue
                    if k not in gen.env or k in gen.mem or (k, "x") in gen.env:
                        raise unsupported(cl.name, w, f"'{t}' is not a scalar local variable (arrays, globals "
                                                      "and variables whose address is taken are not supported)")
                    if cl.name == "reduction":
                        ty = canonical(v.type)
                        if not (CT.is_arith(ty)) or (op in ("&", "|", "^") and not CT.is_int(ty)):
                            raise unsupported(f"reduction({op}:...)", w, f"on '{t}' of type '{v.type.spelling}'")
                        reduction.append((k, op, CT.is_int(ty) and CT.is_unsigned(ty)))
                    else:
                        private[k] = cl.name == "firstprivate"
        for k in self.thread_private:  # declared inside the parallel region: each thread's own
            if k not in listed and k not in ivs and any(decl_key(v) == k for vs in decls.values() for v in vs):
                private[k] = False
        for k, op in self.atomic_reductions(body, outer_decl, ivs).items():
            if k in listed:
                raise CompileError(f"variable '{names.get(k, '?')}' is updated under 'atomic' and listed in a "
                                   f"'{listed[k]}' clause", *self.d.where)
            ty = canonical(next(v for vs in decls.values() for v in vs if decl_key(v) == k).type)
            reduction.append((k, op, CT.is_int(ty) and CT.is_unsigned(ty)))
        assigned = assigned_decls([body])
        flags = {}
        for k in assigned:
            if k in local or k in ivs or k in private or any(k == r[0] for r in reduction):
                continue
            c = flag_constant(body, k)
            if c is not None and k in gen.env and k not in gen.mem and (k, "x") not in gen.env and \
                    isinstance(gen.env[k].value.type, ir.IntegerType):
                width = ir.IntegerType(gen.env[k].value.type).width
                c = int(c != 0) if width == 1 else c & ((1 << width) - 1)  # (C's conversion to the type)
                flags[k] = c - (1 << width) if width > 1 and c >= 1 << (width - 1) else c
                continue
            name = names.get(k, "?")
            raise CompileError(f"variable '{name}' is shared in the parallel loop and assigned in it (a data "
                               f"race): declare it inside the loop or list it in a private, firstprivate or "
                               f"reduction clause", *self.d.where)
        return {"private": private, "reduction": reduction, "assigned": assigned, "names": names, "flags": flags}


def flag_constant(body, key):
    """The integer constant that every use of variable `key` in `body` assigns to it (`stop = true;`), or
    None when some use reads it, assigns another value or assigns in another way."""
    values, ok = set(), [True]

    def visit(c, parent):
        if not ok[0]:
            return
        if c.kind == K.DECL_REF_EXPR and c.referenced is not None and decl_key(c.referenced) == key:
            p = parent
            if p is None or p.kind != K.BINARY_OPERATOR or p.binary_operator.name != "Assign" or \
                    strip_implicit(children(p)[0]) != c:
                ok[0] = False
                return
            v = evaluate(children(p)[1])
            if not isinstance(v, int) or isinstance(v, bool):
                ok[0] = False
                return
            values.add(v)
        for ch in c.get_children():
            visit(ch, c if c.kind != K.UNEXPOSED_EXPR and c.kind != K.PAREN_EXPR else parent)

    visit(body, None)
    return values.pop() if ok[0] and len(values) == 1 else None


def bound_invariant(gen, e, loop_nodes) -> bool:
    """Whether a loop bound `e` may be evaluated once before the loop, as OpenMP does (2.6 canonical loop form:
    the bounds are loop invariant): no variable assigned in the loop nest, no assignment or call in it. Unlike
    a sequential loop's bound it may read memory (`i < s->n`, `i < *np`): the program may not change it."""
    if gen.invariant(e, loop_nodes):
        return True
    assigned = assigned_decls(loop_nodes)

    def ok(n):
        if n.kind == K.DECL_REF_EXPR and n.referenced is not None and decl_key(n.referenced) in assigned:
            return False
        if n.kind in (K.CALL_EXPR, K.COMPOUND_ASSIGNMENT_OPERATOR) or n.kind == K.BINARY_OPERATOR and \
                n.binary_operator.name == "Assign" or n.kind == K.UNARY_OPERATOR and unary_op(n) in (
                    "pre++", "pre--", "post++", "post--"):
            return False
        return all(ok(ch) for ch in n.get_children())

    return ok(e)


def _atomic_statements(gen, body) -> list:
    """The statements of `body` under `#pragma omp atomic`."""
    out = []

    def visit(c):
        dirs = gen.omp.get(c.hash, []) if gen.omp else []
        if [d.name for d in dirs] == ["atomic"]:
            out.append(c)
        for ch in c.get_children():
            visit(ch)

    visit(body)
    return out


def _binding(gen, value):
    return Binding(value)


def _privatize_allocas(gen, par, before) -> None:
    """Stack objects the walker placed at the function entry while emitting the loop body (arrays, structs
    and address-taken scalars declared in the body, temporaries) and that only the body uses move to the
    start of the body: each iteration gets its own, as each OpenMP thread does."""
    body = par.regions[0].blocks[0]
    first = body.operations[0]
    new = [op for op in gen.entry.operations if op not in before]
    for op in new:
        if op.name not in ("memref.alloca", "llvm.alloca"):
            continue
        if not all(_inside(u.owner, par) for r in op.results for u in r.uses):
            continue
        for operand in op.operands:  # the size constant of llvm.alloca, when only this alloca uses it
            o = operand.owner
            if not isinstance(o, ir.Block) and o.name == "llvm.mlir.constant" and \
                    len(list(operand.uses)) == 1 and o in new:
                o.move_before(first)
        op.move_before(first)


def _inside(op, ancestor) -> bool:
    op = op.operation if hasattr(op, "operation") else op
    while op is not None:
        if op == ancestor.operation:
            return True
        op = op.parent
    return False


def unobserved(value) -> bool:
    """Whether no operation computes with `value` (a private variable's placeholder): it may only flow through
    the walker's loop-carried values and branch results (iter_args, yields, scf.if/while results) that are
    themselves unobserved. Such a value is never read before the iteration assigns the variable."""
    seen, work = [], [value]
    while work:
        v = work.pop()
        if any(v == s for s in seen):
            continue
        seen.append(v)
        for use in v.uses:
            user = use.owner
            user = user.operation if hasattr(user, "operation") else user
            n = user.name
            i = use.operand_number
            if n in ("scf.yield", "affine.yield"):
                parent = user.parent
                if parent.name in ("scf.for", "affine.for"):
                    work += [parent.results[i], parent.regions[0].blocks[0].arguments[i + 1]]
                elif parent.name in ("scf.if", "affine.if", "scf.execute_region", "scf.index_switch"):
                    work.append(parent.results[i])
                elif parent.name == "scf.while":
                    work.append(parent.regions[0].blocks[0].arguments[i])
                else:
                    return False
            elif n == "scf.condition":
                if i == 0:
                    return False
                parent = user.parent
                work += [parent.results[i - 1], parent.regions[1].blocks[0].arguments[i - 1]]
            elif n in ("scf.for", "affine.for"):
                k = i - (len(user.operands) - len(user.results))
                if k < 0:
                    return False
                work += [user.results[k], user.regions[0].blocks[0].arguments[k + 1]]
            elif n == "scf.while":
                work.append(user.regions[0].blocks[0].arguments[i])
            else:
                return False
    return True
