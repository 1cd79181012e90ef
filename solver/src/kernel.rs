//! The lowest layer of the solver: the number type every CFR walk computes in ([`Real`]), the
//! one regret matching of a row ([`regret_match`]), the one discount of a regret and of an
//! average-strategy mass ([`Discount`]), the one update of a slot ([`accumulate`], [`clamp`])
//! and the one normalisation of a row of weights ([`normalize`]). The kernels (`cfr`,
//! `terminal`, `deal_cfr`, `multiway`, `best_response`) and the players above them share
//! these, so they live below all of them.

/// The number type of a solver: its regret and average tables and the vectors its walk carries
/// (reaches, strategies, values, the terminals' card sums). `f64` for the walked games (their
/// figures equal OpenSpiel's to about 1e-15), `f32` for a re-solved subgame, whose tables
/// (344,344 slots on seventh street, 9.3 million on sixth) and vectors (13,244 or 39,732 hands)
/// are streamed over and over each iteration, so that half the bytes is half the traffic and
/// twice the lanes of a vector instruction.
pub trait Real:
    Copy
    + Send
    + Sync
    + 'static
    + PartialOrd
    + std::fmt::Debug
    + std::ops::Add<Output = Self>
    + std::ops::Sub<Output = Self>
    + std::ops::Mul<Output = Self>
    + std::ops::Div<Output = Self>
    + std::ops::AddAssign
    + std::ops::SubAssign
    + std::ops::MulAssign
    + std::ops::Neg<Output = Self>
    + std::iter::Sum
{
    /// Zero.
    const ZERO: Self;
    /// One.
    const ONE: Self;
    /// The value, widened to `f64`.
    fn to_f64(self) -> f64;
    /// `x`, rounded to this type.
    fn from_f64(x: f64) -> Self;
    /// The larger of `self` and `other` (as `f64::max`).
    fn max(self, other: Self) -> Self;
}

impl Real for f64 {
    const ZERO: f64 = 0.0;
    const ONE: f64 = 1.0;
    #[inline(always)]
    fn to_f64(self) -> f64 {
        self
    }
    #[inline(always)]
    fn from_f64(x: f64) -> f64 {
        x
    }
    #[inline(always)]
    fn max(self, other: f64) -> f64 {
        f64::max(self, other)
    }
}

impl Real for f32 {
    const ZERO: f32 = 0.0;
    const ONE: f32 = 1.0;
    #[inline(always)]
    fn to_f64(self) -> f64 {
        self as f64
    }
    #[inline(always)]
    fn from_f64(x: f64) -> f32 {
        x as f32
    }
    #[inline(always)]
    fn max(self, other: f32) -> f32 {
        f32::max(self, other)
    }
}

/// Makes `row`, weights none of which is negative, a probability distribution in place: each
/// weight over the row's sum, or uniform where the row has no weight (a row never reached).
/// Returns whether it had weight. The one normalisation of a row: average strategies, rows
/// played after purification, policies over the legal actions.
pub fn normalize(row: &mut [f64]) -> bool {
    let sum: f64 = row.iter().sum();
    if sum > 0.0 {
        row.iter_mut().for_each(|p| *p /= sum);
        return true;
    }
    let uniform = 1.0 / row.len() as f64;
    row.fill(uniform);
    false
}

/// Regret matching of one row into `out[a * stride]`: each action in proportion to its positive
/// regret, uniform where none is positive. Every solver's row goes through here (the vectorised
/// loops of `cfr` and `deal_cfr` compute the same bits eight rows at a time). A true division, not
/// a multiply by `1 / sum`: a lone positive regret must give exactly 1, or the node's value is off
/// by an ulp and the regrets (clamped at 0) drift onto another trajectory; OpenSpiel divides too.
/// The uniform `1 / k` is rounded once from `f64`, which for `f32` and every `k` up to 1,024 is
/// the correctly rounded `1f32 / k` as well.
#[inline(always)]
pub fn regret_match_strided<T: Real>(regrets: &[T], out: &mut [T], stride: usize) {
    let sum: T = regrets.iter().map(|&r| r.max(T::ZERO)).sum();
    let uniform = T::from_f64(1.0 / regrets.len() as f64);
    for (a, &r) in regrets.iter().enumerate() {
        out[a * stride] = if sum > T::ZERO {
            r.max(T::ZERO) / sum
        } else {
            uniform
        };
    }
}

/// [`regret_match_strided`] into a row of its own.
#[inline(always)]
pub fn regret_match<T: Real>(regrets: &[T], out: &mut [T]) {
    regret_match_strided(regrets, out, 1);
}

/// [`regret_match`] of a row onto itself: a row of weights, negative ones counted as none, made a
/// distribution in place.
#[inline(always)]
pub fn regret_match_in_place<T: Real>(row: &mut [T]) {
    let sum: T = row.iter().map(|&r| r.max(T::ZERO)).sum();
    let uniform = T::from_f64(1.0 / row.len() as f64);
    for x in row {
        *x = if sum > T::ZERO {
            x.max(T::ZERO) / sum
        } else {
            uniform
        };
    }
}

/// The discounts of one iteration (DCFR's, linear CFR's): what an accumulated regret is
/// multiplied by, by its sign, and what the accumulated average-strategy mass is. Every solver
/// that discounts (the walked one, the exact multiway one, the sampled multiway one, lazily)
/// applies these, so that a regret is discounted the same way, to the same bits, everywhere.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Discount<T> {
    /// Multiplier of a positive accumulated regret.
    pub positive: T,
    /// Multiplier of a negative (or zero) accumulated regret.
    pub negative: T,
    /// Multiplier of the accumulated average-strategy mass.
    pub average: T,
}

impl<T: Real> Discount<T> {
    /// The factors (computed in `f64` by a schedule) rounded to `T`; `None` where all three are
    /// 1, which discounts nothing (CFR+, plain CFR): a solver skips the sweep.
    pub fn new(positive: f64, negative: f64, average: f64) -> Option<Discount<T>> {
        let d = Discount {
            positive: T::from_f64(positive),
            negative: T::from_f64(negative),
            average: T::from_f64(average),
        };
        // Compared once rounded: a factor within half an ulp of 1 multiplies by exactly 1.
        (d.positive != T::ONE || d.negative != T::ONE || d.average != T::ONE).then_some(d)
    }

    /// The regret `r` discounted.
    #[inline(always)]
    pub fn regret(&self, r: T) -> T {
        r * if r > T::ZERO {
            self.positive
        } else {
            self.negative
        }
    }

    /// The average-strategy mass `m` discounted.
    #[inline(always)]
    pub fn average(&self, m: T) -> T {
        m * self.average
    }

    /// Discounts every regret of `regrets` and every mass of `average` in place.
    #[inline]
    pub fn rows(&self, regrets: &mut [T], average: &mut [T]) {
        for r in regrets {
            *r = self.regret(*r);
        }
        for m in average {
            *m = self.average(*m);
        }
    }
}

/// One visit's update of a slot: its regret grows by `delta` (the action's value less the
/// node's, weighted as the solver weighs it) and its average-strategy mass by the action's
/// probability `p` times `weight` (the iteration's weight in the average times the player's
/// own reach). The per-slot loops of `cfr` and `multiway` go through here; `deal_cfr`
/// computes the same products a batch of deals at a time before it scatters them.
#[inline(always)]
pub fn accumulate<T: Real>(regret: &mut T, average: &mut T, delta: T, weight: T, p: T) {
    *regret += delta;
    add_average(average, weight, p);
}

/// The average-strategy half of [`accumulate`]: `average += weight × p`.
#[inline(always)]
pub fn add_average<T: Real>(average: &mut T, weight: T, p: T) {
    *average += weight * p;
}

/// Regret matching+'s floor: every regret of `regrets` below zero set to zero.
#[inline]
pub fn clamp<T: Real>(regrets: &mut [T]) {
    for r in regrets {
        *r = r.max(T::ZERO);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_discount_multiplies_by_the_sign_of_the_regret() {
        let d = Discount::<f64>::new(0.75, 0.5, 0.25).unwrap();
        assert_eq!(
            (d.regret(2.0), d.regret(-2.0), d.regret(0.0)),
            (1.5, -1.0, 0.0)
        );
        let (mut r, mut a) = ([4.0, -4.0], [8.0, 1.0]);
        d.rows(&mut r, &mut a);
        assert_eq!((r, a), ([3.0, -2.0], [2.0, 0.25]));
    }

    #[test]
    fn factors_that_round_to_one_discount_nothing() {
        assert_eq!(Discount::<f64>::new(1.0, 1.0, 1.0), None);
        // 1 - 2^-40 is 1 in f32: the f32 solvers skip the sweep, the f64 ones do not.
        let near = 1.0 - 2f64.powi(-40);
        assert_eq!(Discount::<f32>::new(near, 1.0, 1.0), None);
        assert!(Discount::<f64>::new(near, 1.0, 1.0).is_some());
    }

    #[test]
    fn accumulate_adds_the_regret_and_the_weighted_probability() {
        let (mut r, mut a) = (1.0f32, 2.0f32);
        accumulate(&mut r, &mut a, -0.5, 3.0, 0.25);
        assert_eq!((r, a), (0.5, 2.75));
        let mut rows = [-1.0f64, 0.5, -0.0];
        clamp(&mut rows);
        assert_eq!(rows, [0.0, 0.5, 0.0]);
    }
}
