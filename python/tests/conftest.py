"""Shared fixtures: the repository's shipped strategies and PokerKit games at the stakes they
were solved for (ante 1, bring-in 2, bets 5/10, 200 chips a seat)."""

import os

import pytest

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
STRATEGIES = os.path.join(ROOT, "strategies")


def strategy(name):
    """The path of a shipped strategy file."""
    return os.path.join(STRATEGIES, name)


def stud_bin():
    """The command line built beside the package (`STUD_BIN` overrides): the test profile's,
    which `cargo test --profile verify` (and CI) builds, else a release or debug build."""
    given = os.environ.get("STUD_BIN")
    if given:
        return given
    for profile in ("verify", "release", "debug"):
        path = os.path.join(ROOT, "target", profile, "stud")
        if os.path.exists(path):
            return path
    pytest.fail("no stud binary: build it with `cargo build --profile verify -p solver`, or "
                "set STUD_BIN")


def pokerkit_state(cls_name="FixedLimitSevenCardStud", seats=2, stack=200):
    """A PokerKit state dealt and posted up to its first decision (every automation on but the
    betting), at the shipped strategies' stakes."""
    import pokerkit

    a = pokerkit.Automation
    autos = (a.ANTE_POSTING, a.BET_COLLECTION, a.BLIND_OR_STRADDLE_POSTING, a.CARD_BURNING,
             a.HOLE_DEALING, a.BOARD_DEALING, a.HOLE_CARDS_SHOWING_OR_MUCKING, a.HAND_KILLING,
             a.CHIPS_PUSHING, a.CHIPS_PULLING)
    game = getattr(pokerkit, cls_name)(autos, False, 1, 2, 5, 10)
    return game((stack,) * seats, seats)


@pytest.fixture(scope="session")
def hu_player():
    import stud

    return stud.Player(strategy("7stud-hu.strat"))
