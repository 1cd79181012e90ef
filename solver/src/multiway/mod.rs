//! The CFR family for any number of players, exact, on the whole game tree of a walkable game
//! (`abstraction::history_tree`): the multiway counterpart of `cfr.rs`, whose vector form over
//! private hands is heads-up.
//!
//! One iteration is a pass per seat in seat order (alternating updates, as OpenSpiel's
//! `CFRSolver` and `CFRPlusSolver` run them): the seat's regrets and average-strategy mass are
//! discounted by the iteration's [`Schedule`], the tree is walked depth first with every other
//! seat playing its current strategy, the seat's counterfactual regrets and its reach-weighted
//! strategy are added history by history, regrets are clamped for CFR+, and the seat's current
//! strategy is regret-matched before the next seat's pass. The sums run in OpenSpiel's order
//! (children in action order, histories in the walk's order, the counterfactual reach seat by
//! seat with chance last), so the curves are OpenSpiel's to the last digit
//! (`solver/tests/it/multiway.rs`).
//!
//! With more than two players CFR guarantees no equilibrium: the average strategy's regret
//! vanishes (a coarse correlated equilibrium), and [`nash_conv`] measures how far each player
//! could gain by deviating alone (docs/notes/multiway.md).
//!
//! A lock ([`lock::on_history`]) fixes rows of chosen seats: each pass plays them as given,
//! their regrets are never added to (nor matched), and the average strategy is the lock there,
//! so the free seats are solved against the fixed ones (with one free seat: its best response).

mod best_response;
pub mod lift;
pub mod lock;
pub mod sampled;

pub use best_response::{nash_conv, reach_and_values, NashConv};

use crate::cfr::{Algorithm, Schedule};
use crate::kernel::regret_match;
use crate::lock::Locked;
use abstraction::history_tree::{HistoryKind, HistoryTree, MAX_ACTIONS, MAX_SEATS};

/// Bytes the solver holds per slot: the regret, the average mass and the current strategy.
pub const BYTES_PER_SLOT: usize = 24;

/// A multiway solver: the tree, the accumulated regrets and average-strategy mass, and the
/// current strategy (one `f64` per slot each).
pub struct Solver {
    /// The game tree.
    pub tree: HistoryTree,
    /// The algorithm.
    pub algorithm: Algorithm,
    /// Iterations completed.
    pub iterations: u64,
    /// Accumulated regret per slot.
    pub regrets: Vec<f64>,
    /// Accumulated average-strategy mass per slot.
    pub average: Vec<f64>,
    /// The current strategy per slot, regret-matched from `regrets`.
    current: Vec<f64>,
    /// Whether `current` must be matched again from `regrets` (they were restored).
    stale: bool,
    /// The rows fixed ([`lock::on_history`]): flags per information set.
    lock: Option<Box<Locked>>,
}

impl Solver {
    /// A fresh solver on `tree` (regrets and averages zero, every strategy uniform).
    pub fn new(tree: HistoryTree, algorithm: Algorithm) -> Solver {
        let n = tree.num_slots;
        let mut s = Solver {
            tree,
            algorithm,
            iterations: 0,
            regrets: vec![0.0; n],
            average: vec![0.0; n],
            current: vec![0.0; n],
            stale: true,
            lock: None,
        };
        s.rematch_all();
        s
    }

    /// The regrets, the average mass and the iteration count, to restore a checkpoint into;
    /// the current strategy is matched again from the restored regrets before the next pass.
    pub fn restore(&mut self) -> ([&mut [f64]; 2], &mut u64) {
        self.stale = true;
        ([&mut self.regrets, &mut self.average], &mut self.iterations)
    }

    /// Fixes the rows of `lock` (resolved on this tree, [`lock::on_history`]) from the next
    /// iteration on; refuses a lock of another tree's size.
    pub fn set_lock(&mut self, lock: Locked) -> Result<(), String> {
        if !lock.fits(self.tree.infosets.len(), self.tree.num_slots) {
            return Err("the lock was resolved on another tree".into());
        }
        self.lock = Some(Box::new(lock));
        self.stale = true;
        Ok(())
    }

    /// Runs one iteration: a pass per seat, in seat order.
    pub fn iterate(&mut self) {
        if self.stale {
            self.rematch_all();
        }
        self.iterations += 1;
        let sched = self.algorithm.schedule(self.iterations);
        for seat in 0..self.tree.seats as u8 {
            self.discount(seat, &sched);
            let mut pass = Pass {
                tree: &self.tree,
                seat,
                weight: sched.new_average,
                current: &self.current,
                lock: self.lock.as_deref(),
                regrets: &mut self.regrets,
                average: &mut self.average,
            };
            pass.walk(0, &[1.0; MAX_SEATS + 1]);
            self.finish(seat, &sched);
        }
    }

    /// The average strategy, normalised per information set (uniform where it has no mass);
    /// a locked row is the lock's.
    pub fn average_strategy(&self) -> Vec<f64> {
        let mut out = self.average.clone();
        for set in &self.tree.infosets {
            let s = set.first_slot as usize;
            crate::kernel::normalize(&mut out[s..s + set.actions as usize]);
        }
        if let Some(lock) = &self.lock {
            lock.fix_average(&mut out);
        }
        out
    }

    /// Applies the schedule's discounts of the iteration to `seat`'s slots before its pass.
    fn discount(&mut self, seat: u8, sched: &Schedule) {
        let Some(d) = sched.discount::<f64>() else {
            return;
        };
        for set in self.tree.infosets.iter().filter(|i| i.seat == seat) {
            let s = set.first_slot as usize..set.first_slot as usize + set.actions as usize;
            d.rows(&mut self.regrets[s.clone()], &mut self.average[s]);
        }
    }

    /// After `seat`'s pass: the clamp of regret matching+, and its new current strategy.
    fn finish(&mut self, seat: u8, sched: &Schedule) {
        for set in self.tree.infosets.iter().filter(|i| i.seat == seat) {
            let s = set.first_slot as usize..set.first_slot as usize + set.actions as usize;
            if sched.clamp {
                crate::kernel::clamp(&mut self.regrets[s.clone()]);
            }
            regret_match(&self.regrets[s.clone()], &mut self.current[s]);
        }
        self.impose_lock();
    }

    fn rematch_all(&mut self) {
        for set in &self.tree.infosets {
            let s = set.first_slot as usize..set.first_slot as usize + set.actions as usize;
            regret_match(&self.regrets[s.clone()], &mut self.current[s]);
        }
        self.impose_lock();
        self.stale = false;
    }

    /// Plays every locked row as the lock says (its regrets, never added to, are not read).
    fn impose_lock(&mut self) {
        if let Some(lock) = &self.lock {
            lock.fix_average(&mut self.current);
        }
    }
}

/// One seat's pass over the tree.
struct Pass<'a> {
    tree: &'a HistoryTree,
    seat: u8,
    /// The weight of this iteration's strategy in the average.
    weight: f64,
    current: &'a [f64],
    /// The rows fixed: played from `current`, where they are imposed, and never updated.
    lock: Option<&'a Locked>,
    regrets: &'a mut [f64],
    average: &'a mut [f64],
}

/// The probability that each seat's own actions reach a history, then chance's (at index
/// `seats`): OpenSpiel's reach vector, so that a counterfactual reach is the same product.
type Reach = [f64; MAX_SEATS + 1];

impl Pass<'_> {
    /// The value of history `i` to the passing seat, given every seat's reach and chance's;
    /// adds its regrets and average mass on the way up.
    fn walk(&mut self, i: usize, reach: &Reach) -> f64 {
        let node = self.tree.nodes[i];
        let seat = self.seat as usize;
        let chance = self.tree.seats;
        let others_zero = || (0..=chance).any(|s| s != seat && reach[s] == 0.0);
        match node.kind {
            HistoryKind::Terminal => self.tree.payoffs_of(&node)[seat],
            // Nothing below can change: the seat's regrets there are weighed by the others'
            // reach and its average by its own (OpenSpiel prunes where every seat's is 0).
            _ if reach[seat] == 0.0 && others_zero() => 0.0,
            HistoryKind::Chance => {
                let p = 1.0 / node.num_children as f64;
                let mut below = *reach;
                below[chance] = reach[chance] * p;
                node.children().map(|c| p * self.walk(c, &below)).sum()
            }
            HistoryKind::Action => {
                let set = self.tree.infosets[node.index as usize];
                let slot = set.first_slot as usize;
                let k = node.num_children as usize;
                let actor = node.seat as usize;
                let mut below = *reach;
                let mut values = [0.0f64; MAX_ACTIONS];
                let mut v = 0.0;
                for (a, c) in node.children().enumerate() {
                    let p = self.current[slot + a];
                    below[actor] = reach[actor] * p;
                    values[a] = self.walk(c, &below);
                    v += p * values[a];
                }
                if actor != seat || self.lock.is_some_and(|l| l.node(node.index as usize)) {
                    return v;
                }
                // The counterfactual reach as OpenSpiel multiplies it: every other seat's
                // reach in seat order, then chance's. A running product along the path is the
                // same number rounded otherwise, and regret matching+ turns a regret's last
                // bit at zero into another strategy (docs/notes/multiway.md).
                let mut others = 1.0;
                for (s, r) in reach[..=chance].iter().enumerate() {
                    if s != seat {
                        others *= r;
                    }
                }
                let own = reach[seat];
                for (a, value) in values[..k].iter().enumerate() {
                    crate::kernel::accumulate(
                        &mut self.regrets[slot + a],
                        &mut self.average[slot + a],
                        others * (value - v),
                        self.weight * own,
                        self.current[slot + a],
                    );
                }
                v
            }
        }
    }
}
