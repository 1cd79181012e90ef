//! The whole game tree of a small game, for any number of seats: every card dealt is a chance
//! node (private and public alike), every history a node, and an information set is what its
//! seat has seen (its own down cards, every public card, every action).
//!
//! What the exact multiway solvers walk (`solver::multiway`). The heads-up public tree
//! (`tree.rs`) keeps private hands as vectors and settles card removal at the terminals, which
//! for three or more seats would pair each hand with every combination of the others'; here
//! each history is one deal, and the sums run over histories as OpenSpiel's tabular CFR runs
//! them. The price is size: every deal is its own subtree, so only small games are walkable
//! (Kuhn and Leduc for N players, `tristud`).

use crate::betting_abstraction::BettingAbstraction;
use crate::cards::{Card, CardSet};
use crate::rules::game_def::{Deal, GameDef};
use crate::rules::seat_name;
use crate::rules::state::{showdown_winnings, Action, Next, State};
use crate::tree::{Budget, TreeError};
use std::collections::HashMap;

/// What a history is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[repr(u8)]
pub enum HistoryKind {
    /// A card is dealt: every card not yet dealt is a child, all equally likely.
    Chance,
    /// A seat acts: a child per action the betting abstraction keeps.
    Action,
    /// The hand is over: [`HistoryNode::index`] is the terminal's row of payoffs.
    Terminal,
}

/// A history: 12 bytes, its children contiguous.
#[derive(Clone, Copy, Debug)]
#[repr(C)]
pub struct HistoryNode {
    /// The first child's index.
    pub first_child: u32,
    /// The information set at an action node, the terminal's number at a terminal (its
    /// payoffs are `payoffs[index × seats ..]`); 0 at a chance node.
    pub index: u32,
    /// The number of children (0 at a terminal).
    pub num_children: u8,
    /// What the history is.
    pub kind: HistoryKind,
    /// The seat to act (action nodes; 0 elsewhere).
    pub seat: u8,
}

const _: () = assert!(std::mem::size_of::<HistoryNode>() == 12);

impl HistoryNode {
    const PLACEHOLDER: HistoryNode = HistoryNode {
        first_child: 0,
        index: 0,
        num_children: 0,
        kind: HistoryKind::Terminal,
        seat: 0,
    };

    /// The children's indices.
    pub fn children(&self) -> std::ops::Range<usize> {
        self.first_child as usize..self.first_child as usize + self.num_children as usize
    }
}

/// An information set: whose it is and where its slots (one per action) start.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Infoset {
    /// The seat that acts in it.
    pub seat: u8,
    /// Its actions.
    pub actions: u8,
    /// Its first slot (infoset-action); the slots of an infoset are consecutive.
    pub first_slot: u32,
}

/// What a seat has seen at an information set: its down cards and the public events, each
/// two bytes (a kind and seat, then a card id or an action code; see [`Seen::describe`]).
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Seen {
    /// The seat's down cards.
    pub cards: CardSet,
    /// The public events in order.
    pub public: Box<[u8]>,
}

/// Event kinds of [`Seen::public`] (low nibble; the seat is the high nibble).
const UP_CARD: u8 = 1;
const COMMUNITY: u8 = 2;
const ACTION: u8 = 3;

/// Action codes of [`Seen::public`], in the words of PHH.
const ACTION_WORDS: [&str; 4] = ["f", "cc", "pb", "cbr"];

/// What an action is in [`Seen::public`]: its kind, without the amount (one complete, bet or
/// raise at a time in limit betting, so the kind and the history fix the amount).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[repr(u8)]
pub enum Move {
    /// Fold.
    Fold = 0,
    /// Check or call.
    CheckCall = 1,
    /// The bring-in.
    BringIn = 2,
    /// A complete, bet or raise.
    CompleteBetRaise = 3,
}

impl Move {
    /// The kind of `a`.
    pub fn of(a: Action) -> Move {
        match a {
            Action::Fold => Move::Fold,
            Action::CheckCall => Move::CheckCall,
            Action::BringIn => Move::BringIn,
            Action::CompleteBetRaise(_) => Move::CompleteBetRaise,
        }
    }

    const ALL: [Move; 4] = [
        Move::Fold,
        Move::CheckCall,
        Move::BringIn,
        Move::CompleteBetRaise,
    ];
}

/// One public event of a [`Seen`], decoded.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Event {
    /// `seat` was dealt `card` face up.
    Up {
        /// The seat.
        seat: u8,
        /// The card.
        card: Card,
    },
    /// A community card.
    Community(Card),
    /// `seat` acted.
    Act {
        /// The seat.
        seat: u8,
        /// The action's kind.
        kind: Move,
    },
}

impl Seen {
    /// The public events, first to last.
    pub fn events(&self) -> impl Iterator<Item = Event> + '_ {
        self.public.chunks(2).map(|e| {
            let seat = e[0] >> 4;
            match e[0] & 15 {
                UP_CARD => Event::Up {
                    seat,
                    card: Card::from_id(e[1]),
                },
                COMMUNITY => Event::Community(Card::from_id(e[1])),
                _ => Event::Act {
                    seat,
                    kind: Move::ALL[e[1] as usize],
                },
            }
        })
    }

    /// The information set as a player reads it: `[Kc] p1:Ts p2:Qh p3:Js | p3 pb, p1 cbr, …`.
    pub fn describe(&self) -> String {
        let mut cards: Vec<String> = self.cards.iter().map(|c| c.to_string()).collect();
        let mut events = Vec::new();
        for e in self.public.chunks(2) {
            let seat = seat_name(e[0] >> 4);
            match e[0] & 15 {
                UP_CARD => cards.push(format!("{seat}:{}", Card::from_id(e[1]))),
                COMMUNITY => cards.push(format!("board:{}", Card::from_id(e[1]))),
                _ => events.push(format!("{seat} {}", ACTION_WORDS[e[1] as usize])),
            }
        }
        format!("[{}] | {}", cards.join(" "), events.join(", "))
    }
}

/// The game tree of a walkable game for `seats` players (see the module documentation).
#[derive(Clone, Debug)]
pub struct HistoryTree {
    /// The number of seats.
    pub seats: usize,
    /// The histories; node 0 is the root.
    pub nodes: Vec<HistoryNode>,
    /// Each terminal's net payoff per seat (chips won minus chips put in), `seats` values a
    /// terminal. A split pot of a game that [splits exactly] is shared in fractions of a chip.
    ///
    /// [splits exactly]: crate::rules::game_def::Variant::splits_exactly
    pub payoffs: Vec<f64>,
    /// The information sets, numbered in the order the walk first meets them.
    pub infosets: Vec<Infoset>,
    /// What each information set's seat has seen there (same numbering).
    pub seen: Vec<Seen>,
    /// The action of each slot, as the rules engine plays it.
    pub actions: Vec<Action>,
    /// Number of slots (infoset-action pairs).
    pub num_slots: usize,
    /// The largest number of children of a node.
    pub max_children: usize,
    /// The big bet, the unit of milli-big-bets.
    pub big_bet: u64,
}

/// The most seats a history tree holds (OpenSpiel's Kuhn and Leduc go to eight here).
pub const MAX_SEATS: usize = 8;

/// The most actions at a decision (fold, call, bet or raise, and the bring-in's choice).
pub const MAX_ACTIONS: usize = 8;

impl HistoryTree {
    /// Builds the whole tree of `def` under its own raise cap, refusing to grow past
    /// `budget` (its nodes, and its bytes with `budget.per_slot` for each slot).
    pub fn build(def: &GameDef, budget: Budget) -> Result<HistoryTree, TreeError> {
        def.validate()?;
        if def.seats as usize > MAX_SEATS {
            return Err(TreeError::Unsupported(format!(
                "{} seats: the game tree holds at most {MAX_SEATS}",
                def.seats
            )));
        }
        let mut b = Builder {
            betting: BettingAbstraction::for_game(def),
            budget,
            keys: HashMap::new(),
            publics: vec![(0, [0, 0])],
            public_ids: HashMap::new(),
            depths: Vec::new(),
            tree: HistoryTree {
                seats: def.seats as usize,
                nodes: vec![HistoryNode::PLACEHOLDER],
                payoffs: Vec::new(),
                infosets: Vec::new(),
                seen: Vec::new(),
                actions: Vec::new(),
                num_slots: 0,
                max_children: 0,
                big_bet: def.big_bet,
            },
        };
        b.visit(0, State::new(def)?, At::ROOT)?;
        let mut keys: Vec<_> = b.keys.drain().collect();
        keys.sort_unstable_by_key(|k| k.1);
        b.tree.seen = (keys.into_iter())
            .map(|((_, cards, public), _)| Seen {
                cards: CardSet(cards),
                public: b.events(public),
            })
            .collect();
        let t = &mut b.tree;
        t.nodes.shrink_to_fit();
        t.payoffs.shrink_to_fit();
        t.infosets.shrink_to_fit();
        t.actions.shrink_to_fit();
        Ok(b.tree)
    }

    /// The bytes the tree's arrays take as allocated.
    pub fn bytes(&self) -> usize {
        self.nodes.capacity() * std::mem::size_of::<HistoryNode>()
            + self.payoffs.capacity() * 8
            + self.infosets.capacity() * std::mem::size_of::<Infoset>()
            + self.actions.capacity() * std::mem::size_of::<Action>()
            + (self.seen.iter())
                .map(|s| std::mem::size_of::<Seen>() + s.public.len())
                .sum::<usize>()
    }

    /// The payoffs of terminal node `node`, one per seat.
    pub fn payoffs_of(&self, node: &HistoryNode) -> &[f64] {
        let i = node.index as usize * self.seats;
        &self.payoffs[i..i + self.seats]
    }
}

/// The scale at which an exact split is scored in integer chips: 1680 is divisible by every
/// count of winners (1 to 8) of either half of a hi-lo pot, so no odd chip is left.
const EXACT_SPLIT: u64 = 1680;

/// Where the walk is: what the recursion carries besides the state.
#[derive(Clone, Copy)]
struct At {
    /// Each seat's down cards.
    private: [CardSet; MAX_SEATS],
    /// The public history's id.
    public: u32,
    /// The street whose bets `bets` counts.
    street: usize,
    bets: u8,
    /// The depth (the root's is 0).
    depth: u16,
}

impl At {
    const ROOT: At = At {
        private: [CardSet::EMPTY; MAX_SEATS],
        public: 0,
        street: 0,
        bets: 0,
        depth: 0,
    };

    fn deeper(self) -> At {
        At {
            depth: self.depth + 1,
            ..self
        }
    }
}

struct Builder {
    betting: BettingAbstraction,
    budget: Budget,
    /// Each information set by its seat, the seat's down cards and the public history's id.
    keys: HashMap<(u8, u64, u32), u32>,
    /// The public histories, interned: each is its parent's id and one more event (id 0 is
    /// the empty history), so that a key is three numbers and a lookup allocates nothing.
    publics: Vec<(u32, [u8; 2])>,
    /// The id of each public history by its parent's id and its last event.
    public_ids: HashMap<(u32, [u8; 2]), u32>,
    /// The depth of each information set's histories (the best response sweeps by depth).
    depths: Vec<u16>,
    tree: HistoryTree,
}

impl Builder {
    /// Appends `k` placeholder children and returns the first index.
    fn alloc(&mut self, k: usize) -> Result<usize, TreeError> {
        let first = self.tree.nodes.len();
        let max = self.budget.nodes.min(u32::MAX as usize);
        if first + k > max {
            return Err(TreeError::TooBig(max));
        }
        let bytes = self.tree.bytes() + k * std::mem::size_of::<HistoryNode>();
        if bytes.saturating_add(self.tree.num_slots.saturating_mul(self.budget.per_slot))
            > self.budget.bytes
        {
            return Err(TreeError::OutOfMemory {
                nodes: first,
                slots: self.tree.num_slots as u64,
                per_slot: self.budget.per_slot,
                bytes: self.budget.bytes,
            });
        }
        self.tree.nodes.resize(first + k, HistoryNode::PLACEHOLDER);
        self.tree.max_children = self.tree.max_children.max(k);
        Ok(first)
    }

    /// Visits history `id` in `state`, where the walk is `at`.
    fn visit(&mut self, id: usize, state: State, at: At) -> Result<(), TreeError> {
        match state.next() {
            Next::Deal { seat, deal } => self.chance(id, state, at, seat, deal),
            Next::Act { seat } => self.action(id, state, at, seat),
            Next::Over => self.terminal(id, &state),
        }
    }

    fn chance(
        &mut self,
        id: usize,
        state: State,
        at: At,
        seat: Option<u8>,
        deal: Deal,
    ) -> Result<(), TreeError> {
        let cards = state.unseen();
        let k = cards.len() as usize;
        if k == 0 || k > u8::MAX as usize {
            return Err(TreeError::Unsupported(format!("{k} cards to deal from")));
        }
        let first = self.alloc(k)?;
        self.tree.nodes[id] = HistoryNode {
            first_child: first as u32,
            index: 0,
            num_children: k as u8,
            kind: HistoryKind::Chance,
            seat: 0,
        };
        for (i, c) in cards.iter().enumerate() {
            let mut s = state.clone();
            s.deal(c)?;
            let mut child = at.deeper();
            match (deal, seat) {
                (Deal::Down, Some(seat)) => child.private[seat as usize].insert(c),
                (Deal::Up, Some(seat)) => {
                    child.public = self.public(at.public, [UP_CARD | seat << 4, c.id()])?
                }
                _ => child.public = self.public(at.public, [COMMUNITY, c.id()])?,
            }
            self.visit(first + i, s, child)?;
        }
        Ok(())
    }

    fn action(&mut self, id: usize, state: State, at: At, seat: u8) -> Result<(), TreeError> {
        let street = state.street();
        let bets = if at.street == street { at.bets } else { 0 };
        let legal: Vec<Action> = state
            .legal_actions()
            .into_iter()
            .filter(|&a| self.betting.keeps(a, bets))
            .collect();
        let k = legal.len();
        if k == 0 || k > MAX_ACTIONS {
            return Err(TreeError::Unsupported(format!(
                "{k} actions for {} after the betting abstraction",
                seat_name(seat)
            )));
        }
        let key = (seat, at.private[seat as usize].0, at.public);
        let infoset = self.infoset(key, &legal, at.depth)?;
        let first = self.alloc(k)?;
        self.tree.nodes[id] = HistoryNode {
            first_child: first as u32,
            index: infoset,
            num_children: k as u8,
            kind: HistoryKind::Action,
            seat,
        };
        for (i, &a) in legal.iter().enumerate() {
            let mut s = state.clone();
            s.apply(a)?;
            let mut child = at.deeper();
            child.public = self.public(at.public, [ACTION | seat << 4, Move::of(a) as u8])?;
            child.street = street;
            child.bets = bets + matches!(a, Action::CompleteBetRaise(_)) as u8;
            self.visit(first + i, s, child)?;
        }
        Ok(())
    }

    /// The id of public history `parent` followed by `event`, interned.
    fn public(&mut self, parent: u32, event: [u8; 2]) -> Result<u32, TreeError> {
        let next = self.publics.len() as u32;
        let id = *self.public_ids.entry((parent, event)).or_insert(next);
        if id == next {
            if next == u32::MAX {
                return Err(TreeError::TooBig(self.tree.nodes.len()));
            }
            self.publics.push((parent, event));
        }
        Ok(id)
    }

    /// The events of public history `id`, first to last.
    fn events(&self, mut id: u32) -> Box<[u8]> {
        let mut out = Vec::new();
        while id != 0 {
            let (parent, event) = self.publics[id as usize];
            out.extend([event[1], event[0]]);
            id = parent;
        }
        out.reverse();
        out.into()
    }

    /// The information set of `key` (seat, its down cards, the public history's id), whose
    /// histories have `legal` actions and lie at `depth`.
    fn infoset(
        &mut self,
        key: (u8, u64, u32),
        legal: &[Action],
        depth: u16,
    ) -> Result<u32, TreeError> {
        let actions = legal.len();
        if let Some(&i) = self.keys.get(&key) {
            if self.depths[i as usize] != depth
                || self.tree.infosets[i as usize].actions as usize != actions
            {
                return Err(TreeError::Unsupported(
                    "an information set whose histories differ in depth or actions".into(),
                ));
            }
            return Ok(i);
        }
        self.depths.push(depth);
        let t = &mut self.tree;
        let i = t.infosets.len() as u32;
        t.infosets.push(Infoset {
            seat: key.0,
            actions: actions as u8,
            first_slot: t.num_slots as u32,
        });
        t.num_slots += actions;
        t.actions.extend_from_slice(legal);
        if t.num_slots >= u32::MAX as usize {
            return Err(TreeError::TooBig(t.nodes.len()));
        }
        self.keys.insert(key, i);
        Ok(i)
    }

    fn terminal(&mut self, id: usize, state: &State) -> Result<(), TreeError> {
        let payoffs = payoffs(state)?;
        let t = &mut self.tree;
        t.nodes[id] = HistoryNode {
            first_child: 0,
            index: (t.payoffs.len() / t.seats) as u32,
            num_children: 0,
            kind: HistoryKind::Terminal,
            seat: 0,
        };
        t.payoffs.extend(payoffs);
        Ok(())
    }
}

/// The net payoff of each seat at the end of `state`: the rules engine's, or for a game that
/// splits exactly, the same showdown scored at [`EXACT_SPLIT`] times the chips.
fn payoffs(state: &State) -> Result<Vec<f64>, TreeError> {
    let engine = state
        .payoffs()
        .ok_or_else(|| TreeError::Unsupported("a hand ended with a hand unknown".into()))?;
    let def = state.def();
    let live: Vec<u8> = (0..def.seats).filter(|&s| !state.folded(s)).collect();
    if !def.variant.splits_exactly() || live.len() < 2 {
        return Ok(engine.iter().map(|&p| p as f64).collect());
    }
    let committed: Vec<u64> = (0..def.seats)
        .map(|s| state.committed(s) * EXACT_SPLIT)
        .collect();
    let hands: Vec<_> = (0..def.seats)
        .map(|s| live.contains(&s).then(|| state.hand(s)).flatten())
        .collect();
    let won = showdown_winnings(def.variant.showdown(), &committed, &hands);
    Ok(won
        .iter()
        .zip(&committed)
        .map(|(&w, &c)| (w as f64 - c as f64) / EXACT_SPLIT as f64)
        .collect())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn build(def: &GameDef) -> HistoryTree {
        HistoryTree::build(def, Budget::nodes(50_000_000)).unwrap()
    }

    /// Every terminal's payoffs sum to zero (chips only change hands).
    fn zero_sum(t: &HistoryTree) {
        for row in t.payoffs.chunks(t.seats) {
            assert!(row.iter().sum::<f64>().abs() < 1e-9, "{row:?}");
        }
    }

    #[test]
    fn three_player_kuhn_has_openspiels_size() {
        let t = build(&GameDef::kuhn_for(3).unwrap());
        // 4 × 3 × 2 deals; 12 information sets per seat (4 cards × 3 public histories of
        // a first decision... counted below), each with two actions.
        assert_eq!(t.seats, 3);
        let per_seat: Vec<usize> = (0..3)
            .map(|s| t.infosets.iter().filter(|i| i.seat == s).count())
            .collect();
        // OpenSpiel's 3-player Kuhn: 48 information states, 16 per player.
        assert_eq!(per_seat, vec![16, 16, 16]);
        assert!(t.infosets.iter().all(|i| i.actions == 2));
        zero_sum(&t);
    }

    #[test]
    fn leduc_split_pots_are_shared_exactly() {
        let t = build(&GameDef::leduc_for(3).unwrap());
        zero_sum(&t);
        // Three antes split two ways: 1.5 chips each, no odd chip.
        assert!(t.payoffs.iter().any(|&p| p.fract() != 0.0));
    }

    #[test]
    fn seen_events_decode_what_the_walk_recorded() {
        let t = build(&GameDef::kuhn_for(3).unwrap());
        for (seen, set) in t.seen.iter().zip(&t.infosets) {
            let events: Vec<Event> = seen.events().collect();
            assert_eq!(events.len(), seen.public.len() / 2);
            // Kuhn deals no public card; the seats act in turn, seat 0 first.
            for (i, e) in events.iter().enumerate() {
                match *e {
                    Event::Act { seat, kind } => {
                        assert_eq!(seat as usize, i % 3, "{}", seen.describe());
                        assert_ne!(kind, Move::BringIn);
                    }
                    _ => panic!("{e:?} in {}", seen.describe()),
                }
            }
            assert_eq!(set.seat as usize, events.len() % 3);
        }
    }

    #[test]
    fn heads_up_kuhn_is_openspiels() {
        let t = build(&GameDef::kuhn());
        assert_eq!(t.infosets.len(), 12);
        zero_sum(&t);
    }

    #[test]
    fn a_tree_past_its_budget_is_refused() {
        let err = HistoryTree::build(&GameDef::leduc_for(3).unwrap(), Budget::nodes(1000));
        assert!(matches!(err, Err(TreeError::TooBig(1000))), "{err:?}");
    }
}
