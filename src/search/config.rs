//! What a search does, as one value: the profile, its UCB1 constant and the techniques it
//! uses.
//!
//! [`SearchConfig`] is the single description every consumer reads: the library's `getPoint`
//! (through [`Settings`](crate::settings::Settings), which parses the environment into one),
//! the speed bench, the tests and the ladder's pinned rungs. The shipped default is
//! [`SearchConfig::strong`] and the course's baseline [`SearchConfig::classic`], so a bench
//! row or a test named after a profile runs exactly what that profile ships.

use super::learned::ADAPTATION_RATE;

/// The classic profile's UCB1 exploration constant `c` in
/// `Q/N + c * sqrt(2 ln N_parent / N)`: 0.8 is the value the course's reference UCT uses.
pub const CLASSIC_EXPLORATION: f32 = 0.8;

/// The strong profile's UCB1 exploration constant. With proofs and tactical playouts the
/// course's 0.8 explores too much: 0.5 beat it by +115 +- 74 Elo (SPRT H1, 200 ms), and 0.3
/// scored 50-51 against 0.5 (STRENGTH.md, `scripts/strength.sh tune`).
pub const STRONG_EXPLORATION: f32 = 0.5;

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

/// Techniques of the strong profile that can be switched on and off for experiments.
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
    /// Share statistics between move orders reaching the same position.
    pub transpositions: bool,
    /// Prove nodes won by a forced chain of threats when they are expanded.
    pub threat_sequences: bool,
    /// Prove lost, at a node's 8th visit, its children after which the opponent wins by a
    /// chain of threats.
    pub reply_sequences: bool,
    /// Stop before the deadline once the most visited move cannot be overtaken, or when the
    /// move is forced (one candidate).
    pub early_stop: bool,
    /// Search a graph of positions (Monte-Carlo graph search, [`super::mcgs`]) instead of a
    /// tree: one node per position, kept between moves on one board.
    pub graph: bool,
    /// Graph search only: an edge into a position visited more often than the edge itself
    /// (searched through other move orders) takes the position's value without a playout
    /// until it catches up (KataGo's MCGS). Without it every iteration ends in a playout.
    pub catch_up: bool,
    /// Playouts answer the previous move with the reply that last won from it in this
    /// search (last good reply with forgetting, [`super::learned`]); tree and graph search.
    pub last_good_reply: bool,
    /// Last good replies to the last two moves as well, asked before the one-move replies
    /// (LGRF-2); implies [`Self::last_good_reply`].
    pub two_move_replies: bool,
    /// With last good replies: a reply is a cell, played only where its column's next
    /// stone lands on it, rather than a column.
    pub exact_replies: bool,
    /// Playouts with a free choice mostly play the candidate cell with the best mean result
    /// for its mover so far in this search (move averages, MAST; [`super::learned`]).
    pub mast: bool,
    /// Playouts with a free choice and no reply draw among the candidates by a policy that
    /// each won iteration shifts towards the winner's choices (playout policy adaptation,
    /// PPA; [`super::learned`]).
    pub policy_adaptation: bool,
    /// Tree search with policy adaptation: selection takes a node's untried children in
    /// order of the adapted policy's probability for them (most probable first) and adds a
    /// bias of [`super::ucb::PRIOR_WEIGHT`] times that probability over `visits + 1` to a
    /// tried child's score (progressive bias with the learned policy as the heuristic).
    pub policy_prior: bool,
    /// Tree search: what the playouts learned ([`super::learned`]) is kept for our next
    /// move of the same game, instead of starting each search with empty tables; kept
    /// under the same rule as the subtree (the new position continues the last search).
    pub keep_learned: bool,
    /// Policy adaptation learns from the loser too: each free choice the loser of an
    /// iteration made moves its policy away from the move chosen (the winner's still
    /// towards its own), as in Sironi, Cazenave and Winands' "update for all players".
    pub ppa_loser: bool,
    /// Policy adaptation weighs each move by its cell and by the pair of the previous
    /// move's cell and its cell (the product of two learned weights, both adapted), a
    /// probabilistic reply table alongside the last good replies (the N-grams of Sironi,
    /// Cazenave and Winands).
    pub ppa_pairs: bool,
    /// Policy adaptation weighs each move also by the pair of the mover's own previous
    /// cell (two moves before) and its cell, a third learned and adapted factor: what to
    /// build on one's own last stone (with the pairs, the two halves of a 3-gram).
    pub ppa_follow_ups: bool,
    /// Tree search with policy adaptation: the tree's moves are choices it learns from
    /// too. Each step of the walk is a choice among the node's children, and an iteration's
    /// winner moves its policy towards the children it took, as for its free playout
    /// choices: the playouts learn what the tree has found good near the root.
    pub ppa_tree: bool,
}

/// The field of [`Techniques`] a switch name turns on or off.
pub type Switch = fn(&mut Techniques) -> &mut bool;

impl Techniques {
    /// What the strong profile uses unless told otherwise: every technique that measured
    /// as a gain (STRENGTH.md), last good replies confirmed at 2 s a move (step 22b),
    /// policy adaptation on top of them (step 22g) and its pair weights (step 28). Off:
    /// the transposition table (level at 200 ms per move, for 32 MiB and a third of the
    /// iterations), reply sequences (checking every new child lost 23 Elo at 100 ms,
    /// checking at a node's 8th visit 47), the early stop (searching the whole budget won
    /// 59 Elo at 100 ms), the graph search (+30 +- 45 at 2 s, not significant; level with
    /// replies on) and the learned policies that added nothing measurable on top of the
    /// one-move replies (two-move and exact replies, move averages).
    pub const DEFAULT: Techniques = Techniques {
        tactical_playouts: true,
        keep_threats: true,
        reuse: true,
        endgame: true,
        transpositions: false,
        threat_sequences: true,
        reply_sequences: false,
        early_stop: false,
        graph: false,
        catch_up: true,
        last_good_reply: true,
        two_move_replies: false,
        exact_replies: false,
        mast: false,
        policy_adaptation: true,
        policy_prior: false,
        keep_learned: false,
        ppa_loser: false,
        ppa_pairs: true,
        ppa_follow_ups: false,
        ppa_tree: false,
    };

    /// None at all: the classic profile, which plays random playouts on a fresh tree and
    /// reads no switch.
    pub const NONE: Techniques = Techniques {
        tactical_playouts: false,
        keep_threats: false,
        reuse: false,
        endgame: false,
        transpositions: false,
        threat_sequences: false,
        reply_sequences: false,
        early_stop: false,
        graph: false,
        catch_up: false,
        last_good_reply: false,
        two_move_replies: false,
        exact_replies: false,
        mast: false,
        policy_adaptation: false,
        policy_prior: false,
        keep_learned: false,
        ppa_loser: false,
        ppa_pairs: false,
        ppa_follow_ups: false,
        ppa_tree: false,
    };

    /// Every switch, by the name `GRAVITY4_ENABLE` and `GRAVITY4_DISABLE` use.
    pub const SWITCHES: [(&'static str, Switch); 21] = [
        ("tactical-playouts", |t| &mut t.tactical_playouts),
        ("keep-threats", |t| &mut t.keep_threats),
        ("reuse", |t| &mut t.reuse),
        ("endgame", |t| &mut t.endgame),
        ("transpositions", |t| &mut t.transpositions),
        ("threat-sequences", |t| &mut t.threat_sequences),
        ("reply-sequences", |t| &mut t.reply_sequences),
        ("early-stop", |t| &mut t.early_stop),
        ("graph", |t| &mut t.graph),
        ("catch-up", |t| &mut t.catch_up),
        ("last-good-reply", |t| &mut t.last_good_reply),
        ("last-good-reply-2", |t| &mut t.two_move_replies),
        ("exact-replies", |t| &mut t.exact_replies),
        ("mast", |t| &mut t.mast),
        ("policy-adaptation", |t| &mut t.policy_adaptation),
        ("policy-prior", |t| &mut t.policy_prior),
        ("keep-learned", |t| &mut t.keep_learned),
        ("ppa-loser", |t| &mut t.ppa_loser),
        ("ppa-pairs", |t| &mut t.ppa_pairs),
        ("ppa-follow-ups", |t| &mut t.ppa_follow_ups),
        ("ppa-tree", |t| &mut t.ppa_tree),
    ];

    /// Whether the playouts use a policy learned during the search (last good replies of
    /// either kind, move averages, policy adaptation).
    pub fn learns_playout_policy(&self) -> bool {
        self.last_good_reply || self.two_move_replies || self.mast || self.policy_adaptation
    }

    /// [`Self::DEFAULT`] with the techniques named in the comma lists `enable` switched on,
    /// then those in `disable` switched off; an unknown name is returned as the error.
    pub fn parse(enable: &str, disable: &str) -> Result<Techniques, String> {
        let mut t = Techniques::DEFAULT;
        for (list, on) in [(enable, true), (disable, false)] {
            for name in list.split(',').map(str::trim).filter(|n| !n.is_empty()) {
                let (_, switch) = Self::SWITCHES
                    .iter()
                    .find(|(known, _)| *known == name)
                    .ok_or_else(|| name.to_string())?;
                *switch(&mut t) = on;
            }
        }
        Ok(t)
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
    /// First-play urgency (strong profile): `Some(offset)` scores a child not yet visited
    /// as its parent's value for the side choosing plus `offset`, so a node can deepen a
    /// good first move before it has tried every other once; `None` (UCB1's infinite bound)
    /// tries every child once before any twice.
    pub first_play: Option<f32>,
    /// With [`Techniques::policy_adaptation`], the step a won free choice moves its
    /// log-weights by ([`ADAPTATION_RATE`] unless tuned).
    pub adaptation_rate: f32,
}

impl SearchConfig {
    /// The course report's baseline: plain UCT, c = [`CLASSIC_EXPLORATION`], random
    /// playouts, no techniques.
    pub const fn classic() -> SearchConfig {
        SearchConfig {
            profile: Profile::Classic,
            exploration: CLASSIC_EXPLORATION,
            techniques: Techniques::NONE,
            first_play: None,
            adaptation_rate: ADAPTATION_RATE,
        }
    }

    /// The shipped default: the strong search with c = [`STRONG_EXPLORATION`] and
    /// [`Techniques::DEFAULT`].
    pub const fn strong() -> SearchConfig {
        SearchConfig {
            profile: Profile::Strong,
            exploration: STRONG_EXPLORATION,
            techniques: Techniques::DEFAULT,
            first_play: None,
            adaptation_rate: ADAPTATION_RATE,
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
        let t = Techniques::parse("", "reuse, endgame").unwrap();
        assert!(t.tactical_playouts && !t.reuse && !t.endgame);
        let t = Techniques::parse("", "threat-sequences").unwrap();
        assert!(t.keep_threats && !t.threat_sequences);
        assert!(
            Techniques::parse("transpositions", "")
                .unwrap()
                .transpositions
        );
        let off = Techniques::parse("transpositions", "transpositions").unwrap();
        assert!(!off.transpositions, "disable wins");
        assert_eq!(Techniques::parse("", ""), Ok(Techniques::DEFAULT));
        assert_eq!(Techniques::parse("", "reuse,bogus"), Err("bogus".into()));
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
