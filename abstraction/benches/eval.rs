//! Hand-evaluator throughput against published peers, in one run, printed as a table.
//!
//! The same random 7-card hands (seeded) are given to every evaluator as seven card ids, the form
//! a caller holds before any evaluator-specific hand is built; ours is also timed on a ready
//! `CardSet` and the peer on a ready hand. The full enumeration walks all 133,784,560 7-card
//! hands by nested loops, each evaluator carrying its own incremental hand per level.
//! Run with `scripts/bench-eval` (optionally `scripts/bench-eval 2000000` for fewer hands).

use abstraction::cards::{Card, CardSet};
use abstraction::eval::{eval_high, PartialHand};
use aya_poker::base::{Hand as AyaHand, CARDS as AYA_CARDS};
use rand::seq::SliceRandom;
use rand::SeedableRng;
use std::hint::black_box;
use std::time::Instant;

/// Times `f`, which evaluates `n` hands and returns a checksum (kept so no work is skipped).
fn time(n: u64, f: impl FnOnce() -> u64) -> f64 {
    let t = Instant::now();
    black_box(f());
    n as f64 / t.elapsed().as_secs_f64()
}

fn row(name: &str, rate: f64, ours: f64) {
    println!("  {name:<44} {:>10.1} {:>9.2}", rate / 1e6, ours / rate);
}

fn main() {
    let n: usize = std::env::args()
        .skip(1)
        .find_map(|a| a.parse().ok())
        .unwrap_or(4_000_000);
    let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(20_261_129);
    let mut deck: Vec<u8> = (0..52).collect();
    let ids: Vec<[u8; 7]> = (0..n)
        .map(|_| {
            deck.partial_shuffle(&mut rng, 7);
            std::array::from_fn(|i| deck[i])
        })
        .collect();
    let sets: Vec<CardSet> = ids
        .iter()
        .map(|h| h.iter().map(|&i| Card::from_id(i)).collect())
        .collect();
    let aya_hands: Vec<AyaHand> = ids
        .iter()
        .map(|h| h.iter().map(|&i| AYA_CARDS[i as usize]).collect())
        .collect();
    // Build the tables of both sides before timing.
    black_box(eval_high(sets[0]));
    black_box(aya_poker::poker_rank(&aya_hands[0]));

    let nn = n as u64;
    let ours_ids = time(nn, || {
        ids.iter()
            .map(|h| {
                let p = h
                    .iter()
                    .fold(PartialHand::EMPTY, |p, &i| p.add(Card::from_id(i)));
                p.high().value() as u64
            })
            .sum()
    });
    let ours_set = time(nn, || {
        sets.iter().map(|&s| eval_high(s).value() as u64).sum()
    });
    let aya_ids = time(nn, || {
        ids.iter()
            .map(|h| {
                let mut hand = AyaHand::new();
                for &i in h {
                    hand.insert_unchecked(&AYA_CARDS[i as usize]);
                }
                aya_poker::poker_rank(&hand).0 as u64
            })
            .sum()
    });
    let aya_ready = time(nn, || {
        aya_hands
            .iter()
            .map(|h| aya_poker::poker_rank(h).0 as u64)
            .sum()
    });
    let rs_n = n.min(500_000);
    let rs_ids = time(rs_n as u64, || {
        use rs_poker::core::Rankable;
        ids[..rs_n]
            .iter()
            .map(|h| {
                let cards: [rs_poker::core::Card; 7] =
                    std::array::from_fn(|i| rs_poker::core::Card::from(h[i]));
                black_box(cards.as_slice().rank());
                1
            })
            .sum()
    });

    let all = 133_784_560u64;
    let ours_enum = time(all, || {
        let mut sum = 0u64;
        let deck: Vec<Card> = Card::deck().collect();
        for a in 0..46 {
            let ha = PartialHand::EMPTY.add(deck[a]);
            for b in a + 1..47 {
                let hb = ha.add(deck[b]);
                for c in b + 1..48 {
                    let hc = hb.add(deck[c]);
                    for d in c + 1..49 {
                        let hd = hc.add(deck[d]);
                        for e in d + 1..50 {
                            let he = hd.add(deck[e]);
                            for f in e + 1..51 {
                                let hf = he.add(deck[f]);
                                for &g in &deck[f + 1..] {
                                    sum += hf.add(g).high().value() as u64;
                                }
                            }
                        }
                    }
                }
            }
        }
        sum
    });
    let aya_enum = time(all, || {
        let mut sum = 0u64;
        let add = |h: AyaHand, i: usize| {
            let mut h = h;
            h.insert_unchecked(&AYA_CARDS[i]);
            h
        };
        for a in 0..46 {
            let ha = add(AyaHand::new(), a);
            for b in a + 1..47 {
                let hb = add(ha, b);
                for c in b + 1..48 {
                    let hc = add(hb, c);
                    for d in c + 1..49 {
                        let hd = add(hc, d);
                        for e in d + 1..50 {
                            let he = add(hd, e);
                            for f in e + 1..51 {
                                let hf = add(he, f);
                                for g in f + 1..52 {
                                    sum += aya_poker::poker_rank(&add(hf, g)).0 as u64;
                                }
                            }
                        }
                    }
                }
            }
        }
        sum
    });

    println!("7-card high hands, one thread; Mhands/s, and ours / that row");
    println!("  {:<44} {:>10} {:>9}", "evaluator", "Mhands/s", "ratio");
    println!("random hands ({n}, seeded), from 7 card ids:");
    row("ours: PartialHand adds + high()", ours_ids, ours_ids);
    row(
        "aya_poker 0.1: Hand inserts + poker_rank()",
        aya_ids,
        ours_ids,
    );
    row(
        &format!("rs_poker 4.1: [Card; 7].rank() ({rs_n} hands)"),
        rs_ids,
        ours_ids,
    );
    println!("random hands, from each side's own ready hand:");
    row("ours: eval_high(CardSet)", ours_set, ours_set);
    row("aya_poker 0.1: poker_rank(&Hand)", aya_ready, ours_set);
    println!("full enumeration (133,784,560 hands), nested incremental loops:");
    row("ours: PartialHand::add + high()", ours_enum, ours_enum);
    row(
        "aya_poker 0.1: Hand::insert_unchecked + poker_rank()",
        aya_enum,
        ours_enum,
    );
}
