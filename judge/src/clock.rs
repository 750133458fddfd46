//! A game clock per player: main time, then Canadian byo-yomi, as GTP's `time_settings`
//! describes it and Go servers (CGOS, KGS) play it. Once main time is used up, each
//! period of `byoyomi` gives that long for `stones` moves; playing them renews the
//! period, running out of it loses. Without byo-yomi (`byoyomi` 0) main time is the
//! whole game's (absolute time).
//!
//! The referee keeps one clock per side and charges each move's wall time to the
//! mover's, as the judge measured it; a move may take at most what the clock has left
//! ([`Clock::available`]), so a player thinking past it loses on time. A move that
//! starts in main time and runs past it continues into the first period, and counts as
//! one of its stones.

use std::fmt;
use std::time::Duration;

use serde::{Deserialize, Serialize};

/// A clock's settings (`--main-time`, `--byoyomi`, `--byoyomi-stones`; run.json's
/// `clock`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct ClockSettings {
    /// Main time, ms.
    pub main_ms: u64,
    /// A byo-yomi period, ms (0: no byo-yomi).
    pub byoyomi_ms: u64,
    /// Moves to play in each period (at least 1 when there is byo-yomi, else 0).
    pub byoyomi_stones: u32,
}

impl ClockSettings {
    /// Main time `main_ms`, then periods of `byoyomi_ms` for `byoyomi_stones` moves each.
    /// `Err` (a usage error) for a clock with no time at all, or byo-yomi with no stones.
    pub fn new(
        main_ms: u64,
        byoyomi_ms: u64,
        byoyomi_stones: u32,
    ) -> Result<ClockSettings, String> {
        if main_ms == 0 && byoyomi_ms == 0 {
            return Err("a game clock needs --main-time or --byoyomi (or both)".into());
        }
        if byoyomi_ms > 0 && byoyomi_stones == 0 {
            return Err("--byoyomi-stones must be at least 1".into());
        }
        Ok(ClockSettings {
            main_ms,
            byoyomi_ms,
            byoyomi_stones: if byoyomi_ms > 0 { byoyomi_stones } else { 0 },
        })
    }

    /// The longest a single move can ever take: main time and one period.
    pub fn longest_move(&self) -> Duration {
        Duration::from_millis(self.main_ms + self.byoyomi_ms)
    }
}

impl fmt::Display for ClockSettings {
    /// `60 s main time, then 10 s for 5 moves` (`60 s main time, absolute` without
    /// byo-yomi).
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let s = |ms: u64| ms as f64 / 1e3;
        write!(f, "{} s main time", s(self.main_ms))?;
        match self.byoyomi_stones {
            0 => write!(f, ", absolute"),
            1 => write!(f, ", then {} s a move", s(self.byoyomi_ms)),
            n => write!(f, ", then {} s for {n} moves", s(self.byoyomi_ms)),
        }
    }
}

/// What the clock shows before a move, as GTP's `time_left` says it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct TimeLeft {
    /// Main time left, or in byo-yomi the time left in this period.
    pub time: Duration,
    /// In byo-yomi, the moves still to play in this period; 0 in main time.
    pub stones: u32,
}

/// One side's clock during a game.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Clock {
    settings: ClockSettings,
    main_left: Duration,
    /// In byo-yomi: the time left in this period and the moves still to play in it.
    period: Option<(Duration, u32)>,
}

impl Clock {
    /// A full clock (straight into byo-yomi when there is no main time).
    pub fn new(settings: ClockSettings) -> Clock {
        let mut clock = Clock {
            settings,
            main_left: Duration::from_millis(settings.main_ms),
            period: None,
        };
        clock.enter_byoyomi_if_due();
        clock
    }

    /// The settings it runs under.
    pub fn settings(&self) -> ClockSettings {
        self.settings
    }

    fn fresh_period(&self) -> (Duration, u32) {
        (
            Duration::from_millis(self.settings.byoyomi_ms),
            self.settings.byoyomi_stones,
        )
    }

    /// Main time is used up and there is byo-yomi: a period starts.
    fn enter_byoyomi_if_due(&mut self) {
        if self.period.is_none() && self.main_left.is_zero() && self.settings.byoyomi_ms > 0 {
            self.period = Some(self.fresh_period());
        }
    }

    /// The longest the next move may take: what is left of main time and, with byo-yomi,
    /// one period; in byo-yomi, what is left of the period.
    pub fn available(&self) -> Duration {
        match self.period {
            Some((left, _)) => left,
            None => self.main_left + Duration::from_millis(self.settings.byoyomi_ms),
        }
    }

    /// What the clock shows now (GTP's `time_left`).
    pub fn time_left(&self) -> TimeLeft {
        match self.period {
            Some((time, stones)) => TimeLeft { time, stones },
            None => TimeLeft {
                time: self.main_left,
                stones: 0,
            },
        }
    }

    /// Charges a move that took `spent`. `Err` when it took longer than the clock had
    /// left (the flag fell; the clock is then empty).
    pub fn charge(&mut self, spent: Duration) -> Result<(), OutOfTime> {
        if spent > self.available() {
            self.main_left = Duration::ZERO;
            self.period = Some((Duration::ZERO, self.settings.byoyomi_stones));
            return Err(OutOfTime);
        }
        let (left, stones) = match self.period {
            None if spent <= self.main_left => {
                self.main_left -= spent;
                self.enter_byoyomi_if_due();
                return Ok(());
            }
            // Past main time: the rest of the move is the first period's.
            None => {
                let over = spent - self.main_left;
                self.main_left = Duration::ZERO;
                let (period, stones) = self.fresh_period();
                (period - over, stones)
            }
            Some((left, stones)) => (left - spent, stones),
        };
        self.period = Some(if stones <= 1 {
            self.fresh_period()
        } else {
            (left, stones - 1)
        });
        Ok(())
    }
}

/// A move took longer than its clock had left.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct OutOfTime;

#[cfg(test)]
mod tests {
    use super::*;

    fn ms(n: u64) -> Duration {
        Duration::from_millis(n)
    }

    #[test]
    fn settings_need_time_and_stones() {
        assert!(ClockSettings::new(0, 0, 0).is_err());
        assert!(ClockSettings::new(0, 1000, 0).is_err());
        let s = ClockSettings::new(5000, 0, 7).unwrap();
        assert_eq!(s.byoyomi_stones, 0, "no byo-yomi, no stones");
        assert_eq!(s.to_string(), "5 s main time, absolute");
        let s = ClockSettings::new(60_000, 10_000, 5).unwrap();
        assert_eq!(s.to_string(), "60 s main time, then 10 s for 5 moves");
        assert_eq!(s.longest_move(), ms(70_000));
        assert_eq!(
            ClockSettings::new(0, 1500, 1).unwrap().to_string(),
            "0 s main time, then 1.5 s a move"
        );
    }

    #[test]
    fn absolute_time_runs_down_and_out() {
        let mut c = Clock::new(ClockSettings::new(1000, 0, 0).unwrap());
        assert_eq!(c.available(), ms(1000));
        c.charge(ms(400)).unwrap();
        assert_eq!(
            c.time_left(),
            TimeLeft {
                time: ms(600),
                stones: 0
            }
        );
        c.charge(ms(600)).unwrap();
        assert_eq!(c.available(), Duration::ZERO);
        assert_eq!(c.charge(ms(1)), Err(OutOfTime));
    }

    #[test]
    fn byoyomi_periods_renew_after_their_stones() {
        let mut c = Clock::new(ClockSettings::new(1000, 500, 3).unwrap());
        assert_eq!(c.available(), ms(1500), "main time and one period");
        // Past main time by 200 ms: the first period has 300 ms left for 2 more moves.
        c.charge(ms(1200)).unwrap();
        assert_eq!(
            c.time_left(),
            TimeLeft {
                time: ms(300),
                stones: 2
            }
        );
        c.charge(ms(100)).unwrap();
        assert_eq!(c.time_left().stones, 1);
        assert_eq!(c.available(), ms(200));
        // The period's last stone renews it.
        c.charge(ms(200)).unwrap();
        assert_eq!(
            c.time_left(),
            TimeLeft {
                time: ms(500),
                stones: 3
            }
        );
        assert_eq!(c.charge(ms(501)), Err(OutOfTime));
        assert_eq!(c.available(), Duration::ZERO);
    }

    #[test]
    fn main_time_used_exactly_starts_a_fresh_period() {
        let mut c = Clock::new(ClockSettings::new(1000, 300, 1).unwrap());
        c.charge(ms(1000)).unwrap();
        assert_eq!(
            c.time_left(),
            TimeLeft {
                time: ms(300),
                stones: 1
            }
        );
        // One stone a period: every move gets the whole period again.
        for _ in 0..5 {
            c.charge(ms(250)).unwrap();
            assert_eq!(c.available(), ms(300));
        }
        // No main time at all: byo-yomi from the first move.
        let c = Clock::new(ClockSettings::new(0, 2000, 4).unwrap());
        assert_eq!(
            c.time_left(),
            TimeLeft {
                time: ms(2000),
                stones: 4
            }
        );
    }
}
