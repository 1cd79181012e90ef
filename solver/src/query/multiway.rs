//! `stud query`'s answer on a multiway strategy file (three to eight seats of real stud).
//!
//! The spot is written as for the heads-up real games: the up cards as they are dealt, seat by
//! seat on each street (p1's, then p2's, ...; a folded seat gets no more), then the betting, in
//! PHH codes or the short forms, a seat prefix (`p3 cbr 4`) checked against the seat it names.
//! It is replayed on the rules engine for the file's game, down cards unknown. The answer is
//! the row the file's player reads there: the decision located in the betting abstraction and
//! the bucket of the seat's view against its best showing live opponent (and, in a file of the
//! table view, the other live opponents' and the folded seats' up cards), both by the player's
//! own code ([`MultiwayFile::locate`], [`MultiwayFile::view`]), the row as stored (mixed, as a
//! heads-up answer gives it) unless the way of playing says otherwise. The hand gives the down
//! cards of the seat to act; without it, every bucket's row, with the holdings of the seat in
//! it (none of the up cards on the table). The answer as data ([`Answer`]) and as
//! `stud query --json` writes it ([`Answer::json`]).

use super::betting::Kind;
use super::rows::{called_row, examples, play_json, play_rows, rows_json, Row};
use super::spot::{
    action_words, cards_text, check_hand_up, describe, first_words, hand_label, parse_holding,
    replay, Holding, Replayed, Step,
};
use crate::describe::{self as about, Description};
use crate::purify::Purification;
use crate::strategy_file::multiway::MultiwayFile;
use crate::strategy_file::MAX_ACTIONS;
use abstraction::cards::CardSet;
use abstraction::multiway_betting::{MwKind, Spot};
use abstraction::multiway_deal::MultiwayView;
use abstraction::named::Named;
use abstraction::rules::{Action, State};
use anyhow::{bail, Context, Result};

/// The table as the seat to act sees it, at a decision past the first.
#[derive(Clone, Debug)]
pub struct Table {
    /// The seat to act.
    pub seat: u8,
    /// Its role on the street (0 acts first).
    pub role: u8,
    /// The seats still in.
    pub live: Vec<u8>,
    /// The seats that folded.
    pub folded: Vec<u8>,
    /// Every seat's up cards.
    pub showing: Vec<CardSet>,
    /// The live opponent the seat's view is bucketed against (its best showing one).
    pub against: u8,
    /// Whether the view sees the other live opponents' and the folded seats' up cards too.
    pub view: MultiwayView,
    /// The chips in the pot.
    pub pot: u64,
}

/// `stud query`'s answer at a spot of a multiway file.
#[derive(Clone, Debug)]
pub struct Answer {
    /// What kind of decision it is.
    pub kind: Kind,
    /// The seats the file's game deals.
    pub seats: u8,
    /// The street (0-based: third street is 0).
    pub street: usize,
    /// The street as players name it (`3rd street`).
    pub street_name: String,
    /// The decision in the file's betting abstraction: street tree, node, pot class.
    pub spot: Spot,
    /// The table as the seat to act sees it (`None` at the first decision, whose seat the door
    /// cards decide).
    pub table: Option<Table>,
    /// The decision's actions as PHH codes (`f`, `cc`, `cbr10`), in the file's order.
    pub codes: Vec<String>,
    /// The same in a player's words.
    pub names: Vec<String>,
    /// The rows: the hand's (one), or every bucket's.
    pub rows: Vec<Row>,
    /// How the rows are played (`None`: as stored).
    pub play: Option<Purification>,
    /// The seat to act's holdings in each bucket (none of the table's up cards), where every
    /// bucket's row was asked at a table's decision (else empty): what [`Answer::chart`] counts.
    pub holdings: Vec<Vec<CardSet>>,
}

impl Answer {
    /// The answer as `stud query --json` writes it.
    pub fn json(&self) -> serde_json::Value {
        let mut v = serde_json::json!({
            "seats": self.seats,
            "seat": self.table.as_ref().map(|t| t.seat),
            "role": self.table.as_ref().map_or(0, |t| t.role),
            "street": self.street,
            "street_name": self.street_name,
            "tree": self.spot.tree,
            "node": self.spot.node,
            "capped": self.kind == Kind::Capped,
            "actions": self.codes,
            "action_names": self.names,
            "hands": rows_json(&self.rows),
        });
        if let Some(t) = &self.table {
            let showing: Vec<String> = t.showing.iter().map(|&c| cards_text(c)).collect();
            v["live"] = t.live.clone().into();
            v["folded"] = t.folded.clone().into();
            v["showing"] = showing.into();
            v["against"] = t.against.into();
            v["view"] = t.view.name().into();
            v["pot"] = t.pot.into();
            v["pot_class"] = self.spot.pot_class.into();
        }
        if self.kind != Kind::Capped {
            v["play"] = play_json(self.play).into();
        }
        v
    }

    /// The strategy of the seat to act by hand class ([`crate::ranges::class_chart`]: each
    /// class's holdings here and the mean of their buckets' rows), as `--ranges` adds it;
    /// `None` where the answer lists no bucket's holdings (a hand asked, the first decision,
    /// past the cap).
    pub fn chart(&self, f: &MultiwayFile) -> Option<serde_json::Value> {
        let t = self.table.as_ref()?;
        if self.holdings.is_empty() {
            return None;
        }
        let b = f.buckets.for_live(t.live.len());
        let up = t.showing[t.seat as usize];
        let row = |bucket: usize| self.rows.get(bucket).map(|r| r.probs.clone());
        Some(crate::ranges::class_chart(
            b,
            self.street,
            up,
            &self.holdings,
            self.codes.len(),
            row,
        ))
    }
}

/// `--ranges`' answer at a table: the acting seat's strategy by hand class ([`Answer::chart`])
/// and each live seat's range ([`super::multiway_ranges::ranges_json`]).
pub struct TableRanges {
    /// The strategy by hand class (`None` where the seat to act holds no down card yet).
    pub chart: Option<serde_json::Value>,
    /// Each live seat's range reaching the spot.
    pub ranges: serde_json::Value,
}

impl TableRanges {
    /// Adds both to an answer's JSON (`chart`, `ranges`), as `stud query --ranges --json`
    /// prints them.
    pub fn add_to(&self, v: &mut serde_json::Value) {
        if let Some(chart) = &self.chart {
            v["chart"] = chart.clone();
        }
        v["ranges"] = self.ranges.clone();
    }
}

/// [`answer`], and with `ranges` (the file's player, its rows played as stored) its
/// [`TableRanges`]: what `stud query` prints, `stud explore` serves and the Python package
/// returns.
pub fn answer_with_ranges(
    f: &MultiwayFile,
    hand: Option<&str>,
    play: Option<Purification>,
    steps: &[Step],
    ranges: Option<&crate::bot::StrategyPlayer>,
) -> Result<(Answer, Option<TableRanges>)> {
    if ranges.is_some() && hand.is_some() {
        bail!("--ranges shows every holding's range: give no --hand with it");
    }
    let a = answer(f, hand, play, steps)?;
    let r = match ranges {
        Some(player) => Some(TableRanges {
            chart: a.chart(f),
            ranges: super::multiway_ranges::ranges_json(player, steps)?,
        }),
        None => None,
    };
    Ok((a, r))
}

/// The answer of `stud query FILE SPOT [--hand HAND] [--play PLAY] [--ranges] --json` on a
/// multiway file: [`answer_with_ranges`] as JSON.
pub fn answer_json(
    f: &MultiwayFile,
    hand: Option<&str>,
    play: Option<Purification>,
    steps: &[Step],
    ranges: Option<&crate::bot::StrategyPlayer>,
) -> Result<serde_json::Value> {
    let (a, r) = answer_with_ranges(f, hand, play, steps, ranges)?;
    let mut v = a.json();
    if let Some(r) = r {
        r.add_to(&mut v);
    }
    Ok(v)
}

/// `stud query`'s answer on the multiway file `f`: the spot replayed on the rules engine (down
/// cards unknown), the decision located in the file's abstraction, the rows of `hand`'s bucket
/// or of every bucket, played as `play` says (`None`: as stored).
pub fn answer(
    f: &MultiwayFile,
    hand: Option<&str>,
    play: Option<Purification>,
    steps: &[Step],
) -> Result<Answer> {
    let def = &f.header.game;
    let holding = hand.map(parse_holding).transpose()?;
    let Replayed { state, bets, empty } = replay(def, steps)?;
    let Some(seat) = state.to_act() else {
        if holding.is_some() {
            bail!(
                "--hand needs the up cards, to find the hand's bucket: give the door cards in \
                 the spot, as in `3c 8d Kh`"
            );
        }
        debug_assert!(empty);
        return first_decision(f, play);
    };
    let street = state.street();
    let street_name = def.street_name(street);
    let spot = f.locate(&state, &bets).with_context(|| {
        format!("the betting of {street_name} has no place in the strategy's abstraction")
    })?;
    let node = f.betting.nodes[spot.node as usize];
    let up = shown(&state, seat);
    let table = (0..def.seats).fold(CardSet::EMPTY, |t, s| t.union(shown(&state, s)));
    check_hand_up(hand, holding.as_ref(), up, seat)?;
    let legal = state.legal_actions();
    let mut a = Answer {
        kind: Kind::Rows,
        seats: def.seats,
        street,
        street_name,
        spot,
        table: Some(table_at(&state, seat, node.role, f.buckets.view)?),
        codes: Vec::new(),
        names: Vec::new(),
        rows: Vec::new(),
        play,
        holdings: Vec::new(),
    };
    if node.kind != MwKind::Action {
        // Past the abstract street's cap (two players left and the card room's cap lifted, or
        // a multiway cap, `--multiway-cap`, below the room's) the abstract street has closed:
        // the player calls, as in play. An answer, not an error.
        let call = legal[crate::bot::passive(&legal)];
        a.kind = Kind::Capped;
        a.rows = vec![called_row(holding.as_ref(), up)];
        a.codes = vec![code(call)];
        a.names = vec![action_words(&state, call)];
        return Ok(a);
    }
    (a.rows, a.holdings) = rows_at(f, &state, seat, &spot, holding.as_ref(), table)?;
    for c in 0..node.num_children as usize {
        let real = f
            .betting
            .real_action(spot.tree, spot.node, c, &legal)
            .with_context(|| format!("damaged: abstract action {c} has no real action"))?;
        a.codes.push(code(real));
        a.names.push(action_words(&state, real));
    }
    play_rows(&mut a.rows, play);
    Ok(a)
}

/// The table at `state` as `seat` (of `role` on the street) sees it, its view of kind `view`.
fn table_at(state: &State, seat: u8, role: u8, view: MultiwayView) -> Result<Table> {
    let seats = state.def().seats;
    let live = state.live();
    Ok(Table {
        seat,
        role,
        live: (0..seats).filter(|s| live >> s & 1 == 1).collect(),
        folded: (0..seats).filter(|&s| state.folded(s)).collect(),
        showing: (0..seats).map(|s| shown(state, s)).collect(),
        against: MultiwayFile::opponent(state, seat)?,
        view,
        pot: state.pot(),
    })
}

/// The rows of `seat`'s decision `spot` at `state`: `holding`'s, or every bucket's with the
/// seat's holdings in it (none of the up cards on the `table`); and those holdings by bucket
/// (none for a holding's row).
fn rows_at(
    f: &MultiwayFile,
    state: &State,
    seat: u8,
    spot: &Spot,
    holding: Option<&Holding>,
    table: CardSet,
) -> Result<(Vec<Row>, Vec<Vec<CardSet>>)> {
    let street = state.street();
    let up = shown(state, seat);
    Ok(match holding {
        Some(h) => {
            let down: CardSet = h.down.iter().copied().collect();
            if let Some(c) = h.down.iter().find(|c| table.contains(**c)) {
                bail!("--hand {c}: that card is already dealt face up in the spot");
            }
            let b = f.bucket(state, seat, down).context("--hand")?;
            let about = about::of_hand(f.bucketing_at(state), street, b, down, up);
            let label = Some(hand_label(down, up));
            (vec![row(f, spot, b, label, None, Some(about))?], Vec::new())
        }
        None => {
            let view = f.view(state, seat, CardSet::EMPTY)?;
            let mut held = about::holdings_table(f.bucketing_at(state), &view)?;
            // Every up card on the table is out of the seat's down cards, not only the
            // opponent's its view is bucketed against.
            for hs in &mut held {
                hs.retain(|h| h.intersection(table).is_empty());
            }
            let about = about::at_spot(f.bucketing_at(state), street, up, &held);
            let mut rows = Vec::with_capacity(held.len());
            for (b, hs) in held.iter().enumerate() {
                let holds = Some((hs.len(), examples(hs)));
                rows.push(row(f, spot, b as u32, None, holds, about.get(b).cloned())?);
            }
            (rows, held)
        }
    })
}

/// The up cards `seat` shows at `state`.
fn shown(state: &State, seat: u8) -> CardSet {
    state.up_cards(seat).iter().copied().collect()
}

/// A real action as the spot notation's PHH code (`cbr4`).
fn code(a: Action) -> String {
    a.to_string().replace(' ', "")
}

/// The row of `bucket` at decision `spot`: the stored probabilities (uniform where the solve
/// reached the decision and bucket in no pot class: marked `unreached`; a pot class it never
/// reached stores the nearest reached class's row, `SampledSolver::average_strategy`).
fn row(
    f: &MultiwayFile,
    spot: &Spot,
    bucket: u32,
    hand: Option<String>,
    holds: Option<(usize, Vec<String>)>,
    about: Option<Description>,
) -> Result<Row> {
    let mut probs = [0.0; MAX_ACTIONS];
    let k = f.row_into(spot, bucket, &mut probs)?;
    let probs = probs[..k].to_vec();
    Ok(Row {
        hand,
        bucket: Some(bucket),
        unreached: crate::strategy_file::multiway::is_unreached(&probs),
        probs,
        holds,
        about,
    })
}

/// The answer at the empty spot: the hand's first decision, whoever the door cards make first
/// to act (every seat in), every bucket as the street's sampled deals fill it.
fn first_decision(f: &MultiwayFile, play: Option<Purification>) -> Result<Answer> {
    let def = &f.header.game;
    let tree = f
        .betting
        .tree(0, u32::from(def.seats))
        .context("damaged: no first street tree with every seat in")?;
    let spot = Spot {
        tree,
        node: f.betting.trees[tree as usize].root,
        pot_class: 0,
    };
    let about = about::sampled(f.buckets.for_live(def.seats as usize), 0)?;
    let mut rows = Vec::new();
    for b in 0..f.buckets.buckets(0) {
        rows.push(row(
            f,
            &spot,
            b,
            None,
            None,
            about.get(b as usize).cloned(),
        )?);
    }
    let edges = || {
        f.betting
            .children(spot.node as usize)
            .map(|c| f.betting.edges[c])
    };
    play_rows(&mut rows, play);
    Ok(Answer {
        kind: Kind::First,
        seats: def.seats,
        street: 0,
        street_name: def.street_name(0),
        spot,
        table: None,
        codes: edges().map(describe).collect(),
        names: edges().map(|e| first_words(def, e)).collect(),
        rows,
        play,
        holdings: Vec::new(),
    })
}
