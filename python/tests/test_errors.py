"""Errors are DgnError (a ValueError) with the command's own message."""

import pickle

import pytest

import dgnkit
from dgnkit import _native


def test_an_unknown_game_is_the_command_line_s_message(dgn):
    with pytest.raises(dgnkit.DgnError) as e:
        dgnkit.layout(game="nethack-9")
    _, _, err = dgn("layout", "--target", "nethack-9")
    assert isinstance(e.value, ValueError)
    assert e.value.code == "usage" and e.value.status == 2
    assert "unknown target `nethack-9`" in e.value.message
    assert e.value.message.splitlines()[0] == err.splitlines()[0]
    for call in (
        lambda: dgnkit.stats(game="nope"),
        lambda: dgnkit.find("bigrm", seeds=range(0, 9), game="nope"),
        lambda: dgnkit.bones(game="nope"),
        lambda: dgnkit.check("", game="nope"),
        lambda: list(dgnkit.xlog(b"", game="nope")),
        lambda: list(dgnkit.layouts(range(3), game="nope")),
    ):
        with pytest.raises(dgnkit.DgnError, match="nope"):
            call()


def test_a_description_with_errors_carries_its_diagnostics(dgn):
    text = 'DUNGEON: "The Dungeons of Doom" "D" (25, 5)\nLEVEL: "foo" "none" @ (99)\n'
    with pytest.raises(dgnkit.DgnError) as e:
        dgnkit.layout(text)
    assert e.value.code == "E0109" and e.value.status == 1
    assert "has errors" in e.value.message
    assert [d["code"] for d in e.value.diagnostics if d["severity"] == "error"] == ["E0109"]
    assert e.value.diagnostics[-1]["line"] == 2
    with pytest.raises(dgnkit.DgnError) as e:
        dgnkit.stats(text)
    assert e.value.code == "E0109"


@pytest.mark.parametrize(
    "call",
    [
        lambda: dgnkit.layout(b"\xff\xfe\x00garbage"),
        lambda: dgnkit.layout("DUNGEON:"),
        lambda: dgnkit.layout(seed=-1),
        lambda: dgnkit.layout(role="Xyzzy", game="nethack-3.6", game_start=True),
        lambda: dgnkit.layout(options={"nosuch": 1}),
        lambda: dgnkit.layout("/no/such/dungeon.def"),
        lambda: dgnkit.stats(given="oracle.depth =="),
        lambda: dgnkit.stats(given_overview="not an overview\n"),
        lambda: dgnkit.overview({"not": "a layout"}),
        lambda: dgnkit.overview(dgnkit.layout(), game="nope"),
        lambda: dgnkit.diff("DUNGEON:", "DUNGEON:"),
        lambda: list(dgnkit.layouts([-5])),
    ],
)
def test_bad_input_is_an_error_never_a_crash(call):
    with pytest.raises((dgnkit.DgnError, OverflowError)) as e:
        call()
    if isinstance(e.value, dgnkit.DgnError):
        assert e.value.message and e.value.code and e.value.status in (1, 2)


def test_a_type_that_is_no_description():
    with pytest.raises(TypeError):
        dgnkit.layout(12)


def test_a_panic_is_an_answer_not_a_crash():
    status, err = _native._panic_in_worker("a bug")
    assert status == 101 and "internal error" in err and "a bug" in err
    e = dgnkit._Call("layout").error(status, err)
    assert isinstance(e, dgnkit.DgnError) and e.code == "internal"


def test_errors_pickle():
    e = dgnkit.DgnError("m", code="E0109", status=1, diagnostics=[{"code": "E0109"}])
    back = pickle.loads(pickle.dumps(e))
    assert (back.message, back.code, back.status, back.diagnostics) == ("m", "E0109", 1, [{"code": "E0109"}])


def test_loads_lines_reads_what_json_reads():
    import json
    import random

    rng = random.Random(5)

    def value(depth=0):
        kind = rng.randrange(8 if depth < 4 else 5)
        if kind == 0:
            return rng.choice([None, True, False])
        if kind == 1:
            return rng.randint(-(2**70), 2**70)
        if kind == 2:
            return rng.choice([0.1, -2.5e-300, 1e308, 3.141592653589793, rng.random()])
        if kind == 3:
            return "".join(rng.choice('ab"\\\n\t\u00e9\u4e2d\U0001f600/{}[]') for _ in range(rng.randrange(6)))
        if kind == 4:
            return rng.randrange(100)
        if kind in (5, 6):
            return {value(9) if False else f"k{rng.randrange(5)}": value(depth + 1) for _ in range(rng.randrange(4))}
        return [value(depth + 1) for _ in range(rng.randrange(4))]

    docs = [value() for _ in range(400)]
    for ensure_ascii in (True, False):
        text = "\n".join(json.dumps(d, ensure_ascii=ensure_ascii) for d in docs).encode()
        assert _native.loads_lines(text) == [json.loads(json.dumps(d)) for d in docs]
    for bad in [b"{", b"[1,]", b'{"a" 1}', b"01", b"1.", b"tru", b'"\\x"', b'"\\ud800"', b"\xff", b"1 2"]:
        with pytest.raises(ValueError):
            _native.loads_lines(bad)


def test_loads_lines_reads_lines_that_repeat_as_json_reads_them():
    """What the reader takes from the lines before (a key's successor, a
    key's last value, an object's shape) gives what json.loads gives:
    keys that repeat in one object, escapes, spaces, values that change."""
    import json
    import random

    rng = random.Random(7)
    keys = ["version", "points", "name", "a", 'q"uote', "back\\slash", "a_rather_long_key_name", "\u00e9", "", "role"]
    values = ['"Val"', '"3.6.1"', '"x\\"y"', '"\\u00e9"', '"a value longer than sixteen bytes"', "1", "-2", "0.5",
              "null", "true", "[1,2]", '{"p":0.25}', '"1234"', '""', '[{"name":"bigrm","p":0.5},{"name":"oracle","p":0.5}]']
    shapes = [keys[:6], keys[:8], keys[2:], keys[:6] + ["a"], ["name"] * 7, keys[:6][::-1], keys[:3]]
    lines = []
    for i in range(3000):
        shape = rng.choice(shapes)
        members = []
        for j, k in enumerate(shape):
            v = rng.choice(values) if rng.random() < 0.3 else values[(j * 7 + len(k)) % len(values)]
            members.append(json.dumps(k) + (": " if rng.random() < 0.05 else ":") + v)
        obj = "{" + ("," if rng.random() < 0.95 else ", ").join(members) + "}"
        lines.append(obj if rng.random() < 0.5 else '{"line":%d,"fields":%s,"rows":[%s,%s]}' % (i, obj, obj, obj))
    text = "\n".join(lines).encode()
    assert _native.loads_lines(text) == [json.loads(line) for line in lines]
