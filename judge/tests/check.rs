//! `judge check` end to end: each misbehaving fixture library gets its verdict on the item
//! it breaks, our own library and a student-style C++ library pass every item, the
//! reproducing commands reproduce, and the check leaves nothing in its working directory
//! or `TMPDIR`.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};
use std::sync::OnceLock;

use serde_json::Value;

mod common;

use common::{FIXTURES, our_library};

/// The fixture libraries, compiled once into a temp dir: C with `cc`, C++ with `g++` (as
/// a student builds), the student's library from `fixtures/student/`.
fn libs() -> &'static Path {
    static DIR: OnceLock<tempfile::TempDir> = OnceLock::new();
    DIR.get_or_init(|| {
        let dir = tempfile::tempdir().expect("temp dir");
        for name in [
            "legal",
            "abort",
            "segfault",
            "exit3",
            "fromboard",
            "null",
            "hang",
            "sleepy",
            "memhog",
            "leaky",
            "flood",
            "writer",
            "writetop",
            "writeboard",
            "swapped",
            "slowinit",
        ] {
            common::fixture(dir.path(), name, &[]);
        }
        let gxx = |args: &[&str], cwd: &Path| {
            let status = Command::new("g++")
                .args(args)
                .current_dir(cwd)
                .status()
                .expect("these tests need a C++ compiler (g++)");
            assert!(status.success(), "g++ {args:?} failed");
        };
        let mangled = dir.path().join("mangled.so");
        gxx(
            &[
                "-O1",
                "-shared",
                "-fPIC",
                "-o",
                mangled.to_str().unwrap(),
                "mangled.cpp",
            ],
            Path::new(FIXTURES),
        );
        // The student's library, built exactly as the course's framework says.
        let student = dir.path().join("student");
        std::fs::create_dir(&student).unwrap();
        for entry in std::fs::read_dir(Path::new(FIXTURES).join("student")).unwrap() {
            let src = entry.unwrap().path();
            std::fs::copy(&src, student.join(src.file_name().unwrap())).unwrap();
        }
        gxx(
            &[
                "-shared",
                "-fPIC",
                "-O2",
                "Strategy.cpp",
                "Judge.cpp",
                "-o",
                "Strategy.so",
            ],
            &student,
        );
        dir
    })
    .path()
}

fn lib(name: &str) -> PathBuf {
    libs().join(format!("{name}.so"))
}

/// What a check came to.
struct Checked {
    out: Output,
    json: Value,
    dir: tempfile::TempDir,
}

impl Checked {
    fn code(&self) -> i32 {
        self.out.status.code().expect("an exit status")
    }

    fn stdout(&self) -> String {
        String::from_utf8_lossy(&self.out.stdout).into_owned()
    }

    /// The item `id` of check.json.
    fn item(&self, id: &str) -> &Value {
        self.json["items"]
            .as_array()
            .unwrap()
            .iter()
            .find(|i| i["id"] == id)
            .unwrap_or_else(|| panic!("no item {id}"))
    }

    fn verdict(&self, id: &str) -> &str {
        self.item(id)["verdict"].as_str().unwrap()
    }

    fn evidence(&self, id: &str) -> &str {
        self.item(id)["evidence"].as_str().unwrap()
    }

    /// Every item's verdict, in order.
    fn verdicts(&self) -> Vec<(String, String)> {
        self.json["items"]
            .as_array()
            .unwrap()
            .iter()
            .map(|i| {
                (
                    i["id"].as_str().unwrap().into(),
                    i["verdict"].as_str().unwrap().into(),
                )
            })
            .collect()
    }
}

/// `judge check LIB --ladder none --seed 1 EXTRA...` from an empty working directory with
/// a private TMPDIR (both must be empty afterwards), into a fresh directory; `env` is set
/// for the judge (and so for the library's processes).
fn check(library: &Path, extra: &[&str], env: &[(&str, &str)]) -> Checked {
    let dir = tempfile::tempdir().unwrap();
    let out_dir = dir.path().join("check");
    let cwd = tempfile::tempdir().unwrap();
    let tmp = tempfile::tempdir().unwrap();
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_judge"));
    cmd.arg("check")
        .arg(library)
        .args(["--ladder", "none", "--seed", "1", "--out"])
        .arg(&out_dir)
        .args(extra)
        .current_dir(cwd.path())
        .env("TMPDIR", tmp.path());
    for (k, v) in env {
        cmd.env(k, v);
    }
    let out = cmd.output().expect("run judge check");
    for d in [cwd.path(), tmp.path()] {
        let left: Vec<_> = std::fs::read_dir(d).unwrap().collect();
        assert!(left.is_empty(), "{} not empty: {left:?}", d.display());
    }
    let text = std::fs::read_to_string(out_dir.join("check.json")).unwrap_or_else(|e| {
        panic!(
            "no check.json ({e}):\n{}\n{}",
            String::from_utf8_lossy(&out.stdout),
            String::from_utf8_lossy(&out.stderr)
        )
    });
    Checked {
        out,
        json: serde_json::from_str(&text).unwrap(),
        dir,
    }
}

/// Checks that `library` fails (exit 1) on item `id` with `words` in its evidence, and
/// returns the check.
fn fails_on(library: &str, id: &str, words: &str) -> Checked {
    let c = check(&lib(library), &["--memory-limit-mb", "256"], &[]);
    assert_eq!(c.code(), 1, "{library}:\n{}", c.stdout());
    assert_eq!(c.verdict(id), "fail", "{library}: {:?}", c.verdicts());
    assert!(
        c.evidence(id).contains(words),
        "{library}: {}",
        c.evidence(id)
    );
    assert!(c.item(id)["advice"].is_string(), "{library}: what to do");
    // The terminal shows the item's line.
    assert!(
        c.stdout()
            .lines()
            .any(|l| l.starts_with(&format!("fail  {id:<11}"))),
        "{}",
        c.stdout()
    );
    c
}

#[test]
fn a_crash_an_abort_or_an_exit_fails_the_contract() {
    for (name, what) in [
        ("segfault", "SIGSEGV"),
        ("abort", "SIGABRT"),
        ("exit3", "exit status 3"),
    ] {
        let c = fails_on(name, "contract", what);
        // A crash everywhere: three calls, then the rest are not called.
        let called = c.json["calls"]
            .as_array()
            .unwrap()
            .iter()
            .filter(|call| call["outcome"]["kind"] != "not-called")
            .count();
        assert_eq!(called, 3, "{name}");
        assert_eq!(c.verdict("loading"), "pass", "{name}");
    }
}

#[test]
fn an_illegal_answer_fails_the_contract_and_its_command_reproduces_it() {
    let c = fails_on("fromboard", "contract", "is the blocked cell");
    // The positions where the blocked cell lies under the free cells are the ones it fails.
    let failed: Vec<&Value> = c.json["calls"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|call| call["outcome"]["kind"] == "illegal")
        .collect();
    assert!(failed.len() >= 3, "{failed:?}");
    assert!(
        failed.iter().any(|call| call["name"]
            .as_str()
            .unwrap()
            .contains("its column, still empty")),
        "{failed:?}"
    );
    assert_eq!(c.verdict("one-process"), "pass", "{:?}", c.verdicts());
    let advice = c.item("contract")["advice"].as_str().unwrap();
    assert!(
        advice.contains("take the row from top") && !advice.contains("swapped"),
        "{advice}"
    );
    let repro = c.item("contract")["reproduce"][0].as_str().unwrap();
    let text = position_output("fromboard", repro);
    assert!(
        text.contains("illegal: (") && text.contains("is the blocked cell"),
        "{text}"
    );
    assert!(
        text.lines().any(|l| l.contains(" | ") && l.ends_with('#')),
        "the blocked cell drawn: {text}"
    );
}

#[test]
fn a_null_answer_fails_the_contract() {
    let c = fails_on("null", "contract", "NULL");
    assert!(
        c.item("contract")["advice"]
            .as_str()
            .unwrap()
            .contains("never return NULL")
    );
}

#[test]
fn a_hang_fails_the_time_item() {
    let c = fails_on("hang", "time", "not within 3 s");
    assert_eq!(c.verdict("contract"), "warn", "{:?}", c.verdicts());
}

#[test]
fn a_library_sleeping_past_two_and_a_half_seconds_warns_on_time() {
    let c = check(&lib("sleepy"), &[], &[]);
    assert_eq!(c.code(), 0, "{}", c.stdout());
    assert_eq!(c.verdict("time"), "warn", "{:?}", c.verdicts());
    let evidence = c.evidence("time");
    assert!(
        evidence.contains("the first call on the largest board (12x12) took 2.7"),
        "{evidence}"
    );
    for id in ["loading", "contract", "one-process", "memory", "output"] {
        assert_eq!(c.verdict(id), "pass", "{id}: {:?}", c.verdicts());
    }
}

#[test]
fn a_memory_hog_fails_the_memory_item() {
    fails_on("memhog", "memory", "died after reaching");
}

#[test]
fn state_kept_between_games_fails_the_one_process_item() {
    let c = fails_on(
        "leaky",
        "one-process",
        "after 1 clean game(s) in the same process",
    );
    // Each single call is a first call in a fresh process: all legal.
    assert_eq!(c.verdict("contract"), "pass", "{:?}", c.verdicts());
    let replay = c.item("one-process")["reproduce"][0].as_str().unwrap();
    assert!(
        replay.starts_with("judge replay ") && replay.contains("series --game 0-0-1"),
        "{replay}"
    );
    // The series stopped at the fault: no game after the second.
    let games = std::fs::read_to_string(c.dir.path().join("check/series/games.jsonl")).unwrap();
    assert_eq!(games.lines().count(), 2, "{games}");
    assert_eq!(c.json["series"]["planned"], 4);
}

#[test]
fn a_stdout_flood_fails_the_output_item() {
    let c = fails_on("flood", "output", "written to stdout");
    assert_eq!(c.verdict("contract"), "pass", "{:?}", c.verdicts());
}

#[test]
fn files_written_into_the_working_directory_fail_loading() {
    let c = fails_on("writer", "loading", "scribble-0.txt");
    assert_eq!(c.verdict("contract"), "pass", "{:?}", c.verdicts());
}

#[test]
fn a_cxx_library_without_extern_c_fails_loading_and_is_told_why() {
    let c = fails_on("mangled", "loading", "_Z8getPointiiPKiS0_iiii");
    assert!(
        c.item("loading")["advice"]
            .as_str()
            .unwrap()
            .contains("extern \"C\"")
    );
    for id in [
        "contract",
        "time",
        "one-process",
        "memory",
        "output",
        "strength",
    ] {
        assert_eq!(c.verdict(id), "skip", "{id}");
    }
}

#[test]
fn files_that_are_no_library_fail_loading() {
    let c = check(&Path::new(FIXTURES).join("notalib.so"), &[], &[]);
    assert_eq!(c.code(), 1);
    assert_eq!(c.verdict("loading"), "fail");
    assert!(
        c.evidence("loading").contains("not an ELF file"),
        "{}",
        c.evidence("loading")
    );
}

#[test]
fn a_missing_file_is_a_usage_error_exit_2() {
    // One line on stderr, exit 2 (a failing item is 1), no directory, with or without
    // --position; a directory is no library either.
    let dir = tempfile::tempdir().unwrap();
    let out_dir = dir.path().join("check");
    let position = "9x9 blocked=8,0 last=-1,-1 top=8,9,9,9,9,9,9,9,9 board=000000000/000000000/000000000/000000000/000000000/000000000/000000000/000000000/000000000";
    for (args, words) in [
        (
            vec!["/nonexistent/lib.so"],
            "/nonexistent/lib.so: no such file",
        ),
        (
            vec!["/nonexistent/lib.so", "--position", position],
            "no such file",
        ),
        (vec![FIXTURES], "not a file"),
    ] {
        let out = Command::new(env!("CARGO_BIN_EXE_judge"))
            .arg("check")
            .args(&args)
            .arg("--out")
            .arg(&out_dir)
            .output()
            .unwrap();
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{args:?}: {stderr}");
        assert!(stderr.contains(words), "{args:?}: {stderr}");
        assert_eq!(stderr.lines().count(), 1, "{stderr}");
        assert!(out.stdout.is_empty());
        assert!(!out_dir.exists(), "{args:?}: no directory");
    }
}

#[test]
fn writes_into_top_or_the_board_fail_the_contract() {
    for (name, array) in [("writetop", "top"), ("writeboard", "_board")] {
        let c = fails_on(
            name,
            "contract",
            &format!("it wrote into {array}, the runner's live array: {array}["),
        );
        let advice = c.item("contract")["advice"].as_str().unwrap();
        assert!(
            advice.contains("never write into top or _board") && advice.contains("live arrays"),
            "{advice}"
        );
        // Every answer is legal: the writes alone fail it, on every call.
        for call in c.json["calls"].as_array().unwrap() {
            assert_eq!(call["outcome"]["kind"], "legal", "{name}: {call}");
            assert!(call["wrote"].as_str().unwrap().contains(array), "{call}");
        }
        // The position's command shows the write again.
        let text = position_output(name, c.item("contract")["reproduce"][0].as_str().unwrap());
        assert!(
            text.contains(&format!("but it wrote into {array}")),
            "{text}"
        );
    }
}

#[test]
fn swapped_coordinates_are_named_and_not_blamed_on_the_board() {
    let c = fails_on("swapped", "contract", "the coordinates look swapped");
    let evidence = c.evidence("contract");
    assert!(
        evidence.contains("would be legal (x is the row, y the column)"),
        "{evidence}"
    );
    let advice = c.item("contract")["advice"].as_str().unwrap();
    assert!(advice.contains("look swapped"), "{advice}");
    assert!(!advice.contains("take the row from top"), "{advice}");
    let illegal: Vec<&Value> = c.json["calls"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|call| call["outcome"]["kind"] == "illegal")
        .collect();
    assert!(!illegal.is_empty());
    assert!(
        illegal
            .iter()
            .all(|call| call["outcome"]["swapped"] == true),
        "{illegal:?}"
    );
}

#[test]
fn a_slow_static_initializer_warns_on_loading() {
    let c = check(&lib("slowinit"), &[], &[]);
    assert_eq!(c.code(), 0, "{}", c.stdout());
    assert_eq!(c.verdict("loading"), "warn", "{:?}", c.verdicts());
    let evidence = c.evidence("loading");
    assert!(evidence.contains(" in 1.5"), "{evidence}");
    assert!(
        evidence.contains("static initializers") && evidence.contains("first move"),
        "{evidence}"
    );
    assert!(
        c.item("loading")["advice"]
            .as_str()
            .unwrap()
            .contains("static initializers run once a process")
    );
    assert!(
        c.stdout().starts_with("warn  loading     "),
        "{}",
        c.stdout()
    );
    // The load is not the first answer's: the answers themselves are quick.
    for id in ["contract", "time", "one-process", "memory", "output"] {
        assert_eq!(c.verdict(id), "pass", "{id}: {:?}", c.verdicts());
    }
}

/// Runs a reproducing command of `library`'s check as printed (the judge on PATH as
/// `judge`), expecting exit 1, and returns its stdout.
fn position_output(library: &str, command: &str) -> String {
    assert!(command.starts_with("judge check "), "{command}");
    let bin = Path::new(env!("CARGO_BIN_EXE_judge")).parent().unwrap();
    let path = format!(
        "{}:{}",
        bin.display(),
        std::env::var("PATH").unwrap_or_default()
    );
    let out = Command::new("sh")
        .args(["-c", command])
        .env("PATH", path)
        .output()
        .unwrap();
    let text = String::from_utf8_lossy(&out.stdout).into_owned();
    assert_eq!(out.status.code(), Some(1), "{library}: {text}");
    text
}

/// Every item but strength (not asked for) passes, and the files carry them.
fn passes_everything(c: &Checked) {
    assert_eq!(c.code(), 0, "{}", c.stdout());
    let verdicts = c.verdicts();
    let ids: Vec<&str> = verdicts.iter().map(|(id, _)| id.as_str()).collect();
    assert_eq!(
        ids,
        [
            "loading",
            "contract",
            "time",
            "one-process",
            "memory",
            "output",
            "strength"
        ]
    );
    for (id, verdict) in &verdicts {
        let want = if id == "strength" { "skip" } else { "pass" };
        assert_eq!(verdict, want, "{id}: {}", c.evidence(id));
    }
    assert_eq!(c.json["calls"].as_array().unwrap().len(), 30);
    assert_eq!(c.json["series"]["games"], 4);
    let page = std::fs::read_to_string(c.dir.path().join("check/report.html")).unwrap();
    for (id, _) in &verdicts {
        assert!(
            page.contains(&format!("<tr id=\"{id}\">")),
            "{id} on the page"
        );
        let evidence = c.evidence(id).replace('"', "&quot;").replace('\'', "&#39;");
        assert!(page.contains(&evidence), "{id}'s evidence on the page");
    }
    assert!(c.dir.path().join("check/series/report.html").exists());
}

#[test]
fn a_student_library_built_from_the_course_framework_passes() {
    let c = check(&libs().join("student/Strategy.so"), &[], &[]);
    passes_everything(&c);
    let text = c.stdout();
    assert!(text.starts_with("pass  loading     64-bit"), "{text}");
    assert!(text.contains("6 pass, 0 warn, 0 fail, 1 skipped"), "{text}");
}

#[test]
fn a_correct_c_library_passes() {
    let c = check(&lib("legal"), &[], &[]);
    passes_everything(&c);
    // Progress on stderr: each call and each game counted "N of M", the tally labelled.
    let progress = String::from_utf8_lossy(&c.out.stderr);
    assert!(progress.contains("  call  1 of 30: "), "{progress}");
    assert!(
        progress.contains("  game 2 of 4 (id 0-0-1, so far "),
        "{progress}"
    );
    assert!(
        progress
            .lines()
            .filter(|l| l.starts_with("  game "))
            .all(|l| l.contains(" won, ") && l.contains(" drawn, ") && l.contains(" lost)")),
        "{progress}"
    );
}

#[test]
fn our_library_passes_every_item() {
    // The test's choice, not the check's: a short budget keeps the test fast.
    let c = check(&our_library(), &[], &[("GRAVITY4_MOVE_MS", "50")]);
    passes_everything(&c);
}
