//! # gravity4-ladder: numbered opponents for the gravity4 strategy library
//!
//! The course hands students numbered opponent libraries (`2.so` .. `100.so`, stronger as the
//! number grows). This crate is our own such ladder: [`LADDER`] lists the rungs, weakest first,
//! and each rung crate under `ladder/rungs/` is a few lines that export one of them through the
//! course's C ABI with [`export_rung!`]. `scripts/build-ladder.sh` builds them all and copies
//! them to `target/ladder/N.so`.
//!
//! The strategies, one idea per module:
//! - [`random`]: a uniformly random legal move.
//! - [`greedy`]: win now, else block the opponent's win now, else random (optionally avoiding
//!   moves that hand the opponent a win on top).
//! - [`alphabeta`]: negamax with alpha-beta and a threat-counting evaluation at a fixed depth.
//! - [`uct`]: the `gravity4` library's own search, at a share of its per-move budget
//!   (`GRAVITY4_MOVE_MS`, so the whole ladder's top scales with it).
//!
//! [`arena`] plays strategies against each other in-process, for tuning and tests (the
//! measured table in `ladder/README.md` comes from the real judge).
//!
//! Every strategy sees the side to move as [`Position::to_move`](gravity4::position::Position),
//! never assumes it is `Side::Us`, and breaks ties with a generator seeded from the OS per call,
//! so repeated games on one board differ.

pub mod alphabeta;
pub mod arena;
pub mod greedy;
pub mod random;
pub mod uct;

use gravity4::position::Position;
use gravity4::request::Request;
use rand::SeedableRng;
use rand::rngs::SmallRng;

#[doc(hidden)]
pub use gravity4 as __gravity4;

/// A strategy: the column to play for the side to move in `request.position`.
///
/// It must return an open column; `request.entry` is when the call began (budgets count from
/// it).
pub type Strategy = fn(&Request) -> usize;

/// One rung of the ladder.
#[derive(Clone, Copy, Debug)]
pub struct Rung {
    /// The rung's number: its library is `N.so`.
    pub number: u32,
    /// A short name for tables.
    pub name: &'static str,
    /// The strategy.
    pub choose: Strategy,
}

/// The ladder, weakest first: `LADDER[n - 1]` is rung `n`. The order was measured (see
/// `ladder/README.md`): each rung scores at least 65% against the one below it.
pub const LADDER: [Rung; 10] = [
    Rung {
        number: 1,
        name: "random",
        choose: random::choose,
    },
    Rung {
        number: 2,
        name: "greedy",
        choose: greedy::choose,
    },
    Rung {
        number: 3,
        name: "greedy-safe",
        choose: greedy::choose_safe,
    },
    Rung {
        number: 4,
        name: "alphabeta-d2",
        choose: alphabeta::choose_depth_2,
    },
    Rung {
        number: 5,
        name: "alphabeta-d3",
        choose: alphabeta::choose_depth_3,
    },
    Rung {
        number: 6,
        name: "alphabeta-d5",
        choose: alphabeta::choose_depth_5,
    },
    Rung {
        number: 7,
        name: "alphabeta-d7",
        choose: alphabeta::choose_depth_7,
    },
    Rung {
        number: 8,
        name: "uct-4.5%",
        choose: uct::choose_4_5_percent,
    },
    Rung {
        number: 9,
        name: "uct-16%",
        choose: uct::choose_16_percent,
    },
    Rung {
        number: 10,
        name: "uct-full",
        choose: uct::choose_full,
    },
];

/// Rung `number` (1-based). Panics (at compile time when used in a const) if there is none.
pub const fn rung(number: u32) -> &'static Rung {
    assert!(
        number >= 1 && number as usize <= LADDER.len(),
        "no such rung"
    );
    &LADDER[number as usize - 1]
}

/// A fresh generator per call: the judge runs every call on a new thread and may load one
/// library for both sides, so nothing random is worth keeping between calls.
pub fn fresh_rng() -> SmallRng {
    SmallRng::from_os_rng()
}

/// The open columns of `pos`, left to right.
pub fn open_columns(pos: &Position) -> impl Iterator<Item = usize> + use<> {
    let mut mask = pos.open_columns();
    std::iter::from_fn(move || {
        (mask != 0).then(|| {
            let col = mask.trailing_zeros() as usize;
            mask &= mask - 1;
            col
        })
    })
}

/// Exports the course's `getPoint` and `clearPoint` for ladder rung `$number`.
///
/// A rung crate's whole `lib.rs` is `gravity4_ladder::export_rung!(N);`. The symbols come from
/// the library's own [`export_course_abi!`](gravity4::export_course_abi), so validation, panic
/// catching and the fallback move are the library's; this only picks the strategy.
#[macro_export]
macro_rules! export_rung {
    ($number:literal) => {
        /// The strategy this library plays, checked to exist at compile time.
        const RUNG: &$crate::Rung = $crate::rung($number);

        $crate::__gravity4::export_course_abi!(RUNG.choose);
    };
}
