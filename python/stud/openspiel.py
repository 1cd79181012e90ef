"""OpenSpiel policies of the ``stud`` players (``pip install open_spiel``).

- ``PokerkitPolicy``: a player's policy in OpenSpiel's ``python_pokerkit_wrapper`` games
  (seven-card stud and razz, through the PokerKit state the wrapper plays), for any seat.
- ``tabular_policy``: a player (a Kuhn or Leduc strategy file, or a bot) as OpenSpiel's
  ``TabularPolicy`` of ``kuhn_poker`` or ``leduc_poker``, whose ``exploitability`` OpenSpiel
  computes.

Actions: the wrapper numbers fold 0, check, call or bring-in 1, and a completion, bet or raise by
the total it bets to (``complete_bet_or_raise_to``'s amount); Kuhn numbers pass 0 (a check, or a
fold facing a bet) and bet 1 (a bet, or a call facing one); Leduc fold 0, check or call 1, bet
or raise 2.
"""

from __future__ import annotations

from open_spiel.python import policy as _policy

from . import _stud
from ._stud import StudError

# The wrapper's action numbers of PokerKit's kinds of action (a completion, bet or raise is its
# amount).
_WRAPPER_ACTION = {"fold": 0, "check_or_call": 1, "post_bring_in": 1}


def _wrapped(state):
    """The PokerKit state an OpenSpiel ``python_pokerkit_wrapper`` state plays."""
    inner = getattr(state, "_wrapped_state", None)
    return inner if inner is not None else state.deepcopy_wrapped_state()


class PokerkitPolicy(_policy.Policy):
    """A ``stud.Player``'s policy in an OpenSpiel ``python_pokerkit_wrapper`` game of
    ``FixedLimitSevenCardStud`` or ``FixedLimitRazz`` (a strategy file plays the stakes it was
    solved for: load the game with ``antes "1 1"``, ``bring_in 2``, ``small_bet 5``,
    ``big_bet 10`` and stacks of 200, at its number of seats). The player answers for whichever
    seat is to act, reading only what that seat may see."""

    def __init__(self, game, player, players=None):
        players = list(range(game.num_players())) if players is None else players
        super().__init__(game, players)
        self.player = player

    def action_probabilities(self, state, player_id=None):
        """``{OpenSpiel action: probability}`` over ``state.legal_actions()``."""
        policy = self.player.policy(_wrapped(state))
        probs = dict.fromkeys(state.legal_actions(), 0.0)
        for action, p in policy.items():
            a = _WRAPPER_ACTION.get(action.kind, action.amount)
            if a not in probs:
                if p > 0.0:
                    raise StudError(
                        "%s is not among OpenSpiel's legal actions %s" % (action, sorted(probs))
                    )
                continue
            probs[a] += p
        return probs


def _preset(game) -> str:
    """The library's preset of an OpenSpiel Kuhn or Leduc game."""
    name = game.get_type().short_name
    base = {"kuhn_poker": "kuhn", "leduc_poker": "leduc"}.get(name)
    if base is None:
        raise StudError("`%s`: a tabular policy is made of kuhn_poker or leduc_poker" % name)
    n = game.num_players()
    return base if n == 2 else "%s-%dp" % (base, n)


def _events(name, state, deck):
    """The library's events (cards, then each seat's action) of an OpenSpiel Kuhn or Leduc
    state's history, and the event each legal OpenSpiel action would be now."""
    events, bet_seen = [], False
    for step in state.full_history():
        if step.player < 0:  # chance: OpenSpiel's cards are the deck in the library's order
            events.append(deck[step.action])
            bet_seen = False if name == "leduc_poker" else bet_seen
        else:
            events.append(_event(name, step.action, bet_seen))
            bet_seen = bet_seen or step.action == (1 if name == "kuhn_poker" else 2)
    return events, {a: _event(name, a, bet_seen) for a in state.legal_actions()}


def _event(name, action, facing_bet):
    """The library's action an OpenSpiel Kuhn or Leduc action is (the fixed-limit bet or raise
    as ``cbr``, whatever its amount)."""
    if name == "kuhn_poker":
        if action == 0:
            return "f" if facing_bet else "cc"
        return "cc" if facing_bet else "cbr"
    return ("f", "cc", "cbr")[action]


def tabular_policy(game, player) -> _policy.TabularPolicy:
    """``player`` (a ``stud.Player`` of a Kuhn or Leduc strategy file, or a bot) as OpenSpiel's
    ``TabularPolicy`` of ``game`` (``kuhn_poker`` or ``leduc_poker``, any number of players the
    file was solved for): every information state's row, read once."""
    preset = _preset(game)
    name = game.get_type().short_name
    deck = _stud.deck(preset)
    table = _policy.TabularPolicy(game)
    for index, state in enumerate(table.states):
        events, legal = _events(name, state, deck)
        d = player._native.decide_events(preset, events)
        by_event = {}
        for code, p in zip(d.legal, d.probs):
            key = "cbr" if code.startswith("cbr") else code
            by_event[key] = by_event.get(key, 0.0) + p
        row = table.action_probability_array[index]
        row[:] = 0.0
        for a, event in legal.items():
            row[a] = by_event.get(event, 0.0)
    return table
