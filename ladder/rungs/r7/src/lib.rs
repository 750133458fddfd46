//! Ladder opponent 7 as a course-ABI shared library (`7.so`); the strategy is
//! `gravity4_ladder::LADDER` entry 7, described in `ladder/README.md`.

gravity4_ladder::export_rung!(7);
