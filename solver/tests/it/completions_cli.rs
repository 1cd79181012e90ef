//! `stud completions` and `stud man`: made from the command line's definition, every command in.

use crate::common;

use common::{err, ok, stud};

#[test]
fn completions_name_every_command_and_bash_reads_its_script() {
    for shell in ["bash", "zsh", "fish", "elvish", "powershell"] {
        let script = ok(&stud(&["completions", shell], ""));
        for command in ["query", "explore", "export", "eval", "man"] {
            assert!(script.contains(command), "{shell}: {command}");
        }
    }
    let dir = std::env::temp_dir().join(format!("stud-completions-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let file = dir.join("stud.bash");
    std::fs::write(&file, ok(&stud(&["completions", "bash"], ""))).unwrap();
    // Parsed, not run: a syntax error fails.
    let check = std::process::Command::new("bash")
        .arg("-n")
        .arg(&file)
        .output()
        .unwrap();
    assert!(
        check.status.success(),
        "{}",
        String::from_utf8_lossy(&check.stderr)
    );
    std::fs::remove_dir_all(&dir).unwrap();
    let e = err(&stud(&["completions", "tcsh"], ""));
    assert!(e.contains("bash"), "{e}");
}

#[test]
fn man_pages_for_stud_and_its_subcommands() {
    let page = ok(&stud(&["man"], ""));
    assert!(page.contains(".TH stud 1"), "{page}");
    assert!(page.contains("stud\\-explore(1)"), "{page}");
    let lbr = ok(&stud(&["man", "eval lbr"], ""));
    assert!(lbr.contains(".TH stud-eval-lbr 1"), "{lbr}");
    assert!(lbr.contains("\\-\\-candidates"), "{lbr}");
    let e = err(&stud(&["man", "eval nope"], ""));
    assert!(
        e.contains("`stud eval` has no subcommand `nope`: it has lbr, ladder"),
        "{e}"
    );
}
