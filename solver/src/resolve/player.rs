//! The blueprint with its last street (or last two) re-solved, as a [`Player`]: `stud match
//! FILE:resolve ...`, `FILE:resolve2 ...`, or searching street by street, `FILE:search ...`
//! (the last two from sixth street, then seventh street again: [`super::nest`]).

use super::classes::{warm, Cached, ClassCache};
use super::{Budget, Method, Options, Report, Resolved, Stop, Subgame, DEFAULT_FLOOR};
use crate::bot::{
    normalize_or_fall_back, Answer, Bet, ClassEstimate, Estimated, Player, StrategyPlayer,
};
use abstraction::cards::CardSet;
use abstraction::rules::{Action, State};
use anyhow::Context;
use std::sync::{Arc, Mutex};

/// Iterations of a player's re-solve when its spec does not say (`FILE:resolve`): DCFR's 30,
/// less exploitable than CFR+'s 30 (the old default) both inside seventh-street subgames and,
/// on ministud, in the whole game, where DCFR's 24 were worse (docs/notes/resolve.md).
pub const DEFAULT_PLAYER_ITERATIONS: u64 = 30;

/// Re-solves kept: a hand makes one to three decisions on its last street, all answered by the
/// one solve of the street's root; hands played at once on other threads have their own.
const CACHE: usize = 16;

/// The most bytes the kept re-solves may hold (the newest is always kept): a seventh-street
/// solve holds about 6 MB, a sixth-street one about 150 MB.
const CACHE_BYTES: usize = 512 << 20;

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
    cache: Mutex<Kept>,
    /// The blueprint's classes of the hands' holdings, worked out street by street.
    classes: ClassCache,
    /// The ranges' estimated classes ([`Options::range_draws`]), if they are not the exact ones.
    estimate: Option<ClassEstimate>,
}

/// A subgame and its solve.
type Solved = (Subgame, Resolved);

/// The solves kept, each with what it depends on, oldest first.
type Kept = Vec<(Key, Arc<Solved>)>;

/// What a solve depends on: both seats' up cards, the betting before its root (whose street
/// it is), the budget, and in a safe re-solve the seat re-solved.
#[derive(Clone, PartialEq, Eq)]
struct Key {
    street: usize,
    up: [CardSet; 2],
    bets: Vec<Bet>,
    budget: Budget,
    safe_for: Option<u8>,
}

/// Splits a player spec ending in `:resolve`, `:resolve=N` (N iterations) or `:resolve=Nms`
/// (N milliseconds), or the same with `resolve-safe` (the safe re-solve, [`Method::Safe`]),
/// `resolve-maxmargin` ([`Method::Maxmargin`]) or
/// `resolve2` (the last two streets re-solved from the first decision of the street before the
/// last, unsafely: [`Options::two_streets`]), each optionally followed by `,floor=F` (the
/// ranges' [`Options::floor`]), `,cold` (the classes looked up at the re-solve only:
/// [`Options::cold`]), `,range-draws=N` (the ranges' classes estimated:
/// [`Options::range_draws`]) and, safe methods only, `,fallback` (the re-solve mixed with the
/// blueprint or replaced by it where its bound does not hold: [`Options::fallback`]), in any
/// order, into the blueprint's spec, the budget and the options; `None` for any other spec.
/// `search` (`:search=N`, `:search=Nms`, the same options) is `resolve2` whose seventh street
/// is re-solved again from the ranges the sixth-street solve's rows imply
/// ([`Options::nested`]); `search-safe` and `search-maxmargin` re-solve it safely against
/// those rows ([`Options::nested_method`]; `,fallback` as above).
pub fn resolve_spec(spec: &str) -> Option<anyhow::Result<(&str, Budget, Options)>> {
    let (rest, how) = spec.rsplit_once(':')?;
    // `search` is `resolve2` nested: sixth street's solve, then seventh street's from its rows.
    let (nested, after) = match how.strip_prefix("search") {
        Some(a) => (true, a),
        None => (false, how.strip_prefix("resolve")?),
    };
    let (two_streets, after) = match after.strip_prefix('2') {
        Some(a) if !nested => (true, a),
        _ => (nested, after),
    };
    let safe = [Method::Safe, Method::Maxmargin]
        .into_iter()
        .find_map(|m| after.strip_prefix(m.spec_suffix()).map(|a| (m, a)));
    // Searching, the method is the nested re-solve's: sixth street's solve stays unsafe.
    let (method, nested_method, after) = match safe {
        Some((m, a)) if nested => (Method::Unsafe, m, a),
        Some(_) if two_streets => {
            return Some(Err(anyhow::anyhow!(
                "`{how}`: a safe re-solve of two streets is not built; write resolve2, \
                 resolve-safe or search-safe"
            )))
        }
        Some((m, a)) => (m, Method::Unsafe, a),
        None => (Method::Unsafe, Method::Unsafe, after),
    };
    let (after, listed) = after.split_once(',').unwrap_or((after, ""));
    let (floor, cold, range_draws, fallback) = match comma_options(how, listed) {
        Ok(o) => o,
        Err(e) => return Some(Err(e)),
    };
    if fallback && method == Method::Unsafe && nested_method == Method::Unsafe {
        return Some(Err(anyhow::anyhow!(
            "`{how}`: `,fallback` falls back where a safe re-solve's bound does not hold: write \
             resolve-safe, resolve-maxmargin or search-safe"
        )));
    }
    let options = Options {
        method,
        two_streets,
        floor,
        cold,
        nested,
        range_draws,
        nested_method,
        fallback,
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
                 with resolve-safe, resolve2 or search"
            )
        })
        .and_then(|b| match b {
            Budget::Iterations(0) => Err(anyhow::anyhow!("`{how}`: at least 1 iteration")),
            Budget::Iterations(n) if n > super::MAX_ITERATIONS => Err(anyhow::anyhow!(
                "`{how}`: at most {} iterations",
                super::MAX_ITERATIONS
            )),
            Budget::Millis(ms) if ms > super::MAX_MILLIS => {
                Err(anyhow::anyhow!("`{how}`: at most {} ms", super::MAX_MILLIS))
            }
            b => Ok(b),
        }),
    };
    Some(budget.map(|b| (rest, b, options)))
}

/// The options after a `:resolve` spec `how`'s budget, `listed` with commas between them (empty:
/// none): the floor (`floor=F`, [`super::parse_floor`]; else the default), whether the player
/// is cold (`cold`), the ranges' estimated classes (`range-draws=N`, N outer draws of each
/// rollout, at least 1: [`Options::range_draws`]) and the safe fallback (`fallback`:
/// [`Options::fallback`]), each at most once.
fn comma_options(how: &str, listed: &str) -> anyhow::Result<(f64, bool, Option<u32>, bool)> {
    let (mut floor, mut cold, mut draws, mut fallback) = (None, false, None, false);
    for option in listed.split(',').filter(|_| !listed.is_empty()) {
        if option == "cold" && !cold {
            cold = true;
            continue;
        }
        if option == "fallback" && !fallback {
            fallback = true;
            continue;
        }
        if let Some(n) = option
            .strip_prefix("range-draws=")
            .filter(|_| draws.is_none())
        {
            match n.parse::<u32>() {
                Ok(n) if n > 0 => draws = Some(n),
                _ => anyhow::bail!(
                    "`{how}`: `range-draws=N` takes a positive number of outer draws, not `{n}`"
                ),
            }
            continue;
        }
        match option.strip_prefix("floor=").map(super::parse_floor) {
            Some(Ok(f)) if floor.is_none() => floor = Some(f),
            _ => anyhow::bail!(
                "`{how}`: after the budget, write `,floor=F` with F between 0 and 1 (the \
                 ranges' floor), `,cold` (classes looked up at the re-solve only), \
                 `,range-draws=N` (the ranges' classes estimated from N outer draws) or \
                 `,fallback` (a safe re-solve's bound kept with the blueprint), each at most \
                 once, not `{option}`"
            ),
        }
    }
    Ok((floor.unwrap_or(DEFAULT_FLOOR), cold, draws, fallback))
}

impl ResolvingPlayer {
    /// The blueprint `blueprint`, its last street re-solved within `budget`.
    /// Fails where the options ask the ranges for estimated classes the file cannot give
    /// ([`ClassEstimate::of`]).
    pub fn new(
        blueprint: StrategyPlayer,
        budget: Budget,
        options: Options,
    ) -> anyhow::Result<ResolvingPlayer> {
        let estimate = match options.range_draws {
            Some(n) => Some(ClassEstimate::of(&blueprint, n)?),
            None => None,
        };
        let how = match budget {
            Budget::Iterations(n) => format!("{n}"),
            Budget::Millis(ms) => format!("{ms}ms"),
        };
        let mut floor = if options.floor == DEFAULT_FLOOR {
            String::new()
        } else {
            format!(",floor={}", options.floor)
        };
        if options.cold {
            floor.push_str(",cold");
        }
        if let Some(n) = options.range_draws {
            floor.push_str(&format!(",range-draws={n}"));
        }
        if options.fallback {
            floor.push_str(",fallback");
        }
        Ok(ResolvingPlayer {
            name: match (options.nested, options.two_streets) {
                (true, _) => format!(
                    "{}:search{}={how}{floor}",
                    blueprint.name(),
                    options.nested_method.spec_suffix()
                ),
                (false, two) => format!(
                    "{}:resolve{}{}={how}{floor}",
                    blueprint.name(),
                    if two { "2" } else { "" },
                    options.method.spec_suffix()
                ),
            },
            blueprint,
            budget,
            options,
            cache: Mutex::new(Vec::new()),
            classes: ClassCache::new(),
            estimate,
        })
    }

    /// The blueprint, as it plays before the last street.
    pub fn blueprint(&self) -> &StrategyPlayer {
        &self.blueprint
    }

    /// The blueprint's classes of the hands' holdings it has worked out so far.
    pub fn class_cache(&self) -> &ClassCache {
        &self.classes
    }

    /// The budget of a re-solve when none is asked for.
    pub fn budget(&self) -> Budget {
        self.budget
    }

    /// The street a re-solve of the hand at `state` starts on: the last, or with
    /// [`Options::two_streets`] the one before it (where the game deals the last street's card
    /// down: private chance; else the last).
    pub fn root_street(&self, state: &State) -> usize {
        let def = state.def();
        let last = def.streets.len() - 1;
        let private = def.streets[last].deal == [abstraction::rules::Deal::Down];
        if self.options.two_streets && private && last > 0 {
            last - 1
        } else {
            last
        }
    }

    /// `f` of the blueprint as the ranges read it (its classes estimated where the options
    /// say so), its classes answered from the player's cache.
    fn with_ranges<R>(&self, f: impl FnOnce(&Cached) -> R) -> R {
        match &self.estimate {
            Some(estimate) => {
                let player = Estimated {
                    player: &self.blueprint,
                    classes: estimate,
                };
                f(&Cached {
                    player: &player,
                    classes: &self.classes,
                })
            }
            None => f(&Cached {
                player: &self.blueprint,
                classes: &self.classes,
            }),
        }
    }

    /// Works out the blueprint's classes of both seats' holdings on the street of `state` (a
    /// decision before the last street, after `bets`), so that the last street's re-solve of
    /// this hand replays its ranges without looking them up (see [`super::classes`]). The
    /// player does it at each of its decisions before the last street.
    pub fn warm(&self, state: &State, bets: &[Bet]) -> anyhow::Result<()> {
        self.with_ranges(|cached| warm(cached, state, bets, self.options.floor))
            .context("working out the ranges' classes for the last street's re-solve")
    }

    /// The subgame of `state` after `bets` (on the street of [`ResolvingPlayer::root_street`]
    /// or later) and its solve within `budget` for `seat` (a safe re-solve is one seat's; an
    /// unsafe one serves both), from the cache or made now: a hand's sixth-street solve answers
    /// its seventh street too. A solve that `stop` ends is an error, and not kept.
    pub fn solve(
        &self,
        state: &State,
        bets: &[Bet],
        budget: Budget,
        seat: u8,
        stop: &Stop,
    ) -> anyhow::Result<Arc<(Subgame, Resolved)>> {
        let root = self.root_street(state);
        let before = bets.iter().take_while(|b| b.0 < root).count();
        let safe_for = self.options.method.gadget().map(|_| seat);
        let key = Key {
            street: root,
            up: [0, 1].map(|s| state.up_cards(s).iter().copied().collect()),
            bets: bets[..before].to_vec(),
            budget,
            safe_for,
        };
        if let Some(hit) = self.cached_solve(&key)? {
            return Ok(hit);
        }
        // A safe solve's bound needs the seat's exact range: Bayes' rule (`Options::range_floor`).
        let options = Options {
            floor: self.options.range_floor(),
            ..self.options
        };
        let gadget = self.options.method.gadget().unwrap_or_default();
        let (sub, safe) = self.with_ranges(|cached| -> anyhow::Result<_> {
            let sub = Subgame::at_street(cached, state, bets, root, options)?;
            // The ranges take a second or two: a client gone meanwhile has its solve spared.
            stop.check_cancelled()?;
            let safe = match safe_for {
                Some(seat) => {
                    // The blueprint's rows in the subgame: the gadget's alternatives, and what
                    // the fallback keeps.
                    let rows = sub.rows_of_seat(cached, seat)?;
                    Some((sub.safety_against(&rows, seat, gadget)?, rows))
                }
                None => None,
            };
            Ok((sub, safe))
        })?;
        let mut resolved = sub.solve_until(budget, safe.as_ref().map(|s| &s.0), stop)?;
        if let (true, Some((_, rows))) = (self.options.fallback, &safe) {
            super::safe::keep_bound(&sub, &mut resolved, rows);
        }
        self.keep(key, sub, resolved)
    }

    /// The cached solve of `key`, if one is kept.
    fn cached_solve(&self, key: &Key) -> anyhow::Result<Option<Arc<Solved>>> {
        let cache = self.lock()?;
        Ok(cache
            .iter()
            .find(|(k, _)| k == key)
            .map(|(_, s)| Arc::clone(s)))
    }

    /// The cache, locked.
    fn lock(&self) -> anyhow::Result<std::sync::MutexGuard<'_, Kept>> {
        self.cache
            .lock()
            .map_err(|_| anyhow::anyhow!("the re-solve cache was left half-updated by a panic"))
    }

    /// Keeps the solve of `key`, dropping the oldest past [`CACHE`] solves or
    /// [`CACHE_BYTES`] (the newest is always kept).
    fn keep(&self, key: Key, sub: Subgame, resolved: Resolved) -> anyhow::Result<Arc<Solved>> {
        let entry = Arc::new((sub, resolved));
        let mut cache = self.lock()?;
        cache.push((key, Arc::clone(&entry)));
        let bytes = |e: &Solved| e.1.cost.memory_bytes;
        while cache.len() > CACHE
            || (cache.len() > 1 && cache.iter().map(|(_, e)| bytes(e)).sum::<usize>() > CACHE_BYTES)
        {
            cache.remove(0);
        }
        Ok(entry)
    }

    /// The nested solve of the street of `state` (after [`ResolvingPlayer::root_street`]'s),
    /// from the cache or made now: its subgame's ranges are those the root street's solve
    /// (kept, or made again: the same bits for a budget in iterations) implies along the
    /// hand's real betting ([`super::nest::next_street`]); with a safe
    /// [`Options::nested_method`], `seat`'s re-solve is bounded by what each opponent hand got
    /// against that solve's rows (and falls back to them with [`Options::fallback`]). `None`
    /// where that solve lacks the betting (a raise past its cap: the blueprint answers).
    fn solve_nested(
        &self,
        state: &State,
        bets: &[Bet],
        budget: Budget,
        seat: u8,
        stop: &Stop,
    ) -> anyhow::Result<Option<Arc<Solved>>> {
        let street = state.street();
        let before = bets.iter().take_while(|b| b.0 < street).count();
        let gadget = self.options.nested_method.gadget();
        let key = Key {
            street,
            up: [0, 1].map(|s| state.up_cards(s).iter().copied().collect()),
            bets: bets[..before].to_vec(),
            budget,
            safe_for: gadget.map(|_| seat),
        };
        if let Some(hit) = self.cached_solve(&key)? {
            return Ok(Some(hit));
        }
        let earlier = self.solve(state, bets, budget, seat, stop)?;
        let (sub, resolved) = &*earlier;
        let next = super::nest::next_street(sub, resolved, &bets[..before], self.options.floor)
            .context("the ranges of the nested re-solve")?;
        let Some(next) = next else {
            return Ok(None);
        };
        stop.check_cancelled()?;
        // Safe: bounded by what each opponent hand got against the sixth-street solve's rows.
        let resolved = match gadget {
            None => next.sub.solve_until(budget, None, stop)?,
            Some(kind) => {
                let replaced = next.replaced(sub, &resolved.solver.average)?;
                let safety = next.sub.safety_against(&replaced, seat, kind)?;
                let mut solved = next.sub.solve_until(budget, Some(&safety), stop)?;
                if self.options.fallback {
                    super::safe::keep_bound(&next.sub, &mut solved, &replaced);
                }
                solved
            }
        };
        self.keep(key, next.sub, resolved).map(Some)
    }
}

impl ResolvingPlayer {
    /// [`Player::policy`] with the last street re-solved within `budget`, and the re-solve's
    /// report when one answered (`None`: an earlier street, or a spot past the subgame's cap,
    /// answered by the blueprint). A cached solve reports the figures of when it was made.
    /// `stop` may end the re-solve early, with an error ([`Stop`]).
    pub fn policy_within(
        &self,
        (budget, stop): (Budget, &Stop),
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
        if state.street() < self.root_street(state) {
            if !self.options.cold {
                self.warm(state, bets)?;
            }
            return blueprint(probs);
        }
        let solved = match self.options.nested && state.street() > self.root_street(state) {
            true => self.solve_nested(state, bets, budget, seat, stop),
            false => self.solve(state, bets, budget, seat, stop).map(Some),
        };
        // A spot the ranges never reach (an opponent's action the blueprint never takes, by
        // Bayes' rule): nothing to re-solve against, as the nested walk's own `None`.
        let solved = match solved {
            Err(e) if super::Unreached::is(&e) => None,
            solved => solved?,
        };
        let Some(solved) = solved else {
            return blueprint(probs);
        };
        let (sub, resolved) = &*solved;
        match play_row(sub, resolved, state, bets, seat, legal, probs)? {
            Some(answer) => Ok((answer, Some(resolved.report(sub)))),
            None => blueprint(probs),
        }
    }
}

/// Writes into `probs` (over `legal`) the re-solved row of `seat` (the table's) holding its down
/// cards at `state` after `bets`, in the solved subgame `sub`; `None` where the subgame lacks
/// the spot (a raise past its cap: the caller's blueprint answers).
pub(super) fn play_row(
    sub: &Subgame,
    resolved: &Resolved,
    state: &State,
    bets: &[Bet],
    seat: u8,
    legal: &[Action],
    probs: &mut [f64],
) -> anyhow::Result<Option<Answer>> {
    let Some(node) = sub.node_after(bets)? else {
        return Ok(None);
    };
    let down = state
        .down_cards(seat)
        .iter()
        .map(|c| c.context("re-solving needs the seat's own down cards"))
        .collect::<anyhow::Result<Vec<_>>>()?;
    let hand = sub
        .hand_index(&down)
        .context("the seat's down cards are not a hand of the subgame")?;
    let row = resolved.strategy(node, hand);
    probs.fill(0.0);
    for (a, p) in sub.actions(node).iter().zip(row) {
        if let Some(i) = legal.iter().position(|x| x == a) {
            probs[i] += p;
        }
    }
    Ok(Some(normalize_or_fall_back(legal, probs)))
}

impl Player for ResolvingPlayer {
    fn name(&self) -> &str {
        &self.name
    }

    /// Its answers on the last streets are re-solves: the variance-reduced estimate's walk
    /// does not ask them at spots the match does not reach.
    fn walkable(&self) -> bool {
        false
    }

    fn policy(
        &self,
        state: &State,
        bets: &[Bet],
        seat: u8,
        legal: &[Action],
        probs: &mut [f64],
    ) -> anyhow::Result<Answer> {
        self.policy_within((self.budget, &Stop::NEVER), state, bets, seat, legal, probs)
            .map(|(answer, _)| answer)
    }
}
