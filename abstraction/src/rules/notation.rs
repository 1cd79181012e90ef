//! The one notation of a betting action as a person or a program writes it, read the same by
//! `stud query`'s spots, `stud explore`'s addresses, the line protocol of `stud serve` and PHH
//! files: PHH's codes (`f`, `cc`, `pb`, `cbr 5` or `cbr5`) and the words (`fold`, `check`,
//! `call`, `bring-in`, `complete`, `bet`, `raise`), in any case. [`Action`]'s `Display` writes
//! the PHH code back.

use super::state::{Action, State};
use super::FirstRound;

/// Every spelling [`parse`] reads, for the error that refuses another one.
pub const SPELLINGS: &str = "f or fold; cc, check or call (also x, k, c); pb or bring-in (also \
     bi); cbr N or cbrN (the seat's total this betting round); complete, bet or raise (also b, r: \
     the one complete, bet or raise the rules allow there); in any case";

/// A betting action as written: an exact action, or a complete, bet or raise without its
/// amount, which only the state it is played in makes exact ([`Written::resolve`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Written {
    /// `f`, `cc`, `pb`, `cbr N` and their words.
    Exact(Action),
    /// `complete`, `bet`, `raise`, `b`, `r`: the only complete, bet or raise legal there.
    AnyRaise,
}

/// Reads the action that starts `tokens` (`cbr 5` takes two tokens): the action and how many
/// tokens it took; `Ok(None)` when the first token is no action word at all (a card or a seat,
/// for the caller to read); an error when it starts as one but is not (`cbr` without a whole
/// amount).
pub fn parse(tokens: &[&str]) -> Result<Option<(Written, usize)>, String> {
    let Some(first) = tokens.first() else {
        return Ok(None);
    };
    let lower = first.to_ascii_lowercase();
    let exact = |a| Ok(Some((Written::Exact(a), 1)));
    match lower.as_str() {
        "f" | "fold" => exact(Action::Fold),
        "cc" | "x" | "k" | "check" | "c" | "call" => exact(Action::CheckCall),
        "pb" | "bi" | "bring-in" => exact(Action::BringIn),
        "b" | "r" | "bet" | "raise" | "complete" => Ok(Some((Written::AnyRaise, 1))),
        "cbr" => match tokens.get(1) {
            Some(n) => Ok(Some((
                Written::Exact(Action::CompleteBetRaise(amount(n)?)),
                2,
            ))),
            None => Err("`cbr` needs its amount: `cbr 5` (or `cbr5`)".into()),
        },
        _ => match lower.strip_prefix("cbr") {
            Some(n) => Ok(Some((
                Written::Exact(Action::CompleteBetRaise(amount(n)?)),
                1,
            ))),
            None => Ok(None),
        },
    }
}

/// Reads a whole string as one action (its words separated by white space), refusing anything
/// else with the spellings accepted.
pub fn parse_action(s: &str) -> Result<Written, String> {
    let tokens: Vec<&str> = s.split_whitespace().collect();
    match parse(&tokens)? {
        Some((w, n)) if n == tokens.len() => Ok(w),
        _ => Err(format!("`{s}` is not an action: write {SPELLINGS}")),
    }
}

/// A number of chips as PHH writes it: a whole number, or a float without a fraction (PHH
/// allows floats; the engine counts whole chips, so only one small enough to be exact).
pub fn amount(s: &str) -> Result<u64, String> {
    if let Ok(n) = s.parse::<u64>() {
        return Ok(n);
    }
    s.parse::<f64>()
        .ok()
        .and_then(whole)
        .ok_or_else(|| format!("`{s}` is not a whole number of chips"))
}

/// A float amount as whole chips: only one with no fraction, small enough to be exact.
pub fn whole(f: f64) -> Option<u64> {
    (f.fract() == 0.0 && (0.0..9.0e15).contains(&f)).then_some(f as u64)
}

impl Written {
    /// The exact action this is among the `legal` ones: itself when exact (whether it is legal
    /// is the rules engine's to say), else the one complete, bet or raise legal; an error
    /// naming the sizes when there are several (an open pair on fourth street) or none.
    pub fn resolve(self, legal: &[Action]) -> Result<Action, String> {
        if let Written::Exact(a) = self {
            return Ok(a);
        }
        let mut raises = legal
            .iter()
            .filter(|a| matches!(a, Action::CompleteBetRaise(_)));
        match (raises.next(), raises.next()) {
            (Some(&a), None) => Ok(a),
            (None, _) => Err("no complete, bet or raise is legal here".into()),
            (Some(a), Some(b)) => {
                let more: Vec<String> = raises.map(Action::to_string).collect();
                let sizes = [a.to_string(), b.to_string()]
                    .into_iter()
                    .chain(more)
                    .collect::<Vec<_>>()
                    .join(", ");
                Err(format!(
                    "several bet sizes are legal here ({sizes}): say which with cbr N"
                ))
            }
        }
    }
}

/// A spot's tokens, as `stud query`, a lock file's rules and `stud explore`'s addresses write a
/// spot: split at white space, `|`, `/` and `,` (so that `cbr 5` is two tokens, which
/// [`parse`] reads together).
pub fn tokens(spot: &str) -> Vec<&str> {
    spot.split(|c: char| c.is_whitespace() || "|/,".contains(c))
        .filter(|t| !t.is_empty())
        .collect()
}

/// A seat's cards as a person at the table sees them: down cards in brackets (`??` when hidden), then up cards.
pub fn seat_cards(state: &State, seat: u8, hidden: bool) -> String {
    let down: Vec<String> = state
        .down_cards(seat)
        .iter()
        .map(|c| match c {
            Some(c) if !hidden => c.to_string(),
            _ => "??".into(),
        })
        .collect();
    let up: Vec<String> = state.up_cards(seat).iter().map(|c| c.to_string()).collect();
    let mut parts = Vec::new();
    if !down.is_empty() {
        parts.push(format!("({})", down.join(" ")));
    }
    if !up.is_empty() {
        parts.push(up.join(" "));
    }
    parts.join(" ")
}

/// An action in a player's words, with its amount, before it is applied to `state`: fold,
/// check, call 5, bring in for 2, complete to 5, bet 5, raise to 10. The bring-in seat that
/// opens for the full small bet completes, even though nothing was posted before it: one word
/// for one move, whoever makes it.
pub fn action_words(state: &State, a: Action) -> String {
    let seat = state.to_act().unwrap_or(0);
    let owed = state.owed(seat);
    match (action_kind(state, a), a) {
        (ActionKind::Call, _) => format!("call {owed}"),
        (ActionKind::BringIn, _) => format!(
            "bring in for {}",
            state.def().bring_in.min(state.stack(seat))
        ),
        (ActionKind::Complete, Action::CompleteBetRaise(n)) => format!("complete to {n}"),
        (ActionKind::Bet, Action::CompleteBetRaise(n)) => format!("bet {n}"),
        (ActionKind::Raise, Action::CompleteBetRaise(n)) => format!("raise to {n}"),
        (kind, _) => kind.words().into(),
    }
}

/// The kind of action taken.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, serde::Serialize)]
#[serde(rename_all = "snake_case")]
pub enum ActionKind {
    /// Gave up the hand.
    Fold,
    /// Checked.
    Check,
    /// Called a bet, a raise or the bring-in.
    Call,
    /// Posted the bring-in.
    BringIn,
    /// Completed the bring-in to the small bet.
    Complete,
    /// Bet first on a street.
    Bet,
    /// Raised a bet.
    Raise,
}

impl ActionKind {
    /// The action in a player's words.
    pub fn words(self) -> &'static str {
        match self {
            ActionKind::Fold => "fold",
            ActionKind::Check => "check",
            ActionKind::Call => "call",
            ActionKind::BringIn => "bring in",
            ActionKind::Complete => "complete",
            ActionKind::Bet => "bet",
            ActionKind::Raise => "raise",
        }
    }

    /// Whether the action puts in more than it owes (a bet, a raise, a completion).
    pub fn aggressive(self) -> bool {
        matches!(
            self,
            ActionKind::Complete | ActionKind::Bet | ActionKind::Raise
        )
    }
}

/// The kind of `a` at `state` (before it is applied), as [`action_words`] words it.
pub fn action_kind(state: &State, a: Action) -> ActionKind {
    let seat = state.to_act().unwrap_or(0);
    let def = state.def();
    let level = state.level();
    match a {
        Action::Fold => ActionKind::Fold,
        Action::CheckCall if level == state.round_bet(seat) => ActionKind::Check,
        Action::CheckCall => ActionKind::Call,
        Action::BringIn => ActionKind::BringIn,
        Action::CompleteBetRaise(_)
            if state.street() == 0
                && def.first_round == FirstRound::BringIn
                && level < def.small_bet =>
        {
            ActionKind::Complete
        }
        Action::CompleteBetRaise(_) if level == 0 => ActionKind::Bet,
        Action::CompleteBetRaise(_) => ActionKind::Raise,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn one(s: &str) -> Result<Written, String> {
        parse_action(s)
    }

    #[test]
    fn every_spelling_reads_the_same_action() {
        let exact = |a| Ok(Written::Exact(a));
        for s in ["f", "F", "fold", "Fold", "FOLD"] {
            assert_eq!(one(s), exact(Action::Fold), "{s}");
        }
        for s in ["cc", "CC", "check", "Check", "call", "CALL", "x", "k", "c"] {
            assert_eq!(one(s), exact(Action::CheckCall), "{s}");
        }
        for s in ["pb", "PB", "bring-in", "Bring-In", "bi"] {
            assert_eq!(one(s), exact(Action::BringIn), "{s}");
        }
        for s in ["cbr 5", "cbr5", "CBR 5", "Cbr5", "cbr 5.0", "  cbr   5 "] {
            assert_eq!(one(s), exact(Action::CompleteBetRaise(5)), "{s}");
        }
        for s in ["complete", "bet", "raise", "Raise", "BET", "b", "r"] {
            assert_eq!(one(s), Ok(Written::AnyRaise), "{s}");
        }
    }

    #[test]
    fn anything_else_is_refused_with_the_spellings() {
        for s in [
            "", "folds", "cbr", "cbr five", "cbr5x", "cbr 5 6", "call 5", "5", "As",
        ] {
            let e = one(s).unwrap_err();
            assert!(
                e.contains("chips") || e.contains("amount") || e.contains("fold"),
                "{s}: {e}"
            );
        }
        assert_eq!(parse(&["Kd", "pb"]), Ok(None));
        assert_eq!(parse(&["p2"]), Ok(None));
        assert_eq!(
            parse(&["cbr", "10", "Kd"]),
            Ok(Some((Written::Exact(Action::CompleteBetRaise(10)), 2)))
        );
    }

    #[test]
    fn a_raise_without_amount_is_the_one_legal_size() {
        use Action::*;
        let r = Written::AnyRaise;
        assert_eq!(
            r.resolve(&[Fold, CheckCall, CompleteBetRaise(5)]),
            Ok(CompleteBetRaise(5))
        );
        assert!(r
            .resolve(&[Fold, CheckCall])
            .unwrap_err()
            .contains("no complete"));
        let e = r
            .resolve(&[CheckCall, CompleteBetRaise(5), CompleteBetRaise(10)])
            .unwrap_err();
        assert!(e.contains("cbr 5, cbr 10") && e.contains("cbr N"), "{e}");
        // An exact action is the rules engine's to refuse, not the notation's.
        assert_eq!(Written::Exact(Fold).resolve(&[CheckCall]), Ok(Fold));
    }
}
