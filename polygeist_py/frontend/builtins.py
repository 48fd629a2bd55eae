"""The builtins table: C library, math.h and GNU ``__builtin_*`` functions that pgcc lowers itself, by name.

``Builtins.lookup(name)`` gives the handler of a function name (or None: an ordinary call). A handler takes
the FunctionGen, the CALL_EXPR and its argument cursors and returns the call's value (None for void). The
CUDA runtime API and device intrinsics are the entries of cuda_builtins.CudaBuiltins.
"""

from __future__ import annotations

from mlir import ir
from mlir.dialects import arith, func, llvm

from ..clang_ast import T, canonical
from ..errors import error_at
from . import c_types as CT
from .cuda_builtins import CudaBuiltins
from .scan import decl_key, out_param_var

# C name -> math dialect op (float and double variants; CUDA's fast intrinsics map to the exact op)
MATH_UNARY = {
    "sqrt": "math.sqrt", "exp": "math.exp", "log": "math.log", "sin": "math.sin", "cos": "math.cos",
    "tan": "math.tan", "atan": "math.atan", "asin": "math.asin", "acos": "math.acos", "sinh": "math.sinh",
    "cosh": "math.cosh", "tanh": "math.tanh", "log10": "math.log10", "log2": "math.log2", "exp2": "math.exp2",
    "expm1": "math.expm1", "log1p": "math.log1p", "erf": "math.erf", "cbrt": "math.cbrt", "floor": "math.floor",
    "ceil": "math.ceil", "round": "math.round", "trunc": "math.trunc", "fabs": "math.absf", "rsqrt": "math.rsqrt",
}


MATH_BINARY = {"pow": "math.powf", "atan2": "math.atan2", "fmax": "arith.maxnumf", "fmin": "arith.minnumf",
               "fmod": "arith.remf", "copysign": "math.copysign", "fdivide": "arith.divf"}


VARIADIC = {"printf": 1, "fprintf": 2, "sprintf": 2, "snprintf": 3, "scanf": 1, "fscanf": 2, "sscanf": 2}


def math_name(name: str):
    """'sqrtf' -> ('sqrt', unary op); '__expf' -> ('exp', ...); None when not a math function."""
    base = name[2:] if name.startswith("__") else name
    for cand in (base, base[:-1] if base.endswith("f") else None):
        if cand in MATH_UNARY:
            return MATH_UNARY[cand], 1
        if cand in MATH_BINARY:
            return MATH_BINARY[cand], 2
    return None


class Builtins(CudaBuiltins):
    """Handlers for C library, math and CUDA functions, by name.

    Args:
        mg: the module.ModuleGen (declarations of the library functions that handlers call).
    """

    def __init__(self, mg):
        self.mg = mg
        self.table = {
            **self.cuda_table(),
            "memcpy": self.memcpy, "memset": self.memset,
            "posix_memalign": self.posix_memalign,
            "abs": self.int_abs, "labs": self.int_abs, "min": self.minmax, "max": self.minmax,
        }

    def is_allocator(self, call) -> bool:
        return False

    def lookup(self, name):
        if name in self.table:
            return self.table[name]
        if math_name(name):
            return self.math
        if name in VARIADIC:
            return self.variadic
        return None

    def ret_int(self, fg, call, v=0):
        ty = canonical(call.type)
        if ty.kind == T.VOID:
            return None
        return fg.const_int(CT.scalar_type(ty), v)

    def libc(self, name, ret, args):
        """Call an external C function with a fixed signature (declared on first use)."""
        if name not in self.mg.functions:
            with ir.Location.unknown(), ir.InsertionPoint(self.mg.module.body):
                self.mg.functions[name] = func.FuncOp(name, ir.FunctionType.get([a.type for a in args], [ret] if ret else []),
                                                      visibility="private")
        op = func.CallOp([ret] if ret else [], ir.FlatSymbolRefAttr.get(name), args)
        return op.results[0] if ret else None

    def ptr_arg(self, fg, e):
        return fg.raw_pointer(e)

    def assign_out(self, fg, arg, raw_ptr, call):
        """Store a new pointer into the variable named by `&var` argument `arg`; any other pointer argument
        (`&ptrs[1]`, `&s->buf`) addresses memory, where the pointer is stored raw. Returns the variable's key
        (None for memory)."""
        decl = out_param_var(arg)
        if decl is None:
            llvm.StoreOp(raw_ptr, fg.raw_pointer(arg))
            return None
        ty = canonical(decl.type)
        key = decl_key(decl)
        lv = fg.lvalue_of_decl(decl, arg)
        if ty.kind != T.POINTER:  # `(void **)&n` of an int: a pointer would overwrite a smaller object
            raise error_at(arg, f"unsupported construct: {call.spelling} storing a pointer into "
                                f"'{decl.spelling}' of type '{decl.type.spelling}'")
        if CT.pointee_is_memref(ty):
            fg.store(lv, fg.from_ptr(raw_ptr, ty, None, call))
        else:
            fg.store(lv, raw_ptr)
        return key

    def size_arg(self, fg, e):
        i64 = ir.IntegerType.get_signless(64)
        v = fg.rvalue(e)
        if v.type != i64:
            v = arith.extui(i64, v) if CT.is_unsigned(e.type) else arith.extsi(i64, v)
        return v

    def posix_memalign(self, fg, call, args):
        i64 = ir.IntegerType.get_signless(64)
        slot = llvm.AllocaOp(CT.llvm_ptr(), llvm.ConstantOp(i64, ir.IntegerAttr.get(i64, 1)).result,
                             CT.llvm_ptr()).result
        r = self.libc("posix_memalign", ir.IntegerType.get_signless(32),
                      [slot, self.size_arg(fg, args[1]), self.size_arg(fg, args[2])])
        p = llvm.LoadOp(CT.llvm_ptr(), slot).result
        self.assign_out(fg, args[0], p, call)
        return r

    def free(self, fg, call, args):
        self.libc("free", None, [self.ptr_arg(fg, args[0])])
        return self.ret_int(fg, call)

    def memcpy(self, fg, call, args):
        dst, src = self.ptr_arg(fg, args[0]), self.ptr_arg(fg, args[1])
        n = self.size_arg(fg, args[2])
        llvm.MemcpyOp(dst, src, n, ir.BoolAttr.get(False))
        if call.spelling == "memcpy":
            return dst
        return self.ret_int(fg, call)

    def memset(self, fg, call, args):
        dst = self.ptr_arg(fg, args[0])
        v = fg.rvalue(args[1])
        i8 = ir.IntegerType.get_signless(8)
        v = arith.trunci(i8, v) if v.type != i8 else v
        llvm.MemsetOp(dst, v, self.size_arg(fg, args[2]), ir.BoolAttr.get(False))
        if call.spelling == "memset":
            return dst
        return self.ret_int(fg, call)

    def reject(self, what):
        def handler(fg, call, args):
            raise error_at(call, f"unsupported construct: {what}")
        return handler

    def math(self, fg, call, args):
        op, n = math_name(call.spelling)
        ty = canonical(call.type)
        if not CT.is_float(ty):
            raise error_at(call, f"unsupported construct: '{call.spelling}' on non-floating-point values")
        rt = CT.scalar_type(ty)
        vals = [fg.convert(fg.rvalue(a), a.type, ty, a) for a in args[:n]]
        return ir.Operation.create(op, [rt], vals).result

    def int_abs(self, fg, call, args):
        ty = canonical(call.type)
        if CT.is_float(ty):
            return ir.Operation.create("math.absf", [CT.scalar_type(ty)], [fg.rvalue(args[0])]).result
        v = fg.convert(fg.rvalue(args[0]), args[0].type, ty, args[0])
        return ir.Operation.create("math.absi", [v.type], [v]).result

    def minmax(self, fg, call, args):
        ty = canonical(call.type)
        a, b = (fg.convert(fg.rvalue(x), x.type, ty, x) for x in args[:2])
        mx = call.spelling == "max"
        if CT.is_float(ty):
            return (arith.maxnumf if mx else arith.minnumf)(a, b)
        if CT.is_unsigned(ty):
            return (arith.maxui if mx else arith.minui)(a, b)
        return (arith.maxsi if mx else arith.minsi)(a, b)

    def variadic(self, fg, call, args):
        name = call.spelling
        nfixed = VARIADIC[name]
        vals, fixed_types = [], []
        for i, a in enumerate(args):
            at = canonical(a.type)
            if at.kind == T.POINTER or CT.is_array(at):
                v = fg.raw_pointer(a)
            elif not CT.is_arith(at):
                raise error_at(a, f"unsupported construct: passing a '{a.type.spelling}' to '{name}'")
            else:
                v = fg.rvalue(a)
            vals.append(v)
            if i < nfixed:
                fixed_types.append(v.type)
        i32 = ir.IntegerType.get_signless(32)
        ftype = self.mg.declare_llvm_vararg(name, i32, fixed_types)
        op = llvm.CallOp(i32, vals, [], [], var_callee_type=ir.TypeAttr.get(ftype),
                         callee=ir.FlatSymbolRefAttr.get(name))
        return op.result
