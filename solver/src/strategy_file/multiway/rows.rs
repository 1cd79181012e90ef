//! How a multiway file's rows section stores each decision's row: a byte a probability
//! ([`RowFormat::Byte`], 255ths) or half a byte ([`RowFormat::Nibble`], 14ths), both `k - 1`
//! values a row of `k` actions (the last is the scale minus the others), both read in place.
//!
//! # The 4-bit rows (`4bit`)
//! ```text
//! bytes 0..8   the tag `ROWS4BIT` (what tells the section from a byte a probability's)
//! bytes 8..    value j of the byte layout (`Stored`: the same order, the same offsets) in
//!              byte 8 + j / 2, the low nibble when j is even, the high one when odd; an odd
//!              count's last high nibble is 0
//! ```
//! A row of `k` normalized probabilities `p` is stored as `q` in fourteenths (`0..=14`, summing
//! to 14 exactly): each `14 p` rounded down, then the remaining units given one each by largest
//! remainder (ties to the first action), except that a less likely action never takes a unit
//! that ties it with the most likely one while another action can take it, and the most likely
//! takes a unit first where that breaks a tie ([`fourteenths`]). So every `q` is `14 p` rounded
//! down or up: within 1/14 of `p`, the row summing to 1 exactly; and the most likely action
//! stays the most likely, strictly wherever a rounding down or up that sums to 14 can keep it
//! so. A uniform row (every action equally likely: most of them rows no traversal reached) is
//! stored as its first value 15 and the others 0, and read as uniform (a byte row stored as the
//! uniform row's cumulative rounding is read as uniform too). Both for `pure` play,
//! which plays the most likely action alone and shares a row between exact ties: fifteenths
//! (the first version) could not store a half (nor fourteenths a third, hence the flag), broke
//! the ties of the unreached rows, and lost to the file they came from
//! (docs/notes/multiway.md, "Rows of half a byte").
//! Tiny probabilities: an action played below 1/14 may be stored as 0 (never played) and one
//! within 1/14 of 1 as 1; which of them do is the rounding's, nothing else (a support kept at
//! any cost would move the larger probabilities further).

use crate::strategy_file::{Width, MAX_ACTIONS};
use abstraction::named::Named;

/// The tag that begins a 4-bit rows section.
pub const NIBBLE_TAG: &[u8; 8] = b"ROWS4BIT";

/// The stored value of probability 1 in a 4-bit row: even, so that two actions at a half each
/// are stored exactly (pure play of a row shares its weight between exact ties, and an odd
/// scale would break them).
pub const NIBBLE_SCALE: u8 = 14;

/// The first value of a 4-bit row that is uniform (every action equally likely: a row no
/// traversal reached, or one that came out so), which no sum of fourteenths can be.
pub const NIBBLE_UNIFORM: u8 = 15;

/// How a multiway file stores its rows, as `stud solve --rows` and `stud convert --rows` name
/// it.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum RowFormat {
    /// A byte a stored probability (255ths, cumulative rounding: [`Width::U8`]).
    #[default]
    Byte,
    /// Half a byte a stored probability (14ths, the most likely action kept; the module's docs).
    Nibble,
}

impl Named for RowFormat {
    const ALL: &'static [(&'static str, RowFormat)] =
        &[("8bit", RowFormat::Byte), ("4bit", RowFormat::Nibble)];
    const WHAT: &'static str = "a row encoding";
}

/// Whether a row as [`RowFormat::decode_row`] reads it is a row the solve reached in no pot
/// class: exactly uniform (two or more actions), as `SampledSolver::average_strategy` writes it
/// and both formats read it back. A reached row is exactly uniform only by chance.
pub fn is_unreached(row: &[f64]) -> bool {
    row.len() > 1 && row.iter().all(|&p| p == row[0])
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
                if row.iter().all(|&p| p == row[0]) {
                    q[0] = NIBBLE_UNIFORM;
                } else {
                    fourteenths(row, &mut q[..k]);
                }
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
            RowFormat::Byte => {
                Width::U8.decode_row(section.get(at..at + k - 1)?, out)?;
                // The uniform row (most of them rows no traversal reached) is stored by
                // cumulative rounding, which gives the first action one 255th more where 255
                // does not divide by `k` (128 and 127 of two): read back as the uniform row it
                // was, as the 4-bit flag is, so that pure play shares it between its actions
                // rather than taking the first (a fold).
                if Width::U8.is_unreached(out) {
                    out.fill(1.0 / k as f64);
                }
                Some(())
            }
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
                if out[0] == NIBBLE_UNIFORM as f64 && sum == NIBBLE_UNIFORM as u32 {
                    out.fill(1.0 / k as f64);
                    return Some(());
                }
                let scale = NIBBLE_SCALE as u32;
                if sum > scale {
                    return None;
                }
                out[k - 1] = (scale - sum) as f64;
                out.iter_mut().for_each(|o| *o /= NIBBLE_SCALE as f64);
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

/// The normalized row `row` in fourteenths summing to exactly [`NIBBLE_SCALE`], into `out` (as
/// long as `row`): each `14 p` rounded down, then the units left given one each by largest
/// remainder (ties to the first action), except that a less likely action does not take a
/// unit that would tie the most likely one (the first of equals) while another can take it,
/// and the most likely takes one first where that breaks a tie.
pub fn fourteenths(row: &[f64], out: &mut [u8]) {
    let k = row.len();
    let scale = NIBBLE_SCALE as f64;
    let (mut down, mut frac) = ([0u8; MAX_ACTIONS], [0.0f64; MAX_ACTIONS]);
    let mut units = 0i32;
    for (a, &p) in row.iter().enumerate() {
        let x = p.clamp(0.0, 1.0) * scale;
        down[a] = x.floor() as u8;
        frac[a] = x - x.floor();
        units += down[a] as i32;
    }
    // A row that sums a rounding error past 1 can floor to more than the scale: take the
    // excess back from the largest values (never more than one unit in practice).
    while units > NIBBLE_SCALE as i32 {
        let a = (0..k)
            .max_by_key(|&a| (down[a], usize::MAX - a))
            .unwrap_or(0);
        down[a] -= 1;
        units -= 1;
    }
    let left = (NIBBLE_SCALE as i32 - units) as usize;
    let top = (0..k).fold(0, |t, a| if row[a] > row[t] { a } else { t });
    // Pure play keeps only the most likely action: a tie would share its weight with a less
    // likely one (measured: docs/notes/multiway.md, "Rows of half a byte").
    let (mut barred, mut top_first) = ([false; MAX_ACTIONS], false);
    loop {
        let given = give(&frac[..k], left, &barred, top_first.then_some(top));
        for a in 0..k {
            out[a] = down[a] + given[a] as u8;
        }
        let tied = (0..k).find(|&b| row[b] < row[top] && out[b] >= out[top]);
        match tied {
            None => return,
            Some(b) if given[b] && !barred[b] => barred[b] = true,
            Some(_) if !top_first && !given[top] && frac[top] > 0.0 => top_first = true,
            // No rounding down or up that sums to the scale breaks it.
            Some(_) => return,
        }
    }
}

/// Which of the actions take one of `left` units: `first` if given, then the largest
/// fractional parts (the first of equals) among those not `barred`, then among any.
fn give(frac: &[f64], left: usize, barred: &[bool], first: Option<usize>) -> [bool; MAX_ACTIONS] {
    let mut given = [false; MAX_ACTIONS];
    for _ in 0..left {
        let open = |a: usize| !given[a];
        let next = first
            .filter(|&f| open(f))
            .or_else(|| largest(frac, |a| open(a) && !barred[a]))
            .or_else(|| largest(frac, open));
        match next {
            Some(a) => given[a] = true,
            None => break,
        }
    }
    given
}

/// The action with the largest fractional part among those `allowed` (the first of equals).
fn largest(frac: &[f64], allowed: impl Fn(usize) -> bool) -> Option<usize> {
    (0..frac.len())
        .filter(|&a| allowed(a))
        .fold(None, |best: Option<usize>, a| match best {
            Some(b) if frac[b] >= frac[a] => Some(b),
            _ => Some(a),
        })
}

#[cfg(test)]
mod tests;
