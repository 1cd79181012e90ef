//! A player checked against a profile on a walkable game's whole tree: hands played through
//! the rules engine, the player asked at every decision, its probabilities compared with the
//! profile's at the history reached (`stud eval multiway` checks a sampled solve's file so,
//! against its strategy lifted by [`crate::multiway::lift`]).

use super::{Bet, Player};
use abstraction::draw::below;
use abstraction::history_tree::{HistoryKind, HistoryTree};
use abstraction::rules::seat_name;
use abstraction::rules::{GameDef, Next, State};
use anyhow::{ensure, Context, Result};
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;

/// What [`check_player`] found.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Checked {
    /// Hands played.
    pub hands: usize,
    /// Decisions compared.
    pub decisions: usize,
    /// The largest difference of an action's probability between the player and the lift.
    pub max_difference: f64,
}

/// Plays `hands` random hands of `def` through the rules engine (cards dealt at random, every
/// action the tree keeps equally likely, seeded by `seed`) and, at each decision, compares
/// `player`'s probability of each action with `policy`'s (a profile on `tree`, the game tree
/// of `def`) at the history the hand has reached.
pub fn check_player(
    tree: &HistoryTree,
    def: &GameDef,
    policy: &[f64],
    player: &dyn Player,
    hands: usize,
    seed: u64,
) -> Result<Checked> {
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let mut out = Checked {
        hands,
        ..Checked::default()
    };
    let mut probs = Vec::new();
    for _ in 0..hands {
        let mut state = State::new(def)?;
        let mut bets: Vec<Bet> = Vec::new();
        let mut at = 0usize;
        loop {
            let node = tree.nodes[at];
            match state.next() {
                Next::Over => {
                    ensure!(node.kind == HistoryKind::Terminal, "the hand ended early");
                    break;
                }
                Next::Deal { .. } => {
                    let unseen = state.unseen();
                    let k = unseen.len() as usize;
                    ensure!(
                        node.kind == HistoryKind::Chance && node.num_children as usize == k,
                        "a deal of {k} cards where the tree has {:?}",
                        node.kind
                    );
                    let j = below(&mut rng, k);
                    let card = unseen.iter().nth(j).context("a card to deal")?;
                    state.deal(card)?;
                    at = node.first_child as usize + j;
                }
                Next::Act { seat } => {
                    ensure!(
                        node.kind == HistoryKind::Action && node.seat == seat,
                        "{} to act where the tree has {:?}",
                        seat_name(seat),
                        node.kind
                    );
                    let legal = state.legal_actions();
                    probs.clear();
                    probs.resize(legal.len(), 0.0);
                    player.policy(&state, &bets, seat, &legal, &mut probs)?;
                    let set = tree.infosets[node.index as usize];
                    let s = set.first_slot as usize;
                    for a in 0..set.actions as usize {
                        let i = (legal.iter().position(|&l| l == tree.actions[s + a]))
                            .context("an action of the tree the engine does not allow")?;
                        let d = (probs[i] - policy[s + a]).abs();
                        out.max_difference = out.max_difference.max(d);
                    }
                    out.decisions += 1;
                    let a = below(&mut rng, set.actions as usize);
                    let action = tree.actions[s + a];
                    bets.push((state.street(), action));
                    state.apply(action)?;
                    at = node.first_child as usize + a;
                }
            }
        }
    }
    Ok(out)
}
