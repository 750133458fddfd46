//! `judge play LIB`: a person against a library in the terminal.
//!
//! The person is one more [`referee::Player`]; the library is played through the same
//! isolated host as in tournaments ([`HostPlayer`]), so a library that crashes or hangs
//! loses by its verdict and the terminal survives. The finished game can be appended to
//! a games.jsonl in the tournaments' schema, so `judge replay` reads it.

use std::cell::RefCell;
use std::path::Path;
use std::sync::Arc;
use std::time::{Duration, Instant};

use anyhow::{Context, Result, bail};
use rand::{Rng, SeedableRng, rngs::StdRng};

use super::term::{self, Key, Term};
use super::{Cell, Grid, column_key, key_column};
use crate::cli::PlayArgs;
use crate::game_log::{self, GameLog, GameRecord};
use crate::host::{Host, HostConfig, LogSink};
use crate::referee::{self, BoardSpec, Outcome, Reply, Side, Termination, TimedReply, View};
use crate::runner::HostPlayer;
use crate::schedule;

/// Where a game is saved when the person asks at the end (a run directory of its own,
/// so `judge replay runs/play/games.jsonl` finds it).
const DEFAULT_SAVE: &str = "runs/play/games.jsonl";
/// How long to wait for the library's telemetry line after its move arrives: it writes
/// the line before returning, but the judge drains the pipe on another thread.
const TELEMETRY_WAIT: Duration = Duration::from_millis(150);
/// The name the person plays under in the game log.
const HUMAN: &str = "human";

/// What both players draw from: the terminal and the state of the screen.
struct Screen {
    term: Term,
    header: String,
    /// The person's stones.
    human: Cell,
    ai_name: String,
    /// What the library's last move came to (time, iterations, win-rate).
    status: String,
    /// The person pressed `q` (or closed the input).
    quit: bool,
}

impl Screen {
    /// Draws the position as `view`'s mover sees it (2 = mover), with `mover` its side.
    fn frame(&self, view: &View, mover: Cell, lines: &[&str]) {
        let spec = view.spec;
        let other = if mover == Cell::First {
            Cell::Second
        } else {
            Cell::First
        };
        let mut grid = Grid::from_moves(spec, &[]);
        for (i, &v) in view.board.iter().enumerate() {
            let (x, y) = (i as i32 / spec.n, i as i32 % spec.n);
            match v {
                2 => grid.set(x, y, mover),
                1 => grid.set(x, y, other),
                _ => {}
            }
        }
        let last = (view.last_x >= 0).then_some((view.last_x, view.last_y));
        let mut out = String::new();
        self.term.begin_frame(&mut out);
        out.push_str(&self.header);
        out.push_str(&term::draw_board(&grid, last, &[], self.term.color));
        for l in lines.iter().filter(|l| !l.is_empty()) {
            out.push_str(l);
            out.push('\n');
        }
        self.term.show(&out);
    }
}

/// The person at the keyboard.
struct Human<'a> {
    screen: &'a RefCell<Screen>,
}

impl referee::Player for Human<'_> {
    fn get_point(&mut self, view: &View) -> TimedReply {
        let start = Instant::now();
        let mut screen = self.screen.borrow_mut();
        let keys = match view.spec.n {
            n if n <= 10 => format!("0-{}", n - 1),
            11 => "0-9, a".to_string(),
            n => format!("0-9, a-{}", column_key(n - 1)),
        };
        let prompt = if screen.term.raw() {
            format!("Your move: press a column key {keys} (q quits).")
        } else {
            format!("Your move: type a column {keys} and Enter (q quits).")
        };
        let mut hint = String::new();
        screen.term.discard_typeahead();
        let reply = loop {
            let status = screen.status.clone();
            screen.frame(view, screen.human, &[&status, &hint, &prompt]);
            let typed = match screen.term.read_key() {
                Key::Quit => None,
                Key::Char(c) => Some(c.to_string()),
                Key::Line(s) => Some(s),
                Key::Left => Some("←".into()),
                Key::Right => Some("→".into()),
                Key::Home => Some("Home".into()),
                Key::End => Some("End".into()),
                Key::Other(s) => Some(s),
            };
            let Some(typed) = typed else {
                screen.quit = true;
                break Reply::Crash("quit".into());
            };
            if typed.eq_ignore_ascii_case("q") {
                screen.quit = true;
                break Reply::Crash("quit".into());
            }
            let column = match typed.chars().count() {
                1 => typed.chars().next().and_then(key_column),
                _ => typed.parse::<i32>().ok(),
            };
            match column {
                Some(y) if (0..view.spec.n).contains(&y) && view.top[y as usize] > 0 => {
                    break Reply::Point(view.top[y as usize] - 1, y);
                }
                Some(y) if (0..view.spec.n).contains(&y) => {
                    hint = format!("Column {} is full: choose another.", column_key(y));
                }
                _ if typed.is_empty() => hint = format!("Type a column ({keys})."),
                _ => hint = format!("{typed:?} is not a column: use {keys}, or q to quit."),
            }
        };
        TimedReply {
            reply,
            wall_ms: start.elapsed().as_secs_f64() * 1e3,
            cpu_ms: None,
        }
    }
}

/// The library, through its isolated host, with its telemetry read back from the log.
struct Ai<'a> {
    screen: &'a RefCell<Screen>,
    player: HostPlayer<'a>,
    log: Arc<LogSink>,
    /// Wait for a telemetry line: true until a move came without one.
    expect_telemetry: bool,
}

impl referee::Player for Ai<'_> {
    fn get_point(&mut self, view: &View) -> TimedReply {
        // Colour mode redraws the screen in place; a plain transcript (a pipe) gets
        // one board per move, from the person's turn.
        if self.screen.borrow().term.color {
            let s = self.screen.borrow();
            let ai = if s.human == Cell::First {
                Cell::Second
            } else {
                Cell::First
            };
            let thinking = format!("{} is thinking...", s.ai_name);
            s.frame(view, ai, &[&s.status, &thinking]);
        }
        let (lines_before, _) = self.log.last_line();
        let t = self.player.get_point(view);
        let mut telemetry = None;
        let deadline = Instant::now()
            + if self.expect_telemetry {
                TELEMETRY_WAIT
            } else {
                Duration::ZERO
            };
        loop {
            let (lines, line) = self.log.last_line();
            if lines > lines_before && line.contains("gravity4:") {
                telemetry = Some(line);
                break;
            }
            if Instant::now() >= deadline {
                break;
            }
            std::thread::sleep(Duration::from_millis(2));
        }
        self.expect_telemetry = telemetry.is_some();
        let mut s = self.screen.borrow_mut();
        let what = match &t.reply {
            Reply::Point(_, y) if (0..view.spec.n).contains(y) => {
                format!("played column {}", column_key(*y))
            }
            Reply::Point(x, y) => format!("answered the point ({x}, {y})"),
            Reply::Null => "returned NULL".into(),
            Reply::Timeout => "did not answer".into(),
            Reply::Crash(why) => format!("crashed ({why})"),
        };
        s.status = format!("{} {what} in {:.1} ms", s.ai_name, t.wall_ms);
        if let Some(line) = telemetry {
            s.status.push_str(&describe_telemetry(&line));
        }
        t
    }
}

/// ` · 10423 iterations · win-rate 47.1%` from the library's `gravity4: k=v ...` line.
fn describe_telemetry(line: &str) -> String {
    let field = |key: &str| {
        line.split_whitespace()
            .find_map(|kv| kv.strip_prefix(key)?.strip_prefix('='))
    };
    let mut out = String::new();
    if let Some(it) = field("iterations") {
        out.push_str(&format!(" · {it} iterations"));
    }
    if let Some(w) = field("winrate").and_then(|w| w.parse::<f64>().ok()) {
        out.push_str(&format!(" · win-rate {:.1}%", w * 100.0));
    }
    out
}

/// Parses `MxN` (rows by columns).
fn parse_size(text: &str) -> Result<(i32, i32)> {
    let (m, n) = text
        .split_once(['x', 'X', ','])
        .with_context(|| format!("--size {text:?}: expected ROWSxCOLUMNS, e.g. 9x12"))?;
    let parse = |s: &str| {
        s.trim()
            .parse::<i32>()
            .ok()
            .filter(|v| (4..=12).contains(v))
    };
    match (parse(m), parse(n)) {
        (Some(m), Some(n)) => Ok((m, n)),
        _ => bail!("--size {text:?}: rows and columns must each be 4..=12"),
    }
}

/// Picks the board: drawn from the seed like a tournament's board 0, then `--size` and
/// `--blocked` override (a new size without `--blocked` redraws the blocked cell).
fn choose_board(args: &PlayArgs, seed: u64) -> Result<(BoardSpec, u64)> {
    let (mut spec, board_seed) = schedule::board(seed, 0);
    if let Some(size) = &args.size {
        (spec.m, spec.n) = parse_size(size)?;
        let mut rng = StdRng::seed_from_u64(board_seed);
        spec.no_x = rng.random_range(0..spec.m);
        spec.no_y = rng.random_range(0..spec.n);
    }
    if let Some(text) = &args.blocked {
        let cell = text.split_once(',').and_then(|(x, y)| {
            Some((x.trim().parse::<i32>().ok()?, y.trim().parse::<i32>().ok()?))
        });
        match cell {
            Some((x, y)) if (0..spec.m).contains(&x) && (0..spec.n).contains(&y) => {
                (spec.no_x, spec.no_y) = (x, y);
            }
            _ => bail!(
                "--blocked {text:?}: expected ROW,COLUMN inside the {}x{} board (row 0 is the top)",
                spec.m,
                spec.n
            ),
        }
    }
    Ok((spec, board_seed))
}

/// `judge play`.
pub fn run(args: PlayArgs) -> Result<()> {
    let seed = args.seed.unwrap_or_else(|| {
        let t = std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .unwrap_or_default();
        t.as_nanos() as u64 ^ u64::from(std::process::id()) << 32
    });
    let (spec, board_seed) = choose_board(&args, seed)?;
    let entrant = schedule::entrants(std::slice::from_ref(&args.lib))?.remove(0);
    let mut env = entrant.env.clone();
    // Ask the library for its per-move telemetry line, unless the player sets it.
    if !env.iter().any(|(k, _)| k == "GRAVITY4_LOG") {
        env.push(("GRAVITY4_LOG".into(), "1".into()));
    }
    crate::host::sweep_stale_scratch();
    let log_dir = tempfile::tempdir().context("creating a directory for the library's log")?;
    let log = Arc::new(LogSink::open(&log_dir.path().join("ai.log"), 1 << 20)?);
    let config = HostConfig {
        exe: std::env::current_exe().context("locating the judge executable")?,
        memory_limit_mb: args.memory_limit_mb,
    };
    let mut host = Host::start(&config, &entrant.library, &env, log.clone())
        .and_then(|mut h| h.wait_ready().map(|()| h))
        .map_err(|why| anyhow::anyhow!("{} cannot play: {why}", entrant.library.display()))?;

    let human = if args.ai_first {
        Cell::Second
    } else {
        Cell::First
    };
    let ai_cell = if args.ai_first {
        Cell::First
    } else {
        Cell::Second
    };
    let term = Term::open();
    let color = term.color;
    let header = format!(
        "judge play: you {} ({}) against {} {}\nboard {}x{}, blocked cell row {} column {}, seed {seed}\n\n",
        term::stone_label(color, human),
        if args.ai_first { "second" } else { "first" },
        entrant.name,
        term::stone_label(color, ai_cell),
        spec.m,
        spec.n,
        spec.no_x,
        column_key(spec.no_y),
    );
    let screen = RefCell::new(Screen {
        term,
        header,
        human,
        ai_name: entrant.name.clone(),
        status: String::new(),
        quit: false,
    });
    let outcome = {
        let mut person = Human { screen: &screen };
        let mut ai = Ai {
            screen: &screen,
            player: HostPlayer {
                host: &mut host,
                limit: Duration::from_millis(args.move_limit_ms),
            },
            log,
            expect_telemetry: true,
        };
        if args.ai_first {
            referee::play(spec, [&mut ai, &mut person])
        } else {
            referee::play(spec, [&mut person, &mut ai])
        }
    };
    drop(host);
    let mut screen = screen.into_inner();
    let (landed, _) = referee::landing_cells(spec, &outcome.moves);
    let grid = Grid::from_moves(spec, &landed);
    let last = landed.last().copied();
    let line = match (outcome.termination, last) {
        (Termination::Four, Some((x, y))) => grid.line_through(x, y),
        _ => Vec::new(),
    };
    let mut out = String::new();
    screen.term.begin_frame(&mut out);
    out.push_str(&screen.header);
    out.push_str(&term::draw_board(&grid, last, &line, screen.term.color));
    if !screen.status.is_empty() {
        out.push_str(&screen.status);
        out.push('\n');
    }
    let human_side = if args.ai_first {
        Side::Second
    } else {
        Side::First
    };
    if screen.quit {
        out.push_str(&format!(
            "You quit after {} moves; the game is not saved.\n",
            outcome.moves.len()
        ));
        screen.term.show(&out);
        return Ok(());
    }
    out.push_str(&result_text(
        &outcome,
        human_side,
        &entrant.name,
        args.move_limit_ms,
    ));
    out.push('\n');
    let record = GameRecord {
        id: String::new(),
        pairing: 0,
        pair: 0,
        game: u8::from(args.ai_first),
        first: if args.ai_first { &entrant.name } else { HUMAN }.to_string(),
        second: if args.ai_first { HUMAN } else { &entrant.name }.to_string(),
        first_path: if args.ai_first {
            entrant.path.clone()
        } else {
            HUMAN.into()
        },
        second_path: if args.ai_first {
            HUMAN.into()
        } else {
            entrant.path.clone()
        },
        result: game_log::result_string(outcome.winner).to_string(),
        termination: outcome.termination,
        course_code: game_log::course_code(
            outcome.termination,
            outcome.winner.map(Side::other),
            outcome.detail.as_deref(),
        ),
        loser: outcome.winner.map(Side::other),
        detail: outcome.detail.clone(),
        illegal_point: outcome.illegal_point.map(|(x, y)| [x, y]),
        board: spec,
        moves: outcome.moves.clone(),
        move_ms: round3(outcome.move_ms.iter().map(|&v| Some(v)))
            .into_iter()
            .flatten()
            .collect(),
        cpu_ms: round3(outcome.cpu_ms.iter().copied()),
        seed,
        board_seed,
    };
    let save = match args.save {
        Some(path) => Some(path),
        None if screen.term.raw() => {
            out.push_str(&format!(
                "Press s to save the game to {DEFAULT_SAVE}, any other key to leave.\n"
            ));
            screen.term.show(&std::mem::take(&mut out));
            screen.term.discard_typeahead();
            matches!(screen.term.read_key(), Key::Char('s' | 'S')).then(|| DEFAULT_SAVE.into())
        }
        None => None,
    };
    if let Some(path) = save {
        let index = save_game(&path, record)?;
        out.push_str(&format!(
            "Saved as game {index} of {} (judge replay {} --game {index}).\n",
            path.display(),
            path.display()
        ));
    }
    screen.term.show(&out);
    Ok(())
}

fn round3(values: impl Iterator<Item = Option<f64>>) -> Vec<Option<f64>> {
    values
        .map(|v| v.map(|ms| (ms * 1000.0).round() / 1000.0))
        .collect()
}

/// The last line of the game: who won and why.
fn result_text(o: &Outcome, human: Side, ai: &str, limit_ms: u64) -> String {
    let Some(winner) = o.winner else {
        return "Tie: the board is full.".into();
    };
    let you_won = winner == human;
    match (o.termination, you_won) {
        (Termination::Four, true) => "You win: four in a row!".into(),
        (Termination::Four, false) => format!("{ai} wins: four in a row."),
        (t, _) => {
            let why = match (t, &o.detail) {
                (Termination::Timeout, _) => format!("no answer within {limit_ms} ms"),
                (Termination::Null, _) => "getPoint returned NULL".into(),
                (_, Some(d)) => d.clone(),
                (_, None) => String::new(),
            };
            format!("{ai} loses by {} ({why}): you win.", t.name())
        }
    }
}

/// Appends the game to `path` (creating its directory) as the next game of the file;
/// returns its line number, which `judge replay --game` takes.
fn save_game(path: &Path, mut record: GameRecord) -> Result<usize> {
    if let Some(dir) = path.parent().filter(|d| !d.as_os_str().is_empty()) {
        std::fs::create_dir_all(dir).with_context(|| format!("creating {}", dir.display()))?;
    }
    let index = game_log::read(path)?.len();
    record.pair = index as u32;
    record.id = schedule::game_id(0, record.pair, record.game);
    GameLog::open(path)?.append(&record)?;
    Ok(index)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn telemetry_line_is_summarized() {
        let line = "gravity4: ms=201 iterations=10423 nodes=9000 move=4 winrate=0.4713 proof=None reused=0 profile=strong";
        assert_eq!(
            describe_telemetry(line),
            " · 10423 iterations · win-rate 47.1%"
        );
        assert_eq!(describe_telemetry("gravity4: nothing"), "");
    }

    #[test]
    fn sizes_and_blocked_cells_are_checked() {
        assert_eq!(parse_size("9x12").unwrap(), (9, 12));
        assert!(parse_size("3x9").is_err());
        assert!(parse_size("9").is_err());
        let args = |size: Option<&str>, blocked: Option<&str>| PlayArgs {
            lib: "x.so".into(),
            ai_first: false,
            size: size.map(Into::into),
            blocked: blocked.map(Into::into),
            seed: None,
            move_limit_ms: 3000,
            memory_limit_mb: 0,
            save: None,
        };
        let (spec, _) = choose_board(&args(Some("6x7"), Some("5,0")), 1).unwrap();
        assert_eq!((spec.m, spec.n, spec.no_x, spec.no_y), (6, 7, 5, 0));
        let (spec, _) = choose_board(&args(Some("6x7"), None), 1).unwrap();
        assert!(spec.no_x < 6 && spec.no_y < 7);
        assert!(choose_board(&args(Some("6x7"), Some("6,0")), 1).is_err());
        // Without options the board is the tournaments' board 0 of the seed.
        assert_eq!(
            choose_board(&args(None, None), 7).unwrap(),
            schedule::board(7, 0)
        );
    }
}
