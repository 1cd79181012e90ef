//! The subcommands of the `stud` binary, one module each.

pub mod abstraction;
pub mod hand;
