//! The first street as a table: every canonical view of the first street, sorted, with its
//! bucket. A pure function of the built abstraction (so nothing is stored in the cache file): it
//! is computed once on request, and turns a first-street lookup into a binary search.

use super::canon::canonical;
use super::features::{for_each_subset, ids};
use super::view::CardView;
use super::Bucketing;
use rayon::prelude::*;

/// The canonical first-street views, sorted by (down, up, opponent's up) masks, and their buckets.
#[derive(Clone, Debug, Default)]
pub(super) struct FirstStreet {
    keys: Vec<(u64, u64, u64)>,
    buckets: Vec<u32>,
}

impl FirstStreet {
    /// Computes the bucket of every canonical first-street view of `b` (in parallel).
    pub(super) fn build(b: &Bucketing) -> FirstStreet {
        let shape = b.shape();
        let (d, u) = (shape.downs[0] as usize, shape.ups[0] as usize);
        let mut deck = [0u8; 52];
        let n = ids(shape.deck, &mut deck);
        let mut downs = Vec::new();
        for_each_subset(&deck[..n], d, &mut |s| downs.push(s));
        // Every view that is its own canonical form, grouped by down cards in parallel.
        let views: Vec<CardView> = downs
            .par_iter()
            .flat_map_iter(|&down| {
                let mut out = Vec::new();
                let mut rest = [0u8; 52];
                let m = ids(shape.deck.minus(down), &mut rest);
                for_each_subset(&rest[..m], u, &mut |up| {
                    let mut rest2 = [0u8; 52];
                    let m2 = ids(shape.deck.minus(down).minus(up), &mut rest2);
                    for_each_subset(&rest2[..m2], u, &mut |opp_up| {
                        let v = CardView {
                            street: 0,
                            down,
                            up,
                            opp_up,
                        };
                        if canonical(&v, &b.perms) == v {
                            out.push(v);
                        }
                    });
                });
                out
            })
            .collect();
        let mut keyed: Vec<((u64, u64, u64), u32)> = views
            .par_iter()
            .map(|v| {
                (
                    (v.down.0, v.up.0, v.opp_up.0),
                    b.nearest(&super::TableView::heads_up(*v)),
                )
            })
            .collect();
        keyed.sort_unstable();
        FirstStreet {
            keys: keyed.iter().map(|k| k.0).collect(),
            buckets: keyed.iter().map(|k| k.1).collect(),
        }
    }

    /// The bucket of a canonical first-street view (none of an N-seat view with other seats).
    pub(super) fn get(&self, t: &super::TableView) -> Option<u32> {
        let v = &t.view;
        if v.street != 0 || t.live > 0 || !t.dead.is_empty() {
            return None;
        }
        let key = (v.down.0, v.up.0, v.opp_up.0);
        self.keys.binary_search(&key).ok().map(|i| self.buckets[i])
    }

    /// The number of canonical views in the table.
    pub(super) fn len(&self) -> usize {
        self.keys.len()
    }
}
