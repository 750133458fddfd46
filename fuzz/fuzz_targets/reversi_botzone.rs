//! Fuzz target `reversi_botzone`: the body is `gravity4_fuzzing::reversi_botzone::run` (fuzz/harness).
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| gravity4_fuzzing::reversi_botzone::run(data));
