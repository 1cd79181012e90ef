//! How a multiway file's rows section stores each decision's row: a byte a probability
//! ([`RowFormat::Byte`], 255ths) or half a byte ([`RowFormat::Nibble`], 15ths), both `k - 1`
//! values a row of `k` actions (the last is the scale minus the others), both read in place.
//!
//! # The 4-bit rows (`4bit`)
//! ```text
//! bytes 0..8   the tag `ROWS4BIT` (what tells the section from a byte a probability's)
//! bytes 8..    value j of the byte layout (`Stored`: the same order, the same offsets) in
//!              byte 8 + j / 2, the low nibble when j is even, the high one when odd; an odd
//!              count's last high nibble is 0
//! ```
//! A row of `k` normalized probabilities `p` is stored as `q` in fifteenths (`0..=15`, summing
//! to 15 exactly) by largest remainder: each `15 p` rounded down, then the remaining units given
//! one each to the largest fractional parts (ties to the first action). So every `q / 15` is
//! `15 p` rounded down or up: within `(k - 1) / (15 k)` of `p` (1/30 for two actions, under
//! 1/15 always), and the row sums to 1 exactly. Fifteenths, not sixteenths: then any one
//! action's probability 1 fits a nibble. Tiny probabilities: an action played below 1/15 may
//! be stored as 0 (never played) and one within 1/15 of 1 as 1; which of them do is the
//! rounding's, nothing else (a support kept at any cost would move the larger probabilities
//! further). Measured to cost nothing on the exact yardstick (docs/notes/multiway.md, "Rows
//! of half a byte").

use crate::strategy_file::{Width, MAX_ACTIONS};
use abstraction::named::Named;

/// The tag that begins a 4-bit rows section.
pub const NIBBLE_TAG: &[u8; 8] = b"ROWS4BIT";

/// The stored value of probability 1 in a 4-bit row.
pub const NIBBLE_SCALE: u8 = 15;

/// How a multiway file stores its rows, as `stud solve --rows` and `stud convert --rows` name
/// it.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum RowFormat {
    /// A byte a stored probability (255ths, cumulative rounding: [`Width::U8`]).
    #[default]
    Byte,
    /// Half a byte a stored probability (15ths, largest remainder; the module's docs).
    Nibble,
}

impl Named for RowFormat {
    const ALL: &'static [(&'static str, RowFormat)] =
        &[("8bit", RowFormat::Byte), ("4bit", RowFormat::Nibble)];
    const WHAT: &'static str = "a row encoding";
}

impl RowFormat {
    /// The bytes of a rows section holding `values` stored probabilities.
    pub fn section_len(self, values: usize) -> usize {
        match self {
            RowFormat::Byte => values,
            RowFormat::Nibble => NIBBLE_TAG.len() + values.div_ceil(2),
        }
    }

    /// Bits a stored probability.
    pub fn bits(self) -> u32 {
        match self {
            RowFormat::Byte => 8,
            RowFormat::Nibble => 4,
        }
    }

    /// A rows section of `values` stored probabilities, every value 0 (the tag written).
    pub fn empty_section(self, values: usize) -> Vec<u8> {
        let mut out = vec![0u8; self.section_len(values)];
        if self == RowFormat::Nibble {
            out[..NIBBLE_TAG.len()].copy_from_slice(NIBBLE_TAG);
        }
        out
    }

    /// Writes the normalized row `row` (`k` probabilities) into `section` (of
    /// [`RowFormat::empty_section`]) as its `k - 1` values starting at value `at`.
    pub fn encode_row(self, row: &[f64], section: &mut [u8], at: usize) {
        let k = row.len();
        match self {
            RowFormat::Byte => Width::U8.encode_row(row, &mut section[at..at + k - 1]),
            RowFormat::Nibble => {
                let mut q = [0u8; MAX_ACTIONS];
                fifteenths(row, &mut q[..k]);
                let data = &mut section[NIBBLE_TAG.len()..];
                for (j, &v) in (at..).zip(&q[..k - 1]) {
                    data[j / 2] |= v << (4 * (j % 2));
                }
            }
        }
    }

    /// Reads the row of `out.len()` actions whose values start at value `at` of `section`;
    /// `None` where they lie outside it or sum past the scale (a damaged row).
    pub fn decode_row(self, section: &[u8], at: usize, out: &mut [f64]) -> Option<()> {
        let k = out.len();
        match self {
            RowFormat::Byte => Width::U8.decode_row(section.get(at..at + k - 1)?, out),
            RowFormat::Nibble => {
                let data = section.get(NIBBLE_TAG.len()..)?;
                // The last value's byte, checked once: the others lie before it.
                data.get((at + k - 1).saturating_sub(1) / 2)?;
                let mut sum = 0u32;
                for (j, o) in (at..).zip(&mut out[..k - 1]) {
                    let v = (data[j / 2] >> (4 * (j % 2))) & 0xf;
                    sum += v as u32;
                    *o = v as f64;
                }
                let scale = NIBBLE_SCALE as u32;
                if sum > scale {
                    return None;
                }
                out[k - 1] = (scale - sum) as f64;
                let inv = 1.0 / NIBBLE_SCALE as f64;
                out.iter_mut().for_each(|o| *o *= inv);
                Some(())
            }
        }
    }

    /// `row` (normalized) as a file of this format stores it and reads it back: what a player
    /// of the file plays, for measuring the rounding (`stud eval multiway --rows`).
    pub fn round_trip(self, row: &mut [f64]) {
        let mut section = [0u8; NIBBLE_TAG.len() + MAX_ACTIONS];
        if self == RowFormat::Nibble {
            section[..NIBBLE_TAG.len()].copy_from_slice(NIBBLE_TAG);
        }
        self.encode_row(row, &mut section, 0);
        let decoded = self.decode_row(&section, 0, row);
        debug_assert!(decoded.is_some(), "an encoded row reads back");
    }

    /// Whether `section` (of `values` stored probabilities) is a rows section of this format:
    /// its length, and for 4-bit rows the tag and an odd count's padding nibble 0.
    pub fn holds(self, section: &[u8], values: usize) -> bool {
        if section.len() != self.section_len(values) {
            return false;
        }
        match self {
            RowFormat::Byte => true,
            RowFormat::Nibble => {
                section.starts_with(NIBBLE_TAG)
                    && (values % 2 == 0 || section[section.len() - 1] >> 4 == 0)
            }
        }
    }
}

/// The normalized row `row` in fifteenths summing to exactly [`NIBBLE_SCALE`], by largest
/// remainder (ties to the first action), into `out` (as long as `row`).
pub fn fifteenths(row: &[f64], out: &mut [u8]) {
    let scale = NIBBLE_SCALE as f64;
    let mut frac = [0.0f64; MAX_ACTIONS];
    let mut units = 0i32;
    for (a, &p) in row.iter().enumerate() {
        let x = (p.clamp(0.0, 1.0) * scale).min(scale);
        let down = x.floor();
        out[a] = down as u8;
        frac[a] = x - down;
        units += down as i32;
    }
    let frac = &mut frac[..row.len()];
    // A row that sums a rounding error past 1 can floor to more than the scale: take the
    // excess back from the largest values (never more than one unit in practice).
    while units > NIBBLE_SCALE as i32 {
        let a = (0..row.len())
            .max_by_key(|&a| (out[a], usize::MAX - a))
            .unwrap_or(0);
        out[a] -= 1;
        units -= 1;
    }
    while units < NIBBLE_SCALE as i32 {
        // The largest fractional part not given a unit yet (the first of equals).
        let mut best = 0;
        for a in 1..frac.len() {
            if frac[a] > frac[best] {
                best = a;
            }
        }
        out[best] += 1;
        // Taken: below any fraction (each is in 0..1), so every other action comes first.
        frac[best] = -1.0 - units as f64;
        units += 1;
    }
}

#[cfg(test)]
mod tests;
