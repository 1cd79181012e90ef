use super::*;
use crate::bucketing::Size;
use crate::cards::{parse_cards, CardSet};
use crate::rules::Variant;
use rand::{RngExt, SeedableRng};
use rand_chacha::ChaCha8Rng;

fn tiny(def: &GameDef) -> Bucketing {
    let mut size = Size::preset("tiny", def.streets.len()).unwrap();
    size.train = 200;
    Bucketing::build(def, &size, &|_| {}).unwrap()
}

#[test]
fn sampled_deals_are_distinct_cards_of_the_deck_and_reproducible() {
    let def = GameDef::stud(Variant::SevenStud);
    let mut seen = [0u32; 52];
    let mut rng = ChaCha8Rng::seed_from_u64(3);
    for _ in 0..2000 {
        let d = HeadsUpDeal::sample(&def, &mut rng).unwrap();
        let all: CardSet = d.cards(0).iter().chain(d.cards(1)).copied().collect();
        assert_eq!((d.cards(0).len(), all.len()), (7, 14));
        for c in all.iter() {
            seen[c.id() as usize] += 1;
        }
    }
    // Each card is dealt with probability 14/52: 538 of 2000 on average, sd 20.
    assert!(seen.iter().all(|&n| (430..650).contains(&n)), "{seen:?}");
    let again = |seed| HeadsUpDeal::sample(&def, &mut ChaCha8Rng::seed_from_u64(seed)).unwrap();
    assert_eq!(again(5), again(5));
    assert_ne!(again(5), again(6));
    let e = HeadsUpDeal::sample(
        &GameDef::stud(Variant::SevenStud).with_seats(3, 200),
        &mut rng,
    );
    assert!(e.unwrap_err().to_string().contains("3 seats"));
}

/// Random deals played with random real actions: the first actors and buckets seen at every
/// street the hand reaches are the facts', and a showdown pays what `share0` says.
fn facts_agree_with_the_engine(def: GameDef, hands: usize, seed: u64) {
    let bucketing = tiny(&def);
    let def = Arc::new(def);
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let mut showdowns = 0;
    for _ in 0..hands {
        let deal = HeadsUpDeal::sample(&def, &mut rng).unwrap();
        let f = deal.facts(&def, &bucketing).unwrap();
        let mut st = State::with_def(def.clone()).unwrap();
        let mut seen = usize::MAX;
        loop {
            deal.deal_into(&mut st).unwrap();
            let Next::Act { seat } = st.next() else {
                break;
            };
            let s = st.street();
            if s != seen {
                seen = s;
                assert_eq!(f.first[s], seat, "street {s}");
                for p in 0..2u8 {
                    let b = bucketing.bucket(&CardView::of_state(&st, p).unwrap());
                    assert_eq!(f.buckets[s][p as usize], b.unwrap());
                }
            }
            // Mostly calls, so that many hands reach the showdown.
            let legal = st.legal_actions();
            let a = if rng.random_bool(0.7) && legal.contains(&Action::CheckCall) {
                Action::CheckCall
            } else {
                legal[crate::draw::below(&mut rng, legal.len())]
            };
            st.apply(a).unwrap();
        }
        if st.folded(0) || st.folded(1) {
            continue;
        }
        showdowns += 1;
        let pay = st.payoffs().unwrap()[0] as f64;
        let c = st.committed(0) as f64;
        let want = (2.0 * f.share0 as f64 - 1.0) * c;
        // An odd chip of a split pot goes to one seat.
        assert!(
            (pay - want).abs() <= 1.0,
            "paid {pay}, share {} of {c}",
            f.share0
        );
        if def.variant != Variant::StudHiLo {
            assert!(matches!(f.share0, 0.0 | 0.5 | 1.0));
        }
    }
    assert!(showdowns > hands / 5, "{showdowns} showdowns");
}

#[test]
fn facts_agree_with_the_engine_in_every_game() {
    for (i, v) in [
        Variant::SevenStud,
        Variant::StudHiLo,
        Variant::Razz,
        Variant::FiveStud,
    ]
    .into_iter()
    .enumerate()
    {
        facts_agree_with_the_engine(GameDef::stud(v), 150, i as u64);
    }
    facts_agree_with_the_engine(GameDef::ministud(), 300, 7);
}

#[test]
fn hi_lo_shares_split_and_quarter() {
    let def = Arc::new(GameDef::stud(Variant::StudHiLo));
    let b = tiny(&def);
    let share = |a: &str, c: &str| {
        let d = HeadsUpDeal::of_cards(&parse_cards(a).unwrap(), &parse_cards(c).unwrap()).unwrap();
        d.facts(&def, &b).unwrap().share0
    };
    // Seat 0: a wheel (best low, and a straight that wins high too) scoops.
    assert_eq!(share("Ac 2d 3h 4s 5c Kd Kh", "9c 9d 9h Ts Jc Qd 2s"), 1.0);
    // Seat 0 wins the low with 8-6-4-2-A, seat 1 the high with trips.
    assert_eq!(share("Ac 2d 4h 6s 8c Kd Qh", "9c 9d 9h Ts Jc Qd 3s"), 0.5);
    // Both hold the same 8-7 low, seat 1 wins high: seat 0 gets a quarter.
    assert_eq!(share("Ac 2d 4h 7s 8c Kd Qh", "As 2h 4c 7d 8h Qd Qs"), 0.25);
    let e = HeadsUpDeal::of_cards(
        &parse_cards("Ac 2d").unwrap(),
        &parse_cards("Ac 3d").unwrap(),
    );
    assert!(e.unwrap_err().to_string().contains("no card twice"));
}
