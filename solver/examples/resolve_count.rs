//! One seventh-street (or sixth-street) re-solve with no blueprint lookups, for counting its
//! instructions (`valgrind --tool=callgrind`) and checking its bits: a hand of seven-card stud
//! dealt from a seed and checked and called by both seats to the root street's first decision,
//! the subgame built with [`AlwaysCall`] as the blueprint (its ranges: every holding alike, so
//! that the replay looks no bucket up), solved for N DCFR iterations (the walk of the player's
//! re-solve) and measured by the report's best responses.
//!
//! `cargo run --release -p solver --example resolve_count -- [ITERATIONS] [SEED] [REPORT]
//! [STREETS]` (defaults: 30, 1, `yes`, 1). STREETS 2 re-solves the last two streets from sixth
//! street's first decision (the seventh card private chance, as `FILE:resolve2`). Prints the
//! report (REPORT `no`: only its cost, what a player in a match waits for, without the best
//! responses) and an FNV-1a checksum of the regrets' and averages' bits, which a change meant
//! to be exact must leave as it was.

use abstraction::fnv::fnv1a;
use abstraction::rules::{GameDef, Next, State};
use anyhow::{Context, Result};
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;
use solver::bot::{passive, AlwaysCall};
use solver::resolve::{Budget, Options, Subgame};

fn main() -> Result<()> {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let iterations: u64 = args.first().map_or(Ok(30), |s| s.parse())?;
    let seed: u64 = args.get(1).map_or(Ok(1), |s| s.parse())?;
    let report = args.get(2).is_none_or(|s| s == "yes");
    let streets: usize = args.get(3).map_or(Ok(1), |s| s.parse())?;
    anyhow::ensure!(
        (1..=2).contains(&streets),
        "STREETS is 1 (seventh street) or 2 (sixth and seventh), not {streets}"
    );
    let def = GameDef::preset("7stud")?;
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let mut st = State::new(&def)?;
    let mut bets = Vec::new();
    let root = def.streets.len() - streets;
    loop {
        match st.next() {
            Next::Deal { .. } => {
                st.deal_random(&mut rng)?;
            }
            Next::Act { .. } if st.street() == root => break,
            Next::Act { .. } => {
                let legal = st.legal_actions();
                let a = legal[passive(&legal)];
                bets.push((st.street(), a));
                st.apply(a)?;
            }
            Next::Over => anyhow::bail!("seed {seed}: the hand ended before the last street"),
        }
    }
    let sub = Subgame::at_street(&AlwaysCall, &st, &bets, root, Options::default())?;
    let solved = sub
        .solve(Budget::Iterations(iterations), None)
        .context("the re-solve")?;
    let s = &solved.solver;
    let bits: Vec<u8> = (s.regrets.iter().chain(&s.average))
        .flat_map(|x| x.to_bits().to_le_bytes())
        .collect();
    let fnv = format!("{:016x}", fnv1a(&bits));
    match report {
        true => println!(
            "{}",
            serde_json::json!({"report": solved.report(&sub), "fnv": fnv})
        ),
        false => println!("{}", serde_json::json!({"fnv": fnv})),
    }
    Ok(())
}
