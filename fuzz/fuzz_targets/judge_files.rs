//! Fuzz target `judge_files`: the body is `gravity4_fuzzing::judge_files::run` (fuzz/harness).
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| gravity4_fuzzing::judge_files::run(data));
