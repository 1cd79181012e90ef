//! A walked solve's average strategy as it ended, unrounded, as a player: what the solve's
//! reported exploitability measures, where its strategy file stores each probability rounded.
//! Programs of the library (the Python package) measure it with another best response.

use super::{normalize_or_fall_back, Answer, Bet, Player};
use crate::policy::public_events;
use crate::solve::report::Average;
use abstraction::rules::seat_name;
use abstraction::rules::{Action, State};
use abstraction::tree::{Edge, NodeKind, NONE};
use anyhow::{bail, Context};
use std::sync::Arc;

/// Plays a walked solve's unrounded average ([`Average`], from its report): at each decision,
/// the normalized average-strategy mass of the row of the seat's one private card at the public
/// tree's node the spot's public events lead to.
pub struct AveragePlayer {
    average: Arc<Average>,
    name: String,
}

impl AveragePlayer {
    /// The player of `average`, named `name` in reports.
    pub fn new(average: Arc<Average>, name: String) -> AveragePlayer {
        AveragePlayer { average, name }
    }

    /// The solve's average.
    pub fn average(&self) -> &Average {
        &self.average
    }

    /// The node of the public tree the public events of `state` and `bets` lead to.
    fn node(&self, state: &State, bets: &[Bet]) -> anyhow::Result<usize> {
        let tree = &self.average.tree;
        let mut node = 0;
        for e in public_events(state, bets) {
            node = tree
                .children(node)
                .find(|&c| tree.edges[c] == e)
                .with_context(|| format!("{e:?} is not in the solve's tree"))?;
        }
        Ok(node)
    }
}

impl Player for AveragePlayer {
    fn name(&self) -> &str {
        &self.name
    }

    fn policy(
        &self,
        state: &State,
        bets: &[Bet],
        seat: u8,
        legal: &[Action],
        probs: &mut [f64],
    ) -> anyhow::Result<Answer> {
        let tree = &self.average.tree;
        let i = self.node(state, bets)?;
        let n = &tree.nodes[i];
        if n.kind != NodeKind::Action || n.seat != seat {
            bail!(
                "the solve's tree has no decision of {} here",
                seat_name(seat)
            );
        }
        let card = match state.down_cards(seat) {
            [Some(c)] => *c,
            _ => bail!("the solve plays games with exactly one known down card per seat"),
        };
        let hand = tree.hand_of_card[card.id() as usize];
        let bucket = match hand {
            NONE => NONE,
            h => tree.bucket_table(n.board, seat)[h as usize],
        };
        if bucket == NONE {
            bail!("{card} is not a hand of the solve's tree here");
        }
        // The row as the exact best response reads it (`best_response::average_strategy`):
        // the mass normalized, uniform where there is none.
        let k = n.num_children as usize;
        let at = n.first_slot() as usize + bucket as usize * k;
        let mut row = self.average.mass[at..at + k].to_vec();
        crate::kernel::normalize(&mut row);
        probs.fill(0.0);
        for (c, &p) in tree.children(i).zip(&row) {
            if let Edge::Action(a) = tree.edges[c] {
                if let Some(j) = legal.iter().position(|&x| x == a) {
                    probs[j] += p;
                }
            }
        }
        Ok(normalize_or_fall_back(legal, probs))
    }
}

#[cfg(test)]
mod tests {
    use super::AveragePlayer;
    use crate::resolve::verify::exploitability_of;
    use crate::solve::{drive, Request, Results, Settings};
    use abstraction::rules::GameDef;
    use std::sync::Arc;

    /// A walked solve's average, played: the library's best response of the player gives the
    /// solve's own reported exploitability (the file's rounding would move it by 1e-7 and more).
    #[test]
    fn the_average_plays_the_exploitability_the_solve_reports() {
        let dir = std::env::temp_dir().join(format!("stud-average-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        for game in ["kuhn", "leduc"] {
            let def = GameDef::preset(game).unwrap();
            let request = Request {
                settings: Settings::default_for(&def),
                measure_at: Default::default(),
                game: def.clone(),
                name: game.into(),
                iterations: Some(50),
                time: None,
                out: Some(dir.join(format!("{game}.strat"))),
                keep_checkpoint: false,
                resume: false,
                seed: 0,
                abstraction_dir: dir.clone(),
                lock: None,
            };
            let report = drive(&request, &mut ()).unwrap();
            let Results::Walked(w) = report.results else {
                panic!("{game}: not a walked solve");
            };
            let player = AveragePlayer::new(Arc::clone(&w.average), game.into());
            let e = exploitability_of(&def, &player).unwrap();
            assert!(
                (e.chips - w.exploitability).abs() < 1e-12,
                "{game}: {} played, {} reported",
                e.chips,
                w.exploitability
            );
        }
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
