"""A strategy file as numpy arrays: views of the mapped file, rows that are the library's."""

import numpy as np
import pyspiel
import pytest

import stud
from stud.arrays import StrategyArrays, edge_code
from stud.openspiel import tabular_policy
from conftest import strategy


def test_the_sections_are_views_of_the_mapped_file():
    a = StrategyArrays(strategy("7stud-hu.strat"))
    h = a.file.header
    assert len(a.nodes) == h["nodes"] and a.stored.size == h["stored"]
    assert isinstance(a.stored.base, np.memmap) or isinstance(a.stored.base.base, np.memmap)
    assert not a.stored.flags.writeable
    assert len(a.num_buckets) == 5
    for node in a.decisions[:: max(1, len(a.decisions) // 50)]:
        rows = a.rows(int(node))
        assert rows.shape == (a.num_buckets[a.nodes[node]["street"]],
                              a.nodes[node]["num_children"])
        assert np.allclose(rows.sum(axis=1), 1.0) and (rows >= 0).all()


def test_the_edges_decode_into_the_spot_notation():
    a = StrategyArrays(strategy("7stud-hu.strat"))
    assert edge_code(a.edges[0]) == "root"
    first = int(a.decisions[0])
    # The bring-in's decision: as `stud query FILE --json` names its actions.
    assert a.actions(first) == stud.query(strategy("7stud-hu.strat")).codes == ["pb", "cbr5"]
    assert [edge_code(x) for x in (1, 2, 3, 0x4000000A, 0x80000000 | 51, 0x80000000)] == [
        "f", "cc", "pb", "cbr10", "As", "2c"]
    with pytest.raises(stud.StudError, match="damaged: edge code 0x80000034"):
        edge_code(0x80000034)


def test_kuhns_rows_are_the_tabular_policys(tmp_path):
    out = tmp_path / "kuhn.strat"
    stud.solve("kuhn", iterations=300, out=str(out))
    a = StrategyArrays(str(out))
    table = tabular_policy(pyspiel.load_game("kuhn_poker"), stud.Player(str(out)))
    # The first decision is seat 0's opening, one row per card; OpenSpiel's information states
    # "0", "1", "2" are seat 0 holding J, Q or K there (pass, bet: the node's check, bet).
    first = int(a.decisions[0])
    rows = {tuple(np.round(r, 12)) for r in a.rows(first)}
    opening = {tuple(np.round(table.policy_for_key(k), 12)) for k in ("0", "1", "2")}
    assert rows == opening and len(rows) == 3


def test_a_multiway_file_has_no_arrays():
    with pytest.raises(stud.StudError, match="multiway file has its own layout"):
        StrategyArrays(strategy("7stud-3p.strat"))
