//! Fuzz target `go_model`: the body is `gravity4_fuzzing::go_model::run` (fuzz/harness).
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| gravity4_fuzzing::go_model::run(data));
