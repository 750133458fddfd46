//! The checklist's verdicts: each item read off what the calls and games showed, with
//! the evidence and what to do about it. Plain functions of plain data, so that every
//! verdict is tested without a library.

use serde::Serialize;

use super::calls::{Call, Outcome, SAME_FAULT_STREAK};
use super::elf::{self, Elf};
use super::series::Series;
use crate::games::Termination;
use crate::games::connect4::Connect4;
use crate::players::Seen;
use crate::record::GameRecord;

/// The course's time limit per move, ms.
pub const LIMIT_MS: f64 = 3000.0;
/// Above this a move is a warning: the course's machine may be busier than this one.
pub const WARN_MS: f64 = 2500.0;
/// Loading (the host's start, `dlopen`, the library's static initializers) slower than
/// this is a warning, ms: static initializers run once a process, and a runner that loads
/// the library inside a game's clock charges them to the first move.
pub const LOAD_WARN_MS: f64 = 1000.0;
/// Peak resident memory above this is a warning, KiB (the platform allows about 1 GB).
pub const WARN_RSS_KB: u64 = 512 * 1024;
/// Growth of resident memory over a series above this (and above a quarter of the first
/// game's peak) means it is not flat, KiB.
pub const GROWTH_KB: u64 = 64 * 1024;

/// An item's verdict, in order of severity.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Verdict {
    /// Passed.
    Pass,
    /// Not checked (not asked for, or nothing to check it on).
    Skip,
    /// Passed, but look at it.
    Warn,
    /// Failed: the course would count games lost.
    Fail,
}

impl Verdict {
    /// As printed: `pass`, `skip`, `warn`, `fail`.
    pub fn word(self) -> &'static str {
        match self {
            Verdict::Pass => "pass",
            Verdict::Skip => "skip",
            Verdict::Warn => "warn",
            Verdict::Fail => "fail",
        }
    }
}

/// One checklist item's result.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Item {
    /// Short id: `loading`, `contract`, `time`, `one-process`, `memory`, `output`,
    /// `strength`.
    pub id: &'static str,
    /// What it checks, in a few words.
    pub title: &'static str,
    /// The verdict.
    pub verdict: Verdict,
    /// What was seen.
    pub evidence: String,
    /// What to do (for a warning or a failure).
    pub advice: Option<String>,
    /// Commands that show the problem again (a failing position, a game to replay).
    pub reproduce: Vec<String>,
}

impl Item {
    fn new(id: &'static str, title: &'static str, verdict: Verdict, evidence: String) -> Item {
        Item {
            id,
            title,
            verdict,
            evidence,
            advice: None,
            reproduce: Vec::new(),
        }
    }

    fn advice(mut self, text: impl Into<String>) -> Item {
        self.advice = Some(text.into());
        self
    }

    fn reproduce(mut self, commands: Vec<String>) -> Item {
        self.reproduce = commands;
        self
    }
}

/// Everything the items are read from.
pub struct Facts<'a> {
    /// The library as the user named it, quoted for a shell.
    pub library: String,
    /// Its header and symbols, or why it is not an ELF file.
    pub elf: Result<Elf, String>,
    /// The single calls, in order (empty when the file could not be loaded at all).
    pub calls: &'a [Call],
    /// The one-process series, or why it was not played.
    pub series: Result<&'a Series, String>,
    /// The strength gauntlet (with `--full`), or why it was not played.
    pub strength: Result<&'a Series, String>,
    /// What the library wrote to stdout and left in its working directories.
    pub seen: &'a Seen,
    /// The address-space limit of its processes, MiB.
    pub memory_limit_mb: u64,
}

impl Facts<'_> {
    /// Why the library could not be loaded, if it could not.
    pub fn load_error(&self) -> Option<&str> {
        self.calls.iter().find_map(|c| match &c.outcome {
            Outcome::Load { why } => Some(why.as_str()),
            _ => None,
        })
    }

    /// The games played in one process (the series) and in the strength gauntlet.
    fn all_series(&self) -> impl Iterator<Item = &Series> {
        self.series
            .iter()
            .copied()
            .chain(self.strength.iter().copied())
    }

    /// The repro command of a call.
    fn position_command(&self, call: &Call) -> String {
        format!(
            "judge check {} --position '{}'",
            self.library, call.position
        )
    }
}

/// Every item, in checklist order.
pub fn all(f: &Facts) -> Vec<Item> {
    let loaded = f.load_error().is_none() && !f.calls.is_empty();
    let mut items = vec![loading(f)];
    if !loaded {
        for (id, title) in [
            ("contract", "contract on edge and hostile positions"),
            ("time", "time per move"),
            ("one-process", "many games in one process"),
            ("memory", "memory"),
            ("output", "nothing on stdout"),
            ("strength", "strength against the ladder"),
        ] {
            items.push(Item::new(
                id,
                title,
                Verdict::Skip,
                "not checked: the library does not load (see loading)".into(),
            ));
        }
        return items;
    }
    items.extend([
        contract(f),
        time(f),
        one_process(f),
        memory(f),
        output(f),
        strength(f),
    ]);
    items
}

const LOADING: &str = "loads as the course loads it";

fn loading_fails(evidence: String, advice: &str) -> Item {
    Item::new("loading", LOADING, Verdict::Fail, evidence).advice(advice)
}

/// `64-bit x86-64`: the width and machine a header says.
fn built_for(is_64: bool, machine: u16) -> String {
    let bits = if is_64 { "64-bit" } else { "32-bit" };
    format!("{bits} {}", elf::machine_name(machine))
}

/// The header's faults: not a shared object, or one for another machine or width.
fn wrong_file(elf: &Elf) -> Option<Item> {
    if elf.kind != elf::ET_DYN {
        let what = match elf.kind {
            1 => "an object file (.o)",
            2 => "an executable",
            _ => "an ELF file",
        };
        return Some(loading_fails(
            format!("{what} (e_type {}), not a shared object", elf.kind),
            "link a shared library: g++ -shared -fPIC -O2 Strategy.cpp Judge.cpp -o Strategy.so",
        ));
    }
    let (machine, is_64) = elf::host()?;
    ((machine, is_64) != (elf.machine, elf.is_64)).then(|| {
        loading_fails(
            format!(
                "built for {}; this machine is {}",
                built_for(elf.is_64, elf.machine),
                built_for(is_64, machine)
            ),
            "build it on (or for) the machine that runs it, without -m32: a library only loads into a process of its own machine and width",
        )
    })
}

/// The symbol table's faults: `getPoint` or `clearPoint` not exported, or exported only
/// under its C++-mangled name.
fn missing_symbols(elf: &Elf) -> Option<Item> {
    let exported = |name: &str| {
        elf.exports
            .as_ref()
            .is_none_or(|e| e.iter().any(|s| s == name))
    };
    let missing: Vec<&str> = ["getPoint", "clearPoint"]
        .into_iter()
        .filter(|n| !exported(n))
        .collect();
    if missing.is_empty() {
        return None;
    }
    let mangled = elf
        .exports
        .as_deref()
        .map(elf::mangled_course_functions)
        .unwrap_or_default();
    if !mangled.is_empty() {
        return Some(loading_fails(
            format!(
                "does not export {} with C linkage; it exports the C++-mangled {} instead",
                missing.join(" and "),
                mangled.join(" and ")
            ),
            "declare both functions extern \"C\" where they are declared and defined (Strategy.h, Strategy.cpp): extern \"C\" Point* getPoint(...); extern \"C\" void clearPoint(Point* p); the course's runner looks them up by their C names, and C++ renames functions without it",
        ));
    }
    Some(loading_fails(
        format!("does not export {}", missing.join(" or ")),
        "define both getPoint and clearPoint, extern \"C\", not static and with default visibility, in a file you compile into the library",
    ))
}

/// `dlopen`'s failure, with what its text suggests doing.
fn dlopen_failed(f: &Facts) -> Option<Item> {
    let why = f.load_error()?;
    let advice = if why.contains("undefined symbol") {
        "a function or variable it uses is defined in no file it was linked from: compile every .cpp it needs into it (g++ -shared -fPIC -O2 Strategy.cpp Judge.cpp -o Strategy.so)"
    } else if why.contains("cannot open shared object") {
        "it needs a library this machine does not have: link it statically or drop the dependency"
    } else {
        "rebuild it with g++ -shared -fPIC -O2 and check the loader's message above"
    };
    Some(loading_fails(format!("dlopen failed: {why}"), advice))
}

/// Files the library left in its working directories.
fn files_left(f: &Facts) -> Option<Item> {
    let left = &f.seen.files_left;
    if left.is_empty() {
        return None;
    }
    let shown: Vec<&str> = left.iter().take(5).map(String::as_str).collect();
    Some(loading_fails(
        format!(
            "it left {} file(s) in its working directory: {}{}",
            left.len(),
            shown.join(", "),
            more(left.len(), 5)
        ),
        "write no files: the course's runner plays every library from one working directory (and the online platform may not allow writing); print what you need to stderr instead",
    ))
}

/// Item 1: a shared object for this machine, exporting the two functions with C
/// linkage, that loads as the course's runner loads it and leaves no file behind.
pub fn loading(f: &Facts) -> Item {
    let elf = match &f.elf {
        Ok(elf) => elf,
        Err(why) => {
            return loading_fails(
                format!("{}: {why}", f.library),
                "give the .so file the compiler built: g++ -shared -fPIC -O2 Strategy.cpp Judge.cpp -o Strategy.so",
            );
        }
    };
    if let Some(fault) = wrong_file(elf)
        .or_else(|| missing_symbols(elf))
        .or_else(|| dlopen_failed(f))
        .or_else(|| files_left(f))
    {
        return fault;
    }
    let games: usize = f.all_series().map(|s| s.records.len()).sum();
    let (load_time, slow) = load_time(f);
    let evidence = format!(
        "{} shared object; getPoint and clearPoint exported with C linkage; loads as the course's runner loads it (libstdc++ and libm first, then dlopen RTLD_NOW | RTLD_LOCAL){load_time}; no file left in its working directory ({} calls, {games} games)",
        built_for(elf.is_64, elf.machine),
        f.calls.iter().filter(|c| c.wall_ms.is_some()).count()
    );
    if slow {
        return Item::new("loading", LOADING, Verdict::Warn, evidence).advice(
            "make loading fast: do the work of static initializers (global objects' constructors, tables built when the library loads) in getPoint within its time budget, or make it cheaper; static initializers run once a process, and a runner that loads the library inside a game's clock charges them to the first move",
        );
    }
    Item::new("loading", LOADING, Verdict::Pass, evidence)
}

/// ` in 0.01 s (median of 30 loads, the slowest 0.02 s: ...)`, and whether the median is
/// above [`LOAD_WARN_MS`]; nothing when no load was timed.
fn load_time(f: &Facts) -> (String, bool) {
    let mut times: Vec<f64> = f.calls.iter().filter_map(|c| c.load_ms).collect();
    if times.is_empty() {
        return (String::new(), false);
    }
    times.sort_by(f64::total_cmp);
    let median = times[times.len() / 2];
    let text = format!(
        " in {} (median of {} loads, the slowest {}: the host's start, dlopen and the library's static initializers)",
        secs(median),
        times.len(),
        secs(times[times.len() - 1])
    );
    let slow = median > LOAD_WARN_MS;
    if slow {
        let text = format!(
            "{text}, over {}: a runner that loads it inside a game's clock charges that to the first move",
            secs(LOAD_WARN_MS)
        );
        return (text, true);
    }
    (text, false)
}

/// What to do about the failures among `calls`.
fn contract_advice(failed: &[&Call]) -> String {
    let mut advice = Vec::new();
    let any = |pred: fn(&Outcome) -> bool| failed.iter().any(|c| pred(&c.outcome));
    if failed.iter().any(|c| c.wrote.is_some()) {
        advice.push("never write into top or _board: they point into the runner's live arrays, which it keeps playing on after your call; copy them into arrays of your own if you need to change them");
    }
    if any(|o| matches!(o, Outcome::Illegal { swapped: true, .. })) {
        advice.push("return the row as x and the column as y, (top[y] - 1, y): your answers look swapped (x is the row, 0 on top; y the column, 0 on the left)");
    }
    if any(|o| matches!(o, Outcome::Illegal { swapped: false, .. })) {
        advice.push("answer (top[y] - 1, y) for a column y with top[y] > 0: take the row from top, not from the board (top already skips the blocked cell, which always reads 0)");
    }
    if any(|o| matches!(o, Outcome::Null)) {
        advice.push("never return NULL while a column has room: the course counts NULL as a timeout and the game as lost");
    }
    if any(|o| matches!(o, Outcome::Crash { what } if what.contains("exit status"))) {
        advice.push("never call exit() in getPoint: it ends the course's whole runner");
    }
    if any(|o| matches!(o, Outcome::Crash { what } if !what.contains("exit status"))) {
        advice.push("find the crash with the reproducing command under a debugger, or rebuild with -g -fsanitize=address,undefined (a read past an array, a null pointer, an uncaught exception, abort() from a failed assert)");
    }
    advice.join("; ")
}

/// Item 2: every answer legal, as the course judges it; a crash, an exit, NULL or an
/// illegal point while a legal move exists fails, with the position as a command.
pub fn contract(f: &Facts) -> Item {
    const TITLE: &str = "contract on edge and hostile positions";
    let called: Vec<&Call> = f
        .calls
        .iter()
        .filter(|c| c.outcome != Outcome::NotCalled)
        .collect();
    let not_called = f.calls.len() - called.len();
    let failed: Vec<&Call> = called.iter().copied().filter(|c| c.failed()).collect();
    let timeouts = called
        .iter()
        .filter(|c| c.outcome == Outcome::Timeout)
        .count();
    let legal = called
        .iter()
        .filter(|c| matches!(c.outcome, Outcome::Legal { .. }))
        .count();
    let skipped = if not_called > 0 {
        format!(
            "; {not_called} not called after {SAME_FAULT_STREAK} {} in a row",
            match called.last().map(|c| &c.outcome) {
                Some(Outcome::Timeout) => "timeouts",
                _ => "crashes",
            }
        )
    } else {
        String::new()
    };
    if !failed.is_empty() {
        let shown: Vec<String> = failed
            .iter()
            .take(3)
            .map(|c| format!("\"{}\": {}", c.name, c.describe()))
            .collect();
        return Item::new(
            "contract",
            TITLE,
            Verdict::Fail,
            format!(
                "{} of {} positions answered wrongly: {}{}{}",
                failed.len(),
                called.len(),
                shown.join("; "),
                more(failed.len(), 3),
                skipped
            ),
        )
        .advice(contract_advice(&failed))
        .reproduce(failed.iter().map(|c| f.position_command(c)).collect());
    }
    if timeouts > 0 {
        return Item::new(
            "contract",
            TITLE,
            Verdict::Warn,
            format!(
                "{legal} of {} positions answered legally, {timeouts} not in time (see time){skipped}",
                called.len()
            ),
        )
        .advice("make every call answer in time; the positions that timed out are checked once they do");
    }
    Item::new(
        "contract",
        TITLE,
        Verdict::Pass,
        format!(
            "all {legal} answers legal as the course judges them, one call each in a fresh process: the first move on every board size, the blocked cell on the bottom and top rows, under a nearly full column and under stones, tops that skip it, one legal column left, a win and a loss one move away, full columns"
        ),
    )
}

/// `, and N more` when `shown` of `total` were listed.
fn more(total: usize, shown: usize) -> String {
    if total > shown {
        format!(", and {} more", total - shown)
    } else {
        String::new()
    }
}

/// Bytes for people: `512 bytes`, `3.2 KB`, `376 MB`.
fn bytes(n: u64) -> String {
    match n {
        0..1024 => format!("{n} byte(s)"),
        1024..1_048_576 => format!("{:.1} KB", n as f64 / 1024.0),
        _ => format!("{:.0} MB", n as f64 / 1_048_576.0),
    }
}

fn secs(ms: f64) -> String {
    format!("{:.2} s", ms / 1e3)
}

/// Every answer's time and what timed out, from the single calls and the library's moves
/// in games.
#[derive(Default)]
struct AnswerTimes {
    /// (wall ms, where) of every answer.
    answers: Vec<(f64, String)>,
    /// Where an answer did not come within the limit.
    timeouts: Vec<String>,
    /// The commands that replay the games lost by a timeout.
    replays: Vec<String>,
    /// The library's moves in games.
    game_moves: usize,
}

/// The single calls' answer times and timeouts.
fn call_times(f: &Facts) -> AnswerTimes {
    let answers = f
        .calls
        .iter()
        .filter(|c| {
            matches!(
                c.outcome,
                Outcome::Legal { .. } | Outcome::Illegal { .. } | Outcome::Null
            )
        })
        .filter_map(|c| Some((c.wall_ms?, format!("\"{}\"", c.name))))
        .collect();
    let timeouts = f
        .calls
        .iter()
        .filter(|c| c.outcome == Outcome::Timeout)
        .map(|c| format!("\"{}\"", c.name))
        .collect();
    AnswerTimes {
        answers,
        timeouts,
        ..AnswerTimes::default()
    }
}

/// Adds the library's moves in the games of every series to `t`.
fn add_game_times(f: &Facts, t: &mut AnswerTimes) {
    for s in f.all_series() {
        for r in &s.records {
            let mut times = s.move_ms(r);
            // The last time of a game lost by a crash or a timeout is no answer's.
            if s.lost_by_verdict(r)
                && matches!(r.termination, Termination::Timeout | Termination::Crash)
            {
                times.pop();
            }
            if s.lost_by_verdict(r) && r.termination == Termination::Timeout {
                t.timeouts
                    .push(format!("game {} of {}", r.id, s.dir.display()));
                t.replays
                    .push(format!("judge replay {} --game {}", s.dir.display(), r.id));
            }
            t.game_moves += times.len();
            t.answers
                .extend(times.into_iter().enumerate().map(|(k, ms)| {
                    (
                        ms,
                        format!("move {} of game {} ({})", k + 1, r.id, s.dir.display()),
                    )
                }));
        }
    }
}

/// `; the first call on the largest board (12x12) took 0.02 s`, or nothing when there
/// was no such call.
fn first_call_on_largest(f: &Facts) -> String {
    f.calls
        .iter()
        .filter(|c| c.size == (12, 12) && c.position.contains(" last=-1,-1 "))
        .filter_map(|c| c.wall_ms)
        .next()
        .map_or(String::new(), |ms| {
            format!(
                "; the first call on the largest board (12x12) took {}",
                secs(ms)
            )
        })
}

/// Item 3: every answer within the course's 3 s, the first call on the largest board
/// included; above 2.5 s is a warning.
pub fn time(f: &Facts) -> Item {
    const TITLE: &str = "time per move";
    let mut t = call_times(f);
    add_game_times(f, &mut t);
    if !t.timeouts.is_empty() {
        let repro: Vec<String> = f
            .calls
            .iter()
            .filter(|c| c.outcome == Outcome::Timeout)
            .map(|c| f.position_command(c))
            .chain(t.replays)
            .collect();
        let shown: Vec<&str> = t.timeouts.iter().take(3).map(String::as_str).collect();
        return Item::new(
            "time",
            TITLE,
            Verdict::Fail,
            format!(
                "{} answer(s) not within 3 s: {}{}",
                t.timeouts.len(),
                shown.join("; "),
                more(t.timeouts.len(), 3)
            ),
        )
        .advice("stop searching on a clock: read the time (std::chrono::steady_clock) in the search loop and return by about 2 s, start-up included; the course counts a move past 3 s as a lost game")
        .reproduce(repro);
    }
    let Some((slowest, at)) = t.answers.iter().max_by(|a, b| a.0.total_cmp(&b.0)).cloned() else {
        return Item::new("time", TITLE, Verdict::Skip, "no answer was timed".into());
    };
    let mut sorted: Vec<f64> = t.answers.iter().map(|a| a.0).collect();
    sorted.sort_by(f64::total_cmp);
    let calls = f.calls.iter().filter(|c| c.wall_ms.is_some()).count();
    let evidence = format!(
        "slowest answer {} ({at}) of {calls} calls and {} moves in games, median {}{}; the limit is 3 s",
        secs(slowest),
        t.game_moves,
        secs(sorted[sorted.len() / 2]),
        first_call_on_largest(f)
    );
    if slowest > WARN_MS {
        return Item::new("time", TITLE, Verdict::Warn, evidence).advice(
            "keep every move under about 2 s, measured from the start of getPoint with start-up (allocation, tables) included: the course's 3 s count from the thread's creation, on a machine that may be busier than this one",
        );
    }
    Item::new("time", TITLE, Verdict::Pass, evidence)
}

const ONE_PROCESS: &str = "many games in one process";

/// The failure of game `k` of the series, `r`, lost by a verdict: after clean games, state
/// kept from an earlier game is the likely cause.
fn lost_in_series(s: &Series, k: usize, r: &GameRecord<Connect4>) -> Item {
    let side = match s.side(r) {
        crate::games::Side::First => "moving first",
        crate::games::Side::Second => "moving second",
    };
    let what = format!(
        "{}{}",
        r.termination.name(),
        r.detail
            .as_deref()
            .map_or(String::new(), |d| format!(": {d}"))
    );
    let later = k > 0 && r.termination != Termination::Timeout;
    let lost = format!(
        "game {} of the process (id {}, against {} on {}x{}, {side}) lost by {what}",
        k + 1,
        r.id,
        s.opponent_label(r),
        r.board.m,
        r.board.n
    );
    let (evidence, advice) = if later {
        (
            format!(
                "{lost}, after {k} clean game(s) in the same process: the library keeps state from an earlier game"
            ),
            "start every game afresh: the course's runner loads the library once and calls it for game after game (and for both sides when it plays itself), so globals and statics persist; recognise a new game (lastX == -1, or fewer stones than at your last call) and reset everything a game keeps",
        )
    } else {
        (
            lost,
            "replay the game to see the position; the contract and time items name what to fix",
        )
    };
    Item::new("one-process", ONE_PROCESS, Verdict::Fail, evidence)
        .advice(advice)
        .reproduce(vec![format!(
            "judge replay {} --game {}",
            s.dir.display(),
            r.id
        )])
}

/// `on 9x12, 12x12`: the board sizes of the series.
fn board_sizes(s: &Series) -> String {
    let mut sizes: Vec<(i32, i32)> = s.records.iter().map(|r| (r.board.m, r.board.n)).collect();
    sizes.sort_unstable();
    sizes.dedup();
    match &sizes[..] {
        [(m, n)] => format!("on {m}x{n}"),
        few if few.len() <= 4 => {
            let shown: Vec<String> = few.iter().map(|(m, n)| format!("{m}x{n}")).collect();
            format!("on {}", shown.join(", "))
        }
        many => format!("on {} board sizes", many.len()),
    }
}

fn mb(kb: u64) -> String {
    format!("{:.0} MB", kb as f64 / 1024.0)
}

/// `; resident memory 5 MB after game 1, 5 MB after game 4`, or the failure when it grew
/// (more than [`GROWTH_KB`] and a quarter of the first game's).
fn memory_over_series(s: &Series) -> Result<String, Item> {
    let peaks: Vec<u64> = s
        .records
        .iter()
        .filter_map(|r| r.peak_rss_kb[s.side(r).index()])
        .collect();
    let (Some(&first), Some(&last)) = (peaks.first(), peaks.last()) else {
        return Ok(String::new());
    };
    let games = peaks.len();
    if last.saturating_sub(first) > GROWTH_KB.max(first / 4) {
        return Err(Item::new(
            "one-process",
            ONE_PROCESS,
            Verdict::Fail,
            format!(
                "resident memory grew from {} after game 1 to {} after game {games}",
                mb(first),
                mb(last)
            ),
        )
        .advice("free every game's memory before the next (delete what you new, or reuse one buffer): over the course's 100 games a leak runs the process out of memory"));
    }
    Ok(format!(
        "; resident memory {} after game 1, {} after game {games}",
        mb(first),
        mb(last)
    ))
}

/// Item 4: a series in one process as the course's runner plays it; a fault in any game
/// fails (an illegal move only in a later game points at state kept from an earlier
/// one), and resident memory must stay flat.
pub fn one_process(f: &Facts) -> Item {
    let s = match &f.series {
        Ok(s) => *s,
        Err(why) => return Item::new("one-process", ONE_PROCESS, Verdict::Skip, why.clone()),
    };
    if let Some((k, r)) = s
        .records
        .iter()
        .enumerate()
        .find(|(_, r)| s.lost_by_verdict(r))
    {
        return lost_in_series(s, k, r);
    }
    if s.records.is_empty() {
        return Item::new(
            "one-process",
            ONE_PROCESS,
            Verdict::Skip,
            "no game was played".into(),
        );
    }
    let memory = match memory_over_series(s) {
        Ok(memory) => memory,
        Err(grew) => return grew,
    };
    let (wins, draws, losses) = s
        .records
        .iter()
        .fold((0, 0, 0), |(w, d, l), r| match r.loser {
            None => (w, d + 1, l),
            Some(side) if side == s.side(r) => (w, d, l + 1),
            Some(_) => (w + 1, d, l),
        });
    Item::new(
        "one-process",
        ONE_PROCESS,
        Verdict::Pass,
        format!(
            "{} games in one process against {} (won {wins}, drew {draws}, lost {losses}), colours swapped on each board, {}; every move legal{memory}",
            s.records.len(),
            s.opponent_labels().join(", "),
            board_sizes(s),
        ),
    )
}

/// Item 5: peak resident memory against the platform's limit (about 1 GB); above
/// 512 MB warns.
pub fn memory(f: &Facts) -> Item {
    const TITLE: &str = "memory";
    // (peak KiB, where, the process died there)
    let mut peaks: Vec<(u64, String, bool)> = f
        .calls
        .iter()
        .filter_map(|c| {
            let died = matches!(c.outcome, Outcome::Crash { .. } | Outcome::Null);
            Some((c.peak_rss_kb?, format!("\"{}\"", c.name), died))
        })
        .collect();
    for s in f.all_series() {
        for r in &s.records {
            if let Some(kb) = r.peak_rss_kb[s.side(r).index()] {
                let died = s.lost_by_verdict(r);
                peaks.push((kb, format!("game {} of {}", r.id, s.dir.display()), died));
            }
        }
    }
    let Some((peak, at, _)) = peaks.iter().max_by_key(|p| p.0).cloned() else {
        return Item::new(
            "memory",
            TITLE,
            Verdict::Skip,
            "not measured: no process of the library lived long enough to be measured (or this system does not say)".into(),
        );
    };
    let limit_kb = f.memory_limit_mb * 1024;
    // A process that died this big most likely ran out of memory.
    let big = match limit_kb {
        0 => WARN_RSS_KB,
        limit => WARN_RSS_KB.min(limit / 2),
    };
    let advice = "allocate less: size tables by the board (at most 12x12) rather than by a guess, and reuse them between moves instead of allocating per move";
    if let Some((kb, at, _)) = peaks
        .iter()
        .filter(|p| p.2 && p.0 > big)
        .max_by_key(|p| p.0)
    {
        return Item::new(
            "memory",
            TITLE,
            Verdict::Fail,
            format!(
                "it died after reaching {} of resident memory ({at}): allocations fail at the limit of {} MiB of address space, as on the platform's about 1 GB",
                mb(*kb),
                f.memory_limit_mb
            ),
        )
        .advice(advice);
    }
    let evidence = format!(
        "peak resident memory {} ({at}); the platform allows about 1 GB ({} MiB of address space here)",
        mb(peak),
        f.memory_limit_mb
    );
    if limit_kb > 0 && peak * 10 >= limit_kb * 9 {
        return Item::new("memory", TITLE, Verdict::Fail, evidence).advice(advice);
    }
    if peak > WARN_RSS_KB {
        return Item::new("memory", TITLE, Verdict::Warn, evidence).advice(advice);
    }
    Item::new("memory", TITLE, Verdict::Pass, evidence)
}

/// Item 6: nothing on stdout.
pub fn output(f: &Facts) -> Item {
    const TITLE: &str = "nothing on stdout";
    let games: usize = f.all_series().map(|s| s.records.len()).sum();
    let calls = f.calls.iter().filter(|c| c.wall_ms.is_some()).count();
    if f.seen.stdout_bytes > 0 {
        let head = String::from_utf8_lossy(&f.seen.stdout_head);
        let head: String = head.chars().take(60).collect();
        return Item::new(
            "output",
            TITLE,
            Verdict::Fail,
            format!(
                "{} written to stdout in {calls} calls and {games} games, starting {head:?}",
                bytes(f.seen.stdout_bytes)
            ),
        )
        .advice("print nothing on stdout (printf, puts, cout): on the online platform the strategy is linked into a program whose stdout is the protocol channel, so a stray byte breaks the game; write debugging output to stderr (fprintf(stderr, ...), cerr) or remove it");
    }
    Item::new(
        "output",
        TITLE,
        Verdict::Pass,
        format!("no byte on stdout in {calls} calls and {games} games (stderr is free to use)"),
    )
}

/// Item 7 (with `--full`): the course's score (win 2, tie 1, loss 0; each opponent once
/// first, once second) against the ladder at the library's own budget.
pub fn strength(f: &Facts) -> Item {
    const TITLE: &str = "strength against the ladder";
    let s = match &f.strength {
        Ok(s) => *s,
        Err(why) => return Item::new("strength", TITLE, Verdict::Skip, why.clone()),
    };
    let mut by_opponent: Vec<(String, [u32; 3])> = Vec::new();
    let mut lost = Vec::new();
    let mut points = 0;
    for r in &s.records {
        let opponent = s.opponent_label(r);
        let k = match by_opponent.iter().position(|(o, _)| *o == opponent) {
            Some(k) => k,
            None => {
                by_opponent.push((opponent.clone(), [0; 3]));
                by_opponent.len() - 1
            }
        };
        let outcome = match r.loser {
            None => 1,
            Some(side) if side == s.side(r) => 2,
            Some(_) => 0,
        };
        by_opponent[k].1[outcome] += 1;
        points += [2, 1, 0][outcome];
        if outcome == 2 {
            lost.push(format!("judge replay {} --game {}", s.dir.display(), r.id));
        }
    }
    let most = 2 * s.records.len() as u32;
    if most == 0 {
        return Item::new(
            "strength",
            TITLE,
            Verdict::Skip,
            "no game was played".into(),
        );
    }
    let table: Vec<String> = by_opponent
        .iter()
        .map(|(o, [w, d, l])| format!("{o} {w}-{d}-{l}"))
        .collect();
    let evidence = format!(
        "{points} of {most} points ({:.0}%; win 2, tie 1, loss 0, each opponent once first and once second) at the library's own budget: {} (won-drawn-lost)",
        100.0 * points as f64 / most as f64,
        table.join(", ")
    );
    if let Some(r) = s.records.iter().find(|r| s.lost_by_verdict(r)) {
        return Item::new(
            "strength",
            TITLE,
            Verdict::Fail,
            format!("{evidence}; game {} lost by {}", r.id, r.termination.name()),
        )
        .advice("a game lost by a verdict is lost on the course too: see the items above")
        .reproduce(lost);
    }
    let verdict = if 2 * points >= most {
        Verdict::Pass
    } else {
        Verdict::Warn
    };
    let item = Item::new("strength", TITLE, verdict, evidence).reproduce(lost);
    if verdict == Verdict::Warn {
        item.advice(
            "it loses more than it wins: replay the lost games to see where (the commands below)",
        )
    } else {
        item
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn call(name: &str, outcome: Outcome, wall_ms: Option<f64>, peak: Option<u64>) -> Call {
        Call {
            name: name.into(),
            position: "9x9 blocked=8,0 last=-1,-1 top=9,9,9,9,9,9,9,9,9 board=...".into(),
            outcome,
            wall_ms,
            cpu_ms: None,
            peak_rss_kb: peak,
            size: (9, 9),
            wrote: None,
            load_ms: wall_ms.map(|_| 5.0),
        }
    }

    fn elf() -> Elf {
        let (machine, is_64) = elf::host().unwrap();
        Elf {
            is_64,
            kind: elf::ET_DYN,
            machine,
            exports: Some(vec!["getPoint".into(), "clearPoint".into()]),
        }
    }

    fn facts<'a>(calls: &'a [Call], seen: &'a Seen) -> Facts<'a> {
        Facts {
            library: "lib.so".into(),
            elf: Ok(elf()),
            calls,
            series: Err("not played".into()),
            strength: Err("not asked for".into()),
            seen,
            memory_limit_mb: 1024,
        }
    }

    fn legal(name: &str, ms: f64) -> Call {
        call(name, Outcome::Legal { x: 8, y: 0 }, Some(ms), Some(20_000))
    }

    #[test]
    fn a_clean_library_passes_what_was_checked() {
        let calls = [legal("a", 10.0), legal("b", 2100.0)];
        let seen = Seen::default();
        let items = all(&facts(&calls, &seen));
        let verdicts: Vec<(&str, Verdict)> = items.iter().map(|i| (i.id, i.verdict)).collect();
        assert_eq!(
            verdicts,
            [
                ("loading", Verdict::Pass),
                ("contract", Verdict::Pass),
                ("time", Verdict::Pass),
                ("one-process", Verdict::Skip),
                ("memory", Verdict::Pass),
                ("output", Verdict::Pass),
                ("strength", Verdict::Skip),
            ]
        );
        assert!(
            items[2].evidence.contains("slowest answer 2.10 s (\"b\")"),
            "{}",
            items[2].evidence
        );
    }

    #[test]
    fn mangled_names_fail_loading_with_extern_c() {
        let seen = Seen::default();
        let calls = [call(
            "a",
            Outcome::Load {
                why: "missing symbol getPoint".into(),
            },
            None,
            None,
        )];
        let mut f = facts(&calls, &seen);
        let mut e = elf();
        e.exports = Some(vec![
            "_Z8getPointiiPKiS0_iiii".into(),
            "_Z10clearPointP5Point".into(),
        ]);
        f.elf = Ok(e);
        let items = all(&f);
        assert_eq!(items[0].verdict, Verdict::Fail);
        assert!(items[0].evidence.contains("_Z8getPointiiPKiS0_iiii"));
        assert!(items[0].advice.as_ref().unwrap().contains("extern \"C\""));
        assert!(items[1..].iter().all(|i| i.verdict == Verdict::Skip));
    }

    #[test]
    fn bad_files_fail_loading() {
        let seen = Seen::default();
        let calls = [];
        let mut f = facts(&calls, &seen);
        f.elf = Err("not an ELF file".into());
        assert!(loading(&f).evidence.contains("not an ELF file"));
        let mut e = elf();
        e.kind = 2;
        f.elf = Ok(e.clone());
        assert!(loading(&f).evidence.contains("an executable"));
        e.kind = elf::ET_DYN;
        e.is_64 = !e.is_64;
        f.elf = Ok(e);
        assert!(loading(&f).evidence.contains("this machine is"));
    }

    #[test]
    fn files_left_fail_loading() {
        let seen = Seen {
            files_left: vec!["scribble-0.txt".into()],
            ..Seen::default()
        };
        let calls = [legal("a", 1.0)];
        let item = loading(&facts(&calls, &seen));
        assert_eq!(item.verdict, Verdict::Fail);
        assert!(item.evidence.contains("scribble-0.txt"));
    }

    #[test]
    fn wrong_answers_fail_the_contract_with_their_positions() {
        let seen = Seen::default();
        let calls = [
            legal("a", 1.0),
            call(
                "b",
                Outcome::Illegal {
                    x: 8,
                    y: 6,
                    why: "(8, 6) is the blocked cell".into(),
                    swapped: false,
                },
                Some(1.0),
                None,
            ),
            call("c", Outcome::Null, Some(1.0), None),
            call(
                "d",
                Outcome::Crash {
                    what: "exit status 3".into(),
                },
                Some(1.0),
                None,
            ),
        ];
        let item = contract(&facts(&calls, &seen));
        assert_eq!(item.verdict, Verdict::Fail);
        assert!(
            item.evidence.starts_with("3 of 4 positions"),
            "{}",
            item.evidence
        );
        assert_eq!(item.reproduce.len(), 3);
        assert!(item.reproduce[0].starts_with("judge check lib.so --position '9x9 "));
        let advice = item.advice.unwrap();
        assert!(
            advice.contains("top[y] - 1") && advice.contains("NULL") && advice.contains("exit()")
        );
    }

    #[test]
    fn writes_into_the_arrays_fail_the_contract() {
        let seen = Seen::default();
        let mut wrote = legal("w", 1.0);
        wrote.wrote = Some(
            "it wrote into top, the runner's live array: top[0] was 9 and read 8 after the call"
                .into(),
        );
        let calls = [legal("a", 1.0), wrote];
        let item = contract(&facts(&calls, &seen));
        assert_eq!(item.verdict, Verdict::Fail);
        assert!(
            item.evidence
                .contains("\"w\": legal (8, 0), but it wrote into top, the runner's live array"),
            "{}",
            item.evidence
        );
        let advice = item.advice.unwrap();
        assert!(
            advice.contains("never write into top or _board"),
            "{advice}"
        );
        assert!(!advice.contains("take the row from top"), "{advice}");
    }

    #[test]
    fn swapped_answers_are_told_so_and_not_to_read_top() {
        let seen = Seen::default();
        let swapped = |swapped| {
            call(
                "s",
                Outcome::Illegal {
                    x: 0,
                    y: 8,
                    why: "(0, 8): a stone in column 8 lands on row 8".into(),
                    swapped,
                },
                Some(1.0),
                None,
            )
        };
        let calls = [swapped(true)];
        let advice = contract(&facts(&calls, &seen)).advice.unwrap();
        assert!(advice.contains("look swapped"), "{advice}");
        assert!(!advice.contains("take the row from top"), "{advice}");
        let calls = [swapped(false)];
        let advice = contract(&facts(&calls, &seen)).advice.unwrap();
        assert!(!advice.contains("look swapped"), "{advice}");
        assert!(advice.contains("take the row from top"), "{advice}");
    }

    #[test]
    fn loading_shows_its_time_and_warns_past_a_second() {
        let seen = Seen::default();
        let calls = [legal("a", 1.0), legal("b", 1.0)];
        let item = loading(&facts(&calls, &seen));
        assert_eq!(item.verdict, Verdict::Pass);
        assert!(
            item.evidence.contains("in 0.01 s (median of 2 loads"),
            "{}",
            item.evidence
        );
        let mut slow = [legal("a", 1.0), legal("b", 1.0), legal("c", 1.0)];
        for (c, ms) in slow.iter_mut().zip([1500.0, 1600.0, 20.0]) {
            c.load_ms = Some(ms);
        }
        let item = loading(&facts(&slow, &seen));
        assert_eq!(item.verdict, Verdict::Warn);
        assert!(
            item.evidence
                .contains("in 1.50 s (median of 3 loads, the slowest 1.60 s"),
            "{}",
            item.evidence
        );
        assert!(item.advice.unwrap().contains("static initializers"));
    }

    #[test]
    fn time_fails_on_a_timeout_and_warns_past_two_and_a_half_seconds() {
        let seen = Seen::default();
        let calls = [
            legal("a", 1.0),
            call("b", Outcome::Timeout, Some(3000.0), None),
        ];
        let f = facts(&calls, &seen);
        assert_eq!(time(&f).verdict, Verdict::Fail);
        assert_eq!(contract(&f).verdict, Verdict::Warn);
        let calls = [legal("a", 1.0), legal("slow", 2700.0)];
        let item = time(&facts(&calls, &seen));
        assert_eq!(item.verdict, Verdict::Warn);
        assert!(item.evidence.contains("2.70 s (\"slow\")"));
    }

    #[test]
    fn memory_fails_near_the_limit_or_dying_big_and_warns_past_512_mb() {
        let seen = Seen::default();
        let big = |outcome, kb| call("m", outcome, Some(1.0), Some(kb));
        let calls = [big(Outcome::Legal { x: 0, y: 0 }, 600 * 1024)];
        assert_eq!(memory(&facts(&calls, &seen)).verdict, Verdict::Warn);
        let calls = [big(Outcome::Legal { x: 0, y: 0 }, 1000 * 1024)];
        assert_eq!(memory(&facts(&calls, &seen)).verdict, Verdict::Fail);
        let calls = [big(
            Outcome::Crash {
                what: "SIGSEGV".into(),
            },
            700 * 1024,
        )];
        let item = memory(&facts(&calls, &seen));
        assert_eq!(item.verdict, Verdict::Fail);
        assert!(
            item.evidence.contains("died after reaching 700 MB"),
            "{}",
            item.evidence
        );
        let calls = [big(
            Outcome::Crash {
                what: "SIGSEGV".into(),
            },
            30 * 1024,
        )];
        assert_eq!(memory(&facts(&calls, &seen)).verdict, Verdict::Pass);
    }

    #[test]
    fn stdout_fails_the_output_item() {
        let seen = Seen {
            stdout_bytes: 12,
            stdout_head: b"debug: x=3\n".to_vec(),
            ..Seen::default()
        };
        let calls = [legal("a", 1.0)];
        let item = output(&facts(&calls, &seen));
        assert_eq!(item.verdict, Verdict::Fail);
        assert!(item.evidence.contains("12 byte(s)") && item.evidence.contains("debug: x=3"));
        assert_eq!(bytes(394_264_576), "376 MB");
        assert_eq!(bytes(2048), "2.0 KB");
    }

    /// A game of `lib` against `opp`; `lib_first` says who moved first; `loser` is
    /// `lib`, `opp` or nobody.
    fn game(
        id: &str,
        lib_first: bool,
        loser: Option<&str>,
        termination: Termination,
        lib_peak_kb: u64,
    ) -> crate::record::GameRecord {
        use crate::games::Side;
        use crate::games::connect4::BoardSpec;
        use crate::record::{GameRecord, GameResult};
        let (first, second) = if lib_first {
            ("lib", "opp")
        } else {
            ("opp", "lib")
        };
        let loser = loser.map(|who| {
            if who == first {
                Side::First
            } else {
                Side::Second
            }
        });
        let lib = if lib_first { 0 } else { 1 };
        let mut peak = [None, None];
        peak[lib] = Some(lib_peak_kb);
        GameRecord {
            id: id.into(),
            pairing: 0,
            pair: 0,
            game: u8::from(!lib_first),
            first: first.into(),
            second: second.into(),
            first_path: first.into(),
            second_path: second.into(),
            result: GameResult::of(loser.map(Side::other)),
            termination,
            course_code: 0,
            loser,
            detail: (termination == Termination::Illegal).then(|| "illegal point (5, 0)".into()),
            illegal_point: None,
            board: BoardSpec {
                m: 10,
                n: 11,
                no_x: 8,
                no_y: 5,
            },
            moves: vec![0, 1, 2],
            move_ms: vec![100.0, 1.0, 200.0, 1.0],
            cpu_ms: vec![None; 4],
            seed: 1,
            board_seed: 2,
            margin: None,
            peak_rss_kb: peak,
        }
    }

    fn series(records: Vec<crate::record::GameRecord>) -> Series {
        Series {
            dir: "runs/c/series".into(),
            name: "lib".into(),
            planned: records.len(),
            records,
        }
    }

    #[test]
    fn an_illegal_move_in_a_later_game_blames_kept_state() {
        let s = series(vec![
            game("0-0-0", true, Some("opp"), Termination::Four, 10_000),
            game("0-0-1", false, Some("lib"), Termination::Illegal, 10_000),
        ]);
        let seen = Seen::default();
        let mut f = facts(&[], &seen);
        f.series = Ok(&s);
        let item = one_process(&f);
        assert_eq!(item.verdict, Verdict::Fail);
        assert!(
            item.evidence.starts_with("game 2 of the process (id 0-0-1"),
            "{}",
            item.evidence
        );
        assert!(
            item.evidence.contains("keeps state from an earlier game"),
            "{}",
            item.evidence
        );
        assert_eq!(item.reproduce, ["judge replay runs/c/series --game 0-0-1"]);
        // The same fault in the first game says nothing of kept state.
        let s = series(vec![game(
            "0-0-0",
            true,
            Some("lib"),
            Termination::Illegal,
            10_000,
        )]);
        f.series = Ok(&s);
        assert!(!one_process(&f).evidence.contains("earlier game"));
        // The library's answer times are its own moves only.
        assert_eq!(s.move_ms(&s.records[0]), [100.0, 200.0]);
    }

    #[test]
    fn resident_memory_must_stay_flat_over_a_series() {
        let seen = Seen::default();
        let mut f = facts(&[], &seen);
        let flat = series(vec![
            game("0-0-0", true, None, Termination::Full, 20_000),
            game("0-0-1", false, Some("opp"), Termination::Four, 30_000),
        ]);
        f.series = Ok(&flat);
        let item = one_process(&f);
        assert_eq!(item.verdict, Verdict::Pass, "{}", item.evidence);
        assert!(
            item.evidence.contains("(won 1, drew 1, lost 0)"),
            "{}",
            item.evidence
        );
        let growing = series(vec![
            game("0-0-0", true, None, Termination::Full, 20_000),
            game("0-0-1", false, None, Termination::Full, 120_000),
        ]);
        f.series = Ok(&growing);
        let item = one_process(&f);
        assert_eq!(item.verdict, Verdict::Fail);
        assert!(
            item.evidence
                .contains("grew from 20 MB after game 1 to 117 MB after game 2"),
            "{}",
            item.evidence
        );
    }

    #[test]
    fn strength_is_the_course_score() {
        let seen = Seen::default();
        let mut f = facts(&[], &seen);
        let s = series(vec![
            game("0-0-0", true, Some("opp"), Termination::Four, 1),
            game("0-0-1", false, None, Termination::Full, 1),
            game("1-0-0", true, Some("lib"), Termination::Four, 1),
            game("1-0-1", false, Some("opp"), Termination::Four, 1),
        ]);
        f.strength = Ok(&s);
        let item = strength(&f);
        assert_eq!(item.verdict, Verdict::Pass, "{}", item.evidence);
        assert!(
            item.evidence.starts_with("5 of 8 points (62%"),
            "{}",
            item.evidence
        );
        assert!(item.evidence.contains("opp 2-1-1"), "{}", item.evidence);
        assert_eq!(item.reproduce, ["judge replay runs/c/series --game 1-0-0"]);
        let losing = series(vec![game("0-0-0", true, Some("lib"), Termination::Four, 1)]);
        f.strength = Ok(&losing);
        assert_eq!(strength(&f).verdict, Verdict::Warn);
        let faulty = series(vec![game(
            "0-0-0",
            true,
            Some("lib"),
            Termination::Illegal,
            1,
        )]);
        f.strength = Ok(&faulty);
        assert_eq!(strength(&f).verdict, Verdict::Fail);
    }
}
