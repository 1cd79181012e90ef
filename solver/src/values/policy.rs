//! The exact values of actions at a decision of an exact multiway policy (kuhn-3p, leduc-3p,
//! tristud: [`Policy`], the JSON the exact solver writes), in the solved game itself: its whole
//! tree, its payoffs (a split pot of Kuhn and Leduc shared exactly, as the solver scores it).
//!
//! The tree is walked from its root beside the rules engine replaying the spot: every deal of
//! the down cards so far (the player's own fixed to `--hand` when given), the spot's up and
//! community cards and actions followed; a history reaching the decision weighs by chance and
//! the other seats' probabilities (`others`) and by the player's own (`own`). Below it each
//! action's child is valued by the expectation over the cards to come and every seat's policy.
//! A hand's value of an action is its histories' values weighed by `others`, over their sum:
//! the counterfactual value of the information set over its reach, which the exact solver's
//! sweep computes another way ([`crate::multiway::reach_and_values`]; the tests compare both).
//! The range weighs each history by `own × others`.

use super::{Line, Method, Values};
use crate::bot::Bet;
use crate::strategy_file::policy::Policy;
use abstraction::cards::Card;
use abstraction::history_tree::HistoryKind;
use abstraction::rules::{Deal, Next, State};
use anyhow::{bail, ensure, Context, Result};

/// A history reaching the decision: its node, and the reach by chance and the other seats,
/// and by the player's own actions.
struct Reached {
    node: usize,
    others: f64,
    own: f64,
}

/// The walk to the decision: the policy, the spot and the player.
struct Walk<'a> {
    policy: &'a Policy,
    spot: &'a State,
    bets: &'a [Bet],
    seat: u8,
    hand: Option<&'a [Card]>,
}

impl Walk<'_> {
    /// Follows the spot from history `node` (the state `st`, its first `i` bets made),
    /// collecting the histories that reach the decision; a card the spot shows that this deal
    /// gave to another seat ends the branch.
    fn reach(
        &self,
        node: usize,
        st: State,
        i: usize,
        r: (f64, f64),
        out: &mut Vec<Reached>,
    ) -> Result<()> {
        let tree = &self.policy.tree;
        let n = tree.nodes[node];
        let (others, own) = r;
        match (n.kind, st.next()) {
            (HistoryKind::Chance, Next::Deal { deal, seat }) => {
                let p = 1.0 / n.num_children as f64;
                let cards: Vec<Card> = st.unseen().iter().collect();
                ensure!(
                    cards.len() == n.num_children as usize,
                    "the tree and the rules deal apart"
                );
                let wanted = self.wanted(&st, deal, seat)?;
                for (c, card) in n.children().zip(cards) {
                    if wanted.is_some_and(|w| w != card) {
                        continue;
                    }
                    let mut next = st.clone();
                    next.deal(card)?;
                    self.reach(c, next, i, (others * p, own), out)?;
                }
                Ok(())
            }
            (HistoryKind::Action, Next::Act { seat }) if i == self.bets.len() => {
                ensure!(
                    seat == self.seat,
                    "the spot's replay reached another seat's turn"
                );
                if others > 0.0 && (self.hand.is_some() || own > 0.0) {
                    out.push(Reached { node, others, own });
                }
                Ok(())
            }
            (HistoryKind::Action, Next::Act { seat }) => {
                let (_, a) = self.bets[i];
                let slot = tree.infosets[n.index as usize].first_slot as usize;
                let Some(j) = (0..n.num_children as usize).find(|&j| tree.actions[slot + j] == a)
                else {
                    bail!(
                        "step {} ({a}): not an action of the solved game here",
                        i + 1
                    );
                };
                let p = self.policy.strategy[slot + j];
                let r = if seat == self.seat {
                    (others, own * p)
                } else {
                    (others * p, own)
                };
                let mut next = st;
                next.apply(a)?;
                self.reach(n.first_child as usize + j, next, i + 1, r, out)
            }
            _ => bail!("the hand is over before the spot"),
        }
    }

    /// The card the spot deals here, if it says which: an up or community card as shown, the
    /// player's own down card as given; `None` for a down card no one has seen (every card).
    fn wanted(&self, st: &State, deal: Deal, seat: Option<u8>) -> Result<Option<Card>> {
        Ok(match (deal, seat) {
            (Deal::Down, Some(s)) if s == self.seat => {
                let k = st.down_cards(s).len();
                self.hand
                    .map(|h| h.get(k).copied().context("--hand has too few down cards"))
                    .transpose()?
            }
            (Deal::Down, _) => None,
            (_, Some(s)) => {
                let c = self.spot.up_cards(s).get(st.up_cards(s).len());
                Some(*c.context("the spot shows fewer cards than its replay deals")?)
            }
            (_, None) => {
                let c = self.spot.community_cards().get(st.community_cards().len());
                Some(*c.context("the spot shows fewer cards than its replay deals")?)
            }
        })
    }

    /// The player's expected result of the hand (net chips) at history `node`, every card to
    /// come equally likely and every seat playing the policy.
    fn below(&self, node: usize) -> f64 {
        let tree = &self.policy.tree;
        let n = &tree.nodes[node];
        match n.kind {
            HistoryKind::Terminal => tree.payoffs_of(n)[self.seat as usize],
            HistoryKind::Chance => {
                n.children().map(|c| self.below(c)).sum::<f64>() / n.num_children as f64
            }
            HistoryKind::Action => {
                let slot = tree.infosets[n.index as usize].first_slot as usize;
                n.children()
                    .enumerate()
                    .map(|(a, c)| (a, c, self.policy.strategy[slot + a]))
                    .filter(|&(_, _, p)| p > 0.0)
                    .map(|(_, c, p)| p * self.below(c))
                    .sum()
            }
        }
    }
}

/// The exact values at the decision `state` (reached by `bets`, down cards unknown) of
/// `policy`'s game, every seat playing the policy: for `hand` (the player's down cards) if
/// given, else over the player's range.
pub fn exact(
    policy: &Policy,
    state: &State,
    bets: &[Bet],
    hand: Option<&[Card]>,
) -> Result<Values> {
    let started = std::time::Instant::now();
    let seat = state.to_act().context("no one to act")?;
    let walk = Walk {
        policy,
        spot: state,
        bets,
        seat,
        hand,
    };
    let mut reached = Vec::new();
    walk.reach(0, State::new(&policy.game)?, 0, (1.0, 1.0), &mut reached)?;
    ensure!(
        !reached.is_empty(),
        "no deal reaches this decision{}",
        if hand.is_some() {
            " with this hand"
        } else {
            ""
        }
    );
    let tree = &policy.tree;
    let first = tree.nodes[reached[0].node];
    let slot = tree.infosets[first.index as usize].first_slot as usize;
    let actions = tree.actions[slot..slot + first.num_children as usize].to_vec();
    let values = |weight: &dyn Fn(&Reached) -> f64| -> Vec<(f64, Vec<f64>)> {
        reached
            .iter()
            .map(|r| {
                let n = tree.nodes[r.node];
                (weight(r), n.children().map(|c| walk.below(c)).collect())
            })
            .collect()
    };
    let committed = state.committed(seat) as f64;
    let (hand_line, range) = match hand {
        Some(_) => (
            Some(
                Line::exact(&values(&|r| r.others), committed, true)
                    .context("no deal reaches this hand")?,
            ),
            None,
        ),
        None => (
            None,
            Some(
                Line::exact(&values(&|r| r.own * r.others), committed, true).with_context(
                    || {
                        format!(
                            "{}'s own policy never plays to this decision: give --hand to value a \
                     hand here",
                            abstraction::rules::seat_name(seat)
                        )
                    },
                )?,
            ),
        ),
    };
    Ok(Values {
        method: Method::Exact,
        seat,
        actions,
        committed: state.committed(seat),
        pot: state.pot(),
        big_bet: policy.game.big_bet,
        hand: hand_line,
        range,
        classes: Vec::new(),
        classes_unsampled: 0,
        millis: started.elapsed().as_secs_f64() * 1e3,
    })
}
