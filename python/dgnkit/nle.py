"""The dungeon of an NLE episode, read from the environment itself.

NLE (the NetHack Learning Environment, ``pip install nle``) runs NetHack
3.6.7; ``dgn layout --target nle`` lays out its dungeon. This module reads
what that needs from a live environment: its seeds, the hero its options
ask for, and wizard mode.
"""

from __future__ import annotations

from . import DgnError, layout as _layout

__all__ = ["layout", "arguments"]

# The facets NetHack's options name, as --role, --race, --gender, --align
# take them. `character` is an old name of `role` (3.6.7 options.c).
_FACETS = {"role": "role", "character": "role", "race": "race", "gender": "gender", "align": "align"}


def _error(message: str) -> DgnError:
    return DgnError(f"dgnkit.nle: {message}", code="usage", status=2)


def _nethack(env):
    """The ``nle.nethack.Nethack`` under a gymnasium env, its wrappers, or
    the object itself."""
    seen = env
    for _ in range(32):
        if hasattr(seen, "get_current_seeds") and hasattr(seen, "options"):
            return seen
        inner = getattr(seen, "nethack", None)
        if inner is not None and hasattr(inner, "get_current_seeds"):
            return inner
        nxt = getattr(seen, "unwrapped", None)
        if nxt is None or nxt is seen:
            nxt = getattr(seen, "env", None)
        if nxt is None or nxt is seen:
            break
        seen = nxt
    raise _error(
        f"{type(env).__name__} is neither an NLE environment (gym.make('NetHackScore-v0')) nor an nle.nethack.Nethack"
    )


def arguments(env) -> dict:
    """What :func:`layout` passes to ``dgnkit.layout(game="nle", ...)`` for
    ``env``: ``seed`` (NLE's core seed), ``options`` (``lgen``, the player's
    name), ``role``/``race``/``gender``/``align`` as the game's options give
    them, and ``wizard``.

    Raises :class:`dgnkit.DgnError` for an environment that was never
    reset (it has no seeds yet) or that reseeds (``reseed=True``: NetHack
    then draws from true randomness, and no seed says what it made).
    """
    nethack = _nethack(env)
    try:
        seeds = tuple(nethack.get_current_seeds())
    except RuntimeError as e:
        raise _error(f"the environment has no seeds yet ({e}); seed it and reset it first") from None
    if len(seeds) == 3:
        (core, _disp, reseed), lgen = seeds, None
    else:
        core, _disp, reseed, lgen = seeds[:4]
    if reseed:
        raise _error(
            "the environment reseeds (reseed=True, NLE's default when it is not seeded): "
            "its dungeon follows no seed. Seed it with env.seed(core, disp, reseed=False) "
            "(or Nethack.set_initial_seeds(core, disp, False)) before reset()"
        )
    options = list(getattr(nethack, "options", []) or [])
    wizard = bool(getattr(nethack, "_wizard", False)) or any(
        o.strip().lower() in ("playmode:debug", "playmode=debug") for o in options
    )
    args: dict = {"seed": int(core), "wizard": wizard, "options": {}}
    if lgen is not None:
        args["options"]["lgen"] = int(lgen)
    for option in options:
        key, sep, value = option.partition(":")
        key = key.strip().lower()
        if not sep:
            continue
        if key in _FACETS:
            # A later option wins, as in NetHack's options.
            args[_FACETS[key]] = value.strip()
        elif key == "name":
            args["options"]["name"] = value.strip()
    return args


def layout(env, description=None):
    """The dungeon of ``env``'s episode: ``dgnkit.layout(game="nle", ...)``
    with its seeds, hero and wizard mode (:func:`arguments`), a dict as
    ``dgn layout --target nle --format json`` prints it, with the hero as
    ``character``.

    ``env`` is a gymnasium NLE environment (``gym.make("NetHackScore-v0")``)
    or an ``nle.nethack.Nethack``, seeded with ``reseed=False`` and reset.
    """
    return _layout(description, game="nle", **arguments(env))
