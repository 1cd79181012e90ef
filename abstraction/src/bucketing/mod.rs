//! The card abstraction of the real stud games (seven-card stud, hi-lo, razz, five-card stud,
//! and any heads-up stud game such as `ministud`): a bucket for what one player knows of the
//! cards, a [`CardView`] (street, my down cards, my up cards, the opponent's up cards).
//!
//! The path of a view: canonical form under suit renaming ([`canon`]) → features ([`features`]:
//! a histogram of final hand strength whose mean is the EHS, low features for hi-lo, classes of
//! both visible boards) → the nearest centroid of its street ([`kmeans`]) → the bucket. The
//! build draws a fixed training sample of views per street and clusters their features; every
//! random choice comes from seeds recorded in the [`Size`], so the build is reproducible and the
//! lookup computes exactly the features the build did. [`Bucketing::encode`] gives the bytes to
//! cache, with a checksum that identifies the abstraction.
//!
//! [`Bucketing`] is a [`CardAbstraction`](crate::card_abstraction::CardAbstraction) (the impl
//! is there, above the bucketing): the solver's tree asks it for the bucket of each (board,
//! seat, private hand), seen as the [`CardView`] of its
//! [`SeatCards`](crate::card_abstraction::SeatCards); its name carries the size and
//! [`Bucketing::checksum`].

pub mod canon;
mod codec;
mod draws;
pub mod features;
pub mod kmeans;
mod recent;
mod size;
mod table;
pub mod view;

pub use draws::Draws;
pub use size::{Size, SIZES};
pub use view::{CardView, Shape, Table, TableView, MAX_OTHERS};

use crate::cards::CardSet;
use crate::rules::GameDef;
use features::Layout;
use ndarray::{Array2, Axis};
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;
use rayon::prelude::*;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Arc;

/// Why a bucketing could not be built, read or used.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum BucketError {
    /// The game cannot be bucketed.
    #[error("cannot bucket the game {0}")]
    Game(String),
    /// An unknown or impossible size.
    #[error("bad abstraction size: {0}")]
    Size(String),
    /// A view that cannot happen in the game.
    #[error("impossible cards: {0}")]
    View(String),
    /// Encoded bytes that are damaged, of another format version, or of another game or size.
    #[error("not a usable bucketing file: {0}")]
    Decode(String),
}

/// What a build is doing, for a progress display.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Progress {
    /// The street being built (0-based).
    pub street: usize,
    /// The game's number of streets.
    pub streets: usize,
    /// The phase on that street.
    pub phase: Phase,
    /// Work done in this phase.
    pub done: usize,
    /// Work in this phase.
    pub total: usize,
}

/// A phase of building one street.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Phase {
    /// Computing the features of the training views (work = views).
    Features,
    /// Lloyd iterations (work = iterations; it may stop early).
    Clustering,
}

/// The clustering of one street.
#[derive(Clone, Debug, PartialEq)]
pub struct StreetBuckets {
    /// The centroids: one row per bucket, one column per feature.
    pub centroids: Array2<f32>,
    /// The training views clustered.
    pub points: u32,
    /// The Lloyd iterations run.
    pub iterations: u32,
    /// The variance of the EHS over the training views.
    pub ehs_variance: f64,
    /// The variance of the EHS within the buckets: what the abstraction loses of it.
    pub ehs_within: f64,
}

/// A built card abstraction of one game at one size.
#[derive(Clone, Debug)]
pub struct Bucketing {
    shape: Shape,
    size: Size,
    layout: Layout,
    perms: Vec<[u8; 4]>,
    streets: Vec<StreetBuckets>,
    checksum: u64,
    /// The first street as a table, once [`Bucketing::precompute_first_street`] has run.
    first: Option<table::FirstStreet>,
    /// The buckets of views looked up lately, once [`Bucketing::remember_recent`] has run
    /// (shared by clones, which give the same answers).
    recent: Option<Arc<recent::Recent>>,
}

impl Bucketing {
    /// Builds the abstraction of `def` at `size`, reporting through `progress` (called from
    /// worker threads). The same game and size always give the same centroids and checksum.
    pub fn build(
        def: &GameDef,
        size: &Size,
        progress: &(dyn Fn(Progress) + Sync),
    ) -> Result<Bucketing, BucketError> {
        Bucketing::build_shape(Shape::of(def)?, size, progress)
    }

    /// Builds the abstraction of an N-seat view of `def` ([`Shape::of_table`]) at `size`: its
    /// clusters are of training views with `table`'s other seats (the other live opponents'
    /// and the folded seats' up cards drawn with the rest), so that they are of the features
    /// such views have. With no other seat it is [`Bucketing::build`]'s.
    pub fn build_table(
        def: &GameDef,
        table: Table,
        size: &Size,
        progress: &(dyn Fn(Progress) + Sync),
    ) -> Result<Bucketing, BucketError> {
        Bucketing::build_shape(Shape::of_table(def, table)?, size, progress)
    }

    fn build_shape(
        shape: Shape,
        size: &Size,
        progress: &(dyn Fn(Progress) + Sync),
    ) -> Result<Bucketing, BucketError> {
        if size.buckets.len() != shape.streets() || size.buckets.contains(&0) {
            return Err(BucketError::Size(format!(
                "{} gives {:?} buckets; {} needs at least one on each of {} streets",
                size.name,
                size.buckets,
                shape.game,
                shape.streets()
            )));
        }
        if size.train == 0 {
            return Err(BucketError::Size(format!(
                "{}: no training views",
                size.name
            )));
        }
        let layout = Layout::new(shape.showdown, &size.features);
        let perms = canon::deck_perms(shape.deck);
        let dim = layout.dim();
        let mut streets = Vec::new();
        for street in 0..shape.streets() {
            let seed = mix(size.seed, street as u64, 1);
            let views = random_views(&shape, &perms, street, size.train as usize, seed);
            let total = views.len();
            // One row of features per training view.
            let mut points = Array2::<f32>::zeros((total, dim));
            let done = AtomicUsize::new(0);
            const CHUNK: usize = 256;
            points
                .axis_chunks_iter_mut(Axis(0), CHUNK)
                .into_par_iter()
                .zip(views.par_chunks(CHUNK))
                .for_each(|(mut out, vs)| {
                    for (mut o, v) in out.rows_mut().into_iter().zip(vs) {
                        let o = o
                            .as_slice_mut()
                            .expect("a row of a new matrix is contiguous");
                        features::features(&shape, &size.features, v, o);
                    }
                    let d = done.fetch_add(vs.len(), Ordering::Relaxed) + vs.len();
                    progress(Progress {
                        street,
                        streets: shape.streets(),
                        phase: Phase::Features,
                        done: d,
                        total,
                    });
                });
            let k = size.buckets[street] as usize;
            let clusters = kmeans::kmeans(
                points.view(),
                k,
                size.iterations as usize,
                mix(size.seed, street as u64, 2),
                &|done, total| {
                    progress(Progress {
                        street,
                        streets: shape.streets(),
                        phase: Phase::Clustering,
                        done,
                        total,
                    })
                },
            );
            let ehs = points.column(layout.ehs_index()).to_vec();
            streets.push(StreetBuckets {
                points: total as u32,
                iterations: clusters.iterations as u32,
                ehs_variance: kmeans::within_variance(&ehs, &vec![0; ehs.len()], 1),
                ehs_within: kmeans::within_variance(&ehs, &clusters.assignment, k),
                centroids: clusters.centroids,
            });
        }
        let mut b = Bucketing {
            shape,
            size: size.clone(),
            layout,
            perms,
            streets,
            checksum: 0,
            first: None,
            recent: None,
        };
        b.checksum = codec::checksum(&b.encode_payload());
        Ok(b)
    }

    /// The bucket of a view, in `0..self.buckets(view.street)`; refuses a view that cannot
    /// happen in the game.
    pub fn bucket(&self, v: &CardView) -> Result<u32, BucketError> {
        self.bucket_table(&TableView::heads_up(*v))
    }

    /// The bucket of an N-seat view, in a bucketing built for its other seats
    /// ([`Bucketing::build_table`]): its features' nearest centroid. Refuses a view that
    /// cannot happen or has other live opponents than the bucketing.
    pub fn bucket_table(&self, t: &TableView) -> Result<u32, BucketError> {
        self.shape.check_table(t)?;
        let c = canon::canonical_table(t, &self.perms);
        if let Some(b) = self.first.as_ref().and_then(|f| f.get(&c)) {
            return Ok(b);
        }
        let Some(recent) = &self.recent else {
            return Ok(self.nearest(&c));
        };
        if let Some(b) = recent.get(&c) {
            return Ok(b);
        }
        let b = self.nearest(&c);
        recent.put(&c, b);
        Ok(b)
    }

    /// The bucket of a canonical view: its features' nearest centroid.
    fn nearest(&self, c: &TableView) -> u32 {
        let dim = self.layout.dim();
        let mut f = [0f32; features::MAX_DIM];
        features::features(&self.shape, &self.size.features, c, &mut f[..dim]);
        kmeans::nearest(
            self.streets[c.view.street].centroids.view(),
            (&f[..dim]).into(),
        )
        .0
    }

    /// Computes the bucket of every canonical first-street view once (in parallel), so that
    /// first-street lookups become a binary search. The buckets are the same either way. Returns
    /// the number of canonical views (185 185 in the seven-card games, seconds to compute
    /// at the default size).
    pub fn precompute_first_street(&mut self) -> usize {
        let t = table::FirstStreet::build(self);
        let n = t.len();
        self.first = Some(t);
        n
    }

    /// Keeps the buckets of about `slots` heads-up views looked up lately (at 32 bytes a slot),
    /// so that a view asked again, or a view equal to it up to the suits, is answered without
    /// its features: a player asked at each decision of a street, or a re-solve's ranges asking
    /// every holding around the same up cards. The buckets are the same either way (a slot keeps
    /// its whole view). Returns the bytes the slots take.
    pub fn remember_recent(&mut self, slots: usize) -> usize {
        let r = recent::Recent::new(slots);
        let bytes = r.bytes();
        self.recent = Some(Arc::new(r));
        bytes
    }

    /// The rollout budget's outer draws a view's features are computed from
    /// ([`FeatureParams::outer`]).
    pub fn outer_draws(&self) -> u32 {
        self.size.features.outer
    }

    /// A copy whose lookups estimate the bucket: past a first-street table (exact where one was
    /// computed), the features come from `outer` outer draws of the rollout instead of the
    /// [`Bucketing::outer_draws`] it was built with (each with the built inner draws), then the
    /// same nearest centroid. Noisier features, a rollout `outer_draws() / outer` times
    /// cheaper: for a range's thousands of holdings, where an estimated bucket costs some
    /// accuracy of the range rather than of a decision. It remembers no recent view (a view
    /// remembered by the original holds its exact bucket; [`Bucketing::remember_recent`] gives
    /// the copy a memory of its own estimates). Its checksum stays the original's: the
    /// centroids it names are the same.
    pub fn estimating(&self, outer: u32) -> Bucketing {
        let mut b = self.clone();
        b.size.features.outer = outer.max(1);
        b.recent = None;
        b
    }

    /// The feature vector of a view (of its canonical form; see [`features::Layout`]).
    pub fn features(&self, v: &CardView) -> Result<Vec<f32>, BucketError> {
        let t = TableView::heads_up(*v);
        self.shape.check_table(&t)?;
        let c = canon::canonical_table(&t, &self.perms);
        let mut f = vec![0f32; self.layout.dim()];
        features::features(&self.shape, &self.size.features, &c, &mut f);
        Ok(f)
    }

    /// The canonical form of a view under suit renaming.
    pub fn canonical(&self, v: &CardView) -> CardView {
        canon::canonical(v, &self.perms)
    }

    /// The number of buckets on `street` (0 past the last street).
    pub fn buckets(&self, street: usize) -> u32 {
        self.streets
            .get(street)
            .map_or(0, |s| s.centroids.nrows() as u32)
    }

    /// The checksum of the encoded abstraction: a strategy file records it to name the
    /// abstraction it was solved with.
    pub fn checksum(&self) -> u64 {
        self.checksum
    }

    /// `n` uniformly random canonical views of `street` drawn from `seed` (the build's training
    /// sample is such a draw), for benchmarks and tests.
    pub fn sample_views(&self, street: usize, n: usize, seed: u64) -> Vec<CardView> {
        let views = self.sample_table_views(street, n, seed);
        views.into_iter().map(|t| t.view).collect()
    }

    /// [`Bucketing::sample_views`] with the other seats of the bucketing's shape (as its build
    /// draws them).
    pub fn sample_table_views(&self, street: usize, n: usize, seed: u64) -> Vec<TableView> {
        random_views(&self.shape, &self.perms, street, n, seed)
    }

    /// The game's shape.
    pub fn shape(&self) -> &Shape {
        &self.shape
    }

    /// The size it was built at.
    pub fn size(&self) -> &Size {
        &self.size
    }

    /// The feature layout.
    pub fn layout(&self) -> Layout {
        self.layout
    }

    /// The clustering of each street, with its quality figures.
    pub fn streets(&self) -> &[StreetBuckets] {
        &self.streets
    }
}

/// Mixes a seed with two small words (street, purpose) into an independent seed.
fn mix(seed: u64, a: u64, b: u64) -> u64 {
    features::splitmix(features::splitmix(seed ^ a) ^ b)
}

/// `n` views of a street: uniformly random deals of my cards, the opponent's up cards and the
/// shape's other seats' up cards (every folded seat's as the street's), canonicalised, drawn
/// from a generator seeded by `seed`.
fn random_views(
    shape: &Shape,
    perms: &[[u8; 4]],
    street: usize,
    n: usize,
    seed: u64,
) -> Vec<TableView> {
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let mut deck: Vec<_> = shape.deck.iter().collect();
    let (d, u) = (shape.downs[street] as usize, shape.ups[street] as usize);
    let (live, folded) = (shape.table.live as usize, shape.table.folded as usize);
    (0..n)
        .map(|_| {
            let k = d + (2 + live + folded) * u;
            let (cards, _) = crate::draw::partial_shuffle(&mut deck, &mut rng, k);
            let set = |s: &[crate::cards::Card]| s.iter().copied().collect::<CardSet>();
            let mut t = TableView::heads_up(CardView {
                street,
                down: set(&cards[..d]),
                up: set(&cards[d..d + u]),
                opp_up: set(&cards[d + u..d + 2 * u]),
            });
            t.live = live as u8;
            for (i, o) in t.others[..live].iter_mut().enumerate() {
                *o = set(&cards[d + (2 + i) * u..d + (3 + i) * u]);
            }
            t.dead = set(&cards[d + (2 + live) * u..k]);
            canon::canonical_table(&t, perms)
        })
        .collect()
}

#[cfg(test)]
mod draws_tests;
#[cfg(test)]
mod tests;
