//! Re-solving at a table: when a multiway pot is down to two players on the last street, the
//! rest of the hand re-solved heads-up with the real cards (`stud match FILE:resolve ...` on a
//! multiway file).
//!
//! The subgame ([`Subgame::at_table`]) is the heads-up re-solver's ([`Subgame::given`]): its
//! root the first decision of the last street where only two seats are left (the street's
//! first, or the one after a fold there); its two seats' ranges the Bayesian replay of
//! [`crate::bot::range`] over the whole hand, every seat's actions moving it on and each of the
//! two seats' own actions weighing its holdings by the multiway file's policy (as it plays,
//! each action by at least the floor); the folded seats' up cards out of the deck (none is in
//! a holding); the pot as it stands, the folded seats' chips dead money that the two play for
//! (each terminal's value is seat 0's payoff less half of it, so that the subgame stays
//! zero-sum); the betting from the root by the rules engine, cut at the game's cap.
//!
//! The folded seats' down cards stay in the deck as the two seats see it: no one saw them, and
//! the file's ranges for them are not followed (a refinement left out: their holdings would
//! weigh the two ranges' card removal a little).

use super::build::{check_replayed, of_given};
use super::player::play_row;
use super::{Budget, Given, Method, Options, Resolved, Subgame, DEFAULT_FLOOR};
use crate::bot::range::replay_seats;
use crate::bot::{Answer, Bet, MultiwayPlayer, Player};
use abstraction::cards::CardSet;
use abstraction::rules::{Action, State};
use anyhow::{bail, ensure, Context};
use std::sync::{Arc, Mutex};
use std::time::Instant;

/// Re-solves kept: one per hand whose pot became heads-up on the last street (each answers the
/// street's later decisions of both seats); hands played at once on other threads have their
/// own.
const CACHE: usize = 16;

impl Subgame {
    /// The subgame of a table's hand at `state` after `bets`, on the last street with two
    /// seats left, from the first decision of that street where they were the only two (see
    /// the module documentation), ranges replayed along the whole hand from `blueprint`'s
    /// policy, each action weighing a holding by at least `floor`. Only public cards of
    /// `state` are read.
    pub fn at_table(
        blueprint: &dyn Player,
        state: &State,
        bets: &[Bet],
        floor: f64,
    ) -> anyhow::Result<Subgame> {
        let def = state.def();
        let last = def.streets.len() - 1;
        ensure!(
            state.street() == last,
            "a table's pot is re-solved on {}, not on {}",
            def.street_name(last),
            def.street_name(state.street())
        );
        let live = state.live();
        ensure!(
            live.count_ones() == 2,
            "a table's pot is re-solved once two players are left, not {}",
            live.count_ones()
        );
        ensure!(
            (0.0..=1.0).contains(&floor),
            "the ranges' floor must be a probability, not {floor}"
        );
        let start = Instant::now();
        let r = replay_seats(blueprint, state, bets, floor, live, |st| {
            st.street() == last && st.live() == live
        })?;
        check_replayed(&r.state, last)?;
        let first = live.trailing_zeros() as u8;
        let seats = [first, (live & !(1 << first)).trailing_zeros() as u8];
        let mut ranges = r.ranges;
        let mut range_of = |s: u8| -> anyhow::Result<Vec<(CardSet, f64)>> {
            let range = ranges[s as usize]
                .take()
                .context("the replay lost a seat's range")?;
            Ok(range.holdings().iter().map(|h| (h.set, h.weight)).collect())
        };
        let ranges = [range_of(seats[0])?, range_of(seats[1])?];
        let given = Given {
            state: r.state,
            bets: bets[..r.read].to_vec(),
            seats,
            ranges,
            dead: r.seen,
        };
        of_given(given, start)
    }
}

/// A solve kept: the up cards of every seat and the betting to its root (what it depends on,
/// with the budget), and the subgame solved.
struct Kept {
    up: Vec<CardSet>,
    bets: Vec<Bet>,
    budget: Budget,
    solved: Arc<(Subgame, Resolved)>,
}

/// Plays a multiway strategy file ([`MultiwayPlayer`]) until the pot is down to two players on
/// the last street, then the re-solved strategy of the heads-up subgame there
/// ([`Subgame::at_table`]): one solve per hand, kept for the street's later decisions. A spot
/// the subgame lacks (a raise past the game's cap) is the file's.
pub struct TablePlayer {
    blueprint: MultiwayPlayer,
    budget: Budget,
    floor: f64,
    name: String,
    cache: Mutex<Vec<Kept>>,
}

impl TablePlayer {
    /// The multiway file's player `blueprint`, its heads-up last streets re-solved within
    /// `budget` from ranges of `options.floor`; the safe re-solve and two streets are not built
    /// at a table, and are refused.
    pub fn new(
        blueprint: MultiwayPlayer,
        budget: Budget,
        options: Options,
    ) -> anyhow::Result<TablePlayer> {
        if options.method != Method::Unsafe || options.two_streets || options.nested {
            bail!(
                "{}: at a table the last street is re-solved unsafely once two players are \
                 left: write :resolve (resolve-safe, resolve2 and search are heads-up files' only)",
                blueprint.name()
            );
        }
        let how = match budget {
            Budget::Iterations(n) => format!("{n}"),
            Budget::Millis(ms) => format!("{ms}ms"),
        };
        let floor = match options.floor == DEFAULT_FLOOR {
            true => String::new(),
            false => format!(",floor={}", options.floor),
        };
        Ok(TablePlayer {
            name: format!("{}:resolve={how}{floor}", blueprint.name()),
            blueprint,
            budget,
            floor: options.floor,
            cache: Mutex::new(Vec::new()),
        })
    }

    /// The subgame of the hand at `state` after `bets` (the last street, two seats left) solved
    /// within the player's budget: the one kept for this hand, or made now.
    pub fn solve(&self, state: &State, bets: &[Bet]) -> anyhow::Result<Arc<(Subgame, Resolved)>> {
        let seats = state.def().seats;
        let up: Vec<CardSet> = (0..seats)
            .map(|s| state.up_cards(s).iter().copied().collect())
            .collect();
        let lock = || {
            self.cache
                .lock()
                .map_err(|_| anyhow::anyhow!("the re-solve cache was left half-updated by a panic"))
        };
        // A kept solve whose root betting begins this hand's (and the same cards) is this
        // hand's: the root is where the hand's history first left two players on the street.
        let hit = lock()?
            .iter()
            .find(|k| k.up == up && k.budget == self.budget && bets.starts_with(&k.bets))
            .map(|k| Arc::clone(&k.solved));
        if let Some(solved) = hit {
            return Ok(solved);
        }
        let sub = Subgame::at_table(&self.blueprint, state, bets, self.floor)?;
        let resolved = sub.solve(self.budget, None)?;
        let kept = Kept {
            up,
            bets: bets[..sub.root_bets].to_vec(),
            budget: self.budget,
            solved: Arc::new((sub, resolved)),
        };
        let solved = Arc::clone(&kept.solved);
        let mut cache = lock()?;
        cache.push(kept);
        if cache.len() > CACHE {
            cache.remove(0);
        }
        Ok(solved)
    }
}

impl Player for TablePlayer {
    fn name(&self) -> &str {
        &self.name
    }

    /// Its answers on the last streets are re-solves: the variance-reduced estimate's walk
    /// does not ask them at spots the match does not reach.
    fn walkable(&self) -> bool {
        false
    }

    fn policy(
        &self,
        state: &State,
        bets: &[Bet],
        seat: u8,
        legal: &[Action],
        probs: &mut [f64],
    ) -> anyhow::Result<Answer> {
        let last = state.def().streets.len() - 1;
        if state.street() < last || state.live().count_ones() > 2 {
            return self.blueprint.policy(state, bets, seat, legal, probs);
        }
        let solved = match self.solve(state, bets) {
            // Ranges that never meet (a floor of 0 and an action the blueprint never takes).
            Err(e) if super::Unreached::is(&e) => {
                return self.blueprint.policy(state, bets, seat, legal, probs)
            }
            solved => solved?,
        };
        let (sub, resolved) = &*solved;
        match play_row(sub, resolved, state, bets, seat, legal, probs)? {
            Some(answer) => Ok(answer),
            None => self.blueprint.policy(state, bets, seat, legal, probs),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::bot::passive;
    use crate::bot::range::for_each_set;
    use abstraction::cards::Card;
    use abstraction::rules::{Deal, GameDef, Next};
    use abstraction::tree::{Edge, NodeKind};
    use rand::SeedableRng;
    use rand_chacha::ChaCha8Rng;

    /// Bets more often the higher its best down card, folds a little with a low one, every
    /// legal action of some probability (so that Bayes' rule never runs dry).
    struct Leaner;

    impl Player for Leaner {
        fn name(&self) -> &str {
            "leaner"
        }

        fn policy(
            &self,
            state: &State,
            _: &[Bet],
            seat: u8,
            legal: &[Action],
            probs: &mut [f64],
        ) -> anyhow::Result<Answer> {
            let high = state.down_cards(seat).iter().flatten();
            let high = high.map(|c| c.rank().index()).max().unwrap_or(0);
            let strength = (f64::from(high) + 1.0) / 13.0;
            for (p, a) in probs.iter_mut().zip(legal) {
                *p = match a {
                    Action::Fold => 0.3 * (1.0 - strength),
                    Action::CompleteBetRaise(_) => strength,
                    _ => 0.5,
                };
            }
            Ok(crate::bot::normalize_or_fall_back(legal, probs))
        }
    }

    /// A decision of the hand: the state with every down card unknown, the betting before it,
    /// the seat and what it did.
    type Step = (State, Vec<Bet>, u8, Action);

    /// A hand dealt: the real state, the same with every down card unknown, its betting and
    /// its decisions.
    type Hand = (State, State, Vec<Bet>, Vec<Step>);

    /// A hand of 7stud-3p dealt from `seed`, `folder` folding at its first decision where it
    /// may, the other seats taking `player`'s likeliest action other than a fold, up to the
    /// first decision of seventh street; `None` if the hand ended before.
    fn heads_up_by_seventh(player: &dyn Player, seed: u64, folder: u8) -> Option<Hand> {
        let def = GameDef::preset("7stud-3p").unwrap();
        let mut rng = ChaCha8Rng::seed_from_u64(seed);
        let (mut real, mut public) = (State::new(&def).unwrap(), State::new(&def).unwrap());
        let (mut bets, mut steps) = (Vec::new(), Vec::new());
        loop {
            match real.next() {
                Next::Deal { deal, .. } => {
                    let card = real.deal_random(&mut rng).unwrap();
                    match deal {
                        Deal::Down => public.deal_unknown().unwrap(),
                        _ => public.deal(card).unwrap(),
                    }
                }
                Next::Act { .. } if real.street() == 4 => return Some((real, public, bets, steps)),
                Next::Act { seat } => {
                    let legal = real.legal_actions();
                    let mut probs = vec![0.0; legal.len()];
                    player
                        .policy(&real, &bets, seat, &legal, &mut probs)
                        .unwrap();
                    let likeliest = (0..legal.len())
                        .filter(|&i| legal[i] != Action::Fold)
                        .max_by(|&i, &j| probs[i].total_cmp(&probs[j]))
                        .unwrap_or(passive(&legal));
                    let a = match legal.iter().find(|&&a| a == Action::Fold) {
                        Some(&f) if seat == folder && !real.folded(seat) => f,
                        _ => legal[likeliest],
                    };
                    steps.push((public.clone(), bets.clone(), seat, a));
                    bets.push((real.street(), a));
                    real.apply(a).unwrap();
                    public.apply(a).unwrap();
                }
                Next::Over => return None,
            }
        }
    }

    /// Every up card dealt at `st`, every seat's.
    fn up_cards(st: &State) -> CardSet {
        (0..st.def().seats)
            .flat_map(|s| st.up_cards(s).iter().copied())
            .collect()
    }

    /// `seat`'s range at the end of `steps` worked out by hand: each pair of down cards of the
    /// cards not dealt face up (`pool`) weighed by the product of `player`'s probabilities of
    /// the seat's actions (each at least `floor`), each set of three down cards the sum over
    /// its pairs (the third card dealt on seventh street).
    fn range_by_hand(
        player: &dyn Player,
        steps: &[Step],
        seat: u8,
        pool: &[Card],
        floor: f64,
    ) -> Vec<(CardSet, f64)> {
        let mut pairs = Vec::new();
        for_each_set(pool, 2, |pair| {
            let mut w = 1.0;
            for (st, bets, _, a) in steps.iter().filter(|s| s.2 == seat) {
                let mut shown = st.clone();
                shown.show(seat, pair).unwrap();
                let legal = shown.legal_actions();
                let mut probs = vec![0.0; legal.len()];
                player
                    .policy(&shown, bets, seat, &legal, &mut probs)
                    .unwrap();
                let k = legal.iter().position(|x| x == a).unwrap();
                w *= probs[k].max(floor);
            }
            pairs.push((pair.iter().copied().collect::<CardSet>(), w));
        });
        let mut out = Vec::new();
        for_each_set(pool, 3, |three| {
            let set: CardSet = three.iter().copied().collect();
            let w: f64 = (pairs.iter())
                .filter(|(p, _)| set.minus(*p).len() == 1)
                .map(|x| x.1)
                .sum();
            out.push((set, w));
        });
        out
    }

    /// The first hand of seeds from 0 on with p3 folded and the pot heads-up on seventh street.
    fn a_heads_up_seventh(player: &dyn Player) -> Hand {
        (0..)
            .find_map(|seed| heads_up_by_seventh(player, seed, 2))
            .unwrap()
    }

    #[test]
    fn a_table_subgame_equals_the_one_built_by_hand_from_the_same_ranges_and_dead_cards() {
        let (real, public, bets, steps) = a_heads_up_seventh(&Leaner);
        for floor in [0.0, 0.3] {
            let sub = Subgame::at_table(&Leaner, &real, &bets, floor).unwrap();
            let pool: Vec<Card> = real
                .def()
                .deck
                .cards()
                .minus(up_cards(&real))
                .iter()
                .collect();
            let by_hand = Subgame::given(Given {
                state: public.clone(),
                bets: bets.clone(),
                seats: [0, 1],
                ranges: [0, 1].map(|s| range_by_hand(&Leaner, &steps, s, &pool, floor)),
                dead: CardSet::EMPTY,
            })
            .unwrap();
            assert_eq!(sub.seats, [0, 1]);
            assert_eq!(sub.hands, by_hand.hands);
            assert_eq!(sub.root_bets, bets.len());
            assert_eq!(sub.tree.nodes.len(), by_hand.tree.nodes.len());
            assert_eq!(sub.tree.num_slots, by_hand.tree.num_slots);
            assert_eq!(sub.tree.order, by_hand.tree.order);
            for (a, b) in sub.tree.values.iter().zip(&by_hand.tree.values) {
                assert!((a - b).abs() <= 1e-9 * b.abs(), "{a} against {b}");
            }
            for s in 0..2 {
                for (a, b) in sub.ranges[s].iter().zip(&by_hand.ranges[s]) {
                    assert!((a - b).abs() <= 1e-12, "{a} against {b}");
                }
                // The range is the actions' own, not flat.
                let r = &sub.ranges[s];
                let most = r.iter().copied().fold(0.0, f64::max);
                let least = r.iter().copied().fold(1.0, f64::min);
                assert!(most > 2.0 * least, "p{}'s range is flat", s + 1);
            }
        }
    }

    #[test]
    fn the_folded_seats_up_cards_are_dead_in_every_holding() {
        let (real, public, bets, _) = a_heads_up_seventh(&Leaner);
        let sub = Subgame::at_table(&Leaner, &real, &bets, 0.3).unwrap();
        let folded: CardSet = real.up_cards(2).iter().copied().collect();
        assert!(!folded.is_empty());
        assert!(sub
            .hands
            .iter()
            .all(|h| h.intersection(up_cards(&real)).is_empty()));
        let unseen = 52 - up_cards(&real).len() as u128;
        assert_eq!(
            sub.hands.len() as u128,
            crate::bot::range::binomial(unseen as usize, 3)
        );
        // A range given with a dead card in a holding is refused, the card named.
        let card = folded.iter().next().unwrap();
        let holding = |c: &[Card]| c.iter().copied().collect::<CardSet>();
        let pool: Vec<Card> = sub.hands[0].iter().collect();
        let err = Subgame::given(Given {
            state: public,
            bets: bets.clone(),
            seats: [0, 1],
            ranges: [
                vec![(holding(&[pool[0], pool[1], card]), 1.0)],
                vec![(sub.hands[1], 1.0)],
            ],
            dead: CardSet::EMPTY,
        })
        .err()
        .unwrap();
        assert!(err.to_string().contains(&card.to_string()), "{err}");
    }

    /// Walks every terminal of `sub` from `state` (its root, both seats' real down cards
    /// shown), calling `check` with the terminal node and the rules engine's state there.
    fn each_terminal(
        sub: &Subgame,
        node: usize,
        state: &State,
        check: &mut dyn FnMut(usize, &State),
    ) {
        let t = &sub.tree;
        if t.nodes[node].kind != NodeKind::Action {
            return check(node, state);
        }
        for c in t.children(node) {
            let Edge::Action(a) = t.edges[c] else {
                panic!("a subgame edge without its action")
            };
            let mut s = state.clone();
            s.apply(a).unwrap();
            each_terminal(sub, c, &s, check);
        }
    }

    #[test]
    fn terminal_values_are_the_chips_put_in_and_half_the_dead_money() {
        let (real, _, bets, _) = a_heads_up_seventh(&Leaner);
        let sub = Subgame::at_table(&Leaner, &real, &bets, 0.3).unwrap();
        let dead = real.committed(2) as f64;
        assert!(dead > 0.0, "the folded seat's ante at least");
        let mut folds = 0;
        each_terminal(&sub, 0, &real, &mut |node, end| {
            let n = &sub.tree.nodes[node];
            let v = sub.tree.values[n.value_index() as usize] / sub.scale;
            let pay = end.payoffs().unwrap();
            let half_difference = (pay[0] - pay[1]) as f64 / 2.0;
            match n.kind {
                NodeKind::Fold => {
                    folds += 1;
                    // The folder loses what it put in and half the dead chips.
                    let folder = n.seat;
                    let put_in = end.committed(folder) as f64;
                    let expected = put_in + dead / 2.0;
                    let v0 = if folder == 0 { -expected } else { expected };
                    assert!((v - v0).abs() < 1e-9, "{v} against {v0}");
                    assert!((v - half_difference).abs() < 1e-9);
                }
                _ => {
                    // The stake of a showdown, won, lost or split as the real hands say.
                    let stake = end.committed(0).min(end.committed(1)) as f64 + dead / 2.0;
                    assert!((v - stake).abs() < 1e-9, "{v} against {stake}");
                    assert!(half_difference == 0.0 || (half_difference.abs() - stake).abs() < 1e-9);
                }
            }
        });
        assert!(folds > 0);
    }

    #[test]
    fn a_pot_left_heads_up_by_a_fold_on_seventh_street_is_re_solved_from_there() {
        let (mut real, _, mut bets, _) = (0..)
            .find_map(|seed| heads_up_by_seventh(&Leaner, seed, 9))
            .unwrap();
        assert_eq!(real.live().count_ones(), 3);
        // The first seat bets, the next folds: two are left, one bet made on the street.
        for pick in [true, false] {
            let legal = real.legal_actions();
            let a = match pick {
                true => *legal
                    .iter()
                    .find(|a| matches!(a, Action::CompleteBetRaise(_)))
                    .unwrap(),
                false => Action::Fold,
            };
            bets.push((real.street(), a));
            real.apply(a).unwrap();
        }
        let folder = (0..3).find(|&s| real.folded(s)).unwrap();
        let sub = Subgame::at_table(&Leaner, &real, &bets, 0.3).unwrap();
        assert_eq!(
            sub.root_bets,
            bets.len(),
            "the root is the decision after the fold"
        );
        let live: Vec<u8> = (0..3).filter(|&s| s != folder).collect();
        assert_eq!(sub.seats.to_vec(), live);
        let to_act = real.to_act().unwrap();
        assert_eq!(sub.seats[sub.tree.nodes[0].seat as usize], to_act);
        // The rules engine's actions there, the raise kept (one bet of the cap made).
        assert_eq!(sub.actions(0), real.legal_actions());
        let folded: CardSet = real.up_cards(folder).iter().copied().collect();
        assert!(sub.hands.iter().all(|h| h.intersection(folded).is_empty()));
        // The folder's seventh-street chips are dead money too: a fold at the root costs the
        // folder what it put in and half of them.
        let dead = real.committed(folder) as f64;
        let fold = sub
            .tree
            .children(0)
            .find(|&c| sub.tree.edges[c] == Edge::Action(Action::Fold));
        let n = &sub.tree.nodes[fold.unwrap()];
        let v = sub.tree.values[n.value_index() as usize] / sub.scale;
        let put_in = real.committed(to_act) as f64 + dead / 2.0;
        let expected = if n.seat == 0 { -put_in } else { put_in };
        assert!((v - expected).abs() < 1e-9, "{v} against {expected}");
    }

    /// The shipped 3-seat file's player.
    fn three_seat_file() -> MultiwayPlayer {
        let path = concat!(env!("CARGO_MANIFEST_DIR"), "/../strategies/7stud-3p.strat");
        MultiwayPlayer::open(path).unwrap()
    }

    #[test]
    fn the_table_player_plays_the_file_until_the_pot_is_heads_up_then_the_re_solve() {
        let file = three_seat_file();
        let budget = Budget::Iterations(3);
        let player = TablePlayer::new(three_seat_file(), budget, Options::default()).unwrap();
        assert!(player.name().ends_with("7stud-3p.strat:resolve=3"));
        let (real, _, bets, steps) = a_heads_up_seventh(&file);
        let row = |p: &dyn Player, st: &State, bets: &[Bet], seat: u8| {
            let legal = st.legal_actions();
            let mut probs = vec![0.0; legal.len()];
            p.policy(st, bets, seat, &legal, &mut probs).unwrap();
            probs
        };
        // Before seventh street (three players on third): the file's rows.
        for (st, b, seat, _) in steps.iter().take(3) {
            let mut shown = st.clone();
            let down: Vec<Card> = real.down_cards(*seat)[..2]
                .iter()
                .flatten()
                .copied()
                .collect();
            shown.show(*seat, &down).unwrap();
            assert_eq!(row(&player, &shown, b, *seat), row(&file, &shown, b, *seat));
        }
        // On seventh street, heads-up: the re-solve's row.
        let seat = real.to_act().unwrap();
        let sub = Subgame::at_table(&file, &real, &bets, DEFAULT_FLOOR).unwrap();
        let resolved = sub.solve(budget, None).unwrap();
        let legal = real.legal_actions();
        let mut probs = vec![0.0; legal.len()];
        play_row(&sub, &resolved, &real, &bets, seat, &legal, &mut probs)
            .unwrap()
            .unwrap();
        assert_eq!(row(&player, &real, &bets, seat), probs);
    }

    #[test]
    fn a_table_re_solve_is_unsafe_and_of_the_last_street_only() {
        let def = GameDef::preset("7stud-3p").unwrap();
        let path = concat!(env!("CARGO_MANIFEST_DIR"), "/../strategies/7stud-3p.strat");
        let loaded = crate::players::load(&format!("{path}:pure:resolve=5"), &def).unwrap();
        assert!(loaded.name().ends_with(":resolve=5"));
        for spec in ["resolve-safe", "resolve2"] {
            let err = crate::players::load(&format!("{path}:{spec}"), &def)
                .err()
                .unwrap();
            assert!(err.to_string().contains("write :resolve"), "{err}");
        }
    }
}
