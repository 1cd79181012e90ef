//! Random legal hands, recorded as hand histories: test data for everyone, and the round trip
//! of the rules engine through PHH.

use super::{HandHistory, Recorder};
use crate::rules::{Action, GameDef, Next, RulesError, State};
use rand::{Rng, RngExt};

use crate::draw;

/// Why a random hand could not be played.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum SimulateError {
    /// PHH has no code for this game (Kuhn, Leduc, ministud).
    #[error("PHH cannot record {0}: only the stud games have a variant code")]
    NoPhhCode(String),
    /// The rules engine refused something it offered (a bug in the engine).
    #[error("the rules engine refused its own offer: {0}")]
    Rules(#[from] RulesError),
}

/// The chance that a random player folds when folding is legal: low, so that hands often reach
/// later streets, showdowns and all-ins.
const FOLD_CHANCE: f64 = 0.15;

/// Plays one hand of `def` with random cards and random legal actions (all drawn from `rng`),
/// and records it: third street and every later street as one hole-card action per seat (as
/// PokerKit writes), community cards as `d db`, and at a showdown every live seat shows.
/// Returns the hand history and the final state.
pub fn random_hand<R: Rng>(
    def: &GameDef,
    rng: &mut R,
) -> Result<(HandHistory, State), SimulateError> {
    let mut rec =
        Recorder::new(def).ok_or_else(|| SimulateError::NoPhhCode(def.variant.to_string()))?;
    let mut state = State::new(def)?;
    loop {
        match state.next() {
            Next::Deal { seat, .. } => {
                let card = state.deal_random(rng)?;
                rec.deal(seat, card);
            }
            Next::Act { seat } => {
                let action = random_action(&state.legal_actions(), rng);
                state.apply(action)?;
                rec.act(seat, action);
            }
            Next::Over => break,
        }
    }
    Ok((rec.finish(&state), state))
}

/// A random legal action: a fold with chance [`FOLD_CHANCE`] when folding is legal, otherwise
/// one of the other legal actions, uniformly.
pub fn random_action<R: Rng>(legal: &[Action], rng: &mut R) -> Action {
    let others: Vec<Action> = legal
        .iter()
        .copied()
        .filter(|a| *a != Action::Fold)
        .collect();
    let can_fold = others.len() < legal.len();
    if others.is_empty() || (can_fold && rng.random_bool(FOLD_CHANCE)) {
        return Action::Fold;
    }
    others[draw::below(rng, others.len())]
}

/// `def` with about half the seats given a random short stack (1 chip up to their stack):
/// all-ins from the ante, short bring-ins and side pots.
pub fn with_random_stacks<R: Rng>(def: &GameDef, rng: &mut R) -> GameDef {
    let mut g = def.clone();
    for s in &mut g.starting_stacks {
        if rng.random_bool(0.5) {
            *s = 1 + draw::below(rng, *s as usize) as u64;
        }
    }
    g
}
