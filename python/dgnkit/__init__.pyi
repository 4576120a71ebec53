# Types of dgnkit's functions; their docstrings are in __init__.py.
import os
from typing import Any, Iterable, Iterator, Mapping, Optional, Sequence, Union

from . import nle as nle

__version__: str

Description = Union[str, bytes, os.PathLike[str], None]
Options = Union[Mapping[str, Union[str, int]], Sequence[str], str, None]
Names = Union[str, Sequence[str], None]
Json = dict[str, Any]

class Layout(dict[str, Any]):
    game: Optional[str]

class DgnError(ValueError):
    message: str
    code: str
    status: int
    diagnostics: list[Json]
    def __init__(
        self, message: str, *, code: str, status: int, diagnostics: Iterable[Json] = ...
    ) -> None: ...

def layout(
    description: Description = None,
    *,
    game: Optional[str] = None,
    seed: int = 0,
    role: Optional[str] = None,
    race: Optional[str] = None,
    gender: Optional[str] = None,
    align: Optional[str] = None,
    options: Options = None,
    game_start: bool = False,
    wizard: bool = False,
    rng: Optional[str] = None,
    trace: bool = False,
    dialect: Optional[str] = None,
    define: Names = None,
    undefine: Names = None,
    name: Optional[str] = None,
) -> Layout: ...
def layouts(
    seeds: Union[range, Iterable[int]],
    description: Description = None,
    *,
    game: Optional[str] = None,
    role: Optional[str] = None,
    race: Optional[str] = None,
    gender: Optional[str] = None,
    align: Optional[str] = None,
    options: Options = None,
    game_start: bool = False,
    wizard: bool = False,
    rng: Optional[str] = None,
    dialect: Optional[str] = None,
    define: Names = None,
    undefine: Names = None,
    name: Optional[str] = None,
    jobs: Optional[int] = 1,
) -> Iterator[Json]: ...
def overview(layout: Union[Json, str], *, game: Optional[str] = None) -> str: ...
def find(
    query: str,
    description: Description = None,
    *,
    seeds: Optional[range] = None,
    limit: Optional[int] = None,
    count: bool = False,
    game: Optional[str] = None,
    role: Optional[str] = None,
    race: Optional[str] = None,
    gender: Optional[str] = None,
    align: Optional[str] = None,
    options: Options = None,
    game_start: bool = False,
    wizard: bool = False,
    rng: Optional[str] = None,
    dialect: Optional[str] = None,
    define: Names = None,
    undefine: Names = None,
    name: Optional[str] = None,
    jobs: Optional[int] = 1,
) -> Any: ...
def stats(
    description: Description = None,
    *,
    game: Optional[str] = None,
    given: Optional[str] = None,
    given_overview: Description = None,
    sample: bool = False,
    exact: bool = False,
    samples: Optional[int] = None,
    first_seed: Optional[int] = None,
    portal_levels: Optional[str] = None,
    role: Optional[str] = None,
    race: Optional[str] = None,
    gender: Optional[str] = None,
    align: Optional[str] = None,
    options: Options = None,
    game_start: bool = False,
    wizard: bool = False,
    rng: Optional[str] = None,
    dialect: Optional[str] = None,
    define: Names = None,
    undefine: Names = None,
    name: Optional[str] = None,
) -> Json: ...
def bones(
    description: Description = None,
    *,
    game: Optional[str] = None,
    seed: Optional[int] = None,
    portal_levels: Optional[str] = None,
    role: Optional[str] = None,
    race: Optional[str] = None,
    gender: Optional[str] = None,
    align: Optional[str] = None,
    options: Options = None,
    game_start: bool = False,
    wizard: bool = False,
    rng: Optional[str] = None,
    dialect: Optional[str] = None,
    define: Names = None,
    undefine: Names = None,
    name: Optional[str] = None,
) -> Json: ...
def diff(
    old: Description,
    new: Description,
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
    options: Options = None,
    game_start: bool = False,
    wizard: bool = False,
    rng: Optional[str] = None,
    dialect: Optional[str] = None,
    define: Names = None,
    undefine: Names = None,
    old_name: Optional[str] = None,
    new_name: Optional[str] = None,
) -> Json: ...
def check(
    text: Description,
    name: Optional[str] = None,
    *,
    game: Optional[str] = None,
    dialect: Optional[str] = None,
    define: Names = None,
    undefine: Names = None,
    allow: Names = None,
    warn: Names = None,
    deny: Names = None,
) -> list[Json]: ...
def xlog(
    path_or_lines: Union[str, bytes, os.PathLike[str], Iterable[Union[str, bytes]]],
    *,
    where: Optional[str] = None,
    game: Optional[str] = None,
    description: Description = None,
    description_name: Optional[str] = None,
    dialect: Optional[str] = None,
    define: Names = None,
    undefine: Names = None,
) -> Iterator[Json]: ...
