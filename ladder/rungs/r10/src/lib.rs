//! Ladder opponent 10 as a course-ABI shared library (`10.so`); the strategy is
//! `gravity4_ladder::LADDER` entry 10, described in `ladder/README.md`.

gravity4_ladder::export_rung!(10);
