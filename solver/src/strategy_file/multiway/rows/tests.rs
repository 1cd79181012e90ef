use super::*;
use proptest::prelude::*;

/// A normalized row of 2 to [`MAX_ACTIONS`] probabilities from raw weights, some of them 0 or
/// tiny (as a solved row's rarely played actions are).
fn normalized(weights: &[f64]) -> Vec<f64> {
    let sum: f64 = weights.iter().sum();
    if sum <= 0.0 {
        return vec![1.0 / weights.len() as f64; weights.len()];
    }
    weights.iter().map(|w| w / sum).collect()
}

fn weight() -> impl Strategy<Value = f64> {
    prop_oneof![Just(0.0), 0.0..1e-3f64, 0.0..1.0f64]
}

/// Whether some rounding of each `14 p` down or up that sums to 14 leaves the most likely
/// action (the first of equals) strictly above every other: by brute force over the subsets
/// rounded up.
fn strict_top_possible(row: &[f64]) -> bool {
    let k = row.len();
    let x: Vec<f64> = row.iter().map(|p| p * 14.0).collect();
    let top = (0..k).fold(0, |t, a| if row[a] > row[t] { a } else { t });
    (0u32..1 << k).any(|mask| {
        let q: Vec<i32> = (0..k)
            .map(|a| {
                let up = mask >> a & 1 == 1;
                // Only a fractional value rounds up (an integer is its own ceiling).
                if up && x[a].fract() == 0.0 {
                    -100
                } else {
                    x[a].floor() as i32 + up as i32
                }
            })
            .collect();
        q.iter().all(|&v| v >= 0)
            && q.iter().sum::<i32>() == 14
            && (0..k).all(|a| a == top || q[a] < q[top])
    })
}

proptest! {
    /// Fourteenths sum to 14 exactly, each `14 p` rounded down or up (so within 1/14), the
    /// most likely action never below another, and strictly above every other wherever a
    /// rounding down or up that sums to 14 can have it so (brute force).
    #[test]
    fn fourteenths_sum_exactly_round_each_way_and_keep_the_most_likely(
        weights in prop::collection::vec(weight(), 2..=MAX_ACTIONS)
    ) {
        let row = normalized(&weights);
        let k = row.len();
        let mut q = vec![0u8; k];
        fourteenths(&row, &mut q);
        prop_assert_eq!(q.iter().map(|&v| v as u32).sum::<u32>(), 14);
        for (a, (&v, &p)) in q.iter().zip(&row).enumerate() {
            let x = p * 14.0;
            // Floating point: a value a hair under an integer may floor one lower.
            prop_assert!(v as f64 >= x.floor() - 1e-9 || (x - x.round()).abs() < 1e-9, "{a}");
            prop_assert!((v as f64 - x).abs() < 1.0 + 1e-9, "{a}: {v}/14 against {p}");
        }
        let top = (0..k).fold(0, |t, a| if row[a] > row[t] { a } else { t });
        prop_assert!(q.iter().all(|&v| v <= q[top]), "{:?} of {:?}", q, row);
        let near_integer = row.iter().any(|p| {
            let x = p * 14.0;
            (x - x.round()).abs() < 1e-9 && x.fract() != 0.0
        });
        if strict_top_possible(&row) && !near_integer {
            let strict = (0..k).all(|a| a == top || q[a] < q[top]);
            prop_assert!(strict, "{:?} of {:?}", q, row);
        }
    }

    /// A row written at 4 bits and read back is its fifteenths, at any value offset (low or
    /// high nibble first), and leaves its neighbours' nibbles alone.
    #[test]
    fn a_four_bit_row_reads_back_as_written(
        weights in prop::collection::vec(weight(), 2..=MAX_ACTIONS),
        at in 0usize..5,
    ) {
        let row = normalized(&weights);
        let k = row.len();
        let values = at + k - 1 + 3;
        let format = RowFormat::Nibble;
        let mut section = format.empty_section(values);
        // Neighbours of 14 (certain first actions) before and after the row.
        let mut full = vec![0.0; 2];
        full[0] = 1.0;
        for j in (0..at).chain(at + k - 1..values) {
            format.encode_row(&full, &mut section, j);
        }
        format.encode_row(&row, &mut section, at);
        let mut out = vec![0.0; k];
        prop_assert!(format.decode_row(&section, at, &mut out).is_some());
        let mut q = vec![0u8; k];
        fourteenths(&row, &mut q);
        let uniform = row.iter().all(|&p| p == row[0]);
        for (&o, &v) in out.iter().zip(&q) {
            prop_assert_eq!(o, if uniform { 1.0 / k as f64 } else { v as f64 / 14.0 });
        }
        prop_assert!((out.iter().sum::<f64>() - 1.0).abs() < 1e-12);
        let mut one = [0.0; 2];
        for j in (0..at).chain(at + k - 1..values) {
            prop_assert!(format.decode_row(&section, j, &mut one).is_some());
            prop_assert_eq!(one, [1.0, 0.0]);
        }
        prop_assert!(format.holds(&section, values));
        // Round trip is the same reading.
        let mut again = row.clone();
        format.round_trip(&mut again);
        prop_assert_eq!(again, out);
    }

    /// At 8 bits a row reads back as the heads-up files' `u8` rows: within 1/255 a probability.
    #[test]
    fn an_eight_bit_row_reads_back_within_a_255th(
        weights in prop::collection::vec(weight(), 2..=MAX_ACTIONS),
    ) {
        let row = normalized(&weights);
        let mut again = row.clone();
        RowFormat::Byte.round_trip(&mut again);
        for (&a, &p) in again.iter().zip(&row) {
            prop_assert!((a - p).abs() <= 1.0 / 255.0 + 1e-12);
        }
        prop_assert!((again.iter().sum::<f64>() - 1.0).abs() < 1e-12);
    }
}

#[test]
fn certain_and_uniform_rows_are_exact_where_fourteenths_can_be() {
    let mut q3 = [0u8; 3];
    fourteenths(&[0.0, 1.0, 0.0], &mut q3);
    assert_eq!(q3, [0, 14, 0]);
    // Thirds cannot be fourteenths (the file flags a uniform row instead: below).
    fourteenths(&[1.0 / 3.0; 3], &mut q3);
    assert_eq!(q3, [5, 5, 4]);
    // Two actions at a half: 7 each, exactly.
    let mut q = [0u8; 2];
    fourteenths(&[0.5, 0.5], &mut q);
    assert_eq!(q, [7, 7]);
    // Largest remainder would tie the most likely action (7.05) with the second (6.75 up to
    // 7); the unit goes to the next largest remainder instead (0.2 up to 1).
    fourteenths(&[6.75 / 14.0, 7.05 / 14.0, 0.2 / 14.0], &mut q3);
    assert_eq!(q3, [6, 7, 1]);
    // No tie in sight: plain largest remainder (3.92 and 8.68 up, 1.4 down).
    fourteenths(&[0.1, 0.62, 0.28], &mut q3);
    assert_eq!(q3, [1, 9, 4]);
    // A tiny probability rounds away; one past half a fourteenth is kept.
    fourteenths(&[0.01, 0.99], &mut q);
    assert_eq!(q, [0, 14]);
    fourteenths(&[0.04, 0.96], &mut q);
    assert_eq!(q, [1, 13]);
    fourteenths(&[0.05, 0.3, 0.65], &mut q3);
    assert_eq!(q3, [1, 4, 9]);
    // A row a rounding error past 1 still sums to 14.
    fourteenths(&[1.0 + 1e-15, 0.0], &mut q);
    assert_eq!(q, [14, 0]);
    // Uniform rows of any width read back exactly uniform, at either width: pure play shares
    // them between their actions (at 8 bits two actions were stored 128 and 127, and a pure
    // player folded every row no traversal reached where fold or call were the choices).
    for format in [RowFormat::Nibble, RowFormat::Byte] {
        for k in 2..=MAX_ACTIONS {
            let mut row = vec![1.0 / k as f64; k];
            let want = row.clone();
            format.round_trip(&mut row);
            assert_eq!(row, want, "{format:?} {k}");
            crate::purify::Purification::Pure.apply(&mut row);
            assert!(row.iter().all(|&p| p == row[0]), "{format:?} {k} pure");
        }
    }
    // A row one 255th off uniform is not read as uniform.
    let mut near = [129.0 / 255.0, 126.0 / 255.0];
    RowFormat::Byte.round_trip(&mut near);
    assert_eq!(near, [129.0 / 255.0, 126.0 / 255.0]);
}

#[test]
fn a_damaged_four_bit_row_or_section_is_refused() {
    let format = RowFormat::Nibble;
    let mut section = format.empty_section(3);
    assert_eq!(section.len(), 8 + 2);
    // Two stored values summing past 14: 9 + 9.
    section[8] = 0x99;
    let mut out = [0.0; 3];
    assert!(format.decode_row(&section, 0, &mut out).is_none());
    // A row past the section's end.
    assert!(format.decode_row(&section, 3, &mut out).is_none());
    // The padding nibble of an odd count must be 0; the tag must be there.
    assert!(format.holds(&section, 3));
    section[9] = 0x10;
    assert!(!format.holds(&section, 3));
    section[9] = 0;
    section[0] = b'X';
    assert!(!format.holds(&section, 3));
    // A length that is not the count's.
    assert!(!RowFormat::Nibble.holds(&format.empty_section(5), 3));
    assert!(!RowFormat::Byte.holds(&[0u8; 4], 3));
}

#[test]
fn the_formats_are_named_as_the_flags_spell_them() {
    assert_eq!(RowFormat::parse("4bit"), Some(RowFormat::Nibble));
    assert_eq!(RowFormat::parse("8bit"), Some(RowFormat::Byte));
    assert_eq!(RowFormat::default(), RowFormat::Byte);
    assert!(RowFormat::parse_or_list("2bit")
        .unwrap_err()
        .contains("4bit"));
}
