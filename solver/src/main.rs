//! `stud`: the one binary of the project. Each subcommand lives in `solver::cli`.

use clap::{Parser, Subcommand};

/// A game-theory-optimal solver for fixed-limit stud poker.
#[derive(Parser)]
#[command(name = "stud", version, about, long_about = None)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {}

fn main() -> std::process::ExitCode {
    let cli = Cli::parse();
    match cli.command {}
}
