//! Local best response (Lisý and Bowling 2017) against any [`Player`], adapted to stud: a lower
//! bound on the player's exploitability in the real game.
//!
//! LBR follows each hand as it is played and keeps the opponent's range over its hidden down
//! cards ([`super::range`], shared with endgame re-solving): a list of holdings, each with a
//! weight. When the opponent's down cards first matter,
//! the list holds every way to fill them from the cards LBR has not seen (the deal is uniform,
//! each street's down cards a set); each card LBR sees later strikes the holdings that contain
//! it, each later down card of the opponent multiplies each holding by every way to fill it, and
//! each action the opponent takes multiplies each holding's weight by the probability its own
//! policy gives that action with those cards (Bayes' rule). A holding of weight 0 is dropped and
//! never looked at again. So each of the opponent's decisions is weighed once per holding, when
//! it is taken, however many decisions LBR makes after it.
//!
//! With [`Candidates::All`] the range is exact: seven-card stud has C(48,2) = 1,128 holdings on
//! third street and up to C(41,2)·39 = 31,980 on seventh. With [`Candidates::Sample`]`(m)` the
//! list is cut to `m` holdings drawn uniformly where it would be longer (one hidden card, as in
//! Leduc, ministud and five-card stud, never is: both modes are then the same). LBR acts only on
//! what it may see either way, so its win rate is a lower bound on the exploitability whatever
//! the sample.
//!
//! The cost is the opponent's policy, asked for every holding at each of its decisions and at
//! each raise LBR weighs. A player that reads its cards through a class per street (a strategy
//! file's bucket: [`Player::card_class`]) is asked each holding's class once a street (the
//! bucket lookup, tens of microseconds at the `default` size) and its policy once per class at
//! each decision; other players are asked for each holding.

use super::heuristic::equity;
use super::lookahead::{Lookahead, Walk};
use super::matches::{play_hand, stream, summarize, DealCards, MatchResult};
use super::range::{Candidates, HiddenRange, MAX_DOWN};
use super::{Answer, Bet, Player};
use abstraction::cards::CardSet;
use abstraction::rules::seat_name;
use abstraction::rules::{Action, Deal, GameDef, Next, State};
use anyhow::{bail, ensure, Context};
use rayon::prelude::*;
use std::sync::{Arc, Mutex};

/// At each of its decisions, LBR takes the opponent's range over its hidden cards (see the
/// module) and picks the action of best expected value assuming the rest of the hand is checked
/// down: folding is worth 0, checking or calling `equity × (pot + cost) − cost`, and a bet or
/// raise adds the chance that the opponent folds to it (its policy at the state the raise leads
/// to, for each holding), the opponent calling otherwise. Equities are by rollouts of the cards
/// to come against each holding. With [`Lookahead::Street`] each action is valued instead by
/// walking the rest of the street's betting ([`super::lookahead`]).
pub struct Lbr<'a> {
    opponent: &'a dyn Player,
    def: Arc<GameDef>,
    rollouts: u32,
    candidates: Candidates,
    lookahead: Lookahead,
}

impl<'a> Lbr<'a> {
    /// LBR against `opponent` in the heads-up game `def`, with `rollouts` rollouts per equity
    /// (one on the last street, where nothing is left to deal) and the holdings `candidates`.
    pub fn new(
        opponent: &'a dyn Player,
        def: Arc<GameDef>,
        rollouts: u32,
        candidates: Candidates,
    ) -> anyhow::Result<Lbr<'a>> {
        ensure!(
            def.seats == 2,
            "LBR is heads-up: the game has {} seats",
            def.seats
        );
        ensure!(rollouts > 0, "LBR needs at least one rollout per equity");
        ensure!(
            candidates != Candidates::Sample(0),
            "LBR needs at least one candidate hand"
        );
        Ok(Lbr {
            opponent,
            def,
            rollouts,
            candidates,
            lookahead: Lookahead::None,
        })
    }

    /// The same LBR looking `lookahead` ahead at each of its decisions.
    pub fn with_lookahead(self, lookahead: Lookahead) -> Lbr<'a> {
        Lbr { lookahead, ..self }
    }

    /// Plays LBR against the opponent on `deals` duplicate deals, as
    /// [`super::matches::play_match`] plays two players (the same cards and the same streams of
    /// `seed`, so the result does not depend on the thread count), LBR as player A. LBR sits at
    /// each hand with an empty memory: what it keeps is that hand's range. Calls `done` after
    /// each deal. The opponent's fallbacks are counted as player B's.
    pub fn play(
        &self,
        deals: u64,
        seed: u64,
        done: &(dyn Fn() + Sync),
    ) -> anyhow::Result<MatchResult> {
        ensure!(
            deals >= 2,
            "a match needs at least 2 deals for a confidence interval"
        );
        self.play_deals(deals, seed, done)?.result(self.def.big_bet)
    }

    /// As [`Lbr::play`], each deal's net chips for LBR over its two hands, in the order of the
    /// deals: two LBRs (or two strategies) measured on the same seed can be compared deal by
    /// deal, which cancels most of the luck of the opponent's draws.
    pub fn play_deals(
        &self,
        deals: u64,
        seed: u64,
        done: &(dyn Fn() + Sync),
    ) -> anyhow::Result<LbrDeals> {
        let def = &self.def;
        let per_deal: Vec<(i64, [u64; 2])> = (0..deals)
            .into_par_iter()
            .map(|i| -> anyhow::Result<(i64, [u64; 2])> {
                let cards = DealCards::random(def, &mut stream(seed, i, 0));
                let mut net = 0;
                // LBR's fallbacks, then the opponent's.
                let mut fallbacks = [0; 2];
                for (play, first) in [(1u64, 0u8), (2, 1)] {
                    let me = InHand(Mutex::new(Range::new(self, first)?));
                    let seats: [&dyn Player; 2] = if first == 0 {
                        [&me, self.opponent]
                    } else {
                        [self.opponent, &me]
                    };
                    let (state, fell) =
                        play_hand(def, &seats, &cards, &mut stream(seed, i, play), None)?;
                    let payoffs = state
                        .payoffs()
                        .context("a finished hand has no payoffs (a rules engine bug)")?;
                    net += payoffs[first as usize];
                    fallbacks[0] += fell[first as usize].fallbacks;
                    fallbacks[1] += fell[1 - first as usize].fallbacks;
                }
                done();
                Ok((net, fallbacks))
            })
            .collect::<anyhow::Result<_>>()?;
        Ok(LbrDeals {
            nets: per_deal.iter().map(|d| d.0).collect(),
            fallbacks: [0, 1].map(|s| per_deal.iter().map(|d| d.1[s]).sum()),
        })
    }
}

/// What [`Lbr::play_deals`] found.
#[derive(Clone, Debug)]
pub struct LbrDeals {
    /// Each deal's net chips for LBR over its two hands, in the order of the deals.
    pub nets: Vec<i64>,
    /// Decisions answered by the fallback ([`super::Answer::Fallback`]: no weight on any legal
    /// action, so it checked or called): LBR's, then the opponent's. A strategy's fallbacks
    /// are play it was not solved for, so LBR reports them rather than measure them silently.
    pub fallbacks: [u64; 2],
}

impl LbrDeals {
    /// The match result (see [`summarize`]) at a big bet of `big_bet`, LBR as player A, with
    /// the fallbacks counted.
    pub fn result(&self, big_bet: u64) -> anyhow::Result<MatchResult> {
        Ok(MatchResult {
            fallbacks_a: self.fallbacks[0],
            fallbacks_b: self.fallbacks[1],
            ..summarize(&self.nets, big_bet)?
        })
    }
}

/// LBR in one hand: the player [`Lbr::play`] seats, with the opponent's range carried from one
/// of its decisions to the next. The lock is never contended (a hand is played on one thread);
/// it is there because a [`Player`] is shared between threads.
struct InHand<'l>(Mutex<Range<'l>>);

impl Player for InHand<'_> {
    fn name(&self) -> &str {
        "lbr"
    }

    fn policy(
        &self,
        state: &State,
        bets: &[Bet],
        seat: u8,
        legal: &[Action],
        probs: &mut [f64],
    ) -> anyhow::Result<Answer> {
        let mut range = self
            .0
            .lock()
            .map_err(|_| anyhow::anyhow!("LBR's range was left half-updated by a panic"))?;
        ensure!(
            seat == range.seat,
            "LBR sits as {}, not {}",
            seat_name(range.seat),
            seat_name(seat)
        );
        range.decide(state, bets, legal, probs)?;
        Ok(Answer::Own)
    }
}

/// LBR's memory of one hand: the hand replayed with the opponent's down cards unknown, and the
/// opponent's range.
struct Range<'l> {
    lbr: &'l Lbr<'l>,
    /// LBR's seat.
    seat: u8,
    /// The hand so far as LBR sees it, up to the bet `read`.
    st: State,
    /// Bets of the hand replayed into `st`.
    read: usize,
    /// The cards LBR has seen: its own, every up card, the board.
    seen: CardSet,
    /// The opponent's range (Bayes' rule on its policy, no floor).
    hidden: HiddenRange<'l>,
    /// The street whose equity each holding holds.
    equity_on: Option<usize>,
}

impl<'l> Range<'l> {
    /// An empty memory of a hand about to be dealt, LBR at `seat`.
    fn new(lbr: &'l Lbr<'l>, seat: u8) -> anyhow::Result<Range<'l>> {
        Ok(Range {
            lbr,
            seat,
            st: State::with_def(Arc::clone(&lbr.def))?,
            read: 0,
            seen: CardSet::EMPTY,
            hidden: HiddenRange::new(
                lbr.opponent,
                1 - seat,
                lbr.def.deck.cards(),
                lbr.candidates,
                0.0,
            ),
            equity_on: None,
        })
    }

    /// Replays what happened since the last call up to LBR's decision `real` after `bets`:
    /// the cards of `real` in order except the opponent's down cards (LBR may not read them),
    /// and the bets, each of the opponent's weighing the range.
    fn advance(&mut self, real: &State, bets: &[Bet]) -> anyhow::Result<()> {
        let (seat, opp) = (self.seat, 1 - self.seat);
        ensure!(
            self.read <= bets.len(),
            "the betting given is shorter than the one LBR followed"
        );
        loop {
            match self.st.next() {
                Next::Deal {
                    seat: Some(s),
                    deal: Deal::Down,
                } if s == opp => {
                    self.st.deal_unknown()?;
                    self.hidden.deal_hidden();
                }
                Next::Deal { seat, deal } => {
                    let st = &self.st;
                    let card = match (seat, deal) {
                        (None, _) => real
                            .community_cards()
                            .get(st.community_cards().len())
                            .copied(),
                        (Some(s), Deal::Down) => real
                            .down_cards(s)
                            .get(st.down_cards(s).len())
                            .copied()
                            .flatten(),
                        (Some(s), _) => real.up_cards(s).get(st.up_cards(s).len()).copied(),
                    };
                    let card = card.context("the state lacks a card the betting so far dealt")?;
                    self.st.deal(card)?;
                    self.seen.insert(card);
                }
                Next::Act { seat: s } if self.read == bets.len() => {
                    ensure!(
                        s == seat && self.st.street() == real.street(),
                        "the betting given does not lead to this decision of {}",
                        seat_name(seat)
                    );
                    return self.refresh();
                }
                Next::Act { seat: s } => {
                    let a = bets[self.read].1;
                    if s == opp {
                        self.refresh()?;
                        let st = self.st.clone();
                        self.hidden.observe(&st, &bets[..self.read], a)?;
                    }
                    self.st
                        .apply(a)
                        .with_context(|| format!("bet {} of the hand ({a})", self.read + 1))?;
                    self.read += 1;
                }
                Next::Over => bail!("the hand is over: there is no decision to make"),
            }
        }
    }

    /// Brings the opponent's range up to the cards dealt (see [`HiddenRange::refresh`]).
    fn refresh(&mut self) -> anyhow::Result<()> {
        if self.hidden.refresh(self.seen)? {
            self.equity_on = None;
        }
        Ok(())
    }

    /// Gives each holding LBR's checked-down equity against it on this street (once a street:
    /// the cards do not change within one).
    fn equities(&mut self) {
        let street = self.st.street();
        if self.equity_on == Some(street) {
            return;
        }
        // Nothing left to deal on the last street: one rollout is exact.
        let rollouts = if street + 1 == self.lbr.def.streets.len() {
            1
        } else {
            self.lbr.rollouts
        };
        let (seat, opp) = (self.seat, 1 - self.seat);
        for h in self.hidden.holdings_mut() {
            h.equity = equity(&self.st, seat, Some((opp, h.set)), rollouts);
        }
        self.equity_on = Some(street);
    }

    /// LBR's policy at its decision `real` after `bets` (see [`Lbr`]): all on the best action.
    fn decide(
        &mut self,
        real: &State,
        bets: &[Bet],
        legal: &[Action],
        probs: &mut [f64],
    ) -> anyhow::Result<()> {
        self.advance(real, bets)?;
        ensure!(
            !self.hidden.holdings().is_empty(),
            "LBR infers 1 to {MAX_DOWN} hidden cards: the opponent has none"
        );
        self.equities();
        let best = match self.lbr.lookahead {
            Lookahead::None => self.plain_best(real, bets, legal)?,
            Lookahead::Street => self.lookahead_best(bets, legal)?,
        };
        probs.fill(0.0);
        probs[best.1] = 1.0;
        Ok(())
    }

    /// The best of `legal` by the walk of the rest of the street ([`Walk`]), and its value per
    /// unit of the range's weight; the first action on a tie.
    fn lookahead_best(&mut self, bets: &[Bet], legal: &[Action]) -> anyhow::Result<(f64, usize)> {
        let total: f64 = self.hidden.holdings().iter().map(|h| h.weight).sum();
        let mut values = Vec::with_capacity(legal.len());
        Walk::new(&mut self.hidden, self.seat, &self.st, bets).action_values(
            &self.st,
            legal,
            &mut values,
        )?;
        let mut best = (f64::NEG_INFINITY, 0);
        for (i, v) in values.iter().enumerate() {
            if let Some(v) = v.map(|v| v / total) {
                if v > best.0 {
                    best = (v, i);
                }
            }
        }
        Ok(best)
    }

    /// The best of `legal` by plain LBR's valuation (see [`Lbr`]), and its value; the first
    /// action on a tie.
    fn plain_best(
        &mut self,
        real: &State,
        bets: &[Bet],
        legal: &[Action],
    ) -> anyhow::Result<(f64, usize)> {
        let (seat, opp) = (self.seat, 1 - self.seat);
        let total: f64 = self.hidden.holdings().iter().map(|h| h.weight).sum();
        let mean_eq: f64 = self
            .hidden
            .holdings()
            .iter()
            .map(|h| h.weight * h.equity)
            .sum::<f64>()
            / total;
        let pot = real.pot() as f64;
        let my_bet = real.round_bet(seat);
        let level = real.level();
        let call_value = |cost: f64| mean_eq * (pot + cost) - cost;
        let mut best = (f64::NEG_INFINITY, 0);
        for (i, &a) in legal.iter().enumerate() {
            let v = match a {
                Action::Fold => 0.0,
                Action::CheckCall => call_value((level - my_bet).min(real.stack(seat)) as f64),
                Action::BringIn => call_value(real.def().bring_in.min(real.stack(seat)) as f64),
                Action::CompleteBetRaise(to) => {
                    let cost = (to - my_bet) as f64;
                    let called = to.saturating_sub(real.round_bet(opp)) as f64;
                    let Some(folds) = self.folds_to(real, bets, a)? else {
                        // The opponent cannot answer this raise (its abstract game lacks
                        // it): LBR does not try it.
                        continue;
                    };
                    let column = self.hidden.column();
                    self.hidden
                        .holdings()
                        .iter()
                        .enumerate()
                        .map(|(j, h)| {
                            let f = if folds { column[j] } else { 0.0 };
                            let e = h.equity;
                            h.weight / total
                                * (f * pot + (1.0 - f) * (e * (pot + cost + called) - cost))
                        })
                        .sum()
                }
            };
            if v > best.0 {
                best = (v, i);
            }
        }
        Ok(best)
    }

    /// Whether the opponent may fold to LBR's raise `a` at `real` after `bets` (its chance of
    /// folding per holding then in the range's column); `None` if it cannot answer the raise.
    fn folds_to(&mut self, real: &State, bets: &[Bet], a: Action) -> anyhow::Result<Option<bool>> {
        let opp = 1 - self.seat;
        let mut child = self.st.clone();
        child.apply(a)?;
        let answer = child.legal_actions();
        let fold_at = answer.iter().position(|x| *x == Action::Fold);
        let answers = matches!(child.next(), Next::Act { seat } if seat == opp);
        Ok(match fold_at {
            Some(k) if answers => {
                let mut after = bets.to_vec();
                after.push((real.street(), a));
                let asked = self.hidden.policy_column(&child, &after, &answer, k);
                asked.is_ok().then_some(true)
            }
            _ => Some(false),
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::bot::range::{extend, Holding, MAX_ACTIONS};
    use crate::bot::{passive, AlwaysCall};
    use abstraction::cards::parse_cards;
    use abstraction::cards::Card;
    use rand::SeedableRng;
    use rand_chacha::ChaCha8Rng;

    use crate::bot::most_aggressive;
    use crate::bot::tests::PairRaiser;

    /// Third street of seven-card stud with the given cards (seat 0 brings in with the 2c),
    /// after seat 0's first action by [`PairRaiser`]: the state and the betting.
    fn after_first_action(seat0_down: &str) -> (State, Vec<Bet>) {
        let def = GameDef::preset("7stud").unwrap();
        let mut cards = [
            parse_cards(&format!("{seat0_down} 2c")).unwrap(),
            parse_cards("7s 7h Qd").unwrap(),
        ];
        let mut st = State::new(&def).unwrap();
        while let Next::Deal { seat: Some(s), .. } = st.next() {
            st.deal(cards[s as usize].remove(0)).unwrap();
        }
        assert_eq!(st.to_act(), Some(0));
        let legal = st.legal_actions();
        let mut probs = [0.0; MAX_ACTIONS];
        PairRaiser
            .policy(&st, &[], 0, &legal, &mut probs[..legal.len()])
            .unwrap();
        let a = legal[probs.iter().position(|&p| p == 1.0).unwrap()];
        st.apply(a).unwrap();
        (st, vec![(0, a)])
    }

    /// The range of LBR at `seat`'s decision `st` after `bets`, against `opponent`.
    fn range_at<'l>(lbr: &'l Lbr<'l>, st: &State, bets: &[Bet], seat: u8) -> Range<'l> {
        let mut r = Range::new(lbr, seat).unwrap();
        r.advance(st, bets).unwrap();
        r
    }

    #[test]
    fn the_range_holds_exactly_the_hidden_hands_consistent_with_the_actions_taken() {
        let def = Arc::new(GameDef::preset("7stud").unwrap());
        // Unseen by seat 1: 48 cards, C(48,2) = 1128 hands, of which 67 pairs (7s: 1, queens
        // and deuces: 3 each, ten other ranks: 6 each).
        for (down, pairs) in [("9s 9h", true), ("Ah Kd", false)] {
            let (st, bets) = after_first_action(down);
            for candidates in [Candidates::All, Candidates::Sample(300)] {
                let lbr = Lbr::new(&PairRaiser, Arc::clone(&def), 8, candidates).unwrap();
                let r = range_at(&lbr, &st, &bets, 1);
                let hands: Vec<&[Card]> =
                    r.hidden.holdings().iter().map(|h| &h.cards[..2]).collect();
                assert!(hands.iter().all(|c| (c[0].rank() == c[1].rank()) == pairs));
                assert!(hands.iter().all(|c| !c.contains(&st.up_cards(0)[0])));
                assert!(r.hidden.holdings().iter().all(|h| h.weight == 1.0));
                if candidates == Candidates::All {
                    assert_eq!(hands.len(), if pairs { 67 } else { 1128 - 67 });
                } else {
                    // 300 of the 1128 drawn, those of the other kind dropped.
                    assert!(hands.len() < 300 && !hands.is_empty(), "{}", hands.len());
                }
            }
        }
    }

    /// Seven-card stud dealt at random from `seed`, both seats checking and calling, up to
    /// seat 1's first decision on seventh street: the state and the betting.
    fn seventh_street(seed: u64) -> (State, Vec<Bet>) {
        let def = GameDef::preset("7stud").unwrap();
        let mut rng = ChaCha8Rng::seed_from_u64(seed);
        let mut st = State::new(&def).unwrap();
        let mut bets = Vec::new();
        loop {
            match st.next() {
                Next::Deal { .. } => {
                    st.deal_random(&mut rng).unwrap();
                }
                Next::Act { seat } if seat == 1 && st.street() == 4 => return (st, bets),
                Next::Act { .. } => {
                    let a = st.legal_actions()[passive(&st.legal_actions())];
                    bets.push((st.street(), a));
                    st.apply(a).unwrap();
                }
                Next::Over => unreachable!("nobody folds"),
            }
        }
    }

    #[test]
    fn the_exact_range_holds_every_holding_of_the_unseen_cards_and_a_sample_at_most_its_size() {
        let def = Arc::new(GameDef::preset("7stud").unwrap());
        let (st, bets) = seventh_street(7);
        // Seat 1 sees its 7 cards and the opponent's 4 up cards: 41 unseen. The opponent holds
        // two down cards from third street (a set) and one from seventh: C(41,2)·39 = 31,980.
        let seen: CardSet = st
            .up_cards(0)
            .iter()
            .chain(st.up_cards(1))
            .chain(st.down_cards(1).iter().flatten())
            .copied()
            .collect();
        assert_eq!(seen.len(), 11);
        for (candidates, count) in [
            (Candidates::All, Some(31_980)),
            (Candidates::Sample(256), None),
        ] {
            let lbr = Lbr::new(&AlwaysCall, Arc::clone(&def), 8, candidates).unwrap();
            let r = range_at(&lbr, &st, &bets, 1);
            let mut sets: Vec<(u64, Card)> = r
                .hidden
                .holdings()
                .iter()
                .map(|h| (h.set.0, h.cards[2]))
                .collect();
            sets.sort();
            sets.dedup();
            assert_eq!(
                sets.len(),
                r.hidden.holdings().len(),
                "holdings are distinct"
            );
            assert!(r.hidden.holdings().iter().all(|h| h.set.len() == 3
                && h.cards[0] < h.cards[1]
                && h.set.intersection(seen).is_empty()
                && h.weight == 1.0));
            if let Some(count) = count {
                assert_eq!(r.hidden.holdings().len(), count);
            } else {
                // 256 of the 1,128 third-street pairs, less those a later card struck, each
                // with one seventh-street card.
                assert!(
                    (150..256).contains(&r.hidden.holdings().len()),
                    "{}",
                    r.hidden.holdings().len()
                );
            }
        }
    }

    #[test]
    fn a_betting_that_does_not_lead_to_the_state_or_a_table_of_three_is_an_error() {
        let def = Arc::new(GameDef::preset("7stud").unwrap());
        let lbr = Lbr::new(&PairRaiser, Arc::clone(&def), 8, Candidates::All).unwrap();
        let (st, _) = after_first_action("Ah Kd");
        let legal = st.legal_actions();
        let mut probs = vec![0.0; legal.len()];
        let mut r = Range::new(&lbr, 1).unwrap();
        let e = r.decide(&st, &[], &legal, &mut probs).unwrap_err();
        assert!(
            e.to_string().contains("does not lead to this decision"),
            "{e}"
        );
        let mut three = GameDef::preset("7stud").unwrap();
        three.seats = 3;
        three.starting_stacks = vec![200; 3];
        let e = Lbr::new(&PairRaiser, Arc::new(three), 8, Candidates::All)
            .err()
            .unwrap();
        assert!(e.to_string().contains("heads-up"), "{e}");
    }

    #[test]
    fn candidates_are_all_or_a_positive_number() {
        assert_eq!("all".parse(), Ok(Candidates::All));
        assert_eq!("256".parse(), Ok(Candidates::Sample(256)));
        for bad in ["0", "-3", "some"] {
            assert!(bad.parse::<Candidates>().is_err(), "{bad}");
        }
        assert_eq!(Candidates::Sample(64).to_string(), "64");
    }

    #[test]
    fn extending_takes_each_street_s_down_cards_as_a_set_every_way_or_a_draw() {
        // Two down cards from an earlier street, a third from the last: C(5,2)·3 = 30.
        let pool = parse_cards("2c 3c 4c 5c 6c").unwrap();
        let mut rng = ChaCha8Rng::seed_from_u64(1);
        let (mut h, mut spare) = (vec![Holding::EMPTY], Vec::new());
        extend(&mut h, &mut spare, 0, 2, &pool, None, &mut rng);
        extend(&mut h, &mut spare, 2, 1, &pool, None, &mut rng);
        let cands: Vec<&[Card]> = h.iter().map(|h| &h.cards[..3]).collect();
        assert_eq!(cands.len(), 30);
        assert!(cands
            .iter()
            .all(|c| c[0] < c[1] && c[2] != c[0] && c[2] != c[1]));
        let mut distinct = cands.clone();
        distinct.sort();
        distinct.dedup();
        assert_eq!(distinct.len(), 30);
        // At most 4: four of the ten pairs, then one third card each.
        let mut h = vec![Holding::EMPTY];
        extend(&mut h, &mut spare, 0, 2, &pool, Some(4), &mut rng);
        let pairs: Vec<CardSet> = h.iter().map(|h| h.set).collect();
        assert_eq!(pairs.len(), 4);
        extend(&mut h, &mut spare, 2, 1, &pool, Some(4), &mut rng);
        assert_eq!(h.len(), 4);
        for (x, pair) in h.iter().zip(&pairs) {
            assert_eq!(x.set.minus(*pair).len(), 1);
            assert_eq!(x.set.intersection(*pair), *pair);
        }
        // Where every way fits, a sample is all of them.
        let mut h = vec![Holding::EMPTY];
        extend(&mut h, &mut spare, 0, 2, &pool, Some(10), &mut rng);
        assert_eq!(h.len(), 10);
    }
    /// A pure policy by the first down card: raises as much as it may with an ace, folds to a
    /// bet with a queen (where folding is legal), checks or calls otherwise; `raises: false`
    /// never bets or raises (it checks or calls with an ace).
    struct ByDownCard {
        raises: bool,
    }

    impl Player for ByDownCard {
        fn name(&self) -> &str {
            "by-down-card"
        }
        fn policy(
            &self,
            state: &State,
            _: &[Bet],
            seat: u8,
            legal: &[Action],
            probs: &mut [f64],
        ) -> anyhow::Result<Answer> {
            let first = state.down_cards(seat)[0].expect("the seat's own card");
            let rank = |c: &str| parse_cards(c).unwrap()[0].rank();
            let fold = legal.iter().position(|a| *a == Action::Fold);
            let k = match fold {
                Some(f) if first.rank() == rank("Qs") => f,
                _ if self.raises && first.rank() == rank("As") => most_aggressive(legal),
                _ => passive(legal),
            };
            probs.fill(0.0);
            probs[k] = 1.0;
            Ok(Answer::Own)
        }
    }

    /// A hand of `game` dealt at random from `seed`, LBR at `seat` acting at random (never
    /// folding) and `opp` by its pure policy, up to LBR's first decision on `street`: the state
    /// and the betting, or `None` if the hand ended before.
    fn lbr_decision(
        game: &str,
        seed: u64,
        seat: u8,
        opp: &dyn Player,
        street: usize,
    ) -> Option<(State, Vec<Bet>)> {
        let def = GameDef::preset(game).unwrap();
        let mut rng = ChaCha8Rng::seed_from_u64(seed);
        let mut st = State::new(&def).unwrap();
        let mut bets = Vec::new();
        loop {
            let a = match st.next() {
                Next::Deal { .. } => {
                    st.deal_random(&mut rng).unwrap();
                    continue;
                }
                Next::Over => return None,
                Next::Act { seat: s } if s == seat && st.street() == street => {
                    return Some((st, bets))
                }
                Next::Act { seat: s } => {
                    let legal = st.legal_actions();
                    let k = if s == seat {
                        let open: Vec<usize> = (0..legal.len())
                            .filter(|&k| legal[k] != Action::Fold)
                            .collect();
                        open[abstraction::draw::below(&mut rng, open.len())]
                    } else {
                        let mut probs = vec![0.0; legal.len()];
                        opp.policy(&st, &bets, s, &legal, &mut probs).unwrap();
                        probs.iter().position(|&p| p == 1.0).unwrap()
                    };
                    legal[k]
                }
            };
            bets.push((st.street(), a));
            st.apply(a).unwrap();
        }
    }

    /// The hand of `real` (LBR at `seat`) after `bets` replayed with the opponent's down card
    /// `card`, and the probability of the opponent's actions with it.
    fn replay_with(
        real: &State,
        bets: &[Bet],
        seat: u8,
        card: Card,
        opp: &dyn Player,
    ) -> (State, f64) {
        let mut st = State::new(real.def()).unwrap();
        let (mut read, mut weight) = (0, 1.0);
        loop {
            match st.next() {
                Next::Deal {
                    seat: Some(s),
                    deal,
                } => {
                    let c = match deal {
                        Deal::Down if s != seat => card,
                        Deal::Down => real.down_cards(s)[st.down_cards(s).len()].unwrap(),
                        _ => real.up_cards(s)[st.up_cards(s).len()],
                    };
                    st.deal(c).unwrap();
                }
                Next::Act { .. } if read == bets.len() => return (st, weight),
                Next::Act { seat: s } => {
                    let (legal, a) = (st.legal_actions(), bets[read].1);
                    if s != seat {
                        let mut probs = vec![0.0; legal.len()];
                        opp.policy(&st, &bets[..read], s, &legal, &mut probs)
                            .unwrap();
                        weight *= probs[legal.iter().position(|x| *x == a).unwrap()];
                    }
                    st.apply(a).unwrap();
                    read += 1;
                }
                other => panic!("no community cards here, and the hand goes on: {other:?}"),
            }
        }
    }

    /// The exact best response of LBR at `seat` from the decision the hands of `states` share
    /// (the same public history, the opponent's card differing) to the end of the hand: LBR's
    /// chips plus `root` (what it had put in), summed over the hands by weight, from the rules
    /// engine's payoffs.
    fn best_response(
        states: &[(State, f64)],
        bets: &mut Vec<Bet>,
        seat: u8,
        root: f64,
        opp: &dyn Player,
    ) -> f64 {
        let st = &states[0].0;
        match st.next() {
            Next::Over => states
                .iter()
                .map(|(s, w)| w * (s.payoffs().unwrap()[seat as usize] as f64 + root))
                .sum(),
            Next::Act { seat: s } => {
                let legal = st.legal_actions();
                let values = legal.iter().enumerate().map(|(k, &a)| {
                    let mut children = Vec::new();
                    for (x, w) in states {
                        let mut p = 1.0;
                        if s != seat {
                            let mut probs = vec![0.0; legal.len()];
                            opp.policy(x, bets, s, &legal, &mut probs).unwrap();
                            p = probs[k];
                        }
                        if w * p > 0.0 {
                            let mut c = x.clone();
                            c.apply(a).unwrap();
                            children.push((c, w * p));
                        }
                    }
                    if children.is_empty() {
                        return 0.0;
                    }
                    bets.push((st.street(), a));
                    let v = best_response(&children, bets, seat, root, opp);
                    bets.pop();
                    v
                });
                if s == seat {
                    values.fold(f64::NEG_INFINITY, f64::max)
                } else {
                    values.sum()
                }
            }
            Next::Deal { .. } => panic!("the walk is on the last street"),
        }
    }

    #[test]
    fn on_the_last_street_the_lookahead_is_the_exact_best_response_to_the_range() {
        // yardstud: one hidden card, so the range is exact; the last street's walk is the
        // whole rest of the hand, against an opponent that raises, calls and folds.
        let def = Arc::new(GameDef::preset("yardstud").unwrap());
        let opp = ByDownCard { raises: true };
        let mut checked = 0;
        for seed in 0..60 {
            let seat = (seed % 2) as u8;
            let Some((real, bets)) = lbr_decision("yardstud", seed, seat, &opp, 2) else {
                continue;
            };
            let lbr = Lbr::new(&opp, Arc::clone(&def), 4, Candidates::All).unwrap();
            let mut r = range_at(&lbr, &real, &bets, seat);
            r.equities();
            let legal = real.legal_actions();
            let mut values = Vec::new();
            Walk::new(&mut r.hidden, seat, &r.st, &bets)
                .action_values(&r.st, &legal, &mut values)
                .unwrap();
            let total: f64 = r.hidden.holdings().iter().map(|h| h.weight).sum();
            // Independently: every card the opponent may hold, weighed by its policy along
            // the hand, and the rest of the hand walked with the cards known.
            let seen: CardSet = real
                .up_cards(0)
                .iter()
                .chain(real.up_cards(1))
                .chain(real.down_cards(seat).iter().flatten())
                .copied()
                .collect();
            let hands: Vec<(State, f64)> = def
                .deck
                .cards()
                .minus(seen)
                .iter()
                .map(|c| replay_with(&real, &bets, seat, c, &opp))
                .filter(|(_, w)| *w > 0.0)
                .collect();
            let weight: f64 = hands.iter().map(|h| h.1).sum();
            assert!(
                (weight - total).abs() < 1e-12,
                "seed {seed}: {weight} {total}"
            );
            let root = real.committed(seat) as f64;
            for (k, &a) in legal.iter().enumerate() {
                let children: Vec<(State, f64)> = hands
                    .iter()
                    .map(|(s, w)| {
                        let mut c = s.clone();
                        c.apply(a).unwrap();
                        (c, *w)
                    })
                    .collect();
                let mut b = bets.clone();
                b.push((real.street(), a));
                let exact = best_response(&children, &mut b, seat, root, &opp) / weight;
                let walked = values[k].unwrap() / total;
                assert!(
                    (exact - walked).abs() < 1e-9,
                    "seed {seed}, {a}: {exact} {walked}"
                );
            }
            checked += 1;
        }
        assert!(checked >= 20, "{checked} decisions checked");
    }

    #[test]
    fn the_lookahead_finds_at_least_plain_lbr_s_value_against_a_player_who_never_raises() {
        // Against a player who only checks, calls or folds, plain LBR's valuation of each
        // action is the walk's value of that action followed by checking and calling: the
        // walk's best is at least plain LBR's best.
        let opp = ByDownCard { raises: false };
        let mut checked = 0;
        for (game, streets) in [("yardstud", 3), ("7stud", 5)] {
            let def = Arc::new(GameDef::preset(game).unwrap());
            for seed in 0..24 {
                let (seat, street) = ((seed % 2) as u8, seed as usize % streets);
                let Some((real, bets)) = lbr_decision(game, seed, seat, &opp, street) else {
                    continue;
                };
                let lbr = Lbr::new(&opp, Arc::clone(&def), 8, Candidates::Sample(64)).unwrap();
                let lbr = lbr.with_lookahead(Lookahead::Street);
                let mut r = range_at(&lbr, &real, &bets, seat);
                r.equities();
                let legal = real.legal_actions();
                let plain = r.plain_best(&real, &bets, &legal).unwrap();
                let walked = r.lookahead_best(&bets, &legal).unwrap();
                assert!(
                    walked.0 >= plain.0 - 1e-9,
                    "{game} seed {seed}: {walked:?} {plain:?}"
                );
                checked += 1;
            }
        }
        assert!(checked >= 20, "{checked} decisions checked");
    }

    #[test]
    fn the_lookahead_is_none_or_street() {
        assert_eq!("street".parse(), Ok(Lookahead::Street));
        assert_eq!("none".parse(), Ok(Lookahead::None));
        assert!("two"
            .parse::<Lookahead>()
            .unwrap_err()
            .contains("`none` or `street`"));
        assert_eq!(Lookahead::Street.to_string(), "street");
    }
}
