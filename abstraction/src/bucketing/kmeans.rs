//! k-means under the L1 distance (on the features' histogram CDFs that is the earth mover's
//! distance), k-means++ seeding, Lloyd iterations with mean centroids. Deterministic: the same
//! points and seed give the same centroids whatever the number of threads, because every sum
//! runs over fixed chunks reduced in chunk order.

use rand::{RngExt, SeedableRng};
use rand_chacha::ChaCha8Rng;
use rayon::prelude::*;

/// Points per chunk of the parallel loops: fixed, so sums do not depend on the thread count.
const CHUNK: usize = 1024;

/// The L1 distance of two feature vectors.
#[inline]
pub fn distance(a: &[f32], b: &[f32]) -> f32 {
    a.iter().zip(b).map(|(x, y)| (x - y).abs()).sum()
}

/// The nearest of the centroids (`k * dim` values, row by row) to `x`, the lowest index on a
/// tie, with its distance.
#[inline]
pub fn nearest(centroids: &[f32], dim: usize, x: &[f32]) -> (u32, f32) {
    let mut best = (0u32, f32::INFINITY);
    for (i, c) in centroids.chunks_exact(dim).enumerate() {
        let d = distance(c, x);
        if d < best.1 {
            best = (i as u32, d);
        }
    }
    best
}

/// The result of a clustering.
#[derive(Clone, Debug)]
pub struct Clusters {
    /// `k * dim` centroid coordinates, row by row.
    pub centroids: Vec<f32>,
    /// The cluster of each point.
    pub assignment: Vec<u32>,
    /// Lloyd iterations run.
    pub iterations: usize,
}

/// Clusters `points` (`n * dim` values, row by row) into `k` clusters (fewer if there are fewer
/// points): k-means++ seeding from `seed`, then at most `iterations` Lloyd steps, stopping early
/// once no point changes cluster. `progress` is called after each step with (step, max steps).
pub fn kmeans(
    points: &[f32],
    dim: usize,
    k: usize,
    iterations: usize,
    seed: u64,
    progress: &(dyn Fn(usize, usize) + Sync),
) -> Clusters {
    let n = points.len() / dim;
    let k = k.min(n).max(1);
    let mut centroids = seed_plus_plus(points, dim, k, seed);
    let mut assignment = vec![u32::MAX; n];
    let mut dist = vec![0f32; n];
    let mut done = 0;
    for step in 0..iterations {
        let changed: usize = points
            .par_chunks(CHUNK * dim)
            .zip(assignment.par_chunks_mut(CHUNK))
            .zip(dist.par_chunks_mut(CHUNK))
            .map(|((pts, asg), ds)| {
                let mut changed = 0;
                for ((x, a), d) in pts.chunks_exact(dim).zip(asg).zip(ds) {
                    let (c, dd) = nearest(&centroids, dim, x);
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
        update(points, dim, k, &assignment, &dist, &mut centroids);
    }
    Clusters {
        centroids,
        assignment,
        iterations: done,
    }
}

/// k-means++: the first centroid uniformly, each next one with probability proportional to the
/// squared distance to the nearest centroid chosen so far.
fn seed_plus_plus(points: &[f32], dim: usize, k: usize, seed: u64) -> Vec<f32> {
    let n = points.len() / dim;
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let first = crate::draw::below(&mut rng, n);
    let mut centroids = points[first * dim..(first + 1) * dim].to_vec();
    let mut d2 = vec![f64::INFINITY; n];
    for _ in 1..k {
        let last = centroids[centroids.len() - dim..].to_vec();
        let chunk_sums: Vec<f64> = points
            .par_chunks(CHUNK * dim)
            .zip(d2.par_chunks_mut(CHUNK))
            .map(|(pts, ds)| {
                let mut s = 0.0;
                for (x, d) in pts.chunks_exact(dim).zip(ds) {
                    let e = distance(x, &last) as f64;
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
        centroids.extend_from_slice(&points[pick * dim..(pick + 1) * dim]);
    }
    centroids
}

/// The Lloyd update: each centroid moves to the mean of its points. An empty cluster takes the
/// point farthest from its centroid (the lowest index on a tie), which then leaves its cluster.
fn update(
    points: &[f32],
    dim: usize,
    k: usize,
    assignment: &[u32],
    dist: &[f32],
    centroids: &mut [f32],
) {
    let partials: Vec<(Vec<f64>, Vec<u64>)> = points
        .par_chunks(CHUNK * dim)
        .zip(assignment.par_chunks(CHUNK))
        .map(|(pts, asg)| {
            let mut sums = vec![0f64; k * dim];
            let mut counts = vec![0u64; k];
            for (x, &a) in pts.chunks_exact(dim).zip(asg) {
                let a = a as usize;
                counts[a] += 1;
                for (s, &v) in sums[a * dim..(a + 1) * dim].iter_mut().zip(x) {
                    *s += v as f64;
                }
            }
            (sums, counts)
        })
        .collect();
    let mut sums = vec![0f64; k * dim];
    let mut counts = vec![0u64; k];
    for (s, c) in &partials {
        for (a, b) in sums.iter_mut().zip(s) {
            *a += b;
        }
        for (a, b) in counts.iter_mut().zip(c) {
            *a += b;
        }
    }
    let mut taken = vec![false; points.len() / dim];
    for c in 0..k {
        let row = &mut centroids[c * dim..(c + 1) * dim];
        if counts[c] > 0 {
            for (r, s) in row.iter_mut().zip(&sums[c * dim..(c + 1) * dim]) {
                *r = (s / counts[c] as f64) as f32;
            }
        } else if let Some(far) = (0..dist.len())
            .filter(|&i| !taken[i])
            .max_by(|&a, &b| dist[a].total_cmp(&dist[b]).then(b.cmp(&a)))
        {
            taken[far] = true;
            row.copy_from_slice(&points[far * dim..(far + 1) * dim]);
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
