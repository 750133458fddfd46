//! The process layer: every library runs in its own child process (the judge re-executed
//! as `judge host`), every program player is its own child process ([`Program`]), and
//! this module is the only place that knows about processes, pipes, signals, rlimits,
//! scratch directories and `unsafe`. The course-ABI player uses [`Host::get_point`], the
//! program players (Saiblo, GTP, Botzone) a [`Program`] and its [`pipes::Pipes`]; the
//! tournament sees players, never processes.

mod audit;
pub mod child;
mod logsink;
pub mod pipes;
pub mod program;
pub mod protocol;
mod scratch;
mod signals;

use std::io::BufReader;
use std::os::fd::{AsRawFd, RawFd};
use std::os::unix::process::CommandExt;
use std::path::{Path, PathBuf};
use std::process::{Child, ChildStdin, ChildStdout, Command, Stdio};
use std::sync::Arc;
use std::sync::mpsc::{Receiver, RecvTimeoutError, sync_channel};
use std::time::{Duration, Instant};

pub use audit::{Audit, Seen};
pub use logsink::LogSink;
pub use program::{CpuMark, Program};
use protocol::{ChildMessage, MoveRequest, ProtocolError};
use scratch::scratch_dir;
pub use scratch::sweep_stale_scratch;
pub use signals::die_on_closed_stdout;

/// How long a library may take to load (its constructors run in `dlopen`).
const LOAD_TIMEOUT: Duration = Duration::from_secs(10);
/// How often a host's peak memory is read while it computes a move.
const PEAK_SAMPLE: Duration = Duration::from_millis(20);
/// How long to wait for a child that closed its pipe to finish dying.
const REAP_GRACE: Duration = Duration::from_secs(2);

/// The descriptor a host finds its separate stdout pipe on (`--stdout-fd`), when audited.
const STDOUT_TAP_FD: i32 = 3;

/// How player processes are started.
#[derive(Debug, Clone)]
pub struct ProcessSettings {
    /// The judge executable, re-run as the hidden `judge host` for each library.
    pub exe: PathBuf,
    /// Address-space limit of each player's process, MiB (0: none).
    pub memory_limit_mb: u64,
}

impl ProcessSettings {
    /// Settings that re-run this very executable: `/proc/self/exe` where Linux provides it,
    /// which stays this judge's own file after a rebuild replaces the one at its path (a run
    /// of hours would otherwise start its later hosts from whatever build is there by then,
    /// which may speak another protocol), else the path the judge was started from.
    pub fn current(memory_limit_mb: u64) -> std::io::Result<ProcessSettings> {
        let own_file = Path::new("/proc/self/exe");
        let exe = if own_file.exists() {
            own_file.to_path_buf()
        } else {
            std::env::current_exe()?
        };
        Ok(ProcessSettings {
            exe,
            memory_limit_mb,
        })
    }
}

/// What a `getPoint` call came to.
#[derive(Debug, Clone, PartialEq)]
pub enum Answer {
    /// A point (not yet checked for legality).
    Point { x: i32, y: i32 },
    /// `getPoint` returned NULL.
    Null,
    /// No answer within the limit; the host was killed.
    Timeout,
    /// The host died or broke the protocol; the text names the signal or exit status.
    Crash(String),
}

/// One timed move.
#[derive(Debug, Clone)]
pub struct Timed {
    /// The answer.
    pub answer: Answer,
    /// Wall time from sending the request to reading the reply (monotonic clock), ms.
    pub wall_ms: f64,
    /// CPU time of the thread that ran `getPoint`, as the child reports it, ms.
    pub cpu_ms: Option<f64>,
    /// What the call wrote into the arrays it was given, if anything.
    pub written: Option<protocol::Written>,
}

/// A child that leads its own process group: killed as a whole group, reaped once.
struct Leader {
    child: Child,
    dead: bool,
}

/// The peak resident memory of process `pid` so far, in KiB: the kernel's high-water mark
/// (`VmHWM` in `/proc/PID/status`); `None` where Linux does not say (another system, or a
/// process that has already exited).
fn peak_resident_kb(pid: u32) -> Option<u64> {
    let status = std::fs::read_to_string(format!("/proc/{pid}/status")).ok()?;
    let line = status.lines().find(|l| l.starts_with("VmHWM:"))?;
    line.trim_start_matches("VmHWM:")
        .trim()
        .trim_end_matches("kB")
        .trim()
        .parse()
        .ok()
}

/// The CPU time process `pid` has used so far, all its threads together, ms: its kernel
/// CPU-time clock, read to the nanosecond (`/proc/PID/stat` counts in 10 ms ticks); `None`
/// where that clock cannot be read (the process has gone).
fn process_cpu_ms(pid: u32) -> Option<f64> {
    let pid = libc::pid_t::try_from(pid).ok()?;
    let mut clock: libc::clockid_t = 0;
    // SAFETY: clock_getcpuclockid only writes one clockid_t into the variable we own.
    if unsafe { libc::clock_getcpuclockid(pid, &mut clock) } != 0 {
        return None;
    }
    let mut ts = libc::timespec {
        tv_sec: 0,
        tv_nsec: 0,
    };
    // SAFETY: clock_gettime only writes one timespec into the struct we own; an unknown
    // clock is an error return, not undefined behaviour.
    if unsafe { libc::clock_gettime(clock, &mut ts) } != 0 {
        return None;
    }
    Some(ts.tv_sec as f64 * 1e3 + ts.tv_nsec as f64 / 1e6)
}

impl Leader {
    /// The CPU time the leader has used so far (all its threads, not its children's), ms;
    /// `None` once it is dead.
    fn cpu_ms(&self) -> Option<f64> {
        if self.dead {
            return None;
        }
        process_cpu_ms(self.child.id())
    }

    /// The peak resident memory of the leader so far, KiB (not its own children's); `None`
    /// once it is dead or where Linux does not say.
    fn peak_resident_kb(&self) -> Option<u64> {
        if self.dead {
            return None;
        }
        peak_resident_kb(self.child.id())
    }

    /// Kills the whole process group and reaps the leader.
    fn kill(&mut self) {
        if !self.dead {
            signals::kill_group(self.child.id());
            let _ = self.child.wait();
            self.dead = true;
        }
    }

    /// Waits (briefly) for a child that closed its pipe and says how it ended.
    fn reap(&mut self) -> String {
        if let Some(how) = self.exited_by(Instant::now() + REAP_GRACE) {
            return how;
        }
        self.kill();
        "closed its pipe without exiting".into()
    }

    /// Waits until `deadline` at most for a living leader to exit by itself; if it does,
    /// kills anything it forked into the group and says how it ended (`exit status 0`,
    /// `SIGSEGV`, ...). `None`: still running (or already killed).
    fn exited_by(&mut self, deadline: Instant) -> Option<String> {
        if self.dead {
            return None;
        }
        let status = loop {
            match self.child.try_wait() {
                Ok(Some(status)) => break status,
                Ok(None) if Instant::now() < deadline => {
                    std::thread::sleep(Duration::from_millis(2))
                }
                _ => return None,
            }
        };
        // Also kills anything the player forked into the group.
        signals::kill_group(self.child.id());
        self.dead = true;
        Some(signals::describe(status))
    }
}

/// A running library host.
pub struct Host {
    leader: Leader,
    requests: Option<ChildStdin>,
    replies: Receiver<Result<ChildMessage, ProtocolError>>,
    /// Deleted (with whatever the library wrote into it) when the host is dropped.
    scratch: Option<tempfile::TempDir>,
    /// The library is loaded and both symbols resolved.
    ready: bool,
    /// The highest peak resident memory read after an answer, KiB.
    peak_kb: Option<u64>,
    /// Where its separate stdout and the files it leaves are reported, when audited.
    audit: Option<Arc<Audit>>,
}

impl Host {
    /// Starts a host for `library` without waiting for it to load (so both players of a
    /// game load in parallel); call [`Host::wait_ready`] before the first move. `Err`
    /// carries the reason the library cannot play (the `load` verdict). With an `audit`
    /// (`judge check`), the library's stdout goes to a pipe of its own, counted by the
    /// audit instead of joining its stderr in the log, and the files it leaves in its
    /// working directory are reported to the audit when the host ends.
    pub fn start(
        config: &ProcessSettings,
        library: &Path,
        env: &[(String, String)],
        log: Arc<LogSink>,
        audit: Option<Arc<Audit>>,
    ) -> Result<Host, String> {
        let library = std::path::absolute(library).map_err(|e| format!("bad path: {e}"))?;
        let scratch = scratch_dir()?;
        let tap = if audit.is_some() {
            Some(std::io::pipe().map_err(|e| format!("cannot create a pipe: {e}"))?)
        } else {
            None
        };
        let mut command = host_command(config, &library, scratch.path(), env);
        if let Some((_, writer)) = &tap {
            pass_stdout_tap(&mut command, writer.as_raw_fd());
        }
        let mut child = command
            .spawn()
            .map_err(|e| format!("cannot start host {}: {e}", config.exe.display()))?;
        let stdout = child.stdout.take().expect("piped stdout");
        let stderr = child.stderr.take().expect("piped stderr");
        let rx = read_replies(stdout);
        std::thread::spawn(move || log.drain(stderr));
        if let (Some((reader, writer)), Some(audit)) = (tap, audit.clone()) {
            // The host holds the write end now; the pipe ends when the host's group dies.
            drop(writer);
            audit.pipe_opened();
            std::thread::spawn(move || audit.drain_stdout(reader));
        }
        Ok(Host {
            requests: child.stdin.take(),
            leader: Leader { child, dead: false },
            replies: rx,
            scratch: Some(scratch),
            ready: false,
            peak_kb: None,
            audit,
        })
    }

    /// Waits until the host has loaded its library (at once if it already has). `Err`
    /// carries the reason the library cannot play, `dlerror`'s text included.
    pub fn wait_ready(&mut self) -> Result<(), String> {
        if self.ready {
            return Ok(());
        }
        let host = self;
        match host.replies.recv_timeout(LOAD_TIMEOUT) {
            Ok(Ok(ChildMessage::Ready)) => {
                host.ready = true;
                Ok(())
            }
            Ok(Ok(ChildMessage::LoadError(text))) => Err(text),
            Ok(Ok(other)) => {
                host.kill();
                Err(format!("host protocol violation while loading: {other:?}"))
            }
            Ok(Err(_)) | Err(RecvTimeoutError::Disconnected) => {
                Err(format!("host died while loading: {}", host.reap()))
            }
            Err(RecvTimeoutError::Timeout) => {
                host.kill();
                Err(format!(
                    "library took over {}s to load",
                    LOAD_TIMEOUT.as_secs()
                ))
            }
        }
    }

    /// True once the process is gone (killed or crashed): it cannot be reused.
    pub fn is_dead(&self) -> bool {
        self.leader.dead
    }

    /// Sends one `getPoint` call and waits at most `limit` for the answer.
    pub fn get_point(&mut self, req: &MoveRequest, limit: Duration) -> Timed {
        let start = Instant::now();
        let sent = match self.requests.as_mut() {
            Some(w) => protocol::write_request(w, req).is_ok(),
            None => false,
        };
        let mut written = None;
        let received = loop {
            if !sent {
                break Err(RecvTimeoutError::Disconnected);
            }
            match self.await_reply(start + limit) {
                Ok(Ok(ChildMessage::Wrote(w))) if written.is_none() => written = Some(w),
                received => break received,
            }
        };
        let wall_ms = start.elapsed().as_secs_f64() * 1e3;
        // Read before a verdict kills the host: a timeout or a crash keeps its last peak.
        self.peak_kb = self.peak_kb.max(self.leader.peak_resident_kb());
        let ms = |ns: u64| Some(ns as f64 / 1e6);
        let (answer, cpu_ms) = match received {
            Ok(Ok(ChildMessage::Point { x, y, cpu_ns })) => (Answer::Point { x, y }, ms(cpu_ns)),
            Ok(Ok(ChildMessage::Null { cpu_ns })) => (Answer::Null, ms(cpu_ns)),
            Ok(Ok(other)) => {
                self.kill();
                (
                    Answer::Crash(format!("protocol violation: {other:?}")),
                    None,
                )
            }
            Ok(Err(ProtocolError::Malformed(e))) => {
                self.kill();
                (Answer::Crash(format!("protocol violation: {e}")), None)
            }
            Ok(Err(ProtocolError::Io(_))) | Err(RecvTimeoutError::Disconnected) => {
                (Answer::Crash(self.reap()), None)
            }
            Err(RecvTimeoutError::Timeout) => {
                self.kill();
                (Answer::Timeout, None)
            }
        };
        Timed {
            answer,
            wall_ms,
            cpu_ms,
            written,
        }
    }

    /// Waits for the reply to a call until `deadline`, reading the host's peak memory
    /// every [`PEAK_SAMPLE`] meanwhile: a process that dies of an allocation can no longer
    /// be asked how big it grew.
    fn await_reply(
        &mut self,
        deadline: Instant,
    ) -> Result<Result<ChildMessage, ProtocolError>, RecvTimeoutError> {
        loop {
            let left = deadline.saturating_duration_since(Instant::now());
            match self.replies.recv_timeout(left.min(PEAK_SAMPLE)) {
                Err(RecvTimeoutError::Timeout) if Instant::now() < deadline => {
                    self.peak_kb = self.peak_kb.max(self.leader.peak_resident_kb());
                }
                received => return received,
            }
        }
    }

    /// The host's peak resident memory (the library's and the host's own) as of its last
    /// answer, KiB; `None` where Linux does not say.
    pub fn peak_memory_kb(&self) -> Option<u64> {
        self.peak_kb
    }

    /// Kills the host's whole process group and reaps it.
    pub fn kill(&mut self) {
        self.leader.kill();
    }

    /// Waits (briefly) for a host that stopped answering and says how it ended.
    fn reap(&mut self) -> String {
        self.leader.reap()
    }
}

impl Drop for Host {
    fn drop(&mut self) {
        // Closing the request pipe lets a healthy host exit by itself; kill it anyway so
        // nothing outlives the game (and nothing writes into the scratch dir we delete).
        self.requests = None;
        self.kill();
        if let Some(dir) = self.scratch.take() {
            if let Some(audit) = &self.audit {
                audit.files_left(dir.path());
            }
            let _ = dir.close();
        }
    }
}

/// The command that starts a library host: `judge host` for `library` in the scratch
/// directory `scratch`, in a process group of its own, with the player's `env`, its
/// stdin, stdout and stderr piped.
fn host_command(
    config: &ProcessSettings,
    library: &Path,
    scratch: &Path,
    env: &[(String, String)],
) -> Command {
    let mut command = Command::new(&config.exe);
    command
        // `ps` shows "judge host ..." rather than "/proc/self/exe host ...".
        .arg0("judge")
        .arg("host")
        .arg("--library")
        .arg(library)
        .arg("--scratch")
        .arg(scratch)
        .arg("--memory-limit-mb")
        .arg(config.memory_limit_mb.to_string())
        .arg("--parent-pid")
        .arg(std::process::id().to_string());
    isolate(&mut command, scratch, env);
    command
}

/// Sets what every player's process gets, a library host or a program: the scratch
/// directory `dir` as its working directory, the player's own settings `env`
/// (`LIB.so@KEY=VALUE`, for this process only), a process group of its own (so a timeout
/// kills whatever it forked too), and its stdin, stdout and stderr piped.
fn isolate(command: &mut Command, dir: &Path, env: &[(String, String)]) {
    command
        .current_dir(dir)
        // Per-thread malloc arenas reserve 64 MiB of address space each and would eat
        // into RLIMIT_AS; one arena matches the course platform's single thread.
        .env("MALLOC_ARENA_MAX", "1")
        .envs(env.iter().map(|(k, v)| (k, v)))
        .process_group(0)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped());
}

/// Gives the host the write end `fd` of the pipe for its library's stdout, at
/// [`STDOUT_TAP_FD`] (`--stdout-fd`).
fn pass_stdout_tap(command: &mut Command, fd: RawFd) {
    // SAFETY: between fork and exec this runs only dup2 or fcntl on descriptors
    // the child inherited (async-signal-safe, no allocation, no lock): the stdout
    // pipe's write end, close-on-exec in the judge, is put at STDOUT_TAP_FD and
    // kept open across exec for the host to take.
    unsafe {
        command.pre_exec(move || {
            let r = if fd == STDOUT_TAP_FD {
                libc::fcntl(fd, libc::F_SETFD, 0)
            } else {
                libc::dup2(fd, STDOUT_TAP_FD)
            };
            if r < 0 {
                return Err(std::io::Error::last_os_error());
            }
            Ok(())
        });
    }
    command.arg("--stdout-fd").arg(STDOUT_TAP_FD.to_string());
}

/// The host's messages, read from its stdout on a thread of their own; the first error
/// (the end of the stream included) is the last message.
fn read_replies(stdout: ChildStdout) -> Receiver<Result<ChildMessage, ProtocolError>> {
    let (tx, rx) = sync_channel(1);
    std::thread::spawn(move || {
        let mut r = BufReader::new(stdout);
        loop {
            let msg = match protocol::read_message(&mut r) {
                Ok(Some(m)) => Ok(m),
                Ok(None) => Err(ProtocolError::Io(std::io::ErrorKind::UnexpectedEof.into())),
                Err(e) => Err(e),
            };
            let stop = msg.is_err();
            if tx.send(msg).is_err() || stop {
                break;
            }
        }
    });
    rx
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn peak_memory_is_read_from_proc() {
        // This test process has touched at least a megabyte (its code, its runtime).
        let own = peak_resident_kb(std::process::id()).expect("Linux has /proc/PID/status");
        assert!(own >= 1024, "{own} KiB");
        // No such process (pids stop far below this).
        assert_eq!(peak_resident_kb(u32::MAX - 1), None);
    }
}
