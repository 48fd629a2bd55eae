"""CUDA device code in the walker: thread and block ids, ``dim3`` values, ``__shared__`` memory, launches.

``threadIdx.x`` and the other ids are ``gpu.thread_id``/``gpu.block_id``/``gpu.block_dim``/``gpu.grid_dim`` (as
unsigned 32-bit values); a ``dim3`` variable is three i32 SSA values (keys ``(var, "x")``...); ``__shared__``
variables are allocas marked ``pgcc.shared`` that --cpuify allocates once per block; a launch
``k<<<grid, block, shmem>>>(args)`` is a ``gpu.launch`` around the call of the kernel. CUDA runtime functions
and device intrinsics (atomics, warp shuffles and votes, textures) are handlers of the builtins table
(cuda_builtins.py).
"""

from __future__ import annotations

from mlir import ir
from mlir.dialects import arith, func, gpu

from ..clang_ast import K, T, canonical, children, evaluate, has_attr, strip_implicit, var_decl_initializer
from ..constant_bounds import constant_int
from ..errors import error_at
from . import c_types as CT
from .records import is_default_construction
from .scan import decl_key
from .values import GPU_IDS, RET, ci_uint


def is_block_barrier(s) -> bool:
    """Whether statement `s` is a bare `__syncthreads();`."""
    e = strip_implicit(s) if s.kind == K.UNEXPOSED_EXPR else s
    return e.kind == K.CALL_EXPR and e.spelling == "__syncthreads" and not list(e.get_arguments())


class CudaDeviceGen:
    """Mixin for FunctionGen: CUDA ids, dim3 values, shared memory, kernel launches."""

    def in_device_function(self) -> bool:
        """Whether the function being emitted is CUDA device code (`__global__` or `__device__`, host-device
        included)."""
        c = self.cursor
        return c is not None and (has_attr(c, K.CUDAGLOBAL_ATTR) or has_attr(c, K.CUDADEVICE_ATTR))

    def ptx_shift(self, op: str, va, vb, unsigned: bool):
        """`va << vb` or `va >> vb` (op "Shl" or "Shr"; both integers of one type) as a GPU computes it: PTX's
        shl/shr clamp the amount, read as unsigned, to the width, so shifting by the width or more gives 0 (a
        logical shift) or the sign (an arithmetic one). C leaves such shifts undefined and x86 masks the amount
        (`dw << 32` is `dw`), but GPU programs rely on the clamp: Rodinia's huffman packs codewords with
        `dw << 32 - bit` at bit 0 and masks with `(1 << 32) - 1`. A constant amount below the width needs no
        clamp. Source: PTX ISA, "Logic and Shift Instructions: shl, shr"."""
        width = va.type.width
        amount = constant_int(vb)
        if amount is not None:
            if amount % (1 << width) < width:
                return (arith.shli if op == "Shl" else arith.shrui if unsigned else arith.shrsi)(va, vb)
        w = arith.constant(va.type, width)
        fits = arith.cmpi(arith.CmpIPredicate.ult, vb, w)
        if op == "Shr" and not unsigned:
            return arith.shrsi(va, arith.select(fits, vb, arith.constant(va.type, width - 1)))
        shifted = (arith.shli if op == "Shl" else arith.shrui)(va, vb)
        return arith.select(fits, shifted, arith.constant(va.type, 0))

    def emit_rest_past_barriers(self, rest) -> bool:
        """The statements `rest` of a kernel's body after one that may `return`, when some of them are bare
        `__syncthreads();` (`if (i >= n) return;` before a barrier: HeCBench matern). On a GPU a thread that
        has returned no longer holds the block's barriers back; here it goes on reaching them doing nothing:
        the statements between barriers run under the not-returned guard, each barrier unguarded, so that it
        stays where every thread of the block meets it. False (nothing emitted) elsewhere: outside a kernel,
        in a loop, or with break/continue/goto flags pending."""
        if not has_attr(self.cursor, K.CUDAGLOBAL_ATTR) or self.loops or self.flags_active() != [RET]:
            return False
        cuts = [i for i, r in enumerate(rest) if is_block_barrier(r)]
        if not cuts:
            return False
        start = 0
        for i in cuts + [len(rest)]:
            if rest[start:i]:
                self.emit_guarded(rest[start:i])
            if i < len(rest):
                self.visit(rest[i])
            start = i + 1
        return True

    def gpu_id(self, var, comp):
        op = GPU_IDS[var](getattr(gpu.Dimension, comp)).result
        return arith.index_castui(ir.IntegerType.get_signless(32), op)

    def dim3_value(self, e):
        """A dim3 expression as three i32 values."""
        e = strip_implicit(e)
        i32 = ir.IntegerType.get_signless(32)
        if e.kind in (K.CXX_FUNCTIONAL_CAST_EXPR, K.UNEXPOSED_EXPR, K.CSTYLE_CAST_EXPR) and children(e):
            return self.dim3_value(children(e)[-1])
        if e.kind == K.CALL_EXPR and e.spelling in ("dim3", "uint3"):
            args = list(e.get_arguments())
            if len(args) == 1 and CT.is_dim3(args[0].type):
                return self.dim3_value(args[0])
            vals = []
            for a in args[:3]:
                if a.kind == K.UNEXPOSED_EXPR and not children(a):
                    vals.append(self.const_int(i32, evaluate(a) or 1))
                else:
                    vals.append(self.convert(self.rvalue(a), a.type, canonical(a.type) if CT.is_int(a.type) and CT.size_of(a.type) == 4 else ci_uint(), a))
            while len(vals) < 3:
                vals.append(self.const_int(i32, 1))
            return vals
        if e.kind == K.DECL_REF_EXPR:
            r = e.referenced
            if r.spelling in GPU_IDS:
                return [self.gpu_id(r.spelling, c) for c in "xyz"]
            key = decl_key(r)
            if (key, "x") in self.env:
                return [self.env[(key, c)].value for c in "xyz"]
        if CT.is_int(e.type):
            return [self.convert(self.rvalue(e), e.type, ci_uint(), e), self.const_int(i32, 1), self.const_int(i32, 1)]
        raise self.unsupported(e, "dim3 expression")

    def shared_memory(self, d, ty):
        """A `__shared__` variable: a memref marked `pgcc.shared`, which --cpuify allocates once per block.
        ``extern __shared__ T s[]`` (sized by the launch) is a call to @__pgcc_dynamic_shared_<T>."""
        if CT.is_array(ty):
            shape = CT.array_shape(ty)
            if not CT.is_arith(shape.elem):
                raise self.unsupported(d, f"__shared__ array of '{shape.elem.spelling}'")
            if ty.kind == T.INCOMPLETEARRAY and len(shape.dims) == 1:
                elem = CT.memory_type(shape.elem)
                mtype = ir.MemRefType.get([ir.ShapedType.get_dynamic_size()], elem)
                name = self.mg.declare_dynamic_shared(elem, mtype)
                return func.CallOp([mtype], ir.FlatSymbolRefAttr.get(name), []).result
            if None in shape.dims:
                raise self.unsupported(d, "__shared__ array of variable size")
            m = self.alloca_entry(CT.array_memref_type(ty))
        elif CT.is_arith(ty):
            m = self.alloca_entry(ir.MemRefType.get([], CT.memory_type(ty)))
        else:
            raise self.unsupported(d, f"__shared__ variable of type '{d.type.spelling}'")
        m.owner.attributes["pgcc.shared"] = ir.UnitAttr.get()
        if var_decl_initializer(d) is not None:
            raise self.error(d, "initializer on a __shared__ variable (CUDA does not allow one)")
        return m

    def shared_bytes(self, d, ty):
        """A `__shared__` struct, union or array of them (`__shared__ float4 tile[64]`): raw bytes with the
        C layout, like a local struct (docs/memory_model.md), in an i8 memref marked `pgcc.shared` so that
        --cpuify allocates it once per block; returns the !llvm.ptr to its first byte.

        Raises:
            CompileError: a variable-size or initialized __shared__ object.
        """
        if ty.kind in (T.INCOMPLETEARRAY, T.VARIABLEARRAY):
            raise self.unsupported(d, f"__shared__ array of '{CT.array_shape(ty).elem.spelling}' of variable size")
        init = var_decl_initializer(d)
        if init is not None and not is_default_construction(init, ty):
            raise self.error(d, "initializer on a __shared__ variable (CUDA does not allow one)")
        i8 = ir.IntegerType.get_signless(8)
        m = self.alloca_entry(ir.MemRefType.get([CT.size_of(ty)], i8))
        m.owner.attributes["pgcc.shared"] = ir.UnitAttr.get()
        m.owner.attributes["alignment"] = ir.IntegerAttr.get(ir.IntegerType.get_signless(64), max(ty.get_align(), 16))
        return self.to_ptr(m)

    def launch(self, call, config):
        """kernel<<<grid, block, shmem, stream>>>(args) -> gpu.launch { func.call @kernel(args) }.

        Raises:
            CompileError: a launch through a function pointer."""
        callee = call.referenced
        if callee is None:
            raise error_at(call, "unsupported construct: launch through a function pointer")
        cfg = list(config.get_arguments())
        grid, block = self.dim3_value(cfg[0]), self.dim3_value(cfg[1])
        shared_bytes = None
        if len(cfg) > 2 and not (cfg[2].kind == K.UNEXPOSED_EXPR and not children(cfg[2])):  # not the default 0
            # gpu.launch takes the byte count as i32
            shared_bytes = self.convert(self.rvalue(cfg[2]), cfg[2].type, ci_uint(), cfg[2])
        args = list(call.get_arguments())
        name = self.mg.declare(callee)
        sig = self.mg.signature(callee)
        vals = self.pack_args(sig, args, call)  # struct arguments by value: their register pieces or byval copy
        idx = ir.IndexType.get()
        g = [arith.index_castui(idx, v) for v in grid]
        b = [arith.index_castui(idx, v) for v in block]
        op = gpu.LaunchOp(tuple(g), tuple(b), dynamic_shared_memory_size=shared_bytes)
        with ir.InsertionPoint(op.body.blocks[0]):
            func.CallOp([], ir.FlatSymbolRefAttr.get(name), vals)
            gpu.TerminatorOp()
        return None
