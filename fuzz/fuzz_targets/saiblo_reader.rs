//! Fuzz target `saiblo_reader`: the body is `gravity4_fuzzing::saiblo_reader::run` (fuzz/harness).
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| gravity4_fuzzing::saiblo_reader::run(data));
