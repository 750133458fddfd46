//! A course-ABI library called one position at a time with raw arguments, for `judge
//! check`: any `top` and board (not only the positions a game reaches), in its own host
//! process like every library, with its stdout and leftover files reported to an
//! [`Audit`].

use std::path::Path;
use std::sync::Arc;
use std::time::Duration;

pub use super::process::protocol::{MoveRequest, Written};
use super::process::{self, Audit, Host, LogSink, ProcessSettings};
use super::{Fault, course_abi};
use crate::games::connect4::Point;

/// A library in a host of its own, called position by position.
pub struct Probe {
    host: Result<Host, Fault>,
}

/// What one call came to.
#[derive(Debug, Clone, PartialEq)]
pub struct Reply {
    /// The point `getPoint` returned (not yet judged), or what went wrong.
    pub answer: Result<Point, Fault>,
    /// Wall time from sending the call to the answer, ms.
    pub wall_ms: f64,
    /// CPU time of the thread that ran `getPoint`, ms, when known.
    pub cpu_ms: Option<f64>,
    /// What the call wrote into the arrays it was given (the runner's, live), if anything.
    pub written: Option<Written>,
}

impl Probe {
    /// Starts a host for `library` (its stderr going to `log`, its stdout and the files
    /// it leaves reported to `audit`) and waits for it to load; a library that cannot be
    /// loaded gives a probe whose every call answers that fault.
    pub fn launch(
        settings: &ProcessSettings,
        library: &Path,
        log: Arc<LogSink>,
        audit: Arc<Audit>,
    ) -> Probe {
        let host = Host::start(settings, library, &[], log, Some(audit))
            .and_then(|mut host| host.wait_ready().map(|()| host))
            .map_err(course_abi::load_fault);
        Probe { host }
    }

    /// Whether the library loaded; `Err` is why not (`dlerror`'s text included).
    pub fn loaded(&self) -> Result<(), Fault> {
        self.host.as_ref().map(drop).map_err(Clone::clone)
    }

    /// Calls `getPoint` with `args`, waiting at most `limit`. After a crash or a timeout
    /// the host is gone and later calls answer a crash.
    pub fn call(&mut self, args: &MoveRequest, limit: Duration) -> Reply {
        let host = match &mut self.host {
            Ok(host) => host,
            Err(fault) => {
                return Reply {
                    answer: Err(fault.clone()),
                    wall_ms: 0.0,
                    cpu_ms: None,
                    written: None,
                };
            }
        };
        if host.is_dead() {
            return Reply {
                answer: Err(Fault::Crash("the host had already ended".into())),
                wall_ms: 0.0,
                cpu_ms: None,
                written: None,
            };
        }
        let t = host.get_point(args, limit);
        let answer = match t.answer {
            process::Answer::Point { x, y } => Ok(Point { x, y }),
            process::Answer::Null => Err(Fault::NoMove),
            process::Answer::Timeout => Err(Fault::Timeout),
            process::Answer::Crash(what) => Err(Fault::Crash(what)),
        };
        Reply {
            answer,
            wall_ms: t.wall_ms,
            cpu_ms: t.cpu_ms,
            written: t.written,
        }
    }

    /// The host's peak resident memory as of its last answer, KiB.
    pub fn peak_memory_kb(&self) -> Option<u64> {
        self.host.as_ref().ok()?.peak_memory_kb()
    }
}
