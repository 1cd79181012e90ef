//! `stud info`: print a strategy file's header.

use crate::strategy_file::StrategyFile;
use anyhow::Result;
use std::path::PathBuf;

/// Arguments of `stud info`.
#[derive(clap::Args, Debug)]
#[command(after_help = "Examples:\n  stud info strategies/leduc.strat\n  \
                        stud info strategies/leduc.strat --verify --json")]
pub struct Args {
    /// The strategy file.
    pub file: PathBuf,
    /// Also check the checksums of the arrays (reads the whole file).
    #[arg(long)]
    pub verify: bool,
    /// Print the header as JSON.
    #[arg(long)]
    pub json: bool,
}

/// Runs `stud info`.
pub fn run(args: Args) -> Result<()> {
    let f = StrategyFile::open(&args.file)?;
    if args.verify {
        f.verify()?;
    }
    let h = f.header();
    if args.json {
        let mut v = serde_json::to_value(h)?;
        v["game"] = serde_json::to_value(&h.game)?;
        v["algorithm"] = h.algorithm.name().into();
        v["file"] = args.file.display().to_string().into();
        v["format_version"] = crate::container::FORMAT_VERSION.into();
        v["verified"] = args.verify.into();
        println!("{v}");
        return Ok(());
    }
    println!("file:             {}", args.file.display());
    println!("format version:   {}", crate::container::FORMAT_VERSION);
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
    println!(
        "tree:             {} nodes, {} boards, {} hands, {} infoset-actions",
        h.nodes, h.boards, h.hands, h.slots
    );
    if args.verify {
        println!("checksums:        ok");
    }
    Ok(())
}
