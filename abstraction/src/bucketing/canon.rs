//! Suit isomorphism: a view and every view obtained from it by renaming suits are the same
//! state for every feature, so each is mapped to one canonical representative before features
//! are computed, sampled or cached.

use super::view::{CardView, TableView, MAX_OTHERS};
use crate::cards::CardSet;

/// The bits of the clubs (suit 0) in a card mask: ids are `rank * 4 + suit`.
const SUIT0: u64 = 0x1_1111_1111_1111;

/// The 24 permutations of the four suits, as the image of each suit.
const PERMS: [[u8; 4]; 24] = {
    let mut out = [[0u8; 4]; 24];
    let mut n = 0;
    let mut a = 0;
    while a < 4 {
        let mut b = 0;
        while b < 4 {
            let mut c = 0;
            while c < 4 {
                let d = 6 - a - b - c;
                if a != b && a != c && b != c && d < 4 && d != a && d != b && d != c {
                    out[n] = [a as u8, b as u8, c as u8, d as u8];
                    n += 1;
                }
                c += 1;
            }
            b += 1;
        }
        a += 1;
    }
    out
};

/// `cards` with suit `s` renamed `perm[s]`.
#[inline]
fn permute(cards: CardSet, perm: &[u8; 4]) -> CardSet {
    let m = cards.0;
    let mut out = 0;
    for (s, &p) in perm.iter().enumerate() {
        out |= (m >> s & SUIT0) << p;
    }
    CardSet(out)
}

/// The suit permutations that map `deck` onto itself (all 24 for a full deck).
pub fn deck_perms(deck: CardSet) -> Vec<[u8; 4]> {
    PERMS
        .iter()
        .filter(|p| permute(deck, p) == deck)
        .copied()
        .collect()
}

/// The canonical representative of `v` under the suit permutations `perms`: the image whose
/// (down, up, opponent's up) masks are smallest in that order. Isomorphic views give the same
/// representative.
pub fn canonical(v: &CardView, perms: &[[u8; 4]]) -> CardView {
    canonical_table(&TableView::heads_up(*v), perms).view
}

/// The canonical representative of an N-seat view under `perms`: every set renamed, the other
/// live opponents (who are interchangeable) in increasing order of their masks, then the image
/// whose (down, up, opponent's up, others' up, dead) masks are smallest in that order. A
/// heads-up view's is [`canonical`]'s.
pub fn canonical_table(t: &TableView, perms: &[[u8; 4]]) -> TableView {
    // The full image of every permutation costs as much as a traversal's other work on the
    // view (a lookup canonicalises every view it buckets), so an image is made only when its
    // down cards are no larger than the least so far, and compared component by component:
    // the same minimum, found in the same order.
    let mut best: Option<([u64; 4 + MAX_OTHERS], TableView)> = None;
    for p in perms {
        let down = permute(t.view.down, p).0;
        if best.as_ref().is_some_and(|(k, _)| down > k[0]) {
            continue;
        }
        let w = image(t, p);
        let k = key(&w);
        if best.as_ref().is_none_or(|(b, _)| k < *b) {
            best = Some((k, w));
        }
    }
    best.map_or(*t, |(_, w)| w)
}

/// The image of `t` under `p`, the other live opponents in increasing order of their masks.
#[inline]
fn image(t: &TableView, p: &[u8; 4]) -> TableView {
    let mut w = TableView {
        view: permute_view(&t.view, p),
        dead: permute(t.dead, p),
        ..*t
    };
    for o in &mut w.others[..t.live as usize] {
        *o = permute(*o, p);
    }
    w.others[..t.live as usize].sort_unstable_by_key(|o| o.0);
    w
}

/// What [`canonical_table`] minimises: the (down, up, opponent's up, others' up, dead) masks.
#[inline]
fn key(w: &TableView) -> [u64; 4 + MAX_OTHERS] {
    let mut k = [0u64; 4 + MAX_OTHERS];
    k[..3].copy_from_slice(&[w.view.down.0, w.view.up.0, w.view.opp_up.0]);
    for (x, o) in k[3..].iter_mut().zip(w.others()) {
        *x = o.0;
    }
    k[3 + w.live as usize] = w.dead.0;
    k
}

/// Renames the suits of `v`: suit `s` becomes `perm[s]`.
pub fn permute_view(v: &CardView, perm: &[u8; 4]) -> CardView {
    CardView {
        street: v.street,
        down: permute(v.down, perm),
        up: permute(v.up, perm),
        opp_up: permute(v.opp_up, perm),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn there_are_24_distinct_perms() {
        let mut p = PERMS.to_vec();
        p.sort();
        p.dedup();
        assert_eq!(p.len(), 24);
        assert_eq!(deck_perms(CardSet::FULL).len(), 24);
    }
}
