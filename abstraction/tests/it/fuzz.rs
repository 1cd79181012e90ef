//! The fuzz harness of the game's readers: proptest generators of hostile input for the PHH
//! reader and the TOML game-definition loader. Every input gets a value or an error, never a
//! panic or a hang; what reads must also write back and read again to the same thing.
//!
//! CI runs a short pass as part of the normal test command (`STUD_FUZZ_CASES` unset: 256 cases
//! per property, a few seconds). A longer run sets the case count:
//! `STUD_FUZZ_CASES=100000 cargo test --release -p abstraction --test it fuzz::` (see docs/phh.md).
//! cargo-fuzz would need a nightly toolchain, which this project does not use.

use abstraction::phh::{replay, HandHistory};
use abstraction::rules::{GameDef, Profile, State};
use proptest::prelude::*;
use proptest::test_runner::Config;

/// The cases per property: `STUD_FUZZ_CASES`, or 256.
fn cases() -> Config {
    let n = std::env::var("STUD_FUZZ_CASES")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(256);
    Config::with_cases(n)
}

/// A hostile number as TOML writes it: ordinary, zero, negative, huge, fractional, not a number.
fn number() -> impl Strategy<Value = String> {
    prop_oneof![
        4 => (0u64..2000).prop_map(|n| n.to_string()),
        1 => Just("0".to_string()),
        1 => (1i64..1_000_000).prop_map(|n| format!("-{n}")),
        1 => Just(u64::MAX.to_string()),
        1 => Just(i64::MAX.to_string()),
        1 => Just("9223372036854775808".to_string()),
        1 => Just("1e300".to_string()),
        1 => Just("2.5".to_string()),
        1 => Just("nan".to_string()),
        1 => Just("-inf".to_string()),
        1 => Just("'12'".to_string()),
    ]
}

/// A list of `n` hostile numbers, `n` from none to past what a `u8` seat count holds.
fn numbers() -> impl Strategy<Value = String> {
    prop_oneof![
        4 => (number(), 0usize..12).prop_map(|(x, n)| vec![x; n]),
        2 => prop::collection::vec(number(), 0..12),
        1 => (number(), 250usize..300).prop_map(|(x, n)| vec![x; n]),
    ]
    .prop_map(|v| format!("[{}]", v.join(", ")))
}

/// A card as PHH writes it, or something close to one.
fn card() -> impl Strategy<Value = String> {
    prop_oneof![
        8 => ("[2-9TJQKA]", "[cdhs]").prop_map(|(r, s)| format!("{r}{s}")),
        1 => Just("??".to_string()),
        1 => "[0-9a-zA-Z?]{1,3}",
    ]
}

/// An action line: mostly the PHH grammar with hostile seats, amounts and cards, sometimes
/// anything.
fn action() -> impl Strategy<Value = String> {
    let seat = prop_oneof![
        8 => (1u32..4).prop_map(|n| format!("p{n}")),
        1 => prop_oneof![Just(0u32), 4u32..300, Just(u32::MAX)].prop_map(|n| format!("p{n}")),
        1 => Just("d".to_string()),
    ];
    let cards = || prop::collection::vec(card(), 0..5).prop_map(|v| v.concat());
    prop_oneof![
        4 => (seat.clone(), prop::sample::select(vec!["f", "cc", "pb", "sm", "sm -", "sd"]))
            .prop_map(|(s, a)| format!("{s} {a}")),
        3 => (seat.clone(), number()).prop_map(|(s, n)| format!("{s} cbr {}", n.trim_matches('\''))),
        4 => (seat.clone(), cards()).prop_map(|(s, c)| format!("d dh {s} {c}")),
        1 => cards().prop_map(|c| format!("d db {c}")),
        1 => (seat, cards()).prop_map(|(s, c)| format!("{s} sm {c}")),
        1 => ".{0,20}".prop_map(|s| format!("# {s}")),
        1 => ".{0,30}",
    ]
}

/// A TOML string literal of any text (escaped by the TOML writer itself).
fn quoted(s: &str) -> String {
    toml::Value::String(s.to_string()).to_string()
}

/// A whole PHH file: the required fields with hostile values (each sometimes missing), optional
/// and unknown keys, and an action list, in a random order.
fn phh_file() -> impl Strategy<Value = String> {
    let variant = prop_oneof![
        4 => prop::sample::select(vec!["F7S", "F7S/8", "FR", "F5S"]).prop_map(quoted),
        1 => prop::sample::select(vec!["NT", "FT", ""]).prop_map(quoted),
        1 => number(),
    ];
    let actions = prop::collection::vec(action(), 0..40).prop_map(|v| {
        v.iter()
            .map(|a| quoted(a))
            .collect::<Vec<_>>()
            .join(",\n  ")
    });
    let extra = prop::collection::vec(
        prop_oneof![
            ("_[a-z]{1,8}", number()).prop_map(|(k, v)| format!("{k} = {v}")),
            (
                prop::sample::select(vec!["hand", "seats", "players", "time", "author", "day"]),
                number()
            )
                .prop_map(|(k, v)| format!("{k} = {v}")),
            Just("players = ['a', 'b']".to_string()),
            Just("blinds_or_straddles = [1, 2]".to_string()),
            "[a-z]{1,8}".prop_map(|k| format!("{k} = 1")),
        ],
        0..4,
    );
    (
        variant,
        numbers(),
        number(),
        number(),
        number(),
        numbers(),
        actions,
        extra,
        prop::collection::vec(any::<bool>(), 7),
        any::<prop::sample::Index>(),
    )
        .prop_map(
            |(variant, antes, bring_in, small, big, stacks, actions, extra, keep, rotate)| {
                let mut lines: Vec<String> = [
                    format!("variant = {variant}"),
                    format!("antes = {antes}"),
                    format!("bring_in = {bring_in}"),
                    format!("small_bet = {small}"),
                    format!("big_bet = {big}"),
                    format!("starting_stacks = {stacks}"),
                    format!("actions = [\n  {actions}\n]"),
                ]
                .into_iter()
                .zip(keep)
                // Each required field is there nine times in ten.
                .filter(|(_, k)| *k || rotate.index(10) != 0)
                .map(|(l, _)| l)
                .collect();
                lines.extend(extra);
                let n = lines.len().max(1);
                lines.rotate_left(rotate.index(n));
                lines.join("\n") + "\n"
            },
        )
}

/// A stud hand that reads: the base of the byte-level mutations.
const HAND: &str = "variant = 'F7S'
antes = [1, 1, 1]
bring_in = 2
small_bet = 5
big_bet = 10
starting_stacks = [1000, 1000, 1000]
actions = ['d dh p1 8s5c7d', 'd dh p2 5sJs8h', 'd dh p3 KsKdAs', 'p1 pb', 'p2 cbr 5', 'p3 f', 'p1 cc', 'd dh p1 Th', 'd dh p2 Kc', 'p2 cbr 5', 'p1 f']
";

/// Reading `text` gives a hand or an error naming a line of the text (0: a missing field); a
/// hand writes back to text that reads to the same hand, and replays or fails, without panic.
fn check_phh(text: &str) -> Result<(), TestCaseError> {
    match HandHistory::parse(text) {
        Err(e) => {
            // The end of a text that ends in a newline is on the empty line after it.
            let lines = text.split('\n').count();
            prop_assert!(e.line <= lines, "line {} of {lines}: {e}", e.line);
        }
        Ok(h) => {
            let written = h.to_string();
            let again = HandHistory::parse(&written);
            prop_assert!(again.is_ok(), "{written}: {:?}", again.err());
            prop_assert_eq!(again.unwrap().to_string(), written);
            for profile in [Profile::CardRoom, Profile::PokerKit] {
                let _ = replay(&h, profile);
            }
        }
    }
    Ok(())
}

/// A game file: a preset, or a full definition, with hostile values for any key.
fn game_file() -> impl Strategy<Value = String> {
    let key = prop::sample::select(vec![
        "seats",
        "ante",
        "bring_in",
        "small_bet",
        "big_bet",
        "starting_stacks",
        "max_bets",
        "uncapped_heads_up",
        "burn_cards",
        "variant",
        "profile",
        "first_round",
        "later_rounds",
        "out_of_cards",
        "deck",
        "streets",
        "unknown_key",
    ]);
    let value = prop_oneof![
        4 => number(),
        1 => numbers(),
        1 => Just("true".to_string()),
        1 => prop::sample::select(vec![
            "'7stud'", "'razz'", "'kuhn'", "'pokerkit'", "'card-room'", "'bring-in'",
            "'best-showing'", "'reshuffle'", "'community-card'", "'nonsense'",
        ]).prop_map(String::from),
        1 => Just("{ ranks = ['A', 'K'], suits = 2 }".to_string()),
        1 => Just("{ ranks = [], suits = 9 }".to_string()),
        1 => Just("[{ deal = ['down', 'up'], bet = 'small' }]".to_string()),
        1 => Just("[]".to_string()),
        1 => Just("[{ deal = ['up'], bet = 'big' }, { deal = [], bet = 'small' }]".to_string()),
    ];
    let head = prop_oneof![
        prop::sample::select(vec![
            "7stud", "stud8", "razz", "5stud", "kuhn", "leduc", "ministud", "x"
        ])
        .prop_map(|p| format!("preset = '{p}'")),
        prop::sample::select(vec!["7stud", "razz", "kuhn", "ministud", "nope"])
            .prop_map(|v| format!("variant = '{v}'")),
        Just(String::new()),
    ];
    (head, prop::collection::vec((key, value), 0..8)).prop_map(|(head, kv)| {
        let mut seen = std::collections::HashSet::new();
        let mut text = head + "\n";
        for (k, v) in kv {
            // A repeated key is only TOML's error; keep the first of each.
            if seen.insert(k) {
                text += &format!("{k} = {v}\n");
            }
        }
        text
    })
}

/// Loading `text` gives a game or an error; a game is valid, survives the JSON that strategy
/// files store it as, and the rules engine starts a hand of it.
fn check_game(text: &str) -> Result<(), TestCaseError> {
    if let Ok(g) = GameDef::from_toml(text) {
        prop_assert!(g.validate().is_ok(), "{text}: {:?}", g.validate());
        let json = serde_json::to_string(&g).unwrap();
        let back: GameDef = serde_json::from_str(&json).unwrap();
        prop_assert_eq!(back, g.clone());
        if State::new(&g).is_ok() {
            use rand::SeedableRng;
            let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(text.len() as u64);
            let _ = abstraction::phh::random_hand(&g, &mut rng);
        }
    }
    Ok(())
}

proptest! {
    #![proptest_config(cases())]

    /// Generated PHH files with hostile values, keys and actions.
    #[test]
    fn phh_files_of_hostile_values(text in phh_file()) {
        check_phh(&text)?;
    }

    /// A good hand with bytes flipped, inserted, deleted and lines duplicated or dropped; read
    /// as the command reads a file (bytes that must be UTF-8 first).
    #[test]
    fn phh_files_with_damaged_bytes(
        edits in prop::collection::vec((any::<prop::sample::Index>(), 0u8..5, any::<u8>()), 1..8)
    ) {
        let mut bytes = HAND.as_bytes().to_vec();
        for (at, op, b) in edits {
            let i = at.index(bytes.len() + 1);
            match op {
                0 => bytes.insert(i, b),
                1 if i < bytes.len() => { bytes.remove(i); }
                2 if i < bytes.len() => bytes[i] ^= b.max(1),
                3 => {
                    // Repeat the line around `i`.
                    let start = bytes[..i].iter().rposition(|&c| c == b'\n').map_or(0, |p| p + 1);
                    let line: Vec<u8> = bytes[start..i].to_vec();
                    bytes.splice(start..start, line);
                }
                _ => bytes.truncate(i),
            }
        }
        if let Ok(text) = String::from_utf8(bytes) {
            check_phh(&text)?;
        }
    }

    /// Any text at all.
    #[test]
    fn phh_files_of_any_text(text in "(?s).{0,300}") {
        check_phh(&text)?;
    }

    /// Generated game files with hostile values for any key.
    #[test]
    fn game_files_of_hostile_values(text in game_file()) {
        check_game(&text)?;
    }

    /// Any text as a game file.
    #[test]
    fn game_files_of_any_text(text in "(?s).{0,200}") {
        check_game(&text)?;
    }
}
