//! Replays the corpus committed to the repository, on the stable toolchain, as a regression
//! suite: every file of `fuzz/corpus/TARGET/`, one directory per fuzz target, through its
//! target's function. At commit 03a142d that is 220 files in 14 directories: for the 13 Rust
//! targets 180 files (142 seeds `seed-*` made from real traffic, 7 inputs that once failed
//! `crash-*`, one that was slow `slow-*`, and 30 inputs of `get_point` that a fuzzing run
//! found, committed under their SHA-1), and for the Python target `saiblo_main_py`
//! (`fuzz/python/TARGET.py`, atheris) 40, which it replays itself with `--replay`, without
//! atheris. What the fuzzers keep between runs, `fuzz/target/corpus/TARGET/` (outside the
//! repository, grown by every `scripts/fuzz.sh` run), is not replayed here. Also checks that
//! the corpora, the fuzz targets and [`TARGETS`] name the same set, so no target goes
//! unreplayed. A plain `cargo test` at the root runs this too (fuzz/harness is a default
//! member of the workspace).

use std::collections::BTreeSet;
use std::panic::{AssertUnwindSafe, catch_unwind};
use std::path::{Path, PathBuf};
use std::process::Command;

use gravity4_fuzzing::TARGETS;

fn fuzz_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("..")
}

/// The names of the entries of `dir` that end in `suffix`, without it.
fn names(dir: &Path, suffix: &str) -> BTreeSet<String> {
    std::fs::read_dir(dir)
        .unwrap_or_else(|e| panic!("{}: {e}", dir.display()))
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .filter_map(|n| n.strip_suffix(suffix).map(str::to_owned))
        .collect()
}

#[test]
fn targets_corpora_and_fuzz_targets_match() {
    let listed: BTreeSet<String> = TARGETS.iter().map(|(n, _)| n.to_string()).collect();
    let python = names(&fuzz_dir().join("python"), ".py");
    assert!(python.is_disjoint(&listed), "{python:?}");
    assert_eq!(
        names(&fuzz_dir().join("corpus"), ""),
        listed.union(&python).cloned().collect(),
        "fuzz/corpus/"
    );
    assert_eq!(
        names(&fuzz_dir().join("fuzz_targets"), ".rs"),
        listed,
        "fuzz/fuzz_targets/"
    );
}

#[test]
fn every_corpus_file_keeps_its_targets_promise() {
    let mut failures = Vec::new();
    for (name, target) in TARGETS {
        let dir = fuzz_dir().join("corpus").join(name);
        let mut files: Vec<PathBuf> = std::fs::read_dir(&dir)
            .unwrap_or_else(|e| panic!("{}: {e}", dir.display()))
            .map(|e| e.unwrap().path())
            .collect();
        files.sort();
        assert!(!files.is_empty(), "{}: no seeds", dir.display());
        for file in files {
            let data = std::fs::read(&file).unwrap();
            if catch_unwind(AssertUnwindSafe(|| target(&data))).is_err() {
                failures.push(file.display().to_string());
            }
        }
    }
    assert!(
        failures.is_empty(),
        "inputs that broke their target's promise (the panics above say how; \
         `cargo +nightly fuzz run TARGET FILE` under the fuzzer):\n  {}",
        failures.join("\n  ")
    );
}

#[test]
fn every_python_corpus_file_keeps_its_targets_promise() {
    for name in names(&fuzz_dir().join("python"), ".py") {
        let script = fuzz_dir().join("python").join(format!("{name}.py"));
        let output = Command::new("python3")
            .arg(&script)
            .arg("--replay")
            .arg(fuzz_dir().join("corpus").join(&name))
            .output()
            .unwrap_or_else(|e| panic!("python3 {}: {e}", script.display()));
        assert!(
            output.status.success(),
            "{name}: {}",
            String::from_utf8_lossy(&output.stderr)
        );
    }
}
