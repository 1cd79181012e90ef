//! `stud solve` for three to eight seats: the exact multiway solver on the whole game tree of
//! a walkable game (`solver::multiway`), its NashConv measured every `--every` iterations, the
//! average strategy written as a JSON policy.

use super::solve::{measured_plan, outputs, Args, Bar};
use abstraction::rules::GameDef;
use anyhow::{bail, Result};
use solver::cfr::Algorithm;
use solver::checkpoint;
use solver::memory::{available_memory, status_bytes, Estimate};
use solver::multiway::{nash_conv, NashConv, Solver};
use solver::session::multiway::{build_tree, write_policy, ADVICE};
use solver::session::{self, Flow, Observer, Problem, Progress};
use std::time::Instant;

/// Solves a game of three or more seats on its whole game tree.
pub(super) fn run(args: &Args, def: &GameDef) -> Result<()> {
    refuse_other_flags(args, def)?;
    let (out, ckpt) = outputs(args, "", "json")?;
    let pool = args.pool.start()?;
    let memory = available_memory();
    let (tree, est) = pool.install(|| build_tree(def, memory))?;
    if !args.output.json {
        eprintln!(
            "{} ({} seats): {} histories, {} infosets, {} infoset-actions\n{}",
            args.game.name(),
            def.seats,
            tree.nodes.len(),
            est.infosets,
            est.slots,
            est.describe()
        );
    }
    est.check_fits(memory, ADVICE)?;
    let mut solver = Solver::new(tree, args.algorithm.unwrap_or(Algorithm::CfrPlus));
    let problem = Problem::multiway(def);
    if args.resume {
        session::resume(&ckpt, &mut solver, &problem)?;
    }
    let plan = measured_plan(args, &ckpt);
    let mut watch = Watch {
        bar: Bar::new(args.output.json, &plan),
        json: args.output.json,
        target: args.tree.target_exploitability,
        last: None,
        note: String::new(),
    };
    let start = Instant::now();
    let ran = pool.install(|| session::run(&mut solver, &problem, &plan, &mut watch))?;
    watch.bar.finish();
    let nc = match watch.last.take() {
        Some((n, nc)) if n == solver.iterations => nc,
        _ => measure(&solver),
    };
    let kept = checkpoint::write_results(
        &ckpt,
        &out,
        super::solve::keeps_checkpoint(args, &ran),
        || session::save(&ckpt, &solver, &problem),
        || write_policy(&out, &solver, def, &nc),
    )?;
    let secs = start.elapsed().as_secs_f64();
    report(
        args,
        &solver,
        &nc,
        &est,
        (secs, ran.iterating.as_secs_f64()),
    );
    if !args.output.json {
        println!("policy: {}\ncheckpoint: {kept}", out.display());
    }
    super::solve::finish(&ran, solver.iterations, &ckpt, &out)
}

/// The flags of the other back ends, refused by name: nothing is silently ignored.
fn refuse_other_flags(args: &Args, def: &GameDef) -> Result<()> {
    let game = args.game.name();
    if args.iterations.is_none() && args.time.is_none() && args.tree.target_exploitability.is_none()
    {
        bail!("{game}: say when to stop, with --iterations, --time or --target-exploitability");
    }
    if let Some(kind) = args.solver {
        bail!(
            "--solver {}: {game} has {} seats, which only the multiway solver plays (leave \
             --solver out)",
            format!("{kind:?}").to_lowercase(),
            def.seats
        );
    }
    if let Some(flag) = args.deal.given() {
        bail!("{flag} is for the real games' deal-sampled solver, which is heads-up; {game} is walked whole");
    }
    if args.tree.sample.is_some() {
        bail!("--sample: the multiway solver walks every deal ({game} has no chance sampling yet)");
    }
    Ok(())
}

/// NashConv of the solver's average strategy.
fn measure(solver: &Solver) -> NashConv {
    nash_conv(&solver.tree, &solver.average_strategy())
}

/// What watches a multiway solve: the bar, and at each checkpoint NashConv, printed as a JSON
/// line for `--json` and checked against `--target-exploitability`.
struct Watch {
    bar: Bar,
    json: bool,
    target: Option<f64>,
    /// The last measurement and the iterations it was made at.
    last: Option<(u64, NashConv)>,
    note: String,
}

impl Observer<Solver> for Watch {
    fn iterated(&mut self, _: &Solver, p: &Progress) {
        self.bar
            .show(p, &format!("{:.1} it/s", p.rate()), &self.note);
    }

    fn checkpointed(&mut self, solver: &Solver, p: &Progress) -> Result<Flow> {
        let nc = measure(solver);
        let total = nc.total();
        if self.json {
            println!(
                "{}",
                serde_json::json!({
                    "iterations": solver.iterations,
                    "seconds": p.elapsed.as_secs_f64(),
                    "nash_conv": total,
                })
            );
        }
        self.note = format!(", NashConv {total:.6}");
        self.last = Some((solver.iterations, nc));
        Ok(match self.target {
            Some(x) if total <= x => Flow::Stop,
            _ => Flow::Continue,
        })
    }
}

/// Prints the end of a multiway solve: one JSON object for `--json`, else a few lines.
fn report(
    args: &Args,
    solver: &Solver,
    nc: &NashConv,
    est: &Estimate,
    (secs, iterating): (f64, f64),
) {
    let total = nc.total();
    let big_bet = solver.tree.big_bet as f64;
    if args.output.json {
        println!(
            "{}",
            serde_json::json!({
                "final": true,
                "game": args.game.name(),
                "seats": solver.tree.seats,
                "algorithm": solver.algorithm.name(),
                "iterations": solver.iterations,
                "seconds": secs,
                "iterate_seconds": iterating,
                "nash_conv": total,
                "nash_conv_mbb": total / big_bet * 1000.0,
                "best_response": nc.best_response,
                "on_policy": nc.on_policy,
                "histories": solver.tree.nodes.len(),
                "infosets": solver.tree.infosets.len(),
                "infoset_actions": solver.tree.num_slots,
                "estimate_bytes": est.peak(),
                "peak_bytes": status_bytes("VmHWM"),
            })
        );
        return;
    }
    let mib = |b: usize| b as f64 / (1 << 20) as f64;
    println!(
        "{} {} ({} seats): {} iterations in {secs:.1}s, NashConv {total:.6} chips/game \
         ({:.3} mbb/game)\nper seat, best response against the others / the profile's value: \
         {}\npeak memory {} (estimated {:.1} MiB)",
        args.game.name(),
        solver.algorithm.name(),
        solver.tree.seats,
        solver.iterations,
        total / big_bet * 1000.0,
        (nc.best_response.iter().zip(&nc.on_policy))
            .enumerate()
            .map(|(s, (b, v))| format!("p{} {b:.6} / {v:.6}", s + 1))
            .collect::<Vec<_>>()
            .join(", "),
        status_bytes("VmHWM").map_or("unknown".into(), |p| format!("{:.1} MiB", mib(p))),
        mib(est.peak()),
    );
}
