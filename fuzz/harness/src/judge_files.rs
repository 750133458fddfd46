//! The judge's readers of its own files: `run.json` and `games.jsonl`, as `judge report`,
//! `judge merge`, `judge status` and `--resume` read them (judge/src/record.rs,
//! results.rs, run_dir.rs, shards.rs, report/).
//!
//! Input: up to two run directories' files, each `run.json` NUL `games.jsonl`, the two
//! directories separated by another NUL. They are written into scratch directories and
//! read by the commands themselves: `report` of each and of both pooled, `status` and
//! `merge` of both as shards, then `--resume`'s check and its rewrite of the log to whole
//! pairs. The promise: each command succeeds or fails with an error, never a panic; every
//! record the log reader takes writes back to a line that reads back equal; after the
//! resume's rewrite the log reads back as exactly the records it kept, whole pairs only.

use std::path::{Path, PathBuf};

use gravity4_judge::commands;
use gravity4_judge::games::connect4::Connect4;
use gravity4_judge::games::go::Go;
use gravity4_judge::games::reversi::Reversi;
use gravity4_judge::games::{Game, GameKind};
use gravity4_judge::record::{self, GameRecord};
use gravity4_judge::run_dir::RunDir;

/// The directory for scratch run directories: memory-backed when the system has one, as
/// every input writes a few files.
fn scratch_root() -> PathBuf {
    let shm = Path::new("/dev/shm");
    if shm.is_dir() {
        shm.to_path_buf()
    } else {
        std::env::temp_dir()
    }
}

/// Every record the log reader takes writes back to a line that reads back equal.
fn records_round_trip<G: Game>(path: &Path) {
    let Ok(records) = record::read::<G>(path) else {
        return;
    };
    for r in &records {
        let line = serde_json::to_string(r).expect("a record read is written");
        let back: GameRecord<G> = serde_json::from_str(&line)
            .unwrap_or_else(|e| panic!("{line} does not read back: {e}"));
        assert_eq!(&back, r, "{line} reads back different");
    }
}

/// `--resume` of `dir`: the same command is accepted, and the log is rewritten to its
/// whole pairs, which read back as kept.
fn resume<G: Game>(dir: &Path) {
    let Ok(info) = RunDir::at(dir).read_info() else {
        return;
    };
    let (run, _) = RunDir::resume(dir, info.mode, &info.players, Some(info.seed))
        .expect("a run resumes with its own command");
    let Ok(kept) = record::keep_whole_pairs::<G>(&run.games()) else {
        return;
    };
    let back = record::read::<G>(&run.games()).expect("the rewritten log reads");
    assert_eq!(back, kept, "the rewritten log reads back different");
    for r in &kept {
        let other = 1 - r.game.min(1);
        assert!(
            kept.iter()
                .any(|o| (o.pairing, o.pair, o.game) == (r.pairing, r.pair, other)),
            "{} kept without its pair",
            r.id
        );
    }
}

/// The game a run directory's `run.json` names (Connect-4 if it cannot be read).
fn kind_of(dir: &Path) -> GameKind {
    RunDir::at(dir)
        .read_info()
        .and_then(|i| i.game())
        .unwrap_or_default()
}

/// The target.
pub fn run(data: &[u8]) {
    let scratch = tempfile::Builder::new()
        .prefix("fuzz-judge-files-")
        .tempdir_in(scratch_root())
        .expect("a scratch directory");
    let mut dirs = Vec::new();
    for (k, files) in data
        .split(|&b| b == 0)
        .collect::<Vec<_>>()
        .chunks(2)
        .enumerate()
        .take(2)
    {
        let dir = scratch.path().join(format!("part{k}"));
        std::fs::create_dir(&dir).expect("a run directory");
        std::fs::write(dir.join("run.json"), files[0]).expect("run.json");
        if let Some(games) = files.get(1) {
            std::fs::write(dir.join("games.jsonl"), games).expect("games.jsonl");
        }
        dirs.push(dir);
    }
    for dir in &dirs {
        let games = RunDir::at(dir).games();
        records_round_trip::<Connect4>(&games);
        records_round_trip::<Reversi>(&games);
        records_round_trip::<Go>(&games);
    }
    let _ = commands::status(&dirs);
    for dir in &dirs {
        let _ = commands::report(std::slice::from_ref(dir));
    }
    let _ = commands::report(&dirs);
    let _ = commands::merge(&dirs, &scratch.path().join("merged"));
    for dir in &dirs {
        match kind_of(dir) {
            GameKind::Connect4 => resume::<Connect4>(dir),
            GameKind::Reversi(_) => resume::<Reversi>(dir),
            GameKind::Go(_) => resume::<Go>(dir),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn nothing_and_garbage_are_refused_quietly() {
        run(b"");
        run(b"{}\0{}\n\0not json");
    }
}
