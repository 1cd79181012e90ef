//! A sampled multiway solve over ranks ([`crate::multiway::sampled::ranks`]) as a session:
//! every rank holds the whole solver and the same bits after each batch, so the checkpoint is
//! the single process's, written by rank 0 alone (its bytes and name, `OUT.ckpt`), and a
//! resume is rank 0's read of it broadcast to the others: any number of ranks (one process
//! too) resumes any of them, and no rank needs a file system shared with rank 0.

use super::Session;
use crate::checkpoint::Problem;
use crate::deal_cfr::split::Exchange;
use crate::multiway::sampled::ranks::Updates;
use crate::multiway::sampled::SampledSolver;
use crate::session::sampled::Sampled;
use anyhow::Result;
use std::path::Path;

/// A rank's whole solver, the exchange it runs over and its buffers: a [`Session`].
pub struct SampledRanks<X: Exchange> {
    /// The rank's solver (every rank's holds the same bits).
    pub solver: SampledSolver,
    /// The other ranks.
    pub exchange: X,
    /// The batch's updates as exchanged, and the traffic so far.
    pub updates: Updates,
}

impl<X: Exchange> Session for SampledRanks<X> {
    type Elem = f32;
    type Kind = Sampled;

    fn iterate(&mut self) -> Result<()> {
        self.solver
            .iterate_ranks(&mut self.exchange, &mut self.updates)
    }

    fn iterations(&self) -> u64 {
        self.solver.iterations
    }

    fn kind(&self) -> Sampled {
        Session::kind(&self.solver)
    }

    fn arrays(&self) -> [&[f32]; 2] {
        Session::arrays(&self.solver)
    }

    fn settle(&mut self) {
        self.solver.settle()
    }

    fn restore(&mut self) -> ([&mut [f32]; 2], &mut u64) {
        Session::restore(&mut self.solver)
    }

    fn agree(&mut self, mine: bool) -> Result<bool> {
        self.exchange.decide(mine)
    }

    fn writes_checkpoint(&self) -> bool {
        self.exchange.rank() == 0
    }
}

/// Rank 0 restores the checkpoint `ckpt` (checked as one process checks it) and sends its
/// arrays and iterations to every rank. A failed read is rank 0's error: its caller stops the
/// job, the others waiting in the broadcast.
pub fn resume<X: Exchange>(
    ckpt: &Path,
    session: &mut SampledRanks<X>,
    problem: &Problem,
) -> Result<()> {
    if session.exchange.rank() == 0 {
        super::resume(ckpt, session, problem)?;
    }
    let iterations = session.exchange.all_u64(session.solver.iterations)?[0];
    let s = &mut session.solver;
    s.iterations = iterations;
    session.exchange.broadcast_f32(&mut s.regrets)?;
    session.exchange.broadcast_f32(&mut s.average)?;
    Ok(())
}
