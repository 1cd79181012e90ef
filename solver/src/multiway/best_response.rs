//! NashConv of a strategy profile on a history tree: for each seat, what its best response
//! against the others' strategies gains over the profile's own value, summed over the seats
//! (OpenSpiel's `nash_conv`). Heads-up it is twice the exploitability.
//!
//! A seat's best response picks, at each of its information sets, the action whose value summed
//! over the set's histories (each weighted by the others' and chance's reach) is largest. The
//! histories of an information set all lie at one depth (the set records every public event
//! and the seat's own cards, so they differ only in others' private cards), so the tree is
//! swept a depth at a time from the leaves: at each depth the sets' action values are summed,
//! the best action chosen, and the histories take its value.

use abstraction::history_tree::{HistoryKind, HistoryNode, HistoryTree};

/// NashConv and its parts.
#[derive(Clone, Debug, PartialEq)]
pub struct NashConv {
    /// Each seat's best-response value against the others' strategies.
    pub best_response: Vec<f64>,
    /// Each seat's value when everyone plays the profile.
    pub on_policy: Vec<f64>,
}

impl NashConv {
    /// The sum over the seats of what a best response gains (0 at a Nash equilibrium).
    pub fn total(&self) -> f64 {
        self.best_response
            .iter()
            .zip(&self.on_policy)
            .map(|(b, v)| b - v)
            .sum()
    }
}

/// NashConv of the profile `policy` (a probability per slot of `tree`).
pub fn nash_conv(tree: &HistoryTree, policy: &[f64]) -> NashConv {
    let levels = Levels::of(tree);
    let mut reach = vec![0.0; tree.nodes.len()];
    let mut values = vec![0.0; tree.nodes.len()];
    let mut best = vec![0.0; tree.num_slots];
    let seats = tree.seats as u8;
    NashConv {
        best_response: (0..seats)
            .map(|s| {
                others_reach(tree, policy, s, &mut reach);
                best_response(tree, policy, s, &levels, &reach, &mut best, &mut values)
            })
            .collect(),
        on_policy: (0..seats)
            .map(|s| on_policy(tree, policy, s, &mut values))
            .collect(),
    }
}

/// Each history's reach by every seat but `seat` (chance included) and its value to `seat`,
/// every seat playing `policy` from there: the two factors of a counterfactual value. At an
/// information set of `seat`, an action's value given the set (`stud query --values`' value,
/// less what the seat has put in) is the sum over the set's histories of reach times the
/// value of the history's child by that action, over the sum of their reach.
pub fn reach_and_values(tree: &HistoryTree, policy: &[f64], seat: u8) -> (Vec<f64>, Vec<f64>) {
    let mut reach = vec![0.0; tree.nodes.len()];
    let mut values = vec![0.0; tree.nodes.len()];
    others_reach(tree, policy, seat, &mut reach);
    on_policy(tree, policy, seat, &mut values);
    (reach, values)
}

/// The nodes grouped by depth: `order[start[d]..start[d + 1]]` are the nodes at depth `d`.
struct Levels {
    order: Vec<u32>,
    start: Vec<usize>,
}

impl Levels {
    fn of(tree: &HistoryTree) -> Levels {
        // Children are numbered after their parent, so one pass in index order sets depths.
        let mut depth = vec![0u16; tree.nodes.len()];
        for (i, n) in tree.nodes.iter().enumerate() {
            for c in n.children() {
                depth[c] = depth[i] + 1;
            }
        }
        let levels = depth.iter().max().map_or(0, |&d| d as usize + 1);
        let mut start = vec![0usize; levels + 1];
        for &d in &depth {
            start[d as usize + 1] += 1;
        }
        for d in 0..levels {
            start[d + 1] += start[d];
        }
        let mut next = start.clone();
        let mut order = vec![0u32; tree.nodes.len()];
        for (i, &d) in depth.iter().enumerate() {
            order[next[d as usize]] = i as u32;
            next[d as usize] += 1;
        }
        Levels { order, start }
    }

    fn depths(&self) -> usize {
        self.start.len() - 1
    }

    fn at(&self, d: usize) -> &[u32] {
        &self.order[self.start[d]..self.start[d + 1]]
    }
}

/// The reach of each history by everyone but `seat` (chance included), under `policy`.
fn others_reach(tree: &HistoryTree, policy: &[f64], seat: u8, reach: &mut [f64]) {
    reach[0] = 1.0;
    for (i, n) in tree.nodes.iter().enumerate() {
        let r = reach[i];
        match n.kind {
            HistoryKind::Terminal => {}
            HistoryKind::Chance => {
                let p = 1.0 / n.num_children as f64;
                for c in n.children() {
                    reach[c] = r * p;
                }
            }
            HistoryKind::Action => {
                let slot = tree.infosets[n.index as usize].first_slot as usize;
                for (a, c) in n.children().enumerate() {
                    reach[c] = if n.seat == seat {
                        r
                    } else {
                        r * policy[slot + a]
                    };
                }
            }
        }
    }
}

/// The value of `seat`'s best response to the others' `policy`: the sweep of the module
/// documentation, `best` holding each slot's summed action value at the depth being swept.
fn best_response(
    tree: &HistoryTree,
    policy: &[f64],
    seat: u8,
    levels: &Levels,
    reach: &[f64],
    best: &mut [f64],
    values: &mut [f64],
) -> f64 {
    let mine = |i: u32| {
        let n = &tree.nodes[i as usize];
        n.kind == HistoryKind::Action && n.seat == seat
    };
    for d in (0..levels.depths()).rev() {
        let level = levels.at(d);
        for &i in level {
            let n = &tree.nodes[i as usize];
            if mine(i) {
                let slot = tree.infosets[n.index as usize].first_slot as usize;
                best[slot..slot + n.num_children as usize].fill(0.0);
            } else {
                values[i as usize] = node_value(tree, policy, seat, n, values);
            }
        }
        for &i in level.iter().filter(|&&i| mine(i)) {
            let n = &tree.nodes[i as usize];
            let slot = tree.infosets[n.index as usize].first_slot as usize;
            for (a, c) in n.children().enumerate() {
                best[slot + a] += reach[i as usize] * values[c];
            }
        }
        for &i in level.iter().filter(|&&i| mine(i)) {
            let n = &tree.nodes[i as usize];
            let slot = tree.infosets[n.index as usize].first_slot as usize;
            let k = n.num_children as usize;
            let choice = (0..k).fold(0, |b, a| {
                if best[slot + a] > best[slot + b] {
                    a
                } else {
                    b
                }
            });
            values[i as usize] = values[n.first_child as usize + choice];
        }
    }
    values[0]
}

/// `seat`'s value of node `n` from its children's `values`: its payoff, the mean over the cards
/// dealt, or the mix of `policy`.
fn node_value(
    tree: &HistoryTree,
    policy: &[f64],
    seat: u8,
    n: &HistoryNode,
    values: &[f64],
) -> f64 {
    match n.kind {
        HistoryKind::Terminal => tree.payoffs_of(n)[seat as usize],
        HistoryKind::Chance => {
            let p = 1.0 / n.num_children as f64;
            n.children().map(|c| p * values[c]).sum()
        }
        HistoryKind::Action => {
            let slot = tree.infosets[n.index as usize].first_slot as usize;
            n.children()
                .enumerate()
                .map(|(a, c)| policy[slot + a] * values[c])
                .sum()
        }
    }
}

/// `seat`'s value when every seat plays `policy`, by one sweep from the leaves (children are
/// numbered after their parent).
fn on_policy(tree: &HistoryTree, policy: &[f64], seat: u8, values: &mut [f64]) -> f64 {
    for i in (0..tree.nodes.len()).rev() {
        values[i] = node_value(tree, policy, seat, &tree.nodes[i], values);
    }
    values[0]
}
