//! `DIR/report.html`: one self-contained page per run (inline style and script, the run's
//! data embedded as JSON, nothing fetched): results table, Elo chart with error bars,
//! crosstable, pairings, and a game viewer that replays any game move by move.
//!
//! The page draws everything from the embedded data; the cells each stone landed on are
//! computed here by the game's rules, so the page never re-implements them.

use std::path::PathBuf;

use anyhow::{Context, Result};
use serde::Serialize;
use serde_json::Value;

use crate::games::{Game, GameKind, Side, Termination};
use crate::record::{self, GameRecord};
use crate::run_dir::RunDir;

/// The page, with `/*RUN_DATA*/` where the data goes.
const TEMPLATE: &str = include_str!("report.html");

/// One game as the viewer needs it (the log's fields minus paths and seeds).
#[derive(Serialize)]
#[serde(bound = "")]
struct ViewGame<'a, G: Game> {
    id: &'a str,
    first: &'a str,
    second: &'a str,
    result: &'a str,
    termination: &'a str,
    loser: Option<&'a str>,
    detail: Option<&'a str>,
    board: G::Setup,
    /// `[x, y]` of every stone, in move order (the rules' replay of `moves`); `null` for
    /// a pass.
    cells: Vec<Option<[i32; 2]>>,
    /// Games whose stones flip or leave the board (Reversi, Go): the board after 0, 1, ...
    /// moves, a string of `X` (first), `O` (second), `.` row by row.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    grids: Vec<String>,
    /// The game ("go" for Go, whose viewer draws a Go board); absent for the others, which
    /// the viewer tells apart by their boards.
    #[serde(skip_serializing_if = "Option::is_none")]
    kind: Option<&'static str>,
    /// `second` when the second side moves first (Go's handicap: White); absent when the
    /// first does, as always in Connect-4 and Reversi.
    #[serde(skip_serializing_if = "Option::is_none")]
    starts: Option<&'static str>,
    /// The winning line's cells, for `four`.
    line: Vec<[i32; 2]>,
    /// The winner's disc difference, for games that score one.
    #[serde(skip_serializing_if = "Option::is_none")]
    margin: Option<i32>,
    move_ms: &'a [f64],
    cpu_ms: &'a [Option<f64>],
}

fn view_game<'a, G: Game>(game: &G, g: &'a GameRecord<G>) -> ViewGame<'a, G> {
    let (positions, cells) = game.replay(&g.board, &g.moves);
    let line = match (g.termination, positions.last()) {
        (Termination::Four, Some(end)) if !cells.is_empty() => game.winning_line(end),
        _ => Vec::new(),
    };
    ViewGame {
        id: &g.id,
        first: &g.first,
        second: &g.second,
        result: g.result.as_str(),
        termination: g.termination.name(),
        loser: g.loser.map(|s| s.name()),
        detail: g.detail.as_deref(),
        board: g.board,
        cells: cells.iter().map(|c| c.map(|(x, y)| [x, y])).collect(),
        grids: if G::STONES_FLIP {
            positions
                .iter()
                .map(|p| game.grid(p).text_rows().concat())
                .collect()
        } else {
            Vec::new()
        },
        kind: matches!(game.kind(), GameKind::Go(_)).then_some("go"),
        starts: (G::first_mover(&g.board) == Side::Second).then_some("second"),
        line: line.iter().map(|&(x, y)| [x, y]).collect(),
        margin: g.margin,
        move_ms: &g.move_ms,
        cpu_ms: &g.cpu_ms,
    }
}

/// The page for a run: `summary` as in summary.json, `run` as in run.json (if any).
pub fn render<G: Game>(
    game: &G,
    summary: &Value,
    run: Option<&Value>,
    games: &[GameRecord<G>],
) -> Result<String> {
    let data = serde_json::json!({
        "summary": summary,
        "run": run,
        "games": games.iter().map(|g| view_game(game, g)).collect::<Vec<_>>(),
    });
    // `<` only occurs inside JSON strings, where `\u003c` means the same: no name or
    // detail can close the <script> element or open a comment.
    let json = serde_json::to_string(&data)?.replace('<', "\\u003c");
    Ok(TEMPLATE.replacen("/*RUN_DATA*/", &json, 1))
}

/// Writes `dir/report.html` from the run's files (summary.json, run.json if present,
/// games.jsonl) and returns its path. Always from the files, never from memory, so
/// `judge report DIR` writes the very same page as the run did.
pub fn write<G: Game>(game: &G, dir: &RunDir) -> Result<PathBuf> {
    let read_json = |path: PathBuf| -> Result<Value> {
        let text = std::fs::read_to_string(&path)
            .with_context(|| format!("reading {}", path.display()))?;
        serde_json::from_str(&text).with_context(|| format!("parsing {}", path.display()))
    };
    let summary = read_json(dir.summary())?;
    let run = read_json(dir.info()).ok();
    let games: Vec<GameRecord<G>> = record::read(&dir.games())?;
    let page = render(game, &summary, run.as_ref(), &games)?;
    let path = dir.report();
    let tmp = dir.path().join("report.html.tmp");
    std::fs::write(&tmp, page).with_context(|| format!("writing {}", tmp.display()))?;
    std::fs::rename(&tmp, &path).with_context(|| format!("writing {}", path.display()))?;
    Ok(path)
}

#[cfg(test)]
mod tests {
    use super::*;

    use crate::games::connect4::Connect4;

    fn game() -> GameRecord {
        let line = r#"{"id":"0-0-0","pairing":0,"pair":0,"game":0,"first":"a</script><!--","second":"b","first_path":"a.so","second_path":"b.so","result":"1-0","termination":"four","course_code":1,"loser":"second","board":{"M":6,"N":7,"noX":5,"noY":6},"moves":[0,1,0,1,0,1,0],"move_ms":[1,1,1,1,1,1,1],"cpu_ms":[null,null,null,null,null,null,null],"seed":1,"board_seed":2}"#;
        serde_json::from_str(line).unwrap()
    }

    #[test]
    fn page_is_self_contained_and_names_cannot_break_out_of_the_data() {
        let summary =
            serde_json::json!({"mode": "match", "games": 1, "players": [], "pairings": []});
        let page = render(&Connect4, &summary, None, &[game()]).unwrap();
        // The only URL is the SVG namespace name, which is an identifier, never fetched.
        let urls: Vec<&str> = page
            .match_indices("http")
            .map(|(i, _)| &page[i..(i + 26).min(page.len())])
            .collect();
        assert_eq!(urls, vec!["http://www.w3.org/2000/svg"]);
        for tag in ["<link", "src=", "@import", "url("] {
            assert!(
                !page.contains(tag),
                "page refers to something outside: {tag}"
            );
        }
        assert_eq!(page.matches("</script>").count(), 2);
        assert!(page.contains(r#""first":"a\u003c/script>\u003c!--""#));
        // The viewer gets the referee's cells and the winning line.
        assert!(page.contains(r#""cells":[[5,0],[5,1],[4,0],[4,1],[3,0],[3,1],[2,0]]"#));
        assert!(page.contains(r#""line":[[2,0],[3,0],[4,0],[5,0]]"#));
        assert!(!page.contains(r#""grids""#) && !page.contains(r#""margin""#));
    }

    #[test]
    fn reversi_games_carry_every_position_passes_and_the_margin() {
        use crate::games::reversi::Reversi;
        // From the opening d3c3b3b2b1a1 (the list's first): play, then check the page.
        let game = Reversi::default();
        let line = r#"{"id":"0-0-0","pairing":0,"pair":0,"game":0,"first":"a","second":"b","first_path":"a","second_path":"b","result":"1-0","termination":"illegal","course_code":6,"loser":"second","board":{"rule":"standard","opening":0,"moves":"d3c3b3b2b1a1"},"moves":[],"move_ms":[1,1],"cpu_ms":[null,null],"seed":1,"board_seed":2}"#;
        let mut record: GameRecord<Reversi> = serde_json::from_str(line).unwrap();
        let start = game.start(&record.board);
        let first = game.legal_moves(&start)[0];
        record.moves = vec![first];
        let (x, y) = game.move_cell(&start, first).unwrap();
        let view = serde_json::to_value(view_game(&game, &record)).unwrap();
        assert_eq!(view["cells"], serde_json::json!([[x, y]]));
        let grids = view["grids"].as_array().unwrap();
        assert_eq!(grids.len(), 2);
        assert_eq!(grids[0], game.grid(&start).text_rows().concat());
        assert_eq!(grids[0].as_str().unwrap().len(), 64);
        assert_ne!(grids[0], grids[1]);
        assert!(view.get("margin").is_none());
        // A pass is a null cell; a scored game keeps its margin.
        let mut scored = record.clone();
        scored.moves = vec![];
        scored.margin = Some(12);
        let view = serde_json::to_value(view_game(&game, &scored)).unwrap();
        assert_eq!(view["margin"], 12);
        let pass = crate::games::reversi::Move::Pass;
        let (_, cells) = game.replay(&record.board, &[pass]);
        assert!(cells.is_empty(), "an illegal pass ends the replay");
        assert!(view.get("kind").is_none() && view.get("starts").is_none());
    }

    #[test]
    fn go_games_carry_their_kind_who_starts_and_every_position() {
        use crate::games::go::Go;
        let game = Go {
            rules: crate::games::go::Rules::new(9, 0.5, 2).unwrap(),
        };
        let line = r#"{"id":"0-0-0","pairing":0,"pair":0,"game":0,"first":"a","second":"b","first_path":"a","second_path":"b","result":"1-0","termination":"resign","course_code":2,"loser":"second","detail":"B+R","board":{"size":9,"komi":0.5,"handicap":2,"opening":["E5","D4"]},"moves":["A1","pass","resign"],"move_ms":[1,1,1],"cpu_ms":[null,null,null],"seed":1,"board_seed":2}"#;
        let record: GameRecord<Go> = serde_json::from_str(line).unwrap();
        let view = serde_json::to_value(view_game(&game, &record)).unwrap();
        assert_eq!(view["kind"], "go");
        assert_eq!(
            view["starts"], "second",
            "White moves first after a handicap"
        );
        // A1 is the bottom-left corner; the pass and the resignation mark no cell.
        assert_eq!(view["cells"], serde_json::json!([[8, 0], null, null]));
        let grids = view["grids"].as_array().unwrap();
        assert_eq!(grids.len(), 4);
        let start = grids[0].as_str().unwrap();
        assert_eq!(start.len(), 81);
        // Black's handicap C3 and G7 and opening D4, White's opening E5.
        assert_eq!(start.matches('X').count(), 3);
        assert_eq!(start.matches('O').count(), 1);
        assert_eq!(&grids[1].as_str().unwrap()[72..73], "O", "White's A1");
    }
}
