//! Uniform draws whose streams this crate fixes, not the `rand` version.
//!
//! Every seeded result (a deal of the deal-sampled solver, a k-means seed, a match's deck, a
//! simulated hand) is a function of a ChaCha8 stream and of how integers are drawn from it. The
//! ChaCha8 stream is stable across `rand_chacha` versions; `rand`'s integer ranges and slice
//! shuffles are not (0.9 changed both). These are the draws of `rand` 0.8, which made the shipped
//! strategies, bucketings and tests' seeds, written out so that upgrading `rand` moves nothing:
//! Lemire's widening multiply with a conservative rejection zone, 64-bit for [`below`], 32-bit
//! for [`index`] and the slice methods. Floats and coin flips (`RngExt::random::<f64>`,
//! `random_bool`) did not change and come from `rand` itself.

use rand::Rng;

/// A uniform integer in `0..n` from 64-bit words (`rand` 0.8's `gen_range(0..n)` on `usize`
/// or `u64`). Panics if `n` is 0.
pub fn below<R: Rng + ?Sized>(rng: &mut R, n: usize) -> usize {
    assert!(n > 0, "a draw below 0");
    let range = n as u64;
    let zone = (range << range.leading_zeros()).wrapping_sub(1);
    loop {
        let m = u128::from(rng.next_u64()) * u128::from(range);
        if m as u64 <= zone {
            return (m >> 64) as usize;
        }
    }
}

/// A uniform index in `0..n` from 32-bit words (`rand` 0.8's `gen_range(0..n)` on `u32` or
/// `i32`, and the index its slice methods draw). Panics if `n` is 0 or not below 2^32.
pub fn index<R: Rng + ?Sized>(rng: &mut R, n: usize) -> usize {
    let range = u32::try_from(n).expect("an index below 2^32");
    assert!(range > 0, "an index below 0");
    let zone = (range << range.leading_zeros()).wrapping_sub(1);
    loop {
        let m = u64::from(rng.next_u32()) * u64::from(range);
        if m as u32 <= zone {
            return (m >> 32) as usize;
        }
    }
}

/// A uniform element of `items`, `None` if it is empty.
pub fn choose<'a, T, R: Rng + ?Sized>(items: &'a [T], rng: &mut R) -> Option<&'a T> {
    (!items.is_empty()).then(|| &items[index(rng, items.len())])
}

/// Shuffles `items` uniformly (Fisher-Yates from the back; no draw for the first entry, unlike
/// [`partial_shuffle`] of every entry).
pub fn shuffle<T, R: Rng + ?Sized>(items: &mut [T], rng: &mut R) {
    for i in (1..items.len()).rev() {
        items.swap(i, index(rng, i + 1));
    }
}

/// Draws `amount` of `items` uniformly without replacement into its last `amount` entries, and
/// returns them and the rest (all of `items`, shuffled, if `amount` is not less than its length).
pub fn partial_shuffle<'a, T, R: Rng + ?Sized>(
    items: &'a mut [T],
    rng: &mut R,
    amount: usize,
) -> (&'a mut [T], &'a mut [T]) {
    let len = items.len();
    let end = len.saturating_sub(amount);
    for i in (end..len).rev() {
        items.swap(i, index(rng, i + 1));
    }
    let (rest, drawn) = items.split_at_mut(end);
    (drawn, rest)
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand::SeedableRng;
    use rand_chacha::ChaCha8Rng;

    /// The first draws of seed 0, as `rand` 0.8.8 and `rand_chacha` 0.3.1 drew them (printed by
    /// those versions' `gen_range`, `shuffle` and `partial_shuffle`): these values keep every
    /// seeded result of the project where it was.
    #[test]
    fn draws_are_rand_0_8s() {
        let mut rng = ChaCha8Rng::seed_from_u64(0);
        let b: Vec<usize> = (0..6).map(|_| below(&mut rng, 52)).collect();
        let i: Vec<usize> = (0..6).map(|_| index(&mut rng, 1000)).collect();
        let mut deck: Vec<u8> = (0..10).collect();
        shuffle(&mut deck, &mut rng);
        let mut part: Vec<u8> = (0..10).collect();
        let (drawn, _) = partial_shuffle(&mut part, &mut rng, 3);
        let drawn = drawn.to_vec();
        assert_eq!(b, [24, 36, 3, 45, 28, 43]);
        assert_eq!(i, [823, 935, 494, 803, 901, 154]);
        assert_eq!(deck, [6, 5, 1, 3, 0, 2, 7, 8, 4, 9]);
        assert_eq!(drawn, [7, 5, 0]);
    }

    #[test]
    fn draws_stay_in_range_and_reach_every_value() {
        let mut rng = ChaCha8Rng::seed_from_u64(7);
        let mut seen = [0u32; 7];
        for _ in 0..7000 {
            seen[below(&mut rng, 7)] += 1;
            seen[index(&mut rng, 7)] += 1;
        }
        assert!(seen.iter().all(|&c| (1700..2300).contains(&c)), "{seen:?}");
        let mut one = [5];
        shuffle(&mut one, &mut rng);
        assert_eq!(choose(&[] as &[u8], &mut rng), None);
        let mut v: Vec<u8> = (0..5).collect();
        let (drawn, rest) = partial_shuffle(&mut v, &mut rng, 9);
        assert_eq!((drawn.len(), rest.len()), (5, 0));
    }
}
