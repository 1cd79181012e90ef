//! `stud query FILE SPOT --hand CARDS --resolve`: the last street re-solved at the spot, or the
//! last two from a spot on the street before the last (sixth street in seven-card stud; see
//! `solver::resolve`), the re-solved policy of the hand beside the strategy's.

use super::spot::Step;
use super::Args;
use abstraction::rules::seat_name;
use anyhow::{Context, Result};
use solver::query::resolve::{answer, Ask, DEFAULT_ITERATIONS};
use solver::resolve::{Budget, Report};
use solver::strategy_file::StrategyFile;

/// Runs `stud query --resolve`.
pub(super) fn run(f: &StrategyFile, args: &Args, steps: &[Step]) -> Result<()> {
    let budget = match (args.iterations, args.budget_ms) {
        (_, Some(ms)) => Budget::Millis(ms),
        (it, None) => Budget::Iterations(it.unwrap_or(DEFAULT_ITERATIONS)),
    };
    let ask = Ask {
        hand: args.hand.as_deref().context("--resolve needs --hand")?,
        budget,
        safe: args.safe,
        floor: args.floor,
    };
    let a = answer(f, &args.file, ask, steps)?;
    if args.output.json {
        println!("{}", a.json());
        return Ok(());
    }
    println!(
        "{} to act on {} with {}: re-solved from there to the end of the hand",
        seat_name(a.seat),
        a.street_name,
        a.hand
    );
    print_subgame(&a.subgame, a.floor);
    let width = a.names.iter().map(|n| n.len()).max().unwrap_or(0).max(6);
    println!("{:width$}  blueprint  re-solved", "action");
    for ((n, b), x) in a.names.iter().zip(&a.blueprint).zip(&a.resolved) {
        println!("{n:width$}  {b:>9.3}  {x:>9.3}");
    }
    Ok(())
}

/// Prints the subgame's line of the text answer: its size, the time of its ranges and its
/// solve, and how good the solve is (`floor`: the ranges').
fn print_subgame(r: &Report, floor: f64) {
    // A safe solve's profile is the gadget game's: its own exploitability says nothing of the
    // seat's strategy, what an opponent hand can gain does.
    let quality = match r.opponent_gain {
        Some(gain) => format!(
            "safe: the most an opponent hand gains over its best response to the blueprint \
             {gain:.4} chips"
        ),
        None => format!(
            "exploitability in the subgame {:.4} chips a hand ({:.1} mbb)",
            r.exploitability, r.exploitability_mbb
        ),
    };
    println!(
        "subgame: {} hands a seat ({} at its root), {} nodes ({} decisions), {} infoset-actions \
         ({:.0} MiB); ranges {:.0} ms (floor {}); {} DCFR iterations in {:.0} ms; {quality}",
        r.hands,
        r.root_hands,
        r.nodes,
        r.decisions,
        r.infoset_actions,
        r.memory_bytes as f64 / (1 << 20) as f64,
        r.range_millis,
        floor,
        r.iterations,
        r.solve_millis,
    );
}
