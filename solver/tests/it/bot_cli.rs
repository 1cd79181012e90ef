//! `stud serve`, `stud play` and `stud match` through the built binary.

use crate::common;

use abstraction::phh::{replay, HandHistory};
use abstraction::rules::Profile;
use common::{on_a_terminal, stud, text};
use serde_json::Value;
use std::io::{BufRead, BufReader, Read, Write};
use std::net::TcpStream;
use std::process::{Command, Stdio};

/// Requests and the reply each must get: `Ok(action)` or `Err(part of the error)`.
fn requests() -> Vec<(String, Result<&'static str, &'static str>)> {
    let third = r#""d dh p1 ????7h","d dh p2 AsKs2c""#;
    vec![
        (
            format!(r#"{{"id":1,"seat":1,"actions":[{third}]}}"#),
            Ok("pb"),
        ),
        (
            format!(r#"{{"id":2,"actions":[{third},"p2 pb"],"seed":4}}"#),
            Ok("cc"),
        ),
        ("garbage".into(), Err("not a valid request")),
        (
            format!(r#"{{"id":4,"actions":[{third},"p1 cc"]}}"#),
            Err("it is p2's turn"),
        ),
        (
            format!(r#"{{"id":5,"seat":0,"actions":[{third}]}}"#),
            Err("seat 0 asked"),
        ),
        (
            format!(r#"{{"id":6,"actions":[{third},"p2 pb","p1 f"]}}"#),
            Err("no decision is due"),
        ),
        (
            r#"{"id":7,"actions":["d dh p1 AsAs7h"]}"#.to_string(),
            Err("already been dealt"),
        ),
        (
            format!("{{\"id\":8,\"actions\":[\"{}\"]}}", "x".repeat(70_000)),
            Err("the longest request read is 65536 bytes"),
        ),
        (
            r#"{"id":9,"actions":[],"extra":1}"#.into(),
            Err("unknown field"),
        ),
        ("\u{7f}\u{1}{]".into(), Err("not a valid request")),
        // A huge bad action is named, not repeated whole.
        (
            format!("{{\"id\":11,\"actions\":[\"p1 {}\"]}}", "x".repeat(60_000)),
            Err("… (60003 bytes)`: expected"),
        ),
    ]
}

fn check_reply(line: &str, want: &Result<&str, &str>) {
    let v: Value = serde_json::from_str(line).unwrap_or_else(|e| panic!("{line}: {e}"));
    match want {
        Ok(action) => {
            assert_eq!(v["action"], *action, "{line}");
            let probs: f64 = v["probs"]
                .as_array()
                .unwrap()
                .iter()
                .map(|p| p.as_f64().unwrap())
                .sum();
            assert!((probs - 1.0).abs() < 1e-9, "{line}");
            assert_eq!(
                v["legal"].as_array().unwrap().len(),
                v["probs"].as_array().unwrap().len()
            );
        }
        Err(part) => {
            let e = v["error"]
                .as_str()
                .unwrap_or_else(|| panic!("no error: {line}"));
            assert!(e.contains(part), "`{e}` lacks `{part}`");
        }
    }
}

#[test]
fn serve_on_stdin_answers_every_line_and_reports_errors() {
    let reqs = requests();
    let input: String = reqs
        .iter()
        .map(|(r, _)| format!("{r}\n"))
        .collect::<String>()
        + "\n";
    let out = stud(&["serve", "heuristic"], &input);
    assert!(out.status.success(), "{}", text(&out.stderr));
    let stdout = text(&out.stdout);
    let lines: Vec<&str> = stdout.lines().collect();
    assert_eq!(lines.len(), reqs.len(), "{stdout}");
    for (line, (_, want)) in lines.iter().zip(&reqs) {
        check_reply(line, want);
    }
    // The id is echoed whatever it is; a garbage line gets a null id.
    assert!(lines[0].contains(r#""id":1"#) && lines[2].contains(r#""id":null"#));
    assert!(lines[10].len() < 1000, "{}", lines[10]);
}

#[test]
fn serve_reads_every_spelling_of_an_action() {
    // One hand to fourth street, its betting written in each spelling: the same reply.
    let hand = |bring: &str, complete: &str, call: &str| {
        format!(
            r#"{{"id":1,"seed":3,"actions":["d dh p1 ????7h","d dh p2 AsKs2c","p2 {bring}","p1 {complete}","p2 {call}","d dh p1 7s","d dh p2 Kd"]}}"#
        )
    };
    let spellings = [
        ("pb", "cbr 5", "cc"),
        ("PB", "cbr5", "call"),
        ("bring-in", "complete", "Call"),
        ("bi", "Raise", "CC"),
        ("Bring-In", "CBR 5", "c"),
    ];
    // p1's open pair of sevens on fourth street: two bet sizes, which `bet` alone cannot name.
    let open_pair = r#"{"id":2,"actions":["d dh p1 ????7h","d dh p2 AsKs2c","p2 pb","p1 cbr 5","p2 cc","d dh p1 7s","d dh p2 Kd","p1 bet"]}"#;
    let folds = r#"{"id":3,"actions":["d dh p1 ????7h","d dh p2 AsKs2c","p2 folds"]}"#;
    let input: String = (spellings.iter())
        .map(|&(b, c, k)| hand(b, c, k) + "\n")
        .chain([open_pair, folds].map(|r| format!("{r}\n")))
        .collect();
    let out = stud(&["serve", "heuristic"], &input);
    assert!(out.status.success(), "{}", text(&out.stderr));
    let stdout = text(&out.stdout);
    let lines: Vec<&str> = stdout.lines().collect();
    assert_eq!(lines.len(), spellings.len() + 2, "{stdout}");
    let first: Value = serde_json::from_str(lines[0]).unwrap();
    assert_eq!(
        first["legal"],
        serde_json::json!(["cc", "cbr 5", "cbr 10"]),
        "{stdout}"
    );
    for line in &lines[1..spellings.len()] {
        assert_eq!(*line, lines[0], "{stdout}");
    }
    let error = |line: &str| -> String {
        let v: Value = serde_json::from_str(line).unwrap();
        v["error"]
            .as_str()
            .unwrap_or_else(|| panic!("no error: {line}"))
            .into()
    };
    let e = error(lines[spellings.len()]);
    assert!(
        e.contains("several bet sizes are legal here (cbr 5, cbr 10)"),
        "{e}"
    );
    let e = error(lines[spellings.len() + 1]);
    assert!(
        e.contains("`p2 folds`") && e.contains("bring-in") && e.contains("cbrN"),
        "{e}"
    );
}

#[test]
fn a_reply_with_no_decision_says_what_is_due() {
    let reqs = [
        // The next card: p2's first down card, then p1's door card, then a street's up card.
        r#"{"id":1,"actions":["d dh p1 9c9d7h"]}"#,
        r#"{"id":2,"actions":["d dh p1 9c","d dh p1 9d"]}"#,
        r#"{"id":3,"actions":["d dh p1 9c9d7h","d dh p2 ????2c","p2 pb","p1 cc"]}"#,
        // Over by a fold: the payoffs are known.
        r#"{"id":4,"actions":["d dh p1 9c9d7h","d dh p2 ????2c","p2 pb","p1 cbr 5","p2 f"]}"#,
    ];
    let mut input: String = reqs.iter().map(|r| format!("{r}\n")).collect();
    // Over at a showdown: payoffs only once both hands are known.
    let checks = |p2: &str| {
        let mut a = vec![
            "d dh p1 9c9d7h".to_string(),
            format!("d dh p2 {p2}2c"),
            "p2 pb".into(),
            "p1 cc".into(),
        ];
        for (c1, c2) in [("7s", "Kd"), ("3h", "4h"), ("5c", "6c")] {
            a.push(format!("d dh p1 {c1}"));
            a.push(format!("d dh p2 {c2}"));
            a.extend(["p1 cc".to_string(), "p2 cc".to_string()]);
        }
        a.push("d dh p1 Jh".into());
        a.push(format!(
            "d dh p2 {}",
            if p2 == "????" { "??" } else { "Qs" }
        ));
        a.extend(["p1 cc".to_string(), "p2 cc".to_string()]);
        serde_json::to_string(&a).unwrap()
    };
    input += &format!("{{\"id\":5,\"actions\":{}}}\n", checks("????"));
    input += &format!("{{\"id\":6,\"actions\":{}}}\n", checks("AsKs"));
    let out = stud(&["serve", "heuristic"], &input);
    assert!(out.status.success(), "{}", text(&out.stderr));
    let stdout = text(&out.stdout);
    let v: Vec<Value> = stdout
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(v.len(), 6, "{stdout}");
    for r in &v {
        assert!(
            r["error"].as_str().unwrap().contains("no decision is due"),
            "{r}"
        );
    }
    let card = |r: &Value, seat: u64, face: &str| {
        assert_eq!(
            (&r["due"], &r["seat"], &r["face"]),
            (&"card".into(), &seat.into(), &face.into()),
            "{r}"
        );
    };
    card(&v[0], 1, "down");
    card(&v[1], 0, "up");
    card(&v[2], 0, "up");
    assert_eq!(v[3]["due"], "over");
    assert_eq!(v[3]["payoffs"], serde_json::json!([3, -3]));
    assert_eq!(v[4]["due"], "over");
    assert!(v[4].get("payoffs").is_none(), "{}", v[4]);
    // p1: 9c 9d 7h 7s 3h 5c Jh, two pair; p2: As Ks 2c Kd 4h 6c Qs, a pair of kings. Each put
    // in the ante and the bring-in of 2.
    assert_eq!(v[5]["due"], "over");
    assert_eq!(v[5]["payoffs"], serde_json::json!([3, -3]), "{}", v[5]);
}

#[test]
fn serve_over_tcp_keeps_serving_when_a_client_leaves_mid_line() {
    let mut child = Command::new(env!("CARGO_BIN_EXE_stud"))
        .args(["serve", "random", "--listen", "127.0.0.1:0", "--seed", "3"])
        .stdout(Stdio::piped())
        .spawn()
        .unwrap();
    let mut first = String::new();
    BufReader::new(child.stdout.take().unwrap())
        .read_line(&mut first)
        .unwrap();
    let addr = first
        .trim()
        .strip_prefix("listening on ")
        .unwrap()
        .to_string();
    {
        // Half a line, then gone.
        let mut quitter = TcpStream::connect(&addr).unwrap();
        quitter.write_all(br#"{"id":1,"actions":["d dh"#).unwrap();
    }
    let clients: Vec<_> = (0..3)
        .map(|_| {
            let addr = addr.clone();
            std::thread::spawn(move || {
                let stream = TcpStream::connect(&addr).unwrap();
                let mut reader = BufReader::new(stream.try_clone().unwrap());
                let mut writer = stream;
                for (req, want) in requests() {
                    writer.write_all(req.as_bytes()).unwrap();
                    writer.write_all(b"\n").unwrap();
                    let mut line = String::new();
                    reader.read_line(&mut line).unwrap();
                    if want.is_err() {
                        check_reply(&line, &want);
                    } else {
                        // The random bot may pick any legal action.
                        let v: Value = serde_json::from_str(&line).unwrap();
                        assert!(
                            v["legal"].as_array().unwrap().contains(&v["action"]),
                            "{line}"
                        );
                    }
                }
            })
        })
        .collect();
    for c in clients {
        c.join().unwrap();
    }
    child.kill().unwrap();
    child.wait().unwrap();
}

#[test]
fn serve_help_first_example_is_answered_with_an_action() {
    let help = text(&stud(&["serve", "--help"], "").stdout);
    let line = help
        .lines()
        .map(str::trim)
        .find(|l| l.starts_with("echo '"))
        .unwrap_or_else(|| panic!("no echo example in\n{help}"));
    let request = line["echo '".len()..].split("' | ").next().unwrap();
    let out = stud(&["serve", "heuristic"], &format!("{request}\n"));
    let reply: Value = serde_json::from_str(text(&out.stdout).trim()).unwrap();
    assert!(reply.get("error").is_none(), "{reply}");
    assert!(reply["action"].is_string(), "{reply}");
}

#[test]
fn serve_listens_on_a_loopback_host_name() {
    let mut child = Command::new(env!("CARGO_BIN_EXE_stud"))
        .args(["serve", "random", "--listen", "localhost:0"])
        .stdout(Stdio::piped())
        .spawn()
        .unwrap();
    let mut first = String::new();
    BufReader::new(child.stdout.take().unwrap())
        .read_line(&mut first)
        .unwrap();
    child.kill().unwrap();
    child.wait().unwrap();
    let addr: std::net::SocketAddr = first
        .trim()
        .strip_prefix("listening on ")
        .unwrap()
        .parse()
        .unwrap();
    assert!(addr.ip().is_loopback(), "{first}");
}

#[test]
fn serve_refuses_a_non_loopback_address_and_an_unknown_player() {
    let out = stud(&["serve", "heuristic", "--listen", "0.0.0.0:0"], "");
    assert!(!out.status.success());
    assert!(text(&out.stderr).contains("loopback"));
    // Timeouts: a positive number of seconds.
    for bad in ["0", "-1", "nan", "soon"] {
        let flag = format!("--idle-timeout={bad}");
        let out = stud(
            &["serve", "heuristic", "--listen", "127.0.0.1:0", &flag],
            "",
        );
        assert!(!out.status.success(), "--idle-timeout {bad}");
        assert!(
            text(&out.stderr).contains("--idle-timeout"),
            "{}",
            text(&out.stderr)
        );
    }
    let out = stud(&["serve", "nobody"], "");
    assert!(!out.status.success());
    assert!(
        text(&out.stderr).contains("neither a bot"),
        "{}",
        text(&out.stderr)
    );
}

#[test]
fn play_two_hands_through_stdin_and_save_them() {
    let save = std::env::temp_dir().join(format!("stud-play-{}.phhs", std::process::id()));
    // Always the first choice but never a fold: `cc` or the bring-in, then a bad entry and `?`.
    let moves = "nonsense\n?\n".to_string() + &"cc\n".repeat(40);
    let args = [
        "play", "call", "--game", "5stud", "--hands", "2", "--seed", "1",
    ];
    let mut all: Vec<&str> = args.to_vec();
    let save_s = save.to_str().unwrap().to_string();
    all.extend(["--save", &save_s]);
    let out = stud(&all, &moves.replace("cc\n", "cc\npb\n"));
    let stdout = text(&out.stdout);
    assert!(out.status.success(), "{stdout}{}", text(&out.stderr));
    assert!(stdout.contains("=== hand 2"), "{stdout}");
    assert!(stdout.contains("-- 2nd street, pot"), "{stdout}");
    assert!(stdout.contains("is not one of the choices"), "{stdout}");
    assert!(stdout.contains("session over: 2 hands"), "{stdout}");
    // Both hands replay, and their results add up to the final score.
    let saved = std::fs::read_to_string(&save).unwrap();
    std::fs::remove_file(&save).unwrap();
    let mut score = 0;
    let hands: Vec<&str> = saved.split("\n[").collect();
    assert_eq!(hands.len(), 2, "{saved}");
    for (i, h) in hands.iter().enumerate() {
        let body = h.split_once('\n').unwrap().1;
        let r = replay(&HandHistory::parse(body).unwrap(), Profile::CardRoom).unwrap();
        score += r.payoffs.unwrap()[i % 2];
    }
    assert!(
        stdout.contains(&format!("you {score:+} chips (")),
        "{score} {stdout}"
    );
}

#[test]
fn match_reports_json_and_is_reproducible() {
    let args = [
        "match",
        "heuristic",
        "random",
        "--game",
        "razz",
        "--hands",
        "50",
        "--seed",
        "4",
        "--json",
    ];
    let runs: Vec<Value> = (0..2)
        .map(|_| {
            let out = stud(&args, "");
            assert!(out.status.success(), "{}", text(&out.stderr));
            serde_json::from_slice(&out.stdout).unwrap()
        })
        .collect();
    for key in ["mbb_per_hand", "ci95", "chips_a", "hands"] {
        assert_eq!(runs[0][key], runs[1][key], "{key}");
    }
    assert_eq!(runs[0]["hands"], 100);
    let mut sink = String::new();
    let out = stud(&["match", "heuristic", "nobody"], "");
    assert!(!out.status.success());
    out.stderr.as_slice().read_to_string(&mut sink).unwrap();
    assert!(sink.contains("nobody"));
}

/// A `tiny` 7stud strategy whose rows put all their weight on a raise at spots where the real
/// opponent is all in (testdata/repro/README.md).
const NO_LEGAL_WEIGHT: &str = concat!(
    env!("CARGO_MANIFEST_DIR"),
    "/../testdata/repro/7stud-tiny-no-legal-weight.strat"
);

#[test]
fn a_strategy_raising_into_an_all_in_seat_calls_instead() {
    // Seed 151: the third deal reaches the spot (the shortest of seeds 0-400 against the raise
    // bot); the match used to abort there.
    let out = stud(
        &[
            "match",
            NO_LEGAL_WEIGHT,
            "raise",
            "--game",
            "7stud",
            "--hands",
            "3",
            "--seed",
            "151",
            "--json",
        ],
        "",
    );
    let v: Value = serde_json::from_slice(&common::ok(&out).into_bytes()).unwrap();
    assert_eq!(v["hands"], 6);
    // The raise now has a real counterpart: no decision needs the fallback.
    assert_eq!(
        (&v["fallbacks_a"], &v["fallbacks_b"]),
        (&0.into(), &0.into())
    );
}

#[test]
fn long_runs_show_their_progress_on_a_terminal_only() {
    // The checkdown estimate: the street walk's would take most of the suite's time here.
    let args = [
        "match",
        "heuristic",
        "random",
        "--hands",
        "2000",
        "--aivat-value",
        "checkdown",
    ];
    let shown = on_a_terminal(&args);
    assert!(
        shown.contains("deals,") && shown.contains("left"),
        "{shown}"
    );
    // Through a pipe: the answer alone (the win rate, then the variance-reduced one).
    let out = stud(&args, "");
    assert!(text(&out.stderr).is_empty(), "{}", text(&out.stderr));
    let answer = text(&out.stdout);
    assert_eq!(answer.lines().count(), 2, "{answer}");
    assert!(answer
        .lines()
        .nth(1)
        .unwrap()
        .starts_with("variance-reduced (AIVAT): "));
    let lbr = on_a_terminal(&["eval", "lbr", "heuristic", "--hands", "20"]);
    assert!(lbr.contains("/20 deals"), "{lbr}");
}

#[test]
fn a_json_run_shows_its_progress_on_a_terminal_and_prints_the_json_alone() {
    let dir = std::env::temp_dir().join(format!("stud-match-json-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let file = dir.join("match.json");
    let args = [
        "match",
        "heuristic",
        "random",
        "--hands",
        "2000",
        "--aivat-value",
        "checkdown",
        "--json",
    ];
    // Standard output into a file, standard error on the terminal: the bar there, the JSON
    // alone in the file.
    let redirect = [">", file.to_str().unwrap()];
    let shown = on_a_terminal(&[&args[..], &redirect].concat());
    assert!(
        shown.contains("deals,") && shown.contains("left"),
        "{shown}"
    );
    let written: Value = serde_json::from_str(&std::fs::read_to_string(&file).unwrap()).unwrap();
    assert_eq!(written["hands"], 4000);
    // Through a pipe: nothing on standard error, the same JSON on standard output.
    let out = stud(&args, "");
    assert!(text(&out.stderr).is_empty(), "{}", text(&out.stderr));
    let piped: Value = serde_json::from_slice(&out.stdout).unwrap();
    for key in ["mbb_per_hand", "ci95", "chips_a", "hands"] {
        assert_eq!(piped[key], written[key], "{key}");
    }
    // Every command's deals bar the same way: LBR's under `--json` too.
    let lbr_file = dir.join("lbr.json");
    let lbr = ["eval", "lbr", "heuristic", "--hands", "20", "--json"];
    let redirect = [">", lbr_file.to_str().unwrap()];
    let shown = on_a_terminal(&[&lbr[..], &redirect].concat());
    assert!(shown.contains("/20 deals"), "{shown}");
    let written: Value =
        serde_json::from_str(&std::fs::read_to_string(&lbr_file).unwrap()).unwrap();
    assert!(written.is_object(), "{written}");
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn play_takes_the_words_it_shows_and_answers_in_words() {
    // Seed 3: the opponent brings in, then checks on 3rd street; `call` answers the bring-in.
    let out = stud(
        &[
            "play", "call", "--game", "5stud", "--hands", "1", "--seed", "3",
        ],
        "call\ncheck\n?\nq\n",
    );
    let stdout = text(&out.stdout);
    assert!(out.status.success(), "{stdout}");
    assert!(stdout.contains("[2] call 2  [3] complete to 5"), "{stdout}");
    assert!(!stdout.contains("is not one of the choices"), "{stdout}");
    assert!(stdout.contains("-- 4th street"), "{stdout}");
    assert!(
        stdout.contains("opponent's last decision: check: 100.0%, bet 5:"),
        "{stdout}"
    );
}

#[test]
fn play_at_a_table_of_three_shows_every_seat_and_moves_the_person_round() {
    let save = std::env::temp_dir().join(format!("stud-play3-{}.phhs", std::process::id()));
    let save_s = save.to_str().unwrap().to_string();
    let args = [
        "play",
        "heuristic",
        "call",
        "--game",
        "7stud-3p",
        "--hands",
        "3",
        "--seed",
        "1",
        "--save",
        &save_s,
    ];
    let out = stud(&args, &"cc\npb\n".repeat(60));
    let stdout = text(&out.stdout);
    assert!(out.status.success(), "{stdout}{}", text(&out.stderr));
    for (hand, you) in [(1, 1), (2, 2), (3, 3)] {
        assert!(
            stdout.contains(&format!("=== hand {hand} — you are p{you} ===")),
            "{stdout}"
        );
    }
    // Every seat is shown with its name; the opponents follow the person's seat in order.
    assert!(stdout.contains("p1       you: ("), "{stdout}");
    assert!(stdout.contains("p2 heuristic: (?? ??)"), "{stdout}");
    assert!(stdout.contains("p3      call: (?? ??)"), "{stdout}");
    assert!(stdout.contains("p3 call: "), "{stdout}");
    assert!(stdout.contains("session over: 3 hands"), "{stdout}");
    // The hands replay as three-seat hands, and the person's results add up to the score.
    let saved = std::fs::read_to_string(&save).unwrap();
    std::fs::remove_file(&save).unwrap();
    let mut score = 0;
    for (i, h) in saved.split("\n[").enumerate() {
        let h = HandHistory::parse(h.split_once('\n').unwrap().1).unwrap();
        assert_eq!(h.players(), 3);
        score += replay(&h, Profile::CardRoom).unwrap().payoffs.unwrap()[i % 3];
    }
    assert!(
        stdout.contains(&format!("you {score:+} chips (")),
        "{score} {stdout}"
    );
    // One opponent per other seat.
    let out = stud(&["play", "call", "--game", "7stud-3p"], "");
    assert!(!out.status.success());
    assert!(text(&out.stderr).contains("1 opponents for 7stud, a game of 3 seats"));
}

#[test]
fn match_at_a_table_of_three_rotates_the_seats() {
    let json = |players: &[&str]| -> Value {
        let mut args = vec!["match"];
        args.extend(players);
        args.extend([
            "--game", "7stud-3p", "--hands", "40", "--seed", "11", "--json",
        ]);
        // The checkdown estimate: the street walk's is 15 times slower at a table.
        args.extend(["--aivat-value", "checkdown"]);
        let out = stud(&args, "");
        assert!(out.status.success(), "{}", text(&out.stderr));
        serde_json::from_slice(&out.stdout).unwrap()
    };
    let v = json(&["heuristic", "call", "call"]);
    assert_eq!(v["hands"], 120);
    let players = v["players"].as_array().unwrap();
    let chips: Vec<i64> = players
        .iter()
        .map(|p| p["chips"].as_i64().unwrap())
        .collect();
    assert_eq!(chips.iter().sum::<i64>(), 0);
    let pooled = v["by_player"].as_array().unwrap();
    assert_eq!(pooled.len(), 2);
    assert_eq!(pooled[1]["player"], "call");
    assert_eq!(pooled[1]["copies"], 2);
    assert_eq!(pooled[1]["chips"].as_i64().unwrap(), chips[1] + chips[2]);
    assert_eq!(pooled[1]["hands"], 240);
    // The same seed plays the same hands.
    assert_eq!(
        json(&["heuristic", "call", "call"])["players"],
        v["players"]
    );
    // Copies of one deterministic bot score exactly 0.
    let v = json(&["heuristic", "heuristic", "heuristic"]);
    assert_eq!(v["by_player"][0]["chips"], 0);
    assert_eq!(v["by_player"][0]["ci95"], 0.0);
    // One player per seat.
    let out = stud(&["match", "heuristic", "call", "--game", "7stud-3p"], "");
    assert!(!out.status.success());
    assert!(text(&out.stderr).contains("2 players for 7stud, a game of 3 seats"));
}

/// Plays one hand of `game` through `stud serve PLAYER --game GAME` as a dealer would: the
/// server answers for the seat to act, and each `due` reply says which card to deal next (from
/// `deck`, in order). Returns the actions written and the final reply.
fn serve_a_hand(player: &str, game: &str, deck: &str) -> (Vec<String>, Value) {
    let mut child = Command::new(env!("CARGO_BIN_EXE_stud"))
        .args(["serve", player, "--game", game, "--seed", "5"])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .unwrap();
    let mut input = child.stdin.take().unwrap();
    let mut replies = BufReader::new(child.stdout.take().unwrap());
    let mut cards = deck.split_whitespace();
    let mut actions: Vec<String> = Vec::new();
    let last = loop {
        let req = serde_json::json!({ "id": actions.len(), "actions": actions });
        writeln!(input, "{req}").unwrap();
        let mut line = String::new();
        replies.read_line(&mut line).unwrap();
        let v: Value = serde_json::from_str(&line).unwrap_or_else(|e| panic!("{line}: {e}"));
        if let Some(a) = v["action"].as_str() {
            actions.push(format!("p{} {a}", v["seat"].as_u64().unwrap() + 1));
        } else if v["due"] == "card" {
            let card = cards.next().expect("the deck ran out");
            actions.push(match v["seat"].as_u64() {
                Some(s) => format!("d dh p{} {card}", s + 1),
                None => format!("d db {card}"),
            });
        } else {
            assert_eq!(v["due"], "over", "{line}");
            break v;
        }
    };
    drop(input);
    assert!(child.wait().unwrap().success());
    (actions, last)
}

#[test]
fn serve_plays_every_seat_of_a_three_seat_hand() {
    let deck = "AsAhAd 2c3c4c 5d6d7d Jd Qd Kd 2h 3h 4h 5c 6c 7c 8h 9h Th";
    let (actions, last) = serve_a_hand("heuristic", "7stud-3p", deck);
    // Each seat got its three third-street cards and acted; p2's 4c door brings in.
    for seat in 1..=3 {
        assert!(
            actions.iter().any(|a| a.starts_with(&format!("p{seat} "))),
            "{actions:?}"
        );
    }
    assert_eq!(actions[3], "p2 pb", "{actions:?}");
    let payoffs: Vec<i64> = last["payoffs"]
        .as_array()
        .unwrap()
        .iter()
        .map(|p| p.as_i64().unwrap())
        .collect();
    assert_eq!(payoffs.len(), 3);
    assert_eq!(payoffs.iter().sum::<i64>(), 0);
    // Rolled-up aces never fold and win.
    assert!(payoffs[0] > 0, "{actions:?} {payoffs:?}");
    // What a table cannot be asked: a fourth player, a re-solve.
    let third = r#""d dh p1 9c9d7h","d dh p2 AsKs2c","d dh p3 QhJhKd""#;
    let input = format!(
        "{{\"id\":1,\"actions\":[{third},\"p4 pb\"]}}\n\
         {{\"id\":2,\"actions\":[{third},\"p2 pb\"],\"resolve\":{{\"iterations\":5}}}}\n"
    );
    let out = stud(&["serve", "heuristic", "--game", "7stud-3p"], &input);
    let stdout = text(&out.stdout);
    let lines: Vec<&str> = stdout.lines().collect();
    assert!(
        lines[0].contains("no player p4: this hand has p1..p3"),
        "{stdout}"
    );
    assert!(
        lines[1].contains("re-solving is heads-up: this table has 3 seats"),
        "{stdout}"
    );
    let out = stud(&["serve", "x.strat:resolve", "--game", "7stud-3p"], "");
    assert!(!out.status.success());
    assert!(
        text(&out.stderr).contains("re-solving is heads-up"),
        "{}",
        text(&out.stderr)
    );
}

#[test]
fn serve_deals_an_eight_seat_hand_that_runs_out_of_cards_a_community_card() {
    // Eight seats that all call to seventh street need 56 cards: the last is one community
    // card, written `d db`.
    let deck = "AsAhAd 2c3c4c 5d6d7d 8h9hTh JsQsKs 2d3d4d 5h6h7h 8c9cTc \
                Jd Qd Kd Ac 2h 3h 4h 5c 6c 7c 8d 9d Td Jh Qh Kh Jc 2s 3s 4s 5s 6s 7s 8s 9s";
    let (actions, last) = serve_a_hand("call", "7stud-8p", deck);
    assert!(actions.contains(&"d db 9s".to_string()), "{actions:?}");
    let payoffs = last["payoffs"].as_array().unwrap();
    assert_eq!(payoffs.len(), 8);
    // Aces full with the community card win the antes and the bring-in called round: 8 × 3.
    assert_eq!(payoffs[0], 21, "{actions:?} {last}");
}

#[test]
fn a_multiway_file_served_for_a_heads_up_game_says_what_it_is_and_what_to_do() {
    let file = concat!(env!("CARGO_MANIFEST_DIR"), "/../strategies/7stud-3p.strat");
    let out = stud(&["serve", file, "--game", "7stud"], "");
    assert!(!out.status.success());
    let err = text(&out.stderr);
    assert!(
        err.contains("multiway strategy file") && err.contains("--game 7stud-3p"),
        "{err}"
    );
}
