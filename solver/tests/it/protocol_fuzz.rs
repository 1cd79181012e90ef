//! A fuzz harness for the bot protocol's line parser (docs/protocol.md): generators of hostile
//! request lines (random bytes, truncated JSON, huge numbers, wrong types, deep nesting, bad PHH
//! actions, huge pieces of text) and of hostile streams of lines. Whatever comes, each line gets
//! exactly one JSON reply, an error unless the line happens to be a valid request, whose message
//! repeats a bounded part of the input; and nothing panics.
//!
//! CI runs proptest's default 256 cases per property (a few seconds). A longer run:
//! `PROPTEST_CASES=100000 cargo test --release -p solver --test it protocol_fuzz::`.

use abstraction::rules::{GameDef, Profile};
use proptest::prelude::*;
use proptest::test_runner::FileFailurePersistence;
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;
use serde_json::{json, Map, Value};
use solver::bot::protocol::{ResolveLimits, Served, Server, MAX_LINE, MAX_MESSAGE};
use solver::bot::Heuristic;
use std::sync::OnceLock;

fn server() -> &'static Server {
    static SERVER: OnceLock<Server> = OnceLock::new();
    SERVER.get_or_init(|| Server {
        def: GameDef::preset("7stud").unwrap(),
        profile: Profile::CardRoom,
        served: Served::Player(Box::new(Heuristic::default())),
        limits: Default::default(),
    })
}

/// Valid requests: the starting points that truncation and mutation damage.
const VALID: [&str; 3] = [
    r#"{"id":1,"seat":1,"actions":["d dh p1 ????7h","d dh p2 AsKs2c"]}"#,
    r#"{"id":"x","actions":["d dh p1 9c9d7h","d dh p2 ????2c","p2 pb"],"seed":7}"#,
    r#"{"id":[3],"actions":["d dh p1 9c9d7h","d dh p2 ????2c","p2 pb","p1 cbr 5","p2 cc","d dh p1 7s","d dh p2 Kd"]}"#,
];

/// Numbers no field can hold, or only just.
const NUMBERS: [&str; 10] = [
    "1e400",
    "-1e400",
    "18446744073709551616",
    "-9223372036854775809",
    "340282366920938463463374607431768211456",
    "0.5",
    "-0",
    "1e-400",
    "99999999999999999999999999999999999999999999999999",
    "255",
];

/// Any JSON value, a few levels deep.
fn json_value() -> impl Strategy<Value = Value> {
    let leaf = prop_oneof![
        Just(Value::Null),
        any::<bool>().prop_map(Value::from),
        any::<i64>().prop_map(Value::from),
        any::<u64>().prop_map(Value::from),
        any::<f64>().prop_map(|f| json!(f)),
        ".{0,40}".prop_map(Value::from),
    ];
    leaf.prop_recursive(4, 64, 8, |inner| {
        prop_oneof![
            prop::collection::vec(inner.clone(), 0..8).prop_map(Value::Array),
            prop::collection::btree_map(".{0,8}", inner, 0..6)
                .prop_map(|m| Value::Object(m.into_iter().collect())),
        ]
    })
}

/// PHH action strings: real ones, damaged ones, huge ones and random text.
fn action() -> impl Strategy<Value = String> {
    prop_oneof![
        prop::sample::select(vec![
            "d dh p1 ????7h",
            "d dh p2 AsKs2c",
            "p2 pb",
            "p1 cc",
            "p1 f",
            "p1 cbr 5",
            "p2 sm",
            "d db 7h",
            "p1 sd",
        ])
        .prop_map(String::from),
        (
            prop::sample::select(vec![
                "p1 cbr ",
                "p0 cc",
                "p9999999999999999999999 ",
                "d dh p1 "
            ]),
            prop::sample::select(NUMBERS.to_vec())
        )
            .prop_map(|(a, n)| format!("{a}{n}")),
        "(p[0-9]{1,3}|d|`|\")? ?(cc|f|pb|cbr|sm|dh|db)? ?[0-9A-Za-z?` \"#]{0,30}",
        ".{0,60}",
        // Huge: a whole line's worth, quotes and all, which an error must not repeat whole.
        (0usize..3, 1000usize..60_000).prop_map(|(kind, n)| match kind {
            0 => format!("p1 {}", "x".repeat(n)),
            1 => format!("`{}` cc", "`".repeat(n)),
            _ => format!("p1 cc # {}", "\"".repeat(n)),
        }),
    ]
}

/// A request object whose fields may be of any type and value.
fn request() -> impl Strategy<Value = Vec<u8>> {
    let field = |good: BoxedStrategy<Value>| {
        prop_oneof![
            3 => good,
            1 => json_value(),
            1 => prop::sample::select(NUMBERS.to_vec()).prop_map(|n| serde_json::from_str(n).unwrap_or(Value::Null)),
        ]
    };
    let actions = prop::collection::vec(action(), 0..12)
        .prop_map(|a| json!(a))
        .boxed();
    let seat = (0u64..300).prop_map(Value::from).boxed();
    let seed = any::<u64>().prop_map(Value::from).boxed();
    (
        field(actions),
        prop::option::of(field(seat)),
        prop::option::of(field(seed)),
        prop::option::of(json_value()),
        prop::option::of((".{1,8}", json_value())),
    )
        .prop_map(|(actions, seat, seed, id, extra)| {
            let mut m = Map::new();
            m.insert("actions".into(), actions);
            for (k, v) in [("seat", seat), ("seed", seed), ("id", id)] {
                if let Some(v) = v {
                    m.insert(k.into(), v);
                }
            }
            if let Some((k, v)) = extra {
                m.insert(k, v);
            }
            Value::Object(m).to_string().into_bytes()
        })
}

/// A hostile request line (no newline in it).
fn hostile_line() -> impl Strategy<Value = Vec<u8>> {
    prop_oneof![
        // Random bytes.
        prop::collection::vec(any::<u8>(), 0..300),
        // Truncated JSON.
        (
            prop::sample::select(VALID.to_vec()),
            any::<prop::sample::Index>()
        )
            .prop_map(|(v, i)| v.as_bytes()[..i.index(v.len() + 1)].to_vec()),
        // One byte of a valid request changed.
        (
            prop::sample::select(VALID.to_vec()),
            any::<prop::sample::Index>(),
            any::<u8>()
        )
            .prop_map(|(v, i, b)| {
                let mut v = v.as_bytes().to_vec();
                let at = i.index(v.len());
                v[at] = b;
                v
            }),
        // A number where a field's number goes.
        (
            prop::sample::select(vec!["seat", "seed", "id"]),
            prop::sample::select(NUMBERS.to_vec())
        )
            .prop_map(|(k, n)| format!(
                r#"{{"{k}":{n},"actions":["d dh p1 ????7h","d dh p2 AsKs2c"]}}"#
            )
            .into_bytes()),
        // Wrong types, unknown fields, hostile actions.
        request(),
        // Deep nesting, balanced or not, bare or as the id.
        (1usize..5000, 0usize..5000, any::<bool>()).prop_map(|(open, close, as_id)| {
            let nest = "[".repeat(open) + &"]".repeat(close);
            if as_id {
                format!(r#"{{"id":{nest},"actions":[]}}"#).into_bytes()
            } else {
                nest.into_bytes()
            }
        }),
    ]
    .prop_map(|mut line| {
        // A newline would make two lines: the stream property covers those.
        line.retain(|&b| b != b'\n');
        line
    })
}

/// Checks one reply to `line`: a JSON object, with an error of bounded length or a decision;
/// the id echoed when the line is a JSON object with one.
fn check_reply(line: &[u8], reply: &Value) -> Result<(), TestCaseError> {
    let obj = reply.as_object();
    prop_assert!(obj.is_some(), "not an object: {}", reply);
    if let Some(e) = reply.get("error") {
        let e = e.as_str().unwrap_or_default();
        prop_assert!(!e.is_empty(), "error is not a message: {}", reply);
        // The cap, then `… (N bytes)`.
        prop_assert!(
            e.chars().count() <= MAX_MESSAGE + 30,
            "an error of {} characters",
            e.chars().count()
        );
    } else {
        let legal = reply["legal"].as_array();
        prop_assert!(
            legal.is_some_and(|l| l.contains(&reply["action"])),
            "neither an error nor a decision: {}",
            reply
        );
        let sum: f64 = reply["probs"]
            .as_array()
            .unwrap()
            .iter()
            .filter_map(Value::as_f64)
            .sum();
        prop_assert!((sum - 1.0).abs() < 1e-9, "{}", reply);
    }
    if let Ok(Value::Object(m)) = serde_json::from_slice::<Value>(line) {
        if let Some(id) = m.get("id") {
            prop_assert!(
                same(&reply["id"], id),
                "id {} echoed as {}",
                id,
                reply["id"]
            );
        }
    }
    Ok(())
}

/// Equal JSON values, numbers within a rounding: serde_json reads a float to within one unit
/// in the last place, so an id echoed and read again may differ by that (docs/protocol.md).
fn same(a: &Value, b: &Value) -> bool {
    match (a, b) {
        (Value::Number(x), Value::Number(y)) => {
            x == y || {
                let (x, y) = (x.as_f64().unwrap(), y.as_f64().unwrap());
                (x - y).abs() <= 1e-15 * x.abs().max(y.abs())
            }
        }
        (Value::Array(x), Value::Array(y)) => {
            x.len() == y.len() && x.iter().zip(y).all(|(x, y)| same(x, y))
        }
        (Value::Object(x), Value::Object(y)) => {
            x.len() == y.len() && x.iter().all(|(k, v)| y.get(k).is_some_and(|w| same(v, w)))
        }
        _ => a == b,
    }
}

proptest! {
    // Failing cases are kept beside this file (protocol_fuzz.proptest-regressions) and tried
    // first.
    #![proptest_config(ProptestConfig {
        failure_persistence: Some(Box::new(FileFailurePersistence::WithSource("proptest-regressions"))),
        ..ProptestConfig::default()
    })]

    #[test]
    fn every_hostile_line_gets_one_bounded_reply(line in hostile_line(), seed in any::<u64>()) {
        let reply = server().respond(&line, &mut ChaCha8Rng::seed_from_u64(seed));
        check_reply(&line, &reply)?;
        // Through the line reader too: one reply line for the line.
        let mut out = Vec::new();
        let mut input = line.clone();
        input.push(b'\n');
        server().serve(&input[..], &mut out, &mut ChaCha8Rng::seed_from_u64(seed)).unwrap();
        let blank = line.iter().all(u8::is_ascii_whitespace);
        let replies: Vec<&[u8]> = out.split(|&b| b == b'\n').filter(|l| !l.is_empty()).collect();
        prop_assert_eq!(replies.len(), usize::from(!blank));
    }

    #[test]
    fn a_stream_of_hostile_lines_gets_one_reply_per_line(
        lines in prop::collection::vec(
            prop_oneof![
                8 => hostile_line(),
                1 => Just(b" \t\r".to_vec()),
                1 => (1usize..2000).prop_map(|n| vec![b'y'; MAX_LINE + n]),
            ],
            0..20,
        ),
        crlf in any::<bool>(),
        cut_last in any::<bool>(),
    ) {
        let end: &[u8] = if crlf { b"\r\n" } else { b"\n" };
        let mut input = lines.join(end);
        if !cut_last && !lines.is_empty() {
            input.extend_from_slice(end);
        }
        let mut out = Vec::new();
        server().serve(&input[..], &mut out, &mut ChaCha8Rng::seed_from_u64(1)).unwrap();
        let text = String::from_utf8(out).expect("replies are UTF-8");
        let replies: Vec<Value> = text
            .lines()
            .map(|l| serde_json::from_str(l).expect("each reply is one JSON line"))
            .collect();
        // The lines that get a reply, with their length as read (a `\r` before the newline
        // counts towards the cap): all but the blank ones.
        let asked: Vec<(&Vec<u8>, usize)> = lines
            .iter()
            .enumerate()
            .map(|(i, l)| (l, l.len() + usize::from(crlf && (i + 1 < lines.len() || !cut_last))))
            .filter(|(l, len)| *len > MAX_LINE || !l.iter().all(u8::is_ascii_whitespace))
            .collect();
        prop_assert_eq!(replies.len(), asked.len());
        for ((line, len), reply) in asked.into_iter().zip(&replies) {
            if len > MAX_LINE {
                let e = reply["error"].as_str().unwrap_or_default();
                prop_assert!(e.contains(&format!("the line is {len} bytes long")), "{}", e);
            } else {
                check_reply(line, reply)?;
            }
        }
    }
}

/// A five-card stud strategy server, its re-solves bounded to 3 iterations or 5 ms (so that
/// every re-solve the fuzz gets through is quick, and each budget is solved once: the player
/// keeps 16 solves).
fn resolving_server() -> &'static Server {
    static SERVER: OnceLock<Server> = OnceLock::new();
    SERVER.get_or_init(|| {
        let def = GameDef::preset("5stud").unwrap();
        let file = concat!(env!("CARGO_MANIFEST_DIR"), "/../strategies/5stud-hu.strat");
        let blueprint = solver::players::open_strategy(file, &def).unwrap();
        let player = solver::resolve::ResolvingPlayer::new(
            blueprint,
            solver::resolve::Budget::Iterations(1),
            solver::resolve::Options::default(),
        )
        .unwrap();
        Server {
            def,
            profile: Profile::CardRoom,
            served: Served::Strategy {
                player: Box::new(player),
                always: false,
            },
            limits: ResolveLimits {
                max_iterations: 3,
                max_millis: 5,
            },
        }
    })
}

/// A fifth-street decision of five-card stud (the last street: a re-solve runs there).
const FIFTH: &str = r#""d dh p1 As7h","d dh p2 Kd2c","p2 pb","p1 cc","d dh p1 9s","d dh p2 3d","p1 cc","p2 cc","d dh p1 Qh","d dh p2 4c","p1 cc","p2 cc","d dh p1 Jc","d dh p2 5s""#;

/// A value of a re-solve field: in range, past the limits, past any integer, negative,
/// fractional, or of another type.
fn resolve_value() -> impl Strategy<Value = Value> {
    prop_oneof![
        4 => (0u64..8).prop_map(Value::from),
        1 => (4u64..).prop_map(Value::from),
        1 => Just(json!(u64::MAX)),
        1 => Just(serde_json::from_str::<Value>("18446744073709551616").unwrap()),
        1 => Just(serde_json::from_str::<Value>("1e400").unwrap_or(Value::Null)),
        1 => (i64::MIN..0).prop_map(Value::from),
        1 => any::<f64>().prop_map(|x| json!(x)),
        1 => ".{0,20}".prop_map(Value::from),
        1 => Just(Value::Null),
        1 => Just(json!([1])),
        1 => Just(json!({"ms": 1})),
    ]
}

/// A `resolve` field: an object of some of `iterations`, `ms` and a stray key, or not an
/// object at all.
fn resolve_field() -> impl Strategy<Value = Value> {
    prop_oneof![
        6 => (
            prop::option::of(resolve_value()),
            prop::option::of(resolve_value()),
            prop::option::of(resolve_value()),
        )
            .prop_map(|(it, ms, stray)| {
                let mut o = Map::new();
                if let Some(v) = it {
                    o.insert("iterations".into(), v);
                }
                if let Some(v) = ms {
                    o.insert("ms".into(), v);
                }
                if let Some(v) = stray {
                    o.insert("budget".into(), v);
                }
                Value::Object(o)
            }),
        1 => resolve_value(),
    ]
}

proptest! {
    #![proptest_config(ProptestConfig {
        failure_persistence: Some(Box::new(FileFailurePersistence::WithSource("proptest-regressions"))),
        ..ProptestConfig::default()
    })]

    /// Whatever a request's `resolve` field holds, the reply is an error naming what is wrong,
    /// or a decision re-solved within the server's limits: never a panic, never a re-solve
    /// past them.
    #[test]
    fn any_resolve_field_gets_an_error_or_a_bounded_re_solve(
        field in resolve_field(),
        third in any::<bool>(),
    ) {
        let actions = if third { r#""d dh p1 As7h","d dh p2 Kd2c""# } else { FIFTH };
        let line = format!(r#"{{"id":1,"actions":[{actions}],"resolve":{field}}}"#);
        let reply = resolving_server().respond(line.as_bytes(), &mut ChaCha8Rng::seed_from_u64(0));
        check_reply(line.as_bytes(), &reply)?;
        if let Some(r) = reply.get("resolve") {
            let iterations = r["iterations"].as_u64().unwrap();
            let asked = &field["iterations"];
            if let Some(n) = asked.as_u64() {
                prop_assert!((1..=3).contains(&n) && iterations == n, "{} {}", field, reply);
            } else {
                let ms = field["ms"].as_u64();
                prop_assert!(ms.is_some_and(|ms| (1..=5).contains(&ms)), "{} {}", field, reply);
            }
        } else if reply.get("error").is_none() {
            // A decision without a re-solve: the blueprint's, before the last street, or
            // none asked (`"resolve": null`).
            prop_assert!(third || field.is_null(), "{} {}", field, reply);
        }
    }
}
