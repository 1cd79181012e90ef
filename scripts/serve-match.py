#!/usr/bin/env python3
"""Full heads-up stud hands through one `stud serve` server: a dealer and a bot in Python.

Usage: scripts/serve-match.py [--player heuristic] [--game 7stud] [--hands 100] [--seed 1]
                              [--stud PATH] [--json]

Starts `stud serve PLAYER --listen 127.0.0.1:0` and plays --hands hands over one TCP connection.
The served player and a simple Python bot (it folds to a bet holding nothing, sometimes raises
holding something, and otherwise checks or calls) swap seats every hand. The dealer shuffles a
deck and knows every card; it never applies the rules itself, it asks the server with the whole
hand (every card shown) and follows the reply:

  - a decision: the seat to act and its legal actions. The served player's seat is then asked
    with only its own view (the opponent's down cards as ??) and its `action` is played; the
    Python bot picks from `legal` itself;
  - `"due": "card"`: the next card goes to `seat`, face `down` or `up`: the dealer deals it;
  - `"due": "over"`: the hand is over, with `payoffs` per seat.

Any other error reply is a protocol error. Prints the hands played and finished, the requests
and protocol errors, and the Python bot's result; exits 1 on any protocol error or unfinished
hand. Build first: cargo build --release -p solver (or pass --stud).
"""
import argparse, json, os, random, socket, subprocess, sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
STUD = os.path.join(ROOT, "target", "release", "stud")
RANKS = "23456789TJQKA"
MAX_STEPS = 200  # requests per hand before the hand counts as unfinished


class Client:
    def __init__(self, addr):
        self.sock = socket.create_connection(addr)
        self.sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
        self.f = self.sock.makefile("rwb")
        self.requests = 0

    def ask(self, req):
        self.requests += 1
        req["id"] = self.requests
        self.f.write(json.dumps(req).encode() + b"\n")
        self.f.flush()
        line = self.f.readline()
        if not line:
            raise RuntimeError("the server closed the connection")
        return json.loads(line)


def strong(cards, game):
    """Whether the Python bot holds something: a pair or better or an ace (high games), three
    different low cards (razz), either (stud8)."""
    ranks = [c[0] for c in cards]
    high = len(set(ranks)) < len(ranks) or "A" in ranks
    low = len({r for r in ranks if r in "A2345678"}) >= min(3, len(ranks))
    return {"razz": low, "stud8": high or low}.get(game, high)


def pybot(legal, cards, game, rng):
    """The Python bot's action, one of `legal`."""
    good = strong(cards, game)
    if not good and "f" in legal:
        return "f"
    raises = [a for a in legal if a.startswith("cbr")]
    if good and raises and rng.random() < 0.3:
        return raises[0]
    for a in ("cc", "pb"):
        if a in legal:
            return a
    return legal[0]


def view(hist, seat, down):
    """The history as `seat` sees it: the other seats' down cards are ??."""
    return [("d dh p%d ??" % (s + 1)) if (s is not None and s != seat and d) else a
            for a, s, d in zip(hist, down["seat"], down["down"])]


def play_hand(client, hand, served, game, rng, errors):
    """Plays one hand; returns the payoffs, or None if it did not finish."""
    deck = [r + s for r in RANKS for s in "cdhs"]
    rng.shuffle(deck)
    hist = []  # every action, every card shown
    meta = {"seat": [], "down": []}  # per action: the seat dealt to (None: a bet), face down?
    cards = [[], []]
    for _ in range(MAX_STEPS):
        r = client.ask({"actions": hist})
        if "error" in r:
            due = r.get("due")
            if due == "card" and r.get("seat") in (0, 1):
                seat, c = r["seat"], deck.pop()
                cards[seat].append(c)
                hist.append("d dh p%d %s" % (seat + 1, c))
                meta["seat"].append(seat)
                meta["down"].append(r["face"] == "down")
                continue
            if due == "over":
                if "payoffs" in r:
                    return r["payoffs"]
                errors.append("hand %d: over, every hand shown, but no payoffs: %s" % (hand, r))
                return None
            errors.append("hand %d: %s" % (hand, r))
            return None
        seat, legal = r["seat"], r["legal"]
        if seat == served:
            r = client.ask({"seat": seat, "actions": view(hist, seat, meta)})
            if "error" in r:
                errors.append("hand %d: the served seat's request: %s" % (hand, r))
                return None
            action = r["action"]
        else:
            action = pybot(legal, cards[seat], game, rng)
        hist.append("p%d %s" % (seat + 1, action))
        meta["seat"].append(None)
        meta["down"].append(False)
    errors.append("hand %d: not over after %d requests" % (hand, MAX_STEPS))
    return None


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--player", default="heuristic", help="built-in bot or strategy file")
    ap.add_argument("--game", default="7stud", choices=["7stud", "stud8", "razz", "5stud"])
    ap.add_argument("--hands", type=int, default=100)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--stud", default=os.environ.get("STUD", STUD), help="the stud binary")
    ap.add_argument("--json", action="store_true", help="print one JSON object")
    a = ap.parse_args()

    server = subprocess.Popen(
        [a.stud, "serve", a.player, "--game", a.game, "--listen", "127.0.0.1:0",
         "--seed", str(a.seed)],
        stdout=subprocess.PIPE, text=True)
    try:
        first = server.stdout.readline().split()
        if first[:2] != ["listening", "on"]:
            sys.exit("serve-match: the server did not start: %r" % " ".join(first))
        host, port = first[2].rsplit(":", 1)
        client = Client((host, int(port)))
        rng = random.Random(a.seed)
        errors, finished, py_total, served_total = [], 0, 0, 0
        for hand in range(a.hands):
            served = hand % 2  # the seats swap every hand
            payoffs = play_hand(client, hand, served, a.game, rng, errors)
            if payoffs is not None:
                finished += 1
                py_total += payoffs[1 - served]
                served_total += payoffs[served]
        client.sock.close()
    finally:
        server.terminate()
        server.wait()

    report = {
        "player": a.player, "game": a.game, "hands": a.hands, "finished": finished,
        "requests": client.requests, "errors": len(errors),
        "python_bot_chips": py_total, "served_chips": served_total,
        "python_bot_chips_per_hand": round(py_total / max(finished, 1), 3),
    }
    for e in errors[:10]:
        print("serve-match: protocol error: %s" % e, file=sys.stderr)
    if a.json:
        print(json.dumps(report))
    else:
        print("%s (%s): %d hands, %d finished, %d requests, %d protocol errors; "
              "Python bot %+d chips (%+.3f per hand), %s %+d" % (
                  a.player, a.game, a.hands, finished, client.requests, len(errors),
                  py_total, report["python_bot_chips_per_hand"], a.player, served_total))
    sys.exit(1 if errors or finished != a.hands else 0)


if __name__ == "__main__":
    main()
