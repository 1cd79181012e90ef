//! The card abstraction of a solve: lossless, or a bucketing read from the cache folder or
//! built there, its build's progress told to the [`Watcher`].

use super::Watcher;
use crate::bucket_cache::{self, Origin};
use crate::session::Cards;
use abstraction::bucketing::{Bucketing, Size, Table, SIZES};
use abstraction::card_abstraction::CardAbstraction;
use abstraction::multiway_deal::{MultiwayBuckets, MultiwayView};
use abstraction::rules::GameDef;
use anyhow::{Context, Result};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, Ordering};

/// The cached bucketing of `def` for `table`'s other seats at `size` in `dir`, or a fresh
/// build (also when `force`), its progress told to `watcher`; also its file and how it was had.
pub fn load_or_build_table(
    def: &GameDef,
    table: Table,
    size: &Size,
    dir: &Path,
    force: bool,
    watcher: &dyn Watcher,
) -> Result<(Bucketing, PathBuf, Origin)> {
    // A build takes seconds to minutes and leaves a file behind: say so when it begins, in a
    // line that a log shows too, not only the progress bar of a terminal.
    let announced = AtomicBool::new(false);
    let progress = |p| {
        if !announced.swap(true, Ordering::Relaxed) {
            watcher.say(&format!(
                "building the {} card abstraction of {} into {} (once: later solves read it \
                 there; --abstraction-dir chooses the folder)",
                size.name,
                def.variant.name(),
                bucket_cache::table_path(dir, def, table, size).display()
            ));
        }
        watcher.building(def, p)
    };
    let out = bucket_cache::load_or_build_table(def, table, size, dir, force, &progress);
    watcher.built();
    out
}

/// [`load_or_build_table`] of the heads-up bucketing, never forced.
pub fn load_or_build(
    def: &GameDef,
    size: &Size,
    dir: &Path,
    watcher: &dyn Watcher,
) -> Result<(Bucketing, PathBuf)> {
    let (b, file, _) = load_or_build_table(def, Table::default(), size, dir, false, watcher)?;
    Ok((b, file))
}

/// The card abstraction named `spec` for a walked solve of `def`: `lossless`, or a bucketing
/// size ([`Size::parse`]) read from `dir` or built there. A game the public tree cannot walk
/// is refused first, before a bucketing is built for it.
pub fn walked_cards(def: &GameDef, spec: &str, dir: &Path, watcher: &dyn Watcher) -> Result<Cards> {
    abstraction::tree::Tree::check_supported(def)?;
    if spec == "lossless" {
        return Ok(Cards::Lossless);
    }
    let size = Size::parse(spec, def.streets.len())
        .with_context(|| format!("--abstraction {spec} (lossless, {SIZES})"))?;
    let (b, _) = load_or_build(def, &size, dir, watcher)
        .with_context(|| format!("the {spec} abstraction of {}", def.variant.name()))?;
    Ok(Cards::Buckets(Box::new(b)))
}

/// The card abstraction of a sampled multiway solve of `def` at `size` seen as `view`, from
/// the cache in `dir` (built there when missing): the heads-up bucketing, its first street
/// tabulated, and with [`MultiwayView::Table`] the bucketing of each number of live seats.
pub fn multiway_buckets(
    def: &GameDef,
    size: &Size,
    view: MultiwayView,
    dir: &Path,
    watcher: &dyn Watcher,
) -> Result<MultiwayBuckets> {
    let heads_up = def.clone().with_seats(2, def.starting_stacks[0]);
    let (mut bucketing, file) = load_or_build(&heads_up, size, dir, watcher)?;
    let views = bucketing.precompute_first_street();
    watcher.say(&format!(
        "card abstraction {} from {} (the heads-up table's, first street tabulated: {views} \
         views), a seat's cards {}",
        bucketing.name(),
        file.display(),
        view.describe()
    ));
    if view == MultiwayView::BestOpponent {
        return Ok(MultiwayBuckets::best_opponent(bucketing));
    }
    let seats = def.seats as usize;
    let mut by_live = Vec::with_capacity(seats - 1);
    for live in 2..=seats {
        let table = MultiwayBuckets::table_of(seats, live);
        let (mut b, file, _) = load_or_build_table(&heads_up, table, size, dir, false, watcher)?;
        if table.live == 0 && table.folded == 0 {
            b.precompute_first_street();
        }
        watcher.say(&format!(
            "  {live} live seats: {} from {}",
            b.name(),
            file.display()
        ));
        by_live.push(b);
    }
    Ok(MultiwayBuckets::table(bucketing, by_live, seats)?)
}
