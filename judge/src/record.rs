//! The game log: one [`GameRecord`] per finished game, and `games.jsonl`, where they are
//! appended and fsync'd as each game ends, so killing the judge loses at most the games
//! in flight. Also the [`Observer`] seam through which the tournament hands finished
//! games to whoever wants them (this log, the progress bar, the report).

use std::fs::File;
use std::io::{BufRead, BufReader, Write};
use std::path::{Path, PathBuf};

use anyhow::{Context, Result};
use serde::{Deserialize, Serialize};

use crate::games::connect4::Connect4;
use crate::games::{Game, Played, Side, Termination};
use crate::run_dir::RunDir;

/// Receives every finished game of a tournament, in finishing order, and the end of the
/// tournament. The tournament knows its observers only through this trait.
pub trait Observer<G: Game = Connect4> {
    /// A game ended. An error stops the tournament from starting new games.
    fn game_finished(&mut self, record: &GameRecord<G>) -> Result<()>;

    /// No more games will come; `records` holds every game of the run, earlier runs'
    /// (when resumed) included.
    fn tournament_finished(&mut self, records: &[GameRecord<G>]) -> Result<()> {
        let _ = records;
        Ok(())
    }

    /// Whether the tournament should start no new game (asked after each finished game;
    /// games in flight still finish). `judge check` stops its series at the first fault.
    fn wants_stop(&self) -> bool {
        false
    }
}

/// A game's result from the first mover's side (the log's `result`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub enum GameResult {
    /// The first mover won.
    #[serde(rename = "1-0")]
    FirstWins,
    /// The second mover won.
    #[serde(rename = "0-1")]
    SecondWins,
    /// A tie.
    #[serde(rename = "1/2-1/2")]
    Draw,
}

impl GameResult {
    /// The result for a winner (`None`: a tie).
    pub fn of(winner: Option<Side>) -> GameResult {
        match winner {
            Some(Side::First) => GameResult::FirstWins,
            Some(Side::Second) => GameResult::SecondWins,
            None => GameResult::Draw,
        }
    }

    /// As the log writes it: `1-0`, `0-1`, `1/2-1/2`.
    pub fn as_str(self) -> &'static str {
        match self {
            GameResult::FirstWins => "1-0",
            GameResult::SecondWins => "0-1",
            GameResult::Draw => "1/2-1/2",
        }
    }

    /// Score of the first mover: 1, 0.5 or 0.
    pub fn first_score(self) -> f64 {
        match self {
            GameResult::FirstWins => 1.0,
            GameResult::SecondWins => 0.0,
            GameResult::Draw => 0.5,
        }
    }
}

impl std::fmt::Display for GameResult {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.as_str())
    }
}

/// One game, as logged.
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq)]
#[serde(bound = "")]
pub struct GameRecord<G: Game = Connect4> {
    /// Deterministic id `pairing-pair-game`.
    pub id: String,
    /// Pairing index.
    pub pairing: usize,
    /// Board number within the pairing (the two games of a pair share it).
    pub pair: u32,
    /// 0: the pairing's first entrant moved first; 1: colours swapped.
    pub game: u8,
    /// Name of the first mover.
    pub first: String,
    /// Name of the second mover.
    pub second: String,
    /// Library path of the first mover.
    pub first_path: PathBuf,
    /// Library path of the second mover.
    pub second_path: PathBuf,
    /// "1-0", "0-1" or "1/2-1/2", from the first mover's side.
    pub result: GameResult,
    /// Why the game ended.
    pub termination: Termination,
    /// The course `Compete` runner's result code for this game, with A the first mover:
    /// 0 tie, 1/2 A/B wins, 3/5 A/B bug, 4/6 A/B illegal, 7/8 A/B timeout (NULL
    /// included), -1/-2 A/B failed to load, -3/-4 A/B missing symbol.
    #[serde(default)]
    pub course_code: i32,
    /// Who lost by the verdict (`first`/`second`), absent for a tie.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub loser: Option<Side>,
    /// Signal name, exit status, load error text or illegal point description.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub detail: Option<String>,
    /// The point an `illegal` mover gave, `[x, y]`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub illegal_point: Option<[i32; 2]>,
    /// The board (the game's setup).
    pub board: G::Setup,
    /// Moves played (Connect-4: columns).
    pub moves: Vec<G::LoggedMove>,
    /// Wall ms of each answer (monotonic clock, parent side).
    pub move_ms: Vec<f64>,
    /// CPU ms of each answer: the thread that ran `getPoint`, as the host reports it, or
    /// a program's process, read from its clock; `None` where it could not be read.
    pub cpu_ms: Vec<Option<f64>>,
    /// The run's seed.
    pub seed: u64,
    /// The seed this board was drawn from.
    pub board_seed: u64,
    /// The winner's margin, for games that score one (absent for Connect-4).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub margin: Option<i32>,
    /// Peak resident memory of each side's process by the end of the game, KiB, first
    /// mover's first (`null` where unknown). Absent when neither is known, as in logs of
    /// judges before it was kept, so that those lines read back and write out unchanged.
    #[serde(default, skip_serializing_if = "neither_known")]
    pub peak_rss_kb: [Option<u64>; 2],
}

/// Whether neither side's figure of a pair is known.
fn neither_known(pair: &[Option<u64>; 2]) -> bool {
    pair.iter().all(Option::is_none)
}

impl<G: Game> GameRecord<G> {
    /// Score of the first mover: 1, 0.5 or 0.
    pub fn first_score(&self) -> f64 {
        self.result.first_score()
    }
}

/// The course runner's result code (see [`GameRecord::course_code`]).
pub fn course_code(termination: Termination, loser: Option<Side>, detail: Option<&str>) -> i32 {
    let Some(loser) = loser else { return 0 };
    let a = loser == Side::First;
    let pick = |if_a: i32, if_b: i32| if a { if_a } else { if_b };
    match termination {
        Termination::Full => 0,
        // Lost by the rules: the course's codes for a loss on the board.
        Termination::Four | Termination::Discs | Termination::Score | Termination::Resign => {
            pick(2, 1)
        }
        // The course runner has no code of its own for a program's garbage: a bug.
        Termination::Crash | Termination::Garbage => pick(3, 5),
        Termination::Illegal => pick(4, 6),
        Termination::Timeout | Termination::Null => pick(7, 8),
        Termination::Load if detail.is_some_and(|d| d.starts_with("missing symbol")) => {
            pick(-3, -4)
        }
        Termination::Load => pick(-1, -2),
    }
}

/// Milliseconds to the microsecond, as the log keeps `move_ms` and `cpu_ms`.
pub fn round_ms(ms: f64) -> f64 {
    (ms * 1000.0).round() / 1000.0
}

/// Appends records to `games.jsonl`.
pub struct GameLog {
    file: File,
}

impl GameLog {
    /// Opens (creating if needed) the log for appending.
    pub fn open(path: &Path) -> Result<GameLog> {
        let file = File::options()
            .create(true)
            .append(true)
            .open(path)
            .with_context(|| format!("opening game log {}", path.display()))?;
        Ok(GameLog { file })
    }

    /// Writes one line and syncs it to disk before returning.
    pub fn append<G: Game>(&mut self, rec: &GameRecord<G>) -> Result<()> {
        let mut line = serde_json::to_string(rec)?;
        line.push('\n');
        self.file
            .write_all(line.as_bytes())
            .context("writing game log")?;
        self.file.sync_data().context("syncing game log")
    }
}

impl<G: Game> Observer<G> for GameLog {
    fn game_finished(&mut self, record: &GameRecord<G>) -> Result<()> {
        self.append(record)
    }
}

/// Keeps every finished game in the game's own record format as well
/// ([`Game::RECORD_FORMAT`]: Go's SGF), one file per game (`DIR/sgf/ID.sgf`), written
/// whole and renamed into place as the game ends. Nothing for games without a format.
pub struct RecordFiles<'a, G: Game> {
    game: &'a G,
    dir: &'a RunDir,
}

impl<'a, G: Game> RecordFiles<'a, G> {
    /// Files of `game`'s games in the run directory `dir`.
    pub fn new(game: &'a G, dir: &'a RunDir) -> RecordFiles<'a, G> {
        RecordFiles { game, dir }
    }

    /// Writes `record`'s file (a game without a format: nothing); returns its path.
    pub fn write(&self, record: &GameRecord<G>) -> Result<Option<PathBuf>> {
        let Some(format) = G::RECORD_FORMAT else {
            return Ok(None);
        };
        let played = Played {
            id: &record.id,
            first: &record.first,
            second: &record.second,
            winner: record.loser.map(Side::other),
            termination: record.termination,
            detail: record.detail.as_deref(),
        };
        let Some(text) = self.game.record_text(&record.board, &record.moves, &played) else {
            return Ok(None);
        };
        let path = self.dir.record_file(format, &record.id);
        if let Some(parent) = path.parent() {
            std::fs::create_dir_all(parent)
                .with_context(|| format!("creating {}", parent.display()))?;
        }
        let tmp = path.with_extension("tmp");
        std::fs::write(&tmp, text).with_context(|| format!("writing {}", tmp.display()))?;
        std::fs::rename(&tmp, &path).with_context(|| format!("writing {}", path.display()))?;
        Ok(Some(path))
    }
}

impl<G: Game> Observer<G> for RecordFiles<'_, G> {
    fn game_finished(&mut self, record: &GameRecord<G>) -> Result<()> {
        self.write(record).map(drop)
    }
}

/// Reads every well-formed record; a torn last line (the judge was killed while
/// writing) is skipped. A missing file reads as empty.
pub fn read<G: Game>(path: &Path) -> Result<Vec<GameRecord<G>>> {
    let file = match File::open(path) {
        Ok(f) => f,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(Vec::new()),
        Err(e) => return Err(e).with_context(|| format!("opening {}", path.display())),
    };
    let mut out = Vec::new();
    for line in BufReader::new(file).lines() {
        let line = line.with_context(|| format!("reading {}", path.display()))?;
        if let Ok(rec) = serde_json::from_str::<GameRecord<G>>(&line) {
            out.push(rec);
        }
    }
    Ok(out)
}

/// The records of whole pairs (both games of a board), duplicates dropped, in game order.
/// A board played in one colour only would bias a paired score. A record whose `game` is
/// neither 0 nor 1 is no game of a board and is dropped.
pub fn whole_pairs<G: Game>(records: Vec<GameRecord<G>>) -> Vec<GameRecord<G>> {
    let mut by_id = std::collections::BTreeMap::new();
    for rec in records.into_iter().filter(|r| r.game <= 1) {
        by_id
            .entry((rec.pairing, rec.pair, rec.game))
            .or_insert(rec);
    }
    by_id
        .values()
        .filter(|r| by_id.contains_key(&(r.pairing, r.pair, 1 - r.game)))
        .cloned()
        .collect()
}

/// Keeps only whole pairs ([`whole_pairs`]) and rewrites the log atomically. Returns the
/// kept records. Only `--resume` does this, before it appends: a pair with one game done is
/// replayed whole so that paired statistics stay paired. Readers that only look at a run
/// (`judge report`) use [`whole_pairs`] instead, because replacing the file under a match
/// that is still running would leave it appending to the replaced, deleted file.
pub fn keep_whole_pairs<G: Game>(path: &Path) -> Result<Vec<GameRecord<G>>> {
    let kept = whole_pairs(read(path)?);
    let tmp = path.with_extension("jsonl.tmp");
    {
        let mut f = File::create(&tmp).with_context(|| format!("creating {}", tmp.display()))?;
        for rec in &kept {
            writeln!(f, "{}", serde_json::to_string(rec)?)?;
        }
        f.sync_all()?;
    }
    std::fs::rename(&tmp, path).with_context(|| format!("replacing {}", path.display()))?;
    Ok(kept)
}

#[cfg(test)]
impl GameRecord {
    /// A Connect-4 record for tests: game `game` of board `pair` of pairing `pairing`
    /// between `a` and `b`, won by the first mover in three moves.
    pub(crate) fn example(pairing: usize, pair: u32, game: u8) -> GameRecord {
        GameRecord {
            id: format!("{pairing}-{pair}-{game}"),
            pairing,
            pair,
            game,
            first: "a".into(),
            second: "b".into(),
            first_path: "a.so".into(),
            second_path: "b.so".into(),
            result: GameResult::FirstWins,
            termination: Termination::Four,
            course_code: 1,
            loser: Some(Side::Second),
            detail: None,
            illegal_point: None,
            board: crate::games::connect4::BoardSpec {
                m: 9,
                n: 9,
                no_x: 0,
                no_y: 0,
            },
            moves: vec![0, 1, 0],
            move_ms: vec![0.1, 0.2, 0.3],
            cpu_ms: vec![Some(0.05), None, Some(0.1)],
            seed: 1,
            board_seed: 2,
            margin: None,
            peak_rss_kb: [Some(2048), None],
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn rec(pairing: usize, pair: u32, game: u8) -> GameRecord {
        GameRecord::example(pairing, pair, game)
    }

    #[test]
    fn append_read_and_torn_line() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("games.jsonl");
        let mut log = GameLog::open(&path).unwrap();
        log.append(&rec(0, 0, 0)).unwrap();
        log.append(&rec(0, 0, 1)).unwrap();
        log.append(&rec(0, 1, 0)).unwrap();
        std::fs::OpenOptions::new()
            .append(true)
            .open(&path)
            .unwrap()
            .write_all(b"{\"id\":\"0-1-1\",\"pair")
            .unwrap();
        let back: Vec<GameRecord> = read(&path).unwrap();
        assert_eq!(back.len(), 3);
        assert_eq!(back[0], rec(0, 0, 0));
        let kept: Vec<GameRecord> = keep_whole_pairs(&path).unwrap();
        assert_eq!(course_code(Termination::Four, Some(Side::Second), None), 1);
        assert_eq!(course_code(Termination::Null, Some(Side::First), None), 7);
        assert_eq!(
            course_code(
                Termination::Load,
                Some(Side::Second),
                Some("missing symbol x")
            ),
            -4
        );
        assert_eq!(course_code(Termination::Full, None, None), 0);
        assert_eq!(kept.len(), 2);
        assert_eq!(read::<Connect4>(&path).unwrap().len(), 2);
    }

    #[test]
    fn whole_pairs_are_games_0_and_1_of_a_board() {
        // Found by fuzzing the judge's file readers: a record of game 5 paired with game 0,
        // and a part of merged shards then held more games than its schedule plans.
        let records = vec![
            rec(0, 0, 0),
            rec(0, 0, 5),
            rec(0, 1, 1),
            rec(0, 1, 0),
            rec(0, 2, 1),
        ];
        let kept = whole_pairs(records);
        let games: Vec<(u32, u8)> = kept.iter().map(|r| (r.pair, r.game)).collect();
        assert_eq!(games, [(1, 0), (1, 1)]);
    }

    #[test]
    fn numbers_read_back_from_the_log_are_the_numbers_written() {
        // Found by fuzzing the judge's file readers: without serde_json's float_roundtrip,
        // 4.555555555555555e+39 read as a neighbouring float, which was written as
        // 4.5555555555555547e39 and read back as yet another one.
        let empty = serde_json::to_string(&GameRecord {
            move_ms: Vec::new(),
            ..rec(0, 0, 0)
        })
        .unwrap();
        for text in ["4.555555555555555e+39", "0.1", "4750.182", "1e-7"] {
            let line = empty.replace(r#""move_ms":[]"#, &format!(r#""move_ms":[{text}]"#));
            let read: GameRecord = serde_json::from_str(&line).unwrap();
            let exact: f64 = text.parse().unwrap();
            assert_eq!(read.move_ms[0].to_bits(), exact.to_bits(), "{text}");
            let again: GameRecord =
                serde_json::from_str(&serde_json::to_string(&read).unwrap()).unwrap();
            assert_eq!(again, read, "{text}");
        }
    }

    #[test]
    fn results_keep_their_log_strings() {
        for (r, text, score) in [
            (GameResult::FirstWins, "1-0", 1.0),
            (GameResult::SecondWins, "0-1", 0.0),
            (GameResult::Draw, "1/2-1/2", 0.5),
        ] {
            assert_eq!(serde_json::to_string(&r).unwrap(), format!("\"{text}\""));
            assert_eq!(r.to_string(), text);
            assert_eq!(r.first_score(), score);
        }
        assert_eq!(GameResult::of(Some(Side::Second)), GameResult::SecondWins);
        // A line as the judge wrote it before results were an enum reads back and writes
        // out byte for byte.
        let line = r#"{"id":"5-0-0","pairing":5,"pair":0,"game":0,"first":"legal","second":"illegal","first_path":"../legal.so","second_path":"../illegal.so","result":"1-0","termination":"illegal","course_code":6,"loser":"second","detail":"illegal point (0, 16)","illegal_point":[0,16],"board":{"M":10,"N":11,"noX":8,"noY":5},"moves":[0,0,0,0,0],"move_ms":[0.373,0.343,0.147,0.149,0.095,0.098],"cpu_ms":[0.002,0.002,0.001,0.001,0.001,null],"seed":1,"board_seed":16490336266968443936}"#;
        let rec: GameRecord = serde_json::from_str(line).unwrap();
        assert_eq!(serde_json::to_string(&rec).unwrap(), line);
    }
}
