//! Depth-limited re-solving: the subgame's root street solved alone, its leaves (the cuts
//! before the next street's cards) valued by the blueprint's continuation strategies
//! ([`super::leaves`]), the leaf player choosing per hand which continuation it plays there.
//!
//! The game solved is the root's street of a subgame tree ([`Subgame::with_chance`]), its
//! frontier replaced by matrices: at a fold, the terminal's values; at a leaf, a decision of
//! the *leaf player* (the searching seat's opponent) among the continuations, one row per hand
//! as at any decision, each choice worth its matrix. So the searching seat's strategy is
//! solved against an opponent that may switch to whichever continuation suits each of its
//! hands best, which bounds how far the searcher can lean on the blueprint's own play below
//! the cut. With one continuation (the blueprint) the leaf player has no choice and the
//! depth-limited game is the full subgame with both seats playing the blueprint below the cut
//! (tested to 1e-9).
//!
//! The solve is vector-form DCFR (the re-solver's algorithm, [`super::RESOLVE_ALGORITHM`])
//! with alternating passes, as the core solver's: the regrets and averages of the root
//! street's decisions live at the tree's own slots, the leaf choices' after them; a pass walks
//! the root street, and each frontier node costs a matrix-vector product (`n²` for `n` hands a
//! seat). The walk's scratch is allocated once per solve.

use super::leaves::Frontier;
use crate::best_response::Play;
use crate::cfr::{node_slots, Algorithm, Schedule};
use crate::kernel::{normalize, regret_match};
use abstraction::tree::{NodeKind, Tree, NONE};
use anyhow::ensure;

/// A depth-limited subgame being solved: the tree's root street, its frontier, the ranges,
/// and the regrets and averages of the root street's decisions and of the leaf choices.
pub struct Limited<'a> {
    tree: &'a Tree,
    /// The decision the game starts at.
    root: usize,
    frontier: &'a Frontier,
    ranges: [Vec<f64>; 2],
    /// The seat choosing at the leaves (the searching seat's opponent).
    leaf_seat: u8,
    algorithm: Algorithm,
    /// Iterations run.
    pub iterations: u64,
    /// Regrets: the tree's slots (only the root street's used), then each leaf's rows
    /// (`tree.num_slots + (leaf × n + h) × choices + c`).
    regrets: Vec<f64>,
    /// The average strategy's mass, laid out as the regrets.
    average: Vec<f64>,
    scratch: Vec<f64>,
}

/// How a walk plays: solving (the current strategy, updating the traverser's rows) or
/// measuring fixed rows, the traverser as `Play` says at the tree's decisions and at the
/// leaves.
#[derive(Clone, Copy)]
enum Mode {
    Update(Schedule),
    Measure { tree: Play, leaves: Play },
}

/// One pass of a walk: the traverser, how it plays, the rows read.
struct Pass<'p> {
    tree: &'p Tree,
    frontier: &'p Frontier,
    leaf_seat: u8,
    trav: u8,
    mode: Mode,
    /// The rows played (slot weights, normalised per row): the average's when measuring.
    rows: &'p [f64],
    /// The traverser's regrets and averages, updated in [`Mode::Update`].
    update: Option<(&'p mut [f64], &'p mut [f64])>,
    /// Scratch per depth.
    level: usize,
}

/// A decision's place: a tree node or a leaf.
#[derive(Clone, Copy)]
enum Decision {
    Node(usize),
    Leaf(usize),
}

impl<'a> Limited<'a> {
    /// The depth-limited game of `tree` (the subgame's tree) from its decision `root`, with
    /// `frontier` (built there), entered with `ranges` (each seat's reach at `root`, one
    /// weight per hand), `leaf_seat` choosing at the leaves.
    pub fn new(
        tree: &'a Tree,
        root: usize,
        frontier: &'a Frontier,
        ranges: [Vec<f64>; 2],
        leaf_seat: u8,
    ) -> anyhow::Result<Limited<'a>> {
        let n = tree.num_hands();
        ensure!(
            frontier.n == n && frontier.at.len() == tree.nodes.len(),
            "the frontier was built on another tree"
        );
        ensure!(
            ranges.iter().all(|r| r.len() == n),
            "ranges need {n} weights per seat"
        );
        ensure!(leaf_seat < 2, "a subgame is heads-up");
        let slots = tree.num_slots + frontier.leaves * n * frontier.choices;
        let kmax = tree.max_actions.max(frontier.choices);
        let level = (2 * kmax + 2) * n;
        Ok(Limited {
            tree,
            root,
            frontier,
            ranges,
            leaf_seat,
            algorithm: super::RESOLVE_ALGORITHM,
            iterations: 0,
            regrets: vec![0.0; slots],
            average: vec![0.0; slots],
            scratch: vec![0.0; level * (tree.max_depth + 1) + 3 * n],
        })
    }

    /// Runs one iteration: a pass for seat 0, then one for seat 1.
    pub fn iterate(&mut self) {
        self.iterations += 1;
        let sched = self.algorithm.schedule(self.iterations);
        if let Some(d) = sched.discount::<f64>() {
            d.rows(&mut self.regrets, &mut self.average);
        }
        let n = self.tree.num_hands();
        for trav in 0..2u8 {
            // The current strategy is read from the regrets, which the pass updates only
            // after it has read a row.
            let (head, scratch) = self.scratch.split_at_mut(3 * n);
            let (me, rest) = head.split_at_mut(n);
            let (opp, out) = rest.split_at_mut(n);
            me.copy_from_slice(&self.ranges[trav as usize]);
            opp.copy_from_slice(&self.ranges[1 - trav as usize]);
            let mut pass = Pass {
                tree: self.tree,
                frontier: self.frontier,
                leaf_seat: self.leaf_seat,
                trav,
                mode: Mode::Update(sched),
                rows: &[],
                update: Some((&mut self.regrets, &mut self.average)),
                level: scratch.len() / (self.tree.max_depth + 1),
            };
            pass.walk(self.root, me, opp, out, scratch);
        }
    }

    /// The average strategy's mass per slot (the tree's slots, then the leaf choices'): the
    /// root street's rows are the solve's answer; the tree's other slots are 0.
    pub fn average(&self) -> &[f64] {
        &self.average
    }

    /// Seat `seat`'s value (in the ranges, in the units of the tree's terminal values) when the
    /// other seat plays `rows` (laid out as [`Limited::average`]) and `seat` plays as `tree`
    /// says at the tree's decisions and as `leaves` says at the leaves (its own rows where it
    /// follows).
    pub fn value(&mut self, rows: &[f64], seat: u8, tree: Play, leaves: Play) -> f64 {
        let n = self.tree.num_hands();
        assert_eq!(
            rows.len(),
            self.regrets.len(),
            "rows laid out as the solve's"
        );
        let (head, scratch) = self.scratch.split_at_mut(3 * n);
        let (me, rest) = head.split_at_mut(n);
        let (opp, out) = rest.split_at_mut(n);
        me.copy_from_slice(&self.ranges[seat as usize]);
        opp.copy_from_slice(&self.ranges[1 - seat as usize]);
        let mut pass = Pass {
            tree: self.tree,
            frontier: self.frontier,
            leaf_seat: self.leaf_seat,
            trav: seat,
            mode: Mode::Measure { tree, leaves },
            rows,
            update: None,
            level: scratch.len() / (self.tree.max_depth + 1),
        };
        pass.walk(self.root, me, opp, out, scratch);
        out.iter()
            .zip(&self.ranges[seat as usize])
            .map(|(v, r)| v * r)
            .sum()
    }
}

impl Pass<'_> {
    /// The traverser's values at node `i` (its reach `me`, the opponent's `opp`) into `out`.
    fn walk(&mut self, i: usize, me: &[f64], opp: &[f64], out: &mut [f64], scratch: &mut [f64]) {
        let f = self.frontier.at[i];
        if f == NONE {
            debug_assert_eq!(self.tree.nodes[i].kind, NodeKind::Action);
            return self.decide(Decision::Node(i), me, opp, out, scratch);
        }
        let node = self.frontier.nodes[f as usize];
        if node.leaf == NONE {
            return self.product(f as usize, 0, opp, out);
        }
        self.decide(Decision::Leaf(f as usize), me, opp, out, scratch)
    }

    /// The traverser's values of matrix `c` of frontier node `f` against the opponent's reach.
    fn product(&self, f: usize, c: usize, opp: &[f64], out: &mut [f64]) {
        let n = opp.len();
        let m = self.frontier.matrix(&self.frontier.nodes[f], c);
        if self.trav == 0 {
            for (o, row) in out.iter_mut().zip(m.chunks_exact(n)) {
                *o = row.iter().zip(opp).map(|(v, r)| v * r).sum();
            }
        } else {
            out.fill(0.0);
            for (row, &r) in m.chunks_exact(n).zip(opp) {
                for (o, v) in out.iter_mut().zip(row) {
                    *o -= v * r;
                }
            }
        }
    }

    /// The seat acting at a decision and its choices' number.
    fn shape(&self, d: Decision) -> (u8, usize) {
        match d {
            Decision::Node(i) => {
                let node = &self.tree.nodes[i];
                (node.seat, node.num_children as usize)
            }
            Decision::Leaf(f) => (self.leaf_seat, self.frontier.nodes[f].choices as usize),
        }
    }

    /// Where hand `h`'s row of decision `d` starts, `None` if the hand has none (it holds a
    /// public card).
    fn row(&self, d: Decision, h: usize) -> Option<usize> {
        match d {
            Decision::Node(i) => {
                let node = &self.tree.nodes[i];
                let b = self.tree.bucket_table(node.board, node.seat)[h];
                (b != NONE)
                    .then(|| node.first_slot() as usize + b as usize * node.num_children as usize)
            }
            Decision::Leaf(f) => {
                let leaf = self.frontier.nodes[f].leaf as usize;
                let k = self.frontier.choices;
                Some(self.tree.num_slots + (leaf * self.frontier.n + h) * k)
            }
        }
    }

    /// Each hand's strategy at `d` into `strat[a * n + h]`: regret matching of the regrets
    /// when solving, the rows' normalised weights when measuring.
    fn strategy(&self, d: Decision, k: usize, strat: &mut [f64]) {
        let n = strat.len() / k;
        let mut row = [0.0; crate::strategy_file::MAX_ACTIONS];
        let row = &mut row[..k];
        for h in 0..n {
            match (self.row(d, h), &self.update, self.mode) {
                (None, _, _) => row.fill(1.0 / k as f64),
                (Some(at), Some((regrets, _)), Mode::Update(_)) => {
                    regret_match(&regrets[at..at + k], row)
                }
                (Some(at), _, _) => {
                    row.copy_from_slice(&self.rows[at..at + k]);
                    normalize(row);
                }
            }
            for (a, &p) in row.iter().enumerate() {
                strat[a * n + h] = p;
            }
        }
    }

    /// A decision (a tree node of the root street or a leaf's choice): each choice's values,
    /// combined as the seat acting there plays, the traverser's rows updated when solving.
    fn decide(
        &mut self,
        d: Decision,
        me: &[f64],
        opp: &[f64],
        out: &mut [f64],
        scratch: &mut [f64],
    ) {
        let n = opp.len();
        let (seat, k) = self.shape(d);
        let (level, rest) = scratch.split_at_mut(self.level);
        let (strat, level) = level.split_at_mut(k * n);
        let (cfv, level) = level.split_at_mut(k * n);
        let (child_me, level) = level.split_at_mut(n);
        let child_opp = &mut level[..n];
        self.strategy(d, k, strat);
        let mine = seat == self.trav;
        for a in 0..k {
            let sa = &strat[a * n..a * n + n];
            for h in 0..n {
                child_me[h] = if mine { me[h] * sa[h] } else { me[h] };
                child_opp[h] = if mine { opp[h] } else { opp[h] * sa[h] };
            }
            let v = &mut cfv[a * n..a * n + n];
            match d {
                Decision::Node(i) => {
                    let c = self.tree.children(i).nth(a).expect("a child per action");
                    self.walk(c, child_me, child_opp, v, rest);
                }
                Decision::Leaf(f) => self.product(f, a, child_opp, v),
            }
        }
        if !mine {
            crate::cfr::sum_action_values(out, cfv, k);
            return;
        }
        let play = match (self.mode, d) {
            (Mode::Update(_), _) => Play::Follow,
            (Mode::Measure { tree, .. }, Decision::Node(_)) => tree,
            (Mode::Measure { leaves, .. }, Decision::Leaf(_)) => leaves,
        };
        for h in 0..n {
            out[h] = match play {
                Play::Follow => (0..k).map(|a| strat[a * n + h] * cfv[a * n + h]).sum(),
                _ => (0..k)
                    .map(|a| cfv[a * n + h])
                    .fold(f64::NEG_INFINITY, f64::max),
            };
        }
        if let Mode::Update(sched) = self.mode {
            self.accumulate(d, k, sched, me, strat, cfv, out);
        }
    }

    /// The traverser's regrets and average mass at its decision `d` after a pass: each
    /// action's value less the decision's, and the strategy weighed by its own reach.
    #[allow(clippy::too_many_arguments)]
    fn accumulate(
        &mut self,
        d: Decision,
        k: usize,
        sched: Schedule,
        me: &[f64],
        strat: &[f64],
        cfv: &[f64],
        out: &[f64],
    ) {
        let n = me.len();
        for h in 0..n {
            let Some(at) = self.row(d, h) else { continue };
            let Some((regrets, average)) = self.update.as_mut() else {
                return;
            };
            for a in 0..k {
                let r = &mut regrets[at + a];
                *r += cfv[a * n + h] - out[h];
                if sched.clamp && *r < 0.0 {
                    *r = 0.0;
                }
                average[at + a] += sched.new_average * me[h] * strat[a * n + h];
            }
        }
    }
}

/// The decisions of `tree` on the street of `root` from it on (whose rows a depth-limited
/// solve from `root` answers, `frontier` built there): each one's node, first slot and slots'
/// number, in slot order.
pub fn root_street_rows(
    tree: &Tree,
    root: usize,
    frontier: &Frontier,
) -> Vec<(usize, usize, usize)> {
    let mut out = Vec::new();
    let mut stack = vec![root];
    while let Some(i) = stack.pop() {
        if frontier.at[i] != NONE {
            continue;
        }
        let node = &tree.nodes[i];
        out.push((i, node.first_slot() as usize, node_slots(tree, node)));
        stack.extend(tree.children(i));
    }
    out.sort_unstable_by_key(|&(_, first, _)| first);
    out
}
