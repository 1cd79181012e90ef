//! `stud aggregate --street N` past the first street: a later street of a heads-up strategy by
//! hand class against board ([`solver::aggregate::later`] plays the deals; this prints the
//! rows as a table, CSV or JSON, and draws them as an SVG chart).

use super::aggregate::Args;
use abstraction::rules::GameDef;
use anyhow::{Context, Result};
use solver::aggregate::later::{later_street, Facing, LaterStreet, ACTIONS};
use solver::bot::StrategyPlayer;
use std::fmt::Write as _;

/// The street (0-based) that `--street` names in `def`: a number of cards as players say it
/// (`5`, `5th`, `5th street`: [`GameDef::street_named`]).
pub fn street_of(def: &GameDef, s: &str) -> Result<usize> {
    let n = def.streets.len();
    def.street_named(s).with_context(|| {
        format!(
            "--street {s}: {} has {} to {}",
            def.variant.name(),
            def.street_name(0),
            def.street_name(n - 1)
        )
    })
}

/// Runs `stud aggregate --street N` for a later street.
pub fn run(args: &Args, player: &StrategyPlayer, street: usize, path: &str) -> Result<()> {
    let bar = super::deals_bar(args.output.json || args.csv, args.deals);
    let t = later_street(player, street, args.deals, args.seed, &|done| {
        bar.set_position(done)
    });
    bar.finish_and_clear();
    let t = t?;
    if let Some(svg) = &args.svg {
        solver::container::write_bytes(svg, chart(&t, path).as_bytes())?;
    }
    if args.output.json {
        println!("{}", serde_json::to_string(&t)?);
    } else if args.csv {
        print!("{}", csv(&t));
    } else {
        print!("{}", table(&t));
    }
    Ok(())
}

/// Every row as CSV.
fn csv(t: &LaterStreet) -> String {
    let mut out = format!("facing,class,board,decisions,{}\n", ACTIONS.join(","));
    for r in &t.rows {
        let facing = serde_json::to_value(r.facing).unwrap_or_default();
        let _ = write!(
            out,
            "{},\"{}\",\"{}\",{}",
            facing.as_str().unwrap_or(""),
            r.class,
            r.board,
            r.decisions
        );
        for f in r.frequencies {
            let _ = write!(out, ",{f:.6}");
        }
        out.push('\n');
    }
    out
}

/// The rows as text, spot by spot, with percentages.
fn table(t: &LaterStreet) -> String {
    let mut out = format!(
        "{}: {} deals (seed {}), both seats playing the file; the street had a decision in {} \
         of them, {} decisions in all\n",
        t.street_name, t.deals, t.seed, t.reached, t.decisions
    );
    for facing in Facing::ALL {
        let rows: Vec<_> = t.rows.iter().filter(|r| r.facing == facing).collect();
        if rows.is_empty() {
            continue;
        }
        let _ = write!(
            out,
            "\n{}\n{:<40} {:<30} {:>9}",
            facing.words(),
            "hand",
            "board",
            "decisions"
        );
        for a in ACTIONS {
            let _ = write!(out, " {a:>6}");
        }
        out.push('\n');
        for r in rows {
            let _ = write!(out, "{:<40} {:<30} {:>9}", r.class, r.board, r.decisions);
            for f in r.frequencies {
                let _ = write!(out, " {:>5.1}%", 100.0 * f);
            }
            out.push('\n');
        }
    }
    out
}

/// The rows as an SVG chart: per spot, a heat map of hand classes (rows) against boards
/// (columns), white at 0% to red at 100% of bets and raises; hovering a cell shows them all.
fn chart(t: &LaterStreet, name: &str) -> String {
    const W: usize = 26;
    const H: usize = 16;
    // Only the classes and boards some decision fell in, strongest first.
    let classes: Vec<&String> = (t.classes.iter())
        .filter(|c| t.rows.iter().any(|r| r.class == **c))
        .collect();
    let boards: Vec<&String> = (t.boards.iter())
        .filter(|b| t.rows.iter().any(|r| r.board == **b))
        .collect();
    let left = 230;
    let block = H * (classes.len() + 1) + 40;
    let width = left + W * boards.len() + 20;
    let height = 60 + 3 * block + 150;
    let mut out = format!(
        "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"{width}\" height=\"{height}\" \
         font-family=\"sans-serif\" font-size=\"11\">\n<text x=\"10\" y=\"18\" font-size=\"14\">\
         {}: {}, % that bet or raise, hand class (rows) against the opponent's board (columns)\
         </text>\n",
        escape(name),
        t.street_name
    );
    for (j, b) in boards.iter().enumerate() {
        let x = left + W * j + W / 2;
        let y = 40 + 3 * block;
        let _ = writeln!(
            out,
            "<text transform=\"translate({x},{y}) rotate(60)\">{}</text>",
            escape(b)
        );
    }
    for (g, facing) in Facing::ALL.iter().enumerate() {
        let y0 = 40 + g * block;
        let _ = writeln!(
            out,
            "<text x=\"10\" y=\"{}\">{}</text>",
            y0 + 12,
            facing.words()
        );
        for (i, c) in classes.iter().enumerate() {
            let y = y0 + 20 + H * i;
            let _ = writeln!(
                out,
                "<text x=\"10\" y=\"{}\">{}</text>",
                y + H - 4,
                escape(c)
            );
            for (j, b) in boards.iter().enumerate() {
                let Some(r) = (t.rows.iter())
                    .find(|r| r.facing == *facing && r.class == **c && r.board == **b)
                else {
                    continue;
                };
                let p = r.frequencies[1] + r.frequencies[4];
                let fade = (255.0 * (1.0 - p)).round() as u8;
                let mut tip = format!("{c} against {b}, {} decisions:", r.decisions);
                for (a, f) in ACTIONS.iter().zip(r.frequencies) {
                    let _ = write!(tip, " {a} {:.1}%", 100.0 * f);
                }
                let _ = writeln!(
                    out,
                    "<rect x=\"{}\" y=\"{y}\" width=\"{W}\" height=\"{H}\" \
                     fill=\"rgb(255,{fade},{fade})\" stroke=\"#ccc\"><title>{}</title></rect>",
                    left + W * j,
                    escape(&tip)
                );
            }
        }
    }
    out.push_str("</svg>\n");
    out
}

/// `s` with the characters XML reserves escaped.
fn escape(s: &str) -> String {
    s.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
}
