"""Expressions in OpenMP clauses (`if(n > 100)`, `num_threads(nt / 2)`, `schedule(dynamic, chunk)`,
`filter(k)`): pgcc finds directives in the tokens of a function (clang parses it without -fopenmp), so a
clause's argument is a token list, evaluated here by recursive descent over C's operator precedence.

Operands are integer and floating literals and the function's arithmetic variables and parameters in scope at
the directive; operators are unary - + !, binary * / % + - < <= > >= == != && || and parentheses (the usual
arithmetic conversions reduced to: integers compute in i64, anything with a floating operand in f64;
`&&`/`||` evaluate both sides, which is only observable with side effects, and operands have none).
"""

from __future__ import annotations

import re

from mlir import ir
from mlir.dialects import arith

from ..clang_ast import K, canonical, macro_definitions
from .macro_expand import expand_positioned
from ..errors import CompileError
from . import c_types as CT
from .scan import decl_key
from .values import MemLV

BINARY = [("||",), ("&&",), ("==", "!="), ("<", "<=", ">", ">="), ("+", "-"), ("*", "/", "%")]


def _i64():
    return ir.IntegerType.get_signless(64)


class ClauseExpr:
    """Evaluate one clause argument.

    Args:
        gen: the FunctionGen (variables are looked up in its env/mem).
        clause: an openmp.Clause whose `args` are [(token, (file, line, col))].
        tokens: the tokens to evaluate (default: all of the clause's arguments).
    """

    def __init__(self, gen, clause, tokens=None):
        self.gen, self.clause = gen, clause
        toks = list(tokens if tokens is not None else clause.args or [])
        self.toks = []
        for t, w in toks:  # the directive tokenizer splits `<=`, `>=`, `==`, `!=`
            if t == "=" and self.toks and self.toks[-1][0] in ("<", ">", "=", "!"):
                self.toks[-1] = (self.toks[-1][0] + "=", self.toks[-1][1])
            else:
                self.toks.append((t, w))
        self.toks = expand_positioned(self.toks, macro_definitions(gen.mg.tu))  # (`num_threads(NT)`)
        if clause.name == "if" and len(self.toks) > 2 and self.toks[1][0] == ":":
            self.toks = self.toks[2:]  # `if(parallel: expr)`: the directive-name modifier
        self.i = 0

    def error(self, detail: str, where=None) -> CompileError:
        w = where or (self.toks[min(self.i, len(self.toks) - 1)][1] if self.toks else self.clause.where)
        return CompileError(f"unsupported OpenMP construct '{self.clause.name}': {detail}", *w)

    def value(self, want: str):
        """The argument as an MLIR value: want "i1" (a condition: != 0) or "i32".

        Raises:
            CompileError: an operand or operator outside the supported set, or trailing tokens."""
        if not self.toks:
            raise self.error("missing argument")
        v = self.conditional()
        if self.i != len(self.toks):
            raise self.error(f"unexpected '{self.toks[self.i][0]}'")
        if want == "i1":
            if isinstance(v.type, ir.FloatType):
                return arith.cmpf(arith.CmpFPredicate.UNE, v, arith.constant(v.type, 0.0))
            return arith.cmpi(arith.CmpIPredicate.ne, v, arith.constant(_i64(), 0))
        if isinstance(v.type, ir.FloatType):
            v = arith.fptosi(_i64(), v)
        return arith.trunci(ir.IntegerType.get_signless(32), v)

    def peek(self):
        return self.toks[self.i][0] if self.i < len(self.toks) else None

    def conditional(self):
        """`c ? a : b` (both arms are side-effect free here: evaluated, then selected), or a binary expression."""
        c = self.binary(0)
        if self.peek() != "?":
            return c
        self.i += 1
        a = self.conditional()
        if self.peek() != ":":
            raise self.error("expected ':'")
        self.i += 1
        b = self.conditional()
        if isinstance(a.type, ir.FloatType) != isinstance(b.type, ir.FloatType):
            a, b = (arith.sitofp(ir.F64Type.get(), v) if not isinstance(v.type, ir.FloatType) else v for v in (a, b))
        zero = arith.constant(c.type, 0.0) if isinstance(c.type, ir.FloatType) else arith.constant(_i64(), 0)
        cond = arith.cmpf(arith.CmpFPredicate.UNE, c, zero) if isinstance(c.type, ir.FloatType) else \
            arith.cmpi(arith.CmpIPredicate.ne, c, zero)
        return arith.select(cond, a, b)

    def binary(self, level: int):
        if level == len(BINARY):
            return self.unary()
        a = self.binary(level + 1)
        while self.peek() in BINARY[level]:
            op = self.toks[self.i][0]
            self.i += 1
            a = self.apply(op, a, self.binary(level + 1))
        return a

    def unary(self):
        t = self.peek()
        if t in ("-", "+", "!"):
            self.i += 1
            v = self.unary()
            if t == "-":
                return arith.negf(v) if isinstance(v.type, ir.FloatType) else \
                    arith.subi(arith.constant(_i64(), 0), v)
            if t == "!":
                return self.apply("==", v, arith.constant(_i64(), 0))
            return v
        if t == "(":
            self.i += 1
            v = self.conditional()
            if self.peek() != ")":
                raise self.error("expected ')'")
            self.i += 1
            return v
        return self.primary()

    def primary(self):
        t = self.peek()
        if t is None:
            raise self.error("incomplete expression")
        self.i += 1
        if re.match(r"\d", t):
            # the tokenizer splits `1.5` into 1 . 5: join a fraction back
            if self.peek() == "." and self.i + 1 < len(self.toks) and re.match(r"\d", self.toks[self.i + 1][0]):
                t = t + "." + self.toks[self.i + 1][0]
                self.i += 2
            text = t.rstrip("uUlLfF") if not t.lower().startswith("0x") else t.rstrip("uUlL")
            try:
                return arith.constant(_i64(), int(text, 0))
            except ValueError:
                try:
                    return arith.constant(ir.F64Type.get(), float(text))
                except ValueError:
                    raise self.error(f"'{t}' is not a number") from None
        if re.match(r"[A-Za-z_]\w*$", t):
            return self.variable(t)
        raise self.error(f"'{t}' in the argument (only numbers, variables and arithmetic)")

    def variable(self, name: str):
        gen = self.gen
        where = self.toks[self.i - 1][1]
        for v in visible(gen, name, where):
            k, ty = decl_key(v), canonical(v.type)
            if not CT.is_arith(ty):
                continue
            if k in gen.env:
                val = gen.env[k].value
            elif k in gen.mem and gen.mem[k].memref is not None and not gen.mem[k].is_raw_global:
                val = gen.load(MemLV(gen.mem_ref(gen.mem[k]), [], ty))
            else:
                continue
            if CT.is_float(ty):
                return arith.extf(ir.F64Type.get(), val) if ir.FloatType(val.type).width < 64 else val
            w = ir.IntegerType(val.type).width
            if w < 64:
                return arith.extui(_i64(), val) if CT.is_unsigned(ty) or w == 1 else arith.extsi(_i64(), val)
            return val
        raise self.error(f"'{name}' is not an arithmetic variable in scope here", where)

    def apply(self, op: str, a, b):
        fa, fb = isinstance(a.type, ir.FloatType), isinstance(b.type, ir.FloatType)
        if fa or fb:
            f64 = ir.F64Type.get()
            a = a if fa else arith.sitofp(f64, a)
            b = b if fb else arith.sitofp(f64, b)
            if op in ("+", "-", "*", "/"):
                return {"+": arith.addf, "-": arith.subf, "*": arith.mulf, "/": arith.divf}[op](a, b)
            if op in ("&&", "||", "%"):
                raise self.error(f"'{op}' on a floating value")
            P = arith.CmpFPredicate
            pred = {"<": P.OLT, "<=": P.OLE, ">": P.OGT, ">=": P.OGE, "==": P.OEQ, "!=": P.UNE}[op]
            return arith.extui(_i64(), arith.cmpf(pred, a, b))
        if op in ("+", "-", "*", "/", "%"):
            if op in ("/", "%") and not _nonzero_constant(b):
                raise self.error(f"'{op}' by a value that may be zero")
            return {"+": arith.addi, "-": arith.subi, "*": arith.muli, "/": arith.divsi, "%": arith.remsi}[op](a, b)
        if op in ("&&", "||"):
            zero = arith.constant(_i64(), 0)
            x = arith.cmpi(arith.CmpIPredicate.ne, a, zero)
            y = arith.cmpi(arith.CmpIPredicate.ne, b, zero)
            return arith.extui(_i64(), arith.andi(x, y) if op == "&&" else arith.ori(x, y))
        P = arith.CmpIPredicate
        pred = {"<": P.slt, "<=": P.sle, ">": P.sgt, ">=": P.sge, "==": P.eq, "!=": P.ne}[op]
        return arith.extui(_i64(), arith.cmpi(pred, a, b))


def _nonzero_constant(v) -> bool:
    op = v.owner
    if isinstance(op, ir.Block) or op.name != "arith.constant":
        return False
    return ir.IntegerAttr(op.attributes["value"]).value != 0


def visible(gen, name: str, where) -> list:
    """Declarations named `name` in the function (parameters, and locals declared on or before the
    directive's line), the latest first."""
    out = []

    def visit(c):
        if c.kind in (K.VAR_DECL, K.PARM_DECL) and c.spelling == name and c.location.line <= where[1]:
            out.append(c)
        for ch in c.get_children():
            visit(ch)

    visit(gen.cursor)
    return out[::-1]
