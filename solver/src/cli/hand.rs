//! `stud hand`: evaluates hands of 5 to 7 cards, given as arguments or one per line on standard
//! input, printing the high hand, the eight-or-better low and the razz low of each.

use abstraction::cards::{parse_distinct_cards, CardSet, Rank};
use abstraction::eval::{Category, HighStrength, LowStrength, PartialHand};
use serde::Serialize;
use std::io::{BufRead, Read, Write};
use std::process::ExitCode;

/// Arguments of `stud hand`.
#[derive(clap::Args, Debug)]
#[command(after_help = "Examples:
  stud hand As Ks Qs Js Ts 2c 3d
  printf 'AsKsQsJsTs\\n8c 7d 6h 5s 4c 3d 2h\\n' | stud hand - --json

Each hand prints its high hand with a strength (higher wins, equal strengths tie), its
eight-or-better low (or none) and its razz (ace-to-five) low, with a strength where higher is the
better low. With `-`, each line is read and evaluated in turn. A line that is not a hand (not UTF-8
text, longer than 1024 bytes, or not 5 to 7 distinct cards) is reported on standard error with its
number; the others still go through, and the exit code is 1.")]
pub struct Args {
    /// The cards of one hand (5 to 7: `As Td 7c ...`, `AsTd7c...`, `10d` for Td, any case), or
    /// `-` to read one hand per line from standard input.
    #[arg(required = true, value_name = "CARDS")]
    pub cards: Vec<String>,
    /// `--json`.
    #[command(flatten)]
    pub output: super::args::Output,
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
        // The ace-high straight flush has its own name at the table.
        let category = match (h.category(), h.ranks()[0]) {
            (Category::StraightFlush, Rank::ACE) => "royal flush".to_string(),
            (c, _) => c.to_string(),
        };
        High {
            category,
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
    let cards = parse_distinct_cards(text).map_err(|e| e.to_string())?;
    let set: CardSet = cards.iter().copied().collect();
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
        "{}: {} ({}), high strength {}; low8 {}; razz {} ({})",
        e.cards, e.high.category, e.high.ranks, e.high.strength, low8, e.razz.low, e.razz.strength
    )
}

/// The longest line `stud hand -` reads: seven cards with generous spacing take under 100 bytes;
/// a longer line is reported and skipped without being held in memory.
const MAX_LINE: usize = 1024;

/// One line of standard input: its text, or why it cannot be read as text.
fn next_line(
    input: &mut impl BufRead,
    buf: &mut Vec<u8>,
) -> std::io::Result<Option<Result<String, String>>> {
    buf.clear();
    // One byte past the limit tells a line that is too long from one that fits.
    let n = Read::take(&mut *input, MAX_LINE as u64 + 1).read_until(b'\n', buf)?;
    if n == 0 {
        return Ok(None);
    }
    if buf.last() == Some(&b'\n') {
        buf.pop();
    } else if buf.len() > MAX_LINE {
        input.skip_until(b'\n')?;
        return Ok(Some(Err(format!("longer than {MAX_LINE} bytes"))));
    }
    if buf.last() == Some(&b'\r') {
        buf.pop();
    }
    Ok(Some(String::from_utf8(std::mem::take(buf)).map_err(|e| {
        format!(
            "not UTF-8 text (byte {} of the line)",
            e.utf8_error().valid_up_to() + 1
        )
    })))
}

/// Evaluates one hand and prints it (or why it is not a hand, after `place`); `Err` when
/// standard output is closed.
fn report(
    out: &mut impl Write,
    args: &Args,
    place: &str,
    hand: &str,
    failed: &mut bool,
) -> std::io::Result<()> {
    match evaluate(hand) {
        Ok(e) if args.output.json => writeln!(
            out,
            "{}",
            serde_json::to_string(&e).expect("plain data serializes")
        ),
        Ok(e) => writeln!(out, "{}", text(&e)),
        Err(why) => {
            *failed = true;
            eprintln!("stud hand: {place}: {hand:?}: {why}");
            Ok(())
        }
    }
}

/// Runs `stud hand`: exit code 0 if every hand was evaluated, 1 if any was not. Standard input
/// is read and evaluated line by line, so that a bad line costs only itself.
pub fn run(args: &Args) -> ExitCode {
    let mut out = std::io::stdout().lock();
    let mut failed = false;
    if args.cards != ["-"] {
        // A closed output is the reader's choice (`| head`): nothing more to say.
        let _ = report(
            &mut out,
            args,
            "arguments",
            &args.cards.join(" "),
            &mut failed,
        );
        return if failed {
            ExitCode::FAILURE
        } else {
            ExitCode::SUCCESS
        };
    }
    let mut input = std::io::stdin().lock();
    let mut buf = Vec::new();
    for number in 1.. {
        let line = match next_line(&mut input, &mut buf) {
            Ok(Some(line)) => line,
            Ok(None) => break,
            Err(e) => {
                eprintln!("stud hand: reading standard input, line {number}: {e}");
                return ExitCode::FAILURE;
            }
        };
        let place = format!("line {number}");
        let written = match line {
            Ok(l) if l.trim().is_empty() => Ok(()),
            Ok(l) => report(&mut out, args, &place, &l, &mut failed),
            Err(why) => {
                failed = true;
                eprintln!("stud hand: {place}: {why}");
                Ok(())
            }
        };
        if written.is_err() {
            return ExitCode::FAILURE;
        }
    }
    if failed {
        ExitCode::FAILURE
    } else {
        ExitCode::SUCCESS
    }
}
