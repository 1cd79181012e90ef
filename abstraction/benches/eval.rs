//! Hand-evaluator throughput against published peers, in one run, printed as a table.
//!
//! The same random 7-card hands (seeded) are given to every evaluator as seven card ids, the form
//! a caller holds before any evaluator-specific hand is built; then each side's own ready hands
//! (our `CardSet` or `PartialHand`, aya_poker's `Hand`). The full enumeration walks all 133,784,560 7-card hands
//! by nested loops, each evaluator carrying its own incremental hand per level. Within a group
//! the evaluators take turns, several rounds, and each keeps its best round: the machine is
//! shared, and the best round is the one least disturbed.
//! Run with `scripts/bench-eval [HANDS]` (default 4,000,000 random hands).

use abstraction::cards::{Card, CardSet};
use abstraction::eval::{eval_high, eval_high_batch, eval_razz, PartialHand};
use aya_poker::base::{Hand as AyaHand, CARDS as AYA_CARDS};
use rand::SeedableRng;
use std::hint::black_box;
use std::time::Instant;

/// One timed evaluator: `run` evaluates `hands` hands and returns a checksum (kept so that no
/// work is optimized away).
struct Case<'a> {
    name: String,
    hands: u64,
    run: Box<dyn FnMut() -> u64 + 'a>,
}

/// Runs the cases in turn for `rounds` rounds and prints each one's best rate, with its ratio
/// to the case named `peer`.
fn group(title: &str, rounds: usize, peer: &str, mut cases: Vec<Case>) {
    let mut best = vec![0f64; cases.len()];
    for _ in 0..rounds {
        for (case, best) in cases.iter_mut().zip(&mut best) {
            let t = Instant::now();
            black_box((case.run)());
            *best = best.max(case.hands as f64 / t.elapsed().as_secs_f64());
        }
    }
    let peer_rate = cases
        .iter()
        .zip(&best)
        .find(|(c, _)| c.name.starts_with(peer))
        .map(|(_, &r)| r)
        .expect("the peer is among the cases");
    println!("{title} (best of {rounds} rounds):");
    for (case, rate) in cases.iter().zip(best) {
        println!(
            "  {:<52} {:>9.1} {:>8.2}",
            case.name,
            rate / 1e6,
            rate / peer_rate
        );
    }
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
            abstraction::draw::partial_shuffle(&mut deck, &mut rng, 7);
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
    // Like aya_poker's Hand, a PartialHand carries its key ready-made.
    let partials: Vec<PartialHand> = sets.iter().map(|&s| PartialHand::of(s)).collect();
    let mut batch_out = vec![eval_high(sets[0]); n];
    // Build the tables of both sides before timing.
    black_box(aya_poker::poker_rank(&aya_hands[0]));
    let rs_n = n.min(500_000);
    let nn = n as u64;

    println!("7-card hands, one thread: million hands/s, and the ratio to aya_poker's row");
    group(
        &format!("{n} random hands (seeded), from seven card ids"),
        5,
        "aya_poker",
        vec![
            Case {
                name: "ours: PartialHand::add x7 + high()".into(),
                hands: nn,
                run: Box::new(|| {
                    ids.iter()
                        .map(|h| {
                            let p = h
                                .iter()
                                .fold(PartialHand::EMPTY, |p, &i| p.add(Card::from_id(i)));
                            p.high().value() as u64
                        })
                        .sum()
                }),
            },
            Case {
                name: "aya_poker 0.1: Hand::insert_unchecked x7 + poker_rank".into(),
                hands: nn,
                run: Box::new(|| {
                    ids.iter()
                        .map(|h| {
                            let mut hand = AyaHand::new();
                            for &i in h {
                                hand.insert_unchecked(&AYA_CARDS[i as usize]);
                            }
                            aya_poker::poker_rank(&hand).0 as u64
                        })
                        .sum()
                }),
            },
            Case {
                name: format!("rs_poker 4.1: [Card; 7].rank() (first {rs_n})"),
                hands: rs_n as u64,
                run: Box::new(|| {
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
                }),
            },
        ],
    );
    group(
        "the same hands, from each side's own ready hands",
        5,
        "aya_poker",
        vec![
            Case {
                name: "ours: eval_high(CardSet)".into(),
                hands: nn,
                run: Box::new(|| sets.iter().map(|&s| eval_high(s).value() as u64).sum()),
            },
            Case {
                name: "ours: PartialHand::high() (key ready, as in aya's Hand)".into(),
                hands: nn,
                run: Box::new(|| partials.iter().map(|h| h.high().value() as u64).sum()),
            },
            Case {
                name: "ours: eval_high_batch(&[CardSet]) (AVX2 when present)".into(),
                hands: nn,
                run: Box::new(|| {
                    eval_high_batch(&sets, &mut batch_out);
                    batch_out.iter().map(|s| s.value() as u64).sum()
                }),
            },
            Case {
                name: "aya_poker 0.1: poker_rank(&Hand)".into(),
                hands: nn,
                run: Box::new(|| {
                    aya_hands
                        .iter()
                        .map(|h| aya_poker::poker_rank(h).0 as u64)
                        .sum()
                }),
            },
        ],
    );
    group(
        "razz (ace-to-five) lows of the same hands, from ready hands",
        5,
        "aya_poker",
        vec![
            Case {
                name: "ours: eval_razz(CardSet)".into(),
                hands: nn,
                run: Box::new(|| sets.iter().map(|&s| eval_razz(s).value() as u64).sum()),
            },
            Case {
                name: "aya_poker 0.1: ace_five_rank(&Hand)".into(),
                hands: nn,
                run: Box::new(|| {
                    aya_hands
                        .iter()
                        .map(|h| aya_poker::ace_five_rank(h).0 as u64)
                        .sum()
                }),
            },
        ],
    );
    group(
        "every 7-card hand (133,784,560), nested loops adding one card per level",
        3,
        "aya_poker",
        vec![
            Case {
                name: "ours: PartialHand::add + high()".into(),
                hands: 133_784_560,
                run: Box::new(|| {
                    enumerate(PartialHand::EMPTY, PartialHand::add, |h| {
                        h.high().value() as u64
                    })
                }),
            },
            Case {
                name: "aya_poker 0.1: Hand::insert_unchecked + poker_rank".into(),
                hands: 133_784_560,
                run: Box::new(|| {
                    let add = |mut h: AyaHand, c: Card| {
                        h.insert_unchecked(&AYA_CARDS[c.id() as usize]);
                        h
                    };
                    enumerate(AyaHand::new(), add, |h| aya_poker::poker_rank(&h).0 as u64)
                }),
            },
        ],
    );
}

/// Sums `eval` over every 7-card hand, built by seven nested loops that each add one card to
/// the hand of the loop outside: the reuse an incremental evaluator allows.
fn enumerate<H: Copy>(empty: H, add: impl Fn(H, Card) -> H, eval: impl Fn(H) -> u64) -> u64 {
    let deck: Vec<Card> = Card::deck().collect();
    let mut sum = 0;
    for a in 0..46 {
        let ha = add(empty, deck[a]);
        for b in a + 1..47 {
            let hb = add(ha, deck[b]);
            for c in b + 1..48 {
                let hc = add(hb, deck[c]);
                for d in c + 1..49 {
                    let hd = add(hc, deck[d]);
                    for e in d + 1..50 {
                        let he = add(hd, deck[e]);
                        for f in e + 1..51 {
                            let hf = add(he, deck[f]);
                            for &g in &deck[f + 1..] {
                                sum += eval(add(hf, g));
                            }
                        }
                    }
                }
            }
        }
    }
    sum
}
