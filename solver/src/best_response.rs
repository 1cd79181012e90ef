//! Exact best response and exploitability of an average strategy, by a full-width vector-form
//! walk of the same tree the solver uses (in parallel over the children of the first chance nodes).
//!
//! Two best responses: in the abstract game ([`exploitability`]: the responder is bound by the
//! card abstraction too, all hands of a bucket choose together) and in the real game
//! ([`real_exploitability`]: every private hand chooses its own action). The second is the exact
//! best response on the lossless tree to the bucketed strategy lifted to every hand through its
//! bucket: the abstract tree has the lossless tree's nodes, only its bucket tables differ, so the
//! walk is the same and only the responder's choice changes. With the lossless abstraction the
//! two are equal.
//!
//! Units: chips per game (one hand, positions as dealt by the game definition, averaged over the
//! deal), and milli-big-bets per game: 1 mbb = 0.001 × `GameDef::big_bet` chips (for Kuhn the big
//! bet is 1 chip, for Leduc 4 chips, for `ministud` 4 chips).

use crate::cfr::{add_masked, dealt_hand, mask, node_slots, sum_action_values};
use crate::terminal::{terminal_values, HoldingIds};
use abstraction::tree::{Node, NodeKind, Tree, NONE};
use rayon::prelude::*;
use serde::{Deserialize, Serialize};

/// What the player whose values are computed does at their own decisions.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Play {
    /// Plays a best response in the abstract game (the action of highest value in each
    /// information set: all the hands of a bucket take the same action).
    Best,
    /// Plays a best response in the real game: each private hand takes its own best action,
    /// whatever its bucket.
    BestReal,
    /// Follows the average strategy.
    Follow,
}

/// The exploitability report of a strategy profile.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct Exploitability {
    /// What a best response to seat 1's strategy wins as seat 0 (chips per game).
    pub best_response_0: f64,
    /// What a best response to seat 0's strategy wins as seat 1 (chips per game).
    pub best_response_1: f64,
    /// Seat 0's expected result when both follow the strategy (chips per game).
    pub value_0: f64,
    /// NashConv / 2 = (best_response_0 + best_response_1) / 2, chips per game: the average
    /// amount a best-responding opponent wins over the equilibrium value, per seat.
    pub chips: f64,
    /// The same in milli-big-bets per game (1 mbb = 0.001 big bets).
    pub mbb: f64,
}

/// The exploitability of the average strategy `average` (one accumulated mass per slot; a slot
/// row with no mass plays uniformly) in the abstract game of `tree`.
pub fn exploitability(tree: &Tree, average: &[f64]) -> Exploitability {
    exploitability_against(tree, average, Play::Best)
}

/// The exploitability of the average strategy `average` in the real game: against a best
/// response that tells every private hand apart (see the module documentation).
pub fn real_exploitability(tree: &Tree, average: &[f64]) -> Exploitability {
    exploitability_against(tree, average, Play::BestReal)
}

fn exploitability_against(tree: &Tree, average: &[f64], best: Play) -> Exploitability {
    let br0 = value(tree, average, 0, best);
    let br1 = value(tree, average, 1, best);
    let chips = (br0 + br1) / 2.0;
    Exploitability {
        best_response_0: br0,
        best_response_1: br1,
        value_0: value(tree, average, 0, Play::Follow),
        chips,
        mbb: chips / tree.big_bet as f64 * 1000.0,
    }
}

/// Seat `player`'s expected result per game when the opponent follows `average` and `player`
/// plays as `play` says.
pub fn value(tree: &Tree, average: &[f64], player: u8, play: Play) -> f64 {
    let ones = vec![1.0; tree.num_hands()];
    value_in_ranges(tree, average, player, play, [&ones, &ones])
}

/// [`value`] in a subgame entered with `ranges` (each seat's reach per private hand at the
/// root, as [`crate::cfr::Solver::set_ranges`] takes them): the sum over `player`'s hands of
/// its range times its counterfactual value.
pub fn value_in_ranges(
    tree: &Tree,
    average: &[f64],
    player: u8,
    play: Play,
    ranges: [&[f64]; 2],
) -> f64 {
    counterfactual_values(tree, average, player, play, ranges[1 - player as usize])
        .iter()
        .zip(ranges[player as usize])
        .map(|(v, r)| v * r)
        .sum()
}

/// Seat `player`'s counterfactual value of each of its hands at the root, the opponent
/// following `average` from the root reach `opponent_reach` (one weight per hand) and `player`
/// playing as `play` says: the values CFR computes at the root, in the same units (what a
/// re-solving gadget compares).
pub fn counterfactual_values(
    tree: &Tree,
    average: &[f64],
    player: u8,
    play: Play,
    opponent_reach: &[f64],
) -> Vec<f64> {
    counterfactual_values_below(tree, average, player, play, opponent_reach, 0)
}

/// [`counterfactual_values`] at node `node` of `tree` rather than its root: `opponent_reach`
/// is the opponent's reach at `node` (its range times its own probabilities of the actions
/// that lead there), and the values are `player`'s from `node` on, in the units of the
/// tree's terminal values (what the solver's walk computes at that node).
pub fn counterfactual_values_below(
    tree: &Tree,
    average: &[f64],
    player: u8,
    play: Play,
    opponent_reach: &[f64],
    node: usize,
) -> Vec<f64> {
    let n = tree.num_hands();
    let level = level_len(tree);
    let mut scratch = vec![0.0; level * tree.max_depth];
    let mut out = vec![0.0; n];
    let w = Walk {
        tree,
        ids: HoldingIds::new(tree),
        average,
        player,
        play,
        level,
    };
    w.walk(node, opponent_reach, &mut out, &mut scratch, true);
    out
}

/// Seat 0's value of every pair of hands below `node` when both seats follow `average`:
/// `out[h0 * n + h1]` for seat 0 holding `h0` and seat 1 `h1` (0 where they collide), in the
/// units of the tree's terminal values (chance below `node` folded in, as in the walk). A
/// column is one walk of [`counterfactual_values_below`] with seat 1's reach on one hand; the
/// `n` walks share one scratch (no allocation per walk). Seat 1's values are the negation
/// (the terminals are zero-sum).
pub fn pair_values_below(tree: &Tree, average: &[f64], node: usize, out: &mut [f64]) {
    let n = tree.num_hands();
    assert_eq!(out.len(), n * n, "one value per pair of hands");
    let level = level_len(tree);
    let mut scratch = vec![0.0; level * tree.max_depth.max(1)];
    let mut reach = vec![0.0; n];
    let mut column = vec![0.0; n];
    let w = Walk {
        tree,
        ids: HoldingIds::new(tree),
        average,
        player: 0,
        play: Play::Follow,
        level,
    };
    for h1 in 0..n {
        reach[h1] = 1.0;
        w.walk(node, &reach, &mut column, &mut scratch, false);
        reach[h1] = 0.0;
        for (h0, &v) in column.iter().enumerate() {
            out[h0 * n + h1] = v;
        }
    }
}

/// Scratch per depth of the walk: strategy and values (k × n each), a child reach and the best
/// values (n each).
fn level_len(tree: &Tree) -> usize {
    (2 * tree.max_actions + 2).max(3) * tree.num_hands()
}

/// The bytes one walk of [`counterfactual_values`] allocates on `tree` (below its first chance
/// node, whose children walk in parallel with their own).
pub fn scratch_bytes(tree: &Tree) -> usize {
    (level_len(tree) * tree.max_depth + tree.num_hands()) * std::mem::size_of::<f64>()
}

/// The average strategy of every hand at action node `node`, as `strat[a * n + h]` (uniform for
/// the hands that collide with the board).
pub fn average_strategy(tree: &Tree, node: &Node, rows: &[f64], strat: &mut [f64]) {
    let k = node.num_children as usize;
    let n = tree.num_hands();
    let mut row = vec![0.0; k];
    for (h, &b) in tree.bucket_table(node.board, node.seat).iter().enumerate() {
        if b == NONE {
            row.fill(0.0);
        } else {
            row.copy_from_slice(&rows[b as usize * k..b as usize * k + k]);
        }
        crate::kernel::normalize(&mut row);
        for (a, &p) in row.iter().enumerate() {
            strat[a * n + h] = p;
        }
    }
}

struct Walk<'a> {
    tree: &'a Tree,
    ids: HoldingIds,
    average: &'a [f64],
    player: u8,
    play: Play,
    level: usize,
}

impl Walk<'_> {
    /// `top`: no chance node above `i` yet (the first one is walked in parallel).
    fn walk(&self, i: usize, reach_opp: &[f64], out: &mut [f64], scratch: &mut [f64], top: bool) {
        let tree = self.tree;
        let node = &tree.nodes[i];
        let n = reach_opp.len();
        let (level, rest) = scratch.split_at_mut(self.level);
        match node.kind {
            NodeKind::Fold | NodeKind::Showdown => {
                terminal_values(tree, &self.ids, node, self.player, reach_opp, out)
            }
            NodeKind::Chance if top => self.top_chance(i, reach_opp, out, rest.len()),
            NodeKind::Chance => {
                let (ro, level) = level.split_at_mut(n);
                let co = &mut level[..n];
                out.fill(0.0);
                for c in tree.children(i) {
                    let h = dealt_hand(tree, c);
                    mask(reach_opp, h, ro);
                    self.walk(c, ro, co, rest, false);
                    add_masked(out, co, h);
                }
            }
            NodeKind::Action => self.action(i, reach_opp, out, level, rest, top),
        }
    }

    /// The first chance node on the path: its children in parallel, each with its own buffers
    /// (`scratch` long), summed in child order (the same result on any thread count).
    fn top_chance(&self, i: usize, reach_opp: &[f64], out: &mut [f64], scratch: usize) {
        let tree = self.tree;
        let n = reach_opp.len();
        let values: Vec<Vec<f64>> = tree
            .children(i)
            .into_par_iter()
            .map(|c| {
                let mut ro = vec![0.0; n];
                let mut co = vec![0.0; n];
                let mut scratch = vec![0.0; scratch];
                mask(reach_opp, dealt_hand(tree, c), &mut ro);
                self.walk(c, &ro, &mut co, &mut scratch, false);
                co
            })
            .collect();
        out.fill(0.0);
        for (c, co) in tree.children(i).zip(&values) {
            add_masked(out, co, dealt_hand(tree, c));
        }
    }

    /// An action node: its children walked, then the opponent's values summed, or the
    /// player's values as `play` plays (`level` this depth's scratch, `rest` the deeper ones').
    fn action(
        &self,
        i: usize,
        reach_opp: &[f64],
        out: &mut [f64],
        level: &mut [f64],
        rest: &mut [f64],
        top: bool,
    ) {
        let tree = self.tree;
        let node = &tree.nodes[i];
        let n = reach_opp.len();
        let k = node.num_children as usize;
        let slot = node.first_slot() as usize;
        let (strat, level) = level.split_at_mut(k * n);
        let (cfv, level) = level.split_at_mut(k * n);
        let (child_reach, level) = level.split_at_mut(n);
        let best = &mut level[..n];
        let rows = &self.average[slot..slot + node_slots(tree, node)];
        average_strategy(tree, node, rows, strat);
        let mine = node.seat == self.player;
        for (a, c) in tree.children(i).enumerate() {
            let ro: &[f64] = if mine {
                reach_opp
            } else {
                for h in 0..n {
                    child_reach[h] = reach_opp[h] * strat[a * n + h];
                }
                child_reach
            };
            self.walk(c, ro, &mut cfv[a * n..a * n + n], rest, top);
        }
        if !mine {
            sum_action_values(out, cfv, k);
            return;
        }
        match self.play {
            Play::Follow => {
                for h in 0..n {
                    out[h] = (0..k).map(|a| strat[a * n + h] * cfv[a * n + h]).sum();
                }
            }
            Play::Best => {
                // Sum each action's value over the hands of a bucket (in `strat`, no longer
                // needed), pick the best action per bucket (first on ties).
                let table = tree.bucket_table(node.board, node.seat);
                let sums = &mut strat[..];
                sums.fill(0.0);
                for (h, &b) in table.iter().enumerate() {
                    if b != NONE {
                        for a in 0..k {
                            sums[b as usize * k + a] += cfv[a * n + h];
                        }
                    }
                }
                for (h, &b) in table.iter().enumerate() {
                    // A hand holding a public card is never reached: any action will do.
                    let arg = if b == NONE {
                        0
                    } else {
                        argmax(&sums[b as usize * k..b as usize * k + k])
                    };
                    best[h] = cfv[arg * n + h];
                }
                out.copy_from_slice(best);
            }
            Play::BestReal => {
                let row = &mut strat[..k];
                for h in 0..n {
                    for a in 0..k {
                        row[a] = cfv[a * n + h];
                    }
                    out[h] = cfv[argmax(row) * n + h];
                }
            }
        }
    }
}

/// The index of the largest value, the first one on ties.
fn argmax(row: &[f64]) -> usize {
    let mut arg = 0;
    for a in 1..row.len() {
        if row[a] > row[arg] {
            arg = a;
        }
    }
    arg
}

/// The exploitability of a strategy in the abstract game it was solved in and in the real game.
#[derive(Clone, Copy, Debug, PartialEq, serde::Serialize)]
pub struct Measure {
    /// Against a best response bound by the same card abstraction.
    pub abstract_game: Exploitability,
    /// Against a best response that tells every private hand apart.
    pub real_game: Exploitability,
}

/// Measures the solver's average strategy in both games (one best response when `lossless`:
/// then the two games are the same).
pub fn measure(solver: &crate::cfr::Solver, lossless: bool) -> Measure {
    let abstract_game = exploitability(&solver.tree, &solver.average);
    let real_game = if lossless {
        abstract_game
    } else {
        real_exploitability(&solver.tree, &solver.average)
    };
    Measure {
        abstract_game,
        real_game,
    }
}
