use super::*;
use crate::rules::state::{Next, State};
use crate::rules::Variant;
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;

/// Plays random real hands on the cards of sampled deals and checks the facts against the rules
/// engine: the first actor of every street given the seats in, and at a showdown each seat's
/// share of the pot.
fn facts_agree_with_the_engine(def: &GameDef, hands: usize, seed: u64) {
    let mut facts = MultiwayFacts::new(def).unwrap();
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let seats = def.seats as usize;
    let per_seat = def.cards_per_player();
    let mut showdowns = 0;
    for hand in 0..hands {
        let mut deck: Vec<Card> = def.deck.cards().iter().collect();
        crate::draw::shuffle(&mut deck, &mut rng);
        let mut cards = [[Card::from_id(0); MAX_CARDS]; MAX_DEAL_SEATS];
        for s in 0..seats {
            cards[s][..per_seat].copy_from_slice(&deck[s * per_seat..(s + 1) * per_seat]);
        }
        facts.set(def, &cards);
        let mut st = State::new(def).unwrap();
        let mut street = usize::MAX;
        loop {
            match st.next() {
                Next::Deal { seat, .. } => {
                    let s = seat.unwrap();
                    let held = st.up_cards(s).len() + st.down_cards(s).len();
                    st.deal(cards[s as usize][held]).unwrap();
                }
                Next::Act { seat } => {
                    if st.street() != street {
                        street = st.street();
                        let first = facts.first_actor(street, st.live());
                        assert_eq!(Some(first), st.first_actor(street), "hand {hand}");
                        assert_eq!(first, seat);
                    }
                    let legal = st.legal_actions();
                    let a = legal[crate::draw::below(&mut rng, legal.len())];
                    st.apply(a).unwrap();
                }
                Next::Over => break,
            }
        }
        let live = st.live();
        if live.count_ones() < 2 {
            continue;
        }
        showdowns += 1;
        let pay = st.payoffs().unwrap();
        let pot = st.pot() as f32;
        for s in 0..def.seats {
            let won = (pay[s as usize] + st.committed(s) as i64) as f32;
            let share = facts.share(live, s as usize);
            // The engine's odd chips are whole; the shares are exact fractions.
            assert!((won - share * pot).abs() <= 1.0, "hand {hand} seat {s}");
        }
    }
    assert!(
        showdowns > hands / 10,
        "{showdowns} showdowns in {hands} hands"
    );
}

#[test]
fn first_actors_and_showdowns_are_the_engines() {
    for (v, seats) in [
        (Variant::SevenStud, 3),
        (Variant::SevenStud, 5),
        (Variant::Razz, 4),
        (Variant::StudHiLo, 3),
        (Variant::FiveStud, 6),
    ] {
        let def = GameDef::stud(v).with_seats(seats, 200);
        facts_agree_with_the_engine(&def, 300, seats as u64);
    }
}

#[test]
fn the_opponent_is_the_best_showing_live_seat() {
    let def = GameDef::stud(Variant::SevenStud).with_seats(3, 200);
    let mut facts = MultiwayFacts::new(&def).unwrap();
    let hand = |s: &str| {
        let mut row = [Card::from_id(0); MAX_CARDS];
        for (i, c) in crate::cards::parse_cards(s)
            .unwrap()
            .into_iter()
            .enumerate()
        {
            row[i] = c;
        }
        row
    };
    let mut cards = [[Card::from_id(0); MAX_CARDS]; MAX_DEAL_SEATS];
    // Door cards: seat 0 the 2c (brings in), seat 1 an ace, seat 2 a king.
    cards[0] = hand("3d 4d 2c 5h 6h 7h 8h");
    cards[1] = hand("9s 9h As Kc Qc Jc Tc");
    cards[2] = hand("Td Jd Kd 2s 3s 4s 5s");
    facts.set(&def, &cards);
    assert_eq!(facts.first_actor(0, 0b111), 0);
    assert_eq!(facts.opponent(0, 0b111, 0), 1);
    assert_eq!(facts.opponent(0, 0b111, 1), 2);
    // Seat 1 folded: seat 0's view is against seat 2.
    assert_eq!(facts.opponent(0, 0b101, 0), 2);
    assert_eq!(facts.first_actor(1, 0b111), 1);
    assert_eq!(facts.first_actor(1, 0b101), 2);
    assert_eq!(facts.down_cards(1, 0).len(), 2);
    assert_eq!(facts.up_cards(2, 4).len(), 4);
}

#[test]
fn a_table_the_deck_cannot_deal_is_refused() {
    let def = GameDef::stud(Variant::SevenStud).with_seats(8, 200);
    let e = MultiwayFacts::new(&def).unwrap_err().to_string();
    assert!(e.contains("56 cards"), "{e}");
    assert!(MultiwayFacts::new(&GameDef::tristud()).is_err());
}
