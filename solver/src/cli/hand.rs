//! `stud hand`: evaluates hands of 5 to 7 cards, given as arguments or one per line on standard
//! input, printing the high hand, the eight-or-better low and the razz low of each.

use abstraction::cards::{parse_cards, CardSet};
use abstraction::eval::{HighStrength, LowStrength, PartialHand};
use serde::Serialize;
use std::io::{BufRead, Write};
use std::process::ExitCode;

/// Arguments of `stud hand`.
#[derive(clap::Args, Debug)]
#[command(after_help = "Examples:
  stud hand As Ks Qs Js Ts 2c 3d
  printf 'AsKsQsJsTs\\n8c 7d 6h 5s 4c 3d 2h\\n' | stud hand - --json

Each hand prints its high hand with a strength (higher wins, equal strengths tie), its
eight-or-better low (or none) and its razz (ace-to-five) low, with a strength where higher is the
better low. A line that is not a hand is reported on standard error; the others still go through,
and the exit code is 1.")]
pub struct Args {
    /// The cards of one hand (5 to 7: `As Td 7c ...`, `AsTd7c...`, `10d` for Td, any case), or
    /// `-` to read one hand per line from standard input.
    #[arg(required = true, value_name = "CARDS")]
    pub cards: Vec<String>,
    /// Print one JSON object per hand instead of text.
    #[arg(long)]
    pub json: bool,
}

/// The evaluation of one hand.
#[derive(Debug, Serialize)]
struct Evaluation {
    cards: String,
    high: High,
    low8: Option<Low>,
    razz: Low,
}

#[derive(Debug, Serialize)]
struct High {
    category: String,
    ranks: String,
    strength: u32,
}

#[derive(Debug, Serialize)]
struct Low {
    low: String,
    strength: u32,
}

impl From<HighStrength> for High {
    fn from(h: HighStrength) -> High {
        let ranks = h.ranks().map(|r| r.to_string()).join(" ");
        High {
            category: h.category().to_string(),
            ranks,
            strength: h.value(),
        }
    }
}

impl From<LowStrength> for Low {
    fn from(l: LowStrength) -> Low {
        Low {
            low: l.to_string(),
            strength: l.value(),
        }
    }
}

/// Parses and evaluates one hand; the error says what is wrong with it.
fn evaluate(text: &str) -> Result<Evaluation, String> {
    let cards = parse_cards(text).map_err(|e| e.to_string())?;
    let mut set = CardSet::EMPTY;
    for &c in &cards {
        if set.contains(c) {
            return Err(format!("{c} appears twice"));
        }
        set.insert(c);
    }
    if !(5..=7).contains(&cards.len()) {
        return Err(format!("{} cards; a hand has 5 to 7", cards.len()));
    }
    let hand = PartialHand::of(set);
    Ok(Evaluation {
        cards: cards
            .iter()
            .map(|c| c.to_string())
            .collect::<Vec<_>>()
            .join(" "),
        high: hand.high().into(),
        low8: hand.low8().map(Low::from),
        razz: hand.razz().into(),
    })
}

fn text(e: &Evaluation) -> String {
    let low8 = e.low8.as_ref().map_or("none".to_string(), |l| {
        format!("{} ({})", l.low, l.strength)
    });
    format!(
        "{}: high {} ({}) strength {}; low8 {}; razz {} ({})",
        e.cards, e.high.category, e.high.ranks, e.high.strength, low8, e.razz.low, e.razz.strength
    )
}

/// Runs `stud hand`: exit code 0 if every hand was evaluated, 1 if any was not.
pub fn run(args: &Args) -> ExitCode {
    let hands: Vec<(String, String)> = if args.cards == ["-"] {
        let mut lines = Vec::new();
        for (i, line) in std::io::stdin().lock().lines().enumerate() {
            match line {
                Ok(l) if l.trim().is_empty() => {}
                Ok(l) => lines.push((format!("line {}", i + 1), l)),
                Err(e) => {
                    eprintln!("stud hand: reading standard input: {e}");
                    return ExitCode::FAILURE;
                }
            }
        }
        lines
    } else {
        vec![("arguments".to_string(), args.cards.join(" "))]
    };
    let mut out = std::io::stdout().lock();
    let mut failed = false;
    for (place, hand) in &hands {
        let line = match evaluate(hand) {
            Ok(e) if args.json => serde_json::to_string(&e).expect("plain data serializes"),
            Ok(e) => text(&e),
            Err(why) => {
                failed = true;
                eprintln!("stud hand: {place}: {hand:?}: {why}");
                continue;
            }
        };
        if writeln!(out, "{line}").is_err() {
            // The reader went away (e.g. `| head`): nothing more to say.
            return ExitCode::FAILURE;
        }
    }
    if failed {
        ExitCode::FAILURE
    } else {
        ExitCode::SUCCESS
    }
}
