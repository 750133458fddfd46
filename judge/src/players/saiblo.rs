//! A program speaking the Saiblo platform's Connect-4 protocol as a [`Player`]: the judge
//! plays the platform. One process per game (the private process layer's `Program`). This
//! is the project's one emulation of the platform: the `gravity4-saiblo` program and the
//! Python upload are tested through it.
//!
//! The platform's side, what this module writes to the program's stdin:
//! - at the start of the game one line `M N noX noY` (rows, columns, the blocked cell;
//!   row 0 is the top, as in the course ABI);
//! - before each of the program's moves the opponent's last move `lastX lastY` (`-1 -1`
//!   when the program moves first), then, by its [`Form`], `top` (N integers) and the
//!   board (M x N integers row by row: 0 empty, 1 the opponent, 2 the program), in the
//!   default form each preceded by its count, as the template the platform generates for
//!   this game (chengsx21/Connect4's `main.cpp`) reads them; the other forms are the same
//!   numbers in other layouts, or the move alone;
//! - when the game ends by the rules, the program that did not make the last move is sent
//!   that move in the same form, so that it knows the game is over; then its stdin
//!   closes, and it has [`EXIT_GRACE`] to exit by itself before it is killed
//!   ([`SaibloPlayer::exit`] says how it ended).
//!
//! The program's side: each answer is a frame, a 4-byte big-endian length (1..=64)
//! followed by that many bytes of ASCII `x y`. Its first frame may also be `ok`, the
//! template's handshake, sent at start-up before reading anything: taken silently at any
//! time before its first answer, wherever it falls (while the opponent thinks or after
//! the move was asked). Anything else on its stdout (text outside a frame, a frame that is
//! not two integers, a second `ok` or one after an answer, other output written before its
//! move was asked, a flood of it) loses by `garbage`; stdout closing before an answer
//! loses by `crash` (the signal, or `early exit` with the exit status); no whole frame
//! within the limit (the first move's includes the program's start-up) loses by
//! `timeout`.

use std::sync::Arc;
use std::time::{Duration, Instant};

use super::process::pipes::{Failure, Pipes};
use super::process::{CpuMark, LogSink, ProcessSettings, Program};
use super::{Answer, Fault, Player, program_fault};
use crate::games::connect4::{BoardSpec, Connect4, Point, Position};
use crate::games::{Game, Side};

/// Longest answer frame accepted: `x y` needs a handful of bytes.
pub const MAX_FRAME: usize = 64;

/// The template's handshake, a frame of `ok`: accepted as a program's first frame.
pub const HELLO: &[u8] = b"\0\0\0\x02ok";

/// How long a frame that has begun like the handshake is given to complete before the move
/// is asked (the template writes it in one go, so this is slack, not a wait).
const HELLO_SETTLE: Duration = Duration::from_millis(50);

/// How long a program whose game is over and whose input was closed is given to exit by
/// itself (a program that reads to the end of its input exits within milliseconds; the
/// grace bounds what one that does not costs each game), as GTP's `quit` is given
/// [`super::gtp::QUIT_GRACE`].
pub const EXIT_GRACE: Duration = Duration::from_secs(1);

/// What the platform sends before each move, besides the opponent's last move: the same
/// numbers in the layouts a platform might use (the template reads them with `scanf`, so
/// any whitespace between them does for it), or the move alone.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Form {
    /// `lastX lastY N top... MN board...` on one line, each block preceded by its count: what
    /// the platform's template reads (the default).
    Counted,
    /// `lastX lastY top... board...` on one line, without counts.
    Uncounted,
    /// `lastX lastY`, then `top` on a line, then the board, one line per row.
    Lines,
    /// `lastX lastY` only: the program keeps its own board.
    Last,
    /// `lastX lastY`, then `top` on a line, then the whole board on one line.
    Blocks,
    /// `lastX lastY`, then `N top...` on a line, then `MN board...` on a line.
    CountedBlocks,
    /// `lastX lastY N top...` on a line, then `MN board...` on the next.
    CountedSplit,
    /// `lastX lastY`, then `N`, `top...`, `MN` and `board...` each on a line of its own.
    CountsApart,
    /// `lastX lastY`, then every number of the counted form on a line of its own.
    Scattered,
}

impl Form {
    /// Every form, with the player scheme that selects it.
    pub const SCHEMES: [(&'static str, Form); 9] = [
        ("saiblo", Form::Counted),
        ("saiblo-uncounted", Form::Uncounted),
        ("saiblo-lines", Form::Lines),
        ("saiblo-last", Form::Last),
        ("saiblo-blocks", Form::Blocks),
        ("saiblo-counted-blocks", Form::CountedBlocks),
        ("saiblo-counted-split", Form::CountedSplit),
        ("saiblo-counts-apart", Form::CountsApart),
        ("saiblo-scattered", Form::Scattered),
    ];

    /// The player scheme (the text before `:`) that selects this form.
    pub fn scheme(self) -> &'static str {
        Form::SCHEMES
            .iter()
            .find(|&&(_, f)| f == self)
            .map(|&(s, _)| s)
            .expect("every form has a scheme")
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
pub fn parse_frame(inbox: &[u8]) -> Result<Option<(Point, usize)>, String> {
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
    message(
        form,
        position.last(),
        position.top(),
        position.board_for(side),
    )
}

/// The message before a move in `form`: the opponent's last move `last` (`-1 -1` for
/// none), then `top` and `board` (row-major, `top.len()` columns) as the form lays them
/// out. Public so that a test can send a view of its own (one that contradicts the moves,
/// say) in any layout.
pub fn message(form: Form, last: Option<Point>, top: &[i32], board: &[i32]) -> String {
    let Point { x, y } = last.unwrap_or(Point { x: -1, y: -1 });
    let (cols, cells) = (top.len(), board.len());
    let join = |v: &[i32]| v.iter().map(i32::to_string).collect::<Vec<_>>().join(" ");
    let (top, rows, board) = (
        join(top),
        board.chunks(cols.max(1)).map(join).collect::<Vec<_>>(),
        join(board),
    );
    // Each count is that of the values sent after it.
    match form {
        Form::Counted => format!("{x} {y} {cols} {top} {cells} {board}\n"),
        Form::Uncounted => format!("{x} {y} {top} {board}\n"),
        Form::Lines => format!("{x} {y}\n{top}\n{}\n", rows.join("\n")),
        Form::Last => format!("{x} {y}\n"),
        Form::Blocks => format!("{x} {y}\n{top}\n{board}\n"),
        Form::CountedBlocks => format!("{x} {y}\n{cols} {top}\n{cells} {board}\n"),
        Form::CountedSplit => format!("{x} {y} {cols} {top}\n{cells} {board}\n"),
        Form::CountsApart => format!("{x} {y}\n{cols}\n{top}\n{cells}\n{board}\n"),
        Form::Scattered => {
            let numbers = format!("{cols} {top} {cells} {board}");
            format!("{x} {y}\n{}\n", numbers.replace(' ', "\n"))
        }
    }
}

/// A Saiblo-protocol program in its own process.
pub struct SaibloPlayer {
    /// The process, or why it could not be started (every game lost by `load`).
    program: Result<Program, Fault>,
    form: Form,
    /// Its stdin and stdout.
    pipes: Pipes,
    /// The board's line was sent (`start` may be called again for the same game, as
    /// `judge play` does to report a load error early).
    started: bool,
    /// No frame has been taken from it yet, so a framed `ok` may still come.
    hello_allowed: bool,
    /// It sent the framed `ok`.
    greeted: bool,
    /// The side it plays, once started.
    side: Option<Side>,
    /// How it ended after the game, once stopped, if it exited by itself.
    exit: Option<String>,
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
        let mut program = Program::spawn(settings, argv, env, log).map_err(Fault::Load);
        let pipes = match &mut program {
            Ok(p) => Pipes::new(p),
            Err(_) => Pipes::none(),
        };
        SaibloPlayer {
            program,
            form,
            pipes,
            started: false,
            hello_allowed: true,
            greeted: false,
            side: None,
            exit: None,
        }
    }

    /// Whether the program sent the framed `ok` (before its first answer; it is optional).
    pub fn greeted(&self) -> bool {
        self.greeted
    }

    /// How the program ended once the game was over and its input closed
    /// ([`Player::stop`]): `exit status 0`, `exit status 1`, a signal's name; `None` if it
    /// was killed (by a verdict, or for not exiting within [`EXIT_GRACE`]) or has not
    /// been stopped. Once this is known, all it wrote on stderr is in its log.
    pub fn exit(&self) -> Option<&str> {
        self.exit.as_deref()
    }

    /// Takes the framed `ok` at the head of the inbox, if it is there and still allowed.
    fn take_hello(&mut self) -> bool {
        let there = self.hello_allowed && self.pipes.inbox().starts_with(HELLO);
        if there {
            self.pipes.consume(HELLO.len());
            self.hello_allowed = false;
            self.greeted = true;
        }
        there
    }

    /// Before the move is asked: takes a framed `ok` the program wrote since it started
    /// (reading what is in the pipe without waiting, and up to [`HELLO_SETTLE`] more for
    /// the rest of a frame that has begun like it). Anything else stays for
    /// [`Pipes::unasked`] to judge.
    fn hello_before_asking(&mut self) {
        let settle = Instant::now() + HELLO_SETTLE;
        loop {
            let inbox = self.pipes.inbox();
            if inbox.len() >= HELLO.len() || !HELLO.starts_with(inbox) {
                break;
            }
            let deadline = if inbox.is_empty() {
                Instant::now()
            } else {
                settle
            };
            if self.pipes.read_more(deadline).is_err() {
                break;
            }
        }
        self.take_hello();
    }

    /// Reads until a whole frame is in the inbox, by `deadline` (a framed `ok` before the
    /// first answer taken on the way).
    fn answer(&mut self, deadline: Instant) -> Result<Point, Failure> {
        loop {
            if self.take_hello() {
                continue;
            }
            match parse_frame(self.pipes.inbox()) {
                Ok(Some((point, size))) => {
                    // Anything after the frame stays for the next move's check.
                    self.pipes.consume(size);
                    self.hello_allowed = false;
                    return Ok(point);
                }
                Ok(None) => {}
                Err(text) => return Err(Failure::Garbage(text)),
            }
            self.pipes.read_more(deadline)?;
        }
    }
}

impl Player<Connect4> for SaibloPlayer {
    fn start(&mut self, _game: &Connect4, setup: &BoardSpec, side: Side) -> Result<(), Fault> {
        if let Err(fault) = &self.program {
            return Err(fault.clone());
        }
        self.side = Some(side);
        if !self.started {
            let BoardSpec { m, n, no_x, no_y } = *setup;
            self.pipes.send(format!("{m} {n} {no_x} {no_y}\n"));
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
            return Answer::fault(fault.clone());
        }
        let start = Instant::now();
        let cpu = CpuMark::read(self.program.as_ref().ok());
        if self.hello_allowed {
            self.hello_before_asking();
        }
        let reply = match self.pipes.unasked() {
            Some(failure) => Err(failure),
            None => {
                self.pipes
                    .send(move_text(position, game.to_move(position), self.form));
                self.answer(start + limit)
            }
        };
        let wall_ms = start.elapsed().as_secs_f64() * 1e3;
        // Read before a fault kills the program.
        let cpu_ms = cpu.spent(self.program.as_ref().ok());
        Answer {
            reply: reply.map_err(|f| program_fault(&mut self.program, f)),
            wall_ms,
            cpu_ms,
        }
    }

    fn peak_memory_kb(&self) -> Option<u64> {
        self.program.as_ref().ok()?.peak_memory_kb()
    }

    fn game_over(&mut self, game: &Connect4, position: &Position, _last: Option<Point>) {
        // The side to move did not make the last move: tell it, as before its moves. (The
        // other side made it, and knows.)
        let side = game.to_move(position);
        if self.program.is_ok() && self.started && self.side == Some(side) {
            self.pipes.send(move_text(position, side, self.form));
        }
    }

    fn stop(&mut self) {
        // Closing stdin lets a well-behaved program end. Its output is read and dropped
        // meanwhile, so that an answer to the last message does not break its pipe; then
        // dropping the process kills its whole group and deletes its scratch directory,
        // whatever it does.
        self.pipes.close_input();
        if let Ok(program) = &mut self.program {
            let deadline = Instant::now() + EXIT_GRACE;
            while self.pipes.read_more(deadline).is_ok() {
                self.pipes.consume(usize::MAX);
            }
            self.exit = program.exit_within(deadline.saturating_duration_since(Instant::now()));
        }
        self.pipes.close();
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
    fn the_nine_forms() {
        let spec = BoardSpec {
            m: 2,
            n: 3,
            no_x: 1,
            no_y: 2,
        };
        let mut p = Connect4.start(&spec);
        assert_eq!(
            move_text(&p, Side::First, Form::Counted),
            "-1 -1 3 2 2 1 6 0 0 0 0 0 0\n"
        );
        assert_eq!(
            move_text(&p, Side::First, Form::Uncounted),
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
            move_text(&p, Side::First, Form::Counted),
            "1 0 3 1 2 1 6 0 0 0 2 0 0\n"
        );
        assert_eq!(
            move_text(&p, Side::First, Form::Uncounted),
            "1 0 1 2 1 0 0 0 2 0 0\n"
        );
        // The other layouts of the view the second mover gets.
        let second = |form| move_text(&p, Side::Second, form);
        assert_eq!(second(Form::Blocks), "1 0\n1 2 1\n0 0 0 1 0 0\n");
        assert_eq!(second(Form::CountedBlocks), "1 0\n3 1 2 1\n6 0 0 0 1 0 0\n");
        assert_eq!(second(Form::CountedSplit), "1 0 3 1 2 1\n6 0 0 0 1 0 0\n");
        assert_eq!(second(Form::CountsApart), "1 0\n3\n1 2 1\n6\n0 0 0 1 0 0\n");
        assert_eq!(
            second(Form::Scattered),
            "1 0\n3\n1\n2\n1\n6\n0\n0\n0\n1\n0\n0\n"
        );
        // Every layout holds the numbers of its kind, whatever the whitespace.
        let numbers = |form| {
            second(form)
                .split_whitespace()
                .map(String::from)
                .collect::<Vec<_>>()
        };
        for (_, form) in Form::SCHEMES {
            let like = match form {
                Form::Last => continue,
                Form::Uncounted | Form::Lines | Form::Blocks => Form::Uncounted,
                _ => Form::Counted,
            };
            assert_eq!(numbers(form), numbers(like), "{form:?}");
            assert!(second(form).ends_with('\n'), "{form:?}");
        }
        for (scheme, form) in Form::SCHEMES {
            assert_eq!(Form::from_scheme(scheme), Some(form));
            assert_eq!(form.scheme(), scheme);
        }
        assert_eq!(Form::from_scheme("gtp"), None);
    }

    #[test]
    fn a_message_may_carry_any_view() {
        // A view that no position has (a stone floating over an empty cell): as given.
        let board = [0, 1, 0, 0, 0, 0];
        assert_eq!(
            message(
                Form::Counted,
                Some(Point { x: 0, y: 1 }),
                &[2, 0, 2],
                &board
            ),
            "0 1 3 2 0 2 6 0 1 0 0 0 0\n"
        );
        assert_eq!(
            message(Form::Lines, None, &[2, 0, 2], &board),
            "-1 -1\n2 0 2\n0 1 0\n0 0 0\n"
        );
    }

    /// A `sh -c` program that logs each line it is sent and answers each with a frame, as a
    /// Saiblo player on 6x7 as `side`, told the game is over after the first mover's drop
    /// in column 0 (as the referee tells it when a move ends the game), then stopped; its
    /// log and how it ended.
    fn told_the_end(side: Side) -> (String, Option<String>) {
        let dir = tempfile::tempdir().unwrap();
        let log = Arc::new(LogSink::open(&dir.path().join("p.log"), 1 << 20).unwrap());
        let settings = ProcessSettings {
            exe: std::path::PathBuf::from("/nonexistent"),
            memory_limit_mb: 0,
        };
        let script = format!("while read line; do echo \"got $line\" >&2; printf '{FIRST}'; done");
        let argv: Vec<String> = ["sh", "-c", &script].map(String::from).to_vec();
        let mut player = SaibloPlayer::launch(&settings, &argv, &[], Form::Last, log);
        let spec = BoardSpec {
            m: 6,
            n: 7,
            no_x: 0,
            no_y: 6,
        };
        let mut position = Connect4.start(&spec);
        player.start(&Connect4, &spec, side).unwrap();
        let mv = position.drop_point(0).unwrap();
        Connect4.play(&mut position, mv);
        player.game_over(&Connect4, &position, Some(mv));
        player.stop();
        let exit = player.exit().map(String::from);
        (
            std::fs::read_to_string(dir.path().join("p.log")).unwrap(),
            exit,
        )
    }

    #[test]
    fn at_the_end_the_side_to_move_is_told_the_last_move_and_both_exit() {
        // Its answers to every line, the last one's too, do not break its pipe: it ends at
        // the end of its input, and everything it wrote is in its log by then.
        let exit = Some("exit status 0".to_string());
        assert_eq!(
            told_the_end(Side::Second),
            ("got 6 7 0 6\ngot 5 0\n".to_string(), exit.clone())
        );
        assert_eq!(
            told_the_end(Side::First),
            ("got 6 7 0 6\n".to_string(), exit)
        );
    }

    /// A `sh -c` program as a Saiblo player on a 6x7 board, asked for its first move (it
    /// moves first, so (5, 0) is legal) after `pause`, then, if it answered, for its second
    /// after the opponent's drop in column 1; each reply or fault.
    fn two_moves(script: &str, pause: Duration) -> Vec<Result<Point, Fault>> {
        let dir = tempfile::tempdir().unwrap();
        let log = Arc::new(LogSink::open(&dir.path().join("p.log"), 1 << 20).unwrap());
        let settings = ProcessSettings {
            exe: std::path::PathBuf::from("/nonexistent"),
            memory_limit_mb: 0,
        };
        let argv: Vec<String> = ["sh", "-c", script].map(String::from).to_vec();
        let mut player = SaibloPlayer::launch(&settings, &argv, &[], Form::Counted, log);
        let spec = BoardSpec {
            m: 6,
            n: 7,
            no_x: 0,
            no_y: 6,
        };
        let mut position = Connect4.start(&spec);
        player.start(&Connect4, &spec, Side::First).unwrap();
        std::thread::sleep(pause);
        let limit = Duration::from_secs(5);
        let mut replies = Vec::new();
        let first = player.next_move(&Connect4, &position, None, limit).reply;
        replies.push(first.clone());
        if let Ok(point) = first {
            Connect4.play(&mut position, point);
            let theirs = position.drop_point(1).unwrap();
            Connect4.play(&mut position, theirs);
            let second = player.next_move(&Connect4, &position, Some(theirs), limit);
            replies.push(second.reply);
        }
        player.stop();
        replies
    }

    const OK: &str = r"\000\000\000\002ok";
    const FIRST: &str = r"\000\000\000\0035 0";
    const SECOND: &str = r"\000\000\000\0034 0";

    #[test]
    fn a_framed_ok_before_the_first_answer_is_taken_silently() {
        let moves = [Ok(Point { x: 5, y: 0 }), Ok(Point { x: 4, y: 0 })];
        let pause = Duration::from_millis(300);
        // At start-up, there before the move is asked (the template's way) or not.
        let early = format!(
            "printf '{OK}'; read s; read m; printf '{FIRST}'; read m; printf '{SECOND}'; sleep 5"
        );
        assert_eq!(two_moves(&early, pause), moves);
        assert_eq!(two_moves(&early, Duration::ZERO), moves);
        // After the move was asked; in the same write as the answer.
        for hello in [
            format!("printf '{OK}'; sleep 0.1;"),
            format!("printf '{OK}';"),
        ] {
            let late = format!(
                "read s; read m; {hello} printf '{FIRST}'; read m; printf '{SECOND}'; sleep 5"
            );
            assert_eq!(two_moves(&late, Duration::ZERO), moves);
        }
    }

    #[test]
    fn an_ok_after_an_answer_or_twice_is_garbage() {
        let garbage = |replies: &[Result<Point, Fault>], what: &str| match replies.last() {
            Some(Err(Fault::Garbage(text))) => assert!(text.contains(what), "{text}"),
            other => panic!("{other:?}"),
        };
        let pause = Duration::from_millis(300);
        // Before the second move is asked: unsolicited. One write, so that it is in the
        // pipe with the answer before the judge can ask again.
        let after = format!("read s; read m; printf '{FIRST}{OK}'; sleep 5");
        let replies = two_moves(&after, pause);
        assert_eq!(replies[0], Ok(Point { x: 5, y: 0 }));
        garbage(&replies, "unsolicited output: 6 bytes");
        // Where the second answer is due: not a move.
        let instead = format!("read s; read m; printf '{FIRST}'; read m; printf '{OK}'; sleep 5");
        garbage(&two_moves(&instead, Duration::ZERO), "frame \"ok\" is not");
        // A second `ok`, before the move is asked or where the answer is due.
        let twice = format!("printf '{OK}{OK}'; read s; read m; printf '{FIRST}'; sleep 5");
        let replies = two_moves(&twice, pause);
        assert_eq!(replies.len(), 1);
        garbage(&replies, "unsolicited output: 6 bytes");
        let twice = format!("read s; read m; printf '{OK}{OK}{FIRST}'; sleep 5");
        let replies = two_moves(&twice, Duration::ZERO);
        assert_eq!(replies.len(), 1);
        garbage(&replies, "frame \"ok\" is not");
        // Something else that begins like it.
        let other = r"printf '\000\000\000\002no'; read s; read m; sleep 5";
        garbage(&two_moves(other, pause), "unsolicited output: 6 bytes");
    }
}
