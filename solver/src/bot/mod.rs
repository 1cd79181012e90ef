//! Players: anything that, given the real state of a hand and its seat, gives probabilities over
//! the legal actions. The baseline bots live here; a strategy file plugs in as one more
//! [`Player`] (see [`crate::players::load`]). Matches, the bot server and `stud play` only see this trait.
//!
//! A player reads the [`State`] and nothing else, and only what its seat may see: its own cards
//! and everyone's up cards. Legal actions and payoffs are the rules engine's.

pub mod aivat;
mod average;
pub mod check;
pub mod checkdown;
mod classed;
pub mod control;
mod estimate;
mod heuristic;
mod lbr;
pub(crate) mod lookahead;
pub mod matches;
mod multiway;
pub mod protocol;
pub(crate) mod range;
mod strategy;
pub mod street_walk;
#[cfg(unix)]
pub mod tcp;
pub mod third_street;

pub use crate::action::Bet;
pub use crate::policy::public_events;
pub use average::AveragePlayer;
pub use classed::{ClassSource, Classed};
pub use estimate::{ClassEstimate, Estimated};
pub use heuristic::Heuristic;
pub use lbr::{Lbr, LbrDeals};
pub use lookahead::Lookahead;
pub use multiway::MultiwayPlayer;
pub use range::Candidates;
pub use strategy::StrategyPlayer;

use crate::purify::Purification;
use crate::strategy_file::TreeKind;
use abstraction::rules::{Action, State};
use rand::{Rng, RngExt};

/// The names of the built-in bots, as the command line takes them.
pub const BOT_NAMES: [&str; 4] = ["random", "call", "raise", "heuristic"];

/// A player: a policy over the legal actions of a decision.
pub trait Player: Send + Sync {
    /// The player's name, for reports.
    fn name(&self) -> &str;

    /// Writes into `probs` (one entry per action of `legal`, in order; `legal` is
    /// `state.legal_actions()`, non-empty) the probability of each action for `seat`, the seat
    /// to act, after the betting `bets`. The probabilities sum to 1. Must not read what `seat`
    /// cannot see. Says whether the probabilities are the player's own or the
    /// [`Answer::Fallback`]. Fails when the player cannot answer (a spot its strategy does not
    /// hold).
    ///
    /// This is the player's action distribution at the decision: a match draws the action from
    /// these very probabilities, and its variance-reduced estimate ([`aivat`]) reads them as
    /// the distribution, so every player of a match is read exactly, even one whose answer
    /// varies between calls (a re-solve on a budget in milliseconds). What cannot be read is
    /// a player outside this trait, known only by its actions (a person, a remote program):
    /// [`aivat::Aivat::opaque`] corrects such a seat by the action it took.
    fn policy(
        &self,
        state: &State,
        bets: &[Bet],
        seat: u8,
        legal: &[Action],
        probs: &mut [f64],
    ) -> anyhow::Result<Answer>;

    /// The class of `seat`'s cards that the player's policy reads on this street, for a player
    /// that reads its cards only through such a class (a strategy file: the bucket of the
    /// seat's view). Cards of one class at states of one public history get one policy, which
    /// [`Player::class_policy`] gives from the class alone: LBR, which asks the policy of
    /// thousands of candidate hands at each decision, asks each hand's class once a street.
    /// `None` (the default, and the same at every state): the player reads its cards otherwise.
    fn card_class(&self, state: &State, seat: u8) -> anyhow::Result<Option<u32>> {
        let _ = (state, seat);
        Ok(None)
    }

    /// [`Player::policy`] for a seat whose cards are of class `class` (its
    /// [`Player::card_class`] on this street); the seat's down cards in `state` are not read
    /// (they may be unknown). Only for a player that has classes.
    fn class_policy(
        &self,
        state: &State,
        bets: &[Bet],
        seat: u8,
        class: u32,
        legal: &[Action],
        probs: &mut [f64],
    ) -> anyhow::Result<()> {
        let _ = (state, bets, seat, class, legal, probs);
        anyhow::bail!("{} reads its cards without classes", self.name())
    }

    /// Whether the variance-reduced estimate ([`aivat`]) may ask this player's policy at spots
    /// the match does not reach: it walks the rest of each street's betting under the players'
    /// policies ([`street_walk`]), dozens of questions a decision. `true` (the default) for a
    /// player that answers from a table or a rule; a player whose every answer costs a re-solve
    /// says `false`, and the walk plays its seat as check/call (the estimate stays unbiased: it
    /// still reads the player's answers at its own decisions).
    fn walkable(&self) -> bool {
        true
    }
}

/// Where a player's probabilities came from.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Answer {
    /// The player's own policy.
    Own,
    /// The defined fallback: the player's policy gave no weight to any legal action (a strategy
    /// row whose weight is all on abstract actions the real spot does not allow), so all of it
    /// went to the check or call (the bring-in when it is due). Rather than abort a match, a server reply or a
    /// play session, the player answers so; matches count these decisions per player, the
    /// server marks the reply, `stud play` says so.
    Fallback,
    /// A multiway file's row that the solve reached in no pot class (stored uniform: the file
    /// has nothing to say there), played as the hand-strength bot ([`Heuristic`])
    /// plays the spot: its equity against the live seats, raise strong hands, call what the
    /// pot odds pay for. The spots are ones self-play does not make (pots capped street after
    /// street by four or five players), where a uniform row folded, called and raised at
    /// random whatever the hand (docs/notes/multiway.md, "Rows no pot class reached").
    /// Matches count these decisions per player, the server marks the reply.
    Unreached,
}

/// A player's decisions, and those not answered by its own row, counted by a match.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct NotOwn {
    /// Every decision.
    pub decisions: u64,
    /// Answered by [`Answer::Fallback`].
    pub fallbacks: u64,
    /// Answered by [`Answer::Unreached`].
    pub unreached: u64,
}

impl NotOwn {
    /// Counts one decision answered so.
    pub fn count(&mut self, answer: Answer) {
        self.decisions += 1;
        match answer {
            Answer::Own => {}
            Answer::Fallback => self.fallbacks += 1,
            Answer::Unreached => self.unreached += 1,
        }
    }
}

impl std::ops::AddAssign for NotOwn {
    fn add_assign(&mut self, other: NotOwn) {
        self.decisions += other.decisions;
        self.fallbacks += other.fallbacks;
        self.unreached += other.unreached;
    }
}

/// Normalizes `probs` (weights over `legal`) to sum to 1; if they have no weight at all, puts it
/// all on the check or call instead and answers [`Answer::Fallback`].
pub(crate) fn normalize_or_fall_back(legal: &[Action], probs: &mut [f64]) -> Answer {
    if crate::kernel::normalize(probs) {
        return Answer::Own;
    }
    probs.fill(0.0);
    probs[passive(legal)] = 1.0;
    Answer::Fallback
}

/// The index of an entry of `probs` drawn with those probabilities (one draw from `rng`).
pub fn sample<R: Rng + ?Sized>(probs: &[f64], rng: &mut R) -> usize {
    let mut x = rng.random::<f64>() * probs.iter().sum::<f64>();
    for (i, &p) in probs.iter().enumerate() {
        if x < p {
            return i;
        }
        x -= p;
    }
    // Rounding can leave a sliver past the last entry: take the last one with weight.
    probs.iter().rposition(|&p| p > 0.0).unwrap_or(0)
}

/// Makes `probs` (a player's answer) the distribution [`sample`] draws from: each weight over
/// their sum. With no weight (a sum of 0, or not a finite number) `sample`'s draw does not
/// depend on its generator: all the weight goes to `fixed`, the index the caller knows it
/// draws then.
pub(crate) fn drawn_distribution(probs: &mut [f64], fixed: usize) {
    let total: f64 = probs.iter().sum();
    if total > 0.0 && total.is_finite() {
        probs.iter_mut().for_each(|p| *p /= total);
    } else {
        probs.fill(0.0);
        probs[fixed] = 1.0;
    }
}

/// Asks `player` for its policy at `state` after `bets` (into `probs`, at least `legal.len()`
/// long) and draws one action from it with `rng`; says where the policy came from.
pub fn choose<R: Rng + ?Sized>(
    player: &dyn Player,
    state: &State,
    bets: &[Bet],
    legal: &[Action],
    probs: &mut [f64],
    rng: &mut R,
) -> anyhow::Result<(Action, Answer)> {
    let seat = state
        .to_act()
        .ok_or_else(|| anyhow::anyhow!("no decision is due"))?;
    let probs = &mut probs[..legal.len()];
    let answer = player.policy(state, bets, seat, legal, probs)?;
    Ok((legal[sample(probs, rng)], answer))
}

/// Uniformly random over the legal actions.
pub struct Uniform;

impl Player for Uniform {
    fn name(&self) -> &str {
        "random"
    }
    fn policy(
        &self,
        _: &State,
        _: &[Bet],
        _: u8,
        legal: &[Action],
        probs: &mut [f64],
    ) -> anyhow::Result<Answer> {
        probs.fill(1.0 / legal.len() as f64);
        Ok(Answer::Own)
    }
}

/// Always checks or calls (and posts the bring-in rather than completing).
pub struct AlwaysCall;

impl Player for AlwaysCall {
    fn name(&self) -> &str {
        "call"
    }
    fn policy(
        &self,
        _: &State,
        _: &[Bet],
        _: u8,
        legal: &[Action],
        probs: &mut [f64],
    ) -> anyhow::Result<Answer> {
        one_hot(legal, probs, |a| {
            matches!(a, Action::CheckCall | Action::BringIn)
        });
        Ok(Answer::Own)
    }
}

/// Always makes the largest bet, raise or completion it may, else calls.
pub struct AlwaysRaise;

impl Player for AlwaysRaise {
    fn name(&self) -> &str {
        "raise"
    }
    fn policy(
        &self,
        _: &State,
        _: &[Bet],
        _: u8,
        legal: &[Action],
        probs: &mut [f64],
    ) -> anyhow::Result<Answer> {
        probs.fill(0.0);
        probs[most_aggressive(legal)] = 1.0;
        Ok(Answer::Own)
    }
}

/// The largest complete, bet or raise of `legal`, or else its check/call (or bring-in).
pub(crate) fn most_aggressive(legal: &[Action]) -> usize {
    let raise = legal
        .iter()
        .enumerate()
        .filter_map(|(i, a)| match a {
            Action::CompleteBetRaise(n) => Some((*n, i)),
            _ => None,
        })
        .max();
    match raise {
        Some((_, i)) => i,
        None => passive(legal),
    }
}

/// The check/call of `legal`, or the bring-in when it is due (its index).
pub fn passive(legal: &[Action]) -> usize {
    legal
        .iter()
        .position(|a| matches!(a, Action::CheckCall | Action::BringIn))
        .unwrap_or(0)
}

/// All the weight on the first action satisfying `pick` (the first action if none does).
fn one_hot(legal: &[Action], probs: &mut [f64], pick: impl Fn(&Action) -> bool) {
    probs.fill(0.0);
    probs[legal.iter().position(pick).unwrap_or(0)] = 1.0;
}

/// How a strategy file is played when its spec does not say. A public tree's strategy is the
/// exact solver's, played as solved. A betting tree's (a real game's, in a card abstraction)
/// drops the actions below 15%: on the yardstick that lowers the exact exploitability of the
/// lifted strategy, and in seven-card stud it wins more against every bot and head to head
/// against the mixed strategy; purifying further wins more against the bots but is far more
/// exploitable. See docs/notes/solver.md ("Playing the average strategy") for the figures.
pub fn default_purification(tree: TreeKind) -> Purification {
    match tree {
        TreeKind::Public => Purification::Mixed,
        TreeKind::Betting => Purification::Threshold(0.15),
    }
}

/// How a multiway strategy file (three or more seats, sampled in a card abstraction) is
/// played when its spec does not say: as solved. At a three-handed seven-card stud table a
/// threshold of 0.15 ties the mixed strategy head to head and against the bots within the
/// intervals (heads-up it wins both), and purifying wins more against the bots and ties head
/// to head; on the three-seat yardstick (`stud eval multiway --play`) both are more
/// exploitable than the mixed strategy (thresholded 12% to 29%, pure 1.4 to 2.3 times).
/// docs/notes/multiway.md ("Playing a multiway file") has the figures.
pub fn default_multiway_purification() -> Purification {
    Purification::Mixed
}

#[cfg(test)]
pub(crate) mod tests;
