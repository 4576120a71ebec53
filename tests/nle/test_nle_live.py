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

import bz2
import os
import re
import struct
import subprocess
import tempfile

import pytest

nh = pytest.importorskip("nle.nethack")

DGN = os.environ.get("DGN", "dgn")
ANSI = re.compile(rb"\x1b\[[0-9;]*[A-Za-z]")

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


def ttyrec_output(path):
    """The terminal output (channel 0) of an NLE ttyrec."""
    raw = bz2.open(path).read()
    out, i = bytearray(), 0
    while i + 13 <= len(raw):
        _sec, _usec, n = struct.unpack("<iii", raw[i : i + 12])
        channel = raw[i + 12]
        i += 13
        if channel == 0:
            out += raw[i : i + n]
        i += n
    return bytes(out)


def nle_start(core, disp, lgen, options):
    """The game's welcome and its #wizwhere lines."""
    with tempfile.TemporaryDirectory() as d:
        rec = os.path.join(d, "game.ttyrec.bz2")
        env = nh.Nethack(
            playername="Agent",
            wizard=True,
            ttyrec=rec,
            options=list(nh.NETHACKOPTIONS) + options,
        )
        if lgen is None:
            env.set_initial_seeds(core, disp, False)
        else:
            env.set_initial_seeds(core, disp, False, lgen)
        obs = env.reset()
        # A start can leave a message pending (--More--): dismiss it.
        chars = list(nh.OBSERVATION_DESC).index("tty_chars")
        for _ in range(10):
            screen = bytes(obs[chars].ravel().tolist())
            if b"--More--" not in screen:
                break
            obs, _done = env.step(ord("\r"))
        for key in "#wizwhere\r":
            env.step(ord(key))
        for _ in range(8):
            env.step(ord("\r"))
        env.close()
        out = ttyrec_output(rec)
    # The welcome can wrap onto a second line.
    plain = b" ".join(ANSI.sub(b" ", out).split())
    welcome = re.search(rb"You are an? ([^.]*)\.", plain).group(1).decode()
    start = out.index(b"The Dungeons of Doom")
    end = out.rindex(b"Floating branches")
    end = out.index(b"--More--", end)
    lines = []
    for piece in re.split(rb"\r\x1b\[B|--More--", out[start:end]):
        text = ANSI.sub(b"", piece).decode().rstrip()
        if text.strip():
            lines.append(text)
    return welcome, lines


def dgn_layout(core, lgen, options):
    args = [DGN, "layout", "--target", "nle", "--seed", str(core), "--wizard"]
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


def test_the_display_seed_does_not_move_the_dungeon():
    options = ["role:random", "race:random", "gender:random", "align:random"]
    a = nle_start(99, 0, None, options)
    b = nle_start(99, 123456, None, options)
    assert a == b
