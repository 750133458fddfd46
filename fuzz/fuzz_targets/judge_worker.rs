//! Fuzz target `judge_worker`: the body is `gravity4_fuzzing::judge_worker::run` (fuzz/harness).
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| gravity4_fuzzing::judge_worker::run(data));
