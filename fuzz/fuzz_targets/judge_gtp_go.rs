//! Fuzz target `judge_gtp_go`: the body is `gravity4_fuzzing::judge_gtp_go::run` (fuzz/harness).
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| gravity4_fuzzing::judge_gtp_go::run(data));
