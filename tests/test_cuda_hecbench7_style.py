"""CUDA programs in the style of HeCBench's self-checking codes (tests/programs/cuda/), seventh set, built with
`pgcc --cpuify -O2` and run at 1 and 2 OpenMP threads against their own host references.

templated_base_views: a constructor run in device code whose base class is a template specialization
(`: ViewBase<T, RANK, Qual, I>(p, e, s)`, the packed tensor accessors of HeCBench tensorAccessor) lost its base
initializer: libclang shows such a base as a TEMPLATE_REF followed by the template arguments (some of them
expressions) and then the construction, where a plain base is a TYPE_REF, so the base was left zeroed and the
kernel read through a null pointer (silently wrong results: FAIL). The base initializer is now the
initializer expression whose type is a base class.
"""

from __future__ import annotations

from conftest import PROGRAMS, assert_passes, build_pgcc

CUDA = PROGRAMS / "cuda"


def test_base_initializers_of_template_specializations(tmp):
    build_pgcc(CUDA / "templated_base_views.cu", tmp / "app", extra=("--cpuify",))
    for out in assert_passes(tmp / "app", threads=(1, 2)):
        assert "row 17: 3.584157 (want 3.584157)" in out
