//! Endgame re-solving: the last street of a heads-up hand solved again at play time, with the
//! real cards and no card abstraction, from ranges the blueprint (a strategy file) implies.
//!
//! # The subgame ([`Subgame::at`])
//! Its root is the first decision of the game's last street (seventh street; fifth in five-card
//! stud), every card dealt. A spot later in that street's betting is answered from the same
//! subgame: its node is found by following the street's bets from the root.
//!
//! Or the first decision of the street before it (sixth street: [`Subgame::at_street`],
//! `FILE:resolve2`), where the last street deals each seat one down card: private chance, dealt
//! into the hands from the root on (a sixth-street pair and its seventh card, 39,732 a seat),
//! each hand's bucket its pair before the card comes, so that the core's rows and updates are
//! the pair's. A set of three cards is then three hands ([`Tree::twins`]), struck together by
//! card removal.
//!
//! Or, in a walkable game (one down card, dealt on the first street), the first decision of any
//! street, the up cards still to come dealt inside the subgame as public chance
//! ([`Subgame::with_chance`]: its tree is the lossless public tree of the rest of the hand).
//!
//! - **Hands.** Every holding of a seat's down cards possible from the public cards: seventh
//!   street's three down cards make C(44, 3) = 13,244 holdings per seat (five-card stud's one,
//!   44). Both seats' holdings are numbered alike; where two collide the terminal values leave
//!   the pair out (card removal, [`crate::terminal`]). The subgame is the public one: a seat's
//!   range is what the other seat and an onlooker know, not conditioned on the resolving
//!   player's own cards, which only pick its row (the opponent's range *seen from* a hand is the
//!   range less the holdings sharing a card with it: [`Subgame::opponent_range_seen_by`]).
//! - **Ranges.** Each seat's weight on a holding is the probability of the betting so far given
//!   that holding under the blueprint's policy, as the blueprint plays it (its purification):
//!   the exact Bayesian replay of [`crate::bot::range`] (shared with LBR) over every holding,
//!   both seats' down cards unknown, up to the street's root; the street's own down card then
//!   extends each holding every way, and the ordered holdings are summed into card sets.
//! - **Unreachable holdings.** A thresholded blueprint gives probability 0 to many actions, and
//!   an opponent may take an action the blueprint never takes with any holding. So each action
//!   weighs a holding by at least [`Options::floor`] (default 0.3: a holding that would not have
//!   taken the action is kept, 0.3 times as likely as one that always would). With a
//!   floor of 0 the replay is Bayes' rule exactly; a range whose every holding is unreachable is
//!   then uniform (see [`crate::bot::range`]).
//! - **Betting.** The rules engine's legal actions from the root, cut at the game's cap
//!   (`GameDef::max_bets`, also where heads-up play is uncapped).
//! - **Values.** Each terminal's chips (a fold: what the folder put in; a showdown: the matched
//!   stake) divided by the total weight of the pairs of holdings that do not collide, so that
//!   every value is chips per hand given that the subgame is reached.
//!
//! # The solve ([`Subgame::solve`])
//! The solver core's vector-form CFR ([`crate::cfr::Solver`], the variant
//! [`RESOLVE_ALGORITHM`], entered with the ranges), for a number of iterations or until a time
//! budget runs out (the clock then decides how many iterations run: use iterations where
//! results must repeat); its report ([`Resolved::report`], when asked: the server's replies and
//! `stud query` read it, a player in a match does not) adds the exact best response in the
//! subgame ([`crate::best_response::value_in_ranges`]) for its exploitability.
//! By default this is unsafe re-solving (Burch et al. 2014 call it re-solving without the
//! gadget): the opponent's range is taken as the blueprint implies, and nothing bounds how far
//! the re-solved strategy's value for the opponent's hands may move from the blueprint's.
//! [`Method::Safe`] re-solves one seat through their gadget instead ([`Subgame::safety`]): the
//! opponent may take, hand by hand, what its best response to the blueprint gets there rather than
//! enter the subgame, so the re-solved seat gains only where no opponent hand loses.

mod build;
mod chance;
#[cfg(test)]
mod chance_tests;
pub mod classes;
#[cfg(test)]
mod cold_tests;
pub mod depth;
pub mod depth_player;
#[cfg(test)]
mod depth_player_tests;
#[cfg(test)]
mod depth_tests;
pub mod depth_verify;
pub mod leaves;
pub mod nest;
#[cfg(test)]
mod nest_tests;
mod player;
#[cfg(test)]
mod range_draws_tests;
pub mod safe;
#[cfg(test)]
mod safe_tests;
pub mod table;
#[cfg(test)]
pub(crate) mod tests;
pub mod verify;

use crate::best_response::{counterfactual_values, value_in_ranges, Play};
use crate::bot::Bet;
use crate::cfr::{Algorithm, Solver};
use crate::gadget::GadgetKind;
use abstraction::cards::{Card, CardSet};
use abstraction::rules::seat_name;
use abstraction::rules::{Action, State};
use abstraction::tree::{Edge, NodeKind, Tree, NONE};
use anyhow::{bail, Context};
use rayon::prelude::*;
use serde::Serialize;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::OnceLock;
use std::time::{Duration, Instant};

pub use build::{parse_floor, Given, DEFAULT_FLOOR};
pub use player::{resolve_spec, ResolvingPlayer, DEFAULT_PLAYER_ITERATIONS};

/// The re-solve's CFR: DCFR with the paper's parameters (1.5, 0, 2), chosen by measurement
/// over CFR+ (docs/notes/resolve.md): in seven-card stud's seventh-street subgames it reaches CFR+'s
/// exploitability after 30 iterations in 22.
pub const RESOLVE_ALGORITHM: Algorithm = Algorithm::DCFR;

/// The number type of a re-solve's solver: its regret and average tables and its walk's
/// vectors (reaches, strategies, values, card sums) are `f32`, half the bytes the walk streams
/// (docs/notes/resolve.md, "The tables in f32" and "The walk in f32"). The ranges, the gadget and the
/// report's best responses stay `f64`.
pub type TableReal = f32;

/// Why a subgame cannot be built: a seat's range is empty, or every pair of the two ranges'
/// holdings shares a card. The spot is one the strategy never reaches with hands that can
/// meet (a row played pure or thresholded, the ranges by Bayes' rule): there is nothing to
/// re-solve against, and the exact measure keeps the strategy's rows there.
#[derive(Debug)]
pub struct Unreached(pub &'static str);

impl std::fmt::Display for Unreached {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.0)
    }
}

impl std::error::Error for Unreached {}

impl Unreached {
    /// Whether `e` says a subgame is [`Unreached`] (behind any context).
    pub fn is(e: &anyhow::Error) -> bool {
        e.downcast_ref::<Unreached>().is_some()
    }
}

/// The range check of a subgame's builder: [`Unreached`] when `reached` is false.
pub(crate) fn reached(reached: bool, why: &'static str) -> anyhow::Result<()> {
    match reached {
        true => Ok(()),
        false => Err(Unreached(why).into()),
    }
}

/// The gain over its alternative above which an opponent hand counts as gaining against a safe
/// re-solve ([`Resolved::holds`], [`verify::Measured::gaining_solves`]; chips per hand reaching
/// the subgame): rounding, not play.
pub const GAIN_TOLERANCE: f64 = 1e-9;

/// Bytes a re-solve needs per slot: a regret and an average, [`TableReal`] each.
pub const BYTES_PER_SLOT: usize = 2 * std::mem::size_of::<TableReal>();

/// How a subgame is built and solved.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Options {
    /// The least probability by which an action taken weighs a holding in the ranges (see the
    /// module documentation); 0 is Bayes' rule exactly.
    pub floor: f64,
    /// Whether the opponent's range is trusted (unsafe) or bounded by the gadget (safe).
    pub method: Method,
    /// Whether a [`ResolvingPlayer`] re-solves the last two streets (from the first decision
    /// of sixth street in seven-card stud, the last street's down card as private chance) rather
    /// than the last one alone (`FILE:resolve2`). [`Subgame::at`] reads the street from the
    /// spot instead.
    pub two_streets: bool,
    /// Whether a [`ResolvingPlayer`] leaves the ranges' classes to be looked up when a hand
    /// reaches the re-solve's street (`FILE:resolve,cold`) rather than working each earlier
    /// street's out at its decisions there ([`classes::warm`]): the same ranges and play, no
    /// lookup for a hand that ends sooner (most of a match's time against a bot that folds),
    /// and a longer wait at the re-solve. A table's player ([`table::TablePlayer`]) never warms.
    pub cold: bool,
    /// Whether a [`ResolvingPlayer`] that re-solved from an earlier street re-solves each later
    /// street again when it comes (`FILE:search`): the next street's subgame from the ranges
    /// its previous solve's rows imply along the hand's real betting ([`nest`]), rather than
    /// that solve's rows played on.
    pub nested: bool,
    /// Whether a [`ResolvingPlayer`]'s ranges weigh their holdings by classes estimated from
    /// this many outer draws of each feature rollout (`FILE:resolve,range-draws=N`; see
    /// [`crate::bot::ClassEstimate`]) rather than the blueprint's exact classes: an
    /// approximation of the ranges, each lookup cheaper by the file's outer draws over N. The
    /// player's own blueprint decisions keep their exact classes.
    pub range_draws: Option<u32>,
    /// How each nested re-solve ([`Options::nested`]) treats the opponent (`FILE:search-safe`):
    /// safe methods bound it by what it got against the rows of the solve above (Brown and
    /// Sandholm 2017's nested safe subgame solving), so that nesting cannot make that solve more
    /// exploitable.
    pub nested_method: Method,
    /// Whether a safe re-solve whose seat lets some opponent hand's best response gain over its
    /// alternative (the gadget's bound not reached within the budget: [`Resolved::holds`])
    /// is mixed, by the seat's reach, with the strategy it replaces (the blueprint, or nested,
    /// the rows of the solve above) at the largest share of a half, a quarter or an eighth
    /// that holds the bound, else replaced by it: a safe fallback, so that the budget's error
    /// cannot make the strategy more exploitable than the one replaced. Unsafe re-solves have
    /// no bound to fall back by.
    pub fallback: bool,
}

impl Options {
    /// The floor the subgame's ranges are built with: [`Options::floor`], but 0 (Bayes' rule,
    /// each seat's exact reach under the blueprint) when the first solve is safe, whose bound
    /// holds only against the re-solved seat's true range. The opponent's range, which the
    /// floor is for (an action its blueprint never takes), is not read by a safe solve: the
    /// gadget chooses its reach.
    pub fn range_floor(&self) -> f64 {
        match self.method {
            Method::Unsafe => self.floor,
            Method::Safe | Method::Maxmargin => 0.0,
        }
    }
}

impl Default for Options {
    fn default() -> Options {
        Options {
            floor: DEFAULT_FLOOR,
            method: Method::Unsafe,
            two_streets: false,
            cold: false,
            nested: false,
            range_draws: None,
            nested_method: Method::Unsafe,
            fallback: false,
        }
    }
}

/// How a re-solve treats the opponent.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Method {
    /// The opponent enters with the range the blueprint implies (Burch et al.'s re-solving
    /// without the gadget): one solve serves both seats.
    #[default]
    Unsafe,
    /// The opponent enters through the re-solving gadget with its counterfactual values
    /// against the strategy replaced ([`Safety`], [`GadgetKind::Resolve`]): the re-solved seat
    /// cannot let any opponent hand do better than that strategy let it; one solve per seat.
    Safe,
    /// The same bound through the maxmargin gadget ([`GadgetKind::Maxmargin`]): the re-solved
    /// seat also widens the smallest margin by which the opponent's hands do worse.
    Maxmargin,
}

impl Method {
    /// The gadget of a safe method; `None` for [`Method::Unsafe`].
    pub fn gadget(self) -> Option<GadgetKind> {
        match self {
            Method::Unsafe => None,
            Method::Safe => Some(GadgetKind::Resolve),
            Method::Maxmargin => Some(GadgetKind::Maxmargin),
        }
    }

    /// What a player spec writes after `resolve` or `search` for this method (`-safe`,
    /// `-maxmargin`; nothing when unsafe): read by [`resolve_spec`], written in the player's name.
    pub fn spec_suffix(self) -> &'static str {
        match self {
            Method::Unsafe => "",
            Method::Safe => "-safe",
            Method::Maxmargin => "-maxmargin",
        }
    }
}

/// What a safe re-solve of one seat needs: the seat, its opponent's counterfactual value per
/// hand at the root of a best response to the strategy replaced (the blueprint's, or the rows
/// of the solve above a nested one), and the gadget.
#[derive(Clone, Debug, PartialEq)]
pub struct Safety {
    /// The seat re-solved.
    pub seat: u8,
    /// The opponent's best-response counterfactual value per hand against the strategy
    /// replaced (the gadget's alternative).
    pub alternative: Vec<f64>,
    /// The opponent's hands that can meet the seat's range (see [`crate::gadget`]).
    pub possible: Vec<bool>,
    /// The gadget the opponent enters through.
    pub kind: GadgetKind,
}

/// The most iterations a re-solve's budget may ask, wherever it is given (`query
/// --iterations`, a `FILE:resolve=N` spec): far past any measured need (docs/notes/resolve.md),
/// short of a budget that never ends.
pub const MAX_ITERATIONS: u64 = 100_000;

/// The most milliseconds a re-solve's budget may ask (`query --budget-ms`, `FILE:resolve=Nms`):
/// ten minutes.
pub const MAX_MILLIS: u64 = 600_000;

/// The least floor above 0 ([`parse_floor`]): a smaller one weighs a holding by what is
/// Bayes' rule in all but rounding (0 says that plainly), and prints as hundreds of digits.
pub const MIN_FLOOR: f64 = 1e-6;

/// How long a re-solve runs.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Budget {
    /// Exactly this many iterations (at least 1): the same result on every run.
    Iterations(u64),
    /// Iterations until this many milliseconds have passed since the solve started (at least
    /// one iteration).
    Millis(u64),
}

/// When a re-solve gives up before its budget is spent: a server's bound on any request's
/// re-solve, and its client gone. Checked between iterations only, so that a solve that is not
/// stopped runs exactly as it would without one (the same bits).
#[derive(Clone, Copy, Debug, Default)]
pub struct Stop<'a> {
    /// Set (by another thread) when the answer is no longer wanted: its client went away.
    pub cancelled: Option<&'a AtomicBool>,
    /// The longest the iterations may run, whatever the budget: `(limit, name)`, the name being
    /// what the refusal says the limit is (a flag, say).
    pub limit: Option<(Duration, &'a str)>,
}

impl Stop<'_> {
    /// A stop that never comes: the budget alone decides.
    pub const NEVER: Stop<'static> = Stop {
        cancelled: None,
        limit: None,
    };

    /// Fails when the solve should end now, `elapsed` after its iterations began, having run
    /// `iterations`.
    pub fn check(&self, elapsed: Duration, iterations: u64) -> anyhow::Result<()> {
        if self.cancelled.is_some_and(|c| c.load(Ordering::Relaxed)) {
            bail!("the re-solve was cancelled after {iterations} iterations: its client went away");
        }
        if let Some((limit, name)) = self.limit {
            if elapsed >= limit {
                bail!(
                    "the re-solve ran {iterations} iterations in {} ms, the limit of {name}, and \
                     was stopped: ask for fewer iterations or a budget in ms",
                    limit.as_millis()
                );
            }
        }
        Ok(())
    }

    /// Fails when the answer is no longer wanted (before the solve's iterations begin).
    pub fn check_cancelled(&self) -> anyhow::Result<()> {
        if self.cancelled.is_some_and(|c| c.load(Ordering::Relaxed)) {
            bail!("the re-solve was cancelled before it began: its client went away");
        }
        Ok(())
    }
}

/// A subgame of the last street or the last two, ready to solve (see the module documentation).
pub struct Subgame {
    /// The public tree of the betting: a board per street, one bucket per hand on the last
    /// street and per root hand on the street before it.
    pub tree: Tree,
    /// Each seat's range at the root, one weight per hand, each summing to 1.
    pub ranges: [Vec<f64>; 2],
    /// Each hand's down cards on the last street (the tree's hands or holdings, as sets).
    pub hands: Vec<CardSet>,
    /// The hands at the root, each the down cards of its street (the same as `hands` when the
    /// root is on the last street; pairs on sixth street).
    pub roots: Vec<CardSet>,
    /// The root hand of each hand (its bucket before the last street), ascending.
    of_root: Vec<u32>,
    /// The state at each action node (down cards unknown), by node index; `None` elsewhere.
    states: Vec<Option<State>>,
    /// The whole betting of the hand up to each node, by node index (action nodes only).
    bets: Vec<Vec<Bet>>,
    /// The betting from the start of the hand to the root.
    pub root_bets: usize,
    /// The street of the subgame (0-based).
    pub street: usize,
    /// Milliseconds spent on the ranges (the Bayesian replay and its sums).
    pub range_millis: f64,
    /// What each terminal's chips are multiplied by: 1 / the weight of the pairs of holdings
    /// that do not collide (so that the values are chips per hand reaching the subgame).
    pub scale: f64,
    /// The table's seats of the subgame's first seat and its second (`[0, 1]` heads-up; at a
    /// table, the two still in: [`Subgame::given`]).
    pub seats: [u8; 2],
}

/// The re-solved subgame: the solver (its tree and average strategy) and what the solve cost.
/// Its figures of quality (the best responses inside the subgame: some two iterations' CPU) are
/// measured when [`Resolved::report`] first asks for them, so that a player that only plays
/// the strategy (`match`, `play`) does not wait for them.
pub struct Resolved {
    /// The solver after the solve.
    pub solver: Solver<TableReal>,
    /// The report's figures of cost, its figures of quality still zero.
    cost: Report,
    /// The safe re-solve's alternative values, for the report's `opponent_gain`.
    safety: Option<Safety>,
    /// The safe re-solve's [`Report::opponent_gain`], once measured.
    gain: OnceLock<Option<f64>>,
    /// The whole report, once measured.
    measured: OnceLock<Report>,
}

/// What a re-solve reports (`--json` prints it).
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
pub struct Report {
    /// The street of the subgame's root (0-based).
    pub street: usize,
    /// Hands per seat (on the last street).
    pub hands: usize,
    /// Hands per seat at the root (the same as `hands` unless the root is before the last
    /// street).
    pub root_hands: usize,
    /// The bytes the solve was estimated to allocate before it ran (tree, regrets and
    /// averages, and the larger of the walks' and the best responses' scratch).
    pub memory_bytes: usize,
    /// Nodes of the betting tree.
    pub nodes: usize,
    /// Decisions (action nodes).
    pub decisions: usize,
    /// Infoset-actions (hands × actions summed over the decisions).
    pub infoset_actions: usize,
    /// Iterations run.
    pub iterations: u64,
    /// Milliseconds of the iterations.
    pub solve_millis: f64,
    /// Milliseconds of the ranges.
    pub range_millis: f64,
    /// Exploitability of the re-solved strategy inside the subgame, chips per hand reaching it:
    /// (what a best response wins as seat 0 + as seat 1) / 2.
    pub exploitability: f64,
    /// The same in milli-big-bets.
    pub exploitability_mbb: f64,
    /// Seat 0's value of the re-solved strategy in the subgame, chips per hand reaching it.
    pub value_0: f64,
    /// A safe re-solve only: the most any opponent hand's best response to the re-solved seat
    /// gains over its best response to the blueprint, chips (at most 0 when the gadget held;
    /// above 0 by the solve's error). The figures above are of the gadget game's profile.
    pub opponent_gain: Option<f64>,
}

impl Subgame {
    /// The subgame of the hand at `state` after `bets` from the first decision of `state`'s
    /// street (the last street, or the one before it: sixth street in seven-card stud), ranges
    /// from `blueprint`'s policy. Only public cards of `state` are read.
    pub fn at(
        blueprint: &dyn crate::bot::Player,
        state: &State,
        bets: &[Bet],
        options: Options,
    ) -> anyhow::Result<Subgame> {
        build::subgame(blueprint, state, bets, state.street(), options)
    }

    /// [`Subgame::at`] from the first decision of `street` (the last street or the one before
    /// it), `state` on that street or later.
    pub fn at_street(
        blueprint: &dyn crate::bot::Player,
        state: &State,
        bets: &[Bet],
        street: usize,
        options: Options,
    ) -> anyhow::Result<Subgame> {
        build::subgame(blueprint, state, bets, street, options)
    }

    /// The subgame of `given`: its two seats' ranges as given (normalized), its hands every
    /// set of the cards neither dealt face up nor dead, the betting from its root by the rules
    /// engine. [`Subgame::at`] is this with both ranges replayed heads-up;
    /// [`Subgame::at_table`] with them replayed at a table down to two players.
    pub fn given(given: Given) -> anyhow::Result<Subgame> {
        build::of_given(given, Instant::now())
    }

    /// The hand of a seat holding the down cards `down` in the order dealt (the root's cards,
    /// and on the last street its card too), if it is a hand of the subgame. With the root's
    /// cards only, the first hand of that root hand (all of them share its rows before the
    /// last street).
    pub fn hand_index(&self, down: &[Card]) -> Option<usize> {
        let k = self.roots.first()?.len() as usize;
        let set = |c: &[Card]| c.iter().copied().collect::<CardSet>();
        if down.len() < k {
            return None;
        }
        let root = self.roots.iter().position(|&h| h == set(&down[..k]))? as u32;
        let first = self.of_root.partition_point(|&r| r < root);
        let all = set(down);
        (first..self.hands.len())
            .take_while(|&h| self.of_root[h] == root)
            .find(|&h| down.len() == k || self.hands[h] == all)
    }

    /// The root hand of hand `h` (its cards before the last street's down card; `h` itself
    /// when the root is on the last street).
    pub fn root_of(&self, h: usize) -> usize {
        self.of_root[h] as usize
    }

    /// The node reached from the root by the last street's bets in `bets` (the whole hand's
    /// betting), or `None` if the subgame lacks one of them (a raise past the cap).
    pub fn node_after(&self, bets: &[Bet]) -> anyhow::Result<Option<usize>> {
        if bets.len() < self.root_bets {
            bail!("the betting given stops before the subgame's root");
        }
        let mut node = 0;
        for &(street, a) in &bets[self.root_bets..] {
            if street < self.street {
                bail!("a bet on a street before the subgame's");
            }
            match self
                .tree
                .children(node)
                .find(|&c| self.tree.edges[c] == Edge::Action(a))
            {
                Some(c) => node = c,
                None => return Ok(None),
            }
        }
        Ok(Some(node))
    }

    /// The real actions of action node `node`, in child order.
    pub fn actions(&self, node: usize) -> Vec<Action> {
        self.tree
            .children(node)
            .filter_map(|c| match self.tree.edges[c] {
                Edge::Action(a) => Some(a),
                _ => None,
            })
            .collect()
    }

    /// The state at action node `node` (down cards unknown).
    pub fn state(&self, node: usize) -> Option<&State> {
        self.states.get(node).and_then(Option::as_ref)
    }

    /// The range of the opponent of the seat holding `down`, as that seat sees it: the holdings
    /// sharing a card with `down` struck, the rest summing to 1 (all zero if none is left).
    pub fn opponent_range_seen_by(&self, seat: u8, down: CardSet) -> Vec<f64> {
        let r = &self.ranges[1 - seat as usize];
        let mut out: Vec<f64> = self
            .hands
            .iter()
            .zip(r)
            .map(|(h, &w)| {
                if h.intersection(down).is_empty() {
                    w
                } else {
                    0.0
                }
            })
            .collect();
        let total: f64 = out.iter().sum();
        if total > 0.0 {
            out.iter_mut().for_each(|w| *w /= total);
        }
        out
    }

    /// A player's strategy in the subgame as slot weights (for the best response): at each
    /// decision, each hand's policy under `player` (its row through its card class when it has
    /// one, asked once per class and node). A spot the player cannot answer is an error.
    pub fn policy_of(&self, player: &dyn crate::bot::Player) -> anyhow::Result<Vec<f64>> {
        self.policy_of_seats(player, [true, true])
    }

    /// [`Subgame::policy_of`] at the decisions of the seats marked in `seats` only (the other
    /// seat's slots stay 0): a best response against one seat reads no other rows.
    fn policy_of_seats(
        &self,
        player: &dyn crate::bot::Player,
        seats: [bool; 2],
    ) -> anyhow::Result<Vec<f64>> {
        let t = &self.tree;
        let mut avg = vec![0.0; t.num_slots];
        // Per board (street) and seat: the class of each bucket's hand.
        let mut classes: Vec<[Option<Vec<u32>>; 2]> = vec![[None, None]; t.boards.len()];
        let mut row = [0.0; crate::strategy_file::MAX_ACTIONS];
        for (i, node) in t.nodes.iter().enumerate() {
            if node.kind != NodeKind::Action || !seats[node.seat as usize] {
                continue;
            }
            let st = self.states[i]
                .as_ref()
                .context("an action node without its state")?;
            // The table's seat: the player reads the table, the tree its two seats.
            let seat = self.seats[node.seat as usize];
            let legal = st.legal_actions();
            let acts = self.actions(i);
            let k = acts.len();
            let probs = &mut row[..legal.len()];
            // One hand asks for each bucket: a bucket's hands hold the same cards here.
            let table = t.bucket_table(node.board, node.seat);
            let mut reps = vec![usize::MAX; t.num_buckets[node.street as usize] as usize];
            // A hand colliding with the board's cards (public chance below the root) has no row.
            for (h, &b) in table.iter().enumerate().rev().filter(|x| *x.1 != NONE) {
                reps[b as usize] = h;
            }
            let n = reps.len();
            // Each bucket's classes, once per street and seat (the street's cards do not
            // change), looked up on the threads there are: thousands of bucket lookups.
            let on = &mut classes[node.board as usize][node.seat as usize];
            if on.is_none() {
                let c: Vec<Option<u32>> = reps
                    .par_iter()
                    .map(|&h| player.card_class(&self.shown(st, seat, h)?, seat))
                    .collect::<anyhow::Result<_>>()?;
                // A player without classes (a bot) has none for any hand.
                *on = Some(c.into_iter().map_while(|x| x).collect());
            }
            let cls = on.as_deref().unwrap_or(&[]);
            let mut per_class: Vec<Option<Vec<f64>>> = Vec::new();
            for (b, &h) in reps.iter().enumerate() {
                let p: Vec<f64> = if cls.len() == n {
                    let c = cls[b] as usize;
                    if c >= per_class.len() {
                        per_class.resize(c + 1, None);
                    }
                    if per_class[c].is_none() {
                        player.class_policy(st, &self.bets[i], seat, cls[b], &legal, probs)?;
                        per_class[c] = Some(probs.to_vec());
                    }
                    per_class[c].clone().unwrap_or_default()
                } else {
                    let s = self.shown(st, seat, h)?;
                    player.policy(&s, &self.bets[i], seat, &legal, probs)?;
                    probs.to_vec()
                };
                let at = node.first_slot() as usize + b * k;
                for (a, act) in acts.iter().enumerate() {
                    avg[at + a] = legal.iter().position(|x| x == act).map_or(0.0, |j| p[j]);
                }
            }
        }
        Ok(avg)
    }

    /// `st` with `seat`'s down cards shown as hand `h`: its root hand's cards, then on a later
    /// street the card dealt there.
    fn shown(&self, st: &State, seat: u8, h: usize) -> anyhow::Result<State> {
        let mut s = st.clone();
        let root = self.roots[self.of_root[h] as usize];
        let mut cards: Vec<Card> = root.iter().collect();
        if st.street() > self.street {
            cards.extend(self.hands[h].minus(root).iter());
        }
        s.show(seat, &cards)?;
        Ok(s)
    }

    /// The exploitability inside the subgame of the strategy `average` (slot weights, as the
    /// solver's average or [`Subgame::policy_of`]): (best response as seat 0 + as seat 1) / 2,
    /// and seat 0's value when both follow it, chips per hand reaching the subgame.
    pub fn exploitability(&self, average: &[f64]) -> (f64, f64) {
        let r = [&self.ranges[0][..], &self.ranges[1][..]];
        let t = &self.tree;
        // Three independent walks, on the threads there are: about two iterations' work. The
        // best response chooses per bucket: a hand on the last street, its root hand before
        // (on sixth street it does not know its seventh card yet).
        let ((br0, br1), v0) = rayon::join(
            || {
                rayon::join(
                    || value_in_ranges(t, average, 0, Play::Best, r),
                    || value_in_ranges(t, average, 1, Play::Best, r),
                )
            },
            || value_in_ranges(t, average, 0, Play::Follow, r),
        );
        ((br0 + br1) / 2.0, v0)
    }

    /// What a safe re-solve of `seat` needs: the opponent's counterfactual values of a best
    /// response, hand by hand, to `seat` playing `blueprint`'s policy in the subgame (the
    /// policy the ranges came from): what the whole game's best response to the blueprint gets
    /// here, so that a re-solve holding every hand to it is no more exploitable. The bound holds
    /// when the seat's range is its exact reach under the blueprint (a floor of 0).
    pub fn safety(
        &self,
        blueprint: &dyn crate::bot::Player,
        seat: u8,
        kind: GadgetKind,
    ) -> anyhow::Result<Safety> {
        self.safety_against(&self.rows_of_seat(blueprint, seat)?, seat, kind)
    }

    /// `seat`'s rows of `blueprint`'s policy in the subgame (slot weights, the other seat's 0):
    /// the strategy a safe re-solve of `seat` replaces ([`Subgame::safety`]), and what its
    /// fallback keeps ([`safe::keep_bound`]).
    pub fn rows_of_seat(
        &self,
        blueprint: &dyn crate::bot::Player,
        seat: u8,
    ) -> anyhow::Result<Vec<f64>> {
        if seat > 1 {
            bail!("{}: a subgame is heads-up", seat_name(seat));
        }
        let mut seats = [false; 2];
        seats[seat as usize] = true;
        self.policy_of_seats(blueprint, seats)
    }

    /// [`Subgame::safety`] against `rows` (slot weights of this subgame's tree, as the solver's
    /// average: `seat`'s rows are read) rather than a player's policy: the bound of a nested
    /// re-solve, the rows those of the solve above it.
    pub fn safety_against(
        &self,
        rows: &[f64],
        seat: u8,
        kind: GadgetKind,
    ) -> anyhow::Result<Safety> {
        if seat > 1 {
            bail!("{}: a subgame is heads-up", seat_name(seat));
        }
        if self.roots.len() != self.hands.len() {
            bail!("a safe re-solve of two streets is not built: re-solve them unsafely");
        }
        if rows.len() != self.tree.num_slots {
            bail!("the strategy replaced has not one weight per slot of the subgame");
        }
        let opponent = 1 - seat;
        let range = &self.ranges[seat as usize];
        Ok(Safety {
            seat,
            alternative: counterfactual_values(&self.tree, rows, opponent, Play::BestReal, range),
            possible: self.meets(range),
            kind,
        })
    }

    /// Per hand, whether it can meet `range`: it shows no card of the root's board and some
    /// hand sharing no card with it has weight there.
    fn meets(&self, range: &[f64]) -> Vec<bool> {
        let unseen = self.state(0).map_or(CardSet::EMPTY, State::unseen);
        self.hands
            .iter()
            .map(|&h| {
                h.minus(unseen).is_empty()
                    && self
                        .hands
                        .iter()
                        .zip(range)
                        .any(|(&o, &w)| w > 0.0 && o.intersection(h).is_empty())
            })
            .collect()
    }

    /// The most any possible opponent hand's best response to `safety`'s seat playing `average` gains
    /// over the gadget's alternative (its best response to the blueprint), chips.
    pub fn opponent_gain(&self, average: &[f64], safety: &Safety) -> f64 {
        counterfactual_values(
            &self.tree,
            average,
            1 - safety.seat,
            Play::BestReal,
            &self.ranges[safety.seat as usize],
        )
        .iter()
        .zip(&safety.alternative)
        .zip(&safety.possible)
        // A hand showing on the board, or meeting none of the seat's range, has no value to
        // keep: its figures are the walk's, not a hand's.
        .filter(|(_, &p)| p)
        .map(|((b, a), _)| b - a)
        .fold(f64::NEG_INFINITY, f64::max)
    }

    /// Re-solves the subgame with DCFR within `budget` (see the module documentation): unsafe
    /// when `safety` is `None`, else safely for its seat (only that seat's strategy is the
    /// re-solve's answer; the opponent's is the gadget game's).
    pub fn solve(&self, budget: Budget, safety: Option<&Safety>) -> anyhow::Result<Resolved> {
        self.solve_until(budget, safety, &Stop::NEVER)
    }

    /// [`Subgame::solve`], given up with an error when `stop` comes first (checked before each
    /// iteration but the first: the solve's iterations are otherwise untouched).
    pub fn solve_until(
        &self,
        budget: Budget,
        safety: Option<&Safety>,
        stop: &Stop,
    ) -> anyhow::Result<Resolved> {
        let estimate = self.estimate();
        estimate.check_fits(
            crate::memory::available_memory(),
            "re-solve the last street alone (`:resolve`), or free memory",
        )?;
        let mut solver = Solver::<TableReal>::with_tables(self.tree.clone(), RESOLVE_ALGORITHM);
        solver
            .set_ranges(self.ranges.clone())
            .map_err(anyhow::Error::msg)?;
        if let Some(s) = safety {
            solver
                .set_gadget(
                    1 - s.seat,
                    s.kind,
                    s.alternative.clone(),
                    s.possible.clone(),
                )
                .map_err(anyhow::Error::msg)?;
        }
        let start = Instant::now();
        match budget {
            Budget::Iterations(0) => bail!("a re-solve needs at least 1 iteration"),
            Budget::Iterations(n) => {
                solver.iterate();
                for _ in 1..n {
                    stop.check(start.elapsed(), solver.iterations)?;
                    solver.iterate();
                }
            }
            Budget::Millis(ms) => loop {
                solver.iterate();
                if start.elapsed().as_secs_f64() * 1000.0 >= ms as f64 {
                    break;
                }
                stop.check(start.elapsed(), solver.iterations)?;
            },
        }
        let solve_millis = start.elapsed().as_secs_f64() * 1000.0;
        let t = &self.tree;
        let cost = Report {
            street: self.street,
            hands: t.num_hands(),
            root_hands: self.roots.len(),
            memory_bytes: estimate.peak(),
            nodes: t.nodes.len(),
            decisions: t
                .nodes
                .iter()
                .filter(|n| n.kind == NodeKind::Action)
                .count(),
            infoset_actions: t.num_slots,
            iterations: solver.iterations,
            solve_millis,
            range_millis: self.range_millis,
            exploitability: 0.0,
            exploitability_mbb: 0.0,
            value_0: 0.0,
            opponent_gain: None,
        };
        // The solve is over: its scratch (three walks' worth) is freed before the report's best
        // responses allocate theirs, and is not kept with it in the player's cache.
        solver.release_scratch();
        Ok(Resolved {
            solver,
            cost,
            safety: safety.cloned(),
            gain: OnceLock::new(),
            measured: OnceLock::new(),
        })
    }

    /// What [`Subgame::solve`] allocates, before it does: a copy of the tree, the regrets and
    /// averages (8 bytes a slot: 69 MB from a sixth-street root), and the larger of the
    /// walks' scratch and the three best responses' (which run after it is freed).
    pub fn estimate(&self) -> crate::memory::Estimate {
        let t = &self.tree;
        // The regrets and averages, and the showdown tables the solver's terminals sweep.
        let solver_bytes = t.num_slots * BYTES_PER_SLOT + crate::terminal::HoldingIds::bytes(t);
        crate::memory::Estimate {
            infosets: t.num_infosets,
            slots: t.num_slots,
            bytes_per_slot: BYTES_PER_SLOT,
            resident_bytes: 0,
            bucketing_bytes: 0,
            tree_bytes: t.bytes(),
            solver_bytes,
            scratch_bytes: crate::cfr::scratch_bytes::<TableReal>(t)
                .max(3 * crate::best_response::scratch_bytes(t)),
            write_bytes: 0,
        }
    }
}

impl Resolved {
    /// What the solve did and found, `sub` being the subgame solved: its cost, and its
    /// exploitability inside the subgame by exact best responses, measured at the first call
    /// (the later ones answer at once).
    pub fn report(&self, sub: &Subgame) -> Report {
        *self.measured.get_or_init(|| {
            let average = self.average();
            let (exploitability, value_0) = sub.exploitability(&average);
            Report {
                exploitability,
                exploitability_mbb: exploitability / sub.tree.big_bet as f64 * 1000.0,
                value_0,
                opponent_gain: self.opponent_gain(sub),
                ..self.cost
            }
        })
    }

    /// A safe re-solve's [`Report::opponent_gain`] alone (one best-response walk, without the
    /// report's exploitability, made at the first call): `None` for an unsafe one.
    pub fn opponent_gain(&self, sub: &Subgame) -> Option<f64> {
        *self.gain.get_or_init(|| {
            let s = self.safety.as_ref()?;
            Some(sub.opponent_gain(&self.average(), s))
        })
    }

    /// Whether the safe re-solve's bound holds: no opponent hand's best response gains over
    /// its alternative by more than [`GAIN_TOLERANCE`] (rounding). An unsafe re-solve
    /// has no bound, and holds.
    pub fn holds(&self, sub: &Subgame) -> bool {
        self.opponent_gain(sub).is_none_or(|g| g <= GAIN_TOLERANCE)
    }

    /// The re-solved average strategy of hand `h` at action node `node`, one probability per
    /// child (uniform where the hand never reached it).
    pub fn strategy(&self, node: usize, h: usize) -> Vec<f64> {
        let t = &self.solver.tree;
        let n = &t.nodes[node];
        let k = n.num_children as usize;
        // The hand's row: its own on the last street, its root hand's before it.
        let b = t.bucket_table(n.board, n.seat)[h] as usize;
        let at = n.first_slot() as usize + b * k;
        let mut row: Vec<f64> = (self.solver.average[at..at + k].iter())
            .map(|&x| f64::from(x))
            .collect();
        crate::kernel::normalize(&mut row);
        row
    }

    /// The average-strategy sums of every slot, widened to `f64` (what the best responses and
    /// a lifted strategy read).
    pub fn average(&self) -> Vec<f64> {
        self.solver.average.iter().map(|&x| f64::from(x)).collect()
    }
}
