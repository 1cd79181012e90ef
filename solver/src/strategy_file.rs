//! Strategy files (`*.strat`): the solved average strategy, read in place through `memmap2`.
//!
//! A [`container`](crate::container) with magic `STUDSTRT`, a [`StrategyHeader`], and five
//! sections, all little-endian:
//!
//! | # | section     | type                 | count                     |
//! |---|-------------|----------------------|---------------------------|
//! | 0 | nodes       | [`NodeRecord`] (16 B) | `header.nodes`            |
//! | 1 | edges       | `u32` ([`encode_edge`]) | `header.nodes`          |
//! | 2 | buckets     | `u32` (seat 0's table, then seat 1's, per board) | `header.boards × 2 × header.hands` |
//! | 3 | num_buckets | `u32` per street     | streets of the game       |
//! | 4 | strategy    | `u16` per slot: probability × 65535, rounded | `header.slots` |
//!
//! The tree is stored with the strategy so that a lookup walks a few nodes from the root: opening
//! is O(1) (map the file, check the prefix, the header and the section bounds) and a lookup is
//! O(depth), independent of the size of the file. Every index read from the file is checked
//! before use: a damaged file gives an error, never an out-of-bounds read.

use crate::best_response::Exploitability;
use crate::cfr::{Algorithm, Solver};
use crate::container::{self, cast, Container};
use abstraction::betting_abstraction::BettingAbstraction;
use abstraction::cards::Card;
use abstraction::rules::state::Action;
use abstraction::rules::GameDef;
use abstraction::tree::{Edge, NodeKind, Tree, NONE};
use anyhow::{bail, Context, Result};
use serde::{Deserialize, Serialize};
use std::path::Path;

/// The magic of strategy files.
pub const MAGIC: &[u8; 8] = b"STUDSTRT";

/// What a strategy file records about how it was made.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct StrategyHeader {
    /// The game (stored as JSON text, see [`crate::container::game_as_json`]).
    #[serde(with = "crate::container::game_as_json")]
    pub game: GameDef,
    /// The card abstraction's name.
    pub card_abstraction: String,
    /// The betting abstraction.
    pub betting: BettingAbstraction,
    /// The algorithm.
    pub algorithm: Algorithm,
    /// Iterations run.
    pub iterations: u64,
    /// The measured exploitability of the stored (unquantized) strategy, if measured.
    pub exploitability: Option<Exploitability>,
    /// Number of tree nodes.
    pub nodes: u64,
    /// Number of slots (information set × action).
    pub slots: u64,
    /// Number of private hands per player.
    pub hands: u64,
    /// Number of boards.
    pub boards: u64,
}

/// A tree node as stored in the file.
#[repr(C)]
#[derive(Clone, Copy, Debug, PartialEq, Eq, bytemuck::Pod, bytemuck::Zeroable)]
pub struct NodeRecord {
    /// 0 action, 1 chance, 2 fold, 3 showdown.
    pub kind: u8,
    /// The seat to act (action nodes).
    pub player: u8,
    /// The street.
    pub street: u8,
    /// Number of children.
    pub num_children: u8,
    /// The first child.
    pub first_child: u32,
    /// The first slot (action nodes).
    pub slot: u32,
    /// The board (action and showdown nodes), or `u32::MAX`.
    pub board: u32,
}

const TAG: u32 = 0xC000_0000;

/// Encodes an edge as one `u32`: 0 root, 1 fold, 2 check/call, 3 bring-in,
/// `0x4000_0000 | n` complete/bet/raise to `n`, `0x8000_0000 | id` a card.
pub fn encode_edge(e: Edge) -> Result<u32> {
    Ok(match e {
        Edge::Root => 0,
        Edge::Action(Action::Fold) => 1,
        Edge::Action(Action::CheckCall) => 2,
        Edge::Action(Action::BringIn) => 3,
        Edge::Action(Action::CompleteBetRaise(n)) => {
            if n >= 1 << 30 {
                bail!("a bet to {n} chips does not fit a strategy file");
            }
            0x4000_0000 | n as u32
        }
        Edge::Card(c) => 0x8000_0000 | c.id() as u32,
    })
}

/// Decodes [`encode_edge`].
pub fn decode_edge(x: u32) -> Result<Edge> {
    Ok(match (x & TAG, x & !TAG) {
        (0, 0) => Edge::Root,
        (0, 1) => Edge::Action(Action::Fold),
        (0, 2) => Edge::Action(Action::CheckCall),
        (0, 3) => Edge::Action(Action::BringIn),
        (0x4000_0000, n) => Edge::Action(Action::CompleteBetRaise(n as u64)),
        (0x8000_0000, id) if id < 52 => Edge::Card(Card::from_id(id as u8)),
        _ => bail!("damaged: edge code {x:#x}"),
    })
}

/// Writes the average strategy of `solver` to `path` (atomically).
pub fn write(
    path: &Path,
    solver: &Solver,
    game: &GameDef,
    card_abstraction: &str,
    betting: BettingAbstraction,
    exploitability: Option<Exploitability>,
) -> Result<()> {
    let tree = &solver.tree;
    let nodes: Vec<NodeRecord> = tree
        .nodes
        .iter()
        .map(|n| NodeRecord {
            kind: n.kind as u8,
            player: n.player,
            street: n.street,
            num_children: n.num_children,
            first_child: n.first_child,
            slot: n.slot,
            board: n.board,
        })
        .collect();
    let edges = tree
        .edges
        .iter()
        .map(|&e| encode_edge(e))
        .collect::<Result<Vec<u32>>>()?;
    let strategy = quantize(tree, &solver.average);
    let header = StrategyHeader {
        game: game.clone(),
        card_abstraction: card_abstraction.to_string(),
        betting,
        algorithm: solver.algorithm,
        iterations: solver.iterations,
        exploitability,
        nodes: nodes.len() as u64,
        slots: tree.num_slots as u64,
        hands: tree.num_hands() as u64,
        boards: tree.boards.len() as u64,
    };
    container::write(
        path,
        MAGIC,
        header,
        &[
            bytemuck::cast_slice(&nodes),
            bytemuck::cast_slice(&edges),
            bytemuck::cast_slice(&tree.buckets),
            bytemuck::cast_slice(&tree.num_buckets),
            bytemuck::cast_slice(&strategy),
        ],
    )
}

/// The average strategy as `u16` probabilities (× 65535, rounded); a row without mass is uniform.
fn quantize(tree: &Tree, average: &[f64]) -> Vec<u16> {
    let mut q = vec![0u16; tree.num_slots];
    for node in tree.nodes.iter().filter(|n| n.kind == NodeKind::Action) {
        let k = node.num_children as usize;
        let start = node.slot as usize;
        let end = start + crate::cfr::node_slots(tree, node);
        for (row, out) in average[start..end]
            .chunks_exact(k)
            .zip(q[start..end].chunks_exact_mut(k))
        {
            let sum: f64 = row.iter().sum();
            for (o, &x) in out.iter_mut().zip(row) {
                let p = if sum > 0.0 { x / sum } else { 1.0 / k as f64 };
                *o = (p * 65535.0).round() as u16;
            }
        }
    }
    q
}

/// An opened strategy file, mapped in memory.
pub struct StrategyFile {
    map: memmap2::Mmap,
    container: Container<StrategyHeader>,
}

impl StrategyFile {
    /// Maps and checks a strategy file in O(1): prefix, version, header checksum, section bounds
    /// and sizes. Use [`StrategyFile::verify`] to check the arrays' checksums too.
    pub fn open(path: &Path) -> Result<StrategyFile> {
        let file =
            std::fs::File::open(path).with_context(|| format!("opening {}", path.display()))?;
        // SAFETY: the map is read-only; a concurrent writer would replace the file by rename
        // (never write into it), which leaves this mapping intact.
        let map = unsafe { memmap2::Mmap::map(&file) }
            .with_context(|| format!("mapping {}", path.display()))?;
        let container = Container::<StrategyHeader>::open(&map, MAGIC, "strategy file")
            .with_context(|| format!("{}", path.display()))?;
        let f = StrategyFile { map, container };
        f.check_sizes()
            .with_context(|| format!("{}", path.display()))?;
        Ok(f)
    }

    fn check_sizes(&self) -> Result<()> {
        let h = &self.container.header;
        // Saturating: a damaged count must give a size mismatch, not an overflow.
        let want = [
            ("nodes", h.nodes.saturating_mul(16)),
            ("edges", h.nodes.saturating_mul(4)),
            (
                "buckets",
                h.boards.saturating_mul(h.hands).saturating_mul(8),
            ),
            ("num_buckets", h.game.streets.len() as u64 * 4),
            ("strategy", h.slots.saturating_mul(2)),
        ];
        if self.container.sections.len() != want.len() {
            bail!(
                "damaged: {} sections, a strategy file has {}",
                self.container.sections.len(),
                want.len()
            );
        }
        for (s, (name, len)) in self.container.sections.iter().zip(want) {
            if s.len != len {
                bail!(
                    "damaged: section {name} has {} bytes, the header implies {len}",
                    s.len
                );
            }
        }
        if h.nodes == 0 {
            bail!("damaged: no nodes");
        }
        Ok(())
    }

    /// The header.
    pub fn header(&self) -> &StrategyHeader {
        &self.container.header
    }

    /// Checks every array's checksum (reads the whole file).
    pub fn verify(&self) -> Result<()> {
        self.container.verify(&self.map)
    }

    fn section<T: bytemuck::Pod>(&self, i: usize, name: &str) -> Result<&[T]> {
        cast(self.container.section(&self.map, i)?, name)
    }

    /// Node `i`, checked.
    pub fn node(&self, i: u32) -> Result<NodeRecord> {
        self.section::<NodeRecord>(0, "nodes")?
            .get(i as usize)
            .copied()
            .with_context(|| format!("damaged: no node {i}"))
    }

    /// The stored edges of node `i`'s children (child ids `first_child..`), checked against the
    /// file.
    fn child_edges(&self, i: u32) -> Result<(u32, &[u32])> {
        let n = self.node(i)?;
        let edges = self.section::<u32>(1, "edges")?;
        let first = n.first_child as usize;
        let raw = first
            .checked_add(n.num_children as usize)
            .and_then(|end| edges.get(first..end))
            .with_context(|| format!("damaged: node {i}'s children lie beyond the tree"))?;
        Ok((n.first_child, raw))
    }

    /// The children of node `i` with the edge leading to each.
    pub fn children(&self, i: u32) -> Result<Vec<(u32, Edge)>> {
        let (first, raw) = self.child_edges(i)?;
        raw.iter()
            .enumerate()
            .map(|(c, &e)| Ok((first + c as u32, decode_edge(e)?)))
            .collect()
    }

    /// Which of node `i`'s children `edge` leads to (0-based, the order of its actions), if the
    /// tree has it. Allocates nothing: bots call it at every step of a hand.
    pub fn position(&self, i: u32, edge: Edge) -> Result<Option<usize>> {
        let (_, raw) = self.child_edges(i)?;
        for (c, &e) in raw.iter().enumerate() {
            if decode_edge(e)? == edge {
                return Ok(Some(c));
            }
        }
        Ok(None)
    }

    /// The child of node `i` that `edge` leads to, if the tree has it. Allocates nothing.
    pub fn child(&self, i: u32, edge: Edge) -> Result<Option<u32>> {
        let first = self.node(i)?.first_child;
        Ok(self.position(i, edge)?.map(|c| first + c as u32))
    }

    /// The bucket of hand `hand` of the player to act at action node `i`.
    pub fn bucket(&self, i: u32, hand: u32) -> Result<u32> {
        let n = self.node(i)?;
        let h = self.header();
        if n.board == NONE || n.board as u64 >= h.boards || hand as u64 >= h.hands || n.player > 1 {
            bail!(
                "damaged: node {i} has board {} (of {}) and player {}",
                n.board,
                h.boards,
                n.player
            );
        }
        let at = (n.board as u64 * 2 + n.player as u64) * h.hands + hand as u64;
        let b = *self
            .section::<u32>(2, "buckets")?
            .get(at as usize)
            .with_context(|| format!("damaged: node {i}'s buckets lie beyond the file"))?;
        if b == NONE {
            bail!("hand {hand} holds one of the public cards at node {i}");
        }
        Ok(b)
    }

    /// The stored probabilities of each action at action node `i` for hand number `hand`
    /// (normalized: the quantized values need not sum to exactly 1).
    pub fn probabilities(&self, i: u32, hand: u32) -> Result<Vec<f64>> {
        let mut out = vec![0.0; self.node(i)?.num_children as usize];
        self.probabilities_into(i, hand, &mut out)?;
        Ok(out)
    }

    /// [`probabilities`](Self::probabilities) written into `out[..k]` for the node's `k` actions;
    /// returns `k`. Allocates nothing: the query path of bots.
    pub fn probabilities_into(&self, i: u32, hand: u32, out: &mut [f64]) -> Result<usize> {
        let n = self.node(i)?;
        if n.kind != NodeKind::Action as u8 {
            bail!("node {i} is not a decision");
        }
        let b = self.bucket(i, hand)?;
        let nb = *self
            .section::<u32>(3, "num_buckets")?
            .get(n.street as usize)
            .context("damaged: street of a node")?;
        if b >= nb {
            bail!("damaged: bucket {b} of {nb}");
        }
        let k = n.num_children as usize;
        if out.len() < k {
            bail!(
                "node {i} has {k} actions, more than the {} asked for",
                out.len()
            );
        }
        let start = n.slot as u64 + b as u64 * k as u64;
        let strat = self.section::<u16>(4, "strategy")?;
        let row = strat
            .get(start as usize..start as usize + k)
            .with_context(|| format!("damaged: node {i}'s strategy lies beyond the file"))?;
        let sum: f64 = row.iter().map(|&x| x as f64).sum();
        for (o, &x) in out.iter_mut().zip(row) {
            *o = if sum > 0.0 {
                x as f64 / sum
            } else {
                1.0 / k as f64
            };
        }
        Ok(k)
    }
}
