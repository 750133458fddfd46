//! Ladder opponent 2 as a course-ABI shared library (`2.so`); the strategy is
//! `gravity4_ladder::LADDER` entry 2, described in `ladder/README.md`.

gravity4_ladder::export_rung!(2);
