//! `stud query --diff A B` on two multiway files (three to eight seats): how the strategy moved
//! from A to B, row by row ([`solver::strategy_file::multiway::diff`]): a summary by street and
//! position (first, second, ... to act on the street), then the biggest moves, each said as a
//! player reads it (the street, the seats in, the pot it was entered with, the betting on it so
//! far, the bucket) with both rows.

use super::spot::describe;
use abstraction::multiway_betting::{pot_classes, Spot};
use abstraction::rules::{Action, GameDef};
use abstraction::tree::Edge;
use anyhow::{Context, Result};
use serde_json::json;
use solver::strategy_file::diff::moved;
use solver::strategy_file::multiway::diff::{betting_to, comparable, each_move};
use solver::strategy_file::multiway::MultiwayFile;
use std::cmp::Ordering;
use std::collections::BinaryHeap;

/// The positions on a street, first to act to last.
const POSITIONS: [&str; 8] = [
    "first", "second", "third", "fourth", "fifth", "sixth", "seventh", "eighth",
];

/// A row that moved: where, and both files' probabilities.
struct Moved {
    moved: f64,
    /// Its place in the layout's order: ties are listed in it.
    order: u64,
    spot: Spot,
    bucket: u32,
    a: Vec<f64>,
    b: Vec<f64>,
}

impl PartialEq for Moved {
    fn eq(&self, o: &Self) -> bool {
        self.cmp(o) == Ordering::Equal
    }
}
impl Eq for Moved {}
impl PartialOrd for Moved {
    fn partial_cmp(&self, o: &Self) -> Option<Ordering> {
        Some(self.cmp(o))
    }
}
/// The greater is listed first: more moved, then earlier in the layout.
impl Ord for Moved {
    fn cmp(&self, o: &Self) -> Ordering {
        (self.moved.total_cmp(&o.moved)).then(o.order.cmp(&self.order))
    }
}

/// The rows of one street and position: how many, how many changed, the mass moved.
#[derive(Clone, Copy, Default)]
struct Tally {
    rows: u64,
    changed: u64,
    moved: f64,
    largest: f64,
}

impl Tally {
    fn add(&mut self, m: f64) {
        self.rows += 1;
        self.changed += u64::from(m > 1e-12);
        self.moved += m;
        self.largest = self.largest.max(m);
    }
}

/// Runs `stud query --diff A B` on the multiway files `fa`, `fb` (named `na`, `nb`): the `top`
/// biggest moves (every row with `top` 0), as a table or with `json` one object.
pub(super) fn run(
    (fa, na): (&MultiwayFile, &str),
    (fb, nb): (&MultiwayFile, &str),
    top: usize,
    json: bool,
) -> Result<()> {
    comparable(fa, fb, na, nb).context("--diff")?;
    let def = &fa.header.game;
    let mut tallies = vec![[Tally::default(); 8]; def.streets.len()];
    let mut heap = BinaryHeap::new();
    let mut order = 0u64;
    each_move(fa, fb, |spot, bucket, a, b| {
        let m = moved(a, b);
        let node = fa.betting.nodes[spot.node as usize];
        let street = fa.betting.trees[spot.tree as usize].street as usize;
        tallies[street][node.role as usize].add(m);
        let row = Moved {
            moved: m,
            order,
            spot: *spot,
            bucket,
            a: a.to_vec(),
            b: b.to_vec(),
        };
        order += 1;
        heap.push(std::cmp::Reverse(row));
        if top > 0 && heap.len() > top {
            heap.pop();
        }
        Ok(())
    })
    .context("--diff")?;
    let mut rows: Vec<Moved> = heap.into_iter().map(|r| r.0).collect();
    rows.sort_by(|x, y| y.cmp(x));
    let all = tallies
        .iter()
        .flatten()
        .fold(Tally::default(), |t, x| Tally {
            rows: t.rows + x.rows,
            changed: t.changed + x.changed,
            moved: t.moved + x.moved,
            largest: t.largest.max(x.largest),
        });
    if json {
        println!("{}", as_json(fa, (na, nb), &tallies, all, &rows));
        return Ok(());
    }
    println!(
        "{na} -> {nb}: {} rows compared, {} changed, {:.4} of a row's probability moved on \
         average (moved: half the sum of the changes)",
        all.rows,
        all.changed,
        all.moved / all.rows.max(1) as f64
    );
    println!("by street and position (rows, changed, mean moved, largest):");
    for (street, by_role) in tallies.iter().enumerate() {
        for (role, t) in by_role.iter().enumerate().filter(|(_, t)| t.rows > 0) {
            println!(
                "  {}, {} to act: {} rows, {} changed, {:.4}, {:.3}",
                def.street_name(street),
                POSITIONS[role],
                t.rows,
                t.changed,
                t.moved / t.rows as f64,
                t.largest
            );
        }
    }
    println!("the biggest moves first:");
    for r in &rows {
        let w = Words::of(fa, r);
        let fmt = |p: &[f64]| {
            let cells: Vec<String> = (w.actions.iter().zip(p))
                .map(|(n, x)| format!("{n} {x:.3}"))
                .collect();
            cells.join(", ")
        };
        println!(
            "{:.3}  {} to act, bucket {}, on {} ({} seats in, {}), {}: {}  ->  {}",
            r.moved,
            w.position,
            r.bucket,
            w.street,
            w.live,
            w.pot,
            w.betting,
            fmt(&r.a),
            fmt(&r.b)
        );
    }
    Ok(())
}

/// A row's place in a player's words.
struct Words {
    street: String,
    position: &'static str,
    live: u8,
    pot: String,
    /// The street's betting before the decision.
    betting: String,
    /// The same as PHH codes, each with the position that acted.
    codes: Vec<String>,
    /// The decision's actions as PHH codes (the amounts of the abstraction's own deal).
    actions: Vec<String>,
}

impl Words {
    fn of(f: &MultiwayFile, r: &Moved) -> Words {
        let def = &f.header.game;
        let t = f.betting.trees[r.spot.tree as usize];
        let street = t.street as usize;
        let node = f.betting.nodes[r.spot.node as usize];
        let path = betting_to(&f.betting, r.spot.tree, r.spot.node);
        Words {
            street: def.street_name(street),
            position: POSITIONS[node.role as usize],
            live: t.live,
            pot: pot_words(street, r.spot.pot_class),
            betting: betting_words(def, street, &path),
            codes: (path.iter())
                .map(|&(role, a)| {
                    format!("{} {}", POSITIONS[role as usize], describe(Edge::Action(a)))
                })
                .collect(),
            actions: (f.betting.children(r.spot.node as usize))
                .map(|c| describe(f.betting.edges[c]))
                .collect(),
        }
    }
}

/// The pot a street was entered with, as its class says it (`pot class 2: 3 to 6 small bets`).
fn pot_words(street: usize, class: u8) -> String {
    if street == 0 {
        return "antes only".into();
    }
    if class == 0 {
        return "pot class 0: under 1 small bet".into();
    }
    let low = (1u64 << class) - 1;
    if u32::from(class) + 1 == pot_classes(street) {
        return format!("pot class {class}: {low} small bets or more");
    }
    let high = (1u64 << (class + 1)) - 2;
    format!("pot class {class}: {low} to {high} small bets")
}

/// A street's betting before a decision in words: `after first brings in for 1, second
/// completes to 5`; `before any action` when none.
fn betting_words(def: &GameDef, street: usize, path: &[(u8, Action)]) -> String {
    if path.is_empty() {
        return "before any action".into();
    }
    let mut bet = false;
    let words: Vec<String> = path
        .iter()
        .map(|&(role, a)| {
            let did = match a {
                Action::Fold => "folds".to_string(),
                Action::CheckCall if bet => "calls".into(),
                Action::CheckCall => "checks".into(),
                Action::BringIn => {
                    bet = true;
                    format!("brings in for {}", def.bring_in)
                }
                Action::CompleteBetRaise(n) => {
                    let word = match (street, bet) {
                        (0, _)
                            if !path
                                .iter()
                                .any(|p| matches!(p.1, Action::CompleteBetRaise(m) if m < n)) =>
                        {
                            "completes to"
                        }
                        (_, false) => "bets",
                        _ => "raises to",
                    };
                    bet = true;
                    format!("{word} {n}")
                }
            };
            format!("{} {did}", POSITIONS[role as usize])
        })
        .collect();
    format!("after {}", words.join(", "))
}

/// The answer as `--json` writes it.
fn as_json(
    f: &MultiwayFile,
    (na, nb): (&str, &str),
    tallies: &[[Tally; 8]],
    all: Tally,
    rows: &[Moved],
) -> serde_json::Value {
    let def = &f.header.game;
    let mut by_street = Vec::new();
    for (street, by_role) in tallies.iter().enumerate() {
        for (role, t) in by_role.iter().enumerate().filter(|(_, t)| t.rows > 0) {
            by_street.push(json!({
                "street": street,
                "street_name": def.street_name(street),
                "position": POSITIONS[role],
                "rows": t.rows,
                "changed": t.changed,
                "mean_moved": t.moved / t.rows as f64,
                "largest": t.largest,
            }));
        }
    }
    let rows: Vec<serde_json::Value> = rows
        .iter()
        .map(|r| {
            let w = Words::of(f, r);
            json!({
                "street": f.betting.trees[r.spot.tree as usize].street,
                "street_name": w.street,
                "live": w.live,
                "pot_class": r.spot.pot_class,
                "position": w.position,
                "betting": w.betting,
                "betting_codes": w.codes,
                "bucket": r.bucket,
                "tree": r.spot.tree,
                "node": r.spot.node,
                "actions": w.actions,
                "a": r.a,
                "b": r.b,
                "moved": r.moved,
            })
        })
        .collect();
    json!({
        "a": na,
        "b": nb,
        "seats": def.seats,
        "rows_compared": all.rows,
        "rows_changed": all.changed,
        "mean_moved": all.moved / all.rows.max(1) as f64,
        "by_street": by_street,
        "rows": rows,
    })
}
