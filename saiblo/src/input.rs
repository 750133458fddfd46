//! Lines from the platform, read on their own thread so the main loop can wait with a
//! deadline.
//!
//! Some platform versions send only the opponent's move, others follow it with `top` and the
//! board on lines of their own. When a message is a bare move, the only way to tell the two
//! apart is to see whether another line arrives shortly, and std offers no read with a
//! timeout on stdin; a reader thread feeding a channel gives one (`recv_timeout`) without
//! unsafe code.

use std::io::{BufRead, Read};
use std::sync::mpsc::{Receiver, RecvTimeoutError, Sender, channel};
use std::thread;
use std::time::{Duration, Instant};

/// The longest line accepted: a 12x12 board is 144 small numbers, so anything near this is
/// not the protocol, and a cap keeps a runaway writer from growing memory without bound.
pub const MAX_LINE_BYTES: usize = 64 * 1024;

/// One line of input: its whitespace-separated words and when it was read (the move's
/// budget counts from the arrival of the message, not from when the loop got to it).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Line {
    /// The line without its end, for error messages.
    pub text: String,
    /// When the reader thread had it.
    pub at: Instant,
}

/// What waiting for a line produced.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Next {
    /// A line with at least one word.
    Line(Line),
    /// The platform closed its end; every later call says so again.
    Eof,
    /// Nothing arrived within the time allowed.
    TimedOut,
    /// The input could not be read (I/O error, invalid UTF-8, a line too long).
    Failed(String),
}

/// How long to wait for a line.
#[derive(Clone, Copy, Debug)]
pub enum Wait {
    /// Until a line arrives or the input ends.
    Forever,
    /// At most this long.
    For(Duration),
}

enum Event {
    Line(Line),
    /// The writer paused (input read at once: a blank line stands for the pause).
    Pause,
    Eof,
    Failed(String),
}

/// Reads `reader` line by line into `sender` until its end, a failure or a gone receiver;
/// blank lines as [`Event::Pause`] if `pauses`.
fn read(mut reader: impl BufRead, sender: &Sender<Event>, pauses: bool) {
    loop {
        let mut bytes = Vec::new();
        let mut limited = Read::take(&mut reader, MAX_LINE_BYTES as u64 + 1);
        let event = match limited.read_until(b'\n', &mut bytes) {
            Ok(0) => Event::Eof,
            Ok(_) if bytes.len() > MAX_LINE_BYTES => {
                Event::Failed(format!("a line longer than {MAX_LINE_BYTES} bytes"))
            }
            Ok(_) => match String::from_utf8(bytes) {
                Ok(text) if pauses && text.trim().is_empty() => Event::Pause,
                Ok(text) => Event::Line(Line {
                    text: text.trim_end_matches(['\n', '\r']).to_owned(),
                    at: Instant::now(),
                }),
                Err(_) => Event::Failed("a line that is not UTF-8 text".into()),
            },
            Err(error) => Event::Failed(format!("cannot read standard input: {error}")),
        };
        let last = matches!(event, Event::Eof | Event::Failed(_));
        // The receiver is gone only when the program is exiting: stop quietly.
        if sender.send(event).is_err() || last {
            return;
        }
    }
}

/// The receiving end of the reader (a thread, or everything read at once).
pub struct Input {
    events: Receiver<Event>,
    /// Set once the end (or a read failure) was seen, so it is reported on every later call
    /// instead of as a disconnected channel.
    end: Option<Next>,
}

impl Input {
    /// Starts a thread that reads `reader` line by line until its end.
    pub fn spawn<R: BufRead + Send + 'static>(reader: R) -> Input {
        let (sender, events) = channel();
        thread::spawn(move || read(reader, &sender, false));
        Input { events, end: None }
    }

    /// Reads all of `reader` at once, on this thread, a blank line standing for a pause of
    /// the writer (the platform waiting for our reply): a wait with a deadline times out
    /// there, a wait without one reads past it. So a run on it does not depend on timing
    /// (the fuzz target reads its inputs this way).
    pub fn read_all(reader: impl BufRead) -> Input {
        let (sender, events) = channel();
        read(reader, &sender, true);
        Input { events, end: None }
    }

    /// The next line with at least one word (blank lines are skipped), within `wait`.
    pub fn next(&mut self, wait: Wait) -> Next {
        if let Some(end) = &self.end {
            return end.clone();
        }
        let deadline = match wait {
            Wait::Forever => None,
            Wait::For(duration) => Some(Instant::now() + duration),
        };
        loop {
            let event = match deadline {
                None => self
                    .events
                    .recv()
                    .map_err(|_| RecvTimeoutError::Disconnected),
                Some(deadline) => self
                    .events
                    .recv_timeout(deadline.saturating_duration_since(Instant::now())),
            };
            let next = match event {
                Ok(Event::Line(line)) if line.text.trim().is_empty() => continue,
                Ok(Event::Pause) if deadline.is_some() => return Next::TimedOut,
                Ok(Event::Pause) => continue,
                Ok(Event::Line(line)) => return Next::Line(line),
                Ok(Event::Eof) | Err(RecvTimeoutError::Disconnected) => Next::Eof,
                Ok(Event::Failed(why)) => Next::Failed(why),
                Err(RecvTimeoutError::Timeout) => return Next::TimedOut,
            };
            self.end = Some(next.clone());
            return next;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::io::Cursor;

    #[test]
    fn skips_blank_lines_and_repeats_the_end() {
        let mut input = Input::spawn(Cursor::new("\n  \n1 2\r\n3"));
        let texts: Vec<String> = (0..2)
            .map(|_| match input.next(Wait::Forever) {
                Next::Line(line) => line.text,
                other => panic!("{other:?}"),
            })
            .collect();
        assert_eq!(texts, ["1 2", "3"]);
        assert_eq!(input.next(Wait::Forever), Next::Eof);
        assert_eq!(input.next(Wait::For(Duration::ZERO)), Next::Eof);
    }

    #[test]
    fn fails_on_overlong_and_binary_lines() {
        let long = "1 ".repeat(MAX_LINE_BYTES);
        let mut input = Input::spawn(Cursor::new(long));
        assert!(matches!(input.next(Wait::Forever), Next::Failed(why) if why.contains("longer")));
        let mut input = Input::spawn(Cursor::new(vec![0xff, b'\n']));
        assert!(matches!(input.next(Wait::Forever), Next::Failed(why) if why.contains("UTF-8")));
    }

    #[test]
    fn input_read_at_once_has_its_pauses_at_blank_lines() {
        let mut input = Input::read_all(Cursor::new("\n4 4 0 0\r\n-1 -1\n \n3 1\n\n\n"));
        let mut next = |wait| match input.next(wait) {
            Next::Line(line) => line.text,
            other => format!("{other:?}"),
        };
        // A blank line is a pause: a wait with a deadline ends there, one without reads on.
        assert_eq!(next(Wait::Forever), "4 4 0 0");
        assert_eq!(next(Wait::For(Duration::ZERO)), "-1 -1");
        assert_eq!(next(Wait::For(Duration::ZERO)), "TimedOut");
        assert_eq!(next(Wait::Forever), "3 1");
        assert_eq!(next(Wait::Forever), "Eof");
        let mut input = Input::read_all(Cursor::new(vec![b'1', b'\n', 0xff, b'\n']));
        assert!(matches!(input.next(Wait::Forever), Next::Line(_)));
        assert!(matches!(input.next(Wait::Forever), Next::Failed(why) if why.contains("UTF-8")));
    }

    #[test]
    fn times_out_while_the_writer_is_quiet() {
        // A pipe whose writer stays open: nothing arrives, nothing ends.
        let (reader, _writer) = std::io::pipe().unwrap();
        let mut input = Input::spawn(std::io::BufReader::new(reader));
        let start = Instant::now();
        assert_eq!(
            input.next(Wait::For(Duration::from_millis(30))),
            Next::TimedOut
        );
        assert!(start.elapsed() >= Duration::from_millis(30));
    }
}
