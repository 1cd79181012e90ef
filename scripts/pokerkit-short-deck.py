#!/usr/bin/env python3
"""Writes testdata/pokerkit/short_deck: eight-handed stud hands dealt and played by PokerKit
0.7.7 (`pip install pokerkit==0.7.7`) with few folds, so that seventh street finds the stub
short: PokerKit shuffles the burns and the folded hands back, or, with all eight still in, turns
a community card. Each hand is N.phh (PokerKit's own HandHistory) and N.expected.json (what
PokerKit computed, as the other sets of testdata/pokerkit), kept only when the stub could not
deal seventh street to every live seat from what was left. Usage: scripts/pokerkit-short-deck.py
[OUT_DIR]."""
import json
import random
import sys
import warnings

from pokerkit import (Automation as A, FixedLimitRazz, FixedLimitSevenCardStud,
                      FixedLimitSevenCardStudHighLowSplitEightOrBetter, HandHistory)

AUTOS = (A.ANTE_POSTING, A.BET_COLLECTION, A.BLIND_OR_STRADDLE_POSTING, A.CARD_BURNING,
         A.HOLE_DEALING, A.BOARD_DEALING, A.HOLE_CARDS_SHOWING_OR_MUCKING, A.HAND_KILLING,
         A.CHIPS_PUSHING, A.CHIPS_PULLING)
GAMES = [("F7S", FixedLimitSevenCardStud), ("FR", FixedLimitRazz),
         ("F7S/8", FixedLimitSevenCardStudHighLowSplitEightOrBetter)]
SEATS, STACK = 8, 1000


def play(cls, rng, fold):
    game = cls(AUTOS, False, 1, 2, 5, 10)
    st = game((STACK,) * SEATS, SEATS)
    out = {"bring_in_seat": None, "bring_in_action": "none", "first_actor": []}
    street = None
    short = False
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        while st.status:
            if st.street_index != street and st.actor_index is not None:
                street = st.street_index
                out["first_actor"].append(st.actor_index)
            if st.can_post_bring_in():
                out["bring_in_seat"] = st.actor_index
                if rng.random() < 0.2:
                    out["bring_in_action"] = "complete"
                    st.complete_bet_or_raise_to()
                else:
                    out["bring_in_action"] = "bring_in"
                    st.post_bring_in()
                continue
            r = rng.random()
            if r < 0.1 and st.can_complete_bet_or_raise_to():
                st.complete_bet_or_raise_to()
            elif r < 0.1 + fold and st.can_fold():
                st.fold()
            else:
                st.check_or_call()
        short = any("reserved" in str(w.message) for w in caught)
    community = any(st.board_cards)
    return game, st, out, short or community, community


def main():
    root = sys.argv[1] if len(sys.argv) > 1 else "testdata/pokerkit/short_deck"
    rng = random.Random(7)
    n = 0
    for variant, cls in GAMES:
        kept = {True: 0, False: 0}
        while kept[True] < 2 or kept[False] < 2:
            game, st, out, short, community = play(cls, rng, rng.choice([0.0, 0.02, 0.04]))
            if not short or kept[community] >= 2:
                continue
            kept[community] += 1
            with open(f"{root}/{n}.phh", "wb") as f:
                HandHistory.from_game_state(game, st).dump(f)
            out = {"variant": variant, "n_players": SEATS,
                   "stakes": {"ante": 1, "bring_in": 2, "small_bet": 5, "big_bet": 10},
                   "starting_stacks": [STACK] * SEATS, **out,
                   "community_card": community,
                   "final_stacks": list(st.stacks),
                   "payoffs": [s - STACK for s in st.stacks]}
            with open(f"{root}/{n}.expected.json", "w") as f:
                json.dump(out, f, indent=1)
                f.write("\n")
            n += 1


if __name__ == "__main__":
    main()
