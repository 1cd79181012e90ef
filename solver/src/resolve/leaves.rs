//! The frontier of a depth-limited subgame: the subgame cut at the end of its root's street,
//! before the next street's cards, each cut (a *leaf*) valued by several continuation
//! strategies of the blueprint (Brown, Sandholm and Amos, "Depth-limited solving for
//! imperfect-information games", 2018).
//!
//! A leaf's value under a continuation is a matrix: seat 0's value of every pair of hands when
//! both seats play the continuation below the leaf, the cards still to come dealt as the tree
//! deals them (card removal and the probability of each card given both hands folded in, as in
//! the subgame's own terminals). It is computed once, by walking the rest of the game below the
//! leaf ([`crate::best_response::pair_values_below`]), so that a depth-limited solve's
//! iterations walk the root's street only. The folds (and, on the last street, showdowns) of
//! the root's street are part of the frontier too, as single matrices.
//!
//! The continuations ([`continuations`]): the blueprint as it is, and the blueprint with the
//! leaf player biased towards folding, calling (or checking) and raising (or betting): the
//! probability of that kind of action multiplied by [`BIAS`] at every one of the leaf player's
//! decisions below the cut, the row renormalised. The searching player plays the blueprint
//! below the cut in all of them.

use crate::best_response::pair_values_below;
use abstraction::rules::Action;
use abstraction::tree::{Edge, NodeKind, Tree, NONE};
use anyhow::ensure;

/// What a biased continuation multiplies the favoured kind of action by (the paper's
/// choice).
pub const BIAS: f64 = 5.0;

/// The most continuations a leaf offers: the blueprint and its three biases.
pub const MAX_CONTINUATIONS: usize = 4;

/// The kinds of action a continuation favours, in the order [`continuations`] makes them
/// after the unbiased blueprint.
const FAVOURED: [fn(Action) -> bool; 3] = [
    |a| a == Action::Fold,
    |a| matches!(a, Action::CheckCall | Action::BringIn),
    |a| matches!(a, Action::CompleteBetRaise(_)),
];

/// The first `k` continuation strategies (1 to [`MAX_CONTINUATIONS`]) of `blueprint` (slot
/// weights on `tree`) for leaf player `seat`: the blueprint, then biased towards fold, call and
/// raise at `seat`'s decisions on streets after `street` (see the module documentation).
pub fn continuations(
    tree: &Tree,
    blueprint: &[f64],
    seat: u8,
    street: usize,
    k: usize,
) -> anyhow::Result<Vec<Vec<f64>>> {
    ensure!(
        (1..=MAX_CONTINUATIONS).contains(&k),
        "a leaf is valued by 1 to {MAX_CONTINUATIONS} continuation strategies, not {k}"
    );
    ensure!(
        blueprint.len() == tree.num_slots,
        "the blueprint has {} slots, the subgame {}",
        blueprint.len(),
        tree.num_slots
    );
    let mut out = vec![blueprint.to_vec()];
    for favoured in &FAVOURED[..k - 1] {
        let mut rows = blueprint.to_vec();
        for (i, node) in tree.nodes.iter().enumerate() {
            if node.kind != NodeKind::Action
                || node.seat != seat
                || usize::from(node.street) <= street
            {
                continue;
            }
            let kids = node.num_children as usize;
            let bias: Vec<f64> = tree
                .children(i)
                .map(|c| match tree.edges[c] {
                    Edge::Action(a) if favoured(a) => BIAS,
                    _ => 1.0,
                })
                .collect();
            let first = node.first_slot() as usize;
            let len = crate::cfr::node_slots(tree, node);
            for row in rows[first..first + len].chunks_exact_mut(kids) {
                // A row never reached (no weight) stays so: the walk plays it uniformly.
                let sum: f64 = row.iter().sum();
                if sum > 0.0 {
                    row.iter_mut().zip(&bias).for_each(|(p, b)| *p *= b / sum);
                    crate::kernel::normalize(row);
                }
            }
        }
        out.push(rows);
    }
    Ok(out)
}

/// One node of the frontier: a fold or showdown of the root's street (one matrix) or a leaf
/// (one matrix per continuation).
#[derive(Clone, Copy, Debug)]
pub struct FrontierNode {
    /// The subgame tree's node.
    pub node: u32,
    /// Matrices: 1 at a terminal, the continuations' number at a leaf.
    pub choices: u32,
    /// Where its first matrix starts in [`Frontier::values`].
    pub offset: usize,
    /// The leaf's number among the leaves (its choice rows), [`NONE`] at a terminal.
    pub leaf: u32,
}

/// The frontier of the subgame below its root's street, every matrix computed.
pub struct Frontier {
    /// The hands per seat (`n`: a matrix is `n × n`).
    pub n: usize,
    /// The frontier's index of each tree node, [`NONE`] for the nodes not on it.
    pub at: Vec<u32>,
    /// The frontier's nodes, in tree order.
    pub nodes: Vec<FrontierNode>,
    /// The leaves' number.
    pub leaves: usize,
    /// The continuations per leaf.
    pub choices: usize,
    /// The matrices, `values[offset + c * n * n + h0 * n + h1]`: seat 0's value of continuation
    /// `c` with hand `h0` against `h1`, in the units of the tree's terminal values.
    pub values: Vec<f64>,
}

impl Frontier {
    /// The bytes of the matrices of `tree`'s frontier below node `root`'s street with
    /// `choices` continuations per leaf, before they are allocated.
    pub fn bytes(tree: &Tree, root: usize, choices: usize) -> usize {
        let (terminals, leaves) = frontier_nodes(tree, root)
            .iter()
            .fold((0, 0), |(t, l), &i| match tree.nodes[i].kind {
                NodeKind::Chance => (t, l + 1),
                _ => (t + 1, l),
            });
        let n = tree.num_hands();
        (terminals + leaves * choices) * n * n * std::mem::size_of::<f64>()
    }

    /// Whether the frontier below `tree`'s decision `root` has a leaf (a street follows the
    /// root's), rather than only folds and showdowns.
    pub fn has_leaves(tree: &Tree, root: usize) -> bool {
        frontier_nodes(tree, root)
            .iter()
            .any(|&i| tree.nodes[i].kind == NodeKind::Chance)
    }

    /// The frontier of `tree` (a subgame) below its action node `root`, at the end of
    /// `root`'s street, with each leaf valued by `continuations` (slot weights on `tree`, see
    /// [`continuations`]). Refused before allocating when the matrices would not fit in the
    /// memory available.
    pub fn new(tree: &Tree, root: usize, continuations: &[Vec<f64>]) -> anyhow::Result<Frontier> {
        let choices = continuations.len();
        ensure!(choices >= 1, "a leaf needs at least one continuation");
        ensure!(
            tree.nodes
                .get(root)
                .is_some_and(|n| n.kind == NodeKind::Action),
            "node {root}: a depth-limited subgame starts at a decision"
        );
        let bytes = Frontier::bytes(tree, root, choices);
        let available = crate::memory::available_memory().unwrap_or(usize::MAX);
        ensure!(
            bytes <= available / 2,
            "the depth-limited subgame's leaf values need {} MB ({} hands a seat), more than \
             half the {} MB available: re-solve at full depth or from a later street",
            bytes >> 20,
            tree.num_hands(),
            available >> 20
        );
        let n = tree.num_hands();
        let nodes = frontier_nodes(tree, root);
        let mut at = vec![NONE; tree.nodes.len()];
        let mut out = Frontier {
            n,
            at: Vec::new(),
            nodes: Vec::with_capacity(nodes.len()),
            leaves: 0,
            choices,
            values: vec![0.0; bytes / std::mem::size_of::<f64>()],
        };
        let mut offset = 0;
        for i in nodes {
            at[i] = out.nodes.len() as u32;
            let leaf = tree.nodes[i].kind == NodeKind::Chance;
            let strategies = if leaf {
                continuations
            } else {
                &continuations[..1]
            };
            for (c, rows) in strategies.iter().enumerate() {
                let m = offset + c * n * n;
                pair_values_below(tree, rows, i, &mut out.values[m..m + n * n]);
            }
            out.nodes.push(FrontierNode {
                node: i as u32,
                choices: strategies.len() as u32,
                offset,
                leaf: if leaf { out.leaves as u32 } else { NONE },
            });
            out.leaves += usize::from(leaf);
            offset += strategies.len() * n * n;
        }
        out.at = at;
        Ok(out)
    }

    /// Matrix `c` of frontier node `f`.
    pub fn matrix(&self, f: &FrontierNode, c: usize) -> &[f64] {
        let m = f.offset + c * self.n * self.n;
        &self.values[m..m + self.n * self.n]
    }
}

/// The frontier's tree nodes in order: the terminals and chance nodes reached from `root` by
/// its street's actions alone.
fn frontier_nodes(tree: &Tree, root: usize) -> Vec<usize> {
    let mut out = Vec::new();
    let mut stack = vec![root];
    while let Some(i) = stack.pop() {
        match tree.nodes[i].kind {
            NodeKind::Action => stack.extend(tree.children(i)),
            _ => out.push(i),
        }
    }
    out.sort_unstable();
    out
}
