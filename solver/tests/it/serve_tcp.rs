//! `stud serve --listen` under hostile load, through the built binary: thousands of idle
//! connections, idle and slow clients, a full server, a process out of file descriptors. Each
//! test checks that the others are still served, and the figures it measures (thread count, CPU
//! time, latency) are printed (`cargo test --release -p solver --test it serve_tcp:: -- --nocapture`).
//! Linux only: the server's threads and CPU time are read from `/proc`.

use serde_json::Value;
use std::fs::File;
use std::io::{BufRead, BufReader, ErrorKind, Read, Write};
use std::net::TcpStream;
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

/// A request with a decision due (seat 1 brings in).
const REQUEST: &str = r#"{"id":1,"actions":["d dh p1 ????7h","d dh p2 AsKs2c"]}"#;

/// A running `stud serve --listen`, killed when dropped; its standard error goes to a file.
struct Server {
    child: Child,
    addr: String,
    log: std::path::PathBuf,
}

impl Server {
    /// Starts the server with `args` after `serve heuristic --listen 127.0.0.1:0`, through
    /// `bash -c` when `shell` (a `ulimit` command, say) must run first in the same process.
    fn start(args: &[&str], shell: Option<&str>) -> Server {
        Server::start_as("heuristic", args, shell)
    }

    /// [`Server::start`] serving `player` instead of the heuristic bot.
    fn start_as(player: &str, args: &[&str], shell: Option<&str>) -> Server {
        let log = std::env::temp_dir().join(format!(
            "stud-serve-tcp-{}-{}.log",
            std::process::id(),
            COUNTER.fetch_add(1, std::sync::atomic::Ordering::Relaxed)
        ));
        let bin = env!("CARGO_BIN_EXE_stud");
        let mut all = vec!["serve", player, "--listen", "127.0.0.1:0"];
        all.extend_from_slice(args);
        let mut cmd = match shell {
            None => Command::new(bin),
            Some(first) => {
                // `exec` keeps the process id: the limits set by `first` apply to the server.
                let mut c = Command::new("bash");
                c.arg("-c")
                    .arg(format!("{first} && exec \"$0\" \"$@\""))
                    .arg(bin);
                c
            }
        };
        let mut child = cmd
            .args(&all)
            .stdout(Stdio::piped())
            .stderr(File::create(&log).unwrap())
            .spawn()
            .expect("start stud serve");
        let mut first = String::new();
        BufReader::new(child.stdout.take().unwrap())
            .read_line(&mut first)
            .unwrap();
        let addr = first
            .trim()
            .strip_prefix("listening on ")
            .unwrap_or_else(|| panic!("no address: {first:?}"))
            .to_string();
        Server { child, addr, log }
    }

    fn pid(&self) -> u32 {
        self.child.id()
    }

    /// The `Threads:` line of `/proc/PID/status`.
    fn threads(&self) -> usize {
        let status = std::fs::read_to_string(format!("/proc/{}/status", self.pid())).unwrap();
        status
            .lines()
            .find_map(|l| l.strip_prefix("Threads:"))
            .unwrap()
            .trim()
            .parse()
            .unwrap()
    }

    /// Open file descriptors of the server.
    fn descriptors(&self) -> usize {
        std::fs::read_dir(format!("/proc/{}/fd", self.pid()))
            .unwrap()
            .count()
    }

    /// CPU time used so far (user + system), from `/proc/PID/stat`.
    fn cpu(&self) -> Duration {
        let stat = std::fs::read_to_string(format!("/proc/{}/stat", self.pid())).unwrap();
        // Fields after the command name, which is in parentheses: utime and stime are the
        // 14th and 15th fields of the line, the 12th and 13th after it.
        let rest = &stat[stat.rfind(')').unwrap() + 2..];
        let f: Vec<u64> = rest
            .split(' ')
            .skip(11)
            .take(2)
            .map(|x| x.parse().unwrap())
            .collect();
        // SAFETY: sysconf has no preconditions.
        let hz = unsafe { libc::sysconf(libc::_SC_CLK_TCK) } as f64;
        Duration::from_secs_f64((f[0] + f[1]) as f64 / hz)
    }

    fn connect(&self) -> TcpStream {
        TcpStream::connect(&self.addr).unwrap()
    }

    /// The server's standard error so far.
    fn log(&self) -> String {
        std::fs::read_to_string(&self.log).unwrap()
    }

    /// Fails unless the server is still running.
    fn alive(&mut self) {
        assert!(
            self.child.try_wait().unwrap().is_none(),
            "the server exited: {}",
            self.log()
        );
    }
}

impl Drop for Server {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
        let _ = std::fs::remove_file(&self.log);
    }
}

static COUNTER: std::sync::atomic::AtomicUsize = std::sync::atomic::AtomicUsize::new(0);

/// Sends one request and reads its reply, within `limit`.
fn ask(stream: &mut TcpStream, request: &str, limit: Duration) -> Value {
    stream.set_read_timeout(Some(limit)).unwrap();
    // One write: two small ones would wait on each other (Nagle and delayed acknowledgements).
    stream.write_all(format!("{request}\n").as_bytes()).unwrap();
    let line = read_line(stream).unwrap_or_else(|e| panic!("no reply within {limit:?}: {e}"));
    serde_json::from_str(&line).unwrap_or_else(|e| panic!("{line}: {e}"))
}

/// One line from the stream (byte by byte: nothing after it is consumed).
fn read_line(stream: &mut TcpStream) -> std::io::Result<String> {
    let mut line = Vec::new();
    let mut byte = [0];
    loop {
        match stream.read(&mut byte)? {
            0 if line.is_empty() => return Err(ErrorKind::UnexpectedEof.into()),
            0 => break,
            _ if byte[0] == b'\n' => break,
            _ => line.push(byte[0]),
        }
    }
    Ok(String::from_utf8(line).unwrap())
}

/// What a connection the server has closed says last: its line (if any), then the end.
fn last_words(stream: &mut TcpStream, limit: Duration) -> Option<Value> {
    stream.set_read_timeout(Some(limit)).unwrap();
    let mut rest = String::new();
    stream
        .read_to_string(&mut rest)
        .unwrap_or_else(|e| panic!("the connection is not closed within {limit:?}: {e}"));
    let line = rest.lines().next()?;
    Some(serde_json::from_str(line).unwrap())
}

/// Raises this process's soft limit on open files to at least `need` (the server started
/// after inherits it), failing with what to do when the hard limit is lower.
fn allow_descriptors(need: u64) {
    let mut lim = libc::rlimit {
        rlim_cur: 0,
        rlim_max: 0,
    };
    // SAFETY: `lim` is a valid rlimit for getrlimit to fill and setrlimit to read.
    unsafe {
        assert_eq!(libc::getrlimit(libc::RLIMIT_NOFILE, &mut lim), 0);
        if lim.rlim_cur >= need as libc::rlim_t {
            return;
        }
        assert!(
            lim.rlim_max >= need as libc::rlim_t,
            "this test needs {need} open files and the hard limit is {}: raise `ulimit -Hn`",
            lim.rlim_max
        );
        lim.rlim_cur = need as libc::rlim_t;
        assert_eq!(libc::setrlimit(libc::RLIMIT_NOFILE, &lim), 0);
    }
}

/// Polls `cond` every 20 ms for up to `limit`.
fn wait_until(limit: Duration, mut cond: impl FnMut() -> bool) -> bool {
    let t = Instant::now();
    while t.elapsed() < limit {
        if cond() {
            return true;
        }
        std::thread::sleep(Duration::from_millis(20));
    }
    cond()
}

fn is_decision(v: &Value) -> bool {
    v["legal"]
        .as_array()
        .is_some_and(|legal| legal.contains(&v["action"]))
}

#[test]
fn two_thousand_idle_connections_start_no_thread_and_delay_no_client() {
    const IDLE: usize = 2000;
    const WORKERS: usize = 2;
    allow_descriptors(2 * IDLE as u64 + 200);
    // The half lines below must outlive the test, however slow the machine.
    let workers = WORKERS.to_string();
    let mut server = Server::start(&["--workers", &workers, "--read-timeout", "600"], None);
    // The thread that owns the sockets and the workers, started before any connection.
    let before = server.threads();
    assert_eq!(before, WORKERS + 1, "threads at start");
    let mut idle: Vec<TcpStream> = (0..IDLE).map(|_| server.connect()).collect();
    // Half of them have begun a request line and stopped.
    let (half, rest) = REQUEST.split_at(12);
    for s in idle.iter_mut().step_by(2) {
        s.write_all(half.as_bytes()).unwrap();
    }
    assert!(
        wait_until(Duration::from_secs(30), || server.descriptors() > IDLE),
        "the server did not accept {IDLE} connections: {} descriptors open",
        server.descriptors()
    );
    let during = server.threads();
    // Another client, served promptly while all of them wait.
    let mut client = server.connect();
    let mut lat = Vec::new();
    for _ in 0..50 {
        let t = Instant::now();
        let v = ask(&mut client, REQUEST, Duration::from_secs(5));
        lat.push(t.elapsed());
        assert!(is_decision(&v), "{v}");
    }
    lat.sort();
    // Some of the idle ones wake up and are served too, finishing their half line if any.
    for (i, s) in idle.iter_mut().enumerate().step_by(199) {
        let v = ask(
            s,
            if i % 2 == 0 { rest } else { REQUEST },
            Duration::from_secs(5),
        );
        assert!(is_decision(&v), "{v}");
    }
    let after = server.threads();
    eprintln!(
        "{IDLE} idle connections, {WORKERS} workers: threads {before} at start, {during} with \
         them open, {after} after serving; another client's 50 requests: median {:?}, max {:?}",
        lat[lat.len() / 2],
        lat[lat.len() - 1]
    );
    assert_eq!((during, after), (before, before), "threads must not grow");
    assert!(
        lat[lat.len() / 2] < Duration::from_millis(500),
        "median {:?}",
        lat[lat.len() / 2]
    );
    server.alive();
}

#[test]
fn idle_and_slow_clients_are_closed_and_told_why() {
    let server = Server::start(&["--idle-timeout", "1", "--read-timeout", "1"], None);
    let t = Instant::now();
    let mut idle = server.connect();
    let mut slow = server.connect();
    slow.write_all(br#"{"id":1,"actions":["#).unwrap();
    // A client that asks every 0.2 s is never idle for 1 s.
    let mut busy = server.connect();
    while t.elapsed() < Duration::from_millis(2500) {
        assert!(is_decision(&ask(
            &mut busy,
            REQUEST,
            Duration::from_secs(5)
        )));
        std::thread::sleep(Duration::from_millis(200));
    }
    let said = last_words(&mut idle, Duration::from_secs(5)).expect("a line");
    assert!(
        said["error"]
            .as_str()
            .unwrap()
            .contains("no request for 1 s"),
        "{said}"
    );
    let said = last_words(&mut slow, Duration::from_secs(5)).expect("a line");
    let e = said["error"].as_str().unwrap();
    assert!(
        e.contains("did not arrive whole within 1 s (19 bytes came)"),
        "{e}"
    );
    let log = server.log();
    assert!(log.contains("(--idle-timeout)"), "{log}");
    assert!(log.contains("(--read-timeout)"), "{log}");
    assert!(is_decision(&ask(
        &mut busy,
        REQUEST,
        Duration::from_secs(5)
    )));
}

#[test]
fn a_timeout_too_long_for_the_clock_means_none() {
    // 1e19 s is past what an `Instant` can hold: the connection simply never times out.
    let mut server = Server::start(&["--idle-timeout", "1e19", "--read-timeout", "1e19"], None);
    let mut s = server.connect();
    s.write_all(b"{\"id\":").unwrap();
    std::thread::sleep(Duration::from_millis(200));
    let v = ask(&mut s, &REQUEST[6..], Duration::from_secs(5));
    assert!(is_decision(&v), "{v}");
    server.alive();
}

#[test]
fn a_full_server_refuses_with_a_line_and_serves_again_when_one_leaves() {
    let server = Server::start(&["--max-connections", "3"], None);
    let mut open: Vec<TcpStream> = (0..3).map(|_| server.connect()).collect();
    // Each is served, so each is surely accepted before the next.
    for s in &mut open {
        assert!(is_decision(&ask(s, REQUEST, Duration::from_secs(5))));
    }
    let said = last_words(&mut server.connect(), Duration::from_secs(5)).expect("a line");
    assert!(
        said["error"]
            .as_str()
            .unwrap()
            .contains("the server is full: 3 connections are open"),
        "{said}"
    );
    drop(open.pop());
    // The server notices the close when it next looks: try until it has.
    let served = wait_until(Duration::from_secs(5), || {
        let mut s = server.connect();
        s.set_read_timeout(Some(Duration::from_secs(5))).unwrap();
        s.write_all(format!("{REQUEST}\n").as_bytes()).unwrap();
        read_line(&mut s).is_ok_and(|l| l.contains("\"action\""))
    });
    assert!(served, "{}", server.log());
    assert!(server.log().contains("refused a connection"));
}

#[test]
fn out_of_descriptors_the_server_refuses_with_a_line_does_not_spin_and_serves_the_rest() {
    const LIMIT: usize = 64;
    const CLIENTS: usize = 100;
    let mut server = Server::start(&["--workers", "1"], Some(&format!("ulimit -n {LIMIT}")));
    let conns: Vec<TcpStream> = (0..CLIENTS).map(|_| server.connect()).collect();
    // The server takes what it can and refuses the rest at once, each with a line; given a
    // moment, a connection it holds has nothing to read and a refused one has its line and end.
    std::thread::sleep(Duration::from_secs(2));
    let mut refused = 0;
    let mut held = Vec::new();
    for mut s in conns {
        s.set_nonblocking(true).unwrap();
        let mut buf = Vec::new();
        match s.read_to_end(&mut buf) {
            Err(e) if e.kind() == ErrorKind::WouldBlock && buf.is_empty() => {
                s.set_nonblocking(false).unwrap();
                held.push(s);
            }
            _ => {
                let text = String::from_utf8(buf).unwrap();
                assert!(text.contains("no file descriptor free"), "{text}");
                refused += 1;
            }
        }
    }
    assert!(
        refused > 0 && held.len() > LIMIT / 2,
        "refused {refused}, held {}",
        held.len()
    );
    // With no descriptor free and connections waiting, the server must sleep, not spin.
    let cpu0 = server.cpu();
    let t = Instant::now();
    let mut waiting: Vec<TcpStream> = (0..20).map(|_| server.connect()).collect();
    std::thread::sleep(Duration::from_secs(3));
    let busy = (server.cpu() - cpu0).as_secs_f64() / t.elapsed().as_secs_f64();
    // Those that came meanwhile were refused with a line too.
    for s in &mut waiting {
        let said = last_words(s, Duration::from_secs(5)).expect("a line");
        assert!(
            said.to_string().contains("no file descriptor free"),
            "{said}"
        );
    }
    // Every connection it holds is served.
    for s in &mut held {
        assert!(is_decision(&ask(s, REQUEST, Duration::from_secs(5))));
    }
    eprintln!(
        "ulimit -n {LIMIT}, {CLIENTS} clients: {} held, {refused} refused with a line; CPU \
         over the next 3 s with 20 more arriving: {:.1}% of a core",
        held.len(),
        busy * 100.0
    );
    assert!(
        busy < 0.10,
        "the server used {:.0}% of a core",
        busy * 100.0
    );
    // Once some leave, new clients are served again.
    held.truncate(held.len() - 5);
    let served = wait_until(Duration::from_secs(5), || {
        let mut s = server.connect();
        s.set_read_timeout(Some(Duration::from_secs(5))).unwrap();
        s.write_all(format!("{REQUEST}\n").as_bytes()).unwrap();
        read_line(&mut s).is_ok_and(|l| l.contains("\"action\""))
    });
    assert!(served, "{}", server.log());
    let log = server.log();
    assert!(log.contains("refused a connection from"), "{log}");
    server.alive();
}

#[test]
fn a_ten_megabyte_line_is_answered_with_a_short_error_and_the_connection_goes_on() {
    let server = Server::start(&[], None);
    let mut s = server.connect();
    let big = format!(
        "{{\"id\":2,\"actions\":[\"p1 {}\"]}}\n",
        "x".repeat(10_000_000)
    );
    let want = format!("the line is {} bytes long", big.len() - 1);
    let writer = {
        let mut w = s.try_clone().unwrap();
        std::thread::spawn(move || w.write_all(big.as_bytes()).unwrap())
    };
    s.set_read_timeout(Some(Duration::from_secs(30))).unwrap();
    let line = read_line(&mut s).unwrap();
    writer.join().unwrap();
    assert!(line.len() < 300, "{line}");
    let v: Value = serde_json::from_str(&line).unwrap();
    assert!(v["error"].as_str().unwrap().contains(&want), "{v}");
    assert!(is_decision(&ask(&mut s, REQUEST, Duration::from_secs(5))));
}

/// A fifth-street spot of five-card stud, its first decision due (seat 1 to act).
const FIFTH_STREET: &str = r#""d dh p1 As7h","d dh p2 Kd2c","p2 pb","p1 cc","d dh p1 9s","d dh p2 3d","p1 cc","p2 cc","d dh p1 Qh","d dh p2 4c","p1 cc","p2 cc","d dh p1 Jc","d dh p2 5s""#;

/// A re-solve holds one worker for its whole budget (here 6 s of iterations); another client is
/// answered meanwhile by another worker. A strategy server starts two workers at least, so this
/// holds with the default on any machine.
#[test]
fn a_re_solve_under_way_keeps_no_other_client_waiting() {
    let file = concat!(env!("CARGO_MANIFEST_DIR"), "/../strategies/5stud-hu.strat");
    let server = Server::start_as(file, &["--game", "5stud"], None);
    assert!(
        server.threads() >= 3,
        "the socket thread and two workers at least"
    );
    let mut slow = server.connect();
    let sent = Instant::now();
    let request = format!(r#"{{"id":1,"actions":[{FIFTH_STREET}],"resolve":{{"ms":6000}}}}"#);
    slow.write_all(format!("{request}\n").as_bytes()).unwrap();
    // The re-solve is under way (or queued behind nothing): ask another question meanwhile.
    std::thread::sleep(Duration::from_millis(200));
    let mut other = server.connect();
    let third = r#"{"id":2,"actions":["d dh p1 As7h","d dh p2 Kd2c"]}"#;
    let fast = ask(&mut other, third, Duration::from_secs(5));
    assert!(is_decision(&fast), "{fast}");
    let answered = sent.elapsed();
    assert!(
        answered < Duration::from_secs(6),
        "the other client waited {answered:?}: as long as the re-solve"
    );
    slow.set_nonblocking(true).unwrap();
    let mut byte = [0];
    assert_eq!(
        slow.read(&mut byte).map_err(|e| e.kind()),
        Err(ErrorKind::WouldBlock),
        "the re-solve answered before its budget ran out"
    );
    slow.set_nonblocking(false).unwrap();
    slow.set_read_timeout(Some(Duration::from_secs(60)))
        .unwrap();
    let line = read_line(&mut slow).unwrap();
    let resolved: Value = serde_json::from_str(&line).unwrap();
    assert!(
        resolved["resolve"]["solve_millis"].as_f64().unwrap() >= 6000.0,
        "{resolved}"
    );
}

/// The five-card stud file the re-solving tests serve.
const FIVE_STUD: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/../strategies/5stud-hu.strat");

/// A re-solve request at [`FIFTH_STREET`] with the budget `budget` (JSON).
fn resolve_request(id: u32, budget: &str) -> String {
    format!(r#"{{"id":{id},"actions":[{FIFTH_STREET}],"resolve":{budget}}}"#)
}

/// A budget past the server's limits is refused at once, the limit named; the defaults hold
/// without a flag, and the flags move them.
#[test]
fn a_re_solve_budget_past_the_limits_is_refused_naming_the_limit() {
    let server = Server::start_as(FIVE_STUD, &["--game", "5stud"], None);
    let mut s = server.connect();
    for (budget, flag) in [
        (r#"{"ms":18446744073709551615}"#, "--max-resolve-ms"),
        (r#"{"iterations":1000000000}"#, "--max-resolve-iterations"),
    ] {
        let t = Instant::now();
        let v = ask(&mut s, &resolve_request(1, budget), Duration::from_secs(5));
        let e = v["error"].as_str().unwrap_or_else(|| panic!("{v}"));
        assert!(e.contains(flag) && e.contains("limit"), "{v}");
        assert!(
            t.elapsed() < Duration::from_secs(2),
            "refused after {:?}",
            t.elapsed()
        );
    }
    drop(server);
    let server = Server::start_as(
        FIVE_STUD,
        &[
            "--game",
            "5stud",
            "--max-resolve-ms",
            "50",
            "--max-resolve-iterations",
            "5",
        ],
        None,
    );
    let mut s = server.connect();
    let v = ask(
        &mut s,
        &resolve_request(1, r#"{"ms":51}"#),
        Duration::from_secs(5),
    );
    assert!(
        v["error"].as_str().unwrap().contains("limit of 50 ms"),
        "{v}"
    );
    let v = ask(
        &mut s,
        &resolve_request(2, r#"{"iterations":6}"#),
        Duration::from_secs(5),
    );
    assert!(v["error"].as_str().unwrap().contains("limit of 5"), "{v}");
    let v = ask(
        &mut s,
        &resolve_request(3, r#"{"iterations":5}"#),
        Duration::from_secs(30),
    );
    assert_eq!(v["resolve"]["iterations"], 5, "{v}");
}

/// A re-solve in iterations that runs past --max-resolve-ms is stopped with an error naming
/// the flag, and its worker serves the next request.
#[test]
fn a_re_solve_past_the_time_limit_is_stopped() {
    let server = Server::start_as(
        FIVE_STUD,
        &[
            "--game",
            "5stud",
            "--max-resolve-ms",
            "20",
            "--resolve-workers",
            "1",
        ],
        None,
    );
    let mut s = server.connect();
    let t = Instant::now();
    let v = ask(
        &mut s,
        &resolve_request(1, r#"{"iterations":10000}"#),
        Duration::from_secs(30),
    );
    let e = v["error"].as_str().unwrap_or_else(|| panic!("{v}"));
    assert!(
        e.contains("--max-resolve-ms") && e.contains("stopped"),
        "{v}"
    );
    println!("stopped after {:?}: {e}", t.elapsed());
    let v = ask(
        &mut s,
        &resolve_request(2, r#"{"iterations":3}"#),
        Duration::from_secs(30),
    );
    assert_eq!(v["resolve"]["iterations"], 3, "{v}");
}

/// A client that closes its connection while its re-solve runs frees the worker: with one
/// re-solving worker, a second client's re-solve is answered long before the first's budget
/// would have run out, and the server stops burning CPU with no client connected.
#[test]
fn a_re_solve_whose_client_went_away_is_cancelled() {
    let server = Server::start_as(
        FIVE_STUD,
        &["--game", "5stud", "--resolve-workers", "1"],
        None,
    );
    let mut gone = server.connect();
    gone.write_all(format!("{}\n", resolve_request(1, r#"{"ms":9000}"#)).as_bytes())
        .unwrap();
    std::thread::sleep(Duration::from_millis(1500));
    drop(gone);
    let t = Instant::now();
    let mut next = server.connect();
    let v = ask(
        &mut next,
        &resolve_request(2, r#"{"ms":300}"#),
        Duration::from_secs(30),
    );
    let waited = t.elapsed();
    println!("the next re-solve answered after {waited:?}");
    assert!(v["resolve"]["iterations"].as_u64().unwrap() >= 1, "{v}");
    assert!(
        waited < Duration::from_secs(5),
        "the next re-solve waited {waited:?}: the cancelled one ran on"
    );
    drop(next);
    std::thread::sleep(Duration::from_millis(300));
    let cpu = server.cpu();
    std::thread::sleep(Duration::from_secs(2));
    let burnt = server.cpu() - cpu;
    println!("CPU with no client: {burnt:?} in 2 s");
    assert!(
        burnt < Duration::from_millis(500),
        "{burnt:?} of CPU in 2 s with no client"
    );
}

/// Lookups are not queued behind re-solves: four clients re-solving in a loop (more than the
/// re-solving workers) leave a plain lookup's latency at a lookup's, not a re-solve's (a
/// second, here). The figures are printed; the bound leaves room for a shared machine.
#[test]
fn lookups_are_answered_beside_four_clients_re_solving() {
    let server = Server::start_as(FIVE_STUD, &["--game", "5stud", "--workers", "2"], None);
    let stop = std::sync::Arc::new(std::sync::atomic::AtomicBool::new(false));
    let flood: Vec<_> = (0..4)
        .map(|i| {
            let mut s = server.connect();
            let stop = std::sync::Arc::clone(&stop);
            std::thread::spawn(move || {
                let mut n = 0;
                while !stop.load(std::sync::atomic::Ordering::Relaxed) {
                    let v = ask(
                        &mut s,
                        // A budget of its own each time: a solve cached is no re-solve.
                        &resolve_request(i, &format!(r#"{{"ms":{}}}"#, 1000 + 4 * n + i)),
                        Duration::from_secs(60),
                    );
                    assert!(v["resolve"].is_object(), "{v}");
                    n += 1;
                }
                n
            })
        })
        .collect();
    // Every re-solving worker busy, and the other clients queued behind them.
    std::thread::sleep(Duration::from_millis(2500));
    let mut s = server.connect();
    let third = r#"{"id":9,"actions":["d dh p1 As7h","d dh p2 Kd2c"]}"#;
    let mut times: Vec<Duration> = (0..100)
        .map(|_| {
            let t = Instant::now();
            assert!(is_decision(&ask(&mut s, third, Duration::from_secs(30))));
            let took = t.elapsed();
            std::thread::sleep(Duration::from_millis(20));
            took
        })
        .collect();
    stop.store(true, std::sync::atomic::Ordering::Relaxed);
    let solved: u32 = flood.into_iter().map(|h| h.join().unwrap()).sum();
    times.sort();
    let (p50, p99) = (times[49], times[98]);
    println!(
        "beside four re-solving clients ({solved} re-solves): lookup p50 {p50:?}, p99 {p99:?}"
    );
    assert!(solved >= 2, "the re-solves did not run");
    assert!(
        p99 < Duration::from_millis(250),
        "lookup p99 {p99:?} beside re-solves of 1 s: queued behind them"
    );
}

/// The same at a table of three: a multiway file's server answers lookups while four clients
/// flood it with re-solve requests, which it refuses at once (re-solving is heads-up) on the
/// light lane, never holding a worker.
#[test]
fn n_seat_lookups_are_answered_beside_a_flood_of_re_solve_requests() {
    let file = concat!(env!("CARGO_MANIFEST_DIR"), "/../strategies/7stud-3p.strat");
    let server = Server::start_as(file, &["--workers", "2"], None);
    let deal = r#""d dh p1 ????7h","d dh p2 ????Kd","d dh p3 AsKs2c""#;
    let stop = std::sync::Arc::new(std::sync::atomic::AtomicBool::new(false));
    let flood: Vec<_> = (0..4)
        .map(|i| {
            let mut s = server.connect();
            let stop = std::sync::Arc::clone(&stop);
            let request = format!(r#"{{"id":{i},"actions":[{deal}],"resolve":{{"ms":3000}}}}"#);
            std::thread::spawn(move || {
                while !stop.load(std::sync::atomic::Ordering::Relaxed) {
                    let v = ask(&mut s, &request, Duration::from_secs(30));
                    let e = v["error"].as_str().unwrap_or_else(|| panic!("{v}"));
                    assert!(e.contains("heads-up"), "{v}");
                }
            })
        })
        .collect();
    std::thread::sleep(Duration::from_millis(300));
    let mut s = server.connect();
    let lookup = format!(r#"{{"id":9,"actions":[{deal}]}}"#);
    let mut times: Vec<Duration> = (0..100)
        .map(|_| {
            let t = Instant::now();
            let v = ask(&mut s, &lookup, Duration::from_secs(30));
            assert!(is_decision(&v), "{v}");
            t.elapsed()
        })
        .collect();
    stop.store(true, std::sync::atomic::Ordering::Relaxed);
    flood.into_iter().for_each(|h| h.join().unwrap());
    times.sort();
    let (p50, p99) = (times[49], times[98]);
    println!("three seats, beside four clients asking re-solves: lookup p50 {p50:?}, p99 {p99:?}");
    assert!(p99 < Duration::from_millis(250), "lookup p99 {p99:?}");
}
