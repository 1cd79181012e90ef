//! Mini-batch deal-sampled CFR (linear CFR, CFR+ or CFR) on the betting tree of the real games.
//!
//! Each iteration samples a batch of `B` full deals (deal `d` of iteration `t` from a ChaCha8
//! stream seeded by `(seed, t, d)`, so a resumed solve draws the same deals), computes their
//! [`DealFacts`] in parallel, then walks the [`BettingTree`] once with vectors over the deals —
//! the vector form of the exact solver, with deals where it has private hands:
//! - down go each seat's reach per deal; at an action node the actor of deal `d` is the seat
//!   holding the node's role on that street (`first[street] ^ role`), and its strategy is regret
//!   matching on the row of its bucket;
//! - up comes seat 0's expected payoff per deal under the current strategy: at a fold the
//!   folder loses its stake, at a showdown seat 0 wins `(2 share0 - 1) × stake`;
//! - at an action node, after its subtree, each deal adds to the actor's row: the regrets
//!   `reach of the other seat × (value of the action − value of the node)` (signed for the
//!   actor) and the average `t × own reach × strategy` (linear averaging), in deal order. The
//!   schedule ([`DealSolver::set_algorithm`]) sets the rest: linear CFR weighs the regrets by
//!   `t` too and never floors them; CFR+ floors the touched rows
//!   at 0 after the batch (regret matching+), which under sampling noise keeps a bad action's
//!   regret hovering near 0 — and the action mixed in — where plain regret matching lets it
//!   fall away (docs/notes/solver.md, "Schedules"). Both seats are updated in the
//!   one walk (simultaneous updates); the strategy is fixed within the batch because a node's
//!   rows are read before and written after its subtree, and by nobody else. With
//!   [`DealSolver::alternating`] the batch is walked twice, seat 0's rows updated in the first
//!   walk and seat 1's in the second (against seat 0's new strategy), as the exact solver does:
//!   a little better per batch on ministud, not per second where the walk dominates.
//!
//! A subtree where every deal's reach is zero for both seats is skipped: its values would be
//! multiplied by zero everywhere above.
//!
//! Parallel: the children of the first street's action nodes run as rayon tasks on disjoint
//! slot ranges (`split_at_mut`, preorder slots) with their own scratch, and their values are
//! combined in child order: the same bits on any number of threads.
//!
//! Regrets and averages are `f32`: 8 bytes per infoset-action, half the memory stream of `f64`.

use crate::cfr::{mix, prefetch, Algorithm, Tables};
use crate::kernel::{regret_match, regret_match_strided};
use crate::lock::Locked;
use abstraction::betting_tree::{BettingKind, BettingTree};
use abstraction::bucketing::view::held_by;
use abstraction::bucketing::CardView;
use abstraction::bucketing::{Bucketing, Shape};
use abstraction::cards::CardSet;
use abstraction::deal::{DealError, DealFacts, HeadsUpDeal};
use abstraction::recall::Recall;
use abstraction::rules::seat_name;
use abstraction::rules::GameDef;
use abstraction::rules::{Action, Next, State};
use abstraction::tree::{Edge, NodeKind, Tree, NONE};
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;
use rayon::prelude::*;
use std::collections::HashMap;
use std::sync::Arc;
use std::time::{Duration, Instant};

/// The deal-sampled solver (see the module documentation).
pub struct DealSolver {
    /// The betting tree.
    pub tree: BettingTree,
    /// Accumulated regret per slot (floored at 0).
    pub regrets: Vec<f32>,
    /// Accumulated average-strategy mass per slot.
    pub average: Vec<f32>,
    /// Iterations (batches) completed.
    pub iterations: u64,
    /// Deals per iteration.
    pub batch: usize,
    /// The seed of the deals.
    pub seed: u64,
    /// Alternating updates: two walks per batch, seat 0's rows then seat 1's (with seat 0's
    /// new strategy); otherwise one walk updates both seats.
    pub alternating: bool,
    /// The member of the CFR family: cfr+, linear or cfr (see [`DealSolver::set_algorithm`]).
    algorithm: Algorithm,
    def: Arc<GameDef>,
    bucketing: Arc<Bucketing>,
    /// What a row recalls of earlier streets beside the street's bucket: the tree has
    /// `recall.keys(buckets)` rows per node and street.
    recall: Recall,
    facts: Vec<DealFacts>,
    batch_data: BatchData,
    main: Task,
    tasks: Vec<Task>,
    /// Per node: its task if its parent is a parallel node (first street), else [`NONE`];
    /// numbered in preorder so that a subtree's tasks are contiguous.
    task_of: Vec<u32>,
    /// The rows fixed by a lock ([`DealSolver::set_lock`]), played instead of regret matching.
    lock: Option<Box<Locked>>,
}

/// Where an iteration's time went.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct IterationTime {
    /// Sampling the deals and computing their facts (mostly bucket lookups).
    pub facts: Duration,
    /// The walk of the betting tree.
    pub walk: Duration,
}

/// The facts of the batch laid out for the walk: per street, one entry per deal.
#[derive(Clone, Debug, Default)]
struct BatchData {
    /// `first[s * B + d]`: the seat of role 0 on street `s` in deal `d`.
    first: Vec<u8>,
    /// `bucket[(s * 2 + role) * B + d]`: the bucket of the seat holding `role`.
    bucket: Vec<u32>,
    /// `showdown[d]`: `2 × share0 − 1`, seat 0's showdown result per chip staked.
    showdown: Vec<f32>,
}

/// One walk's working memory: scratch for every depth, the values out and the reach in.
#[derive(Clone, Debug)]
struct Task {
    scratch: Vec<f32>,
    out: Vec<f32>,
    reach0: Vec<f32>,
    reach1: Vec<f32>,
}

impl Task {
    /// A task for walks from a node `levels` action nodes deep (see [`levels`]).
    fn new(tree: &BettingTree, batch: usize, levels: usize) -> Task {
        Task {
            scratch: vec![0.0; level_len(tree, batch) * levels],
            out: vec![0.0; batch],
            reach0: vec![0.0; batch],
            reach1: vec![0.0; batch],
        }
    }
}

/// Scratch per depth: the strategy and the children's values (k × B each), two reach
/// vectors, and a strategy per bucket.
/// The passes of an iteration: the two seats in turn (alternating updates, `Some(seat)`), or
/// one pass updating both (`None`).
pub(crate) fn passes(alternating: bool) -> &'static [Option<u8>] {
    if alternating {
        &[Some(0), Some(1)]
    } else {
        &[None]
    }
}

fn level_len(tree: &BettingTree, batch: usize) -> usize {
    let buckets = tree.num_buckets.iter().copied().max().unwrap_or(0) as usize;
    (2 * tree.max_actions + 2) * batch + buckets * tree.max_actions
}

/// Per node, the scratch levels a walk from it uses: the most action nodes on a path down from
/// it (children always follow their parent in the arena, so one backward pass computes it).
fn levels(tree: &BettingTree) -> Vec<usize> {
    let mut levels = vec![0; tree.nodes.len()];
    for i in (0..tree.nodes.len()).rev() {
        if tree.nodes[i].kind == BettingKind::Action {
            levels[i] = 1 + tree.children(i).map(|c| levels[c]).max().unwrap_or(0);
        }
    }
    levels
}

/// The bytes of one task's vectors for walks from a node `levels` deep.
fn task_bytes(tree: &BettingTree, batch: usize, levels: usize) -> usize {
    (level_len(tree, batch) * levels + 3 * batch) * std::mem::size_of::<f32>()
}

/// Whether the children of node `i` run as parallel tasks: the first street's action nodes.
fn parallel(tree: &BettingTree, i: usize) -> bool {
    let n = &tree.nodes[i];
    n.kind == BettingKind::Action && n.street == 0
}

/// The task of every child of a parallel node, numbered in preorder, and the node of each task.
fn number_tasks(tree: &BettingTree) -> (Vec<u32>, Vec<usize>) {
    let mut task_of = vec![NONE; tree.nodes.len()];
    let mut nodes = Vec::new();
    let mut stack = vec![0usize];
    while let Some(i) = stack.pop() {
        if parallel(tree, i) {
            for c in tree.children(i) {
                // Numbered when visited (preorder), below.
                task_of[c] = 0;
            }
        }
        if task_of[i] != NONE {
            task_of[i] = nodes.len() as u32;
            nodes.push(i);
        }
        stack.extend(tree.children(i).rev());
    }
    (task_of, nodes)
}

impl DealSolver {
    /// A fresh solver of `def` on `tree` with the card abstraction `bucketing` (built for
    /// `def`, with the tree's buckets per street; precompute its first street for speed),
    /// sampling `batch` deals per iteration from `seed`. Refuses a mismatch, naming it.
    pub fn new(
        def: &GameDef,
        tree: BettingTree,
        bucketing: Arc<Bucketing>,
        batch: usize,
        seed: u64,
    ) -> Result<DealSolver, DealError> {
        DealSolver::with_recall(def, tree, bucketing, Recall::None, batch, seed)
    }

    /// [`DealSolver::new`] whose rows recall `recall` of earlier streets: `tree` must have been
    /// built with `recall.keys(buckets)` rows per street.
    pub fn with_recall(
        def: &GameDef,
        tree: BettingTree,
        bucketing: Arc<Bucketing>,
        recall: Recall,
        batch: usize,
        seed: u64,
    ) -> Result<DealSolver, DealError> {
        let def = Arc::new(def.clone());
        DealSolver::check(&def, &tree, &bucketing, recall, batch, seed)?;
        let (task_of, tasks) = number_tasks(&tree);
        let levels = levels(&tree);
        let streets = def.streets.len();
        let empty = DealFacts {
            first: [0; abstraction::rules::MAX_STREETS],
            buckets: [[0; 2]; abstraction::rules::MAX_STREETS],
            share0: 0.0,
        };
        Ok(DealSolver {
            regrets: vec![0.0; tree.num_slots],
            average: vec![0.0; tree.num_slots],
            iterations: 0,
            batch,
            seed,
            alternating: false,
            algorithm: Algorithm::CfrPlus,
            def,
            bucketing,
            recall,
            facts: vec![empty; batch],
            batch_data: BatchData {
                first: vec![0; streets * batch],
                bucket: vec![0; 2 * streets * batch],
                showdown: vec![0.0; batch],
            },
            main: Task::new(&tree, batch, levels[0]),
            tasks: tasks
                .iter()
                .map(|&i| Task::new(&tree, batch, levels[i]))
                .collect(),
            task_of,
            tree,
            lock: None,
        })
    }

    /// Plays the rows `lock` fixes at their frequencies from now on, in every deal and in the
    /// average (whose fixed rows are set to the lock after each iteration, so that the file
    /// written stores the lock). Refused unless `lock` was resolved on a tree of this one's
    /// size ([`Locked::on_betting`]).
    pub fn set_lock(&mut self, lock: Locked) -> Result<(), String> {
        if !lock.fits(self.tree.nodes.len(), self.tree.num_slots) {
            return Err("the lock was resolved on another tree".into());
        }
        self.lock = Some(Box::new(lock));
        Ok(())
    }

    /// Refuses a bucketing, tree, recall or batch that do not fit `def` together, naming the
    /// mismatch; samples one deal so that a bucketing that refuses it says so before solving.
    fn check(
        def: &Arc<GameDef>,
        tree: &BettingTree,
        bucketing: &Bucketing,
        recall: Recall,
        batch: usize,
        seed: u64,
    ) -> Result<(), DealError> {
        let shape = Shape::of(def)?;
        if &shape != bucketing.shape() {
            return Err(DealError::Unsupported(format!(
                "{}: the bucketing was built for {}",
                def.variant,
                bucketing.shape().game
            )));
        }
        let buckets: Vec<u32> = (0..def.streets.len())
            .map(|s| bucketing.buckets(s))
            .collect();
        let keys = recall.keys(&buckets);
        if keys != tree.num_buckets {
            return Err(DealError::Unsupported(format!(
                "the tree has {:?} buckets per street, the bucketing {buckets:?} (with recall \
                 {}: {keys:?} rows)",
                tree.num_buckets,
                recall.name()
            )));
        }
        if batch == 0 {
            return Err(DealError::Unsupported("a batch of 0 deals".into()));
        }
        // One deal up front: an error here names the problem before any solving.
        HeadsUpDeal::sample(def, &mut ChaCha8Rng::seed_from_u64(seed))?.facts(def, bucketing)?;
        Ok(())
    }

    /// Chooses the member of the CFR family: cfr+ (the default), linear or cfr. DCFR is refused:
    /// its discounts multiply every slot after every iteration, and a batch touches only the
    /// rows of the buckets it dealt.
    pub fn set_algorithm(&mut self, algorithm: Algorithm) -> Result<(), DealError> {
        DealSolver::check_algorithm(algorithm)?;
        self.algorithm = algorithm;
        Ok(())
    }

    /// Refuses DCFR (see [`DealSolver::set_algorithm`]).
    fn check_algorithm(algorithm: Algorithm) -> Result<(), DealError> {
        if let Algorithm::Dcfr { .. } = algorithm {
            return Err(DealError::Unsupported(
                "dcfr: the deal-sampled solver runs cfr+, linear or cfr (DCFR's discounts \
                 would rewrite every slot after every batch)"
                    .into(),
            ));
        }
        Ok(())
    }

    /// The member of the CFR family this solver runs.
    pub fn algorithm(&self) -> Algorithm {
        self.algorithm
    }

    /// What a row recalls of earlier streets.
    pub fn recall(&self) -> Recall {
        self.recall
    }

    /// Bytes per slot: a regret and an average, `f32` each.
    pub fn bytes_per_slot() -> usize {
        8
    }

    /// The bytes of scratch a solver on `tree` with `batch` deals allocates besides the slots.
    pub fn scratch_bytes(tree: &BettingTree, batch: usize) -> usize {
        let levels = levels(tree);
        let tasks: usize = (number_tasks(tree).1.iter())
            .map(|&i| task_bytes(tree, batch, levels[i]))
            .sum();
        let facts = batch * (std::mem::size_of::<DealFacts>() + 9 * tree.num_buckets.len() + 4);
        task_bytes(tree, batch, levels[0]) + tasks + facts
    }

    /// The deals of iteration `iteration` (1-based): deal `d` from its own ChaCha8 stream.
    pub fn deal(&self, iteration: u64, d: usize) -> Result<HeadsUpDeal, DealError> {
        let key = mix(mix(self.seed, iteration), d as u64);
        HeadsUpDeal::sample(&self.def, &mut ChaCha8Rng::seed_from_u64(key))
    }

    /// Runs one iteration: a batch of deals, one walk, and says how long each part took (the
    /// clock is only read, never decides anything). Parallel in the current rayon pool; the
    /// result does not depend on its size. An error is a bucketing that refuses a dealt view
    /// (not expected once [`DealSolver::new`] accepted it).
    pub fn iterate(&mut self) -> Result<IterationTime, DealError> {
        let t = self.iterations + 1;
        let start = Instant::now();
        self.sample_batch(t)?;
        let facts = start.elapsed();
        self.iterations = t;
        let (regret_weight, average_weight, clamp) = weights(self.algorithm, t);
        let passes = passes(self.alternating);
        for &trav in passes {
            let ctx = Ctx {
                tree: &self.tree,
                data: &self.batch_data,
                batch: self.batch,
                regret_weight,
                average_weight,
                clamp,
                level: level_len(&self.tree, self.batch),
                task_of: &self.task_of,
                trav,
                lock: self.lock.as_deref(),
            };
            let Task {
                scratch,
                out,
                reach0,
                reach1,
            } = &mut self.main;
            reach0.fill(1.0);
            reach1.fill(1.0);
            let reach = Reach {
                seat0: reach0,
                seat1: reach1,
            };
            let tables = Tables::whole(&mut self.regrets, &mut self.average);
            walk(&ctx, 0, reach, out, scratch, tables, &mut self.tasks);
        }
        if let Some(lock) = self.lock.as_deref() {
            lock.fix_average(&mut self.average);
        }
        Ok(IterationTime {
            facts,
            walk: start.elapsed() - facts,
        })
    }

    /// Samples iteration `t`'s deals and lays out their facts for the walk.
    fn sample_batch(&mut self, t: u64) -> Result<(), DealError> {
        let (def, bucketing, seed) = (&self.def, &self.bucketing, self.seed);
        self.facts
            .par_iter_mut()
            .enumerate()
            .try_for_each(|(d, f)| {
                let key = mix(mix(seed, t), d as u64);
                *f = HeadsUpDeal::sample(def, &mut ChaCha8Rng::seed_from_u64(key))?
                    .facts(def, bucketing)?;
                Ok::<(), DealError>(())
            })?;
        lay_out(
            &self.facts,
            &self.bucketing,
            self.recall,
            &self.tree,
            &mut self.batch_data,
        );
        Ok(())
    }

    /// The normalized average strategy of `bucket` at action node `node` into `out` (one entry
    /// per child; uniform where the row has no mass). Refuses a node that is not an action
    /// node, a bucket out of range, or an `out` of the wrong length.
    pub fn average_row(&self, node: u32, bucket: u32, out: &mut [f64]) -> Result<(), String> {
        average_row(&self.tree, &self.average, node, bucket, out)
    }
}

/// [`DealSolver::average_row`] of the average-strategy masses `average` (one per slot of `tree`).
pub fn average_row(
    tree: &BettingTree,
    average: &[f32],
    node: u32,
    bucket: u32,
    out: &mut [f64],
) -> Result<(), String> {
    let n = tree
        .nodes
        .get(node as usize)
        .filter(|n| n.kind == BettingKind::Action)
        .ok_or_else(|| format!("node {node} is not an action node of the betting tree"))?;
    let k = n.num_children as usize;
    let buckets = tree.num_buckets[n.street as usize];
    if bucket >= buckets || out.len() != k {
        return Err(format!(
            "bucket {bucket} of {buckets} on street {} with {} outputs for {k} actions",
            n.street,
            out.len()
        ));
    }
    row_into(
        &average[n.first_slot() as usize + bucket as usize * k..][..k],
        out,
    );
    Ok(())
}

/// One row's average masses `row` as its normalized strategy in `out` (uniform without mass):
/// [`average_row`]'s arithmetic, which the strategy file's writer shares.
pub(crate) fn row_into(row: &[f32], out: &mut [f64]) {
    for (o, &x) in out.iter_mut().zip(row) {
        *o = x as f64;
    }
    crate::kernel::normalize(out);
}

/// Lays out a batch's `facts` (in deal order) for the walk: per street and deal, the seat of
/// role 0 and each role's row key; per deal, seat 0's showdown result.
fn lay_out(
    facts: &[DealFacts],
    bucketing: &Bucketing,
    recall: Recall,
    tree: &BettingTree,
    data: &mut BatchData,
) {
    let b = facts.len();
    let counts: Vec<u32> = (0..tree.num_buckets.len())
        .map(|s| bucketing.buckets(s))
        .collect();
    for (d, f) in facts.iter().enumerate() {
        for s in 0..tree.num_buckets.len() {
            let first = f.first[s];
            let key = |seat: u8| {
                recall.key(
                    &counts,
                    s,
                    |j| f.buckets[j][seat as usize],
                    |j| f.first[j] == seat,
                )
            };
            data.first[s * b + d] = first;
            data.bucket[(2 * s) * b + d] = key(first);
            data.bucket[(2 * s + 1) * b + d] = key(1 - first);
        }
        data.showdown[d] = 2.0 * f.share0 - 1.0;
    }
}

impl DealSolver {
    /// The average strategy lifted onto the lossless public tree `tree` of a walkable game
    /// (`Tree::build` with `Lossless` and the same betting abstraction), one mass per slot of
    /// `tree`: at each action node every possible private hand plays the normalized average row
    /// of its bucket (of the actor's view there) at the betting node its betting history
    /// reaches.
    /// Measure it with `best_response::exploitability(tree, &lifted)`: the real game's.
    pub fn lift(&self, tree: &Tree) -> Result<Vec<f64>, String> {
        let lossless: Vec<u32> = (0..self.def.streets.len())
            .map(|s| Tree::possible_hands(&self.def, s) as u32)
            .collect();
        if tree.num_buckets != lossless {
            return Err(format!(
                "the public tree has {:?} buckets per street: lift needs the lossless tree of \
                 this game ({lossless:?})",
                tree.num_buckets
            ));
        }
        let state = State::with_def(self.def.clone()).map_err(|e| e.to_string())?;
        let mut lift = Lift {
            tree,
            out: vec![0.0; tree.num_slots],
            bets: Vec::new(),
            board: (NONE, 0),
            firsts: [0; abstraction::rules::MAX_STREETS],
            table: vec![0; tree.num_hands()],
            memo: HashMap::new(),
        };
        self.lift_node(&mut lift, 0, state)?;
        Ok(lift.out)
    }

    fn lift_node(&self, l: &mut Lift, i: usize, mut state: State) -> Result<(), String> {
        let err = |e: abstraction::rules::RulesError| e.to_string();
        // The private cards are not in the public tree: deal them unknown, as its builder did.
        while let Next::Deal {
            deal: abstraction::rules::Deal::Down,
            ..
        } = state.next()
        {
            state.deal_unknown().map_err(err)?;
        }
        let n = l.tree.nodes[i];
        if n.kind == NodeKind::Action {
            let seat = state
                .to_act()
                .ok_or("the public tree and the rules disagree")?;
            let street = state.street();
            if !l.bets.iter().any(|&(s, _)| s == street) {
                l.firsts[street] = seat;
            }
            if (n.board, seat) != l.board {
                l.board = (n.board, seat);
                self.row_keys(l, n.board, seat, &state)?;
            }
            if l.tree.nodes[i].seat != seat {
                return Err(format!(
                    "public node {i}: the rules say {} acts",
                    seat_name(seat)
                ));
            }
            let at = self.tree.locate(&l.bets).map_err(|e| e.to_string())?;
            let k = n.num_children as usize;
            let kids = &self.tree.edges[self.tree.children(at as usize)];
            if l.tree.edges[l.tree.children(i)] != *kids {
                return Err(format!(
                    "public node {i} and betting node {at} offer different actions: not the \
                     same betting abstraction"
                ));
            }
            // The lossless tree's own bucket of each hand is its row there.
            let rows = l.tree.bucket_table(n.board, seat);
            for (&b, &r) in l.table.iter().zip(rows) {
                if b != NONE {
                    let row = n.first_slot() as usize + r as usize * k;
                    self.average_row(at, b, &mut l.out[row..row + k])?;
                }
            }
        }
        for c in l.tree.children(i) {
            let mut next = state.clone();
            match l.tree.edges[c] {
                Edge::Action(a) => {
                    l.bets.push((n.street as usize, a));
                    next.apply(a).map_err(err)?;
                    self.lift_node(l, c, next)?;
                    l.bets.pop();
                }
                Edge::Card(card) => {
                    next.deal(card).map_err(err)?;
                    self.lift_node(l, c, next)?;
                }
                Edge::Root => return Err(format!("public node {c}: a root edge below the root")),
            }
        }
        Ok(())
    }

    /// `l.table`: the row key of every hand on `board` for `seat`, the actor at `state`.
    fn row_keys(&self, l: &mut Lift, board: u32, seat: u8, state: &State) -> Result<(), String> {
        let street = state.street();
        let public = l.tree.boards[board as usize].public;
        let counts: Vec<u32> = (0..self.def.streets.len())
            .map(|s| self.bucketing.buckets(s))
            .collect();
        // A seat's up cards as they were on street `s`.
        let up = |who: u8, s: usize| -> CardSet {
            let n = held_by(&self.def, s).1;
            state.up_cards(who)[..n].iter().copied().collect()
        };
        for (h, &c) in l.tree.hands.iter().enumerate() {
            l.table[h] = if public.contains(c) {
                NONE
            } else {
                let mut bucket = |s: usize| -> Result<u32, String> {
                    let v = CardView {
                        street: s,
                        down: CardSet::single(c),
                        up: up(seat, s),
                        opp_up: up(1 - seat, s),
                    };
                    match l.memo.get(&v) {
                        Some(&b) => Ok(b),
                        None => {
                            let b = self.bucketing.bucket(&v).map_err(|e| e.to_string())?;
                            l.memo.insert(v, b);
                            Ok(b)
                        }
                    }
                };
                let mut known = [0u32; abstraction::rules::MAX_STREETS];
                known[street] = bucket(street)?;
                if street > 0 && self.recall.recalls_buckets() {
                    known[street - 1] = bucket(street - 1)?;
                }
                let firsts = l.firsts;
                self.recall
                    .key(&counts, street, |s| known[s], |s| firsts[s] == seat)
            };
        }
        Ok(())
    }
}

/// The walk of [`DealSolver::lift`].
struct Lift<'a> {
    tree: &'a Tree,
    out: Vec<f64>,
    bets: Vec<(usize, Action)>,
    /// The board and seat `table` was computed for.
    board: (u32, u8),
    /// Per street of the current path, the seat that acted first there.
    firsts: [u8; abstraction::rules::MAX_STREETS],
    /// The actor's bucket of each hand on `board` ([`NONE`]: the hand holds a public card).
    table: Vec<u32>,
    /// The bucket of every view met so far: the public tree meets each view on many boards
    /// (one per betting history), and a lookup computes the view's features.
    memo: HashMap<CardView, u32>,
}

struct Ctx<'a> {
    tree: &'a BettingTree,
    data: &'a BatchData,
    batch: usize,
    /// This iteration's weight in the regrets (linear: `t`; otherwise 1).
    regret_weight: f32,
    /// This iteration's weight in the average (cfr+ and linear: `t`; cfr: 1).
    average_weight: f32,
    /// Regret matching+: floor the touched rows at zero after the update.
    clamp: bool,
    level: usize,
    /// Alternating updates: the seat whose rows this pass updates (`None`: both).
    trav: Option<u8>,
    task_of: &'a [u32],
    /// The rows a lock fixes, if any.
    lock: Option<&'a Locked>,
}

impl Ctx<'_> {
    /// The seats of role 0 on `street`, per deal.
    fn first(&self, street: usize) -> &[u8] {
        &self.data.first[street * self.batch..][..self.batch]
    }

    /// The buckets of the seat holding `role` on `street`, per deal.
    fn buckets(&self, street: usize, role: u8) -> &[u32] {
        &self.data.bucket[(2 * street + role as usize) * self.batch..][..self.batch]
    }
}

/// Iteration `t`'s weights of the regret and average updates, and whether regrets are floored.
/// Linear CFR weighs the update of iteration `t` by `t` instead of discounting every slot by
/// `(t - 1) / t` after it: regret matching is scale-free, so the strategies are the same
/// (DCFR (1, 1, 1) up to a factor), and untouched rows need no work.
fn weights(algorithm: Algorithm, t: u64) -> (f32, f32, bool) {
    let t = t as f32;
    match algorithm {
        Algorithm::CfrPlus => (1.0, t, true),
        Algorithm::Linear => (t, t, false),
        Algorithm::Cfr | Algorithm::Dcfr { .. } => (1.0, 1.0, false),
    }
}

/// Regret matching+ of every row of a node (`rows`: buckets × `k`) into `table`, the same bits
/// as [`regret_match`] row by row; for 2 and 3 actions (the real games' nodes) eight rows at
/// a time, which the compiler turns into vector divisions.
fn match_rows(rows: &[f32], table: &mut [f32], k: usize) {
    match k {
        2 => match_rows_of::<2>(rows, table),
        3 => match_rows_of::<3>(rows, table),
        _ => {
            for (r, t) in rows.chunks_exact(k).zip(table.chunks_exact_mut(k)) {
                regret_match(r, t);
            }
        }
    }
}

/// [`match_rows`] for `K` actions.
#[inline(always)]
fn match_rows_of<const K: usize>(rows: &[f32], table: &mut [f32]) {
    const L: usize = 8;
    let mut rs = rows.chunks_exact(L * K);
    let mut ts = table.chunks_exact_mut(L * K);
    for (r, t) in (&mut rs).zip(&mut ts) {
        let pos: [[f32; L]; K] =
            std::array::from_fn(|a| std::array::from_fn(|l| r[l * K + a].max(0.0)));
        // The sum in the order of `regret_match`'s (whose start, -0.0, adds nothing).
        let sum: [f32; L] = std::array::from_fn(|l| (1..K).fold(pos[0][l], |s, a| s + pos[a][l]));
        for a in 0..K {
            for l in 0..L {
                t[l * K + a] = if sum[l] > 0.0 {
                    pos[a][l] / sum[l]
                } else {
                    1.0 / K as f32
                };
            }
        }
    }
    for (r, t) in rs
        .remainder()
        .chunks_exact(K)
        .zip(ts.into_remainder().chunks_exact_mut(K))
    {
        regret_match(r, t);
    }
}

/// The reach probabilities entering a node, per deal: seat 0's and seat 1's.
#[derive(Clone, Copy)]
struct Reach<'a> {
    seat0: &'a [f32],
    seat1: &'a [f32],
}

impl Reach<'_> {
    /// Whether no deal reaches the node (then nothing below it changes).
    fn is_zero(self) -> bool {
        self.seat0
            .iter()
            .zip(self.seat1)
            .all(|(&a, &b)| a == 0.0 && b == 0.0)
    }
}

/// What the phases of a walk read of the action node being walked.
struct ActionNode<'a> {
    /// The node's index in the tree.
    index: usize,
    /// The role acting.
    role: u8,
    /// Its actions (children).
    k: usize,
    /// Its first slot, and its slots: buckets × actions.
    slot: usize,
    len: usize,
    /// Fewer buckets than deals: each bucket's regrets are matched once and copied (same bits).
    by_bucket: bool,
    /// Per deal, the seat holding role 0 on the node's street.
    first: &'a [u8],
    /// Per deal, the actor's bucket (the key of its row).
    buckets: &'a [u32],
}

impl<'a> ActionNode<'a> {
    fn at(ctx: &'a Ctx, i: usize) -> ActionNode<'a> {
        let node = ctx.tree.nodes[i];
        let street = node.street as usize;
        let k = node.num_children as usize;
        let nb = ctx.tree.num_buckets[street] as usize;
        ActionNode {
            index: i,
            role: node.role,
            k,
            slot: node.first_slot() as usize,
            len: nb * k,
            by_bucket: nb <= ctx.batch,
            first: ctx.first(street),
            buckets: ctx.buckets(street, node.role),
        }
    }
}

/// An action node's working memory, carved from its depth's share of the scratch.
struct Frame<'s> {
    /// `strategy[a * B + d]`: the actor's probability of action `a` in deal `d`.
    strategy: &'s mut [f32],
    /// `values[a * B + d]`: seat 0's value in deal `d` below action `a`.
    values: &'s mut [f32],
    /// Both seats' reach below the action being walked.
    child_reach: [&'s mut [f32]; 2],
    /// The current strategy of every bucket (when matched by bucket).
    table: &'s mut [f32],
    /// The scratch of the levels below.
    below: &'s mut [f32],
}

impl<'s> Frame<'s> {
    /// The frame of a node of `k` actions over `b` deals at the head of `scratch`, whose
    /// first `level` entries are this depth's.
    fn carve(scratch: &'s mut [f32], level: usize, k: usize, b: usize) -> Frame<'s> {
        let (own, below) = scratch.split_at_mut(level);
        let (strategy, own) = own.split_at_mut(k * b);
        let (values, own) = own.split_at_mut(k * b);
        let (c0, own) = own.split_at_mut(b);
        let (c1, table) = own.split_at_mut(b);
        Frame {
            strategy,
            values,
            child_reach: [c0, c1],
            table,
            below,
        }
    }
}

/// Walks node `i`: seat 0's expected payoff per deal into `out`. An action node goes through
/// four phases: its current strategy, the descent into each action, its value, and the
/// accumulation of regrets and average strategy. `pool` holds the tasks of the subtree's
/// parallel children.
fn walk(
    ctx: &Ctx,
    i: usize,
    reach: Reach,
    out: &mut [f32],
    scratch: &mut [f32],
    mut tables: Tables<f32>,
    pool: &mut [Task],
) {
    if terminal(ctx, i, out) {
        return;
    }
    if reach.is_zero() {
        out.fill(0.0);
        return;
    }
    let node = ActionNode::at(ctx, i);
    let mut frame = Frame::carve(scratch, ctx.level, node.k, ctx.batch);
    strategy(
        &node,
        tables.regrets.view(node.slot, node.len),
        &mut frame,
        ctx.batch,
    );
    if let Some(lock) = ctx.lock.filter(|l| l.node(i)) {
        impose(lock, &node, frame.strategy, ctx.batch);
    }
    // The average rows are next read after the subtree, by the scatter of `accumulate`: start
    // loading them now (a node's rows are far apart in memory, and the misses stalled it).
    prefetch(tables.averages.view(node.slot, node.len));
    descend(ctx, &node, reach, &mut frame, tables.reborrow(), pool);
    expected_value(out, frame.strategy, frame.values, node.k);
    accumulate(ctx, &node, reach, out, frame, tables);
}

/// Regret matching of the actor's rows: its probability of each action in each deal. (This
/// phase, the value and the accumulation are inlined into the walk as they were when it was
/// their only caller: the split solve's top calls them too.)
#[inline(always)]
fn strategy(node: &ActionNode, regrets: &[f32], frame: &mut Frame, b: usize) {
    let k = node.k;
    if node.by_bucket {
        let table = &mut frame.table[..node.len];
        match_rows(regrets, table, k);
        for a in 0..k {
            let s = &mut frame.strategy[a * b..(a + 1) * b];
            for (x, &bk) in s.iter_mut().zip(node.buckets) {
                *x = table[bk as usize * k + a];
            }
        }
    } else {
        for (d, &bk) in node.buckets.iter().enumerate() {
            let r = bk as usize * k;
            regret_match_strided(&regrets[r..r + k], &mut frame.strategy[d..], b);
        }
    }
}

/// Overwrites the actor's probabilities `strategy` (`strategy[a * b + d]`) in every deal whose
/// row `lock` fixes with the lock's frequencies.
fn impose(lock: &Locked, node: &ActionNode, strategy: &mut [f32], b: usize) {
    let k = node.k;
    for (d, &bk) in node.buckets.iter().enumerate() {
        if let Some(row) = lock.row(node.slot + bk as usize * k, k) {
            for (a, &p) in row.iter().enumerate() {
                strategy[a * b + d] = p as f32;
            }
        }
    }
}

/// Walks each action of the node into `frame.values`, the actor's reach scaled by its
/// probability: the first street's children as parallel tasks, the others in this thread.
fn descend(
    ctx: &Ctx,
    node: &ActionNode,
    reach: Reach,
    frame: &mut Frame,
    tables: Tables<f32>,
    pool: &mut [Task],
) {
    let b = ctx.batch;
    let children = ctx.tree.children(node.index);
    if parallel(ctx.tree, node.index) {
        // The node's own rows lie left of its first child's: the children share the rest.
        let (_, below) = tables.split(ctx.tree.slot_range[children.start][0] as usize);
        let base = ctx.task_of[children.start];
        for (a, c) in children.clone().enumerate() {
            let t = &mut pool[(ctx.task_of[c] - base) as usize];
            let s = &frame.strategy[a * b..][..b];
            child_reach(node, s, reach, [&mut t.reach0, &mut t.reach1]);
        }
        run_children(ctx, children.start, children.len(), pool, below);
        for (a, c) in children.enumerate() {
            let t = &pool[(ctx.task_of[c] - base) as usize];
            frame.values[a * b..][..b].copy_from_slice(&t.out);
        }
        return;
    }
    let mut tables = tables;
    for (a, c) in children.enumerate() {
        // A terminal's values do not depend on the reach: no child reach, no call.
        if terminal(ctx, c, &mut frame.values[a * b..][..b]) {
            continue;
        }
        let [c0, c1] = &mut frame.child_reach;
        child_reach(node, &frame.strategy[a * b..][..b], reach, [c0, c1]);
        let below = Reach {
            seat0: c0,
            seat1: c1,
        };
        let v = &mut frame.values[a * b..][..b];
        walk(ctx, c, below, v, frame.below, tables.reborrow(), &mut []);
    }
}

/// Seat 0's value per deal at the node: `Σ_a strategy · values` in action order.
#[inline(always)]
fn expected_value(out: &mut [f32], strategy: &[f32], values: &[f32], k: usize) {
    let b = out.len();
    out.fill(0.0);
    for a in 0..k {
        let (s, v) = (&strategy[a * b..(a + 1) * b], &values[a * b..(a + 1) * b]);
        for ((o, &s), &v) in out.iter_mut().zip(s).zip(v) {
            *o += s * v;
        }
    }
}

/// Adds the batch's regrets and average strategy to the actor's rows, deal by deal, and
/// (regret matching+) floors the rows it touched.
#[inline(always)]
fn accumulate(
    ctx: &Ctx,
    node: &ActionNode,
    reach: Reach,
    value: &[f32],
    frame: Frame,
    mut tables: Tables<f32>,
) {
    let (b, k) = (ctx.batch, node.k);
    // The descent is over: its reach vectors take the update weights, and the strategy and the
    // values become, in place, each action's average mass and regret delta (vectorized).
    let Frame {
        strategy: mass,
        values: delta,
        child_reach: [regret_weight, average_weight],
        ..
    } = frame;
    update_weights(ctx, node, reach, regret_weight, average_weight);
    for a in 0..k {
        let (s, v) = (
            &mut mass[a * b..(a + 1) * b],
            &mut delta[a * b..(a + 1) * b],
        );
        let weights = regret_weight.iter().zip(&*average_weight);
        for (((v, &o), (&w, &wa)), s) in v.iter_mut().zip(value).zip(weights).zip(s) {
            *v = w * (*v - o);
            *s *= wa;
        }
    }
    let rows = tables.regrets.at(node.slot, node.len);
    let avg_rows = tables.averages.at(node.slot, node.len);
    let buckets = node.buckets;
    match k {
        2 => scatter::<2>(buckets, delta, mass, rows, avg_rows),
        3 => scatter::<3>(buckets, delta, mass, rows, avg_rows),
        _ => {
            for (d, &bk) in buckets.iter().enumerate() {
                let r = bk as usize * k;
                let (rr, ar) = (&mut rows[r..r + k], &mut avg_rows[r..r + k]);
                for a in 0..k {
                    rr[a] += delta[a * b + d];
                    ar[a] += mass[a * b + d];
                }
            }
        }
    }
    // Regret matching+: floor the rows this batch touched (all of them when there are fewer
    // buckets than deals: the others are already at or above 0).
    if !ctx.clamp {
        return;
    }
    if node.by_bucket {
        crate::kernel::clamp(rows);
    } else {
        for &bk in buckets {
            crate::kernel::clamp(&mut rows[bk as usize * k..][..k]);
        }
    }
}

/// Per deal, the actor's regret weight (the other seat's reach, signed for the actor, times
/// the iteration's regret weight) and its average weight (the iteration's average weight times
/// its own reach); 0 for a seat this pass does not update.
fn update_weights(
    ctx: &Ctx,
    node: &ActionNode,
    reach: Reach,
    regret_weight: &mut [f32],
    average_weight: &mut [f32],
) {
    let (upd0, upd1) = (ctx.trav != Some(1), ctx.trav != Some(0));
    let ins = node.first.iter().zip(reach.seat0.iter().zip(reach.seat1));
    let outs = regret_weight.iter_mut().zip(average_weight.iter_mut());
    for ((&f, (&r0, &r1)), (w, wa)) in ins.zip(outs) {
        let actor0 = f == node.role;
        let on = if actor0 { upd0 } else { upd1 };
        *w = if !on {
            0.0
        } else if actor0 {
            ctx.regret_weight * r1
        } else {
            -ctx.regret_weight * r0
        };
        *wa = if on {
            ctx.average_weight * if actor0 { r0 } else { r1 }
        } else {
            0.0
        };
    }
}

/// Adds each deal's regret deltas (`cfv`, `K` vectors over the deals) and average masses
/// (`strat`) to its bucket's rows, in deal order. (Skipping the deals whose deltas are all zero
/// keeps the bits but was slower: the branch is unpredictable.)
#[inline(always)]
fn scatter<const K: usize>(
    buckets: &[u32],
    cfv: &[f32],
    strat: &[f32],
    rows: &mut [f32],
    avg_rows: &mut [f32],
) {
    let b = buckets.len();
    for (d, &bk) in buckets.iter().enumerate() {
        let r = bk as usize * K;
        let rr: &mut [f32; K] = (&mut rows[r..r + K]).try_into().expect("K actions");
        let ar: &mut [f32; K] = (&mut avg_rows[r..r + K]).try_into().expect("K actions");
        for a in 0..K {
            rr[a] += cfv[a * b + d];
            ar[a] += strat[a * b + d];
        }
    }
}

/// Seat 0's payoff per deal at node `i` into `out` if it is a terminal (then true).
#[inline(always)]
fn terminal(ctx: &Ctx, i: usize, out: &mut [f32]) -> bool {
    let node = ctx.tree.nodes[i];
    match node.kind {
        BettingKind::Fold => {
            let stake = node.stake().as_f32();
            // The folder is seat 0 where role 0 is seat 0 and the folder holds role 0, ...
            for (o, &f) in out.iter_mut().zip(ctx.first(node.street as usize)) {
                *o = if f == node.role { -stake } else { stake };
            }
            true
        }
        BettingKind::Showdown => {
            let stake = node.stake().as_f32();
            for (o, &s) in out.iter_mut().zip(&ctx.data.showdown) {
                *o = s * stake;
            }
            true
        }
        BettingKind::Action => false,
    }
}

/// The reach per deal below action `strategy` of `node`: the actor's reach (seat
/// `first ^ role`) times its probability, the other's unchanged, into `below`.
fn child_reach(node: &ActionNode, strategy: &[f32], reach: Reach, below: [&mut [f32]; 2]) {
    let [c0, c1] = below;
    // Branch-free selects (role 0's seat is the actor where `first == role`): vectorized.
    let ins = node
        .first
        .iter()
        .zip(strategy)
        .zip(reach.seat0)
        .zip(reach.seat1);
    for ((((&f, &s), &r0), &r1), (x, y)) in ins.zip(c0.iter_mut().zip(c1.iter_mut())) {
        let actor0 = f == node.role;
        *x = r0 * if actor0 { s } else { 1.0 };
        *y = r1 * if actor0 { 1.0 } else { s };
    }
}

/// Runs `count` sibling nodes from `first`, each in its task (the first of its pool share), by
/// halves with `rayon::join` on disjoint slot ranges and task ranges.
fn run_children(ctx: &Ctx, first: usize, count: usize, pool: &mut [Task], tables: Tables<f32>) {
    if count == 1 {
        let (t, rest) = pool
            .split_first_mut()
            .expect("a parallel child owns a task");
        let Task {
            scratch,
            out,
            reach0,
            reach1,
        } = t;
        let reach = Reach {
            seat0: reach0,
            seat1: reach1,
        };
        walk(ctx, first, reach, out, scratch, tables, rest);
        return;
    }
    let mid = count / 2;
    let (left, right) = tables.split(ctx.tree.slot_range[first + mid][0] as usize);
    let (pl, pr) = pool.split_at_mut((ctx.task_of[first + mid] - ctx.task_of[first]) as usize);
    rayon::join(
        || run_children(ctx, first, mid, pl, left),
        || run_children(ctx, first + mid, count - mid, pr, right),
    );
}

pub mod measure;
pub mod split;

#[cfg(test)]
mod tests;
