//! `stud export`: a real game's whole strategy as JSON Lines or CSV, every betting node and
//! every bucket, for a spreadsheet, a notebook or another program.
//!
//! The nodes are the strategy file's betting tree, walked depth first. Each is written with
//! where it is (its street, whether the actor is first or second to act on it, its action path
//! in words, the pot and what the actor must call), its actions (PHH codes and words) and, for
//! each bucket of its street, the probabilities as stored (the average strategy as solved, what
//! `stud query` prints) and as played by default (see [`solver::purify`]). Each bucket is
//! described by its EHS and hand classes over a sample of the street's deals
//! ([`solver::describe::sampled`]: a bucket holds different hands on different boards).
//!
//! The betting does not depend on the cards but for who acts first, so the words and amounts
//! come from one example deal with no pair showing (the up cards are in each node's `spot`, the
//! `stud query` notation of the node on that deal: `stud query FILE SPOT` answers the node's
//! rows).
//!
//! The output is streamed, a node at a time: the seven-card stud file, 191,908 nodes and
//! 27 million probabilities, never sits in memory.
//!
//! # JSON Lines (`--format json`)
//! The first line: `{"export": "stud strategy", "file", "game", "played_as", "streets":
//! [{"street", "street_name", "buckets": [{"bucket", "description", "ehs", "classes",
//! "holdings", "low_chance"?}]}]}`. Then one line per decision: `{"node", "street",
//! "street_name", "role" (0: first to act on the street), "path", "spot", "pot", "to_call",
//! "actions", "action_names", "rows": [{"bucket", "stored", "played", "unreached",
//! "acted_first"?}]}`. A file whose rows recall the order of play (`--recall order` or `last`)
//! has a row per key: each bucket once per order recalled, `acted_first` naming each recalled
//! street and whether the player acted first there; one that recalls buckets is refused.
//!
//! # CSV (`--format csv`)
//! One row per (node, bucket): `node, street, street_name, role, path, spot, pot, to_call,
//! bucket, acted_first (the recalled order in words, empty without it), ehs, hand_classes,
//! unreached`, then for each action slot `i` (as many as the widest
//! node has) `action_i, code_i, stored_i, played_i`, empty past a node's own actions.

use super::action_words;
use abstraction::betting_tree::{BettingKind, BettingNodes};
use abstraction::cards::Card;
use abstraction::rules::state::Action;
use abstraction::rules::{Deal, Next, State};
use abstraction::tree::Edge;
use anyhow::{bail, Context, Result};
use solver::bot::default_purification;
use solver::describe::Description;
use solver::strategy_file::{BettingFile, StrategyFile, TreeKind, MAX_ACTIONS};
use std::io::Write;
use std::path::PathBuf;

/// Arguments of `stud export`.
#[derive(clap::Args, Debug)]
#[command(after_help = "Examples (the shipped strategies):\n  \
    stud export strategies/5stud-hu.strat --format csv --out 5stud.csv\n  \
    stud export strategies/5stud-hu.strat --format json | head -n 2\n\n\
    JSON Lines: the first line describes each street's buckets (EHS, hand classes), then one \
    line per betting node. CSV: one row per node and bucket. Probabilities as stored (what \
    `stud query` prints) and as played by default. Each node's `spot` is a `stud query` spot \
    for it. See the module docs in solver/src/cli/export.rs for every field.")]
pub struct Args {
    /// The strategy file (a real game's: seven-card stud, razz, hi-lo, five-card stud).
    pub file: PathBuf,
    /// The output format.
    #[arg(long, value_enum, default_value = "json")]
    pub format: Format,
    /// Write to this file (default: standard output).
    #[arg(long)]
    pub out: Option<PathBuf>,
}

/// An output format of `stud export`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum Format {
    /// JSON Lines: a header line, then one object per betting node.
    Json,
    /// CSV: one row per node and bucket.
    Csv,
}

/// Up cards of the example deal, in the order they are tried (seat 0, seat 1, seat 0, ...): no
/// pair on either board, so no open-pair big bet changes the amounts.
const EXAMPLE_UP: &str = "2c 3d 5d 6h 9h Tc Ks As 7c 8d Jd Qh 4h 4s";

/// The up cards of each seat of the example deal: the preferred ones the deck has, no rank
/// twice on a board.
fn example_ups(f: &BettingFile, per_seat: usize) -> Result<[Vec<Card>; 2]> {
    let deck = f.header().game.deck.cards();
    let preferred = abstraction::cards::parse_cards(EXAMPLE_UP).context("the example cards")?;
    let mut ups: [Vec<Card>; 2] = [Vec::new(), Vec::new()];
    let mut used = abstraction::cards::CardSet::EMPTY;
    for c in preferred.into_iter().chain(deck.iter()) {
        if !deck.contains(c) || used.contains(c) {
            continue;
        }
        // The seat with fewer cards, seat 0 first, takes the card if its rank is new there.
        let s = usize::from(ups[1].len() < ups[0].len());
        if ups[s].len() < per_seat && ups[s].iter().all(|u| u.rank() != c.rank()) {
            ups[s].push(c);
            used.insert(c);
        }
    }
    if ups.iter().any(|u| u.len() < per_seat) {
        bail!("the deck has too few ranks for an example deal with no pair showing");
    }
    Ok(ups)
}

/// Deals what is due before the next decision: the example's up cards (written into the spot),
/// unknown down cards.
fn settle(state: &mut State, ups: &[Vec<Card>; 2], spot: &mut String) -> Result<()> {
    loop {
        match state.next() {
            Next::Deal {
                deal: Deal::Up,
                seat: Some(s),
            } => {
                let c = *ups[s as usize]
                    .get(state.up_cards(s).len())
                    .context("the example deal ran out of up cards")?;
                state.deal(c)?;
                spot.push_str(&format!(" {c}"));
            }
            Next::Deal {
                deal: Deal::Down, ..
            } => state.deal_unknown()?,
            Next::Deal { .. } => bail!("a community card: the export is for stud games"),
            _ => return Ok(()),
        }
    }
}

/// An edge as a PHH code, as `stud query` reads it.
fn code(a: Action) -> String {
    a.to_string().replace(' ', "")
}

/// The walk's output, in either format.
struct Writer<'a> {
    out: Box<dyn Write + 'a>,
    format: Format,
    /// The descriptions of each street's buckets.
    about: Vec<Vec<Description>>,
    /// CSV: the action slots of each row.
    width: usize,
}

/// Where the walk is: the real state of the example deal, the path in words and as a spot.
#[derive(Clone)]
struct At {
    state: State,
    /// Per street reached, the actions in words.
    path: Vec<(usize, Vec<String>)>,
    spot: String,
}

impl At {
    fn path_text(&self, f: &BettingFile) -> String {
        let def = &f.header().game;
        self.path
            .iter()
            .map(|(s, w)| format!("{}: {}", def.street_name(*s), w.join(", ")))
            .collect::<Vec<_>>()
            .join("; ")
    }
}

/// A CSV cell: quoted when it holds a comma, a quote or a line break.
fn cell(s: &str) -> String {
    if s.contains([',', '"', '\n']) {
        format!("\"{}\"", s.replace('"', "\"\""))
    } else {
        s.to_string()
    }
}

impl Writer<'_> {
    fn header(&mut self, f: &BettingFile, file: &str) -> Result<()> {
        let def = &f.header().game;
        match self.format {
            Format::Json => {
                let streets: Vec<serde_json::Value> = self
                    .about
                    .iter()
                    .enumerate()
                    .map(|(s, ds)| {
                        let buckets: Vec<serde_json::Value> = ds
                            .iter()
                            .enumerate()
                            .map(|(b, d)| {
                                let mut v = serde_json::to_value(d).unwrap_or_default();
                                v["bucket"] = b.into();
                                v["description"] = d.text().into();
                                if let Some(l) = d.low {
                                    v["low_chance"] = l.into();
                                    v.as_object_mut().map(|o| o.remove("low"));
                                }
                                v
                            })
                            .collect();
                        serde_json::json!({
                            "street": s,
                            "street_name": def.street_name(s),
                            "buckets": buckets,
                        })
                    })
                    .collect();
                let v = serde_json::json!({
                    "export": "stud strategy",
                    "file": file,
                    "game": def.variant.name(),
                    "played_as": default_purification(f.header().tree).to_string(),
                    "streets": streets,
                });
                writeln!(self.out, "{v}")?;
            }
            Format::Csv => {
                let mut head: Vec<String> = [
                    "node",
                    "street",
                    "street_name",
                    "role",
                    "path",
                    "spot",
                    "pot",
                    "to_call",
                    "bucket",
                    "acted_first",
                    "ehs",
                    "hand_classes",
                    "unreached",
                ]
                .iter()
                .map(|s| s.to_string())
                .collect();
                for i in 1..=self.width {
                    for k in ["action", "code", "stored", "played"] {
                        head.push(format!("{k}_{i}"));
                    }
                }
                writeln!(self.out, "{}", head.join(","))?;
            }
        }
        Ok(())
    }

    /// Writes one decision: its place and every bucket's rows.
    fn node(&mut self, f: &BettingFile, node: u32, at: &At, actions: &[Action]) -> Result<()> {
        let n = f.node(node)?;
        let street = n.street as usize;
        let def = &f.header().game;
        let state = &at.state;
        let seat = state.to_act().context("a decision with no one to act")?;
        let to_call = state.owed(seat);
        let names: Vec<String> = actions.iter().map(|&a| action_words(state, a)).collect();
        let codes: Vec<String> = actions.iter().map(|&a| code(a)).collect();
        let purify = default_purification(TreeKind::Betting);
        let width = f.header().width;
        let recall = f.recall();
        let counts: Vec<u32> = (0..=street).map(|s| f.bucketing().buckets(s)).collect();
        let keys = recall.keys(&counts)[street];
        let spot = at.spot.trim();
        let path = at.path_text(f);
        let mut row = [0.0; MAX_ACTIONS];
        let mut rows = Vec::new();
        // A row per key: per bucket, and with a recall of the order of play, per order recalled.
        for key in 0..keys {
            let b = recall.bucket_of_key(&counts, street, key);
            let order = recall.order_of_key(street, key);
            let k = f.row_into(node, key, &mut row)?;
            let stored = row[..k].to_vec();
            let mut played = stored.clone();
            purify.apply(&mut played);
            let unreached = width.is_unreached(&stored);
            match self.format {
                Format::Json => {
                    let mut r = serde_json::json!({
                        "bucket": b,
                        "stored": stored,
                        "played": played,
                        "unreached": unreached,
                    });
                    if !order.is_empty() {
                        r["acted_first"] = order
                            .iter()
                            .map(|&(s, first)| (def.street_name(s), first.into()))
                            .collect::<serde_json::Map<_, _>>()
                            .into();
                    }
                    rows.push(r)
                }
                Format::Csv => {
                    let d = self.about.get(street).and_then(|a| a.get(b as usize));
                    let mut c = vec![
                        node.to_string(),
                        street.to_string(),
                        cell(&def.street_name(street)),
                        n.role.to_string(),
                        cell(&path),
                        cell(spot),
                        state.pot().to_string(),
                        to_call.to_string(),
                        b.to_string(),
                        cell(&acted_first_text(def, &order)),
                        d.map_or(String::new(), |d| d.ehs.to_string()),
                        cell(&d.map_or(String::new(), Description::text)),
                        unreached.to_string(),
                    ];
                    for i in 0..self.width {
                        match (names.get(i), codes.get(i), stored.get(i), played.get(i)) {
                            (Some(w), Some(x), Some(s), Some(p)) => {
                                c.extend([cell(w), cell(x), s.to_string(), p.to_string()])
                            }
                            _ => c.extend(std::iter::repeat_n(String::new(), 4)),
                        }
                    }
                    writeln!(self.out, "{}", c.join(","))?;
                }
            }
        }
        if self.format == Format::Json {
            let v = serde_json::json!({
                "node": node,
                "street": street,
                "street_name": def.street_name(street),
                "role": n.role,
                "path": path,
                "spot": spot,
                "pot": state.pot(),
                "to_call": to_call,
                "actions": codes,
                "action_names": names,
                "rows": rows,
            });
            writeln!(self.out, "{v}")?;
        }
        Ok(())
    }

    /// Writes `node` and the decisions below it.
    fn walk(&mut self, f: &BettingFile, node: u32, at: At, ups: &[Vec<Card>; 2]) -> Result<()> {
        let n = f.node(node)?;
        if n.kind != BettingKind::Action as u8 {
            return Ok(());
        }
        if n.street as usize != at.state.street() {
            bail!(
                "damaged: node {node} is on street {} where its betting is on {}",
                n.street,
                at.state.street()
            );
        }
        let legal = at.state.legal_actions();
        let kids = f.children(node)?;
        // The real action that plays each child (the call where the real game has no raise).
        let actions: Vec<Action> = (0..kids.len())
            .map(|c| {
                f.real_action(node, c, &legal)
                    .unwrap_or(legal[solver::bot::passive(&legal)])
            })
            .collect();
        self.node(f, node, &at, &actions)?;
        for ((child, edge), &a) in kids.into_iter().zip(&actions) {
            if !matches!(edge, Edge::Action(_)) {
                bail!("damaged: node {node} has a child that is not a betting action");
            }
            let mut next = at.clone();
            let street = next.state.street();
            let words = action_words(&next.state, a);
            match next.path.last_mut() {
                Some((s, w)) if *s == street => w.push(words),
                _ => next.path.push((street, vec![words])),
            }
            next.spot.push_str(&format!(" {}", code(a)));
            next.state
                .apply(a)
                .with_context(|| format!("node {node}: {a} on the rules engine"))?;
            if matches!(next.state.next(), Next::Over) {
                continue;
            }
            settle(&mut next.state, ups, &mut next.spot)?;
            self.walk(f, child, next, ups)?;
        }
        Ok(())
    }
}

/// Runs `stud export`.
pub fn run(args: Args) -> Result<()> {
    let f = match StrategyFile::open(&args.file)? {
        StrategyFile::Betting(f) => f,
        StrategyFile::Public(_) => bail!(
            "{} stores a public tree (a small game solved exactly): `stud query` lists its \
             hands; the export is for the real games' betting-tree files",
            args.file.display()
        ),
        StrategyFile::Multiway(_) => bail!(
            "{} is a multiway file (three or more seats): `stud query` reads it; the export \
             is for the real games' heads-up betting-tree files",
            args.file.display()
        ),
    };
    if f.recall().recalls_buckets() {
        // Its rows are keys of a bucket and earlier streets' buckets: the row of a bucket
        // depends on the hands held before, which one row per key cannot label.
        bail!(
            "{}: its rows recall the previous street's bucket ({}); the export writes rows by \
             bucket and order of play, for files without it (ask `stud query --hand` for a \
             hand's row)",
            args.file.display(),
            f.recall().name()
        );
    }
    let b = f.bucketing();
    let about = (0..b.shape().streets())
        .map(|s| solver::describe::sampled(b, s))
        .collect::<Result<Vec<_>>>()?;
    let per_seat = *b.shape().ups.last().unwrap_or(&0) as usize;
    let ups = example_ups(&f, per_seat)?;
    let width = (0..f.header().nodes as u32)
        .map(|i| {
            f.node(i)
                .map(|n| (n.kind == BettingKind::Action as u8) as usize * n.num_children as usize)
        })
        .try_fold(0, |m, n| n.map(|n| m.max(n)))?;
    // A file is written to a temporary name and renamed when whole; a device or a pipe
    // (`--out /dev/stdout`) is written in place: renaming over it would replace it.
    let in_place = args
        .out
        .as_ref()
        .is_some_and(|p| std::fs::metadata(p).is_ok_and(|m| !m.is_file()));
    let tmp = args.out.as_ref().filter(|_| !in_place).map(|p| {
        let mut t = p.clone().into_os_string();
        t.push(".tmp");
        PathBuf::from(t)
    });
    let target = tmp.as_ref().or(args.out.as_ref());
    let out: Box<dyn Write> = match target {
        Some(t) => Box::new(std::io::BufWriter::new(
            std::fs::File::create(t).with_context(|| format!("creating {}", t.display()))?,
        )),
        None => Box::new(std::io::BufWriter::new(std::io::stdout().lock())),
    };
    let mut w = Writer {
        out,
        format: args.format,
        about,
        width,
    };
    let written = (|| -> Result<()> {
        w.header(&f, &args.file.display().to_string())?;
        let mut state = State::new(&f.header().game)?;
        let mut spot = String::new();
        settle(&mut state, &ups, &mut spot)?;
        let at = At {
            state,
            path: Vec::new(),
            spot,
        };
        w.walk(&f, 0, at, &ups)?;
        w.out.flush()?;
        Ok(())
    })();
    drop(w);
    match (written, &tmp, &args.out) {
        (Ok(()), Some(t), Some(p)) => std::fs::rename(t, p)
            .with_context(|| format!("renaming {} to {}", t.display(), p.display())),
        (Ok(()), ..) => Ok(()),
        (Err(e), Some(t), _) => {
            let _ = std::fs::remove_file(t);
            Err(e)
        }
        (Err(e), None, _) => Err(e),
    }
}

/// The order of play a row recalls, in words: `3rd street: first; 4th street: second` (empty
/// for a file without recall of the order).
fn acted_first_text(def: &abstraction::rules::GameDef, order: &[(usize, bool)]) -> String {
    order
        .iter()
        .map(|&(s, first)| {
            let role = if first { "first" } else { "second" };
            format!("{}: {role}", def.street_name(s))
        })
        .collect::<Vec<_>>()
        .join("; ")
}
