//! The variance-reduced result of a match: an estimator of AIVAT's family (Burch, Schmid,
//! Moravčík, Morrill and Bowling, "AIVAT: A new variance reduction technique for agent
//! evaluation in imperfect information games", AAAI 2018), computed beside each hand's chips.
//!
//! A hand's chips `u` are corrected at every event whose distribution is known: a card dealt
//! (uniform over the cards not yet dealt) and a decision whose probabilities the match read
//! (every [`super::Player`] answers with the distribution its action is then drawn from). The
//! correction of an event is `V(after it) − E[V(after it)]` under that distribution, for some
//! value function `V` of the state; each has expectation 0 given the hand so far, so
//! `u − Σ corrections` has the mean of `u`, whatever `V` is, and a smaller variance the better
//! `V` predicts `u`.
//!
//! `V` here is the **checkdown value**: a seat's equity `e` (its expected share of the pot if
//! every live hand is dealt out and shown down, no one folding and nothing more bet; every card
//! known, since the match sees them all) times the pot, minus what it has put in; a folded seat's
//! is minus what it has put in. Because the deck deals uniformly, `e` before a card is exactly
//! the mean of `e` after it (the tower rule), so every card's correction is `V(after) − V(before)`
//! and the corrections telescope: the estimate of a seat is
//!
//! `V(start) + Σ over decisions (E_π[V(after)] − V(before)) + (u − V(end))`,
//!
//! where `E_π` is over the actor's probabilities (the action taken for an opaque actor), and only
//! the equities at the decisions are needed. `V(start)` is the pot over the seats minus what
//! the seat put in (the ante): before any card every seat's equity is the same by symmetry. The equities at decisions
//! are estimated by rollouts from a generator of their own (keyed by the match's seed, the deal
//! and the cards out, so that the seatings of a duplicate deal share them): an unbiased estimate,
//! independent of what follows, entering the estimate linearly, so the estimate stays unbiased.
//! At the end every card is known and `V(end)` is exact.
//!
//! The corrections are kept by group, each street's cards, each street's betting terms
//! ([`Baseline::Street`]) and the decisions ([`HandEstimate::corrections`]), for a match to
//! weigh them anew (`super::control`); beside them, two controls of mean 0 that no value
//! function stands behind, for the fit alone: whether a hand went on past a decision where
//! folding was legal (`HandEstimate::fold_control`).
//!
//! A table that may run out of cards (seven-card stud for eight) deals the last street as one
//! community card depending on who folded, which the equity above does not model: there the
//! estimator does not apply ([`applies`]).

use super::checkdown::{self, Equities, Memo};
use super::street_walk::{self, Walkers};
use super::{Bet, Player};
use abstraction::rules::pots::MAX_SEATS;
use abstraction::rules::{Action, GameDef, Next, State};
use anyhow::Context;
use rand::{RngExt, SeedableRng};
use rand_chacha::ChaCha8Rng;

/// Rollouts per equity at a decision. Their noise enters the estimate (a bet of `b` chips into
/// an equity estimated within ±0.06 moves it by ±0.06 `b`), but in seven-card stud it is a
/// small part of what is left: 32, 64, 256 and 1,024 rollouts gave intervals within 4% of each
/// other, and 64 costs a quarter of 256 (docs/notes/bots.md, "Variance-reduced matches").
pub const ROLLOUTS: u32 = 64;

/// Deals of a street's cards sampled for the mean of its betting's value ([`Baseline::Street`]).
/// Their noise enters the estimate, and each costs the players' card classes at the sampled
/// cards (a strategy file's bucket lookups) and a walk. Against the raising bot, whose pots
/// make the betting's value swing most, 4, 8 and 16 samples gave intervals 2.84, 3.28 and 3.61
/// times narrower than the plain one (the betting weighed by street), at 275, 173 and 87
/// hands/s; against the random bot 2.60, 2.76 and 2.82 (docs/notes/bots.md).
pub const STREET_SAMPLES: u32 = 8;

/// Rollouts per equity at a sampled deal of a street's cards: there the equity only weighs the
/// pot the street's betting adds, and the samples' noise averages out.
pub const SAMPLE_ROLLOUTS: u32 = 16;

/// Street slots of [`GROUPS`]: every game's streets fit (a street past the last slot shares
/// it).
const STREET_SLOTS: usize = 7;

/// Groups of corrections a hand's estimate keeps apart ([`HandEstimate::corrections`]): the
/// checkdown terms of the cards of each street, the terms of each street's cards' effect on its
/// betting ([`Baseline::Street`]), the fold controls, then every decision's. The betting terms
/// are kept by street because each street's cards sway the later streets' betting too, by a
/// share the walk of their own street does not see and that differs from street to street, which
/// [`super::control`] weighs (docs/notes/bots.md: 2.54 to 2.84 times narrower than the plain
/// interval against the raising bot, one group for them all against one a street).
pub const GROUPS: usize = 2 * STREET_SLOTS + FOLD_CONTROLS + 1;

/// The first group of the cards' effect on their street's betting.
const BETTING_GROUP: usize = STREET_SLOTS;

/// The first group of the fold controls ([`HandEstimate::fold_control`]): zero-mean terms the
/// estimate does not subtract at weight 1 (no value function stands behind them), offered to
/// the fit alone ([`HandEstimate::finish`] leaves them out).
const FOLD_GROUP: usize = 2 * STREET_SLOTS;

/// The fold controls: one scaled by the seat's equity, one flat. One weight each for every
/// street: a weight a street fitted a little narrower on 2,000 deals (3.94× against 3.80×
/// for the file against random) but needs four times the deals before any fit is made, and
/// at 600 deals fell back to the weights of 1 (docs/notes/bots.md).
const FOLD_CONTROLS: usize = 2;

/// The group of the decisions.
const DECISION_GROUP: usize = GROUPS - 1;

/// The slot of `street` in each kind of group.
fn slot(street: usize) -> usize {
    street.min(STREET_SLOTS - 1)
}

/// Mixed into the seed of a street's sampled cards, apart from the rollouts' seeds.
const SAMPLE_SALT: u64 = 0x5EED_57EE_7CA2_D500;

/// Whether the estimator applies to `def`: every seat's cards and the board fit the deck, so
/// that the cards come uniformly from those not yet dealt whoever folds.
pub fn applies(def: &GameDef) -> bool {
    let total = def.seats as usize * def.cards_per_player() + def.community_cards();
    total <= def.deck.cards().len() as usize
}

/// The value function a decision's correction uses.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Baseline {
    /// The rest of the street's betting walked under the players' policies, the checkdown
    /// value at its end ([`super::street_walk`]); each street's cards also corrected for the
    /// betting they lead to, against a sample of the cards the deck could have dealt: narrower
    /// at equal hands, several times slower.
    Street,
    /// The checkdown value where the decision leaves the hand: the faster way to an interval
    /// when the players are cheap to ask.
    #[default]
    Checkdown,
}

/// How a match asks for the estimate.
#[derive(Clone, Debug, Default)]
pub struct Aivat {
    /// The players (by index) whose probabilities the estimate does not read: their decisions
    /// are corrected by the action taken, as if their policy were unknown (an opponent that
    /// only says its actions), and the walks play them as check/call. Every
    /// [`super::Player`] of a match draws its action from the probabilities it gives, so none
    /// needs it; it shows that the estimate holds without them.
    pub opaque: Vec<usize>,
    /// The value function of the corrections.
    pub baseline: Baseline,
}

/// One hand's estimate, seat by seat, built as the hand is played.
#[derive(Clone, Debug)]
pub struct HandEstimate {
    /// The equities' rollouts, keyed by the deal.
    eq: Equities,
    /// Seats whose decisions are corrected as if their probabilities were unknown (bit `s`).
    opaque: u16,
    baseline: Baseline,
    /// Per seat, the checkdown value after the last event (the start or the last decision).
    last: [f64; MAX_SEATS],
    /// The hand before the first card of its current street, until that street's first
    /// decision ([`Baseline::Street`]).
    before_cards: Option<State>,
    /// Per seat, the corrections so far by group ([`GROUPS`]).
    groups: [[f64; GROUPS]; MAX_SEATS],
}

impl HandEstimate {
    /// The estimate of a hand starting at `start` (antes in, no card dealt), its rollouts keyed
    /// by `key` (the same for every seating of one deal); `opaque` marks the seats whose
    /// probabilities are not to be used.
    pub fn new(
        start: &State,
        key: u64,
        opaque: u16,
        baseline: Baseline,
    ) -> anyhow::Result<HandEstimate> {
        let def = start.def();
        anyhow::ensure!(
            applies(def),
            "the variance-reduced estimate needs every seat's cards to fit the deck ({} does \
             not)",
            def.variant
        );
        // No card out, every seat live: each seat's equity is 1 / n by symmetry.
        let even = [1.0 / f64::from(def.seats); MAX_SEATS];
        Ok(HandEstimate {
            eq: Equities::new(key),
            opaque,
            baseline,
            last: checkdown::values(start, &even),
            before_cards: None,
            groups: [[0.0; GROUPS]; MAX_SEATS],
        })
    }

    /// Notes that a card is about to be dealt at `state`: the first of a street is where the
    /// street's betting value is sampled from ([`Baseline::Street`]).
    pub fn card_coming(&mut self, state: &State) {
        let street = state.street();
        let known = self.before_cards.as_ref().map(State::street);
        if self.baseline == Baseline::Street && known != Some(street) {
            self.before_cards = Some(state.clone());
        }
    }

    /// Adds the corrections of a decision at `state` (`bets`: the betting that reached it):
    /// the actor chose `legal[chosen]`, having given `probs` (one per legal action) as its
    /// distribution; `seats` are the hand's players, one per seat, which the walks of
    /// [`Baseline::Street`] ask.
    pub fn decision(
        &mut self,
        state: &State,
        bets: &[Bet],
        legal: &[Action],
        probs: &[f64],
        chosen: usize,
        seats: &[&dyn Player],
    ) -> anyhow::Result<()> {
        let actor = state.to_act().context("no decision is due")?;
        anyhow::ensure!(
            legal.len() <= 8 && chosen < legal.len(),
            "a decision of {} actions",
            legal.len()
        );
        let mut memo = Memo::default();
        let now = memo.values(&self.eq, state, ROLLOUTS)?;
        self.cards_dealt(state.street(), &now);
        let mut bets = bets.to_vec();
        if let Some(before) = self.before_cards.take_if(|b| b.street() == state.street()) {
            let term = self.street_cards(&before, state, &mut bets, seats, &mut memo)?;
            self.book(BETTING_GROUP + slot(state.street()), &term);
        }
        // The distribution the action was drawn from: the actor's probabilities as `sample`
        // reads them, or the action taken when they are not read or give no weight at all
        // (then the draw was fixed), whose correction is then 0.
        let mut weights = [0.0; 8];
        let weights = &mut weights[..legal.len()];
        if self.opaque & (1 << actor) == 0 {
            weights.copy_from_slice(&probs[..legal.len()]);
        }
        super::drawn_distribution(weights, chosen);
        self.fold_control(state, legal, weights, chosen, &mut memo)?;
        let walkers = Walkers::new(seats, self.opaque, state);
        let (mut mean, mut taken) = ([0.0; MAX_SEATS], [0.0; MAX_SEATS]);
        for (i, &a) in legal.iter().enumerate() {
            if weights[i] == 0.0 && i != chosen {
                continue;
            }
            let mut next = state.clone();
            next.apply(a)?;
            let v = match self.baseline {
                Baseline::Checkdown => memo.values(&self.eq, &next, ROLLOUTS)?,
                Baseline::Street => {
                    bets.push((state.street(), a));
                    let mut leaf = |s: &State| memo.values(&self.eq, s, ROLLOUTS);
                    let v = street_walk::street_value(&next, &mut bets, &walkers, &mut leaf);
                    bets.pop();
                    v?
                }
            };
            for (m, x) in mean.iter_mut().zip(v) {
                *m += weights[i] * x;
            }
            if i == chosen {
                taken = v;
                self.last = memo.values(&self.eq, &next, ROLLOUTS)?;
            }
        }
        let correction: [f64; MAX_SEATS] = std::array::from_fn(|s| taken[s] - mean[s]);
        self.book(DECISION_GROUP, &correction);
        Ok(())
    }

    /// The estimate of each seat's chips once the hand is over at `end`: its chips less every
    /// correction.
    pub fn finish(&mut self, end: &State) -> anyhow::Result<[f64; MAX_SEATS]> {
        let payoffs = end
            .payoffs()
            .context("a finished hand has no payoffs (a rules engine bug)")?;
        let v = checkdown::values(end, &self.eq.at(end, end.live(), ROLLOUTS)?);
        self.cards_dealt(end.street(), &v);
        let mut out = [0.0; MAX_SEATS];
        for (s, &u) in payoffs.iter().enumerate() {
            let fold_controls = FOLD_GROUP..FOLD_GROUP + FOLD_CONTROLS;
            let corrected = self.groups[s].iter().enumerate();
            let sum: f64 = corrected
                .filter(|(g, _)| !fold_controls.contains(g))
                .map(|(_, c)| c)
                .sum();
            out[s] = u as f64 - sum;
        }
        Ok(out)
    }

    /// Each seat's corrections by group ([`GROUPS`]), each of mean 0 given the hand before it:
    /// the hand's chips less its estimate is their sum but for the fold controls', which the
    /// estimate holds at weight 0. A match weighs them anew by a regression on other deals
    /// ([`super::control`]).
    pub fn corrections(&self) -> &[[f64; GROUPS]; MAX_SEATS] {
        &self.groups
    }

    /// Books `V(now) − V(after the last event)` (checkdown values), the correction of the cards
    /// dealt between them (0 when none was), to the group of `street`; `now` becomes the last
    /// event's value.
    fn cards_dealt(&mut self, street: usize, now: &[f64; MAX_SEATS]) {
        let g = slot(street);
        for (s, x) in now.iter().enumerate() {
            self.groups[s][g] += x - self.last[s];
        }
        self.last = *now;
    }

    /// The fold controls of a decision where folding is legal and a street is still to come:
    /// whether the hand went on, less the chance it would (mean 0 given the spot, whatever the
    /// actor holds), times what one more chip from every live seat is worth to each at the
    /// spot's equities, and times 1 for every live seat. The value functions price going on
    /// by the street's betting at most; what the later streets' bets are worth to a seat,
    /// given that the hand goes on (its equity's share, and its edge in how it plays them), is
    /// left to the fit. Against the random bot, which folds a third of the time whatever it
    /// holds, that was most of what the street walk left (docs/notes/bots.md).
    fn fold_control(
        &mut self,
        state: &State,
        legal: &[Action],
        weights: &[f64],
        chosen: usize,
        memo: &mut Memo,
    ) -> anyhow::Result<()> {
        let later_streets = state.street() + 1 < state.def().streets.len();
        let fold = legal.iter().position(|&a| a == Action::Fold);
        let Some(fold) = fold.filter(|_| later_streets) else {
            return Ok(());
        };
        let went_on = f64::from(u8::from(chosen != fold)) - (1.0 - weights[fold]);
        if went_on == 0.0 {
            return Ok(());
        }
        let equity = memo.at(&self.eq, state, ROLLOUTS)?;
        let live = state.live();
        let n = f64::from(live.count_ones());
        let term: [f64; MAX_SEATS] = std::array::from_fn(|s| match live & (1 << s) {
            0 => 0.0,
            _ => went_on * (equity[s] * n - 1.0),
        });
        self.book(FOLD_GROUP, &term);
        let flat: [f64; MAX_SEATS] = std::array::from_fn(|s| match live & (1 << s) {
            0 => 0.0,
            _ => went_on,
        });
        self.book(FOLD_GROUP + 1, &flat);
        Ok(())
    }

    /// Adds `term` to group `g` of every seat.
    fn book(&mut self, g: usize, term: &[f64; MAX_SEATS]) {
        for (s, x) in term.iter().enumerate() {
            self.groups[s][g] += x;
        }
    }

    /// The correction of a street's cards for the betting they lead to: at `state`, the
    /// street's first decision, the value of the street's betting `B` (the walk's value less
    /// the checkdown value) less its mean over [`STREET_SAMPLES`] deals of the street's cards
    /// drawn from `before` (the hand before them) as the deck deals (uniformly from the cards
    /// not out). The draws do not depend on the cards dealt, so the mean is an unbiased
    /// estimate of `B`'s expectation given `before`, and the term has mean 0.
    fn street_cards(
        &self,
        before: &State,
        state: &State,
        bets: &mut Vec<Bet>,
        seats: &[&dyn Player],
        memo: &mut Memo,
    ) -> anyhow::Result<[f64; MAX_SEATS]> {
        let mut term = self.betting_value(state, bets, seats, memo, ROLLOUTS)?;
        let mut rng = ChaCha8Rng::seed_from_u64(self.eq.key_of(before, SAMPLE_SALT));
        let mut pool = [None; 64];
        for _ in 0..STREET_SAMPLES {
            let mut s = before.clone();
            while let Next::Deal { .. } = s.next() {
                let mut n = 0;
                for c in s.unseen().iter().take(pool.len()) {
                    pool[n] = Some(c);
                    n += 1;
                }
                let card =
                    pool[..n][rng.random_range(0..n.max(1))].context("no card left to sample")?;
                s.deal(card)?;
            }
            let v = self.betting_value(&s, bets, seats, &mut Memo::default(), SAMPLE_ROLLOUTS)?;
            for (t, x) in term.iter_mut().zip(v) {
                *t -= x / f64::from(STREET_SAMPLES);
            }
        }
        Ok(term)
    }

    /// The value of the street's betting from `state`, the street's first decision (or the
    /// end of the hand): the walk's value less the checkdown value, equities by `rollouts`.
    fn betting_value(
        &self,
        state: &State,
        bets: &mut Vec<Bet>,
        seats: &[&dyn Player],
        memo: &mut Memo,
        rollouts: u32,
    ) -> anyhow::Result<[f64; MAX_SEATS]> {
        if state.to_act().is_none() {
            return Ok([0.0; MAX_SEATS]);
        }
        let now = memo.values(&self.eq, state, rollouts)?;
        let walkers = Walkers::new(seats, self.opaque, state);
        let mut leaf = |s: &State| memo.values(&self.eq, s, rollouts);
        let walked = street_walk::street_value(state, bets, &walkers, &mut leaf)?;
        Ok(std::array::from_fn(|s| walked[s] - now[s]))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::bot::{AlwaysCall, Answer};
    use abstraction::cards::Card;
    use std::sync::Arc;

    /// Answers with no weight on any action (a player that breaks the trait's promise of a
    /// distribution): the match's draw is then fixed on the first action.
    struct Weightless;

    impl Player for Weightless {
        fn name(&self) -> &str {
            "weightless"
        }
        fn policy(
            &self,
            _: &State,
            _: &[Bet],
            _: u8,
            _: &[Action],
            probs: &mut [f64],
        ) -> anyhow::Result<Answer> {
            probs.fill(0.0);
            Ok(Answer::Fallback)
        }
    }

    /// Kuhn with the first player's Jack and the second's King, the first decision due, and
    /// its estimate so far.
    fn kuhn(baseline: Baseline) -> (State, HandEstimate) {
        let def = Arc::new(GameDef::preset("kuhn").unwrap());
        let mut state = State::with_def(def).unwrap();
        let mut e = HandEstimate::new(&state, 7, 0, baseline).unwrap();
        let cards = def_cards(&state);
        for c in cards {
            e.card_coming(&state);
            state.deal(c).unwrap();
        }
        assert!(state.to_act().is_some());
        (state, e)
    }

    /// The Jack, then the King, of Kuhn's deck (its lowest and highest cards): the first
    /// player's bet loses a chip more than its check, so the two actions' values differ.
    fn def_cards(state: &State) -> [Card; 2] {
        let deck: Vec<Card> = state.def().deck.cards().iter().collect();
        [deck[0], deck[deck.len() - 1]]
    }

    /// Leduc with both private cards dealt from the top of the deck, then played by `actions`
    /// (each the first legal action matching), dealing the board when it comes; and the start.
    fn leduc(actions: &[fn(&Action) -> bool]) -> (State, State) {
        let def = Arc::new(GameDef::preset("leduc").unwrap());
        let start = State::with_def(def).unwrap();
        let mut state = start.clone();
        let mut actions = actions.iter();
        loop {
            match state.next() {
                Next::Deal { .. } => {
                    let card = state.unseen().iter().next().unwrap();
                    state.deal(card).unwrap();
                }
                _ => match actions.next() {
                    Some(wanted) => {
                        let a = state.legal_actions().into_iter().find(wanted).unwrap();
                        state.apply(a).unwrap();
                    }
                    None => return (state, start),
                },
            }
        }
    }

    /// Each seat's fold controls of one decision at `state`, the actor having taken
    /// `legal[chosen]` from `probs`.
    fn fold_controls(state: &State, start: &State, probs: &[f64], chosen: usize) -> [f64; 2] {
        let mut e = HandEstimate::new(start, 7, 0, Baseline::Street).unwrap();
        let legal = state.legal_actions();
        e.fold_control(state, &legal, probs, chosen, &mut Memo::default())
            .unwrap();
        let sum = |s: usize| {
            e.corrections()[s][FOLD_GROUP..FOLD_GROUP + FOLD_CONTROLS]
                .iter()
                .sum()
        };
        [sum(0), sum(1)]
    }

    #[test]
    fn the_fold_control_has_mean_zero_over_the_actor_s_distribution() {
        let bet: fn(&Action) -> bool = |a| matches!(a, Action::CompleteBetRaise(_));
        let (state, start) = leduc(&[bet]);
        let legal = state.legal_actions();
        assert_eq!(legal[0], Action::Fold, "{legal:?}");
        let probs: Vec<f64> = [0.2, 0.5, 0.3][..legal.len()].to_vec();
        let total: f64 = probs.iter().sum();
        let probs: Vec<f64> = probs.iter().map(|p| p / total).collect();
        let mut mean = [0.0; 2];
        let mut largest: f64 = 0.0;
        for (chosen, p) in probs.iter().enumerate() {
            let c = fold_controls(&state, &start, &probs, chosen);
            for s in 0..2 {
                mean[s] += p * c[s];
                largest = largest.max(c[s].abs());
            }
        }
        assert!(largest > 0.1, "no control at all: {largest}");
        for m in mean {
            assert!(m.abs() < 1e-12, "mean {m}");
        }
        // A fold the actor was sure to make, or a call it was sure of, has nothing to control.
        let sure = |of: usize| -> Vec<f64> {
            (0..legal.len())
                .map(|i| f64::from(u8::from(i == of)))
                .collect()
        };
        assert_eq!(fold_controls(&state, &start, &sure(0), 0), [0.0; 2]);
        assert_eq!(fold_controls(&state, &start, &sure(1), 1), [0.0; 2]);
        let check: fn(&Action) -> bool = |a| *a == Action::CheckCall;
        // Leduc's last street: nothing comes after it for a fold to forgo.
        let (last, start) = leduc(&[check, check, bet]);
        assert_eq!(last.street(), 1);
        assert_eq!(fold_controls(&last, &start, &probs, 1), [0.0; 2]);
    }

    #[test]
    fn a_decision_without_weight_has_a_correction_of_exactly_zero() {
        for baseline in [Baseline::Street, Baseline::Checkdown] {
            let (state, mut e) = kuhn(baseline);
            let seats: [&dyn Player; 2] = [&Weightless, &AlwaysCall];
            let legal = state.legal_actions();
            // The match draws the first action from a distribution without weight.
            let probs = vec![0.0; legal.len()];
            e.decision(&state, &[], &legal, &probs, 0, &seats).unwrap();
            for s in 0..2 {
                assert_eq!(e.corrections()[s][DECISION_GROUP], 0.0, "{baseline:?}");
            }
            // Weight read as given, the same decision's correction is not 0: the check above
            // can fail.
            let (state, mut e) = kuhn(baseline);
            let even = vec![1.0 / legal.len() as f64; legal.len()];
            e.decision(&state, &[], &legal, &even, 0, &seats).unwrap();
            assert_ne!(e.corrections()[0][DECISION_GROUP], 0.0, "{baseline:?}");
        }
    }
}
