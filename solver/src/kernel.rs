//! The lowest layer of the solver: the number type every CFR walk computes in ([`Real`]), the
//! one regret matching of a row ([`regret_match`]) and the one normalisation of a row of weights
//! ([`normalize`]). The kernels (`cfr`, `terminal`,
//! `deal_cfr`, `multiway`, `best_response`) and the players above them share these, so they
//! live below all of them.

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
