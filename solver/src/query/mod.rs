//! `stud query`'s answers as data, for the command line, `stud explore` and the Python package
//! alike: the spot notation read and replayed ([`spot`]), the rows of an answer ([`rows`]) and
//! the answer on a betting-tree file, the real games heads-up ([`betting`]), and the values
//! of its actions ([`values`]), and on a public-tree file, the walkable games ([`public`]). The command line
//! prints them (`solver/src/cli/query/`); the notation in full is docs/guide/query.md.

pub mod betting;
pub mod public;
pub mod rows;
pub mod spot;
pub mod values;
