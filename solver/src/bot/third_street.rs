//! How a player answers the bring-in on third street of a seven-card game, by its door card and
//! the class of its three cards: the data of `stud report`'s third-street chart.

use super::matches::stream;
use super::{Bet, Player};
pub use crate::describe::third::{high_class, razz_class, HIGH_CLASSES, RAZZ_CLASSES};
use abstraction::cards::{Card, Rank};
use abstraction::rules::{Action, Deal, FirstRound, GameDef, Next, Showdown, State};
use anyhow::{ensure, Context};
use std::sync::Arc;

/// The actions counted: fold, call, complete, raise (a completion is not a raise).
pub const ACTIONS: [&str; 4] = ["fold", "call", "complete", "raise"];

/// A classifier of three third-street cards (hole, door).
type Classify = fn([Card; 2], Card) -> usize;

/// The chart's data: for each hand class (rows) and door rank (13 columns: deuce to ace in the
/// high games, ace to king in razz), the player's mean probabilities of [`ACTIONS`] over the sampled hands, and how many there were.
pub struct ThirdStreet {
    /// The row labels.
    pub classes: &'static [&'static str],
    /// The door rank of each column.
    pub doors: Vec<Rank>,
    /// `freq[class * 13 + column]`: mean probabilities of fold, call, complete, raise.
    pub freq: Vec<[f64; 4]>,
    /// Hands sampled per cell (0: the cell cannot face a bring-in, or is too rare to find).
    pub samples: Vec<u32>,
}

/// Samples, for each cell (class, door rank), up to `per_cell` third-street hands where the
/// player, in the second seat, faces the other seat's bring-in, and averages `player`'s policy
/// there. The other seat's cards are random. Deterministic for `seed`.
pub fn third_street(
    player: &dyn Player,
    def: &Arc<GameDef>,
    per_cell: u32,
    seed: u64,
) -> anyhow::Result<ThirdStreet> {
    let first = &def.streets[0].deal;
    ensure!(
        def.seats == 2
            && first.as_slice() == [Deal::Down, Deal::Down, Deal::Up]
            && def.first_round == FirstRound::BringIn,
        "the third-street chart is for heads-up seven-card games (two down cards and a door \
         card, a bring-in)"
    );
    let razz = def.variant.showdown() == Showdown::Razz;
    let (classes, classify): (&'static [&'static str], Classify) = if razz {
        (&RAZZ_CLASSES, razz_class)
    } else {
        (&HIGH_CLASSES, high_class)
    };
    // Ranks in the order the game reads them: ace low in razz.
    let mut doors: Vec<Rank> = Rank::all().collect();
    if razz {
        doors.rotate_right(1);
    }
    let cells = classes.len() * 13;
    let mut freq = vec![[0.0; 4]; cells];
    let mut samples = vec![0u32; cells];
    let deck: Vec<Card> = def.deck.cards().iter().collect();
    let mut probs = [0.0; 8];
    let bets: [Bet; 1] = [(0, Action::BringIn)];
    for cell in 0..cells {
        let (class, door_rank) = (cell / 13, doors[cell % 13]);
        let mut rng = stream(seed, cell as u64, 0);
        let doors: Vec<Card> = deck
            .iter()
            .copied()
            .filter(|c| c.rank() == door_rank)
            .collect();
        // Rare classes (trips: 1 in 400) need many draws; a cell that never faces a bring-in
        // (the lowest door of all) gives up after them.
        for _ in 0..per_cell as usize * 2000 {
            if samples[cell] == per_cell {
                break;
            }
            let mut cards = deck.clone();
            let Some(&door) = abstraction::draw::choose(&doors, &mut rng) else {
                break;
            };
            cards.retain(|&c| c != door);
            let (drawn, _) = abstraction::draw::partial_shuffle(&mut cards, &mut rng, 5);
            let hole = [drawn[0], drawn[1]];
            if classify(hole, door) != class {
                continue;
            }
            // Seat 0 (the other player) gets the next three, the player seat 1.
            let deal = [[drawn[2], drawn[3], drawn[4]], [hole[0], hole[1], door]];
            let mut st = State::with_def(Arc::clone(def))?;
            let mut k = [0usize; 2];
            while let Next::Deal { seat: Some(s), .. } = st.next() {
                st.deal(deal[s as usize][k[s as usize]])?;
                k[s as usize] += 1;
            }
            if st.to_act() != Some(0) || !st.legal_actions().contains(&Action::BringIn) {
                continue; // the player brings in itself: not this chart's spot
            }
            st.apply(Action::BringIn)?;
            let legal = st.legal_actions();
            let p = &mut probs[..legal.len()];
            player
                .policy(&st, &bets, 1, &legal, p)
                .with_context(|| format!("{} facing the bring-in", player.name()))?;
            let level = st.round_bet(0);
            for (a, q) in legal.iter().zip(p.iter()) {
                let i = match a {
                    Action::Fold => 0,
                    Action::CheckCall | Action::BringIn => 1,
                    Action::CompleteBetRaise(_) if level <= def.bring_in => 2,
                    Action::CompleteBetRaise(_) => 3,
                };
                freq[cell][i] += q;
            }
            samples[cell] += 1;
        }
        if samples[cell] > 0 {
            let n = f64::from(samples[cell]);
            freq[cell].iter_mut().for_each(|x| *x /= n);
        }
    }
    Ok(ThirdStreet {
        classes,
        doors,
        freq,
        samples,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::bot::{AlwaysCall, Heuristic};
    use abstraction::cards::parse_cards;

    fn class_of(f: fn([Card; 2], Card) -> usize, s: &str) -> usize {
        let c = parse_cards(s).unwrap();
        f([c[0], c[1]], c[2])
    }

    #[test]
    fn hands_fall_in_the_classes_a_stud_player_names() {
        let cases = [
            ("7c 7d 7h", 0),
            ("Ac Ad 5h", 1),
            ("Kc 5d Kh", 2),
            ("4c 4d Ah", 3),
            ("9c 2d 2h", 4),
            ("2h 9h Kh", 5),
            ("Ac 2d 4h", 6),
            ("9c Td Jh", 6),
            ("Ac 3d 8h", 7),
            ("Kc 3d Qh", 8),
            ("Kc 3d 8h", 9),
        ];
        for (hand, class) in cases {
            assert_eq!(class_of(high_class, hand), class, "{hand}");
        }
        let razz = [
            ("Ac 2d 5h", 0),
            ("6c 2d 3h", 1),
            ("7c 2d Ah", 2),
            ("8c 2d 3h", 3),
            ("Tc 2d 3h", 4),
            ("Kc 2d 3h", 5),
            ("Ac Ad 3h", 6),
            ("Qc 2d Qh", 7),
            ("5c 5d 5h", 8),
        ];
        for (hand, class) in razz {
            assert_eq!(class_of(razz_class, hand), class, "{hand}");
        }
    }

    #[test]
    fn the_chart_averages_the_players_policy_facing_the_bring_in() {
        let def = Arc::new(GameDef::preset("7stud").unwrap());
        let t = third_street(&AlwaysCall, &def, 2, 1).unwrap();
        assert_eq!(t.freq.len(), HIGH_CLASSES.len() * 13);
        // Always calls wherever a hand was found; a deuce door (column 0) almost never faces a
        // bring-in, an ace door always can.
        for (f, &n) in t.freq.iter().zip(&t.samples) {
            assert_eq!(
                *f,
                if n > 0 {
                    [0.0, 1.0, 0.0, 0.0]
                } else {
                    [0.0; 4]
                }
            );
        }
        let aces: Vec<u32> = (0..HIGH_CLASSES.len())
            .map(|c| t.samples[c * 13 + 12])
            .collect();
        // (An ace door splits only a pair of aces: no small split pair.)
        assert_eq!(aces, [2, 2, 2, 2, 0, 2, 2, 2, 2, 2]);
        assert_eq!((t.doors[0], t.doors[12]), (Rank::TWO, Rank::ACE));
        // Razz reads the ace low: its column comes first.
        let razz = Arc::new(GameDef::preset("razz").unwrap());
        let r = third_street(&AlwaysCall, &razz, 1, 1).unwrap();
        assert_eq!((r.doors[0], r.doors[12]), (Rank::ACE, Rank::KING));
        assert_eq!(r.classes, &RAZZ_CLASSES);
        // The hand-strength bot completes rolled-up trips.
        let h = third_street(&Heuristic::default(), &def, 4, 1).unwrap();
        let trips_ace_door = h.freq[12];
        assert!(trips_ace_door[2] > 0.99, "{trips_ace_door:?}");
    }
}
