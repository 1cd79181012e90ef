//! The betting abstraction of real stud for three to eight seats: one betting round at a time.
//!
//! # Why one street at a time
//! A perfect-recall tree of N-seat betting over five streets explodes: one capped round of eight
//! players is already 8.6 million decisions, and the streets multiply. Here the abstract game
//! forgets earlier streets' actions: each street's betting is its own tree, entered by what
//! enters the street — the street, the number of live seats `L`, and a class of the pot
//! ([`pot_class`]) — so an information set is (street tree node, pot class, bucket of the
//! actor's cards). Within a street the recall is perfect. The trees' sizes per street for
//! N = 2..8 are in docs/notes/multiway.md.
//!
//! # Roles
//! A node's role is a position in the street's order of play: role 0 acts first on the street
//! (the bring-in on the first street, the best showing hand after), role 1 the next live seat on
//! its left, and so on over the live seats only. Which seat holds which role is a fact of the
//! deal and of who is still in ([`crate::multiway_deal`]), so one tree serves every deal.
//!
//! # How it is built
//! Each tree by walking the rules engine ([`State`]) on a representative deal (no open pair, as
//! [`crate::betting_tree`]): the hand is played to the street with `N - L` seats folding to the
//! bring-in, then every legal action of the street is explored up to the raise cap
//! ([`BettingAbstraction::max_bets`]; kept where the engine lifts it with two players left).
//! Where the street ends, a terminal records each role's chips put in on the street, the roles
//! still live, and whether the hand goes on, ends by folds or goes to showdown: a solver adds
//! the chips itself and never calls the engine.
//!
//! # Recall within a street
//! [`WithinStreet::History`] (the default) gives every history of a street its own decision.
//! [`WithinStreet::Position`] merges every history that reaches the same betting position
//! ([`RoundPosition`]: who acts, who folded, who still must, each seat's chips in on the street,
//! the bets made) into one node: an information set then knows where the bets stand, not who
//! made them. The same position is the same state of the street (the same actor, actions,
//! terminals and stakes), so the node's children are shared too and the street's betting is a
//! DAG: each position's children once, 1 + its row's length nodes a tree. The rows and the
//! nodes shrink by 1.8 (three seats) to 9.9 (eight) times (docs/notes/multiway.md), which is what
//! lets eight seats be built; a traversal still walks histories, so its cost stays the same.
//!
//! # A cap for multiway pots
//! [`MultiwayCap`] (`stud solve --multiway-cap 2@6`) builds the trees of streets begun by many
//! live seats with fewer bets a round than the game's cap: what makes eight seats fit a
//! strategy file (`cap.rs`).
//!
//! # Translating real betting
//! [`MultiwayBetting::locate`] finds a real decision (a rules-engine state and the current
//! street's actions) in its street's tree with the translation of [`BettingNodes`], the one
//! logic the heads-up betting tree uses (a raise past the cap is a call, the rest of that street
//! absorbed; an open-pair big bet is the bet).

use crate::betting_abstraction::BettingAbstraction;
use crate::betting_tree::{representative_card, BettingKind, BettingNodes, NodeShape};
use crate::named::Named;
use crate::rules::game_def::{Deal, GameDef};
use crate::rules::pots::MAX_SEATS;
use crate::rules::state::{Action, Next, RoundPosition, State};
use crate::tree::{Edge, TreeError};
use serde::{Deserialize, Serialize};
use std::collections::hash_map::{Entry, HashMap};

mod cap;
pub use cap::MultiwayCap;

/// Pot classes of a street after the first (the first street is entered with the antes only).
pub const POT_CLASSES: u8 = 8;

/// The class of a pot of `pot` chips entering street `street` of `def`: 0 on the first street,
/// else `⌊log2(pot / small bet + 1)⌋` up to [`POT_CLASSES`] − 1 (the pot's size in small bets,
/// on a doubling scale: a street entered after no bet and after a capped war differ).
pub fn pot_class(def: &GameDef, street: usize, pot: u64) -> u8 {
    if street == 0 {
        return 0;
    }
    let bets = pot / def.small_bet.max(1) + 1;
    (bets.ilog2() as u8).min(POT_CLASSES - 1)
}

/// The pot classes of street `street`.
pub fn pot_classes(street: usize) -> u32 {
    if street == 0 {
        1
    } else {
        POT_CLASSES as u32
    }
}

/// What a decision of a street recalls of the street's betting before it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, Default)]
pub enum WithinStreet {
    /// Every action of the street, in order: each history is its own decision.
    #[default]
    History,
    /// Where the betting stands only: the histories that reach one [`RoundPosition`] share a
    /// node (its row and everything after it: the street's betting is a DAG).
    Position,
}

impl Named for WithinStreet {
    const ALL: &'static [(&'static str, WithinStreet)] = &[
        ("history", WithinStreet::History),
        ("position", WithinStreet::Position),
    ];
    const WHAT: &'static str = "a recall within a street";
}

/// What a node of a street tree is.
#[repr(u8)]
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum MwKind {
    /// A decision of [`MwNode::role`].
    Action = 0,
    /// The street closed with two or more roles live and more streets to come.
    NextStreet = 1,
    /// Every role but one folded: the hand is over.
    Fold = 2,
    /// The last street closed with two or more roles live.
    Showdown = 3,
}

/// One node of a street tree (12 bytes). Under [`WithinStreet::Position`] the decisions of one
/// betting position are copies of one node: one row, the same children.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct MwNode {
    /// What the node is.
    pub kind: MwKind,
    /// Action: the role to act. Terminals: 0.
    pub role: u8,
    /// The live roles (bit `r` = role `r`) at the node.
    pub live: u8,
    /// Number of children (0 for terminals).
    pub num_children: u8,
    /// Index of the first child (in [`MultiwayBetting::nodes`]).
    pub first_child: u32,
    /// Action: the offset of its first action in a row of its tree (shared by the decisions of
    /// one betting position under [`WithinStreet::Position`]). Terminals: where its stakes start
    /// in [`MultiwayBetting::stakes`] (one per role of the street).
    pub index: u32,
}

/// One street's tree, for a number of live seats.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct StreetTree {
    /// The street (0-based).
    pub street: u8,
    /// Live seats entering it.
    pub live: u8,
    /// Its root node.
    pub root: u32,
    /// Its nodes: `root..end` (a node of a DAG may be the copy of another, see
    /// [`WithinStreet::Position`]).
    pub end: u32,
    /// Decisions with a row of their own (every decision node, or under
    /// [`WithinStreet::Position`] every betting position).
    pub action_nodes: u32,
    /// Their actions summed: the length of a row (one pot class and bucket).
    pub actions: u32,
}

/// The betting abstraction of an N-seat game: a tree per (street, live seats).
#[derive(Clone, Debug)]
pub struct MultiwayBetting {
    /// Seats at the table.
    pub seats: u8,
    /// Streets of the game.
    pub streets: usize,
    /// The raise cap.
    pub betting: BettingAbstraction,
    /// What a decision recalls of its street's betting.
    pub within_street: WithinStreet,
    /// The cap of multiway streets, if any (their trees' own [`BettingAbstraction`]).
    pub cap: Option<MultiwayCap>,
    /// Every tree's nodes.
    pub nodes: Vec<MwNode>,
    /// The action that led to each node ([`Edge::Root`] at a root), with the engine's amounts.
    pub edges: Vec<Edge>,
    /// The chips each role put in on the street, per terminal.
    pub stakes: Vec<u32>,
    /// The trees.
    pub trees: Vec<StreetTree>,
    /// The tree of (street, live seats): `tree_of[street * (MAX_SEATS + 1) + live]`.
    tree_of: Vec<u32>,
    /// The largest number of children of a decision.
    pub max_actions: usize,
}

/// No tree for that entry.
const NO_TREE: u32 = u32::MAX;

impl MultiwayBetting {
    /// Builds every street's trees of `def` (3 to 8 seats, or 2) under `betting`, the rows
    /// recalling `within_street`, refusing beyond `max_nodes` nodes in all.
    pub fn build(
        def: &GameDef,
        betting: BettingAbstraction,
        within_street: WithinStreet,
        max_nodes: usize,
    ) -> Result<MultiwayBetting, TreeError> {
        MultiwayBetting::build_capped(def, betting, within_street, None, max_nodes)
    }

    /// [`MultiwayBetting::build`] with the streets begun by many seats capped by `cap`.
    pub fn build_capped(
        def: &GameDef,
        betting: BettingAbstraction,
        within_street: WithinStreet,
        cap: Option<MultiwayCap>,
        max_nodes: usize,
    ) -> Result<MultiwayBetting, TreeError> {
        def.validate()?;
        let n = def.seats;
        if !(2..=8).contains(&n) {
            return Err(TreeError::Unsupported(format!(
                "{n} seats: the multiway betting abstraction has 2 to 8"
            )));
        }
        if betting.max_bets == 0 {
            return Err(TreeError::Unsupported(
                "a cap of 0 bets: the abstract game needs at least one bet per round".into(),
            ));
        }
        if def
            .streets
            .iter()
            .flat_map(|s| &s.deal)
            .any(|d| *d == Deal::Community)
        {
            return Err(TreeError::Unsupported(
                "a community card: the multiway abstraction is for stud games".into(),
            ));
        }
        let mut b = MultiwayBetting {
            seats: n,
            streets: def.streets.len(),
            betting,
            within_street,
            cap,
            nodes: Vec::new(),
            edges: Vec::new(),
            stakes: Vec::new(),
            trees: Vec::new(),
            tree_of: vec![NO_TREE; def.streets.len() * (MAX_SEATS + 1)],
            max_actions: 0,
        };
        let mut most = 0u64;
        for street in 0..def.streets.len() {
            let lives: Vec<u8> = if street == 0 {
                vec![n]
            } else {
                (2..=n).collect()
            };
            let mut street_most = 0u64;
            for live in lives {
                let state = enter(def, street, live)?;
                let root = b.nodes.len();
                let mut walk = Walk {
                    betting: MultiwayCap::for_street(cap, betting, live),
                    b: &mut b,
                    street,
                    start: [0; MAX_SEATS],
                    order: [0; MAX_SEATS],
                    live,
                    actions: 0,
                    action_nodes: 0,
                    max_nodes,
                    most: 0,
                    positions: HashMap::new(),
                };
                for s in 0..n {
                    walk.start[s as usize] = state.committed(s);
                }
                walk.order = role_order(&state, street);
                walk.b.alloc(1);
                walk.visit(root, state, 0)?;
                let (actions, action_nodes, m) = (walk.actions, walk.action_nodes, walk.most);
                street_most = street_most.max(m);
                b.tree_of[street * (MAX_SEATS + 1) + live as usize] = b.trees.len() as u32;
                b.trees.push(StreetTree {
                    street: street as u8,
                    live,
                    root: root as u32,
                    end: b.nodes.len() as u32,
                    action_nodes,
                    actions,
                });
            }
            most += street_most;
        }
        // No all-ins in the abstract game: the most a seat can put in must stay below a stack.
        let need = def.ante + most;
        if let Some(&s) = def.starting_stacks.iter().find(|&&s| s <= need) {
            return Err(TreeError::Unsupported(format!(
                "stacks of {s} chips: the abstract game has no all-ins, so every stack must exceed \
                 the {need} chips a hand capped at {} bets a round can cost",
                betting.max_bets
            )));
        }
        Ok(b)
    }

    /// The tree entered on `street` with `live` seats, if the game has one.
    pub fn tree(&self, street: usize, live: u32) -> Option<u32> {
        let t = *self.tree_of.get(street * (MAX_SEATS + 1) + live as usize)?;
        (t != NO_TREE).then_some(t)
    }

    /// The children of node `i`, as a range of node indices.
    pub fn children(&self, i: usize) -> std::ops::Range<usize> {
        let n = &self.nodes[i];
        n.first_child as usize..n.first_child as usize + n.num_children as usize
    }

    /// The stakes (chips per role on the street) of terminal `node` of a street of `live`
    /// roles.
    pub fn stakes_of(&self, node: &MwNode, live: u8) -> &[u32] {
        &self.stakes[node.index as usize..node.index as usize + live as usize]
    }

    /// Decision nodes and actions (a row's length) per street, summed over its trees.
    pub fn street_sizes(&self) -> Vec<(usize, usize)> {
        let mut out = vec![(0, 0); self.streets];
        for t in &self.trees {
            out[t.street as usize].0 += t.action_nodes as usize;
            out[t.street as usize].1 += t.actions as usize;
        }
        out
    }

    /// The decision reached by a real hand: `state` is at a decision of its current street,
    /// `bets` is that street's actions so far. The tree is the street's with the seats that were
    /// live when it began (those live now and those that folded on it) and the node is found
    /// by [`MultiwayBetting::follow`]. The answer may be a terminal: the abstract street closed
    /// (a raise past the cap was its call) and the real one goes on.
    pub fn locate(&self, state: &State, bets: &[Action]) -> Result<Spot, TreeError> {
        let street = state.street();
        let folds = bets.iter().filter(|a| **a == Action::Fold).count() as u32;
        let live = state.live().count_ones() + folds;
        let tree = self.tree(street, live).ok_or_else(|| {
            TreeError::Unsupported(format!(
                "no tree for street {} with {live} live seats",
                street + 1
            ))
        })?;
        let node = self.follow(tree, bets)?;
        let on_street: u64 = (0..self.seats).map(|s| state.round_bet(s)).sum();
        Ok(Spot {
            tree,
            node,
            pot_class: pot_class(state.def(), street, state.pot() - on_street),
        })
    }

    /// The node of tree `tree` that a street's real actions `bets` reach. The real actors go
    /// round the roles that began the street, skipping those folded; an action of the role
    /// the node names is placed ([`BettingNodes::child_for`]: a raise past the abstract cap is
    /// the call), any other is absorbed: every action once the abstract street has closed, and
    /// a role acting again after a raise past the cap, which the abstract street never
    /// reopened (it has called there). Where the role to act now is not the node's, the node
    /// returned is the terminal the abstract street reaches when every role calls: the
    /// abstract street is closed for that role, and it calls.
    pub fn follow(&self, tree: u32, bets: &[Action]) -> Result<u32, TreeError> {
        let t = self.trees[tree as usize];
        let view = StreetView {
            b: self,
            root: t.root,
            street: t.street,
        };
        let (mut node, mut role, mut folded) = (t.root, 0u8, 0u16);
        for (i, &a) in bets.iter().enumerate() {
            let n = self.nodes[node as usize];
            if n.kind == MwKind::Action && n.role == role {
                let c = view.child_for(node - t.root, a).ok_or_else(|| {
                    TreeError::Unsupported(format!(
                        "betting action {} ({a} on street {}) has no place in the abstract tree",
                        i + 1,
                        t.street + 1
                    ))
                })?;
                node = n.first_child + c as u32;
            }
            if a == Action::Fold {
                folded |= 1 << role;
            }
            role = (1..=t.live)
                .map(|k| (role + k) % t.live)
                .find(|&r| folded >> r & 1 == 0)
                .unwrap_or(role);
        }
        while self.nodes[node as usize].kind == MwKind::Action
            && self.nodes[node as usize].role != role
        {
            let c = view
                .child_for(node - t.root, Action::CheckCall)
                .ok_or_else(|| TreeError::Unsupported("a decision with no call".into()))?;
            node = self.nodes[node as usize].first_child + c as u32;
        }
        Ok(node)
    }

    /// The real action that plays child `child` of decision `node` among the real `legal`
    /// actions (see [`BettingNodes::real_action`]).
    pub fn real_action(
        &self,
        tree: u32,
        node: u32,
        child: usize,
        legal: &[Action],
    ) -> Option<Action> {
        let t = self.trees.get(tree as usize)?;
        let view = StreetView {
            b: self,
            root: t.root,
            street: t.street,
        };
        view.real_action(node.checked_sub(t.root)?, child, legal)
    }

    /// The child of decision `node` of tree `tree` that plays the real action `a` (see
    /// [`BettingNodes::child_for`]), as a node index.
    pub fn child_for(&self, tree: u32, node: u32, a: Action) -> Option<u32> {
        let t = self.trees.get(tree as usize)?;
        let view = StreetView {
            b: self,
            root: t.root,
            street: t.street,
        };
        let c = view.child_for(node.checked_sub(t.root)?, a)?;
        Some(self.nodes[node as usize].first_child + c as u32)
    }

    /// Appends `k` placeholder nodes (children of one node) and returns the first index.
    fn alloc(&mut self, k: usize) -> usize {
        let first = self.nodes.len();
        let placeholder = MwNode {
            kind: MwKind::Fold,
            role: 0,
            live: 0,
            num_children: 0,
            first_child: 0,
            index: 0,
        };
        self.nodes.resize(first + k, placeholder);
        self.edges.resize(first + k, Edge::Root);
        first
    }
}

/// Where a real decision is in a [`MultiwayBetting`]: the tree, the node, the pot class.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Spot {
    /// The street tree.
    pub tree: u32,
    /// The node (in [`MultiwayBetting::nodes`]).
    pub node: u32,
    /// The pot class the street was entered with.
    pub pot_class: u8,
}

/// One street tree seen as a betting tree rooted at 0, for the shared translation logic.
struct StreetView<'a> {
    b: &'a MultiwayBetting,
    root: u32,
    street: u8,
}

impl BettingNodes for StreetView<'_> {
    fn node_at(&self, i: u32) -> Option<NodeShape> {
        let n = self.b.nodes.get(self.root.checked_add(i)? as usize)?;
        let kind = match n.kind {
            MwKind::Action => BettingKind::Action,
            MwKind::Fold => BettingKind::Fold,
            MwKind::NextStreet | MwKind::Showdown => BettingKind::Showdown,
        };
        Some(NodeShape {
            kind,
            street: self.street,
            num_children: n.num_children,
            first_child: n.first_child.checked_sub(self.root).unwrap_or(u32::MAX),
        })
    }

    fn edge_at(&self, i: u32) -> Option<Edge> {
        self.b
            .edges
            .get(self.root.checked_add(i)? as usize)
            .copied()
    }
}

/// The order of play of `state`'s live seats on `street` (whose betting has begun): role `r`'s
/// seat is `order[r]`, the first actor then the live seats on its left.
pub fn role_order(state: &State, street: usize) -> [u8; MAX_SEATS] {
    let n = state.def().seats;
    let first = state.first_actor(street).unwrap_or(0);
    let mut order = [0u8; MAX_SEATS];
    let mut r = 0;
    for k in 0..n {
        let s = (first + k) % n;
        if !state.folded(s) {
            order[r] = s;
            r += 1;
        }
    }
    order
}

/// A state at the first decision of `street` with `live` seats in: representative cards, and
/// on the first street `seats − live` seats folding to the bring-in, everyone else calling.
fn enter(def: &GameDef, street: usize, live: u8) -> Result<State, TreeError> {
    let mut st = State::new(def)?;
    let mut folds = def.seats - live;
    loop {
        match st.next() {
            Next::Deal { .. } => st.deal(representative_card(&st)?)?,
            Next::Act { seat } => {
                if st.street() == street {
                    return Ok(st);
                }
                let legal = st.legal_actions();
                let a = if st.bring_in_seat() == Some(seat) && legal.contains(&Action::BringIn) {
                    Action::BringIn
                } else if folds > 0 && legal.contains(&Action::Fold) {
                    folds -= 1;
                    Action::Fold
                } else {
                    Action::CheckCall
                };
                st.apply(a)?;
            }
            Next::Over => {
                return Err(TreeError::Unsupported(format!(
                    "the hand ended before street {} with {live} seats",
                    street + 1
                )))
            }
        }
    }
}

/// The walk building one street's tree.
struct Walk<'a> {
    /// The raise cap of this street's tree (the game's, or a multiway cap).
    betting: BettingAbstraction,
    b: &'a mut MultiwayBetting,
    street: usize,
    /// Each seat's chips in when the street began.
    start: [u64; MAX_SEATS],
    /// The seat of each role.
    order: [u8; MAX_SEATS],
    live: u8,
    actions: u32,
    action_nodes: u32,
    max_nodes: usize,
    /// The most one seat put in on the street.
    most: u64,
    /// Under [`WithinStreet::Position`], the node of each betting position met (with the
    /// abstraction's count of bets, which the position's count matches but is kept exact).
    positions: HashMap<(RoundPosition, u8), u32>,
}

impl Walk<'_> {
    /// The live roles of `state`.
    fn live_roles(&self, state: &State) -> u8 {
        (0..self.live)
            .filter(|&r| !state.folded(self.order[r as usize]))
            .fold(0, |m, r| m | 1 << r)
    }

    fn role_of(&self, seat: u8) -> u8 {
        (0..self.live)
            .find(|&r| self.order[r as usize] == seat)
            .unwrap_or(0)
    }

    fn visit(&mut self, id: usize, state: State, bets: u8) -> Result<(), TreeError> {
        if self.b.nodes.len() > self.max_nodes {
            return Err(TreeError::TooBig(self.b.nodes.len()));
        }
        let live = self.live_roles(&state);
        match state.next() {
            Next::Act { seat } if state.street() == self.street => {
                if self.b.within_street == WithinStreet::Position {
                    // A position met before is the same state of the street: the same actor,
                    // actions and everything after, so the node is that decision's (its row
                    // and its children: the street's betting is a DAG).
                    match self.positions.entry((state.round_position(), bets)) {
                        Entry::Occupied(first) => {
                            self.b.nodes[id] = self.b.nodes[*first.get() as usize];
                            return Ok(());
                        }
                        Entry::Vacant(v) => {
                            v.insert(id as u32);
                        }
                    }
                }
                let legal: Vec<Action> = state
                    .legal_actions()
                    .into_iter()
                    .filter(|&a| self.betting.keeps(a, bets))
                    .collect();
                let k = legal.len();
                if k == 0 || k > u8::MAX as usize {
                    return Err(TreeError::Unsupported(format!(
                        "{k} actions on street {} after the betting abstraction",
                        self.street + 1
                    )));
                }
                let first = self.b.alloc(k);
                let index = self.actions;
                self.actions += k as u32;
                self.action_nodes += 1;
                self.b.nodes[id] = MwNode {
                    kind: MwKind::Action,
                    role: self.role_of(seat),
                    live,
                    num_children: k as u8,
                    first_child: first as u32,
                    index,
                };
                self.b.max_actions = self.b.max_actions.max(k);
                for (i, &a) in legal.iter().enumerate() {
                    let mut s = state.clone();
                    s.apply(a)?;
                    self.b.edges[first + i] = Edge::Action(a);
                    let more = matches!(a, Action::CompleteBetRaise(_)) as u8;
                    self.visit(first + i, s, bets + more)?;
                }
            }
            next => {
                let kind = match next {
                    _ if live.count_ones() == 1 => MwKind::Fold,
                    Next::Over => MwKind::Showdown,
                    _ => MwKind::NextStreet,
                };
                let index = self.b.stakes.len() as u32;
                for r in 0..self.live {
                    let seat = self.order[r as usize];
                    let put = state.committed(seat) - self.start[seat as usize];
                    self.most = self.most.max(put);
                    let put = u32::try_from(put).map_err(|_| {
                        TreeError::Unsupported(format!("a stake of {put} chips on a street"))
                    })?;
                    self.b.stakes.push(put);
                }
                self.b.nodes[id] = MwNode {
                    kind,
                    role: 0,
                    live,
                    num_children: 0,
                    first_child: 0,
                    index,
                };
            }
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests;
