//! A program's stdin and stdout as a conversation, whatever the protocol: requests are
//! written by a thread of their own (a program that never reads cannot block the judge on
//! a full pipe), answers are read under a deadline, and output the program wrote before
//! it was asked is found and measured (a flood is told from a few stray bytes).
//!
//! The framing (Saiblo's length prefix, GTP's lines, Botzone's JSON) is the caller's:
//! it looks at [`Pipes::inbox`] and asks for more bytes with [`Pipes::read_more`], or
//! reads whole lines with [`Pipes::read_line`].

use std::io::Write;
use std::process::ChildStdout;
use std::sync::mpsc::{Sender, channel};
use std::time::{Duration, Instant};

use super::Program;
use super::program::read_within;

/// Unsolicited output beyond which it is called a flood (the judge stops reading there;
/// between moves the program's output waits in the pipe, so a flood blocks the program,
/// not the judge). Also the longest answer a line protocol accepts.
pub const FLOOD_BYTES: usize = 1 << 20;
/// How long unsolicited output is read, at most, to tell a flood from stray bytes.
const FLOOD_MEASURE: Duration = Duration::from_millis(200);
/// A pause this long in unsolicited output ends the measuring early.
const FLOOD_QUIET: Duration = Duration::from_millis(20);

/// Why reading an answer stopped without one.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Failure {
    /// Nothing (complete) within the limit.
    Timeout,
    /// Stdout ended: the program is gone (or closed it).
    Ended,
    /// Not an answer; the text says what it was.
    Garbage(String),
}

/// A running program's stdin (through the writer thread) and stdout.
pub struct Pipes {
    /// To the writer thread, which owns the program's stdin.
    requests: Option<Sender<Vec<u8>>>,
    /// Read only while an answer is awaited (between moves the program's output waits in
    /// the pipe, where the next move's check finds it).
    stdout: Option<ChildStdout>,
    /// Bytes read but not yet consumed as an answer.
    inbox: Vec<u8>,
}

impl Pipes {
    /// Takes `program`'s pipes (none if they were taken already: every read then fails
    /// as [`Failure::Ended`]).
    pub fn new(program: &mut Program) -> Pipes {
        let Some((mut stdin, stdout)) = program.take_pipes() else {
            return Pipes::none();
        };
        let (tx, rx) = channel::<Vec<u8>>();
        std::thread::spawn(move || {
            for bytes in rx {
                if stdin
                    .write_all(&bytes)
                    .and_then(|()| stdin.flush())
                    .is_err()
                {
                    return;
                }
            }
        });
        Pipes {
            requests: Some(tx),
            stdout: Some(stdout),
            inbox: Vec::new(),
        }
    }

    /// No pipes (a program that could not be started): sends go nowhere, reads end.
    pub fn none() -> Pipes {
        Pipes {
            requests: None,
            stdout: None,
            inbox: Vec::new(),
        }
    }

    /// Queues `bytes` for the program's stdin.
    pub fn send(&self, bytes: impl Into<Vec<u8>>) {
        if let Some(tx) = &self.requests {
            // A closed writer means the program is gone; reading its stdout says how.
            let _ = tx.send(bytes.into());
        }
    }

    /// Closes stdin (once the writer has sent what was queued); stdout can still be read.
    pub fn close_input(&mut self) {
        self.requests = None;
    }

    /// Closes stdin (once the writer has sent what was queued) and stops reading stdout.
    pub fn close(&mut self) {
        self.requests = None;
        self.stdout = None;
    }

    /// Bytes read and not yet consumed.
    pub fn inbox(&self) -> &[u8] {
        &self.inbox
    }

    /// Drops the first `n` bytes of the inbox (an answer the caller has taken).
    pub fn consume(&mut self, n: usize) {
        self.inbox.drain(..n.min(self.inbox.len()));
    }

    /// Reads once more into the inbox, waiting until `deadline` at most.
    pub fn read_more(&mut self, deadline: Instant) -> Result<(), Failure> {
        let Some(stdout) = self.stdout.as_mut() else {
            return Err(Failure::Ended);
        };
        let mut buf = [0u8; 4096];
        match read_within(stdout, &mut buf, deadline) {
            Ok(None) => Err(Failure::Timeout),
            Ok(Some(0)) | Err(_) => Err(Failure::Ended),
            Ok(Some(n)) => {
                self.inbox.extend_from_slice(&buf[..n]);
                Ok(())
            }
        }
    }

    /// The next line (without its `\n` or `\r\n`), read by `deadline`. A line longer than
    /// [`FLOOD_BYTES`] is garbage; a last line without `\n` at the end of output is kept
    /// in the inbox and reported as [`Failure::Ended`].
    pub fn read_line(&mut self, deadline: Instant) -> Result<String, Failure> {
        let mut scanned = 0;
        loop {
            if let Some(i) = self.inbox[scanned..].iter().position(|&b| b == b'\n') {
                let end = scanned + i;
                let mut line = &self.inbox[..end];
                if let Some(stripped) = line.strip_suffix(b"\r") {
                    line = stripped;
                }
                let text = String::from_utf8_lossy(line).into_owned();
                self.consume(end + 1);
                return Ok(text);
            }
            scanned = self.inbox.len();
            if scanned > FLOOD_BYTES {
                return Err(Failure::Garbage(format!(
                    "stdout flood: over {} KiB without a line break",
                    FLOOD_BYTES >> 10
                )));
            }
            self.read_more(deadline)?;
        }
    }

    /// Output the program wrote since its last answer, before this move was asked: it
    /// loses by `garbage` (or, if its stdout already ended, by how it ended). `None` when
    /// there is none.
    pub fn unasked(&mut self) -> Option<Failure> {
        let stdout = self.stdout.as_mut()?;
        let mut seen = self.inbox.len();
        let mut preview = self.inbox.clone();
        let mut buf = [0u8; 64 * 1024];
        // Once it has lost, measure the output a little longer, so that a flood (which
        // sits blocked on its full pipe until read) is told from a few stray bytes.
        let measure_until = Instant::now() + FLOOD_MEASURE;
        let ended = loop {
            if seen > FLOOD_BYTES {
                break false;
            }
            let now = Instant::now();
            let wait = if seen == 0 {
                now
            } else {
                (now + FLOOD_QUIET).min(measure_until)
            };
            match read_within(stdout, &mut buf, wait) {
                Ok(None) => break false,
                Ok(Some(0)) | Err(_) => break true,
                Ok(Some(n)) => {
                    seen += n;
                    if preview.len() < 32 {
                        preview.extend_from_slice(&buf[..n.min(32)]);
                    }
                }
            }
        };
        preview.truncate(32);
        match (seen, ended) {
            (0, false) => None,
            (0, true) => Some(Failure::Ended),
            (n, _) if n > FLOOD_BYTES => Some(Failure::Garbage(format!(
                "stdout flood: over {} KiB of output nobody asked for",
                FLOOD_BYTES >> 10
            ))),
            (n, _) => Some(Failure::Garbage(format!(
                "unsolicited output: {n} bytes before its move was asked ({:?}...)",
                String::from_utf8_lossy(&preview)
            ))),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::players::process::{LogSink, ProcessSettings};
    use std::path::PathBuf;
    use std::sync::Arc;

    fn spawn(script: &str) -> (Program, tempfile::TempDir) {
        let dir = tempfile::tempdir().unwrap();
        let log = Arc::new(LogSink::open(&dir.path().join("p.log"), 1 << 20).unwrap());
        let settings = ProcessSettings {
            exe: PathBuf::from("/nonexistent"),
            memory_limit_mb: 0,
        };
        let argv: Vec<String> = ["sh", "-c", script].map(String::from).to_vec();
        (Program::spawn(&settings, &argv, &[], log).unwrap(), dir)
    }

    fn soon() -> Instant {
        Instant::now() + Duration::from_secs(10)
    }

    #[test]
    fn lines_are_read_one_by_one_and_the_end_is_seen() {
        // Echoes what it is sent, then a CRLF line and an unterminated tail.
        let (mut program, _dir) = spawn("read a; echo \"got $a\"; printf 'two\\r\\nthree'");
        let mut pipes = Pipes::new(&mut program);
        assert_eq!(pipes.unasked(), None);
        pipes.send("hello\n");
        assert_eq!(pipes.read_line(soon()).unwrap(), "got hello");
        assert_eq!(pipes.read_line(soon()).unwrap(), "two");
        assert_eq!(pipes.read_line(soon()), Err(Failure::Ended));
        assert_eq!(pipes.inbox(), b"three");
        assert_eq!(program.reap(), "exit status 0");
    }

    #[test]
    fn silence_times_out_and_early_output_is_unsolicited() {
        let (mut program, _dir) = spawn("echo early; sleep 30");
        let mut pipes = Pipes::new(&mut program);
        let start = Instant::now();
        // Wait for the early line to be in the pipe: polled, since a loaded machine can take
        // longer than a fixed sleep to start the shell (the 100 ms sleep this had is the
        // likely cause of one failure seen under load).
        let early = loop {
            match pipes.unasked() {
                None if start.elapsed() < Duration::from_secs(5) => {
                    std::thread::sleep(Duration::from_millis(10))
                }
                found => break found,
            }
        };
        match early {
            Some(Failure::Garbage(text)) => assert!(
                text.starts_with("unsolicited output: 6 bytes") && text.contains("early"),
                "{text}"
            ),
            other => panic!("{other:?}"),
        }
        pipes.consume(usize::MAX);
        let deadline = Instant::now() + Duration::from_millis(50);
        assert_eq!(pipes.read_line(deadline), Err(Failure::Timeout));
        assert!(start.elapsed() < Duration::from_secs(5));
        program.kill();
    }

    #[test]
    fn a_flood_without_line_breaks_is_garbage() {
        let (mut program, _dir) = spawn("head -c 3000000 /dev/zero");
        let mut pipes = Pipes::new(&mut program);
        match pipes.read_line(soon()) {
            Err(Failure::Garbage(text)) => assert!(text.contains("flood"), "{text}"),
            other => panic!("{other:?}"),
        }
        program.kill();
    }
}
