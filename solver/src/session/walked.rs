//! A walked solve: the CFR family on the public tree of a walkable game. The tree is built
//! within the memory the machine has, then the solver's arrays are estimated
//! ([`crate::memory::Estimate`], the same estimate and refusal as the real games') before they
//! are allocated; its checkpoints hold `f64` regrets and averages under a [`Walked`] header.

use super::Session;
use crate::cfr::{Algorithm, Sampling, Solver, BYTES_PER_SLOT};
use crate::checkpoint;
use crate::checkpoint::Problem;
use crate::memory::{status_bytes, Estimate};
use crate::strategy_file::{self, TreeKind, PUBLIC_WIDTH};
use abstraction::betting_abstraction::BettingAbstraction;
use abstraction::bucketing::{BucketError, Bucketing};
use abstraction::card_abstraction::{CardAbstraction, Lossless, SeatCards};
use abstraction::rules::GameDef;
use abstraction::tree::{Budget, Tree};
use anyhow::Result;
use serde::{Deserialize, Serialize};

/// How to make a walked solve smaller, for the refusals.
pub const ADVICE: &str = "use a smaller game or a coarser card abstraction (--abstraction)";

/// The card abstraction of a solve.
pub enum Cards {
    /// Every private hand apart.
    Lossless,
    /// The stud bucketing.
    Buckets(Box<Bucketing>),
}

impl Cards {
    /// Whether this abstraction tells every hand apart (then the abstract game is the real one).
    pub fn is_lossless(&self) -> bool {
        matches!(self, Cards::Lossless)
    }
}

impl CardAbstraction for Cards {
    fn name(&self) -> String {
        match self {
            Cards::Lossless => Lossless.name(),
            Cards::Buckets(b) => b.name(),
        }
    }

    fn num_buckets(&self, street: usize, hands: usize) -> u32 {
        match self {
            Cards::Lossless => Lossless.num_buckets(street, hands),
            Cards::Buckets(b) => b.num_buckets(street, hands),
        }
    }

    fn bucket(&self, cards: &SeatCards) -> Result<u32, BucketError> {
        match self {
            Cards::Lossless => Lossless.bucket(cards),
            Cards::Buckets(b) => CardAbstraction::bucket(b.as_ref(), cards),
        }
    }
}

/// The abstractions a solve uses: a card abstraction and the game's own raise cap.
pub struct Abstractions {
    /// The card abstraction.
    pub cards: Cards,
    /// The betting abstraction.
    pub betting: BettingAbstraction,
}

impl Abstractions {
    /// The lossless abstractions of `def`.
    pub fn for_game(def: &GameDef) -> Abstractions {
        Abstractions::with_cards(def, Cards::Lossless)
    }

    /// The card abstraction `cards` with the game's raise cap.
    pub fn with_cards(def: &GameDef, cards: Cards) -> Abstractions {
        Abstractions {
            cards,
            betting: BettingAbstraction::for_game(def),
        }
    }

    /// The card abstraction's name.
    pub fn card_name(&self) -> String {
        self.cards.name()
    }
}

/// Builds the tree of `def` under `abs` within `memory` bytes (what is free before it, as
/// [`crate::memory::available_memory`] says; `None`: unbounded), counting the solver's regrets
/// and averages as it grows, and estimates what a solver on it will hold. Nothing big is
/// allocated yet: the caller prints the estimate, checks it ([`Estimate::check_fits`] with
/// `memory` and [`ADVICE`]), then allocates the solver.
pub fn build_tree(
    def: &GameDef,
    abs: &Abstractions,
    memory: Option<usize>,
) -> Result<(Tree, Estimate)> {
    let resident = status_bytes("VmRSS").unwrap_or(0);
    let budget = Budget {
        nodes: usize::MAX,
        bytes: memory.unwrap_or(usize::MAX),
        per_slot: BYTES_PER_SLOT,
    };
    let tree = Tree::build(def, &abs.cards, abs.betting, budget)?;
    let est = estimate(&tree, &abs.cards, resident);
    Ok((tree, est))
}

/// What a solve on `tree` holds beyond the `resident` bytes measured before the tree was built:
/// the tree, the regrets and averages, the scratch (the best response's is a few vectors over
/// the hands: left out), and what writing the strategy file allocates.
pub fn estimate(tree: &Tree, cards: &Cards, resident: usize) -> Estimate {
    Estimate {
        infosets: tree.num_infosets,
        slots: tree.num_slots,
        bytes_per_slot: BYTES_PER_SLOT,
        resident_bytes: resident,
        bucketing_bytes: match cards {
            Cards::Lossless => 0,
            Cards::Buckets(b) => b.encode().len(),
        },
        tree_bytes: tree.bytes(),
        solver_bytes: tree.num_slots * BYTES_PER_SLOT,
        scratch_bytes: crate::cfr::scratch_bytes::<f64>(tree),
        write_bytes: strategy_file::write_bytes(
            TreeKind::Public,
            tree.nodes.len(),
            tree.num_slots,
            tree.num_infosets,
            PUBLIC_WIDTH,
        ),
    }
}

/// Builds the tree and estimates the solver ([`build_tree`]), refuses a solve that would not
/// fit in `memory` bytes, then allocates the solver.
pub fn new_solver(
    def: &GameDef,
    abs: &Abstractions,
    alg: Algorithm,
    memory: Option<usize>,
) -> Result<Solver> {
    let (tree, est) = build_tree(def, abs, memory)?;
    est.check_fits(memory, ADVICE)?;
    Ok(Solver::new(tree, alg))
}

impl Problem {
    /// The problem of a walked solve of `def` under `abs`.
    pub fn walked(def: &GameDef, abs: &Abstractions) -> Problem {
        Problem {
            game: def.clone(),
            card_abstraction: abs.card_name(),
            betting: abs.betting,
            lock: None,
        }
    }
}

/// What a walked solve's checkpoint (magic `STUDCK2W`, two sections of `f64`) records of its
/// solver beside the problem. The field order is the file format: do not reorder.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Walked {
    /// The algorithm.
    pub algorithm: Algorithm,
    /// The public chance sampling, if any (the draws depend on it).
    pub sampling: Option<Sampling>,
}

impl checkpoint::Kind for Walked {
    const MAGIC: &'static [u8; 8] = b"STUDCK2W";
    const WHAT: &'static str = "checkpoint";
    const RESUME_WITH: &'static str = "--game and --algorithm";

    fn mismatch(&self, saved: &Self) -> Option<String> {
        if saved.algorithm != self.algorithm {
            Some("algorithm".into())
        } else if saved.sampling != self.sampling {
            Some("chance sampling (--sample, --seed)".into())
        } else {
            None
        }
    }
}

impl Session for Solver {
    type Elem = f64;
    type Kind = Walked;

    fn iterate(&mut self) -> Result<()> {
        Solver::iterate(self);
        Ok(())
    }

    fn iterations(&self) -> u64 {
        self.iterations
    }

    fn kind(&self) -> Walked {
        Walked {
            algorithm: self.algorithm,
            sampling: self.sampling(),
        }
    }

    fn arrays(&self) -> [&[f64]; 2] {
        [&self.regrets, &self.average]
    }

    fn restore(&mut self) -> ([&mut [f64]; 2], &mut u64) {
        ([&mut self.regrets, &mut self.average], &mut self.iterations)
    }
}
