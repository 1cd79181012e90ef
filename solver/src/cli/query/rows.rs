//! The rows of a `stud query` answer as tables: shared by every kind of answer (the rows
//! themselves and their JSON are the library's, [`solver::query::rows`]).

use abstraction::rules::seat_name;
use solver::describe::Description;
use solver::purify::Purification;
use solver::query::rows::Row;

/// The text answer's line saying how its rows are played, where they are not as stored.
pub(super) fn print_play(play: Option<Purification>) {
    if let Some(p) = play.filter(|&p| p != Purification::Mixed) {
        println!("played {p}: each row as `stud match FILE:{p}` plays it (the file stores the average as solved)");
    }
}

/// Prints a decision's rows: the one of `--hand`, or every bucket's (`every`) with how many of
/// `seat`'s holdings each holds here, leaving out the buckets that hold none.
pub(super) fn print_rows(names: &[String], rows: Vec<Row>, seat: u8, every: bool) {
    if every {
        println!(
            "each bucket: how many down cards of {} it holds here, and some of them",
            seat_name(seat)
        );
    }
    // A bucket none of the player's holdings falls in here says nothing about this spot.
    let (shown, none): (Vec<Row>, Vec<Row>) = rows
        .into_iter()
        .partition(|r| r.holds.as_ref().is_none_or(|h| h.0 > 0));
    print_table(names, &shown);
    if !none.is_empty() {
        println!(
            "({} buckets hold none of {}'s hands here)",
            none.len(),
            seat_name(seat)
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

/// Prints `--ranges`' chart (`chart`: [`solver::ranges::class_chart`]'s JSON): each hand class
/// the player to act may hold, its holdings and the mean of their rows, one column per action
/// of `names`.
pub(super) fn print_chart(names: &[String], chart: &serde_json::Value) {
    let empty = Vec::new();
    let list = |x: &serde_json::Value| x.as_array().unwrap_or(&empty).clone();
    println!();
    println!("by hand class (the mean of the rows of each class's holdings):");
    let mut head = vec!["hand class".to_string(), "holds".to_string()];
    head.extend(names.iter().cloned());
    let cells: Vec<Vec<String>> = list(&chart["rows"])
        .iter()
        .filter(|r| r["holdings"].as_u64() > Some(0))
        .map(|r| {
            let mut c = vec![
                r["class"].as_str().unwrap_or("").to_string(),
                r["holdings"].as_u64().unwrap_or(0).to_string(),
            ];
            c.extend(
                list(&r["probabilities"])
                    .iter()
                    .map(|p| format!("{:.3}", p.as_f64().unwrap_or(0.0))),
            );
            c
        })
        .collect();
    print_aligned(&head, &cells, &[0]);
}
