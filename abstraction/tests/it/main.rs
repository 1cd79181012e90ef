//! The `abstraction` crate's integration tests, one binary (one link instead of three).

mod fuzz;
mod phh_roundtrip;
mod pokerkit;
