//! `stud query` on a public-tree file (the walkable games): the library's answer
//! ([`solver::query::public`], reached through [`solver::query::file`]) printed as text.

use super::rows::{print_play, print_table};
use abstraction::rules::seat_name;
use solver::query::public::Answer;

/// Prints the answer on a public-tree file as text: the rows of every private card or of
/// `--hand`'s at the spot's decision.
pub(super) fn print_answer(a: &Answer) {
    println!("{} to act on {}", seat_name(a.seat), a.street_name);
    print_play(a.play);
    print_table(&a.names, &a.rows);
}
