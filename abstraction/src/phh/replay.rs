//! Replaying a hand history through the rules engine: every deal and every action is checked
//! against the rules, and what the rules say at each decision is recorded.

use super::{ActionLine, HandHistory, PhhAction, PhhCard, Shown};
use crate::rules::notation::Written;
use crate::rules::pots::{pots, Pot};
use crate::rules::seat_name;
use crate::rules::{Action, Deal, GameDef, GameDefError, Next, Profile, RulesError, State};
use std::collections::VecDeque;

/// One betting decision of a replayed hand.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Decision {
    /// The line of the action in the file (0 when not read from a file).
    pub line: usize,
    /// The street (0 = the first betting round).
    pub street: usize,
    /// The seat to act.
    pub seat: u8,
    /// Every legal action, with its amount, as the rules give them.
    pub legal: Vec<Action>,
    /// The action taken.
    pub taken: Action,
}

/// What a replay found: the game, each decision, and the result.
#[derive(Clone, Debug)]
pub struct Replay {
    /// The game the hand was replayed under.
    pub def: GameDef,
    /// The seat that had to bring in (or complete), if the first round has a bring-in.
    pub bring_in_seat: Option<u8>,
    /// The first decision of the hand, when it was the bring-in seat's: `BringIn` or the
    /// completion (`CompleteBetRaise`).
    pub opening: Option<Action>,
    /// For each street, the seat that acted first, or `None` when the street had no decision
    /// (everyone all in, or the hand ended before it).
    pub first_actors: Vec<Option<u8>>,
    /// Every betting decision, in order.
    pub decisions: Vec<Decision>,
    /// The main pot and the side pots at the end of the replay, main pot first.
    pub pots: Vec<Pot>,
    /// Each seat's chips at the end of the replay (after the pots are paid when the hand is over).
    pub final_stacks: Vec<u64>,
    /// The net result per seat, when the hand is over.
    pub payoffs: Option<Vec<i64>>,
    /// The seats that mucked (`pN sm` with no cards).
    pub mucked: Vec<u8>,
    /// The state at the end of the replay.
    pub state: State,
}

/// A hand that does not replay: its game is not playable, or a line breaks the rules.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum ReplayError {
    /// The stakes and stacks of the file make no playable game.
    #[error("the hand's game cannot be played: {0}")]
    Game(GameDefError),
    /// An action or a deal the rules refuse.
    #[error("line {line}: `{text}`: {reason}")]
    Line {
        /// The 1-based line of the action (0 when not read from a file).
        line: usize,
        /// The action as written.
        text: String,
        /// What the rules say.
        reason: String,
    },
}

fn line_error(a: &ActionLine, reason: impl Into<String>) -> ReplayError {
    ReplayError::Line {
        line: a.line,
        text: a.to_string(),
        reason: reason.into(),
    }
}

/// For each seat, its cards in dealing order as far as the file tells them: the cards of its
/// deals, with each `??` filled in when a later `sm` shows it.
fn known_cards(h: &HandHistory) -> Result<Vec<Vec<PhhCard>>, ReplayError> {
    let mut dealt: Vec<Vec<PhhCard>> = vec![Vec::new(); h.players()];
    for a in &h.actions {
        // A hand built in memory may name any seat; a parsed one is checked already.
        let seat = match &a.action {
            PhhAction::DealHole { seat, .. }
            | PhhAction::Bet { seat, .. }
            | PhhAction::AnyRaise { seat }
            | PhhAction::ShowMuck { seat, .. } => Some(*seat),
            PhhAction::DealBoard(_) | PhhAction::Noop => None,
        };
        if seat.is_some_and(|s| s as usize >= h.players()) {
            return Err(line_error(
                a,
                format!("no such player: the hand has {}", h.players()),
            ));
        }
        match &a.action {
            PhhAction::DealHole { seat, cards } => dealt[*seat as usize].extend(cards),
            PhhAction::ShowMuck {
                seat,
                shown: Shown::Cards(shown),
            } => {
                let have = &mut dealt[*seat as usize];
                if shown.len() > have.len() {
                    return Err(line_error(
                        a,
                        format!("shows {} cards but was dealt {}", shown.len(), have.len()),
                    ));
                }
                for (i, (d, s)) in have.iter_mut().zip(shown).enumerate() {
                    match (*d, *s) {
                        (Some(d), Some(s)) if d != s => {
                            return Err(line_error(
                                a,
                                format!("card {} shown as {s} was dealt as {d}", i + 1),
                            ))
                        }
                        (None, s) => *d = s,
                        _ => {}
                    }
                }
            }
            _ => {}
        }
    }
    Ok(dealt)
}

/// Cards written in the file and not yet given to the state: a street may be written as one
/// action per seat while the rules deal card by card around the table.
struct Pending<'a> {
    hole: Vec<VecDeque<(usize, &'a ActionLine)>>,
    board: VecDeque<(PhhCard, &'a ActionLine)>,
    /// How many cards of each seat have been queued, to index `known`.
    queued: Vec<usize>,
}

impl<'a> Pending<'a> {
    /// Gives the state every queued card it asks for, in the order it asks.
    fn feed(&mut self, state: &mut State, known: &[Vec<PhhCard>]) -> Result<(), ReplayError> {
        loop {
            let Next::Deal { seat, deal } = state.next() else {
                return Ok(());
            };
            let (card, a) = match seat {
                Some(s) => match self.hole[s as usize].pop_front() {
                    Some((i, a)) => (known[s as usize][i], a),
                    None => return Ok(()),
                },
                None => match self.board.pop_front() {
                    Some(x) => x,
                    None => return Ok(()),
                },
            };
            let r = match (card, deal) {
                (Some(c), _) => state.deal(c),
                (None, Deal::Down) => state.deal_unknown(),
                (None, _) => {
                    return Err(line_error(
                        a,
                        "a card dealt face up cannot be unknown (`??`)",
                    ))
                }
            };
            r.map_err(|e: RulesError| line_error(a, e.to_string()))?;
        }
    }

    /// The first queued card the rules did not ask for, if any.
    fn leftover(&self) -> Option<&'a ActionLine> {
        self.hole
            .iter()
            .filter_map(|q| q.front().map(|(_, a)| *a))
            .chain(self.board.front().map(|(_, a)| *a))
            .min_by_key(|a| a.line)
    }
}

/// Replays a hand under a rules profile, checking every deal and action.
///
/// Cards are matched to the seat the rules deal to, so a street may be written card by card or
/// as one action per seat. A hand may stop before its end (then `payoffs` is `None`).
/// Errors name the line: an illegal action, an action out of turn, a card dealt twice, too
/// many or too few cards for a street, a show that contradicts the deal.
pub fn replay(h: &HandHistory, profile: Profile) -> Result<Replay, ReplayError> {
    let def = h.game_def(profile).map_err(ReplayError::Game)?;
    let known = known_cards(h)?;
    let mut state = State::new(&def).map_err(|e| ReplayError::Line {
        line: 0,
        text: String::new(),
        reason: e.to_string(),
    })?;
    // Cards written as `??` and shown later are dealt as the cards shown, so that the showdown
    // can be scored.
    let mut pending = Pending {
        hole: vec![VecDeque::new(); h.players()],
        board: VecDeque::new(),
        queued: vec![0; h.players()],
    };
    let mut decisions = Vec::new();
    let mut first_actors = vec![None; def.streets.len()];
    let mut mucked = Vec::new();
    for a in &h.actions {
        match &a.action {
            PhhAction::DealHole { seat, cards } => {
                let s = *seat as usize;
                for _ in cards {
                    pending.hole[s].push_back((pending.queued[s], a));
                    pending.queued[s] += 1;
                }
                pending.feed(&mut state, &known)?;
            }
            PhhAction::DealBoard(cards) => {
                pending.board.extend(cards.iter().map(|&c| (c, a)));
                pending.feed(&mut state, &known)?;
            }
            PhhAction::Bet { .. } | PhhAction::AnyRaise { .. } => {
                let Some((seat, written)) = a.action.bet() else {
                    continue;
                };
                let d = bet(&mut state, &mut pending, &known, a, seat, written)?;
                if let Some(first) = first_actors.get_mut(d.street) {
                    first.get_or_insert(seat);
                }
                decisions.push(d);
            }
            PhhAction::ShowMuck { seat, shown } => {
                if *shown == Shown::Muck {
                    mucked.push(*seat);
                }
            }
            PhhAction::Noop => {}
        }
    }
    pending.feed(&mut state, &known)?;
    if let Some(extra) = pending.leftover() {
        return Err(line_error(extra, "more cards than the rules deal"));
    }
    Ok(finish(def, state, decisions, first_actors, mucked))
}

/// Replays the bet of `a` (`seat` takes `action`, a raise without its amount made exact by the
/// legal ones) on `state`, the cards queued in `pending` dealt first: the decision, or why the
/// line cannot be played here (a card still owed or one too many, another seat's turn, the hand
/// over, an illegal action).
fn bet(
    state: &mut State,
    pending: &mut Pending,
    known: &[Vec<PhhCard>],
    a: &ActionLine,
    seat: u8,
    action: Written,
) -> Result<Decision, ReplayError> {
    pending.feed(state, known)?;
    // Missing cards first: when a seat is short, the next seat's cards wait in the queue, and
    // naming the short seat says what is wrong.
    match state.next() {
        Next::Deal { seat: Some(s), .. } => {
            return Err(line_error(
                a,
                format!("too few cards: {} is still owed a card", seat_name(s)),
            ))
        }
        Next::Deal { seat: None, .. } => {
            return Err(line_error(a, "too few cards: a community card is owed"))
        }
        _ => {}
    }
    if let Some(extra) = pending.leftover() {
        return Err(line_error(
            extra,
            "more cards than the rules deal here: the street gives fewer, or the seat is out of \
             the hand",
        ));
    }
    match state.next() {
        Next::Act { seat: s } if s == seat => {}
        Next::Act { seat: s } => {
            return Err(line_error(
                a,
                format!("it is {}'s turn to act", seat_name(s)),
            ))
        }
        _ => return Err(line_error(a, "the hand is already over")),
    }
    let street = state.street();
    let legal = state.legal_actions();
    let action = action.resolve(&legal).map_err(|e| line_error(a, e))?;
    state
        .apply(action)
        .map_err(|e| line_error(a, e.to_string()))?;
    Ok(Decision {
        line: a.line,
        street,
        seat,
        legal,
        taken: action,
    })
}

/// The replay of a hand played to `state` (of the game `def`), with its `decisions`, each
/// street's first actor and the seats that mucked.
fn finish(
    def: GameDef,
    state: State,
    decisions: Vec<Decision>,
    first_actors: Vec<Option<u8>>,
    mucked: Vec<u8>,
) -> Replay {
    let bring_in_seat = state.bring_in_seat();
    let opening = decisions
        .first()
        .filter(|d| Some(d.seat) == bring_in_seat)
        .map(|d| d.taken);
    let payoffs = state.payoffs();
    let final_stacks = state
        .final_stacks()
        .unwrap_or_else(|| (0..def.seats).map(|s| state.stack(s)).collect());
    let committed: Vec<u64> = (0..def.seats).map(|s| state.committed(s)).collect();
    let pots = pots(&committed, state.live());
    Replay {
        def,
        bring_in_seat,
        opening,
        first_actors,
        decisions,
        pots,
        final_stacks,
        payoffs,
        mucked,
        state,
    }
}
