//! The judge's commands, as the binary calls them with plain options: this is where a
//! tournament is wired to its run directory, its players and its observers (game log,
//! progress bar, report), which the tournament itself knows only as traits.

use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::Duration;

use anyhow::{Context, Result, bail};

use crate::check::{self, CheckOptions};
use crate::clock::ClockSettings;
use crate::games::connect4::Connect4;
use crate::games::go::Go;
use crate::games::reversi::Reversi;
use crate::games::{Game, GameKind};
use crate::players::{self, Lineup, LogSink, ProcessSettings, Roster};
use crate::record::{self, GameLog, RecordFiles};
use crate::report::progress::Progress;
use crate::report::{ReportWriter, html, table};
use crate::results::{self, SprtReading};
use crate::run_dir::{MergeInfo, MergedPart, PlayerFile, RunDir, RunInfo};
use crate::schedule::{self, Colours, Entrant, Mode, Pairing, Shard};
use crate::shards::{self, Parts};
use crate::stats::SprtParams;
use crate::tournament::{self, Plan, Settings};

/// Each player's captured stdout+stderr is cut at this many bytes per run.
const LOG_CAP_BYTES: u64 = 1 << 20;

/// A tournament as asked for on the command line.
#[derive(Debug, Clone)]
pub struct TournamentOptions {
    /// The game (`--game`, `--rule`; Go's `--size`, `--komi`, `--handicap`).
    pub game: GameKind,
    /// Who meets whom.
    pub mode: Mode,
    /// The players as given (`LIB.so`, `LIB.so@KEY=VALUE,...`), pools already expanded.
    pub players: Vec<PathBuf>,
    /// Boards per pairing; each board is played twice, colours swapped (unless `colours`
    /// are fixed).
    pub pairs: u32,
    /// Seed for the boards (default: from the clock, printed and recorded).
    pub seed: Option<u64>,
    /// Wall-clock limit per move, ms.
    pub move_limit_ms: u64,
    /// Each side's game clock (`--main-time`, `--byoyomi`, `--byoyomi-stones`), if any.
    pub clock: Option<ClockSettings>,
    /// Games played at once (default: the number of cores).
    pub concurrency: Option<usize>,
    /// Address-space limit of each player's process, MiB (0: none).
    pub memory_limit_mb: u64,
    /// One process per player per worker across games.
    pub reuse_process: bool,
    /// Run directory (default: a fresh one under `runs/`).
    pub out: Option<PathBuf>,
    /// Continue the run in this directory instead.
    pub resume: Option<PathBuf>,
    /// No progress bar.
    pub quiet: bool,
    /// Stop a match once this SPRT decides (recorded only, on a shard of a bigger run).
    pub sprt: Option<SprtParams>,
    /// Play only this part of the schedule (needs `seed`; a resumed run keeps its own).
    pub shard: Option<Shard>,
    /// Colours swapped between a board's two games (the default), or kept
    /// (`--fixed-colours`: the first player moves first, Black in Go, in every game).
    pub colours: Colours,
}

/// `judge check LIB.so [--full]`: the checklist ([`check::run`]); with `position`, one
/// call on that position ([`check::run_position`]). Returns the exit status: 0 when
/// nothing failed, 1 when something did, 2 when the check could not be run (a usage
/// error such as no such file or one that cannot be read: one line on stderr, the exit
/// status of clap's usage errors).
pub fn check(opts: &CheckOptions, position: Option<&str>) -> Result<i32> {
    let ran = match position {
        Some(text) => check::run_position(&opts.library, text, opts.memory_limit_mb),
        None => check::run(opts),
    };
    Ok(ran.unwrap_or_else(|e| {
        eprintln!("judge: error: {e:#}");
        2
    }))
}

/// What `run.json` records for a player file that could not be read.
const UNREADABLE: &str = "unreadable";

/// `judge match`, `judge round-robin`, `judge gauntlet`: plays the tournament into its
/// run directory, then writes the summary and the report and prints the table.
pub fn tournament(opts: &TournamentOptions) -> Result<()> {
    match opts.game {
        GameKind::Connect4 => tournament_of(&Connect4, opts),
        GameKind::Reversi(rule) => tournament_of(&Reversi { rule }, opts),
        GameKind::Go(rules) => tournament_of(&Go { rules }, opts),
    }
}

/// The game a run directory's `run.json` names (Connect-4 when it names none).
fn game_of(dir: &Path) -> Result<GameKind> {
    RunDir::at(dir).read_info()?.game()
}

/// [`tournament`] for one game.
fn tournament_of<G: Game>(game: &G, opts: &TournamentOptions) -> Result<()>
where
    Roster: Lineup<G>,
{
    let entrants = checked_entrants(game, opts)?;
    players::sweep_stale_scratch();
    let pairings = opts.mode.pairings(entrants.len());
    let player_files = player_files(&entrants);
    let run = match &opts.resume {
        Some(root) => resumed_run(game, opts, root, &entrants, &pairings, &player_files)?,
        None => new_run(opts)?,
    };
    write_run_info(game, opts, &run, &entrants, &pairings, player_files)?;
    let logs = open_player_logs(&run.dir, &entrants)?;
    let logged = if opts.resume.is_some() {
        // A resumed run keeps whole pairs only (a board with one game logged is replayed
        // whole, so paired statistics stay paired); the log is rewritten to hold just those.
        record::keep_whole_pairs(&run.dir.games())?
    } else {
        Vec::new()
    };
    let settings = settings_of(opts, &run);
    let plan = Plan::new(game, &pairings, &settings, logged);
    announce(
        game,
        opts,
        &run,
        entrants.len(),
        &plan,
        settings.concurrency,
    );
    let roster = Roster::new(
        entrants.iter().map(|e| e.spec.clone()).collect(),
        logs,
        ProcessSettings::current(opts.memory_limit_mb).context("locating the judge executable")?,
    );
    // The observers: the game log, the games' own record files, the progress bar and the
    // report, which the tournament knows only as observers.
    let mut progress = Progress::new(
        (plan.logged.len() + plan.jobs.len()) as u64,
        plan.logged.len() as u64,
        &entrants[0].name,
    );
    if opts.quiet {
        progress.hide();
    }
    let mut log = GameLog::open(&run.dir.games())?;
    let mut report = ReportWriter {
        game,
        dir: &run.dir,
        mode: opts.mode,
        entrants: &entrants,
        pairings: &pairings,
        sprt: opts.sprt.as_ref(),
        sprt_reading: if run.is_whole() {
            SprtReading::Sequential
        } else {
            SprtReading::Pooled
        },
    };
    let mut files = RecordFiles::new(game, &run.dir);
    tournament::play(
        game,
        &settings,
        &entrants,
        &roster,
        plan,
        &mut [&mut log, &mut files, &mut progress, &mut report],
    )?;
    if let Some(s) = run.shard.filter(|s| !s.is_whole()) {
        // The table above is this part's alone; say where the whole is read.
        eprintln!(
            "shard {s}: the table covers this shard only; `judge status DIR...` reads all the shards (and their SPRT), `judge merge DIR... --out DIR` puts them together"
        );
    }
    Ok(())
}

/// Where a tournament is played: its run directory, its seed, and the part of the
/// schedule it plays.
struct Run {
    dir: RunDir,
    seed: u64,
    shard: Option<Shard>,
}

impl Run {
    /// Whether the run plays its whole schedule (it is not one shard of several).
    fn is_whole(&self) -> bool {
        self.shard.is_none_or(Shard::is_whole)
    }
}

/// The tournament's entrants, once the options and every player are checked: usage
/// errors end the run before its directory exists or any game starts.
fn checked_entrants<G: Game>(game: &G, opts: &TournamentOptions) -> Result<Vec<Entrant>> {
    let mode = opts.mode;
    if opts.players.len() < 2 {
        bail!("{mode} needs at least two players");
    }
    if opts.pairs == 0 {
        bail!("--pairs must be at least 1");
    }
    if opts.concurrency == Some(0) {
        bail!("--concurrency must be at least 1");
    }
    if opts.colours == Colours::Fixed && opts.sprt.is_some() {
        bail!(
            "--sprt reads pentanomial pairs (a board played in both colours), which --fixed-colours does not form: drop one of them"
        );
    }
    let entrants = schedule::entrants(&opts.players)?;
    for e in &entrants {
        if let Err(why) = e.spec.check().and_then(|()| e.spec.can_play(game.kind())) {
            bail!("player {}: {why}", e.path.display());
        }
    }
    Ok(entrants)
}

/// Each entrant's file as `run.json` records it. A file that cannot be read is recorded
/// as such (a library could not pass [`checked_entrants`]; a program found on PATH,
/// `saiblo:engine`, is recorded by its name).
fn player_files(entrants: &[Entrant]) -> Vec<PlayerFile> {
    entrants
        .iter()
        .map(|e| {
            PlayerFile::of(e.spec.file()).unwrap_or_else(|_| PlayerFile {
                path: e.spec.file().to_path_buf(),
                sha256: UNREADABLE.into(),
            })
        })
        .collect()
}

/// A new run: a fresh directory (or `--out`), the seed given or one from the clock.
fn new_run(opts: &TournamentOptions) -> Result<Run> {
    if opts.shard.is_some() && opts.seed.is_none() {
        bail!("--shard needs --seed: every shard must draw the same schedule");
    }
    Ok(Run {
        dir: RunDir::create(opts.out.as_deref(), opts.mode)?,
        seed: opts.seed.unwrap_or_else(clock_seed),
        shard: opts.shard,
    })
}

/// The run in `root` reopened for `--resume`, once it is known to be the same run: the
/// same game, mode, players and seed, the same shard, the same builds of the players and,
/// for a shard, the same schedule.
fn resumed_run<G: Game>(
    game: &G,
    opts: &TournamentOptions,
    root: &Path,
    entrants: &[Entrant],
    pairings: &[Pairing],
    player_files: &[PlayerFile],
) -> Result<Run> {
    let mode = opts.mode;
    let (dir, info) = RunDir::resume(root, mode, &opts.players, opts.seed)?;
    if info.game()? != game.kind() {
        bail!(
            "--resume {}: that run plays {}; give the same --game and --rule",
            root.display(),
            info.game()?.title()
        );
    }
    if info.colours != opts.colours {
        bail!(
            "--resume {}: that run was played with colours {}; {} --fixed-colours",
            root.display(),
            info.colours.name(),
            if info.colours.is_swapped() {
                "drop"
            } else {
                "give"
            }
        );
    }
    if opts.shard.is_some_and(|s| Some(s) != info.shard) {
        bail!(
            "--resume {}: that run is {}; give its --shard or none",
            root.display(),
            info.shard
                .map_or("not sharded".to_string(), |s| format!("shard {s}"))
        );
    }
    // A resumed run plays the same build: mixing two in one log would be
    // mixing two players under one name.
    for (old, new) in info.player_files.iter().zip(player_files) {
        if old.sha256 != new.sha256 {
            bail!(
                "--resume {}: {} changed since the run started (sha256 {} then, {} now)",
                root.display(),
                new.path.display(),
                old.sha256,
                new.sha256
            );
        }
    }
    // A shard stays a part of its schedule: resumed with another --pairs it would
    // be a part of none.
    let digest = schedule::schedule_digest(
        mode,
        entrants,
        pairings,
        opts.pairs,
        info.seed,
        opts.colours,
    );
    if info.shard.is_some_and(|s| !s.is_whole())
        && info.schedule_sha256.as_ref().is_some_and(|d| *d != digest)
    {
        bail!(
            "--resume {}: that shard's schedule had --pairs {}; give the same command",
            root.display(),
            info.pairs
        );
    }
    Ok(Run {
        dir,
        seed: info.seed,
        shard: info.shard,
    })
}

/// Writes the run's `run.json`: the command, the players' files, the schedule's digest.
fn write_run_info<G: Game>(
    game: &G,
    opts: &TournamentOptions,
    run: &Run,
    entrants: &[Entrant],
    pairings: &[Pairing],
    player_files: Vec<PlayerFile>,
) -> Result<()> {
    let mode = opts.mode;
    let mut info = RunInfo {
        mode,
        players: opts.players.clone(),
        names: entrants.iter().map(|e| e.name.clone()).collect(),
        seed: run.seed,
        pairs: opts.pairs,
        move_limit_ms: opts.move_limit_ms,
        memory_limit_mb: opts.memory_limit_mb,
        reuse_process: opts.reuse_process,
        judge_version: env!("CARGO_PKG_VERSION").to_string(),
        sprt: opts.sprt,
        player_files,
        schedule_sha256: Some(schedule::schedule_digest(
            mode,
            entrants,
            pairings,
            opts.pairs,
            run.seed,
            opts.colours,
        )),
        shard: run.shard,
        merged: None,
        game: None,
        rule: None,
        go: None,
        clock: opts.clock,
        colours: opts.colours,
    };
    info.set_game(game.kind());
    run.dir.write_info(&info)
}

/// Each entrant's output log, `logs/NAME.log` in the run directory.
fn open_player_logs(dir: &RunDir, entrants: &[Entrant]) -> Result<Vec<Arc<LogSink>>> {
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

/// The tournament's settings from the options, for `run`.
fn settings_of(opts: &TournamentOptions, run: &Run) -> Settings {
    Settings {
        move_limit: Duration::from_millis(opts.move_limit_ms),
        clock: opts.clock,
        concurrency: opts
            .concurrency
            .unwrap_or_else(|| std::thread::available_parallelism().map_or(1, |n| n.get())),
        reuse_process: opts.reuse_process,
        seed: run.seed,
        pairs: opts.pairs,
        // A shard cannot stop the others: it plays its whole part, and `judge status`
        // reads the test over all the shards.
        sprt: opts.sprt.filter(|_| run.is_whole()),
        shard: run.shard.unwrap_or(Shard::WHOLE),
        colours: opts.colours,
    }
}

/// The line on stderr that says what is about to be played, and where.
fn announce<G: Game>(
    game: &G,
    opts: &TournamentOptions,
    run: &Run,
    players: usize,
    plan: &Plan<G>,
    concurrency: usize,
) {
    eprintln!(
        "judge {}: {}{}{}{players} players, {} games to play ({} already logged), seed {}{}, concurrency {concurrency}, run directory {}",
        opts.mode,
        match game.kind() {
            GameKind::Connect4 => String::new(),
            kind => format!("{}, ", kind.title()),
        },
        opts.clock.map_or(String::new(), |c| format!("clock {c}, ")),
        if opts.colours.is_swapped() {
            ""
        } else {
            "colours fixed (each pairing's first player first in every game), "
        },
        plan.jobs.len(),
        plan.logged.len(),
        run.seed,
        run.shard.map_or(String::new(), |s| format!(", shard {s}")),
        run.dir.path().display()
    );
}

/// A seed from the clock and the process id, for runs without `--seed`.
fn clock_seed() -> u64 {
    let t = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .unwrap_or_default();
    t.as_nanos() as u64 ^ (std::process::id() as u64) << 32
}

/// `judge report DIR`: prints the run's table (for a run that was stopped before its end,
/// after writing its summary from the game log's whole pairs), writes `report.html` again
/// and prints its path. `judge report DIR DIR...`: the pooled table of independent runs
/// ([`results::of_runs`]), written nowhere.
pub fn report(dirs: &[PathBuf]) -> Result<()> {
    let dir = first_dir(dirs)?;
    let game = game_of(dir)?;
    for other in &dirs[1..] {
        let kind = game_of(other)?;
        if kind != game {
            let named = |k: GameKind| match k {
                GameKind::Connect4 => k.name().to_string(),
                _ => k.title(),
            };
            bail!(
                "{}: a {} run, not {} like {}",
                other.display(),
                named(kind),
                named(game),
                dir.display()
            );
        }
    }
    match (game, dirs.len()) {
        (GameKind::Connect4, 1) => report_of(&Connect4, dir),
        (GameKind::Reversi(rule), 1) => report_of(&Reversi { rule }, dir),
        (GameKind::Go(rules), 1) => report_of(&Go { rules }, dir),
        (GameKind::Connect4, _) => pooled_report::<Connect4>(dirs),
        (GameKind::Reversi(_), _) => pooled_report::<Reversi>(dirs),
        (GameKind::Go(_), _) => pooled_report::<Go>(dirs),
    }
}

/// Prints the table of independent runs' whole pairs together, and what was pooled.
fn pooled_report<G: Game>(dirs: &[PathBuf]) -> Result<()> {
    let runs: Vec<RunDir> = dirs.iter().map(RunDir::at).collect();
    let (summary, seeds) = results::of_runs::<G>(&runs)?;
    print!("{}", table::render(&summary));
    let seeds: Vec<String> = seeds.iter().map(u64::to_string).collect();
    println!(
        "\n{} runs pooled (seeds {}): {} games, whole pairs only, each run's boards kept apart",
        dirs.len(),
        seeds.join(", "),
        summary.games
    );
    Ok(())
}

fn report_of<G: Game>(game: &G, dir: &Path) -> Result<()> {
    let dir = RunDir::at(dir);
    let run = results::of_run::<G>(&dir)?;
    if !run.up_to_date {
        dir.write_summary(&run.summary)?;
    }
    print!("{}", table::render(&run.summary));
    if run.whole_pairs_only {
        println!(
            "\n{} of {} planned games, whole pairs only (the run was stopped or is still running)",
            run.summary.games, run.planned
        );
    }
    println!("{}", html::write(game, &dir)?.display());
    Ok(())
}

/// `judge merge DIR... --out OUT`: checks that the parts are shards of one run (see
/// [`shards::open`]), then writes OUT as an unsharded run of the same schedule would
/// look: games.jsonl in schedule order, run.json (marked as merged, listing the parts),
/// summary.json (with `missing_games` and `missing_shards`), the players' logs under
/// `logs/shard-I/`, and report.html; prints the table as `judge report` does. Missing
/// shards and incomplete parts are merged with a warning on stderr.
pub fn merge(dirs: &[PathBuf], out: &Path) -> Result<()> {
    // Each part's game is checked against the others by `shards::open`.
    match game_of(first_dir(dirs)?)? {
        GameKind::Connect4 => merge_of(&Connect4, dirs, out),
        GameKind::Reversi(rule) => merge_of(&Reversi { rule }, dirs, out),
        GameKind::Go(rules) => merge_of(&Go { rules }, dirs, out),
    }
}

/// The first of the shards' directories.
fn first_dir(dirs: &[PathBuf]) -> Result<&Path> {
    dirs.first()
        .map(PathBuf::as_path)
        .context("no run directories given")
}

fn merge_of<G: Game>(game: &G, dirs: &[PathBuf], out: &Path) -> Result<()> {
    let parts: Parts<G> = shards::open(dirs)?;
    let warnings = parts.warnings();
    for w in &warnings {
        eprintln!("judge merge: warning: {w}");
    }
    let dir = RunDir::create(Some(out), parts.info.mode)?;
    let records = parts.records();
    let mut info = parts.info.clone();
    info.shard = None;
    info.judge_version = env!("CARGO_PKG_VERSION").to_string();
    info.merged = Some(MergeInfo {
        parts: parts
            .parts
            .iter()
            .map(|p| MergedPart {
                dir: p.dir.clone(),
                shard: p.shard,
                games: p.records.len() as u64,
                planned: p.planned,
            })
            .collect(),
        missing_shards: parts.missing_shards.clone(),
        missing_games: parts.missing_games(),
    });
    dir.write_info(&info)?;
    // Written whole and renamed into place: a merge that fails leaves no half log.
    let mut text = String::new();
    for r in &records {
        text.push_str(&serde_json::to_string(r)?);
        text.push('\n');
    }
    let tmp = dir.path().join("games.jsonl.tmp");
    std::fs::write(&tmp, text).with_context(|| format!("writing {}", tmp.display()))?;
    std::fs::rename(&tmp, dir.games())
        .with_context(|| format!("writing {}", dir.games().display()))?;
    // The games' own record files (Go's SGF), written again from the merged log.
    let files = RecordFiles::new(game, &dir);
    for r in &records {
        files.write(r)?;
    }
    for p in &parts.parts {
        let from = RunDir::at(&p.dir).logs();
        let Ok(entries) = std::fs::read_dir(&from) else {
            continue;
        };
        let to = dir.logs().join(format!("shard-{}", p.shard.index()));
        std::fs::create_dir_all(&to).with_context(|| format!("creating {}", to.display()))?;
        for e in entries.flatten() {
            std::fs::copy(e.path(), to.join(e.file_name()))
                .with_context(|| format!("copying {}", e.path().display()))?;
        }
    }
    let run = results::of_run::<G>(&dir)?;
    dir.write_summary(&run.summary)?;
    print!("{}", table::render(&run.summary));
    println!(
        "\nmerged {} part(s) of {} shard(s): {} of {} games{}",
        parts.parts.len(),
        parts.count,
        records.len(),
        parts.planned,
        if warnings.is_empty() {
            String::new()
        } else {
            format!(" ({} missing, see the warnings)", parts.missing_games())
        }
    );
    println!("{}", html::write(game, &dir)?.display());
    Ok(())
}

/// What `judge status` found, as its exit status tells a driver.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum StatusCode {
    /// No SPRT, or it has not decided: exit 0.
    Undecided,
    /// The SPRT accepted H0: exit 10 (the remaining shards can be stopped).
    H0,
    /// The SPRT accepted H1: exit 11 (the remaining shards can be stopped).
    H1,
}

impl StatusCode {
    /// The process exit status: 0, 10 or 11.
    pub fn exit_code(self) -> i32 {
        match self {
            StatusCode::Undecided => 0,
            StatusCode::H0 => 10,
            StatusCode::H1 => 11,
        }
    }
}

/// `judge status DIR...`: reads shards (running, stopped or done; only read, never
/// written) and prints games done and planned per shard and overall, the table of the
/// whole pairs so far, and the SPRT over the shards' summed pentanomial counts.
pub fn status(dirs: &[PathBuf]) -> Result<StatusCode> {
    match game_of(first_dir(dirs)?)? {
        GameKind::Connect4 => status_of::<Connect4>(dirs),
        GameKind::Reversi(_) => status_of::<Reversi>(dirs),
        GameKind::Go(_) => status_of::<Go>(dirs),
    }
}

fn status_of<G: Game>(dirs: &[PathBuf]) -> Result<StatusCode> {
    let parts: Parts<G> = shards::open(dirs)?;
    for p in &parts.parts {
        println!(
            "shard {}: {} of {} games ({})  {}",
            p.shard,
            p.records.len(),
            p.planned,
            if p.complete() { "done" } else { "incomplete" },
            p.dir.display()
        );
    }
    for i in &parts.missing_shards {
        println!("shard {i}/{}: not given", parts.count);
    }
    let records = parts.records();
    println!(
        "overall: {} of {} games (whole boards)\n",
        records.len(),
        parts.planned
    );
    let summary = results::summarize(
        parts.info.mode,
        &parts.entrants,
        &parts.pairings,
        &records,
        None,
        SprtReading::Pooled,
    );
    print!("{}", table::render(&summary));
    let Some(params) = parts.info.sprt else {
        return Ok(StatusCode::Undecided);
    };
    let penta = parts.pooled_penta(0);
    let t = results::sprt_of_penta(&penta, &params);
    println!(
        "SPRT {params} over all shards: pentanomial {:?}, LLR {:.3} [{:.3}, {:.3}] after {} pairs -> {}",
        penta.0, t.llr, t.lower, t.upper, t.pairs, t.decision
    );
    Ok(match t.decision {
        crate::stats::SprtDecision::AcceptH0 => StatusCode::H0,
        crate::stats::SprtDecision::AcceptH1 => StatusCode::H1,
        crate::stats::SprtDecision::Continue => StatusCode::Undecided,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::reversi::{Move, Position, Rule, Setup};
    use crate::games::{Cell, Side, Termination};
    use crate::players::{Answer, Fault, Player};
    use crate::record::GameRecord;

    /// In-memory Reversi players: entrant 0 plays the first legal move (a pass when that
    /// is all), entrant 1 the last.
    struct Greedy(usize);

    impl Player<Reversi> for Greedy {
        fn start(&mut self, _: &Reversi, _: &Setup, _: Side) -> Result<(), Fault> {
            Ok(())
        }
        fn next_move(
            &mut self,
            game: &Reversi,
            p: &Position,
            _: Option<Move>,
            _: Duration,
        ) -> Answer<Move> {
            let moves = game.legal_moves(p);
            let mv = if self.0 == 0 {
                moves[0]
            } else {
                moves[moves.len() - 1]
            };
            Answer {
                reply: Ok(mv),
                wall_ms: 0.5,
                cpu_ms: None,
            }
        }
    }

    struct Pair;

    impl Lineup<Reversi> for Pair {
        fn open(&self, who: usize) -> Box<dyn Player<Reversi>> {
            Box::new(Greedy(who))
        }
    }

    /// A Reversi match through the worker pool into a run directory: every game ends by
    /// discs with the margin the final board shows, the log records it, the summary has
    /// each player's mean disc difference, and `judge report` reads the run back as Reversi.
    #[test]
    fn a_reversi_match_of_fake_players_logs_disc_margins_and_reports() {
        let tmp = tempfile::tempdir().unwrap();
        let root = tmp.path().join("run");
        let dir = RunDir::create(Some(&root), Mode::Match).unwrap();
        let game = Reversi {
            rule: Rule::NoAdjacent,
        };
        let entrants = schedule::entrants(&["first".into(), "last".into()]).unwrap();
        let pairings = Mode::Match.pairings(2);
        let mut info = RunInfo::example(Mode::Match, &["first", "last"], None);
        // The run below: seed 9, 4 pairs (from which results.rs counts the planned games).
        (info.seed, info.pairs) = (9, 4);
        info.set_game(game.kind());
        dir.write_info(&info).unwrap();
        let settings = Settings {
            move_limit: Duration::from_secs(1),
            clock: None,
            concurrency: 2,
            reuse_process: false,
            seed: 9,
            pairs: 4,
            sprt: None,
            shard: Shard::WHOLE,
            colours: Colours::Swapped,
        };
        let plan = Plan::new(&game, &pairings, &settings, Vec::new());
        let mut log = GameLog::open(&dir.games()).unwrap();
        let mut report_writer = ReportWriter {
            game: &game,
            dir: &dir,
            mode: Mode::Match,
            entrants: &entrants,
            pairings: &pairings,
            sprt: None,
            sprt_reading: SprtReading::Sequential,
        };
        tournament::play(
            &game,
            &settings,
            &entrants,
            &Pair,
            plan,
            &mut [&mut log, &mut report_writer],
        )
        .unwrap();

        let text = std::fs::read_to_string(dir.games()).unwrap();
        let records: Vec<GameRecord<Reversi>> = crate::record::read(&dir.games()).unwrap();
        assert_eq!(records.len(), 8);
        let mut total_first = 0;
        for (r, line) in records.iter().zip(text.lines()) {
            assert_eq!(r.termination, Termination::Discs, "{line}");
            assert!(
                line.contains(r#""board":{"rule":"no-adjacent","opening":"#),
                "{line}"
            );
            // The final board, replayed by the rules, gives the margin and the winner.
            let (positions, cells) = game.replay(&r.board, &r.moves);
            assert_eq!(cells.len(), r.moves.len(), "every logged move replays");
            let grid = game.grid(positions.last().unwrap());
            let count = |c| {
                (0..8)
                    .flat_map(|x| (0..8).map(move |y| (x, y)))
                    .filter(|&(x, y)| grid.get(x, y) == c)
                    .count() as i32
            };
            let (black, white) = (count(Cell::First), count(Cell::Second));
            assert_eq!(r.margin, Some((black - white).abs()), "{line}");
            assert!(line.contains(&format!(r#""margin":{}"#, (black - white).abs())));
            let loser = match black.cmp(&white) {
                std::cmp::Ordering::Greater => Some(Side::Second),
                std::cmp::Ordering::Less => Some(Side::First),
                std::cmp::Ordering::Equal => None,
            };
            assert_eq!(r.loser, loser);
            let first_is_a = r.first == "first";
            total_first += if first_is_a {
                black - white
            } else {
                white - black
            };
        }
        let summary: serde_json::Value =
            serde_json::from_str(&std::fs::read_to_string(dir.summary()).unwrap()).unwrap();
        let mean = |name: &str| {
            summary["players"]
                .as_array()
                .unwrap()
                .iter()
                .find(|p| p["name"] == name)
                .unwrap()["disc_diff_mean"]
                .as_f64()
                .unwrap()
        };
        let expected = (f64::from(total_first) / 8.0 * 100.0).round() / 100.0;
        assert_eq!(mean("first"), expected);
        assert_eq!(mean("last"), -expected);
        // `judge report` reads the game from run.json and writes the same page again.
        let page = std::fs::read_to_string(dir.report()).unwrap();
        assert!(
            page.contains(r#""grids":["#),
            "the page draws Reversi positions"
        );
        std::fs::remove_file(dir.report()).unwrap();
        report(std::slice::from_ref(&root)).unwrap();
        assert_eq!(std::fs::read_to_string(dir.report()).unwrap(), page);
    }
}
