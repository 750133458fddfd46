//! Games for `judge check`, played as the course's runner plays them: the library under
//! test keeps one process for all its games (its globals persist), against numbered
//! opponents or a built-in random mover, colours swapped on every board and the board
//! drawn anew for each pair. Each series is a run directory of its own (`series/`,
//! `strength/`: `games.jsonl`, `report.html`), so `judge replay` and `judge report` read
//! its games.

use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::Duration;

use anyhow::{Context, Result};
use rand::{Rng, SeedableRng, rngs::StdRng};

use crate::games::connect4::{BoardSpec, Connect4, Point, Position};
use crate::games::{Side, Termination};
use crate::players::course_abi::CourseAbiPlayer;
use crate::players::{Answer, Audit, Fault, Lineup, LogSink, Player, PlayerSpec, ProcessSettings};
use crate::record::{GameLog, GameRecord, Observer};
use crate::report::html;
use crate::results::{self, SprtReading};
use crate::run_dir::{PlayerFile, RunDir, RunInfo};
use crate::schedule::{self, Colours, Entrant, Mode, Shard};
use crate::tournament::{self, Plan, Settings};

/// Each player's captured stderr is cut at this many bytes per series.
const LOG_CAP_BYTES: u64 = 1 << 20;

/// The name the built-in opponent plays under.
pub const BUILTIN: &str = "random";

/// Who the library plays.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Opponent {
    /// A course-ABI library (a ladder rung), in its own process.
    Library(PathBuf),
    /// The judge's own uniformly random legal mover, in the judge's process: the
    /// opponent when no ladder is at hand.
    Random,
}

/// A series to play.
#[derive(Debug, Clone)]
pub struct SeriesPlan {
    /// Its run directory.
    pub dir: PathBuf,
    /// The opponents, each met on `pairs` boards (two games a board, colours swapped).
    pub opponents: Vec<Opponent>,
    /// Boards per opponent.
    pub pairs: u32,
    /// Seed of the boards.
    pub seed: u64,
    /// Start no game after the library's first loss by a verdict (a crash, a timeout, an
    /// illegal move, NULL): the series has shown what it is for.
    pub stop_at_fault: bool,
}

/// A played series.
#[derive(Debug, Clone)]
pub struct Series {
    /// Its run directory.
    pub dir: PathBuf,
    /// The library's name in the records.
    pub name: String,
    /// The games, in the order they were played.
    pub records: Vec<GameRecord<Connect4>>,
    /// Games planned.
    pub planned: usize,
}

impl Series {
    /// The side the library played in `record`.
    pub fn side(&self, record: &GameRecord<Connect4>) -> Side {
        if record.first == self.name {
            Side::First
        } else {
            Side::Second
        }
    }

    /// The library's answer times in `record`, ms.
    pub fn move_ms(&self, record: &GameRecord<Connect4>) -> Vec<f64> {
        let start = self.side(record).index();
        record
            .move_ms
            .iter()
            .skip(start)
            .step_by(2)
            .copied()
            .collect()
    }

    /// The opponent in `record` for people: its file name (`1.so`), or the built-in
    /// mover's description.
    pub fn opponent_label(&self, record: &GameRecord<Connect4>) -> String {
        let (name, path) = if record.first == self.name {
            (&record.second, &record.second_path)
        } else {
            (&record.first, &record.first_path)
        };
        if path == Path::new(BUILTIN) {
            return "the judge's random mover".into();
        }
        path.file_name()
            .map_or_else(|| name.clone(), |f| f.to_string_lossy().into_owned())
    }

    /// The opponents' labels ([`Series::opponent_label`]), each once, in the order met.
    pub fn opponent_labels(&self) -> Vec<String> {
        let mut labels: Vec<String> = Vec::new();
        for r in &self.records {
            let label = self.opponent_label(r);
            if !labels.contains(&label) {
                labels.push(label);
            }
        }
        labels
    }

    /// Whether the library lost `record` by a verdict rather than on the board.
    pub fn lost_by_verdict(&self, record: &GameRecord<Connect4>) -> bool {
        record.loser == Some(self.side(record))
            && !matches!(record.termination, Termination::Four | Termination::Full)
    }
}

/// The series' `run.json`: a gauntlet of the library against the opponents, in one kept
/// process each.
fn run_info(
    paths: &[PathBuf],
    entrants: &[Entrant],
    plan: &SeriesPlan,
    settings: &ProcessSettings,
    move_limit: Duration,
) -> Result<RunInfo> {
    let pairings = Mode::Gauntlet.pairings(entrants.len());
    let mut info = RunInfo {
        mode: Mode::Gauntlet,
        players: paths.to_vec(),
        names: entrants.iter().map(|e| e.name.clone()).collect(),
        seed: plan.seed,
        pairs: plan.pairs,
        move_limit_ms: move_limit.as_millis() as u64,
        memory_limit_mb: settings.memory_limit_mb,
        reuse_process: true,
        judge_version: env!("CARGO_PKG_VERSION").to_string(),
        sprt: None,
        player_files: paths
            .iter()
            .filter(|p| p.is_file())
            .map(|p| PlayerFile::of(p))
            .collect::<Result<_>>()?,
        schedule_sha256: Some(schedule::schedule_digest(
            Mode::Gauntlet,
            entrants,
            &pairings,
            plan.pairs,
            plan.seed,
            Colours::Swapped,
        )),
        shard: None,
        merged: None,
        game: None,
        rule: None,
        go: None,
        clock: None,
        colours: Colours::Swapped,
    };
    info.set_game(crate::games::GameKind::Connect4);
    Ok(info)
}

/// Each entrant's stderr log in the run directory's `logs/`.
fn open_logs(dir: &RunDir, entrants: &[Entrant]) -> Result<Vec<Arc<LogSink>>> {
    std::fs::create_dir_all(dir.logs())
        .with_context(|| format!("creating {}", dir.logs().display()))?;
    entrants
        .iter()
        .map(|e| {
            let path = dir.player_log(&e.name);
            LogSink::open(&path, LOG_CAP_BYTES)
                .map(Arc::new)
                .with_context(|| format!("opening {}", path.display()))
        })
        .collect()
}

/// The tournament's settings for a series: one game at a time, the library's process
/// kept from game to game.
fn tournament_settings(plan: &SeriesPlan, move_limit: Duration) -> Settings {
    Settings {
        move_limit,
        clock: None,
        concurrency: 1,
        reuse_process: true,
        seed: plan.seed,
        pairs: plan.pairs,
        sprt: None,
        shard: Shard::WHOLE,
        colours: Colours::Swapped,
    }
}

/// Plays `plan` for `library` (its stdout and leftover files reported to `audit`), each
/// game under `move_limit`, printing a line per game on stderr.
pub fn play(
    library: &Path,
    plan: &SeriesPlan,
    settings: &ProcessSettings,
    audit: Arc<Audit>,
    move_limit: Duration,
) -> Result<Series> {
    let mut paths = vec![library.to_path_buf()];
    paths.extend(plan.opponents.iter().map(|o| match o {
        Opponent::Library(p) => p.clone(),
        Opponent::Random => PathBuf::from(BUILTIN),
    }));
    let entrants = name_entrants(&paths, &plan.opponents)?;
    let dir = RunDir::create(Some(&plan.dir), Mode::Gauntlet)?;
    dir.write_info(&run_info(&paths, &entrants, plan, settings, move_limit)?)?;
    let lineup = CheckLineup {
        library: library.to_path_buf(),
        opponents: plan.opponents.clone(),
        settings: settings.clone(),
        logs: open_logs(&dir, &entrants)?,
        audit,
        seed: plan.seed,
    };
    let pairings = Mode::Gauntlet.pairings(entrants.len());
    let tournament_settings = tournament_settings(plan, move_limit);
    let work = Plan::new(&Connect4, &pairings, &tournament_settings, Vec::new());
    let planned = work.jobs.len();
    let mut log = GameLog::open(&dir.games())?;
    let mut watch = Watch {
        name: entrants[0].name.clone(),
        stop_at_fault: plan.stop_at_fault,
        stop: false,
        played: 0,
        planned,
        tally: [0; 3],
    };
    let records = tournament::play(
        &Connect4,
        &tournament_settings,
        &entrants,
        &lineup,
        work,
        &mut [&mut log, &mut watch],
    )?;
    let summary = results::summarize(
        Mode::Gauntlet,
        &entrants,
        &pairings,
        &records,
        None,
        SprtReading::Sequential,
    );
    dir.write_summary(&summary)?;
    html::write(&Connect4, &dir)?;
    Ok(Series {
        dir: plan.dir.clone(),
        name: entrants[0].name.clone(),
        records,
        planned,
    })
}

/// Entrants named as a tournament names them; the built-in opponent by [`BUILTIN`].
fn name_entrants(paths: &[PathBuf], opponents: &[Opponent]) -> Result<Vec<Entrant>> {
    let mut entrants = schedule::entrants(&paths[..1])?;
    for (path, opponent) in paths[1..].iter().zip(opponents) {
        let spec = PlayerSpec::parse(path)?;
        let stem = match opponent {
            Opponent::Library(_) => spec.base_name(),
            Opponent::Random => BUILTIN.to_string(),
        };
        let mut name = stem.clone();
        let mut k = 2;
        while entrants.iter().any(|e: &Entrant| e.name == name) {
            name = format!("{stem}#{k}");
            k += 1;
        }
        entrants.push(Entrant {
            name,
            path: path.clone(),
            spec,
        });
    }
    Ok(entrants)
}

/// Opens the series' players: the library (audited), library opponents in their own
/// processes, the built-in random mover in this one.
struct CheckLineup {
    library: PathBuf,
    opponents: Vec<Opponent>,
    settings: ProcessSettings,
    logs: Vec<Arc<LogSink>>,
    audit: Arc<Audit>,
    seed: u64,
}

impl Lineup<Connect4> for CheckLineup {
    fn open(&self, who: usize) -> Box<dyn Player<Connect4>> {
        let log = self.logs[who].clone();
        match who.checked_sub(1).map(|k| &self.opponents[k]) {
            None => Box::new(CourseAbiPlayer::launch_audited(
                &self.settings,
                &self.library,
                &[],
                log,
                Some(self.audit.clone()),
            )),
            Some(Opponent::Library(path)) => {
                Box::new(CourseAbiPlayer::launch(&self.settings, path, &[], log))
            }
            Some(Opponent::Random) => Box::new(RandomMover {
                rng: StdRng::seed_from_u64(self.seed ^ who as u64),
            }),
        }
    }
}

/// A uniformly random legal mover: the series' opponent when no ladder is at hand.
struct RandomMover {
    rng: StdRng,
}

impl Player<Connect4> for RandomMover {
    fn start(&mut self, _: &Connect4, _: &BoardSpec, _: Side) -> Result<(), Fault> {
        Ok(())
    }

    fn next_move(
        &mut self,
        _: &Connect4,
        position: &Position,
        _: Option<Point>,
        _: Duration,
    ) -> Answer<Point> {
        let moves: Vec<Point> = (0..position.spec().n)
            .filter_map(|y| position.drop_point(y))
            .collect();
        let reply = match moves.len() {
            0 => Err(Fault::NoMove),
            k => Ok(moves[self.rng.random_range(0..k)]),
        };
        Answer::timed(reply, 0.0)
    }

    fn reusable(&self) -> bool {
        true
    }
}

/// Prints each game as it ends, and stops the series at the library's first fault when
/// asked to.
struct Watch {
    name: String,
    stop_at_fault: bool,
    stop: bool,
    played: usize,
    planned: usize,
    /// The library's games so far: won, drawn, lost.
    tally: [u32; 3],
}

impl Observer<Connect4> for Watch {
    fn game_finished(&mut self, r: &GameRecord<Connect4>) -> Result<()> {
        self.played += 1;
        let lib_side = if r.first == self.name {
            Side::First
        } else {
            Side::Second
        };
        let faulted = r.loser == Some(lib_side)
            && !matches!(r.termination, Termination::Four | Termination::Full);
        self.tally[match r.loser {
            None => 1,
            Some(side) if side == lib_side => 2,
            Some(_) => 0,
        }] += 1;
        let [won, drawn, lost] = self.tally;
        eprintln!(
            "  game {} of {} (id {}, so far {won} won, {drawn} drawn, {lost} lost): {} vs {} on {}x{}, {} by {}{}",
            self.played,
            self.planned,
            r.id,
            r.first,
            r.second,
            r.board.m,
            r.board.n,
            r.result,
            r.termination.name(),
            r.detail
                .as_deref()
                .map_or(String::new(), |d| format!(" ({d})"))
        );
        if faulted && self.stop_at_fault {
            self.stop = true;
        }
        Ok(())
    }

    fn wants_stop(&self) -> bool {
        self.stop
    }
}
