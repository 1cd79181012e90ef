//! Strategy files (`*.strat`): the solved average strategy, read in place through `memmap2`.
//!
//! A [`container`](crate::container) (format version 5; versions 3 and 4, six sections, are
//! still read) with magic `STUDSTRT`, a [`StrategyHeader`], and seven sections, all
//! little-endian:
//!
//! | # | section     | type                 | count                     |
//! |---|-------------|----------------------|---------------------------|
//! | 0 | nodes       | [`NodeRecord`] (16 B; betting trees [`BettingRecord`], 12 B) | `header.nodes` |
//! | 1 | edges       | `u32` ([`encode_edge`]) | `header.nodes`          |
//! | 2 | buckets     | `u32` (seat 0's table, then seat 1's, per board) | `header.boards × 2 × header.hands` |
//! | 3 | num_buckets | `u32` per street     | streets of the game       |
//! | 4 | strategy    | [`Width`]: `u16` = probability × 65535 or `u8` = × 255, cumulative rounding; `k - 1` per row of `k` actions (the last is the scale minus the others), rows from the node's `first_row` | `header.stored` |
//! | 5 | bucketing   | bytes of `Bucketing::encode` | betting-tree files; empty otherwise |
//! | 6 | recall      | the [`Recall`]'s name in ASCII (`none`, `order`, `buckets`, `both`, `last`): a row of street `s` is a key of `Recall::keys` | betting-tree files (version 5); empty otherwise |
//!
//! Two kinds of tree ([`TreeKind`] in the header; opened, a [`PublicFile`] or a
//! [`BettingFile`], each kind's own lookups on it alone):
//! - `Public`: the public tree of `abstraction::tree` (walkable games: public cards are chance
//!   nodes, a node's `board` indexes the bucket tables of section 2, its `seat` is a seat).
//! - `Betting`: the betting tree of `abstraction::betting_tree` (the real games): betting nodes
//!   only, a node's `role` is a *role* (0 = the seat acting first on that street), no boards and
//!   no bucket tables (`boards = hands = 0`). Cards enter through the bucketing embedded in
//!   section 5, so that the file alone maps a real state to the bucket the solver used; its
//!   checksum is in the header and checked when the file is opened.
//!
//! The tree is stored with the strategy so that a lookup walks a few nodes from the root: opening
//! maps the file, checks the prefix, the header and the section bounds, hashes every byte once
//! against the checksums (the one cost that grows with the file: about 23 ms of CPU for 20 MB) and
//! decodes the few kilobytes of the bucketing; a lookup is O(depth). Every index read from the
//! file is checked before use as well: a file whose checksums match but whose contents are wrong
//! (written so on purpose, or a bug) gives an error, never an out-of-bounds read.
//!
//! A third kind, the multiway file of a sampled solve (magic `STUDMWSF`), has its own container
//! and lookups ([`multiway`]). [`StrategyFile::open`] reads the magic once and opens any of the
//! three: callers match on the kind opened, none reads the magic itself.

pub mod diff;
pub mod multiway;
pub mod policy;

use multiway::MultiwayFile;

use crate::best_response::Exploitability;
use crate::cfr::{Algorithm, Solver};
use crate::container::{self, cast, Container};
use abstraction::betting_abstraction::BettingAbstraction;
use abstraction::betting_tree::{BettingKind, BettingNode, BettingNodes, BettingTree, NodeShape};
use abstraction::bucketing::{Bucketing, CardView};
use abstraction::card_abstraction::CardAbstraction;
use abstraction::cards::Card;
use abstraction::recall::Recall;
use abstraction::rules::state::Action;
use abstraction::rules::GameDef;
use abstraction::rules::State;
use abstraction::tree::{Edge, Node, NodeKind, NONE};
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
    /// Number of slots (information set × action) of the solved tree.
    pub slots: u64,
    /// Number of stored probabilities: a row of `k` actions stores `k - 1` (see [`quantize`]).
    pub stored: u64,
    /// Number of private hands per player.
    pub hands: u64,
    /// Number of boards.
    pub boards: u64,
    /// Which tree the nodes are.
    pub tree: TreeKind,
    /// How each probability is stored.
    pub width: Width,
    /// The checksum of the embedded bucketing (`Bucketing::checksum`; betting-tree files).
    pub bucketing: Option<u64>,
    /// How the deals were sampled (betting-tree files, solved by the deal-sampled solver).
    pub sampling: Option<DealSampling>,
}

/// Which tree a strategy file stores (see the module documentation).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum TreeKind {
    /// The public tree of a walkable game; a node's `seat` is a seat.
    Public,
    /// The betting tree of a real game; a node's `role` is a role, cards are bucketed by the
    /// embedded bucketing.
    Betting,
}

/// The width of a stored probability.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Width {
    /// `u16`: probability × 65535, rounded.
    U16,
    /// `u8`: probability × 255, rounded (betting-tree files: half the bytes, so that a `default`
    /// seven-card stud strategy is 19 MiB, under the 32 MiB of a shipped file).
    U8,
}

impl Width {
    /// Bytes per stored probability.
    pub fn bytes(self) -> u64 {
        match self {
            Width::U16 => 2,
            Width::U8 => 1,
        }
    }

    /// The stored value of probability 1.
    fn scale(self) -> f64 {
        match self {
            Width::U16 => 65535.0,
            Width::U8 => 255.0,
        }
    }

    /// The cumulative value stored after an action whose running probability is `cum`: the
    /// one rounding of [`quantize`], so that a row read back can be compared with it.
    fn cumulative(self, cum: f64) -> u32 {
        (cum.min(1.0) * self.scale()).round() as u32
    }

    /// Writes the normalized row `row` of `k` probabilities as a file stores it: `k - 1` values
    /// (the last is the scale minus the others) by cumulative rounding, so that the values sum
    /// to exactly the scale; [`Width::bytes`] each, little-endian, into `out`.
    pub(crate) fn encode_row(self, row: &[f64], out: &mut [u8]) {
        let bytes = self.bytes() as usize;
        let (mut cum, mut prev) = (0.0, 0u32);
        for (a, &x) in row[..row.len() - 1].iter().enumerate() {
            cum += x;
            let upto = self.cumulative(cum);
            let v = (upto - prev) as u16;
            prev = upto;
            out[a * bytes..(a + 1) * bytes].copy_from_slice(&v.to_le_bytes()[..bytes]);
        }
    }

    /// Reads the row [`Width::encode_row`] wrote from `stored` (its `k - 1` values) into the
    /// `k` probabilities of `out`; `None` where the values sum past the scale (a damaged row).
    pub(crate) fn decode_row(self, stored: &[u8], out: &mut [f64]) -> Option<()> {
        let k = out.len();
        let mut sum = 0.0;
        for (a, o) in out[..k - 1].iter_mut().enumerate() {
            *o = match self {
                Width::U16 => u16::from_le_bytes([stored[2 * a], stored[2 * a + 1]]) as f64,
                Width::U8 => stored[a] as f64,
            };
            sum += *o;
        }
        if sum > self.scale() {
            return None;
        }
        out[k - 1] = self.scale() - sum;
        for o in out.iter_mut() {
            *o /= self.scale();
        }
        Some(())
    }

    /// Whether `row`, as [`StrategyFile::row_into`] reads it, is what the file stores for a row
    /// without mass: the uniform row, written for an information set the solve never reached
    /// (or reached with no weight). A reached row can be exactly as uniform only by chance.
    pub fn is_unreached(self, row: &[f64]) -> bool {
        let k = row.len();
        let (mut cum, mut prev) = (0.0, 0);
        row.iter().all(|&p| {
            // Summed as `quantize` sums it: the same bits, the same rounding.
            cum += 1.0 / k as f64;
            let upto = self.cumulative(cum);
            let stored = (upto - prev) as f64 / self.scale();
            prev = upto;
            p == stored
        })
    }
}

/// The deal sampling of a betting-tree solve.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct DealSampling {
    /// Deals per iteration.
    pub batch: u64,
    /// The seed of the deal streams.
    pub seed: u64,
}

/// A node of a public-tree file ([`Node`] as stored: an action node's slot becomes where its
/// rows start in the strategy section).
#[repr(C)]
#[derive(Clone, Copy, Debug, PartialEq, Eq, bytemuck::Pod, bytemuck::Zeroable)]
pub struct NodeRecord {
    /// 0 action, 1 chance, 2 fold, 3 showdown.
    pub kind: u8,
    /// The seat to act (action nodes) or that folded (folds).
    pub seat: u8,
    /// The street.
    pub street: u8,
    /// Number of children.
    pub num_children: u8,
    /// The first child.
    pub first_child: u32,
    /// Action nodes: [`Record::first_row`]; terminals: the index of their value in the
    /// solved tree (not read back); chance nodes: 0.
    index: u32,
    /// The board (action and showdown nodes), or `u32::MAX`.
    pub board: u32,
}

impl NodeRecord {
    /// The record of `n`, whose rows (an action node's) start at `first_row`.
    fn of(n: &Node, first_row: u32) -> NodeRecord {
        NodeRecord {
            kind: n.kind as u8,
            seat: n.seat,
            street: n.street,
            num_children: n.num_children,
            first_child: n.first_child,
            index: match n.kind {
                NodeKind::Action => first_row,
                NodeKind::Fold | NodeKind::Showdown => n.value_index(),
                NodeKind::Chance => 0,
            },
            board: n.board,
        }
    }
}

/// A node of a betting-tree file ([`BettingNode`] as stored, 12 bytes: a public-tree record
/// without the board, which the betting tree does not have; a 7stud tree of 191 908 nodes is
/// 0.8 MB smaller).
#[repr(C)]
#[derive(Clone, Copy, Debug, PartialEq, Eq, bytemuck::Pod, bytemuck::Zeroable)]
pub struct BettingRecord {
    /// 0 action, 2 fold, 3 showdown.
    pub kind: u8,
    /// The role to act (action nodes) or that folded (folds).
    pub role: u8,
    /// The street.
    pub street: u8,
    /// Number of children.
    pub num_children: u8,
    /// The first child.
    pub first_child: u32,
    /// Action nodes: [`Record::first_row`]; terminals: the stake in chips (not read
    /// back).
    index: u32,
}

impl BettingRecord {
    /// The record of `n`, whose rows (an action node's) start at `first_row`.
    fn of(n: &BettingNode, first_row: u32) -> BettingRecord {
        BettingRecord {
            kind: n.kind as u8,
            role: n.role,
            street: n.street,
            num_children: n.num_children,
            first_child: n.first_child,
            index: match n.kind {
                BettingKind::Action => first_row,
                BettingKind::Fold | BettingKind::Showdown => n.stake().0,
            },
        }
    }
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

/// The probability width of public-tree files (the walked games: small enough for `u16`).
pub const PUBLIC_WIDTH: Width = Width::U16;

/// Writes the average strategy of `solver` (the exact solver, on a public tree) to `path`
/// (atomically), with [`PUBLIC_WIDTH`] probabilities.
pub fn write(
    path: &Path,
    solver: &Solver,
    game: &GameDef,
    card_abstraction: &str,
    betting: BettingAbstraction,
    exploitability: Option<Exploitability>,
) -> Result<()> {
    let tree = &solver.tree;
    let width = PUBLIC_WIDTH;
    let strategy = quantize(&tree.nodes, &tree.num_buckets, width, |_, n, b, out| {
        let k = out.len();
        let at = n.first_slot() as usize + b as usize * k;
        out.copy_from_slice(&solver.average[at..at + k]);
        Ok(())
    })?;
    let header = StrategyHeader {
        game: game.clone(),
        card_abstraction: card_abstraction.to_string(),
        betting,
        algorithm: solver.algorithm,
        iterations: solver.iterations,
        exploitability,
        nodes: tree.nodes.len() as u64,
        slots: tree.num_slots as u64,
        hands: tree.num_hands() as u64,
        boards: tree.boards.len() as u64,
        stored: strategy.stored,
        tree: TreeKind::Public,
        width,
        bucketing: None,
        sampling: None,
    };
    let records: Vec<NodeRecord> = (tree.nodes.iter().zip(&strategy.offsets))
        .map(|(n, &first_row)| NodeRecord::of(n, first_row))
        .collect();
    write_sections(
        path,
        header,
        bytemuck::cast_slice(&records),
        &tree.edges,
        bytemuck::cast_slice(&tree.buckets),
        &tree.num_buckets,
        &strategy,
        &[],
        &[],
    )
}

/// What writing a strategy file of `kind` allocates besides the solver: the quantized rows
/// (`k - 1` values of `width` per row: `slots - infosets` in all) and, per node, its record, its
/// encoded edge and its rows' offset. For the memory estimates made before a solve.
pub fn write_bytes(
    kind: TreeKind,
    nodes: usize,
    slots: usize,
    infosets: usize,
    width: Width,
) -> usize {
    let record = match kind {
        TreeKind::Public => std::mem::size_of::<NodeRecord>(),
        TreeKind::Betting => std::mem::size_of::<BettingRecord>(),
    };
    (slots - infosets) * width.bytes() as usize + nodes * (record + 4 + 4)
}

/// What a betting-tree strategy file records besides the tree and the strategy.
pub struct BettingSolve<'a> {
    /// The game.
    pub game: &'a GameDef,
    /// The betting abstraction the tree was built with.
    pub betting: BettingAbstraction,
    /// The card abstraction: embedded in the file.
    pub bucketing: &'a Bucketing,
    /// The member of the CFR family that solved it.
    pub algorithm: Algorithm,
    /// Iterations (batches) run.
    pub iterations: u64,
    /// The deal sampling.
    pub sampling: DealSampling,
    /// How to store the probabilities.
    pub width: Width,
    /// The exploitability of the unquantized strategy, where it is computable (a walkable
    /// game: the strategy lifted onto its lossless public tree, `ladder::deal_exploitability`).
    pub exploitability: Option<Exploitability>,
    /// What a row recalls of earlier streets beside the street's bucket.
    pub recall: Recall,
}

/// Writes a betting-tree strategy (the real games) to `path` (atomically): the tree's `nodes`
/// and `edges` (a `BettingTree`'s), `num_buckets` per street, and
/// each action node's rows from `row(node, bucket, out)`, which writes the average strategy's
/// weights of the node's actions for that bucket (normalized here; a row without mass, never
/// reached in the solve, is stored uniform). `row` is called node by node in increasing order
/// (so that its source can stream them); its error stops the write before the file is made.
pub fn write_betting(
    path: &Path,
    solve: &BettingSolve,
    nodes: &[BettingNode],
    edges: &[Edge],
    num_buckets: &[u32],
    num_slots: usize,
    row: impl FnMut(u32, u32, &mut [f64]) -> Result<()>,
) -> Result<()> {
    let buckets: Vec<u32> = (0..solve.game.streets.len())
        .map(|s| solve.bucketing.buckets(s))
        .collect();
    if num_buckets != solve.recall.keys(&buckets) {
        bail!(
            "the tree has {num_buckets:?} rows per street, the bucketing {buckets:?} with recall \
             {} {:?}",
            solve.recall.name(),
            solve.recall.keys(&buckets)
        );
    }
    let mut row = row;
    let strategy = quantize(nodes, num_buckets, solve.width, |i, _, b, out| {
        row(i, b, out)
    })?;
    let header = StrategyHeader {
        game: solve.game.clone(),
        card_abstraction: CardAbstraction::name(solve.bucketing),
        betting: solve.betting,
        algorithm: solve.algorithm,
        iterations: solve.iterations,
        exploitability: solve.exploitability,
        nodes: nodes.len() as u64,
        slots: num_slots as u64,
        hands: 0,
        boards: 0,
        stored: strategy.stored,
        tree: TreeKind::Betting,
        width: solve.width,
        bucketing: Some(solve.bucketing.checksum()),
        sampling: Some(solve.sampling),
    };
    let records: Vec<BettingRecord> = (nodes.iter().zip(&strategy.offsets))
        .map(|(n, &first_row)| BettingRecord::of(n, first_row))
        .collect();
    write_sections(
        path,
        header,
        bytemuck::cast_slice(&records),
        edges,
        &[],
        num_buckets,
        &strategy,
        &solve.bucketing.encode(),
        solve.recall.name().as_bytes(),
    )
}

/// Lays out the seven sections of a strategy file and writes it (`nodes`: the records' bytes).
#[allow(clippy::too_many_arguments)]
fn write_sections(
    path: &Path,
    header: StrategyHeader,
    nodes: &[u8],
    edges: &[Edge],
    buckets: &[u8],
    num_buckets: &[u32],
    strategy: &Quantized,
    bucketing: &[u8],
    recall: &[u8],
) -> Result<()> {
    let edges = edges
        .iter()
        .map(|&e| encode_edge(e))
        .collect::<Result<Vec<u32>>>()?;
    container::write(
        path,
        MAGIC,
        header,
        &[
            nodes,
            bytemuck::cast_slice(&edges),
            buckets,
            bytemuck::cast_slice(num_buckets),
            &strategy.bytes,
            bucketing,
            recall,
        ],
    )
}

/// The strategy section and where each node's rows start in it.
struct Quantized {
    /// The stored probabilities, little-endian at the file's width.
    bytes: Vec<u8>,
    /// Per node, the first stored probability of its rows (action nodes; 0 for the others).
    offsets: Vec<u32>,
    /// Number of stored probabilities.
    stored: u64,
}

/// The strategy section: for every action node and bucket, the row that `row(node, bucket, out)`
/// writes, normalized (uniform when it has no mass) and quantized to `width` by cumulative
/// rounding, so that a row's values sum to exactly the scale. The last action's value is not
/// stored (it is the scale minus the others): `k - 1` values per row of `k` actions, a third
/// less on the real games' trees, where most decisions have two or three actions.
fn quantize<N: Decision>(
    nodes: &[N],
    num_buckets: &[u32],
    width: Width,
    mut row: impl FnMut(u32, &N, u32, &mut [f64]) -> Result<()>,
) -> Result<Quantized> {
    let bytes = width.bytes() as usize;
    let mut offsets = vec![0u32; nodes.len()];
    let mut stored = 0u64;
    for (o, n) in offsets.iter_mut().zip(nodes) {
        if let Some((street, k)) = n.decision() {
            *o = u32::try_from(stored).context("more than 2^32 stored probabilities")?;
            let k = k.max(1) as u64;
            stored += num_buckets[street] as u64 * (k - 1);
        }
    }
    let mut q = vec![0u8; stored as usize * bytes];
    let mut buf = [0.0; MAX_ACTIONS];
    for (i, node) in nodes.iter().enumerate() {
        let Some((street, k)) = node.decision() else {
            continue;
        };
        let buf = &mut buf[..k];
        for b in 0..num_buckets[street] {
            buf.fill(0.0);
            row(i as u32, node, b, buf)?;
            crate::kernel::normalize(buf);
            let at = (offsets[i] as usize + b as usize * (k - 1)) * bytes;
            width.encode_row(buf, &mut q[at..at + (k - 1) * bytes]);
        }
    }
    Ok(Quantized {
        bytes: q,
        offsets,
        stored,
    })
}

/// The nodes [`quantize`] reads: of either tree, whether a node is a decision.
trait Decision {
    /// An action node's street and number of actions; `None` for the other nodes.
    fn decision(&self) -> Option<(usize, usize)>;
}

impl Decision for Node {
    fn decision(&self) -> Option<(usize, usize)> {
        (self.kind == NodeKind::Action)
            .then_some((self.street as usize, self.num_children as usize))
    }
}

impl Decision for BettingNode {
    fn decision(&self) -> Option<(usize, usize)> {
        (self.kind == BettingKind::Action)
            .then_some((self.street as usize, self.num_children as usize))
    }
}

/// The most children a node of a fixed-limit tree has (fold, check/call, bring-in, and two bet
/// sizes on an open-pair street), with room to spare: the size of stack buffers.
pub const MAX_ACTIONS: usize = 8;

/// What the shared reading of a file needs of its node records ([`NodeRecord`] and
/// [`BettingRecord`]).
pub trait Record: bytemuck::Pod {
    /// Whether the node is a decision (it has rows).
    fn is_action(&self) -> bool;
    /// The node's street.
    fn street_index(&self) -> usize;
    /// The node's first child and number of children.
    fn child_range(&self) -> (u32, usize);
    /// A decision's first stored probability: its rows start there in the strategy section.
    fn first_row(&self) -> u32;
}

impl Record for NodeRecord {
    fn is_action(&self) -> bool {
        self.kind == NodeKind::Action as u8
    }
    fn street_index(&self) -> usize {
        self.street as usize
    }
    fn child_range(&self) -> (u32, usize) {
        (self.first_child, self.num_children as usize)
    }
    fn first_row(&self) -> u32 {
        self.index
    }
}

impl Record for BettingRecord {
    fn is_action(&self) -> bool {
        self.kind == BettingKind::Action as u8
    }
    fn street_index(&self) -> usize {
        self.street as usize
    }
    fn child_range(&self) -> (u32, usize) {
        (self.first_child, self.num_children as usize)
    }
    fn first_row(&self) -> u32 {
        self.index
    }
}

/// A kind of strategy file, [`Public`] or [`Betting`]: its node record; the kind's value is what
/// an opened file of it holds besides its sections.
pub trait Kind {
    /// The node record of section 0.
    type Record: Record;
}

/// The kind of public-tree files (walkable games): the bucket of a private hand is read from the
/// file's own tables.
pub struct Public;

/// The kind of betting-tree files (the real games): what such a file holds besides its sections.
pub struct Betting {
    /// The embedded card abstraction (boxed: the enum of the two kinds stays small).
    bucketing: Box<Bucketing>,
    /// What a row recalls of earlier streets (`None` before version 5).
    recall: Recall,
}

impl Kind for Public {
    type Record = NodeRecord;
}

impl Kind for Betting {
    type Record = BettingRecord;
}

/// An opened strategy file of kind `K`, mapped in memory: the reading both kinds share is here,
/// each kind's own on [`PublicFile`] or [`BettingFile`] only.
pub struct TreeFile<K> {
    map: memmap2::Mmap,
    container: Container<StrategyHeader>,
    kind: K,
}

/// A public-tree strategy file.
pub type PublicFile = TreeFile<Public>;

/// A betting-tree strategy file.
pub type BettingFile = TreeFile<Betting>;

/// An opened strategy file of any kind: a heads-up file's tree ([`TreeKind`]) or a multiway
/// file. A caller matches on it where the kinds are read differently, and reads what they
/// share through it.
pub enum StrategyFile {
    /// A public tree.
    Public(PublicFile),
    /// A betting tree.
    Betting(BettingFile),
    /// A multiway file (three to eight seats; boxed: it holds its rebuilt betting abstraction).
    Multiway(Box<MultiwayFile>),
}

impl StrategyFile {
    /// Maps and checks a strategy file of any kind, told by its magic (read here once). A
    /// heads-up file: prefix, version, header checksum, section bounds and sizes, then every
    /// byte against its checksum (the whole file in version 4, the sections in version 3: see
    /// [`crate::container`]), and (betting-tree files) decodes the embedded bucketing, whose
    /// checksum must be the header's. Reading every byte costs about 23 ms of CPU for the 20 MB
    /// seven-card stud file; a damaged file used unverified gave wrong answers with no error, so
    /// every reader pays it. A multiway file: [`MultiwayFile::open`].
    pub fn open(path: &Path) -> Result<StrategyFile> {
        let map = map(path)?;
        if multiway::is_multiway(&map) {
            let f = MultiwayFile::of_map(map).with_context(|| format!("{}", path.display()))?;
            return Ok(StrategyFile::Multiway(Box::new(f)));
        }
        let container = Container::<StrategyHeader>::open(&map, MAGIC, "strategy file")
            .with_context(|| format!("{}", path.display()))?;
        container
            .verify(&map)
            .with_context(|| format!("{}", path.display()))?;
        check_sizes(&container).with_context(|| format!("{}", path.display()))?;
        Ok(match container.header.tree {
            TreeKind::Public => StrategyFile::Public(TreeFile {
                map,
                container,
                kind: Public,
            }),
            TreeKind::Betting => {
                let recall =
                    read_recall(&map, &container).with_context(|| format!("{}", path.display()))?;
                let bucketing = read_bucketing(&map, &container, recall)
                    .with_context(|| format!("{}: the embedded bucketing", path.display()))?;
                check_betting_tree(&map, &container)
                    .with_context(|| format!("{}", path.display()))?;
                StrategyFile::Betting(TreeFile {
                    map,
                    container,
                    kind: Betting {
                        bucketing: Box::new(bucketing),
                        recall,
                    },
                })
            }
        })
    }

    /// The game the file was solved for.
    pub fn game(&self) -> &GameDef {
        match self {
            StrategyFile::Public(f) => &f.header().game,
            StrategyFile::Betting(f) => &f.header().game,
            StrategyFile::Multiway(f) => &f.header.game,
        }
    }

    /// A heads-up file's header (a multiway file's is [`MultiwayFile::header`]).
    pub fn header(&self) -> Option<&StrategyHeader> {
        match self {
            StrategyFile::Public(f) => Some(f.header()),
            StrategyFile::Betting(f) => Some(f.header()),
            StrategyFile::Multiway(_) => None,
        }
    }

    /// The file if it is a betting tree.
    pub fn betting(&self) -> Option<&BettingFile> {
        match self {
            StrategyFile::Betting(f) => Some(f),
            _ => None,
        }
    }
}

/// Maps the file at `path` read-only.
pub(crate) fn map(path: &Path) -> Result<memmap2::Mmap> {
    let file = crate::input::open(path, crate::input::STRATEGY)?;
    // SAFETY: the map is read-only; a concurrent writer would replace the file by rename (never
    // write into it), which leaves this mapping intact.
    unsafe { memmap2::Mmap::map(&file) }.with_context(|| format!("mapping {}", path.display()))
}

/// Checks the section sizes the header implies.
fn check_sizes(container: &Container<StrategyHeader>) -> Result<()> {
    let h = &container.header;
    let betting = h.tree == TreeKind::Betting;
    if betting && (h.boards != 0 || h.hands != 0 || h.bucketing.is_none()) {
        bail!("damaged: a betting-tree file with boards, hands or no bucketing");
    }
    if !betting && h.bucketing.is_some() {
        bail!("damaged: a public-tree file with a bucketing");
    }
    let record = match h.tree {
        TreeKind::Public => std::mem::size_of::<NodeRecord>(),
        TreeKind::Betting => std::mem::size_of::<BettingRecord>(),
    } as u64;
    // Saturating: a damaged count must give a size mismatch, not an overflow.
    let want = [
        ("nodes", Some(h.nodes.saturating_mul(record))),
        ("edges", Some(h.nodes.saturating_mul(4))),
        (
            "buckets",
            Some(h.boards.saturating_mul(h.hands).saturating_mul(8)),
        ),
        ("num_buckets", Some(h.game.streets.len() as u64 * 4)),
        ("strategy", Some(h.stored.saturating_mul(h.width.bytes()))),
        // Any length: the bucketing checks itself when decoded.
        ("bucketing", (!betting).then_some(0)),
        // A name, read by `read_recall`; version 5 on.
        ("recall", (!betting).then_some(0)),
    ];
    let want = &want[..if container.version >= 5 { 7 } else { 6 }];
    if container.sections.len() != want.len() {
        bail!(
            "damaged: {} sections, a strategy file has {}",
            container.sections.len(),
            want.len()
        );
    }
    for (s, &(name, len)) in container.sections.iter().zip(want) {
        if len.is_some_and(|len| s.len != len) {
            bail!(
                "damaged: section {name} has {} bytes, the header implies {}",
                s.len,
                len.unwrap_or(0)
            );
        }
    }
    if h.nodes == 0 {
        bail!("damaged: no nodes");
    }
    Ok(())
}

/// The recall of a betting-tree file's section 6 (version 5; `none` before).
fn read_recall(map: &[u8], container: &Container<StrategyHeader>) -> Result<Recall> {
    if container.version < 5 {
        return Ok(Recall::None);
    }
    let bytes = container.section(map, 6)?;
    let name = std::str::from_utf8(bytes).map_err(|_| anyhow::anyhow!("damaged: recall"))?;
    Recall::parse(name).map_err(|e| anyhow::anyhow!("damaged: {e}"))
}

/// The bucketing embedded in a betting-tree file's section 5, checked against the header's
/// checksum and, with `recall`, against the tree's rows per street.
fn read_bucketing(
    map: &[u8],
    container: &Container<StrategyHeader>,
    recall: Recall,
) -> Result<Bucketing> {
    let h = &container.header;
    let want = h.bucketing.context("damaged: no bucketing checksum")?;
    let b = Bucketing::decode(container.section(map, 5)?, &h.game)?;
    if b.checksum() != want {
        bail!(
            "damaged: its checksum {:016x} is not the header's {want:016x}",
            b.checksum()
        );
    }
    let nb: &[u32] = cast(container.section(map, 3)?, "num_buckets")?;
    let buckets: Vec<u32> = (0..nb.len()).map(|s| b.buckets(s)).collect();
    if recall.keys(&buckets) != nb {
        bail!(
            "damaged: its bucket counts {buckets:?} with recall {} are not the tree's rows \
             {nb:?}",
            recall.name()
        );
    }
    Ok(b)
}

/// Checks that a betting-tree file's nodes and edges are the betting tree of the header's game:
/// rebuilt from the game and its betting abstraction, every node's shape, every edge (the bets'
/// sizes) and every terminal's stake must be the file's. The checksums catch damage, not an
/// edit made on purpose with the checksums recomputed (docs/protocol.md): an edited ante, bet
/// size, stack or cap changes the tree, and the file is refused instead of being played at
/// stakes it was not solved for. (About as long as the checksum pass: the tree is rebuilt from
/// the rules engine once.)
fn check_betting_tree(map: &[u8], container: &Container<StrategyHeader>) -> Result<()> {
    let h = &container.header;
    let nb: &[u32] = cast(container.section(map, 3)?, "num_buckets")?;
    let tree = BettingTree::build(&h.game, h.betting, nb)
        .map_err(|e| anyhow::anyhow!("the header's game builds no betting tree: {e}"))?;
    let records: &[BettingRecord] = cast(container.section(map, 0)?, "nodes")?;
    let edges: &[u32] = cast(container.section(map, 1)?, "edges")?;
    let mismatch = |what: String| {
        anyhow::anyhow!(
            "its {what} are not those of the betting tree of the game in its header ({}, \
             ante {}, bets {}/{}, cap {}): the header was edited, or the file written by another \
             build",
            h.game.variant,
            h.game.ante,
            h.game.small_bet,
            h.game.big_bet,
            h.betting.max_bets
        )
    };
    if tree.nodes.len() != records.len() || tree.num_slots as u64 != h.slots {
        return Err(mismatch(format!(
            "{} nodes and {} slots (the game's tree has {} and {})",
            records.len(),
            h.slots,
            tree.nodes.len(),
            tree.num_slots
        )));
    }
    for (i, (n, r)) in tree.nodes.iter().zip(records).enumerate() {
        // An action node's index is where its rows start, the file's own layout.
        if BettingRecord::of(n, r.index) != *r {
            return Err(mismatch(format!("node {i}'s shape or stake")));
        }
    }
    for (i, (&e, &stored)) in tree.edges.iter().zip(edges).enumerate() {
        if encode_edge(e)? != stored {
            return Err(mismatch(format!("edge {i}'s action")));
        }
    }
    Ok(())
}

impl<K: Kind> TreeFile<K> {
    /// The header.
    pub fn header(&self) -> &StrategyHeader {
        &self.container.header
    }

    /// The format version of the file (see [`crate::container`]).
    pub fn format_version(&self) -> u32 {
        self.container.version
    }

    /// Where section `i` (numbered as in the module documentation) lies in the file, in bytes:
    /// for a reader that maps the file itself, as the Python package's numpy arrays view the
    /// nodes, edges, bucket tables and stored probabilities in place, without a copy.
    pub fn section_range(&self, i: usize) -> Result<std::ops::Range<usize>> {
        let s = self.container.section(&self.map, i)?;
        let start = s.as_ptr() as usize - self.map.as_ptr() as usize;
        Ok(start..start + s.len())
    }

    fn section<T: bytemuck::Pod>(&self, i: usize, name: &str) -> Result<&[T]> {
        cast(self.container.section(&self.map, i)?, name)
    }

    /// Node `i`, checked.
    pub fn node(&self, i: u32) -> Result<K::Record> {
        self.section::<K::Record>(0, "nodes")?
            .get(i as usize)
            .copied()
            .with_context(|| format!("damaged: no node {i}"))
    }

    /// The edge that led to node `i`, checked.
    pub fn edge(&self, i: u32) -> Result<Edge> {
        let raw = *self
            .section::<u32>(1, "edges")?
            .get(i as usize)
            .with_context(|| format!("damaged: no edge {i}"))?;
        decode_edge(raw)
    }

    /// The stored edges of node `i`'s children (child ids `first_child..`), checked against the
    /// file.
    fn child_edges(&self, i: u32) -> Result<(u32, &[u32])> {
        let (first_child, count) = self.node(i)?.child_range();
        let edges = self.section::<u32>(1, "edges")?;
        let first = first_child as usize;
        let raw = first
            .checked_add(count)
            .and_then(|end| edges.get(first..end))
            .with_context(|| format!("damaged: node {i}'s children lie beyond the tree"))?;
        Ok((first_child, raw))
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
        let (first, _) = self.node(i)?.child_range();
        Ok(self.position(i, edge)?.map(|c| first + c as u32))
    }

    /// The stored probabilities of each action at action node `i` for row key `key` of the
    /// player to act (a bucket, or a key of the bucket and what the rows recall), written into
    /// `out[..k]` for the node's `k` actions (normalized); returns `k`. Allocates nothing.
    pub fn row_into(&self, i: u32, key: u32, out: &mut [f64]) -> Result<usize> {
        let n = self.node(i)?;
        if !n.is_action() {
            bail!("node {i} is not a decision");
        }
        let street = n.street_index();
        let nb = *self
            .section::<u32>(3, "num_buckets")?
            .get(street)
            .context("damaged: street of a node")?;
        if key >= nb {
            bail!("bucket {key} of {nb} on street {street}");
        }
        let k = n.child_range().1;
        if k == 0 {
            bail!("damaged: decision {i} without actions");
        }
        if out.len() < k {
            bail!(
                "node {i} has {k} actions, more than the {} asked for",
                out.len()
            );
        }
        let width = self.header().width;
        let bytes = width.bytes() as usize;
        let start = (n.first_row() as usize + key as usize * (k - 1)) * bytes;
        let stored = self.section::<u8>(4, "strategy")?;
        let stored = (stored.get(start..start + (k - 1) * bytes))
            .with_context(|| format!("damaged: node {i}'s strategy lies beyond the file"))?;
        width
            .decode_row(stored, &mut out[..k])
            .with_context(|| format!("damaged: node {i}'s row sums past 1"))?;
        Ok(k)
    }
}

impl PublicFile {
    /// The bucket of hand `hand` of the player to act at action node `i`.
    pub fn bucket(&self, i: u32, hand: u32) -> Result<u32> {
        let n = self.node(i)?;
        let h = self.header();
        if n.board == NONE || n.board as u64 >= h.boards || hand as u64 >= h.hands || n.seat > 1 {
            bail!(
                "damaged: node {i} has board {} (of {}) and player {}",
                n.board,
                h.boards,
                n.seat
            );
        }
        let at = (n.board as u64 * 2 + n.seat as u64) * h.hands + hand as u64;
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
    /// returns `k`. Allocates nothing.
    pub fn probabilities_into(&self, i: u32, hand: u32, out: &mut [f64]) -> Result<usize> {
        let n = self.node(i)?;
        if !n.is_action() {
            bail!("node {i} is not a decision");
        }
        self.row_into(i, self.bucket(i, hand)?, out)
    }
}

impl BettingFile {
    /// What a row recalls of earlier streets beside the street's bucket.
    pub fn recall(&self) -> Recall {
        self.kind.recall
    }

    /// The embedded card abstraction.
    pub fn bucketing(&self) -> &Bucketing {
        &self.kind.bucketing
    }

    /// Lets first-street lookups use a precomputed table (see
    /// `Bucketing::precompute_first_street`: seconds at the `default` size, then a binary
    /// search): for servers and matches, which look up many hands. Returns the table's size.
    pub fn precompute_first_street(&mut self) -> usize {
        self.kind.bucketing.precompute_first_street()
    }

    /// Lets lookups answer a view asked lately from memory (see
    /// `Bucketing::remember_recent`: about `slots` views at 32 bytes each, the same buckets).
    /// Returns the bytes taken.
    pub fn remember_recent(&mut self, slots: usize) -> usize {
        self.kind.bucketing.remember_recent(slots)
    }

    /// The card abstraction's bucket of a player's view: the row key of a file without recall;
    /// see [`BettingFile::key_of`] for the others.
    pub fn bucket_of(&self, view: &CardView) -> Result<u32> {
        Ok(self.kind.bucketing.bucket(view)?)
    }

    /// The row key of a player whose view is `now` (`prev`: its view a street back, needed
    /// when the rows recall buckets; `first(s)`: whether it acted first on street `s`).
    pub fn key_of_views(
        &self,
        now: &CardView,
        prev: Option<&CardView>,
        first: impl Fn(usize) -> bool,
    ) -> Result<u32> {
        let k = &self.kind;
        Ok(k.recall.key_of_views(&k.bucketing, now, prev, first)?)
    }

    /// The row key of `seat` at its decision in `state`: the bucket of its view, and what the
    /// file's rows recall of earlier streets.
    pub fn key_of(&self, state: &State, seat: u8) -> Result<u32> {
        let k = &self.kind;
        Ok(k.recall.key_of_state(&k.bucketing, state, seat)?)
    }
}

/// A betting-tree file translates real betting with the tree's own logic (`locate`,
/// `child_for`, `real_action`), reading its nodes in place. A node or edge the file cannot give
/// (damaged) is absent, which makes a translation fail.
impl BettingNodes for BettingFile {
    fn node_at(&self, i: u32) -> Option<NodeShape> {
        let r = self.node(i).ok()?;
        Some(NodeShape {
            kind: BettingKind::from_code(r.kind)?,
            street: r.street,
            num_children: r.num_children,
            first_child: r.first_child,
        })
    }

    fn edge_at(&self, i: u32) -> Option<Edge> {
        self.edge(i).ok()
    }
}
