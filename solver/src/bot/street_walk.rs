//! The value of the rest of a street's betting under the players' own policies: the baseline
//! of the variance-reduced estimate ([`super::aivat`]) that sees the bets still to come.
//!
//! From a spot, every betting line of the current street is walked (no card comes inside a
//! street, so the walk is exact), each action weighed by the probability its player gives, and
//! each line's end valued by the caller (the checkdown value there: the pot the betting made
//! times each seat's equity, less what it put in). A seat whose policy may not be read (one the
//! estimate treats as unknown, or a player whose answers cost a re-solve, see
//! [`super::Player::walkable`]) is walked as if it checked and called; a spot whose policy
//! cannot be given (an error), or past [`MAX_DEPTH`] decisions, ends the walk there. Any such
//! choice keeps the estimate unbiased: it is a baseline, and the estimate is unbiased for any.

use super::{passive, Bet, Player};
use abstraction::rules::pots::MAX_SEATS;
use abstraction::rules::{Next, State};

/// Most decisions a walk plays before it values a spot as it stands: it bounds the walk where
/// the betting may run long (heads-up the card room lifts the cap, and two raisers raise until
/// one is all in) and at a table, where every seat acts; a street of the players' usual
/// betting (a bet, a raise or two, the calls) fits.
pub const MAX_DEPTH: u32 = 7;

/// The players of a walk, and what it may read of them.
pub struct Walkers<'a> {
    seats: &'a [&'a dyn Player],
    /// Seats walked as check/call (bit `s`): unread, or not [`Player::walkable`].
    unread: u16,
    /// Each seat's card class on the walk's street ([`Player::card_class`]), when it has one:
    /// asked once a walk, not at each of its spots.
    classes: [Option<u32>; MAX_SEATS],
}

impl<'a> Walkers<'a> {
    /// The players `seats` (one per seat) at `state`'s street, the seats of `unread` (bit `s`)
    /// walked as check/call.
    pub fn new(seats: &'a [&'a dyn Player], unread: u16, state: &State) -> Walkers<'a> {
        let mut unread = unread;
        let mut classes = [None; MAX_SEATS];
        for (s, p) in seats.iter().enumerate() {
            if !p.walkable() {
                unread |= 1 << s;
            } else if unread & (1 << s) == 0 && !state.folded(s as u8) {
                // A class that cannot be found (an error) is asked for again at each spot.
                classes[s] = p.card_class(state, s as u8).ok().flatten();
            }
        }
        Walkers {
            seats,
            unread,
            classes,
        }
    }

    /// Writes into `probs` the distribution `seat` plays at `state` in the walk, summing to 1;
    /// `false` when its player cannot answer there.
    pub fn probs(
        &self,
        state: &State,
        bets: &[Bet],
        seat: u8,
        legal: &[abstraction::rules::Action],
        probs: &mut [f64],
    ) -> bool {
        let s = seat as usize;
        let probs = &mut probs[..legal.len()];
        if self.unread & (1 << s) != 0 {
            probs.fill(0.0);
            probs[passive(legal)] = 1.0;
            return true;
        }
        let player = self.seats[s];
        let answered = match self.classes[s] {
            Some(class) => player
                .class_policy(state, bets, seat, class, legal, probs)
                .is_ok(),
            None => player.policy(state, bets, seat, legal, probs).is_ok(),
        };
        if answered {
            // The walk is a baseline: where the answer has no weight it plays the check or
            // call, as the players' own fallback does.
            super::drawn_distribution(probs, passive(legal));
        }
        answered
    }
}

/// Each seat's expected value at the end of `state`'s street's betting, the rest of the street
/// walked by `walkers` (`bets`: the betting that reached `state`; restored on return) and each
/// spot where the walk stops valued by `leaf`.
pub fn street_value(
    state: &State,
    bets: &mut Vec<Bet>,
    walkers: &Walkers,
    leaf: &mut dyn FnMut(&State) -> anyhow::Result<[f64; MAX_SEATS]>,
) -> anyhow::Result<[f64; MAX_SEATS]> {
    walk(state, state.street(), MAX_DEPTH, bets, walkers, leaf)
}

/// [`street_value`] of `street` with `depth` decisions left to walk.
fn walk(
    state: &State,
    street: usize,
    depth: u32,
    bets: &mut Vec<Bet>,
    walkers: &Walkers,
    leaf: &mut dyn FnMut(&State) -> anyhow::Result<[f64; MAX_SEATS]>,
) -> anyhow::Result<[f64; MAX_SEATS]> {
    let seat = match state.next() {
        Next::Act { seat } if state.street() == street && depth > 0 => seat,
        _ => return leaf(state),
    };
    let legal = state.legal_actions();
    let mut probs = [0.0; 8];
    if legal.len() > probs.len() || !walkers.probs(state, bets, seat, &legal, &mut probs) {
        return leaf(state);
    }
    let mut total = [0.0; MAX_SEATS];
    for (&a, &p) in legal.iter().zip(&probs) {
        if p == 0.0 {
            continue;
        }
        let mut next = state.clone();
        next.apply(a)?;
        bets.push((street, a));
        let v = walk(&next, street, depth - 1, bets, walkers, leaf);
        bets.pop();
        for (t, x) in total.iter_mut().zip(v?) {
            *t += p * x;
        }
    }
    Ok(total)
}
