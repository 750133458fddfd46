//! What library hosts leave behind, for `judge check`: the bytes a library wrote to its
//! standard output (kept apart from its stderr, on a pipe of their own) and the files it
//! left in its working directory. One [`Audit`] is shared by every host of a check.

use std::io::Read;
use std::sync::{Condvar, Mutex};
use std::time::{Duration, Instant};

/// How many bytes of a library's stdout are kept, to show what it printed.
const HEAD_BYTES: usize = 160;

/// Shared by the hosts of one check; every host started with it reports here.
#[derive(Default)]
pub struct Audit {
    state: Mutex<State>,
    /// Signalled when a stdout pipe reaches its end.
    drained: Condvar,
}

/// What the hosts have reported so far.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Seen {
    /// Bytes written to stdout, by every host together.
    pub stdout_bytes: u64,
    /// The first bytes of that output.
    pub stdout_head: Vec<u8>,
    /// Names of the entries found in a host's working directory when it ended (each once,
    /// in the order found; directories end in `/`).
    pub files_left: Vec<String>,
}

/// What the hosts reported, and how many stdout pipes are still being read.
#[derive(Default)]
struct State {
    seen: Seen,
    open_pipes: usize,
}

impl Audit {
    /// A new, empty audit.
    pub fn new() -> Audit {
        Audit::default()
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, State> {
        self.state.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// A host's stdout pipe is about to be drained.
    pub(super) fn pipe_opened(&self) {
        self.lock().open_pipes += 1;
    }

    /// Reads a host's stdout pipe to its end, counting what comes through (and keeping
    /// its first bytes); nothing is written anywhere, so a flood never blocks the host.
    pub(super) fn drain_stdout(&self, mut r: impl Read) {
        let mut buf = vec![0u8; 64 * 1024];
        loop {
            let n = match r.read(&mut buf) {
                Ok(0) | Err(_) => break,
                Ok(n) => n,
            };
            let seen = &mut self.lock().seen;
            seen.stdout_bytes += n as u64;
            let room = HEAD_BYTES.saturating_sub(seen.stdout_head.len());
            seen.stdout_head.extend_from_slice(&buf[..n.min(room)]);
        }
        self.lock().open_pipes -= 1;
        self.drained.notify_all();
    }

    /// Records the entries of a host's working directory before it is deleted.
    pub(super) fn files_left(&self, dir: &std::path::Path) {
        let Ok(entries) = std::fs::read_dir(dir) else {
            return;
        };
        let mut names: Vec<String> = entries
            .flatten()
            .map(|e| {
                let name = e.file_name().to_string_lossy().into_owned();
                if e.file_type().is_ok_and(|t| t.is_dir()) {
                    format!("{name}/")
                } else {
                    name
                }
            })
            .collect();
        names.sort();
        let seen = &mut self.lock().seen;
        for name in names {
            if !seen.files_left.contains(&name) {
                seen.files_left.push(name);
            }
        }
    }

    /// What was reported, once every stdout pipe of a host that has ended has been read to
    /// its end (waiting at most `wait`: a pipe kept open by a process the library left
    /// behind is not waited for longer).
    pub fn seen(&self, wait: Duration) -> Seen {
        let deadline = Instant::now() + wait;
        let mut state = self.lock();
        while state.open_pipes > 0 {
            let left = deadline.saturating_duration_since(Instant::now());
            if left.is_zero() {
                break;
            }
            state = self
                .drained
                .wait_timeout(state, left)
                .unwrap_or_else(|e| e.into_inner())
                .0;
        }
        state.seen.clone()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn stdout_is_counted_and_its_head_kept() {
        let audit = Audit::new();
        audit.pipe_opened();
        let flood = vec![b'x'; 200_000];
        audit.drain_stdout(&flood[..]);
        audit.pipe_opened();
        audit.drain_stdout(&b"more"[..]);
        let seen = audit.seen(Duration::ZERO);
        assert_eq!(seen.stdout_bytes, 200_004);
        assert_eq!(seen.stdout_head, vec![b'x'; HEAD_BYTES]);
        assert_eq!(audit.lock().open_pipes, 0);
    }

    #[test]
    fn files_are_listed_once_and_waiting_is_bounded() {
        let audit = Audit::new();
        let dir = tempfile::tempdir().unwrap();
        std::fs::write(dir.path().join("b.txt"), "").unwrap();
        std::fs::create_dir(dir.path().join("a")).unwrap();
        audit.files_left(dir.path());
        audit.files_left(dir.path());
        // A pipe that never ends: `seen` gives up after its wait.
        audit.pipe_opened();
        let t = Instant::now();
        let seen = audit.seen(Duration::from_millis(50));
        assert!(t.elapsed() >= Duration::from_millis(50));
        assert_eq!(seen.files_left, ["a/", "b.txt"]);
        assert_eq!(audit.lock().open_pipes, 1);
    }
}
