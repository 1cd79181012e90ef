//! `stud play --train`: after each of the person's decisions, the coach's frequencies for the
//! person's cards, each action's value and the value lost ([`solver::drill`] judges; this
//! prints), and the session's score at the end and on `s`. With `--json` each decision and the
//! score are JSON lines on standard output (the table talk then goes to standard error).

use super::action_words;
use abstraction::rules::notation::seat_cards;
use abstraction::rules::seat_name;
use abstraction::rules::{Action, State};
use anyhow::{bail, Context, Result};
use serde_json::{json, Value};
use solver::bot::{Bet, StrategyPlayer};
use solver::drill::{feedback, public_view, Feedback, Score, Seen, Summary};
use solver::purify::Purification;
use solver::strategy_file::StrategyFile;
use solver::values::{Method, Options};
use std::io::Write;
use std::path::Path;

/// How many of the costliest decisions the score lists.
const WORST: usize = 5;

/// The coach of a training session and its score so far.
pub struct Trainer {
    coach: StrategyPlayer,
    name: String,
    options: Options,
    /// The least coach probability that counts a choice as the coach's own.
    agree_at: f64,
    json: bool,
    score: Score,
}

/// The coach's file: `--coach`, else the opponent's when it names a strategy file
/// (`FILE`, `FILE:mixed`..., as [`solver::players::strategy_spec`] reads it).
fn coach_path(coach: Option<&Path>, opponents: &[&str]) -> Result<String> {
    if let Some(p) = coach {
        return p
            .to_str()
            .context("--coach: the path is not UTF-8")
            .map(String::from);
    }
    let file = opponents.iter().find_map(|spec| {
        let (path, _) = solver::players::strategy_spec(spec).ok()?;
        Path::new(path).is_file().then_some(path)
    });
    file.map(String::from).context(
        "--train judges each decision by a strategy file: give one with --coach FILE, or play \
         against one (stud play strategies/7stud-hu.strat --train)",
    )
}

impl Trainer {
    /// The trainer of a session of `def`'s game against `opponents`, judged by `coach` (else
    /// the opponent's file); estimates of `samples` deals from `seed`.
    pub fn new(
        def: &abstraction::rules::GameDef,
        coach: Option<&Path>,
        opponents: &[&str],
        options: Options,
        agree_at: f64,
        json: bool,
    ) -> Result<Trainer> {
        if !(0.0..=1.0).contains(&agree_at) {
            bail!("--agree-at: a probability from 0 to 1, not {agree_at}");
        }
        if def.seats != 2 {
            bail!(
                "--train judges heads-up decisions (the values of actions are heads-up): {} \
                 has {} seats",
                def.variant,
                def.seats
            );
        }
        let name = coach_path(coach, opponents)?;
        let file = StrategyFile::open(Path::new(&name))?;
        if !matches!(file, StrategyFile::Betting(_)) {
            bail!(
                "--train: {name} is not a heads-up real game's strategy (a betting-tree file): \
                 the values of actions need one"
            );
        }
        let coach =
            StrategyPlayer::of_game(file, &name, def)?.with_purification(Purification::Mixed);
        Ok(Trainer {
            coach,
            name,
            options,
            agree_at,
            json,
            score: Score::new(),
        })
    }

    /// Judges `chosen` at `state` (reached by `bets`) in hand `hand` (from 1), prints the
    /// feedback to `out` (or a JSON line to standard output) and keeps its score.
    pub fn judge(
        &mut self,
        state: &State,
        bets: &[Bet],
        chosen: Action,
        hand: u64,
        out: &mut dyn Write,
    ) -> Result<()> {
        let bar = super::deals_bar(0);
        bar.set_style(
            indicatif::ProgressStyle::with_template("{spinner} valuing the actions {pos}/{len}")
                .expect("a valid template"),
        );
        let f = feedback(&self.coach, state, bets, chosen, self.options, &|d, a| {
            bar.set_length(a as u64);
            bar.set_position(d as u64);
        });
        bar.finish_and_clear();
        let f = f.context("judging the decision")?;
        let seat = f.seat;
        let cards = seat_cards(state, seat, false);
        let street = state.def().street_name(f.street);
        let names: Vec<String> = f.actions.iter().map(|&a| action_words(state, a)).collect();
        let label = format!(
            "hand {hand}, {street}, {} {cards}: {} (the best: {})",
            seat_name(seat),
            names[f.chosen],
            names[f.best]
        );
        self.score.add(&f, label);
        if self.json {
            let mut v = self.decision_json(&f, hand, &street, &cards, &names);
            v["spot"] = spot_text(state, bets)?.into();
            v["down"] = (state.down_cards(seat).iter().flatten())
                .map(|c| c.to_string())
                .collect::<String>()
                .into();
            println!("{v}");
            return Ok(());
        }
        print_feedback(out, &f, &self.name, &cards, &names, self.options)?;
        Ok(())
    }

    /// One decision as a JSON line.
    fn decision_json(
        &self,
        f: &Feedback,
        hand: u64,
        street: &str,
        cards: &str,
        names: &[String],
    ) -> Value {
        let bb = f.big_bet as f64;
        let estimate = f.method == Method::Estimate;
        json!({
            "kind": "decision",
            "hand": hand,
            "street": f.street,
            "street_name": street,
            "seat": f.seat,
            "cards": cards,
            "actions": f.actions.iter().map(|a| a.to_string().replace(' ', "")).collect::<Vec<_>>(),
            "action_names": names,
            "coach": self.name,
            "frequencies": f.frequencies,
            "method": f.method,
            "samples": estimate.then_some(self.options.samples),
            "seed": estimate.then_some(self.options.seed),
            "values": f.values,
            "plus_minus": f.plus_minus,
            "chosen": f.chosen,
            "best": f.best,
            "loss": f.loss,
            "loss_plus_minus": f.loss_plus_minus,
            "loss_big_bets": f.loss / bb,
            "big_bet": f.big_bet,
        })
    }

    /// Prints the score so far (a JSON line with `--json`).
    pub fn show_score(&self, out: &mut dyn Write) -> Result<()> {
        let s = self.score.summary(self.agree_at, WORST);
        if self.json {
            let mut v = serde_json::to_value(&s)?;
            v["kind"] = "score".into();
            v["coach"] = self.name.as_str().into();
            println!("{v}");
            return Ok(());
        }
        print_score(out, &s)?;
        Ok(())
    }
}

/// The spot of the decision as `stud query` takes it: the up cards and actions seen, in order.
pub(crate) fn spot_text(state: &State, bets: &[Bet]) -> Result<String> {
    let (_, seen) = public_view(state, bets)?;
    let words: Vec<String> = (seen.iter())
        .map(|s| match s {
            Seen::Card(c) => c.to_string(),
            Seen::Action(a) => a.to_string().replace(' ', ""),
        })
        .collect();
    Ok(words.join(" "))
}

/// `+1.25`, or `+1.25 ±0.40` with an interval.
fn chips(x: f64, pm: Option<f64>) -> String {
    match pm {
        Some(p) => format!("{x:+.2} ±{p:.2}"),
        None => format!("{x:+.2}"),
    }
}

/// The feedback in words: the coach's frequencies, the values, the loss.
fn print_feedback(
    out: &mut dyn Write,
    f: &Feedback,
    coach: &str,
    cards: &str,
    names: &[String],
    options: Options,
) -> std::io::Result<()> {
    let freqs: Vec<String> = (names.iter().zip(&f.frequencies))
        .map(|(n, p)| format!("{n} {:.1}%", 100.0 * p))
        .collect();
    writeln!(out, "  coach ({coach}) with {cards}: {}", freqs.join(", "))?;
    let how = match f.method {
        Method::Exact => "exact".to_string(),
        Method::Estimate => format!("estimated from {} deals, ± 95%", options.samples),
    };
    let values: Vec<String> = (0..names.len())
        .map(|a| {
            let pm = f.plus_minus.as_ref().map(|p| p[a]);
            format!("{} {}", names[a], chips(f.values[a], pm))
        })
        .collect();
    writeln!(
        out,
        "  values from here in chips ({how}): {}",
        values.join(", ")
    )?;
    let bb = f.big_bet as f64;
    if f.chosen == f.best {
        writeln!(
            out,
            "  you chose {}: the best action, nothing lost",
            names[f.chosen]
        )
    } else {
        writeln!(
            out,
            "  you chose {}: lost {} chips ({:.3} big bets) against {}, the best",
            names[f.chosen],
            chips(f.loss, f.loss_plus_minus).trim_start_matches('+'),
            f.loss / bb,
            names[f.best]
        )
    }
}

/// The score in words.
fn print_score(out: &mut dyn Write, s: &Summary) -> std::io::Result<()> {
    writeln!(
        out,
        "training score: {} decisions, {:.2} chips lost in all, {:.2} chips per decision \
         ({:.1} mbb: thousandths of a big bet); {} of {} ({:.0}%) chose an action the coach \
         plays at least {:.0}% of the time",
        s.decisions,
        s.total_loss,
        s.mean_loss,
        s.mean_loss_mbb,
        s.agreed,
        s.decisions,
        100.0 * s.agreed_share,
        100.0 * s.threshold
    )?;
    if !s.worst.is_empty() {
        writeln!(out, "the costliest decisions:")?;
    }
    for w in &s.worst {
        writeln!(
            out,
            "  {} chips  {} (coach {:.1}%)",
            chips(w.loss, w.loss_plus_minus).trim_start_matches('+'),
            w.label,
            100.0 * w.frequency
        )?;
    }
    Ok(())
}
