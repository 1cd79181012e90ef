"""Whole PokerKit hands played by the package's players: every action offered with weight is
legal in PokerKit, and the hands end."""

import random

import pytest

import pokerkit

import stud
from conftest import pokerkit_state, strategy


def legal_in_pokerkit(state, action):
    """Whether PokerKit allows `action` now."""
    if action.kind == "fold":
        return state.can_fold()
    if action.kind == "check_or_call":
        return state.can_check_or_call()
    if action.kind == "post_bring_in":
        return state.can_post_bring_in()
    return state.can_complete_bet_or_raise_to(action.amount)


def play(players, hands, seed, cls_name="FixedLimitSevenCardStud", stack=200):
    """Plays `hands` hands of PokerKit with players[seat] at each seat (rotated every hand);
    returns (hands finished, decisions, illegal offers, the first illegal offer)."""
    rng = random.Random(seed)
    seats = len(players)
    decisions = illegal = finished = 0
    first = None
    for hand in range(hands):
        state = pokerkit_state(cls_name, seats, stack)
        steps = 0
        while state.status:
            steps += 1
            assert steps < 200, "hand %d does not end" % hand
            seat = state.actor_index
            player = players[(seat + hand) % seats]
            policy = player.policy(state)
            assert abs(sum(policy.values()) - 1.0) < 1e-9, policy
            decisions += 1
            for action, p in policy.items():
                if p > 0.0 and not legal_in_pokerkit(state, action):
                    illegal += 1
                    first = first or (hand, stud.phh_actions(state), action)
            action = player.act(state, rng)
            assert action in policy
        finished += 1
    return finished, decisions, illegal, first


def test_a_thousand_heads_up_hands_of_the_shipped_strategy_have_no_illegal_action(hu_player):
    finished, decisions, illegal, first = play([hu_player, hu_player], 1000, seed=1)
    assert (finished, illegal) == (1000, 0), first
    assert decisions > 2000


def test_a_thousand_five_seat_hands_of_the_multiway_strategy_have_no_illegal_action():
    five = stud.Player(strategy("7stud-5p.strat"))
    finished, decisions, illegal, first = play([five] * 5, 1000, seed=2)
    assert (finished, illegal) == (1000, 0), first
    assert decisions > 5000


@pytest.mark.parametrize("cls_name, file", [
    ("FixedLimitRazz", "razz-hu.strat"),
    ("FixedLimitSevenCardStudHighLowSplitEightOrBetter", "stud8-hu.strat"),
])
def test_razz_and_stud8_strategies_play_pokerkit(cls_name, file):
    player = stud.Player(strategy(file))
    finished, _, illegal, first = play([player, stud.Player("heuristic")], 100, 3, cls_name)
    assert (finished, illegal) == (100, 0), first


@pytest.mark.parametrize("bot", stud.BOT_NAMES)
def test_every_bot_plays_a_pokerkit_table(bot):
    finished, _, illegal, first = play([stud.Player(bot)] * 4, 30, seed=4)
    assert (finished, illegal) == (30, 0), first


@pytest.mark.parametrize("bot", stud.BOT_NAMES)
def test_every_bot_plays_eight_seats_to_the_community_card(bot):
    # Eight seats at seventh street leave too few cards for eight down cards: PokerKit turns one
    # community card for every seat, and the players read it from the state as a board card.
    players = [stud.Player(bot)] + [stud.Player("call")] * 7
    rng = random.Random(8)
    community = 0
    for hand in range(12):
        state = pokerkit_state(seats=8)
        while state.status:
            player = players[(state.actor_index + hand) % 8]
            policy = player.policy(state)
            for action, p in policy.items():
                assert p == 0.0 or legal_in_pokerkit(state, action), (stud.phh_actions(state), action)
            if any(state.board_cards):
                community += 1
            player.act(state, rng)
    assert community > 0, "no decision after a community card"


def test_the_policy_is_the_protocols_answer_at_the_same_history(hu_player):
    # The same spot asked as a PokerKit state and as the PHH actions the protocol reads.
    state = pokerkit_state()
    stud.Player("call").act(state)
    by_state = hu_player.policy(state)
    by_phh = hu_player.policy_phh(stud.phh_actions(state), stud.game_of(state))
    assert {a.phh: p for a, p in by_state.items()} == by_phh
    assert stud.phh_actions(state)[-1].endswith(" pb")


def test_the_actions_are_pokerkits_terms():
    state = pokerkit_state()
    policy = stud.Player("random").policy(state)
    assert set(policy) == {stud.Action("post_bring_in"),
                           stud.Action("complete_bet_or_raise_to", 5)}
    assert [a.phh for a in policy] == ["pb", "cbr 5"]
    assert stud.Action.from_phh("cbr 10") == stud.Action("complete_bet_or_raise_to", 10)
    with pytest.raises(stud.StudError, match="not a PHH betting action"):
        stud.Action.from_phh("cbr")


def test_a_strategy_refuses_other_stakes_with_the_command_lines_message(hu_player):
    state = pokerkit_state(stack=100)  # all in under the cap: PokerKit's rules then differ
    with pytest.raises(stud.StudError, match="PokerKit's rules are accepted heads-up with "
                                             "stacks of at least 161"):
        hu_player.policy(state)
    game = pokerkit.FixedLimitSevenCardStud(
        (pokerkit.Automation.ANTE_POSTING,), False, 1, 2, 10, 20)  # other bets
    with pytest.raises(stud.StudError, match="7stud-hu.strat was solved for 7stud as stored in "
                                             "it, not for the game asked"):
        hu_player.policy(game((400, 400), 2))


@pytest.mark.parametrize("file, seats, stack", [("7stud-hu.strat", 2, 1000),
                                                ("7stud-5p.strat", 5, 500)])
def test_deeper_stacks_than_the_files_play_the_same_strategy(file, seats, stack):
    # No one can be all in under the cap either way: the stacks do not change the game.
    player = stud.Player(strategy(file))
    finished, _, illegal, first = play([player] * seats, 50, seed=6, stack=stack)
    assert (finished, illegal) == (50, 0), first

    def game(chips):
        return stud.Game("7stud", ante=1, bring_in=2, small_bet=5, big_bet=10,
                         stacks=[chips] * seats, rules="pokerkit")

    rng = random.Random(7)
    state = pokerkit_state(seats=seats, stack=stack)
    while state.status:
        history = stud.phh_actions(state)
        assert player.decide(history, game(stack)).probs == \
            player.decide(history, game(200)).probs
        player.act(state, rng)


def test_a_state_with_no_decision_due_says_what_is(hu_player):
    state = pokerkit_state()
    stud.Player("raise").act(state)
    state.fold()
    with pytest.raises(stud.NoDecisionError, match="no decision is due") as e:
        hu_player.policy(state)
    assert e.value.due["due"] == "over"
    assert e.value.due["payoffs"] == list(state.payoffs)


def test_other_games_are_refused():
    import pokerkit

    holdem = pokerkit.FixedLimitTexasHoldem(
        (pokerkit.Automation.ANTE_POSTING,), False, 0, (1, 2), 2, 4)((100, 100), 2)
    with pytest.raises(stud.StudError, match="not a game of seven-card stud"):
        stud.Player("call").policy(holdem)


def test_many_threads_share_one_player_and_get_the_sequential_answers(hu_player):
    import threading

    rng = random.Random(9)
    spots = []
    for _ in range(20):
        state = pokerkit_state()
        while state.status:
            spots.append(stud.phh_actions(state))
            hu_player.act(state, rng)
    game = stud.game_of(pokerkit_state())
    expected = [hu_player.decide(h, game).probs for h in spots]
    results, errors = [None] * 8, []

    def work(t):
        try:
            results[t] = [hu_player.decide(h, game).probs for h in spots]
        except Exception as e:  # noqa: BLE001 (reported below, with the thread)
            errors.append((t, e))

    threads = [threading.Thread(target=work, args=(t,)) for t in range(8)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert not errors and all(r == expected for r in results)
