#!/usr/bin/env python3
"""OpenSpiel's side of the multiway checks: NashConv of pyspiel.CFRSolver and
pyspiel.CFRPlusSolver after the given iterations, with the seconds of the iterations alone.

Usage: scripts/openspiel-multiway.py GAME SOLVER ITERATIONS...
  GAME: an OpenSpiel game string, e.g. 'kuhn_poker(players=3)' or 'leduc_poker(players=3)'
  SOLVER: CFRSolver or CFRPlusSolver
Needs open_spiel from PyPI (pip install open_spiel; 2.0.2 made the figures of
solver/tests/it/multiway.rs). Prints one JSON object per checkpoint.
"""
import json
import sys
import time

import pyspiel


def main():
    if len(sys.argv) < 4:
        sys.exit(__doc__)
    name, solver_name = sys.argv[1], sys.argv[2]
    points = sorted(int(x) for x in sys.argv[3:])
    game = pyspiel.load_game(name)
    solver = getattr(pyspiel, solver_name)(game)
    done, iterating = 0, 0.0
    for target in points:
        start = time.perf_counter()
        while done < target:
            solver.evaluate_and_update_policy()
            done += 1
        iterating += time.perf_counter() - start
        start = time.perf_counter()
        nash_conv = pyspiel.nash_conv(game, solver.average_policy())
        print(json.dumps({
            "game": name, "solver": solver_name, "iterations": done,
            "nash_conv": nash_conv, "iterate_seconds": iterating,
            "nash_conv_seconds": time.perf_counter() - start,
        }), flush=True)


if __name__ == "__main__":
    main()
