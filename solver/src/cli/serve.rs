//! `stud serve`: a bot or strategy answering the JSON line protocol of docs/protocol.md.

use super::args::seconds;
use super::replay::Rules;
use abstraction::phh::HandHistory;
use abstraction::rules::{GameDef, Profile};
use anyhow::{bail, Context};
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;
use solver::bot::protocol::{
    ResolveLimits, Served, Server, DEFAULT_MAX_RESOLVE_ITERATIONS, DEFAULT_MAX_RESOLVE_MS,
};
use solver::bot::StrategyPlayer;
use solver::bot::BOT_NAMES;
use solver::players::{load, open_strategy};
use solver::resolve::{resolve_spec, Budget, Options, ResolvingPlayer, DEFAULT_PLAYER_ITERATIONS};
use std::io::BufWriter;
#[cfg(unix)]
use std::io::Write;
#[cfg(unix)]
use std::net::TcpListener;
use std::net::{SocketAddr, ToSocketAddrs};
use std::sync::Arc;
use std::time::Duration;

/// Serve a bot or strategy over a JSON line protocol, on stdin/stdout or TCP.
#[derive(clap::Args)]
#[command(after_help = "Example:\n  \
echo '{\"id\":1,\"seat\":1,\"actions\":[\"d dh p1 ????7h\",\"d dh p2 AsKs2c\",\"p2 pb\",\"p1 cbr 5\"]}' | stud serve heuristic\n  \
stud serve heuristic --game razz --listen 127.0.0.1:9000 --seed 7\n  \
stud serve heuristic --game 7stud-3p\n  \
stud serve strategies/7stud-hu.strat:search --listen 127.0.0.1:9000\n\n\
One request per line, one reply per line: see docs/protocol.md. At a table of N seats \
(--game 7stud-3p) the history names p1 to pN and the server answers for whichever seat is to \
act. Without --listen the server \
reads standard input and writes standard output until the input ends. With --listen it \
accepts TCP connections on a loopback address (port 0 picks a free one; the address is \
printed as `listening on ADDR`): one thread waits on every connection, --workers threads \
answer requests and --resolve-workers threads re-solves, however many clients there are. A connection past --max-connections, or \
arriving when the process has no file descriptor left, gets one JSON error line and is closed; \
a connection idle for --idle-timeout, or whose request line takes longer than --read-timeout \
to arrive, is told so and closed. Each is logged on standard error. Sampled actions come from \
a ChaCha8 generator seeded with --seed (stream = connection number, from 0), or from the \
request's own `seed`. A strategy file re-solves the last street where a request asks \
(`\"resolve\": {\"iterations\": 30}` or `{\"ms\": 200}`), and everywhere as FILE:resolve \
(FILE:resolve=N, FILE:resolve=Nms); the reply then carries the re-solve's report. A request may \
ask at most --max-resolve-iterations or --max-resolve-ms, any re-solve runs --max-resolve-ms at \
most, and over TCP a re-solve whose client closes its side of the connection is cancelled.")]
pub struct Args {
    /// The player: a bot (random, call, raise, heuristic) or a strategy file (FILE:mixed,
    /// FILE:pure, FILE:threshold=T say how its rows are played; default threshold=0.15 for the
    /// real games; a final :resolve, :resolve=N or :resolve=Nms re-solves every last street;
    /// :resolve2 the last two, from 6th street; :search the same, 7th street re-solved again
    /// from the 6th street solve's rows (:search-safe bounded by them, `,fallback` keeping
    /// them where the bound does not hold); `,floor=F` after any of them sets the ranges' floor,
    /// `,cold` works their classes out at the re-solve only, not at earlier decisions,
    /// `,range-draws=N` estimates them from N outer rollout draws).
    pub player: String,
    /// `--game`.
    #[command(flatten)]
    pub game: super::args::Game,
    /// Listen on this loopback address and port instead of stdin/stdout: by number
    /// (127.0.0.1:9000, [::1]:9000) or by name (localhost:9000).
    #[arg(long, value_parser = loopback)]
    pub listen: Option<SocketAddr>,
    /// `--seed`.
    #[command(flatten)]
    pub random: super::args::Random,
    /// The rules the histories are replayed under.
    #[arg(long, value_enum, default_value_t = Rules::CardRoom)]
    pub rules: Rules,
    /// With --listen: threads answering requests [default: one per CPU, and at least two for a
    /// strategy file, so that a re-solve never holds the only one].
    #[arg(long, requires = "listen", value_parser = clap::value_parser!(u32).range(1..=1024))]
    pub workers: Option<u32>,
    /// With --listen and a strategy file: threads answering re-solves, apart from --workers so
    /// that no other request waits behind one [default: 2].
    #[arg(long, requires = "listen", value_parser = clap::value_parser!(u32).range(1..=1024))]
    pub resolve_workers: Option<u32>,
    /// The most iterations a request's re-solve may ask (`"resolve": {"iterations": N}`); more
    /// is refused with an error reply naming this flag.
    #[arg(long, default_value_t = DEFAULT_MAX_RESOLVE_ITERATIONS,
          value_parser = clap::value_parser!(u64).range(1..))]
    pub max_resolve_iterations: u64,
    /// The most milliseconds a request's re-solve may ask (`"resolve": {"ms": N}`), and the
    /// longest any re-solve's iterations run: one past it is stopped with an error reply.
    #[arg(long, default_value_t = DEFAULT_MAX_RESOLVE_MS,
          value_parser = clap::value_parser!(u64).range(1..=86_400_000))]
    pub max_resolve_ms: u64,
    /// With --listen: connections open at once at most; one more gets an error line and is
    /// closed.
    #[arg(long, requires = "listen", default_value_t = 10_000,
          value_parser = clap::value_parser!(u32).range(1..))]
    pub max_connections: u32,
    /// With --listen: seconds a connection may go without a request before it is closed.
    #[arg(long, requires = "listen", default_value = "300", value_parser = seconds)]
    pub idle_timeout: Duration,
    /// With --listen: seconds a request line may take to arrive once begun, and a reply to be
    /// read by the client, before the connection is closed.
    #[arg(long, requires = "listen", default_value = "30", value_parser = seconds)]
    pub read_timeout: Duration,
    /// A heads-up seven-card strategy file: compute its 3rd-street bucket table before serving
    /// (every canonical 3rd-street view's bucket, as `stud eval` does), so that 3rd-street
    /// requests look their bucket up instead of rolling it out: the same answers, a 3rd-street
    /// request's median 0.077 -> 0.024 ms, for 10 s more start-up (48 to 62 s on 2 cores at load
    /// 9) and 18 MiB more memory with strategies/7stud-hu.strat (`scripts/bench-serve --street 3
    /// [--warm]`). Pays for a server answering some 200,000 3rd-street requests or more.
    #[arg(long)]
    pub warm: bool,
}

/// The blueprint, with its 3rd-street bucket table computed when `warm` (`--warm`).
fn warmed(mut blueprint: StrategyPlayer, warm: bool) -> StrategyPlayer {
    if warm {
        blueprint.precompute_first_street();
    }
    blueprint
}

/// Runs the command.
pub fn run(args: Args) -> anyhow::Result<()> {
    let profile = Profile::from(args.rules);
    // Without --game a strategy file is served for the game it records, as every other
    // command plays it (a multiway file's table among them).
    let def = match args.game.given() {
        Some(game) => GameDef::preset(game)?,
        None => super::game_for(None, &[&args.player], super::args::DEFAULT_GAME)?,
    }
    .with_profile(profile);
    if HandHistory::for_game(&def).is_none() {
        bail!(
            "the protocol speaks PHH, which cannot record {}: serve a stud game",
            def.variant
        );
    }
    // A strategy file re-solves where a request asks, or always when its spec says `:resolve`;
    // re-solving is heads-up, so at a larger table any player answers as `load` makes it.
    let served = match resolve_spec(&args.player) {
        Some(_) if def.seats > 2 => bail!(
            "`{}`: re-solving is heads-up, and {} has {} seats: serve the player without \
             `:resolve`",
            args.player,
            def.variant,
            def.seats
        ),
        Some(parsed) => {
            let (blueprint, budget, options) = parsed?;
            let blueprint = warmed(open_strategy(blueprint, &def)?, args.warm);
            Served::Strategy {
                player: Box::new(ResolvingPlayer::new(blueprint, budget, options)?),
                always: true,
            }
        }
        // A depth-limited searcher (`:depth=`) is refused by `load` for what it is: the
        // walkable games it plays are not PHH's.
        None if def.seats > 2
            || BOT_NAMES.contains(&args.player.as_str())
            || solver::resolve::depth_player::depth_spec(&args.player).is_some() =>
        {
            Served::Player(load(&args.player, &def)?)
        }
        None => {
            let blueprint = warmed(open_strategy(&args.player, &def)?, args.warm);
            let budget = Budget::Iterations(DEFAULT_PLAYER_ITERATIONS);
            Served::Strategy {
                player: Box::new(ResolvingPlayer::new(blueprint, budget, Options::default())?),
                always: false,
            }
        }
    };
    let limits = ResolveLimits {
        max_iterations: args.max_resolve_iterations,
        max_millis: args.max_resolve_ms,
    };
    if let Served::Strategy {
        player,
        always: true,
    } = &served
    {
        limits
            .check(player.budget())
            .map_err(|e| anyhow::anyhow!("`{}`: {e}", args.player))?;
    }
    let server = Arc::new(Server {
        def,
        profile,
        served,
        limits,
    });
    let rng = |stream: u64| {
        let mut r = ChaCha8Rng::seed_from_u64(args.random.seed);
        r.set_stream(stream);
        r
    };
    let Some(addr) = args.listen else {
        let stdin = std::io::stdin().lock();
        let stdout = BufWriter::new(std::io::stdout().lock());
        return Ok(server.serve(stdin, stdout, &mut rng(0))?);
    };
    listen(server, addr, &args, rng)
}

/// `--listen`: the first loopback address `text` names, by number or by host name.
fn loopback(text: &str) -> Result<SocketAddr, String> {
    let mut addrs = text.to_socket_addrs().map_err(|e| {
        format!("{e}: give an address and port such as 127.0.0.1:9000 or localhost:9000")
    })?;
    addrs.find(|a| a.ip().is_loopback()).ok_or_else(|| {
        "the server listens on loopback only (127.0.0.1, ::1 or localhost)".to_string()
    })
}

/// Serves TCP clients on `addr` until the process ends.
#[cfg(unix)]
fn listen(
    server: Arc<Server>,
    addr: SocketAddr,
    args: &Args,
    rng: impl Fn(u64) -> ChaCha8Rng,
) -> anyhow::Result<()> {
    let listener = TcpListener::bind(addr).with_context(|| format!("cannot listen on {addr}"))?;
    // A re-solve holds its worker for its whole budget (its iterations run on rayon's threads,
    // not on other workers): a server that may re-solve starts two apart for them, so that one
    // client's re-solve never keeps another's answer waiting, and no re-solve a lookup.
    let may_resolve = matches!(server.served, Served::Strategy { .. });
    let workers = match args.workers {
        Some(n) => n as usize,
        None => std::thread::available_parallelism().map_or(1, |n| n.get()),
    };
    let resolve_workers = match args.resolve_workers {
        Some(_) if !may_resolve => {
            bail!(
                "--resolve-workers: {} cannot re-solve: serve a strategy file",
                args.player
            )
        }
        Some(n) => n as usize,
        None if may_resolve => 2,
        None => 0,
    };
    let limits = solver::bot::tcp::Limits {
        workers,
        resolve_workers,
        max_connections: args.max_connections as usize,
        idle_timeout: args.idle_timeout,
        read_timeout: args.read_timeout,
    };
    let local = listener.local_addr()?;
    // Started before the address is printed: a client that reads it finds every worker up.
    let tcp = solver::bot::tcp::start(server, listener, &limits, rng).context("cannot serve")?;
    println!("listening on {local}");
    std::io::stdout().flush()?;
    tcp.run()
}

/// The TCP server waits on its sockets with `poll(2)`, which only Unix systems have.
#[cfg(not(unix))]
fn listen(
    _: Arc<Server>,
    _: SocketAddr,
    _: &Args,
    _: impl Fn(u64) -> ChaCha8Rng,
) -> anyhow::Result<()> {
    bail!("--listen needs a Unix system: serve on standard input and output instead")
}
