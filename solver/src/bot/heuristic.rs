//! The hand-strength bot: its equity by seeded rollouts against the opponents' up cards, then
//! raise strong hands, call what the pot odds pay for, fold the rest.

use super::{most_aggressive, passive, Answer, Bet, Player};
use abstraction::cards::{Card, CardSet};
use abstraction::rules::{showdown_winnings, Action, Deal, State};
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;

/// Raises when its equity is at least `strong` times its fair share (1 / players left), calls
/// when the equity beats the pot odds, otherwise checks or folds. The equity is the mean share
/// of the pot won over `rollouts` random completions of every live hand (the opponents' down
/// cards unknown), drawn from a generator seeded by the cards the seat sees: the same spot
/// always gets the same answer.
pub struct Heuristic {
    /// Rollouts per decision.
    pub rollouts: u32,
    /// Equity, as a multiple of a fair share, from which it raises.
    pub strong: f64,
}

impl Default for Heuristic {
    fn default() -> Heuristic {
        Heuristic {
            rollouts: 128,
            strong: 1.25,
        }
    }
}

/// The most seats a state holds (the rules engine's bit masks are 16 wide).
const MAX_SEATS: usize = 16;

impl Heuristic {
    /// The seat's expected share of the pot at a showdown against every live seat, by
    /// rollouts: unknown cards (the others' down cards, its own unknown ones, cards to come)
    /// are drawn from the cards it has not seen.
    pub fn equity(&self, state: &State, seat: u8) -> f64 {
        equity(state, seat, None, self.rollouts)
    }
}

/// `seat`'s expected share of the pot if the hand is checked down, by `rollouts` seeded
/// rollouts: cards it cannot see (the others' down cards, cards to come) are drawn from the
/// cards it has not seen, except that `assumed` gives one seat's hidden cards. The same spot
/// always gets the same answer.
pub fn equity(state: &State, seat: u8, assumed: Option<(u8, CardSet)>, rollouts: u32) -> f64 {
    let def = state.def();
    let n = def.seats as usize;
    let community: CardSet = state.community_cards().iter().copied().collect();
    // What the seat sees: its own cards, every up card (folded seats' too), the board.
    let mut seen = community;
    let mut base = [CardSet::EMPTY; MAX_SEATS];
    let per_player = def.cards_per_player();
    for s in 0..def.seats {
        let mut hand: CardSet = state.up_cards(s).iter().copied().collect();
        if s == seat {
            for c in state.down_cards(s).iter().flatten() {
                hand.insert(*c);
            }
        }
        if let Some((_, cards)) = assumed.filter(|(a, _)| *a == s) {
            hand = hand.union(cards);
        }
        seen = seen.union(hand);
        base[s as usize] = hand;
    }
    // The cards each hand still lacks: every card it will get, minus those the seat sees.
    let mut missing = [0usize; MAX_SEATS];
    for (m, b) in missing.iter_mut().zip(&base).take(n) {
        *m = per_player.saturating_sub(b.len() as usize);
    }
    let board_total = def
        .streets
        .iter()
        .flat_map(|st| &st.deal)
        .filter(|d| **d == Deal::Community)
        .count();
    let board_missing = board_total.saturating_sub(state.community_cards().len());
    let live = state.live();
    let mut pool: Vec<Card> = def.deck.cards().minus(seen).iter().collect();
    let need: usize = (0..n)
        .filter(|&s| live & (1 << s) != 0)
        .map(|s| missing[s])
        .sum::<usize>()
        + board_missing;
    if need > pool.len() || live.count_ones() < 2 {
        // Not enough cards to complete the hands (a full table running short): no idea.
        return 1.0 / f64::from(live.count_ones().max(1));
    }
    let mut rng = ChaCha8Rng::seed_from_u64(spot_seed(seen, base[seat as usize], seat));
    let committed = [1u64; MAX_SEATS];
    let mut total = 0.0;
    for _ in 0..rollouts {
        let (drawn, _) = abstraction::draw::partial_shuffle(&mut pool, &mut rng, need);
        let mut next = drawn.iter();
        let mut board = community;
        for c in next.by_ref().take(board_missing) {
            board.insert(*c);
        }
        let mut hands = [None; MAX_SEATS];
        for s in (0..n).filter(|&s| live & (1 << s) != 0) {
            let mut h = base[s].union(board);
            for c in next.by_ref().take(missing[s]) {
                h.insert(*c);
            }
            hands[s] = Some(h);
        }
        let won = showdown_winnings(def.variant.showdown(), &committed[..n], &hands[..n]);
        total += won[seat as usize] as f64 / n as f64;
    }
    total / f64::from(rollouts)
}

/// A seed from what the seat sees, so that a spot always gets the same rollouts.
fn spot_seed(seen: CardSet, mine: CardSet, seat: u8) -> u64 {
    seen.0 ^ mine.0.rotate_left(23) ^ (u64::from(seat) << 58) ^ 0x9E37_79B9_7F4A_7C15
}

impl Player for Heuristic {
    fn name(&self) -> &str {
        "heuristic"
    }

    fn policy(
        &self,
        state: &State,
        _: &[Bet],
        seat: u8,
        legal: &[Action],
        probs: &mut [f64],
    ) -> anyhow::Result<Answer> {
        let equity = self.equity(state, seat);
        let fair = 1.0 / f64::from(state.live().count_ones().max(1));
        let owed = (0..state.def().seats)
            .map(|s| state.round_bet(s))
            .max()
            .unwrap_or(0)
            .saturating_sub(state.round_bet(seat))
            .min(state.stack(seat));
        let pot_odds = owed as f64 / (state.pot() + owed) as f64;
        let pick = if equity >= self.strong * fair {
            most_aggressive(legal)
        } else if owed == 0 || legal.contains(&Action::BringIn) || equity >= pot_odds {
            passive(legal)
        } else {
            legal.iter().position(|a| *a == Action::Fold).unwrap_or(0)
        };
        probs.fill(0.0);
        probs[pick] = 1.0;
        Ok(Answer::Own)
    }
}
