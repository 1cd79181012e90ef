"""`stud.query`: `stud query`'s answer at a spot from Python, field for field the command's
`--json` (the same library answers both), with `--hand`, `--ranges`, `--play` and `--values`."""

import json
import os
import shutil
import subprocess

import pytest

import stud
from conftest import strategy, stud_bin

HU = strategy("7stud-hu.strat")
MW = strategy("7stud-3p.strat")
FOURTH = "3c 8d pb cc | Qs 2h x b"


def command(*args):
    """`stud query ARGS --json`'s answer."""
    out = subprocess.run([stud_bin(), "query", *args, "--json"], check=True,
                         capture_output=True, text=True).stdout
    return json.loads(out)


@pytest.mark.parametrize("spot, options, flags", [
    ("", {}, []),
    ("3c 8d pb", {}, []),
    (FOURTH, {"hand": "As Kd"}, ["--hand", "As Kd"]),
    ("3c 8d pb", {"hand": "(As Kd) 8d"}, ["--hand", "(As Kd) 8d"]),
    ("3c 8d pb", {"ranges": True}, ["--ranges"]),
    ("3c 8d pb cbr5 cbr10 cbr15 cbr20", {"hand": "Ah Ad"}, ["--hand", "Ah Ad"]),
    # Past the strategy's cap of 4 bets: its game has called, and so does the answer.
    ("3c 8d pb cbr5 cbr10 cbr15 cbr20 cbr25", {"hand": "Ah Ad"}, ["--hand", "Ah Ad"]),
    ("3c 8d pb cbr5 cbr10 cbr15 cbr20 cbr25", {"ranges": True}, ["--ranges"]),
])
def test_an_answer_is_the_commands_json(spot, options, flags):
    answer = stud.query(HU, spot, **options)
    assert answer.to_dict() == command(HU, spot, *flags)


def test_an_answer_speaks_the_players_terms():
    a = stud.query(HU, FOURTH, hand="As Kd")
    # p1 shows Q-3 against 2-8: first to act on 4th street, it checked and faces the bet.
    assert (a.seat, a.role, a.street, a.street_name) == (0, 0, 1, "4th street")
    assert a.actions == ["fold", "call 5", "raise to 10"]
    assert a.codes == ["f", "cc", "cbr10"]
    assert list(a.row) == a.actions and abs(sum(a.row.values()) - 1.0) < 1e-9
    assert a.description == "ace or king high"
    assert a.ranges is None and a.values is None
    first = stud.query(HU)
    assert first.seat is None and first.row is None and first.description is None
    assert first.actions == ["bring in for 2", "complete to 5"]
    ranges = stud.query(HU, "3c 8d pb", ranges=True)
    assert [r["seat"] for r in ranges.ranges] == [0, 1]
    assert ranges.chart["holdings"] == ranges.ranges[1]["holdings"]


def test_a_players_spec_plays_its_rows_as_the_command_plays_them():
    pure = stud.query(stud.Player(HU + ":pure"), "3c 8d pb")
    assert pure.to_dict() == command(HU, "3c 8d pb", "--play", "pure")
    # Pure: one action (or a tie of equal ones, as an unreached uniform row) per row.
    assert all(len({p for p in h["probabilities"] if p > 0}) == 1 for h in pure.hands)
    # The bare file's player: the rows as stored, as `stud query FILE` prints them.
    assert stud.query(stud.Player(HU), "3c 8d pb").to_dict() == command(HU, "3c 8d pb")


def test_the_values_are_the_commands():
    # Estimated on 4th street from 100 deals of seed 7: the same draws, the same values, on any
    # number of threads (the exact walk of the last streets is the library's own tests').
    a = stud.query(HU, FOURTH, hand="As Kd", values=True, samples=100, seed=7)
    expected = command(HU, FOURTH, "--hand", "As Kd", "--values", "--samples", "100", "--seed",
                       "7")
    got = dict(a.values)
    # The time it took is the one field that differs between two runs.
    got.pop("millis"), expected.pop("millis")
    assert got == expected
    assert (got["method"], got["samples"], got["seed"]) == ("estimate", 100, 7)
    assert a.to_dict() == command(HU, FOURTH, "--hand", "As Kd")


@pytest.mark.parametrize("spec, spot, options, flags", [
    (MW, "", {}, []),
    (MW, "3c 8d Kh pb", {}, []),
    (MW, "3c 8d Kh pb", {"hand": "As Ad"}, ["--hand", "As Ad"]),
    (MW, "p1 3c p2 8d p3 Kh p1 pb p2 f p3 cc | 9h Ts", {"hand": "(Qs Qd) Kh Ts"},
     ["--hand", "(Qs Qd) Kh Ts"]),
    (MW + ":pure", "3c 8d Kh pb", {}, ["--play", "pure"]),
    # Two seats left past the cap of 4 bets: the abstract street has closed, the answer calls.
    (MW, "3c 8d Kh pb f cbr5 cbr10 cbr15 cbr20 cbr25", {"hand": "As Ad"}, ["--hand", "As Ad"]),
    (strategy("7stud-4p.strat"), "3c 8d Kh 2s pb", {}, []),
])
def test_a_multiway_answer_is_the_commands_json(spec, spot, options, flags):
    answer = stud.query(spec, spot, **options)
    path = spec.removesuffix(":pure")
    assert answer.to_dict() == command(path, spot, *flags)


def test_a_multiway_files_ranges_and_values_are_the_commands():
    # Every live seat's range, and the values estimated from 100 deals of the table from seed 7.
    a = stud.query(MW, "3c 8d Kh pb", ranges=True)
    assert a.to_dict() == command(MW, "3c 8d Kh pb", "--ranges")
    assert [r["seat"] for r in a.to_dict()["ranges"]] == [0, 1, 2]
    a = stud.query(MW, "3c 8d Kh pb", hand="As Ad", values=True, samples=100, seed=7)
    expected = command(MW, "3c 8d Kh pb", "--hand", "As Ad", "--values", "--samples", "100",
                       "--seed", "7")
    got = dict(a.values)
    got.pop("millis"), expected.pop("millis")
    assert got == expected
    assert (got["method"], got["seats"], got["live"]) == ("estimate", 3, [0, 1, 2])


def test_a_multiway_answer_speaks_the_players_terms():
    a = stud.query(MW, "3c 8d Kh pb", hand="As Ad")
    # p1 brought in with the 3c: p2 acts first after it, second on the street.
    assert (a.seat, a.role, a.street_name) == (1, 1, "3rd street")
    assert a.codes[0] == "f" and abs(sum(a.row.values()) - 1.0) < 1e-9
    d = a.to_dict()
    assert (d["seats"], d["live"], d["showing"]) == (3, [0, 1, 2], ["3c", "8d", "Kh"])
    # Measured against the best showing live opponent: p3's king.
    assert d["against"] == 2
    assert stud.query(MW).seat is None


SEVENTH = "3c 8d pb cc | Qs 2h x x | 4d 5h x x | 9c Jd x x"


def timeless(answer):
    """A re-solve's answer without the times it took: the one part two runs differ in."""
    for key in ("solve_millis", "range_millis"):
        answer["subgame"].pop(key)
    return answer


@pytest.mark.parametrize("options, flags", [
    ({}, []),
    ({"safe": True}, ["--safe"]),
])
def test_a_resolve_answer_is_the_commands_json(options, flags):
    # 20 DCFR iterations: the same answer on every run, as the command's.
    a = stud.query(HU, SEVENTH, hand="As Kd 2s", resolve=True, iterations=20, **options)
    expected = command(HU, SEVENTH, "--hand", "As Kd 2s", "--resolve", "--iterations", "20",
                       *flags)
    assert timeless(a.to_dict()) == timeless(expected)
    assert (a.seat, a.street_name, a.actions) == (0, "7th street", ["check", "bet 10"])
    assert list(a.row) == a.actions and abs(sum(a.row.values()) - 1.0) < 1e-9
    assert a.hands == [] and a.description is None


@pytest.mark.parametrize("args, options, message", [
    ((HU, SEVENTH), {"resolve": True}, "give hand"),
    ((MW, "3c 8d Kh pb"), {"hand": "As Kd", "resolve": True}, "is a multiway file"),
    ((HU + ":pure", SEVENTH), {"hand": "As Kd 2s", "resolve": True}, "drop `:pure`"),
    ((HU, "3c 8d pb"), {"hand": "As Kd", "resolve": True}, "re-solving starts on the last"),
    ((HU, "3c 8d zz"), {}, "token 3 \"zz\" is neither an action"),
    ((HU, "3c 8d pb"), {"hand": "As As"}, "--hand"),
    ((HU, "3c 8d pb"), {"hand": "As Kd", "ranges": True}, "give no hand"),
    ((HU + ":pure", "3c 8d pb"), {"ranges": True}, "drop `:pure`"),
    ((MW, "3c 8d Kh pb"), {"hand": "(As Kd) Kh"}, "not the ones the spot dealt p2"),
    ((stud.Player("heuristic"), "3c 8d pb"), {}, "a bot: it has no strategy file"),
])
def test_a_bad_question_is_refused_with_the_commands_words(args, options, message):
    with pytest.raises(stud.StudError, match=message.replace("(", r"\(").replace(")", r"\)")):
        stud.query(*args, **options)


@pytest.fixture(scope="module")
def leduc(tmp_path_factory):
    out = tmp_path_factory.mktemp("leduc") / "leduc.strat"
    stud.solve("leduc", iterations=20, out=str(out))
    return str(out)


@pytest.mark.parametrize("spot, options, flags", [
    ("", {}, []),
    ("cbr2 cc | Kd | cbr4", {}, []),
    ("cbr2 cc | Kd | cbr4", {"hand": "Qc"}, ["--hand", "Qc"]),
    ("cc b", {}, []),
])
def test_a_public_tree_files_answer_is_the_commands_json(leduc, spot, options, flags):
    answer = stud.query(leduc, spot, **options)
    assert answer.to_dict() == command(leduc, spot, *flags)
    assert answer.role is None and not answer.capped


def test_a_public_tree_file_has_no_ranges_or_values(leduc):
    with pytest.raises(stud.StudError, match="public tree"):
        stud.query(leduc, "cbr2", ranges=True)
    with pytest.raises(stud.StudError, match="public tree"):
        stud.query(leduc, "cbr2", hand="Kd", values=True)


def test_a_file_is_read_again_once_rewritten(tmp_path):
    # The file is kept open between queries while unchanged: rewritten under the same name
    # (another strategy, a later modification time), its new contents answer.
    path = str(tmp_path / "kept.strat")
    shutil.copy(HU, path)
    assert stud.query(path, "3c 8d pb").to_dict() == stud.query(HU, "3c 8d pb").to_dict()
    assert stud.query(path, FOURTH, hand="As Kd").to_dict() == \
        stud.query(HU, FOURTH, hand="As Kd").to_dict()
    shutil.copy(MW, path)
    later = os.stat(path).st_mtime + 10
    os.utime(path, (later, later))
    assert stud.query(path, "").to_dict() == stud.query(MW, "").to_dict()
