//! `stud play`: a person plays against bots or strategies in the terminal, heads-up or at a
//! table of up to the game's seats.

use super::game_for;
use super::play_train::Trainer;
use abstraction::cards::CardSet;
use abstraction::eval::{eval_high, eval_low8, eval_razz};
use abstraction::phh::Recorder;
use abstraction::rules::notation::seat_cards;
use abstraction::rules::seat_name;
use abstraction::rules::{Action, GameDef, Next, Showdown, State};
use anyhow::Context;
use solver::bot::matches::{table_stream, DealCards};
use solver::bot::{sample, Answer, Bet, Player};
use solver::players::load;
use std::fmt::Write as _;
use std::io::{BufRead, Write};
use std::path::PathBuf;
use std::sync::Arc;

/// Play against bots or strategies in the terminal: one opponent heads-up, or one per other
/// seat.
#[derive(clap::Args)]
#[command(
    after_help = "Examples:\n  stud play heuristic --game 7stud --seed 3 --save session.phhs\n  \
stud play strategies/razz-hu.strat\n  \
stud play strategies/7stud-hu.strat:search --seed 3\n  \
yes 2 | stud play call --game 5stud --hands 1\n  \
stud play heuristic call --game 7stud-3p\n  \
stud play strategies/7stud-hu.strat --train --samples 500\n  \
yes 1 | stud play call --game 7stud --train --coach strategies/7stud-hu.strat --hands 1 --json\n\n\
Down cards are shown in brackets, up cards plain: `(Ah 5h) 9h`; the opponent's down cards are \
?? until a showdown; a folded seat is marked. At each decision type the number of an action, its word as the menu \
shows it (`call`, `check`, `raise`, `complete`, `fold`, or with the amount: `call 5`) or its \
PHH text (f, cc, pb, cbr 10); `?` shows the probabilities of the last opponent to act at its \
decision; `q` quits. Heads-up you take seat p1 in odd hands and p2 in even ones; at a table of \
N seats (one opponent per other seat, --game 7stud-3p) you move one seat to the left each hand, \
the opponents in the seats after yours in the order given. The session is saved after every hand as PHHS \
(phh-std's many-hand file: each hand under a [n] table).\n\n\
With --train (heads-up real games) each of your decisions is judged by a strategy file, the \
coach (--coach, else the opponent's file): its probability of each action with your cards, \
the value of each action in chips from there (both seats playing the coach to the end: exact \
on the last streets, else estimated from --samples deals with a 95% interval) and the value \
your choice lost against the best. `s` shows the score so far: decisions, chips lost in all \
and per decision (and in mbb, thousandths of a big bet), how often you chose an action the \
coach plays at least --agree-at of the time, the costliest decisions; it is shown at the end. \
With --json the judgements and the score are JSON lines on standard output, the table on \
standard error."
)]
pub struct Args {
    /// The opponents, one per seat besides yours: bots (random, call, raise, heuristic) or
    /// strategy files (FILE:mixed, FILE:pure, FILE:threshold=T say how its rows are played;
    /// default threshold=0.15 for the real games).
    #[arg(required = true, num_args = 1.., value_name = "OPPONENT")]
    pub opponents: Vec<String>,
    /// `--game`.
    #[command(flatten)]
    pub game: super::args::Game,
    /// `--seed`.
    #[command(flatten)]
    pub random: super::args::Random,
    /// Stop after this many hands (default: until `q` or the end of input).
    #[arg(long)]
    pub hands: Option<u64>,
    /// Save the session here as PHHS (stud games only).
    #[arg(long)]
    pub save: Option<PathBuf>,
    /// Judge each of your decisions by a strategy file (see below).
    #[arg(long)]
    pub train: bool,
    /// The strategy file that judges (default: the opponent's).
    #[arg(long, requires = "train", value_name = "FILE")]
    pub coach: Option<PathBuf>,
    /// Deals of an estimated value (third to fifth street of seven-card stud).
    #[arg(long, requires = "train", default_value_t = solver::values::DEFAULT_SAMPLES as u64,
          value_parser = clap::value_parser!(u64).range(solver::values::MIN_SAMPLES as u64..=solver::values::MAX_SAMPLES as u64))]
    pub samples: u64,
    /// The least probability of the coach's that counts a choice as one it plays.
    #[arg(long, requires = "train", default_value_t = 0.1)]
    pub agree_at: f64,
    /// With --train: the judgements and the score as JSON lines on standard output.
    #[arg(long, requires = "train")]
    pub json: bool,
}

/// The last opponent's decision: whose, what it could do in words, and how likely each was.
struct LastDecision {
    who: String,
    names: Vec<String>,
    probs: Vec<f64>,
}

/// Who sits where in one hand: the person's seat and the opponents of the others.
struct Seating<'a> {
    you: u8,
    /// Per seat, its opponent and the spec that names it (`None`: the person's seat).
    seats: Vec<Option<(&'a dyn Player, &'a str)>>,
}

impl Seating<'_> {
    /// The seat's name in the text: `you`, heads-up `opponent`, else its opponent's spec.
    fn who(&self, seat: u8) -> &str {
        match self.seats[seat as usize] {
            None => "you",
            Some(_) if self.seats.len() == 2 => "opponent",
            Some((_, spec)) => spec,
        }
    }

    /// The seats in the order they are shown: the person's first, then to the left.
    fn order(&self) -> impl Iterator<Item = u8> + '_ {
        let n = self.seats.len() as u8;
        (0..n).map(move |k| (self.you + k) % n)
    }
}

/// Runs the command.
pub fn run(args: Args) -> anyhow::Result<()> {
    let specs: Vec<&str> = args.opponents.iter().map(String::as_str).collect();
    let def = Arc::new(game_for(args.game.given(), &specs, "7stud")?);
    anyhow::ensure!(
        specs.len() + 1 == def.seats as usize,
        "{} opponents for {}, a game of {} seats: give one opponent per seat besides yours (a \
         preset for N players is GAME-Np, as 7stud-{}p)",
        specs.len(),
        def.variant,
        def.seats,
        specs.len() + 1
    );
    if args.save.is_some() && Recorder::new(&def).is_none() {
        anyhow::bail!(
            "PHH cannot record {}: --save needs a stud game",
            def.variant
        );
    }
    let bots = specs
        .iter()
        .map(|s| load(s, &def))
        .collect::<anyhow::Result<Vec<_>>>()?;
    let mut trainer = match args.train {
        true => {
            let options = solver::values::Options {
                samples: args.samples as usize,
                seed: args.random.seed,
            };
            let coach = args.coach.as_deref();
            Some(Trainer::new(
                &def,
                coach,
                &specs,
                options,
                args.agree_at,
                args.json,
            )?)
        }
        false => None,
    };
    let stdin = std::io::stdin();
    let mut input = stdin.lock();
    // With --json standard output carries the JSON lines alone.
    let mut out: Box<dyn Write> = match args.json {
        true => Box::new(std::io::stderr()),
        false => Box::new(std::io::stdout().lock()),
    };
    let mut session = String::new();
    // An i128: a hand's result is within ±2^53 chips (rules::MAX_CHIPS), so no session of
    // hands can overflow it.
    let mut score = 0i128;
    let mut hand = 0u64;
    let n = def.seats;
    while args.hands.is_none_or(|h| hand < h) {
        let you = (hand % u64::from(n)) as u8;
        // The opponents in the seats after the person's, in the order given.
        let mut seats = vec![None; n as usize];
        for (i, (bot, spec)) in bots.iter().zip(&specs).enumerate() {
            seats[(you as usize + 1 + i) % n as usize] = Some((bot.as_ref(), *spec));
        }
        let table = Seating { you, seats };
        writeln!(
            out,
            "\n=== hand {} — you are {} ===",
            hand + 1,
            seat_name(you)
        )?;
        let played = play_one(
            &def,
            &table,
            &args,
            hand,
            &mut input,
            &mut out,
            &mut trainer,
        )?;
        let Some(state) = played else {
            break;
        };
        let (state, rec) = state;
        let net = state.payoffs().context("the hand ended without payoffs")?[you as usize];
        score += net as i128;
        show_end(&mut out, &state, &table, net, score)?;
        if let (Some(path), Some(rec)) = (&args.save, rec) {
            let _ = writeln!(session, "[{}]\n{}", hand + 1, rec.finish(&state));
            solver::container::write_bytes(path, session.as_bytes())?;
        }
        hand += 1;
    }
    writeln!(
        out,
        "\nsession over: {hand} hands, you {score:+} chips ({:+.2} big bets)",
        score as f64 / def.big_bet as f64
    )?;
    if let Some(t) = &trainer {
        t.show_score(&mut out)?;
    }
    Ok(())
}

/// Plays hand `hand` seated as `table` says; `None` when the person quits.
fn play_one(
    def: &Arc<GameDef>,
    table: &Seating,
    args: &Args,
    hand: u64,
    input: &mut impl BufRead,
    out: &mut dyn Write,
    trainer: &mut Option<Trainer>,
) -> anyhow::Result<Option<(State, Option<Recorder>)>> {
    let seed = args.random.seed;
    let cards = DealCards::random(def, &mut table_stream(seed, hand, 0, def.seats));
    let mut rng = table_stream(seed, hand, 1, def.seats);
    let mut rec = Recorder::new(def);
    let mut state = State::with_def(def.clone())?;
    let mut last: Option<LastDecision> = None;
    let mut shown_street = None;
    let mut bets: Vec<Bet> = Vec::new();
    loop {
        match state.next() {
            Next::Deal { seat, .. } => {
                cards.deal_next(&mut state, seat, rec.as_mut())?;
            }
            Next::Act { seat } => {
                if shown_street != Some(state.street()) {
                    shown_street = Some(state.street());
                    show_table(out, &state, table)?;
                }
                let legal = state.legal_actions();
                let action = match table.seats[seat as usize] {
                    None => {
                        let Some(a) = ask(input, out, &state, &legal, last.as_ref(), trainer)?
                        else {
                            return Ok(None);
                        };
                        if let Some(t) = trainer.as_mut() {
                            t.judge(&state, &bets, a, hand + 1, out)?;
                        }
                        a
                    }
                    Some((bot, _)) => {
                        let mut probs = vec![0.0; legal.len()];
                        let answer = bot.policy(&state, &bets, seat, &legal, &mut probs)?;
                        let a = legal[sample(&probs, &mut rng)];
                        let who = if def.seats == 2 {
                            "opponent".to_string()
                        } else {
                            format!("{} {}", seat_name(seat), table.who(seat))
                        };
                        writeln!(out, "{who}: {}", super::action_words(&state, a))?;
                        match answer {
                            Answer::Own => {}
                            Answer::Fallback => writeln!(
                                out,
                                "  (its strategy gives no weight to any legal action here: it \
                                 checks or calls, the fallback)"
                            )?,
                            Answer::Unreached => writeln!(
                                out,
                                "  (its solve never reached this spot: it plays as the \
                                 hand-strength bot would)"
                            )?,
                        }
                        // In words as they read before the action changed what is owed.
                        let names = legal
                            .iter()
                            .map(|&a| super::action_words(&state, a))
                            .collect();
                        last = Some(LastDecision { who, names, probs });
                        a
                    }
                };
                bets.push((state.street(), action));
                state.apply(action)?;
                if let Some(r) = rec.as_mut() {
                    r.act(seat, action);
                }
            }
            Next::Over => return Ok(Some((state, rec))),
        }
    }
}

/// The street, the pot and every seat: its cards (the person's down cards shown, the others'
/// hidden), its stack, and whether it folded. At a table the person is reminded whose turn it
/// is when it is theirs.
fn show_table(out: &mut dyn Write, state: &State, table: &Seating) -> std::io::Result<()> {
    writeln!(
        out,
        "-- {}, pot {} --",
        state.def().street_name(state.street()),
        state.pot()
    )?;
    let board = state.community_cards();
    if !board.is_empty() {
        let b: Vec<String> = board.iter().map(|c| c.to_string()).collect();
        writeln!(out, "board: {}", b.join(" "))?;
    }
    let width = table.order().map(|s| table.who(s).len()).max().unwrap_or(0);
    for seat in table.order() {
        let folded = if state.folded(seat) { "  folded" } else { "" };
        writeln!(
            out,
            "{} {:>width$}: {:<24} stack {}{folded}",
            seat_name(seat),
            table.who(seat),
            seat_cards(state, seat, seat != table.you),
            state.stack(seat),
            width = width.max(8)
        )?;
    }
    Ok(())
}

/// Asks the person for an action until a legal one is typed; `None` on `q` or end of input.
/// `s` shows a training session's score.
fn ask(
    input: &mut impl BufRead,
    out: &mut dyn Write,
    state: &State,
    legal: &[Action],
    last: Option<&LastDecision>,
    trainer: &Option<Trainer>,
) -> anyhow::Result<Option<Action>> {
    loop {
        let menu: Vec<String> = legal
            .iter()
            .enumerate()
            .map(|(i, a)| format!("[{}] {}", i + 1, super::action_words(state, *a)))
            .collect();
        let keys = if trainer.is_some() { "? s q" } else { "? q" };
        write!(out, "your move: {}  ({keys}) > ", menu.join("  "))?;
        out.flush()?;
        let mut line = String::new();
        if input.read_line(&mut line)? == 0 {
            writeln!(out)?;
            return Ok(None);
        }
        let line = line.trim();
        match line {
            "q" | "quit" => return Ok(None),
            "s" | "score" if trainer.is_some() => {
                if let Some(t) = trainer {
                    t.show_score(out)?;
                }
                continue;
            }
            "?" => {
                match last {
                    Some(d) => {
                        let p: Vec<String> = d
                            .names
                            .iter()
                            .zip(&d.probs)
                            .map(|(a, p)| format!("{a}: {:.1}%", 100.0 * p))
                            .collect();
                        writeln!(out, "{}'s last decision: {}", d.who, p.join(", "))?;
                    }
                    None => writeln!(out, "no opponent has acted yet this hand")?,
                }
                continue;
            }
            _ => {}
        }
        // A number, the words of the menu (`call 5`, or `call` alone), or the PHH text.
        let words = line.to_ascii_lowercase();
        let picked = match line.parse::<usize>() {
            Ok(i) if (1..=legal.len()).contains(&i) => Some(legal[i - 1]),
            _ => legal.iter().copied().find(|&a| {
                let said = super::action_words(state, a);
                a.to_string() == line
                    || said == words
                    || said.split(' ').next() == Some(words.as_str())
                    || (words == "bring in" && a == Action::BringIn)
            }),
        };
        match picked {
            Some(a) => return Ok(Some(a)),
            None => writeln!(
                out,
                "`{line}` is not one of the choices: type its number, its word or its PHH text \
                 ({})",
                legal
                    .iter()
                    .map(|a| a.to_string())
                    .collect::<Vec<_>>()
                    .join(", ")
            )?,
        }
    }
}

/// The seat's hand as a player names it at showdown: the best five cards for high
/// (`two pair (K K 7 7 A)`), the low for razz (`low 7-5-4-2-A`), both for hi-lo; `None` where
/// the game ranks fewer than five cards as they show.
fn hand_name(state: &State, seat: u8) -> Option<String> {
    let cards: CardSet = state
        .down_cards(seat)
        .iter()
        .flatten()
        .chain(state.up_cards(seat))
        .copied()
        .collect();
    if cards.len() < 5 {
        return None;
    }
    Some(match state.def().variant.showdown() {
        Showdown::High => eval_high(cards).to_string(),
        Showdown::Razz => format!("low {}", eval_razz(cards)),
        Showdown::HiLo8 => match eval_low8(cards) {
            Some(low) => format!("high {}, low {low}", eval_high(cards)),
            None => format!("high {}, no low", eval_high(cards)),
        },
        Showdown::Showing => return None,
    })
}

fn show_end(
    out: &mut dyn Write,
    state: &State,
    table: &Seating,
    net: i64,
    score: i128,
) -> std::io::Result<()> {
    let live: Vec<u8> = table.order().filter(|&s| !state.folded(s)).collect();
    if live.len() > 1 {
        writeln!(out, "showdown:")?;
        let width = live.iter().map(|&s| table.who(s).len()).max().unwrap_or(0);
        for &seat in &live {
            let hand = hand_name(state, seat)
                .map(|h| format!(": {h}"))
                .unwrap_or_default();
            writeln!(
                out,
                "{} {:>width$}: {}{hand}",
                seat_name(seat),
                table.who(seat),
                seat_cards(state, seat, false),
                width = width.max(8)
            )?;
        }
    } else if table.seats.len() == 2 {
        let folder = if state.folded(table.you) {
            "you"
        } else {
            "the opponent"
        };
        writeln!(out, "{folder} folded")?;
    } else {
        let winner = live.first().map_or("nobody", |&s| table.who(s));
        writeln!(out, "everyone else folded: {winner} takes the pot")?;
    }
    let bb = state.def().big_bet as f64;
    writeln!(
        out,
        "hand result: you {net:+} chips; running score {score:+} chips ({:+.2} big bets)",
        score as f64 / bb
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use abstraction::cards::Card;

    /// A hand of `variant` dealt `cards` in the engine's order and checked or called down.
    fn checked_down(variant: &str, cards: &str) -> State {
        let def = GameDef::preset(variant).unwrap();
        let mut st = State::new(&def).unwrap();
        let mut deck = cards.split_whitespace().map(|c| c.parse::<Card>().unwrap());
        loop {
            match st.next() {
                Next::Deal { .. } => st.deal(deck.next().unwrap()).unwrap(),
                Next::Act { .. } => {
                    let legal = st.legal_actions();
                    st.apply(legal[solver::bot::passive(&legal)]).unwrap();
                }
                Next::Over => return st,
            }
        }
    }

    #[test]
    fn showdowns_name_each_hand_as_its_game_ranks_it() {
        // Third street (two down, one up) to p1 then p2, an up card each on 4th to 6th, a down
        // card each on 7th: p1 (Kh Kd Qd) 2c Ks 7s 9c, p2 (7h 7d 6s) 3s 8c 4d 5h.
        let cards = "Kh Kd 2c 7h 7d 3s Ks 8c 7s 4d 9c 5h Qd 6s";
        let st = checked_down("7stud", cards);
        assert_eq!(seat_cards(&st, 0, false), "(Kh Kd Qd) 2c Ks 7s 9c");
        assert_eq!(hand_name(&st, 0).unwrap(), "three of a kind (K K K Q 9)");
        assert_eq!(hand_name(&st, 1).unwrap(), "straight (8 7 6 5 4)");
        let st = checked_down("razz", cards);
        assert_eq!(hand_name(&st, 1).unwrap(), "low 7-6-5-4-3");
        let st = checked_down("stud8", cards);
        assert_eq!(
            hand_name(&st, 1).unwrap(),
            "high straight (8 7 6 5 4), low 7-6-5-4-3"
        );
        assert_eq!(
            hand_name(&st, 0).unwrap(),
            "high three of a kind (K K K Q 9), no low"
        );
        // Ministud ranks what shows: no five-card name.
        let st = checked_down("ministud", "Kh Qc Kd Ac Ah Qd");
        assert_eq!(hand_name(&st, 0), None);
    }
}
