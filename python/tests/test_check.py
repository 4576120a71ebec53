"""check gives `dgn check --format json`'s diagnostics."""

import pytest

import dgnkit
from conftest import ROOT

EXAMPLES = ROOT / "corpus"


def diagnostics(dgn_json, *args):
    files = dgn_json("check", "--format", "json", *args, ok=(0, 1))["files"]
    return [d for f in files for d in f["diagnostics"]]


@pytest.mark.parametrize(
    "name,args",
    [
        ("syntax-recovery.def", []),
        ("names-duplicate-levels.def", []),
        ("ranges-past-maxlevel.def", []),
        ("dialect-gnollhack.def", ["--target", "gnollhack"]),
        ("lua-limits-names.lua", []),
        ("compat-crlf.def", []),
        ("encoding-euc-jp.def", []),
    ],
)
def test_check_is_the_command_s_json(dgn_json, name, args):
    path = EXAMPLES / name
    want = diagnostics(dgn_json, *args, path)
    kw = {"game": args[1]} if args else {}
    assert dgnkit.check(path, **kw) == want
    assert dgnkit.check(path.read_bytes(), name=str(path), **kw) == want


def test_a_text_is_checked_under_its_name(dgn_json, tmp_path):
    text = 'DUNGEON: "The Dungeons of Doom" "D" (25, 5)\nLEVEL: "oracle" "O" @ (5)\n'
    p = tmp_path / "dungeon.def"
    p.write_text(text)
    got = dgnkit.check(text)
    want = diagnostics(dgn_json, p)
    assert [d["code"] for d in got] == [d["code"] for d in want]
    assert [(d["line"], d["column"]) for d in got] == [(d["line"], d["column"]) for d in want]
    assert any(d["code"] == "E0109" for d in got)
    lua = (ROOT / "corpus" / "nethack-3.7.lua").read_text()
    assert dgnkit.check(lua, name="dungeon.lua", game="nethack-3.7") == []


def test_lint_levels(dgn_json):
    path = EXAMPLES / "lints-deny-warnings.def"
    want = diagnostics(dgn_json, "--deny", "warnings", path)
    assert dgnkit.check(path, deny="warnings") == want
    with pytest.raises(dgnkit.DgnError) as e:
        dgnkit.check(path, deny="no-such-lint")
    assert e.value.code == "usage"
