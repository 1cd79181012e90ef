//! Building a last-street subgame: the ranges by the Bayesian replay, the hands, and the public
//! tree of the street's betting (see the parent module).

use super::{Options, Subgame};
use crate::bot::range::{for_each_set, replay, Replay};
use crate::bot::{Bet, Player};
use abstraction::betting_abstraction::BettingAbstraction;
use abstraction::cards::{Card, CardSet};
use abstraction::eval::{eval_high, eval_razz, showing_high};
use abstraction::rules::{Action, GameDef, Next, Showdown, State};
use abstraction::tree::{Board, Edge, Node, NodeKind, Tree, NONE};
use anyhow::{bail, ensure};
use std::time::Instant;

/// The default floor of the ranges (see the parent module): a holding that would never have
/// taken an action taken is kept at a hundredth of the weight of one that always would.
pub const DEFAULT_FLOOR: f64 = 0.01;

/// The most down cards a holding may have: the terminals' card removal stops at three.
const MAX_CARDS: usize = crate::terminal::MAX_HOLDING_CARDS;

/// See [`Subgame::at`].
pub(super) fn subgame(
    blueprint: &dyn Player,
    real: &State,
    bets: &[Bet],
    options: Options,
) -> anyhow::Result<Subgame> {
    let def = real.def();
    ensure!(
        def.seats == 2,
        "re-solving is heads-up: the game has {} seats",
        def.seats
    );
    ensure!(
        (0.0..=1.0).contains(&options.floor),
        "the ranges' floor must be a probability, not {}",
        options.floor
    );
    let last = def.streets.len() - 1;
    ensure!(
        real.street() == last && matches!(real.next(), Next::Act { .. }),
        "re-solving starts on the last street ({}), at a decision: this spot is on {}",
        def.street_name(last),
        def.street_name(real.street())
    );
    if matches!(def.variant.showdown(), Showdown::HiLo8) {
        bail!(
            "{}: re-solving the split (high-low) showdown is not implemented yet",
            def.variant
        );
    }
    let start = Instant::now();
    let deck = def.deck.cards();
    // Replay the public events of the hand up to the last street's first decision, both
    // seats' down cards unknown, each seat's actions weighing its range.
    let Replay {
        ranges,
        state: st,
        read,
        seen,
    } = replay(blueprint, real, bets, options.floor, |st| {
        st.street() == last
    })?;
    match st.next() {
        Next::Act { .. } if st.street() == last => {}
        Next::Act { .. } => bail!("the betting given stops before the last street"),
        Next::Over => bail!("the hand ends before the last street"),
        Next::Deal { .. } => bail!("the state lacks a card the betting so far dealt"),
    }
    let k = ranges[0].n();
    ensure!(
        k == ranges[1].n() && (1..=MAX_CARDS).contains(&k),
        "re-solving handles 1 to {MAX_CARDS} down cards per seat, the same for both"
    );
    // The hands: every set of `k` unseen cards, in the order of `for_each_set`.
    let pool: Vec<Card> = deck.minus(seen).iter().collect();
    let mut hands = Vec::new();
    for_each_set(&pool, k, |c| {
        hands.push(c.iter().copied().collect::<CardSet>())
    });
    let mut sorted: Vec<(u64, u32)> = hands
        .iter()
        .enumerate()
        .map(|(i, h)| (h.0, i as u32))
        .collect();
    sorted.sort_unstable();
    let mut weights = [vec![0.0; hands.len()], vec![0.0; hands.len()]];
    for (r, w) in ranges.iter().zip(&mut weights) {
        for h in r.holdings() {
            let i = sorted
                .binary_search_by_key(&h.set.0, |x| x.0)
                .map_err(|_| anyhow::anyhow!("a holding outside the unseen cards"))?;
            w[sorted[i].1 as usize] += h.weight;
        }
        let total: f64 = w.iter().sum();
        ensure!(total > 0.0, "a seat's range is empty");
        w.iter_mut().for_each(|x| *x /= total);
    }
    let range_millis = start.elapsed().as_secs_f64() * 1000.0;
    let mut b = Builder::new(def, &hands, k, st.street());
    // The chance of the subgame: the weight of every pair of holdings that do not collide.
    let pairs = b.disjoint_pairs(&weights);
    ensure!(
        pairs > 0.0,
        "every pair of the two ranges' holdings shares a card"
    );
    b.scale = 1.0 / pairs;
    b.visit(0, st, bets[..read].to_vec(), 0, 1)?;
    b.showdown_tables(&hands)?;
    let Builder {
        mut tree,
        states,
        bets: node_bets,
        slots,
        ..
    } = b;
    tree.num_slots = slots;
    Ok(Subgame {
        tree,
        ranges: weights,
        hands,
        states,
        bets: node_bets,
        root_bets: read,
        street: last,
        range_millis,
    })
}

/// Builds the subgame's tree: one board, the hands each their own bucket.
struct Builder<'a> {
    def: &'a GameDef,
    betting: BettingAbstraction,
    tree: Tree,
    states: Vec<Option<State>>,
    bets: Vec<Vec<Bet>>,
    slots: usize,
    /// Each terminal's chips are multiplied by it (1 / the weight of the pairs).
    scale: f64,
    /// The up cards of each seat at the last state seen (for the showdown tables).
    up: [Vec<Card>; 2],
}

impl<'a> Builder<'a> {
    fn new(def: &'a GameDef, hands: &[CardSet], k: usize, street: usize) -> Builder<'a> {
        let n = hands.len();
        let mut hand_of_card = [NONE; 52];
        let one: Vec<Card> = if k == 1 {
            hands.iter().filter_map(|h| h.iter().next()).collect()
        } else {
            Vec::new()
        };
        for (i, c) in one.iter().enumerate() {
            hand_of_card[c.id() as usize] = i as u32;
        }
        let mut num_buckets = vec![0; def.streets.len()];
        num_buckets[street] = n as u32;
        let identity: Vec<u32> = (0..n as u32).chain(0..n as u32).collect();
        let tree = Tree {
            nodes: vec![Node::PLACEHOLDER],
            edges: vec![Edge::Root],
            slot_range: vec![[0, 0]],
            values: Vec::new(),
            boards: vec![Board {
                public: CardSet::EMPTY,
                buckets: 0,
                showdown: NONE,
            }],
            buckets: identity,
            strength: Vec::new(),
            order: Vec::new(),
            hands: one,
            holdings: if k == 1 { Vec::new() } else { hands.to_vec() },
            hand_of_card,
            num_slots: 0,
            num_infosets: 0,
            max_actions: 0,
            max_depth: 0,
            big_bet: def.big_bet,
            num_buckets,
        };
        Builder {
            def,
            betting: BettingAbstraction::for_game(def),
            tree,
            states: vec![None],
            bets: vec![Vec::new()],
            slots: 0,
            scale: 1.0,
            up: [Vec::new(), Vec::new()],
        }
    }

    /// Σ over pairs of hands sharing no card of `w[0][h0] × w[1][h1]`.
    fn disjoint_pairs(&self, w: &[Vec<f64>; 2]) -> f64 {
        let mut out = vec![0.0; w[0].len()];
        crate::terminal::disjoint_reach(&self.tree, &w[1], &mut out);
        out.iter().zip(&w[0]).map(|(a, b)| a * b).sum()
    }

    /// Builds node `id` from `state` (the hand's betting so far `bets`, `raises` bets on the
    /// street), at depth `depth`.
    fn visit(
        &mut self,
        id: usize,
        state: State,
        bets: Vec<Bet>,
        raises: u8,
        depth: usize,
    ) -> anyhow::Result<()> {
        let n = self.tree.num_hands();
        self.tree.max_depth = self.tree.max_depth.max(depth);
        let slot_start = self.slots as u32;
        match state.next() {
            Next::Act { seat } => {
                let legal: Vec<Action> = state
                    .legal_actions()
                    .into_iter()
                    .filter(|&a| self.betting.keeps(a, raises))
                    .collect();
                let k = legal.len();
                ensure!(
                    (1..=u8::MAX as usize).contains(&k),
                    "{k} actions at a decision"
                );
                let first = self.tree.nodes.len();
                self.tree.nodes.resize(first + k, Node::PLACEHOLDER);
                self.tree.edges.resize(first + k, Edge::Root);
                self.tree.slot_range.resize(first + k, [0, 0]);
                self.states.resize(first + k, None);
                self.bets.resize(first + k, Vec::new());
                self.tree.nodes[id] = Node::action(
                    seat,
                    state.street() as u8,
                    k as u8,
                    first as u32,
                    self.slots as u32,
                    0,
                );
                self.slots += n * k;
                ensure!(
                    self.slots < NONE as usize,
                    "the subgame has too many infoset-actions"
                );
                self.tree.num_infosets += n;
                self.tree.max_actions = self.tree.max_actions.max(k);
                for (i, &a) in legal.iter().enumerate() {
                    let mut s = state.clone();
                    s.apply(a)?;
                    let mut b = bets.clone();
                    b.push((state.street(), a));
                    self.tree.edges[first + i] = Edge::Action(a);
                    let r = raises + matches!(a, Action::CompleteBetRaise(_)) as u8;
                    self.visit(first + i, s, b, r, depth + 1)?;
                }
                self.states[id] = Some(state);
                self.bets[id] = bets;
            }
            Next::Over => {
                let (c0, c1) = (state.committed(0) as f64, state.committed(1) as f64);
                let node = match (state.folded(0), state.folded(1)) {
                    (true, false) | (false, true) => {
                        let f = state.folded(1) as u8;
                        // The winner takes what the folder put in.
                        let v0 = if f == 0 { -c0 } else { c1 };
                        self.tree.values.push(v0 * self.scale);
                        Node::fold(f, state.street() as u8, (self.tree.values.len() - 1) as u32)
                    }
                    (false, false) => {
                        self.up = [0, 1].map(|s| state.up_cards(s).to_vec());
                        self.tree.values.push(c0.min(c1) * self.scale);
                        Node::showdown(state.street() as u8, (self.tree.values.len() - 1) as u32, 0)
                    }
                    (true, true) => bail!("the hand ended with both players folded"),
                };
                self.tree.nodes[id] = node;
            }
            Next::Deal { .. } => bail!(
                "a card is dealt after the last street's betting began ({})",
                self.def.variant
            ),
        }
        self.tree.slot_range[id] = [slot_start, self.slots as u32];
        Ok(())
    }

    /// The board's showdown tables: each seat's strength with each hand (its up cards and the
    /// hand), and the hands in order of strength.
    fn showdown_tables(&mut self, hands: &[CardSet]) -> anyhow::Result<()> {
        let t = &mut self.tree;
        if !t.nodes.iter().any(|n| n.kind == NodeKind::Showdown) {
            return Ok(());
        }
        let showdown = self.def.variant.showdown();
        let n = hands.len();
        t.boards[0].showdown = 0;
        for seat in 0..2 {
            let up: CardSet = self.up[seat].iter().copied().collect();
            t.boards[0].public = t.boards[0].public.union(up);
            let base = t.strength.len();
            for &h in hands {
                let all = h.union(up);
                t.strength.push(match showdown {
                    Showdown::High => eval_high(all).value(),
                    Showdown::Razz => eval_razz(all).value(),
                    Showdown::Showing => showing_high(&all.iter().collect::<Vec<Card>>()),
                    Showdown::HiLo8 => bail!("the split showdown is not implemented"),
                });
            }
            let mut order: Vec<u32> = (0..n as u32).collect();
            order.sort_by_key(|&h| t.strength[base + h as usize]);
            t.order.extend_from_slice(&order);
        }
        Ok(())
    }
}
