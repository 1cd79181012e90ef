//! Node locking: one player's strategy fixed at chosen decisions to given frequencies, the rest
//! of the game solved again around it ("what if he never folds on seventh street?").
//!
//! A lock file (TOML, [`Lock::parse`]) is a list of `[[lock]]` rules. Each names a player, which
//! of their decisions (a spot in `stud query` notation, a street, or all of them), optionally
//! which rows there (private hands of a lossless walkable game, buckets, or hand classes as
//! `stud query` names them: [`classes`] says which buckets those are), and the frequency
//! of each action; the actions it does not name are never played. A rule without a spot applies
//! at every decision of the player (on its street) where each action it names is legal, so that
//! `play = { fold = 0, call = 1 }` reads "never folds": the decisions facing a bet. A later rule
//! overrides an earlier one on the rows both fix. docs/guide/solving.md has worked examples.
//!
//! Before a solve the rules are resolved against the solver's tree once ([`Locked`]): a flag per
//! decision node and a probability per slot (`NaN` for a free row), which the walk reads at the
//! nodes flagged, so that an unlocked solve pays one test of an `Option` per decision node.

pub mod classes;
pub(crate) mod spot;

use crate::spot::Step;
use abstraction::betting_tree::{BettingKind, BettingTree};
use abstraction::bucketing::Bucketing;
use abstraction::cards::Card;
use abstraction::recall::Recall;
use abstraction::rules::notation::{self, Written};
use abstraction::rules::seat_name;
use abstraction::rules::state::Action;
use abstraction::rules::GameDef;
use abstraction::tree::{Edge, NodeKind, Tree, NONE};
use anyhow::{bail, Context, Result};
use classes::ClassRows;
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;
use toml::Spanned;

/// The rules of a lock file, in file order.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Lock {
    /// Where the rules were read from (a path, or `<text>`), named in every error.
    pub source: String,
    /// FNV-1a 64 of the file's bytes, which a locked solve's report records.
    pub digest: u64,
    /// FNV-1a 64 of the rules normalised ([`Lock::normalised`]): what a locked solve's
    /// checkpoint records, so that only the same rules resume it (a comment, a blank line or
    /// another spelling of an action changes the file's bytes, not its rules).
    pub rules_digest: u64,
    /// The rules; a later one overrides an earlier one on a row both fix.
    pub rules: Vec<Rule>,
}

/// One `[[lock]]` rule.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Rule {
    /// The line of the file where the rule starts.
    pub line: usize,
    /// The seat locked (0 is the file's `player = 1`): a walkable game's rows are a seat's.
    pub seat: Option<u8>,
    /// The role locked on a real game's street (0: `position = "first"`, the player acting
    /// first on the street by the up cards): a real game's rows are a role's, whichever seat
    /// holds it (one strategy for both seats); none: both roles.
    pub role: Option<u8>,
    /// The street, as the game names it (`7th street`, `round 2`), or every street.
    pub street: Option<String>,
    /// One spot in `stud query` notation, or every decision (of the street).
    pub spot: Option<String>,
    /// The private hands fixed (`Ks`, or a rank, `K`, for every suit); none: every row.
    pub hands: Vec<String>,
    /// The buckets fixed; none: every row.
    pub buckets: Vec<u32>,
    /// The hand classes fixed (`stud query`'s names: the buckets mostly of these, see
    /// [`classes`]); none: every row.
    pub classes: Vec<String>,
    /// The frequency of each action named.
    pub play: Vec<(Kind, f64)>,
}

/// An action as a lock names it: fixed-limit stud has one complete/bet/raise per decision.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, PartialOrd, Ord)]
pub enum Kind {
    /// `fold`.
    Fold,
    /// `check` or `call`.
    CheckCall,
    /// `bring-in`.
    BringIn,
    /// `complete`, `bet` or `raise`.
    Raise,
}

impl Kind {
    /// The kind of a rules-engine action.
    pub fn of(action: Action) -> Kind {
        match action {
            Action::Fold => Kind::Fold,
            Action::CheckCall => Kind::CheckCall,
            Action::BringIn => Kind::BringIn,
            Action::CompleteBetRaise(_) => Kind::Raise,
        }
    }

    fn parse(word: &str) -> Option<Kind> {
        Some(match word.to_ascii_lowercase().as_str() {
            "f" | "fold" => Kind::Fold,
            "cc" | "x" | "k" | "check" | "c" | "call" => Kind::CheckCall,
            "pb" | "bi" | "bring-in" => Kind::BringIn,
            "cbr" | "b" | "r" | "bet" | "raise" | "complete" => Kind::Raise,
            _ => return None,
        })
    }

    fn name(self) -> &'static str {
        match self {
            Kind::Fold => "fold",
            Kind::CheckCall => "check/call",
            Kind::BringIn => "bring-in",
            Kind::Raise => "complete/bet/raise",
        }
    }
}

/// The positions a rule may name, first to act on the street to last.
const POSITIONS: [&str; 8] = [
    "first", "second", "third", "fourth", "fifth", "sixth", "seventh", "eighth",
];

/// The frequencies of a row may miss 1 by this much (a file's decimals).
const SUM_TOLERANCE: f64 = 1e-9;

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawFile {
    lock: Vec<Spanned<RawRule>>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawRule {
    player: Option<i64>,
    position: Option<String>,
    street: Option<Spanned<toml::Value>>,
    spot: Option<String>,
    hands: Option<Vec<String>>,
    buckets: Option<Vec<u32>>,
    classes: Option<Vec<String>>,
    play: Spanned<BTreeMap<Spanned<String>, Spanned<f64>>>,
}

/// The line of byte `at` of `text`, from 1.
fn line_of(text: &str, at: usize) -> usize {
    text[..at.min(text.len())].matches('\n').count() + 1
}

impl Lock {
    /// Parses the text of a lock file read from `source` (named in errors): a bad key, a player
    /// out of range, an unknown action or frequencies not summing to 1 are refused with the
    /// line and key.
    pub fn parse(text: &str, source: &str) -> Result<Lock> {
        let raw: RawFile = toml::from_str(text).map_err(|e| {
            let line = e.span().map_or(0, |s| line_of(text, s.start));
            anyhow::anyhow!("{source} line {line}: {}", e.message())
        })?;
        if raw.lock.is_empty() {
            bail!("{source}: no [[lock]] rule");
        }
        let rules: Vec<Rule> = raw
            .lock
            .into_iter()
            .map(|r| {
                let line = line_of(text, r.span().start);
                rule(r.into_inner(), text, line).map_err(|e| anyhow::anyhow!("{source} {e}"))
            })
            .collect::<Result<_>>()?;
        Ok(Lock {
            source: source.to_string(),
            digest: abstraction::fnv::fnv1a(text.as_bytes()),
            rules_digest: abstraction::fnv::fnv1a(normalised(&rules).as_bytes()),
            rules,
        })
    }

    /// The rules as one text that says what they fix and nothing else, a line a rule in file
    /// order (a later rule overrides an earlier one, so the order is kept): no line numbers,
    /// a street as `7th` whether written `7th street` or `7TH`, a spot's tokens one space
    /// apart, hands, classes (any case) and buckets sorted, each action by its kind.
    pub fn normalised(&self) -> String {
        normalised(&self.rules)
    }
}

/// [`Lock::normalised`] of `rules`.
fn normalised(rules: &[Rule]) -> String {
    let sorted = |v: &[String]| {
        let mut v: Vec<String> = v.iter().map(|x| x.trim().to_ascii_lowercase()).collect();
        v.sort();
        v.dedup();
        v.join(",")
    };
    let mut out = String::new();
    for r in rules {
        let street = r.street.as_deref().map(|s| {
            let s = s.trim().to_ascii_lowercase();
            s.strip_suffix(" street").unwrap_or(&s).to_string()
        });
        let spot = r.spot.as_deref().map(|s| notation::tokens(s).join(" "));
        let mut buckets = r.buckets.clone();
        buckets.sort_unstable();
        buckets.dedup();
        let play: Vec<String> = r.play.iter().map(|(k, p)| format!("{k:?}={p:?}")).collect();
        out += &format!(
            "seat={:?};role={:?};street={street:?};spot={spot:?};hands={};buckets={buckets:?};\
             classes={};play={}\n",
            r.seat,
            r.role,
            sorted(&r.hands),
            sorted(&r.classes),
            play.join(",")
        );
    }
    out
}

/// One rule checked: the player, the street's spelling, the actions and their sum. An error
/// starts with the line of the key it names (`line 4, \`play\`: ...`).
fn rule(raw: RawRule, text: &str, line: usize) -> Result<Rule> {
    if let Some(player) = raw.player.filter(|p| !(1..=8).contains(p)) {
        bail!("line {line}, `player = {player}`: players are numbered from 1 (p1) to 8");
    }
    let role = match raw.position.as_deref() {
        None => None,
        Some(p) => match POSITIONS.iter().position(|&x| x.eq_ignore_ascii_case(p)) {
            Some(r) => Some(r as u8),
            None => bail!(
                "line {line}, `position = {p:?}`: \"first\", \"second\", ... \"eighth\" to act \
                 on the street"
            ),
        },
    };
    let named = [
        ("hands", raw.hands.is_some()),
        ("buckets", raw.buckets.is_some()),
        ("classes", raw.classes.is_some()),
    ];
    if let [(a, _), (b, _), ..] = named.iter().filter(|x| x.1).collect::<Vec<_>>()[..] {
        bail!("line {line}, `{a}` and `{b}`: name a rule's rows one way");
    }
    if raw.classes.as_ref().is_some_and(|c| c.is_empty()) {
        bail!("line {line}, `classes`: name at least one hand class");
    }
    let street = match raw.street.map(|s| s.into_inner()) {
        None => None,
        Some(toml::Value::String(s)) => Some(s),
        Some(toml::Value::Integer(n)) if n >= 1 => Some(format!("round {n}")),
        Some(v) => {
            bail!("line {line}, `street = {v}`: name it as the game does (\"7th\", \"round 2\")")
        }
    };
    let mut play: Vec<(Kind, f64)> = Vec::new();
    for (word, p) in raw.play.get_ref() {
        let at = line_of(text, word.span().start);
        let Some(kind) = Kind::parse(word.get_ref()) else {
            bail!(
                "line {at}, `play.{}`: not an action (fold, check, call, bring-in, complete, \
                 bet, raise)",
                word.get_ref()
            );
        };
        let p = *p.get_ref();
        if !(0.0..=1.0).contains(&p) {
            bail!(
                "line {at}, `play.{}`: a frequency is from 0 to 1, not {p}",
                word.get_ref()
            );
        }
        if play.iter().any(|&(k, _)| k == kind) {
            bail!(
                "line {at}, `play.{}`: {} is named twice",
                word.get_ref(),
                kind.name()
            );
        }
        play.push((kind, p));
    }
    play.sort_by_key(|&(k, _)| k);
    let sum: f64 = play.iter().map(|&(_, p)| p).sum();
    if (sum - 1.0).abs() > SUM_TOLERANCE {
        let at = line_of(text, raw.play.span().start);
        bail!("line {at}, `play`: the frequencies sum to {sum}, not 1");
    }
    Ok(Rule {
        line,
        seat: raw.player.map(|p| (p - 1) as u8),
        role,
        street,
        spot: raw.spot,
        hands: raw.hands.unwrap_or_default(),
        buckets: raw.buckets.unwrap_or_default(),
        classes: raw.classes.unwrap_or_default(),
        play,
    })
}

/// A spot in `stud query` notation as steps; the actions in any spelling of [`notation`]. A seat
/// prefix (`p1` to `p8`) must stand before a card or an action: `p0`, `p9` and a prefix with
/// nothing after it are refused by their token.
pub(crate) fn parse_spot(spot: &str) -> Result<Vec<Step>> {
    let tokens = notation::tokens(spot);
    let mut steps = Vec::new();
    let mut i = 0;
    while i < tokens.len() {
        let t = tokens[i];
        let written = notation::parse(&tokens[i..])
            .map_err(|e| anyhow::anyhow!("`spot`, token {} {t:?}: {e}", i + 1))?;
        let (step, took) = match written {
            Some((Written::Exact(a), n)) => (Step::Exact(a), n),
            Some((Written::AnyRaise, n)) => (Step::AnyRaise, n),
            None if t.len() >= 2 && t.starts_with(['p', 'P']) && t[1..].parse::<u8>().is_ok() => {
                (seat_prefix(&tokens, i)?, 1)
            }
            None => (
                Step::Card(t.parse::<Card>().map_err(|e| {
                    anyhow::anyhow!(
                        "`spot`, token {} {t:?}: neither an action nor a card: {e}",
                        i + 1
                    )
                })?),
                1,
            ),
        };
        i += took;
        steps.push(step);
    }
    Ok(steps)
}

/// The seat prefix at token `i` of `tokens` (`p1` is 0), refused by its token when it names no
/// seat a game can have (p1 to p8) or stands last or before another prefix.
fn seat_prefix(tokens: &[&str], i: usize) -> Result<Step> {
    let t = tokens[i];
    let n: u8 = t[1..].parse().expect("digits");
    if !(1..=MAX_SEAT_PREFIX).contains(&n) {
        bail!(
            "`spot`, token {} {t:?}: seats are p1 to p{MAX_SEAT_PREFIX}",
            i + 1
        );
    }
    let next = tokens.get(i + 1).copied();
    let is_prefix =
        |x: &str| x.len() >= 2 && x.starts_with(['p', 'P']) && x[1..].parse::<u8>().is_ok();
    match next {
        None => bail!(
            "`spot`, token {} {t:?}: a seat prefix with nothing after it",
            i + 1
        ),
        Some(x) if is_prefix(x) => {
            bail!(
                "`spot`, token {} {t:?}: a seat prefix before another ({x:?})",
                i + 1
            )
        }
        Some(_) => Ok(Step::Seat(n - 1)),
    }
}

/// The most seats a game has: the highest seat prefix.
const MAX_SEAT_PREFIX: u8 = 8;

/// Refuses a seat prefix of `steps` past the seats of `def`, by name.
pub(crate) fn check_prefixes(def: &GameDef, steps: &[Step]) -> Result<()> {
    for s in steps {
        if let Step::Seat(seat) = *s {
            if seat >= def.seats {
                bail!(
                    "`spot`: p{} is no seat of this game ({} seats: p1 to p{})",
                    seat + 1,
                    def.seats,
                    def.seats
                );
            }
        }
    }
    Ok(())
}

/// Whether the events from the root `path` are the spot `steps` (a betting tree's path has no
/// cards: the spot's are read past, its rows being the same whatever the up cards; no path
/// has seats: the prefixes were checked on the rules engine).
fn spot_is(steps: &[Step], path: &[Edge], cards: bool) -> bool {
    let steps: Vec<&Step> = steps
        .iter()
        .filter(|s| !matches!(s, Step::Seat(_)) && (cards || !matches!(s, Step::Card(_))))
        .collect();
    steps.len() == path.len()
        && steps.iter().zip(path).all(|(s, e)| match (s, e) {
            (Step::Card(c), Edge::Card(d)) => c == d,
            (Step::Exact(a), Edge::Action(b)) => a == b,
            (Step::AnyRaise, Edge::Action(Action::CompleteBetRaise(_))) => true,
            _ => false,
        })
}

/// The street a rule names, as an index into the game's streets ([`GameDef::street_named`]).
fn street_index(def: &GameDef, name: &str) -> Result<usize> {
    def.street_named(name).with_context(|| {
        let names: Vec<String> = (0..def.streets.len()).map(|s| def.street_name(s)).collect();
        format!(
            "`street = {name:?}`: this game's streets are {}",
            names.join(", ")
        )
    })
}

/// A lock resolved onto one tree's slots: what a walk reads.
#[derive(Clone, Debug, PartialEq)]
pub struct Locked {
    /// Per node: whether any of its rows is fixed.
    nodes: Vec<bool>,
    /// Per slot: the fixed probability of the slot's action, `NaN` where its row is free.
    slots: Vec<f64>,
    /// How many rows (decision × bucket) are fixed.
    pub rows: usize,
}

/// One decision of a tree as a rule sees it.
pub(crate) struct Decision {
    /// The node's index.
    pub node: usize,
    /// The seat acting (a public tree) or the role (a betting tree).
    pub actor: u8,
    /// The street, from 0.
    pub street: usize,
    /// The events from the root.
    pub path: Vec<Edge>,
    /// Each action's kind, in child order.
    pub kinds: Vec<Kind>,
    /// The node's first slot: row `r` is the slots `first_slot + r × stride ..`.
    pub first_slot: usize,
    /// The slots from one row of the node to the next (its actions, unless a row is a
    /// block of several decisions').
    pub stride: usize,
}

impl Locked {
    /// An empty lock on a tree of `nodes` nodes and `slots` slots.
    pub(crate) fn empty(nodes: usize, slots: usize) -> Locked {
        Locked {
            nodes: vec![false; nodes],
            slots: vec![f64::NAN; slots],
            rows: 0,
        }
    }

    /// Whether this lock was resolved on a tree of `nodes` nodes and `slots` slots.
    pub fn fits(&self, nodes: usize, slots: usize) -> bool {
        self.nodes.len() == nodes && self.slots.len() == slots
    }

    /// Whether node `i` has a fixed row: the walk's one test per decision.
    #[inline(always)]
    pub fn node(&self, i: usize) -> bool {
        self.nodes[i]
    }

    /// The fixed row at `slot` (`k` actions), or `None` where it is free.
    #[inline(always)]
    pub fn row(&self, slot: usize, k: usize) -> Option<&[f64]> {
        let row = &self.slots[slot..slot + k];
        (!row[0].is_nan()).then_some(row)
    }

    /// Fixes `row` (its index within the decision) of `d` to `rule`'s frequencies.
    pub(crate) fn fix(&mut self, d: &Decision, row: u32, rule: &Rule) {
        let s = d.first_slot + row as usize * d.stride;
        if self.slots[s].is_nan() {
            self.rows += 1;
        }
        for (a, kind) in d.kinds.iter().enumerate() {
            let p = rule.play.iter().find(|&&(x, _)| x == *kind);
            self.slots[s + a] = p.map_or(0.0, |&(_, p)| p);
        }
        self.nodes[d.node] = true;
    }

    /// Sets every fixed row of the average-strategy masses `average` to its frequencies, so
    /// that the strategy written is the lock exactly (the walk's sums of it round).
    pub fn fix_average<T: crate::kernel::Real>(&self, average: &mut [T]) {
        for (a, &p) in average.iter_mut().zip(&self.slots) {
            if !p.is_nan() {
                *a = T::from_f64(p);
            }
        }
    }

    /// Resolves `lock` on the public tree of a walkable heads-up game `def`.
    pub fn on_tree(lock: &Lock, def: &GameDef, tree: &Tree) -> Result<Locked> {
        let mut locked = Locked::empty(tree.nodes.len(), tree.num_slots);
        let decisions = public_decisions(tree);
        for rule in &lock.rules {
            let at = || format!("{} line {}", lock.source, rule.line);
            let Some(seat) = rule.seat else {
                let e = "`player`: whose rows, 1 or 2 (a walkable game's rows are a seat's)";
                return Err(anyhow::anyhow!(e)).with_context(at);
            };
            if rule.role.is_some() {
                let e = "`position` is for the real games' files; a walkable game's rows are a \
                         seat's: name the `player`";
                return Err(anyhow::anyhow!(e)).with_context(at);
            }
            if !rule.classes.is_empty() {
                let e = "`classes`: a walkable heads-up game's rows are its single down cards, \
                         named in `hands`; classes name the buckets of the stud games";
                return Err(anyhow::anyhow!(e)).with_context(at);
            }
            let rows = |d: &Decision| hand_rows(tree, d, rule);
            let at_tree = Actor::Seat(seat);
            apply(&mut locked, def, &decisions, rule, at_tree, rows).with_context(at)?;
        }
        Ok(locked)
    }

    /// Resolves `lock` on the betting tree of a heads-up real game `def` whose rows recall
    /// `recall`: a rule names a `position` (or both), not a `player`, since a seat's rows are
    /// those of the role it holds on the street; its spot's cards are read past; it fixes
    /// `buckets` or `classes` only where the rows recall nothing else. `bucketing` (the card
    /// abstraction the tree's buckets are of) says which buckets a rule's `classes` name
    /// ([`classes`]).
    pub fn on_betting(
        lock: &Lock,
        def: &GameDef,
        tree: &BettingTree,
        recall: Recall,
        bucketing: &Bucketing,
    ) -> Result<Locked> {
        let mut locked = Locked::empty(tree.nodes.len(), tree.num_slots);
        let decisions = betting_decisions(tree);
        for rule in &lock.rules {
            let at = || format!("{} line {}", lock.source, rule.line);
            let refuse = |e: &str| Err(anyhow::anyhow!(e.to_string())).with_context(at);
            if rule.seat.is_some() {
                return refuse(
                    "`player`: a real game's strategy is one for both seats, its rows by who \
                     acts first on the street (the up cards): give `position = \"first\"` or \
                     \"second\", or neither for both",
                );
            }
            if !rule.hands.is_empty() {
                return refuse("`hands`: a real game's rows are buckets: give `buckets`");
            }
            if !(rule.buckets.is_empty() && rule.classes.is_empty()) && recall != Recall::None {
                return refuse(
                    "`buckets`, `classes`: these rows recall earlier streets too; lock whole rows",
                );
            }
            let class_rows = ClassRows::new(&rule.classes);
            if !rule.classes.is_empty() {
                let streets = rule_streets(def, rule).with_context(at)?;
                let name = |s| def.street_name(s);
                class_rows
                    .check(bucketing, name, &streets)
                    .with_context(at)?;
            }
            let rows = |d: &Decision| {
                if !rule.classes.is_empty() {
                    return class_rows.buckets(bucketing, 0, d.street);
                }
                let n = tree.num_buckets[d.street];
                if let Some(&b) = rule.buckets.iter().find(|&&b| b >= n) {
                    bail!(
                        "`buckets`: bucket {b} of {n} on {}",
                        def.street_name(d.street)
                    );
                }
                Ok((0..n)
                    .filter(|b| rule.buckets.is_empty() || rule.buckets.contains(b))
                    .collect())
            };
            let actor = Actor::Role(rule.role);
            apply(&mut locked, def, &decisions, rule, actor, rows).with_context(at)?;
        }
        Ok(locked)
    }
}

/// The streets a rule reaches: the one it names, or every street.
pub(crate) fn rule_streets(def: &GameDef, rule: &Rule) -> Result<Vec<usize>> {
    Ok(match rule.street.as_deref() {
        Some(s) => vec![street_index(def, s)?],
        None => (0..def.streets.len()).collect(),
    })
}

/// Every decision of the betting tree, in node order.
fn betting_decisions(tree: &BettingTree) -> Vec<Decision> {
    decisions(
        |i| tree.children(i),
        &tree.edges,
        |i| {
            let n = &tree.nodes[i];
            (n.kind == BettingKind::Action).then(|| (n.role, n.street, n.first_slot()))
        },
    )
}

/// Every decision of the public tree, in node order.
fn public_decisions(tree: &Tree) -> Vec<Decision> {
    decisions(
        |i| tree.children(i),
        &tree.edges,
        |i| {
            let n = &tree.nodes[i];
            (n.kind == NodeKind::Action).then(|| (n.seat, n.street, n.first_slot()))
        },
    )
}

/// Every decision of a tree (rooted at node 0) in node order, with the path of edges to it:
/// `decision(i)` is node `i`'s actor, street and first slot when it is a decision. One walk
/// for the public and the betting trees, whose nodes differ but whose arenas do not.
fn decisions(
    children: impl Fn(usize) -> std::ops::Range<usize>,
    edges: &[Edge],
    decision: impl Fn(usize) -> Option<(u8, u8, u32)>,
) -> Vec<Decision> {
    let mut out = Vec::new();
    let mut stack = vec![(0usize, Vec::new())];
    while let Some((i, path)) = stack.pop() {
        for c in children(i) {
            let mut p = path.clone();
            p.push(edges[c]);
            stack.push((c, p));
        }
        if let Some((actor, street, first_slot)) = decision(i) {
            let kinds: Vec<Kind> = children(i)
                .map(|c| match edges[c] {
                    Edge::Action(a) => Kind::of(a),
                    _ => Kind::CheckCall,
                })
                .collect();
            out.push(Decision {
                node: i,
                actor,
                street: street as usize,
                path,
                stride: kinds.len(),
                kinds,
                first_slot: first_slot as usize,
            });
        }
    }
    out.sort_by_key(|d| d.node);
    out
}

/// Whose decisions a rule fixes: a seat's (a public tree), or a role's or both (a betting
/// tree).
#[derive(Clone, Copy)]
pub(crate) enum Actor {
    Seat(u8),
    Role(Option<u8>),
}

impl Actor {
    fn acts(self, actor: u8) -> bool {
        match self {
            Actor::Seat(s) => s == actor,
            Actor::Role(r) => r.is_none_or(|r| r == actor),
        }
    }

    fn name(self) -> String {
        match self {
            Actor::Seat(s) => seat_name(s).to_string(),
            Actor::Role(Some(r)) => format!(
                "the player {} to act on the street",
                POSITIONS[(r as usize).min(POSITIONS.len() - 1)]
            ),
            Actor::Role(None) => "either player".into(),
        }
    }

    fn actor_name(self, actor: u8) -> String {
        match self {
            Actor::Seat(_) => Actor::Seat(actor).name(),
            Actor::Role(_) => Actor::Role(Some(actor)).name(),
        }
    }
}

/// The rows of decision `d` that `rule`'s hands name (every row when it names none), on the
/// node's board: a rank alone names every suit. Only a lossless tree's rows are hands.
fn hand_rows(tree: &Tree, d: &Decision, rule: &Rule) -> Result<Vec<u32>> {
    let node = &tree.nodes[d.node];
    let table = tree.bucket_table(node.board, node.seat);
    if !rule.hands.is_empty() && tree.hands.is_empty() {
        bail!("`hands`: this tree's hands are not single cards");
    }
    let named = |h: usize| {
        let card = tree.hands[h];
        rule.hands.iter().any(|w| {
            w.eq_ignore_ascii_case(&card.to_string())
                || w.eq_ignore_ascii_case(&card.rank().to_string())
        })
    };
    let mut rows: Vec<u32> = (0..table.len())
        .filter(|&h| table[h] != NONE && (rule.hands.is_empty() || named(h)))
        .map(|h| table[h])
        .filter(|b| rule.buckets.is_empty() || rule.buckets.contains(b))
        .collect();
    rows.sort_unstable();
    rows.dedup();
    // In a bucketed abstraction a row is several hands: fixing it for the hands named would
    // fix it for the others too.
    let shared = (0..table.len())
        .find(|&h| !rule.hands.is_empty() && !named(h) && rows.binary_search(&table[h]).is_ok());
    if let Some(h) = shared {
        bail!(
            "`hands`: {} shares its bucket {} with a hand named here; in a bucketed \
             abstraction name `buckets`",
            tree.hands[h],
            table[h]
        );
    }
    Ok(rows)
}

/// Refuses `rule` at the decision `d` of its spot where another player than `actor` acts, or
/// where an action it names is not legal.
pub(crate) fn at_spot(d: &Decision, rule: &Rule, actor: Actor) -> Result<()> {
    if !actor.acts(d.actor) {
        bail!(
            "`spot`: {} acts there, not {}",
            actor.actor_name(d.actor),
            actor.name()
        );
    }
    if let Some((k, _)) = rule.play.iter().find(|(k, _)| !d.kinds.contains(k)) {
        let names: Vec<&str> = d.kinds.iter().map(|k| k.name()).collect();
        bail!(
            "`play`: {} is not legal at this spot (legal: {})",
            k.name(),
            names.join(", ")
        );
    }
    Ok(())
}

/// Fixes the rows `rows` picks at each decision `rule` names. Refuses a rule that fixes no
/// row, and at its spot a decision of another player or an action named that is not legal.
pub(crate) fn apply(
    locked: &mut Locked,
    def: &GameDef,
    decisions: &[Decision],
    rule: &Rule,
    actor: Actor,
    rows: impl Fn(&Decision) -> Result<Vec<u32>>,
) -> Result<()> {
    let cards = matches!(actor, Actor::Seat(_));
    let street = rule
        .street
        .as_deref()
        .map(|s| street_index(def, s))
        .transpose()?;
    let spot = rule.spot.as_deref().map(parse_spot).transpose()?;
    if let Some(steps) = &spot {
        check_prefixes(def, steps)?;
        // A prefix says whose card or action follows: only the rules engine knows, from the
        // cards the spot gives (a public tree's spot gives them all; a betting tree's may
        // leave them out, and then only the seat's number is checked).
        let has = |f: fn(&Step) -> bool| steps.iter().any(f);
        if has(|s| matches!(s, Step::Seat(_))) && (cards || has(|s| matches!(s, Step::Card(_)))) {
            spot::replay(def, steps)?;
        }
    }
    let legal = |d: &Decision| rule.play.iter().all(|(k, _)| d.kinds.contains(k));
    let mut fixed = 0;
    for d in decisions {
        if street.is_some_and(|s| s != d.street) {
            continue;
        }
        if let Some(steps) = &spot {
            if !spot_is(steps, &d.path, cards) {
                continue;
            }
            at_spot(d, rule, actor)?;
        } else if !actor.acts(d.actor) || !legal(d) {
            continue;
        }
        for r in rows(d)? {
            locked.fix(d, r, rule);
            fixed += 1;
        }
    }
    if fixed == 0 {
        let actions: Vec<&str> = rule.play.iter().map(|(k, _)| k.name()).collect();
        bail!(
            "the rule fixes no row: no decision of {}{}{} where {} {} legal{}",
            actor.name(),
            rule.street
                .as_ref()
                .map_or(String::new(), |s| format!(" on {s}")),
            rule.spot
                .as_ref()
                .map_or(String::new(), |s| format!(" at spot {s:?}")),
            actions.join(" and "),
            if actions.len() > 1 { "are" } else { "is" },
            if rule.hands.is_empty() && rule.buckets.is_empty() && rule.classes.is_empty() {
                ""
            } else {
                " with the hands, buckets or classes named"
            }
        );
    }
    Ok(())
}
