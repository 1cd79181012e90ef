//! Head-to-head matches with duplicate deals: each deal is played twice with the players
//! swapped between the seats and the cards staying with the seats, so that each player holds
//! both hands once and the luck of the cards cancels out.

use super::{choose, Answer, Bet, Player};
use abstraction::cards::Card;
use abstraction::phh::{HandHistory, Recorder};
use abstraction::rules::{GameDef, Next, State};
use anyhow::{bail, Context};
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;
use rayon::prelude::*;
use std::path::PathBuf;
use std::sync::Arc;

/// The most cards a seat or the board gets in a hand (the rules engine's limit).
const MAX_CARDS: usize = 8;

/// The cards of one deal: each seat's cards in the order they are dealt, and the board's. When
/// the deal is played again with the players swapped, each player gets the cards the other had.
#[derive(Clone, Copy, Debug)]
pub struct DealCards {
    seats: [[Card; MAX_CARDS]; 2],
    board: [Card; MAX_CARDS],
}

impl DealCards {
    /// A random deal of `def`'s deck from `rng`.
    pub fn random(def: &GameDef, rng: &mut ChaCha8Rng) -> DealCards {
        let mut deck: Vec<Card> = def.deck.cards().iter().collect();
        abstraction::draw::shuffle(&mut deck, rng);
        // Heads-up games never run short of cards, so each hand and the board take their own
        // run of the shuffled deck; slots past a hand's last card repeat cards nobody reads.
        let per = def.cards_per_player();
        let at = |k: usize| deck[k % deck.len()];
        DealCards {
            seats: [0, 1].map(|p| std::array::from_fn(|j| at(p * per + j))),
            board: std::array::from_fn(|j| at(2 * per + j)),
        }
    }
}

impl DealCards {
    /// Deals the card due to `seat` (`None`: the board) in `state`, and records it in `rec`.
    pub fn deal_next(
        &self,
        state: &mut State,
        seat: Option<u8>,
        rec: Option<&mut Recorder>,
    ) -> anyhow::Result<()> {
        let card = match seat {
            Some(s) => {
                let k = state.up_cards(s).len() + state.down_cards(s).len();
                self.seats[s as usize][k]
            }
            None => self.board[state.community_cards().len()],
        };
        state.deal(card)?;
        if let Some(r) = rec {
            r.deal(seat, card);
        }
        Ok(())
    }
}

/// What one match found.
#[derive(Clone, Debug, serde::Serialize)]
pub struct MatchResult {
    /// Deals played (each twice).
    pub deals: u64,
    /// Hands played: twice the deals.
    pub hands: u64,
    /// Player A's net chips over all hands.
    pub chips_a: i64,
    /// Player A's mean win rate in milli-big-bets per hand.
    pub mbb_per_hand: f64,
    /// Half the width of the 95% confidence interval of the win rate, from the variance between
    /// duplicate pairs.
    pub ci95: f64,
    /// Player A's decisions answered by the fallback ([`Answer::Fallback`]: no weight on any
    /// legal action, so it checked or called).
    pub fallbacks_a: u64,
    /// Player B's decisions answered by the fallback.
    pub fallbacks_b: u64,
}

/// How to play a match.
pub struct MatchConfig {
    /// The game (heads-up).
    pub def: Arc<GameDef>,
    /// Deals to play (each played twice).
    pub deals: u64,
    /// The seed: deal `i` draws its cards and each player's choices from streams of a ChaCha8
    /// generator seeded with it, so results do not depend on the thread count.
    pub seed: u64,
    /// Write each hand as PHH into this folder (`{deal}a.phh`: A in the first seat,
    /// `{deal}b.phh`: A in the second).
    pub phh_out: Option<PathBuf>,
}

/// The generator of deal (or hand) `index`: stream `tag` (0: the cards; 1, 2: the two plays) of the seed.
pub fn stream(seed: u64, index: u64, tag: u64) -> ChaCha8Rng {
    let mut r = ChaCha8Rng::seed_from_u64(seed);
    r.set_stream(index.wrapping_mul(3).wrapping_add(tag));
    r
}

/// Plays one hand of the heads-up game: `seats[s]` plays seat `s` with the cards of seat `s`.
/// Records it when `rec` is given. Returns the finished state and, per seat, the decisions
/// answered by the fallback.
pub fn play_hand(
    def: &Arc<GameDef>,
    seats: [&dyn Player; 2],
    cards: &DealCards,
    rng: &mut ChaCha8Rng,
    mut rec: Option<&mut Recorder>,
) -> anyhow::Result<(State, [u64; 2])> {
    let mut state = State::with_def(def.clone())?;
    let mut probs = [0.0; 8];
    let mut bets: Vec<Bet> = Vec::new();
    let mut fallbacks = [0; 2];
    loop {
        match state.next() {
            Next::Deal { seat, .. } => {
                cards.deal_next(&mut state, seat, rec.as_deref_mut())?;
            }
            Next::Act { seat } => {
                let legal = state.legal_actions();
                let player = seats[seat as usize];
                let (action, answer) = choose(player, &state, &bets, &legal, &mut probs, rng)
                    .with_context(|| format!("{} at seat {seat}", player.name()))?;
                fallbacks[seat as usize] += (answer == Answer::Fallback) as u64;
                bets.push((state.street(), action));
                state.apply(action)?;
                if let Some(r) = rec.as_deref_mut() {
                    r.act(seat, action);
                }
            }
            Next::Over => return Ok((state, fallbacks)),
        }
    }
}

/// Plays `a` against `b`: every deal twice, A in the first seat then in the second, the cards
/// staying with the seats (so each player holds both hands of the deal once). Deals run in
/// parallel; the result is the same for any number of threads.
pub fn play_match(
    a: &dyn Player,
    b: &dyn Player,
    cfg: &MatchConfig,
) -> anyhow::Result<MatchResult> {
    play_match_with(a, b, cfg, &|| {})
}

/// [`play_match`], calling `done` after each deal (from the worker that played it): a
/// progress bar's tick.
pub fn play_match_with(
    a: &dyn Player,
    b: &dyn Player,
    cfg: &MatchConfig,
    done: &(dyn Fn() + Sync),
) -> anyhow::Result<MatchResult> {
    let def = &cfg.def;
    if def.seats != 2 {
        bail!("a match is heads-up: the game has {} seats", def.seats);
    }
    if cfg.deals < 2 {
        bail!("a match needs at least 2 deals for a confidence interval");
    }
    if cfg.phh_out.is_some() && Recorder::new(def).is_none() {
        bail!(
            "PHH cannot record {}: --phh-out needs a stud game",
            def.variant
        );
    }
    if let Some(dir) = &cfg.phh_out {
        std::fs::create_dir_all(dir).with_context(|| format!("cannot create {}", dir.display()))?;
    }
    let pairs: Vec<(i64, [u64; 2])> = (0..cfg.deals)
        .into_par_iter()
        .map(|i| -> anyhow::Result<(i64, [u64; 2])> {
            let cards = DealCards::random(def, &mut stream(cfg.seed, i, 0));
            let mut net = 0;
            // A's and B's fallbacks.
            let mut fell = [0; 2];
            for (play, first) in [(1u64, 0u8), (2, 1)] {
                let seats: [&dyn Player; 2] = if first == 0 { [a, b] } else { [b, a] };
                let mut rec = cfg.phh_out.as_ref().and_then(|_| Recorder::new(def));
                let mut rng = stream(cfg.seed, i, play);
                let (state, f) = play_hand(def, seats, &cards, &mut rng, rec.as_mut())?;
                fell[0] += f[first as usize];
                fell[1] += f[1 - first as usize];
                let payoffs = state
                    .payoffs()
                    .context("a finished hand has no payoffs (a rules engine bug)")?;
                // Within ±2^53 each (the game's chips are bounded: rules::MAX_CHIPS).
                net += payoffs[first as usize];
                if let (Some(dir), Some(rec)) = (&cfg.phh_out, rec) {
                    let mut h: HandHistory = rec.finish(&state);
                    let names = seats.map(|p| toml::Value::String(p.name().to_string()));
                    h.fields
                        .push(("hand".into(), toml::Value::Integer(i as i64)));
                    h.fields
                        .push(("players".into(), toml::Value::Array(names.to_vec())));
                    let side = if first == 0 { 'a' } else { 'b' };
                    let path = dir.join(format!("{i}{side}.phh"));
                    std::fs::write(&path, h.to_string())
                        .with_context(|| format!("cannot write {}", path.display()))?;
                }
            }
            done();
            Ok((net, fell))
        })
        .collect::<anyhow::Result<_>>()?;
    let nets: Vec<i64> = pairs.iter().map(|p| p.0).collect();
    Ok(MatchResult {
        fallbacks_a: pairs.iter().map(|p| p.1[0]).sum(),
        fallbacks_b: pairs.iter().map(|p| p.1[1]).sum(),
        ..summarize(&nets, def.big_bet)?
    })
}

/// The win rate of the pairs' net chips (two hands each) in milli-big-bets per hand, and the
/// 95% confidence half-width from their sample variance (no fallbacks counted). Fails when the
/// chips summed over the pairs do not fit an `i64` (possible only with stacks near the game's
/// bound, [`MAX_CHIPS`](abstraction::rules::MAX_CHIPS), over 2^9 deals or more).
pub fn summarize(pairs: &[i64], big_bet: u64) -> anyhow::Result<MatchResult> {
    let n = pairs.len() as f64;
    let scale = 1000.0 / (2.0 * big_bet as f64);
    let x: Vec<f64> = pairs.iter().map(|&v| v as f64 * scale).collect();
    let mean = x.iter().sum::<f64>() / n;
    let var = x.iter().map(|v| (v - mean).powi(2)).sum::<f64>() / (n - 1.0).max(1.0);
    let chips: i128 = pairs.iter().map(|&v| v as i128).sum();
    let chips_a = i64::try_from(chips).map_err(|_| {
        anyhow::anyhow!(
            "player A's net result over {} deals, {chips} chips, does not fit a 64-bit count: \
             play fewer deals or smaller stakes",
            pairs.len()
        )
    })?;
    Ok(MatchResult {
        deals: pairs.len() as u64,
        hands: 2 * pairs.len() as u64,
        chips_a,
        mbb_per_hand: mean,
        ci95: 1.96 * (var / n).sqrt(),
        fallbacks_a: 0,
        fallbacks_b: 0,
    })
}
