"""Bytecode written once by pytest's first process, before the test processes start, on every core.

Where PYTHONDONTWRITEBYTECODE is set (as on the CI machine), no process writes bytecode: each test process would
compile Kadesh's and the test helpers' sources and rewrite the asserts of every test module and of every module of
the pytest plugins installed again (pytest keeps its rewritten modules as bytecode only where bytecode may be
written), and each server, worker and check process the tests start would compile Kadesh again. Python still reads
bytecode that is there: written once here, it is read by every later process (docs/performance.md, « The suite's own
time »).

Likewise Hypothesis' table of the characters UTF-8 encodes, which schemathesis draws its strings with: where it is
not under ``.hypothesis/`` yet (a new clone, CI), each test process that draws a string works it out itself, 2.2 s
of CPU each; written here once, each process reads it.
"""

from __future__ import annotations

import contextlib
import importlib.util
import multiprocessing
import os
import py_compile
import warnings
from pathlib import Path

from _pytest.assertion.rewrite import PYC_TAIL, _rewrite_test, _write_pyc, assertstate_key, get_cache_dir
from hypothesis.internal import charmap

ROOT = Path(__file__).resolve().parents[1]
_config = None  # pytest's configuration, for the forked processes that rewrite test modules


def write_ahead(config) -> None:
    """Compile Kadesh and the tests' helpers, and write each test module and plugin module as pytest rewrites it,
    where not done yet."""
    global _config
    _config = config
    tests = ROOT / "tests"
    rewritten = [path for path in tests.glob("*.py") if path.name.startswith("test_") or path.name == "conftest.py"]
    compiled = [*(ROOT / "kadesh").rglob("*.py"), *(path for path in tests.glob("*.py") if path not in rewritten)]
    jobs = [(_compile, path) for path in compiled if _stale(path, Path(_cached(path)))]
    if config.getoption("assertmode") == "rewrite":
        jobs += [(_rewrite, path) for path in rewritten if _stale(path, _rewritten_pyc(path))]
        jobs += [(_rewrite_plugin, path) for path in _plugin_sources(config) if _stale(path, _rewritten_pyc(path))]
    if not _unicode_table().exists():
        jobs.append((_write_unicode_tables, None))
    if not jobs:
        return
    with multiprocessing.get_context("fork").Pool(os.cpu_count() or 1) as pool:
        pool.map(_run, jobs, chunksize=4)


def _run(job) -> None:
    function, path = job
    function(path)


def _cached(path: Path) -> str:
    return importlib.util.cache_from_source(str(path))


def _stale(source: Path, pyc: Path) -> bool:
    """Whether ``pyc`` is missing or older than its source (Python and pytest check the source's time and size)."""
    try:
        return pyc.stat().st_mtime < source.stat().st_mtime
    except FileNotFoundError:
        return True


def _compile(path: Path) -> None:
    py_compile.compile(str(path), doraise=False, quiet=2)


def _rewritten_pyc(path: Path) -> Path:
    return get_cache_dir(path) / (path.name[:-3] + PYC_TAIL)


def _rewrite(path: Path) -> None:
    pyc = _rewritten_pyc(path)
    pyc.parent.mkdir(exist_ok=True)
    source_stat, code = _rewrite_test(path, _config)
    _write_pyc(_config.stash[assertstate_key], code, source_stat, pyc)


def _plugin_sources(config) -> list[Path]:
    """The sources of the pytest plugins installed (hypothesis, schemathesis, anyio, xdist…): pytest rewrites the
    asserts of every module of a distribution that provides a plugin, some 300 of them in each test process (2 s of
    its CPU), and keeps them only where bytecode may be written."""
    sources: list[Path] = []
    for name in sorted(config.stash[assertstate_key].hook._must_rewrite):
        spec = importlib.util.find_spec(name)
        if spec is None:
            continue
        if spec.submodule_search_locations:  # a package: pytest rewrites each of its modules
            sources += [path for folder in spec.submodule_search_locations for path in Path(folder).rglob("*.py")]
        elif spec.origin and spec.origin.endswith(".py"):
            sources.append(Path(spec.origin))
    return sources


def _rewrite_plugin(path: Path) -> None:
    """As ``_rewrite``; a module pytest cannot rewrite or a folder that cannot be written is left to the test
    processes, which then rewrite it as they would have."""
    with contextlib.suppress(OSError, SyntaxError, ValueError):
        _rewrite(path)


def _unicode_table() -> Path:
    """Where Hypothesis keeps its table of the characters UTF-8 encodes."""
    with warnings.catch_warnings():  # Hypothesis warns of disk access while pytest's plugins load: wanted here
        warnings.simplefilter("ignore")
        return charmap.charmap_file("codec-v2-utf-8")


def _write_unicode_tables(_: None) -> None:
    """Hypothesis' Unicode tables (by category, and UTF-8's), worked out and written where they are kept."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        charmap.charmap()
        charmap.intervals_from_codec("utf-8")
