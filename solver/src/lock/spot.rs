//! A rule's spot on a real game at a table of three or more: the spot notation of `stud query`
//! for a multiway file (the up cards as they are dealt, seat by seat on each street, p1's
//! first; then the betting) replayed on the rules engine by `stud query`'s own replay
//! ([`crate::spot::replay`]), down cards unknown, to the decision it ends at. The multiway
//! sampled solver's lock finds that decision in its betting abstraction
//! (`multiway::sampled::lock`), the exact multiway solver's lock every information set of its
//! actor there (`multiway::lock`). A seat prefix (`p3 cc`, `p2 Kh`) must name the seat whose
//! action or up card follows, as `stud query` reads it.

use crate::spot::Step;
use abstraction::rules::state::Action;
use abstraction::rules::GameDef;
use abstraction::rules::State;
use anyhow::{bail, Context, Result};

/// Where a rule's spot ends: the state at its decision and the actions of its street so far.
pub(crate) struct AtSpot {
    /// The state, a seat to act.
    pub state: State,
    /// The current street's actions, in order.
    pub bets: Vec<Action>,
}

/// Replays `steps` on the rules engine of `def` until they end at a decision. Refuses a seat
/// prefix past the game's seats, and what `stud query` refuses of a spot; and, unlike
/// `stud query` (whose empty spot asks for every door card at once), a spot that gives no up
/// card where the game deals one: a rule fixes one decision.
pub(crate) fn replay(def: &GameDef, steps: &[Step]) -> Result<AtSpot> {
    super::check_prefixes(def, steps)?;
    let at = crate::spot::replay(def, steps).context("`spot`")?;
    if at.state.to_act().is_none() {
        bail!(
            "`spot`: it gives no up card: a spot at a table gives the up cards as they are \
             dealt, p1's first (`3c 8d Kh pb` for three seats)"
        );
    }
    let street = at.state.street();
    let bets = at.bets.iter().filter(|b| b.0 == street).map(|b| b.1);
    Ok(AtSpot {
        bets: bets.collect(),
        state: at.state,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::lock::parse_spot;

    fn at(spot: &str) -> Result<AtSpot> {
        let def = GameDef::preset("7stud-3p").unwrap();
        replay(&def, &parse_spot(spot).unwrap())
    }

    #[test]
    fn a_rule_s_spot_ends_at_a_decision_with_its_street_s_betting() {
        let a = at("3c 8d Kh pb cc").unwrap();
        assert_eq!(a.state.to_act(), Some(2));
        assert_eq!(a.bets, vec![Action::BringIn, Action::CheckCall]);
        // Where `stud query` reads the empty spot as every door card at once, a rule is refused.
        let e = format!("{:#}", at("").err().unwrap());
        assert!(e.contains("`spot`: it gives no up card"), "{e}");
        let e = format!("{:#}", at("3c 8d").err().unwrap());
        assert!(
            e.starts_with("`spot`: the spot stops before p3's up card"),
            "{e}"
        );
        let e = format!("{:#}", at("3c 8d Kh p4 pb").err().unwrap());
        assert!(e.contains("p4 is no seat of this game"), "{e}");
    }
}
