//! `judge play --web` in a real browser: the judge serves the board against a library
//! that takes 200 ms a move, headless Chromium opens the page with `#autotest`, the page
//! plays the person's side through its own click handlers (the first legal cell in
//! reading order) until the result, stops the judge and writes what it showed into the
//! DOM; this test checks that against the game the judge saved, replayed by its rules.

use std::io::{BufRead, BufReader, Read};
use std::path::Path;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use gravity4_judge::games::connect4::Connect4;
use gravity4_judge::games::{Cell, Game, Side, Termination};
use gravity4_judge::record::{self, GameResult};
use serde_json::{Value, json};

mod common;

/// How long the judge may take to exit once the page stopped it.
const EXIT_WAIT: Duration = Duration::from_secs(15);

/// A shown time such as `"200.6 ms"` as a number.
fn shown_ms(text: &Value) -> f64 {
    let text = text.as_str().expect("a time is shown");
    text.strip_suffix(" ms")
        .and_then(|t| t.parse().ok())
        .unwrap_or_else(|| panic!("not a time: {text:?}"))
}

fn entries(dir: &Path) -> Vec<String> {
    std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect()
}

#[test]
fn a_whole_game_through_the_page_in_headless_chromium() {
    common::chromium(); // fail early, with the install hint, if it is missing
    let libs = tempfile::tempdir().unwrap();
    let lib = common::fixture(libs.path(), "slow", &[]);
    let cwd = tempfile::tempdir().unwrap();
    let tmp = tempfile::tempdir().unwrap();
    let save = cwd.path().join("played").join("games.jsonl");
    let mut judge = Command::new(env!("CARGO_BIN_EXE_judge"))
        .arg("play")
        .arg(&lib)
        .args(["--web", "--seed", "3", "--size", "6x7", "--save"])
        .arg(&save)
        .current_dir(cwd.path())
        .env("TMPDIR", tmp.path())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("run judge");
    let mut stdout = BufReader::new(judge.stdout.take().unwrap());
    let mut printed = String::new();
    let url = loop {
        let mut line = String::new();
        if stdout.read_line(&mut line).unwrap() == 0 {
            let _ = judge.kill();
            panic!("the judge printed no URL: {printed}");
        }
        printed.push_str(&line);
        if let Some(at) = line.find("http://") {
            let url = line[at..].split_whitespace().next().unwrap().to_string();
            break url;
        }
    };
    assert!(
        url.starts_with("http://127.0.0.1:"),
        "bound to loopback: {url}"
    );
    assert!(
        printed.contains("you (first) against slow, board 6x7"),
        "{printed}"
    );

    let shown = common::autotest_json(&common::dump_dom(&format!("{url}#autotest"), 60_000));
    assert_eq!(shown["quit"], true, "the page stopped the judge: {shown}");
    let deadline = Instant::now() + EXIT_WAIT;
    let status = loop {
        if let Some(status) = judge.try_wait().unwrap() {
            break status;
        }
        if Instant::now() > deadline {
            let _ = judge.kill();
            panic!("the judge did not exit after the page's Stop");
        }
        std::thread::sleep(Duration::from_millis(20));
    };
    let mut stderr = String::new();
    judge
        .stderr
        .take()
        .unwrap()
        .read_to_string(&mut stderr)
        .unwrap();
    assert!(status.success(), "judge failed: {stderr}");
    // Nothing left behind: the AI's scratch directories and log went with it.
    assert_eq!(entries(cwd.path()), ["played"]);
    assert!(entries(tmp.path()).is_empty(), "{:?}", entries(tmp.path()));

    // The saved game is legal by the judge's rules and ends as it says.
    let games = record::read::<Connect4>(&save).unwrap();
    assert_eq!(games.len(), 1);
    let g = &games[0];
    assert_eq!((g.first.as_str(), g.second.as_str()), ("human", "slow"));
    let (positions, cells) = Connect4.replay(&g.board, &g.moves);
    assert_eq!(cells.len(), g.moves.len(), "every saved move is legal");
    let end = Connect4
        .end(positions.last().unwrap())
        .expect("the saved game is over");
    assert_eq!(
        (GameResult::of(end.winner), end.termination),
        (g.result, g.termination)
    );
    assert_eq!(g.move_ms.len(), g.moves.len());

    // Each of the person's turns marked exactly the judge's legal cells and the AI's last
    // move, and the page clicked the first legal cell in reading order.
    let turns = shown["turns"].as_array().unwrap();
    assert_eq!(turns.len(), g.moves.len().div_ceil(2));
    for (k, turn) in turns.iter().enumerate() {
        let ply = 2 * k;
        let mut legal: Vec<(i32, i32)> = Connect4
            .legal_moves(&positions[ply])
            .iter()
            .map(|p| (p.x, p.y))
            .collect();
        legal.sort();
        assert_eq!(turn["legal"], json!(legal), "legal cells at ply {ply}");
        let last = ply.checked_sub(1).and_then(|i| cells[i]);
        assert_eq!(turn["last"], json!(last), "last move at ply {ply}");
        assert_eq!(cells[ply], Some(legal[0]), "the page's click at ply {ply}");
    }

    // The move list: every move, each AI move's time as logged, and the AI's total.
    let moves = shown["moves"].as_array().unwrap();
    assert_eq!(moves.len(), g.moves.len());
    let mut ai_total = 0.0;
    for (i, m) in moves.iter().enumerate() {
        let (_, column) = cells[i].expect("Connect-4 has no passes");
        assert_eq!(m["what"], format!("column {column}"), "move {i}");
        if i % 2 == 0 {
            assert_eq!((&m["who"], &m["ms"]), (&json!("You"), &Value::Null));
        } else {
            assert_eq!(m["who"], "slow");
            let logged = g.move_ms[i];
            assert!(logged >= 200.0, "the library sleeps 200 ms: {logged}");
            assert!(
                (shown_ms(&m["ms"]) - logged).abs() <= 0.05 + 1e-9,
                "move {i}: shown {} for {logged} ms",
                m["ms"]
            );
            ai_total += logged;
        }
    }
    assert!(
        (shown_ms(&shown["total"]) - ai_total).abs() <= 0.05 + 1e-9,
        "total shown {} for {ai_total} ms",
        shown["total"]
    );
    assert!(
        shown["thinking"].as_u64().unwrap() >= 1,
        "the page showed the AI thinking"
    );

    // The final board as the judge draws it, the winning line, the result and the save.
    let grid = Connect4.grid(positions.last().unwrap());
    let rows: Vec<String> = (0..grid.rows)
        .map(|x| {
            (0..grid.cols)
                .map(|y| match grid.get(x, y) {
                    Cell::Empty => '.',
                    Cell::Blocked => '#',
                    Cell::First => 'X',
                    Cell::Second => 'O',
                })
                .collect()
        })
        .collect();
    assert_eq!(shown["board"], json!(rows));
    let result = match (end.winner, end.termination) {
        (Some(Side::First), Termination::Four) => "You win: four in a row!".to_string(),
        (Some(Side::Second), Termination::Four) => "slow wins: four in a row.".to_string(),
        (None, _) => "Tie: the board is full.".to_string(),
        other => panic!("the game cannot end so: {other:?}"),
    };
    assert_eq!(shown["result"], result);
    if end.termination == Termination::Four {
        assert!(shown["win_cells"].as_u64().unwrap() >= 4);
    }
    assert_eq!(
        shown["saved"],
        format!(
            "Saved as game 0 of {} (judge replay {} --game 0).",
            save.display(),
            save.display()
        )
    );
}
