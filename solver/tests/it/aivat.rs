//! The variance-reduced match estimate (`solver::bot::aivat`) is unbiased: on walkable games,
//! where the exact expected result of a pairing is the sum over every deal and every action of
//! both players' probabilities, its 95% intervals over many seeds cover that value as often as
//! a 95% interval should, and the seeds' estimates pooled agree with it.

use crate::common;

use abstraction::rules::{GameDef, Next, State};
use solver::bot::aivat::{Aivat, Baseline};
use solver::bot::matches::{play_match, play_table, MatchConfig};
use solver::bot::{Bet, Player};
use solver::players::load;
use std::sync::Arc;

/// Solves `game` for `iterations` into a temporary file: a mixed strategy, which gives the
/// estimate's known-policy terms something to correct.
fn solved(game: &str, iterations: u32) -> String {
    let path = std::env::temp_dir().join(format!(
        "stud-aivat-{game}-{iterations}-{}.strat",
        std::process::id()
    ));
    let p = path.to_str().unwrap().to_string();
    let it = iterations.to_string();
    let out = common::stud(
        &[
            "solve",
            "--game",
            game,
            "--iterations",
            &it,
            "--threads",
            "1",
            "--out",
            &p,
            "--json",
        ],
        "",
    );
    common::ok(&out);
    p
}

/// Each seat's exact expected chips when `seats[s]` plays seat `s` from `state` on: every card
/// the deck may deal next (uniform over those not dealt), every action weighed by its player's
/// probability.
fn exact(state: &State, bets: &mut Vec<Bet>, seats: &[&dyn Player]) -> Vec<f64> {
    let n = seats.len();
    let mut total = vec![0.0; n];
    match state.next() {
        Next::Deal { .. } => {
            let cards: Vec<_> = state.unseen().iter().collect();
            for &c in &cards {
                let mut next = state.clone();
                next.deal(c).unwrap();
                for (t, v) in total.iter_mut().zip(exact(&next, bets, seats)) {
                    *t += v / cards.len() as f64;
                }
            }
        }
        Next::Act { seat } => {
            let legal = state.legal_actions();
            let mut probs = vec![0.0; legal.len()];
            seats[seat as usize]
                .policy(state, bets, seat, &legal, &mut probs)
                .unwrap();
            for (&a, &p) in legal.iter().zip(&probs) {
                if p == 0.0 {
                    continue;
                }
                let mut next = state.clone();
                next.apply(a).unwrap();
                bets.push((state.street(), a));
                for (t, v) in total.iter_mut().zip(exact(&next, bets, seats)) {
                    *t += p * v;
                }
                bets.pop();
            }
        }
        Next::Over => {
            for (t, v) in total.iter_mut().zip(state.payoffs().unwrap()) {
                *t = v as f64;
            }
        }
    }
    total
}

/// Each player's exact win rate in mbb per hand over a duplicate match's seatings (player `p`
/// in seat `(p + r) mod n` in seating `r`).
fn exact_rates(def: &GameDef, players: &[&dyn Player]) -> Vec<f64> {
    let n = players.len();
    let start = State::with_def(Arc::new(def.clone())).unwrap();
    let mut rates = vec![0.0; n];
    for r in 0..n {
        let mut seats = players.to_vec();
        for (p, &player) in players.iter().enumerate() {
            seats[(p + r) % n] = player;
        }
        let ev = exact(&start, &mut Vec::new(), &seats);
        for (p, rate) in rates.iter_mut().enumerate() {
            *rate += ev[(p + r) % n] * 1000.0 / def.big_bet as f64 / n as f64;
        }
    }
    rates
}

/// The most of `seeds` 95% intervals allowed to miss the exact value: 15% of them, 6 of 40,
/// which a right interval passes but 3 times in 1,000 (at 4 of 40, as before, 1 in 20: a
/// check that the seeds' draws alone fail). A bias shows in the pooled mean, and the broken
/// estimators tried missed 33 and 40 times of 40.
fn misses(seeds: usize) -> usize {
    seeds * 3 / 20
}

/// Seeds' estimates of one value: mean and 95% half-width each.
struct Coverage {
    exact: f64,
    estimates: Vec<(f64, f64)>,
}

impl Coverage {
    /// Checks that at most `misses` of the seeds' intervals miss the exact value, and that the
    /// seeds pooled (a mean of equal-sized matches) lie within 2.58 standard errors of it.
    fn check(&self, what: &str, misses: usize) {
        let missed = self
            .estimates
            .iter()
            .filter(|(m, ci)| (m - self.exact).abs() > *ci)
            .count();
        let k = self.estimates.len() as f64;
        let pooled = self.estimates.iter().map(|e| e.0).sum::<f64>() / k;
        let se = self
            .estimates
            .iter()
            .map(|e| (e.1 / 1.96).powi(2))
            .sum::<f64>()
            .sqrt()
            / k;
        let summary = format!(
            "{what}: exact {:+.2} mbb/hand, {missed} of {} intervals miss it, the seeds pooled \
             {pooled:+.2} ± {:.2} (standard error {se:.2})",
            self.exact,
            self.estimates.len(),
            1.96 * se
        );
        eprintln!("{summary}");
        assert!(missed <= misses, "{summary}");
        assert!((pooled - self.exact).abs() <= 2.58 * se, "{summary}");
    }
}

/// Heads-up `a` against `b` on `seeds` seeds of `deals` deals: the variance-reduced estimate's
/// coverage (and the plain one's, which checks the exact walk), with the players' policies
/// read or, with `opaque`, not, and `baseline` its value function; and the mean ratio of the
/// intervals' widths.
fn heads_up(
    game: &str,
    (a, b): (&str, &str),
    seeds: u64,
    deals: u64,
    opaque: Vec<usize>,
    baseline: Baseline,
) -> f64 {
    let def = GameDef::preset(game).unwrap();
    let (pa, pb) = (load(a, &def).unwrap(), load(b, &def).unwrap());
    let exact = exact_rates(&def, &[pa.as_ref(), pb.as_ref()])[0];
    let mut plain = Coverage {
        exact,
        estimates: Vec::new(),
    };
    let mut reduced = Coverage {
        exact,
        estimates: Vec::new(),
    };
    for seed in 0..seeds {
        let cfg = MatchConfig {
            def: Arc::new(def.clone()),
            deals,
            seed,
            phh_out: None,
            aivat: Some(Aivat {
                opaque: opaque.clone(),
                baseline,
            }),
        };
        let r = play_match(pa.as_ref(), pb.as_ref(), &cfg).unwrap();
        let e = r.aivat.expect("the estimator applies to a walkable game");
        plain.estimates.push((r.mbb_per_hand, r.ci95));
        reduced.estimates.push((e.mbb_per_hand, e.ci95));
    }
    let name = format!("{a} vs {b} at {game}, opaque {opaque:?}, {baseline:?}");
    plain.check(&format!("{name}, plain"), misses(seeds as usize));
    reduced.check(&format!("{name}, variance-reduced"), misses(seeds as usize));
    let width = |c: &Coverage| c.estimates.iter().map(|e| e.1).sum::<f64>();
    width(&plain) / width(&reduced)
}

#[test]
fn the_variance_reduced_estimate_is_unbiased_in_kuhn() {
    // Kuhn deals every card before the first decision: the equities are exact, no rollouts.
    let strat = solved("kuhn", 30);
    let pair = (strat.as_str(), "random");
    for baseline in [Baseline::Street, Baseline::Checkdown] {
        let ratio = heads_up("kuhn", pair, 40, 400, Vec::new(), baseline);
        assert!(ratio > 1.0, "the intervals are {ratio:.2}× narrower");
    }
    // The players' probabilities unread: each decision corrected by the action taken, the
    // walks playing them as check/call.
    heads_up("kuhn", pair, 40, 400, vec![0, 1], Baseline::Street);
}

#[test]
#[ignore = "slow verification: scripts/test-slow runs it (CI does)"]
fn the_variance_reduced_estimate_is_unbiased_in_leduc_heads_up() {
    // Leduc's board card comes after the first round: the equities there are by rollouts.
    let strat = solved("leduc", 100);
    for baseline in [Baseline::Street, Baseline::Checkdown] {
        let pair = (strat.as_str(), "heuristic");
        let ratio = heads_up("leduc", pair, 40, 1000, Vec::new(), baseline);
        assert!(ratio > 1.0, "the intervals are {ratio:.2}× narrower");
    }
    let pair = ("random", strat.as_str());
    heads_up("leduc", pair, 40, 1000, vec![0], Baseline::Street);
}

#[test]
#[ignore = "slow verification: scripts/test-slow runs it (CI does)"]
fn the_variance_reduced_estimate_is_unbiased_at_a_table_of_three() {
    let def = GameDef::preset("leduc-3p").unwrap();
    let specs = ["random", "heuristic", "call"];
    let players: Vec<_> = specs.iter().map(|s| load(s, &def).unwrap()).collect();
    let seated: Vec<&dyn Player> = players.iter().map(|p| p.as_ref()).collect();
    let exact = exact_rates(&def, &seated);
    let mut each: Vec<Coverage> = exact
        .iter()
        .map(|&exact| Coverage {
            exact,
            estimates: Vec::new(),
        })
        .collect();
    let seeds: usize = 40;
    for seed in 0..seeds as u64 {
        let cfg = MatchConfig {
            def: Arc::new(def.clone()),
            deals: 600,
            seed,
            phh_out: None,
            aivat: Some(Aivat::default()),
        };
        let t = play_table(&seated, &cfg, &|| {}).unwrap();
        for (p, c) in each.iter_mut().enumerate() {
            let e = t.estimate(&[p], def.big_bet).unwrap();
            c.estimates.push((e.mbb_per_hand, e.ci95));
        }
    }
    for (c, spec) in each.iter().zip(specs) {
        c.check(
            &format!("{spec} at leduc-3p, variance-reduced"),
            misses(seeds),
        );
    }
}
