//! Fuzz target `judge_saiblo`: the body is `gravity4_fuzzing::judge_saiblo::run` (fuzz/harness).
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| gravity4_fuzzing::judge_saiblo::run(data));
