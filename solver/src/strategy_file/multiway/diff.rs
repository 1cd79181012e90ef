//! How a multiway strategy moved from file A to file B (a locked solve against the solve it
//! was locked from, two solves of different lengths), row by row: what `stud query --diff A B`
//! lists for multiway files. The two files must have the same rows: the same game, card
//! abstraction (bucketings, view), betting abstraction and recall within a street. A row is a
//! decision of a street's tree (the street, the seats that began it, the betting on it so far),
//! a pot class and a bucket; where the recall within a street merges several histories into one
//! betting position, their shared row is compared once.

use super::MultiwayFile;
use crate::strategy_file::MAX_ACTIONS;
use abstraction::multiway_betting::{MultiwayBetting, MwKind, Spot};
use abstraction::rules::Action;
use abstraction::tree::Edge;
use anyhow::{bail, Result};

/// Refuses two multiway files whose rows are not the same rows (`name_a`, `name_b` name them):
/// another game, card abstraction, bucketing, view, betting abstraction or recall within a
/// street.
pub fn comparable(a: &MultiwayFile, b: &MultiwayFile, name_a: &str, name_b: &str) -> Result<()> {
    let (ha, hb) = (&a.header, &b.header);
    let differs = if ha.game != hb.game {
        Some("game".to_string())
    } else if ha.card_abstraction != hb.card_abstraction || ha.betting != hb.betting {
        Some(format!(
            "abstraction ({}, {} nodes against {}, {} nodes)",
            ha.card_abstraction, ha.nodes, hb.card_abstraction, hb.nodes
        ))
    } else if a.buckets.view != b.buckets.view
        || a.buckets.heads_up.checksum() != b.buckets.heads_up.checksum()
        || (a.buckets.by_live.iter().map(|x| x.checksum())).ne(b
            .buckets
            .by_live
            .iter()
            .map(|x| x.checksum()))
    {
        Some("bucketing or view of the table".into())
    } else if a.betting.within_street != b.betting.within_street {
        Some("recall within a street".into())
    } else if a.betting.cap != b.betting.cap {
        let name = |c: Option<abstraction::multiway_betting::MultiwayCap>| {
            c.map_or("the game's cap".to_string(), |c| {
                format!("cap {}", c.name())
            })
        };
        Some(format!(
            "multiway cap ({} against {})",
            name(a.betting.cap),
            name(b.betting.cap)
        ))
    } else if ha.nodes != hb.nodes || ha.slots != hb.slots || a.rows.buckets != b.rows.buckets {
        Some("tree".into())
    } else {
        None
    };
    match differs {
        Some(what) => bail!("{name_a} and {name_b} are not of the same {what}: their rows differ"),
        None => Ok(()),
    }
}

/// Calls `f` on every row of two files ([`comparable`]) once: its spot, its bucket, A's and B's
/// probabilities; in the layout's order (street tree, node, pot class, bucket).
pub fn each_move(
    a: &MultiwayFile,
    b: &MultiwayFile,
    mut f: impl FnMut(&Spot, u32, &[f64], &[f64]) -> Result<()>,
) -> Result<()> {
    let (mut pa, mut pb) = ([0.0; MAX_ACTIONS], [0.0; MAX_ACTIONS]);
    // The first node of each row offset of the current tree: a betting position's copies
    // share its row, and the nodes come in order.
    let mut first: Vec<u32> = Vec::new();
    let mut tree = u32::MAX;
    super::each_row(&a.betting, &a.rows, |spot, bucket, k| {
        if spot.tree != tree {
            tree = spot.tree;
            first.clear();
            first.resize(a.betting.trees[tree as usize].actions as usize, u32::MAX);
        }
        let at = &mut first[a.betting.nodes[spot.node as usize].index as usize];
        if *at == u32::MAX {
            *at = spot.node;
        }
        if *at != spot.node {
            return Ok(());
        }
        a.row_into(spot, bucket, &mut pa)?;
        b.row_into(spot, bucket, &mut pb)?;
        f(spot, bucket, &pa[..k], &pb[..k])
    })
}

/// The betting of a street from its tree's root to decision `node` of tree `tree`: each
/// action with the role that took it (0 acted first on the street), in order. The first path
/// in the tree's order where several histories reach one betting position.
pub fn betting_to(betting: &MultiwayBetting, tree: u32, node: u32) -> Vec<(u8, Action)> {
    let root = betting.trees[tree as usize].root;
    let mut seen = vec![false; betting.nodes.len()];
    let mut stack = vec![(root, Vec::new())];
    while let Some((i, path)) = stack.pop() {
        if i == node {
            return path;
        }
        if std::mem::replace(&mut seen[i as usize], true) {
            continue;
        }
        let n = betting.nodes[i as usize];
        if n.kind != MwKind::Action {
            continue;
        }
        for c in betting.children(i as usize).rev() {
            if let Edge::Action(a) = betting.edges[c] {
                let mut p = path.clone();
                p.push((n.role, a));
                stack.push((c as u32, p));
            }
        }
    }
    Vec::new()
}
