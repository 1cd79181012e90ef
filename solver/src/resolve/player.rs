//! The blueprint with its last street re-solved, as a [`Player`]: `stud match FILE:resolve ...`.

use super::classes::{warm, Cached, ClassCache};
use super::{Budget, Method, Options, Report, Resolved, Subgame};
use crate::bot::{normalize_or_fall_back, Answer, Bet, Player, StrategyPlayer};
use abstraction::cards::CardSet;
use abstraction::rules::{Action, State};
use anyhow::Context;
use std::sync::{Arc, Mutex};

/// Iterations of a player's re-solve when its spec does not say (`FILE:resolve`): DCFR's 30,
/// less exploitable than CFR+'s 30 (the old default) both inside seventh-street subgames and,
/// on ministud, in the whole game, where DCFR's 24 were worse (docs/resolve.md).
pub const DEFAULT_PLAYER_ITERATIONS: u64 = 30;

/// Re-solves kept: a hand makes one to three decisions on its last street, all answered by the
/// one solve of the street's root; hands played at once on other threads have their own.
const CACHE: usize = 16;

/// Plays a strategy file (its blueprint, as [`StrategyPlayer`] does) up to the last street,
/// then the re-solved strategy of the street's subgame ([`Subgame`], ranges from the blueprint
/// as it plays): one solve per hand and street root, kept for the street's later decisions. A
/// spot the subgame lacks (a raise past the game's cap, where heads-up play is uncapped) is the
/// blueprint's.
pub struct ResolvingPlayer {
    blueprint: StrategyPlayer,
    budget: Budget,
    options: Options,
    name: String,
    /// Recent solves, keyed by the street root's public cards and betting.
    cache: Mutex<Vec<(Key, Arc<Solved>)>>,
    /// The blueprint's classes of the hands' holdings, worked out street by street.
    classes: ClassCache,
}

/// A subgame and its solve.
type Solved = (Subgame, Resolved);

/// What a solve depends on: both seats' up cards, the betting before its root, the budget, and
/// in a safe re-solve the seat re-solved.
#[derive(Clone, PartialEq, Eq)]
struct Key {
    up: [CardSet; 2],
    bets: Vec<Bet>,
    budget: Budget,
    safe_for: Option<u8>,
}

/// Splits a player spec ending in `:resolve`, `:resolve=N` (N iterations) or `:resolve=Nms`
/// (N milliseconds), or the same with `resolve-safe` (the safe re-solve, [`Method::Safe`]),
/// into the blueprint's spec, the budget and the method; `None` for any other spec.
pub fn resolve_spec(spec: &str) -> Option<anyhow::Result<(&str, Budget, Method)>> {
    let (rest, how) = spec.rsplit_once(':')?;
    let after = how.strip_prefix("resolve")?;
    let (method, after) = match after.strip_prefix("-safe") {
        Some(a) => (Method::Safe, a),
        None => (Method::Unsafe, after),
    };
    let budget = match after {
        "" => Ok(Budget::Iterations(DEFAULT_PLAYER_ITERATIONS)),
        b => match b.strip_prefix('=') {
            Some(ms) if ms.ends_with("ms") => ms[..ms.len() - 2].parse().map(Budget::Millis),
            Some(n) => n.parse().map(Budget::Iterations),
            None => return None,
        }
        .map_err(|_| {
            anyhow::anyhow!(
                "`{how}`: write resolve, resolve=N (iterations) or resolve=Nms, or the same \
                 with resolve-safe"
            )
        })
        .and_then(|b| match b {
            Budget::Iterations(0) => Err(anyhow::anyhow!("`{how}`: at least 1 iteration")),
            b => Ok(b),
        }),
    };
    Some(budget.map(|b| (rest, b, method)))
}

impl ResolvingPlayer {
    /// The blueprint `blueprint`, its last street re-solved within `budget`.
    pub fn new(blueprint: StrategyPlayer, budget: Budget, options: Options) -> ResolvingPlayer {
        let how = match budget {
            Budget::Iterations(n) => format!("{n}"),
            Budget::Millis(ms) => format!("{ms}ms"),
        };
        ResolvingPlayer {
            name: match options.method {
                Method::Unsafe => format!("{}:resolve={how}", blueprint.name()),
                Method::Safe => format!("{}:resolve-safe={how}", blueprint.name()),
            },
            blueprint,
            budget,
            options,
            cache: Mutex::new(Vec::new()),
            classes: ClassCache::new(),
        }
    }

    /// The blueprint, as it plays before the last street.
    pub fn blueprint(&self) -> &StrategyPlayer {
        &self.blueprint
    }

    /// The budget of a re-solve when none is asked for.
    pub fn budget(&self) -> Budget {
        self.budget
    }

    /// The blueprint, its classes answered from the player's cache.
    fn cached(&self) -> Cached<'_> {
        Cached {
            player: &self.blueprint,
            cache: &self.classes,
        }
    }

    /// Works out the blueprint's classes of both seats' holdings on the street of `state` (a
    /// decision before the last street, after `bets`), so that the last street's re-solve of
    /// this hand replays its ranges without looking them up (see [`super::classes`]). The
    /// player does it at each of its decisions before the last street.
    pub fn warm(&self, state: &State, bets: &[Bet]) -> anyhow::Result<()> {
        warm(&self.cached(), state, bets, self.options.floor)
            .context("working out the ranges' classes for the last street's re-solve")
    }

    /// The subgame of `state` after `bets` (on the last street) and its solve within `budget`
    /// for `seat` (a safe re-solve is one seat's; an unsafe one serves both), from the cache or
    /// made now.
    pub fn solve(
        &self,
        state: &State,
        bets: &[Bet],
        budget: Budget,
        seat: u8,
    ) -> anyhow::Result<Arc<(Subgame, Resolved)>> {
        let last = state.street();
        let before = bets.iter().take_while(|b| b.0 < last).count();
        let safe_for = (self.options.method == Method::Safe).then_some(seat);
        let key = Key {
            up: [0, 1].map(|s| state.up_cards(s).iter().copied().collect()),
            bets: bets[..before].to_vec(),
            budget,
            safe_for,
        };
        let lock = || {
            self.cache
                .lock()
                .map_err(|_| anyhow::anyhow!("the re-solve cache was left half-updated by a panic"))
        };
        if let Some((_, hit)) = lock()?.iter().find(|(k, _)| *k == key) {
            return Ok(Arc::clone(hit));
        }
        let sub = Subgame::at(&self.cached(), state, bets, self.options)?;
        let safety = match safe_for {
            Some(seat) => Some(sub.safety(&self.cached(), seat)?),
            None => None,
        };
        let resolved = sub.solve(budget, safety.as_ref())?;
        let entry = Arc::new((sub, resolved));
        let mut cache = lock()?;
        if cache.len() == CACHE {
            cache.remove(0);
        }
        cache.push((key, Arc::clone(&entry)));
        Ok(entry)
    }
}

impl ResolvingPlayer {
    /// [`Player::policy`] with the last street re-solved within `budget`, and the re-solve's
    /// report when one answered (`None`: an earlier street, or a spot past the subgame's cap,
    /// answered by the blueprint). A cached solve reports the figures of when it was made.
    pub fn policy_within(
        &self,
        budget: Budget,
        state: &State,
        bets: &[Bet],
        seat: u8,
        legal: &[Action],
        probs: &mut [f64],
    ) -> anyhow::Result<(Answer, Option<Report>)> {
        let blueprint = |probs: &mut [f64]| {
            let answer = self.blueprint.policy(state, bets, seat, legal, probs)?;
            Ok((answer, None))
        };
        if state.street() + 1 != state.def().streets.len() {
            self.warm(state, bets)?;
            return blueprint(probs);
        }
        let solved = self.solve(state, bets, budget, seat)?;
        let (sub, resolved) = &*solved;
        let Some(node) = sub.node_after(bets)? else {
            return blueprint(probs);
        };
        let mut down = CardSet::EMPTY;
        for c in state.down_cards(seat) {
            down.insert(c.context("re-solving needs the seat's own down cards")?);
        }
        let hand = sub
            .hand_index(down)
            .context("the seat's down cards are not a hand of the subgame")?;
        let row = resolved.strategy(node, hand);
        probs.fill(0.0);
        for (a, p) in sub.actions(node).iter().zip(row) {
            if let Some(i) = legal.iter().position(|x| x == a) {
                probs[i] += p;
            }
        }
        Ok((
            normalize_or_fall_back(legal, probs),
            Some(resolved.report(sub)),
        ))
    }
}

impl Player for ResolvingPlayer {
    fn name(&self) -> &str {
        &self.name
    }

    fn policy(
        &self,
        state: &State,
        bets: &[Bet],
        seat: u8,
        legal: &[Action],
        probs: &mut [f64],
    ) -> anyhow::Result<Answer> {
        self.policy_within(self.budget, state, bets, seat, legal, probs)
            .map(|(answer, _)| answer)
    }
}
