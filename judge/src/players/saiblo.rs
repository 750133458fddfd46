//! A program speaking the Saiblo platform's Connect-4 protocol as a [`Player`]: the judge
//! plays the platform. One process per game (the private process layer's `Program`).
//!
//! The platform's side, what this module writes to the program's stdin:
//! - at the start of the game one line `M N noX noY` (rows, columns, the blocked cell;
//!   row 0 is the top, as in the course ABI);
//! - before each of the program's moves the opponent's last move `lastX lastY` (`-1 -1`
//!   when the program moves first), then, by its [`Form`], `top` (N integers) and the
//!   board (M x N integers row by row: 0 empty, 1 the opponent, 2 the program).
//!
//! The program's side: each answer is a frame, a 4-byte big-endian length (1..=64)
//! followed by that many bytes of ASCII `x y`. Anything else on its stdout (text outside a
//! frame, a frame that is not two integers, output written before its move was asked,
//! a flood of it) loses by `garbage`; stdout closing before an answer loses by `crash`
//! (the signal, or `early exit` with the exit status); no whole frame within the limit
//! (the first move's includes the program's start-up) loses by `timeout`.

use std::io::Write;
use std::process::ChildStdout;
use std::sync::Arc;
use std::sync::mpsc::{Sender, channel};
use std::time::{Duration, Instant};

use super::process::program::read_within;
use super::process::{LogSink, ProcessSettings, Program};
use super::{Answer, Fault, Player};
use crate::games::connect4::{BoardSpec, Connect4, Point, Position};
use crate::games::{Game, Side};

/// Longest answer frame accepted: `x y` needs a handful of bytes.
const MAX_FRAME: usize = 64;
/// Unsolicited output beyond which the verdict's detail calls it a flood (the judge stops
/// reading there; between moves the program's output waits in the pipe, so a flood
/// blocks the program, not the judge).
pub const FLOOD_BYTES: usize = 1 << 20;
/// How long unsolicited output is read, at most, to tell a flood from stray bytes.
const FLOOD_MEASURE: Duration = Duration::from_millis(200);
/// A pause this long in unsolicited output ends the measuring early.
const FLOOD_QUIET: Duration = Duration::from_millis(20);

/// What the platform sends before each move, besides the opponent's last move.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Form {
    /// `lastX lastY top... board...` on one line (the default).
    Line,
    /// `lastX lastY`, then `top` on a line, then the board, one line per row.
    Lines,
    /// `lastX lastY` only: the program keeps its own board.
    Last,
}

impl Form {
    /// Every form, with the player scheme that selects it.
    pub const SCHEMES: [(&'static str, Form); 3] = [
        ("saiblo", Form::Line),
        ("saiblo-lines", Form::Lines),
        ("saiblo-last", Form::Last),
    ];

    /// The player scheme (the text before `:`) that selects this form.
    pub fn scheme(self) -> &'static str {
        match self {
            Form::Line => "saiblo",
            Form::Lines => "saiblo-lines",
            Form::Last => "saiblo-last",
        }
    }

    /// The form a scheme selects, if it is one of the Saiblo schemes.
    pub fn from_scheme(scheme: &str) -> Option<Form> {
        Form::SCHEMES
            .iter()
            .find(|(s, _)| *s == scheme)
            .map(|&(_, f)| f)
    }
}

/// What the first bytes of `inbox` make: `Ok(Some((point, size)))` for a whole frame of
/// `size` bytes, `Ok(None)` if more bytes are needed, `Err` if they cannot be a frame.
fn parse_frame(inbox: &[u8]) -> Result<Option<(Point, usize)>, String> {
    let Some(len) = inbox.first_chunk::<4>() else {
        return Ok(None);
    };
    let n = u32::from_be_bytes(*len) as usize;
    if n == 0 || n > MAX_FRAME {
        return Err(format!(
            "unframed output: {:?} where a 4-byte big-endian length (1..={MAX_FRAME}) was expected",
            String::from_utf8_lossy(len)
        ));
    }
    let Some(payload) = inbox.get(4..4 + n) else {
        return Ok(None);
    };
    match parse_answer(payload) {
        Some(point) => Ok(Some((point, 4 + n))),
        None => Err(format!(
            "frame {:?} is not \"x y\"",
            String::from_utf8_lossy(payload)
        )),
    }
}

/// `x y`: two decimal integers separated (and optionally surrounded) by ASCII
/// whitespace. A sign is allowed so that a negative point is an illegal move, not garbage.
fn parse_answer(payload: &[u8]) -> Option<Point> {
    let text = std::str::from_utf8(payload).ok()?;
    let mut it = text.split_ascii_whitespace();
    let number = |t: &str| {
        let digits = t.strip_prefix('-').unwrap_or(t);
        let ok = !digits.is_empty() && digits.bytes().all(|b| b.is_ascii_digit());
        ok.then(|| t.parse::<i32>().ok()).flatten()
    };
    let x = number(it.next()?)?;
    let y = number(it.next()?)?;
    it.next().is_none().then_some(Point { x, y })
}

/// What the platform writes before the mover's move in `position`.
fn move_text(position: &Position, side: Side, form: Form) -> String {
    let BoardSpec { m, n, .. } = position.spec();
    let last = position.last().unwrap_or(Point { x: -1, y: -1 });
    let join = |v: &[i32]| v.iter().map(i32::to_string).collect::<Vec<_>>().join(" ");
    let top = join(position.top());
    let board = position.board_for(side);
    match form {
        Form::Last => format!("{} {}\n", last.x, last.y),
        Form::Line => format!("{} {} {top} {}\n", last.x, last.y, join(board)),
        Form::Lines => {
            let mut s = format!("{} {}\n{top}\n", last.x, last.y);
            for row in board.chunks(n.max(1) as usize).take(m as usize) {
                s.push_str(&join(row));
                s.push('\n');
            }
            s
        }
    }
}

/// A Saiblo-protocol program in its own process.
pub struct SaibloPlayer {
    /// The process, or why it could not be started (every game lost by `load`).
    program: Result<Program, Fault>,
    form: Form,
    /// To the writer thread, which owns the program's stdin (a program that never reads
    /// cannot block the judge on a full pipe).
    requests: Option<Sender<Vec<u8>>>,
    /// The program's stdout, read only while an answer is awaited (between moves its
    /// output waits in the pipe, where the next move's check finds it).
    stdout: Option<ChildStdout>,
    /// Bytes read but not yet consumed as a frame.
    inbox: Vec<u8>,
    /// The board's line was sent (`start` may be called again for the same game, as
    /// `judge play` does to report a load error early).
    started: bool,
}

/// Why reading an answer stopped without one.
enum Failure {
    /// Nothing (complete) within the limit.
    Timeout,
    /// Stdout ended: the program is gone.
    Ended,
    /// Not a frame.
    Garbage(String),
}

impl SaibloPlayer {
    /// Starts `argv` with `env` added to its environment, stderr going to `log`, speaking
    /// `form`. A program that cannot start loses its games by `load`.
    pub fn launch(
        settings: &ProcessSettings,
        argv: &[String],
        env: &[(String, String)],
        form: Form,
        log: Arc<LogSink>,
    ) -> SaibloPlayer {
        let mut player = SaibloPlayer {
            program: Program::spawn(settings, argv, env, log).map_err(Fault::Load),
            form,
            requests: None,
            stdout: None,
            inbox: Vec::new(),
            started: false,
        };
        if let Some((mut stdin, stdout)) = player.program.as_mut().ok().and_then(|p| p.take_pipes())
        {
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
            player.requests = Some(tx);
            player.stdout = Some(stdout);
        }
        player
    }

    fn send(&self, text: String) {
        if let Some(tx) = &self.requests {
            // A closed writer means the program is gone; reading its stdout says how.
            let _ = tx.send(text.into_bytes());
        }
    }

    /// Output the program wrote since its last answer, before this move was asked: it
    /// loses by `garbage` (or, if its stdout already ended, by how it ended).
    fn unasked(&mut self) -> Option<Failure> {
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

    /// Reads until a whole frame is in the inbox, by `deadline`.
    fn answer(&mut self, deadline: Instant) -> Result<Point, Failure> {
        let Some(stdout) = self.stdout.as_mut() else {
            return Err(Failure::Ended);
        };
        let mut buf = [0u8; 4096];
        loop {
            match parse_frame(&self.inbox) {
                Ok(Some((point, size))) => {
                    // Anything after the frame stays for the next move's check.
                    self.inbox.drain(..size);
                    return Ok(point);
                }
                Ok(None) => {}
                Err(text) => return Err(Failure::Garbage(text)),
            }
            match read_within(stdout, &mut buf, deadline) {
                Ok(None) => return Err(Failure::Timeout),
                Ok(Some(0)) | Err(_) => return Err(Failure::Ended),
                Ok(Some(n)) => self.inbox.extend_from_slice(&buf[..n]),
            }
        }
    }

    /// The fault `failure` earns; the program is killed (a program whose stdout ended is
    /// reaped, and how it ended is the detail).
    fn fault(&mut self, failure: Failure) -> Fault {
        let Ok(program) = &mut self.program else {
            return Fault::Load("the program is not running".into());
        };
        match failure {
            Failure::Ended => {
                let how = program.reap();
                if how.starts_with("exit status") {
                    Fault::Crash(format!("early exit ({how})"))
                } else {
                    Fault::Crash(how)
                }
            }
            Failure::Timeout => {
                program.kill();
                Fault::Timeout
            }
            Failure::Garbage(text) => {
                program.kill();
                Fault::Garbage(text)
            }
        }
    }
}

impl Player<Connect4> for SaibloPlayer {
    fn start(&mut self, _game: &Connect4, setup: &BoardSpec, _side: Side) -> Result<(), Fault> {
        if let Err(fault) = &self.program {
            return Err(fault.clone());
        }
        if !self.started {
            let BoardSpec { m, n, no_x, no_y } = *setup;
            self.send(format!("{m} {n} {no_x} {no_y}\n"));
            self.started = true;
        }
        Ok(())
    }

    fn next_move(
        &mut self,
        game: &Connect4,
        position: &Position,
        _last: Option<Point>,
        limit: Duration,
    ) -> Answer<Point> {
        if let Err(fault) = &self.program {
            return Answer {
                reply: Err(fault.clone()),
                wall_ms: 0.0,
                cpu_ms: None,
            };
        }
        let start = Instant::now();
        let reply = match self.unasked() {
            Some(failure) => Err(failure),
            None => {
                self.send(move_text(position, game.to_move(position), self.form));
                self.answer(start + limit)
            }
        };
        let wall_ms = start.elapsed().as_secs_f64() * 1e3;
        Answer {
            reply: reply.map_err(|f| self.fault(f)),
            wall_ms,
            cpu_ms: None,
        }
    }

    fn stop(&mut self) {
        // Closing stdin lets a well-behaved program end; dropping the process kills its
        // whole group and deletes its scratch directory whatever it does.
        self.requests = None;
        self.stdout = None;
        self.program = Err(Fault::Load("the game is over".into()));
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn frame(text: &[u8]) -> Vec<u8> {
        let mut v = (text.len() as u32).to_be_bytes().to_vec();
        v.extend_from_slice(text);
        v
    }

    #[test]
    fn frames_decode_and_everything_else_is_garbage() {
        let mut ok = frame(b"3 4");
        ok.extend(frame(b" -1 12\n"));
        assert_eq!(parse_frame(&ok), Ok(Some((Point { x: 3, y: 4 }, 7))));
        assert_eq!(
            parse_frame(&ok[7..]),
            Ok(Some((Point { x: -1, y: 12 }, 11)))
        );
        // Incomplete frames wait for more bytes.
        for cut in [0, 2, 4, 6] {
            assert_eq!(parse_frame(&ok[..cut]), Ok(None));
        }
        for bad in [
            b"3 4\n".to_vec(),
            frame(b"3"),
            frame(b"3 4 5"),
            frame(b"x y"),
            frame(b"+3 4"),
            frame(b"3 99999999999"),
            frame(&[b'1'; 65]),
            vec![0, 0, 0, 0],
        ] {
            assert!(parse_frame(&bad).is_err(), "{bad:?}");
        }
        let text = parse_frame(b"hello\n").unwrap_err();
        assert!(text.contains("unframed output: \"hell\""), "{text}");
    }

    #[test]
    fn the_three_forms() {
        let spec = BoardSpec {
            m: 2,
            n: 3,
            no_x: 1,
            no_y: 2,
        };
        let mut p = Connect4.start(&spec);
        assert_eq!(
            move_text(&p, Side::First, Form::Line),
            "-1 -1 2 2 1 0 0 0 0 0 0\n"
        );
        let mv = p.drop_point(0).unwrap();
        Connect4.play(&mut p, mv);
        assert_eq!(move_text(&p, Side::Second, Form::Last), "1 0\n");
        assert_eq!(
            move_text(&p, Side::Second, Form::Lines),
            "1 0\n1 2 1\n0 0 0\n1 0 0\n"
        );
        assert_eq!(
            move_text(&p, Side::First, Form::Line),
            "1 0 1 2 1 0 0 0 2 0 0\n"
        );
        for (scheme, form) in Form::SCHEMES {
            assert_eq!(Form::from_scheme(scheme), Some(form));
            assert_eq!(form.scheme(), scheme);
        }
        assert_eq!(Form::from_scheme("gtp"), None);
    }
}
