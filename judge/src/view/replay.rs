//! `judge replay LOG [--game K]`: step through a logged game in the terminal.

use std::path::{Path, PathBuf};

use anyhow::{Result, bail};

use super::column_key;
use super::term::{self, Key, Term};
use crate::games::connect4::{Connect4, Position};
use crate::games::{Cell, Game, Side, Termination};
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
    let games: Vec<GameRecord> = record::read(&path)?;
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
    replay(&games[index], index, &path)
}

/// A game by id, or by its line number in the log.
fn find_game(games: &[GameRecord], which: &str) -> Option<usize> {
    games
        .iter()
        .position(|g| g.id == which)
        .or_else(|| which.parse::<usize>().ok().filter(|&i| i < games.len()))
}

fn replay(game: &GameRecord, index: usize, path: &Path) -> Result<()> {
    let (positions, landed) = Connect4.replay(&game.board, &game.moves);
    let mut term = Term::open();
    let mut at = 0;
    let mut hint = String::new();
    loop {
        term.show(&frame(
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
fn frame(
    game: &GameRecord,
    index: usize,
    path: &Path,
    (positions, landed): (&[Position], &[(i32, i32)]),
    at: usize,
    term: &Term,
    hint: &str,
) -> String {
    let spec = game.board;
    let grid = Connect4.grid(&positions[at]);
    let last = at.checked_sub(1).map(|k| landed[k]);
    let line = match (at == landed.len(), game.termination) {
        (true, Termination::Four) => Connect4.winning_line(&positions[at]),
        _ => Vec::new(),
    };
    let color = term.color;
    let mut out = String::new();
    term.begin_frame(&mut out);
    out.push_str(&format!(
        "{} game {index} ({}): {} {} against {} {}\nboard {}x{}, blocked cell row {} column {}\n\n",
        path.display(),
        game.id,
        term::stone_label(color, Cell::First),
        game.first,
        term::stone_label(color, Cell::Second),
        game.second,
        spec.m,
        spec.n,
        spec.no_x,
        column_key(spec.no_y)
    ));
    out.push_str(&term::draw_board(&grid, last, &line, color));
    if at == 0 {
        out.push_str(&format!("Start: {} moves to go.\n", landed.len()));
    } else {
        let k = at - 1;
        let mover = if k.is_multiple_of(2) {
            &game.first
        } else {
            &game.second
        };
        let ms = game
            .move_ms
            .get(k)
            .map(|ms| format!(" in {ms:.1} ms"))
            .unwrap_or_default();
        out.push_str(&format!(
            "Move {at}/{}: {mover} played column {}{ms}.\n",
            landed.len(),
            column_key(landed[k].1)
        ));
    }
    if at == landed.len() {
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
        out.push_str(&format!(
            "Result {} ({}{detail}{loser}).\n",
            game.result,
            game.termination.name()
        ));
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
