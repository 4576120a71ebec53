"""A real NLE game's start, read back: the hero it welcomes and its own
`#wizwhere` overview. Shared by tests/nle (the dgn binary) and
python/tests (the Python package's dgnkit.nle).

The overview is read from the game's terminal output (its ttyrec), so no
line is lost to paging.
"""

import bz2
import glob
import os
import re
import struct
import tempfile

import nle.nethack as nh

ANSI = re.compile(rb"\x1b\[[0-9;]*[A-Za-z]")
_CHARS = list(nh.OBSERVATION_DESC).index("tty_chars")
_STATE = list(nh.OBSERVATION_DESC).index("program_state")


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


def to_moveloop(nethack, obs):
    """Answers what the start asks with a space, as NLE's own reset() does
    (base.py), until the game is in its move loop; then dismisses a
    pending --More--."""
    for _ in range(100):
        if obs[_STATE][3]:
            break
        obs, _done = nethack.step(ord(" "))
    for _ in range(10):
        screen = bytes(obs[_CHARS].ravel().tolist())
        if b"--More--" not in screen:
            break
        obs, _done = nethack.step(ord("\r"))
    return obs


def ask_wizwhere(nethack):
    for key in "#wizwhere\r":
        nethack.step(ord(key))
    for _ in range(8):
        nethack.step(ord("\r"))


def read_start(out):
    """(welcome, #wizwhere lines) from a game's terminal output."""
    # The welcome can wrap onto a second line.
    plain = b" ".join(ANSI.sub(b" ", out).split())
    welcome = re.search(rb"You are an? ([^.]*)\.", plain).group(1).decode()
    start = out.rindex(b"The Dungeons of Doom")
    end = out.rindex(b"Floating branches")
    end = out.index(b"--More--", end)
    lines = []
    for piece in re.split(rb"\r\x1b\[B|--More--", out[start:end]):
        text = ANSI.sub(b"", piece).decode().rstrip()
        if text.strip():
            lines.append(text)
    return welcome, lines


def nle_start(core, disp, lgen, options, playername="Agent"):
    """The welcome and the #wizwhere lines of a bare nle.nethack.Nethack in
    wizard mode with these seeds, character options and player name."""
    with tempfile.TemporaryDirectory() as d:
        rec = os.path.join(d, "game.ttyrec.bz2")
        env = nh.Nethack(
            playername=playername,
            wizard=True,
            ttyrec=rec,
            options=list(nh.NETHACKOPTIONS) + options,
        )
        if lgen is None:
            env.set_initial_seeds(core, disp, False)
        else:
            env.set_initial_seeds(core, disp, False, lgen)
        to_moveloop(env, env.reset())
        ask_wizwhere(env)
        env.close()
        return read_start(ttyrec_output(rec))


def gym_start(make, core, disp, lgen):
    """A gymnasium NLE environment made by `make(savedir)`, seeded and
    reset: (env, read) where read() asks #wizwhere, closes the env and
    returns (welcome, lines)."""
    d = tempfile.mkdtemp(prefix="dgnkit-nle-")
    env = make(d)
    env.unwrapped.seed(core, disp, False, lgen)
    env.reset()

    def read():
        nethack = env.unwrapped.nethack
        to_moveloop(nethack, nethack.step(ord("\x1b"))[0])
        ask_wizwhere(nethack)
        env.close()
        (rec,) = glob.glob(os.path.join(d, "**", "*.ttyrec*.bz2"), recursive=True)
        return read_start(ttyrec_output(rec))

    return env, read
