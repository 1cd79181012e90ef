//! The feature vector of a canonical view: how strong the hand will be at showdown against the
//! opponent's unknown cards (a histogram of final hand strength, its mean the EHS), low features
//! for hi-lo, and classes of both visible boards.
//!
//! The rollout: the *outer* draws deal the cards still to come to me and the opponent's up cards
//! still to come; for each, the *inner* draws deal the opponent's down cards, and the hand
//! strength (HS) of that outer outcome is my mean pot share over them (win 1, tie 1/2; hi-lo
//! splits). The EHS is the mean HS; the histogram of HS over outer outcomes measures potential.
//! Draws enumerate every outcome when there are few enough, else sample a fixed number from a
//! generator seeded by the canonical cards, so the same view always gets the same features.

use super::draws::{Draws, Source, WyRand};
use super::view::{Shape, TableView, MAX_OTHERS};
use crate::cards::{Card, CardSet};
use crate::eval::{eval_low8, eval_razz, showing_high, HighStrength, LowStrength, PartialHand};
use crate::rules::Showdown;
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;

mod v2;
mod v3;

/// Which features a view gets: a versioned setting recorded with a built bucketing (its cache
/// file and checksum), so a bucketing keeps the features it was built with.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Version {
    /// The histogram, its mean (the EHS: my pot share against every live opponent), the low
    /// extras and the classes of my board and the measured opponent's. Every bucketing built
    /// before the second version is of this one.
    #[default]
    One,
    /// The first version's features followed by how the pot share is made up: the chance of
    /// taking the whole pot and of a part of it, my share in a duel with the measured opponent
    /// and with the strongest of the live opponents, and the classes of the other live
    /// opponents' boards ([`v2`]). Size suffix `:features=2`.
    Two,
    /// The second version's features followed by the classes of the folded seats' up cards
    /// and of my down cards ([`v3`]). Size suffix `:features=3`.
    Three,
}

/// The knobs of the feature computation. They are recorded with a built abstraction, so the
/// lookup computes exactly what the build computed.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct FeatureParams {
    /// Outer outcomes (my cards to come and the opponent's up cards to come) per view; fewer if
    /// that many cover every outcome.
    pub outer: u32,
    /// Inner outcomes (the opponent's down cards) per outer outcome. When the outer outcomes are
    /// fewer than `outer`, the inner draws get the unused budget, so `outer * inner` is the cost.
    pub inner: u32,
    /// Bins of the hand-strength histogram (its CDF gives `bins - 1` features).
    pub bins: u32,
    /// The weight of each visible-board class against the strength features (which are in pot
    /// share units, so that the distance between two histograms is their earth mover's distance).
    pub board_weight: f32,
    /// Mixed into every per-view seed: another seed gives other (equally valid) samples.
    pub seed: u64,
    /// Which features.
    pub version: Version,
    /// How the rollouts draw ([`Draws`]): the same distribution of features either way.
    pub draws: Draws,
    /// The weight of the third version's own classes (the folded seats' up cards and my down
    /// cards) when it is not the board weight (size suffix `:extra=W`): small, they split views
    /// the strength features tie without pulling a small size's centroids off those features.
    /// `None` (every other version, and the third's default) weighs them as the boards.
    pub extra_weight: Option<f32>,
}

/// Board classes per player: pairing, highest and lowest rank, low cards, flush and straight draws.
const BOARD: usize = 6;

/// Where each feature sits in the vector.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Layout {
    /// Bins of the histogram.
    pub bins: usize,
    /// Extra strength features of the showdown (2 for hi-lo: the chance of a qualifying low and
    /// its mean strength; none otherwise).
    pub extras: usize,
    /// Features after the boards' classes: none in the first version.
    pub more: usize,
}

impl Layout {
    /// The layout for a game's showdown.
    pub fn new(showdown: Showdown, params: &FeatureParams) -> Layout {
        Layout {
            bins: (params.bins as usize).clamp(2, MAX_BINS),
            extras: if showdown == Showdown::HiLo8 { 2 } else { 0 },
            more: match params.version {
                Version::One => 0,
                Version::Two => v2::MORE,
                Version::Three => v2::MORE + v3::MORE,
            },
        }
    }

    /// The length of the feature vector.
    pub fn dim(&self) -> usize {
        self.bins - 1 + 1 + self.extras + 2 * BOARD + self.more
    }

    /// Where the EHS sits.
    pub fn ehs_index(&self) -> usize {
        self.bins - 1
    }
}

/// Writes the features of `t` (which should be canonical, see `canon`; `shape.check_table(t)`
/// must hold) into `out` (of length `Layout::dim`). In an N-seat view the rollouts deal around
/// every card seen (the folded seats' are dead), deal every live opponent's cards, and my
/// share of the pot is against all of them; the board classes are of my board and the
/// measured opponent's. A heads-up view gets the features it always had.
pub fn features(shape: &Shape, params: &FeatureParams, t: &TableView, out: &mut [f32]) {
    match params.version {
        Version::One => {}
        Version::Two => return v2::features(shape, params, t, out),
        Version::Three => return v3::features(shape, params, t, out),
    }
    let layout = Layout::new(shape.showdown, params);
    debug_assert_eq!(out.len(), layout.dim());
    let v = &t.view;
    let seed = view_seed(params.seed, t);
    let r = (shape, params, &layout, t);
    let Tally {
        hist,
        extras,
        ehs,
        outcomes,
        ..
    } = match params.draws {
        Draws::ChaCha => tally(r, &mut ChaCha8Rng::seed_from_u64(seed)),
        Draws::Fast => tally(r, &mut WyRand::new(seed)),
    };
    let n = outcomes as f32;
    let b = layout.bins;
    let mut cum = 0u32;
    for (o, &h) in out[..b - 1].iter_mut().zip(&hist) {
        cum += h;
        *o = cum as f32 / n / b as f32;
    }
    out[b - 1] = (ehs / outcomes as f64) as f32;
    for i in 0..layout.extras {
        out[b + i] = (extras[i] / outcomes as f64) as f32;
    }
    let low = shape.showdown == Showdown::Razz;
    let board = &mut out[b + layout.extras..];
    board_classes(v.up, low, &mut board[..BOARD]);
    board_classes(v.opp_up, low, &mut board[BOARD..]);
    for x in board {
        *x *= params.board_weight;
    }
}

/// What a rollout is of: the game, the knobs, the layout and the view.
type Of<'a> = (&'a Shape, &'a FeatureParams, &'a Layout, &'a TableView);

/// What a rollout has accumulated over its outer outcomes.
struct Tally {
    /// Outer outcomes per bin of HS.
    hist: [u32; MAX_BINS],
    bins: usize,
    /// The showdown's extra features of my final hands, summed.
    extras: [f64; 2],
    /// The sum of HS.
    ehs: f64,
    outcomes: u32,
}

impl Tally {
    fn new(layout: &Layout) -> Tally {
        Tally {
            hist: [0; MAX_BINS],
            bins: layout.bins,
            extras: [0.0; 2],
            ehs: 0.0,
            outcomes: 0,
        }
    }

    /// Counts an outer outcome whose HS is `hs`.
    fn add(&mut self, hs: f64) {
        self.hist[((hs * self.bins as f64) as usize).min(self.bins - 1)] += 1;
        self.ehs += hs;
        self.outcomes += 1;
    }
}

/// The rollout of a view with its game's showdown.
fn tally<R: Source>(r: Of, rng: &mut R) -> Tally {
    match r.0.showdown {
        Showdown::High => rollout(&High, r, rng),
        Showdown::Razz => rollout(&Razz, r, rng),
        Showdown::HiLo8 => rollout(&HiLo::new(), r, rng),
        Showdown::Showing => rollout(&Showing, r, rng),
    }
}

/// The rollout of a view with one showdown.
fn rollout<S: Scorer, R: Source>(sc: &S, (shape, params, layout, t): Of, rng: &mut R) -> Tally {
    if t.live > 0 {
        let mut r = TableRollout::new(sc, shape, t, Tally::new(layout));
        r.run(params, rng);
        return r.acc;
    }
    let v = &t.view;
    let mut r = Rollout {
        sc,
        mine_now: v.down.union(v.up),
        opp_now: v.opp_up,
        unseen: shape.deck.minus(t.known()),
        k_opp_down: shape.final_counts().0 as usize,
        inner_budget: 1,
        inner_total: 0,
        tally: Tally::new(layout),
    };
    r.run(shape, params, rng);
    r.tally
}

/// The seed of a view's draws: its cards and street mixed with the parameter seed, and the
/// other seats' cards when there are any (so a heads-up view draws as it always has).
fn view_seed(seed: u64, t: &TableView) -> u64 {
    let v = &t.view;
    let mut h = splitmix(seed ^ v.street as u64);
    for m in [v.down.0, v.up.0, v.opp_up.0] {
        h = splitmix(h ^ m);
    }
    for o in t.others() {
        h = splitmix(h ^ o.0);
    }
    if !t.dead.is_empty() {
        h = splitmix(h ^ t.dead.0);
    }
    h
}

/// SplitMix64's finaliser: a fast, well-mixing bijection of 64-bit words.
pub(crate) fn splitmix(mut z: u64) -> u64 {
    z = z.wrapping_add(0x9e37_79b9_7f4a_7c15);
    z = (z ^ z >> 30).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    z = (z ^ z >> 27).wrapping_mul(0x94d0_49bb_1331_11eb);
    z ^ z >> 31
}

/// How a showdown ranks final hands and splits the pot.
trait Scorer {
    /// The strength of a final hand.
    type S: Copy;
    /// The strength of the final hand `h`.
    fn strength(&self, h: PartialHand) -> Self::S;
    /// My share of the pot (0 to 1) when my strength is `me` and the opponent's `opp`.
    fn share(&self, me: Self::S, opp: Self::S) -> f64;
    /// My share of the pot against one opponent's final hand `opp`, evaluating of it only what
    /// can change the share.
    #[inline]
    fn share_against(&self, me: Self::S, opp: PartialHand) -> f64 {
        self.share(me, self.strength(opp))
    }
    /// My share of the pot (0 to 1) against `n` opponents, opponent `i`'s final hand `opp(i)`.
    /// A showdown of one game asks for the hands in order and only until one beats me (the
    /// share is 0 whatever the others hold): at a table most hands lose to the first or second
    /// opponent, and each hand not asked is an evaluation (and, with the fast draws, a deal)
    /// saved.
    fn share_many(&self, me: Self::S, n: usize, opp: impl FnMut(usize) -> PartialHand) -> f64;
    /// [`Scorer::share_many`] with every opponent's hand asked, in order, and my share against
    /// each one alone added to `duel[i]`.
    fn share_and_duels(
        &self,
        me: Self::S,
        n: usize,
        mut opp: impl FnMut(usize) -> PartialHand,
        duel: &mut [f64],
    ) -> f64 {
        let mut strengths = [me; 1 + MAX_OTHERS];
        for (i, s) in strengths[..n].iter_mut().enumerate() {
            *s = self.strength(opp(i));
            duel[i] += self.share(me, *s);
        }
        self.share_among(me, &strengths[..n])
    }
    /// My share of the pot against opponents of strengths `opps`.
    fn share_among(&self, me: Self::S, opps: &[Self::S]) -> f64;
    /// Adds the extra features of my final hand to `acc`.
    fn extras(&self, _mine: CardSet, _acc: &mut [f64; 2]) {}
}

/// 1 for a win, 1/2 for a tie, 0 for a loss.
#[inline]
fn contest<T: Ord>(me: T, opp: T) -> f64 {
    match me.cmp(&opp) {
        std::cmp::Ordering::Greater => 1.0,
        std::cmp::Ordering::Equal => 0.5,
        std::cmp::Ordering::Less => 0.0,
    }
}

/// My share of a pot among me and `opps` (higher is better): 0 if one beats me, else an even
/// split with those who tie.
#[inline]
fn split<T: Ord + Copy>(me: T, opps: impl Iterator<Item = T>) -> f64 {
    let mut s = Split::default();
    for o in opps {
        s.meet(me, o);
        if s.beaten {
            return 0.0;
        }
    }
    s.share()
}

struct High;
impl Scorer for High {
    type S = HighStrength;
    #[inline]
    fn strength(&self, h: PartialHand) -> HighStrength {
        h.high()
    }
    #[inline]
    fn share(&self, me: HighStrength, opp: HighStrength) -> f64 {
        contest(me, opp)
    }
    #[inline]
    fn share_many(&self, me: HighStrength, n: usize, opp: impl FnMut(usize) -> PartialHand) -> f64 {
        split(me, (0..n).map(opp).map(PartialHand::high))
    }
    #[inline]
    fn share_among(&self, me: HighStrength, opps: &[HighStrength]) -> f64 {
        split(me, opps.iter().copied())
    }
}

struct Razz;
impl Scorer for Razz {
    type S = LowStrength;
    #[inline]
    fn strength(&self, h: PartialHand) -> LowStrength {
        h.razz()
    }
    #[inline]
    fn share(&self, me: LowStrength, opp: LowStrength) -> f64 {
        contest(me, opp)
    }
    #[inline]
    fn share_many(&self, me: LowStrength, n: usize, opp: impl FnMut(usize) -> PartialHand) -> f64 {
        split(me, (0..n).map(opp).map(PartialHand::razz))
    }
    #[inline]
    fn share_among(&self, me: LowStrength, opps: &[LowStrength]) -> f64 {
        split(me, opps.iter().copied())
    }
}

/// Stud hi-lo: half the pot to the best high and half to the best qualifying low; the high takes
/// it all when no low qualifies.
struct HiLo {
    /// The weakest qualifying low (8-7-6-5-4) and the best (5-4-3-2-A), to scale strengths to 0..1.
    worst: u32,
    best: u32,
}

impl HiLo {
    fn new() -> HiLo {
        let of = |ranks: [u8; 5]| {
            let set: CardSet = ranks
                .iter()
                .enumerate()
                .map(|(i, &r)| Card::from_id(r * 4 + (i % 2) as u8))
                .collect();
            eval_razz(set).value()
        };
        // Rank indices: 0 = deuce .. 12 = ace.
        HiLo {
            worst: of([6, 5, 4, 3, 2]),
            best: of([3, 2, 1, 0, 12]),
        }
    }
}

impl Scorer for HiLo {
    type S = (HighStrength, Option<LowStrength>);
    #[inline]
    fn strength(&self, h: PartialHand) -> Self::S {
        (h.high(), h.low8())
    }
    #[inline]
    fn share(&self, me: Self::S, opp: Self::S) -> f64 {
        let high = contest(me.0, opp.0);
        match (me.1, opp.1) {
            (None, None) => high,
            (Some(a), Some(b)) => 0.5 * high + 0.5 * contest(a, b),
            (Some(_), None) => 0.5 * high + 0.5,
            (None, Some(_)) => 0.5 * high,
        }
    }
    #[inline]
    fn share_against(&self, me: Self::S, opp: PartialHand) -> f64 {
        against(me, opp).share
    }
    fn share_many(&self, me: Self::S, n: usize, mut opp: impl FnMut(usize) -> PartialHand) -> f64 {
        // Every hand is dealt (a hand that loses the high may scoop the low), in order, as the
        // draws have always been made; each is evaluated only as far as the share needs: the
        // highs until one beats mine, the lows (against a low of mine) until one beats it.
        let mut hands = [PartialHand::EMPTY; 1 + MAX_OTHERS];
        for (i, h) in hands[..n].iter_mut().enumerate() {
            *h = opp(i);
        }
        let hands = &hands[..n];
        let high = split(me.0, hands.iter().map(|h| h.high()));
        match me.1 {
            Some(low) => 0.5 * high + 0.5 * split(low, hands.iter().filter_map(|h| h.low8())),
            // Losing the high without a low is nothing, whoever holds a low.
            None if high == 0.0 => 0.0,
            None if hands.iter().any(|h| h.has_low8()) => 0.5 * high,
            None => high,
        }
    }
    fn share_and_duels(
        &self,
        me: Self::S,
        n: usize,
        mut opp: impl FnMut(usize) -> PartialHand,
        duel: &mut [f64],
    ) -> f64 {
        // Every opponent's high is needed (each duel has one); its low only against mine.
        let (mut high, mut low) = (Split::default(), Split::default());
        let mut anyone_low = false;
        for (i, d) in duel[..n].iter_mut().enumerate() {
            let o = against(me, opp(i));
            *d += o.share;
            high.meet(me.0, o.high);
            if let (Some(mine), Some(theirs)) = (me.1, o.low) {
                low.meet(mine, theirs);
            }
            anyone_low |= o.has_low;
        }
        match me.1 {
            Some(_) => 0.5 * high.share() + 0.5 * low.share(),
            None if anyone_low => 0.5 * high.share(),
            None => high.share(),
        }
    }
    fn share_among(&self, me: Self::S, opps: &[Self::S]) -> f64 {
        let high = split(me.0, opps.iter().map(|o| o.0));
        let lows = opps.iter().filter_map(|o| o.1);
        match me.1 {
            Some(low) => 0.5 * high + 0.5 * split(low, lows),
            None if opps.iter().all(|o| o.1.is_none()) => high,
            None => 0.5 * high,
        }
    }
    fn extras(&self, mine: CardSet, acc: &mut [f64; 2]) {
        if let Some(low) = eval_low8(mine) {
            acc[0] += 1.0;
            acc[1] += (low.value() - self.worst) as f64 / (self.best - self.worst) as f64;
        }
    }
}

/// [`split`] met one opponent at a time, where the caller needs every opponent anyway.
struct Split {
    beaten: bool,
    /// Those tied with me, me included.
    tied: f64,
}

impl Default for Split {
    fn default() -> Split {
        Split {
            beaten: false,
            tied: 1.0,
        }
    }
}

impl Split {
    #[inline]
    fn meet<T: Ord>(&mut self, me: T, opp: T) {
        match opp.cmp(&me) {
            std::cmp::Ordering::Greater => self.beaten = true,
            std::cmp::Ordering::Equal => self.tied += 1.0,
            std::cmp::Ordering::Less => {}
        }
    }

    /// My share: 0 if one beat me, else an even split with those who tied.
    #[inline]
    fn share(&self) -> f64 {
        if self.beaten {
            0.0
        } else {
            1.0 / self.tied
        }
    }
}

/// One opponent's final hand in stud hi-lo as far as my strength needs it.
struct Against {
    high: HighStrength,
    /// Its eight-or-better low, looked up only against a low of mine.
    low: Option<LowStrength>,
    /// Whether it has a low at all.
    has_low: bool,
    /// My share of the pot against it alone.
    share: f64,
}

/// The opponent's hand `opp` against my strength `me`. Without a low of my own, whether an
/// opponent has one decides my half (counted on the card bits), never which low it is, so the
/// low table is read only against a low of mine. The arithmetic is [`HiLo`]'s `share`, so the
/// share is the same to the bit.
#[inline]
fn against(me: (HighStrength, Option<LowStrength>), opp: PartialHand) -> Against {
    let high = opp.high();
    let c = contest(me.0, high);
    match me.1 {
        Some(a) => {
            let low = opp.low8();
            let share = match low {
                Some(b) => 0.5 * c + 0.5 * contest(a, b),
                None => 0.5 * c + 0.5,
            };
            Against {
                high,
                low,
                has_low: low.is_some(),
                share,
            }
        }
        None => {
            let has_low = opp.has_low8();
            Against {
                high,
                low: None,
                has_low,
                share: if has_low { 0.5 * c } else { c },
            }
        }
    }
}

/// Games of fewer than five cards: every card ranked as a showing hand.
struct Showing;
impl Scorer for Showing {
    type S = u32;
    #[inline]
    fn strength(&self, h: PartialHand) -> u32 {
        let mut buf = [Card::from_id(0); 4];
        let mut n = 0;
        for c in h.cards().iter().take(4) {
            buf[n] = c;
            n += 1;
        }
        showing_high(&buf[..n])
    }
    #[inline]
    fn share(&self, me: u32, opp: u32) -> f64 {
        contest(me, opp)
    }
    #[inline]
    fn share_many(&self, me: u32, n: usize, opp: impl FnMut(usize) -> PartialHand) -> f64 {
        split(me, (0..n).map(opp).map(|h| self.strength(h)))
    }
    #[inline]
    fn share_among(&self, me: u32, opps: &[u32]) -> f64 {
        split(me, opps.iter().copied())
    }
}

/// The most histogram bins (the vectors live on the stack).
pub const MAX_BINS: usize = 32;

/// The longest feature vector: `MAX_BINS - 1` CDF points, the EHS, two extras, the boards, the
/// second and third versions' more.
pub const MAX_DIM: usize = MAX_BINS + 2 + 2 * BOARD + v2::MORE + v3::MORE;

/// One rollout: what it deals and what it has accumulated.
struct Rollout<'a, S> {
    sc: &'a S,
    /// My cards and the opponent's up cards now.
    mine_now: CardSet,
    opp_now: CardSet,
    /// The cards nobody has been seen to hold.
    unseen: CardSet,
    /// The opponent's down cards at showdown.
    k_opp_down: usize,
    /// Inner draws per outer outcome, and how many inner outcomes there are.
    inner_budget: u64,
    inner_total: u64,
    tally: Tally,
}

/// The cards of `set` as ids in increasing order, into `buf`; returns how many.
pub(super) fn ids(set: CardSet, buf: &mut [u8; 52]) -> usize {
    // A rollout rebuilds its pool of cards in card order once per outer outcome (the draws of
    // the default's streams deal from it): one table load and one 8-byte store per byte of
    // the set instead of a step per card. Each store writes the byte's bit positions, of which
    // the next store keeps the first `count_ones`.
    let mut out = [0u8; 64];
    let mut n = 0;
    for b in 0..7 {
        let byte = (set.0 >> (8 * b) & 0xff) as usize;
        let at = BYTE_IDS[byte] + 0x0808_0808_0808_0808 * b as u64;
        out[n..n + 8].copy_from_slice(&at.to_le_bytes());
        n += byte.count_ones() as usize;
    }
    buf.copy_from_slice(&out[..52]);
    n
}

/// The positions of each byte value's set bits, in increasing order, one per byte of a word
/// from its lowest (the rest zero).
static BYTE_IDS: [u64; 256] = {
    let mut t = [0u64; 256];
    let mut v = 0;
    while v < 256 {
        let (mut word, mut k, mut bit) = (0u64, 0, 0);
        while bit < 8 {
            if v >> bit & 1 == 1 {
                word |= (bit as u64) << (8 * k);
                k += 1;
            }
            bit += 1;
        }
        t[v] = word;
        v += 1;
    }
    t
};

/// The set of the cards with these ids.
fn set_of(ids: &[u8]) -> CardSet {
    CardSet(ids.iter().fold(0, |m, &c| m | 1 << c))
}

/// The binomial coefficient, saturating (only compared with small budgets).
pub(crate) fn binom(n: usize, k: usize) -> u64 {
    if k > n {
        return 0;
    }
    let mut c: u64 = 1;
    for i in 0..k as u64 {
        c = c.saturating_mul(n as u64 - i) / (i + 1);
    }
    c
}

/// Calls `f` with every `k`-card subset of `cards`.
pub(super) fn for_each_subset(cards: &[u8], k: usize, f: &mut impl FnMut(CardSet)) {
    let n = cards.len();
    if k > n {
        return;
    }
    let mut idx = [0usize; 52];
    for (i, x) in idx[..k].iter_mut().enumerate() {
        *x = i;
    }
    loop {
        f(CardSet(idx[..k].iter().fold(0, |m, &i| m | 1 << cards[i])));
        // Advance to the next combination in lexicographic order.
        let Some(i) = (0..k).rev().find(|&i| idx[i] != i + n - k) else {
            return;
        };
        idx[i] += 1;
        for j in i + 1..k {
            idx[j] = idx[j - 1] + 1;
        }
    }
}

/// Draws `k` cards uniformly without replacement: a partial Fisher-Yates shuffle of `pool`,
/// whose first `k` entries are the draw (any order of `pool` gives a uniform draw). An index
/// below `m` is the high half of a 32-bit word times `m`: biased by under `m / 2^32`, which no
/// estimate here can see, and branch-free.
#[inline]
fn draw<'a, R: Source>(pool: &'a mut [u8], k: usize, rng: &mut R) -> &'a [u8] {
    draw_range(pool, 0..k, rng);
    &pool[..k]
}

/// Positions `at` of a partial Fisher-Yates shuffle of `pool` (those before `at.start` done):
/// each gets a uniform card of those at or after it.
#[inline]
fn draw_range<R: Source>(pool: &mut [u8], at: std::ops::Range<usize>, rng: &mut R) {
    let n = pool.len() as u64;
    for i in at {
        let j = i + ((rng.word() as u64 * (n - i as u64)) >> 32) as usize;
        pool.swap(i, j);
    }
}

impl<S: Scorer> Rollout<'_, S> {
    /// Deals every outer outcome, or a sample of them, and scores each.
    fn run<R: Source>(&mut self, shape: &Shape, p: &FeatureParams, rng: &mut R) {
        let (fd, fu) = shape.final_counts();
        let k_me = (fd + fu) as usize - self.mine_now.len() as usize;
        let k_opp_up = fu as usize - self.opp_now.len() as usize;
        let mut rem = [0u8; 52];
        let n = ids(self.unseen, &mut rem);
        let rem = &mut rem[..n];
        let budget = p.outer.max(1) as u64;
        let total = binom(n, k_me).saturating_mul(binom(n - k_me, k_opp_up));
        let outer = total.min(budget);
        // Fewer outer outcomes than the budget leave the rest to the inner draws.
        self.inner_budget = (budget * p.inner.max(1) as u64 / outer).max(1);
        self.inner_total = binom(n - k_me - k_opp_up, self.k_opp_down);
        if total <= budget {
            for_each_subset(rem, k_me, &mut |mine| {
                let mut rest = [0u8; 52];
                let m = ids(self.unseen.minus(mine), &mut rest);
                for_each_subset(&rest[..m], k_opp_up, &mut |opp| {
                    self.outcome(mine, opp, None, rng)
                });
            });
        } else {
            let k = k_me + k_opp_up;
            for _ in 0..budget {
                let both = draw(rem, k, rng);
                let (mine, opp) = (set_of(&both[..k_me]), set_of(&both[k_me..]));
                // The fast draws deal the inner outcomes from what the outer draw left.
                let left = R::LAZY.then(|| &mut rem[k..]);
                self.outcome(mine, opp, left, rng);
            }
        }
    }

    /// Scores one outer outcome (my new cards `mine`, the opponent's new up cards `opp_new`)
    /// against the opponent's down cards: every one, or a sample (from `left`, the cards not
    /// dealt in any order, when given).
    fn outcome<R: Source>(
        &mut self,
        mine: CardSet,
        opp_new: CardSet,
        left: Option<&mut [u8]>,
        rng: &mut R,
    ) {
        let sc = self.sc;
        let my_final = self.mine_now.union(mine);
        let s = sc.strength(PartialHand::of(my_final));
        sc.extras(my_final, &mut self.tally.extras);
        let opp_now = self.opp_now.union(opp_new);
        let mut buf = [0u8; 52];
        let rest = match left {
            Some(left) => left,
            None => {
                let m = ids(self.unseen.minus(mine).minus(opp_new), &mut buf);
                &mut buf[..m]
            }
        };
        let (mut sum, mut count) = (0.0f64, 0u64);
        let mut score = |opp: PartialHand| {
            sum += sc.share_against(s, opp);
            count += 1;
        };
        if self.inner_total <= self.inner_budget {
            for_each_subset(rest, self.k_opp_down, &mut |hidden| {
                score(PartialHand::of(opp_now.union(hidden)))
            });
        } else {
            // The opponent's up cards are added once, each hidden card with one addition.
            let base = PartialHand::of(opp_now);
            for _ in 0..self.inner_budget {
                let hidden = draw(rest, self.k_opp_down, rng);
                score(hidden.iter().fold(base, |h, &c| h.add(Card::from_id(c))));
            }
        }
        let hs = sum / count as f64;
        self.tally.add(hs);
    }
}

/// Calls `f` with every way to deal `sizes[i]` cards of `cards` to each group `i` (each group a
/// set: the order within it does not matter), the groups so far in `got`.
fn for_each_deal(
    cards: CardSet,
    sizes: &[usize],
    got: &mut [CardSet],
    f: &mut impl FnMut(&[CardSet]),
) {
    let depth = got.len() - sizes.len();
    let Some((&k, rest)) = sizes.split_first() else {
        f(got);
        return;
    };
    let mut ids_buf = [0u8; 52];
    let n = ids(cards, &mut ids_buf);
    for_each_subset(&ids_buf[..n], k, &mut |g| {
        got[depth] = g;
        for_each_deal(cards.minus(g), rest, got, f);
    });
}

/// The number of ways [`for_each_deal`] deals `sizes` from `n` cards (saturating).
fn deals(n: usize, sizes: &[usize]) -> u64 {
    let mut left = n;
    let mut total: u64 = 1;
    for &k in sizes {
        total = total.saturating_mul(binom(left, k));
        left = left.saturating_sub(k);
    }
    total
}

/// Deals `sizes[i]` random cards of `pool` to each group, into `out`.
fn draw_deal<R: Source>(pool: &mut [u8], sizes: &[usize], out: &mut [CardSet], rng: &mut R) {
    let total: usize = sizes.iter().sum();
    let drawn = draw(pool, total, rng);
    let mut at = 0;
    for (o, &k) in out.iter_mut().zip(sizes) {
        *o = set_of(&drawn[at..at + k]);
        at += k;
    }
}

/// What a [`TableRollout`] adds up: the first version's [`Tally`], or the second version's more
/// (`v2`). The hook through which one rollout, and so one sequence of draws, serves every
/// version of the features.
trait Accumulate<S: Scorer> {
    /// What the inner outcomes of one outer outcome add up to.
    type Inner: Default;
    /// Scores one inner outcome into `inner`: my strength `me` against `opps` live opponents,
    /// opponent `i`'s final hand `opp(i)`, asked in order (as far as the accumulator needs:
    /// with the fast draws an opponent not asked is not dealt).
    fn inner(
        sc: &S,
        inner: &mut Self::Inner,
        me: S::S,
        opps: usize,
        opp: impl FnMut(usize) -> PartialHand,
    );
    /// Adds the inner sums of one outer outcome.
    fn outer(&mut self, inner: Self::Inner);
    /// The first version's tally, where the extras of my final hands are added.
    fn tally(&mut self) -> &mut Tally;
}

/// The first version's: the HS of an outer outcome is my mean pot share over its inner ones.
impl<S: Scorer> Accumulate<S> for Tally {
    /// The sum of my shares and the number of inner outcomes.
    type Inner = (f64, u64);
    #[inline]
    fn inner(
        sc: &S,
        inner: &mut (f64, u64),
        me: S::S,
        opps: usize,
        opp: impl FnMut(usize) -> PartialHand,
    ) {
        inner.0 += sc.share_many(me, opps, opp);
        inner.1 += 1;
    }
    fn outer(&mut self, (sum, count): (f64, u64)) {
        self.add(sum / count as f64);
    }
    fn tally(&mut self) -> &mut Tally {
        self
    }
}

/// The rollout of an N-seat view with other live opponents (as [`Rollout`], the outer draws my
/// cards to come and every live opponent's up cards to come, the inner draws their down cards),
/// adding up what `A` asks of each outcome (the first version: the HS of an outer outcome is
/// my mean pot share against all of them).
struct TableRollout<'a, S, A> {
    sc: &'a S,
    mine_now: CardSet,
    /// The live opponents' up cards now: the measured one first.
    opp_now: [CardSet; 1 + MAX_OTHERS],
    opps: usize,
    unseen: CardSet,
    /// Cards dealt per group by the outer draws (me, then each opponent's up cards) and by the
    /// inner draws (each opponent's down cards).
    outer_sizes: [usize; 2 + MAX_OTHERS],
    inner_sizes: [usize; 1 + MAX_OTHERS],
    inner_budget: u64,
    inner_total: u64,
    acc: A,
}

impl<'a, S: Scorer, A: Accumulate<S>> TableRollout<'a, S, A> {
    /// The rollout of `t` (with every live opponent), adding into `acc`.
    fn new(sc: &'a S, shape: &Shape, t: &TableView, acc: A) -> TableRollout<'a, S, A> {
        let v = &t.view;
        let (fd, fu) = shape.final_counts();
        let opps = 1 + t.live as usize;
        let mut opp_now = [CardSet::EMPTY; 1 + MAX_OTHERS];
        opp_now[0] = v.opp_up;
        opp_now[1..opps].copy_from_slice(t.others());
        let mine_now = v.down.union(v.up);
        let mut outer_sizes = [0; 2 + MAX_OTHERS];
        outer_sizes[0] = (fd + fu) as usize - mine_now.len() as usize;
        outer_sizes[1..=opps].fill(fu as usize - v.opp_up.len() as usize);
        let mut inner_sizes = [0; 1 + MAX_OTHERS];
        inner_sizes[..opps].fill(fd as usize);
        TableRollout {
            sc,
            mine_now,
            opp_now,
            opps,
            unseen: shape.deck.minus(t.known()),
            outer_sizes,
            inner_sizes,
            inner_budget: 1,
            inner_total: 0,
            acc,
        }
    }

    /// Deals every outer outcome, or a sample of them, and scores each.
    fn run<R: Source>(&mut self, p: &FeatureParams, rng: &mut R) {
        let outer_sizes = self.outer_sizes;
        let sizes = &outer_sizes[..1 + self.opps];
        let n = self.unseen.len() as usize;
        let budget = p.outer.max(1) as u64;
        let total = deals(n, sizes);
        let outer = total.min(budget);
        self.inner_budget = (budget * p.inner.max(1) as u64 / outer).max(1);
        let dealt: usize = sizes.iter().sum();
        self.inner_total = deals(n - dealt, &self.inner_sizes[..self.opps]);
        let mut got = [CardSet::EMPTY; 2 + MAX_OTHERS];
        if total <= budget {
            let unseen = self.unseen;
            for_each_deal(unseen, sizes, &mut got[..sizes.len()], &mut |g| {
                self.outcome(g, None, rng)
            });
        } else {
            let mut pool = [0u8; 52];
            let m = ids(self.unseen, &mut pool);
            for _ in 0..budget {
                draw_deal(&mut pool[..m], sizes, &mut got, rng);
                // The fast draws deal the inner outcomes from what the outer draw left.
                let left = R::LAZY.then(|| &mut pool[dealt..m]);
                self.outcome(&got[..sizes.len()], left, rng);
            }
        }
    }

    /// Scores one outer outcome: `g[0]` my new cards, `g[1 + i]` opponent `i`'s new up cards;
    /// `left`, when given, the cards not dealt (in any order) for the inner draws.
    fn outcome<R: Source>(&mut self, g: &[CardSet], left: Option<&mut [u8]>, rng: &mut R) {
        let sc = self.sc;
        let opps = self.opps;
        let my_final = self.mine_now.union(g[0]);
        let s = sc.strength(PartialHand::of(my_final));
        sc.extras(my_final, &mut self.acc.tally().extras);
        // Each opponent's cards in sight are keyed once per outer outcome; a sampled hidden
        // card is then one addition (the key is a sum over the cards: the same strength).
        let mut base = [PartialHand::EMPTY; 1 + MAX_OTHERS];
        let mut rest = self.unseen;
        for (i, b) in base[..opps].iter_mut().enumerate() {
            *b = PartialHand::of(self.opp_now[i].union(g[1 + i]));
        }
        for &c in g {
            rest = rest.minus(c);
        }
        let mut inner = A::Inner::default();
        if self.inner_total <= self.inner_budget {
            let inner_sizes = self.inner_sizes;
            let mut hidden = [CardSet::EMPTY; 1 + MAX_OTHERS];
            for_each_deal(rest, &inner_sizes[..opps], &mut hidden[..opps], &mut |h| {
                let of = |i: usize| PartialHand::of(base[i].cards().union(h[i]));
                A::inner(sc, &mut inner, s, opps, of);
            });
        } else if let Some(pool) = left {
            let k = self.inner_sizes[0];
            for _ in 0..self.inner_budget {
                // Opponent `i`'s hidden cards are positions `i * k..` of one partial shuffle,
                // dealt when the showdown first asks for its strength (it asks in order).
                let of = |i: usize| {
                    draw_range(pool, i * k..(i + 1) * k, rng);
                    let hidden = &pool[i * k..(i + 1) * k];
                    hidden.iter().fold(base[i], |h, &c| h.add(Card::from_id(c)))
                };
                A::inner(sc, &mut inner, s, opps, of);
            }
        } else {
            // Every opponent hides as many cards, so one draw of them all is `draw_deal`'s of
            // equal groups (the same swaps): opponent `i`'s are its `i`-th run of `k`.
            let k = self.inner_sizes[0];
            let mut pool = [0u8; 52];
            let m = ids(rest, &mut pool);
            for _ in 0..self.inner_budget {
                let drawn = draw(&mut pool[..m], k * opps, rng);
                let of = |i: usize| {
                    let hidden = &drawn[i * k..(i + 1) * k];
                    hidden.iter().fold(base[i], |h, &c| h.add(Card::from_id(c)))
                };
                A::inner(sc, &mut inner, s, opps, of);
            }
        }
        self.acc.outer(inner);
    }
}

/// Six classes of a visible board, each in 0..=1: the most cards of one rank, the highest and
/// lowest rank (ace low in razz), the distinct low ranks (ace to eight), the most cards of one
/// suit, and the most distinct ranks within a straight's span of five.
fn board_classes(up: CardSet, razz: bool, out: &mut [f32]) {
    let mut rank_counts = [0u8; 13];
    let mut suit_counts = [0u8; 4];
    let (mut hi, mut lo) = (0u8, 12u8);
    let mut ranks = 0u16;
    let mut lows = 0u16;
    for c in up.iter() {
        let r = c.rank();
        rank_counts[r.index() as usize] += 1;
        suit_counts[c.suit().index() as usize] += 1;
        let value = if razz { r.low_index() } else { r.index() };
        hi = hi.max(value);
        lo = lo.min(value);
        ranks |= 1 << r.index();
        if r.low_index() <= 7 {
            lows |= 1 << r.low_index();
        }
    }
    if up.is_empty() {
        out.fill(0.0);
        return;
    }
    let most_of_a_rank = *rank_counts.iter().max().unwrap();
    let most_of_a_suit = *suit_counts.iter().max().unwrap();
    // Ranks shifted up one with the ace also below the deuce, for the wheel.
    let wheel = (ranks << 1 | ranks >> 12) as u32;
    let span = (0..10)
        .map(|lo| (wheel >> lo & 0x1f).count_ones())
        .max()
        .unwrap();
    out[0] = (most_of_a_rank - 1) as f32 / 3.0;
    out[1] = hi as f32 / 12.0;
    out[2] = lo as f32 / 12.0;
    out[3] = (lows.count_ones() as f32 / 4.0).min(1.0);
    out[4] = (most_of_a_suit - 1) as f32 / 3.0;
    out[5] = (span - 1) as f32 / 3.0;
}

#[cfg(test)]
mod tests {
    use super::*;

    /// My share and the opponent's add up to the pot when both hands are known, in every showdown,
    /// and the shares that evaluate an opponent's hand only as far as they need are the shares
    /// of its whole strength, to the bit.
    fn symmetric<S: Scorer>(sc: &S, cards: usize) {
        let mut rng = ChaCha8Rng::seed_from_u64(5);
        let mut deck: Vec<u8> = (0..52).collect();
        let hand = |ids: &[u8]| PartialHand::of(set_of(ids));
        for _ in 0..20_000 {
            let both = draw(&mut deck, 2 * cards, &mut rng);
            let (ha, hb) = (hand(&both[..cards]), hand(&both[cards..]));
            let (a, b) = (sc.strength(ha), sc.strength(hb));
            assert_eq!(sc.share(a, b) + sc.share(b, a), 1.0);
            assert_eq!(sc.share_against(a, hb).to_bits(), sc.share(a, b).to_bits());
            // Against one opponent the table's share is the duel's.
            assert_eq!(sc.share_many(a, 1, |_| hb), sc.share(a, b));
        }
        // At a table of three the shares of the pot add up to it too, however they are asked.
        for _ in 0..20_000 {
            let all = draw(&mut deck, 3 * cards, &mut rng);
            let hands: Vec<PartialHand> = (0..3)
                .map(|i| hand(&all[i * cards..(i + 1) * cards]))
                .collect();
            let h: Vec<S::S> = hands.iter().map(|&x| sc.strength(x)).collect();
            let total: f64 = (0..3)
                .map(|i| {
                    let others: Vec<usize> = (0..3).filter(|&j| j != i).collect();
                    let strengths: Vec<S::S> = others.iter().map(|&j| h[j]).collect();
                    let share = sc.share_many(h[i], 2, |j| hands[others[j]]);
                    assert_eq!(share.to_bits(), sc.share_among(h[i], &strengths).to_bits());
                    let mut duel = [0.0; 2];
                    let with_duels = sc.share_and_duels(h[i], 2, |j| hands[others[j]], &mut duel);
                    assert_eq!(with_duels.to_bits(), share.to_bits());
                    for (d, s) in duel.iter().zip(&strengths) {
                        assert_eq!(d.to_bits(), sc.share(h[i], *s).to_bits());
                    }
                    share
                })
                .sum();
            assert!((total - 1.0).abs() < 1e-12, "{total}");
        }
        // A hand against itself (the same strength) splits the pot.
        let same = sc.strength(PartialHand::of(set_of(&deck[..cards])));
        assert_eq!(sc.share(same, same), 0.5);
    }

    #[test]
    fn shares_add_up_to_the_pot_however_the_hands_are_evaluated() {
        symmetric(&High, 7);
        symmetric(&High, 5);
        symmetric(&Razz, 7);
        symmetric(&HiLo::new(), 7);
        symmetric(&Showing, 3);
    }

    /// The pool of a set is its cards in increasing order, as iterating the set gives them.
    #[test]
    fn ids_are_the_sets_cards_in_order() {
        let mut rng = ChaCha8Rng::seed_from_u64(9);
        let mut deck: Vec<u8> = (0..52).collect();
        for k in [0, 1, 7, 8, 9, 30, 51, 52] {
            for _ in 0..200 {
                let set = set_of(draw(&mut deck, k, &mut rng));
                let mut buf = [0u8; 52];
                let n = ids(set, &mut buf);
                let want: Vec<u8> = set.iter().map(|c| c.id()).collect();
                assert_eq!(&buf[..n], &want[..]);
            }
        }
    }

    #[test]
    fn board_classes_of_known_boards() {
        let set =
            |s: &str| -> CardSet { crate::cards::parse_cards(s).unwrap().into_iter().collect() };
        let mut out = [0f32; BOARD];
        board_classes(set("Kc Kd Qc Jc"), false, &mut out);
        assert_eq!(
            out,
            [
                1.0 / 3.0,
                11.0 / 12.0,
                9.0 / 12.0,
                0.0,
                2.0 / 3.0,
                2.0 / 3.0
            ]
        );
        // A wheel draw: A 2 3 4 are four ranks within five, the ace low in razz.
        board_classes(set("Ac 2d 3h 4s"), true, &mut out);
        assert_eq!(out, [0.0, 3.0 / 12.0, 0.0, 1.0, 0.0, 1.0]);
    }
}
