//! The ranks of an MPI job (`mpirun`, `srun`) as the [`Exchange`] of a split deal-sampled
//! solve: Open MPI through the `mpi` crate (rsmpi), built with the `mpi` feature only
//! (docs/distributed.md).
//!
//! Only the thread that initialized MPI calls it (`MPI_THREAD_FUNNELED`): the rayon workers
//! never do. MPI's default error handler aborts the whole job on a failed collective, and
//! `mpirun` aborts it when a rank dies, so a collective here either completes or never
//! returns.

use crate::deal_cfr::split::Exchange;
use anyhow::{bail, Context, Result};
use mpi::datatype::PartitionMut;
use mpi::environment::Universe;
use mpi::topology::SimpleCommunicator;
use mpi::traits::*;
use mpi::Count;

/// Whether this process was started by an MPI launcher (`mpirun`/`mpiexec` of Open MPI, or
/// Slurm's `srun` with PMI or PMIx), so that `stud solve` joins the job's other ranks.
pub fn launched() -> bool {
    ["OMPI_COMM_WORLD_SIZE", "PMIX_RANK", "PMI_RANK", "PMI_SIZE"]
        .iter()
        .any(|v| std::env::var_os(v).is_some())
}

/// This process's place in the job: the world communicator.
pub struct Mpi {
    world: SimpleCommunicator,
    rank: usize,
    ranks: usize,
    // Dropped last: finalizes MPI.
    _universe: Universe,
}

impl Mpi {
    /// Initializes MPI (once per process).
    pub fn init() -> Result<Mpi> {
        let (universe, _) = mpi::initialize_with_threading(mpi::Threading::Funneled)
            .context("initializing MPI (it was initialized already)")?;
        let world = universe.world();
        let (rank, ranks) = (world.rank() as usize, world.size() as usize);
        Ok(Mpi {
            world,
            rank,
            ranks,
            _universe: universe,
        })
    }

    /// Stops every rank of the job (`MPI_Abort`): a rank that cannot go on must not leave the
    /// others waiting in a collective.
    pub fn abort(&self, code: i32) -> ! {
        self.world.abort(code)
    }
}

/// MPI's counts and displacements of `counts` elements, or an error past its `int` counts.
fn partition(counts: &[usize]) -> Result<(Vec<Count>, Vec<Count>)> {
    let mut displs = Vec::with_capacity(counts.len());
    let mut at: usize = 0;
    for _ in counts {
        displs.push(at);
        at += counts[displs.len() - 1];
    }
    let int = |x: usize| {
        Count::try_from(x).with_context(|| {
            format!(
                "{x} elements in one exchange: past MPI's limit of {}",
                Count::MAX
            )
        })
    };
    Ok((
        counts.iter().map(|&c| int(c)).collect::<Result<_>>()?,
        displs.into_iter().map(int).collect::<Result<_>>()?,
    ))
}

impl Exchange for Mpi {
    fn rank(&self) -> usize {
        self.rank
    }

    fn ranks(&self) -> usize {
        self.ranks
    }

    fn all_gather_bytes(&mut self, mine: &[u8], counts: &[usize], all: &mut [u8]) -> Result<()> {
        let (c, d) = partition(counts)?;
        let mut into = PartitionMut::new(all, &c[..], &d[..]);
        self.world.all_gather_varcount_into(mine, &mut into);
        Ok(())
    }

    fn all_gather_f32(&mut self, mine: &[f32], counts: &[usize], all: &mut [f32]) -> Result<()> {
        let (c, d) = partition(counts)?;
        let mut into = PartitionMut::new(all, &c[..], &d[..]);
        self.world.all_gather_varcount_into(mine, &mut into);
        Ok(())
    }

    fn gather_f32(&mut self, mine: &[f32], counts: &[usize], all: &mut [f32]) -> Result<()> {
        let (c, d) = partition(counts)?;
        let root = self.world.process_at_rank(0);
        if self.rank == 0 {
            if all.len() != counts.iter().sum::<usize>() {
                bail!(
                    "gathering {} values into {}",
                    counts.iter().sum::<usize>(),
                    all.len()
                );
            }
            let mut into = PartitionMut::new(all, &c[..], &d[..]);
            root.gather_varcount_into_root(mine, &mut into);
        } else {
            root.gather_varcount_into(mine);
        }
        Ok(())
    }

    fn decide(&mut self, value: bool) -> Result<bool> {
        let mut v = value as u8;
        self.world.process_at_rank(0).broadcast_into(&mut v);
        Ok(v == 1)
    }

    fn all_u64(&mut self, value: u64) -> Result<Vec<u64>> {
        let mut all = vec![0u64; self.ranks];
        self.world.all_gather_into(&value, &mut all[..]);
        Ok(all)
    }

    fn broadcast_f32(&mut self, values: &mut [f32]) -> Result<()> {
        // In pieces that MPI's `int` counts can hold.
        for piece in values.chunks_mut(1 << 28) {
            self.world.process_at_rank(0).broadcast_into(piece);
        }
        Ok(())
    }
}
