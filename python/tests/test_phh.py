"""The PHH entry point: the protocol's spots and errors, from Python."""

import pytest

import stud
from conftest import strategy

# docs/protocol.md's worked example.
OPENING = ["d dh p1 9c9d7h", "d dh p2 ????2c", "p2 pb"]


def test_the_heuristic_completes_as_in_the_protocols_worked_example():
    d = stud.Player("heuristic").decide(OPENING, "7stud")
    assert (d.seat, d.street, d.legal, d.probs) == (0, 0, ["f", "cc", "cbr 5"], [0.0, 0.0, 1.0])
    assert not d.fallback and not d.unreached


def test_a_strategy_answers_a_distribution_over_the_legal_actions():
    p = stud.Player(strategy("7stud-hu.strat") + ":mixed")
    assert p.name.endswith("7stud-hu.strat:mixed")
    policy = p.policy_phh(OPENING, "7stud")
    assert list(policy) == ["f", "cc", "cbr 5"]
    assert abs(sum(policy.values()) - 1.0) < 1e-9


def test_play_modes_are_the_command_lines():
    path = strategy("7stud-hu.strat")
    mixed = stud.Player(path + ":mixed").policy_phh(OPENING, "7stud")
    pure = stud.Player(path + ":pure").policy_phh(OPENING, "7stud")
    assert sorted(pure.values()) == [0.0, 0.0, 1.0]
    assert max(pure, key=pure.get) == max(mixed, key=mixed.get)
    with pytest.raises(stud.StudError, match="threshold"):
        stud.Player(path + ":threshold=2")


def test_a_resolving_player_answers_the_last_street():
    p = stud.Player(strategy("7stud-hu.strat") + ":resolve=5")
    hand = ["d dh p1 9c9d7h", "d dh p2 AsKs2c", "p2 pb", "p1 cc",
            "d dh p1 7s", "d dh p2 Kd", "p1 cc", "p2 cc",
            "d dh p1 3c", "d dh p2 4d", "p1 cc", "p2 cc",
            "d dh p1 5h", "d dh p2 8d", "p1 cc", "p2 cc",
            "d dh p1 Jc", "d dh p2 2d"]
    d = p.decide(hand, "7stud")
    assert d.street == 4 and abs(sum(d.probs) - 1.0) < 1e-9


def test_errors_carry_the_protocols_messages():
    p = stud.Player("call")
    with pytest.raises(stud.StudError, match=r"actions\[0\] `p1 xx`"):
        p.decide(["p1 xx"], "7stud")
    with pytest.raises(stud.StudError, match="the history does not replay"):
        p.decide(["d dh p1 9c9d7h", "p2 pb"], "7stud")
    with pytest.raises(stud.NoDecisionError) as e:
        p.decide(["d dh p1 9c9d7h"], "7stud")
    assert e.value.due == {"due": "card", "seat": 1, "face": "down"}
    with pytest.raises(stud.StudError, match="neither a bot"):
        stud.Player("no-such-file.strat")
    with pytest.raises(stud.StudError, match="rules `house`"):
        stud.Game.preset("7stud", rules="house")


def test_a_strategy_file_asked_in_another_game_says_so():
    p = stud.Player(strategy("7stud-hu.strat"))
    with pytest.raises(stud.StudError, match="not for the game asked"):
        p.decide(["d dh p1 9c9d7h", "d dh p2 ????2c"], "razz")


def test_a_table_game_is_asked_by_its_preset():
    hand = ["d dh p1 9c9d7h", "d dh p2 AsKs2c", "d dh p3 QhJhKd", "p2 pb"]
    d = stud.Player(strategy("7stud-3p.strat")).decide(hand, "7stud-3p")
    assert d.seat == 2 and d.legal == ["f", "cc", "cbr 5"]


def test_the_header_is_a_dict():
    f = stud.StrategyFile(strategy("7stud-5p.strat"))
    assert f.kind == "multiway"
    assert f.header["game"]["seats"] == 5 and f.header["kind"] == "multiway"
    hu = stud.StrategyFile(strategy("7stud-hu.strat"))
    assert (hu.kind, hu.header["tree"], hu.game["variant"]) == ("betting", "Betting", "7stud")
    with pytest.raises(stud.StudError, match="no-such.strat"):
        stud.StrategyFile("no-such.strat")


def test_a_game_says_what_it_is():
    g = stud.Game("razz", ante=1, bring_in=2, small_bet=5, big_bet=10, stacks=[300] * 3,
                  rules="pokerkit")
    assert (g.variant, g.seats, g.rules) == ("razz", 3, "pokerkit")
    assert g.definition()["starting_stacks"] == [300, 300, 300]
    assert "Game(\"razz\"" in repr(g)
    assert stud.Game.preset("7stud-5p").seats == 5
    with pytest.raises(stud.StudError):
        stud.Game("holdem", ante=1, bring_in=2, small_bet=5, big_bet=10, stacks=[200, 200])


def test_a_player_knows_its_files_game_and_a_bot_has_none():
    assert stud.Player(strategy("razz-hu.strat")).game["variant"] == "razz"
    assert stud.Player("heuristic").game is None
    assert stud.deck("leduc") == ["Jc", "Jd", "Qc", "Qd", "Kc", "Kd"]  # OpenSpiel's order


def test_a_warm_player_decides_as_a_cold_one():
    # warm=True computes the first street's bucket table (a lookup, not a rollout): the same
    # probabilities at both seats' first decisions of fixed five-card stud hands.
    path = strategy("5stud-hu.strat") + ":mixed"
    cold, warm = stud.Player(path), stud.Player(path, warm=True)
    ranks = "23456789TJQKA"
    for i in range(26):
        p1 = ranks[i % 13] + "s" + ranks[(i * 5 + 3) % 13] + "h"
        p2 = ranks[(i * 7 + 1) % 13] + "d" + ranks[(i * 3 + 2) % 13] + "c"
        first = ["d dh p1 " + p1, "d dh p2 " + p2]
        d = cold.decide(first, "5stud")
        # The bring-in or the completion, then the other seat's decision.
        second = first + ["p%d %s" % (d.seat + 1, d.legal[0 if i % 2 else -1])]
        for spot in (first, second):
            c, w = cold.decide(spot, "5stud"), warm.decide(spot, "5stud")
            assert (c.seat, c.legal, c.probs) == (w.seat, w.legal, w.probs), spot
