//! Solving, storing and serving limit stud strategies: the CFR family, best response, strategy
//! files, and the commands of the `stud` binary.
#![warn(missing_docs)]

pub mod bot;
pub mod cli;
