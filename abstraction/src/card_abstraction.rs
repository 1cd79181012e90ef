//! Card abstractions: which private hands a player can tell apart at a given public state.
//!
//! The tree asks the abstraction for a bucket per (board, seat, private hand) once, at build time,
//! and stores the answers as flat tables; the solver only reads those tables. [`Lossless`] gives
//! every hand its own bucket; the stud bucketing ([`Bucketing`]) implements the same trait (here,
//! since the trait is the tree's interface above the bucketing) and maps many hands to one
//! bucket.

use crate::bucketing::{BucketError, Bucketing, CardView};
use crate::cards::CardSet;

/// What one player sees of the cards at a decision: the tree asks the abstraction about it. The
/// stud bucketing's [`CardView`] (street, down cards, both seats' up cards), and what only the
/// public tree's games have besides: the hand's index on the board, and community cards.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SeatCards {
    /// The street, the player's down cards (the private hand) and up cards, the opponent's up
    /// cards.
    pub view: CardView,
    /// The index of the private hand among the hands possible on this board: the deck's cards
    /// not showing, in card order (`0..Tree::possible_hands`).
    pub hand_index: u32,
    /// The community cards (Leduc's board card; none in stud).
    pub community: CardSet,
}

/// Maps a player's private hand, seen with the public cards of a street, to a bucket: hands in the
/// same bucket share one strategy.
pub trait CardAbstraction {
    /// A short name recorded in strategy files, e.g. `lossless`; a built abstraction includes
    /// its checksum, so that a file names exactly the abstraction it was solved with.
    fn name(&self) -> String;

    /// How many buckets street `street` has when `hands` private hands are possible there
    /// (the deck's cards not showing on the street).
    fn num_buckets(&self, street: usize, hands: usize) -> u32;

    /// The bucket of what a player sees, below `num_buckets(street, ..)`. The tree asks only
    /// about hands that do not collide with the public cards; an error means the abstraction was
    /// made for another game.
    fn bucket(&self, cards: &SeatCards) -> Result<u32, BucketError>;
}

/// The lossless abstraction: every private hand possible on the board is its own bucket (a
/// hand holding a card that shows is in none, so it costs no slot).
#[derive(Clone, Copy, Debug, Default)]
pub struct Lossless;

impl CardAbstraction for Lossless {
    fn name(&self) -> String {
        "lossless".into()
    }

    fn num_buckets(&self, _street: usize, hands: usize) -> u32 {
        hands as u32
    }

    fn bucket(&self, cards: &SeatCards) -> Result<u32, BucketError> {
        Ok(cards.hand_index)
    }
}

impl CardAbstraction for Bucketing {
    fn name(&self) -> String {
        format!("buckets:{}:{:016x}", self.size().name, self.checksum())
    }

    fn num_buckets(&self, street: usize, _hands: usize) -> u32 {
        self.buckets(street)
    }

    fn bucket(&self, c: &SeatCards) -> Result<u32, BucketError> {
        if !c.community.is_empty() {
            return Err(BucketError::View(format!(
                "community cards {}: the stud bucketing has none",
                c.community
            )));
        }
        Bucketing::bucket(self, &c.view)
    }
}
