//! The end of `stud solve` in words: a few lines of each back end's [`Results`] (`--json`
//! prints them as one object instead).

use abstraction::rules::seat_name;
use solver::memory::{mib, status_bytes};
use solver::solve::report::{Deal, Multiway, Sampled, Split, Walked};
use solver::solve::Results;

/// The peak resident memory, in MiB.
fn peak(bytes: Option<usize>) -> String {
    bytes.map_or("unknown".into(), |p| format!("{:.1} MiB", mib(p)))
}

/// Prints `results` as a few lines.
pub fn print(results: &Results) {
    match results {
        Results::Walked(r) => walked(r),
        Results::Deal(r) => deal(r),
        Results::Multiway(r) => multiway(r),
        Results::Sampled(r) => sampled(r),
        Results::Split(r) => split(r),
    }
}

fn walked(r: &Walked) {
    println!(
        "{} {} ({}): {} iterations in {:.1}s, exploitability {:.6} chips/game ({:.3} \
         mbb/game), p1's value {:.6}\npeak memory {} (estimated {:.1} MiB)\nstrategy: \
         {}\ncheckpoint: {}",
        r.game,
        r.algorithm,
        r.abstraction,
        r.iterations,
        r.seconds,
        r.exploitability,
        r.exploitability_mbb,
        r.value_0,
        peak(status_bytes("VmHWM")),
        mib(r.estimate_bytes),
        r.out,
        r.checkpoint
    );
    if !r.lossless {
        println!(
            "in the abstract game: exploitability {:.6} chips/game ({:.3} mbb/game)",
            r.abstract_exploitability, r.abstract_exploitability_mbb
        );
    }
}

fn deal(r: &Deal) {
    let note = &r.exploitability_note;
    println!(
        "{} {} ({}): {} iterations of {} deals in {:.1}s ({:.0} deals/s while \
         iterating)\nexploitability: {}\npeak memory {} (estimated {:.1} MiB{})\nstrategy: {} \
         ({:.1} MiB)\ncheckpoint: {}",
        r.game,
        r.solver,
        r.abstraction,
        r.iterations,
        r.batch,
        r.seconds,
        r.deals_per_second,
        match (r.exploitability, r.exploitability_mbb) {
            (Some(c), Some(m)) => format!("{c:.6} chips/game ({m:.3} mbb/game), {note}"),
            _ => note.clone(),
        },
        peak(r.peak_bytes),
        mib(r.estimate_bytes),
        if r.walkable {
            " before the lossless tree"
        } else {
            ""
        },
        r.out,
        mib(r.file_bytes as usize),
        r.checkpoint
    );
}

fn multiway(r: &Multiway) {
    println!(
        "{} {} ({} seats): {} iterations in {:.1}s, NashConv {:.6} chips/game ({:.3} \
         mbb/game)\nper seat, best response against the others / the profile's value: {}\npeak \
         memory {} (estimated {:.1} MiB)",
        r.game,
        r.algorithm,
        r.seats,
        r.iterations,
        r.seconds,
        r.nash_conv,
        r.nash_conv_mbb,
        (r.best_response.iter().zip(&r.on_policy))
            .enumerate()
            .map(|(s, (b, v))| format!("{} {b:.6} / {v:.6}", seat_name(s)))
            .collect::<Vec<_>>()
            .join(", "),
        peak(status_bytes("VmHWM")),
        mib(r.estimate_bytes),
    );
    println!("policy: {}\ncheckpoint: {}", r.out, r.checkpoint);
}

fn sampled(r: &Sampled) {
    println!(
        "{} ({} seats) {} ({}): {} iterations of {} traversals in {:.1}s ({:.0} traversals/s \
         while iterating, {} threads)\nNashConv: not computable for this game\npeak memory {} \
         (estimated {:.1} MiB)\nstrategy: {} ({:.1} MiB)\ncheckpoint: {}",
        r.game,
        r.seats,
        r.describe,
        r.abstraction,
        r.iterations,
        r.batch,
        r.seconds,
        r.traversals_per_second,
        r.threads,
        peak(r.peak_bytes),
        mib(r.estimate_bytes),
        r.out,
        mib(r.file_bytes as usize),
        r.checkpoint,
    );
}

fn split(r: &Split) {
    let join = |v: &[f64], digits: usize| {
        v.iter()
            .map(|x| format!("{x:.digits$}"))
            .collect::<Vec<_>>()
            .join(", ")
    };
    println!(
        "{} {} ({}) over {} ranks: {} iterations of {} deals in {:.1}s ({:.0} deals/s while \
         iterating)\nexploitability: {}\nreceived per batch by rank: {} bytes; in collectives: \
         {} s\nstrategy: {} ({:.1} MiB)\ncheckpoints: {}",
        r.game,
        r.solver,
        r.abstraction,
        r.ranks,
        r.iterations,
        r.batch,
        r.seconds,
        r.deals_per_second,
        match (r.exploitability, r.exploitability_mbb) {
            (Some(c), Some(m)) => format!("{c:.6} chips/game ({m:.3} mbb/game)"),
            _ => r.not_measured.clone().unwrap_or_default(),
        },
        join(&r.received_bytes_per_batch, 0),
        join(&r.communication_seconds, 3),
        r.out,
        mib(r.file_bytes as usize),
        r.checkpoint,
    );
}
