//! The clock: GTP's `time_settings`, `kgs-time_settings` and `time_left` turned into the time
//! a move may take.
//!
//! Time systems (GTP 2 section 4.2 and KGS's extension):
//! - absolute: `main` seconds for the whole game;
//! - Canadian (`time_settings main period stones`): after the main time, `stones` moves in
//!   every `period` seconds;
//! - Japanese byo-yomi (`kgs-time_settings byoyomi main period periods`): after the main
//!   time, each move within `period` seconds keeps the period; overrunning one uses it up.
//!
//! `time_settings` with a byo-yomi time and no stones means no limit; with no byo-yomi time,
//! absolute time. `time_left colour seconds stones` reports the clock: `stones` 0 is main
//! time, otherwise the time and stones (Canadian) or periods (Japanese) left in overtime.
//! Between reports the clock counts our own moves' time, so a controller that only sends
//! `time_settings` is kept to it too.
//!
//! The budget (after Huang, Coulom and Lin 2010, "Time management for Monte-Carlo tree
//! search applied to the game of Go"): the time available after a safety margin ([`margin`]:
//! 5 % of it, and at least a quarter second of lag when there is that much), less a reserve
//! kept back for a game that runs long ([`RESERVE_FRACTION`] of the main time, never more
//! than half of what is left), shared out over the moves we still expect to play
//! ([`moves_left`]: a number that falls more slowly than the moves are played and never
//! below a floor, so the share holds when the game runs longer than expected), more in the
//! middle game ([`middle_game`]), plus what overtime gives each move; never more than half
//! of what is available, so a run of moves can never use up the clock; less
//! [`MOVE_OVERHEAD`], what a move costs beyond its search. With no time system, the fixed
//! per-move budget less 5 % of it (at most the lag). No budget exceeds [`MAX_BUDGET`].
//! The search itself stops early when its most visited move cannot be overtaken in the
//! time left (`crate::search`), which gives forced moves less and the rest of the game more.

use std::time::Duration;

/// The lag kept back from every clock (the controller's and the network's delays).
pub const LAG: Duration = Duration::from_millis(250);

/// The share of the time left kept back.
pub const MARGIN_FRACTION: f64 = 0.05;

/// The most a move may take of the time available (after the margin).
pub const MAX_FRACTION: f64 = 0.5;

/// The middle-game bump ([`middle_game`]): the share rises from 1 at the first move to
/// `1 + MIDDLE_BUMP` at [`MIDDLE_PEAK`] of the board's points played, and falls back to 1 at
/// [`MIDDLE_END`]. Huang et al.'s "enhanced formula", which gives the middle game more
/// than an even share, played stronger than the even share in their tests; the figures here
/// are ours, chosen so that a 13x13 game of 20 s gives no move before move 120 under 100 ms
/// (`go/README.md`, Time).
pub const MIDDLE_BUMP: f64 = 0.5;

/// Where the middle-game bump peaks, as a share of the board's points played.
pub const MIDDLE_PEAK: f64 = 0.25;

/// Where the middle-game bump ends, as a share of the board's points played.
pub const MIDDLE_END: f64 = 0.6;

/// Our moves expected at the start of a game, per point of the board: 0.35 * 169 = 59 on
/// 13x13. This and the next three figures were chosen with the clock's own arithmetic
/// (the unit test `a_long_13x13_game_on_20_seconds_keeps_its_share`): they give every move
/// before move 120 of a 13x13 game of 20 s 110 ms or more, as much as that allows to the
/// opening and middle game (a first try, 0.45, 0.4, 0.15 and a bump of 0.2, gave them 190
/// ms a move against 330 before; it lost 8 of 8 games against GNU Go level 1 where the
/// clock of 9895a9b won 2, drew 1 and lost 6 of 9: `go/README.md`, Results), and still
/// leave time at move 300.
pub const MOVES_AT_START: f64 = 0.35;

/// How much [`moves_left`] falls per move of the game: 0.35, less than the half a move of
/// ours that each move of the game takes, so a game that runs long is expected to run longer.
pub const MOVES_SLOPE: f64 = 0.35;

/// The floor of [`moves_left`] per point of the board (20 of our moves on 13x13, reached
/// at move 111): past it, each move takes a twentieth of what may be shared, which halves
/// every 14 moves of ours.
pub const MOVES_FLOOR: f64 = 0.12;

/// The reserve: this share of the main time is kept back from the shares (never more than
/// half of what is left), for the moves of a game longer than [`moves_left`] expects and
/// what each of them costs beyond its budget.
pub const RESERVE_FRACTION: f64 = 0.1;

/// What a move costs beyond its search: the deadline's granularity, the reply's way to the
/// controller, scheduling on a loaded machine. Kept back from every budget on a clock (the
/// clock only learns of it from `time_left`).
pub const MOVE_OVERHEAD: Duration = Duration::from_millis(20);

/// The least budget worth a search, when the clock allows it.
pub const MIN_BUDGET: Duration = Duration::from_millis(10);

/// The most any move is given (a day), whatever the settings say: a controller may send
/// absurd times, and a deadline must stay a representable instant.
pub const MAX_BUDGET: Duration = Duration::from_secs(86_400);

/// A time system.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum TimeSystem {
    /// Main time only, in seconds.
    Absolute {
        /// Seconds for the whole game.
        main: f64,
    },
    /// Main time, then `stones` moves in every `period`.
    Canadian {
        /// Main time, seconds.
        main: f64,
        /// Seconds of a byo-yomi period.
        period: f64,
        /// Moves to play in a period.
        stones: u32,
    },
    /// Main time, then `periods` periods of which each move may use one.
    Japanese {
        /// Main time, seconds.
        main: f64,
        /// Seconds of a period.
        period: f64,
        /// Number of periods.
        periods: u32,
    },
}

impl TimeSystem {
    /// GTP's `time_settings main_time byo_yomi_time byo_yomi_stones`; `None` for no limit
    /// (a byo-yomi time with 0 stones, or no time at all).
    pub fn from_gtp(main: f64, period: f64, stones: u32) -> Option<TimeSystem> {
        if period > 0.0 && stones == 0 {
            None
        } else if period <= 0.0 {
            (main > 0.0).then_some(TimeSystem::Absolute { main })
        } else {
            Some(TimeSystem::Canadian {
                main,
                period,
                stones,
            })
        }
    }

    /// KGS's `kgs-time_settings byoyomi main period periods`; `None` for no limit.
    pub fn japanese(main: f64, period: f64, periods: u32) -> Option<TimeSystem> {
        if period <= 0.0 || periods == 0 {
            (main > 0.0).then_some(TimeSystem::Absolute { main })
        } else {
            Some(TimeSystem::Japanese {
                main,
                period,
                periods,
            })
        }
    }

    /// The main time at the start of a game, seconds.
    fn main(self) -> f64 {
        match self {
            TimeSystem::Absolute { main }
            | TimeSystem::Canadian { main, .. }
            | TimeSystem::Japanese { main, .. } => main,
        }
    }

    /// The clock at the start of a game.
    fn fresh(self) -> Remaining {
        match self {
            TimeSystem::Absolute { main } => Remaining::main(main),
            TimeSystem::Canadian { main, .. } | TimeSystem::Japanese { main, .. } => {
                if main > 0.0 {
                    Remaining::main(main)
                } else {
                    self.overtime()
                }
            }
        }
    }

    /// The clock at the start of overtime (or of a new Canadian period).
    fn overtime(self) -> Remaining {
        match self {
            TimeSystem::Absolute { .. } => Remaining::main(0.0),
            TimeSystem::Canadian { period, stones, .. } => Remaining {
                main: 0.0,
                period,
                count: stones,
            },
            TimeSystem::Japanese {
                period, periods, ..
            } => Remaining {
                main: 0.0,
                period,
                count: periods,
            },
        }
    }
}

/// One side's clock: main time, or overtime (`count` > 0).
#[derive(Clone, Copy, Debug, PartialEq)]
struct Remaining {
    /// Main time left, seconds.
    main: f64,
    /// Overtime: seconds left in the current period.
    period: f64,
    /// Overtime: stones left in the period (Canadian) or periods left (Japanese); 0 in main
    /// time.
    count: u32,
}

impl Remaining {
    fn main(main: f64) -> Remaining {
        Remaining {
            main: main.max(0.0),
            period: 0.0,
            count: 0,
        }
    }
}

/// The safety margin kept back from `available` seconds: [`MARGIN_FRACTION`] of it, and at
/// least [`LAG`] or a quarter of it, whichever is less.
pub fn margin(available: f64) -> f64 {
    let lag = LAG.as_secs_f64().min(available / 4.0);
    (available * MARGIN_FRACTION).max(lag).max(0.0)
}

/// Seconds left once the margin is kept back.
fn usable(seconds: f64) -> f64 {
    (seconds - margin(seconds)).max(0.0)
}

/// How many more moves we expect to play on a `size` board after `ply` moves:
/// [`MOVES_AT_START`] a point of the board, less [`MOVES_SLOPE`] a move played, never fewer
/// than [`MOVES_FLOOR`] a point (and never fewer than 4).
pub fn moves_left(size: usize, ply: usize) -> f64 {
    let area = (size * size) as f64;
    let expected = MOVES_AT_START * area - MOVES_SLOPE * ply as f64;
    expected.max(MOVES_FLOOR * area).max(4.0)
}

/// The middle-game factor of the share after `ply` moves on a `size` board: 1 at the start,
/// rising to `1 + MIDDLE_BUMP` at [`MIDDLE_PEAK`] of the points played, back to 1 at
/// [`MIDDLE_END`] and after.
pub fn middle_game(size: usize, ply: usize) -> f64 {
    let played = ply as f64 / (size * size) as f64;
    let rise = played / MIDDLE_PEAK;
    let fall = (MIDDLE_END - played) / (MIDDLE_END - MIDDLE_PEAK);
    1.0 + MIDDLE_BUMP * rise.min(fall).clamp(0.0, 1.0)
}

/// The time that may be shared out of `usable` seconds of main time when the game's main
/// time was `main`: the [`RESERVE_FRACTION`] of `main` is kept back, never more than half.
fn shared(usable: f64, main: f64) -> f64 {
    (usable - RESERVE_FRACTION * main).max(usable / 2.0)
}

/// The players' clocks under one time system, and the budget without one.
#[derive(Clone, Debug)]
pub struct Clock {
    system: Option<TimeSystem>,
    /// Each colour's clock ([`crate::point::Color::index`]); `None` for no report and no
    /// system.
    left: [Option<Remaining>; 2],
    default_move: Duration,
}

impl Clock {
    /// A clock with no time system: every move gets `default_move` (less its margin).
    pub fn new(default_move: Duration) -> Clock {
        Clock {
            system: None,
            left: [None; 2],
            default_move,
        }
    }

    /// The time system (`None`: no limit).
    pub fn system(&self) -> Option<TimeSystem> {
        self.system
    }

    /// Sets the time system and starts both clocks afresh.
    pub fn set_system(&mut self, system: Option<TimeSystem>) {
        self.system = system;
        self.restart();
    }

    /// Starts both clocks afresh (a new game).
    pub fn restart(&mut self) {
        let fresh = self.system.map(TimeSystem::fresh);
        self.left = [fresh; 2];
    }

    /// GTP's `time_left`: `seconds` left and `stones` (0 in main time) for `color`.
    pub fn time_left(&mut self, color: crate::point::Color, seconds: f64, stones: u32) {
        let seconds = seconds.max(0.0);
        self.left[color.index()] = Some(if stones == 0 {
            Remaining::main(seconds)
        } else {
            Remaining {
                main: 0.0,
                period: seconds,
                count: stones,
            }
        });
    }

    /// Counts `elapsed` against `color`'s clock after one of its moves.
    pub fn spent(&mut self, color: crate::point::Color, elapsed: Duration) {
        let (Some(system), Some(left)) = (self.system, &mut self.left[color.index()]) else {
            return;
        };
        let mut t = elapsed.as_secs_f64();
        if left.count == 0 {
            if t <= left.main || matches!(system, TimeSystem::Absolute { .. }) {
                left.main = (left.main - t).max(0.0);
                return;
            }
            // The main time ran out during the move: the rest counts in overtime.
            t -= left.main;
            *left = system.overtime();
        }
        match system {
            TimeSystem::Absolute { .. } => {}
            TimeSystem::Canadian { .. } => {
                left.period = (left.period - t).max(0.0);
                left.count -= 1;
                if left.count == 0 {
                    *left = system.overtime();
                }
            }
            TimeSystem::Japanese { period, .. } => {
                // Each whole period overrun is lost; a move within a period keeps it.
                let lost = (t / period).floor() as u32;
                left.count = left.count.saturating_sub(lost).max(1);
                left.period = period;
            }
        }
    }

    /// The time `color` may spend on a move on a `size` board after `ply` moves.
    pub fn budget(&self, color: crate::point::Color, size: usize, ply: usize) -> Duration {
        // The fixed budget keeps back 5 % of itself, at most the lag.
        let fixed = self.default_move.as_secs_f64();
        let default = fixed - (fixed * MARGIN_FRACTION).min(LAG.as_secs_f64());
        let seconds = match (self.system, self.left[color.index()]) {
            (None, None) => default,
            // A report without a time system: the fixed budget, within the reported time.
            (None, Some(left)) => default.min(Self::within(left, None, size, ply)),
            (Some(system), left) => Self::within(
                left.unwrap_or_else(|| system.fresh()),
                Some(system),
                size,
                ply,
            ),
        };
        let floor = MIN_BUDGET.as_secs_f64().min(seconds.max(0.0));
        Duration::from_secs_f64(seconds.max(floor).min(MAX_BUDGET.as_secs_f64()))
    }

    /// The budget on the clock `left` under `system` (`None`: as a Canadian clock whose
    /// overtime is unknown), less [`MOVE_OVERHEAD`].
    fn within(left: Remaining, system: Option<TimeSystem>, size: usize, ply: usize) -> f64 {
        (Self::share(left, system, size, ply) - MOVE_OVERHEAD.as_secs_f64()).max(0.0)
    }

    /// What a move may take of the clock `left`, overhead included.
    fn share(left: Remaining, system: Option<TimeSystem>, size: usize, ply: usize) -> f64 {
        if left.count > 0 {
            let period = usable(left.period);
            return match system {
                Some(TimeSystem::Japanese { .. }) => period * (1.0 - MARGIN_FRACTION),
                _ => period / f64::from(left.count),
            };
        }
        // Main time: a share of it, plus what overtime will give each move after it.
        let main = usable(left.main);
        let pool = shared(main, system.map_or(0.0, TimeSystem::main));
        let share =
            (pool / moves_left(size, ply) * middle_game(size, ply)).min(main * MAX_FRACTION);
        let overtime = match system {
            Some(TimeSystem::Canadian {
                period, stones: n, ..
            }) => usable(period) / f64::from(n.max(1)),
            Some(TimeSystem::Japanese { period, .. }) => usable(period) * (1.0 - MARGIN_FRACTION),
            _ => 0.0,
        };
        // A move that runs past the main time starts the overtime, which it may then use:
        // at most one stone's share of a Canadian period, or part of a Japanese period.
        if main > 0.0 {
            share + overtime * MAX_FRACTION
        } else {
            overtime
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::point::Color::{Black, White};

    fn secs(d: Duration) -> f64 {
        d.as_secs_f64()
    }

    /// [`MOVE_OVERHEAD`] in seconds.
    const O: f64 = 0.02;

    fn close(a: f64, b: f64) -> bool {
        (a - b).abs() < 1e-3
    }

    #[test]
    fn margins_are_small_but_never_all() {
        assert!(close(margin(100.0), 5.0));
        assert!(close(margin(2.0), 0.25));
        assert!(close(margin(0.4), 0.1));
        assert_eq!(margin(0.0), 0.0);
        for t in [0.001, 0.01, 0.3, 1.0, 10.0, 1e5] {
            assert!(margin(t) > 0.0 && margin(t) < t, "{t}");
        }
    }

    #[test]
    fn time_settings_read_as_gtp_says() {
        assert_eq!(
            TimeSystem::from_gtp(300.0, 0.0, 0),
            Some(TimeSystem::Absolute { main: 300.0 })
        );
        assert_eq!(TimeSystem::from_gtp(300.0, 30.0, 0), None, "no limit");
        assert_eq!(TimeSystem::from_gtp(0.0, 0.0, 0), None, "no time at all");
        assert_eq!(
            TimeSystem::from_gtp(0.0, 10.0, 5),
            Some(TimeSystem::Canadian {
                main: 0.0,
                period: 10.0,
                stones: 5
            })
        );
        assert_eq!(
            TimeSystem::japanese(60.0, 10.0, 0),
            Some(TimeSystem::Absolute { main: 60.0 })
        );
    }

    #[test]
    fn no_system_is_the_fixed_budget_less_its_margin() {
        let clock = Clock::new(Duration::from_millis(5000));
        assert!(close(secs(clock.budget(Black, 19, 0)), 4.75));
        let clock = Clock::new(Duration::from_millis(200));
        assert!(close(secs(clock.budget(White, 9, 30)), 0.19));
        // Absurd settings give a day at most, not a panic.
        let clock = Clock::new(Duration::from_millis(u64::MAX));
        assert_eq!(clock.budget(White, 9, 30), MAX_BUDGET);
        let mut clock = Clock::new(Duration::from_secs(5));
        clock.set_system(TimeSystem::from_gtp(1e300, 1e300, 1));
        assert_eq!(clock.budget(White, 9, 30), MAX_BUDGET);
        // A report without settings caps the fixed budget.
        let mut clock = Clock::new(Duration::from_millis(5000));
        clock.time_left(Black, 3.0, 0);
        assert!(secs(clock.budget(Black, 9, 0)) < 3.0 * MAX_FRACTION);
        assert!(close(secs(clock.budget(White, 9, 0)), 4.75));
    }

    /// The share of main time `main` of which `usable` is left after `ply` moves.
    fn expected(usable: f64, main: f64, size: usize, ply: usize) -> f64 {
        shared(usable, main) / moves_left(size, ply) * middle_game(size, ply)
    }

    #[test]
    fn moves_left_never_runs_out_and_the_middle_game_gets_more() {
        assert!(close(moves_left(13, 0), 59.15));
        assert!(close(moves_left(13, 100), 24.15));
        assert!(close(moves_left(13, 400), 0.12 * 169.0));
        assert_eq!(moves_left(2, 0), 4.0);
        assert!(close(middle_game(13, 0), 1.0));
        assert!(close(middle_game(13, 42), 1.0 + 0.5 * 42.0 / 42.25));
        assert!(middle_game(13, 60) > middle_game(13, 80));
        assert!(close(middle_game(13, 102), 1.0));
        assert!(close(middle_game(13, 300), 1.0));
        // The reserve: a tenth of the main time, never more than half of what is left.
        assert!(close(shared(19.0, 20.0), 17.0));
        assert!(close(shared(2.0, 20.0), 1.0));
        assert!(close(shared(2.0, 0.0), 2.0));
    }

    #[test]
    fn absolute_time_is_shared_out_more_in_the_middle_game_and_never_used_up() {
        let mut clock = Clock::new(Duration::from_secs(5));
        clock.set_system(TimeSystem::from_gtp(60.0, 0.0, 0));
        let first = secs(clock.budget(Black, 9, 0));
        assert!(close(first, 51.0 / 28.35 - O), "{first}");
        let middle = secs(clock.budget(Black, 9, 20));
        assert!(close(middle, expected(57.0, 60.0, 9, 20) - O), "{middle}");
        assert!(middle > first);
        let late = secs(clock.budget(Black, 9, 200));
        assert!(close(late, 51.0 / 9.72 - O), "{late}");
        // Playing every move at its budget never runs out, on any board.
        for size in [9, 13, 19] {
            let mut clock = Clock::new(Duration::from_secs(5));
            clock.set_system(TimeSystem::from_gtp(300.0, 0.0, 0));
            let mut total = 0.0;
            for ply in (0..2000).step_by(2) {
                let b = clock.budget(White, size, ply);
                total += secs(b);
                clock.spent(White, b);
            }
            assert!(total < 300.0, "{size}: {total}");
            let left = clock.left[White.index()].unwrap().main;
            assert!(left > 0.0, "{size}: {left}");
        }
    }

    /// The budgets of a game on `clock` for `color` on a `size` board, each move spending
    /// its budget and `cost` more, up to `plies` moves of the game.
    fn game(mut clock: Clock, size: usize, plies: usize, cost: Duration) -> Vec<(usize, f64)> {
        (1..plies)
            .step_by(2)
            .map(|ply| {
                let b = clock.budget(White, size, ply);
                clock.spent(White, b + cost);
                (ply, secs(b))
            })
            .collect()
    }

    #[test]
    fn a_long_13x13_game_on_20_seconds_keeps_its_share() {
        // Issue 49: 13x13, 20 s absolute; moves 71 to 142 got 0 to 40 ms each. Now, with
        // 10 ms a move spent beyond the budget, every move before move 120 gets 110 ms and
        // more, and a game of 400 moves still leaves half a second on the clock.
        let mut clock = Clock::new(Duration::from_secs(5));
        clock.set_system(TimeSystem::from_gtp(20.0, 0.0, 0));
        let budgets = game(clock, 13, 400, Duration::from_millis(10));
        let early = budgets.iter().filter(|(ply, _)| *ply < 119);
        let least = early.map(|b| b.1).fold(f64::MAX, f64::min);
        assert!(least > 0.11, "{least}");
        let total: f64 = budgets.iter().map(|b| b.1 + 0.01).sum();
        assert!(total < 20.0 - 0.5, "{total}");
        // The middle game gets more than the opening.
        assert!(budgets[20].1 > budgets[0].1, "{budgets:?}");
    }

    #[test]
    fn time_left_overrides_the_count_and_the_budget_follows_it() {
        let mut clock = Clock::new(Duration::from_secs(5));
        clock.set_system(TimeSystem::from_gtp(600.0, 0.0, 0));
        clock.time_left(Black, 10.0, 0);
        let b = secs(clock.budget(Black, 19, 100));
        assert!(close(b, expected(9.5, 600.0, 19, 100) - O), "{b}");
        // The other colour keeps its own clock.
        assert!(secs(clock.budget(White, 19, 100)) > 4.0);
        // Nothing left: the least budget there is, not a negative one.
        clock.time_left(Black, 0.0, 0);
        assert_eq!(clock.budget(Black, 19, 100), Duration::ZERO);
        clock.restart();
        assert!(secs(clock.budget(Black, 19, 100)) > 4.0);
    }

    #[test]
    fn canadian_overtime_is_shared_by_the_stones_of_the_period() {
        let mut clock = Clock::new(Duration::from_secs(5));
        clock.set_system(TimeSystem::from_gtp(0.0, 30.0, 10));
        // No main time: overtime from the first move, 28.5 s for 10 stones.
        assert!(close(secs(clock.budget(Black, 19, 0)), 2.85 - O));
        clock.time_left(Black, 4.0, 2);
        assert!(close(secs(clock.budget(Black, 19, 50)), 3.75 / 2.0 - O));
        // Our own count: two stones of the period, then a fresh period.
        clock.spent(Black, Duration::from_secs(1));
        assert!(close(secs(clock.budget(Black, 19, 52)), usable(3.0) - O));
        clock.spent(Black, Duration::from_secs(1));
        assert!(close(secs(clock.budget(Black, 19, 54)), 2.85 - O));
        // In main time the overtime adds to the share, within the clock.
        clock.set_system(TimeSystem::from_gtp(60.0, 30.0, 10));
        let b = secs(clock.budget(White, 9, 10));
        let share = expected(57.0, 60.0, 9, 10);
        assert!(close(b, share + 2.85 * MAX_FRACTION - O), "{b}");
        // A move that overruns the main time starts a period with one stone fewer.
        clock.time_left(White, 1.0, 0);
        clock.spent(White, Duration::from_secs(3));
        let left = clock.left[White.index()].unwrap();
        assert_eq!((left.count, left.main), (9, 0.0));
        assert!(close(left.period, 28.0));
    }

    #[test]
    fn japanese_byo_yomi_keeps_within_a_period() {
        let mut clock = Clock::new(Duration::from_secs(5));
        clock.set_system(TimeSystem::japanese(0.0, 10.0, 3));
        let b = secs(clock.budget(Black, 19, 0));
        assert!(close(b, 9.5 * 0.95 - O), "{b}");
        // Within the period: it is kept whole; overrunning it loses one.
        clock.spent(Black, Duration::from_secs(9));
        assert_eq!(clock.left[0].unwrap().count, 3);
        clock.spent(Black, Duration::from_secs(12));
        assert_eq!(clock.left[0].unwrap().count, 2);
        // KGS reports the time in the current period and the periods left.
        clock.time_left(Black, 4.0, 1);
        assert!(close(secs(clock.budget(Black, 19, 0)), 3.75 * 0.95 - O));
        // Main time first: the share plus part of a period.
        clock.set_system(TimeSystem::japanese(100.0, 10.0, 3));
        let b = secs(clock.budget(White, 13, 0));
        let share = expected(95.0, 100.0, 13, 0);
        assert!(close(b, share + 9.5 * 0.95 * MAX_FRACTION - O), "{b}");
    }

    #[test]
    fn the_budget_never_exceeds_the_time_left() {
        for system in [
            TimeSystem::from_gtp(5.0, 0.0, 0),
            TimeSystem::from_gtp(5.0, 2.0, 3),
            TimeSystem::japanese(5.0, 1.0, 2),
        ] {
            let mut clock = Clock::new(Duration::from_secs(5));
            clock.set_system(system);
            for (seconds, stones) in [(0.05, 0), (0.5, 0), (3.0, 0), (0.05, 1), (0.9, 3)] {
                clock.time_left(Black, seconds, stones);
                for ply in [0, 10, 40, 200] {
                    let b = secs(clock.budget(Black, 9, ply));
                    let left = if stones == 0 {
                        // Main time, then at most part of the overtime.
                        seconds + 2.0
                    } else {
                        seconds
                    };
                    assert!(b < left, "{system:?} {seconds} {stones} {ply}: {b}");
                }
            }
        }
    }
}
