"""dgn layout --target nle against NLE itself, live.

Each case starts a real NLE 1.3.0 game (NetHack 3.6.7, from the package
registry) in wizard mode with the case's seeds and character, asks the
game for its own dungeon overview (`#wizwhere`), reads it from the game's
terminal output (the ttyrec, so no line is lost to paging) and compares it,
line for line, with `dgn layout --target nle ... --wizard`. The hero the
game welcomes must be the one dgnkit names.

Run by scripts/test-nle (a virtual environment with nle and pytest);
DGN is the dgn binary.
"""

import os
import subprocess

import pytest

pytest.importorskip("nle.nethack")

from nlegame import nle_start  # noqa: E402

DGN = os.environ.get("DGN", "dgn")

# (core, disp, lgen, character options): other cores and lgen seeds than
# ../shared/expected/nle, every role, random heroes, and display seeds
# that must not matter.
CASES = [
    (7, 0, None, ["role:arc", "race:dwa", "gender:fem", "align:law"]),
    (7, 99, None, ["role:arc", "race:dwa", "gender:fem", "align:law"]),
    (11, 0, None, ["role:bar", "race:hum", "gender:mal", "align:neu"]),
    (12, 0, None, ["role:cav", "race:gno", "gender:fem", "align:neu"]),
    (13, 0, None, ["role:hea", "race:hum", "gender:mal", "align:neu"]),
    (14, 0, 5, ["role:kni", "race:hum", "gender:fem", "align:law"]),
    (15, 0, None, ["role:mon", "race:hum", "gender:mal", "align:cha"]),
    (16, 0, None, ["role:pri", "race:hum", "gender:fem", "align:law"]),
    (17, 3, 123456789, ["role:pri", "race:elf", "gender:mal", "align:cha"]),
    (18, 0, None, ["role:rog", "race:hum", "gender:fem", "align:cha"]),
    (19, 0, None, ["role:ran", "race:gno", "gender:mal", "align:neu"]),
    (20, 0, None, ["role:sam", "race:hum", "gender:mal", "align:law"]),
    (21, 0, None, ["role:tou", "race:hum", "gender:fem", "align:neu"]),
    (22, 0, 2**40 + 3, ["role:val", "race:hum", "gender:fem", "align:neu"]),
    (23, 0, None, ["role:wiz", "race:orc", "gender:mal", "align:cha"]),
    (4242, 0, None, ["role:random", "race:random", "gender:random", "align:random"]),
    (4243, 7, None, ["role:random", "race:random", "gender:random", "align:random"]),
    (4244, 0, 77, ["role:random", "race:random", "gender:random", "align:random"]),
    (4245, 0, None, ["role:val", "race:random", "gender:random", "align:random"]),
    (4246, 0, None, ["role:random", "race:elf", "gender:random", "align:random"]),
]


def dgn_layout(core, lgen, options, playername=None):
    args = [DGN, "layout", "--target", "nle", "--seed", str(core), "--wizard"]
    if playername is not None:
        args += ["--option", f"name={playername}"]
    if lgen is not None:
        args += ["--option", f"lgen={lgen}"]
    for o in options:
        key, value = o.split(":")
        args += [f"--{key}", value]
    p = subprocess.run(args, capture_output=True, text=True, check=True)
    lines = [l.rstrip() for l in p.stdout.splitlines() if l.strip()]
    return p.stderr, lines


@pytest.mark.parametrize("core,disp,lgen,options", CASES)
def test_dgn_prints_nle_s_own_overview(core, disp, lgen, options):
    welcome, want = nle_start(core, disp, lgen, options)
    said, got = dgn_layout(core, lgen, options)
    assert got == want
    assert f"you are a {welcome}." in said


# (core, player name, character options) that leave facets to the game's
# "Shall I pick ...?", which NLE answers `y`: wizard mode drops the name's
# suffix (the name becomes `wizard`), so NLE's default hero and its `@`
# are asked for there; and options naming only some facets.
PROMPTED = [
    (7, "Agent-mon-hum-neu-mal", []),
    (9, "Agent-mon-hum-neu-mal", []),
    (8, "Agent-@", ["race:random", "gender:random", "align:random"]),
    (12, "Agent-@", ["race:random", "gender:random", "align:random"]),
    (5, "Agent", ["role:val"]),
    (6, "Agent", ["race:elf"]),
    (31, "Agent", ["gender:fem", "align:cha"]),
    (32, "Agent", ["role:pri", "align:random"]),
]


@pytest.mark.parametrize("core,playername,options", PROMPTED)
def test_a_hero_the_game_asks_for_is_picked_as_nle_answers(core, playername, options):
    welcome, want = nle_start(core, 0, None, options, playername)
    said, got = dgn_layout(core, None, options, playername)
    assert f"you are a {welcome}." in said
    assert got == want


def test_the_display_seed_does_not_move_the_dungeon():
    options = ["role:random", "race:random", "gender:random", "align:random"]
    a = nle_start(99, 0, None, options)
    b = nle_start(99, 123456, None, options)
    assert a == b
