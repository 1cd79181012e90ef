//! `stud solve` under `mpirun -np R` (R > 1; the `mpi` feature): a heads-up game's
//! deal-sampled solve split over the job's ranks ([`solver::solve::split`]), or a real game's
//! sampled multiway solve whose traversals the ranks share ([`solver::solve::sampled_ranks`]);
//! either way the strategy file is byte-identical to the single process's
//! (docs/distributed.md). A rank that fails says so and aborts the whole job (`MPI_Abort`):
//! the others must not wait for it.

use super::{print, request, Args};
use crate::cli::solve_watch::Console;
use abstraction::rules::GameDef;
use anyhow::{bail, Result};
use solver::deal_cfr::split::Exchange;
use solver::mpi::Mpi;
use solver::solve::sampled_ranks::drive_sampled_ranks;
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
    let lead = mpi.rank() == 0;
    let json = args.output.json;
    let mut console = Console::new(json || !lead, json && lead);
    let report = match &request.settings {
        Settings::Sampled(s) => {
            args.pool.start_global()?;
            drive_sampled_ranks(&request, s, &mut *mpi, &mut console)?
        }
        Settings::Deal(s) => {
            args.pool.start_global()?;
            drive_split(&request, s, &mut *mpi, &mut console)?
        }
        _ => bail!(
            "{} ranks: only the deal-sampled solver (heads-up real games) and the sampled \
             multiway one (real games at three or more seats) run over MPI ranks; run the \
             walked and exact multiway solvers without mpirun",
            mpi.ranks()
        ),
    };
    if lead {
        print(&report, json);
    }
    report.finished()
}
