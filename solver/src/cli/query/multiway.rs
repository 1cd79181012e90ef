//! `stud query` on a multiway strategy file (three to eight seats of real stud): the library's
//! answer ([`solver::query::multiway`]: the spot replayed on the rules engine, the decision
//! located in the file's abstraction, the rows of `--hand`'s bucket or of every bucket, as the
//! file's player reads them) printed as text or `--json`.

use super::rows::{print_play, print_rows, print_table};
use super::spot::{cards_text, Step};
use super::Args;
use abstraction::multiway_deal::MultiwayView;
use abstraction::rules::game_def::ordinal;
use anyhow::{bail, Result};
use solver::query::betting::Kind;
use solver::query::multiway::{answer, Answer, Table};
use solver::strategy_file::multiway::MultiwayFile;

/// Runs `stud query` on the multiway file `f`, opened from `args.file`.
pub(super) fn run(f: &MultiwayFile, args: &Args, steps: &[Step]) -> Result<()> {
    if args.resolve || args.ranges {
        bail!(
            "{} reads a heads-up strategy; {} is a multiway file (three or more seats)",
            if args.resolve {
                "--resolve"
            } else {
                "--ranges"
            },
            args.file.display()
        );
    }
    let a = answer(f, args.hand.as_deref(), args.play, steps)?;
    if args.output.json {
        println!("{}", a.json());
        return Ok(());
    }
    print_answer(f, a, args.hand.is_none());
    Ok(())
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
