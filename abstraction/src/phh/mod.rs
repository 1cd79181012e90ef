//! PHH hand histories (the poker hand history format, uoftcprg/phh-std, which PokerKit reads and
//! writes): reading, writing, and replaying them through the rules engine.
//!
//! A PHH file is TOML. This module reads the stud variants `F7S` (seven-card stud), `F7S/8` (hi-lo
//! eight or better) and `FR` (razz), and **`F5S`, an extension code of this project for
//! fixed-limit five-card stud** (the standard has no code for it; PokerKit does not read it).
//!
//! What is accepted:
//! - the required fields of a stud hand: `variant`, `antes` (equal for every player: the rules
//!   engine has one ante), `bring_in`, `small_bet`, `big_bet`, `starting_stacks`, `actions`;
//!   chip amounts must be whole numbers (integers, or floats with no fraction);
//! - every optional field of the standard (`author`, `event`, `hand`, `players`, `seats`,
//!   `finishing_stacks`, `ante_trimming_status`, ...), type-checked, and user-defined fields (a
//!   leading `_`), kept as they are and written back in their order;
//! - actions `d dh pN CARDS`, `d db CARDS`, `pN pb`, `pN cbr AMOUNT`, `pN cc`, `pN f`,
//!   `pN sm [CARDS|-]`, no-ops, and commentaries (`... # text`). Cards are written
//!   `AsKs7h`; `??` is a card nobody saw.
//!
//! Anything else (an unknown key, `blinds_or_straddles` in a stud game, `sd`, a malformed card)
//! is an error naming the line and the offending text. Parsing never panics.
//!
//! Up or down is not written in PHH: the position of a card in a player's hand decides it, as
//! the [`GameDef`]'s streets say (cards 1-2 down, 3-6 up, 7 down in seven-card games), so a hole
//! deal may carry one card or a whole street's (PokerKit writes third street as three cards).

mod many;
mod record;
mod replay;
mod simulate;

pub use many::{hands_of, HandText};
pub use record::Recorder;
pub use replay::{replay, Decision, Replay, ReplayError};
pub use simulate::{random_action, random_hand, with_random_stacks, SimulateError};

use crate::cards::{Card, Rank, Suit};
use crate::rules::notation::{self, Written};
use crate::rules::seat_name;
use crate::rules::{Action, GameDef, GameDefError, Profile, Variant};
use std::collections::BTreeMap;
use std::fmt;
use std::str::FromStr;
use toml::{Spanned, Value};

/// A card of a hand history: `None` is `??`, a card nobody saw.
pub type PhhCard = Option<Card>;

/// What a `sm` action shows.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Shown {
    /// `pN sm`: the player mucks.
    Muck,
    /// `pN sm -`: the player shows the hole cards already written at their deals.
    Dealt,
    /// `pN sm AsKs7h...`: the player shows these cards (some may be `??`).
    Cards(Vec<PhhCard>),
}

/// One action of the `actions` field.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum PhhAction {
    /// `d dh pN CARDS`: cards dealt to seat `seat` (0-based: `p1` is seat 0).
    DealHole {
        /// The seat dealt to.
        seat: u8,
        /// The cards, in dealing order.
        cards: Vec<PhhCard>,
    },
    /// `d db CARDS`: community cards.
    DealBoard(Vec<PhhCard>),
    /// `pN f`, `pN cc`, `pN pb`, `pN cbr AMOUNT`: a betting decision of seat `seat`.
    Bet {
        /// The seat acting (0-based).
        seat: u8,
        /// What it did.
        action: Action,
    },
    /// `pN complete`, `pN bet`, `pN raise` (any spelling of [`notation`] without an amount):
    /// the one complete, bet or raise the rules allow seat `seat` there, made exact by the
    /// replay. Only read (a request's or a person's spelling); never written by a recorder.
    AnyRaise {
        /// The seat acting (0-based).
        seat: u8,
    },
    /// `pN sm [CARDS|-]`: a seat shows or mucks.
    ShowMuck {
        /// The seat (0-based).
        seat: u8,
        /// What it showed.
        shown: Shown,
    },
    /// An empty action or a bare commentary.
    Noop,
}

/// One entry of `actions`: the action, its commentary (the text after `#`), and the line of the
/// file it came from (0 when built in memory).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ActionLine {
    /// The action.
    pub action: PhhAction,
    /// The commentary after `#`, trimmed, if any.
    pub commentary: Option<String>,
    /// The 1-based line of the file holding this action; 0 when not read from a file.
    pub line: usize,
}

impl ActionLine {
    /// An action with no commentary and no line.
    pub fn new(action: PhhAction) -> ActionLine {
        ActionLine {
            action,
            commentary: None,
            line: 0,
        }
    }
}

/// A hand history of a stud game.
#[derive(Clone, Debug, PartialEq)]
pub struct HandHistory {
    /// The game (from the variant code).
    pub variant: Variant,
    /// The ante of each player (all equal).
    pub antes: Vec<u64>,
    /// The bring-in.
    pub bring_in: u64,
    /// The small bet.
    pub small_bet: u64,
    /// The big bet.
    pub big_bet: u64,
    /// Each player's stack before the antes; their number is the number of players.
    pub starting_stacks: Vec<u64>,
    /// The actions, in order.
    pub actions: Vec<ActionLine>,
    /// The optional and user-defined fields, in the order of the file, written back unchanged.
    pub fields: Vec<(String, Value)>,
}

/// A hand history that cannot be read: the line, the offending text, and what is wrong.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("line {line}: `{text}`: {reason}")]
pub struct PhhError {
    /// The 1-based line (0 when the text was not read from a file).
    pub line: usize,
    /// The offending text (a key, a value or an action).
    pub text: String,
    /// What is wrong with it.
    pub reason: String,
}

/// The PHH code of a variant (`F5S` is this project's extension), or `None` for a game PHH
/// cannot record.
pub fn variant_code(v: Variant) -> Option<&'static str> {
    match v {
        Variant::SevenStud => Some("F7S"),
        Variant::StudHiLo => Some("F7S/8"),
        Variant::Razz => Some("FR"),
        Variant::FiveStud => Some("F5S"),
        Variant::Kuhn | Variant::Leduc | Variant::Ministud | Variant::Yardstud => None,
    }
}

fn variant_from_code(code: &str) -> Option<Variant> {
    [
        Variant::SevenStud,
        Variant::StudHiLo,
        Variant::Razz,
        Variant::FiveStud,
    ]
    .into_iter()
    .find(|&v| variant_code(v) == Some(code))
}

/// The optional fields of the standard and the TOML types they take.
const OPTIONAL_FIELDS: &[(&str, FieldType)] = {
    use FieldType::*;
    &[
        ("author", Str),
        ("event", Str),
        ("url", Str),
        ("venue", Str),
        ("address", Str),
        ("city", Str),
        ("region", Str),
        ("postal_code", Str),
        ("country", Str),
        ("time", Time),
        ("time_zone", Str),
        ("time_zone_abbreviation", Str),
        ("day", Int),
        ("month", Int),
        ("year", Int),
        ("hand", StrOrInt),
        ("level", Int),
        ("seats", PerPlayer(&Int)),
        ("seat_count", Int),
        ("table", StrOrInt),
        ("players", PerPlayer(&Str)),
        ("finishing_stacks", PerPlayer(&Num)),
        ("winnings", PerPlayer(&Num)),
        ("currency", Str),
        ("currency_symbol", Str),
        ("ante_trimming_status", Bool),
        ("time_limit", Num),
        ("time_banks", PerPlayer(&Num)),
    ]
};

/// The TOML type of an optional field.
#[derive(Clone, Copy, Debug)]
enum FieldType {
    Str,
    Int,
    Num,
    Bool,
    StrOrInt,
    Time,
    /// An array with one element per player.
    PerPlayer(&'static FieldType),
}

impl FieldType {
    fn accepts(self, v: &Value, players: usize) -> bool {
        match (self, v) {
            (FieldType::Str, Value::String(_))
            | (FieldType::Int, Value::Integer(_))
            | (FieldType::Num, Value::Integer(_) | Value::Float(_))
            | (FieldType::Bool, Value::Boolean(_))
            | (FieldType::StrOrInt, Value::String(_) | Value::Integer(_))
            | (FieldType::Time, Value::Datetime(_)) => true,
            (FieldType::PerPlayer(t), Value::Array(a)) => {
                a.len() == players && a.iter().all(|x| t.accepts(x, players))
            }
            _ => false,
        }
    }

    fn describe(self) -> String {
        match self {
            FieldType::Str => "a string".into(),
            FieldType::Int => "an integer".into(),
            FieldType::Num => "a number".into(),
            FieldType::Bool => "true or false".into(),
            FieldType::StrOrInt => "a string or an integer".into(),
            FieldType::Time => "a TOML local time or date-time".into(),
            FieldType::PerPlayer(t) => format!("an array of {}, one per player", t.describe()),
        }
    }
}

/// Maps byte offsets of the source text to 1-based line numbers. The newlines are found once,
/// and each look-up is a binary search: counting them from the start for every key and action
/// made reading a file quadratic in its length (100,000 actions took half a minute).
struct Lines(Vec<usize>);

impl Lines {
    fn new(text: &str) -> Lines {
        Lines(
            text.bytes()
                .enumerate()
                .filter(|&(_, b)| b == b'\n')
                .map(|(i, _)| i)
                .collect(),
        )
    }

    /// The line of the byte at `offset` (past the end: the last line).
    fn at(&self, offset: usize) -> usize {
        // The newlines before `offset` end the lines before its own.
        1 + self.0.partition_point(|&nl| nl < offset)
    }
}

/// A top-level key of a PHH file and its value, each with where it lies in the text.
type Entry = (Spanned<String>, Spanned<Value>);

/// The top-level entries of a PHH file's TOML, in the order they are written.
fn toml_entries(text: &str, lines: &Lines) -> Result<Vec<Entry>, PhhError> {
    let table: BTreeMap<Spanned<String>, Spanned<Value>> = toml::from_str(text).map_err(|e| {
        let at = e.span().map_or(0, |s| s.start);
        let line = lines.at(at);
        // The whole line at fault: a span may be empty (a missing quote, say).
        // At the end of the text (an unclosed array, say) there is no line to show.
        let snippet = text.lines().nth(line - 1).map_or_else(
            || "end of file".into(),
            |l| l.trim().chars().take(60).collect(),
        );
        PhhError {
            line,
            text: snippet,
            reason: format!("not valid TOML: {}", e.message()),
        }
    })?;
    let mut entries: Vec<_> = table.into_iter().collect();
    entries.sort_by_key(|(k, _)| k.span().start);
    Ok(entries)
}

/// The fields a stud hand must have, but `actions`.
const REQUIRED: [&str; 6] = [
    "variant",
    "antes",
    "bring_in",
    "small_bet",
    "big_bet",
    "starting_stacks",
];

/// A PHH file's entries sorted by what they are, each with its line.
struct Entries {
    /// The required fields but `actions` ([`REQUIRED`]).
    required: BTreeMap<&'static str, (usize, Value)>,
    /// `actions`, with where its value lies in the text.
    actions: Option<(std::ops::Range<usize>, Value)>,
    /// The optional and user-defined fields, in the order of the file.
    fields: Vec<(String, Value)>,
    /// The line of each of `fields`.
    field_lines: Vec<usize>,
}

impl Entries {
    /// Sorts `entries`; a field a stud hand cannot have, or no PHH field, is refused.
    fn of(entries: Vec<Entry>, lines: &Lines) -> Result<Entries, PhhError> {
        let mut sorted = Entries {
            required: BTreeMap::new(),
            actions: None,
            fields: Vec::new(),
            field_lines: Vec::new(),
        };
        for (key, value) in entries {
            let line = lines.at(key.span().start);
            let name = key.get_ref().as_str();
            let err = |reason: String| PhhError {
                line,
                text: name.to_string(),
                reason,
            };
            if let Some(k) = REQUIRED.into_iter().find(|k| *k == name) {
                sorted.required.insert(k, (line, value.into_inner()));
                continue;
            }
            match name {
                "actions" => sorted.actions = Some((value.span(), value.into_inner())),
                "blinds_or_straddles" | "min_bet" => {
                    return Err(err(
                        "a stud game has no blinds and no minimum bet (fixed limit, bring-in)"
                            .into(),
                    ))
                }
                _ if name.starts_with('_') || OPTIONAL_FIELDS.iter().any(|(k, _)| *k == name) => {
                    sorted.field_lines.push(line);
                    sorted.fields.push((name.to_string(), value.into_inner()));
                }
                _ => {
                    return Err(err(
                        "unknown field: not a field of the PHH standard, and user-defined \
                         fields start with `_`"
                            .into(),
                    ))
                }
            }
        }
        Ok(sorted)
    }

    /// Checks each optional field of the standard is of its type for `players` players.
    fn check_optional(&self, players: usize) -> Result<(), PhhError> {
        for ((name, value), &line) in self.fields.iter().zip(&self.field_lines) {
            if let Some((_, t)) = OPTIONAL_FIELDS.iter().find(|(k, _)| k == name) {
                if !t.accepts(value, players) {
                    return Err(type_error(line, name, value, &t.describe()));
                }
            }
        }
        Ok(())
    }
}

/// The error of a required field `k` missing.
fn missing(k: &str) -> PhhError {
    PhhError {
        line: 0,
        text: k.to_string(),
        reason: "missing: a stud hand needs variant, antes, bring_in, small_bet, big_bet, \
                 starting_stacks and actions"
            .into(),
    }
}

/// The variant of the `variant` field (its line and value).
fn read_variant((line, v): &(usize, Value)) -> Result<Variant, PhhError> {
    match v {
        Value::String(code) => variant_from_code(code).ok_or_else(|| PhhError {
            line: *line,
            text: code.clone(),
            reason: "not a stud variant: expected F7S, F7S/8, FR, or F5S (this project's \
                     code for five-card stud)"
                .into(),
        }),
        other => Err(type_error(*line, "variant", other, "a string")),
    }
}

/// The stacks of the `starting_stacks` field, as many as `variant` seats.
fn read_stacks(variant: Variant, (line, v): &(usize, Value)) -> Result<Vec<u64>, PhhError> {
    let starting_stacks = chips_array(*line, "starting_stacks", v, 1)?;
    // Checked here, before a seat is stored in a `u8`, so that the count is reported as
    // written (it was cut to 255).
    GameDef::check_seats(variant, starting_stacks.len()).map_err(|e| PhhError {
        line: *line,
        text: "starting_stacks".into(),
        reason: match e {
            GameDefError::Invalid { reason, .. } => reason,
            other => other.to_string(),
        },
    })?;
    Ok(starting_stacks)
}

/// The antes of the `antes` field: one per player, all equal (the rules engine has one).
fn read_antes((line, v): &(usize, Value), players: usize) -> Result<Vec<u64>, PhhError> {
    let antes = chips_array(*line, "antes", v, 0)?;
    if antes.len() != players {
        return Err(PhhError {
            line: *line,
            text: "antes".into(),
            reason: format!("{} antes for {players} players", antes.len()),
        });
    }
    if antes.iter().any(|&a| a != antes[0]) {
        return Err(PhhError {
            line: *line,
            text: "antes".into(),
            reason: "the antes differ between players: the rules engine has one ante".into(),
        });
    }
    Ok(antes)
}

impl FromStr for HandHistory {
    type Err = PhhError;

    fn from_str(text: &str) -> Result<HandHistory, PhhError> {
        HandHistory::parse(text)
    }
}

impl HandHistory {
    /// Reads a hand history from the text of a PHH file.
    pub fn parse(text: &str) -> Result<HandHistory, PhhError> {
        let lines = Lines::new(text);
        let entries = Entries::of(toml_entries(text, &lines)?, &lines)?;
        let take = |k: &'static str| entries.required.get(k).ok_or_else(|| missing(k));
        let variant = read_variant(take("variant")?)?;
        let starting_stacks = read_stacks(variant, take("starting_stacks")?)?;
        let players = starting_stacks.len();
        let antes = read_antes(take("antes")?, players)?;
        let (line, v) = take("bring_in")?;
        let bring_in = chips(*line, "bring_in", v, 1)?;
        let (line, v) = take("small_bet")?;
        let small_bet = chips(*line, "small_bet", v, 1)?;
        let (line, v) = take("big_bet")?;
        let big_bet = chips(*line, "big_bet", v, 1)?;
        entries.check_optional(players)?;
        let (span, value) = entries.actions.ok_or_else(|| missing("actions"))?;
        let actions = parse_actions(text, &lines, span, &value, players)?;
        Ok(HandHistory {
            variant,
            antes,
            bring_in,
            small_bet,
            big_bet,
            starting_stacks,
            actions,
            fields: entries.fields,
        })
    }

    /// The number of players.
    pub fn players(&self) -> usize {
        self.starting_stacks.len()
    }

    /// The value of an optional or user-defined field, if the hand has it.
    pub fn field(&self, name: &str) -> Option<&Value> {
        self.fields.iter().find(|(k, _)| k == name).map(|(_, v)| v)
    }

    /// The game this hand was played in: the preset of its variant under `profile`, with the
    /// stakes and stacks of the file. The number of seats is the number of starting stacks.
    pub fn game_def(&self, profile: Profile) -> Result<GameDef, GameDefError> {
        let players = self.starting_stacks.len();
        GameDef::check_seats(self.variant, players)?;
        let mut def = GameDef::stud(self.variant)
            .with_profile(profile)
            .with_seats(players as u8, 1); // at most 10: checked above
        def.ante = self.antes.first().copied().unwrap_or(0);
        def.bring_in = self.bring_in;
        def.small_bet = self.small_bet;
        def.big_bet = self.big_bet;
        def.starting_stacks = self.starting_stacks.clone();
        def.validate()?;
        Ok(def)
    }

    /// A hand history with the stakes and stacks of `def` and no actions yet, or `None` when
    /// PHH cannot record the game (Kuhn, Leduc, ministud).
    pub fn for_game(def: &GameDef) -> Option<HandHistory> {
        variant_code(def.variant)?;
        Some(HandHistory {
            variant: def.variant,
            antes: vec![def.ante; def.seats as usize],
            bring_in: def.bring_in,
            small_bet: def.small_bet,
            big_bet: def.big_bet,
            starting_stacks: def.starting_stacks.clone(),
            actions: Vec::new(),
            fields: Vec::new(),
        })
    }
}

fn type_error(line: usize, key: &str, v: &Value, expected: &str) -> PhhError {
    PhhError {
        line,
        text: format!("{key} = {v}"),
        reason: format!("expected {expected}"),
    }
}

/// A whole number of chips, at least `min`.
fn chips(line: usize, key: &str, v: &Value, min: u64) -> Result<u64, PhhError> {
    let n = match v {
        Value::Integer(i) => u64::try_from(*i).ok(),
        Value::Float(f) => notation::whole(*f),
        _ => None,
    };
    match n {
        Some(n) if n >= min => Ok(n),
        _ => Err(type_error(
            line,
            key,
            v,
            &format!("a whole number of chips, at least {min}"),
        )),
    }
}

fn chips_array(line: usize, key: &str, v: &Value, min: u64) -> Result<Vec<u64>, PhhError> {
    match v {
        Value::Array(a) => a.iter().map(|x| chips(line, key, x, min)).collect(),
        other => Err(type_error(
            line,
            key,
            other,
            "an array of whole numbers of chips",
        )),
    }
}

/// Reads the `actions` array, giving each action the line it sits on.
fn parse_actions(
    text: &str,
    lines: &Lines,
    span: std::ops::Range<usize>,
    value: &Value,
    players: usize,
) -> Result<Vec<ActionLine>, PhhError> {
    let line = lines.at(span.start);
    if !matches!(value, Value::Array(a) if a.iter().all(Value::is_str)) {
        return Err(type_error(line, "actions", value, "an array of strings"));
    }
    // Re-read the array alone, keeping each element's position, to name its line in errors.
    #[derive(serde::Deserialize)]
    struct One {
        a: Vec<Spanned<String>>,
    }
    let prefix = "a = ";
    let slice = text.get(span.clone()).unwrap_or_default();
    let one: One = toml::from_str(&format!("{prefix}{slice}")).map_err(|e| PhhError {
        line,
        text: "actions".into(),
        reason: format!("not valid TOML: {}", e.message()),
    })?;
    one.a
        .into_iter()
        .map(|s| {
            let at = (span.start + s.span().start).saturating_sub(prefix.len());
            let line = lines.at(at);
            parse_action(s.get_ref(), players)
                .map(|(action, commentary)| ActionLine {
                    action,
                    commentary,
                    line,
                })
                .map_err(|reason| PhhError {
                    line,
                    text: s.get_ref().clone(),
                    reason,
                })
        })
        .collect()
}

/// Reads one action notation: `[[Actor Action[ Arguments...]][ # Commentary]]`, a betting
/// action in PHH's own codes (`f`, `cc`, `pb`, `cbr AMOUNT`): a file is read as PHH writes it.
pub fn parse_action(s: &str, players: usize) -> Result<(PhhAction, Option<String>), String> {
    parse_action_as(s, players, false)
}

/// [`parse_action`], a betting action in any spelling of [`notation`] (`cbr5`, `call`,
/// `raise`, any case): what a person or a bot writes, as the line protocol reads it.
pub fn parse_any_action(s: &str, players: usize) -> Result<(PhhAction, Option<String>), String> {
    parse_action_as(s, players, true)
}

fn parse_action_as(
    s: &str,
    players: usize,
    any_spelling: bool,
) -> Result<(PhhAction, Option<String>), String> {
    let (body, commentary) = match s.split_once('#') {
        Some((b, c)) => (b, Some(c.trim().to_string())),
        None => (s, None),
    };
    let words: Vec<&str> = body.split_whitespace().collect();
    let seat = |w: &str| -> Result<u8, String> {
        let n = w
            .strip_prefix('p')
            .and_then(|n| n.parse::<usize>().ok())
            .ok_or_else(|| format!("`{w}` is not an actor: expected `d` or p1..p{players}"))?;
        if n == 0 || n > players {
            return Err(format!("no player {w}: this hand has p1..p{players}"));
        }
        Ok((n - 1) as u8)
    };
    let action = match words.as_slice() {
        [] => PhhAction::Noop,
        ["d", "dh", p, cards] => PhhAction::DealHole {
            seat: seat(p)?,
            cards: parse_phh_cards(cards)?,
        },
        ["d", "db", cards] => PhhAction::DealBoard(parse_phh_cards(cards)?),
        ["d", ..] => {
            return Err("a dealing action is `d dh pN CARDS` or `d db CARDS`".into());
        }
        [p, rest @ ..] => {
            let seat = seat(p)?;
            match rest {
                ["sm"] => PhhAction::ShowMuck {
                    seat,
                    shown: Shown::Muck,
                },
                ["sm", "-"] => PhhAction::ShowMuck {
                    seat,
                    shown: Shown::Dealt,
                },
                ["sm", cards] => PhhAction::ShowMuck {
                    seat,
                    shown: Shown::Cards(parse_phh_cards(cards)?),
                },
                ["sd", ..] => return Err("standing pat or discarding: not a stud action".into()),
                ["f"] => PhhAction::Bet {
                    seat,
                    action: Action::Fold,
                },
                ["cc"] => PhhAction::Bet {
                    seat,
                    action: Action::CheckCall,
                },
                ["pb"] => PhhAction::Bet {
                    seat,
                    action: Action::BringIn,
                },
                ["cbr", amount] => PhhAction::Bet {
                    seat,
                    action: Action::CompleteBetRaise(notation::amount(amount)?),
                },
                _ if any_spelling => match notation::parse(rest)? {
                    Some((Written::Exact(action), n)) if n == rest.len() => {
                        PhhAction::Bet { seat, action }
                    }
                    Some((Written::AnyRaise, 1)) if rest.len() == 1 => PhhAction::AnyRaise { seat },
                    _ => {
                        return Err(format!(
                            "expected `pN ACTION` or `pN sm [CARDS]`, the action written {}",
                            notation::SPELLINGS
                        ))
                    }
                },
                _ => {
                    return Err(
                        "expected `pN f`, `pN cc`, `pN pb`, `pN cbr AMOUNT` or `pN sm [CARDS]`"
                            .into(),
                    )
                }
            }
        }
    };
    Ok((action, commentary))
}

/// Reads PHH cards: two characters each, `??` for an unknown card, no separators.
pub fn parse_phh_cards(s: &str) -> Result<Vec<PhhCard>, String> {
    let chars: Vec<char> = s.chars().collect();
    if chars.len() % 2 != 0 {
        return Err(format!(
            "`{s}` is not a list of cards: each card is two characters, like As or ??"
        ));
    }
    chars
        .chunks(2)
        .map(|c| match (c[0], c[1]) {
            ('?', '?') => Ok(None),
            (r, su) => {
                let rank = Rank::parse(r.encode_utf8(&mut [0; 4]))
                    .filter(|_| r != '1')
                    .ok_or_else(|| {
                        format!("`{r}{su}` in `{s}`: the rank must be one of 23456789TJQKA")
                    })?;
                let suit = Suit::parse(su)
                    .ok_or_else(|| format!("`{r}{su}` in `{s}`: the suit must be one of cdhs"))?;
                Ok(Some(Card::new(rank, suit)))
            }
        })
        .collect()
}

/// Writes cards as PHH does: `AsKs7h`, `??` for an unknown card.
pub fn write_phh_cards(cards: &[PhhCard]) -> String {
    cards
        .iter()
        .map(|c| c.map_or_else(|| "??".to_string(), |c| c.to_string()))
        .collect()
}

impl PhhAction {
    /// A betting decision's seat and action as written (`Bet` or `AnyRaise`); `None` for a
    /// deal, a show or nothing.
    pub fn bet(&self) -> Option<(u8, Written)> {
        match *self {
            PhhAction::Bet { seat, action } => Some((seat, Written::Exact(action))),
            PhhAction::AnyRaise { seat } => Some((seat, Written::AnyRaise)),
            _ => None,
        }
    }
}

impl fmt::Display for PhhAction {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            PhhAction::DealHole { seat, cards } => {
                write!(f, "d dh {} {}", seat_name(*seat), write_phh_cards(cards))
            }
            PhhAction::DealBoard(cards) => write!(f, "d db {}", write_phh_cards(cards)),
            // `Action` displays itself in PHH notation.
            PhhAction::Bet { seat, action } => write!(f, "{} {action}", seat_name(*seat)),
            PhhAction::AnyRaise { seat } => write!(f, "{} raise", seat_name(*seat)),
            PhhAction::ShowMuck { seat, shown } => {
                write!(f, "{} sm", seat_name(*seat))?;
                match shown {
                    Shown::Muck => Ok(()),
                    Shown::Dealt => f.write_str(" -"),
                    Shown::Cards(c) => write!(f, " {}", write_phh_cards(c)),
                }
            }
            PhhAction::Noop => Ok(()),
        }
    }
}

impl fmt::Display for ActionLine {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match (&self.action, &self.commentary) {
            (PhhAction::Noop, Some(c)) => write!(f, "# {c}"),
            (a, Some(c)) => write!(f, "{a} # {c}"),
            (a, None) => write!(f, "{a}"),
        }
    }
}

/// A TOML string: single-quoted (a literal string, as PokerKit writes) when it can be.
fn toml_string(s: &str) -> String {
    if s.chars().any(|c| c == '\'' || c.is_control()) {
        Value::String(s.to_string()).to_string()
    } else {
        format!("'{s}'")
    }
}

fn toml_list(v: &[u64]) -> String {
    let items: Vec<String> = v.iter().map(u64::to_string).collect();
    format!("[{}]", items.join(", "))
}

impl fmt::Display for HandHistory {
    /// Writes the hand as a PHH file: the required fields, one action per line, then the
    /// optional and user-defined fields in their order.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let code = variant_code(self.variant).unwrap_or("?");
        writeln!(f, "variant = {}", toml_string(code))?;
        writeln!(f, "antes = {}", toml_list(&self.antes))?;
        writeln!(f, "bring_in = {}", self.bring_in)?;
        writeln!(f, "small_bet = {}", self.small_bet)?;
        writeln!(f, "big_bet = {}", self.big_bet)?;
        writeln!(f, "starting_stacks = {}", toml_list(&self.starting_stacks))?;
        writeln!(f, "actions = [")?;
        for a in &self.actions {
            writeln!(f, "  {},", toml_string(&a.to_string()))?;
        }
        writeln!(f, "]")?;
        for (k, v) in &self.fields {
            let bare = k
                .chars()
                .all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '-');
            let key = if bare { k.clone() } else { toml_string(k) };
            writeln!(f, "{key} = {v}")?;
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests;
