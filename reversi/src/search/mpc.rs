//! Multi-ProbCut (Buro 1997, "Experiments with Multi-ProbCut and a New High-Quality Evaluation
//! Function for Othello"): a deep search's value is predicted by a shallow one's, `v_D ≈ a·v_d
//! + b` with residual spread `sigma`, so a node at depth `D` whose shallow search lies far
//! enough outside the window (by `t·sigma`) is cut without the deep search.
//!
//! The fits, one per phase (a node's empties, by [`patterns::stage`]) and deep depth, come from
//! the learned engine's own searches on positions of the project's self-play
//! (`reversi train mpc`, [`crate::learned::mpc`]) and ship as the generated [`table`] module.
//! Only the `learned` engine cuts: the fits describe its evaluation.

use super::patterns;

#[rustfmt::skip]
mod table;

/// The cut threshold `t` in standard deviations. Buro used about 1.5 in Logistello: a cut is
/// wrong for about 7 % of the nodes it would touch if the residuals were normal.
pub const CUT_THRESHOLD: f32 = 1.5;

/// The shallowest deep depth with a fit: below it a shallow search saves too little.
pub const MIN_DEEP: u32 = 3;

/// The deepest depth the shipped table was fitted to (`reversi train mpc --max-depth`).
pub const MAX_DEEP: u32 = table::MAX_DEEP;

/// Fewer samples than this in a (phase, depth) bucket give no fit: the spread would be a guess.
pub const MIN_SAMPLES: u32 = 30;

/// The shallow depth paired with deep depth `deep`: about half, of the same parity, since an
/// Othello search's value swings with the parity of its depth (the side that moved last at
/// the leaves looks better).
pub fn shallow_depth(deep: u32) -> u32 {
    let half = deep / 2;
    let d = if half % 2 == deep % 2 { half } else { half - 1 };
    d.max(1)
}

/// One fitted relation, in the search's unit (hundredths of a disc).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Fit {
    /// The phase ([`patterns::stage`] of the node's empties).
    pub stage: u8,
    /// The deep depth `D`; the shallow one is [`shallow_depth`]`(D)`.
    pub deep: u8,
    /// Slope `a` of `v_D ≈ a·v_d + b`.
    pub a: f32,
    /// Intercept `b`.
    pub b: f32,
    /// Root-mean-square residual of the relation.
    pub sigma: f32,
    /// Positions it was fitted on.
    pub samples: u32,
}

/// The shallow searches that may cut a node: a null window at `high` (`v_d >= high` predicts
/// `v_D >= beta`) and one at `low` (`v_d <= low` predicts `v_D <= alpha`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Probe {
    /// The shallow search's depth.
    pub shallow: u32,
    /// Fail-high test value.
    pub high: i32,
    /// Fail-low test value.
    pub low: i32,
}

/// The fits by phase and deep depth, with a cut threshold.
#[derive(Clone, Debug)]
pub struct Mpc {
    fits: Vec<Option<Fit>>,
    threshold: f32,
}

impl Mpc {
    /// The table built from `fits` (later duplicates win), cutting at `threshold` sigmas.
    pub fn new(fits: &[Fit], threshold: f32) -> Mpc {
        let mut table = vec![None; patterns::STAGES * (MAX_DEEP as usize + 1)];
        for f in fits {
            if u32::from(f.deep) <= MAX_DEEP && usize::from(f.stage) < patterns::STAGES {
                table[Self::slot(usize::from(f.stage), u32::from(f.deep))] = Some(*f);
            }
        }
        Mpc {
            fits: table,
            threshold,
        }
    }

    /// The shipped fits at [`CUT_THRESHOLD`], checked once.
    pub fn builtin() -> &'static Mpc {
        static MPC: std::sync::OnceLock<Mpc> = std::sync::OnceLock::new();
        MPC.get_or_init(|| {
            check(table::FITS).expect("the shipped Multi-ProbCut table is sane");
            Mpc::new(table::FITS, CUT_THRESHOLD)
        })
    }

    fn slot(stage: usize, deep: u32) -> usize {
        stage * (MAX_DEEP as usize + 1) + deep as usize
    }

    /// The probe for a node with `empties` empties searched to `depth` in the window
    /// (`alpha`, `beta`), or `None` where there is no fit. `limit` bounds the evaluation's
    /// range: a test value past it could only be met by a proven result, which a shallow
    /// evaluated search does not predict.
    pub fn probe(
        &self,
        empties: u32,
        depth: u32,
        alpha: i32,
        beta: i32,
        limit: i32,
    ) -> Option<Probe> {
        if !(MIN_DEEP..=MAX_DEEP).contains(&depth) || depth >= empties {
            return None;
        }
        let fit = self.fits[Self::slot(patterns::stage(empties), depth)]?;
        let margin = self.threshold * fit.sigma;
        let high = ((beta as f32 + margin - fit.b) / fit.a).ceil() as i32;
        let low = ((alpha as f32 - margin - fit.b) / fit.a).floor() as i32;
        Some(Probe {
            shallow: shallow_depth(depth),
            high: high.clamp(-limit, limit),
            low: low.clamp(-limit, limit),
        })
    }
}

/// Checks fits for use: a positive slope near one, a positive finite spread, enough samples,
/// a known phase and depth. The error names the first bad fit.
pub fn check(fits: &[Fit]) -> Result<(), String> {
    for f in fits {
        let ok = f.a.is_finite()
            && (0.3..=3.0).contains(&f.a)
            && f.b.is_finite()
            && f.sigma.is_finite()
            && f.sigma > 0.0
            && f.samples >= MIN_SAMPLES
            && usize::from(f.stage) < patterns::STAGES
            && (MIN_DEEP..=MAX_DEEP).contains(&u32::from(f.deep));
        if !ok {
            return Err(format!("bad Multi-ProbCut fit {f:?}"));
        }
    }
    Ok(())
}

/// The generated `table.rs` for `fits`, fitted to `max_deep` by `command`.
pub fn render(fits: &[Fit], max_deep: u32, command: &str) -> String {
    let mut s = String::new();
    s.push_str("//! Generated by `");
    s.push_str(command);
    s.push_str(
        "`: do not edit.\n//! Multi-ProbCut fits by phase and deep depth (see `super`).\n\n",
    );
    s.push_str("use super::Fit;\n\n");
    s.push_str("/// The deepest depth fitted.\n");
    s.push_str(&format!("pub(super) const MAX_DEEP: u32 = {max_deep};\n\n"));
    s.push_str("/// The fits.\n");
    s.push_str("pub(super) const FITS: &[Fit] = &[\n");
    for f in fits {
        s.push_str(&format!(
            "    Fit {{ stage: {}, deep: {}, a: {:?}, b: {:?}, sigma: {:?}, samples: {} }},\n",
            f.stage, f.deep, f.a, f.b, f.sigma, f.samples
        ));
    }
    s.push_str("];\n");
    s
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn shallow_depths_are_about_half_and_of_the_same_parity() {
        for deep in MIN_DEEP..=14 {
            let d = shallow_depth(deep);
            assert!(d >= 1 && d < deep, "{deep} -> {d}");
            if deep >= 4 {
                assert_eq!(d % 2, deep % 2, "{deep} -> {d}");
            }
        }
        assert_eq!(shallow_depth(8), 4);
        assert_eq!(shallow_depth(6), 2);
    }

    #[test]
    fn the_shipped_table_is_sane() {
        check(table::FITS).unwrap();
        assert!(!table::FITS.is_empty());
        assert!(Mpc::builtin().fits.iter().flatten().count() == table::FITS.len());
    }

    #[test]
    fn probe_windows_follow_the_fit() {
        let fit = Fit {
            stage: 6,
            deep: 6,
            a: 1.0,
            b: 50.0,
            sigma: 200.0,
            samples: 100,
        };
        let mpc = Mpc::new(&[fit], 1.5);
        // 30 empties is stage 6.
        let p = mpc.probe(30, 6, -100, 100, 6400).unwrap();
        assert_eq!(p.shallow, 2);
        assert_eq!(p.high, 100 + 300 - 50);
        assert_eq!(p.low, -100 - 300 - 50);
        assert_eq!(mpc.probe(30, 5, -100, 100, 6400), None);
        assert_eq!(mpc.probe(40, 6, -100, 100, 6400), None);
        let clamped = mpc.probe(30, 6, -6200, 6200, 6400).unwrap();
        assert_eq!((clamped.low, clamped.high), (-6400, 6400));
    }

    #[test]
    fn bad_fits_are_refused() {
        let good = Fit {
            stage: 6,
            deep: 6,
            a: 1.0,
            b: 0.0,
            sigma: 200.0,
            samples: 100,
        };
        assert!(check(&[good]).is_ok());
        for bad in [
            Fit {
                a: f32::NAN,
                ..good
            },
            Fit { a: -1.0, ..good },
            Fit { sigma: 0.0, ..good },
            Fit { samples: 3, ..good },
            Fit { deep: 2, ..good },
        ] {
            assert!(check(&[bad]).is_err(), "{bad:?}");
        }
    }

    #[test]
    fn render_writes_every_fit() {
        let f = Fit {
            stage: 6,
            deep: 6,
            a: 1.0,
            b: 0.5,
            sigma: 200.0,
            samples: 100,
        };
        let text = render(&[f, f], 8, "reversi train mpc");
        assert_eq!(text.matches("Fit { stage: 6").count(), 2);
        assert!(text.contains("MAX_DEEP: u32 = 8;"));
    }
}
