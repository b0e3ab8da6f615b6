"""Build the optional C extension ``games/ropasci360/_speedups.c`` in place (next to ``rules.py``).

    .venv/bin/python scripts/build_speedups.py

``make setup`` runs this whenever the C file changes. The extension is optional: ``rules.py`` falls back on
its pure-Python methods when it is missing, fails to import or is stale. So a failed build is reported (exit
status 1; any older binary is removed, as it would not match the C file) and ``make setup`` only warns.

Uses setuptools' ``build_ext`` when setuptools is installed (Python 3.11's venv has it), else the
interpreter's own compiler settings (``sysconfig``), as setuptools would on Linux. The build happens in a
temporary directory; the result replaces the old file (running servers keep the one they loaded).
"""
from __future__ import annotations

import os
import shlex
import subprocess
import sys
import sysconfig
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
SOURCE = os.path.join("games", "ropasci360", "_speedups.c")
MODULE = "games.ropasci360._speedups"
CFLAGS = ["-O2", "-Wall"]


def target() -> str:
    return os.path.join(ROOT, "games", "ropasci360", "_speedups" + sysconfig.get_config_var("EXT_SUFFIX"))


def build_with_setuptools(tmp: str) -> str:
    from setuptools import Extension, setup

    setup(name="ropasci-speedups", ext_modules=[Extension(MODULE, [SOURCE], extra_compile_args=CFLAGS)],
          script_args=["--quiet", "build_ext", "--build-temp", tmp, "--build-lib", tmp], zip_safe=False)
    return os.path.join(tmp, "games", "ropasci360", os.path.basename(target()))


def build_with_sysconfig(tmp: str) -> str:
    cv = sysconfig.get_config_var
    obj, lib = os.path.join(tmp, "_speedups.o"), os.path.join(tmp, os.path.basename(target()))
    compile_cmd = (shlex.split(os.environ.get("CC") or cv("CC")) + shlex.split(cv("CFLAGS") or "")
                   + shlex.split(cv("CCSHARED") or "") + CFLAGS
                   + ["-I", sysconfig.get_paths()["include"], "-c", SOURCE, "-o", obj])
    link_cmd = shlex.split(cv("LDSHARED")) + [obj, "-o", lib]
    for cmd in (compile_cmd, link_cmd):
        print(" ".join(cmd))
        subprocess.run(cmd, check=True, cwd=ROOT)
    return lib


def main() -> int:
    os.chdir(ROOT)
    try:
        import setuptools  # noqa: F401
        build = build_with_setuptools
    except ImportError:
        build = build_with_sysconfig
    try:
        with tempfile.TemporaryDirectory() as tmp:
            built = build(tmp)
            # Import it in a fresh interpreter first: a build that links but does not load is a failure too.
            subprocess.run([sys.executable, "-c", "import importlib.util as u, sys; s = u.spec_from_file_location("
                            "'games.ropasci360._speedups', sys.argv[1]); u.module_from_spec(s)", built], check=True)
            # A new file replaces the old one (running processes keep the one they loaded; writing over it
            # in place could crash them).
            os.replace(built, target())
    except (Exception, SystemExit) as exc:  # setuptools reports compiler errors as SystemExit
        # The C file changed (or the build is new): an older binary would not match it.
        if os.path.exists(target()):
            os.unlink(target())
        print(f"warning: could not build {SOURCE} ({exc}); RoPaSci 360 uses its pure-Python engine",
              file=sys.stderr)
        return 1
    print(f"built {os.path.relpath(target(), ROOT)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
