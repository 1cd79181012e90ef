//! `stud report`: an HTML page with SVG pictures of a strategy: the convergence of its solve, its
//! first-round play, and its results against the baseline bots and LBR.

use super::game_for;
use abstraction::rules::{Action, Deal, GameDef};
use abstraction::tree::{Edge, NodeKind};
use anyhow::Context;
use solver::bot::matches::{play_match_with, MatchConfig, MatchResult};
use solver::bot::third_street::{third_street, ACTIONS};
use solver::bot::{Candidates, Lbr, Player, BOT_NAMES};
use solver::players::load;
use solver::strategy_file::{PublicFile, StrategyFile};
use std::fmt::Write as _;
use std::path::{Path, PathBuf};
use std::sync::Arc;

/// Write an HTML report of a strategy.
#[derive(clap::Args)]
#[command(after_help = "Examples:\n  \
stud solve --game leduc --iterations 500 --every 10 --json --out leduc.strat > solve.jsonl\n  \
stud report leduc.strat --log solve.jsonl --out report/\n  \
stud report strategies/7stud-hu.strat --results strategies/7stud-hu.eval.json --out report/\n  \
stud report heuristic --game razz --hands 200 --out report/\n\n\
Writes OUT/index.html (self-contained: inline SVG, no scripts): the exploitability against \
iterations and time from the solve log (the JSON lines `stud solve --json` prints); in the \
seven-card games, the third-street chart (hand class against door card, each cell a bar of the \
fold / call / complete / raise frequencies of the player facing the bring-in, averaged over \
sampled hands of the class); in the walkable games, the first betting round of the strategy \
file (private card against the actor's door card); and the win rates against the baseline bots \
and of LBR with their 95% intervals, played here or read from --results (the JSON that \
scripts/eval-strategy writes).")]
pub struct Args {
    /// The player: a strategy file or a built-in bot (random, call, raise, heuristic).
    pub strategy: String,
    /// `--game`.
    #[command(flatten)]
    pub game: super::args::Game,
    /// The solve log: JSON lines with `iterations`, `seconds` and `exploitability_mbb`.
    #[arg(long)]
    pub log: Option<PathBuf>,
    /// The folder to write into (created if missing).
    #[arg(long)]
    pub out: PathBuf,
    /// Match and LBR results to show instead of playing them: the JSON of
    /// scripts/eval-strategy (`results`: a list of `name`, `mbb_per_hand`, `ci95`, `hands`).
    #[arg(long)]
    pub results: Option<PathBuf>,
    /// Deals per match when the results are played here (each played twice).
    #[arg(long, default_value_t = 2000)]
    pub hands: u64,
    /// Sampled hands per cell of the third-street chart.
    #[arg(long, default_value_t = 32)]
    pub chart_hands: u32,
    /// `--seed`.
    #[command(flatten)]
    pub random: super::args::Random,
}

/// Colours of fold, call/check, complete/bet, raise.
const COLOURS: [&str; 4] = ["#4c78a8", "#54a24b", "#f58518", "#e45756"];

/// Runs the command.
pub fn run(args: Args) -> anyhow::Result<()> {
    let path = args.strategy.clone();
    // The page names the file, not where it lies on this machine.
    let name = Path::new(&path)
        .file_name()
        .map_or(path.clone(), |n| n.to_string_lossy().into_owned());
    let def = Arc::new(game_for(args.game.given(), &[&path], "7stud")?);
    let (player, _) = super::eval::load_for_many_hands(&path, &def)?;
    let file = if BOT_NAMES.contains(&path.as_str()) {
        None
    } else {
        Some(StrategyFile::open(Path::new(&path))?)
    };
    let mut html = String::new();
    let _ = write!(
        html,
        "<!doctype html><html><head><meta charset=\"utf-8\"><title>Strategy report: {name}</title>\
         <style>body{{font-family:sans-serif;margin:2em;max-width:1100px}}td,th{{padding:2px 8px}}\
         </style></head><body><h1>Strategy report: {name}</h1><p>{game}: {about}.</p>",
        name = escape(&name),
        game = def.variant,
        about = escape(&about(file.as_ref())),
    );
    if let Some(log) = &args.log {
        html += &convergence(log)?;
    }
    html += &strategy_chart(player.as_ref(), &def, file.as_ref(), &args)?;
    html += "<h2>Results</h2>";
    let results = match &args.results {
        Some(p) => read_results(p)?,
        None => {
            // Four matches and LBR, `hands` deals each.
            let bar = super::deals_bar(5 * args.hands);
            let rows = play_results(player.as_ref(), &def, args.hands, args.random.seed, &bar);
            bar.finish_and_clear();
            rows?
        }
    };
    html += &results_chart(&results);
    html += "</body></html>\n";
    std::fs::create_dir_all(&args.out)
        .with_context(|| format!("cannot create {}", args.out.display()))?;
    let out = args.out.join("index.html");
    solver::container::write_bytes(&out, html.as_bytes())?;
    println!("wrote {}", out.display());
    Ok(())
}

/// The page's line about the player: how its file was solved, or that it is a bot.
fn about(file: Option<&StrategyFile>) -> String {
    // A multiway file was refused by the player's loader: a file here has a heads-up header.
    match file.and_then(StrategyFile::header) {
        Some(h) => format!(
            "{}, {} iterations; exploitability {}",
            h.algorithm.name(),
            h.iterations,
            h.exploitability
                .as_ref()
                .map_or("not measured".into(), |e| format!("{:.2} mbb/hand", e.mbb)),
        ),
        None => "a built-in bot".into(),
    }
}

/// The convergence section: the solve's exploitability by iterations and by seconds, from the
/// JSON lines of `log` that have all three.
fn convergence(log: &Path) -> anyhow::Result<String> {
    let text = solver::input::read_text(log, solver::input::REPORT_DATA)?;
    let mut points = Vec::new();
    for (i, line) in text
        .lines()
        .enumerate()
        .filter(|(_, l)| !l.trim().is_empty())
    {
        let v: serde_json::Value = serde_json::from_str(line)
            .with_context(|| format!("{} line {}: not JSON", log.display(), i + 1))?;
        let get = |k: &str| v.get(k).and_then(|x| x.as_f64());
        if let (Some(it), Some(s), Some(e)) =
            (get("iterations"), get("seconds"), get("exploitability_mbb"))
        {
            points.push((it, s, e));
        }
    }
    anyhow::ensure!(
        !points.is_empty(),
        "{}: no lines with iterations, seconds and exploitability_mbb",
        log.display()
    );
    let mut html = "<h2>Convergence</h2>".to_string();
    let by_it: Vec<(f64, f64)> = points.iter().map(|p| (p.0, p.2)).collect();
    let by_time: Vec<(f64, f64)> = points.iter().map(|p| (p.1, p.2)).collect();
    html += &line_chart(&by_it, "iterations", "exploitability (mbb/hand, log)");
    html += &line_chart(&by_time, "seconds", "exploitability (mbb/hand, log)");
    Ok(html)
}

/// The strategy's chart: heads-up stud's third street facing the bring-in, else a public-tree
/// file's first betting round, else nothing.
fn strategy_chart(
    player: &dyn Player,
    def: &Arc<GameDef>,
    file: Option<&StrategyFile>,
    args: &Args,
) -> anyhow::Result<String> {
    let mut html = String::new();
    let first = &def.streets[0].deal;
    if first.as_slice() == [Deal::Down, Deal::Down, Deal::Up] && def.seats == 2 {
        let _ = write!(html, "<h2>{}: facing the bring-in</h2>", def.street_name(0));
        // Tens of seconds for a strategy file, with no count to show: a spinner says it works.
        let spin = indicatif::ProgressBar::new_spinner().with_message("the 3rd-street chart");
        spin.enable_steady_tick(std::time::Duration::from_millis(200));
        let t = third_street(player, def, args.chart_hands, args.random.seed);
        spin.finish_and_clear();
        let t = t?;
        let cols: Vec<String> = t.doors.iter().map(|r| r.to_string()).collect();
        let cells: Vec<Option<[f64; 4]>> = t
            .freq
            .iter()
            .zip(&t.samples)
            .map(|(f, &n)| (n > 0).then_some(*f))
            .collect();
        html += &grid_chart(
            ("hand class", "door card"),
            t.classes,
            &cols,
            &cells,
            &ACTIONS,
        );
        let _ = write!(
            html,
            "<p>Each cell: the mean of the player's probabilities over up to {} sampled \
             third-street hands of the class with that door card, the player in the second seat \
             facing the other's bring-in; a grey cell could not face one. The number in a \
             cell is its commonest action's share; point at a cell for all of them.</p>",
            args.chart_hands
        );
    } else if let Some(StrategyFile::Public(f)) = file {
        html += "<h2>First betting round</h2>";
        html += &first_round_chart(f)?;
        html += "<p>Each cell: the player's probabilities at the first decision of the hand, \
                 summed over the deals leading to it and normalised. The number in a cell is its \
                 commonest action's share; point at a cell for all of them.</p>";
    }
    Ok(html)
}

/// One row of the results: a match or LBR, its win rate and 95% half-width in mbb/hand.
struct Row {
    name: String,
    mbb: f64,
    ci95: f64,
    hands: u64,
}

/// The player against each baseline bot and LBR against the player, `deals` deals each.
fn play_results(
    player: &dyn Player,
    def: &Arc<GameDef>,
    deals: u64,
    seed: u64,
    bar: &indicatif::ProgressBar,
) -> anyhow::Result<Vec<Row>> {
    let cfg = MatchConfig {
        def: Arc::clone(def),
        deals,
        seed,
        phh_out: None,
        aivat: Some(Default::default()),
    };
    let mut rows = Vec::new();
    let row = |name: String, r: MatchResult| Row {
        name,
        mbb: r.mbb_per_hand,
        ci95: r.ci95,
        hands: r.hands,
    };
    for bot in BOT_NAMES {
        let b = load(bot, def)?;
        bar.set_message(format!("(vs {bot})"));
        rows.push(row(
            format!("vs {bot}"),
            play_match_with(player, b.as_ref(), &cfg, &|| bar.inc(1))?,
        ));
    }
    let lbr = Lbr::new(player, Arc::clone(def), 64, Candidates::Sample(256))?;
    bar.set_message("(LBR)");
    rows.push(row(
        "LBR (its win rate)".into(),
        lbr.play(deals, seed, &|| bar.inc(1))?,
    ));
    Ok(rows)
}

/// The results of scripts/eval-strategy's JSON: `{"results": [{"name", "mbb_per_hand", "ci95",
/// "hands"}, ...]}`.
fn read_results(path: &Path) -> anyhow::Result<Vec<Row>> {
    let text = solver::input::read_text(path, solver::input::REPORT_DATA)?;
    let v: serde_json::Value =
        serde_json::from_str(&text).with_context(|| format!("{}: not JSON", path.display()))?;
    let list = v["results"]
        .as_array()
        .with_context(|| format!("{}: no `results` list", path.display()))?;
    list.iter()
        .enumerate()
        .map(|(i, r)| {
            let f = |k: &str| {
                r[k].as_f64().with_context(|| {
                    format!("{}: results[{i}] has no number `{k}`", path.display())
                })
            };
            Ok(Row {
                name: r["name"]
                    .as_str()
                    .with_context(|| format!("{}: results[{i}] has no `name`", path.display()))?
                    .to_string(),
                mbb: f("mbb_per_hand")?,
                ci95: f("ci95")?,
                hands: f("hands")? as u64,
            })
        })
        .collect()
}

fn escape(s: &str) -> String {
    s.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
        .replace('"', "&quot;")
}

/// A line chart of `(x, y)` points, y on a log scale: both axes with their ticks and values,
/// each point with its values as hover text.
fn line_chart(points: &[(f64, f64)], x_label: &str, y_label: &str) -> String {
    let (w, h, m) = (560.0, 320.0, 70.0);
    let ys: Vec<f64> = points.iter().map(|p| p.1.max(1e-6).log10()).collect();
    let (x0, x1) = points
        .iter()
        .fold((f64::MAX, f64::MIN), |(a, b), p| (a.min(p.0), b.max(p.0)));
    let (y0, y1) = ys
        .iter()
        .fold((f64::MAX, f64::MIN), |(a, b), &y| (a.min(y), b.max(y)));
    let sx = |x: f64| m + (x - x0) / (x1 - x0).max(1e-12) * (w - 1.5 * m);
    let sy = |y: f64| h - m + 20.0 - (y - y0) / (y1 - y0).max(1e-12) * (h - 1.5 * m);
    let path: Vec<String> = points
        .iter()
        .zip(&ys)
        .map(|(p, &y)| format!("{:.1},{:.1}", sx(p.0), sy(y)))
        .collect();
    let (left, bottom) = (m, sy(y0));
    let mut s = format!(
        "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"{w}\" height=\"{h}\">\
         <rect width=\"{w}\" height=\"{h}\" fill=\"#fff\" stroke=\"#ccc\"/>\
         <line x1=\"{left}\" y1=\"{top:.1}\" x2=\"{left}\" y2=\"{bottom:.1}\" stroke=\"#000\"/>\
         <line x1=\"{left}\" y1=\"{bottom:.1}\" x2=\"{right:.1}\" y2=\"{bottom:.1}\" stroke=\"#000\"/>\
         <text x=\"{cx}\" y=\"{by}\" text-anchor=\"middle\">{x_label}</text>\
         <text x=\"14\" y=\"{cy}\" text-anchor=\"middle\" transform=\"rotate(-90 14 {cy})\">{y_label}</text>",
        top = sy(y1),
        right = sx(x1),
        cx = (m + sx(x1)) / 2.0,
        by = h - 8.0,
        cy = (sy(y0) + sy(y1)) / 2.0,
    );
    // Ticks: the ends and the middle of x; on y, the ends and every power of ten between.
    for x in [x0, (x0 + x1) / 2.0, x1] {
        let _ = write!(
            s,
            "<line x1=\"{p:.1}\" y1=\"{bottom:.1}\" x2=\"{p:.1}\" y2=\"{b2:.1}\" stroke=\"#000\"/>\
             <text x=\"{p:.1}\" y=\"{ty:.1}\" text-anchor=\"middle\" font-size=\"12\">{}</text>",
            tick(x),
            p = sx(x),
            b2 = bottom + 5.0,
            ty = bottom + 20.0,
        );
    }
    let decades = (y0.ceil() as i32..=y1.floor() as i32).map(f64::from);
    let mut ticks: Vec<f64> = [y0, y1].into_iter().chain(decades).collect();
    ticks.sort_by(f64::total_cmp);
    // A decade within a few pixels of an end would print over it.
    ticks.dedup_by(|a, b| (sy(*a) - sy(*b)).abs() < 12.0);
    for y in ticks {
        let _ = write!(
            s,
            "<line x1=\"{l2}\" y1=\"{p:.1}\" x2=\"{left}\" y2=\"{p:.1}\" stroke=\"#000\"/>\
             <text x=\"{tx}\" y=\"{ty:.1}\" text-anchor=\"end\" font-size=\"12\">{}</text>",
            tick(10f64.powf(y)),
            l2 = left - 5.0,
            p = sy(y),
            tx = left - 7.0,
            ty = sy(y) + 4.0,
        );
    }
    let _ = write!(
        s,
        "<polyline fill=\"none\" stroke=\"#4c78a8\" stroke-width=\"2\" points=\"{}\"/>",
        path.join(" ")
    );
    for (p, &y) in points.iter().zip(&ys) {
        let _ = write!(
            s,
            "<circle cx=\"{:.1}\" cy=\"{:.1}\" r=\"3\" fill=\"#4c78a8\"><title>{x_label} {}: \
             {}</title></circle>",
            sx(p.0),
            sy(y),
            tick(p.0),
            tick(p.1)
        );
    }
    s += "</svg>";
    s
}

/// An axis label: whole numbers without decimals (iterations), small ones in scientific form.
fn tick(v: f64) -> String {
    if v.fract() == 0.0 && v.abs() < 1e15 {
        format!("{v:.0}")
    } else if v.abs() >= 0.01 {
        format!("{v:.3}")
    } else {
        format!("{v:.2e}")
    }
}

/// The action class of an edge: 0 fold, 1 check/call, 2 bring-in/complete/bet, 3 raise.
fn class(e: Edge, facing_bet: bool) -> usize {
    match e {
        Edge::Action(Action::Fold) => 0,
        Edge::Action(Action::CheckCall) => 1,
        Edge::Action(Action::BringIn) => 2,
        Edge::Action(Action::CompleteBetRaise(_)) if facing_bet => 3,
        _ => 2,
    }
}

/// Rows: the actor's private card; columns: the actor's door card (one column when there is
/// none). Each cell averages the first decision of the hand over the deals leading to it.
fn first_round_chart(f: &PublicFile) -> anyhow::Result<String> {
    let deck: Vec<_> = f.header().game.deck.cards().iter().collect();
    // Every path of public cards from the root to the first decision.
    let mut firsts = Vec::new();
    let mut stack = vec![(0u32, Vec::new())];
    while let Some((node, cards)) = stack.pop() {
        let n = f.node(node)?;
        if n.kind == NodeKind::Action as u8 {
            firsts.push((node, n.seat, cards));
        } else if n.kind == NodeKind::Chance as u8 {
            for (child, e) in f.children(node)? {
                if let Edge::Card(c) = e {
                    let mut next = cards.clone();
                    next.push(c);
                    stack.push((child, next));
                }
            }
        }
    }
    let ranks: Vec<_> = {
        let mut r: Vec<_> = deck.iter().map(|c| c.rank()).collect();
        r.sort();
        r.dedup();
        r
    };
    let cols = if firsts.iter().any(|f| !f.2.is_empty()) {
        ranks.len()
    } else {
        1
    };
    let mut sums = vec![[0.0f64; 4]; ranks.len() * cols];
    for (node, actor, cards) in &firsts {
        let kids = f.children(*node)?;
        let facing = kids.iter().any(|k| k.1 == Edge::Action(Action::Fold));
        let door = cards.get(*actor as usize).copied();
        let col = door.map_or(0, |d| {
            ranks.iter().position(|&r| r == d.rank()).unwrap_or(0)
        });
        for (i, c) in deck.iter().enumerate() {
            if cards.contains(c) {
                continue;
            }
            let row = ranks.iter().position(|&r| r == c.rank()).unwrap_or(0);
            let p = f.probabilities(*node, i as u32)?;
            for (k, q) in kids.iter().zip(&p) {
                sums[row * cols + col][class(k.1, facing)] += q;
            }
        }
    }
    let rows: Vec<String> = ranks.iter().map(|r| r.to_string()).collect();
    // A game with no up card on the first street (Leduc, Kuhn) has one column, and no door.
    let (cols, across) = if cols == 1 {
        (vec!["first decision".into()], "")
    } else {
        (rows.clone(), "actor's door card")
    };
    let def = &f.header().game;
    let labels = [
        "fold",
        "check/call",
        if def.first_round == abstraction::rules::FirstRound::BringIn {
            "bring-in/complete/bet"
        } else {
            "bet"
        },
        "raise",
    ];
    let cells: Vec<Option<[f64; 4]>> = sums
        .iter()
        .map(|c| {
            let mut c = *c;
            solver::kernel::normalize(&mut c).then_some(c)
        })
        .collect();
    Ok(grid_chart(
        ("private card", across),
        &rows,
        &cols,
        &cells,
        &labels,
    ))
}

/// A grid of cells, `rows × cols` (row-major in `cells`), each a bar split by the four action
/// frequencies (coloured as `legend` says), its commonest action's share written on it and
/// every share in its hover text; a cell without data is grey. `axes`: what the rows and the
/// columns are (no column title when there is one column). The legend names only the actions
/// some cell draws.
fn grid_chart<R: AsRef<str>>(
    axes: (&str, &str),
    rows: &[R],
    cols: &[String],
    cells: &[Option<[f64; 4]>],
    legend: &[&str],
) -> String {
    let (cw, ch, top) = (60.0, 26.0, 58.0);
    let left = 20.0 + 8.0 * rows.iter().map(|r| r.as_ref().len()).max().unwrap_or(4) as f64;
    let drawn: Vec<usize> = (0..legend.len())
        .filter(|&k| cells.iter().flatten().any(|c| c[k] > 0.0))
        .collect();
    // Wide enough for the grid and for the legend under it.
    let w = (left + cw * cols.len() as f64 + 20.0).max(10.0 + 210.0 * drawn.len() as f64);
    let h = top + ch * rows.len() as f64 + 60.0;
    let mut s = format!(
        "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"{w}\" height=\"{h}\">\
         <rect width=\"{w}\" height=\"{h}\" fill=\"#fff\"/>\
         <text x=\"4\" y=\"{}\" font-weight=\"bold\">{}</text>\
         <text x=\"{}\" y=\"18\" text-anchor=\"middle\" font-weight=\"bold\">{}</text>",
        top - 4.0,
        escape(axes.0),
        left + cw * cols.len() as f64 / 2.0,
        escape(axes.1)
    );
    for (j, label) in cols.iter().enumerate() {
        let _ = write!(
            s,
            "<text x=\"{}\" y=\"{}\" text-anchor=\"middle\">{}</text>",
            left + cw * (j as f64 + 0.5),
            top - 24.0,
            escape(label)
        );
    }
    for (i, r) in rows.iter().enumerate() {
        let y = top + ch * i as f64;
        let _ = write!(
            s,
            "<text x=\"{}\" y=\"{}\" text-anchor=\"end\">{}</text>",
            left - 6.0,
            y + ch * 0.7,
            escape(r.as_ref())
        );
        for (j, col) in cols.iter().enumerate() {
            let x0 = left + cw * j as f64;
            let at = if cols.len() > 1 {
                format!("{}, {} {col}", r.as_ref(), axes.1)
            } else {
                r.as_ref().to_string()
            };
            grid_cell(
                &mut s,
                (x0, y),
                (cw, ch),
                &at,
                cells[i * cols.len() + j],
                legend,
            );
        }
    }
    let ly = top + ch * rows.len() as f64 + 25.0;
    for (slot, &k) in drawn.iter().enumerate() {
        let x = 10.0 + 210.0 * slot as f64;
        let _ = write!(
            s,
            "<rect x=\"{x}\" y=\"{}\" width=\"14\" height=\"14\" fill=\"{}\"/>\
             <text x=\"{}\" y=\"{ly}\">{}</text>",
            ly - 12.0,
            COLOURS[k],
            x + 18.0,
            legend[k]
        );
    }
    s += "</svg>";
    s
}

/// One cell of [`grid_chart`] at `(x0, y)`, `(cw, ch)` in size, for the row and column `at`:
/// its bar of the action frequencies `cell` (grey without data), the commonest action's share
/// written on it and every share in its hover text.
fn grid_cell(
    s: &mut String,
    (x0, y): (f64, f64),
    (cw, ch): (f64, f64),
    at: &str,
    cell: Option<[f64; 4]>,
    legend: &[&str],
) {
    let Some(cell) = cell else {
        let _ = write!(
            s,
            "<rect x=\"{x0:.1}\" y=\"{:.1}\" width=\"{:.1}\" height=\"{:.1}\" \
             fill=\"#ddd\"><title>{}: no hands</title></rect>",
            y + 2.0,
            cw - 4.0,
            ch - 4.0,
            escape(at)
        );
        return;
    };
    let shares: Vec<String> = (0..legend.len())
        .filter(|&k| cell[k] > 0.0)
        .map(|k| format!("{} {:.1}%", legend[k], 100.0 * cell[k]))
        .collect();
    let _ = write!(
        s,
        "<g class=\"cell\"><title>{}: {}</title>",
        escape(at),
        shares.join(", ")
    );
    let mut x = x0;
    for (k, v) in cell.iter().enumerate() {
        let width = v * (cw - 4.0);
        let _ = write!(
            s,
            "<rect x=\"{x:.1}\" y=\"{:.1}\" width=\"{width:.1}\" height=\"{:.1}\" \
             fill=\"{}\"/>",
            y + 2.0,
            ch - 4.0,
            COLOURS[k]
        );
        x += width;
    }
    let top_share = cell.iter().copied().fold(0.0, f64::max);
    // White figures on a dark halo (drawn first): readable on every action's colour.
    let _ = write!(
        s,
        "<text x=\"{:.1}\" y=\"{:.1}\" text-anchor=\"middle\" font-size=\"11\" \
         font-weight=\"bold\" fill=\"#fff\" stroke=\"#000\" stroke-width=\"2.5\" \
         paint-order=\"stroke\">{:.0}%</text></g>",
        x0 + (cw - 4.0) / 2.0,
        y + ch * 0.68,
        100.0 * top_share
    );
}

/// Horizontal bars of the win rates with their 95% intervals, and a table.
fn results_chart(results: &[Row]) -> String {
    let (w, row, left) = (640.0, 34.0, 170.0);
    let h = row * results.len() as f64 + 60.0;
    let lim = results
        .iter()
        .map(|r| r.mbb.abs() + r.ci95)
        .fold(1.0f64, f64::max);
    // The bars from `left` to 70 points short of the right, where the values are written.
    let sx = |v: f64| left + (v + lim) / (2.0 * lim) * (w - left - 70.0);
    let mut s = format!(
        "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"{w}\" height=\"{h}\">\
         <rect width=\"{w}\" height=\"{h}\" fill=\"#fff\"/>\
         <line x1=\"{z}\" y1=\"0\" x2=\"{z}\" y2=\"{axis}\" stroke=\"#888\"/>\
         <line x1=\"{left}\" y1=\"{axis}\" x2=\"{right}\" y2=\"{axis}\" stroke=\"#000\"/>\
         <text x=\"{z}\" y=\"{title}\" text-anchor=\"middle\">the player's win rate, mbb/hand \
         (a bar; its 95% interval, a line)</text>",
        z = sx(0.0),
        axis = h - 40.0,
        right = sx(lim),
        title = h - 6.0,
    );
    for v in [-lim, -lim / 2.0, 0.0, lim / 2.0, lim] {
        let _ = write!(
            s,
            "<line x1=\"{x:.1}\" y1=\"{a}\" x2=\"{x:.1}\" y2=\"{b}\" stroke=\"#000\"/>\
             <text x=\"{x:.1}\" y=\"{t}\" text-anchor=\"middle\" font-size=\"12\">{v:+.0}</text>",
            x = sx(v),
            a = h - 40.0,
            b = h - 35.0,
            t = h - 22.0,
        );
    }
    let mut table = String::from(
        "<table><tr><th>match</th><th>mbb/hand</th><th>95% CI ±</th><th>hands</th></tr>",
    );
    for (i, r) in results.iter().enumerate() {
        let name = &r.name;
        let y = 10.0 + row * i as f64;
        let (a, b) = (sx(0.0).min(sx(r.mbb)), sx(0.0).max(sx(r.mbb)));
        let _ = write!(
            s,
            "<g><title>{name}: {mbb:+.1} ± {ci:.1} mbb/hand over {hands} hands</title>\
             <text x=\"4\" y=\"{ty}\">{name}</text>\
             <rect x=\"{a:.1}\" y=\"{y}\" width=\"{bw:.1}\" height=\"20\" fill=\"#4c78a8\"/>\
             <line x1=\"{l:.1}\" y1=\"{cy}\" x2=\"{r_:.1}\" y2=\"{cy}\" stroke=\"#000\" \
             stroke-width=\"2\"/>\
             <text x=\"{vx:.1}\" y=\"{ty}\" text-anchor=\"end\" font-size=\"12\">{mbb:+.1}</text></g>",
            ty = y + 15.0,
            name = escape(name),
            bw = (b - a).max(1.0),
            l = sx(r.mbb - r.ci95),
            r_ = sx(r.mbb + r.ci95),
            cy = y + 10.0,
            mbb = r.mbb,
            ci = r.ci95,
            hands = r.hands,
            // The values in a column of their own at the right.
            vx = w - 4.0,
        );
        let _ = write!(
            table,
            "<tr><td>{}</td><td>{:+.1}</td><td>{:.1}</td><td>{}</td></tr>",
            escape(name),
            r.mbb,
            r.ci95,
            r.hands
        );
    }
    s += "</svg>";
    table += "</table>";
    s + &table
}
