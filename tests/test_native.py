"""The C-core loader: a C file compiles once into its ``__pycache__`` and loads; ``ROPASCI_NATIVE=0`` or a
missing compiler gives None (the caller's pure-Python twin plays)."""
import ctypes

import pytest

from games.engine import native


@pytest.fixture
def source(tmp_path):
    path = tmp_path / "twice.c"
    path.write_text("int twice(int x) { return 2 * x; }\n")
    return path


def test_builds_loads_and_reuses(source):
    lib = native.load(source)
    lib.twice.argtypes = [ctypes.c_int]
    assert lib.twice(21) == 42
    built = native.library_path(source)
    assert built.parent.name == "__pycache__" and built.exists()
    assert native.build(source) == built  # compiled once
    source.write_text("int twice(int x) { return x + x; }\n")
    assert native.library_path(source) != built  # an edit gets a new library


def test_disabled_or_without_compiler(source, monkeypatch):
    monkeypatch.setenv("ROPASCI_NATIVE", "0")
    assert native.load(source) is None
    monkeypatch.setenv("ROPASCI_NATIVE", "1")
    monkeypatch.setenv("CC", "/nonexistent/cc")
    native._loaded.pop(source, None)
    assert native.load(source) is None


def test_a_broken_file_is_no_library(tmp_path):
    bad = tmp_path / "bad.c"
    bad.write_text("this is not C\n")
    assert native.load(bad) is None
    assert not list((tmp_path / "__pycache__").glob("*.tmp"))
