//! Counterfactual values at the leaves of the public tree, for a whole vector of private hands
//! at once: folds in O(n), showdowns in O(n) over hands presorted by strength (the O(n log n)
//! sort is done once, when the tree is built), both with card removal.
//!
//! With one private card per player, the only opposing hand that collides with hand `h` is `h`
//! itself (the same card), so the card-removal correction is one subtraction. A tree whose hands
//! are sets of up to three cards ([`Tree::holdings`]: a re-solved seventh street) corrects by
//! inclusion and exclusion instead: the opponent's reach on the hands sharing no card with `h` is
//! the total, less the reach on each of `h`'s cards, plus the reach on each pair of them, less
//! the reach on all three (the hand `h` itself, and its [`Tree::twins`] where one set is several
//! hands: a subgame re-solved from sixth street). Those sums are kept per card and per pair of
//! cards as the sweep goes, so a terminal still costs O(n).

use crate::kernel::Real;
use abstraction::cards::CardSet;
use abstraction::tree::{Node, NodeKind, Tree, NONE};

/// Writes into `out[h]` the counterfactual value for `player` holding hand `h` at terminal
/// `node`, when the opponent reaches it with `reach_opp` (chance already folded into the tree's
/// terminal values).
/// `ids` is [`HoldingIds::new`] of `tree` (empty for one-card hands).
pub fn terminal_values<T: Real>(
    tree: &Tree,
    ids: &HoldingIds,
    node: &Node,
    player: u8,
    reach_opp: &[T],
    out: &mut [T],
) {
    if !tree.holdings.is_empty() {
        return holding_values(tree, ids, node, player, reach_opp, out);
    }
    let value = T::from_f64(tree.values[node.value_index() as usize]);
    let total: T = reach_opp.iter().copied().sum();
    match node.kind {
        NodeKind::Fold => {
            let v = fold_value(value, player);
            for (o, &r) in out.iter_mut().zip(reach_opp) {
                *o = v * (total - r);
            }
        }
        NodeKind::Showdown => showdown(tree, node, player, value, total, reach_opp, out),
        NodeKind::Action | NodeKind::Chance => unreachable!("not a terminal"),
    }
}

/// The sorted sweep: for each hand, the opponent reach below and above its strength.
fn showdown<T: Real>(
    tree: &Tree,
    node: &Node,
    player: u8,
    stake: T,
    total: T,
    reach_opp: &[T],
    out: &mut [T],
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
    let mut below = T::ZERO;
    let mut i = 0;
    while i < n {
        let s = my_strength[my_order[i] as usize];
        while j < n && opp_strength[opp_order[j] as usize] < s {
            below += reach_opp[opp_order[j] as usize];
            j += 1;
        }
        let mut k = j;
        let mut tied = T::ZERO;
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
pub fn disjoint_reach<T: Real>(tree: &Tree, reach_opp: &[T], out: &mut [T]) {
    match tree.holdings.first().map_or(0, |h| h.len()) {
        2 => disjoint_reach_of::<T, 2>(tree, reach_opp, out),
        3 => disjoint_reach_of::<T, 3>(tree, reach_opp, out),
        _ => {
            let total: T = reach_opp.iter().copied().sum();
            for (o, &r) in out.iter_mut().zip(reach_opp) {
                *o = total - r;
            }
        }
    }
}

fn disjoint_reach_of<T: Real, const K: usize>(tree: &Tree, reach_opp: &[T], out: &mut [T]) {
    let hands = &tree.holdings;
    let mut sums = CardSums::new();
    sums.add_all::<K>(hands, reach_opp);
    for (i, (o, &h)) in out.iter_mut().zip(hands).enumerate() {
        *o = sums.disjoint::<K>(&row_of::<K>(h), same_set(&tree.twins, reach_opp, i));
    }
}

/// The reach on the hands holding exactly hand `h`'s cards: `h`'s own, plus its twins' where
/// one set is several hands ([`Tree::twins`]); what inclusion and exclusion strikes last.
#[inline(always)]
fn same_set<T: Real>(twins: &[[u32; 2]], reach: &[T], h: usize) -> T {
    match twins.get(h) {
        None => reach[h],
        Some(&[a, b]) => reach[h] + reach[a as usize] + reach[b as usize],
    }
}

/// The most cards a hand of [`Tree::holdings`] may hold: the inclusion and exclusion here stops
/// at three.
pub const MAX_HOLDING_CARDS: usize = 3;

/// Where each hand of a tree's [`Tree::holdings`] adds into and reads from [`CardSums`]: its
/// card ids (lowest first), then its pairs (`a * 64 + b`: 01, 02, 12), worked out once per tree
/// so that a terminal reads six small indices instead of decoding the hand's bits at every
/// visit (the solver's terminals visit every hand some 34 times an iteration).
pub struct HoldingIds {
    rows: Vec<[u16; 6]>,
    /// Where each card set is several hands ([`Tree::twins`]): the sets, which the terminals
    /// value once each.
    sets: Option<Sets>,
    /// The hands' showdown tables laid out for the sweep (none where the sets are swept).
    showdowns: Showdowns,
}

/// One seat's side of a showdown table, in the order of its hands' strength: what the sweep
/// reads hand after hand (the strength, the other seat's strength of the same cards, the
/// card-sum indices) laid out in that order rather than read through it, so that only the
/// reach and the values are gathered. The same reads in the same order: the same bits.
struct Side {
    /// The hands (or sets) by ascending strength.
    order: Vec<u32>,
    /// Their strength, in that order.
    strength: Vec<u32>,
    /// The other seat's strength of each, in that order.
    other: Vec<u32>,
    /// Their card-sum indices, in that order.
    rows: Vec<[u16; 6]>,
}

/// The showdown tables (`Board::showdown`) of `tree`'s showdowns, ascending, each once.
fn showdown_tables(tree: &Tree) -> Vec<u32> {
    let mut at: Vec<u32> = (tree.nodes.iter())
        .filter(|node| node.kind == NodeKind::Showdown)
        .map(|node| tree.boards[node.board as usize].showdown)
        .collect();
    at.sort_unstable();
    at.dedup();
    at
}

/// Bytes of a [`Side`] of `units` hands or sets: order, strength and the other seat's strength
/// (`u32` each), and the card-sum indices.
const SIDE_BYTES_PER_UNIT: usize = 3 * 4 + 12;

/// Both seats' [`Side`]s per showdown table of a tree (`Board::showdown`).
struct Showdowns {
    at: Vec<u32>,
    sides: Vec<[Side; 2]>,
}

impl Showdowns {
    /// No tables (one-card hands, or the sets' own).
    fn none() -> Showdowns {
        Showdowns {
            at: Vec::new(),
            sides: Vec::new(),
        }
    }

    /// The tables of `tree`'s showdowns for units (hands, or sets) of card-sum indices `rows`:
    /// `strength(at, seat)` each unit's strength at table `at` for `seat`, `order(at, seat,
    /// strength)` the units by ascending strength.
    fn new(
        tree: &Tree,
        rows: &[[u16; 6]],
        strength: impl Fn(u32, usize) -> Vec<u32>,
        order: impl Fn(u32, usize, &[u32]) -> Vec<u32>,
    ) -> Showdowns {
        let at = showdown_tables(tree);
        let sides = at
            .iter()
            .map(|&a| {
                let by_seat = [strength(a, 0), strength(a, 1)];
                [0, 1].map(|seat| {
                    let order = order(a, seat, &by_seat[seat]);
                    let pick = |v: &[u32]| order.iter().map(|&u| v[u as usize]).collect();
                    Side {
                        strength: pick(&by_seat[seat]),
                        other: pick(&by_seat[1 - seat]),
                        rows: order.iter().map(|&u| rows[u as usize]).collect(),
                        order,
                    }
                })
            })
            .collect();
        Showdowns { at, sides }
    }

    /// The sides of table `at`.
    fn of(&self, at: u32) -> &[Side; 2] {
        let i = self
            .at
            .binary_search(&at)
            .expect("a showdown table per showdown board");
        &self.sides[i]
    }
}

/// The card sets of a tree whose every set of cards is three hands (a subgame re-solved from
/// sixth street: a seat's seventh-street hand is its sixth-street pair and the card after, so
/// {a, b, c} is reached from the pairs ab, ac and bc). At a terminal a hand's value depends
/// only on its cards and on the opponent's reach summed per set (twins have one strength), so
/// the terminals sweep the sets, a third as many, and give each hand its set's value.
struct Sets {
    /// Per set: its three hands, the sets numbered in the order of their first hands (so that
    /// set `s`'s hands are `s` or later).
    hands: Vec<[u32; 3]>,
    /// Per set: its card-sum indices (as [`HoldingIds`] lays them out).
    rows: Vec<[u16; 6]>,
    /// The sets' showdown tables (their order by strength: by strength, then set).
    showdowns: Showdowns,
}

impl HoldingIds {
    /// The bytes [`HoldingIds::new`] allocates for `tree`, worked out without building it (a
    /// solver's memory estimate counts them): each hand's card-sum indices, and per showdown
    /// table both seats' [`Side`]s of the hands, or of the sets where the sets are swept
    /// (with the sets' hands and indices).
    pub fn bytes(tree: &Tree) -> usize {
        let n = tree.holdings.len();
        let tables = if n == 0 {
            0
        } else {
            showdown_tables(tree).len()
        };
        let sides = |units: usize| tables * 2 * units * SIDE_BYTES_PER_UNIT;
        let in_sets = !tree.twins.is_empty() && tree.twins.len() == n;
        n * 12
            + match in_sets {
                true => n / 3 * (12 + 12) + sides(n / 3),
                false => sides(n),
            }
    }

    /// The bytes this holds, as [`HoldingIds::bytes`] estimates them.
    #[cfg(test)]
    pub(crate) fn held_bytes(&self) -> usize {
        let side =
            |s: &Side| 4 * (s.order.len() + s.strength.len() + s.other.len()) + 12 * s.rows.len();
        let showdowns = |w: &Showdowns| w.sides.iter().flatten().map(side).sum::<usize>();
        12 * self.rows.len()
            + showdowns(&self.showdowns)
            + self.sets.as_ref().map_or(0, |x| {
                12 * x.hands.len() + 12 * x.rows.len() + showdowns(&x.showdowns)
            })
    }

    /// The indices of `tree`'s holdings (none for a tree of one-card hands).
    pub fn new(tree: &Tree) -> HoldingIds {
        // Two or three cards a hand (the subgame builder's); none in a tree of one-card hands.
        let row = match tree.holdings.first().map_or(0, |h| h.len()) {
            2 => row_of::<2>,
            _ => row_of::<3>,
        };
        let rows: Vec<[u16; 6]> = tree.holdings.iter().map(|&h| row(h)).collect();
        let sets = Sets::new(tree, &rows);
        let n = rows.len();
        let table = |at: u32, seat: usize, of: &[u32]| {
            let base = at as usize + seat * n;
            of[base..base + n].to_vec()
        };
        let showdowns = if sets.is_some() || n == 0 {
            Showdowns::none()
        } else {
            // The tree's own order (its ties as the tree has them: the same sums, the same bits).
            Showdowns::new(
                tree,
                &rows,
                |at, seat| table(at, seat, &tree.strength),
                |at, seat, _| table(at, seat, &tree.order),
            )
        };
        HoldingIds {
            rows,
            sets,
            showdowns,
        }
    }
}

impl Sets {
    /// The sets of `tree` (whose hands have card-sum indices `rows`), if its sets are three
    /// hands each.
    fn new(tree: &Tree, rows: &[[u16; 6]]) -> Option<Sets> {
        let twins = &tree.twins;
        if twins.is_empty() || twins.len() != tree.holdings.len() {
            return None;
        }
        let n = twins.len();
        let mut of = vec![NONE; n];
        let mut hands = Vec::with_capacity(n / 3);
        for h in 0..n {
            if of[h] == NONE {
                let [a, b] = twins[h];
                let set = hands.len() as u32;
                for x in [h, a as usize, b as usize] {
                    of[x] = set;
                }
                hands.push([h as u32, a, b]);
            }
        }
        let rows: Vec<[u16; 6]> = hands.iter().map(|t| rows[t[0] as usize]).collect();
        let strength = |at: u32, seat: usize| {
            let base = at as usize + seat * n;
            hands
                .iter()
                .map(|t| tree.strength[base + t[0] as usize])
                .collect()
        };
        let order = |_: u32, _: usize, strength: &[u32]| {
            let mut sorted: Vec<u32> = (0..strength.len() as u32).collect();
            sorted.sort_by_key(|&x| (strength[x as usize], x));
            sorted
        };
        let showdowns = Showdowns::new(tree, &rows, strength, order);
        Some(Sets {
            hands,
            rows,
            showdowns,
        })
    }

    /// The opponent's `reach` summed per set into `out[sets..2 × sets]`, returned with
    /// `out[..sets]`, where the sets' values go before [`Sets::scatter`] gives each hand its
    /// set's (a hand's row of values is the only memory a terminal writes).
    fn gather<'a, T: Real>(&self, reach: &[T], out: &'a mut [T]) -> (&'a mut [T], &'a [T]) {
        let m = self.hands.len();
        let (values, rest) = out.split_at_mut(m);
        let summed = &mut rest[..m];
        for (o, t) in summed.iter_mut().zip(&self.hands) {
            *o = reach[t[0] as usize] + reach[t[1] as usize] + reach[t[2] as usize];
        }
        (values, summed)
    }

    /// Each hand's value from its set's, `values[..sets]` in place: set `s`'s hands are `s`
    /// or later (sets are numbered by their first hands), so walking the sets from the last,
    /// each set's value is read before any hand's is written over it.
    fn scatter<T: Real>(&self, values: &mut [T]) {
        for (s, t) in self.hands.iter().enumerate().rev() {
            let v = values[s];
            for &h in t {
                values[h as usize] = v;
            }
        }
    }
}

/// The opponent's reach summed over its hands: in all, on each card and on each pair of cards.
/// Lives on the stack of a terminal (33 KB in `f64`), so that nothing is allocated while
/// solving. Card ids index it below 64 (a pair as `a * 64 + b`), so that no access needs a
/// bounds check.
struct CardSums<T> {
    all: T,
    one: [T; 64],
    two: [T; 64 * 64],
}

/// A hand's `K` card ids, lowest first (every hand of a tree's holdings has the same number).
#[inline(always)]
fn ids<const K: usize>(set: CardSet) -> [usize; K] {
    let mut out = [0; K];
    let mut bits = set.0;
    for o in out.iter_mut() {
        *o = bits.trailing_zeros() as usize & 63;
        bits &= bits.wrapping_sub(1);
    }
    out
}

impl<T: Real> CardSums<T> {
    fn new() -> CardSums<T> {
        CardSums {
            all: T::ZERO,
            one: [T::ZERO; 64],
            two: [T::ZERO; 64 * 64],
        }
    }

    /// Adds `reach` over `hands` (the hands of no reach skipped: deep in the tree most are).
    fn add_all<const K: usize>(&mut self, hands: &[CardSet], reach: &[T]) {
        for (&h, &r) in hands.iter().zip(reach) {
            if r != T::ZERO {
                self.add::<K>(&row_of::<K>(h), r);
            }
        }
    }

    /// [`CardSums::add_all`] with the hands' indices of [`HoldingIds`].
    fn add_rows<const K: usize>(&mut self, rows: &[[u16; 6]], reach: &[T]) {
        for (row, &r) in rows.iter().zip(reach) {
            if r != T::ZERO {
                self.add::<K>(row, r);
            }
        }
    }

    /// Adds `r` on the hand of indices `row` (as [`HoldingIds`] lays them out).
    #[inline(always)]
    fn add<const K: usize>(&mut self, row: &[u16; 6], r: T) {
        let one = |i: usize| row[i] as usize & 63;
        let two = |i: usize| row[i] as usize & 4095;
        self.all += r;
        self.one[one(0)] += r;
        self.two[two(3)] += r;
        if K == 3 {
            self.two[two(4)] += r;
        }
        self.one[one(1)] += r;
        if K == 3 {
            self.two[two(5)] += r;
            self.one[one(2)] += r;
        }
    }

    /// The reach summed over the hands sharing no card with the hand of indices `row`, where
    /// `same` is the reach counted in `self` of the hand holding exactly its cards (used for
    /// three cards only: with fewer, the last sum is already that hand's). The terms in the
    /// order of the cards, each card's pairs after it.
    #[inline(always)]
    fn disjoint<const K: usize>(&self, row: &[u16; 6], same: T) -> T {
        let one = |i: usize| self.one[row[i] as usize & 63];
        let two = |i: usize| self.two[row[i] as usize & 4095];
        let mut v = self.all;
        v -= one(0);
        v += two(3);
        if K == 3 {
            v += two(4);
        }
        v -= one(1);
        if K == 3 {
            v += two(5);
            v -= one(2);
            v -= same;
        }
        v
    }
}

/// The [`HoldingIds`] row of one hand of `K` cards, decoded from its bits.
#[inline(always)]
fn row_of<const K: usize>(set: CardSet) -> [u16; 6] {
    let c = ids::<K>(set);
    let c2 = if K == 3 { c[K - 1] } else { 0 };
    let (a, b) = (c[0] as u16, c[1] as u16);
    let c2 = c2 as u16;
    [a, b, c2, a << 6 | b, a << 6 | c2, b << 6 | c2]
}

/// [`terminal_values`] for hands of several cards (see the module documentation).
fn holding_values<T: Real>(
    tree: &Tree,
    ids: &HoldingIds,
    node: &Node,
    player: u8,
    reach_opp: &[T],
    out: &mut [T],
) {
    let value = T::from_f64(tree.values[node.value_index() as usize]);
    if let Some(sets) = &ids.sets {
        let (values, reach) = sets.gather(reach_opp, out);
        match node.kind {
            NodeKind::Fold => {
                fold_of::<T, 3>(&sets.rows, &[], fold_value(value, player), reach, values)
            }
            _ => showdown_of::<T, 3>(
                &set_hands(tree, sets, node),
                value,
                player,
                reach,
                values,
                None,
            ),
        }
        sets.scatter(out);
        return;
    }
    let (rows, twins, fold) = (
        &ids.rows[..reach_opp.len()],
        &tree.twins,
        fold_value(value, player),
    );
    let hands = || tree_hands(tree, ids, node);
    match (node.kind, tree.holdings.first().map_or(0, |h| h.len())) {
        (NodeKind::Fold, 2) => fold_of::<T, 2>(rows, twins, fold, reach_opp, out),
        (NodeKind::Fold, 3) => fold_of::<T, 3>(rows, twins, fold, reach_opp, out),
        (_, 2) => showdown_of::<T, 2>(&hands(), value, player, reach_opp, out, None),
        (_, 3) => showdown_of::<T, 3>(&hands(), value, player, reach_opp, out, None),
        (_, k) => unreachable!("holdings of {k} cards (the subgame builder allows 2 to 3)"),
    }
}

/// The hands a showdown sweeps, with what it reads of them: their card-sum indices, both
/// seats' sides of the showdown's table, and their twins.
struct Hands<'a> {
    rows: &'a [[u16; 6]],
    sides: &'a [Side; 2],
    twins: &'a [[u32; 2]],
}

/// The tree's own hands at showdown `node`.
fn tree_hands<'a>(tree: &'a Tree, ids: &'a HoldingIds, node: &Node) -> Hands<'a> {
    Hands {
        rows: &ids.rows,
        sides: ids.showdowns.of(tree.boards[node.board as usize].showdown),
        twins: &tree.twins,
    }
}

/// The card sets of `sets` at showdown `node` (no twins: each set is one entry).
fn set_hands<'a>(tree: &Tree, sets: &'a Sets, node: &Node) -> Hands<'a> {
    Hands {
        rows: &sets.rows,
        sides: sets.showdowns.of(tree.boards[node.board as usize].showdown),
        twins: &[],
    }
}

/// A fold for hands of `K` cards (`rows`: their [`HoldingIds`], `twins` as [`Tree::twins`]):
/// `v` per unit of disjoint opponent reach, in one pass over the hands after the sums.
fn fold_of<T: Real, const K: usize>(
    rows: &[[u16; 6]],
    twins: &[[u32; 2]],
    v: T,
    reach_opp: &[T],
    out: &mut [T],
) {
    let mut sums = CardSums::new();
    sums.add_rows::<K>(rows, reach_opp);
    for (i, (o, row)) in out.iter_mut().zip(rows).enumerate() {
        *o = v * sums.disjoint::<K>(row, same_set(twins, reach_opp, i));
    }
}

/// What `player` gets per unit of disjoint opponent reach at a fold of seat 0's net payoff
/// `value`.
fn fold_value<T: Real>(value: T, player: u8) -> T {
    if player == 0 {
        value
    } else {
        -value
    }
}

/// The values of a fold and a showdown (`ends`, in that order) reached with the same
/// opponent reach `reach_opp`, into `out_fold` and `out_showdown`: at `player`'s own decision
/// facing a bet, where folding and calling change only its own reach. With several-card hands
/// the fold's disjoint sums are the showdown's last pass's, so the fold costs no sums of its
/// own (the same values to rounding: the sums are added in order of strength rather than of
/// hands); with one-card hands, each as [`terminal_values`] gives it.
pub fn fold_and_showdown<T: Real>(
    tree: &Tree,
    ids: &HoldingIds,
    ends: [&Node; 2],
    player: u8,
    reach_opp: &[T],
    out_fold: &mut [T],
    out_showdown: &mut [T],
) {
    let [fold, showdown] = ends;
    let v = fold_value(
        T::from_f64(tree.values[fold.value_index() as usize]),
        player,
    );
    let stake = T::from_f64(tree.values[showdown.value_index() as usize]);
    if let Some(sets) = &ids.sets {
        let (values, reach) = sets.gather(reach_opp, out_showdown);
        let fold_out = Some((v, &mut out_fold[..values.len()]));
        let hands = set_hands(tree, sets, showdown);
        showdown_of::<T, 3>(&hands, stake, player, reach, values, fold_out);
        sets.scatter(out_showdown);
        sets.scatter(out_fold);
        return;
    }
    let hands = || tree_hands(tree, ids, showdown);
    let fold_out = Some((v, &mut *out_fold));
    match tree.holdings.first().map_or(0, |h| h.len()) {
        2 => showdown_of::<T, 2>(&hands(), stake, player, reach_opp, out_showdown, fold_out),
        3 => showdown_of::<T, 3>(&hands(), stake, player, reach_opp, out_showdown, fold_out),
        _ => {
            terminal_values(tree, ids, fold, player, reach_opp, out_fold);
            terminal_values(tree, ids, showdown, player, reach_opp, out_showdown);
        }
    }
}

/// A showdown of stake `value` over `hands` of `K` cards, and the fold beside it when `fold`
/// gives its value per unit of disjoint reach and its output.
fn showdown_of<T: Real, const K: usize>(
    hands: &Hands,
    value: T,
    player: u8,
    reach_opp: &[T],
    out: &mut [T],
    fold: Option<(T, &mut [T])>,
) {
    let n = reach_opp.len();
    let rows = &hands.rows[..n];
    let twins = hands.twins;
    let mut sums = CardSums::new();
    // Showdown: won − lost = below + (below or tied) − all, each over the disjoint hands. The
    // sweep adds every opponent hand once, so the sums after it are those of all of them.
    let (mine, theirs) = (
        &hands.sides[player as usize],
        &hands.sides[1 - player as usize],
    );
    let (my_strength, my_order) = (&mine.strength[..n], &mine.order[..n]);
    let (my_rows, my_other) = (&mine.rows[..n], &mine.other[..n]);
    let (opp_strength, opp_order, opp_rows) =
        (&theirs.strength[..n], &theirs.order[..n], &theirs.rows[..n]);
    let (mut i, mut j) = (0, 0);
    while i < n {
        let s = my_strength[i];
        let group = i;
        while i < n && my_strength[i] == s {
            i += 1;
        }
        // Twice over the hands of strength `s`: the opponent's hands below it, then those tied
        // (none tied: the sums are the same, so the first answer counts twice).
        for below in [true, false] {
            let from = j;
            while j < n {
                let so = opp_strength[j];
                if so > s || (below && so == s) {
                    break;
                }
                let r = reach_opp[opp_order[j] as usize];
                if r != T::ZERO {
                    sums.add::<K>(&opp_rows[j], r);
                }
                j += 1;
            }
            if !below && j == from {
                for &h in &my_order[group..i] {
                    out[h as usize] *= T::from_f64(2.0);
                }
                break;
            }
            for x in group..i {
                let h = my_order[x] as usize;
                let so = my_other[x];
                let counted = so < s || (!below && so == s);
                // A twin holds `h`'s cards, so it has `h`'s strength: counted alike.
                let same = if counted {
                    same_set(twins, reach_opp, h)
                } else {
                    T::ZERO
                };
                let d = sums.disjoint::<K>(&my_rows[x], same);
                if below {
                    out[h] = d;
                } else {
                    out[h] += d;
                }
            }
        }
    }
    while j < n {
        let r = reach_opp[opp_order[j] as usize];
        if r != T::ZERO {
            sums.add::<K>(&opp_rows[j], r);
        }
        j += 1;
    }
    match fold {
        None => {
            for (i, (o, row)) in out.iter_mut().zip(rows).enumerate() {
                *o = value * (*o - sums.disjoint::<K>(row, same_set(twins, reach_opp, i)));
            }
        }
        Some((v, fold)) => {
            let fold = &mut fold[..n];
            for (i, ((o, f), row)) in out.iter_mut().zip(fold).zip(rows).enumerate() {
                let d = sums.disjoint::<K>(row, same_set(twins, reach_opp, i));
                *o = value * (*o - d);
                *f = v * d;
            }
        }
    }
}
