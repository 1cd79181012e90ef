//! What the command-line tests share: running the built `stud` binary and reading its output.
// The integration tests (tests/it) and tests/mpi.rs include this module; mpi.rs uses a subset.
#![allow(dead_code)]

use std::io::Write;
use std::process::{Command, Output, Stdio};

/// Runs `stud` with `args`, writing `stdin` to its standard input.
pub fn stud(args: &[&str], stdin: &str) -> Output {
    stud_bytes(args, stdin.as_bytes())
}

/// [`stud`] with any bytes on standard input, text or not.
pub fn stud_bytes(args: &[&str], stdin: &[u8]) -> Output {
    let mut child = Command::new(env!("CARGO_BIN_EXE_stud"))
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("run stud");
    let mut input = child.stdin.take().unwrap();
    let bytes = stdin.to_vec();
    // Written from a thread: a big input must not block against a full output pipe.
    let writer = std::thread::spawn(move || {
        let _ = input.write_all(&bytes);
    });
    let out = child.wait_with_output().unwrap();
    writer.join().unwrap();
    out
}

/// Output bytes as text (the binary writes UTF-8 only).
pub fn text(bytes: &[u8]) -> String {
    String::from_utf8(bytes.to_vec()).unwrap()
}

/// The standard output of a run that must succeed (else fails with both streams).
pub fn ok(out: &Output) -> String {
    let stdout = text(&out.stdout);
    assert!(
        out.status.success(),
        "{stdout}{}",
        String::from_utf8_lossy(&out.stderr)
    );
    stdout
}

/// The standard error of a run that must fail.
pub fn err(out: &Output) -> String {
    assert!(!out.status.success());
    text(&out.stderr)
}

/// Runs `stud` under a pseudo-terminal (`script`), where indicatif draws its bars: what the
/// terminal shows. Fails, saying what to install, where `script` is missing.
pub fn on_a_terminal(args: &[&str]) -> String {
    let bin = env!("CARGO_BIN_EXE_stud");
    let cmd = std::iter::once(bin)
        .chain(args.iter().copied())
        .collect::<Vec<_>>()
        .join(" ");
    let out = std::process::Command::new("script")
        .args(["-qec", &cmd, "/dev/null"])
        .stdin(std::process::Stdio::null())
        .output()
        .expect("`script` runs the command on a terminal: install it (Debian: bsdutils)");
    assert!(out.status.success(), "{}", text(&out.stdout));
    String::from_utf8_lossy(&out.stdout).into_owned()
}
