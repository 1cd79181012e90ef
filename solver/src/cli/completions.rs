//! `stud completions SHELL` and `stud man [COMMAND]`: shell completions and manual pages made
//! from the command line's own definition, so that they never disagree with `--help`.

use anyhow::{Context, Result};
use std::io::Write;

/// Arguments of `stud completions`.
#[derive(clap::Args, Debug)]
#[command(after_help = "Examples:\n  \
    mkdir -p ~/.local/share/bash-completion/completions && stud completions bash > ~/.local/share/bash-completion/completions/stud\n  \
    mkdir -p ~/.zfunc && stud completions zsh > ~/.zfunc/_stud\n  \
    mkdir -p ~/.config/fish/completions && stud completions fish > ~/.config/fish/completions/stud.fish\n\n\
    Each folder is one the shell reads completions from (zsh: add ~/.zfunc to fpath in ~/.zshrc).")]
pub struct Args {
    /// The shell.
    #[arg(value_enum)]
    pub shell: clap_complete::Shell,
}

/// Arguments of `stud man`.
#[derive(clap::Args, Debug)]
#[command(after_help = "Examples:\n  \
    stud man > stud.1 && man ./stud.1\n  \
    stud man query > stud-query.1\n  \
    stud man \"eval lbr\" > stud-eval-lbr.1")]
pub struct ManArgs {
    /// A subcommand (`query`, or `"eval lbr"` for a nested one): its page instead of stud's.
    pub command: Option<String>,
}

/// Prints the completion script of `shell` for the command `cli`.
pub fn completions(args: &Args, mut cli: clap::Command) -> Result<()> {
    let mut out = std::io::stdout().lock();
    clap_complete::generate(args.shell, &mut cli, "stud", &mut out);
    out.flush()?;
    Ok(())
}

/// Prints the roff manual page of `cli`, or of the subcommand `args.command` names.
pub fn man(args: &ManArgs, cli: clap::Command) -> Result<()> {
    let mut cli = cli;
    // Subcommands know their full name (`stud-eval-lbr`) only once the tree is built.
    cli.build();
    let mut page = cli.clone();
    let mut name = vec!["stud".to_string()];
    for word in args.command.iter().flat_map(|c| c.split_whitespace()) {
        page = page
            .find_subcommand(word)
            .with_context(|| {
                let known: Vec<&str> = page.get_subcommands().map(|c| c.get_name()).collect();
                format!(
                    "`{}` has no subcommand `{word}`: it has {}",
                    name.join(" "),
                    if known.is_empty() {
                        "none".to_string()
                    } else {
                        known.join(", ")
                    }
                )
            })?
            .clone();
        name.push(word.to_string());
    }
    let mut out = std::io::stdout().lock();
    clap_mangen::Man::new(page)
        .title(name.join("-"))
        .source(format!("stud {}", env!("CARGO_PKG_VERSION")))
        .render(&mut out)?;
    out.flush()?;
    Ok(())
}
