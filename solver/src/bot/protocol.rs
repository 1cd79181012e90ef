//! The bot protocol: one JSON request per line, one JSON reply per line (docs/protocol.md).
//!
//! A request carries the hand so far as PHH action strings (a betting action in any spelling of
//! `abstraction::rules::notation`: `p1 cbr 5`, `p1 cbr5`, `p1 raise`); the server replays them
//! through the rules engine, asks its player for a policy at the decision they lead to, and
//! replies with the legal actions, their probabilities and one action drawn from them. Seats are
//! 0-based indices in JSON (`"seat": 0` is `p1`) and `p1`..`pN` in every string. Every failure
//! (a line that is not JSON, too long, an illegal history, not the asking seat's turn) gets an
//! error reply naming the problem, and the server reads on.

use super::{sample, Answer, Bet, Player};
use crate::resolve::{Budget, Report, ResolvingPlayer, Stop};
use abstraction::phh::{parse_any_action, replay, ActionLine, HandHistory};
use abstraction::rules::seat_name;
use abstraction::rules::{Action, Deal, GameDef, Next, Profile, State};
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;
use serde_json::{json, Value};
use std::borrow::Cow;
use std::io::{self, BufRead, Write};
use std::sync::atomic::AtomicBool;
use std::time::Duration;

/// The longest request line read, in bytes (newline excluded); longer ones get an error reply.
pub const MAX_LINE: usize = 64 * 1024;

/// The most characters of one quoted piece of the client's input an error message repeats: a
/// longer piece is cut to this many and followed by its length, so that a huge bad action costs
/// the client (and a log) a short line, not its own size again.
pub const ECHO_CHARS: usize = 200;

/// The most characters of an error message: the last guard when the input's own quote marks
/// defeat [`ECHO_CHARS`]'s clipping of quoted pieces.
pub const MAX_MESSAGE: usize = 1000;

/// A request, as JSON.
#[derive(serde::Deserialize)]
#[serde(deny_unknown_fields)]
struct Request {
    /// Echoed in the reply, whatever it is.
    #[serde(default)]
    id: Value,
    /// The seat asking (0-based: `p1` is seat 0); it must be the seat to act. Optional.
    seat: Option<u8>,
    /// The hand so far: PHH action strings, deals included.
    actions: Vec<String>,
    /// Seeds the draw of the sampled action (otherwise the connection's generator draws it).
    seed: Option<u64>,
    /// Re-solve the last street within this budget (a server with a strategy file only).
    resolve: Option<ResolveRequest>,
}

/// A request's re-solving budget: `{"iterations": N}` or `{"ms": N}`.
#[derive(serde::Deserialize)]
#[serde(deny_unknown_fields)]
struct ResolveRequest {
    iterations: Option<u64>,
    ms: Option<u64>,
}

impl ResolveRequest {
    /// The budget asked for, within the server's `limits`.
    fn budget(&self, limits: &ResolveLimits) -> Result<Budget, String> {
        match (self.iterations, self.ms) {
            (Some(0), None) => Err("resolve: at least 1 iteration".into()),
            (Some(n), None) if n > limits.max_iterations => Err(format!(
                "resolve: {n} iterations is more than this server's limit of {} \
                 (--max-resolve-iterations)",
                limits.max_iterations
            )),
            (Some(n), None) => Ok(Budget::Iterations(n)),
            (None, Some(0)) => Err("resolve: at least 1 ms".into()),
            (None, Some(ms)) if ms > limits.max_millis => Err(format!(
                "resolve: {ms} ms is more than this server's limit of {} ms (--max-resolve-ms)",
                limits.max_millis
            )),
            (None, Some(ms)) => Ok(Budget::Millis(ms)),
            _ => Err(r#"resolve: give one of {"iterations": N} or {"ms": N}"#.into()),
        }
    }
}

/// The most a server's re-solves may cost: what a request may ask, and how long any re-solve's
/// iterations may run whatever it asked (a re-solve past it is stopped with an error reply).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ResolveLimits {
    /// The most iterations a request's `{"iterations": N}` may ask.
    pub max_iterations: u64,
    /// The most milliseconds a request's `{"ms": N}` may ask, and the longest any re-solve's
    /// iterations run (a budget in iterations too).
    pub max_millis: u64,
}

/// The default of [`ResolveLimits::max_iterations`]: ten times the most iterations any
/// measurement of docs/notes/resolve.md found worth running; the time limit usually comes first.
pub const DEFAULT_MAX_RESOLVE_ITERATIONS: u64 = 10_000;

/// The default of [`ResolveLimits::max_millis`]: 10 s, fifty times the protocol's example
/// budget, and a few times the longest a person would wait for a bot.
pub const DEFAULT_MAX_RESOLVE_MS: u64 = 10_000;

impl Default for ResolveLimits {
    fn default() -> ResolveLimits {
        ResolveLimits {
            max_iterations: DEFAULT_MAX_RESOLVE_ITERATIONS,
            max_millis: DEFAULT_MAX_RESOLVE_MS,
        }
    }
}

impl ResolveLimits {
    /// Refuses a budget past the limits (a server's own, from its player's spec), naming the
    /// limit.
    pub fn check(&self, budget: Budget) -> Result<(), String> {
        let asked = match budget {
            Budget::Iterations(n) => ResolveRequest {
                iterations: Some(n),
                ms: None,
            },
            Budget::Millis(ms) => ResolveRequest {
                iterations: None,
                ms: Some(ms),
            },
        };
        asked.budget(self).map(|_| ())
    }

    /// The stop of a re-solve under these limits, cancelled when `cancelled` is set.
    fn stop<'a>(&self, cancelled: Option<&'a AtomicBool>) -> Stop<'a> {
        Stop {
            cancelled,
            limit: Some((Duration::from_millis(self.max_millis), "--max-resolve-ms")),
        }
    }
}

/// Who answers a request line: a worker of the light lane, which answers everything but a
/// re-solve, or one that may re-solve. A server whose workers are all of one kind answers
/// every line in [`Lane::Any`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Lane {
    /// Answers all but a re-solve, which it hands on ([`Handled::Resolve`]).
    Light,
    /// Answers everything.
    Any,
}

/// What [`Server::reply_in`] did with a line.
#[derive(Debug)]
pub enum Handled {
    /// The reply (`None` for a blank line, which gets none).
    Reply(Option<Value>),
    /// The line asks for a re-solve, which the light lane leaves to a worker that may re-solve:
    /// nothing was drawn from the generator.
    Resolve,
}

/// What a server answers with.
pub enum Served {
    /// A player that cannot re-solve (a bot).
    Player(Box<dyn Player>),
    /// A strategy file, played as its blueprint, its last street re-solved where a request
    /// asks, or at every last-street decision when `always` (the server's player is
    /// `FILE:resolve…`, whose budget is the player's).
    Strategy {
        /// The blueprint with its re-solver (boxed: the enum stays small).
        player: Box<ResolvingPlayer>,
        /// Re-solve when the request does not ask.
        always: bool,
    },
}

/// Answers requests for one player in one game.
pub struct Server {
    /// The game: its stakes and stacks (a stud preset; PHH records only stud games).
    pub def: GameDef,
    /// The rules profile the histories are replayed under.
    pub profile: Profile,
    /// The player whose policy is served.
    pub served: Served,
    /// What a request's re-solve may cost.
    pub limits: ResolveLimits,
}

impl Server {
    /// The reply to one request line (without its newline), or `None` for a blank line, which
    /// gets none. Both transports answer through this, so that they agree on what a line is.
    pub fn reply_to_line(&self, line: &[u8], rng: &mut ChaCha8Rng) -> Option<Value> {
        match self.reply_in(line, rng, Lane::Any, None) {
            Handled::Reply(reply) => reply,
            Handled::Resolve => unreachable!("every lane answers a re-solve but the light one"),
        }
    }

    /// [`Server::reply_to_line`] in `lane`, a re-solve cancelled with an error reply when
    /// `cancelled` is set (its client gone).
    pub fn reply_in(
        &self,
        line: &[u8],
        rng: &mut ChaCha8Rng,
        lane: Lane,
        cancelled: Option<&AtomicBool>,
    ) -> Handled {
        if line.iter().all(u8::is_ascii_whitespace) {
            return Handled::Reply(None);
        }
        let stop = self.limits.stop(cancelled);
        match self.respond_in(line, rng, lane, &stop) {
            Some(reply) => Handled::Reply(Some(reply)),
            None => Handled::Resolve,
        }
    }

    /// The reply to one request line (without its newline). `rng` draws the sampled action when
    /// the request carries no seed.
    pub fn respond(&self, line: &[u8], rng: &mut ChaCha8Rng) -> Value {
        let stop = self.limits.stop(None);
        self.respond_in(line, rng, Lane::Any, &stop)
            .expect("every lane answers a re-solve but the light one")
    }

    /// The reply to a line in `lane`, or `None` when the light lane leaves it to another.
    fn respond_in(
        &self,
        line: &[u8],
        rng: &mut ChaCha8Rng,
        lane: Lane,
        stop: &Stop,
    ) -> Option<Value> {
        let text = match std::str::from_utf8(line) {
            Ok(t) => t,
            Err(e) => return Some(error(&Value::Null, format!("the line is not UTF-8: {e}"))),
        };
        let req: Request = match serde_json::from_str(text) {
            Ok(r) => r,
            Err(e) => {
                // Echo the id if the line was at least a JSON object with one.
                let id = serde_json::from_str::<Value>(text)
                    .ok()
                    .and_then(|v| v.get("id").cloned())
                    .unwrap_or(Value::Null);
                return Some(error(&id, format!("not a valid request: {e}")));
            }
        };
        Some(match self.decide(&req, rng, lane, stop) {
            Ok(v) => v,
            Err(Refusal::Resolve) => return None,
            Err(Refusal::Error(msg)) => error(&req.id, msg),
            Err(Refusal::NotDue(msg, due)) => {
                let mut v = error(&req.id, msg);
                if let (Value::Object(v), Value::Object(due)) = (&mut v, due) {
                    v.extend(due);
                }
                v
            }
        })
    }

    /// The reply to a parsed request: the history replayed, the seat checked, the player's
    /// policy there and one action drawn from it.
    fn decide(
        &self,
        req: &Request,
        rng: &mut ChaCha8Rng,
        lane: Lane,
        stop: &Stop,
    ) -> Result<Value, Refusal> {
        let h = HandHistory::for_game(&self.def)
            .ok_or_else(|| format!("PHH cannot record {}", self.def.variant))?;
        let Spot {
            state,
            bets,
            seat,
            legal,
        } = spot(h, &req.actions, self.profile)?;
        if let Some(asked) = req.seat {
            if asked != seat {
                // The request's `seat` is a 0-based index; the player is named as PHH names it.
                return Err(format!(
                    "seat {asked} asked ({}), but it is {}'s turn (seat {seat})",
                    seat_name(asked),
                    seat_name(seat)
                )
                .into());
            }
        }
        let mut probs = [0.0; 8];
        let probs = &mut probs[..legal.len()];
        let (answer, report) =
            self.policy(req, (&state, &bets, seat), &legal, probs, (lane, stop))?;
        let pick = match req.seed {
            Some(s) => sample(probs, &mut ChaCha8Rng::seed_from_u64(s)),
            None => sample(probs, rng),
        };
        let mut reply = json!({
            "id": req.id,
            "seat": seat,
            "street": state.street(),
            "legal": legal.iter().map(|a| a.to_string()).collect::<Vec<_>>(),
            "probs": probs,
            "action": legal[pick].to_string(),
        });
        match answer {
            Answer::Own => {}
            Answer::Fallback => reply["fallback"] = true.into(),
            Answer::Unreached => reply["unreached"] = true.into(),
        }
        if let Some(r) = report {
            reply["resolve"] = serde_json::to_value(r).map_err(|e| e.to_string())?;
        }
        Ok(reply)
    }

    /// The served player's policy at `seat`'s decision (into `probs`, over `legal`), re-solved
    /// when asked and allowed; [`Refusal::Resolve`] when a re-solve is due on the light lane.
    fn policy(
        &self,
        req: &Request,
        (state, bets, seat): (&State, &[Bet], u8),
        legal: &[Action],
        probs: &mut [f64],
        (lane, stop): (Lane, &Stop),
    ) -> Result<(Answer, Option<Report>), Refusal> {
        let failed = |name: &str, e: anyhow::Error| format!("{name}: {e:#}");
        Ok(match &self.served {
            Served::Player(player) => {
                if req.resolve.is_some() && self.def.seats > 2 {
                    return Err(format!(
                        "re-solving is heads-up: this table has {} seats",
                        self.def.seats
                    )
                    .into());
                }
                if req.resolve.is_some() {
                    return Err(format!(
                        "{} cannot re-solve: serve a strategy file to ask for `resolve`",
                        player.name()
                    )
                    .into());
                }
                let answer = player.policy(state, bets, seat, legal, probs);
                (answer.map_err(|e| failed(player.name(), e))?, None)
            }
            Served::Strategy { player, always } => {
                let budget = match &req.resolve {
                    Some(r) => Some(r.budget(&self.limits)?),
                    None => always.then(|| player.budget()),
                };
                // A re-solve (and not the blueprint's answer before its street) is left to a
                // worker that may re-solve, so that no lookup waits behind one.
                let resolves = budget.is_some() && state.street() >= player.root_street(state);
                if resolves && lane == Lane::Light {
                    return Err(Refusal::Resolve);
                }
                match budget {
                    Some(b) => player
                        .policy_within((b, stop), state, bets, seat, legal, probs)
                        .map_err(|e| failed(player.name(), e))?,
                    None => {
                        let blueprint = player.blueprint();
                        let answer = blueprint.policy(state, bets, seat, legal, probs);
                        (answer.map_err(|e| failed(blueprint.name(), e))?, None)
                    }
                }
            }
        })
    }

    /// Serves one client: reads request lines from `input` until it ends and writes one reply
    /// line per request to `out`, flushed. Lines longer than [`MAX_LINE`] are skipped with an
    /// error reply; a request line cut off by the end of input is still answered.
    pub fn serve<R: BufRead, W: Write>(
        &self,
        mut input: R,
        mut out: W,
        rng: &mut ChaCha8Rng,
    ) -> io::Result<()> {
        let mut buf = Vec::with_capacity(1024);
        loop {
            let reply = match read_line(&mut input, &mut buf, MAX_LINE)? {
                Line::End => return Ok(()),
                Line::TooLong(len) => too_long(len),
                Line::Ok => match self.reply_to_line(&buf, rng) {
                    Some(reply) => reply,
                    None => continue,
                },
            };
            serde_json::to_writer(&mut out, &reply)?;
            out.write_all(b"\n")?;
            out.flush()?;
        }
    }
}

/// The betting decision a hand history leads to: what a player is asked ([`Player::policy`]).
pub struct Spot {
    /// The rules engine's state at the decision.
    pub state: State,
    /// The betting so far, by street.
    pub bets: Vec<Bet>,
    /// The seat to act (0-based: `p1` is seat 0).
    pub seat: u8,
    /// Its legal actions, in the rules engine's order.
    pub legal: Vec<Action>,
}

/// Why a hand history leads to no decision.
#[derive(Debug)]
pub enum NoDecision {
    /// The actions do not read or do not replay: the message names the action.
    Refused(String),
    /// The history is fine but no decision is due: the message, and the machine-readable `due`
    /// fields of the protocol's reply (a card owed to a seat, or the hand over with its payoffs).
    NotDue(String, Value),
}

/// Replays `actions` (PHH action strings, deals included, a betting action in any spelling of
/// `abstraction::rules::notation`) on `game` (its stakes and stacks, no
/// actions yet) under `profile`, to the decision they lead to. The one reading of a request's
/// history: the server's, and any library caller's that holds a hand as PHH actions (the
/// Python package); errors are the protocol's messages.
pub fn spot<S: AsRef<str>>(
    mut game: HandHistory,
    actions: &[S],
    profile: Profile,
) -> Result<Spot, NoDecision> {
    let players = game.players();
    for (i, s) in actions.iter().enumerate() {
        let s = s.as_ref();
        let (action, commentary) = parse_any_action(s, players)
            .map_err(|e| NoDecision::Refused(format!("actions[{i}] `{s}`: {e}")))?;
        game.actions.push(ActionLine {
            action,
            commentary,
            line: i + 1,
        });
    }
    let r = replay(&game, profile).map_err(|e| {
        NoDecision::Refused(format!(
            "the history does not replay (line N is actions[N-1]): {e}"
        ))
    })?;
    let bets: Vec<Bet> = r.decisions.iter().map(|d| (d.street, d.taken)).collect();
    let state = r.state;
    match state.next() {
        Next::Act { seat } => Ok(Spot {
            legal: state.legal_actions(),
            state,
            bets,
            seat,
        }),
        other => Err(NoDecision::NotDue(
            format!("no decision is due: {other}"),
            due(&other, state.payoffs()),
        )),
    }
}

/// Why a request got no decision.
enum Refusal {
    /// A plain error.
    Error(String),
    /// The history is fine but leads to no decision: the message, and the `due` fields.
    NotDue(String, Value),
    /// A re-solve, which the light lane does not answer.
    Resolve,
}

impl From<String> for Refusal {
    fn from(msg: String) -> Refusal {
        Refusal::Error(msg)
    }
}

impl From<NoDecision> for Refusal {
    fn from(no: NoDecision) -> Refusal {
        match no {
            NoDecision::Refused(msg) => Refusal::Error(msg),
            NoDecision::NotDue(msg, due) => Refusal::NotDue(msg, due),
        }
    }
}

/// The machine-readable fields of a "no decision is due" reply, from the rules engine's [`Next`]:
/// `"due": "card"` with the `seat` owed it and `face` (`"down"`, `"up"`, `"community"`), or
/// `"due": "over"` with `payoffs` per seat when every live hand is known.
pub fn due(next: &Next, payoffs: Option<Vec<i64>>) -> Value {
    match next {
        Next::Deal { seat, deal } => json!({
            "due": "card",
            "seat": seat,
            "face": match deal {
                Deal::Down => "down",
                Deal::Up => "up",
                Deal::Community => "community",
            },
        }),
        Next::Over => match payoffs {
            Some(p) => json!({ "due": "over", "payoffs": p }),
            None => json!({ "due": "over" }),
        },
        Next::Act { .. } => json!({}),
    }
}

/// An error reply. Every message passes through here, so that none repeats more than a bounded
/// part of the input, whichever layer (JSON, PHH, replay) wrote it.
fn error(id: &Value, message: String) -> Value {
    json!({ "id": id, "error": bound(&message) })
}

/// The error reply to a request line of `len` bytes, longer than [`MAX_LINE`] and not read.
pub fn too_long(len: usize) -> Value {
    error(
        &Value::Null,
        format!("the line is {len} bytes long: the longest request read is {MAX_LINE} bytes"),
    )
}

/// `text`, or when it has more than `keep` characters its first `keep` and `… (N bytes)`.
fn clip(text: &str, keep: usize) -> Cow<'_, str> {
    match text.char_indices().nth(keep) {
        None => Cow::Borrowed(text),
        Some((end, _)) => Cow::Owned(format!("{}… ({} bytes)", &text[..end], text.len())),
    }
}

/// `message` with each piece quoted in backquotes or double quotes (how every layer quotes the
/// input it repeats) clipped to [`ECHO_CHARS`], and the whole to [`MAX_MESSAGE`] characters.
fn bound(message: &str) -> Cow<'_, str> {
    if message.len() <= ECHO_CHARS {
        return Cow::Borrowed(message);
    }
    let mut out = String::with_capacity(message.len().min(2 * MAX_MESSAGE));
    let mut rest = message;
    while let Some(open) = rest.find(['`', '"']) {
        let quote = &rest[open..open + 1];
        out.push_str(&rest[..open + 1]);
        rest = &rest[open + 1..];
        // An unmatched quote quotes to the end.
        let close = rest.find(quote).unwrap_or(rest.len());
        out.push_str(&clip(&rest[..close], ECHO_CHARS));
        out.push_str(&rest[close..(close + 1).min(rest.len())]);
        rest = &rest[(close + 1).min(rest.len())..];
    }
    out.push_str(rest);
    Cow::Owned(clip(&out, MAX_MESSAGE).into_owned())
}

/// What [`read_line`] read.
#[derive(Debug, PartialEq, Eq)]
pub(crate) enum Line {
    /// A line (in the buffer, newline and carriage return dropped).
    Ok,
    /// A line longer than the cap, read to its end and dropped: its length (newline excluded).
    TooLong(usize),
    /// The input ended.
    End,
}

/// Reads one line into `buf`, holding at most `cap` bytes of it: a longer line is consumed to
/// its newline without being stored.
pub(crate) fn read_line<R: BufRead>(
    input: &mut R,
    buf: &mut Vec<u8>,
    cap: usize,
) -> io::Result<Line> {
    buf.clear();
    let (mut any, mut too_long, mut len) = (false, false, 0);
    loop {
        let avail = match input.fill_buf() {
            Ok(a) => a,
            Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
            Err(e) => return Err(e),
        };
        if avail.is_empty() {
            // A last line without its newline ends like any other: a `\r` before the end is
            // dropped, as the TCP framing does.
            if buf.last() == Some(&b'\r') {
                buf.pop();
            }
            return Ok(match (any, too_long) {
                (false, _) => Line::End,
                (true, true) => Line::TooLong(len),
                (true, false) => Line::Ok,
            });
        }
        any = true;
        let (chunk, used, done) = match avail.iter().position(|&b| b == b'\n') {
            Some(i) => (&avail[..i], i + 1, true),
            None => (avail, avail.len(), false),
        };
        len += chunk.len();
        if !too_long && buf.len() + chunk.len() <= cap {
            buf.extend_from_slice(chunk);
        } else {
            too_long = true;
            buf.clear();
        }
        input.consume(used);
        if done {
            if buf.last() == Some(&b'\r') {
                buf.pop();
            }
            return Ok(if too_long {
                Line::TooLong(len)
            } else {
                Line::Ok
            });
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn long_lines_are_dropped_to_their_newline_and_reading_goes_on() {
        let text = format!("{}\nshort\r\n{}", "x".repeat(100), "tail\r");
        let mut input = io::BufReader::with_capacity(7, text.as_bytes());
        let mut buf = Vec::new();
        assert_eq!(
            read_line(&mut input, &mut buf, 10).unwrap(),
            Line::TooLong(100)
        );
        assert_eq!(read_line(&mut input, &mut buf, 10).unwrap(), Line::Ok);
        assert_eq!(buf, b"short");
        assert_eq!(read_line(&mut input, &mut buf, 10).unwrap(), Line::Ok);
        assert_eq!(buf, b"tail");
        assert_eq!(read_line(&mut input, &mut buf, 10).unwrap(), Line::End);
    }

    #[test]
    fn clip_keeps_short_text_and_cuts_long_text_on_a_character() {
        assert_eq!(clip("short", 10), "short");
        assert_eq!(clip("ééééé", 2), "éé… (10 bytes)");
    }

    #[test]
    fn an_error_repeats_a_bounded_part_of_the_input() {
        let big = "x".repeat(10_000);
        // Each quoted piece is cut, and what is not quoted stays whole.
        let e = bound(&format!(
            "actions[0] `p1 {big}`: `{big}` is not an actor: expected p1"
        ))
        .into_owned();
        assert_eq!(
            e,
            format!(
                "actions[0] `p1 {}… (10003 bytes)`: `{}… (10000 bytes)` is not an actor: expected p1",
                &big[..ECHO_CHARS - 3],
                &big[..ECHO_CHARS]
            )
        );
        // serde_json quotes strings with double quotes.
        let e = bound(&format!(
            "invalid type: string \"{big}\", expected a sequence"
        ))
        .into_owned();
        assert!(e.ends_with("… (10000 bytes)\", expected a sequence"), "{e}");
        // Quote marks in the input itself leave the rest unquoted: the whole is capped.
        let e = bound(&format!("`a`{big}`b`")).into_owned();
        assert_eq!(
            e.chars().count(),
            MAX_MESSAGE + "… (10006 bytes)".chars().count()
        );
    }
}
