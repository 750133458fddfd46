//! What the integration tests share: GNU Go's place and the rule for its absence, and a GTP
//! controller over a child process.

#![allow(dead_code)] // Each test crate uses its own part of this module.

use std::io::{BufRead, BufReader, Write};
use std::path::Path;
use std::process::{Child, ChildStdin, ChildStdout, Command, Stdio};

/// Debian's GNU Go 3.8 (`apt-get install gnugo`).
pub const GNUGO: &str = "/usr/games/gnugo";

/// The engine under test.
pub const ENGINE: &str = env!("CARGO_BIN_EXE_go-engine");

/// Whether a test needing GNU Go should skip: on a developer's machine without it, it says
/// so and returns true; under CI (`CI=true`), where scripts/test.sh installs it, a missing
/// GNU Go fails the test instead of passing it untested.
#[track_caller]
pub fn gnugo_missing() -> bool {
    let ci = std::env::var("CI").is_ok_and(|v| v == "true");
    match skip_decision(Path::new(GNUGO).exists(), ci) {
        Ok(None) => false,
        Ok(Some(why)) => {
            println!("{why}");
            true
        }
        Err(why) => panic!("{why}"),
    }
}

/// [`gnugo_missing`]'s decision with the CI flag given: `Ok(None)` run, `Ok(Some(line))`
/// skip saying so, `Err(message)` fail.
pub fn skip_decision(present: bool, ci: bool) -> Result<Option<String>, String> {
    let why = format!("{GNUGO} is not installed (apt-get install gnugo)");
    match (present, ci) {
        (true, _) => Ok(None),
        (false, false) => Ok(Some(format!("skipped: {why} (with CI=true this fails)"))),
        (false, true) => Err(format!(
            "{why}; under CI=true that is a failure, not a skip"
        )),
    }
}

/// A GTP engine in a child process, spoken to one command at a time.
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
            stdin: child.stdin.take().unwrap(),
            stdout: BufReader::new(child.stdout.take().unwrap()),
            child,
            name: name.to_string(),
        }
    }

    /// Sends raw bytes (one or more lines).
    pub fn send_raw(&mut self, bytes: &[u8]) {
        self.stdin.write_all(bytes).unwrap();
        self.stdin.flush().unwrap();
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
                stdin.write_all(bytes).unwrap();
                stdin.flush().unwrap();
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
        self.child.wait().unwrap().code()
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
fn read_response(stdout: &mut BufReader<ChildStdout>) -> Option<String> {
    let mut response = String::new();
    loop {
        let mut line = String::new();
        if stdout.read_line(&mut line).unwrap() == 0 {
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
