//! The strategy file of a sampled multiway solve (three to eight seats of real stud), and its
//! lookup of a real decision (the player that plays it is [`crate::bot::MultiwayPlayer`]).
//!
//! # Bytes
//! The container of [`crate::container`] (format version 5: prefix, bincode header, 64-byte
//! aligned sections, FNV-1a 64 of the header, of each section and of the whole file), with the
//! magic `STUDMWSF`, the header [`MultiwayFileHeader`] and two sections:
//! ```text
//! section 0   rows        each decision's row of `k` actions as `k - 1` values, the last
//!                         the scale minus the others, in the solver's order (`multiway::
//!                         sampled::Rows`): per street tree, per pot class, per bucket, per
//!                         decision ([`Stored`]); in one of two encodings ([`RowFormat`],
//!                         `stud solve --rows`, `stud convert --rows`):
//!                         `8bit` (the default): a byte a value, probability × 255 by
//!                         cumulative rounding (as a heads-up file's `u8` rows:
//!                         `Width::encode_row`);
//!                         `4bit`: the tag `ROWS4BIT`, then two values a byte (low nibble
//!                         first), probability × 14, the most likely action kept, a uniform row flagged (`rows.rs`; since
//!                         2026-12-05, refused by builds before it: the length is neither of
//!                         theirs).
//!                         Files written before 2026-12-02 hold a `u16` LE per slot instead
//!                         (probability × 65535, rounded; told apart by the section's length,
//!                         2 bytes a slot) and are read as they are.
//! section 1   bucketing   the heads-up bucketing's own encoding (`Bucketing::encode`, with its
//!                         checksum), the card abstraction the rows were solved with
//! section 2.. by live     with the table view only (`MultiwayView::Table`): for 2 to N live
//!                         seats, the bucketing of that many (`Bucketing::build_table`)
//! next        within      what a decision recalls of its street's betting, its name in ASCII
//!                         (`history`, `position`: `WithinStreet`); files written before
//!                         2026-12-03 lack it and are `history`
//! last        cap         with a cap for multiway pots only (`stud solve --multiway-cap`,
//!                         since 2026-12-05): `cap BETS@SEATS` in ASCII (`MultiwayCap`); a
//!                         file without it has the game's cap on every street, and builds
//!                         before it refuse a file with it (a section too many)
//! ```
//! A file of two sections (three with the last) is of the view against the best showing
//! opponent alone; with the table view it has N + 1 (N + 2).
//! The betting abstraction is not stored: it is rebuilt from the game in the header by the rules
//! engine (`MultiwayBetting::build`, deterministic) and must give the header's node and slot
//! counts, else the file is refused.
//!
//! # Playing it
//! One lookup per decision: the node by [`MultiwayBetting::locate`] (the street's tree by the
//! seats that began it, the node by the street's betting, the pot class by the pot that entered
//! it), the bucket by the seat's view (against the best showing live opponent, or the whole
//! table's, as the file's [`MultiwayView`]), the row played through the player's
//! [`Purification`](crate::purify::Purification) (`FILE:mixed|threshold=T|pure`, as a heads-up
//! file), and each abstract action's real action by [`MultiwayBetting::real_action`].

use crate::action::Bet;
use crate::checkpoint::Problem;
use crate::container::{self, Container};
use crate::multiway::sampled::{Rows, SampledSolver};
use crate::strategy_file::MAX_ACTIONS;
use abstraction::betting_abstraction::BettingAbstraction;
use abstraction::bucketing::{Bucketing, TableView};
use abstraction::cards::CardSet;
use abstraction::multiway_betting::{
    pot_classes, MultiwayBetting, MultiwayCap, MwKind, Spot, WithinStreet, POT_CLASSES,
};
use abstraction::multiway_deal::MultiwayBuckets;
use abstraction::named::Named;
use abstraction::rules::{Action, GameDef, State};
use anyhow::{bail, Context, Result};
use serde::{Deserialize, Serialize};
use std::path::Path;

pub mod diff;
mod rows;
mod slots;
pub use rows::{fourteenths, is_unreached, RowFormat, NIBBLE_SCALE, NIBBLE_TAG, NIBBLE_UNIFORM};

/// How an opened file stores its rows ([`MultiwayFile::stored`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct StoredRows {
    /// `8bit`, `4bit` (`k - 1` values a row of `k` actions, the last implied) or `16bit` (a
    /// value for every slot: files before 2026-12-02).
    pub encoding: &'static str,
    /// Bits a stored value.
    pub bits: u32,
    /// Values stored.
    pub values: usize,
    /// Bytes of the rows section.
    pub bytes: usize,
}

/// The magic of a multiway strategy file.
pub const MAGIC: &[u8; 8] = b"STUDMWSF";
const WHAT: &str = "multiway strategy file";
/// The most nodes a file's betting abstraction may rebuild to (a damaged game in a header
/// must not make the reader build without end).
const MAX_NODES: usize = 50_000_000;

/// The header of a multiway strategy file. The field order is the file format: do not reorder.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct MultiwayFileHeader {
    /// The game (stored as JSON text, see [`crate::container::game_as_json`]).
    #[serde(with = "crate::container::game_as_json")]
    pub game: GameDef,
    /// The card abstraction's name.
    pub card_abstraction: String,
    /// The betting abstraction.
    pub betting: BettingAbstraction,
    /// Pot classes of a street after the first.
    pub pot_classes: u8,
    /// The solver: `external-sampling MCCFR` and the member of the CFR family.
    pub solver: String,
    /// Iterations (batches) completed.
    pub iterations: u64,
    /// Traversals per iteration.
    pub batch: u64,
    /// The seed.
    pub seed: u64,
    /// Nodes of the betting abstraction.
    pub nodes: u64,
    /// Slots (infoset-actions).
    pub slots: u64,
}

/// Where each decision's row lies in a file's rows section: `k - 1` bytes per row of `k`
/// actions ([`Width::U8`]), in the order of the solver's slots (`Rows`), one fewer a row.
struct Stored {
    /// Per street tree: the first byte of its rows, the bytes of one row of all its decisions
    /// (one pot class and bucket), and its street's buckets.
    trees: Vec<(usize, usize, usize)>,
    /// Per node, where its row starts within its tree's row (decisions only).
    offset: Vec<u32>,
    /// Bytes in all.
    bytes: usize,
}

impl Stored {
    /// The layout of `betting`'s rows with the buckets per street of `rows`.
    fn new(betting: &MultiwayBetting, rows: &Rows) -> Stored {
        let mut offset = vec![0u32; betting.nodes.len()];
        let (mut trees, mut bytes) = (Vec::with_capacity(betting.trees.len()), 0);
        for t in &betting.trees {
            // A node's slots start at its `index` in the tree's row; its bytes at that index
            // less one for every row before it (decisions of one betting position share a row).
            let mut decisions: Vec<u32> = (t.root..t.end)
                .filter(|&i| betting.nodes[i as usize].kind == MwKind::Action)
                .collect();
            decisions.sort_by_key(|&i| betting.nodes[i as usize].index);
            let mut before = 0u32;
            for (j, &i) in decisions.iter().enumerate() {
                let index = betting.nodes[i as usize].index;
                if j > 0 && betting.nodes[decisions[j - 1] as usize].index != index {
                    before += 1;
                }
                offset[i as usize] = index - before;
            }
            let s = t.street as usize;
            let (per_row, buckets) = (
                (t.actions - t.action_nodes) as usize,
                rows.buckets[s] as usize,
            );
            trees.push((bytes, per_row, buckets));
            bytes += pot_classes(s) as usize * buckets * per_row;
        }
        Stored {
            trees,
            offset,
            bytes,
        }
    }

    /// The first byte of the row of `bucket` at decision `spot`.
    fn at(&self, spot: &Spot, bucket: u32) -> usize {
        let (base, per_row, buckets) = self.trees[spot.tree as usize];
        let row = spot.pot_class as usize * buckets + bucket as usize;
        base + row * per_row + self.offset[spot.node as usize] as usize
    }
}

/// The values a file of `betting` with the buckets of `rows` stores (`k - 1` a row of `k`
/// actions): its rows section's length at 8 bits, twice it at 4 ([`RowFormat::section_len`]).
pub fn stored_values(betting: &MultiwayBetting, rows: &Rows) -> usize {
    Stored::new(betting, rows).bytes
}

/// Calls `f` on every decision's row of `betting` with the buckets of `rows`: its spot, its
/// bucket and its number of actions, in the layout's order.
fn each_row(
    betting: &MultiwayBetting,
    rows: &Rows,
    mut f: impl FnMut(&Spot, u32, usize) -> Result<()>,
) -> Result<()> {
    for (ti, t) in betting.trees.iter().enumerate() {
        let s = t.street as usize;
        for i in t.root..t.end {
            let n = betting.nodes[i as usize];
            if n.kind != MwKind::Action {
                continue;
            }
            for pot_class in 0..pot_classes(s) as u8 {
                let spot = Spot {
                    tree: ti as u32,
                    node: i,
                    pot_class,
                };
                for bucket in 0..rows.buckets[s] {
                    f(&spot, bucket, n.num_children as usize)?;
                }
            }
        }
    }
    Ok(())
}

/// A rows section of `format` laid out as [`Stored`] for `betting` and `rows`, each
/// decision's row (normalized first: a row of no mass is uniform) filled by `fill` (given its
/// spot and bucket).
fn encode_rows(
    betting: &MultiwayBetting,
    rows: &Rows,
    format: RowFormat,
    mut fill: impl FnMut(&Spot, u32, &mut [f64]) -> Result<()>,
) -> Result<Vec<u8>> {
    let stored = Stored::new(betting, rows);
    let mut out = format.empty_section(stored.bytes);
    let mut buf = [0.0; MAX_ACTIONS];
    each_row(betting, rows, |spot, bucket, k| {
        let row = &mut buf[..k];
        fill(spot, bucket, row)?;
        crate::kernel::normalize(row);
        format.encode_row(row, &mut out, stored.at(spot, bucket));
        Ok(())
    })?;
    Ok(out)
}

/// The first slot of the row of `bucket` at `spot` in the solver's layout.
fn slot_of(betting: &MultiwayBetting, rows: &Rows, spot: &Spot, bucket: u32) -> usize {
    let index = betting.nodes[spot.node as usize].index;
    rows.slot(betting, spot.tree, spot.pot_class, bucket, index)
}

/// The rows section of the strategy `solver` plays ([`SampledSolver::played_strategy`]) in
/// `format`.
fn solver_rows(solver: &SampledSolver, format: RowFormat) -> Result<Vec<u8>> {
    let played = solver.played_strategy();
    let (betting, rows) = (&solver.betting, &solver.rows);
    encode_rows(betting, rows, format, |spot, bucket, row| {
        let slot = slot_of(betting, rows, spot, bucket);
        let k = row.len();
        for (b, &p) in row.iter_mut().zip(&played[slot..slot + k]) {
            *b = p as f64;
        }
        Ok(())
    })
}

/// The strategy `solver` plays ([`SampledSolver::played_strategy`]), every row rounded as a
/// file of `format` stores it and read back: what the file's player plays, by slot (for
/// measuring the rounding: `stud eval multiway --rows`).
pub fn as_stored(solver: &SampledSolver, format: RowFormat) -> Result<Vec<f32>> {
    let mut played = solver.played_strategy();
    let (betting, rows) = (&solver.betting, &solver.rows);
    let mut buf = [0.0; MAX_ACTIONS];
    let rounded = each_row(betting, rows, |spot, bucket, k| {
        let start = slot_of(betting, rows, spot, bucket);
        let row = &mut buf[..k];
        for (b, &p) in row.iter_mut().zip(&played[start..start + k]) {
            *b = p as f64;
        }
        crate::kernel::normalize(row);
        format.round_trip(row);
        for (p, &b) in played[start..start + k].iter_mut().zip(row.iter()) {
            *p = b as f32;
        }
        Ok(())
    });
    rounded.map(|()| played)
}

/// Writes the strategy `solver` plays on `problem` to `path`, atomically, its rows in
/// `format`.
pub fn write(
    path: &Path,
    solver: &SampledSolver,
    problem: &Problem,
    format: RowFormat,
) -> Result<()> {
    let rows = solver_rows(solver, format)?;
    let header = MultiwayFileHeader {
        game: problem.game.clone(),
        card_abstraction: problem.card_abstraction.clone(),
        betting: solver.betting.betting,
        pot_classes: POT_CLASSES,
        solver: solver.describe(),
        iterations: solver.iterations,
        batch: solver.batch as u64,
        seed: solver.seed,
        nodes: solver.betting.nodes.len() as u64,
        slots: solver.rows.slots as u64,
    };
    let b = &solver.buckets;
    let encoded: Vec<Vec<u8>> = std::iter::once(&b.heads_up)
        .chain(&b.by_live)
        .map(Bucketing::encode)
        .collect();
    let mut sections: Vec<&[u8]> = vec![&rows];
    sections.extend(encoded.iter().map(Vec::as_slice));
    sections.push(solver.betting.within_street.name().as_bytes());
    let cap = solver.betting.cap.map(|c| c.section());
    sections.extend(cap.as_deref());
    container::write(path, MAGIC, header, &sections)
}

/// Writes the multiway file `file` to `path` (atomically) with its rows re-encoded in
/// `format`: every row as `file` reads it, stored again; the header and the other sections
/// (bucketings, recall) copied byte for byte. Re-encoding rows read from a byte (or two)
/// rounds them a second time.
pub fn convert(file: &MultiwayFile, path: &Path, format: RowFormat) -> Result<()> {
    let bytes = &*file.data;
    let c: Container<MultiwayFileHeader> = Container::open(bytes, MAGIC, WHAT)?;
    let rows = encode_rows(&file.betting, &file.rows, format, |spot, bucket, row| {
        file.row_into(spot, bucket, row).map(|_| ())
    })?;
    let mut sections: Vec<&[u8]> = vec![&rows];
    for i in 1..c.sections.len() {
        sections.push(c.section(bytes, i)?);
    }
    container::write(path, MAGIC, file.header.clone(), &sections)
}

/// The within-street recall named by a file's last section.
fn read_within_street(name: &[u8]) -> Result<WithinStreet> {
    std::str::from_utf8(name)
        .ok()
        .and_then(WithinStreet::parse)
        .with_context(|| {
            format!(
                "damaged: the last section names {:?}, not a recall within a street (history or \
                 position)",
                String::from_utf8_lossy(&name[..name.len().min(40)])
            )
        })
}

/// The cap for multiway pots a file's last section records, if it is a cap's (`cap 2@6`).
fn read_cap(c: &Container<MultiwayFileHeader>, bytes: &[u8]) -> Result<Option<MultiwayCap>> {
    let Some(last) = c.sections.len().checked_sub(1) else {
        return Ok(None);
    };
    match MultiwayCap::of_section(c.section(bytes, last)?) {
        None => Ok(None),
        Some(Ok(cap)) => Ok(Some(cap)),
        Some(Err(e)) => bail!("damaged: the last section: {e}"),
    }
}

/// Whether `bytes` begin as a multiway strategy file.
pub fn is_multiway(bytes: &[u8]) -> bool {
    bytes.starts_with(MAGIC)
}

/// The bytes of an opened multiway file: mapped from disk (read in place, as the heads-up
/// files are: opening reads no more than the checksums do, and the processes that open one
/// file share its pages), or given whole ([`MultiwayFile::from_bytes`]).
enum FileBytes {
    Mapped(memmap2::Mmap),
    Given(Vec<u8>),
}

impl std::ops::Deref for FileBytes {
    type Target = [u8];
    fn deref(&self) -> &[u8] {
        match self {
            FileBytes::Mapped(m) => m,
            FileBytes::Given(v) => v,
        }
    }
}

/// How a file's rows section stores the rows.
enum RowEncoding {
    /// `k - 1` values a row, as [`Stored`] lays them out, a byte or half a byte each.
    Cumulative(Stored, RowFormat),
    /// A `u16` LE per slot, probability × 65535 (files written before 2026-12-02).
    PerSlot,
}

/// An opened multiway strategy file: its header, the rebuilt betting abstraction, the
/// bucketing and the rows (read in place).
pub struct MultiwayFile {
    /// The header.
    pub header: MultiwayFileHeader,
    /// The betting abstraction, rebuilt from the game.
    pub betting: MultiwayBetting,
    /// The bucketings embedded, and how the rows see the table.
    pub buckets: MultiwayBuckets,
    /// The slot layout.
    pub rows: Rows,
    /// The file's bytes.
    data: FileBytes,
    /// Where the rows lie in them.
    rows_at: std::ops::Range<usize>,
    /// How they are stored.
    encoding: RowEncoding,
    /// The file's size in bytes.
    pub bytes: usize,
}

impl MultiwayFile {
    /// Maps and checks the file at `path` (every checksum), rebuilds its betting abstraction.
    pub fn open(path: &Path) -> Result<MultiwayFile> {
        MultiwayFile::of_map(super::map(path)?).with_context(|| format!("{}", path.display()))
    }

    /// [`MultiwayFile::open`] of a file mapped already ([`super::StrategyFile::open`], which
    /// read its magic).
    pub(super) fn of_map(map: memmap2::Mmap) -> Result<MultiwayFile> {
        MultiwayFile::parse(FileBytes::Mapped(map))
    }

    /// [`MultiwayFile::open`] of the bytes of a file.
    pub fn from_bytes(bytes: &[u8]) -> Result<MultiwayFile> {
        MultiwayFile::parse(FileBytes::Given(bytes.to_vec()))
    }

    fn parse(data: FileBytes) -> Result<MultiwayFile> {
        let bytes = &*data;
        let c: Container<MultiwayFileHeader> = Container::open(bytes, MAGIC, WHAT)?;
        c.verify(bytes)?;
        let seats = c.header.game.seats as usize;
        let cap = read_cap(&c, bytes)?;
        // The within-street section is last where it is (before the cap's): 3 or N + 2
        // sections (a file of three seats or more, so never the 2 or N + 1 of the files before
        // it).
        let n = c.sections.len() - cap.is_some() as usize;
        let (cards, within_street) = if n == 2 || n == seats + 1 {
            (n, WithinStreet::History)
        } else if n == 3 || n == seats + 2 {
            (n - 1, read_within_street(c.section(bytes, n - 1)?)?)
        } else {
            bail!(
                "{n} sections in a {WHAT} of {seats} seats: it has 3, or {} with the table view",
                seats + 2
            )
        };
        let tables = cards - 2;
        let h = c.header.clone();
        if h.pot_classes != POT_CLASSES {
            bail!(
                "{} pot classes: this build plays {POT_CLASSES}",
                h.pot_classes
            );
        }
        let heads_up = h.game.clone().with_seats(2, h.game.starting_stacks[0]);
        let bucketing = Bucketing::decode(c.section(bytes, 1)?, &heads_up)?;
        let buckets = if tables == 0 {
            MultiwayBuckets::best_opponent(bucketing)
        } else {
            let by_live = (2..=seats)
                .map(|live| {
                    let table = MultiwayBuckets::table_of(seats, live);
                    let b = Bucketing::decode_table(c.section(bytes, live)?, &heads_up, table);
                    b.with_context(|| format!("the bucketing of {live} live seats"))
                })
                .collect::<Result<Vec<_>>>()?;
            MultiwayBuckets::table(bucketing, by_live, seats)?
        };
        let betting =
            MultiwayBetting::build_capped(&h.game, h.betting, within_street, cap, MAX_NODES)?;
        let counts: Vec<u32> = (0..betting.streets).map(|s| buckets.buckets(s)).collect();
        let rows = Rows::new(&betting, &counts);
        if betting.nodes.len() as u64 != h.nodes || rows.slots as u64 != h.slots {
            bail!(
                "the game's betting abstraction has {} nodes and {} slots, the file {} and {}: \
                 written by another build",
                betting.nodes.len(),
                rows.slots,
                h.nodes,
                h.slots
            );
        }
        let raw = c.section(bytes, 0)?;
        let stored = Stored::new(&betting, &rows);
        let values = stored.bytes;
        let encoding = if let Some(format) = [RowFormat::Nibble, RowFormat::Byte]
            .into_iter()
            .find(|f| f.holds(raw, values))
        {
            RowEncoding::Cumulative(stored, format)
        } else if raw.len() == rows.slots * 2 {
            RowEncoding::PerSlot
        } else {
            bail!(
                "{} bytes of rows{}: {} slots in {} rows take {} at 8 bits, {} at 4 bits (the \
                 tag {:?} and the values, an odd count's last high nibble 0) or {} as files \
                 before 2026-12-02 stored them",
                raw.len(),
                if raw.starts_with(NIBBLE_TAG) {
                    " beginning as 4-bit rows"
                } else {
                    ""
                },
                rows.slots,
                rows.infosets,
                RowFormat::Byte.section_len(values),
                RowFormat::Nibble.section_len(values),
                String::from_utf8_lossy(NIBBLE_TAG),
                rows.slots * 2
            );
        };
        let start = raw.as_ptr() as usize - bytes.as_ptr() as usize;
        let rows_at = start..start + raw.len();
        Ok(MultiwayFile {
            header: h,
            betting,
            buckets,
            rows,
            bytes: bytes.len(),
            rows_at,
            encoding,
            data,
        })
    }

    /// How the file stores its rows: `k - 1` values a row in 8 or 4 bits, or (files before
    /// 2026-12-02) 16 bits for every slot.
    pub fn stored(&self) -> StoredRows {
        let section = self.rows_at.len();
        match &self.encoding {
            RowEncoding::Cumulative(s, format) => StoredRows {
                encoding: format.name(),
                bits: format.bits(),
                values: s.bytes,
                bytes: section,
            },
            RowEncoding::PerSlot => StoredRows {
                encoding: "16bit",
                bits: 16,
                values: self.rows.slots,
                bytes: section,
            },
        }
    }

    /// Where the decision at `state` after `bets` (the hand's betting so far) is in the
    /// abstraction: the street's tree, the node (a terminal when the abstract street has closed:
    /// a raise past the cap was its call) and the pot class.
    pub fn locate(&self, state: &State, bets: &[Bet]) -> Result<Spot> {
        let street = state.street();
        let actions: Vec<Action> = bets
            .iter()
            .filter(|(s, _)| *s == street)
            .map(|&(_, a)| a)
            .collect();
        Ok(self.betting.locate(state, &actions)?)
    }

    /// The opponent `seat`'s view is taken against at `state`: the live opponent with the best
    /// showing hand (the solver's view, [`abstraction::multiway_deal`]).
    pub fn opponent(state: &State, seat: u8) -> Result<u8> {
        MultiwayBuckets::opponent_at(state, seat).context("no live opponent")
    }

    /// `seat`'s view at `state` with the down cards `down`: its cards against the up cards of
    /// its [`MultiwayFile::opponent`], and with the table view the other live seats' up cards
    /// (in seat order) and the folded seats' (dead), as the solver's `MultiwayFacts::table_view`
    /// ([`MultiwayBuckets::view_at`]).
    pub fn view(&self, state: &State, seat: u8, down: CardSet) -> Result<TableView> {
        (self.buckets.view_at(state, seat, down)).context("no live opponent")
    }

    /// The bucketing of `seat`'s view at `state`.
    pub fn bucketing_at(&self, state: &State) -> &Bucketing {
        self.buckets.for_live(state.live().count_ones() as usize)
    }

    /// The bucket of `seat`'s view at `state` with the down cards `down`.
    pub fn bucket(&self, state: &State, seat: u8, down: CardSet) -> Result<u32> {
        let t = self.view(state, seat, down)?;
        Ok(self.bucketing_at(state).bucket_table(&t)?)
    }

    /// The first slot of the row of `bucket` at decision `spot` (whose node is a decision).
    pub fn slot(&self, spot: &Spot, bucket: u32) -> usize {
        let n = self.betting.nodes[spot.node as usize];
        self.rows
            .slot(&self.betting, spot.tree, spot.pot_class, bucket, n.index)
    }

    /// The stored row of `bucket` at decision `spot` as probabilities, into `out` (one per
    /// abstract action); how many actions the decision has.
    pub fn row_into(&self, spot: &Spot, bucket: u32, out: &mut [f64]) -> Result<usize> {
        let k = self.betting.nodes[spot.node as usize].num_children as usize;
        let rows = &self.data[self.rows_at.clone()];
        let outside = "a decision outside the file's rows";
        if k == 0 || k > MAX_ACTIONS.min(out.len()) {
            bail!(outside);
        }
        match &self.encoding {
            RowEncoding::Cumulative(s, format) => {
                let at = s.at(spot, bucket);
                if at + k - 1 > s.bytes {
                    bail!(outside);
                }
                (format.decode_row(rows, at, &mut out[..k])).context("a row summing past 1")?;
            }
            RowEncoding::PerSlot => {
                let slot = self.slot(spot, bucket);
                let stored = rows.get(2 * slot..2 * (slot + k)).context(outside)?;
                for (o, q) in out.iter_mut().zip(stored.chunks_exact(2)) {
                    *o = u16::from_le_bytes([q[0], q[1]]) as f64 / 65535.0;
                }
            }
        }
        Ok(k)
    }

    /// The largest difference of a probability between this file's rows and `other`'s, every
    /// row of both read ([`MultiwayFile::row_into`]); refused unless both have the same rows
    /// (the same game, betting and buckets: a file and its re-encoding).
    pub fn largest_difference(&self, other: &MultiwayFile) -> Result<f64> {
        if self.header != other.header || self.rows.buckets != other.rows.buckets {
            bail!("the files' rows differ in layout: not one strategy in two encodings");
        }
        let (mut a, mut b) = ([0.0; MAX_ACTIONS], [0.0; MAX_ACTIONS]);
        let mut largest = 0.0f64;
        each_row(&self.betting, &self.rows, |spot, bucket, _| {
            let k = self.row_into(spot, bucket, &mut a)?;
            other.row_into(spot, bucket, &mut b)?;
            for (x, y) in a[..k].iter().zip(&b[..k]) {
                largest = largest.max((x - y).abs());
            }
            Ok(())
        })?;
        Ok(largest)
    }

    /// The bucket of `seat`'s view at `state`, its down cards known.
    pub fn bucket_of_seat(&self, state: &State, seat: u8) -> Result<u32> {
        let mut down = CardSet::EMPTY;
        for c in state.down_cards(seat) {
            down.insert(c.context("the seat's own down card is unknown")?);
        }
        self.bucket(state, seat, down)
    }
}

#[cfg(test)]
mod tests;
