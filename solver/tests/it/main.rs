//! The `solver` crate's integration tests, one binary: each module is what was a test crate of
//! its own (linking one binary instead of thirty-three is most of the release test build).

mod abstraction_cli;
mod aggregate_cli;
mod best_response;
mod betting_cli;
mod betting_files;
mod bot_cli;
mod cli;
mod common;
mod completions_cli;
mod deal_cfr;
mod eval_real;
mod explore_browser;
mod explore_server;
mod export_cli;
mod files;
mod fuzz;
mod hand_cli;
mod ladder;
mod ministud;
mod multiway;
mod multiway_lift;
mod multiway_sampled;
mod protocol_fuzz;
mod query_cli;
mod reference_games;
mod replay_cli;
mod resolve_cli;
mod sampling;
mod serve_match;
mod serve_tcp;
mod shipped;
mod strategy_bot;
mod values_cli;
mod yardstick;
