//! `stud query`: the strategy's action probabilities at a spot.
//!
//! # Spot notation
//! A spot is the public history from the start of the hand: public cards and betting actions in
//! the order they happen, separated by spaces (`|`, `/` and `,` are separators too, for
//! readability). The private cards are not part of the spot: `--hand` names the cards of the
//! player to act, else every hand (or bucket) is listed. An empty spot is the first decision.
//! - A card: `As`, `Td`, `Qc`: the next public card (an up card, p1's before p2's, or a
//!   community card).
//! - PHH actions: `f`, `cc`, `pb`, `cbr N` (or `cbrN`): fold, check/call, post the bring-in,
//!   complete/bet/raise to N chips this round. A PHH seat prefix (`p1`, `p2`) names the seat of
//!   the card or action after it (a public tree's spot reads past it).
//! - Words: `x`/`k`/`check`, `c`/`call`, `fold`, `bi`/`bring-in`, `b`/`r`/`bet`/`raise`/
//!   `complete` (when one bet size is legal there). Every spelling in any case: the one
//!   notation of `abstraction::rules::notation`, which `stud explore` and `stud serve` read too.
//!
//! The real games (betting-tree files) read the same notation, replayed on the rules engine: the
//! spot gives the up cards as they are dealt (on each street seat 0's, then seat 1's) and the
//! betting; down cards are not in the spot. `--hand` gives the cards of the player to act: its
//! down cards (`"As Kd"`, `AsKd`), or the stud notation with the down cards in brackets and the
//! up cards after them (`"(As Kd) 8d"`: the up cards must be the ones the spot dealt that seat);
//! the answer is the row of their bucket. Without `--hand`, the row of every bucket, each with
//! how many holdings of the player to act fall in it and a few of them, looked up in the
//! bucketing the file embeds. The empty spot gives every bucket's row at the first decision
//! (up cards unknown). Each bucket is described as a stud player would (see
//! [`solver::describe`]): its EHS, and the hand classes of the holdings in it, the commonest
//! first with their share (`pair of aces or kings 62%, two pair 21%`; at the empty spot, of a
//! fixed sample of the street's deals; with `--hand`, the hand's own class).
//!
//! Seven-card stud, third street then fourth: `3c 8d pb cc | Qs 2h x b` (seat 0 shows the 3c and
//! brings in, seat 1 calls; on fourth street seat 0 shows the better hand, Q-3, and checks,
//! seat 1 bets; seat 0 to act).
//!
//! Rows the solve never reached hold the uniform row the file stores for them, and are marked
//! `unreached`. A spot past the strategy's raise cap is answered: the abstract game has called
//! there, and so does the strategy.
//!
//! A multiway file (three to eight seats) reads the same notation for its N seats, the up cards
//! p1's first on each street; a seat prefix (`p3 cc`) is checked against the seat it names on
//! every real game. The answer is the row its player plays there: see `solver::query::multiway`.
//!
//! Examples: Leduc `cbr2 cc | Kd | cbr4` (seat 0 bets, seat 1 calls, the king of diamonds comes,
//! seat 0 bets; seat 1 to act); ministud `Ah Kc pb c Qd As` (up cards Ah for seat 0 and Kc for
//! seat 1, seat 1 brings in, seat 0 calls, fourth-street cards; the best showing hand to act).
//!
//! The answers by kind of file, each a module: [`public`], [`betting`], [`multiway`] and (with
//! `--resolve`) [`resolve`], over the spot's parsing and replay ([`spot`]) and the answer's
//! rows and tables ([`rows`]).

pub mod betting;
mod diff;
mod diff_multiway;
mod multiway;
mod public;
mod resolve;
mod rows;
pub mod values;

use anyhow::{bail, Result};
use solver::purify::Purification;
use solver::query::file::{self, Answer, Ask};
pub(crate) use solver::query::spot;
use solver::strategy_file::StrategyFile;
use spot::parse_spot;
use std::path::PathBuf;

/// Arguments of `stud query`.
#[derive(clap::Args, Debug)]
#[command(after_help = "Examples (the shipped strategies):\n  \
    stud query strategies/7stud-hu.strat\n  \
    stud query strategies/7stud-hu.strat \"3c 8d pb\"\n  \
    stud query strategies/7stud-hu.strat \"3c 8d pb\" --hand \"(As Kd) 8d\"\n  \
    stud query strategies/7stud-hu.strat \"3c 8d pb cc | Qs 2h x b\" --hand AsKd --json\n  \
    stud query strategies/razz-hu.strat \"Kc 3d\" --hand \"As 2d\"\n  \
    stud query strategies/7stud-hu.strat \"3c 8d pb cc | Qs 2h x b\" --ranges\n  \
    stud query strategies/7stud-hu.strat \"3c 8d pb cc | Qs 2h x b\" --play threshold=0.15\n  \
    stud query --diff strategies/razz-hu.strat strategies/razz-hu.strat --top 3\n  \
    stud query strategies/7stud-hu.strat \"3c 8d pb\" --hand \"As Kd\" --values\n  \
    stud query strategies/7stud-hu.strat \"3c 8d pb cc | Qs 2h x x | 4d 5h x x | 9c Jd x x\" \
--values --json\n  \
    stud query strategies/7stud-4p.strat:pure \"3c 8d Kh 2s pb\" --hand \"As Ad\"\n  \
    stud query strategies/7stud-hu.strat \"3c 8d pb cc | Qs 2h x x | 4d 5h x x | 9c Jd x x\" \
--hand \"As Kd 2s\" --resolve --iterations 50\n\n\
    A multiway file (three or more seats; the shipped three-handed one):\n  \
    stud query strategies/7stud-3p.strat \"3c 8d Kh pb\" --hand \"As Ad\"\n  \
    stud query strategies/7stud-3p.strat \"p1 3c p2 8d p3 Kh p1 pb p2 f p3 cc | 9h Ts\"\n  \
    stud query strategies/7stud-3p.strat \"3c 8d Kh pb cbr5\" --ranges\n  \
    stud query strategies/7stud-3p.strat \"3c 8d Kh pb\" --hand \"As Ad\" --values\n  \
    stud query strategies/7stud-3p.strat \"3c 8d Kh pb\" --values --samples 500 --json\n  \
    stud query --diff strategies/7stud-3p.strat strategies/7stud-3p.strat --top 3\n\n\
    The exact multiway solver's policy (kuhn-3p, leduc-3p, tristud; the values alone, exact):\n  \
    stud query strategies/kuhn-3p.json \"p1 x p2 b\" --hand Kc --values\n  \
    stud query strategies/kuhn-3p.json \"\" --values --json\n  \
    stud solve --game leduc-3p --iterations 20 --out leduc3.json\n  \
    stud query leduc3.json \"b c c | Qd\" --hand Kc --values\n\n\
    Spot: public cards and actions in order: PHH f, cc, pb, cbr N (cbrN), or the words x, \
    check, c, call, fold, bi, bring-in, b, bet, r, raise, complete, in any case (stud explore's \
    address and stud serve's actions read the same). Seats are p1 to pN. Streets are named as players say them (3rd \
    to 7th street). Rows marked `unreached` are the uniform rows of spots the solve never \
    reached. Each bucket of a real game is described by its EHS (its mean pot share) and the \
    hand classes of the holdings in it, the commonest first. The spot notation in full: \
    docs/guide/query.md.")]
pub struct Args {
    /// The strategy file.
    pub file: PathBuf,
    /// The spot: the public history (empty for the first decision).
    #[arg(default_value = "")]
    pub spot: String,
    /// The cards of the player to act: down cards (`AsKd`, `"As Kd"`), or `"(As Kd) 8d"` with
    /// the up cards after the bracketed down cards (default: every hand or bucket).
    #[arg(long)]
    pub hand: Option<String>,
    /// `--json`.
    #[command(flatten)]
    pub output: super::args::Output,
    /// Re-solve the last street (7th street; 5th in five-card stud), or from a 6th-street spot
    /// the last two (the 7th card private chance), with the real cards, from the ranges the
    /// strategy implies, and print the re-solved policy of `--hand` beside the strategy's (a
    /// real-game file; see docs/notes/resolve.md).
    #[arg(long, requires = "hand")]
    pub resolve: bool,
    /// With --resolve: DCFR iterations of the re-solve (default 100; the same answer every run;
    /// 1 to 100000).
    #[arg(long, requires = "resolve", conflicts_with = "budget_ms",
          value_parser = clap::value_parser!(u64).range(1..=solver::resolve::MAX_ITERATIONS))]
    pub iterations: Option<u64>,
    /// With --resolve: re-solve for this many milliseconds instead of a number of iterations
    /// (1 to 600000: ten minutes).
    #[arg(long, requires = "resolve",
          value_parser = clap::value_parser!(u64).range(1..=solver::resolve::MAX_MILLIS))]
    pub budget_ms: Option<u64>,
    /// With --resolve: re-solve safely, the opponent entering through the re-solving gadget
    /// with its blueprint counterfactual values (docs/notes/resolve.md).
    #[arg(long, requires = "resolve")]
    pub safe: bool,
    /// With --resolve: the least probability by which an action taken weighs a holding in the
    /// ranges (0: Bayes' rule exactly, else 1e-6 to 1; the default was measured,
    /// docs/notes/resolve.md "The floor").
    #[arg(long, requires = "resolve", default_value_t = solver::resolve::DEFAULT_FLOOR,
          value_parser = solver::resolve::parse_floor)]
    pub floor: f64,
    /// Also print the strategy of the player to act by hand class, and each seat's range
    /// reaching the spot: the probability of the betting so far by hand class and by bucket,
    /// by Bayes' rule on the rows as stored (a real game's file, the up cards given; what
    /// `stud explore` shows). On a multiway file: each live seat's range by hand class and its
    /// likeliest holdings, from the replay of the whole table.
    #[arg(long, conflicts_with_all = ["hand", "resolve"])]
    pub ranges: bool,
    /// Print each row as a player plays it: `mixed` (the rows as stored, the default),
    /// `threshold=T` (actions below T dropped, the rest scaled to sum 1) or `pure` (only the
    /// most likely action), as `stud match FILE:PLAY` plays the file (docs/notes/solver.md, "Playing
    /// the average strategy"). `FILE:PLAY` says the same.
    #[arg(long, value_name = "PLAY", conflicts_with_all = ["ranges", "resolve"])]
    pub play: Option<Purification>,
    /// Print the value of each legal action, in chips and big bets from here, for `--hand`
    /// and by hand class, both seats playing the file (rows as stored) from the ranges that
    /// `--ranges` shows: exact on 6th and 7th street (the rest of the hand walked), else
    /// estimated by deals of the unknown cards, with a 95% interval (a real-game file; on a
    /// multiway file estimated, every seat's down cards dealt from its range, every seat
    /// playing the file, but exact where every deal can be walked: doorstud, as in `stud solve
    /// --game doorstud --abstraction 16 --iterations 20 --out door.strat` then `stud query
    /// door.strat "Jc Qd Kc" --values`).
    #[arg(long, conflicts_with_all = ["ranges", "resolve", "play"])]
    pub values: bool,
    /// With --values, where estimated: deals of the unknown cards, each playing every action
    /// (2 to 1000000; default 2000 heads-up and at three seats, at a bigger table 2000 × 9 /
    /// seats², rounded to hundreds: a sample costs about the square of the seats).
    #[arg(long, requires = "values",
          value_parser = clap::value_parser!(u64)
              .range(solver::values::MIN_SAMPLES as u64..=solver::values::MAX_SAMPLES as u64))]
    pub samples: Option<u64>,
    /// With --values, where estimated: the seed of the deals (the same seed, the same values
    /// on any number of threads).
    #[arg(long, requires = "values", default_value_t = 1)]
    pub seed: u64,
    /// `--diff A B` (or `B --diff A`): compare two strategy files of the same game,
    /// abstraction and tree (the solve a lock changed, then the locked solve): how every row
    /// moved from A to B, the biggest moves first (two multiway files: by street and position
    /// first, each row's street, pot and betting in words).
    #[arg(long, value_name = "A", conflicts_with_all = ["hand", "resolve", "ranges", "play", "values"])]
    pub diff: Option<PathBuf>,
    /// With --diff: how many rows to print, the biggest moves (0: all).
    #[arg(long, requires = "diff", default_value_t = 20)]
    pub top: usize,
}

/// `args` with a `FILE:PLAY` suffix (as `stud match` and `serve` read a player,
/// [`solver::players::play_spec`]) moved to `--play`: where no file has the name as given and
/// what follows its last `:` is a way of playing (`mixed`, `threshold=T`, `pure`).
fn split_play(mut args: Args) -> Result<Args> {
    let Some(given) = args.file.to_str().map(str::to_owned) else {
        return Ok(args);
    };
    let Some(parsed) = solver::players::play_spec(&given) else {
        return Ok(args);
    };
    let (file, play) = parsed?;
    if args.play.is_some() {
        bail!("{given}: the way of playing is given twice (FILE:PLAY and --play): give one");
    }
    if args.ranges || args.resolve || args.values {
        bail!(
            "{given}: --ranges, --resolve and --values read the rows as stored; drop `:{play}` (or use \
             --play without them)"
        );
    }
    args.file = PathBuf::from(file);
    args.play = Some(play);
    Ok(args)
}

/// Runs `stud query`.
pub fn run(args: Args) -> Result<()> {
    if let Some(a) = &args.diff {
        if !args.spot.is_empty() {
            bail!(
                "--diff compares whole files: give no spot ({:?})",
                args.spot
            );
        }
        return diff::run(a, &args.file, args.top, args.output.json);
    }
    let args = split_play(args)?;
    let steps = parse_spot(&args.spot)?;
    if solver::strategy_file::policy::is_policy_file(&args.file) {
        return values::run_policy(&args, &steps);
    }
    let f = StrategyFile::open(&args.file)?;
    if args.values {
        return values::run(&f, &args, &steps);
    }
    if args.resolve {
        return resolve::run(&f, &args, &steps);
    }
    let ask = Ask {
        hand: args.hand.as_deref(),
        play: args.play,
        ranges: args.ranges,
    };
    let a = file::answer(&f, &args.file, None, ask, &steps)?;
    if args.output.json {
        println!("{}", a.json());
        return Ok(());
    }
    let every = args.hand.is_none();
    match (&f, a) {
        (_, Answer::Public(a)) => public::print_answer(&a),
        (StrategyFile::Betting(b), Answer::Betting(a)) => betting::print_answer(b, a, every),
        (StrategyFile::Multiway(m), Answer::Multiway(a, r)) => {
            multiway::print(m, a, r.as_ref(), every)
        }
        _ => bail!(
            "{}: the answer is not of the file's kind",
            args.file.display()
        ),
    }
    Ok(())
}
