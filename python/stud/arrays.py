"""A heads-up strategy file as numpy arrays (``pip install numpy``): its sections viewed in place
through a read-only ``numpy.memmap`` of the file (no copy), and each decision's rows decoded.

The layout is solver/src/strategy_file.rs's: nodes (``kind`` 0 decision, 1 chance, 2 fold,
3 showdown; ``seat`` a seat in a public tree, a role in a betting tree, 0 acting first on the
street), the edge into each node, the bucket tables of a public tree (``[board, seat, hand]``),
the buckets per street, and the stored probabilities: ``k - 1`` per row of a decision of ``k``
actions, as ``u16`` of 65535 or ``u8`` of 255, the last action the rest.

``edges`` are the file's raw codes (0 the root, 1 fold, 2 check or call, 3 bring-in,
``0x40000000 | N`` a completion, bet or raise to N, ``0x80000000 | id`` a card of id ``rank * 4 +
suit``); ``edge_code`` and ``StrategyArrays.actions(node)`` decode them into the spot notation's
codes (``f``, ``cc``, ``pb``, ``cbr10``, ``Kh``), as ``stud query --json``'s ``actions``.
"""

from __future__ import annotations

import numpy as np

from ._stud import StrategyFile, StudError

_PUBLIC_NODE = np.dtype([("kind", "u1"), ("seat", "u1"), ("street", "u1"),
                         ("num_children", "u1"), ("first_child", "<u4"), ("first_row", "<u4"),
                         ("board", "<u4")])
_BETTING_NODE = np.dtype([("kind", "u1"), ("role", "u1"), ("street", "u1"),
                          ("num_children", "u1"), ("first_child", "<u4"), ("first_row", "<u4")])
DECISION = 0

_PLAIN_EDGES = {0: "root", 1: "f", 2: "cc", 3: "pb"}
_TAG = 0xC0000000


def edge_code(code: int) -> str:
    """A raw edge code of a strategy file (an entry of ``StrategyArrays.edges``) as the spot
    notation writes it: ``root``, ``f``, ``cc``, ``pb``, ``cbrN`` (complete, bet or raise to N
    chips this round) or a card (``Kh``)."""
    code = int(code)
    tag, value = code & _TAG, code & ~_TAG
    if tag == 0 and value in _PLAIN_EDGES:
        return _PLAIN_EDGES[value]
    if tag == 0x40000000:
        return "cbr%d" % value
    if tag == 0x80000000 and value < 52:
        return "23456789TJQKA"[value >> 2] + "cdhs"[value & 3]
    raise StudError("damaged: edge code %#x" % code)


class StrategyArrays:
    """The sections of a heads-up strategy file (public or betting tree) as numpy arrays:
    ``nodes`` (a structured array), ``edges``, ``bucket_tables`` (public trees),
    ``num_buckets`` and ``stored``, all views of the mapped file. ``rows(node)`` decodes a
    decision's rows and ``actions(node)`` its children's edges (the rows' columns);
    ``decisions`` are the decision nodes' ids."""

    def __init__(self, path):
        self.file = StrategyFile(path)
        header = self.file.header
        ranges = self.file.section_ranges()
        mapped = np.memmap(path, mode="r", dtype=np.uint8)

        def section(i, dtype):
            start, end = ranges[i]
            return mapped[start:end].view(dtype)

        public = header["tree"] == "Public"
        self.nodes = section(0, _PUBLIC_NODE if public else _BETTING_NODE)
        self.edges = section(1, "<u4")
        self.bucket_tables = section(2, "<u4").reshape(header["boards"], 2, header["hands"])
        self.num_buckets = section(3, "<u4")
        self.stored = section(4, "<u2" if header["width"] == "U16" else "u1")
        self.scale = 65535.0 if header["width"] == "U16" else 255.0
        self.decisions = np.flatnonzero(self.nodes["kind"] == DECISION)

    def rows(self, node: int) -> np.ndarray:
        """Decision ``node``'s rows: an array of (row key, action) probabilities, one row per
        bucket (or key of the bucket and what the rows recall) of its street, the actions in the
        order of the node's children."""
        n = self.nodes[node]
        if n["kind"] != DECISION:
            raise StudError("node %d is not a decision" % node)
        k = int(n["num_children"])
        keys = int(self.num_buckets[n["street"]])
        start = int(n["first_row"])
        stored = self.stored[start:start + keys * (k - 1)]
        if stored.size != keys * (k - 1):
            raise StudError("damaged: node %d's strategy lies beyond the file" % node)
        rows = np.empty((keys, k))
        rows[:, :-1] = stored.reshape(keys, k - 1)
        rows[:, -1] = self.scale - rows[:, :-1].sum(axis=1)
        return rows / self.scale

    def actions(self, node: int) -> list:
        """The edges into ``node``'s children as the spot notation writes them (``edge_code``):
        a decision's actions in its rows' order, a chance node's cards."""
        n = self.nodes[node]
        first = int(n["first_child"])
        return [edge_code(e) for e in self.edges[first:first + int(n["num_children"])]]
