//! Choices of a few named values (a command-line flag's, a file's): one reading and one
//! spelling of their names.

/// A choice among a few values, each with a name.
pub trait Named: Copy + PartialEq + 'static {
    /// Every value, by name.
    const ALL: &'static [(&'static str, Self)];
    /// What a value is, for a refusal ("a view").
    const WHAT: &'static str;

    /// The value named `name`.
    fn parse(name: &str) -> Option<Self> {
        Self::ALL.iter().find(|(n, _)| *n == name).map(|&(_, v)| v)
    }

    /// Its name, as [`Named::parse`] reads it.
    fn name(self) -> &'static str {
        Self::ALL
            .iter()
            .find(|(_, v)| *v == self)
            .map_or("", |(n, _)| n)
    }

    /// [`Named::parse`], refusing a name that is none with the names there are.
    fn parse_or_list(name: &str) -> Result<Self, String> {
        Self::parse(name).ok_or_else(|| {
            let names: Vec<&str> = Self::ALL.iter().map(|(n, _)| *n).collect();
            format!(
                "{name:?} is not {}: use one of {}",
                Self::WHAT,
                names.join(", ")
            )
        })
    }
}
