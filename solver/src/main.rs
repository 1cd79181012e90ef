//! `stud`: the one binary of the project. Each subcommand lives in `solver::cli`.

use clap::{Parser, Subcommand};
use solver::cli;

/// A game-theory-optimal solver for fixed-limit stud poker.
#[derive(Parser)]
#[command(name = "stud", version, about, long_about = None)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// Evaluate hands of 5 to 7 cards: high hand, eight-or-better low and razz low.
    Hand(cli::hand::Args),
    /// Build the card abstraction (buckets) of a stud game, or show the bucket of a hand.
    #[command(subcommand)]
    Abstraction(cli::abstraction::Command),
}

fn main() -> std::process::ExitCode {
    let cli = Cli::parse();
    match cli.command {
        Command::Hand(args) => cli::hand::run(&args),
        Command::Abstraction(cmd) => cli::abstraction::run(&cmd),
    }
}
