//! `stud review`: one player's decisions in PHH hands against the strategy of each hand's game
//! and table ([`solver::review`] judges them; this reads the files, draws the progress, prints
//! the summary and writes the page of [`super::review_page`]).

use anyhow::{bail, Result};
use solver::review::{self, Group, HandReview, Hero, Options, Strategies, Summary};
use std::fmt::Write as _;
use std::path::PathBuf;

/// Arguments of `stud review`.
#[derive(clap::Args, Debug)]
#[command(
    after_help = "Examples (hands dealt by PokerKit to bots with known leaks, \
    scripts/review-bots.py, against the shipped strategies):\n  \
    stud review testdata/review/7stud-hu-call.phhs --hero Hero\n  \
    stud review testdata/review/7stud-hu-raise.phhs --hero Hero --html review.html\n  \
    stud review testdata/review/razz-hu-sound.phhs testdata/review/7stud-3p-call.phhs --hero Hero --json\n  \
    stud review testdata/review/7stud-hu-no-fold-7th.phhs --hero p1 --strategy strategies/7stud-hu.strat --samples 50\n\n\
    Each decision of the hero: the strategy's probability of the action taken and the action it \
    prefers, and on a heads-up strategy the value lost (the best action's value less the \
    taken one's, for the hero's cards: estimated with a 95% interval, or exact on the last \
    streets with --exact; a multiway strategy is judged by frequency alone). A leak is an action the \
    strategy takes less often than --threshold, or one losing more than --min-loss big bets \
    beyond its interval. The summary sums them by street and spot (bring-in, facing the \
    bring-in, first in, facing a bet, facing a raise) and by action, the biggest first. Hands \
    written by PokerKit are replayed under its rules where the card room's do not play them."
)]
pub struct Args {
    /// The PHH (one hand) or PHHS (several, each under `[n]`) files.
    #[arg(required = true, value_name = "HANDS")]
    pub files: Vec<PathBuf>,
    /// The player reviewed: a seat (p1, p2, ...) or a name of the hands' `players` field.
    #[arg(long, value_name = "SEAT|NAME")]
    pub hero: String,
    /// The strategy to review against (repeat for several games); without it, the first file of
    /// --strategies solved for each hand's game and table.
    #[arg(long, value_name = "FILE")]
    pub strategy: Vec<PathBuf>,
    /// Where the strategies are looked for without --strategy.
    #[arg(
        long,
        value_name = "DIR",
        default_value = "strategies",
        conflicts_with = "strategy"
    )]
    pub strategies: PathBuf,
    /// Also write the review as a page (one self-contained HTML file): charts and each hand
    /// replayed decision by decision.
    #[arg(long, value_name = "OUT.html")]
    pub html: Option<PathBuf>,
    /// Deals per estimated decision (every decision's values, unless --exact finds them);
    /// more narrows the intervals.
    #[arg(long, default_value_t = review::DEFAULT_SAMPLES as u64,
          value_parser = clap::value_parser!(u64)
              .range(solver::values::MIN_SAMPLES as u64..=solver::values::MAX_SAMPLES as u64))]
    pub samples: u64,
    /// The seed of the estimates' deals.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Frequencies only: no values (fast).
    #[arg(long)]
    pub no_values: bool,
    /// Exact values where the rest of the hand can be walked (the last two streets of
    /// seven-card stud and razz, the last of five-card stud; not hi-lo): seconds a decision,
    /// where an estimate takes a fraction of one.
    #[arg(long, conflicts_with = "no_values")]
    pub exact: bool,
    /// An action the strategy takes less often than this is a leak.
    #[arg(long, default_value_t = review::DEFAULT_THRESHOLD, value_parser = fraction)]
    pub threshold: f64,
    /// A loss below this many big bets is no leak.
    #[arg(long, default_value_t = review::DEFAULT_MIN_LOSS, value_parser = non_negative)]
    pub min_loss: f64,
    /// `--json`.
    #[command(flatten)]
    pub output: super::args::Output,
}

fn fraction(s: &str) -> Result<f64, String> {
    match s.parse::<f64>() {
        Ok(x) if (0.0..=1.0).contains(&x) => Ok(x),
        _ => Err(format!("a probability from 0 to 1, not `{s}`")),
    }
}

fn non_negative(s: &str) -> Result<f64, String> {
    match s.parse::<f64>() {
        Ok(x) if x >= 0.0 && x.is_finite() => Ok(x),
        _ => Err(format!("a number of big bets, 0 or more, not `{s}`")),
    }
}

/// A hand that could not be reviewed.
#[derive(serde::Serialize)]
struct Failed {
    source: String,
    error: String,
}

/// Runs `stud review`.
pub fn run(args: Args) -> Result<()> {
    let hero: Hero = args.hero.parse().map_err(anyhow::Error::msg)?;
    let mut strategies = match args.strategy.is_empty() {
        true => Strategies::directory(&args.strategies)?,
        false => Strategies::files(&args.strategy)?,
    };
    let options = Options {
        threshold: args.threshold,
        min_loss: args.min_loss,
        values: (!args.no_values).then_some(solver::values::Options {
            samples: args.samples as usize,
            seed: args.seed,
        }),
        exact: args.exact,
    };
    let mut hands = Vec::new();
    for file in &args.files {
        let text = solver::input::read_text(file, solver::input::PHH)?;
        hands.extend(review::read_hands(&file.display().to_string(), &text));
    }
    let bar = super::deals_bar(hands.len() as u64);
    bar.set_style(
        indicatif::ProgressStyle::with_template(
            "{spinner} [{elapsed_precise}] {bar:30} {pos}/{len} hands, {eta} left {msg}",
        )
        .expect("a valid template"),
    );
    let (mut reviewed, mut failed) = (Vec::new(), Vec::new());
    for (source, hand) in hands {
        let r = hand.and_then(|h| {
            review::review_hand(&h, &source, &hero, &mut strategies, &options, &|d, n| {
                bar.set_message(format!("decision {d}/{n}"))
            })
        });
        match r {
            Ok(r) => reviewed.push(r),
            Err(e) => failed.push(Failed {
                source,
                error: format!("{e:#}"),
            }),
        }
        bar.inc(1);
    }
    bar.finish_and_clear();
    let summary = review::summarize(&reviewed);
    if let Some(out) = &args.html {
        let page = super::review_page::page(&reviewed, &summary, &args.hero, &options);
        solver::container::write_bytes(out, page.as_bytes())?;
    }
    if args.output.json {
        let v = serde_json::json!({
            "hero": args.hero,
            "threshold": options.threshold,
            "min_loss_big_bets": options.min_loss,
            "samples": options.values.map(|o| o.samples),
            "seed": options.values.map(|o| o.seed),
            "summary": summary,
            "hands": reviewed,
            "failed": failed,
        });
        println!("{}", serde_json::to_string(&v)?);
    } else {
        print!("{}", text(&reviewed, &summary, &args.hero, &options));
    }
    for f in &failed {
        eprintln!("error: {}: {}", f.source, f.error);
    }
    if !failed.is_empty() {
        bail!(
            "{} of {} hands could not be reviewed (above)",
            failed.len(),
            failed.len() + reviewed.len()
        );
    }
    Ok(())
}

/// The loss of a group in chips and big bets, or a dash without values.
fn loss_text(g: &Group, big_bet: f64) -> String {
    match g.valued {
        0 => "-".into(),
        _ => format!("{:.1} ({:.2} BB)", g.leak_loss, g.leak_loss / big_bet),
    }
}

/// The summary in a player's words: the whole, the biggest leaks, by spot and action, and the
/// leaking decisions hand by hand.
fn text(hands: &[HandReview], s: &Summary, hero: &str, options: &Options) -> String {
    let mut out = String::new();
    let bb = hands.first().map_or(10.0, |h| h.big_bet as f64);
    let mut files: Vec<&str> = hands.iter().map(|h| h.strategy.as_str()).collect();
    files.dedup();
    let a = &s.all;
    let _ = writeln!(
        out,
        "{hero}: {} hands, {} decisions against {}; {} leaks ({} rare: the strategy plays them \
         under {:.0}%; {} losing value)",
        s.hands,
        a.decisions,
        files.join(", "),
        a.leaks,
        a.rare,
        options.threshold * 100.0,
        a.losing
    );
    if a.valued > 0 {
        let _ = writeln!(
            out,
            "value lost on leaks: {:.1} chips ({:.2} big bets); over all {} decisions with \
             values {:.2} chips a decision (each the best value less the taken one's, noise \
             included)",
            a.leak_loss,
            a.leak_loss / bb,
            a.valued,
            a.mean_loss
        );
    }
    if let Some(why) = hands.iter().find_map(|h| h.no_values.as_ref()) {
        let _ = writeln!(out, "no values for some hands: {why}");
    }
    let _ = writeln!(out, "\nBiggest leaks");
    if s.biggest.is_empty() {
        let _ = writeln!(out, "  none");
    }
    for g in s.biggest.iter().take(10) {
        let _ = writeln!(
            out,
            "  {:<44} {} of {} decisions, lost {}, strategy plays it {:.0}% on average",
            g.name(),
            g.leaks,
            g.decisions,
            loss_text(g, bb),
            g.mean_frequency * 100.0
        );
    }
    for (title, groups) in [
        ("By street and spot", &s.by_spot),
        ("By action", &s.by_action),
    ] {
        let _ = writeln!(
            out,
            "\n{title:<40} decisions  leaks  lost on leaks (chips)  mean frequency"
        );
        for g in groups {
            let _ = writeln!(
                out,
                "  {:<38} {:>9}  {:>5}  {:>21}  {:>13.0}%",
                g.name(),
                g.decisions,
                g.leaks,
                match g.valued {
                    0 => "-".into(),
                    _ => format!("{:.1}", g.leak_loss),
                },
                g.mean_frequency * 100.0
            );
        }
    }
    let _ = writeln!(out, "\nLeaks, hand by hand");
    for h in hands {
        for d in h.decisions.iter().filter(|d| d.leak()) {
            let _ = writeln!(out, "  {}", leak_line(h, d));
        }
    }
    out
}

/// A leaking decision in a line: where, the cards, what was done and what the strategy does.
fn leak_line(h: &HandReview, d: &review::Reviewed) -> String {
    let mix: Vec<String> = (d.words.iter().zip(&d.frequencies))
        .filter(|(_, &f)| f >= 0.005)
        .map(|(w, f)| format!("{w} {:.0}%", f * 100.0))
        .collect();
    let loss = match &d.values {
        Some(v) => match v.loss_plus_minus {
            Some(pm) => format!("; lost {:.1} ±{:.1} chips", v.loss, pm),
            None => format!("; lost {:.1} chips (exact)", v.loss),
        },
        None => String::new(),
    };
    format!(
        "{}: {}, {}, holding {} showing {}: {} (strategy: {}){loss}",
        h.source,
        d.street_name,
        d.spot.words(),
        d.down.join(" "),
        d.up[h.hero as usize].join(" "),
        d.words[d.taken],
        mix.join(", ")
    )
}
