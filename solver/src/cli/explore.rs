//! `stud explore`: browse a real game's strategy in a web page served on this machine's loopback
//! (see [`server`]).

mod compare;
mod server;
mod table;
mod train;

use anyhow::{Context, Result};
use server::Explorer;
use solver::strategy_file::StrategyFile;
use std::io::Write;
use std::net::TcpListener;
use std::path::PathBuf;
use std::time::Duration;

/// Arguments of `stud explore`.
#[derive(clap::Args, Debug)]
#[command(after_help = "Examples (the shipped strategies):\n  \
    stud explore strategies/7stud-hu.strat\n  \
    stud explore strategies/razz-hu.strat --port 0\n  \
    stud explore strategies/7stud-hu.strat --diff strategies/7stud-hu.strat\n  \
    stud explore strategies/7stud-3p.strat\n  \
    stud explore strategies/7stud-5p.strat --port 0\n  \
    stud explore strategies/7stud-3p.strat --diff strategies/7stud-3p.strat\n  \
    stud explore strategies/razz-hu.strat --port 0 --read-timeout 30\n\n\
    Then open the address it prints. The page deals the up cards street by street (pick them \
    or draw at random), shows the strategy of the player to act by hand class and by bucket, \
    each seat's range reaching the node (the probability of the betting so far by hand class \
    and by bucket), the pot and the pot odds, and the `stud query --ranges` command of the node; click an action to go \
    on, a step of the history to go back. The address with #spot=3c%208d%20pb opens a spot. \
    The Train tab deals a spot from a seed (#train=SEED): pick an action, and the page shows the \
    strategy's frequencies with your cards, each action's value and what your pick lost, and keeps \
    a score. With --diff B (a file of the same game, abstraction and tree: a locked or longer \
    solve) each decision shows B's strategy beside the file's and how much moved. \
    A multiway file (three to eight seats) is walked the same way, every seat's up cards dealt \
    (#spot=3c%208d%20Kh%20pb, as `stud query` writes a table's spot): the seat to act's \
    strategy by hand class and by bucket, each live seat's range by hand class and its \
    likeliest holdings, the values of the actions (every seat's down cards dealt from its \
    range) and --diff; the Train tab is heads-up only. \
    Served on 127.0.0.1 only, to pages of this machine; nothing is fetched from elsewhere.")]
pub struct Args {
    /// The strategy file (a real game's: seven-card stud, razz, hi-lo, five-card stud; heads-up
    /// or a table of three to eight seats).
    pub file: PathBuf,
    /// The port on 127.0.0.1 (0: any free port; the address is printed).
    #[arg(long, default_value_t = 8150)]
    pub port: u16,
    /// A strategy file of the same game, abstraction and tree (a locked solve of FILE, a
    /// longer one; multiway if FILE is): each decision shows how its strategy differs from
    /// FILE's.
    #[arg(long, value_name = "B")]
    pub diff: Option<PathBuf>,
    /// Seconds a connection may take to send its whole request head (408 past it, however
    /// slowly its bytes come), and to take the answer.
    #[arg(long, value_name = "SECS", default_value = "5", value_parser = super::args::seconds)]
    pub read_timeout: Duration,
}

/// Runs `stud explore` until it is stopped.
pub fn run(args: Args) -> Result<()> {
    let f = StrategyFile::open(&args.file)?;
    let mut explorer = Explorer::new(f, args.file.display().to_string(), args.read_timeout)?;
    if let Some(b) = &args.diff {
        explorer = explorer.with_diff(StrategyFile::open(b)?, b.display().to_string())?;
    }
    let listener = TcpListener::bind(("127.0.0.1", args.port)).with_context(|| {
        format!(
            "listening on 127.0.0.1:{}: is another program using it? `--port 0` takes any free port",
            args.port
        )
    })?;
    let addr = listener.local_addr()?;
    println!(
        "stud explore: {} on http://{addr}/ (Ctrl-C stops it)",
        args.file.display()
    );
    std::io::stdout().flush()?;
    explorer.serve(&listener)
}
