use super::canon::permute_view;
use super::features::{FeatureParams, Layout, Version};
use super::*;
use crate::cards::{parse_cards, Card};
use crate::eval::{eval_high, eval_low8, eval_razz};
use crate::rules::State;
use proptest::prelude::*;
use std::sync::OnceLock;

pub(super) fn set(s: &str) -> CardSet {
    parse_cards(s).unwrap().into_iter().collect()
}

fn view(street: usize, down: &str, up: &str, opp: &str) -> CardView {
    CardView {
        street,
        down: set(down),
        up: set(up),
        opp_up: set(opp),
    }
}

fn def(game: &str) -> GameDef {
    GameDef::preset(game).unwrap()
}

fn tiny(game: &str) -> Bucketing {
    let g = def(game);
    let size = Size::preset("tiny", g.streets.len()).unwrap();
    Bucketing::build(&g, &size, &|_| {}).unwrap()
}

fn tiny_7stud() -> &'static Bucketing {
    static B: OnceLock<Bucketing> = OnceLock::new();
    B.get_or_init(|| tiny("7stud"))
}

/// The features of `v` with a rollout budget of `outer * inner` draws.
fn features_with(game: &str, v: &CardView, outer: u32, inner: u32) -> Vec<f32> {
    let t = TableView::heads_up(*v);
    table_features(game, Table::default(), &t, outer, inner)
}

fn ehs(game: &str, v: &CardView, outer: u32, inner: u32) -> f32 {
    features_with(game, v, outer, inner)[7]
}

#[test]
fn a_hand_the_board_cannot_beat_has_ehs_one() {
    // Quad aces on seventh street; the opponent's 3c 4d 9h Jd can make no straight flush.
    let v = view(4, "Ac Ad Kc", "Ah As 7d 2s", "3c 4d 9h Jd");
    let f = features_with("7stud", &v, 4, 64);
    assert_eq!(f[7], 1.0);
    // All the mass in the last histogram bin: the CDF is zero below it.
    assert!(f[..7].iter().all(|&x| x == 0.0), "{f:?}");
    // A razz wheel against K K Q Q showing.
    let v = view(4, "Ac 2d Kh", "3c 4h 5s Qd", "Kc Kd Qc Qh");
    assert_eq!(ehs("razz", &v, 4, 64), 1.0);
    // In hi-lo the wheel's low half is sure (K K Q Q can make no low), its high half is not (a
    // full house beats the wheel's straight): the EHS is at least one half.
    assert!(ehs("stud8", &v, 4, 64) >= 0.5);
}

#[test]
fn a_hand_that_cannot_win_has_ehs_zero() {
    // Seven-high with no pair, flush or straight possible, against a pair of aces showing.
    let v = view(4, "2c 3d 7h", "4s 9c Jd Kh", "Ac Ad 5c 6d");
    assert_eq!(ehs("7stud", &v, 4, 64), 0.0);
}

/// The exact EHS of a last-street view by brute force, independent of the rollout code.
fn exact_last_street(game: &str, v: &CardView, share: impl Fn(CardSet, CardSet) -> f64) -> f64 {
    let shape = Shape::of(&def(game)).unwrap();
    let hidden = shape.final_counts().0 as usize;
    let rest: Vec<Card> = shape.deck.minus(v.known()).iter().collect();
    let mine = v.down.union(v.up);
    let (mut sum, mut n) = (0.0, 0);
    fn rec(
        rest: &[Card],
        from: usize,
        depth: usize,
        acc: CardSet,
        f: &mut dyn FnMut(CardSet),
        k: usize,
    ) {
        if depth == k {
            return f(acc);
        }
        for i in from..rest.len() {
            let mut a = acc;
            a.insert(rest[i]);
            rec(rest, i + 1, depth + 1, a, f, k);
        }
    }
    rec(
        &rest,
        0,
        0,
        v.opp_up,
        &mut |opp| {
            sum += share(mine, opp);
            n += 1;
        },
        hidden,
    );
    sum / n as f64
}

fn contest<T: Ord>(a: T, b: T) -> f64 {
    match a.cmp(&b) {
        std::cmp::Ordering::Greater => 1.0,
        std::cmp::Ordering::Equal => 0.5,
        std::cmp::Ordering::Less => 0.0,
    }
}

#[test]
fn last_street_ehs_matches_brute_force() {
    // Five-card stud's last street: 43 possible down cards for the opponent, all enumerated.
    let v = view(3, "Qs", "Qd 8c 8h 3s", "Ah 9d 9s 4c");
    let want = exact_last_street("5stud", &v, |a, b| contest(eval_high(a), eval_high(b)));
    assert!((ehs("5stud", &v, 1, 64) as f64 - want).abs() < 1e-6);
    // Seventh street: C(41, 3) = 10660 hands, enumerated with a budget that covers them.
    let v = view(4, "2c 5d 9h", "3h 4s 7c 8d", "Kc 6d 6h Jd");
    let want = exact_last_street("razz", &v, |a, b| contest(eval_razz(a), eval_razz(b)));
    assert!((ehs("razz", &v, 1, 11_000) as f64 - want).abs() < 1e-6);
    let hilo = |a: CardSet, b: CardSet| {
        let high = contest(eval_high(a), eval_high(b));
        match (eval_low8(a), eval_low8(b)) {
            (None, None) => high,
            (Some(x), Some(y)) => 0.5 * high + 0.5 * contest(x, y),
            (Some(_), None) => 0.5 * high + 0.5,
            (None, Some(_)) => 0.5 * high,
        }
    };
    let want = exact_last_street("stud8", &v, hilo);
    let f = features_with("stud8", &v, 1, 11_000);
    assert!((f[7] as f64 - want).abs() < 1e-6, "{} vs {want}", f[7]);
    // My low is 8-7-5-4-3, known: it qualifies with strength in (0, 1).
    assert_eq!(f[8], 1.0);
    assert!(f[9] > 0.0 && f[9] < 1.0);
    // Sampling a quarter of those hands lands near the exact value.
    assert!((ehs("stud8", &v, 1, 2_500) as f64 - want).abs() < 0.02);
}

#[test]
fn sampled_ehs_is_close_to_a_large_sample() {
    // Third street: the rollout samples; a small budget should be near a large one.
    let v = view(0, "Ah Kh", "Qh", "7c");
    let big = ehs("7stud", &v, 1024, 64);
    let small = ehs("7stud", &v, 128, 16);
    assert!((big - small).abs() < 0.03, "{big} vs {small}");
    // A premium hand against a random one: well above one half.
    assert!(big > 0.6, "{big}");
}

#[test]
fn views_that_cannot_happen_are_refused_by_name() {
    let b = tiny_7stud();
    let cases = [
        (view(0, "Ah", "Qh", "7c"), "my down cards"),
        (view(0, "Ah Kh", "Qh 2c", "7c"), "my up cards"),
        (view(0, "Ah Kh", "Qh", ""), "opponent's up cards"),
        (view(0, "Ah Kh", "Kh", "7c"), "more than once"),
        (view(5, "Ah Kh", "Qh", "7c"), "street 5 does not exist"),
    ];
    for (v, what) in cases {
        let e = b.bucket(&v).unwrap_err().to_string();
        assert!(e.contains(what), "{e} should name {what}");
    }
    let kuhn = Bucketing::build(&def("leduc"), &Size::preset("tiny", 2).unwrap(), &|_| {});
    assert!(kuhn.unwrap_err().to_string().contains("community"));
}

#[test]
fn the_view_of_a_state_holds_the_seats_cards() {
    let g = def("7stud");
    let mut s = State::new(&g).unwrap();
    for c in parse_cards("As Kd 9h 2c 3c Qs").unwrap() {
        s.deal(c).unwrap();
    }
    let v0 = CardView::of_state(&s, 0).unwrap();
    let v1 = CardView::of_state(&s, 1).unwrap();
    assert_eq!(v0.down.union(v0.up).union(v0.opp_up).len(), 4);
    assert_eq!(v0.up, v1.opp_up);
    assert_eq!(v1.up, v0.opp_up);
    assert_eq!(v0.street, 0);
    assert!(tiny_7stud().bucket(&v0).is_ok());
    assert!(tiny_7stud().bucket(&v1).is_ok());
}

/// A random view of a random street of seven-card stud, and a random suit permutation.
fn arb_view() -> impl Strategy<Value = (CardView, usize)> {
    let deck = Just((0..52u8).collect::<Vec<_>>()).prop_shuffle();
    (0usize..5, deck, 0usize..24).prop_map(|(street, deck, perm)| {
        let shape = Shape::of(&def("7stud")).unwrap();
        let (d, u) = (shape.downs[street] as usize, shape.ups[street] as usize);
        let set = |ids: &[u8]| ids.iter().map(|&i| Card::from_id(i)).collect::<CardSet>();
        let v = CardView {
            street,
            down: set(&deck[..d]),
            up: set(&deck[d..d + u]),
            opp_up: set(&deck[d + u..d + 2 * u]),
        };
        (v, perm)
    })
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(48))]

    #[test]
    fn renaming_suits_keeps_the_bucket((v, p) in arb_view()) {
        let b = tiny_7stud();
        let perms = canon::deck_perms(CardSet::FULL);
        let w = permute_view(&v, &perms[p]);
        prop_assert_eq!(b.canonical(&v), b.canonical(&w));
        prop_assert_eq!(b.features(&v).unwrap(), b.features(&w).unwrap());
        let bucket = b.bucket(&v).unwrap();
        prop_assert_eq!(bucket, b.bucket(&w).unwrap());
        prop_assert!(bucket < b.buckets(v.street));
    }
}

#[test]
fn the_build_is_deterministic_whatever_the_threads() {
    let g = def("razz");
    let size = Size::preset("tiny", g.streets.len()).unwrap();
    let on = |threads| {
        rayon::ThreadPoolBuilder::new()
            .num_threads(threads)
            .build()
            .unwrap()
            .install(|| Bucketing::build(&g, &size, &|_| {}).unwrap())
    };
    let (a, b) = (on(1), on(3));
    assert_eq!(a.checksum(), b.checksum());
    assert_eq!(a.encode(), b.encode());
    let mut other = size.clone();
    other.seed += 1;
    let c = Bucketing::build(&g, &other, &|_| {}).unwrap();
    assert_ne!(a.checksum(), c.checksum());
}

#[test]
fn encoding_round_trips_and_refuses_damage() {
    let b = tiny_7stud();
    let bytes = b.encode();
    let back = Bucketing::decode(&bytes, &def("7stud")).unwrap();
    assert_eq!(back.checksum(), b.checksum());
    assert_eq!(back.encode(), bytes);
    let v = view(2, "Ah Kh", "Qh 7d 7s", "7c 2d 3s");
    assert_eq!(back.bucket(&v).unwrap(), b.bucket(&v).unwrap());

    let err = |bytes: &[u8], game: &str| {
        Bucketing::decode(bytes, &def(game))
            .unwrap_err()
            .to_string()
    };
    let mut flipped = bytes.clone();
    flipped[bytes.len() / 2] ^= 0x10;
    assert!(err(&flipped, "7stud").contains("checksum"));
    assert!(err(&bytes[..bytes.len() - 3], "7stud").contains("checksum"));
    assert!(err(&bytes[..5], "7stud").contains("magic"));
    assert!(err(b"hello world, not a bucketing", "7stud").contains("magic"));
    assert!(err(&bytes, "razz").contains("built for"));
    let mut version = bytes.clone();
    version[8] = 99;
    assert!(err(&version, "7stud").contains("version 99"));
}

#[test]
fn more_buckets_keep_more_of_the_ehs() {
    // The same training views clustered into more buckets: the EHS varies less within them.
    let g = def("7stud");
    let mut size = Size::preset("tiny", g.streets.len()).unwrap();
    size.train = 2_000;
    let mut rows = Vec::new();
    for k in [2u32, 8, 32] {
        size.buckets = vec![k; g.streets.len()];
        let b = Bucketing::build(&g, &size, &|_| {}).unwrap();
        rows.push(
            b.streets()
                .iter()
                .map(|s| s.ehs_within / s.ehs_variance)
                .collect::<Vec<_>>(),
        );
    }
    println!("within-bucket share of the EHS variance, streets 3rd..7th, k = 2, 8, 32:");
    for r in &rows {
        println!("{r:.3?}");
    }
    for street in 0..g.streets.len() {
        assert!(
            rows[0][street] > rows[1][street],
            "street {street}: {rows:?}"
        );
        assert!(
            rows[1][street] > rows[2][street],
            "street {street}: {rows:?}"
        );
    }
}

#[test]
fn every_stud_game_builds() {
    for game in ["stud8", "5stud", "ministud"] {
        let b = tiny(game);
        let shape = b.shape().clone();
        for street in 0..shape.streets() {
            assert!(b.buckets(street) >= 1 && b.buckets(street) <= 8, "{game}");
        }
    }
}

#[test]
fn the_first_street_table_gives_the_computed_buckets() {
    for game in ["5stud", "ministud"] {
        let plain = tiny(game);
        let mut table = plain.clone();
        let n = table.precompute_first_street();
        // 52 * 51 * 50 ordered deals of 5stud's first street, about 24 times fewer up to suits.
        if game == "5stud" {
            assert!((52 * 51 * 50 / 24..52 * 51 * 50 / 12).contains(&n), "{n}");
        }
        for v in plain.sample_views(0, 300, 7) {
            assert_eq!(
                table.bucket(&v).unwrap(),
                plain.bucket(&v).unwrap(),
                "{v:?}"
            );
            let perms = canon::deck_perms(plain.shape().deck);
            let w = permute_view(&v, &perms[5 % perms.len()]);
            assert_eq!(table.bucket(&w).unwrap(), plain.bucket(&v).unwrap());
        }
    }
}

/// Views of `game`'s `street` dealt at random from `seed`, not canonical (the cards as dealt).
fn dealt_views(game: &str, street: usize, n: usize, seed: u64) -> Vec<CardView> {
    use rand::seq::SliceRandom;
    let shape = Shape::of(&def(game)).unwrap();
    let (d, u) = (shape.downs[street] as usize, shape.ups[street] as usize);
    let mut deck: Vec<Card> = shape.deck.iter().collect();
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    (0..n)
        .map(|_| {
            deck.shuffle(&mut rng);
            let set = |cs: &[Card]| cs.iter().copied().collect::<CardSet>();
            CardView {
                street,
                down: set(&deck[..d]),
                up: set(&deck[d..d + u]),
                opp_up: set(&deck[d + u..d + 2 * u]),
            }
        })
        .collect()
}

/// Remembered buckets are the computed ones: on every street of every game, random views asked
/// twice, with their suits renamed, and a memory of a few slots, so that views keep replacing
/// one another in their slots and a slot's view is checked.
#[test]
fn remembered_buckets_are_the_computed_ones() {
    for game in ["7stud", "stud8", "razz", "5stud"] {
        let plain = tiny(game);
        for slots in [16, 1 << 12] {
            let mut kept = plain.clone();
            assert_eq!(kept.remember_recent(slots), 32 * slots.max(16));
            let perms = canon::deck_perms(plain.shape().deck);
            for street in 0..plain.shape().streets() {
                let views = dealt_views(game, street, 150, street as u64);
                for (i, v) in views.iter().chain(&views).enumerate() {
                    let want = plain.bucket(v).unwrap();
                    assert_eq!(kept.bucket(v).unwrap(), want, "{game} {v:?}");
                    let w = permute_view(v, &perms[i % perms.len()]);
                    assert_eq!(kept.bucket(&w).unwrap(), want, "{game} {w:?}");
                }
            }
        }
    }
}

/// The features of an N-seat view `t` of `game` with other seats `table`, a budget of
/// `outer * inner` draws.
fn table_features(game: &str, table: Table, t: &TableView, outer: u32, inner: u32) -> Vec<f32> {
    table_features_of(game, table, t, outer, inner, (Version::One, Draws::ChaCha))
}

/// As [`table_features`], of a version of the features and a way of drawing.
fn table_features_of(
    game: &str,
    table: Table,
    t: &TableView,
    outer: u32,
    inner: u32,
    (version, draws): (Version, Draws),
) -> Vec<f32> {
    let shape = Shape::of_table(&def(game), table).unwrap();
    shape.check_table(t).unwrap();
    let p = FeatureParams {
        outer,
        inner,
        bins: 8,
        board_weight: 0.05,
        seed: 1,
        version,
        draws,
        extra_weight: None,
    };
    let mut f = vec![0.0; Layout::new(shape.showdown, &p).dim()];
    features::features(&shape, &p, t, &mut f);
    f
}

#[test]
fn a_table_views_last_street_ehs_matches_brute_force_against_both_opponents() {
    // Five-card stud's last street at a table of four: two live opponents each hide one card
    // (37 × 36 deals, all enumerated), a folded seat's up cards are dead.
    let mut t = TableView::heads_up(view(3, "Qs", "Qd 8c 8h 3s", "Ah 9d 9s 4c"));
    t.others[0] = set("Kh Kd 7s 2d");
    t.live = 1;
    t.dead = set("Qc Jh");
    let table = Table { live: 1, folded: 1 };
    let mine = eval_high(t.view.down.union(t.view.up));
    let rest: Vec<Card> = Shape::of(&def("5stud"))
        .unwrap()
        .deck
        .minus(t.known())
        .iter()
        .collect();
    let (mut sum, mut n) = (0.0, 0.0);
    for &a in &rest {
        for &b in rest.iter().filter(|&&b| b != a) {
            let them = [
                eval_high(t.view.opp_up.union(CardSet::single(a))),
                eval_high(t.others[0].union(CardSet::single(b))),
            ];
            sum += if them.iter().any(|&x| x > mine) {
                0.0
            } else {
                1.0 / (1.0 + them.iter().filter(|&&x| x == mine).count() as f64)
            };
            n += 1.0;
        }
    }
    let f = table_features("5stud", table, &t, 1, 2_000);
    assert!(
        (f[7] as f64 - sum / n).abs() < 1e-6,
        "{} vs {}",
        f[7],
        sum / n
    );
    // Against the measured opponent alone (the third seat's cards dead) the pot is won more.
    let mut alone = t;
    alone.live = 0;
    alone.dead = t.dead.union(t.others[0]);
    let f1 = table_features("5stud", Table { live: 0, folded: 2 }, &alone, 1, 2_000);
    assert!(f1[7] > f[7], "{} vs {}", f1[7], f[7]);
}

#[test]
fn a_table_of_no_other_seat_is_the_heads_up_shape() {
    // The fingerprint, and so every heads-up cache file and checksum, is unchanged (the
    // features of heads-up views are those of a table of no other seat: `features_with`).
    let plain = Shape::of(&def("7stud")).unwrap();
    assert_eq!(
        Shape::of_table(&def("7stud"), Table::default()).unwrap(),
        plain
    );
    let other = Shape::of_table(&def("7stud"), Table { live: 1, folded: 0 }).unwrap();
    assert_ne!(other.fingerprint(), plain.fingerprint());
}

#[test]
fn table_views_are_canonical_whatever_the_order_of_the_other_opponents() {
    let g = def("7stud");
    let mut size = Size::preset("tiny", 5).unwrap();
    size.train = 200;
    let b = Bucketing::build_table(&g, Table { live: 2, folded: 1 }, &size, &|_| {}).unwrap();
    let mut t = TableView::heads_up(view(1, "Ah Kh", "Qh 2c", "7c 7d"));
    t.others[..2].copy_from_slice(&[set("9s Ts"), set("3d 4d")]);
    t.live = 2;
    t.dead = set("Jc 5h");
    let mut swapped = t;
    swapped.others.swap(0, 1);
    let renamed = TableView {
        view: permute_view(&t.view, &[1, 0, 3, 2]),
        others: {
            let mut o = t.others;
            for x in &mut o[..2] {
                *x = permute_view(
                    &CardView {
                        opp_up: *x,
                        ..t.view
                    },
                    &[1, 0, 3, 2],
                )
                .opp_up;
            }
            o
        },
        dead: permute_view(
            &CardView {
                opp_up: t.dead,
                ..t.view
            },
            &[1, 0, 3, 2],
        )
        .opp_up,
        ..t
    };
    let bucket = b.bucket_table(&t).unwrap();
    assert_eq!(b.bucket_table(&swapped).unwrap(), bucket);
    assert_eq!(b.bucket_table(&renamed).unwrap(), bucket);
    assert_eq!(
        canon::canonical_table(&t, &canon::deck_perms(CardSet::FULL)),
        canon::canonical_table(&swapped, &canon::deck_perms(CardSet::FULL))
    );
    // Views it cannot be of are refused by name.
    let e = |t: &TableView| b.bucket_table(t).unwrap_err().to_string();
    let mut one = t;
    one.live = 1;
    assert!(e(&one).contains("other live opponents"), "{}", e(&one));
    let mut twice = t;
    twice.dead = set("Ah 5h");
    assert!(e(&twice).contains("dead cards"), "{}", e(&twice));
    assert!(
        b.bucket(&t.view).is_err(),
        "a heads-up view in a table's bucketing"
    );
    // Encoded and read back as the table's; refused as the heads-up game's.
    let bytes = b.encode();
    let back = Bucketing::decode_table(&bytes, &g, Table { live: 2, folded: 1 }).unwrap();
    assert_eq!(back.checksum(), b.checksum());
    assert!(Bucketing::decode(&bytes, &g).is_err());
    assert!(Bucketing::decode_table(&bytes, &g, Table { live: 1, folded: 1 }).is_err());
}

/// The features of sampled N-seat views (every stud showdown, tables of two to six live seats,
/// every street, three rollout budgets: sampled outer and inner draws and an enumerated inner
/// deal) hashed bit for bit. The feature code may get faster; it may not move a bit, or every
/// bucketing built and every strategy file solved with it would be of other buckets than its
/// lookups compute (a change of features is a new abstraction). The hashes are of the code of
/// 2026-12-05 (8ca5d7c).
#[test]
fn the_features_of_sampled_table_views_are_those_of_the_shipped_code() {
    let want = [
        ("7stud", 0x9315_830e_a767_7696u64),
        ("razz", 0x29fa_f6ae_b1b1_7799),
        ("stud8", 0xddf8_cf73_fc22_7fb9),
        ("5stud", 0xc978_3a6c_9a5c_56e4),
    ];
    assert_eq!(pinned_hashes(want, (Version::One, Draws::ChaCha)), want);
}

/// As above, the second version of the features and the fast draws (of the first version),
/// pinned on the code of 2026-12-05 (ea064d5) before their rollouts were merged into one.
#[test]
fn the_second_versions_and_the_fast_draws_features_are_those_of_the_shipped_code() {
    let two = [
        ("7stud", 0x8a8a_8e7b_3f7a_3734u64),
        ("razz", 0xaf10_50bb_2567_0be8),
        ("stud8", 0x4f55_4dd8_ade2_b6f7),
        ("5stud", 0x7c7c_6bc7_5764_5432),
    ];
    assert_eq!(pinned_hashes(two, (Version::Two, Draws::ChaCha)), two);
    let fast = [
        ("7stud", 0x2446_10d0_0bad_8943u64),
        ("razz", 0x2e6d_033e_35c4_6500),
        ("stud8", 0xc5fa_9316_858b_2b2f),
        ("5stud", 0x8d11_829e_2d80_fa3e),
    ];
    assert_eq!(pinned_hashes(fast, (Version::One, Draws::Fast)), fast);
}

/// The hash of the features of each game's sampled views, as the pinned tests above take them.
fn pinned_hashes(
    games: [(&'static str, u64); 4],
    of: (Version, Draws),
) -> Vec<(&'static str, u64)> {
    let tables = [(0, 0), (1, 0), (2, 1), (3, 1), (4, 2)];
    let budgets = [(16, 4), (64, 16), (1, 2_000)];
    let mut got = Vec::new();
    for (game, _) in games {
        let mut h = crate::fnv::Fnv::new();
        for (live, folded) in tables {
            let table = Table { live, folded };
            let shape = Shape::of_table(&def(game), table).unwrap();
            let perms = canon::deck_perms(shape.deck);
            for street in 0..shape.streets() {
                let seed = 1000 * street as u64 + live as u64;
                for t in random_views(&shape, &perms, street, 12, seed) {
                    for (outer, inner) in budgets {
                        for x in table_features_of(game, table, &t, outer, inner, of) {
                            h.update(&x.to_bits().to_le_bytes());
                        }
                    }
                }
            }
        }
        got.push((game, h.finish()));
    }
    got
}

/// The size `spec` (as `--abstraction` reads it, five streets) trained on 300 views: what the
/// versions' table tests build, small enough to build in a test.
pub(super) fn tiny_size(spec: &str) -> Size {
    let mut size = Size::parse(spec, 5).unwrap();
    size.train = 300;
    size
}

/// The seven-card stud table bucketing of [`tiny_size`]`(spec)` at `table`.
pub(super) fn tiny_table_of(spec: &str, table: Table) -> Bucketing {
    let g = GameDef::preset("7stud").unwrap();
    Bucketing::build_table(&g, table, &tiny_size(spec), &|_| {}).unwrap()
}

/// `f(bytes)` (an encoded bucketing, patched) with its trailing checksum made right again, so
/// that what decoding refuses is the patch, not the checksum.
pub(super) fn rechecksummed(bytes: &[u8], patch: impl FnOnce(&mut Vec<u8>)) -> Vec<u8> {
    let mut f = bytes.to_vec();
    patch(&mut f);
    let n = f.len() - 8;
    let sum = crate::fnv::fnv1a(&f[..n]);
    f[n..].copy_from_slice(&sum.to_le_bytes());
    f
}

/// A table bucketing of `size` (300 training views) built on one thread and on three: the
/// same bytes and the same buckets of 100 sampled views; the bytes returned.
pub(super) fn built_alike_on_one_and_three_threads(size: &Size, table: Table) -> Vec<u8> {
    let g = GameDef::preset("7stud").unwrap();
    let on = |threads| {
        rayon::ThreadPoolBuilder::new()
            .num_threads(threads)
            .build()
            .unwrap()
            .install(|| {
                let b = Bucketing::build_table(&g, table, size, &|_| {}).unwrap();
                let views: Vec<_> = (0..5)
                    .flat_map(|s| b.sample_table_views(s, 20, 3 + s as u64))
                    .collect();
                let buckets: Vec<u32> = {
                    use rayon::prelude::*;
                    views
                        .par_iter()
                        .map(|t| b.bucket_table(t).unwrap())
                        .collect()
                };
                (b.encode(), buckets)
            })
    };
    let (a, b) = (on(1), on(3));
    assert_eq!(a, b);
    a.0
}

/// `b` (a seven-card stud table bucketing of `table`) encodes in format 2 and decodes to the
/// same checksum, size, bytes and buckets of 20 views of street `street`; the bytes returned.
pub(super) fn round_trips_in_format_2(b: &Bucketing, table: Table, street: usize) -> Vec<u8> {
    let g = GameDef::preset("7stud").unwrap();
    let bytes = b.encode();
    assert_eq!(&bytes[8..12], &2u32.to_le_bytes());
    let back = Bucketing::decode_table(&bytes, &g, table).unwrap();
    assert_eq!((back.checksum(), back.size()), (b.checksum(), b.size()));
    assert_eq!(back.encode(), bytes);
    for t in b.sample_table_views(street, 20, 9) {
        assert_eq!(back.bucket_table(&t), b.bucket_table(&t));
    }
    bytes
}

/// The features' settings the versions' table tests share: 8 bins, board weight 0.05, seed 1,
/// ChaCha draws.
pub(super) fn table_params(outer: u32, inner: u32, version: Version) -> FeatureParams {
    FeatureParams {
        outer,
        inner,
        bins: 8,
        board_weight: 0.05,
        seed: 1,
        version,
        draws: Draws::ChaCha,
        extra_weight: None,
    }
}

/// The features of the table view `t` of `shape` under `p`.
pub(super) fn features_of(shape: &Shape, p: &FeatureParams, t: &TableView) -> Vec<f32> {
    let mut f = vec![0.0; Layout::new(shape.showdown, p).dim()];
    super::features::features(shape, p, t, &mut f);
    f
}

#[test]
fn an_estimating_copy_is_exact_at_the_built_budget_and_reads_no_exact_bucket_remembered() {
    let mut remembering = tiny_7stud().clone();
    remembering.remember_recent(1 << 12);
    let b = &remembering;
    let same = b.estimating(b.outer_draws());
    let fresh = tiny_7stud().estimating(2);
    assert_eq!(same.checksum(), b.checksum(), "the centroids it names");
    let mut moved = 0;
    for street in 1..b.streets().len() {
        for v in b.sample_views(street, 150, 7 + street as u64) {
            let exact = b.bucket(&v).unwrap();
            assert_eq!(same.bucket(&v).unwrap(), exact, "{v:?}");
            // Estimated after the original remembered the exact bucket, and by a copy of a
            // bucketing that never looked the view up: the same estimate.
            let cheap = b.estimating(2).bucket(&v).unwrap();
            assert_eq!(cheap, fresh.bucket(&v).unwrap(), "{v:?}");
            assert!(cheap < b.buckets(street));
            moved += usize::from(cheap != exact);
        }
    }
    assert!(moved > 0, "two outer draws of sixteen never moved a bucket");
}
