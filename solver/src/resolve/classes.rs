//! The blueprint's card classes remembered across the decisions of a hand, so that the ranges
//! of a last-street re-solve are replayed without looking a bucket up again.
//!
//! The Bayesian replay ([`crate::bot::range`]) asks a strategy file for the class (bucket) of
//! every holding of both seats on every street up to the re-solve's root: thousands of bucket
//! lookups, each a feature rollout past the first street, which were most of a seventh-street
//! re-solve's time. A class depends only on the seat, its down cards and both seats' up cards,
//! in the order dealt (the view of each street and, through the up cards, who acted first on
//! each), never on the betting. So the re-solving player, which sees a decision of its hand on
//! every street, works each street's classes out there ([`warm`]) into a [`ClassCache`], and
//! the replay at the last street finds them all: the lookups are spread over the streets
//! instead of all falling on the last one.

use crate::bot::range::replay;
use crate::bot::{Bet, ClassSource, Classed, Player};
use abstraction::rules::{Next, State};
use std::collections::HashMap;
use std::sync::Mutex;

/// Entries kept in the newer of the cache's two generations before it becomes the older and
/// the older is dropped: about 32 hands of seven-card stud (some 8,000 classes a hand), at most
/// about 25 MB for both, so that the hands played at once on other threads keep theirs.
const GENERATION: usize = 1 << 18;

/// The cards a class depends on, as bytes: the seat, the street, then the seat's down cards and
/// each seat's up cards, each list its length and its card ids in the order dealt.
type ViewKey = [u8; 32];

/// Classes of a player's seat views already looked up (see the module documentation).
#[derive(Default)]
pub struct ClassCache {
    /// The newer generation, then the older.
    generations: Mutex<[HashMap<ViewKey, u32>; 2]>,
}

/// A player whose [`Player::card_class`] is answered from a [`ClassCache`] where it can be; the
/// rest of its answers are the player's own.
pub type Cached<'a> = Classed<'a, ClassCache>;

/// The key of `seat`'s view in `state`, or `None` if a down card is unknown or the cards do
/// not fit the key.
fn key(state: &State, seat: u8) -> Option<ViewKey> {
    let mut k = [0u8; 32];
    k[0] = seat;
    k[1] = u8::try_from(state.street()).ok()?;
    let mut at = 2;
    let mut push = |ids: &mut dyn Iterator<Item = Option<u8>>, len: usize| -> Option<()> {
        *k.get_mut(at)? = u8::try_from(len).ok()?;
        at += 1;
        for id in ids {
            *k.get_mut(at)? = id?;
            at += 1;
        }
        Some(())
    };
    let down = state.down_cards(seat);
    push(&mut down.iter().map(|c| c.map(|c| c.id())), down.len())?;
    for s in [seat, 1 - seat] {
        let up = state.up_cards(s);
        push(&mut up.iter().map(|c| Some(c.id())), up.len())?;
    }
    Some(k)
}

impl ClassCache {
    /// An empty cache.
    pub fn new() -> ClassCache {
        ClassCache::default()
    }

    /// How many classes it holds (both generations).
    pub fn len(&self) -> anyhow::Result<usize> {
        let g = self.lock()?;
        Ok(g[0].len() + g[1].len())
    }

    /// Whether it holds no class.
    pub fn is_empty(&self) -> anyhow::Result<bool> {
        Ok(self.len()? == 0)
    }

    fn lock(&self) -> anyhow::Result<std::sync::MutexGuard<'_, [HashMap<ViewKey, u32>; 2]>> {
        self.generations
            .lock()
            .map_err(|_| anyhow::anyhow!("the class cache was left half-updated by a panic"))
    }

    fn get(&self, key: &ViewKey) -> anyhow::Result<Option<u32>> {
        let g = self.lock()?;
        Ok(g[0].get(key).or_else(|| g[1].get(key)).copied())
    }

    fn insert(&self, key: ViewKey, class: u32) -> anyhow::Result<()> {
        let mut g = self.lock()?;
        if g[0].len() >= GENERATION {
            let newer = std::mem::take(&mut g[0]);
            g[1] = newer;
        }
        g[0].insert(key, class);
        Ok(())
    }
}

impl ClassSource for ClassCache {
    /// The player's class, looked up once per view; a player without classes is asked each
    /// time (its `None` is not kept).
    fn class(&self, player: &dyn Player, state: &State, seat: u8) -> anyhow::Result<Option<u32>> {
        let Some(k) = key(state, seat) else {
            return player.card_class(state, seat);
        };
        if let Some(c) = self.get(&k)? {
            return Ok(Some(c));
        }
        let c = player.card_class(state, seat)?;
        if let Some(c) = c {
            self.insert(k, c)?;
        }
        Ok(c)
    }
}

/// Works out into `player`'s cache the classes of every holding of both seats on the street of
/// `real` (a decision after `bets`), replaying the hand as a re-solve's ranges do (a `floor` as
/// theirs, so that the same holdings are kept). Earlier streets' classes come from the cache
/// when they were warmed there.
pub fn warm(player: &Cached, real: &State, bets: &[Bet], floor: f64) -> anyhow::Result<()> {
    let mut r = replay(player, real, bets, floor, |_| false)?;
    if matches!(r.state.next(), Next::Act { .. }) {
        for range in &mut r.ranges {
            range.classes(&r.state)?;
        }
    }
    Ok(())
}
