"""Type stubs of the native module (python/src/*.rs): see each item's docstring there."""

from os import PathLike
from typing import Any, Callable, Optional, Sequence, Union

BOT_NAMES: list[str]

class StudError(Exception):
    """A refusal of the stud library, with the command line's message."""

class NoDecisionError(StudError):
    """A valid history that leads to no betting decision."""

    due: dict[str, Any]
    """`{"due": "card", "seat": S, "face": "down"|"up"|"community"}` or
    `{"due": "over", "payoffs": [...]}` (payoffs when every live hand is known)."""

class Game:
    """A stud game's stakes, stacks and rules profile (`card-room` or `pokerkit`)."""

    def __init__(
        self,
        variant: str,
        *,
        ante: int,
        bring_in: int,
        small_bet: int,
        big_bet: int,
        stacks: Sequence[int],
        rules: str = "card-room",
    ) -> None: ...
    @staticmethod
    def preset(name: str, rules: str = "card-room") -> Game: ...
    @property
    def seats(self) -> int: ...
    @property
    def variant(self) -> str: ...
    @property
    def rules(self) -> str: ...
    def definition(self) -> dict[str, Any]: ...

class Decision:
    """A player's answer at a decision."""

    @property
    def seat(self) -> int: ...
    @property
    def street(self) -> int: ...
    @property
    def legal(self) -> list[str]: ...
    @property
    def probs(self) -> list[float]: ...
    @property
    def fallback(self) -> bool: ...
    @property
    def unreached(self) -> bool: ...

class Player:
    """A bot or a strategy file as its spec plays it (native half of `stud.Player`)."""

    def __init__(self, spec: str) -> None: ...
    @property
    def name(self) -> str: ...
    @property
    def game(self) -> Optional[dict[str, Any]]: ...
    def decide(self, game: Game, actions: Sequence[str]) -> Decision: ...
    def decide_events(self, game: str, events: Sequence[str]) -> Decision: ...
    def exploitability(self, game: str) -> dict[str, float]: ...

class StrategyFile:
    """A strategy file, memory-mapped and checked."""

    def __init__(self, path: Union[str, PathLike[str]]) -> None: ...
    @property
    def kind(self) -> str: ...
    @property
    def path(self) -> str: ...
    @property
    def header(self) -> dict[str, Any]: ...
    @property
    def game(self) -> dict[str, Any]: ...

class Ranges:
    """Each seat's range at a spot of a heads-up real game's strategy file (`stud query --ranges`)."""

    def __init__(self, path: str, game: Game) -> None: ...
    def at(self, actions: Sequence[str]) -> list[dict[str, Any]]: ...

def deck(game: str) -> list[str]: ...
def solve(
    game: str,
    *,
    iterations: Optional[int] = None,
    time: Optional[float] = None,
    out: Optional[Union[str, PathLike[str]]] = None,
    seed: int = 0,
    keep_checkpoint: bool = False,
    resume: bool = False,
    abstraction_dir: Optional[Union[str, PathLike[str]]] = None,
    lock: Optional[Union[str, PathLike[str]]] = None,
    progress: Union[None, bool, Callable[[str], Any]] = None,
) -> tuple[dict[str, Any], Optional[Player]]: ...
def query(
    spec: str,
    spot: str = "",
    *,
    hand: Optional[str] = None,
    ranges: bool = False,
    values: bool = False,
    samples: Optional[int] = None,
    seed: int = 1,
) -> tuple[dict[str, Any], Optional[dict[str, Any]]]: ...
def resolve(
    spec: str,
    spot: str,
    hand: str,
    *,
    iterations: int = 100,
    safe: bool = False,
) -> dict[str, Any]: ...
