//! Exhaustive counts, oracle property tests against published evaluators, and hand-written rules.

use super::*;
use crate::cards::parse_cards;
use proptest::prelude::*;

fn set(s: &str) -> CardSet {
    let v = parse_cards(s).unwrap();
    let set: CardSet = v.iter().copied().collect();
    assert_eq!(set.len() as usize, v.len(), "duplicate card in {s}");
    set
}

fn high(s: &str) -> HighStrength {
    eval_high(set(s))
}

fn razz(s: &str) -> LowStrength {
    eval_razz(set(s))
}

fn cards(s: &str) -> Vec<Card> {
    parse_cards(s).unwrap()
}

/// What an enumeration gathers; every hand is also checked against the one-shot evaluators
/// (a sample) and against the batch evaluator (all of them, in batches).
#[derive(Default)]
struct Walk {
    by_value: Vec<u64>,
    low8: u64,
    seen: u64,
    batch: Vec<CardSet>,
    want: Vec<HighStrength>,
    got: Vec<HighStrength>,
}

impl Walk {
    fn visit(&mut self, h: PartialHand) {
        let hi = h.high();
        self.by_value[hi.value() as usize] += 1;
        let lo = h.low8();
        self.low8 += lo.is_some() as u64;
        // One-shot evaluation on every 97th hand keeps the test quick yet covers all shapes.
        self.seen += 1;
        if self.seen % 97 == 0 {
            assert_eq!(eval_high(h.cards()), hi);
            assert_eq!(eval_low8(h.cards()), lo);
            assert_eq!(eval_razz(h.cards()), h.razz());
        }
        self.batch.push(h.cards());
        self.want.push(hi);
        if self.batch.len() == 4099 {
            self.check_batch();
        }
    }

    fn check_batch(&mut self) {
        self.got.resize(self.batch.len(), HighStrength(0));
        eval_high_batch(&self.batch, &mut self.got);
        assert_eq!(self.got, self.want, "batch evaluation differs");
        self.batch.clear();
        self.want.clear();
    }

    fn walk(&mut self, from: u8, left: u8, h: PartialHand) {
        if left == 0 {
            return self.visit(h);
        }
        for id in from..=52 - left {
            self.walk(id + 1, left - 1, h.add(Card::from_id(id)));
        }
    }
}

/// Per-category counts, the number with an eight-or-better low, and the number of distinct high
/// strengths, over every hand of `n` cards, by nested loops carrying a [`PartialHand`].
fn enumerate(n: u8) -> ([u64; 9], u64, usize) {
    let mut w = Walk {
        by_value: vec![0; HIGH_CLASSES as usize + 1],
        ..Walk::default()
    };
    w.walk(0, n, PartialHand::EMPTY);
    w.check_batch();
    let mut by_cat = [0u64; 9];
    for (v, &k) in w.by_value.iter().enumerate().skip(1) {
        by_cat[HighStrength(v as u32).category() as usize] += k;
    }
    assert_eq!(w.by_value[0], 0, "a hand evaluated to no strength");
    let distinct = w.by_value.iter().filter(|&&k| k > 0).count();
    (by_cat, w.low8, distinct)
}

#[test]
fn every_five_card_hand() {
    let (cats, low8, distinct) = enumerate(5);
    assert_eq!(
        cats,
        [1_302_540, 1_098_240, 123_552, 54_912, 10_200, 5_108, 3_744, 624, 40]
    );
    assert_eq!(low8, 57_344);
    assert_eq!(distinct, 7_462);
}

#[test]
fn every_seven_card_hand() {
    let (cats, low8, _) = enumerate(7);
    assert_eq!(
        cats,
        [
            23_294_460, 58_627_800, 31_433_400, 6_461_620, 6_180_020, 4_047_644, 3_473_184,
            224_848, 41_584
        ]
    );
    assert_eq!(cats.iter().sum::<u64>(), 133_784_560);
    assert_eq!(low8, 24_530_944);
}

#[test]
fn high_hands_by_hand() {
    let order = [
        "2c 3d 4h 5s 7c",       // 7 high
        "2c 3d 4h 5s 8c Kd Qh", // K Q 8 5 4
        "Ac Kd Qh Js 9c",
        "2c 2d 3h 4s 5c 7d", // pair of deuces, 7 5 4
        "2c 2d 3h 4s 8c",
        "Ac Ad Kh Qs Jc",
        "3c 3d 2h 2s 4c 4d Ah", // three pairs: fours and threes, ace kicker
        "Ac Ad Kh Ks 2c",
        "2c 2d 2h 3s 4c",
        "Ac 2d 3h 4s 5c Kd", // the wheel, five high
        "2c 3d 4h 5s 6c",
        "Tc Jd Qh Ks Ac 2d 2h", // broadway
        "2h 3h 4h 5h 7h",
        "Ah Kh Qh Jh 9h 9c 9d", // ace-high flush beats the trips it contains
        "2c 2d 2h 3s 3c",
        "3c 3d 3h 2s 2c 2d Ah", // two trips: threes full of deuces
        "2c 2d 2h 2s 3c",
        "Ac Ad Ah As Kc Kd Kh",
        "Ah 2h 3h 4h 5h", // steel wheel
        "9h Th Jh Qh Kh 8h",
        "Ts Js Qs Ks As 9s 8s",
    ];
    for w in order.windows(2) {
        assert!(high(w[0]) < high(w[1]), "{} < {}", w[0], w[1]);
    }
    assert_eq!(high("Ts Js Qs Ks As").value(), HIGH_CLASSES);
    assert_eq!(high("2c 3d 4h 5s 7c").value(), 1);
    // Suits never break a tie; the best five decide, not the other two.
    assert_eq!(high("Ac Kd Qh Js 9c"), high("As Kh Qd Jc 9s 2c 3d"));
    assert_eq!(high("Ac 2d 3h 4s 5c Kd").category(), Category::Straight);
    assert_eq!(
        high("8h 9h Th Jh Qh Kc Ac").category(),
        Category::StraightFlush
    );
    assert_eq!(high("8h 9h Th Jh 2h Qc Ks").category(), Category::Flush);
    assert_eq!(
        high("Kc Kd Kh Qs Qc 2d 3h").to_string(),
        "full house (K K K Q Q)"
    );
    assert_eq!(high("Ac 2d 3h 4s 5c").to_string(), "straight (5 4 3 2 A)");
    assert_eq!(
        high("2c 2d 7h 9s Jc Kd 4h").to_string(),
        "one pair (2 2 K J 9)"
    );
    assert_eq!(Category::ThreeOfAKind.to_string(), "three of a kind");
}

#[test]
fn lows_by_hand() {
    // From the worst low to the best: quads, full house, trips, two pair, pair, then unpaired.
    let order = [
        "Kc Kd Kh Ks Qc",
        "Ac Ad Ah As Kc",
        "Kc Kd Kh Qs Qc",
        "2c 2d 2h Ks Qc",
        "Kc Kd Qh Qs Jc",
        "Kc Kd 2h 3s 4c",
        "Ac Ad Kh Qs Jc",
        "Kc Qd Jh Ts 8c",
        "9c 4d 3h 2s Ac", // nine high: no eight-or-better
        "8c 7d 6h 5s 4c",
        "8c 5d 4h 3s 2c",
        "7c 6d 5h 4s 2c",
        "6c 4d 3h 2s Ac",
        "5c 4d 3h 2s Ac",
    ];
    for w in order.windows(2) {
        assert!(razz(w[0]) < razz(w[1]), "{} < {}", w[0], w[1]);
    }
    // Straights and flushes do not count; the ace is low.
    assert_eq!(razz("5h 4h 3h 2h Ah"), razz("5c 4d 3h 2s Ac"));
    assert_eq!(razz("7c 5d 4h 2s Ac Kd Kh").to_string(), "7-5-4-2-A");
    assert_eq!(razz("Ac Ad Ah As Kc Kd Kh").to_string(), "A-A-A-K-K");
    assert_eq!(razz("8c 8d 5h 3s 2c").to_string(), "8-8-5-3-2");
    assert_eq!(razz("Qc Qd Qh 9s 9c 9d Qs").to_string(), "9-9-9-Q-Q");
    // Eight-or-better: five distinct ranks of eight or lower, else none; the same scale as razz.
    assert_eq!(eval_low8(set("9c 4d 3h 2s Ac 9d Kh")), None);
    assert_eq!(eval_low8(set("8c 8d 5h 3s 2c 2d Kd")), None);
    assert_eq!(
        eval_low8(set("8c 8d 5h 3s 2c Ac Ad")).unwrap().to_string(),
        "8-5-3-2-A"
    );
    let low = eval_low8(set("8c 7d 6h 5s 4c Kd Kh")).unwrap();
    assert_eq!(low.to_string(), "8-7-6-5-4");
    assert_eq!(
        Some(razz("Ac Ad 2h 3s 4c 5d 9h")),
        eval_low8(set("Ac Ad 2h 3s 4c 5d 9h"))
    );
    assert!(razz("8c 7d 6h 5s 4c").is_eight_or_better());
    assert!(!razz("9c 7d 6h 5s 4c").is_eight_or_better());
}

#[test]
fn showing_hands_high() {
    let s = |t: &str| showing_high(&cards(t));
    let order = [
        "2c",
        "3c",
        "2c 3d", // hands of different sizes do not meet in play; a missing card ranks lowest
        "As",
        "Ac Kd",
        "2c 2d",
        "Ac Ad",
        "Ac Ad 3c 2d",
        "Ac Ad Kc 2d",
        "3c 3d 2c 2d",
        "Ac Ad Kc Kd",
        "2c 2d 2h",
        "2c 2d 2h 3s",
        "Ac Ad Ah",
        "2c 2d 2h 2s",
        "Ac Ad Ah As",
    ];
    for w in order.windows(2) {
        assert!(s(w[0]) < s(w[1]), "{} < {}", w[0], w[1]);
    }
    // Straights and flushes do not count; suits never count; kickers rank by rank.
    assert!(s("5h 6h 7h 8h") < s("2c 2d 3h 4s"));
    assert_eq!(s("Kc Qd 7h 2s"), s("Ks Qh 7d 2c"));
    assert!(s("Kc Qd 7h 2s") < s("Kc Qd 7h 3s"));
    assert!(s("Kc Qd 7h") < s("Kc Qd 8h"));
    assert!(s("9c 9d Ah") < s("Tc Td 2h"));
    assert!(s("9c 9d 2h") < s("9c 9d 3h"));
}

#[test]
fn showing_hands_razz() {
    let s = |t: &str| showing_low(&cards(t));
    // From the worst showing to the best (the best acts first).
    let order = [
        "Kc Kd Kh Ks",
        "Ac Ad Ah As",
        "Kc Kd Kh 2s",
        "2c 2d 2h 3s",
        "Kc Kd Qh Qs",
        "3c 3d 2h 2s",
        "Kc Kd 2h 3s",
        "2c 2d 4h 3s",
        "Kc Qd Jh Ts",
        "Kc 4d 3h 2s",
        "5c 4d 3h 2s",
        "4c 3d 2h As",
    ];
    for w in order.windows(2) {
        assert!(s(w[0]) < s(w[1]), "{} < {}", w[0], w[1]);
    }
    // The ace is low, suits and straights never count, the highest card compares first.
    assert!(s("2c") < s("Ac"));
    assert!(s("Kc") < s("2c"));
    assert_eq!(s("7c 5d"), s("7h 5s"));
    assert!(s("8c 2d") < s("7c 6d"));
    assert!(s("7c 6d") < s("7c 5d"));
    assert!(s("Ac 2c 3c 4c") > s("Ac 2d 3h 5s"));
}

#[test]
fn leduc_and_kuhn_showdowns() {
    // Leduc: a pair with the public card wins, else the higher private card; suits never count.
    let deck = cards("Jh Js Qh Qs Kh Ks");
    for &public in &deck {
        for &a in &deck {
            for &b in &deck {
                if a == public || b == public || a == b {
                    continue;
                }
                let want = match (a.rank() == public.rank(), b.rank() == public.rank()) {
                    (true, false) => std::cmp::Ordering::Greater,
                    (false, true) => std::cmp::Ordering::Less,
                    _ => a.rank().cmp(&b.rank()),
                };
                let got = showing_high(&[a, public]).cmp(&showing_high(&[b, public]));
                assert_eq!(got, want, "{a} vs {b} with {public}");
            }
        }
    }
    // Kuhn: one card, the higher wins.
    let kuhn = cards("Jh Qh Kh");
    assert!(kuhn
        .windows(2)
        .all(|w| showing_high(&w[..1]) < showing_high(&w[1..])));
}

#[test]
fn bring_in_order() {
    let w = |c: &str, razz: bool| bring_in_weight(c.parse().unwrap(), razz);
    // High games: the lowest card brings in; suits clubs < diamonds < hearts < spades.
    let high_order = ["As", "Ac", "Kh", "3c", "2s", "2h", "2d", "2c"];
    for p in high_order.windows(2) {
        assert!(w(p[0], false) < w(p[1], false), "{} < {}", p[0], p[1]);
    }
    assert_eq!(w("2c", false), 51);
    // Razz: the highest card brings in, the ace low, the higher suit on a tie (as PokerKit).
    let razz_order = [
        "Ac", "As", "2c", "2s", "7c", "7h", "Qs", "Kc", "Kd", "Kh", "Ks",
    ];
    for p in razz_order.windows(2) {
        assert!(w(p[0], true) < w(p[1], true), "{} < {}", p[0], p[1]);
    }
    assert_eq!(w("Ks", true), 51);
    // Every card has its own weight in both orders.
    for razz in [false, true] {
        let mut all: Vec<u8> = Card::deck().map(|c| bring_in_weight(c, razz)).collect();
        all.sort_unstable();
        assert_eq!(all, (0..52).collect::<Vec<u8>>());
    }
}

#[test]
#[should_panic(expected = "1 to 4 up cards")]
fn showing_refuses_five_cards() {
    showing_high(&cards("2c 3c 4c 5c 6c"));
}

fn rs_rank(set: CardSet) -> rs_poker::core::Rank {
    use rs_poker::core::Rankable;
    let v: Vec<rs_poker::core::Card> = set
        .iter()
        .map(|c| rs_poker::core::Card::try_from(c.to_string().as_str()).unwrap())
        .collect();
    v.rank()
}

fn aya_hand(set: CardSet) -> aya_poker::base::Hand {
    set.iter()
        .map(|c| aya_poker::base::CARDS[c.id() as usize])
        .collect()
}

/// Two disjoint hands of `n` cards each (5 to 7), from a shuffled deck.
fn two_hands() -> impl Strategy<Value = (CardSet, CardSet)> {
    (
        5usize..=7,
        Just((0u8..52).collect::<Vec<u8>>()).prop_shuffle(),
    )
        .prop_map(|(n, deck)| {
            let take = |ids: &[u8]| ids.iter().map(|&i| Card::from_id(i)).collect::<CardSet>();
            (take(&deck[..n]), take(&deck[n..2 * n]))
        })
}

/// Hands rich in pairs and low cards, where lows are decided: ranks from a small range.
fn two_low_hands() -> impl Strategy<Value = (CardSet, CardSet)> {
    let deck: Vec<u8> = (0u8..52)
        .filter(|id| id >> 2 < 7 || id >> 2 == 12)
        .collect();
    (5usize..=7, Just(deck).prop_shuffle()).prop_map(|(n, deck)| {
        let take = |ids: &[u8]| ids.iter().map(|&i| Card::from_id(i)).collect::<CardSet>();
        (take(&deck[..n]), take(&deck[n..2 * n]))
    })
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(20_000))]

    #[test]
    fn high_orders_as_rs_poker((a, b) in two_hands()) {
        prop_assert_eq!(eval_high(a).cmp(&eval_high(b)), rs_rank(a).cmp(&rs_rank(b)));
    }

    #[test]
    fn high_orders_as_aya_poker((a, b) in two_hands()) {
        let (x, y) = (aya_poker::poker_rank(&aya_hand(a)), aya_poker::poker_rank(&aya_hand(b)));
        prop_assert_eq!(eval_high(a).cmp(&eval_high(b)), x.cmp(&y));
    }

    #[test]
    fn lows_order_as_aya_poker((a, b) in prop_oneof![two_hands(), two_low_hands()]) {
        let (x, y) = (aya_poker::ace_five_rank(&aya_hand(a)), aya_poker::ace_five_rank(&aya_hand(b)));
        prop_assert_eq!(eval_razz(a).cmp(&eval_razz(b)), x.cmp(&y));
        let (x8, y8) = (x.to_lo_8_rank(), y.to_lo_8_rank());
        // aya marks "no low" as 0, below every low, as None is below Some.
        prop_assert_eq!(eval_low8(a).is_some(), x8.0 != 0);
        prop_assert_eq!(eval_low8(a).cmp(&eval_low8(b)), x8.cmp(&y8));
    }

    #[test]
    fn low8_is_the_razz_low_exactly_when_it_qualifies((a, b) in prop_oneof![two_hands(), two_low_hands()]) {
        // The rank count that skips the table must agree with the table's own verdict.
        for h in [a, b] {
            let razz = eval_razz(h);
            prop_assert_eq!(eval_low8(h), razz.is_eight_or_better().then_some(razz));
        }
    }
}

/// Up to 40 hands of 5 to 7 cards each (overlapping between hands, as batches may).
fn some_hands() -> impl Strategy<Value = Vec<CardSet>> {
    let hand = (
        5usize..=7,
        Just((0u8..52).collect::<Vec<u8>>()).prop_shuffle(),
    )
        .prop_map(|(n, deck)| deck[..n].iter().map(|&i| Card::from_id(i)).collect());
    proptest::collection::vec(hand, 0..40)
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(2_000))]

    #[test]
    fn batch_is_one_by_one(hands in some_hands()) {
        let mut out = vec![HighStrength(0); hands.len() + 3];
        eval_high_batch(&hands, &mut out);
        for (i, &h) in hands.iter().enumerate() {
            prop_assert_eq!(out[i], eval_high(h));
        }
        // Past the hands, `out` is left alone.
        prop_assert!(out[hands.len()..].iter().all(|&s| s == HighStrength(0)));
    }
}
