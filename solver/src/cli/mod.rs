//! The subcommands of the `stud` binary, one module each.

pub mod hand;
pub mod replay;
pub mod simulate;
