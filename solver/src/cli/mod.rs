//! The subcommands of the `stud` binary, one module each.
