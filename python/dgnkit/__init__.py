"""dgnkit: NetHack's dungeon descriptions in Python.

Each function is a ``dgn`` command and answers what ``dgn <command> --format
json`` prints, parsed: the same names and defaults as the command line
(``game=`` is ``--target``), the same numbers, the same errors. The work is
done in Rust, without the GIL, so Python threads run searches side by side
and Ctrl-C stops a long one.

    >>> import dgnkit
    >>> lay = dgnkit.layout(game="nethack-3.6", seed=42)
    >>> print(dgnkit.overview(lay))                    # doctest: +SKIP
    The Dungeons of Doom: levels 1 to 25 ...
    >>> [m["seed"] for m in dgnkit.find("bigrm", seeds=range(0, 40))]
    [10, 13, 17, 24, 25, 29, 30, 32, 37, 39]

A description (``description=``, and ``check``'s, ``diff``'s texts) is a
path (a ``str`` without a newline naming a file, or an ``os.PathLike``),
the text itself, or its bytes; without one, the game's own built-in
description is used, as ``dgn`` does.

Errors raise :class:`DgnError`, a :class:`ValueError`.
"""

from __future__ import annotations

import json as _json
import os as _os

from . import _native

__version__ = _native.__version__

__all__ = [
    "DgnError",
    "Layout",
    "bones",
    "check",
    "diff",
    "find",
    "layout",
    "layouts",
    "overview",
    "stats",
    "xlog",
]

# Exit statuses, as ``dgn``'s.
_EXIT_INPUT = 1
_EXIT_USAGE = 2
_EXIT_PANIC = 101


class DgnError(ValueError):
    """A command that failed, as ``dgn`` would exit non-zero.

    Attributes:
        code: a stable code: the first error diagnostic's (``E0109``), the
            loader's failure (``L...``) for a seed NetHack cannot lay out,
            ``"usage"`` for a call ``dgn`` refuses (an unknown game, a bad
            option), ``"input"`` for other bad input, ``"internal"`` for a
            bug in dgnkit.
        message: what ``dgn`` said, as it said it on standard error.
        diagnostics: the description's diagnostics, as ``check`` gives
            them (dicts with ``code``, ``severity``, ``message``, ``line``,
            ``column``, ...); empty when the description is not at fault.
        status: the exit status ``dgn`` gives (1 bad input, 2 usage).
    """

    def __init__(self, message, *, code, status, diagnostics=()):
        super().__init__(message)
        self.message = message
        self.code = code
        self.status = status
        self.diagnostics = list(diagnostics)

    def __reduce__(self):
        # Dask and multiprocessing send exceptions between processes.
        return (
            _rebuild_error,
            (self.message, self.code, self.status, self.diagnostics),
        )


def _rebuild_error(message, code, status, diagnostics):
    return DgnError(message, code=code, status=status, diagnostics=diagnostics)


# --- parameters -----------------------------------------------------------


def _is_path(value) -> bool:
    if isinstance(value, _os.PathLike):
        return True
    if not isinstance(value, str) or "\n" in value or not value.strip():
        return False
    if _os.path.exists(value):
        return True
    # A name that reads as a file the user meant, though it does not exist:
    # say so, rather than check the name as a description.
    return value.endswith((".def", ".lua", ".dat", ".xlog", ".txt", ".gz")) or _os.sep in value


def _read(path, command: str) -> bytes:
    try:
        with open(path, "rb") as f:
            return f.read()
    except OSError as e:
        shown = _os.fspath(path)
        raise DgnError(
            f"dgn {command}: cannot read `{shown}`: {e.strerror or e}",
            code="usage",
            status=_EXIT_USAGE,
        ) from None


class _Call:
    """One endpoint's parameters and texts, built from keywords."""

    def __init__(self, endpoint: str):
        self.endpoint = endpoint
        self.params: dict = {}
        self.texts: dict = {}

    def set(self, key: str, value) -> "_Call":
        if value is None or value is False:
            return self
        if isinstance(value, _os.PathLike):
            value = _os.fspath(value)
        self.params[key] = value
        return self

    def many(self, key: str, values) -> "_Call":
        if values is None:
            return self
        if isinstance(values, (str, bytes)):
            values = [values]
        self.params[key] = [str(v) for v in values]
        return self

    def text(self, key: str, value, name_key: str | None = None, name=None) -> "_Call":
        """A description or other text: a path, the text, or its bytes."""
        if value is None:
            return self
        if _is_path(value):
            self.texts[key] = _read(value, self.endpoint)
            if name_key:
                self.params[name_key] = name or _os.fspath(value)
        elif isinstance(value, (bytes, bytearray, memoryview)):
            self.texts[key] = bytes(value)
            if name_key and name:
                self.params[name_key] = name
        elif isinstance(value, str):
            self.params[key] = value
            if name_key and name:
                self.params[name_key] = name
        else:
            raise TypeError(
                f"dgnkit.{self.endpoint}: {key} is a path, a str or bytes, not {type(value).__name__}"
            )
        return self

    def common(self, game, dialect, define, undefine) -> "_Call":
        return self.set("game", game).set("dialect", dialect).many("define", define).many("undefine", undefine)

    def loader(self, role, race, gender, align, options, game_start, wizard, rng) -> "_Call":
        self.set("role", role).set("race", race).set("gender", gender).set("align", align)
        if isinstance(options, dict):
            options = [f"{k}={v}" for k, v in options.items()]
        return self.many("option", options).set("game_start", game_start).set("wizard", wizard).set("rng", rng)

    def _params(self) -> str:
        return _json.dumps(self.params)

    def run(self) -> bytes:
        status, out, err = _native.call(self.endpoint, self._params(), self.texts)
        if status != 0:
            raise self.error(status, err, out)
        return out

    def stream(self, input=None):
        """The command's JSON lines as it prints them; `input` is a file it
        reads as it goes (an xlogfile) instead of the `text` parameter."""
        return _native.stream(self.endpoint, self._params(), self.texts, input)

    def error(self, status: int, message: str, out: bytes = b"") -> DgnError:
        message = message.strip()
        if status == _EXIT_PANIC:
            return DgnError(message, code="internal", status=status)
        if status == _EXIT_USAGE:
            return DgnError(message, code="usage", status=status)
        diagnostics = self.diagnostics() if "has errors" in message else []
        errors = [d for d in diagnostics if d.get("severity") == "error"]
        code = errors[0]["code"] if errors else None
        if code is None:
            for line in _native.loads_lines(out) if out else []:
                if isinstance(line, dict) and isinstance(line.get("error"), dict):
                    code = line["error"].get("code")
                    break
        return DgnError(message or f"dgn {self.endpoint} failed", code=code or "input", status=status, diagnostics=diagnostics)

    def diagnostics(self) -> list:
        """The description's diagnostics, by ``dgn check``."""
        check = _Call("check")
        for key in ("game", "target", "dialect", "define", "undefine", "name"):
            if key in self.params:
                check.params[key] = self.params[key]
        if "text" in self.texts:
            check.texts["text"] = self.texts["text"]
        elif "text" in self.params:
            check.params["text"] = self.params["text"]
        else:
            return []
        status, out, _ = _native.call("check", check._params(), check.texts)
        if status == _EXIT_USAGE or not out:
            return []
        return [d for f in _native.loads_lines(out)[0]["files"] for d in f["diagnostics"]]


class Layout(dict):
    """A layout as ``dgn layout --format json`` gives it (a plain ``dict``
    to compare, print or serialise), remembering the game it was laid out
    for, so that :func:`overview` prints it as that game does."""

    __slots__ = ("game",)


def _one(out: bytes):
    values = _native.loads_lines(out)
    return values[0] if len(values) == 1 else values


def _seeds_param(seeds) -> str:
    """``--seeds``: a range as ``A..B`` when it is one, else a list."""
    if isinstance(seeds, range) and seeds.step == 1:
        return f"{seeds.start}..{max(seeds.start, seeds.stop)}"
    if isinstance(seeds, int):
        return str(seeds)
    listed = [int(s) for s in seeds]
    if any(s < 0 for s in listed):
        raise DgnError("dgnkit: a seed is 0 or more", code="usage", status=_EXIT_USAGE)
    return ",".join(map(str, listed))


# --- the commands ---------------------------------------------------------


def layout(
    description=None,
    *,
    game=None,
    seed=0,
    role=None,
    race=None,
    gender=None,
    align=None,
    options=None,
    game_start=False,
    wizard=False,
    rng=None,
    trace=False,
    dialect=None,
    define=None,
    undefine=None,
    name=None,
):
    """One seed's dungeon: ``dgn layout --format json``, as a dict.

    ``seed`` defaults to 0, as ``dgn layout``'s. ``trace=True`` adds the
    draw log (``rng_calls``). A seed NetHack's loader cannot lay out raises
    :class:`DgnError` with the loader's code.
    """
    c = _Call("layout").common(game, dialect, define, undefine)
    c.loader(role, race, gender, align, options, game_start, wizard, rng)
    c.set("seed", int(seed)).set("trace", trace).set("format", "json")
    c.text("text", description, "name", name)
    answer = Layout(_one(c.run()))
    answer.game = game
    return answer


def layouts(
    seeds,
    description=None,
    *,
    game=None,
    role=None,
    race=None,
    gender=None,
    align=None,
    options=None,
    game_start=False,
    wizard=False,
    rng=None,
    dialect=None,
    define=None,
    undefine=None,
    name=None,
    jobs=1,
):
    """Many seeds' dungeons, in order: ``dgn layout --seeds ... --format json``.

    ``seeds`` is a ``range`` or any iterable of seeds (taken in its
    order). Yields one dict per seed; a seed the loader cannot lay out
    yields ``{"seed": N, "error": {...}}``, as ``dgn`` prints it. The loop
    runs in Rust on ``jobs`` threads (default 1: the calling thread's
    core); ``jobs=None`` is ``dgn``'s default, one per core.
    """
    seeds = _seeds_param(seeds)
    c = _Call("layout").common(game, dialect, define, undefine)
    c.loader(role, race, gender, align, options, game_start, wizard, rng)
    c.set("seeds", seeds).set("format", "json")
    if jobs is not None:
        c.set("jobs", int(jobs))
    c.text("text", description, "name", name)
    if not seeds:
        # An empty list: `--seeds` has no spelling for it.
        return iter(())
    return _lines(c)


def _lines(c: _Call, input=None):
    """The values of a command's JSON lines as it prints them. Exit status
    1 with lines printed is an answer (the lines say what failed: a seed's
    `error`, an xlogfile's bad line); without any, or any other failure, it
    is an error."""
    stream = c.stream(input)
    printed = False
    try:
        for values in stream:
            printed = True
            yield from values
        status, err = stream.status
        if status != 0 and not (status == _EXIT_INPUT and printed):
            raise c.error(status, err)
    finally:
        stream.close()


def overview(layout, *, game=None):
    """The ``#wizwhere`` text of a layout (a dict of :func:`layout`), as
    ``dgn layout --format overview`` prints it for ``game`` (default: the
    game ``layout()`` was asked for, else ``nethack-3.6``)."""
    game = game or getattr(layout, "game", None) or "nethack-3.6"
    text = layout if isinstance(layout, str) else _json.dumps(layout)
    status, out, err = _native.overview(text, game)
    if status != 0:
        raise DgnError(err, code="usage", status=status)
    return out


def find(
    query,
    description=None,
    *,
    seeds=None,
    limit=None,
    count=False,
    game=None,
    role=None,
    race=None,
    gender=None,
    align=None,
    options=None,
    game_start=False,
    wizard=False,
    rng=None,
    dialect=None,
    define=None,
    undefine=None,
    name=None,
    jobs=1,
):
    """The seeds whose dungeon satisfies ``query`` (``dgn explain find``).

    Returns the list of ``dgn find --format json``'s lines,
    ``{"seed": N, "values": {...}}``, or with ``count=True`` its summary
    dict (``matched``, ``seeds``, ``fraction``, ``probability``, ...).
    ``seeds`` is a ``range`` with step 1 (default: every seed of the
    generator, as ``dgn find``); ``limit`` stops after that many matches.
    The search runs on ``jobs`` threads (default 1, so that Python threads
    or Dask workers are the parallelism; ``None`` is one per core, as
    ``dgn find``'s default).
    """
    c = _Call("find").common(game, dialect, define, undefine)
    c.loader(role, race, gender, align, options, game_start, wizard, rng)
    c.set("query", str(query))
    if seeds is not None:
        if not isinstance(seeds, range) or seeds.step != 1:
            raise DgnError(
                "dgnkit.find: seeds is a range with step 1, such as range(0, 1000000)",
                code="usage",
                status=_EXIT_USAGE,
            )
        c.set("seeds", _seeds_param(seeds))
    if limit is not None:
        c.set("limit", int(limit))
    c.set("count", bool(count))
    if jobs is not None:
        c.set("jobs", int(jobs))
    c.text("text", description, "name", name)
    values = _native.loads_lines(c.run())
    if count:
        return values[-1]
    return values


def stats(
    description=None,
    *,
    game=None,
    given=None,
    given_overview=None,
    sample=False,
    exact=False,
    samples=None,
    first_seed=None,
    portal_levels=None,
    role=None,
    race=None,
    gender=None,
    align=None,
    options=None,
    game_start=False,
    wizard=False,
    rng=None,
    dialect=None,
    define=None,
    undefine=None,
    name=None,
):
    """Every level's odds over all seeds: ``dgn stats --format json``.

    ``given`` is evidence as ``--given`` takes it (``"oracle.depth == 7 and
    bigrm"``); ``given_overview`` is a player's overview text (or a path to
    one), as ``--given-overview``. The answer has ``given.describe`` and
    ``p_evidence`` then.
    """
    c = _Call("stats").common(game, dialect, define, undefine)
    c.loader(role, race, gender, align, options, game_start, wizard, rng)
    c.set("given", given).set("sample", sample).set("exact", exact)
    c.set("samples", samples).set("first_seed", first_seed).set("portal_levels", portal_levels)
    c.text("given_overview", given_overview)
    c.set("format", "json").text("text", description, "name", name)
    return _one(c.run())


def bones(
    description=None,
    *,
    game=None,
    seed=None,
    portal_levels=None,
    role=None,
    race=None,
    gender=None,
    align=None,
    options=None,
    game_start=False,
    wizard=False,
    rng=None,
    dialect=None,
    define=None,
    undefine=None,
    name=None,
):
    """Which levels can leave bones: ``dgn bones --format json`` (over every
    layout, or one ``seed``'s)."""
    c = _Call("bones").common(game, dialect, define, undefine)
    c.loader(role, race, gender, align, options, game_start, wizard, rng)
    c.set("seed", seed).set("portal_levels", portal_levels)
    c.set("format", "json").text("text", description, "name", name)
    return _one(c.run())


def diff(
    old,
    new,
    *,
    game=None,
    old_game=None,
    new_game=None,
    all=False,
    portal_levels=None,
    role=None,
    race=None,
    gender=None,
    align=None,
    options=None,
    game_start=False,
    wizard=False,
    rng=None,
    dialect=None,
    define=None,
    undefine=None,
    old_name=None,
    new_name=None,
):
    """What changed between two descriptions, for players: ``dgn diff
    --format json``. ``old_game``/``new_game`` are ``--old-target`` and
    ``--new-target``."""
    c = _Call("diff").common(game, dialect, define, undefine)
    c.loader(role, race, gender, align, options, game_start, wizard, rng)
    c.set("old_target", old_game).set("new_target", new_game).set("all", all)
    c.set("portal_levels", portal_levels).set("format", "json")
    c.text("old", old, "old_name", old_name)
    c.text("new", new, "new_name", new_name)
    # A text's kind (dungeon.def or dungeon.lua) is read from it, as for a
    # file without an extension.
    c.params.setdefault("old_name", "old")
    c.params.setdefault("new_name", "new")
    if c.params["old_name"] == c.params["new_name"]:
        c.params["new_name"] += " (new)"
    return _one(c.run())


def check(
    text,
    name=None,
    *,
    game=None,
    dialect=None,
    define=None,
    undefine=None,
    allow=None,
    warn=None,
    deny=None,
):
    """The diagnostics of a description: ``dgn check --format json``'s, as a
    list of dicts (``code``, ``severity``, ``message``, ``line``,
    ``column``, ``start``, ``end``, ``labels``, ``notes``, ``fix``).

    ``text`` is the description (or a path); ``name`` is the file name it
    is checked under, which says its kind (default ``dungeon.def``, or the
    path's). A description with errors is an answer here, not an error.
    """
    c = _Call("check").common(game, dialect, define, undefine)
    c.many("allow", allow).many("warn", warn).many("deny", deny).set("format", "json")
    if _is_path(text):
        c.text("text", text, "name", name)
    else:
        c.text("text", text, "name", name or "dungeon.def")
    status, out, err = _native.call("check", c._params(), c.texts)
    if status not in (0, _EXIT_INPUT) or not out:
        raise c.error(status if status else _EXIT_USAGE, err)
    return [d for f in _one(out)["files"] for d in f["diagnostics"]]


def xlog(
    path_or_lines,
    *,
    where=None,
    game=None,
    description=None,
    description_name=None,
    dialect=None,
    define=None,
    undefine=None,
):
    """The rows of ``dgn xlog --format json``, one dict per game, as an
    iterator: where each game died, with each level's chance and whether
    it could leave bones.

    ``path_or_lines`` is an xlogfile's path, its bytes, or an iterable of
    its lines. ``where`` filters as ``--where``; ``game`` reads every line
    as that game (``--game``); ``description`` answers with that dungeon.
    The rows go straight into ``pandas.DataFrame(dgnkit.xlog(path))``.
    """
    c = _Call("xlog")
    c.set("game", game).set("dialect", dialect).many("define", define).many("undefine", undefine)
    c.set("where", where).set("format", "json")
    if description is not None:
        c.text("description", description, "description_name", description_name)
        if "description_name" not in c.params:
            c.params["description_name"] = "dungeon.def"
    if _is_path(path_or_lines):
        # Read by the command as it goes, in bounded memory: a server's
        # xlogfile can be gigabytes.
        c.params["text"] = ""
        return _lines(c, _os.fspath(path_or_lines))
    if isinstance(path_or_lines, (bytes, bytearray, memoryview)):
        c.texts["text"] = bytes(path_or_lines)
    else:
        lines = [path_or_lines] if isinstance(path_or_lines, str) else path_or_lines
        c.texts["text"] = b"".join(
            (line if isinstance(line, bytes) else line.encode()).rstrip(b"\r\n") + b"\n" for line in lines
        )
    return _lines(c)


from . import nle  # noqa: E402  (nle imports DgnError and layout from here)
