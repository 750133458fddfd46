//! `judge play LIB`: a person against a library in the terminal.
//!
//! The person is one more [`Player`] under the same referee as tournaments; the library
//! is the same course-ABI player in its isolated process, so a library that crashes or
//! hangs loses by its verdict and the terminal survives. The finished game can be appended to
//! a games.jsonl in the tournaments' schema, so `judge replay` reads it.

use std::cell::RefCell;
use std::path::PathBuf;
use std::sync::Arc;
use std::time::{Duration, Instant};

use anyhow::Result;

use super::term::{self, Key, Term};
use super::versus::{self, DEFAULT_SAVE, Opponent, Sitting};
use super::{Shown, Typed};
use crate::games::{Cell, Side, Termination};
use crate::players::person::{Moves, Person, Watched, Watcher};
use crate::players::{Answer, Fault, Lineup, LogSink, Player, Roster};
use crate::referee::Outcome;

pub use super::versus::PlayOptions;

/// How long to wait for the library's telemetry line after its move arrives: it writes
/// the line before returning, but the judge drains the pipe on another thread.
const TELEMETRY_WAIT: Duration = Duration::from_millis(150);
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
    /// Draws `position`, its last move marked (after a Reversi opening, the opening's),
    /// with `lines` under the board.
    fn frame<G: Shown>(&self, game: &G, position: &G::Position, lines: &[&str]) {
        let grid = game.grid(position);
        let mut out = String::new();
        self.term.begin_frame(&mut out);
        out.push_str(&self.header);
        out.push_str(&term::draw_board(
            &grid,
            game.last_cell(position),
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

/// The person at the keyboard: the keys typed until they make a move.
struct Keyboard<'a> {
    screen: &'a RefCell<Screen>,
}

impl<G: Shown> Moves<G> for Keyboard<'_> {
    fn next(&mut self, game: &G, position: &G::Position) -> Result<G::Move, String> {
        let mut screen = self.screen.borrow_mut();
        let prompt = game.prompt(position, screen.term.raw());
        let mut hint = String::new();
        // Keys of a move typed so far (a Reversi file letter waiting for its row).
        let mut pending = String::new();
        screen.term.discard_typeahead();
        loop {
            let status = screen.status.clone();
            let typing = if pending.is_empty() {
                String::new()
            } else {
                format!("{pending}_")
            };
            screen.frame(game, position, &[&status, &hint, &prompt, &typing]);
            let key = screen.term.read_key();
            // Enter ends what was typed (a line, or the keys so far in raw mode).
            let entered = matches!(key, Key::Line(_));
            let Some(typed) = key_text(key).filter(|t| !t.eq_ignore_ascii_case("q")) else {
                screen.quit = true;
                return Err("quit".into());
            };
            pending.push_str(&typed);
            hint.clear();
            let read = if entered {
                game.read_entered(position, &pending)
            } else {
                game.read(position, &pending)
            };
            match read {
                Typed::Move(mv) => return Ok(mv),
                // Only a single key can be the start of a move; a whole line is complete.
                Typed::More if screen.term.raw() => continue,
                Typed::More => {
                    hint = format!("{pending:?} is only a column: add the row (like d3).")
                }
                Typed::Bad(why) => hint = why,
            }
            pending.clear();
        }
    }
}

/// What a key adds to the move being typed; `None` for quitting.
fn key_text(key: Key) -> Option<String> {
    match key {
        Key::Quit => None,
        Key::Char(c) => Some(c.to_string()),
        Key::Line(s) => Some(s),
        Key::Left => Some("←".into()),
        Key::Right => Some("→".into()),
        Key::Home => Some("Home".into()),
        Key::End => Some("End".into()),
        Key::Other(s) => Some(s),
    }
}

/// What the person sees of the library's turns: that it is thinking, then what it
/// answered, with its telemetry read back from its log.
struct AiStatus<'a> {
    screen: &'a RefCell<Screen>,
    log: Arc<LogSink>,
    /// Wait for a telemetry line: true until a move came without one.
    expect_telemetry: bool,
    /// Lines in the log when the library was asked.
    lines_before: u64,
}

impl<G: Shown> Watcher<G> for AiStatus<'_> {
    fn asked(&mut self, game: &G, position: &G::Position, _: Side) {
        // Colour mode redraws the screen in place; a plain transcript (a pipe) gets
        // one board per move, from the person's turn.
        if self.screen.borrow().term.color {
            let s = self.screen.borrow();
            let thinking = format!("{} is thinking...", s.ai_name);
            s.frame(game, position, &[&s.status, &thinking]);
        }
        (self.lines_before, _) = self.log.last_line();
    }

    fn answered(&mut self, game: &G, position: &G::Position, _: Side, t: &Answer<G::Move>) {
        let telemetry = self.telemetry();
        self.expect_telemetry = telemetry.is_some();
        let mut s = self.screen.borrow_mut();
        let what = match &t.reply {
            Ok(mv) => game.answered(position, *mv),
            Err(Fault::NoMove) => "returned NULL".into(),
            Err(Fault::Timeout) => "did not answer".into(),
            Err(f) => format!("crashed ({})", f.detail().unwrap_or_default()),
        };
        s.status = format!("{} {what} in {:.1} ms", s.ai_name, t.wall_ms);
        if let Some(line) = telemetry {
            s.status.push_str(&describe_telemetry(&line));
        }
    }
}

impl AiStatus<'_> {
    /// The library's telemetry line for the move it just answered, waited for a little
    /// while a library that writes one is expected to.
    fn telemetry(&self) -> Option<String> {
        let deadline = Instant::now()
            + if self.expect_telemetry {
                TELEMETRY_WAIT
            } else {
                Duration::ZERO
            };
        loop {
            let (lines, line) = self.log.last_line();
            if lines > self.lines_before && line.contains("gravity4:") {
                return Some(line);
            }
            if Instant::now() >= deadline {
                return None;
            }
            std::thread::sleep(Duration::from_millis(2));
        }
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

/// `judge play`.
pub fn run(args: &PlayOptions) -> Result<()> {
    versus::sit_down(args, Terminal(args))
}

/// The person at the terminal.
struct Terminal<'a>(&'a PlayOptions);

impl Sitting for Terminal<'_> {
    fn sit<G: Shown>(self, game: &G, spec: G::Setup, seed: u64, board_seed: u64) -> Result<()>
    where
        Roster: Lineup<G>,
    {
        play_game(game, self.0, seed, spec, board_seed)
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
    let opponent = Opponent::new(&args.lib, game.kind(), args.memory_limit_mb)?;
    let human = if args.ai_first {
        Side::Second
    } else {
        Side::First
    };
    let library = opponent.start(game, &spec, human.other())?;
    let screen = RefCell::new(Screen::open(game, &spec, seed, human, &opponent.name));
    let limit = Duration::from_millis(args.move_limit_ms);
    let outcome = play_out(game, &spec, &screen, library, &opponent, limit);
    let mut screen = screen.into_inner();
    let mut out = screen.last_frame(game, &spec, &outcome);
    if screen.quit {
        out.push_str(&format!(
            "You quit after {} moves; the game is not saved.\n",
            outcome.moves.len()
        ));
        screen.term.show(&out);
        return Ok(());
    }
    out.push_str(&versus::result_text(
        &outcome,
        human,
        &opponent.name,
        args.move_limit_ms,
    ));
    out.push('\n');
    let record = versus::record(&outcome, spec, human, &opponent, seed, board_seed);
    if let Some(path) = screen.where_to_save(args, &mut out) {
        let index = versus::save_game::<G>(&path, record)?;
        out.push_str(&versus::saved_text(&path, index));
        out.push('\n');
    }
    screen.term.show(&out);
    Ok(())
}

/// The game itself: the person at the keyboard against `library`, which the screen
/// follows; the library's process ends with it.
fn play_out<G: Shown>(
    game: &G,
    spec: &G::Setup,
    screen: &RefCell<Screen>,
    mut library: Box<dyn Player<G>>,
    opponent: &Opponent,
    limit: Duration,
) -> Outcome<G> {
    let human = screen.borrow().human;
    let mut person = Person(Keyboard { screen });
    let mut ai = Watched {
        player: &mut *library,
        side: human.other(),
        watcher: AiStatus {
            screen,
            log: opponent.log().clone(),
            expect_telemetry: true,
            lines_before: 0,
        },
    };
    versus::play_against(game, spec, human, &mut person, &mut ai, limit)
}

impl Screen {
    /// The terminal, opened for a game on `spec` (drawn from `seed`) between the person on
    /// `human`'s side and `ai_name`, who has the other.
    fn open<G: Shown>(game: &G, spec: &G::Setup, seed: u64, human: Side, ai_name: &str) -> Screen {
        let term = Term::open();
        let color = term.color;
        let header = format!(
            "judge play: you {} ({}) against {ai_name} {}\n{}, seed {seed}\n\n",
            term::stone_label(color, Cell::of(human), G::STONES),
            if human == Side::Second {
                "second"
            } else {
                "first"
            },
            term::stone_label(color, Cell::of(human.other()), G::STONES),
            game.setup_line(spec),
        );
        Screen {
            term,
            header,
            human,
            ai_name: ai_name.to_string(),
            status: String::new(),
            quit: false,
        }
    }

    /// The finished game's screen: the last position, a four in a row marked, and the
    /// library's last status.
    fn last_frame<G: Shown>(&self, game: &G, spec: &G::Setup, outcome: &Outcome<G>) -> String {
        let (positions, _) = game.replay(spec, &outcome.moves);
        let end = positions.last().expect("the start is always there");
        let grid = game.grid(end);
        let line = match outcome.termination {
            Termination::Four => game.winning_line(end),
            _ => Vec::new(),
        };
        let mut out = String::new();
        self.term.begin_frame(&mut out);
        out.push_str(&self.header);
        out.push_str(&term::draw_board(
            &grid,
            game.last_cell(end),
            &line,
            self.term.color,
            game.labels(),
        ));
        if !self.status.is_empty() {
            out.push_str(&self.status);
            out.push('\n');
        }
        out
    }

    /// Where to save the game: `--save`, or in a terminal [`DEFAULT_SAVE`] if the person
    /// presses `s` when asked (the screen so far, `out`, is shown with the question).
    fn where_to_save(&mut self, args: &PlayOptions, out: &mut String) -> Option<PathBuf> {
        match &args.save {
            Some(path) => Some(path.clone()),
            None if self.term.raw() => {
                out.push_str(&format!(
                    "Press s to save the game to {DEFAULT_SAVE}, any other key to leave.\n"
                ));
                self.term.show(&std::mem::take(out));
                self.term.discard_typeahead();
                matches!(self.term.read_key(), Key::Char('s' | 'S')).then(|| DEFAULT_SAVE.into())
            }
            None => None,
        }
    }
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
}
