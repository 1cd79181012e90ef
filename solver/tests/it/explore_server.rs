//! `stud explore`'s server under slow, idle and odd clients, through the built binary: a client
//! sending a byte a second or idle connections keep no other page waiting, the request head has
//! one deadline, bare LF line ends, a cut-off head, two `Host` headers and `HEAD` each get their
//! answer at once, and any bytes at all get a status line.

use crate::explore_browser::{serve, shipped};
use proptest::prelude::*;
use std::io::{Read, Write};
use std::net::{Shutdown, TcpStream};
use std::time::{Duration, Instant};

/// The server's `host:port`.
fn addr(url: &str) -> String {
    url.trim_start_matches("http://")
        .trim_end_matches('/')
        .to_string()
}

/// Sends `bytes` on a new connection, closes the sending side when `close`, and reads the whole
/// answer (the server closes after it) within `limit`: the answer and how long it took.
fn exchange(addr: &str, bytes: &[u8], close: bool, limit: Duration) -> (String, Duration) {
    let t = Instant::now();
    let mut s = TcpStream::connect(addr).unwrap();
    s.set_read_timeout(Some(limit)).unwrap();
    s.write_all(bytes).unwrap();
    if close {
        s.shutdown(Shutdown::Write).unwrap();
    }
    let mut out = Vec::new();
    s.read_to_end(&mut out)
        .unwrap_or_else(|e| panic!("no whole answer within {limit:?}: {e}"));
    (String::from_utf8_lossy(&out).into_owned(), t.elapsed())
}

/// A plain request for `target`, with CRLF line ends.
fn get(addr: &str, target: &str) -> String {
    format!("GET {target} HTTP/1.1\r\nHost: {addr}\r\n\r\n")
}

/// A client sending a byte a second and four idle connections hold no thread others need: the
/// page is answered at once beside them, and the slow client is cut off by the head's deadline
/// (5 s in all, not 5 s a byte) with a 408.
#[test]
fn slow_and_idle_clients_keep_no_page_waiting() {
    let server = serve(&shipped("7stud-hu.strat"));
    let addr = addr(&server.url);
    let idle: Vec<TcpStream> = (0..4).map(|_| TcpStream::connect(&addr).unwrap()).collect();
    let slow_addr = addr.clone();
    let slow = std::thread::spawn(move || {
        let t = Instant::now();
        let mut s = TcpStream::connect(&slow_addr).unwrap();
        s.set_read_timeout(Some(Duration::from_millis(1))).unwrap();
        let mut answer = Vec::new();
        for b in get(&slow_addr, "/").bytes().take(20) {
            if s.write_all(&[b]).is_err() {
                break;
            }
            std::thread::sleep(Duration::from_secs(1));
            let mut buf = [0; 4096];
            match s.read(&mut buf) {
                Ok(0) => break,
                Ok(n) => answer.extend_from_slice(&buf[..n]),
                Err(_) => {}
            }
        }
        s.set_read_timeout(Some(Duration::from_secs(5))).unwrap();
        let _ = s.read_to_end(&mut answer);
        (String::from_utf8_lossy(&answer).into_owned(), t.elapsed())
    });
    std::thread::sleep(Duration::from_millis(1500));
    for target in ["/style.css", "/", "/api/node?spot=3c+8d"] {
        let (answer, took) = exchange(
            &addr,
            get(&addr, target).as_bytes(),
            false,
            Duration::from_secs(30),
        );
        println!("{target} beside a slow client and four idle ones: {took:?}");
        assert!(answer.starts_with("HTTP/1.1 200 OK\r\n"), "{answer}");
        assert!(took < Duration::from_secs(3), "{target} waited {took:?}");
    }
    let (answer, took) = slow.join().unwrap();
    println!("the slow client was answered after {took:?}");
    assert!(answer.starts_with("HTTP/1.1 408 "), "{answer}");
    assert!(
        took < Duration::from_secs(9),
        "the slow client held on {took:?}"
    );
    drop(idle);
}

/// Bare LF line ends are read; a head cut off by the client's end, two `Host` headers and
/// other methods are refused at once; `HEAD` gets the headers alone.
#[test]
fn odd_heads_are_answered_at_once() {
    let server = serve(&shipped("7stud-hu.strat"));
    let addr = addr(&server.url);
    let quick = Duration::from_secs(3);
    let (lf, took) = exchange(
        &addr,
        format!("GET /style.css HTTP/1.1\nHost: {addr}\n\n").as_bytes(),
        false,
        quick,
    );
    assert!(
        lf.starts_with("HTTP/1.1 200 OK\r\n") && took < quick,
        "{lf}"
    );
    let cut = format!("GET / HTTP/1.1\r\nHost: {addr}\r\n");
    let (answer, _) = exchange(&addr, cut.as_bytes(), true, quick);
    assert!(
        answer.starts_with("HTTP/1.1 400 ") && answer.contains("blank line"),
        "{answer}"
    );
    let two = format!("GET / HTTP/1.1\r\nHost: {addr}\r\nHost: evil.example\r\n\r\n");
    let (answer, _) = exchange(&addr, two.as_bytes(), false, quick);
    assert!(
        answer.starts_with("HTTP/1.1 400 ") && answer.contains("Host"),
        "{answer}"
    );
    let (answer, _) = exchange(
        &addr,
        format!("POST / HTTP/1.1\r\nHost: {addr}\r\n\r\n").as_bytes(),
        false,
        quick,
    );
    assert!(answer.starts_with("HTTP/1.1 405 "), "{answer}");
    let (head, _) = exchange(
        &addr,
        format!("HEAD /style.css HTTP/1.1\r\nHost: {addr}\r\n\r\n").as_bytes(),
        false,
        quick,
    );
    let (whole, _) = exchange(&addr, get(&addr, "/style.css").as_bytes(), false, quick);
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
/// once (never a wait for the deadline, never a dropped connection), and the server lives:
/// proptest's cases against one server (a runner inside the test, so that the server is
/// stopped when the test ends).
#[test]
fn any_bytes_get_a_status_line_at_once() {
    let server = serve(&shipped("7stud-hu.strat"));
    let addr = addr(&server.url);
    let mut runner = proptest::test_runner::TestRunner::default();
    runner
        .run(&hostile_head(), |head| {
            let (answer, took) = exchange(&addr, &head, true, Duration::from_secs(4));
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
            prop_assert!(took < Duration::from_secs(3), "{:?}", took);
            Ok(())
        })
        .unwrap();
}

/// The address takes the notation `stud query --help` teaches, every spelling of it: words
/// (`complete`, `c`, `b`), `|` between streets, and answers with the page's own codes.
#[test]
fn a_spot_in_query_notation_is_answered_as_the_page_writes_it() {
    let server = serve(&shipped("7stud-hu.strat"));
    let addr = addr(&server.url);
    let words = "/api/node?spot=3c%20Kd%20pb%20complete%20c%20%7C%205c%202s%20b";
    let codes = "/api/node?spot=3c+Kd+pb+cbr5+cc+5c+2s+cbr5";
    let (a, _) = exchange(
        &addr,
        get(&addr, words).as_bytes(),
        false,
        Duration::from_secs(30),
    );
    let (b, _) = exchange(
        &addr,
        get(&addr, codes).as_bytes(),
        false,
        Duration::from_secs(30),
    );
    assert!(a.starts_with("HTTP/1.1 200"), "{a}");
    let body = |s: &str| s[s.find("\r\n\r\n").unwrap() + 4..].to_string();
    let (a, b): (serde_json::Value, serde_json::Value) = (
        serde_json::from_str(&body(&a)).unwrap(),
        serde_json::from_str(&body(&b)).unwrap(),
    );
    assert_eq!(a["spot"], "3c Kd pb cbr5 cc 5c 2s cbr5", "{a}");
    assert_eq!(a, b);
}
