//! The lookup tables behind the evaluators, built once on first use (a few milliseconds).
//!
//! A hand's rank multiset is identified by two base-5 numbers of rank counts, one for the even
//! rank indices (2, 4, 6, 8, T, Q, A: seven ranks) and one for the odd ones (3, 5, 7, 9, J, K),
//! which per-card keys simply add up. (Even and odd rather than low and high because then each
//! byte of a card set is one digit of each number, which the SIMD batch path relies on.) As a
//! hand has at most seven cards, the pairs of halves that occur are packed into a dense
//! "triangular" index: `even_base[even half] + odd_id[odd half]` in `0..76_155`, with no hashing.
//! Flushes are looked up separately by the 13-bit rank mask of the flush suit.

use std::sync::OnceLock;

/// Bits of the key holding the even half (base 5, seven digits of at most 4): below 5^7 < 2^17.
pub(super) const EVEN_MASK: u64 = (1 << 17) - 1;
/// Shift and mask of the odd half (base 5, six digits): below 5^6 < 2^14.
pub(super) const ODD_SHIFT: u32 = 17;
pub(super) const ODD_MASK: u64 = (1 << 14) - 1;
/// Four 4-bit suit counters start at 3, so a counter reaches 8 (its top bit) at five cards.
pub(super) const SUIT_SHIFT: u32 = 32;
pub(super) const KEY_INIT: u64 = 0x3333 << SUIT_SHIFT;
pub(super) const FLUSH_BITS: u64 = 0x8888 << SUIT_SHIFT;

const fn pow5(e: u32) -> u64 {
    let mut p = 1;
    let mut i = 0;
    while i < e {
        p *= 5;
        i += 1;
    }
    p
}

const fn card_key(id: usize) -> u64 {
    let rank = (id >> 2) as u32;
    let suit = (id & 3) as u32;
    let ranks = if rank % 2 == 0 {
        pow5(rank / 2)
    } else {
        pow5(rank / 2) << ODD_SHIFT
    };
    ranks + (1 << (SUIT_SHIFT + 4 * suit))
}

/// The additive key of each card (without [`KEY_INIT`]).
pub(super) const CARD_KEYS: [u64; 52] = {
    let mut k = [0; 52];
    let mut i = 0;
    while i < 52 {
        k[i] = card_key(i);
        i += 1;
    }
    k
};

/// The summed key of every subset of each byte of a card set: seven independent loads give the
/// key of a whole set, with no loop over its cards.
pub(super) static BYTE_KEYS: [[u64; 256]; 7] = {
    let mut t = [[0; 256]; 7];
    let mut b = 0;
    while b < 7 {
        let mut v = 0;
        while v < 256 {
            let mut sum = 0;
            let mut bit = 0;
            while bit < 8 {
                let id = b * 8 + bit;
                if v >> bit & 1 == 1 && id < 52 {
                    sum += CARD_KEYS[id];
                }
                bit += 1;
            }
            t[b][v] = sum;
            v += 1;
        }
        b += 1;
    }
    t
};

/// Category of a five-card code (bits 20..24), in [`super::Category`] order.
pub(super) const CAT_SHIFT: u32 = 20;
const STRAIGHT: u32 = 4;
const FLUSH: u32 = 5;
const STRAIGHT_FLUSH: u32 = 8;

/// Orders values (`1..=13`) by multiplicity, then value, both descending. Returns the values in
/// that order (padded with 0) and the multiplicities in that order (padded with 0).
pub(super) fn by_groups(vals: &[u8]) -> ([u8; 7], [u8; 7]) {
    let mut count = [0u8; 14];
    for &v in vals {
        count[v as usize] += 1;
    }
    let mut ord = [0u8; 7];
    ord[..vals.len()].copy_from_slice(vals);
    ord[..vals.len()].sort_unstable_by_key(|&v| std::cmp::Reverse((count[v as usize], v)));
    let mut pat = [0u8; 7];
    let (mut g, mut i) = (0, 0);
    while i < vals.len() {
        pat[g] = count[ord[i] as usize];
        i += pat[g] as usize;
        g += 1;
    }
    (ord, pat)
}

/// Packs values as nibbles, the first most significant.
pub(super) fn nibbles(vals: &[u8]) -> u32 {
    vals.iter().fold(0, |acc, &v| acc << 4 | v as u32)
}

/// An explicit, ordered code of a five-card hand: category in bits 20.., then the five values
/// (`1..=13`) by multiplicity and value, so that comparing codes compares hands. With
/// `straights` false, straights and flushes are ignored (ace-to-five lows pass ace-low values).
pub(super) fn code5(vals: [u8; 5], flush: bool, straights: bool) -> u32 {
    let (ord, pat) = by_groups(&vals);
    let mut five = [ord[0], ord[1], ord[2], ord[3], ord[4]];
    let mut cat = match (pat[0], pat[1]) {
        (4, _) => 7,
        (3, 2) => 6,
        (3, _) => 3,
        (2, 2) => 2,
        (2, _) => 1,
        _ => 0,
    };
    if cat == 0 && straights {
        let wheel = five == [13, 4, 3, 2, 1];
        if wheel {
            // The ace plays low: a five-high straight.
            five = [4, 3, 2, 1, 13];
        }
        let straight = wheel || five[0] - five[4] == 4;
        cat = match (straight, flush) {
            (true, true) => STRAIGHT_FLUSH,
            (false, true) => FLUSH,
            (true, false) => STRAIGHT,
            (false, false) => 0,
        };
    }
    cat << CAT_SHIFT | nibbles(&five)
}

/// Every tables the evaluators read.
pub(super) struct Tables {
    /// Dense index base of each even half (base-5 value). Sized to the key mask, so that a
    /// masked index needs no bounds check.
    pub even_base: Box<[u32; 1 << 17]>,
    /// Dense offset of each odd half (base-5 value).
    pub odd_id: Box<[u16; 1 << 14]>,
    /// Dense high strength (1..=7462) of each rank multiset, flushes aside.
    pub high: Vec<u16>,
    /// Dense razz strength of each rank multiset (higher is the better low).
    pub razz: Vec<u16>,
    /// Dense high strength of a flush by the flush suit's rank mask.
    pub flush: Vec<u16>,
    /// The five-card code of each dense high strength (index 0 unused).
    pub high_codes: Vec<u32>,
    /// The five-card ace-low code of each dense low strength (index 0 unused).
    pub low_codes: Vec<u32>,
    /// The dense low strength of 8-7-6-5-4, the worst qualifying eight-or-better low.
    pub low8_min: u16,
}

/// The tables, built on first use.
#[inline]
pub(super) fn tables() -> &'static Tables {
    static T: OnceLock<Tables> = OnceLock::new();
    T.get_or_init(build)
}

/// All multisets over `ranks` ranks with at most 4 of each and at most 7 cards, as count vectors,
/// ordered by size (so that a prefix holds every multiset up to a size).
fn multisets(ranks: usize) -> Vec<Vec<u8>> {
    let mut all = vec![vec![]];
    for _ in 0..ranks {
        let mut next = Vec::new();
        for m in &all {
            let n: u8 = m.iter().sum();
            for c in 0..=4.min(7 - n) {
                let mut v = m.clone();
                v.push(c);
                next.push(v);
            }
        }
        all = next;
    }
    all.sort_by_key(|m| m.iter().sum::<u8>());
    all
}

fn base5(counts: &[u8]) -> usize {
    counts.iter().rev().fold(0, |acc, &c| acc * 5 + c as usize)
}

/// Sorted distinct codes with a leading 0, so a code's position is its dense value (1-based).
fn dense_codes(mut codes: Vec<u32>) -> Vec<u32> {
    codes.push(0);
    codes.sort_unstable();
    codes.dedup();
    codes
}

/// A fixed-size array on the heap, never on the stack (it may be larger than a thread's stack).
fn boxed<T: Copy, const N: usize>(fill: T) -> Box<[T; N]> {
    vec![fill; N].into_boxed_slice().try_into().ok().unwrap()
}

/// The ranks of a five-card multiset given as counts per rank, lowest first.
fn five_of(counts: &[u8]) -> [u8; 5] {
    let mut ranks =
        (0..counts.len() as u8).flat_map(|r| std::iter::repeat_n(r, counts[r as usize] as usize));
    std::array::from_fn(|_| ranks.next().expect("five cards"))
}

/// The code of the five ranks `five` (0 = deuce) as a high hand, suited or not.
fn high_code(five: [u8; 5], flush: bool) -> u32 {
    code5(five.map(|r| r + 1), flush, true)
}

/// The code of the five ranks `five` as an ace-to-five low: the code orders from the best low
/// to the worst, so it is negated, higher better as a high hand's.
fn low_code(five: [u8; 5]) -> u32 {
    let low_val = |r: u8| if r == 12 { 1 } else { r + 2 };
    !code5(five.map(low_val), false, false)
}

/// The dense index of `code` among `codes` (sorted, and holding it).
fn dense(codes: &[u32], code: u32) -> u16 {
    codes.binary_search(&code).unwrap() as u16
}

/// Every five-card hand's high code (each rank multiset once plain and, if unpaired, once
/// suited) and low code, dense: sorted and deduplicated.
fn hand_codes() -> (Vec<u32>, Vec<u32>) {
    let fives: Vec<[u8; 5]> = multisets(13)
        .iter()
        .filter(|m| m.iter().sum::<u8>() == 5)
        .map(|m| five_of(m))
        .collect();
    let high_codes = dense_codes(
        fives
            .iter()
            .flat_map(|&f| {
                let distinct = f.windows(2).all(|w| w[0] != w[1]);
                let suited = distinct.then(|| high_code(f, true));
                std::iter::once(high_code(f, false)).chain(suited)
            })
            .collect(),
    );
    let low_codes = dense_codes(fives.iter().map(|&f| low_code(f)).collect());
    (high_codes, low_codes)
}

/// The index of each odd half (base-5 value) in `odds`, and how many odd halves have at most
/// n cards (`odds` is by size).
fn odd_ids(odds: &[Vec<u8>]) -> (Box<[u16; 1 << 14]>, [u32; 8]) {
    let mut odd_id: Box<[u16; 1 << 14]> = boxed(u16::MAX);
    let mut odd_upto = [0u32; 8];
    for (i, m) in odds.iter().enumerate() {
        odd_id[base5(m)] = i as u16;
        let n = m.iter().sum::<u8>() as usize;
        for up in &mut odd_upto[n..] {
            *up = i as u32 + 1;
        }
    }
    (odd_id, odd_upto)
}

/// The unsuited tables: each even half's base, and the dense high and razz values of every
/// rank multiset of up to seven cards.
struct Unsuited {
    even_base: Box<[u32; 1 << 17]>,
    high: Vec<u16>,
    razz: Vec<u16>,
}

/// The [`Unsuited`] tables. Rows in the order of the even halves, which is by size, so that
/// removing a card from a multiset (a smaller even half, or the same one with a smaller odd
/// half) leads to an earlier entry: the best five of n cards is the best over the n ways to
/// drop one of them.
fn unsuited(
    odds: &[Vec<u8>],
    odd_id: &[u16; 1 << 14],
    odd_upto: &[u32; 8],
    high_codes: &[u32],
    low_codes: &[u32],
) -> Unsuited {
    let mut t = Unsuited {
        even_base: boxed(u32::MAX),
        high: Vec::new(),
        razz: Vec::new(),
    };
    for even in &multisets(7) {
        let even_key = base5(even);
        t.even_base[even_key] = t.high.len() as u32;
        let room = 7 - even.iter().sum::<u8>() as usize;
        for odd in &odds[..odd_upto[room] as usize] {
            let odd_key = base5(odd);
            // Rank 2i counts even[i]; rank 2i + 1 counts odd[i].
            let counts: [u8; 13] =
                std::array::from_fn(|r| if r % 2 == 0 { even[r / 2] } else { odd[r / 2] });
            let (h, l) = match counts.iter().sum::<u8>() {
                0..=4 => (0, 0),
                5 => {
                    let mut five = [0u8; 5];
                    let ranks =
                        (0..13u8).flat_map(|r| std::iter::repeat_n(r, counts[r as usize] as usize));
                    for (f, r) in five.iter_mut().zip(ranks) {
                        *f = r;
                    }
                    (
                        dense(high_codes, high_code(five, false)),
                        dense(low_codes, low_code(five)),
                    )
                }
                _ => (0..13)
                    .filter(|&r| counts[r] > 0)
                    .map(|r| {
                        let digit = pow5(r as u32 / 2) as usize;
                        let (e, o) = if r % 2 == 0 {
                            (even_key - digit, odd_key)
                        } else {
                            (even_key, odd_key - digit)
                        };
                        let i = (t.even_base[e] + odd_id[o] as u32) as usize;
                        (t.high[i], t.razz[i])
                    })
                    .fold((0, 0), |(h, l), (a, b)| (h.max(a), l.max(b))),
            };
            t.high.push(h);
            t.razz.push(l);
        }
    }
    t
}

/// The dense high value of the best flush within each 13-bit rank mask (0 under five cards).
/// As for the unsuited tables, dropping a card gives a smaller mask, already filled in.
fn flushes(high_codes: &[u32]) -> Vec<u16> {
    let mut flush = vec![0u16; 1 << 13];
    for mask in 0..1usize << 13 {
        flush[mask] = match mask.count_ones() {
            5 => {
                let counts: [u8; 13] = std::array::from_fn(|r| (mask >> r & 1) as u8);
                dense(high_codes, high_code(five_of(&counts), true))
            }
            6 | 7 => (0..13)
                .filter(|r| mask >> r & 1 == 1)
                .map(|r| flush[mask & !(1 << r)])
                .max()
                .unwrap_or(0),
            _ => 0,
        };
    }
    flush
}

fn build() -> Tables {
    let (high_codes, low_codes) = hand_codes();
    let odds = multisets(6);
    let (odd_id, odd_upto) = odd_ids(&odds);
    let Unsuited {
        even_base,
        high,
        razz,
    } = unsuited(&odds, &odd_id, &odd_upto, &high_codes, &low_codes);
    let flush = flushes(&high_codes);
    let low8_min = dense(&low_codes, low_code([6, 5, 4, 3, 2]));
    Tables {
        even_base,
        odd_id,
        high,
        razz,
        flush,
        high_codes,
        low_codes,
        low8_min,
    }
}
