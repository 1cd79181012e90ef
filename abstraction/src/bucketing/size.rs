//! The size presets of a bucketing: buckets per street, the training sample, the rollout budget.

use super::features::FeatureParams;
use super::BucketError;

/// The names of the size presets.
pub const SIZES: &str = "tiny, small, default, large";

/// Everything that decides a built bucketing besides the game.
#[derive(Clone, Debug, PartialEq)]
pub struct Size {
    /// The preset's name (or any label for a custom size).
    pub name: String,
    /// Buckets on each street.
    pub buckets: Vec<u32>,
    /// Training views drawn per street for the clustering.
    pub train: u32,
    /// The feature computation.
    pub features: FeatureParams,
    /// The most Lloyd iterations per street.
    pub iterations: u32,
    /// The seed of the training sample and of the k-means++ seeding.
    pub seed: u64,
}

impl Size {
    /// A preset for a game of `streets` streets: `tiny` (CI tests, seconds), `small` (about a
    /// minute), `default` (a few minutes), `large` (the most buckets, tens of minutes). The first
    /// street, where the views are fewest, gets fewer buckets.
    pub fn preset(name: &str, streets: usize) -> Result<Size, BucketError> {
        let (first, later, train, outer, inner, iterations) = match name {
            "tiny" => (8, 8, 1_000, 16, 4, 10),
            "small" => (32, 64, 10_000, 64, 16, 20),
            "default" => (128, 256, 40_000, 128, 32, 25),
            "large" => (512, 1024, 200_000, 256, 32, 30),
            _ => {
                return Err(BucketError::Size(format!(
                    "unknown size `{name}`: the presets are {SIZES}"
                )))
            }
        };
        let mut buckets = vec![later; streets];
        buckets[0] = first;
        Ok(Size {
            name: name.to_string(),
            buckets,
            train,
            features: FeatureParams {
                outer,
                inner,
                bins: 8,
                board_weight: 0.05,
                seed: 0x5ee_d5ee_d5ee_d5ee,
            },
            iterations,
            seed: 0xb0c_7e75,
        })
    }
}
