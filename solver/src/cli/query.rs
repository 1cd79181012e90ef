//! `stud query`: the strategy's action probabilities at a spot.
//!
//! # Spot notation
//! A spot is the public history from the start of the hand: public cards and betting actions in
//! the order they happen, separated by spaces (`|`, `/` and `,` are separators too, for
//! readability). The private cards are not part of the spot: `--hand` names the card of the
//! player to act, else every possible card is listed.
//! - A card: `As`, `Td`, `Qc`: the next public card (an up card, seat 0's before seat 1's, or a
//!   community card).
//! - PHH actions: `f`, `cc`, `pb`, `cbr N` (or `cbrN`): fold, check/call, post the bring-in,
//!   complete/bet/raise to N chips this round. A PHH seat prefix (`p1`, `p2`) is ignored.
//! - Short forms: `x`/`k`/`check`, `c`/`call`, `fold`, `bi`/`bring-in`, `b`/`r`/`bet`/`raise`/
//!   `complete` (when the abstract tree has one bet size there).
//!
//! The real games (betting-tree files) read the same notation, replayed on the rules engine: the
//! spot gives the up cards as they are dealt (on each street seat 0's, then seat 1's) and the
//! betting; down cards are not in the spot. `--hand` gives the down cards of the player to act
//! (`"As Kd"`), and the answer is the row of their bucket; without it, the row of every bucket.
//! Seven-card stud, third street then fourth: `3c 8d pb cc cc | Qs 2h cc cbr10 cc` (seat 0 shows
//! the 3c and brings in, ...).
//!
//! Examples: Leduc `cbr2 cc | Kd | cbr4` (seat 0 bets, seat 1 calls, the king of diamonds comes,
//! seat 0 bets; seat 1 to act); ministud `Ah Kc pb c Qd As` (up cards Ah for seat 0 and Kc for
//! seat 1, seat 1 brings in, seat 0 calls, fourth-street cards; the best showing hand to act).

use crate::strategy_file::{StrategyFile, TreeKind, MAX_ACTIONS};
use abstraction::betting_tree::BettingNodes;
use abstraction::bucketing::CardView;
use abstraction::cards::{parse_distinct_cards, Card, CardSet};
use abstraction::rules::state::Action;
use abstraction::rules::{Deal, Next, State};
use abstraction::tree::{Edge, NodeKind};
use anyhow::{bail, Context, Result};
use std::path::PathBuf;

/// Arguments of `stud query`.
#[derive(clap::Args, Debug)]
#[command(
    after_help = "Examples:\n  stud query strategies/kuhn.strat \"cc cbr1\" --hand Kc\n  \
                        stud query strategies/leduc.strat \"cbr2 cc | Kd | cbr4\" --json\n  \
                        stud query solves/ministud.strat \"Ah Kc pb c Qd As\" --hand Kd\n\n\
                        Spot: public cards and actions in order (PHH f, cc, pb, cbr N; or x, c, b, r, \
                        fold, bi). See the module docs of solver::cli::query."
)]
pub struct Args {
    /// The strategy file.
    pub file: PathBuf,
    /// The spot: the public history (empty for the first decision).
    #[arg(default_value = "")]
    pub spot: String,
    /// The private card of the player to act (default: every possible card).
    #[arg(long)]
    pub hand: Option<String>,
    /// Print JSON.
    #[arg(long)]
    pub json: bool,
}

/// A step of a spot.
#[derive(Clone, Copy, Debug, PartialEq)]
enum Step {
    Card(Card),
    Exact(Action),
    /// `b`/`r`/`bet`/`raise`/`complete`: the only complete/bet/raise of the node.
    AnyRaise,
}

fn parse_spot(spot: &str) -> Result<Vec<Step>> {
    let tokens: Vec<&str> = spot
        .split(|c: char| c.is_whitespace() || "|/,".contains(c))
        .filter(|t| !t.is_empty())
        .collect();
    let mut steps = Vec::new();
    let mut i = 0;
    while i < tokens.len() {
        let t = tokens[i];
        let lower = t.to_ascii_lowercase();
        i += 1;
        let step = match lower.as_str() {
            "f" | "fold" => Step::Exact(Action::Fold),
            "cc" | "x" | "k" | "check" | "c" | "call" => Step::Exact(Action::CheckCall),
            "pb" | "bi" | "bring-in" => Step::Exact(Action::BringIn),
            "b" | "r" | "bet" | "raise" | "complete" => Step::AnyRaise,
            "cbr" => {
                let n = tokens
                    .get(i)
                    .and_then(|x| x.parse().ok())
                    .with_context(|| format!("`cbr` at token {i} needs an amount: `cbr 4`"))?;
                i += 1;
                Step::Exact(Action::CompleteBetRaise(n))
            }
            _ if lower.starts_with("cbr") => Step::Exact(Action::CompleteBetRaise(
                lower[3..]
                    .parse()
                    .with_context(|| format!("{t:?} (token {i}): `cbr` takes a number of chips"))?,
            )),
            _ if lower.len() >= 2 && lower.starts_with('p') && lower[1..].parse::<u8>().is_ok() => {
                continue
            }
            _ => Step::Card(t.parse::<Card>().map_err(|e| {
                anyhow::anyhow!("token {i} {t:?} is neither an action (f, cc, pb, cbr N, x, c, b, r) nor a card: {e}")
            })?),
        };
        steps.push(step);
    }
    Ok(steps)
}

/// `stud query` on a betting-tree file: the spot replayed on the rules engine (down cards
/// unknown), the abstract node located from its betting, the rows of the player's bucket(s).
fn run_betting(f: &StrategyFile, args: &Args, steps: &[Step]) -> Result<()> {
    let def = &f.header().game;
    let mut state = State::new(def)?;
    let mut bets = Vec::new();
    let mut steps = steps.iter().enumerate().peekable();
    loop {
        match state.next() {
            Next::Deal {
                deal: Deal::Up,
                seat,
            } => {
                let Some((i, step)) = steps.next() else { break };
                let Step::Card(c) = *step else {
                    bail!(
                        "step {} ({}): {} face up: give the card",
                        i + 1,
                        step_name(*step),
                        seat.map_or("a card is dealt".into(), |s| format!(
                            "p{} gets a card",
                            s + 1
                        ))
                    );
                };
                state
                    .deal(c)
                    .with_context(|| format!("step {} ({c})", i + 1))?;
            }
            Next::Deal { .. } => state.deal_unknown()?,
            Next::Act { .. } => {
                let Some((i, step)) = steps.next() else { break };
                let legal = state.legal_actions();
                let a = match *step {
                    Step::Exact(a) => a,
                    Step::AnyRaise => {
                        let raises: Vec<Action> = legal
                            .iter()
                            .copied()
                            .filter(|a| matches!(a, Action::CompleteBetRaise(_)))
                            .collect();
                        match raises[..] {
                            [a] => a,
                            [] => bail!("step {}: no bet or raise is legal here", i + 1),
                            _ => bail!(
                                "step {}: several bet sizes are legal here: say which with cbr N",
                                i + 1
                            ),
                        }
                    }
                    Step::Card(c) => bail!("step {} ({c}): a betting action is due here", i + 1),
                };
                bets.push((state.street(), a));
                state
                    .apply(a)
                    .with_context(|| format!("step {} ({a})", i + 1))?;
            }
            Next::Over => {
                if let Some((i, _)) = steps.next() {
                    bail!("step {}: the hand is over before it", i + 1);
                }
                bail!("the spot ends where the hand is over: no one decides");
            }
        }
    }
    let Some(seat) = state.to_act() else {
        bail!("the spot ends before a card is dealt face up: continue it with the card");
    };
    let street = state.street();
    let node = f.locate(&bets)?;
    let n = f.node(node)?;
    if n.kind != NodeKind::Action as u8 || n.street as usize != street {
        bail!(
            "the abstract game has already called on this street (a raise past its cap of {} \
             bets is a call there): the strategy calls",
            f.header().betting.max_bets
        );
    }
    let role = (state.first_actor(street) != Some(seat)) as u8;
    let up = state.up_cards(seat).iter().copied().collect::<CardSet>();
    let opp_up = state
        .up_cards(1 - seat)
        .iter()
        .copied()
        .collect::<CardSet>();
    let mut rows: Vec<(String, Option<u32>, Vec<f64>)> = Vec::new();
    let mut row = [0.0; MAX_ACTIONS];
    match &args.hand {
        Some(h) => {
            // Distinct: `Kc Kc Kc Kc` is refused, not read as `Kc`.
            let down: CardSet = parse_distinct_cards(h)
                .map_err(|e| anyhow::anyhow!("--hand {h:?}: {e}"))?
                .into_iter()
                .collect();
            let view = CardView {
                street,
                down,
                up,
                opp_up,
            };
            let b = f.bucket_of(&view).context("--hand")?;
            let k = f.row_into(node, b, &mut row)?;
            rows.push((down.to_string(), Some(b), row[..k].to_vec()));
        }
        None => {
            for b in 0..f.bucketing().map_or(0, |x| x.buckets(street)) {
                let k = f.row_into(node, b, &mut row)?;
                rows.push((format!("bucket {b}"), Some(b), row[..k].to_vec()));
            }
        }
    }
    let actions: Vec<String> = f.children(node)?.iter().map(|k| describe(k.1)).collect();
    if args.json {
        let v = serde_json::json!({
            "seat": seat,
            "role": role,
            "street": street,
            "street_name": def.street_name(street),
            "node": node,
            "actions": actions,
            "hands": rows.iter().map(|(h, b, p)| serde_json::json!({"hand": h, "bucket": b, "probabilities": p})).collect::<Vec<_>>(),
        });
        println!("{v}");
        return Ok(());
    }
    println!(
        "p{} to act on {} ({} to act on this street)",
        seat + 1,
        def.street_name(street),
        if role == 0 { "first" } else { "second" },
    );
    let width = rows.iter().map(|r| r.0.len()).max().unwrap_or(4).max(4);
    println!(
        "{:<width$} {}",
        "hand",
        actions
            .iter()
            .map(|a| format!("{a:>7}"))
            .collect::<String>()
    );
    for (h, b, p) in rows {
        let label = match (&args.hand, b) {
            (Some(_), Some(b)) => format!("{h} (bucket {b})"),
            _ => h,
        };
        println!(
            "{label:<width$} {}",
            p.iter().map(|x| format!("{x:>7.3}")).collect::<String>()
        );
    }
    Ok(())
}

/// A step as the spot notation writes it.
fn step_name(s: Step) -> String {
    match s {
        Step::Card(c) => c.to_string(),
        Step::Exact(a) => describe(Edge::Action(a)),
        Step::AnyRaise => "a bet or raise".into(),
    }
}

fn describe(e: Edge) -> String {
    match e {
        Edge::Action(Action::Fold) => "f".into(),
        Edge::Action(Action::CheckCall) => "cc".into(),
        Edge::Action(Action::BringIn) => "pb".into(),
        Edge::Action(Action::CompleteBetRaise(n)) => format!("cbr{n}"),
        Edge::Card(c) => c.to_string(),
        Edge::Root => "root".into(),
    }
}

/// Runs `stud query`.
pub fn run(args: Args) -> Result<()> {
    let f = StrategyFile::open(&args.file)?;
    let steps = parse_spot(&args.spot)?;
    if f.header().tree == TreeKind::Betting {
        return run_betting(&f, &args, &steps);
    }
    let mut node = 0u32;
    let mut public = CardSet::EMPTY;
    for (i, step) in steps.iter().enumerate() {
        let kids = f.children(node)?;
        let kind = f.node(node)?.kind;
        let choices = || {
            kids.iter()
                .map(|k| describe(k.1))
                .collect::<Vec<_>>()
                .join(" ")
        };
        let found = match *step {
            Step::Card(c) => kids.iter().find(|k| k.1 == Edge::Card(c)),
            Step::Exact(a) => kids.iter().find(|k| k.1 == Edge::Action(a)),
            Step::AnyRaise => {
                let raises: Vec<_> = kids
                    .iter()
                    .filter(|k| matches!(k.1, Edge::Action(Action::CompleteBetRaise(_))))
                    .collect();
                if raises.len() > 1 {
                    bail!(
                        "step {}: several bet sizes here ({}): say which with cbr N",
                        i + 1,
                        choices()
                    );
                }
                raises.first().copied()
            }
        };
        let Some(&(child, edge)) = found else {
            let at = if kind == NodeKind::Chance as u8 {
                "a public card is dealt here"
            } else if kids.is_empty() {
                "the hand is over here"
            } else {
                "a betting decision is made here"
            };
            bail!(
                "step {} ({}) is not in the abstract game: {at}; the choices are: {}",
                i + 1,
                step_name(*step),
                if kids.is_empty() {
                    "none".into()
                } else {
                    choices()
                }
            );
        };
        if let Edge::Card(c) = edge {
            public.insert(c);
        }
        node = child;
    }
    let n = f.node(node)?;
    if n.kind != NodeKind::Action as u8 {
        if n.kind != NodeKind::Chance as u8 {
            bail!("the spot ends where the hand is over: no one decides");
        }
        let kids = f.children(node)?;
        bail!(
            "the spot ends before a public card: continue it with one of {}",
            kids.iter()
                .map(|k| describe(k.1))
                .collect::<Vec<_>>()
                .join(" ")
        );
    }
    let deck: Vec<Card> = f.header().game.deck.cards().iter().collect();
    let hands: Vec<(u32, Card)> = match &args.hand {
        Some(h) => {
            let c: Card = h.parse().map_err(|e| anyhow::anyhow!("--hand: {e}"))?;
            let i = deck
                .iter()
                .position(|&d| d == c)
                .with_context(|| format!("--hand {c}: not a card of this game's deck"))?;
            if public.contains(c) {
                bail!("--hand {c}: that card is already dealt face up in the spot");
            }
            vec![(i as u32, c)]
        }
        None => deck
            .iter()
            .enumerate()
            .filter(|(_, c)| !public.contains(**c))
            .map(|(i, &c)| (i as u32, c))
            .collect(),
    };
    let actions: Vec<String> = f.children(node)?.iter().map(|k| describe(k.1)).collect();
    let mut rows = Vec::new();
    for (i, c) in hands {
        rows.push((c, f.probabilities(node, i)?));
    }
    if args.json {
        let v = serde_json::json!({
            "seat": n.player,
            "street": n.street,
            "street_name": f.header().game.street_name(n.street as usize),
            "actions": actions,
            "hands": rows.iter().map(|(c, p)| serde_json::json!({"hand": c.to_string(), "probabilities": p})).collect::<Vec<_>>(),
        });
        println!("{v}");
    } else {
        println!(
            "p{} to act on {}",
            n.player + 1,
            f.header().game.street_name(n.street as usize)
        );
        println!(
            "hand  {}",
            actions
                .iter()
                .map(|a| format!("{a:>7}"))
                .collect::<String>()
        );
        for (c, p) in rows {
            println!(
                "{c:<5} {}",
                p.iter().map(|x| format!("{x:>7.3}")).collect::<String>()
            );
        }
    }
    Ok(())
}
