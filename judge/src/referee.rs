//! The match loop: one game of any [`Game`] between two [`Player`]s.
//!
//! It starts both players, asks the side to move for a move under the time limit (and,
//! on a game clock, what its clock has left), has the game judge and apply it, and ends
//! the game by the rules or by a verdict on the player at fault. It knows neither the
//! rules nor how players run.

use std::time::Duration;

use crate::clock::{Clock, ClockSettings};
use crate::games::{Game, Side, Termination};
use crate::players::{Fault, Player};

/// How a game ended, and what was played.
#[derive(Debug, Clone)]
pub struct Outcome<G: Game> {
    /// The winner, `None` for a tie.
    pub winner: Option<Side>,
    /// Why it ended.
    pub termination: Termination,
    /// Signal name, exit status, load error text or illegal move description.
    pub detail: Option<String>,
    /// The point an illegal move named, when it names one.
    pub illegal_point: Option<[i32; 2]>,
    /// The winner's margin, for games that score one.
    pub margin: Option<i32>,
    /// Moves played, in order (legal moves only), as the log records them.
    pub moves: Vec<G::LoggedMove>,
    /// Wall time of every answer (the last may be the losing one), ms.
    pub move_ms: Vec<f64>,
    /// CPU time of every answer, ms (`None` when the player could not say).
    pub cpu_ms: Vec<Option<f64>>,
    /// Each side's peak resident memory by the end of the game, KiB (first mover's
    /// first; `None` when its player could not say).
    pub peak_kb: [Option<u64>; 2],
}

impl<G: Game> Outcome<G> {
    /// A game not yet decided: a tie by default, nothing played.
    fn new() -> Outcome<G> {
        Outcome {
            winner: None,
            termination: Termination::Full,
            detail: None,
            illegal_point: None,
            margin: None,
            moves: Vec::new(),
            move_ms: Vec::new(),
            cpu_ms: Vec::new(),
            peak_kb: [None, None],
        }
    }

    /// `loser` loses by `fault`.
    fn lost_by(mut self, loser: Side, fault: &Fault) -> Outcome<G> {
        self.winner = Some(loser.other());
        self.termination = fault.termination();
        self.detail = fault.detail();
        self
    }
}

/// Plays one game of `game` on `setup`: `players[0]` plays the first side, `players[1]`
/// the second, each asked in turn as the game says; each move may take `limit` of wall
/// time. Both players are started first (a player that cannot start loses by its fault,
/// the first side's fault counting first) and stopped at the end, after both are told the
/// game's end ([`Player::game_over`]) if it ended by the rules.
pub fn play<G: Game>(
    game: &G,
    setup: &G::Setup,
    players: [&mut dyn Player<G>; 2],
    limit: Duration,
) -> Outcome<G> {
    play_on_clock(game, setup, players, limit, None)
}

/// [`play`], and with `clock` each side on a game clock of those settings: before each
/// move the mover is told its clock ([`Player::clock`]), the move may take no longer than
/// the clock has left (nor than `limit`), and its wall time is charged to it. A player
/// whose clock runs out loses by `timeout`, the detail saying so.
pub fn play_on_clock<G: Game>(
    game: &G,
    setup: &G::Setup,
    mut players: [&mut dyn Player<G>; 2],
    limit: Duration,
    clock: Option<ClockSettings>,
) -> Outcome<G> {
    let ready = [
        players[0].start(game, setup, Side::First),
        players[1].start(game, setup, Side::Second),
    ];
    let mut outcome = match ready {
        [Err(fault), _] => Outcome::new().lost_by(Side::First, &fault),
        [Ok(()), Err(fault)] => Outcome::new().lost_by(Side::Second, &fault),
        [Ok(()), Ok(())] => play_moves(game, setup, &mut players, limit, clock),
    };
    // Before `stop`, which may end the players' processes.
    outcome.peak_kb = [players[0].peak_memory_kb(), players[1].peak_memory_kb()];
    for p in players {
        p.stop();
    }
    outcome
}

fn play_moves<G: Game>(
    game: &G,
    setup: &G::Setup,
    players: &mut [&mut dyn Player<G>; 2],
    limit: Duration,
    clock: Option<ClockSettings>,
) -> Outcome<G> {
    let mut position = game.start(setup);
    let mut out = Outcome::new();
    let mut last = None;
    let mut clocks = clock.map(|c| [Clock::new(c), Clock::new(c)]);
    loop {
        if let Some(end) = game.end(&position) {
            for player in players.iter_mut() {
                player.game_over(game, &position, last);
            }
            out.winner = end.winner;
            out.termination = end.termination;
            out.margin = end.margin;
            out.detail = game.end_detail(&position);
            return out;
        }
        let mover = game.to_move(&position);
        let player = &mut players[mover.index()];
        // On a clock, the move may take what the clock has left, if that is less.
        let on_clock = clocks.as_ref().map(|c| &c[mover.index()]);
        let move_limit = match on_clock {
            Some(c) => {
                player.clock(c);
                limit.min(c.available())
            }
            None => limit,
        };
        let answer = player.next_move(game, &position, last, move_limit);
        out.move_ms.push(answer.wall_ms);
        out.cpu_ms.push(answer.cpu_ms);
        if let Some(c) = clocks.as_mut().map(|c| &mut c[mover.index()]) {
            let spent = Duration::from_secs_f64(answer.wall_ms.max(0.0) / 1e3);
            let timed_out = matches!(answer.reply, Err(Fault::Timeout)) && move_limit < limit;
            if c.charge(spent).is_err() || timed_out {
                let mut out = out.lost_by(mover, &Fault::Timeout);
                out.detail = Some(format!("out of time: the clock ({}) ran out", c.settings()));
                return out;
            }
        }
        match answer.reply {
            Ok(mv) if game.is_legal(&position, mv) => {
                out.moves.push(game.play(&mut position, mv));
                last = Some(mv);
            }
            Ok(mv) => {
                let (detail, point) = game.describe_illegal(&position, mv);
                out.winner = Some(mover.other());
                out.termination = Termination::Illegal;
                out.detail = Some(detail);
                out.illegal_point = point;
                return out;
            }
            Err(fault) => return out.lost_by(mover, &fault),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::connect4::{BoardSpec, Connect4, Point, Position};
    use crate::games::{Cell, GameEnd, Grid};
    use crate::players::Answer;

    /// Plays a fixed list of columns (at the legal row), then a fixed reply.
    struct Script {
        cols: Vec<i32>,
        at: usize,
        then: Result<Point, Fault>,
        seen: Vec<Option<Point>>,
        /// The last move it was told at the game's end, if it was told.
        told_end: Option<Option<Point>>,
        stopped: bool,
    }

    impl Script {
        fn new(cols: &[i32]) -> Script {
            Script {
                cols: cols.to_vec(),
                at: 0,
                then: Err(Fault::NoMove),
                seen: Vec::new(),
                told_end: None,
                stopped: false,
            }
        }
    }

    impl Player<Connect4> for Script {
        fn start(&mut self, _: &Connect4, _: &BoardSpec, _: Side) -> Result<(), Fault> {
            Ok(())
        }
        fn next_move(
            &mut self,
            _: &Connect4,
            p: &Position,
            last: Option<Point>,
            _: Duration,
        ) -> Answer<Point> {
            self.seen.push(last);
            let reply = match self.cols.get(self.at) {
                Some(&y) => Ok(Point {
                    x: p.top()[y as usize] - 1,
                    y,
                }),
                None => self.then.clone(),
            };
            self.at += 1;
            Answer {
                reply,
                wall_ms: 0.0,
                cpu_ms: None,
            }
        }
        fn game_over(&mut self, _: &Connect4, _: &Position, last: Option<Point>) {
            self.told_end = Some(last);
        }
        fn stop(&mut self) {
            self.stopped = true;
        }
    }

    /// Plays the first non-full column from the left.
    struct Leftmost;

    impl Player<Connect4> for Leftmost {
        fn start(&mut self, _: &Connect4, _: &BoardSpec, _: Side) -> Result<(), Fault> {
            Ok(())
        }
        fn next_move(
            &mut self,
            _: &Connect4,
            p: &Position,
            _: Option<Point>,
            _: Duration,
        ) -> Answer<Point> {
            let y = (0..p.spec().n).find(|&y| p.top()[y as usize] > 0).unwrap();
            Answer {
                reply: Ok(Point {
                    x: p.top()[y as usize] - 1,
                    y,
                }),
                wall_ms: 0.0,
                cpu_ms: None,
            }
        }
    }

    fn spec(m: i32, n: i32, no_x: i32, no_y: i32) -> BoardSpec {
        BoardSpec { m, n, no_x, no_y }
    }

    const LIMIT: Duration = Duration::from_secs(1);

    #[test]
    fn vertical_win_and_last_move() {
        let mut a = Script::new(&[0, 0, 0, 0]);
        let mut b = Script::new(&[5, 5, 5]);
        let out = play(&Connect4, &spec(9, 9, 0, 8), [&mut a, &mut b], LIMIT);
        assert_eq!(out.winner, Some(Side::First));
        assert_eq!(out.termination, Termination::Four);
        assert_eq!(out.moves, vec![0, 5, 0, 5, 0, 5, 0]);
        assert_eq!(a.seen[0], None);
        assert_eq!(b.seen[0], Some(Point { x: 8, y: 0 }));
        assert_eq!(a.seen[1], Some(Point { x: 8, y: 5 }));
        // Both are told the end, with the winning move.
        let winning = Some(Some(Point { x: 5, y: 0 }));
        assert_eq!((a.told_end, b.told_end), (winning, winning));
        assert!(a.stopped && b.stopped);
    }

    #[test]
    fn diagonal_wins_both_ways() {
        // Up-right diagonal for the first player: (8,0) (7,1) (6,2) (5,3).
        let mut a = Script::new(&[0, 1, 3, 2, 8, 3]);
        let mut b = Script::new(&[1, 2, 2, 3, 3, 5]);
        let g = play(&Connect4, &spec(9, 9, 0, 8), [&mut a, &mut b], LIMIT);
        assert_eq!(
            (g.winner, g.termination),
            (Some(Side::First), Termination::Four)
        );
        assert_eq!(g.moves.len(), 11);
        // Mirror image: the up-left diagonal.
        let mut a = Script::new(&[8, 7, 5, 6, 0, 5]);
        let mut b = Script::new(&[7, 6, 6, 5, 5, 3]);
        let g = play(&Connect4, &spec(9, 9, 0, 0), [&mut a, &mut b], LIMIT);
        assert_eq!(
            (g.winner, g.termination),
            (Some(Side::First), Termination::Four)
        );
        assert_eq!(g.moves.len(), 11);
    }

    #[test]
    fn full_board_is_a_tie() {
        // 2x3 with a blocked cell: no line of 4 fits, so the game must end on a full board.
        let g = play(
            &Connect4,
            &spec(2, 3, 0, 0),
            [&mut Leftmost, &mut Leftmost],
            LIMIT,
        );
        assert_eq!((g.winner, g.termination), (None, Termination::Full));
        assert_eq!(g.moves.len(), 5);
    }

    #[test]
    fn illegal_null_timeout_crash_lose() {
        let cases = [
            (Ok(Point { x: 3, y: 3 }), Termination::Illegal),
            (Err(Fault::NoMove), Termination::Null),
            (Err(Fault::Timeout), Termination::Timeout),
            (Err(Fault::Crash("SIGSEGV".into())), Termination::Crash),
        ];
        for (reply, term) in cases {
            let mut a = Script::new(&[0]);
            let mut b = Script::new(&[]);
            b.then = reply;
            let g = play(&Connect4, &spec(9, 9, 0, 0), [&mut a, &mut b], LIMIT);
            assert_eq!((g.winner, g.termination), (Some(Side::First), term));
            assert_eq!(g.move_ms.len(), 2, "the losing answer is timed too");
            assert_eq!(
                (a.told_end, b.told_end),
                (None, None),
                "no end by the rules"
            );
            if term == Termination::Illegal {
                assert_eq!(g.illegal_point, Some([3, 3]));
                assert_eq!(g.detail.as_deref(), Some("illegal point (3, 3)"));
            }
        }
    }

    // A fake game and fake players, to drive the loop through whole games without
    // Connect-4: a race to `target` where each move adds 1..=3 to a shared counter.

    #[derive(Debug, Clone, PartialEq)]
    struct Race;

    #[derive(Debug, Clone)]
    struct Count {
        total: i32,
        plies: usize,
    }

    impl Game for Race {
        type Setup = i32;
        type Position = Count;
        type Move = i32;
        type LoggedMove = i32;
        const PASSES: bool = false;
        const STONES_FLIP: bool = false;

        /// Not a game commands can run; the referee never asks.
        fn kind(&self) -> crate::games::GameKind {
            crate::games::GameKind::Connect4
        }

        fn setup(&self, board_seed: u64) -> i32 {
            10 + (board_seed % 5) as i32
        }
        fn start(&self, _: &i32) -> Count {
            Count { total: 0, plies: 0 }
        }
        fn to_move(&self, p: &Count) -> Side {
            if p.plies.is_multiple_of(2) {
                Side::First
            } else {
                Side::Second
            }
        }
        fn is_legal(&self, _: &Count, mv: i32) -> bool {
            (1..=3).contains(&mv)
        }
        fn play(&self, p: &mut Count, mv: i32) -> i32 {
            p.total += mv;
            p.plies += 1;
            mv
        }
        fn end(&self, p: &Count) -> Option<GameEnd> {
            // Reaching 10 wins for whoever moved last; the margin is the overshoot.
            (p.total >= 10).then(|| GameEnd {
                winner: Some(if p.plies % 2 == 1 {
                    Side::First
                } else {
                    Side::Second
                }),
                termination: Termination::Four,
                margin: Some(p.total - 10),
            })
        }
        fn describe_illegal(&self, _: &Count, mv: i32) -> (String, Option<[i32; 2]>) {
            (format!("{mv} is not 1..=3"), None)
        }
        fn read_move(&self, _: &Count, logged: i32) -> Option<i32> {
            Some(logged)
        }
        fn legal_moves(&self, p: &Count) -> Vec<i32> {
            if self.end(p).is_some() {
                Vec::new()
            } else {
                vec![1, 2, 3]
            }
        }
        fn move_at(&self, _: &Count, _: i32, y: i32) -> Option<i32> {
            (1..=3).contains(&y).then_some(y)
        }
        fn move_cell(&self, _: &Count, _: i32) -> Option<(i32, i32)> {
            None
        }
        fn grid(&self, _: &Count) -> Grid {
            let mut g = Grid::new(1, 1);
            g.set(0, 0, Cell::Blocked);
            g
        }
        fn winning_line(&self, _: &Count) -> Vec<(i32, i32)> {
            Vec::new()
        }
    }

    /// Answers from a list in memory; `fail_start` makes it fail to load.
    struct Fake {
        moves: Vec<Result<i32, Fault>>,
        fail_start: Option<Fault>,
        lasts: Vec<Option<i32>>,
        started: Option<Side>,
    }

    impl Fake {
        fn new(moves: Vec<Result<i32, Fault>>) -> Fake {
            Fake {
                moves,
                fail_start: None,
                lasts: Vec::new(),
                started: None,
            }
        }
    }

    impl Player<Race> for Fake {
        fn start(&mut self, _: &Race, _: &i32, side: Side) -> Result<(), Fault> {
            self.started = Some(side);
            self.fail_start.clone().map_or(Ok(()), Err)
        }
        fn next_move(
            &mut self,
            _: &Race,
            _: &Count,
            last: Option<i32>,
            limit: Duration,
        ) -> Answer<i32> {
            assert_eq!(limit, LIMIT);
            self.lasts.push(last);
            Answer {
                reply: self.moves.remove(0),
                wall_ms: 1.0,
                cpu_ms: Some(0.5),
            }
        }
    }

    #[test]
    fn a_fake_game_runs_to_its_end_with_a_margin() {
        let mut a = Fake::new(vec![Ok(3), Ok(3), Ok(3)]);
        let mut b = Fake::new(vec![Ok(1), Ok(2)]);
        let out = play(&Race, &10, [&mut a, &mut b], LIMIT);
        assert_eq!(out.moves, vec![3, 1, 3, 2, 3]);
        assert_eq!(out.winner, Some(Side::First));
        assert_eq!(out.margin, Some(2));
        assert_eq!(out.move_ms.len(), 5);
        assert_eq!(a.lasts, vec![None, Some(1), Some(2)]);
        assert_eq!(b.lasts, vec![Some(3), Some(3)]);
        assert_eq!(
            (a.started, b.started),
            (Some(Side::First), Some(Side::Second))
        );
    }

    /// Always adds 1, each answer taking the next of `ms`; notes the limits it was given
    /// and the time its clock showed.
    struct Clocked {
        ms: Vec<f64>,
        limits: Vec<Duration>,
        told: Vec<Duration>,
    }

    impl Clocked {
        fn new(ms: &[f64]) -> Clocked {
            Clocked {
                ms: ms.to_vec(),
                limits: Vec::new(),
                told: Vec::new(),
            }
        }
    }

    impl Player<Race> for Clocked {
        fn start(&mut self, _: &Race, _: &i32, _: Side) -> Result<(), Fault> {
            Ok(())
        }
        fn clock(&mut self, clock: &Clock) {
            self.told.push(clock.time_left().time);
        }
        fn next_move(
            &mut self,
            _: &Race,
            _: &Count,
            _: Option<i32>,
            limit: Duration,
        ) -> Answer<i32> {
            self.limits.push(limit);
            let ms = self.ms.remove(0);
            // A player past its limit is cut off there, as a program's pipes are.
            let reply = if ms > limit.as_secs_f64() * 1e3 {
                Err(Fault::Timeout)
            } else {
                Ok(1)
            };
            Answer::timed(reply, ms)
        }
    }

    #[test]
    fn on_a_clock_each_move_is_charged_and_the_flag_falls() {
        // 1 s main time, then 300 ms a move. The first player spends 700 ms, then 600 ms
        // (300 ms into byo-yomi), then 350 ms: more than its period.
        let clock = ClockSettings::new(1000, 300, 1).unwrap();
        let mut a = Clocked::new(&[700.0, 600.0, 350.0]);
        let mut b = Clocked::new(&[10.0, 10.0, 10.0]);
        let limit = Duration::from_secs(5);
        let out = play_on_clock(&Race, &10, [&mut a, &mut b], limit, Some(clock));
        assert_eq!(
            (out.winner, out.termination),
            (Some(Side::Second), Termination::Timeout)
        );
        assert_eq!(
            out.detail.as_deref(),
            Some("out of time: the clock (1 s main time, then 0.3 s a move) ran out")
        );
        assert_eq!(out.moves, vec![1, 1, 1, 1]);
        let ms = Duration::from_millis;
        assert_eq!(a.told, [ms(1000), ms(300), ms(300)]);
        // Main time and a period, then what is left of main time and a period, then a
        // period.
        assert_eq!(a.limits, [ms(1300), ms(600), ms(300)]);
        assert_eq!(b.told, [ms(1000), ms(990)]);
        // A move limit below the clock still caps the move; its timeout is the limit's.
        let mut a = Clocked::new(&[250.0]);
        let mut b = Clocked::new(&[]);
        let out = play_on_clock(&Race, &10, [&mut a, &mut b], ms(200), Some(clock));
        assert_eq!(out.termination, Termination::Timeout);
        assert_eq!(
            out.detail, None,
            "the tournament words a move limit's timeout"
        );
        assert_eq!(a.limits, [ms(200)]);
        // Without a clock nobody is told anything.
        let mut a = Clocked::new(&[1.0; 5]);
        let mut b = Clocked::new(&[1.0; 5]);
        let out = play(&Race, &10, [&mut a, &mut b], limit);
        assert_eq!(out.termination, Termination::Four);
        assert!(a.told.is_empty() && b.told.is_empty());
    }

    #[test]
    fn misbehaving_fake_players_get_verdicts() {
        let mut a = Fake::new(vec![Ok(3), Ok(7)]);
        let mut b = Fake::new(vec![Ok(1)]);
        let out = play(&Race, &10, [&mut a, &mut b], LIMIT);
        assert_eq!(
            (out.winner, out.termination, out.detail.as_deref()),
            (
                Some(Side::Second),
                Termination::Illegal,
                Some("7 is not 1..=3")
            )
        );
        assert_eq!(out.illegal_point, None);
        let mut a = Fake::new(vec![Ok(3)]);
        let mut b = Fake::new(vec![Err(Fault::Crash("SIGSEGV".into()))]);
        let out = play(&Race, &10, [&mut a, &mut b], LIMIT);
        assert_eq!(
            (out.winner, out.termination, out.detail.as_deref()),
            (Some(Side::First), Termination::Crash, Some("SIGSEGV"))
        );
        // A player that cannot start loses before any move; the first mover's failure
        // counts first.
        let mut a = Fake::new(vec![]);
        a.fail_start = Some(Fault::MissingSymbol("missing symbol getPoint".into()));
        let mut b = Fake::new(vec![]);
        b.fail_start = Some(Fault::Load("not a library".into()));
        let out = play(&Race, &10, [&mut a, &mut b], LIMIT);
        assert_eq!(
            (out.winner, out.termination, out.detail.as_deref()),
            (
                Some(Side::Second),
                Termination::Load,
                Some("missing symbol getPoint")
            )
        );
        assert!(out.moves.is_empty() && out.move_ms.is_empty());
        assert_eq!(b.started, Some(Side::Second), "both are started");
    }
}
