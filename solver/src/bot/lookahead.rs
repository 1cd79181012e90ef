//! LBR's lookahead (Lisý and Bowling 2017's LBR with a deeper local search): the value of each
//! of LBR's actions found by walking the rest of the current street's betting against the
//! opponent's range, the opponent playing its own policy with each holding and LBR choosing, at
//! each of its later decisions of the street, the action best against the whole range (it does
//! not see the opponent's cards, so one choice serves every holding). Only where the street's
//! betting ends is the rest of the hand assumed checked down, valued by LBR's equity against
//! each holding.
//!
//! Plain LBR ([`super::lbr`]) assumes the opponent only folds or calls a bet and that LBR
//! checks and calls after it; the walk lets the opponent raise as its policy says and lets LBR
//! answer, so it finds lines (checking to raise, betting to fold to a re-raise, re-raising for
//! value) that plain LBR cannot. On the last street the walk is the whole rest of the hand:
//! LBR's choice is then the exact best response to the range there.
//!
//! A value is LBR's chips at the end of the hand plus what it had put in at the walk's root, so
//! that folding at the root is worth 0, as in plain LBR.

use super::range::HiddenRange;
use super::Bet;
use abstraction::rules::{Action, Next, State};
use anyhow::ensure;

/// How far LBR looks ahead at each of its decisions.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum Lookahead {
    /// Plain LBR: each action valued as if the hand were checked down after it (a bet or raise
    /// counting the opponent's chance of folding to it).
    #[default]
    None,
    /// The rest of the current street's betting walked (see the module), the hand checked down
    /// only where the street's betting ends.
    Street,
}

impl std::str::FromStr for Lookahead {
    type Err = String;

    /// `none` or `street`.
    fn from_str(s: &str) -> Result<Lookahead, String> {
        match s {
            "none" => Ok(Lookahead::None),
            "street" => Ok(Lookahead::Street),
            _ => Err(format!("`{s}`: the lookahead is `none` or `street`")),
        }
    }
}

impl std::fmt::Display for Lookahead {
    fn fmt(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
        f.write_str(match self {
            Lookahead::None => "none",
            Lookahead::Street => "street",
        })
    }
}

/// The most decisions one street's walk goes deep: a round of limit betting closes after at
/// most a check or bring-in, the bet and raises of the cap, and a call, per seat.
const MAX_DEPTH: usize = 32;

/// One walk of the street from a decision of LBR's: the range it walks against and its scratch
/// (a weight vector and a block of policy rows per depth, sized once and reused).
pub(crate) struct Walk<'w, 'p> {
    hidden: &'w mut HiddenRange<'p>,
    /// LBR's seat.
    seat: u8,
    /// What LBR had put in at the root.
    root_committed: f64,
    /// The betting from the start of the hand to the node walked.
    bets: Vec<Bet>,
    /// Per depth: each holding's weight at the node (the range's weight times the opponent's
    /// probabilities of its actions since the root), then the opponent's rows there.
    weights: Vec<Vec<f64>>,
    rows: Vec<Vec<f64>>,
}

impl<'w, 'p> Walk<'w, 'p> {
    /// A walk for LBR at `seat` against `hidden` (whose holdings carry LBR's equity on this
    /// street), from its decision `root` after `bets`.
    pub(crate) fn new(
        hidden: &'w mut HiddenRange<'p>,
        seat: u8,
        root: &State,
        bets: &[Bet],
    ) -> Walk<'w, 'p> {
        let start: Vec<f64> = hidden.holdings().iter().map(|h| h.weight).collect();
        Walk {
            hidden,
            seat,
            root_committed: root.committed(seat) as f64,
            bets: bets.to_vec(),
            weights: vec![start],
            rows: Vec::new(),
        }
    }

    /// The value of each of `legal` (LBR's actions at the root `root`) into `values`, summed
    /// over the holdings by weight (divide by the total weight for an expectation); `None` for
    /// an action after which the opponent cannot answer (its abstract game lacks the line).
    pub(crate) fn action_values(
        &mut self,
        root: &State,
        legal: &[Action],
        values: &mut Vec<Option<f64>>,
    ) -> anyhow::Result<()> {
        values.clear();
        for &a in legal {
            values.push(self.after(root, a, 0)?);
        }
        Ok(())
    }

    /// The value of `a` taken at `st` (a node at `depth`, its weights in `weights[depth]`):
    /// the state it leads to, walked or valued as a leaf.
    fn after(&mut self, st: &State, a: Action, depth: usize) -> anyhow::Result<Option<f64>> {
        let mut child = st.clone();
        child.apply(a)?;
        self.bets.push((st.street(), a));
        let v = self.node(&child, depth);
        self.bets.pop();
        v
    }

    /// The value of the node `st` at `depth`: a leaf if the street's betting is over, else
    /// LBR's best action or the opponent's policy per holding.
    fn node(&mut self, st: &State, depth: usize) -> anyhow::Result<Option<f64>> {
        let actor = match st.next() {
            Next::Act { seat } => seat,
            _ => return Ok(Some(self.leaf(st, depth))),
        };
        ensure!(
            depth + 1 < MAX_DEPTH,
            "a street's betting deeper than {MAX_DEPTH} decisions"
        );
        let legal = st.legal_actions();
        if actor == self.seat {
            // One choice for every holding: LBR does not see the opponent's cards.
            let mut best: Option<f64> = None;
            for &a in &legal {
                if let Some(v) = self.after(st, a, depth)? {
                    best = Some(best.map_or(v, |b| b.max(v)));
                }
            }
            return Ok(best);
        }
        if self.weights.len() <= depth + 1 {
            self.weights.resize_with(depth + 2, Vec::new);
        }
        if self.rows.len() <= depth {
            self.rows.resize_with(depth + 1, Vec::new);
        }
        let mut rows = std::mem::take(&mut self.rows[depth]);
        if self
            .hidden
            .policy_rows(st, &self.bets, &legal, &mut rows)
            .is_err()
        {
            // The opponent cannot answer here (its abstract game lacks this line): the line
            // that led here is not one LBR may take.
            self.rows[depth] = rows;
            return Ok(None);
        }
        let width = legal.len();
        let mut total = 0.0;
        for (k, &a) in legal.iter().enumerate() {
            let (here, below) = self.weights.split_at_mut(depth + 1);
            let next = &mut below[0];
            next.clear();
            next.extend(
                here[depth]
                    .iter()
                    .enumerate()
                    .map(|(j, w)| w * rows[j * width + k]),
            );
            if next.iter().all(|&w| w == 0.0) {
                continue;
            }
            match self.after(st, a, depth + 1)? {
                Some(v) => total += v,
                None => {
                    self.rows[depth] = rows;
                    return Ok(None);
                }
            }
        }
        self.rows[depth] = rows;
        Ok(Some(total))
    }

    /// A node where the street's betting is over (or the hand): the opponent or LBR folded, or
    /// the hand is checked down from here with LBR's equity against each holding.
    fn leaf(&self, st: &State, depth: usize) -> f64 {
        let (seat, opp) = (self.seat, 1 - self.seat);
        let pot = st.pot() as f64;
        let kept = self.root_committed - st.committed(seat) as f64;
        let weights = &self.weights[depth];
        let total: f64 = weights.iter().sum();
        if st.folded(seat) {
            return total * kept;
        }
        if st.folded(opp) {
            return total * (pot + kept);
        }
        self.hidden
            .holdings()
            .iter()
            .zip(weights)
            .map(|(h, w)| w * (h.equity * pot + kept))
            .sum()
    }
}
