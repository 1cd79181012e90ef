//! Memory as a cost: what this process may still allocate, and the estimate that every solve
//! back end of [`crate::session`] (the walked public tree, the deal-sampled betting tree and
//! its ranks, the multiway history tree) prints and checks before it allocates its big arrays.

use anyhow::{bail, Result};
use serde::Serialize;

/// `bytes` in MiB, as every figure of memory is printed.
pub fn mib(bytes: usize) -> f64 {
    bytes as f64 / (1 << 20) as f64
}

/// The bytes this process may still allocate, if anything says: the least of the system's
/// `MemAvailable`, the room left under the address-space limit (`ulimit -v`: the limit minus
/// the address space already mapped, `VmSize`), and the room left under the memory limit of a
/// control group (v2 `memory.max`, v1 `memory.limit_in_bytes`, at `/sys/fs/cgroup`).
///
/// `MemAvailable` alone is not enough: under `ulimit -v 4194304` on a 23 GiB machine it offered
/// 23 GiB and a solve aborted when an allocation failed at 2.8 GB.
pub fn available_memory() -> Option<usize> {
    [meminfo_available(), address_space_room(), cgroup_room()]
        .into_iter()
        .flatten()
        .min()
}

/// `MemAvailable` of `/proc/meminfo`.
fn meminfo_available() -> Option<usize> {
    let text = std::fs::read_to_string("/proc/meminfo").ok()?;
    kb_field(&text, "MemAvailable")
}

/// The address-space limit (soft, `Max address space` of `/proc/self/limits`) minus `VmSize`;
/// `None` when unlimited.
fn address_space_room() -> Option<usize> {
    let limits = std::fs::read_to_string("/proc/self/limits").ok()?;
    let limit = address_space_limit(&limits)?;
    Some(limit.saturating_sub(status_bytes("VmSize")?))
}

/// The soft limit of `Max address space` in the text of `/proc/self/limits`, if not unlimited.
fn address_space_limit(limits: &str) -> Option<usize> {
    let rest = limits
        .lines()
        .find_map(|l| l.strip_prefix("Max address space"))?;
    rest.split_whitespace().next()?.parse().ok()
}

/// The room under the control group's memory limit, where one is set.
fn cgroup_room() -> Option<usize> {
    let read = |p: &str| std::fs::read_to_string(p).ok();
    let (limit, usage) = match read("/sys/fs/cgroup/memory.max") {
        Some(max) => (max, read("/sys/fs/cgroup/memory.current")?),
        None => (
            read("/sys/fs/cgroup/memory/memory.limit_in_bytes")?,
            read("/sys/fs/cgroup/memory/memory.usage_in_bytes")?,
        ),
    };
    // v2 says `max` when unlimited; v1 a number near 2^63.
    let limit: usize = limit.trim().parse().ok()?;
    let usage: usize = usage.trim().parse().ok()?;
    (limit < usize::MAX / 4).then(|| limit.saturating_sub(usage))
}

/// A size field of `/proc/self/status` (`VmRSS`; `VmHWM`: the peak resident size; `VmSize`:
/// the address space) in bytes, where the system has it.
pub fn status_bytes(field: &str) -> Option<usize> {
    kb_field(&std::fs::read_to_string("/proc/self/status").ok()?, field)
}

/// This process's CPU time (user and system, every thread) from `/proc/self/stat`, in seconds:
/// on a shared machine the wall clock also counts other jobs' time. Linux's clock ticks are
/// 100 a second to user space (`USER_HZ`).
pub fn cpu_seconds() -> anyhow::Result<f64> {
    use anyhow::Context;
    let stat = std::fs::read_to_string("/proc/self/stat")?;
    // The fields after the command name (which may hold spaces) start after its ')'.
    let rest = stat.rsplit_once(')').context("/proc/self/stat")?.1;
    // utime and stime: the 14th and 15th fields, the 12th and 13th after the name.
    let mut f = rest.split_whitespace().skip(11);
    let mut next = || f.next().context("/proc/self/stat: too few fields");
    let ticks: f64 = next()?.parse::<f64>()? + next()?.parse::<f64>()?;
    Ok(ticks / 100.0)
}

/// The value of a `Field:   123 kB` line, in bytes.
fn kb_field(text: &str, field: &str) -> Option<usize> {
    let line = text.lines().find(|l| l.split(':').next() == Some(field))?;
    let kb: usize = line.split_whitespace().nth(1)?.parse().ok()?;
    Some(kb * 1024)
}

/// What a solve will hold in memory, estimated before its big arrays are allocated. Both solve
/// back ends fill one in, print it ([`Estimate::describe`]) and refuse a solve that does not fit
/// ([`Estimate::check_fits`]); their final JSON reports it beside the measured peak (`VmHWM`).
#[derive(Clone, Copy, Debug, Serialize)]
pub struct Estimate {
    /// Information sets (action node × bucket).
    pub infosets: usize,
    /// Infoset-actions (slots).
    pub slots: usize,
    /// Bytes per slot of the solver's regrets and averages.
    pub bytes_per_slot: usize,
    /// What the process held before the solve's own allocations (code, the bucketing),
    /// measured (`VmRSS`).
    pub resident_bytes: usize,
    /// The card abstraction in memory (part of `resident_bytes`, shown apart).
    pub bucketing_bytes: usize,
    /// The tree, where it is built after `resident_bytes` is measured (the walked public tree:
    /// its arrays as allocated); 0 where the tree is already resident when `resident_bytes` is
    /// measured (the heads-up betting tree, and the multiway betting, which is built first:
    /// its building leaves memory in the allocator that counting its arrays would miss).
    pub tree_bytes: usize,
    /// Regrets and averages: `slots × bytes_per_slot`.
    pub solver_bytes: usize,
    /// The solver's scratch (per-task vectors; for the deal-sampled solver, the batch's deal
    /// facts too).
    pub scratch_bytes: usize,
    /// What writing the strategy file allocates (quantized rows, node and edge records).
    pub write_bytes: usize,
}

impl Estimate {
    /// The expected peak: what was resident, plus the tree, the solver, its scratch and the file
    /// writing.
    pub fn peak(&self) -> usize {
        self.resident_bytes + self.more()
    }

    /// What the solve allocates beyond what was resident.
    fn more(&self) -> usize {
        self.tree_bytes + self.solver_bytes + self.scratch_bytes + self.write_bytes
    }

    /// Refuses, with the figures, a solve whose allocations exceed `available` bytes (what was
    /// free before them, as [`available_memory`] says; `None`: unknown, accepted). `advice`
    /// says how to make the solve smaller.
    pub fn check_fits(&self, available: Option<usize>, advice: &str) -> Result<()> {
        let need = self.more();
        match available {
            Some(avail) if need > avail => {
                let mib = |b: usize| b >> 20;
                bail!(
                    "the solve needs about {} MiB more ({} infoset-actions × {} bytes, plus \
                     tree, scratch and file writing) but only {} MiB are available: {advice}",
                    mib(need),
                    self.slots,
                    self.bytes_per_slot,
                    mib(avail)
                )
            }
            _ => Ok(()),
        }
    }

    /// The estimate as printed before a solve: each part and the expected peak, in MiB.
    pub fn describe(&self) -> String {
        let tree = if self.tree_bytes > 0 {
            format!("{:.1} MiB tree + ", mib(self.tree_bytes))
        } else {
            String::new()
        };
        let bucketing = if self.bucketing_bytes > 0 {
            format!(
                " (the bucketing {:.1} MiB of it)",
                mib(self.bucketing_bytes)
            )
        } else {
            String::new()
        };
        format!(
            "memory: {tree}{:.1} MiB regrets and averages ({} bytes each) + {:.1} MiB scratch + \
             {:.1} MiB to write the file + {:.1} MiB resident before{bucketing} = {:.1} MiB \
             expected peak",
            mib(self.solver_bytes),
            self.bytes_per_slot,
            mib(self.scratch_bytes),
            mib(self.write_bytes),
            mib(self.resident_bytes),
            mib(self.peak())
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_solve_that_does_not_fit_is_refused_with_its_figures() {
        let e = Estimate {
            infosets: 10,
            slots: 1 << 30,
            bytes_per_slot: 8,
            resident_bytes: 100 << 20,
            bucketing_bytes: 0,
            tree_bytes: 0,
            solver_bytes: 8 << 30,
            scratch_bytes: 1 << 20,
            write_bytes: 1 << 30,
        };
        assert_eq!(e.peak(), (100 << 20) + (8 << 30) + (1 << 20) + (1 << 30));
        let msg = e
            .check_fits(Some(4 << 30), "smaller")
            .unwrap_err()
            .to_string();
        assert!(
            msg.contains("9217 MiB more") && msg.contains("only 4096 MiB are available: smaller"),
            "{msg}"
        );
        e.check_fits(Some(10 << 30), "").unwrap();
        e.check_fits(None, "").unwrap();
        // The tree built after the resident size was measured counts as more.
        let walked = Estimate {
            tree_bytes: 2 << 30,
            ..e
        };
        walked.check_fits(Some(10 << 30), "").unwrap_err();
        assert!(
            walked.describe().contains("2048.0 MiB tree"),
            "{}",
            walked.describe()
        );
    }

    #[test]
    fn the_address_space_limit_is_read_from_proc_self_limits() {
        let text = "Limit                     Soft Limit           Hard Limit           Units     \n\
                    Max address space         4294967296           unlimited            bytes     \n";
        assert_eq!(address_space_limit(text), Some(4 << 30));
        let unlimited = text.replace("4294967296", "unlimited");
        assert_eq!(address_space_limit(&unlimited), None);
        assert_eq!(kb_field("VmSize:\t  2048 kB\n", "VmSize"), Some(2 << 20));
    }
}
