//! The code's shape, checked by the repository's own scripts (issue 48): no function over 80
//! lines outside tests, examples and benches (`scripts/long-functions.py`), and no run of 6 or
//! more lines written again in a second crate (`scripts/duplicates.py`). Each check is also
//! shown to fail on a planted fault, so a script that silently stopped finding anything would
//! fail here too.

use std::path::Path;
use std::process::{Command, Output};

const ROOT: &str = env!("CARGO_MANIFEST_DIR");

/// Runs `python3 scripts/NAME` with `args` from the repository's root.
fn script(name: &str, args: &[&str]) -> Output {
    Command::new("python3")
        .arg(Path::new(ROOT).join("scripts").join(name))
        .args(args)
        .current_dir(ROOT)
        .output()
        .expect("these checks need python3")
}

fn text(out: &Output) -> String {
    format!(
        "{}{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    )
}

#[test]
fn no_function_is_over_80_lines() {
    let out = script("long-functions.py", &[]);
    assert!(
        out.status.success(),
        "split these functions into named phases:\n{}",
        text(&out)
    );
}

#[test]
fn no_lines_are_repeated_across_crates() {
    let out = script("duplicates.py", &[]);
    assert!(
        out.status.success(),
        "these runs are written in two crates; give them one home:\n{}",
        text(&out)
    );
}

/// A directory of its own under the system's temporary directory, removed on drop.
struct Scratch(std::path::PathBuf);

impl Scratch {
    fn new(name: &str) -> Scratch {
        let dir = std::env::temp_dir().join(format!("code-shape-{name}-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        Scratch(dir)
    }

    /// Writes `text` to `path` below the directory, making its folders.
    fn write(&self, path: &str, text: &str) {
        let path = self.0.join(path);
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        std::fs::write(path, text).unwrap();
    }
}

impl Drop for Scratch {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

/// A body of `lines` statements, each a distinct line.
fn body(lines: usize, seed: &str) -> String {
    (0..lines)
        .map(|i| format!("    let {seed}{i} = {i} * 3 + {};\n", i % 7))
        .collect()
}

#[test]
fn a_planted_long_function_is_found_and_a_test_module_is_not() {
    let dir = Scratch::new("long");
    let src = dir.0.join("src");
    std::fs::create_dir(&src).unwrap();
    // `planted`: 1 signature line + 1 string line + 78 statements + 1 closing brace = 81
    // lines, one over the limit (its string's braces must not end it early); `at_limit` is
    // 80 lines; the test module's function is longer and must not be listed.
    let code = format!(
        "fn at_limit() {{\n{}}}\n\nfn planted() {{\n    let s = \"}}{{\";\n{}}}\n\n#[cfg(test)]\nmod tests {{\n    fn in_tests() {{\n{}    }}\n}}\n",
        body(78, "a"),
        body(78, "b"),
        body(90, "c")
    );
    std::fs::write(src.join("lib.rs"), code).unwrap();
    let out = script("long-functions.py", &[dir.0.to_str().unwrap()]);
    let listed = text(&out);
    assert!(!out.status.success(), "{listed}");
    assert!(
        listed.contains("  81 ") && listed.contains("planted"),
        "{listed}"
    );
    assert!(
        !listed.contains("in_tests") && !listed.contains("at_limit"),
        "{listed}"
    );
}

#[test]
fn a_run_planted_in_two_crates_is_found_and_one_in_their_tests_is_not() {
    let dir = Scratch::new("dup");
    let shared = body(6, "x");
    let in_tests = body(12, "t");
    for krate in ["one", "two"] {
        dir.write(&format!("{krate}/Cargo.toml"), "[package]\n");
        dir.write(
            &format!("{krate}/src/lib.rs"),
            &format!("fn {krate}() {{\n    let own = \"{krate}\";\n{shared}}}\n"),
        );
        dir.write(
            &format!("{krate}/tests/t.rs"),
            &format!("fn t() {{\n{in_tests}}}\n"),
        );
    }
    let git = Command::new("git")
        .args(["init", "-q"])
        .current_dir(&dir.0)
        .status()
        .expect("this check needs git");
    assert!(git.success());
    let out = script("duplicates.py", &[dir.0.to_str().unwrap()]);
    let listed = text(&out);
    assert!(!out.status.success(), "{listed}");
    assert!(
        listed.contains("one/src/lib.rs:3-8") && listed.contains("two/src/lib.rs:3-8"),
        "{listed}"
    );
    assert!(!listed.contains("tests/t.rs"), "{listed}");
}
