# Types of dgnkit's functions; their docstrings are in __init__.py.
import os
from typing import Any, Iterable, Iterator, Mapping, Optional, Sequence, Union

from . import nle as nle

__version__: str
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

_Description = Union[str, bytes, os.PathLike[str], None]
_Options = Union[Mapping[str, Union[str, int]], Sequence[str], str, None]
_Names = Union[str, Sequence[str], None]
_Json = dict[str, Any]

class Layout(dict[str, Any]):
    game: Optional[str]

class DgnError(ValueError):
    message: str
    code: str
    status: int
    diagnostics: list[_Json]
    def __init__(
        self, message: str, *, code: str, status: int, diagnostics: Iterable[_Json] = ...
    ) -> None: ...

def layout(
    description: _Description = None,
    *,
    game: Optional[str] = None,
    seed: int = 0,
    role: Optional[str] = None,
    race: Optional[str] = None,
    gender: Optional[str] = None,
    align: Optional[str] = None,
    options: _Options = None,
    game_start: bool = False,
    wizard: bool = False,
    rng: Optional[str] = None,
    trace: bool = False,
    dialect: Optional[str] = None,
    define: _Names = None,
    undefine: _Names = None,
    name: Optional[str] = None,
) -> Layout: ...
def layouts(
    seeds: Union[range, Iterable[int]],
    description: _Description = None,
    *,
    game: Optional[str] = None,
    role: Optional[str] = None,
    race: Optional[str] = None,
    gender: Optional[str] = None,
    align: Optional[str] = None,
    options: _Options = None,
    game_start: bool = False,
    wizard: bool = False,
    rng: Optional[str] = None,
    dialect: Optional[str] = None,
    define: _Names = None,
    undefine: _Names = None,
    name: Optional[str] = None,
    jobs: Optional[int] = 1,
) -> Iterator[_Json]: ...
def overview(layout: Union[_Json, str], *, game: Optional[str] = None) -> str: ...
def find(
    query: str,
    description: _Description = None,
    *,
    seeds: Optional[range] = None,
    limit: Optional[int] = None,
    count: bool = False,
    game: Optional[str] = None,
    role: Optional[str] = None,
    race: Optional[str] = None,
    gender: Optional[str] = None,
    align: Optional[str] = None,
    options: _Options = None,
    game_start: bool = False,
    wizard: bool = False,
    rng: Optional[str] = None,
    dialect: Optional[str] = None,
    define: _Names = None,
    undefine: _Names = None,
    name: Optional[str] = None,
    jobs: Optional[int] = 1,
) -> Any: ...
def stats(
    description: _Description = None,
    *,
    game: Optional[str] = None,
    given: Optional[str] = None,
    given_overview: _Description = None,
    sample: bool = False,
    exact: bool = False,
    samples: Optional[int] = None,
    first_seed: Optional[int] = None,
    portal_levels: Optional[str] = None,
    role: Optional[str] = None,
    race: Optional[str] = None,
    gender: Optional[str] = None,
    align: Optional[str] = None,
    options: _Options = None,
    game_start: bool = False,
    wizard: bool = False,
    rng: Optional[str] = None,
    dialect: Optional[str] = None,
    define: _Names = None,
    undefine: _Names = None,
    name: Optional[str] = None,
) -> _Json: ...
def bones(
    description: _Description = None,
    *,
    game: Optional[str] = None,
    seed: Optional[int] = None,
    portal_levels: Optional[str] = None,
    role: Optional[str] = None,
    race: Optional[str] = None,
    gender: Optional[str] = None,
    align: Optional[str] = None,
    options: _Options = None,
    game_start: bool = False,
    wizard: bool = False,
    rng: Optional[str] = None,
    dialect: Optional[str] = None,
    define: _Names = None,
    undefine: _Names = None,
    name: Optional[str] = None,
) -> _Json: ...
def diff(
    old: _Description,
    new: _Description,
    *,
    game: Optional[str] = None,
    old_game: Optional[str] = None,
    new_game: Optional[str] = None,
    all: bool = False,
    portal_levels: Optional[str] = None,
    role: Optional[str] = None,
    race: Optional[str] = None,
    gender: Optional[str] = None,
    align: Optional[str] = None,
    options: _Options = None,
    game_start: bool = False,
    wizard: bool = False,
    rng: Optional[str] = None,
    dialect: Optional[str] = None,
    define: _Names = None,
    undefine: _Names = None,
    old_name: Optional[str] = None,
    new_name: Optional[str] = None,
) -> _Json: ...
def check(
    text: _Description,
    name: Optional[str] = None,
    *,
    game: Optional[str] = None,
    dialect: Optional[str] = None,
    define: _Names = None,
    undefine: _Names = None,
    allow: _Names = None,
    warn: _Names = None,
    deny: _Names = None,
) -> list[_Json]: ...
def xlog(
    path_or_lines: Union[str, bytes, os.PathLike[str], Iterable[Union[str, bytes]]],
    *,
    where: Optional[str] = None,
    game: Optional[str] = None,
    description: _Description = None,
    description_name: Optional[str] = None,
    dialect: Optional[str] = None,
    define: _Names = None,
    undefine: _Names = None,
) -> Iterator[_Json]: ...
