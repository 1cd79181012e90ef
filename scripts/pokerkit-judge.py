#!/usr/bin/env python3
"""Judges served players by an independent dealer: PokerKit deals heads-up fixed-limit seven-card
stud and plays its own Monte Carlo equity bot against each player served by `stud serve`, on the
same duplicate deals for every player.

Usage: scripts/pokerkit-judge.py PLAYER [PLAYER ...] [--deals 100] [--seed 1] [--rollouts 100]
                                 [--log FILE] [--stud PATH] [--json]
       scripts/pokerkit-judge.py --summary FILE [--json]

Each PLAYER (a `stud serve` player spec: strategies/7stud-hu.strat,
strategies/7stud-hu.strat:resolve,cold, heuristic, ...) is served by its own `stud serve PLAYER
--rules pokerkit` on pipes. Deal i is PokerKit's deck shuffled from seed (--seed, i); it is played
twice per player, the player in seat p1 then in seat p2, the cards staying with the seats
(a duplicate pair). PokerKit applies every action under its own rules; the server is asked for
the served seat's probabilities with the whole history (it reads only its own seat's cards) and
the action is drawn from them by a generator seeded by (seed, deal, seating, decision), so that
two players whose rows agree take the same actions.

The equity bot: at each decision, its chance of winning at showdown (ties half) against a
random hand of the opponent consistent with its up cards, by --rollouts rollouts of the unseen
cards (its own evaluator, not PokerKit's or the library's); it completes, bets or raises at
equity 0.65 or more, calls when the equity beats the pot odds, else checks or folds; its rollouts
are seeded as the served seat's draws are.

Prints per player its win rate against the bot in mbb/hand (1 mbb = 0.001 big bets) with a 95%
interval over the duplicate pairs, the decision latency of its server (median, p99, max, ms of
wall clock per request), and for every player after the first the difference from the first,
paired deal by deal, with its interval. --log appends one JSON line per deal and player (the
chips of both seatings, the latencies); --summary prints the same report from such a log, so
that a long run can be read while it goes on. Build first: cargo build --profile verify -p solver
(or pass --stud). Needs pokerkit==0.7.7.
"""
import argparse, itertools, json, math, os, random, subprocess, sys, time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
STUD = os.path.join(ROOT, "target", "verify", "stud")
STACK, ANTE, BRING_IN, SMALL, BIG = 200, 1, 2, 5, 10  # the shipped 7stud-hu.strat's game


class Server:
    """`stud serve PLAYER --rules pokerkit` on pipes: one request line, one reply line."""

    def __init__(self, stud, player):
        self.p = subprocess.Popen(
            [stud, "serve", player, "--game", "7stud", "--rules", "pokerkit"],
            stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
        self.millis = []

    def ask(self, actions):
        start = time.perf_counter()
        self.p.stdin.write(json.dumps({"actions": actions}) + "\n")
        self.p.stdin.flush()
        line = self.p.stdout.readline()
        self.millis.append((time.perf_counter() - start) * 1000.0)
        if not line:
            raise RuntimeError("stud serve closed its output")
        r = json.loads(line)
        if "error" in r:
            raise RuntimeError("stud serve: %s" % r["error"])
        return r

    def close(self):
        self.p.stdin.close()
        self.p.wait()


RANKS = {r: i for i, r in enumerate("23456789TJQKA", 2)}


def score(cards):
    """The best five-card high hand of `cards` ((rank, suit) pairs) as a comparable tuple."""
    by_suit = {}
    for r, s in cards:
        by_suit.setdefault(s, []).append(r)
    flush = next((rs for rs in by_suit.values() if len(rs) >= 5), None)
    if flush:
        sf = straight(set(flush))
        if sf:
            return (8, sf)
    counts = {}
    for r, _ in cards:
        counts[r] = counts.get(r, 0) + 1
    groups = sorted(((c, r) for r, c in counts.items()), reverse=True)
    if groups[0][0] == 4:
        kick = max(r for r in counts if r != groups[0][1])
        return (7, groups[0][1], kick)
    if groups[0][0] == 3 and len(groups) > 1 and groups[1][0] >= 2:
        return (6, groups[0][1], groups[1][1])
    if flush:
        return (5,) + tuple(sorted(flush, reverse=True)[:5])
    st = straight(set(counts))
    if st:
        return (4, st)
    singles = sorted((r for c, r in groups if c == 1), reverse=True)
    if groups[0][0] == 3:
        return (3, groups[0][1]) + tuple(singles[:2])
    if groups[0][0] == 2 and len(groups) > 1 and groups[1][0] == 2:
        rest = max([r for c, r in groups[2:]] or [0])
        return (2, groups[0][1], groups[1][1], rest)
    if groups[0][0] == 2:
        return (1, groups[0][1]) + tuple(singles[:3])
    return (0,) + tuple(singles[:5])


def straight(ranks):
    """The top rank of the best straight among `ranks`, 0 if none (the wheel's top is 5)."""
    for top in range(14, 4, -1):
        if all((r if r != 1 else 14) in ranks for r in range(top - 4, top + 1)):
            return top
    return 0


def card(c):
    return (RANKS[c.rank.value if hasattr(c.rank, "value") else str(c.rank)],
            c.suit.value if hasattr(c.suit, "value") else str(c.suit))


def equity(st, seat, rng, rollouts):
    """`seat`'s chance of winning (ties half) against a random holding of the opponent."""
    opp = 1 - seat
    mine = [card(c) for c in st.hole_cards[seat]]
    opp_up = [card(c) for c, up in zip(st.hole_cards[opp], st.hole_card_statuses[opp]) if up]
    seen = set(mine) | set(opp_up)
    unseen = [(r, s) for r in range(2, 15) for s in "cdhs" if (r, s) not in seen]
    need_me, need_opp = 7 - len(mine), 7 - len(opp_up)
    won = 0.0
    for _ in range(rollouts):
        draw = rng.sample(unseen, need_me + need_opp)
        a = score(mine + draw[:need_me])
        b = score(opp_up + draw[need_me:])
        won += 1.0 if a > b else 0.5 if a == b else 0.0
    return won / rollouts


def bot_action(st, seat, legal, rng, rollouts):
    """The equity bot's action among `legal` (PHH codes)."""
    e = equity(st, seat, rng, rollouts)
    raises = [a for a in legal if a.startswith("cbr")]
    if raises and e >= 0.65:
        return raises[0]
    if "f" in legal:
        cost = st.checking_or_calling_amount or 0
        pot = st.total_pot_amount
        return "cc" if e >= cost / (pot + cost) else "f"
    return "cc" if "cc" in legal else legal[0]


def history(st, game):
    from pokerkit import HandHistory
    return [str(a) for a in HandHistory.from_game_state(game, st).actions]


def play(game, server, served, deal, seating, a):
    """One hand of `deal`, the served player in seat `served`; its chips and the decisions."""
    random.seed(hash((a.seed, deal)) & 0xFFFFFFFF)  # PokerKit shuffles with `random`
    st = game((STACK, STACK), 2)
    for step in itertools.count():
        if not st.status:
            break
        rng = random.Random((a.seed * 1_000_003 + deal) * 7 + seating * 100_003 + step)
        seat = st.actor_index
        if seat == served:
            r = server.ask(history(st, game))
            act = r["legal"][draw(r["probs"], rng)]
        else:
            act = bot_action(st, seat, legal_of(st), rng, a.rollouts)
        apply(st, act)
    return st.payoffs[served]


def legal_of(st):
    """The PHH codes PokerKit allows now."""
    out = []
    if st.can_fold():
        out.append("f")
    if st.can_post_bring_in():
        out.append("pb")
    if st.can_check_or_call():
        out.append("cc")
    if st.can_complete_bet_or_raise_to():
        out.append("cbr %d" % st.min_completion_betting_or_raising_to_amount)
    return out


def apply(st, act):
    if act == "f":
        st.fold()
    elif act == "cc":
        st.check_or_call()
    elif act == "pb":
        st.post_bring_in()
    else:
        st.complete_bet_or_raise_to(int(act.split()[1]))


def draw(probs, rng):
    x = rng.random() * sum(probs)
    for i, p in enumerate(probs):
        if x < p:
            return i
        x -= p
    return max(i for i, p in enumerate(probs) if p > 0)


def interval(xs):
    """Mean and 95% half-width of `xs`."""
    n = len(xs)
    if n < 2:
        return (xs[0] if xs else 0.0), float("inf")
    m = sum(xs) / n
    var = sum((x - m) ** 2 for x in xs) / (n - 1)
    return m, 1.96 * math.sqrt(var / n)


def quantile(xs, q):
    xs = sorted(xs)
    return xs[min(len(xs) - 1, int(q * len(xs)))] if xs else 0.0


def summary(rows):
    """The report of per-deal rows {player, deal, chips: [seat 1, seat 2], millis}."""
    players = list(dict.fromkeys(r["player"] for r in rows))
    per = {p: {r["deal"]: r for r in rows if r["player"] == p} for p in players}
    deals = sorted(set.intersection(*(set(d) for d in per.values()))) if players else []
    mbb = lambda r: sum(r["chips"]) / 2 / BIG * 1000  # a pair's mean, per hand
    out = {"deals": len(deals), "hands_per_player": 2 * len(deals), "players": []}
    for p in players:
        m, h = interval([mbb(per[p][d]) for d in deals])
        ms = [x for d in deals for x in per[p][d]["millis"]]
        out["players"].append({
            "player": p, "mbb_per_hand": round(m, 1), "ci95": round(h, 1),
            "decisions": len(ms), "median_ms": round(quantile(ms, 0.5), 1),
            "p99_ms": round(quantile(ms, 0.99), 1), "max_ms": round(max(ms or [0]), 1)})
    for p in players[1:]:
        m, h = interval([mbb(per[p][d]) - mbb(per[players[0]][d]) for d in deals])
        out.setdefault("differences", []).append({
            "player": p, "minus": players[0], "mbb_per_hand": round(m, 1), "ci95": round(h, 1),
            "separated": abs(m) > h})
    return out


def report(out, as_json):
    if as_json:
        print(json.dumps(out))
        return
    print("%d duplicate deals (%d hands a player) against PokerKit's equity bot:"
          % (out["deals"], out["hands_per_player"]))
    for p in out["players"]:
        print("  %s: %+.1f ± %.1f mbb/hand; %d decisions, median %.1f ms, p99 %.1f ms, max %.1f ms"
              % (p["player"], p["mbb_per_hand"], p["ci95"], p["decisions"], p["median_ms"],
                 p["p99_ms"], p["max_ms"]))
    for d in out.get("differences", []):
        print("  %s − %s: %+.1f ± %.1f mbb/hand (%s)" % (
            d["player"], d["minus"], d["mbb_per_hand"], d["ci95"],
            "separated" if d["separated"] else "not separated"))


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("players", nargs="*", help="stud serve player specs")
    ap.add_argument("--deals", type=int, default=100)
    ap.add_argument("--first-deal", type=int, default=0, help="the first deal's number")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--rollouts", type=int, default=100, help="the equity bot's per decision")
    ap.add_argument("--log", help="append one JSON line per deal and player here")
    ap.add_argument("--summary", help="only report the log FILE")
    ap.add_argument("--stud", default=os.environ.get("STUD", STUD), help="the stud binary")
    ap.add_argument("--json", action="store_true", help="print one JSON object")
    a = ap.parse_args()
    if a.summary:
        with open(a.summary) as f:
            return report(summary([json.loads(l) for l in f if l.strip()]), a.json)
    if not a.players:
        ap.error("name at least one player")
    from pokerkit import Automation as A, FixedLimitSevenCardStud
    autos = (A.ANTE_POSTING, A.BET_COLLECTION, A.BLIND_OR_STRADDLE_POSTING, A.CARD_BURNING,
             A.HOLE_DEALING, A.BOARD_DEALING, A.HOLE_CARDS_SHOWING_OR_MUCKING, A.HAND_KILLING,
             A.CHIPS_PUSHING, A.CHIPS_PULLING)
    game = FixedLimitSevenCardStud(autos, False, ANTE, BRING_IN, SMALL, BIG)
    servers = [Server(a.stud, p) for p in a.players]
    log = open(a.log, "a") if a.log else None
    rows = []
    try:
        for deal in range(a.first_deal, a.first_deal + a.deals):
            for p, server in zip(a.players, servers):
                before = len(server.millis)
                chips = [play(game, server, seat, deal, seat, a) for seat in (0, 1)]
                row = {"player": p, "deal": deal, "chips": chips,
                       "millis": [round(x, 2) for x in server.millis[before:]]}
                rows.append(row)
                if log:
                    log.write(json.dumps(row) + "\n")
                    log.flush()
    finally:
        for s in servers:
            s.close()
        if log:
            log.close()
    report(summary(rows), a.json)


if __name__ == "__main__":
    sys.exit(main())
