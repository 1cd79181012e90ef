//! The size presets of a bucketing: buckets per street, the training sample, the rollout budget.

use super::draws::Draws;
use super::features::{FeatureParams, Version};
use super::BucketError;
use crate::named::Named;

/// The weight `w` of `:KNOB=w` in `spec` (`board` or `extra`), finite and at least 0.
fn parse_weight(spec: &str, knob: &str, w: &str) -> Result<f32, BucketError> {
    w.parse::<f32>()
        .ok()
        .filter(|w| w.is_finite() && *w >= 0.0)
        .ok_or_else(|| {
            let default = if knob == "board" {
                "0.05"
            } else {
                "the board weight"
            };
            BucketError::Size(format!(
                "`{spec}`: after the size, `:{knob}=W` with W a weight of at least 0 (the \
                 default is {default})"
            ))
        })
}

/// The count `n` of `:KNOB=n` in `spec` (`outer` or `inner`): a whole number of draws, at least 1.
fn parse_draws(spec: &str, knob: &str, n: &str) -> Result<u32, BucketError> {
    n.parse::<u32>().ok().filter(|n| *n >= 1).ok_or_else(|| {
        BucketError::Size(format!(
            "`{spec}`: after the size, `:{knob}=N` with N a whole number of draws of at least 1"
        ))
    })
}

/// The names of the size presets, and the other forms [`Size::parse`] reads.
pub const SIZES: &str = "tiny, small, default, large, or buckets per street (`4`: 4 on every \
                         street; `4,8`: per street), each optionally with `:board=W`, the \
                         weight of the visible boards' classes (default 0.05), \
                         `:features=2`, the second version of the features (how the pot share \
                         against the table is made up), `:features=3`, the third (the second's \
                         with the folded seats' and my down cards' classes), `:extra=W` with the third, the \
                         weight of those classes (default: the board weight), `:draws=fast`, \
                         the rollouts' cheaper samples (with the first version only), and \
                         `:outer=N`, `:inner=N`, the rollout's outer and inner draws a view \
                         (fewer: a cheaper, noisier bucket)";

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
    /// street, where the views are fewest, gets fewer buckets; so does the last street of a game
    /// of three or more streets, because it has the most betting nodes (nine times the street
    /// before it with a cap of four bets), so its buckets cost the most memory and strategy-file
    /// bytes: halving them there keeps a `default` seven-card stud strategy under the 32 MiB of
    /// a shipped file.
    pub fn preset(name: &str, streets: usize) -> Result<Size, BucketError> {
        let (first, later, last, train, outer, inner, iterations) = match name {
            "tiny" => (8, 8, 8, 1_000, 16, 4, 10),
            "small" => (32, 64, 32, 10_000, 64, 16, 20),
            "default" => (128, 256, 128, 40_000, 128, 32, 25),
            "large" => (512, 1024, 512, 200_000, 256, 32, 30),
            _ => {
                return Err(BucketError::Size(format!(
                    "unknown size `{name}`: the presets are {SIZES}"
                )))
            }
        };
        let mut buckets = vec![later; streets];
        if streets >= 3 {
            buckets[streets - 1] = last;
        }
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
                version: Version::One,
                draws: Draws::ChaCha,
                extra_weight: None,
            },
            iterations,
            seed: 0xb0c_7e75,
        })
    }

    /// A preset by name, or explicit buckets per street: `N` (N on every street) or `N1,N2,..`
    /// (one count per street), with the `small` preset's training and rollout budget (exact
    /// features on small games such as `ministud`). Such a size is named `k` and its counts per
    /// street, e.g. `k4-4` or `k4-8` on two streets.
    ///
    /// A suffix `:board=W` sets the weight of the visible boards' classes in the features
    /// ([`FeatureParams::board_weight`]: how much the opponent's up cards separate buckets beside
    /// the strength features) and adds `-bW` to the name, so each weight is its own cached
    /// bucketing. A suffix `:features=2` gives the second version of the features
    /// ([`Version::Two`]) and adds `-f2`, `:features=3` the third ([`Version::Three`]) and adds
    /// `-f3`; `:features=1` is the first, as without it. With the third, `:extra=W` weighs its
    /// own classes at `W` ([`FeatureParams::extra_weight`]) and adds `-xW`. A suffix
    /// `:draws=fast` takes the rollouts' samples the cheaper way ([`Draws::Fast`]: the same
    /// distribution of features, other samples) and adds `-fast`; `:draws=chacha` is the
    /// default's. `:outer=N` and `:inner=N` set the rollout's draws a view
    /// ([`FeatureParams::outer`], [`FeatureParams::inner`]: `small` takes 64 and 16) and add
    /// `-oN` and `-iN` where N is not the size's own: fewer draws make every bucket lookup cheaper and its features noisier,
    /// the trade a table solve, which buckets hundreds of views a deal, may want. Each suffix
    /// at most once, in any order (`small:board=0.5:features=2`).
    pub fn parse(spec: &str, streets: usize) -> Result<Size, BucketError> {
        let mut parts = spec.split(':');
        let counts = parts.next().unwrap_or_default();
        let mut size = Size::parse_counts(counts, streets)?;
        let (mut board, mut version, mut draws, mut extra) = (None, None, None, None);
        let (mut outer, mut inner) = (None, None);
        for knob in parts {
            if let Some(w) = knob.strip_prefix("board=").filter(|_| board.is_none()) {
                board = Some(parse_weight(spec, "board", w)?);
            } else if let Some(w) = knob.strip_prefix("extra=").filter(|_| extra.is_none()) {
                extra = Some(parse_weight(spec, "extra", w)?);
            } else if let Some(v) = knob.strip_prefix("features=") {
                let v = match v {
                    "1" => Some(Version::One),
                    "2" => Some(Version::Two),
                    "3" => Some(Version::Three),
                    _ => None,
                };
                version = Some(v.filter(|_| version.is_none()).ok_or_else(|| {
                    BucketError::Size(format!(
                        "`{spec}`: `:features=` once, with 1, 2 or 3 (the versions of the features)"
                    ))
                })?);
            } else if let Some(n) = knob.strip_prefix("outer=").filter(|_| outer.is_none()) {
                outer = Some(parse_draws(spec, "outer", n)?);
            } else if let Some(n) = knob.strip_prefix("inner=").filter(|_| inner.is_none()) {
                inner = Some(parse_draws(spec, "inner", n)?);
            } else if let Some(d) = knob.strip_prefix("draws=").filter(|_| draws.is_none()) {
                draws = Some(Draws::parse_or_list(d).map_err(|e| {
                    BucketError::Size(format!("`{spec}`: after the size, `:draws=`: {e}"))
                })?);
            } else {
                return Err(BucketError::Size(format!(
                    "`{spec}`: after the size, `:board=W` (W a weight of at least 0, the \
                     default 0.05), `:features=2|3`, `:extra=W`, `:draws=fast`, `:outer=N` or \
                     `:inner=N`, each at most once, not `:{knob}`"
                )));
            }
        }
        if let Some(weight) = board {
            size.features.board_weight = weight;
            size.name = format!("{}-b{weight}", size.name);
        }
        if let (Some(v @ (Version::Two | Version::Three)), Some(Draws::Fast)) = (version, draws) {
            // The later versions' rollouts keep the first version's ChaCha draws.
            let n = if v == Version::Two { 2 } else { 3 };
            return Err(BucketError::Size(format!(
                "`{spec}`: `:draws=fast` is for the first version of the features, not with \
                 `:features={n}`"
            )));
        }
        match version {
            Some(Version::Two) => size.name += "-f2",
            Some(Version::Three) => size.name += "-f3",
            _ => {}
        }
        if let Some(weight) = extra {
            if version != Some(Version::Three) {
                return Err(BucketError::Size(format!(
                    "`{spec}`: `:extra=W` weighs the third version's own classes: give it with \
                     `:features=3`"
                )));
            }
            size.features.extra_weight = Some(weight);
            size.name = format!("{}-x{weight}", size.name);
        }
        if let Some(v) = version {
            size.features.version = v;
        }
        if draws == Some(Draws::Fast) {
            size.features.draws = Draws::Fast;
            size.name = format!("{}-fast", size.name);
        }
        // A count the size already takes is that size, name and cache included (as
        // `:draws=chacha` is).
        if let Some(n) = outer.filter(|&n| n != size.features.outer) {
            size.features.outer = n;
            size.name = format!("{}-o{n}", size.name);
        }
        if let Some(n) = inner.filter(|&n| n != size.features.inner) {
            size.features.inner = n;
            size.name = format!("{}-i{n}", size.name);
        }
        Ok(size)
    }

    /// [`Size::parse`] without the board weight's suffix.
    fn parse_counts(spec: &str, streets: usize) -> Result<Size, BucketError> {
        let counts: Option<Vec<u32>> = spec.split(',').map(|x| x.trim().parse().ok()).collect();
        let Some(mut buckets) = counts else {
            return Size::preset(spec, streets);
        };
        if buckets.len() == 1 {
            buckets = vec![buckets[0]; streets];
        }
        if buckets.len() != streets || buckets.contains(&0) {
            return Err(BucketError::Size(format!(
                "`{spec}`: give one positive bucket count, or one for each of the {streets} streets"
            )));
        }
        let name = buckets
            .iter()
            .map(|b| b.to_string())
            .collect::<Vec<_>>()
            .join("-");
        Ok(Size {
            name: format!("k{name}"),
            buckets,
            ..Size::preset("small", streets)?
        })
    }
}

#[cfg(test)]
mod tests {
    use super::{Draws, Size, Version};

    #[test]
    fn explicit_bucket_counts() {
        let s = Size::parse("4", 3).unwrap();
        assert_eq!((s.name.as_str(), s.buckets), ("k4-4-4", vec![4, 4, 4]));
        let s = Size::parse("2, 6", 2).unwrap();
        assert_eq!((s.name.as_str(), s.buckets), ("k2-6", vec![2, 6]));
        assert_eq!(Size::parse("tiny", 2), Size::preset("tiny", 2));
        assert!(Size::parse("2,3", 3)
            .unwrap_err()
            .to_string()
            .contains("3 streets"));
        assert!(Size::parse("0", 2).is_err());
        let d = Size::preset("default", 5).unwrap();
        assert_eq!(d.buckets, vec![128, 256, 256, 256, 128]);
        assert_eq!(Size::preset("default", 2).unwrap().buckets, vec![128, 256]);
        assert!(Size::parse("huge", 2)
            .unwrap_err()
            .to_string()
            .contains("unknown size"));
        let b = Size::parse("small:board=0.5", 3).unwrap();
        assert_eq!(b.name, "small-b0.5");
        assert_eq!(b.features.board_weight, 0.5);
        assert_eq!(b.buckets, Size::preset("small", 3).unwrap().buckets);
        assert_eq!(Size::parse("8:board=1", 2).unwrap().name, "k8-8-b1");
        for bad in [
            "8:board=-1",
            "8:board=x",
            "8:weight=1",
            "8:board=NaN",
            "8:board=1:board=2",
        ] {
            assert!(Size::parse(bad, 2)
                .unwrap_err()
                .to_string()
                .contains(":board=W"));
        }
        // The second version of the features: its own name, either order of the suffixes.
        let f = Size::parse("256:features=2", 2).unwrap();
        assert_eq!(
            (f.name.as_str(), f.features.version),
            ("k256-256-f2", Version::Two)
        );
        let both = Size::parse("small:features=2:board=0.5", 3).unwrap();
        assert_eq!(both.name, "small-b0.5-f2");
        assert_eq!(both, Size::parse("small:board=0.5:features=2", 3).unwrap());
        assert_eq!(Size::parse("tiny:features=1", 2), Size::preset("tiny", 2));
        let f = Size::parse("256:board=0.5:features=3", 2).unwrap();
        assert_eq!(
            (f.name.as_str(), f.features.version),
            ("k256-256-b0.5-f3", Version::Three)
        );
        for bad in ["8:features=4", "8:features=2:features=2", "8:features="] {
            assert!(Size::parse(bad, 2)
                .unwrap_err()
                .to_string()
                .contains(":features="));
        }
        let f = Size::parse("tiny:board=0.5:draws=fast", 5).unwrap();
        assert_eq!(f.name, "tiny-b0.5-fast");
        assert_eq!(f.features.draws, Draws::Fast);
        assert_eq!(Size::parse("tiny:draws=chacha", 5), Size::parse("tiny", 5));
        assert!(Size::parse("tiny:draws=slow", 5)
            .unwrap_err()
            .to_string()
            .contains("chacha, fast"));
        // The second version's rollouts draw as the first version's default does.
        assert!(Size::parse("tiny:draws=fast:features=2", 5)
            .unwrap_err()
            .to_string()
            .contains("not with `:features=2`"));
        assert!(Size::parse("tiny:features=3:draws=fast", 5)
            .unwrap_err()
            .to_string()
            .contains("not with `:features=3`"));
        // The third version's own weight: its own name, only with the third version.
        let x = Size::parse("small:extra=0.01:features=3", 3).unwrap();
        assert_eq!(
            (x.name.as_str(), x.features.extra_weight),
            ("small-f3-x0.01", Some(0.01))
        );
        assert_eq!(x, Size::parse("small:features=3:extra=0.01", 3).unwrap());
        assert_eq!(
            Size::parse("8:board=0.1:features=3:extra=0", 2)
                .unwrap()
                .name,
            "k8-8-b0.1-f3-x0"
        );
        assert_eq!(
            Size::parse("tiny:features=3", 5)
                .unwrap()
                .features
                .extra_weight,
            None
        );
        for bad in [
            "8:features=3:extra=-1",
            "8:features=3:extra=inf",
            "8:extra=y",
        ] {
            let e = Size::parse(bad, 2).unwrap_err().to_string();
            assert!(
                e.contains(":extra=W") && e.contains("default is the board weight"),
                "{e}"
            );
        }
        for bad in ["8:extra=0.01", "8:features=2:extra=0.01"] {
            let e = Size::parse(bad, 2).unwrap_err().to_string();
            assert!(e.contains("with `:features=3`"), "{e}");
        }
        assert!(Size::parse("8:features=3:extra=1:extra=1", 2)
            .unwrap_err()
            .to_string()
            .contains("not `:extra=1`"));
        let both = Size::parse("tiny:draws=fast:board=0.5", 5).unwrap();
        assert_eq!(both, Size::parse("tiny:board=0.5:draws=fast", 5).unwrap());
        // The rollout's draws: their own name, any order, a whole number of at least 1.
        let r = Size::parse("small:inner=4:features=3:outer=32", 5).unwrap();
        assert_eq!(
            (r.name.as_str(), r.features.outer, r.features.inner),
            ("small-f3-o32-i4", 32, 4)
        );
        assert_eq!(
            r,
            Size::parse("small:outer=32:features=3:inner=4", 5).unwrap()
        );
        let i = Size::parse("small:inner=4", 5).unwrap();
        assert_eq!((i.name.as_str(), i.features.outer), ("small-i4", 64));
        assert_eq!(
            Size::parse("small:inner=16:outer=64", 5),
            Size::preset("small", 5)
        );
        assert_eq!(Size::parse("tiny:outer=64", 5).unwrap().name, "tiny-o64");
        for bad in ["8:outer=0", "8:inner=-1", "8:outer=x", "8:inner=1.5"] {
            let e = Size::parse(bad, 2).unwrap_err().to_string();
            assert!(e.contains("whole number of draws"), "{bad}: {e}");
        }
        assert!(Size::parse("8:outer=4:outer=4", 2)
            .unwrap_err()
            .to_string()
            .contains("not `:outer=4`"));
    }
}
