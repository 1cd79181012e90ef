//! `stud query`'s answer on a public-tree file (the walkable games: Kuhn, Leduc, the small stud
//! games): the spot checked along the file's tree, the decision found where a player of the
//! file finds it ([`policy::locate_public`]), the rows of every private card or of the hand's.

use super::rows::{play_json, play_rows, rows_json, Row};
use super::spot::{action_words, describe, describe_words, parse_holding, step_name, Step};
use crate::action::Bet;
use crate::policy;
use crate::purify::Purification;
use crate::strategy_file::PublicFile;
use abstraction::cards::{Card, CardSet};
use abstraction::rules::state::Action;
use abstraction::rules::{Deal, GameDef, Next, State};
use abstraction::tree::{Edge, NodeKind};
use anyhow::{bail, Context, Result};

/// `stud query`'s answer at a spot of a public-tree file.
#[derive(Clone, Debug)]
pub struct Answer {
    /// The seat to act.
    pub seat: u8,
    /// The street (0-based).
    pub street: u8,
    /// The street as players name it.
    pub street_name: String,
    /// The decision's actions as PHH codes, in the file's order.
    pub codes: Vec<String>,
    /// The same in a player's words.
    pub names: Vec<String>,
    /// The rows: the hand's (one), or every private card's not dealt face up.
    pub rows: Vec<Row>,
    /// How the rows are played (`None`: as stored).
    pub play: Option<Purification>,
}

impl Answer {
    /// The answer as `stud query --json` writes it.
    pub fn json(&self) -> serde_json::Value {
        serde_json::json!({
            "seat": self.seat,
            "street": self.street,
            "street_name": self.street_name,
            "actions": self.codes,
            "action_names": self.names,
            "play": play_json(self.play),
            "hands": rows_json(&self.rows),
        })
    }
}

/// `stud query`'s answer on a public-tree file: the spot walked along the file's tree (and on
/// the rules engine beside it, for the actions in words), the decision there as the file's
/// player finds it, the rows of every private card or `hand`'s (`--hand`), played as `play`
/// says (`None`: as stored).
pub fn answer(
    f: &PublicFile,
    hand: Option<&str>,
    play: Option<Purification>,
    steps: &[Step],
) -> Result<Answer> {
    let def = &f.header().game;
    let Walked {
        state,
        bets,
        public,
        seat,
    } = walk_spot(f, steps)?;
    let node = policy::locate_public(f, &state, &bets, seat, &state.legal_actions())?.node;
    let n = f.node(node)?;
    let hands = hands_asked(def, hand, public)?;
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
    play_rows(&mut rows, play);
    Ok(Answer {
        seat: n.seat,
        street: n.street,
        street_name: def.street_name(n.street as usize),
        codes,
        names,
        rows,
        play,
    })
}

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
