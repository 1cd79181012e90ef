//! `stud query` on a multiway strategy file (three to eight seats of real stud): the library's
//! answer ([`solver::query::multiway`]: the spot replayed on the rules engine, the decision
//! located in the file's abstraction, the rows of `--hand`'s bucket or of every bucket, as the
//! file's player reads them; reached through [`solver::query::file`]) printed as text, with
//! `--ranges` the strategy by hand class and each live seat's range
//! ([`solver::query::multiway_ranges`]).

use super::rows::{print_aligned, print_chart, print_play, print_rows, print_table};
use super::spot::cards_text;
use abstraction::multiway_deal::MultiwayView;
use abstraction::rules::game_def::ordinal;
use abstraction::rules::seat_name;
use serde_json::Value;
use solver::query::betting::Kind;
use solver::query::multiway::{Answer, Table, TableRanges};
use solver::strategy_file::multiway::MultiwayFile;

/// Prints the answer on the multiway file `f` as text (`every`: every bucket's rows were
/// asked, not a hand's), then `--ranges`' where asked: the strategy by hand class and each live
/// seat's range.
pub(super) fn print(f: &MultiwayFile, a: Answer, ranges: Option<&TableRanges>, every: bool) {
    let names = a.names.clone();
    print_answer(f, a, every);
    if let Some(r) = ranges {
        if let Some(c) = &r.chart {
            print_chart(&names, c);
        }
        print_ranges(&r.ranges);
    }
}

/// Prints `--ranges`' answer: each live seat's range by hand class, then its likeliest
/// holdings.
fn print_ranges(r: &Value) {
    let empty = Vec::new();
    let list = |x: &Value| x.as_array().unwrap_or(&empty).clone();
    for seat in list(r) {
        println!();
        let p = seat_name(seat["seat"].as_u64().unwrap_or(0) as usize);
        if seat["down_cards"] == 0 {
            println!("{p} holds no down card yet");
            continue;
        }
        println!(
            "{p}'s range reaching the spot (showing {}): {} holdings of its {} down cards left \
             possible by the betting, by hand class",
            seat["showing"].as_str().unwrap_or(""),
            seat["holdings"],
            seat["down_cards"]
        );
        if seat["lost"] == true {
            println!(
                "({p} took an action its strategy never takes with any holding: from there \
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
        format!("{} {}{folded}", seat_name(s), cards_text(t.showing[s]))
    };
    println!(
        "{} to act on {street_name} ({} to act on this street, {} seats live); pot {}",
        seat_name(t.seat),
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
        "{} ({}), the best showing live opponent",
        seat_name(t.against),
        cards_text(t.showing[t.against as usize]),
    );
    match t.view {
        MultiwayView::BestOpponent => println!(
            "measured against {against}: each bucket is of {}'s cards against that hand",
            seat_name(t.seat)
        ),
        MultiwayView::Table => println!(
            "measured against {against}, beside every other live opponent's up cards and \
             the folded seats' as dead cards: each bucket is of {}'s cards against that \
             table",
            seat_name(t.seat)
        ),
    }
}
