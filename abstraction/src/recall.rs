//! What an information set of the real games' abstract game remembers of earlier streets.
//!
//! The betting tree records earlier streets' betting by *role* (role 0 acts first on a street),
//! and the roles swap between streets with the board, so a node alone does not tell a player
//! which earlier bets were its own; and a street's bucket is of the whole view on that street,
//! forgetting the earlier streets' buckets. A [`Recall`] adds either to the bucket: the solver's
//! row on street `s` is a *key* combining the street's bucket with what is recalled, so the
//! betting tree and the solver stay as they are, with more rows per node.

use crate::bucketing::{BucketError, Bucketing, CardView};
use crate::rules::state::MAX_STREETS;
use crate::rules::State;

/// What a key recalls beside the street's bucket.
#[derive(
    Clone, Copy, Debug, Default, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize,
)]
#[serde(rename_all = "kebab-case")]
pub enum Recall {
    /// The street's bucket only (imperfect recall of both).
    #[default]
    None,
    /// Whether the player acted first on each earlier street: with the node's role history, its
    /// own earlier actions (`2^s` keys per bucket on street `s`).
    Order,
    /// The previous street's bucket (`buckets(s - 1)` keys per bucket on street `s`).
    Buckets,
    /// Both.
    Both,
    /// Whether the player acted first on the street before only: its own actions of that
    /// street, at twice the rows (`2` keys per bucket past the first street) rather than
    /// `order`'s `2^s`, so that a seven-card file with it fits a shipped file.
    Last,
}

impl Recall {
    /// Every recall, in the order of [`Recall::name`]'s list.
    pub const ALL: [Recall; 5] = [
        Recall::None,
        Recall::Order,
        Recall::Buckets,
        Recall::Both,
        Recall::Last,
    ];

    /// The short name (`none`, `order`, `buckets`, `both`, `last`).
    pub fn name(self) -> &'static str {
        match self {
            Recall::None => "none",
            Recall::Order => "order",
            Recall::Buckets => "buckets",
            Recall::Both => "both",
            Recall::Last => "last",
        }
    }

    /// Parses a [`Recall::name`].
    pub fn parse(s: &str) -> Result<Recall, String> {
        Recall::ALL
            .into_iter()
            .find(|r| r.name() == s)
            .ok_or_else(|| format!("unknown recall '{s}': none, order, buckets, both or last"))
    }

    fn order(self) -> bool {
        matches!(self, Recall::Order | Recall::Both)
    }

    fn buckets(self) -> bool {
        matches!(self, Recall::Buckets | Recall::Both)
    }

    fn last(self) -> bool {
        self == Recall::Last
    }

    /// The keys per street, given the card abstraction's buckets per street.
    pub fn keys(self, buckets: &[u32]) -> Vec<u32> {
        (0..buckets.len())
            .map(|s| {
                let mut n = buckets[s];
                if self.buckets() && s > 0 {
                    n *= buckets[s - 1];
                }
                if self.order() {
                    n <<= s;
                }
                if self.last() && s > 0 {
                    n <<= 1;
                }
                n
            })
            .collect()
    }

    /// The key of a player on `street`: `bucket(s)` is its bucket on street `s` and `first(s)`
    /// whether it acted first there, for every `s <= street` (`buckets`: the card abstraction's
    /// buckets per street).
    pub fn key(
        self,
        buckets: &[u32],
        street: usize,
        bucket: impl Fn(usize) -> u32,
        first: impl Fn(usize) -> bool,
    ) -> u32 {
        let mut k = bucket(street);
        if self.buckets() && street > 0 {
            k = k * buckets[street - 1] + bucket(street - 1);
        }
        if self.order() {
            for s in 0..street {
                k = 2 * k + first(s) as u32;
            }
        }
        if self.last() && street > 0 {
            k = 2 * k + first(street - 1) as u32;
        }
        k
    }

    /// The key of `seat` at its decision in `state` (a heads-up state whose every down card of
    /// the seat is known): its bucket of the view on the current street, the previous street's
    /// from the cards it held then, and who acted first on each street from the rules engine.
    pub fn key_of_state(
        self,
        bucketing: &Bucketing,
        state: &State,
        seat: u8,
    ) -> Result<u32, BucketError> {
        let street = state.street();
        let now = CardView::on_street(state, seat, street)?;
        let prev = match street {
            s if s > 0 && self.buckets() => Some(CardView::on_street(state, seat, s - 1)?),
            _ => None,
        };
        self.key_of_views(bucketing, &now, prev.as_ref(), |s| {
            state.first_actor(s) == Some(seat)
        })
    }

    /// The key of a player whose view is `now`, `prev` its view on the street before (needed
    /// when the key recalls buckets), `first(s)` whether it acted first on street `s`.
    pub fn key_of_views(
        self,
        bucketing: &Bucketing,
        now: &CardView,
        prev: Option<&CardView>,
        first: impl Fn(usize) -> bool,
    ) -> Result<u32, BucketError> {
        let street = now.street;
        let b = bucketing.bucket(now)?;
        if self == Recall::None {
            return Ok(b);
        }
        let p = match prev {
            Some(v) if self.buckets() && street > 0 => bucketing.bucket(v)?,
            None if self.buckets() && street > 0 => {
                return Err(BucketError::View(format!(
                    "the key recalls the previous street's bucket: the view of street {} is \
                     needed",
                    street
                )))
            }
            _ => 0,
        };
        let mut counts = [0u32; MAX_STREETS];
        for (s, c) in counts.iter_mut().enumerate().take(street + 1) {
            *c = bucketing.buckets(s);
        }
        Ok(self.key(&counts, street, |s| if s == street { b } else { p }, first))
    }

    /// Whether a key depends on the cards of earlier streets (not only on the street's bucket and
    /// the public order of play), so that a table of keys by bucket alone is not defined.
    pub fn recalls_buckets(self) -> bool {
        self.buckets()
    }

    /// The order of play a key of `street` recalls: each recalled earlier street and whether the
    /// player acted first there (street 0 first; empty for `none` and `buckets`), the inverse of
    /// what [`Recall::key`] combined.
    pub fn order_of_key(self, street: usize, key: u32) -> Vec<(usize, bool)> {
        match self {
            _ if self.order() => (0..street)
                .map(|s| (s, (key >> (street - 1 - s)) & 1 == 1))
                .collect(),
            Recall::Last if street > 0 => vec![(street - 1, key & 1 == 1)],
            _ => Vec::new(),
        }
    }

    /// The card abstraction's bucket on the key's street (what [`Recall::key`] combined it with
    /// dropped), for describing a key in a player's words.
    pub fn bucket_of_key(self, buckets: &[u32], street: usize, key: u32) -> u32 {
        let mut k = key;
        if self.order() {
            k >>= street;
        }
        if self.last() && street > 0 {
            k >>= 1;
        }
        if self.buckets() && street > 0 {
            k /= buckets[street - 1];
        }
        k
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    proptest! {
        /// Every key is below its street's count, distinct recalled facts give distinct keys,
        /// and the bucket comes back out.
        #[test]
        fn keys_are_dense_and_distinct(
            counts in proptest::collection::vec(1u32..6, 1..5),
            seed in any::<u64>(),
        ) {
            for recall in Recall::ALL {
                let keys = recall.keys(&counts);
                for street in 0..counts.len() {
                    let mut seen = std::collections::HashSet::new();
                    // Every history of buckets and orders up to `street`, walked as digits.
                    let mut total = 1u64;
                    for c in &counts[..=street] {
                        total *= u64::from(*c) * 2;
                    }
                    for code in 0..total.min(4096) {
                        let code = (code + seed % total) % total;
                        let mut rest = code;
                        let mut b = vec![0u32; street + 1];
                        let mut f = vec![false; street + 1];
                        for s in 0..=street {
                            b[s] = (rest % u64::from(counts[s])) as u32;
                            rest /= u64::from(counts[s]);
                            f[s] = rest % 2 == 1;
                            rest /= 2;
                        }
                        let k = recall.key(&counts, street, |s| b[s], |s| f[s]);
                        prop_assert!(k < keys[street]);
                        let recalled: Vec<(usize, bool)> = match recall {
                            r if r.order() => (0..street).map(|j| (j, f[j])).collect(),
                            Recall::Last if street > 0 => vec![(street - 1, f[street - 1])],
                            _ => Vec::new(),
                        };
                        prop_assert_eq!(&recall.order_of_key(street, k), &recalled);
                        prop_assert_eq!(recall.bucket_of_key(&counts, street, k), b[street]);
                        // What the key recalls: this street's bucket, and per recall the rest.
                        let prev = if street > 0 && recall.buckets() { b[street - 1] } else { 0 };
                        let order: Vec<bool> = recalled.iter().map(|&(_, first)| first).collect();
                        seen.insert((k, b[street], prev, order));
                    }
                    let distinct_keys: std::collections::HashSet<u32> =
                        seen.iter().map(|x| x.0).collect();
                    prop_assert_eq!(distinct_keys.len(), seen.len());
                }
            }
        }
    }

    #[test]
    fn counts_per_street() {
        let c = [3, 5, 7];
        assert_eq!(Recall::None.keys(&c), vec![3, 5, 7]);
        assert_eq!(Recall::Order.keys(&c), vec![3, 10, 28]);
        assert_eq!(Recall::Buckets.keys(&c), vec![3, 15, 35]);
        assert_eq!(Recall::Both.keys(&c), vec![3, 30, 140]);
        assert_eq!(Recall::Last.keys(&c), vec![3, 10, 14]);
    }
}
