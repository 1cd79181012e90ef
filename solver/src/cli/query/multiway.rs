//! `stud query` on a multiway strategy file (three to eight seats of real stud): the library's
//! answer ([`solver::query::multiway`]: the spot replayed on the rules engine, the decision
//! located in the file's abstraction, the rows of `--hand`'s bucket or of every bucket, as the
//! file's player reads them) printed as text or `--json`, with `--ranges` the strategy by hand
//! class and each live seat's range ([`solver::query::multiway_ranges`]).

use super::rows::{print_aligned, print_chart, print_play, print_rows, print_table};
use super::spot::{cards_text, Step};
use super::Args;
use abstraction::multiway_deal::MultiwayView;
use abstraction::rules::game_def::ordinal;
use anyhow::{bail, Context, Result};
use serde_json::Value;
use solver::bot::StrategyPlayer;
use solver::purify::Purification;
use solver::query::betting::Kind;
use solver::query::multiway::{answer, answer_json, Answer, Table};
use solver::query::multiway_ranges::ranges_json;
use solver::strategy_file::multiway::MultiwayFile;

/// Runs `stud query` on the multiway file `f`, opened from `args.file`.
pub(super) fn run(f: &MultiwayFile, args: &Args, steps: &[Step]) -> Result<()> {
    if args.resolve {
        bail!(
            "--resolve reads a heads-up strategy; {} is a multiway file (three or more seats)",
            args.file.display()
        );
    }
    // --ranges replays the strategy as stored, through a player of the file.
    let player = match args.ranges {
        true => {
            let path = args.file.to_str().context("the file's path is not UTF-8")?;
            Some(StrategyPlayer::open(path, &f.header.game)?.with_purification(Purification::Mixed))
        }
        false => None,
    };
    let hand = args.hand.as_deref();
    if args.output.json {
        println!(
            "{}",
            answer_json(f, hand, args.play, steps, player.as_ref())?
        );
        return Ok(());
    }
    let a = answer(f, hand, args.play, steps)?;
    let (names, chart) = (a.names.clone(), a.chart(f));
    print_answer(f, a, hand.is_none());
    if let Some(player) = &player {
        if let Some(c) = &chart {
            print_chart(&names, c);
        }
        print_ranges(&ranges_json(player, steps)?);
    }
    Ok(())
}

/// Prints `--ranges`' answer: each live seat's range by hand class, then its likeliest
/// holdings.
fn print_ranges(r: &Value) {
    let empty = Vec::new();
    let list = |x: &Value| x.as_array().unwrap_or(&empty).clone();
    for seat in list(r) {
        println!();
        let p = seat["seat"].as_u64().unwrap_or(0) + 1;
        if seat["down_cards"] == 0 {
            println!("p{p} holds no down card yet");
            continue;
        }
        println!(
            "p{p}'s range reaching the spot (showing {}): {} holdings of its {} down cards left \
             possible by the betting, by hand class",
            seat["showing"].as_str().unwrap_or(""),
            seat["holdings"],
            seat["down_cards"]
        );
        if seat["lost"] == true {
            println!(
                "(p{p} took an action its strategy never takes with any holding: from there \
                 every holding counts alike)"
            );
        }
        let head = ["hand class", "holds", "share"].map(String::from).to_vec();
        let cells: Vec<Vec<String>> = list(&seat["classes"])
            .iter()
            .map(|c| {
                vec![
                    c["class"].as_str().unwrap_or("").to_string(),
                    c["holdings"].to_string(),
                    format!("{:.3}", c["share"].as_f64().unwrap_or(0.0)),
                ]
            })
            .collect();
        print_aligned(&head, &cells, &[0]);
        let top: Vec<String> = list(&seat["top"])
            .iter()
            .map(|h| {
                format!(
                    "{} {:.1}%",
                    h["cards"].as_str().unwrap_or(""),
                    100.0 * h["share"].as_f64().unwrap_or(0.0)
                )
            })
            .collect();
        println!("likeliest holdings: {}", top.join(", "));
    }
}

/// Prints the answer as text (`every`: every bucket's rows were asked, not a hand's).
fn print_answer(f: &MultiwayFile, a: Answer, every: bool) {
    let Some(t) = &a.table else {
        println!(
            "the first decision on {} at {} seats, of the seat the door cards make first to act \
             (no up cards given: every bucket; give the door cards, as in `3c 8d Kh`, for what \
             each bucket holds)",
            a.street_name, a.seats
        );
        print_play(a.play);
        print_table(&a.names, &a.rows);
        return;
    };
    print_table_seen(t, &a.street_name);
    if a.kind == Kind::Capped {
        println!(
            "past the strategy's cap of {} bets on a street: its game has no more raises \
             there, and its answer with every hand is: {}",
            f.header.betting.max_bets, a.names[0]
        );
        return;
    }
    print_play(a.play);
    print_rows(&a.names, a.rows, t.seat, every);
}

/// The decision in a player's words: street, seat, its place in the order of play, the
/// table's up cards, the opponent the rows are measured against.
fn print_table_seen(t: &Table, street_name: &str) {
    let seat = |s: usize| {
        let folded = if t.folded.contains(&(s as u8)) {
            ", folded"
        } else {
            ""
        };
        format!("p{} {}{folded}", s + 1, cards_text(t.showing[s]))
    };
    println!(
        "p{} to act on {street_name} ({} to act on this street, {} seats live); pot {}",
        t.seat + 1,
        ordinal(t.role as usize + 1),
        t.live.len(),
        t.pot
    );
    println!(
        "showing: {}",
        (0..t.showing.len())
            .map(seat)
            .collect::<Vec<_>>()
            .join(", ")
    );
    let against = format!(
        "p{} ({}), the best showing live opponent",
        t.against + 1,
        cards_text(t.showing[t.against as usize]),
    );
    match t.view {
        MultiwayView::BestOpponent => println!(
            "measured against {against}: each bucket is of p{}'s cards against that hand",
            t.seat + 1
        ),
        MultiwayView::Table => println!(
            "measured against {against}, beside every other live opponent's up cards and \
             the folded seats' as dead cards: each bucket is of p{}'s cards against that \
             table",
            t.seat + 1
        ),
    }
}
