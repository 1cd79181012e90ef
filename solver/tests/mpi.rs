//! `stud solve` split over MPI ranks (the `mpi` feature; CI builds and runs it): on 2 and 3
//! ranks of one machine (`mpirun --oversubscribe`) the strategy file is byte-identical to the
//! single process's, heads-up (the deal-sampled solve split) and three-handed (the sampled
//! multiway solve, its traversals shared); a job whose rank is killed stops with an error
//! naming it, and `--resume` from the checkpoints ends byte-identical too. Without `mpirun` these tests fail: the
//! feature is on, so MPI must be there.
#![cfg(feature = "mpi")]

#[path = "it/common.rs"]
mod common;

use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};
use std::time::{Duration, Instant};

/// A fresh folder for one test's files.
fn dir(name: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!("stud-mpi-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(&d).unwrap();
    d
}

/// The solve every test runs: 7stud with 4 buckets a street (built in a few seconds), small
/// batches.
fn solve_args(d: &Path, out: &str, iterations: u32) -> Vec<String> {
    [
        "solve",
        "--game",
        "7stud",
        "--abstraction",
        "4",
        "--batch",
        "48",
        "--seed",
        "5",
        "--threads",
        "1",
        "--abstraction-dir",
    ]
    .iter()
    .map(|s| s.to_string())
    .chain([
        d.join("abst").display().to_string(),
        "--iterations".into(),
        iterations.to_string(),
        "--out".into(),
        d.join(out).display().to_string(),
    ])
    .collect()
}

/// `mpirun` of `stud` on `ranks` ranks of this machine (as root too, as CI runs).
fn mpirun(ranks: usize, args: &[String]) -> Command {
    let mut c = Command::new("mpirun");
    c.args(["--oversubscribe", "-np", &ranks.to_string()])
        .arg(env!("CARGO_BIN_EXE_stud"))
        .args(args)
        .env("OMPI_ALLOW_RUN_AS_ROOT", "1")
        .env("OMPI_ALLOW_RUN_AS_ROOT_CONFIRM", "1")
        .stdin(Stdio::null());
    c
}

fn run(mut c: Command) -> Output {
    c.output()
        .expect("mpirun runs (the mpi feature needs Open MPI: apt-get install openmpi-bin)")
}

fn single(d: &Path, out: &str, iterations: u32) -> Vec<u8> {
    let args = solve_args(d, out, iterations);
    let args: Vec<&str> = args.iter().map(|s| s.as_str()).collect();
    common::ok(&common::stud(&args, ""));
    std::fs::read(d.join(out)).unwrap()
}

fn ok(out: &Output) {
    assert!(
        out.status.success(),
        "{}{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
}

#[test]
fn two_and_three_ranks_write_the_single_process_bytes() {
    let d = dir("bytes");
    let want = single(&d, "one.strat", 12);
    for ranks in [2, 3] {
        let name = format!("r{ranks}.strat");
        let out = run(mpirun(ranks, &solve_args(&d, &name, 12)));
        ok(&out);
        let log = String::from_utf8_lossy(&out.stderr);
        assert!(log.contains(&format!("split over {ranks} ranks")), "{log}");
        let got = std::fs::read(d.join(&name)).unwrap();
        assert!(got == want, "{ranks} ranks: the strategy file differs");
    }
    let _ = std::fs::remove_dir_all(&d);
}

/// The processes whose parent is `parent` and whose environment says MPI rank `rank`.
fn rank_pid(parent: u32, rank: usize) -> Option<u32> {
    let want = format!("OMPI_COMM_WORLD_RANK={rank}");
    for e in std::fs::read_dir("/proc").ok()?.flatten() {
        let Ok(pid) = e.file_name().to_string_lossy().parse::<u32>() else {
            continue;
        };
        let Ok(stat) = std::fs::read_to_string(format!("/proc/{pid}/stat")) else {
            continue;
        };
        // The parent is the second field after the command name's closing parenthesis.
        let ppid = stat
            .rsplit_once(')')
            .and_then(|(_, rest)| rest.split_whitespace().nth(1))
            .and_then(|p| p.parse::<u32>().ok());
        if ppid != Some(parent) {
            continue;
        }
        let env = std::fs::read(format!("/proc/{pid}/environ")).unwrap_or_default();
        if env.split(|&b| b == 0).any(|v| v == want.as_bytes()) {
            return Some(pid);
        }
    }
    None
}

#[test]
fn a_killed_rank_stops_the_job_and_its_checkpoints_resume_it() {
    let d = dir("kill");
    let iterations = 250;
    let want = single(&d, "one.strat", iterations);
    let mut args = solve_args(&d, "r2.strat", iterations);
    args.extend(["--checkpoint-every".into(), "1".into()]);
    let mut c = mpirun(2, &args);
    let mut job = c
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let ckpts = [0, 1].map(|r| d.join(format!("r2.rank{r}-of-2.ckpt")));
    let start = Instant::now();
    while !ckpts.iter().all(|c| c.exists()) {
        assert!(
            start.elapsed() < Duration::from_secs(120) && job.try_wait().unwrap().is_none(),
            "no checkpoints from the job"
        );
        std::thread::sleep(Duration::from_millis(20));
    }
    // Both ranks have just written a checkpoint of one iteration: the next is a second away.
    let pid = rank_pid(job.id(), 1).expect("rank 1's process");
    let killed = Command::new("kill").args(["-9", &pid.to_string()]).status();
    assert!(killed.unwrap().success());
    let out = job.wait_with_output().unwrap();
    assert!(!out.status.success(), "the job went on without rank 1");
    let log = String::from_utf8_lossy(&out.stderr);
    assert!(log.contains("rank 1") && log.contains("signal 9"), "{log}");
    assert!(!d.join("r2.strat").exists());

    let mut resume = solve_args(&d, "r2.strat", iterations);
    resume.push("--resume".into());
    let out = run(mpirun(2, &resume));
    ok(&out);
    let log = String::from_utf8_lossy(&out.stderr);
    assert!(log.contains("resumed every rank at iteration"), "{log}");
    assert!(std::fs::read(d.join("r2.strat")).unwrap() == want);
    // The checkpoints of a finished solve are removed, as a single process's.
    assert!(!ckpts.iter().any(|c| c.exists()));
    let _ = std::fs::remove_dir_all(&d);
}

#[test]
fn checkpoints_of_another_number_of_ranks_are_refused() {
    let d = dir("ranks");
    let mut args = solve_args(&d, "s.strat", 3);
    args.push("--keep-checkpoint".into());
    ok(&run(mpirun(2, &args)));
    let mut resume = solve_args(&d, "s.strat", 6);
    resume.push("--resume".into());
    let out = run(mpirun(3, &resume));
    assert!(!out.status.success());
    let log = String::from_utf8_lossy(&out.stderr);
    assert!(
        log.contains("of 3 failed") && log.contains("-of-3.ckpt"),
        "{log}"
    );
    let _ = std::fs::remove_dir_all(&d);
}

/// Rank 0 writes the strategy file as the other ranks' masses arrive, one split point's subtree
/// at a time: its memory grows at the write by less than the whole average array (4 bytes a
/// slot), which gathering every slot at once would add by itself. 24 buckets a street, so that
/// the slots (4.6 million) outweigh the file's other buffers (the tree's records, the
/// bucketing).
#[test]
fn rank_0_writes_the_file_without_holding_every_slot() {
    let d = dir("stream");
    let mut args = solve_args(&d, "s.strat", 4);
    let at = args.iter().position(|a| a == "4").unwrap();
    args[at] = "24".into();
    args.push("--json".into());
    let out = run(mpirun(3, &args));
    ok(&out);
    let stdout = String::from_utf8_lossy(&out.stdout);
    let last = stdout.lines().last().unwrap_or_default();
    let report: serde_json::Value = serde_json::from_str(last).expect("the final JSON line");
    let number = |k: &str| {
        report[k]
            .as_u64()
            .unwrap_or_else(|| panic!("{k} in {last}"))
    };
    let whole = 4 * number("slots");
    let grown = number("peak_bytes_rank0") - number("resident_bytes_rank0_before_write");
    assert!(whole > 16 << 20, "{last}");
    assert!(
        grown < whole,
        "rank 0 grew by {grown} bytes at the write, the whole average is {whole}: {last}"
    );
    let _ = std::fs::remove_dir_all(&d);
}

/// The sampled multiway solve every multiway test runs: 7stud three-handed, `tiny` with the
/// table view (its bucketings built in a few seconds), small batches.
fn multiway_args(d: &Path, out: &str, iterations: u32) -> Vec<String> {
    let mut args: Vec<String> = [
        "solve",
        "--game",
        "7stud-3p",
        "--abstraction",
        "tiny",
        "--view",
        "table",
        "--batch",
        "24",
        "--seed",
        "5",
        "--threads",
        "1",
        "--abstraction-dir",
    ]
    .iter()
    .map(|s| s.to_string())
    .collect();
    args.extend([
        d.join("abst").display().to_string(),
        "--iterations".into(),
        iterations.to_string(),
        "--out".into(),
        d.join(out).display().to_string(),
    ]);
    args
}

fn single_multiway(d: &Path, out: &str, iterations: u32, more: &[&str]) -> Vec<u8> {
    let args = multiway_args(d, out, iterations);
    let args: Vec<&str> = args
        .iter()
        .map(|s| s.as_str())
        .chain(more.iter().copied())
        .collect();
    common::ok(&common::stud(&args, ""));
    std::fs::read(d.join(out)).unwrap()
}

/// Every rank of a multiway solve holds the whole table and adds the batch's updates in the
/// single process's order: the strategy file and the checkpoint (rank 0's, under the single
/// process's name) are the single process's bytes, and no other rank writes one.
#[test]
fn multiway_on_two_and_three_ranks_writes_the_single_process_bytes() {
    let d = dir("multiway");
    let want = single_multiway(&d, "one.strat", 30, &["--keep-checkpoint"]);
    let want_ckpt = std::fs::read(d.join("one.ckpt")).unwrap();
    for ranks in [2, 3] {
        let name = format!("r{ranks}.strat");
        let mut args = multiway_args(&d, &name, 30);
        args.push("--keep-checkpoint".into());
        let out = run(mpirun(ranks, &args));
        ok(&out);
        let log = String::from_utf8_lossy(&out.stderr);
        assert!(log.contains(&format!("over {ranks} ranks")), "{log}");
        let got = std::fs::read(d.join(&name)).unwrap();
        assert!(got == want, "{ranks} ranks: the strategy file differs");
        let ckpt = std::fs::read(d.join(format!("r{ranks}.ckpt"))).unwrap();
        assert!(ckpt == want_ckpt, "{ranks} ranks: the checkpoint differs");
    }
    let files: Vec<String> = std::fs::read_dir(&d)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    assert!(!files.iter().any(|f| f.contains("rank")), "{files:?}");
    let _ = std::fs::remove_dir_all(&d);
}

/// A multiway job whose rank 1 is killed stops naming it; rank 0's checkpoint resumes it on
/// another number of ranks (every rank's state is the whole one), byte-identical to an
/// uninterrupted single process; a resume on ranks whose settings differ is refused.
#[test]
fn a_multiway_job_killed_resumes_on_another_number_of_ranks() {
    let d = dir("mwkill");
    let iterations = 400;
    let want = single_multiway(&d, "one.strat", iterations, &[]);
    let mut args = multiway_args(&d, "r.strat", iterations);
    args.extend(["--checkpoint-every".into(), "1".into()]);
    let mut job = mpirun(2, &args)
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let ckpt = d.join("r.ckpt");
    let start = Instant::now();
    while !ckpt.exists() {
        assert!(
            start.elapsed() < Duration::from_secs(120) && job.try_wait().unwrap().is_none(),
            "no checkpoint from the job"
        );
        std::thread::sleep(Duration::from_millis(20));
    }
    let pid = rank_pid(job.id(), 1).expect("rank 1's process");
    let killed = Command::new("kill").args(["-9", &pid.to_string()]).status();
    assert!(killed.unwrap().success());
    let out = job.wait_with_output().unwrap();
    assert!(!out.status.success(), "the job went on without rank 1");
    let log = String::from_utf8_lossy(&out.stderr);
    assert!(log.contains("rank 1") && log.contains("signal 9"), "{log}");
    assert!(!d.join("r.strat").exists());

    let mut other = multiway_args(&d, "r.strat", iterations);
    let at = other.iter().position(|a| a == "24").unwrap();
    other[at] = "30".into();
    other.push("--resume".into());
    let out = run(mpirun(3, &other));
    assert!(!out.status.success());
    let log = String::from_utf8_lossy(&out.stderr);
    assert!(
        log.contains("rank 0 of 3 failed") && log.contains("seed"),
        "{log}"
    );

    let mut resume = multiway_args(&d, "r.strat", iterations);
    resume.push("--resume".into());
    let out = run(mpirun(3, &resume));
    ok(&out);
    let log = String::from_utf8_lossy(&out.stderr);
    assert!(log.contains("resumed every rank at iteration"), "{log}");
    assert!(std::fs::read(d.join("r.strat")).unwrap() == want);
    assert!(!ckpt.exists(), "a finished solve removes its checkpoint");
    let _ = std::fs::remove_dir_all(&d);
}
