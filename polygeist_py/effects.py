"""Function effects at the MLIR level: which memory a function (or one op) may read and write.

For every func.func of a module, `infer` computes a summary in the terms of LLVM's function attributes
(`readnone`/`memory(none)`, `readonly`, `argmemonly`): for reads and for writes separately, one of

- ``NONE``: no memory at all (C's `__attribute__((const))`),
- ``ARGS``: only memory reachable from the pointer arguments named in `read_args`/`write_args`
  (the pointer itself plus offsets: memrefs and `!llvm.ptr` values derived by casts, views and address
  arithmetic; LLVM's `argmemonly`),
- ``ANY``: anything (globals, memory behind loaded pointers, unknown callees).

Stack memory the function allocates itself (memref.alloca / llvm.alloca, and memref.alloc it never lets escape)
is not an effect. The summary is an abstract interpretation over the call graph: every defined function starts at
``NONE``/``NONE`` and is raised to the join of its ops' effects until nothing changes (a monotone fixpoint on a
finite lattice, so recursion and mutual recursion converge; the least fixpoint is sound for terminating calls,
which is what a call that is hoisted, guarded, stands for). Functions without a body are ``ANY`` unless known:
libm (C99 7.12, as gcc's `-fno-math-errno` treats it: no memory) and the pure string functions of C99 7.21
(read their arguments only), or declared with `__attribute__((pure))` (reads anything, writes nothing) or
`__attribute__((const))` (nothing), which `annotate_declared` copies from the translation unit onto the
func.func as ``pgcc.declared_effects``.

Used by licm.py (loop-invariant code motion of calls and read-only loop nests).
"""

from __future__ import annotations

import collections

from dataclasses import dataclass, field

from mlir import ir

NONE, ARGS, ANY = 0, 1, 2
DECLARED_ATTR = "pgcc.declared_effects"

# ---------------------------------------------------------------- op classification
# Address plumbing: a pointer/memref result designates the same memory object as (one of) its operands.
PLUMBING = frozenset({
    "llvm.insertvalue", "llvm.extractvalue", "builtin.unrealized_conversion_cast", "memref.cast",
    "memref.reinterpret_cast", "memref.subview", "memref.view", "memref.extract_aligned_pointer_as_index",
    "llvm.inttoptr", "llvm.ptrtoint", "llvm.getelementptr", "memref.extract_strided_metadata",
    "memref.expand_shape", "memref.collapse_shape", "memref.transpose", "arith.index_cast",
    "arith.index_castui", "arith.addi", "arith.muli", "arith.subi", "llvm.bitcast", "llvm.addrspacecast",
    "arith.select", "llvm.select",
})
LOCAL_ALLOCS = frozenset({"memref.alloca", "llvm.alloca"})
HEAP_ALLOCS = frozenset({"memref.alloc"})
GLOBAL_ADDRESSES = frozenset({"memref.get_global", "llvm.mlir.addressof"})
# op name -> index of the address operand (reads / writes)
READS = {"affine.load": 0, "memref.load": 0, "llvm.load": 0, "affine.vector_load": 0, "vector.load": 0,
         "vector.transfer_read": 0, "vector.maskedload": 0, "memref.dim": None}
WRITES = {"affine.store": 1, "memref.store": 1, "llvm.store": 1, "affine.vector_store": 1, "vector.store": 1,
          "vector.transfer_write": 1, "vector.maskedstore": 0}
READ_WRITES = {"memref.atomic_rmw": 1, "memref.generic_atomic_rmw": 0, "llvm.atomicrmw": 0, "llvm.cmpxchg": 0}
COPIES = {"memref.copy": (0, 1), "llvm.intr.memcpy": (1, 0), "llvm.intr.memmove": (1, 0)}
SETS = {"llvm.intr.memset": 0}
# hints without an observable effect on memory (a prefetch touches no value a program can read)
HINTS = frozenset({"memref.prefetch", "llvm.intr.prefetch"})
# ops with regions whose own semantics touch no memory (their bodies are looked at)
STRUCTURE = frozenset({
    "scf.for", "scf.if", "scf.while", "scf.parallel", "scf.execute_region", "scf.index_switch", "scf.yield",
    "scf.condition", "scf.reduce", "scf.reduce.return", "affine.for", "affine.if", "affine.parallel",
    "affine.yield", "func.return", "memref.alloca_scope", "memref.alloca_scope.return", "llvm.return",
})
PURE_PREFIXES = ("arith.", "math.", "index.", "complex.")
PURE_OPS = frozenset({
    "affine.apply", "affine.min", "affine.max", "affine.delinearize_index", "affine.linearize_index",
    "llvm.mlir.constant", "llvm.mlir.zero", "llvm.mlir.undef", "llvm.mlir.poison", "ub.poison", "llvm.icmp",
    "llvm.fcmp", "llvm.zext", "llvm.sext", "llvm.trunc", "llvm.add", "llvm.sub", "llvm.mul", "llvm.and",
    "llvm.or", "llvm.xor", "llvm.shl", "llvm.lshr", "llvm.ashr", "llvm.intr.copysign", "llvm.intr.fabs",
    "llvm.intr.fmuladd", "llvm.intr.fma", "memref.assume_alignment", "llvm.intr.assume", "llvm.intr.expect",
    "vector.broadcast", "vector.splat", "vector.extract", "vector.insert", "vector.reduction", "vector.fma",
    "vector.extractelement", "vector.insertelement", "vector.shuffle",
}) | PLUMBING | GLOBAL_ADDRESSES | LOCAL_ALLOCS

# Functions without a body whose effects C specifies. libm: no memory (math-errno is not modelled, as with gcc's
# -fno-math-errno, which is how pgcc lowers math.h calls anyway: to math ops). string.h: read the arguments.
LIBM = frozenset("""
sqrt sqrtf cbrt cbrtf exp expf exp2 exp2f expm1 expm1f log logf log2 log2f log10 log10f log1p log1pf pow powf
sin sinf cos cosf tan tanf asin asinf acos acosf atan atanf atan2 atan2f sinh sinhf cosh coshf tanh tanhf asinh
asinhf acosh acoshf atanh atanhf fabs fabsf floor floorf ceil ceilf round roundf trunc truncf rint rintf
nearbyint nearbyintf fmod fmodf fmin fminf fmax fmaxf hypot hypotf erf erff erfc erfcf tgamma tgammaf copysign
copysignf fdim fdimf fma fmaf lround lroundf llround llroundf lrint lrintf abs labs llabs
""".split())
READS_ARGS_ONLY = frozenset("""
strlen strnlen strcmp strncmp memcmp strchr strrchr memchr strstr strspn strcspn strpbrk
""".split())


@dataclass(frozen=True)
class Effects:
    """Memory effects of a function or an op: `reads`/`writes` are NONE, ARGS or ANY; for ARGS, `read_args` /
    `write_args` are the argument positions (of the function, or operand positions of a call) whose memory is
    touched."""
    reads: int = NONE
    writes: int = NONE
    read_args: frozenset = field(default_factory=frozenset)
    write_args: frozenset = field(default_factory=frozenset)

    def join(self, other: "Effects") -> "Effects":
        return Effects(max(self.reads, other.reads), max(self.writes, other.writes),
                       self.read_args | other.read_args, self.write_args | other.write_args)

    @property
    def readonly(self) -> bool:
        return self.writes == NONE

    def describe(self) -> str:
        """LLVM's spelling: 'readnone', 'readonly', 'readonly argmemonly', 'argmemonly' or 'unknown'."""
        if self.reads == NONE and self.writes == NONE:
            return "readnone"
        if self.writes == NONE:
            return "readonly argmemonly" if self.reads == ARGS else "readonly"
        if max(self.reads, self.writes) == ARGS:
            return "argmemonly"
        return "unknown"


UNKNOWN = Effects(ANY, ANY)
PURE = Effects(ANY, NONE)  # C's `pure`
CONST = Effects(NONE, NONE)  # C's `const`


# ---------------------------------------------------------------- memory roots
def memory_roots(v, limit: int = 256) -> set:
    """The values a pointer-like value `v` (memref, !llvm.ptr, or an integer address) is derived from through
    address plumbing (casts, views, descriptor fields, address arithmetic): block arguments, allocations,
    global addresses, loads and call results. `v` itself when it is such a value."""
    roots, seen, work = set(), set(), [v]
    while work and len(seen) < limit:
        v = work.pop()
        if v in seen:
            continue
        seen.add(v)
        owner = v.owner
        if isinstance(owner, ir.Block):
            roots.add(v)
            continue
        owner = owner.operation
        name = owner.name
        if name in PLUMBING:
            if name == "memref.extract_strided_metadata" and ir.OpResult(v).result_number > 0:
                continue  # (an offset, size or stride: an integer, not an address into the memref)
            if name in ("arith.select", "llvm.select"):
                work.extend(list(owner.operands)[1:])
            elif name == "llvm.insertvalue":
                work.extend(list(owner.operands)[:2])
            elif name == "llvm.getelementptr" or name == "memref.reinterpret_cast" or name == "memref.subview" \
                    or name == "memref.view":
                work.append(owner.operands[0])
            else:
                work.extend(owner.operands)
        elif name in ("llvm.mlir.undef", "llvm.mlir.constant", "arith.constant", "llvm.mlir.zero",
                      "llvm.mlir.poison", "ub.poison"):
            continue
        else:
            roots.add(v)
    if work:  # (too long a chain: unknown)
        roots.add(None)
    return roots


def root_kind(r, entry_args) -> str:
    """'arg' (an argument of the function whose entry block arguments are `entry_args`), 'local' (a stack or
    heap allocation made here), 'global', or 'unknown' (a loaded pointer, a call result, an inner block
    argument)."""
    if r is None:
        return "unknown"
    if isinstance(r.owner, ir.Block):
        return "arg" if r in entry_args else "unknown"
    name = r.owner.operation.name
    if name in LOCAL_ALLOCS or name in HEAP_ALLOCS:
        return "local"
    if name in GLOBAL_ADDRESSES:
        return "global"
    return "unknown"


def global_name(r) -> str | None:
    a = r.owner.operation.attributes
    for key in ("name", "global_name"):
        if key in a:
            return ir.FlatSymbolRefAttr(a[key]).value
    return None


# ---------------------------------------------------------------- summaries
def _functions(module) -> dict:
    """name -> func.func of `module` (an ir.Module or a builtin.module op)."""
    body = module.body if isinstance(module, ir.Module) else module.regions[0].blocks[0]
    return {f.attributes["sym_name"].value: f for f in body.operations if f.operation.name == "func.func"}


def _is_defined(f) -> bool:
    return len(f.regions[0].blocks) > 0


def known_external(name: str, f=None) -> Effects:
    """Effects of function `name` without a body in this module (`f` its declaration, for a declared
    `pure`/`const`)."""
    if f is not None and DECLARED_ATTR in f.attributes:
        return CONST if ir.StringAttr(f.attributes[DECLARED_ATTR]).value == "const" else PURE
    if name in LIBM or name.startswith("__builtin_") and name[10:] in LIBM:
        return CONST
    if name in READS_ARGS_ONLY:
        return Effects(ARGS, NONE, frozenset(range(3)), frozenset())
    return UNKNOWN


class EffectAnalysis:
    """Effects of every func.func of `module` (see the module docstring), and of single ops in terms of the
    values of the function that holds them (`accesses`)."""

    def __init__(self, module):
        self.module = module
        self.funcs = _functions(module)
        self.summary: dict[str, Effects] = {}
        for n, f in self.funcs.items():
            if not _is_defined(f):
                self.summary[n] = known_external(n, f)
            else:
                self.summary[n] = Effects()
        defined = [n for n, f in self.funcs.items() if _is_defined(f)]
        # a worklist to the fixpoint: a function is summarized again only when a callee's summary changed (a
        # round over every function per change cost sqlite3.c seconds)
        callers = {n: set() for n in defined}
        for n in defined:
            for o in _all_nested(self.funcs[n], include_self=False):
                if o.name == "func.call":
                    callee = ir.FlatSymbolRefAttr(o.attributes["callee"]).value
                    if callee in callers:
                        callers[callee].add(n)
        work, queued = collections.deque(defined), set(defined)
        budget = 64 * max(len(defined), 1)
        while work:
            budget -= 1
            if budget < 0:  # (cannot happen on a finite lattice; conservative if it did)
                for n in defined:
                    self.summary[n] = UNKNOWN
                break
            n = work.popleft()
            queued.discard(n)
            new = self._function_effects(self.funcs[n])
            if DECLARED_ATTR in self.funcs[n].attributes:  # the programmer's promise, when stronger
                declared = known_external(n, self.funcs[n])
                if declared.writes <= new.writes and declared.reads <= new.reads:
                    new = declared
            if new != self.summary[n]:
                self.summary[n] = new
                for c in sorted(callers[n] - queued):
                    work.append(c)
                    queued.add(c)

    def callee_effects(self, call) -> Effects:
        """Effects of call op `call` as the callee's summary (operand positions for ARGS)."""
        call = call.operation
        if call.name == "func.call":
            name = ir.FlatSymbolRefAttr(call.attributes["callee"]).value
            return self.summary.get(name, known_external(name))
        if call.name == "llvm.call" and "callee" in call.attributes:
            name = ir.FlatSymbolRefAttr(call.attributes["callee"]).value
            return known_external(name)
        return UNKNOWN

    def _function_effects(self, f) -> Effects:
        """The summary of defined function `f` from the accesses of its body (entry arguments -> positions)."""
        args = list(f.regions[0].blocks[0].arguments)
        acc = self.accesses(f, include_self=False)
        reads = ANY if acc.read_any else NONE
        writes = ANY if acc.write_any else NONE
        read_args, write_args = set(), set()
        for roots, is_write in ((acc.read_roots, False), (acc.write_roots, True)):
            for r in roots:
                if root_kind(r, args) == "arg":
                    (write_args if is_write else read_args).add(args.index(r))
                elif is_write:
                    writes = ANY
                else:
                    reads = ANY
        if read_args:
            reads = max(reads, ARGS)
        if write_args:
            writes = max(writes, ARGS)
        return Effects(reads, writes, frozenset(read_args), frozenset(write_args))

    def accesses(self, op, include_self: bool = True) -> "Accesses":
        """The memory that `op` (with `include_self`; else only the ops nested in it) may read and write, as
        the roots (memory_roots) of the addresses, in the values of the function that holds `op`; `read_any` /
        `write_any` when an access has no root there (an unknown callee's, a global a callee reads). Allocations
        made inside `op` whose address does not escape are left out."""
        acc = Accesses(set(), set(), False, False)
        own = {}  # root -> whether it is a non-escaping allocation inside op (asked once per root: an alloca
        # with thousands of loads and stores, a switch's accumulator, made this quadratic)

        def is_own(r):
            if r not in own:
                own[r] = not isinstance(r.owner, ir.Block) and \
                    r.owner.operation.name in LOCAL_ALLOCS | HEAP_ALLOCS and _inside_op(r.owner, op) and \
                    not _escapes(r)
            return own[r]

        def note(addr, is_write):
            for r in memory_roots(addr):
                if r is not None and is_own(r):
                    continue  # (an allocation of the op's own)
                (acc.write_roots if is_write else acc.read_roots).add(r)

        for o in _all_nested(op, include_self=include_self):
            name = o.name
            if name in STRUCTURE or name in PURE_OPS or name in HINTS or name.startswith(PURE_PREFIXES):
                continue
            if name in READS:
                if READS[name] is not None:
                    note(o.operands[READS[name]], False)
            elif name in WRITES:
                note(o.operands[WRITES[name]], True)
            elif name in READ_WRITES:
                note(o.operands[READ_WRITES[name]], False)
                note(o.operands[READ_WRITES[name]], True)
            elif name in COPIES:
                s, d = COPIES[name]
                note(o.operands[s], False)
                note(o.operands[d], True)
            elif name in SETS:
                note(o.operands[SETS[name]], True)
            elif name in HEAP_ALLOCS or name == "memref.dealloc":
                # a fresh object per execution: never hoisted or merged (an allocation is a write to the heap)
                acc.write_any = True
            elif name in ("func.call", "llvm.call"):
                e = self.callee_effects(o)
                operands = list(o.operands)
                if name == "llvm.call" and "callee" not in o.attributes:
                    operands = operands[1:]
                if e.reads == ANY:
                    acc.read_any = True
                if e.writes == ANY:
                    acc.write_any = True
                for level, positions, is_write in ((e.reads, e.read_args, False), (e.writes, e.write_args, True)):
                    if level == ARGS:
                        for i in positions:
                            if i < len(operands):
                                note(operands[i], is_write)
            else:  # gpu.*, omp.*, barriers, anything unknown: conservative
                acc.read_any = acc.write_any = True
        return acc


@dataclass
class Accesses:
    """Memory an op may touch (EffectAnalysis.accesses): roots of the addresses read and written, and whether
    some access may touch any memory at all."""
    read_roots: set
    write_roots: set
    read_any: bool
    write_any: bool

    @property
    def writes(self) -> bool:
        return self.write_any or bool(self.write_roots)

    @property
    def reads(self) -> bool:
        return self.read_any or bool(self.read_roots)


def _inside_op(o, ancestor) -> bool:
    p = o.operation
    anc = ancestor.operation
    while p is not None:
        if p == anc:
            return True
        p = p.parent
    return False


def _escapes(alloc_result, limit: int = 512) -> bool:
    """Whether the address of an allocation may reach anything but loads and stores at it (a call, a store of
    the address itself, a block argument, a result): then other code may read or write it."""
    work, seen = [alloc_result], set()
    while work:
        if len(seen) > limit:
            return True
        v = work.pop()
        if v in seen:
            continue
        seen.add(v)
        for use in v.uses:
            user = use.owner.operation
            name = user.name
            n = use.operand_number
            if name in READS and READS[name] == n or name in WRITES and WRITES[name] == n or \
                    name == "memref.dealloc" or name == "memref.dim":
                continue
            if name in PLUMBING and name not in ("llvm.ptrtoint",):
                work.extend(user.results)
                continue
            return True
    return False


def _all_nested(op, include_self=False):
    out = [op] if include_self else []

    def rec(o):
        for region in o.regions:
            for block in region.blocks:
                for inner in block.operations:
                    out.append(inner.operation)
                    rec(inner.operation)
    rec(op)
    return out


# ---------------------------------------------------------------- C attributes
def annotate_declared(module, tu) -> int:
    """Copy `__attribute__((pure))` / `__attribute__((const))` of the functions that `module` calls from the
    libclang translation unit `tu` onto their func.func ops (``pgcc.declared_effects = "pure"|"const"``).
    Only functions called in `module` are looked up. Returns how many were annotated."""
    from .clang_ast import K, top_level_cursors
    funcs = _functions(module)
    called = set()
    for f in funcs.values():
        for o in _all_nested(f):
            if o.name == "func.call":
                called.add(ir.FlatSymbolRefAttr(o.attributes["callee"]).value)
    if not called:
        return 0
    n = 0
    for c in top_level_cursors(tu):
        if c.kind != K.FUNCTION_DECL:
            continue
        name = c.spelling
        if name not in called or name not in funcs:
            name = c.mangled_name if c.mangled_name in called else None
            if name is None or name not in funcs:
                continue
        kinds = {a.kind for a in c.get_children()}
        what = "const" if K.CONST_ATTR in kinds else "pure" if K.PURE_ATTR in kinds else None
        if what is not None and DECLARED_ATTR not in funcs[name].attributes:
            funcs[name].attributes[DECLARED_ATTR] = ir.StringAttr.get(what)
            n += 1
    return n
