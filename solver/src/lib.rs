//! Solving, storing and serving limit stud strategies: the CFR family, best response, strategy
//! files, bots and their servers. The `stud` binary's commands are not in the library: they are
//! the binary's (`solver/src/cli/`), built with the default feature `cli`, so that a bot linking
//! the library with `default-features = false` builds without clap and indicatif.
#![warn(missing_docs)]

pub mod action;
pub mod aggregate;
pub mod best_response;
pub mod bot;
pub mod bucket_cache;
pub mod cfr;
pub mod checkpoint;
pub mod container;
pub mod deal_cfr;
pub mod describe;
pub mod drill;
pub mod gadget;
pub mod input;
pub mod kernel;
pub mod ladder;
pub mod lock;
pub mod memory;
#[cfg(feature = "mpi")]
pub mod mpi;
pub mod multiway;
pub mod players;
pub mod policy;
pub mod public_view;
pub mod purify;
pub mod query;
pub mod ranges;
pub mod resolve;
pub mod review;
pub mod session;
pub mod solve;
pub mod spot;
pub mod strategy_file;
pub mod terminal;
pub mod values;
