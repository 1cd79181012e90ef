use super::*;
use crate::cards::parse_cards;
use proptest::prelude::*;

/// f7s/0.phh of the PokerKit test data, as PokerKit wrote it.
const POKERKIT: &str = "variant = 'F7S'
ante_trimming_status = false
antes = [1, 1, 1]
bring_in = 2
small_bet = 5
big_bet = 10
starting_stacks = [1000, 1000, 1000]
actions = ['d dh p1 8s5c7d', 'd dh p2 5sJs8h', 'd dh p3 KsKdAs', 'p1 pb', 'p2 cbr 5', 'p3 f', 'p1 cc', 'd dh p1 Th', 'd dh p2 Kc', 'p2 cbr 5', 'p1 f']
hand = 0
";

fn card(s: &str) -> PhhCard {
    Some(parse_cards(s).unwrap()[0])
}

#[test]
fn reads_what_pokerkit_writes() {
    let h = HandHistory::parse(POKERKIT).unwrap();
    assert_eq!(h.variant, Variant::SevenStud);
    assert_eq!(h.antes, vec![1, 1, 1]);
    assert_eq!((h.bring_in, h.small_bet, h.big_bet), (2, 5, 10));
    assert_eq!(h.starting_stacks, vec![1000; 3]);
    assert_eq!(h.actions.len(), 11);
    assert_eq!(
        h.actions[0].action,
        PhhAction::DealHole {
            seat: 0,
            cards: vec![card("8s"), card("5c"), card("7d")]
        }
    );
    assert_eq!(
        h.actions[4].action,
        PhhAction::Bet {
            seat: 1,
            action: Action::CompleteBetRaise(5)
        }
    );
    assert!(h.actions.iter().all(|a| a.line == 8));
    assert_eq!(h.field("hand"), Some(&Value::Integer(0)));
    assert_eq!(
        h.field("ante_trimming_status"),
        Some(&Value::Boolean(false))
    );
    let def = h.game_def(Profile::PokerKit).unwrap();
    assert_eq!(def.seats, 3);
    assert_eq!((def.ante, def.bring_in, def.small_bet), (1, 2, 5));
}

#[test]
fn writes_back_what_it_reads() {
    let text = "# a hand
variant = \"F7S/8\"
antes = [1.0, 1.0]
bring_in = 2
small_bet = 5
big_bet = 10
starting_stacks = [100, 50]
author = 'Someone'
actions = [
  'd dh p1 ????7h',   # PokerKit-style third street
  'd dh p2 As Kd',
  '# a bare commentary',
  '',
  'p1 pb # brings in',
  'p2 cbr 5',
  \"p1 cc # it's a call\",
  'p1 sm -',
  'p2 sm',
]
players = ['Alice', 'Bob']
_private = { note = 1 }
hand = 'a-1'
";
    let err = HandHistory::parse(text).unwrap_err();
    // `As Kd` has a space inside the cards: not PHH.
    assert_eq!(err.line, 11, "{err}");
    let text = text.replace("As Kd", "AsKdQc");
    let h = HandHistory::parse(&text).unwrap();
    assert_eq!(h.variant, Variant::StudHiLo);
    assert_eq!(h.antes, vec![1, 1]);
    assert_eq!(
        h.actions[0].action,
        PhhAction::DealHole {
            seat: 0,
            cards: vec![None, None, card("7h")]
        }
    );
    assert_eq!(h.actions[0].line, 10);
    assert_eq!(h.actions[2].action, PhhAction::Noop);
    assert_eq!(
        h.actions[2].commentary.as_deref(),
        Some("a bare commentary")
    );
    assert_eq!(h.actions[4].commentary.as_deref(), Some("brings in"));
    assert_eq!(h.actions[6].commentary.as_deref(), Some("it's a call"));
    assert_eq!(h.actions[6].line, 16);
    let fields: Vec<&str> = h.fields.iter().map(|(k, _)| k.as_str()).collect();
    assert_eq!(fields, ["author", "players", "_private", "hand"]);
    let written = h.to_string();
    let again = HandHistory::parse(&written).unwrap();
    assert_eq!(again.to_string(), written);
    let strip = |h: &HandHistory| -> Vec<(PhhAction, Option<String>)> {
        h.actions
            .iter()
            .map(|a| (a.action.clone(), a.commentary.clone()))
            .collect()
    };
    assert_eq!(strip(&again), strip(&h));
    assert_eq!(again.fields, h.fields);
}

/// Every hand PokerKit wrote reads, and writes back to text that reads to the same hand.
#[test]
fn reads_and_rewrites_every_pokerkit_hand() {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../testdata/pokerkit");
    let mut n = 0;
    for sub in ["f7s", "f7s8", "fr", "f7s_shortstack"] {
        let entries = std::fs::read_dir(dir.join(sub))
            .unwrap_or_else(|e| panic!("{}: {e}", dir.join(sub).display()));
        for e in entries {
            let path = e.unwrap().path();
            if path.extension().and_then(|x| x.to_str()) != Some("phh") {
                continue;
            }
            let text = std::fs::read_to_string(&path).unwrap();
            let h = HandHistory::parse(&text).unwrap_or_else(|e| panic!("{path:?}: {e}"));
            let again = HandHistory::parse(&h.to_string()).unwrap();
            assert_eq!(again.to_string(), h.to_string(), "{path:?}");
            n += 1;
        }
    }
    // The hands are in the repository: all 240 must read.
    assert_eq!(n, 240);
}

fn error_of(text: &str) -> PhhError {
    HandHistory::parse(text).unwrap_err()
}

#[test]
fn errors_name_the_line_and_the_text() {
    let base = POKERKIT;
    let e = error_of(&base.replace("hand = 0", "hand = 0\nfoo = 1"));
    assert_eq!((e.line, e.text.as_str()), (10, "foo"), "{e}");
    assert!(e.reason.contains("unknown field"), "{e}");

    let e = error_of(&base.replace("'p3 f'", "'p3 x'"));
    assert_eq!((e.line, e.text.as_str()), (8, "p3 x"), "{e}");

    let e = error_of(&base.replace("'p3 f'", "'p4 f'"));
    assert!(e.reason.contains("no player p4"), "{e}");

    let e = error_of(&base.replace("KsKdAs", "KsKdA"));
    assert_eq!(e.text, "d dh p3 KsKdA", "{e}");

    let e = error_of(&base.replace("KsKdAs", "KsKdAx"));
    assert!(e.reason.contains("suit"), "{e}");

    let e = error_of(&base.replace("'p1 f'", "'p1 cbr 2.5'"));
    assert!(e.reason.contains("whole number"), "{e}");

    let e = error_of(&base.replace("'p1 f'", "'p1 sd'"));
    assert!(e.reason.contains("not a stud action"), "{e}");

    let e = error_of(&base.replace("F7S", "NT"));
    assert_eq!((e.line, e.text.as_str()), (1, "NT"), "{e}");

    let e = error_of(&base.replace("antes = [1, 1, 1]", "antes = [1, 0, 1]"));
    assert_eq!((e.line, e.text.as_str()), (3, "antes"), "{e}");

    let e = error_of(&base.replace("antes = [1, 1, 1]", "antes = [1, 1]"));
    assert!(e.reason.contains("2 antes for 3 players"), "{e}");

    let e = error_of(&base.replace("bring_in = 2", "blinds_or_straddles = [1, 2, 0]"));
    assert_eq!(e.text, "blinds_or_straddles", "{e}");

    let e = error_of(&base.replace("bring_in = 2\n", ""));
    assert!(e.text == "bring_in" && e.reason.contains("missing"), "{e}");

    let e = error_of(&base.replace("[1000, 1000, 1000]", "[1000, inf, 1000]"));
    assert!(e.reason.contains("whole number"), "{e}");

    let e = error_of(&base.replace("hand = 0", "players = ['a', 'b']"));
    assert!(e.reason.contains("one per player"), "{e}");

    let e = error_of(&base.replace("hand = 0", "hand = 0\nhand = 1"));
    assert_eq!(e.line, 10, "{e}");
    assert!(e.reason.contains("TOML"), "{e}");

    let e = error_of(&base.replace("actions = [", "actions = [1, "));
    assert!(e.reason.contains("array of strings"), "{e}");

    // As many players as written, not the 255 a `u8` seat count would cut them to.
    for n in [1, 9, 258, 1000] {
        let text = base
            .replace("[1, 1, 1]", &format!("[{}]", vec!["1"; n].join(", ")))
            .replace(
                "[1000, 1000, 1000]",
                &format!("[{}]", vec!["9"; n].join(", ")),
            );
        let e = error_of(&text);
        assert_eq!((e.line, e.text.as_str()), (7, "starting_stacks"), "{e}");
        let want = format!("{n} players cannot play 7stud: it takes 2 to 8");
        assert_eq!(e.reason, want, "{e}");
    }
}

#[test]
fn a_hand_built_in_memory_with_too_many_players_names_their_number() {
    let mut h = HandHistory::parse(POKERKIT).unwrap();
    h.starting_stacks = vec![100; 258];
    h.antes = vec![1; 258];
    let e = h.game_def(Profile::CardRoom).unwrap_err();
    assert!(e.to_string().contains("258 players cannot play"), "{e}");
}

#[test]
fn five_card_stud_has_its_own_code() {
    let h = HandHistory::parse(&POKERKIT.replace("F7S", "F5S")).unwrap();
    assert_eq!(h.variant, Variant::FiveStud);
    assert!(h.to_string().starts_with("variant = 'F5S'\n"));
    let def = h.game_def(Profile::CardRoom).unwrap();
    assert_eq!(def.cards_per_player(), 5);
}

#[test]
fn impossible_stakes_are_refused_by_the_game() {
    let h = HandHistory::parse(&POKERKIT.replace("big_bet = 10", "big_bet = 3")).unwrap();
    let e = h.game_def(Profile::PokerKit).unwrap_err();
    assert!(e.to_string().contains("big_bet"), "{e}");
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(3000))]

    /// A corrupted file gets an error or a hand, never a panic; and whatever reads writes back
    /// to text that reads again.
    #[test]
    fn corrupt_files_never_panic(
        edits in prop::collection::vec((any::<prop::sample::Index>(), 0u8..4, any::<char>()), 1..6)
    ) {
        let mut text: Vec<char> = POKERKIT.chars().collect();
        for (at, op, c) in edits {
            let i = at.index(text.len() + 1);
            match op {
                0 => text.insert(i, c),
                1 if i < text.len() => { text.remove(i); }
                2 if i < text.len() => text[i] = c,
                // Swap a character for a near neighbour of PHH's alphabet, to reach the
                // action and card parsers more often than random characters would.
                _ if i < text.len() => text[i] = "pdcbrfsm?0123456789TJQKAchds #'[],=".chars()
                    .nth(c as usize % 35).unwrap_or(' '),
                _ => {}
            }
        }
        let text: String = text.into_iter().collect();
        if let Ok(h) = HandHistory::parse(&text) {
            let _ = replay(&h, Profile::PokerKit);
            let written = h.to_string();
            let again = HandHistory::parse(&written);
            prop_assert!(again.is_ok(), "{written}");
            prop_assert_eq!(again.unwrap().to_string(), written);
        }
    }

    /// The line of an offset is one more than the newlines before it, as counting them from the
    /// start gives (what `Lines` replaced to make reading linear).
    #[test]
    fn line_numbers_count_the_newlines_before(text in "[a\n]{0,60}", offset in 0usize..70) {
        let before = text.bytes().take(offset).filter(|&b| b == b'\n').count();
        prop_assert_eq!(Lines::new(&text).at(offset), 1 + before);
    }

    /// Any string as an action gives an action or an error, never a panic.
    #[test]
    fn any_action_text_never_panics(s in ".{0,40}") {
        let _ = parse_action(&s, 8);
        let _ = parse_phh_cards(&s);
    }
}

fn replay_error(text: &str) -> ReplayError {
    let h = HandHistory::parse(text).unwrap();
    replay(&h, Profile::PokerKit).unwrap_err()
}

fn line_of(e: &ReplayError) -> (usize, String, String) {
    match e {
        ReplayError::Line { line, text, reason } => (*line, text.clone(), reason.clone()),
        other => panic!("not a line error: {other}"),
    }
}

#[test]
fn replays_a_pokerkit_hand() {
    let h = HandHistory::parse(POKERKIT).unwrap();
    let r = replay(&h, Profile::PokerKit).unwrap();
    // Door cards 7d, 8h, As: the 7d brings in.
    assert_eq!(r.bring_in_seat, Some(0));
    assert_eq!(r.opening, Some(Action::BringIn));
    assert_eq!(
        r.decisions[0].legal,
        vec![Action::BringIn, Action::CompleteBetRaise(5)]
    );
    assert_eq!(r.first_actors[..2], [Some(0), Some(1)]);
    // Fourth street: 8h Kc shows more than 7d Th.
    assert_eq!(r.payoffs, Some(vec![-6, 7, -1]));
    assert_eq!(r.final_stacks, vec![994, 1007, 999]);
}

#[test]
fn replay_errors_name_the_line() {
    let multi = POKERKIT.replace("', '", "',\n'");
    // Line 8 holds the first action; each action has its own line here.
    let (line, text, reason) = line_of(&replay_error(&multi.replace("'p3 f'", "'p3 cbr 7'")));
    assert_eq!((line, text.as_str()), (13, "p3 cbr 7"));
    assert!(reason.contains("cbr 10"), "{reason}");

    let (line, _, reason) = line_of(&replay_error(&multi.replace("'p3 f'", "'p1 f'")));
    assert_eq!(line, 13);
    assert!(reason.contains("p3's turn"), "{reason}");

    let (line, _, reason) = line_of(&replay_error(&multi.replace("KsKdAs", "KsKd")));
    assert_eq!(line, 11, "{reason}");
    assert!(reason.contains("too few cards"), "{reason}");

    let (line, _, reason) = line_of(&replay_error(
        &multi.replace("'d dh p2 Kc'", "'d dh p2 Kc3s'"),
    ));
    assert_eq!(line, 16, "{reason}");
    assert!(reason.contains("more cards"), "{reason}");

    let (line, _, reason) = line_of(&replay_error(
        &multi.replace("'d dh p2 Kc'", "'d dh p2 8s'"),
    ));
    assert_eq!(line, 16);
    assert!(reason.contains("already been dealt"), "{reason}");

    let (line, _, reason) = line_of(&replay_error(
        &multi.replace("'d dh p2 Kc'", "'d dh p3 2s'"),
    ));
    // The card went to a folded seat; the first thing wrong is p2 acting without its card.
    assert_eq!(line, 17);
    assert!(reason.contains("p2 is still owed a card"), "{reason}");
    // Too many cards for a seat still in the hand.
    let (line, _, reason) = line_of(&replay_error(
        &multi.replace("'d dh p2 Kc'", "'d dh p2 Kc', 'd dh p1 2s'"),
    ));
    assert_eq!(line, 16);
    assert!(reason.contains("more cards"), "{reason}");

    let (line, _, reason) = line_of(&replay_error(&multi.replace("8s5c7d", "8s5c??")));
    assert_eq!(line, 8);
    assert!(reason.contains("face up"), "{reason}");

    let (_, _, reason) = line_of(&replay_error(&multi.replace("'p1 f'", "'p1 f', 'p1 cc'")));
    assert!(reason.contains("over"), "{reason}");
}

#[test]
fn unknown_cards_replay_and_shows_fill_them_in() {
    let h = HandHistory::parse(&POKERKIT.replace("8s5c7d", "????7d")).unwrap();
    let r = replay(&h, Profile::PokerKit).unwrap();
    assert_eq!(r.payoffs, Some(vec![-6, 7, -1]));
    assert_eq!(r.state.down_cards(0), [None, None]);
    // A showdown needs the cards: shown later, they are dealt as shown.
    let showdown = POKERKIT
        .replace("8s5c7d", "????7d")
        .replace("'p2 cbr 5', 'p1 f'", "'p2 cc', 'p1 sm 8s5c7dTh'");
    let short = HandHistory::parse(&showdown).unwrap();
    let r = replay(&short, Profile::PokerKit).unwrap();
    assert_eq!(r.state.down_cards(0), [card("8s"), card("5c")]);
    assert_eq!(r.payoffs, None, "the hand stops at fourth street");
    let e = replay_error(&showdown.replace("sm 8s5c7d", "sm 8s5c7c"));
    assert!(line_of(&e).2.contains("shown as 7c"), "{e}");
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(2000))]

    /// Shuffled, dropped, duplicated and reassigned actions replay or give an error, never a panic.
    #[test]
    fn mangled_actions_never_panic(
        ops in prop::collection::vec((any::<prop::sample::Index>(), any::<prop::sample::Index>(), 0u8..4), 1..5)
    ) {
        let mut h = HandHistory::parse(POKERKIT).unwrap();
        for (a, b, op) in ops {
            let n = h.actions.len();
            if n == 0 { break; }
            let (i, j) = (a.index(n), b.index(n));
            match op {
                0 => h.actions.swap(i, j),
                1 => { h.actions.remove(i); }
                // Any seat, even one the table does not have (a hand built in memory).
                2 => if let PhhAction::Bet { seat, .. } | PhhAction::DealHole { seat, .. } = &mut h.actions[i].action {
                    *seat = (j % 12) as u8;
                },
                _ => { let x = h.actions[i].clone(); h.actions.insert(j, x); }
            }
        }
        let _ = replay(&h, Profile::PokerKit);
        let _ = replay(&h, Profile::CardRoom);
    }
}
