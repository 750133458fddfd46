//! GTP v2 for Othello, as Othello GTP engines speak it.
//!
//! Coordinates are Othello notation: files `a`..`h` left to right, rows `1`..`8` top to
//! bottom (a1 is the top-left corner); a move is a coordinate or `pass`; colours are `b`,
//! `w`, `black`, `white` in any case. Responses are `= ...` or `? ...` followed by a blank
//! line, with the command's id echoed. `genmove` answers in lower case (`d3`, `pass`).
//!
//! When a controller sends a move or asks for one for the side not to move while the side to
//! move has to pass, the pass is played first: controllers differ on whether they send the
//! forced passes, and both ways must work.

use std::io::{self, BufRead, Write};

use super::Player;
use crate::position::{Color, Move, Position, Rule};

/// The commands we answer, in `list_commands` order.
pub const COMMANDS: &[&str] = &[
    "protocol_version",
    "name",
    "version",
    "known_command",
    "list_commands",
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
    pub fn run<R: BufRead, W: Write>(&mut self, input: R, mut output: W) -> io::Result<()> {
        for line in input.lines() {
            let line = line?;
            let Some((id, command, args)) = parse_line(&line) else {
                continue;
            };
            let quit = command == "quit";
            let reply = self.handle(&command, &args);
            let status = if reply.ok { '=' } else { '?' };
            let id = id.map(|n| n.to_string()).unwrap_or_default();
            let sep = if reply.text.is_empty() { "" } else { " " };
            write!(output, "{status}{id}{sep}{}\n\n", reply.text)?;
            output.flush()?;
            if quit {
                break;
            }
        }
        Ok(())
    }

    /// Answers one command (lower-cased name, arguments).
    pub fn handle(&mut self, command: &str, args: &[&str]) -> Reply {
        match command {
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
            "boardsize" => match args.first().map(|s| s.parse::<u32>()) {
                Some(Ok(8)) => Reply::ok(""),
                Some(Ok(_)) => Reply::err("unacceptable size"),
                _ => Reply::err("syntax error: boardsize needs a number"),
            },
            "clear_board" => {
                self.pos = Position::start(self.rule);
                self.history.clear();
                self.player.engine.new_game();
                Reply::ok("")
            }
            "komi" => match args.first().map(|s| s.parse::<f64>()) {
                Some(Ok(_)) => Reply::ok(""),
                _ => Reply::err("syntax error: komi needs a number"),
            },
            "play" => self.play(args),
            "genmove" => self.genmove(args),
            "undo" => match self.history.pop() {
                Some(p) => {
                    self.pos = p;
                    Reply::ok("")
                }
                None => Reply::err("cannot undo"),
            },
            "final_score" => Reply::ok(self.pos.score().score_string()),
            "showboard" => Reply::ok(format!("\n{}", self.pos)),
            "time_settings" => {
                let nums: Vec<Option<f64>> = args.iter().map(|a| a.parse().ok()).collect();
                match nums.as_slice() {
                    [Some(main), Some(byo), Some(stones)] => {
                        self.time_settings = Some((*main, *byo, *stones as u32));
                        Reply::ok("")
                    }
                    _ => Reply::err("syntax error: time_settings main byo_yomi stones"),
                }
            }
            "time_left" => {
                let colour = args.first().and_then(|c| Color::parse(c));
                let seconds = args.get(1).and_then(|s| s.parse::<f64>().ok());
                let stones = args.get(2).and_then(|s| s.parse::<u32>().ok());
                match (colour, seconds, stones) {
                    (Some(c), Some(seconds), Some(stones)) => {
                        self.clocks[colour_index(c)] = Some(Clock { seconds, stones });
                        Reply::ok("")
                    }
                    _ => Reply::err("syntax error: time_left colour seconds stones"),
                }
            }
            "quit" => Reply::ok(""),
            _ => Reply::err("unknown command"),
        }
    }

    /// Plays the forced pass of the side to move when a command is about `colour`, the other
    /// side.
    fn catch_up(&mut self, colour: Color) {
        if self.pos.to_move() != colour && self.pos.must_pass() {
            self.history.push(self.pos);
            self.pos = self.pos.play_unchecked(Move::Pass);
        }
    }

    fn play(&mut self, args: &[&str]) -> Reply {
        let (Some(colour), Some(mv)) = (
            args.first().and_then(|c| Color::parse(c)),
            args.get(1).and_then(|m| Move::parse(m)),
        ) else {
            return Reply::err("syntax error: play <black|white> <a1..h8|pass>");
        };
        self.catch_up(colour);
        if self.pos.to_move() != colour {
            return Reply::err("illegal move");
        }
        match self.pos.play(mv) {
            Ok(next) => {
                self.history.push(self.pos);
                self.pos = next;
                Reply::ok("")
            }
            Err(_) => Reply::err("illegal move"),
        }
    }

    fn genmove(&mut self, args: &[&str]) -> Reply {
        let Some(colour) = args.first().and_then(|c| Color::parse(c)) else {
            return Reply::err("syntax error: genmove <black|white>");
        };
        self.catch_up(colour);
        if self.pos.is_game_over() {
            return Reply::ok("pass");
        }
        if self.pos.to_move() != colour {
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
        let next = self.pos.play_unchecked(mv);
        self.history.push(self.pos);
        self.pos = next;
        Reply::ok(mv.to_string())
    }

    /// The budget for `colour`'s move: the configured one, capped by its clock when the
    /// controller sent one (the share of the remaining time for the moves still to play).
    fn budget_ms(&self, colour: Color) -> u64 {
        let mut budget = self.player.move_ms;
        let clock = self.clocks[colour_index(colour)].or_else(|| {
            self.time_settings
                .filter(|&(main, _, _)| main > 0.0)
                .map(|(main, _, _)| Clock {
                    seconds: main,
                    stones: 0,
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

/// Splits a GTP line into (id, lower-cased command, arguments); `None` for blank lines and
/// comments.
fn parse_line(line: &str) -> Option<(Option<u64>, String, Vec<&str>)> {
    let line = line.split('#').next().unwrap_or("");
    let mut words = line.split_whitespace();
    let first = words.next()?;
    let (id, command) = match first.parse::<u64>() {
        Ok(id) => (Some(id), words.next()?),
        Err(_) => (None, first),
    };
    Some((id, command.to_ascii_lowercase(), words.collect()))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::search::Profile;

    fn session(rule: Rule) -> Gtp {
        let player = Player {
            engine: Profile::Strong.engine(Some(1), 1 << 24),
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
}
