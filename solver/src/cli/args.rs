//! The flags several commands share, each declared once. A command takes one by a single line
//! in its `Args`, `#[command(flatten)] pub game: args::Game`, and reads it through the group
//! (`args.game.load()`, `args.output.json`, `args.random.seed`, `args.pool.start()`). A command
//! whose default differs says so in one line too:
//! `#[command(mut_arg("game", |a| a.default_value("ministud")))]`, and one whose help differs
//! gives it there too (`--algorithm`: `a.default_value("cfr+").help(...)`), so that its
//! `--help` says its own default.

use abstraction::multiway_betting::{MultiwayCap, WithinStreet};
use abstraction::multiway_deal::MultiwayView;
use abstraction::named::Named;
use abstraction::rules::GameDef;
use anyhow::{bail, Context, Result};
use solver::cfr::Algorithm;
use std::time::Duration;

/// The game when a command is not told one (and no strategy file names one).
pub const DEFAULT_GAME: &str = "7stud";

/// `--game`.
#[derive(clap::Args, Debug, Clone)]
pub struct Game {
    /// The game: a preset (kuhn, leduc, ministud, yardstud, 7stud, stud8, razz, 5stud; for
    /// three to eight players kuhn-3p .. kuhn-8p, leduc-3p .. leduc-8p, tristud, doorstud and 7stud-3p,
    /// stud8-3p, razz-3p, 5stud-3p .. -8p, which only `stud solve` plays yet) or a TOML game file. Default: the game a strategy file records where one is given, else 7stud.
    #[arg(id = "game", long = "game", value_name = "GAME", value_parser = game_name)]
    given: Option<String>,
}

/// `--game`: a preset in its one spelling (`Razz` is `razz`, so that the files a solve names
/// after it and every report spell it alike), refused at once if there is no such preset; a game
/// file's path as given.
fn game_name(text: &str) -> Result<String> {
    if solver::input::is_game_file(text) {
        return Ok(text.to_string());
    }
    let preset = text.to_ascii_lowercase();
    GameDef::preset(&preset)?;
    Ok(preset)
}

impl Game {
    /// The game as given, `None` when it was not (nor defaulted by the command).
    pub fn given(&self) -> Option<&str> {
        self.given.as_deref()
    }

    /// The game as given, else [`DEFAULT_GAME`].
    pub fn name(&self) -> &str {
        self.given().unwrap_or(DEFAULT_GAME)
    }

    /// The game's definition: a preset, or a TOML game file ([`solver::input::load_game`]).
    pub fn load(&self) -> Result<GameDef> {
        solver::input::load_game(self.name())
    }
}

/// `--algorithm`. Each command gives its default and help by `mut_arg` (the commands that solve
/// differ: `stud solve` picks one per back end, `stud eval ladder` defaults to cfr+, `stud eval
/// multiway`'s sampled solver to linear).
#[derive(clap::Args, Debug, Clone, Copy)]
pub struct Cfr {
    /// The member of the CFR family: cfr+ (regret matching+, linear averaging), linear (regret
    /// matching, regrets and average weighted by the iteration), dcfr (1.5, 0, 2; walkable
    /// games) or cfr.
    #[arg(id = "algorithm", long = "algorithm", value_name = "ALGORITHM", value_parser = Algorithm::parse)]
    given: Option<Algorithm>,
}

impl Cfr {
    /// The algorithm as given (or defaulted by the command), else `default`.
    pub fn or(&self, default: Algorithm) -> Algorithm {
        self.given.unwrap_or(default)
    }
}

/// `--json`.
#[derive(clap::Args, Debug, Clone, Copy)]
pub struct Output {
    /// Print JSON for a program to read (one object per line where there are several) instead
    /// of text and progress bars.
    #[arg(long)]
    pub json: bool,
}

/// `--seed`.
#[derive(clap::Args, Debug, Clone, Copy)]
pub struct Random {
    /// The seed of the random draws (deals, sampled actions, chance samples): the same seed
    /// gives the same result.
    #[arg(long, default_value_t = 0)]
    pub seed: u64,
}

/// `--threads`.
#[derive(clap::Args, Debug, Clone, Copy)]
pub struct Threads {
    /// Worker threads (default: all cores). The result is the same for any number.
    #[arg(long)]
    pub threads: Option<usize>,
}

impl Threads {
    /// The worker pool of `--threads N` (all cores when not given): the one place the commands
    /// that solve start their threads.
    pub fn start(&self) -> Result<rayon::ThreadPool> {
        self.builder()?
            .build()
            .context("starting the worker threads")
    }

    /// The pool of [`Threads::start`] as rayon's global pool: for a split solve, whose MPI
    /// calls must stay on the main thread (the one that initialized MPI), outside any pool.
    #[cfg(feature = "mpi")]
    pub fn start_global(&self) -> Result<usize> {
        self.builder()?
            .build_global()
            .context("starting the worker threads")?;
        Ok(rayon::current_num_threads())
    }

    fn builder(&self) -> Result<rayon::ThreadPoolBuilder> {
        let threads = self
            .threads
            .unwrap_or_else(|| std::thread::available_parallelism().map_or(1, |n| n.get()));
        if threads == 0 {
            bail!("--threads must be at least 1");
        }
        Ok(rayon::ThreadPoolBuilder::new().num_threads(threads))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use clap::Parser;

    #[derive(Parser, Debug)]
    #[command(mut_arg("game", |a| a.default_value("ministud")))]
    struct WithDefault {
        #[command(flatten)]
        game: Game,
        #[command(flatten)]
        output: Output,
    }

    #[derive(Parser, Debug)]
    struct Plain {
        #[command(flatten)]
        game: Game,
        #[command(flatten)]
        random: Random,
        #[command(flatten)]
        pool: Threads,
    }

    #[test]
    fn a_group_is_one_line_and_a_command_may_give_its_own_default() {
        let p = Plain::try_parse_from(["x"]).unwrap();
        assert_eq!((p.game.given(), p.game.name()), (None, DEFAULT_GAME));
        assert_eq!((p.random.seed, p.pool.threads), (0, None));
        let p = Plain::try_parse_from(["x", "--game", "razz", "--seed", "7"]).unwrap();
        assert_eq!((p.game.name(), p.random.seed), ("razz", 7));
        let p = Plain::try_parse_from(["x", "--game", "Razz-3P"]).unwrap();
        assert_eq!(p.game.name(), "razz-3p");
        let e = Plain::try_parse_from(["x", "--game", "rasz"]).unwrap_err();
        assert!(e.to_string().contains("rasz"), "{e}");
        let d = WithDefault::try_parse_from(["x", "--json"]).unwrap();
        assert_eq!((d.game.given(), d.output.json), (Some("ministud"), true));
        let e = Plain::try_parse_from(["x", "--threads", "0"]).unwrap();
        assert!(e.pool.start().is_err());
    }

    #[derive(Parser, Debug)]
    #[command(mut_arg("algorithm", |a| a.default_value("linear").help("Its own help.")))]
    struct AlgorithmDefault {
        #[command(flatten)]
        algorithm: Cfr,
    }

    #[derive(Parser, Debug)]
    struct AlgorithmPlain {
        #[command(flatten)]
        algorithm: Cfr,
    }

    #[test]
    fn algorithm_is_declared_once_and_each_command_gives_its_default_and_help() {
        let p = AlgorithmPlain::try_parse_from(["x"]).unwrap();
        assert_eq!(p.algorithm.or(Algorithm::Cfr), Algorithm::Cfr);
        let p = AlgorithmPlain::try_parse_from(["x", "--algorithm", "dcfr"]).unwrap();
        assert_eq!(p.algorithm.or(Algorithm::Cfr), Algorithm::DCFR);
        let e = AlgorithmPlain::try_parse_from(["x", "--algorithm", "cfr++"]).unwrap_err();
        assert!(e.to_string().contains("cfr++"), "{e}");
        let d = AlgorithmDefault::try_parse_from(["x"]).unwrap();
        assert_eq!(d.algorithm.or(Algorithm::Cfr), Algorithm::Linear);
        let d = AlgorithmDefault::try_parse_from(["x", "--algorithm", "cfr+"]).unwrap();
        assert_eq!(d.algorithm.or(Algorithm::Cfr), Algorithm::CfrPlus);
        let help = <AlgorithmDefault as clap::CommandFactory>::command()
            .render_help()
            .to_string();
        assert!(help.contains("Its own help. [default: linear]"), "{help}");
    }
}

/// `--abstraction-dir`.
#[derive(clap::Args, Debug, Clone)]
pub struct Cache {
    /// The folder of the bucketing cache files (built there when missing).
    #[arg(long, default_value = "abstractions")]
    pub abstraction_dir: std::path::PathBuf,
}

/// `--batch`, `--view`, `--within-street`: the sampled multiway solver's flags that `stud solve`
/// and `stud eval multiway` share. In `stud solve` they belong to the groups of the back ends
/// they apply to, joined at run time (`cli::solve::join_groups`): a flattened struct's
/// arguments cannot join the enclosing struct's derived group (clap-rs/clap#4697).
#[derive(clap::Args, Debug, Clone, Default)]
pub struct Sampled {
    /// Real games: deals sampled per iteration (three or more seats: traversals, at least one
    /// per seat).
    #[arg(long)]
    pub batch: Option<usize>,
    /// Three or more seats: how a seat's bucket sees the other seats' up cards: table (the
    /// default: every live opponent's, the folded seats' as dead cards, a bucketing per number
    /// of live seats) or best-opponent (only the best showing live opponent's, the first
    /// multiway files' view, and the default where the deck cannot deal the table view's
    /// rollouts: eight seats of the seven-card games; docs/notes/multiway.md, "The card
    /// abstraction of an N-seat view", measures both).
    #[arg(long, value_parser = MultiwayView::parse_or_list)]
    pub view: Option<MultiwayView>,
    /// Three or more seats: what a decision recalls of its street's betting: history (the
    /// default below eight seats: every order of actions its own decision) or position (the
    /// default at eight, whose histories are too many: the orders that reach the same betting
    /// position share a row: 1.8 to 9.9 times fewer rows for 3 to 8 seats;
    /// docs/notes/multiway.md, "Recall within a street", measures it).
    #[arg(long, value_parser = WithinStreet::parse_or_list)]
    pub within_street: Option<WithinStreet>,
    /// Three or more seats: a raise cap for multiway pots, BETS@SEATS: at most BETS bets a round
    /// (the opening bet or completion included) on a street begun by SEATS or more live seats,
    /// the game's own cap on the others. `2@6` makes eight-handed `small` a 27 MiB file at
    /// `--rows 4bit` (docs/notes/multiway.md, "A cap for multiway pots"). The real game keeps
    /// its cap: the file's player takes a raise past the abstract cap as the call, and calls
    /// when it acts again on that street. Recorded in the file and the checkpoint.
    #[arg(long, value_parser = MultiwayCap::parse)]
    pub multiway_cap: Option<MultiwayCap>,
}

/// A positive number of seconds (fractions allowed), as the timeouts take it
/// (`stud serve --idle-timeout`, `stud explore --read-timeout`).
pub fn seconds(s: &str) -> Result<Duration, String> {
    let x: f64 = s
        .parse()
        .map_err(|_| format!("`{s}` is not a number of seconds"))?;
    if x.is_nan() || x <= 0.0 {
        return Err(format!("{s} s: a timeout must be more than 0 seconds"));
    }
    Duration::try_from_secs_f64(x).map_err(|_| format!("{s} s: too long a timeout"))
}
