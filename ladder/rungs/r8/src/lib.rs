//! Ladder opponent 8 as a course-ABI shared library (`8.so`); the strategy is
//! `gravity4_ladder::LADDER` entry 8, described in `ladder/README.md`.

gravity4_ladder::export_rung!(8);
