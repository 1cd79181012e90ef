//! Local best response (Lisý and Bowling 2017) against any [`Player`], adapted to stud: a lower
//! bound on the player's exploitability in the real game.
//!
//! LBR follows each hand as it is played and keeps the opponent's range over its hidden down
//! cards: a list of holdings, each with a weight. When the opponent's down cards first matter,
//! the list holds every way to fill them from the cards LBR has not seen (the deal is uniform,
//! each street's down cards a set); each card LBR sees later strikes the holdings that contain
//! it, each later down card of the opponent multiplies each holding by every way to fill it, and
//! each action the opponent takes multiplies each holding's weight by the probability its own
//! policy gives that action with those cards (Bayes' rule). A holding of weight 0 is dropped and
//! never looked at again. So each of the opponent's decisions is weighed once per holding, when
//! it is taken, however many decisions LBR makes after it.
//!
//! With [`Candidates::All`] the range is exact: seven-card stud has C(48,2) = 1,128 holdings on
//! third street and up to C(41,2)·39 = 31,980 on seventh. With [`Candidates::Sample`]`(m)` the
//! list is cut to `m` holdings drawn uniformly where it would be longer (one hidden card, as in
//! Leduc, ministud and five-card stud, never is: both modes are then the same). LBR acts only on
//! what it may see either way, so its win rate is a lower bound on the exploitability whatever
//! the sample.
//!
//! The cost is the opponent's policy, asked for every holding at each of its decisions and at
//! each raise LBR weighs. A player that reads its cards through a class per street (a strategy
//! file's bucket: [`Player::card_class`]) is asked each holding's class once a street (the
//! bucket lookup, tens of microseconds at the `default` size) and its policy once per class at
//! each decision; other players are asked for each holding.

use super::heuristic::equity;
use super::matches::{play_hand, stream, summarize, DealCards, MatchResult};
use super::{Answer, Bet, Player};
use crate::strategy_file::MAX_ACTIONS;
use abstraction::cards::{Card, CardSet};
use abstraction::rules::{Action, Deal, GameDef, Next, State};
use anyhow::{bail, ensure, Context};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use rayon::prelude::*;
use std::sync::{Arc, Mutex};

/// The most down cards a seat holds (the rules engine's limit per seat).
const MAX_DOWN: usize = 8;

/// Which holdings of the opponent's hidden down cards LBR weighs.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Candidates {
    /// Every holding consistent with the cards LBR has seen: the exact range.
    All,
    /// At most this many: all of them when there are no more, else a uniform sample.
    Sample(usize),
}

impl std::str::FromStr for Candidates {
    type Err = String;

    /// `all` or a positive number.
    fn from_str(s: &str) -> Result<Candidates, String> {
        match s {
            "all" => Ok(Candidates::All),
            _ => match s.parse::<usize>() {
                Ok(m) if m > 0 => Ok(Candidates::Sample(m)),
                _ => Err(format!(
                    "`{s}`: `all` or a positive number of candidate hands"
                )),
            },
        }
    }
}

impl std::fmt::Display for Candidates {
    fn fmt(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
        match self {
            Candidates::All => f.write_str("all"),
            Candidates::Sample(m) => write!(f, "{m}"),
        }
    }
}

/// At each of its decisions, LBR takes the opponent's range over its hidden cards (see the
/// module) and picks the action of best expected value assuming the rest of the hand is checked
/// down: folding is worth 0, checking or calling `equity × (pot + cost) − cost`, and a bet or
/// raise adds the chance that the opponent folds to it (its policy at the state the raise leads
/// to, for each holding), the opponent calling otherwise. Equities are by rollouts of the cards
/// to come against each holding.
pub struct Lbr<'a> {
    opponent: &'a dyn Player,
    def: Arc<GameDef>,
    rollouts: u32,
    candidates: Candidates,
}

impl<'a> Lbr<'a> {
    /// LBR against `opponent` in the heads-up game `def`, with `rollouts` rollouts per equity
    /// (one on the last street, where nothing is left to deal) and the holdings `candidates`.
    pub fn new(
        opponent: &'a dyn Player,
        def: Arc<GameDef>,
        rollouts: u32,
        candidates: Candidates,
    ) -> anyhow::Result<Lbr<'a>> {
        ensure!(
            def.seats == 2,
            "LBR is heads-up: the game has {} seats",
            def.seats
        );
        ensure!(rollouts > 0, "LBR needs at least one rollout per equity");
        ensure!(
            candidates != Candidates::Sample(0),
            "LBR needs at least one candidate hand"
        );
        Ok(Lbr {
            opponent,
            def,
            rollouts,
            candidates,
        })
    }

    /// Plays LBR against the opponent on `deals` duplicate deals, as
    /// [`super::matches::play_match`] plays two players (the same cards and the same streams of
    /// `seed`, so the result does not depend on the thread count), LBR as player A. LBR sits at
    /// each hand with an empty memory: what it keeps is that hand's range. Calls `done` after
    /// each deal. The opponent's fallbacks are counted as player B's.
    pub fn play(
        &self,
        deals: u64,
        seed: u64,
        done: &(dyn Fn() + Sync),
    ) -> anyhow::Result<MatchResult> {
        ensure!(
            deals >= 2,
            "a match needs at least 2 deals for a confidence interval"
        );
        self.play_deals(deals, seed, done)?.result(self.def.big_bet)
    }

    /// As [`Lbr::play`], each deal's net chips for LBR over its two hands, in the order of the
    /// deals: two LBRs (or two strategies) measured on the same seed can be compared deal by
    /// deal, which cancels most of the luck of the opponent's draws.
    pub fn play_deals(
        &self,
        deals: u64,
        seed: u64,
        done: &(dyn Fn() + Sync),
    ) -> anyhow::Result<LbrDeals> {
        let def = &self.def;
        let per_deal: Vec<(i64, [u64; 2])> = (0..deals)
            .into_par_iter()
            .map(|i| -> anyhow::Result<(i64, [u64; 2])> {
                let cards = DealCards::random(def, &mut stream(seed, i, 0));
                let mut net = 0;
                // LBR's fallbacks, then the opponent's.
                let mut fallbacks = [0; 2];
                for (play, first) in [(1u64, 0u8), (2, 1)] {
                    let me = InHand(Mutex::new(Range::new(self, first)?));
                    let seats: [&dyn Player; 2] = if first == 0 {
                        [&me, self.opponent]
                    } else {
                        [self.opponent, &me]
                    };
                    let (state, fell) =
                        play_hand(def, seats, &cards, &mut stream(seed, i, play), None)?;
                    let payoffs = state
                        .payoffs()
                        .context("a finished hand has no payoffs (a rules engine bug)")?;
                    net += payoffs[first as usize];
                    fallbacks[0] += fell[first as usize];
                    fallbacks[1] += fell[1 - first as usize];
                }
                done();
                Ok((net, fallbacks))
            })
            .collect::<anyhow::Result<_>>()?;
        Ok(LbrDeals {
            nets: per_deal.iter().map(|d| d.0).collect(),
            fallbacks: [0, 1].map(|s| per_deal.iter().map(|d| d.1[s]).sum()),
        })
    }
}

/// What [`Lbr::play_deals`] found.
#[derive(Clone, Debug)]
pub struct LbrDeals {
    /// Each deal's net chips for LBR over its two hands, in the order of the deals.
    pub nets: Vec<i64>,
    /// Decisions answered by the fallback ([`super::Answer::Fallback`]: no weight on any legal
    /// action, so it checked or called): LBR's, then the opponent's. A strategy's fallbacks
    /// are play it was not solved for, so LBR reports them rather than measure them silently.
    pub fallbacks: [u64; 2],
}

impl LbrDeals {
    /// The match result (see [`summarize`]) at a big bet of `big_bet`, LBR as player A, with
    /// the fallbacks counted.
    pub fn result(&self, big_bet: u64) -> anyhow::Result<MatchResult> {
        Ok(MatchResult {
            fallbacks_a: self.fallbacks[0],
            fallbacks_b: self.fallbacks[1],
            ..summarize(&self.nets, big_bet)?
        })
    }
}

/// LBR in one hand: the player [`Lbr::play`] seats, with the opponent's range carried from one
/// of its decisions to the next. The lock is never contended (a hand is played on one thread);
/// it is there because a [`Player`] is shared between threads.
struct InHand<'l>(Mutex<Range<'l>>);

impl Player for InHand<'_> {
    fn name(&self) -> &str {
        "lbr"
    }

    fn policy(
        &self,
        state: &State,
        bets: &[Bet],
        seat: u8,
        legal: &[Action],
        probs: &mut [f64],
    ) -> anyhow::Result<Answer> {
        let mut range = self
            .0
            .lock()
            .map_err(|_| anyhow::anyhow!("LBR's range was left half-updated by a panic"))?;
        ensure!(
            seat == range.seat,
            "LBR sits at seat {}, not {seat}",
            range.seat
        );
        range.decide(state, bets, legal, probs)?;
        Ok(Answer::Own)
    }
}

/// One holding of the opponent's hidden down cards, and what LBR worked out about it.
#[derive(Clone, Copy)]
struct Holding {
    /// The down cards in the order dealt (the first [`Range::n`]), each street's as a set in
    /// increasing order.
    cards: [Card; MAX_DOWN],
    /// The same cards as a set.
    set: CardSet,
    /// The product of the opponent's probabilities of the actions it took with these cards
    /// (times the uniform prior: 1).
    weight: f64,
    /// Its class on the street [`Range::classes_on`].
    class: u32,
    /// LBR's checked-down equity against it on the street [`Range::equity_on`].
    equity: f64,
}

impl Holding {
    /// No card yet, weight 1.
    const EMPTY: Holding = Holding {
        cards: [Card::from_id(0); MAX_DOWN],
        set: CardSet::EMPTY,
        weight: 1.0,
        class: 0,
        equity: 0.0,
    };
}

/// LBR's memory of one hand: the hand replayed with the opponent's down cards unknown, and the
/// opponent's range.
struct Range<'l> {
    lbr: &'l Lbr<'l>,
    /// LBR's seat.
    seat: u8,
    /// The hand so far as LBR sees it, up to the bet `read`.
    st: State,
    /// Bets of the hand replayed into `st`.
    read: usize,
    /// The cards LBR has seen: its own, every up card, the board.
    seen: CardSet,
    /// How many down cards the opponent got on each street so far (those dealt between two
    /// decisions count as one street).
    groups: Vec<usize>,
    /// Down cards dealt to the opponent and not yet given to the holdings.
    pending: usize,
    /// Down cards per holding: the sum of `groups`.
    n: usize,
    /// The range: every holding of positive weight.
    holdings: Vec<Holding>,
    /// Whether the opponent has card classes (known after the first ask).
    has_classes: Option<bool>,
    /// The street whose class each holding holds.
    classes_on: Option<usize>,
    /// The street whose equity each holding holds.
    equity_on: Option<usize>,
    /// Scratch: a policy column per holding, a policy entry per class, holdings being extended,
    /// the unseen cards.
    column: Vec<f64>,
    per_class: Vec<f64>,
    spare: Vec<Holding>,
    pool: Vec<Card>,
}

impl<'l> Range<'l> {
    /// An empty memory of a hand about to be dealt, LBR at `seat`.
    fn new(lbr: &'l Lbr<'l>, seat: u8) -> anyhow::Result<Range<'l>> {
        Ok(Range {
            lbr,
            seat,
            st: State::with_def(Arc::clone(&lbr.def))?,
            read: 0,
            seen: CardSet::EMPTY,
            groups: Vec::new(),
            pending: 0,
            n: 0,
            holdings: Vec::new(),
            has_classes: None,
            classes_on: None,
            equity_on: None,
            column: Vec::new(),
            per_class: Vec::new(),
            spare: Vec::new(),
            pool: Vec::new(),
        })
    }

    /// Replays what happened since the last call up to LBR's decision `real` after `bets`:
    /// the cards of `real` in order except the opponent's down cards (LBR may not read them),
    /// and the bets, each of the opponent's weighing the range.
    fn advance(&mut self, real: &State, bets: &[Bet]) -> anyhow::Result<()> {
        let (seat, opp) = (self.seat, 1 - self.seat);
        ensure!(
            self.read <= bets.len(),
            "the betting given is shorter than the one LBR followed"
        );
        loop {
            match self.st.next() {
                Next::Deal {
                    seat: Some(s),
                    deal: Deal::Down,
                } if s == opp => {
                    self.st.deal_unknown()?;
                    self.pending += 1;
                }
                Next::Deal { seat, deal } => {
                    let st = &self.st;
                    let card = match (seat, deal) {
                        (None, _) => real
                            .community_cards()
                            .get(st.community_cards().len())
                            .copied(),
                        (Some(s), Deal::Down) => real
                            .down_cards(s)
                            .get(st.down_cards(s).len())
                            .copied()
                            .flatten(),
                        (Some(s), _) => real.up_cards(s).get(st.up_cards(s).len()).copied(),
                    };
                    let card = card.context("the state lacks a card the betting so far dealt")?;
                    self.st.deal(card)?;
                    self.seen.insert(card);
                }
                Next::Act { seat: s } if self.read == bets.len() => {
                    ensure!(
                        s == seat && self.st.street() == real.street(),
                        "the betting given does not lead to this decision of seat {seat}"
                    );
                    return self.refresh();
                }
                Next::Act { seat: s } => {
                    let a = bets[self.read].1;
                    if s == opp {
                        self.refresh()?;
                        self.observe(&bets[..self.read], a)?;
                    }
                    self.st
                        .apply(a)
                        .with_context(|| format!("bet {} of the hand ({a})", self.read + 1))?;
                    self.read += 1;
                }
                Next::Over => bail!("the hand is over: there is no decision to make"),
            }
        }
    }

    /// Brings the holdings up to the cards dealt: strikes those holding a card seen since, and
    /// fills the opponent's new down cards. If a sample lost every holding, starts it again
    /// (every holding alike).
    fn refresh(&mut self) -> anyhow::Result<()> {
        let seen = self.seen;
        self.holdings
            .retain(|h| h.set.intersection(seen).is_empty());
        let k = std::mem::take(&mut self.pending);
        if k > 0 {
            ensure!(
                self.n + k <= MAX_DOWN,
                "LBR infers at most {MAX_DOWN} hidden cards"
            );
            self.groups.push(k);
        }
        let start = self.holdings.is_empty() && !self.groups.is_empty();
        if !start && k == 0 {
            return Ok(());
        }
        let most = match self.lbr.candidates {
            Candidates::All => None,
            Candidates::Sample(m) => Some(m),
        };
        self.pool.clear();
        self.pool
            .extend(self.lbr.def.deck.cards().minus(self.seen).iter());
        // Seeded by what LBR has seen (and its seat), so that the same spot draws the same
        // sample and the result does not depend on the thread count.
        let mut rng = ChaCha8Rng::seed_from_u64(
            self.seen.0 ^ (u64::from(self.seat) << 60) ^ 0x5851_F42D_4C95_7F2D,
        );
        let groups: &[usize] = if start {
            self.holdings.clear();
            self.holdings.push(Holding::EMPTY);
            self.n = 0;
            &self.groups
        } else {
            &self.groups[self.groups.len() - 1..]
        };
        for &g in groups {
            extend(
                &mut self.holdings,
                &mut self.spare,
                self.n,
                g,
                &self.pool,
                most,
                &mut rng,
            );
            self.n += g;
        }
        ensure!(
            !self.holdings.is_empty(),
            "fewer unseen cards than the opponent's hidden ones"
        );
        self.classes_on = None;
        self.equity_on = None;
        Ok(())
    }

    /// Weighs the range by the opponent's action `a` at its decision `self.st` after `bets`.
    fn observe(&mut self, bets: &[Bet], a: Action) -> anyhow::Result<()> {
        let st = self.st.clone();
        let legal = st.legal_actions();
        let k = legal
            .iter()
            .position(|x| *x == a)
            .context("an action of the hand was not legal on replay")?;
        self.policy_column(&st, bets, &legal, k)?;
        let total: f64 = self
            .holdings
            .iter()
            .zip(&self.column)
            .map(|(h, p)| h.weight * p)
            .sum();
        if total > 0.0 {
            for (h, p) in self.holdings.iter_mut().zip(&self.column) {
                h.weight *= p;
            }
            self.holdings.retain(|h| h.weight > 0.0);
        } else {
            // Off the opponent's own paths (only a sample can miss them: the holding it plays
            // is always in the exact range): every holding alike.
            self.holdings.iter_mut().for_each(|h| h.weight = 1.0);
        }
        Ok(())
    }

    /// Sets `self.column` to the opponent's probability of `legal[k]` at its decision `st`
    /// (after `bets`; its down cards unknown) for each holding.
    fn policy_column(
        &mut self,
        st: &State,
        bets: &[Bet],
        legal: &[Action],
        k: usize,
    ) -> anyhow::Result<()> {
        ensure!(
            legal.len() <= MAX_ACTIONS,
            "a decision with {} actions",
            legal.len()
        );
        let opp = 1 - self.seat;
        let opponent = self.lbr.opponent;
        let mut row = [0.0; MAX_ACTIONS];
        let row = &mut row[..legal.len()];
        self.column.clear();
        if self.classes(st)? {
            // One policy per class: NaN marks a class not asked yet.
            self.per_class.clear();
            for h in &self.holdings {
                let c = h.class as usize;
                if c >= self.per_class.len() {
                    self.per_class.resize(c + 1, f64::NAN);
                }
                if self.per_class[c].is_nan() {
                    opponent.class_policy(st, bets, opp, h.class, legal, row)?;
                    self.per_class[c] = row[k];
                }
                self.column.push(self.per_class[c]);
            }
        } else {
            let mut s = st.clone();
            for h in &self.holdings {
                s.clone_from(st);
                s.show(opp, &h.cards[..self.n])?;
                opponent.policy(&s, bets, opp, legal, row)?;
                self.column.push(row[k]);
            }
        }
        Ok(())
    }

    /// Whether the opponent reads its cards through classes; if so, gives each holding its
    /// class on the street of `st` (once a street).
    fn classes(&mut self, st: &State) -> anyhow::Result<bool> {
        if self.has_classes == Some(false) {
            return Ok(false);
        }
        if self.classes_on == Some(st.street()) {
            return Ok(true);
        }
        let opp = 1 - self.seat;
        let mut s = st.clone();
        for h in &mut self.holdings {
            s.clone_from(st);
            s.show(opp, &h.cards[..self.n])?;
            match self.lbr.opponent.card_class(&s, opp)? {
                Some(c) => h.class = c,
                None => {
                    ensure!(
                        self.has_classes.is_none(),
                        "{} has card classes at some states only",
                        self.lbr.opponent.name()
                    );
                    self.has_classes = Some(false);
                    return Ok(false);
                }
            }
            self.has_classes = Some(true);
        }
        self.classes_on = Some(st.street());
        Ok(true)
    }

    /// Gives each holding LBR's checked-down equity against it on this street (once a street:
    /// the cards do not change within one).
    fn equities(&mut self) {
        let street = self.st.street();
        if self.equity_on == Some(street) {
            return;
        }
        // Nothing left to deal on the last street: one rollout is exact.
        let rollouts = if street + 1 == self.lbr.def.streets.len() {
            1
        } else {
            self.lbr.rollouts
        };
        let (seat, opp) = (self.seat, 1 - self.seat);
        for h in &mut self.holdings {
            h.equity = equity(&self.st, seat, Some((opp, h.set)), rollouts);
        }
        self.equity_on = Some(street);
    }

    /// LBR's policy at its decision `real` after `bets` (see [`Lbr`]): all on the best action.
    fn decide(
        &mut self,
        real: &State,
        bets: &[Bet],
        legal: &[Action],
        probs: &mut [f64],
    ) -> anyhow::Result<()> {
        self.advance(real, bets)?;
        ensure!(
            !self.holdings.is_empty(),
            "LBR infers 1 to {MAX_DOWN} hidden cards: the opponent has none"
        );
        self.equities();
        let (seat, opp) = (self.seat, 1 - self.seat);
        let total: f64 = self.holdings.iter().map(|h| h.weight).sum();
        let mean_eq: f64 = self
            .holdings
            .iter()
            .map(|h| h.weight * h.equity)
            .sum::<f64>()
            / total;
        let pot = real.pot() as f64;
        let my_bet = real.round_bet(seat);
        let level = my_bet.max(real.round_bet(opp));
        let call_value = |cost: f64| mean_eq * (pot + cost) - cost;
        let mut best = (f64::NEG_INFINITY, 0);
        for (i, &a) in legal.iter().enumerate() {
            let v = match a {
                Action::Fold => 0.0,
                Action::CheckCall => call_value((level - my_bet).min(real.stack(seat)) as f64),
                Action::BringIn => call_value(real.def().bring_in.min(real.stack(seat)) as f64),
                Action::CompleteBetRaise(to) => {
                    let cost = (to - my_bet) as f64;
                    let called = to.saturating_sub(real.round_bet(opp)) as f64;
                    let mut child = self.st.clone();
                    child.apply(a)?;
                    let answer = child.legal_actions();
                    let fold_at = answer.iter().position(|x| *x == Action::Fold);
                    let answers = matches!(child.next(), Next::Act { seat } if seat == opp);
                    let folds = match fold_at {
                        Some(k) if answers => {
                            let mut after = bets.to_vec();
                            after.push((real.street(), a));
                            if self.policy_column(&child, &after, &answer, k).is_err() {
                                // The opponent cannot answer this raise (its abstract game
                                // lacks it): LBR does not try it.
                                continue;
                            }
                            true
                        }
                        _ => false,
                    };
                    self.holdings
                        .iter()
                        .enumerate()
                        .map(|(j, h)| {
                            let f = if folds { self.column[j] } else { 0.0 };
                            let e = h.equity;
                            h.weight / total
                                * (f * pot + (1.0 - f) * (e * (pot + cost + called) - cost))
                        })
                        .sum()
                }
            };
            if v > best.0 {
                best = (v, i);
            }
        }
        probs.fill(0.0);
        probs[best.1] = 1.0;
        Ok(())
    }
}

/// Gives each of `holdings` (`n` cards each, all in `pool`) `k` more cards from `pool` (the
/// cards LBR has not seen) as a set: every way, when that makes at most `most` holdings (`None`:
/// no limit); else `max(1, most / holdings)` ways each, drawn uniformly with `rng`. `spare` is
/// scratch. Allocates nothing once the vectors are large enough.
fn extend(
    holdings: &mut Vec<Holding>,
    spare: &mut Vec<Holding>,
    n: usize,
    k: usize,
    pool: &[Card],
    most: Option<usize>,
    rng: &mut ChaCha8Rng,
) {
    let ways = binomial(pool.len().saturating_sub(n), k);
    let each = match most {
        Some(m) if holdings.len() as u128 * ways > m as u128 => (m / holdings.len()).max(1),
        _ => usize::MAX,
    };
    spare.clear();
    for h in holdings.iter() {
        let from = spare.len();
        for_each_set(pool, k, |cards| {
            if cards.iter().all(|c| !h.set.contains(*c)) {
                let mut x = *h;
                x.cards[n..n + k].copy_from_slice(cards);
                x.set = cards
                    .iter()
                    .fold(h.set, |s, &c| s.union(CardSet::single(c)));
                spare.push(x);
            }
        });
        let drawn = &mut spare[from..];
        if drawn.len() > each {
            // The first `each` of a shuffle: a uniform draw without replacement.
            for j in 0..each {
                let r = rng.gen_range(j..drawn.len());
                drawn.swap(j, r);
            }
            spare.truncate(from + each);
        }
    }
    std::mem::swap(holdings, spare);
}

/// Calls `f` with every set of `k` cards of `pool` (in the pool's order), without allocating.
fn for_each_set(pool: &[Card], k: usize, mut f: impl FnMut(&[Card])) {
    let len = pool.len();
    if k > len || k > MAX_DOWN {
        return;
    }
    let mut at = [0usize; MAX_DOWN];
    let mut cards = [Card::from_id(0); MAX_DOWN];
    for (i, a) in at.iter_mut().enumerate().take(k) {
        *a = i;
    }
    loop {
        for i in 0..k {
            cards[i] = pool[at[i]];
        }
        f(&cards[..k]);
        // The next set: move the last index that can move, and put the ones after it right
        // behind it.
        let Some(i) = (0..k).rev().find(|&i| at[i] < len - k + i) else {
            return;
        };
        at[i] += 1;
        for j in i + 1..k {
            at[j] = at[j - 1] + 1;
        }
    }
}

/// C(n, k).
fn binomial(n: usize, k: usize) -> u128 {
    if k > n {
        return 0;
    }
    (0..k as u128).fold(1, |acc, i| acc * (n as u128 - i) / (i + 1))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::bot::{most_aggressive, passive, AlwaysCall};
    use abstraction::cards::parse_cards;

    /// Completes on third street with a pair in the hole, otherwise plays passively: its range
    /// after its first action is known exactly.
    struct PairRaiser;

    impl Player for PairRaiser {
        fn name(&self) -> &str {
            "pair-raiser"
        }
        fn policy(
            &self,
            state: &State,
            _: &[Bet],
            seat: u8,
            legal: &[Action],
            probs: &mut [f64],
        ) -> anyhow::Result<Answer> {
            let down = state.down_cards(seat);
            let pair = matches!(down, [Some(a), Some(b)] if a.rank() == b.rank());
            probs.fill(0.0);
            probs[if pair && state.street() == 0 {
                most_aggressive(legal)
            } else {
                passive(legal)
            }] = 1.0;
            Ok(Answer::Own)
        }
    }

    /// Third street of seven-card stud with the given cards (seat 0 brings in with the 2c),
    /// after seat 0's first action by [`PairRaiser`]: the state and the betting.
    fn after_first_action(seat0_down: &str) -> (State, Vec<Bet>) {
        let def = GameDef::preset("7stud").unwrap();
        let mut cards = [
            parse_cards(&format!("{seat0_down} 2c")).unwrap(),
            parse_cards("7s 7h Qd").unwrap(),
        ];
        let mut st = State::new(&def).unwrap();
        while let Next::Deal { seat: Some(s), .. } = st.next() {
            st.deal(cards[s as usize].remove(0)).unwrap();
        }
        assert_eq!(st.to_act(), Some(0));
        let legal = st.legal_actions();
        let mut probs = [0.0; MAX_ACTIONS];
        PairRaiser
            .policy(&st, &[], 0, &legal, &mut probs[..legal.len()])
            .unwrap();
        let a = legal[probs.iter().position(|&p| p == 1.0).unwrap()];
        st.apply(a).unwrap();
        (st, vec![(0, a)])
    }

    /// The range of LBR at `seat`'s decision `st` after `bets`, against `opponent`.
    fn range_at<'l>(lbr: &'l Lbr<'l>, st: &State, bets: &[Bet], seat: u8) -> Range<'l> {
        let mut r = Range::new(lbr, seat).unwrap();
        r.advance(st, bets).unwrap();
        r
    }

    #[test]
    fn the_range_holds_exactly_the_hidden_hands_consistent_with_the_actions_taken() {
        let def = Arc::new(GameDef::preset("7stud").unwrap());
        // Unseen by seat 1: 48 cards, C(48,2) = 1128 hands, of which 67 pairs (7s: 1, queens
        // and deuces: 3 each, ten other ranks: 6 each).
        for (down, pairs) in [("9s 9h", true), ("Ah Kd", false)] {
            let (st, bets) = after_first_action(down);
            for candidates in [Candidates::All, Candidates::Sample(300)] {
                let lbr = Lbr::new(&PairRaiser, Arc::clone(&def), 8, candidates).unwrap();
                let r = range_at(&lbr, &st, &bets, 1);
                let hands: Vec<&[Card]> = r.holdings.iter().map(|h| &h.cards[..2]).collect();
                assert!(hands.iter().all(|c| (c[0].rank() == c[1].rank()) == pairs));
                assert!(hands.iter().all(|c| !c.contains(&st.up_cards(0)[0])));
                assert!(r.holdings.iter().all(|h| h.weight == 1.0));
                if candidates == Candidates::All {
                    assert_eq!(hands.len(), if pairs { 67 } else { 1128 - 67 });
                } else {
                    // 300 of the 1128 drawn, those of the other kind dropped.
                    assert!(hands.len() < 300 && !hands.is_empty(), "{}", hands.len());
                }
            }
        }
    }

    /// Seven-card stud dealt at random from `seed`, both seats checking and calling, up to
    /// seat 1's first decision on seventh street: the state and the betting.
    fn seventh_street(seed: u64) -> (State, Vec<Bet>) {
        let def = GameDef::preset("7stud").unwrap();
        let mut rng = ChaCha8Rng::seed_from_u64(seed);
        let mut st = State::new(&def).unwrap();
        let mut bets = Vec::new();
        loop {
            match st.next() {
                Next::Deal { .. } => {
                    st.deal_random(&mut rng).unwrap();
                }
                Next::Act { seat } if seat == 1 && st.street() == 4 => return (st, bets),
                Next::Act { .. } => {
                    let a = st.legal_actions()[passive(&st.legal_actions())];
                    bets.push((st.street(), a));
                    st.apply(a).unwrap();
                }
                Next::Over => unreachable!("nobody folds"),
            }
        }
    }

    #[test]
    fn the_exact_range_holds_every_holding_of_the_unseen_cards_and_a_sample_at_most_its_size() {
        let def = Arc::new(GameDef::preset("7stud").unwrap());
        let (st, bets) = seventh_street(7);
        // Seat 1 sees its 7 cards and the opponent's 4 up cards: 41 unseen. The opponent holds
        // two down cards from third street (a set) and one from seventh: C(41,2)·39 = 31,980.
        let seen: CardSet = st
            .up_cards(0)
            .iter()
            .chain(st.up_cards(1))
            .chain(st.down_cards(1).iter().flatten())
            .copied()
            .collect();
        assert_eq!(seen.len(), 11);
        for (candidates, count) in [
            (Candidates::All, Some(31_980)),
            (Candidates::Sample(256), None),
        ] {
            let lbr = Lbr::new(&AlwaysCall, Arc::clone(&def), 8, candidates).unwrap();
            let r = range_at(&lbr, &st, &bets, 1);
            let mut sets: Vec<(u64, Card)> =
                r.holdings.iter().map(|h| (h.set.0, h.cards[2])).collect();
            sets.sort();
            sets.dedup();
            assert_eq!(sets.len(), r.holdings.len(), "holdings are distinct");
            assert!(r.holdings.iter().all(|h| h.set.len() == 3
                && h.cards[0] < h.cards[1]
                && h.set.intersection(seen).is_empty()
                && h.weight == 1.0));
            if let Some(count) = count {
                assert_eq!(r.holdings.len(), count);
            } else {
                // 256 of the 1,128 third-street pairs, less those a later card struck, each
                // with one seventh-street card.
                assert!(
                    (150..256).contains(&r.holdings.len()),
                    "{}",
                    r.holdings.len()
                );
            }
        }
    }

    #[test]
    fn a_betting_that_does_not_lead_to_the_state_or_a_table_of_three_is_an_error() {
        let def = Arc::new(GameDef::preset("7stud").unwrap());
        let lbr = Lbr::new(&PairRaiser, Arc::clone(&def), 8, Candidates::All).unwrap();
        let (st, _) = after_first_action("Ah Kd");
        let legal = st.legal_actions();
        let mut probs = vec![0.0; legal.len()];
        let mut r = Range::new(&lbr, 1).unwrap();
        let e = r.decide(&st, &[], &legal, &mut probs).unwrap_err();
        assert!(
            e.to_string().contains("does not lead to this decision"),
            "{e}"
        );
        let mut three = GameDef::preset("7stud").unwrap();
        three.seats = 3;
        three.starting_stacks = vec![200; 3];
        let e = Lbr::new(&PairRaiser, Arc::new(three), 8, Candidates::All)
            .err()
            .unwrap();
        assert!(e.to_string().contains("heads-up"), "{e}");
    }

    #[test]
    fn candidates_are_all_or_a_positive_number() {
        assert_eq!("all".parse(), Ok(Candidates::All));
        assert_eq!("256".parse(), Ok(Candidates::Sample(256)));
        for bad in ["0", "-3", "some"] {
            assert!(bad.parse::<Candidates>().is_err(), "{bad}");
        }
        assert_eq!(Candidates::Sample(64).to_string(), "64");
    }

    #[test]
    fn extending_takes_each_street_s_down_cards_as_a_set_every_way_or_a_draw() {
        // Two down cards from an earlier street, a third from the last: C(5,2)·3 = 30.
        let pool = parse_cards("2c 3c 4c 5c 6c").unwrap();
        let mut rng = ChaCha8Rng::seed_from_u64(1);
        let (mut h, mut spare) = (vec![Holding::EMPTY], Vec::new());
        extend(&mut h, &mut spare, 0, 2, &pool, None, &mut rng);
        extend(&mut h, &mut spare, 2, 1, &pool, None, &mut rng);
        let cands: Vec<&[Card]> = h.iter().map(|h| &h.cards[..3]).collect();
        assert_eq!(cands.len(), 30);
        assert!(cands
            .iter()
            .all(|c| c[0] < c[1] && c[2] != c[0] && c[2] != c[1]));
        let mut distinct = cands.clone();
        distinct.sort();
        distinct.dedup();
        assert_eq!(distinct.len(), 30);
        // At most 4: four of the ten pairs, then one third card each.
        let mut h = vec![Holding::EMPTY];
        extend(&mut h, &mut spare, 0, 2, &pool, Some(4), &mut rng);
        let pairs: Vec<CardSet> = h.iter().map(|h| h.set).collect();
        assert_eq!(pairs.len(), 4);
        extend(&mut h, &mut spare, 2, 1, &pool, Some(4), &mut rng);
        assert_eq!(h.len(), 4);
        for (x, pair) in h.iter().zip(&pairs) {
            assert_eq!(x.set.minus(*pair).len(), 1);
            assert_eq!(x.set.intersection(*pair), *pair);
        }
        // Where every way fits, a sample is all of them.
        let mut h = vec![Holding::EMPTY];
        extend(&mut h, &mut spare, 0, 2, &pool, Some(10), &mut rng);
        assert_eq!(h.len(), 10);
    }
}
