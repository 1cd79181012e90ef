//! The third version of the features (`:features=3`): the second version's, then the classes of
//! the cards it sees only through the share.
//!
//! The second version still merges views that play differently: on `doorstud` its buckets
//! used are 142 of 256 on the last street and 59 of 256 on the first, because two views whose
//! shares coincide get the same vector whatever the folded seats showed (a dead card reaches
//! the features only through the share) and whatever my down cards are. This version adds
//!
//! - the classes of the folded seats' up cards (all of them as one board);
//! - the classes of my down cards,
//!
//! each at the board weight, or at their own (`:extra=W`, [`FeatureParams::extra_weight`]):
//! at a size of few buckets the twelve classes at the board weight take a share of each
//! centroid's distance from the strength features, where a small weight lets them only split
//! views the strength features tie.
//!
//! Both are read off the view, so they cost nothing beside the rollout; the rollout is the
//! second version's, called as it is.

use super::{board_classes, FeatureParams, Version, BOARD};
use crate::bucketing::view::{Shape, TableView};
use crate::rules::Showdown;

/// Features after the second version's: the folded seats' board, my down cards.
pub(super) const MORE: usize = 2 * BOARD;

/// Writes the third version's features of `t` into `out` (of length `Layout::dim`): the second
/// version's (the same rollout, the same draws) in the first `Layout::dim() - MORE`, then the
/// classes of the dead cards and of my down cards at the extra weight (the board weight unless
/// set).
pub(super) fn features(shape: &Shape, params: &FeatureParams, t: &TableView, out: &mut [f32]) {
    let (two, more) = out.split_at_mut(out.len() - MORE);
    let p = FeatureParams {
        version: Version::Two,
        ..*params
    };
    super::v2::features(shape, &p, t, two);
    let razz = shape.showdown == Showdown::Razz;
    let (dead, down) = more.split_at_mut(BOARD);
    board_classes(t.dead, razz, dead);
    board_classes(t.view.down, razz, down);
    let weight = params.extra_weight.unwrap_or(params.board_weight);
    for x in more.iter_mut() {
        *x *= weight;
    }
}

#[cfg(test)]
mod tests {
    use super::super::{FeatureParams, Version, BOARD};
    use super::MORE;
    use crate::bucketing::canon::{canonical_table, deck_perms, permute_view};
    use crate::bucketing::tests::{
        built_alike_on_one_and_three_threads, features_of as of, rechecksummed,
        round_trips_in_format_2, set, table_params as params, tiny_size, tiny_table_of,
    };
    use crate::bucketing::view::{CardView, Shape, Table, TableView};
    use crate::bucketing::{random_views, Bucketing};
    use crate::cards::{Card, CardSet};
    use crate::rules::GameDef;
    use proptest::prelude::*;
    use std::sync::OnceLock;

    /// A `doorstud` last street with a folded seat, worked by hand: my J♣ down and Q♦ up
    /// against K♣, the folded seat's A♦ dead. The new features are the dead ace's classes and
    /// my jack's, each at the board weight; the rest is the second version's.
    #[test]
    fn a_doorstud_view_with_a_folded_seat_worked_by_hand() {
        let def = GameDef::preset("doorstud").unwrap();
        let shape = Shape::of_table(&def, Table { live: 0, folded: 1 }).unwrap();
        let mut t = TableView::heads_up(CardView {
            street: 1,
            down: set("Jc"),
            up: set("Qd"),
            opp_up: set("Kc"),
        });
        t.dead = set("Ad");
        shape.check_table(&t).unwrap();
        let f = of(&shape, &params(64, 16, Version::Three), &t);
        let w = 0.05;
        // One card: no pair, the rank high and low, no low card (an ace is low: one of four),
        // no suit or run beside it.
        let ace = [0.0, w, w, 0.25 * w, 0.0, 0.0];
        let jack = [0.0, 9.0 / 12.0 * w, 9.0 / 12.0 * w, 0.0, 0.0, 0.0];
        assert_eq!(&f[f.len() - MORE..f.len() - BOARD], &ace);
        assert_eq!(&f[f.len() - BOARD..], &jack);
        let two = of(&shape, &params(64, 16, Version::Two), &t);
        assert_eq!(&f[..f.len() - MORE], &two[..]);
        // Their own weight scales those twelve alone: the rest is the same bits.
        let x = 0.01;
        let mine = FeatureParams {
            extra_weight: Some(x),
            ..params(64, 16, Version::Three)
        };
        let g = of(&shape, &mine, &t);
        assert_eq!(&g[..g.len() - MORE], &two[..]);
        let near = |a: &[f32], b: &[f32]| a.iter().zip(b).all(|(a, b)| (a - b).abs() < 1e-7);
        assert!(near(
            &g[g.len() - MORE..],
            &[&ace[..], &jack[..]]
                .concat()
                .iter()
                .map(|v| v / w * x)
                .collect::<Vec<_>>()
        ));
        // The board weight given as the extra weight is the default's features, bit for bit.
        let same = FeatureParams {
            extra_weight: Some(w),
            ..params(64, 16, Version::Three)
        };
        assert_eq!(of(&shape, &same, &t), f);
    }

    /// The third version's first features are the second version's, bit for bit, at any
    /// table (the same rollout, the same draws), sampled or enumerated; with no folded seat the
    /// dead cards' classes are zero.
    #[test]
    fn the_first_features_are_the_second_versions() {
        for (game, live, folded) in [("7stud", 1, 1), ("razz", 2, 0), ("stud8", 3, 2)] {
            let table = Table { live, folded };
            let shape = Shape::of_table(&GameDef::preset(game).unwrap(), table).unwrap();
            let perms = deck_perms(shape.deck);
            for street in 0..shape.streets() {
                for t in random_views(&shape, &perms, street, 6, 7 + street as u64) {
                    for (outer, inner) in [(16, 4), (1, 2_000)] {
                        let three = of(&shape, &params(outer, inner, Version::Three), &t);
                        let two = of(&shape, &params(outer, inner, Version::Two), &t);
                        assert_eq!(&three[..three.len() - MORE], &two[..], "{game} {t:?}");
                        let dead = &three[three.len() - MORE..three.len() - BOARD];
                        assert_eq!(folded == 0, dead.iter().all(|&x| x == 0.0), "{t:?}");
                    }
                }
            }
        }
        assert_eq!(MORE, 2 * BOARD);
    }

    /// The table the tests' bucketing is built for and their views are dealt at.
    const TABLE: Table = Table { live: 1, folded: 2 };

    const SPEC: &str = "tiny:features=3";

    fn tiny_table() -> &'static Bucketing {
        static B: OnceLock<Bucketing> = OnceLock::new();
        B.get_or_init(|| tiny_table_of(SPEC, TABLE))
    }

    /// The build, the features and the buckets are the same on one thread and on three.
    #[test]
    fn the_build_and_the_buckets_are_the_same_whatever_the_threads() {
        let bytes = built_alike_on_one_and_three_threads(&tiny_size(SPEC), TABLE);
        assert_eq!(tiny_table().encode(), bytes);
    }

    /// Format 2 records version 3 and reads it back to the same buckets; the first and second
    /// versions' bucketings keep the bytes they had before the third (their checksums, as
    /// built here, pinned).
    #[test]
    fn a_third_version_bucketing_round_trips_and_the_others_keep_their_bits() {
        let b = tiny_table();
        let table = TABLE;
        round_trips_in_format_2(b, table, 4);
        let checksum = |spec| tiny_table_of(spec, table).checksum();
        let (one, two) = (checksum("tiny"), checksum("tiny:features=2"));
        assert_eq!((one, two), (PINNED_ONE, PINNED_TWO), "{one:#x} {two:#x}");
        assert_ne!(b.checksum(), two);
    }

    /// A bucketing with the third version's own weight is written in format 3, reads back to
    /// the same buckets and its weight, and is another bucketing than the default weight's;
    /// damaged weights and a weight with another version are refused by name.
    #[test]
    fn an_extra_weight_round_trips_in_format_3() {
        let g = GameDef::preset("7stud").unwrap();
        let table = TABLE;
        let b = tiny_table_of("tiny:features=3:extra=0.01", table);
        let bytes = b.encode();
        assert_eq!(&bytes[8..12], &3u32.to_le_bytes());
        let back = Bucketing::decode_table(&bytes, &g, table).unwrap();
        assert_eq!((back.checksum(), back.size()), (b.checksum(), b.size()));
        assert_eq!(back.size().features.extra_weight, Some(0.01));
        assert_eq!(back.encode(), bytes);
        for t in b.sample_table_views(4, 20, 9) {
            assert_eq!(back.bucket_table(&t), b.bucket_table(&t));
        }
        assert_ne!(b.checksum(), tiny_table().checksum());
        // The weight sits after the version and draws codes; rewrite it (and the checksum).
        let at = weight_offset(&bytes);
        assert_eq!(&bytes[at..at + 4], &0.01f32.to_le_bytes());
        let forged = |patch: &dyn Fn(&mut Vec<u8>)| {
            let f = rechecksummed(&bytes, patch);
            Bucketing::decode_table(&f, &g, table)
                .unwrap_err()
                .to_string()
        };
        let e = forged(&|f| f[at..at + 4].copy_from_slice(&(-1f32).to_le_bytes()));
        assert!(e.contains("extra weight of -1"), "{e}");
        let e = forged(&|f| f[at - 8..at - 4].copy_from_slice(&2u32.to_le_bytes()));
        assert!(e.contains("features of version 2"), "{e}");
    }

    /// Where a format 3 encoding keeps the extra weight: after the 12 bytes of magic and
    /// format, the fingerprint and name (each length-prefixed), the bucket counts, train,
    /// iterations, seed, outer, inner, bins, board weight, feature seed, version and draws.
    fn weight_offset(bytes: &[u8]) -> usize {
        let len = |at: usize| u32::from_le_bytes(bytes[at..at + 4].try_into().unwrap()) as usize;
        let mut at = 12;
        at += 4 + len(at);
        at += 4 + len(at);
        at += 4 + 4 * len(at);
        at + 4 + 4 + 8 + 4 + 4 + 4 + 4 + 8 + 4 + 4
    }

    /// The checksums of `tiny` and `tiny:features=2` at this table with 300 training views, as
    /// the code before the third version built them (it left their features and encoding
    /// alone): a change to either version's bits shows here.
    const PINNED_ONE: u64 = 0x0920_0425_d12f_2738;
    const PINNED_TWO: u64 = 0xa91a_d2b2_8927_239f;

    /// A random seven-card stud table view of one other live opponent and two folded seats,
    /// and a random suit renaming.
    fn arb_table() -> impl Strategy<Value = (TableView, usize)> {
        let deck = Just((0..52u8).collect::<Vec<_>>()).prop_shuffle();
        (0usize..5, deck, 0usize..24).prop_map(|(street, deck, perm)| {
            let g = GameDef::preset("7stud").unwrap();
            let shape = Shape::of_table(&g, TABLE).unwrap();
            let (d, u) = (shape.downs[street] as usize, shape.ups[street] as usize);
            let cards = |at: usize, n: usize| {
                deck[at..at + n]
                    .iter()
                    .map(|&i| Card::from_id(i))
                    .collect::<CardSet>()
            };
            let mut t = TableView::heads_up(CardView {
                street,
                down: cards(0, d),
                up: cards(d, u),
                opp_up: cards(d + u, u),
            });
            t.others[0] = cards(d + 2 * u, u);
            t.live = 1;
            t.dead = cards(d + 3 * u, 2 * u);
            (t, perm)
        })
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(32))]

        /// A view's bucket is a function of its canonical view: renaming suits keeps it.
        #[test]
        fn the_bucket_is_the_canonical_views((t, p) in arb_table()) {
            let b = tiny_table();
            let perms = deck_perms(CardSet::FULL);
            let one = |s: CardSet, perm: &[u8; 4]| {
                permute_view(&CardView { opp_up: s, ..t.view }, perm).opp_up
            };
            let mut w = t;
            w.view = permute_view(&t.view, &perms[p]);
            w.others[0] = one(t.others[0], &perms[p]);
            w.dead = one(t.dead, &perms[p]);
            prop_assert_eq!(canonical_table(&t, &perms), canonical_table(&w, &perms));
            let bucket = b.bucket_table(&t).unwrap();
            prop_assert_eq!(bucket, b.bucket_table(&w).unwrap());
            prop_assert!(bucket < b.buckets(t.view.street));
        }
    }
}
