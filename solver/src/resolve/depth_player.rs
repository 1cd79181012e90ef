//! The blueprint searching depth-limited at play time, on a walkable game (ministud, yardstud,
//! kings and aces): `FILE:depth=K,from=S` re-solves, at the first decision of street `S`, that
//! street alone, its leaves valued by `K` continuation strategies of the blueprint
//! ([`super::depth`], [`super::leaves`]), and plays the result; below the cut it plays the
//! blueprint, or with `,nested` each later street re-solved the same way from the ranges the
//! re-solved rows above it imply.
//!
//! The player computes exactly what `stud eval resolve FILE --from-street S --leaves K
//! [--nested]` measures (the same subgame, blueprint rows and solve: [`super::depth_verify`]),
//! once per hand's subgame, so that the evaluator's exploitability is the player's own (tested
//! by lifting the player onto the whole game).

use super::depth_verify::{nest, Depth};
use super::{Budget, Options, Subgame, DEFAULT_FLOOR, MAX_ITERATIONS};
use crate::bot::{normalize_or_fall_back, Answer, Bet, Player, StrategyPlayer};
use crate::kernel::normalize;
use abstraction::cards::CardSet;
use abstraction::rules::{Action, Deal, GameDef, State};
use abstraction::tree::NONE;
use anyhow::{bail, ensure, Context};
use std::sync::{Arc, Mutex};

/// Subgames kept: a hand plays in one from street `S` on; hands played at once on other
/// threads have their own.
const CACHE: usize = 8;

/// What a `FILE:depth=...` spec asks for (see [`depth_spec`]).
#[derive(Clone, Debug, PartialEq)]
pub struct DepthSpec {
    /// Continuation strategies per leaf (1 to [`super::leaves::MAX_CONTINUATIONS`]).
    pub leaves: usize,
    /// The street re-solved first, as written (`3rd`, `3rd street`, `3`): read against the
    /// game when the player is made.
    pub from: String,
    /// Whether each later street is re-solved again from the re-solved ranges.
    pub nested: bool,
    /// Iterations of each re-solve.
    pub iterations: u64,
    /// The ranges' floor ([`Options::floor`]).
    pub floor: f64,
}

/// Splits a player spec ending in `:depth=K,from=S` (optionally followed, in any order, by
/// `,nested`, `,iterations=N` and `,floor=F`) into the blueprint's spec and what it asks;
/// `None` for any other spec.
pub fn depth_spec(spec: &str) -> Option<anyhow::Result<(&str, DepthSpec)>> {
    let (rest, how) = spec.rsplit_once(':')?;
    let listed = how.strip_prefix("depth=")?;
    Some(parse_listed(how, listed).map(|d| (rest, d)))
}

/// The options of a `depth=` spec `how`, `listed` after `depth=`.
fn parse_listed(how: &str, listed: &str) -> anyhow::Result<DepthSpec> {
    let max = super::leaves::MAX_CONTINUATIONS;
    let mut parts = listed.split(',');
    let leaves = parts
        .next()
        .and_then(|k| k.parse::<usize>().ok())
        .filter(|k| (1..=max).contains(k))
        .with_context(|| {
            format!("`{how}`: depth=K takes K from 1 to {max} continuation strategies per leaf")
        })?;
    let (mut from, mut nested, mut iterations, mut floor) = (None, false, None, None);
    for part in parts {
        let (key, value) = part.split_once('=').unwrap_or((part, ""));
        match (key, value) {
            ("nested", "") if !nested => nested = true,
            ("from", s) if from.is_none() && !s.is_empty() => from = Some(s.to_string()),
            ("iterations", n) if iterations.is_none() => {
                iterations = Some(
                    n.parse::<u64>()
                        .ok()
                        .filter(|n| (1..=MAX_ITERATIONS).contains(n))
                        .with_context(|| {
                            format!("`{how}`: iterations=N takes N from 1 to {MAX_ITERATIONS}")
                        })?,
                )
            }
            ("floor", f) if floor.is_none() => {
                floor = Some(super::parse_floor(f).map_err(|e| anyhow::anyhow!("`{how}`: {e}"))?)
            }
            _ => bail!(
                "`{how}`: after depth=K write `,from=S` (the street re-solved first, such as \
                 3rd), and optionally `,nested`, `,iterations=N` and `,floor=F`, each once, not \
                 `{part}`"
            ),
        }
    }
    Ok(DepthSpec {
        leaves,
        from: from.with_context(|| {
            format!(
                "`{how}`: say the street searched first, as `{how},from=S` with S a street \
                 before the last (2nd in ministud, 2nd or 3rd in yardstud)"
            )
        })?,
        nested,
        iterations: iterations.unwrap_or(super::DEFAULT_PLAYER_ITERATIONS),
        floor: floor.unwrap_or(DEFAULT_FLOOR),
    })
}

/// The street (0-based) of `def` that `name` says as players do (`3rd`, `3rd street`, `3`:
/// [`GameDef::street_named`]).
pub fn street_named(def: &GameDef, name: &str) -> anyhow::Result<usize> {
    let n = def.streets.len();
    def.street_named(name).with_context(|| {
        format!(
            "`from={name}`: {} has {} to {}",
            def.variant.name(),
            def.street_name(0),
            def.street_name(n - 1)
        )
    })
}

/// A strategy file searching depth-limited from one street on (see the module documentation).
pub struct DepthPlayer {
    blueprint: StrategyPlayer,
    street: usize,
    budget: Budget,
    options: Options,
    depth: Depth,
    name: String,
    /// Recent subgames, keyed by the public cards and betting before their root.
    cache: Mutex<Vec<(Key, Arc<Searched>)>>,
}

/// What a subgame depends on: both seats' up cards at its root and the betting before it.
#[derive(Clone, PartialEq, Eq)]
struct Key {
    up: [CardSet; 2],
    bets: Vec<Bet>,
}

/// A subgame and the rows played in it: the re-solved street's (and, nested, every later
/// street's), the blueprint's elsewhere.
struct Searched {
    sub: Subgame,
    rows: Vec<f64>,
}

impl DepthPlayer {
    /// `blueprint`, playing `def` (a walkable game), searching as `spec` says.
    pub fn new(blueprint: StrategyPlayer, def: &GameDef, spec: &DepthSpec) -> anyhow::Result<Self> {
        let street = street_named(def, &spec.from)?;
        ensure!(
            street + 1 < def.streets.len(),
            "`from={}`: a depth-limited search starts before the last street ({} is the last)",
            spec.from,
            def.street_name(def.streets.len() - 1)
        );
        abstraction::tree::Tree::check_supported(def).with_context(|| {
            format!(
                "{}: a depth-limited search needs a walkable game",
                def.variant
            )
        })?;
        let mut name = format!(
            "{}:depth={},from={}",
            blueprint.name(),
            spec.leaves,
            spec.from
        );
        if spec.nested {
            name.push_str(",nested");
        }
        if spec.iterations != super::DEFAULT_PLAYER_ITERATIONS {
            name.push_str(&format!(",iterations={}", spec.iterations));
        }
        if spec.floor != DEFAULT_FLOOR {
            name.push_str(&format!(",floor={}", spec.floor));
        }
        Ok(DepthPlayer {
            blueprint,
            street,
            budget: Budget::Iterations(spec.iterations),
            options: Options {
                floor: spec.floor,
                ..Options::default()
            },
            depth: Depth {
                leaves: spec.leaves,
                nested: spec.nested,
            },
            name,
            cache: Mutex::new(Vec::new()),
        })
    }

    /// The hand's subgame from the first decision of the searched street, solved, from the
    /// cache or made now.
    fn searched(&self, state: &State, bets: &[Bet]) -> anyhow::Result<Arc<Searched>> {
        let def = state.def();
        let up_dealt = |upto: usize| {
            def.streets[..=upto]
                .iter()
                .flat_map(|s| &s.deal)
                .filter(|d| **d == Deal::Up)
                .count()
        };
        let n = up_dealt(self.street);
        let key = Key {
            up: [0, 1].map(|s| state.up_cards(s).iter().take(n).copied().collect()),
            bets: bets
                .iter()
                .take_while(|b| b.0 < self.street)
                .copied()
                .collect(),
        };
        let lock = || {
            self.cache
                .lock()
                .map_err(|_| anyhow::anyhow!("the search cache was left half-updated by a panic"))
        };
        if let Some((_, hit)) = lock()?.iter().find(|(k, _)| *k == key) {
            return Ok(Arc::clone(hit));
        }
        let sub = Subgame::with_chance(&self.blueprint, state, bets, self.street, self.options)?;
        let blue = sub.policy_of(&self.blueprint)?;
        let mut rows = blue.clone();
        nest(
            &sub.tree,
            0,
            &sub.ranges,
            &blue,
            self.budget,
            self.depth,
            &mut rows,
        )?;
        let entry = Arc::new(Searched { sub, rows });
        let mut cache = lock()?;
        cache.push((key, Arc::clone(&entry)));
        if cache.len() > CACHE {
            cache.remove(0);
        }
        Ok(entry)
    }
}

impl Player for DepthPlayer {
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
        if state.street() < self.street {
            return self.blueprint.policy(state, bets, seat, legal, probs);
        }
        let searched = self.searched(state, bets)?;
        let Searched { sub, rows } = &*searched;
        // The node of this spot: the same betting and up cards (a raise past the subgame's
        // cap has none, and the blueprint answers it).
        let up = |st: &State| [st.up_cards(0), st.up_cards(1)].map(|c| c.to_vec());
        let node = (0..sub.tree.nodes.len()).find(|&i| {
            sub.states[i]
                .as_ref()
                .is_some_and(|st| sub.bets[i] == bets && up(st) == up(state))
        });
        let Some(node) = node else {
            return self.blueprint.policy(state, bets, seat, legal, probs);
        };
        let down: Vec<_> = state
            .down_cards(seat)
            .iter()
            .map(|c| c.context("searching needs the seat's own down cards"))
            .collect::<anyhow::Result<_>>()?;
        let hand = sub
            .hand_index(&down)
            .context("the seat's down cards are not a hand of the subgame")?;
        let t = &sub.tree;
        let n = t.nodes[node];
        let bucket = t.bucket_table(n.board, n.seat)[hand];
        ensure!(bucket != NONE, "the seat's down card shows on the board");
        let k = n.num_children as usize;
        let at = n.first_slot() as usize + bucket as usize * k;
        let mut row = rows[at..at + k].to_vec();
        normalize(&mut row);
        probs.fill(0.0);
        for (a, p) in sub.actions(node).iter().zip(row) {
            if let Some(i) = legal.iter().position(|x| x == a) {
                probs[i] += p;
            }
        }
        Ok(normalize_or_fall_back(legal, probs))
    }
}
