"""Loops: ``for``, ``while`` and ``do`` as ``affine.for``, ``scf.for`` or ``scf.while``.

A counted ``for`` (``for (i = lb; i < ub; i += s)``, also ``<=``, ``>``, ``>=`` and decrements) whose bounds are
invariant becomes ``affine.for`` when both bounds are affine in loop indices and symbols (values defined at the
function's top level), else ``scf.for``; every other loop is an ``scf.while`` whose before region tests the
condition (and the exit flags). Variables the body assigns are iter_args.
"""

from __future__ import annotations

from mlir import ir
from mlir.dialects import affine, arith, scf

from ..clang_ast import K, canonical, children, evaluate, file_text, is_va_arg, spelled_at, strip_implicit, unary_op
from . import affine_forms as AF
from . import attributes
from . import c_types as CT
from . import gotos
from . import int_semantics as IS
from .c_text import code_chars
from .scan import BODY_KINDS, assigned_decls, decl_key, exits
from .values import RET, Binding


def _header_semicolons_of_tokens(c) -> list:
    """Byte offsets of the two `;` of FOR_STMT `c`'s header: the first ones at parenthesis depth 1."""
    semis, depth = [], 0
    for t in c.get_tokens():
        if t.spelling == "(":
            depth += 1
        elif t.spelling == ")":
            depth -= 1
            if depth == 0:
                break
        elif t.spelling == ";" and depth == 1:
            semis.append(t.extent.start.offset)
    return semis


def _header_semicolons(text: str, at: int):
    """Offsets of the two `;` of the `for (...)` header spelled at offset `at` of source text `text` (a macro's
    definition: line continuations, comments and literals skipped), or None when they are not found there."""
    semis = []
    for i, ch, depth in code_chars(text, at):
        if ch == ")" and depth == 0:
            break
        if ch == ";" and depth == 1:
            semis.append(i)
    return semis if len(semis) == 2 else None


class LoopGen:
    """Mixin for FunctionGen: loop statements."""

    def for_parts(self, c):
        """init, cond, inc, body of a FOR_STMT (absent parts are None), told apart by the header's two `;`.

        libclang shows only the parts that are there, so with one or two missing their positions decide: the
        `;` come from the statement's tokens, or, for a loop a macro expansion wrote (whose tokens are the
        macro's invocation: expat's DEFINE_UTF16_TO_UTF8), from the macro's definition, where the parts are
        spelled too.

        Raises:
            CompileError: the parts cannot be placed (a loop whose header is spread over macro arguments)."""
        ch = children(c)
        body = ch[-1]
        if len(ch) == 4:  # all three present
            return ch[0], ch[1], ch[2], body
        spelled = spelled_at(c.location)
        loc = c.location
        in_macro = spelled is not None and (loc.file is None or spelled[1] != loc.offset
                                            or spelled[0] is not file_text(loc.file.name))
        if in_macro:
            text, at = spelled
            semis = _header_semicolons(text, at) if text.startswith("for", at) else None
            offsets = [spelled_at(part.extent.start) for part in ch[:-1]]
            if semis is None or any(o is None or o[0] is not text for o in offsets):
                raise self.unsupported(c, "for loop written by a macro whose header leaves out a part")
            offsets = [o[1] for o in offsets]
        else:
            semis = _header_semicolons_of_tokens(c)
            offsets = [part.extent.start.offset for part in ch[:-1]]
        parts = {"init": None, "cond": None, "inc": None}
        for part, off in zip(ch[:-1], offsets):
            if off < semis[0]:
                parts["init"] = part
            elif off < semis[1]:
                parts["cond"] = part
            else:
                parts["inc"] = part
        return parts["init"], parts["cond"], parts["inc"], body

    def counted_loop(self, init, cond, inc, body):
        """Match `for (i = lb; i < ub; i += s)` (and <=, >, >=, decrements). Returns a dict or None."""
        if init is None or cond is None or inc is None:
            return None
        var = None
        lb = None
        if init.kind == K.DECL_STMT:
            ds = children(init)
            if len(ds) != 1 or ds[0].kind != K.VAR_DECL:
                return None
            var = ds[0]
            ie = [e for e in children(var) if e.kind.is_expression()]
            if not ie:
                return None
            lb = ie[-1]
            declared = True
        elif init.kind == K.BINARY_OPERATOR and init.binary_operator.name == "Assign":
            lhs, lb = children(init)
            lhs = strip_implicit(lhs)
            if lhs.kind != K.DECL_REF_EXPR:
                return None
            var = lhs.referenced
            declared = False
        else:
            return None
        ty = canonical(var.type)
        if not CT.is_int(ty) or decl_key(var) in self.addr_taken or decl_key(var) in self.mem:
            return None
        if var.kind == K.VAR_DECL and (var.storage_class in (var.storage_class.STATIC, var.storage_class.EXTERN) or
                                       var.semantic_parent is None or var.semantic_parent.kind not in BODY_KINDS):
            return None  # a global or static index lives in memory, where calls in the body see it
        key = decl_key(var)
        # increment
        step = None
        inc_s = strip_implicit(inc)
        if inc_s.kind == K.UNARY_OPERATOR and unary_op(inc_s) in ("pre++", "post++", "pre--", "post--"):
            if self.refers_to(children(inc_s)[0], key):
                step = 1 if "++" in unary_op(inc_s) else -1
        elif inc_s.kind == K.COMPOUND_ASSIGNMENT_OPERATOR:
            lhs, rhs = children(inc_s)
            v = evaluate(rhs)
            if self.refers_to(lhs, key) and isinstance(v, int) and v != 0:
                op = inc_s.binary_operator.name
                step = v if op == "AddAssign" else -v if op == "SubAssign" else None
        elif inc_s.kind == K.BINARY_OPERATOR and inc_s.binary_operator.name == "Assign":
            lhs, rhs = children(inc_s)
            r = strip_implicit(rhs)
            if self.refers_to(lhs, key) and r.kind == K.BINARY_OPERATOR and r.binary_operator.name in ("Add", "Sub"):
                a, b = children(r)
                v = evaluate(b)
                if self.refers_to(a, key) and isinstance(v, int) and v != 0:
                    step = v if r.binary_operator.name == "Add" else -v
        if step is None:
            return None
        # condition
        cs = strip_implicit(cond)
        if cs.kind != K.BINARY_OPERATOR:
            return None
        op = cs.binary_operator.name
        a, b = children(cs)
        flip = {"LT": "GT", "LE": "GE", "GT": "LT", "GE": "LE"}
        if op not in flip:
            return None
        if self.refers_to(a, key):
            bound = b
        elif self.refers_to(b, key):
            bound, op = a, flip[op]
        else:
            return None
        if step > 0 and op not in ("LT", "LE") or step < 0 and op not in ("GT", "GE"):
            return None
        if not IS.counted_compare_ok(ty, a.type, step, b if bound is b else a):
            return None
        if step < 0 and CT.is_unsigned(ty):
            return None
        if key in assigned_decls([body]) or self.mentions(bound, key) or self.mentions(lb, key) and not declared:
            return None
        if exits(body, (K.BREAK_STMT, K.RETURN_STMT, K.GOTO_STMT)):
            return None
        return dict(var=var, key=key, ty=ty, lb=lb, bound=bound, inclusive=op in ("LE", "GE"), step=step,
                    declared=declared)

    def refers_to(self, e, key):
        e = strip_implicit(e)
        return e.kind == K.DECL_REF_EXPR and e.referenced is not None and decl_key(e.referenced) == key

    def mentions(self, e, key):
        if e.kind == K.DECL_REF_EXPR and e.referenced is not None and decl_key(e.referenced) == key:
            return True
        return any(self.mentions(ch, key) for ch in e.get_children())

    def invariant(self, e, loop_nodes):
        """Whether expression `e` has the same value on every iteration: no memory reads, calls or side effects,
        and no variable assigned in the loop."""
        assigned = assigned_decls(loop_nodes)

        def ok(n):
            k = n.kind
            if k in (K.CALL_EXPR, K.ARRAY_SUBSCRIPT_EXPR, K.COMPOUND_ASSIGNMENT_OPERATOR, K.MEMBER_REF_EXPR):
                return False
            if k == K.UNARY_OPERATOR and unary_op(n) in ("pre++", "pre--", "post++", "post--", "*"):
                return False
            if k == K.BINARY_OPERATOR and n.binary_operator.name == "Assign":
                return False
            if k == K.DECL_REF_EXPR and n.referenced is not None:
                r = n.referenced
                if r.kind in (K.VAR_DECL, K.PARM_DECL):
                    rk = decl_key(r)
                    if rk in assigned or rk in self.mem or rk not in self.env:
                        return False
            return all(ok(ch) for ch in n.get_children())

        return ok(e)

    def visit_FOR_STMT(self, c):
        """A for statement; `cleanup(f)` variables its declaration makes are cleaned up when the loop ends."""
        init = self.for_parts(c)[0]
        if init is None or init.kind != K.DECL_STMT:
            return self.for_statement(c)
        cleaned = any(d.kind == K.VAR_DECL and attributes.declaration_attributes(d, "local").cleanup is not None
                      for d in children(init))
        self.block_cleanups.append([])  # (the scope of `for (T v __attribute__((cleanup(f))) = ...; ...)`)
        self.for_statement(c, counted=not cleaned)  # (a counted loop's variable is no object to clean up)
        self.run_cleanups(self.block_cleanups.pop())

    def for_statement(self, c, counted=True):
        init, cond, inc, body = self.for_parts(c)
        enter = gotos.entering(self, c)
        if enter:  # a goto from outside enters the body: a while loop steered by its flag, without `init`
            if init is not None and init.kind == K.DECL_STMT:
                if not self.pure(init):
                    raise self.error(c, "goto is not supported here: jump into a for loop whose declaration "
                                        "initializer has side effects")
                self.visit(init)  # (the jump leaves them indeterminate: their initial values are one choice)
            elif init is not None:  # `k = 0`: not run when the loop is entered at the label
                self.emit_if(arith.xori(self.any_set(enter), self.const_bool(True)), lambda: self.visit(init), None,
                             [init])
            self.emit_while(cond, body, inc, c)
            return
        m = self.counted_loop(init, cond, inc, body) if counted else None
        if m is not None and self.invariant(m["lb"], [c]) and self.invariant(m["bound"], [c]):
            lb_v, lb_f = self.rvalue_form(m["lb"])
            ub_v, ub_f = self.rvalue_form(m["bound"])
            lb_v = self.convert(lb_v, m["lb"].type, m["ty"], m["lb"])
            if not IS.wider_signed(m["bound"].type, m["ty"]):  # (a wider bound keeps its width: index_cast)
                ub_v = self.convert(ub_v, m["bound"].type, m["ty"], m["bound"])
            if lb_f is not None and ub_f is not None:
                self.emit_affine_for(m, lb_f, ub_f, body, c)
            else:
                self.emit_scf_for(m, lb_v, ub_v, body, c)
        else:
            if init is not None:
                self.visit(init)
            self.emit_while(cond, body, inc, c)

    def emit_affine_for(self, m, lb_f, ub_f, body, c):
        step = m["step"]
        if m["inclusive"]:
            ub_f = AF.add(ub_f, AF.const(1 if step > 0 else -1))
        if step > 0:
            lo, hi, st = lb_f, ub_f, step
        else:  # normalized: k in [0, (lb - ub) floordiv |s| + 1), i = lb - |s| k  (ub exclusive here)
            lo, hi, st = AF.const(0), None, 1
        lmap, lops = AF.to_map([lo])
        if hi is not None:
            umap, uops = AF.to_map([hi])
        else:
            m1, ops1 = AF.to_map([AF.sub(lb_f, ub_f)])
            e = m1.results[0]
            trip = ir.AffineAddExpr.get(ir.AffineFloorDivExpr.get(ir.AffineAddExpr.get(e, ir.AffineConstantExpr.get(-1)), ir.AffineConstantExpr.get(-step)), ir.AffineConstantExpr.get(1))
            umap, uops = AF.map_with(m1.n_dims, m1.n_symbols, [trip]), ops1
        self.lower_counted(m, body, c, lambda init_vals: affine.AffineForOp(
            lmap, umap, st, init_vals, lower_bound_operands=lops, upper_bound_operands=uops), affine.AffineYieldOp,
            lambda iv: ("dim", iv) if step > 0 else AF.add(lb_f, AF.mul(AF.const(step), ("dim", iv))),
            final=lambda: self.affine_final(lb_f, ub_f, step))

    def affine_final(self, lb_f, ub_f, step):
        """Value of the index after the loop, as index: max(lb, lb + ceil((ub-lb)/s)*s) (or the mirror)."""
        if step > 0:
            mp, ops = AF.to_map([lb_f, ub_f])
            lb, ub = mp.results
            e = ir.AffineAddExpr.get(lb, ir.AffineMulExpr.get(ir.AffineCeilDivExpr.get(ir.AffineAddExpr.get(ub, ir.AffineMulExpr.get(lb, ir.AffineConstantExpr.get(-1))), ir.AffineConstantExpr.get(step)), ir.AffineConstantExpr.get(step)))
            return affine.AffineMaxOp(AF.map_with(mp.n_dims, mp.n_symbols, [lb, e]), ops).result
        mp, ops = AF.to_map([lb_f, ub_f])
        lb, ub = mp.results
        s = -step
        trip = ir.AffineAddExpr.get(ir.AffineFloorDivExpr.get(ir.AffineAddExpr.get(ir.AffineAddExpr.get(lb, ir.AffineMulExpr.get(ub, ir.AffineConstantExpr.get(-1))), ir.AffineConstantExpr.get(-1)), ir.AffineConstantExpr.get(s)), ir.AffineConstantExpr.get(1))
        e = ir.AffineAddExpr.get(lb, ir.AffineMulExpr.get(trip, ir.AffineConstantExpr.get(-s)))
        return affine.AffineMinOp(AF.map_with(mp.n_dims, mp.n_symbols, [lb, e]), ops).result

    def emit_scf_for(self, m, lb_v, ub_v, body, c):
        ty, step = m["ty"], m["step"]
        lb_i, ub_i = self.index_of(lb_v, ty), self.index_of(ub_v, ty)
        one = self.const_index(1)
        if m["inclusive"]:
            ub_i = arith.addi(ub_i, one) if step > 0 else arith.subi(ub_i, one)
        s = self.const_index(abs(step))
        if step > 0:
            lo, hi = lb_i, ub_i
        else:  # k in [0, ceil((lb - ub)/|s|)), i = lb - |s| k
            diff = arith.subi(lb_i, ub_i)
            lo, hi = self.const_index(0), arith.ceildivsi(arith.maxsi(diff, self.const_index(0)), s)

        def make(init_vals):
            return scf.ForOp(lo, hi, s if step > 0 else one, init_vals)

        def final():
            if step > 0:
                trip = arith.ceildivsi(arith.maxsi(arith.subi(ub_i, lb_i), self.const_index(0)), s)
                return arith.addi(lb_i, arith.muli(trip, s))
            return arith.subi(lb_i, arith.muli(hi, s))

        def iv_value(iv):
            return None if step > 0 else arith.subi(lb_i, arith.muli(iv, s))

        self.lower_counted(m, body, c, make, scf.YieldOp, None, final=final, iv_value=iv_value)

    def lower_counted(self, m, body, c, make, yield_op, iv_form, final, iv_value=None):
        """Shared body of affine.for / scf.for emission: iter_args for assigned variables, `continue` flag."""
        key, ty = m["key"], m["ty"]
        cont = ("cont", next(self.loop_ids)) if exits(body, (K.CONTINUE_STMT,)) else None
        keys = [k for k in self.carried([body]) if k != key]
        op = make([self.env[k].value for k in keys])
        saved = dict(self.env)
        self.loops.append((None, cont))
        with ir.InsertionPoint(op.body):
            for k, a in zip(keys, op.inner_iter_args):
                self.env[k] = Binding(a)
            iv = op.induction_variable
            form = iv_form(iv) if iv_form else None
            if form is not None and form[0] != "dim":
                mp, ops = AF.to_map([form])
                iv_idx = affine.AffineApplyOp(mp, ops).result
                form = ("dim", iv_idx)
            else:
                iv_idx = iv_value(iv) if iv_value else None
                iv_idx = iv if iv_idx is None else iv_idx
            self.env[key] = Binding(self.from_index(iv_idx, ty), form)
            if cont:
                self.env[cont] = Binding(self.const_bool(False))
            self.visit(body)
            yield_op([self.env[k].value for k in keys])
        self.loops.pop()
        self.env = saved
        for k, r in zip(keys, op.results):
            self.env[k] = Binding(r)
        if not m["declared"] and key in self.env:
            self.env[key] = Binding(self.from_index(final(), ty))

    def emit_while(self, cond, body, inc, c, do_while=False):
        """scf.while for any loop: the before region tests the condition (for do-while: runs the body first)."""
        lid = next(self.loop_ids)
        brk = ("brk", lid) if exits(body, (K.BREAK_STMT,)) else None
        cont = ("cont", lid) if exits(body, (K.CONTINUE_STMT,)) else None
        nodes = [n for n in (cond, body, inc) if n is not None]
        if brk:
            self.env[brk] = Binding(self.const_bool(False))
        keys = self.carried(nodes, extra=[brk] if brk else [])
        if brk and brk not in keys:
            keys.append(brk)
        types = [self.env[k].value.type for k in keys]
        op = scf.WhileOp(types, [self.env[k].value for k in keys])
        before = op.before.blocks.append(*types)
        after = op.after.blocks.append(*types)
        saved = dict(self.env)
        self.loops.append((brk, cont))
        with ir.InsertionPoint(before):
            for k, a in zip(keys, before.arguments):
                self.env[k] = Binding(a)
            if do_while:
                if cont:
                    self.env[cont] = Binding(self.const_bool(False))
                self.visit(body)
                if cont:
                    del self.env[cont]
            go = self.loop_condition(cond, c)
            scf.ConditionOp(go, [self.env[k].value for k in keys])
        self.env = dict(saved)
        with ir.InsertionPoint(after):
            for k, a in zip(keys, after.arguments):
                self.env[k] = Binding(a)
            if not do_while:
                if cont:
                    self.env[cont] = Binding(self.const_bool(False))
                self.visit(body)
                if cont:
                    del self.env[cont]
                if inc is not None:
                    self.emit_guarded_expr(inc)
            scf.YieldOp([self.env[k].value for k in keys])
        self.loops.pop()
        self.env = saved
        for k, r in zip(keys, op.results):
            self.env[k] = Binding(r)
        if brk:
            del self.env[brk]

    def emit_guarded_expr(self, e):
        cond = self.not_exited()
        if cond is None:
            self.visit(e)
        else:
            self.emit_if(cond, lambda: self.visit(e), None, [e])

    def loop_condition(self, cond, c):
        """The loop test, false once break/return flags are set (then the C condition is not evaluated); true
        without evaluating it while a goto from outside the loop seeks a label in its body (gotos.entering)."""
        enter = gotos.entering(self, c) if c.kind != K.DO_STMT else []
        if enter:
            return self.emit_if(self.any_set(enter), lambda: self.const_bool(True), lambda: self.loop_test(cond, enter),
                                [cond] if cond is not None else [], result_type=ir.IntegerType.get_signless(1))
        return self.loop_test(cond)

    def any_set(self, keys):
        """i1: one of the flags `keys` (environment keys, at least one) is set."""
        v = None
        for k in keys:
            v = self.env[k].value if v is None else arith.ori(v, self.env[k].value)
        return v

    def loop_test(self, cond, entering=()):
        flags = [k for k in (self.loops[-1][0], RET) if k is not None and k in self.env]
        flags += [k for k in self.env if gotos.is_flag(k) and k not in entering]
        if cond is None:
            test = lambda: self.const_bool(True)  # noqa: E731
        else:
            test = lambda: self.condition(cond)  # noqa: E731
        if not flags:
            return test()
        stop = None
        for k in flags:
            stop = self.env[k].value if stop is None else arith.ori(stop, self.env[k].value)
        go = arith.xori(stop, self.const_bool(True))
        if cond is None or self.pure(cond) and not self.reads_memory(cond):
            t = test()
            return arith.select(go, t, self.const_bool(False)) if cond is not None and self.may_be_poison(cond) \
                else arith.andi(go, t)
        return self.emit_if(go, test, lambda: self.const_bool(False), [cond], result_type=ir.IntegerType.get_signless(1))

    def pure(self, e):
        return not (assigned_decls([e]) or self.has_call(e))

    def has_call(self, e):
        """Whether evaluating `e` calls a function or takes the next variadic argument (`va_arg` moves the list)."""
        return e.kind == K.CALL_EXPR or is_va_arg(e) or \
            any(self.has_call(ch) for ch in e.get_children())

    def visit_WHILE_STMT(self, c):
        cond, body = children(c)
        self.emit_while(cond, body, None, c)

    def visit_DO_STMT(self, c):
        body, cond = children(c)
        self.emit_while(cond, body, None, c, do_while=True)
