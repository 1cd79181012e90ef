//! The abstract game tree: the public tree of a heads-up game as a flat arena, built by walking the
//! rules engine ([`State`]) and filtered by a card and a betting abstraction.
//!
//! # Shape
//! - Only public events make nodes: betting decisions, public cards (up cards and community cards,
//!   one chance node per card) and the ends of the hand. Private (down) cards are dealt with
//!   [`State::deal_unknown`]: the solver carries, for each player, a vector over the private hands
//!   instead (vector-form CFR).
//! - [`Node`]s are `#[repr(C)]`, 16 bytes, in one `Vec`; the children of a node are contiguous
//!   (`first_child .. first_child + num_children`), the edge that led to each node is in `edges`.
//! - Every action node owns `buckets × actions` consecutive *slots* starting at
//!   [`Node::first_slot`]; slot `first_slot + bucket * actions + a` holds the regret / average
//!   strategy of action `a` for that bucket. Slots are numbered in depth-first preorder, so every
//!   subtree owns one contiguous slot range (`slot_range`): the solver splits its arrays there to
//!   work on subtrees in parallel.
//! - Chance is folded into the terminal values: each terminal stores its payoff multiplied by the
//!   probability of the public cards on its path and of the private deal, so a game value is a plain
//!   sum over terminals and hands.
//!
//! # Limits of this version
//! Two players, one private card each, dealt on the first street (Kuhn, Leduc, `ministud`, and
//! five-card stud in principle). Games dealing more down cards are refused with
//! [`TreeError::Unsupported`].

use crate::betting_abstraction::BettingAbstraction;
use crate::bucketing::{BucketError, CardView};
use crate::card_abstraction::{CardAbstraction, SeatCards};
use crate::cards::{Card, CardSet};
use crate::rules::game_def::{Deal, GameDef, GameDefError, Showdown};
use crate::rules::seat_name;
use crate::rules::state::{Action, Next, RulesError, State};

/// "No such index" in the `u32` index fields.
pub const NONE: u32 = u32::MAX;

/// What a node is.
#[repr(u8)]
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum NodeKind {
    /// A betting decision of [`Node::seat`].
    Action = 0,
    /// A public card; each child is one card (see [`Tree::edges`]).
    Chance = 1,
    /// The hand ended with [`Node::seat`] folding.
    Fold = 2,
    /// The hand ended in a showdown.
    Showdown = 3,
}

/// One node of the arena: 16 bytes, `#[repr(C)]`, so that a node is one load in the solver's
/// walk. Built by the constructors of its kinds ([`Node::action`], [`Node::chance`],
/// [`Node::fold`], [`Node::showdown`]); the one `u32` that means a slot or a value by the kind
/// is read through [`Node::first_slot`] or [`Node::value_index`].
#[repr(C)]
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Node {
    /// What the node is.
    pub kind: NodeKind,
    /// Action: the seat to act. Fold: the seat that folded. Otherwise 0.
    pub seat: u8,
    /// The street (0-based) of the state at this node.
    pub street: u8,
    /// Number of children (0 for terminals).
    pub num_children: u8,
    /// Index of the first child.
    pub first_child: u32,
    /// Action: the first slot. Fold and Showdown: the index into [`Tree::values`]. Chance: 0.
    index: u32,
    /// Action and Showdown: the index into [`Tree::boards`]; otherwise [`NONE`].
    pub board: u32,
}

// The arena's layout: one node per 16 bytes.
const _: () = assert!(std::mem::size_of::<Node>() == 16);

impl Node {
    /// What a builder fills a freshly allocated node with before it knows what the node is.
    pub const PLACEHOLDER: Node = Node::fold(0, 0, 0);

    /// A decision of `seat` on `street` with `num_children` actions from `first_child`, whose
    /// rows start at slot `first_slot`, on board `board`.
    pub const fn action(
        seat: u8,
        street: u8,
        num_children: u8,
        first_child: u32,
        first_slot: u32,
        board: u32,
    ) -> Node {
        Node {
            kind: NodeKind::Action,
            seat,
            street,
            num_children,
            first_child,
            index: first_slot,
            board,
        }
    }

    /// A public card on `street`, one child per card from `first_child`.
    pub const fn chance(street: u8, num_children: u8, first_child: u32) -> Node {
        Node {
            kind: NodeKind::Chance,
            seat: 0,
            street,
            num_children,
            first_child,
            index: 0,
            board: NONE,
        }
    }

    /// The end of the hand with `seat` folding on `street`, valued at `values[value_index]`.
    pub const fn fold(seat: u8, street: u8, value_index: u32) -> Node {
        Node {
            kind: NodeKind::Fold,
            seat,
            street,
            num_children: 0,
            first_child: 0,
            index: value_index,
            board: NONE,
        }
    }

    /// A showdown on `street` and board `board`, valued at `values[value_index]`.
    pub const fn showdown(street: u8, value_index: u32, board: u32) -> Node {
        Node {
            kind: NodeKind::Showdown,
            seat: 0,
            street,
            num_children: 0,
            first_child: 0,
            index: value_index,
            board,
        }
    }

    /// An action node's first slot: `first_slot + bucket × actions + a` holds action `a` of
    /// `bucket`.
    #[inline(always)]
    pub fn first_slot(&self) -> u32 {
        debug_assert_eq!(self.kind, NodeKind::Action);
        self.index
    }

    /// A terminal's index into [`Tree::values`].
    #[inline(always)]
    pub fn value_index(&self) -> u32 {
        debug_assert!(matches!(self.kind, NodeKind::Fold | NodeKind::Showdown));
        self.index
    }
}

/// The event that led to a node.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Edge {
    /// The root.
    Root,
    /// A betting action.
    Action(Action),
    /// A public card.
    Card(Card),
}

/// The public cards of one street, with the tables the solver reads there.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Board {
    /// Every public card dealt so far (up cards of both seats and community cards).
    pub public: CardSet,
    /// Offset of this board's bucket tables in [`Tree::buckets`] (`2 × hands` entries: seat 0's
    /// then seat 1's, since a bucket depends on whose up cards are whose).
    pub buckets: u32,
    /// Offset of this board's showdown tables in [`Tree::strength`] and [`Tree::order`]
    /// (`2 × hands` entries: seat 0's then seat 1's), or [`NONE`] if no showdown uses it.
    pub showdown: u32,
}

/// Why a tree cannot be built.
#[derive(Debug, thiserror::Error)]
pub enum TreeError {
    /// The game definition is invalid.
    #[error(transparent)]
    Game(#[from] GameDefError),
    /// The rules engine refused a step of the walk (a bug in one of the two).
    #[error("rules engine: {0}")]
    Rules(#[from] RulesError),
    /// The game is outside what this tree supports.
    #[error("unsupported game: {0}")]
    Unsupported(String),
    /// The card abstraction cannot bucket a hand of this game.
    #[error("card abstraction: {0}")]
    Cards(#[from] BucketError),
    /// The tree would exceed the node budget.
    #[error("the game tree has more than {0} nodes: too big to walk in full (use a smaller game or an abstraction)")]
    TooBig(usize),
    /// The tree and its slots would exceed the memory budget.
    #[error(
        "the game tree outgrew the memory available: at {nodes} nodes and {slots} infoset-actions \
         so far, its arrays and the {per_slot} bytes per infoset-action to be allocated on it \
         would need more than the {} MiB available (use a smaller game or a coarser card abstraction)",
        bytes >> 20
    )]
    OutOfMemory {
        /// Nodes built when the budget ran out.
        nodes: usize,
        /// Slots counted when the budget ran out.
        slots: u64,
        /// The budget's bytes per slot.
        per_slot: usize,
        /// The budget in bytes.
        bytes: usize,
    },
}

/// What a tree may cost while it is built, checked as it grows: a game too big for the memory
/// available is refused early, with the figures, rather than aborting when an allocation fails.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Budget {
    /// The most nodes.
    pub nodes: usize,
    /// The most bytes that the tree's arrays (as allocated, [`Tree::bytes`]) and `per_slot`
    /// bytes for each of its slots may take together.
    pub bytes: usize,
    /// What the caller will allocate per slot once the tree is built (the solver's regrets and
    /// averages): counted while the tree grows, so that a tree whose solver cannot fit stops
    /// early.
    pub per_slot: usize,
}

impl Budget {
    /// At most `nodes` nodes, the bytes unbounded.
    pub fn nodes(nodes: usize) -> Budget {
        Budget {
            nodes,
            bytes: usize::MAX,
            per_slot: 0,
        }
    }
}

/// The abstract game tree of a heads-up game (see the module documentation).
#[derive(Clone, Debug)]
pub struct Tree {
    /// The nodes; node 0 is the root.
    pub nodes: Vec<Node>,
    /// The event that led to each node.
    pub edges: Vec<Edge>,
    /// Per node, the slots `[start, end)` of its whole subtree.
    pub slot_range: Vec<[u32; 2]>,
    /// Per terminal (indexed by [`Node::value_index`]): for a fold, seat 0's net payoff; for a
    /// showdown, the stake won by the better hand (each seat's matched contribution); both
    /// multiplied by the chance probability of the terminal's public cards and private deal.
    pub values: Vec<f64>,
    /// The boards (public card states at which someone acts or hands are shown).
    pub boards: Vec<Board>,
    /// Bucket of each hand for each seat on each board (`boards[b].buckets + seat × hands +
    /// hand`); [`NONE`] for a hand that collides with the board's public cards (it is never
    /// reached, and must not touch the regrets of a real bucket).
    pub buckets: Vec<u32>,
    /// Showdown strength (higher wins) of each hand for each seat (`showdown + seat * hands +
    /// hand`); hands that collide with the board have strength 0 (their reach is always 0).
    pub strength: Vec<u32>,
    /// The hands sorted by ascending strength, per showdown board and seat (same layout).
    pub order: Vec<u32>,
    /// The private hands: hand `i` is the single down card `hands[i]` (empty when the hands
    /// are [`Tree::holdings`]).
    pub hands: Vec<Card>,
    /// The private hands when one holds more than one card (a re-solved subgame of seven-card
    /// stud: three down cards): hand `i` is the set `holdings[i]`, both seats' hands numbered
    /// alike, and card removal is by inclusion and exclusion over the cards shared. Empty for a
    /// tree of one-card hands ([`Tree::hands`]); the builder here makes only those.
    pub holdings: Vec<CardSet>,
    /// Where one card set of [`Tree::holdings`] is several hands (a subgame re-solved from sixth
    /// street: a seat's hand on seventh street is its sixth-street pair and the card dealt
    /// after it, so each set of three cards is three hands): the two other hands holding hand
    /// `i`'s cards, which card removal strikes with it. Empty where every set is one hand.
    pub twins: Vec<[u32; 2]>,
    /// The hand holding each card id, or [`NONE`] if the card is not in the deck.
    pub hand_of_card: [u32; 52],
    /// Number of slots (infoset-action pairs).
    pub num_slots: usize,
    /// Number of information sets (action nodes × buckets).
    pub num_infosets: usize,
    /// The largest number of children of an action node.
    pub max_actions: usize,
    /// The deepest node (the root has depth 1).
    pub max_depth: usize,
    /// The game's big bet, the unit of milli-big-bets.
    pub big_bet: u64,
    /// Buckets per street (from the card abstraction; lossless: the hands possible there, see
    /// [`Tree::possible_hands`]): an action node on street `s` owns `num_buckets[s] × actions`
    /// slots.
    pub num_buckets: Vec<u32>,
}

impl Tree {
    /// Refuses, before any work, a game this tree cannot walk: invalid, not heads-up, more than
    /// one down card per player, or a showdown other than showing hands.
    pub fn check_supported(def: &GameDef) -> Result<(), TreeError> {
        def.validate()?;
        if def.seats != 2 {
            return Err(TreeError::Unsupported(format!(
                "{} seats: the tree is heads-up only",
                def.seats
            )));
        }
        let downs: Vec<usize> = def
            .streets
            .iter()
            .map(|s| s.deal.iter().filter(|d| **d == Deal::Down).count())
            .collect();
        if downs[0] != 1 || downs[1..].iter().any(|&d| d != 0) {
            return Err(TreeError::Unsupported(format!(
                "{}: the full-width tree handles exactly one down card per player, dealt on the \
                 first street",
                def.variant
            )));
        }
        if !matches!(def.variant.showdown(), Showdown::Showing) {
            return Err(TreeError::Unsupported(format!(
                "{}: full-width showdowns of {:?} hands are not implemented yet",
                def.variant,
                def.variant.showdown()
            )));
        }
        Ok(())
    }

    /// Builds the tree of `def` under the two abstractions, refusing to grow past `budget`.
    pub fn build<A: CardAbstraction>(
        def: &GameDef,
        cards: &A,
        betting: BettingAbstraction,
        budget: Budget,
    ) -> Result<Tree, TreeError> {
        Tree::check_supported(def)?;
        let n = def.deck.len();
        // Every ordered pair of distinct private cards is equally likely.
        let prior = 1.0 / (n * (n - 1)) as f64;
        let at = At {
            public: CardSet::EMPTY,
            community: CardSet::EMPTY,
            board: NONE,
            round: 0,
            bets: 0,
            weight: prior,
            depth: 1,
        };
        Tree::build_at(def, cards, betting, budget, State::new(def)?, at)
    }

    /// Builds the public tree below a spot of a hand: `state` (its down cards unknown, at a
    /// decision, `raises` bets and raises made on its street so far) is the root, and every
    /// terminal's value is multiplied by `weight` and by the probability of the public cards
    /// dealt below the root, each uniform over the cards not seen given both private cards (as
    /// in [`Tree::build`]). A re-solved subgame whose later streets deal up cards is this tree,
    /// entered with ranges (`weight` then 1 / the weight of the pairs of hands that do not
    /// collide). The hands are the deck's cards, those showing at the root bucketed [`NONE`].
    pub fn build_below<A: CardAbstraction>(
        cards: &A,
        betting: BettingAbstraction,
        budget: Budget,
        state: &State,
        raises: u8,
        weight: f64,
    ) -> Result<Tree, TreeError> {
        let def = state.def();
        if !matches!(state.next(), Next::Act { .. }) {
            return Err(TreeError::Unsupported(
                "a tree below a spot starts at a decision".into(),
            ));
        }
        let mut public: CardSet = state.community_cards().iter().copied().collect();
        let community = public;
        for seat in 0..2 {
            public = public.union(state.up_cards(seat).iter().copied().collect());
        }
        let at = At {
            public,
            community,
            board: NONE,
            round: state.street(),
            bets: raises,
            weight,
            depth: 1,
        };
        Tree::build_at(def, cards, betting, budget, state.clone(), at)
    }

    /// The walk of [`Tree::build`] and [`Tree::build_below`] from `state`, where `at` says.
    fn build_at<A: CardAbstraction>(
        def: &GameDef,
        cards: &A,
        betting: BettingAbstraction,
        budget: Budget,
        state: State,
        at: At,
    ) -> Result<Tree, TreeError> {
        Tree::check_supported(def)?;
        let hands: Vec<Card> = def.deck.cards().iter().collect();
        let n = hands.len();
        let possible: Vec<usize> = (0..def.streets.len())
            .map(|s| Tree::possible_hands(def, s))
            .collect();
        for (s, &hands_there) in possible.iter().enumerate() {
            // The solver's per-node scratch holds one entry per hand; a bucket per hand at most.
            let k = cards.num_buckets(s, hands_there) as usize;
            if k == 0 || k > n {
                return Err(TreeError::Unsupported(format!(
                    "card abstraction {} has {k} buckets on street {s}: it needs 1 to {n} (the \
                     private hands)",
                    cards.name()
                )));
            }
        }
        let mut hand_of_card = [NONE; 52];
        for (i, c) in hands.iter().enumerate() {
            hand_of_card[c.id() as usize] = i as u32;
        }
        let mut b = Builder {
            def,
            cards,
            betting,
            budget,
            slots: 0,
            tree: Tree {
                nodes: Vec::new(),
                edges: Vec::new(),
                slot_range: Vec::new(),
                values: Vec::new(),
                boards: Vec::new(),
                buckets: Vec::new(),
                strength: Vec::new(),
                order: Vec::new(),
                hands,
                holdings: Vec::new(),
                twins: Vec::new(),
                hand_of_card,
                num_slots: 0,
                num_infosets: 0,
                max_actions: 0,
                max_depth: 0,
                big_bet: def.big_bet,
                num_buckets: (0..def.streets.len())
                    .map(|s| cards.num_buckets(s, possible[s]))
                    .collect(),
            },
            possible,
        };
        b.alloc(1)?;
        b.tree.edges[0] = Edge::Root;
        b.visit(0, state, at)?;
        b.tree.num_slots = b.slots as usize;
        // Give back the slack of the arrays' doubling (a large buffer shrinks in place): the
        // caller's arrays come next, and `bytes` is then what the tree holds.
        let t = &mut b.tree;
        t.nodes.shrink_to_fit();
        t.edges.shrink_to_fit();
        t.slot_range.shrink_to_fit();
        t.values.shrink_to_fit();
        t.boards.shrink_to_fit();
        t.buckets.shrink_to_fit();
        t.strength.shrink_to_fit();
        t.order.shrink_to_fit();
        Ok(b.tree)
    }

    /// The private hands a player can hold at a decision on `street` of the heads-up game
    /// `def`: the deck's cards not showing then (every up card of the street and before, both
    /// seats', and the community cards). The lossless abstraction has one bucket for each, so
    /// no slot is spent on a hand that collides with the board.
    pub fn possible_hands(def: &GameDef, street: usize) -> usize {
        let public: usize = (def.streets.iter().take(street + 1))
            .flat_map(|s| &s.deal)
            .map(|d| match d {
                Deal::Down => 0,
                Deal::Up => 2,
                Deal::Community => 1,
            })
            .sum();
        def.deck.len().saturating_sub(public)
    }

    /// The bytes the tree's arrays take as allocated (their capacities).
    pub fn bytes(&self) -> usize {
        fn b<T>(v: &Vec<T>) -> usize {
            v.capacity() * std::mem::size_of::<T>()
        }
        b(&self.nodes)
            + b(&self.edges)
            + b(&self.slot_range)
            + b(&self.values)
            + b(&self.boards)
            + b(&self.buckets)
            + b(&self.strength)
            + b(&self.order)
            + b(&self.hands)
            + b(&self.holdings)
            + b(&self.twins)
            + b(&self.num_buckets)
    }

    /// Number of private hands per player.
    pub fn num_hands(&self) -> usize {
        if self.holdings.is_empty() {
            self.hands.len()
        } else {
            self.holdings.len()
        }
    }

    /// The children of node `i`, as a range of node indices.
    pub fn children(&self, i: usize) -> std::ops::Range<usize> {
        let n = &self.nodes[i];
        n.first_child as usize..n.first_child as usize + n.num_children as usize
    }

    /// The bucket table of `seat` on board `b`: one bucket per hand, [`NONE`] for the hands
    /// that collide with the public cards.
    pub fn bucket_table(&self, b: u32, seat: u8) -> &[u32] {
        let n = self.num_hands();
        let o = self.boards[b as usize].buckets as usize + seat as usize * n;
        &self.buckets[o..o + n]
    }
}

/// Where the walk is: what the recursion carries besides the state.
#[derive(Clone, Copy)]
struct At {
    public: CardSet,
    community: CardSet,
    /// The board of the current street, or NONE after a public card until someone acts.
    board: u32,
    /// The street whose bets are counted in `bets`.
    round: usize,
    bets: u8,
    weight: f64,
    depth: usize,
}

struct Builder<'a, A> {
    def: &'a GameDef,
    cards: &'a A,
    betting: BettingAbstraction,
    budget: Budget,
    slots: u64,
    tree: Tree,
    /// [`Tree::possible_hands`] of each street.
    possible: Vec<usize>,
}

/// Makes room in `v` for `extra` more elements, within `limit` bytes in all of which `used` are
/// taken (`v`'s buffer among them): doubling as a `Vec` does where that fits, else growing by
/// just what is needed. The new buffer is counted beside the old one, which a reallocation
/// copies from. `false` when that does not fit, or when the system refuses the allocation (an
/// error for the caller, not an abort).
fn grow<T>(v: &mut Vec<T>, extra: usize, used: usize, limit: usize) -> bool {
    let need = v.len() + extra;
    if need <= v.capacity() {
        return true;
    }
    let room = limit.saturating_sub(used) / std::mem::size_of::<T>().max(1);
    let cap = (2 * v.capacity()).max(need).max(8).min(room);
    cap >= need && v.try_reserve_exact(cap - v.len()).is_ok()
}

impl<A: CardAbstraction> Builder<'_, A> {
    /// The bytes counted against the budget: the tree's arrays and the slots' share.
    fn used(&self) -> usize {
        let slots = usize::try_from(self.slots).unwrap_or(usize::MAX);
        self.tree
            .bytes()
            .saturating_add(slots.saturating_mul(self.budget.per_slot))
    }

    fn out_of_memory(&self) -> TreeError {
        TreeError::OutOfMemory {
            nodes: self.tree.nodes.len(),
            slots: self.slots,
            per_slot: self.budget.per_slot,
            bytes: self.budget.bytes,
        }
    }

    /// Makes room for `extra` more elements in the array `field` picks (see [`grow`]).
    fn reserve<T>(
        &mut self,
        extra: usize,
        field: impl Fn(&mut Tree) -> &mut Vec<T>,
    ) -> Result<(), TreeError> {
        let used = self.used();
        if grow(field(&mut self.tree), extra, used, self.budget.bytes) {
            Ok(())
        } else {
            Err(self.out_of_memory())
        }
    }

    /// Appends `k` placeholder nodes (children of one node) and returns the first index.
    fn alloc(&mut self, k: usize) -> Result<usize, TreeError> {
        let first = self.tree.nodes.len();
        let max = self.budget.nodes.min(NONE as usize);
        if first + k > max {
            return Err(TreeError::TooBig(max));
        }
        self.reserve(k, |t| &mut t.nodes)?;
        self.reserve(k, |t| &mut t.edges)?;
        self.reserve(k, |t| &mut t.slot_range)?;
        self.tree.nodes.resize(first + k, Node::PLACEHOLDER);
        self.tree.edges.resize(first + k, Edge::Root);
        self.tree.slot_range.resize(first + k, [0, 0]);
        Ok(first)
    }

    fn visit(&mut self, id: usize, mut state: State, mut at: At) -> Result<(), TreeError> {
        self.tree.max_depth = self.tree.max_depth.max(at.depth);
        let start = self.slots as u32;
        loop {
            match state.next() {
                Next::Deal {
                    deal: Deal::Down, ..
                } => state.deal_unknown()?,
                Next::Deal { deal, .. } => {
                    self.chance(id, &state, deal, at)?;
                    break;
                }
                Next::Act { seat } => {
                    self.action(id, &state, seat, at)?;
                    break;
                }
                Next::Over => {
                    self.terminal(id, &state, &mut at)?;
                    break;
                }
            }
        }
        self.tree.slot_range[id] = [start, self.slots as u32];
        Ok(())
    }

    fn chance(&mut self, id: usize, state: &State, deal: Deal, at: At) -> Result<(), TreeError> {
        let avail: Vec<Card> = self.def.deck.cards().minus(at.public).iter().collect();
        // Given both private cards, the public card is uniform over the rest of the deck.
        let unseen = avail.len() - 2;
        if unseen == 0 {
            return Err(TreeError::Unsupported("the deck runs out of cards".into()));
        }
        let p = 1.0 / unseen as f64;
        let k = avail.len();
        if k > u8::MAX as usize {
            return Err(TreeError::Unsupported(format!("{k} chance outcomes")));
        }
        let first = self.alloc(k)?;
        self.tree.nodes[id] = Node::chance(state.street() as u8, k as u8, first as u32);
        for (i, &c) in avail.iter().enumerate() {
            let mut s = state.clone();
            s.deal(c)?;
            self.tree.edges[first + i] = Edge::Card(c);
            let mut child = at;
            child.public.insert(c);
            if deal == Deal::Community {
                child.community.insert(c);
            }
            child.board = NONE;
            child.weight *= p;
            child.depth += 1;
            self.visit(first + i, s, child)?;
        }
        Ok(())
    }

    fn action(&mut self, id: usize, state: &State, seat: u8, mut at: At) -> Result<(), TreeError> {
        let street = state.street();
        if street != at.round {
            at.round = street;
            at.bets = 0;
        }
        if at.board == NONE {
            at.board = self.new_board(street, state, at)?;
        }
        let legal: Vec<Action> = state
            .legal_actions()
            .into_iter()
            .filter(|&a| self.betting.keeps(a, at.bets))
            .collect();
        let k = legal.len();
        if k == 0 || k > u8::MAX as usize {
            return Err(TreeError::Unsupported(format!(
                "{k} actions for {} on street {} after the betting abstraction",
                seat_name(seat),
                street + 1
            )));
        }
        let buckets = self.tree.num_buckets[street];
        let slot = self.slots;
        self.slots += buckets as u64 * k as u64;
        if self.slots >= NONE as u64 {
            return Err(TreeError::TooBig(self.tree.nodes.len()));
        }
        if self.used() > self.budget.bytes {
            return Err(self.out_of_memory());
        }
        self.tree.num_infosets += buckets as usize;
        self.tree.max_actions = self.tree.max_actions.max(k);
        let first = self.alloc(k)?;
        self.tree.nodes[id] = Node::action(
            seat,
            street as u8,
            k as u8,
            first as u32,
            slot as u32,
            at.board,
        );
        for (i, &a) in legal.iter().enumerate() {
            let mut s = state.clone();
            s.apply(a)?;
            self.tree.edges[first + i] = Edge::Action(a);
            let mut child = at;
            child.bets += matches!(a, Action::CompleteBetRaise(_)) as u8;
            child.depth += 1;
            self.visit(first + i, s, child)?;
        }
        Ok(())
    }

    fn terminal(&mut self, id: usize, state: &State, at: &mut At) -> Result<(), TreeError> {
        let folded: Vec<u8> = (0..2).filter(|&s| state.folded(s)).collect();
        let c0 = state.committed(0) as f64;
        let c1 = state.committed(1) as f64;
        self.reserve(1, |t| &mut t.values)?;
        let node = match folded.as_slice() {
            [f] => {
                // The winner takes what the folder put in; its own uncalled chips come back.
                let v0 = if *f == 0 { -c0 } else { c1 };
                self.tree.values.push(v0 * at.weight);
                Node::fold(
                    *f,
                    state.street() as u8,
                    (self.tree.values.len() - 1) as u32,
                )
            }
            [] => {
                if at.board == NONE {
                    at.board = self.new_board(state.street(), state, *at)?;
                }
                self.showdown_tables(at.board, state, at.community)?;
                self.tree.values.push(c0.min(c1) * at.weight);
                Node::showdown(
                    state.street() as u8,
                    (self.tree.values.len() - 1) as u32,
                    at.board,
                )
            }
            _ => {
                return Err(TreeError::Unsupported(
                    "the hand ended with both players folded".into(),
                ))
            }
        };
        self.tree.nodes[id] = node;
        Ok(())
    }

    /// A new board for the public cards of `at` on `street`, with both seats' bucket tables.
    fn new_board(&mut self, street: usize, state: &State, at: At) -> Result<u32, TreeError> {
        let n = self.tree.hands.len();
        self.reserve(2 * n, |t| &mut t.buckets)?;
        self.reserve(1, |t| &mut t.boards)?;
        let t = &mut self.tree;
        let buckets = t.buckets.len() as u32;
        let up = |seat: u8| state.up_cards(seat).iter().copied().collect::<CardSet>();
        for seat in 0..2u8 {
            let (my_up, opp_up) = (up(seat), up(1 - seat));
            // The hands not colliding with the board, numbered in card order.
            let mut possible = 0u32;
            for &c in &t.hands {
                if at.public.contains(c) {
                    t.buckets.push(NONE);
                    continue;
                }
                let b = self.cards.bucket(&SeatCards {
                    view: CardView {
                        street,
                        down: CardSet::single(c),
                        up: my_up,
                        opp_up,
                    },
                    hand_index: possible,
                    community: at.community,
                })?;
                if b >= t.num_buckets[street] {
                    return Err(TreeError::Unsupported(format!(
                        "card abstraction {}: bucket {b} of hand {c} on street {street} is not \
                         below its {} buckets",
                        self.cards.name(),
                        t.num_buckets[street]
                    )));
                }
                t.buckets.push(b);
                possible += 1;
            }
            if possible as usize != self.possible[street] {
                return Err(TreeError::Unsupported(format!(
                    "{possible} private hands possible on a board of street {street}, not the \
                     {} its deals leave",
                    self.possible[street]
                )));
            }
        }
        t.boards.push(Board {
            public: at.public,
            buckets,
            showdown: NONE,
        });
        Ok((t.boards.len() - 1) as u32)
    }

    /// Fills the showdown tables of `board` once: each seat's strength for every hand, and the
    /// hands in order of strength (for the O(n log n) sweep; sorted here, not while solving).
    fn showdown_tables(
        &mut self,
        board: u32,
        state: &State,
        community: CardSet,
    ) -> Result<(), TreeError> {
        if self.tree.boards[board as usize].showdown != NONE {
            return Ok(());
        }
        let n = self.tree.hands.len();
        self.reserve(2 * n, |t| &mut t.strength)?;
        self.reserve(2 * n, |t| &mut t.order)?;
        let t = &mut self.tree;
        let public = t.boards[board as usize].public;
        let offset = t.strength.len() as u32;
        for seat in 0..2u8 {
            let mut cards: Vec<Card> = Vec::with_capacity(8);
            let base = t.strength.len();
            for &h in &t.hands {
                let s = if public.contains(h) {
                    0
                } else {
                    cards.clear();
                    cards.push(h);
                    cards.extend_from_slice(state.up_cards(seat));
                    cards.extend(community.iter());
                    crate::eval::showing_high(&cards)
                };
                t.strength.push(s);
            }
            let mut order: Vec<u32> = (0..n as u32).collect();
            order.sort_by_key(|&h| t.strength[base + h as usize]);
            t.order.extend_from_slice(&order);
        }
        t.boards[board as usize].showdown = offset;
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::card_abstraction::Lossless;

    fn tree(def: &GameDef) -> Tree {
        Tree::build(
            def,
            &Lossless,
            BettingAbstraction::for_game(def),
            Budget::nodes(1 << 24),
        )
        .unwrap()
    }

    /// Information sets a player can actually be in: on a board, hands colliding with the
    /// public cards are impossible.
    fn possible_infosets(t: &Tree) -> usize {
        t.nodes
            .iter()
            .filter(|n| n.kind == NodeKind::Action)
            .map(|n| {
                let public = t.boards[n.board as usize].public;
                t.hands.iter().filter(|&&h| !public.contains(h)).count()
            })
            .sum()
    }

    #[test]
    fn kuhn_and_leduc_have_openspiel_sizes() {
        let k = tree(&GameDef::kuhn());
        assert_eq!(k.nodes.len(), 9);
        assert_eq!(k.num_infosets, 12); // OpenSpiel: 12 information states
        let l = tree(&GameDef::leduc());
        // OpenSpiel: 936; the lossless abstraction spends none on a hand that collides.
        assert_eq!(possible_infosets(&l), 936);
        assert_eq!(l.num_infosets, 936);
        assert_eq!(l.max_actions, 3);
    }

    #[test]
    fn games_outside_the_tree_are_refused() {
        let e = Tree::build(
            &GameDef::stud(crate::rules::Variant::SevenStud),
            &Lossless,
            BettingAbstraction::for_game(&GameDef::kuhn()),
            Budget::nodes(1000),
        )
        .unwrap_err();
        assert!(e.to_string().contains("one down card"), "{e}");
        let e = Tree::build(
            &GameDef::ministud(),
            &Lossless,
            BettingAbstraction::for_game(&GameDef::ministud()),
            Budget::nodes(1000),
        )
        .unwrap_err();
        assert!(matches!(e, TreeError::TooBig(_)), "{e}");
    }

    /// Buckets by whether the player's own up cards hold an ace: only whose cards are whose
    /// tells the two seats apart.
    struct SeesAce;

    impl CardAbstraction for SeesAce {
        fn name(&self) -> String {
            "sees-ace".into()
        }
        fn num_buckets(&self, _street: usize, _hands: usize) -> u32 {
            2
        }
        fn bucket(&self, c: &SeatCards) -> Result<u32, BucketError> {
            assert!(!c
                .view
                .up
                .union(c.view.opp_up)
                .contains(c.view.down.iter().next().unwrap()));
            Ok(c.view
                .up
                .iter()
                .any(|x| x.rank() == crate::cards::Rank::ACE) as u32)
        }
    }

    #[test]
    fn bucket_tables_are_per_seat_and_skip_the_public_cards() {
        let mut def = GameDef::ministud();
        def.deck.ranks = vec![crate::cards::Rank::KING, crate::cards::Rank::ACE];
        let t = Tree::build(
            &def,
            &SeesAce,
            BettingAbstraction::for_game(&def),
            Budget::nodes(1 << 24),
        )
        .unwrap();
        let child = |i: usize, c: &str| {
            let c: Card = c.parse().unwrap();
            t.children(i)
                .find(|&j| t.edges[j] == Edge::Card(c))
                .unwrap()
        };
        // Seat 0 shows the ace of spades, seat 1 the king of clubs.
        let n = child(child(0, "As"), "Kc");
        let board = t.nodes[n].board;
        for (seat, want) in [(0u8, 1), (1, 0)] {
            for (h, &b) in t.bucket_table(board, seat).iter().enumerate() {
                let public = ["As", "Kc"].map(|c| c.parse::<Card>().unwrap());
                let expect = if public.contains(&t.hands[h]) {
                    NONE
                } else {
                    want
                };
                assert_eq!(b, expect, "seat {seat} hand {}", t.hands[h]);
            }
        }
    }

    #[test]
    fn the_betting_abstraction_caps_raises() {
        let mut def = GameDef::leduc();
        def.max_bets = 4;
        let full = tree(&def);
        let capped = Tree::build(
            &def,
            &Lossless,
            BettingAbstraction { max_bets: 2 },
            Budget::nodes(1 << 24),
        )
        .unwrap();
        assert_eq!(capped.nodes.len(), tree(&GameDef::leduc()).nodes.len());
        assert!(full.nodes.len() > capped.nodes.len());
    }
}
