//! Ladder opponent 3 as a course-ABI shared library (`3.so`); the strategy is
//! `gravity4_ladder::LADDER` entry 3, described in `ladder/README.md`.

gravity4_ladder::export_rung!(3);
