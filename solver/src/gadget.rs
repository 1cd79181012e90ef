//! The gadgets of safe re-solving: what the opponent of the seat being re-solved may do before
//! a subgame instead of entering it with the range the blueprint implies.
//!
//! Each opponent hand `h` has an *alternative* `alt[h]`: its counterfactual value at the
//! subgame's root when it best-responds to the strategy being replaced (the blueprint, or the
//! solve of the street above in a nested re-solve). A re-solve is safe when no opponent hand
//! does better against it: `cbv[h] <= alt[h]` for every hand, so the whole game's best response
//! cannot gain from the swap (Burch, Johanson and Bowling 2014). Two gadgets reach it:
//!
//! - [`GadgetKind::Resolve`] (Burch et al.): each hand chooses, with regret matching+ of its
//!   own, to *terminate* and take `alt[h]` or to *follow* into the subgame; its reach at the
//!   root is its probability of following (chance's prior is uniform: the opponent's range is
//!   not trusted). The re-solved seat minimises `sum_h max(alt[h], cbv[h])`: it has no reason to
//!   push a hand below its alternative, so it often keeps close to the blueprint.
//! - [`GadgetKind::Maxmargin`] (Moravcik, Schmid, Ha, Hladik and Gaukrodger 2016): the opponent
//!   chooses *which* hand enters, by regret matching+ over the hands, gaining
//!   `cbv[h] - alt[h]`; the re-solved seat maximises the smallest margin `alt[h] - cbv[h]` over
//!   the hands. The blueprint's margins are all 0, so an equilibrium's are at least 0 (safe),
//!   and a positive one is taken wherever every hand can be pushed below its alternative.
//!
//! A hand that cannot meet the seat's range (every holding of it collides, or the hand shows
//! on the board) has a counterfactual value of 0 whatever is played: it is left out of
//! [`GadgetKind::Maxmargin`]'s choice (`possible`), whose smallest margin it would pin at 0.

use crate::kernel::Real;
use serde::{Deserialize, Serialize};

/// Which gadget a safe re-solve enters the opponent through (see the module documentation).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum GadgetKind {
    /// Burch et al.'s re-solving gadget: per hand, terminate or follow.
    #[default]
    Resolve,
    /// Moravcik et al.'s maxmargin gadget: one choice of the hand that enters.
    Maxmargin,
}

/// A gadget in a solve: its choices' regrets and this iteration's reach of each opponent hand.
pub struct Gadget {
    /// The seat choosing (the opponent of the seat re-solved).
    pub seat: u8,
    kind: GadgetKind,
    /// Each hand's counterfactual value if it terminates (the units of the walk's values).
    alternative: Vec<f64>,
    /// The hands maxmargin may choose (see the module documentation).
    possible: Vec<bool>,
    /// Regret matching+ regrets: per hand terminate and follow ([`GadgetKind::Resolve`]), or
    /// per hand its choice in `[1]` ([`GadgetKind::Maxmargin`]).
    regrets: Vec<[f64; 2]>,
    /// The opponent's reach of each hand at the subgame's root in this iteration.
    pub follow: Vec<f64>,
}

impl Gadget {
    /// A gadget of `kind` for `seat` with these alternatives, `possible` marking the hands that
    /// can meet the other seat's range (both one entry per hand). Refused when they differ in
    /// length or no hand is possible.
    pub fn new(
        seat: u8,
        kind: GadgetKind,
        alternative: Vec<f64>,
        possible: Vec<bool>,
    ) -> Result<Gadget, String> {
        if possible.len() != alternative.len() {
            return Err("a gadget needs one alternative and one mark per hand".into());
        }
        if !possible.iter().any(|&p| p) {
            return Err("a gadget needs a hand that can meet the other seat's range".into());
        }
        let n = alternative.len();
        let mut g = Gadget {
            seat,
            kind,
            alternative,
            possible,
            regrets: vec![[0.0; 2]; n],
            follow: vec![0.0; n],
        };
        g.match_regrets();
        Ok(g)
    }

    /// Regret matching+ of the choices into `follow` (uniform where no regret is positive).
    pub fn match_regrets(&mut self) {
        match self.kind {
            GadgetKind::Resolve => {
                for (f, r) in self.follow.iter_mut().zip(&self.regrets) {
                    let sum = r[0] + r[1];
                    *f = if sum > 0.0 { r[1] / sum } else { 0.5 };
                }
            }
            GadgetKind::Maxmargin => {
                let total: f64 = self.regrets.iter().map(|r| r[1]).sum();
                let count = self.possible.iter().filter(|&&p| p).count() as f64;
                for ((f, r), &p) in self
                    .follow
                    .iter_mut()
                    .zip(&self.regrets)
                    .zip(&self.possible)
                {
                    *f = match (p, total > 0.0) {
                        (false, _) => 0.0,
                        (true, true) => r[1] / total,
                        (true, false) => 1.0 / count,
                    };
                }
            }
        }
    }

    /// Adds this iteration's regrets from the choosing seat's counterfactual values in the
    /// subgame (`values`, one per hand, against the re-solved seat's current strategy).
    pub fn update<T: Real>(&mut self, values: &[T]) {
        match self.kind {
            GadgetKind::Resolve => {
                for (h, r) in self.regrets.iter_mut().enumerate() {
                    let (alt, sub, f) = (self.alternative[h], values[h].to_f64(), self.follow[h]);
                    let v = f * sub + (1.0 - f) * alt;
                    r[0] = (r[0] + alt - v).max(0.0);
                    r[1] = (r[1] + sub - v).max(0.0);
                }
            }
            GadgetKind::Maxmargin => {
                // The gain of entering with each hand, and the mixture's.
                let gain = |h: usize| values[h].to_f64() - self.alternative[h];
                let v: f64 = (0..self.follow.len())
                    .filter(|&h| self.possible[h])
                    .map(|h| self.follow[h] * gain(h))
                    .sum();
                for h in 0..self.regrets.len() {
                    if self.possible[h] {
                        self.regrets[h][1] = (self.regrets[h][1] + gain(h) - v).max(0.0);
                    }
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Maxmargin's choice goes to the hand with the most to gain; an impossible hand is never
    /// chosen, however much it would gain.
    #[test]
    fn maxmargin_chooses_the_hand_gaining_most() {
        let mut g = Gadget::new(
            1,
            GadgetKind::Maxmargin,
            vec![0.0, 0.0, 0.0],
            vec![true, true, false],
        )
        .unwrap();
        assert_eq!(g.follow, vec![0.5, 0.5, 0.0]);
        for _ in 0..50 {
            g.update(&[1.0f64, 3.0, 9.0]);
            g.match_regrets();
        }
        assert_eq!(g.follow, vec![0.0, 1.0, 0.0]);
    }

    /// Resolve's hand terminates when its alternative beats the subgame and follows otherwise.
    #[test]
    fn resolve_follows_where_the_subgame_pays_more() {
        let mut g = Gadget::new(0, GadgetKind::Resolve, vec![2.0, -1.0], vec![true; 2]).unwrap();
        for _ in 0..20 {
            g.update(&[0.0f64, 0.0]);
            g.match_regrets();
        }
        assert_eq!(g.follow, vec![0.0, 1.0]);
    }

    /// Alternatives and marks of different lengths, or no possible hand, are refused.
    #[test]
    fn bad_gadgets_are_refused() {
        assert!(Gadget::new(0, GadgetKind::Resolve, vec![0.0; 2], vec![true]).is_err());
        assert!(Gadget::new(0, GadgetKind::Maxmargin, vec![0.0; 2], vec![false; 2]).is_err());
    }
}
