//! Re-solving measured exactly on a walkable game: a player's strategy lifted onto the
//! lossless public tree, then every last-street subgame it reaches re-solved from its ranges
//! (as a [`super::ResolvingPlayer`] would at play time) and its rows replaced; both strategies
//! measured by the exact best response of the whole game.
//!
//! A re-solve sees only the public cards and the betting, so the subgame at a last-street root
//! is the same for every hand either seat holds there: solving it once per root and writing
//! each hand's re-solved row is exactly the strategy "the blueprint, with the last street
//! re-solved". Unsafe re-solving can make that strategy *more* exploitable than the blueprint
//! (the opponent's range is taken as the blueprint implies it): this measures whether it does.

use super::{Budget, Options, Subgame, Unreached, GAIN_TOLERANCE};
use crate::best_response::{exploitability, Exploitability};
use crate::bot::{Bet, Player};
use abstraction::cards::Card;
use abstraction::rules::{Deal, GameDef, Next, State};
use abstraction::tree::{Edge, NodeKind, Tree, NONE};
use anyhow::{bail, Context, Result};
use rayon::prelude::*;
use serde::Serialize;
use std::collections::hash_map::{Entry, HashMap};
use std::time::Instant;

/// What [`measure`] found.
#[derive(Clone, Copy, Debug, Serialize)]
pub struct Measured {
    /// The player's own strategy, lifted onto the lossless tree.
    pub blueprint: Exploitability,
    /// The same with every last-street subgame re-solved.
    pub resolved: Exploitability,
    /// Last-street roots re-solved.
    pub subgames: usize,
    /// The subgames' mean exploitability inside themselves: the blueprint's rows and the
    /// re-solved ones (chips per hand reaching the subgame, unweighted over the subgames).
    pub mean_subgame_blueprint: f64,
    /// See [`Measured::mean_subgame_blueprint`].
    pub mean_subgame_resolved: f64,
    /// Iterations of each re-solve (the budget's, or the mean under a time budget).
    pub iterations: f64,
    /// Wall milliseconds of the lift, and of the re-solves (ranges included; parallel over the
    /// roots).
    pub lift_millis: f64,
    /// See [`Measured::lift_millis`].
    pub resolve_millis: f64,
    /// Safe first re-solves (one per seat and subgame; 0 when unsafe): how many there were,
    /// how many let some opponent hand's best response gain over its alternative by more than
    /// [`GAIN_TOLERANCE`] (the gadget's bound not reached within the budget), and the largest
    /// gain (chips per hand reaching the subgame; `None` when unsafe).
    pub safe_solves: usize,
    /// See [`Measured::safe_solves`].
    pub gaining_solves: usize,
    /// See [`Measured::safe_solves`].
    pub max_opponent_gain: Option<f64>,
    /// With the fallback ([`Options::fallback`]): the safe first re-solves whose bound did not
    /// hold alone but did mixed with the blueprint (`mixed`), those that played the blueprint
    /// (`fell_back`), and the nested ones that played the rows of the solve above.
    pub mixed: usize,
    /// See [`Measured::mixed`].
    pub fell_back: usize,
    /// See [`Measured::fell_back`].
    pub nested_fell_back: usize,
    /// Roots not re-solved, their rows kept: a seat's range there is empty or meets none of
    /// the other's ([`super::Unreached`]: a strategy played pure or thresholded, ranges by
    /// Bayes' rule). Not counted in [`Measured::subgames`].
    pub unreached: usize,
}

/// A last-street root of the public tree: the first decision of the last street.
pub(crate) struct Root {
    /// The public tree's node.
    pub(crate) node: usize,
    /// The state there, down cards unknown.
    pub(crate) state: State,
    /// The betting of the hand so far.
    pub(crate) bets: Vec<Bet>,
}

/// `player`'s rows at every action node of `tree` (the lossless public tree of `def`): at each,
/// every hand plays the player's policy with those cards; and the tree's last-street roots.
pub(crate) fn lift(
    def: &GameDef,
    tree: &Tree,
    player: &dyn Player,
) -> Result<(Vec<f64>, Vec<Root>)> {
    lift_at(def, tree, player, def.streets.len() - 1)
}

/// [`lift`], with the roots of `street` (0-based): the first decision of that street after
/// every betting history and every board.
pub(crate) fn lift_at(
    def: &GameDef,
    tree: &Tree,
    player: &dyn Player,
    street: usize,
) -> Result<(Vec<f64>, Vec<Root>)> {
    if street >= def.streets.len() {
        bail!(
            "{} has {} streets: there is no street {}",
            def.variant,
            def.streets.len(),
            street + 1
        );
    }
    let mut lift = Lift {
        tree,
        player,
        out: vec![0.0; tree.num_slots],
        bets: Vec::new(),
        classes: HashMap::new(),
        street,
        roots: Vec::new(),
    };
    lift.node(0, State::new(def)?)?;
    Ok((lift.out, lift.roots))
}

/// Lifts `player` onto `tree` (the lossless public tree of the walkable game `def`, see
/// [`crate::ladder::lift_target`]), re-solves each last-street root within `budget` from the
/// player's ranges (`options`), and measures both strategies exactly. `progress` is told the
/// number of subgames re-solved so far and their total.
pub fn measure(
    def: &GameDef,
    tree: &Tree,
    player: &dyn Player,
    budget: Budget,
    options: Options,
    progress: &(dyn Fn(usize, usize) + Sync),
) -> Result<Measured> {
    let last = def.streets.len() - 1;
    measure_from(def, tree, player, last, budget, options, progress)
}

/// [`measure`] with the subgames rooted at the first decision of `street` (0-based) instead of
/// the last street's: before the last street each holds the rest of the hand, the up cards
/// still to come dealt inside it as public chance ([`Subgame::with_chance`]).
pub fn measure_from(
    def: &GameDef,
    tree: &Tree,
    player: &dyn Player,
    street: usize,
    budget: Budget,
    options: Options,
    progress: &(dyn Fn(usize, usize) + Sync),
) -> Result<Measured> {
    measure_ranged(
        def,
        tree,
        (player, player),
        street,
        budget,
        options,
        progress,
    )
}

/// [`measure_from`] with the re-solves' ranges weighed by `ranges` (the player with its
/// classes estimated: [`crate::bot::Estimated`]) while `player` is lifted as it plays: what
/// an approximate range costs in strength.
pub fn measure_ranged(
    def: &GameDef,
    tree: &Tree,
    (player, ranges): (&dyn Player, &dyn Player),
    street: usize,
    budget: Budget,
    options: Options,
    progress: &(dyn Fn(usize, usize) + Sync),
) -> Result<Measured> {
    let resolve =
        |root: &Root, lifted: &[f64]| resolve_root(tree, ranges, root, budget, options, lifted);
    measure_with(def, tree, player, street, &resolve, progress)
}

/// How one root is re-solved for [`measure_with`]: given the root and the lifted strategy.
pub(crate) type ResolveRoot<'a> = dyn Fn(&Root, &[f64]) -> Result<Solved> + Sync + 'a;

/// [`measure_from`] with each root re-solved by `resolve`.
pub(crate) fn measure_with(
    def: &GameDef,
    tree: &Tree,
    player: &dyn Player,
    street: usize,
    resolve: &ResolveRoot,
    progress: &(dyn Fn(usize, usize) + Sync),
) -> Result<Measured> {
    let start = Instant::now();
    let (lifted, roots) = lift_at(def, tree, player, street)?;
    let lift_millis = start.elapsed().as_secs_f64() * 1000.0;
    let blueprint = exploitability(tree, &lifted);

    let start = Instant::now();
    let done = std::sync::atomic::AtomicUsize::new(0);
    let solved: Vec<Option<Solved>> = roots
        .par_iter()
        .map(|root| {
            // A root the strategy never reaches with hands that can meet keeps its rows.
            let s = match resolve(root, &lifted) {
                Err(e) if Unreached::is(&e) => Ok(None),
                s => s.map(Some),
            }
            .with_context(|| format!("the subgame at public node {}", root.node));
            progress(
                done.fetch_add(1, std::sync::atomic::Ordering::Relaxed) + 1,
                roots.len(),
            );
            s
        })
        .collect::<Result<_>>()?;
    let resolve_millis = start.elapsed().as_secs_f64() * 1000.0;
    let unreached = solved.iter().filter(|s| s.is_none()).count();
    let solved: Vec<Solved> = solved.into_iter().flatten().collect();
    let mut resolved = lifted;
    for s in &solved {
        for &(at, p) in &s.rows {
            resolved[at] = p;
        }
    }
    let n = solved.len().max(1) as f64;
    let gains = || solved.iter().flat_map(|s| s.gains.iter().copied());
    Ok(Measured {
        blueprint,
        resolved: exploitability(tree, &resolved),
        subgames: solved.len(),
        mean_subgame_blueprint: solved.iter().map(|s| s.blueprint).sum::<f64>() / n,
        mean_subgame_resolved: solved.iter().map(|s| s.resolved).sum::<f64>() / n,
        iterations: solved.iter().map(|s| s.iterations as f64).sum::<f64>() / n,
        lift_millis,
        resolve_millis,
        safe_solves: gains().count(),
        gaining_solves: gains().filter(|&g| g > GAIN_TOLERANCE).count(),
        max_opponent_gain: gains().reduce(f64::max),
        mixed: solved.iter().map(|s| s.mixed).sum(),
        fell_back: solved.iter().map(|s| s.fell_back.0).sum(),
        nested_fell_back: solved.iter().map(|s| s.fell_back.1).sum(),
        unreached,
    })
}

/// The exact exploitability of `player` in the walkable heads-up game `def` (Kuhn, Leduc, the
/// walkable stud games): its policy at every decision lifted onto the lossless public tree
/// ([`crate::ladder::lift_target`]) and measured by the exact best response. A strategy file
/// is measured as it plays (its rows as stored, rounded, through its spec's purification): the
/// figure another program's best response of the same policy must give (the Python package
/// checks OpenSpiel's against it).
pub fn exploitability_of(def: &GameDef, player: &dyn Player) -> Result<Exploitability> {
    let tree = crate::ladder::lift_target(def, None)?;
    let (lifted, _) = lift(def, &tree, player)?;
    Ok(exploitability(&tree, &lifted))
}

/// One root re-solved: the public tree's slots it overwrites, and the subgame's figures.
pub(crate) struct Solved {
    /// (public tree slot, probability).
    pub(crate) rows: Vec<(usize, f64)>,
    /// The subgame's exploitability inside itself with the blueprint's rows, and re-solved.
    pub(crate) blueprint: f64,
    /// See [`Solved::blueprint`].
    pub(crate) resolved: f64,
    /// Iterations of the re-solve.
    pub(crate) iterations: u64,
    /// A safe re-solve's most any opponent hand gains over its alternative, per seat solved
    /// ([`super::Report::opponent_gain`]); empty when unsafe.
    pub(crate) gains: Vec<f64>,
    /// The seats' safe first re-solves mixed with the blueprint, and fallen back: the first,
    /// and the nested ones.
    pub(crate) mixed: usize,
    /// See [`Solved::mixed`].
    pub(crate) fell_back: (usize, usize),
}

/// Re-solves the subgame at `root` and maps its strategy onto the public tree's slots below it.
fn resolve_root(
    tree: &Tree,
    player: &dyn Player,
    root: &Root,
    budget: Budget,
    options: Options,
    lifted: &[f64],
) -> Result<Solved> {
    let last = root.state.def().streets.len() - 1;
    let options = Options {
        floor: options.range_floor(),
        ..options
    };
    let sub = if root.state.street() == last {
        Subgame::at(player, &root.state, &root.bets, options)
    } else {
        Subgame::with_chance(
            player,
            &root.state,
            &root.bets,
            root.state.street(),
            options,
        )
    }?;
    let pairs = row_pairs(tree, root.node, &sub)?;
    let mut blue = vec![0.0; sub.tree.num_slots];
    for &(at, sub_at, k) in &pairs {
        blue[sub_at..sub_at + k].copy_from_slice(&lifted[at..at + k]);
    }
    // The seat's own range is its exact reach under the blueprint only by Bayes' rule: a safe
    // re-solve's bound is against the blueprint as played, so its subgame was built with a
    // floor of 0 (`Options::range_floor`).
    let by = super::safe::solve_by(&sub, budget, options.method, &blue, options.fallback)?;
    let (mut average, solves, mixed) = (by.average, by.solves, by.mixed);
    // Measured before nesting rewrites the rows below: the first re-solve's bound.
    let gains = solves
        .iter()
        .filter_map(|r| r.opponent_gain(&sub))
        .collect();
    // Nested: each later street re-solved again below, from the ranges these rows imply.
    let nested_fell_back = match options.nested {
        true => {
            let method = options.nested_method;
            super::nest::nest_below(&sub, &mut average, budget, method, options.fallback)?.1
        }
        false => 0,
    };
    let mut rows = Vec::with_capacity(pairs.len() * 3);
    for &(at, sub_at, k) in &pairs {
        let mut row = average[sub_at..sub_at + k].to_vec();
        crate::kernel::normalize(&mut row);
        rows.extend(row.into_iter().enumerate().map(|(a, p)| (at + a, p)));
    }
    let resolved = match &solves[..] {
        [r] if !options.nested => r.report(&sub).exploitability,
        _ => sub.exploitability(&average).0,
    };
    Ok(Solved {
        rows,
        blueprint: sub.exploitability(&blue).0,
        resolved,
        iterations: solves[0].solver.iterations,
        gains,
        mixed,
        fell_back: (by.fell_back, nested_fell_back),
    })
}

/// The rows of the same (decision, hand) in the public tree below `root` and in the subgame
/// `sub` built there: (public row start, subgame row start, actions), for every hand of the
/// public tree not holding a public card (below chance nodes too, where the subgame deals the
/// same cards in the same order).
pub(crate) fn row_pairs(
    tree: &Tree,
    root: usize,
    sub: &Subgame,
) -> Result<Vec<(usize, usize, usize)>> {
    // The subgame's hand of each public-tree hand (one down card: the public tree's limit).
    let hand_of: Vec<Option<usize>> = tree.hands.iter().map(|&c| sub.hand_index(&[c])).collect();
    let mut pairs = Vec::new();
    let mut stack = vec![(root, 0usize)];
    while let Some((p, q)) = stack.pop() {
        let node = tree.nodes[p];
        if !matches!(node.kind, NodeKind::Action | NodeKind::Chance) {
            continue;
        }
        let k = node.num_children as usize;
        let kids = sub.tree.children(q);
        if tree.edges[tree.children(p)] != sub.tree.edges[kids.clone()] {
            bail!("public node {p}: the subgame's betting or cards differ from the public tree's");
        }
        stack.extend(tree.children(p).zip(kids));
        if node.kind == NodeKind::Chance {
            continue;
        }
        let sub_node = sub.tree.nodes[q];
        let sub_slot = sub_node.first_slot() as usize;
        let table = tree.bucket_table(node.board, node.seat);
        let sub_table = sub.tree.bucket_table(sub_node.board, sub_node.seat);
        for (h, &row) in table.iter().enumerate() {
            let sub_row = hand_of[h].map_or(NONE, |j| sub_table[j]);
            if row != NONE && sub_row != NONE {
                pairs.push((
                    node.first_slot() as usize + row as usize * k,
                    sub_slot + sub_row as usize * k,
                    k,
                ));
            }
        }
    }
    Ok(pairs)
}

/// The walk that lifts a player onto the public tree and collects the last-street roots.
struct Lift<'a> {
    tree: &'a Tree,
    player: &'a dyn Player,
    out: Vec<f64>,
    bets: Vec<Bet>,
    /// Per (board, seat), each hand's card class (`None`: the player has none).
    classes: HashMap<(u32, u8), Vec<Option<u32>>>,
    /// The street whose roots are collected.
    street: usize,
    roots: Vec<Root>,
}

impl Lift<'_> {
    fn node(&mut self, i: usize, mut state: State) -> Result<()> {
        // The private cards are not in the public tree: deal them unknown, as its builder did.
        while let Next::Deal {
            deal: Deal::Down, ..
        } = state.next()
        {
            state.deal_unknown()?;
        }
        let n = self.tree.nodes[i];
        if n.kind == NodeKind::Action {
            let street = state.street();
            if street == self.street && !self.bets.iter().any(|&(s, _)| s == street) {
                self.roots.push(Root {
                    node: i,
                    state: state.clone(),
                    bets: self.bets.clone(),
                });
            }
            self.rows(i, &state)?;
        }
        for c in self.tree.children(i) {
            let mut next = state.clone();
            match self.tree.edges[c] {
                Edge::Action(a) => {
                    self.bets.push((n.street as usize, a));
                    next.apply(a)?;
                    self.node(c, next)?;
                    self.bets.pop();
                }
                Edge::Card(card) => {
                    next.deal(card)?;
                    self.node(c, next)?;
                }
                Edge::Root => bail!("public node {c}: a root edge below the root"),
            }
        }
        Ok(())
    }

    /// The player's row of every hand at action node `i` (state `st`, down cards unknown).
    fn rows(&mut self, i: usize, st: &State) -> Result<()> {
        let (tree, player) = (self.tree, self.player);
        let n = tree.nodes[i];
        let seat = n.seat;
        if st.to_act() != Some(seat) {
            bail!("public node {i}: the rules engine says another seat acts");
        }
        let k = n.num_children as usize;
        let legal = st.legal_actions();
        let acts: Vec<_> = tree
            .children(i)
            .map(|c| match tree.edges[c] {
                Edge::Action(a) => legal.iter().position(|&x| x == a),
                _ => None,
            })
            .collect();
        let shown = |c: Card| -> Result<State> {
            let mut s = st.clone();
            s.show(seat, &[c])?;
            Ok(s)
        };
        let cls = match self.classes.entry((n.board, seat)) {
            Entry::Occupied(e) => e.into_mut(),
            Entry::Vacant(e) => {
                let mut cls = Vec::with_capacity(tree.num_hands());
                let public = tree.boards[n.board as usize].public;
                for &c in &tree.hands {
                    cls.push(if public.contains(c) {
                        None
                    } else {
                        player.card_class(&shown(c)?, seat)?
                    });
                }
                e.insert(cls)
            }
        };
        let mut probs = [0.0; crate::strategy_file::MAX_ACTIONS];
        let probs = &mut probs[..legal.len()];
        let mut by_class: HashMap<u32, Vec<f64>> = HashMap::new();
        let table = tree.bucket_table(n.board, seat);
        for (h, &row) in table.iter().enumerate() {
            if row == NONE {
                continue;
            }
            let p: &[f64] = match cls[h] {
                Some(class) => match by_class.entry(class) {
                    Entry::Occupied(e) => e.into_mut(),
                    Entry::Vacant(e) => {
                        player.class_policy(st, &self.bets, seat, class, &legal, probs)?;
                        e.insert(probs.to_vec())
                    }
                },
                None => {
                    player.policy(&shown(tree.hands[h])?, &self.bets, seat, &legal, probs)?;
                    probs
                }
            };
            let at = n.first_slot() as usize + row as usize * k;
            for (a, j) in acts.iter().enumerate() {
                self.out[at + a] = j.map_or(0.0, |j| p[j]);
            }
        }
        Ok(())
    }
}
