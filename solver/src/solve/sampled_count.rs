//! What a sampled multiway solve would hold and write, counted before anything is solved
//! (`stud solve --estimate`): its betting abstraction is built (the rules engine's walk, as the
//! solve builds it), its rows laid out with the card abstraction's buckets per street, and its
//! strategy file's rows and its memory estimate counted from them. The bucketing is not built:
//! its bytes (a few hundred KiB embedded in the file, the same in memory) are left out.

use super::sampled::{Settings, MAX_NODES};
use super::Request;
use crate::memory::{status_bytes, Estimate};
use crate::multiway::sampled::Rows;
use crate::session::sampled::{betting, estimate_of, ADVICE};
use crate::strategy_file::multiway::{stored_values, RowFormat};
use abstraction::named::Named;
use anyhow::{Context, Result};
use serde::Serialize;

/// A sampled solve's size, counted.
#[derive(Clone, Debug, Serialize)]
pub struct Count {
    /// The game's name.
    pub game: String,
    /// Seats.
    pub seats: u8,
    /// The card abstraction's size (`tiny`, `small`, ...).
    pub abstraction: String,
    /// Buckets per street.
    pub buckets: Vec<u32>,
    /// What a decision recalls of its street (`history`, `position`).
    pub within_street: &'static str,
    /// The cap for multiway pots (`2@6`), if any.
    pub multiway_cap: Option<String>,
    /// Nodes of the betting abstraction.
    pub nodes: usize,
    /// Information sets (decision × pot class × bucket).
    pub infosets: usize,
    /// Infoset-actions: the solver's slots.
    pub infoset_actions: usize,
    /// Probabilities a file stores (`k - 1` a row of `k` actions).
    pub stored: usize,
    /// The rows section's bytes at 8 bits a probability and at 4.
    pub rows_8bit: usize,
    /// The same at 4 bits.
    pub rows_4bit: usize,
    /// The solve's memory estimate (the bucketing left out).
    pub estimate: Estimate,
    /// Its expected peak, bytes.
    pub peak_bytes: usize,
}

/// Counts the solve `request` asks of the sampled back end set as `s`.
pub fn count(request: &Request, s: &Settings) -> Result<Count> {
    let def = &request.game;
    let size = s.size(request)?;
    let tree = betting(def, s.within_street, s.cap, MAX_NODES).with_context(|| {
        format!(
            "the betting abstraction of {} ({} seats; {ADVICE})",
            request.name, def.seats
        )
    })?;
    let resident = status_bytes("VmRSS").unwrap_or(0);
    let buckets = size.buckets.clone();
    let rows = Rows::new(&tree, &buckets);
    let stored = stored_values(&tree, &rows);
    let estimate = estimate_of(&tree, &buckets, 0, s.batch, resident);
    Ok(Count {
        game: request.name.clone(),
        seats: def.seats,
        abstraction: size.name.clone(),
        buckets,
        within_street: s.within_street.name(),
        multiway_cap: s.cap.map(|c| c.name()),
        nodes: tree.nodes.len(),
        infosets: rows.infosets,
        infoset_actions: rows.slots,
        stored,
        rows_8bit: RowFormat::Byte.section_len(stored),
        rows_4bit: RowFormat::Nibble.section_len(stored),
        peak_bytes: estimate.peak(),
        estimate,
    })
}
