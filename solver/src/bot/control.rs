//! The corrections of the variance-reduced estimate ([`super::aivat`]) weighed anew, as control
//! variates: a deal's estimate is its chips less the sum of its corrections, each group of
//! which (a street's cards, the decisions) has mean 0 whatever weight it is given. Weight 1 is
//! right for a value function that foresees the chips exactly; the checkdown value does not
//! (a street's card luck is worth more than its equity shift of the pot: the bets still to
//! come ride on it), so the weights that make the estimate narrowest are found by least
//! squares. Fitted on the deals they are applied to, they would lean on those deals' noise
//! (a bias); each half of the deals is weighed by the weights fitted on the other half
//! (cross-fitting), which keeps every deal's value unbiased.

/// Fewest deals per control in a half before weights are fitted: below it a half's fit is
/// mostly noise, and every weight stays 1.
const DEALS_PER_CONTROL: usize = 20;

/// Each deal's value re-weighed: `x[i] − Σ_g γ_g c[i][g]`, where `x[i]` is deal `i`'s estimate
/// (its chips less its corrections, each at weight 1, or 0 for a control the estimate leaves
/// out) and `c[i]` its corrections by group, with `γ` (the weights less what `x` holds them
/// at) fitted by least squares on the other half of the deals (the even deals weighed by the
/// odd ones' fit and the odd by the even's). With too few deals for the groups that vary, `x`
/// as it is.
pub fn reweighed<const G: usize>(x: &[f64], c: &[[f64; G]]) -> Vec<f64> {
    assert_eq!(x.len(), c.len(), "one set of corrections per deal");
    let half = x.len() / 2;
    // Only the groups that vary count: a game of fewer streets leaves the others 0.
    let active = (0..G).filter(|&g| c.iter().any(|c| c[g] != 0.0)).count();
    if half < DEALS_PER_CONTROL * active.max(1) {
        return x.to_vec();
    }
    let fit = |parity: usize| {
        let rows: Vec<usize> = (parity..x.len()).step_by(2).collect();
        least_squares(&rows, x, c)
    };
    let (even, odd) = (fit(0), fit(1));
    (0..x.len())
        .map(|i| {
            let gamma = if i % 2 == 0 { &odd } else { &even };
            x[i] - (0..G).map(|g| gamma[g] * c[i][g]).sum::<f64>()
        })
        .collect()
}

/// The `γ` minimising the variance of `x[i] − γ · c[i]` over `rows`: ordinary least squares
/// of `x` on `c`, both centred. A control that never varies (a street no hand reached) gets
/// weight 0 from a ridge too small to move the others.
fn least_squares<const G: usize>(rows: &[usize], x: &[f64], c: &[[f64; G]]) -> [f64; G] {
    let n = rows.len() as f64;
    let mean_x = rows.iter().map(|&i| x[i]).sum::<f64>() / n;
    let mut mean_c = [0.0; G];
    for &i in rows {
        for g in 0..G {
            mean_c[g] += c[i][g] / n;
        }
    }
    let mut a = [[0.0; G]; G];
    let mut b = [0.0; G];
    for &i in rows {
        let d: [f64; G] = std::array::from_fn(|g| c[i][g] - mean_c[g]);
        for g in 0..G {
            b[g] += d[g] * (x[i] - mean_x);
            for h in 0..G {
                a[g][h] += d[g] * d[h];
            }
        }
    }
    let scale = (0..G).map(|g| a[g][g]).fold(0.0, f64::max).max(1e-300);
    for (g, row) in a.iter_mut().enumerate() {
        row[g] += 1e-9 * scale;
    }
    solve(a, b)
}

/// The solution of `a y = b` for a symmetric positive definite `a` (Gaussian elimination with
/// partial pivoting).
fn solve<const G: usize>(mut a: [[f64; G]; G], mut b: [f64; G]) -> [f64; G] {
    for k in 0..G {
        let p = (k..G)
            .max_by(|&i, &j| a[i][k].abs().total_cmp(&a[j][k].abs()))
            .unwrap_or(k);
        a.swap(k, p);
        b.swap(k, p);
        let pivot = a[k];
        for i in k + 1..G {
            let f = a[i][k] / pivot[k];
            for (x, p) in a[i][k..].iter_mut().zip(&pivot[k..]) {
                *x -= f * p;
            }
            b[i] -= f * b[k];
        }
    }
    let mut y = [0.0; G];
    for k in (0..G).rev() {
        let rest: f64 = (k + 1..G).map(|j| a[k][j] * y[j]).sum();
        y[k] = (b[k] - rest) / a[k][k];
    }
    y
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand::{Rng, RngExt, SeedableRng};

    /// A uniform draw from `[lo, hi)`.
    fn uniform(rng: &mut impl Rng, lo: f64, hi: f64) -> f64 {
        lo + (hi - lo) * rng.random::<f64>()
    }

    #[test]
    fn least_squares_recovers_the_weights_and_ignores_a_dead_control() {
        let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(5);
        let rows: Vec<usize> = (0..500).collect();
        let c: Vec<[f64; 3]> = (0..500)
            .map(|_| {
                [
                    uniform(&mut rng, -1.0, 1.0),
                    uniform(&mut rng, -1.0, 1.0),
                    0.0,
                ]
            })
            .collect();
        let x: Vec<f64> = c.iter().map(|c| 4.0 + 2.0 * c[0] - 0.5 * c[1]).collect();
        let g = least_squares(&rows, &x, &c);
        assert!(
            (g[0] - 2.0).abs() < 1e-6 && (g[1] + 0.5).abs() < 1e-6,
            "{g:?}"
        );
        assert_eq!(g[2], 0.0);
    }

    #[test]
    fn reweighing_narrows_a_spread_the_controls_explain_and_keeps_the_mean() {
        let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(9);
        let n = 4000;
        let c: Vec<[f64; 2]> = (0..n)
            .map(|_| [uniform(&mut rng, -3.0, 3.0), uniform(&mut rng, -1.0, 1.0)])
            .collect();
        // The estimate still carries half its first control: weight 1 was too small.
        let x: Vec<f64> = c
            .iter()
            .map(|c| 1.0 + 0.5 * c[0] + uniform(&mut rng, -0.1, 0.1))
            .collect();
        let y = reweighed(&x, &c);
        let sd = |v: &[f64]| {
            let m = v.iter().sum::<f64>() / v.len() as f64;
            (v.iter().map(|a| (a - m).powi(2)).sum::<f64>() / v.len() as f64).sqrt()
        };
        assert!(sd(&y) < 0.1 * sd(&x), "{} against {}", sd(&y), sd(&x));
        let mean = y.iter().sum::<f64>() / n as f64;
        assert!((mean - 1.0).abs() < 0.01, "{mean}");
        // 30 deals a half: below 20 for each of the 2 controls.
        assert_eq!(reweighed(&x[..60], &c[..60]), x[..60].to_vec());
        // A third control that never varies (a street the game does not have) is not counted:
        // 50 deals a half fit the 2 that vary, though not 20 for each of 3.
        let dead: Vec<[f64; 3]> = c.iter().map(|c| [c[0], c[1], 0.0]).collect();
        let y = reweighed(&x[..100], &dead[..100]);
        assert_ne!(y, x[..100].to_vec());
        assert_eq!(y, reweighed(&x[..100], &c[..100]));
    }
}
