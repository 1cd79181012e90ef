//! `stud explore`'s server under slow, idle and odd clients, through the built binary: a client
//! sending a byte at a time or idle connections keep no other page waiting, the request head has
//! one deadline, bare LF line ends, a cut-off head, two `Host` headers and `HEAD` each get their
//! answer at once, and any bytes at all get a status line.
//!
//! The behaviour is asserted, not the clock (the tests run beside many others on a loaded
//! machine): "at once" is "before a deadline the server was given long enough that it cannot
//! come first", so an answer that waited for it is a 408 and fails by its status.

use crate::explore_browser::{serve_with, shipped};
use proptest::prelude::*;
use std::io::{ErrorKind, Read, Write};
use std::net::{Shutdown, TcpStream};
use std::time::Duration;

/// The server's deadline for a request head in the tests of "at once": an answer that waited
/// for it is a 408.
const LONG: &str = "60";

/// How long a client waits for an answer before the test fails: longer than [`LONG`], so that
/// a server that waits for its deadline fails by its 408, not by this.
const PATIENCE: Duration = Duration::from_secs(120);

/// The server's `host:port`.
fn addr(url: &str) -> String {
    url.trim_start_matches("http://")
        .trim_end_matches('/')
        .to_string()
}

/// Sends `bytes` on a new connection, closes the sending side when `close`, and reads the whole
/// answer (the server closes after it).
fn exchange(addr: &str, bytes: &[u8], close: bool) -> String {
    let mut s = TcpStream::connect(addr).unwrap();
    s.set_read_timeout(Some(PATIENCE)).unwrap();
    s.write_all(bytes).unwrap();
    if close {
        s.shutdown(Shutdown::Write).unwrap();
    }
    let mut out = Vec::new();
    s.read_to_end(&mut out)
        .unwrap_or_else(|e| panic!("no whole answer within {PATIENCE:?}: {e}"));
    String::from_utf8_lossy(&out).into_owned()
}

/// A plain request for `target`, with CRLF line ends.
fn get(addr: &str, target: &str) -> String {
    format!("GET {target} HTTP/1.1\r\nHost: {addr}\r\n\r\n")
}

/// Whether the server still holds `s` open without having answered: a read finds nothing yet
/// (neither bytes nor the end), looked at without taking them.
fn still_waiting(s: &TcpStream) -> bool {
    s.set_nonblocking(true).unwrap();
    let mut buf = [0; 64];
    let waiting = matches!(s.peek(&mut buf), Err(e) if e.kind() == ErrorKind::WouldBlock);
    s.set_nonblocking(false).unwrap();
    waiting
}

/// A client that sent half its head and four idle connections hold no thread others need: the
/// pages are answered while the server still holds all five open (a server that made the pages
/// wait for them would answer them only after cutting the five off), and the half-sent head is
/// answered when its rest comes.
#[test]
fn slow_and_idle_clients_keep_no_page_waiting() {
    let server = serve_with(&shipped("7stud-hu.strat"), &["--read-timeout", LONG]);
    let addr = addr(&server.url);
    let idle: Vec<TcpStream> = (0..4).map(|_| TcpStream::connect(&addr).unwrap()).collect();
    let head = get(&addr, "/style.css");
    let (first, rest) = head.split_at(10);
    let mut slow = TcpStream::connect(&addr).unwrap();
    slow.write_all(first.as_bytes()).unwrap();
    for target in ["/style.css", "/", "/api/node?spot=3c+8d"] {
        let answer = exchange(&addr, get(&addr, target).as_bytes(), false);
        assert!(answer.starts_with("HTTP/1.1 200 OK\r\n"), "{answer}");
    }
    assert!(
        idle.iter().chain([&slow]).all(still_waiting),
        "a slow or idle client was cut off before the pages were answered"
    );
    slow.write_all(rest.as_bytes()).unwrap();
    slow.set_read_timeout(Some(PATIENCE)).unwrap();
    let mut answer = String::new();
    slow.read_to_string(&mut answer).unwrap();
    assert!(answer.starts_with("HTTP/1.1 200 OK\r\n"), "{answer}");
}

/// The deadline is the whole head's, not each read's: a client sending a byte every half
/// second (its head would take some 20 s) gets a 408 from a server given 2 s, before it has
/// sent the whole head. A deadline per read would never run out, and answer 200 at the end.
#[test]
fn a_byte_at_a_time_runs_out_the_heads_deadline() {
    let server = serve_with(&shipped("7stud-hu.strat"), &["--read-timeout", "2"]);
    let addr = addr(&server.url);
    let head = get(&addr, "/");
    let mut s = TcpStream::connect(&addr).unwrap();
    let mut answer = Vec::new();
    let mut sent = 0;
    for b in head.bytes() {
        if s.write_all(&[b]).is_err() {
            break;
        }
        sent += 1;
        std::thread::sleep(Duration::from_millis(500));
        if !still_waiting(&s) {
            break;
        }
    }
    s.set_read_timeout(Some(PATIENCE)).unwrap();
    let _ = s.read_to_end(&mut answer);
    let answer = String::from_utf8_lossy(&answer);
    assert!(answer.starts_with("HTTP/1.1 408 "), "{answer}");
    assert!(sent < head.len(), "the whole head went out before the 408");
}

/// Bare LF line ends are read; a head cut off by the client's end, two `Host` headers and
/// other methods are refused at once (not a 408 at the deadline); `HEAD` gets the headers
/// alone.
#[test]
fn odd_heads_are_answered_at_once() {
    let server = serve_with(&shipped("7stud-hu.strat"), &["--read-timeout", LONG]);
    let addr = addr(&server.url);
    let lf = exchange(
        &addr,
        format!("GET /style.css HTTP/1.1\nHost: {addr}\n\n").as_bytes(),
        false,
    );
    assert!(lf.starts_with("HTTP/1.1 200 OK\r\n"), "{lf}");
    let cut = format!("GET / HTTP/1.1\r\nHost: {addr}\r\n");
    let answer = exchange(&addr, cut.as_bytes(), true);
    assert!(
        answer.starts_with("HTTP/1.1 400 ") && answer.contains("blank line"),
        "{answer}"
    );
    let two = format!("GET / HTTP/1.1\r\nHost: {addr}\r\nHost: evil.example\r\n\r\n");
    let answer = exchange(&addr, two.as_bytes(), false);
    assert!(
        answer.starts_with("HTTP/1.1 400 ") && answer.contains("Host"),
        "{answer}"
    );
    let answer = exchange(
        &addr,
        format!("POST / HTTP/1.1\r\nHost: {addr}\r\n\r\n").as_bytes(),
        false,
    );
    assert!(answer.starts_with("HTTP/1.1 405 "), "{answer}");
    let head = exchange(
        &addr,
        format!("HEAD /style.css HTTP/1.1\r\nHost: {addr}\r\n\r\n").as_bytes(),
        false,
    );
    let whole = exchange(&addr, get(&addr, "/style.css").as_bytes(), false);
    let (headers, body) = whole.split_once("\r\n\r\n").unwrap();
    assert!(!body.is_empty());
    assert_eq!(
        head,
        format!("{headers}\r\n\r\n"),
        "HEAD: the headers of GET, no body"
    );
}

/// A head's pieces: real ones and noise, joined by either line end.
fn hostile_head() -> impl Strategy<Value = Vec<u8>> {
    let piece = prop_oneof![
        Just("GET / HTTP/1.1".to_string()),
        Just("HEAD /api/node?spot=3c+8d HTTP/1.1".to_string()),
        Just("GET /api/node?spot=%zz HTTP/1.0".to_string()),
        Just("Host: 127.0.0.1:1".to_string()),
        Just("Host: evil.example".to_string()),
        Just(String::new()),
        "[ -~]{0,60}",
        "\\PC{0,20}",
    ];
    (
        proptest::collection::vec((piece, any::<bool>()), 0..8),
        proptest::collection::vec(any::<u8>(), 0..40),
    )
        .prop_map(|(lines, tail)| {
            let mut out = Vec::new();
            for (line, crlf) in lines {
                out.extend_from_slice(line.as_bytes());
                out.extend_from_slice(if crlf { b"\r\n" } else { b"\n" });
            }
            out.extend_from_slice(&tail);
            out
        })
}

/// Whatever bytes a client sends before closing its side, it gets one HTTP status line at
/// once (never a wait for the deadline: no 408; never a dropped connection), and the server lives:
/// proptest's cases against one server (a runner inside the test, so that the server is
/// stopped when the test ends).
#[test]
fn any_bytes_get_a_status_line_at_once() {
    let server = serve_with(&shipped("7stud-hu.strat"), &["--read-timeout", LONG]);
    let addr = addr(&server.url);
    let mut runner = proptest::test_runner::TestRunner::default();
    runner
        .run(&hostile_head(), |head| {
            let answer = exchange(&addr, &head, true);
            if head.is_empty() {
                prop_assert!(answer.is_empty());
            } else {
                prop_assert!(
                    answer.starts_with("HTTP/1.1 "),
                    "{:?}: {:?}",
                    String::from_utf8_lossy(&head),
                    answer
                );
                let status: u16 = answer[9..12].parse().unwrap();
                prop_assert!([400, 403, 404, 405, 431].contains(&status), "{}", answer);
            }
            Ok(())
        })
        .unwrap();
}

/// The address takes the notation `stud query --help` teaches, every spelling of it: words
/// (`complete`, `c`, `b`), `|` between streets, and answers with the page's own codes.
#[test]
fn a_spot_in_query_notation_is_answered_as_the_page_writes_it() {
    let server = serve_with(&shipped("7stud-hu.strat"), &[]);
    let addr = addr(&server.url);
    let words = "/api/node?spot=3c%20Kd%20pb%20complete%20c%20%7C%205c%202s%20b";
    let codes = "/api/node?spot=3c+Kd+pb+cbr5+cc+5c+2s+cbr5";
    let a = exchange(&addr, get(&addr, words).as_bytes(), false);
    let b = exchange(&addr, get(&addr, codes).as_bytes(), false);
    assert!(a.starts_with("HTTP/1.1 200"), "{a}");
    let body = |s: &str| s[s.find("\r\n\r\n").unwrap() + 4..].to_string();
    let (a, b): (serde_json::Value, serde_json::Value) = (
        serde_json::from_str(&body(&a)).unwrap(),
        serde_json::from_str(&body(&b)).unwrap(),
    );
    assert_eq!(a["spot"], "3c Kd pb cbr5 cc 5c 2s cbr5", "{a}");
    assert_eq!(a, b);
}
