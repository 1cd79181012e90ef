//! Counterfactual values at the leaves of the public tree, for a whole vector of private hands
//! at once: folds in O(n), showdowns in O(n) over hands presorted by strength (the O(n log n)
//! sort is done once, when the tree is built), both with card removal.
//!
//! With one private card per player, the only opposing hand that collides with hand `h` is `h`
//! itself (the same card), so the card-removal correction is one subtraction. A tree whose hands
//! are sets of up to three cards ([`Tree::holdings`]: a re-solved seventh street) corrects by
//! inclusion and exclusion instead: the opponent's reach on the hands sharing no card with `h` is
//! the total, less the reach on each of `h`'s cards, plus the reach on each pair of them, less
//! the reach on all three (the hand `h` itself). Those sums are kept per card and per pair of
//! cards as the sweep goes, so a terminal still costs O(n).

use abstraction::cards::CardSet;
use abstraction::tree::{Node, NodeKind, Tree};

/// Writes into `out[h]` the counterfactual value for `player` holding hand `h` at terminal
/// `node`, when the opponent reaches it with `reach_opp` (chance already folded into the tree's
/// terminal values).
pub fn terminal_values(tree: &Tree, node: &Node, player: u8, reach_opp: &[f64], out: &mut [f64]) {
    if !tree.holdings.is_empty() {
        return holding_values(tree, node, player, reach_opp, out);
    }
    let value = tree.values[node.value_index() as usize];
    let total: f64 = reach_opp.iter().sum();
    match node.kind {
        NodeKind::Fold => {
            let v = if player == 0 { value } else { -value };
            for (o, &r) in out.iter_mut().zip(reach_opp) {
                *o = v * (total - r);
            }
        }
        NodeKind::Showdown => showdown(tree, node, player, value, total, reach_opp, out),
        NodeKind::Action | NodeKind::Chance => unreachable!("not a terminal"),
    }
}

/// The sorted sweep: for each hand, the opponent reach below and above its strength.
fn showdown(
    tree: &Tree,
    node: &Node,
    player: u8,
    stake: f64,
    total: f64,
    reach_opp: &[f64],
    out: &mut [f64],
) {
    let n = reach_opp.len();
    let off = tree.boards[node.board as usize].showdown as usize;
    let (me, opp) = if player == 0 { (0, n) } else { (n, 0) };
    let my_strength = &tree.strength[off + me..off + me + n];
    let my_order = &tree.order[off + me..off + me + n];
    let opp_strength = &tree.strength[off + opp..off + opp + n];
    let opp_order = &tree.order[off + opp..off + opp + n];
    // `below`: opponent reach with strength < s; `tied`: with strength == s.
    let mut j = 0;
    let mut below = 0.0;
    let mut i = 0;
    while i < n {
        let s = my_strength[my_order[i] as usize];
        while j < n && opp_strength[opp_order[j] as usize] < s {
            below += reach_opp[opp_order[j] as usize];
            j += 1;
        }
        let mut k = j;
        let mut tied = 0.0;
        while k < n && opp_strength[opp_order[k] as usize] == s {
            tied += reach_opp[opp_order[k] as usize];
            k += 1;
        }
        let above = total - below - tied;
        while i < n && my_strength[my_order[i] as usize] == s {
            let h = my_order[i] as usize;
            // Card removal: the opponent cannot hold my card.
            let (mut win, mut lose) = (below, above);
            let so = opp_strength[h];
            if so < s {
                win -= reach_opp[h];
            } else if so > s {
                lose -= reach_opp[h];
            }
            out[h] = stake * (win - lose);
            i += 1;
        }
    }
}

/// Writes into `out[h]` the opponent's reach summed over its hands that share no card with hand
/// `h`: with reach a range, the weight of the pairs of hands that can be dealt together.
pub fn disjoint_reach(tree: &Tree, reach_opp: &[f64], out: &mut [f64]) {
    if tree.holdings.is_empty() {
        let total: f64 = reach_opp.iter().sum();
        for (o, &r) in out.iter_mut().zip(reach_opp) {
            *o = total - r;
        }
        return;
    }
    let sums = CardSums::of(&tree.holdings, reach_opp);
    for (h, o) in out.iter_mut().enumerate() {
        *o = sums.disjoint(&ids(tree.holdings[h]), reach_opp[h]);
    }
}

/// The most cards a hand of [`Tree::holdings`] may hold: the inclusion and exclusion here stops
/// at three.
pub const MAX_HOLDING_CARDS: usize = 3;

/// The opponent's reach summed over its hands: in all, on each card and on each pair of cards.
/// Lives on the stack of a terminal (22 KB), so that nothing is allocated while solving.
struct CardSums {
    all: f64,
    one: [f64; 52],
    two: [f64; 52 * 52],
}

/// A hand's card ids, how many (at most [`MAX_HOLDING_CARDS`]) in the last entry.
fn ids(set: CardSet) -> [usize; 4] {
    let mut out = [0; 4];
    let mut bits = set.0;
    let mut k = 0;
    while bits != 0 && k < MAX_HOLDING_CARDS {
        out[k] = bits.trailing_zeros() as usize;
        bits &= bits - 1;
        k += 1;
    }
    out[3] = k;
    out
}

impl CardSums {
    /// The sums of `reach` over `hands`.
    fn of(hands: &[CardSet], reach: &[f64]) -> CardSums {
        let mut sums = CardSums {
            all: 0.0,
            one: [0.0; 52],
            two: [0.0; 52 * 52],
        };
        for (h, &r) in reach.iter().enumerate() {
            if r != 0.0 {
                sums.add(&ids(hands[h]), r);
            }
        }
        sums
    }

    fn clear(&mut self) {
        self.all = 0.0;
        self.one.fill(0.0);
        self.two.fill(0.0);
    }

    fn add(&mut self, c: &[usize; 4], r: f64) {
        let k = c[3];
        self.all += r;
        for i in 0..k {
            self.one[c[i]] += r;
            for j in i + 1..k {
                self.two[c[i] * 52 + c[j]] += r;
            }
        }
    }

    /// The reach summed over the hands sharing no card with the hand `c`, where `same` is the
    /// reach counted in `self` of the hand holding exactly `c`'s cards (used for three cards
    /// only: with fewer, the last sum is already that hand's).
    fn disjoint(&self, c: &[usize; 4], same: f64) -> f64 {
        let k = c[3];
        let mut v = self.all;
        for i in 0..k {
            v -= self.one[c[i]];
            for j in i + 1..k {
                v += self.two[c[i] * 52 + c[j]];
            }
        }
        if k == 3 {
            v -= same;
        }
        v
    }
}

/// [`terminal_values`] for hands of several cards (see the module documentation).
fn holding_values(tree: &Tree, node: &Node, player: u8, reach_opp: &[f64], out: &mut [f64]) {
    let value = tree.values[node.value_index() as usize];
    let hands = &tree.holdings;
    let mut sums = CardSums::of(hands, reach_opp);
    if node.kind == NodeKind::Fold {
        let v = if player == 0 { value } else { -value };
        for (h, o) in out.iter_mut().enumerate() {
            *o = v * sums.disjoint(&ids(hands[h]), reach_opp[h]);
        }
        return;
    }
    let n = reach_opp.len();
    // Showdown: won − lost = below + (below or tied) − all, each over the disjoint hands.
    for (h, o) in out.iter_mut().enumerate() {
        *o = -sums.disjoint(&ids(hands[h]), reach_opp[h]);
    }
    let off = tree.boards[node.board as usize].showdown as usize;
    let (me, opp) = if player == 0 { (0, n) } else { (n, 0) };
    let my_strength = &tree.strength[off + me..off + me + n];
    let my_order = &tree.order[off + me..off + me + n];
    let opp_strength = &tree.strength[off + opp..off + opp + n];
    let opp_order = &tree.order[off + opp..off + opp + n];
    sums.clear();
    let (mut i, mut j) = (0, 0);
    while i < n {
        let s = my_strength[my_order[i] as usize];
        let group = i;
        while i < n && my_strength[my_order[i] as usize] == s {
            i += 1;
        }
        // Twice over the hands of strength `s`: the opponent's hands below it, then those tied.
        for below in [true, false] {
            while j < n {
                let o = opp_order[j] as usize;
                let so = opp_strength[o];
                if so > s || (below && so == s) {
                    break;
                }
                sums.add(&ids(hands[o]), reach_opp[o]);
                j += 1;
            }
            for &h in &my_order[group..i] {
                let h = h as usize;
                let so = opp_strength[h];
                let counted = so < s || (!below && so == s);
                let same = if counted { reach_opp[h] } else { 0.0 };
                out[h] += sums.disjoint(&ids(hands[h]), same);
            }
        }
        for &h in &my_order[group..i] {
            out[h as usize] *= value;
        }
    }
}
