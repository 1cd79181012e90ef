//! The reviewed decisions summed: by street and kind of spot, by kind of action, and by the
//! three together, the biggest leaks first.

use super::{ActionKind, HandReview, Reviewed, SpotKind};
use serde::Serialize;
use std::collections::BTreeMap;

/// The decisions of one group.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Group {
    /// The street's name, where the group is of one street.
    pub street: Option<String>,
    /// The kind of spot, where the group is of one.
    pub spot: Option<SpotKind>,
    /// The kind of action, where the group is of one.
    pub action: Option<ActionKind>,
    /// Decisions.
    pub decisions: usize,
    /// Leaks among them (rare or losing).
    pub leaks: usize,
    /// Decisions whose action the strategy takes rarely.
    pub rare: usize,
    /// Decisions that lose value.
    pub losing: usize,
    /// Decisions with values.
    pub valued: usize,
    /// The value lost over the decisions with values, in chips: each one's point estimate,
    /// which noise alone makes positive (the best of several noisy values is biased up).
    pub total_loss: f64,
    /// The value lost on the losing decisions alone (beyond their intervals), in chips: what
    /// the group's leaks cost, near 0 for a player whose losses are noise.
    pub leak_loss: f64,
    /// `total_loss` per decision with values (0 without any).
    pub mean_loss: f64,
    /// The mean strategy frequency of the actions taken.
    pub mean_frequency: f64,
}

impl Group {
    /// The group's name: street, spot and action, those it has.
    pub fn name(&self) -> String {
        let mut parts = Vec::new();
        if let Some(s) = &self.street {
            parts.push(s.clone());
        }
        if let Some(s) = self.spot {
            parts.push(s.words().to_string());
        }
        let mut name = parts.join(", ");
        if let Some(a) = self.action {
            if !name.is_empty() {
                name.push_str(": ");
            }
            name.push_str(a.words());
        }
        name
    }
}

/// The summary of a review.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Summary {
    /// Hands reviewed.
    pub hands: usize,
    /// Every decision of the hero together.
    pub all: Group,
    /// By street and kind of spot, in the order of the hand.
    pub by_spot: Vec<Group>,
    /// By kind of action.
    pub by_action: Vec<Group>,
    /// By street, spot and action, the groups with a leak, the biggest first: the most value
    /// lost on leaks, then the most leaks.
    pub biggest: Vec<Group>,
}

/// Sums of a group as it is filled.
#[derive(Default)]
struct Sums {
    decisions: usize,
    leaks: usize,
    rare: usize,
    losing: usize,
    valued: usize,
    loss: f64,
    leak_loss: f64,
    frequency: f64,
}

impl Sums {
    fn add(&mut self, d: &Reviewed) {
        self.decisions += 1;
        self.leaks += usize::from(d.leak());
        self.rare += usize::from(d.rare);
        self.losing += usize::from(d.losing);
        if let Some(l) = d.loss() {
            self.valued += 1;
            self.loss += l;
            if d.losing {
                self.leak_loss += l;
            }
        }
        self.frequency += d.frequency();
    }

    fn group(
        &self,
        street: Option<String>,
        spot: Option<SpotKind>,
        action: Option<ActionKind>,
    ) -> Group {
        Group {
            street,
            spot,
            action,
            decisions: self.decisions,
            leaks: self.leaks,
            rare: self.rare,
            losing: self.losing,
            valued: self.valued,
            total_loss: self.loss,
            leak_loss: self.leak_loss,
            mean_loss: if self.valued > 0 {
                self.loss / self.valued as f64
            } else {
                0.0
            },
            mean_frequency: self.frequency / self.decisions.max(1) as f64,
        }
    }
}

/// Sums the decisions of `hands`.
pub fn summarize(hands: &[HandReview]) -> Summary {
    let mut all = Sums::default();
    // Keyed by the street's number (its name alongside), so that the order is the hand's.
    let mut by_spot: BTreeMap<(usize, SpotKind), (String, Sums)> = BTreeMap::new();
    let mut by_action: BTreeMap<ActionKind, Sums> = BTreeMap::new();
    let mut by_all: BTreeMap<(usize, SpotKind, ActionKind), (String, Sums)> = BTreeMap::new();
    for d in hands.iter().flat_map(|h| &h.decisions) {
        all.add(d);
        let name = || (d.street_name.clone(), Sums::default());
        by_spot
            .entry((d.street, d.spot))
            .or_insert_with(name)
            .1
            .add(d);
        by_action.entry(d.action).or_default().add(d);
        by_all
            .entry((d.street, d.spot, d.action))
            .or_insert_with(name)
            .1
            .add(d);
    }
    let mut biggest: Vec<Group> = (by_all.into_iter())
        .filter(|(_, (_, s))| s.leaks > 0)
        .map(|((_, spot, action), (name, s))| s.group(Some(name), Some(spot), Some(action)))
        .collect();
    biggest.sort_by(|a, b| (b.leak_loss.total_cmp(&a.leak_loss)).then(b.leaks.cmp(&a.leaks)));
    Summary {
        hands: hands.len(),
        all: all.group(None, None, None),
        by_spot: (by_spot.into_iter())
            .map(|((_, spot), (name, s))| s.group(Some(name), Some(spot), None))
            .collect(),
        by_action: (by_action.into_iter())
            .map(|(action, s)| s.group(None, None, Some(action)))
            .collect(),
        biggest,
    }
}
