"""The --cpuify optimizations keep CUDA semantics: thread-strided loops interchanged with the thread loop
(gpu_to_cpu/thread_loop_interchange.py) and atomics on shared memory turned into plain read-modify-writes
(gpu_to_cpu/shared_atomics.py). Results are recomputed here in Python."""

from conftest import PROGRAMS, ROOT, cpuify_outputs, run_pgcc

N, T, B = 1000, 64, 5
X = [(i * 37 + 11) % 101 for i in range(N)]


def expected() -> str:
    lines = []
    for b in range(B):
        sums, maxes = [0] * T, [-1] * T
        for t in range(T):
            for i in range(b * T + t, N, B * T):
                sums[t] += X[i] * (t % 3 + 1)
                maxes[t] = max(maxes[t], X[i])
        lines.append(f"{sum(sums)} {max(maxes)}")
    out = []
    for t in range(T):
        a = t + sum(X[i] for i in range(2 * t, N, 2 * T))
        bb = 0
        for i in range(t + 1, N, T):
            bb = (bb * 3 + X[i] % 5) & 0xFFFFFFFF
        bb = bb - (1 << 32) if bb >> 31 else bb
        c = sum(X[i] * (i % 7) for i in range(T - 1 - t, N, T))
        out += [a, bb, c]
    lines.append(" ".join(map(str, out)) + " ")
    hist = [sum(1 for v in X if v % 8 == k) for k in range(8)]
    lines.append(" ".join(map(str, hist)) + " ")
    wraps = []
    for b in range(B):
        count = sum(1 for t in range(T) for _ in range(b * T + t, N, B * T))
        wraps.append(count % 11)  # atomicInc(&w, 10) counts 0..10 and wraps
    lines.append(" ".join(map(str, wraps)) + " ")
    lines.append(str(max(X)))
    return "\n".join(lines) + "\n"


def test_strided_loops_and_shared_atomics(tmp):
    for out in cpuify_outputs(PROGRAMS / "cuda_unit" / "strided_loops.cu", tmp, threads=(1, 2, 4)):
        assert out == expected()


def test_shared_atomics_are_plain_and_global_ones_stay_atomic():
    r = run_pgcc([PROGRAMS / "cuda_unit" / "strided_loops.cu", "--cpuify", "--cuda-host=pgcc", "-O2", "--emit=cpuify", "-o", "-"])
    assert r.returncode == 0, r.stderr
    # left atomic: atomicAdd(&hist[..]) and atomicMax(best, ..) on global memory; the three on shared are gone
    assert r.stdout.count("memref.atomic_rmw") == 2
    assert "memref.generic_atomic_rmw" not in r.stdout  # atomicInc on shared memory


def test_grid_stride_loop_runs_inside_a_uniform_loop():
    """After the interchange the grid-stride loop of grid_sum is an scf.while around the thread loop (whose
    innermost loop runs over threadIdx.x), not a while loop per thread."""
    r = run_pgcc([PROGRAMS / "cuda_unit" / "strided_loops.cu", "--cpuify", "--cuda-host=pgcc", "-O2", "--emit=cpuify", "-o", "-"])
    assert r.returncode == 0, r.stderr
    from mlir import ir

    with ir.Context() as ctx:
        ctx.allow_unregistered_dialects = True
        module = ir.Module.parse(r.stdout)
        main = next(f for f in module.body.operations if f.attributes["sym_name"].value == "main")
        blocks = []

        def find(op):
            if op.name == "scf.parallel":
                blocks.append(op)
                return ir.WalkResult.SKIP
            return ir.WalkResult.ADVANCE

        main.operation.walk(find, ir.WalkOrder.PRE_ORDER)
        top = list(blocks[0].regions[0].blocks[0].operations)
        whiles = [op for op in top if op.name == "scf.while"]
        assert whiles, "the grid-stride loop is still inside the thread loop"
        inner = [op.name for op in whiles[0].regions[1].blocks[0].operations]
        assert "scf.for" in inner  # the thread loop, now inside the uniform loop


def guarded_expected() -> str:
    m, k, n = 37, 101, 45
    A = [(i * 7 + 3) % 11 - 5 for i in range(m * k)]
    B = [(i * 5 + 1) % 13 - 6 for i in range(k * n)]
    C = [sum(A[r * k + j] * B[j * n + c] for j in range(k)) for r in range(m) for c in range(n)]
    s = sum(v * (i % 17 + 1) for i, v in enumerate(C))
    data = [i * i + 1 for i in range(64)]
    d = [0 if i % 4 == 0 else i % 9 + 1 for i in range(64)]
    out = [0] * 128
    for t in range(64):
        out[t] += (1 if -3 + t < 5 else 0) + (10 if 57 <= t <= 61 else 0) + (100 if t < 9 else 0)
        out[t] += (1000 if t == 7 else 0) + (10000 if t > 3 and data[t] % 3 == 0 else 0)
    for t in range(64):
        if d[t]:
            q = 1000 // d[t]
            out[64 + t] = sum(q * j + out[j % 64] for j in range(77))
    out2 = [sum(data[k % 64] * (k + 1) for k in range(t, 100, 16)) for t in range(16)]
    out2 += [sum((d - t) * (d + 1) for d in range(40) if t <= d and d - t < 16) for t in range(16)]
    return (" ".join(map(str, out2)) + " \n" + f"{C[0]} {C[m * n // 2]} {C[-1]} {s}\n"
            + " ".join(map(str, out)) + " \n")


def test_guards_become_bounds_and_uniform_loops_move_out(tmp):
    for out in cpuify_outputs(PROGRAMS / "cuda_unit" / "guarded_loops.cu", tmp, threads=(1, 2)):
        assert out == guarded_expected()


def exact_strided_expected() -> str:
    table, blocks = 400, 3
    src = [(i * 13 + 5) % 97 for i in range(table)]
    dst = [-1] * (blocks * table)
    for b in range(blocks):
        buf = [src[k] * 3 + b for k in range(table)]
        for k in range(2, table):
            buf[k] += 1
        for k in range(table - 3):
            dst[b * table + k] = buf[(k * 7) % table]
    s = sum(v * (i % 11 + 1) for i, v in enumerate(dst))
    return f"{dst[0]} {dst[table - 4]} {dst[table - 3]} {dst[2 * table + 5]} {s}\n"


def test_block_stride_loops_with_constant_bounds(tmp):
    """All three loops are interchanged; only the two whose last round of threads overruns the bound keep a
    bounds test in the body (a test the exact loop does not need, and that LLVM would vectorize with
    gathers and scatters)."""
    src = PROGRAMS / "cuda_unit" / "exact_strided.cu"
    for out in cpuify_outputs(src, tmp, threads=(1, 2, 4)):
        assert out == exact_strided_expected()
    r = run_pgcc([src, "--cpuify", "--cuda-host=pgcc", "-O2", "--emit=cpuify", "-o", "-"])
    assert r.returncode == 0, r.stderr
    tests = [line for line in r.stdout.splitlines() if "arith.cmpi slt" in line]
    assert sum("%c400" in line for line in tests) == 1, tests   # the loop starting at t + 2
    assert sum("%c397" in line for line in tests) == 1, tests   # the loop bounded by TABLE - 3


def test_grid_stride_loops_prefetch_their_next_chunk():
    """The histogram's grid-stride loop over the input words prefetches the next chunk (one stream, on the
    global array); the block-stride loops over the __shared__ sub-histogram prefetch nothing."""
    r = run_pgcc([ROOT / "examples" / "cuda" / "histogram_atomic.cu", "--cpuify", "--cuda-host=pgcc", "-O2", "--emit=cpuify", "-o", "-"])
    assert r.returncode == 0, r.stderr
    prefetches = [line for line in r.stdout.splitlines() if "memref.prefetch" in line]
    assert len(prefetches) == 1 and "memref<256x" not in prefetches[0], prefetches


def test_guarded_copies_are_narrowed_to_loop_bounds():
    """hotspot's ``if (update) t_cur[ty][tx] = t_new[ty][tx]`` and its guarded write-back are plain copies:
    their threadIdx.x tests become bounds of the thread loop (no ``if`` around a load-then-store is left),
    while the stencil update itself keeps its x tests (masked vectorization)."""
    r = run_pgcc([ROOT / "examples" / "cuda" / "hotspot_pyramid.cu", "--cpuify", "--cuda-host=pgcc", "-O2", "--emit=cpuify", "-o", "-"])
    assert r.returncode == 0, r.stderr
    from mlir import ir

    with ir.Context() as ctx:
        ctx.allow_unregistered_dialects = True
        module = ir.Module.parse(r.stdout)
        copies, updates = [], []

        def visit(op):
            if op.name == "scf.if" and len(op.regions[0].blocks):
                names = [o.name for o in op.regions[0].blocks[0].operations]
                if names == ["memref.load", "memref.store", "scf.yield"]:
                    copies.append(op)
                elif "arith.mulf" in names:
                    updates.append(op)
            return ir.WalkResult.ADVANCE

        module.operation.walk(visit)
        assert not copies, "a guarded copy was left inside its thread loop"
        assert updates, "the stencil update lost its guard (expected: x tests kept for masked vectorization)"


def test_edge_guarded_thread_loops_get_an_interior_version():
    """The tile loads of matmul_shared (``(row < M && col < K) ? A[..] : 0``) run in two versions: without the
    tests when every thread of the block passes them, with them otherwise (edge blocks; the odd sizes of
    test_cuda_sync_examples.py run both)."""
    r = run_pgcc([ROOT / "examples" / "cuda" / "matmul_shared.cu", "--cpuify", "--cuda-host=pgcc", "-O2", "--emit=cpuify", "-o", "-"])
    assert r.returncode == 0, r.stderr
    from mlir import ir

    with ir.Context() as ctx:
        ctx.allow_unregistered_dialects = True
        module = ir.Module.parse(r.stdout)
        versions = []

        def count(region, name):
            found = []

            def add(o):
                if o.name == name:
                    found.append(o)
                return ir.WalkResult.ADVANCE

            for block in region.blocks:
                for op in block.operations:
                    op.operation.walk(add)
            return len(found)

        def visit(op):
            if op.name == "scf.if" and len(op.regions[1].blocks):
                fast, slow = op.regions
                if count(fast, "scf.for") and count(slow, "scf.for") and count(slow, "scf.if") \
                        and not count(fast, "scf.if") and count(fast, "memref.load") == count(slow, "memref.load"):
                    versions.append(op)
            return ir.WalkResult.ADVANCE

        module.operation.walk(visit)
        assert versions, "no interior version of the tile loads"
