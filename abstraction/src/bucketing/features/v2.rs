//! The second version of the features (`:features=2`): the first version's, then how the pot
//! share is made up.
//!
//! The first version's mean share against the table cannot tell apart views that play
//! differently: on `doorstud`'s last street (no card to come, so the histogram is one bin) a
//! view is its EHS and two door cards, and views of equal EHS merge whatever the other live
//! opponent shows or whether the share is a sure split or a coin flip for the whole pot. This
//! version adds, from the same rollout (every live opponent's strength is now evaluated at
//! each inner outcome, where the first version stops at the first that beats me):
//!
//! - the chance of taking the whole pot and of taking a part of it (a tie, or a hi-lo half);
//! - my share in a duel with the measured opponent alone, and the least of my duel shares
//!   against each live opponent (the most dangerous one), the others' cards dealt alike;
//! - the classes of the other live opponents' boards, each class the most over them, at the
//!   board weight.
//!
//! All in pot-share units as the first version's strength features, so one scale serves
//! k-means. A heads-up view (no other live opponent) gets them too: the duels are then the
//! EHS, the boards of nobody zero.

use super::{
    board_classes, view_seed, Accumulate, FeatureParams, HiLo, High, Layout, Razz, Scorer, Showing,
    Source, TableRollout, Tally, BOARD,
};
use crate::bucketing::view::{Shape, TableView, MAX_OTHERS};
use crate::eval::PartialHand;
use crate::rules::Showdown;
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;

/// Features after the boards' classes: the whole pot, a part, the two duels, the others' board.
pub(super) const MORE: usize = 4 + BOARD;

/// Writes the second version's features of `t` into `out` (of length `Layout::dim`), as
/// [`super::features`] does the first's; the first `Layout::dim() - MORE` are the first
/// version's features of the same rollout.
pub(super) fn features(shape: &Shape, params: &FeatureParams, t: &TableView, out: &mut [f32]) {
    let layout = Layout::new(shape.showdown, params);
    debug_assert_eq!(out.len(), layout.dim());
    let mut rng = ChaCha8Rng::seed_from_u64(view_seed(params.seed, t));
    let acc = match shape.showdown {
        Showdown::High => run(&High, shape, params, &layout, t, &mut rng),
        Showdown::Razz => run(&Razz, shape, params, &layout, t, &mut rng),
        Showdown::HiLo8 => run(&HiLo::new(), shape, params, &layout, t, &mut rng),
        Showdown::Showing => run(&Showing, shape, params, &layout, t, &mut rng),
    };
    let Tally {
        hist,
        extras,
        ehs,
        outcomes,
        ..
    } = acc.tally;
    let opps = 1 + t.live as usize;
    let n = outcomes as f64;
    let b = layout.bins;
    let mut cum = 0u32;
    for (o, &h) in out[..b - 1].iter_mut().zip(&hist) {
        cum += h;
        *o = cum as f32 / outcomes as f32 / b as f32;
    }
    out[b - 1] = (ehs / n) as f32;
    for i in 0..layout.extras {
        out[b + i] = (extras[i] / n) as f32;
    }
    let razz = shape.showdown == Showdown::Razz;
    let at = b + layout.extras;
    let (boards, more) = out[at..].split_at_mut(2 * BOARD);
    board_classes(t.view.up, razz, &mut boards[..BOARD]);
    board_classes(t.view.opp_up, razz, &mut boards[BOARD..]);
    let least = acc.duel[..opps]
        .iter()
        .copied()
        .fold(f64::INFINITY, f64::min);
    more[0] = (acc.whole / n) as f32;
    more[1] = (acc.part / n) as f32;
    more[2] = (acc.duel[0] / n) as f32;
    more[3] = (least / n) as f32;
    let others = &mut more[4..];
    others.fill(0.0);
    let mut one = [0f32; BOARD];
    for &o in t.others() {
        board_classes(o, razz, &mut one);
        for (m, x) in others.iter_mut().zip(one) {
            *m = m.max(x);
        }
    }
    for x in boards.iter_mut().chain(others) {
        *x *= params.board_weight;
    }
}

/// What the second version adds up over a view's outer outcomes (through the first version's
/// table rollout: the outer draws deal my cards to come and every live opponent's up cards to
/// come, the inner draws their down cards): besides the first version's tally, each outer
/// outcome's chances of the whole pot and of a part, and its duel shares.
struct Acc {
    /// The first version's.
    tally: Tally,
    /// Sums of each outer outcome's chance of the whole pot, of a part of it, and of its mean
    /// duel share against each live opponent.
    whole: f64,
    part: f64,
    duel: [f64; 1 + MAX_OTHERS],
}

/// Runs the rollout of `t` with the showdown `sc`.
fn run<S: Scorer, R: Source>(
    sc: &S,
    shape: &Shape,
    params: &FeatureParams,
    layout: &Layout,
    t: &TableView,
    rng: &mut R,
) -> Acc {
    let acc = Acc {
        tally: Tally::new(layout),
        whole: 0.0,
        part: 0.0,
        duel: [0.0; 1 + MAX_OTHERS],
    };
    let mut r = TableRollout::new(sc, shape, t, acc);
    r.run(params, rng);
    r.acc
}

impl<S: Scorer> Accumulate<S> for Acc {
    type Inner = Sums;
    #[inline]
    fn inner(
        sc: &S,
        inner: &mut Sums,
        me: S::S,
        opps: usize,
        opp: impl FnMut(usize) -> PartialHand,
    ) {
        inner.score(sc, me, opps, opp);
    }
    fn outer(&mut self, sums: Sums) {
        let count = sums.count as f64;
        self.tally.add(sums.share / count);
        self.whole += sums.whole as f64 / count;
        self.part += sums.part as f64 / count;
        // The seats past the live ones add nothing (their sums are zero).
        for (d, s) in self.duel.iter_mut().zip(&sums.duel) {
            *d += s / count;
        }
    }
    fn tally(&mut self) -> &mut Tally {
        &mut self.tally
    }
}

/// What the inner outcomes of one outer outcome add up to.
#[derive(Default)]
struct Sums {
    share: f64,
    whole: u64,
    part: u64,
    duel: [f64; 1 + MAX_OTHERS],
    count: u64,
}

impl Sums {
    /// Scores one inner outcome: my strength `me` against `opps` opponents of final hands
    /// `opp(i)` (each dealt and evaluated once).
    #[inline]
    fn score<S: Scorer>(
        &mut self,
        sc: &S,
        me: S::S,
        opps: usize,
        opp: impl FnMut(usize) -> PartialHand,
    ) {
        let share = sc.share_and_duels(me, opps, opp, &mut self.duel);
        self.share += share;
        self.whole += (share == 1.0) as u64;
        self.part += (share > 0.0 && share < 1.0) as u64;
        self.count += 1;
    }
}

#[cfg(test)]
mod tests {
    use super::super::{Version, BOARD};
    use super::MORE;
    use crate::bucketing::canon::{canonical_table, deck_perms, permute_view};
    use crate::bucketing::tests::{
        built_alike_on_one_and_three_threads, features_of as of, rechecksummed,
        round_trips_in_format_2, set, table_params as params, tiny_size, tiny_table_of,
    };
    use crate::bucketing::view::{CardView, Shape, Table, TableView};
    use crate::bucketing::{random_views, Bucketing};
    use crate::cards::CardSet;
    use crate::rules::GameDef;
    use proptest::prelude::*;
    use std::sync::OnceLock;

    /// A `doorstud` last street worked by hand (its deck J Q K A in clubs and diamonds): my J♣
    /// down and J♦ up (a pair of jacks) against K♣ (the measured opponent) and Q♦; Q♣ K♦ A♣ A♦
    /// unseen, one to each opponent's
    /// down card (12 deals). The king pairs in 3 deals, the queen in 3, both in 1: I take the
    /// whole pot in 7 of 12, never a part, and each duel in 9 of 12.
    #[test]
    fn a_doorstud_last_street_worked_by_hand() {
        let def = GameDef::preset("doorstud").unwrap();
        let shape = Shape::of_table(&def, Table { live: 1, folded: 0 }).unwrap();
        let mut t = TableView::heads_up(CardView {
            street: 1,
            down: set("Jc"),
            up: set("Jd"),
            opp_up: set("Kc"),
        });
        t.others[0] = set("Qd");
        t.live = 1;
        shape.check_table(&t).unwrap();
        let p = params(64, 16, Version::Two);
        let f = of(&shape, &p, &t);
        let more = &f[f.len() - MORE..];
        assert_eq!(&more[..4], &[7.0 / 12.0, 0.0, 0.75, 0.75]);
        // The queen's board: one card, the queen high and low, no low card, no suit or run.
        let q = 10.0 / 12.0 * 0.05;
        assert_eq!(&more[4..], &[0.0, q, q, 0.0, 0.0, 0.0]);
        assert_eq!(f[7], 7.0 / 12.0, "the EHS");
        // The first version's features are the first ones, bit for bit.
        let one = of(&shape, &params(64, 16, Version::One), &t);
        assert_eq!(&f[..f.len() - MORE], &one[..]);
    }

    /// The second version's first features are the first version's, bit for bit, at any table
    /// with another live opponent (the same rollout, the same draws), sampled or enumerated.
    #[test]
    fn the_first_features_are_the_first_versions() {
        for (game, live, folded) in [("7stud", 1, 1), ("razz", 2, 0), ("stud8", 3, 2)] {
            let table = Table { live, folded };
            let shape = Shape::of_table(&GameDef::preset(game).unwrap(), table).unwrap();
            let perms = deck_perms(shape.deck);
            for street in 0..shape.streets() {
                for t in random_views(&shape, &perms, street, 6, 7 + street as u64) {
                    for (outer, inner) in [(16, 4), (1, 2_000)] {
                        let two = of(&shape, &params(outer, inner, Version::Two), &t);
                        let one = of(&shape, &params(outer, inner, Version::One), &t);
                        assert_eq!(&two[..two.len() - MORE], &one[..], "{game} {t:?}");
                        let more = &two[two.len() - MORE..];
                        // Chances and shares: the duels at least the table's share, the
                        // least duel at most the measured one.
                        assert!(more[0] + more[1] <= 1.0 + 1e-6);
                        assert!(more[3] <= more[2] && more[2] <= 1.0);
                        assert!(
                            more[3] + 1e-6 >= one[7],
                            "a duel is no harder than the table"
                        );
                    }
                }
            }
        }
        assert_eq!(MORE, 4 + BOARD);
    }

    /// The table the tests' bucketing is built for and their views are dealt at.
    const TABLE: Table = Table { live: 2, folded: 1 };

    const SPEC: &str = "tiny:features=2";

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

    /// Format 2 records the version; read back it gives the same buckets. The first version's
    /// bucketings keep format 1 (their bytes and checksums, which strategy files record).
    #[test]
    fn a_second_version_bucketing_round_trips_in_format_2() {
        let b = tiny_table();
        let g = GameDef::preset("7stud").unwrap();
        let table = TABLE;
        let bytes = round_trips_in_format_2(b, table, 3);
        let mut one = tiny_size(SPEC);
        one.features.version = Version::One;
        let first = Bucketing::build_table(&g, table, &one, &|_| {}).unwrap();
        assert_eq!(&first.encode()[8..12], &1u32.to_le_bytes());
        assert_ne!(first.checksum(), b.checksum());
        // Format 2 with a features' version it does not know is refused by name.
        // Before the streets: the features' version, the draws' code and the dimension.
        let at = bytes.len() - 8 - b.streets().iter().map(street_bytes).sum::<usize>() - 12;
        assert_eq!(
            &bytes[at..at + 4],
            &2u32.to_le_bytes(),
            "the version's place"
        );
        let bad = rechecksummed(&bytes, |f| f[at] = 9);
        let e = Bucketing::decode_table(&bad, &g, table).unwrap_err();
        assert!(e.to_string().contains("features of version 9"), "{e}");
    }

    /// The bytes of one street's clustering in the encoding.
    fn street_bytes(s: &crate::bucketing::StreetBuckets) -> usize {
        4 + 4 + 8 + 8 + 4 + 4 * s.centroids.len()
    }

    /// A random seven-card stud table view of `live` other live opponents and up to two
    /// folded seats, and a random suit renaming and order of the others.
    fn arb_table() -> impl Strategy<Value = (TableView, usize, bool)> {
        let deck = Just((0..52u8).collect::<Vec<_>>()).prop_shuffle();
        (0usize..5, deck, 0usize..24, any::<bool>()).prop_map(|(street, deck, perm, swap)| {
            let g = GameDef::preset("7stud").unwrap();
            let shape = Shape::of_table(&g, TABLE).unwrap();
            let (d, u) = (shape.downs[street] as usize, shape.ups[street] as usize);
            let cards = |at: usize, n: usize| {
                deck[at..at + n]
                    .iter()
                    .map(|&i| crate::cards::Card::from_id(i))
                    .collect::<CardSet>()
            };
            let mut t = TableView::heads_up(CardView {
                street,
                down: cards(0, d),
                up: cards(d, u),
                opp_up: cards(d + u, u),
            });
            t.others[0] = cards(d + 2 * u, u);
            t.others[1] = cards(d + 3 * u, u);
            t.live = 2;
            t.dead = cards(d + 4 * u, u);
            (t, perm, swap)
        })
    }

    /// `t` with its suits renamed by `perm`.
    fn renamed(t: &TableView, perm: &[u8; 4]) -> TableView {
        let one = |s: CardSet| {
            permute_view(
                &CardView {
                    opp_up: s,
                    ..t.view
                },
                perm,
            )
            .opp_up
        };
        let mut r = *t;
        r.view = permute_view(&t.view, perm);
        for o in &mut r.others[..t.live as usize] {
            *o = one(*o);
        }
        r.dead = one(t.dead);
        r
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(32))]

        /// A view's bucket is a function of its canonical view: renaming suits and reordering
        /// the other live opponents keep it.
        #[test]
        fn the_bucket_is_the_canonical_views((t, p, swap) in arb_table()) {
            let b = tiny_table();
            let perms = deck_perms(CardSet::FULL);
            let mut w = renamed(&t, &perms[p]);
            if swap {
                w.others.swap(0, 1);
            }
            prop_assert_eq!(canonical_table(&t, &perms), canonical_table(&w, &perms));
            let bucket = b.bucket_table(&t).unwrap();
            prop_assert_eq!(bucket, b.bucket_table(&w).unwrap());
            prop_assert!(bucket < b.buckets(t.view.street));
        }
    }
}
