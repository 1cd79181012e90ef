#!/usr/bin/env python3
"""Deals stud hands with PokerKit 0.7.7 between bots whose leaks are known, and writes them as
PHH hand histories for `stud review` (testdata/review/ is this script's output).

Usage: scripts/review-bots.py [--out testdata/review] [--hands 12] [--seed 1] [--stud PATH]

The seat named `Hero` plays one of these, the other seats the strategy itself (each action drawn
from the strategy's mixed probabilities, asked of `stud serve FILE:mixed --rules pokerkit` over
its standard input):

  - sound:        the strategy's most likely action, everywhere;
  - call:         a calling station: facing a bet or a raise it always calls (never folds, never
                  raises); first in it plays as `sound`;
  - raise:        over-aggressive: it completes, bets or raises whenever it may, else calls;
  - no-fold-7th:  as `sound`, but on the last street it calls where the strategy would fold.

For each game (7stud, razz heads-up; 7stud three-handed) and each hero it writes
`GAME-HERO.phhs`: `--hands` hands, each under `[n]`, the hero's seat turning with the hand
number. PokerKit deals and applies every action (its own rules: the shipped strategies accept a
PokerKit dealer, docs/protocol.md), and writes each hand with `HandHistory.from_game_state`, the
`players` field naming the seats. Build first: cargo build --profile verify -p solver (or pass
--stud). Needs pokerkit==0.7.7.
"""
import argparse, json, os, random, subprocess, sys

from pokerkit import (Automation as A, FixedLimitRazz, FixedLimitSevenCardStud, HandHistory)

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
STUD = os.path.join(ROOT, "target", "verify", "stud")
AUTOS = (A.ANTE_POSTING, A.BET_COLLECTION, A.BLIND_OR_STRADDLE_POSTING, A.CARD_BURNING,
         A.HOLE_DEALING, A.BOARD_DEALING, A.HOLE_CARDS_SHOWING_OR_MUCKING, A.HAND_KILLING,
         A.CHIPS_PUSHING, A.CHIPS_PULLING)
# (name, PokerKit class, seats, strategy file, `stud serve --game`)
GAMES = [("7stud-hu", FixedLimitSevenCardStud, 2, "7stud-hu.strat", "7stud"),
         ("razz-hu", FixedLimitRazz, 2, "razz-hu.strat", "razz"),
         ("7stud-3p", FixedLimitSevenCardStud, 3, "7stud-3p.strat", "7stud-3p")]
HEROES = ["sound", "call", "raise", "no-fold-7th"]
STACK = 200


class Server:
    """`stud serve FILE:mixed` on pipes: one request line, one reply line."""

    def __init__(self, stud, strat, game):
        self.p = subprocess.Popen(
            [stud, "serve", strat + ":mixed", "--game", game, "--rules", "pokerkit"],
            stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)

    def ask(self, actions):
        self.p.stdin.write(json.dumps({"actions": actions}) + "\n")
        self.p.stdin.flush()
        r = json.loads(self.p.stdout.readline())
        if "error" in r:
            raise RuntimeError("stud serve: %s" % r["error"])
        return r

    def close(self):
        self.p.stdin.close()
        self.p.wait()


def history(game, st):
    """The hand so far as PHH action strings (every card shown: the server's player reads only
    its own seat's)."""
    return [str(a) for a in HandHistory.from_game_state(game, st).actions]


def hero_action(kind, legal, probs, last_street):
    """The planted leak's action among `legal` (PHH codes), the strategy's `probs` beside."""
    best = legal[max(range(len(legal)), key=lambda i: probs[i])]
    facing = "f" in legal  # a fold is legal only facing a bet (or the bring-in's completion)
    raises = [a for a in legal if a.startswith("cbr")]
    if kind == "call" and facing:
        return "cc"
    if kind == "raise":
        if raises:
            return raises[-1]
        return "cc" if "cc" in legal else best
    if kind == "no-fold-7th" and last_street and best == "f":
        return "cc"
    return best


def play(code, game, seats, server, hero, kind, rng):
    """One hand: PokerKit deals and plays; each decision asks the server. Returns the state."""
    st = game((STACK,) * seats, seats)
    while st.status:
        r = server.ask(history(game, st))
        legal, probs, seat = r["legal"], r["probs"], r["seat"]
        if seat == hero:
            a = hero_action(kind, legal, probs, st.street_index == len(st.streets) - 1)
        else:
            a = legal[sample(probs, rng)]
        if a == "f":
            st.fold()
        elif a == "cc":
            st.check_or_call()
        elif a == "pb":
            st.post_bring_in()
        else:
            st.complete_bet_or_raise_to(int(a.split()[1]))
    return st


def sample(probs, rng):
    x = rng.random() * sum(probs)
    for i, p in enumerate(probs):
        if x < p:
            return i
        x -= p
    return max(i for i, p in enumerate(probs) if p > 0)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--out", default=os.path.join(ROOT, "testdata", "review"))
    ap.add_argument("--hands", type=int, default=12, help="hands per game and hero")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--stud", default=os.environ.get("STUD", STUD), help="the stud binary")
    a = ap.parse_args()
    os.makedirs(a.out, exist_ok=True)
    for name, cls, seats, strat, serve_game in GAMES:
        server = Server(a.stud, os.path.join(ROOT, "strategies", strat), serve_game)
        game = cls(AUTOS, False, 1, 2, 5, 10)
        try:
            for h_i, kind in enumerate(HEROES):
                rng = random.Random(a.seed * 1000 + h_i)
                parts = []
                for n in range(a.hands):
                    hero = n % seats
                    st = play(name, game, seats, server, hero, kind, rng)
                    players = ["Hero" if s == hero else "Bot%d" % (s + 1) for s in range(seats)]
                    hh = HandHistory.from_game_state(game, st, players=players)
                    parts.append("[%d]\n%s" % (n + 1, hh.dumps()))
                path = os.path.join(a.out, "%s-%s.phhs" % (name, kind))
                with open(path + ".tmp", "w") as f:
                    f.write("\n".join(parts))
                os.replace(path + ".tmp", path)
                print("%s: %d hands" % (path, a.hands))
        finally:
            server.close()


if __name__ == "__main__":
    main()
