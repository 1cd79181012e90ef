"""A PokerKit ``State`` in the terms of the ``stud`` library: its game (stakes, stacks, PokerKit's
rules) and its operations as PHH action strings, and PHH actions back as PokerKit calls.

Only the translation lives here: which actions are legal, whose turn it is and what the player
does are the library's, which replays the PHH actions through its rules engine under PokerKit's
rules profile. Nothing here imports PokerKit: a state is read by its attributes and its
operations by their class names, so that the package installs without it.
"""

from __future__ import annotations

import threading
from typing import NamedTuple, Optional

from ._stud import Game, StudError

# PokerKit's hand types of each stud game it plays, by class name, and the variant's name here.
_VARIANTS = {
    ("StandardHighHand",): "7stud",
    ("StandardHighHand", "EightOrBetterLowHand"): "stud8",
    ("RegularLowHand",): "razz",
}

# PokerKit's operations that are a betting decision, and their PHH code.
_BETS = {
    "Folding": "f",
    "CheckingOrCalling": "cc",
    "BringInPosting": "pb",
    "CompletionBettingOrRaisingTo": "cbr",
}


class Action(NamedTuple):
    """A betting action in PokerKit's terms: ``kind`` is the name of the ``State`` method that
    plays it (``fold``, ``check_or_call``, ``post_bring_in``, ``complete_bet_or_raise_to``) and
    ``amount`` the total the seat bets to this round (a completion, bet or raise), else
    ``None``."""

    kind: str
    amount: Optional[int] = None

    @property
    def phh(self) -> str:
        """The action's PHH code (``f``, ``cc``, ``pb``, ``cbr 10``), as the protocol writes it."""
        return _PHH_OF_KIND[self.kind] + ("" if self.amount is None else " %d" % self.amount)

    @staticmethod
    def from_phh(code: str) -> "Action":
        """The action a PHH code (without its ``pN`` actor) names."""
        head, _, amount = code.partition(" ")
        kind = _KIND_OF_PHH.get(head)
        if kind is None or (kind == "complete_bet_or_raise_to") != bool(amount):
            raise StudError("`%s` is not a PHH betting action (f, cc, pb, cbr AMOUNT)" % code)
        return Action(kind, int(amount) if amount else None)

    def apply(self, state):
        """Plays the action on a PokerKit ``state``; returns PokerKit's operation."""
        method = getattr(state, self.kind)
        return method() if self.amount is None else method(self.amount)


_KIND_OF_PHH = {
    "f": "fold",
    "cc": "check_or_call",
    "pb": "post_bring_in",
    "cbr": "complete_bet_or_raise_to",
}
_PHH_OF_KIND = {v: k for k, v in _KIND_OF_PHH.items()}

# Games by their PokerKit parameters: a state of a game seen before costs a dict lookup.
_games: dict = {}
_games_lock = threading.Lock()


def game_of(state) -> Game:
    """The ``Game`` (variant, stakes, stacks, PokerKit's rules) a PokerKit ``state`` plays."""
    names = tuple(t.__name__ for t in state.hand_types)
    variant = _VARIANTS.get(names)
    streets = state.streets
    if variant is None or len(streets) != 5 or tuple(streets[0].hole_dealing_statuses) != (
        False,
        False,
        True,
    ):
        raise StudError(
            "the state is not a game of seven-card stud, stud hi-lo or razz (hand types %s): "
            "the stud package plays PokerKit's FixedLimitSevenCardStud, "
            "FixedLimitSevenCardStudHighLowSplitEightOrBetter and FixedLimitRazz" % (names,)
        )
    seats = len(state.starting_stacks)
    # The rules engine burns a card before each street after the first, as PokerKit does by
    # default; a state that burns none (OpenSpiel's wrapper) deals the same cards unless the
    # burns would have run the deck short, which they do at seven seats or more.
    burns = any(s.card_burning_status for s in streets)
    if not burns and seats * 7 + len(streets) - 1 > 52:
        raise StudError(
            "a state that burns no card at %d seats: the rules engine burns one before each "
            "street and would run the deck short where PokerKit does not" % seats
        )
    antes = tuple(state.antes)
    if len(set(antes)) > 1:
        raise StudError(
            "antes that differ between seats (%s): the rules engine has one ante" % (antes,)
        )
    key = (
        variant,
        antes[0] if antes else 0,
        state.bring_in,
        streets[0].min_completion_betting_or_raising_amount,
        streets[-1].min_completion_betting_or_raising_amount,
        tuple(state.starting_stacks),
    )
    game = _games.get(key)
    if game is None:
        game = Game(
            variant,
            ante=key[1],
            bring_in=key[2],
            small_bet=key[3],
            big_bet=key[4],
            stacks=list(key[5]),
            rules="pokerkit",
        )
        with _games_lock:
            _games[key] = game
    return game


def _cards(cards) -> str:
    return "".join(repr(c) for c in cards)


def seat_name(index: int) -> str:
    """A seat's name as PHH and the ``stud`` command write it: ``p1`` for PokerKit's player 0
    (the library's ``abstraction::rules::seat_name``)."""
    return "p%d" % (index + 1)


def phh_actions(state) -> list:
    """The PHH action strings of a PokerKit ``state``'s operations so far: deals (``d dh pN``,
    ``d db``), betting decisions and shows; the automatic ones (antes, bet collection, burns,
    chips) are the rules engine's own and left out."""
    out = []
    for op in state.operations:
        name = type(op).__name__
        code = _BETS.get(name)
        if code is not None:
            seat = seat_name(op.player_index)
            out.append(
                "%s cbr %d" % (seat, op.amount) if code == "cbr" else "%s %s" % (seat, code)
            )
        elif name == "HoleDealing":
            out.append("d dh %s %s" % (seat_name(op.player_index), _cards(op.cards)))
        elif name == "BoardDealing":
            out.append("d db %s" % _cards(op.cards))
        elif name == "HoleCardsShowingOrMucking":
            shown = _cards(op.hole_cards)
            seat = seat_name(op.player_index)
            out.append("%s sm %s" % (seat, shown) if shown else "%s sm" % seat)
    return out
