//! The exact multiway solver's policy (`stud solve --game kuhn-3p|leduc-3p|tristud --out
//! F.json`, [`crate::session::multiway::write_policy`]) read back onto its game's whole tree:
//! the game from its head, the tree rebuilt by the rules engine (deterministic), and each
//! information set's row checked against the tree's (the same seat, what it has seen, its
//! actions) before its probabilities are taken. What `stud query F.json SPOT --values` walks.

use abstraction::history_tree::HistoryTree;
use abstraction::rules::{seat_name, GameDef};
use abstraction::tree::Budget;
use anyhow::{bail, ensure, Context, Result};
use serde::Deserialize;
use std::path::Path;

/// The `format` of the policies this build reads.
pub const FORMAT: &str = "stud multiway policy 1";

/// The most histories a policy's game tree may have when read back (tristud has 8M).
const MAX_HISTORIES: usize = 1 << 25;

/// How far a row's probabilities may sum from 1 (they are written as the solver's `f64`s).
const SUM_TOLERANCE: f64 = 1e-6;

/// A policy as written.
#[derive(Deserialize)]
struct Written {
    format: String,
    game: GameDef,
    seats: usize,
    iterations: u64,
    nash_conv: f64,
    infosets: Vec<Row>,
}

/// One information set as written.
#[derive(Deserialize)]
struct Row {
    seat: u8,
    seen: String,
    actions: Vec<String>,
    strategy: Vec<f64>,
}

/// An exact multiway policy read back: the game, its whole tree and a probability per slot.
pub struct Policy {
    /// The game.
    pub game: GameDef,
    /// Its whole game tree, as the solver built it.
    pub tree: HistoryTree,
    /// The probability of each slot (infoset-action) of `tree`.
    pub strategy: Vec<f64>,
    /// The solver's iterations.
    pub iterations: u64,
    /// The NashConv the solver measured.
    pub nash_conv: f64,
}

/// Whether `bytes` begin as a JSON object (a policy), not as a binary strategy file.
pub fn is_policy(bytes: &[u8]) -> bool {
    bytes.iter().find(|b| !b.is_ascii_whitespace()) == Some(&b'{')
}

/// Whether the file at `path` begins as a JSON object (unreadable: no).
pub fn is_policy_file(path: &Path) -> bool {
    use std::io::Read;
    let mut head = [0u8; 64];
    let n = std::fs::File::open(path).and_then(|mut f| f.read(&mut head));
    n.is_ok_and(|n| is_policy(&head[..n]))
}

impl Policy {
    /// Reads the policy at `path` (bounded: [`crate::input::POLICY`]) and checks it against
    /// its game's tree.
    pub fn open(path: &Path) -> Result<Policy> {
        let text = crate::input::read_text(path, crate::input::POLICY)?;
        Policy::parse(&text).with_context(|| path.display().to_string())
    }

    /// [`Policy::open`] of the policy's text.
    pub fn parse(text: &str) -> Result<Policy> {
        let w: Written = serde_json::from_str(text).context("not a multiway policy")?;
        ensure!(
            w.format == FORMAT,
            "format {:?}: this build reads {FORMAT:?}",
            w.format
        );
        ensure!(
            w.seats == w.game.seats as usize,
            "{} seats in a game of {}",
            w.seats,
            w.game.seats
        );
        let budget = Budget::nodes(MAX_HISTORIES);
        let tree = HistoryTree::build(&w.game, budget).context("its game's tree")?;
        if w.infosets.len() != tree.infosets.len() {
            bail!(
                "{} information sets, its game's tree {}: written by another build",
                w.infosets.len(),
                tree.infosets.len()
            );
        }
        let mut strategy = vec![0.0; tree.num_slots];
        for (i, (row, set)) in w.infosets.iter().zip(&tree.infosets).enumerate() {
            let first = set.first_slot as usize;
            let slots = first..first + set.actions as usize;
            let seen = tree.seen[i].describe();
            let actions: Vec<String> = tree.actions[slots.clone()]
                .iter()
                .map(|a| a.to_string())
                .collect();
            if row.seat != set.seat || row.seen != seen || row.actions != actions {
                bail!(
                    "information set {i} is {}'s {:?} ({}), its game's tree has {}'s {seen:?} \
                     ({}): written by another build",
                    seat_name(row.seat),
                    row.seen,
                    row.actions.join(" "),
                    seat_name(set.seat),
                    actions.join(" ")
                );
            }
            let sum: f64 = row.strategy.iter().sum();
            if row.strategy.len() != actions.len()
                || row.strategy.iter().any(|p| !(0.0..=1.0).contains(p))
                || (sum - 1.0).abs() > SUM_TOLERANCE
            {
                bail!(
                    "information set {i} ({:?}): {:?} is not a probability for each of its {} \
                     actions",
                    row.seen,
                    row.strategy,
                    actions.len()
                );
            }
            strategy[slots].copy_from_slice(&row.strategy);
        }
        Ok(Policy {
            game: w.game,
            tree,
            strategy,
            iterations: w.iterations,
            nash_conv: w.nash_conv,
        })
    }
}
