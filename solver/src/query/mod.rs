//! `stud query`'s answers as data, for the command line, `stud explore` and the Python package
//! alike: the spot notation read and replayed ([`spot`]), the rows of an answer ([`rows`]) and
//! the answer on a betting-tree file, the real games heads-up ([`betting`]), and the values
//! of its actions ([`values`], heads-up or multiway), on a multiway file, three to eight seats
//! ([`multiway`], its seats' ranges [`multiway_ranges`]), and on
//! a public-tree file, the walkable games ([`public`]); and the re-solved policy of a hand at
//! a spot late in the hand ([`resolve`]); which of them answers a file, by its kind, is
//! [`file`]'s dispatch, the one the command line and the Python package both call. The command line
//! prints them (`solver/src/cli/query/`); the notation in full is docs/guide/query.md.

pub mod betting;
pub mod file;
pub mod multiway;
pub mod multiway_ranges;
pub mod policy;
pub mod public;
pub mod resolve;
pub mod rows;
pub mod spot;
pub mod values;
