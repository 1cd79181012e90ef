//! The size of a walkable stud game's lossless public tree, counted without building it: how
//! docs/notes/ladder.md chose the yardstick's deck and raise cap.
//!
//! `cargo run --release -p solver --example tree_sizes -- GAME [RANKS SUITS CAP] [--build]`:
//! GAME is a preset or a TOML game file (e.g. `yardstud`), optionally with another deck (`QKA
//! 3`: Q K A in three suits) and cap (bets per round). Prints the nodes and infoset-actions of
//! the lossless tree; `--build` also builds the tree and checks the count against it.
//!
//! The count: the betting does not depend on the cards (the betting tree's roles absorb who acts
//! first), so every sequence of up cards carries the same betting. Street `s` deals one up card
//! to each seat, one chance node per card; a betting history that reaches the street does so
//! once per sequence of up cards dealt before it.

use abstraction::betting_abstraction::BettingAbstraction;
use abstraction::betting_tree::{BettingKind, BettingTree};
use abstraction::card_abstraction::Lossless;
use abstraction::cards::Rank;
use abstraction::rules::Deal;
use abstraction::tree::{Budget, Tree};
use anyhow::{bail, Context, Result};

fn main() -> Result<()> {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let build = args.iter().any(|a| a == "--build");
    let args: Vec<&String> = args.iter().filter(|a| *a != "--build").collect();
    let game = args.first().context("GAME")?;
    let mut def = solver::input::load_game(game)?;
    if let [_, ranks, suits, cap] = args[..] {
        def.deck.ranks = (ranks.chars())
            .map(|c| Rank::parse(&c.to_string()).context("a rank"))
            .collect::<Result<_>>()?;
        def.deck.suits = suits.parse().context("SUITS")?;
        def.max_bets = cap.parse().context("CAP")?;
    }
    Tree::check_supported(&def)?;
    let ups = |s: usize| {
        def.streets[s]
            .deal
            .iter()
            .filter(|d| **d == Deal::Up)
            .count()
    };
    if (0..def.streets.len()).any(|s| ups(s) != 1) {
        bail!("the count is for games dealing one up card a seat on every street");
    }
    let streets = def.streets.len();
    let betting = BettingAbstraction::for_game(&def);
    let bt = BettingTree::build(&def, betting, &vec![1; streets])?;
    let sizes = bt.street_sizes();
    // The betting histories entering each street.
    let mut enter = vec![0u64; streets];
    enter[0] = 1;
    for (i, n) in bt.nodes.iter().enumerate() {
        if n.kind == BettingKind::Action {
            for c in bt.children(i) {
                if bt.nodes[c].street > n.street {
                    enter[bt.nodes[c].street as usize] += 1;
                }
            }
        }
    }
    let deck = def.deck.len() as u64;
    let (mut sequences, mut nodes, mut slots) = (1u64, 0u64, 0u64);
    for s in 0..streets {
        let left = deck - 2 * s as u64;
        // A chance node for the first seat's card, one for the second's below each of those.
        nodes += enter[s] * sequences * (1 + left);
        sequences *= left * (left - 1);
        nodes += (sizes[s].action_nodes + sizes[s].terminals) as u64 * sequences;
        slots += sizes[s].actions as u64 * sequences * Tree::possible_hands(&def, s) as u64;
    }
    println!(
        "{} on {deck} cards, cap {}: {nodes} nodes, {slots} infoset-actions ({:.1} GB at 64 \
         bytes a node and 16 an infoset-action)",
        def.variant,
        def.max_bets,
        (nodes * 64 + slots * 16) as f64 / 1e9
    );
    if build {
        let t = Tree::build(&def, &Lossless, betting, Budget::nodes(usize::MAX))?;
        println!(
            "built: {} nodes, {} infoset-actions",
            t.nodes.len(),
            t.num_slots
        );
        if (t.nodes.len() as u64, t.num_slots as u64) != (nodes, slots) {
            bail!("the count is wrong");
        }
    }
    Ok(())
}
