use super::*;
use crate::checkpoint::Problem;
use crate::session;
use abstraction::betting_abstraction::BettingAbstraction;
use abstraction::bucketing::{Bucketing, Size};
use abstraction::multiway_betting::{WithinStreet, POT_CLASSES};
use abstraction::multiway_deal::MultiwayView;
use abstraction::rules::Variant;
use std::sync::OnceLock;

/// The size of the tests' bucketings: 4 buckets per street with a small training sample (a
/// second to build).
fn test_size() -> Size {
    let mut size = Size::preset("tiny", 5).unwrap();
    size.buckets = vec![4; 5];
    size.train = 300;
    size
}

/// A 7stud bucketing of [`test_size`], seen against the best showing opponent.
pub(crate) fn bucketing() -> Arc<MultiwayBuckets> {
    static B: OnceLock<Arc<MultiwayBuckets>> = OnceLock::new();
    B.get_or_init(|| {
        let def = GameDef::stud(Variant::SevenStud);
        let b = Bucketing::build(&def, &test_size(), &|_| {}).unwrap();
        Arc::new(MultiwayBuckets::best_opponent(b))
    })
    .clone()
}

/// The three-seat table view of [`bucketing`]: a bucketing of [`test_size`] per number of live
/// seats.
pub(crate) fn table_buckets() -> Arc<MultiwayBuckets> {
    static B: OnceLock<Arc<MultiwayBuckets>> = OnceLock::new();
    B.get_or_init(|| {
        let def = GameDef::stud(Variant::SevenStud);
        let by_live = (2..=3)
            .map(|live| {
                let table = MultiwayBuckets::table_of(3, live);
                Bucketing::build_table(&def, table, &test_size(), &|_| {}).unwrap()
            })
            .collect();
        let heads_up = bucketing().heads_up.clone();
        Arc::new(MultiwayBuckets::table(heads_up, by_live, 3).unwrap())
    })
    .clone()
}

/// Seven-card stud three-handed.
pub(crate) fn game() -> GameDef {
    GameDef::preset("7stud-3p").unwrap()
}

pub(crate) fn solver(algorithm: Algorithm, batch: usize, seed: u64) -> SampledSolver {
    solver_with(bucketing(), algorithm, batch, seed)
}

/// [`solver`] with the card abstraction `buckets`.
pub(crate) fn solver_with(
    buckets: Arc<MultiwayBuckets>,
    algorithm: Algorithm,
    batch: usize,
    seed: u64,
) -> SampledSolver {
    solver_recalling(WithinStreet::History, buckets, algorithm, batch, seed)
}

/// [`solver_with`] whose rows recall `within` of a street's betting.
pub(crate) fn solver_recalling(
    within: WithinStreet,
    buckets: Arc<MultiwayBuckets>,
    algorithm: Algorithm,
    batch: usize,
    seed: u64,
) -> SampledSolver {
    let def = game();
    let betting =
        MultiwayBetting::build(&def, BettingAbstraction::for_game(&def), within, usize::MAX)
            .unwrap();
    SampledSolver::new(&def, betting, buckets, algorithm, batch, seed).unwrap()
}

fn bits(v: &[f32]) -> Vec<u32> {
    v.iter().map(|x| x.to_bits()).collect()
}

fn run_on(threads: usize, algorithm: Algorithm, iterations: u64) -> SampledSolver {
    run_with(bucketing(), threads, algorithm, iterations)
}

fn run_with(
    buckets: Arc<MultiwayBuckets>,
    threads: usize,
    algorithm: Algorithm,
    iterations: u64,
) -> SampledSolver {
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(threads)
        .build()
        .unwrap();
    let mut s = solver_with(buckets, algorithm, 12, 5);
    pool.install(|| {
        for _ in 0..iterations {
            s.iterate().unwrap();
        }
    });
    s.settle();
    s
}

#[test]
fn the_same_bits_on_any_number_of_threads() {
    for algorithm in [Algorithm::Linear, Algorithm::CfrPlus] {
        let one = run_on(1, algorithm, 4);
        let three = run_on(3, algorithm, 4);
        assert!(bits(&one.regrets) == bits(&three.regrets), "{algorithm:?}");
        assert!(bits(&one.average) == bits(&three.average), "{algorithm:?}");
        assert!(one.regrets.iter().any(|&r| r != 0.0));
        assert!(one.average.iter().any(|&a| a > 0.0));
        if algorithm == Algorithm::CfrPlus {
            assert!(
                one.regrets.iter().all(|&r| r >= 0.0),
                "regret matching+ clamps"
            );
        }
    }
    // Another seed samples other deals.
    let mut other = solver(Algorithm::Linear, 12, 6);
    other.iterate().unwrap();
    other.settle();
    let mut first = solver(Algorithm::Linear, 12, 5);
    first.iterate().unwrap();
    first.settle();
    assert!(bits(&first.regrets) != bits(&other.regrets));
}

#[test]
fn a_batch_of_part_of_a_deal_walks_it_for_its_first_seats_with_the_same_bits_on_any_threads() {
    // 13 traversals of three seats: four deals walked for every seat, a fifth for seat 0.
    let run = |threads: usize, batch: usize| {
        let pool = rayon::ThreadPoolBuilder::new()
            .num_threads(threads)
            .build()
            .unwrap();
        let mut s = solver(Algorithm::Linear, batch, 5);
        pool.install(|| s.iterate().unwrap());
        s.settle();
        s
    };
    let (one, two) = (run(1, 13), run(2, 13));
    assert!(bits(&one.regrets) == bits(&two.regrets));
    assert!(bits(&one.average) == bits(&two.average));
    let whole = run(1, 12);
    assert!(
        bits(&one.regrets) != bits(&whole.regrets),
        "the 13th traversal counts"
    );
    assert_eq!(chunk_deals(13, 3), 5);
    assert_eq!(chunk_deals(320, 5), 7);
}

#[test]
fn the_table_view_gives_the_same_bits_on_any_number_of_threads_and_other_rows() {
    let table = table_buckets();
    assert_eq!(table.view, MultiwayView::Table);
    let one = run_with(table.clone(), 1, Algorithm::Linear, 4);
    let three = run_with(table, 3, Algorithm::Linear, 4);
    assert!(bits(&one.regrets) == bits(&three.regrets));
    assert!(bits(&one.average) == bits(&three.average));
    // The same deals and betting, the buckets of other views.
    let plain = run_on(1, Algorithm::Linear, 4);
    assert!(bits(&one.regrets) != bits(&plain.regrets));
    // Its name says how it sees the table, so a checkpoint of the other view is refused.
    let (t, p) = (
        Problem::sampled(&game(), &one.buckets, WithinStreet::History),
        Problem::sampled(&game(), &plain.buckets, WithinStreet::History),
    );
    assert!(
        t.card_abstraction.contains("every live opponent"),
        "{}",
        t.card_abstraction
    );
    assert_ne!(t.card_abstraction, p.card_abstraction);
}

#[test]
fn a_resumed_solve_is_bit_identical_to_an_uninterrupted_one() {
    let dir = std::env::temp_dir().join(format!("stud-sampled-resume-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let ckpt = dir.join("s.ckpt");
    let def = game();
    let problem = Problem::sampled(&def, &bucketing(), WithinStreet::History);
    let mut straight = solver(Algorithm::Linear, 9, 3);
    for _ in 0..6 {
        straight.iterate().unwrap();
    }
    straight.settle();
    let mut first = solver(Algorithm::Linear, 9, 3);
    for _ in 0..3 {
        first.iterate().unwrap();
    }
    first.settle();
    session::save(&ckpt, &first, &problem).unwrap();
    let mut resumed = solver(Algorithm::Linear, 9, 3);
    session::resume(&ckpt, &mut resumed, &problem).unwrap();
    assert_eq!(resumed.iterations, 3);
    assert!(
        bits(&resumed.regrets) == bits(&first.regrets),
        "restored regrets"
    );
    assert!(
        bits(&resumed.average) == bits(&first.average),
        "restored averages"
    );
    for _ in 0..3 {
        resumed.iterate().unwrap();
    }
    resumed.settle();
    assert!(bits(&resumed.regrets) == bits(&straight.regrets), "regrets");
    assert!(
        bits(&resumed.average) == bits(&straight.average),
        "averages"
    );
    // Another batch is another solve: refused.
    let mut other = solver(Algorithm::Linear, 12, 3);
    let e = session::resume(&ckpt, &mut other, &problem).unwrap_err();
    assert!(format!("{e:#}").contains("--batch"), "{e:#}");
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn rows_are_contiguous_per_tree_pot_class_and_bucket() {
    let s = solver(Algorithm::Linear, 3, 1);
    let b = &s.betting;
    let mut next = 0;
    for (ti, t) in b.trees.iter().enumerate() {
        assert_eq!(s.rows.base[ti], next);
        let street = t.street as usize;
        let rows = pot_classes(street) as usize * s.rows.buckets[street] as usize;
        next += rows * t.actions as usize;
        let last = b.nodes[t.root as usize..t.end as usize]
            .iter()
            .filter(|n| n.kind == MwKind::Action)
            .map(|n| n.index + n.num_children as u32)
            .max()
            .unwrap();
        assert_eq!(last, t.actions);
        let top = s.rows.slot(
            b,
            ti as u32,
            pot_classes(street) as u8 - 1,
            s.rows.buckets[street] - 1,
            t.actions,
        );
        assert_eq!(top, next);
    }
    assert_eq!(next, s.rows.slots);
    let avg = {
        let mut t = solver(Algorithm::Linear, 3, 1);
        t.iterate().unwrap();
        t.settle();
        t.average_strategy()
    };
    let root = b.nodes[b.trees[0].root as usize];
    let row = &avg[..root.num_children as usize];
    assert!((row.iter().sum::<f32>() - 1.0).abs() < 1e-5, "{row:?}");
}

#[test]
fn sampling_follows_the_probabilities() {
    let sigma = [0.25f32, 0.5, 0.25];
    let at = |u: f32| sample(&sigma, ((u * (1u32 << 24) as f32) as u32) << 8);
    assert_eq!(
        [at(0.0), at(0.2), at(0.3), at(0.7), at(0.8), at(0.999)],
        [0, 0, 1, 1, 2, 2]
    );
}

#[test]
fn trembling_others_train_other_rows_with_the_same_bits_on_any_thread_count_and_resume() {
    let trembled = |threads: usize, iterations: u64| {
        let pool = rayon::ThreadPoolBuilder::new()
            .num_threads(threads)
            .build()
            .unwrap();
        let mut s = solver(Algorithm::Linear, 12, 5);
        s.set_tremble(0.3).unwrap();
        pool.install(|| {
            for _ in 0..iterations {
                s.iterate().unwrap();
            }
        });
        s.settle();
        s
    };
    let one = trembled(1, 6);
    let two = trembled(2, 6);
    assert!(bits(&one.regrets) == bits(&two.regrets));
    assert!(bits(&one.average) == bits(&two.average));
    let plain = run_on(1, Algorithm::Linear, 6);
    assert!(
        bits(&one.regrets) != bits(&plain.regrets),
        "the tremble changes the draws"
    );
    // Others who tremble reach decisions the plain solve's draws never do: more rows touched.
    let touched = |s: &SampledSolver| s.regrets.iter().filter(|&&r| r != 0.0).count();
    assert!(
        touched(&one) > touched(&plain),
        "{} {}",
        touched(&one),
        touched(&plain)
    );
    assert_eq!(
        one.describe(),
        "external-sampling MCCFR, linear, tremble 0.3"
    );
    assert_eq!(plain.describe(), "external-sampling MCCFR, linear");

    // The tremble is in the checkpoint: resumed, the same bits; with another tremble, refused.
    let dir = std::env::temp_dir().join(format!("stud-sampled-tremble-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let ckpt = dir.join("t.ckpt");
    let problem = Problem::sampled(&game(), &bucketing(), WithinStreet::History);
    let half = trembled(1, 3);
    session::save(&ckpt, &half, &problem).unwrap();
    let mut resumed = solver(Algorithm::Linear, 12, 5);
    resumed.set_tremble(0.3).unwrap();
    session::resume(&ckpt, &mut resumed, &problem).unwrap();
    for _ in 0..3 {
        resumed.iterate().unwrap();
    }
    resumed.settle();
    assert!(bits(&resumed.regrets) == bits(&one.regrets));
    assert!(bits(&resumed.average) == bits(&one.average));
    let mut untrembled = solver(Algorithm::Linear, 12, 5);
    let e = session::resume(&ckpt, &mut untrembled, &problem).unwrap_err();
    assert!(format!("{e:#}").contains("tremble"), "{e:#}");
    std::fs::remove_dir_all(&dir).ok();

    for bad in [-0.1, 1.0, f32::NAN] {
        let e = solver(Algorithm::Linear, 3, 1)
            .set_tremble(bad)
            .unwrap_err();
        assert!(e.to_string().contains("below 1"), "{e}");
    }
}

#[test]
fn a_row_no_traversal_reached_plays_the_nearest_reached_pot_class() {
    let mut s = solver(Algorithm::Linear, 3, 1);
    let (b, street) = (&s.betting, 1usize);
    let ti = b
        .trees
        .iter()
        .position(|t| t.street as usize == street)
        .unwrap();
    let t = b.trees[ti];
    let n = b.nodes[t.root as usize..t.end as usize]
        .iter()
        .copied()
        .find(|n| n.kind == MwKind::Action && n.num_children >= 2)
        .unwrap();
    let k = n.num_children as usize;
    let at = |class: u8, bucket: u32| s.rows.slot(b, ti as u32, class, bucket, n.index);
    // Bucket 0: mass in classes 2 (all on the first action) and 5 (all on the last) only.
    let (two, five) = (at(2, 0), at(5, 0));
    let (other, none) = (at(3, 1), at(4, 2));
    s.average[two] = 3.0;
    s.average[five + k - 1] = 0.5;
    // Bucket 1: mass in class 3 only, spread evenly over its first two actions.
    s.average[other] = 1.0;
    s.average[other + 1] = 1.0;
    let avg = s.average_strategy();
    let row = |slot: usize| avg[slot..slot + k].to_vec();
    let first = |p: f32| {
        (0..k)
            .map(|a| if a == 0 { p } else { 0.0 })
            .collect::<Vec<_>>()
    };
    let last = (0..k)
        .map(|a| if a == k - 1 { 1.0 } else { 0.0 })
        .collect::<Vec<_>>();
    let ca = |class: u8| row(at(class, 0));
    assert_eq!(ca(2), first(1.0), "a reached row is its own");
    assert_eq!(ca(5), last);
    assert_eq!(ca(0), first(1.0), "class 0: class 2 is nearest");
    assert_eq!(
        ca(3),
        first(1.0),
        "class 3: 2 and 4 are as near; 4 has none, so 2"
    );
    assert_eq!(
        ca(4),
        last,
        "class 4: 5 and 3 are as near; the larger pot first"
    );
    assert_eq!(ca(7), last);
    let spread = (0..k)
        .map(|a| if a < 2 { 0.5 } else { 0.0 })
        .collect::<Vec<_>>();
    for class in 0..POT_CLASSES {
        assert_eq!(row(at(class, 1)), spread, "bucket 1, class {class}");
    }
    // A bucket no class reached is uniform.
    assert_eq!(row(none), vec![1.0 / k as f32; k]);
}

/// The current strategy is regret matching of a reached row's regrets, and its average where
/// no regret is positive.
#[test]
fn the_current_strategy_matches_regrets_and_falls_back_to_the_average() {
    let mut s = solver(Algorithm::Linear, 24, 3);
    for _ in 0..6 {
        s.iterate().unwrap();
    }
    s.settle();
    let average = s.average_strategy();
    assert_eq!(s.played_strategy(), average, "average is the default");
    s.played = Played::Current;
    let current = s.played_strategy();
    let (mut matched, mut kept) = (0, 0);
    for (ti, t) in s.betting.trees.iter().enumerate() {
        let street = t.street as usize;
        for n in s.betting.nodes[t.root as usize..t.end as usize]
            .iter()
            .filter(|n| n.kind == MwKind::Action)
        {
            let k = n.num_children as usize;
            for class in 0..pot_classes(street) as u8 {
                for bucket in 0..s.rows.buckets[street] {
                    let at = s.rows.slot(&s.betting, ti as u32, class, bucket, n.index);
                    let row = &current[at..at + k];
                    assert!((row.iter().sum::<f32>() - 1.0).abs() < 1e-5, "{row:?}");
                    let (regrets, mass_here) =
                        (&s.regrets[at..at + k], mass(&s.average[at..at + k]));
                    if mass_here > 0.0 && mass(regrets) > 0.0 {
                        let mut want = [0f32; MAX_ACTIONS];
                        regret_match(regrets, &mut want[..k]);
                        assert_eq!(row, &want[..k]);
                        matched += 1;
                    } else if mass_here > 0.0 {
                        assert_eq!(row, &average[at..at + k], "no positive regret");
                        kept += 1;
                    }
                }
            }
        }
    }
    assert!(matched > 0 && kept > 0, "{matched} matched, {kept} kept");
    assert_ne!(current, average);
    assert!(s.describe().ends_with("its current strategy played"));
}

/// Five seats of seven-card stud on a 32-card deck (seven to ace) without burns: 35 cards when
/// all five reach seventh street, so the community card is turned there, and each live seat gets
/// its own when one folded early: a table that runs short, small enough to solve here.
pub(crate) fn short_game() -> GameDef {
    let mut def = GameDef::preset("7stud-5p").unwrap();
    def.deck.ranks = def.deck.ranks.split_off(5);
    def.burn_cards = false;
    def
}

/// A solver of [`short_game`] on its own bucketing, positions recalled.
pub(crate) fn short_solver(batch: usize, seed: u64) -> SampledSolver {
    static B: OnceLock<Arc<MultiwayBuckets>> = OnceLock::new();
    let def = short_game();
    let buckets = B
        .get_or_init(|| {
            let heads_up = def.clone().with_seats(2, def.starting_stacks[0]);
            let b = Bucketing::build(&heads_up, &test_size(), &|_| {}).unwrap();
            Arc::new(MultiwayBuckets::best_opponent(b))
        })
        .clone();
    let within = WithinStreet::Position;
    let betting =
        MultiwayBetting::build(&def, BettingAbstraction::for_game(&def), within, usize::MAX)
            .unwrap();
    SampledSolver::new(&def, betting, buckets, Algorithm::Linear, batch, seed).unwrap()
}

/// A table whose deck runs short solves to the same bits on any number of threads, and a
/// resumed solve to the uninterrupted one's: the community card is dealt per path, from the
/// deal's own draws.
#[test]
fn a_table_that_runs_short_gives_the_same_bits_on_any_threads_and_resumed() {
    assert!(MultiwayFacts::new(&short_game()).unwrap().runs_short());
    let run = |threads: usize, iterations: u64| {
        let pool = rayon::ThreadPoolBuilder::new()
            .num_threads(threads)
            .build()
            .unwrap();
        pool.install(|| {
            let mut s = short_solver(40, 5);
            for _ in 0..iterations {
                s.iterate().unwrap();
            }
            s.settle();
            s
        })
    };
    let one = run(1, 4);
    let two = run(2, 4);
    assert_eq!(bits(&one.regrets), bits(&two.regrets));
    assert_eq!(bits(&one.average), bits(&two.average));
    assert!(one.average.iter().any(|&a| a != 0.0));
    // Resumed: the arrays of two iterations carried into a fresh solver, two more run.
    let mut resumed = short_solver(40, 5);
    let half = run(2, 2);
    resumed.regrets.copy_from_slice(&half.regrets);
    resumed.average.copy_from_slice(&half.average);
    resumed.iterations = 2;
    for _ in 0..2 {
        resumed.iterate().unwrap();
    }
    resumed.settle();
    assert_eq!(bits(&resumed.regrets), bits(&one.regrets));
    assert_eq!(bits(&resumed.average), bits(&one.average));
}

/// The discounts are lazy: a solver settled after every batch and one settled once at the end
/// hold the same bits, and a settled solver owes nothing.
#[test]
fn settling_at_every_batch_or_once_gives_the_same_bits() {
    for algorithm in [Algorithm::Linear, Algorithm::DCFR] {
        let mut each = solver(algorithm, 12, 4);
        let mut once = solver(algorithm, 12, 4);
        for _ in 0..6 {
            each.iterate().unwrap();
            each.settle();
            assert!(each.settled());
            once.iterate().unwrap();
        }
        assert!(!once.settled(), "{algorithm:?}");
        once.settle();
        assert!(bits(&each.regrets) == bits(&once.regrets), "{algorithm:?}");
        assert!(bits(&each.average) == bits(&once.average), "{algorithm:?}");
    }
}

/// The regrets and averages of short solves (four schedules, both views, trembling others),
/// hashed bit for bit: how a batch is walked, bucketed and added up may get faster, not move a
/// bit (a checkpoint resumed by another build would go on differently, and a file solved
/// again would differ). The hashes are those of the code of 2026-12-05 (8ca5d7c).
#[test]
fn short_solves_give_the_bits_of_the_code_they_were_pinned_on() {
    let mut got = Vec::new();
    for (buckets, algorithm, tremble) in [
        (bucketing(), Algorithm::Linear, 0.0),
        (table_buckets(), Algorithm::Linear, 0.1),
        (table_buckets(), Algorithm::CfrPlus, 0.0),
        (table_buckets(), Algorithm::DCFR, 0.0),
        (table_buckets(), Algorithm::Cfr, 0.0),
    ] {
        let mut s = solver_with(buckets, algorithm, 12, 5);
        s.set_tremble(tremble).unwrap();
        for _ in 0..5 {
            s.iterate().unwrap();
        }
        s.settle();
        let mut h = abstraction::fnv::Fnv::new();
        for x in s.regrets.iter().chain(&s.average) {
            h.update(&x.to_bits().to_le_bytes());
        }
        got.push(h.finish());
    }
    let want: [u64; 5] = [
        0x760e_1c0f_8088_6c09,
        0xb358_2f3e_9651_843d,
        0x1c13_ad28_7740_e6cd,
        0xece1_c3d9_2d58_b20a,
        0xb604_1a24_2a1a_c8df,
    ];
    assert_eq!(got, want);
}

/// The fast draws' bucketings ([`Draws::Fast`]): a solve of the table view gives the same bits
/// on any number of threads, other buckets than the default draws', and a card abstraction of
/// another name (a checkpoint of one is refused by the other).
#[test]
fn fast_draws_give_the_same_bits_on_any_number_of_threads() {
    use abstraction::bucketing::Draws;
    let def = GameDef::stud(Variant::SevenStud);
    let mut size = test_size();
    size.features.draws = Draws::Fast;
    size.name = "tiny-fast".into();
    let heads_up = Bucketing::build(&def, &size, &|_| {}).unwrap();
    let by_live = (2..=3)
        .map(|live| {
            let table = MultiwayBuckets::table_of(3, live);
            Bucketing::build_table(&def, table, &size, &|_| {}).unwrap()
        })
        .collect();
    let fast = Arc::new(MultiwayBuckets::table(heads_up, by_live, 3).unwrap());
    let one = run_with(fast.clone(), 1, Algorithm::Linear, 4);
    let three = run_with(fast, 3, Algorithm::Linear, 4);
    assert!(bits(&one.regrets) == bits(&three.regrets));
    assert!(bits(&one.average) == bits(&three.average));
    let chacha = run_with(table_buckets(), 1, Algorithm::Linear, 4);
    assert!(bits(&one.regrets) != bits(&chacha.regrets));
    let name = |s: &SampledSolver| {
        Problem::sampled(&game(), &s.buckets, WithinStreet::History).card_abstraction
    };
    assert_ne!(name(&one), name(&chacha));
}
