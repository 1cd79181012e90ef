//! The first street of a heads-up strategy at once, across deals: by door card against door
//! card (`stud aggregate`): third street in the seven-card games, second in five-card stud.
//!
//! For every pair of door ranks, the player (the second seat, its door in diamonds; the
//! opponent's in clubs, so that equal ranks make the opponent the bring-in in the high games)
//! at three spots of the first street: its first decision (bringing in or completing when its door
//! brings in; folding, calling or completing facing the opponent's bring-in), and, where it
//! brought in, facing the opponent's completion. Each spot's frequencies are the player's
//! probabilities of the actions over every holding of its down cards (two in the seven-card
//! games, one in five-card stud), each holding weighed
//! by the probability that the player took the spot's earlier actions with it (Bayes' rule on
//! the rows as stored: at its first decision every holding alike): how often the strategy does
//! each thing there, as a player counting its hands would see it.

use crate::bot::{Bet, Player, StrategyPlayer};
use abstraction::cards::{Card, CardSet, Rank, Suit};
use abstraction::rules::{Action, Deal, FirstRound, Next, State};
use anyhow::{bail, ensure, Context, Result};
use rayon::prelude::*;
use serde::Serialize;
use std::sync::atomic::{AtomicUsize, Ordering};

/// The actions counted, in this order: a completion is not a raise.
pub const ACTIONS: [&str; 5] = ["fold", "bring in", "call", "complete", "raise"];

/// The first-street spots aggregated.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Spot {
    /// The player's first decision: its own bring-in, or facing the opponent's.
    First,
    /// The player brought in and the opponent completed.
    FacingCompletion,
}

impl Spot {
    /// The spot in a player's words.
    pub fn words(self) -> &'static str {
        match self {
            Spot::First => "first decision (bringing in, or facing the bring-in)",
            Spot::FacingCompletion => "brought in, facing a completion",
        }
    }
}

/// One cell: the player's door rank against the opponent's, at a spot.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Cell {
    /// The spot.
    pub spot: Spot,
    /// The player's door card.
    pub door: String,
    /// The opponent's door card.
    pub opponent_door: String,
    /// The spot as `stud query` writes it (p1 the opponent, p2 the player).
    pub query: String,
    /// The player's holdings of two down cards (those of positive weight).
    pub holdings: usize,
    /// Mean probability of each of [`ACTIONS`], weighed as the module says.
    pub frequencies: [f64; 5],
}

/// Every cell of the first street: for each spot, 13 × 13 door ranks (those where the spot
/// occurs).
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct ThirdStreet {
    /// The street, as players name it: "3rd street" (the seven-card games) or "2nd street"
    /// (five-card stud).
    pub street: String,
    /// The door ranks in the game's order (deuce to ace; ace to king in razz).
    pub ranks: Vec<String>,
    /// The cells, spot by spot, the player's door rank then the opponent's in `ranks`' order.
    pub cells: Vec<Cell>,
}

/// Aggregates the first street of `player`'s file (see the module); `progress` is told the
/// cells done and their total.
pub fn third_street(
    player: &StrategyPlayer,
    progress: &(dyn Fn(usize, usize) + Sync),
) -> Result<ThirdStreet> {
    let def = player.file().game();
    let deal = &def.streets[0].deal;
    ensure!(
        def.seats == 2
            && deal.last() == Some(&Deal::Up)
            && deal[..deal.len() - 1].iter().all(|d| *d == Deal::Down)
            && def.first_round == FirstRound::BringIn,
        "the first street by door card is for heads-up stud games (down cards and a door card, \
         a bring-in): {} is not one",
        def.variant.name()
    );
    let razz = def.variant.showdown() == abstraction::rules::Showdown::Razz;
    let mut ranks: Vec<Rank> = Rank::all().collect();
    if razz {
        ranks.rotate_right(1);
    }
    let pairs: Vec<(Rank, Rank)> = (ranks.iter())
        .flat_map(|&a| ranks.iter().map(move |&b| (a, b)))
        .collect();
    let done = AtomicUsize::new(0);
    let cells: Vec<Vec<Cell>> = pairs
        .par_iter()
        .map(|&(mine, theirs)| {
            let c = cells_of(
                player,
                Card::new(mine, Suit::Diamonds),
                Card::new(theirs, Suit::Clubs),
            );
            progress(done.fetch_add(1, Ordering::Relaxed) + 1, pairs.len());
            c
        })
        .collect::<Result<_>>()?;
    let mut all: Vec<Cell> = cells.into_iter().flatten().collect();
    // Spot by spot, in the order of the pairs (a stable sort).
    all.sort_by_key(|c| c.spot == Spot::FacingCompletion);
    Ok(ThirdStreet {
        street: def.street_name(0),
        ranks: ranks.iter().map(|r| r.to_string()).collect(),
        cells: all,
    })
}

/// The cells of one pair of door cards, the player's `door` against the opponent's `theirs`
/// (any suits): the player's first decision, and facing a completion where it brought in.
pub fn cells_of(player: &StrategyPlayer, door: Card, theirs: Card) -> Result<Vec<Cell>> {
    let def = player.file().game();
    let mut st = State::new(def)?;
    let mut bets: Vec<Bet> = Vec::new();
    let mut words = vec![theirs.to_string(), door.to_string()];
    loop {
        match st.next() {
            Next::Deal {
                deal: Deal::Down, ..
            } => st.deal_unknown()?,
            Next::Deal { seat: Some(0), .. } => st.deal(theirs)?,
            Next::Deal { seat: Some(1), .. } => st.deal(door)?,
            Next::Act { .. } => break,
            _ => bail!("the first street did not deal two door cards"),
        }
    }
    let pool: Vec<Card> = def
        .deck
        .cards()
        .minus(CardSet::from_iter([door, theirs]))
        .iter()
        .collect();
    // Every holding of the player's down cards, `down` cards each, one after another.
    let down = def.streets[0].deal.len() - 1;
    let mut holdings = Vec::new();
    crate::bot::range::for_each_set(&pool, down, |c| holdings.extend_from_slice(c));
    let mut weights = vec![1.0; holdings.len() / down];
    let mut out = Vec::new();
    if st.to_act() == Some(0) {
        // The opponent brings in.
        act(&mut st, &mut bets, &mut words, Action::BringIn)?;
        out.push(cell(
            player,
            &st,
            &bets,
            &words,
            &holdings,
            &mut weights,
            Spot::First,
            None,
        )?);
        return Ok(out);
    }
    out.push(cell(
        player,
        &st,
        &bets,
        &words,
        &holdings,
        &mut weights,
        Spot::First,
        Some(Action::BringIn),
    )?);
    act(&mut st, &mut bets, &mut words, Action::BringIn)?;
    let complete = (st.legal_actions().into_iter())
        .find(|a| matches!(a, Action::CompleteBetRaise(_)))
        .context("no completion after the bring-in")?;
    act(&mut st, &mut bets, &mut words, complete)?;
    out.push(cell(
        player,
        &st,
        &bets,
        &words,
        &holdings,
        &mut weights,
        Spot::FacingCompletion,
        None,
    )?);
    Ok(out)
}

/// Applies `a` at `st`, noting it in `bets` and in the spot's `words`.
fn act(st: &mut State, bets: &mut Vec<Bet>, words: &mut Vec<String>, a: Action) -> Result<()> {
    bets.push((st.street(), a));
    words.push(a.to_string().replace(' ', ""));
    st.apply(a)?;
    Ok(())
}

/// The cell of the player's decision at `st`: its mean policy over `holdings` (one after
/// another, as many cards each as `weights` has entries in their number) by `weights`;
/// then each weight multiplied by the holding's probability of `then` (the action the
/// player takes on the way to its next spot), if any.
#[allow(clippy::too_many_arguments)]
fn cell(
    player: &StrategyPlayer,
    st: &State,
    bets: &[Bet],
    words: &[String],
    holdings: &[Card],
    weights: &mut [f64],
    spot: Spot,
    then: Option<Action>,
) -> Result<Cell> {
    ensure!(
        st.to_act() == Some(1),
        "the player is not to act at {}",
        words.join(" ")
    );
    let legal = st.legal_actions();
    let bring_in = st.def().bring_in;
    let level = st.level();
    let column = |a: &Action| match a {
        Action::Fold => 0,
        Action::BringIn => 1,
        Action::CheckCall => 2,
        Action::CompleteBetRaise(_) if level <= bring_in => 3,
        Action::CompleteBetRaise(_) => 4,
    };
    let mut probs = [0.0; crate::strategy_file::MAX_ACTIONS];
    let p = &mut probs[..legal.len()];
    let (mut sum, mut total, mut count) = ([0.0; 5], 0.0, 0);
    let mut s = st.clone();
    let down = holdings.len() / weights.len();
    for (h, w) in holdings.chunks_exact(down).zip(weights.iter_mut()) {
        if *w <= 0.0 {
            continue;
        }
        s.clone_from(st);
        s.show(1, h)?;
        player.policy(&s, bets, 1, &legal, p)?;
        for (a, q) in legal.iter().zip(p.iter()) {
            sum[column(a)] += *w * q;
        }
        total += *w;
        count += 1;
        if let Some(t) = then {
            let i = legal
                .iter()
                .position(|a| *a == t)
                .context("the next action is not legal")?;
            *w *= p[i];
        }
    }
    ensure!(total > 0.0, "no holding reaches {}", words.join(" "));
    Ok(Cell {
        spot,
        door: words[1].clone(),
        opponent_door: words[0].clone(),
        query: words.join(" "),
        holdings: count,
        frequencies: sum.map(|x| x / total),
    })
}
