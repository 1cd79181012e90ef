//! The checkdown value of a spot, the variance-reduced estimate's ([`super::aivat`]) measure
//! of where a hand stands: each live seat's equity (its expected share of the pot if every live
//! hand is dealt out and shown down, no one folding and nothing more bet; every card known,
//! since the match sees them all) times the pot, less what it has put in; a folded seat's is
//! less what it has put in.

use abstraction::cards::CardSet;
use abstraction::rules::pots::MAX_SEATS;
use abstraction::rules::{showdown_winnings, State};
use anyhow::Context;
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;

/// Chips a live seat puts into a rollout's pot: 2 × lcm(1..10), so that a pot or either half of
/// a hi-lo pot splits exactly among any number of winners, and no odd chip favours a seat
/// (which the symmetry of the estimate's starting value needs).
const UNIT: u64 = 5040;

/// The equities of one hand's spots, their rollouts drawn from generators keyed by the deal
/// (the same for every seating of a duplicate deal) and the cards out.
#[derive(Clone, Copy, Debug)]
pub struct Equities {
    /// The deal's key.
    key: u64,
}

impl Equities {
    /// The equities of the hands of the deal keyed `key`.
    pub fn new(key: u64) -> Equities {
        Equities { key }
    }

    /// Each seat's checkdown equity at `state` among the seats `live` (0 for the others): its
    /// share of the pot when every live hand is dealt out from the cards not yet dealt and
    /// shown down. Exact when no card is to come; else the mean over `rollouts` random
    /// completions.
    pub fn at(&self, state: &State, live: u16, rollouts: u32) -> anyhow::Result<[f64; MAX_SEATS]> {
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
        let rollouts = if need == 0 { 1 } else { rollouts.max(1) };
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

    /// A seed for draws at `state` that depends on the deal's key, the cards out and who is
    /// live, `salt` telling apart the draws of different uses.
    pub fn key_of(&self, state: &State, salt: u64) -> u64 {
        let n = state.def().seats;
        let board: CardSet = state.community_cards().iter().copied().collect();
        let mut held = [CardSet::EMPTY; MAX_SEATS];
        for (s, h) in held.iter_mut().enumerate().take(n as usize) {
            // An unknown card (none in a match) leaves its seat's set short.
            for &c in state.down_cards(s as u8).iter().flatten() {
                h.insert(c);
            }
            for &c in state.up_cards(s as u8) {
                h.insert(c);
            }
        }
        self.spot_key(&held[..n as usize], board, state.live()) ^ salt
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
pub fn values(state: &State, equity: &[f64; MAX_SEATS]) -> [f64; MAX_SEATS] {
    let pot = state.pot() as f64;
    let mut out = [0.0; MAX_SEATS];
    for (s, v) in out.iter_mut().enumerate().take(state.def().seats as usize) {
        let put_in = state.committed(s as u8) as f64;
        *v = match state.folded(s as u8) {
            true => -put_in,
            false => equity[s] * pot - put_in,
        };
    }
    out
}

/// Most sets of live seats a [`Memo`] keeps.
const MEMO: usize = 16;

/// The equities of one spot's street by the set of live seats: no card comes inside a street,
/// so every spot of it with the same seats live has the same equities (a walk of the street
/// asks again and again). [`Memo::default`] is empty.
#[derive(Default)]
pub struct Memo {
    len: usize,
    live: [u16; MEMO],
    equity: [[f64; MAX_SEATS]; MEMO],
}

impl Memo {
    /// The equities at `state` (a spot of the memo's street) among its live seats, by
    /// `rollouts` rollouts when not known yet.
    pub fn at(
        &mut self,
        eq: &Equities,
        state: &State,
        rollouts: u32,
    ) -> anyhow::Result<[f64; MAX_SEATS]> {
        let live = state.live();
        if let Some(i) = self.live[..self.len].iter().position(|&l| l == live) {
            return Ok(self.equity[i]);
        }
        let e = eq.at(state, live, rollouts)?;
        if self.len < MEMO {
            self.live[self.len] = live;
            self.equity[self.len] = e;
            self.len += 1;
        }
        Ok(e)
    }

    /// The checkdown values at `state`, a spot of the memo's street.
    pub fn values(
        &mut self,
        eq: &Equities,
        state: &State,
        rollouts: u32,
    ) -> anyhow::Result<[f64; MAX_SEATS]> {
        Ok(values(state, &self.at(eq, state, rollouts)?))
    }
}
