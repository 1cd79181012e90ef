//! The hand-strength bot: its equity by seeded rollouts against the opponents' up cards, then
//! raise strong hands, call what the pot odds pay for, fold the rest.

use super::{most_aggressive, passive, Answer, Bet, Player};
use abstraction::cards::{Card, CardSet};
use abstraction::rules::{showdown_winnings, Action, Deal, GameDef, OutOfCards, State};
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

/// Chips a seat puts into a rollout's pot at a table of three or more: 2 × lcm(1..10), so that
/// a pot, or either half of a hi-lo pot, splits exactly among any number of winners.
const EXACT_SHARE: u64 = 5040;

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
    let live = state.live();
    // Out of cards on the last street, the rules engine turns one community card that every
    // live hand uses instead of a card each (seven-card stud from eight live seats).
    let short = last_street_short(state);
    if short {
        let own_last = player_cards(def, def.streets.len() - 1);
        for s in (0..n).filter(|&s| live & (1 << s) != 0) {
            missing[s] = missing[s].saturating_sub(own_last);
        }
    }
    let board_missing =
        (board_total + usize::from(short)).saturating_sub(state.community_cards().len());
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
    // Each seat's share of an equal pot: heads-up one chip a seat, as it was always measured
    // (a tied hi-lo half goes whole to one seat); with more seats, chips enough that any split
    // of a half among up to ten winners is exact, so the odd chip favours no seat.
    let unit = if n == 2 { 1 } else { EXACT_SHARE };
    let committed = [unit; MAX_SEATS];
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
        total += won[seat as usize] as f64 / (unit * n as u64) as f64;
    }
    total / f64::from(rollouts)
}

/// The cards each seat gets on street `street` (community cards excluded).
fn player_cards(def: &GameDef, street: usize) -> usize {
    def.streets[street]
        .deal
        .iter()
        .filter(|d| **d != Deal::Community)
        .count()
}

/// Whether the last street is (or, if every live seat stays in, will be) dealt as one community
/// card because the stub cannot give each live seat its card: the rules engine's rule for a
/// full table (`State`'s module doc), its count of the stub redone from the cards out. Never
/// with two seats.
fn last_street_short(state: &State) -> bool {
    let def = state.def();
    let last = def.streets.len() - 1;
    if state.street() == last {
        return state.short_of_cards();
    }
    let live = state.live().count_ones() as usize;
    let before_last = def.cards_per_player() - player_cards(def, last);
    let community = |streets: &[abstraction::rules::StreetDef]| {
        streets
            .iter()
            .flat_map(|st| &st.deal)
            .filter(|d| **d == Deal::Community)
            .count()
    };
    let needed = live * player_cards(def, last) + community(&def.streets[last..]);
    // Out of the stub by then: the live seats' cards and the board; burns go back either way,
    // and the folded seats' cards too under PokerKit's reshuffle.
    let mut out = live * before_last + community(&def.streets[..last]);
    if def.out_of_cards == OutOfCards::CardRoom {
        out += (0..def.seats)
            .filter(|&s| state.folded(s))
            .map(|s| state.up_cards(s).len() + state.down_cards(s).len())
            .sum::<usize>();
    }
    needed > (def.deck.cards().len() as usize).saturating_sub(out)
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
        let owed = state.owed(seat);
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
