//! Ladder opponent 5 as a course-ABI shared library (`5.so`); the strategy is
//! `gravity4_ladder::LADDER` entry 5, described in `ladder/README.md`.

gravity4_ladder::export_rung!(5);
