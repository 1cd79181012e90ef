#!/usr/bin/env python3
"""Where a player's chips go in a match: the hands `stud match --phh-out DIR` wrote, broken down.

Usage: scripts/match-breakdown.py DIR [--player NAME] [--stud PATH] [--json]

Every hand of DIR is replayed by `stud replay --json` (the rules engine: the payoffs and each
decision's street and action). The player (default: the match's first, the one in seat p1 of
every `{deal}a.phh`) is compared with the others two ways:

  - where each seat's hand ended: folded on 3rd to 7th street, or played to the end (a
    showdown, or every other seat folded); the share of hands and the chips won per hand of all;
  - duplicate: by the player's first action on 3rd street (the bring-in's post or completion,
    a first-in call or completion, facing 1, 2, ... bets: fold, call or raise), the player's
    chips and the chips the other players won with the same cards (the same seat of the same
    deal, in the other seatings), per hand of all. The difference column adds up to the
    player's edge over the others on these deals; its biggest rows are where it is lost or won.

A big bet is the game's `big_bet`; mbb/hand is a thousandth of one. Build first:
cargo build --release -p solver (or pass --stud).

Example (the first rows of a loose file's leak):
  stud match FILE:pure heuristic heuristic heuristic heuristic --game stud8-5p --hands 2000 \
      --seed 11 --phh-out hands/
  scripts/match-breakdown.py hands/
"""
import argparse
import collections
import glob
import json
import os
import re
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
STUD = os.path.join(ROOT, "target", "release", "stud")
STREETS = ["3rd", "4th", "5th", "6th", "7th"]
CHUNK = 400  # files per `stud replay` run (the command line's length)


def read_hands(folder, stud):
    """Each hand of `folder`: (deal, seating letter, players, big bet, the replay's JSON)."""
    files = sorted(glob.glob(os.path.join(folder, "*.phh")))
    if not files:
        sys.exit(f"{folder}: no .phh files (write them with stud match --phh-out {folder})")
    hands = []
    for i in range(0, len(files), CHUNK):
        chunk = files[i:i + CHUNK]
        out = subprocess.run([stud, "replay", "--json", *chunk], capture_output=True, text=True)
        if out.returncode != 0:
            sys.exit(f"stud replay failed: {out.stderr.strip()}")
        replays = json.loads(out.stdout)
        if isinstance(replays, dict):
            replays = [replays]
        for path, r in zip(chunk, replays):
            name = re.fullmatch(r"(\d+)([a-h])\.phh", os.path.basename(path))
            if not name:
                sys.exit(f"{path}: not a name stud match --phh-out writes ({{deal}}a.phh, ...)")
            text = open(path, encoding="utf-8").read()
            players = re.search(r"^players = \[(.*)\]$", text, re.M)
            big = re.search(r"^big_bet = (\d+)$", text, re.M)
            if not players or not big:
                sys.exit(f"{path}: no players or big_bet field")
            names = [p.strip().strip('"') for p in players.group(1).split(",")]
            hands.append((int(name.group(1)), name.group(2), names, int(big.group(1)), r))
    return hands


def ended(replay, seat):
    """Where `seat`'s hand ended: 'fold 3rd' to 'fold 7th', or 'to the end'."""
    for d in replay["decisions"]:
        if d["seat"] == seat and d["taken"] == "f":
            return "fold " + STREETS[min(d["street"], len(STREETS) - 1)]
    return "to the end"


def first_action(replay, seat):
    """`seat`'s first action on 3rd street, with the spot it faced."""
    bets = 0
    for d in replay["decisions"]:
        if d["street"] != 0:
            break
        kind = d["taken"].split()[0]
        if d["seat"] == seat:
            name = {"f": "fold", "cc": "call", "cbr": "raise", "pb": "post"}.get(kind, kind)
            if "pb" in d["legal"]:
                return "bring-in: " + ("complete" if kind == "cbr" else name)
            if bets == 0:
                return "first in: " + ("complete" if kind == "cbr" else name)
            return f"facing {bets} bet{'s' if bets > 1 else ''}: {name}"
        if kind == "cbr":
            bets += 1
    return "no 3rd-street decision"


def breakdown(hands, player):
    """The two tables, per hand of all, in chips; and the totals."""
    seats = len(hands[0][2])
    big = hands[0][3]
    seatings = collections.defaultdict(list)  # deal -> its seatings' (names, replay)
    for deal, _, names, _, r in hands:
        seatings[deal].append((names, r))
    where = collections.defaultdict(lambda: {"player": [0, 0.0], "others": [0, 0.0]})
    first = collections.defaultdict(lambda: [0, 0.0, 0.0])
    n_player = n_others = 0
    for deal, (names, r) in ((d, x) for d, xs in seatings.items() for x in xs):
        for s in range(seats):
            who = "player" if names[s] == player else "others"
            cell = where[ended(r, s)][who]
            cell[0] += 1
            cell[1] += r["payoffs"][s]
            if who == "player":
                n_player += 1
                # The same cards (seat s of this deal) in the seatings where others held them.
                same = [o["payoffs"][s] for n, o in seatings[deal] if n[s] != player]
                row = first[first_action(r, s)]
                row[0] += 1
                row[1] += r["payoffs"][s]
                row[2] += sum(same) / len(same) if same else 0.0
            else:
                n_others += 1
    if n_player == 0:
        sys.exit(f"no hand has a player named {player!r}")
    where_rows = [{"ended": k,
                   "player_share": v["player"][0] / n_player,
                   "player_chips": v["player"][1] / n_player,
                   "others_share": v["others"][0] / max(n_others, 1),
                   "others_chips": v["others"][1] / max(n_others, 1)}
                  for k, v in sorted(where.items(), key=lambda kv: (kv[0] != "to the end", kv[0]))]
    first_rows = [{"first_action": k, "share": v[0] / n_player, "player_chips": v[1] / n_player,
                   "others_chips": v[2] / n_player, "difference": (v[1] - v[2]) / n_player}
                  for k, v in sorted(first.items(), key=lambda kv: kv[1][1] - kv[1][2])]
    total = sum(v[1] for v in first.values()) / n_player
    same = sum(v[2] for v in first.values()) / n_player
    return {"player": player, "hands": n_player, "big_bet": big, "where": where_rows,
            "first_action": first_rows, "player_chips": total, "others_same_cards": same,
            "player_mbb_per_hand": 1000 * total / big}


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("folder", help="the folder stud match --phh-out wrote")
    ap.add_argument("--player", help="the player broken down (default: the match's first)")
    ap.add_argument("--stud", default=STUD, help="the stud binary")
    ap.add_argument("--json", action="store_true", help="print one JSON object")
    a = ap.parse_args()
    hands = read_hands(a.folder, a.stud)
    player = a.player or next(h[2][0] for h in hands if h[1] == "a")
    b = breakdown(hands, player)
    if a.json:
        print(json.dumps(b))
        return
    print(f"{player}: {b['hands']} hands, {b['player_chips']:+.3f} chips a hand "
          f"({b['player_mbb_per_hand']:+.1f} mbb/hand); the others with the same cards "
          f"{b['others_same_cards']:+.3f}")
    print("\nwhere a hand ended     player: share  chips/hand   others: share  chips/hand")
    for w in b["where"]:
        print(f"  {w['ended']:20s} {w['player_share']:13.3f} {w['player_chips']:+11.3f}"
              f" {w['others_share']:15.3f} {w['others_chips']:+11.3f}")
    print("\nfirst action on 3rd street   share   player   others, same cards   difference"
          "   (chips per hand of all)")
    for f in b["first_action"]:
        print(f"  {f['first_action']:26s} {f['share']:6.3f} {f['player_chips']:+8.3f}"
              f" {f['others_chips']:+20.3f} {f['difference']:+12.3f}")


if __name__ == "__main__":
    main()
