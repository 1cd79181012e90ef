//! `stud solve` of a heads-up game with the deal-sampled solver under `mpirun -np R` (R > 1;
//! the `mpi` feature): one solve split over the job's ranks ([`solver::solve::split`]), whose
//! strategy file is byte-identical to the single process's (docs/distributed.md). A rank that
//! fails says so and aborts the whole job (`MPI_Abort`): the others must not wait for it.

use super::{print, request, Args};
use crate::cli::solve_watch::Console;
use abstraction::rules::GameDef;
use anyhow::{bail, Result};
use solver::deal_cfr::split::Exchange;
use solver::mpi::Mpi;
use solver::solve::split::drive_split;
use solver::solve::Settings;

/// Runs this rank's share of the solve; on an error, says which rank failed and why, and
/// aborts the job.
pub fn run(args: &Args, def: GameDef, mut mpi: Mpi) -> Result<()> {
    let (rank, ranks) = (mpi.rank(), mpi.ranks());
    match solve(args, def, &mut mpi) {
        Ok(()) => Ok(()),
        Err(e) => {
            eprintln!("stud solve: rank {rank} of {ranks} failed, stopping every rank: {e:#}");
            mpi.abort(1)
        }
    }
}

fn solve(args: &Args, def: GameDef, mpi: &mut Mpi) -> Result<()> {
    let request = request(args, def)?;
    let Settings::Deal(settings) = &request.settings else {
        bail!(
            "{} ranks: only the deal-sampled solver is split over MPI ranks (--solver deal, \
             heads-up); run the walked and multiway solvers without mpirun",
            mpi.ranks()
        );
    };
    args.pool.start_global()?;
    let lead = mpi.rank() == 0;
    let json = args.output.json;
    let mut console = Console::new(json || !lead, json && lead);
    let report = drive_split(&request, settings, &mut *mpi, &mut console)?;
    if lead {
        print(&report, json);
    }
    report.finished()
}
