"""OpenSpiel: the tabular policies of Kuhn and Leduc solves and strategy files (their
exploitability as OpenSpiel computes it against what the solve printed: to 1e-9 for the solve's
own unrounded average, within the file's rounding for its file) and the policy of the
python_pokerkit_wrapper games."""

import random

import pytest

import pyspiel  # noqa: E402
from open_spiel.python.algorithms import exploitability  # noqa: E402
from open_spiel.python.games import pokerkit_wrapper  # noqa: E402,F401 (registers the game)

import stud  # noqa: E402
from stud.openspiel import PokerkitPolicy, tabular_policy  # noqa: E402
from conftest import strategy  # noqa: E402

# A strategy file stores each probability in 16 bits (rounded to 1/65535): its exploitability is
# the solve's to within this, in chips per game (measured differences: docs/guide/python.md).
FILE_ROUNDING = 1e-5


@pytest.mark.parametrize("game, openspiel, iterations", [
    ("kuhn", "kuhn_poker", 500),
    ("leduc", "leduc_poker", 100),
])
def test_a_solves_openspiel_exploitability_is_what_the_solve_printed(
        tmp_path, game, openspiel, iterations):
    out = tmp_path / (game + ".strat")
    report = stud.solve(game, iterations=iterations, out=str(out))
    assert report["iterations"] == iterations
    g = pyspiel.load_game(openspiel)
    # The solve's own average, unrounded: OpenSpiel's best response measures the very figure
    # the solve reported (its JSON line's, every digit).
    average = exploitability.exploitability(g, tabular_policy(g, report.average))
    assert abs(average - report["exploitability"]) < 1e-9, (average, report)
    assert abs(report.average.exploitability(game)["chips"] - report["exploitability"]) < 1e-12
    # The file's policy (its rows as stored) measured by both best responses: the same figure.
    player = stud.Player(str(out))
    measured = exploitability.exploitability(g, tabular_policy(g, player))
    assert abs(measured - player.exploitability(game)["chips"]) < 1e-9
    # And the solve's figure up to the file's rounding, which moves it measurably.
    assert abs(measured - report["exploitability"]) < FILE_ROUNDING, (measured, report)
    assert measured != average
    # A bot's table is another policy, far from equilibrium: the comparison can fail.
    always_call = exploitability.exploitability(g, tabular_policy(g, stud.Player("call")))
    assert always_call > measured + 0.1


@pytest.mark.parametrize("bot", ["call", "raise", "random"])
@pytest.mark.parametrize("game, openspiel", [("kuhn", "kuhn_poker"), ("leduc", "leduc_poker")])
def test_a_bots_openspiel_exploitability_is_the_librarys(bot, game, openspiel):
    g = pyspiel.load_game(openspiel)
    player = stud.Player(bot)
    measured = exploitability.exploitability(g, tabular_policy(g, player))
    assert abs(measured - player.exploitability(game)["chips"]) < 1e-9


def test_a_three_player_kuhn_table_maps_every_information_state(tmp_path):
    g = pyspiel.load_game("kuhn_poker", {"players": 3})
    table = tabular_policy(g, stud.Player("random"))
    assert (table.action_probability_array.sum(axis=1) > 0.999).all()
    assert (table.action_probability_array == 0.5).all()


def wrapper_game(variant, seats):
    return pyspiel.load_game("python_pokerkit_wrapper", {
        "variant": variant, "num_players": seats, "bring_in": 2, "small_bet": 5,
        "big_bet": 10, "antes": " ".join(["1"] * seats),
        "stack_sizes": " ".join(["200"] * seats), "num_streets": 5})


@pytest.mark.parametrize("variant, seats, spec", [
    ("FixedLimitSevenCardStud", 2, "7stud-hu.strat"),
    ("FixedLimitRazz", 2, "razz-hu.strat"),
    ("FixedLimitSevenCardStud", 3, "7stud-3p.strat"),
])
def test_wrapper_episodes_are_played_by_the_policy(variant, seats, spec):
    g = wrapper_game(variant, seats)
    policy = PokerkitPolicy(g, stud.Player(strategy(spec)))
    rng = random.Random(5)
    returns = [0.0] * seats
    for _ in range(10):
        state = g.new_initial_state()
        while not state.is_terminal():
            if state.is_chance_node():
                outcomes, probs = zip(*state.chance_outcomes())
                state.apply_action(rng.choices(outcomes, probs)[0])
                continue
            probs = policy.action_probabilities(state)
            assert set(probs) == set(state.legal_actions())
            assert abs(sum(probs.values()) - 1.0) < 1e-9
            actions, weights = zip(*probs.items())
            state.apply_action(rng.choices(actions, weights)[0])
        returns = [r + x for r, x in zip(returns, state.returns())]
    assert abs(sum(returns)) < 1e-9
