"""dgnkit.nle.layout(env) is NLE's own dungeon, read from live episodes of
NLE 1.3.0 (pip install nle==1.3.0: a real NetHack 3.6.7)."""

import sys

import pytest

from conftest import ROOT

pytest.importorskip("nle.nethack", reason="NLE is not installed (pip install nle==1.3.0)")
gym = pytest.importorskip("gymnasium")
import nle  # noqa: E402,F401  (registers NetHackScore-v0)
import nle.nethack as nh  # noqa: E402

import dgnkit  # noqa: E402
import dgnkit.nle  # noqa: E402

sys.path.insert(0, str(ROOT / "tests" / "nle"))
from nlegame import ask_wizwhere, gym_start, read_start, to_moveloop, ttyrec_output  # noqa: E402


def overview_lines(lay):
    return [l.rstrip() for l in dgnkit.overview(lay, game="nle").splitlines() if l.strip()]


@pytest.mark.parametrize(
    "core,disp,lgen,character",
    [
        (1, 2, None, "mon-hum-neu-mal"),  # NLE's default hero: the game asks in wizard mode
        (7, 1, None, "mon-hum-neu-mal"),
        (8, 1, None, "@"),  # NLE's random hero
        (19, 5, None, "@"),
        (42, 0, 7, "val-dwa-fem-law"),
        (43, 9, 7, "val-dwa-fem-law"),
        (5, 5, 2**40 + 1, "@"),
    ],
)
def test_a_gym_episode_in_wizard_mode(core, disp, lgen, character):
    env, read = gym_start(
        lambda d: gym.make("NetHackScore-v0", wizard=True, character=character, savedir=d, save_ttyrec_every=1),
        core,
        disp,
        lgen,
    )
    lay = dgnkit.nle.layout(env)
    welcome, lines = read()
    assert lay["character"]["text"] == welcome
    assert overview_lines(lay) == lines


@pytest.mark.parametrize(
    "core,playername,options",
    [
        (3, "Agent", ["role:arc", "race:dwa", "gender:fem", "align:law"]),
        (4, "Agent", ["role:random", "race:random", "gender:random", "align:random"]),
        (6, "Agent", ["race:elf"]),
        (11, "Agent-mon-hum-neu-mal", []),
    ],
)
def test_a_bare_nethack(tmp_path, core, playername, options):
    rec = tmp_path / "game.ttyrec.bz2"
    env = nh.Nethack(playername=playername, wizard=True, ttyrec=str(rec), options=list(nh.NETHACKOPTIONS) + options)
    env.set_initial_seeds(core, 3, False)
    obs = env.reset()
    lay = dgnkit.nle.layout(env)
    to_moveloop(env, obs)
    ask_wizwhere(env)
    env.close()
    welcome, lines = read_start(ttyrec_output(rec))
    assert lay["character"]["text"] == welcome
    assert overview_lines(lay) == lines


@pytest.mark.parametrize("character", ["mon-hum-neu-mal", "@", "sam", "wiz-elf"])
def test_outside_wizard_mode_the_name_chooses_the_hero(character):
    env = gym.make("NetHackScore-v0", character=character)
    env.unwrapped.seed(77, 3, False)
    obs, _ = env.reset()
    message = bytes(obs["message"].tolist()).decode("latin1").strip("\0")
    lay = dgnkit.nle.layout(env)
    env.close()
    assert f"You are a{'n' if lay['character']['text'][0] in 'aeiou' else ''} {lay['character']['text']}." in message
    if character != "@":
        # The name alone says the hero (NLE adds random facets for `@`).
        assert lay == dgnkit.layout(game="nle", seed=77, options={"name": f"Agent-{character}"})


def test_an_env_without_seeds_or_that_reseeds():
    env = gym.make("NetHackScore-v0")
    with pytest.raises(dgnkit.DgnError, match="no seeds yet"):
        dgnkit.nle.layout(env)
    env.reset()  # seeded by NLE from true randomness, and reseeding
    with pytest.raises(dgnkit.DgnError, match="reseeds"):
        dgnkit.nle.layout(env)
    env.unwrapped.seed(5, 5, True)
    env.reset()
    with pytest.raises(dgnkit.DgnError, match="reseeds"):
        dgnkit.nle.layout(env)
    env.close()
    with pytest.raises(dgnkit.DgnError, match="neither an NLE environment"):
        dgnkit.nle.layout(object())


def test_arguments_are_what_the_cli_takes():
    env = gym.make("NetHackScore-v0", character="@")
    env.unwrapped.seed(12, 0, False, 99)
    env.reset()
    args = dgnkit.nle.arguments(env)
    env.close()
    assert args["seed"] == 12 and args["options"]["lgen"] == 99 and args["options"]["name"] == "Agent-@"
    assert (args["race"], args["gender"], args["align"]) == ("random", "random", "random")
    assert args["wizard"] is False
