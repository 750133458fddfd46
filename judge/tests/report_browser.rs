//! `report.html` in a real browser: a small round-robin writes it, headless Chromium
//! opens it with `#autotest`, the page clicks through a replay with its own buttons and
//! arrow keys and writes what it showed into the DOM, and this test reads the dumped DOM
//! against the game log, replayed here with its own obviously-correct gravity.

use std::path::PathBuf;
use std::process::Command;

use common::autotest_json;
use serde_json::Value;
use testkit::chromium::{chromium, dump_dom};
use testkit::partner::gnugo_missing;

mod common;

/// The board after `k` moves as text rows (`X` first mover, `O` second, `#` blocked),
/// by the plainest reading of the rules: a stone falls to the lowest empty cell of its
/// column that is not the blocked cell.
fn board_after(game: &Value, k: usize) -> Vec<String> {
    let b = &game["board"];
    let (m, n) = (
        b["M"].as_u64().unwrap() as usize,
        b["N"].as_u64().unwrap() as usize,
    );
    let (bx, by) = (
        b["noX"].as_u64().unwrap() as usize,
        b["noY"].as_u64().unwrap() as usize,
    );
    let mut g = vec![vec!['.'; n]; m];
    g[bx][by] = '#';
    for (ply, y) in game["moves"].as_array().unwrap()[..k].iter().enumerate() {
        let y = y.as_u64().unwrap() as usize;
        let x = (0..m)
            .rev()
            .find(|&x| g[x][y] == '.')
            .expect("column has room");
        g[x][y] = if ply % 2 == 0 { 'X' } else { 'O' };
    }
    g.into_iter().map(|r| r.into_iter().collect()).collect()
}

fn last_cell(game: &Value, k: usize) -> Value {
    let before = board_after(game, k - 1);
    let after = board_after(game, k);
    for (x, (a, b)) in before.iter().zip(&after).enumerate() {
        if let Some(y) = a.chars().zip(b.chars()).position(|(p, q)| p != q) {
            return serde_json::json!([x, y]);
        }
    }
    panic!("move {k} changed nothing");
}

#[test]
fn report_replays_a_game_in_headless_chromium() {
    chromium(); // fail early, with the install hint, if it is missing
    let libs = tempfile::tempdir().unwrap();
    let lib_args: Vec<PathBuf> = ["legal", "fast", "segfault"]
        .iter()
        .map(|n| common::fixture(libs.path(), n, &[]))
        .collect();
    let work = tempfile::tempdir().unwrap();
    let dir = work.path().join("run");
    let out = Command::new(env!("CARGO_BIN_EXE_judge"))
        .arg("round-robin")
        .args(&lib_args)
        .args(["--pairs", "2", "--seed", "11", "-q", "--out"])
        .arg(&dir)
        .env("TMPDIR", work.path())
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let page = std::fs::read_to_string(dir.join("report.html")).unwrap();

    // Self-contained: no URL but the SVG namespace name (an identifier, never fetched).
    let urls: Vec<&str> = page
        .match_indices("://")
        .map(|(i, _)| {
            let from = page[..i].rfind(['"', '\'', '(', ' ']).map_or(0, |k| k + 1);
            let to = i + page[i..].find(['"', '\'', ')', ' ']).unwrap_or(0);
            &page[from..to]
        })
        .collect();
    assert_eq!(urls, vec!["http://www.w3.org/2000/svg"]);

    // `judge report DIR` writes the same page again.
    std::fs::remove_file(dir.join("report.html")).unwrap();
    let out = Command::new(env!("CARGO_BIN_EXE_judge"))
        .arg("report")
        .arg(&dir)
        .output()
        .unwrap();
    assert!(out.status.success());
    assert_eq!(
        std::fs::read_to_string(dir.join("report.html")).unwrap(),
        page
    );

    let games: Vec<Value> = std::fs::read_to_string(dir.join("games.jsonl"))
        .unwrap()
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    let summary: Value =
        serde_json::from_str(&std::fs::read_to_string(dir.join("summary.json")).unwrap()).unwrap();
    // A game long enough for the scripted clicks, ending in four: pick the longest.
    let (index, game) = games
        .iter()
        .enumerate()
        .filter(|(_, g)| g["termination"] == "four")
        .max_by_key(|(_, g)| g["moves"].as_array().unwrap().len())
        .unwrap();
    let total = game["moves"].as_array().unwrap().len();
    assert!(total >= 8, "longest game has only {total} moves");

    let url = format!(
        "file://{}#autotest&game={}",
        dir.join("report.html").display(),
        game["id"].as_str().unwrap()
    );
    let shown = autotest_json(&dump_dom(&url, 5000));
    let steps = shown["steps"].as_array().unwrap();
    // next x5, back x1 -> 4; right arrow x2 -> 6; End button -> total; Home key -> 0.
    for (step, k) in steps.iter().zip([4, 6, total, 0]) {
        assert_eq!(step["game"], game["id"]);
        assert_eq!(step["selected"], index.to_string());
        assert_eq!(step["move_no"], format!("move {k} / {total}"));
        assert_eq!(
            step["board"],
            serde_json::json!(board_after(game, k)),
            "board after {k} moves"
        );
        if k > 0 {
            assert_eq!(
                step["last"],
                last_cell(game, k),
                "last move after {k} moves"
            );
            let mover = if (k - 1) % 2 == 0 {
                &game["first"]
            } else {
                &game["second"]
            };
            let col = game["moves"][k - 1].as_u64().unwrap();
            let info = step["move_info"].as_str().unwrap();
            assert!(
                info.starts_with(&format!(
                    "Move {k}: {} played column {col}",
                    mover.as_str().unwrap()
                )),
                "{info}"
            );
            assert!(info.contains(" ms"), "move time shown: {info}");
        } else {
            assert_eq!(step["move_info"], "Start position.");
        }
    }
    assert_eq!(
        steps[2]["win_cells"], 4,
        "the winning line is marked at the end"
    );
    assert!(steps[2]["result"].as_str().unwrap().starts_with(&format!(
        "Result {} by four",
        game["result"].as_str().unwrap()
    )));

    // Tables and chart as the summary says.
    let names: Vec<&str> = summary["players"]
        .as_array()
        .unwrap()
        .iter()
        .map(|p| p["name"].as_str().unwrap())
        .collect();
    assert_eq!(shown["players"], serde_json::json!(names));
    let players = summary["players"].as_array().unwrap();
    let count = |f: &dyn Fn(&Value) -> bool| players.iter().filter(|p| f(p)).count();
    assert_eq!(
        shown["error_bars"],
        count(&|p| !p["elo"]["margin95"].is_null())
    );
    assert_eq!(shown["infinite"], count(&|p| p["elo"]["elo"].is_null()));
    assert_eq!(shown["options"], games.len());
    let ct = &summary["crosstable"];
    let rows = shown["crosstable"].as_array().unwrap();
    assert_eq!(rows[0][1], ct["names"][0]);
    for (i, row) in ct["results"].as_array().unwrap().iter().enumerate() {
        for (j, cell) in row.as_array().unwrap().iter().enumerate() {
            let want = if cell.is_null() {
                "-".to_string()
            } else {
                format!("{}-{}-{}", cell["wins"], cell["draws"], cell["losses"])
            };
            assert_eq!(rows[i + 1][j + 1], want.as_str(), "crosstable [{i}][{j}]");
        }
    }
}

/// A Go handicap game in the report's viewer: GNU Go against GNU Go with 2 stones (White
/// moves first), replayed here by the engine's rules (`go_engine::game`, not the judge's).
#[test]
fn report_replays_a_go_game_in_headless_chromium() {
    if gnugo_missing() {
        return;
    }
    use go_engine::game::Game as Engine;
    use go_engine::point::{Color, Move as EngineMove, Point};
    chromium();
    let work = tempfile::tempdir().unwrap();
    let dir = work.path().join("run");
    let gnugo = "gtp:/usr/games/gnugo --mode gtp --level 1 --chinese-rules --capture-all-dead --positional-superko --seed 1";
    let out = Command::new(env!("CARGO_BIN_EXE_judge"))
        .args([
            "match",
            "--game",
            "go",
            gnugo,
            gnugo,
            "--handicap",
            "2",
            "--komi",
            "0.5",
        ])
        .args(["--pairs", "1", "--seed", "3", "-q", "--out"])
        .arg(&dir)
        .env("TMPDIR", work.path())
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let game: Value = serde_json::from_str(
        std::fs::read_to_string(dir.join("games.jsonl"))
            .unwrap()
            .lines()
            .next()
            .unwrap(),
    )
    .unwrap();
    let letters = "ABCDEFGHJKLMNOPQRSTUVWXYZ";
    let point = |v: &str| {
        let x = letters.find(&v[..1]).unwrap();
        let row: usize = v[1..].parse().unwrap();
        Point::new(x, 9 - row)
    };
    let moves: Vec<&str> = game["moves"]
        .as_array()
        .unwrap()
        .iter()
        .map(|m| m.as_str().unwrap())
        .collect();
    let total = moves.len();
    assert!(total >= 8, "{total} moves");
    // The board after the opening and `k` moves, as rows of X (black), O (white), `.`.
    let board_after = |k: usize| {
        let mut e = Engine::new(9, 0.5).unwrap();
        e.fixed_handicap(2).unwrap();
        let opening = game["board"]["opening"].as_array().unwrap();
        for v in opening
            .iter()
            .map(|v| v.as_str().unwrap())
            .chain(moves[..k].iter().copied())
        {
            let mv = match v {
                "pass" => EngineMove::Pass,
                "resign" => EngineMove::Resign,
                v => EngineMove::Play(point(v)),
            };
            e.play(e.to_move(), mv).unwrap();
        }
        (0..9)
            .map(|y| {
                (0..9)
                    .map(|x| match e.board().stone_at(Point::new(x, y)) {
                        Some(Color::Black) => 'X',
                        Some(Color::White) => 'O',
                        None => '.',
                    })
                    .collect::<String>()
            })
            .collect::<Vec<_>>()
    };
    let url = format!(
        "file://{}#autotest&game={}",
        dir.join("report.html").display(),
        game["id"].as_str().unwrap()
    );
    let shown = autotest_json(&dump_dom(&url, 5000));
    let steps = shown["steps"].as_array().unwrap();
    for (step, k) in steps.iter().zip([4, 6, total, 0]) {
        assert_eq!(step["move_no"], format!("move {k} / {total}"));
        assert_eq!(
            step["board"],
            serde_json::json!(board_after(k)),
            "after {k}"
        );
        if k == 0 {
            continue;
        }
        // White moved first after the handicap: odd moves are Black's.
        let mover = if (k - 1) % 2 == 0 {
            &game["second"]
        } else {
            &game["first"]
        };
        let info = step["move_info"].as_str().unwrap();
        let played = moves[k - 1];
        let said = match played {
            "pass" => " passed".to_string(),
            "resign" => " resigned".to_string(),
            v => {
                let p = point(v);
                assert_eq!(
                    step["last"],
                    serde_json::json!([p.y, p.x]),
                    "last after {k}"
                );
                format!(" played {v}")
            }
        };
        assert!(
            info.starts_with(&format!("Move {k}: {}{said}", mover.as_str().unwrap())),
            "{info}"
        );
    }
    let result = steps[2]["result"].as_str().unwrap();
    assert!(
        result.starts_with(&format!(
            "Result {} by {} ({})",
            game["result"].as_str().unwrap(),
            game["termination"].as_str().unwrap(),
            game["detail"].as_str().unwrap()
        )),
        "{result}"
    );
}
