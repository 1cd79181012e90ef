//! Hand-history review: each decision of one player (the hero) in PHH hands, against the
//! strategy for the hand's game and table (`stud review`).
//!
//! A hand is replayed through the rules engine (under the card-room rules, else PokerKit's when
//! only they play it: PokerKit writes the hands it deals under its own). At each of the hero's
//! decisions the strategy is asked as a player is ([`crate::bot::Player::policy`], its rows as
//! stored): the probability of the action taken and the action it prefers (its most likely).
//! On a heads-up file the values of the actions ([`crate::values`], estimated with a 95%
//! interval, or exact on the last streets when asked: seconds a decision) give the value lost: the best action's value less
//! the taken one's, for the hero's own cards. A multiway file has no values: its decisions are
//! judged by frequency alone, and the review says so.
//!
//! A **leak** is a decision whose action the strategy takes rarely (below
//! [`Options::threshold`]), or that loses value beyond the estimate's noise: more than
//! [`Options::min_loss`] big bets and more than its interval. The interval of a loss is the two
//! values' intervals added in quadrature: the estimate plays every action from the same deals
//! (common random numbers), which correlates the two positively, so the difference's true
//! interval is narrower and the test errs towards calling a decision sound. [`leaks`] sums the
//! decisions by street and kind of spot, by kind of action, and by the three together.

pub mod leaks;
pub mod spot;
pub mod table;

pub use leaks::{summarize, Group, Summary};
pub use spot::{ActionKind, SpotKind};
pub use table::{Strategies, Table};

use crate::values::{self, Method};
use abstraction::cards::Card;
use abstraction::phh::{self, HandHistory, Replay};
use abstraction::rules::notation::action_words;
use abstraction::rules::Profile;
use abstraction::rules::{seat_name, seat_number};
use anyhow::{bail, Context, Result};
use rayon::prelude::*;
use serde::Serialize;
use std::str::FromStr;
use std::sync::atomic::{AtomicUsize, Ordering};

/// The frequency below which an action taken is a leak unless asked otherwise.
pub const DEFAULT_THRESHOLD: f64 = 0.10;

/// The loss, in big bets, below which a decision is not a leak by value unless asked otherwise.
pub const DEFAULT_MIN_LOSS: f64 = 0.05;

/// Samples per estimated decision unless asked: modest, so that a hundred hands take about a
/// minute on two cores; the interval says what they are worth.
pub const DEFAULT_SAMPLES: usize = 200;

/// The player reviewed: a seat or a name of the hand's `players` field.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Hero {
    /// A seat, 0-based (`p1` is 0).
    Seat(u8),
    /// A name, as the `players` field writes it.
    Name(String),
}

impl FromStr for Hero {
    type Err = String;

    /// `p1`..`p8` (any case) is a seat; anything else non-empty is a name.
    fn from_str(s: &str) -> Result<Hero, String> {
        let t = s.trim();
        if t.is_empty() {
            return Err("the hero: give a seat (p1, p2, ...) or a player's name".into());
        }
        Ok(match seat_number(t) {
            Some(n) if (1..=8).contains(&n) => Hero::Seat(n - 1),
            Some(n) => return Err(format!("the hero: p{n} is no seat (p1 to p8)")),
            None => Hero::Name(t.to_string()),
        })
    }
}

/// How a review judges and values.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Options {
    /// A taken action the strategy plays less often than this is a leak.
    pub threshold: f64,
    /// A loss of fewer big bets than this is no leak.
    pub min_loss: f64,
    /// The values' estimates; `None`: no values (frequencies only).
    pub values: Option<values::Options>,
    /// Exact values where the rest of the hand can be walked (the last streets heads-up:
    /// seconds a decision), else estimated everywhere.
    pub exact: bool,
}

impl Default for Options {
    fn default() -> Options {
        Options {
            threshold: DEFAULT_THRESHOLD,
            min_loss: DEFAULT_MIN_LOSS,
            values: Some(values::Options {
                samples: DEFAULT_SAMPLES,
                seed: 1,
            }),
            exact: false,
        }
    }
}

/// The values of a decision's legal actions for the hero's cards.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct ActionValues {
    /// Exact or estimated.
    pub method: Method,
    /// Chips from the decision on, per legal action (`None`: an action the strategy's
    /// abstraction does not hold).
    pub chips: Vec<Option<f64>>,
    /// An estimate's 95% interval per action, ± chips.
    pub plus_minus: Option<Vec<Option<f64>>>,
    /// The legal action of the highest value.
    pub best: usize,
    /// The best value less the taken action's, in chips (at least 0).
    pub loss: f64,
    /// An estimate's 95% interval of the loss, ± chips (see the module).
    pub loss_plus_minus: Option<f64>,
}

/// One decision of the hero, reviewed.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Reviewed {
    /// The street, 0 the first betting round.
    pub street: usize,
    /// Its name (3rd street, ...).
    pub street_name: String,
    /// What the hero faced.
    pub spot: SpotKind,
    /// What it did.
    pub action: ActionKind,
    /// The legal actions in PHH codes (`f`, `cc`, `pb`, `cbr 10`).
    pub codes: Vec<String>,
    /// The legal actions in a player's words.
    pub words: Vec<String>,
    /// The legal action taken.
    pub taken: usize,
    /// The strategy's probability of each legal action.
    pub frequencies: Vec<f64>,
    /// Whether the strategy's row had no weight on any legal action (all of it then goes to
    /// the check or call: [`crate::bot::Answer::Fallback`]).
    pub fallback: bool,
    /// The legal action the strategy plays most often.
    pub preferred: usize,
    /// The values, where found.
    pub values: Option<ActionValues>,
    /// Why there are no values, where there are none.
    pub no_values: Option<String>,
    /// The hero's down cards.
    pub down: Vec<String>,
    /// Every seat's up cards (p1 first).
    pub up: Vec<Vec<String>>,
    /// The seats still in the hand, 0-based.
    pub live: Vec<u8>,
    /// The pot before the action, in chips.
    pub pot: u64,
    /// The taken action is rarer in the strategy than the threshold.
    pub rare: bool,
    /// The taken action loses value beyond the threshold and the interval.
    pub losing: bool,
}

impl Reviewed {
    /// Whether the decision is a leak (rare or losing).
    pub fn leak(&self) -> bool {
        self.rare || self.losing
    }

    /// The strategy's probability of the action taken.
    pub fn frequency(&self) -> f64 {
        self.frequencies[self.taken]
    }

    /// The value lost, in chips, where found.
    pub fn loss(&self) -> Option<f64> {
        self.values.as_ref().map(|v| v.loss)
    }
}

/// One hand reviewed.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct HandReview {
    /// Where the hand was read: the file, and `[n]` in a many-hand file.
    pub source: String,
    /// The game's variant.
    pub game: String,
    /// The seats.
    pub seats: u8,
    /// The rules it was replayed under (`card-room` or `pokerkit`).
    pub rules: &'static str,
    /// The strategy file reviewed against.
    pub strategy: String,
    /// The hero's seat, 0-based.
    pub hero: u8,
    /// The seats' names from the `players` field, if any.
    pub players: Option<Vec<String>>,
    /// The big bet, in chips (losses are also given in big bets).
    pub big_bet: u64,
    /// The hero's decisions.
    pub decisions: Vec<Reviewed>,
    /// The hero's net result, when the hand is over.
    pub net: Option<i64>,
    /// Why no decision of the hand has values, if none can (a multiway strategy, or values not
    /// asked for).
    pub no_values: Option<String>,
}

/// The `players` names of `h`, if it has them.
fn player_names(h: &HandHistory) -> Option<Vec<String>> {
    let toml::Value::Array(a) = h.field("players")? else {
        return None;
    };
    a.iter().map(|v| v.as_str().map(str::to_string)).collect()
}

/// The hero's seat in `h`.
pub fn hero_seat(h: &HandHistory, hero: &Hero) -> Result<u8> {
    match hero {
        Hero::Seat(s) if usize::from(*s) < h.players() => Ok(*s),
        Hero::Seat(s) => bail!(
            "the hero {} is not at this table of {} seats",
            seat_name(*s),
            h.players()
        ),
        Hero::Name(n) => {
            let Some(names) = player_names(h) else {
                bail!("the hand has no `players` field to find the hero {n:?} in: give a seat (p1, p2, ...)")
            };
            match names.iter().position(|x| x == n) {
                Some(i) => Ok(i as u8),
                None => bail!(
                    "no player named {n:?} in this hand (players: {})",
                    names.join(", ")
                ),
            }
        }
    }
}

/// Replays `h` under the card-room rules, else PokerKit's, with a strategy that fits the game
/// under the same rules.
fn replay_with(
    h: &HandHistory,
    strategies: &mut Strategies,
) -> Result<(Replay, Profile, std::sync::Arc<Table>, String)> {
    let mut first_error = None;
    for profile in [Profile::CardRoom, Profile::PokerKit] {
        let r = match phh::replay(h, profile) {
            Ok(r) => r,
            Err(e) => {
                first_error.get_or_insert_with(|| anyhow::anyhow!("the hand does not replay: {e}"));
                continue;
            }
        };
        match strategies.for_game(&r.def) {
            Ok((t, path)) => {
                let path = path.display().to_string();
                return Ok((r, profile, t, path));
            }
            Err(e) => {
                first_error.get_or_insert(e);
            }
        }
    }
    Err(first_error.expect("two profiles tried"))
}

/// Reviews the hero's decisions of `h` (read from `source`) against the strategy of its game
/// in `strategies`, as `options` says. `progress` is told each decision done and their total.
pub fn review_hand(
    h: &HandHistory,
    source: &str,
    hero: &Hero,
    strategies: &mut Strategies,
    options: &Options,
    progress: &(dyn Fn(usize, usize) + Sync),
) -> Result<HandReview> {
    let seat = hero_seat(h, hero)?;
    let (r, profile, table, strategy) = replay_with(h, strategies)?;
    let spots = spot::hero_spots(&r, seat)?;
    let no_values = match (&*table, options.values) {
        (Table::Multiway(_), _) => {
            Some("a multiway strategy has no values of actions: judged by frequency".to_string())
        }
        (_, None) => Some("values not asked for".to_string()),
        _ => None,
    };
    // The decisions in parallel: each one's values replay the ranges from the start of the
    // hand, the bulk of the work (the buckets of every holding on every street).
    let done = AtomicUsize::new(0);
    progress(0, spots.len());
    let decisions = (spots.par_iter())
        .map(|s| {
            let d = review_decision(&r, s, &table, options);
            progress(done.fetch_add(1, Ordering::Relaxed) + 1, spots.len());
            d
        })
        .collect::<Result<Vec<_>>>()?;
    Ok(HandReview {
        source: source.to_string(),
        game: r.def.variant.name().to_string(),
        seats: r.def.seats,
        rules: match profile {
            Profile::CardRoom => "card-room",
            Profile::PokerKit => "pokerkit",
        },
        strategy,
        hero: seat,
        players: player_names(h),
        big_bet: r.def.big_bet,
        net: r.payoffs.as_ref().map(|p| p[seat as usize]),
        decisions,
        no_values,
    })
}

/// Cards as text.
fn texts(cards: impl IntoIterator<Item = Card>) -> Vec<String> {
    cards.into_iter().map(|c| c.to_string()).collect()
}

/// Reviews one decision.
fn review_decision(
    r: &Replay,
    s: &spot::HeroSpot,
    table: &Table,
    options: &Options,
) -> Result<Reviewed> {
    let d = &r.decisions[s.index];
    let state = &s.own;
    let mut frequencies = vec![0.0; d.legal.len()];
    let answer = (table.player())
        .policy(state, &s.bets, d.seat, &d.legal, &mut frequencies)
        .with_context(|| format!("the strategy at the hero's decision on line {}", d.line))?;
    let taken =
        (d.legal.iter().position(|&a| a == d.taken)).context("the action taken is legal")?;
    let preferred = argmax(&frequencies);
    let (values, no_values) = match (table, options.values) {
        (Table::HeadsUp(p), Some(o)) => {
            let v = values::values_by(
                p,
                &s.public,
                &s.bets,
                Some(&s.down),
                o,
                options.exact,
                &|_, _| {},
            );
            match v {
                Ok(v) => (Some(action_values(&v, &d.legal, taken)?), None),
                Err(e) => (None, Some(format!("{e:#}"))),
            }
        }
        _ => (None, None),
    };
    let big_bet = r.def.big_bet as f64;
    let losing = values.as_ref().is_some_and(|v| {
        v.loss >= options.min_loss * big_bet && v.loss > v.loss_plus_minus.unwrap_or(0.0)
    });
    let seats = state.def().seats;
    Ok(Reviewed {
        street: d.street,
        street_name: r.def.street_name(d.street),
        spot: spot::spot_kind(state, &s.bets),
        action: spot::action_kind(state, d.taken),
        codes: d.legal.iter().map(|a| a.to_string()).collect(),
        words: d.legal.iter().map(|&a| action_words(state, a)).collect(),
        taken,
        rare: frequencies[taken] < options.threshold,
        frequencies,
        fallback: answer == crate::bot::Answer::Fallback,
        preferred,
        losing,
        values,
        no_values,
        down: texts(s.down.iter().copied()),
        up: (0..seats)
            .map(|p| texts(state.up_cards(p).iter().copied()))
            .collect(),
        live: (0..seats).filter(|&p| !state.folded(p)).collect(),
        pot: state.pot(),
    })
}

/// The index of the largest entry (the first of equals).
fn argmax(x: &[f64]) -> usize {
    (0..x.len()).fold(0, |b, i| if x[i] > x[b] { i } else { b })
}

/// The values `v` (of the hero's hand) onto the legal actions `legal`, and the loss of the
/// action `taken`.
fn action_values(
    v: &values::Values,
    legal: &[abstraction::rules::Action],
    taken: usize,
) -> Result<ActionValues> {
    let line = v.hand.as_ref().context("the values of the hero's hand")?;
    let at = |a| v.actions.iter().position(|&x| x == a);
    let chips: Vec<Option<f64>> = legal
        .iter()
        .map(|&a| at(a).map(|i| line.chips[i]))
        .collect();
    let plus_minus = (line.plus_minus.as_ref()).map(|pm| {
        legal
            .iter()
            .map(|&a| at(a).map(|i| pm[i]))
            .collect::<Vec<_>>()
    });
    let taken_value = chips[taken].context(
        "the action taken is not one the strategy's abstraction holds here: no value for it",
    )?;
    let best = (0..legal.len())
        .filter(|&i| chips[i].is_some())
        .fold(taken, |b, i| if chips[i] > chips[b] { i } else { b });
    let loss = (chips[best].unwrap_or(taken_value) - taken_value).max(0.0);
    let loss_plus_minus = plus_minus.as_ref().map(|pm| {
        let (a, b) = (pm[best].unwrap_or(0.0), pm[taken].unwrap_or(0.0));
        if best == taken {
            0.0
        } else {
            (a * a + b * b).sqrt()
        }
    });
    Ok(ActionValues {
        method: v.method,
        chips,
        plus_minus,
        best,
        loss,
        loss_plus_minus,
    })
}

/// Reads the hands of a PHH or PHHS file's `text` (read from `file`): each hand's source
/// (`file [n]`) and the hand, or a parse error naming the file's line.
pub fn read_hands(file: &str, text: &str) -> Vec<(String, Result<HandHistory>)> {
    phh::hands_of(text)
        .into_iter()
        .map(|t| {
            let source = match t.name {
                Some(n) => format!("{file} [{n}]"),
                None => file.to_string(),
            };
            let h = HandHistory::parse(t.text).map_err(|e| {
                anyhow::anyhow!("line {}: `{}`: {}", t.file_line(e.line), e.text, e.reason)
            });
            (source, h)
        })
        .collect()
}

#[cfg(test)]
mod tests;
