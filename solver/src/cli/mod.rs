//! The subcommands of the `stud` binary, one module each.

pub mod hand;
pub mod matches;
pub mod play;
pub mod replay;
pub mod serve;
pub mod simulate;
