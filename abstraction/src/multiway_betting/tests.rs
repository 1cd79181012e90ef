use super::*;
use crate::rules::Variant;
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;

fn game(v: Variant, seats: u8) -> GameDef {
    GameDef::stud(v).with_seats(seats, 200)
}

fn betting(def: &GameDef, within_street: WithinStreet) -> MultiwayBetting {
    MultiwayBetting::build(
        def,
        BettingAbstraction::for_game(def),
        within_street,
        usize::MAX,
    )
    .unwrap()
}

fn build(def: &GameDef) -> MultiwayBetting {
    betting(def, WithinStreet::History)
}

/// An independent count of one betting round of `live` players capped at `cap` bets, opened
/// by a check or a bet (no bring-in): (decisions, actions).
fn round_model(live: usize, cap: u8) -> (u32, u32) {
    struct M {
        live: usize,
        cap: u8,
        nodes: u32,
        actions: u32,
    }
    impl M {
        fn rec(&mut self, folded: u16, need: u16, to_act: usize, bets: u8, owes: u16) {
            self.nodes += 1;
            let facing = owes >> to_act & 1 == 1;
            let raise = bets < self.cap;
            self.actions += 1 + facing as u32 + raise as u32;
            let all = (1u16 << self.live) - 1;
            let go = |m: &mut M, folded: u16, need: u16, bets: u8, owes: u16| {
                let need = need & !(1 << to_act) & !folded;
                if (all & !folded).count_ones() == 1 {
                    return;
                }
                if let Some(next) = (1..=m.live)
                    .map(|k| (to_act + k) % m.live)
                    .find(|&s| need >> s & 1 == 1)
                {
                    m.rec(folded, need, next, bets, owes);
                }
            };
            if facing {
                go(self, folded | 1 << to_act, need, bets, owes);
            }
            go(self, folded, need, bets, owes & !(1 << to_act));
            if raise {
                let others = all & !folded & !(1 << to_act);
                go(self, folded, others, bets + 1, others);
            }
        }
    }
    let mut m = M {
        live,
        cap,
        nodes: 0,
        actions: 0,
    };
    let all = (1u16 << live) - 1;
    m.rec(0, all, 0, 0, 0);
    (m.nodes, m.actions)
}

#[test]
fn later_street_trees_match_an_independent_count() {
    for seats in [3u8, 4] {
        let def = game(Variant::SevenStud, seats);
        let b = build(&def);
        for street in 1..5 {
            for live in 2..=seats {
                let t = b.trees[b.tree(street, live as u32).unwrap() as usize];
                let (nodes, actions) = round_model(live as usize, def.max_bets);
                assert_eq!(
                    (t.action_nodes, t.actions),
                    (nodes, actions),
                    "{seats} seats, street {street}, {live} live"
                );
            }
        }
        assert_eq!(
            b.tree(0, seats as u32 - 1),
            None,
            "the first street starts full"
        );
        // The first street opens with the bring-in or the completion (docs/notes/multiway.md).
        let first = b.trees[b.tree(0, seats as u32).unwrap() as usize];
        let want = if seats == 3 { (176, 433) } else { (2356, 5409) };
        assert_eq!((first.action_nodes, first.actions), want, "{seats} seats");
    }
    // The figures of docs/notes/multiway.md: one later street of 2, 3 and 4 live seats.
    assert_eq!(round_model(2, 4), (10, 26));
    assert_eq!(round_model(3, 4), (171, 417));
    assert_eq!(round_model(4, 4), (2180, 4972));
}

/// Plays random real hands that stay inside the abstract game (no raise past the cap, the small
/// bet on an open pair) and checks at every decision that the located node is a decision of the
/// seat to act (by its role in the street's order of play) with the engine's actions, and at
/// the end of every street that the terminal reached holds the chips each seat put in on it
/// and the seats still in.
fn real_hands_follow_the_trees(def: &GameDef, b: &MultiwayBetting, hands: usize, seed: u64) {
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    for hand in 0..hands {
        let mut st = State::new(def).unwrap();
        let mut bets: Vec<Action> = Vec::new();
        let mut street = usize::MAX;
        let mut order = [0u8; MAX_SEATS];
        let mut start = [0u64; MAX_SEATS];
        let mut count = 0u8;
        let mut last: Option<(u32, u32)> = None;
        let check_end = |st: &State, last: Option<(u32, u32)>, order: &[u8], start: &[u64]| {
            let (tree, node) = last.unwrap();
            let t = b.trees[tree as usize];
            let n = b.nodes[node as usize];
            assert_ne!(n.kind, MwKind::Action, "hand {hand}");
            for (r, &put) in b.stakes_of(&n, t.live).iter().enumerate() {
                let seat = order[r];
                assert_eq!(
                    st.committed(seat) - start[seat as usize],
                    put as u64,
                    "hand {hand}"
                );
                assert_eq!(n.live >> r & 1 == 1, !st.folded(seat), "hand {hand}");
            }
            let want = match st.next() {
                Next::Over if st.live().count_ones() == 1 => MwKind::Fold,
                Next::Over => MwKind::Showdown,
                _ => MwKind::NextStreet,
            };
            assert_eq!(n.kind, want, "hand {hand}");
        };
        loop {
            match st.next() {
                Next::Deal { .. } => {
                    st.deal_random(&mut rng).unwrap();
                }
                Next::Act { seat } => {
                    if st.street() != street {
                        if street != usize::MAX {
                            check_end(&st, last, &order, &start);
                        }
                        street = st.street();
                        order = role_order(&st, street);
                        for s in 0..def.seats {
                            start[s as usize] = st.committed(s);
                        }
                        bets.clear();
                        count = 0;
                    }
                    let spot = b.locate(&st, &bets).unwrap();
                    let n = b.nodes[spot.node as usize];
                    assert_eq!(n.kind, MwKind::Action, "hand {hand} {bets:?}");
                    assert_eq!(order[n.role as usize], seat, "hand {hand} {bets:?}");
                    let mut legal = st.legal_actions();
                    if count >= b.betting.max_bets {
                        legal.retain(|a| !matches!(a, Action::CompleteBetRaise(_)));
                    }
                    let kids: Vec<Edge> = b.edges[b.children(spot.node as usize)].to_vec();
                    if legal.len() == kids.len() {
                        let want: Vec<Edge> = legal.iter().map(|&a| Edge::Action(a)).collect();
                        assert_eq!(kids, want, "hand {hand} {bets:?}");
                    } else {
                        assert_eq!(street, 1, "only an open pair adds an action");
                    }
                    let pick = crate::draw::below(&mut rng, kids.len());
                    let a = b.real_action(spot.tree, spot.node, pick, &legal).unwrap();
                    let child = b.child_for(spot.tree, spot.node, a).unwrap();
                    assert_eq!(child, n.first_child + pick as u32);
                    count += matches!(a, Action::CompleteBetRaise(_)) as u8;
                    st.apply(a).unwrap();
                    bets.push(a);
                    last = Some((spot.tree, child));
                }
                Next::Over => {
                    check_end(&st, last, &order, &start);
                    break;
                }
            }
        }
    }
}

#[test]
fn real_hands_of_every_stud_game_follow_the_trees() {
    let hands = |v: Variant, seats: u8, hands: usize, seed: u64| {
        let def = game(v, seats);
        real_hands_follow_the_trees(&def, &build(&def), hands, seed);
    };
    hands(Variant::SevenStud, 3, 300, 1);
    hands(Variant::SevenStud, 4, 200, 2);
    hands(Variant::Razz, 3, 200, 3);
    hands(Variant::StudHiLo, 5, 100, 4);
    hands(Variant::FiveStud, 3, 200, 5);
}

#[test]
fn real_hands_follow_the_merged_positions_up_to_eight_seats() {
    for (v, seats, seed) in [
        (Variant::SevenStud, 3, 6),
        (Variant::Razz, 5, 7),
        (Variant::SevenStud, 7, 8),
        (Variant::FiveStud, 8, 9),
    ] {
        let def = game(v, seats);
        real_hands_follow_the_trees(&def, &positions(&def), 200, seed);
    }
}

#[test]
fn pot_classes_double() {
    let def = game(Variant::SevenStud, 3);
    assert_eq!(pot_class(&def, 0, 300), 0);
    // Small bets in the pot, plus one: 1 → 0, 2 and 3 → 1, 4 to 7 → 2, …, 128 and more → 7.
    let classes: Vec<u8> = [3, 5, 15, 20, 35, 40, 1000]
        .iter()
        .map(|&p| pot_class(&def, 1, p))
        .collect();
    assert_eq!(classes, [0, 1, 2, 2, 3, 3, 7]);
    assert_eq!(pot_classes(0), 1);
    assert_eq!(pot_classes(2), POT_CLASSES as u32);
}

#[test]
fn bad_input_is_refused_with_the_reason() {
    let mut def = game(Variant::SevenStud, 3);
    def.starting_stacks = vec![100; 3];
    let e = MultiwayBetting::build(
        &def,
        BettingAbstraction::for_game(&def),
        WithinStreet::History,
        usize::MAX,
    )
    .unwrap_err()
    .to_string();
    assert!(e.contains("no all-ins"), "{e}");
    let def = game(Variant::SevenStud, 6);
    let e = MultiwayBetting::build(
        &def,
        BettingAbstraction::for_game(&def),
        WithinStreet::History,
        100_000,
    )
    .unwrap_err()
    .to_string();
    assert!(e.contains("more than"), "{e}");
    let e = MultiwayBetting::build(
        &GameDef::tristud(),
        BettingAbstraction { max_bets: 1 },
        WithinStreet::History,
        1000,
    )
    .unwrap_err()
    .to_string();
    assert!(e.contains("community"), "{e}");
}

/// An independent count of the betting positions of one round of `live` players capped at
/// `cap` bets (no bring-in): a position is the player to act, who folded, who still must act,
/// the bets made and how many of them each player has matched. (distinct positions, their
/// actions summed.)
fn position_model(live: usize, cap: u8) -> (u32, u32) {
    type Key = (u16, u16, usize, u8, [u8; 8]);
    fn rec(live: usize, cap: u8, seen: &mut std::collections::HashSet<Key>, key: Key) -> u32 {
        let (folded, need, to_act, bets, put) = key;
        let facing = put[to_act] < bets;
        let raise = bets < cap;
        let k = 1 + facing as u32 + raise as u32;
        if !seen.insert(key) {
            return 0;
        }
        let all = (1u16 << live) - 1;
        let mut actions = k;
        let mut go = |folded: u16, need: u16, bets: u8, put: [u8; 8]| {
            let need = need & !(1 << to_act) & !folded;
            if (all & !folded).count_ones() == 1 {
                return;
            }
            if let Some(next) = (1..=live)
                .map(|k| (to_act + k) % live)
                .find(|&s| need >> s & 1 == 1)
            {
                actions += rec(live, cap, seen, (folded, need, next, bets, put));
            }
        };
        if facing {
            go(folded | 1 << to_act, need, bets, put);
        }
        let mut called = put;
        called[to_act] = bets;
        go(folded, need, bets, called);
        if raise {
            let mut raised = put;
            raised[to_act] = bets + 1;
            go(folded, all & !folded & !(1 << to_act), bets + 1, raised);
        }
        actions
    }
    let mut seen = std::collections::HashSet::new();
    let actions = rec(live, cap, &mut seen, (0, (1 << live) - 1, 0, 0, [0; 8]));
    (seen.len() as u32, actions)
}

/// Walks node `d` of `dag` and node `t` of `tree` together: the same kinds, actors, live roles,
/// actions and stakes on every path below them.
fn same_paths(dag: &MultiwayBetting, d: usize, tree: &MultiwayBetting, t: usize, live: u8) {
    let (a, b) = (dag.nodes[d], tree.nodes[t]);
    assert_eq!(
        (a.kind, a.role, a.live, a.num_children),
        (b.kind, b.role, b.live, b.num_children)
    );
    if a.kind == MwKind::Action {
        for (c, e) in dag.children(d).zip(tree.children(t)) {
            assert_eq!(dag.edges[c], tree.edges[e]);
            same_paths(dag, c, tree, e, live);
        }
    } else {
        assert_eq!(dag.stakes_of(&a, live), tree.stakes_of(&b, live));
    }
}

fn positions(def: &GameDef) -> MultiwayBetting {
    betting(def, WithinStreet::Position)
}

#[test]
fn recalling_positions_is_the_tree_with_its_positions_merged() {
    for seats in [3u8, 4, 5] {
        let def = game(Variant::SevenStud, seats);
        let (history, position) = (build(&def), positions(&def));
        assert!(position.nodes.len() < history.nodes.len());
        for (p, h) in position.trees.iter().zip(&history.trees) {
            assert_eq!((p.street, p.live), (h.street, h.live));
            same_paths(
                &position,
                p.root as usize,
                &history,
                h.root as usize,
                p.live,
            );
        }
    }
}

#[test]
fn recalling_positions_shares_rows_as_an_independent_count_of_positions() {
    // Seven-card stud at every table size: at eight seats the last street's community card
    // (the deck runs short) is dealt, and the betting positions are the same.
    for seats in 3u8..=8 {
        let def = game(Variant::SevenStud, seats);
        let position = positions(&def);
        for street in 1..def.streets.len() {
            for live in 2..=seats {
                let t = position.trees[position.tree(street, live as u32).unwrap() as usize];
                assert_eq!(
                    (t.action_nodes, t.actions),
                    position_model(live as usize, def.max_bets),
                    "{seats} seats, street {street}, {live} live"
                );
                // A DAG: each position's children once under the root.
                assert_eq!(t.end - t.root, 1 + t.actions);
                // Decisions sharing a row have one actor and the same actions, and the rows
                // tile the tree's row.
                let mut rows: std::collections::HashMap<u32, usize> = Default::default();
                for i in t.root..t.end {
                    let n = position.nodes[i as usize];
                    if n.kind != MwKind::Action {
                        continue;
                    }
                    let first = *rows.entry(n.index).or_insert(i as usize);
                    let m = position.nodes[first];
                    assert_eq!((m.role, m.num_children), (n.role, n.num_children));
                    assert_eq!(
                        position.edges[position.children(first)],
                        position.edges[position.children(i as usize)]
                    );
                }
                let mut starts: Vec<(u32, u8)> = rows
                    .iter()
                    .map(|(&index, &i)| (index, position.nodes[i].num_children))
                    .collect();
                starts.sort_unstable();
                let mut next = 0;
                for (index, k) in starts {
                    assert_eq!(index, next, "rows tile the tree's row");
                    next += k as u32;
                }
                assert_eq!(next, t.actions);
            }
        }
    }
    // docs/notes/multiway.md's table (one later street summed over 2..N live seats, counted there by
    // scripts/multiway-merged-count.py).
    let sum = |n: usize| {
        (2..=n)
            .map(|l| position_model(l, 4))
            .fold((0, 0), |a, b| (a.0 + b.0, a.1 + b.1))
    };
    assert_eq!(sum(3), (94, 245));
    assert_eq!(sum(4), (698, 1761));
    assert_eq!(sum(5), (4623, 11221));
    assert_eq!(sum(6), (28521, 66799));
    assert_eq!(sum(7), (167863, 381379));
    assert_eq!(sum(8), (956535, 2119515));
}

fn capped(def: &GameDef, within: WithinStreet, cap: &str) -> MultiwayBetting {
    let cap = MultiwayCap::parse(cap).unwrap();
    let b = BettingAbstraction::for_game(def);
    MultiwayBetting::build_capped(def, b, within, Some(cap), usize::MAX).unwrap()
}

#[test]
fn a_multiway_cap_caps_the_trees_of_streets_begun_by_enough_seats() {
    // Six seats, at most two bets a round once four or more begin a street: those trees are
    // the independent counts at a cap of two, the others at the game's four; by history and
    // by position.
    let def = game(Variant::SevenStud, 6);
    for within in [WithinStreet::History, WithinStreet::Position] {
        let b = capped(&def, within, "2@4");
        for street in 1..def.streets.len() {
            for live in 2..=6u8 {
                let t = b.trees[b.tree(street, live as u32).unwrap() as usize];
                let cap = if live >= 4 { 2 } else { def.max_bets };
                let want = match within {
                    WithinStreet::History => round_model(live as usize, cap),
                    WithinStreet::Position => position_model(live as usize, cap),
                };
                assert_eq!((t.action_nodes, t.actions), want, "{within:?} {live} live");
            }
        }
    }
    // No cap above the game's: the trees are the uncapped ones.
    let high = capped(&def, WithinStreet::Position, "9@2");
    assert_eq!(high.nodes, positions(&def).nodes);
}

/// Plays `hands` random real hands of `def` (every legal action, raises past the abstract cap
/// included) against `b` and checks the translation at every decision: a located decision is
/// the seat to act's, with an abstract action for each child; the node is no decision only
/// where a raise past the street's abstract cap was made; and the row's raise is there exactly
/// while the abstract street's bets are below its cap.
fn real_hands_past_a_cap_are_absorbed(def: &GameDef, b: &MultiwayBetting, hands: usize) -> usize {
    let mut rng = ChaCha8Rng::seed_from_u64(hands as u64);
    let mut absorbed = 0;
    for hand in 0..hands {
        let mut st = State::new(def).unwrap();
        let (mut bets, mut street, mut raises) = (Vec::new(), usize::MAX, 0u8);
        let mut order = [0u8; MAX_SEATS];
        loop {
            match st.next() {
                Next::Deal { .. } => {
                    st.deal_random(&mut rng).unwrap();
                }
                Next::Act { seat } => {
                    if st.street() != street {
                        (street, raises) = (st.street(), 0);
                        order = role_order(&st, street);
                        bets.clear();
                    }
                    let spot = b.locate(&st, &bets).unwrap();
                    let n = b.nodes[spot.node as usize];
                    let live = b.trees[spot.tree as usize].live;
                    let cap = MultiwayCap::for_street(b.cap, b.betting, live).max_bets;
                    let legal = st.legal_actions();
                    if n.kind == MwKind::Action {
                        assert_eq!(order[n.role as usize], seat, "hand {hand} {bets:?}");
                        for c in 0..n.num_children as usize {
                            let real = b.real_action(spot.tree, spot.node, c, &legal);
                            assert!(real.is_some(), "hand {hand} {bets:?}");
                        }
                        let raise = b.edges[b.children(spot.node as usize)]
                            .iter()
                            .any(|e| matches!(e, Edge::Action(Action::CompleteBetRaise(_))));
                        assert_eq!(raise, raises < cap, "hand {hand} {bets:?}");
                    } else {
                        assert!(raises > cap, "hand {hand} {bets:?}: closed at {raises}");
                        absorbed += 1;
                    }
                    let a = legal[crate::draw::below(&mut rng, legal.len())];
                    raises += matches!(a, Action::CompleteBetRaise(_)) as u8;
                    st.apply(a).unwrap();
                    bets.push(a);
                }
                Next::Over => break,
            }
        }
    }
    absorbed
}

#[test]
fn real_raises_past_a_multiway_cap_are_calls_and_the_street_is_absorbed() {
    for (v, seats, cap) in [
        (Variant::SevenStud, 6, "2@4"),
        (Variant::Razz, 5, "1@3"),
        (Variant::StudHiLo, 8, "2@6"),
    ] {
        let def = game(v, seats);
        let b = capped(&def, WithinStreet::Position, cap);
        let absorbed = real_hands_past_a_cap_are_absorbed(&def, &b, 150);
        assert!(
            absorbed > 0,
            "{v:?} {seats}: no decision past the cap was played"
        );
    }
}

#[test]
fn a_raise_past_a_multiway_cap_is_the_call_and_who_called_before_calls_again() {
    // Six seats capped at two bets, on fourth street (no bring-in): role 0 bets, role 1 raises (the cap), role 2 raises again (real, past the cap: its call), role
    // 3 to act then has the row of a decision facing the cap with no raise, and role 0 and
    // role 1, acting again in the real hand, find the abstract street closed.
    let def = game(Variant::SevenStud, 6);
    let b = capped(&def, WithinStreet::Position, "2@4");
    let t = b.tree(1, 6).unwrap();
    let root = b.trees[t as usize].root;
    let bet = |n: u32| {
        b.edges[b.children(n as usize)]
            .iter()
            .find_map(|e| match e {
                Edge::Action(a @ Action::CompleteBetRaise(_)) => Some(*a),
                _ => None,
            })
            .unwrap()
    };
    let b1 = bet(root);
    let after_bet = b.follow(t, &[b1]).unwrap();
    let r1 = bet(after_bet);
    let capped_node = b.follow(t, &[b1, r1]).unwrap();
    let r2 = Action::CompleteBetRaise(match r1 {
        Action::CompleteBetRaise(x) => x + def.big_bet,
        _ => unreachable!(),
    });
    let called = b.follow(t, &[b1, r1, Action::CheckCall]).unwrap();
    assert_eq!(b.follow(t, &[b1, r1, r2]).unwrap(), called);
    let n = b.nodes[called as usize];
    assert_eq!((n.kind, n.role), (MwKind::Action, 3));
    assert_eq!(n.num_children, 2, "fold and call: the cap is reached");
    assert_eq!(b.nodes[capped_node as usize].num_children, 2);
    // Roles 3, 4 and 5 call, role 0 calls the raise (its own decision in both games): the
    // abstract street closes; role 1, acting again for real (facing the third bet), finds it
    // closed, and role 2's real raise was its call.
    let c = Action::CheckCall;
    let mut real = vec![b1, r1, r2, c, c, c];
    let n0 = b.nodes[b.follow(t, &real).unwrap() as usize];
    assert_eq!((n0.kind, n0.role, n0.num_children), (MwKind::Action, 0, 2));
    real.push(c);
    let closed = b.follow(t, &real).unwrap();
    assert_eq!(b.nodes[closed as usize].kind, MwKind::NextStreet);
    real.push(c);
    assert_eq!(b.follow(t, &real).unwrap(), closed);
    // Role 2 raising past the cap, then role 3 folding: the fold is role 3's.
    let fold = b.follow(t, &[b1, r1, r2, Action::Fold]).unwrap();
    assert_eq!(b.nodes[fold as usize].role, 4);
    assert_eq!(b.nodes[fold as usize].live & 1 << 3, 0);
}
