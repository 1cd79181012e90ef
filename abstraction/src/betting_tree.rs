//! The betting tree of the real games: the abstract game whose nodes are the betting decisions
//! only, with cards entering through buckets.
//!
//! # Roles
//! A node's [`BettingNode::role`] is a *role*, not a seat: on each street role 0 is the seat
//! that acts first on that street (on the first street the bring-in seat), role 1 the other. Which seat
//! holds which role is a fact of the deal (`deal::DealFacts::first`), so one tree serves every
//! deal. An information set is (action node, bucket of the actor's view on that street).
//!
//! # Shape
//! - [`BettingNode`]s (12 bytes) and [`Edge`]s as in the public tree ([`crate::tree`]), without
//!   chance nodes and boards: kinds ([`BettingKind`]) Action, Fold and Showdown; children
//!   contiguous.
//! - An action node on street `s` owns `num_buckets[s] × num_children` slots from
//!   [`BettingNode::first_slot`] (`first_slot + bucket * num_children + a`), numbered in
//!   depth-first preorder so that every subtree owns the slot range `slot_range[node]` (the
//!   solver splits its arrays there).
//! - Terminals carry their stake ([`BettingNode::stake`], in [`Chips`]): at a Fold, the chips the
//!   folding role put in (antes included) — it loses them and the other role wins them; at a Showdown, the chips
//!   each seat put in (always equal: no all-ins, see below). The street's roles make these the
//!   same for every deal, so the solver needs no chip bookkeeping per deal.
//!
//! # How it is built
//! By walking the rules engine ([`State`]) on one representative deal, so the legal actions and
//! amounts are the engine's. The betting does not depend on the cards except through who acts
//! first (the roles absorb that) and the open pair on fourth street: the representative deal
//! shows no pair, so an open-pair big bet is not in the tree — a real big bet there is mapped
//! onto the small bet (a 12% event that would double the tree). The raise cap is
//! [`BettingAbstraction::max_bets`] (the game's cap, also applied heads-up where the rules lift
//! it). The build refuses stacks a capped hand can exhaust: with no all-ins, every street closes
//! with equal bets and the tree's stakes are exact.
//!
//! # Translating real betting
//! [`BettingTree::locate`] follows a real betting history and [`BettingTree::child_for`] maps a
//! real action onto a child, by kind rather than amount: a raise past the cap is a call (the
//! abstract street closes; the rest of that real street is absorbed), an open-pair big bet is
//! the bet. [`BettingNodes::real_action`] goes the other way, an abstract child to the legal
//! action that plays it: an abstract raise where the real game allows none (a seat is all in:
//! the real stacks run out where the capped abstract game's do not) is the call.

use crate::betting_abstraction::BettingAbstraction;
use crate::cards::Card;
use crate::rules::game_def::GameDef;
use crate::rules::seat_name;
use crate::rules::state::{Action, Next, State};
use crate::tree::{Edge, TreeError, NONE};

/// The abstract betting tree of a heads-up game (see the module documentation).
#[derive(Clone, Debug)]
pub struct BettingTree {
    /// The nodes; node 0 is the root (the first decision of the first street).
    pub nodes: Vec<BettingNode>,
    /// The action that led to each node ([`Edge::Root`] for the root), with the engine's amounts.
    pub edges: Vec<Edge>,
    /// Per node, the slots `[start, end)` of its whole subtree.
    pub slot_range: Vec<[u32; 2]>,
    /// Number of slots (infoset-action pairs).
    pub num_slots: usize,
    /// Buckets per street: an action node on street `s` owns `num_buckets[s] × actions` slots.
    pub num_buckets: Vec<u32>,
    /// The betting abstraction the tree was built with.
    pub betting: BettingAbstraction,
    /// The largest number of children of an action node.
    pub max_actions: usize,
    /// The deepest node (the root has depth 1).
    pub max_depth: usize,
}

/// What a node of the betting tree is. The codes are those of [`crate::tree::NodeKind`] (no
/// chance nodes here): a strategy file stores them.
#[repr(u8)]
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum BettingKind {
    /// A betting decision of [`BettingNode::role`].
    Action = 0,
    /// The hand ended with [`BettingNode::role`] folding.
    Fold = 2,
    /// The hand ended in a showdown.
    Showdown = 3,
}

impl BettingKind {
    /// The kind of code `code` (as stored), if it is one.
    pub fn from_code(code: u8) -> Option<BettingKind> {
        match code {
            0 => Some(BettingKind::Action),
            2 => Some(BettingKind::Fold),
            3 => Some(BettingKind::Showdown),
            _ => None,
        }
    }
}

/// An amount of chips: a terminal's stake, kept apart from the slot and row indices that share
/// a node's storage.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub struct Chips(pub u32);

impl Chips {
    /// The amount as the solver's `f32` values (exact below 2^24 chips).
    #[inline(always)]
    pub fn as_f32(self) -> f32 {
        self.0 as f32
    }
}

/// One node of a [`BettingTree`]. Built by the constructors of its kinds
/// ([`BettingNode::action`], [`BettingNode::fold`], [`BettingNode::showdown`]); the one `u32`
/// that is a slot or a stake by the kind is read through [`BettingNode::first_slot`] or
/// [`BettingNode::stake`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct BettingNode {
    /// What the node is.
    pub kind: BettingKind,
    /// Action: the role to act. Fold: the role that folded. Showdown: 0.
    pub role: u8,
    /// The street (0-based) of the state at this node.
    pub street: u8,
    /// Number of children (0 for terminals).
    pub num_children: u8,
    /// Index of the first child.
    pub first_child: u32,
    /// Action: the first slot. Fold and Showdown: the stake in chips.
    index: u32,
}

impl BettingNode {
    /// What the builder fills a freshly allocated node with before it knows what the node is.
    const PLACEHOLDER: BettingNode = BettingNode::showdown(0, Chips(0));

    /// A decision of `role` on `street` with `num_children` actions from `first_child`, whose
    /// rows start at slot `first_slot`.
    pub const fn action(
        role: u8,
        street: u8,
        num_children: u8,
        first_child: u32,
        first_slot: u32,
    ) -> BettingNode {
        BettingNode {
            kind: BettingKind::Action,
            role,
            street,
            num_children,
            first_child,
            index: first_slot,
        }
    }

    /// The end of the hand with `role` folding on `street`, having put in `stake`.
    pub const fn fold(role: u8, street: u8, stake: Chips) -> BettingNode {
        BettingNode {
            kind: BettingKind::Fold,
            role,
            street,
            num_children: 0,
            first_child: 0,
            index: stake.0,
        }
    }

    /// A showdown on `street`, each seat having put in `stake`.
    pub const fn showdown(street: u8, stake: Chips) -> BettingNode {
        BettingNode {
            kind: BettingKind::Showdown,
            role: 0,
            street,
            num_children: 0,
            first_child: 0,
            index: stake.0,
        }
    }

    /// An action node's first slot: `first_slot + bucket × actions + a` holds action `a` of
    /// `bucket`.
    #[inline(always)]
    pub fn first_slot(&self) -> u32 {
        debug_assert_eq!(self.kind, BettingKind::Action);
        self.index
    }

    /// A terminal's stake: at a fold, the chips the folding role put in; at a showdown, the
    /// chips each seat put in.
    #[inline(always)]
    pub fn stake(&self) -> Chips {
        debug_assert_ne!(self.kind, BettingKind::Action);
        Chips(self.index)
    }

    /// What translating real betting reads of the node.
    pub fn shape(&self) -> NodeShape {
        NodeShape {
            kind: self.kind,
            street: self.street,
            num_children: self.num_children,
            first_child: self.first_child,
        }
    }
}

/// What translating real betting reads of a node ([`BettingNodes`]): its kind, street and
/// children — not its rows or stake, which a tree and a strategy file store differently.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct NodeShape {
    /// What the node is.
    pub kind: BettingKind,
    /// Its street.
    pub street: u8,
    /// Number of children.
    pub num_children: u8,
    /// Index of the first child.
    pub first_child: u32,
}

/// Size of one street of a [`BettingTree`].
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct StreetSize {
    /// Action nodes on the street.
    pub action_nodes: usize,
    /// Their children summed: slots per bucket.
    pub actions: usize,
    /// Folds and showdowns ending the hand on the street.
    pub terminals: usize,
}

impl BettingTree {
    /// Builds the betting tree of the heads-up game `def` under `betting`, with `num_buckets[s]`
    /// buckets on street `s`.
    pub fn build(
        def: &GameDef,
        betting: BettingAbstraction,
        num_buckets: &[u32],
    ) -> Result<BettingTree, TreeError> {
        def.validate()?;
        if def.seats != 2 {
            return Err(TreeError::Unsupported(format!(
                "{} seats: the betting tree is heads-up only",
                def.seats
            )));
        }
        if num_buckets.len() != def.streets.len() || num_buckets.contains(&0) {
            return Err(TreeError::Unsupported(format!(
                "buckets per street {num_buckets:?}: {} needs one positive count for each of its \
                 {} streets",
                def.variant,
                def.streets.len()
            )));
        }
        if betting.max_bets == 0 {
            return Err(TreeError::Unsupported(
                "a cap of 0 bets: the abstract game needs at least one bet per round".into(),
            ));
        }
        let mut b = Builder {
            slots: 0,
            tree: BettingTree {
                nodes: Vec::new(),
                edges: Vec::new(),
                slot_range: Vec::new(),
                num_slots: 0,
                num_buckets: num_buckets.to_vec(),
                betting,
                max_actions: 0,
                max_depth: 0,
            },
        };
        b.alloc(1);
        b.visit(0, State::new(def)?, At::default())?;
        b.tree.num_slots = b.slots as usize;
        Ok(b.tree)
    }

    /// The children of node `i`, as a range of node indices.
    pub fn children(&self, i: usize) -> std::ops::Range<usize> {
        let n = &self.nodes[i];
        n.first_child as usize..n.first_child as usize + n.num_children as usize
    }

    /// Number of information sets: the action nodes, each times its street's buckets.
    pub fn infosets(&self) -> usize {
        self.nodes
            .iter()
            .filter(|n| n.kind == BettingKind::Action)
            .map(|n| self.num_buckets[n.street as usize] as usize)
            .sum()
    }

    /// Action nodes, actions and terminals per street.
    pub fn street_sizes(&self) -> Vec<StreetSize> {
        let mut out = vec![StreetSize::default(); self.num_buckets.len()];
        for n in &self.nodes {
            let s = &mut out[n.street as usize];
            if n.kind == BettingKind::Action {
                s.action_nodes += 1;
                s.actions += n.num_children as usize;
            } else {
                s.terminals += 1;
            }
        }
        out
    }

    /// The action node's child for the real action `a` (see [`BettingNodes::child_for`]).
    pub fn child_for(&self, node: u32, a: Action) -> Option<usize> {
        BettingNodes::child_for(self, node, a)
    }

    /// The real action that plays an abstract child (see [`BettingNodes::real_action`]).
    pub fn real_action(&self, node: u32, child: usize, legal: &[Action]) -> Option<Action> {
        BettingNodes::real_action(self, node, child, legal)
    }

    /// The node reached by the real betting so far (see [`BettingNodes::locate`]).
    pub fn locate(&self, bets: &[(usize, Action)]) -> Result<u32, TreeError> {
        BettingNodes::locate(self, bets)
    }
}

impl BettingNodes for BettingTree {
    fn node_at(&self, i: u32) -> Option<NodeShape> {
        self.nodes.get(i as usize).map(BettingNode::shape)
    }

    fn edge_at(&self, i: u32) -> Option<Edge> {
        self.edges.get(i as usize).copied()
    }
}

/// Read access to the nodes and edges of a betting tree, and the translation of real betting
/// onto it. The tree implements it, and so does a strategy file that stores one (in `solver`),
/// so that both translate real betting with this one logic. An index that leads nowhere (a
/// damaged file) makes a translation fail, never panic.
pub trait BettingNodes {
    /// The shape of node `i`, if there is one.
    fn node_at(&self, i: u32) -> Option<NodeShape>;

    /// The edge that led to node `i`, if there is one.
    fn edge_at(&self, i: u32) -> Option<Edge>;

    /// The action node's child for the real action `a`, matched by kind: a fold, a check or
    /// call, the bring-in, or a completion, bet or raise — the child of nearest amount, or the
    /// call when the abstract game has none left (past the cap). `None` when the node is not an
    /// action node or has no such child.
    fn child_for(&self, node: u32, a: Action) -> Option<usize> {
        let n = self.node_at(node)?;
        if n.kind != BettingKind::Action {
            return None;
        }
        let kids = (0..n.num_children as usize).map(|i| self.edge_at(n.first_child + i as u32));
        let find = |want: Action| kids.clone().position(|e| e == Some(Edge::Action(want)));
        match a {
            Action::CompleteBetRaise(to) => kids
                .clone()
                .enumerate()
                .filter_map(|(i, e)| match e {
                    Some(Edge::Action(Action::CompleteBetRaise(x))) => Some((x.abs_diff(to), i)),
                    _ => None,
                })
                .min()
                .map(|(_, i)| i)
                .or_else(|| find(Action::CheckCall)),
            _ => find(a),
        }
    }

    /// The real action that plays the abstract child `child` of `node`, among the real `legal`
    /// actions: the one of the same amount if legal, else the first that maps onto the child;
    /// and a bet or raise when no bet or raise is legal is the check or call.
    ///
    /// That last case is an abstract child with no real counterpart: the abstract game has no
    /// all-ins, but the real one runs out of chips. Heads-up the real cap is lifted, and the raises
    /// past the abstract cap that [`Self::locate`] absorbs still cost chips, so a real seat can be
    /// all in where the abstract node still offers a raise. A raise against (or by) a seat with
    /// nothing behind is what the rules make a call, so the call plays it.
    fn real_action(&self, node: u32, child: usize, legal: &[Action]) -> Option<Action> {
        let n = self.node_at(node)?;
        if n.kind != BettingKind::Action || child >= n.num_children as usize {
            return None;
        }
        let Some(Edge::Action(want)) = self.edge_at(n.first_child + child as u32) else {
            return None;
        };
        let raise = |a: &Action| matches!(a, Action::CompleteBetRaise(_));
        legal
            .iter()
            .copied()
            .find(|&a| a == want)
            .or_else(|| {
                legal
                    .iter()
                    .copied()
                    .find(|&a| self.child_for(node, a) == Some(child))
            })
            .or_else(|| {
                (raise(&want) && !legal.iter().any(raise))
                    .then_some(Action::CheckCall)
                    .filter(|a| legal.contains(a))
            })
    }

    /// The node reached by the real betting so far: `bets` lists each action with its street,
    /// in order. Real actions the abstract game lacks are translated (see [`Self::child_for`]);
    /// after a raise past the cap the abstract street is closed, and the rest of that real
    /// street (calls and raises) is absorbed. A caller still acting on such a street finds the
    /// returned node on a later street (or a showdown, on the last street): the abstract game
    /// has called, and so should it. The error names the first action that cannot be placed.
    fn locate(&self, bets: &[(usize, Action)]) -> Result<u32, TreeError> {
        let mut node = 0u32;
        let mut closed: Option<usize> = None;
        for (i, &(street, a)) in bets.iter().enumerate() {
            let n = self
                .node_at(node)
                .ok_or_else(|| TreeError::Unsupported(format!("damaged tree: no node {node}")))?;
            if closed == Some(street) && a != Action::Fold {
                continue;
            }
            let placed = if n.kind == BettingKind::Action && n.street as usize == street {
                self.child_for(node, a)
            } else {
                None
            };
            let Some(c) = placed else {
                let at = match n.kind {
                    BettingKind::Action => format!("a decision on street {}", n.street),
                    _ => "the end of the hand".into(),
                };
                return Err(TreeError::Unsupported(format!(
                    "betting action {} ({a} on street {street}) has no place in the abstract \
                     tree, which is at {at}",
                    i + 1
                )));
            };
            let child = n.first_child + c as u32;
            if matches!(a, Action::CompleteBetRaise(_))
                && self.edge_at(child) == Some(Edge::Action(Action::CheckCall))
            {
                closed = Some(street);
            }
            node = child;
        }
        Ok(node)
    }
}

/// What the walk carries besides the state.
#[derive(Clone, Copy, Default)]
struct At {
    /// Full bets this round (the completion counts; the bring-in does not).
    bets: u8,
    /// The street `bets` counts.
    round: usize,
    depth: usize,
}

struct Builder {
    slots: u64,
    tree: BettingTree,
}

impl Builder {
    /// Appends `k` placeholder nodes (children of one node) and returns the first index.
    fn alloc(&mut self, k: usize) -> usize {
        let first = self.tree.nodes.len();
        self.tree.nodes.resize(first + k, BettingNode::PLACEHOLDER);
        self.tree.edges.resize(first + k, Edge::Root);
        self.tree.slot_range.resize(first + k, [0, 0]);
        first
    }

    fn visit(&mut self, id: usize, mut state: State, mut at: At) -> Result<(), TreeError> {
        at.depth += 1;
        self.tree.max_depth = self.tree.max_depth.max(at.depth);
        let start = self.slots as u32;
        loop {
            match state.next() {
                Next::Deal { .. } => state.deal(representative_card(&state)?)?,
                Next::Act { seat } => {
                    self.action(id, &state, seat, at)?;
                    break;
                }
                Next::Over => {
                    self.terminal(id, &state)?;
                    break;
                }
            }
        }
        self.tree.slot_range[id] = [start, self.slots as u32];
        Ok(())
    }

    fn action(&mut self, id: usize, state: &State, seat: u8, mut at: At) -> Result<(), TreeError> {
        check_stacks(state)?;
        let street = state.street();
        if street != at.round {
            at.round = street;
            at.bets = 0;
        }
        let legal: Vec<Action> = state
            .legal_actions()
            .into_iter()
            .filter(|&a| self.tree.betting.keeps(a, at.bets))
            .collect();
        let k = legal.len();
        if k == 0 || k > u8::MAX as usize {
            return Err(TreeError::Unsupported(format!(
                "{k} actions on street {street} after the betting abstraction"
            )));
        }
        let slot = self.slots;
        self.slots += self.tree.num_buckets[street] as u64 * k as u64;
        if self.slots >= NONE as u64 {
            return Err(TreeError::TooBig(self.tree.nodes.len()));
        }
        self.tree.max_actions = self.tree.max_actions.max(k);
        let first = self.alloc(k);
        self.tree.nodes[id] = BettingNode::action(
            role(state, street, seat),
            street as u8,
            k as u8,
            first as u32,
            slot as u32,
        );
        for (i, &a) in legal.iter().enumerate() {
            let mut s = state.clone();
            s.apply(a)?;
            self.tree.edges[first + i] = Edge::Action(a);
            let mut child = at;
            child.bets += matches!(a, Action::CompleteBetRaise(_)) as u8;
            self.visit(first + i, s, child)?;
        }
        Ok(())
    }

    fn terminal(&mut self, id: usize, state: &State) -> Result<(), TreeError> {
        check_stacks(state)?;
        let street = state.street();
        let (c0, c1) = (state.committed(0), state.committed(1));
        let chips = |c: u64| {
            u32::try_from(c)
                .map(Chips)
                .map_err(|_| TreeError::Unsupported(format!("a stake of {c} chips")))
        };
        let s = street as u8;
        self.tree.nodes[id] = match (state.folded(0), state.folded(1)) {
            (true, false) => BettingNode::fold(role(state, street, 0), s, chips(c0)?),
            (false, true) => BettingNode::fold(role(state, street, 1), s, chips(c1)?),
            (false, false) if c0 == c1 => BettingNode::showdown(s, chips(c0)?),
            _ => {
                return Err(TreeError::Unsupported(format!(
                    "a hand ended with folds {:?} and chips put in {c0} and {c1}",
                    (state.folded(0), state.folded(1))
                )))
            }
        };
        Ok(())
    }
}

/// The role of `seat` on `street`: 0 if it acted first there.
fn role(state: &State, street: usize, seat: u8) -> u8 {
    (state.first_actor(street) != Some(seat)) as u8
}

/// Refuses a state where a seat has no chips behind: the abstract game has no all-ins.
fn check_stacks(state: &State) -> Result<(), TreeError> {
    if let Some(seat) = (0..2u8).find(|&s| state.stack(s) == 0) {
        return Err(TreeError::Unsupported(format!(
            "{} is all in after putting in {} chips: the abstract game has no all-ins, so the \
             stacks ({:?}) must exceed what a hand capped at the betting abstraction can cost",
            seat_name(seat),
            state.committed(seat),
            state.def().starting_stacks
        )));
    }
    Ok(())
}

/// The card the representative deal gives next: the lowest card left that pairs none of the
/// receiving seat's up cards, so that no open pair changes the bet sizes (the heads-up and the
/// multiway betting trees deal alike).
pub(crate) fn representative_card(state: &State) -> Result<Card, TreeError> {
    let up: &[Card] = match state.next() {
        Next::Deal {
            seat: Some(s),
            deal: crate::rules::game_def::Deal::Up,
        } => state.up_cards(s),
        _ => &[],
    };
    let unseen = state.unseen();
    unseen
        .iter()
        .find(|c| up.iter().all(|u| u.rank() != c.rank()))
        .or_else(|| unseen.iter().next())
        .ok_or_else(|| TreeError::Unsupported("the deck runs out of cards".into()))
}

#[cfg(test)]
mod tests;
