//! The rows of a `stud query` answer: a hand's or a bucket's probabilities with what describes
//! it, how they are played, and their JSON (`stud query --json`'s `hands`). Shared by every
//! kind of answer; the command line prints them as tables.

use super::spot::{cards_text, hand_label, Holding};
use crate::describe::Description;
use crate::purify::Purification;
use abstraction::cards::CardSet;

/// A row of the answer.
#[derive(Clone, Debug)]
pub struct Row {
    /// The hand (`As Kd`, or the card of a public-tree game), or `None` for a bucket's row.
    pub hand: Option<String>,
    /// The bucket (a real game's row), or `None` for a hand of a public-tree game.
    pub bucket: Option<u32>,
    /// The probability of each action of the decision, in the file's order.
    pub probs: Vec<f64>,
    /// Whether the row is the uniform one the file stores where the solve never reached.
    pub unreached: bool,
    /// How many holdings of the player to act fall in the bucket here, and a few of them.
    pub holds: Option<(usize, Vec<String>)>,
    /// A bucket's hand classes and EHS (a `--hand` row: the hand's own class).
    pub about: Option<Description>,
}

/// Rewrites each row of the answer as `play` plays it (`None`: as stored).
pub fn play_rows(rows: &mut [Row], play: Option<Purification>) {
    if let Some(p) = play {
        for r in rows {
            p.apply(&mut r.probs);
        }
    }
}

/// The answer's JSON `play`: how its rows are played (`mixed`: as stored).
pub fn play_json(play: Option<Purification>) -> String {
    play.unwrap_or(Purification::Mixed).to_string()
}

/// The one row of a decision past the cap, where the abstract street has called: `--hand`'s
/// hand (if given) calling for sure.
pub fn called_row(holding: Option<&Holding>, up: CardSet) -> Row {
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
pub fn examples(hands: &[CardSet]) -> Vec<String> {
    let n = hands.len();
    let picks: Vec<usize> = match n {
        0..=3 => (0..n).collect(),
        _ => vec![0, n / 2, n - 1],
    };
    picks.into_iter().map(|i| cards_text(hands[i])).collect()
}

/// The JSON of the answer's rows.
pub fn rows_json(rows: &[Row]) -> Vec<serde_json::Value> {
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
