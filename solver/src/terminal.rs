//! Counterfactual values at the leaves of the public tree, for a whole vector of private hands
//! at once: folds in O(n), showdowns in O(n) over hands presorted by strength (the O(n log n)
//! sort is done once, when the tree is built), both with card removal.
//!
//! With one private card per player, the only opposing hand that collides with hand `h` is `h`
//! itself (the same card), so the card-removal correction is one subtraction.

use abstraction::tree::{Node, NodeKind, Tree};

/// Writes into `out[h]` the counterfactual value for `player` holding hand `h` at terminal
/// `node`, when the opponent reaches it with `reach_opp` (chance already folded into the tree's
/// terminal values).
pub fn terminal_values(tree: &Tree, node: &Node, player: u8, reach_opp: &[f64], out: &mut [f64]) {
    let value = tree.values[node.slot as usize];
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
