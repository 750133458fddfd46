//! What a search does, as one value: the profile, its UCB1 constant and the techniques it
//! uses.
//!
//! [`SearchConfig`] is the single description every consumer reads: the library's `getPoint`
//! (through [`Settings`](crate::settings::Settings), which parses the environment into one),
//! the speed bench, the tests and the ladder's pinned rungs. The shipped default is
//! [`SearchConfig::strong`] and the course's baseline [`SearchConfig::classic`], so a bench
//! row or a test named after a profile runs exactly what that profile ships.

/// The classic profile's UCB1 exploration constant `c` in
/// `Q/N + c * sqrt(2 ln N_parent / N)`: 0.8 is the value the course's reference UCT uses.
pub const CLASSIC_EXPLORATION: f32 = 0.8;

/// The strong profile's UCB1 exploration constant. With proofs and tactical playouts the
/// course's 0.8 explores too much: 0.5 beat it by +115 +- 74 Elo (SPRT H1, 200 ms), and 0.3
/// scored 50-51 against 0.5 (STRENGTH.md, `scripts/strength.sh tune`).
pub const STRONG_EXPLORATION: f32 = 0.5;

/// The step of policy adaptation on a log-weight: 0.32, the value of Cazenave's paper
/// (`GRAVITY4_PPA_RATE` overrides it, for tuning).
pub const ADAPTATION_RATE: f32 = 0.32;

/// With [`Techniques::value_model`], the virtual visits a new node's model value counts for
/// (`GRAVITY4_MODEL_PRIOR` overrides it): 4, a first guess, a few playouts' worth.
pub const MODEL_PRIOR: u32 = 4;

/// With [`Techniques::value_model`], the deepest node (plies below the root) that gets the
/// prior (`GRAVITY4_MODEL_DEPTH` overrides it): every node by default. An evaluation reads
/// every window of the board, a third of an iteration's time at every new leaf, so a
/// shallower limit spends it only where the tree's choices are made.
pub const MODEL_DEPTH: u32 = 144;

/// Which search plays.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Profile {
    /// The plain two-board UCT of the course report: UCB1 with c = 0.8, random playouts,
    /// best-mean final move. Kept unchanged as the baseline every improvement is measured on.
    Classic,
    /// The strongest configuration: UCT with proofs, tactical expansion and playouts.
    Strong,
}

impl Profile {
    /// The name used in `GRAVITY4_PROFILE` and in telemetry.
    pub fn name(self) -> &'static str {
        match self {
            Profile::Classic => "classic",
            Profile::Strong => "strong",
        }
    }

    /// Parses a profile name (`default` means [`Profile::Strong`]).
    pub fn parse(text: &str) -> Option<Profile> {
        match text.trim() {
            "classic" => Some(Profile::Classic),
            "strong" | "default" => Some(Profile::Strong),
            _ => None,
        }
    }
}

/// Techniques of the strong profile, each with a switch so that an ablation can turn it
/// off (`GRAVITY4_DISABLE`) and measure what it is worth.
///
/// Experiments that measured level or worse are not here: they left the library with
/// issue 36; their code is at commit e00eaf7, the last on main that has it (STRENGTH.md,
/// "Pruned experiments").
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Techniques {
    /// Playouts that win, block and avoid losing on the spot (else uniformly random).
    pub tactical_playouts: bool,
    /// Tactical playouts avoid filling the cell under their own threat when they can.
    pub keep_threats: bool,
    /// Continue from the previous search's subtree.
    pub reuse: bool,
    /// Exact solver when few cells are left.
    pub endgame: bool,
    /// Prove nodes won by a forced chain of threats when they are expanded.
    pub threat_sequences: bool,
    /// Stop before the deadline once the most visited move cannot be overtaken, or when the
    /// move is forced (one candidate). Off by default; the ladder's UCT rungs pin it on.
    pub early_stop: bool,
    /// Playouts answer the previous move with the reply that last won from it in this
    /// search (last good reply with forgetting, [`super::learned`]).
    pub last_good_reply: bool,
    /// Playouts with a free choice and no reply draw among the candidates by a policy that
    /// each won iteration shifts towards the winner's choices (playout policy adaptation,
    /// PPA; [`super::learned`]).
    pub policy_adaptation: bool,
    /// Policy adaptation weighs each move by its cell and by the pair of the previous
    /// move's cell and its cell (the product of two learned weights, both adapted), a
    /// probabilistic reply table alongside the last good replies (the N-grams of Sironi,
    /// Cazenave and Winands).
    pub ppa_pairs: bool,
    /// A new node's first visit adds [`SearchConfig::model_prior`] virtual visits at the
    /// learned evaluation's value ([`super::ntuple`]) to its statistics, before its playout.
    /// Off by default until measured.
    pub value_model: bool,
}

/// The field of [`Techniques`] a switch name turns on or off.
pub type Switch = fn(&mut Techniques) -> &mut bool;

/// Why a list of switch names could not be read whole: a name that is not a switch.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum UnknownSwitch {
    /// An experiment that measured no gain and left the library (its code is at commit
    /// e00eaf7).
    #[error(
        "{0:?} was an experiment and has been removed (its code is at commit e00eaf7, the last \
         on main that has it: `git show e00eaf7`; STRENGTH.md, \"Pruned experiments\")"
    )]
    Removed(String),
    /// A name that never was a switch.
    #[error("{0:?} is not a technique (expected one of {list})", list = Techniques::names())]
    Unknown(String),
}

/// The switch names experiments had before issue 36 removed them (their code is at commit
/// e00eaf7), so that an old command line gets a precise message.
pub const REMOVED_SWITCHES: [&str; 13] = [
    "transpositions",
    "graph",
    "catch-up",
    "reply-sequences",
    "last-good-reply-2",
    "exact-replies",
    "mast",
    "policy-prior",
    "keep-learned",
    "ppa-loser",
    "ppa-follow-ups",
    "ppa-tree",
    "fpu",
];

impl Techniques {
    /// What the strong profile uses unless told otherwise: every technique that measured
    /// as a gain (STRENGTH.md): tactical playouts that keep their threats, reuse, the
    /// endgame solver, threat sequences, last good replies (step 22b), policy adaptation
    /// (step 22g) and its pair weights (step 28). Off: the early stop (searching the whole
    /// budget won 59 Elo at 100 ms) and the learned evaluation (not yet shown to pay).
    pub const DEFAULT: Techniques = Techniques {
        tactical_playouts: true,
        keep_threats: true,
        reuse: true,
        endgame: true,
        threat_sequences: true,
        early_stop: false,
        last_good_reply: true,
        policy_adaptation: true,
        ppa_pairs: true,
        value_model: false,
    };

    /// None at all: the classic profile, which plays random playouts on a fresh tree and
    /// reads no switch.
    pub const NONE: Techniques = Techniques {
        tactical_playouts: false,
        keep_threats: false,
        reuse: false,
        endgame: false,
        threat_sequences: false,
        early_stop: false,
        last_good_reply: false,
        policy_adaptation: false,
        ppa_pairs: false,
        value_model: false,
    };

    /// Every switch, by the name `GRAVITY4_ENABLE` and `GRAVITY4_DISABLE` use.
    pub const SWITCHES: [(&'static str, Switch); 10] = [
        ("tactical-playouts", |t| &mut t.tactical_playouts),
        ("keep-threats", |t| &mut t.keep_threats),
        ("reuse", |t| &mut t.reuse),
        ("endgame", |t| &mut t.endgame),
        ("threat-sequences", |t| &mut t.threat_sequences),
        ("early-stop", |t| &mut t.early_stop),
        ("last-good-reply", |t| &mut t.last_good_reply),
        ("policy-adaptation", |t| &mut t.policy_adaptation),
        ("ppa-pairs", |t| &mut t.ppa_pairs),
        ("value-model", |t| &mut t.value_model),
    ];

    /// The switch names, comma-separated, for messages.
    pub fn names() -> String {
        Self::SWITCHES.map(|(name, _)| name).join(", ")
    }

    /// Whether the playouts use a policy learned during the search (last good replies or
    /// policy adaptation).
    pub fn learns_playout_policy(&self) -> bool {
        self.last_good_reply || self.policy_adaptation
    }

    /// [`Self::DEFAULT`] with the techniques named in the comma lists `enable` switched on,
    /// then those in `disable` switched off. Names that are not switches are left out and
    /// returned, each with why, so that the caller can report them; the others apply.
    pub fn parse(enable: &str, disable: &str) -> (Techniques, Vec<UnknownSwitch>) {
        let mut t = Techniques::DEFAULT;
        let mut unknown = vec![];
        for (list, on) in [(enable, true), (disable, false)] {
            for name in list.split(',').map(str::trim).filter(|n| !n.is_empty()) {
                match Self::SWITCHES.iter().find(|(known, _)| *known == name) {
                    Some((_, switch)) => *switch(&mut t) = on,
                    None if REMOVED_SWITCHES.contains(&name) => {
                        unknown.push(UnknownSwitch::Removed(name.to_string()))
                    }
                    None => unknown.push(UnknownSwitch::Unknown(name.to_string())),
                }
            }
        }
        (t, unknown)
    }
}

/// What the search does, as opposed to how long it may run
/// ([`SearchLimits`](super::SearchLimits)).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct SearchConfig {
    /// Which search plays.
    pub profile: Profile,
    /// UCB1 exploration constant.
    pub exploration: f32,
    /// The strong profile's techniques ([`Techniques::NONE`] for classic, which reads none).
    pub techniques: Techniques,
    /// With [`Techniques::policy_adaptation`], the step a won free choice moves its
    /// log-weights by ([`ADAPTATION_RATE`] unless tuned).
    pub adaptation_rate: f32,
    /// With [`Techniques::value_model`], the virtual visits of a new node's model value
    /// ([`MODEL_PRIOR`] unless tuned).
    pub model_prior: u32,
    /// With [`Techniques::value_model`], the deepest node that gets the prior
    /// ([`MODEL_DEPTH`] unless tuned).
    pub model_depth: u32,
}

impl SearchConfig {
    /// The course report's baseline: plain UCT, c = [`CLASSIC_EXPLORATION`], random
    /// playouts, no techniques.
    pub const fn classic() -> SearchConfig {
        SearchConfig {
            profile: Profile::Classic,
            exploration: CLASSIC_EXPLORATION,
            techniques: Techniques::NONE,
            adaptation_rate: ADAPTATION_RATE,
            model_prior: MODEL_PRIOR,
            model_depth: MODEL_DEPTH,
        }
    }

    /// The shipped default: the strong search with c = [`STRONG_EXPLORATION`] and
    /// [`Techniques::DEFAULT`].
    pub const fn strong() -> SearchConfig {
        SearchConfig {
            profile: Profile::Strong,
            exploration: STRONG_EXPLORATION,
            techniques: Techniques::DEFAULT,
            adaptation_rate: ADAPTATION_RATE,
            model_prior: MODEL_PRIOR,
            model_depth: MODEL_DEPTH,
        }
    }

    /// The default configuration of `profile`.
    pub const fn of(profile: Profile) -> SearchConfig {
        match profile {
            Profile::Classic => SearchConfig::classic(),
            Profile::Strong => SearchConfig::strong(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_profiles_and_switches() {
        assert_eq!(Profile::parse(" classic"), Some(Profile::Classic));
        assert_eq!(Profile::parse("default"), Some(Profile::Strong));
        assert_eq!(Profile::parse("fast"), None);
        let (t, unknown) = Techniques::parse("", "reuse, endgame");
        assert!(t.tactical_playouts && !t.reuse && !t.endgame && unknown.is_empty());
        let (t, _) = Techniques::parse("", "threat-sequences");
        assert!(t.keep_threats && !t.threat_sequences);
        assert!(Techniques::parse("early-stop", "").0.early_stop);
        let (off, _) = Techniques::parse("early-stop", "early-stop");
        assert!(!off.early_stop, "disable wins");
        assert_eq!(Techniques::parse("", ""), (Techniques::DEFAULT, vec![]));
    }

    /// A name that is not a switch is reported and left out; the rest of the list applies.
    #[test]
    fn unknown_and_removed_names_are_reported_and_the_rest_applies() {
        let (t, unknown) = Techniques::parse("graph", "reuse,bogus");
        assert!(!t.reuse);
        assert_eq!(
            unknown,
            [
                UnknownSwitch::Removed("graph".into()),
                UnknownSwitch::Unknown("bogus".into())
            ]
        );
        let message = unknown[0].to_string();
        assert!(message.contains("commit e00eaf7"), "{message}");
        assert!(unknown[1].to_string().contains("ppa-pairs"));
        // No removed name is still a switch.
        for name in REMOVED_SWITCHES {
            assert!(Techniques::SWITCHES.iter().all(|(known, _)| *known != name));
        }
    }

    #[test]
    fn the_named_profiles_are_what_ships() {
        let strong = SearchConfig::strong();
        assert_eq!(strong.exploration, 0.5);
        assert_eq!(strong.techniques, Techniques::DEFAULT);
        assert_eq!(SearchConfig::classic().exploration, 0.8);
        assert_eq!(SearchConfig::of(Profile::Classic), SearchConfig::classic());
    }
}
