//! `stud serve`: a bot or strategy answering the JSON line protocol of docs/protocol.md.

use super::replay::Rules;
use crate::bot::load;
use crate::bot::protocol::Server;
use abstraction::phh::HandHistory;
use abstraction::rules::{GameDef, Profile};
use anyhow::{bail, Context};
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;
use std::io::{BufReader, BufWriter, Write};
use std::net::{SocketAddr, TcpListener};
use std::sync::Arc;

/// Serve a bot or strategy over a JSON line protocol, on stdin/stdout or TCP.
#[derive(clap::Args)]
#[command(after_help = "Example:\n  \
echo '{\"id\":1,\"seat\":1,\"actions\":[\"d dh p1 ????7h\",\"d dh p2 AsKs2c\",\"p2 pb\"]}' | stud serve heuristic\n  \
stud serve heuristic --game razz --listen 127.0.0.1:9000 --seed 7\n\n\
One request per line, one reply per line: see docs/protocol.md. Without --listen the server \
reads standard input and writes standard output until the input ends. With --listen it \
accepts TCP connections on a loopback address (port 0 picks a free one; the address is \
printed as `listening on ADDR`), one thread each. Sampled actions come from a ChaCha8 \
generator seeded with --seed (stream = connection number, from 0), or from the request's own \
`seed`.")]
pub struct Args {
    /// The player: a bot (random, call, raise, heuristic) or a strategy file.
    pub player: String,
    /// The game: a stud preset (7stud, stud8, razz, 5stud), at its stakes and stacks.
    #[arg(long, default_value = "7stud")]
    pub game: String,
    /// Listen on this loopback address and port instead of stdin/stdout.
    #[arg(long)]
    pub listen: Option<SocketAddr>,
    /// The seed of the sampled actions.
    #[arg(long, default_value_t = 0)]
    pub seed: u64,
    /// The rules the histories are replayed under.
    #[arg(long, value_enum, default_value_t = Rules::CardRoom)]
    pub rules: Rules,
}

/// Runs the command.
pub fn run(args: Args) -> anyhow::Result<()> {
    let profile = Profile::from(args.rules);
    let def = GameDef::preset(&args.game)?.with_profile(profile);
    if HandHistory::for_game(&def).is_none() {
        bail!(
            "the protocol speaks PHH, which cannot record {}: serve a stud game",
            def.variant
        );
    }
    let player = load(&args.player, &def)?;
    let server = Arc::new(Server {
        def,
        profile,
        player,
    });
    let rng = |stream: u64| {
        let mut r = ChaCha8Rng::seed_from_u64(args.seed);
        r.set_stream(stream);
        r
    };
    let Some(addr) = args.listen else {
        let stdin = std::io::stdin().lock();
        let stdout = BufWriter::new(std::io::stdout().lock());
        return Ok(server.serve(stdin, stdout, &mut rng(0))?);
    };
    if !addr.ip().is_loopback() {
        bail!("--listen {addr}: the server listens on loopback only (127.0.0.1 or ::1)");
    }
    let listener = TcpListener::bind(addr).with_context(|| format!("cannot listen on {addr}"))?;
    println!("listening on {}", listener.local_addr()?);
    std::io::stdout().flush()?;
    for (n, conn) in listener.incoming().enumerate() {
        let Ok(stream) = conn else { continue };
        let server = Arc::clone(&server);
        let mut rng = rng(n as u64);
        std::thread::spawn(move || {
            let _ = stream.set_nodelay(true);
            let Ok(read) = stream.try_clone() else { return };
            // A client that goes away only ends its own thread.
            let _ = server.serve(BufReader::new(read), BufWriter::new(stream), &mut rng);
        });
    }
    Ok(())
}
