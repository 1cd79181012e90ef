//! `stud simulate`: writes random legal hands as PHH files.

use super::replay::Rules;
use abstraction::phh::{random_hand, with_random_stacks};
use abstraction::rules::{GameDef, Profile};
use anyhow::Context;
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;
use std::path::PathBuf;

/// Write random legal hands (random cards, random legal actions) as PHH files.
#[derive(clap::Args)]
#[command(
    after_help = "Example:\n  stud simulate --game 7stud --seats 6 --hands 1000 --seed 7 --out hands/\n  \
stud replay hands/0.phh\n\nHand i is drawn from its own stream of a ChaCha8 generator seeded with \
--seed, so it is the same whatever --hands is. Files are named 0.phh, 1.phh, ..."
)]
pub struct Args {
    /// `--game`.
    #[command(flatten)]
    pub game: super::args::Game,
    /// Number of players.
    #[arg(long, default_value_t = 2)]
    pub seats: u8,
    /// Chips each player starts with (default: the preset's).
    #[arg(long)]
    pub stack: Option<u64>,
    /// Give about half the players a random short stack (1 chip up to --stack), for all-ins and
    /// side pots.
    #[arg(long)]
    pub short_stacks: bool,
    /// How many hands to write.
    #[arg(long, default_value_t = 100)]
    pub hands: u64,
    /// `--seed`.
    #[command(flatten)]
    pub random: super::args::Random,
    /// The folder to write into (created if missing).
    #[arg(long)]
    pub out: PathBuf,
    /// The rules to play under.
    #[arg(long, value_enum, default_value_t = Rules::CardRoom)]
    pub rules: Rules,
    /// `--json`.
    #[command(flatten)]
    pub output: super::args::Output,
}

/// Runs the command.
pub fn run(args: Args) -> anyhow::Result<()> {
    let preset = GameDef::preset(args.game.name())?.with_profile(Profile::from(args.rules));
    let stack = args
        .stack
        .unwrap_or_else(|| preset.starting_stacks.first().copied().unwrap_or(200));
    let def = preset.with_seats(args.seats, stack);
    def.validate()
        .with_context(|| format!("--stack {stack} for each of {} seats (--seats)", args.seats))?;
    // Refused before the folder is made: a game PHH cannot write leaves nothing behind.
    if abstraction::phh::variant_code(def.variant).is_none() {
        anyhow::bail!(
            "PHH cannot record {}: only the stud games have a variant code (7stud, razz, stud8, \
             5stud)",
            def.variant
        );
    }
    std::fs::create_dir_all(&args.out)
        .with_context(|| format!("cannot create {}", args.out.display()))?;
    let mut showdowns = 0u64;
    for i in 0..args.hands {
        let mut rng = ChaCha8Rng::seed_from_u64(args.random.seed);
        rng.set_stream(i);
        let game = if args.short_stacks {
            with_random_stacks(&def, &mut rng)
        } else {
            def.clone()
        };
        let (mut hand, state) = random_hand(&game, &mut rng)?;
        if (0..game.seats).filter(|&s| !state.folded(s)).count() > 1 {
            showdowns += 1;
        }
        hand.fields
            .push(("hand".into(), toml::Value::Integer(i as i64)));
        hand.fields.push((
            "_seed".into(),
            toml::Value::String(format!("{}:{i}", args.random.seed)),
        ));
        let path = args.out.join(format!("{i}.phh"));
        solver::container::write_bytes(&path, hand.to_string().as_bytes())?;
    }
    if args.output.json {
        println!(
            "{}",
            serde_json::json!({
                "hands": args.hands,
                "showdowns": showdowns,
                "out": args.out,
                "game": def.variant.name(),
                "seats": def.seats,
            })
        );
    } else {
        println!(
            "wrote {} hands of {} for {} players to {} ({showdowns} reached a showdown)",
            args.hands,
            def.variant,
            def.seats,
            args.out.display()
        );
    }
    Ok(())
}
