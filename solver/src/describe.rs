//! What a bucket of a real game's card abstraction holds, in a stud player's words: each
//! holding's hand class ("pair of aces or kings", "three to a flush", "four to a 7", "two pair,
//! low draw"), and a bucket described by the classes of the holdings that fall in it (the
//! commonest first, with their share) and by its mean EHS.
//!
//! The classes are those of the game's showdown: the high games (seven-card and five-card stud)
//! speak of made hands and draws, razz of low cards, hi-lo of both (a high part and a low part).
//! On third street of the seven-card games they are the classes of `stud report`'s chart
//! ([`crate::bot::third_street`]: buried and split pairs, three to a flush, ...). A class is the
//! first of its list that fits, so each list reads strongest first.
//!
//! A bucket's EHS is the EHS coordinate of its k-means centroid in the bucketing the file
//! embeds: the mean EHS of the training views the build put in it (a centroid is their mean),
//! the same on every board. Its classes depend on what is known: at a spot whose up cards are
//! given, every holding of the player to act ([`holdings`]); else a fixed sample of the street's
//! deals ([`sampled`]), the same for every node of the street.

pub mod third;

use abstraction::bucketing::{Bucketing, CardView, TableView};
use abstraction::cards::{Card, CardSet, Rank};
use abstraction::eval::{eval_high, Category};
use abstraction::rules::Showdown;
use anyhow::Result;
use rayon::prelude::*;
use third::{high_class, razz_class, HIGH_CLASSES, RAZZ_CLASSES};

/// The hand classes of the high games after the first street, strongest first.
const HIGH: [&str; 14] = [
    "full house or better",
    "flush",
    "straight",
    "three of a kind",
    "two pair",
    "pair of aces or kings",
    "pair of tens to queens",
    "pair of sixes to nines",
    "pair of deuces to fives",
    "four to a flush",
    "four to a straight",
    "three to a flush",
    "ace or king high",
    "queen high or less",
];

/// The high part of a hi-lo class.
const HILO_HIGH: [&str; 5] = [
    "three of a kind or better",
    "two pair",
    "pair of tens or better",
    "pair of deuces to nines",
    "no pair",
];

/// The low part of a hi-lo class: five different ranks 8 or under, or three or more of them
/// with enough cards to come to make five.
const HILO_LOW: [&str; 3] = ["low made", "low draw", "no low"];

/// How a street's holdings are classed.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Scheme {
    /// Two down cards and a door: the third-street chart's classes.
    ThirdHigh,
    /// The same in razz.
    ThirdRazz,
    /// Made hands and draws.
    High,
    /// The highest of the best low's cards, or paired.
    Razz,
    /// A high part and a low part.
    HiLo,
}

/// The hand classes of one street of a game: their names (strongest first) and how a holding is
/// classed.
#[derive(Clone, Debug)]
pub struct Classes {
    /// The class names, in the order of their indices.
    pub names: Vec<String>,
    scheme: Scheme,
    /// Cards still to come to the player after this street.
    to_come: u8,
}

impl Classes {
    /// The classes of `street` in the game whose bucketing is `b`.
    pub fn of(b: &Bucketing, street: usize) -> Classes {
        let shape = b.shape();
        let (d, u) = (shape.downs[street], shape.ups[street]);
        let (fd, fu) = shape.final_counts();
        let n = d + u;
        let to_come = fd + fu - n;
        let scheme = match (shape.showdown, d, u) {
            (Showdown::Razz, 2, 1) => Scheme::ThirdRazz,
            (_, 2, 1) => Scheme::ThirdHigh,
            (Showdown::Razz, ..) => Scheme::Razz,
            (Showdown::HiLo8, ..) => Scheme::HiLo,
            _ => Scheme::High,
        };
        let names = match scheme {
            Scheme::ThirdHigh => HIGH_CLASSES.iter().map(|s| s.to_string()).collect(),
            Scheme::ThirdRazz => RAZZ_CLASSES.iter().map(|s| s.to_string()).collect(),
            Scheme::High => HIGH.iter().map(|s| s.to_string()).collect(),
            Scheme::HiLo => HILO_HIGH
                .iter()
                .flat_map(|h| HILO_LOW.iter().map(move |l| format!("{h}, {l}")))
                .collect(),
            Scheme::Razz => razz_names(n),
        };
        Classes {
            names,
            scheme,
            to_come,
        }
    }

    /// The class (an index into [`Classes::names`]) of a player's down and up cards.
    pub fn classify(&self, down: CardSet, up: CardSet) -> usize {
        let third = || {
            let h: Vec<Card> = down.iter().collect();
            let door = up.iter().next();
            match (&h[..], door) {
                (&[a, b], Some(d)) => Some(([a, b], d)),
                _ => None,
            }
        };
        let cards = down.union(up);
        match self.scheme {
            Scheme::ThirdHigh => third().map_or(self.names.len() - 1, |(h, d)| high_class(h, d)),
            Scheme::ThirdRazz => third().map_or(self.names.len() - 1, |(h, d)| razz_class(h, d)),
            Scheme::High => high(cards, self.to_come),
            Scheme::Razz => razz(cards),
            Scheme::HiLo => hilo(cards, self.to_come),
        }
    }
}

/// Razz class names for a street where the player holds `n` cards: draws to a five-card low
/// before the fifth card, made lows after.
fn razz_names(n: u8) -> Vec<String> {
    let tops = ["5", "6", "7", "8", "9 or 10", "jack or worse"];
    let article = |t: &str| if t.starts_with('8') { "an" } else { "a" };
    let mut v: Vec<String> = if n >= 5 {
        tops.iter()
            .map(|t| format!("{} {t} low", article(t)))
            .collect()
    } else {
        let count = ["no cards", "one", "two", "three", "four"][n as usize];
        tops.iter()
            .map(|t| format!("{count} to {} {t}", article(t)))
            .collect()
    };
    v.push("paired".into());
    v
}

/// How many of each rank (`index()` order: deuce to ace) and of each suit.
fn counts(cards: CardSet) -> ([u8; 13], [u8; 4]) {
    let (mut r, mut s) = ([0u8; 13], [0u8; 4]);
    for c in cards.iter() {
        r[c.rank().index() as usize] += 1;
        s[c.suit().index() as usize] += 1;
    }
    (r, s)
}

/// The made hand of `cards`: the best five-card category when five or more cards are held; a
/// level from the ranks alone (3 trips or more of a rank, 2 two pairs, 1 a pair, 0 none); the
/// highest paired rank.
fn made(cards: CardSet, ranks: &[u8; 13]) -> (Option<Category>, u8, Option<Rank>) {
    let best = (cards.len() >= 5).then(|| eval_high(cards).category());
    let pairs = ranks.iter().filter(|&&n| n >= 2).count();
    let level = if ranks.iter().any(|&n| n >= 3) {
        3
    } else {
        pairs.min(2) as u8
    };
    let top_pair = (0..13u8).rev().find(|&i| ranks[i as usize] >= 2);
    (best, level, top_pair.map(Rank::new))
}

/// Whether five consecutive ranks (the ace high or low) hold four different ranks of the hand.
fn four_to_a_straight(ranks: &[u8; 13]) -> bool {
    // Bit i: rank i + 1 held (bit 0 the ace as low, bits 1..=13 deuce to ace).
    let mut bits = 0u16;
    for (i, &n) in ranks.iter().enumerate() {
        if n > 0 {
            bits |= 1 << (i + 1);
        }
    }
    if ranks[12] > 0 {
        bits |= 1;
    }
    (0..=9).any(|lo| (bits >> lo & 0x1f).count_ones() >= 4)
}

/// The class (an index into [`HIGH`]) of a high hand with `to_come` cards still to come.
fn high(cards: CardSet, to_come: u8) -> usize {
    let (ranks, suits) = counts(cards);
    let (best, level, pair) = made(cards, &ranks);
    match best {
        Some(Category::StraightFlush | Category::FourOfAKind | Category::FullHouse) => return 0,
        Some(Category::Flush) => return 1,
        Some(Category::Straight) => return 2,
        _ => {}
    }
    if ranks.iter().any(|&n| n >= 4) {
        return 0;
    }
    match (level, pair) {
        (3, _) => return 3,
        (2, _) => return 4,
        (1, Some(p)) if p >= Rank::KING => return 5,
        (1, Some(p)) if p >= Rank::TEN => return 6,
        (1, Some(p)) if p >= Rank::new(4) => return 7,
        (1, _) => return 8,
        _ => {}
    }
    let flush = suits.iter().copied().max().unwrap_or(0);
    if to_come >= 1 && flush >= 4 {
        return 9;
    }
    if to_come >= 1 && four_to_a_straight(&ranks) {
        return 10;
    }
    if to_come >= 2 && flush >= 3 {
        return 11;
    }
    if ranks[12] > 0 || ranks[11] > 0 {
        12
    } else {
        13
    }
}

/// The different ranks of `cards` in ace-low order (ace 1, ..., king 13), lowest first.
fn low_ranks(cards: CardSet) -> Vec<u8> {
    let mut seen = [false; 14];
    for c in cards.iter() {
        seen[c.rank().low_index() as usize + 1] = true;
    }
    (1..14u8).filter(|&r| seen[r as usize]).collect()
}

/// The class (an index into [`razz_names`]) of a razz hand.
fn razz(cards: CardSet) -> usize {
    let want = cards.len().min(5) as usize;
    let low = low_ranks(cards);
    if want == 0 || low.len() < want {
        return 6;
    }
    match low[want - 1] {
        0..=5 => 0,
        6 => 1,
        7 => 2,
        8 => 3,
        9 | 10 => 4,
        _ => 5,
    }
}

/// The class of a hi-lo hand: its high part times three plus its low part.
fn hilo(cards: CardSet, to_come: u8) -> usize {
    let (ranks, _) = counts(cards);
    let (best, level, pair) = made(cards, &ranks);
    let high = match (best, level, pair) {
        (Some(c), ..) if c >= Category::ThreeOfAKind => 0,
        (_, 3, _) => 0,
        (_, 2, _) => 1,
        (_, 1, Some(p)) if p >= Rank::TEN => 2,
        (_, 1, _) => 3,
        _ => 4,
    };
    let lows = low_ranks(cards).iter().filter(|&&r| r <= 8).count();
    let low = if lows >= 5 {
        0
    } else if to_come > 0 && lows >= 3 && lows + to_come as usize >= 5 {
        1
    } else {
        2
    };
    high * HILO_LOW.len() + low
}

/// One class's share of a bucket's holdings.
#[derive(Clone, Debug, PartialEq, serde::Serialize)]
pub struct Share {
    /// The class's name.
    pub class: String,
    /// The fraction of the holdings counted that are of this class.
    pub share: f64,
}

/// A bucket in words: the classes of the holdings counted in it, and its EHS.
#[derive(Clone, Debug, PartialEq, serde::Serialize)]
pub struct Description {
    /// The holdings counted (at a spot: the player's; else the street's sampled deals).
    pub holdings: usize,
    /// Every class among them, the commonest first (ties in the classes' order).
    pub classes: Vec<Share>,
    /// The bucket's mean EHS (its centroid's; a pot share: win 1, tie and split 1/2).
    pub ehs: f64,
    /// Hi-lo: the bucket's mean chance of making a qualifying low.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub low: Option<f64>,
}

impl Description {
    /// The commonest classes in a few words: up to three of them, until nine in ten holdings
    /// are named (`pair of aces or kings 62%, two pair 21%`); a lone holding's class bare.
    pub fn text(&self) -> String {
        if self.holdings == 0 {
            return "none here".into();
        }
        if self.classes.len() == 1 && self.holdings == 1 {
            return self.classes[0].class.clone();
        }
        let mut parts = Vec::new();
        let mut named = 0.0;
        for s in &self.classes {
            if parts.len() == 3 || named >= 0.9 {
                break;
            }
            parts.push(format!("{} {:.0}%", s.class, s.share * 100.0));
            named += s.share;
        }
        parts.join(", ")
    }
}

/// The EHS (and, in hi-lo, the chance of a qualifying low) of a bucket: its centroid's.
pub fn centroid_strength(b: &Bucketing, street: usize, bucket: u32) -> (f64, Option<f64>) {
    let layout = b.layout();
    let Some(c) = b
        .streets()
        .get(street)
        .and_then(|s| s.centroids.outer_iter().nth(bucket as usize))
    else {
        return (f64::NAN, None);
    };
    let ehs = f64::from(c[layout.ehs_index()]);
    let low = (layout.extras > 0).then(|| f64::from(c[layout.ehs_index() + 1]));
    (ehs, low)
}

/// Describes each bucket of `street` from the classes of the holdings counted in it
/// (`per_bucket[b]`: class indices into `classes`).
pub fn describe(
    b: &Bucketing,
    street: usize,
    classes: &Classes,
    per_bucket: &[Vec<usize>],
) -> Vec<Description> {
    per_bucket
        .iter()
        .enumerate()
        .map(|(bucket, held)| {
            let mut n = vec![0usize; classes.names.len()];
            for &c in held {
                n[c] += 1;
            }
            let mut order: Vec<usize> = (0..n.len()).filter(|&c| n[c] > 0).collect();
            // Stable: equal counts keep the classes' order, strongest first.
            order.sort_by_key(|&c| std::cmp::Reverse(n[c]));
            let (ehs, low) = centroid_strength(b, street, bucket as u32);
            Description {
                holdings: held.len(),
                classes: order
                    .into_iter()
                    .map(|c| Share {
                        class: classes.names[c].clone(),
                        share: n[c] as f64 / held.len() as f64,
                    })
                    .collect(),
                ehs,
                low,
            }
        })
        .collect()
}

/// One hand described: its own class, beside the EHS of its bucket `bucket`.
pub fn of_hand(
    b: &Bucketing,
    street: usize,
    bucket: u32,
    down: CardSet,
    up: CardSet,
) -> Description {
    let classes = Classes::of(b, street);
    let (ehs, low) = centroid_strength(b, street, bucket);
    Description {
        holdings: 1,
        classes: vec![Share {
            class: classes.names[classes.classify(down, up)].clone(),
            share: 1.0,
        }],
        ehs,
        low,
    }
}

/// Deals sampled per street for the descriptions of buckets on no particular board.
pub const SAMPLES: usize = 4096;

/// Each bucket of `street` described over [`SAMPLES`] random deals of the street (views of
/// the player's cards and the opponent's up cards, the bucketing's own sampler, fixed seed):
/// what the bucket holds on no particular board. About 0.3 s a street on one core.
pub fn sampled(b: &Bucketing, street: usize) -> Result<Vec<Description>> {
    let classes = Classes::of(b, street);
    let views = b.sample_table_views(street, SAMPLES, 0x5eed ^ street as u64);
    let found: Vec<(u32, usize)> = views
        .par_iter()
        .map(|t| Ok((b.bucket_table(t)?, classes.classify(t.view.down, t.view.up))))
        .collect::<Result<_>>()?;
    let mut per_bucket = vec![Vec::new(); b.buckets(street) as usize];
    for (bucket, class) in found {
        if let Some(v) = per_bucket.get_mut(bucket as usize) {
            v.push(class);
        }
    }
    Ok(describe(b, street, &classes, &per_bucket))
}

/// What each bucket holds at a spot: the down cards the player to act may have (none of the
/// up cards on the table), each looked up in the bucketing, grouped by bucket and written best
/// first. Seventh street's three down cards are the most: 13,244 lookups.
pub fn holdings(
    b: &Bucketing,
    street: usize,
    up: CardSet,
    opp_up: CardSet,
) -> Result<Vec<Vec<CardSet>>> {
    let view = CardView {
        street,
        down: CardSet::EMPTY,
        up,
        opp_up,
    };
    holdings_table(b, &TableView::heads_up(view))
}

/// [`holdings`] of an N-seat view `table` (its down cards ignored) in its bucketing: no card
/// seen at the table is a holding, and each holding is looked up with the table's cards.
pub fn holdings_table(b: &Bucketing, table: &TableView) -> Result<Vec<Vec<CardSet>>> {
    let (street, up, opp_up) = (table.view.street, table.view.up, table.view.opp_up);
    let downs = b.shape().downs[street] as usize;
    let seen = table.known().minus(table.view.down);
    let deck: Vec<Card> = b
        .shape()
        .deck
        .iter()
        .filter(|c| !seen.contains(*c))
        .collect();
    let mut out = vec![Vec::new(); b.buckets(street) as usize];
    // The combinations of `downs` cards, as increasing indices into `deck`.
    let mut idx: Vec<usize> = (0..downs).collect();
    while downs > 0 && idx[downs - 1] < deck.len() {
        let down: CardSet = idx.iter().map(|&i| deck[i]).collect();
        let view = TableView {
            view: CardView {
                street,
                down,
                up,
                opp_up,
            },
            ..*table
        };
        let bucket = b.bucket_table(&view)?;
        if let Some(v) = out.get_mut(bucket as usize) {
            v.push(down);
        }
        // The next combination: bump the last index that can move, reset those after it.
        let mut i = downs;
        while i > 0 {
            i -= 1;
            if idx[i] < deck.len() - (downs - i) {
                idx[i] += 1;
                for j in i + 1..downs {
                    idx[j] = idx[j - 1] + 1;
                }
                break;
            }
            if i == 0 {
                idx[downs - 1] = deck.len();
            }
        }
    }
    for v in &mut out {
        // Best first: the highest card, then the next (card ids order by rank).
        v.sort_by_cached_key(|s| {
            let mut cards: Vec<Card> = s.iter().collect();
            cards.reverse();
            std::cmp::Reverse(cards)
        });
    }
    Ok(out)
}

/// Each bucket described by the holdings at a spot ([`holdings`]' answer, the player's up
/// cards `up`).
pub fn at_spot(
    b: &Bucketing,
    street: usize,
    up: CardSet,
    held: &[Vec<CardSet>],
) -> Vec<Description> {
    let classes = Classes::of(b, street);
    let per_bucket: Vec<Vec<usize>> = held
        .iter()
        .map(|hs| hs.iter().map(|&d| classes.classify(d, up)).collect())
        .collect();
    describe(b, street, &classes, &per_bucket)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::strategy_file::StrategyFile;
    use abstraction::bucketing::Size;
    use abstraction::cards::parse_cards;
    use abstraction::rules::GameDef;

    /// A shipped strategy file, with the bucketing it embeds.
    fn shipped(name: &str) -> StrategyFile {
        let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("../strategies")
            .join(name);
        StrategyFile::open(&path).unwrap()
    }

    fn set(s: &str) -> CardSet {
        parse_cards(s).unwrap().into_iter().collect()
    }

    #[test]
    fn high_hands_fall_in_the_classes_a_stud_player_names() {
        let cases = [
            ("Ac Ad Ah Kc Kd", 0, 2),
            ("2h 7h 9h Jh Kh 3c", 1, 1),
            ("5c 6d 7h 8s 9c", 2, 2),
            ("7c 7d 7h 2s", 3, 3),
            ("7c 7d 2h 2s", 4, 3),
            ("Kc Kd 2h 5s", 5, 3),
            ("Tc Td 2h 5s", 6, 3),
            ("6c 6d 2h Ks", 7, 3),
            ("5c 5d 2h Ks", 8, 3),
            ("2h 7h 9h Jh", 9, 3),
            ("2h 7h 9h Jh Kc", 9, 2),
            ("9c Td Jh Ks", 10, 3),
            ("Ac 2d 3h 4s", 10, 3),
            ("2h 7h 9h Jc", 11, 3),
            // Three to a flush with one card to come is no draw.
            ("2h 7h 9h Jc Ks", 12, 1),
            ("2h 7h 9h Jc Qs", 13, 1),
            // A draw on the last card is no draw either.
            ("2h 7h 9h Jh 3c 4d Ks", 12, 0),
        ];
        for (hand, class, to_come) in cases {
            assert_eq!(high(set(hand), to_come), class, "{hand}: {}", HIGH[class]);
        }
    }

    #[test]
    fn razz_and_hilo_hands_speak_of_low_cards() {
        assert_eq!(razz(set("Ac 2d 3h 4s")), 0);
        assert_eq!(razz(set("Ac 2d 3h 8s")), 3);
        assert_eq!(razz(set("Ac Ad 3h 8s")), 6);
        assert_eq!(razz(set("Ac 2d 3h 4s Ks")), 5);
        // Seven cards: the best five different ranks.
        assert_eq!(razz(set("Ac 2d 3h 4s Ks Kd 6c")), 1);
        assert_eq!(razz_names(4)[3], "four to an 8");
        assert_eq!(razz_names(5)[1], "a 6 low");
        let name = |c: usize| {
            format!(
                "{}, {}",
                HILO_HIGH[c / HILO_LOW.len()],
                HILO_LOW[c % HILO_LOW.len()]
            )
        };
        assert_eq!(name(hilo(set("Ac 2d 3h 4s 6c"), 2)), "no pair, low made");
        assert_eq!(
            name(hilo(set("Ac Ad 3h 4s"), 3)),
            "pair of tens or better, low draw"
        );
        assert_eq!(
            name(hilo(set("Kc Kd Qh Js 9c"), 2)),
            "pair of tens or better, no low"
        );
        assert_eq!(name(hilo(set("2c 2d 3h 3s"), 0)), "two pair, no low");
    }

    #[test]
    fn each_street_names_its_own_classes() {
        let f = shipped("7stud-hu.strat");
        let b = f.betting().unwrap().bucketing();
        let third = Classes::of(b, 0);
        assert_eq!(third.names.len(), HIGH_CLASSES.len());
        assert_eq!(third.classify(set("Ac Ad"), set("Ah")), 0);
        let fifth = Classes::of(b, 2);
        assert_eq!(fifth.classify(set("Ac Ad"), set("3h 7s Kd")), 5);
        assert_eq!(fifth.classify(set("2h 7h"), set("9h Jh Kc")), 9);
        // Seventh street: no cards to come, no draws.
        let seventh = Classes::of(b, 4);
        assert_eq!(seventh.classify(set("2h 7h 4c"), set("9h Jh Kc 3s")), 12);
        // A tiny bucketing builds in well under a second.
        let razz = GameDef::preset("razz").unwrap();
        let size = Size::preset("tiny", razz.streets.len()).unwrap();
        let rb = Bucketing::build(&razz, &size, &|_| {}).unwrap();
        assert_eq!(Classes::of(&rb, 0).names, RAZZ_CLASSES);
        assert_eq!(
            Classes::of(&rb, 1).names[Classes::of(&rb, 1).classify(set("Ac 2d"), set("5h 4s"))],
            "four to a 5"
        );
    }

    #[test]
    fn a_bucket_is_described_by_its_commonest_classes_and_its_centroid() {
        let f = shipped("7stud-hu.strat");
        let b = f.betting().unwrap().bucketing();
        let classes = Classes::of(b, 0);
        let per_bucket = vec![vec![0, 5, 5, 5], vec![], vec![9], vec![1, 1]];
        let d = describe(b, 0, &classes, &per_bucket);
        assert_eq!(d[0].holdings, 4);
        assert_eq!(d[0].classes[0].class, "three to a flush");
        assert_eq!(d[0].classes[0].share, 0.75);
        assert_eq!(d[0].text(), "three to a flush 75%, rolled-up trips 25%");
        assert_eq!(d[1].text(), "none here");
        assert_eq!(d[2].text(), "other");
        // The EHS is the centroid's coordinate, a pot share.
        let want = b.streets()[0].centroids[[3, b.layout().ehs_index()]];
        assert_eq!(d[3].ehs, f64::from(want));
        assert!(d
            .iter()
            .all(|x| (0.0..=1.0).contains(&x.ehs) && x.low.is_none()));
        // Hi-lo buckets carry their chance of a low too.
        let hilo = shipped("stud8-hu.strat");
        let (_, low) = centroid_strength(hilo.betting().unwrap().bucketing(), 1, 0);
        assert!(low.is_some_and(|l| (0.0..=1.0).contains(&l)));
        // Sampled over the street, every holding lands in some bucket.
        let s = sampled(b, 0).unwrap();
        assert_eq!(s.iter().map(|x| x.holdings).sum::<usize>(), SAMPLES);
        // Strong buckets hold strong classes: the bucket of the highest EHS holds more rolled-up
        // trips and big pairs than the one of the lowest.
        let strong = |x: &Description| {
            x.classes
                .iter()
                .filter(|s| s.class.contains("T-A") || s.class.contains("trips"))
                .map(|s| s.share)
                .sum::<f64>()
        };
        let by_ehs = |a: &&Description, b: &&Description| a.ehs.total_cmp(&b.ehs);
        let best = s.iter().max_by(by_ehs).unwrap();
        let worst = s.iter().min_by(by_ehs).unwrap();
        assert!(strong(best) > strong(worst), "{best:?} vs {worst:?}");
    }
}
