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
        if st.live().count_ones() < 2 {
            continue;
        }
        showdowns += 1;
        assert_shares(def, &st, &mut facts, hand);
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

/// Plays real hands on sampled deals of a table the deck may not cover, the deal's cards fed
/// to the rules engine as the walk deals them, and checks the facts decision by decision: the
/// first actor of every street; on the last street, whether it is the community card (the
/// engine's decision with the seats then live) and the cards the acting seat's view holds
/// (its own down cards and the community card, the engine's up cards); at a showdown each
/// seat's share. Calls are mostly calls, so that many hands reach the last street with seven
/// or eight seats. Returns the last streets dealt as a community card and as own cards.
fn short_deals_agree_with_the_engine(def: &GameDef, hands: usize, seed: u64) -> (usize, usize) {
    let mut facts = MultiwayFacts::new(def).unwrap();
    assert!(facts.runs_short());
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let last = def.streets.len() - 1;
    let (mut community, mut own, mut showdowns) = (0, 0, 0);
    for hand in 0..hands {
        facts.sample(def, &mut rng);
        let cards = facts.short.as_ref().unwrap().cards;
        let mut st = State::new(def).unwrap();
        let mut street = usize::MAX;
        let mut entered = false;
        loop {
            match st.next() {
                Next::Deal { seat, .. } => {
                    if st.street() < last {
                        let s = seat.unwrap() as usize;
                        let held = st.up_cards(s as u8).len() + st.down_cards(s as u8).len();
                        st.deal(cards[s][held]).unwrap();
                        continue;
                    }
                    if !entered {
                        entered = true;
                        let mut shown = [0u8; MAX_DEAL_SEATS];
                        for (s, n) in shown.iter_mut().enumerate().take(def.seats as usize) {
                            *n = st.up_cards(s as u8).len() as u8;
                        }
                        facts.enter_last_street(st.live(), &shown);
                    }
                    let (short, last_cards) = facts.last_street().unwrap();
                    assert_eq!(short, st.short_of_cards(), "hand {hand}");
                    match seat {
                        Some(s) => {
                            assert!(!short);
                            st.deal(last_cards[s as usize]).unwrap();
                        }
                        None => st
                            .deal(last_cards[st.live().trailing_zeros() as usize])
                            .unwrap(),
                    }
                }
                Next::Act { seat } => {
                    if st.street() != street {
                        street = st.street();
                        let first = facts.first_actor(street, st.live());
                        assert_eq!(Some(first), st.first_actor(street), "hand {hand}");
                        assert_eq!(first, seat);
                        if street == last {
                            let live = st.live().count_ones() as usize;
                            if st.short_of_cards() {
                                community += 1;
                            } else if live >= 5 {
                                own += 1;
                            }
                        }
                    }
                    let mut engine: CardSet = st.community_cards().iter().copied().collect();
                    for c in st.down_cards(seat) {
                        engine.insert(c.unwrap());
                    }
                    let mine: CardSet = facts
                        .down_cards(seat as usize, street)
                        .iter()
                        .copied()
                        .collect();
                    assert_eq!(mine, engine, "hand {hand} street {street} seat {seat}");
                    assert_eq!(facts.up_cards(seat as usize, street), st.up_cards(seat));
                    let legal = st.legal_actions();
                    let call = legal
                        .iter()
                        .position(|a| *a == crate::rules::Action::CheckCall);
                    let a = match call {
                        Some(c) if crate::draw::below(&mut rng, 10) < 9 => legal[c],
                        _ => legal[crate::draw::below(&mut rng, legal.len())],
                    };
                    st.apply(a).unwrap();
                }
                Next::Over => break,
            }
        }
        if st.live().count_ones() < 2 {
            continue;
        }
        showdowns += 1;
        assert_shares(def, &st, &mut facts, hand);
    }
    assert!(
        showdowns > hands / 4,
        "{showdowns} showdowns in {hands} hands"
    );
    (community, own)
}

/// Eight seats of the seven-card games: the community card is turned on
/// many hands (all eight or seven seats live), and seven, six or five live seats get their own
/// last card on others, each as the engine decides.
#[test]
fn a_short_deck_is_dealt_as_the_engine_deals_it() {
    use crate::rules::game_def::Profile;
    for (v, profile) in [
        (Variant::SevenStud, Profile::CardRoom),
        (Variant::StudHiLo, Profile::CardRoom),
        (Variant::Razz, Profile::CardRoom),
    ] {
        let def = GameDef::stud(v).with_seats(8, 200).with_profile(profile);
        let (community, own) = short_deals_agree_with_the_engine(&def, 400, 8);
        assert!(
            community > 40 && own > 10,
            "{v:?} {profile:?}: {community} {own}"
        );
    }
}

#[test]
fn a_table_the_deck_cannot_deal_is_refused() {
    let def = GameDef::stud(Variant::SevenStud).with_seats(8, 200);
    assert!(MultiwayFacts::new(&def).unwrap().runs_short());
    let mut def = def;
    def.streets.last_mut().unwrap().deal = vec![Deal::Up];
    let e = MultiwayFacts::new(&def).unwrap_err().to_string();
    assert!(e.contains("56 cards") && e.contains("one down card"), "{e}");
    assert!(MultiwayFacts::new(&GameDef::tristud()).is_err());
    let pokerkit = GameDef::stud(Variant::SevenStud)
        .with_seats(8, 200)
        .with_profile(crate::rules::game_def::Profile::PokerKit);
    let e = MultiwayFacts::new(&pokerkit).unwrap_err().to_string();
    assert!(e.contains("reshuffle"), "{e}");
}

/// Each live seat's share of the showdown, as the facts score it, is what the engine paid it.
fn assert_shares(def: &GameDef, st: &State, facts: &mut MultiwayFacts, hand: usize) {
    let live = st.live();
    let pay = st.payoffs().unwrap();
    let pot = st.pot() as f32;
    for s in 0..def.seats {
        let won = (pay[s as usize] + st.committed(s) as i64) as f32;
        let share = facts.share(def, live, s as usize);
        // The engine's odd chips are whole; the shares are exact fractions.
        assert!((won - share * pot).abs() <= 1.0, "hand {hand} seat {s}");
    }
}
