//! Child processes: a GTP controller over a child's pipes, waiting with a deadline, killing
//! on drop, feeding a child its whole input, and finding processes left behind.

use std::io::{BufRead, BufReader, Write};
use std::path::Path;
use std::process::{Child, ChildStdin, ChildStdout, Command, ExitStatus, Output, Stdio};
use std::time::{Duration, Instant};

/// Kills and reaps the child when dropped: a failing test must not leave it running.
#[derive(Debug)]
pub struct Reaper(pub Child);

impl Drop for Reaper {
    fn drop(&mut self) {
        // Killing an exited process is harmless.
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

/// Waits for `child` to exit until `deadline`, polling every few milliseconds; at the
/// deadline kills (and reaps) it and returns `None`, for the caller to say what hung.
pub fn wait_until(child: &mut Child, deadline: Instant) -> Option<ExitStatus> {
    loop {
        if let Some(status) = child.try_wait().expect("wait for a child") {
            return Some(status);
        }
        if Instant::now() >= deadline {
            let _ = child.kill();
            let _ = child.wait();
            return None;
        }
        std::thread::sleep(Duration::from_millis(5));
    }
}

/// Runs `command` with `input` on its stdin (then closed: the end of input, as at a closed
/// terminal) and its stdout and stderr captured; returns what it printed once it exited.
/// A program that exits without reading its input closes the pipe early: that is not a
/// failure here, its exit status and stderr say what happened.
pub fn feed(command: &mut Command, input: &[u8]) -> Output {
    let mut child = command
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap_or_else(|e| panic!("cannot start {:?}: {e}", command.get_program()));
    let _ = child.stdin.take().expect("piped stdin").write_all(input);
    child.wait_with_output().expect("wait for a child")
}

/// Checks that a child succeeded (showing its output if not) and returns its stdout;
/// `what` names it in the message.
#[track_caller]
pub fn stdout_of_success(out: &Output, what: &str) -> String {
    assert!(
        out.status.success(),
        "{what} failed: {}\n{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8_lossy(&out.stdout).into_owned()
}

/// Processes whose command line mentions `dir`, once the ones being killed are gone
/// (killed processes are reaped before their parent returns, but `/proc` may lag: up to a
/// second's grace).
pub fn processes_under(dir: &Path) -> Vec<String> {
    let needle = dir.to_string_lossy().into_owned();
    let scan = || {
        std::fs::read_dir("/proc")
            .expect("read /proc")
            .flatten()
            .filter(|e| e.file_name().to_string_lossy().parse::<u32>().is_ok())
            .filter_map(|e| std::fs::read(e.path().join("cmdline")).ok())
            .map(|c| String::from_utf8_lossy(&c).replace('\0', " "))
            .filter(|c| c.contains(&needle))
            .collect::<Vec<_>>()
    };
    let mut alive = scan();
    for _ in 0..50 {
        if alive.is_empty() {
            break;
        }
        std::thread::sleep(Duration::from_millis(20));
        alive = scan();
    }
    alive
}

/// A GTP engine in a child process, spoken to one command at a time (GTP 2: a response is
/// `=` or `?`, an optional id, text, and ends with an empty line).
pub struct GtpProcess {
    child: Child,
    stdin: ChildStdin,
    stdout: BufReader<ChildStdout>,
    /// The name for messages.
    pub name: String,
}

impl GtpProcess {
    /// Starts `program` with `args`, standard error inherited.
    pub fn start(name: &str, program: &str, args: &[&str]) -> GtpProcess {
        GtpProcess::start_with_env(name, program, args, &[])
    }

    /// Starts `program` with `args` and the environment variables `env` added.
    pub fn start_with_env(
        name: &str,
        program: &str,
        args: &[&str],
        env: &[(&str, &str)],
    ) -> GtpProcess {
        let mut child = Command::new(program)
            .args(args)
            .envs(env.iter().copied())
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .spawn()
            .unwrap_or_else(|e| panic!("{program}: {e}"));
        GtpProcess {
            stdin: child.stdin.take().expect("piped stdin"),
            stdout: BufReader::new(child.stdout.take().expect("piped stdout")),
            child,
            name: name.to_string(),
        }
    }

    /// Sends raw bytes (one or more lines).
    pub fn send_raw(&mut self, bytes: &[u8]) {
        self.stdin.write_all(bytes).expect("write to the engine");
        self.stdin.flush().expect("write to the engine");
    }

    /// Reads one response: the status line with its id, and the rest; `None` at the end
    /// of the output.
    pub fn read_response(&mut self) -> Option<String> {
        read_response(&mut self.stdout)
    }

    /// Sends `bytes` from another thread while `read` reads the responses (a long input
    /// would otherwise fill both pipes and block both sides).
    pub fn send_while_reading<T>(
        &mut self,
        bytes: &[u8],
        read: impl FnOnce(&mut dyn FnMut() -> Option<String>) -> T,
    ) -> T {
        let (stdin, stdout) = (&mut self.stdin, &mut self.stdout);
        std::thread::scope(|s| {
            s.spawn(move || {
                stdin.write_all(bytes).expect("write to the engine");
                stdin.flush().expect("write to the engine");
            });
            read(&mut || read_response(stdout))
        })
    }

    /// Sends one command and returns `Ok(text)` for `= text` or `Err(text)` for `? text`.
    pub fn ask(&mut self, command: &str) -> Result<String, String> {
        self.send_raw(format!("{command}\n").as_bytes());
        let response = self
            .read_response()
            .unwrap_or_else(|| panic!("{}: no response to {command:?}", self.name));
        let text = response[1..].trim().to_string();
        match response.as_bytes()[0] {
            b'=' => Ok(text),
            b'?' => Err(text),
            _ => panic!("{}: malformed response {response:?}", self.name),
        }
    }

    /// Like [`GtpProcess::ask`], failing the test on a `?`.
    #[track_caller]
    pub fn ok(&mut self, command: &str) -> String {
        match self.ask(command) {
            Ok(text) => text,
            Err(e) => panic!("{}: {command:?} failed: {e}", self.name),
        }
    }

    /// Sends `quit` and waits for the process; returns its exit status code.
    pub fn quit(mut self) -> Option<i32> {
        let _ = self.ask("quit");
        self.child.wait().expect("wait for the engine").code()
    }
}

impl Drop for GtpProcess {
    fn drop(&mut self) {
        // Killing an exited process is harmless; a failing test must not leave it running.
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// Reads one GTP response from `stdout` (see [`GtpProcess::read_response`]).
fn read_response(stdout: &mut impl BufRead) -> Option<String> {
    let mut response = String::new();
    loop {
        let mut line = String::new();
        if stdout.read_line(&mut line).expect("read from the engine") == 0 {
            return None;
        }
        if line == "\n" {
            if response.is_empty() {
                continue;
            }
            return Some(response);
        }
        response.push_str(&line);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn responses_end_at_an_empty_line_and_skip_leading_ones() {
        let mut input: &[u8] = b"\n= one\ntwo\n\n?3 bad\n\n= cut";
        assert_eq!(read_response(&mut input).as_deref(), Some("= one\ntwo\n"));
        assert_eq!(read_response(&mut input).as_deref(), Some("?3 bad\n"));
        assert_eq!(read_response(&mut input), None);
    }

    #[test]
    fn a_child_past_its_deadline_is_killed() {
        let mut child = Command::new("sleep").arg("30").spawn().unwrap();
        let start = Instant::now();
        assert_eq!(
            wait_until(&mut child, start + Duration::from_millis(50)),
            None
        );
        assert!(start.elapsed() < Duration::from_secs(10));
        let mut child = Command::new("true").spawn().unwrap();
        let status = wait_until(&mut child, Instant::now() + Duration::from_secs(30));
        assert!(status.is_some_and(|s| s.success()));
    }

    #[test]
    fn fed_input_reaches_the_child() {
        let out = feed(&mut Command::new("cat"), b"hello\n");
        assert_eq!(stdout_of_success(&out, "cat"), "hello\n");
    }
}
