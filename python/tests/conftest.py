"""What the tests share: the `dgn` binary whose JSON every function must
equal, the shared corpus beside the checkout, and a runner.

DGN names the binary (scripts/test-python passes the one cargo built);
without it the checkout's target/release/dgn or target/debug/dgn is used.
"""

import json
import os
import pathlib
import subprocess

import pytest

ROOT = pathlib.Path(__file__).resolve().parents[2]
SHARED = ROOT.parent / "shared"
CORPUS = SHARED / "corpus"


def _dgn():
    given = os.environ.get("DGN")
    if given:
        return given
    for build in ("release", "debug"):
        p = ROOT / "target" / build / "dgn"
        if p.exists():
            return str(p)
    return None


DGN = _dgn()


@pytest.fixture(scope="session")
def dgn():
    """Runs `dgn ARGS`: (status, stdout bytes, stderr text)."""
    if DGN is None:
        pytest.fail("no dgn binary: set DGN or build it (cargo build -p dgnkit-cli)")

    def run(*args, stdin=None):
        p = subprocess.run([DGN, *map(str, args)], capture_output=True, input=stdin)
        return p.returncode, p.stdout, p.stderr.decode()

    return run


@pytest.fixture(scope="session")
def dgn_json(dgn):
    """`dgn ARGS`'s standard output as JSON (one document, or a list of
    JSON lines with lines=True); the command must succeed."""

    def run(*args, lines=False, ok=(0,)):
        status, out, err = dgn(*args)
        assert status in ok, err
        if lines:
            return [json.loads(l) for l in out.splitlines() if l.strip()]
        return json.loads(out)

    return run


def corpus(name):
    """A file of ../shared/corpus, or a skip (a failure in CI) without it."""
    return shared("corpus/" + name)


def shared(name):
    """A file of ../shared, or a skip (a failure in CI) without it."""
    p = SHARED / name
    if not p.exists():
        if os.environ.get("DGNKIT_REQUIRE_SHARED") == "1":
            pytest.fail(f"{p} is missing and DGNKIT_REQUIRE_SHARED=1")
        pytest.skip(f"{p} is missing (the shared corpus beside the checkout)")
    return p
