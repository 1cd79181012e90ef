"""Fixed-limit stud poker strategies in Python: the ``stud`` solver's strategy files and bots for
Python bots, PokerKit states and OpenSpiel games.

    import random, stud
    bot = stud.Player("strategies/7stud-hu.strat")   # or "heuristic", "FILE:pure", ...
    bot.policy(state)        # {Action("complete_bet_or_raise_to", 5): 0.8, ...} at a PokerKit State
    bot.act(state, random.Random(1))  # draws one and plays it on the state

docs/guide/python.md has the whole walk. ``stud.query(path, "3c 8d pb", hand="As Kd")`` is
``stud query``'s answer at a spot in its notation, heads-up or multiway (``ranges=True``,
``values=True``, ``resolve=True`` as its flags);
``stud.solve(game, iterations=N)`` solves, its report's ``average`` the unrounded
average strategy as a ``Player``. ``stud.arrays.StrategyArrays(path)`` views a heads-up strategy file's sections as numpy arrays
(in place, no copy); ``stud.openspiel`` has OpenSpiel's policies. Every error is a ``StudError`` with the command line's
message; a history that leads to no decision is a ``NoDecisionError`` with its ``due`` fields.
"""

from __future__ import annotations

import copy as _copy
import os as _os
import random as _random

from . import _stud
from ._pokerkit import Action, game_of, phh_actions
from ._pokerkit import seat_name as _seat_name
from ._stud import (BOT_NAMES, Decision, Game, NoDecisionError, Ranges, StrategyFile, StudError,
                    deck)

__all__ = [
    "Action",
    "BOT_NAMES",
    "Decision",
    "Game",
    "NoDecisionError",
    "Player",
    "QueryAnswer",
    "Ranges",
    "StrategyFile",
    "SolveReport",
    "StudError",
    "deck",
    "game_of",
    "phh_actions",
    "query",
    "solve",
]


class Player:
    """A player as ``stud match`` and ``stud serve`` name it: a bot (``random``, ``call``,
    ``raise``, ``heuristic``) or a strategy file (heads-up, multiway or public-tree), played as
    its spec says: ``FILE`` (the file's default: a real game's rows thresholded at 0.15, a
    multiway or exact file's as solved), ``FILE:mixed``, ``FILE:threshold=T``, ``FILE:pure``,
    or ``FILE:resolve`` (``:resolve=N`` iterations, ``:resolve=Nms``: the last street re-solved
    at every decision, heads-up).

    One player serves any number of threads at once (a decision runs without the GIL) and any
    game its spec plays: a strategy file plays the game it was solved for, under the card-room
    rules or PokerKit's where it fits them (docs/protocol.md, "A PokerKit dealer")."""

    def __init__(self, spec: str, warm: bool = False):
        """``warm=True`` computes a heads-up strategy file's 3rd-street bucket table first, as
        ``stud serve --warm`` does: about 10 s more for a seven-card file on 2 cores and some 18
        MiB, then a 3rd-street decision looks its bucket up instead of rolling it out (the same
        answers, faster: docs/guide/bots.md measures the server's)."""
        self._native = _stud.Player(spec, warm)

    @property
    def name(self) -> str:
        """The player's name, as matches report it (``FILE:threshold=0.15``, ``heuristic``)."""
        return self._native.name

    @property
    def game(self):
        """The game a strategy file was solved for, as a dict; ``None`` for a bot."""
        return self._native.game

    def decide(self, actions, game) -> Decision:
        """The ``Decision`` (seat, street, legal PHH actions and their probabilities) at the spot
        that ``actions`` (PHH action strings, deals included) lead to in ``game`` (a ``Game``, or
        a preset's name such as ``"7stud"`` or ``"7stud-5p"``, card-room rules)."""
        if isinstance(game, str):
            game = Game.preset(game)
        return self._native.decide(game, list(actions))

    def policy_phh(self, actions, game) -> dict:
        """``{PHH action: probability}`` at the spot ``actions`` lead to in ``game`` (see
        ``decide``), e.g. ``{"f": 0.0, "cc": 0.25, "cbr 10": 0.75}``."""
        d = self.decide(actions, game)
        return dict(zip(d.legal, d.probs))

    def policy(self, state) -> dict:
        """``{Action: probability}`` for the seat to act at a PokerKit ``state`` (seven-card
        stud, stud hi-lo or razz, any number of seats the player plays), each ``Action`` in
        PokerKit's terms (``fold``, ``check_or_call``, ``post_bring_in``,
        ``complete_bet_or_raise_to`` an amount). The player reads only what that seat may see."""
        d = self._native.decide(game_of(state), phh_actions(state))
        return {Action.from_phh(a): p for a, p in zip(d.legal, d.probs)}

    def act(self, state, rng=None) -> Action:
        """Draws an action from ``policy(state)`` with ``rng`` (anything with a ``random()``
        method, e.g. ``random.Random(seed)``; the ``random`` module when ``None``), plays it on
        ``state`` and returns it."""
        action = _draw(self.policy(state), rng)
        action.apply(state)
        return action

    def exploitability(self, game: str) -> dict:
        """The player's exact exploitability in a walkable heads-up game (``"kuhn"``,
        ``"leduc"``, ``"ministud"``, ...) by the library's best response over the whole game:
        ``{"chips": ..., "mbb": ..., "best_response_0": ..., "best_response_1": ...,
        "value_0": ...}``; ``chips`` is what OpenSpiel's ``exploitability`` computes."""
        return self._native.exploitability(game)

    def __repr__(self) -> str:
        return "stud.Player(%r)" % self.name

    @classmethod
    def _of(cls, native) -> "Player":
        """The ``Player`` of a native player made in memory (a solve's average)."""
        player = cls.__new__(cls)
        player._native = native
        return player


class SolveReport(dict):
    """A solve's report: the dict of ``stud solve --json``'s last line (equal to it), and
    ``average``, a walked solve's (Kuhn, Leduc, the walkable stud games) average strategy as it
    ended, unrounded, as a ``Player`` of the game solved (``None`` for the other back ends):
    the policy whose exploitability the report gives, to the last bit (the strategy file stores
    each probability rounded to 1/65535)."""

    def __init__(self, report: dict, average: "Player | None"):
        super().__init__(report)
        self.average = average


def solve(game: str, **options) -> SolveReport:
    """Solves ``game`` (a preset: ``kuhn``, ``leduc``, ``7stud``, ...) with its default back
    end, as ``stud solve --game GAME`` does: keyword options ``iterations``, ``time``
    (seconds), ``out`` (default ``solves/GAME.strat``), ``seed``, ``keep_checkpoint``,
    ``resume``, ``abstraction_dir``, ``lock`` (a lock file) and ``progress`` (``True``: the
    progress lines on stderr; a callable: each line to it). Returns the ``SolveReport``.
    KeyboardInterrupt stops after the iteration in progress, writes the strategy so far, keeps
    the checkpoint (``resume=True`` goes on from it) and is raised again with the report (a
    dict) as its ``report`` attribute."""
    report, average = _stud.solve(game, **options)
    return SolveReport(report, None if average is None else Player._of(average))


class QueryAnswer:
    """``stud query``'s answer at a spot, in a player's terms: who acts (``seat``, 0 for p1;
    ``role``, 0 if first on the street), the ``street`` (0-based) and ``street_name`` (``"4th
    street"``), the decision's actions in words (``actions``: ``["check", "bet 5"]``) and as
    PHH codes (``codes``), and its rows (``hands``: the hand's, or every bucket's with how many
    holdings it holds here, some of them, its EHS and hand classes). ``row`` is the hand's row
    as ``{action in words: probability}`` (with ``resolve=True``, its re-solved policy); ``ranges`` and ``chart`` what ``--ranges`` adds.
    ``to_dict()`` is ``stud query --json``'s answer, key for key; ``values`` is ``stud query
    --values --json``'s when asked."""

    def __init__(self, answer: dict, values=None):
        self._answer = answer
        self.values = values
        """``stud query --values --json``'s answer (``values=True``): the value of each
        action in chips and big bets for the hand (``hand``), the range (``range``) and by hand
        class (``classes``), exact or estimated (``method``) with a 95% interval; else
        ``None``."""

    def to_dict(self) -> dict:
        """The answer as ``stud query --json`` prints it (a copy)."""
        return _copy.deepcopy(self._answer)

    @property
    def seat(self):
        """The seat to act (0 for p1); ``None`` at the empty spot (the door cards decide)."""
        return self._answer["seat"]

    @property
    def role(self):
        """0 if the seat acts first on this street, 1 if second (``None`` for a public-tree
        file, whose answer names the seat only)."""
        return self._answer.get("role")

    @property
    def street(self) -> int:
        """The betting round, 0 for the first (third street in seven-card games)."""
        return self._answer["street"]

    @property
    def street_name(self) -> str:
        """The street as players name it (``"3rd street"``)."""
        return self._answer["street_name"]

    @property
    def capped(self) -> bool:
        """Past the strategy's raise cap, where it checks or calls with every hand."""
        return self._answer.get("capped", False)

    @property
    def actions(self) -> list:
        """The decision's actions in a player's words (``fold``, ``call 5``, ``raise to
        10``), in the rows' order."""
        return list(self._answer["action_names"])

    @property
    def codes(self) -> list:
        """The same actions as PHH codes (``f``, ``cc``, ``cbr10``)."""
        return list(self._answer["actions"])

    @property
    def hands(self) -> list:
        """The rows: dicts of ``hand`` (with a hand asked), ``bucket``, ``probabilities`` (one
        per action), ``unreached``, and where known ``holdings``, ``examples``,
        ``description`` (EHS and hand classes, as ``stud query`` prints it), ``ehs``,
        ``classes``; none in a re-solve's answer)."""
        return _copy.deepcopy(self._answer.get("hands", []))

    @property
    def row(self):
        """``{action in words: probability}`` of the one row asked (with ``hand``); ``None``
        when every bucket's row was."""
        if "resolved" in self._answer:
            return dict(zip(self._answer["action_names"], self._answer["resolved"]))
        rows = self._answer["hands"]
        if len(rows) != 1 or rows[0]["hand"] is None:
            return None
        return dict(zip(self._answer["action_names"], rows[0]["probabilities"]))

    @property
    def description(self):
        """The hand's class as ``stud query --hand`` describes it (``None`` without a hand)."""
        rows = self._answer.get("hands", [])
        if len(rows) != 1 or rows[0]["hand"] is None:
            return None
        return rows[0].get("description")

    @property
    def ranges(self):
        """Each seat's range reaching the spot (``ranges=True``), seat 0's first: its
        holdings, ``reach`` (the probability of its betting so far), and by hand class and by
        bucket the holdings, reach and share; ``None`` when not asked."""
        return _copy.deepcopy(self._answer.get("ranges"))

    @property
    def chart(self):
        """The strategy by hand class (``ranges=True``): each class's mean row over its
        holdings; ``None`` when not asked."""
        return _copy.deepcopy(self._answer.get("chart"))

    def __repr__(self) -> str:
        who = "first decision" if self.seat is None else _seat_name(self.seat)
        return "stud.QueryAnswer(%s on %s: %s)" % (who, self.street_name, ", ".join(self.actions))


def query(file_or_player, spot: str = "", hand=None, ranges: bool = False, values: bool = False,
          samples=None, seed: int = 1, resolve: bool = False, iterations: int = 100,
          safe: bool = False) -> QueryAnswer:
    """``stud query FILE SPOT [--hand HAND] [--ranges]`` on a strategy file, a real
    game's (heads-up or multiway) or a walkable game's (Kuhn, Leduc: a row per private card), given as a path,
    ``FILE:pure`` or ``FILE:threshold=T`` (``--play``), or a ``Player`` of one (its spec), at
    ``spot`` in the command's notation (public cards and actions in order: ``"3c 8d pb cc | Qs
    2h x b"``; docs/guide/query.md), as a ``QueryAnswer``. ``hand``: the cards of the player to
    act (``"As Kd"``, or ``"(As Kd) 8d"`` with its up cards); default every bucket (every
    private card). A real game's file also answers ``ranges=True`` (without ``hand``): each
    seat's range reaching the spot and the strategy by hand class, the rows as stored; and
    ``values=True``: ``stud query --values``' answer (``QueryAnswer.values``), exact on 6th and
    7th street, else estimated from ``samples`` deals drawn from ``seed`` (``--samples``,
    ``--seed``; by default 2000 heads-up and at three seats, 2000 × 9 / seats² at a bigger
    table, as the command). A multiway file (three to eight seats) answers as ``stud query`` does: the row
    of the hand's bucket, or every bucket's, at a spot of its N seats; ``ranges=True`` adds each
    live seat's range, ``values=True`` the values estimated from deals of the whole table.
    ``resolve=True`` (with ``hand``, a heads-up real game's file): ``stud query --resolve``'s
    answer, the last street (from 6th street, the last two) re-solved for ``iterations`` DCFR
    iterations, safely with ``safe=True``; ``row`` is then the re-solved policy and
    ``to_dict()`` has the strategy's row beside it (``blueprint``) and the re-solve's report
    (``subgame``). The file is opened once while it is unchanged (the last few files asked are
    kept, each known by its path, modification time and length): asking one file at many spots
    reads and checks it once, and a file rewritten since is read again."""
    spec = file_or_player.name if isinstance(file_or_player, Player) else _os.fspath(file_or_player)
    if resolve:
        if hand is None or ranges or values:
            raise StudError("resolve=True re-solves for one hand: give hand, without ranges "
                            "or values")
        return QueryAnswer(_stud.resolve(spec, spot, hand, iterations=iterations, safe=safe))
    answer, vals = _stud.query(spec, spot, hand=hand, ranges=ranges, values=values,
                               samples=samples, seed=seed)
    return QueryAnswer(answer, vals)


def _draw(policy: dict, rng):
    """One key of ``policy`` drawn with its probability."""
    x = (rng or _random).random()
    last = None
    for action, p in policy.items():
        if p > 0.0:
            last = action
            if x < p:
                return action
            x -= p
    # Rounding can leave a sliver past the last entry: the last one with weight.
    return last
