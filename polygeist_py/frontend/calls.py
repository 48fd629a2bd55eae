"""Calls: user functions (C ABI), math.h as the math dialect, variadic libc through the LLVM dialect, the CUDA
runtime API on host memory and host clocks, and kernel launches as gpu.launch.

Builtins are a table from C name to handler, not an if-chain.
"""

from __future__ import annotations

from mlir import ir
from mlir.dialects import arith, func, gpu, llvm, memref, scf

from ..clang_ast import K, T, canonical, children, strip_implicit, unary_op
from ..errors import error_at
from . import affine_forms as AF
from . import c_types as CT
from . import enzyme
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
# CUDA atomics -> memref.atomic_rmw kinds (float kind, signed int kind, unsigned int kind); the rest are
# read-modify-write regions in memref.generic_atomic_rmw
ATOMICS = {
    "atomicAdd": ("addf", "addi", "addi"), "atomicSub": (None, "addi", "addi"), "atomicExch": ("assign",) * 3,
    "atomicMax": (None, "maxs", "maxu"), "atomicMin": (None, "mins", "minu"), "atomicAnd": (None, "andi", "andi"),
    "atomicOr": (None, "ori", "ori"), "atomicXor": (None, "xori", "xori"),
    "atomicCAS": None, "atomicInc": None, "atomicDec": None,
}
WARP_SYNC = "pgcc.warp_sync"  # a barrier standing for a warp-level exchange (see warp_exchange)


def warp_barrier():
    """A gpu.barrier marked WARP_SYNC: all threads of the block meet there on the CPU, but CUDA only asks the
    32 lanes of a warp to meet, so it may sit under a condition uniform within each warp (``if (warp == 0)``)."""
    gpu.BarrierOp().attributes[WARP_SYNC] = ir.UnitAttr.get()


SHUFFLES = ("__shfl_sync", "__shfl_up_sync", "__shfl_down_sync", "__shfl_xor_sync")
MAX_BLOCK = 1024  # CUDA's limit on threads per block: the size of a warp exchange buffer
# texture API forms pgcc does not translate (only 1-D textures on linear memory are)
UNSUPPORTED_TEXTURE = {
    "tex1D": "tex1D() reads a texture bound to a CUDA array (cudaArray); bind linear memory with "
             "cudaBindTexture and read it with tex1Dfetch",
    "tex2D": "2-D textures (tex2D); only 1-D textures bound to linear memory (tex1Dfetch) are supported",
    "tex3D": "3-D textures (tex3D); only 1-D textures bound to linear memory (tex1Dfetch) are supported",
    "cudaBindTexture2D": "2-D textures (cudaBindTexture2D); only 1-D textures bound to linear memory are supported",
    "cudaBindTextureToArray": "textures bound to CUDA arrays (cudaBindTextureToArray, cudaArray)",
    "cudaMallocArray": "CUDA arrays (cudaMallocArray, cudaArray)",
    "cudaFreeArray": "CUDA arrays (cudaFreeArray, cudaArray)",
    "cudaCreateChannelDesc": "cudaCreateChannelDesc() other than as the initializer of a cudaChannelFormatDesc "
                             "variable",
}
VARIADIC = {"printf": 1, "fprintf": 2, "sprintf": 2, "snprintf": 3, "scanf": 1, "fscanf": 2, "sscanf": 2}


def is_trivial_record(ty) -> bool:
    """A C-style struct in C++ (.cu) code: no user-written constructors or methods, so copies are byte copies."""
    d = canonical(ty).get_declaration()
    return not any(c.kind in (K.CONSTRUCTOR, K.CXX_METHOD, K.DESTRUCTOR) for c in d.get_children())


def is_texture(ty) -> bool:
    """True for a legacy CUDA texture reference type ``texture<T, dim, mode>``."""
    return ty.kind == T.RECORD and ty.get_declaration().spelling == "texture"


def texture_params(ty):
    """(element clang type, dimensions, reads normalized floats) of a canonical ``texture<...>`` type, whose
    spelling omits default arguments: ``texture<float>``, ``texture<float, 2>``, ``texture<int, 1, (...)1U>``."""
    elem = ty.get_template_argument_type(0) if ty.get_num_template_arguments() > 0 else None
    spelling = ty.spelling
    inner = spelling[spelling.index("<") + 1:spelling.rindex(">")]
    parts, depth, cur = [], 0, ""
    for ch in inner:
        depth += ch in "<(" and 1 or (-1 if ch in ">)" else 0)
        if ch == "," and depth == 0:
            parts.append(cur.strip())
            cur = ""
        else:
            cur += ch
    parts.append(cur.strip())
    dim = int(parts[1]) if len(parts) > 1 and parts[1].isdigit() else 1
    mode = parts[2] if len(parts) > 2 else ""
    normalized = "Normalized" in mode or mode.rstrip("uU").endswith("1")
    return (elem if elem is not None and elem.kind != T.INVALID else None), dim, normalized


def math_name(name: str):
    """'sqrtf' -> ('sqrt', unary op); '__expf' -> ('exp', ...); None when not a math function."""
    base = name[2:] if name.startswith("__") else name
    for cand in (base, base[:-1] if base.endswith("f") else None):
        if cand in MATH_UNARY:
            return MATH_UNARY[cand], 1
        if cand in MATH_BINARY:
            return MATH_BINARY[cand], 2
    return None


class Builtins:
    """Handlers for C library and CUDA runtime functions, by name."""

    def __init__(self, mg):
        self.mg = mg
        self.table = {
            "cudaMalloc": self.cuda_malloc, "cudaMallocManaged": self.cuda_malloc, "cudaMallocHost": self.cuda_malloc,
            "cudaFree": self.free, "cudaFreeHost": self.free,
            "cudaMemcpy": self.memcpy, "cudaMemcpyAsync": self.memcpy, "memcpy": self.memcpy,
            "cudaMemset": self.memset, "memset": self.memset,
            "cudaMemcpyToSymbol": self.symbol_memcpy, "cudaMemcpyFromSymbol": self.symbol_memcpy,
            "cudaDeviceSynchronize": self.success, "cudaThreadSynchronize": self.success,
            "cudaDeviceReset": self.success, "cudaSetDevice": self.success, "cudaGetLastError": self.success,
            "cudaPeekAtLastError": self.success, "cudaEventSynchronize": self.success,
            "cudaEventDestroy": self.success, "cudaStreamSynchronize": self.success,
            # streams: every launch and copy runs synchronously in program order, so a stream is only a name
            "cudaStreamCreate": self.success, "cudaStreamCreateWithFlags": self.success,
            "cudaStreamDestroy": self.success, "cudaStreamQuery": self.success, "cudaStreamWaitEvent": self.success,
            "cudaEventQuery": self.success, "cudaMemsetAsync": self.memset,
            "cudaGetErrorString": self.error_string,
            "cudaEventCreate": self.event_create, "cudaEventRecord": self.event_record,
            "cudaEventElapsedTime": self.event_elapsed,
            "posix_memalign": self.posix_memalign,
            "__syncthreads": self.barrier,
            **{name: self.atomic for name in ATOMICS},
            **{name: self.shuffle for name in SHUFFLES},
            "__popc": self.bit_count, "__popcll": self.bit_count, "__clz": self.bit_count, "__clzll": self.bit_count,
            "__ffs": self.bit_count, "__ffsll": self.bit_count, "__mul24": self.mul24, "__umul24": self.mul24,
            "__ballot_sync": self.vote, "__any_sync": self.vote, "__all_sync": self.vote,
            "__syncwarp": self.barrier,
            "abs": self.int_abs, "labs": self.int_abs, "min": self.minmax, "max": self.minmax,
            "tex1Dfetch": self.tex_fetch, "cudaBindTexture": self.bind_texture, "cudaUnbindTexture": self.bind_texture,
            **{name: self.reject(what) for name, what in UNSUPPORTED_TEXTURE.items()},
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

    # ---------------------------------------------------------------- helpers
    def barrier(self, fg, call, args):
        """__syncthreads() -> gpu.barrier (--cpuify splits the thread loop there); __syncwarp() -> a gpu.barrier
        marked WARP_SYNC (legal under a condition that is uniform within each warp only)."""
        bar = gpu.BarrierOp()
        if call.spelling == "__syncwarp":
            bar.attributes[WARP_SYNC] = ir.UnitAttr.get()
        return None

    def atomic(self, fg, call, args):
        """CUDA atomics on the element a pointer designates: real CPU atomics (memref.atomic_rmw or
        memref.generic_atomic_rmw, which lower to atomicrmw / a cmpxchg loop). Returns the old value."""
        from .codegen import MemLV

        name = call.spelling
        ty = canonical(call.type)
        target = strip_implicit(args[0])
        if target.kind == K.UNARY_OPERATOR and children(target) and unary_op(target) == "&":
            lv = fg.lvalue(children(target)[0])
        elif CT.pointee_is_memref(canonical(args[0].type)):
            lv = MemLV(fg.rvalue(args[0]), [AF.const(0)], ty)  # *p
        else:
            raise error_at(call, f"unsupported construct: {name} through '{args[0].type.spelling}'")
        if not isinstance(lv, MemLV):
            raise error_at(call, f"unsupported construct: {name} on a scalar variable")
        idx = fg.index_values(lv.indices)
        vals = [fg.convert(fg.rvalue(a), a.type, ty, a) for a in args[1:]]
        kinds = ATOMICS[name]
        if kinds is not None:
            kind = kinds[0] if CT.is_float(ty) else kinds[2] if CT.is_unsigned(ty) else kinds[1]
            if kind is None:
                raise error_at(call, f"unsupported construct: {name} on '{ty.spelling}'")
            v = vals[0]
            if name == "atomicSub":
                v = arith.subi(fg.const_int(ty, 0), v)
            return memref.AtomicRMWOp(getattr(arith.AtomicRMWKind, kind), v, lv.memref, idx).result
        op = memref.GenericAtomicRMWOp(CT.scalar_type(ty), lv.memref, idx)
        block = op.regions[0].blocks.append(CT.scalar_type(ty))
        with ir.InsertionPoint(block):
            old = block.arguments[0]
            one, zero = fg.const_int(ty, 1), fg.const_int(ty, 0)
            if name == "atomicCAS":
                new = arith.select(arith.cmpi(arith.CmpIPredicate.eq, old, vals[0]), vals[1], old)
            elif name == "atomicInc":  # ((old >= val) ? 0 : old + 1), unsigned
                new = arith.select(arith.cmpi(arith.CmpIPredicate.uge, old, vals[0]), zero, arith.addi(old, one))
            else:  # atomicDec: ((old == 0) | (old > val)) ? val : old - 1
                wrap = arith.ori(arith.cmpi(arith.CmpIPredicate.eq, old, zero),
                                 arith.cmpi(arith.CmpIPredicate.ugt, old, vals[0]))
                new = arith.select(wrap, vals[0], arith.subi(old, one))
            memref.AtomicYieldOp(new)
        return op.result

    # Warp intrinsics exchange values between the 32 consecutive threads of a warp. Here each is a round trip
    # through a per-block buffer: every thread writes its value at its linear thread index, a barrier, every
    # thread reads its source lane, a barrier. Barrier elimination turns that into fission of the thread loop,
    # which is exact when all threads of the block make the call (uniform control flow; otherwise the barrier
    # is rejected as non-uniform).
    def warp_exchange(self, fg, v):
        """Publish `v` in a per-block buffer at the caller's linear thread index, then a barrier.

        Returns (tid, read): tid is the linear thread index (i32); read(src, ok=None) returns (value of linear
        thread `src`, whether `src` is inside the block). A source outside the block (a partial last warp) or
        with `ok` false reads the caller's own value, as on a GPU."""
        buf = fg.alloca_entry(ir.MemRefType.get([MAX_BLOCK], v.type))
        buf.owner.attributes["pgcc.shared"] = ir.UnitAttr.get()
        ids = {(n, c): fg.gpu_id(n, c) for n in ("threadIdx", "blockDim") for c in "xyz"}
        tid = arith.addi(ids["threadIdx", "x"], arith.muli(ids["blockDim", "x"], arith.addi(
            ids["threadIdx", "y"], arith.muli(ids["blockDim", "y"], ids["threadIdx", "z"]))))
        nthreads = arith.muli(ids["blockDim", "x"], arith.muli(ids["blockDim", "y"], ids["blockDim", "z"]))
        idx = ir.IndexType.get()
        memref.StoreOp(v, buf, [arith.index_castui(idx, tid)])
        warp_barrier()

        def read(src, ok=None):
            inside = arith.cmpi(arith.CmpIPredicate.ult, src, nthreads)
            take = inside if ok is None else arith.andi(ok, inside)
            return memref.LoadOp(buf, [arith.index_castui(idx, arith.select(take, src, tid))]).result, inside

        return tid, read

    def shuffle(self, fg, call, args):
        """__shfl{,_up,_down,_xor}_sync(mask, v, lane/delta, width=32): the value of another lane."""
        name = call.spelling
        ty = canonical(call.type)
        i32 = ir.IntegerType.get_signless(32)
        tid, read = self.warp_exchange(fg, fg.convert(fg.rvalue(args[1]), args[1].type, ty, args[1]))
        k = fg.rvalue(args[2])
        width = fg.rvalue(args[3]) if len(args) > 3 else fg.const_int(i32, 32)
        seg_lane = arith.remui(tid, width)  # lane within the width-segment
        seg_base = arith.subi(tid, seg_lane)
        if name == "__shfl_sync":
            src, ok = arith.addi(seg_base, arith.remui(k, width)), None
        elif name == "__shfl_up_sync":
            src, ok = arith.subi(tid, k), arith.cmpi(arith.CmpIPredicate.uge, seg_lane, k)
        elif name == "__shfl_down_sync":
            src, ok = arith.addi(tid, k), arith.cmpi(arith.CmpIPredicate.ult, arith.addi(seg_lane, k), width)
        else:
            lane = arith.xori(seg_lane, k)
            src, ok = arith.addi(seg_base, lane), arith.cmpi(arith.CmpIPredicate.ult, lane, width)
        got = read(src, ok)[0]
        warp_barrier()
        return got

    def vote(self, fg, call, args):
        """__ballot_sync(mask, p): bit i set when lane i's p is non-zero; __any_sync/__all_sync from it."""
        i32 = ir.IntegerType.get_signless(32)
        p = fg.to_bool(fg.rvalue(args[1]), canonical(args[1].type))
        tid, read = self.warp_exchange(fg, arith.extui(i32, p))
        base = arith.subi(tid, arith.remui(tid, fg.const_int(i32, 32)))
        bits, lanes = fg.const_int(i32, 0), fg.const_int(i32, 0)
        for lane in range(32):  # unrolled: 32 loads of the buffer
            value, inside = read(arith.addi(base, fg.const_int(i32, lane)))
            present = arith.extui(i32, inside)
            bits = arith.ori(bits, arith.shli(arith.andi(value, present), fg.const_int(i32, lane)))
            lanes = arith.ori(lanes, arith.shli(present, fg.const_int(i32, lane)))
        warp_barrier()
        mask = arith.andi(fg.rvalue(args[0]), lanes)
        bits = arith.andi(bits, mask)
        if call.spelling == "__ballot_sync":
            return bits
        zero = fg.const_int(i32, 0)
        res = (arith.cmpi(arith.CmpIPredicate.ne, bits, zero) if call.spelling == "__any_sync"
               else arith.cmpi(arith.CmpIPredicate.eq, bits, mask))
        return arith.extui(CT.scalar_type(canonical(call.type)), res)

    def bit_count(self, fg, call, args):
        """__popc/__clz/__ffs (and the ...ll forms) as LLVM's ctpop/ctlz/cttz intrinsics (the math dialect's
        ctpop has no lowering to LLVM here), result as int."""
        x = fg.rvalue(args[0])
        base = call.spelling.rstrip("l")
        if base == "__popc":
            r = ir.Operation.create("llvm.intr.ctpop", [x.type], [x]).result
        elif base == "__clz":
            r = ir.Operation.create("llvm.intr.ctlz", [x.type], [x], {"is_zero_poison": ir.BoolAttr.get(False)}).result
        else:  # __ffs: 1 + index of the least significant set bit, 0 for 0
            tz = ir.Operation.create("llvm.intr.cttz", [x.type], [x], {"is_zero_poison": ir.BoolAttr.get(False)}).result
            zero = fg.const_int(x.type, 0)
            r = arith.select(arith.cmpi(arith.CmpIPredicate.eq, x, zero), zero, arith.addi(tz, fg.const_int(x.type, 1)))
        return fg.convert(r, args[0].type, canonical(call.type), call)

    def mul24(self, fg, call, args):
        """__mul24/__umul24: the product of the low 24 bits of each operand (sign- or zero-extended)."""
        ty = canonical(call.type)
        a, b = (fg.convert(fg.rvalue(x), x.type, ty, x) for x in args[:2])
        eight = fg.const_int(ty, 8)
        if call.spelling == "__mul24":
            a, b = (arith.shrsi(arith.shli(v, eight), eight) for v in (a, b))
        else:
            mask = fg.const_int(ty, 0xFFFFFF)
            a, b = arith.andi(a, mask), arith.andi(b, mask)
        return arith.muli(a, b)

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

    # ---------------------------------------------------------------- handlers
    def cuda_malloc(self, fg, call, args):
        p = self.libc("malloc", CT.llvm_ptr(), [self.size_arg(fg, args[1])])
        self.assign_out(fg, args[0], p, call)
        return self.ret_int(fg, call)

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

    def symbol_memcpy(self, fg, call, args):
        """cudaMemcpyToSymbol(sym, src, n, offset) / cudaMemcpyFromSymbol(dst, sym, n, offset): a memcpy to or
        from the bytes of a __constant__/__device__ global (ordinary host memory here)."""
        from .codegen import MemLV

        to_symbol = call.spelling == "cudaMemcpyToSymbol"
        sym = strip_implicit(args[0 if to_symbol else 1])
        lv = fg.lvalue(sym) if sym.kind == K.DECL_REF_EXPR else None
        if not isinstance(lv, MemLV) or lv.indices:
            raise error_at(sym, f"unsupported construct: {call.spelling} on something that is not a global variable")
        i64 = ir.IntegerType.get_signless(64)
        offset = self.size_arg(fg, args[3]) if len(args) > 3 else arith.constant(i64, 0)
        at = fg.byte_offset(fg.to_ptr(lv.memref), offset)
        other = self.ptr_arg(fg, args[1 if to_symbol else 0])
        dst, src = (at, other) if to_symbol else (other, at)
        llvm.MemcpyOp(dst, src, self.size_arg(fg, args[2]), ir.BoolAttr.get(False))
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

    def success(self, fg, call, args):
        for a in args:  # arguments are still evaluated for their side effects
            if canonical(a.type).kind not in (T.POINTER,):
                fg.rvalue(a)
        return self.ret_int(fg, call)

    def error_string(self, fg, call, args):
        e = fg.rvalue(args[0])
        ok = arith.cmpi(arith.CmpIPredicate.eq, e, fg.const_int(e.type, 0))
        return arith.select(ok, self.mg.string_constant("no error"), self.mg.string_constant("unknown error"))

    def event_create(self, fg, call, args):
        decl = out_param_var(args[0])
        if decl is None:
            raise error_at(call, "unsupported construct: cudaEventCreate needs `&event`")
        fg.store(fg.lvalue_of_decl(decl, args[0]), arith.constant(ir.F64Type.get(), 0.0))
        return self.ret_int(fg, call)

    def now_ms(self):
        t = self.libc("omp_get_wtime", ir.F64Type.get(), [])
        return arith.mulf(t, arith.constant(ir.F64Type.get(), 1000.0))

    def event_record(self, fg, call, args):
        target = strip_implicit(args[0])
        if target.kind != K.DECL_REF_EXPR:
            raise error_at(call, "unsupported construct: cudaEventRecord of an expression that is not a variable")
        fg.store(fg.lvalue(target), self.now_ms())
        return self.ret_int(fg, call)

    def event_elapsed(self, fg, call, args):
        decl = out_param_var(args[0])
        start, stop = fg.rvalue(args[1]), fg.rvalue(args[2])
        ms = arith.truncf(ir.F32Type.get(), arith.subf(stop, start))
        if decl is not None:
            fg.store(fg.lvalue_of_decl(decl, args[0]), ms)
        else:
            llvm.StoreOp(ms, self.ptr_arg(fg, args[0]))
        return self.ret_int(fg, call)

    # Legacy texture references: `texture<T, 1, cudaReadModeElementType> tex;` is a global holding the pointer
    # cudaBindTexture stored in it; tex1Dfetch(tex, i) loads element i of that memory.
    def texture_global(self, d, key, name):
        """The LLVM global (a raw pointer, null until bound) standing for texture reference `d`.

        Raises:
            CompileError: a texture that is not 1-D, reads normalized floats, or has a non-scalar element type.
        """
        from .codegen import MemVar

        elem, dim, normalized = texture_params(canonical(d.type))
        if dim != 1:
            raise error_at(d, f"unsupported construct: {dim}-D texture reference '{d.type.spelling}'; only 1-D "
                              "textures bound to linear memory (cudaBindTexture, tex1Dfetch) are supported")
        if normalized:
            raise error_at(d, f"unsupported construct: texture '{d.type.spelling}' with cudaReadModeNormalizedFloat")
        if elem is None or not CT.is_arith(elem):
            raise error_at(d, f"unsupported construct: texture of '{elem.spelling if elem else '?'}' (only "
                              "scalar element types)")
        if name not in self.mg.llvm_decls:
            loc = ir.Location.file(self.mg.filename, d.location.line, d.location.column)
            with loc, ir.InsertionPoint.at_block_begin(self.mg.module.body):
                static = d.storage_class == d.storage_class.STATIC
                g = llvm.GlobalOp(CT.llvm_ptr(), name,
                                  ir.Attribute.parse(f"#llvm.linkage<{'internal' if static else 'external'}>"))
                if d.storage_class != d.storage_class.EXTERN:
                    with ir.InsertionPoint(g.initializer.blocks.append()):
                        llvm.ReturnOp(arg=llvm.ZeroOp(CT.llvm_ptr()).result)
            self.mg.llvm_decls.add(name)
        mv = MemVar(None, canonical(d.type), global_name=name)
        self.mg.globals[key] = mv
        return mv

    def texture_slot(self, fg, e, call):
        """!llvm.ptr to the pointer slot of the texture reference named by `e` (``tex`` or ``&tex``)."""
        t = strip_implicit(e)
        if t.kind == K.UNARY_OPERATOR and children(t) and unary_op(t) == "&":
            t = strip_implicit(children(t)[0])
        decl = t.referenced if t.kind == K.DECL_REF_EXPR else None
        if decl is None or decl.kind != K.VAR_DECL or not is_texture(canonical(decl.type)):
            raise error_at(call, f"unsupported construct: {call.spelling} on something that is not a global "
                                 "texture<> variable")
        return self.mg.get_global(fg, self.mg.global_var(decl))

    def is_texture_setting(self, e) -> bool:
        """True for an assignment target inside a texture reference: ``tex.filterMode``, ``tex.addressMode[0]``,
        ``tex.channelDesc`` (filtering, addressing and normalization have no effect on tex1Dfetch)."""
        t, member = strip_implicit(e), False
        while t.kind in (K.MEMBER_REF_EXPR, K.ARRAY_SUBSCRIPT_EXPR) and children(t):
            member = True
            t = strip_implicit(children(t)[0])
        decl = t.referenced if t.kind == K.DECL_REF_EXPR else None
        return member and decl is not None and decl.kind == K.VAR_DECL and is_texture(canonical(decl.type))

    def texture_setting(self, fg, target, value):
        """Assignment to a texture setting: the value is evaluated when it is a scalar (for its side effects)
        and dropped; a struct value (``tex.channelDesc = desc``) is a variable or a descriptor, not evaluated."""
        if CT.is_arith(canonical(value.type)):
            fg.rvalue(value, discard=True)
        return None

    def is_channel_desc(self, init) -> bool:
        """True for ``cudaCreateChannelDesc<T>()`` (or ``cudaCreateChannelDesc(x, y, z, w, kind)``) as the
        initializer of a cudaChannelFormatDesc variable: the descriptor only describes the element type, which
        pgcc takes from the texture, so the variable stays uninitialized bytes."""
        c = strip_implicit(init)
        while c.kind in (K.UNEXPOSED_EXPR, K.CALL_EXPR) and c.spelling != "cudaCreateChannelDesc" and children(c):
            c = strip_implicit(children(c)[0])
        return c.kind == K.CALL_EXPR and c.spelling == "cudaCreateChannelDesc"

    def tex_fetch(self, fg, call, args):
        """tex1Dfetch(tex, i): element i of the memory bound to `tex` (a plain load)."""
        base = llvm.LoadOp(CT.llvm_ptr(), self.texture_slot(fg, args[0], call)).result
        i64 = ir.IntegerType.get_signless(64)
        ty = canonical(call.type)
        i = fg.rvalue(args[1])
        i = arith.extsi(i64, i) if i.type != i64 else i
        at = fg.byte_offset(base, arith.muli(i, arith.constant(i64, CT.size_of(ty))))
        return llvm.LoadOp(CT.scalar_type(ty), at).result

    def bind_texture(self, fg, call, args):
        """cudaBindTexture(offset, tex, ptr, [desc,] size) stores ptr in the texture (offset 0);
        cudaUnbindTexture(tex) clears it."""
        if call.spelling == "cudaUnbindTexture":
            llvm.StoreOp(llvm.ZeroOp(CT.llvm_ptr()).result, self.texture_slot(fg, args[0], call))
            return self.ret_int(fg, call)
        slot = self.texture_slot(fg, args[1], call)
        llvm.StoreOp(self.ptr_arg(fg, args[2]), slot)
        off = strip_implicit(args[0])
        if off.kind not in (K.INTEGER_LITERAL, K.GNU_NULL_EXPR, K.CXX_NULL_PTR_LITERAL_EXPR):
            p = self.ptr_arg(fg, args[0])  # if (offset) *offset = 0: the memory is used from its first byte
            i64 = ir.IntegerType.get_signless(64)
            nonnull = arith.cmpi(arith.CmpIPredicate.ne, llvm.PtrToIntOp(i64, p).result, arith.constant(i64, 0))
            guard = scf.IfOp(nonnull)
            with ir.InsertionPoint(guard.then_block):
                llvm.StoreOp(arith.constant(i64, 0), p)
                scf.YieldOp([])
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


class Calls:
    """Emits CALL_EXPR nodes: kernel launches, builtins, then ordinary C-ABI calls."""

    def __init__(self, mg):
        self.mg = mg
        self.builtins = Builtins(mg)

    def emit(self, fg, call):
        ch = children(call)
        if len(ch) >= 2 and ch[1].kind == K.CALL_EXPR and ch[1].spelling in ("cudaConfigureCall", "__cudaPushCallConfiguration"):
            return self.launch(fg, call, ch[1])
        callee = call.referenced
        if callee is None or callee.kind in (K.VAR_DECL, K.PARM_DECL, K.FIELD_DECL):
            return fg.indirect_call(call, ch[0], list(call.get_arguments()))
        if (callee.kind == K.CXX_METHOD and callee.spelling == "operator="
                and any(self.builtins.is_texture_setting(c) for c in children(call))):
            return None  # tex.channelDesc = desc: a struct copy into a texture setting (no effect on a CPU)
        if callee.kind in (K.CONSTRUCTOR,):
            args = list(call.get_arguments()) or [c for c in children(call) if c.kind.is_expression()]
            if len(args) == 1 and canonical(args[0].type).kind == T.RECORD and is_trivial_record(call.type) and \
                    canonical(args[0].type).get_declaration() == canonical(call.type).get_declaration():
                return fg.record_value(args[0])  # a C struct's implicit copy/move constructor: the bytes
            return fg.constructed_temporary(call)  # a C++ object (cxx_classes)
        if callee.kind == K.CXX_METHOD:  # obj.f(), p->f(), C::g(), member operators (cxx_classes)
            return fg.method_call(call)
        if callee.kind not in (K.FUNCTION_DECL,):
            raise error_at(call, f"unsupported construct: call of {callee.kind.name.lower()}")
        args = list(call.get_arguments())
        if enzyme.mode_of(callee.spelling):  # __enzyme_autodiff* / __enzyme_fwddiff*, any prototype
            return enzyme.emit(fg, call, args)
        missing = enzyme.unsupported_function(callee.spelling)
        if missing:
            raise error_at(call, f"unsupported construct: {missing}")
        handler = self.builtins.lookup(callee.spelling)
        if handler is not None:
            return handler(fg, call, args)
        if callee.get_num_template_arguments() > 0 or "operator" in callee.spelling:  # C++ (cxx_classes)
            from .cxx_classes import check_callee
            check_callee(callee, call)
        return self.user_call(fg, call, callee, args)

    def user_call(self, fg, call, callee, args):
        """A call of a C function by name under the C ABI (records.signature); a variadic one (a libc function
        like fprintf or open) is an llvm.call with its fixed part typed by the prototype."""
        sig = self.mg.signature(callee)
        if sig.variadic:
            return self.variadic_call(fg, call, callee, args, sig)
        name = self.mg.declare(callee)

        def emit(vals, results):
            op = func.CallOp(results, ir.FlatSymbolRefAttr.get(name), vals)
            return op.results[0] if results else None

        return fg.call_lowered(sig, args, call, emit)

    def variadic_call(self, fg, call, callee, args, sig):
        if sig.has_records:
            raise error_at(call, f"unsupported construct: struct arguments to the variadic function '{callee.spelling}'")
        name = callee.spelling

        def emit(vals, results):
            ret = results[0] if results else ir.Type.parse("!llvm.void")
            fixed = list(sig.ftype.inputs)
            ftype = self.mg.declare_llvm_vararg(name, ret, fixed)
            op = llvm.CallOp(results[0] if results else None, vals, [], [], var_callee_type=ir.TypeAttr.get(ftype),
                             callee=ir.FlatSymbolRefAttr.get(name))
            return op.result if results else None

        return fg.call_lowered(sig, args, call, emit)

    def launch(self, fg, call, config):
        """kernel<<<grid, block, shmem, stream>>>(args) -> gpu.launch { func.call @kernel(args) }."""
        callee = call.referenced
        if callee is None:
            raise error_at(call, "unsupported construct: launch through a function pointer")
        cfg = list(config.get_arguments())
        grid, block = fg.dim3_value(cfg[0]), fg.dim3_value(cfg[1])
        shared_bytes = None
        if len(cfg) > 2 and not (cfg[2].kind == K.UNEXPOSED_EXPR and not children(cfg[2])):  # not the default 0
            from .codegen import ci_uint  # gpu.launch takes the byte count as i32
            shared_bytes = fg.convert(fg.rvalue(cfg[2]), cfg[2].type, ci_uint(), cfg[2])
        args = list(call.get_arguments())
        name = self.mg.declare(callee)
        sig = self.mg.signature(callee)
        vals = fg.pack_args(sig, args, call)  # struct arguments by value: their register pieces or byval copy
        idx = ir.IndexType.get()
        g = [arith.index_castui(idx, v) for v in grid]
        b = [arith.index_castui(idx, v) for v in block]
        op = gpu.LaunchOp(tuple(g), tuple(b), dynamic_shared_memory_size=shared_bytes)
        with ir.InsertionPoint(op.body.blocks[0]):
            func.CallOp([], ir.FlatSymbolRefAttr.get(name), vals)
            gpu.TerminatorOp()
        return None
