//! Building a last-street subgame: the ranges by the Bayesian replay, the hands, and the public
//! tree of the street's betting (see the parent module).

use super::{Options, Subgame};
use crate::bot::range::{for_each_set, replay, Replay};
use crate::bot::{Bet, Player};
use abstraction::betting_abstraction::BettingAbstraction;
use abstraction::cards::{Card, CardSet};
use abstraction::eval::{eval_high, eval_razz, showing_high};
use abstraction::rules::seat_name;
use abstraction::rules::{Action, Deal, GameDef, Next, Showdown, State};
use abstraction::tree::{Board, Edge, Node, NodeKind, Tree, NONE};
use anyhow::{bail, ensure};
use std::time::Instant;

/// The default floor of the ranges (see the parent module): a holding that would never have
/// taken an action taken keeps 0.3 of the weight of one that always would. Chosen by
/// measurement (docs/notes/resolve.md, "The floor"): on ministud the whole game's exact
/// exploitability after re-solving is lowest at 0.3 for coarse and fine blueprints alike (0.01
/// trusted the blueprint's reading of off-blueprint play, and folded to always-raise).
pub const DEFAULT_FLOOR: f64 = 0.3;

/// Reads a floor of the ranges, a probability from 0 to 1: the one reading of `--floor` (as a
/// command-line value parser) and of a player spec's `,floor=F`.
pub fn parse_floor(text: &str) -> Result<f64, String> {
    text.parse::<f64>()
        .ok()
        .filter(|&f| f == 0.0 || (super::MIN_FLOOR..=1.0).contains(&f))
        .ok_or_else(|| {
            format!(
                "the ranges' floor is a probability from 0 to 1, not `{text}` (0: Bayes' rule; \
                 else at least {})",
                super::MIN_FLOOR
            )
        })
}

/// The most down cards a holding may have: the terminals' card removal stops at three.
const MAX_CARDS: usize = crate::terminal::MAX_HOLDING_CARDS;

/// What a subgame is built from, however it was found ([`Subgame::given`]): the hand at the
/// root, the two seats that play it and their ranges, the cards out of the deck.
#[derive(Clone, Debug)]
pub struct Given {
    /// The hand at the subgame's root, every down card unknown: the first decision of its
    /// street, or at a table a later one of the last street where the pot became heads-up.
    pub state: State,
    /// The hand's betting up to the root.
    pub bets: Vec<Bet>,
    /// The two seats still in, the subgame's first seat and its second (every other seat has
    /// folded).
    pub seats: [u8; 2],
    /// Each of the two seats' weight on each holding of its down cards at the root (the sets
    /// left out weigh 0; normalized here).
    pub ranges: [Vec<(CardSet, f64)>; 2],
    /// Cards known to be out of the deck beside every up card of `state` (which are always
    /// out, a folded seat's too): none of them is in a holding.
    pub dead: CardSet,
}

/// See [`Subgame::at`] and [`Subgame::at_street`]: the subgame from the first decision of
/// `root` (the last street, or the one before it), both seats' ranges replayed heads-up.
pub(super) fn subgame(
    blueprint: &dyn Player,
    real: &State,
    bets: &[Bet],
    root: usize,
    options: Options,
) -> anyhow::Result<Subgame> {
    check_spot(real, root, options)?;
    let start = Instant::now();
    // Replay the public events of the hand up to the root street's first decision, both
    // seats' down cards unknown, each seat's actions weighing its range.
    let Replay {
        ranges,
        state,
        read,
        seen,
    } = replay(blueprint, real, bets, options.floor, |st| {
        st.street() == root
    })?;
    check_replayed(&state, root)?;
    let given = Given {
        state,
        bets: bets[..read].to_vec(),
        seats: [0, 1],
        ranges: ranges.map(|r| r.holdings().iter().map(|h| (h.set, h.weight)).collect()),
        dead: seen,
    };
    of_given(given, start)
}

/// Checks that a replay stopped at a decision of the subgame's street `root` (`st`).
pub(super) fn check_replayed(st: &State, root: usize) -> anyhow::Result<()> {
    match st.next() {
        Next::Act { .. } if st.street() == root => Ok(()),
        Next::Act { .. } => bail!("the betting given stops before the subgame's street"),
        Next::Over => bail!("the hand ends before the subgame's street"),
        Next::Deal { .. } => bail!("the state lacks a card the betting so far dealt"),
    }
}

/// [`Subgame::given`]: the subgame of `given`, its ranges' time counted from `start`.
pub(super) fn of_given(given: Given, start: Instant) -> anyhow::Result<Subgame> {
    let Given {
        state: st,
        bets,
        seats,
        ranges,
        dead,
    } = given;
    let def = &st.def().clone();
    let root = st.street();
    let last = def.streets.len() - 1;
    check_seats(&st, seats)?;
    check_game(def, root)?;
    // The last street's down card, dealt below the root: one more card per hand.
    let later = last - root;
    let k = check_root(&ranges, later)?;
    // Every up card on the table is out, a folded seat's too.
    let shown = (0..def.seats).fold(dead, |d, s| {
        st.up_cards(s)
            .iter()
            .fold(d, |d, &c| d.union(CardSet::single(c)))
    });
    // The root's hands: every set of `k` unseen cards, in the order of `for_each_set`.
    let pool: Vec<Card> = def.deck.cards().minus(shown).iter().collect();
    let mut roots = Vec::new();
    for_each_set(&pool, k, |c| {
        roots.push(c.iter().copied().collect::<CardSet>())
    });
    let root_weights = root_weights(&roots, &ranges, shown)?;
    let deal = Dealt::new(&roots, &pool, later > 0);
    let weights = root_weights.map(|w| deal.spread(&w));
    let range_millis = start.elapsed().as_secs_f64() * 1000.0;
    let mut b = Builder::new(def, &deal, k + later, root, last);
    b.seats = seats;
    // The chance of the subgame: the weight of every pair of holdings that do not collide.
    let pairs = b.disjoint_pairs(&weights);
    super::reached(
        pairs > 0.0,
        "every pair of the two ranges' holdings shares a card",
    )?;
    b.scale = 1.0 / pairs;
    // A root later in its street (a table's pot become heads-up there) keeps the street's
    // raises so far against the cap.
    let raises = bets
        .iter()
        .filter(|(s, a)| *s == root && matches!(a, Action::CompleteBetRaise(_)))
        .count() as u8;
    b.visit(0, st, bets.clone(), raises, root, 1)?;
    b.showdown_tables(&deal.hands)?;
    let scale = b.scale;
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
        hands: deal.hands,
        roots,
        of_root: deal.of_root,
        states,
        bets: node_bets,
        root_bets: bets.len(),
        street: root,
        range_millis,
        scale,
        seats,
    })
}

/// Checks that `seats` are two seats of `st`'s table still in, every other seat folded, and
/// that one of them acts at `st`.
fn check_seats(st: &State, seats: [u8; 2]) -> anyhow::Result<()> {
    let n = st.def().seats;
    ensure!(
        seats[0] != seats[1] && seats.iter().all(|&s| s < n),
        "a subgame's two seats are two seats of the table of {n}, not {} and {}",
        seat_name(seats[0]),
        seat_name(seats[1])
    );
    let pair = 1u16 << seats[0] | 1u16 << seats[1];
    ensure!(
        st.live() == pair,
        "a subgame is heads-up: at its root {} and {} are the only seats in",
        seat_name(seats[0]),
        seat_name(seats[1])
    );
    match st.next() {
        Next::Act { .. } => Ok(()),
        _ => bail!("a subgame's root is a decision"),
    }
}

/// Checks that a subgame from `root` at `real` can be built (heads-up, a floor that is a
/// probability, `root` the last street or the one before it and reached at a decision, a last
/// street of one down card below it, no split showdown); the last street.
fn check_spot(real: &State, root: usize, options: Options) -> anyhow::Result<usize> {
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
        (root == last || root + 1 == last)
            && root <= real.street()
            && (real.street() > root || matches!(real.next(), Next::Act { .. })),
        "re-solving starts on the last street ({}), or the one before ({}), at a decision: this \
         spot is on {}",
        def.street_name(last),
        def.street_name(last.saturating_sub(1)),
        def.street_name(real.street())
    );
    check_game(def, root)?;
    Ok(last)
}

/// Checks that a subgame of `def` from `root` can be built: the last street or the one before
/// it, that one only where the last street deals one down card and nothing else, and no split
/// showdown.
fn check_game(def: &GameDef, root: usize) -> anyhow::Result<()> {
    let last = def.streets.len() - 1;
    ensure!(
        root == last || root + 1 == last,
        "re-solving starts on the last street ({}) or the one before ({}), not on {}",
        def.street_name(last),
        def.street_name(last.saturating_sub(1)),
        def.street_name(root)
    );
    if root < last && def.streets[last].deal != [Deal::Down] {
        bail!(
            "{}: re-solving from {} needs the last street to deal each seat one down card and \
             nothing else (private chance); a card dealt face up there (public chance) is not \
             built",
            def.variant,
            def.street_name(root)
        );
    }
    if matches!(def.variant.showdown(), Showdown::HiLo8) {
        bail!(
            "{}: re-solving the split (high-low) showdown is not implemented yet",
            def.variant
        );
    }
    Ok(())
}

/// Checks that both ranges' holdings hold as many down cards, as many as the subgame handles
/// with `later` streets below the root; that number.
fn check_root(ranges: &[Vec<(CardSet, f64)>; 2], later: usize) -> anyhow::Result<usize> {
    let first = ranges[0].first().or(ranges[1].first());
    let k = first.map_or(0, |h| h.0.len() as usize);
    ensure!(
        ranges.iter().flatten().all(|h| h.0.len() as usize == k)
            && (1..=MAX_CARDS - later).contains(&k),
        "re-solving handles 1 to {} down cards per seat at the subgame's root, the same for both",
        MAX_CARDS - later
    );
    ensure!(
        later == 0 || k == 2,
        "re-solving from the street before the last needs two down cards per seat there (the \
         last street's hands are then sets of three), not {k}"
    );
    Ok(k)
}

/// Each seat's range over the root hands `roots`, normalized; a holding with a card of
/// `out` (a dead card), a holding outside them, or an empty range, is an error.
fn root_weights(
    roots: &[CardSet],
    ranges: &[Vec<(CardSet, f64)>; 2],
    out: CardSet,
) -> anyhow::Result<[Vec<f64>; 2]> {
    let mut sorted: Vec<(u64, u32)> = roots
        .iter()
        .enumerate()
        .map(|(i, h)| (h.0, i as u32))
        .collect();
    sorted.sort_unstable();
    let mut root_weights = [vec![0.0; roots.len()], vec![0.0; roots.len()]];
    for (r, w) in ranges.iter().zip(&mut root_weights) {
        for &(set, weight) in r {
            if let Some(c) = set.intersection(out).iter().next() {
                bail!("a holding of the ranges holds {c}, a card out of the deck");
            }
            let i = sorted
                .binary_search_by_key(&set.0, |x| x.0)
                .map_err(|_| anyhow::anyhow!("a holding outside the unseen cards"))?;
            w[sorted[i].1 as usize] += weight;
        }
        let total: f64 = w.iter().sum();
        super::reached(total > 0.0, "a seat's range is empty")?;
        w.iter_mut().for_each(|x| *x /= total);
    }
    Ok(root_weights)
}

/// The subgame's hands: at the root, the sets of `roots`; where the last street's down card
/// comes below the root (private chance), each root hand with each unseen card it lacks, in
/// root order then pool order (`of_root` maps a hand to its root hand: its sixth-street
/// bucket). With perfect recall a seat remembers which cards it held before, so a set of three
/// cards is three hands there, twins of one another for card removal ([`Tree::twins`]).
struct Dealt {
    hands: Vec<CardSet>,
    of_root: Vec<u32>,
    /// The hands per root hand (the cards it can be dealt).
    per_root: usize,
    twins: Vec<[u32; 2]>,
}

impl Dealt {
    fn new(roots: &[CardSet], pool: &[Card], dealt: bool) -> Dealt {
        if !dealt {
            return Dealt {
                hands: roots.to_vec(),
                of_root: (0..roots.len() as u32).collect(),
                per_root: 1,
                twins: Vec::new(),
            };
        }
        let (mut hands, mut of_root) = (Vec::new(), Vec::new());
        for (i, r) in roots.iter().enumerate() {
            for &c in pool.iter().filter(|&&c| !r.contains(c)) {
                hands.push(r.union(CardSet::single(c)));
                of_root.push(i as u32);
            }
        }
        // Hands of one set lie together once sorted by set: three of them (a root of two
        // cards, the third dealt after: which one came last).
        let mut by_set: Vec<(u64, u32)> = hands
            .iter()
            .enumerate()
            .map(|(i, h)| (h.0, i as u32))
            .collect();
        by_set.sort_unstable();
        let mut twins = vec![[0; 2]; hands.len()];
        for g in by_set.chunks(3) {
            debug_assert!(g.len() == 3 && g[0].0 == g[2].0);
            twins[g[0].1 as usize] = [g[1].1, g[2].1];
            twins[g[1].1 as usize] = [g[0].1, g[2].1];
            twins[g[2].1 as usize] = [g[0].1, g[1].1];
        }
        Dealt {
            per_root: pool.len() - 2,
            hands,
            of_root,
            twins,
        }
    }

    /// A range over the root hands spread over the hands: each card the root hand lacks
    /// dealt alike (it still sums to 1).
    fn spread(&self, root: &[f64]) -> Vec<f64> {
        let share = 1.0 / self.per_root as f64;
        self.of_root
            .iter()
            .map(|&r| root[r as usize] * share)
            .collect()
    }
}

/// Builds the subgame's tree: a board per street from the root's, the hands each their own
/// bucket on the last street and their root hand's on the root's street when that is earlier.
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
    /// The table's seats of the subgame's two (the first and the second).
    seats: [u8; 2],
    /// The street of the root (board 0; board `s - root` is street `s`'s).
    root: usize,
}

impl<'a> Builder<'a> {
    fn new(def: &'a GameDef, deal: &Dealt, k: usize, root: usize, last: usize) -> Builder<'a> {
        let hands = &deal.hands;
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
        let mut buckets = Vec::new();
        let mut boards = Vec::new();
        for (street, count) in num_buckets.iter_mut().enumerate().take(last + 1).skip(root) {
            // A seat's bucket table, the same for both seats: on the last street every hand is
            // its own; before it, the hand's root hand (its cards then).
            let table: Vec<u32> = if street == last {
                (0..n as u32).collect()
            } else {
                deal.of_root.clone()
            };
            *count = table.iter().max().map_or(0, |&b| b + 1);
            boards.push(Board {
                public: CardSet::EMPTY,
                buckets: buckets.len() as u32,
                showdown: NONE,
            });
            buckets.extend_from_slice(&table);
            buckets.extend_from_slice(&table);
        }
        let tree = Tree {
            nodes: vec![Node::PLACEHOLDER],
            edges: vec![Edge::Root],
            slot_range: vec![[0, 0]],
            values: Vec::new(),
            boards,
            buckets,
            strength: Vec::new(),
            order: Vec::new(),
            hands: one,
            holdings: if k == 1 { Vec::new() } else { hands.to_vec() },
            twins: deal.twins.clone(),
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
            seats: [0, 1],
            root,
        }
    }

    /// The subgame's seat (0 or 1) of the table's `seat`.
    fn seat_of(&self, seat: u8) -> anyhow::Result<u8> {
        match self.seats.iter().position(|&s| s == seat) {
            Some(i) => Ok(i as u8),
            None => bail!(
                "{} acts in a heads-up subgame of two others",
                seat_name(seat)
            ),
        }
    }

    /// Σ over pairs of hands sharing no card of `w[0][h0] × w[1][h1]`.
    fn disjoint_pairs(&self, w: &[Vec<f64>; 2]) -> f64 {
        let mut out = vec![0.0; w[0].len()];
        crate::terminal::disjoint_reach(&self.tree, &w[1], &mut out);
        out.iter().zip(&w[0]).map(|(a, b)| a * b).sum()
    }

    /// Builds node `id` from `state` (the hand's betting so far `bets`, `raises` bets on street
    /// `round`), at depth `depth`.
    fn visit(
        &mut self,
        id: usize,
        mut state: State,
        bets: Vec<Bet>,
        raises: u8,
        round: usize,
        depth: usize,
    ) -> anyhow::Result<()> {
        self.tree.max_depth = self.tree.max_depth.max(depth);
        let slot_start = self.slots as u32;
        // The last street's down cards below the root are private chance: the hands already
        // hold them (a seat's rows before them are its root hand's), so no node is made.
        while let Next::Deal {
            deal: Deal::Down, ..
        } = state.next()
        {
            state.deal_unknown()?;
        }
        let raises = if state.street() == round { raises } else { 0 };
        match state.next() {
            Next::Act { seat } => {
                let seat = self.seat_of(seat)?;
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
                let board = (state.street() - self.root) as u32;
                let buckets = self.tree.num_buckets[state.street()] as usize;
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
                    board,
                );
                self.slots += buckets * k;
                ensure!(
                    self.slots < NONE as usize,
                    "the subgame has too many infoset-actions"
                );
                self.tree.num_infosets += buckets;
                self.tree.max_actions = self.tree.max_actions.max(k);
                for (i, &a) in legal.iter().enumerate() {
                    let mut s = state.clone();
                    s.apply(a)?;
                    let mut b = bets.clone();
                    b.push((state.street(), a));
                    self.tree.edges[first + i] = Edge::Action(a);
                    let r = raises + matches!(a, Action::CompleteBetRaise(_)) as u8;
                    self.visit(first + i, s, b, r, state.street(), depth + 1)?;
                }
                self.states[id] = Some(state);
                self.bets[id] = bets;
            }
            Next::Over => self.tree.nodes[id] = self.terminal(&state)?,
            Next::Deal { .. } => bail!(
                "a card is dealt face up after the subgame's betting began ({}): public chance \
                 is not built",
                self.def.variant
            ),
        }
        self.tree.slot_range[id] = [slot_start, self.slots as u32];
        Ok(())
    }

    /// The terminal node of the hand over at `state`, its value pushed.
    fn terminal(&mut self, state: &State) -> anyhow::Result<Node> {
        let [s0, s1] = self.seats;
        let (c0, c1) = (state.committed(s0) as f64, state.committed(s1) as f64);
        // The chips of the seats that folded before the subgame, which its two seats
        // play for: each terminal's payoffs sum to them, so seat 0's value is the
        // payoffs' half difference (what the seat puts in, plus half the dead chips).
        let half_dead = (state.pot() as f64 - c0 - c1) / 2.0;
        let node = match (state.folded(s0), state.folded(s1)) {
            (true, false) | (false, true) => {
                let f = state.folded(s1) as u8;
                // The winner takes what the folder put in.
                let v0 = if f == 0 {
                    -c0 - half_dead
                } else {
                    c1 + half_dead
                };
                self.tree.values.push(v0 * self.scale);
                Node::fold(f, state.street() as u8, (self.tree.values.len() - 1) as u32)
            }
            (false, false) => {
                self.up = self.seats.map(|s| state.up_cards(s).to_vec());
                self.tree.values.push((c0.min(c1) + half_dead) * self.scale);
                let board = (state.street() - self.root) as u32;
                Node::showdown(
                    state.street() as u8,
                    (self.tree.values.len() - 1) as u32,
                    board,
                )
            }
            (true, true) => bail!("the hand ended with both players folded"),
        };
        Ok(node)
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
        // Every showdown is on the last street's board, the last of the boards.
        let b = t.boards.len() - 1;
        t.boards[b].showdown = 0;
        for seat in 0..2 {
            let up: CardSet = self.up[seat].iter().copied().collect();
            t.boards[b].public = t.boards[b].public.union(up);
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
