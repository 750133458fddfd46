//! Game records for training: every game under a directory (or in one file), read as SGF
//! collections (several games in a file are all taken) or as lines of moves in the form the
//! Tygem server's archive uses (`ID<TAB>;B[qd];W[qp];...`, 19x19, no setup).

use std::fs;
use std::path::{Path, PathBuf};

use crate::board::Board;
use crate::point::{Color, Move};
use crate::sgf::parse;
use crate::sgf::record::GameRecord;

/// The games of one source and what could not be read.
#[derive(Debug, Default)]
pub struct Source {
    /// The path given.
    pub name: String,
    /// The games, in the order of the sorted file names and their place in each file.
    pub games: Vec<GameRecord>,
    /// Files or games that were not games of Go this engine can replay.
    pub skipped: usize,
}

/// Every game under `path` (a directory, searched recursively in name order, or a file).
pub fn read_source(path: &Path) -> Result<Source, String> {
    let mut files = Vec::new();
    collect_files(path, &mut files).map_err(|e| format!("{}: {e}", path.display()))?;
    files.sort();
    let mut source = Source {
        name: path.display().to_string(),
        ..Source::default()
    };
    for file in files {
        let Ok(bytes) = fs::read(&file) else {
            source.skipped += 1;
            continue;
        };
        read_file(&bytes, &mut source);
    }
    Ok(source)
}

/// The files under `path`, in any order.
fn collect_files(path: &Path, out: &mut Vec<PathBuf>) -> std::io::Result<()> {
    if path.is_dir() {
        for entry in fs::read_dir(path)? {
            collect_files(&entry?.path(), out)?;
        }
    } else {
        out.push(path.to_path_buf());
    }
    Ok(())
}

/// The games of one file, added to `source`.
fn read_file(bytes: &[u8], source: &mut Source) {
    let text = String::from_utf8_lossy(bytes);
    let is_lines = text
        .lines()
        .find(|l| !l.trim().is_empty())
        .is_some_and(|l| l.contains("\t;"));
    if is_lines {
        for line in text.lines().filter(|l| !l.trim().is_empty()) {
            let Some((_, moves)) = line.split_once('\t') else {
                source.skipped += 1;
                continue;
            };
            let sgf = format!("(;GM[1]SZ[19]{})", moves.trim());
            match GameRecord::from_sgf(sgf.as_bytes()) {
                Ok(game) => source.games.push(game),
                Err(_) => source.skipped += 1,
            }
        }
        return;
    }
    match parse(bytes) {
        Ok(trees) => {
            for tree in &trees {
                match GameRecord::from_tree(tree) {
                    Ok(game) => source.games.push(game),
                    Err(_) => source.skipped += 1,
                }
            }
        }
        Err(_) => source.skipped += 1,
    }
}

/// One position of a replayed game: the board, the side to move, the two moves before and
/// the move played (a point index).
pub struct Position<'a> {
    /// The board before the move.
    pub board: &'a Board,
    /// The side to move.
    pub color: Color,
    /// The two moves before, most recent first (`None`: a pass or nothing).
    pub recent: [Option<usize>; 2],
    /// The point played.
    pub played: usize,
}

/// Replays `game` from its setup, calling `visit` before each move that is a stone (passes
/// are played, not visited); stops at the first move the board refuses. Returns the number
/// of positions visited.
pub fn replay(game: &GameRecord, mut visit: impl FnMut(&Position<'_>)) -> usize {
    let Some(mut board) = Board::new(game.size) else {
        return 0;
    };
    for &(c, p) in &game.setup {
        let i = board.index(p);
        if !board.is_legal(c, i) {
            return 0;
        }
        board.play(c, i);
    }
    let mut recent = [None, None];
    let mut visited = 0;
    for m in &game.moves {
        match m.mv {
            Move::Play(p) => {
                let i = board.index(p);
                if !board.is_legal(m.color, i) {
                    break;
                }
                visit(&Position {
                    board: &board,
                    color: m.color,
                    recent,
                    played: i,
                });
                visited += 1;
                board.play(m.color, i);
                recent = [Some(i), recent[0]];
            }
            Move::Pass => {
                board.pass();
                recent = [None, recent[0]];
            }
            Move::Resign => break,
        }
    }
    visited
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sgf_collections_and_tygem_lines_are_both_read() {
        let dir = std::env::temp_dir().join(format!("go-records-{}", std::process::id()));
        fs::create_dir_all(dir.join("sub")).unwrap();
        fs::write(dir.join("a.sgf"), "(;SZ[9];B[ee];W[cc])(;SZ[9];B[dd])").unwrap();
        fs::write(dir.join("sub/b.SGF"), "(;SZ[19]AB[pd];W[dd])").unwrap();
        fs::write(dir.join("tygem"), "1\t;B[qd];W[qp];B[dd]\n2\t;B[pp]\n").unwrap();
        fs::write(dir.join("junk.sgf"), "not a game").unwrap();
        let source = read_source(&dir).unwrap();
        fs::remove_dir_all(&dir).unwrap();
        assert_eq!(source.games.len(), 5);
        assert_eq!(source.skipped, 1);
        let visited: Vec<usize> = source.games.iter().map(|g| replay(g, |_| {})).collect();
        // Name order: a.sgf, junk.sgf, sub/b.SGF, tygem.
        assert_eq!(visited, [2, 1, 1, 3, 1]);
    }

    #[test]
    fn replay_gives_the_recent_moves_and_stops_at_an_illegal_one() {
        let game = GameRecord::from_sgf(b"(;SZ[9];B[ee];W[];B[cc];W[cc];B[dd])").unwrap();
        let mut seen = Vec::new();
        let n = replay(&game, |p| seen.push((p.color, p.recent, p.played)));
        assert_eq!(n, 2, "W[cc] on a stone ends the replay");
        let b = Board::new(9).unwrap();
        let ee = b.index(crate::point::Point::new(4, 4));
        assert_eq!(seen[1].1, [None, Some(ee)]);
    }
}
