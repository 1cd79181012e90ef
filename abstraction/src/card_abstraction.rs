//! Card abstractions: which private hands a player can tell apart at a given public state.
//!
//! The tree asks the abstraction for a bucket per (street, private hand, public cards) once, at
//! build time, and stores the answers as flat tables; the solver only reads those tables. A
//! bucketing abstraction (next issue) implements the same trait and maps many hands to one bucket.

use crate::cards::CardSet;

/// Maps a player's private hand, seen with the public cards of a street, to a bucket: hands in the
/// same bucket share one strategy.
pub trait CardAbstraction {
    /// A short name recorded in strategy files, e.g. `lossless`.
    fn name(&self) -> String;

    /// How many buckets street `street` has when there are `hands` private hands.
    fn num_buckets(&self, street: usize, hands: usize) -> u32;

    /// The bucket of private hand number `hand_index` (cards `hand`) on street `street`, given all
    /// the public cards dealt so far (`public`). Must be below `num_buckets(street, ..)`.
    fn bucket(&self, street: usize, hand_index: u32, hand: CardSet, public: CardSet) -> u32;
}

/// The lossless abstraction: every private hand is its own bucket.
#[derive(Clone, Copy, Debug, Default)]
pub struct Lossless;

impl CardAbstraction for Lossless {
    fn name(&self) -> String {
        "lossless".into()
    }

    fn num_buckets(&self, _street: usize, hands: usize) -> u32 {
        hands as u32
    }

    fn bucket(&self, _street: usize, hand_index: u32, _hand: CardSet, _public: CardSet) -> u32 {
        hand_index
    }
}
