"""The rules engine and the bots are pure Python: importing them must not
import Django (so they run in scripts, benchmarks and worker processes)."""

import importlib.util
import os
import subprocess
import sys
from pathlib import Path

import pytest

BASE_DIR = Path(__file__).resolve().parent.parent

PURE_MODULES = ["games.engine", "games.bots"]
OPTIONAL_PURE_MODULES = ["games.bots.comp30024", "games.bots.comp30024_2020"]

CHECK = r"""
import importlib, sys
importlib.import_module(sys.argv[1])
bad = sorted(m for m in sys.modules if m == "django" or m.startswith("django."))
if bad:
    print("importing %s imported Django modules: %s" % (sys.argv[1], ", ".join(bad)))
    sys.exit(1)
"""


def _exists(name: str) -> bool:
    try:
        return importlib.util.find_spec(name) is not None
    except ModuleNotFoundError:
        return False


@pytest.mark.parametrize("module", PURE_MODULES + OPTIONAL_PURE_MODULES)
def test_module_does_not_import_django(module):
    if module in OPTIONAL_PURE_MODULES and not _exists(module):
        pytest.skip(f"{module} does not exist yet")
    env = {k: v for k, v in os.environ.items() if k != "DJANGO_SETTINGS_MODULE"}
    result = subprocess.run(
        [sys.executable, "-c", CHECK, module],
        cwd=BASE_DIR,
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert result.returncode == 0, f"{result.stdout}{result.stderr}"
