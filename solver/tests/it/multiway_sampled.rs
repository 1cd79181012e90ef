//! Real stud at three seats end to end through the built binary: `stud solve --game 7stud-3p`
//! goes to the sampling solver, writes a multiway strategy file that `stud info` reads, `stud
//! match` plays and `stud query` answers with its player's own rows, ends byte-identical when
//! resumed or run on another number of threads, and refuses what it cannot solve.

use crate::common;

use abstraction::cards::Card;
use abstraction::rules::{Action, Deal, GameDef, Next, State};
use common::{err, ok, stud};
use serde_json::Value;
use solver::bot::MultiwayPlayer;
use solver::bot::{Bet, Player};
use solver::purify::Purification;
use std::path::PathBuf;

fn dir() -> PathBuf {
    let d = std::env::temp_dir().join(format!("stud-mw-sampled-{}", std::process::id()));
    std::fs::create_dir_all(&d).unwrap();
    d
}

/// Solves 7stud-3p at the `tiny` size into `name`; the final JSON line.
fn solve(name: &str, extra: &[&str]) -> (PathBuf, Value) {
    let out = dir().join(name);
    let mut args = vec!["--json", "--keep-checkpoint"];
    args.extend(extra);
    let stdout = ok(&solve_into(&out, &args));
    let last = stdout.lines().last().unwrap().to_string();
    (out, serde_json::from_str(&last).unwrap())
}

/// `stud solve` of 7stud-3p at the `tiny` size, batches of 12, into `out`, with `extra`.
fn solve_into(out: &std::path::Path, extra: &[&str]) -> std::process::Output {
    let abst = dir().join("abstractions");
    let mut args = vec![
        "solve",
        "--game",
        "7stud-3p",
        "--abstraction",
        "tiny",
        "--abstraction-dir",
        abst.to_str().unwrap(),
        "--batch",
        "12",
        "--out",
        out.to_str().unwrap(),
    ];
    args.extend(extra);
    stud(&args, "")
}

#[test]
#[ignore = "slow verification: scripts/test-slow runs it (CI does)"]
fn a_three_seat_solve_resumes_and_threads_to_the_same_bytes() {
    let (straight, v) = solve("straight.strat", &["--iterations", "4", "--threads", "2"]);
    assert_eq!(v["seats"], 3);
    assert_eq!(v["iterations"], 4);
    assert_eq!(v["traversals"], 48);
    assert!(
        v["solver"].as_str().unwrap().contains("MCCFR linear"),
        "{v}"
    );
    assert!(v["traversals_per_second"].as_f64().unwrap() > 0.0);
    assert!(v["infoset_actions"].as_u64().unwrap() > 100_000, "{v}");
    let (one, _) = solve("one.strat", &["--iterations", "4", "--threads", "1"]);
    let bytes = std::fs::read(&straight).unwrap();
    assert!(
        bytes == std::fs::read(&one).unwrap(),
        "1 and 2 threads differ"
    );
    solve("resumed.strat", &["--iterations", "2", "--threads", "2"]);
    let (resumed, v) = solve(
        "resumed.strat",
        &["--iterations", "4", "--threads", "2", "--resume"],
    );
    assert_eq!(v["iterations"], 4);
    assert!(bytes == std::fs::read(&resumed).unwrap(), "resumed differs");
    let info = ok(&stud(&["info", straight.to_str().unwrap(), "--json"], ""));
    let info: Value = serde_json::from_str(&info).unwrap();
    assert_eq!(info["kind"], "multiway");
    assert_eq!(info["seats"], 3);
    assert_eq!(info["iterations"], 4);
    assert_eq!(info["verified"], true);
    let text = ok(&stud(&["info", straight.to_str().unwrap()], ""));
    assert!(text.contains("external-sampling MCCFR"), "{text}");
}

/// `--json` prints a line per checkpoint counting traversals, not deals: each deal is walked
/// once per seat.
#[test]
fn a_three_seat_solves_checkpoint_lines_count_traversals() {
    let out = dir().join("timed.strat");
    let args = ["--json", "--time", "3s", "--checkpoint-every", "1"];
    let stdout = ok(&solve_into(&out, &args));
    let lines: Vec<Value> = stdout
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    let (last, checkpoints) = lines.split_last().unwrap();
    assert!(!checkpoints.is_empty(), "{stdout}");
    for c in checkpoints {
        let iterations = c["iterations"].as_u64().unwrap();
        assert_eq!(c["traversals"], iterations * 12, "{c}");
        assert!(c["traversals_per_second"].as_f64().unwrap() > 0.0, "{c}");
        assert!(c.get("deals").is_none(), "{c}");
    }
    assert!(last["traversals"].as_u64().unwrap() > 0, "{last}");
}

/// The file plays at a table wherever a player is named (`players::load`): a match against two
/// heuristic copies, its game read from the file, zero-sum over the rotated seats.
#[test]
fn a_three_seat_file_plays_a_match_at_its_table() {
    let (file, _) = solve("table.strat", &["--iterations", "2", "--threads", "2"]);
    let f = file.to_str().unwrap();
    let out = ok(&stud(
        &[
            "match",
            f,
            "heuristic",
            "heuristic",
            "--hands",
            "30",
            "--seed",
            "3",
            "--json",
        ],
        "",
    ));
    let v: Value = serde_json::from_str(out.lines().last().unwrap()).unwrap();
    assert_eq!(v["seats"], 3, "{v}");
    let players = v["players"].as_array().unwrap();
    assert_eq!(players.len(), 3, "{v}");
    let chips: i64 = players.iter().map(|p| p["chips"].as_i64().unwrap()).sum();
    assert_eq!(chips, 0, "{v}");
    // A file of another game is refused by name.
    let e = err(&stud(
        &["match", f, "heuristic", "heuristic", "--game", "razz-3p"],
        "",
    ));
    assert!(e.contains("table.strat"), "{e}");
    // How it is played is written after it, and names its seat.
    let spec = format!("{f}:threshold=0.15");
    let out = ok(&stud(
        &["match", &spec, "call", "call", "--hands", "5", "--json"],
        "",
    ));
    let v: Value = serde_json::from_str(out.lines().last().unwrap()).unwrap();
    assert!(v["players"]
        .as_array()
        .unwrap()
        .iter()
        .any(|p| p["player"] == spec.as_str()));
    let e = err(&stud(
        &["match", &format!("{f}:thresh=2"), "call", "call"],
        "",
    ));
    assert!(e.contains("not a way to play a strategy"), "{e}");
}

#[test]
fn what_the_sampling_solver_cannot_do_is_refused_by_name() {
    let abst = dir().join("abstractions");
    let base = |game: &'static str| {
        vec![
            "solve",
            "--game",
            game,
            "--abstraction",
            "tiny",
            "--abstraction-dir",
            abst.to_str().unwrap().to_string().leak(),
            "--iterations",
            "1",
        ]
    };
    // Eight seats of 7stud solve (a community card when the deck runs short), but the table
    // view's rollouts cannot deal every live seat's hand: refused, naming the view that can.
    let mut table = base("7stud-8p");
    table.extend(["--view", "table"]);
    let e = err(&stud(&table, ""));
    assert!(
        e.contains("--view table") && e.contains("53 cards") && e.contains("best-opponent"),
        "{e}"
    );
    for (flag, value, says) in [
        ("--recall", "order", "forgets earlier streets"),
        ("--target-exploitability", "0.1", "not computable"),
        ("--solver", "deal", "multiway solvers"),
    ] {
        let mut args = base("7stud-3p");
        args.extend([flag, value]);
        let e = err(&stud(&args, ""));
        assert!(e.contains(says), "{flag}: {e}");
    }
}

/// A `stud query` of `file` at `spot` (with `--hand`), as JSON.
fn query_json(file: &str, spot: &str, hand: Option<&str>) -> Value {
    let mut args = vec!["query", file, spot, "--json"];
    if let Some(h) = hand {
        args.extend(["--hand", h]);
    }
    serde_json::from_str(&ok(&stud(&args, ""))).unwrap()
}

/// `spot` (up cards and PHH actions, seat prefixes skipped) played on the rules engine with
/// `hand` the down cards of `seat`, the others' unknown: the state and its betting.
fn played(def: &GameDef, spot: &str, seat: u8, hand: &str) -> (State, Vec<Bet>) {
    let mut st = State::new(def).unwrap();
    let mut bets = Vec::new();
    let mut hand = hand.split(' ').map(|c| c.parse::<Card>().unwrap());
    let mut steps = spot
        .split(' ')
        .filter(|t| !(t.starts_with('p') && t[1..].parse::<u8>().is_ok()));
    loop {
        match st.next() {
            Next::Deal {
                deal: Deal::Down,
                seat: Some(s),
            } if s == seat => st.deal(hand.next().unwrap()).unwrap(),
            Next::Deal {
                deal: Deal::Down, ..
            } => st.deal_unknown().unwrap(),
            Next::Deal { .. } => st.deal(steps.next().unwrap().parse().unwrap()).unwrap(),
            Next::Act { .. } => {
                let Some(step) = steps.next() else { break };
                let a = match step {
                    "pb" => Action::BringIn,
                    "f" => Action::Fold,
                    "cc" => Action::CheckCall,
                    _ => panic!("{step}"),
                };
                bets.push((st.street(), a));
                st.apply(a).unwrap();
            }
            Next::Over => panic!("the hand is over"),
        }
    }
    (st, bets)
}

/// `stud query` on a three-seat file answers with the row its player plays: at a third-street
/// spot and on fourth street after a fold (two seats live), the row of a hand put on the real
/// actions is the mixed player's policy at the same state played through the rules engine; and
/// every bucket's rows hold the hand's bucket's.
#[test]
fn a_three_seat_query_is_the_players_own_row() {
    let (file, v) = solve(
        "query.strat",
        &[
            "--iterations",
            "3",
            "--threads",
            "2",
            "--view",
            "best-opponent",
        ],
    );
    assert_eq!(v["view"], "best-opponent", "{v}");
    query_is_the_players_own_row(file.to_str().unwrap());
}

/// The table view (the default): its own bucketings, solved, written, read back, asked and
/// played alike; a checkpoint of it resumes only as itself, and a heads-up game refuses it.
#[test]
fn a_table_view_solve_is_queried_as_it_plays_and_resumes_only_as_itself() {
    let (file, v) = solve("table-view.strat", &["--iterations", "3"]);
    assert_eq!(v["view"], "table", "{v}");
    assert!(
        v["abstraction"]
            .as_str()
            .unwrap()
            .contains("every live opponent"),
        "{v}"
    );
    let info = ok(&stud(&["info", file.to_str().unwrap()], ""));
    assert!(info.contains("every live opponent"), "{info}");
    for folded in ["0live1folded", "1live0folded"] {
        assert!(dir()
            .join(format!("abstractions/7stud-tiny-{folded}.bkt"))
            .exists());
    }
    query_is_the_players_own_row(file.to_str().unwrap());
    let e = err(&solve_into(
        &file,
        &["--iterations", "4", "--view", "best-opponent", "--resume"],
    ));
    assert!(e.contains("abstraction"), "{e}");
    let e = err(&stud(
        &[
            "solve",
            "--game",
            "7stud",
            "--view",
            "table",
            "--iterations",
            "1",
        ],
        "",
    ));
    assert!(e.contains("--view") && e.contains("heads-up"), "{e}");
}

/// Recalling betting positions within a street: fewer rows (the 1.8 of three seats), recorded
/// in the file (read back by `stud info` and played and queried as it solves), a checkpoint
/// resumed only as itself, and heads-up refused.
#[test]
fn a_solve_recalling_betting_positions_shares_rows_and_resumes_only_as_itself() {
    let (history, h) = solve("history.strat", &["--iterations", "2"]);
    let (file, v) = solve(
        "position.strat",
        &["--iterations", "3", "--within-street", "position"],
    );
    assert_eq!(h["within_street"], "history", "{h}");
    assert_eq!(v["within_street"], "position", "{v}");
    let (rows, all) = (
        v["infoset_actions"].as_u64().unwrap(),
        h["infoset_actions"].as_u64().unwrap(),
    );
    assert!(
        rows * 17 < all * 10 && rows * 19 > all * 10,
        "{rows} of {all}"
    );
    for (f, within) in [(&history, "history"), (&file, "position")] {
        let info = ok(&stud(&["info", f.to_str().unwrap(), "--json"], ""));
        let info: Value = serde_json::from_str(&info).unwrap();
        assert_eq!(info["within_street"], within, "{info}");
    }
    query_is_the_players_own_row(file.to_str().unwrap());
    let resume = |within: &str| {
        let args = ["--iterations", "4", "--within-street", within];
        solve_into(
            &file,
            &[&args[..], &["--resume", "--keep-checkpoint"]].concat(),
        )
    };
    let e = err(&resume("history"));
    assert!(e.contains("abstraction"), "{e}");
    ok(&resume("position"));
    let e = err(&stud(
        &["solve", "--game", "razz", "--within-street", "position"],
        "",
    ));
    assert!(
        e.contains("--within-street") && e.contains("heads-up"),
        "{e}"
    );
    let e = err(&stud(
        &["solve", "--game", "7stud-3p", "--within-street", "some"],
        "",
    ));
    assert!(e.contains("history, position"), "{e}");
}

/// `--strategy current` writes the current strategy instead of the average; only the file
/// depends on it, so a resume may choose either, and choosing the average again gives the
/// same bytes.
#[test]
fn a_solve_plays_its_current_strategy_when_asked_and_a_resume_may_choose_again() {
    let (file, v) = solve("played.strat", &["--iterations", "3"]);
    assert_eq!(v["strategy"], "average", "{v}");
    let average = std::fs::read(&file).unwrap();
    let (_, v) = solve(
        "played.strat",
        &["--iterations", "3", "--resume", "--strategy", "current"],
    );
    assert_eq!(v["strategy"], "current", "{v}");
    assert_eq!(v["iterations"], 3, "{v}");
    let current = std::fs::read(&file).unwrap();
    assert!(current != average, "the current strategy is another");
    let info = ok(&stud(&["info", file.to_str().unwrap()], ""));
    assert!(info.contains("its current strategy played"), "{info}");
    solve("played.strat", &["--iterations", "3", "--resume"]);
    assert!(
        std::fs::read(&file).unwrap() == average,
        "the average again"
    );
    let e = err(&stud(
        &["solve", "--game", "razz", "--strategy", "current"],
        "",
    ));
    assert!(e.contains("--strategy") && e.contains("heads-up"), "{e}");
    let e = err(&stud(
        &["solve", "--game", "7stud-3p", "--strategy", "last"],
        "",
    ));
    assert!(e.contains("average, current"), "{e}");
}

/// `--rows 4bit` writes half a byte a probability; only the file depends on it (a resume may
/// choose again), `stud info` says which, `stud query` answers the player's own row, and `stud
/// convert` re-encodes either way: to 8 bits again the same bytes as the 8-bit solve's file,
/// to 4 bits the 4-bit rows of those bytes, each row within 1/14 of the 8-bit one.
#[test]
fn a_four_bit_file_is_written_queried_and_converted() {
    let (file, _) = solve("rows8.strat", &["--iterations", "3"]);
    let eight = std::fs::read(&file).unwrap();
    let (file4, _) = solve(
        "rows8.strat",
        &["--iterations", "3", "--resume", "--rows", "4bit"],
    );
    let four = std::fs::read(&file4).unwrap();
    assert!(
        four.len() < eight.len() * 6 / 10,
        "{} against {}",
        four.len(),
        eight.len()
    );
    let f4 = file4.to_str().unwrap();
    let info = ok(&stud(&["info", f4], ""));
    assert!(info.contains("4 bits each (4bit"), "{info}");
    let v: Value = serde_json::from_str(&ok(&stud(&["info", f4, "--json"], ""))).unwrap();
    assert_eq!(v["rows"]["encoding"], "4bit", "{v}");
    assert_eq!(v["rows"]["bits"], 4, "{v}");
    query_is_the_players_own_row(f4);
    // Back to 8 bits from the resumed solve: the first file's bytes.
    solve("rows8.strat", &["--iterations", "3", "--resume"]);
    assert!(std::fs::read(&file).unwrap() == eight, "8 bits again");
    let again = dir().join("rows8-again.strat");
    let v: Value = serde_json::from_str(&ok(&stud(
        &[
            "convert",
            file.to_str().unwrap(),
            "--rows",
            "8bit",
            "--out",
            again.to_str().unwrap(),
            "--json",
        ],
        "",
    )))
    .unwrap();
    assert_eq!(v["largest_difference"], 0.0, "{v}");
    assert!(
        std::fs::read(&again).unwrap() == eight,
        "converted to 8 bits"
    );
    let converted = dir().join("rows4-converted.strat");
    let text = ok(&stud(
        &[
            "convert",
            file.to_str().unwrap(),
            "--rows",
            "4bit",
            "--out",
            converted.to_str().unwrap(),
        ],
        "",
    ));
    assert!(text.contains("(8bit,") && text.contains("(4bit,"), "{text}");
    let difference: f64 = text
        .lines()
        .last()
        .and_then(|l| l.rsplit(' ').next())
        .unwrap()
        .parse()
        .unwrap();
    assert!(difference > 0.0 && difference < 1.0 / 14.0, "{text}");
    assert_eq!(std::fs::read(&converted).unwrap().len(), four.len());
    let e = err(&stud(&["convert", f4, "--rows", "4bit", "--out", f4], ""));
    assert!(e.contains("the file read"), "{e}");
    let heads_up = concat!(env!("CARGO_MANIFEST_DIR"), "/../strategies/5stud-hu.strat");
    let out = dir().join("x.strat");
    let out = out.to_str().unwrap();
    let e = err(&stud(
        &["convert", heads_up, "--rows", "4bit", "--out", out],
        "",
    ));
    assert!(e.contains("heads-up"), "{e}");
    let e = err(&stud(&["solve", "--game", "razz", "--rows", "4bit"], ""));
    assert!(e.contains("--rows") && e.contains("heads-up"), "{e}");
    let e = err(&stud(&["convert", f4, "--rows", "2bit", "--out", out], ""));
    assert!(e.contains("4bit"), "{e}");
}

/// At a three-seat spot on 3rd and 4th street (a seat folded), `stud query` on the file `f`
/// gives the row its `MultiwayPlayer` plays (as stored: a row the short solve never reached
/// is the query's `unreached` uniform row, which the default player leaves to the
/// hand-strength bot).
fn query_is_the_players_own_row(f: &str) {
    let player = MultiwayPlayer::open(f)
        .unwrap()
        .with_purification(Purification::Mixed)
        .rows_as_stored();
    let cases = [
        (
            "3c 8d Kh pb",
            "As Ad",
            1u8,
            2u8,
            &[0u8, 1, 2][..],
            "3rd street",
        ),
        (
            "p1 3c p2 8d p3 Kh p1 pb p2 f p3 cc 9h Ts",
            "Qd Qc",
            2,
            0,
            &[0, 2],
            "4th street",
        ),
    ];
    for (spot, hand, seat, against, live, street) in cases {
        let q = query_json(f, spot, Some(hand));
        assert_eq!(q["seats"], 3, "{q}");
        assert_eq!(q["seat"], seat, "{q}");
        assert_eq!(q["against"], against, "{q}");
        assert_eq!(q["live"], serde_json::json!(live), "{q}");
        assert_eq!(q["street_name"], street, "{q}");
        let (state, bets) = played(player.game(), spot, seat, hand);
        assert_eq!(state.to_act(), Some(seat));
        let legal = state.legal_actions();
        let mut want = vec![0.0; legal.len()];
        player
            .policy(&state, &bets, seat, &legal, &mut want)
            .unwrap();
        let mut got = vec![0.0; legal.len()];
        let row = q["hands"][0]["probabilities"].as_array().unwrap();
        for (code, p) in q["actions"].as_array().unwrap().iter().zip(row) {
            let i = legal
                .iter()
                .position(|a| a.to_string().replace(' ', "") == code.as_str().unwrap())
                .unwrap_or_else(|| panic!("{code} is not legal: {legal:?}"));
            got[i] += p.as_f64().unwrap();
        }
        let sum: f64 = got.iter().sum();
        for (g, w) in got.iter().zip(&want) {
            assert!((g / sum - w).abs() < 1e-12, "{spot}: {got:?} vs {want:?}");
        }
        let b = q["hands"][0]["bucket"].as_u64().unwrap() as usize;
        let all = query_json(f, spot, None);
        assert_eq!(
            all["hands"][b]["probabilities"],
            q["hands"][0]["probabilities"]
        );
        assert!(all["hands"][b]["holdings"].as_u64().unwrap() > 0, "{all}");
        assert_eq!(all["hands"].as_array().unwrap().len(), 8, "tiny: 8 buckets");
    }
    // The text names the street, the seat, the live seats and the opponent measured against.
    let text = ok(&stud(&["query", f, cases[1].0], ""));
    for says in [
        "p3 to act on 4th street",
        "2 seats live",
        "p2 8d, folded",
        "against p1",
    ] {
        assert!(text.contains(says), "{says}: {text}");
    }
}

/// What a three-seat spot cannot be is refused, naming the step and why.
#[test]
fn a_three_seat_query_refuses_what_is_not_a_spot() {
    let (file, _) = solve("query-errors.strat", &["--iterations", "1"]);
    let f = file.to_str().unwrap();
    let fails = |spot: &str, extra: &[&str]| {
        let mut args = vec!["query", f, spot];
        args.extend(extra);
        err(&stud(&args, ""))
    };
    for (spot, extra, says) in [
        ("3c 8d Kh pb pb", &[][..], "step 5 (pb): p2 cannot pb"),
        ("3c 8d Kh p2 pb", &[], "written for p2, but p1's action"),
        ("3c 8d", &[], "before p3's up card on 3rd street"),
        ("3c 8d Kh pb f f", &[], "the hand is over"),
        (
            "3c 8d Kh pb f cc 9h Ts 2d",
            &[],
            "step 9 (2d): on 4th street a betting action",
        ),
        ("3c 8d Kh pb", &["--hand", "Kh Ad"], "already dealt face up"),
        (
            "3c 8d Kh pb",
            &["--hand", "(As Ad) 9d"],
            "not the ones the spot dealt p2",
        ),
        ("", &["--hand", "As Ad"], "give the door cards"),
    ] {
        let e = fails(spot, extra);
        assert!(e.contains(says), "{spot} {extra:?}: {e}");
    }
}

#[test]
fn a_tremble_is_recorded_in_the_file_and_refused_heads_up() {
    let (file, v) = solve("tremble.strat", &["--iterations", "2", "--tremble", "0.1"]);
    assert!((v["tremble"].as_f64().unwrap() - 0.1).abs() < 1e-6, "{v}");
    let info = ok(&stud(&["info", file.to_str().unwrap()], ""));
    assert!(info.contains("tremble 0.1"), "{info}");
    let e = err(&stud(
        &[
            "solve",
            "--game",
            "7stud",
            "--tremble",
            "0.1",
            "--iterations",
            "1",
        ],
        "",
    ));
    assert!(e.contains("--tremble") && e.contains("heads-up"), "{e}");
    let e = err(&stud(
        &[
            "solve",
            "--game",
            "7stud-3p",
            "--tremble",
            "1.5",
            "--iterations",
            "1",
        ],
        "",
    ));
    assert!(e.contains("below 1"), "{e}");
}
