//! k-means under the L1 distance (on the features' histogram CDFs that is the earth mover's
//! distance), k-means++ seeding, Lloyd iterations with mean centroids. Points and centroids are
//! matrices, one row per point or centroid, one column per feature. Deterministic: the same
//! points and seed give the same centroids whatever the number of threads, because every sum
//! runs over fixed chunks of rows reduced in chunk order.

use ndarray::{Array2, ArrayView1, ArrayView2, Axis};
use rand::{RngExt, SeedableRng};
use rand_chacha::ChaCha8Rng;
use rayon::prelude::*;

/// Rows per chunk of the parallel loops: fixed, so sums do not depend on the thread count.
const CHUNK: usize = 1024;

/// The L1 distance of two feature vectors (summed in column order).
#[inline]
pub fn distance<'a>(
    a: impl IntoIterator<Item = &'a f32>,
    b: impl IntoIterator<Item = &'a f32>,
) -> f32 {
    a.into_iter().zip(b).map(|(x, y)| (x - y).abs()).sum()
}

/// The nearest of the centroids (one per row) to `x`, the lowest index on a tie, with its
/// distance.
///
/// A centroid's sum stops once it reaches the best distance so far: its terms are at least 0
/// and a rounded sum of such terms never decreases, so the whole sum could not be below the
/// best either. The answer is the full scan's, bit for bit, at a fraction of the additions
/// when there are many centroids (a table solve asks this hundreds of times a deal).
#[inline]
pub fn nearest(centroids: ArrayView2<f32>, x: ArrayView1<f32>) -> (u32, f32) {
    let mut best = (0u32, f32::INFINITY);
    let xs = x.as_slice();
    for (i, c) in centroids.rows().into_iter().enumerate() {
        let d = match (c.as_slice(), xs) {
            (Some(c), Some(xs)) => partial_distance(c, xs, best.1),
            _ => distance(c, x),
        };
        if d < best.1 {
            best = (i as u32, d);
        }
    }
    best
}

/// The L1 distance of `a` and `b` summed in column order, or a partial sum of at least `bound`
/// as soon as one is reached.
#[inline]
fn partial_distance(a: &[f32], b: &[f32], bound: f32) -> f32 {
    let mut d = 0f32;
    for (x, y) in a.chunks(4).zip(b.chunks(4)) {
        for (x, y) in x.iter().zip(y) {
            d += (x - y).abs();
        }
        if d >= bound {
            break;
        }
    }
    d
}

/// The result of a clustering.
#[derive(Clone, Debug)]
pub struct Clusters {
    /// The centroids, one per row.
    pub centroids: Array2<f32>,
    /// The cluster of each point.
    pub assignment: Vec<u32>,
    /// Lloyd iterations run.
    pub iterations: usize,
}

/// Clusters the rows of `points` into `k` clusters (fewer if there are fewer points):
/// k-means++ seeding from `seed`, then at most `iterations` Lloyd steps, stopping early once no
/// point changes cluster. `progress` is called after each step with (step, max steps).
pub fn kmeans(
    points: ArrayView2<f32>,
    k: usize,
    iterations: usize,
    seed: u64,
    progress: &(dyn Fn(usize, usize) + Sync),
) -> Clusters {
    let n = points.nrows();
    let k = k.min(n).max(1);
    let mut centroids = seed_plus_plus(points, k, seed);
    let mut assignment = vec![u32::MAX; n];
    let mut dist = vec![0f32; n];
    let mut done = 0;
    for step in 0..iterations {
        let changed: usize = points
            .axis_chunks_iter(Axis(0), CHUNK)
            .into_par_iter()
            .zip(assignment.par_chunks_mut(CHUNK))
            .zip(dist.par_chunks_mut(CHUNK))
            .map(|((pts, asg), ds)| {
                let mut changed = 0;
                for ((x, a), d) in pts.rows().into_iter().zip(asg).zip(ds) {
                    let (c, dd) = nearest(centroids.view(), x);
                    changed += (*a != c) as usize;
                    *a = c;
                    *d = dd;
                }
                changed
            })
            .sum();
        done = step + 1;
        progress(done, iterations);
        if changed == 0 {
            break;
        }
        update(points, &assignment, &dist, &mut centroids);
    }
    Clusters {
        centroids,
        assignment,
        iterations: done,
    }
}

/// k-means++: the first centroid uniformly, each next one with probability proportional to the
/// squared distance to the nearest centroid chosen so far.
fn seed_plus_plus(points: ArrayView2<f32>, k: usize, seed: u64) -> Array2<f32> {
    let n = points.nrows();
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let mut centroids = Array2::zeros((k, points.ncols()));
    let first = crate::draw::below(&mut rng, n);
    centroids.row_mut(0).assign(&points.row(first));
    let mut d2 = vec![f64::INFINITY; n];
    for c in 1..k {
        let last = centroids.row(c - 1);
        let chunk_sums: Vec<f64> = points
            .axis_chunks_iter(Axis(0), CHUNK)
            .into_par_iter()
            .zip(d2.par_chunks_mut(CHUNK))
            .map(|(pts, ds)| {
                let mut s = 0.0;
                for (x, d) in pts.rows().into_iter().zip(ds) {
                    let e = distance(x, last) as f64;
                    *d = d.min(e * e);
                    s += *d;
                }
                s
            })
            .collect();
        let total: f64 = chunk_sums.iter().sum();
        let pick = if total > 0.0 {
            let mut target = rng.random::<f64>() * total;
            let mut pick = n - 1;
            for (i, &d) in d2.iter().enumerate() {
                if target < d {
                    pick = i;
                    break;
                }
                target -= d;
            }
            pick
        } else {
            // Every point coincides with a centroid: any choice is as good.
            crate::draw::below(&mut rng, n)
        };
        centroids.row_mut(c).assign(&points.row(pick));
    }
    centroids
}

/// The Lloyd update: each centroid moves to the mean of its points. An empty cluster takes the
/// point farthest from its centroid (the lowest index on a tie), which then leaves its cluster.
fn update(points: ArrayView2<f32>, assignment: &[u32], dist: &[f32], centroids: &mut Array2<f32>) {
    let k = centroids.nrows();
    let partials: Vec<(Array2<f64>, Vec<u64>)> = points
        .axis_chunks_iter(Axis(0), CHUNK)
        .into_par_iter()
        .zip(assignment.par_chunks(CHUNK))
        .map(|(pts, asg)| {
            let mut sums = Array2::zeros(centroids.raw_dim());
            let mut counts = vec![0u64; k];
            for (x, &a) in pts.rows().into_iter().zip(asg) {
                let a = a as usize;
                counts[a] += 1;
                for (s, &v) in sums.row_mut(a).iter_mut().zip(x) {
                    *s += v as f64;
                }
            }
            (sums, counts)
        })
        .collect();
    let mut sums = Array2::<f64>::zeros(centroids.raw_dim());
    let mut counts = vec![0u64; k];
    for (s, c) in &partials {
        sums += s;
        for (a, b) in counts.iter_mut().zip(c) {
            *a += b;
        }
    }
    let mut taken = vec![false; points.nrows()];
    for (c, mut centroid) in centroids.rows_mut().into_iter().enumerate() {
        if counts[c] > 0 {
            for (r, s) in centroid.iter_mut().zip(sums.row(c)) {
                *r = (s / counts[c] as f64) as f32;
            }
        } else if let Some(far) = (0..dist.len())
            .filter(|&i| !taken[i])
            .max_by(|&a, &b| dist[a].total_cmp(&dist[b]).then(b.cmp(&a)))
        {
            taken[far] = true;
            centroid.assign(&points.row(far));
        }
    }
}

/// The variance of `values` within their clusters (the mean squared distance to the cluster
/// mean), a measure of how much of a feature the clustering keeps.
pub fn within_variance(values: &[f32], assignment: &[u32], k: usize) -> f64 {
    let mut sum = vec![0f64; k];
    let mut count = vec![0u64; k];
    for (&v, &a) in values.iter().zip(assignment) {
        sum[a as usize] += v as f64;
        count[a as usize] += 1;
    }
    let mut sq = 0.0;
    for (&v, &a) in values.iter().zip(assignment) {
        let mean = sum[a as usize] / count[a as usize] as f64;
        sq += (v as f64 - mean).powi(2);
    }
    sq / values.len().max(1) as f64
}

#[cfg(test)]
mod tests {
    use super::{distance, nearest};
    use ndarray::{Array1, Array2};
    use proptest::prelude::*;

    proptest! {
        /// The sums that stop at the best so far pick the full scan's centroid and distance,
        /// bit for bit, ties to the lowest index included (repeated rows make ties).
        #[test]
        fn nearest_is_the_full_scans(
            dim in 1usize..21,
            rows in 1usize..40,
            values in proptest::collection::vec(0u8..8, 21 * 41),
            repeat in 0usize..40,
        ) {
            let v = |i: usize| f32::from(values[i]) / 7.0;
            let mut c = Array2::from_shape_fn((rows, dim), |(r, d)| v(r * dim + d));
            if rows > 1 {
                let from = c.row(repeat % rows).to_owned();
                c.row_mut(rows - 1).assign(&from);
            }
            let x = Array1::from_shape_fn(dim, |d| v(20 * 41 + d));
            let mut full = (0u32, f32::INFINITY);
            for (i, r) in c.rows().into_iter().enumerate() {
                let d = distance(r, x.view());
                if d < full.1 {
                    full = (i as u32, d);
                }
            }
            let got = nearest(c.view(), x.view());
            prop_assert_eq!((got.0, got.1.to_bits()), (full.0, full.1.to_bits()));
        }
    }
}
