//! `judge play LIB`: a person against a library in the terminal.
//!
//! The person is one more [`Player`] under the same referee as tournaments; the library
//! is the same course-ABI player in its isolated process, so a library that crashes or
//! hangs loses by its verdict and the terminal survives. The finished game can be appended to
//! a games.jsonl in the tournaments' schema, so `judge replay` reads it.

use std::cell::RefCell;
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::{Duration, Instant};

use anyhow::{Context, Result, bail};
use rand::{Rng, SeedableRng, rngs::StdRng};

use super::term::{self, Key, Term};
use super::{Shown, Typed};
use crate::games::connect4::{BoardSpec, Connect4};
use crate::games::reversi::Reversi;
use crate::games::{Cell, Game, GameKind, Side, Termination};
use crate::players::{Answer, Fault, Lineup, LogSink, Player, ProcessSettings, Roster};
use crate::record::{GameLog, GameRecord, GameResult, course_code, round_ms};
use crate::referee::{self, Outcome};
use crate::schedule;

/// Where a game is saved when the person asks at the end (a run directory of its own,
/// so `judge replay runs/play/games.jsonl` finds it).
const DEFAULT_SAVE: &str = "runs/play/games.jsonl";
/// How long to wait for the library's telemetry line after its move arrives: it writes
/// the line before returning, but the judge drains the pipe on another thread.
const TELEMETRY_WAIT: Duration = Duration::from_millis(150);
/// The name the person plays under in the game log.
const HUMAN: &str = "human";

/// What `judge play` is asked to do.
#[derive(Debug, Clone)]
pub struct PlayOptions {
    /// The game (`--game`, `--rule`).
    pub game: GameKind,
    /// The library to play against (`LIB.so` or `LIB.so@KEY=VALUE,...`).
    pub lib: PathBuf,
    /// Let the library move first.
    pub ai_first: bool,
    /// Board size `MxN` (each 4..=12; default: drawn from the seed). Connect-4 only.
    pub size: Option<String>,
    /// The blocked cell `X,Y`, row 0 on top (default: drawn from the seed). Connect-4 only.
    pub blocked: Option<String>,
    /// Seed for the board draw (default: random, printed).
    pub seed: Option<u64>,
    /// Wall-clock limit per library move, ms.
    pub move_limit_ms: u64,
    /// Address-space limit of the library's process, MiB (0: none).
    pub memory_limit_mb: u64,
    /// Append the finished game to this games.jsonl without asking.
    pub save: Option<PathBuf>,
}

/// What both players draw from: the terminal and the state of the screen.
struct Screen {
    term: Term,
    header: String,
    /// The person's side.
    human: Side,
    ai_name: String,
    /// What the library's last move came to (time, iterations, win-rate).
    status: String,
    /// The person pressed `q` (or closed the input).
    quit: bool,
}

impl Screen {
    /// Draws `position` with `lines` under the board; `last` is the cell of the last
    /// move, if it marked one.
    fn frame<G: Shown>(
        &self,
        game: &G,
        position: &G::Position,
        last: Option<(i32, i32)>,
        lines: &[&str],
    ) {
        let grid = game.grid(position);
        let mut out = String::new();
        self.term.begin_frame(&mut out);
        out.push_str(&self.header);
        out.push_str(&term::draw_board(
            &grid,
            last,
            &[],
            self.term.color,
            game.labels(),
        ));
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
    /// The cell of the last move played, to highlight it.
    last: &'a std::cell::Cell<Option<(i32, i32)>>,
}

impl<G: Shown> Player<G> for Human<'_> {
    fn start(&mut self, _: &G, _: &G::Setup, _: Side) -> Result<(), Fault> {
        Ok(())
    }

    fn next_move(
        &mut self,
        game: &G,
        position: &G::Position,
        _: Option<G::Move>,
        _: Duration,
    ) -> Answer<G::Move> {
        let start = Instant::now();
        let mut screen = self.screen.borrow_mut();
        let prompt = game.prompt(position, screen.term.raw());
        let mut hint = String::new();
        // Keys of a move typed so far (a Reversi file letter waiting for its row).
        let mut pending = String::new();
        screen.term.discard_typeahead();
        let reply = loop {
            let status = screen.status.clone();
            let typing = if pending.is_empty() {
                String::new()
            } else {
                format!("{pending}_")
            };
            screen.frame(
                game,
                position,
                self.last.get(),
                &[&status, &hint, &prompt, &typing],
            );
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
            let Some(typed) = typed.filter(|t| !t.eq_ignore_ascii_case("q")) else {
                screen.quit = true;
                break Err(Fault::Crash("quit".into()));
            };
            pending.push_str(&typed);
            hint.clear();
            match game.read(position, &pending) {
                Typed::Move(mv) => {
                    self.last.set(game.move_cell(position, mv));
                    break Ok(mv);
                }
                // Only a single key can be the start of a move; a whole line is complete.
                Typed::More if screen.term.raw() => continue,
                Typed::More => {
                    hint = format!("{pending:?} is only a column: add the row (like d3).")
                }
                Typed::Bad(why) => hint = why,
            }
            pending.clear();
        };
        Answer {
            reply,
            wall_ms: start.elapsed().as_secs_f64() * 1e3,
            cpu_ms: None,
        }
    }
}

/// The library, through its isolated player, with its telemetry read back from its log.
struct Ai<'a, G: Game> {
    screen: &'a RefCell<Screen>,
    last: &'a std::cell::Cell<Option<(i32, i32)>>,
    player: Box<dyn Player<G>>,
    log: Arc<LogSink>,
    /// Wait for a telemetry line: true until a move came without one.
    expect_telemetry: bool,
}

impl<G: Shown> Player<G> for Ai<'_, G> {
    fn start(&mut self, game: &G, setup: &G::Setup, side: Side) -> Result<(), Fault> {
        self.player.start(game, setup, side)
    }

    fn next_move(
        &mut self,
        game: &G,
        position: &G::Position,
        last: Option<G::Move>,
        limit: Duration,
    ) -> Answer<G::Move> {
        // Colour mode redraws the screen in place; a plain transcript (a pipe) gets
        // one board per move, from the person's turn.
        if self.screen.borrow().term.color {
            let s = self.screen.borrow();
            let thinking = format!("{} is thinking...", s.ai_name);
            s.frame(game, position, self.last.get(), &[&s.status, &thinking]);
        }
        let (lines_before, _) = self.log.last_line();
        let t = self.player.next_move(game, position, last, limit);
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
            Ok(mv) => {
                if game.is_legal(position, *mv) {
                    self.last.set(game.move_cell(position, *mv));
                }
                game.answered(position, *mv)
            }
            Err(Fault::NoMove) => "returned NULL".into(),
            Err(Fault::Timeout) => "did not answer".into(),
            Err(f) => format!("crashed ({})", f.detail().unwrap_or_default()),
        };
        s.status = format!("{} {what} in {:.1} ms", s.ai_name, t.wall_ms);
        if let Some(line) = telemetry {
            s.status.push_str(&describe_telemetry(&line));
        }
        t
    }

    fn stop(&mut self) {
        self.player.stop();
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
fn choose_board(args: &PlayOptions, seed: u64) -> Result<(BoardSpec, u64)> {
    let (mut spec, board_seed) = schedule::board(&Connect4, seed, 0);
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
pub fn run(args: &PlayOptions) -> Result<()> {
    let seed = args.seed.unwrap_or_else(|| {
        let t = std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .unwrap_or_default();
        t.as_nanos() as u64 ^ u64::from(std::process::id()) << 32
    });
    match args.game {
        GameKind::Connect4 => {
            let (spec, board_seed) = choose_board(args, seed)?;
            play_game(&Connect4, args, seed, spec, board_seed)
        }
        GameKind::Reversi(rule) => {
            if args.size.is_some() || args.blocked.is_some() {
                bail!(
                    "--size and --blocked shape a Connect-4 board; Reversi is 8x8 from an opening drawn from --seed"
                );
            }
            let game = Reversi { rule };
            let (setup, board_seed) = schedule::board(&game, seed, 0);
            play_game(&game, args, seed, setup, board_seed)
        }
    }
}

/// `judge play` on `setup`, drawn from `seed` (as `board_seed`).
fn play_game<G: Shown>(
    game: &G,
    args: &PlayOptions,
    seed: u64,
    spec: G::Setup,
    board_seed: u64,
) -> Result<()>
where
    Roster: Lineup<G>,
{
    let mut entrant = schedule::entrants(std::slice::from_ref(&args.lib))?.remove(0);
    if let Err(why) = entrant
        .spec
        .check()
        .and_then(|()| entrant.spec.can_play(game.kind()))
    {
        anyhow::bail!("player {}: {why}", args.lib.display());
    }
    // Ask the library for its per-move telemetry line, unless the player sets it.
    entrant.spec.set_default_env("GRAVITY4_LOG", "1");
    crate::players::sweep_stale_scratch();
    let log_dir = tempfile::tempdir().context("creating a directory for the player's log")?;
    let log = Arc::new(LogSink::open(&log_dir.path().join("ai.log"), 1 << 20)?);
    let settings =
        ProcessSettings::current(args.memory_limit_mb).context("locating the judge executable")?;
    let ai_side = if args.ai_first {
        Side::First
    } else {
        Side::Second
    };
    let human = ai_side.other();
    let roster = Roster::new(vec![entrant.spec.clone()], vec![log.clone()], settings);
    let mut library = Lineup::<G>::open(&roster, 0);
    library.start(game, &spec, ai_side).map_err(|why| {
        anyhow::anyhow!(
            "{} cannot play: {}",
            entrant.spec.file().display(),
            why.detail().unwrap_or_default()
        )
    })?;

    let term = Term::open();
    let color = term.color;
    let header = format!(
        "judge play: you {} ({}) against {} {}\n{}, seed {seed}\n\n",
        term::stone_label(color, Cell::of(human), G::STONES),
        if args.ai_first { "second" } else { "first" },
        entrant.name,
        term::stone_label(color, Cell::of(ai_side), G::STONES),
        game.setup_line(&spec),
    );
    let screen = RefCell::new(Screen {
        term,
        header,
        human,
        ai_name: entrant.name.clone(),
        status: String::new(),
        quit: false,
    });
    let limit = Duration::from_millis(args.move_limit_ms);
    let last = std::cell::Cell::new(None);
    let outcome = {
        let mut person = Human {
            screen: &screen,
            last: &last,
        };
        let mut ai = Ai {
            screen: &screen,
            last: &last,
            player: library,
            log,
            expect_telemetry: true,
        };
        if args.ai_first {
            referee::play(game, &spec, [&mut ai, &mut person], limit)
        } else {
            referee::play(game, &spec, [&mut person, &mut ai], limit)
        }
        // The library's process ends here, with `ai`.
    };
    let mut screen = screen.into_inner();
    let (positions, landed) = game.replay(&spec, &outcome.moves);
    let end = positions.last().expect("the start is always there");
    let grid = game.grid(end);
    let last = landed.last().copied().flatten();
    let line = match outcome.termination {
        Termination::Four => game.winning_line(end),
        _ => Vec::new(),
    };
    let mut out = String::new();
    screen.term.begin_frame(&mut out);
    out.push_str(&screen.header);
    out.push_str(&term::draw_board(
        &grid,
        last,
        &line,
        screen.term.color,
        game.labels(),
    ));
    if !screen.status.is_empty() {
        out.push_str(&screen.status);
        out.push('\n');
    }
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
        screen.human,
        &entrant.name,
        args.move_limit_ms,
    ));
    out.push('\n');
    let (first, second) = if args.ai_first {
        (
            (entrant.name.clone(), entrant.path.clone()),
            (HUMAN.to_string(), HUMAN.into()),
        )
    } else {
        (
            (HUMAN.to_string(), HUMAN.into()),
            (entrant.name.clone(), entrant.path.clone()),
        )
    };
    let loser = outcome.winner.map(Side::other);
    let record = GameRecord {
        id: String::new(),
        pairing: 0,
        pair: 0,
        game: u8::from(args.ai_first),
        first: first.0,
        second: second.0,
        first_path: first.1,
        second_path: second.1,
        result: GameResult::of(outcome.winner),
        termination: outcome.termination,
        course_code: course_code(outcome.termination, loser, outcome.detail.as_deref()),
        loser,
        detail: outcome.detail.clone(),
        illegal_point: outcome.illegal_point,
        board: spec,
        moves: outcome.moves.clone(),
        move_ms: outcome.move_ms.iter().map(|&ms| round_ms(ms)).collect(),
        cpu_ms: outcome.cpu_ms.iter().map(|c| c.map(round_ms)).collect(),
        seed,
        board_seed,
        margin: outcome.margin,
    };
    let save = match &args.save {
        Some(path) => Some(path.clone()),
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
        let index = save_game::<G>(&path, record)?;
        out.push_str(&format!(
            "Saved as game {index} of {} (judge replay {} --game {index}).\n",
            path.display(),
            path.display()
        ));
    }
    screen.term.show(&out);
    Ok(())
}

/// The last line of the game: who won and why.
fn result_text<G: Game>(o: &Outcome<G>, human: Side, ai: &str, limit_ms: u64) -> String {
    let Some(winner) = o.winner else {
        return match o.termination {
            Termination::Discs => "Draw: equal discs.".into(),
            _ => "Tie: the board is full.".into(),
        };
    };
    let you_won = winner == human;
    let by = o.margin.unwrap_or(0);
    match (o.termination, you_won) {
        (Termination::Four, true) => "You win: four in a row!".into(),
        (Termination::Four, false) => format!("{ai} wins: four in a row."),
        (Termination::Discs, true) => format!("You win by {by} discs!"),
        (Termination::Discs, false) => format!("{ai} wins by {by} discs."),
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
fn save_game<G: Game>(path: &Path, mut record: GameRecord<G>) -> Result<usize> {
    if let Some(dir) = path.parent().filter(|d| !d.as_os_str().is_empty()) {
        std::fs::create_dir_all(dir).with_context(|| format!("creating {}", dir.display()))?;
    }
    let index = crate::record::read::<G>(path)?.len();
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
        let args = |size: Option<&str>, blocked: Option<&str>| PlayOptions {
            game: GameKind::Connect4,
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
            schedule::board(&Connect4, 7, 0)
        );
    }
}
