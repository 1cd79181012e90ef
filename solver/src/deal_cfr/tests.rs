use super::*;
use abstraction::betting_abstraction::BettingAbstraction;
use abstraction::bucketing::Size;
use abstraction::rules::Variant;
use abstraction::tree::Edge;
use std::sync::OnceLock;

/// A 7stud bucketing of 4 buckets per street with a small training sample (a second to build).
pub(super) fn bucketing() -> Arc<Bucketing> {
    static B: OnceLock<Arc<Bucketing>> = OnceLock::new();
    B.get_or_init(|| {
        let def = GameDef::stud(Variant::SevenStud);
        let mut size = Size::preset("tiny", 5).unwrap();
        size.buckets = vec![4; 5];
        size.train = 300;
        Arc::new(Bucketing::build(&def, &size, &|_| {}).unwrap())
    })
    .clone()
}

pub(super) fn solver(batch: usize, seed: u64) -> DealSolver {
    let def = GameDef::stud(Variant::SevenStud);
    let b = bucketing();
    let k: Vec<u32> = (0..5).map(|s| b.buckets(s)).collect();
    let tree = BettingTree::build(&def, BettingAbstraction::for_game(&def), &k).unwrap();
    DealSolver::new(&def, tree, b, batch, seed).unwrap()
}

/// One iteration computed naively: deal by deal, node by node, in `f64`, without pruning; one
/// pass updating both seats, or (alternating) seat 0's pass then seat 1's.
fn reference_iteration(s: &DealSolver) -> (Vec<f64>, Vec<f64>) {
    let t = s.iterations + 1;
    let mut reg: Vec<f64> = s.regrets.iter().map(|&x| x as f64).collect();
    let mut avg: Vec<f64> = s.average.iter().map(|&x| x as f64).collect();
    let bk = bucketing();
    let facts: Vec<DealFacts> = (0..s.batch)
        .map(|d| s.deal(t, d).unwrap().facts(&s.def, &bk).unwrap())
        .collect();
    let passes: &[Option<usize>] = if s.alternating {
        &[Some(0), Some(1)]
    } else {
        &[None]
    };
    struct Pass<'a> {
        s: &'a DealSolver,
        t: f64,
        trav: Option<usize>,
        /// The regrets at the start of the pass: the strategy is fixed within it.
        before: Vec<f64>,
    }
    fn rec(
        p: &Pass,
        f: &DealFacts,
        i: usize,
        r: [f64; 2],
        reg: &mut [f64],
        avg: &mut [f64],
        touched: &mut [bool],
    ) -> f64 {
        let n = p.s.tree.nodes[i];
        let st = n.street as usize;
        match n.kind {
            BettingKind::Fold => {
                let stake = n.stake().0 as f64;
                let folder = f.first[st] ^ n.role;
                return if folder == 0 { -stake } else { stake };
            }
            BettingKind::Showdown => {
                return (2.0 * f.share0 as f64 - 1.0) * n.stake().0 as f64;
            }
            BettingKind::Action => {}
        }
        let seat = (f.first[st] ^ n.role) as usize;
        let k = n.num_children as usize;
        let row = n.first_slot() as usize + f.buckets[st][seat] as usize * k;
        let pos: Vec<f64> = p.before[row..row + k].iter().map(|&x| x.max(0.0)).collect();
        let sum: f64 = pos.iter().sum();
        let sigma: Vec<f64> = pos
            .iter()
            .map(|&x| if sum > 0.0 { x / sum } else { 1.0 / k as f64 })
            .collect();
        let mut u = vec![0.0; k];
        for (a, c) in p.s.tree.children(i).enumerate() {
            let mut rc = r;
            rc[seat] *= sigma[a];
            u[a] = rec(p, f, c, rc, reg, avg, touched);
        }
        let v: f64 = (0..k).map(|a| sigma[a] * u[a]).sum();
        if p.trav.is_none_or(|t| t == seat) {
            let sign = if seat == 0 { 1.0 } else { -1.0 };
            for a in 0..k {
                reg[row + a] += sign * r[1 - seat] * (u[a] - v);
                avg[row + a] += p.t * r[seat] * sigma[a];
                touched[row + a] = true;
            }
        }
        v
    }
    for &trav in passes {
        let pass = Pass {
            s,
            t: t as f64,
            trav,
            before: reg.clone(),
        };
        let mut touched = vec![false; reg.len()];
        for f in &facts {
            rec(&pass, f, 0, [1.0, 1.0], &mut reg, &mut avg, &mut touched);
        }
        for (r, _) in reg.iter_mut().zip(&touched).filter(|(_, &t)| t) {
            *r = r.max(0.0);
        }
    }
    (reg, avg)
}

fn close(got: &[f32], want: &[f64], what: &str) {
    for (i, (&g, &w)) in got.iter().zip(want).enumerate() {
        assert!(
            (g as f64 - w).abs() <= 1e-3 * (1.0 + w.abs()),
            "{what} slot {i}: {g} against {w}"
        );
    }
}

#[test]
fn iterations_match_a_naive_deal_by_deal_implementation() {
    let mut s = solver(8, 3);
    for i in 0..4 {
        // Two iterations with simultaneous updates, then two alternating.
        s.alternating = i >= 2;
        let (reg, avg) = reference_iteration(&s);
        s.iterate().unwrap();
        close(&s.regrets, &reg, "regret");
        close(&s.average, &avg, "average");
    }
    assert!(s.regrets.iter().any(|&r| r > 0.0));
    // The root's average: some mass on both the bring-in and the completion.
    let mut row = [0.0; 2];
    s.average_row(0, 0, &mut row).unwrap();
    assert!((row[0] + row[1] - 1.0).abs() < 1e-9, "{row:?}");
}

#[test]
fn the_same_bits_on_one_and_two_threads_and_after_a_resume() {
    let run = |threads: usize, iterations: u64| {
        let pool = rayon::ThreadPoolBuilder::new()
            .num_threads(threads)
            .build()
            .unwrap();
        pool.install(|| {
            let mut s = solver(48, 11);
            while s.iterations < iterations {
                s.alternating = s.iterations % 2 == 1;
                s.iterate().unwrap();
            }
            s
        })
    };
    let one = run(1, 4);
    let two = run(2, 4);
    let bits = |v: &[f32]| v.iter().map(|x| x.to_bits()).collect::<Vec<_>>();
    assert_eq!(bits(&one.regrets), bits(&two.regrets));
    assert_eq!(bits(&one.average), bits(&two.average));
    // A solve resumed from iteration 2's arrays draws the same deals.
    let half = run(2, 2);
    let mut resumed = solver(48, 11);
    resumed.regrets = half.regrets.clone();
    resumed.average = half.average.clone();
    resumed.iterations = 2;
    resumed.iterate().unwrap();
    resumed.alternating = true;
    resumed.iterate().unwrap();
    assert_eq!(bits(&resumed.regrets), bits(&one.regrets));
    // Another seed, other deals.
    let other = {
        let mut s = solver(48, 12);
        s.iterate().unwrap();
        s
    };
    assert_ne!(bits(&other.regrets), bits(&run(1, 1).regrets));
}

#[test]
fn mismatches_are_refused_by_name() {
    let def = GameDef::stud(Variant::SevenStud);
    let tree = BettingTree::build(&def, BettingAbstraction::for_game(&def), &[3; 5]).unwrap();
    let e = DealSolver::new(&def, tree.clone(), bucketing(), 4, 1)
        .err()
        .unwrap();
    assert!(e.to_string().contains("[3, 3, 3, 3, 3] buckets"), "{e}");
    let razz = GameDef::stud(Variant::Razz);
    let e = DealSolver::new(&razz, tree, bucketing(), 4, 1)
        .err()
        .unwrap();
    assert!(e.to_string().contains("built for 7stud"), "{e}");
    let s = solver(4, 1);
    let mut out = [0.0; 3];
    assert!(s.average_row(0, 0, &mut out).is_err());
    let leaf = s
        .tree
        .nodes
        .iter()
        .position(|n| n.kind != BettingKind::Action);
    assert!(s.average_row(leaf.unwrap() as u32, 0, &mut out).is_err());
    assert_eq!(s.tree.edges[0], Edge::Root);
}

#[test]
fn scratch_is_sized_by_the_deepest_path_and_reported_exactly() {
    let s = solver(16, 1);
    let levels = levels(&s.tree);
    // 7stud, cap 4: at most 6 decisions a street (the bring-in or a check, a bet or completion
    // and three raises, then the call), on 5 streets.
    assert_eq!(levels[0], 6 * 5);
    let allocated: usize = std::iter::once(&s.main)
        .chain(&s.tasks)
        .map(|t| (t.scratch.len() + t.out.len() + t.reach0.len() + t.reach1.len()) * 4)
        .sum();
    let facts = s.batch * (std::mem::size_of::<DealFacts>() + 9 * 5 + 4);
    assert_eq!(
        DealSolver::scratch_bytes(&s.tree, s.batch),
        allocated + facts
    );
}
