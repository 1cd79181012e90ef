//! The exact values of actions at a table of three or more seats where the rest of the hand
//! can be walked: every deal of the cards nobody has seen is few (`doorstud`, the walkable
//! three-seat stud game a multiway file can be solved on). The counterpart of the heads-up
//! exact walk, without a subgame: the rules engine is walked over every deal, every seat
//! playing the file (its rows as stored, asked at every decision).
//!
//! The spot's histories are its public events (the up cards, the betting) with every deal of
//! the down cards held so far (the player's own as given, or every holding): each one's
//! reach is the product of every seat's probabilities of its actions on the way (the deal's
//! chance is the same for each, and cancels). Below the spot, each action's value of a
//! history is the expectation over the cards to come and every seat's mixed actions, to the
//! end of the hand. A holding's value of an action is the mean of its histories' values
//! weighed by the other seats' reach: exactly the counterfactual value of the information set
//! over its reach, as the exact multiway solver's walk sums it
//! ([`crate::multiway::reach_and_values`]). The range weighs each history by every seat's
//! reach (the player's own too); a class, its holdings' histories alike.

use super::{ClassLine, Line, Method, Values};
use crate::bot::{Bet, Player, StrategyPlayer};
use crate::describe::Classes;
use crate::strategy_file::MAX_ACTIONS;
use abstraction::cards::{Card, CardSet};
use abstraction::rules::{Deal, GameDef, Next, State};
use anyhow::{bail, ensure, Context, Result};
use rayon::prelude::*;

/// The most deals of the unseen cards a walk takes on (every deal is walked to the end of
/// the hand): `doorstud`'s first decision has 60, a real game's table far more than this.
const MAX_DEALS: f64 = 100_000.0;

/// Whether the values at a table's `state` are walked: three or more seats, and few deals of
/// the cards no one has seen yet (every seat's down cards and the cards to come).
pub fn walkable(state: &State) -> bool {
    let def = state.def();
    def.seats > 2 && deals(def, state) <= MAX_DEALS
}

/// The deals of the cards still unknown at `state`: the down cards held and every card to
/// come, from the cards not dealt face up.
fn deals(def: &GameDef, state: &State) -> f64 {
    let per_seat: usize = def.streets.iter().map(|s| s.deal.len()).sum();
    let all = per_seat * def.seats as usize;
    let shown: usize = (0..def.seats)
        .map(|s| state.up_cards(s).len())
        .sum::<usize>()
        + state.community_cards().len();
    let pool = def.deck.cards().len() as usize - shown;
    let unknown = all.saturating_sub(shown).min(pool);
    (0..unknown).map(|i| (pool - i) as f64).product()
}

/// One history of the spot: the state there (every card so far dealt), the seat's reach by
/// its own actions and by the others', and its holding.
struct History {
    state: State,
    own: f64,
    others: f64,
    holding: CardSet,
}

/// The walk's fixed parts: the file, the spot's events, the seat.
struct Walk<'a> {
    player: &'a StrategyPlayer,
    /// The spot as seen: its state (down cards unknown) and betting.
    spot: &'a State,
    bets: &'a [Bet],
    seat: u8,
    /// The player's down cards, when given.
    hand: Option<&'a [Card]>,
    /// Every card the spot shows and the player's hand: no other seat's down card.
    apart: CardSet,
}

impl Walk<'_> {
    /// Deals and plays the spot's events from `st` (its first `i` bets made), branching on
    /// each down card, and collects each history reaching the decision.
    fn histories(
        &self,
        st: State,
        i: usize,
        reach: (f64, f64),
        out: &mut Vec<History>,
    ) -> Result<()> {
        let mut st = st;
        let mut i = i;
        let (mut own, mut others) = reach;
        loop {
            match st.next() {
                Next::Deal {
                    deal: Deal::Down,
                    seat: Some(s),
                } => {
                    for c in self.down_choices(&st, s) {
                        let mut next = st.clone();
                        next.deal(c)?;
                        self.histories(next, i, (own, others), out)?;
                    }
                    return Ok(());
                }
                Next::Deal { seat, .. } => {
                    let c = self.shown_card(&st, seat)?;
                    st.deal(c)?;
                }
                Next::Act { seat } if i == self.bets.len() => {
                    ensure!(
                        seat == self.seat,
                        "the spot's replay reached another seat's turn"
                    );
                    // Given a hand, the others' reach weighs it (the player's own may be 0:
                    // the values say what its actions would be worth); else both.
                    let own_kept = self.hand.is_some() || own > 0.0;
                    if others > 0.0 && own_kept {
                        let holding = st.down_cards(seat).iter().flatten().copied().collect();
                        out.push(History {
                            state: st,
                            own,
                            others,
                            holding,
                        });
                    }
                    return Ok(());
                }
                Next::Act { seat } => {
                    let (street, a) = self.bets[i];
                    let p = self.probability(&st, i, seat, a)?;
                    if seat == self.seat {
                        own *= p;
                    } else {
                        others *= p;
                    }
                    ensure!(
                        street == st.street(),
                        "the spot's betting is off its streets"
                    );
                    st.apply(a)?;
                    i += 1;
                    if others == 0.0 || (own == 0.0 && self.hand.is_none()) {
                        return Ok(());
                    }
                }
                Next::Over => bail!("the hand is over before the spot"),
            }
        }
    }

    /// The cards `s`'s next down card can be: the player's own as given, else any card not
    /// dealt, not shown at the spot and not in the player's hand.
    fn down_choices(&self, st: &State, s: u8) -> Vec<Card> {
        let k = st.down_cards(s).len();
        match self.hand {
            Some(h) if s == self.seat => h.get(k).copied().into_iter().collect(),
            _ => st.unseen().minus(self.apart).iter().collect(),
        }
    }

    /// The up card (or community card) dealt next to `seat`, as the spot shows it.
    fn shown_card(&self, st: &State, seat: Option<u8>) -> Result<Card> {
        let c = match seat {
            Some(s) => self.spot.up_cards(s).get(st.up_cards(s).len()),
            None => self.spot.community_cards().get(st.community_cards().len()),
        };
        c.copied()
            .context("the spot shows fewer cards than its replay deals")
    }

    /// `seat`'s probability, playing the file, of `a` at `st` after the spot's first `i` bets.
    fn probability(
        &self,
        st: &State,
        i: usize,
        seat: u8,
        a: abstraction::rules::Action,
    ) -> Result<f64> {
        let legal = st.legal_actions();
        let mut probs = [0.0; MAX_ACTIONS];
        let probs = &mut probs[..legal.len()];
        self.player
            .policy(st, &self.bets[..i], seat, &legal, probs)?;
        let k = legal
            .iter()
            .position(|&l| l == a)
            .context("an illegal action in the spot")?;
        Ok(probs[k])
    }

    /// The seat's value of each action at history `h` (chips it ends the hand with, whole
    /// hand), every seat playing the file below.
    fn action_values(&self, h: &History) -> Result<Vec<f64>> {
        let mut bets = self.bets.to_vec();
        let actions = h.state.legal_actions();
        actions
            .iter()
            .map(|&a| {
                let mut st = h.state.clone();
                bets.push((st.street(), a));
                st.apply(a)?;
                let v = self.below(&st, &mut bets);
                bets.pop();
                v
            })
            .collect()
    }

    /// The seat's expected result of the hand at `st` (betting `bets`), every card to come
    /// equally likely and every seat playing the file.
    fn below(&self, st: &State, bets: &mut Vec<Bet>) -> Result<f64> {
        match st.next() {
            Next::Over => {
                let pay = st.payoffs().context("a showdown of unknown cards")?;
                Ok(pay[self.seat as usize] as f64)
            }
            Next::Deal { .. } => {
                let cards = st.unseen();
                let mut sum = 0.0;
                for c in cards.iter() {
                    let mut next = st.clone();
                    next.deal(c)?;
                    sum += self.below(&next, bets)?;
                }
                Ok(sum / cards.len() as f64)
            }
            Next::Act { seat } => {
                let legal = st.legal_actions();
                let mut probs = [0.0; MAX_ACTIONS];
                let probs = &mut probs[..legal.len()];
                self.player.policy(st, bets, seat, &legal, probs)?;
                let mut v = 0.0;
                for (&a, &p) in legal.iter().zip(probs.iter()) {
                    if p == 0.0 {
                        continue;
                    }
                    let mut next = st.clone();
                    bets.push((st.street(), a));
                    next.apply(a)?;
                    v += p * self.below(&next, bets)?;
                    bets.pop();
                }
                Ok(v)
            }
        }
    }
}

/// The exact values at a table's decision `state` (see the module), `hand` the player's down
/// cards if given. `progress` is told the histories walked and their count.
pub fn exact(
    player: &StrategyPlayer,
    state: &State,
    bets: &[Bet],
    hand: Option<&[Card]>,
    classes: Option<&Classes>,
    progress: &(dyn Fn(usize, usize) + Sync),
) -> Result<Values> {
    let seat = state.to_act().context("no one to act")?;
    let def = state.def();
    let shown: CardSet = (0..def.seats)
        .flat_map(|s| state.up_cards(s).iter().copied())
        .chain(state.community_cards().iter().copied())
        .collect();
    let apart = shown.union(hand.unwrap_or_default().iter().copied().collect());
    let walk = Walk {
        player,
        spot: state,
        bets,
        seat,
        hand,
        apart,
    };
    let mut histories = Vec::new();
    walk.histories(State::new(def)?, 0, (1.0, 1.0), &mut histories)?;
    ensure!(
        !histories.is_empty(),
        "the other seats' ranges hold no deal beside the player's: no value here"
    );
    let done = std::sync::atomic::AtomicUsize::new(0);
    progress(0, histories.len());
    let values: Vec<Vec<f64>> = histories
        .par_iter()
        .map(|h| {
            let v = walk.action_values(h);
            let n = done.fetch_add(1, std::sync::atomic::Ordering::Relaxed) + 1;
            progress(n, histories.len());
            v
        })
        .collect::<Result<_>>()?;
    let committed = state.committed(seat) as f64;
    let rows =
        |weight: &dyn Fn(&History) -> f64, keep: &dyn Fn(&History) -> bool| -> Vec<(f64, &[f64])> {
            histories
                .iter()
                .zip(&values)
                .filter(|(h, _)| keep(h))
                .map(|(h, v)| (weight(h), v.as_slice()))
                .collect()
        };
    let hand_line = match hand {
        Some(_) => Some(
            Line::exact(&rows(&|h| h.others, &|_| true), committed, true)
                .context("the other seats' ranges hold no deal beside this hand")?,
        ),
        None => None,
    };
    let range = match hand {
        Some(_) => None,
        None => Some(
            Line::exact(&rows(&|h| h.own * h.others, &|_| true), committed, true)
                .context("the seats' ranges hold no deal together here")?,
        ),
    };
    let lines = match (classes, hand) {
        (Some(c), None) => class_lines(c, state, seat, &histories, &values, committed),
        _ => Vec::new(),
    };
    Ok(Values {
        method: Method::Exact,
        seat,
        actions: state.legal_actions(),
        committed: state.committed(seat),
        pot: state.pot(),
        big_bet: def.big_bet,
        hand: hand_line,
        range,
        classes: lines,
        classes_unsampled: 0,
        millis: 0.0,
    })
}

/// A class's holdings and its histories' weights and values.
type ClassRows<'a> = (Vec<CardSet>, Vec<(f64, &'a [f64])>);

/// The lines by class: each class's histories weighed by every seat's reach, its share of the
/// range's; the commonest first.
fn class_lines(
    c: &Classes,
    state: &State,
    seat: u8,
    histories: &[History],
    values: &[Vec<f64>],
    committed: f64,
) -> Vec<ClassLine> {
    let up: CardSet = state.up_cards(seat).iter().copied().collect();
    let total: f64 = histories.iter().map(|h| h.own * h.others).sum();
    let mut by: Vec<ClassRows> = vec![(Vec::new(), Vec::new()); c.names.len()];
    for (h, v) in histories.iter().zip(values) {
        let e = &mut by[c.classify(h.holding, up)];
        if !e.0.contains(&h.holding) {
            e.0.push(h.holding);
        }
        e.1.push((h.own * h.others, v.as_slice()));
    }
    let mut lines: Vec<ClassLine> = (by.iter().zip(&c.names))
        .filter_map(|((holdings, rows), name)| {
            let mass: f64 = rows.iter().map(|r| r.0).sum();
            let values = Line::exact(rows, committed, true)?;
            Some(ClassLine {
                class: name.clone(),
                holdings: holdings.len(),
                share: if total > 0.0 { mass / total } else { 0.0 },
                values,
            })
        })
        .collect();
    lines.sort_by(|a, b| b.share.total_cmp(&a.share));
    lines
}
