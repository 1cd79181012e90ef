//! Side pots and the showdown split.
//!
//! The chips each seat put in are cut into layers at every distinct contribution: each layer is a
//! pot that the live seats who reached it contest. A pot goes to its best hand, split equally on
//! ties, the odd chips to the winner nearest the dealer's left (seat 0 first). In hi-lo
//! each pot is halved (the odd chip to the high half), each half split again on ties; a pot with
//! no qualifying low goes whole to the high.

/// The most seats a table has (five-card stud seats ten).
pub const MAX_SEATS: usize = 10;

/// One pot: its chips and the seats that contest it (bit `i` = seat `i`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Pot {
    /// The chips in the pot.
    pub amount: u64,
    /// The live seats eligible to win it.
    pub eligible: u16,
}

/// Cuts the contributions into the main pot and the side pots, lowest layer first.
///
/// `committed[i]` is everything seat `i` put in this hand; `live` marks the seats not folded.
/// Chips of folded seats stay in the pots they reached. A layer nobody live reached (only folded
/// seats put in that much) joins the layer below it, so no chip is ever lost.
pub fn pots(committed: &[u64], live: u16) -> Vec<Pot> {
    let mut levels: Vec<u64> = committed.iter().copied().filter(|&c| c > 0).collect();
    levels.sort_unstable();
    levels.dedup();
    let mut out: Vec<Pot> = Vec::with_capacity(levels.len());
    let mut prev = 0;
    for &level in &levels {
        let mut amount = 0;
        let mut eligible = 0u16;
        for (i, &c) in committed.iter().enumerate() {
            amount += c.min(level) - c.min(prev);
            if c >= level && live & (1 << i) != 0 {
                eligible |= 1 << i;
            }
        }
        prev = level;
        match out.last_mut() {
            Some(last) if eligible == 0 || eligible == last.eligible => last.amount += amount,
            // No live seat put anything in (possible only without antes): all live seats share.
            None if eligible == 0 => out.push(Pot {
                amount,
                eligible: live,
            }),
            _ => out.push(Pot { amount, eligible }),
        }
    }
    out
}

/// Splits `amount` among the seats in `winners` (a nonempty mask): equal shares, the chips left
/// over (fewer than the winners) all to the winner nearest the dealer's left, as PokerKit does.
fn share(amount: u64, winners: u16, won: &mut [u64]) {
    let n = winners.count_ones() as u64;
    let first = winners.trailing_zeros() as usize;
    for (i, w) in won.iter_mut().enumerate() {
        if winners & (1 << i) != 0 {
            *w += amount / n;
        }
    }
    won[first] += amount % n;
}

/// The seats among `eligible` holding the best value of `key` (higher is better), as a mask;
/// 0 when no eligible seat has a value.
fn best<K: Ord>(eligible: u16, key: &[Option<K>]) -> u16 {
    let mut top: Option<&K> = None;
    let mut mask = 0u16;
    for (i, k) in key.iter().enumerate() {
        let Some(k) = k else { continue };
        if eligible & (1 << i) == 0 {
            continue;
        }
        match top {
            Some(t) if k < t => {}
            Some(t) if k == t => mask |= 1 << i,
            _ => {
                top = Some(k);
                mask = 1 << i;
            }
        }
    }
    mask
}

/// What each seat wins at showdown. `high[i]` is seat `i`'s hand for the high (or the only) half,
/// `None` for a seat that does not contest (folded); higher wins. `low[i]` is its qualifying low
/// in a split-pot game (higher is the better low), `None` when it has none or the game has no low
/// half. Returns the chips won per seat; they sum to the chips committed.
pub fn award<H: Ord, L: Ord>(committed: &[u64], high: &[Option<H>], low: &[Option<L>]) -> Vec<u64> {
    let live = high
        .iter()
        .enumerate()
        .filter(|(_, h)| h.is_some())
        .fold(0u16, |m, (i, _)| m | 1 << i);
    let mut won = vec![0u64; committed.len()];
    for pot in pots(committed, live) {
        let hi = best(pot.eligible, high);
        let lo = best(pot.eligible, low);
        if lo == 0 {
            share(pot.amount, hi, &mut won);
        } else {
            let low_half = pot.amount / 2;
            share(pot.amount - low_half, hi, &mut won);
            share(low_half, lo, &mut won);
        }
    }
    won
}

#[cfg(test)]
mod tests {
    use super::*;

    const NO_LOW: [Option<u8>; 0] = [];

    #[test]
    fn side_pots_layer_by_contribution() {
        // Seat 0 all in for 10, seat 1 for 30, seats 2 and 3 put in 50; seat 3 folded.
        let p = pots(&[10, 30, 50, 50], 0b0111);
        assert_eq!(
            p,
            vec![
                Pot {
                    amount: 40,
                    eligible: 0b0111
                },
                Pot {
                    amount: 60,
                    eligible: 0b0110
                },
                Pot {
                    amount: 40,
                    eligible: 0b0100
                },
            ]
        );
    }

    #[test]
    fn a_layer_only_folded_seats_reached_joins_the_one_below() {
        // Seat 1 folded after putting in more than the all-in seat 0 and the caller seat 2.
        let p = pots(&[10, 30, 20], 0b101);
        assert_eq!(p.iter().map(|p| p.amount).sum::<u64>(), 60);
        assert_eq!(p.last().unwrap().eligible, 0b100);
    }

    #[test]
    fn chips_only_folded_seats_put_in_go_to_the_live_seats() {
        let p = pots(&[2, 0, 0], 0b110);
        assert_eq!(
            p,
            vec![Pot {
                amount: 2,
                eligible: 0b110
            }]
        );
    }

    #[test]
    fn best_hand_wins_each_pot_it_contests() {
        // Seat 0 (best hand) is all in for 10: wins the main pot only; seat 2 beats seat 1.
        let won = award(&[10, 30, 30], &[Some(9), Some(1), Some(5)], &NO_LOW);
        assert_eq!(won, vec![30, 0, 40]);
    }

    #[test]
    fn split_pot_and_odd_chip_to_first_seat_left_of_dealer() {
        // 7 chips split two ways: the odd chip to seat 1, the winner nearest the dealer's left.
        let won = award(&[2, 3, 2], &[None, Some(4), Some(4)], &NO_LOW);
        assert_eq!(won, vec![0, 4, 3]);
    }

    #[test]
    fn three_way_split_gives_both_odd_chips_to_the_first_winner() {
        // 8 chips (seat 3 folded) split three ways: 2 each, the 2 left over to seat 0.
        let won = award(&[2, 2, 2, 2], &[Some(1), Some(1), Some(1), None], &NO_LOW);
        assert_eq!(won, vec![4, 2, 2, 0]);
    }

    #[test]
    fn hi_lo_quartering_and_odd_chip_to_high() {
        // 3 x 7 = 21 chips: high half 11 to seat 0, low half 10 split by seats 0 and 1.
        let won = award(
            &[7, 7, 7],
            &[Some(9), Some(1), Some(2)],
            &[Some(3), Some(3), None],
        );
        assert_eq!(won, vec![16, 5, 0]);
    }

    #[test]
    fn no_qualifying_low_high_scoops() {
        let won = award(&[5, 5], &[Some(1), Some(2)], &[None::<u8>, None]);
        assert_eq!(won, vec![0, 10]);
    }
}
