//! A later street (4th street on) of a heads-up strategy at once, across deals: over sampled
//! deals that both seats play by the file, at each decision of the street, the acting
//! player's probabilities of the actions, grouped by its spot (no bet yet, facing a bet,
//! facing a raise), its hand class (`stud query`'s classes, [`crate::describe::Classes`]) and
//! the opponent's board (its up cards, [`Boards`]).
//!
//! Each deal is played once, each action drawn from the acting seat's probabilities, so a
//! decision turns up as often as the strategies reach it: a row is the mean of its decisions'
//! probabilities, weighed by how often the deals reach them. The seed fixes the deals and the
//! plays, whatever the number of threads (deals are cut into fixed chunks, summed in order).

use super::Boards;
use crate::bot::matches::{stream, DealCards};
use crate::bot::{choose, Bet, StrategyPlayer};
use crate::describe::Classes;
use abstraction::cards::CardSet;
use abstraction::rules::{Action, Next, State};
use anyhow::{bail, ensure, Context, Result};
use rayon::prelude::*;
use serde::Serialize;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Arc;

/// The actions counted, in this order.
pub const ACTIONS: [&str; 5] = ["check", "bet", "fold", "call", "raise"];

/// Where the acting player stands in the street's betting.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Facing {
    /// No bet yet this street: first to act, or checked to.
    NoBet,
    /// One bet to call.
    Bet,
    /// A raise (or more) to call.
    Raise,
}

impl Facing {
    /// Every spot, in the order of the rows.
    pub const ALL: [Facing; 3] = [Facing::NoBet, Facing::Bet, Facing::Raise];

    /// The spot in a player's words.
    pub fn words(self) -> &'static str {
        match self {
            Facing::NoBet => "first to act or checked to",
            Facing::Bet => "facing a bet",
            Facing::Raise => "facing a raise",
        }
    }
}

/// One decision of the street, as the aggregate counts it.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Decision {
    /// The acting player's spot.
    pub facing: Facing,
    /// Its hand class (an index into [`Classes::names`]).
    pub class: usize,
    /// The opponent's board class (an index into [`Boards::names`]).
    pub board: usize,
    /// Its probability of each of [`ACTIONS`].
    pub frequencies: [f64; 5],
}

/// Reads the decision at `state` (every card of the acting seat known) after `bets`, where the
/// acting seat's probabilities over `legal` are `probs`.
pub fn decision(
    classes: &Classes,
    boards: &Boards,
    state: &State,
    bets: &[Bet],
    legal: &[Action],
    probs: &[f64],
) -> Result<Decision> {
    let seat = state.to_act().context("no decision is due")?;
    let other = 1 - seat;
    let to_call = state.round_bet(other) > state.round_bet(seat);
    let raised = (bets.iter())
        .filter(|(s, a)| *s == state.street() && matches!(a, Action::CompleteBetRaise(_)))
        .count();
    let facing = match (to_call, raised) {
        (false, _) => Facing::NoBet,
        (true, 0 | 1) => Facing::Bet,
        (true, _) => Facing::Raise,
    };
    let mut frequencies = [0.0; 5];
    for (a, p) in legal.iter().zip(probs) {
        let column = match (a, to_call) {
            (Action::CheckCall, false) => 0,
            (Action::CompleteBetRaise(_), false) => 1,
            (Action::Fold, _) => 2,
            (Action::CheckCall, true) => 3,
            (Action::CompleteBetRaise(_), true) => 4,
            (Action::BringIn, _) => bail!("a bring-in after third street"),
        };
        frequencies[column] += p;
    }
    let down: Option<CardSet> = state.down_cards(seat).iter().copied().collect();
    let down = down.context("the acting seat's down cards are not known")?;
    let up = CardSet::from_iter(state.up_cards(seat).iter().copied());
    Ok(Decision {
        facing,
        class: classes.classify(down, up),
        board: boards.classify(state.up_cards(other)),
        frequencies,
    })
}

/// One row: a spot, a hand class against a board class, where some decision fell.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Row {
    /// The acting player's spot.
    pub facing: Facing,
    /// Its hand class.
    pub class: String,
    /// The opponent's board class.
    pub board: String,
    /// Decisions that fell in the row.
    pub decisions: u64,
    /// The mean probability of each of [`ACTIONS`] over those decisions.
    pub frequencies: [f64; 5],
}

/// A later street aggregated.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct LaterStreet {
    /// The street (0 = the first).
    pub street: usize,
    /// The street as players say it ("5th street").
    pub street_name: String,
    /// Deals played.
    pub deals: u64,
    /// The seed of the deals and plays.
    pub seed: u64,
    /// Deals in which the street had a decision (both seats still in).
    pub reached: u64,
    /// Decisions counted (every row's together).
    pub decisions: u64,
    /// The street's hand classes, strongest first.
    pub classes: Vec<String>,
    /// The board classes, strongest first.
    pub boards: Vec<String>,
    /// The rows where a decision fell: spot by spot, hand classes strongest first, then
    /// boards strongest first.
    pub rows: Vec<Row>,
}

/// The sums of one chunk of deals: per cell (spot, class, board), decisions and probability
/// sums; and the deals that reached the street.
#[derive(Clone)]
struct Sums {
    count: Vec<u64>,
    sum: Vec<[f64; 5]>,
    reached: u64,
}

impl Sums {
    fn new(cells: usize) -> Sums {
        Sums {
            count: vec![0; cells],
            sum: vec![[0.0; 5]; cells],
            reached: 0,
        }
    }

    fn add(&mut self, o: &Sums) {
        for (a, b) in self.count.iter_mut().zip(&o.count) {
            *a += b;
        }
        for (a, b) in self.sum.iter_mut().zip(&o.sum) {
            for (x, y) in a.iter_mut().zip(b) {
                *x += y;
            }
        }
        self.reached += o.reached;
    }
}

/// Deals per chunk: the unit of parallel work, fixed so that sums are in the same order on any
/// number of threads.
const CHUNK: u64 = 64;

/// Aggregates `street` (0-based, after the first) of `player`'s heads-up file over `deals`
/// deals of `seed`, both seats played by the file; `progress` is told the deals done.
pub fn later_street(
    player: &StrategyPlayer,
    street: usize,
    deals: u64,
    seed: u64,
    progress: &(dyn Fn(u64) + Sync),
) -> Result<LaterStreet> {
    let def = Arc::new(player.file().game().clone());
    ensure!(
        def.seats == 2,
        "later streets are aggregated for heads-up files: {} has {} seats",
        def.variant.name(),
        def.seats
    );
    let last = def.streets.len() - 1;
    ensure!(
        (1..=last).contains(&street),
        "{} is not a later street of {} ({} to {})",
        def.street_name(street),
        def.variant.name(),
        def.street_name(1.min(last)),
        def.street_name(last)
    );
    let bucketing = (player.file().betting())
        .context("hand classes need a real game's file (its card abstraction)")?
        .bucketing();
    let classes = Classes::of(bucketing, street);
    let boards = Boards::of(def.variant.showdown());
    let (nc, nb) = (classes.names.len(), boards.names().len());
    let cells = Facing::ALL.len() * nc * nb;
    let done = AtomicU64::new(0);
    let chunks: Vec<Sums> = (0..deals.div_ceil(CHUNK))
        .into_par_iter()
        .map(|c| {
            let mut sums = Sums::new(cells);
            for i in c * CHUNK..((c + 1) * CHUNK).min(deals) {
                play(player, &def, &classes, &boards, street, seed, i, &mut sums)
                    .with_context(|| format!("deal {i} of seed {seed}"))?;
            }
            let n = ((c + 1) * CHUNK).min(deals) - c * CHUNK;
            progress(done.fetch_add(n, Ordering::Relaxed) + n);
            Ok(sums)
        })
        .collect::<Result<_>>()?;
    let mut total = Sums::new(cells);
    for s in &chunks {
        total.add(s);
    }
    let mut rows = Vec::new();
    for (k, (&n, sum)) in total.count.iter().zip(&total.sum).enumerate() {
        if n == 0 {
            continue;
        }
        rows.push(Row {
            facing: Facing::ALL[k / (nc * nb)],
            class: classes.names[k / nb % nc].clone(),
            board: boards.names()[k % nb].to_string(),
            decisions: n,
            frequencies: sum.map(|x| x / n as f64),
        });
    }
    Ok(LaterStreet {
        street,
        street_name: def.street_name(street),
        deals,
        seed,
        reached: total.reached,
        decisions: total.count.iter().sum(),
        classes: classes.names.clone(),
        boards: boards.names().iter().map(|b| b.to_string()).collect(),
        rows,
    })
}

/// Plays deal `index` of `seed` until `street` is over, adding its decisions there to `sums`.
#[allow(clippy::too_many_arguments)]
fn play(
    player: &StrategyPlayer,
    def: &Arc<abstraction::rules::GameDef>,
    classes: &Classes,
    boards: &Boards,
    street: usize,
    seed: u64,
    index: u64,
    sums: &mut Sums,
) -> Result<()> {
    let cards = DealCards::random(def, &mut stream(seed, index, 0));
    let mut rng = stream(seed, index, 1);
    let mut state = State::with_def(def.clone())?;
    let mut bets: Vec<Bet> = Vec::new();
    let mut probs = [0.0; crate::strategy_file::MAX_ACTIONS];
    let mut reached = false;
    let (nc, nb) = (classes.names.len(), boards.names().len());
    loop {
        match state.next() {
            Next::Deal { seat, .. } => cards.deal_next(&mut state, seat, None)?,
            Next::Act { .. } if state.street() > street => break,
            Next::Act { .. } => {
                let legal = state.legal_actions();
                let (action, _) = choose(player, &state, &bets, &legal, &mut probs, &mut rng)?;
                if state.street() == street {
                    let d = decision(classes, boards, &state, &bets, &legal, &probs)?;
                    let k = (d.facing as usize * nc + d.class) * nb + d.board;
                    sums.count[k] += 1;
                    for (s, f) in sums.sum[k].iter_mut().zip(d.frequencies) {
                        *s += f;
                    }
                    reached = true;
                }
                bets.push((state.street(), action));
                state.apply(action)?;
            }
            Next::Over => break,
        }
    }
    sums.reached += reached as u64;
    Ok(())
}
