//! `stud serve --listen`: the bot protocol over TCP, with every resource bounded.
//!
//! One thread (the caller's) owns the listener and every connection and waits on all of them at
//! once (`mio`: epoll on Linux, kqueue on the BSDs and macOS, so a wait costs what is ready, not
//! what is open); a fixed pool of worker threads, started before the first connection, answers
//! complete request lines. No thread is started per connection, so neither thousands of idle
//! clients nor a limit on threads can stop the server, and an idle one costs a few hundred
//! bytes: the thread count is `workers + resolve_workers + 1` from start to end. Each connection
//! has at most one request with a worker at a time (its replies stay in order, and a client that
//! sends faster than it reads is simply not read), so the queues of requests are bounded by the
//! number of connections.
//!
//! Two lanes: every line goes to the `workers`, which answer all but a re-solve and hand a
//! re-solve on to the `resolve_workers` (when there are any), so that a lookup never waits behind
//! a re-solve, however many clients ask for them. A re-solve is bounded by the server's
//! [`ResolveLimits`](super::protocol::ResolveLimits) and cancelled (an error reply) when its
//! client closes its side of the connection before the reply: the iterations stop at the next
//! one, so a client that gives up frees its worker.
//!
//! What a client may cost is bounded too: a connection past `max_connections`, or one arriving
//! when the process has no file descriptor left, gets one JSON error line and is closed; a
//! connection with no request for `idle_timeout`, or whose request line does not arrive whole
//! (or whose reply is not read) within `read_timeout`, is closed; a line longer than
//! [`MAX_LINE`] is read to its end and dropped, so a connection holds at most [`MAX_LINE`] plus
//! [`READ_CHUNK`] bytes of input. When `accept` fails for another reason the listener is left
//! alone for a growing pause (10 ms to 1 s) instead of being retried at once, which would spin.
//! Each refused, dropped or timed-out connection is logged on standard error (at most
//! [`LOG_LINES_PER_SECOND`] lines a second, then a count of the rest).

use super::protocol::{too_long, Handled, Lane, Server, MAX_LINE};
use mio::net::{TcpListener, TcpStream};
use mio::{Events, Interest, Poll, Token, Waker};
use rand_chacha::ChaCha8Rng;
use serde_json::{json, Value};
use std::collections::HashMap;
use std::fs::File;
use std::io::{self, ErrorKind, Read, Write};
use std::net::SocketAddr;
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc::{channel, Receiver, Sender};
use std::sync::{Arc, Mutex, PoisonError};
use std::time::{Duration, Instant};

/// The limits of a TCP server.
#[derive(Clone, Debug)]
pub struct Limits {
    /// Worker threads answering requests but re-solves; the thread that owns the sockets is one
    /// more.
    pub workers: usize,
    /// Worker threads answering re-solves, apart so that no other request waits behind one; with
    /// none, the `workers` answer them too.
    pub resolve_workers: usize,
    /// Connections open at once at most; one more gets an error line and is closed.
    pub max_connections: usize,
    /// A connection with no request under way for this long is closed.
    pub idle_timeout: Duration,
    /// A request line must arrive whole within this long of its first byte, and a reply be
    /// taken by the client within this long, or the connection is closed.
    pub read_timeout: Duration,
}

/// Log lines written per second at most; the rest are counted and the count logged.
pub const LOG_LINES_PER_SECOND: u32 = 20;

/// Bytes read from a socket at a time.
pub const READ_CHUNK: usize = 16 * 1024;

/// Reads from one connection in one go before the others are looked at again: a client
/// sending a huge line shares the thread with the rest.
const READS_PER_TURN: usize = 16;

/// Connections accepted in one go, for the same reason.
const ACCEPTS_PER_TURN: usize = 256;

/// The first and the longest pause after `accept` fails.
const PAUSE_MIN: Duration = Duration::from_millis(10);
const PAUSE_MAX: Duration = Duration::from_secs(1);

/// Timeouts are checked at most this often: they are minutes or seconds, and each check looks
/// at every connection.
const SWEEP_EVERY: Duration = Duration::from_millis(10);

const LISTENER: Token = Token(0);
const WAKER: Token = Token(1);
/// The token of the first connection; each gets the next, never reused.
const FIRST_CONN: usize = 2;

/// Sets up a server of `server` to the clients of `listener`, its worker threads started: the
/// sampled actions of the `n`-th connection served (from 0) are drawn from `rng(n)`. Fails if
/// no worker thread could be started, or the listener could not be set up. [`TcpServer::run`]
/// then serves.
pub fn start<F: Fn(u64) -> ChaCha8Rng>(
    server: Arc<Server>,
    listener: std::net::TcpListener,
    limits: &Limits,
    rng: F,
) -> io::Result<TcpServer<F>> {
    listener.set_nonblocking(true)?;
    let mut listener = TcpListener::from_std(listener);
    let poll = Poll::new()?;
    poll.registry()
        .register(&mut listener, LISTENER, Interest::READABLE)?;
    let waker = Arc::new(Waker::new(poll.registry(), WAKER)?);
    let (jobs, job_rx) = channel::<Job>();
    let job_rx = Arc::new(Mutex::new(job_rx));
    let (heavy, heavy_rx) = channel::<Job>();
    let heavy_rx = Arc::new(Mutex::new(heavy_rx));
    let (done_tx, done) = channel::<Done>();
    let mut log = Log::new();
    let mut spawn =
        |name: String, queue: &Arc<Mutex<Receiver<Job>>>, hand_on: Option<Sender<Job>>| {
            let (server, queue, done_tx, waker) = (
                Arc::clone(&server),
                Arc::clone(queue),
                done_tx.clone(),
                Arc::clone(&waker),
            );
            let spawned = std::thread::Builder::new()
                .name(name.clone())
                .spawn(move || work(&server, &queue, hand_on.as_ref(), &done_tx, &waker));
            match spawned {
                Ok(_) => true,
                // Fewer workers only make the server slower: go on with those that started.
                Err(e) => {
                    log.line(
                        Instant::now(),
                        format_args!("cannot start thread {name}: {e}"),
                    );
                    false
                }
            }
        };
    let mut resolving = 0;
    for i in 0..limits.resolve_workers {
        resolving += usize::from(spawn(format!("serve-resolve-{i}"), &heavy_rx, None));
    }
    // With no re-solving worker the light ones answer re-solves too.
    let hand_on = (resolving > 0).then_some(heavy);
    let mut started = 0;
    for i in 0..limits.workers {
        started += usize::from(spawn(format!("serve-worker-{i}"), &job_rx, hand_on.clone()));
    }
    if started == 0 {
        return Err(io::Error::other(
            "cannot start any worker thread to answer requests",
        ));
    }
    Ok(TcpServer {
        limits: limits.clone(),
        poll,
        listener,
        can_accept: true,
        jobs,
        done,
        conns: HashMap::new(),
        next_token: FIRST_CONN,
        served: 0,
        rng,
        // Held so that one descriptor can be freed to accept, answer and close a connection
        // when the process has no other left, instead of leaving it waiting unanswered.
        reserve: File::open("/dev/null").ok(),
        pause: Pause::default(),
        log,
        sweep: None,
        again: Vec::new(),
        scratch: vec![0; READ_CHUNK],
    })
}

/// A request line on its way to a worker, with its connection's generator and the flag that
/// cancels a re-solve of it.
struct Job {
    conn: Token,
    line: Vec<u8>,
    rng: ChaCha8Rng,
    cancel: Arc<AtomicBool>,
}

/// A worker's reply line (newline included; empty for a blank line), with the connection's
/// generator given back.
struct Done {
    conn: Token,
    reply: Vec<u8>,
    rng: ChaCha8Rng,
}

/// A worker: answers jobs until the server is gone, handing a re-solve on to `hand_on` when
/// given (a light worker; else it answers everything).
fn work(
    server: &Server,
    jobs: &Mutex<Receiver<Job>>,
    hand_on: Option<&Sender<Job>>,
    done: &Sender<Done>,
    waker: &Waker,
) {
    let lane = if hand_on.is_some() {
        Lane::Light
    } else {
        Lane::Any
    };
    loop {
        // The lock is held while waiting, so that exactly one idle worker waits on the queue.
        let job = jobs.lock().unwrap_or_else(PoisonError::into_inner).recv();
        let Ok(mut job) = job else { return };
        let reply = match answer(server, &mut job, lane) {
            Some(reply) => reply,
            None => {
                let Some(hand_on) = hand_on else {
                    unreachable!("only a light worker hands a line on")
                };
                match hand_on.send(job) {
                    Ok(()) => continue,
                    // The re-solving workers are gone (they live as long as the process):
                    // answer here rather than never.
                    Err(e) => {
                        job = e.0;
                        answer(server, &mut job, Lane::Any).unwrap_or_default()
                    }
                }
            }
        };
        let reply = Done {
            conn: job.conn,
            reply,
            rng: job.rng,
        };
        if done.send(reply).is_err() {
            return;
        }
        // A wake-up fails only on an error of the operating system's; the reply is then taken
        // when the server next wakes for anything else.
        let _ = waker.wake();
    }
}

/// The reply line to a job in `lane` (empty for a blank line), or `None` when the light lane
/// leaves it to a re-solving worker. A panic while answering (a bug in a player) becomes an
/// error reply, so that the client gets its line and the worker lives on.
fn answer(server: &Server, job: &mut Job, lane: Lane) -> Option<Vec<u8>> {
    let handled = catch_unwind(AssertUnwindSafe(|| {
        server.reply_in(&job.line, &mut job.rng, lane, Some(&job.cancel))
    }))
    .unwrap_or_else(|_| {
        Handled::Reply(Some(json!({
            "id": Value::Null,
            "error": "internal error: the server failed on this request (a bug: please report it)",
        })))
    });
    match handled {
        Handled::Reply(reply) => Some(reply.map(json_line).unwrap_or_default()),
        Handled::Resolve => None,
    }
}

/// A JSON value as one line of text.
fn json_line(v: Value) -> Vec<u8> {
    let mut bytes = v.to_string().into_bytes();
    bytes.push(b'\n');
    bytes
}

/// An error reply line with no id: what the server says when it closes a connection of its own
/// accord.
fn notice(message: &str) -> Vec<u8> {
    json_line(json!({ "id": Value::Null, "error": message }))
}

/// One client.
struct Conn {
    stream: TcpStream,
    peer: SocketAddr,
    /// Its number, from 0 in order of acceptance: the stream of its generator, and its name in
    /// the log.
    number: u64,
    /// The generator of the connection's sampled actions; `None` while a worker has its request.
    rng: Option<ChaCha8Rng>,
    /// Set to cancel the re-solve of the request a worker has, when the client closes its side.
    cancel: Arc<AtomicBool>,
    /// Whether a read or a write may make progress: set by the socket's events, cleared when
    /// one would block. (The events come on changes only, so they must be remembered.)
    readable: bool,
    writable: bool,
    /// Bytes read and not yet taken as lines.
    input: Vec<u8>,
    /// The length so far of a line found too long, being read to its end and dropped.
    skipping: Option<usize>,
    /// When the first unfinished line began to arrive.
    line_since: Option<Instant>,
    /// The client closed its side: answer what it sent, then close.
    eof: bool,
    /// Reply bytes to write, and how many are written.
    out: Vec<u8>,
    written: usize,
    /// When the current wait began: for the idle timeout, the last reply written (or the
    /// connection accepted); for a reply being written, when it was ready.
    since: Instant,
}

/// How [`TcpServer::advance`] leaves a connection.
enum Then {
    /// Waiting for its socket (or its timeout).
    Wait,
    /// With a request line for a worker.
    Ask(Vec<u8>),
    /// Finished: the client closed its side and has every reply, or went away.
    Close,
}

/// What a connection's input holds next.
enum Next {
    /// A request line for a worker.
    Request(Vec<u8>),
    /// A reply the server gives itself (to a line too long).
    Reply(Vec<u8>),
    /// Nothing complete: read more.
    More,
}

impl Conn {
    /// When the connection's current wait runs out: `None` while a worker has its request, or
    /// when the timeout is too long for the clock to reach (the flags take any length).
    fn deadline(&self, limits: &Limits) -> Option<Instant> {
        self.rng.as_ref()?;
        if self.written < self.out.len() {
            self.since.checked_add(limits.read_timeout)
        } else if let Some(t) = self.line_since {
            t.checked_add(limits.read_timeout)
        } else {
            self.since.checked_add(limits.idle_timeout)
        }
    }

    /// Takes the next complete line (or the last one, cut off by the end of input) off the
    /// input, with the same framing as the standard-input transport: a `\r` before the newline
    /// is dropped, a line longer than [`MAX_LINE`] is answered with an error and not kept. (A
    /// blank line goes to a worker like any other: [`Server::reply_to_line`] decides.)
    fn next_line(&mut self) -> Next {
        loop {
            let newline = self.input.iter().position(|&b| b == b'\n');
            if let Some(len) = self.skipping {
                match newline {
                    Some(i) => {
                        self.input.drain(..=i);
                        return self.skipped(len + i);
                    }
                    None if self.eof => {
                        let len = len + self.input.len();
                        self.input.clear();
                        return self.skipped(len);
                    }
                    None => {
                        self.skipping = Some(len + self.input.len());
                        self.input.clear();
                        return Next::More;
                    }
                }
            }
            let end = match newline {
                Some(i) => i,
                None if self.input.len() > MAX_LINE => {
                    self.skipping = Some(0);
                    continue;
                }
                None if self.eof && !self.input.is_empty() => self.input.len(),
                None => return Next::More,
            };
            if end > MAX_LINE {
                self.skipping = Some(0);
                continue;
            }
            let mut request: Vec<u8> = self
                .input
                .drain(..(end + 1).min(self.input.len()))
                .collect();
            if request.last() == Some(&b'\n') {
                request.pop();
            }
            if request.last() == Some(&b'\r') {
                request.pop();
            }
            self.line_since = None;
            // A big line's buffer is not kept by a connection that goes idle.
            if self.input.is_empty() && self.input.capacity() > READ_CHUNK {
                self.input = Vec::new();
            }
            return Next::Request(request);
        }
    }

    /// The end of a line found too long, `len` bytes in all.
    fn skipped(&mut self, len: usize) -> Next {
        self.skipping = None;
        self.line_since = None;
        Next::Reply(json_line(too_long(len)))
    }
}

/// The pause of the listener after `accept` failed.
#[derive(Default)]
struct Pause {
    /// The current pause: zero after a success, doubled by each failure up to [`PAUSE_MAX`].
    delay: Duration,
    /// No connection is accepted before this.
    until: Option<Instant>,
}

/// Standard-error log lines, at most [`LOG_LINES_PER_SECOND`] a second: a burst of thousands of
/// timed-out clients costs a few lines and a count, not thousands of lines to read (or to
/// block on, when standard error is a pipe read slowly).
struct Log {
    second: Instant,
    lines: u32,
    suppressed: u64,
}

impl Log {
    fn new() -> Log {
        Log {
            second: Instant::now(),
            lines: 0,
            suppressed: 0,
        }
    }

    fn line(&mut self, now: Instant, message: std::fmt::Arguments) {
        self.tick(now);
        if self.lines < LOG_LINES_PER_SECOND {
            self.lines += 1;
            eprintln!("stud serve: {message}");
        } else {
            self.suppressed += 1;
        }
    }

    /// Starts a new second when one has passed, logging how many lines the last one dropped.
    fn tick(&mut self, now: Instant) {
        if now.duration_since(self.second) >= Duration::from_secs(1) {
            if self.suppressed > 0 {
                eprintln!(
                    "stud serve: ({} more such lines in the last second not shown)",
                    self.suppressed
                );
            }
            *self = Log {
                second: now,
                lines: 0,
                suppressed: 0,
            };
        }
    }

    /// When [`tick`](Self::tick) has a count to log.
    fn deadline(&self) -> Option<Instant> {
        (self.suppressed > 0).then(|| self.second + Duration::from_secs(1))
    }
}

/// A TCP server ready to serve, its workers waiting: see [`start`]. Its state is the thread that
/// owns the sockets.
pub struct TcpServer<F> {
    limits: Limits,
    poll: Poll,
    listener: TcpListener,
    /// Connections may be waiting to be accepted: set by the listener's events, cleared when
    /// `accept` would block.
    can_accept: bool,
    jobs: Sender<Job>,
    done: Receiver<Done>,
    conns: HashMap<Token, Conn>,
    next_token: usize,
    /// Connections served so far: the next one's number.
    served: u64,
    rng: F,
    reserve: Option<File>,
    pause: Pause,
    log: Log,
    /// When the next timeout may run out: no sooner than this is every connection looked at.
    sweep: Option<Instant>,
    /// Connections with more to read than one turn takes.
    again: Vec<Token>,
    scratch: Vec<u8>,
}

impl<F: Fn(u64) -> ChaCha8Rng> TcpServer<F> {
    /// Serves every client until the process ends.
    pub fn run(mut self) -> ! {
        let mut events = Events::with_capacity(1024);
        let mut ready = Vec::new();
        loop {
            let now = Instant::now();
            let wait = if self.again.is_empty() {
                [self.sweep, self.pause.until, self.log.deadline()]
                    .into_iter()
                    .flatten()
                    .min()
                    .map(|t| t.saturating_duration_since(now))
            } else {
                Some(Duration::ZERO)
            };
            if let Err(e) = self.poll.poll(&mut events, wait) {
                if e.kind() != ErrorKind::Interrupted {
                    // Out of kernel memory, say: wait rather than spin, and try again.
                    self.log.line(
                        now,
                        format_args!("waiting on the sockets failed: {e}; waiting 100 ms"),
                    );
                    std::thread::sleep(Duration::from_millis(100));
                }
                continue;
            }
            let now = Instant::now();
            self.log.tick(now);
            ready.clear();
            ready.append(&mut self.again);
            for event in &events {
                match event.token() {
                    LISTENER => self.can_accept = true,
                    WAKER => {}
                    token => {
                        if let Some(conn) = self.conns.get_mut(&token) {
                            // A client that closes its side while a worker has its request no
                            // longer waits for the answer: a re-solve of it stops.
                            if conn.rng.is_none() && (event.is_read_closed() || event.is_error()) {
                                conn.cancel.store(true, Ordering::Relaxed);
                            }
                            // An error or a hang-up shows as the next read or write failing.
                            conn.readable |=
                                event.is_readable() || event.is_read_closed() || event.is_error();
                            conn.writable |=
                                event.is_writable() || event.is_write_closed() || event.is_error();
                            ready.push(token);
                        }
                    }
                }
            }
            while let Ok(done) = self.done.try_recv() {
                self.finish(done, now);
            }
            if self.pause.until.is_some_and(|t| now >= t) {
                // The connections that came during the pause brought no new event.
                self.pause.until = None;
                self.can_accept = true;
            }
            if self.can_accept && self.pause.until.is_none() {
                self.accept(now);
            }
            for &token in &ready {
                self.advance(token, now);
            }
            if self.sweep.is_some_and(|t| now >= t) {
                self.expire(now);
            }
        }
    }

    /// A worker's reply: queue it and move the connection on.
    fn finish(&mut self, done: Done, now: Instant) {
        let Some(conn) = self.conns.get_mut(&done.conn) else {
            return;
        };
        conn.rng = Some(done.rng);
        if !done.reply.is_empty() {
            conn.out = done.reply;
            conn.written = 0;
            conn.since = now;
        }
        self.advance(done.conn, now);
    }

    /// Moves a connection on as far as it goes without waiting: writes what it owes, takes its
    /// next line (reading more as needed), and hands a request to a worker. Closes it when it
    /// is finished (the client closed its side and has every reply, or went away).
    fn advance(&mut self, token: Token, now: Instant) {
        let Some(conn) = self.conns.get_mut(&token) else {
            return;
        };
        // While a worker has its request there is nothing to do.
        let Some(rng) = conn.rng.take() else {
            return;
        };
        let mut reads = 0;
        let then = loop {
            if conn.written < conn.out.len() {
                if !conn.writable {
                    break Then::Wait;
                }
                match conn.stream.write(&conn.out[conn.written..]) {
                    Ok(0) => break Then::Close,
                    Ok(n) => {
                        conn.written += n;
                        if conn.written == conn.out.len() {
                            conn.out.clear();
                            conn.written = 0;
                            conn.since = now;
                        }
                    }
                    Err(e) if e.kind() == ErrorKind::WouldBlock => {
                        conn.writable = false;
                        break Then::Wait;
                    }
                    Err(e) if e.kind() == ErrorKind::Interrupted => {}
                    // The client is gone: nothing to tell it.
                    Err(_) => break Then::Close,
                }
                continue;
            }
            match conn.next_line() {
                Next::Request(line) => break Then::Ask(line),
                Next::Reply(reply) => {
                    conn.out = reply;
                    conn.written = 0;
                    conn.since = now;
                }
                Next::More if conn.eof => break Then::Close,
                Next::More if !conn.readable => break Then::Wait,
                Next::More if reads == READS_PER_TURN => {
                    self.again.push(token);
                    break Then::Wait;
                }
                Next::More => {
                    reads += 1;
                    match conn.stream.read(&mut self.scratch) {
                        Ok(0) => conn.eof = true,
                        Ok(n) => {
                            conn.input.extend_from_slice(&self.scratch[..n]);
                            conn.line_since.get_or_insert(now);
                        }
                        Err(e) if e.kind() == ErrorKind::WouldBlock => conn.readable = false,
                        Err(e) if e.kind() == ErrorKind::Interrupted => {}
                        // Reset by the client: it is gone, nothing to tell it.
                        Err(_) => break Then::Close,
                    }
                }
            }
        };
        match then {
            Then::Wait => {
                conn.rng = Some(rng);
                if let Some(t) = conn.deadline(&self.limits) {
                    self.sweep = Some(self.sweep.map_or(t, |s| s.min(t)));
                }
            }
            Then::Ask(line) => {
                // A client that has already closed its side gets no re-solve either.
                conn.cancel = Arc::new(AtomicBool::new(conn.eof));
                let job = Job {
                    conn: token,
                    line,
                    rng,
                    cancel: Arc::clone(&conn.cancel),
                };
                // The workers live as long as the process; should they all be gone, the
                // connection is closed rather than left waiting forever.
                if self.jobs.send(job).is_err() {
                    self.conns.remove(&token);
                }
            }
            Then::Close => {
                self.conns.remove(&token);
            }
        }
    }

    /// Closes every connection whose wait has run out, and notes when the next may.
    fn expire(&mut self, now: Instant) {
        let mut expired = Vec::new();
        let mut next: Option<Instant> = None;
        for (&token, conn) in &self.conns {
            match conn.deadline(&self.limits) {
                Some(t) if t <= now => expired.push(token),
                Some(t) => next = Some(next.map_or(t, |n| n.min(t))),
                None => {}
            }
        }
        self.sweep = next.map(|t| t.max(now + SWEEP_EVERY));
        for token in expired {
            if let Some(conn) = self.conns.remove(&token) {
                self.close(conn, now);
            }
        }
    }

    /// Closes a connection whose wait has run out, telling the client why when it is reading.
    fn close(&mut self, conn: Conn, now: Instant) {
        let (idle, read) = (
            secs(self.limits.idle_timeout),
            secs(self.limits.read_timeout),
        );
        let (said, logged) = if conn.written < conn.out.len() {
            (
                None,
                format!("its reply not read within {read} s (--read-timeout)"),
            )
        } else if conn.line_since.is_some() {
            let got = conn.skipping.unwrap_or(0) + conn.input.len();
            (
                Some(format!(
                    "the request line did not arrive whole within {read} s ({got} bytes came): \
                     the server closes the connection"
                )),
                format!("a request line not whole within {read} s (--read-timeout)"),
            )
        } else {
            (
                Some(format!(
                    "no request for {idle} s: the server closes the connection"
                )),
                format!("no request for {idle} s (--idle-timeout)"),
            )
        };
        if let Some(said) = said {
            // A last word, as far as the socket takes it now.
            let _ = (&conn.stream).write(&notice(&said));
        }
        self.log.line(
            now,
            format_args!(
                "closed connection {} from {}: {logged}",
                conn.number, conn.peer
            ),
        );
    }

    /// Accepts the connections waiting, a turn's worth at most.
    fn accept(&mut self, now: Instant) {
        for _ in 0..ACCEPTS_PER_TURN {
            match self.listener.accept() {
                Ok((stream, peer)) => {
                    self.pause.delay = Duration::ZERO;
                    self.admit(stream, peer, now);
                }
                Err(e) if e.kind() == ErrorKind::WouldBlock => {
                    self.can_accept = false;
                    return;
                }
                // The client gave up before it was accepted, or a signal came: the next one.
                Err(e)
                    if matches!(
                        e.kind(),
                        ErrorKind::ConnectionAborted | ErrorKind::Interrupted
                    ) => {}
                Err(e) if out_of_descriptors(&e) => {
                    if !self.refuse_with_reserve(now) {
                        return self.wait_to_accept(now, &e);
                    }
                }
                Err(e) => return self.wait_to_accept(now, &e),
            }
        }
    }

    /// Serves a new connection, or refuses it when `max_connections` are open.
    fn admit(&mut self, mut stream: TcpStream, peer: SocketAddr, now: Instant) {
        if self.conns.len() >= self.limits.max_connections {
            let max = self.limits.max_connections;
            return self.refuse(
                stream,
                peer,
                now,
                &format!("the server is full: {max} connections are open (--max-connections)"),
            );
        }
        let token = Token(self.next_token);
        let registered = self.poll.registry().register(
            &mut stream,
            token,
            Interest::READABLE | Interest::WRITABLE,
        );
        if let Err(e) = registered {
            return self.refuse(stream, peer, now, &format!("cannot watch the socket: {e}"));
        }
        self.next_token += 1;
        // Replies are single small writes: send each at once.
        let _ = stream.set_nodelay(true);
        let number = self.served;
        self.served += 1;
        let conn = Conn {
            stream,
            peer,
            number,
            rng: Some((self.rng)(number)),
            cancel: Arc::new(AtomicBool::new(false)),
            // Data may have come before the socket was watched.
            readable: true,
            writable: true,
            input: Vec::new(),
            skipping: None,
            line_since: None,
            eof: false,
            out: Vec::new(),
            written: 0,
            since: now,
        };
        self.conns.insert(token, conn);
        self.advance(token, now);
    }

    /// With no descriptor left for a waiting connection: frees the reserve, accepts it, tells it
    /// so and closes it, then takes the reserve back. False if that did not work either.
    fn refuse_with_reserve(&mut self, now: Instant) -> bool {
        let Some(reserve) = self.reserve.take() else {
            // Descriptors may have been freed since the reserve was lost: take it back for
            // the next time, and pause now.
            self.reserve = File::open("/dev/null").ok();
            return false;
        };
        drop(reserve);
        let refused = match self.listener.accept() {
            Ok((stream, peer)) => {
                self.refuse(
                    stream,
                    peer,
                    now,
                    "the server has no file descriptor free for another connection",
                );
                true
            }
            Err(_) => false,
        };
        self.reserve = File::open("/dev/null").ok();
        refused
    }

    /// Sends a refused connection one error line, logs it and closes it.
    fn refuse(&mut self, stream: TcpStream, peer: SocketAddr, now: Instant, why: &str) {
        // A fresh socket's send buffer takes one short line, so this write does not block.
        let _ = (&stream).write(&notice(&format!("{why}; try again later")));
        self.log
            .line(now, format_args!("refused a connection from {peer}: {why}"));
    }

    /// Stops accepting for a while after `accept` failed, so that a failure that persists (no
    /// memory for a socket, say) costs a try per pause, not a spinning core.
    fn wait_to_accept(&mut self, now: Instant, e: &io::Error) {
        self.pause.delay = (self.pause.delay * 2).clamp(PAUSE_MIN, PAUSE_MAX);
        self.pause.until = Some(now + self.pause.delay);
        self.log.line(
            now,
            format_args!(
                "cannot accept a connection: {e}; trying again in {} ms",
                self.pause.delay.as_millis()
            ),
        );
    }
}

/// The error of `accept` when the process (`EMFILE`) or the system (`ENFILE`) has no file
/// descriptor left.
fn out_of_descriptors(e: &io::Error) -> bool {
    matches!(e.raw_os_error(), Some(libc::EMFILE | libc::ENFILE))
}

/// A duration in seconds, as the flags take it.
fn secs(d: Duration) -> String {
    d.as_secs_f64().to_string()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::bot::{Bet, Player};
    use abstraction::rules::{Action, GameDef, Profile, State};
    use proptest::prelude::*;
    use rand::SeedableRng;

    /// A player with a bug: it panics.
    struct Panics;

    impl Player for Panics {
        fn name(&self) -> &str {
            "panics"
        }
        fn policy(
            &self,
            _: &State,
            _: &[Bet],
            _: u8,
            _: &[Action],
            _: &mut [f64],
        ) -> anyhow::Result<crate::bot::Answer> {
            panic!("a bug in the player")
        }
    }

    #[test]
    fn a_panic_while_answering_becomes_an_error_reply() {
        let def = GameDef::preset("7stud").unwrap();
        let server = Server {
            def,
            profile: Profile::CardRoom,
            served: crate::bot::protocol::Served::Player(Box::new(Panics)),
            limits: Default::default(),
        };
        let line = br#"{"id":1,"actions":["d dh p1 ????7h","d dh p2 AsKs2c"]}"#;
        let mut job = Job {
            conn: Token(3),
            line: line.to_vec(),
            rng: ChaCha8Rng::seed_from_u64(0),
            cancel: Arc::new(AtomicBool::new(false)),
        };
        let reply = answer(&server, &mut job, Lane::Light).expect("a lookup is the light lane's");
        let v: Value = serde_json::from_slice(&reply).unwrap();
        assert!(
            v["error"].as_str().unwrap().contains("internal error"),
            "{v}"
        );
        assert_eq!(reply.last(), Some(&b'\n'));
    }

    fn conn(input: &[u8], eof: bool) -> Conn {
        let listener = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
        let stream = std::net::TcpStream::connect(listener.local_addr().unwrap()).unwrap();
        let peer = stream.local_addr().unwrap();
        Conn {
            stream: TcpStream::from_std(stream),
            peer,
            number: 0,
            rng: Some(ChaCha8Rng::seed_from_u64(0)),
            cancel: Arc::new(AtomicBool::new(false)),
            readable: false,
            writable: false,
            input: input.to_vec(),
            skipping: None,
            line_since: None,
            eof,
            out: Vec::new(),
            written: 0,
            since: Instant::now(),
        }
    }

    /// What `next_line` gives until it needs more: requests as text, replies as `!error`.
    fn lines(c: &mut Conn) -> Vec<String> {
        let mut out = Vec::new();
        loop {
            match c.next_line() {
                Next::Request(r) => out.push(String::from_utf8(r).unwrap()),
                Next::Reply(r) => {
                    let v: Value = serde_json::from_slice(&r).unwrap();
                    out.push(format!("!{}", v["error"].as_str().unwrap()));
                }
                Next::More => return out,
            }
        }
    }

    #[test]
    fn lines_are_framed_as_on_standard_input() {
        let long = "x".repeat(MAX_LINE + 1);
        let text = format!("a\r\n \n{long}\nb\nc");
        let mut c = conn(text.as_bytes(), false);
        let got = lines(&mut c);
        assert_eq!(got.len(), 4, "{got:?}");
        assert_eq!(got[..2], ["a", " "]);
        assert!(got[2].contains(&format!("the line is {} bytes long", MAX_LINE + 1)));
        assert_eq!(got[3], "b");
        // The cut-off last line waits for more, and is taken at the end of input.
        assert_eq!(c.input, b"c");
        c.eof = true;
        assert_eq!(lines(&mut c), ["c"]);
    }

    #[test]
    fn a_long_line_is_dropped_as_it_arrives() {
        let mut c = conn(&vec![b'y'; MAX_LINE + 10], false);
        assert!(lines(&mut c).is_empty());
        assert!(c.input.is_empty(), "a line too long is not kept");
        c.input.extend_from_slice(&[b'y'; 90]);
        assert!(lines(&mut c).is_empty());
        c.input.extend_from_slice(b"\r\nnext\n");
        let got = lines(&mut c);
        assert!(
            got[0].contains(&format!("is {} bytes long", MAX_LINE + 101)),
            "{got:?}"
        );
        assert_eq!(got[1], "next");
    }

    proptest! {
        #[test]
        fn framing_matches_standard_input_however_the_bytes_arrive(
            pieces in prop::collection::vec(
                prop_oneof![
                    4 => prop::collection::vec(any::<u8>(), 0..20),
                    2 => Just(b"\n".to_vec()),
                    1 => Just(b"\r\n".to_vec()),
                    1 => (MAX_LINE - 2..MAX_LINE + 3).prop_map(|n| vec![b'z'; n]),
                ],
                0..12,
            ),
            cuts in prop::collection::vec(any::<prop::sample::Index>(), 0..8),
        ) {
            use crate::bot::protocol::{read_line, Line};
            let bytes = pieces.concat();
            // Standard input's reading of the whole.
            let mut want = Vec::new();
            let (mut reader, mut buf) = (&bytes[..], Vec::new());
            loop {
                match read_line(&mut reader, &mut buf, MAX_LINE).unwrap() {
                    Line::Ok => want.push(buf.clone()),
                    Line::TooLong(len) => want.push(json_line(too_long(len))),
                    Line::End => break,
                }
            }
            // The connection's, with the bytes arriving in pieces.
            let mut at: Vec<usize> = cuts.iter().map(|i| i.index(bytes.len() + 1)).collect();
            at.push(0);
            at.push(bytes.len());
            at.sort_unstable();
            let mut c = conn(b"", false);
            let mut got = Vec::new();
            let mut take = |c: &mut Conn| {
                while let Next::Request(r) | Next::Reply(r) = c.next_line() {
                    got.push(r);
                }
            };
            for w in at.windows(2) {
                c.input.extend_from_slice(&bytes[w[0]..w[1]]);
                take(&mut c);
            }
            c.eof = true;
            take(&mut c);
            prop_assert_eq!(got, want);
        }
    }
}
