use super::*;
use abstraction::rules::{Action, GameDef, State};
use rand::SeedableRng;

#[test]
fn hero_reads_seats_and_names() {
    assert_eq!("p1".parse::<Hero>(), Ok(Hero::Seat(0)));
    assert_eq!("P3".parse::<Hero>(), Ok(Hero::Seat(2)));
    assert_eq!("Hero".parse::<Hero>(), Ok(Hero::Name("Hero".into())));
    assert_eq!("pat".parse::<Hero>(), Ok(Hero::Name("pat".into())));
    assert!("p9".parse::<Hero>().unwrap_err().contains("p1 to p8"));
    assert!(" ".parse::<Hero>().is_err());
}

/// Seven-card stud heads-up with the door cards dealt: p1 shows the deuce and brings in.
fn third_street() -> State {
    let def = GameDef::preset("7stud").unwrap();
    let mut s = State::new(&def).unwrap();
    for c in ["2c", "Ad"] {
        while !matches!(
            s.next(),
            abstraction::rules::Next::Deal {
                deal: abstraction::rules::Deal::Up,
                ..
            }
        ) {
            s.deal_unknown().unwrap();
        }
        s.deal(c.parse().unwrap()).unwrap();
    }
    s
}

#[test]
fn spots_and_actions_in_a_players_words() {
    let mut s = third_street();
    let mut bets = Vec::new();
    assert_eq!(spot::spot_kind(&s, &bets), SpotKind::BringIn);
    assert_eq!(spot::action_kind(&s, Action::BringIn), ActionKind::BringIn);
    assert_eq!(
        spot::action_kind(&s, Action::CompleteBetRaise(5)),
        ActionKind::Complete
    );
    bets.push((0, Action::BringIn));
    s.apply(Action::BringIn).unwrap();
    assert_eq!(spot::spot_kind(&s, &bets), SpotKind::FacingBringIn);
    assert_eq!(spot::action_kind(&s, Action::CheckCall), ActionKind::Call);
    assert_eq!(
        spot::action_kind(&s, Action::CompleteBetRaise(5)),
        ActionKind::Complete
    );
    bets.push((0, Action::CompleteBetRaise(5)));
    s.apply(Action::CompleteBetRaise(5)).unwrap();
    assert_eq!(spot::spot_kind(&s, &bets), SpotKind::FacingBet);
    assert_eq!(
        spot::action_kind(&s, Action::CompleteBetRaise(10)),
        ActionKind::Raise
    );
    bets.push((0, Action::CompleteBetRaise(10)));
    s.apply(Action::CompleteBetRaise(10)).unwrap();
    assert_eq!(spot::spot_kind(&s, &bets), SpotKind::FacingRaise);
    assert_eq!(spot::action_kind(&s, Action::Fold), ActionKind::Fold);
    bets.push((0, Action::CheckCall));
    s.apply(Action::CheckCall).unwrap();
    // Fourth street: the first to act checks or bets.
    while s.to_act().is_none() {
        s.deal_random(&mut rand_chacha::ChaCha8Rng::seed_from_u64(1))
            .unwrap();
    }
    assert_eq!(spot::spot_kind(&s, &bets), SpotKind::FirstIn);
    assert_eq!(spot::action_kind(&s, Action::CheckCall), ActionKind::Check);
    assert_eq!(
        spot::action_kind(&s, Action::CompleteBetRaise(5)),
        ActionKind::Bet
    );
}

fn reviewed(
    street: usize,
    spot: SpotKind,
    action: ActionKind,
    f: f64,
    loss: Option<f64>,
) -> Reviewed {
    Reviewed {
        street,
        street_name: format!("street {street}"),
        spot,
        action,
        codes: vec!["f".into(), "cc".into()],
        words: vec!["fold".into(), "call 5".into()],
        taken: 1,
        frequencies: vec![1.0 - f, f],
        fallback: false,
        preferred: 0,
        values: loss.map(|l| ActionValues {
            method: values::Method::Exact,
            chips: vec![Some(0.0), Some(-l)],
            plus_minus: None,
            best: 0,
            loss: l,
            loss_plus_minus: None,
        }),
        no_values: None,
        down: vec![],
        up: vec![],
        live: vec![0, 1],
        pot: 10,
        rare: f < DEFAULT_THRESHOLD,
        losing: loss.is_some_and(|l| l > 1.0),
    }
}

#[test]
fn the_summary_sums_groups_and_puts_the_biggest_loss_first() {
    let hand = |decisions| HandReview {
        source: "x".into(),
        game: "7stud".into(),
        seats: 2,
        rules: "card-room",
        strategy: "s".into(),
        hero: 0,
        players: None,
        big_bet: 10,
        decisions,
        net: None,
        no_values: None,
    };
    let hands = vec![
        hand(vec![
            reviewed(4, SpotKind::FacingBet, ActionKind::Call, 0.05, Some(3.0)),
            reviewed(0, SpotKind::FacingBringIn, ActionKind::Call, 0.5, Some(0.5)),
        ]),
        hand(vec![
            reviewed(4, SpotKind::FacingBet, ActionKind::Call, 0.02, Some(5.0)),
            reviewed(2, SpotKind::FirstIn, ActionKind::Check, 0.05, None),
        ]),
    ];
    let s = summarize(&hands);
    assert_eq!((s.hands, s.all.decisions, s.all.leaks), (2, 4, 3));
    assert_eq!(s.all.valued, 3);
    assert!((s.all.total_loss - 8.5).abs() < 1e-12);
    // Losing decisions are those of more than a chip here: 3 and 5.
    assert!((s.all.leak_loss - 8.0).abs() < 1e-12);
    // By spot, in the hand's order.
    let streets: Vec<usize> = s.by_spot.iter().map(|g| g.decisions).collect();
    assert_eq!(streets, [1, 1, 2]);
    assert_eq!(s.by_spot[2].spot, Some(SpotKind::FacingBet));
    assert!((s.by_spot[2].mean_loss - 4.0).abs() < 1e-12);
    assert!((s.by_spot[2].mean_frequency - 0.035).abs() < 1e-12);
    // The biggest leak: the calls facing a bet (8 chips), then the check (no value, one leak).
    assert_eq!(s.biggest.len(), 2);
    assert_eq!(s.biggest[0].action, Some(ActionKind::Call));
    assert_eq!(s.biggest[0].leaks, 2);
    assert_eq!(s.biggest[1].action, Some(ActionKind::Check));
    let calls = s
        .by_action
        .iter()
        .find(|g| g.action == Some(ActionKind::Call))
        .unwrap();
    assert_eq!(
        (calls.decisions, calls.leaks, calls.rare, calls.losing),
        (3, 2, 2, 2)
    );
}

#[test]
fn each_hero_decision_is_rebuilt_as_replayed_with_only_the_heros_cards_known() {
    let text = include_str!("../../../testdata/review/7stud-hu-raise.phhs");
    let mut checked = 0;
    for (source, hand) in read_hands("raise.phhs", text) {
        let hand = hand.unwrap();
        let r = abstraction::phh::replay(&hand, abstraction::rules::Profile::CardRoom).unwrap();
        for hero in 0..2u8 {
            let spots = spot::hero_spots(&r, hero).unwrap();
            let mine = r.decisions.iter().filter(|d| d.seat == hero).count();
            assert_eq!(spots.len(), mine, "{source}");
            for s in spots {
                let d = &r.decisions[s.index];
                assert_eq!(s.public.to_act(), Some(hero));
                assert_eq!(s.public.legal_actions(), d.legal, "{source}");
                assert_eq!(s.own.legal_actions(), d.legal);
                assert_eq!(s.public.street(), d.street);
                let bets: Vec<_> = r.decisions[..s.index]
                    .iter()
                    .map(|d| (d.street, d.taken))
                    .collect();
                assert_eq!(s.bets, bets);
                for seat in 0..2u8 {
                    assert!(s.public.down_cards(seat).iter().all(Option::is_none));
                    assert_eq!(
                        s.public.up_cards(seat),
                        &r.state.up_cards(seat)[..s.public.up_cards(seat).len()]
                    );
                }
                let known: Vec<_> = s.own.down_cards(hero).iter().map(|c| c.unwrap()).collect();
                assert_eq!(known, s.down);
                assert!(s.own.down_cards(1 - hero).iter().all(Option::is_none));
                checked += 1;
            }
        }
    }
    assert!(checked > 50, "{checked} decisions");
}
