"""The type stubs say what the package has: mypy's stubtest compares them
with the installed module, the extension included."""

import subprocess
import sys

import pytest


def test_the_stubs_match_the_package():
    pytest.importorskip("mypy", reason="mypy is not installed (python/tests/requirements.txt)")
    p = subprocess.run([sys.executable, "-m", "mypy.stubtest", "dgnkit"], capture_output=True, text=True)
    assert p.returncode == 0, p.stdout + p.stderr
