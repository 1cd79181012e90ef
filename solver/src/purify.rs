//! How a player turns a strategy's average row into the probabilities it plays.
//!
//! An abstract game's average strategy mixes nearly everywhere, and much of that mixing is
//! noise: the leftovers of early iterations and of sampling, in an abstraction where the
//! equilibrium would be pure or nearly so. Dropping the small probabilities at play time
//! ("thresholding", or all but the largest, "purification": Ganzfried and Sandholm, *Strategy
//! purification and thresholding*, AAMAS 2012) made the strongest limit hold'em programs of
//! their time stronger. Here it is measured, not assumed: see docs/notes/solver.md ("Playing the
//! average strategy"). The file always stores the average as solved; this is applied when a
//! player reads a row.

use anyhow::bail;
use std::fmt;
use std::str::FromStr;

/// Ties within this of the largest probability count as the largest: a u8 row's quantization
/// step is 1/255, so two actions stored equal are equal to far better than this.
const TIE: f64 = 1e-9;

/// What a player does with a row of the average strategy before it plays it.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Purification {
    /// The average strategy as solved.
    Mixed,
    /// Actions below this probability are dropped and the rest scaled back to sum 1; the most
    /// likely action always stays. In (0, 1).
    Threshold(f64),
    /// All weight on the most likely action (shared equally by exact ties).
    Pure,
}

impl Purification {
    /// Rewrites `row` (non-negative, not all zero) as this rule plays it; an all-zero row is
    /// left alone for the caller's fallback.
    pub fn apply(self, row: &mut [f64]) {
        let max = row.iter().copied().fold(0.0, f64::max);
        if max <= 0.0 {
            return;
        }
        let keep = match self {
            Purification::Mixed => return,
            Purification::Threshold(t) => t.min(max),
            Purification::Pure => max - TIE,
        };
        for p in row.iter_mut() {
            if *p < keep {
                *p = 0.0;
            }
        }
        crate::kernel::normalize(row);
    }
}

impl FromStr for Purification {
    type Err = anyhow::Error;

    /// `mixed`, `pure`, or `threshold=T` with T in (0, 1).
    fn from_str(s: &str) -> anyhow::Result<Purification> {
        Ok(match s {
            "mixed" => Purification::Mixed,
            "pure" => Purification::Pure,
            _ => match s.strip_prefix("threshold=") {
                Some(t) => match t.parse::<f64>() {
                    Ok(t) if t > 0.0 && t < 1.0 => Purification::Threshold(t),
                    _ => bail!("`{s}`: the threshold must be a number between 0 and 1, exclusive"),
                },
                None => bail!("`{s}` is not a way to play a strategy: mixed, pure or threshold=T"),
            },
        })
    }
}

impl fmt::Display for Purification {
    fn fmt(&self, f: &mut fmt::Formatter) -> fmt::Result {
        match self {
            Purification::Mixed => write!(f, "mixed"),
            Purification::Threshold(t) => write!(f, "threshold={t}"),
            Purification::Pure => write!(f, "pure"),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    #[test]
    fn each_rule_keeps_what_it_says() {
        let row = [0.05, 0.6, 0.35];
        let mut r = row;
        Purification::Mixed.apply(&mut r);
        assert_eq!(r, row);
        let mut r = row;
        Purification::Threshold(0.1).apply(&mut r);
        assert_eq!(r, [0.0, 0.6 / 0.95, 0.35 / 0.95]);
        let mut r = row;
        Purification::Pure.apply(&mut r);
        assert_eq!(r, [0.0, 1.0, 0.0]);
        // A threshold above every entry keeps the largest.
        let mut r = [0.3, 0.3, 0.4];
        Purification::Threshold(0.5).apply(&mut r);
        assert_eq!(r, [0.0, 0.0, 1.0]);
        // Ties share.
        let mut r = [0.5, 0.5, 0.0];
        Purification::Pure.apply(&mut r);
        assert_eq!(r, [0.5, 0.5, 0.0]);
        let mut r = [0.0, 0.0];
        Purification::Pure.apply(&mut r);
        assert_eq!(
            r,
            [0.0, 0.0],
            "an empty row is the caller's to fall back on"
        );
    }

    #[test]
    fn names_parse_and_print_back() {
        for s in ["mixed", "pure", "threshold=0.15"] {
            assert_eq!(s.parse::<Purification>().unwrap().to_string(), s);
        }
        for bad in [
            "threshold=0",
            "threshold=1",
            "threshold=nan",
            "threshold=",
            "purest",
            "",
        ] {
            let e = bad.parse::<Purification>().unwrap_err().to_string();
            assert!(e.contains(&format!("`{bad}`")), "{e}");
        }
    }

    proptest! {
        #[test]
        fn a_played_row_is_a_distribution_on_part_of_the_row_s_support(
            row in prop::collection::vec(0.0f64..1.0, 1..6),
            t in 0.01f64..0.99,
        ) {
            prop_assume!(row.iter().any(|&p| p > 0.0));
            let max = row.iter().copied().fold(0.0, f64::max);
            for rule in [Purification::Threshold(t), Purification::Pure] {
                let mut r = row.clone();
                rule.apply(&mut r);
                prop_assert!((r.iter().sum::<f64>() - 1.0).abs() < 1e-12);
                for (i, (&p, &q)) in row.iter().zip(&r).enumerate() {
                    prop_assert!(q == 0.0 || p > 0.0, "entry {} gained weight", i);
                    if p == max {
                        prop_assert!(q > 0.0, "the largest entry {} was dropped", i);
                    }
                }
            }
        }
    }
}
