//! The fast draws ([`Draws::Fast`]) against the default's: the same estimates, the same exact
//! values where every outcome is enumerated, a file of their own.

use super::features::{self, FeatureParams, Layout};
use super::*;
use crate::rules::GameDef;

/// The features of `t` (a view of `game` with other seats `table`) drawn `draws`' way.
fn features_of(
    game: &str,
    table: Table,
    t: &TableView,
    budget: (u32, u32),
    draws: Draws,
) -> Vec<f32> {
    let shape = Shape::of_table(&GameDef::preset(game).unwrap(), table).unwrap();
    shape.check_table(t).unwrap();
    let p = FeatureParams {
        outer: budget.0,
        inner: budget.1,
        bins: 8,
        board_weight: 0.05,
        seed: 3,
        version: features::Version::One,
        draws,
        extra_weight: None,
    };
    let mut f = vec![0.0; Layout::new(shape.showdown, &p).dim()];
    features::features(&shape, &p, t, &mut f);
    f
}

/// Random canonical views of `game` on every street, with the other seats of `table`.
fn views(game: &str, table: Table, n: usize) -> Vec<TableView> {
    let shape = Shape::of_table(&GameDef::preset(game).unwrap(), table).unwrap();
    let perms = canon::deck_perms(shape.deck);
    (0..shape.streets())
        .flat_map(|street| random_views(&shape, &perms, street, n, 77 + street as u64))
        .collect()
}

#[test]
fn fast_draws_estimate_what_the_default_draws_estimate() {
    // Every showdown, one to four live opponents: each view's EHS from a large budget of
    // either draws within sampling error of the other's (1,024 outer draws: a standard error
    // of the difference under 0.015, the bound five of them), and no drift over all of them
    // (the mean of some 120 differences: a standard error near 0.0013).
    let tables = [(0, 0), (1, 0), (2, 1), (3, 1)];
    for game in ["7stud", "razz", "stud8", "5stud"] {
        let (mut diff, mut n) = (0.0f64, 0);
        for (live, folded) in tables {
            let table = Table { live, folded };
            for t in views(game, table, 6) {
                let ehs = |d| features_of(game, table, &t, (1_024, 16), d);
                let (a, b) = (ehs(Draws::ChaCha), ehs(Draws::Fast));
                // The EHS, after the 7 points of the 8 bins' CDF.
                let e = 7;
                assert!(
                    (a[e] - b[e]).abs() < 0.075,
                    "{game} {t:?}: {} {}",
                    a[e],
                    b[e]
                );
                // The board classes are of the cards in sight, not drawn.
                assert_eq!(a[a.len() - 12..], b[b.len() - 12..]);
                diff += (a[e] - b[e]) as f64;
                n += 1;
            }
        }
        assert!(
            (diff / n as f64).abs() < 0.006,
            "{game}: mean difference {}",
            diff / n as f64
        );
    }
}

#[test]
fn fast_draws_are_the_default_where_every_outcome_is_enumerated() {
    // Five-card stud's last street against one or two live opponents hiding a card each:
    // every deal of their cards is scored (40 × 39 of them within the budget), no word drawn.
    for (live, folded) in [(0, 0), (1, 0), (1, 1)] {
        let table = Table { live, folded };
        let shape = Shape::of_table(&GameDef::preset("5stud").unwrap(), table).unwrap();
        let perms = canon::deck_perms(shape.deck);
        for t in random_views(&shape, &perms, 3, 20, 5) {
            let f = |d| features_of("5stud", table, &t, (1, 2_000), d);
            let bits = |v: Vec<f32>| v.iter().map(|x| x.to_bits()).collect::<Vec<_>>();
            assert_eq!(bits(f(Draws::ChaCha)), bits(f(Draws::Fast)), "{t:?}");
        }
    }
}

#[test]
fn a_fast_bucketing_is_deterministic_and_a_file_of_its_own() {
    let g = GameDef::preset("razz").unwrap();
    let table = Table { live: 1, folded: 1 };
    let size = Size::parse("tiny:draws=fast", g.streets.len()).unwrap();
    let on = |threads| {
        rayon::ThreadPoolBuilder::new()
            .num_threads(threads)
            .build()
            .unwrap()
            .install(|| Bucketing::build_table(&g, table, &size, &|_| {}).unwrap())
    };
    let (a, b) = (on(1), on(3));
    assert_eq!(a.encode(), b.encode());
    // Version 2 with the setting; the default's bucketing is still version 1, another file.
    let bytes = a.encode();
    assert_eq!(bytes[8..12], 2u32.to_le_bytes());
    let back = Bucketing::decode_table(&bytes, &g, table).unwrap();
    assert_eq!(back.size().features.draws, Draws::Fast);
    assert_eq!(
        (back.checksum(), back.encode()),
        (a.checksum(), bytes.clone())
    );
    let chacha = Size::parse("tiny", g.streets.len()).unwrap();
    let c = Bucketing::build_table(&g, table, &chacha, &|_| {}).unwrap();
    assert_eq!(c.encode()[8..12], 1u32.to_le_bytes());
    assert_ne!(c.checksum(), a.checksum());
    // A version 2 file with an unknown setting is refused by name.
    let mut forged = bytes.clone();
    let at = 12 + 4 + a.shape().fingerprint().len() + 4 + a.size().name.len();
    // After the feature seed: the features' version (the first), then the draws' code.
    let at = at + 4 + 4 * g.streets.len() + 4 + 4 + 8 + 4 * 3 + 4 + 8;
    assert_eq!(forged[at..at + 4], 1u32.to_le_bytes());
    let at = at + 4;
    assert_eq!(forged[at..at + 4], 1u32.to_le_bytes());
    forged[at] = 7;
    let n = forged.len() - 8;
    let sum = codec::checksum(&forged[..n]);
    forged[n..].copy_from_slice(&sum.to_le_bytes());
    let err = Bucketing::decode_table(&forged, &g, table).unwrap_err();
    assert!(err.to_string().contains("unknown draws 7"), "{err}");
    // Every lookup of a view gives its bucket again, whatever the suits.
    for t in a.sample_table_views(2, 50, 9) {
        assert_eq!(a.bucket_table(&t).unwrap(), back.bucket_table(&t).unwrap());
    }
}
