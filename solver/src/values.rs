//! The value of each legal action at a decision of a heads-up strategy file, both seats playing
//! the file from there: what `stud query --values` prints and `stud explore` draws. At a table
//! of three or more seats (a multiway file): exact where every deal of the unseen cards can be
//! walked ([`table_exact`]: `doorstud`), else estimated ([`multiway`]).
//!
//! Both seats' ranges reaching the decision are the replay `stud query --ranges` shows
//! ([`crate::bot::range`] on the player's rows, a floor of 0: Bayes' rule exactly). A value is
//! in chips **from the decision on**: what the player expects to end the hand with, less what
//! it has now (the chips it has put in are gone whatever it does: a fold is worth 0). Two ways:
//!
//! - **Exact** ([`Method::Exact`]) where the rest of the hand can be walked: on the last street,
//!   and on the street before it when the last deals each seat one down card (sixth and seventh
//!   street in seven-card stud and razz). The re-solver's subgame ([`crate::resolve::Subgame`])
//!   holds every holding of both seats and the betting to the end; the file's rows are read into
//!   it ([`Subgame::policy_of`]), each seat's reach at the decision is its range times its own
//!   probabilities of the actions taken since the subgame's root, and each action's value per
//!   holding is the exact walk below it ([`counterfactual_values_below`]) divided by the
//!   opponent's reach on the holdings that do not collide with it: the counterfactual value
//!   normalised to an expectation. The split pot of hi-lo is not built there, so hi-lo is
//!   estimated on every street.
//! - **Estimated** ([`Method::Estimate`]) elsewhere: Monte Carlo. Each sample draws the
//!   opponent's down cards from its range and the player's from its own (its hand, when
//!   given), together: both again whenever they share a card ([`deal_jointly`]), so that a
//!   pair of holdings is drawn by the product of their weights. Then the cards to come from
//!   the rest of the deck, and plays every action from the same
//!   cards and the same draws of both seats' mixed actions (common random numbers: the
//!   differences between actions are sharper than each value), both seats playing the file to
//!   the end. The value is the mean, with a 95% interval (1.96 standard errors).
//!
//! By hand class: the player's holdings of each class of the street (the classes of `stud query
//! --ranges`), weighed by the player's own range and the opponent's (an exact value), or the
//! samples whose holding fell in the class (an estimate).

use crate::best_response::{counterfactual_values_below, Play};
use crate::bot::range::replay;
use crate::bot::{sample, Bet, Player, StrategyPlayer};
use crate::describe::Classes;
use crate::resolve::Subgame;
use abstraction::cards::{Card, CardSet};
use abstraction::rules::seat_name;
use abstraction::rules::{Action, Deal, Next, Showdown, State};
use abstraction::tree::{Edge, NodeKind, NONE};
use anyhow::{bail, ensure, Context, Result};
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;
use rayon::prelude::*;
use serde::Serialize;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::Instant;

/// Samples of an estimate unless asked: a 95% interval of about a small bet on third street of
/// seven-card stud with a hand given (docs/guide/query.md).
pub const DEFAULT_SAMPLES: usize = 2000;

/// The samples of an estimate at a table of `seats` unless asked: [`DEFAULT_SAMPLES`] heads-up
/// and at three seats, and at a bigger table that many times 9 / seats², to the nearest hundred
/// (1100 at four seats, 700 at five, 300 at eight). A sample costs about the square of the
/// seats (every seat's down cards dealt from its range, every seat playing to the end), so
/// that a table's values come about as fast as three seats' (seconds, not tens of seconds),
/// their interval wider by seats / 3.
pub fn default_samples(seats: usize) -> usize {
    if seats <= 3 {
        return DEFAULT_SAMPLES;
    }
    let scaled = DEFAULT_SAMPLES * 9 / (seats * seats);
    (scaled + 50) / 100 * 100
}

/// The most samples an estimate may ask: some minutes on two cores.
pub const MAX_SAMPLES: usize = 1_000_000;

/// The least samples an estimate may ask: an interval needs two.
pub const MIN_SAMPLES: usize = 2;

/// Samples per task of the estimate (and between two calls of the progress callback).
const CHUNK: usize = 16;

/// How many times an opponent's holding is drawn before the draws are judged unable to miss the
/// player's cards (only a range all but empty beside them comes near).
const MAX_DRAWS: usize = 10_000;

/// How the values were found.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Method {
    /// The exact walk of the rest of the hand over every holding of both seats.
    Exact,
    /// Monte Carlo, with a 95% interval.
    Estimate,
}

/// What an estimate draws.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Options {
    /// Samples (deals of the unknown cards), each playing every action: from [`MIN_SAMPLES`]
    /// to [`MAX_SAMPLES`].
    pub samples: usize,
    /// The seed of the draws: the same seed, the same estimate on any number of threads.
    pub seed: u64,
}

impl Default for Options {
    fn default() -> Options {
        Options {
            samples: DEFAULT_SAMPLES,
            seed: 1,
        }
    }
}

/// The value of each action for one holding, one class or the whole range.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Line {
    /// Chips from the decision on, one per action (in [`Values::actions`]' order).
    pub chips: Vec<f64>,
    /// An estimate's 95% interval, ± this many chips per action; `None` when exact.
    pub plus_minus: Option<Vec<f64>>,
    /// An estimate's 95% interval of each difference of two values, `chips[a] - chips[b]` at
    /// `a * k + b` (k actions): narrower than the two intervals together, since every action is
    /// played from the same draws; `None` when exact.
    #[serde(skip)]
    pub difference_plus_minus: Option<Vec<f64>>,
    /// The samples behind an estimate (0 when exact).
    pub samples: usize,
    /// False where the player's range holds none of these holdings here (an exact class line
    /// is then the holdings' plain mean, as if the player held one).
    pub reached: bool,
}

impl Line {
    /// An exact line: the weighted mean of histories' values (per history its weight and each
    /// action's value), plus what the player has put in, in chips from the decision on; `None`
    /// where no history has weight.
    fn exact<R: AsRef<[f64]>>(rows: &[(f64, R)], committed: f64, reached: bool) -> Option<Line> {
        let den: f64 = rows.iter().map(|r| r.0).sum();
        if den <= 0.0 {
            return None;
        }
        let k = rows.first()?.1.as_ref().len();
        let chips = (0..k)
            .map(|a| rows.iter().map(|r| r.0 * r.1.as_ref()[a]).sum::<f64>() / den + committed)
            .collect();
        Some(Line {
            chips,
            plus_minus: None,
            difference_plus_minus: None,
            samples: 0,
            reached,
        })
    }
}

/// The values of one hand class.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct ClassLine {
    /// The class, in a player's words.
    pub class: String,
    /// How many of the player's holdings here are of the class.
    pub holdings: usize,
    /// The class's part of the player's range here, given the opponent's (card removal
    /// counted); an estimate's: its part of the samples.
    pub share: f64,
    /// Its values.
    pub values: Line,
}

/// The values of the actions at a decision (see the module).
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Values {
    /// Exact or estimated.
    pub method: Method,
    /// The seat to act.
    pub seat: u8,
    /// The legal actions, in the rules engine's order.
    #[serde(skip)]
    pub actions: Vec<Action>,
    /// The chips the player has put in so far (a whole-hand result is a value less this).
    pub committed: u64,
    /// The pot.
    pub pot: u64,
    /// The game's big bet, in chips.
    pub big_bet: u64,
    /// The values of the hand asked for, if any.
    pub hand: Option<Line>,
    /// The values over the player's whole range here (`None` for an estimate of one hand:
    /// its samples deal that hand only).
    pub range: Option<Line>,
    /// By hand class, the commonest first; an estimate's lists the classes met in at least two
    /// samples (without a hand given).
    pub classes: Vec<ClassLine>,
    /// Classes holding some of the player's holdings left out of an estimate's list (met in
    /// fewer than two samples).
    pub classes_unsampled: usize,
    /// Wall milliseconds.
    pub millis: f64,
}

/// The values of the legal actions at the decision `state` (reached by `bets`; its down cards
/// unknown), both seats playing `player`, for the player to act holding `hand` (its down cards
/// in the order dealt) if given, by class and over its range (see the module). Exact where the
/// rest of the hand can be walked ([`walkable`]), else estimated as `options` says. `progress`
/// is told the work done and its total (steps, or samples).
pub fn values(
    player: &StrategyPlayer,
    state: &State,
    bets: &[Bet],
    hand: Option<&[Card]>,
    options: Options,
    progress: &(dyn Fn(usize, usize) + Sync),
) -> Result<Values> {
    values_by(player, state, bets, hand, options, true, progress)
}

/// [`values`], exact where the rest of the hand can be walked only if `exact` (else estimated
/// everywhere): the exact walk of sixth street in seven-card stud takes seconds, where an
/// estimate of a few hundred deals takes a fraction of one (`stud review` values many
/// decisions).
pub fn values_by(
    player: &StrategyPlayer,
    state: &State,
    bets: &[Bet],
    hand: Option<&[Card]>,
    options: Options,
    exact: bool,
    progress: &(dyn Fn(usize, usize) + Sync),
) -> Result<Values> {
    let start = Instant::now();
    let seat = state
        .to_act()
        .context("no one is to act at this spot: it has no actions to value")?;
    if let Some(h) = hand {
        check_hand(state, seat, h)?;
    }
    ensure!(
        (MIN_SAMPLES..=MAX_SAMPLES).contains(&options.samples),
        "samples: from {MIN_SAMPLES} to {MAX_SAMPLES}, not {}",
        options.samples
    );
    let classes = match player.file() {
        crate::strategy_file::StrategyFile::Multiway(f) => {
            Some(Classes::of(f.bucketing_at(state), state.street()))
        }
        f => f
            .betting()
            .map(|f| Classes::of(f.bucketing(), state.street())),
    };
    let mut v = if state.def().seats > 2 && exact && table_exact::walkable(state) {
        // A table whose deals are few: every one walked (`table_exact`).
        table_exact::exact(player, state, bets, hand, classes.as_ref(), progress)?
    } else if state.def().seats > 2 {
        // A table: every seat's range sampled together (`multiway`).
        multiway::estimate(
            player,
            state,
            bets,
            hand,
            classes.as_ref(),
            options,
            progress,
        )?
    } else if exact && walkable(state) {
        self::exact(player, state, bets, hand, classes.as_ref(), progress)?
    } else {
        estimate(
            player,
            state,
            bets,
            hand,
            classes.as_ref(),
            options,
            progress,
        )?
    };
    v.millis = start.elapsed().as_secs_f64() * 1000.0;
    Ok(v)
}

/// Whether the values at `state` are exact: heads-up, no split pot, on the last street or on
/// the one before when the last deals each seat one down card and nothing else (the
/// re-solver's subgames).
pub fn walkable(state: &State) -> bool {
    let def = state.def();
    let last = def.streets.len() - 1;
    let street = state.street();
    def.seats == 2
        && !matches!(def.variant.showdown(), Showdown::HiLo8)
        && (street == last
            || (street + 1 == last
                && def.streets[last].deal == [Deal::Down]
                && state.down_cards(0).len() == 2))
}

/// Checks `hand` as the down cards of `seat` at `state`: as many as dealt, none face up, none
/// twice.
fn check_hand(state: &State, seat: u8, hand: &[Card]) -> Result<()> {
    let n = state.down_cards(seat).len();
    ensure!(
        hand.len() == n,
        "the hand has {} down cards; {} holds {n} here",
        hand.len(),
        seat_name(seat)
    );
    let mut seen = CardSet::EMPTY;
    for s in 0..state.def().seats {
        state.up_cards(s).iter().for_each(|&c| seen.insert(c));
    }
    for &c in hand {
        ensure!(
            !seen.contains(c),
            "the hand's {c} is already dealt face up in the spot, or twice in the hand"
        );
        seen.insert(c);
    }
    Ok(())
}

/// The subgame's action nodes from its root to the decision of `bets`, each with the child
/// index taken; the decision last, with no child (`usize::MAX`).
fn path_to(sub: &Subgame, bets: &[Bet]) -> Result<Vec<(usize, usize)>> {
    let t = &sub.tree;
    let mut path = Vec::new();
    let mut node = 0;
    for &(_, a) in &bets[sub.root_bets..] {
        let Some((i, c)) = t
            .children(node)
            .enumerate()
            .find(|&(_, c)| t.edges[c] == Edge::Action(a))
        else {
            bail!("the spot raises past the strategy's cap of bets on a street: no value there")
        };
        path.push((node, i));
        node = c;
    }
    ensure!(
        t.nodes[node].kind == NodeKind::Action,
        "the spot is not a decision of the rest of the hand"
    );
    path.push((node, usize::MAX));
    Ok(path)
}

/// Each seat's reach at the end of `path`: its range at the subgame's root times its own
/// probabilities, under `rows` (slot weights), of the actions taken on the way.
fn reach_along(sub: &Subgame, rows: &[f64], path: &[(usize, usize)]) -> [Vec<f64>; 2] {
    let t = &sub.tree;
    let mut reach = sub.ranges.clone();
    for &(i, a) in &path[..path.len() - 1] {
        let node = &t.nodes[i];
        let k = node.num_children as usize;
        let r = &mut reach[node.seat as usize];
        for (h, &b) in t.bucket_table(node.board, node.seat).iter().enumerate() {
            if b == NONE {
                r[h] = 0.0;
                continue;
            }
            let at = node.first_slot() as usize + b as usize * k;
            let row = &rows[at..at + k];
            let total: f64 = row.iter().sum();
            r[h] *= if total > 0.0 {
                row[a] / total
            } else {
                1.0 / k as f64
            };
        }
    }
    reach
}

/// Per-hand sums behind exact values: each action's counterfactual value (chips times the
/// subgame's scale, times the opponent's reach on the holdings that do not collide) and that
/// reach.
struct Walked {
    cfv: Vec<Vec<f64>>,
    disjoint: Vec<f64>,
    own: Vec<f64>,
    scale: f64,
    committed: f64,
}

impl Walked {
    /// The line of the hands `hands`, each weighed by `weight(h)`.
    fn line(
        &self,
        hands: impl Iterator<Item = usize> + Clone,
        weight: impl Fn(usize) -> f64,
    ) -> Option<Line> {
        let den: f64 = hands.clone().map(|h| weight(h) * self.disjoint[h]).sum();
        if den <= 0.0 {
            return None;
        }
        let chips = (self.cfv.iter())
            .map(|v| {
                let num: f64 = hands.clone().map(|h| weight(h) * v[h]).sum();
                num / (self.scale * den) + self.committed
            })
            .collect();
        Some(Line {
            chips,
            plus_minus: None,
            difference_plus_minus: None,
            samples: 0,
            reached: true,
        })
    }

    /// The line of `hands` weighed by the player's own reach, or alike where it has none.
    fn weighed(&self, hands: &[usize]) -> Option<(Line, f64)> {
        let mass: f64 = hands.iter().map(|&h| self.own[h] * self.disjoint[h]).sum();
        match self.line(hands.iter().copied(), |h| self.own[h]) {
            Some(l) => Some((l, mass)),
            None => self.line(hands.iter().copied(), |_| 1.0).map(|mut l| {
                l.reached = false;
                (l, 0.0)
            }),
        }
    }
}

/// The exact values (see the module): the subgame from the first decision of the spot's street.
fn exact(
    player: &StrategyPlayer,
    state: &State,
    bets: &[Bet],
    hand: Option<&[Card]>,
    classes: Option<&Classes>,
    progress: &(dyn Fn(usize, usize) + Sync),
) -> Result<Values> {
    let seat = state.to_act().context("no one to act")?;
    progress(0, 4);
    let options = crate::resolve::Options {
        floor: 0.0,
        ..Default::default()
    };
    let sub = Subgame::at(player, state, bets, options)?;
    progress(1, 4);
    let rows = sub.policy_of(player)?;
    progress(2, 4);
    let path = path_to(&sub, bets)?;
    let node = path[path.len() - 1].0;
    let reach = reach_along(&sub, &rows, &path);
    let opp = &reach[1 - seat as usize];
    let t = &sub.tree;
    let children: Vec<usize> = t.children(node).collect();
    let cfv: Vec<Vec<f64>> = children
        .par_iter()
        .map(|&c| counterfactual_values_below(t, &rows, seat, Play::Follow, opp, c))
        .collect();
    progress(3, 4);
    let mut disjoint = vec![0.0; t.num_hands()];
    crate::terminal::disjoint_reach(t, opp, &mut disjoint);
    let w = Walked {
        cfv,
        disjoint,
        own: reach[seat as usize].clone(),
        scale: sub.scale,
        committed: state.committed(seat) as f64,
    };
    // The player's holdings here: the subgame's root hands, each the hands dealt from it.
    let mut of_root: Vec<Vec<usize>> = vec![Vec::new(); sub.roots.len()];
    for h in 0..t.num_hands() {
        of_root[sub.root_of(h)].push(h);
    }
    let hand = match hand {
        Some(h) => {
            let first = sub
                .hand_index(h)
                .context("the hand is not one the subgame holds")?;
            let line = w.line(of_root[sub.root_of(first)].iter().copied(), |_| 1.0);
            Some(line.context("the opponent's range holds no hand beside this one")?)
        }
        None => None,
    };
    let all: Vec<usize> = (0..t.num_hands()).collect();
    let (range, _) = w
        .weighed(&all)
        .context("neither range holds a hand beside the other's")?;
    let range = Some(range);
    let mut lines = Vec::new();
    if let Some(c) = classes {
        let up: CardSet = state.up_cards(seat).iter().copied().collect();
        let mut by_class: Vec<(usize, Vec<usize>)> = vec![(0, Vec::new()); c.names.len()];
        for (r, hands) in of_root.iter().enumerate() {
            let e = &mut by_class[c.classify(sub.roots[r], up)];
            e.0 += 1;
            e.1.extend_from_slice(hands);
        }
        let total: f64 = all.iter().map(|&h| w.own[h] * w.disjoint[h]).sum();
        for ((holdings, hands), name) in by_class.iter().zip(&c.names) {
            if let Some((values, mass)) = w.weighed(hands) {
                lines.push(ClassLine {
                    class: name.clone(),
                    holdings: *holdings,
                    share: if total > 0.0 { mass / total } else { 0.0 },
                    values,
                });
            }
        }
    }
    lines.sort_by(|a, b| b.share.total_cmp(&a.share));
    progress(4, 4);
    Ok(Values {
        method: Method::Exact,
        seat,
        actions: sub.actions(node),
        committed: state.committed(seat),
        pot: state.pot(),
        big_bet: state.def().big_bet,
        hand,
        range,
        classes: lines,
        classes_unsampled: 0,
        millis: 0.0,
    })
}

/// Sums of the samples of one line: count, and per action the sum and the sum of squares, and
/// per pair of actions the sum of products (for the differences' intervals).
#[derive(Clone)]
struct Sums {
    n: usize,
    sum: Vec<f64>,
    squares: Vec<f64>,
    /// `x[a] * x[b]` summed, at `a * k + b`.
    products: Vec<f64>,
}

impl Sums {
    fn new(k: usize) -> Sums {
        Sums {
            n: 0,
            sum: vec![0.0; k],
            squares: vec![0.0; k],
            products: vec![0.0; k * k],
        }
    }

    fn add(&mut self, x: &[f64]) {
        self.n += 1;
        let k = x.len();
        for (a, &v) in x.iter().enumerate() {
            self.sum[a] += v;
            self.squares[a] += v * v;
            for (b, &w) in x.iter().enumerate() {
                self.products[a * k + b] += v * w;
            }
        }
    }

    fn merge(&mut self, o: &Sums) {
        self.n += o.n;
        for a in 0..self.sum.len() {
            self.sum[a] += o.sum[a];
            self.squares[a] += o.squares[a];
        }
        for (p, q) in self.products.iter_mut().zip(&o.products) {
            *p += q;
        }
    }

    /// The 95% interval of each difference of two means (see [`Line::difference_plus_minus`]):
    /// the sample variance of `x[a] - x[b]` from the sums, over `n`.
    fn differences(&self, means: &[f64]) -> Vec<f64> {
        let (n, k) = (self.n as f64, means.len());
        let cov =
            |a: usize, b: usize| (self.products[a * k + b] - n * means[a] * means[b]) / (n - 1.0);
        (0..k * k)
            .map(|i| {
                let (a, b) = (i / k, i % k);
                let var = (cov(a, a) + cov(b, b) - 2.0 * cov(a, b)).max(0.0);
                1.96 * (var / n).sqrt()
            })
            .collect()
    }

    /// The means and their 95% intervals, from two samples on.
    fn line(&self) -> Option<Line> {
        if self.n < 2 {
            return None;
        }
        let n = self.n as f64;
        let chips: Vec<f64> = self.sum.iter().map(|s| s / n).collect();
        let plus_minus = (self.squares.iter().zip(&chips))
            .map(|(q, m)| {
                let var = ((q - n * m * m) / (n - 1.0)).max(0.0);
                1.96 * (var / n).sqrt()
            })
            .collect();
        Some(Line {
            difference_plus_minus: Some(self.differences(&chips)),
            chips,
            plus_minus: Some(plus_minus),
            samples: self.n,
            reached: true,
        })
    }
}

/// A seat's range as drawn from: the holdings' down cards in the order dealt, and the running
/// sum of their weights.
struct Drawn {
    cards: Vec<Vec<Card>>,
    sets: Vec<CardSet>,
    cumulative: Vec<f64>,
}

impl Drawn {
    /// The holdings of `range` sharing no card with `apart`.
    fn of(range: &crate::bot::range::HiddenRange, apart: CardSet) -> Result<Drawn> {
        let n = range.n();
        let (mut cards, mut sets, mut cumulative) = (Vec::new(), Vec::new(), Vec::new());
        let mut total = 0.0;
        for h in range.holdings() {
            if h.weight > 0.0 && h.set.intersection(apart).is_empty() {
                total += h.weight;
                cards.push(h.cards[..n].to_vec());
                sets.push(h.set);
                cumulative.push(total);
            }
        }
        ensure!(total > 0.0, "a seat's range holds no hand here");
        Ok(Drawn {
            cards,
            sets,
            cumulative,
        })
    }

    /// The player's own holding `hand` (its down cards in the order dealt), alone: its weight
    /// in the range does not matter.
    fn alone(hand: &[Card]) -> Drawn {
        Drawn {
            cards: vec![hand.to_vec()],
            sets: vec![hand.iter().copied().collect()],
            cumulative: vec![1.0],
        }
    }

    /// A holding drawn by weight.
    fn draw(&self, rng: &mut ChaCha8Rng) -> usize {
        use rand::RngExt;
        let total = self.cumulative[self.cumulative.len() - 1];
        let x = rng.random::<f64>() * total;
        self.cumulative
            .partition_point(|&c| c <= x)
            .min(self.cumulative.len() - 1)
    }
}

/// Every seat's holding drawn at once, each from its range (`None`: a seat without down
/// cards) by `pick`, and the whole table drawn again until no two holdings share a card: the
/// holdings in proportion to the product of their weights, the deal's own chance of them.
/// Drawing one seat and then the next apart from it is not that: it weighs the first seat's
/// holdings by its range alone, not by how many of the next's they leave. Writes an index into
/// each range to `out`; returns the cards held.
fn deal_jointly(
    ranges: &[Option<Drawn>],
    rng: &mut ChaCha8Rng,
    out: &mut [usize],
    pick: impl Fn(&Drawn, &mut ChaCha8Rng) -> usize,
) -> Result<CardSet> {
    'again: for _ in 0..MAX_DRAWS {
        let mut taken = CardSet::EMPTY;
        for (r, o) in ranges.iter().zip(out.iter_mut()) {
            if let Some(r) = r {
                *o = pick(r, rng);
                if !r.sets[*o].intersection(taken).is_empty() {
                    continue 'again;
                }
                taken = taken.union(r.sets[*o]);
            }
        }
        return Ok(taken);
    }
    bail!(
        "the seats' ranges hold almost no holdings beside one another ({MAX_DRAWS} draws of the \
         table)"
    )
}

/// What every sample shares: the spot, every seat's range, the actions.
struct Table<'a> {
    player: &'a StrategyPlayer,
    base: State,
    bets: &'a [Bet],
    seat: u8,
    actions: Vec<Action>,
    /// Per seat: its range (the player's own: its hand alone when given), or `None` for a seat
    /// without down cards.
    ranges: Vec<Option<Drawn>>,
    seen: CardSet,
    deck: CardSet,
    classes: Option<&'a Classes>,
    up: CardSet,
    seed: u64,
    /// Tests only: draw each seat's holding as if its betting had said nothing (uniformly from
    /// those it could hold), a biased estimator the exact check must catch.
    #[cfg(test)]
    uniform: bool,
}

impl Table<'_> {
    /// Every seat's holding drawn together ([`deal_jointly`]): an index into each range.
    fn deal(&self, rng: &mut ChaCha8Rng, out: &mut [usize]) -> Result<CardSet> {
        deal_jointly(&self.ranges, rng, out, |r, rng| self.pick(r, rng))
    }

    /// A holding of the range `r` drawn by weight.
    fn pick(&self, r: &Drawn, rng: &mut ChaCha8Rng) -> usize {
        #[cfg(test)]
        if self.uniform {
            return abstraction::draw::below(rng, r.sets.len());
        }
        r.draw(rng)
    }

    /// Sample `i`: the player's values of every action, and its holding's class.
    fn sample(&self, i: usize, held: &mut [usize], out: &mut [f64]) -> Result<usize> {
        let mut rng = sample_rng(self.seed, i);
        let taken = self.deal(&mut rng, held)?;
        let mut start = self.base.clone();
        for (s, r) in self.ranges.iter().enumerate() {
            if let Some(r) = r {
                start.show(s as u8, &r.cards[held[s]])?;
            }
        }
        let playouts = Playouts {
            player: self.player,
            start: &start,
            bets: self.bets,
            seat: self.seat,
        };
        let left = (self.deck.minus(self.seen)).minus(taken);
        playouts.play_each(&self.actions, left, &mut rng, out)?;
        let mine = match &self.ranges[self.seat as usize] {
            Some(r) => r.sets[held[self.seat as usize]],
            None => CardSet::EMPTY,
        };
        Ok(self.classes.map_or(0, |c| c.classify(mine, self.up)))
    }
}

/// Sample `i`'s own stream of a run seeded `seed`: samples apart, whatever thread draws them.
fn sample_rng(seed: u64, i: usize) -> ChaCha8Rng {
    let mix = (i as u64)
        .wrapping_add(1)
        .wrapping_mul(0x9E37_79B9_7F4A_7C15);
    ChaCha8Rng::seed_from_u64(seed ^ mix)
}

/// One sample's start: every card of the seats dealt, the cards to come in `pool`'s order.
struct Playouts<'a> {
    player: &'a StrategyPlayer,
    start: &'a State,
    bets: &'a [Bet],
    seat: u8,
}

impl Playouts<'_> {
    /// `seat`'s value of each action of `actions` into `out` (chips it ends the hand with
    /// beyond what it had when the spot began), each played out from the same draws: `left`,
    /// the cards no seat holds, shuffled by `rng` into the order the cards to come are dealt,
    /// and one seed from `rng` for every action's own draws. The differences are what a player
    /// compares.
    fn play_each(
        &self,
        actions: &[Action],
        left: CardSet,
        rng: &mut ChaCha8Rng,
        out: &mut [f64],
    ) -> Result<()> {
        let mut pool: Vec<Card> = left.iter().collect();
        abstraction::draw::shuffle(&mut pool, rng);
        let play_seed = rand::RngExt::random::<u64>(rng);
        let committed = self.start.committed(self.seat) as f64;
        let mut st = self.start.clone();
        let mut bets = Vec::with_capacity(self.bets.len() + 32);
        for (a, v) in actions.iter().zip(out.iter_mut()) {
            st.clone_from(self.start);
            bets.clear();
            bets.extend_from_slice(self.bets);
            let mut play = ChaCha8Rng::seed_from_u64(play_seed);
            *v = playout(
                self.player,
                &mut st,
                &mut bets,
                *a,
                &pool,
                self.seat,
                &mut play,
            )? + committed;
        }
        Ok(())
    }
}

/// Plays the hand at `st` (every card known, `bets` so far) to its end from the action
/// `first`, both seats drawing their actions from `player`'s policy, the cards to come from
/// `pool` in order; `seat`'s result for the whole hand.
fn playout(
    player: &StrategyPlayer,
    st: &mut State,
    bets: &mut Vec<Bet>,
    first: Action,
    pool: &[Card],
    seat: u8,
    rng: &mut ChaCha8Rng,
) -> Result<f64> {
    bets.push((st.street(), first));
    st.apply(first)?;
    let mut next = pool.iter();
    let mut probs = [0.0; crate::strategy_file::MAX_ACTIONS];
    loop {
        match st.next() {
            Next::Deal { .. } => st.deal(*next.next().context("the deck ran out")?)?,
            Next::Act { seat: s } => {
                let legal = st.legal_actions();
                let p = &mut probs[..legal.len()];
                player.policy(st, bets, s, &legal, p)?;
                let a = legal[sample(p, rng)];
                bets.push((st.street(), a));
                st.apply(a)?;
            }
            Next::Over => {
                let pay = st.payoffs().context("a showdown of unknown cards")?;
                return Ok(pay[seat as usize] as f64);
            }
        }
    }
}

/// An estimate's lines by class (`by`: the sums of each class's samples, of `total`;
/// `holdings`: the player's holdings, showing `up`), the commonest first, and how many classes
/// holding some of them were met in fewer than two samples.
fn class_lines(
    c: &Classes,
    by: &[Sums],
    holdings: &[CardSet],
    up: CardSet,
    total: usize,
) -> (Vec<ClassLine>, usize) {
    let mut held = vec![0usize; c.names.len()];
    for s in holdings {
        held[c.classify(*s, up)] += 1;
    }
    let (mut lines, mut unsampled) = (Vec::new(), 0);
    for ((name, s), &held) in c.names.iter().zip(by).zip(&held) {
        match s.line() {
            Some(values) => lines.push(ClassLine {
                class: name.clone(),
                holdings: held,
                share: s.n as f64 / total as f64,
                values,
            }),
            None if held > 0 => unsampled += 1,
            None => {}
        }
    }
    lines.sort_by(|a, b| b.share.total_cmp(&a.share));
    (lines, unsampled)
}

/// The estimated values (see the module).
fn estimate(
    player: &StrategyPlayer,
    state: &State,
    bets: &[Bet],
    hand: Option<&[Card]>,
    classes: Option<&Classes>,
    options: Options,
    progress: &(dyn Fn(usize, usize) + Sync),
) -> Result<Values> {
    let seat = state.to_act().context("no one to act")?;
    let r = replay(player, state, bets, 0.0, |_| false)?;
    ensure!(
        r.read == bets.len() && r.state.to_act() == Some(seat),
        "the ranges' replay stopped before the spot"
    );
    let mine: CardSet = hand.map_or(CardSet::EMPTY, |h| h.iter().copied().collect());
    let hero = match hand {
        // The player's own holding, alone: its weight in the range does not matter.
        Some(h) => Drawn::alone(h),
        None => Drawn::of(&r.ranges[seat as usize], CardSet::EMPTY)?,
    };
    let villain = Drawn::of(&r.ranges[1 - seat as usize], mine)?;
    let ranges = match seat {
        0 => vec![Some(hero), Some(villain)],
        _ => vec![Some(villain), Some(hero)],
    };
    let spot = Table {
        player,
        actions: r.state.legal_actions(),
        base: r.state,
        bets,
        seat,
        ranges,
        seen: r.seen,
        deck: state.def().deck.cards(),
        classes,
        up: state.up_cards(seat).iter().copied().collect(),
        seed: options.seed,
        #[cfg(test)]
        uniform: false,
    };
    estimate_with(spot, state, hand.is_some(), options, progress)
}

/// The samples of `spot` summed ([`sum_samples`]), and the lines made of them.
fn estimate_with(
    spot: Table<'_>,
    state: &State,
    given: bool,
    options: Options,
    progress: &(dyn Fn(usize, usize) + Sync),
) -> Result<Values> {
    let total = options.samples;
    let (all, by) = sum_samples(
        spot.actions.len(),
        spot.classes.map_or(1, |c| c.names.len()),
        total,
        progress,
        || vec![0; spot.ranges.len()],
        |i, held, out| spot.sample(i, held, out),
    )?;
    let line: Line = all.line().context("fewer than two samples")?;
    let (range, hand) = match given {
        true => (None, Some(line)),
        false => (Some(line), None),
    };
    let seat = spot.seat as usize;
    let (lines, unsampled) = match (spot.classes, &spot.ranges[seat], given) {
        (Some(c), Some(r), false) => class_lines(c, &by, &r.sets, spot.up, total),
        _ => (Vec::new(), 0),
    };
    Ok(Values {
        method: Method::Estimate,
        seat: spot.seat,
        actions: spot.actions,
        committed: state.committed(spot.seat),
        pot: state.pot(),
        big_bet: state.def().big_bet,
        hand,
        range,
        classes: lines,
        classes_unsampled: unsampled,
        millis: 0.0,
    })
}

/// `total` samples of `k` action values summed overall and by class (`n_classes`), in chunks
/// in parallel summed in chunk order: the same bits on any number of threads. `sample(i,
/// scratch, out)` writes sample `i`'s values into `out` and returns its class; each chunk
/// makes its own `scratch`.
fn sum_samples<S>(
    k: usize,
    n_classes: usize,
    total: usize,
    progress: &(dyn Fn(usize, usize) + Sync),
    scratch: impl Fn() -> S + Sync,
    sample: impl Fn(usize, &mut S, &mut [f64]) -> Result<usize> + Sync,
) -> Result<(Sums, Vec<Sums>)> {
    let done = AtomicUsize::new(0);
    progress(0, total);
    let chunks: Vec<(Sums, Vec<Sums>)> = (0..total.div_ceil(CHUNK))
        .into_par_iter()
        .map(|c| {
            let (mut all, mut by) = (Sums::new(k), vec![Sums::new(k); n_classes]);
            let mut out = vec![0.0; k];
            let mut own = scratch();
            for i in c * CHUNK..((c + 1) * CHUNK).min(total) {
                let class = sample(i, &mut own, &mut out)?;
                all.add(&out);
                by[class].add(&out);
            }
            let n = ((c + 1) * CHUNK).min(total) - c * CHUNK;
            progress(done.fetch_add(n, Ordering::Relaxed) + n, total);
            Ok((all, by))
        })
        .collect::<Result<_>>()?;
    let (mut all, mut by) = (Sums::new(k), vec![Sums::new(k); n_classes]);
    for (a, b) in &chunks {
        all.merge(a);
        b.iter().zip(&mut by).for_each(|(x, y)| y.merge(x));
    }
    Ok((all, by))
}

mod multiway;
pub mod policy;
pub mod table_exact;
#[cfg(test)]
mod tests;
