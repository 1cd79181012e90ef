//! `stud query` on a public-tree file (the walkable games): the library's answer
//! ([`solver::query::public`]) printed as text or `--json`.

use super::rows::{print_play, print_table};
use super::spot::Step;
use super::Args;
use anyhow::Result;
use solver::query::public::answer;
use solver::strategy_file::PublicFile;

/// `stud query` on a public-tree file: the rows of every private card or of `--hand`'s at the
/// spot's decision, printed.
pub(super) fn run_public(f: &PublicFile, args: &Args, steps: &[Step]) -> Result<()> {
    let a = answer(f, args.hand.as_deref(), args.play, steps)?;
    if args.output.json {
        println!("{}", a.json());
    } else {
        println!("p{} to act on {}", a.seat + 1, a.street_name);
        print_play(a.play);
        print_table(&a.names, &a.rows);
    }
    Ok(())
}
