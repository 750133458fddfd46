//! The learned evaluation as shipped: the built-in tables pass their checksum, reproduce the
//! error the training measured on positions it never trained on, and a weights file that
//! does not match stops the program at start-up with one clear line.

use std::process::Command;

use reversi::position::{Color, Position, Rule};
use reversi::search::patterns::{self, Tables};

/// The held-back samples written by `reversi train fit` beside the shipped tables, one per
/// rule set.
const HOLDOUTS: [(Rule, &str); 2] = [
    (
        Rule::Standard,
        include_str!("../weights/standard-holdout.txt"),
    ),
    (
        Rule::NoAdjacent,
        include_str!("../weights/no-adjacent-holdout.txt"),
    ),
];

/// The sample's error may exceed the whole test set's by this factor: a few hundred
/// positions estimate a root-mean-square error to within about 5 % (one standard error is
/// rmse / sqrt(2 n)), so 1.25 leaves room for the draw of the sample, not for worse tables.
const SAMPLE_TOLERANCE: f64 = 1.25;

/// The tables must explain this much of the labels: their error is at most this share of
/// the error of predicting 0 (a draw) everywhere.
const BETTER_THAN_ZERO: f64 = 0.8;

struct Holdout {
    test_rmse: f64,
    sample_rmse: f64,
    checksum: u64,
    positions: Vec<(Position, f64)>,
}

fn holdout(rule: Rule, text: &str) -> Holdout {
    let mut h = Holdout {
        test_rmse: f64::NAN,
        sample_rmse: f64::NAN,
        checksum: 0,
        positions: Vec::new(),
    };
    for line in text.lines().filter(|l| !l.starts_with('#')) {
        let fields: Vec<&str> = line.split_whitespace().collect();
        match fields[..] {
            ["test_rmse", v] => h.test_rmse = v.parse().unwrap(),
            ["sample_rmse", v] => h.sample_rmse = v.parse().unwrap(),
            ["checksum", v] => h.checksum = u64::from_str_radix(v, 16).unwrap(),
            [own, opp, label] => {
                let own = u64::from_str_radix(own, 16).unwrap();
                let opp = u64::from_str_radix(opp, 16).unwrap();
                let pos = Position::from_parts(own, opp, Color::Black, None, rule).unwrap();
                h.positions.push((pos, label.parse().unwrap()));
            }
            _ => panic!("unexpected holdout line {line:?}"),
        }
    }
    h
}

/// Root-mean-square error of `tables` on the sample, and that of predicting 0.
fn errors(tables: &Tables, sample: &[(Position, f64)]) -> (f64, f64) {
    let (mut sq, mut zero) = (0.0, 0.0);
    for (pos, label) in sample {
        let e = f64::from(tables.evaluate(pos, pos.move_mask())) / 100.0 - label;
        sq += e * e;
        zero += label * label;
    }
    let n = sample.len() as f64;
    ((sq / n).sqrt(), (zero / n).sqrt())
}

#[test]
fn the_built_in_tables_meet_their_validation_error_on_held_back_positions() {
    for (rule, text) in HOLDOUTS {
        let h = holdout(rule, text);
        let tables = patterns::builtin(rule).expect("the built-in tables pass their checks");
        assert_eq!(
            tables.checksum(),
            h.checksum,
            "{rule:?}: the sample belongs to other tables"
        );
        assert!(h.positions.len() >= 200, "{rule:?}: {}", h.positions.len());
        let (rmse, zero) = errors(tables, &h.positions);
        // The shipped tables are the ones the sample was measured on...
        assert!(
            (rmse - h.sample_rmse).abs() < 0.01,
            "{rule:?}: {rmse} vs {}",
            h.sample_rmse
        );
        // ...within the training's test error, and far better than knowing nothing.
        assert!(
            rmse <= SAMPLE_TOLERANCE * h.test_rmse,
            "{rule:?}: {rmse} vs {}",
            h.test_rmse
        );
        assert!(
            rmse <= BETTER_THAN_ZERO * zero,
            "{rule:?}: {rmse} vs {zero}"
        );
    }
}

#[test]
fn each_rule_set_scores_with_its_own_tables() {
    let by_rule = patterns::ByRule::builtin().unwrap();
    let (standard, no_adjacent) = (by_rule.standard, by_rule.no_adjacent);
    assert_ne!(standard.checksum(), no_adjacent.checksum());
    for (rule, text) in HOLDOUTS {
        let (own, other) = match rule {
            Rule::Standard => (standard, no_adjacent),
            Rule::NoAdjacent => (no_adjacent, standard),
        };
        let mut differ = 0;
        for (pos, _) in holdout(rule, text).positions {
            let moves = pos.move_mask();
            assert_eq!(by_rule.evaluate(&pos, moves), own.evaluate(&pos, moves));
            differ += usize::from(own.evaluate(&pos, moves) != other.evaluate(&pos, moves));
        }
        assert!(
            differ > 100,
            "{rule:?}: only {differ} positions tell the tables apart"
        );
    }
}

#[test]
fn a_weights_file_that_does_not_match_stops_the_program() {
    let dir = std::env::temp_dir().join(format!("reversi-learned-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let mut bytes = include_bytes!("../weights/standard.bin").to_vec();
    let last = bytes.len() - 1;
    bytes[last] ^= 0x40;
    let bad = dir.join("bad.bin");
    std::fs::write(&bad, &bytes).unwrap();
    let good = dir.join("good.bin");
    bytes[last] ^= 0x40;
    std::fs::write(&good, &bytes).unwrap();
    let run = |path: &std::path::Path| {
        Command::new(env!("CARGO_BIN_EXE_reversi"))
            .args(["gtp", "--profile", "learned", "--move-ms", "20"])
            .env("REVERSI_PATTERNS", path)
            .stdin(std::process::Stdio::null())
            .output()
            .unwrap()
    };
    let out = run(&bad);
    assert_eq!(out.status.code(), Some(2));
    let stderr = String::from_utf8(out.stderr).unwrap();
    assert!(
        stderr.starts_with("reversi: REVERSI_PATTERNS: ") && stderr.contains("checksum mismatch"),
        "{stderr}"
    );
    assert_eq!(stderr.lines().count(), 1, "{stderr}");
    assert!(run(&good).status.success());
    std::fs::remove_dir_all(&dir).unwrap();
}
