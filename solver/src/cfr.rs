//! The CFR family on one code path: vanilla CFR, CFR+ and DCFR differ only in their
//! [`Schedule`] (how old regrets and old average-strategy mass are discounted, whether regrets are
//! clamped at zero, and the weight of the new strategy in the average).
//!
//! Every variant uses alternating updates (player 0's pass, then player 1's with player 0's new
//! strategy), as OpenSpiel's solvers do. A pass is a full-width, vector-form walk of the public
//! tree: down the tree go both players' reach vectors over private hands; up come the traverser's
//! counterfactual values per hand.
//!
//! Nothing is allocated while iterating: the scratch vectors are sized from the tree once. Work is
//! split with rayon at the chance nodes nearest the root ("top-level"): their subtrees own
//! disjoint slot ranges, so the regret and strategy arrays are split there with `split_at_mut`.
//! Each child's values are written to its own buffer and summed in child order afterwards, so the
//! result is bit-identical whatever the number of threads.
//!
//! A tree with no chance node but many hands (a re-solved subgame: 13,244 holdings a seat on
//! seventh street) is split at its root instead ([`FORK_MIN_HANDS`]): each action of the root is
//! walked as a task of its own on its subtree's slots, into the row of the root's values it
//! would have filled walked in turn. Nothing is summed across tasks, so the bits are those of
//! the walk in one thread.
//!
//! Public chance sampling ([`Solver::sample`]): below the top-level chance nodes, each chance
//! node walks a mini-batch of its children (drawn per iteration, pass and node from the seed, so
//! the same whatever the thread count) and scales their values by children / batch, an unbiased
//! estimate of the full sum; private hands stay vectors. Only the regrets and averages of the
//! sampled subtrees change in that iteration.

use crate::gadget::{Gadget, GadgetKind};
use crate::kernel::{self, regret_match_strided, Discount, Real};
use crate::lock::Locked;
use crate::terminal::{fold_and_showdown, terminal_values, HoldingIds};
use abstraction::tree::{Node, NodeKind, Tree, NONE};
use serde::{Deserialize, Serialize};

/// Which member of the CFR family to run.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub enum Algorithm {
    /// CFR+: regret matching+ (regrets clamped at zero after each pass) and linear averaging
    /// (iteration `t`'s strategy weighs `t`).
    CfrPlus,
    /// Discounted CFR (Brown and Sandholm 2019): after iteration `t`, positive regrets are
    /// multiplied by `t^alpha / (t^alpha + 1)`, negative ones by `t^beta / (t^beta + 1)`, and the
    /// average strategy by `(t / (t + 1))^gamma`.
    Dcfr {
        /// Discount exponent of positive regrets.
        alpha: f64,
        /// Discount exponent of negative regrets.
        beta: f64,
        /// Discount exponent of the average strategy.
        gamma: f64,
    },
    /// Vanilla CFR: plain regret matching and a uniform average.
    Cfr,
    /// Linear CFR (Brown and Sandholm 2019): plain regret matching (no clamp) with iteration
    /// `t`'s regrets and strategy both weighted by `t`: DCFR with (1, 1, 1). The variant that
    /// suits sampling (Pluribus' MCCFR): regret matching+ clamps every sampled update at zero,
    /// so noise keeps bad actions' regrets near zero rather than letting them fall away.
    Linear,
}

impl Algorithm {
    /// DCFR with the paper's recommended parameters (1.5, 0, 2).
    pub const DCFR: Algorithm = Algorithm::Dcfr {
        alpha: 1.5,
        beta: 0.0,
        gamma: 2.0,
    };

    /// Parses `cfr+`, `linear`, `dcfr` or `cfr`.
    pub fn parse(s: &str) -> Result<Algorithm, String> {
        match s.to_ascii_lowercase().as_str() {
            "cfr+" | "cfrplus" => Ok(Algorithm::CfrPlus),
            "dcfr" => Ok(Algorithm::DCFR),
            "cfr" => Ok(Algorithm::Cfr),
            "linear" | "lcfr" => Ok(Algorithm::Linear),
            _ => Err(format!(
                "unknown algorithm {s:?}: use cfr+, linear, dcfr or cfr"
            )),
        }
    }

    /// The short name `cfr+`, `linear`, `dcfr` or `cfr`.
    pub fn name(&self) -> &'static str {
        match self {
            Algorithm::CfrPlus => "cfr+",
            Algorithm::Dcfr { .. } => "dcfr",
            Algorithm::Cfr => "cfr",
            Algorithm::Linear => "linear",
        }
    }

    /// The schedule of iteration `t` (1-based).
    pub fn schedule(&self, t: u64) -> Schedule {
        let tf = t as f64;
        match *self {
            Algorithm::CfrPlus => Schedule {
                positive: 1.0,
                negative: 1.0,
                clamp: true,
                old_average: 1.0,
                new_average: tf,
            },
            Algorithm::Cfr => Schedule {
                positive: 1.0,
                negative: 1.0,
                clamp: false,
                old_average: 1.0,
                new_average: 1.0,
            },
            Algorithm::Linear => Algorithm::Dcfr {
                alpha: 1.0,
                beta: 1.0,
                gamma: 1.0,
            }
            .schedule(t),
            Algorithm::Dcfr { alpha, beta, gamma } => {
                // The discounts of the end of iteration t - 1, applied lazily when a slot is next
                // updated (each slot is updated exactly once per iteration).
                let d = tf - 1.0;
                let pa = d.powf(alpha);
                let pb = d.powf(beta);
                Schedule {
                    positive: pa / (pa + 1.0),
                    negative: pb / (pb + 1.0),
                    clamp: false,
                    old_average: (d / tf).powf(gamma),
                    new_average: 1.0,
                }
            }
        }
    }
}

/// How one iteration updates a slot: `r ← r × (positive or negative by the sign of r) + regret`,
/// then `r ← max(r, 0)` if `clamp`; `s ← s × old_average + new_average × reach × σ`.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Schedule {
    /// Multiplier of a positive accumulated regret.
    pub positive: f64,
    /// Multiplier of a negative accumulated regret.
    pub negative: f64,
    /// Whether regrets are clamped at zero (regret matching+).
    pub clamp: bool,
    /// Multiplier of the accumulated average-strategy mass.
    pub old_average: f64,
    /// Weight of this iteration's strategy in the average.
    pub new_average: f64,
}

impl Schedule {
    /// The iteration's discounts in `T` ([`Discount`]); `None` where it discounts nothing.
    pub fn discount<T: Real>(&self) -> Option<Discount<T>> {
        Discount::new(self.positive, self.negative, self.old_average)
    }

    /// Whether the iteration discounts anything.
    pub fn discounts(&self) -> bool {
        self.discount::<f64>().is_some()
    }
}

/// The per-thread working memory of one walk: scratch vectors for every depth.
#[derive(Clone, Debug)]
struct Task<T> {
    scratch: Vec<T>,
    out: Vec<T>,
    reach_me: Vec<T>,
    reach_opp: Vec<T>,
}

impl<T: Real> Task<T> {
    /// A task of no memory ([`Solver::release_scratch`]).
    fn empty() -> Task<T> {
        Task {
            scratch: Vec::new(),
            out: Vec::new(),
            reach_me: Vec::new(),
            reach_opp: Vec::new(),
        }
    }

    fn new(tree: &Tree) -> Task<T> {
        let n = tree.num_hands();
        Task {
            scratch: vec![T::ZERO; scratch_len(tree)],
            out: vec![T::ZERO; n],
            reach_me: vec![T::ZERO; n],
            reach_opp: vec![T::ZERO; n],
        }
    }
}

/// Scratch per depth: an action node needs the strategy (k × n), the children's values (k × n)
/// and one child reach vector (n); a chance node three vectors.
fn level_len(tree: &Tree) -> usize {
    (2 * tree.max_actions + 1).max(3) * tree.num_hands()
}

fn scratch_len(tree: &Tree) -> usize {
    level_len(tree) * tree.max_depth
}

/// A window of a slot-indexed array: `data[i]` is slot `base + i` (`f64` here, `f32` in the
/// deal-sampled solver).
pub(crate) struct Rows<'a, T = f64> {
    pub(crate) data: &'a mut [T],
    pub(crate) base: usize,
}

impl<'a, T> Rows<'a, T> {
    pub(crate) fn at(&mut self, slot: usize, len: usize) -> &mut [T] {
        let i = slot - self.base;
        &mut self.data[i..i + len]
    }

    pub(crate) fn view(&self, slot: usize, len: usize) -> &[T] {
        let i = slot - self.base;
        &self.data[i..i + len]
    }

    pub(crate) fn reborrow(&mut self) -> Rows<'_, T> {
        Rows {
            data: self.data,
            base: self.base,
        }
    }

    /// Splits at `slot`: the left part holds the slots below it.
    pub(crate) fn split(self, slot: usize) -> (Rows<'a, T>, Rows<'a, T>) {
        let (l, r) = self.data.split_at_mut(slot - self.base);
        (
            Rows {
                data: l,
                base: self.base,
            },
            Rows {
                data: r,
                base: slot,
            },
        )
    }
}

/// The two slot-indexed arrays a walk updates, windowed alike: the accumulated regrets and the
/// average-strategy sums. A walk hands a subtree its window; parallel subtrees get disjoint ones.
pub(crate) struct Tables<'a, T = f64> {
    pub(crate) regrets: Rows<'a, T>,
    pub(crate) averages: Rows<'a, T>,
}

impl<'a, T> Tables<'a, T> {
    /// The whole arrays, slot 0 first.
    pub(crate) fn whole(regrets: &'a mut [T], averages: &'a mut [T]) -> Tables<'a, T> {
        Tables {
            regrets: Rows {
                data: regrets,
                base: 0,
            },
            averages: Rows {
                data: averages,
                base: 0,
            },
        }
    }

    pub(crate) fn reborrow(&mut self) -> Tables<'_, T> {
        Tables {
            regrets: self.regrets.reborrow(),
            averages: self.averages.reborrow(),
        }
    }

    /// Splits both arrays at `slot`: the left parts hold the slots below it.
    pub(crate) fn split(self, slot: usize) -> (Tables<'a, T>, Tables<'a, T>) {
        let (rl, rr) = self.regrets.split(slot);
        let (al, ar) = self.averages.split(slot);
        (
            Tables {
                regrets: rl,
                averages: al,
            },
            Tables {
                regrets: rr,
                averages: ar,
            },
        )
    }
}

/// A solver: the tree, the accumulated regrets and average strategy (one `T` per slot each:
/// [`Real`]), and preallocated scratch.
pub struct Solver<T: Real = f64> {
    /// The game tree.
    pub tree: Tree,
    /// The algorithm.
    pub algorithm: Algorithm,
    /// Iterations completed.
    pub iterations: u64,
    /// Accumulated regret per slot.
    pub regrets: Vec<T>,
    /// Accumulated average-strategy mass per slot.
    pub average: Vec<T>,
    main: Task<T>,
    tasks: Vec<Task<T>>,
    /// One task per action of the root when the root's children are walked in parallel (a tree
    /// with no chance node and at least [`FORK_MIN_HANDS`] hands); empty otherwise.
    fork: Vec<Task<T>>,
    /// The top-level chance nodes (no chance node above them) with the index of the first task
    /// of their children, in node order.
    par: Vec<(u32, u32)>,
    sampling: Option<Sampling>,
    /// Each seat's reach at the root, when the tree is a subgame entered with ranges
    /// ([`Solver::set_ranges`]); all ones otherwise.
    ranges: Option<Box<[Vec<f64>; 2]>>,
    /// The re-solving gadget, when a subgame is solved safely ([`Solver::set_gadget`]).
    gadget: Option<Box<Gadget>>,
    /// The card-sum indices of the tree's holdings, which its terminals read.
    ids: HoldingIds,
    /// [`own_rows`] of the tree.
    own_rows: Vec<[bool; 2]>,
    /// The rows fixed by a lock ([`Solver::set_lock`]), played instead of regret matching.
    lock: Option<Box<Locked>>,
}

/// Public chance sampling: how many children of each chance node below the top level an
/// iteration walks, and the seed of the draws.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Sampling {
    /// Children walked per chance node (all of them when a node has no more).
    pub batch: usize,
    /// The seed of the draws.
    pub seed: u64,
}

/// Bytes the solver needs per slot (regret and average, `f64` each).
pub const BYTES_PER_SLOT: usize = 16;

/// The fewest hands for which a tree without chance nodes walks its root's actions in parallel:
/// below it a task's vectors are too short to pay for handing them to another thread (a
/// terminal of a few thousand hands costs tens of microseconds; a `rayon::join`, a few).
pub const FORK_MIN_HANDS: usize = 2048;

/// Whether `tree` is walked with its root's actions in parallel (see the module documentation).
fn forks(tree: &Tree) -> bool {
    tree.num_hands() >= FORK_MIN_HANDS
        && tree.nodes[0].kind == NodeKind::Action
        && tree.nodes.iter().all(|n| n.kind != NodeKind::Chance)
}

impl Solver {
    /// A fresh solver on `tree` (regrets and average zero), its tables and walk in `f64`.
    pub fn new(tree: Tree, algorithm: Algorithm) -> Solver {
        Solver::with_tables(tree, algorithm)
    }
}

impl<T: Real> Solver<T> {
    /// A fresh solver on `tree` whose regret and average tables and walk are `T`s.
    pub fn with_tables(tree: Tree, algorithm: Algorithm) -> Solver<T> {
        let par = top_level_chance(&tree);
        let tasks = par.last().map_or(0, |p| {
            p.1 as usize + tree.nodes[p.0 as usize].num_children as usize
        });
        let fork = if forks(&tree) {
            tree.nodes[0].num_children as usize
        } else {
            0
        };
        Solver {
            regrets: vec![T::ZERO; tree.num_slots],
            average: vec![T::ZERO; tree.num_slots],
            main: Task::new(&tree),
            tasks: (0..tasks).map(|_| Task::new(&tree)).collect(),
            fork: (0..fork).map(|_| Task::new(&tree)).collect(),
            ids: HoldingIds::new(&tree),
            own_rows: own_rows(&tree),
            tree,
            algorithm,
            iterations: 0,
            par,
            sampling: None,
            ranges: None,
            gadget: None,
            lock: None,
        }
    }

    /// Plays the rows `lock` fixes at their frequencies from now on, in every pass and in the
    /// average (whose fixed rows are set to the lock after each iteration, so that the strategy
    /// written is the lock to the bit). Refused unless `lock` was resolved on a tree of this
    /// one's size ([`Locked::on_tree`]).
    pub fn set_lock(&mut self, lock: Locked) -> Result<(), String> {
        if !lock.fits(self.tree.nodes.len(), self.tree.num_slots) {
            return Err("the lock was resolved on another tree".into());
        }
        self.lock = Some(Box::new(lock));
        Ok(())
    }

    /// The lock in force, if any.
    pub fn lock(&self) -> Option<&Locked> {
        self.lock.as_deref()
    }

    /// Starts every pass from these reach vectors (one per seat, a weight per private hand)
    /// instead of all ones: the ranges with which a re-solved subgame is entered (see
    /// `crate::resolve`). Refused unless each has one entry per hand of the tree.
    pub fn set_ranges(&mut self, ranges: [Vec<f64>; 2]) -> Result<(), String> {
        let n = self.tree.num_hands();
        if ranges.iter().any(|r| r.len() != n) {
            return Err(format!(
                "ranges need {n} weights per seat, one per private hand"
            ));
        }
        self.ranges = Some(Box::new(ranges));
        Ok(())
    }

    /// Solves the subgame safely from now on: `seat` (the opponent of the seat being re-solved)
    /// enters through a re-solving gadget of `kind` ([`crate::gadget`]) instead of its range,
    /// with `alternative` its counterfactual value per hand under the strategy replaced (as
    /// [`crate::best_response::counterfactual_values`] gives it, the other seat's range as
    /// reach) and `possible` the hands that can meet that range. Refused unless the ranges are
    /// set and both have one entry per hand.
    pub fn set_gadget(
        &mut self,
        seat: u8,
        kind: GadgetKind,
        alternative: Vec<f64>,
        possible: Vec<bool>,
    ) -> Result<(), String> {
        let n = self.tree.num_hands();
        if self.ranges.is_none() {
            return Err("a gadget needs the subgame's ranges first".into());
        }
        if alternative.len() != n || seat > 1 {
            return Err(format!(
                "a gadget needs seat 0 or 1 and {n} values, one per private hand"
            ));
        }
        self.gadget = Some(Box::new(Gadget::new(seat, kind, alternative, possible)?));
        Ok(())
    }

    /// Samples the public chance children from now on (see the module documentation). Refused
    /// for DCFR, whose discounts assume every slot is updated in every iteration, and for a
    /// batch of 0.
    pub fn sample(&mut self, sampling: Sampling) -> Result<(), String> {
        if sampling.batch == 0 {
            return Err("the sampling batch must be at least 1 chance child".into());
        }
        if matches!(self.algorithm, Algorithm::Dcfr { .. } | Algorithm::Linear) {
            return Err(
                "chance sampling works with cfr+ and cfr, not dcfr or linear (their discounts \
                 assume every slot is updated in every iteration)"
                    .into(),
            );
        }
        self.sampling = Some(sampling);
        Ok(())
    }

    /// The chance sampling in use, if any.
    pub fn sampling(&self) -> Option<Sampling> {
        self.sampling
    }

    /// Frees the walk's scratch (every task's vectors: some 6 MB a task in a seventh-street
    /// subgame), which a solve that is over no longer needs: a re-solving player keeps its
    /// last solves. The next [`Solver::iterate`] allocates it again.
    pub fn release_scratch(&mut self) {
        let tasks = std::iter::once(&mut self.main)
            .chain(&mut self.tasks)
            .chain(&mut self.fork);
        for t in tasks {
            *t = Task::empty();
        }
    }

    /// Runs one iteration (a pass for player 0, then one for player 1). Parallel in the current
    /// rayon pool; the result does not depend on its size.
    pub fn iterate(&mut self) {
        if self.main.out.len() != self.tree.num_hands() {
            // Released after an earlier solve: the tasks are allocated again, once.
            let tasks = std::iter::once(&mut self.main)
                .chain(&mut self.tasks)
                .chain(&mut self.fork);
            for t in tasks {
                *t = Task::new(&self.tree);
            }
        }
        self.iterations += 1;
        let sched = self.algorithm.schedule(self.iterations);
        let n = self.tree.num_hands();
        for trav in 0..2u8 {
            let ctx = Ctx {
                tree: &self.tree,
                ids: &self.ids,
                own_rows: &self.own_rows,
                trav,
                sched,
                level: level_len(&self.tree),
                par: &self.par,
                sample: self
                    .sampling
                    .map(|s| (s.batch, mix(mix(s.seed, self.iterations), trav as u64))),
                lock: self.lock.as_deref(),
            };
            let Task {
                scratch,
                out,
                reach_me,
                reach_opp,
            } = &mut self.main;
            match &self.ranges {
                Some(r) => {
                    round_into(reach_me, &r[trav as usize]);
                    round_into(reach_opp, &r[1 - trav as usize]);
                }
                None => {
                    reach_me.fill(T::ONE);
                    reach_opp.fill(T::ONE);
                }
            }
            if let Some(g) = self.gadget.as_deref_mut() {
                g.match_regrets();
                let gadget_reach = if g.seat == trav {
                    &mut *reach_me
                } else {
                    &mut *reach_opp
                };
                round_into(&mut gadget_reach[..n], &g.follow);
            }
            let mut pool = Pool {
                tasks: &mut self.tasks,
                fork: &mut self.fork,
            };
            let reach = Reach {
                me: &reach_me[..n],
                opp: &reach_opp[..n],
            };
            let tables = Tables::whole(&mut self.regrets, &mut self.average);
            walk(
                &ctx,
                0,
                reach,
                &mut out[..n],
                scratch,
                tables,
                Some(&mut pool),
            );
            if let Some(g) = self.gadget.as_deref_mut().filter(|g| g.seat == trav) {
                g.update(&out[..n]);
            }
        }
        if let Some(lock) = self.lock.as_deref() {
            lock.fix_average(&mut self.average);
        }
    }
}

/// Per board and seat, whether every hand owns the row of its own number (bucket `h` for hand
/// `h`, as in a re-solved subgame), so that an update touches each slot once.
fn own_rows(tree: &Tree) -> Vec<[bool; 2]> {
    (0..tree.boards.len() as u32)
        .map(|b| {
            [0, 1].map(|seat| {
                let t = tree.bucket_table(b, seat);
                t.iter().enumerate().all(|(h, &x)| x as usize == h)
            })
        })
        .collect()
}

/// The chance nodes with no chance node above them, in node order, each with the index of the
/// task of its first child (tasks numbered consecutively).
fn top_level_chance(tree: &Tree) -> Vec<(u32, u32)> {
    let mut par = Vec::new();
    let mut stack = vec![0usize];
    while let Some(i) = stack.pop() {
        match tree.nodes[i].kind {
            NodeKind::Chance => par.push((i as u32, 0)),
            NodeKind::Action => stack.extend(tree.children(i)),
            _ => {}
        }
    }
    par.sort_unstable();
    let mut next = 0;
    for p in par.iter_mut() {
        p.1 = next;
        next += tree.nodes[p.0 as usize].num_children as u32;
    }
    par
}

/// The bytes of scratch a solver of number type `T` on `tree` allocates (one task per top-level
/// chance child, one per action of a root walked in parallel, and one for the main thread).
pub fn scratch_bytes<T: Real>(tree: &Tree) -> usize {
    let fork = if forks(tree) {
        tree.nodes[0].num_children as usize
    } else {
        0
    };
    let tasks = 1
        + fork
        + top_level_chance(tree)
            .iter()
            .map(|p| tree.nodes[p.0 as usize].num_children as usize)
            .sum::<usize>();
    tasks * (scratch_len(tree) + 3 * tree.num_hands()) * std::mem::size_of::<T>()
}

struct Ctx<'a> {
    tree: &'a Tree,
    ids: &'a HoldingIds,
    /// Per board and seat, whether hand `h`'s bucket is `h` ([`own_rows`]).
    own_rows: &'a [[bool; 2]],
    trav: u8,
    sched: Schedule,
    level: usize,
    par: &'a [(u32, u32)],
    /// Chance sampling: the batch and this pass's key (mixed with the node index per node).
    sample: Option<(usize, u64)>,
    /// The rows a lock fixes, if any.
    lock: Option<&'a Locked>,
}

/// The tasks of the top-level chance children, numbered as in `Ctx::par`, and those of the
/// root's actions when they are walked in parallel (empty otherwise).
struct Pool<'a, T> {
    tasks: &'a mut [Task<T>],
    fork: &'a mut [Task<T>],
}

/// Regret matching: the current strategy of every hand at action node `node`, written as
/// `strat[a * n + h]` (uniform for the hands that collide with the board: they are never reached).
/// `own`: hand `h` owns row `h` ([`own_rows`]), so that the rows are read in turn, not through
/// the bucket table.
fn regret_matching<T: Real>(tree: &Tree, node: &Node, own: bool, rows: &[T], strat: &mut [T]) {
    let k = node.num_children as usize;
    let table = tree.bucket_table(node.board, node.seat);
    match k {
        2 if own => match_own::<T, 2>(table.len(), rows, strat),
        3 if own => match_own::<T, 3>(table.len(), rows, strat),
        2 => match_hands::<T, 2>(table, rows, strat),
        3 => match_hands::<T, 3>(table, rows, strat),
        _ => {
            for (h, &b) in table.iter().enumerate() {
                match_hand(table.len(), h, b, rows, strat, k);
            }
        }
    }
}

/// Regret matching of hand `h` (bucket `b`) of `n`: its row of `rows` into `strat[a * n + h]`
/// (uniform for a hand of no bucket).
#[inline(always)]
fn match_hand<T: Real>(n: usize, h: usize, b: u32, rows: &[T], strat: &mut [T], k: usize) {
    if b == NONE {
        let uniform = T::from_f64(1.0 / k as f64);
        (0..k).for_each(|a| strat[a * n + h] = uniform);
        return;
    }
    let row = &rows[b as usize * k..b as usize * k + k];
    regret_match_strided(row, &mut strat[h..], n);
}

/// [`regret_matching`] for `K` actions, the same bits hand by hand: eight hands at a time, so
/// that the divisions and the stores into each action's row of `strat` are vector operations
/// (a hand of no bucket has no positive regret, hence the uniform row).
#[inline(always)]
fn match_hands<T: Real, const K: usize>(table: &[u32], rows: &[T], strat: &mut [T]) {
    const L: usize = 8;
    let n = table.len();
    let mut chunks = table.chunks_exact(L);
    for (c, bs) in (&mut chunks).enumerate() {
        let pos: [[T; L]; K] = std::array::from_fn(|a| {
            std::array::from_fn(|l| match bs[l] {
                NONE => T::ZERO,
                b => rows[b as usize * K + a].max(T::ZERO),
            })
        });
        // The sum in the order of `match_hand`'s (whose start, -0.0, adds nothing).
        let sum: [T; L] = std::array::from_fn(|l| (1..K).fold(pos[0][l], |s, a| s + pos[a][l]));
        for (a, p) in pos.iter().enumerate() {
            let out = &mut strat[a * n + c * L..a * n + c * L + L];
            for l in 0..L {
                out[l] = if sum[l] > T::ZERO {
                    p[l] / sum[l]
                } else {
                    T::from_f64(1.0 / K as f64)
                };
            }
        }
    }
    let done = n - chunks.remainder().len();
    for (h, &b) in chunks.remainder().iter().enumerate() {
        match_hand(n, done + h, b, rows, strat, K);
    }
}

/// [`match_hands`] where hand `h` owns row `h` of `rows` (`n` hands): the same bits, the rows
/// read in turn.
#[inline(always)]
fn match_own<T: Real, const K: usize>(n: usize, rows: &[T], strat: &mut [T]) {
    // Eight hands at a time, as `match_hands`: their rows read into one array per action, so
    // that the divisions and the stores into each action's row are vector operations (a hand
    // at a time, the compiler stored each probability alone: 45% of the walk's samples).
    const L: usize = 8;
    let rows = &rows[..n * K];
    let mut actions = strat[..n * K].chunks_exact_mut(n);
    let out: [&mut [T]; K] = std::array::from_fn(|_| actions.next().expect("K rows"));
    let mut chunks = rows.chunks_exact(L * K);
    for (c, chunk) in (&mut chunks).enumerate() {
        let pos: [[T; L]; K] =
            std::array::from_fn(|a| std::array::from_fn(|l| chunk[l * K + a].max(T::ZERO)));
        let sum: [T; L] = std::array::from_fn(|l| (1..K).fold(pos[0][l], |s, a| s + pos[a][l]));
        for (a, p) in pos.iter().enumerate() {
            let o = &mut out[a][c * L..c * L + L];
            for l in 0..L {
                o[l] = if sum[l] > T::ZERO {
                    p[l] / sum[l]
                } else {
                    T::from_f64(1.0 / K as f64)
                };
            }
        }
    }
    let done = n - chunks.remainder().len() / K;
    for (i, row) in chunks.remainder().chunks_exact(K).enumerate() {
        let pos: [T; K] = std::array::from_fn(|a| row[a].max(T::ZERO));
        let sum = (1..K).fold(pos[0], |s, a| s + pos[a]);
        for a in 0..K {
            out[a][done + i] = if sum > T::ZERO {
                pos[a] / sum
            } else {
                T::from_f64(1.0 / K as f64)
            };
        }
    }
}

/// The slots of action node `node`: buckets × actions.
pub(crate) fn node_slots(tree: &Tree, node: &Node) -> usize {
    tree.num_buckets[node.street as usize] as usize * node.num_children as usize
}

/// The reach probabilities entering a node, per hand: the traverser's and the opponent's.
#[derive(Clone, Copy)]
struct Reach<'a, T> {
    me: &'a [T],
    opp: &'a [T],
}

/// Walks node `i` for the traverser `ctx.trav`: its counterfactual value per hand into `out`.
/// `pool` holds the tasks of the top-level chance nodes' children (the root's walk only).
fn walk<T: Real>(
    ctx: &Ctx,
    i: usize,
    reach: Reach<T>,
    out: &mut [T],
    scratch: &mut [T],
    tables: Tables<T>,
    pool: Option<&mut Pool<T>>,
) {
    let node = &ctx.tree.nodes[i];
    match node.kind {
        NodeKind::Fold | NodeKind::Showdown => {
            terminal_values(ctx.tree, ctx.ids, node, ctx.trav, reach.opp, out)
        }
        NodeKind::Chance => match pool {
            Some(pool) => parallel_chance(ctx, i, reach, out, tables, pool),
            None => chance(ctx, i, reach, out, scratch, tables),
        },
        NodeKind::Action => action(ctx, i, reach, out, scratch, tables, pool),
    }
}

/// A chance node walked in this thread: each child (or this pass's sample of them, scaled up)
/// with both reaches masked to the hands that do not hold its card, the values summed.
fn chance<T: Real>(
    ctx: &Ctx,
    i: usize,
    reach: Reach<T>,
    out: &mut [T],
    scratch: &mut [T],
    mut tables: Tables<T>,
) {
    let tree = ctx.tree;
    let n = reach.me.len();
    let (level, rest) = scratch.split_at_mut(ctx.level);
    let (rm, level) = level.split_at_mut(n);
    let (ro, level) = level.split_at_mut(n);
    let co = &mut level[..n];
    out.fill(T::ZERO);
    let children = tree.children(i);
    let mut batch = [0u8; 256];
    let (picked, scale) = match ctx.sample {
        Some((b, key)) if b < children.len() => {
            let k = children.len();
            (
                draw(&mut batch, k, b, mix(key, i as u64)),
                T::from_f64(k as f64 / b as f64),
            )
        }
        _ => {
            for (j, x) in batch.iter_mut().enumerate().take(children.len()) {
                *x = j as u8;
            }
            (&batch[..children.len()], T::ONE)
        }
    };
    for &j in picked {
        let c = children.start + j as usize;
        let h = dealt_hand(tree, c);
        mask(reach.me, h, rm);
        mask(reach.opp, h, ro);
        let below = Reach { me: rm, opp: ro };
        walk(ctx, c, below, co, rest, tables.reborrow(), None);
        add_masked_scaled(out, co, h, scale);
    }
}

/// An action node's working memory, carved from its depth's share of the scratch.
struct ActionFrame<'s, T> {
    /// `strategy[a * n + h]`: the actor's current probability of action `a` with hand `h`.
    strategy: &'s mut [T],
    /// The actor's reach below the action being walked.
    child_reach: &'s mut [T],
    /// `values[a * n + h]`: the traverser's value of hand `h` below action `a`.
    values: &'s mut [T],
    /// The scratch of the levels below.
    below: &'s mut [T],
}

impl<'s, T> ActionFrame<'s, T> {
    /// The frame of a node of `k` actions over `n` hands at the head of `scratch`, whose first
    /// `level` entries are this depth's.
    fn carve(scratch: &'s mut [T], level: usize, k: usize, n: usize) -> ActionFrame<'s, T> {
        let (own, below) = scratch.split_at_mut(level);
        let (strategy, own) = own.split_at_mut(k * n);
        let (child_reach, own) = own.split_at_mut(n);
        ActionFrame {
            strategy,
            child_reach,
            values: &mut own[..k * n],
            below,
        }
    }
}

/// An action node, in phases: the current strategy by regret matching, the descent into each
/// action, the node's value, and at the traverser's own nodes the update of its rows.
fn action<T: Real>(
    ctx: &Ctx,
    i: usize,
    reach: Reach<T>,
    out: &mut [T],
    scratch: &mut [T],
    mut tables: Tables<T>,
    pool: Option<&mut Pool<T>>,
) {
    let tree = ctx.tree;
    let node = &tree.nodes[i];
    let k = node.num_children as usize;
    let (slot, len) = (node.first_slot() as usize, node_slots(tree, node));
    let mut frame = ActionFrame::carve(scratch, ctx.level, k, reach.me.len());
    let own = ctx.own_rows[node.board as usize][node.seat as usize];
    regret_matching(
        tree,
        node,
        own,
        tables.regrets.view(slot, len),
        frame.strategy,
    );
    if let Some(lock) = ctx.lock.filter(|l| l.node(i)) {
        impose(lock, tree, node, frame.strategy);
    }
    let mine = node.seat == ctx.trav;
    if mine {
        // The average rows are next touched after the whole subtree, in post-order:
        // ask for them now so that the update does not wait on memory.
        prefetch(tables.averages.view(slot, len));
    }
    descend(ctx, i, reach, &mut frame, tables.reborrow(), pool);
    if !mine {
        sum_action_values(out, frame.values, k);
        return;
    }
    expected_value(out, frame.strategy, frame.values, k);
    update(
        ctx,
        node,
        out,
        &frame,
        reach.me,
        tables.regrets.at(slot, len),
        tables.averages.at(slot, len),
    );
}

/// Overwrites the current strategy `strat` (`strat[a * n + h]`) of every hand of action node
/// `node` whose row `lock` fixes with the lock's frequencies.
fn impose<T: Real>(lock: &Locked, tree: &Tree, node: &Node, strat: &mut [T]) {
    let k = node.num_children as usize;
    let table = tree.bucket_table(node.board, node.seat);
    let (n, slot) = (table.len(), node.first_slot() as usize);
    for (h, &b) in table.iter().enumerate().filter(|(_, &b)| b != NONE) {
        if let Some(row) = lock.row(slot + b as usize * k, k) {
            for (a, &p) in row.iter().enumerate() {
                strat[a * n + h] = T::from_f64(p);
            }
        }
    }
}

/// Walks each action of node `i`, the actor's reach scaled by its probability, into
/// `frame.values`.
fn descend<T: Real>(
    ctx: &Ctx,
    i: usize,
    reach: Reach<T>,
    frame: &mut ActionFrame<T>,
    mut tables: Tables<T>,
    mut pool: Option<&mut Pool<T>>,
) {
    let n = reach.me.len();
    let mine = ctx.tree.nodes[i].seat == ctx.trav;
    let k = ctx.tree.nodes[i].num_children as usize;
    if let Some(p) = pool.as_deref_mut().filter(|p| p.fork.len() == k) {
        // Only the root gets the pool's fork (its children are walked without a pool).
        let tasks = &mut *p.fork;
        return fork(
            ctx,
            i,
            0,
            reach,
            frame.strategy,
            frame.values,
            tasks,
            tables,
        );
    }
    let base = if mine { reach.me } else { reach.opp };
    let tree = ctx.tree;
    let first = tree.children(i).start;
    let ends = |c: usize| matches!(tree.nodes[c].kind, NodeKind::Fold | NodeKind::Showdown);
    let mut a = 0;
    while a < k {
        let c = first + a;
        if mine && ends(c) {
            // The traverser's own action ends the hand: the values read the opponent's reach
            // alone, the node's own. A fold beside a call shares the call's card sums.
            let v = &mut frame.values[a * n..];
            if a + 1 < k
                && tree.nodes[c].kind == NodeKind::Fold
                && tree.nodes[c + 1].kind == NodeKind::Showdown
            {
                let (fold, call) = v.split_at_mut(n);
                let (f, s) = (&tree.nodes[c], &tree.nodes[c + 1]);
                fold_and_showdown(tree, ctx.ids, [f, s], ctx.trav, reach.opp, fold, call);
                a += 2;
            } else {
                terminal_values(
                    tree,
                    ctx.ids,
                    &tree.nodes[c],
                    ctx.trav,
                    reach.opp,
                    &mut v[..n],
                );
                a += 1;
            }
            continue;
        }
        let s = &frame.strategy[a * n..a * n + n];
        scale_reach(base, s, frame.child_reach);
        let below = child_reach(mine, reach, frame.child_reach);
        walk(
            ctx,
            c,
            below,
            &mut frame.values[a * n..a * n + n],
            frame.below,
            tables.reborrow(),
            pool.as_deref_mut(),
        );
        a += 1;
    }
}

/// `child[h] = base[h] × strategy[h]`: the actor's reach below one action.
fn scale_reach<T: Real>(base: &[T], strategy: &[T], child: &mut [T]) {
    for ((c, &b), &s) in child.iter_mut().zip(base).zip(strategy) {
        *c = b * s;
    }
}

/// The reaches below an action of the traverser (`mine`) or of the opponent, the actor's being
/// `child`.
fn child_reach<'a, T>(mine: bool, reach: Reach<'a, T>, child: &'a [T]) -> Reach<'a, T> {
    if mine {
        Reach {
            me: child,
            opp: reach.opp,
        }
    } else {
        Reach {
            me: reach.me,
            opp: child,
        }
    }
}

/// Walks actions `a0 .. a0 + tasks.len()` of node `i` as parallel tasks (halves by
/// `rayon::join`), each on its own subtree's slots with its own task's scratch, into its own
/// row of `values` (rows `a0 ..` of the node's `strategy`): what [`descend`] computes in turn.
#[allow(clippy::too_many_arguments)]
fn fork<T: Real>(
    ctx: &Ctx,
    i: usize,
    a0: usize,
    reach: Reach<T>,
    strategy: &[T],
    values: &mut [T],
    tasks: &mut [Task<T>],
    tables: Tables<T>,
) {
    let n = reach.me.len();
    let first = ctx.tree.children(i).start;
    if let [t] = tasks {
        let mine = ctx.tree.nodes[i].seat == ctx.trav;
        let base = if mine { reach.me } else { reach.opp };
        scale_reach(base, &strategy[a0 * n..a0 * n + n], &mut t.reach_me);
        let below = child_reach(mine, reach, &t.reach_me);
        walk(ctx, first + a0, below, values, &mut t.scratch, tables, None);
        return;
    }
    let mid = tasks.len() / 2;
    let (left, right) = tables.split(ctx.tree.slot_range[first + a0 + mid][0] as usize);
    let (vl, vr) = values.split_at_mut(mid * n);
    let (tl, tr) = tasks.split_at_mut(mid);
    rayon::join(
        || fork(ctx, i, a0, reach, strategy, vl, tl, left),
        || fork(ctx, i, a0 + mid, reach, strategy, vr, tr, right),
    );
}

/// The traverser's value at its own node: `out[h] = Σ_a strategy[a * n + h] · values[a * n + h]`.
fn expected_value<T: Real>(out: &mut [T], strategy: &[T], values: &[T], k: usize) {
    match k {
        2 => expected_value_of::<T, 2>(out, strategy, values),
        3 => expected_value_of::<T, 3>(out, strategy, values),
        _ => {
            let n = out.len();
            for h in 0..n {
                let mut v = T::ZERO;
                for a in 0..k {
                    v += strategy[a * n + h] * values[a * n + h];
                }
                out[h] = v;
            }
        }
    }
}

/// [`expected_value`] for `K` actions: the same sums, in the same order, hand after hand
/// along each action's rows (which the compiler vectorizes over the hands).
#[inline(always)]
fn expected_value_of<T: Real, const K: usize>(out: &mut [T], strategy: &[T], values: &[T]) {
    let n = out.len();
    let s: [&[T]; K] = std::array::from_fn(|a| &strategy[a * n..a * n + n]);
    let v: [&[T]; K] = std::array::from_fn(|a| &values[a * n..a * n + n]);
    for (h, o) in out.iter_mut().enumerate() {
        let mut x = T::ZERO;
        for a in 0..K {
            x += s[a][h] * v[a][h];
        }
        *o = x;
    }
}

/// Adds this pass's regrets and strategy to the traverser's slots of one action node.
fn update<T: Real>(
    ctx: &Ctx,
    node: &Node,
    value: &[T],
    frame: &ActionFrame<T>,
    reach_me: &[T],
    reg: &mut [T],
    avg: &mut [T],
) {
    let sched = ctx.sched;
    let k = node.num_children as usize;
    let (strat, cfv) = (&*frame.strategy, &*frame.values);
    let table = ctx.tree.bucket_table(node.board, node.seat);
    let rows = Accumulate {
        table,
        value,
        cfv,
        strat,
        reach_me,
        weight: T::from_f64(sched.new_average),
    };
    if ctx.own_rows[node.board as usize][node.seat as usize] && table.len() * k == reg.len() {
        // Hand h owns row h: each slot is discounted, added to and clamped in one pass.
        match k {
            2 => return rows.fused::<2>(&sched, reg, avg),
            3 => return rows.fused::<3>(&sched, reg, avg),
            _ => {}
        }
    }
    if let Some(d) = sched.discount::<T>() {
        d.rows(reg, avg);
    }
    match k {
        2 => rows.add::<2>(reg, avg),
        3 => rows.add::<3>(reg, avg),
        _ => {
            for (h, &b) in table.iter().enumerate() {
                rows.add_hand(h, b, reg, avg, k);
            }
        }
    }
    if sched.clamp {
        kernel::clamp(reg);
    }
}

/// What one pass adds to the traverser's rows of one action node, hand by hand.
struct Accumulate<'a, T> {
    /// The bucket of each hand ([`NONE`]: a hand holding a public card).
    table: &'a [u32],
    /// The node's value per hand.
    value: &'a [T],
    /// `cfv[a * n + h]`: the value of hand `h` below action `a`.
    cfv: &'a [T],
    /// `strat[a * n + h]`: the strategy played.
    strat: &'a [T],
    /// The traverser's reach per hand.
    reach_me: &'a [T],
    /// The weight of this iteration's strategy in the average.
    weight: T,
}

impl<T: Real> Accumulate<'_, T> {
    /// Adds hand `h`'s regrets and strategy to the row of its bucket `b`.
    #[inline(always)]
    fn add_hand(&self, h: usize, b: u32, reg: &mut [T], avg: &mut [T], k: usize) {
        if b == NONE {
            // A hand holding a public card: its values are not counterfactual values of any
            // bucket (a fold pays it as if the opponent could hold anything).
            return;
        }
        let n = self.table.len();
        let row = b as usize * k;
        let w = self.weight * self.reach_me[h];
        for a in 0..k {
            let delta = self.cfv[a * n + h] - self.value[h];
            kernel::accumulate(
                &mut reg[row + a],
                &mut avg[row + a],
                delta,
                w,
                self.strat[a * n + h],
            );
        }
    }

    /// Every hand for `K` actions (the loop unrolled over the actions).
    #[inline(always)]
    fn add<const K: usize>(&self, reg: &mut [T], avg: &mut [T]) {
        for (h, &b) in self.table.iter().enumerate() {
            self.add_hand(h, b, reg, avg, K);
        }
    }

    /// The whole update of a node whose hand `h` owns row `h` (every slot touched once: a
    /// re-solved subgame's identity tables): each slot's discount, sum and clamp in one pass
    /// over the rows instead of three, the same operations in the same order, so the same bits.
    #[inline(always)]
    fn fused<const K: usize>(&self, sched: &Schedule, reg: &mut [T], avg: &mut [T]) {
        let n = self.table.len();
        let (reg, avg) = (&mut reg[..n * K], &mut avg[..n * K]);
        let cfv: [&[T]; K] = std::array::from_fn(|a| &self.cfv[a * n..a * n + n]);
        let strat: [&[T]; K] = std::array::from_fn(|a| &self.strat[a * n..a * n + n]);
        let discount = sched.discount::<T>();
        let (value, reach_me) = (&self.value[..n], &self.reach_me[..n]);
        for (h, (r, s)) in reg
            .chunks_exact_mut(K)
            .zip(avg.chunks_exact_mut(K))
            .enumerate()
        {
            let w = self.weight * reach_me[h];
            for a in 0..K {
                let (mut x, mut y) = (r[a], s[a]);
                if let Some(d) = &discount {
                    (x, y) = (d.regret(x), d.average(y));
                }
                kernel::accumulate(&mut x, &mut y, cfv[a][h] - value[h], w, strat[a][h]);
                if sched.clamp {
                    x = x.max(T::ZERO);
                }
                (r[a], s[a]) = (x, y);
            }
        }
    }
}

/// The top-level chance node `i`: its children run as parallel tasks on disjoint slot ranges,
/// and their values are summed in child order.
fn parallel_chance<T: Real>(
    ctx: &Ctx,
    i: usize,
    reach: Reach<T>,
    out: &mut [T],
    tables: Tables<T>,
    pool: &mut Pool<T>,
) {
    let tree = ctx.tree;
    let at = ctx
        .par
        .binary_search_by_key(&(i as u32), |p| p.0)
        .expect("every top-level chance node has tasks");
    let first_task = ctx.par[at].1 as usize;
    let k = tree.nodes[i].num_children as usize;
    let children = tree.children(i);
    // Skip (drop) the slots before the first child: they belong to no child.
    let (_, tables) = tables.split(tree.slot_range[children.start][0] as usize);
    let tasks = &mut pool.tasks[first_task..first_task + k];
    run_children(ctx, children.start, reach, tasks, tables);
    out.fill(T::ZERO);
    for (t, c) in tasks.iter().zip(children) {
        add_masked(out, &t.out, dealt_hand(tree, c));
    }
}

/// Runs children `first ..` (one per task) by halves with `rayon::join`.
fn run_children<T: Real>(
    ctx: &Ctx,
    first: usize,
    reach: Reach<T>,
    tasks: &mut [Task<T>],
    tables: Tables<T>,
) {
    if tasks.len() == 1 {
        let t = &mut tasks[0];
        let h = dealt_hand(ctx.tree, first);
        mask(reach.me, h, &mut t.reach_me);
        mask(reach.opp, h, &mut t.reach_opp);
        let own = Reach {
            me: &t.reach_me,
            opp: &t.reach_opp,
        };
        walk(ctx, first, own, &mut t.out, &mut t.scratch, tables, None);
        return;
    }
    let mid = tasks.len() / 2;
    let (left, right) = tables.split(ctx.tree.slot_range[first + mid][0] as usize);
    let (tl, tr) = tasks.split_at_mut(mid);
    rayon::join(
        || run_children(ctx, first, reach, tl, left),
        || run_children(ctx, first + mid, reach, tr, right),
    );
}

/// At the other player's decision the traverser's values are the sum over the actions:
/// `out[h] = Σ_a cfv[a * n + h]` for the `k` actions' rows of `n = out.len()` hands.
pub(crate) fn sum_action_values<T: Real>(out: &mut [T], cfv: &[T], k: usize) {
    let n = out.len();
    out.copy_from_slice(&cfv[..n]);
    for a in 1..k {
        for (o, &v) in out.iter_mut().zip(&cfv[a * n..a * n + n]) {
            *o += v;
        }
    }
}

/// The private hand that collides with the public card dealt to reach chance child `c`.
pub(crate) fn dealt_hand(tree: &Tree, c: usize) -> u32 {
    match tree.edges[c] {
        abstraction::tree::Edge::Card(card) => tree.hand_of_card[card.id() as usize],
        _ => NONE,
    }
}

/// `dst = src` with hand `h` (the one holding the dealt card) impossible.
pub(crate) fn mask<T: Real>(src: &[T], h: u32, dst: &mut [T]) {
    dst.copy_from_slice(src);
    if h != NONE {
        dst[h as usize] = T::ZERO;
    }
}

/// `out += v`, except for hand `h` (which cannot hold the dealt card).
pub(crate) fn add_masked<T: Real>(out: &mut [T], v: &[T], h: u32) {
    add_masked_scaled(out, v, h, T::ONE)
}

/// `out += scale × v`, except for hand `h` (`scale` 1 is exact: the same bits as a plain sum).
fn add_masked_scaled<T: Real>(out: &mut [T], v: &[T], h: u32, scale: T) {
    let keep = out.get(h as usize).copied();
    for (o, &x) in out.iter_mut().zip(v) {
        *o += scale * x;
    }
    if let Some(k) = keep {
        out[h as usize] = k;
    }
}

/// `dst[h] = src[h]`, rounded to the walk's number type: a seat's reach at the root (a range,
/// or the gadget's probability of following), kept in `f64`.
fn round_into<T: Real>(dst: &mut [T], src: &[f64]) {
    for (d, &x) in dst.iter_mut().zip(src) {
        *d = T::from_f64(x);
    }
}

/// Mixes a word into a seed (splitmix64's finalizer): draws that depend only on (seed,
/// iteration, pass, node), never on which thread walks the node.
pub(crate) fn mix(seed: u64, x: u64) -> u64 {
    let mut z = seed ^ x.wrapping_add(0x9e37_79b9_7f4a_7c15);
    z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    z ^ (z >> 31)
}

/// Draws `b` of the `k` children (indices, ascending so that sums run in child order) from
/// `key` by a partial Fisher-Yates shuffle in `buf`.
fn draw(buf: &mut [u8; 256], k: usize, b: usize, key: u64) -> &[u8] {
    for (j, x) in buf.iter_mut().enumerate().take(k) {
        *x = j as u8;
    }
    let mut state = key;
    for j in 0..b {
        state = mix(state, j as u64);
        let r = j + (state % (k - j) as u64) as usize;
        buf.swap(j, r);
    }
    buf[..b].sort_unstable();
    &buf[..b]
}

/// Hints the CPU to load `data` into the cache (no effect on results).
#[inline]
pub(crate) fn prefetch<T>(data: &[T]) {
    #[cfg(target_arch = "x86_64")]
    for line in data.chunks((64 / std::mem::size_of::<T>().max(1)).max(1)) {
        // SAFETY: a prefetch never faults and has no visible effect; the pointer is in bounds.
        unsafe {
            std::arch::x86_64::_mm_prefetch(
                line.as_ptr() as *const i8,
                std::arch::x86_64::_MM_HINT_T0,
            )
        };
    }
    #[cfg(not(target_arch = "x86_64"))]
    let _ = data;
}

#[cfg(test)]
mod tests {
    use super::*;
    use abstraction::betting_abstraction::BettingAbstraction;
    use abstraction::card_abstraction::Lossless;
    use abstraction::rules::GameDef;
    use abstraction::tree::Budget;

    /// The root's actions walked as parallel tasks give the bits of the walk in turn, on one
    /// thread and on two (forced on Kuhn, whose three hands are below the threshold).
    #[test]
    fn a_root_walked_in_parallel_gives_the_bits_of_the_walk_in_turn() {
        let def = GameDef::preset("kuhn").unwrap();
        let tree = Tree::build(
            &def,
            &Lossless,
            BettingAbstraction::for_game(&def),
            Budget::nodes(1 << 20),
        )
        .unwrap();
        let bits = |v: &[f64]| v.iter().map(|x| x.to_bits()).collect::<Vec<_>>();
        let run = |fork: bool, threads: usize| {
            let mut s = Solver::new(tree.clone(), Algorithm::DCFR);
            assert!(s.fork.is_empty(), "three hands are too few to fork");
            if fork {
                let k = tree.nodes[0].num_children;
                s.fork = (0..k).map(|_| Task::new(&tree)).collect();
            }
            s.set_ranges([vec![0.2, 0.3, 0.5], vec![0.6, 0.1, 0.3]])
                .unwrap();
            rayon::ThreadPoolBuilder::new()
                .num_threads(threads)
                .build()
                .unwrap()
                .install(|| (0..25).for_each(|_| s.iterate()));
            (bits(&s.regrets), bits(&s.average))
        };
        let in_turn = run(false, 1);
        // Scratch released halfway and allocated again: the same bits.
        let mut s = Solver::new(tree.clone(), Algorithm::DCFR);
        s.set_ranges([vec![0.2, 0.3, 0.5], vec![0.6, 0.1, 0.3]])
            .unwrap();
        for i in 0..25 {
            if i == 10 {
                s.release_scratch();
                assert!(s.main.scratch.is_empty());
            }
            s.iterate();
        }
        assert_eq!((bits(&s.regrets), bits(&s.average)), in_turn);
        assert!(in_turn.0.iter().any(|&r| r != 0), "nothing was solved");
        assert_eq!(run(true, 1), in_turn);
        assert_eq!(run(true, 2), in_turn);
    }

    #[test]
    fn algorithms_parse_and_schedule() {
        for name in ["cfr+", "linear", "dcfr", "cfr"] {
            assert_eq!(Algorithm::parse(name).unwrap().name(), name);
        }
        assert!(Algorithm::parse("mccfr")
            .unwrap_err()
            .contains("cfr+, linear, dcfr or cfr"));
        // Linear CFR is DCFR (1, 1, 1): at iteration 3 everything old weighs 2/3.
        let s = Algorithm::Linear.schedule(3);
        assert!(!s.clamp && s.new_average == 1.0);
        assert_eq!([s.positive, s.negative, s.old_average], [2.0 / 3.0; 3]);
        let s = Algorithm::CfrPlus.schedule(7);
        assert!(s.clamp && s.new_average == 7.0 && !s.discounts());
        // DCFR at iteration 3 applies the discounts of the end of iteration 2.
        let s = Algorithm::DCFR.schedule(3);
        let p = 2f64.powf(1.5);
        assert_eq!(s.positive, p / (p + 1.0));
        assert_eq!(s.negative, 0.5);
        assert_eq!(s.old_average, (2.0f64 / 3.0).powi(2));
        assert!(!s.clamp && s.new_average == 1.0);
    }
}
