//! What a player, a policy and a strategy file's lookup are told of a hand's betting: below all
//! of them, since each finds its node by it.

use abstraction::rules::Action;

/// A betting action of the hand so far, with its street (0 = the first betting round). A player
/// gets the list of them with the state: the state holds the cards and chips, not the order of
/// the betting, which a strategy file needs to find its node.
pub type Bet = (usize, Action);
