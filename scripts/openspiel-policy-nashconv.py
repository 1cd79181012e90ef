#!/usr/bin/env python3
"""OpenSpiel's NashConv of OUR three-handed Leduc policy: an independent check of our
game and our NashConv (the figure at the policy file's top-level "nash_conv").

Usage: scripts/openspiel-policy-nashconv.py POLICY.json
  POLICY.json: a "stud multiway policy 1" file of the 3-seat Leduc game (T J Q K, two suits).
Needs open_spiel from PyPI (2.0.2 checked). Walks leduc_poker(players=3)'s whole tree,
maps every decision state's information state to our "seen" string (own card, board,
"pN action" list without amounts) and our actions ('f' = 0 fold, 'cc' = 1 call, 'cbr N' =
2 raise to N, N = this round's bets so far plus one, times 2, then 4 on the second round),
checks the mapping is one-to-one and the action sets equal, first checks on every deal that
OpenSpiel's all-check showdown agrees with rank = card id // 2, then prints pyspiel.nash_conv
and the on-policy values of the mapped pyspiel.TabularPolicy. Exits non-zero on any mismatch.
Run: python3 scripts/openspiel-policy-nashconv.py leduc3.json (a venv with open_spiel)
(about 90 s on one core).
"""
import itertools
import json
import sys
import time

import pyspiel

RANKS, SUITS, NAMES = "TJQK", "cd", {0: "f", 1: "cc", 2: "cbr"}


def card(c):
    return RANKS[c // 2] + SUITS[c % 2]


def fail(msg):
    sys.exit("FAIL: " + msg)


def check_showdown(game, n):
    """All-check showdown returns against Leduc's rule under rank = id // 2."""
    for deal in itertools.permutations(range(game.max_chance_outcomes()), n + 1):
        s = game.new_initial_state()
        for i, c in enumerate(deal):
            if i == n:  # the board comes after the first round's checks
                for _ in range(n):
                    s.apply_action(1)
            s.apply_action(c)
        for _ in range(n):
            s.apply_action(1)
        b = deal[n] // 2
        score = [(1 if c // 2 == b else 0, c // 2) for c in deal[:n]]
        win = [p for p in range(n) if score[p] == max(score)]
        want = [n / len(win) - 1 if p in win else -1 for p in range(n)]
        if any(abs(a - w) > 1e-12 for a, w in zip(s.returns(), want)):
            fail(f"showdown {deal}: OpenSpiel {s.returns()}, rank=id//2 says {want}")


def main():
    if len(sys.argv) != 2:
        sys.exit(__doc__)
    start = time.perf_counter()
    doc = json.load(open(sys.argv[1]))
    ours = {(r["seat"], r["seen"]): r for r in doc["infosets"]}
    game = pyspiel.load_game("leduc_poker(players=3)")
    n = game.num_players()
    check_showdown(game, n)
    table, os_to_ours, used = {}, {}, set()

    def walk(s, cards, board, acts, start=0):
        if s.is_terminal():
            return
        if s.is_chance_node():
            for c, _ in s.chance_outcomes():
                t = s.child(c)
                if len(cards) < n:
                    walk(t, cards + [c], board, acts)
                else:
                    walk(t, cards, c, acts, len(acts))
            return
        p = s.current_player()
        b = "" if board is None else " board:" + card(board)
        seen = f"[{card(cards[p])}{b}] | " + ", ".join(f"p{q + 1} {NAMES[a]}" for q, a in acts)
        key = s.information_state_string(p)
        if os_to_ours.setdefault(key, (p, seen)) != (p, seen):
            fail(f"OpenSpiel info state {key!r} maps to both {os_to_ours[key]} and {(p, seen)}")
        row = ours.get((p, seen))
        if row is None:
            fail(f"no infoset of ours for seat {p} seen {seen!r} (OpenSpiel {key!r})")
        legal = s.legal_actions()
        to = (1 + sum(a == 2 for _, a in acts[start:])) * (2 if board is None else 4)
        names = [NAMES[a] + (f" {to}" if a == 2 else "") for a in legal]
        if row["actions"] != names:
            fail(f"{seen!r}: our actions {row['actions']}, OpenSpiel's {names}")
        table[key] = list(zip(legal, row["strategy"]))
        used.add((p, seen))
        for a in legal:
            walk(s.child(a), cards, board, acts + [(p, a)], start)

    walk(game.new_initial_state(), [], None, [])
    if len(set(os_to_ours.values())) != len(os_to_ours):
        fail("two OpenSpiel info states map to one infoset of ours")
    unmapped_ours = len(ours) - len(used)
    print(f"OpenSpiel info states: {len(table)} mapped, 0 unmapped; "
          f"our infosets: {len(ours)}, {unmapped_ours} never reached")
    pol = pyspiel.TabularPolicy(table)
    nc = pyspiel.nash_conv(game, pol)
    values = pyspiel.expected_returns(game.new_initial_state(), pol, -1, True)
    print(f"OpenSpiel on-policy values: {values}; our file's: {doc['on_policy']}")
    print(f"OpenSpiel nash_conv of our policy: {nc!r}")
    print(f"our file's nash_conv: {doc['nash_conv']!r}, "
          f"relative difference {abs(nc - doc['nash_conv']) / abs(doc['nash_conv']):.3e}")
    print(f"seconds: {time.perf_counter() - start:.1f}")
    if unmapped_ours:
        fail(f"{unmapped_ours} of our infosets have no OpenSpiel info state")


if __name__ == "__main__":
    main()
