//! Drills: a person decides at a spot of a heads-up real game, and a strategy file (the coach)
//! says how it would have played there and what the choice cost. What `stud play --train` and
//! `stud explore`'s Train tab show.
//!
//! At each decision the feedback ([`Feedback`]) holds the coach's probabilities for the
//! person's own cards (its row, played as stored) and the value of each legal action for those
//! cards ([`crate::values`]: exact on the last streets, else estimated with a 95% interval),
//! both seats playing the coach from there. The value lost by a choice is the best action's
//! value less the chosen one's, in chips (0 for the best action). Where the values are
//! estimated the loss has its own interval, from the same draws (narrower than the two values'
//! together); and the best action is the best of the estimates, so a small loss there may be
//! noise. A [`Score`] adds the decisions of a run: total and mean loss, how often the choice
//! was one the coach plays often enough, the worst decisions.

use crate::bot::matches::{table_stream, DealCards};
use crate::bot::{sample, Bet, Player, StrategyPlayer};
pub use crate::public_view::{public_view, Seen};
use crate::values::{self, Method, Options};
use abstraction::cards::Card;
use abstraction::rules::{Action, Next, State};
use anyhow::{ensure, Context, Result};
use serde::Serialize;

/// What one decision was worth (see the module).
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Feedback {
    /// The street (0 the first).
    pub street: usize,
    /// The seat that decided.
    pub seat: u8,
    /// The legal actions, in the rules engine's order.
    #[serde(skip)]
    pub actions: Vec<Action>,
    /// The coach's probability of each action with the person's cards.
    pub frequencies: Vec<f64>,
    /// The value of each action in chips from the decision on (a fold is worth 0).
    pub values: Vec<f64>,
    /// An estimate's 95% interval per value, ± chips; `None` when exact.
    pub plus_minus: Option<Vec<f64>>,
    /// Exact or estimated.
    pub method: Method,
    /// The action chosen (an index into `actions`).
    pub chosen: usize,
    /// The action of the highest value.
    pub best: usize,
    /// The value lost by the choice: the best value less the chosen one's, in chips (>= 0).
    pub loss: f64,
    /// An estimate's 95% interval of the loss, ± chips (0 when the best was chosen); `None`
    /// when exact.
    pub loss_plus_minus: Option<f64>,
    /// The game's big bet, in chips (a loss in big bets is `loss / big_bet`).
    pub big_bet: u64,
}

impl Feedback {
    /// The coach's probability of the action chosen.
    pub fn chosen_frequency(&self) -> f64 {
        self.frequencies[self.chosen]
    }
}

/// The feedback on choosing `chosen` at the decision `state` (real cards; the seat to act holds
/// its own), reached by `bets`, with `coach` (a heads-up betting-tree file, its rows played as
/// stored) the judge. `options` and `progress` are the estimate's ([`values::values`]).
pub fn feedback(
    coach: &StrategyPlayer,
    state: &State,
    bets: &[Bet],
    chosen: Action,
    options: Options,
    progress: &(dyn Fn(usize, usize) + Sync),
) -> Result<Feedback> {
    let seat = state
        .to_act()
        .context("no one is to act: nothing to drill")?;
    let actions = state.legal_actions();
    let chosen = (actions.iter().position(|&a| a == chosen))
        .with_context(|| format!("{chosen} is not legal here"))?;
    let mut frequencies = vec![0.0; actions.len()];
    coach.policy(state, bets, seat, &actions, &mut frequencies)?;
    let hand: Vec<Card> = (state.down_cards(seat).iter())
        .map(|c| c.context("the seat's own down cards are unknown"))
        .collect::<Result<_>>()?;
    let (view, _) = public_view(state, bets)?;
    let v = values::values(coach, &view, bets, Some(&hand), options, progress)?;
    ensure!(
        v.actions == actions,
        "the values' actions are not the spot's"
    );
    let line = v.hand.context("the values of the hand")?;
    let best = (0..actions.len())
        .max_by(|&a, &b| line.chips[a].total_cmp(&line.chips[b]))
        .context("no legal action")?;
    let k = actions.len();
    let loss_plus_minus = (line.difference_plus_minus.as_ref()).map(|d| {
        if best == chosen {
            0.0
        } else {
            d[best * k + chosen]
        }
    });
    Ok(Feedback {
        street: state.street(),
        seat,
        actions,
        frequencies,
        loss: line.chips[best] - line.chips[chosen],
        values: line.chips,
        plus_minus: line.plus_minus,
        method: v.method,
        chosen,
        best,
        loss_plus_minus,
        big_bet: v.big_bet,
    })
}

/// A spot to drill, dealt from a seed: both seats play `coach` (its rows mixed as stored) from
/// a shuffled deck, and one of the hand's decisions is drawn: a street it reached, each alike,
/// then a decision of that street, each alike. The state has every
/// card (the seat to act knows its own), `bets` the actions before it.
pub fn deal_spot(coach: &StrategyPlayer, seed: u64) -> Result<(State, Vec<Bet>)> {
    let def = coach.file().game();
    ensure!(
        def.seats == 2,
        "drills are heads-up: this game has {} seats",
        def.seats
    );
    let cards = DealCards::random(def, &mut table_stream(seed, 0, 0, 2));
    let mut rng = table_stream(seed, 0, 1, 2);
    let mut state = State::new(def)?;
    let mut bets: Vec<Bet> = Vec::new();
    let mut spots = Vec::new();
    loop {
        match state.next() {
            Next::Deal { seat, .. } => cards.deal_next(&mut state, seat, None)?,
            Next::Act { seat } => {
                spots.push((state.clone(), bets.len()));
                let legal = state.legal_actions();
                let mut probs = vec![0.0; legal.len()];
                coach.policy(&state, &bets, seat, &legal, &mut probs)?;
                let a = legal[sample(&probs, &mut rng)];
                bets.push((state.street(), a));
                state.apply(a)?;
            }
            Next::Over => break,
        }
    }
    // A street the hand reached, each alike, then one of its decisions: most hands end on third
    // street, and decisions drawn alike would be mostly third street's.
    let mut rng = table_stream(seed, 0, 2, 2);
    let last = spots.last().map_or(0, |s| s.0.street());
    let street = sample(&vec![1.0; last + 1], &mut rng);
    // A street with no decision (every seat all in before it) gives way to the last street.
    let on: Vec<usize> = [street, last]
        .iter()
        .map(|&st| {
            (0..spots.len())
                .filter(|&i| spots[i].0.street() == st)
                .collect::<Vec<_>>()
        })
        .find(|v| !v.is_empty())
        .context("a hand with no decision")?;
    let pick = on[sample(&vec![1.0; on.len()], &mut rng)];
    let (state, n) = spots.swap_remove(pick);
    bets.truncate(n);
    Ok((state, bets))
}

/// One decision of a run, as the score keeps it.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Scored {
    /// The decision in the caller's words (where, with what, what was chosen).
    pub label: String,
    /// The value lost, in chips.
    pub loss: f64,
    /// Its 95% interval, ± chips, where estimated.
    pub loss_plus_minus: Option<f64>,
    /// The coach's probability of the action chosen.
    pub frequency: f64,
}

/// The decisions of a run (see the module).
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Score {
    decisions: Vec<Scored>,
    big_bet: u64,
}

/// A run's score: what [`Score::summary`] gives.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Summary {
    /// Decisions judged.
    pub decisions: usize,
    /// The value lost over them, in chips.
    pub total_loss: f64,
    /// The mean loss per decision, in chips (0 with no decision).
    pub mean_loss: f64,
    /// The mean loss per decision in thousandths of a big bet.
    pub mean_loss_mbb: f64,
    /// The least coach probability that counts a choice as the coach's.
    pub threshold: f64,
    /// The decisions whose chosen action the coach plays at least `threshold` of the time.
    pub agreed: usize,
    /// Their part of the decisions (0 with no decision).
    pub agreed_share: f64,
    /// The costliest decisions, the worst first (at most the number asked; a loss of 0 is no
    /// mistake and is not listed).
    pub worst: Vec<Scored>,
}

impl Score {
    /// A score of no decision yet.
    pub fn new() -> Score {
        Score::default()
    }

    /// Adds the decision `f`, named `label`.
    pub fn add(&mut self, f: &Feedback, label: String) {
        self.big_bet = f.big_bet;
        self.decisions.push(Scored {
            label,
            loss: f.loss,
            loss_plus_minus: f.loss_plus_minus,
            frequency: f.chosen_frequency(),
        });
    }

    /// The run so far: totals, the share of choices the coach plays at least `threshold` of
    /// the time, and the `worst` costliest decisions.
    pub fn summary(&self, threshold: f64, worst: usize) -> Summary {
        let n = self.decisions.len();
        let total_loss: f64 = self.decisions.iter().map(|d| d.loss).sum();
        let mean_loss = if n == 0 { 0.0 } else { total_loss / n as f64 };
        let agreed = (self.decisions.iter())
            .filter(|d| d.frequency >= threshold)
            .count();
        let mut costly: Vec<Scored> = (self.decisions.iter())
            .filter(|d| d.loss > 0.0)
            .cloned()
            .collect();
        // Stable: equal losses stay in the order played.
        costly.sort_by(|a, b| b.loss.total_cmp(&a.loss));
        costly.truncate(worst);
        Summary {
            decisions: n,
            total_loss,
            mean_loss,
            mean_loss_mbb: if self.big_bet == 0 {
                0.0
            } else {
                1000.0 * mean_loss / self.big_bet as f64
            },
            threshold,
            agreed,
            agreed_share: if n == 0 {
                0.0
            } else {
                agreed as f64 / n as f64
            },
            worst: costly,
        }
    }
}

#[cfg(test)]
mod tests;
