//! `judge replay LOG [--game K]`: step through a logged game in the terminal.

use std::path::{Path, PathBuf};

use anyhow::{Result, bail};

use super::Shown;
use super::term::{self, Key, Term};
use crate::games::connect4::Connect4;
use crate::games::go::{self, Go};
use crate::games::reversi::Reversi;
use crate::games::{Cell, Game, GameKind, MoveCell, Side, Termination};
use crate::record::{self, GameRecord};
use crate::run_dir::RunDir;

/// What to replay.
#[derive(Debug, Clone)]
pub struct ReplayOptions {
    /// A games.jsonl file, or a run directory holding one.
    pub log: PathBuf,
    /// Which game: its id (e.g. `0-3-1`) or its line number counted from 0.
    pub game: String,
}

/// `judge replay`.
pub fn run(args: &ReplayOptions) -> Result<()> {
    let path = if args.log.is_dir() {
        RunDir::at(&args.log).games()
    } else {
        args.log.clone()
    };
    match log_game(&path) {
        GameKind::Connect4 => replay_log(&Connect4, args, &path),
        GameKind::Reversi(rule) => replay_log(&Reversi { rule }, args, &path),
        GameKind::Go(rules) => replay_log(&Go { rules }, args, &path),
    }
}

/// The game a log holds, from its first line's `board` (a log with no games, or an
/// unreadable one, is left to [`record::read`] to report).
fn log_game(path: &Path) -> GameKind {
    let text = std::fs::read_to_string(path).unwrap_or_default();
    let board = text
        .lines()
        .find(|l| !l.trim().is_empty())
        .and_then(|l| serde_json::from_str::<serde_json::Value>(l).ok())
        .and_then(|v| v.get("board").cloned());
    board.map_or(GameKind::Connect4, |b| game_of_board(&b))
}

/// The game a games.jsonl line's `board` belongs to: Reversi's names its `rule` and
/// `opening`, Go's its `komi` (and size and handicap), Connect-4's its size.
fn game_of_board(board: &serde_json::Value) -> GameKind {
    if board.get("komi").is_some() {
        let go = serde_json::from_value::<go::Setup>(board.clone()).ok();
        return GameKind::Go(go.map(|s| s.rules()).unwrap_or_default());
    }
    match board.get("rule").and_then(|r| r.as_str()) {
        Some(rule) if board.get("opening").is_some() => {
            GameKind::Reversi(rule.parse().unwrap_or_default())
        }
        _ => GameKind::Connect4,
    }
}

fn replay_log<G: Shown>(game: &G, args: &ReplayOptions, path: &Path) -> Result<()> {
    let games: Vec<GameRecord<G>> = record::read(path)?;
    if games.is_empty() {
        bail!("{}: no games", path.display());
    }
    let Some(index) = find_game(&games, &args.game) else {
        bail!(
            "{}: no game {:?} (give an id like {:?} or a number 0..{})",
            path.display(),
            args.game,
            games[0].id,
            games.len() - 1
        );
    };
    replay(game, &games[index], index, path)
}

/// A game by id, or by its line number in the log.
fn find_game<G: Shown>(games: &[GameRecord<G>], which: &str) -> Option<usize> {
    games
        .iter()
        .position(|g| g.id == which)
        .or_else(|| which.parse::<usize>().ok().filter(|&i| i < games.len()))
}

fn replay<G: Shown>(rules: &G, game: &GameRecord<G>, index: usize, path: &Path) -> Result<()> {
    let (positions, landed) = rules.replay(&game.board, &game.moves);
    let mut term = Term::open();
    let mut at = 0;
    let mut hint = String::new();
    loop {
        term.show(&frame(
            rules,
            game,
            index,
            path,
            (&positions, &landed),
            at,
            &term,
            &hint,
        ));
        hint.clear();
        let key = term.read_key();
        let key = match key {
            Key::Line(s) if s.chars().count() == 1 => Key::Char(s.chars().next().unwrap_or(' ')),
            k => k,
        };
        match key {
            Key::Quit | Key::Char('q' | 'Q') => break,
            Key::Right | Key::Char('n' | 'l' | ' ') | Key::Line(_) if at < landed.len() => at += 1,
            Key::Left | Key::Char('p' | 'h') if at > 0 => at -= 1,
            Key::Home | Key::Char('g' | '0') => at = 0,
            Key::End | Key::Char('G' | '$') => at = landed.len(),
            Key::Right | Key::Char('n' | 'l' | ' ') | Key::Line(_) => {
                hint = "That is the last move.".into()
            }
            Key::Left | Key::Char('p' | 'h') => hint = "That is the start.".into(),
            _ => hint = "Keys: n or → next, p or ← back, Home/End (or g/G), q quits.".into(),
        }
    }
    Ok(())
}

/// The screen after `at` of the game's moves.
#[allow(clippy::too_many_arguments)]
fn frame<G: Shown>(
    rules: &G,
    game: &GameRecord<G>,
    index: usize,
    path: &Path,
    (positions, landed): (&[G::Position], &[MoveCell]),
    at: usize,
    term: &Term,
    hint: &str,
) -> String {
    let grid = rules.grid(&positions[at]);
    // After a Reversi opening the start has a last move too: the opening's.
    let last = rules.last_cell(&positions[at]);
    let line = match (at == landed.len(), game.termination) {
        (true, Termination::Four) => rules.winning_line(&positions[at]),
        _ => Vec::new(),
    };
    let color = term.color;
    let mut out = String::new();
    term.begin_frame(&mut out);
    out.push_str(&format!(
        "{} game {index} ({}): {} {} against {} {}\n{}\n\n",
        path.display(),
        game.id,
        term::stone_label(color, Cell::First, G::STONES),
        game.first,
        term::stone_label(color, Cell::Second, G::STONES),
        game.second,
        rules.setup_line(&game.board),
    ));
    out.push_str(&term::draw_board(&grid, last, &line, color, rules.labels()));
    out.push_str(&move_line(rules, game, landed, at));
    if at == landed.len() {
        out.push_str(&result_line(game));
    }
    if !hint.is_empty() {
        out.push_str(hint);
        out.push('\n');
    }
    out.push_str(if term.raw() {
        "n/→ next, p/← back, Home/End, q quits\n"
    } else {
        "n next, p back, g start, G end, q quits (then Enter)\n"
    });
    out
}

/// What the move that led to `at` was (who played where, and how long it took), or at the
/// start how many moves are to come.
fn move_line<G: Shown>(rules: &G, game: &GameRecord<G>, landed: &[MoveCell], at: usize) -> String {
    if at == 0 {
        return format!("Start: {} moves to go.\n", landed.len());
    }
    let k = at - 1;
    let first_moves = G::first_mover(&game.board) == Side::First;
    let mover = if k.is_multiple_of(2) == first_moves {
        &game.first
    } else {
        &game.second
    };
    let ms = game
        .move_ms
        .get(k)
        .map(|ms| format!(" in {ms:.1} ms"))
        .unwrap_or_default();
    let what = match landed[k] {
        None => "passed".to_string(),
        cell => format!("played {}", rules.played(cell)),
    };
    format!("Move {at}/{}: {mover} {what}{ms}.\n", landed.len())
}

/// The game's result: how it ended, by how much, and who lost.
fn result_line<G: Game>(game: &GameRecord<G>) -> String {
    let detail = game
        .detail
        .as_deref()
        .map(|d| format!(": {d}"))
        .unwrap_or_default();
    let loser = match game.loser {
        Some(Side::First) => format!(", {} loses", game.first),
        Some(Side::Second) => format!(", {} loses", game.second),
        None => String::new(),
    };
    let margin = game
        .margin
        .map(|m| format!(" by {m} discs"))
        .unwrap_or_default();
    format!(
        "Result {}{margin} ({}{detail}{loser}).\n",
        game.result,
        game.termination.name()
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::reversi::Rule;

    #[test]
    fn the_log_line_tells_the_game() {
        let c4 = serde_json::json!({"M": 9, "N": 9, "noX": 1, "noY": 2});
        assert_eq!(game_of_board(&c4), GameKind::Connect4);
        let rv = serde_json::json!({"rule": "no-adjacent", "opening": 3, "moves": ""});
        assert_eq!(game_of_board(&rv), GameKind::Reversi(Rule::NoAdjacent));
    }
}
