//! The buckets of heads-up views looked up lately, kept so that a view asked again is not
//! computed again. A player asked at each of its decisions asks the same view at every decision
//! of a street, and a re-solve's ranges ask every holding of a seat around the same up cards,
//! where holdings that differ by a renaming of suits the board does not show are one canonical
//! view; each is a feature rollout (tens of microseconds) when computed.
//!
//! Direct-mapped: a view's slot is a mix of its canonical cards, and a view landing on a taken
//! slot replaces what was there. A slot keeps the whole canonical view beside its bucket, so a
//! bucket is only ever answered for the very view it was computed of: the answers are the
//! computed ones. The slots are split into shards, each behind its own lock, so that threads
//! looking up at once seldom wait for one another; no slot is allocated after the start.

use super::features::splitmix;
use super::view::TableView;
use std::sync::{Mutex, MutexGuard};

/// Shards of slots, each behind its own lock (a power of two).
const SHARDS: usize = 16;

/// One remembered view: its canonical cards (`down | (street + 1) << 56`, `up`, `opp_up`; a
/// first word of 0 is an empty slot) and its bucket.
#[derive(Clone, Copy, Default)]
struct Slot {
    key: [u64; 3],
    bucket: u32,
}

/// The remembered buckets (see the module documentation).
pub(super) struct Recent {
    shards: Box<[Mutex<Box<[Slot]>>]>,
    /// Slots per shard, less one (a power of two, less one).
    mask: usize,
}

impl std::fmt::Debug for Recent {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "Recent({} slots)", self.slots())
    }
}

impl Recent {
    /// About `slots` slots (rounded up to a power of two, at least one a shard).
    pub(super) fn new(slots: usize) -> Recent {
        let per_shard = slots.div_ceil(SHARDS).max(1).next_power_of_two();
        Recent {
            shards: (0..SHARDS)
                .map(|_| Mutex::new(vec![Slot::default(); per_shard].into_boxed_slice()))
                .collect(),
            mask: per_shard - 1,
        }
    }

    /// The slots kept.
    pub(super) fn slots(&self) -> usize {
        SHARDS * (self.mask + 1)
    }

    /// The bytes the slots take.
    pub(super) fn bytes(&self) -> usize {
        self.slots() * std::mem::size_of::<Slot>()
    }

    /// The bucket remembered for the canonical view `c`, if it is; a view with other seats
    /// is never remembered.
    pub(super) fn get(&self, c: &TableView) -> Option<u32> {
        let key = key(c)?;
        let (shard, i) = self.place(&key);
        let slot = self.lock(shard)[i];
        (slot.key == key).then_some(slot.bucket)
    }

    /// Remembers `bucket` for the canonical view `c` (in place of whatever shared its slot).
    pub(super) fn put(&self, c: &TableView, bucket: u32) {
        if let Some(key) = key(c) {
            let (shard, i) = self.place(&key);
            self.lock(shard)[i] = Slot { key, bucket };
        }
    }

    /// The shard and slot of a key.
    fn place(&self, key: &[u64; 3]) -> (usize, usize) {
        let h = splitmix(splitmix(splitmix(key[0]) ^ key[1]) ^ key[2]);
        (h as usize % SHARDS, (h >> 32) as usize & self.mask)
    }

    /// A shard's slots. A thread that panicked holding the lock cannot have left a slot half
    /// written (a slot is written in one assignment), so a poisoned lock's slots are used.
    fn lock(&self, shard: usize) -> MutexGuard<'_, Box<[Slot]>> {
        self.shards[shard]
            .lock()
            .unwrap_or_else(|poisoned| poisoned.into_inner())
    }
}

/// The key of a heads-up view (none with other seats: those are not remembered).
fn key(c: &TableView) -> Option<[u64; 3]> {
    let v = &c.view;
    (c.live == 0 && c.dead.is_empty())
        .then(|| [v.down.0 | (v.street as u64 + 1) << 56, v.up.0, v.opp_up.0])
}
