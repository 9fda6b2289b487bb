//! Deal samplers behind one interface, each usable inside a player: uniform over consistent deals
//! (US), stratified over key cards (SS, ScrofaZero §5.3), IEC weighting (§5.4) applied to either,
//! and the TTCG Gibbs sampler with policy reach (either kernel). Every sampler returns deals with
//! self-normalised log weights (eq. 11): a value is estimated as Σ w v / Σ w.
//!
//! - US: exact uniform draws (suit-length tables by deal count); equal weights.
//! - SS: every placement of the first `key_cards` hidden key cards among the owners that may hold
//!   them is a stratum; `ceil(n / strata)` uniform draws within each. The paper sets each stratum's
//!   probability p(S_j) to 1/t as a zeroth-order approximation ([`StratumWeights::Equal`]); by
//!   default here it is the stratum's exact share of the consistent deals (counted by its
//!   suit-length tables), so SS is unbiased for the uniform prior, and a draw's weight is its
//!   stratum's deal count over the draws taken from it ([`StratumWeights::Exact`]).
//! - IEC multiplies each weight by the paper's score s(c) = Π γ over the important slices.
//! - Gibbs: chains whose target is the reach under a model of the players; equal weights.

use super::baselines::UniformDeals;
use super::chains::ChainSchedule;
use super::constraints::{DealConstraints, Owner};
use super::enumerate::normalised_exp;
use super::error::{invalid, TtcgError};
use super::game::TrickGame;
use super::gibbs::Kernel;
use super::gongzhu_players::{GreedPolicy, IecWeight};
use super::history::log_reach;
use super::observation::Observation;
use super::policy::{BuiltinPolicy, InfoStateView, Policy};
use super::sampling::ObservedRange;
use super::suit_lengths::DealSpace;
use crate::stop::Stop;

/// The β at which the ScrofaZero paper reads its correction factors (Figure 3), in inverse points.
pub const PAPER_BETA: f64 = 0.015;

/// How deals are drawn.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum SamplerKind {
    Uniform,
    Stratified,
    Gibbs(Kernel),
}

/// SS's p(S_j), the probability given to each stratum (eq. 6).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum StratumWeights {
    /// The stratum's share of the consistent deals (ours, the default): unbiased under the
    /// uniform prior.
    Exact,
    /// 1/t for each of the t strata: the paper's "zeroth-order approximation".
    Equal,
}

impl StratumWeights {
    pub fn named(name: &str) -> Result<Self, TtcgError> {
        match name {
            "exact" => Ok(StratumWeights::Exact),
            "equal" => Ok(StratumWeights::Equal),
            other => invalid(format!("strata must be exact or equal, got {other:?}")),
        }
    }
}

/// What the players of the sampled deals are assumed to play like (the reach of Gibbs).
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum ModelPolicy {
    Builtin(BuiltinPolicy),
    /// Softmax over Mr. Greed's scores (Gongzhu).
    Greed {
        beta: f64,
    },
}

impl Policy for ModelPolicy {
    fn action_probability(&self, info: &InfoStateView<'_>, index: usize) -> f64 {
        match self {
            ModelPolicy::Builtin(p) => p.action_probability(info, index),
            ModelPolicy::Greed { beta } => {
                GreedPolicy { beta: *beta }.action_probability(info, index)
            }
        }
    }
}

/// A sampler and its settings.
#[derive(Clone, Debug, PartialEq)]
pub struct SamplerConfig {
    pub kind: SamplerKind,
    /// IEC's β (inverse points), or None for no IEC weighting (Gongzhu only).
    pub iec_beta: Option<f64>,
    /// SS: how many key cards define the strata (2: up to 9 strata among three holders, as the
    /// paper's nine samples).
    pub key_cards: usize,
    /// SS: each stratum's probability.
    pub stratum_weights: StratumWeights,
    /// Gibbs: the model of play whose reach is the target.
    pub model: ModelPolicy,
    /// Gibbs: chains (each from its own randomised construction), burn-in and thinning.
    pub chains: usize,
    pub burn_in: u64,
    pub thin: u64,
}

impl SamplerConfig {
    pub fn new(kind: SamplerKind) -> Self {
        SamplerConfig {
            kind,
            iec_beta: None,
            key_cards: 2,
            stratum_weights: StratumWeights::Exact,
            model: ModelPolicy::Builtin(BuiltinPolicy::Uniform),
            chains: 4,
            burn_in: 20,
            thin: 10,
        }
    }

    /// The sampler called `name` ("us", "ss", "us+iec", "ss+iec", "gibbs", "pairs") with its
    /// defaults for `game`: IEC's β = 0.015 (the paper's); Gibbs's model of play the softmax over
    /// Mr. Greed's scores (β = 0.015) for Gongzhu, uniform players otherwise.
    pub fn named(game: &dyn TrickGame, name: &str) -> Result<Self, TtcgError> {
        let (kind, iec) = match name {
            "us" => (SamplerKind::Uniform, false),
            "ss" => (SamplerKind::Stratified, false),
            "us+iec" => (SamplerKind::Uniform, true),
            "ss+iec" => (SamplerKind::Stratified, true),
            "gibbs" => (SamplerKind::Gibbs(Kernel::RingSwap), false),
            "pairs" => (SamplerKind::Gibbs(Kernel::Pairs), false),
            other => {
                return invalid(format!(
                    "sampler must be us, ss, us+iec, ss+iec, gibbs or pairs, got {other:?}"
                ))
            }
        };
        let mut config = SamplerConfig::new(kind);
        config.iec_beta = iec.then_some(PAPER_BETA);
        if knows_greed(game) {
            config.model = ModelPolicy::Greed { beta: PAPER_BETA };
        }
        Ok(config)
    }

    /// A short name: "us", "ss", "us+iec", "ss+iec", "gibbs", "pairs".
    pub fn name(&self) -> String {
        let base = match self.kind {
            SamplerKind::Uniform => "us",
            SamplerKind::Stratified => "ss",
            SamplerKind::Gibbs(Kernel::RingSwap) => "gibbs",
            SamplerKind::Gibbs(Kernel::Pairs) => "pairs",
        };
        if self.iec_beta.is_some() {
            format!("{base}+iec")
        } else {
            base.to_string()
        }
    }

    /// Checks the settings are usable with `game` (IEC and the Greed model know only Gongzhu).
    pub fn check(&self, game: &dyn TrickGame) -> Result<(), TtcgError> {
        let greed = matches!(self.model, ModelPolicy::Greed { .. });
        if (self.iec_beta.is_some() || greed) && !knows_greed(game) {
            return invalid(format!(
                "IEC and the Greed model of play score Gongzhu cards; {} has neither",
                game.name()
            ));
        }
        if let Some(b) = self.iec_beta {
            if !(b.is_finite() && b >= 0.0) {
                return invalid(format!("the IEC beta must be finite and >= 0, got {b}"));
            }
        }
        if let ModelPolicy::Greed { beta } = self.model {
            if !(beta.is_finite() && beta >= 0.0) {
                return invalid(format!(
                    "the model beta must be finite and >= 0, got {beta}"
                ));
            }
        }
        if self.kind == SamplerKind::Stratified && !(1..=4).contains(&self.key_cards) {
            return invalid(format!(
                "key_cards must be 1 to 4 (strata grow as holders^key_cards), got {}",
                self.key_cards
            ));
        }
        if matches!(self.kind, SamplerKind::Gibbs(_)) && (self.chains == 0 || self.thin == 0) {
            return invalid("Gibbs sampling needs at least one chain and thin >= 1");
        }
        Ok(())
    }
}

/// Deals with self-normalised log weights.
#[derive(Clone, Debug, Default)]
pub struct WeightedSample {
    pub deals: Vec<Vec<Owner>>,
    pub log_weights: Vec<f64>,
}

impl WeightedSample {
    /// Normalised weights.
    pub fn weights(&self) -> Vec<f64> {
        normalised_exp(&self.log_weights)
    }

    /// Kish's effective sample size of the weights.
    pub fn effective_size(&self) -> f64 {
        let w = self.weights();
        1.0 / w.iter().map(|x| x * x).sum::<f64>()
    }
}

/// Draws about `n` deals consistent with `observation` (SS draws whole strata, so it may return
/// a few more; Gibbs rounds up to whole chains).
pub fn sample_deals(
    observation: &Observation,
    config: &SamplerConfig,
    n: usize,
    seed: u64,
    stop: &Stop,
) -> Result<WeightedSample, TtcgError> {
    config.check(&*observation.template.game)?;
    if n == 0 {
        return invalid("a sampler must draw at least one deal");
    }
    let space = DealSpace::new(&observation.constraints)?;
    let deck = space.num_cards();
    let mut sample = match config.kind {
        SamplerKind::Uniform => {
            let flat = UniformDeals::new(&space)?.sample(n, seed, stop)?;
            WeightedSample {
                deals: flat.chunks(deck).map(<[Owner]>::to_vec).collect(),
                log_weights: vec![0.0; n],
            }
        }
        SamplerKind::Stratified => stratified(
            observation,
            config.key_cards,
            config.stratum_weights,
            n,
            seed,
            stop,
        )?,
        SamplerKind::Gibbs(kernel) => {
            let range = ObservedRange::new(observation.clone(), config.model)?;
            let per_chain = n.div_ceil(config.chains);
            let schedule = ChainSchedule {
                kernel,
                burn_in: config.burn_in,
                thin: config.thin,
                draws: per_chain,
            };
            let run = range.gibbs(config.chains, schedule, seed, stop)?;
            let deals: Vec<Vec<Owner>> = run.draws.chunks(deck).map(<[Owner]>::to_vec).collect();
            WeightedSample {
                log_weights: vec![0.0; deals.len()],
                deals,
            }
        }
    };
    if let Some(beta) = config.iec_beta {
        let weight = IecWeight { beta };
        for (deal, w) in sample.deals.iter().zip(sample.log_weights.iter_mut()) {
            *w += log_reach(&observation.template, deal, &weight);
        }
    }
    Ok(sample)
}

/// The strata of `observation`: each placement of its first `key_cards` hidden key cards, with
/// the constraints that fix it and the log of its number of deals.
pub fn strata(
    observation: &Observation,
    key_cards: usize,
) -> Result<Vec<(DealConstraints, f64)>, TtcgError> {
    let c = &observation.constraints;
    let keys: Vec<usize> = observation
        .template
        .game
        .key_cards(&observation.template.table)
        .into_iter()
        .map(|k| k as usize)
        .filter(|&k| c.known_owner[k].is_none())
        .take(key_cards)
        .collect();
    let owners: Vec<usize> = (0..=c.num_players)
        .filter(|&o| c.hidden_counts[o] > 0)
        .collect();
    let mut out = Vec::new();
    let combos = owners.len().pow(keys.len() as u32);
    for combo in 0..combos {
        let mut fixed = c.clone();
        let mut code = combo;
        let mut ok = true;
        for &key in &keys {
            let owner = owners[code % owners.len()];
            code /= owners.len();
            let void = owner < c.num_players && c.voids[owner][c.suit_of(key as u8)];
            if void || fixed.hidden_counts[owner] == 0 {
                ok = false;
                break;
            }
            fixed.known_owner[key] = Some(owner as Owner);
            fixed.hidden_counts[owner] -= 1;
        }
        if !ok {
            continue;
        }
        let space = DealSpace::new(&fixed)?;
        if let Ok(uniform) = UniformDeals::new(&space) {
            out.push((fixed, uniform.log_count));
        }
    }
    Ok(out)
}

fn stratified(
    observation: &Observation,
    key_cards: usize,
    weights: StratumWeights,
    n: usize,
    seed: u64,
    stop: &Stop,
) -> Result<WeightedSample, TtcgError> {
    let strata = strata(observation, key_cards)?;
    if strata.is_empty() {
        return Err(TtcgError::Infeasible(
            "no deal is consistent with the observation".into(),
        ));
    }
    let per = n.div_ceil(strata.len());
    let mut sample = WeightedSample::default();
    for (j, (constraints, log_count)) in strata.iter().enumerate() {
        let space = DealSpace::new(constraints)?;
        let deck = space.num_cards();
        let stream = crate::rng::splitmix64(seed ^ (j as u64).wrapping_mul(0x9E37_79B9_7F4A_7C15));
        let flat = UniformDeals::new(&space)?.sample(per, stream, stop)?;
        // p(S_j) / draws from S_j, up to the normalisation: |S_j| / per, or (1/t) / per.
        let log_weight = match weights {
            StratumWeights::Exact => *log_count,
            StratumWeights::Equal => 0.0,
        } - (per as f64).ln();
        for deal in flat.chunks(deck) {
            sample.deals.push(deal.to_vec());
            sample.log_weights.push(log_weight);
        }
    }
    Ok(sample)
}

/// Whether Mr. Greed's scoring (IEC, the Greed model of play) knows `game`'s cards.
pub(crate) fn knows_greed(game: &dyn TrickGame) -> bool {
    super::registry::spec_of(game).is_some_and(|s| s.greed_players)
}
