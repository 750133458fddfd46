//! GTP v2 for Othello, as Othello GTP engines speak it.
//!
//! Coordinates are Othello notation: files `a`..`h` left to right, rows `1`..`8` top to
//! bottom (a1 is the top-left corner); a move is a coordinate or `pass`; colours are `b`,
//! `w`, `black`, `white` in any case. Responses are `= ...` or `? ...` followed by a blank
//! line, with the command's id echoed. `genmove` answers in lower case (`d3`, `pass`).
//!
//! When a controller sends a move or asks for one for the side not to move while the side to
//! move has to pass, the pass is played first: controllers differ on whether they send the
//! forced passes, and both ways must work. `undo` takes back such a pass together with the
//! move that followed it, so the controller's history and ours stay in step.
//!
//! The wire is the `gtp-wire` crate's ([`gtp_wire`], shared with the Go engine and the
//! judge): lines are read as bytes and preprocessed as GTP 2 section 3.1 says (control
//! characters and comments dropped, blank lines unanswered), so a controller may send other
//! encodings in comments, and a byte that is not UTF-8 is answered `?`, never the end of the
//! session. Command names are taken in any case; an id alone on a line is answered as an
//! unknown command. `list_games`/`set_game` (Quarry's extension, also in gtp-rhino and
//! Edax) say the game is Othello.

use std::io::{self, BufRead, Write};

use gtp_wire::{Command, GtpError, Vertex, format_error, format_response, parse_float, parse_int};

use super::Player;
use crate::bitboard::Square;
use crate::position::{Color, Move, Position, Rule};

/// The commands we answer, in `list_commands` order.
pub const COMMANDS: &[&str] = &[
    "protocol_version",
    "name",
    "version",
    "known_command",
    "list_commands",
    "list_games",
    "set_game",
    "boardsize",
    "clear_board",
    "komi",
    "play",
    "genmove",
    "undo",
    "final_score",
    "showboard",
    "time_settings",
    "time_left",
    "quit",
];

/// Time left for one colour, as `time_left` reports it.
#[derive(Clone, Copy, Debug)]
struct Clock {
    seconds: f64,
    /// Moves to play in that time (byo-yomi period); 0 means the rest of the game.
    stones: u32,
}

/// A GTP session: the game so far and the player.
pub struct Gtp {
    rule: Rule,
    pos: Position,
    /// The position before each `play` or `genmove`, for `undo` (one entry per command, a
    /// forced pass played for the controller included).
    history: Vec<Position>,
    player: Player,
    clocks: [Option<Clock>; 2],
    /// `time_settings` main time and byo-yomi (seconds, seconds, stones), if sent.
    time_settings: Option<(f64, f64, u32)>,
}

/// One answer: success or failure, and its text.
#[derive(Debug, PartialEq, Eq)]
pub struct Reply {
    /// `=` when true, `?` when false.
    pub ok: bool,
    /// The text after the status (may span lines).
    pub text: String,
}

impl Reply {
    fn ok(text: impl Into<String>) -> Reply {
        Reply {
            ok: true,
            text: text.into(),
        }
    }

    fn err(text: impl Into<String>) -> Reply {
        Reply {
            ok: false,
            text: text.into(),
        }
    }
}

fn colour_index(c: Color) -> usize {
    match c {
        Color::Black => 0,
        Color::White => 1,
    }
}

/// A GTP colour (`b`, `w`, `black`, `white`, any case).
fn parse_colour(text: &str) -> Option<Color> {
    match gtp_wire::parse_color(text).ok()? {
        gtp_wire::Color::Black => Some(Color::Black),
        gtp_wire::Color::White => Some(Color::White),
    }
}

/// A GTP vertex on the 8x8 board in Othello notation (row 1 at the top), or `pass`.
fn parse_move(text: &str) -> Option<Move> {
    match gtp_wire::parse_vertex(text, 8).ok()? {
        Vertex::Pass => Some(Move::Pass),
        Vertex::Point { column, row } => {
            Square::from_row_col(row as u8, column as u8).map(Move::Play)
        }
    }
}

/// A move as Othello engines write it: a lower-case vertex (`d3`) or `pass`.
fn move_text(mv: Move) -> String {
    match mv {
        Move::Pass => Vertex::Pass,
        Move::Play(sq) => Vertex::Point {
            column: usize::from(sq.col()),
            row: usize::from(sq.row()),
        },
    }
    .lowercase()
}

impl Gtp {
    /// A session at the start position under `rule`.
    pub fn new(rule: Rule, player: Player) -> Gtp {
        Gtp {
            rule,
            pos: Position::start(rule),
            history: Vec::new(),
            player,
            clocks: [None, None],
            time_settings: None,
        }
    }

    /// The current position.
    pub fn position(&self) -> &Position {
        &self.pos
    }

    /// Reads commands until `quit` or the end of input, answering each.
    pub fn run<R: BufRead, W: Write>(&mut self, input: R, output: W) -> io::Result<()> {
        gtp_wire::serve(input, output, |read| match read {
            Ok(command) => Some(self.answer(&command)),
            // The controller waits for an answer to an id alone: an empty command.
            Err(GtpError::MissingCommand { id }) => {
                Some((format_response(Some(id), Err("unknown command")), false))
            }
            Err(e) => format_error(&e).map(|text| (text, false)),
        })
    }

    /// The response to one command (its name in any case), and whether it ends the session.
    fn answer(&mut self, command: &Command) -> (String, bool) {
        let name = command.name.to_ascii_lowercase();
        let args: Vec<&str> = command.args.iter().map(String::as_str).collect();
        let reply = self.handle(&name, &args);
        let result = if reply.ok {
            Ok(reply.text.as_str())
        } else {
            Err(reply.text.as_str())
        };
        (format_response(command.id, result), name == "quit")
    }

    /// Answers one command (lower-cased name, arguments): each group of commands answers
    /// its own, `None` for the others.
    pub fn handle(&mut self, command: &str, args: &[&str]) -> Reply {
        self.identify(command, args)
            .or_else(|| self.set_up(command, args))
            .or_else(|| self.moves(command, args))
            .or_else(|| self.time(command, args))
            .unwrap_or_else(|| Reply::err("unknown command"))
    }

    /// The administrative commands: who the engine is, what it knows, which game it plays.
    fn identify(&self, command: &str, args: &[&str]) -> Option<Reply> {
        Some(match command {
            "protocol_version" => Reply::ok("2"),
            "name" => Reply::ok("reversi"),
            "version" => Reply::ok(format!(
                "{} ({})",
                env!("CARGO_PKG_VERSION"),
                self.player.engine.name()
            )),
            "known_command" => Reply::ok(
                args.first()
                    .is_some_and(|c| COMMANDS.contains(&c.to_ascii_lowercase().as_str()))
                    .to_string(),
            ),
            "list_commands" => Reply::ok(COMMANDS.join("\n")),
            "list_games" => Reply::ok("Othello"),
            "set_game" => match args.join(" ").to_ascii_lowercase().as_str() {
                "othello" | "reversi" => Reply::ok(""),
                _ => Reply::err("unsupported game"),
            },
            "quit" => Reply::ok(""),
            _ => return None,
        })
    }

    /// The game's setting: the board (8x8 only), a new game, komi (taken and ignored).
    fn set_up(&mut self, command: &str, args: &[&str]) -> Option<Reply> {
        Some(match command {
            "boardsize" => match args.first().map(|s| parse_int(s)) {
                Some(Ok(8)) => Reply::ok(""),
                Some(Ok(_)) => Reply::err("unacceptable size"),
                _ => Reply::err("syntax error: boardsize needs a number"),
            },
            "clear_board" => {
                self.pos = Position::start(self.rule);
                self.history.clear();
                self.clocks = [None, None];
                self.player.engine.new_game();
                Reply::ok("")
            }
            "komi" => match args.first().map(|s| parse_float(s)) {
                Some(Ok(_)) => Reply::ok(""),
                _ => Reply::err("syntax error: komi needs a number"),
            },
            _ => return None,
        })
    }

    /// The moves and the board: `play`, `genmove`, `undo`, the score and the board shown.
    fn moves(&mut self, command: &str, args: &[&str]) -> Option<Reply> {
        Some(match command {
            "play" => self.play(args),
            "genmove" => self.genmove(args),
            "undo" => match self.history.pop() {
                Some(p) => {
                    self.pos = p;
                    Reply::ok("")
                }
                None => Reply::err("cannot undo"),
            },
            // A finished game as Othello GTP engines score it (the empty squares to the
            // winner); before the end, the discs on the board.
            "final_score" => Reply::ok(if self.pos.is_game_over() {
                self.pos.score().empties_to_winner().score_string()
            } else {
                self.pos.score().score_string()
            }),
            "showboard" => Reply::ok(format!("\n{}", self.pos)),
            _ => return None,
        })
    }

    /// The clocks: the time system, and the time left for one colour.
    fn time(&mut self, command: &str, args: &[&str]) -> Option<Reply> {
        Some(match command {
            "time_settings" => match args {
                [main, byo, stones] => {
                    match (parse_float(main), parse_float(byo), parse_int(stones)) {
                        (Ok(main), Ok(byo), Ok(stones)) => {
                            self.time_settings = Some((main, byo, stones));
                            // New settings start new clocks: earlier `time_left`s are void.
                            self.clocks = [None, None];
                            Reply::ok("")
                        }
                        _ => Reply::err("syntax error: time_settings main byo_yomi stones"),
                    }
                }
                _ => Reply::err("syntax error: time_settings main byo_yomi stones"),
            },
            "time_left" => {
                let colour = args.first().and_then(|c| parse_colour(c));
                let seconds = args.get(1).and_then(|s| parse_float(s).ok());
                let stones = args.get(2).and_then(|s| parse_int(s).ok());
                match (colour, seconds, stones) {
                    (Some(c), Some(seconds), Some(stones)) => {
                        self.clocks[colour_index(c)] = Some(Clock { seconds, stones });
                        Reply::ok("")
                    }
                    _ => Reply::err("syntax error: time_left colour seconds stones"),
                }
            }
            _ => return None,
        })
    }

    /// Plays the forced pass of the side to move when a command is about `colour`, the other
    /// side. The caller keeps the position from before, for `undo` or to restore it if the
    /// command fails.
    fn catch_up(&mut self, colour: Color) {
        if self.pos.to_move() != colour && self.pos.must_pass() {
            self.pos = self.pos.play_unchecked(Move::Pass);
        }
    }

    fn play(&mut self, args: &[&str]) -> Reply {
        let (Some(colour), Some(mv)) = (
            args.first().and_then(|c| parse_colour(c)),
            args.get(1).and_then(|m| parse_move(m)),
        ) else {
            return Reply::err("syntax error: play <black|white> <a1..h8|pass>");
        };
        let before = self.pos;
        if self.pos.is_game_over() && mv == Move::Pass {
            // A referee relaying every answer passes on the `pass` that `genmove` gives once
            // the game is over.
            self.history.push(before);
            return Reply::ok("");
        }
        self.catch_up(colour);
        let played = match self.pos.play(mv) {
            Ok(next) if self.pos.to_move() == colour => next,
            _ => {
                self.pos = before;
                return Reply::err("illegal move");
            }
        };
        self.history.push(before);
        self.pos = played;
        Reply::ok("")
    }

    fn genmove(&mut self, args: &[&str]) -> Reply {
        let Some(colour) = args.first().and_then(|c| parse_colour(c)) else {
            return Reply::err("syntax error: genmove <black|white>");
        };
        let before = self.pos;
        if self.pos.is_game_over() {
            self.history.push(before);
            return Reply::ok("pass");
        }
        self.catch_up(colour);
        if self.pos.to_move() != colour {
            self.pos = before;
            return Reply::err(format!("it is {}'s turn", self.pos.to_move()));
        }
        let budget = self.budget_ms(colour);
        let report = self.player.think(&self.pos, budget);
        // Engines answer legal moves; should one ever not, play the first legal move rather
        // than lose the game to a protocol error.
        let mv = if self.pos.is_legal(report.mv) {
            report.mv
        } else {
            self.pos.legal_moves()[0]
        };
        self.history.push(before);
        self.pos = self.pos.play_unchecked(mv);
        Reply::ok(move_text(mv))
    }

    /// The budget for `colour`'s move: the configured one, capped by its clock when the
    /// controller sent one (the share of the remaining time for the moves still to play).
    fn budget_ms(&self, colour: Color) -> u64 {
        let mut budget = self.player.move_ms;
        // Without `time_left`, the settings themselves: the main time for the whole game,
        // or with none, one byo-yomi period (`time_settings 0 5 1` is 5 s a move).
        let clock = self.clocks[colour_index(colour)].or_else(|| {
            self.time_settings.and_then(|(main, byo, stones)| {
                match (main > 0.0, byo > 0.0 && stones > 0) {
                    (true, _) => Some(Clock {
                        seconds: main,
                        stones: 0,
                    }),
                    (false, true) => Some(Clock {
                        seconds: byo,
                        stones,
                    }),
                    (false, false) => None,
                }
            })
        });
        if let Some(clock) = clock {
            // Our moves left: about half the empties, plus one for a pass or two.
            let moves_left = if clock.stones > 0 {
                clock.stones
            } else {
                self.pos.empties().div_ceil(2) + 1
            };
            let share = clock.seconds * 1000.0 * 0.9 / f64::from(moves_left.max(1));
            if share > 0.0 {
                budget = budget.min(share as u64);
            } else if let Some((_, byo, _)) = self.time_settings {
                budget = budget.min((byo * 1000.0 * 0.9) as u64);
            }
        }
        budget.max(1)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::search::Profile;

    fn session(rule: Rule) -> Gtp {
        let player = Player {
            engine: Profile::Strong.engine(Some(1), 1 << 24, &Default::default()),
            move_ms: 30,
            log: false,
        };
        Gtp::new(rule, player)
    }

    fn run(script: &str) -> String {
        let mut out = Vec::new();
        session(Rule::Standard)
            .run(script.as_bytes(), &mut out)
            .unwrap();
        String::from_utf8(out).unwrap()
    }

    #[test]
    fn basic_commands_and_ids() {
        let out = run("1 protocol_version\nname\n# comment\n\n3 boardsize 8\n4 boardsize 9\n");
        assert_eq!(out, "=1 2\n\n= reversi\n\n=3\n\n?4 unacceptable size\n\n");
    }

    #[test]
    fn play_genmove_and_illegal_moves() {
        let out = run("play B d3\nplay white d3\nplay w C5\ngenmove b\nfinal_score\nquit\nname\n");
        let replies: Vec<&str> = out.split("\n\n").collect();
        assert_eq!(replies[0], "=");
        assert_eq!(replies[1], "? illegal move");
        assert_eq!(replies[2], "=");
        let mv = replies[3].strip_prefix("= ").unwrap();
        assert!(Move::parse(mv).is_some(), "{mv}");
        assert!(replies[4].starts_with("= B+") || replies[4].starts_with("= W+"));
        assert_eq!(replies[5], "=");
        assert_eq!(replies.len(), 7, "nothing after quit: {out:?}");
    }

    #[test]
    fn undo_and_showboard() {
        let mut g = session(Rule::NoAdjacent);
        assert!(!g.handle("undo", &[]).ok);
        assert!(g.handle("play", &["black", "d3"]).ok);
        // The house rule forbids e3 next to d3.
        assert_eq!(
            g.handle("play", &["white", "e3"]),
            Reply::err("illegal move")
        );
        assert!(g.handle("undo", &[]).ok);
        assert_eq!(*g.position(), Position::start(Rule::NoAdjacent));
        assert!(g.handle("showboard", &[]).text.contains("a b c d e f g h"));
        assert_eq!(g.handle("known_command", &["genmove"]).text, "true");
        assert_eq!(g.handle("known_command", &["fly"]).text, "false");
        assert!(!g.handle("frobnicate", &[]).ok);
    }

    #[test]
    fn time_left_caps_the_budget() {
        let mut g = session(Rule::Standard);
        g.player.move_ms = 5000;
        assert!(g.handle("time_left", &["b", "6", "0"]).ok);
        // 60 empties: 31 moves to go, 6 s * 0.9 / 31 = 174 ms.
        assert_eq!(g.budget_ms(Color::Black), 174);
        assert_eq!(g.budget_ms(Color::White), 5000);
    }

    #[test]
    fn byo_yomi_alone_sets_the_budget_and_new_settings_void_old_clocks() {
        let mut g = session(Rule::Standard);
        g.player.move_ms = 5000;
        // No main time, 1 s for each move.
        assert!(g.handle("time_settings", &["0", "1", "1"]).ok);
        assert_eq!(g.budget_ms(Color::Black), 900);
        assert!(g.handle("time_left", &["black", "2", "0"]).ok);
        assert_eq!(g.budget_ms(Color::Black), 58);
        assert!(g.handle("time_settings", &["600", "0", "0"]).ok);
        assert_eq!(g.budget_ms(Color::Black), 5000);
        assert!(g.handle("time_left", &["black", "2", "0"]).ok);
        assert!(g.handle("clear_board", &[]).ok);
        assert_eq!(g.budget_ms(Color::Black), 5000);
        // Settings of no time at all leave the configured budget.
        assert!(g.handle("time_settings", &["0", "0", "0"]).ok);
        assert_eq!(g.budget_ms(Color::White), 5000);
    }

    /// Moves of a game (from a fixed pseudo-random sequence) up to the first forced pass:
    /// the moves, the side that then passes, and that side's opponent's next move.
    fn game_with_a_pass() -> (Vec<(Color, Move)>, Move) {
        let mut state = 0x2545_f491_4f6c_dd1d_u64;
        for _ in 0..1000 {
            let mut pos = Position::start(Rule::Standard);
            let mut moves = Vec::new();
            while !pos.is_game_over() {
                if pos.must_pass() {
                    let next = pos.play_unchecked(Move::Pass);
                    return (moves, next.legal_moves()[0]);
                }
                let legal = pos.legal_moves();
                state = state
                    .wrapping_mul(6364136223846793005)
                    .wrapping_add(1442695040888963407);
                let mv = legal[(state >> 33) as usize % legal.len()];
                moves.push((pos.to_move(), mv));
                pos = pos.play_unchecked(mv);
            }
        }
        panic!("no game with a pass");
    }

    #[test]
    fn undo_takes_back_a_pass_played_for_the_controller_with_the_move_after_it() {
        let (moves, after_pass) = game_with_a_pass();
        let mut g = session(Rule::Standard);
        let mut before_last = Position::start(Rule::Standard);
        for &(colour, mv) in &moves {
            before_last = *g.position();
            assert!(g.handle("play", &[&colour.to_string(), &mv.to_string()]).ok);
        }
        let passed = *g.position();
        let (last_colour, last_move) = *moves.last().unwrap();
        // The other side must pass; the controller does not say so and plays on.
        assert!(passed.must_pass());
        assert_eq!(
            g.handle("play", &[&last_colour.to_string(), &after_pass.to_string()]),
            Reply::ok("")
        );
        assert!(g.handle("undo", &[]).ok);
        assert_eq!(
            *g.position(),
            passed,
            "the pass is undone with the move after it"
        );
        assert!(g.handle("undo", &[]).ok);
        assert_eq!(*g.position(), before_last);
        assert!(
            g.handle("play", &[&last_colour.to_string(), &last_move.to_string()])
                .ok
        );
        // A failed command leaves no pass behind either (d4 is never empty).
        assert_eq!(
            g.handle("play", &[&last_colour.to_string(), "d4"]),
            Reply::err("illegal move")
        );
        assert_eq!(*g.position(), passed);
    }

    #[test]
    fn a_finished_game_scores_the_empties_to_the_winner_and_takes_passes() {
        // A nine-move wipe-out: white has no disc left.
        let mut g = session(Rule::Standard);
        for (i, mv) in ["e6", "f4", "e3", "f6", "g5", "d6", "e7", "f5", "c5"]
            .iter()
            .enumerate()
        {
            let colour = if i % 2 == 0 { "black" } else { "white" };
            assert!(g.handle("play", &[colour, mv]).ok, "{mv}");
        }
        assert_eq!(g.handle("final_score", &[]), Reply::ok("B+64"));
        assert_eq!(g.handle("genmove", &["white"]), Reply::ok("pass"));
        assert_eq!(g.handle("play", &["white", "pass"]), Reply::ok(""));
        assert_eq!(
            g.handle("play", &["black", "a1"]),
            Reply::err("illegal move")
        );
        // Mid-game, the discs on the board.
        assert!(g.handle("clear_board", &[]).ok);
        assert!(g.handle("play", &["black", "d3"]).ok);
        assert_eq!(g.handle("final_score", &[]), Reply::ok("B+3"));
    }

    #[test]
    fn quarry_learns_the_game_and_odd_lines_get_answers() {
        let mut out = Vec::new();
        let script =
            b"1 list_games\n2 set_game Othello\n3 set_game Go\n# Farneb\xe4ck\n4\n5 name\n";
        session(Rule::Standard).run(&script[..], &mut out).unwrap();
        assert_eq!(
            String::from_utf8(out).unwrap(),
            "=1 Othello\n\n=2\n\n?3 unsupported game\n\n?4 unknown command\n\n=5 reversi\n\n"
        );
    }

    #[test]
    fn names_in_any_case_vertices_in_any_case_and_unreadable_lines() {
        let out =
            run("1 NAME\n2 Play BLACK D3\n3 genmove W\n4 play b \u{1}\n\r\n5 boardsize 8 \t# x\n");
        let replies: Vec<&str> = out.split("\n\n").collect();
        assert_eq!(replies[..2], ["=1 reversi", "=2"]);
        let mv = replies[2].strip_prefix("=3 ").unwrap();
        assert_eq!(
            mv,
            mv.to_ascii_lowercase(),
            "Othello engines answer in lower case"
        );
        assert_eq!(parse_move(mv).map(move_text).as_deref(), Some(mv));
        assert_eq!(
            replies[3],
            "?4 syntax error: play <black|white> <a1..h8|pass>"
        );
        assert_eq!(replies[4], "=5");
        let mut out = Vec::new();
        session(Rule::Standard)
            .run(&b"1 play b d3 \xff\n2 name\n"[..], &mut out)
            .unwrap();
        assert_eq!(
            String::from_utf8(out).unwrap(),
            "?1 syntax error: invalid UTF-8\n\n=2 reversi\n\n"
        );
    }
}
