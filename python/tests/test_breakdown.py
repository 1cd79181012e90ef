"""scripts/match-breakdown.py on a match it did not play: its totals are `stud match`'s own
result, its tables add up, and a hand folded first in loses exactly the ante."""

import json
import os
import subprocess
import sys

from conftest import ROOT, stud_bin

SCRIPT = os.path.join(ROOT, "scripts", "match-breakdown.py")


def test_the_breakdown_adds_up_to_the_match(tmp_path):
    hands = tmp_path / "hands"
    match = subprocess.run(
        [stud_bin(), "match", "heuristic", "call", "call", "--game", "7stud-3p", "--hands", "60",
         "--seed", "3", "--phh-out", str(hands), "--no-aivat", "--json"],
        check=True, capture_output=True, text=True).stdout
    result = json.loads(match.strip().splitlines()[-1])["players"][0]
    assert result["player"] == "heuristic"
    out = subprocess.run([sys.executable, SCRIPT, str(hands), "--stud", stud_bin(), "--json"],
                         check=True, capture_output=True, text=True).stdout
    b = json.loads(out)
    assert b["player"] == "heuristic"
    assert b["hands"] == result["hands"]
    assert abs(b["player_mbb_per_hand"] - result["mbb_per_hand"]) < 1e-6
    assert abs(sum(w["player_share"] for w in b["where"]) - 1) < 1e-9
    assert abs(sum(w["others_share"] for w in b["where"]) - 1) < 1e-9
    assert abs(sum(w["player_chips"] for w in b["where"]) - b["player_chips"]) < 1e-9
    rows = b["first_action"]
    assert abs(sum(f["share"] for f in rows) - 1) < 1e-9
    assert abs(sum(f["difference"] for f in rows)
               - (b["player_chips"] - b["others_same_cards"])) < 1e-9
    # Folding first in on 3rd street loses the ante (1 chip at these stakes), no more.
    folds = [f for f in rows if f["first_action"] == "first in: fold"]
    assert folds, rows
    assert abs(folds[0]["player_chips"] / folds[0]["share"] + 1) < 1e-9
