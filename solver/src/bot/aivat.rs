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
//! The corrections are kept by group, each street's cards and the decisions
//! ([`HandEstimate::corrections`]), for a match to weigh them anew (`super::control`).
//!
//! A table that may run out of cards (seven-card stud for eight) deals the last street as one
//! community card depending on who folded, which the equity above does not model: there the
//! estimator does not apply ([`applies`]).

use abstraction::cards::CardSet;
use abstraction::rules::pots::MAX_SEATS;
use abstraction::rules::{showdown_winnings, Action, GameDef, State};
use anyhow::Context;
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;

/// Rollouts per equity at a decision. Their noise enters the estimate (a bet of `b` chips into
/// an equity estimated within ±0.06 moves it by ±0.06 `b`), but in seven-card stud it is a
/// small part of what is left: 32, 64, 256 and 1,024 rollouts gave intervals within 4% of each
/// other, and 64 costs a quarter of 256 (docs/notes/bots.md, "Variance-reduced matches").
pub const ROLLOUTS: u32 = 64;

/// Groups of corrections a hand's estimate keeps apart ([`HandEstimate::corrections`]): the
/// cards of each street (the last group but one shared by the seventh street and any later),
/// then every decision's.
pub const GROUPS: usize = 8;

/// Chips a live seat puts into a rollout's pot: 2 × lcm(1..10), so that a pot or either half of
/// a hi-lo pot splits exactly among any number of winners, and no odd chip favours a seat
/// (which the symmetry of `V(start)` needs).
const UNIT: u64 = 5040;

/// Whether the estimator applies to `def`: every seat's cards and the board fit the deck, so
/// that the cards come uniformly from those not yet dealt whoever folds.
pub fn applies(def: &GameDef) -> bool {
    let total = def.seats as usize * def.cards_per_player() + def.community_cards();
    total <= def.deck.cards().len() as usize
}

/// How a match asks for the estimate.
#[derive(Clone, Debug, Default)]
pub struct Aivat {
    /// The players (by index) whose probabilities the estimate does not read: their decisions
    /// are corrected by the action taken, as if their policy were unknown (an opponent that
    /// only says its actions). Every [`super::Player`] of a match draws its action from the
    /// probabilities it gives, so none needs it; it shows that the estimate holds without them.
    pub opaque: Vec<usize>,
}

/// One hand's estimate, seat by seat, built as the hand is played.
#[derive(Clone, Debug)]
pub struct HandEstimate {
    /// The deal's key: the rollouts of a spot are drawn from a generator seeded with it and the
    /// cards out.
    key: u64,
    /// Seats whose decisions are corrected as if their probabilities were unknown (bit `s`).
    opaque: u16,
    /// Per seat, `V(start)` plus the decisions' terms so far.
    sum: [f64; MAX_SEATS],
    /// Per seat, `V` after the last event (the start or the last decision).
    last: [f64; MAX_SEATS],
    /// Per seat, the corrections so far by group ([`GROUPS`]).
    groups: [[f64; GROUPS]; MAX_SEATS],
}

impl HandEstimate {
    /// The estimate of a hand starting at `start` (antes in, no card dealt), its rollouts keyed
    /// by `key` (the same for every seating of one deal); `opaque` marks the seats whose
    /// probabilities are not to be used.
    pub fn new(start: &State, key: u64, opaque: u16) -> anyhow::Result<HandEstimate> {
        let def = start.def();
        anyhow::ensure!(
            applies(def),
            "the variance-reduced estimate needs every seat's cards to fit the deck ({} does \
             not)",
            def.variant
        );
        let n = def.seats as usize;
        let mut sum = [0.0; MAX_SEATS];
        // No card out, every seat live: each seat's equity is 1 / n by symmetry.
        let even = [1.0 / n as f64; MAX_SEATS];
        values(start, &even, &mut sum);
        Ok(HandEstimate {
            key,
            opaque,
            sum,
            last: sum,
            groups: [[0.0; GROUPS]; MAX_SEATS],
        })
    }

    /// Adds the term of a decision at `state`: the actor chose `legal[chosen]`, having given
    /// `probs` (one per legal action) as its distribution.
    pub fn decision(
        &mut self,
        state: &State,
        legal: &[Action],
        probs: &[f64],
        chosen: usize,
    ) -> anyhow::Result<()> {
        let actor = state.to_act().context("no decision is due")?;
        let live = state.live();
        let equity = self.equities(state, live)?;
        // After a fold the others share the pot; heads-up that is the one seat left.
        let after_fold = match legal.contains(&Action::Fold) {
            true => self.equities(state, live & !(1 << actor))?,
            false => equity,
        };
        let mut before = [0.0; MAX_SEATS];
        values(state, &equity, &mut before);
        self.cards_dealt(state.street(), &before);
        let known = self.opaque & (1 << actor) == 0;
        let mut after = [0.0; MAX_SEATS];
        let mut v = [0.0; MAX_SEATS];
        for (i, &a) in legal.iter().enumerate() {
            let weight = match known {
                true => probs[i],
                false => f64::from(u8::from(i == chosen)),
            };
            if weight == 0.0 && i != chosen {
                continue;
            }
            let mut next = state.clone();
            next.apply(a)?;
            let w = if a == Action::Fold {
                &after_fold
            } else {
                &equity
            };
            values(&next, w, &mut v);
            for (s, x) in after.iter_mut().enumerate() {
                *x += weight * v[s];
            }
            if i == chosen {
                self.last = v;
            }
        }
        for (s, x) in self.sum.iter_mut().enumerate() {
            *x += after[s] - before[s];
            // The decision's correction: V after the action taken less its mean.
            self.groups[s][GROUPS - 1] += self.last[s] - after[s];
        }
        Ok(())
    }

    /// The estimate of each seat's chips once the hand is over at `end`: the terms so far plus
    /// `u − V(end)` (0 but for side pots and odd chips: every live card is known).
    pub fn finish(&mut self, end: &State) -> anyhow::Result<[f64; MAX_SEATS]> {
        let payoffs = end
            .payoffs()
            .context("a finished hand has no payoffs (a rules engine bug)")?;
        let equity = self.equities(end, end.live())?;
        let mut v = [0.0; MAX_SEATS];
        values(end, &equity, &mut v);
        self.cards_dealt(end.street(), &v);
        let mut out = self.sum;
        for (s, &u) in payoffs.iter().enumerate() {
            out[s] += u as f64 - v[s];
        }
        Ok(out)
    }

    /// Each seat's corrections by group ([`GROUPS`]), each of mean 0 given the hand before it:
    /// the hand's chips less its estimate is their sum. A match weighs them anew by a
    /// regression on other deals ([`super::control`]).
    pub fn corrections(&self) -> &[[f64; GROUPS]; MAX_SEATS] {
        &self.groups
    }

    /// Books `V(now) − V(after the last event)`, the correction of the cards dealt between
    /// them (0 when none was), to the group of `street`; `now` becomes the last event's `V`.
    fn cards_dealt(&mut self, street: usize, now: &[f64; MAX_SEATS]) {
        let g = street.min(GROUPS - 2);
        for (s, x) in now.iter().enumerate() {
            self.groups[s][g] += x - self.last[s];
        }
        self.last = *now;
    }

    /// Each seat's checkdown equity at `state` among the seats `live` (0 for the others): its
    /// share of the pot when every live hand is dealt out from the cards not yet dealt and shown
    /// down. Exact when no card is to come; else the mean over [`ROLLOUTS`] random completions.
    fn equities(&self, state: &State, live: u16) -> anyhow::Result<[f64; MAX_SEATS]> {
        let mut equity = [0.0; MAX_SEATS];
        if live.count_ones() == 1 {
            equity[live.trailing_zeros() as usize] = 1.0;
            return Ok(equity);
        }
        let def = state.def();
        let n = def.seats as usize;
        let board: CardSet = state.community_cards().iter().copied().collect();
        let mut out = board;
        let mut held = [CardSet::EMPTY; MAX_SEATS];
        for (s, h) in held.iter_mut().enumerate().take(n) {
            for c in state.down_cards(s as u8) {
                h.insert(c.context("the estimate needs every seat's down cards")?);
            }
            for &c in state.up_cards(s as u8) {
                h.insert(c);
            }
            out = out.union(*h);
        }
        let per = def.cards_per_player();
        let board_missing = def.community_cards() - state.community_cards().len();
        let seats = || (0..n).filter(move |&s| live & (1 << s) != 0);
        let need = seats().map(|s| per - held[s].len() as usize).sum::<usize>() + board_missing;
        let mut pool: Vec<_> = def.deck.cards().minus(out).iter().collect();
        anyhow::ensure!(need <= pool.len(), "the deck cannot complete the hands");
        let mut committed = [0; MAX_SEATS];
        for s in seats() {
            committed[s] = UNIT;
        }
        let pot = (UNIT * u64::from(live.count_ones())) as f64;
        let rollouts = if need == 0 { 1 } else { ROLLOUTS };
        let mut rng = ChaCha8Rng::seed_from_u64(self.spot_key(&held[..n], board, live));
        let mut hands = [None; MAX_SEATS];
        for _ in 0..rollouts {
            let (drawn, _) = abstraction::draw::partial_shuffle(&mut pool, &mut rng, need);
            let mut next = drawn.iter().copied();
            let mut b = board;
            for c in next.by_ref().take(board_missing) {
                b.insert(c);
            }
            for s in seats() {
                let mut h = held[s].union(b);
                for c in next.by_ref().take(per - held[s].len() as usize) {
                    h.insert(c);
                }
                hands[s] = Some(h);
            }
            let won = showdown_winnings(def.variant.showdown(), &committed[..n], &hands[..n]);
            for s in seats() {
                equity[s] += won[s] as f64 / pot;
            }
        }
        for e in &mut equity[..n] {
            *e /= f64::from(rollouts);
        }
        Ok(equity)
    }

    /// The seed of a spot's rollouts: the deal's key, each seat's cards and the board, and who
    /// is live. The seatings of a duplicate deal reaching the same cards draw the same
    /// rollouts, so that their noise cancels where they bet alike.
    fn spot_key(&self, held: &[CardSet], board: CardSet, live: u16) -> u64 {
        let mut h = abstraction::fnv::Fnv::new();
        h.update(&self.key.to_le_bytes());
        for c in held {
            h.update(&c.0.to_le_bytes());
        }
        h.update(&board.0.to_le_bytes());
        h.update(&live.to_le_bytes());
        h.finish()
    }
}

/// Each seat's checkdown value at `state` given the live seats' `equity`: its share of the pot
/// minus what it has put in (a folded seat: minus what it has put in).
fn values(state: &State, equity: &[f64; MAX_SEATS], out: &mut [f64; MAX_SEATS]) {
    let pot = state.pot() as f64;
    for (s, v) in out.iter_mut().enumerate().take(state.def().seats as usize) {
        let put_in = state.committed(s as u8) as f64;
        *v = match state.folded(s as u8) {
            true => -put_in,
            false => equity[s] * pot - put_in,
        };
    }
}
