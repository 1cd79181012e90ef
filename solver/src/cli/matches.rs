//! `stud match`: players against each other on duplicate deals, heads-up or one per seat of a
//! larger table, the seats rotated.

use super::game_for;
use solver::bot::aivat::{Aivat, Baseline};
use solver::bot::matches::{play_match_with, play_table, MatchConfig, WinRate};
use solver::bot::{NotOwn, Player};
use solver::players::load;
use std::path::PathBuf;
use std::sync::Arc;
use std::time::Instant;

/// Play bots or strategies against each other on duplicate deals.
#[derive(clap::Args)]
#[command(
    after_help = "Examples:\n  stud match heuristic random --game 7stud --hands 10000 --seed 1\n  \
stud match raise call --game razz --hands 100 --phh-out hands/ --json\n  \
stud match strategies/razz-hu.strat heuristic --hands 200\n  \
stud match strategies/7stud-hu.strat:resolve strategies/7stud-hu.strat --hands 20 --seed 11\n  \
stud match strategies/7stud-hu.strat:resolve,cold random --hands 20 --seed 1 --no-aivat\n  \
stud match strategies/7stud-hu.strat:resolve=15,cold,range-draws=8 call --hands 10 --seed 1 --no-aivat\n  \
stud match strategies/7stud-hu.strat:search strategies/7stud-hu.strat --hands 2 --seed 3\n  \
stud match strategies/7stud-hu.strat:search-safe,fallback call --hands 2 --seed 3\n  \
stud match heuristic call call --game 7stud-3p --hands 20000 --seed 11\n  \
stud match strategies/7stud-3p.strat:resolve strategies/7stud-3p.strat strategies/7stud-3p.strat --hands 5 --seed 7\n  \
stud match strategies/7stud-hu.strat call --hands 2000 --seed 1 --no-aivat\n  \
stud solve --game ministud --solver deal --abstraction 8 --iterations 200 --out m8.strat\n  \
stud match m8.strat:depth=4,from=2nd m8.strat --hands 200 --seed 1\n  \
stud match strategies/7stud-hu.strat heuristic --hands 200 --seed 1 --aivat-value street\n\n\
The game is the one a strategy file records; --game, needed for bots alone, may repeat it. \
Players are bots (random, call, raise, heuristic) or strategy files, one per seat of the game. \
Heads-up (A B), each of the N deals is played twice, A in the first seat then in the second, \
the cards staying with the seats (each player holds both hands once), so 2N hands are played; \
the win rate of A is in milli-big-bets per hand (1 mbb = 0.001 big bets) with a 95% confidence \
interval from the variance between duplicate pairs. At a table of S seats (P1 … PS, \
--game 7stud-3p), each deal is played S times, the players rotated one seat each time and the \
cards staying with the seats, so that every player holds every seat's cards: each player's win \
rate per hand it played, and each distinct player's with its copies pooled, with a 95% interval \
over the deals (a deal's net over its S seatings is the independent unit). The win rates add up \
to 0 (no rake); identical deterministic players each score exactly 0. Deal i draws from its own \
streams of a ChaCha8 generator seeded with --seed: the result does not depend on the number of \
threads (RAYON_NUM_THREADS).\n\n\
Beside each win rate comes a variance-reduced one (AIVAT, \"aivat\" in the JSON): the same \
expected value, each hand's chips corrected by how the cards fell and by the players' own \
probabilities at their decisions, each decision valued by its equity share of the pot, so its \
interval is narrower (--aivat-value street values each decision and each street's cards by the \
betting the players' policies make of the rest of the street: narrower again at equal hands, \
but 5 to 7 times the default's time heads-up and 10 at a table, worth it where hands are dear); --no-aivat leaves it out. It needs every seat's cards to fit the deck (not 7stud-8p)."
)]
pub struct Args {
    /// The players, one per seat: bot names or strategy files (FILE:mixed, FILE:pure,
    /// FILE:threshold=T say how its rows are played; default threshold=0.15 for the real games;
    /// a final :resolve, :resolve=N or :resolve=Nms re-solves its last street at play time, N
    /// iterations or ms, and `,floor=F` after it sets the ranges' floor, `,cold` looks the
    /// ranges' classes up at the last street only, faster in a match, `,range-draws=N`
    /// estimates them from N outer rollout draws (an approximation of the ranges, faster); a multiway file's
    /// :resolve re-solves the rest of the hand once the pot is down to two players; on a
    /// walkable game (ministud, yardstud) a final
    /// :depth=K,from=S searches depth-limited from street S, each leaf valued by K (1 to 4)
    /// continuation strategies, `,nested` every later street searched again, `,iterations=N`,
    /// `,floor=F`: what `stud eval resolve --from-street S --leaves K` measures); :search, :search=N or
    /// :search=Nms searches from 6th street, the last two streets re-solved there and 7th street
    /// again from the rows of that solve, :search-safe safely against those rows, `,fallback`
    /// keeping them where its bound does not hold). Heads-up: A then B.
    #[arg(required = true, num_args = 2.., value_name = "PLAYER")]
    pub players: Vec<String>,
    /// `--game`.
    #[command(flatten)]
    pub game: super::args::Game,
    /// Deals to play; each is played once per seat (twice heads-up).
    #[arg(long, default_value_t = 1000)]
    pub hands: u64,
    /// `--seed`.
    #[command(flatten)]
    pub random: super::args::Random,
    /// Write every hand as PHH into this folder ({deal}a.phh: the first seating, the first
    /// player in seat p1; {deal}b.phh: the first player in seat p2; …); stud games only.
    #[arg(long)]
    pub phh_out: Option<PathBuf>,
    /// Only the plain win rate: no variance-reduced (AIVAT) estimate beside it, and none of
    /// its rollouts (a match of fast players runs up to twice as fast without them).
    #[arg(long)]
    pub no_aivat: bool,
    /// The variance-reduced estimate's value function: `checkdown` (the default) values a spot
    /// by its equity share of the pot, the faster way to an interval when hands are cheap;
    /// `street` walks the rest of each street's betting under the players' policies, narrower
    /// at equal hands (about 3× the plain interval heads-up) but several times slower, for
    /// players whose hands are dear (re-solving players, a person, a remote program).
    #[arg(long, value_enum, default_value = "checkdown", value_name = "VALUE")]
    pub aivat_value: AivatValue,
    /// `--json`.
    #[command(flatten)]
    pub output: super::args::Output,
}

/// The value functions of `--aivat-value`.
#[derive(Clone, Copy, Debug, clap::ValueEnum)]
pub enum AivatValue {
    /// The rest of each street's betting walked under the players' policies.
    Street,
    /// The equity share of the pot where a decision leaves the hand.
    Checkdown,
}

/// Runs the command.
pub fn run(args: Args) -> anyhow::Result<()> {
    let specs: Vec<&str> = args.players.iter().map(String::as_str).collect();
    let def = game_for(args.game.given(), &specs, "7stud")?;
    if specs.len() != def.seats as usize {
        anyhow::bail!(
            "{} players for {}, a game of {} seats: give one player per seat (a preset for N \
             players is GAME-Np, as 7stud-{}p)",
            specs.len(),
            def.variant,
            def.seats,
            specs.len()
        );
    }
    let players = specs
        .iter()
        .map(|s| load(s, &def))
        .collect::<anyhow::Result<Vec<_>>>()?;
    let cfg = MatchConfig {
        def: Arc::new(def),
        deals: args.hands,
        seed: args.random.seed,
        phh_out: args.phh_out.clone(),
        aivat: (!args.no_aivat).then(|| Aivat {
            opaque: Vec::new(),
            baseline: match args.aivat_value {
                AivatValue::Street => Baseline::Street,
                AivatValue::Checkdown => Baseline::Checkdown,
            },
        }),
    };
    if specs.len() > 2 {
        return table(&args, &specs, &players, &cfg);
    }
    let (a, b) = (&players[0], &players[1]);
    let (args_a, args_b) = (&args.players[0], &args.players[1]);
    let bar = super::deals_bar(args.hands);
    let start = Instant::now();
    let r = play_match_with(a.as_ref(), b.as_ref(), &cfg, &|| bar.inc(1));
    bar.finish_and_clear();
    let r = r?;
    let secs = start.elapsed().as_secs_f64();
    let per_sec = r.hands as f64 / secs.max(1e-9);
    if args.output.json {
        let mut v = serde_json::to_value(&r)?;
        v["a"] = args_a.as_str().into();
        v["b"] = args_b.as_str().into();
        v["game"] = cfg.def.variant.name().into();
        v["seed"] = args.random.seed.into();
        v["seconds"] = secs.into();
        v["hands_per_second"] = per_sec.into();
        println!("{v}");
    } else {
        let showdown = r
            .showdown_share
            .map(|s| format!(", {:.1}% of hands to showdown", 100.0 * s))
            .unwrap_or_default();
        println!(
            "{} vs {} at {}: {:+.1} ± {:.1} mbb/hand for {} (95% CI), {} deals = {} hands, \
             {} chips{showdown}, {per_sec:.0} hands/s",
            args_a,
            args_b,
            cfg.def.variant,
            r.mbb_per_hand,
            r.ci95,
            args_a,
            r.deals,
            r.hands,
            r.chips_a,
        );
        if let Some(e) = r.aivat {
            println!(
                "variance-reduced (AIVAT): {:+.1} ± {:.1} mbb/hand for {args_a} (95% CI, {})",
                e.mbb_per_hand,
                e.ci95,
                narrower(r.ci95, e.ci95)
            );
        }
        for (name, n) in [(args_a, r.fallbacks_a), (args_b, r.fallbacks_b)] {
            if n > 0 {
                println!(
                    "{name}: {n} decisions gave no weight to any legal action and checked or \
                     called instead (the fallback)"
                );
            }
        }
    }
    Ok(())
}

/// A table of three or more: every player's win rate, and each distinct spec's with its copies
/// pooled.
fn table(
    args: &Args,
    specs: &[&str],
    players: &[Box<dyn Player>],
    cfg: &MatchConfig,
) -> anyhow::Result<()> {
    let seated: Vec<&dyn Player> = players.iter().map(|p| p.as_ref()).collect();
    let bar = super::deals_bar(args.hands);
    let start = Instant::now();
    let t = play_table(&seated, cfg, &|| bar.inc(1));
    bar.finish_and_clear();
    let t = t?;
    let secs = start.elapsed().as_secs_f64();
    let big_bet = cfg.def.big_bet;
    let each = (0..specs.len())
        .map(|p| t.win_rate(&[p], big_bet))
        .collect::<anyhow::Result<Vec<WinRate>>>()?;
    let distinct = distinct_specs(specs);
    let pooled = distinct
        .iter()
        .map(|(_, copies)| t.win_rate(copies, big_bet))
        .collect::<anyhow::Result<Vec<WinRate>>>()?;
    let hands = t.per_deal.len() as u64 * specs.len() as u64;
    let per_sec = hands as f64 / secs.max(1e-9);
    if args.output.json {
        let (players, by_spec) = table_json(specs, &t.not_own, &each, &distinct, &pooled)?;
        let v = serde_json::json!({
            "game": cfg.def.variant.name(),
            "seats": specs.len(),
            "seed": args.random.seed,
            "deals": t.per_deal.len(),
            "hands": hands,
            "showdown_share": t.showdown_share(),
            "players": players,
            "by_player": by_spec,
            "seconds": secs,
            "hands_per_second": per_sec,
        });
        println!("{v}");
        return Ok(());
    }
    println!(
        "{} at {} seats: {} deals, each played at {} seatings = {hands} hands, {:.1}% of them \
         to showdown, {per_sec:.0} hands/s; mbb/hand per hand played, 95% CI over deals",
        cfg.def.variant,
        specs.len(),
        t.per_deal.len(),
        specs.len(),
        100.0 * t.showdown_share(),
    );
    let width = specs.iter().map(|s| s.len()).max().unwrap_or(0).max(6);
    if t.estimated.is_some() {
        println!(
            "  {:<3} {:<width$}  {:>18}  {:>18}",
            "", "", "plain", "variance-reduced"
        );
    }
    for (p, r) in each.iter().enumerate() {
        println!(
            "  P{:<2} {:<width$}  {:+9.1} ± {:6.1}{}  {:+} chips",
            p + 1,
            specs[p],
            r.mbb_per_hand,
            r.ci95,
            reduced(r),
            r.chips
        );
    }
    if distinct.len() < specs.len() {
        println!("copies pooled:");
        for ((spec, copies), r) in distinct.iter().zip(&pooled) {
            println!(
                "  {:<3} {:<width$}  {:+9.1} ± {:6.1}{}  {:+} chips ({} cop{})",
                "",
                spec,
                r.mbb_per_hand,
                r.ci95,
                reduced(r),
                r.chips,
                copies.len(),
                if copies.len() == 1 { "y" } else { "ies" }
            );
        }
    }
    print_not_own(specs, &t.not_own);
    Ok(())
}

/// The JSON of a table's players (each seat's win rate, `decisions` its decisions, `fallbacks`
/// those a fallback made, `unreached` those a row its solve never reached left to the
/// hand-strength bot) and of
/// its distinct specs (their copies pooled).
fn table_json(
    specs: &[&str],
    not_own: &[NotOwn],
    each: &[WinRate],
    distinct: &[(&str, Vec<usize>)],
    pooled: &[WinRate],
) -> anyhow::Result<(Vec<serde_json::Value>, Vec<serde_json::Value>)> {
    let players = (each.iter().enumerate())
        .map(|(p, r)| {
            let mut v = serde_json::to_value(r)?;
            v["player"] = specs[p].into();
            v["seat"] = p.into();
            v["fallbacks"] = not_own[p].fallbacks.into();
            v["unreached"] = not_own[p].unreached.into();
            v["decisions"] = not_own[p].decisions.into();
            Ok(v)
        })
        .collect::<anyhow::Result<_>>()?;
    let by_spec = (distinct.iter().zip(pooled))
        .map(|((spec, copies), r)| {
            let mut v = serde_json::to_value(r)?;
            v["player"] = (*spec).into();
            v["copies"] = copies.len().into();
            Ok(v)
        })
        .collect::<anyhow::Result<_>>()?;
    Ok((players, by_spec))
}

/// A table row's variance-reduced column (empty where the estimator does not apply).
fn reduced(r: &WinRate) -> String {
    r.aivat
        .map(|e| format!("  {:+9.1} ± {:6.1}", e.mbb_per_hand, e.ci95))
        .unwrap_or_default()
}

/// How much narrower the variance-reduced interval is than the plain one, in words.
fn narrower(plain: f64, reduced: f64) -> String {
    match reduced > 0.0 {
        true => format!("the interval {:.1}× narrower", plain / reduced),
        false => "an interval of 0".to_string(),
    }
}

/// The distinct specs in the order they first appear, each with the players that are its
/// copies.
fn distinct_specs<'a>(specs: &[&'a str]) -> Vec<(&'a str, Vec<usize>)> {
    let mut distinct: Vec<(&str, Vec<usize>)> = Vec::new();
    for (p, &spec) in specs.iter().enumerate() {
        match distinct.iter_mut().find(|(s, _)| *s == spec) {
            Some((_, copies)) => copies.push(p),
            None => distinct.push((spec, vec![p])),
        }
    }
    distinct
}

/// The text answer's lines for each player that did not answer every decision from its own
/// row (`not_own`: its decisions that fell back or met a row its solve never reached).
fn print_not_own(specs: &[&str], not_own: &[NotOwn]) {
    for (p, spec) in specs.iter().enumerate() {
        let NotOwn {
            decisions,
            fallbacks,
            unreached,
        } = not_own[p];
        if fallbacks > 0 {
            println!(
                "P{} {spec}: {fallbacks} decisions gave no weight to any legal action and \
                 checked or called instead (the fallback)",
                p + 1
            );
        }
        if unreached > 0 {
            println!(
                "P{} {spec}: {unreached} of {decisions} decisions met a row the solve never \
                 reached and were played by the hand-strength bot (heuristic)",
                p + 1
            );
        }
    }
}
