//! The lowest layer of the solver: the number type every CFR walk computes in ([`Real`]) and the
//! one normalisation of a row of weights ([`normalize`]). The kernels (`cfr`, `terminal`,
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
