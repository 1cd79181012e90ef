//! A rule's rows named by hand class (`classes = ["buried pair T-A", ...]`): the classes `stud
//! query` prints beside each bucket ([`crate::describe::Classes`]), turned into the buckets a
//! rule fixes.
//!
//! A bucket is one row: it plays one strategy for every holding the card abstraction puts in
//! it, and it holds different classes on different boards. So a bucket is said to be of the
//! classes named when **more than half** of its holdings are, counted over the street's fixed
//! sample of deals that `stud query FILE STREET` describes the buckets with
//! ([`crate::describe::sampled`]: 4,096 views, a fixed seed). Why the majority, summed over the
//! classes named: a lock fixes rows, and fixing a row whose holdings are mostly of the classes
//! named plays the lock for most of the holdings it names and for few others; "every view of
//! the bucket" would lock almost nothing in a small abstraction (its buckets mix classes), and
//! the plurality of a single class would leave out a bucket that is 30% buried and 30% split
//! pairs when the rule names every pair. A bucket that no sampled deal reaches is of no class
//! and never fixed by one. The same sample, so the same buckets, every time.

use crate::describe::{self, Classes};
use abstraction::bucketing::Bucketing;
use anyhow::{bail, Result};
use std::cell::RefCell;
use std::collections::BTreeMap;

/// The share of a bucket's sampled holdings that must be of the classes named: more than half.
pub const MAJORITY: f64 = 0.5;

/// The buckets a rule's classes name, street by street and bucketing by bucketing, each
/// computed once (a street's sample takes about 0.3 s).
pub(crate) struct ClassRows<'a> {
    names: &'a [String],
    /// (street, key of the bucketing) → the buckets of the classes named.
    found: RefCell<BTreeMap<(usize, usize), Vec<u32>>>,
}

impl<'a> ClassRows<'a> {
    /// The rows of `names` (a rule's `classes`, not empty).
    pub fn new(names: &'a [String]) -> ClassRows<'a> {
        ClassRows {
            names,
            found: RefCell::new(BTreeMap::new()),
        }
    }

    /// Refuses a class that names no class on any of `streets` of `b`, listing those there
    /// are (street by street).
    pub fn check(
        &self,
        b: &Bucketing,
        def_street: impl Fn(usize) -> String,
        streets: &[usize],
    ) -> Result<()> {
        for name in self.names {
            let known = streets
                .iter()
                .any(|&s| index_of(&Classes::of(b, s), name).is_some());
            if !known {
                let lists: Vec<String> = streets
                    .iter()
                    .map(|&s| {
                        format!(
                            "on {}: {}",
                            def_street(s),
                            Classes::of(b, s).names.join(", ")
                        )
                    })
                    .collect();
                bail!(
                    "`classes`: {name:?} is not a hand class here; the classes {}",
                    lists.join("; ")
                );
            }
        }
        Ok(())
    }

    /// The buckets of `street` in bucketing `b` (told apart by `key`) that are of the classes
    /// named: more than half of their sampled holdings ([`MAJORITY`]). A class that is not
    /// this street's is read past ([`ClassRows::check`] refused one that is no street's).
    pub fn buckets(&self, b: &Bucketing, key: usize, street: usize) -> Result<Vec<u32>> {
        if let Some(found) = self.found.borrow().get(&(street, key)) {
            return Ok(found.clone());
        }
        let found = of_classes(b, street, self.names)?;
        self.found.borrow_mut().insert((street, key), found.clone());
        Ok(found)
    }
}

/// The index of class `name` (any case) among `classes`' names.
fn index_of(classes: &Classes, name: &str) -> Option<usize> {
    classes
        .names
        .iter()
        .position(|n| n.eq_ignore_ascii_case(name.trim()))
}

/// The buckets of `street` more than half of whose sampled holdings are of the classes `names`.
pub fn of_classes(b: &Bucketing, street: usize, names: &[String]) -> Result<Vec<u32>> {
    let classes = Classes::of(b, street);
    let wanted: Vec<&str> = names
        .iter()
        .filter_map(|n| index_of(&classes, n).map(|i| classes.names[i].as_str()))
        .collect();
    if wanted.is_empty() {
        return Ok(Vec::new());
    }
    let described = describe::sampled(b, street)?;
    Ok((0..described.len() as u32)
        .filter(|&bucket| {
            let d = &described[bucket as usize];
            let share: f64 = (d.classes.iter())
                .filter(|s| wanted.contains(&s.class.as_str()))
                .map(|s| s.share)
                .sum();
            d.holdings > 0 && share > MAJORITY
        })
        .collect())
}
