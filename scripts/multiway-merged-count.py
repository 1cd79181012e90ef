#!/usr/bin/env python3
"""How much merging a street's betting histories by betting state would shrink the multiway
betting abstraction (docs/notes/multiway.md, "The betting abstraction"): one later street of
seven-card stud (no bring-in), summed over its trees of 2..N live seats, as a tree (what
`abstraction/src/multiway_betting.rs` builds: its counts are the docs' table) and merged (a
DAG: histories that reach the same actor, live roles, bets per role, bets made and roles still
to act share one node, so an information set forgets the order of the street's actions).

Usage: scripts/multiway-merged-count.py [CAP]   (default 4: a bet and three raises)
"""
import sys

CAP = int(sys.argv[1]) if len(sys.argv) > 1 else 4


def count(live_seats):
    """Decisions and actions of one street's tree of `live_seats`, and of its merged DAG."""
    tree = [0, 0]
    merged = {}

    def visit(actor, live, level, bets, to_act):
        if bin(live).count("1") == 1 or to_act == 0:
            return
        owes = bets > level[actor]
        k = (3 if owes else 2) - (1 if bets >= CAP else 0)
        tree[0] += 1
        tree[1] += k
        merged[(actor, live, level, bets, to_act)] = k
        actions = (["fold"] if owes else []) + ["call"] + (["raise"] if bets < CAP else [])
        for a in actions:
            lv, nl, nt, nb = list(level), live, to_act & ~(1 << actor), bets
            if a == "fold":
                nl &= ~(1 << actor)
            elif a == "call":
                lv[actor] = bets
            else:
                nb = bets + 1
                lv[actor] = nb
                nt = nl & ~(1 << actor)
            if bin(nl).count("1") == 1 or nt == 0:
                continue
            nxt = next(r for r in ((actor + d) % live_seats for d in range(1, live_seats + 1))
                       if nt >> r & 1)
            visit(nxt, nl, tuple(lv), nb, nt)

    everyone = (1 << live_seats) - 1
    visit(0, everyone, (0,) * live_seats, 0, everyone)
    return tree[0], tree[1], len(merged), sum(merged.values())


print("| seats | decisions: tree / merged | actions: tree / merged | actions divided by |")
print("|---|---|---|---|")
for seats in range(2, 9):
    t = [0, 0, 0, 0]
    for live in range(2, seats + 1):
        t = [a + b for a, b in zip(t, count(live))]
    print(f"| {seats} | {t[0]:,} / {t[2]:,} | {t[1]:,} / {t[3]:,} | {t[1] / t[3]:.1f} |")
