//! A program player's process: any executable, spawned with pipes for its stdin and
//! stdout, in the same isolation as a library host (its own scratch directory as the
//! working directory, its own process group, `RLIMIT_AS`, no core files, killed with its
//! parent, stderr drained into the player's capped log).
//!
//! What flows over the pipes is the caller's business ([`super::pipes::Pipes`] carries it;
//! the players frame it).

use std::io::Read;
use std::os::fd::AsRawFd;
use std::os::unix::fs::PermissionsExt;
use std::os::unix::process::CommandExt;
use std::path::{Path, PathBuf};
use std::process::{ChildStdin, ChildStdout, Command};
use std::sync::Arc;
use std::thread::JoinHandle;
use std::time::{Duration, Instant};

use super::child::set_limits;
use super::{Leader, LogSink, ProcessSettings, isolate, scratch_dir, signals};

/// A running program player.
pub struct Program {
    leader: Leader,
    stdin: Option<ChildStdin>,
    stdout: Option<ChildStdout>,
    /// Deleted (with whatever the program wrote into it) when the program is dropped.
    scratch: Option<tempfile::TempDir>,
    /// The thread copying its stderr into the log: finished once all of it is there.
    log_drain: JoinHandle<()>,
}

/// Finds the executable `program` names: a name without `/` is looked up on `PATH` as a
/// shell would, anything else is a path (relative to the judge's working directory).
/// The file must exist and be executable. Returns an absolute path, because the program
/// runs in its scratch directory, where a relative path would mean something else.
pub fn resolve_program(program: &str) -> Result<PathBuf, String> {
    let executable = |p: &Path| {
        std::fs::metadata(p).is_ok_and(|m| m.is_file() && m.permissions().mode() & 0o111 != 0)
    };
    if program.is_empty() {
        return Err("empty command".into());
    }
    if program.contains('/') {
        let path = std::path::absolute(program).map_err(|e| format!("{program}: {e}"))?;
        return match std::fs::metadata(&path) {
            Err(e) => Err(format!("{program}: {e}")),
            Ok(_) if !executable(&path) => Err(format!("{program}: not an executable file")),
            Ok(_) => Ok(path),
        };
    }
    std::env::var_os("PATH")
        .iter()
        .flat_map(std::env::split_paths)
        .map(|dir| dir.join(program))
        .find(|p| executable(p))
        .and_then(|p| std::path::absolute(p).ok())
        .ok_or_else(|| format!("{program}: no such executable on PATH"))
}

/// A program's argument as the program should see it from its scratch directory: a
/// relative path to an existing file (`main.py` in `python3 main.py`, `bots/engine.py`) or a
/// relative path with a `/` to an existing directory is made absolute; anything else is
/// passed as written. A bare word that names a directory of the judge's working directory
/// stays a word: `gtp` in `gnugo --mode gtp` or `reversi gtp` is a subcommand, not the
/// repository's `gtp/` crate.
fn rooted_arg(arg: &str) -> String {
    match std::env::current_dir() {
        Ok(cwd) => rooted_arg_in(arg, &cwd),
        Err(_) => arg.to_string(),
    }
}

/// [`rooted_arg`] against the working directory `cwd`.
fn rooted_arg_in(arg: &str, cwd: &Path) -> String {
    let path = Path::new(arg);
    if arg.is_empty() || arg.starts_with('-') || !path.is_relative() {
        return arg.to_string();
    }
    let full = cwd.join(path);
    let is_path = full.is_file() || (arg.contains('/') && full.exists());
    if is_path {
        full.to_string_lossy().into_owned()
    } else {
        arg.to_string()
    }
}

impl Program {
    /// Starts `argv` (program and arguments) with `env` added to its environment, its
    /// stderr going to `log`. `Err` says why it could not start (the `load` verdict).
    pub fn spawn(
        config: &ProcessSettings,
        argv: &[String],
        env: &[(String, String)],
        log: Arc<LogSink>,
    ) -> Result<Program, String> {
        let (program, args) = argv.split_first().ok_or("empty command")?;
        let program = resolve_program(program)?;
        let scratch = scratch_dir()?;
        let memory_limit_mb = config.memory_limit_mb;
        let parent = std::process::id();
        let mut command = Command::new(&program);
        command.args(args.iter().map(|a| rooted_arg(a)));
        isolate(&mut command, scratch.path(), env);
        // SAFETY: the closure runs in the forked child before exec and only makes raw
        // system calls (prctl, getppid, _exit, and setrlimit in `set_limits`), which are
        // async-signal-safe; it allocates nothing and touches no lock. The rlimit structs
        // live on the stack.
        unsafe {
            command.pre_exec(move || {
                libc::prctl(
                    libc::PR_SET_PDEATHSIG,
                    libc::SIGKILL as libc::c_ulong,
                    0,
                    0,
                    0,
                );
                // The judge may have died before prctl took effect.
                if libc::getppid() as u32 != parent {
                    libc::_exit(0);
                }
                set_limits(memory_limit_mb);
                Ok(())
            });
        }
        let mut child = command
            .spawn()
            .map_err(|e| format!("cannot start {}: {e}", program.display()))?;
        let stderr = child.stderr.take().expect("piped stderr");
        let log_drain = std::thread::spawn(move || log.drain(stderr));
        Ok(Program {
            stdin: child.stdin.take(),
            stdout: child.stdout.take(),
            leader: Leader { child, dead: false },
            scratch: Some(scratch),
            log_drain,
        })
    }

    /// The program's stdin and stdout, once (the caller reads and writes them on its own
    /// threads).
    pub fn take_pipes(&mut self) -> Option<(ChildStdin, ChildStdout)> {
        Some((self.stdin.take()?, self.stdout.take()?))
    }

    /// The program's peak resident memory so far, KiB (its main process's high-water mark,
    /// not that of processes it started); `None` once it has exited or where Linux does not
    /// say.
    pub fn peak_memory_kb(&self) -> Option<u64> {
        self.leader.peak_resident_kb()
    }

    /// The CPU time the program has used so far (all its threads; not that of processes it
    /// started), ms; `None` once it has exited.
    pub fn cpu_ms(&self) -> Option<f64> {
        self.leader.cpu_ms()
    }

    /// Kills the program's whole process group and reaps it.
    pub fn kill(&mut self) {
        self.leader.kill();
    }

    /// Stops the program's whole process group (SIGSTOP) until [`Program::resume`]: it
    /// uses no CPU while it is not its turn. A stopped group can still be killed.
    pub fn pause(&mut self) {
        if !self.leader.dead {
            signals::pause_group(self.leader.child.id(), true);
        }
    }

    /// Lets a paused program's process group run again (SIGCONT).
    pub fn resume(&mut self) {
        if !self.leader.dead {
            signals::pause_group(self.leader.child.id(), false);
        }
    }

    /// Waits (briefly) for a program whose stdout ended and says how it ended
    /// (`exit status 0`, `SIGSEGV`, ...); whatever it forked is killed.
    pub fn reap(&mut self) -> String {
        self.leader.reap()
    }

    /// Waits up to `grace` for a program whose input was closed to exit by itself and for
    /// all of its stderr to reach the log, then says how it ended (`exit status 0`, ...);
    /// whatever it forked is killed. `None`: it was still running at the end of the grace
    /// (the caller kills it) or had been killed already.
    pub fn exit_within(&mut self, grace: Duration) -> Option<String> {
        let deadline = Instant::now() + grace;
        let how = self.leader.exited_by(deadline)?;
        // Its group is gone, so the pipe's last writer is too: the copy ends promptly.
        while !self.log_drain.is_finished() && Instant::now() < deadline {
            std::thread::sleep(Duration::from_millis(1));
        }
        Some(how)
    }
}

/// A program's CPU clock as read when a move was asked: [`CpuMark::spent`] at the answer
/// is what the move cost it (all its threads; not processes it started).
#[derive(Clone, Copy, Debug)]
pub struct CpuMark(Option<f64>);

impl CpuMark {
    /// `program`'s clock now; a program that is not running (`None`) marks nothing.
    pub fn read(program: Option<&Program>) -> CpuMark {
        CpuMark(program.and_then(Program::cpu_ms))
    }

    /// The mark of a program started for this move: everything it uses is the move's.
    pub fn started() -> CpuMark {
        CpuMark(Some(0.0))
    }

    /// The CPU time `program` has used since this mark, ms; `None` if either reading
    /// failed (it was not running, or has exited).
    pub fn spent(self, program: Option<&Program>) -> Option<f64> {
        Some((program?.cpu_ms()? - self.0?).max(0.0))
    }
}

/// Reads what `out` has, waiting until `deadline` at most: `Ok(None)` if nothing came in
/// time, `Ok(Some(0))` at end of file, else the number of bytes read into `buf`. A
/// deadline already past only looks at what is there now. No thread is involved, so
/// bytes a program wrote earlier are still in the pipe when the caller looks.
pub fn read_within(
    out: &mut ChildStdout,
    buf: &mut [u8],
    deadline: Instant,
) -> std::io::Result<Option<usize>> {
    loop {
        let left = deadline.saturating_duration_since(Instant::now());
        // Round up, so a wait never ends a fraction of a millisecond early.
        let ms = left.as_micros().div_ceil(1000).min(i32::MAX as u128) as libc::c_int;
        let mut fd = libc::pollfd {
            fd: out.as_raw_fd(),
            events: libc::POLLIN,
            revents: 0,
        };
        // SAFETY: poll reads and writes the one pollfd we own, which outlives the call;
        // the descriptor stays open because `out` is borrowed for the whole call.
        let ready = unsafe { libc::poll(&mut fd, 1, ms) };
        if ready < 0 {
            let e = std::io::Error::last_os_error();
            if e.kind() == std::io::ErrorKind::Interrupted {
                continue;
            }
            return Err(e);
        }
        if ready == 0 {
            if Instant::now() >= deadline {
                return Ok(None);
            }
            continue;
        }
        // Readable or hung up: read returns at once (bytes, or 0 at end of file).
        return out.read(buf).map(Some);
    }
}

impl Drop for Program {
    fn drop(&mut self) {
        self.stdin = None;
        self.kill();
        if let Some(dir) = self.scratch.take() {
            let _ = dir.close();
        }
    }
}

#[cfg(test)]
mod tests {
    #[test]
    fn files_and_paths_are_rooted_but_a_bare_word_naming_a_directory_is_not() {
        let cwd = tempfile::tempdir().unwrap();
        std::fs::create_dir_all(cwd.path().join("gtp")).unwrap();
        std::fs::create_dir_all(cwd.path().join("bots")).unwrap();
        std::fs::write(cwd.path().join("main.py"), "").unwrap();
        std::fs::write(cwd.path().join("bots/engine.py"), "").unwrap();
        let rooted = |arg: &str| rooted_arg_in(arg, cwd.path());
        let inside = |rel: &str| cwd.path().join(rel).to_string_lossy().into_owned();
        assert_eq!(
            rooted("gtp"),
            "gtp",
            "a subcommand, though gtp/ is a directory here"
        );
        assert_eq!(rooted("main.py"), inside("main.py"));
        assert_eq!(rooted("bots/engine.py"), inside("bots/engine.py"));
        assert_eq!(rooted("bots/"), inside("bots/"));
        assert_eq!(rooted("./gtp"), inside("./gtp"));
        assert_eq!(rooted("--mode"), "--mode");
        assert_eq!(rooted("missing.py"), "missing.py");
        assert_eq!(rooted("/usr/games/gnugo"), "/usr/games/gnugo");
    }

    use super::*;
    use crate::players::process::scratch::SCRATCH_PREFIX;

    /// Starts `sh -c script` with `env`, limited to 300 MB, logging to `dir/p.log`.
    fn shell(dir: &Path, script: &str, env: &[(String, String)]) -> Program {
        let log = Arc::new(LogSink::open(&dir.join("p.log"), 1 << 20).unwrap());
        let settings = ProcessSettings {
            exe: PathBuf::from("/nonexistent"),
            memory_limit_mb: 300,
        };
        let argv: Vec<String> = ["sh", "-c", script].map(String::from).to_vec();
        Program::spawn(&settings, &argv, env, log).unwrap()
    }

    #[test]
    fn a_programs_cpu_time_counts_its_work_and_not_its_waiting() {
        let dir = tempfile::tempdir().unwrap();
        // Waits for a line, then becomes awk (the same process: exec) and counts before
        // answering.
        let script = "read x; exec awk 'BEGIN { for (i = 0; i < 3e6; i++) s += i; \
            print \"done\"; fflush(); getline line < \"/dev/stdin\" }'";
        let mut program = shell(dir.path(), script, &[]);
        let (mut stdin, mut stdout) = program.take_pipes().unwrap();
        let mark = CpuMark::read(Some(&program));
        std::thread::sleep(std::time::Duration::from_millis(300));
        let waited = mark
            .spent(Some(&program))
            .expect("a running program's clock");
        assert!(
            waited < 100.0,
            "{waited} ms of CPU while blocked on its stdin"
        );

        let mark = CpuMark::read(Some(&program));
        let asked = Instant::now();
        std::io::Write::write_all(&mut stdin, b"go\n").unwrap();
        let mut buf = [0u8; 64];
        let deadline = asked + std::time::Duration::from_secs(30);
        let n = read_within(&mut stdout, &mut buf, deadline)
            .unwrap()
            .unwrap();
        assert_eq!(&buf[..n], b"done\n");
        let worked = mark
            .spent(Some(&program))
            .expect("a running program's clock");
        let wall = asked.elapsed().as_secs_f64() * 1e3;
        assert!(worked > 5.0, "{worked} ms of CPU for 3 million additions");
        assert!(
            worked <= wall + 1.0,
            "{worked} ms of CPU in {wall} ms (one thread)"
        );

        program.kill();
        assert_eq!(
            mark.spent(Some(&program)),
            None,
            "a dead program has no clock"
        );
        assert_eq!(CpuMark::started().spent(None), None);
    }

    #[test]
    fn a_program_runs_isolated_and_leaves_nothing() {
        let dir = tempfile::tempdir().unwrap();
        // Prints its working directory, its limits, whether its process group is its own,
        // and an environment variable; writes a file; says something on stderr.
        let script = "pwd; ulimit -v; ulimit -c; \
            [ \"$(cut -d' ' -f5 /proc/$$/stat)\" = \"$$\" ] && echo own-group; \
            echo \"$PLAYER_X\"; echo made > here.txt; echo to-stderr >&2";
        let env = [("PLAYER_X".to_string(), "42".to_string())];
        let mut program = shell(dir.path(), script, &env);
        let (_stdin, mut stdout) = program.take_pipes().unwrap();
        let mut text = String::new();
        let mut buf = [0u8; 4096];
        let deadline = Instant::now() + std::time::Duration::from_secs(10);
        while let Ok(Some(n)) = read_within(&mut stdout, &mut buf, deadline) {
            if n == 0 {
                break;
            }
            text.push_str(&String::from_utf8_lossy(&buf[..n]));
        }
        let lines: Vec<&str> = text.lines().collect();
        let scratch = PathBuf::from(lines[0]);
        assert!(
            scratch
                .file_name()
                .unwrap()
                .to_string_lossy()
                .starts_with(SCRATCH_PREFIX),
            "{text}"
        );
        assert_eq!(lines[1], (300 * 1024).to_string(), "{text}");
        assert_eq!(lines[2], "0", "{text}");
        assert_eq!(lines[3], "own-group", "{text}");
        assert_eq!(lines[4], "42", "{text}");
        assert!(scratch.join("here.txt").exists());
        assert_eq!(program.reap(), "exit status 0");
        drop(program);
        assert!(!scratch.exists(), "scratch directory left behind");
        // The log is drained on its own thread: give it a moment to see the end of file.
        let mut logged = String::new();
        for _ in 0..200 {
            logged = std::fs::read_to_string(dir.path().join("p.log")).unwrap();
            if logged.contains("to-stderr") {
                break;
            }
            std::thread::sleep(std::time::Duration::from_millis(10));
        }
        assert!(logged.contains("to-stderr"), "{logged}");
    }

    #[test]
    fn a_program_told_to_end_exits_with_its_stderr_logged_or_is_waited_for_no_longer() {
        let dir = tempfile::tempdir().unwrap();
        // Ends at the end of its input, saying goodbye on stderr first.
        let mut program = shell(dir.path(), "cat >/dev/null; echo bye >&2; exit 3", &[]);
        drop(program.take_pipes());
        let grace = Duration::from_secs(10);
        assert_eq!(program.exit_within(grace).as_deref(), Some("exit status 3"));
        // All of its stderr is in the log once the wait is over: no polling needed.
        let logged = std::fs::read_to_string(dir.path().join("p.log")).unwrap();
        assert_eq!(logged, "bye\n");
        assert_eq!(program.exit_within(grace), None, "it is gone already");
        // One that ignores the end of its input is waited for only as long as the grace.
        let mut stubborn = shell(dir.path(), "exec sleep 30", &[]);
        drop(stubborn.take_pipes());
        let asked = Instant::now();
        assert_eq!(stubborn.exit_within(Duration::from_millis(100)), None);
        assert!(asked.elapsed() < Duration::from_secs(5));
        stubborn.kill();
    }

    #[test]
    fn programs_resolve_on_path_or_as_paths() {
        let sh = resolve_program("sh").unwrap();
        assert!(sh.is_absolute() && sh.ends_with("sh"));
        assert!(resolve_program("no-such-program-xyz").is_err());
        assert!(resolve_program("./no/such/file").is_err());
        // A file that exists but is not executable.
        let dir = tempfile::tempdir().unwrap();
        let f = dir.path().join("data.txt");
        std::fs::write(&f, "x").unwrap();
        let err = resolve_program(f.to_str().unwrap()).unwrap_err();
        assert!(err.contains("not an executable"), "{err}");
        assert!(resolve_program("").is_err());
    }
}
