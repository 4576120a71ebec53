"""find, stats, bones and diff answer what their commands print."""

import pytest

import dgnkit
from conftest import ROOT, corpus, shared


@pytest.mark.parametrize(
    "query,kw,args",
    [
        ("bigrm", {}, []),
        ("oracle.depth == 7 and not bigrm", {"game": "nethack-3.7"}, ["--target", "nethack-3.7"]),
        ("medusa.depth >= 23", {"wizard": True}, ["--wizard"]),
        ("bigrm", {"limit": 5}, ["--limit", 5]),
        ("oracle.depth == 6", {"game": "nle", "role": "val", "race": "hum", "gender": "fem", "align": "law"},
         ["--target", "nle", "--role", "val", "--race", "hum", "--gender", "fem", "--align", "law"]),
    ],
)
def test_find_is_the_command_s_json(dgn_json, query, kw, args):
    want = dgn_json("find", query, "--seeds", "0..3000", "--format", "json", *args, lines=True)
    assert dgnkit.find(query, seeds=range(0, 3000), **kw) == want
    assert dgnkit.find(query, seeds=range(0, 3000), jobs=None, **kw) == want
    count = dgn_json("find", query, "--seeds", "0..3000", "--format", "json", "--count", *args)
    assert dgnkit.find(query, seeds=range(0, 3000), count=True, **kw) == count


def test_find_refuses_what_it_cannot_search(dgn):
    with pytest.raises(dgnkit.DgnError) as e:
        dgnkit.find("bigrm", seeds=range(0, 100, 2))
    assert e.value.code == "usage"
    with pytest.raises(dgnkit.DgnError) as e:
        dgnkit.find("bigrm and", seeds=range(0, 10))
    status, _, err = dgn("find", "bigrm and", "--seeds", "0..10")
    assert e.value.status == status
    assert e.value.message == err.strip()


def test_stats_is_the_command_s_json(dgn_json):
    assert dgnkit.stats() == dgn_json("stats", "--format", "json")
    assert dgnkit.stats(game="nethack-3.7", wizard=True) == dgn_json(
        "stats", "--target", "nethack-3.7", "--wizard", "--format", "json"
    )
    given = "oracle.depth == 7 and bigrm"
    got = dgnkit.stats(given=given)
    assert got == dgn_json("stats", "--given", given, "--format", "json")
    assert "describe" in got["given"] and "p_evidence" in got["given"]


def test_stats_given_a_player_s_overview(dgn_json):
    overview = shared("expected/player-overview/nethack-3.6.7-1.txt")
    want = dgn_json("stats", "--given-overview", overview, "--format", "json")
    assert dgnkit.stats(given_overview=overview) == want
    assert dgnkit.stats(given_overview=overview.read_text()) == want


def test_stats_sampled(dgn_json):
    want = dgn_json("stats", "--target", "dnethack", "--role", "Val", "--sample", "--samples", 2000, "--format", "json")
    assert dgnkit.stats(game="dnethack", role="Val", sample=True, samples=2000) == want


def test_bones_is_the_command_s_json(dgn_json):
    assert dgnkit.bones() == dgn_json("bones", "--format", "json")
    assert dgnkit.bones(game="unnethack", seed=12) == dgn_json(
        "bones", "--target", "unnethack", "--seed", 12, "--format", "json"
    )


def test_diff_is_the_command_s_json(dgn_json):
    old = corpus("DynaMoHack__DynaHack@v0.5.5/dungeon.def")
    new = corpus("DynaMoHack__DynaHack/dungeon.def")
    want = dgn_json("diff", "--target", "dynahack", old, new, "--format", "json", ok=(0, 1))
    assert dgnkit.diff(old, new, game="dynahack") == want
    a = ROOT / "corpus" / "evilhack-0.8.3.def"
    b = ROOT / "corpus" / "evilhack-0.9.def"
    want = dgn_json("diff", "--target", "evilhack", a, b, "--format", "json", ok=(0, 1))
    assert dgnkit.diff(a, b, game="evilhack") == want
    texts = dgnkit.diff(a.read_text(), b.read_text(), game="evilhack")
    assert texts.keys() == want.keys()
