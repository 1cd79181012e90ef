//! `stud replay`: replays a PHH hand history through the rules engine, checking every action.

use abstraction::phh::{self, hands_of, HandHistory, HandText, PhhAction, Replay, ReplayError};
use abstraction::rules::seat_name;
use abstraction::rules::{Action, Next, Profile};
use std::path::PathBuf;

/// Replay PHH hand histories, checking every deal and action against the rules.
#[derive(clap::Args)]
#[command(
    after_help = "Examples:\n  stud simulate --game 7stud --hands 3 --out hands/\n  \
stud replay hands/0.phh hands/1.phh hands/2.phh\n  \
yes 2 | stud play call --game 7stud --hands 2 --save session.phhs > /dev/null\n  \
stud replay session.phhs --json | jq '.[].payoffs'\n  \
stud replay hands/0.phh --rules pokerkit\n\n\
Prints, for each hand, the cards dealt, for each decision the action's number in the file's \
`actions`, the seat to act and its legal actions with amounts, the first actor of each street, \
and at the end the pot and each seat's net result. A PHHS file (several hands, each under a \
[n] table, as `stud play --save` writes) replays every hand. Seats are printed as in PHH (p1 is \
the first seat); in --json they are 0-based, and several hands make a JSON array. A hand that \
breaks the card-room rules but follows PokerKit's says so: replay it with --rules pokerkit."
)]
pub struct Args {
    /// The PHH or PHHS files.
    #[arg(required = true)]
    pub files: Vec<PathBuf>,
    /// The rules to replay under.
    #[arg(long, value_enum, default_value_t = Rules::CardRoom)]
    pub rules: Rules,
    /// `--json`.
    #[command(flatten)]
    pub output: super::args::Output,
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

/// Runs the command: every hand of every file; a hand that fails is reported and the others
/// still replayed, the exit status failing at the end.
pub fn run(args: Args) -> anyhow::Result<()> {
    let profile = Profile::from(args.rules);
    let mut json = Vec::new();
    let mut failed = 0;
    let mut count = 0;
    for file in &args.files {
        let text = solver::input::read_text(file, solver::input::PHH)?;
        for h in hands_of(&text) {
            count += 1;
            let name = match h.name {
                Some(n) => format!("{} [{n}]", file.display()),
                None => file.display().to_string(),
            };
            match replay_one(&h, profile) {
                Ok((hand, r)) => {
                    if args.output.json {
                        json.push(to_json(&hand, &r, profile));
                    } else {
                        if args.files.len() > 1 || h.name.is_some() {
                            println!("=== {name}");
                        }
                        print_text(&hand, &r, profile, h.offset);
                    }
                }
                Err(e) => {
                    failed += 1;
                    eprintln!("error: {name}: {e:#}");
                }
            }
        }
    }
    if args.output.json {
        let v = match <[serde_json::Value; 1]>::try_from(json) {
            Ok([one]) => one,
            Err(many) => serde_json::Value::Array(many),
        };
        println!("{}", serde_json::to_string_pretty(&v)?);
    }
    if failed > 0 {
        anyhow::bail!("{failed} of {count} hands do not replay");
    }
    Ok(())
}

/// Reads and replays one hand. A refused action is named by its number in `actions` (PokerKit
/// writes them all on one line) and the file's line; a hand refused by the card-room rules that
/// PokerKit's accept gets the hint.
fn replay_one(h: &HandText, profile: Profile) -> anyhow::Result<(HandHistory, Replay)> {
    let at = |line: usize| h.file_line(line);
    let hand = HandHistory::parse(h.text)
        .map_err(|e| anyhow::anyhow!("line {}: `{}`: {}", at(e.line), e.text, e.reason))?;
    let r = match phh::replay(&hand, profile) {
        Ok(r) => r,
        Err(ReplayError::Line { line, text, reason }) => {
            let number = hand
                .actions
                .iter()
                .position(|a| a.line == line && a.action.to_string() == text)
                .map_or(String::new(), |i| {
                    format!("action {} of {}, ", i + 1, hand.actions.len())
                });
            let hint =
                if profile == Profile::CardRoom && phh::replay(&hand, Profile::PokerKit).is_ok() {
                    " (the hand follows PokerKit's rules: replay it with --rules pokerkit)"
                } else {
                    ""
                };
            anyhow::bail!("{number}line {}: `{text}`: {reason}{hint}", at(line));
        }
        Err(e) => return Err(e.into()),
    };
    Ok((hand, r))
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

fn print_text(hand: &HandHistory, r: &Replay, profile: Profile, offset: usize) {
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
        println!("bring-in: {} ({how})", seat_name(s));
    }
    print_dealt(hand);
    // The k-th decision is the k-th betting action of the file, replayed in order.
    let numbers: Vec<usize> = hand
        .actions
        .iter()
        .enumerate()
        .filter(|(_, a)| a.action.bet().is_some())
        .map(|(i, _)| i + 1)
        .collect();
    let mut street = usize::MAX;
    for (k, dec) in r.decisions.iter().enumerate() {
        if dec.street != street {
            street = dec.street;
            let first = r.first_actors[street].map_or("-".into(), |s| seat_name(s).to_string());
            println!("{}: first to act {first}", d.street_name(street));
        }
        let legal: Vec<String> = dec.legal.iter().map(Action::to_string).collect();
        // The action's number in `actions`: PokerKit writes them all on one line.
        let number = numbers.get(k).map_or("?".into(), |n| n.to_string());
        println!(
            "  action {number:>3} (line {:>3})  {}  legal: {:<28} took: {}",
            dec.line + offset,
            seat_name(dec.seat),
            legal.join(" | "),
            dec.taken
        );
    }
    print_result(r);
    let stacks: Vec<String> = r.final_stacks.iter().map(u64::to_string).collect();
    println!("final stacks: {}", stacks.join(", "));
}

/// The text answer's line of the cards the hand history deals, seat by seat and on the board.
fn print_dealt(hand: &HandHistory) {
    let dealt: Vec<String> = hand
        .actions
        .iter()
        .filter(|a| {
            matches!(
                a.action,
                PhhAction::DealHole { .. } | PhhAction::DealBoard(_)
            )
        })
        .map(|a| match &a.action {
            PhhAction::DealHole { seat, cards } => format!(
                "{}: {}",
                seat_name(*seat),
                cards
                    .iter()
                    .map(|c| c.map_or("??".into(), |c| c.to_string()))
                    .collect::<Vec<_>>()
                    .join(" ")
            ),
            other => format!("board: {other}"),
        })
        .collect();
    if !dealt.is_empty() {
        println!("dealt: {}", dealt.join("; "));
    }
}

/// The text answer's pots, result (who won what, or why it is not known) and mucked hands.
fn print_result(r: &Replay) {
    for (i, p) in r.pots.iter().enumerate() {
        let who: Vec<String> = (0..16usize)
            .filter(|s| p.eligible & (1 << s) != 0)
            .map(|s| seat_name(s).to_string())
            .collect();
        let name = if i == 0 { "main pot" } else { "side pot" };
        println!("{name}: {} (contested by {})", p.amount, who.join(" "));
    }
    match &r.payoffs {
        Some(p) => {
            let net: Vec<String> = p
                .iter()
                .enumerate()
                .map(|(s, v)| format!("{} {v:+}", seat_name(s)))
                .collect();
            println!("net: {}", net.join(", "));
        }
        None if r.state.next() == Next::Over => {
            println!("the hand is over, but a live hand at showdown is not known (`??`): no result")
        }
        None => println!("the hand history stops before the end of the hand"),
    }
    if !r.mucked.is_empty() {
        let who: Vec<String> = r.mucked.iter().map(|s| seat_name(*s).to_string()).collect();
        println!("mucked: {}", who.join(" "));
    }
}
