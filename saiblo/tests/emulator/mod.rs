//! A local stand-in for the Saiblo platform: it runs programs over pipes through whole games,
//! in each message form and layout the platform might use, and enforces what the platform
//! enforces: the framed `ok` the platform's template sends first (for a program that was not
//! told `--no-hello`), framed replies (4-byte big-endian length, then `x y`), legal moves,
//! and 3 s of wall time per move, the first one counted from the program's start so its
//! start-up is included.

#![allow(dead_code)] // Each test crate uses part of this module.

use gravity4::position::{Position, Side};
use rand::rngs::SmallRng;
use rand::{Rng, SeedableRng};
use std::io::{Read, Write};
use std::path::{Path, PathBuf};
use std::process::{Child, ChildStdin, Command, ExitStatus, Stdio};
use std::sync::mpsc::{Receiver, channel};
use std::thread;
use std::time::{Duration, Instant};

/// The platform's limit per move.
pub const MOVE_LIMIT: Duration = Duration::from_secs(3);

/// How the platform writes a message before each move. The template the platform generates
/// (chengsx21/Connect4's `main.cpp`) reads `lastX lastY`, `top`'s count, `top`, the board's
/// count and the board with `scanf`, so any whitespace between them would do for it: the
/// counted forms below are that message in several layouts.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Form {
    /// `lastX lastY N top... MN board...` on one line: what the template reads, and what
    /// the judge's `saiblo:` sends.
    Counted,
    /// `lastX lastY`, then `N`, `top`, `MN` and the board each on a line of its own.
    CountsOnOwnLines,
    /// `lastX lastY N top...` on one line, `MN board...` on the next.
    CountedTwoLines,
    /// Three lines: the move, `N top...`, `MN board...`.
    CountedLines,
    /// `lastX lastY`, then every number of the counted view on a line of its own.
    Scattered,
    /// `lastX lastY` only (older platform versions).
    MovesOnly,
    /// `lastX lastY top... board...` on one line, without counts.
    OneLine,
    /// `lastX lastY`, then `top` and the board on lines of their own, without counts.
    ThreeLines,
    /// `lastX lastY`, `top`, then one line per board row, without counts (the judge's
    /// `saiblo-lines:`).
    Rows,
}

/// Every form, for tests that cover them all.
pub const FORMS: [Form; 9] = [
    Form::Counted,
    Form::CountsOnOwnLines,
    Form::CountedTwoLines,
    Form::CountedLines,
    Form::Scattered,
    Form::MovesOnly,
    Form::OneLine,
    Form::ThreeLines,
    Form::Rows,
];

/// How to start a program.
#[derive(Clone, Debug)]
pub struct Program {
    /// A name for messages.
    pub name: String,
    /// The executable.
    pub command: PathBuf,
    /// Its arguments.
    pub args: Vec<String>,
    /// Its working directory.
    pub dir: Option<PathBuf>,
    /// Extra environment.
    pub env: Vec<(String, String)>,
    /// Whether its first frame is the `ok` handshake (the default of both programs; off
    /// with `--no-hello` or `SEND_HELLO = False`).
    pub hello: bool,
}

impl Program {
    /// The gravity4-saiblo binary built with these tests, at `budget_ms` per move.
    pub fn binary(budget_ms: u64) -> Program {
        Program {
            name: "gravity4-saiblo".into(),
            command: PathBuf::from(env!("CARGO_BIN_EXE_gravity4-saiblo")),
            args: Vec::new(),
            dir: None,
            env: budget(budget_ms),
            hello: true,
        }
    }

    /// `python3 main.py` in an unpacked package directory, at `budget_ms` per move,
    /// expected to send the `ok` first as its `SEND_HELLO` says (a zip built with
    /// `scripts/saiblo-package.sh --no-hello` does not).
    pub fn python(package: &Path, budget_ms: u64) -> Program {
        Program {
            name: "main.py".into(),
            command: PathBuf::from("python3"),
            args: vec!["main.py".into()],
            dir: Some(package.to_path_buf()),
            env: budget(budget_ms),
            hello: sends_hello(package),
        }
    }

    /// Starts the program with piped stdin, stdout and stderr, in its directory, with its
    /// environment and without the per-move log.
    pub fn spawn(&self) -> Child {
        let mut command = Command::new(&self.command);
        command
            .args(&self.args)
            .envs(self.env.iter().map(|(k, v)| (k, v)))
            // The tests read the telemetry line count on stderr: no per-move log.
            .env_remove("GRAVITY4_LOG")
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped());
        if let Some(dir) = &self.dir {
            command.current_dir(dir);
        }
        command
            .spawn()
            .unwrap_or_else(|e| panic!("cannot start {}: {e}", self.name))
    }
}

/// Whether the `main.py` in `package` sends the `ok` first: its `SEND_HELLO` line.
pub fn sends_hello(package: &Path) -> bool {
    let text = std::fs::read_to_string(package.join("main.py")).expect("main.py is there");
    match (
        text.contains("\nSEND_HELLO = True\n"),
        text.contains("\nSEND_HELLO = False\n"),
    ) {
        (true, false) => true,
        (false, true) => false,
        _ => panic!("main.py sets SEND_HELLO to neither True nor False"),
    }
}

fn budget(ms: u64) -> Vec<(String, String)> {
    vec![("GRAVITY4_MOVE_MS".into(), ms.to_string())]
}

/// A player in an emulated game.
#[derive(Clone, Debug)]
pub enum Player {
    /// A program run over pipes.
    Program(Program),
    /// A uniformly random legal mover inside the emulator.
    Random,
}

/// A board as the platform draws it: `M` rows, `N` columns, blocked cell.
#[derive(Clone, Copy, Debug)]
pub struct Board {
    /// Rows.
    pub rows: usize,
    /// Columns.
    pub cols: usize,
    /// The unplayable cell.
    pub blocked: (usize, usize),
}

impl Board {
    /// The course's draw: sides 9..=12, the blocked cell anywhere.
    pub fn draw(rng: &mut SmallRng) -> Board {
        let rows = rng.random_range(9..=12);
        let cols = rng.random_range(9..=12);
        Board {
            rows,
            cols,
            blocked: (rng.random_range(0..rows), rng.random_range(0..cols)),
        }
    }
}

/// What a program did in one game.
#[derive(Debug)]
pub struct Conduct {
    /// Its name.
    pub name: String,
    /// Exit status after its input was closed.
    pub status: ExitStatus,
    /// Everything it wrote on stderr.
    pub stderr: String,
    /// Time to its first reply, from its start (start-up included).
    pub first_reply: Duration,
    /// The longest time to a reply.
    pub slowest_reply: Duration,
    /// Replies given.
    pub replies: usize,
}

/// How a game ended, from the first player's side.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Outcome {
    /// The first player made four.
    FirstWon,
    /// The second player made four.
    SecondWon,
    /// The board filled up.
    Tie,
}

/// A finished game.
#[derive(Debug)]
pub struct Record {
    /// The result.
    pub outcome: Outcome,
    /// The columns played, in order.
    pub moves: Vec<usize>,
    /// For each player (first, second) that was a program, what it did.
    pub conduct: [Option<Conduct>; 2],
}

/// A running program: its input, its framed replies, its stderr.
struct Running {
    program: Program,
    child: Child,
    stdin: Option<ChildStdin>,
    replies: Receiver<Result<String, String>>,
    stderr: thread::JoinHandle<String>,
    started: Instant,
    first_reply: Option<Duration>,
    slowest_reply: Duration,
    count: usize,
}

impl Running {
    fn start(program: &Program, board: Board) -> Running {
        let started = Instant::now();
        let mut child = program.spawn();
        let stdout = child.stdout.take().unwrap();
        let mut stderr_pipe = child.stderr.take().unwrap();
        let stderr = thread::spawn(move || {
            let mut text = String::new();
            let _ = stderr_pipe.read_to_string(&mut text);
            text
        });
        let (sender, replies) = channel();
        let hello = program.hello;
        thread::spawn(move || read_frames(stdout, hello, sender));
        let mut running = Running {
            program: program.clone(),
            stdin: child.stdin.take(),
            child,
            replies,
            stderr,
            started,
            first_reply: None,
            slowest_reply: Duration::ZERO,
            count: 0,
        };
        let (row, col) = board.blocked;
        running.write(&format!("{} {} {row} {col}\n", board.rows, board.cols));
        running
    }

    fn write(&mut self, text: &str) {
        let stdin = self.stdin.as_mut().expect("input still open");
        if let Err(e) = stdin
            .write_all(text.as_bytes())
            .and_then(|()| stdin.flush())
        {
            self.fail(&format!("closed its input early ({e})"));
        }
    }

    /// Sends one message and waits for the framed reply within the move limit.
    fn ask(&mut self, message: &str) -> (usize, usize) {
        let asked = Instant::now();
        // The first move's clock starts with the program.
        let clock_start = if self.first_reply.is_none() {
            self.started
        } else {
            asked
        };
        self.write(message);
        let reply = self
            .replies
            .recv_timeout(MOVE_LIMIT.saturating_sub(clock_start.elapsed()));
        let took = clock_start.elapsed();
        let text = match reply {
            Ok(Ok(text)) => text,
            Ok(Err(why)) => self.fail(&format!("bad reply stream ({why})")),
            Err(_) => self.fail(&format!("overran {MOVE_LIMIT:?} (message {message:?})")),
        };
        assert!(took <= MOVE_LIMIT, "{} took {took:?}", self.program.name);
        self.first_reply.get_or_insert(took);
        self.slowest_reply = self.slowest_reply.max(took);
        self.count += 1;
        let numbers: Vec<usize> = text
            .split(' ')
            .map(|w| {
                w.parse()
                    .unwrap_or_else(|_| panic!("{}: reply {text:?}", self.program.name))
            })
            .collect();
        let [x, y] = numbers[..] else {
            panic!("{}: reply {text:?} is not `x y`", self.program.name)
        };
        (x, y)
    }

    /// Stops the program and fails the test with what it wrote on stderr.
    fn fail(&mut self, what: &str) -> ! {
        let _ = self.child.kill();
        let handle = std::mem::replace(&mut self.stderr, thread::spawn(String::new));
        let stderr = handle.join().unwrap_or_default();
        panic!("{} {what}; its stderr: {stderr}", self.program.name)
    }

    /// Closes the input and waits (a bounded time) for a clean exit.
    fn finish(mut self) -> Conduct {
        drop(self.stdin.take());
        let deadline = Instant::now() + Duration::from_secs(10);
        let status = loop {
            if let Some(status) = self.child.try_wait().unwrap() {
                break status;
            }
            if Instant::now() > deadline {
                let _ = self.child.kill();
                panic!("{} did not exit after its input closed", self.program.name);
            }
            thread::sleep(Duration::from_millis(5));
        };
        Conduct {
            name: self.program.name.clone(),
            status,
            stderr: self.stderr.join().unwrap_or_default(),
            first_reply: self.first_reply.unwrap_or_default(),
            slowest_reply: self.slowest_reply,
            replies: self.count,
        }
    }
}

/// Reads framed replies and forwards them; enforces the frame on the way. With `hello`, the
/// first frame must be `ok` (the template's handshake), which is not forwarded; without,
/// every frame must be a move.
fn read_frames(
    mut stdout: impl Read,
    hello: bool,
    sender: std::sync::mpsc::Sender<Result<String, String>>,
) {
    let mut first = true;
    loop {
        let mut length = [0u8; 4];
        if stdout.read_exact(&mut length).is_err() {
            let why = if first && hello {
                "output closed before the `ok` handshake"
            } else {
                "output closed"
            };
            let _ = sender.send(Err(why.into()));
            return;
        }
        let length = u32::from_be_bytes(length) as usize;
        let hello_due = std::mem::take(&mut first) && hello;
        let lengths = if hello_due { 2..=2 } else { 3..=5 };
        if !lengths.contains(&length) {
            let what = if hello_due {
                "the `ok` handshake"
            } else {
                "`x y`"
            };
            let _ = sender.send(Err(format!("frame length {length} is not that of {what}")));
            return;
        }
        let mut text = vec![0u8; length];
        if stdout.read_exact(&mut text).is_err() {
            let _ = sender.send(Err("output closed inside a frame".into()));
            return;
        }
        if hello_due {
            if text != b"ok" {
                let _ = sender.send(Err(format!(
                    "first frame {:?} is not the `ok` handshake",
                    String::from_utf8_lossy(&text)
                )));
                return;
            }
            continue;
        }
        let reply = String::from_utf8(text).map_err(|_| "reply is not text".to_string());
        if sender.send(reply).is_err() {
            return;
        }
    }
}

/// The message telling `side` about the opponent's last move, in `form`, with `top` and the
/// board from `side`'s point of view (1 opponent, 2 own).
fn message(form: Form, position: &Position, side: Side, last: Option<(usize, usize)>) -> String {
    let last = last.map_or((-1, -1), |(x, y)| (x as i64, y as i64));
    let cols = position.cols();
    let top: Vec<i64> = (0..cols).map(|c| position.top(c) as i64).collect();
    let board: Vec<i64> = (0..position.rows() * cols)
        .map(|i| match position.stone(i / cols, i % cols) {
            None => 0,
            Some(s) if s == side => 2,
            Some(_) => 1,
        })
        .collect();
    layout(form, last, &top, &board)
}

/// The message of the move `last`, `top` and `board` (row-major, `top.len()` columns) in
/// `form`, for tests that write views of their own.
pub fn layout(form: Form, last: (i64, i64), top: &[i64], board: &[i64]) -> String {
    let (x, y) = last;
    let (cols, cells) = (top.len(), board.len());
    let join = |v: &[i64]| v.iter().map(i64::to_string).collect::<Vec<_>>().join(" ");
    let rows: Vec<String> = board.chunks(cols).map(join).collect();
    let (top, board) = (join(top), join(board));
    match form {
        Form::Counted => format!("{x} {y} {cols} {top} {cells} {board}\n"),
        Form::CountsOnOwnLines => format!("{x} {y}\n{cols}\n{top}\n{cells}\n{board}\n"),
        Form::CountedTwoLines => format!("{x} {y} {cols} {top}\n{cells} {board}\n"),
        Form::CountedLines => format!("{x} {y}\n{cols} {top}\n{cells} {board}\n"),
        Form::Scattered => {
            let view = format!("{cols} {top} {cells} {board}");
            format!(
                "{x} {y}\n{}\n",
                view.split(' ').collect::<Vec<_>>().join("\n")
            )
        }
        Form::MovesOnly => format!("{x} {y}\n"),
        Form::OneLine => format!("{x} {y} {top} {board}\n"),
        Form::ThreeLines => format!("{x} {y}\n{top}\n{board}\n"),
        Form::Rows => format!("{x} {y}\n{top}\n{}\n", rows.join("\n")),
    }
}

/// Plays one game between `first` and `second` on `board` in message form `form`.
///
/// Panics on any breach: a bad frame, an illegal move, a reply later than 3 s. When a move
/// ends the game, the other program is told the move (in the same form) before its input
/// closes, so that both know the game is over and can exit 0.
pub fn play(first: &Player, second: &Player, board: Board, form: Form, seed: u64) -> Record {
    let mut rng = SmallRng::seed_from_u64(seed);
    let mut position = Position::new(board.rows, board.cols, board.blocked.0, board.blocked.1)
        .expect("a valid board");
    let players = [first, second];
    let mut running: [Option<Running>; 2] = [None, None];
    let mut last: Option<(usize, usize)> = None;
    let mut moves = Vec::new();
    let outcome = loop {
        let turn = moves.len() % 2;
        let side = if turn == 0 { Side::Us } else { Side::Them };
        let col = match players[turn] {
            Player::Random => {
                let open: Vec<usize> = (0..board.cols).filter(|&c| position.can_play(c)).collect();
                open[rng.random_range(0..open.len())]
            }
            Player::Program(program) => {
                let running = running[turn].get_or_insert_with(|| Running::start(program, board));
                let (x, y) = running.ask(&message(form, &position, side, last));
                assert!(
                    position.can_play(y) && position.landing_row(y) == x,
                    "{} played illegal ({x}, {y}) after {moves:?} on {board:?}",
                    program.name
                );
                y
            }
        };
        let row = position.landing_row(col);
        moves.push(col);
        last = Some((row, col));
        let won = position.play(col);
        if won || position.empty_cells() == 0 {
            // Tell the other program the final move, if it is running (a program that never
            // moved has not been started).
            if let Some(other) = running[1 - turn].as_mut() {
                other.write(&message(form, &position, side.other(), last));
            }
            break match (won, turn) {
                (true, 0) => Outcome::FirstWon,
                (true, _) => Outcome::SecondWon,
                (false, _) => Outcome::Tie,
            };
        }
    };
    let [a, b] = running;
    Record {
        outcome,
        moves,
        conduct: [a.map(Running::finish), b.map(Running::finish)],
    }
}

/// Asserts a program's clean exit after a finished game: status 0, no panic text.
pub fn assert_clean(conduct: &Conduct) {
    assert!(
        conduct.status.success(),
        "{} exited {:?}; stderr: {}",
        conduct.name,
        conduct.status,
        conduct.stderr
    );
    assert!(
        !conduct.stderr.contains("panicked") && !conduct.stderr.contains("Traceback"),
        "{}: {}",
        conduct.name,
        conduct.stderr
    );
}

/// Where the package to test is: the zip in `GRAVITY4_SAIBLO_ZIP` unpacked into a scratch
/// directory, or else `package/main.py` beside the release cdylib (the file users ship),
/// which is built first when the target directory under test has none (the suite's own
/// profile, `ci`, does not make it).
pub fn package() -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    if let Some(zip) = std::env::var_os("GRAVITY4_SAIBLO_ZIP") {
        let status = Command::new("python3")
            .args(["-m", "zipfile", "-e"])
            .arg(&zip)
            .arg(dir.path())
            .status()
            .expect("python3 runs");
        assert!(status.success(), "cannot unzip {zip:?}");
        return dir;
    }
    let main = Path::new(env!("CARGO_MANIFEST_DIR")).join("package/main.py");
    std::fs::copy(main, dir.path().join("main.py")).unwrap();
    std::fs::copy(release_library(), dir.path().join("libgravity4.so")).unwrap();
    dir
}

/// `<target>/release/libgravity4.so` of the target directory these tests were built in,
/// built (once per test binary) with `cargo build --release --lib -p gravity4`; cargo's
/// lock keeps two binaries building it at once from clashing.
fn release_library() -> PathBuf {
    static BUILT: std::sync::OnceLock<PathBuf> = std::sync::OnceLock::new();
    BUILT
        .get_or_init(|| {
            // The program is at <target>/<profile>/gravity4-saiblo.
            let target = Path::new(env!("CARGO_BIN_EXE_gravity4-saiblo"))
                .ancestors()
                .nth(2)
                .expect("<target>/<profile>/gravity4-saiblo")
                .to_path_buf();
            let status = Command::new(env!("CARGO"))
                .args(["build", "--release", "--lib", "-p", "gravity4", "--quiet"])
                .arg("--target-dir")
                .arg(&target)
                .current_dir(Path::new(env!("CARGO_MANIFEST_DIR")))
                .status()
                .expect("run cargo build");
            assert!(
                status.success(),
                "cargo build --release --lib -p gravity4 failed"
            );
            let library = target.join("release").join("libgravity4.so");
            assert!(library.exists(), "no cdylib at {}", library.display());
            library
        })
        .clone()
}

/// Starts `program` on `board`, sends the first message of a game (the program moving first,
/// or second after the opponent's drop in the middle column) and returns the time to its
/// reply from the program's start, then closes its input and returns what it did.
pub fn first_reply(program: &Program, board: Board, form: Form, moves_first: bool) -> Conduct {
    let mut position = Position::new(board.rows, board.cols, board.blocked.0, board.blocked.1)
        .expect("a valid board");
    let mut last = None;
    let mut side = Side::Us;
    if !moves_first {
        let col = (0..board.cols)
            .filter(|&c| position.can_play(c))
            .min_by_key(|&c| c.abs_diff(board.cols / 2))
            .unwrap();
        last = Some((position.landing_row(col), col));
        position.play(col);
        side = Side::Them;
    }
    let mut running = Running::start(program, board);
    let (x, y) = running.ask(&message(form, &position, side, last));
    assert!(position.can_play(y) && position.landing_row(y) == x);
    running.finish()
}
