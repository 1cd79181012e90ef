//! How a strategy moved from file A to file B (a locked solve against the one it was locked
//! from, two solves of different lengths), row by row: what `stud query --diff A B` lists and
//! `stud explore A --diff B` draws at each decision. The two files must be of the same game,
//! card abstraction and tree (compared node by node).

use super::{BettingFile, PublicFile, StrategyFile};
use abstraction::tree::{Edge, NodeKind};
use anyhow::{bail, Context, Result};

/// One row compared: its key (the private card's index in the deck on a public tree, the row
/// key on a betting tree) and its probabilities in both files.
#[derive(Clone, Debug, PartialEq)]
pub struct RowMove {
    /// The row's key.
    pub key: u32,
    /// A's probabilities.
    pub a: Vec<f64>,
    /// B's probabilities.
    pub b: Vec<f64>,
    /// Half the sum of the absolute changes ([`moved`]).
    pub moved: f64,
}

/// A decision of the tree both files share: its node, its path from the root, and its
/// children's edges.
#[derive(Clone, Debug, PartialEq)]
pub struct Decision {
    /// The node.
    pub node: u32,
    /// The edges from the root to it.
    pub path: Vec<Edge>,
    /// Its actions.
    pub edges: Vec<Edge>,
}

/// Half the sum of the absolute differences of two rows: the probability mass that moved (0
/// to 1).
pub fn moved(a: &[f64], b: &[f64]) -> f64 {
    a.iter().zip(b).map(|(x, y)| (x - y).abs()).sum::<f64>() / 2.0
}

/// Refuses two files that cannot be compared row by row (`name_a`, `name_b` name them): not
/// both heads-up (two multiway files: [`super::multiway::diff::comparable`]), not the same game, card abstraction and node count, not the same kind of
/// tree, or betting trees of other bucketings or recall.
pub fn comparable(a: &StrategyFile, b: &StrategyFile, name_a: &str, name_b: &str) -> Result<()> {
    let (ha, hb) = match (a.header(), b.header()) {
        (Some(x), Some(y)) => (x, y),
        _ => bail!(
            "{name_a} and {name_b}: a multiway file's rows are compared with another multiway \
             file's only (`stud query --diff A B` on two of them)"
        ),
    };
    if ha.game != hb.game || ha.card_abstraction != hb.card_abstraction || ha.nodes != hb.nodes {
        let same = if ha.game == hb.game {
            "the same game"
        } else {
            "two games"
        };
        bail!(
            "{name_a} and {name_b} are not of the same game, card abstraction and tree ({same}; \
             {}, {} nodes against {}, {} nodes)",
            ha.card_abstraction,
            ha.nodes,
            hb.card_abstraction,
            hb.nodes
        );
    }
    match (a, b) {
        (StrategyFile::Public(_), StrategyFile::Public(_)) => Ok(()),
        (StrategyFile::Betting(x), StrategyFile::Betting(y)) => {
            if x.recall() != y.recall() || x.bucketing().checksum() != y.bucketing().checksum() {
                bail!("the two files' bucketings or recall differ");
            }
            Ok(())
        }
        _ => bail!("one file is a public tree, the other a betting tree"),
    }
}

/// Every decision of a file's tree in preorder, read through `children` and `is_action` and
/// checked against the other file's children (`other`).
pub fn decisions(
    children: impl Fn(u32) -> Result<Vec<(u32, Edge)>>,
    other: impl Fn(u32) -> Result<Vec<(u32, Edge)>>,
    is_action: impl Fn(u32) -> Result<bool>,
) -> Result<Vec<Decision>> {
    let mut out = Vec::new();
    let mut stack = vec![(0u32, Vec::new())];
    while let Some((i, path)) = stack.pop() {
        let kids = children(i)?;
        if kids != other(i)? {
            bail!("the two files' trees differ at node {i}");
        }
        if is_action(i)? {
            let edges = kids.iter().map(|k| k.1).collect();
            out.push(Decision {
                node: i,
                path: path.clone(),
                edges,
            });
        }
        for &(c, e) in kids.iter().rev() {
            let mut p = path.clone();
            p.push(e);
            stack.push((c, p));
        }
    }
    Ok(out)
}

/// The decisions of two betting-tree files ([`decisions`]).
pub fn betting_decisions(a: &BettingFile, b: &BettingFile) -> Result<Vec<Decision>> {
    let action = |i| Ok(a.node(i)?.kind == NodeKind::Action as u8);
    decisions(|i| a.children(i), |i| b.children(i), action)
}

/// The decisions of two public-tree files ([`decisions`]).
pub fn public_decisions(a: &PublicFile, b: &PublicFile) -> Result<Vec<Decision>> {
    let action = |i| Ok(a.node(i)?.kind == NodeKind::Action as u8);
    decisions(|i| a.children(i), |i| b.children(i), action)
}

/// Every row of betting-tree decision `node` in both files (checked [`comparable`]), by key.
pub fn betting_node(a: &BettingFile, b: &BettingFile, node: u32) -> Result<Vec<RowMove>> {
    let def = &a.header().game;
    let buckets: Vec<u32> = (0..def.streets.len())
        .map(|s| a.bucketing().buckets(s))
        .collect();
    let keys = a.recall().keys(&buckets);
    let n = a.node(node)?;
    let k = n.num_children as usize;
    let (mut pa, mut pb) = (vec![0.0; k], vec![0.0; k]);
    let mut rows = Vec::new();
    for key in 0..keys[n.street as usize] {
        a.row_into(node, key, &mut pa)
            .with_context(|| format!("node {node} row {key}"))?;
        b.row_into(node, key, &mut pb)
            .with_context(|| format!("node {node} row {key}"))?;
        rows.push(RowMove {
            key,
            moved: moved(&pa, &pb),
            a: pa.clone(),
            b: pb.clone(),
        });
    }
    Ok(rows)
}

/// Every row of public-tree decision `node` in both files: each private card of the deck not
/// on the board (key: its index in the deck).
pub fn public_node(a: &PublicFile, b: &PublicFile, node: u32) -> Result<Vec<RowMove>> {
    let cards = a.header().game.deck.cards().len();
    let mut rows = Vec::new();
    for h in 0..cards {
        // A card on the board is no hand here.
        if a.bucket(node, h).is_err() {
            continue;
        }
        let (pa, pb) = (a.probabilities(node, h)?, b.probabilities(node, h)?);
        rows.push(RowMove {
            key: h,
            moved: moved(&pa, &pb),
            a: pa,
            b: pb,
        });
    }
    Ok(rows)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn moved_is_half_the_changes() {
        assert_eq!(moved(&[0.5, 0.5], &[0.5, 0.5]), 0.0);
        assert_eq!(moved(&[1.0, 0.0], &[0.0, 1.0]), 1.0);
        assert!((moved(&[0.2, 0.3, 0.5], &[0.4, 0.3, 0.3]) - 0.2).abs() < 1e-12);
    }
}
