//! Fuzz target `get_point`: the body is `gravity4_fuzzing::get_point::run` (fuzz/harness).
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| gravity4_fuzzing::get_point::run(data));
