//! `stud replay`: replays a PHH hand history through the rules engine, checking every action.

use abstraction::phh::{self, HandHistory, Replay};
use abstraction::rules::{Action, Next, Profile};
use anyhow::Context;
use std::path::PathBuf;

/// Replay a PHH hand history, checking every deal and action against the rules.
#[derive(clap::Args)]
#[command(
    after_help = "Example:\n  stud replay hand.phh --rules pokerkit\n  stud replay hand.phh --json | jq .payoffs\n\n\
Prints, for each decision, the seat to act and its legal actions with amounts, the first actor \
of each street, and at the end the pot and each seat's net result. Seats are printed as in PHH \
(p1 is the first seat); in --json they are 0-based."
)]
pub struct Args {
    /// The PHH file.
    pub file: PathBuf,
    /// The rules to replay under.
    #[arg(long, value_enum, default_value_t = Rules::CardRoom)]
    pub rules: Rules,
    /// Print JSON instead of text.
    #[arg(long)]
    pub json: bool,
}

/// The rules profile to play under, as the command line names it.
#[derive(Clone, Copy, Debug, clap::ValueEnum)]
pub enum Rules {
    /// WSOP / Robert's rules (the default).
    CardRoom,
    /// PokerKit's house rules: no lifted heads-up cap, no open-pair big bet, reshuffle when out
    /// of cards; to replay the hands PokerKit writes.
    Pokerkit,
}

impl From<Rules> for Profile {
    fn from(r: Rules) -> Profile {
        match r {
            Rules::CardRoom => Profile::CardRoom,
            Rules::Pokerkit => Profile::PokerKit,
        }
    }
}

/// Runs the command.
pub fn run(args: Args) -> anyhow::Result<()> {
    let text = crate::input::read_text(&args.file, crate::input::PHH)?;
    let hand = HandHistory::parse(&text).with_context(|| args.file.display().to_string())?;
    let profile = Profile::from(args.rules);
    let r = phh::replay(&hand, profile).with_context(|| args.file.display().to_string())?;
    if args.json {
        println!(
            "{}",
            serde_json::to_string_pretty(&to_json(&hand, &r, profile))?
        );
    } else {
        print_text(&hand, &r, profile);
    }
    Ok(())
}

fn profile_name(p: Profile) -> &'static str {
    match p {
        Profile::CardRoom => "card-room",
        Profile::PokerKit => "pokerkit",
    }
}

fn to_json(hand: &HandHistory, r: &Replay, profile: Profile) -> serde_json::Value {
    let decisions: Vec<_> = r
        .decisions
        .iter()
        .map(|d| {
            serde_json::json!({
                "line": d.line,
                "street": d.street,
                "seat": d.seat,
                "legal": d.legal.iter().map(Action::to_string).collect::<Vec<_>>(),
                "taken": d.taken.to_string(),
            })
        })
        .collect();
    serde_json::json!({
        "variant": phh::variant_code(hand.variant),
        "rules": profile_name(profile),
        "seats": hand.players(),
        "starting_stacks": hand.starting_stacks,
        "bring_in_seat": r.bring_in_seat,
        "opening": r.opening.map(|a| a.to_string()),
        "first_actors": r.first_actors,
        "decisions": decisions,
        "pots": r.pots.iter().map(|p| serde_json::json!({
            "amount": p.amount,
            "eligible": (0..16).filter(|s| p.eligible & (1 << s) != 0).collect::<Vec<u8>>(),
        })).collect::<Vec<_>>(),
        "over": r.state.next() == Next::Over,
        "mucked": r.mucked,
        "final_stacks": r.final_stacks,
        "payoffs": r.payoffs,
    })
}

fn print_text(hand: &HandHistory, r: &Replay, profile: Profile) {
    let d = &r.def;
    println!(
        "{} ({}), {} players, ante {}, bring-in {}, bets {}/{}, {} rules",
        phh::variant_code(hand.variant).unwrap_or("?"),
        d.variant,
        d.seats,
        d.ante,
        d.bring_in,
        d.small_bet,
        d.big_bet,
        profile_name(profile),
    );
    if let Some(s) = r.bring_in_seat {
        let how = match r.opening {
            Some(Action::BringIn) => "brought in",
            Some(_) => "completed",
            None => "did not open",
        };
        println!("bring-in: p{} ({how})", s + 1);
    }
    let mut street = usize::MAX;
    for dec in &r.decisions {
        if dec.street != street {
            street = dec.street;
            let first = r.first_actors[street].map_or("-".into(), |s| format!("p{}", s + 1));
            println!("{}: first to act {first}", d.street_name(street));
        }
        let legal: Vec<String> = dec.legal.iter().map(Action::to_string).collect();
        println!(
            "  line {:>3}  p{}  legal: {:<28} took: {}",
            dec.line,
            dec.seat + 1,
            legal.join(" | "),
            dec.taken
        );
    }
    for (i, p) in r.pots.iter().enumerate() {
        let who: Vec<String> = (0..16)
            .filter(|s| p.eligible & (1 << s) != 0)
            .map(|s| format!("p{}", s + 1))
            .collect();
        let name = if i == 0 { "main pot" } else { "side pot" };
        println!("{name}: {} (contested by {})", p.amount, who.join(" "));
    }
    match &r.payoffs {
        Some(p) => {
            let net: Vec<String> = p
                .iter()
                .enumerate()
                .map(|(s, v)| format!("p{} {v:+}", s + 1))
                .collect();
            println!("net: {}", net.join(", "));
        }
        None if r.state.next() == Next::Over => {
            println!("the hand is over, but a live hand at showdown is not known (`??`): no result")
        }
        None => println!("the hand history stops before the end of the hand"),
    }
    if !r.mucked.is_empty() {
        let who: Vec<String> = r.mucked.iter().map(|s| format!("p{}", s + 1)).collect();
        println!("mucked: {}", who.join(" "));
    }
    let stacks: Vec<String> = r.final_stacks.iter().map(u64::to_string).collect();
    println!("final stacks: {}", stacks.join(", "));
}
