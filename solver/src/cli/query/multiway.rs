//! `stud query` on a multiway strategy file (three to eight seats of real stud).
//!
//! The spot is written as for the heads-up real games: the up cards as they are dealt, seat by
//! seat on each street (p1's, then p2's, ...; a folded seat gets no more), then the betting, in
//! PHH codes or the short forms, a seat prefix (`p3 cbr 4`) checked against the seat it names.
//! It is replayed on the rules engine for the file's game, down cards unknown. The answer is
//! the row the file's player reads there: the decision located in the betting abstraction and
//! the bucket of the seat's view against its best showing live opponent (and, in a file of the
//! table view, the other live opponents' and the folded seats' up cards), both by the player's
//! own code ([`MultiwayFile::locate`], [`MultiwayFile::view`]), the row as stored (mixed, as a
//! heads-up query prints it) unless `--play` says how to play it. `--hand` gives the down
//! cards of the seat to act; without it,
//! every bucket's row, with the holdings of the seat in it (none of the up cards on the table).

use super::rows::{
    called_row, examples, play_json, play_rows, print_play, print_table, rows_json, Row,
};
use super::spot::{
    cards_text, check_hand_up, first_words, hand_label, parse_holding, replay_betting, Holding,
    Replayed, Step,
};
use super::Args;
use crate::cli::action_words;
use abstraction::cards::CardSet;
use abstraction::multiway_betting::{MwKind, Spot};
use abstraction::multiway_deal::MultiwayView;
use abstraction::rules::{Action, State};
use anyhow::{bail, Context, Result};
use solver::describe::{self, Description};
use solver::strategy_file::multiway::MultiwayFile;
use solver::strategy_file::MAX_ACTIONS;

/// Runs `stud query` on the multiway file `f`, opened from `args.file`.
pub(super) fn run(f: &MultiwayFile, args: &Args, steps: &[Step]) -> Result<()> {
    if args.resolve || args.ranges {
        bail!(
            "{} reads a heads-up strategy; {} is a multiway file (three or more seats)",
            if args.resolve {
                "--resolve"
            } else {
                "--ranges"
            },
            args.file.display()
        );
    }
    let def = &f.header.game;
    let holding = args.hand.as_deref().map(parse_holding).transpose()?;
    let Replayed { state, bets, empty } = replay_betting(def, steps)?;
    let Some(seat) = state.to_act() else {
        if holding.is_some() {
            bail!(
                "--hand needs the up cards, to find the hand's bucket: give the door cards in \
                 the spot, as in `3c 8d Kh`"
            );
        }
        debug_assert!(empty);
        return first_decision(f, args);
    };
    let street = state.street();
    let street_name = def.street_name(street);
    let spot = f.locate(&state, &bets).with_context(|| {
        format!("the betting of {street_name} has no place in the strategy's abstraction")
    })?;
    let node = f.betting.nodes[spot.node as usize];
    let against = MultiwayFile::opponent(&state, seat)?;
    let up = shown(&state, seat);
    let table = (0..def.seats).fold(CardSet::EMPTY, |t, s| t.union(shown(&state, s)));
    check_hand_up(args.hand.as_deref(), holding.as_ref(), up, seat)?;
    let legal = state.legal_actions();
    let at = At {
        state: &state,
        seat,
        role: node.role,
        against,
        view: f.buckets.view,
        spot,
    };
    if node.kind != MwKind::Action {
        // Past the cap (two players left, the card room's cap lifted) the abstract street has
        // closed: the player calls, as in play. An answer, not an error.
        let call = legal[solver::bot::passive(&legal)];
        let rows = vec![called_row(holding.as_ref(), up)];
        let names = vec![action_words(&state, call)];
        if args.output.json {
            println!("{}", at.json(true, &[code(call)], &names, &rows));
            return Ok(());
        }
        at.print();
        println!(
            "past the strategy's cap of {} bets on a street: its game has no more raises \
             there, and its answer with every hand is: {}",
            f.header.betting.max_bets, names[0]
        );
        return Ok(());
    }
    let mut rows = rows_at(f, &state, seat, &spot, holding.as_ref(), table)?;
    let mut codes = Vec::with_capacity(node.num_children as usize);
    let mut names = Vec::with_capacity(node.num_children as usize);
    for c in 0..node.num_children as usize {
        let real = f
            .betting
            .real_action(spot.tree, spot.node, c, &legal)
            .with_context(|| format!("damaged: abstract action {c} has no real action"))?;
        codes.push(code(real));
        names.push(action_words(&state, real));
    }
    play_rows(&mut rows, args.play);
    if args.output.json {
        let mut v = at.json(false, &codes, &names, &rows);
        v["play"] = play_json(args.play).into();
        println!("{v}");
        return Ok(());
    }
    at.print();
    print_play(args.play);
    super::rows::print_rows(&names, rows, seat, holding.is_none());
    Ok(())
}

/// The rows of `seat`'s decision `spot` at `state`: `holding`'s, or every bucket's with the
/// seat's holdings in it (none of the up cards on the `table`).
fn rows_at(
    f: &MultiwayFile,
    state: &State,
    seat: u8,
    spot: &Spot,
    holding: Option<&Holding>,
    table: CardSet,
) -> Result<Vec<Row>> {
    let street = state.street();
    let up = shown(state, seat);
    Ok(match holding {
        Some(h) => {
            let down: CardSet = h.down.iter().copied().collect();
            if let Some(c) = h.down.iter().find(|c| table.contains(**c)) {
                bail!("--hand {c}: that card is already dealt face up in the spot");
            }
            let b = f.bucket(state, seat, down).context("--hand")?;
            let about = describe::of_hand(f.bucketing_at(state), street, b, down, up);
            vec![row(
                f,
                spot,
                b,
                Some(hand_label(down, up)),
                None,
                Some(about),
            )?]
        }
        None => {
            let view = f.view(state, seat, CardSet::EMPTY)?;
            let mut held = describe::holdings_table(f.bucketing_at(state), &view)?;
            // Every up card on the table is out of the seat's down cards, not only the
            // opponent's its view is bucketed against.
            for hs in &mut held {
                hs.retain(|h| h.intersection(table).is_empty());
            }
            let about = describe::at_spot(f.bucketing_at(state), street, up, &held);
            let mut rows = Vec::with_capacity(held.len());
            for (b, hs) in held.iter().enumerate() {
                let holds = Some((hs.len(), examples(hs)));
                rows.push(row(f, spot, b as u32, None, holds, about.get(b).cloned())?);
            }
            rows
        }
    })
}

/// The up cards `seat` shows at `state`.
fn shown(state: &State, seat: u8) -> CardSet {
    state.up_cards(seat).iter().copied().collect()
}

/// A real action as the spot notation's PHH code (`cbr4`).
fn code(a: Action) -> String {
    a.to_string().replace(' ', "")
}

/// The row of `bucket` at decision `spot`: the stored probabilities (uniform where the solve
/// reached the decision and bucket in no pot class: marked `unreached`; a pot class it never
/// reached stores the nearest reached class's row, `SampledSolver::average_strategy`).
fn row(
    f: &MultiwayFile,
    spot: &Spot,
    bucket: u32,
    hand: Option<String>,
    holds: Option<(usize, Vec<String>)>,
    about: Option<Description>,
) -> Result<Row> {
    let mut probs = [0.0; MAX_ACTIONS];
    let k = f.row_into(spot, bucket, &mut probs)?;
    let probs = probs[..k].to_vec();
    Ok(Row {
        hand,
        bucket: Some(bucket),
        unreached: probs.iter().all(|&p| p == probs[0]),
        probs,
        holds,
        about,
    })
}

/// Where a queried decision is: the table as the seat to act sees it.
struct At<'a> {
    state: &'a State,
    seat: u8,
    /// Its role on the street (0 acts first).
    role: u8,
    /// The live opponent its view is bucketed against.
    against: u8,
    /// Whether the view sees the other live opponents' and the folded seats' up cards too.
    view: MultiwayView,
    spot: Spot,
}

impl At<'_> {
    /// The seats that are still in.
    fn live(&self) -> Vec<u8> {
        let live = self.state.live();
        (0..self.state.def().seats)
            .filter(|s| live >> s & 1 == 1)
            .collect()
    }

    /// The `--json` answer: where the decision is, its actions (the real actions they play, as
    /// PHH codes and in words; `capped`: past the raise cap, where the strategy calls) and its
    /// rows.
    fn json(
        &self,
        capped: bool,
        codes: &[String],
        names: &[String],
        rows: &[Row],
    ) -> serde_json::Value {
        let st = self.state;
        let def = st.def();
        let showing: Vec<String> = (0..def.seats).map(|s| cards_text(shown(st, s))).collect();
        serde_json::json!({
            "seats": def.seats,
            "seat": self.seat,
            "role": self.role,
            "street": st.street(),
            "street_name": def.street_name(st.street()),
            "live": self.live(),
            "folded": (0..def.seats).filter(|&s| st.folded(s)).collect::<Vec<u8>>(),
            "showing": showing,
            "against": self.against,
            "pot": st.pot(),
            "pot_class": self.spot.pot_class,
            "tree": self.spot.tree,
            "node": self.spot.node,
            "capped": capped,
            "actions": codes,
            "action_names": names,
            "hands": rows_json(rows),
        })
    }

    /// The decision in a player's words: street, seat, its place in the order of play, the
    /// table's up cards, the opponent the rows are measured against.
    fn print(&self) {
        let st = self.state;
        let def = st.def();
        let live = self.live();
        let seat = |s: u8| {
            let cards = cards_text(shown(st, s));
            let folded = if st.folded(s) { ", folded" } else { "" };
            format!("p{} {cards}{folded}", s + 1)
        };
        println!(
            "p{} to act on {} ({} to act on this street, {} seats live); pot {}",
            self.seat + 1,
            def.street_name(st.street()),
            ordinal(self.role as usize + 1),
            live.len(),
            st.pot()
        );
        println!(
            "showing: {}",
            (0..def.seats).map(seat).collect::<Vec<_>>().join(", ")
        );
        let against = format!(
            "p{} ({}), the best showing live opponent",
            self.against + 1,
            cards_text(shown(st, self.against)),
        );
        match self.view {
            MultiwayView::BestOpponent => println!(
                "measured against {against}: each bucket is of p{}'s cards against that hand",
                self.seat + 1
            ),
            MultiwayView::Table => println!(
                "measured against {against}, beside every other live opponent's up cards and \
                 the folded seats' as dead cards: each bucket is of p{}'s cards against that \
                 table",
                self.seat + 1
            ),
        }
    }
}

/// `n` as an English ordinal: 1st, 2nd, 3rd, 4th.
fn ordinal(n: usize) -> String {
    let suffix = match (n % 10, n % 100) {
        (1, 11) | (2, 12) | (3, 13) => "th",
        (1, _) => "st",
        (2, _) => "nd",
        (3, _) => "rd",
        _ => "th",
    };
    format!("{n}{suffix}")
}

/// The answer at the empty spot: the hand's first decision, whoever the door cards make first
/// to act (every seat in), every bucket as the street's sampled deals fill it.
fn first_decision(f: &MultiwayFile, args: &Args) -> Result<()> {
    let def = &f.header.game;
    let tree = f
        .betting
        .tree(0, u32::from(def.seats))
        .context("damaged: no first street tree with every seat in")?;
    let spot = Spot {
        tree,
        node: f.betting.trees[tree as usize].root,
        pot_class: 0,
    };
    let about = describe::sampled(f.buckets.for_live(def.seats as usize), 0)?;
    let mut rows = Vec::new();
    for b in 0..f.buckets.buckets(0) {
        rows.push(row(
            f,
            &spot,
            b,
            None,
            None,
            about.get(b as usize).cloned(),
        )?);
    }
    let names: Vec<String> = f
        .betting
        .children(spot.node as usize)
        .map(|c| first_words(def, f.betting.edges[c]))
        .collect();
    play_rows(&mut rows, args.play);
    let street_name = def.street_name(0);
    if args.output.json {
        let v = serde_json::json!({
            "play": play_json(args.play),
            "seats": def.seats,
            "seat": None::<u8>,
            "role": 0,
            "street": 0,
            "street_name": street_name,
            "tree": spot.tree,
            "node": spot.node,
            "capped": false,
            "actions": f.betting.children(spot.node as usize)
                .map(|c| super::spot::describe(f.betting.edges[c]))
                .collect::<Vec<_>>(),
            "action_names": names,
            "hands": rows_json(&rows),
        });
        println!("{v}");
        return Ok(());
    }
    println!(
        "the first decision on {street_name} at {} seats, of the seat the door cards make \
         first to act (no up cards given: every bucket; give the door cards, as in `3c 8d Kh`, \
         for what each bucket holds)",
        def.seats
    );
    print_play(args.play);
    print_table(&names, &rows);
    Ok(())
}
