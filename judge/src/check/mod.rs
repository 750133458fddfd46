//! `judge check LIB.so [--full]`: the checklist a course library must pass before it is
//! submitted, every item from calls and games in isolated processes (the library is never
//! opened in the judge's own).
//!
//! 1. **loading** ([`elf`], then a host): an ELF shared object for this machine that
//!    exports `getPoint` and `clearPoint` with C linkage (a C++-mangled name is found and
//!    explained), loads as the course's runner loads it, and leaves no file in its
//!    working directory;
//! 2. **contract** ([`positions`], [`calls`]): one call on each edge and hostile
//!    position, each in a fresh process, judged as the course judges it;
//! 3. **time**: every answer within the course's 3 s (above 2.5 s warns);
//! 4. **one-process** ([`series`]): games in one process as the course's runner plays
//!    them, globals kept (100 with `--full`); memory must stay flat;
//! 5. **memory**: peak resident memory against the platform's about 1 GB;
//! 6. **output**: nothing on stdout, the online platform's protocol channel;
//! 7. **strength** (`--full`): the course's score against the ladder.
//!
//! [`items`] reads the verdicts off what was seen; [`report`] prints them and writes
//! `check.json` and `report.html`. The library keeps its own time budget: the check
//! sets nothing in its environment.

pub mod calls;
pub mod elf;
pub mod items;
pub mod positions;
pub mod report;
pub mod series;

use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::{Duration, Instant};

use anyhow::{Context, Result, bail};

use crate::players::{self, Audit, LogSink, ProcessSettings};
use crate::run_dir;
use crate::schedule;
use series::{Opponent, Series, SeriesPlan};

/// The course's time limit per move.
const MOVE_LIMIT: Duration = Duration::from_millis(items::LIMIT_MS as u64);
/// Boards of the quick series (two games each, colours swapped).
const QUICK_PAIRS: u32 = 2;
/// Games of the `--full` series, at least.
const FULL_GAMES: u32 = 100;
/// Ladder rungs the `--full` series cycles through (the weakest: short games).
const FULL_SERIES_RUNGS: usize = 5;
/// The library's stderr kept in `logs/library.log`, bytes.
const LOG_CAP_BYTES: u64 = 1 << 20;
/// Why no game was played.
const NOT_LOADED: &str = "not played: the library does not load";

/// What `judge check` was asked.
#[derive(Debug, Clone)]
pub struct CheckOptions {
    /// The library.
    pub library: PathBuf,
    /// Also the long items: 100 games in one process, the strength against the ladder.
    pub full: bool,
    /// The numbered opponents' directory (`N.so`); `none` for the built-in random mover;
    /// default: found next to the judge (`target/ladder`).
    pub ladder: Option<PathBuf>,
    /// The check's directory (default: a fresh `runs/DATE-TIME-check`).
    pub out: Option<PathBuf>,
    /// Address-space limit of the library's processes, MiB.
    pub memory_limit_mb: u64,
    /// Seed of the series' boards (default: from the clock).
    pub seed: Option<u64>,
}

/// The ladder to play: `given`, or the first of `$GRAVITY4_LADDER_DIR`, `target/ladder`
/// next to the judge's own directory and `target/ladder` here that holds `*.so` files;
/// its rungs in numeric order. `None`: the built-in random mover (`--ladder none`, or no
/// ladder found).
fn find_ladder(given: Option<&Path>) -> Result<Option<Vec<PathBuf>>> {
    if let Some(dir) = given {
        if dir == Path::new("none") {
            return Ok(None);
        }
        if !dir.is_dir() {
            bail!("--ladder {}: not a directory", dir.display());
        }
        return schedule::expand_pool(&[dir.to_path_buf()]).map(Some);
    }
    let mut candidates: Vec<PathBuf> = std::env::var_os("GRAVITY4_LADDER_DIR")
        .map(PathBuf::from)
        .into_iter()
        .collect();
    if let Some(dir) = std::env::current_exe()
        .ok()
        .and_then(|e| Some(e.parent()?.parent()?.join("ladder")))
    {
        candidates.push(dir);
    }
    candidates.push(PathBuf::from("target/ladder"));
    Ok(candidates
        .into_iter()
        .filter(|d| d.is_dir())
        .find_map(|d| schedule::expand_pool(&[d]).ok()))
}

/// A seed from the clock, for checks without `--seed`.
fn clock_seed() -> u64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .unwrap_or_default()
        .as_nanos() as u64
}

/// Whether the header says the file can be loaded here at all (an ELF shared object of
/// this machine); the loading item says why not.
fn loadable(elf: &Result<elf::Elf, String>) -> bool {
    elf.as_ref().is_ok_and(|e| {
        e.kind == elf::ET_DYN && elf::host().is_none_or(|h| h == (e.machine, e.is_64))
    })
}

/// What every phase of a check shares: the library, where the check writes, and how
/// the library's processes run.
struct Setup {
    /// The library as given.
    library: PathBuf,
    /// The library as a shell reads it (for the commands the check prints).
    quoted: String,
    /// Its ELF header and symbols, or why it is not an ELF file.
    elf: Result<elf::Elf, String>,
    /// The ladder's rungs, or `None` for the built-in random mover.
    ladder: Option<Vec<PathBuf>>,
    /// The check's directory.
    dir: PathBuf,
    /// How the library's processes run.
    settings: ProcessSettings,
    /// What the library wrote to stdout and left in its working directories.
    audit: Arc<Audit>,
    /// The library's stderr from the single calls.
    log: Arc<LogSink>,
    /// Seed of the series' boards.
    seed: u64,
}

/// Reads the library the check was given; `Err` when it is no file or cannot be read.
fn read_library(library: &Path) -> Result<Vec<u8>> {
    if !library.exists() {
        bail!("{}: no such file", library.display());
    }
    if !library.is_file() {
        bail!("{}: not a file", library.display());
    }
    std::fs::read(library).with_context(|| format!("reading {}", library.display()))
}

/// Checks the arguments, reads the library, creates the check's directory and opens its
/// log. `Err` is a usage error (no such file, one that cannot be read, a directory that
/// holds a check already): nothing is written then.
fn prepare(opts: &CheckOptions) -> Result<Setup> {
    let library = &opts.library;
    let bytes = read_library(library)?;
    let ladder = find_ladder(opts.ladder.as_deref())?;
    let dir = opts
        .out
        .clone()
        .unwrap_or_else(|| run_dir::fresh_path("check"));
    if dir.join("check.json").exists() {
        bail!(
            "{} already holds a check (check.json); give another --out",
            dir.display()
        );
    }
    std::fs::create_dir_all(dir.join("logs"))
        .with_context(|| format!("creating {}", dir.display()))?;
    players::sweep_stale_scratch();
    let quoted = shlex::try_quote(&library.to_string_lossy())
        .map(|q| q.into_owned())
        .unwrap_or_else(|_| library.display().to_string());
    let settings =
        ProcessSettings::current(opts.memory_limit_mb).context("locating the judge executable")?;
    let log_path = dir.join("logs").join("library.log");
    let log = Arc::new(
        LogSink::open(&log_path, LOG_CAP_BYTES)
            .with_context(|| format!("opening {}", log_path.display()))?,
    );
    Ok(Setup {
        library: library.clone(),
        quoted,
        elf: elf::read(&bytes),
        ladder,
        dir,
        settings,
        audit: Arc::new(Audit::new()),
        log,
        seed: opts.seed.unwrap_or_else(clock_seed),
    })
}

/// The single calls on every position, each in a fresh process (none when the header
/// says the file cannot be loaded here).
fn call_positions(s: &Setup) -> Vec<calls::Call> {
    if !loadable(&s.elf) {
        return Vec::new();
    }
    let probes = positions::probes();
    eprintln!(
        "calling getPoint on {} positions, each in a fresh process (3 s limit each):",
        probes.len()
    );
    calls::call_all(
        &s.library,
        &probes,
        &s.settings,
        &s.log,
        &s.audit,
        MOVE_LIMIT,
    )
}

/// The ladder's rungs as opponents.
fn opponents_of(rungs: &[PathBuf]) -> Vec<Opponent> {
    rungs.iter().cloned().map(Opponent::Library).collect()
}

/// The one-process series: who the library meets and on how many boards each, games in
/// one process as the course's runner plays them, stopping at the library's first fault.
fn play_series(s: &Setup, full: bool) -> Result<Series, String> {
    let (opponents, pairs) = match (&s.ladder, full) {
        (Some(rungs), false) => (opponents_of(&rungs[..1]), QUICK_PAIRS),
        (Some(rungs), true) => {
            let used = &rungs[..rungs.len().min(FULL_SERIES_RUNGS)];
            (
                opponents_of(used),
                (FULL_GAMES / 2).div_ceil(used.len() as u32),
            )
        }
        (None, false) => (vec![Opponent::Random], QUICK_PAIRS),
        (None, true) => (vec![Opponent::Random], FULL_GAMES / 2),
    };
    let plan = SeriesPlan {
        dir: s.dir.join("series"),
        opponents,
        pairs,
        seed: s.seed,
        stop_at_fault: true,
    };
    eprintln!(
        "playing {} games in one process, as the course's runner does:",
        2 * plan.pairs as usize * plan.opponents.len()
    );
    series::play(&s.library, &plan, &s.settings, s.audit.clone(), MOVE_LIMIT)
        .map_err(|e| format!("the series could not be played: {e:#}"))
}

/// The strength gauntlet (`--full` with a ladder): each rung once first, once second, at
/// the library's own budget; `Err` says why it was not played.
fn play_strength(s: &Setup, full: bool, loaded: bool) -> Result<Series, String> {
    let rungs = match (&s.ladder, full, loaded) {
        (_, false, _) => return Err(
            "not measured in the quick check: `judge check --full` plays each numbered opponent of the ladder twice (once first, once second) at the library's own budget"
                .into(),
        ),
        (None, true, _) => return Err(
            "no ladder to play: build it (scripts/build-ladder.sh -> target/ladder/N.so) or give --ladder DIR (the course's numbered AIs serve too)"
                .into(),
        ),
        (_, _, false) => return Err(NOT_LOADED.into()),
        (Some(rungs), true, true) => rungs,
    };
    let plan = SeriesPlan {
        dir: s.dir.join("strength"),
        opponents: opponents_of(rungs),
        pairs: 1,
        seed: s.seed.wrapping_add(1),
        stop_at_fault: false,
    };
    eprintln!(
        "playing the ladder, {} games at the library's own budget:",
        2 * rungs.len()
    );
    series::play(&s.library, &plan, &s.settings, s.audit.clone(), MOVE_LIMIT)
        .map_err(|e| format!("the ladder could not be played: {e:#}"))
}

/// A series as `check.json` names it.
fn series_ref(s: &Result<Series, String>) -> Option<report::SeriesRef> {
    s.as_ref().ok().map(|s| report::SeriesRef {
        dir: s
            .dir
            .file_name()
            .map_or(String::new(), |n| n.to_string_lossy().into_owned()),
        games: s.records.len(),
        planned: s.planned,
        opponents: s.opponent_labels(),
    })
}

/// What the calls and games showed, as the check's verdicts: writes `check.json` and
/// `report.html` and prints the checklist; returns the exit status.
fn judge_and_report(
    s: Setup,
    opts: &CheckOptions,
    calls: &[calls::Call],
    series: &Result<Series, String>,
    strength: &Result<Series, String>,
    started: Instant,
) -> Result<i32> {
    let seen = s.audit.seen(Duration::from_secs(2));
    let facts = items::Facts {
        library: s.quoted,
        elf: s.elf,
        calls,
        series: series.as_ref().map_err(Clone::clone),
        strength: strength.as_ref().map_err(Clone::clone),
        seen: &seen,
        memory_limit_mb: opts.memory_limit_mb,
    };
    let items = items::all(&facts);
    let (verdict, exit_status) = report::overall(&items);
    let summary = report::CheckJson {
        library: facts.library.clone(),
        sha256: run_dir::sha256_file(&s.library)?,
        full: opts.full,
        judge_version: env!("CARGO_PKG_VERSION"),
        seconds: started.elapsed().as_secs_f64(),
        verdict,
        exit_status,
        items: &items,
        calls,
        series: series_ref(series),
        strength: series_ref(strength),
    };
    report::write(&summary, &s.dir)?;
    players::die_on_closed_stdout();
    print!("{}", report::text(&summary, &s.dir));
    Ok(exit_status)
}

/// Runs the check, prints its report and writes its directory; returns the exit status
/// (0 when no item failed, 1 when one did). `Err` is a check that could not be run: a
/// usage error (no such file, one that cannot be read, a directory that holds a check
/// already), which `judge` exits 2 on.
pub fn run(opts: &CheckOptions) -> Result<i32> {
    let started = Instant::now();
    let setup = prepare(opts)?;
    eprintln!(
        "judge check {}: {} check, seed {}, directory {}",
        setup.quoted,
        if opts.full { "full" } else { "quick" },
        setup.seed,
        setup.dir.display()
    );
    let calls = call_positions(&setup);
    let loaded = !calls.is_empty()
        && !calls
            .iter()
            .any(|c| matches!(c.outcome, calls::Outcome::Load { .. }));
    let series = if loaded {
        play_series(&setup, opts.full)
    } else {
        Err(NOT_LOADED.into())
    };
    let strength = play_strength(&setup, opts.full, loaded);
    judge_and_report(setup, opts, &calls, &series, &strength, started)
}

/// `judge check LIB.so --position TEXT`: one call on the position, in a fresh process,
/// judged as the course judges it; prints the position, the answer and its time, and
/// returns the exit status (0 for a legal answer in time, its arrays unwritten, with
/// nothing on stdout; else 1). `Err` is a usage error, as for [`run`].
pub fn run_position(library: &Path, text: &str, memory_limit_mb: u64) -> Result<i32> {
    read_library(library)?;
    let args = positions::from_text(text).map_err(|e| anyhow::anyhow!("--position: {e}"))?;
    let settings =
        ProcessSettings::current(memory_limit_mb).context("locating the judge executable")?;
    let audit = Arc::new(Audit::new());
    let scratch = tempfile::tempdir().context("creating a temporary directory")?;
    let log = Arc::new(LogSink::open(
        &scratch.path().join("stderr.log"),
        LOG_CAP_BYTES,
    )?);
    let probe = positions::Probe {
        name: "the position given".into(),
        args: args.clone(),
    };
    let call = calls::call_once(library, &probe, &settings, &log, &audit, MOVE_LIMIT);
    let seen = audit.seen(Duration::from_secs(2));
    players::die_on_closed_stdout();
    println!(
        "{}x{}, blocked cell ({},{}), last move ({},{}); the board as the library sees it (0 empty, 1 the opponent, 2 its own; row 0 on top), top under it:",
        args.m, args.n, args.no_x, args.no_y, args.last_x, args.last_y
    );
    // Columns as wide as the widest `top`, so that each `top` stands under its column.
    let w = args
        .top
        .iter()
        .map(|t| t.to_string().len())
        .max()
        .unwrap_or(1);
    for (x, row) in args.board.chunks(args.n as usize).enumerate() {
        let cells: Vec<String> = row
            .iter()
            .enumerate()
            .map(|(y, v)| {
                let cell = match (x as i32, y as i32) {
                    p if p == (args.no_x, args.no_y) => "#".to_string(),
                    _ if *v == 0 => ".".to_string(),
                    _ => v.to_string(),
                };
                format!("{cell:>w$}")
            })
            .collect();
        println!("  {:>2} | {}", x, cells.join(" "));
    }
    let tops: Vec<String> = args.top.iter().map(|t| format!("{t:>w$}")).collect();
    println!("  top  {}", tops.join(" "));
    let time = call
        .wall_ms
        .map_or(String::new(), |ms| format!(" in {:.3} s", ms / 1e3));
    println!("answer{time}: {}", call.describe());
    let stdout_ok = seen.stdout_bytes == 0;
    if !stdout_ok {
        println!(
            "it wrote {} byte(s) to stdout, starting {:?}",
            seen.stdout_bytes,
            String::from_utf8_lossy(&seen.stdout_head)
        );
    }
    let stderr = std::fs::read_to_string(scratch.path().join("stderr.log")).unwrap_or_default();
    if !stderr.trim().is_empty() {
        let lines: Vec<&str> = stderr.lines().take(10).collect();
        println!("its stderr:\n  {}", lines.join("\n  "));
    }
    let legal = matches!(call.outcome, calls::Outcome::Legal { .. }) && call.wrote.is_none();
    Ok(i32::from(!(legal && stdout_ok)))
}
