//! The single calls of `judge check`: each position of [`positions::probes`] in a fresh
//! host process (the first call of a process, as the first move of a game is; a crash on
//! one position hides none of the others), timed against the course's 3 s, each answer
//! judged as the course judges it.

use std::path::Path;
use std::sync::Arc;
use std::time::Duration;

use serde::Serialize;

use super::positions::{self, Probe};
use crate::players::probe::{self, MoveRequest};
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
}

/// The outcome of `reply` to `args`, judged as the course judges it.
pub fn judge(args: &MoveRequest, answer: &Result<crate::games::connect4::Point, Fault>) -> Outcome {
    match answer {
        Ok(p) => match positions::judge_answer(args, *p) {
            Ok(()) => Outcome::Legal { x: p.x, y: p.y },
            Err(why) => Outcome::Illegal {
                x: p.x,
                y: p.y,
                why,
            },
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
    let mut host = probe::Probe::launch(settings, library, log.clone(), audit.clone());
    let (outcome, wall_ms, cpu_ms) = match host.loaded() {
        Err(fault) => (judge(&probe.args, &Err(fault)), None, None),
        Ok(()) => {
            let reply = host.call(&probe.args, limit);
            (
                judge(&probe.args, &reply.answer),
                Some(reply.wall_ms),
                reply.cpu_ms,
            )
        }
    };
    Call {
        name: probe.name.clone(),
        position: positions::to_text(&probe.args),
        outcome,
        wall_ms,
        cpu_ms,
        peak_rss_kb: host.peak_memory_kb(),
        size: (probe.args.m, probe.args.n),
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
            calls.push(Call {
                name: probe.name.clone(),
                position: positions::to_text(&probe.args),
                outcome: Outcome::NotCalled,
                wall_ms: None,
                cpu_ms: None,
                peak_rss_kb: None,
                size: (probe.args.m, probe.args.n),
            });
            continue;
        }
        let call = call_once(library, probe, settings, log, audit, limit);
        eprintln!(
            "  [{:>2}/{}] {:>6} {:<8} {}",
            i + 1,
            probes.len(),
            call.wall_ms
                .map_or("-".to_string(), |ms| format!("{:.2}s", ms / 1e3)),
            call.outcome.word(),
            call.name
        );
        calls.push(call);
    }
    calls
}
