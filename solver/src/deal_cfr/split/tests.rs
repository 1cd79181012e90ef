use super::*;
use crate::deal_cfr::tests::{bucketing, solver};
use abstraction::betting_abstraction::BettingAbstraction;
use abstraction::rules::Variant;
use std::sync::{Barrier, Mutex};

/// Ranks as threads of one process: each collective deposits every rank's share, waits for all,
/// reads them in rank order and waits again (so that no share is overwritten while read).
pub(crate) struct Threads {
    rank: usize,
    ranks: usize,
    shared: Arc<Shared>,
}

struct Shared {
    barrier: Barrier,
    slots: Mutex<Vec<Vec<u8>>>,
}

impl Threads {
    pub(crate) fn all(ranks: usize) -> Vec<Threads> {
        let shared = Arc::new(Shared {
            barrier: Barrier::new(ranks),
            slots: Mutex::new(vec![Vec::new(); ranks]),
        });
        (0..ranks)
            .map(|rank| Threads {
                rank,
                ranks,
                shared: Arc::clone(&shared),
            })
            .collect()
    }

    /// Every rank's bytes, rank order.
    fn exchange(&mut self, mine: &[u8]) -> Vec<u8> {
        self.shared.slots.lock().unwrap()[self.rank] = mine.to_vec();
        self.shared.barrier.wait();
        let all = self.shared.slots.lock().unwrap().concat();
        self.shared.barrier.wait();
        all
    }
}

impl Exchange for Threads {
    fn rank(&self) -> usize {
        self.rank
    }
    fn ranks(&self) -> usize {
        self.ranks
    }
    fn all_gather_bytes(&mut self, mine: &[u8], counts: &[usize], all: &mut [u8]) -> Result<()> {
        assert_eq!(mine.len(), counts[self.rank]);
        all.copy_from_slice(&self.exchange(mine));
        Ok(())
    }
    fn all_gather_f32(&mut self, mine: &[f32], counts: &[usize], all: &mut [f32]) -> Result<()> {
        assert_eq!(mine.len(), counts[self.rank]);
        let bytes = self.exchange(bytemuck::cast_slice(mine));
        all.copy_from_slice(bytemuck::cast_slice(&bytes));
        Ok(())
    }
    fn gather_f32(&mut self, mine: &[f32], counts: &[usize], all: &mut [f32]) -> Result<()> {
        let bytes = self.exchange(bytemuck::cast_slice(mine));
        assert_eq!(bytes.len(), 4 * counts.iter().sum::<usize>());
        if self.rank == 0 {
            all.copy_from_slice(bytemuck::cast_slice(&bytes));
        }
        Ok(())
    }
    fn decide(&mut self, value: bool) -> Result<bool> {
        Ok(self.exchange(&[value as u8])[0] == 1)
    }
    fn all_u64(&mut self, value: u64) -> Result<Vec<u64>> {
        let bytes = self.exchange(&value.to_le_bytes());
        Ok(bytes
            .chunks_exact(8)
            .map(|b| u64::from_le_bytes(b.try_into().unwrap()))
            .collect())
    }
    fn broadcast_f32(&mut self, values: &mut [f32]) -> Result<()> {
        let mine: &[u8] = if self.rank == 0 {
            bytemuck::cast_slice(values)
        } else {
            &[]
        };
        let bytes = self.exchange(mine);
        values.copy_from_slice(bytemuck::cast_slice(&bytes));
        Ok(())
    }
}

fn tree() -> BettingTree {
    let def = GameDef::stud(Variant::SevenStud);
    let k: Vec<u32> = (0..5).map(|s| bucketing().buckets(s)).collect();
    BettingTree::build(&def, BettingAbstraction::for_game(&def), &k).unwrap()
}

fn part(batch: usize, seed: u64, rank: usize, split: Split, algorithm: Algorithm) -> DealPart {
    let def = GameDef::stud(Variant::SevenStud);
    let mut p = DealPart::new(
        &def,
        tree(),
        bucketing(),
        Recall::None,
        batch,
        seed,
        rank,
        split,
    )
    .unwrap();
    p.set_algorithm(algorithm).unwrap();
    p
}

/// `iterations` batches split as `split` says over threads: rank 0's gathered average, and
/// every rank's part.
fn run_split(
    split: &Split,
    batch: usize,
    iterations: u64,
    algorithm: Algorithm,
    alternating: bool,
) -> (Vec<f32>, Vec<DealPart>) {
    let out: Vec<(Option<Vec<f32>>, DealPart)> = std::thread::scope(|s| {
        let handles: Vec<_> = Threads::all(split.ranks)
            .into_iter()
            .map(|mut x| {
                let split = split.clone();
                s.spawn(move || {
                    let mut p = part(batch, 11, x.rank, split, algorithm);
                    p.alternating = alternating;
                    for _ in 0..iterations {
                        p.iterate(&mut x).unwrap();
                    }
                    (p.gather_average(&mut x).unwrap(), p)
                })
            })
            .collect();
        handles.into_iter().map(|h| h.join().unwrap()).collect()
    });
    let mut parts = Vec::new();
    let mut average = None;
    for (a, p) in out {
        average = average.or(a);
        parts.push(p);
    }
    (average.expect("rank 0 gathers"), parts)
}

fn bits(v: &[f32]) -> Vec<u32> {
    v.iter().map(|x| x.to_bits()).collect()
}

#[test]
fn a_split_solve_has_the_single_process_bits() {
    for (algorithm, alternating) in [(Algorithm::CfrPlus, false), (Algorithm::Linear, true)] {
        let mut single = solver(37, 11);
        single.set_algorithm(algorithm).unwrap();
        single.alternating = alternating;
        for _ in 0..6 {
            single.iterate().unwrap();
        }
        // Split at the end of the first, second and fourth streets (three streets in the top).
        for (ranks, top_streets) in [(1, 1), (2, 1), (3, 1), (2, 2), (3, 2), (3, 4)] {
            let split = Split::at(&tree(), ranks, top_streets);
            let (average, parts) = run_split(&split, 37, 6, algorithm, alternating);
            let what = format!(
                "{ranks} ranks below {top_streets} streets, {}",
                algorithm.name()
            );
            assert_eq!(bits(&average), bits(&single.average), "{what}");
            // Every rank's regrets are the single process's at the slots it holds.
            for p in &parts {
                assert_eq!(p.iterations, 6);
                for (i, &at) in p.top_at.iter().enumerate() {
                    if at != NONE {
                        let n = &p.tree.nodes[i];
                        let len = p.tree.num_buckets[n.street as usize] as usize
                            * n.num_children as usize;
                        let slot = n.first_slot() as usize;
                        assert_eq!(
                            bits(&p.regrets[at as usize..][..len]),
                            bits(&single.regrets[slot..slot + len]),
                            "{what}: top node {i}"
                        );
                    }
                }
                for &(node, at) in &p.owned {
                    let [lo, hi] = p.tree.slot_range[node].map(|s| s as usize);
                    assert_eq!(
                        bits(&p.regrets[at..at + hi - lo]),
                        bits(&single.regrets[lo..hi]),
                        "{what}: split point {node}"
                    );
                }
            }
        }
    }
}

#[test]
fn no_rank_holds_all_the_slots_and_the_split_is_balanced() {
    let split = Split::plan(&tree(), 3);
    let p = part(8, 1, 0, split.clone(), Algorithm::CfrPlus);
    assert!(split.points.len() >= 3, "{split:?}");
    // Every slot is the top's or exactly one split point's.
    let total: usize = split.top_slots + split.owned_slots.iter().sum::<usize>();
    assert_eq!(total, p.tree.num_slots);
    let most = (0..3).map(|r| split.slots_of(r)).max().unwrap();
    assert!(most < p.tree.num_slots, "{split:?}");
    // Greedy by size: no rank holds more than the least loaded one plus the largest subtree.
    let largest = (split.points.iter())
        .map(|&q| (p.tree.slot_range[q][1] - p.tree.slot_range[q][0]) as usize)
        .max()
        .unwrap();
    let (lo, hi) = (
        split.owned_slots.iter().min().unwrap(),
        split.owned_slots.iter().max().unwrap(),
    );
    assert!(hi - lo <= largest, "{split:?}");
    assert_eq!(p.regrets.len(), split.slots_of(0));
    // The plan's depth leaves no more on the fullest rank than any other depth.
    for top_streets in 1..5 {
        assert!(split.most_slots() <= Split::at(&p.tree, 3, top_streets).most_slots());
    }
}

#[test]
fn facts_cross_the_wire_unchanged() {
    let f = DealFacts {
        first: [1, 0, 1, 1, 0, 0, 1, 0][..MAX_STREETS].try_into().unwrap(),
        buckets: std::array::from_fn(|s| [s as u32 * 77 + 3, u32::MAX - s as u32]),
        share0: 0.25,
    };
    let mut bytes = [0u8; FACT_BYTES];
    encode(&f, &mut bytes);
    let g = decode(&bytes);
    assert_eq!(
        (g.first, g.buckets, g.share0.to_bits()),
        (f.first, f.buckets, f.share0.to_bits())
    );
}

/// The strategy file rank 0 writes as the masses arrive a split point at a time ([`Gathered`])
/// is the single process's, written from its whole array: the same bytes.
#[test]
fn the_file_written_from_the_gathered_parts_is_the_whole_arrays() {
    use crate::session::deal::{write_solved, write_strategy, Solved};
    use crate::strategy_file::Width;
    let def = GameDef::stud(Variant::SevenStud);
    let dir = std::env::temp_dir().join(format!("stud-split-file-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let mut single = solver(16, 11);
    for _ in 0..4 {
        single.iterate().unwrap();
    }
    let want = dir.join("one.strat");
    write_strategy(&want, &single, &def, &bucketing(), Width::U8, None).unwrap();
    let want = std::fs::read(want).unwrap();
    for (ranks, top_streets) in [(2, 1), (3, 2)] {
        let split = Split::at(&tree(), ranks, top_streets);
        let got = dir.join(format!("r{ranks}.strat"));
        std::thread::scope(|s| {
            for mut x in Threads::all(ranks) {
                let (split, got, def) = (split.clone(), &got, &def);
                s.spawn(move || {
                    let mut p = part(16, 11, x.rank, split, Algorithm::CfrPlus);
                    for _ in 0..4 {
                        p.iterate(&mut x).unwrap();
                    }
                    let mut average = Gathered::new(&p, &mut x);
                    if p.rank == 0 {
                        let solved = Solved {
                            tree: &p.tree,
                            average: &mut average,
                            algorithm: p.algorithm(),
                            iterations: p.iterations,
                            batch: p.batch,
                            seed: p.seed,
                            recall: p.recall(),
                        };
                        write_solved(got, solved, def, &bucketing(), Width::U8, None).unwrap();
                        // A node already passed over is refused, not read from another subtree.
                        assert!(average.rows(p.split.points[0]).is_err());
                    }
                    average.finish().unwrap();
                });
            }
        });
        assert!(
            std::fs::read(&got).unwrap() == want,
            "{ranks} ranks below {top_streets} streets: the files differ"
        );
    }
    let _ = std::fs::remove_dir_all(&dir);
}
