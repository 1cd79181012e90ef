//! `stud`: the one binary of the project. Each subcommand lives in `solver::cli`.

use clap::{Parser, Subcommand};
use std::process::ExitCode;

/// A game-theory-optimal solver for fixed-limit stud poker.
#[derive(Parser)]
#[command(name = "stud", version, about, long_about = None)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// Replay a PHH hand history, checking every action against the rules.
    Replay(solver::cli::replay::Args),
    /// Write random legal hands as PHH files.
    Simulate(solver::cli::simulate::Args),
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    let result = match cli.command {
        Command::Replay(a) => solver::cli::replay::run(a),
        Command::Simulate(a) => solver::cli::simulate::run(a),
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("error: {e:#}");
            ExitCode::FAILURE
        }
    }
}
