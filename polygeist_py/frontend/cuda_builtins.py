"""The CUDA runtime API and CUDA device intrinsics as handlers of the builtins table (builtins.Builtins).

Runtime API on the CPU: cudaMalloc and friends are malloc/free, copies are memcpy (host and device memory are
one), events read the host clock, streams run everything synchronously in program order, legacy 1-D texture
references bound to linear memory are globals holding the pointer. Device intrinsics: atomics are CPU atomics
(memref.atomic_rmw / generic_atomic_rmw), ``__syncthreads`` a gpu.barrier (--cpuify splits the thread loop
there), warp shuffles and votes exchange values through a per-block buffer between two barriers, integer
intrinsics (``__popc``, ``__clz``, ``__ffs``, ``__mul24``) LLVM intrinsics or arith.
"""

from __future__ import annotations

from mlir import ir
from mlir.dialects import arith, gpu, llvm, memref, scf

from ..clang_ast import K, T, canonical, children, strip_implicit, unary_op
from ..errors import error_at
from . import affine_forms as AF
from . import c_types as CT
from .llvm_memory import emit_byte_global
from .scan import out_param_var
from .values import MemLV, MemVar

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


# A lane's contribution to a warp exchange is stored even where a per-thread condition around the exchange is
# false (barrier_elimination._predicate_guard leaves such stores unguarded): what an inactive lane publishes is
# never read as its value, and votes publish `p && active`, where the call @__pgcc_active_lane() is true in the
# lanes that reach the vote. Predication guards that call like any other, so inactive lanes see false there;
# after barrier elimination every call left is true (barrier_elimination.resolve_active_lanes).
WARP_PUBLISH = "pgcc.warp_publish"
# An op whose results are the same in every thread of a block by construction (the count of
# __syncthreads_count/_and/_or): barrier elimination's uniformity analysis takes them as uniform, so that
# `while (__syncthreads_or(found))` may hold barriers.
BLOCK_UNIFORM = "pgcc.block_uniform"
ACTIVE_LANE = "__pgcc_active_lane"
# on a global: a `__constant__` variable, which device code only reads (so loads from it are uniform in a launch)
CUDA_CONSTANT = "pgcc.cuda_constant"


SHUFFLES = ("__shfl_sync", "__shfl_up_sync", "__shfl_down_sync", "__shfl_xor_sync")


MAX_BLOCK = 1024  # CUDA's limit on threads per block: the size of a warp exchange buffer


# texture API forms pgcc does not translate. Texture references bound to CUDA arrays or pitched memory (tex1D,
# tex2D: templates of pgcc_cuda_texture.h) and texture objects work in host code the host compiler compiles
# (nvcc's model); in host code pgcc compiles only 1-D texture references on linear memory (tex1Dfetch) do
_OBJECTS = ("; texture objects (cudaTextureObject_t), CUDA arrays and 2-D texture references work when the host "
            "compiler compiles host code")
UNSUPPORTED_TEXTURE = {
    "tex1D": "tex1D() of a texture reference with cudaReadModeNormalizedFloat",
    "tex2D": "tex2D() of a texture reference with cudaReadModeNormalizedFloat",
    "tex3D": "3-D textures (tex3D)",
    "cudaBindTexture2D": "2-D texture references (cudaBindTexture2D) in host code that pgcc compiles" + _OBJECTS,
    "cudaBindTextureToArray": "texture references bound to CUDA arrays (cudaBindTextureToArray, cudaArray) in host "
                              "code that pgcc compiles" + _OBJECTS,
    **{name: f"CUDA arrays ({name}, cudaArray) in host code that pgcc compiles" + _OBJECTS
       for name in ("cudaMallocArray", "cudaFreeArray", "cudaMemcpy2DToArray", "cudaMemcpyToArray",
                    "cudaMemcpy2DFromArray")},
    **{name: f"texture objects ({name}) in host code that pgcc compiles (texture references, __enzyme_* calls "
             "or --cuda-host=pgcc)" for name in ("cudaCreateTextureObject", "cudaDestroyTextureObject")},
    "cudaCreateChannelDesc": "cudaCreateChannelDesc() other than as the initializer of a cudaChannelFormatDesc "
                             "variable",
}


def is_texture(ty) -> bool:
    """True for a legacy CUDA texture reference type ``texture<T, dim, mode>``."""
    return ty.kind == T.RECORD and ty.get_declaration().spelling == "texture"


def is_vector_texel(ty) -> bool:
    """True for a CUDA vector type (float4, int2, uchar4, ...) as a texture's element type: a struct of one to
    four fields of one arithmetic type."""
    if ty.kind != T.RECORD:
        return False
    fields = list(ty.get_fields())
    return 1 <= len(fields) <= 4 and all(CT.is_arith(f.type) for f in fields) and \
        len({canonical(f.type).spelling for f in fields}) == 1


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


class CudaBuiltins:
    """Mixin for builtins.Builtins: the handlers of CUDA runtime functions and device intrinsics (each takes the
    FunctionGen, the CALL_EXPR and its argument cursors, and returns the call's value or None)."""

    def cuda_table(self) -> dict:
        """The CUDA entries of the builtins table: name -> handler."""
        return {
            "cudaMalloc": self.cuda_malloc, "cudaMallocManaged": self.cuda_malloc, "cudaMallocHost": self.cuda_malloc,
            "cudaFree": self.free, "cudaFreeHost": self.free,
            "cudaMemcpy": self.memcpy, "cudaMemcpyAsync": self.memcpy,
            "cudaMemset": self.memset,
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
            "__syncthreads": self.barrier, "__ldg": self.read_only_load,
            "__syncthreads_count": self.barrier_count, "__syncthreads_and": self.barrier_count,
            "__syncthreads_or": self.barrier_count,
            **{name + scope: self.atomic for name in ATOMICS for scope in ("", "_block", "_system")},
            **{name: self.shuffle for name in SHUFFLES},
            "__popc": self.bit_count, "__popcll": self.bit_count, "__clz": self.bit_count, "__clzll": self.bit_count,
            "__ffs": self.bit_count, "__ffsll": self.bit_count, "__mul24": self.mul24, "__umul24": self.mul24,
            "__ballot_sync": self.vote, "__any_sync": self.vote, "__all_sync": self.vote, "__activemask": self.vote,
            "__syncwarp": self.barrier,
            **{name: self.bits_as for name in ("__int_as_float", "__float_as_int", "__uint_as_float",
                                               "__float_as_uint", "__longlong_as_double", "__double_as_longlong",
                                               "__hiloint2double", "__double2hiint", "__double2loint",
                                               "__pgcc_float_as_uint", "__pgcc_uint_as_float")},  # (cuda_fp16.h)
            "__threadfence": self.fence, "__threadfence_block": self.fence, "__threadfence_system": self.fence,
            "tex1Dfetch": self.tex_fetch, "cudaBindTexture": self.bind_texture, "cudaUnbindTexture": self.bind_texture,
            **{name: self.reject(what) for name, what in UNSUPPORTED_TEXTURE.items()},
            **{name: self.reject(f"{name} in host code that pgcc compiles (--cuda-host=pgcc, __enzyme_* calls, "
                                 "texture references)")
               for name in ("cudaLaunchKernel", "cudaLaunchCooperativeKernel", "cudaGetSymbolAddress",
                            "cudaGetSymbolSize", "cudaMemcpyFromSymbolAsync")},
        }

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
        name = call.spelling.removesuffix("_block").removesuffix("_system")  # scopes: all one CPU memory
        ty = canonical(call.type)
        target = strip_implicit(args[0])
        if target.kind == K.UNARY_OPERATOR and children(target) and unary_op(target) == "&":
            lv = fg.lvalue(children(target)[0])
        elif CT.pointee_is_memref(canonical(args[0].type)):
            lv = MemLV(fg.rvalue(args[0]), [AF.const(0)], ty)  # *p
        else:
            raise error_at(call, f"unsupported construct: {name} through '{args[0].type.spelling}'")
        vals = [fg.convert(fg.rvalue(a), a.type, ty, a) for a in args[1:]]
        if isinstance(lv, tuple) and lv[0] == "llvm" and lv[3] is None:  # a struct field: `&st->sum`
            return self.llvm_atomic(call, name, ty, lv[1], vals)
        if not isinstance(lv, MemLV):
            raise error_at(call, f"unsupported construct: {name} on a scalar variable")
        idx = fg.index_values(lv.indices)
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

    @staticmethod
    def llvm_atomic(call, name, ty, ptr, vals):
        """A CUDA atomic on an object in raw memory (a struct field, `&st->sum`): llvm.atomicrmw, or
        llvm.cmpxchg for atomicCAS (sequentially consistent, as every pgcc atomic). Returns the old value."""
        seq = llvm.AtomicOrdering.seq_cst
        if name == "atomicCAS":
            pair = llvm.cmpxchg(ptr, vals[0], vals[1], seq, seq)
            return llvm.extractvalue(CT.scalar_type(ty), pair, [0])
        ops = {"atomicAdd": ("fadd", "add", "add"), "atomicSub": (None, "sub", "sub"),
               "atomicExch": ("xchg",) * 3, "atomicMax": (None, "max", "umax"), "atomicMin": (None, "min", "umin"),
               "atomicAnd": (None, "_and", "_and"), "atomicOr": (None, "_or", "_or"),
               "atomicXor": (None, "_xor", "_xor"), "atomicInc": (None, "uinc_wrap", "uinc_wrap"),
               "atomicDec": (None, "udec_wrap", "udec_wrap")}[name]
        kind = ops[0] if CT.is_float(ty) else ops[2] if CT.is_unsigned(ty) else ops[1]
        if kind is None:
            raise error_at(call, f"unsupported construct: {name} on '{ty.spelling}'")
        return llvm.atomicrmw(getattr(llvm.AtomicBinOp, kind), ptr, vals[0], seq)

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
        buf, tid, nthreads = self.publish(fg, v)
        idx = ir.IndexType.get()
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

    @staticmethod
    def publish(fg, v):
        """Store `v` in a per-block buffer (`pgcc.shared`) at the caller's linear thread index. Returns (buffer,
        the linear thread index, the number of threads of the block), both i32."""
        buf = fg.alloca_entry(ir.MemRefType.get([MAX_BLOCK], v.type))
        buf.owner.attributes["pgcc.shared"] = ir.UnitAttr.get()
        ids = {(n, c): fg.gpu_id(n, c) for n in ("threadIdx", "blockDim") for c in "xyz"}
        tid = arith.addi(ids["threadIdx", "x"], arith.muli(ids["blockDim", "x"], arith.addi(
            ids["threadIdx", "y"], arith.muli(ids["blockDim", "y"], ids["threadIdx", "z"]))))
        nthreads = arith.muli(ids["blockDim", "x"], arith.muli(ids["blockDim", "y"], ids["blockDim", "z"]))
        store = memref.StoreOp(v, buf, [arith.index_castui(ir.IndexType.get(), tid)])
        store.attributes[WARP_PUBLISH] = ir.UnitAttr.get()
        return buf, tid, nthreads

    def read_only_load(self, fg, call, args):
        """__ldg(p): *p (a load through the read-only data cache is a plain load on the CPU)."""
        ty = canonical(call.type)
        if ty.kind == T.RECORD:  # float4, int2, ...: a struct value is the address of its bytes
            return fg.raw_pointer(args[0])
        if not CT.pointee_is_memref(canonical(args[0].type)):
            raise error_at(call, f"unsupported construct: __ldg through '{args[0].type.spelling}'")
        return fg.load(MemLV(fg.rvalue(args[0]), [AF.const(0)], ty))

    def barrier_count(self, fg, call, args):
        """__syncthreads_count(p) / __syncthreads_and(p) / __syncthreads_or(p): a barrier that also counts the
        threads of the block whose p is non-zero. Each thread publishes p, a barrier, each thread sums what the
        block published, a barrier (so that the buffer may be reused). Under a condition that differs between
        threads it is rejected like __syncthreads()."""
        i32, idx = ir.IntegerType.get_signless(32), ir.IndexType.get()
        p = fg.to_bool(fg.rvalue(args[0]), canonical(args[0].type))
        buf, _, nthreads = self.publish(fg, arith.extui(i32, p))
        gpu.BarrierOp()
        loop = scf.ForOp(arith.constant(idx, 0), arith.index_castui(idx, nthreads), arith.constant(idx, 1),
                         [arith.constant(i32, 0)])
        with ir.InsertionPoint(loop.body):
            acc = arith.addi(loop.inner_iter_args[0], memref.LoadOp(buf, [loop.induction_variable]).result)
            scf.YieldOp([acc])
        loop.attributes[BLOCK_UNIFORM] = ir.UnitAttr.get()  # every thread sums the same buffer between barriers
        gpu.BarrierOp()
        count = loop.results[0]
        if call.spelling == "__syncthreads_count":
            res = count
        elif call.spelling == "__syncthreads_and":
            res = arith.extui(i32, arith.cmpi(arith.CmpIPredicate.eq, count, nthreads))
        else:
            res = arith.extui(i32, arith.cmpi(arith.CmpIPredicate.ne, count, arith.constant(i32, 0)))
        return res  # int, as CUDA declares all three

    def vote(self, fg, call, args):
        """__ballot_sync(mask, p): bit i set when lane i's p is non-zero and lane i takes part (reaches the vote);
        __any_sync/__all_sync from it; __activemask() is the ballot of the lanes taking part."""
        i32 = ir.IntegerType.get_signless(32)
        p = fg.to_bool(fg.rvalue(args[1]), canonical(args[1].type)) if args else None
        active = self.libc(ACTIVE_LANE, ir.IntegerType.get_signless(1), [])
        p = active if p is None else arith.andi(p, active)
        tid, read = self.warp_exchange(fg, arith.extui(i32, p))
        base = arith.subi(tid, arith.remui(tid, fg.const_int(i32, 32)))
        bits, lanes = fg.const_int(i32, 0), fg.const_int(i32, 0)
        for lane in range(32):  # unrolled: 32 loads of the buffer
            value, inside = read(arith.addi(base, fg.const_int(i32, lane)))
            present = arith.extui(i32, inside)
            bits = arith.ori(bits, arith.shli(arith.andi(value, present), fg.const_int(i32, lane)))
            lanes = arith.ori(lanes, arith.shli(present, fg.const_int(i32, lane)))
        warp_barrier()
        mask = arith.andi(fg.rvalue(args[0]), lanes) if args else lanes
        bits = arith.andi(bits, mask)
        if call.spelling in ("__ballot_sync", "__activemask"):
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

    def bits_as(self, fg, call, args):
        """__int_as_float and its kin: the operand's bits reinterpreted (arith.bitcast); __hiloint2double joins
        two 32-bit halves into a double, __double2hiint/__double2loint take one half of one."""
        name = call.spelling
        i32, i64 = ir.IntegerType.get_signless(32), ir.IntegerType.get_signless(64)
        if name == "__hiloint2double":
            hi, lo = (arith.extui(i64, fg.convert(fg.rvalue(a), a.type, canonical(a.type), a)) for a in args[:2])
            return arith.bitcast(ir.F64Type.get(), arith.ori(arith.shli(hi, fg.const_int(i64, 32)), lo))
        x = fg.convert(fg.rvalue(args[0]), args[0].type, canonical(call.referenced.type.argument_types()[0]), args[0])
        if name in ("__double2hiint", "__double2loint"):
            bits = arith.bitcast(i64, x)
            if name == "__double2hiint":
                bits = arith.shrui(bits, fg.const_int(i64, 32))
            return arith.trunci(i32, bits)
        return arith.bitcast(CT.scalar_type(canonical(call.type)), x)

    def fence(self, fg, call, args):
        """__threadfence{,_block,_system}: a sequentially consistent fence (llvm.fence)."""
        llvm.FenceOp(llvm.AtomicOrdering.seq_cst)
        return None

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

    # ---------------------------------------------------------------- handlers
    def cuda_malloc(self, fg, call, args):
        p = self.libc("malloc", CT.llvm_ptr(), [self.size_arg(fg, args[1])])
        self.assign_out(fg, args[0], p, call)
        return self.ret_int(fg, call)

    def symbol_memcpy(self, fg, call, args):
        """cudaMemcpyToSymbol(sym, src, n, offset) / cudaMemcpyFromSymbol(dst, sym, n, offset): a memcpy to or
        from the bytes of a __constant__/__device__ global (ordinary host memory here)."""
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
        """The LLVM global standing for texture reference `d`: pgcc_cuda_texture.h's textureReference, whose
        first word is the bound memory (null until bound; tex1Dfetch loads it) and whose fields tex1D/tex2D read.

        Raises:
            CompileError: a texture that is 3-D, reads normalized floats, or has a non-scalar element type.
        """
        elem, dim, normalized = texture_params(canonical(d.type))
        if dim not in (1, 2):
            raise error_at(d, f"unsupported construct: {dim}-D texture reference '{d.type.spelling}'; 1-D and 2-D "
                              "texture references are supported")
        if normalized:
            raise error_at(d, f"unsupported construct: texture '{d.type.spelling}' with cudaReadModeNormalizedFloat")
        if elem is None or not (CT.is_arith(elem) or is_vector_texel(elem)):
            raise error_at(d, f"unsupported construct: texture of '{elem.spelling if elem else '?'}' (only "
                              "scalar and CUDA vector element types)")
        static = d.storage_class == d.storage_class.STATIC
        # nvcc's model (cuda_split.py): the host compiler defines the texture (pgcc_cuda_texture.h's
        # textureReference, whose first field is the bound pointer) and binds it; device code reads that object
        shared_with_host = self.mg.device_stubs is not None
        if shared_with_host and static:
            raise error_at(d, f"unsupported construct: static texture reference '{d.spelling}' (host and device "
                              "code share a texture reference through its external symbol; drop `static`)")
        if name not in self.mg.llvm_decls:
            # the whole object (tex1D/tex2D read its shape and settings), zero (unbound) where pgcc defines it
            ty = canonical(d.type)
            external = d.storage_class == d.storage_class.EXTERN or shared_with_host
            emit_byte_global(self.mg, name, ty, bytearray(max(CT.size_of(ty), 1)), [], static, external, d)
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
        if not CT.is_arith(ty):  # a float4/int2... texel: a record's value is its address (bound memory is
            return at            # read-only while kernels read it through the texture)
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
