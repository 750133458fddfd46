//! Ladder opponent 6 as a course-ABI shared library (`6.so`); the strategy is
//! `gravity4_ladder::LADDER` entry 6, described in `ladder/README.md`.

gravity4_ladder::export_rung!(6);
