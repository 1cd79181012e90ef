//! The page of `stud review --html`: one self-contained HTML file (no script, no fetch), with a
//! chart of the decisions and leaks by street and spot, the biggest leaks, and each hand
//! replayed decision by decision (the cards, the action, the strategy's frequencies, the values
//! and the loss).

use abstraction::rules::seat_name;
use solver::review::{HandReview, Options, Reviewed, Summary};
use std::fmt::Write as _;

/// Escapes text for HTML.
fn escape(s: &str) -> String {
    s.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
        .replace('"', "&quot;")
}

const STYLE: &str = "body{font-family:sans-serif;margin:2em;max-width:70em}\
table{border-collapse:collapse;margin:.5em 0}td,th{border:1px solid #ccc;padding:2px 6px;\
text-align:left}tr.leak{background:#fde2e2}.bar{display:inline-block;height:.8em;\
background:#4a7bd0}.taken{font-weight:bold}section.hand{border-top:2px solid #888;\
margin-top:1.5em}.cards{font-family:monospace}";

/// The page.
pub fn page(hands: &[HandReview], s: &Summary, hero: &str, options: &Options) -> String {
    let mut out = String::new();
    let _ = write!(
        out,
        "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\"/>\
         <title>Review of {h}</title><style>{STYLE}</style></head><body>\
         <h1>Review of {h}</h1>",
        h = escape(hero)
    );
    let a = &s.all;
    let _ = write!(
        out,
        "<p id=\"totals\">{} hands, {} decisions, {} leaks ({} rare: the strategy plays them \
         under {:.0}%; {} losing value); value lost on leaks {:.1} chips; {} decisions with values.</p>",
        s.hands,
        a.decisions,
        a.leaks,
        a.rare,
        options.threshold * 100.0,
        a.losing,
        a.leak_loss,
        a.valued
    );
    out += "<h2>Decisions and leaks by street and spot</h2>";
    out += &chart(s);
    out += "<h2>Biggest leaks</h2><table id=\"biggest\"><tr><th>where</th><th>leaks</th>\
            <th>decisions</th><th>lost on leaks (chips)</th><th>mean frequency</th></tr>";
    for g in &s.biggest {
        let _ = write!(
            out,
            "<tr><td>{}</td><td>{}</td><td>{}</td><td>{:.1}</td><td>{:.0}%</td></tr>",
            escape(&g.name()),
            g.leaks,
            g.decisions,
            g.leak_loss,
            g.mean_frequency * 100.0
        );
    }
    out += "</table><h2>Hands</h2>";
    for (i, h) in hands.iter().enumerate() {
        hand(&mut out, i, h);
    }
    out += "</body></html>\n";
    out
}

/// The chart: per street and spot, a bar of its decisions with its leaks in red, and the value
/// lost written beside.
fn chart(s: &Summary) -> String {
    let (row, left, width) = (22.0, 260.0, 360.0);
    let most = s
        .by_spot
        .iter()
        .map(|g| g.decisions)
        .max()
        .unwrap_or(1)
        .max(1) as f64;
    let h = row * s.by_spot.len() as f64 + 30.0;
    let mut svg = format!(
        "<svg id=\"chart\" xmlns=\"http://www.w3.org/2000/svg\" width=\"{w}\" height=\"{h}\">",
        w = left + width + 160.0
    );
    for (i, g) in s.by_spot.iter().enumerate() {
        let y = 10.0 + row * i as f64;
        let all = width * g.decisions as f64 / most;
        let leaks = width * g.leaks as f64 / most;
        let _ = write!(
            svg,
            "<g class=\"spot\" data-decisions=\"{d}\" data-leaks=\"{l}\">\
             <text x=\"{tx}\" y=\"{ty}\" text-anchor=\"end\" font-size=\"12\">{name}</text>\
             <rect x=\"{left}\" y=\"{y}\" width=\"{all:.1}\" height=\"16\" fill=\"#9db7e3\"/>\
             <rect x=\"{left}\" y=\"{y}\" width=\"{leaks:.1}\" height=\"16\" fill=\"#d04a4a\"/>\
             <text x=\"{vx:.1}\" y=\"{ty}\" font-size=\"12\">{l} of {d}{lost}</text><title>{name}: \
             {l} leaks of {d} decisions</title></g>",
            d = g.decisions,
            l = g.leaks,
            tx = left - 6.0,
            ty = y + 12.0,
            name = escape(&g.name()),
            vx = left + all + 6.0,
            lost = match g.valued {
                0 => String::new(),
                _ => format!(", {:.1} chips lost", g.leak_loss),
            },
        );
    }
    let _ = write!(
        svg,
        "<text x=\"{left}\" y=\"{y}\" font-size=\"11\">blue: decisions; red: leaks</text></svg>",
        y = h - 6.0
    );
    svg
}

/// One hand: a table of the hero's decisions.
fn hand(out: &mut String, i: usize, h: &HandReview) {
    let name = (h.players.as_ref())
        .and_then(|p| p.get(h.hero as usize))
        .map_or(String::new(), |n| format!(" ({})", escape(n)));
    let _ = write!(
        out,
        "<section class=\"hand\" id=\"hand-{i}\" data-decisions=\"{}\"><h3>{}</h3><p>{} at {} \
         seats, {}{name} reviewed against {} ({} rules){}</p>",
        h.decisions.len(),
        escape(&h.source),
        escape(&h.game),
        h.seats,
        seat_name(h.hero),
        escape(&h.strategy),
        h.rules,
        h.net
            .map_or(String::new(), |n| format!("; result {n:+} chips")),
    );
    if let Some(why) = &h.no_values {
        let _ = write!(out, "<p>{}</p>", escape(why));
    }
    out.push_str(
        "<table><tr><th>street</th><th>up cards</th><th>hero's cards</th><th>pot</th>\
         <th>spot</th><th>strategy (frequency, value in chips)</th><th>loss</th></tr>",
    );
    for d in &h.decisions {
        decision(out, h, d);
    }
    out.push_str("</table></section>");
}

/// One decision's row.
fn decision(out: &mut String, h: &HandReview, d: &Reviewed) {
    let ups: Vec<String> = (d.up.iter().enumerate())
        .map(|(s, c)| {
            let folded = if d.live.contains(&(s as u8)) {
                ""
            } else {
                " (folded)"
            };
            format!("{}: {}{folded}", seat_name(s), c.join(" "))
        })
        .collect();
    let mut actions = String::new();
    for (a, w) in d.words.iter().enumerate() {
        let value = d.values.as_ref().and_then(|v| {
            let c = v.chips[a]?;
            Some(match v.plus_minus.as_ref().and_then(|p| p[a]) {
                Some(pm) => format!(" {c:+.1} ±{pm:.1}"),
                None => format!(" {c:+.1}"),
            })
        });
        let _ = write!(
            actions,
            "<div{cls}>{w} {f:.0}% <span class=\"bar\" style=\"width:{px:.0}px\"></span>{v}</div>",
            cls = if a == d.taken { " class=\"taken\"" } else { "" },
            w = escape(w),
            f = d.frequencies[a] * 100.0,
            px = 80.0 * d.frequencies[a],
            v = value.unwrap_or_default(),
        );
    }
    let loss = match (&d.values, &d.no_values) {
        (Some(v), _) => match v.loss_plus_minus {
            Some(pm) => format!("{:.1} ±{pm:.1}", v.loss),
            None => format!("{:.1} (exact)", v.loss),
        },
        (None, Some(why)) => format!("no value: {}", escape(why)),
        (None, None) => "-".into(),
    };
    let _ = write!(
        out,
        "<tr class=\"decision{leak}\" data-frequency=\"{f:.4}\"><td>{street}</td>\
         <td class=\"cards\">{ups}</td><td class=\"cards\">{down} | {up}</td><td>{pot}</td>\
         <td>{spot}</td><td>{actions}</td><td>{loss}</td></tr>",
        leak = if d.leak() { " leak" } else { "" },
        f = d.frequency(),
        street = escape(&d.street_name),
        ups = ups.join("<br/>"),
        down = d.down.join(" "),
        up = d.up[h.hero as usize].join(" "),
        pot = d.pot,
        spot = d.spot.words(),
    );
}
