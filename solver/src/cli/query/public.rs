//! `stud query` on a public-tree file (the walkable games): the spot checked along the file's
//! tree, the decision found where a player of the file finds it ([`policy::locate_public`]),
//! the rows of every private card or of `--hand`'s.

use super::rows::{play_json, play_rows, print_play, print_table, rows_json, Row};
use super::spot::{describe, describe_words, parse_holding, step_name, Step};
use super::Args;
use crate::cli::action_words;
use abstraction::cards::{Card, CardSet};
use abstraction::rules::state::Action;
use abstraction::rules::{Deal, GameDef, Next, State};
use abstraction::tree::{Edge, NodeKind};
use anyhow::{bail, Context, Result};
use solver::action::Bet;
use solver::policy;
use solver::strategy_file::PublicFile;

/// Deals the unknown down cards due before the next public event of `state`.
fn settle(state: &mut State) -> Result<()> {
    while let Next::Deal {
        deal: Deal::Down, ..
    } = state.next()
    {
        state.deal_unknown()?;
    }
    Ok(())
}

/// `stud query` on a public-tree file: the spot walked along the file's tree (and on the rules
/// engine beside it, for the actions in words), the decision there as the file's player finds
/// it, the rows of every private card or `--hand`'s.
pub(super) fn run_public(f: &PublicFile, args: &Args, steps: &[Step]) -> Result<()> {
    let def = &f.header().game;
    let Walked {
        state,
        bets,
        public,
        seat,
    } = walk_spot(f, steps)?;
    let node = policy::locate_public(f, &state, &bets, seat, &state.legal_actions())?.node;
    let n = f.node(node)?;
    let hands = hands_asked(def, args.hand.as_deref(), public)?;
    let kids = f.children(node)?;
    let codes: Vec<String> = kids.iter().map(|k| describe(k.1)).collect();
    let names: Vec<String> = kids
        .iter()
        .map(|k| match k.1 {
            Edge::Action(a) => action_words(&state, a),
            e => describe_words(e),
        })
        .collect();
    let width = f.header().width;
    let mut rows = Vec::new();
    for (i, c) in hands {
        let probs = f.probabilities(node, i)?;
        rows.push(Row {
            hand: Some(c.to_string()),
            bucket: None,
            unreached: width.is_unreached(&probs),
            probs,
            holds: None,
            about: None,
        });
    }
    play_rows(&mut rows, args.play);
    let street_name = def.street_name(n.street as usize);
    if args.output.json {
        let v = serde_json::json!({
            "seat": n.seat,
            "street": n.street,
            "street_name": street_name,
            "actions": codes,
            "action_names": names,
            "play": play_json(args.play),
            "hands": rows_json(&rows),
        });
        println!("{v}");
    } else {
        println!("p{} to act on {street_name}", n.seat + 1);
        print_play(args.play);
        print_table(&names, &rows);
    }
    Ok(())
}

/// A spot walked: the hand there, on the rules engine.
struct Walked {
    /// The state (the down cards unknown).
    state: State,
    /// The betting so far.
    bets: Vec<Bet>,
    /// The public cards dealt.
    public: CardSet,
    /// The seat to act.
    seat: u8,
}

/// Walks the spot along the file's tree, and on the rules engine beside it (the actions in
/// words): the hand at the decision it ends at. Fails where a step is not in the abstract game
/// (naming the choices there), or where the spot does not end at a decision.
fn walk_spot(f: &PublicFile, steps: &[Step]) -> Result<Walked> {
    let def = &f.header().game;
    let mut state = State::new(def)?;
    let mut node = 0u32;
    let mut public = CardSet::EMPTY;
    let mut bets = Vec::new();
    for (i, step) in steps.iter().enumerate() {
        let kids = f.children(node)?;
        let kind = f.node(node)?.kind;
        let choices = || {
            kids.iter()
                .map(|k| describe(k.1))
                .collect::<Vec<_>>()
                .join(" ")
        };
        let found = match *step {
            Step::Card(c) => kids.iter().find(|k| k.1 == Edge::Card(c)),
            Step::Exact(a) => kids.iter().find(|k| k.1 == Edge::Action(a)),
            // A public tree's node says whose turn it is: a prefix is read past.
            Step::Seat(_) => continue,
            Step::AnyRaise => {
                let raises: Vec<_> = kids
                    .iter()
                    .filter(|k| matches!(k.1, Edge::Action(Action::CompleteBetRaise(_))))
                    .collect();
                if raises.len() > 1 {
                    bail!(
                        "step {}: several bet sizes here ({}): say which with cbr N",
                        i + 1,
                        choices()
                    );
                }
                raises.first().copied()
            }
        };
        let Some(&(child, edge)) = found else {
            let at = if kind == NodeKind::Chance as u8 {
                "a public card is dealt here"
            } else if kids.is_empty() {
                "the hand is over here"
            } else {
                "a betting decision is made here"
            };
            bail!(
                "step {} ({}) is not in the abstract game: {at}; the choices are: {}",
                i + 1,
                step_name(*step),
                if kids.is_empty() {
                    "none".into()
                } else {
                    choices()
                }
            );
        };
        settle(&mut state)?;
        match edge {
            Edge::Card(c) => {
                public.insert(c);
                state.deal(c)
            }
            Edge::Action(a) => {
                bets.push((state.street(), a));
                state.apply(a)
            }
            Edge::Root => Ok(()),
        }
        .with_context(|| format!("step {} ({}) on the rules engine", i + 1, step_name(*step)))?;
        node = child;
    }
    settle(&mut state)?;
    let n = f.node(node)?;
    if n.kind != NodeKind::Action as u8 {
        if n.kind != NodeKind::Chance as u8 {
            bail!("the spot ends where the hand is over: no one decides");
        }
        let kids = f.children(node)?;
        bail!(
            "the spot ends before a public card on {}: continue it with one of {}",
            def.street_name(state.street()),
            kids.iter()
                .map(|k| describe(k.1))
                .collect::<Vec<_>>()
                .join(" ")
        );
    }
    Ok(Walked {
        state,
        bets,
        public,
        seat: n.seat,
    })
}

/// The private cards whose rows are asked (index in the deck, card): `hand`'s, or every card
/// not dealt face up (`public`).
fn hands_asked(def: &GameDef, hand: Option<&str>, public: CardSet) -> Result<Vec<(u32, Card)>> {
    let deck: Vec<Card> = def.deck.cards().iter().collect();
    Ok(match hand {
        Some(h) => {
            let held = parse_holding(h)?;
            let [c] = held.down[..] else {
                bail!("--hand {h:?}: this game deals each player one private card: give one");
            };
            if held.up.is_some_and(|u| !u.is_empty()) {
                bail!("--hand {h:?}: this game deals no up cards of a player's own");
            }
            let i = deck
                .iter()
                .position(|&d| d == c)
                .with_context(|| format!("--hand {c}: not a card of this game's deck"))?;
            if public.contains(c) {
                bail!("--hand {c}: that card is already dealt face up in the spot");
            }
            vec![(i as u32, c)]
        }
        None => deck
            .iter()
            .enumerate()
            .filter(|(_, c)| !public.contains(**c))
            .map(|(i, &c)| (i as u32, c))
            .collect(),
    })
}
