//! Drills on the shipped seven-card stud strategy: the public view keeps what was seen, the
//! feedback's losses are the values' differences with the best at 0, a seed deals one spot,
//! and a score's totals are its decisions'.

use super::*;
use crate::purify::Purification;
use crate::strategy_file::StrategyFile;

/// The shipped seven-card file as its coach, opened once.
fn coach() -> &'static StrategyPlayer {
    static C: std::sync::OnceLock<StrategyPlayer> = std::sync::OnceLock::new();
    C.get_or_init(|| {
        let path =
            std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../strategies/7stud-hu.strat");
        let f = StrategyFile::open(&path).unwrap();
        StrategyPlayer::of_file(f, "7stud-hu.strat").with_purification(Purification::Mixed)
    })
}

/// A hand of the coach's game dealt `cards` in the engine's order and checked or called until
/// the first decision of `street`: the state and its actions.
fn checked_to(cards: &str, street: usize) -> (State, Vec<Bet>) {
    let mut st = State::new(coach().file().game()).unwrap();
    let mut deck = cards.split_whitespace().map(|c| c.parse::<Card>().unwrap());
    let mut bets = Vec::new();
    loop {
        match st.next() {
            Next::Deal { .. } => st.deal(deck.next().unwrap()).unwrap(),
            Next::Act { .. } if st.street() == street => return (st, bets),
            Next::Act { .. } => {
                let legal = st.legal_actions();
                let a = legal[crate::bot::passive(&legal)];
                bets.push((st.street(), a));
                st.apply(a).unwrap();
            }
            Next::Over => panic!("over before street {street}"),
        }
    }
}

/// p1 (Kh Kd Qd) 2c Ks 7s 9c, p2 (7h 7d 6s) 3s 8c 4d 5h, dealt as the engine deals.
const CARDS: &str = "Kh Kd 2c 7h 7d 3s Ks 8c 7s 4d 9c 5h Qd 6s";

#[test]
fn the_public_view_hides_the_down_cards_only() {
    let (st, bets) = checked_to(CARDS, 4);
    let (view, seen) = public_view(&st, &bets).unwrap();
    // Two up cards a street from 3rd to 6th, and the actions between them.
    assert_eq!(
        seen.iter().filter(|s| matches!(s, Seen::Card(_))).count(),
        8
    );
    assert_eq!(seen.len(), 8 + bets.len());
    assert_eq!(seen[0], Seen::Card(st.up_cards(0)[0]));
    assert_eq!(view.to_act(), st.to_act());
    assert_eq!(view.legal_actions(), st.legal_actions());
    assert_eq!(view.pot(), st.pot());
    for s in 0..2 {
        assert_eq!(view.up_cards(s), st.up_cards(s));
        assert!(view.down_cards(s).iter().all(Option::is_none));
        assert!(st.down_cards(s).iter().all(Option::is_some));
    }
    // Fewer actions than the state took: refused, not guessed.
    assert!(public_view(&st, &bets[..1]).is_err());
}

#[test]
fn an_exact_decision_loses_what_its_values_say_and_the_best_nothing() {
    // Seventh street (the last): the values are exact.
    let (st, bets) = checked_to(CARDS, 4);
    let seat = st.to_act().unwrap();
    let legal = st.legal_actions();
    let mut probs = vec![0.0; legal.len()];
    coach()
        .policy(&st, &bets, seat, &legal, &mut probs)
        .unwrap();
    let all: Vec<Feedback> = (legal.iter())
        .map(|&a| feedback(coach(), &st, &bets, a, Options::default(), &|_, _| {}).unwrap())
        .collect();
    let first = &all[0];
    assert_eq!(first.method, Method::Exact);
    assert_eq!(first.frequencies, probs);
    assert!((probs.iter().sum::<f64>() - 1.0).abs() < 1e-9);
    let top = first.values.iter().cloned().fold(f64::MIN, f64::max);
    for (i, f) in all.iter().enumerate() {
        assert_eq!(
            (f.chosen, f.best, &f.values),
            (i, first.best, &first.values)
        );
        assert_eq!(f.loss, top - f.values[i]);
        assert!(f.loss >= 0.0 && f.loss_plus_minus.is_none());
    }
    assert_eq!(all[first.best].loss, 0.0);
    // An action that is not legal here is refused by name.
    let e = feedback(
        coach(),
        &st,
        &bets,
        Action::Fold,
        Options::default(),
        &|_, _| {},
    );
    if !legal.contains(&Action::Fold) {
        assert!(format!("{:#}", e.unwrap_err()).contains("not legal"));
    }
}

#[test]
fn an_estimated_loss_has_its_interval() {
    let (st, bets) = checked_to(CARDS, 1);
    let options = Options {
        samples: 64,
        seed: 3,
    };
    let legal = st.legal_actions();
    for &a in &legal {
        let f = feedback(coach(), &st, &bets, a, options, &|_, _| {}).unwrap();
        assert_eq!(f.method, Method::Estimate);
        let pm = f.loss_plus_minus.unwrap();
        assert!(pm >= 0.0 && pm.is_finite());
        if f.chosen == f.best {
            assert_eq!((f.loss, pm), (0.0, 0.0));
        } else {
            assert!(f.loss >= 0.0);
        }
    }
}

#[test]
fn a_seed_deals_one_decision_with_the_cards_known() {
    for seed in 0..6 {
        let (st, bets) = deal_spot(coach(), seed).unwrap();
        let (again, bets_again) = deal_spot(coach(), seed).unwrap();
        assert_eq!(bets, bets_again);
        let seat = st.to_act().expect("a decision");
        assert_eq!(again.to_act(), Some(seat));
        assert!(st.down_cards(seat).iter().all(Option::is_some));
        assert_eq!(public_view(&st, &bets).unwrap().0.to_act(), Some(seat));
    }
}

/// A feedback of `loss` chips, the chosen action played `freq` of the time.
fn fed(loss: f64, freq: f64) -> Feedback {
    Feedback {
        street: 0,
        seat: 0,
        actions: vec![Action::Fold, Action::CheckCall],
        frequencies: vec![freq, 1.0 - freq],
        values: vec![0.0, loss],
        plus_minus: None,
        method: Method::Exact,
        chosen: 0,
        best: 1,
        loss,
        loss_plus_minus: None,
        big_bet: 10,
    }
}

#[test]
fn a_score_adds_its_decisions() {
    let mut s = Score::new();
    let none = s.summary(0.1, 3);
    assert_eq!(
        (none.decisions, none.mean_loss, none.agreed_share),
        (0, 0.0, 0.0)
    );
    for (i, (loss, freq)) in [(0.0, 0.9), (2.5, 0.05), (1.0, 0.3), (4.0, 0.0), (1.0, 0.1)]
        .into_iter()
        .enumerate()
    {
        s.add(&fed(loss, freq), format!("d{i}"));
    }
    let m = s.summary(0.1, 3);
    assert_eq!(m.decisions, 5);
    assert_eq!(m.total_loss, 8.5);
    assert_eq!(m.mean_loss, 1.7);
    assert!((m.mean_loss_mbb - 170.0).abs() < 1e-9);
    // 0.9, 0.3 and 0.1 are at least 0.1.
    assert_eq!((m.agreed, m.agreed_share), (3, 0.6));
    let worst: Vec<&str> = m.worst.iter().map(|w| w.label.as_str()).collect();
    assert_eq!(worst, ["d3", "d1", "d2"]);
}
