"""scripts/pokerkit-judge.py's own pieces checked against PokerKit: its equity bot's hand
evaluator orders seven-card hands as PokerKit's StandardHighHand does, and its report pairs the
players deal by deal."""

import importlib.util
import os
import random

from conftest import ROOT


def judge():
    path = os.path.join(ROOT, "scripts", "pokerkit-judge.py")
    spec = importlib.util.spec_from_file_location("pokerkit_judge", path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_the_equity_bot_orders_hands_as_pokerkit_does():
    from pokerkit import StandardHighHand

    j = judge()
    deck = [r + s for r in "23456789TJQKA" for s in "cdhs"]
    rng = random.Random(5)
    for _ in range(400):
        cards = rng.sample(deck, 14)
        a, b = cards[:7], cards[7:]
        mine = [j.score([(j.RANKS[c[0]], c[1]) for c in h]) for h in (a, b)]
        kit = [StandardHighHand.from_game("".join(h)) for h in (a, b)]
        assert (mine[0] > mine[1]) == (kit[0] > kit[1]), (a, b)
        assert (mine[0] == mine[1]) == (kit[0] == kit[1]), (a, b)
    # The wheel and a straight flush, which random hands seldom hold.
    wheel = j.score([(14, "c"), (2, "d"), (3, "h"), (4, "s"), (5, "c"), (9, "d"), (9, "h")])
    assert wheel[0] == 4 and wheel[1] == 5
    sf = j.score([(r, "h") for r in (9, 10, 11, 12, 13)] + [(2, "c"), (2, "d")])
    assert sf == (8, 13)


def test_the_report_pairs_the_players_deal_by_deal():
    j = judge()
    rows = [{"player": "A", "deal": d, "chips": [10 * d, -5], "millis": [1.0, 2.0]}
            for d in range(4)]
    rows += [{"player": "B", "deal": d, "chips": [10 * d + 20, -5], "millis": [3.0]}
             for d in range(4)]
    out = j.summary(rows)
    assert out["deals"] == 4
    a, b = out["players"]
    assert a["mbb_per_hand"] == 1000 * (sum(10 * d - 5 for d in range(4)) / 4 / 2) / 10
    assert b["decisions"] == 4 and b["p99_ms"] == 3.0
    d = out["differences"][0]
    assert d["mbb_per_hand"] == 1000.0 and d["ci95"] == 0.0 and d["separated"]
