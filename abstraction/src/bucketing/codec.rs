//! The bytes of a built bucketing, for a cache file: a magic word, the format version, the
//! payload (the game's shape fingerprint, the size with every knob, each street's quality figures
//! and centroids), then a 64-bit FNV-1a checksum of all that precedes it. All little-endian.
//! Decoding checks everything and refuses damaged, foreign or other-version bytes by name.

use super::draws::Draws;
use super::features::{FeatureParams, Layout, Version};
use super::view::{Shape, Table};
use super::{canon, BucketError, Bucketing, Size, StreetBuckets};
use crate::rules::GameDef;
use ndarray::Array2;

/// The first eight bytes of every encoding.
const MAGIC: &[u8; 8] = b"STUDBKT\0";
/// The format version; bump it when the bytes or the meaning of the features change. A
/// bucketing of the first version of the features and the default draws is written in format 1
/// (the bytes, so the checksum that strategy files record, it always had); any other in format
/// 2, which records after the feature seed the features' version ([`Version`]) and the draws'
/// code ([`Draws`]); a bucketing of the third version with its own weight
/// ([`FeatureParams::extra_weight`]) in format 3, format 2's bytes and that weight after them.
pub const VERSION: u32 = 3;

/// The checksum of an encoding: FNV-1a 64 ([`crate::fnv`]).
pub use crate::fnv::fnv1a as checksum;

struct Writer(Vec<u8>);

impl Writer {
    fn u32(&mut self, v: u32) {
        self.0.extend_from_slice(&v.to_le_bytes());
    }
    fn u64(&mut self, v: u64) {
        self.0.extend_from_slice(&v.to_le_bytes());
    }
    fn f32(&mut self, v: f32) {
        self.0.extend_from_slice(&v.to_le_bytes());
    }
    fn f64(&mut self, v: f64) {
        self.0.extend_from_slice(&v.to_le_bytes());
    }
    fn str(&mut self, s: &str) {
        self.u32(s.len() as u32);
        self.0.extend_from_slice(s.as_bytes());
    }
}

struct Reader<'a> {
    bytes: &'a [u8],
    at: usize,
}

impl Reader<'_> {
    fn take(&mut self, n: usize, what: &str) -> Result<&[u8], BucketError> {
        let end = self.at.checked_add(n).filter(|&e| e <= self.bytes.len());
        let end = end.ok_or_else(|| {
            BucketError::Decode(format!("truncated at byte {} reading {what}", self.at))
        })?;
        let s = &self.bytes[self.at..end];
        self.at = end;
        Ok(s)
    }
    fn u32(&mut self, what: &str) -> Result<u32, BucketError> {
        Ok(u32::from_le_bytes(self.take(4, what)?.try_into().unwrap()))
    }
    fn u64(&mut self, what: &str) -> Result<u64, BucketError> {
        Ok(u64::from_le_bytes(self.take(8, what)?.try_into().unwrap()))
    }
    fn f32(&mut self, what: &str) -> Result<f32, BucketError> {
        Ok(f32::from_le_bytes(self.take(4, what)?.try_into().unwrap()))
    }
    fn f64(&mut self, what: &str) -> Result<f64, BucketError> {
        Ok(f64::from_le_bytes(self.take(8, what)?.try_into().unwrap()))
    }
    fn str(&mut self, what: &str) -> Result<String, BucketError> {
        let n = self.u32(what)? as usize;
        let b = self.take(n, what)?;
        String::from_utf8(b.to_vec())
            .map_err(|_| BucketError::Decode(format!("{what} is not UTF-8")))
    }
}

/// Reads what formats 2 and 3 record after the feature seed: the features' version and the
/// draws, and in format 3 the third version's extra weight.
fn read_settings(
    r: &mut Reader<'_>,
    format: u32,
    f: &mut FeatureParams,
) -> Result<(), BucketError> {
    let bad = |what: String| Err(BucketError::Decode(what));
    f.version = match r.u32("the features' version")? {
        1 => Version::One,
        2 => Version::Two,
        3 => Version::Three,
        v => return bad(format!("features of version {v}, in format {format}")),
    };
    let code = r.u32("the draws")?;
    f.draws = match Draws::of_code(code) {
        Some(d) => d,
        None => return bad(format!("unknown draws {code} in a format {format} file")),
    };
    if format >= 3 {
        let w = r.f32("the extra weight")?;
        if f.version != Version::Three || !w.is_finite() || w < 0.0 {
            return bad(format!(
                "an extra weight of {w} with features of version {}: only the third version's \
                 own classes have one, finite and at least 0",
                features_code(f.version)
            ));
        }
        f.extra_weight = Some(w);
    }
    Ok(())
}

/// Reads street `s`'s quality figures and centroids (`dim` features each, at most `buckets`).
fn read_street(
    r: &mut Reader<'_>,
    s: usize,
    dim: usize,
    buckets: u32,
) -> Result<StreetBuckets, BucketError> {
    let points = r.u32("the points")?;
    let iterations = r.u32("the iterations")?;
    let ehs_variance = r.f64("the EHS variance")?;
    let ehs_within = r.f64("the EHS variance")?;
    let n = r.u32("the centroid count")? as usize;
    if n == 0 || n % dim != 0 || n > buckets as usize * dim {
        return Err(BucketError::Decode(format!(
            "street {s} has {n} centroid values"
        )));
    }
    let values = (0..n)
        .map(|_| r.f32("the centroids"))
        .collect::<Result<Vec<_>, _>>()?;
    let centroids =
        Array2::from_shape_vec((n / dim, dim), values).expect("whole rows: n is a multiple of dim");
    Ok(StreetBuckets {
        centroids,
        points,
        iterations,
        ehs_variance,
        ehs_within,
    })
}

/// The number of a version of the features, as format 2 records it.
fn features_code(features: Version) -> u32 {
    match features {
        Version::One => 1,
        Version::Two => 2,
        Version::Three => 3,
    }
}

/// The format a bucketing of these features is written in: 1 for the first version's features
/// with the default draws, so that their bytes never change; 3 for the third version with its
/// own extra weight; 2 for any other (so every bucketing written before format 3 keeps its
/// bytes).
fn format_of(f: &FeatureParams) -> u32 {
    if f.extra_weight.is_some() {
        3
    } else if f.version == Version::One && f.draws == Draws::ChaCha {
        1
    } else {
        2
    }
}

impl Bucketing {
    /// Everything after the magic and version, before the checksum.
    pub(super) fn encode_payload(&self) -> Vec<u8> {
        let mut w = Writer(Vec::new());
        w.str(&self.shape.fingerprint());
        let z = &self.size;
        w.str(&z.name);
        w.u32(z.buckets.len() as u32);
        for &b in &z.buckets {
            w.u32(b);
        }
        w.u32(z.train);
        w.u32(z.iterations);
        w.u64(z.seed);
        let f = &z.features;
        w.u32(f.outer);
        w.u32(f.inner);
        w.u32(f.bins);
        w.f32(f.board_weight);
        w.u64(f.seed);
        if format_of(f) >= 2 {
            w.u32(features_code(f.version));
            w.u32(f.draws.code());
        }
        if let Some(extra) = f.extra_weight {
            w.f32(extra);
        }
        w.u32(self.layout.dim() as u32);
        for s in &self.streets {
            w.u32(s.points);
            w.u32(s.iterations);
            w.f64(s.ehs_variance);
            w.f64(s.ehs_within);
            w.u32(s.centroids.len() as u32);
            for &c in &s.centroids {
                w.f32(c);
            }
        }
        w.0
    }

    /// The bytes to cache: magic, version, payload, checksum.
    pub fn encode(&self) -> Vec<u8> {
        let mut out = MAGIC.to_vec();
        out.extend_from_slice(&format_of(&self.size.features).to_le_bytes());
        out.extend_from_slice(&self.encode_payload());
        out.extend_from_slice(&checksum(&out).to_le_bytes());
        out
    }

    /// Reads bytes written by [`Bucketing::encode`] for the game `def`. Refuses, naming why,
    /// bytes that are damaged (checksum), of another format version, or of another game.
    pub fn decode(bytes: &[u8], def: &GameDef) -> Result<Bucketing, BucketError> {
        Bucketing::decode_shape(bytes, Shape::of(def)?)
    }

    /// Reads bytes written by [`Bucketing::encode`] of an N-seat view's bucketing of `def`
    /// ([`Bucketing::build_table`] with `table`); refuses others as [`Bucketing::decode`] does.
    pub fn decode_table(
        bytes: &[u8],
        def: &GameDef,
        table: Table,
    ) -> Result<Bucketing, BucketError> {
        Bucketing::decode_shape(bytes, Shape::of_table(def, table)?)
    }

    fn decode_shape(bytes: &[u8], shape: Shape) -> Result<Bucketing, BucketError> {
        let bad = |why: String| Err(BucketError::Decode(why));
        if bytes.len() < MAGIC.len() + 12 || &bytes[..8] != MAGIC {
            return bad("it does not start with the bucketing magic word".into());
        }
        let (body, sum) = bytes.split_at(bytes.len() - 8);
        let stored = u64::from_le_bytes(sum.try_into().unwrap());
        let version = u32::from_le_bytes(bytes[8..12].try_into().unwrap());
        if !(1..=VERSION).contains(&version) {
            return bad(format!(
                "format version {version}, this program reads versions 1 to {VERSION}"
            ));
        }
        if checksum(body) != stored {
            return bad("the checksum does not match: the file is damaged".into());
        }
        let payload = &body[12..];
        let mut r = Reader {
            bytes: payload,
            at: 0,
        };
        let fingerprint = r.str("the game fingerprint")?;
        if fingerprint != shape.fingerprint() {
            return bad(format!(
                "built for `{fingerprint}`, not `{}`",
                shape.fingerprint()
            ));
        }
        let name = r.str("the size name")?;
        let streets = r.u32("the street count")? as usize;
        if streets != shape.streets() {
            return bad(format!(
                "{streets} streets, the game has {}",
                shape.streets()
            ));
        }
        let buckets = (0..streets)
            .map(|_| r.u32("the bucket counts"))
            .collect::<Result<Vec<_>, _>>()?;
        let mut size = Size {
            name,
            buckets,
            train: r.u32("the training size")?,
            iterations: r.u32("the iterations")?,
            seed: r.u64("the seed")?,
            features: FeatureParams {
                outer: r.u32("the outer draws")?,
                inner: r.u32("the inner draws")?,
                bins: r.u32("the bins")?,
                board_weight: r.f32("the board weight")?,
                seed: r.u64("the feature seed")?,
                version: Version::One,
                draws: Draws::ChaCha,
                extra_weight: None,
            },
        };
        if version >= 2 {
            read_settings(&mut r, version, &mut size.features)?;
        }
        let layout = Layout::new(shape.showdown, &size.features);
        let dim = r.u32("the dimension")? as usize;
        if dim != layout.dim() {
            return bad(format!("{dim} features, expected {}", layout.dim()));
        }
        let out = (0..streets)
            .map(|s| read_street(&mut r, s, dim, size.buckets[s]))
            .collect::<Result<Vec<_>, _>>()?;
        if r.at != payload.len() {
            return bad(format!("{} bytes left over", payload.len() - r.at));
        }
        Ok(Bucketing {
            perms: canon::deck_perms(shape.deck),
            shape,
            size,
            layout,
            streets: out,
            checksum: checksum(payload),
            first: None,
            recent: None,
        })
    }
}
