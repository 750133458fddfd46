//! Ladder opponent 9 as a course-ABI shared library (`9.so`); the strategy is
//! `gravity4_ladder::LADDER` entry 9, described in `ladder/README.md`.

gravity4_ladder::export_rung!(9);
