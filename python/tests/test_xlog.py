"""xlog yields `dgn xlog --format json`'s rows."""

import json
import random

import pytest

import dgnkit
from conftest import ROOT


def xlogfile(n, seed=1):
    """Lines as NetHack 3.6 writes them (bench/README.md's generator)."""
    rng = random.Random(seed)
    places = [(0, d) for d in range(1, 26)] * 4 + [(2, d) for d in range(5, 11)] + [(1, d) for d in range(30, 45)] \
        + [(3, d) for d in range(13, 16)] + [(4, d) for d in range(3, 6)] + [(7, -5)]
    deaths = ["killed by a soldier ant", "quit", "ascended", "petrified by a cockatrice", "escaped",
              "killed by the Wizard of Yendor", "drowned in a moat by an eel"]
    lines = []
    for i in range(n):
        dn, d = rng.choice(places)
        lines.append("\t".join([
            f"version=3.6.{rng.randint(1, 6)}", f"points={rng.randint(0, 3000000)}", f"deathdnum={dn}",
            f"deathlev={d}", f"maxlvl={max(d, 1) + 3}", "hp=-1", "maxhp=90", "deaths=1", "role=Val", "race=Hum",
            "gender=Mal", "align=Neu", f"name=player{i % 50}", f"death={rng.choice(deaths)}",
            f"turns={rng.randint(10, 90000)}", "flags=0x4"]))
    lines.append("version=3.4.3\tdeathdnum=2\tdeathlev=7\tdeath=killed by a dwarf\tname=old")
    lines.append("not an xlogfile line")
    lines.append("version=3.7.0\tdeathdnum=0\tdeathlev=3\tdeath=killed by a newt\tname=dev")
    return "\n".join(lines) + "\n"


@pytest.fixture(scope="module")
def xlog_path(tmp_path_factory):
    p = tmp_path_factory.mktemp("xlog") / "xlogfile"
    p.write_text(xlogfile(3000))
    return p


@pytest.mark.parametrize("where", [None, 'death ~ "killed by" and deathlev > 5', 'dungeon = "Sokoban"'])
def test_rows_are_the_command_s(dgn_json, xlog_path, where):
    args = ["--where", where] if where else []
    want = dgn_json("xlog", "--format", "json", *args, xlog_path, lines=True, ok=(0, 1))
    assert list(dgnkit.xlog(xlog_path, where=where)) == want
    assert list(dgnkit.xlog(str(xlog_path), where=where)) == want
    assert list(dgnkit.xlog(xlog_path.read_bytes(), where=where)) == want
    assert list(dgnkit.xlog(xlog_path.read_text().splitlines(), where=where)) == want
    assert list(dgnkit.xlog(iter(xlog_path.read_text().splitlines(keepends=True)), where=where)) == want


def test_one_game_and_a_description(dgn_json, xlog_path):
    desc = ROOT / "corpus" / "nethack-3.6.def"
    want = dgn_json("xlog", "--format", "json", "--game", "nethack-3.6", "--file", desc, xlog_path, lines=True, ok=(0, 1))
    assert list(dgnkit.xlog(xlog_path, game="nethack-3.6", description=desc)) == want


def test_a_missing_file_is_the_command_s_error(dgn, tmp_path):
    missing = tmp_path / "no-such-xlogfile"
    with pytest.raises(dgnkit.DgnError) as e:
        list(dgnkit.xlog(missing))
    status, _, err = dgn("xlog", missing)
    assert e.value.status == status == 2
    assert "cannot read" in e.value.message and str(missing) in e.value.message


def test_a_bad_filter_is_an_error(dgn, xlog_path):
    with pytest.raises(dgnkit.DgnError) as e:
        list(dgnkit.xlog(xlog_path, where="depth >"))
    status, _, err = dgn("xlog", "--where", "depth >", xlog_path)
    assert e.value.status == status and e.value.message == err.strip()


def test_rows_go_into_pandas(xlog_path):
    pd = pytest.importorskip("pandas")
    rows = list(dgnkit.xlog(xlog_path))
    games = pd.DataFrame(dgnkit.xlog(xlog_path))
    assert len(games) == len(rows)
    assert {"line", "dungeon", "bones_p", "fields"} <= set(games.columns)
    assert games["bones_p"].dropna().between(0, 1).all()
    fields = pd.json_normalize(games["fields"].tolist())
    assert "death" in fields.columns
    assert json.loads(games.to_json(orient="records"))[0]["line"] == rows[0]["line"]
