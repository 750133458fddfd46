//! Go through the judge, end to end: GTP engines misbehaving in every way the fixture of
//! `fixtures/go/` knows lose by their verdicts; the game clock is told to engines and its
//! flag falls; a handicap an engine will not place itself is set free; and GNU Go plays
//! GNU Go through `judge match --game go`, every game kept as an SGF that the engine's
//! reader and GNU Go's `loadsgf` take back, GNU Go's `final_score` equal to the judge's
//! Tromp-Taylor score. The GNU Go tests skip when it is not installed (and fail under
//! `CI=true`; scripts/test.sh installs it).

use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::Arc;
use std::time::Duration;

use gravity4_judge::clock::ClockSettings;
use gravity4_judge::games::go::{Go, Rules};
use gravity4_judge::games::{Game, Side, Termination};
use gravity4_judge::players::{LogSink, Player, PlayerSpec, ProcessSettings};
use gravity4_judge::referee::{self, Outcome};

mod common;

use common::{games, ok};
use testkit::partner::{GNUGO, gnugo_missing};
use testkit::process::processes_under;

/// GNU Go's arguments as the issue has it play (Chinese rules, dead stones captured,
/// positional superko), with a fixed random seed: the same games every time.
const GNUGO_ARGS: &str =
    "--mode gtp --level 1 --chinese-rules --capture-all-dead --positional-superko --seed 1";

/// Player `arg` from its command-line form, logging into `logs/NAME-SIDE.log`: one file a
/// side, since both sides are often the same fixture, whose two logs under one name would
/// write over each other.
fn open(arg: &str, logs: &Path, side: &str) -> (Box<dyn Player<Go>>, PathBuf) {
    let spec = PlayerSpec::parse(Path::new(arg)).unwrap();
    spec.check().unwrap();
    let settings = ProcessSettings {
        exe: PathBuf::from("/nonexistent"),
        memory_limit_mb: 512,
    };
    let name = spec.base_name().replace(['/', '#', ' '], "_");
    let path = logs.join(format!("{name}-{side}.log"));
    let log = Arc::new(LogSink::open(&path, 1 << 20).unwrap());
    (spec.open_go(&settings, log), path)
}

/// `gtp:python3 DIR/gtp_go.py@FIXTURE_MODE=mode`.
fn fixture(dir: &Path, mode: &str) -> String {
    format!(
        "gtp:python3 {}@FIXTURE_MODE={mode}",
        dir.join("gtp_go.py").display()
    )
}

/// One game of `black` against `white` under `rules` from the opening of board seed 5,
/// each move limited to `limit`, on `clock` if any; the outcome and both players' logs.
fn game(
    black: &str,
    white: &str,
    rules: Rules,
    limit: Duration,
    clock: Option<ClockSettings>,
    logs: &Path,
) -> (Outcome<Go>, [String; 2]) {
    let go = Go { rules };
    let setup = go.setup(5);
    let (mut a, a_log) = open(black, logs, "black");
    let (mut b, b_log) = open(white, logs, "white");
    let outcome = referee::play_on_clock(&go, &setup, [a.as_mut(), b.as_mut()], limit, clock);
    // Dropping the players quits them, so their logs are whole.
    drop((a, b));
    let read = |p: &Path| std::fs::read_to_string(p).unwrap_or_default();
    (outcome, [read(&a_log), read(&b_log)])
}

const SECOND: Duration = Duration::from_secs(1);

#[test]
fn misbehaving_engines_lose_by_their_verdicts() {
    let dir = common::copied_scripts("go");
    let logs = tempfile::tempdir().unwrap();
    let rules = Rules::default();
    let pass = fixture(dir.path(), "pass");
    // Two passes: a legal game, scored on the board the opening left (one stone each,
    // the rest neutral), White winning by komi.
    let (o, [log, _]) = game(&pass, &pass, rules, SECOND, None, logs.path());
    assert_eq!(
        (o.termination, o.winner, o.moves.len()),
        (Termination::Score, Some(Side::Second), 2),
        "{o:?}"
    );
    let opening = Go { rules }.setup(5);
    assert_eq!(o.detail.as_deref(), Some("W+7.5"), "{o:?}");
    // The set-up, in order: board, komi, the opening as `play` commands.
    let commands: Vec<&str> = log
        .lines()
        .filter_map(|l| l.strip_prefix("got: "))
        .collect();
    assert_eq!(
        &commands[..3],
        ["boardsize 9", "clear_board", "komi 7.5"],
        "{log}"
    );
    let first = opening.opening()[0].to_string();
    assert_eq!(commands[3], format!("play black {first}"));
    assert!(
        !log.contains("time_settings") && !log.contains("time_left"),
        "no clock, no time commands: {log}"
    );
    for (mode, termination, detail) in [
        ("occupied", Termination::Illegal, "(the point is occupied)"),
        ("hang", Termination::Timeout, ""),
        ("crash", Termination::Crash, "SIGABRT"),
        ("garbage", Termination::Garbage, "is not a GTP answer"),
        (
            "reject",
            Termination::Load,
            "`boardsize 9` answered `? unacceptable size`",
        ),
        (
            "refuse",
            Termination::Garbage,
            "refused the opponent's legal move: `play white A9` answered `? illegal move`",
        ),
        ("resign", Termination::Resign, "W+R"),
    ] {
        // White fills the board from A9 while Black passes, unless Black misbehaves first.
        let (o, _) = game(
            &fixture(dir.path(), mode),
            &fixture(dir.path(), "fill"),
            rules,
            SECOND,
            None,
            logs.path(),
        );
        assert_eq!(o.termination, termination, "{mode}: {o:?}");
        assert_eq!(o.winner, Some(Side::Second), "{mode}: {o:?}");
        let got = o.detail.clone().unwrap_or_default();
        assert!(got.contains(detail), "{mode}: {got:?}");
    }
    assert!(processes_under(dir.path()).is_empty());
}

#[test]
fn the_clock_is_told_to_engines_and_a_player_out_of_time_loses() {
    let dir = common::copied_scripts("go");
    let logs = tempfile::tempdir().unwrap();
    // White passes after 0.4 s each turn on a 1 s absolute clock: its third pass is late.
    let clock = ClockSettings::new(1000, 0, 0).unwrap();
    let (o, [black, white]) = game(
        &fixture(dir.path(), "fill"),
        &fixture(dir.path(), "slow"),
        Rules::default(),
        Duration::from_secs(5),
        Some(clock),
        logs.path(),
    );
    assert_eq!(
        (o.termination, o.winner),
        (Termination::Timeout, Some(Side::First)),
        "{o:?}"
    );
    assert_eq!(
        o.detail.as_deref(),
        Some("out of time: the clock (1 s main time, absolute) ran out")
    );
    assert_eq!(o.moves.len(), 5, "three moves of Black, two passes: {o:?}");
    // Each engine heard the settings once, then its time left before every genmove.
    for log in [&black, &white] {
        let commands: Vec<&str> = log
            .lines()
            .filter_map(|l| l.strip_prefix("got: "))
            .collect();
        assert_eq!(
            commands
                .iter()
                .filter(|c| **c == "time_settings 1 0 0")
                .count(),
            1,
            "{log}"
        );
        let genmoves = commands.iter().filter(|c| c.starts_with("genmove")).count();
        let lefts = commands
            .iter()
            .filter(|c| c.starts_with("time_left"))
            .count();
        assert_eq!(lefts, genmoves, "{log}");
    }
    // White's clock ran down: 1 s, then what was left after a pass of 0.4 s or so.
    let lefts: Vec<&str> = white
        .lines()
        .filter_map(|l| l.strip_prefix("got: time_left white "))
        .collect();
    assert_eq!(lefts[0], "1 0", "{white}");
    let second: f64 = lefts[1].split(' ').next().unwrap().parse().unwrap();
    assert!((0.3..0.7).contains(&second), "{lefts:?}");
    // The per-move limit still applies on a clock: a hang is a plain timeout.
    let (o, _) = game(
        &fixture(dir.path(), "hang"),
        &fixture(dir.path(), "pass"),
        Rules::default(),
        SECOND,
        Some(ClockSettings::new(60_000, 10_000, 5).unwrap()),
        logs.path(),
    );
    assert_eq!(o.termination, Termination::Timeout);
    assert_eq!(o.detail, None, "the move limit, not the clock: {o:?}");
    assert!(processes_under(dir.path()).is_empty());
}

#[test]
fn a_handicap_the_engine_will_not_place_is_set_free_and_white_moves_first() {
    let dir = common::copied_scripts("go");
    let logs = tempfile::tempdir().unwrap();
    let rules = Rules::new(9, 0.5, 3).unwrap();
    let pass = fixture(dir.path(), "pass");
    let (o, [black, white]) = game(&pass, &pass, rules, SECOND, None, logs.path());
    assert_eq!(o.termination, Termination::Score, "{o:?}");
    // Black's three stones against White's opening stone(s): Black wins despite komi.
    assert_eq!(o.winner, Some(Side::First), "{o:?}");
    for log in [black, white] {
        let commands: Vec<&str> = log
            .lines()
            .filter_map(|l| l.strip_prefix("got: "))
            .collect();
        let at = commands
            .iter()
            .position(|c| *c == "fixed_handicap 3")
            .unwrap_or_else(|| panic!("{log}"));
        assert_eq!(commands[at + 1], "clear_board");
        assert_eq!(commands[at + 2], "set_free_handicap C3 G7 C7");
        assert!(commands[at + 3].starts_with("play white "), "{log}");
    }
}

/// What GNU Go answers to `loadsgf FILE` then `final_score` (Chinese rules): its score,
/// or the `?` answer.
fn gnugo_final_score(sgf: &Path) -> String {
    let out = Command::new(GNUGO)
        .args(GNUGO_ARGS.split(' '))
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .spawn()
        .and_then(|mut child| {
            use std::io::Write;
            let mut stdin = child.stdin.take().unwrap();
            writeln!(stdin, "loadsgf {}\nfinal_score\nquit", sgf.display())?;
            drop(stdin);
            child.wait_with_output()
        })
        .expect("run gnugo");
    let text = String::from_utf8_lossy(&out.stdout).into_owned();
    let answers: Vec<&str> = text.split("\n\n").map(str::trim).collect();
    assert!(
        answers[0].starts_with('='),
        "loadsgf refused {}: {text}",
        sgf.display()
    );
    answers[1].trim_start_matches("= ").to_string()
}

#[test]
fn gnugo_plays_gnugo_through_the_judge_and_the_scores_agree() {
    if gnugo_missing() {
        return;
    }
    use go_engine::sgf::record::GameRecord as Sgf;
    let out = tempfile::tempdir().unwrap();
    let player = format!("gtp:{GNUGO} {GNUGO_ARGS}");
    let mut mismatches = Vec::new();
    let mut scored = 0;
    for (run, extra) in [
        ("even", vec![]),
        ("handicap", vec!["--handicap", "2", "--komi", "0.5"]),
    ] {
        let dir = out.path().join(run);
        let mut args = vec!["match", "--game", "go", &player, &player, "--pairs"];
        args.extend([if run == "even" { "2" } else { "1" }, "--seed", "7", "-q"]);
        args.extend(extra);
        args.push("--out");
        let dir_arg = dir.display().to_string();
        args.push(&dir_arg);
        ok(&common::judge_leaving_nothing(&args));
        let logged = games(&dir);
        assert_eq!(logged.len(), if run == "even" { 4 } else { 2 });
        for g in &logged {
            let id = g["id"].as_str().unwrap();
            let termination = g["termination"].as_str().unwrap();
            // Each side accepted every move of the other, and played only legal ones.
            assert!(
                termination == "score" || termination == "resign",
                "{run} {id}: {g}"
            );
            let sgf = dir.join("sgf").join(format!("{id}.sgf"));
            let text = std::fs::read(&sgf).unwrap();
            // The engine's SGF reader takes it back: the judge's opening and moves, then
            // the result; its rules replay it to the judge's score.
            let record = Sgf::from_sgf(&text).unwrap();
            let moves = g["moves"].as_array().unwrap();
            let opening = g["board"]["opening"].as_array().unwrap();
            let resigned = usize::from(termination == "resign");
            assert_eq!(
                record.moves.len(),
                opening.len() + moves.len() - resigned,
                "{id}"
            );
            assert_eq!(record.result.as_deref(), g["detail"].as_str(), "{id}");
            assert_eq!(record.handicap, if run == "even" { 0 } else { 2 });
            let mut engine = go_engine::game::Game::new(9, record.komi.unwrap()).unwrap();
            if record.handicap > 0 {
                engine.fixed_handicap(record.handicap).unwrap();
            }
            for m in &record.moves {
                engine
                    .play(m.color, m.mv)
                    .expect("a legal move for the engine's rules");
            }
            if termination == "score" {
                assert!(engine.is_over(), "{id}: two passes at the end");
                let score = engine.score();
                let theirs = match score {
                    s if s > 0.0 => format!("B+{s}"),
                    s if s < 0.0 => format!("W+{}", -s),
                    _ => "Draw".into(),
                };
                assert_eq!(record.result.as_deref(), Some(theirs.as_str()), "{id}");
                // GNU Go loads it and scores the final position under Chinese rules.
                let gnugo = gnugo_final_score(&sgf);
                scored += 1;
                if Some(gnugo.as_str()) != record.result.as_deref() {
                    mismatches.push(format!(
                        "{run} {id}: judge {}, GNU Go final_score {gnugo}",
                        record.result.as_deref().unwrap_or("?")
                    ));
                } else {
                    println!("{run} {id}: {gnugo} both");
                }
            } else {
                // A resigned game loads too.
                gnugo_final_score(&sgf);
            }
        }
        // `judge replay` steps through it in the terminal (here through a pipe): a Go
        // board with GTP's letters and rows, to the result.
        let replay = common::judge_typing(
            out.path(),
            ["replay", &dir_arg, "--game", "0-0-0"],
            b"G\nq\n",
        );
        let text = ok(&replay);
        let first = logged.iter().find(|g| g["id"] == "0-0-0").unwrap();
        let (termination, detail) = (&first["termination"], &first["detail"]);
        assert!(text.contains("    A  B  C  D  E  F  G  H  J"), "{text}");
        assert!(text.contains(" 9 ") && text.contains(" 1 "), "{text}");
        let said = format!(
            "({}: {}",
            termination.as_str().unwrap(),
            detail.as_str().unwrap()
        );
        assert!(text.contains(&said), "{said} in {text}");
        // The report's viewer draws Go boards from the referee's positions.
        let page = std::fs::read_to_string(dir.join("report.html")).unwrap();
        assert!(page.contains(r#""kind":"go""#) && page.contains(r#""grids":["#));
        if run == "handicap" {
            assert!(page.contains(r#""starts":"second""#));
        }
    }
    for m in &mismatches {
        eprintln!("score mismatch: {m}");
    }
    // GNU Go at level 1 with a fixed seed plays the same games every time: these agree
    // (a mismatch is a seki or a dead group GNU Go judges otherwise, logged above).
    assert!(scored >= 4, "{scored} games scored");
    assert!(mismatches.is_empty(), "{mismatches:?}");
}

#[test]
fn go_options_are_checked_before_any_game() {
    let dir = common::copied_scripts("go");
    let bot = fixture(dir.path(), "pass");
    for (args, message) in [
        (
            vec!["match", "a.so", "b.so", "--komi", "6.5"],
            "--komi and --handicap are Go's: give --game go",
        ),
        (
            vec!["match", "a.so", "b.so", "--size", "9"],
            "--size (in tournaments)",
        ),
        (
            vec!["match", "--game", "go", &bot, &bot, "--size", "26"],
            "--size 26: a Go board is 2 to 25 points a side",
        ),
        (
            vec!["match", "--game", "go", &bot, &bot, "--size", "9x13"],
            "a Go board is square",
        ),
        (
            vec!["match", "--game", "go", &bot, &bot, "--komi", "7.2"],
            "komi is a multiple of 0.5",
        ),
        (
            vec!["match", "--game", "go", &bot, &bot, "--handicap", "1"],
            "takes 0 or 2 to 9 handicap stones",
        ),
        (
            vec![
                "match",
                "--game",
                "go",
                &bot,
                &bot,
                "--size",
                "6",
                "--handicap",
                "2",
            ],
            "no fixed handicap on a 6x6 board",
        ),
        (
            vec![
                "match",
                "--game",
                "reversi",
                &bot,
                &bot,
                "--main-time",
                "60",
            ],
            "--main-time and --byoyomi are Go's game clock",
        ),
        (
            vec!["match", "--game", "go", &bot, &bot, "--main-time", "0"],
            "a game clock needs --main-time or --byoyomi",
        ),
        (
            vec!["match", "--game", "go", &bot, "botzone:python3 x.py"],
            "is a Reversi Botzone bot; Go needs gtp: players",
        ),
        (
            vec!["play", "--game", "go", &bot, "--blocked", "1,1"],
            "--blocked shapes a Connect-4 board",
        ),
    ] {
        let out = common::judge_leaving_nothing(&args);
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(!out.status.success(), "{args:?} succeeded");
        assert!(err.contains(message), "{args:?}: {err}");
    }
}

#[test]
fn judge_play_takes_vertices_and_passes_through_a_pipe() {
    let dir = common::copied_scripts("go");
    let cwd = tempfile::tempdir().unwrap();
    let bot = fixture(dir.path(), "pass");
    let save = cwd.path().join("games.jsonl");
    let save_arg = save.display().to_string();
    let out = common::judge_typing(
        cwd.path(),
        [
            "play", "--game", "go", "--size", "5", "--seed", "2", &bot, "--save", &save_arg,
        ],
        b"z9\nA1\npass\n",
    );
    let text = ok(&out);
    // A 5x5 board with GTP's labels, rows counted from the bottom.
    assert!(text.contains("    A  B  C  D  E"), "{text}");
    assert!(
        text.contains(" 5  ") && text.contains(" 1  X"),
        "A1 is Black's: {text}"
    );
    assert!(
        text.contains("\"z9\" is not a vertex of this board"),
        "{text}"
    );
    // The opening's two stones, A1, then two passes: White wins by komi less one point.
    assert!(
        text.contains("wins, W+6.5 (Tromp-Taylor, with komi)."),
        "{text}"
    );
    let saved = games(cwd.path());
    assert_eq!(saved.len(), 1);
    let g = &saved[0];
    assert_eq!(g["moves"], serde_json::json!(["A1", "pass", "pass"]));
    assert_eq!(
        (&g["termination"], &g["detail"]),
        (&serde_json::json!("score"), &serde_json::json!("W+6.5"))
    );
    assert_eq!(g["first"], "human");
}

#[test]
fn shards_of_a_go_run_merge_with_their_sgf_unless_the_rules_or_clocks_differ() {
    let dir = common::copied_scripts("go");
    let out = tempfile::tempdir().unwrap();
    let bot = fixture(dir.path(), "pass");
    let path = |name: &str| out.path().join(name).display().to_string();
    let shard = |part: &str, name: &str, extra: &[&str]| {
        let target = path(name);
        let mut args = vec![
            "match", "--game", "go", &bot, &bot, "--pairs", "2", "--seed", "5",
        ];
        args.extend(["--shard", part, "-q", "--out", &target]);
        args.extend(extra);
        ok(&common::judge_leaving_nothing(&args));
        target
    };
    let merge = |a: &str, b: &str, into: &str| {
        common::judge_leaving_nothing(["merge", a, b, "--out", &path(into)])
    };
    let (one, two) = (shard("1/2", "1", &[]), shard("2/2", "2", &[]));
    let text = ok(&merge(&one, &two, "merged"));
    assert!(
        text.contains("merged 2 part(s) of 2 shard(s): 4 of 4 games"),
        "{text}"
    );
    let mut sgf: Vec<String> = std::fs::read_dir(out.path().join("merged").join("sgf"))
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    sgf.sort();
    assert_eq!(sgf, ["0-0-0.sgf", "0-0-1.sgf", "0-1-0.sgf", "0-1-1.sgf"]);
    // Another komi is another game; another clock, another run.
    let komi = shard("2/2", "komi", &["--komi", "6.5"]);
    let refused = merge(&one, &komi, "m-komi");
    let err = String::from_utf8_lossy(&refused.stderr);
    assert!(!refused.status.success());
    assert!(
        err.contains("plays Go (9x9, komi 6.5)") && err.contains("Go (9x9, komi 7.5)"),
        "{err}"
    );
    let clock = shard(
        "2/2",
        "clock",
        &["--main-time", "60", "--move-limit-ms", "6000"],
    );
    let refused = merge(&one, &clock, "m-clock");
    let err = String::from_utf8_lossy(&refused.stderr);
    assert!(!refused.status.success());
    assert!(
        err.contains("were played on different game clocks"),
        "{err}"
    );
    assert!(err.contains("(clock 60 s main time, absolute)"), "{err}");
}

/// `--fixed-colours` (issue 49 item 8): a handicap match where the first player is Black,
/// taking the stones, in every game; run.json records it, the table says no pairs were
/// formed, a resume must repeat it, `--sprt` is refused with it, and a shard with fixed
/// colours is no part of a run with colours swapped.
#[test]
fn fixed_colours_keep_the_first_player_black_in_every_handicap_game() {
    let dir = common::copied_scripts("go");
    let out = tempfile::tempdir().unwrap();
    let (black, white) = (fixture(dir.path(), "pass"), fixture(dir.path(), "pass"));
    let run = out.path().join("fixed").display().to_string();
    let command = |extra: &[&str]| {
        let mut args = vec!["match", "--game", "go", "--handicap", "2", "--komi", "0.5"];
        args.extend([&black, &white, "--pairs", "2", "--seed", "5", "-q"]);
        args.extend(extra);
        common::judge_leaving_nothing(&args)
    };
    let text = ok(&command(&["--fixed-colours", "--out", &run]));
    let logged = games(Path::new(&run));
    assert_eq!(logged.len(), 4);
    let names: Vec<&str> = logged
        .iter()
        .map(|g| g["first"].as_str().unwrap())
        .collect();
    assert!(names.iter().all(|n| *n == names[0]), "{names:?}");
    for g in &logged {
        // Both pass: Black's two stones own the board.
        assert_eq!(g["board"]["handicap"], 2, "{g}");
        assert!(g["detail"].as_str().unwrap().starts_with("B+"), "{g}");
    }
    assert!(
        text.contains("4-0-0") && text.contains("first in every game): no pentanomial pairs"),
        "{text}"
    );
    let info = std::fs::read_to_string(Path::new(&run).join("run.json")).unwrap();
    assert!(info.contains(r#""colours": "fixed""#), "{info}");
    let summary: serde_json::Value = serde_json::from_str(
        &std::fs::read_to_string(Path::new(&run).join("summary.json")).unwrap(),
    )
    .unwrap();
    assert_eq!(summary["pairings"][0]["fixed_colours"], true);
    assert_eq!(
        summary["pairings"][0]["penta"],
        serde_json::json!([0, 0, 0, 0, 0])
    );
    // A resume keeps the colours: without the option it is refused, with it nothing is
    // left to play.
    let refused = command(&["--resume", &run]);
    let err = String::from_utf8_lossy(&refused.stderr);
    assert!(!refused.status.success());
    assert!(
        err.contains("that run was played with colours fixed; give --fixed-colours"),
        "{err}"
    );
    let resumed = command(&["--fixed-colours", "--resume", &run]);
    let err = String::from_utf8_lossy(&resumed.stderr);
    assert!(err.contains("0 games to play (4 already logged)"), "{err}");
    ok(&resumed);
    // No SPRT without pairs.
    let sprt = common::judge_leaving_nothing([
        "match",
        "--game",
        "go",
        &black,
        &white,
        "--fixed-colours",
        "--sprt",
        "elo0=0",
        "elo1=10",
        "alpha=0.05",
        "beta=0.05",
    ]);
    let err = String::from_utf8_lossy(&sprt.stderr);
    assert!(!sprt.status.success());
    assert!(err.contains("which --fixed-colours does not form"), "{err}");
    // Shards: fixed colours and swapped ones are parts of different runs.
    let shard = |name: &str, extra: &[&str]| {
        let target = out.path().join(name).display().to_string();
        let mut args = vec!["--shard", name, "--out", &target];
        args.extend(extra);
        ok(&command(&args));
        target
    };
    let (one, two) = (shard("1/2", &["--fixed-colours"]), shard("2/2", &[]));
    let merged = out.path().join("merged").display().to_string();
    let refused = common::judge_leaving_nothing(["merge", &one, &two, "--out", &merged]);
    let err = String::from_utf8_lossy(&refused.stderr);
    assert!(!refused.status.success());
    assert!(err.contains("with colours swapped and"), "{err}");
}
