"""C cores for the hottest bot searches: a ``.c`` file beside its Python module, compiled on first use by the
system's C compiler and loaded with ctypes.

Why: a search node in Python costs microseconds per operation where C costs nanoseconds, and some searches (the
puzzle solver's proof of optimality, 2048's expectimax) must finish within a player's second. Every core has a
pure-Python twin that plays the same (tests compare them), used where no compiler is installed or with
``ROPASCI_NATIVE=0``. Libraries are built into the source's ``__pycache__`` under a name holding the hash of
the source and flags, so an edit rebuilds and processes building at once never see half a file.
``python -m games.engine.native`` builds every core in advance (``make setup`` does).
"""
from __future__ import annotations

import ctypes
import hashlib
import logging
import os
import subprocess
import sys
import sysconfig
from pathlib import Path

log = logging.getLogger(__name__)

FLAGS = ("-O3", "-std=c11", "-shared", "-fPIC")
_loaded: dict[Path, ctypes.CDLL | None] = {}


def enabled() -> bool:
    """False when ``ROPASCI_NATIVE=0``: then every caller uses its pure-Python version."""
    return os.environ.get("ROPASCI_NATIVE", "1") != "0"


def library_path(source: Path) -> Path:
    digest = hashlib.sha256(source.read_bytes() + " ".join(FLAGS).encode()).hexdigest()[:16]
    suffix = sysconfig.get_config_var("SHLIB_SUFFIX") or ".so"
    return source.parent / "__pycache__" / f"{source.stem}.{digest}{suffix}"


def build(source: Path) -> Path:
    """The compiled library of ``source`` (compiled now if missing). Raises OSError or CalledProcessError."""
    target = library_path(source)
    if target.exists():
        return target
    target.parent.mkdir(exist_ok=True)
    partial = target.with_name(f"{target.name}.{os.getpid()}.tmp")
    compiler = os.environ.get("CC", "cc")
    try:
        subprocess.run([compiler, *FLAGS, "-o", str(partial), str(source), "-lm"], check=True,
                       capture_output=True, text=True, timeout=120)
        os.replace(partial, target)
    finally:
        partial.unlink(missing_ok=True)
    return target


def load(source: Path) -> ctypes.CDLL | None:
    """The loaded library of the C file ``source``, or None (disabled, or no compiler: a warning is logged once)."""
    source = Path(source)
    if not enabled():
        return None
    if source not in _loaded:
        try:
            _loaded[source] = ctypes.CDLL(str(build(source)))
        except (OSError, subprocess.SubprocessError) as exc:
            detail = getattr(exc, "stderr", "") or exc
            log.warning("no C core for %s, using Python instead: %s", source.name, detail)
            _loaded[source] = None
    return _loaded[source]


def sources(root: Path | None = None) -> list[Path]:
    """Every bot core under ``games/``."""
    root = root or Path(__file__).resolve().parent.parent
    return sorted(root.glob("*/*.c"))


def main() -> int:
    failed = 0
    for source in sources():
        try:
            print(f"built {build(source)}")
        except (OSError, subprocess.SubprocessError) as exc:
            failed += 1
            print(f"could not build {source}: {getattr(exc, 'stderr', '') or exc}", file=sys.stderr)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
