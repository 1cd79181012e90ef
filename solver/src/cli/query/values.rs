//! `stud query --values`: the value of each legal action at a decision of a real-game file
//! (heads-up or multiway), for `--hand` and by hand class ([`solver::values`] finds them and
//! [`solver::query::values`] answers at a spot; this draws the progress and prints).

use super::rows::print_aligned;
use super::spot::Step;
use super::Args;
use abstraction::rules::seat_name;
use anyhow::Result;
use serde_json::Value;
use solver::query::file;
use solver::strategy_file::StrategyFile;
use solver::values::Options;

/// Runs `stud query --values` on `f` (opened from `args.file`).
pub(super) fn run(f: &StrategyFile, args: &Args, steps: &[Step]) -> Result<()> {
    let seats = usize::from(f.game().seats);
    let options = Options {
        samples: args
            .samples
            .map_or_else(|| solver::values::default_samples(seats), |n| n as usize),
        seed: args.seed,
    };
    let bar = crate::cli::deals_bar(0);
    bar.set_style(
        indicatif::ProgressStyle::with_template(
            "{spinner} [{elapsed_precise}] {bar:30} {pos}/{len} {msg}, {eta} left",
        )
        .expect("a valid template"),
    );
    let v = file::values(
        f,
        &args.file,
        None,
        steps,
        args.hand.as_deref(),
        options,
        &|unit, done, all| {
            bar.set_message(unit);
            bar.set_length(all as u64);
            bar.set_position(done as u64);
        },
    );
    bar.finish_and_clear();
    let v = v?;
    if args.output.json {
        println!("{v}");
    } else {
        print_values(&v);
    }
    Ok(())
}

/// Runs `stud query F.json SPOT --values` on the exact multiway solver's policy at
/// `args.file`; refuses the other questions, which a policy does not answer.
pub(super) fn run_policy(args: &Args, steps: &[Step]) -> Result<()> {
    if !args.values || args.resolve || args.ranges || args.play.is_some() {
        anyhow::bail!(
            "{}: an exact multiway policy (JSON) answers --values only; its rows are in the file \
             itself, by information set",
            args.file.display()
        );
    }
    let policy = solver::strategy_file::policy::Policy::open(&args.file)?;
    let v = solver::query::policy::values_json(&policy, steps, args.hand.as_deref())?;
    if args.output.json {
        println!("{v}");
    } else {
        print_values(&v);
    }
    Ok(())
}

/// A value and its interval, in chips (`+1.25 ±0.40`).
fn cell(x: &Value, pm: &Value, a: usize) -> String {
    let c = x[a].as_f64().unwrap_or(f64::NAN);
    match pm[a].as_f64() {
        Some(p) => format!("{c:+.2} ±{p:.2}"),
        None => format!("{c:+.2}"),
    }
}

/// Prints the JSON answer as text: the spot, the hand's values action by action in chips and
/// big bets, then the range and each class in chips.
fn print_values(v: &Value) {
    let names: Vec<String> = (v["action_names"].as_array().into_iter().flatten())
        .map(|x| x.as_str().unwrap_or("").to_string())
        .collect();
    let seat = seat_name(v["seat"].as_u64().unwrap_or(0) as usize);
    println!(
        "{seat} to act on {}; pot {}, {seat} has put in {} (a big bet is {} chips)",
        v["street_name"].as_str().unwrap_or(""),
        v["pot"],
        v["committed"],
        v["big_bet"]
    );
    print_method(v);
    let seats = v["seats"].as_u64().unwrap_or(2);
    let empty = Vec::new();
    if let Some(h) = v["hand"].as_object() {
        println!();
        println!("with {}:", h["cards"].as_str().unwrap_or(""));
        let cells: Vec<Vec<String>> = (0..names.len())
            .map(|a| {
                let bb = cell(&h["big_bets"], &h["plus_minus_big_bets"], a);
                vec![
                    names[a].clone(),
                    cell(&h["chips"], &h["plus_minus"], a),
                    format!("{bb} big bets"),
                ]
            })
            .collect();
        let head = ["action", "chips", "big bets"].map(String::from).to_vec();
        print_aligned(&head, &cells, &[0]);
    }
    if v["range"].is_null() {
        println!();
        println!(
            "(the {} dealt this hand only: without --hand, the range and each class)",
            if v["method"] == "exact" {
                "walk"
            } else {
                "estimate"
            }
        );
        return;
    }
    println!();
    println!(
        "by hand class (the player's holdings of each class, weighed by {}):",
        if seats > 2 {
            "every seat's range"
        } else {
            "both ranges"
        }
    );
    let mut head = vec!["hand class".to_string(), "holds".into(), "share".into()];
    head.extend(names.iter().cloned());
    let row = |name: String, holds: String, share: String, l: &Value| {
        let mut c = vec![name, holds, share];
        c.extend((0..names.len()).map(|a| cell(&l["chips"], &l["plus_minus"], a)));
        c
    };
    let mut cells = vec![row(
        "the whole range".into(),
        "".into(),
        "1.000".into(),
        &v["range"],
    )];
    for c in v["classes"].as_array().unwrap_or(&empty) {
        let mut name = c["class"].as_str().unwrap_or("").to_string();
        if c["reached"] == false {
            name.push_str(" (unreached)");
        }
        let share = format!("{:.3}", c["share"].as_f64().unwrap_or(0.0));
        cells.push(row(name, c["holdings"].to_string(), share, c));
    }
    print_aligned(&head, &cells, &[0]);
    let unsampled = v["classes_unsampled"].as_u64().unwrap_or(0);
    if unsampled > 0 {
        println!(
            "{unsampled} more classes met in fewer than 2 samples: ask more with --samples, or \
             one hand with --hand"
        );
    }
}

/// The line saying how the values were found: exact or estimated, heads-up or at a table.
fn print_method(v: &Value) {
    let seats = v["seats"].as_u64().unwrap_or(2);
    if seats > 2 && v["method"] == "exact" {
        println!(
            "values from here in chips (a fold is worth 0), exact: every deal of every seat's \
             down cards and of the cards to come, each weighed by the seats' play to here, \
             every seat playing the file to the end"
        );
    } else if seats > 2 {
        let live: Vec<String> = (v["live"].as_array().into_iter().flatten())
            .map(|s| seat_name(s.as_u64().unwrap_or(0) as usize).to_string())
            .collect();
        println!(
            "values from here in chips (a fold is worth 0), estimated: {} deals of every \
             seat's down cards from its range (seats live: {}) and of the cards to come (seed \
             {}), every seat playing the file to the end; ± a 95% interval",
            v["samples"],
            live.join(" "),
            v["seed"]
        );
    } else if v["method"] == "exact" {
        println!(
            "values from here in chips (a fold is worth 0), exact: every holding of both seats \
             and every card to come, both seats playing the file to the end"
        );
    } else {
        println!(
            "values from here in chips (a fold is worth 0), estimated: {} deals of the unknown \
             cards (seed {}), both seats playing the file to the end; ± a 95% interval",
            v["samples"], v["seed"]
        );
    }
}
