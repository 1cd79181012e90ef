//! The rows of a `stud query` answer, how they are played, and the tables and JSON they print
//! as: shared by every kind of answer.

use super::spot::{cards_text, hand_label, Holding};
use abstraction::cards::CardSet;
use solver::describe::Description;
use solver::purify::Purification;

/// A row of the answer.
pub(super) struct Row {
    /// The hand (`As Kd`, or the card of a public-tree game), or `None` for a bucket's row.
    pub(super) hand: Option<String>,
    pub(super) bucket: Option<u32>,
    pub(super) probs: Vec<f64>,
    pub(super) unreached: bool,
    /// How many holdings of the player to act fall in the bucket here, and a few of them.
    pub(super) holds: Option<(usize, Vec<String>)>,
    /// A bucket's hand classes and EHS (a `--hand` row: the hand's own class).
    pub(super) about: Option<Description>,
}

/// Rewrites each row of the answer as `play` plays it (`None`: as stored).
pub(super) fn play_rows(rows: &mut [Row], play: Option<Purification>) {
    if let Some(p) = play {
        for r in rows {
            p.apply(&mut r.probs);
        }
    }
}

/// The answer's JSON `play`: how its rows are played (`mixed`: as stored).
pub(super) fn play_json(play: Option<Purification>) -> String {
    play.unwrap_or(Purification::Mixed).to_string()
}

/// The text answer's line saying how its rows are played, where they are not as stored.
pub(super) fn print_play(play: Option<Purification>) {
    if let Some(p) = play.filter(|&p| p != Purification::Mixed) {
        println!("played {p}: each row as `stud match FILE:{p}` plays it (the file stores the average as solved)");
    }
}

/// The one row of a decision past the cap, where the abstract street has called: `--hand`'s
/// hand (if given) calling for sure.
pub(super) fn called_row(holding: Option<&Holding>, up: CardSet) -> Row {
    Row {
        hand: holding.map(|h| hand_label(h.down.iter().copied().collect(), up)),
        bucket: None,
        probs: vec![1.0],
        unreached: false,
        holds: None,
        about: None,
    }
}

/// Up to three of a bucket's holdings, spread from its best to its worst.
pub(super) fn examples(hands: &[CardSet]) -> Vec<String> {
    let n = hands.len();
    let picks: Vec<usize> = match n {
        0..=3 => (0..n).collect(),
        _ => vec![0, n / 2, n - 1],
    };
    picks.into_iter().map(|i| cards_text(hands[i])).collect()
}

/// Prints a decision's rows: the one of `--hand`, or every bucket's (`every`) with how many of
/// `seat`'s holdings each holds here, leaving out the buckets that hold none.
pub(super) fn print_rows(names: &[String], rows: Vec<Row>, seat: u8, every: bool) {
    if every {
        println!(
            "each bucket: how many down cards of p{} it holds here, and some of them",
            seat + 1
        );
    }
    // A bucket none of the player's holdings falls in here says nothing about this spot.
    let (shown, none): (Vec<Row>, Vec<Row>) = rows
        .into_iter()
        .partition(|r| r.holds.as_ref().is_none_or(|h| h.0 > 0));
    print_table(names, &shown);
    if !none.is_empty() {
        println!(
            "({} buckets hold none of p{}'s hands here)",
            none.len(),
            seat + 1
        );
    }
}

/// Prints the answer's table, every column as wide as its widest cell, numbers right-aligned.
pub(super) fn print_table(actions: &[String], rows: &[Row]) {
    let mut head: Vec<String> = Vec::new();
    let hands = rows.iter().any(|r| r.hand.is_some());
    let buckets = rows.iter().any(|r| r.bucket.is_some());
    let holds = rows.iter().any(|r| r.holds.is_some());
    if hands {
        head.push("hand".into());
    }
    if buckets {
        head.push("bucket".into());
    }
    if holds {
        head.extend(["holds".into(), "e.g.".into()]);
    }
    let about = rows.iter().any(|r| r.about.is_some());
    if about {
        head.extend(["EHS".into(), "hand classes".into()]);
    }
    let text_cols = head.len();
    head.extend(actions.iter().cloned());
    let cells: Vec<Vec<String>> = rows
        .iter()
        .map(|r| {
            let mut c = Vec::new();
            if hands {
                c.push(r.hand.clone().unwrap_or_default());
            }
            if buckets {
                c.push(r.bucket.map_or(String::new(), |b| b.to_string()));
            }
            if let Some((n, e)) = &r.holds {
                c.extend([n.to_string(), e.join(", ")]);
            } else if holds {
                c.extend([String::new(), String::new()]);
            }
            if about {
                let a = r.about.as_ref();
                c.push(a.map_or(String::new(), |a| format!("{:.3}", a.ehs)));
                c.push(a.map_or(String::new(), Description::text));
            }
            c.extend(r.probs.iter().map(|p| format!("{p:.3}")));
            c
        })
        .collect();
    let widths = column_widths(head.as_slice(), &cells);
    // The hand and the examples read left to right; counts and probabilities line up right.
    let left =
        |i: usize| i < text_cols && ["hand", "e.g.", "hand classes"].contains(&head[i].as_str());
    let line = |c: &[String], note: &str| {
        let mut s = String::new();
        for (i, x) in c.iter().enumerate() {
            if i > 0 {
                s.push_str("  ");
            }
            let w = widths[i];
            if left(i) {
                s.push_str(&format!("{x:<w$}"));
            } else {
                s.push_str(&format!("{x:>w$}"));
            }
        }
        s.push_str(note);
        println!("{}", s.trim_end());
    };
    line(&head, "");
    for (r, c) in rows.iter().zip(&cells) {
        line(c, if r.unreached { "  unreached" } else { "" });
    }
}

/// The JSON of the answer's rows.
pub(super) fn rows_json(rows: &[Row]) -> Vec<serde_json::Value> {
    rows.iter()
        .map(|r| {
            let mut v = serde_json::json!({
                "hand": r.hand,
                "bucket": r.bucket,
                "probabilities": r.probs,
                "unreached": r.unreached,
            });
            if let Some((n, e)) = &r.holds {
                v["holdings"] = (*n).into();
                v["examples"] = e.clone().into();
            }
            if let Some(a) = &r.about {
                v["description"] = a.text().into();
                v["ehs"] = a.ehs.into();
                v["classes"] = serde_json::to_value(&a.classes).unwrap_or_default();
                if let Some(low) = a.low {
                    v["low_chance"] = low.into();
                }
            }
            v
        })
        .collect()
}

/// The width of each column of a table: its widest cell, the heading included.
pub(super) fn column_widths(head: &[String], cells: &[Vec<String>]) -> Vec<usize> {
    (0..head.len())
        .map(|i| {
            cells
                .iter()
                .map(|c| c[i].chars().count())
                .chain([head[i].chars().count()])
                .max()
                .unwrap_or(0)
        })
        .collect()
}

/// Prints a table, every column as wide as its widest cell: the columns `left` aligned left,
/// the others (counts and probabilities) right.
pub(super) fn print_aligned(head: &[String], cells: &[Vec<String>], left: &[usize]) {
    let widths = column_widths(head, cells);
    for c in std::iter::once(head).chain(cells.iter().map(|c| &c[..])) {
        let line: Vec<String> = c
            .iter()
            .enumerate()
            .map(|(i, x)| {
                let w = widths[i];
                if left.contains(&i) {
                    format!("{x:<w$}")
                } else {
                    format!("{x:>w$}")
                }
            })
            .collect();
        println!("{}", line.join("  ").trim_end());
    }
}
