//! `stud query`'s re-solving answer (`--resolve`): the last street re-solved at the spot, or
//! the last two from a spot on the street before the last (sixth street in seven-card stud; see
//! [`crate::resolve`]), from the ranges the strategy implies, the re-solved policy of the hand
//! beside the strategy's row. The answer as data ([`Answer`]) and as `stud query --resolve
//! --json` writes it ([`Answer::json`]).

use super::spot::Step;
use super::spot::{action_words, cards_text, parse_holding, replay, Holding, Replayed};
use crate::bot::{Bet, Player, StrategyPlayer};
use crate::purify::Purification;
use crate::resolve::{Budget, Options, Report, Subgame};
use crate::strategy_file::StrategyFile;
use abstraction::cards::CardSet;
use abstraction::rules::seat_name;
use abstraction::rules::{Action, State};
use anyhow::{bail, Context, Result};
use std::path::Path;

/// The iterations of a re-solve when no budget is given.
pub const DEFAULT_ITERATIONS: u64 = 100;

/// What is asked of a re-solve: `stud query --resolve`'s `--hand`, budget, `--safe`, `--floor`.
#[derive(Clone, Copy, Debug)]
pub struct Ask<'a> {
    /// The cards of the player to act (see [`super::spot::Holding`]).
    pub hand: &'a str,
    /// How long the re-solve runs.
    pub budget: Budget,
    /// Whether the opponent enters through the re-solving gadget (a safe re-solve).
    pub safe: bool,
    /// The least probability by which an action taken weighs a holding in the ranges.
    pub floor: f64,
}

/// `stud query --resolve`'s answer.
#[derive(Clone, Debug)]
pub struct Answer {
    /// The seat to act.
    pub seat: u8,
    /// The street (0-based).
    pub street: usize,
    /// The street as players name it.
    pub street_name: String,
    /// The hand in stud notation, the down cards bracketed (`(AsKd2s) QsTh9c`).
    pub hand: String,
    /// The subgame's actions there as PHH codes.
    pub codes: Vec<String>,
    /// The same in a player's words.
    pub names: Vec<String>,
    /// The strategy's row as stored, over the same actions.
    pub blueprint: Vec<f64>,
    /// The re-solved policy of the hand.
    pub resolved: Vec<f64>,
    /// The question asked (budget, safety, floor).
    pub budget: Budget,
    /// Whether the re-solve was safe.
    pub safe: bool,
    /// The floor of the ranges.
    pub floor: f64,
    /// What the re-solve reports: the subgame's size, its times, how good its solve is.
    pub subgame: Report,
}

impl Answer {
    /// The answer as `stud query --resolve --json` writes it.
    pub fn json(&self) -> serde_json::Value {
        serde_json::json!({
            "seat": self.seat,
            "street": self.street,
            "street_name": self.street_name,
            "hand": self.hand,
            "actions": self.codes,
            "action_names": self.names,
            "blueprint": self.blueprint,
            "resolved": self.resolved,
            "budget": self.budget,
            "method": if self.safe { "safe" } else { "unsafe" },
            "floor": self.floor,
            "subgame": self.subgame,
        })
    }
}

/// `stud query --resolve`'s answer on the strategy file `f`, opened from `path`: the spot
/// replayed, the subgame from its street's first decision built from the ranges the strategy
/// implies, re-solved, and the hand's policy at the spot read beside the strategy's row.
pub fn answer(f: &StrategyFile, path: &Path, ask: Ask<'_>, steps: &[Step]) -> Result<Answer> {
    let f = match f {
        StrategyFile::Betting(f) => f,
        StrategyFile::Multiway(_) => bail!(
            "--resolve reads a heads-up strategy; {} is a multiway file (three or more seats)",
            path.display()
        ),
        StrategyFile::Public(_) => bail!(
            "--resolve re-solves a real game's strategy (a betting-tree file); {} is solved \
             exactly already",
            path.display()
        ),
    };
    let def = f.header().game.clone();
    let holding = parse_holding(ask.hand)?;
    let Replayed {
        mut state, bets, ..
    } = replay(&def, steps)?;
    let seat = state
        .to_act()
        .context("the spot is at no decision of the last street")?;
    let down: CardSet = holding.down.iter().copied().collect();
    check_up(&holding, &state, seat)?;
    // The ranges take a second or two: what the hand alone can refuse is refused first.
    check_down(&holding, &state, seat)?;
    let path = path.to_str().context("the file's path is not UTF-8")?;
    // The ranges come from the strategy as it plays; the column beside is its row as stored.
    let player = StrategyPlayer::open(path, &def)?;
    let stored = StrategyPlayer::open(path, &def)?.with_purification(Purification::Mixed);
    // From the first decision of the spot's street: the last, or the one before it.
    let options = Options {
        floor: ask.floor,
        ..Default::default()
    };
    let sub = Subgame::at(&player, &state, &bets, options)?;
    let hand = sub.hand_index(&holding.down).with_context(|| {
        format!(
            "--hand {}: {} down cards none of which shows in the spot are needed here",
            cards_text(down),
            state.down_cards(seat).len()
        )
    })?;
    let node = sub
        .node_after(&bets)?
        .context("the spot's betting goes past the game's cap of bets on a street")?;
    let safety = match ask.safe {
        true => Some(sub.safety(&player, seat, crate::gadget::GadgetKind::Resolve)?),
        false => None,
    };
    let resolved = sub.solve(ask.budget, safety.as_ref())?;
    let re = resolved.strategy(node, hand);
    let actions = sub.actions(node);
    state.show(seat, &holding.down).context("--hand")?;
    let blueprint = blueprint_row(&stored, &state, &bets, seat, &actions)?;
    let hand = format!(
        "({}) {}",
        cards_text(down),
        cards_text(state.up_cards(seat).iter().copied().collect())
    );
    Ok(Answer {
        seat,
        street: state.street(),
        street_name: def.street_name(state.street()),
        hand,
        codes: actions
            .iter()
            .map(|a| a.to_string().replace(' ', ""))
            .collect(),
        names: actions.iter().map(|&a| action_words(&state, a)).collect(),
        blueprint,
        resolved: re,
        budget: ask.budget,
        safe: ask.safe,
        floor: ask.floor,
        subgame: resolved.report(&sub),
    })
}

/// The blueprint's row as stored (`stored`) at `seat`'s decision in `state`, over the
/// subgame's `actions` (an action the real spot does not allow: 0).
fn blueprint_row(
    stored: &StrategyPlayer,
    state: &State,
    bets: &[Bet],
    seat: u8,
    actions: &[Action],
) -> Result<Vec<f64>> {
    let legal = state.legal_actions();
    let mut probs = vec![0.0; legal.len()];
    stored.policy(state, bets, seat, &legal, &mut probs)?;
    Ok(actions
        .iter()
        .map(|a| legal.iter().position(|x| x == a).map_or(0.0, |i| probs[i]))
        .collect())
}

/// Refuses a `--hand` whose up cards (when it gives them) are not the ones the spot dealt
/// `seat`.
fn check_up(holding: &Holding, state: &State, seat: u8) -> Result<()> {
    if let Some(up) = &holding.up {
        let given: CardSet = up.iter().copied().collect();
        let dealt: CardSet = state.up_cards(seat).iter().copied().collect();
        if given != dealt {
            bail!(
                "--hand: its up cards ({}) are not the ones the spot dealt {} ({})",
                cards_text(given),
                seat_name(seat),
                cards_text(dealt)
            );
        }
    }
    Ok(())
}

/// Refuses a `--hand` whose down cards are not as many as the spot dealt `seat`, or show in the
/// spot (an up card of either seat): no holding of the subgame could be it.
fn check_down(holding: &Holding, state: &State, seat: u8) -> Result<()> {
    let need = state.down_cards(seat).len();
    if holding.down.len() != need {
        bail!(
            "--hand {}: {need} down cards are needed here, not {}",
            cards_text(holding.down.iter().copied().collect()),
            holding.down.len()
        );
    }
    let def = state.def();
    for s in 0..def.seats {
        if let Some(c) = holding.down.iter().find(|c| state.up_cards(s).contains(c)) {
            bail!(
                "--hand: {c} is {}'s up card in the spot, not a down card",
                seat_name(s)
            );
        }
    }
    Ok(())
}
