//! Fuzz target `reversi_gtp`: the body is `gravity4_fuzzing::reversi_gtp::run` (fuzz/harness).
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| gravity4_fuzzing::reversi_gtp::run(data));
