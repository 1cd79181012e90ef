//! `stud hand` through the built binary: arguments, standard input, JSON, errors and exit codes.

use crate::common;

use common::{stud, stud_bytes, text};

#[test]
fn a_hand_in_arguments() {
    let out = stud(&["hand", "As", "Ks", "Qs", "Js", "Ts", "2c", "3d"], "");
    assert!(out.status.success());
    assert_eq!(
        text(&out.stdout),
        "As Ks Qs Js Ts 2c 3d: royal flush (A K Q J T), high strength 7462; low8 none; \
         razz J-T-3-2-A (5797)\n"
    );
}

#[test]
fn hands_on_stdin_as_json_with_bad_lines_reported_and_skipped() {
    let input = "8c 7d 6h 5s 4c 3d 2h\n\nXq 2c 3c 4c 5c\n2c 3c 4c 5c\nah ad 2C 3D 4H 5S 9C\n\
                 2c 2c 3d 4d 5d\nKc Kd Kh 10s Td\n";
    let out = stud(&["hand", "-", "--json"], input);
    assert_eq!(
        out.status.code(),
        Some(1),
        "a bad line makes the exit code non-zero"
    );
    let rows: Vec<serde_json::Value> = text(&out.stdout)
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(rows.len(), 3, "the good lines still go through");
    assert_eq!(rows[0]["cards"], "8c 7d 6h 5s 4c 3d 2h");
    assert_eq!(rows[0]["high"]["category"], "straight");
    assert_eq!(rows[0]["high"]["ranks"], "8 7 6 5 4");
    assert_eq!(rows[0]["low8"]["low"], "6-5-4-3-2");
    assert_eq!(rows[1]["cards"], "Ah Ad 2c 3d 4h 5s 9c");
    assert_eq!(rows[1]["razz"]["low"], "5-4-3-2-A");
    assert_eq!(rows[1]["low8"], rows[1]["razz"]);
    assert_eq!(rows[2]["high"]["category"], "full house");
    assert!(rows[2]["low8"].is_null());
    // Strengths order hands: the full house beats both straights; the wheel is the best low.
    let high = |i: usize| rows[i]["high"]["strength"].as_u64().unwrap();
    assert!(high(2) > high(0) && high(0) > high(1));
    let razz = |i: usize| rows[i]["razz"]["strength"].as_u64().unwrap();
    assert!(razz(1) > razz(0) && razz(0) > razz(2));
    let err = text(&out.stderr);
    assert!(
        err.contains("line 3") && err.contains("\"Xq\" is not a card"),
        "{err}"
    );
    assert!(err.contains("line 4") && err.contains("4 cards"), "{err}");
    assert!(
        err.contains("line 6") && err.contains("2c appears twice"),
        "{err}"
    );
    assert_eq!(err.lines().count(), 3, "{err}");
}

#[test]
fn a_line_that_is_not_text_or_too_long_is_named_and_the_rest_evaluated() {
    let mut input = b"AsKsQsJsTs\n\xff\n8c7d6h5s4c\n".to_vec();
    input.extend(vec![b'x'; 5000]);
    input.extend(b"\n2c3c4c5c7d\r\n");
    let out = stud_bytes(&["hand", "-"], &input);
    assert_eq!(
        out.status.code(),
        Some(1),
        "a bad line makes the exit code non-zero"
    );
    let lines: Vec<String> = text(&out.stdout).lines().map(String::from).collect();
    assert_eq!(lines.len(), 3, "{lines:?}");
    assert!(
        lines[0].starts_with("As Ks Qs Js Ts: royal flush"),
        "{lines:?}"
    );
    assert!(
        lines[1].starts_with("8c 7d 6h 5s 4c: straight (8 7 6 5 4), high strength"),
        "{lines:?}"
    );
    assert!(
        lines[2].starts_with("2c 3c 4c 5c 7d: high card (7 5 4 3 2), high strength"),
        "{lines:?}"
    );
    let err = text(&out.stderr);
    assert!(err.contains("line 2: not UTF-8 text"), "{err}");
    assert!(err.contains("line 4: longer than 1024 bytes"), "{err}");
    assert_eq!(err.lines().count(), 2, "{err}");
}

#[test]
fn wrong_count_in_arguments_is_an_error() {
    let out = stud(
        &["hand", "As", "Ks", "Qs", "Js", "Ts", "2c", "3d", "4h"],
        "",
    );
    assert_eq!(out.status.code(), Some(1));
    assert!(out.stdout.is_empty());
    assert!(text(&out.stderr).contains("8 cards; a hand has 5 to 7"));
}

#[test]
fn help_shows_an_example() {
    let out = stud(&["hand", "--help"], "");
    assert!(out.status.success());
    assert!(text(&out.stdout).contains("stud hand As Ks Qs Js Ts 2c 3d"));
}
