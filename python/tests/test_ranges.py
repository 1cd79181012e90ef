"""Each seat's range at a spot (`stud query --ranges`), from Python."""

import pytest

import stud
from conftest import strategy


def test_the_ranges_reaching_a_spot_are_the_replay_of_the_rows():
    r = stud.Ranges(strategy("7stud-hu.strat"), stud.Game.preset("7stud"))
    dealt = ["d dh p1 9c9d7h", "d dh p2 AsKs2c"]
    before = r.at(dealt + ["p2 pb"])
    # Before any choice of p1's, its whole range reaches the spot; p2 brought in as it must.
    assert [s["seat"] for s in before] == [0, 1]
    assert before[0]["reach"] == pytest.approx(1.0)
    after = r.at(dealt + ["p2 pb", "p1 cbr 5", "p2 cc", "d dh p1 7s", "d dh p2 Kd"])
    for seat in after:
        assert seat["holdings"] > 0 and 0.0 < seat["reach"] <= 1.0
        assert sum(c["share"] for c in seat["classes"]) == pytest.approx(1.0)
        assert sum(b["share"] for b in seat["buckets"]) == pytest.approx(1.0)
    # Completing is not what every holding does: the range narrows.
    assert after[0]["reach"] < 1.0


def test_ranges_need_a_real_games_heads_up_file():
    with pytest.raises(stud.StudError, match="multiway"):
        stud.Ranges(strategy("7stud-3p.strat"), stud.Game.preset("7stud-3p"))
