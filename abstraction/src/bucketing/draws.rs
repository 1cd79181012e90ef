//! How a view's rollouts draw their cards ([`Draws`], recorded with a bucketing), and the two
//! generators behind it.
//!
//! A view's features are an estimate from random deals seeded by the view; what matters for
//! the abstraction is the estimate's distribution, not which samples it happened to take. The
//! [`Draws::ChaCha`] draws are those of every bucketing built before the setting existed (their
//! files and the strategies solved with them keep them). [`Draws::Fast`] takes samples of the
//! same distribution for less work: a generator of one multiplication a word, the cards left
//! by an outer draw are the inner draws' pool as they lie (any order of a pool gives a uniform
//! partial shuffle, so the pool need not be rebuilt in card order), and an inner draw deals an
//! opponent's hidden cards only when the showdown asks for that opponent's strength (a hand
//! beaten by the first opponent needs nobody else's). Each inner draw is still a uniform deal
//! of every live opponent's hidden cards, truncated where its outcome is already known.

use crate::named::Named;
use rand::Rng;
use rand_chacha::ChaCha8Rng;

/// How a bucketing's rollouts draw their cards.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Draws {
    /// ChaCha8 seeded by the view, every inner draw dealing every live opponent's hidden cards
    /// from a pool rebuilt in card order: the draws of every bucketing before this setting.
    ChaCha,
    /// A wyrand stream seeded by the view, the outer draw's leftover cards as the inner pool,
    /// and hidden cards dealt only as far as the showdown asks: the same distribution of every
    /// feature, other samples, fewer words and swaps.
    Fast,
}

impl Named for Draws {
    const ALL: &'static [(&'static str, Draws)] =
        &[("chacha", Draws::ChaCha), ("fast", Draws::Fast)];
    const WHAT: &'static str = "a way of drawing";
}

impl Draws {
    /// Its code in a bucketing file (format version 2; version 1 files are all ChaCha).
    pub(super) fn code(self) -> u32 {
        match self {
            Draws::ChaCha => 0,
            Draws::Fast => 1,
        }
    }

    /// The setting of a code written by [`Draws::code`].
    pub(super) fn of_code(code: u32) -> Option<Draws> {
        match code {
            0 => Some(Draws::ChaCha),
            1 => Some(Draws::Fast),
            _ => None,
        }
    }
}

/// A stream of random words for the rollouts. `LAZY` says which rollout goes with it: the
/// ChaCha stream's rollouts keep the draws of [`Draws::ChaCha`] bit for bit, the fast one's
/// take [`Draws::Fast`]'s shortcuts.
pub(super) trait Source {
    /// Whether the rollouts reuse the outer pool and deal hidden cards lazily.
    const LAZY: bool;
    /// The next 32 random bits.
    fn word(&mut self) -> u32;
}

impl Source for ChaCha8Rng {
    const LAZY: bool = false;
    #[inline]
    fn word(&mut self) -> u32 {
        self.next_u32()
    }
}

/// Wyrand (Wang Yi's generator): a Weyl sequence mixed by one 64×64→128-bit multiplication.
/// It passes the usual statistical batteries, and a view's features need no more than
/// independent-looking words.
pub(super) struct WyRand(u64);

impl WyRand {
    /// The stream of `seed` (a view's seed, already mixed).
    pub(super) fn new(seed: u64) -> WyRand {
        WyRand(seed)
    }
}

impl Source for WyRand {
    const LAZY: bool = true;
    #[inline]
    fn word(&mut self) -> u32 {
        self.0 = self.0.wrapping_add(0xa076_1d64_78bd_642f);
        let t = (self.0 as u128).wrapping_mul((self.0 ^ 0xe703_7ed1_a0b4_28db) as u128);
        // The high half of the folded product: its best-mixed bits.
        ((t >> 64) as u64 ^ t as u64).wrapping_shr(32) as u32
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_fast_stream_is_uniform_enough_for_card_indices() {
        // Indices in 0..47 as the draws take them: each bucket near 1/47 of 470,000 words.
        let mut r = WyRand::new(7);
        let mut counts = [0u32; 47];
        for _ in 0..470_000 {
            counts[((r.word() as u64 * 47) >> 32) as usize] += 1;
        }
        // A chi-square of 46 degrees of freedom: above 90 has odds under 1 in 10,000.
        let chi: f64 = counts
            .iter()
            .map(|&c| (c as f64 - 10_000.0).powi(2) / 10_000.0)
            .sum();
        assert!(chi < 90.0, "chi-square {chi}");
    }

    #[test]
    fn codes_round_trip() {
        for d in [Draws::ChaCha, Draws::Fast] {
            assert_eq!(Draws::of_code(d.code()), Some(d));
        }
        assert_eq!(Draws::of_code(2), None);
    }
}
