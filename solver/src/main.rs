//! `stud`: the one binary of the project. Each subcommand lives in [`cli`], over the `solver`
//! library.

use clap::{CommandFactory, FromArgMatches, Parser, Subcommand};
use std::process::ExitCode;

mod cli;

/// A game-theory-optimal solver for fixed-limit stud poker.
#[derive(Parser)]
#[command(name = "stud", version)]
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
    /// Replay a PHH hand history, checking every action against the rules.
    Replay(cli::replay::Args),
    /// Write random legal hands as PHH files.
    Simulate(cli::simulate::Args),
    /// Play two bots or strategies against each other on duplicate deals.
    #[command(name = "match")]
    Match(cli::matches::Args),
    /// Serve a bot or strategy over a JSON line protocol (stdin/stdout or TCP).
    Serve(cli::serve::Args),
    /// Play heads-up against a bot or strategy in the terminal.
    Play(cli::play::Args),
    /// Measure a strategy: local best response (lbr), or the card abstraction (ladder).
    Eval(cli::eval::Args),
    /// Write an HTML report of a strategy: convergence, first-round play, results.
    Report(cli::report::Args),
    /// Solve a game (CFR+, DCFR or CFR) and write a strategy file.
    Solve(cli::solve::Args),
    /// Print a strategy file's header.
    Info(cli::info::Args),
    /// Print the strategy's action probabilities at a spot.
    Query(cli::query::Args),
    /// Write a multiway strategy file again with its rows in another encoding (4 or 8 bits).
    Convert(cli::convert::Args),
    /// Write a real game's whole strategy as JSON Lines or CSV: every node and bucket.
    Export(cli::export::Args),
    /// Browse a real game's strategy in a local web page: the tree by street, hand-class charts.
    Explore(cli::explore::Args),
    /// Review a player's decisions in PHH hand histories against the strategy: leaks, losses, a page.
    Review(cli::review::Args),
    /// Show third street of a strategy at once, door card against door card: grids, CSV, SVG.
    Aggregate(cli::aggregate::Args),
    /// Print a shell's completion script for stud (bash, zsh, fish, elvish, powershell).
    Completions(cli::completions::Args),
    /// Print stud's manual page (roff), or a subcommand's.
    Man(cli::completions::ManArgs),
}

/// Prints an error with its causes and turns it into a failing exit code.
fn report(result: anyhow::Result<()>) -> ExitCode {
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("error: {e:#}");
            ExitCode::FAILURE
        }
    }
}

/// Lets a closed pipe end the program quietly, as it does for any Unix tool (`stud solve --json |
/// head`), instead of making the next `println!` panic.
fn exit_quietly_on_broken_pipe() {
    #[cfg(unix)]
    // SAFETY: called first thing in `main`, before any other thread exists; SIG_DFL is a valid
    // disposition for SIGPIPE.
    unsafe {
        libc::signal(libc::SIGPIPE, libc::SIG_DFL);
    }
}

/// Lets a file-size limit (`ulimit -f`) fail the write that passes it, with an error naming the
/// file (and the partial file removed), instead of killing the process with SIGXFSZ halfway
/// through writing a checkpoint.
fn fail_writes_past_the_file_size_limit() {
    #[cfg(unix)]
    // SAFETY: called first thing in `main`, before any other thread exists; SIG_IGN is a valid
    // disposition for SIGXFSZ.
    unsafe {
        libc::signal(libc::SIGXFSZ, libc::SIG_IGN);
    }
}

/// The command line, a negative number taken as the value it is wherever a flag takes one: `--hands
/// -5` is refused as an invalid count instead of being mistaken for a flag named `-5`.
fn command() -> clap::Command {
    fn negatives_are_values(c: clap::Command) -> clap::Command {
        c.mut_args(|a| {
            let takes_value = a.get_action().takes_values();
            a.allow_negative_numbers(takes_value)
        })
        .mut_subcommands(negatives_are_values)
    }
    negatives_are_values(Cli::command().mut_subcommand("solve", cli::solve::join_groups))
}

fn main() -> ExitCode {
    exit_quietly_on_broken_pipe();
    fail_writes_past_the_file_size_limit();
    let cli = match Cli::from_arg_matches(&command().get_matches()) {
        Ok(cli) => cli,
        Err(e) => e.exit(),
    };
    match cli.command {
        // `hand` reports each bad line itself and still evaluates the rest.
        Command::Hand(a) => cli::hand::run(&a),
        Command::Abstraction(a) => report(cli::abstraction::run(&a)),
        Command::Replay(a) => report(cli::replay::run(a)),
        Command::Simulate(a) => report(cli::simulate::run(a)),
        Command::Match(a) => report(cli::matches::run(a)),
        Command::Serve(a) => report(cli::serve::run(a)),
        Command::Play(a) => report(cli::play::run(a)),
        Command::Eval(a) => report(cli::eval::run(a)),
        Command::Report(a) => report(cli::report::run(a)),
        Command::Solve(a) => report(cli::solve::run(a)),
        Command::Info(a) => report(cli::info::run(a)),
        Command::Query(a) => report(cli::query::run(a)),
        Command::Convert(a) => report(cli::convert::run(a)),
        Command::Export(a) => report(cli::export::run(a)),
        Command::Explore(a) => report(cli::explore::run(a)),
        Command::Aggregate(a) => report(cli::aggregate::run(a)),
        Command::Review(a) => report(cli::review::run(a)),
        Command::Completions(a) => report(cli::completions::completions(&a, command())),
        Command::Man(a) => report(cli::completions::man(&a, command())),
    }
}
