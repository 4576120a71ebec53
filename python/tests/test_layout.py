"""layout, layouts and overview answer what `dgn layout` prints."""

import json

import pytest

import dgnkit
from conftest import ROOT

GAMES = [
    ("nethack-3.4.3", []),
    ("nethack-3.6", []),
    ("nethack-3.7", []),
    ("nethack-5.0", []),
    ("nle", []),
    ("evilhack", []),
    ("unnethack", []),
    ("dnethack", ["--role", "Val"]),
    ("gnollhack", []),
    ("xnethack", []),
]


def kwargs_of(args):
    kw = {}
    for flag, value in zip(args[::2], args[1::2]):
        kw[flag.lstrip("-").replace("-", "_")] = value
    return kw


@pytest.mark.parametrize("game,args", GAMES)
@pytest.mark.parametrize("seed", [0, 42, 977])
def test_a_layout_is_the_command_s_json(dgn_json, game, args, seed):
    want = dgn_json("layout", "--target", game, "--seed", seed, "--format", "json", *args)
    got = dgnkit.layout(game=game, seed=seed, **kwargs_of(args))
    assert got == want
    assert json.dumps(got, separators=(",", ":")) == json.dumps(want, separators=(",", ":"))


@pytest.mark.parametrize(
    "kw,args",
    [
        ({"wizard": True}, ["--wizard"]),
        ({"rng": "glibc"}, ["--rng", "glibc"]),
        ({"trace": True}, ["--trace"]),
        ({"game": "nle", "options": {"lgen": 7}, "role": "val", "race": "hum", "gender": "fem", "align": "law"},
         ["--target", "nle", "--option", "lgen=7", "--role", "val", "--race", "hum", "--gender", "fem", "--align", "law"]),
        ({"game": "nle", "options": ["name=Agent-@"]}, ["--target", "nle", "--option", "name=Agent-@"]),
        ({"game": "nethack-3.6", "game_start": True, "role": "random"},
         ["--target", "nethack-3.6", "--game-start", "--role", "random"]),
        ({"game": "unnethack", "define": ["REINCARNATION"]}, ["--target", "unnethack", "-D", "REINCARNATION"]),
    ],
)
def test_the_loader_s_inputs_mean_what_the_options_mean(dgn_json, kw, args):
    assert dgnkit.layout(seed=5, **kw) == dgn_json("layout", "--seed", 5, "--format", "json", *args)


def test_a_description_is_a_path_its_text_or_its_bytes(dgn, dgn_json, tmp_path):
    path = ROOT / "corpus" / "evilhack-0.9.def"
    want = dgn_json("layout", "--target", "evilhack", "--seed", 3, "--format", "json", path)
    assert dgnkit.layout(path, game="evilhack", seed=3) == want
    assert dgnkit.layout(str(path), game="evilhack", seed=3) == want
    assert dgnkit.layout(path.read_text(), game="evilhack", seed=3) == want
    assert dgnkit.layout(path.read_bytes(), game="evilhack", seed=3) == want
    # A compiled file: bytes that are not text.
    compiled = tmp_path / "dungeon"
    status, _, err = dgn("compile", "--target", "nethack-3.6", ROOT / "corpus" / "nethack-3.6.def", "-o", compiled)
    assert status == 0, err
    want = dgn_json("layout", "--seed", 9, "--format", "json", compiled)
    assert dgnkit.layout(compiled, seed=9) == want
    assert dgnkit.layout(compiled.read_bytes(), seed=9) == want
    lua = ROOT / "corpus" / "nethack-3.7.lua"
    assert dgnkit.layout(lua.read_text(), game="nethack-3.7", seed=1) == dgn_json(
        "layout", "--target", "nethack-3.7", "--seed", 1, "--format", "json", lua
    )


@pytest.mark.parametrize("game", ["nethack-3.6", "nethack-3.7", "nle", "dnethack", "unnethack"])
def test_layouts_are_the_command_s_json_lines(dgn_json, game):
    want = dgn_json("layout", "--target", game, "--seeds", "100..400", lines=True)
    assert list(dgnkit.layouts(range(100, 400), game=game)) == want
    assert list(dgnkit.layouts(range(100, 400), game=game, jobs=None)) == want
    picked = [399, 100, 250, 250]
    assert list(dgnkit.layouts(picked, game=game)) == [want[s - 100] for s in picked]
    assert list(dgnkit.layouts(iter(picked), game=game)) == [want[s - 100] for s in picked]
    assert list(dgnkit.layouts([], game=game)) == []


def test_a_seed_the_loader_cannot_lay_out(dgn, dgn_json):
    path = ROOT / "corpus" / "placement-may-not-fit.def"
    lines = dgn_json("layout", "--seeds", "0..200", path, lines=True, ok=(0, 1))
    failed = [l for l in lines if "error" in l]
    assert failed, "the example fails on some seed"
    assert list(dgnkit.layouts(range(0, 200), path)) == lines
    seed = failed[0]["seed"]
    with pytest.raises(dgnkit.DgnError) as e:
        dgnkit.layout(path, seed=seed)
    assert e.value.code == failed[0]["error"]["code"]
    assert e.value.status == 1
    _, _, err = dgn("layout", "--seed", seed, path)
    assert e.value.message == err.strip()


@pytest.mark.parametrize("game", ["nethack-3.4.3", "nethack-3.6", "nethack-3.7", "nle", "unnethack", "dnethack"])
def test_overview_is_the_game_s_wizwhere(dgn, game):
    extra = ["--role", "Val"] if game == "dnethack" else []
    _, want, _ = dgn("layout", "--target", game, "--seed", 42, "--wizard", *extra)
    lay = dgnkit.layout(game=game, seed=42, wizard=True, **kwargs_of(extra))
    assert dgnkit.overview(lay) == want.decode()
    # A plain dict (a layout from layouts(), or read back from JSON) needs
    # the game unless it is NetHack 3.6's.
    assert dgnkit.overview(json.loads(json.dumps(lay)), game=game) == want.decode()


def test_a_layout_is_a_dict_that_pickles():
    import pickle

    lay = dgnkit.layout(game="nethack-3.7", seed=1)
    assert isinstance(lay, dict)
    back = pickle.loads(pickle.dumps(lay))
    assert back == lay and back.game == "nethack-3.7"


def test_each_layout_is_its_own():
    a, b = list(dgnkit.layouts([3, 3]))
    a["levels"][0]["level"] = -1
    a["branches"][0]["end1"]["level"] = -1
    assert b["levels"][0]["level"] != -1
    assert b["branches"][0]["end1"]["level"] != -1
    assert next(dgnkit.layouts([3]))["levels"][0]["level"] != -1
