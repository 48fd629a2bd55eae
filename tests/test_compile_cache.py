"""Issue 23: the compile cache (polygeist_py/compile_cache.py), as ccache's direct mode: a hit after an identical
compilation, a miss after a header or a flag changed, concurrent writers, --no-cache, the size bound."""

import os
import subprocess

import pytest

from conftest import pgcc_cmd, run_exe

from polygeist_py import compile_cache

SRC = '#include "h.h"\n#warning "kept on a hit"\nint main(void) { return VAL; }\n'


def pgcc(args, cwd, cache_dir, **kw):
    env = dict(os.environ, PGCC_CACHE_DIR=str(cache_dir))
    env.pop("PGCC_CACHE_SIZE", None)
    env.update(kw.pop("env", {}))
    return subprocess.run(pgcc_cmd() + [str(a) for a in args], capture_output=True, text=True, cwd=cwd, env=env,
                          **kw)


def compiled(r) -> bool:
    """Whether pgcc compiled the source (rather than taking it from the cache): from --time-report."""
    assert r.returncode == 0, r.stderr
    return "parse (libclang)" in r.stderr


@pytest.fixture
def project(tmp):
    (tmp / "w.c").write_text(SRC)
    (tmp / "h.h").write_text("#define VAL 3\n")
    return tmp


def test_hit_after_an_identical_compile(project):
    cache = project / "cache"
    first = pgcc(["-O2", "w.c", "-o", "a", "--time-report"], project, cache)
    assert compiled(first)
    second = pgcc(["-O2", "w.c", "-o", "b", "--time-report"], project, cache)
    assert not compiled(second)
    assert "compile cache" in second.stderr
    assert second.stderr.count("warning: \"kept on a hit\"") == 1  # diagnostics are replayed
    assert run_exe(project / "b").returncode == 3
    # -c: the object is the one compiled
    pgcc(["-O2", "-c", "w.c", "-o", "w1.o"], project, cache)
    r = pgcc(["-O2", "-c", "w.c", "-o", "w2.o", "-MD", "--time-report"], project, cache)
    assert not compiled(r)
    assert (project / "w1.o").read_bytes() == (project / "w2.o").read_bytes()
    assert (project / "w2.d").read_text().split() == ["w2.o:", "w.c", "\\", "./h.h"]


def test_miss_after_a_header_or_flag_change(project):
    cache = project / "cache"
    assert compiled(pgcc(["w.c", "-o", "a", "--time-report"], project, cache))
    (project / "h.h").write_text("#define VAL 4\n")
    assert compiled(pgcc(["w.c", "-o", "a", "--time-report"], project, cache))
    assert run_exe(project / "a").returncode == 4
    (project / "h.h").write_text("#define VAL 3\n")  # back to the first header: its result again
    assert not compiled(pgcc(["w.c", "-o", "a", "--time-report"], project, cache))
    assert run_exe(project / "a").returncode == 3
    assert compiled(pgcc(["-O1", "w.c", "-o", "a", "--time-report"], project, cache))
    (project / "w.c").write_text(SRC.replace("int main", "#undef VAL\n#define VAL 7\nint main"))
    assert compiled(pgcc(["-O1", "w.c", "-o", "a", "--time-report"], project, cache))
    assert run_exe(project / "a").returncode == 7


def test_no_cache_and_opt_in(project):
    cache = project / "cache"
    assert compiled(pgcc(["w.c", "-o", "a", "--no-cache", "--time-report"], project, cache))
    assert not (cache / "results").exists()  # (the directory also holds pgcc's CUDA runtime archive)
    env = {k: v for k, v in os.environ.items() if k != "PGCC_CACHE_DIR"}
    r = subprocess.run(pgcc_cmd() + ["w.c", "-o", "a"], capture_output=True, text=True, cwd=project,
                       env=dict(env, XDG_CACHE_HOME=str(project / "xdg")))
    assert r.returncode == 0 and not (project / "xdg" / "pgcc").exists()  # off unless asked for
    r = subprocess.run(pgcc_cmd() + ["--cache", "w.c", "-o", "a"], capture_output=True, text=True, cwd=project,
                       env=dict(env, XDG_CACHE_HOME=str(project / "xdg")))
    assert r.returncode == 0 and list((project / "xdg" / "pgcc").rglob("*.o"))


def test_concurrent_writers(project):
    cache = project / "cache"
    env = dict(os.environ, PGCC_CACHE_DIR=str(cache))
    procs = [subprocess.Popen(pgcc_cmd() + ["-c", "w.c", "-o", f"w{k}.o"], cwd=project, env=env,
                              stdout=subprocess.PIPE, stderr=subprocess.PIPE) for k in range(2)]
    assert [p.wait() for p in procs] == [0, 0]
    assert (project / "w0.o").read_bytes() == (project / "w1.o").read_bytes()
    assert not [p for p in cache.rglob("*") if p.name.startswith(".tmp-")]
    r = pgcc(["-c", "w.c", "-o", "w2.o", "--time-report"], project, cache)
    assert not compiled(r)
    assert (project / "w2.o").read_bytes() == (project / "w0.o").read_bytes()


def test_a_bad_size_is_an_error(project):
    r = pgcc(["w.c", "-o", "a"], project, project / "cache", env={"PGCC_CACHE_SIZE": "lots"})
    assert r.returncode == 1 and r.stderr.startswith("pgcc: error: PGCC_CACHE_SIZE") and "Traceback" not in r.stderr
    assert compile_cache.parse_size("500M") == 500 << 20 and compile_cache.parse_size("2GiB") == 2 << 30


def test_eviction_keeps_the_cache_under_its_bound(tmp):
    cache = compile_cache.Cache(str(tmp / "c"), limit=10_000)
    for k in range(6):
        obj = tmp / f"{k}.o"
        obj.write_bytes(bytes(3000))
        cache.store(f"key{k}", str(obj), "", [], [])


    total = sum(p.stat().st_size for p in (tmp / "c").rglob("*") if p.is_file())
    assert total <= 10_000
    assert cache.lookup("key5") is not None   # the newest stays
    assert cache.lookup("key0") is None       # the oldest went


def test_volatile_macros_are_not_cached(tmp):
    from polygeist_py.driver import parse_args
    (tmp / "t.c").write_text('const char *when = __TIME__;\nint main(void) { return 0; }\n')
    o = parse_args([str(tmp / "t.c")])
    assert compile_cache.Cache(str(tmp / "c")).first_key(str(tmp / "t.c"), o, "c") is None
    (tmp / "u.c").write_text('int main(void) { return 0; }\n')
    assert compile_cache.Cache(str(tmp / "c")).first_key(str(tmp / "u.c"), o, "c") is not None


def test_v_lists_what_runs_and_a_hit_runs_nothing(project):
    """-v on a miss lists the stages and opt/llc; on a hit nothing is compiled, so nothing is listed, and the
    listing of the miss is not stored with the cached diagnostics."""
    cache = project / "cache"
    miss = pgcc(["-v", "-O2", "-c", "w.c", "-o", "w1.o"], project, cache)
    assert miss.returncode == 0 and "pgcc: stage: frontend: parse (libclang)" in miss.stderr
    ran = [ln.split()[0].rsplit("/", 1)[-1] for ln in miss.stderr.splitlines() if ln.startswith(" /")]
    assert ran == ["opt", "llc"]  # (commands: a space, then the tool's path)
    hit = pgcc(["-O2", "-c", "w.c", "-o", "w2.o"], project, cache)
    assert hit.returncode == 0 and "kept on a hit" in hit.stderr and "pgcc: stage" not in hit.stderr
    hit_v = pgcc(["-v", "-O2", "-c", "w.c", "-o", "w3.o"], project, cache)
    assert "pgcc: stage" not in hit_v.stderr and not any(ln.startswith(" /") for ln in hit_v.stderr.splitlines())
    assert (project / "w1.o").read_bytes() == (project / "w3.o").read_bytes()
