//! Every relative link of the repository's Markdown (README, guide, notes, strategies) leads
//! somewhere: the file exists, and a `#anchor` into a Markdown file names one of its headings
//! as GitHub spells them. A renamed heading otherwise breaks links silently.

use std::collections::{HashMap, HashSet};
use std::path::{Path, PathBuf};

/// The repository's root.
fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("..")
}

/// The Markdown files below `dir`, build output and virtual environments left out.
fn markdown(dir: &Path, out: &mut Vec<PathBuf>) {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    for entry in entries.flatten() {
        let path = entry.path();
        let name = entry.file_name().to_string_lossy().into_owned();
        if path.is_dir() {
            if !name.starts_with('.') && !["target", "node_modules", "venv"].contains(&&*name) {
                markdown(&path, out);
            }
        } else if name.ends_with(".md") {
            out.push(path);
        }
    }
}

/// The lines of `text` outside fenced code blocks, numbered from 1.
fn prose(text: &str) -> impl Iterator<Item = (usize, &str)> {
    let mut fenced = false;
    text.lines().enumerate().filter_map(move |(i, line)| {
        if line.trim_start().starts_with("```") {
            fenced = !fenced;
            return None;
        }
        (!fenced).then_some((i + 1, line))
    })
}

/// A heading's anchor as GitHub makes it: lower case, every character but letters, digits,
/// `-`, `_` and spaces dropped, spaces as `-`.
fn slug(heading: &str) -> String {
    heading
        .trim()
        .to_lowercase()
        .chars()
        .filter(|c| c.is_alphanumeric() || matches!(c, '-' | '_' | ' '))
        .map(|c| if c == ' ' { '-' } else { c })
        .collect()
}

/// The anchors of a Markdown file's headings (a repeated one numbered `-1`, `-2`, … after the
/// first, as GitHub does).
fn anchors(text: &str) -> HashSet<String> {
    let mut out = HashSet::new();
    for (_, line) in prose(text) {
        let level = line.chars().take_while(|&c| c == '#').count();
        if !(1..=6).contains(&level) || !line[level..].starts_with(' ') {
            continue;
        }
        let s = slug(&line[level..]);
        let mut name = s.clone();
        let mut n = 0;
        while out.contains(&name) {
            n += 1;
            name = format!("{s}-{n}");
        }
        out.insert(name);
    }
    out
}

/// The targets of a line's inline links, `[text](target)`.
fn targets(line: &str) -> Vec<&str> {
    let mut out = Vec::new();
    let mut rest = line;
    while let Some(at) = rest.find("](") {
        let after = &rest[at + 2..];
        let end = after.find([')', ' ']).unwrap_or(after.len());
        out.push(&after[..end]);
        rest = &after[end..];
    }
    out
}

#[test]
fn every_relative_link_in_the_markdown_leads_to_a_file_and_a_heading() {
    let mut files = Vec::new();
    markdown(&root(), &mut files);
    assert!(
        files.len() > 20,
        "the Markdown files were not found: {files:?}"
    );
    let mut broken = Vec::new();
    let mut checked = 0;
    // Each file's headings, read once however many links point into it.
    let mut headings: HashMap<PathBuf, HashSet<String>> = HashMap::new();
    for file in &files {
        let text = std::fs::read_to_string(file).unwrap();
        for (n, line) in prose(&text) {
            for target in targets(line) {
                if target.contains("://") || target.starts_with("mailto:") {
                    continue;
                }
                checked += 1;
                let (path, anchor) = target.split_once('#').unwrap_or((target, ""));
                let to = match path {
                    "" => file.clone(),
                    p => file.parent().unwrap().join(p),
                };
                let shown = format!("{}:{n}: {target}", file.display());
                if !to.exists() {
                    broken.push(format!("{shown} (no such file)"));
                } else if !anchor.is_empty() && to.extension().is_some_and(|e| e == "md") {
                    let known = headings
                        .entry(to.canonicalize().unwrap())
                        .or_insert_with(|| anchors(&std::fs::read_to_string(&to).unwrap()));
                    if !known.contains(anchor) {
                        broken.push(format!("{shown} (no such heading)"));
                    }
                }
            }
        }
    }
    assert!(checked > 100, "only {checked} links were read");
    assert!(broken.is_empty(), "broken links:\n{}", broken.join("\n"));
}

#[test]
fn anchors_are_spelled_as_github_spells_them() {
    assert_eq!(
        slug(" Re-solving the last street: `--resolve`"),
        "re-solving-the-last-street---resolve"
    );
    assert_eq!(
        slug(" Does search help in seven-card stud? (issue 43, items 2 and 6; 2026-12-05)"),
        "does-search-help-in-seven-card-stud-issue-43-items-2-and-6-2026-12-05"
    );
    let text = "# A\n```\n# not a heading\n```\n## A\n#no\n";
    let got = anchors(text);
    assert_eq!(got, HashSet::from(["a".to_string(), "a-1".to_string()]));
    assert_eq!(
        targets("see [x](a.md#b) and [y](../c.md), not [z]"),
        ["a.md#b", "../c.md"]
    );
}
