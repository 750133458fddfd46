//! Fuzz target `judge_botzone`: the body is `gravity4_fuzzing::judge_botzone::run` (fuzz/harness).
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| gravity4_fuzzing::judge_botzone::run(data));
