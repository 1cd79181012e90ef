//! A seat's range over its hidden down cards, followed through a hand by Bayes' rule on a
//! player's policy: the replay that LBR ([`super::lbr`]) runs on its opponent and that endgame
//! re-solving (`crate::resolve`) runs on both seats.
//!
//! The range is a list of holdings, each with a weight. When the seat's down cards first matter,
//! the list holds every way to fill them from the cards not seen (the deal is uniform, each
//! street's down cards a set); each card seen later strikes the holdings that contain it, each
//! later down card of the seat multiplies each holding by every way to fill it, and each action
//! the seat takes multiplies each holding's weight by the probability the player's policy gives
//! that action with those cards. With [`Candidates::Sample`] the list is cut to a uniform sample
//! where it would be longer (see [`super::lbr`]).
//!
//! A player that reads its cards through a class per street ([`Player::card_class`]: a strategy
//! file's bucket) is asked each holding's class once a street and its policy once per class at
//! each decision; other players are asked for each holding.

use super::{Bet, Player};
use abstraction::cards::{Card, CardSet};
use abstraction::rules::{Action, Deal, Next, State};
use anyhow::{ensure, Context};
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;
use rayon::prelude::*;

pub(crate) use crate::strategy_file::MAX_ACTIONS;
/// The most down cards a seat holds (the rules engine's limit per seat).
pub(crate) const MAX_DOWN: usize = 8;

/// Which holdings of a seat's hidden down cards its range weighs (LBR's opponent's: a choice;
/// a re-solve's: all).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Candidates {
    /// Every holding consistent with the cards seen: the exact range.
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

/// One holding of the seat's hidden down cards, and what was worked out about it.
#[derive(Clone, Copy)]
pub(crate) struct Holding {
    /// The down cards in the order dealt (the first [`HiddenRange::n`]), each street's as a set
    /// in increasing order.
    pub(crate) cards: [Card; MAX_DOWN],
    /// The same cards as a set.
    pub(crate) set: CardSet,
    /// The product of the seat's probabilities of the actions it took with these cards (times
    /// the uniform prior: 1).
    pub(crate) weight: f64,
    /// Its class on the street the range's classes are for.
    pub(crate) class: u32,
    /// LBR's checked-down equity against it (LBR's own use: carried here so that it follows
    /// the holding when others are dropped).
    pub(crate) equity: f64,
}

impl Holding {
    /// No card yet, weight 1.
    pub(crate) const EMPTY: Holding = Holding {
        cards: [Card::from_id(0); MAX_DOWN],
        set: CardSet::EMPTY,
        weight: 1.0,
        class: 0,
        equity: 0.0,
    };
}

/// The range of seat [`HiddenRange::seat`] over its hidden down cards (see the module).
pub(crate) struct HiddenRange<'p> {
    /// Whose policy weighs the seat's actions.
    player: &'p dyn Player,
    /// The seat whose cards are hidden.
    seat: u8,
    /// The deck.
    deck: CardSet,
    candidates: Candidates,
    /// The least probability an action taken weighs a holding by (0: Bayes' rule exactly; a
    /// holding whose policy never takes the action is dropped).
    floor: f64,
    /// How many down cards the seat got on each street so far (those dealt between two
    /// decisions count as one street).
    groups: Vec<usize>,
    /// Down cards dealt to the seat and not yet given to the holdings.
    pending: usize,
    /// Down cards per holding: the sum of `groups`.
    n: usize,
    /// The range: every holding of positive weight.
    holdings: Vec<Holding>,
    /// Whether the player has card classes (known after the first ask).
    has_classes: Option<bool>,
    /// Whether an action taken had probability 0 with every holding (the range then started
    /// again, every holding alike).
    lost: bool,
    /// The street whose class each holding holds.
    classes_on: Option<usize>,
    /// Scratch: a policy column per holding, a policy entry per class, holdings being extended,
    /// the unseen cards.
    column: Vec<f64>,
    per_class: Vec<f64>,
    spare: Vec<Holding>,
    pool: Vec<Card>,
}

impl<'p> HiddenRange<'p> {
    /// The range of `seat`, no card dealt yet, weighed by `player`'s policy in a game of
    /// `deck`, over `candidates`, each action weighing by at least `floor`.
    pub(crate) fn new(
        player: &'p dyn Player,
        seat: u8,
        deck: CardSet,
        candidates: Candidates,
        floor: f64,
    ) -> HiddenRange<'p> {
        HiddenRange {
            player,
            seat,
            deck,
            candidates,
            floor,
            groups: Vec::new(),
            pending: 0,
            n: 0,
            holdings: Vec::new(),
            has_classes: None,
            lost: false,
            classes_on: None,
            column: Vec::new(),
            per_class: Vec::new(),
            spare: Vec::new(),
            pool: Vec::new(),
        }
    }

    /// The holdings (every one of positive weight).
    pub(crate) fn holdings(&self) -> &[Holding] {
        &self.holdings
    }

    /// The holdings, to annotate.
    pub(crate) fn holdings_mut(&mut self) -> &mut [Holding] {
        &mut self.holdings
    }

    /// Whether an action taken had probability 0 with every holding, so that the holdings are
    /// no longer weighed by Bayes' rule (only with a floor of 0, or a sample missing the line).
    pub(crate) fn lost(&self) -> bool {
        self.lost
    }

    /// Down cards per holding.
    pub(crate) fn n(&self) -> usize {
        self.n
    }

    /// The policy column of the last [`HiddenRange::policy_column`], one entry per holding.
    pub(crate) fn column(&self) -> &[f64] {
        &self.column
    }

    /// Notes a down card dealt to the seat (given to the holdings at the next refresh).
    pub(crate) fn deal_hidden(&mut self) {
        self.pending += 1;
    }

    /// Brings the holdings up to the cards dealt: strikes those holding a card of `seen`, and
    /// fills the seat's new down cards. If a sample lost every holding, starts it again (every
    /// holding alike). Says whether the holdings were extended or started (their classes and
    /// any annotation are then to be worked out again).
    pub(crate) fn refresh(&mut self, seen: CardSet) -> anyhow::Result<bool> {
        self.holdings
            .retain(|h| h.set.intersection(seen).is_empty());
        let k = std::mem::take(&mut self.pending);
        if k > 0 {
            ensure!(
                self.n + k <= MAX_DOWN,
                "the range infers at most {MAX_DOWN} hidden cards"
            );
            self.groups.push(k);
        }
        let start = self.holdings.is_empty() && !self.groups.is_empty();
        if !start && k == 0 {
            return Ok(false);
        }
        let most = match self.candidates {
            Candidates::All => None,
            Candidates::Sample(m) => Some(m),
        };
        self.pool.clear();
        self.pool.extend(self.deck.minus(seen).iter());
        // Seeded by what was seen (and the observing seat), so that the same spot draws the
        // same sample and the result does not depend on the thread count.
        // Seat 0's observer is seat 1 and the other way round (the heads-up replay's draws);
        // at a larger table a seat's partner by the same rule.
        let observer = self.seat ^ 1;
        let mut rng =
            ChaCha8Rng::seed_from_u64(seen.0 ^ (u64::from(observer) << 60) ^ 0x5851_F42D_4C95_7F2D);
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
            "fewer unseen cards than the seat's hidden ones"
        );
        self.classes_on = None;
        Ok(true)
    }

    /// Weighs the range by the seat's action `a` at its decision `st` after `bets`.
    pub(crate) fn observe(&mut self, st: &State, bets: &[Bet], a: Action) -> anyhow::Result<()> {
        let legal = st.legal_actions();
        let k = legal
            .iter()
            .position(|x| *x == a)
            .ok_or_else(|| anyhow::anyhow!("an action of the hand was not legal on replay"))?;
        self.policy_column(st, bets, &legal, k)?;
        let floor = self.floor;
        let total: f64 = self
            .holdings
            .iter()
            .zip(&self.column)
            .map(|(h, p)| h.weight * p.max(floor))
            .sum();
        if total > 0.0 {
            for (h, p) in self.holdings.iter_mut().zip(&self.column) {
                h.weight *= p.max(floor);
            }
            self.holdings.retain(|h| h.weight > 0.0);
        } else {
            // Off the seat's own paths (only a sample can miss them with a floor of 0: the
            // holding it plays is always in the exact range): every holding alike.
            self.holdings.iter_mut().for_each(|h| h.weight = 1.0);
            self.lost = true;
        }
        Ok(())
    }

    /// Sets the column to the player's probability of `legal[k]` at the seat's decision `st`
    /// (after `bets`; the seat's down cards unknown) for each holding.
    pub(crate) fn policy_column(
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
        let seat = self.seat;
        let player = self.player;
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
                    player.class_policy(st, bets, seat, h.class, legal, row)?;
                    self.per_class[c] = row[k];
                }
                self.column.push(self.per_class[c]);
            }
        } else {
            let mut s = st.clone();
            for h in &self.holdings {
                s.clone_from(st);
                s.show(seat, &h.cards[..self.n])?;
                player.policy(&s, bets, seat, legal, row)?;
                self.column.push(row[k]);
            }
        }
        Ok(())
    }

    /// Sets `rows` to the player's whole policy over `legal` at the seat's decision `st` (after
    /// `bets`; the seat's down cards unknown) for each holding in turn: `legal.len()` entries
    /// per holding. A player with classes is asked once per class.
    pub(crate) fn policy_rows(
        &mut self,
        st: &State,
        bets: &[Bet],
        legal: &[Action],
        rows: &mut Vec<f64>,
    ) -> anyhow::Result<()> {
        let width = legal.len();
        ensure!(width <= MAX_ACTIONS, "a decision with {width} actions");
        let (seat, player) = (self.seat, self.player);
        let mut row = [0.0; MAX_ACTIONS];
        let row = &mut row[..width];
        rows.clear();
        if self.classes(st)? {
            // One row per class: NaN marks a class not asked yet.
            self.per_class.clear();
            for h in &self.holdings {
                let at = h.class as usize * width;
                if at >= self.per_class.len() {
                    self.per_class.resize(at + width, f64::NAN);
                }
                if self.per_class[at].is_nan() {
                    player.class_policy(st, bets, seat, h.class, legal, row)?;
                    self.per_class[at..at + width].copy_from_slice(row);
                }
                rows.extend_from_slice(&self.per_class[at..at + width]);
            }
        } else {
            let mut s = st.clone();
            for h in &self.holdings {
                s.clone_from(st);
                s.show(seat, &h.cards[..self.n])?;
                player.policy(&s, bets, seat, legal, row)?;
                rows.extend_from_slice(row);
            }
        }
        Ok(())
    }

    /// Whether the player reads its cards through classes; if so, gives each holding its
    /// class on the street of `st` (once a street).
    pub(crate) fn classes(&mut self, st: &State) -> anyhow::Result<bool> {
        if self.has_classes == Some(false) {
            return Ok(false);
        }
        if self.classes_on == Some(st.street()) {
            return Ok(true);
        }
        let seat = self.seat;
        let n = self.n;
        let player = self.player;
        // In parallel: a class is a bucket lookup (feature rollouts past the first street),
        // the cost of the whole replay. Each holding's class depends on its cards alone.
        let classes: Vec<anyhow::Result<Option<u32>>> = self
            .holdings
            .par_iter()
            .map_init(
                || st.clone(),
                |s, h| {
                    s.clone_from(st);
                    s.show(seat, &h.cards[..n])?;
                    player.card_class(s, seat)
                },
            )
            .collect();
        for (h, c) in self.holdings.iter_mut().zip(classes) {
            match c? {
                Some(c) => h.class = c,
                None => {
                    ensure!(
                        self.has_classes.is_none(),
                        "{} has card classes at some states only",
                        player.name()
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
}

/// Both seats' ranges replayed along a hand, and where the replay stopped.
pub(crate) struct Replay<'p> {
    /// Seat 0's range and seat 1's, brought up to the cards dealt.
    pub(crate) ranges: [HiddenRange<'p>; 2],
    /// The hand where the replay stopped, every down card unknown.
    pub(crate) state: State,
    /// How many of the bets given were replayed.
    pub(crate) read: usize,
    /// The cards dealt face up (the holdings' dead cards).
    pub(crate) seen: CardSet,
}

/// The ranges of some seats of a table replayed along a hand ([`replay_seats`]).
pub(crate) struct TableReplay<'p> {
    /// Each seat's range, brought up to the cards dealt; `None` for a seat not followed.
    pub(crate) ranges: Vec<Option<HiddenRange<'p>>>,
    /// The hand where the replay stopped, every down card unknown.
    pub(crate) state: State,
    /// How many of the bets given were replayed.
    pub(crate) read: usize,
    /// The cards dealt face up, every seat's, folded or not (the holdings' dead cards).
    pub(crate) seen: CardSet,
}

/// Replays the public events of `real`'s hand from its start with both seats' down cards
/// unknown, each seat's actions (`bets`, in order) weighing its range by `player`'s policy, each
/// action by at least `floor` (every holding of the seat's down cards, [`Candidates::All`]).
/// Stops at the first decision where `stop` says so or the bets given end, at a card `real` has
/// not dealt yet, or at the end of the hand; the caller reads where from [`Replay::state`]. The
/// one replay of LBR's opponent, endgame re-solving's two ranges and `stud query --ranges`.
pub(crate) fn replay<'p>(
    player: &'p dyn Player,
    real: &State,
    bets: &[Bet],
    floor: f64,
    stop: impl Fn(&State) -> bool,
) -> anyhow::Result<Replay<'p>> {
    ensure!(real.def().seats == 2, "a heads-up replay of a table");
    let r = replay_seats(player, real, bets, floor, 0b11, stop)?;
    let mut ranges = r.ranges.into_iter().flatten();
    let (Some(r0), Some(r1)) = (ranges.next(), ranges.next()) else {
        anyhow::bail!("a heads-up replay lost a seat's range");
    };
    Ok(Replay {
        ranges: [r0, r1],
        state: r.state,
        read: r.read,
        seen: r.seen,
    })
}

/// [`replay`] at a table of any size, following the ranges of the seats in the mask `follow`
/// only (bit `i`: seat `i`; the others' actions move the hand on and weigh nothing): the
/// replay of a multiway pot down to two players (`crate::resolve`'s table subgame).
pub(crate) fn replay_seats<'p>(
    player: &'p dyn Player,
    real: &State,
    bets: &[Bet],
    floor: f64,
    follow: u16,
    stop: impl Fn(&State) -> bool,
) -> anyhow::Result<TableReplay<'p>> {
    let def = real.def();
    let deck = def.deck.cards();
    let mut ranges: Vec<Option<HiddenRange>> = (0..def.seats)
        .map(|s| {
            (follow >> s & 1 == 1)
                .then(|| HiddenRange::new(player, s, deck, Candidates::All, floor))
        })
        .collect();
    let mut st = State::new(def)?;
    let mut seen = CardSet::EMPTY;
    let mut read = 0;
    loop {
        match st.next() {
            Next::Deal {
                seat: Some(s),
                deal: Deal::Down,
            } => {
                st.deal_unknown()?;
                if let Some(r) = &mut ranges[s as usize] {
                    r.deal_hidden();
                }
            }
            Next::Deal { seat, .. } => {
                let card = match seat {
                    None => real.community_cards().get(st.community_cards().len()),
                    Some(s) => real.up_cards(s).get(st.up_cards(s).len()),
                };
                let Some(&card) = card else { break };
                st.deal(card)?;
                seen.insert(card);
            }
            Next::Act { .. } if read == bets.len() || stop(&st) => break,
            Next::Act { seat } => {
                let (_, a) = bets[read];
                if let Some(r) = &mut ranges[seat as usize] {
                    r.refresh(seen)?;
                    r.observe(&st, &bets[..read], a)?;
                }
                st.apply(a)
                    .with_context(|| format!("bet {} of the hand ({a})", read + 1))?;
                read += 1;
            }
            Next::Over => break,
        }
    }
    for r in ranges.iter_mut().flatten() {
        r.refresh(seen)?;
    }
    Ok(TableReplay {
        ranges,
        state: st,
        read,
        seen,
    })
}

/// Gives each of `holdings` (`n` cards each, all in `pool`) `k` more cards from `pool` (the
/// cards not seen) as a set: every way, when that makes at most `most` holdings (`None`: no
/// limit); else `max(1, most / holdings)` ways each, drawn uniformly with `rng`. `spare` is
/// scratch. Allocates nothing once the vectors are large enough.
pub(crate) fn extend(
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
                let r = j + abstraction::draw::below(rng, drawn.len() - j);
                drawn.swap(j, r);
            }
            spare.truncate(from + each);
        }
    }
    std::mem::swap(holdings, spare);
}

/// Calls `f` with every set of `k` cards of `pool` (in the pool's order), without allocating.
pub(crate) fn for_each_set(pool: &[Card], k: usize, mut f: impl FnMut(&[Card])) {
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
pub(crate) fn binomial(n: usize, k: usize) -> u128 {
    if k > n {
        return 0;
    }
    (0..k as u128).fold(1, |acc, i| acc * (n as u128 - i) / (i + 1))
}
