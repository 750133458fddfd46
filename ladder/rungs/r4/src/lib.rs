//! Ladder opponent 4 as a course-ABI shared library (`4.so`); the strategy is
//! `gravity4_ladder::LADDER` entry 4, described in `ladder/README.md`.

gravity4_ladder::export_rung!(4);
