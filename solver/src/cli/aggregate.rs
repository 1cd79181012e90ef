//! `stud aggregate`: a street of a heads-up strategy at once. The first street (3rd; 2nd in
//! five-card stud) door card against door card ([`solver::aggregate`] finds the frequencies; this prints them as grids, CSV or
//! JSON, and draws them as an SVG chart); a later street (`--street`) by hand class against
//! board, printed by [`super::aggregate_later`].

use super::aggregate_later as later;
use anyhow::{Context, Result};
use solver::aggregate::later::later_street;
use solver::aggregate::{third_street, Cell, Spot, ThirdStreet, ACTIONS};
use solver::bot::StrategyPlayer;
use solver::purify::Purification;
use solver::strategy_file::StrategyFile;
use std::fmt::Write as _;
use std::path::PathBuf;

/// Arguments of `stud aggregate`.
#[derive(clap::Args, Debug)]
#[command(after_help = "Examples (the shipped strategies):\n  \
    stud aggregate strategies/7stud-hu.strat\n  \
    stud aggregate strategies/razz-hu.strat --csv\n  \
    stud aggregate strategies/7stud-hu.strat --svg third-street.svg --json\n  \
    stud aggregate strategies/7stud-hu.strat --street 5 --deals 500\n  \
    stud aggregate strategies/razz-hu.strat --street 7th --deals 500 --csv\n  \
    stud aggregate strategies/7stud-hu.strat --street 4 --deals 300 --svg 4th-street.svg --json\n  \
    stud aggregate strategies/5stud-hu.strat\n\n\
    The first street (3rd street; five-card stud's 2nd), each cell: the player (p2, its door in \
    diamonds) against the opponent's door (p1, in clubs), its probabilities over every holding \
    of its down cards (two; one in five-card stud), each weighed by how likely its \
    earlier actions were with it. The same spot one cell at a time: stud query FILE \"SPOT\" \
    --ranges, the spot in the CSV's `query` column.\n\n\
    A later street (--street 4 to 7; five-card stud 3 to 5): deals that both seats play by the \
    file, seeded; at each decision of the street the acting player's probabilities of check, \
    bet, fold, call and raise, by its spot (no bet yet, facing a bet, facing a raise), its hand \
    class (as stud query --hand prints it) and the opponent's up cards (pair showing, three to \
    a flush showing, ...). A row is the mean over its decisions, so each counts as often as the \
    play reaches it.")]
pub struct Args {
    /// The strategy file (any heads-up real-game file).
    pub file: PathBuf,
    /// The street, as players say it (`4`, `4th`, `5th street`): the first street (the
    /// default: 3rd, five-card stud's 2nd) by door card, a later one by hand class against
    /// board over sampled deals.
    #[arg(long)]
    pub street: Option<String>,
    /// With a later --street: deals played (1 to 10,000,000).
    #[arg(long, default_value_t = 20_000, value_parser = clap::value_parser!(u64).range(1..=10_000_000))]
    pub deals: u64,
    /// With a later --street: the seed of the deals and plays (the same seed, the same table on
    /// any number of threads).
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Print every cell as CSV (one line per spot and pair of door cards; per row of a later
    /// street) instead of grids.
    #[arg(long, conflicts_with = "json")]
    pub csv: bool,
    /// Also draw the grids as an SVG chart into this file.
    #[arg(long, value_name = "FILE")]
    pub svg: Option<PathBuf>,
    /// `--json`.
    #[command(flatten)]
    pub output: super::args::Output,
}

/// The grids drawn: a spot, its title, and the columns of [`ACTIONS`] it adds up.
const GRIDS: [(Spot, &str, &[usize]); 4] = [
    (Spot::First, "completes, first decision", &[3]),
    (Spot::First, "folds, first decision", &[0]),
    (
        Spot::FacingCompletion,
        "raises, brought in and facing a completion",
        &[4],
    ),
    (
        Spot::FacingCompletion,
        "folds, brought in and facing a completion",
        &[0],
    ),
];

/// Runs `stud aggregate`.
pub fn run(args: Args) -> Result<()> {
    let f = StrategyFile::open(&args.file)?;
    let path = args.file.to_str().context("the file's path is not UTF-8")?;
    let mut player = StrategyPlayer::open(path, f.game())?.with_purification(Purification::Mixed);
    if let Some(s) = &args.street {
        let street = super::street_of(f.game(), s)?;
        if street > 0 {
            // No table of the first street's lookups: its build takes seconds, more than the
            // default deals' lookups one by one.
            return run_later(&args, &player, street, path);
        }
    }
    // The first street's bucket lookups from a table (seven-card games: 169 pairs of doors,
    // 1,225 holdings each).
    player.precompute_first_street();
    let bar = super::deals_bar(0);
    bar.set_style(
        indicatif::ProgressStyle::with_template(
            "{spinner} [{elapsed_precise}] {bar:30} {pos}/{len} pairs of door cards, {eta} left",
        )
        .expect("a valid template"),
    );
    let t = third_street(&player, &|done, all| {
        bar.set_length(all as u64);
        bar.set_position(done as u64);
    });
    bar.finish_and_clear();
    let t = t?;
    if let Some(svg) = &args.svg {
        solver::container::write_bytes(svg, chart(&t, path).as_bytes())?;
    }
    if args.output.json {
        println!("{}", serde_json::to_string(&t)?);
    } else if args.csv {
        print!("{}", csv(&t));
    } else {
        print!("{}", grids(&t));
    }
    Ok(())
}

/// Runs `stud aggregate --street N` for a later street.
fn run_later(args: &Args, player: &StrategyPlayer, street: usize, path: &str) -> Result<()> {
    let bar = super::deals_bar(args.deals);
    let t = later_street(player, street, args.deals, args.seed, &|done| {
        bar.set_position(done)
    });
    bar.finish_and_clear();
    let t = t?;
    if let Some(svg) = &args.svg {
        solver::container::write_bytes(svg, later::chart(&t, path).as_bytes())?;
    }
    if args.output.json {
        println!("{}", serde_json::to_string(&t)?);
    } else if args.csv {
        print!("{}", later::csv(&t));
    } else {
        print!("{}", later::table(&t));
    }
    Ok(())
}

/// The cell of `spot` with the player's door rank `mine` and the opponent's `theirs`.
fn find<'a>(t: &'a ThirdStreet, spot: Spot, mine: &str, theirs: &str) -> Option<&'a Cell> {
    t.cells
        .iter()
        .find(|c| c.spot == spot && c.door.starts_with(mine) && c.opponent_door.starts_with(theirs))
}

/// Every cell as CSV.
fn csv(t: &ThirdStreet) -> String {
    let mut out = String::from("spot,door,opponent_door,query,holdings");
    for a in ACTIONS {
        out.push(',');
        out.push_str(&a.replace(' ', "_"));
    }
    out.push('\n');
    for c in &t.cells {
        let spot = serde_json::to_value(c.spot).unwrap_or_default();
        let _ = write!(
            out,
            "{},{},{},{},{}",
            spot.as_str().unwrap_or(""),
            c.door,
            c.opponent_door,
            c.query,
            c.holdings
        );
        for f in c.frequencies {
            let _ = write!(out, ",{f:.6}");
        }
        out.push('\n');
    }
    out
}

/// The grids as text: rows the player's door rank, columns the opponent's, percentages.
fn grids(t: &ThirdStreet) -> String {
    let mut out = format!(
        "{}, door card against door card: the player (p2, its door in diamonds) against the \
         opponent's door (p1, in clubs); `.`: the spot does not occur\n",
        t.street
    );
    for (spot, title, cols) in GRIDS {
        let _ = write!(
            out,
            "\n% of holdings that {title} (rows: the player's door; columns: the opponent's)\n   "
        );
        for r in &t.ranks {
            let _ = write!(out, "{r:>4}");
        }
        out.push('\n');
        for mine in &t.ranks {
            let _ = write!(out, "{mine:>3}");
            for theirs in &t.ranks {
                match find(t, spot, mine, theirs) {
                    Some(c) => {
                        let p: f64 = cols.iter().map(|&i| c.frequencies[i]).sum();
                        let _ = write!(out, "{:>4.0}", 100.0 * p);
                    }
                    None => out.push_str("   ."),
                }
            }
            out.push('\n');
        }
    }
    out
}

/// The grids as an SVG chart: one heat map per grid, white at 0% to red at 100%.
fn chart(t: &ThirdStreet, name: &str) -> String {
    const SIDE: usize = 22;
    let width = 2 * (14 * SIDE + 30);
    let height = 2 * (15 * SIDE + 40) + 30;
    let mut out = format!(
        "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"{width}\" height=\"{height}\" \
         font-family=\"sans-serif\" font-size=\"11\">\n<text x=\"10\" y=\"18\" font-size=\"14\">\
         {}: {}, the player's door (rows) against the opponent's (columns)</text>\n",
        escape(name),
        t.street
    );
    for (g, (spot, title, cols)) in GRIDS.iter().enumerate() {
        let x0 = 10 + (g % 2) * (14 * SIDE + 30);
        let y0 = 40 + (g / 2) * (15 * SIDE + 40);
        let _ = writeln!(
            out,
            "<text x=\"{x0}\" y=\"{}\">% that {title}</text>",
            y0 + 12
        );
        for (i, r) in t.ranks.iter().enumerate() {
            let at = SIDE * (i + 1);
            let _ = writeln!(
                out,
                "<text x=\"{}\" y=\"{}\">{r}</text>",
                x0 + at + 7,
                y0 + 34
            );
            let _ = writeln!(
                out,
                "<text x=\"{}\" y=\"{}\">{r}</text>",
                x0 + 6,
                y0 + 24 + at + 15
            );
        }
        for (i, mine) in t.ranks.iter().enumerate() {
            for (j, theirs) in t.ranks.iter().enumerate() {
                let (x, y) = (x0 + SIDE * (j + 1), y0 + 24 + SIDE * (i + 1));
                let Some(c) = find(t, *spot, mine, theirs) else {
                    continue;
                };
                let p: f64 = cols.iter().map(|&k| c.frequencies[k]).sum();
                let fade = (255.0 * (1.0 - p)).round() as u8;
                let _ = writeln!(
                    out,
                    "<rect x=\"{x}\" y=\"{y}\" width=\"{SIDE}\" height=\"{SIDE}\" \
                     fill=\"rgb(255,{fade},{fade})\" stroke=\"#ccc\"><title>{} vs {}: {:.1}%</title></rect>",
                    c.door,
                    c.opponent_door,
                    100.0 * p
                );
            }
        }
    }
    out.push_str("</svg>\n");
    out
}

/// `s` with the characters XML reserves escaped.
fn escape(s: &str) -> String {
    s.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
}
