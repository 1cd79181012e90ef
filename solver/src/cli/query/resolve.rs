//! `stud query FILE SPOT --hand CARDS --resolve`: the last street re-solved at the spot, or the
//! last two from a spot on the street before the last (sixth street in seven-card stud; see
//! `solver::resolve`), the re-solved policy of the hand beside the strategy's.

use super::spot::{cards_text, parse_holding, replay_betting, Holding, Replayed, Step};
use super::Args;
use crate::cli::action_words;
use abstraction::cards::CardSet;
use abstraction::rules::{Action, State};
use anyhow::{bail, Context, Result};
use solver::bot::{Bet, Player, StrategyPlayer};
use solver::purify::Purification;
use solver::resolve::{Budget, Options, Report, Subgame};
use solver::strategy_file::StrategyFile;

/// The iterations of a re-solve when neither `--iterations` nor `--budget-ms` is given.
const DEFAULT_ITERATIONS: u64 = 100;

/// Runs `stud query --resolve`.
pub(super) fn run(f: &StrategyFile, args: &Args, steps: &[Step]) -> Result<()> {
    let StrategyFile::Betting(f) = f else {
        bail!(
            "--resolve re-solves a real game's strategy (a betting-tree file); {} is solved \
             exactly already",
            args.file.display()
        );
    };
    let def = f.header().game.clone();
    let holding = parse_holding(args.hand.as_deref().context("--resolve needs --hand")?)?;
    let Replayed {
        mut state, bets, ..
    } = replay_betting(&def, steps)?;
    let seat = state
        .to_act()
        .context("the spot is at no decision of the last street")?;
    let down: CardSet = holding.down.iter().copied().collect();
    check_up(&holding, &state, seat)?;
    // The ranges take a second or two: what the hand alone can refuse is refused first.
    check_down(&holding, &state, seat)?;
    let path = args.file.to_str().context("the file's path is not UTF-8")?;
    // The ranges come from the strategy as it plays; the column beside is its row as stored.
    let player = StrategyPlayer::open(path, &def)?;
    let stored = StrategyPlayer::open(path, &def)?.with_purification(Purification::Mixed);
    let budget = match (args.iterations, args.budget_ms) {
        (_, Some(ms)) => Budget::Millis(ms),
        (it, None) => Budget::Iterations(it.unwrap_or(DEFAULT_ITERATIONS)),
    };
    // From the first decision of the spot's street: the last, or the one before it.
    let options = Options {
        floor: args.floor,
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
    let safety = match args.safe {
        true => Some(sub.safety(&player, seat)?),
        false => None,
    };
    let resolved = sub.solve(budget, safety.as_ref())?;
    let re = resolved.strategy(node, hand);
    let actions = sub.actions(node);
    state.show(seat, &holding.down).context("--hand")?;
    let blue = blueprint_row(&stored, &state, &bets, seat, &actions)?;
    let names: Vec<String> = actions.iter().map(|&a| action_words(&state, a)).collect();
    let codes: Vec<String> = actions
        .iter()
        .map(|a| a.to_string().replace(' ', ""))
        .collect();
    let label = format!(
        "({}) {}",
        cards_text(down),
        cards_text(state.up_cards(seat).iter().copied().collect())
    );
    let r = resolved.report(&sub);
    if args.output.json {
        let out = serde_json::json!({
            "seat": seat,
            "street": state.street(),
            "street_name": def.street_name(state.street()),
            "hand": label,
            "actions": codes,
            "action_names": names,
            "blueprint": blue,
            "resolved": re,
            "budget": budget,
            "method": if args.safe { "safe" } else { "unsafe" },
            "floor": args.floor,
            "subgame": r,
        });
        println!("{out}");
        return Ok(());
    }
    println!(
        "p{} to act on {} with {label}: re-solved from there to the end of the hand",
        seat + 1,
        def.street_name(state.street())
    );
    print_subgame(&r, args.floor);
    let width = names.iter().map(|n| n.len()).max().unwrap_or(0).max(6);
    println!("{:width$}  blueprint  re-solved", "action");
    for ((n, b), x) in names.iter().zip(&blue).zip(&re) {
        println!("{n:width$}  {b:>9.3}  {x:>9.3}");
    }
    Ok(())
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

/// Prints the subgame's line of the text answer: its size, the time of its ranges and its
/// solve, and how good the solve is (`floor`: the ranges').
fn print_subgame(r: &Report, floor: f64) {
    // A safe solve's profile is the gadget game's: its own exploitability says nothing of the
    // seat's strategy, what an opponent hand can gain does.
    let quality = match r.opponent_gain {
        Some(gain) => format!(
            "safe: the most an opponent hand gains over its best response to the blueprint \
             {gain:.4} chips"
        ),
        None => format!(
            "exploitability in the subgame {:.4} chips a hand ({:.1} mbb)",
            r.exploitability, r.exploitability_mbb
        ),
    };
    println!(
        "subgame: {} hands a seat ({} at its root), {} nodes ({} decisions), {} infoset-actions \
         ({:.0} MiB); ranges {:.0} ms (floor {}); {} DCFR iterations in {:.0} ms; {quality}",
        r.hands,
        r.root_hands,
        r.nodes,
        r.decisions,
        r.infoset_actions,
        r.memory_bytes as f64 / (1 << 20) as f64,
        r.range_millis,
        floor,
        r.iterations,
        r.solve_millis,
    );
}

/// Refuses a `--hand` whose up cards (when it gives them) are not the ones the spot dealt
/// `seat`.
fn check_up(holding: &Holding, state: &State, seat: u8) -> Result<()> {
    if let Some(up) = &holding.up {
        let given: CardSet = up.iter().copied().collect();
        let dealt: CardSet = state.up_cards(seat).iter().copied().collect();
        if given != dealt {
            bail!(
                "--hand: its up cards ({}) are not the ones the spot dealt p{} ({})",
                cards_text(given),
                seat + 1,
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
                "--hand: {c} is p{}'s up card in the spot, not a down card",
                s + 1
            );
        }
    }
    Ok(())
}
