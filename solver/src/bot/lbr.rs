//! Local best response (Lisý and Bowling 2017) against a strategy file, adapted to stud: a
//! lower bound on the strategy's exploitability in the real game.

use super::heuristic::equity;
use super::{Bet, Player, StrategyPlayer};
use abstraction::cards::CardSet;
use abstraction::rules::{Action, State};
use abstraction::tree::NodeKind;
use std::sync::Arc;

/// At each of its decisions, LBR infers the strategy's range over its hidden card from the
/// strategy's own probabilities of the actions it took (Bayes' rule), and picks the action of
/// best expected value assuming the rest of the hand is checked down: folding is worth 0,
/// checking or calling `equity × (pot + cost) − cost`, and a bet or raise adds the chance that
/// the strategy folds to it (read from the strategy at the node the raise leads to), the
/// strategy calling otherwise.
pub struct Lbr {
    /// The strategy exploited: LBR reads its probabilities.
    pub strategy: Arc<StrategyPlayer>,
    /// Rollouts per equity estimate (cards still to come).
    pub rollouts: u32,
}

impl Player for Lbr {
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
    ) -> anyhow::Result<()> {
        let opp = 1 - seat;
        let s = &self.strategy;
        let mut past = Vec::new();
        let node = s.walk(state, bets, |node, player, a| {
            if player == opp {
                past.push((node, a));
            }
            Ok(())
        })?;
        // The strategy's possible hidden cards: those this seat has not seen.
        let mut seen: CardSet = state.community_cards().iter().copied().collect();
        for p in [seat, opp] {
            seen = seen.union(state.up_cards(p).iter().copied().collect());
        }
        seen = seen.union(state.down_cards(seat).iter().flatten().copied().collect());
        let mut range = Vec::new();
        for h in state.def().deck.cards().minus(seen).iter() {
            let mut w = 1.0;
            for &(n, a) in &past {
                w *= s.action_probability(n, h, a)?;
            }
            range.push((h, w));
        }
        let total: f64 = range.iter().map(|r| r.1).sum();
        if total <= 0.0 {
            // Off the strategy's own paths: every card is as likely.
            range.iter_mut().for_each(|r| r.1 = 1.0);
        }
        let total: f64 = range.iter().map(|r| r.1).sum();
        let eq: Vec<f64> = range
            .iter()
            .map(|&(h, _)| equity(state, seat, Some((opp, CardSet::single(h))), self.rollouts))
            .collect();
        let mean_eq: f64 = range.iter().zip(&eq).map(|(r, e)| r.1 * e).sum::<f64>() / total;
        let pot = state.pot() as f64;
        let my_bet = state.round_bet(seat);
        let level = my_bet.max(state.round_bet(opp));
        let call_value = |cost: f64| mean_eq * (pot + cost) - cost;
        let mut best = (f64::NEG_INFINITY, 0);
        for (i, &a) in legal.iter().enumerate() {
            let v = match a {
                Action::Fold => 0.0,
                Action::CheckCall => call_value((level - my_bet).min(state.stack(seat)) as f64),
                Action::BringIn => call_value(state.def().bring_in.min(state.stack(seat)) as f64),
                Action::CompleteBetRaise(r) => {
                    let Some(child) = s.child(node, a)? else {
                        continue; // not in the abstract game: the strategy has no answer
                    };
                    let cost = (r - my_bet) as f64;
                    let called = r.saturating_sub(state.round_bet(opp)) as f64;
                    let answers = s.node_kind(child)? == NodeKind::Action as u8;
                    let mut v = 0.0;
                    for ((h, w), e) in range.iter().zip(&eq) {
                        let fold = if answers {
                            s.action_probability(child, *h, Action::Fold)?
                        } else {
                            0.0
                        };
                        v += w / total
                            * (fold * pot + (1.0 - fold) * (e * (pot + cost + called) - cost));
                    }
                    v
                }
            };
            if v > best.0 {
                best = (v, i);
            }
        }
        probs.fill(0.0);
        probs[best.1] = 1.0;
        Ok(())
    }
}
