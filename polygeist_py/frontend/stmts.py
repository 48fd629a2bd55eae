"""Statements: the visitor (one ``visit_<KIND>`` per statement kind), blocks, ``if``, ``return``, ``break``,
``continue``, and the glue to ``switch`` (switch.py), ``goto`` (gotos.py) and OpenMP (openmp_dispatch.py).

``break``, ``continue``, ``return`` and ``goto`` inside structured code set flag variables (carried like any
other variable); statements after one are guarded by ``scf.if`` on the flags (``emit_stmts``). An ``if`` is an
``scf.if`` whose results are the variables its branches assign (``carried``), or an ``affine.if`` when its
condition is a conjunction of affine comparisons. Loops are in loops.py.
"""

from __future__ import annotations

import itertools

from mlir import ir
from mlir.dialects import affine, arith, scf

from ..clang_ast import K, T, canonical, children, evaluate, has_attr, is_va_arg, spelled_word, strip_implicit
from . import affine_forms as AF
from . import c_types as CT
from . import gotos, inline_asm, openmp_dispatch, openmp_regions, stmt_exprs, switch
from .scan import assigned_decls, contains, decl_key, exits
from .values import RET, RETVAL, Binding, base_key


# marks an `if` statement of the source: a barrier under it whose condition differs between threads is the
# program's error (gpu_to_cpu/barrier_elimination.py), not the walker's guard of an early `return`
WRITTEN_IF = "pgcc.written_if"
# pragmas that are loop hints (clang keeps them as attributes of the loop statement)
LOOP_HINT_PRAGMAS = ("unroll", "nounroll", "unroll_and_jam", "nounroll_and_jam", "clang", "GCC", "loop")


class StmtGen:
    """Mixin for FunctionGen: statement dispatch, blocks and exit flags, if/return/break/continue/goto/switch."""

    def visit(self, c):
        if self.omp and c.hash in self.omp:
            with self.loc(c):
                return self.emit_directives(c, self.omp[c.hash])
        self.mg.depth += 1  # (statement nesting: pipeline.py canonicalizes deep nests bottom-up)
        self.mg.max_depth = max(self.mg.max_depth, self.mg.depth)
        outer_safe, self.exit_safe_expr = self.exit_safe_expr, stmt_exprs.exit_safe(self, c)
        try:
            with self.loc(c):
                method = getattr(self, "visit_" + c.kind.name, None)
                if method is None:
                    if c.kind.is_expression():
                        self.rvalue(c, discard=True)
                        return
                    raise self.unsupported(c)
                method(c)
        finally:
            self.mg.depth -= 1
            self.exit_safe_expr = outer_safe

    def emit_directives(self, c, dirs):
        """Statement `c` under its `#pragma omp` directives `dirs` (openmp_dispatch)."""
        return openmp_dispatch.emit(self, c, dirs)

    def visit_COMPOUND_STMT(self, c):
        gotos.emit_compound(self, c)
        if self.omp and ("end", c.hash) in self.omp:  # `#pragma omp barrier` after the last statement
            openmp_regions.emit_trailing(self, c)

    def visit_NULL_STMT(self, c):
        pass

    def visit_UNEXPOSED_STMT(self, c):
        """A statement with attributes (clang's AttributedStmt): `#pragma unroll [n]` / `#pragma GCC unroll` /
        `#pragma clang loop ...` before a loop, `[[fallthrough]];`, `[[likely]]`. They are hints that do not change
        what the statement computes (LLVM's loop unroller decides on its own), so the statement runs as written.
        Any other statement libclang does not expose is an error naming it."""
        toks = [t.spelling for t in itertools.islice(c.get_tokens(), 3)]
        kids = children(c)
        hint = toks[:2] == ["#", "pragma"] and len(toks) > 2 and toks[2] in LOOP_HINT_PRAGMAS
        # `_Pragma("GCC unroll 4")`, also from a macro (its tokens show the macro's name): the pragmas clang
        # attaches to a statement are the loop hints
        hint = hint or spelled_word(c) == "_Pragma"
        # (an attributed `;` is `[[fallthrough]];` or `__attribute__((fallthrough));`, also when a macro from another
        # file spells it, whose tokens libclang does not give: zstd's ZSTD_FALLTHROUGH)
        empty = len(kids) == 1 and kids[0].kind == K.NULL_STMT
        if len(kids) == 1 and (hint or empty or toks[:2] == ["[", "["] or toks[:1] == ["__attribute__"]):
            self.visit(kids[0])
            return
        raise self.unsupported(c)

    def flags_active(self):
        keys = [RET] + [k for k in self.env if gotos.is_flag(k)]
        if self.loops:
            keys += [k for k in self.loops[-1] if k is not None]
        return [k for k in keys if k in self.env]

    def may_exit(self, s):
        kinds = [K.RETURN_STMT, K.GOTO_STMT]
        if self.loops:
            kinds += [K.BREAK_STMT, K.CONTINUE_STMT]
        return exits(s, tuple(kinds))

    def emit_stmts(self, stmts):
        m = next((j for j, s in enumerate(stmts) if any(gotos.entries(self, s))), 0)
        if m and not gotos.entries(self, stmts[m])[0]:  # on the way to a label: a set flag skips what precedes
            self.emit_guarded(stmts[:m])
            self.emit_stmts(stmts[m:])
            return
        for i, s in enumerate(stmts):
            loop, route = gotos.entries(self, s)
            if loop:  # the rest of the block is the label's loop (see gotos)
                gotos.emit_labeled(self, s, stmts[i + 1:], loop, route)
                return
            if route:
                gotos.emit_route(self, s, route)
            else:
                self.visit(s)
            if i + 1 < len(stmts) and (route or self.may_exit(s)):  # (sliced only here: a copy per statement
                self.emit_rest(stmts[i + 1:])                    # made long blocks quadratic)
                return

    def emit_rest(self, rest):
        """The statements after one that may exit: skipped while an exit is pending, except a statement on the
        way to a label, which its own goto flag enters."""
        rest = [r for r in rest if r.kind != K.NULL_STMT]
        m = next((j for j, r in enumerate(rest) if any(gotos.entries(self, r))), len(rest))
        if m == len(rest) and self.emit_rest_past_barriers(rest):  # (cuda_device: barriers after a return)
            return
        if rest[:m]:
            self.emit_guarded(rest[:m])
        if m < len(rest):
            self.emit_stmts(rest[m:])

    def not_exited(self, exclude=()):
        """i1: none of the active exit flags (return, break, continue, goto) but `exclude` is set."""
        cond = None
        for k in self.flags_active():
            if k in exclude:
                continue
            nf = arith.xori(self.env[k].value, self.const_bool(True))
            cond = nf if cond is None else arith.andi(cond, nf)
        return cond

    def emit_guarded(self, stmts):
        cond = self.not_exited()
        if cond is None:
            self.emit_stmts(stmts)
            return
        self.predeclare(stmts)
        self.emit_if(cond, lambda: self.emit_stmts(stmts), None, stmts)

    def predeclare(self, stmts):
        """Declare before a guard the scalar variables that `stmts` declare, so that a goto past their declaration
        to a label later in the block still finds them (C gives them an indeterminate value then; here zero). A
        declaration with an initializer that the guard lets run gives its value back through the guard's
        results (`carried` counts it as an assignment)."""
        for d in _declared_scalars(stmts):
            ty, key = canonical(d.type), decl_key(d)
            if key in self.env or key in self.addr_taken or ty.is_volatile_qualified() or \
                    not (CT.is_arith(ty) or ty.kind == T.POINTER) or self.has_vla_pointee(ty) or \
                    d.storage_class in (d.storage_class.STATIC, d.storage_class.EXTERN):
                continue
            self.define(key, ty, self.zero(ty), cursor=d)

    def carried(self, nodes, extra=()):
        """Environment keys that statements `nodes` may change (variables, exit flags, goto state), then `extra`
        (keys the caller changes around them)."""
        assigned = assigned_decls(nodes) | {decl_key(d) for d in _declared_scalars(nodes)}  # (see predeclare)
        keys = [k for k in self.env if base_key(k) in assigned]
        flags = set(extra)
        for n in nodes:
            if exits(n, (K.RETURN_STMT,)):
                flags |= {RET, RETVAL}
            if exits(n, (K.GOTO_STMT,)) or contains(n, (K.LABEL_STMT, K.CASE_STMT, K.DEFAULT_STMT)):
                # a goto sets a flag, a label (or a case label nested in a statement: gotos.plan) clears it
                flags |= {k for k in self.env if gotos.is_jump_state(k)}
        if self.loops:
            brk, cont = self.loops[-1]
            for n in nodes:
                if brk and exits(n, (K.BREAK_STMT,)):
                    flags.add(brk)
                if cont and exits(n, (K.CONTINUE_STMT,)):
                    flags.add(cont)
        keys += [k for k in self.env if k in flags and k not in keys]
        return keys

    def emit_if(self, cond, then_fn, else_fn, nodes, result_type=None, affine_cond=None, written=False):
        """scf.if whose results are the variables the branches assign (and an optional value); with
        `affine_cond` (an integer set and its operands, from affine_condition), affine.if instead. `written`: an
        `if` statement of the source (WRITTEN_IF), not one the walker made (exit flags, `&&`, `?:`)."""
        keys = self.carried(nodes)
        types = [self.env[k].value.type for k in keys]
        if result_type is not None:
            types = [result_type] + types
        has_else = bool(types) or else_fn is not None
        if affine_cond is None:
            op, yield_op = scf.IfOp(cond, types, has_else=has_else), scf.YieldOp
        else:
            cond_set, operands = affine_cond
            op = affine.AffineIfOp(cond_set, types, cond_operands=operands, has_else=has_else)
            yield_op = affine.AffineYieldOp
        if written:
            op.attributes[WRITTEN_IF] = ir.UnitAttr.get()
        saved = dict(self.env)
        outs = []
        blocks = [op.regions[0].blocks[0], op.regions[1].blocks[0] if has_else else None]
        for block, fn in zip(blocks, (then_fn, else_fn)):
            if block is None:
                continue
            self.env = dict(saved)
            with ir.InsertionPoint(block):
                val = fn() if fn is not None else None
                vals = [self.env[k].value for k in keys]
                if result_type is not None:
                    vals = [val] + vals
                yield_op(vals)
        self.env = saved
        res = list(op.results)
        if result_type is not None:
            outs, res = res[0], res[1:]
        for k, r in zip(keys, res):
            self.env[k] = Binding(r)
        return outs

    def emit_index_switch(self, index, cases, bodies, default_body, nodes, extra=()):
        """scf.index_switch on `index` (an index Value): value cases[i] (ints) runs bodies[i](), any other value
        default_body() (None: nothing); the variables the bodies assign are its results, as in emit_if. It
        lowers to one LLVM `switch`, which LLVM compiles in time linear in the number of cases (a chain of
        compares is not). `extra`: more environment keys the bodies change."""
        keys = self.carried(nodes, extra=extra)
        op = scf.IndexSwitchOp([self.env[k].value.type for k in keys], index, cases)
        saved = dict(self.env)
        for block, fn in [(op.default_block, default_body)] + list(zip(op.case_blocks, bodies)):
            self.env = dict(saved)
            with ir.InsertionPoint(block):
                if fn is not None:
                    fn()
                scf.YieldOp([self.env[k].value for k in keys])
        self.env = saved
        for k, r in zip(keys, op.results):
            self.env[k] = Binding(r)

    def visit_IF_STMT(self, c):
        ch = children(c)
        cond, then = ch[0], ch[1]
        els = ch[2] if len(ch) > 2 else None
        if cond.kind == K.DECL_STMT:
            raise self.unsupported(c, "declaration in an if condition")
        cv = gotos.if_condition(self, c, cond)  # (steered to a label's branch by its goto flag)
        known = self.constant_condition(cond) if cv is None else None
        dead = els if known else then
        if known is not None and (dead is None or not contains(dead, _LABEL_KINDS)):
            # a constant condition emits only the branch taken, as gcc and clang do at -O0 too (a call in the
            # other, `if (__builtin_bswap16(0xaabb) != 0xbbaa) link_error();`, must not reach the linker)
            live = then if known else els
            if live is not None:
                self.emit_if(self.const_bool(True), lambda: self.visit(live), None, [live], written=True)
            return
        affine_cond = self.affine_condition(cond) if cv is None else None
        if cv is None and affine_cond is None:
            cv = self.condition(cond)
        nodes = [then] + ([els] if els is not None else [])
        self.emit_if(cv, lambda: self.visit(then), (lambda: self.visit(els)) if els is not None else None, nodes,
                     affine_cond=affine_cond, written=True)

    def constant_condition(self, e):
        """The truth of condition `e` when clang folds it to a constant without side effects (no assignment, no
        call but of `__builtin_*` functions, which clang evaluates), else None."""
        if assigned_decls([e]) or _calls_other_than_builtins(e):
            return None
        v = evaluate(e)
        return bool(v) if isinstance(v, (int, float)) else None

    def affine_condition(self, e):
        """(integer set, operands) for an if condition that is a conjunction (&&) of comparisons (<, <=, >, >=,
        ==) of signed affine forms (form_of) over the indices of enclosing affine loops (one at least) and
        symbols, so that the if becomes an affine.if a SCoP can hold (nussinov's guards); else None. Host code
        only: the CUDA lowering works on scf.if."""
        if has_attr(self.cursor, K.CUDAGLOBAL_ATTR) or has_attr(self.cursor, K.CUDADEVICE_ATTR):
            return None
        constraints = []
        if not self.affine_constraints(e, constraints):
            return None
        forms = [f for f, _ in constraints]
        if all(AF.symbolic(f) for f in forms) or not all(AF.is_affine(f) for f in forms):
            return None
        return AF.to_set(constraints)

    def affine_constraints(self, e, out) -> bool:
        """Append (form, is_equality) pairs meaning `form >= 0` / `form == 0` for condition `e` to `out`;
        False when `e` is not a conjunction of comparisons of affine forms."""
        e = strip_implicit(e)
        while e.kind == K.PAREN_EXPR and len(children(e)) == 1:
            e = strip_implicit(children(e)[0])
        if e.kind != K.BINARY_OPERATOR:
            return False
        op = e.binary_operator.name
        a, b = children(e)
        if op == "LAnd":
            return self.affine_constraints(a, out) and self.affine_constraints(b, out)
        if op not in ("LT", "LE", "GT", "GE", "EQ"):
            return False
        fa, fb = self.form_of(a), self.form_of(b)
        if fa is None or fb is None:
            return False
        if op in ("GT", "LT"):  # a > b: a - b - 1 >= 0
            diff = AF.sub(fa, fb) if op == "GT" else AF.sub(fb, fa)
            out.append((AF.add(diff, AF.const(-1)), False))
        elif op in ("GE", "LE"):
            out.append((AF.sub(fa, fb) if op == "GE" else AF.sub(fb, fa), False))
        else:
            out.append((AF.sub(fa, fb), True))
        return out[-1][0] is not None

    def visit_RETURN_STMT(self, c):
        ch = children(c)
        if ch and self.ret_type.kind == T.RECORD and strip_implicit(ch[0]).kind == K.INIT_LIST_EXPR:
            self.init_object(self.env[RETVAL].value, self.ret_type, ch[0])  # C++ `return {x, y, z};`
        elif ch and self.ret_type.kind == T.RECORD:  # copied now: later statements may change the object
            self.copy_bytes(self.env[RETVAL].value, self.record_value(ch[0]), CT.size_of(self.ret_type))
        elif ch and CT.is_reference(self.ret_type):  # `return data[i];` from `double &at(int i)`: an address
            self.env[RETVAL] = Binding(self.reference_to(ch[0], CT.unreferenced(self.ret_type)))
        elif ch:
            v = self.rvalue(ch[0])
            self.env[RETVAL] = Binding(self.convert(v, ch[0].type, self.ret_type, ch[0]))
        self.env[RET] = Binding(self.const_bool(True))

    def visit_BREAK_STMT(self, c):
        if not self.loops or self.loops[-1][0] is None:
            raise self.unsupported(c, "break outside a loop")
        self.env[self.loops[-1][0]] = Binding(self.const_bool(True))

    def visit_CONTINUE_STMT(self, c):
        if not self.loops or self.loops[-1][1] is None:
            raise self.unsupported(c, "continue outside a loop")
        self.env[self.loops[-1][1]] = Binding(self.const_bool(True))

    def visit_LABEL_STMT(self, c):
        gotos.emit_label(self, c)

    def visit_GOTO_STMT(self, c):
        gotos.emit_goto(self, c)

    def visit_INDIRECT_GOTO_STMT(self, c):
        gotos.emit_computed_goto(self, c)

    def visit_ASM_STMT(self, c):
        inline_asm.emit_asm(self, c)

    def visit_SWITCH_STMT(self, c):
        switch.emit_switch(self, c)

    def visit_CASE_STMT(self, c):
        gotos.emit_case_label(self, c)

    visit_DEFAULT_STMT = visit_CASE_STMT


def _declared_scalars(stmts):
    """The variables declared by the declaration statements among `stmts` (not inside them)."""
    return [d for s in stmts if s.kind == K.DECL_STMT for d in children(s) if d.kind == K.VAR_DECL]


# statements that a jump may enter: a branch holding one is emitted even when its condition is a known constant
_LABEL_KINDS = (K.LABEL_STMT, K.CASE_STMT, K.DEFAULT_STMT)


def _calls_other_than_builtins(e) -> bool:
    """Whether expression `e` calls a function other than a `__builtin_*` one, or takes a variadic argument."""
    if e.kind == K.CALL_EXPR and not (e.spelling or "").startswith("__builtin_") or is_va_arg(e):
        return True
    return any(_calls_other_than_builtins(ch) for ch in e.get_children())
