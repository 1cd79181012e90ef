//! Many high hands at once. On x86-64 with AVX2 four hands go per step: rank counts by byte
//! shuffles, the two base-5 halves by multiply-adds, suit counts by sums of absolute differences;
//! the table loads are scalar, lane by lane (gathers were slower: docs/notes/eval.md), and flushes
//! (about 3% of 7-card hands) fall back to the scalar path lane by lane. Elsewhere, or without
//! AVX2, hands go one at a time.

use super::{eval_high, HighStrength};
use crate::cards::CardSet;

/// The high strength of each of `hands` (5 to 7 cards each), the same as [`eval_high`] on each,
/// written to the front of `out`.
///
/// # Panics
/// If `out` is shorter than `hands`.
pub fn eval_high_batch(hands: &[CardSet], out: &mut [HighStrength]) {
    assert!(
        out.len() >= hands.len(),
        "eval_high_batch: out is too short"
    );
    let out = &mut out[..hands.len()];
    #[cfg(target_arch = "x86_64")]
    if std::arch::is_x86_feature_detected!("avx2") {
        // SAFETY: the CPU has AVX2, checked just above.
        unsafe { avx2::eval_high(hands, out) };
        return;
    }
    for (o, &h) in out.iter_mut().zip(hands) {
        *o = eval_high(h);
    }
}

#[cfg(target_arch = "x86_64")]
mod avx2 {
    use super::super::tables::{tables, EVEN_MASK, ODD_MASK};
    use super::super::{eval_high as eval_one, HighStrength};
    use crate::cards::CardSet;
    use std::arch::x86_64::*;

    /// Popcount of each nibble value.
    const POP: [u8; 16] = [0, 1, 1, 2, 1, 2, 2, 3, 1, 2, 2, 3, 2, 3, 3, 4];

    /// Per nibble (one rank's four suit bits), two suits' bits as two 4-bit counters of a byte:
    /// summed over a hand's 13 nibbles they count that suit's cards (at most 7 < 16 each).
    const fn suit_pair(first: u32) -> [u8; 16] {
        let mut t = [0; 16];
        let mut n = 0;
        while n < 16 {
            t[n] = ((n >> first & 1) + 16 * (n >> (first + 1) & 1)) as u8;
            n += 1;
        }
        t
    }

    /// A 16-byte table in both 128-bit lanes, as in-lane byte shuffles want.
    #[target_feature(enable = "avx2")]
    unsafe fn lut(t: &[u8; 16]) -> __m256i {
        _mm256_broadcastsi128_si256(_mm_loadu_si128(t.as_ptr().cast()))
    }

    /// Per 64-bit lane, the base-5 number whose digits are the lane's bytes (lowest first).
    #[target_feature(enable = "avx2")]
    unsafe fn base5(counts: __m256i) -> __m256i {
        // Byte pairs to d0 + 5 d1, word pairs to w0 + 25 w1, then the two 32-bit halves.
        let words = _mm256_maddubs_epi16(counts, _mm256_set1_epi16(0x0501));
        let dwords = _mm256_madd_epi16(words, _mm256_set1_epi32(0x0019_0001));
        let low = _mm256_and_si256(dwords, _mm256_set1_epi64x(0xffff_ffff));
        let high = _mm256_mul_epu32(_mm256_srli_epi64(dwords, 32), _mm256_set1_epi64x(625));
        _mm256_add_epi64(low, high)
    }

    /// # Safety
    /// The CPU must have AVX2; `out` must be as long as `hands`.
    #[target_feature(enable = "avx2")]
    pub(super) unsafe fn eval_high(hands: &[CardSet], out: &mut [HighStrength]) {
        let t = tables();
        let nibbles = _mm256_set1_epi8(0x0f);
        let pop = lut(&POP);
        let clubs_diamonds = lut(&suit_pair(0));
        let hearts_spades = lut(&suit_pair(2));
        let chunks = hands.chunks_exact(4);
        let rest = chunks.remainder();
        let mut out_chunks = out.chunks_exact_mut(4);
        for (h, o) in chunks.zip(&mut out_chunks) {
            let sets = [h[0].0, h[1].0, h[2].0, h[3].0];
            let x = _mm256_loadu_si256(sets.as_ptr().cast());
            // Byte i of `even` holds rank 2i's nibble, of `odd` rank 2i + 1's.
            let even = _mm256_and_si256(x, nibbles);
            let odd = _mm256_and_si256(_mm256_srli_epi64(x, 4), nibbles);
            let even_key = base5(_mm256_shuffle_epi8(pop, even));
            let odd_key = base5(_mm256_shuffle_epi8(pop, odd));
            let cd = _mm256_add_epi8(
                _mm256_shuffle_epi8(clubs_diamonds, even),
                _mm256_shuffle_epi8(clubs_diamonds, odd),
            );
            let hs = _mm256_add_epi8(
                _mm256_shuffle_epi8(hearts_spades, even),
                _mm256_shuffle_epi8(hearts_spades, odd),
            );
            let zero = _mm256_setzero_si256();
            let suits = _mm256_or_si256(
                _mm256_sad_epu8(cd, zero),
                _mm256_slli_epi64(_mm256_sad_epu8(hs, zero), 8),
            );
            // A suit counter reaches bit 3 when 3 + count >= 8, i.e. at five cards.
            let flush = _mm256_and_si256(
                _mm256_add_epi64(suits, _mm256_set1_epi64x(0x3333)),
                _mm256_set1_epi64x(0x8888),
            );
            // Scalar loads beat gathers here: four lanes' indices go through memory.
            let (mut e, mut d) = ([0u64; 4], [0u64; 4]);
            _mm256_storeu_si256(e.as_mut_ptr().cast(), even_key);
            _mm256_storeu_si256(d.as_mut_ptr().cast(), odd_key);
            for i in 0..4 {
                let index = t.even_base[(e[i] & EVEN_MASK) as usize]
                    + t.odd_id[(d[i] & ODD_MASK) as usize] as u32;
                o[i] = HighStrength(t.high[index as usize] as u32);
            }
            if _mm256_testz_si256(flush, flush) == 0 {
                let mut f = [0u64; 4];
                _mm256_storeu_si256(f.as_mut_ptr().cast(), flush);
                for i in 0..4 {
                    if f[i] != 0 {
                        o[i] = eval_one(h[i]);
                    }
                }
            }
        }
        for (o, &h) in out_chunks.into_remainder().iter_mut().zip(rest) {
            *o = eval_one(h);
        }
    }
}
