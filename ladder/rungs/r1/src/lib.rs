//! Ladder opponent 1 as a course-ABI shared library (`1.so`); the strategy is
//! `gravity4_ladder::LADDER` entry 1, described in `ladder/README.md`.

gravity4_ladder::export_rung!(1);
