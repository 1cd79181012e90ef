//! `stud query` on a betting-tree file (the real games, heads-up): the library's answer
//! ([`solver::query::betting`]: the spot replayed on the rules engine, the decision located in
//! the file's betting tree, the rows of `--hand`'s bucket or of every bucket, `--ranges`' chart
//! and ranges, reached through [`solver::query::file`]) printed as text.

use super::rows::{print_aligned, print_chart, print_play, print_rows, print_table};
use super::spot::cards_text;
use abstraction::cards::CardSet;
use abstraction::rules::seat_name;
use solver::query::betting::{Answer, Extras, Kind};
use solver::strategy_file::BettingFile;

/// Prints the answer as text (`every`: every bucket's rows were asked, not a hand's).
pub(super) fn print_answer(f: &BettingFile, a: Answer, every: bool) {
    let Some(seat) = a.at.seat else {
        println!(
            "the first decision on {}, of the seat the door cards make first to act \
             (no up cards given: every bucket; give the door cards, as in `3c 8d`, for what \
             each bucket holds)",
            a.at.street_name
        );
        print_table(&a.names, &a.rows);
        return;
    };
    let [up, opp_up] = a.at.up;
    println!(
        "{}",
        whose_turn(seat, a.at.role, &a.at.street_name, up, opp_up)
    );
    match a.kind {
        Kind::Capped => println!(
            "past the strategy's cap of {} bets on a street: its game has no more raises \
             there, and its answer with every hand is: {}",
            f.header().betting.max_bets,
            a.names[0]
        ),
        _ => {
            print_play(a.play);
            print_rows(&a.names, a.rows, seat, every);
        }
    }
    print_extras(&a.names, a.extras.as_ref());
}

/// The text answer's line of who acts: the seat, first or second on the street, and the up
/// cards.
fn whose_turn(seat: u8, role: u8, street_name: &str, up: CardSet, opp_up: CardSet) -> String {
    format!(
        "{} to act on {street_name} ({} to act on this street; showing {}, the opponent {})",
        seat_name(seat),
        if role == 0 { "first" } else { "second" },
        cards_text(up),
        cards_text(opp_up)
    )
}

/// Prints `--ranges`' answer as tables: the chart (one column per action of `names`), then each
/// seat's range by hand class.
fn print_extras(names: &[String], extras: Option<&Extras>) {
    let Some(e) = extras else { return };
    let num = |x: &serde_json::Value| x.as_f64().unwrap_or(0.0);
    let count = |x: &serde_json::Value| x.as_u64().unwrap_or(0).to_string();
    let empty = Vec::new();
    let list = |x: &serde_json::Value| x.as_array().unwrap_or(&empty).clone();
    print_chart(names, &e.chart);
    for r in list(&e.ranges) {
        println!();
        let seat = seat_name(r["seat"].as_u64().unwrap_or(0) as usize);
        println!(
            "{seat}'s range reaching the spot: the betting so far has probability {:.4} over \
             {seat}'s {} holdings",
            num(&r["reach"]),
            count(&r["holdings"]),
        );
        if r["lost"] == true {
            println!(
                "({seat} took an action its strategy never takes with any holding: from there \
                 every holding counts alike)"
            );
        }
        let head: Vec<String> = ["hand class", "holds", "reach", "share"]
            .map(String::from)
            .to_vec();
        let cells: Vec<Vec<String>> = list(&r["classes"])
            .iter()
            .filter(|c| c["holdings"].as_u64() > Some(0))
            .map(|c| {
                vec![
                    c["class"].as_str().unwrap_or("").to_string(),
                    count(&c["holdings"]),
                    format!("{:.4}", num(&c["reach"])),
                    format!("{:.3}", num(&c["share"])),
                ]
            })
            .collect();
        print_aligned(&head, &cells, &[0]);
    }
}
