"""A compile cache for object files, as ccache's direct mode does it.

Opt-in: on when ``PGCC_CACHE_DIR`` names a directory or ``--cache`` is given (then ``~/.cache/pgcc``, or
``$XDG_CACHE_HOME/pgcc``); ``--no-cache`` turns it off for one command. ``PGCC_CACHE_SIZE`` bounds its size
(``500M``, ``2G``, bytes without a suffix; default 1G): after each store, the least recently used results are
removed until the cache is below 90% of the bound.

Key. A first key hashes what is known before parsing: pgcc's version and a fingerprint of its installed
sources, the tools it runs (opt, llc, the linker, the host C++ compiler, libclang: path, size, mtime), every
option that can change the object or the diagnostics, the source's absolute path, its bytes, the working
directory and the environment variables the parser reads. Under it a *manifest* lists, per earlier compilation,
every file the translation unit included (system headers too) with the hash of its bytes, and the result
compiled from exactly those headers. A lookup rehashes the listed headers: a result is reused only when every
one still has the same bytes, so a changed header or flag is a miss. Sources that spell ``__DATE__``,
``__TIME__`` or ``__TIMESTAMP__`` are not cached.

A result is the object file plus the diagnostics pgcc printed while compiling it (replayed on a hit) and the
header lists of ``-MD``/``-MMD`` (the dependency file is rewritten on a hit). Concurrent writers (``make -j``)
are safe: every file is written under a unique temporary name in its final directory and renamed into place
(atomic on POSIX); the result's object is renamed before its description, and a reader that finds a
description without its object treats it as a miss. A manifest updated by two writers at once keeps one of
their entries; the other compilation is simply a miss next time.
"""

from __future__ import annotations

import hashlib
import json
import os
import sys
import tempfile

DEFAULT_SIZE = 1 << 30
MANIFEST_ENTRIES = 16            # results kept per (source, flags): one per distinct set of header contents
ENV_VARS = ("CPATH", "C_INCLUDE_PATH", "CPLUS_INCLUDE_PATH", "OBJC_INCLUDE_PATH", "PGCC_HOST_CXX", "PGCC_LINKER",
            "LIBCLANG_LIBSTDCXX_HEADER_PATH", "SOURCE_DATE_EPOCH")
VOLATILE_MACROS = (b"__DATE__", b"__TIME__", b"__TIMESTAMP__")
# Options fields that change neither the object nor what is printed while it is compiled
IGNORED_FIELDS = ("inputs", "languages", "output", "warnings", "info", "verbose", "debug", "time_report",
                  "lib_dirs", "libs", "link_extra", "deps", "dep_file", "dep_targets", "dep_phony", "cache")


def _hash(data: bytes) -> str:
    return hashlib.blake2b(data, digest_size=20).hexdigest()


def file_hash(path: str) -> str | None:
    """blake2b hex digest of a file's bytes, or None when it cannot be read."""
    h = hashlib.blake2b(digest_size=20)
    try:
        with open(path, "rb") as f:
            for chunk in iter(lambda: f.read(1 << 20), b""):
                h.update(chunk)
    except OSError:
        return None
    return h.hexdigest()


def parse_size(text: str) -> int:
    """Bytes of a size such as ``500M``, ``2G``, ``64k`` or ``1000000``.

    Raises:
        CompileError: any other text.
    """
    from .errors import CompileError

    t = text.strip().upper().removesuffix("B").removesuffix("I")
    scale = {"K": 1 << 10, "M": 1 << 20, "G": 1 << 30, "T": 1 << 40}.get(t[-1:], 1)
    digits = t[:-1] if t[-1:] in "KMGT" and t[-1:] else t
    try:
        value = float(digits)
    except ValueError:
        value = -1.0
    if value <= 0:
        raise CompileError(f"PGCC_CACHE_SIZE: expected a size such as 500M or 2G, not '{text}'")
    return int(value * scale)


def default_dir() -> str:
    """``$PGCC_CACHE_DIR``, else ``$XDG_CACHE_HOME/pgcc``, else ``~/.cache/pgcc``."""
    d = os.environ.get("PGCC_CACHE_DIR")
    if d:
        return d
    base = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
    return os.path.join(base, "pgcc")


def _stat_id(path: str | None) -> str:
    if not path:
        return "-"
    try:
        st = os.stat(path)
    except OSError:
        return f"{path}:missing"
    return f"{path}:{st.st_size}:{st.st_mtime_ns}"


_fingerprint: str | None = None


def pgcc_fingerprint() -> str:
    """pgcc's version and the size and mtime of every Python file it is made of (an edited development install
    is another compiler)."""
    global _fingerprint
    if _fingerprint is None:
        from . import __version__

        pkg = os.path.dirname(os.path.abspath(__file__))
        roots = {pkg}
        for sub in ("affine", "ad", "gpu_to_cpu"):  # package-dir mappings: found through the package's modules
            spec_dir = _subpackage_dir(sub)
            if spec_dir:
                roots.add(spec_dir)
        parts = [__version__]
        for root in sorted(roots):
            for dirpath, dirnames, filenames in os.walk(root):
                dirnames.sort()
                for f in sorted(filenames):
                    if f.endswith((".py", ".h", ".cuh", ".a", ".c")):
                        parts.append(_stat_id(os.path.join(dirpath, f)))
        _fingerprint = _hash("\n".join(parts).encode())
    return _fingerprint


def _subpackage_dir(name: str) -> str | None:
    import importlib.util

    try:
        spec = importlib.util.find_spec(f"polygeist_py.{name}")
    except (ImportError, ValueError):
        return None
    if spec is None or not spec.submodule_search_locations:
        return None
    return list(spec.submodule_search_locations)[0]


def _tools(o) -> list[str]:
    """Identities (path, size, mtime) of the programs and libraries whose output the object depends on."""
    import importlib.util

    from .toolchain import linker, llvm_tool

    ids = [_stat_id(llvm_tool("opt")), _stat_id(llvm_tool("llc")), _stat_id(linker())]
    if o.cpuify:
        import shutil

        from .host_compiler import host_cxx
        cxx = host_cxx(o.host_compiler)
        ids.append(_stat_id(shutil.which(cxx) or cxx))
    spec = importlib.util.find_spec("clang")
    if spec and spec.submodule_search_locations:
        ids.append(_stat_id(os.path.join(list(spec.submodule_search_locations)[0], "cindex.py")))
    return ids


class Cache:
    """One cache directory (see the module's docstring). Methods never raise for an unusable cache: a read
    that fails is a miss and a write that fails is skipped."""

    def __init__(self, root: str, limit: int = DEFAULT_SIZE) -> None:
        self.root = root
        self.limit = limit

    # ------------------------------------------------------------------ keys
    def first_key(self, path: str, o, language: str | None) -> str | None:
        """The key of (source bytes, options, tools, pgcc), or None when this compilation is not cacheable
        (unreadable source, a volatile macro, output other than an object file)."""
        if o.emit or o.assembly:
            return None
        try:
            with open(path, "rb") as f:
                text = f.read()
        except OSError:
            return None
        if any(m in text for m in VOLATILE_MACROS):
            return None
        from dataclasses import fields

        opts = {f.name: getattr(o, f.name) for f in fields(o) if f.name not in IGNORED_FIELDS}
        if o.schedule_file:
            opts["schedule_file_hash"] = file_hash(o.schedule_file)
        parts = {
            "pgcc": pgcc_fingerprint(),
            "python": sys.version,
            "tools": _tools(o),
            "options": repr(sorted(opts.items())),
            "language": language,
            "source": os.path.abspath(path),
            "source_hash": _hash(text),
            "cwd": os.getcwd(),
            "env": [(v, os.environ.get(v)) for v in ENV_VARS],
            "object": bool(o.compile_only),
        }
        return _hash(json.dumps(parts, sort_keys=True, default=str).encode())

    def _manifest_path(self, key: str) -> str:
        return os.path.join(self.root, "manifests", key[:2], key + ".json")

    def _result_paths(self, rkey: str) -> tuple[str, str]:
        d = os.path.join(self.root, "results", rkey[:2])
        return os.path.join(d, rkey + ".o"), os.path.join(d, rkey + ".json")

    # ------------------------------------------------------------------ lookup
    def lookup(self, key: str) -> dict | None:
        """The stored result of `key` whose headers all still have the recorded bytes: a dict with "object"
        (path in the cache), "stderr", "headers", "user_headers"; or None (a miss)."""
        manifest = _read_json(self._manifest_path(key))
        if not isinstance(manifest, list):
            return None
        hashes: dict[str, str | None] = {}
        for entry in manifest:
            try:
                ok = all((hashes.setdefault(p, file_hash(p)) if p not in hashes else hashes[p]) == h
                         for p, h in entry["headers"])
                rkey = entry["result"]
            except (KeyError, TypeError, ValueError):
                continue
            if not ok:
                continue
            obj, meta_path = self._result_paths(rkey)
            meta = _read_json(meta_path)
            if not isinstance(meta, dict) or not os.path.exists(obj):
                continue
            meta["object"] = obj
            for used in (obj, meta_path):  # least recently *used* goes first on eviction
                try:
                    os.utime(used)
                except OSError:
                    pass
            return meta
        return None

    # ------------------------------------------------------------------ store
    def store(self, key: str, obj_path: str, stderr: str, headers: list[str], user_headers: list[str]) -> None:
        """Record `obj_path` (an object file just compiled) as the result of `key` with these included files;
        then evict down to the size bound."""
        try:
            header_hashes = [(h, file_hash(h)) for h in headers]
            if any(v is None for _, v in header_hashes):
                return
            rkey = _hash((key + json.dumps(header_hashes)).encode())
            obj, meta_path = self._result_paths(rkey)
            with open(obj_path, "rb") as f:
                _atomic_write(obj, f.read())
            _atomic_write(meta_path, json.dumps({"stderr": stderr, "headers": headers,
                                                 "user_headers": user_headers}).encode())
            mpath = self._manifest_path(key)
            manifest = _read_json(mpath)
            manifest = [e for e in manifest if isinstance(e, dict) and e.get("result") != rkey] \
                if isinstance(manifest, list) else []
            manifest.insert(0, {"headers": header_hashes, "result": rkey})
            _atomic_write(mpath, json.dumps(manifest[:MANIFEST_ENTRIES]).encode())
            self.evict()
        except OSError:
            return

    def evict(self) -> int:
        """Remove least recently used results (and manifests) until the cache holds at most 90% of its bound
        when it holds more than the bound (other files in the directory, such as pgcc's CUDA runtime archive,
        are neither counted nor removed). Returns the number of bytes removed."""
        files = []
        total = 0
        walk = [w for sub in ("results", "manifests") for w in os.walk(os.path.join(self.root, sub))]
        for dirpath, _, names in walk:
            for n in names:
                p = os.path.join(dirpath, n)
                try:
                    st = os.stat(p)
                except OSError:
                    continue
                files.append((st.st_mtime, p, st.st_size))
                total += st.st_size
        if total <= self.limit:
            return 0
        removed = 0
        goal = int(self.limit * 0.9)
        for _, p, size in sorted(files):
            if total - removed <= goal:
                break
            base, ext = os.path.splitext(p)
            group = [base + ".o", base + ".json"] if "results" in p else [p]
            for q in group:
                try:
                    sz = os.path.getsize(q)
                    os.unlink(q)
                    removed += sz
                except OSError:
                    pass
        return removed


def _read_json(path: str):
    try:
        with open(path, "rb") as f:
            return json.loads(f.read())
    except (OSError, ValueError):
        return None


def _atomic_write(path: str, data: bytes) -> None:
    """Write `data` to `path` atomically: a unique temporary file in the same directory, renamed into place."""
    d = os.path.dirname(path)
    os.makedirs(d, exist_ok=True)
    fd, tmp = tempfile.mkstemp(dir=d, prefix=".tmp-")
    try:
        with os.fdopen(fd, "wb") as f:
            f.write(data)
        os.replace(tmp, path)
    except BaseException:
        try:
            os.unlink(tmp)
        except OSError:
            pass
        raise


def for_options(o) -> Cache | None:
    """The cache this command uses: None with --no-cache or when neither PGCC_CACHE_DIR nor --cache asks for one.

    Raises:
        CompileError: a malformed PGCC_CACHE_SIZE.
    """
    if o.cache is False or (o.cache is None and not os.environ.get("PGCC_CACHE_DIR")):
        return None
    size = os.environ.get("PGCC_CACHE_SIZE")
    return Cache(default_dir(), parse_size(size) if size else DEFAULT_SIZE)


class Tee:
    """A text stream that writes to `stream` and keeps a copy (the diagnostics printed while compiling)."""

    def __init__(self, stream) -> None:
        self.stream = stream
        self.parts: list[str] = []

    def write(self, s: str) -> int:
        self.parts.append(s)
        return self.stream.write(s)

    def flush(self) -> None:
        self.stream.flush()

    def __getattr__(self, name):
        return getattr(self.stream, name)

    def text(self) -> str:
        return "".join(self.parts)
