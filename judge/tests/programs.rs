//! End-to-end: program players (`saiblo:`) against libraries and each other. The
//! Saiblo-protocol programs are the Python scripts of `fixtures/saiblo/`, copied into a
//! temp dir per test so that a scan of `/proc` for that dir finds any process left
//! behind, and `fixtures/saiblo/template.c`, a C program written the way the platform's
//! template is. Also: usage errors fail before any game.

use std::collections::HashMap;
use std::path::Path;
use std::process::{Command, Output};

use serde_json::Value;

mod common;

use common::{FIXTURES, games, ok};
use testkit::process::processes_under;

/// The Saiblo fixtures copied into a fresh directory (the legal one executable).
fn programs() -> tempfile::TempDir {
    let dir = common::copied_scripts("saiblo");
    use std::os::unix::fs::PermissionsExt;
    let legal = dir.path().join("legal.py");
    std::fs::set_permissions(&legal, std::fs::Permissions::from_mode(0o755)).unwrap();
    dir
}

/// Runs the judge from an empty working directory with a private TMPDIR; checks that
/// both are empty afterwards and that no fixture process outlives it.
fn judge(args: &[String], programs: &Path) -> Output {
    let out = common::judge_leaving_nothing(args);
    let alive = processes_under(programs);
    assert!(alive.is_empty(), "processes left behind: {alive:?}");
    out
}

fn strings(v: &[&str]) -> Vec<String> {
    v.iter().map(|s| s.to_string()).collect()
}

fn saiblo(scheme: &str, programs: &Path, script: &str, args: &str) -> String {
    let path = programs.join(script);
    // `-S`: no site packages, a faster start on a busy machine.
    format!("{scheme}:python3 -S {} {args}", path.display())
        .trim_end()
        .to_string()
}

#[test]
fn a_library_and_a_program_play_a_match() {
    let progs = programs();
    let libs = tempfile::tempdir().unwrap();
    let run = tempfile::tempdir().unwrap();
    let out_dir = run.path().join("m");
    let mut args = strings(&["match"]);
    args.push(
        common::fixture(libs.path(), "legal", &[])
            .display()
            .to_string(),
    );
    args.push(saiblo("saiblo", progs.path(), "legal.py", ""));
    args.extend(strings(&[
        "--pairs", "3", "--seed", "5", "--quiet", "--out",
    ]));
    args.push(out_dir.display().to_string());
    let out = judge(&args, progs.path());
    ok(&out);
    let g = games(&out_dir);
    assert_eq!(g.len(), 6);
    for game in &g {
        let t = game["termination"].as_str().unwrap();
        assert!(t == "four" || t == "full", "{game}");
        assert!(game["moves"].as_array().unwrap().len() >= 7, "{game}");
        // Both processes' peak memory: the library's host and the Python program (whose
        // interpreter alone takes a few MiB).
        for side in 0..2 {
            let kb = game["peak_rss_kb"][side].as_u64().unwrap_or(0);
            assert!((1024..1 << 20).contains(&kb), "{game}");
        }
        // Both sides' CPU time on every answered move: the library thread's, and the
        // program's from its own clock.
        let cpu = game["cpu_ms"].as_array().unwrap();
        assert_eq!(
            cpu.len(),
            game["move_ms"].as_array().unwrap().len(),
            "{game}"
        );
        assert!(cpu.iter().all(|ms| ms.as_f64().is_some()), "{game}");
    }
    // The program moved first in half the games and second in the others.
    let program_first = g.iter().filter(|game| game["first"] == "legal#2").count();
    assert_eq!(program_first, 3);
    let summary: Value =
        serde_json::from_str(&std::fs::read_to_string(out_dir.join("summary.json")).unwrap())
            .unwrap();
    let names: Vec<&str> = summary["players"]
        .as_array()
        .unwrap()
        .iter()
        .map(|p| p["name"].as_str().unwrap())
        .collect();
    assert_eq!(names.len(), 2);
    for p in summary["players"].as_array().unwrap() {
        assert!(p["cpu_ms_mean"].as_f64().is_some(), "{p}");
    }
    assert!(
        names.contains(&"legal") && names.contains(&"legal#2"),
        "{names:?}"
    );
    // The program's stderr is its log.
    let log = std::fs::read_to_string(out_dir.join("logs/legal_2.log")).unwrap();
    assert!(log.contains("legal.py: game on"), "{log}");
    assert!(out_dir.join("report.html").exists());
}

/// `fixtures/saiblo/template.c` compiled into `dir`.
fn template_program(dir: &Path) -> std::path::PathBuf {
    let out = dir.join("template");
    let status = Command::new("cc")
        .args(["-O1", "-std=c99", "-Wall", "-Werror", "-o"])
        .arg(&out)
        .arg(Path::new(FIXTURES).join("saiblo/template.c"))
        .status()
        .expect("these tests need a C compiler (cc)");
    assert!(status.success(), "cc failed on saiblo/template.c");
    out
}

#[test]
fn a_program_written_like_the_platform_template_plays_legally() {
    // It sends a framed `ok` before reading anything and reads the counted form with
    // scanf: `saiblo:` must give it what it reads, and take the `ok` silently.
    let progs = tempfile::tempdir().unwrap();
    let template = template_program(progs.path());
    let libs = tempfile::tempdir().unwrap();
    let run = tempfile::tempdir().unwrap();
    let out_dir = run.path().join("t");
    let mut args = strings(&["match"]);
    args.push(
        common::fixture(libs.path(), "fast", &[])
            .display()
            .to_string(),
    );
    args.push(format!("saiblo:{}", template.display()));
    args.extend(strings(&[
        "--pairs", "4", "--seed", "7", "--quiet", "--out",
    ]));
    args.push(out_dir.display().to_string());
    let out = judge(&args, progs.path());
    ok(&out);
    let g = games(&out_dir);
    assert_eq!(g.len(), 8);
    let (mut won, mut lost) = (0, 0);
    for game in &g {
        let t = game["termination"].as_str().unwrap();
        assert!(t == "four" || t == "full", "{game}");
        match game["loser"].as_str() {
            Some(side) if game[side] == "template" => lost += 1,
            Some(_) => won += 1,
            None => {}
        }
    }
    // Both random movers: it wins some and loses some, always by four in a row.
    assert!(won > 0 && lost > 0, "won {won}, lost {lost}");
    let log = std::fs::read_to_string(out_dir.join("logs/template.log")).unwrap();
    // Its checks of what it was sent (counts, stones, landing cells) all passed.
    assert!(log.contains("template.c: game on"), "{log}");
    assert!(
        log.lines()
            .all(|l| !l.contains("template.c:") || l.contains("game on")),
        "{log}"
    );
}

#[test]
fn every_form_plays_legally_and_programs_run_directly() {
    let progs = programs();
    let libs = tempfile::tempdir().unwrap();
    let run = tempfile::tempdir().unwrap();
    let out_dir = run.path().join("rr");
    let mut args = strings(&["round-robin"]);
    args.push(
        common::fixture(libs.path(), "fast", &[])
            .display()
            .to_string(),
    );
    args.push(saiblo("saiblo", progs.path(), "legal.py", "counted"));
    args.push(saiblo("saiblo-lines", progs.path(), "legal.py", "lines"));
    args.push(saiblo("saiblo-last", progs.path(), "legal.py", "last"));
    // Executed directly (shebang), with an environment suffix.
    args.push(format!(
        "saiblo-uncounted:{} uncounted@PYTHONDONTWRITEBYTECODE=1",
        progs.path().join("legal.py").display()
    ));
    args.extend(strings(&[
        "--pairs", "2", "--seed", "11", "--quiet", "--out",
    ]));
    args.push(out_dir.display().to_string());
    let out = judge(&args, progs.path());
    ok(&out);
    let g = games(&out_dir);
    assert_eq!(g.len(), 40);
    for game in &g {
        let t = game["termination"].as_str().unwrap();
        assert!(t == "four" || t == "full", "{game}");
    }
    let names: Vec<String> = g
        .iter()
        .flat_map(|game| [game["first"].to_string(), game["second"].to_string()])
        .collect();
    assert!(
        names
            .iter()
            .any(|n| n.contains("legal@PYTHONDONTWRITEBYTECODE=1"))
    );
}

#[test]
fn misbehaving_programs_lose_with_their_verdicts_and_leave_nothing() {
    let progs = programs();
    let libs = tempfile::tempdir().unwrap();
    let run = tempfile::tempdir().unwrap();
    let out_dir = run.path().join("bad");
    // (script, verdict it loses by, detail substring); None: it plays legally.
    let cases: &[(&str, Option<&str>, &[&str])] = &[
        ("legal", None, &[]),
        ("writer", None, &[]),
        ("crash", Some("crash"), &["SIGABRT"]),
        ("hang", Some("timeout"), &["no answer within 3000 ms"]),
        ("garbage", Some("garbage"), &["unframed output: \"thin\""]),
        ("words", Some("garbage"), &["is not \"x y\""]),
        (
            "flood",
            Some("garbage"),
            &["stdout flood", "unsolicited output"],
        ),
        ("early", Some("crash"), &["early exit (exit status 0)"]),
    ];
    let mut args = strings(&["round-robin"]);
    args.push(
        common::fixture(libs.path(), "legal", &[])
            .display()
            .to_string(),
    );
    let mut want: HashMap<String, (Option<&str>, &[&str])> = HashMap::new();
    for (script, verdict, detail) in cases {
        args.push(saiblo("saiblo", progs.path(), &format!("{script}.py"), ""));
        want.insert(script.to_string(), (*verdict, *detail));
    }
    // The library is `legal`, the program of the same stem `legal#2`.
    want.insert("legal#2".into(), (None, &[]));
    args.extend(strings(&[
        "--pairs",
        "1",
        "--seed",
        "3",
        "--memory-limit-mb",
        "512",
        "--concurrency",
        "2",
        "--quiet",
        "--out",
    ]));
    args.push(out_dir.display().to_string());
    let out = judge(&args, progs.path());
    ok(&out);
    let g = games(&out_dir);
    assert_eq!(g.len(), 9 * 8);
    let mut lost: HashMap<String, usize> = HashMap::new();
    for game in &g {
        let term = game["termination"].as_str().unwrap();
        let Some(side) = game["loser"].as_str() else {
            assert_eq!(term, "full", "{game}");
            continue;
        };
        let loser = game[side].as_str().unwrap().to_string();
        let (verdict, details) = want[&loser];
        match verdict {
            None => assert_eq!(term, "four", "a legal player lost by a verdict: {game}"),
            Some(v) => {
                assert_eq!(term, v, "{game}");
                let detail = game["detail"].as_str().unwrap_or("");
                assert!(details.iter().any(|d| detail.contains(d)), "{game}");
                *lost.entry(loser).or_default() += 1;
            }
        }
        if term == "garbage" || term == "crash" {
            assert!(
                game["course_code"] == 3 || game["course_code"] == 5,
                "{game}"
            );
        }
    }
    // Every misbehaving program lost both games against each legal player by its verdict.
    for (script, verdict, _) in cases {
        if verdict.is_some() {
            assert!(
                lost.get(*script).copied().unwrap_or(0) >= 6,
                "{script}: {lost:?}"
            );
        }
    }
    // The writer's files stayed in its scratch directories (the judge's cwd and TMPDIR
    // are checked empty by `judge`), and nothing else appeared next to the programs.
    let mut here: Vec<String> = std::fs::read_dir(progs.path())
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .filter(|n| n != "__pycache__")
        .collect();
    here.sort();
    assert!(!here.contains(&"junk.txt".to_string()), "{here:?}");
}

/// Runs the judge expecting a usage error: non-zero exit, one line on stderr, no run
/// directory, no game.
fn refused(args: &[String], expect: &str) {
    let run = tempfile::tempdir().unwrap();
    let out_dir = run.path().join("never");
    let mut args = args.to_vec();
    args.extend(strings(&["--quiet", "--out"]));
    args.push(out_dir.display().to_string());
    let started = std::time::Instant::now();
    let out = Command::new(env!("CARGO_BIN_EXE_judge"))
        .args(&args)
        .current_dir(run.path())
        .output()
        .unwrap();
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(!out.status.success(), "{args:?} succeeded");
    assert_eq!(err.trim_end().lines().count(), 1, "{args:?}: {err}");
    assert!(err.contains(expect), "{args:?}: {err}");
    assert!(!out_dir.exists(), "{args:?} created its run directory");
    assert!(started.elapsed().as_secs() < 5);
}

#[test]
fn usage_errors_fail_before_any_game() {
    let libs = tempfile::tempdir().unwrap();
    let legal = common::fixture(libs.path(), "legal", &[])
        .display()
        .to_string();
    let text = libs.path().join("notalib.so");
    std::fs::copy(Path::new(FIXTURES).join("notalib.so"), &text).unwrap();
    let m = |b: &str| vec!["match".to_string(), legal.clone(), b.to_string()];
    refused(&m("no/such/lib.so"), "No such file");
    refused(&m(&text.display().to_string()), "not an ELF shared object");
    refused(&m("foo:bar"), "not a player scheme");
    refused(
        &m("saiblo:no-such-program-xyz --x"),
        "no such executable on PATH",
    );
    refused(&m("saiblo:./missing.py"), "No such file");
    refused(
        &m(&format!("{legal}@NOEQUALS")),
        "expected LIB.so@KEY=VALUE",
    );
    let mut pairs0 = m(&legal);
    pairs0.extend(strings(&["--pairs", "0"]));
    refused(&pairs0, "--pairs must be at least 1");
    let mut workers0 = m(&legal);
    workers0.extend(strings(&["--concurrency", "0"]));
    refused(&workers0, "--concurrency must be at least 1");
    let mut rr = vec!["round-robin".to_string(), legal.clone(), legal.clone()];
    rr.push("missing.so".into());
    refused(&rr, "missing.so");
    let gauntlet = vec![
        "gauntlet".to_string(),
        legal.clone(),
        "--vs".into(),
        "saiblo:".into(),
    ];
    refused(&gauntlet, "no command");
}

#[test]
fn a_person_plays_a_program_through_a_pipe() {
    let progs = programs();
    let cwd = tempfile::tempdir().unwrap();
    let program = saiblo("saiblo-last", progs.path(), "legal.py", "last");
    let out = common::judge_typing(
        cwd.path(),
        [
            "play",
            &program,
            "--size",
            "6x7",
            "--blocked",
            "0,6",
            "--seed",
            "1",
            "--move-limit-ms",
            "10000",
        ],
        b"3\n3\nq\n",
    );
    let text = String::from_utf8_lossy(&out.stdout);
    // The program keeps its own board from the last moves and answers legally each time.
    assert!(text.contains("legal played column 0 in"), "{text}");
    assert!(text.contains("You quit after 4 moves"), "{text}");
    assert!(!text.contains("loses by"), "{text}");
    assert!(processes_under(progs.path()).is_empty());
}

#[test]
fn the_memory_limit_applies_to_programs() {
    let progs = programs();
    let libs = tempfile::tempdir().unwrap();
    let run = tempfile::tempdir().unwrap();
    let out_dir = run.path().join("mem");
    let mut args = strings(&["match"]);
    args.push(
        common::fixture(libs.path(), "legal", &[])
            .display()
            .to_string(),
    );
    args.push(saiblo("saiblo", progs.path(), "memhog.py", ""));
    args.extend(strings(&[
        "--pairs",
        "1",
        "--memory-limit-mb",
        "256",
        "--quiet",
        "--out",
    ]));
    args.push(out_dir.display().to_string());
    ok(&judge(&args, progs.path()));
    for game in games(&out_dir) {
        assert_eq!(game["termination"], "crash", "{game}");
        assert_eq!(game["detail"], "early exit (exit status 1)", "{game}");
    }
    let log = std::fs::read_to_string(out_dir.join("logs/memhog.log")).unwrap();
    assert!(log.contains("MemoryError"), "{log}");
}

#[test]
fn the_report_keeps_the_names_the_run_used() {
    // A program named by a relative script is `legal` only where legal.py exists.
    let progs = programs();
    let libs = tempfile::tempdir().unwrap();
    let run = tempfile::tempdir().unwrap();
    let out_dir = run.path().join("r");
    let lib = common::fixture(libs.path(), "legal", &[])
        .display()
        .to_string();
    let out = Command::new(env!("CARGO_BIN_EXE_judge"))
        .args([
            "match",
            &lib,
            "saiblo:python3 -S legal.py",
            "--pairs",
            "1",
            "--quiet",
        ])
        .arg("--out")
        .arg(&out_dir)
        .current_dir(progs.path())
        .output()
        .unwrap();
    ok(&out);
    let report = Command::new(env!("CARGO_BIN_EXE_judge"))
        .arg("report")
        .arg(&out_dir)
        .current_dir(run.path())
        .output()
        .unwrap();
    ok(&report);
    let table = String::from_utf8_lossy(&report.stdout);
    assert!(table.contains("legal#2     2"), "{table}");
    assert!(!table.contains("python3"), "{table}");
}
