"""`stud.solve`: the library's driver from Python, its errors, and KeyboardInterrupt."""

import json
import os
import signal
import subprocess
import sys
import time

import pyspiel
import pytest

import stud
from stud.openspiel import tabular_policy


def test_a_solve_returns_its_report_and_writes_its_strategy(tmp_path):
    lines = []
    out = tmp_path / "kuhn.strat"
    report = stud.solve("kuhn", iterations=200, out=str(out), progress=lines.append)
    assert report["iterations"] == 200 and report["out"] == str(out)
    assert 0 < report["exploitability"] < 0.01
    assert any("200 iterations" in line for line in lines)
    assert stud.StrategyFile(str(out)).header["iterations"] == 200


def test_a_solve_told_no_stop_is_refused_with_the_command_lines_message(tmp_path):
    with pytest.raises(stud.StudError, match="say when to stop"):
        stud.solve("kuhn", out=str(tmp_path / "k.strat"))
    with pytest.raises(stud.StudError, match="no-such-game"):
        stud.solve("no-such-game", iterations=1)


def test_a_locked_solve_holds_the_lock_and_reports_it(tmp_path):
    lock = tmp_path / "calls.toml"
    lock.write_text('[[lock]]\nplayer = 2\nplay = { fold = 0, call = 1 }\n')
    out = tmp_path / "kuhn-locked.strat"
    report = stud.solve("kuhn", iterations=200, out=str(out), lock=str(lock))
    assert report["lock"]["file"] == str(lock) and report["lock"]["rules"] == 1
    # p2 facing a bet with the jack (OpenSpiel's "0b": pass = fold, bet = call) calls, as the
    # lock says, where the equilibrium folds it.
    table = tabular_policy(pyspiel.load_game("kuhn_poker"), stud.Player(str(out)))
    assert list(table.policy_for_key("0b")) == [0.0, 1.0]
    lock.write_text('[[lock]]\nplayer = 2\nplay = { fold = 0.5, call = 0.2 }\n')
    with pytest.raises(stud.StudError, match="calls.toml"):
        stud.solve("kuhn", iterations=10, out=str(out), lock=str(lock))


# A process started from a background job inherits SIGINT ignored, and Python then installs no
# KeyboardInterrupt handler: the child puts the default one back, as an interactive session has.
SOLVE = """
import json, signal, sys, stud
signal.signal(signal.SIGINT, signal.default_int_handler)
try:
    stud.solve("leduc", time=120, out=sys.argv[1], progress=lambda line: print(line, flush=True))
except KeyboardInterrupt as e:
    print(json.dumps({"message": str(e), "report": e.report}), flush=True)
"""


def test_keyboard_interrupt_writes_the_strategy_so_far_and_keeps_the_checkpoint(tmp_path):
    out = tmp_path / "leduc.strat"
    proc = subprocess.Popen([sys.executable, "-c", SOLVE, str(out)], stdout=subprocess.PIPE,
                            text=True, env=dict(os.environ, PYTHONUNBUFFERED="1"))
    while not proc.stdout.readline().startswith("solving until"):
        pass
    time.sleep(1.0)
    started = time.monotonic()
    proc.send_signal(signal.SIGINT)
    lines = proc.stdout.read().splitlines()
    assert proc.wait(timeout=60) == 0
    assert time.monotonic() - started < 30
    last = json.loads(lines[-1])
    assert last["message"].startswith("interrupted after ")
    assert "run the same command with --resume" in last["message"]
    assert last["report"]["iterations"] > 0
    assert out.exists() and (tmp_path / "leduc.ckpt").exists()
    # The checkpoint resumes: the iterations go on from it.
    more = stud.solve("leduc", iterations=last["report"]["iterations"] + 5, out=str(out),
                      resume=True)
    assert more["iterations"] == last["report"]["iterations"] + 5
