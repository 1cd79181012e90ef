//! PHHS, phh-std's many-hand file: each hand is the text under a `[name]` table header, read as
//! a PHH file of its own. A file with no such header is one PHH hand.

/// One hand of a file: its name (`[n]` in a PHHS file), its text, and the line of the file its
/// text starts on, less one (what is added to a line of the text to name the file's line).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct HandText<'a> {
    /// The table header's name, `None` for a single-hand PHH file.
    pub name: Option<&'a str>,
    /// The hand's own PHH text.
    pub text: &'a str,
    /// Lines of the file before the text.
    pub offset: usize,
}

impl HandText<'_> {
    /// The file's line of the text's line `line` (1-based; 0, no line, stays 0).
    pub fn file_line(&self, line: usize) -> usize {
        if line == 0 {
            0
        } else {
            line + self.offset
        }
    }
}

/// The hands of a file: one for a PHH file; for a PHHS file, the text under each `[name]`
/// table header.
pub fn hands_of(text: &str) -> Vec<HandText<'_>> {
    let mut hands: Vec<HandText> = Vec::new();
    let mut at = 0;
    for (i, line) in text.split_inclusive('\n').enumerate() {
        if let Some(name) = table_header(line) {
            if let Some(last) = hands.last_mut() {
                last.text = &text[last.text.as_ptr() as usize - text.as_ptr() as usize..at];
            }
            hands.push(HandText {
                name: Some(name),
                text: &text[at + line.len()..],
                offset: i + 1,
            });
        }
        at += line.len();
    }
    if hands.is_empty() {
        hands.push(HandText {
            name: None,
            text,
            offset: 0,
        });
    }
    hands
}

/// The name of a `[name]` table header line (not an `[[array]]`).
fn table_header(line: &str) -> Option<&str> {
    let l = line.trim();
    (l.starts_with('[') && l.ends_with(']') && !l.starts_with("[["))
        .then(|| l[1..l.len() - 1].trim())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn splits_on_table_headers_and_keeps_file_lines() {
        let text = "[1]\nvariant = 'F7S'\n[2]\na = 1\nb = 2\n";
        let hands = hands_of(text);
        assert_eq!(hands.len(), 2);
        assert_eq!(hands[0].name, Some("1"));
        assert_eq!(hands[0].text, "variant = 'F7S'\n");
        assert_eq!(hands[1].text, "a = 1\nb = 2\n");
        // `b = 2` is the text's second line and the file's fifth.
        assert_eq!(hands[1].file_line(2), 5);
        let one = hands_of("variant = 'F7S'\n");
        assert_eq!((one.len(), one[0].name, one[0].offset), (1, None, 0));
        assert_eq!(hands_of("x = [[1]]\n[[a]]\n").len(), 1);
    }
}
