//! `stud info`: print a strategy file's header, or a checkpoint's.

use abstraction::multiway_betting::WithinStreet;
use abstraction::named::Named;
use abstraction::recall::Recall;
use anyhow::Result;
use solver::strategy_file::multiway::MultiwayFile;
use solver::strategy_file::{BettingFile, StrategyFile, TreeKind};
use std::path::PathBuf;

/// Arguments of `stud info`.
#[derive(clap::Args, Debug)]
#[command(after_help = "Examples:\n  stud info strategies/7stud-hu.strat\n  \
                        stud info strategies/7stud-hu.strat --json\n  \
                        stud solve --game 7stud-3p --abstraction tiny --iterations 20 --keep-checkpoint\n  \
                        stud info solves/7stud-3p.strat\n  \
                        stud info solves/7stud-3p.ckpt\n\n\
                        The solve writes a multiway file (three seats) and keeps its checkpoint, \
                        as a solve does with --keep-checkpoint or when it is interrupted (Ctrl-C).\n\n\
                        Every byte of the file is checked against its checksum before anything is \
                        printed: a damaged file is refused.")]
pub struct Args {
    /// The strategy file, or a solve's checkpoint (`.ckpt`).
    pub file: PathBuf,
    /// Accepted for scripts written before every command verified the checksums on opening;
    /// changes nothing.
    #[arg(long, hide = true)]
    pub verify: bool,
    /// `--json`.
    #[command(flatten)]
    pub output: super::args::Output,
}

/// Runs `stud info`.
pub fn run(args: Args) -> Result<()> {
    if let Some(c) = solver::session::checkpoint_info(&args.file)? {
        return info_checkpoint(&args, &c);
    }
    // Opening checks every byte against the checksums (a multiway file's, and rebuilds its
    // betting abstraction).
    let f = StrategyFile::open(&args.file)?;
    let (h, version) = match &f {
        StrategyFile::Multiway(m) => return info_multiway(&args, m),
        StrategyFile::Public(p) => (p.header(), p.format_version()),
        StrategyFile::Betting(b) => (b.header(), b.format_version()),
    };
    if args.output.json {
        let mut v = serde_json::to_value(h)?;
        v["game"] = serde_json::to_value(&h.game)?;
        v["algorithm"] = h.algorithm.name().into();
        v["file"] = args.file.display().to_string().into();
        v["format_version"] = version.into();
        v["verified"] = true.into();
        // A public-tree file recalls nothing.
        let recall = f.betting().map_or(Recall::None, |b| b.recall());
        v["recall"] = recall.name().into();
        // As hex text, as `stud info` prints it: a u64 does not survive every JSON reader.
        v["bucketing"] = h.bucketing.map(|c| format!("{c:016x}")).into();
        println!("{v}");
        return Ok(());
    }
    println!("file:             {}", args.file.display());
    println!("format version:   {version}");
    println!(
        "game:             {} ({} seats, ante {}, bets {}/{})",
        h.game.variant, h.game.seats, h.game.ante, h.game.small_bet, h.game.big_bet
    );
    println!("card abstraction: {}", h.card_abstraction);
    println!("betting:          {}", h.betting.describe());
    println!("algorithm:        {}", h.algorithm.name());
    println!("iterations:       {}", h.iterations);
    match &h.exploitability {
        Some(e) => println!(
            "exploitability:   {:.8} chips/game = {:.4} mbb/game (1 mbb = 0.001 big bets of {})",
            e.chips, e.mbb, h.game.big_bet
        ),
        None => println!("exploitability:   not measured"),
    }
    match h.tree {
        TreeKind::Public => println!(
            "tree:             public tree: {} nodes, {} boards, {} hands, {} infoset-actions",
            h.nodes, h.boards, h.hands, h.slots
        ),
        TreeKind::Betting => println!(
            "tree:             betting tree (role 0 = first to act on each street): {} nodes, \
             {} infoset-actions",
            h.nodes, h.slots
        ),
    }
    println!(
        "probabilities:    {} stored, {} bytes each ({} bytes; the last action of each row is \
         implied)",
        h.stored,
        h.width.bytes(),
        h.width.bytes() * h.stored
    );
    if let Some(betting) = f.betting() {
        print_bucketing(betting, h.game.streets.len());
    }
    if let Some(d) = &h.sampling {
        println!(
            "deals:            {} per iteration ({} in all), seed {}",
            d.batch,
            d.batch * h.iterations,
            d.seed
        );
    }
    println!(
        "checksums:        ok ({})",
        if version >= 4 {
            "every byte of the file"
        } else {
            "the arrays; a version 3 header has only its own checksum"
        }
    );
    Ok(())
}

/// `stud info`'s lines of the bucketing a betting-tree file embeds (a game of `streets`
/// streets) and of what its rows recall.
fn print_bucketing(betting: &BettingFile, streets: usize) {
    let b = betting.bucketing();
    let counts = (0..streets)
        .map(|s| b.buckets(s).to_string())
        .collect::<Vec<_>>()
        .join(", ");
    println!(
        "bucketing:        embedded, size {} ({counts} buckets per street), checksum {:016x}",
        b.size().name,
        b.checksum()
    );
    println!(
        "recall:           {}",
        match betting.recall() {
            Recall::None => "none (a row is the street's bucket)".to_string(),
            r => format!(
                "{} (a row is a key of the street's bucket and earlier streets': {} per \
                 street)",
                r.name(),
                r.keys(&(0..streets).map(|s| b.buckets(s)).collect::<Vec<_>>())
                    .iter()
                    .map(|k| k.to_string())
                    .collect::<Vec<_>>()
                    .join(", ")
            ),
        }
    );
}

/// `stud info` of a multiway strategy file (three to eight seats, `STUDMWSF`).
fn info_multiway(args: &Args, f: &MultiwayFile) -> Result<()> {
    let h = &f.header;
    let streets: Vec<u32> = (0..h.game.streets.len())
        .map(|s| f.buckets.buckets(s))
        .collect();
    let decisions: Vec<usize> = f.betting.street_sizes().iter().map(|s| s.0).collect();
    if args.output.json {
        let mut v = serde_json::to_value(h)?;
        v["game"] = serde_json::to_value(&h.game)?;
        v["file"] = args.file.display().to_string().into();
        v["kind"] = "multiway".into();
        v["seats"] = h.game.seats.into();
        v["buckets"] = serde_json::to_value(&streets)?;
        v["decisions_per_street"] = serde_json::to_value(&decisions)?;
        v["within_street"] = f.betting.within_street.name().into();
        v["multiway_cap"] = f.betting.cap.map(|c| c.name()).into();
        v["infosets"] = f.rows.infosets.into();
        v["file_bytes"] = f.bytes.into();
        let stored = f.stored();
        v["rows"] = serde_json::json!({
            "encoding": stored.encoding,
            "bits": stored.bits,
            "values": stored.values,
            "bytes": stored.bytes,
        });
        v["verified"] = true.into();
        println!("{v}");
        return Ok(());
    }
    println!("file:             {}", args.file.display());
    println!(
        "game:             {} ({} seats, ante {}, bets {}/{})",
        h.game.variant, h.game.seats, h.game.ante, h.game.small_bet, h.game.big_bet
    );
    println!("card abstraction: {}", h.card_abstraction);
    let within = match f.betting.within_street {
        WithinStreet::History => "every action of the street recalled",
        WithinStreet::Position => "a street's betting recalled by position only",
    };
    let cap = f.betting.cap.map_or(String::new(), |c| {
        format!(", {} ({})", c.describe(), c.name())
    });
    println!(
        "betting:          {}{cap}; a tree per street and live seats, entered by {} pot \
         classes (earlier streets' actions forgotten), {within}: {} nodes, decisions per street \
         {decisions:?}",
        h.betting.describe(),
        h.pot_classes,
        h.nodes
    );
    println!("solver:           {}", h.solver);
    println!(
        "iterations:       {} of {} traversals, seed {}",
        h.iterations, h.batch, h.seed
    );
    println!("exploitability:   not computable (NashConv needs the whole game tree)");
    let stored = f.stored();
    println!(
        "probabilities:    {} infosets, {} infoset-actions, {} stored, {} bits each ({}, {} \
         bytes{})",
        f.rows.infosets,
        h.slots,
        stored.values,
        stored.bits,
        stored.encoding,
        stored.bytes,
        match stored.encoding {
            "16bit" => "",
            "4bit" => "; 14ths, the last action of each row implied",
            _ => "; 255ths, the last action of each row implied",
        }
    );
    println!(
        "bucketing:        embedded, size {} ({streets:?} buckets per street), checksum {:016x}",
        f.buckets.heads_up.size().name,
        f.buckets.heads_up.checksum()
    );
    println!("checksums:        ok (every byte of the file)");
    Ok(())
}

/// `stud info` of a checkpoint: its kind and header, every byte verified.
fn info_checkpoint(args: &Args, c: &solver::session::CheckpointInfo) -> Result<()> {
    if args.output.json {
        let mut v = serde_json::json!({
            "file": args.file.display().to_string(),
            "kind": c.what,
            "format_version": c.format,
            "container_version": c.container,
            "verified": true,
        });
        v["header"] = c.header.clone();
        println!("{v}");
        return Ok(());
    }
    println!("file:             {}", args.file.display());
    println!(
        "kind:             {} (resume with stud solve --resume)",
        c.what
    );
    println!(
        "format version:   {} (checkpoint format; container version {})",
        c.format, c.container
    );
    println!("iterations:       {}", c.iterations);
    println!("infoset-actions:  {}", c.slots);
    if let Some(fields) = c.header.as_object() {
        for (k, v) in fields {
            if matches!(k.as_str(), "iterations" | "slots") {
                continue;
            }
            let v = match v {
                serde_json::Value::String(s) => s.clone(),
                // A fraction stored as f32 (the tremble) in the digits it was given with.
                serde_json::Value::Number(x) if x.is_f64() => {
                    let x = format!("{:.6}", x.as_f64().unwrap_or(0.0));
                    x.trim_end_matches('0').trim_end_matches('.').to_string()
                }
                v if k == "game" => format!(
                    "{} ({} seats, ante {}, bets {}/{})",
                    v["variant"].as_str().unwrap_or("?"),
                    v["seats"],
                    v["ante"],
                    v["small_bet"],
                    v["big_bet"]
                ),
                v => v.to_string(),
            };
            println!("{:<18}{v}", format!("{}:", k.replace('_', " ")));
        }
    }
    println!("verified:         every byte matches its checksum");
    Ok(())
}
