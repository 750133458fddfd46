//! The single calls of `judge check`: each position of [`positions::probes`] in a fresh
//! host process (the first call of a process, as the first move of a game is; a crash on
//! one position hides none of the others), timed against the course's 3 s, each answer
//! judged as the course judges it.

use std::path::Path;
use std::sync::Arc;
use std::time::{Duration, Instant};

use serde::Serialize;

use super::positions::{self, Probe};
use crate::games::connect4::Point;
use crate::players::probe::{self, MoveRequest, Written};
use crate::players::{Audit, Fault, LogSink, ProcessSettings};

/// After this many calls in a row that end the same bad way (a crash, a timeout), the
/// remaining positions are not called: the pattern is clear, and a hang costs 3 s a call.
pub const SAME_FAULT_STREAK: usize = 3;

/// What one call came to.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(tag = "kind", rename_all = "kebab-case")]
pub enum Outcome {
    /// A legal point.
    Legal {
        /// Row.
        x: i32,
        /// Column.
        y: i32,
    },
    /// A point the course judges illegal.
    Illegal {
        /// Row.
        x: i32,
        /// Column.
        y: i32,
        /// Why it is illegal.
        why: String,
        /// The point with x and y swapped would have been legal: the library likely
        /// returned (column, row).
        swapped: bool,
    },
    /// `getPoint` returned NULL.
    Null,
    /// The host died during the call: a signal, an exit, a broken protocol.
    Crash {
        /// The signal or exit status.
        what: String,
    },
    /// No answer within the limit.
    Timeout,
    /// The library could not be loaded.
    Load {
        /// Why (`dlerror`'s text).
        why: String,
    },
    /// Not called (after a streak of the same fault).
    NotCalled,
}

impl Outcome {
    /// One word for the outcome, as the report shows it.
    pub fn word(&self) -> &'static str {
        match self {
            Outcome::Legal { .. } => "legal",
            Outcome::Illegal { .. } => "illegal",
            Outcome::Null => "null",
            Outcome::Crash { .. } => "crash",
            Outcome::Timeout => "timeout",
            Outcome::Load { .. } => "load",
            Outcome::NotCalled => "not called",
        }
    }

    /// The outcome as a sentence's end: `legal (3, 4)`, `crash: SIGSEGV`...
    pub fn describe(&self) -> String {
        match self {
            Outcome::Legal { x, y } => format!("legal ({x}, {y})"),
            Outcome::Illegal { why, .. } => format!("illegal: {why}"),
            Outcome::Null => "NULL (no point)".into(),
            Outcome::Crash { what } => format!("crash: {what}"),
            Outcome::Timeout => "no answer within 3 s".into(),
            Outcome::Load { why } => format!("did not load: {why}"),
            Outcome::NotCalled => "not called".into(),
        }
    }
}

/// One call of the check.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Call {
    /// What the position is.
    pub name: String,
    /// The position as `--position` reads it.
    pub position: String,
    /// What the library answered.
    pub outcome: Outcome,
    /// Wall time of the call, ms (none when not called).
    pub wall_ms: Option<f64>,
    /// CPU time of the thread that ran `getPoint`, ms, when known.
    pub cpu_ms: Option<f64>,
    /// Peak resident memory of the host by the answer, KiB.
    pub peak_rss_kb: Option<u64>,
    /// Board size, rows and columns.
    pub size: (i32, i32),
    /// What the call wrote into the arrays it was given (`top[3] was 9 and read 8 after
    /// the call`), if anything: the runner's arrays are live and must not be written.
    pub wrote: Option<String>,
    /// From starting the host to the library loaded, ms: the host's start, `dlopen` and
    /// the library's static initializers (none when it did not load).
    pub load_ms: Option<f64>,
}

impl Call {
    /// A call not made (after a streak of the same fault).
    fn not_called(probe: &Probe) -> Call {
        Call {
            name: probe.name.clone(),
            position: positions::to_text(&probe.args),
            outcome: Outcome::NotCalled,
            wall_ms: None,
            cpu_ms: None,
            peak_rss_kb: None,
            size: (probe.args.m, probe.args.n),
            wrote: None,
            load_ms: None,
        }
    }

    /// Whether the course would count the call against the library: a crash, an exit,
    /// NULL or an illegal point while a legal move exists, or a write into its arrays.
    pub fn failed(&self) -> bool {
        self.wrote.is_some()
            || matches!(
                self.outcome,
                Outcome::Illegal { .. } | Outcome::Null | Outcome::Crash { .. }
            )
    }

    /// The call's outcome as a sentence's end, with what it wrote into its arrays.
    pub fn describe(&self) -> String {
        match &self.wrote {
            Some(wrote) => format!("{}, but {wrote}", self.outcome.describe()),
            None => self.outcome.describe(),
        }
    }
}

/// What `written` says a call changed, against the arrays it was given: `it wrote into
/// top, the runner's live array: top[3] was 9 and read 8 after the call`.
pub fn describe_written(args: &MoveRequest, written: &Written) -> String {
    let mut arrays = Vec::new();
    let mut changes = Vec::new();
    if let Some((k, after)) = written.top {
        let before = args.top.get(k as usize).copied().unwrap_or_default();
        arrays.push("top");
        changes.push(format!(
            "top[{k}] was {before} and read {after} after the call"
        ));
    }
    if let Some((k, after)) = written.board {
        let before = args.board.get(k as usize).copied().unwrap_or_default();
        let n = args.n.max(1) as u32;
        arrays.push("_board");
        changes.push(format!(
            "_board[{k}] (row {}, column {}) was {before} and read {after} after the call",
            k / n,
            k % n
        ));
    }
    let live = if arrays.len() == 1 {
        "the runner's live array"
    } else {
        "the runner's live arrays"
    };
    format!(
        "it wrote into {}, {live}: {}",
        arrays.join(" and "),
        changes.join("; ")
    )
}

/// The outcome of `reply` to `args`, judged as the course judges it.
pub fn judge(args: &MoveRequest, answer: &Result<Point, Fault>) -> Outcome {
    match answer {
        Ok(p) => match positions::judge_answer(args, *p) {
            Ok(()) => Outcome::Legal { x: p.x, y: p.y },
            Err(why) => {
                let (x, y) = (p.x, p.y);
                let swapped = positions::judge_answer(args, Point { x: y, y: x }).is_ok();
                let why = if swapped {
                    format!(
                        "{why}; the coordinates look swapped: ({y}, {x}) would be legal (x is the row, y the column)"
                    )
                } else {
                    why
                };
                Outcome::Illegal { x, y, why, swapped }
            }
        },
        Err(Fault::NoMove) => Outcome::Null,
        Err(Fault::Timeout) => Outcome::Timeout,
        Err(Fault::Load(why) | Fault::MissingSymbol(why)) => Outcome::Load { why: why.clone() },
        Err(Fault::Crash(what) | Fault::Garbage(what)) => Outcome::Crash { what: what.clone() },
    }
}

/// Calls `library` once on `args` in a fresh host, waiting at most `limit`.
pub fn call_once(
    library: &Path,
    probe: &Probe,
    settings: &ProcessSettings,
    log: &Arc<LogSink>,
    audit: &Arc<Audit>,
    limit: Duration,
) -> Call {
    let launched = Instant::now();
    let mut host = probe::Probe::launch(settings, library, log.clone(), audit.clone());
    let load_ms = launched.elapsed().as_secs_f64() * 1e3;
    let (outcome, wall_ms, cpu_ms, written) = match host.loaded() {
        Err(fault) => (judge(&probe.args, &Err(fault)), None, None, None),
        Ok(()) => {
            let reply = host.call(&probe.args, limit);
            (
                judge(&probe.args, &reply.answer),
                Some(reply.wall_ms),
                reply.cpu_ms,
                reply.written,
            )
        }
    };
    let loaded = !matches!(outcome, Outcome::Load { .. });
    Call {
        name: probe.name.clone(),
        position: positions::to_text(&probe.args),
        outcome,
        wall_ms,
        cpu_ms,
        peak_rss_kb: host.peak_memory_kb(),
        size: (probe.args.m, probe.args.n),
        wrote: written.map(|w| describe_written(&probe.args, &w)),
        load_ms: loaded.then_some(load_ms),
    }
}

/// Calls `library` on every probe, one fresh host each, printing a line per call on
/// stderr; after [`SAME_FAULT_STREAK`] crashes or timeouts in a row (or a failed load)
/// the rest are recorded as not called.
pub fn call_all(
    library: &Path,
    probes: &[Probe],
    settings: &ProcessSettings,
    log: &Arc<LogSink>,
    audit: &Arc<Audit>,
    limit: Duration,
) -> Vec<Call> {
    let mut calls: Vec<Call> = Vec::new();
    let mut stopped = false;
    for (i, probe) in probes.iter().enumerate() {
        if let Some(last) = calls.last() {
            let same = |c: &&Call| {
                std::mem::discriminant(&c.outcome) == std::mem::discriminant(&last.outcome)
            };
            let streak = calls.iter().rev().take_while(same).count();
            stopped |= match last.outcome {
                Outcome::Load { .. } => true,
                Outcome::Crash { .. } | Outcome::Timeout => streak >= SAME_FAULT_STREAK,
                _ => false,
            };
        }
        if stopped {
            calls.push(Call::not_called(probe));
            continue;
        }
        let call = call_once(library, probe, settings, log, audit, limit);
        eprintln!(
            "  call {:>2} of {}: {:>6} {:<8} {}{}",
            i + 1,
            probes.len(),
            call.wall_ms
                .map_or("-".to_string(), |ms| format!("{:.2}s", ms / 1e3)),
            call.outcome.word(),
            call.name,
            if call.wrote.is_some() {
                " (it wrote into its arrays)"
            } else {
                ""
            }
        );
        calls.push(call);
    }
    calls
}
