//! `stud explore`'s server: a strategy browser served on loopback, as a solver GUI is.
//!
//! The page (`page.html`, `app.js`, `style.css`, embedded in the binary: no CDN, works
//! offline) walks a real game's betting tree: it deals the up cards street by street (3rd to
//! 7th; 2nd to 5th in five-card stud), shows the decision's strategy as a hand-class chart and
//! a bucket table, each seat's range reaching the node, the pot and the pot odds, and the `stud
//! query` command of the node; a click on an action goes on. Its one question to the server is
//! `GET /api/node?spot=SPOT`: the spot in `stud query`'s notation (cards and PHH codes),
//! answered with where the hand is (a card due, a decision, the end) and, at a decision, `stud
//! query --ranges --json`'s own answer ([`solver::query::betting::answer_of`]). On a
//! click it asks `GET /api/values?spot=SPOT&hand=CARDS`, `stud query --values --json`'s answer
//! ([`solver::query::values::values_json`]).
//!
//! # Bounds
//! The accepting thread only accepts: [`WORKERS`] threads answer a connection each, so that a
//! slow client or a long node answer (seconds on seventh street) holds one of them, not the
//! server; at most [`QUEUED`] connections wait for one, and one more is answered 503 at once.
//! Each connection asks one thing: a request head of at most [`MAX_HEAD`] bytes, whole within
//! `--read-timeout` of the connection (408 past it, however slowly its bytes come), lines ended by
//! CRLF or a bare LF, `GET` or `HEAD` only, one `Host`, of loopback (so that another site cannot
//! read the strategy through DNS rebinding), a spot of at most [`MAX_SPOT`] steps; then the
//! connection is closed. A bad request gets a 4xx status and a JSON `error` at once; nothing a
//! client sends can stop the server.

use crate::cli::action_words;
use crate::cli::query::spot::{parse_spot, walk, Step, Walked};
use abstraction::betting_tree::BettingNodes;
use abstraction::cards::{Card, CardSet};
use abstraction::rules::seat_name;
use abstraction::rules::{Deal, Next, State};
use anyhow::{bail, Context, Result};
use rand::SeedableRng;
use serde_json::{json, Value};
use solver::bot::StrategyPlayer;
use solver::purify::Purification;
use solver::strategy_file::StrategyFile;
use std::io::{ErrorKind, Read, Write};
use std::net::{TcpListener, TcpStream};
use std::sync::mpsc::{sync_channel, Receiver, TrySendError};
use std::sync::{Arc, Mutex, PoisonError};
use std::time::{Duration, Instant};

/// The largest request head read (request line and headers).
pub const MAX_HEAD: usize = 8192;
/// Threads answering connections: a page asks a few things at once, a browser opens a few
/// connections it may not use, and one slow client holds one thread.
pub const WORKERS: usize = 8;
/// Connections accepted and waiting for a thread at most; one more is answered 503.
pub const QUEUED: usize = 64;
/// The most steps (cards and actions) in a spot: a capped seven-card hand has fewer than 60.
pub const MAX_SPOT: usize = 200;
/// The most samples one values request may ask (`samples=`): some tens of seconds of a worker
/// on third street.
pub const MAX_VALUE_SAMPLES: usize = 20_000;

const PAGE: &str = include_str!("page.html");
const SCRIPT: &str = include_str!("app.js");
const STYLE: &str = include_str!("style.css");

/// The browser's server: the strategy file, played as stored (the ranges' weights).
pub struct Explorer {
    player: StrategyPlayer,
    /// The file's path as the user gave it, for the `stud query` command shown.
    name: String,
    /// `--diff B`: the file compared at each decision, and its path as given.
    other: Option<(StrategyPlayer, String)>,
    /// `--read-timeout`: how long a client may take to send its whole request head, and to
    /// take the answer.
    timeout: Duration,
}

/// An HTTP answer.
struct Reply {
    status: u16,
    kind: &'static str,
    body: Vec<u8>,
}

impl Reply {
    fn json(status: u16, v: &Value) -> Reply {
        Reply {
            status,
            kind: "application/json",
            body: v.to_string().into_bytes(),
        }
    }

    fn error(status: u16, why: &str) -> Reply {
        Reply::json(status, &json!({ "error": why }))
    }

    /// The answer's bytes: the status line and headers, then the body unless `head_only` (a
    /// `HEAD` request's answer, whose `Content-Length` is still the body's).
    fn bytes(&self, head_only: bool) -> Vec<u8> {
        let reason = match self.status {
            200 => "OK",
            400 => "Bad Request",
            403 => "Forbidden",
            404 => "Not Found",
            405 => "Method Not Allowed",
            408 => "Request Timeout",
            431 => "Request Header Fields Too Large",
            503 => "Service Unavailable",
            _ => "Error",
        };
        let mut out = format!(
            "HTTP/1.1 {} {reason}\r\nContent-Type: {}\r\nContent-Length: {}\r\n\
             Cache-Control: no-store\r\nX-Content-Type-Options: nosniff\r\n\
             Content-Security-Policy: default-src 'self'\r\nConnection: close\r\n\r\n",
            self.status,
            self.kind,
            self.body.len()
        )
        .into_bytes();
        if !head_only {
            out.extend_from_slice(&self.body);
        }
        out
    }
}

/// Where a request head ends: the length of its lines before the blank one, which ends the
/// head (`\r\n\r\n`, or with bare LF line ends `\n\n`, or a mix); `None` while it has not come.
fn head_end(head: &[u8]) -> Option<usize> {
    let mut start = 0;
    for (i, &b) in head.iter().enumerate() {
        if b == b'\n' {
            let line = &head[start..i];
            if line.is_empty() || line == b"\r" {
                return Some(start);
            }
            start = i + 1;
        }
    }
    None
}

/// What a request asks, from its head.
#[derive(Debug, PartialEq, Eq)]
struct Head<'a> {
    /// The target's path and its query (after `?`, or empty).
    path: &'a str,
    query: &'a str,
    /// A `HEAD` request: answered without the body.
    head_only: bool,
}

/// Reads a request head (its blank line excluded): the request line and the headers, each
/// ended by CRLF or a bare LF. Refuses (with the reply to send) anything but a `GET` or `HEAD`
/// of one `Host` on this machine's loopback at `port`.
fn parse_head(head: &[u8], port: u16) -> std::result::Result<Head<'_>, Reply> {
    let Ok(head) = std::str::from_utf8(head) else {
        return Err(Reply::error(400, "the request is not UTF-8"));
    };
    let mut lines = head.split('\n').map(|l| l.strip_suffix('\r').unwrap_or(l));
    let mut first = lines.next().unwrap_or("").split(' ');
    let (method, target) = (first.next().unwrap_or(""), first.next().unwrap_or(""));
    let mut hosts = lines
        .filter_map(|l| l.split_once(':'))
        .filter(|(k, _)| k.trim().eq_ignore_ascii_case("host"))
        .map(|(_, v)| v.trim());
    let host = hosts.next();
    if hosts.next().is_some() {
        // Which one a proxy or the browser meant is unknowable: refuse rather than guess.
        return Err(Reply::error(400, "more than one Host header"));
    }
    let allowed = [format!("127.0.0.1:{port}"), format!("localhost:{port}")];
    if !host.is_some_and(|h| allowed.iter().any(|a| a == h)) {
        return Err(Reply::error(
            403,
            "only pages on this machine's loopback may ask",
        ));
    }
    let head_only = match method {
        "GET" => false,
        "HEAD" => true,
        _ => return Err(Reply::error(405, "only GET and HEAD are served")),
    };
    let (path, query) = target.split_once('?').unwrap_or((target, ""));
    Ok(Head {
        path,
        query,
        head_only,
    })
}

/// A spot in the notation of `stud query` (cards; `f`, `c`/`cc`/`call`/`check`, `pb`,
/// `complete`/`bet`/`raise`/`cbr 5`/`cbr5`, a `p2` prefix naming the seat; any case, separated by
/// spaces, `|`, `/` or `,`), as the page and a pasted address write it.
fn parse_steps(spot: &str) -> Result<Vec<Step>> {
    let steps = parse_spot(spot)?;
    if steps.len() > MAX_SPOT {
        bail!("a spot of {} steps: at most {MAX_SPOT}", steps.len());
    }
    Ok(steps)
}

/// Deals the unknown down cards due next.
fn deal_downs(state: &mut State) -> Result<()> {
    while let Next::Deal {
        deal: Deal::Down, ..
    } = state.next()
    {
        state.deal_unknown()?;
    }
    Ok(())
}

/// The seats whose up cards are due before the next decision, in order.
fn due_seats(state: &State) -> Result<Vec<u8>> {
    let mut s = state.clone();
    let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(0);
    let mut seats = Vec::new();
    loop {
        deal_downs(&mut s)?;
        match s.next() {
            Next::Deal {
                deal: Deal::Up,
                seat: Some(seat),
            } => {
                seats.push(seat);
                s.deal_random(&mut rng)?;
            }
            _ => return Ok(seats),
        }
    }
}

/// The cards of a set as a JSON list, best first.
fn cards_json(cards: &[Card]) -> Value {
    cards.iter().map(|c| c.to_string()).collect()
}

impl Explorer {
    /// A browser of `file` (`name`: its path as given, for the commands shown), giving each
    /// client `timeout` to send its request head. Refuses a file that is not a real game's (a
    /// heads-up betting tree or a multiway table).
    pub fn new(file: StrategyFile, name: String, timeout: Duration) -> Result<Explorer> {
        if let StrategyFile::Public(_) = file {
            bail!(
                "{name} stores a public tree (a small game solved exactly): `stud explore` \
                 browses the real games' files (heads-up or multiway); `stud query` reads this one"
            );
        }
        let player = StrategyPlayer::of_file(file, &name).with_purification(Purification::Mixed);
        Ok(Explorer {
            player,
            name,
            other: None,
            timeout,
        })
    }

    /// Compares `file` (`name`: its path as given) with the browsed one at each decision
    /// (`stud explore A --diff B`); refuses a file of another game, card abstraction or tree.
    pub fn with_diff(mut self, file: StrategyFile, name: String) -> Result<Explorer> {
        match (self.player.file(), &file) {
            (StrategyFile::Multiway(a), StrategyFile::Multiway(b)) => {
                solver::strategy_file::multiway::diff::comparable(a, b, &self.name, &name)
            }
            (a, b) => solver::strategy_file::diff::comparable(a, b, &self.name, &name),
        }
        .context("--diff")?;
        let b = StrategyPlayer::of_file(file, &name).with_purification(Purification::Mixed);
        self.other = Some((b, name));
        Ok(self)
    }

    /// Answers connections on `listener` until the process ends, on [`WORKERS`] threads; a
    /// failed connection is told on standard error and the next one served.
    pub fn serve(self, listener: &TcpListener) -> Result<()> {
        let port = listener.local_addr()?.port();
        let me = Arc::new(self);
        let (queue, waiting) = sync_channel::<TcpStream>(QUEUED);
        let waiting = Arc::new(Mutex::new(waiting));
        let mut started = 0;
        for i in 0..WORKERS {
            let (me, waiting) = (Arc::clone(&me), Arc::clone(&waiting));
            let spawned = std::thread::Builder::new()
                .name(format!("explore-{i}"))
                .spawn(move || me.work(&waiting, port));
            match spawned {
                Ok(_) => started += 1,
                Err(e) => eprintln!("stud explore: cannot start thread {i}: {e}"),
            }
        }
        if started == 0 {
            bail!("cannot start any thread to answer requests");
        }
        for conn in listener.incoming() {
            match conn.map(|c| queue.try_send(c)) {
                Ok(Ok(())) => {}
                Ok(Err(TrySendError::Full(mut c))) => {
                    // Every thread busy and the queue full: say so now rather than wait.
                    let _ = c.set_write_timeout(Some(Duration::from_millis(100)));
                    let busy = Reply::error(503, "the server is busy: try again");
                    let _ = c.write_all(&busy.bytes(false));
                }
                Ok(Err(TrySendError::Disconnected(_))) => bail!("every answering thread is gone"),
                Err(e) => eprintln!("stud explore: a connection failed: {e}"),
            }
        }
        Ok(())
    }

    /// A worker: answers the queue's connections one after another.
    fn work(&self, waiting: &Mutex<Receiver<TcpStream>>, port: u16) {
        loop {
            // Held while waiting, so that one idle thread waits on the queue.
            let conn = waiting
                .lock()
                .unwrap_or_else(PoisonError::into_inner)
                .recv();
            let Ok(mut c) = conn else { return };
            if let Err(e) = self.connection(&mut c, port) {
                eprintln!("stud explore: a request failed: {e:#}");
            }
        }
    }

    /// Reads one request from `c`, answers it and closes.
    fn connection(&self, c: &mut TcpStream, port: u16) -> Result<()> {
        let deadline = Instant::now() + self.timeout;
        c.set_write_timeout(Some(self.timeout))?;
        let mut head = Vec::new();
        let mut buf = [0u8; 1024];
        let (reply, head_only) = loop {
            let end = head_end(&head);
            if let Some(end) = end.filter(|&e| e <= MAX_HEAD) {
                break self.request(&head[..end], port);
            }
            if head.len() > MAX_HEAD {
                break (Reply::error(431, "the request head is too long"), false);
            }
            // The deadline is the whole head's, not each read's: a byte a second runs out too.
            let left = deadline.saturating_duration_since(Instant::now());
            if left.is_zero() {
                let why = format!(
                    "the request head did not arrive whole within {:?}",
                    self.timeout
                );
                break (Reply::error(408, &why), false);
            }
            c.set_read_timeout(Some(left))?;
            let n = match c.read(&mut buf) {
                Ok(n) => n,
                Err(e) if matches!(e.kind(), ErrorKind::WouldBlock | ErrorKind::TimedOut) => {
                    continue
                }
                Err(e) if e.kind() == ErrorKind::Interrupted => continue,
                Err(e) => return Err(e.into()),
            };
            if n == 0 {
                if head.is_empty() {
                    return Ok(()); // the client went away before asking
                }
                // The client is done sending: what it sent is all the head there is.
                let why = "the request head ended without its blank line";
                break (Reply::error(400, why), false);
            }
            head.extend_from_slice(&buf[..n]);
        };
        c.write_all(&reply.bytes(head_only))?;
        Ok(())
    }

    /// The answer to a request head (its blank line excluded), and whether it is a `HEAD`
    /// request's (the headers without the body).
    fn request(&self, head: &[u8], port: u16) -> (Reply, bool) {
        let head = match parse_head(head, port) {
            Ok(h) => h,
            Err(reply) => return (reply, false),
        };
        let path = head.path;
        let page = |kind, text: &str| Reply {
            status: 200,
            kind,
            body: text.as_bytes().to_vec(),
        };
        let reply = match path {
            "/" => page("text/html; charset=utf-8", PAGE),
            "/app.js" => page("text/javascript; charset=utf-8", SCRIPT),
            "/style.css" => page("text/css; charset=utf-8", STYLE),
            "/api/node" => {
                let spot = param(head.query, "spot").map(Option::unwrap_or_default);
                match spot.and_then(|s| self.node(&s)) {
                    Ok(v) => Reply::json(200, &v),
                    Err(e) => Reply::error(400, &format!("{e:#}")),
                }
            }
            "/api/values" => match self.values(head.query) {
                Ok(v) => Reply::json(200, &v),
                Err(e) => Reply::error(400, &format!("{e:#}")),
            },
            "/api/drill" => match self.drill(head.query) {
                Ok(v) => Reply::json(200, &v),
                Err(e) => Reply::error(400, &format!("{e:#}")),
            },
            _ => Reply::error(404, "no such page: try /"),
        };
        (reply, head.head_only)
    }

    /// `GET /api/values?spot=SPOT[&hand=CARDS][&samples=N]`: `stud query --values --json`'s
    /// answer at the decision of the spot (estimates of [`solver::values::default_samples`] unless asked, at
    /// most [`MAX_VALUE_SAMPLES`] samples, so that one request holds a worker for seconds, not
    /// hours), and `max_samples`, that most.
    pub fn values(&self, query: &str) -> Result<Value> {
        let spot = param(query, "spot")?.unwrap_or_default();
        let hand = param(query, "hand")?.filter(|h| !h.trim().is_empty());
        let samples = samples_param(query, self.player.file().game().seats.into())?;
        let steps = parse_steps(&spot)?;
        let options = solver::values::Options {
            samples,
            ..Default::default()
        };
        let mut v = solver::query::values::values_json(
            &self.player,
            &steps,
            hand.as_deref(),
            options,
            &|_, _, _| {},
        )?;
        // The most a request may ask, for the page's offer of a sharper estimate.
        v["max_samples"] = MAX_VALUE_SAMPLES.into();
        Ok(v)
    }

    /// `GET /api/drill?seed=N[&pick=CODE][&samples=N]`: the Train tab's spot dealt from the
    /// seed, and with `pick` (a PHH code of the spot's actions) the judgement of that choice
    /// ([`super::train::drill`]). Stateless: the seed deals the same spot every time.
    pub fn drill(&self, query: &str) -> Result<Value> {
        let seed = param(query, "seed")?.context("seed: give the seed of the spot")?;
        let seed =
            (seed.parse::<u64>()).with_context(|| format!("seed: a number, not `{seed}`"))?;
        let pick = param(query, "pick")?;
        let options = solver::values::Options {
            samples: samples_param(query, self.player.file().game().seats.into())?,
            seed,
        };
        super::train::drill(&self.player, seed, pick.as_deref(), options)
    }

    /// Where the spot leads: a card due, a decision (with its strategy), or the end.
    pub fn node(&self, spot: &str) -> Result<Value> {
        let f = self.player.file();
        let def = f.game();
        let steps = parse_steps(spot)?;
        let mut history = Vec::new();
        let mut tokens = Vec::new();
        let state = walk(def, &steps, |state, step| {
            let (token, text) = match step {
                Walked::Card { seat, card } => (
                    card.to_string(),
                    match seat {
                        Some(s) => format!("{} shows {card}", seat_name(s)),
                        None => format!("the community card: {card}"),
                    },
                ),
                Walked::Action { seat, action } => (
                    action.to_string().replace(' ', ""),
                    format!("{}: {}", seat_name(seat), action_words(state, action)),
                ),
            };
            let street = def.street_name(state.street());
            history.push(json!({ "token": token, "street_name": street, "text": text }));
            tokens.push(token);
        })?;
        let spot = tokens.join(" ");
        let seats = 0..def.seats;
        let mut v = json!({
            "file": self.name,
            "game": def.variant.name(),
            "seats": def.seats,
            "spot": spot,
            "history": history,
            "street_name": def.street_name(state.street()),
            "up": seats.clone().map(|s| cards_json(state.up_cards(s))).collect::<Vec<_>>(),
            "folded": seats.clone().filter(|&s| state.folded(s)).collect::<Vec<_>>(),
            "community": cards_json(state.community_cards()),
            "pot": state.pot(),
        });
        match state.next() {
            Next::Over => {
                let payoffs = state.payoffs().unwrap_or_default();
                v["state"] = "over".into();
                v["payoffs"] = payoffs.into();
            }
            Next::Act { .. } => {
                v["state"] = "decision".into();
                self.decision(&state, &spot, &mut v)?;
            }
            Next::Deal { deal, .. } => {
                v["state"] = "deal".into();
                v["community_due"] = matches!(deal, Deal::Community).into();
                let dealt: CardSet = (seats.flat_map(|s| state.up_cards(s).iter()))
                    .chain(state.community_cards())
                    .copied()
                    .collect();
                let deck = def.deck.cards();
                v["due"] = due_seats(&state)?.into();
                v["unseen"] = deck
                    .iter()
                    .filter(|c| !dealt.contains(*c))
                    .map(|c| c.to_string())
                    .collect();
            }
        }
        Ok(v)
    }

    /// Fills in a decision: the query's answer (with its chart and ranges), the pot odds, the
    /// command, the real actions a click takes, and with `--diff` how B differs.
    fn decision(&self, state: &State, spot: &str, v: &mut Value) -> Result<()> {
        let seat = state.to_act().context("a decision with no one to act")?;
        let to_call = state.owed(seat);
        let pot = state.pot();
        v["seat"] = seat.into();
        v["to_call"] = to_call.into();
        v["pot_odds"] = if to_call > 0 {
            (to_call as f64 / (pot + to_call) as f64).into()
        } else {
            Value::Null
        };
        v["command"] = format!(
            "stud query {} \"{spot}\" --ranges --json",
            shell_word(&self.name)
        )
        .into();
        match self.player.file() {
            StrategyFile::Multiway(_) => {
                super::table::decision(&self.player, self.other.as_ref(), spot, v)
            }
            _ => self.betting_decision(state, spot, v),
        }
    }

    /// [`Explorer::decision`]'s answer on a heads-up betting-tree file: `stud query --ranges
    /// --json`'s, the real action of each of the node's choices, and B's rows with `--diff`.
    fn betting_decision(&self, state: &State, spot: &str, v: &mut Value) -> Result<()> {
        // `new` took no public-tree file.
        let f = (self.player.file().betting()).context("a public-tree file")?;
        let q = solver::query::betting::answer_of(&self.player, spot, None, true)?.json();
        // The real action of each of the node's choices: what a click on it appends.
        let node = q["node"].as_u64().context("the query's node")? as u32;
        let legal = state.legal_actions();
        let codes: Vec<String> = if q["capped"] == true {
            q["actions"]
                .as_array()
                .map(|a| {
                    a.iter()
                        .filter_map(|x| x.as_str().map(String::from))
                        .collect()
                })
                .unwrap_or_default()
        } else {
            (0..f.children(node)?.len())
                .map(|c| {
                    f.real_action(node, c, &legal)
                        .unwrap_or(legal[solver::bot::passive(&legal)])
                        .to_string()
                        .replace(' ', "")
                })
                .collect()
        };
        v["next"] = codes.into();
        if let Some((b, name)) = &self.other {
            v["diff"] = super::compare::node_diff(&self.player, b, name, spot, node, &q)?;
        }
        v["query"] = q;
        Ok(())
    }
}

/// The `samples=` of a request: [`solver::values::default_samples`] of the file's `seats` unless given, at
/// most [`MAX_VALUE_SAMPLES`].
fn samples_param(query: &str, seats: usize) -> Result<usize> {
    match param(query, "samples")? {
        None => Ok(solver::values::default_samples(seats)),
        Some(n) => n
            .parse::<usize>()
            .ok()
            .filter(|n| (solver::values::MIN_SAMPLES..=MAX_VALUE_SAMPLES).contains(n))
            .with_context(|| {
                format!(
                    "samples: from {} to {MAX_VALUE_SAMPLES}, not `{n}`",
                    solver::values::MIN_SAMPLES
                )
            }),
    }
}

/// The value of `key` in a URL's query string, decoded (`None`: not given).
fn param(query: &str, key: &str) -> Result<Option<String>> {
    query
        .split('&')
        .filter_map(|kv| kv.split_once('='))
        .find(|(k, _)| *k == key)
        .map(|(_, v)| decode(v))
        .transpose()
}

/// A path as one shell word: quoted unless it is plain.
fn shell_word(s: &str) -> String {
    if s.chars()
        .all(|c| c.is_ascii_alphanumeric() || "/._-+".contains(c))
    {
        s.to_string()
    } else {
        format!("'{}'", s.replace('\'', "'\\''"))
    }
}

/// Decodes a URL query value (`+` a space, `%XX` a byte); refuses a bad escape or non-UTF-8.
fn decode(v: &str) -> Result<String> {
    let b = v.as_bytes();
    let mut out = Vec::with_capacity(b.len());
    let mut i = 0;
    while i < b.len() {
        match b[i] {
            b'+' => out.push(b' '),
            b'%' => {
                let hex = b
                    .get(i + 1..i + 3)
                    .and_then(|h| std::str::from_utf8(h).ok())
                    .and_then(|h| u8::from_str_radix(h, 16).ok())
                    .context("a bad %-escape in the URL")?;
                out.push(hex);
                i += 2;
            }
            x => out.push(x),
        }
        i += 1;
    }
    String::from_utf8(out).context("the URL's spot is not UTF-8")
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The shipped seven-card file's explorer, opened once for every test.
    fn explorer() -> &'static Explorer {
        static E: std::sync::OnceLock<Explorer> = std::sync::OnceLock::new();
        E.get_or_init(|| {
            let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
                .join("../strategies/7stud-hu.strat");
            let f = StrategyFile::open(&path).unwrap();
            Explorer::new(f, "7stud-hu.strat".into(), Duration::from_secs(5)).unwrap()
        })
    }

    fn get(e: &Explorer, target: &str, host: &str) -> Reply {
        let head = format!("GET {target} HTTP/1.1\r\nHost: {host}\r\n");
        e.request(head.as_bytes(), 80).0
    }

    #[test]
    fn odd_requests_get_clear_errors_never_a_panic() {
        let e = explorer();
        let ok = "127.0.0.1:80";
        assert_eq!(get(e, "/", ok).status, 200);
        assert_eq!(get(e, "/app.js", ok).status, 200);
        assert_eq!(get(e, "/nothing", ok).status, 404);
        assert_eq!(get(e, "/", "evil.example:80").status, 403);
        assert_eq!(e.request(b"GET / HTTP/1.1\r\n", 80).0.status, 403);
        assert_eq!(e.request(b"\xff\xfe\r\n", 80).0.status, 400);
        let post = e.request(b"POST / HTTP/1.1\r\nHost: 127.0.0.1:80\r\n", 80);
        assert_eq!(post.0.status, 405);
        let two = b"GET / HTTP/1.1\r\nHost: 127.0.0.1:80\r\nHost: evil.example\r\n";
        assert_eq!(e.request(two, 80).0.status, 400);
        let (head, only) = e.request(b"HEAD / HTTP/1.1\nHost: localhost:80\n", 80);
        assert_eq!((head.status, only), (200, true));
        for bad in [
            "%zz",
            "%e2%82",
            "Xx",
            "3c+8d+cbr",
            "3c+8d+cc",
            "3c+3c",
            "3c+8d+f+cc",
        ] {
            let r = get(e, &format!("/api/node?spot={bad}"), ok);
            assert_eq!(r.status, 400, "{bad}");
            let v: Value = serde_json::from_slice(&r.body).unwrap();
            assert!(
                v["error"].as_str().is_some_and(|s| !s.is_empty()),
                "{bad}: {v}"
            );
        }
        let long = vec!["cc"; MAX_SPOT + 1].join("+");
        assert_eq!(get(e, &format!("/api/node?spot={long}"), ok).status, 400);
    }

    #[test]
    fn the_walk_deals_decides_and_ends() {
        let e = explorer();
        let v = e.node("").unwrap();
        assert_eq!(v["state"], "deal");
        assert_eq!(v["due"], json!([0, 1]));
        assert_eq!(v["unseen"].as_array().unwrap().len(), 52);
        let v = e.node("3c 8d").unwrap();
        assert_eq!(v["state"], "decision");
        assert_eq!(v["next"], json!(["pb", "cbr5"]));
        assert_eq!(v["pot"], 2);
        assert_eq!(
            v["command"],
            "stud query 7stud-hu.strat \"3c 8d\" --ranges --json"
        );
        let v = e.node("3c 8d pb").unwrap();
        assert_eq!(
            (v["to_call"].as_u64(), v["seat"].as_u64()),
            (Some(2), Some(1))
        );
        assert_eq!(v["pot_odds"], 2.0 / 6.0);
        // The chart counts every holding of the player once: C(50, 2).
        assert_eq!(v["query"]["chart"]["holdings"], 1225);
        let rows = v["query"]["chart"]["rows"].as_array().unwrap();
        let trips = &rows[0];
        assert_eq!(
            (trips["class"].as_str(), trips["holdings"].as_u64()),
            (Some("rolled-up trips"), Some(3))
        );
        let v = e.node("3c 8d pb cc").unwrap();
        assert_eq!(v["state"], "deal");
        assert_eq!(v["street_name"], "4th street");
        assert_eq!(v["unseen"].as_array().unwrap().len(), 50);
        let v = e.node("3c 8d pb f").unwrap();
        assert_eq!(v["state"], "over");
        assert_eq!(v["history"][3]["text"], "p2: fold");
        assert_eq!(
            (v["community"].clone(), v["community_due"].clone()),
            (json!([]), Value::Null)
        );
        // A seat prefix is checked on every path of the page, the values' too: p1 brings in.
        let e2 = format!("{:#}", e.node("3c 8d p2 pb").unwrap_err());
        assert!(e2.contains("written for p2"), "{e2}");
        let e2 = format!("{:#}", e.values("spot=3c+8d+p2+pb").unwrap_err());
        assert!(e2.contains("written for p2"), "{e2}");
        assert_eq!(e.node("3c 8d p1 pb").unwrap()["state"], "decision");
    }

    #[test]
    fn a_head_ends_at_its_blank_line_with_either_line_end() {
        let crlf = "GET / HTTP/1.1\r\nHost: x\r\n";
        assert_eq!(
            head_end(format!("{crlf}\r\nrest").as_bytes()),
            Some(crlf.len())
        );
        let lf = "GET / HTTP/1.1\nHost: x\n";
        assert_eq!(head_end(format!("{lf}\n").as_bytes()), Some(lf.len()));
        let mixed = "GET / HTTP/1.1\r\nHost: x\n";
        assert_eq!(
            head_end(format!("{mixed}\r\n").as_bytes()),
            Some(mixed.len())
        );
        assert_eq!(head_end(b"GET / HTTP/1.1\r\nHost: x\r\n"), None);
        assert_eq!(head_end(b"\n"), Some(0));
        let bytes = Reply::error(404, "x").bytes(true);
        assert!(
            bytes.ends_with(b"\r\n\r\n"),
            "{}",
            String::from_utf8_lossy(&bytes)
        );
    }

    proptest::proptest! {
        /// Any bytes as a head get a reply, never a panic: a status the server sends, and a
        /// head that ends where its blank line is.
        #[test]
        fn any_head_gets_a_reply(bytes in proptest::collection::vec(proptest::prelude::any::<u8>(), 0..300),
                                 lines in proptest::collection::vec("[ -~]{0,40}", 0..6)) {
            let e = explorer();
            for head in [bytes, lines.join("\n").into_bytes()] {
                if let Some(end) = head_end(&head) {
                    proptest::prop_assert!(end <= head.len());
                    proptest::prop_assert!(head[end..].starts_with(b"\n") || head[end..].starts_with(b"\r\n"));
                }
                let (reply, _) = e.request(&head, 80);
                proptest::prop_assert!([200, 400, 403, 404, 405].contains(&reply.status));
                proptest::prop_assert!(serde_json::from_slice::<Value>(&reply.body).is_ok() || reply.status == 200);
            }
        }
    }

    #[test]
    fn url_values_are_decoded() {
        assert_eq!(decode("3c+8d%20pb").unwrap(), "3c 8d pb");
        assert!(decode("%4").is_err());
        assert_eq!(shell_word("a b"), "'a b'");
        assert_eq!(
            shell_word("strategies/7stud-hu.strat"),
            "strategies/7stud-hu.strat"
        );
    }

    /// A table's values come about as fast as three seats': the samples fall as the square of
    /// the seats grows, and a request's own `samples=` is taken as given.
    #[test]
    fn tables_sample_fewer_deals_unless_asked() {
        use solver::values::default_samples;
        let by_seats: Vec<usize> = (2..=8).map(default_samples).collect();
        assert_eq!(by_seats, [2000, 2000, 1100, 700, 500, 400, 300]);
        for seats in 4..=8 {
            let cost = default_samples(seats) * seats * seats;
            assert!(cost.abs_diff(2000 * 9) <= 2000, "{seats} seats: {cost}");
        }
        assert_eq!(samples_param("spot=3c", 5).unwrap(), 700);
        assert_eq!(samples_param("spot=3c&samples=2000", 5).unwrap(), 2000);
        let e = samples_param("samples=1", 5).unwrap_err().to_string();
        assert!(e.contains("samples: from 2"), "{e}");
    }
}
