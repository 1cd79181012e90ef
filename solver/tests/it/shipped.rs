//! The shipped strategies (`strategies/*-hu.strat`, the three- to eight-handed
//! `7stud-3p.strat`, `7stud-4p.strat`, `7stud-5p.strat`, `7stud-6p.strat` and `7stud-8p.strat`,
//! `razz-5p.strat` and `stud8-5p.strat`): each
//! is there, within the size a shipped file may take, opens, is checksummed intact, and answers a
//! spot on every street of its game through the built binary.

use crate::common;

use common::{ok, stud};
use serde_json::Value;
use std::path::PathBuf;

/// The shipped files: game, file name, down cards to ask about, streets.
const SHIPPED: [(&str, &str, [&str; 2], usize); 4] = [
    ("7stud", "7stud-hu.strat", ["As Kd", "As Kd 7c"], 5),
    ("stud8", "stud8-hu.strat", ["As 2d", "As 2d 7c"], 5),
    ("razz", "razz-hu.strat", ["As 2d", "As 2d 7c"], 5),
    ("5stud", "5stud-hu.strat", ["As", "As"], 4),
];

/// The betting to each street: whoever brings in posts it and the other calls, then checks, a
/// bet and a call, whichever seat acts first (the same strings are legal in every variant).
const SPOTS: [&str; 5] = [
    "3c 8d pb",
    "3c 8d pb cc 9h Ts",
    "3c 8d pb cc 9h Ts cc b c 2c Jd",
    "3c 8d pb cc 9h Ts cc b c 2c Jd x x 4h 5h",
    "3c 8d pb cc 9h Ts cc b c 2c Jd x x 4h 5h x x",
];

fn path(file: &str) -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("../strategies")
        .join(file)
}

/// The shipped `file`'s path and `stud info --verify`'s JSON of it, once its size is checked
/// against the `max_mib` a shipped file of its kind may take.
fn verified(file: &str, max_mib: u64) -> (String, Value) {
    let p = path(file);
    let bytes = std::fs::metadata(&p)
        .unwrap_or_else(|e| panic!("{}: {e}", p.display()))
        .len();
    assert!(
        bytes <= max_mib << 20,
        "{file}: {bytes} bytes, over {max_mib} MiB"
    );
    let p = p.to_str().unwrap().to_string();
    let info = stud_json(&["info", &p, "--json", "--verify"]);
    (p, info)
}

/// The JSON `stud` prints for a run that must succeed.
fn stud_json(args: &[&str]) -> Value {
    serde_json::from_str(&ok(&stud(args, ""))).expect("one JSON object")
}

#[test]
fn every_shipped_strategy_fits_opens_and_answers_every_street() {
    for (game, file, hands, streets) in SHIPPED {
        let (p, info) = verified(file, 64);
        let p = p.as_str();
        assert_eq!(info["game"]["variant"], game, "{file}: {info}");
        for (street, spot) in SPOTS.iter().take(streets).enumerate() {
            // Seventh street deals a third down card.
            let hand = hands[usize::from(street == 4)];
            let v = stud_json(&["query", p, spot, "--hand", hand, "--json"]);
            assert_eq!(v["street"], street, "{file} {spot}: {v}");
            let row = v["hands"][0]["probabilities"].as_array().unwrap();
            assert_eq!(row.len(), v["actions"].as_array().unwrap().len());
            let sum: f64 = row.iter().map(|x| x.as_f64().unwrap()).sum();
            assert!((sum - 1.0).abs() < 1e-9, "{file} {spot}: {v}");
        }
    }
}

/// The up cards each seat is dealt on third to sixth street at a table (seat `i` gets the
/// `i`-th of each street's list; none is As, Ad, 7d or the community card).
const TABLE_UP_CARDS: [[&str; 8]; 4] = [
    ["3c", "8d", "Kh", "4s", "7h", "9c", "Td", "Js"],
    ["9h", "Ts", "2c", "6d", "Qc", "Jh", "5c", "Ks"],
    ["Jd", "4h", "5s", "3d", "Kc", "Tc", "2d", "Qh"],
    ["6h", "7c", "8s", "9d", "2h", "5d", "Qs", "4c"],
];

/// Seventh street's card, dealt face up to every seat when eight live seats would need 56
/// cards of the 52 (the card room's rule).
const COMMUNITY_CARD: &str = "3h";

/// Whether a table of `seats` live to seventh street is dealt the community card there.
fn deck_runs_short(seats: usize) -> bool {
    seats * 7 > 52
}

/// The first street's deals of a table of `seats` as a JSON list's items (PHH actions): each
/// seat's door is `TABLE_UP_CARDS[0]`'s, its down cards unknown but `known`'s, which are `hand`.
fn table_deals(seats: usize, known: usize, hand: &str) -> String {
    let deal = |(s, door): (usize, &&str)| {
        let hole = if s == known { hand } else { "????" };
        format!("\"d dh p{} {hole}{door}\"", s + 1)
    };
    let deals: Vec<String> = TABLE_UP_CARDS[0][..seats]
        .iter()
        .enumerate()
        .map(deal)
        .collect();
    deals.join(",")
}

/// The betting to each street of a table of `seats`: the 3c's bring-in, every other seat
/// calls, then checks around (every seat live on every street; seventh street's spot ends with
/// the community card where the deck runs short).
fn table_spots(seats: usize) -> Vec<String> {
    let up = |street: usize| TABLE_UP_CARDS[street][..seats].join(" ");
    let checks = vec!["x"; seats].join(" ");
    let mut spot = format!("{} pb", up(0));
    let mut spots = vec![spot.clone()];
    spot += &" cc".repeat(seats - 1);
    for street in 1..4 {
        spot = format!("{spot} {}", up(street));
        spots.push(spot.clone());
        spot = format!("{spot} {checks}");
    }
    if deck_runs_short(seats) {
        spot = format!("{spot} {COMMUNITY_CARD}");
    }
    spots.push(spot);
    spots
}

/// A shipped multiway file of `variant` at `seats` seats answers a spot on every street
/// ([`table_spots`]: its rows as stored) and, played as its README says (`play`: a spec suffix),
/// plays a zero-sum table against heuristic bots; served, the seat of the door card that brings
/// in (`brings_in`) is the first asked.
fn multiway_file_answers_and_plays(
    file: &str,
    seats: u64,
    play: &str,
    variant: &str,
    brings_in: u64,
) {
    let spots = table_spots(seats as usize);
    let (p, info) = verified(file, 64);
    let p = p.as_str();
    assert_eq!(info["kind"], "multiway", "{file}: {info}");
    assert_eq!(info["seats"], seats, "{file}: {info}");
    assert_eq!(info["game"]["variant"], variant, "{file}: {info}");
    // The table view (a bucketing per number of live seats) where the deck deals its rollouts;
    // at eight seats of the seven-card games it cannot, and the best showing opponent's is used.
    let view = if deck_runs_short(seats as usize) {
        "against the best showing live opponent"
    } else {
        "against every live opponent"
    };
    let cards = info["card_abstraction"].as_str().unwrap();
    assert!(cards.contains(view), "{file}: {info}");
    for (street, spot) in spots.iter().enumerate() {
        // Seventh street deals a third down card, or the community card to every seat.
        let hand = if street == 4 && !deck_runs_short(seats as usize) {
            "As Ad 7d"
        } else {
            "As Ad"
        };
        let v = stud_json(&["query", p, spot, "--hand", hand, "--json"]);
        assert_eq!(v["street"], street, "{file} {spot}: {v}");
        assert_eq!(
            v["live"].as_array().unwrap().len() as u64,
            seats,
            "{spot}: {v}"
        );
        let row = v["hands"][0]["probabilities"].as_array().unwrap();
        assert_eq!(row.len(), v["actions"].as_array().unwrap().len());
        let sum: f64 = row.iter().map(|x| x.as_f64().unwrap()).sum();
        assert!((sum - 1.0).abs() < 1e-9, "{file} {spot}: {v}");
    }
    // Served without --game, for the table it records: the lowest door brings in (p1's 3c), in
    // razz the highest (p3's Kh).
    let deals = table_deals(seats as usize, brings_in as usize, "AsAd");
    let request = format!("{{\"id\":1,\"actions\":[{deals}]}}\n");
    let served = ok(&stud(&["serve", &format!("{p}{play}")], &request));
    let v = served_reply(file, &served);
    assert_eq!(v["seat"], brings_in, "{file}: {v}");
    // Its game is read from the file: a table of it against heuristic bots, zero-sum.
    let played = format!("{p}{play}");
    let mut args = vec!["match", played.as_str()];
    args.extend(std::iter::repeat_n("heuristic", seats as usize - 1));
    args.extend(["--hands", "20", "--json"]);
    let m = stud_json(&args);
    assert_eq!(m["seats"], seats, "{file}: {m}");
    let chips: i64 = m["by_player"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| r["chips"].as_i64().unwrap())
        .sum();
    assert_eq!(chips, 0, "{file}: {m}");
}

#[test]
fn the_shipped_three_handed_strategy_answers_every_street_and_plays_a_table() {
    multiway_file_answers_and_plays("7stud-3p.strat", 3, "", "7stud", 0);
}

#[test]
fn the_shipped_four_handed_strategy_played_pure_answers_every_street_and_plays_a_table() {
    multiway_file_answers_and_plays("7stud-4p.strat", 4, ":pure", "7stud", 0);
}

#[test]
fn the_shipped_five_handed_strategy_played_pure_answers_every_street_and_plays_a_table() {
    multiway_file_answers_and_plays("7stud-5p.strat", 5, ":pure", "7stud", 0);
}

#[test]
fn the_shipped_five_handed_razz_strategy_played_pure_answers_every_street_and_plays_a_table() {
    multiway_file_answers_and_plays("razz-5p.strat", 5, ":pure", "razz", 2);
}

#[test]
fn the_shipped_five_handed_stud_hi_lo_strategy_played_pure_answers_every_street_and_plays_a_table()
{
    multiway_file_answers_and_plays("stud8-5p.strat", 5, ":pure", "stud8", 0);
}

#[test]
fn the_shipped_six_handed_strategy_played_pure_answers_every_street_and_plays_a_table() {
    multiway_file_answers_and_plays("7stud-6p.strat", 6, ":pure", "7stud", 0);
}

#[test]
fn the_shipped_eight_handed_strategy_played_pure_answers_every_street_and_plays_a_table() {
    multiway_file_answers_and_plays("7stud-8p.strat", 8, ":pure", "7stud", 0);
}

#[test]
fn the_game_is_read_from_the_strategy_file() {
    let razz = path("razz-hu.strat");
    let razz = razz.to_str().unwrap();
    let seven = path("7stud-hu.strat");
    let seven = seven.to_str().unwrap();
    // match, eval lbr and play without --game play the file's game.
    let m = stud_json(&["match", razz, "call", "--hands", "4", "--json"]);
    assert_eq!(m["game"], "razz", "{m}");
    let l = stud_json(&["eval", "lbr", razz, "--hands", "2", "--json"]);
    assert_eq!(l["game"], "razz", "{l}");
    let p = ok(&stud(&["play", razz, "--hands", "1"], "q\n"));
    assert!(p.contains("=== hand 1"), "{p}");
    // --game may repeat the file's game, not contradict it: the error names both and what
    // differs.
    assert_eq!(
        stud_json(&["match", razz, "call", "--hands", "4", "--json", "--game", "razz"])["game"],
        "razz"
    );
    for args in [
        vec!["match", razz, "call", "--hands", "4", "--game", "7stud"],
        vec!["eval", "lbr", razz, "--hands", "2", "--game", "7stud"],
        vec!["report", razz, "--game", "7stud", "--out", "/nonexistent"],
    ] {
        let e = common::err(&stud(&args, ""));
        assert!(
            e.contains("--game 7stud is not the game") && e.contains("\"razz\""),
            "{args:?}: {e}"
        );
    }
    let e = common::err(&stud(&["match", razz, seven, "--hands", "4"], ""));
    assert!(e.contains("solved for different games"), "{e}");
}

#[test]
fn a_pokerkit_dealer_is_served_by_every_shipped_strategy() {
    // PokerKit's rules only take betting options away heads-up with deep stacks: the files
    // solved under the card room's play them (docs/protocol.md).
    for (game, file, ..) in SHIPPED {
        // The door cards 3c and 8d: the 3c brings in, in razz the 8d; seats 0-based in JSON.
        let (hole, mine) = if game == "5stud" {
            ("??", "As")
        } else {
            ("????", "AsKs")
        };
        let seat = u8::from(game == "razz");
        let req = format!(
            r#"{{"id":1,"seat":{seat},"actions":["d dh p1 {}3c","d dh p2 {}8d"]}}"#,
            if seat == 0 { mine } else { hole },
            if seat == 1 { mine } else { hole },
        );
        let p = path(file);
        let p = p.to_str().unwrap();
        let out = ok(&stud(
            &["serve", p, "--game", game, "--rules", "pokerkit"],
            &format!("{req}\n"),
        ));
        served_reply(file, &out);
    }
}

#[test]
fn a_pokerkit_dealer_is_served_by_every_shipped_table_file() {
    // At three to six seats with deep stacks PokerKit's rules take betting options away and
    // never reshuffle: the table files solved under the card room's play them too.
    // The seat whose door brings in: p1's 3c, in razz p3's Kh; its hand known, the others'
    // down cards not.
    for (file, seats, brings_in) in [
        ("7stud-3p.strat", 3, 0),
        ("7stud-4p.strat", 4, 0),
        ("7stud-5p.strat", 5, 0),
        ("razz-5p.strat", 5, 2),
        ("stud8-5p.strat", 5, 0),
        ("7stud-6p.strat", 6, 0),
    ] {
        let deals = table_deals(seats, brings_in, "AsKs");
        let req = format!(r#"{{"id":1,"seat":{brings_in},"actions":[{deals}]}}"#);
        let p = path(file);
        let p = p.to_str().unwrap();
        let out = ok(&stud(
            &["serve", p, "--rules", "pokerkit"],
            &format!("{req}\n"),
        ));
        served_reply(file, &out);
        // Another table is another game, under either rules.
        let other = if seats == 6 { "7stud-5p" } else { "7stud-6p" };
        let e = common::err(&stud(
            &["serve", p, "--rules", "pokerkit", "--game", other],
            &format!("{req}\n"),
        ));
        assert!(e.contains("another game"), "{file}: {e}");
    }
    // Eight seats run the deck short, where PokerKit reshuffles the burns and the folded seats'
    // seen cards and the card room deals a community card: refused, naming why.
    let deals = table_deals(8, 0, "AsKs");
    let req = format!(r#"{{"id":1,"seat":0,"actions":[{deals}]}}"#);
    let p = path("7stud-8p.strat");
    let e = common::err(&stud(
        &["serve", p.to_str().unwrap(), "--rules", "pokerkit"],
        &format!("{req}\n"),
    ));
    assert!(
        e.contains("card-room rules") && e.contains("without a reshuffle"),
        "{e}"
    );
}

/// The first reply `stud serve` gave for `file`, checked to be a decision whose probabilities
/// sum to 1.
fn served_reply(file: &str, out: &str) -> Value {
    let v: Value = serde_json::from_str(out.lines().next().unwrap()).unwrap();
    let sum: f64 = v["probs"]
        .as_array()
        .unwrap_or_else(|| panic!("{file}: {v}"))
        .iter()
        .map(|x| x.as_f64().unwrap())
        .sum();
    assert!((sum - 1.0).abs() < 1e-9, "{file}: {v}");
    v
}
