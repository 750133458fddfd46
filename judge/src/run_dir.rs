//! A run directory: where a tournament's files live, and the rules for starting one and
//! resuming it.
//!
//! Layout: `run.json` (the command, for `--resume`), `games.jsonl` (the game log),
//! `summary.json`, `report.html`, `logs/NAME.log` (each player's captured output), and for
//! a game with a record format of its own (Go) every game in it too (`sgf/ID.sgf`). A new
//! run refuses a directory that already holds a game log; a resumed run must be the same
//! command (mode, players, seed), and keeps only the whole pairs of its log.

use std::path::{Path, PathBuf};

use anyhow::{Context, Result, bail};
use serde::{Deserialize, Serialize};

use crate::clock::ClockSettings;
use crate::games::GameKind;
use crate::games::go;
use crate::games::reversi::Rule;
use crate::schedule::{self, Colours, Mode, Shard};
use crate::stats::SprtParams;

/// What `run.json` records, so `--resume` can check it continues the same run and
/// `judge report` can summarize it.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct RunInfo {
    /// The kind of tournament.
    pub mode: Mode,
    /// The players as given on the command line.
    pub players: Vec<PathBuf>,
    /// Their display names.
    pub names: Vec<String>,
    /// The run's seed.
    pub seed: u64,
    /// Boards per pairing.
    pub pairs: u32,
    /// Wall-clock limit per move.
    pub move_limit_ms: u64,
    /// Address-space limit of each player's process (0: none).
    pub memory_limit_mb: u64,
    /// One process per player per worker across games.
    pub reuse_process: bool,
    /// The judge that wrote the run.
    pub judge_version: String,
    /// The `--sprt` parameters, written as `elo0=.. elo1=.. alpha=.. beta=..` (runs
    /// written before it was recorded have none).
    #[serde(default, with = "sprt_text")]
    pub sprt: Option<SprtParams>,
    /// Each player's file and its SHA-256 when the run started (in player order), so a
    /// resumed run or merged shards are known to play the same build.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub player_files: Vec<PlayerFile>,
    /// [`schedule::schedule_digest`] of the full schedule (every shard's, not just this
    /// run's part): shards of one run share it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub schedule_sha256: Option<String>,
    /// The part of the schedule this run plays (`--shard I/N`); absent: all of it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub shard: Option<Shard>,
    /// Set on a run directory `judge merge` wrote: which parts it holds.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub merged: Option<MergeInfo>,
    /// The game, `reversi`; absent for Connect-4 (so Connect-4 runs read and write
    /// `run.json` as before Reversi existed). See [`RunInfo::game`].
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub game: Option<String>,
    /// Reversi's rule (`standard`, `no-adjacent`); absent for the other games.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub rule: Option<Rule>,
    /// Go's size, komi and handicap (`{"size":9,"komi":7.5,"handicap":0}`); absent for
    /// the other games.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub go: Option<go::Rules>,
    /// The game clock (`--main-time`, `--byoyomi`, `--byoyomi-stones`), when the run was
    /// played on one.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub clock: Option<ClockSettings>,
    /// `"fixed"` when every game of a board kept the pairing's colours (`--fixed-colours`);
    /// absent when they were swapped, as in runs written before colours could be fixed.
    #[serde(default, skip_serializing_if = "Colours::is_swapped")]
    pub colours: Colours,
}

impl RunInfo {
    /// The game the run plays (Connect-4 when `run.json` names none).
    pub fn game(&self) -> Result<GameKind> {
        GameKind::new(
            self.game.as_deref().unwrap_or("connect4"),
            self.rule,
            self.go,
        )
        .map_err(|e| anyhow::anyhow!("run.json: {e}"))
    }

    /// Records `kind` as `game`, `rule` and `go` (nothing for Connect-4).
    pub fn set_game(&mut self, kind: GameKind) {
        self.game = (kind != GameKind::Connect4).then(|| kind.name().to_string());
        self.rule = kind.rule();
        self.go = kind.go();
    }

    /// The part of the schedule this run played ([`Shard::WHOLE`] when unsharded).
    pub fn shard(&self) -> Shard {
        self.shard.unwrap_or(Shard::WHOLE)
    }

    /// Refuses a `run.json` no judge writes and its readers cannot use: players that do
    /// not fit the mode (a match is two players, a round robin or a gauntlet at least two,
    /// as the commands require), since every reader pairs them by the mode.
    pub fn check(&self) -> Result<()> {
        let n = self.players.len();
        let fits = match self.mode {
            Mode::Match => n == 2,
            Mode::RoundRobin | Mode::Gauntlet => n >= 2,
        };
        if !fits {
            bail!(
                "a {} of {n} player(s) is not a run the judge plays",
                self.mode
            );
        }
        Ok(())
    }

    /// Parses the text of `run.json` (read from `path`) and checks it ([`RunInfo::check`]).
    fn parse(text: &str, path: &Path) -> Result<RunInfo> {
        let info: RunInfo =
            serde_json::from_str(text).with_context(|| format!("parsing {}", path.display()))?;
        info.check()
            .with_context(|| format!("checking {}", path.display()))?;
        Ok(info)
    }
}

/// A player's file as `run.json` records it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct PlayerFile {
    /// The file the player runs (the library, without `@KEY=VALUE` settings).
    pub path: PathBuf,
    /// Its SHA-256, lower-case hex.
    pub sha256: String,
}

impl PlayerFile {
    /// Reads and digests `path`.
    pub fn of(path: &Path) -> Result<PlayerFile> {
        Ok(PlayerFile {
            path: path.to_path_buf(),
            sha256: sha256_file(path)?,
        })
    }
}

/// SHA-256 of a file's contents, lower-case hex.
pub fn sha256_file(path: &Path) -> Result<String> {
    use sha2::{Digest, Sha256};
    let mut file =
        std::fs::File::open(path).with_context(|| format!("reading {}", path.display()))?;
    let mut h = Sha256::new();
    std::io::copy(&mut file, &mut h).with_context(|| format!("reading {}", path.display()))?;
    Ok(schedule::hex(&h.finalize()))
}

/// What a merged run's `run.json` says about its parts.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct MergeInfo {
    /// The run directories merged, in shard order.
    pub parts: Vec<MergedPart>,
    /// Shards of the schedule that were not given (numbers 1..=N).
    pub missing_shards: Vec<u32>,
    /// Games of the full schedule the merged log does not hold (missing shards, and the
    /// games stopped or half-played boards of incomplete ones).
    pub missing_games: u64,
}

/// One part of a merged run.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct MergedPart {
    /// Its run directory, as given to `judge merge`.
    pub dir: PathBuf,
    /// Its shard.
    pub shard: Shard,
    /// The games taken from it (whole boards only).
    pub games: u64,
    /// The games its shard planned.
    pub planned: u64,
}

/// `run.json`'s `sprt`: the parameters as one string, as `--sprt` takes them.
mod sprt_text {
    use serde::{Deserialize, Deserializer, Serializer};

    use crate::stats::{SprtParams, parse_sprt};

    pub fn serialize<S: Serializer>(p: &Option<SprtParams>, s: S) -> Result<S::Ok, S::Error> {
        match p {
            Some(p) => s.serialize_some(&p.to_string()),
            None => s.serialize_none(),
        }
    }

    pub fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<Option<SprtParams>, D::Error> {
        Option::<String>::deserialize(d)?
            .map(|text| {
                parse_sprt(&text).map_err(|e| serde::de::Error::custom(format!("sprt: {e}")))
            })
            .transpose()
    }
}

/// A run directory.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RunDir {
    root: PathBuf,
}

impl RunDir {
    /// The run directory at `root` (nothing is checked or created).
    pub fn at(root: impl Into<PathBuf>) -> RunDir {
        RunDir { root: root.into() }
    }

    /// The directory itself.
    pub fn path(&self) -> &Path {
        &self.root
    }

    /// `run.json`.
    pub fn info(&self) -> PathBuf {
        self.root.join("run.json")
    }

    /// `games.jsonl`.
    pub fn games(&self) -> PathBuf {
        self.root.join("games.jsonl")
    }

    /// `summary.json`.
    pub fn summary(&self) -> PathBuf {
        self.root.join("summary.json")
    }

    /// `report.html`.
    pub fn report(&self) -> PathBuf {
        self.root.join("report.html")
    }

    /// `logs/`, the players' captured output.
    pub fn logs(&self) -> PathBuf {
        self.root.join("logs")
    }

    /// `FORMAT/ID.FORMAT`: game `id` in the game's own record format (`sgf/0-3-1.sgf`).
    pub fn record_file(&self, format: &str, id: &str) -> PathBuf {
        self.root.join(format).join(format!("{id}.{format}"))
    }

    /// `logs/NAME.log` for the player named `name` (`/` and `#` made file-safe).
    pub fn player_log(&self, name: &str) -> PathBuf {
        self.logs()
            .join(format!("{}.log", name.replace(['/', '#'], "_")))
    }

    /// A new run: `out`, or a fresh `runs/YYYYMMDD-HHMMSS-MODE`, created; refused when it
    /// already holds a game log (that is a run to `--resume`).
    pub fn create(out: Option<&Path>, mode: Mode) -> Result<RunDir> {
        let root = match out {
            Some(d) => d.to_path_buf(),
            None => fresh_dir(Path::new("runs"), mode.name()),
        };
        std::fs::create_dir_all(&root)
            .with_context(|| format!("creating run directory {}", root.display()))?;
        let dir = RunDir { root };
        if dir.games().exists() {
            bail!(
                "{} already holds a run (games.jsonl); use --resume {} to continue it or another --out",
                dir.root.display(),
                dir.root.display()
            );
        }
        Ok(dir)
    }

    /// Reopens the run in `root` for `--resume`: it must have been `mode` with the same
    /// players (as written) and, if `seed` is given, the same seed. Returns the directory
    /// and what its `run.json` says.
    pub fn resume(
        root: &Path,
        mode: Mode,
        players: &[PathBuf],
        seed: Option<u64>,
    ) -> Result<(RunDir, RunInfo)> {
        let dir = RunDir::at(root);
        let path = dir.info();
        let text = std::fs::read_to_string(&path)
            .with_context(|| format!("--resume: reading {}", path.display()))?;
        let info = RunInfo::parse(&text, &path).context("--resume")?;
        if info.mode != mode || info.players != players {
            bail!(
                "--resume {}: that run was `{}` with {:?}; give the same command and players",
                root.display(),
                info.mode,
                info.players
            );
        }
        if seed.is_some_and(|s| s != info.seed) {
            bail!(
                "--resume {}: that run used --seed {}",
                root.display(),
                info.seed
            );
        }
        Ok((dir, info))
    }

    /// Reads `run.json`.
    pub fn read_info(&self) -> Result<RunInfo> {
        let path = self.info();
        let text = std::fs::read_to_string(&path)
            .with_context(|| format!("reading {}", path.display()))?;
        RunInfo::parse(&text, &path)
    }

    /// Writes `run.json`.
    pub fn write_info(&self, info: &RunInfo) -> Result<()> {
        std::fs::write(self.info(), serde_json::to_string_pretty(info)? + "\n")
            .context("writing run.json")
    }

    /// Writes `summary.json` (any serializable summary).
    pub fn write_summary(&self, summary: &impl Serialize) -> Result<()> {
        std::fs::write(
            self.summary(),
            serde_json::to_string_pretty(summary)? + "\n",
        )
        .context("writing summary.json")
    }

    /// Whether `summary.json` is at least as new as `games.jsonl` (both present): the
    /// summary was written after the last game.
    pub fn summary_is_current(&self) -> bool {
        let modified = |p: &Path| std::fs::metadata(p).and_then(|m| m.modified()).ok();
        matches!(
            (modified(&self.summary()), modified(&self.games())),
            (Some(summary), Some(log)) if summary >= log
        )
    }
}

/// A fresh `runs/YYYYMMDD-HHMMSS-LABEL` (not created), for commands whose output is not
/// a tournament's (`judge check`).
pub fn fresh_path(label: &str) -> PathBuf {
    fresh_dir(Path::new("runs"), label)
}

/// `ROOT/YYYYMMDD-HHMMSS-LABEL` (the label is a mode's name for tournaments), with a
/// numeric suffix if taken.
fn fresh_dir(root: &Path, label: &str) -> PathBuf {
    let secs = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .unwrap_or_default()
        .as_secs() as i64;
    let (days, rem) = (secs.div_euclid(86_400), secs.rem_euclid(86_400));
    let (y, m, d) = civil_from_days(days);
    let base = format!(
        "{y:04}{m:02}{d:02}-{:02}{:02}{:02}-{label}",
        rem / 3600,
        rem / 60 % 60,
        rem % 60
    );
    let mut dir = root.join(&base);
    let mut k = 2;
    while dir.exists() {
        dir = root.join(format!("{base}-{k}"));
        k += 1;
    }
    dir
}

/// Days since 1970-01-01 to (year, month, day), proleptic Gregorian (H. Hinnant).
fn civil_from_days(z: i64) -> (i64, u32, u32) {
    let z = z + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z.rem_euclid(146_097);
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let d = (doy - (153 * mp + 2) / 5 + 1) as u32;
    let m = if mp < 10 { mp + 3 } else { mp - 9 } as u32;
    (yoe + era * 400 + i64::from(m <= 2), m, d)
}

#[cfg(test)]
impl RunInfo {
    /// A run.json for unit tests: `mode` between `players` (their names as given), seed
    /// 5, 2 pairs, 3 s a move, 1 GiB, no game recorded (Connect-4).
    pub(crate) fn example(mode: Mode, players: &[&str], sprt: Option<SprtParams>) -> RunInfo {
        RunInfo {
            mode,
            players: players.iter().map(PathBuf::from).collect(),
            names: players.iter().map(|p| p.to_string()).collect(),
            seed: 5,
            pairs: 2,
            move_limit_ms: 3000,
            memory_limit_mb: 1024,
            reuse_process: false,
            judge_version: "0.1.0".into(),
            sprt,
            player_files: Vec::new(),
            schedule_sha256: None,
            shard: None,
            merged: None,
            game: None,
            rule: None,
            go: None,
            clock: None,
            colours: Colours::Swapped,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::connect4::Connect4;
    use crate::record::{GameRecord, keep_whole_pairs};

    #[test]
    fn dates() {
        assert_eq!(civil_from_days(0), (1970, 1, 1));
        assert_eq!(civil_from_days(19_723), (2024, 1, 1));
        assert_eq!(civil_from_days(11_016), (2000, 2, 29));
    }

    #[test]
    fn run_json_records_the_game_only_for_reversi_and_go() {
        let mut i = RunInfo::example(Mode::Match, &["a", "b"], None);
        assert_eq!(i.game().unwrap(), GameKind::Connect4);
        i.set_game(GameKind::Connect4);
        assert!(!serde_json::to_string(&i).unwrap().contains("game"));
        i.set_game(GameKind::Reversi(Rule::NoAdjacent));
        let text = serde_json::to_string(&i).unwrap();
        assert!(
            text.ends_with(r#""game":"reversi","rule":"no-adjacent"}"#),
            "{text}"
        );
        let back: RunInfo = serde_json::from_str(&text).unwrap();
        assert_eq!(back.game().unwrap(), GameKind::Reversi(Rule::NoAdjacent));
        // Go records its rules beside the name.
        i.set_game(GameKind::Go(go::Rules::new(13, 6.5, 2).unwrap()));
        let text = serde_json::to_string(&i).unwrap();
        assert!(
            text.ends_with(r#""game":"go","go":{"size":13,"komi":6.5,"handicap":2}}"#),
            "{text}"
        );
        let back: RunInfo = serde_json::from_str(&text).unwrap();
        assert_eq!(back.game().unwrap(), i.game().unwrap());
        let bad = text.replace(r#""size":13"#, r#""size":26"#);
        assert!(serde_json::from_str::<RunInfo>(&bad).is_err());
        i.set_game(GameKind::Reversi(Rule::NoAdjacent));
        let text = serde_json::to_string(&i).unwrap();
        let odd = text.replace(r#""reversi""#, r#""chess""#);
        let err = serde_json::from_str::<RunInfo>(&odd)
            .unwrap()
            .game()
            .unwrap_err();
        assert!(err.to_string().contains("unknown game \"chess\""), "{err}");
    }

    #[test]
    fn layout() {
        let d = RunDir::at("runs/x");
        assert_eq!(d.games(), Path::new("runs/x/games.jsonl"));
        assert_eq!(d.summary(), Path::new("runs/x/summary.json"));
        assert_eq!(d.report(), Path::new("runs/x/report.html"));
        assert_eq!(d.info(), Path::new("runs/x/run.json"));
        assert_eq!(
            d.player_log("g@PROFILE=a/b#2"),
            Path::new("runs/x/logs/g@PROFILE=a_b_2.log")
        );
        let fresh = fresh_dir(Path::new("runs"), Mode::RoundRobin.name());
        let name = fresh.file_name().unwrap().to_string_lossy().into_owned();
        assert!(
            name.ends_with("-round-robin") && name.len() == 15 + 12,
            "{name}"
        );
    }

    #[test]
    fn run_json_keeps_its_format() {
        let sprt = crate::stats::parse_sprt("elo0=-20 elo1=20 alpha=0.05 beta=0.05").unwrap();
        let i = RunInfo::example(Mode::Gauntlet, &["a.so", "b.so"], Some(sprt));
        let text = serde_json::to_string(&i).unwrap();
        assert!(text.starts_with(r#"{"mode":"gauntlet","players":["a.so","b.so"]"#));
        assert!(text.ends_with(r#""sprt":"elo0=-20 elo1=20 alpha=0.05 beta=0.05"}"#));
        assert_eq!(serde_json::from_str::<RunInfo>(&text).unwrap(), i);
        let none = serde_json::to_string(&RunInfo::example(Mode::Match, &["a.so"], None)).unwrap();
        assert!(none.ends_with(r#""sprt":null}"#));
        // Runs written before `sprt` was recorded.
        let old = none.replace(r#","sprt":null"#, "");
        assert_eq!(serde_json::from_str::<RunInfo>(&old).unwrap().sprt, None);
    }

    #[test]
    fn new_runs_refuse_a_log_and_resumes_must_be_the_same_run() {
        let tmp = tempfile::tempdir().unwrap();
        let root = tmp.path().join("r");
        let dir = RunDir::create(Some(&root), Mode::Match).unwrap();
        let i = RunInfo::example(Mode::Match, &["a.so", "b.so"], None);
        dir.write_info(&i).unwrap();
        assert_eq!(dir.read_info().unwrap(), i);
        // No log yet: the directory can still be given as --out.
        assert!(RunDir::create(Some(&root), Mode::Match).is_ok());
        std::fs::write(dir.games(), "").unwrap();
        let err = RunDir::create(Some(&root), Mode::Match).unwrap_err();
        assert!(err.to_string().contains("already holds a run"), "{err}");

        let players = [PathBuf::from("a.so"), PathBuf::from("b.so")];
        let (back, got) = RunDir::resume(&root, Mode::Match, &players, None).unwrap();
        assert_eq!((back, got.seed), (dir.clone(), 5));
        assert!(RunDir::resume(&root, Mode::Match, &players, Some(5)).is_ok());
        let err = RunDir::resume(&root, Mode::Match, &players, Some(6)).unwrap_err();
        assert!(err.to_string().contains("that run used --seed 5"), "{err}");
        assert!(RunDir::resume(&root, Mode::Gauntlet, &players, None).is_err());
        assert!(RunDir::resume(&root, Mode::Match, &players[..1], None).is_err());
        assert!(RunDir::resume(&tmp.path().join("none"), Mode::Match, &players, None).is_err());
    }

    #[test]
    fn run_json_whose_players_do_not_fit_the_mode_is_refused() {
        // Found by fuzzing the judge's file readers: a match of one player made
        // `judge report`, `status` and `merge` panic pairing player 0 with player 1.
        let tmp = tempfile::tempdir().unwrap();
        let dir = RunDir::at(tmp.path());
        for (mode, players) in [
            (Mode::Match, &["a.so"][..]),
            (Mode::Match, &["a.so", "b.so", "c.so"]),
            (Mode::Gauntlet, &["a.so"]),
            (Mode::RoundRobin, &[]),
        ] {
            dir.write_info(&RunInfo::example(mode, players, None))
                .unwrap();
            let err = format!("{:#}", dir.read_info().unwrap_err());
            assert!(err.contains("is not a run the judge plays"), "{err}");
            let (mode, players): (_, Vec<PathBuf>) =
                (mode, players.iter().map(PathBuf::from).collect());
            assert!(RunDir::resume(tmp.path(), mode, &players, None).is_err());
        }
        for (mode, players) in [
            (Mode::Match, &["a.so", "b.so"][..]),
            (Mode::Gauntlet, &["a.so", "b.so", "c.so"]),
            (Mode::RoundRobin, &["a.so", "b.so"]),
        ] {
            dir.write_info(&RunInfo::example(mode, players, None))
                .unwrap();
            assert!(dir.read_info().is_ok());
        }
    }

    #[test]
    fn resume_keeps_whole_pairs_and_summary_age_is_checked() {
        let tmp = tempfile::tempdir().unwrap();
        let dir = RunDir::create(Some(tmp.path()), Mode::Match).unwrap();
        assert!(!dir.summary_is_current(), "no files yet");
        let line = |pair: u32, game: u8| {
            format!(
                r#"{{"id":"0-{pair}-{game}","pairing":0,"pair":{pair},"game":{game},"first":"a","second":"b","first_path":"a.so","second_path":"b.so","result":"1-0","termination":"four","course_code":1,"loser":"second","board":{{"M":9,"N":9,"noX":0,"noY":0}},"moves":[0,1,0,1,0,1,0],"move_ms":[],"cpu_ms":[],"seed":5,"board_seed":1}}"#
            )
        };
        let log = [line(0, 0), line(0, 1), line(1, 1), "{\"torn".into()].join("\n");
        std::fs::write(dir.games(), log).unwrap();
        let kept: Vec<GameRecord<Connect4>> = keep_whole_pairs(&dir.games()).unwrap();
        assert_eq!(kept.len(), 2);
        assert_eq!(
            std::fs::read_to_string(dir.games()).unwrap(),
            format!("{}\n{}\n", line(0, 0), line(0, 1))
        );
        dir.write_summary(&serde_json::json!({"games": 2})).unwrap();
        assert!(dir.summary_is_current());
    }

    #[test]
    fn run_json_records_digests_shards_and_merges() {
        let tmp = tempfile::tempdir().unwrap();
        let lib = tmp.path().join("a.so");
        std::fs::write(&lib, "abc").unwrap();
        let mut i = RunInfo::example(Mode::Match, &["a.so", "b.so"], None);
        i.player_files = vec![PlayerFile::of(&lib).unwrap()];
        // SHA-256("abc"), the FIPS 180-2 example.
        assert_eq!(
            i.player_files[0].sha256,
            "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"
        );
        i.schedule_sha256 = Some("00".into());
        i.shard = Some("2/4".parse().unwrap());
        i.merged = Some(MergeInfo {
            parts: vec![MergedPart {
                dir: "s2".into(),
                shard: "2/4".parse().unwrap(),
                games: 4,
                planned: 6,
            }],
            missing_shards: vec![1, 3, 4],
            missing_games: 20,
        });
        let text = serde_json::to_string(&i).unwrap();
        assert!(text.contains(r#""shard":"2/4""#), "{text}");
        assert!(text.contains(r#""missing_shards":[1,3,4]"#), "{text}");
        let back: RunInfo = serde_json::from_str(&text).unwrap();
        assert_eq!(back, i);
        assert_eq!(back.shard().count(), 4);
        // Fixed colours are recorded; swapped ones (the default) are not written at all.
        assert!(!text.contains("colours"), "{text}");
        i.colours = Colours::Fixed;
        let text = serde_json::to_string(&i).unwrap();
        assert!(text.contains(r#""colours":"fixed""#), "{text}");
        assert_eq!(serde_json::from_str::<RunInfo>(&text).unwrap(), i);
        assert!(PlayerFile::of(&tmp.path().join("none.so")).is_err());
    }
}
