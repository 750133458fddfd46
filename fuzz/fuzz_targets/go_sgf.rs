//! Fuzz target `go_sgf`: the body is `gravity4_fuzzing::go_sgf::run` (fuzz/harness).
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| gravity4_fuzzing::go_sgf::run(data));
