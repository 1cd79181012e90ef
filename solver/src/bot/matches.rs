//! Matches on duplicate deals: each deal is played once per seating, the players rotated over
//! the seats and the cards staying with the seats, so that every player holds every seat's
//! cards and the luck of the cards cancels out. Heads-up that is each deal twice with the
//! players swapped.

use super::aivat::{self, Aivat, Baseline, HandEstimate, GROUPS};
use super::{choose, control, Bet, NotOwn, Player};
use abstraction::cards::{Card, CardSet};
use abstraction::phh::{HandHistory, Recorder};
use abstraction::rules::pots::MAX_SEATS;
use abstraction::rules::seat_name;
use abstraction::rules::{Deal, GameDef, Next, State};
use anyhow::{bail, Context};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use rayon::prelude::*;
use std::path::PathBuf;
use std::sync::Arc;

/// The most cards a deck holds (a card is a bit of a 64-bit set).
const MAX_DECK: usize = 64;

/// The cards of one deal: the deck shuffled once, each seat's cards and the board's read from
/// fixed places in it, so that whoever sits in a seat gets that seat's cards. When every seat's
/// cards and the board fit the deck, seat `s` takes the run from `s × cards per seat` and the
/// board the run after the last seat's (heads-up always). A full table that does not fit
/// (seven-card stud for eight) reads them in the order a dealer deals, street by street, and a
/// card whose place lies past the deck, or the community card the rules engine turns when the
/// stub runs short, is the first card of the deck whose place no live seat will still be dealt
/// (a folded seat's, or the last street's when it is turned as one community card): it depends
/// on the seats' play only, never on who sits where.
#[derive(Clone, Copy, Debug)]
pub struct DealCards {
    order: [Card; MAX_DECK],
    len: u8,
    seats: u8,
    /// Whether the seats' cards and the board are runs of the deck (else dealing order).
    runs: bool,
}

impl DealCards {
    /// A random deal of `def`'s deck from `rng`.
    pub fn random(def: &GameDef, rng: &mut ChaCha8Rng) -> DealCards {
        let mut deck: Vec<Card> = def.deck.cards().iter().collect();
        abstraction::draw::shuffle(&mut deck, rng);
        let mut order = [Card::from_id(0); MAX_DECK];
        order[..deck.len()].copy_from_slice(&deck);
        let total = def.seats as usize * def.cards_per_player() + def.community_cards();
        DealCards {
            order,
            len: deck.len() as u8,
            seats: def.seats,
            runs: total <= deck.len(),
        }
    }

    /// The place in the shuffled deck of `seat`'s card `k` (`None`: the board's card `k`), or
    /// `None` when it has none (past the deck, or a community card the game does not deal).
    fn place(&self, def: &GameDef, seat: Option<u8>, k: usize) -> Option<usize> {
        let n = self.seats as usize;
        let per = def.cards_per_player();
        let at = if self.runs {
            match seat {
                Some(s) => (k < per).then_some(s as usize * per + k)?,
                None => (k < def.community_cards()).then_some(n * per + k)?,
            }
        } else {
            // Dealing order: each street's cards seat by seat, then its community cards.
            let (mut before, mut mine, mut board) = (0, 0, 0);
            let mut found = None;
            for street in &def.streets {
                let own = street
                    .deal
                    .iter()
                    .filter(|d| **d != Deal::Community)
                    .count();
                let common = street.deal.len() - own;
                match seat {
                    Some(s) if k < mine + own => {
                        found = Some(before + s as usize * own + k - mine);
                        break;
                    }
                    None if k < board + common => {
                        found = Some(before + n * own + k - board);
                        break;
                    }
                    _ => {}
                }
                (before, mine, board) = (before + n * own + common, mine + own, board + common);
            }
            found?
        };
        (at < self.len as usize).then_some(at)
    }

    /// Deals the card due to `seat` (`None`: the board) in `state`, and records it in `rec`.
    pub fn deal_next(
        &self,
        state: &mut State,
        seat: Option<u8>,
        rec: Option<&mut Recorder>,
    ) -> anyhow::Result<()> {
        let def = state.def();
        let k = match seat {
            Some(s) => state.up_cards(s).len() + state.down_cards(s).len(),
            None => state.community_cards().len(),
        };
        let card = match self.place(def, seat, k) {
            Some(at) => self.order[at],
            None => self.spare(state)?,
        };
        state.deal(card)?;
        if let Some(r) = rec {
            r.deal(seat, card);
        }
        Ok(())
    }

    /// The first card of the deck that is not out and whose place no live seat (nor the board)
    /// will still be dealt.
    fn spare(&self, state: &State) -> anyhow::Result<Card> {
        let def = state.def();
        let per = def.cards_per_player();
        let last = def.streets.len() - 1;
        let last_own = def.streets[last]
            .deal
            .iter()
            .filter(|d| **d != Deal::Community)
            .count();
        // Turned as one community card, the last street deals no seat its own card.
        let due_to = if state.short_of_cards() {
            per - last_own
        } else {
            per
        };
        let mut due = CardSet::EMPTY;
        for s in (0..self.seats).filter(|&s| !state.folded(s)) {
            let held = state.up_cards(s).len() + state.down_cards(s).len();
            for k in held..due_to {
                if let Some(at) = self.place(def, Some(s), k) {
                    due.insert(self.order[at]);
                }
            }
        }
        for k in state.community_cards().len()..def.community_cards() {
            if let Some(at) = self.place(def, None, k) {
                due.insert(self.order[at]);
            }
        }
        let free = state.unseen().minus(due);
        self.order[..self.len as usize]
            .iter()
            .copied()
            .find(|&c| free.contains(c))
            .context("the deal has no card left for the rules engine's next card")
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
    /// The share of hands that reached a showdown (two or more seats live at the end), where
    /// the hands were counted: how often a player calls down rather than folds (the strength
    /// issue's measure of folding to aggression).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub showdown_share: Option<f64>,
    /// Player A's variance-reduced win rate ([`aivat`]): the same mean in expectation, a
    /// narrower interval; `None` where the estimator does not apply ([`aivat::applies`]).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub aivat: Option<Estimate>,
}

/// A variance-reduced win rate ([`aivat`]), over the same deals as the plain one.
#[derive(Clone, Copy, Debug, serde::Serialize)]
pub struct Estimate {
    /// The mean estimate in milli-big-bets per hand.
    pub mbb_per_hand: f64,
    /// Half the width of its 95% confidence interval, from the variance between deals.
    pub ci95: f64,
    /// The estimate with every correction at weight 1 (AIVAT's own, before the weights are
    /// fitted: [`control`]).
    pub unweighed_mbb: f64,
    /// Its 95% half-width.
    pub unweighed_ci95: f64,
}

/// How to play a match.
pub struct MatchConfig {
    /// The game: its seats are the players.
    pub def: Arc<GameDef>,
    /// Deals to play (each played twice).
    pub deals: u64,
    /// The seed: deal `i` draws its cards and each player's choices from streams of a ChaCha8
    /// generator seeded with it, so results do not depend on the thread count.
    pub seed: u64,
    /// Write each hand as PHH into this folder (`{deal}a.phh`: the first seating, the first
    /// player in the first seat; `{deal}b.phh`: the next, the first player in the second seat).
    pub phh_out: Option<PathBuf>,
    /// The variance-reduced estimate ([`aivat`]) beside the plain result, where it applies
    /// ([`aivat::applies`]); `None`: the plain result alone, without the estimate's rollouts.
    pub aivat: Option<Aivat>,
}

/// The generator of deal (or hand) `index` of a heads-up match: stream `tag` (0: the cards; 1,
/// 2: the two plays) of the seed.
pub fn stream(seed: u64, index: u64, tag: u64) -> ChaCha8Rng {
    table_stream(seed, index, tag, 2)
}

/// The generator of deal `index` at a table of `seats`: stream `tag` (0: the cards; 1 to
/// `seats`: the plays, one per seating) of the seed. Two seats are [`stream`].
pub fn table_stream(seed: u64, index: u64, tag: u64, seats: u8) -> ChaCha8Rng {
    let mut r = ChaCha8Rng::seed_from_u64(seed);
    r.set_stream(index.wrapping_mul(u64::from(seats) + 1).wrapping_add(tag));
    r
}

/// Plays one hand: `seats[s]` plays seat `s` with the cards of seat `s` (one player per seat
/// of `def`). Records it when `rec` is given. Returns the finished state and, per seat, the
/// decisions not answered by the player's own row.
pub fn play_hand(
    def: &Arc<GameDef>,
    seats: &[&dyn Player],
    cards: &DealCards,
    rng: &mut ChaCha8Rng,
    rec: Option<&mut Recorder>,
) -> anyhow::Result<(State, [NotOwn; MAX_SEATS])> {
    play_hand_estimated(def, seats, cards, rng, rec, None).map(|(state, f, _)| (state, f))
}

/// How the estimate of a hand is asked for: the deal's key, the seats whose probabilities
/// it does not read and its value function ([`HandEstimate::new`]).
pub type EstimateKey = (u64, u16, Baseline);

/// A hand's variance-reduced estimate ([`aivat`]): per seat, its estimate of the chips and its
/// corrections by group ([`HandEstimate::corrections`]).
pub type Estimated = ([f64; MAX_SEATS], [[f64; GROUPS]; MAX_SEATS]);

/// [`play_hand`], with each seat's variance-reduced estimate of its chips ([`aivat`]) when
/// `estimate` gives its key.
pub fn play_hand_estimated(
    def: &Arc<GameDef>,
    seats: &[&dyn Player],
    cards: &DealCards,
    rng: &mut ChaCha8Rng,
    mut rec: Option<&mut Recorder>,
    estimate: Option<EstimateKey>,
) -> anyhow::Result<(State, [NotOwn; MAX_SEATS], Option<Estimated>)> {
    if seats.len() != def.seats as usize {
        bail!("{} players for {} seats", seats.len(), def.seats);
    }
    let mut state = State::with_def(def.clone())?;
    let mut est = estimate
        .map(|(key, opaque, baseline)| HandEstimate::new(&state, key, opaque, baseline))
        .transpose()?;
    let mut probs = [0.0; 8];
    let mut bets: Vec<Bet> = Vec::new();
    let mut not_own = [NotOwn::default(); MAX_SEATS];
    loop {
        match state.next() {
            Next::Deal { seat, .. } => {
                if let Some(e) = est.as_mut() {
                    e.card_coming(&state);
                }
                cards.deal_next(&mut state, seat, rec.as_deref_mut())?;
            }
            Next::Act { seat } => {
                let legal = state.legal_actions();
                let player = seats[seat as usize];
                let (action, answer) = choose(player, &state, &bets, &legal, &mut probs, rng)
                    .with_context(|| format!("{} as {}", player.name(), seat_name(seat)))?;
                not_own[seat as usize].count(answer);
                if let Some(e) = est.as_mut() {
                    let chosen = legal.iter().position(|a| *a == action).unwrap_or(0);
                    e.decision(&state, &bets, &legal, &probs[..legal.len()], chosen, seats)?;
                }
                bets.push((state.street(), action));
                state.apply(action)?;
                if let Some(r) = rec.as_deref_mut() {
                    r.act(seat, action);
                }
            }
            Next::Over => {
                let estimated = match est.as_mut() {
                    Some(e) => Some((e.finish(&state)?, *e.corrections())),
                    None => None,
                };
                return Ok((state, not_own, estimated));
            }
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
    if cfg.def.seats != 2 {
        bail!(
            "a match of two players is heads-up: the game has {} seats (a table of more plays \
             one player per seat)",
            cfg.def.seats
        );
    }
    let t = play_table(&[a, b], cfg, done)?;
    Ok(MatchResult {
        fallbacks_a: t.not_own[0].fallbacks,
        fallbacks_b: t.not_own[1].fallbacks,
        showdown_share: Some(t.showdown_share()),
        aivat: t.estimate(&[0], cfg.def.big_bet),
        ..summarize(&t.nets(0), cfg.def.big_bet)?
    })
}

/// What [`play_table`] found: each deal's net chips for each player over its seatings.
#[derive(Clone, Debug)]
pub struct TableDeals {
    /// The players (and seats).
    pub seats: usize,
    /// Per deal, in the order of the deals, each player's net chips over the deal's seatings
    /// (entries past `seats` are 0). They sum to 0: the game takes no rake.
    pub per_deal: Vec<[i64; MAX_SEATS]>,
    /// Per deal, each player's variance-reduced estimate of those chips ([`aivat`]) and its
    /// corrections by group over the deal's seatings; `None` where the estimator does not
    /// apply ([`aivat::applies`]).
    pub estimated: Option<Vec<Estimated>>,
    /// Each player's decisions not answered by its own row ([`Answer::Fallback`],
    /// [`Answer::Unreached`]).
    pub not_own: [NotOwn; MAX_SEATS],
    /// Hands, over every deal and seating, that ended with two or more seats live: a showdown.
    pub showdowns: u64,
}

impl TableDeals {
    /// The share of the hands played that reached a showdown.
    pub fn showdown_share(&self) -> f64 {
        let hands = (self.per_deal.len() * self.seats) as f64;
        self.showdowns as f64 / hands.max(1.0)
    }

    /// Player `p`'s net chips, deal by deal.
    pub fn nets(&self, p: usize) -> Vec<i64> {
        self.pooled_nets(&[p])
    }

    /// The net chips of the players `ps` together (copies of one player pooled), deal by deal.
    fn pooled_nets(&self, ps: &[usize]) -> Vec<i64> {
        self.per_deal
            .iter()
            .map(|d| ps.iter().map(|&p| d[p]).sum())
            .collect()
    }

    /// The win rate of the players `ps` pooled, per hand each of them played: the deals are the
    /// independent unit (each the sum over its seatings and over `ps`), `ps.len()` times the
    /// seats hands a deal. With it, the variance-reduced one where there is one.
    pub fn win_rate(&self, ps: &[usize], big_bet: u64) -> anyhow::Result<WinRate> {
        let hands = (ps.len() * self.seats) as u64;
        let mut r = win_rate(&self.pooled_nets(ps), hands, big_bet)?;
        r.aivat = self.estimate(ps, big_bet);
        Ok(r)
    }

    /// The variance-reduced win rate of the players `ps` pooled, as [`TableDeals::win_rate`].
    pub fn estimate(&self, ps: &[usize], big_bet: u64) -> Option<Estimate> {
        let deals = self.estimated.as_ref()?;
        let scale = 1000.0 / ((ps.len() * self.seats) as f64 * big_bet as f64);
        let x: Vec<f64> = deals
            .iter()
            .map(|d| ps.iter().map(|&p| d.0[p]).sum::<f64>() * scale)
            .collect();
        let c: Vec<[f64; GROUPS]> = deals
            .iter()
            .map(|d| std::array::from_fn(|g| ps.iter().map(|&p| d.1[p][g]).sum::<f64>() * scale))
            .collect();
        let (mbb_per_hand, ci95) = mean_ci95(&control::reweighed(&x, &c));
        let (unweighed_mbb, unweighed_ci95) = mean_ci95(&x);
        Some(Estimate {
            mbb_per_hand,
            ci95,
            unweighed_mbb,
            unweighed_ci95,
        })
    }
}

/// What one deal gave: each player's net over its seatings, its variance-reduced estimate,
/// its decisions not answered by its own row, and the seatings that reached a showdown.
type Played = ([i64; MAX_SEATS], Estimated, [NotOwn; MAX_SEATS], u64);

/// Plays `players` at a table of as many seats on duplicate deals: every deal once per seating,
/// the players rotated one seat to the left each time (player `p` in seat `(p + r) mod N` in
/// seating `r`, from 0 to N − 1), the cards staying with the seats, so that every player holds
/// every seat's cards once. Seating `r` draws its choices from stream `1 + r` of the deal
/// ([`table_stream`]); heads-up this is [`play_match`]'s two plays. Deals run in parallel; the
/// result is the same for any number of threads. `phh_out` gets `{deal}{letter}.phh`,
/// seating `a`, `b`, `c`, …. Where it applies, each hand's variance-reduced estimate
/// ([`aivat`]) is computed beside its chips.
pub fn play_table(
    players: &[&dyn Player],
    cfg: &MatchConfig,
    done: &(dyn Fn() + Sync),
) -> anyhow::Result<TableDeals> {
    let def = &cfg.def;
    let n = def.seats as usize;
    if players.len() != n {
        bail!(
            "{} players for a game of {n} seats: give one player per seat",
            players.len()
        );
    }
    if cfg.deals < 2 {
        bail!("a match needs at least 2 deals for a confidence interval");
    }
    let opaque = cfg.aivat.as_ref().map_or(&[][..], |a| &a.opaque[..]);
    if let Some(&p) = opaque.iter().find(|&&p| p >= n) {
        bail!("opaque player {p}: the players are 0 to {}", n - 1);
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
    let deals: Vec<Played> = (0..cfg.deals)
        .into_par_iter()
        .map(|i| {
            let played = play_deal(players, cfg, i);
            done();
            played
        })
        .collect::<anyhow::Result<_>>()?;
    let mut not_own = [NotOwn::default(); MAX_SEATS];
    for (_, _, f, _) in &deals {
        for (total, &x) in not_own.iter_mut().zip(f) {
            *total += x;
        }
    }
    Ok(TableDeals {
        seats: n,
        showdowns: deals.iter().map(|d| d.3).sum(),
        per_deal: deals.iter().map(|d| d.0).collect(),
        estimated: estimating(cfg).then(|| deals.iter().map(|d| d.1).collect()),
        not_own,
    })
}

/// Plays deal `i` of [`play_table`] at every seating.
fn play_deal(players: &[&dyn Player], cfg: &MatchConfig, i: u64) -> anyhow::Result<Played> {
    let def = &cfg.def;
    let n = def.seats as usize;
    let cards = DealCards::random(def, &mut table_stream(cfg.seed, i, 0, def.seats));
    // The rollouts' key: the seed and the deal, never the seating, so that the seatings of
    // the deal reaching the same cards estimate the same equities.
    let key = table_stream(cfg.seed ^ ROLLOUT_SALT, i, 0, def.seats).next_u64();
    let estimating = estimating(cfg);
    let (mut net, mut est, mut fell, mut showdowns) = (
        [0; MAX_SEATS],
        ([0.0; MAX_SEATS], [[0.0; GROUPS]; MAX_SEATS]),
        [NotOwn::default(); MAX_SEATS],
        0,
    );
    let mut seats: [&dyn Player; MAX_SEATS] = [players[0]; MAX_SEATS];
    for r in 0..n {
        // Player p in seat (p + r) mod n.
        for (p, &player) in players.iter().enumerate() {
            seats[(p + r) % n] = player;
        }
        let opaque =
            (cfg.aivat.iter().flat_map(|a| &a.opaque)).fold(0u16, |m, &p| m | 1 << ((p + r) % n));
        let mut rec = cfg.phh_out.as_ref().and_then(|_| Recorder::new(def));
        let mut rng = table_stream(cfg.seed, i, 1 + r as u64, def.seats);
        let baseline = cfg
            .aivat
            .as_ref()
            .map_or(Baseline::default(), |a| a.baseline);
        let estimate = estimating.then_some((key, opaque, baseline));
        let (state, f, e) =
            play_hand_estimated(def, &seats[..n], &cards, &mut rng, rec.as_mut(), estimate)?;
        showdowns += u64::from(state.live().count_ones() >= 2);
        let payoffs = state
            .payoffs()
            .context("a finished hand has no payoffs (a rules engine bug)")?;
        for p in 0..n {
            // Within ±2^53 each (the game's chips are bounded: rules::MAX_CHIPS).
            net[p] += payoffs[(p + r) % n];
            fell[p] += f[(p + r) % n];
            if let Some((e, groups)) = &e {
                est.0[p] += e[(p + r) % n];
                for (total, x) in est.1[p].iter_mut().zip(groups[(p + r) % n]) {
                    *total += x;
                }
            }
        }
        if let (Some(dir), Some(rec)) = (&cfg.phh_out, rec) {
            let mut h: HandHistory = rec.finish(&state);
            let names = seats[..n]
                .iter()
                .map(|p| toml::Value::String(p.name().to_string()))
                .collect();
            h.fields
                .push(("hand".into(), toml::Value::Integer(i as i64)));
            h.fields.push(("players".into(), toml::Value::Array(names)));
            let seating = char::from(b'a' + r as u8);
            let path = dir.join(format!("{i}{seating}.phh"));
            crate::container::write_bytes(&path, h.to_string().as_bytes())?;
        }
    }
    Ok((net, est, fell, showdowns))
}

/// Whether `cfg`'s match computes the variance-reduced estimate: asked for, and applying to
/// the game.
fn estimating(cfg: &MatchConfig) -> bool {
    cfg.aivat.is_some() && aivat::applies(&cfg.def)
}

/// Mixed into the seed for the estimate's rollouts, so that they are drawn from generators of
/// their own, apart from the cards' and the players'.
const ROLLOUT_SALT: u64 = 0xA1FA_7E57_1A7E_0001;

/// A win rate over duplicate deals.
#[derive(Clone, Debug, serde::Serialize)]
pub struct WinRate {
    /// Deals played.
    pub deals: u64,
    /// Hands played: the hands of a deal times the deals.
    pub hands: u64,
    /// Net chips over all hands.
    pub chips: i64,
    /// The mean win rate in milli-big-bets per hand.
    pub mbb_per_hand: f64,
    /// Half the width of the 95% confidence interval of the win rate, from the variance between
    /// deals.
    pub ci95: f64,
    /// The variance-reduced win rate ([`aivat`]), where it applies.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub aivat: Option<Estimate>,
}

/// The win rate of `nets` (each a deal's net chips over `hands` hands) in milli-big-bets per
/// hand, and the 95% confidence half-width from their sample variance. Fails when the chips
/// summed over the deals do not fit an `i64` (possible only with stacks near the game's bound,
/// [`MAX_CHIPS`](abstraction::rules::MAX_CHIPS), over 2^9 deals or more).
pub fn win_rate(nets: &[i64], hands: u64, big_bet: u64) -> anyhow::Result<WinRate> {
    let scale = 1000.0 / (hands as f64 * big_bet as f64);
    let x: Vec<f64> = nets.iter().map(|&v| v as f64 * scale).collect();
    let (mean, ci95) = mean_ci95(&x);
    let chips: i128 = nets.iter().map(|&v| v as i128).sum();
    let chips = i64::try_from(chips).map_err(|_| {
        anyhow::anyhow!(
            "the net result over {} deals, {chips} chips, does not fit a 64-bit count: play \
             fewer deals or smaller stakes",
            nets.len()
        )
    })?;
    Ok(WinRate {
        deals: nets.len() as u64,
        hands: hands * nets.len() as u64,
        chips,
        mbb_per_hand: mean,
        ci95,
        aivat: None,
    })
}

/// The mean of `x` and the half-width of its 95% confidence interval, from the sample
/// variance (normal approximation).
fn mean_ci95(x: &[f64]) -> (f64, f64) {
    let n = x.len() as f64;
    let mean = x.iter().sum::<f64>() / n;
    let var = x.iter().map(|v| (v - mean).powi(2)).sum::<f64>() / (n - 1.0).max(1.0);
    (mean, 1.96 * (var / n).sqrt())
}

/// The win rate of the pairs' net chips (two hands each) in milli-big-bets per hand, and the
/// 95% confidence half-width from their sample variance (no fallbacks counted); see
/// [`win_rate`].
pub fn summarize(pairs: &[i64], big_bet: u64) -> anyhow::Result<MatchResult> {
    let r = win_rate(pairs, 2, big_bet)?;
    Ok(MatchResult {
        deals: r.deals,
        hands: r.hands,
        chips_a: r.chips,
        mbb_per_hand: r.mbb_per_hand,
        ci95: r.ci95,
        fallbacks_a: 0,
        fallbacks_b: 0,
        showdown_share: None,
        aivat: None,
    })
}
