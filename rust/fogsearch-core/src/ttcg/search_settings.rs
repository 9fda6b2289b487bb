//! The searching player's settings by name: the one place a card search's configuration is
//! merged from what a caller set over the game's defaults (its registry entry's search settings
//! and the sampler's), and checked. The bindings and Python pass names and values through.

use super::deal_samplers::{ModelPolicy, SamplerConfig, StratumWeights};
use super::error::{invalid, TtcgError};
use super::game::TrickGame;
use super::search::CardSearchConfig;

/// A setting's value as a caller gives it.
#[derive(Clone, Debug, PartialEq)]
pub enum SettingValue {
    Int(i64),
    Float(f64),
    Text(String),
    Bool(bool),
}

/// The settings of the sampler alone (what `sample_deals` takes).
pub const SAMPLER_SETTINGS: &[&str] = &[
    "sampler",
    "model_beta",
    "iec_beta",
    "key_cards",
    "strata",
    "chains",
    "burn_in",
    "thin",
];

/// The card search's own settings, beside its sampler's.
const SEARCH_OWN_SETTINGS: &[&str] = &[
    "deals",
    "iterations",
    "seconds",
    "exploration",
    "threads",
    "shared_tree",
];

/// Every setting of the searching player: its own, then its sampler's.
pub const CARD_SEARCH_SETTINGS: &[&str] = &concatenated::<
    { SEARCH_OWN_SETTINGS.len() + SAMPLER_SETTINGS.len() },
>(SEARCH_OWN_SETTINGS, SAMPLER_SETTINGS);

/// `a` then `b`, at compile time (`N` must be their total length).
const fn concatenated<const N: usize>(a: &[&'static str], b: &[&'static str]) -> [&'static str; N] {
    assert!(a.len() + b.len() == N);
    let mut out = [""; N];
    let mut i = 0;
    while i < N {
        out[i] = if i < a.len() { a[i] } else { b[i - a.len()] };
        i += 1;
    }
    out
}

/// Refuses a name outside `known`.
fn check_names(given: &[(String, SettingValue)], known: &[&str]) -> Result<(), TtcgError> {
    match given.iter().find(|(n, _)| !known.contains(&n.as_str())) {
        Some((name, _)) => invalid(format!(
            "unknown search setting {name:?}; settings: {}",
            known.join(", ")
        )),
        None => Ok(()),
    }
}

/// A configuration that settings by name merge over ([`SamplerConfig`] with
/// [`SAMPLER_SETTINGS`], "us" unless `sampler` is given; [`CardSearchConfig`] with
/// [`CARD_SEARCH_SETTINGS`] over the game's registry entry). Its one public method,
/// [`FromSettings::from_settings`], merges and checks.
pub trait FromSettings: Sized {
    /// The names it takes.
    const NAMES: &'static [&'static str];
    /// Its defaults for `game`, which a setting may choose (as `sampler` does).
    fn defaults(game: &dyn TrickGame, given: &[(String, SettingValue)]) -> Result<Self, TtcgError>;
    /// Sets the setting `name` (one of [`Self::NAMES`]).
    fn set(&mut self, name: &str, v: &SettingValue) -> Result<(), TtcgError>;
    fn check_for(&self, game: &dyn TrickGame) -> Result<(), TtcgError>;

    /// The configuration for `game` with `given` settings by name over its defaults, checked:
    /// unknown names, wrong types and values out of bounds are refused.
    fn from_settings(
        game: &dyn TrickGame,
        given: &[(String, SettingValue)],
    ) -> Result<Self, TtcgError> {
        merged(game, given)
    }
}

/// `given` over the defaults for `game`, in order (a later value of a name wins), checked:
/// unknown names, wrong types and values out of bounds are refused.
fn merged<C: FromSettings>(
    game: &dyn TrickGame,
    given: &[(String, SettingValue)],
) -> Result<C, TtcgError> {
    check_names(given, C::NAMES)?;
    let mut c = C::defaults(game, given)?;
    for (name, v) in given {
        c.set(name, v)?;
    }
    c.check_for(game)?;
    Ok(c)
}

impl FromSettings for SamplerConfig {
    const NAMES: &'static [&'static str] = SAMPLER_SETTINGS;

    fn defaults(game: &dyn TrickGame, given: &[(String, SettingValue)]) -> Result<Self, TtcgError> {
        let chosen = given.iter().rev().find(|(n, _)| n == "sampler");
        let name = chosen.map(|(n, v)| text(n, v)).transpose()?;
        SamplerConfig::named(game, name.unwrap_or("us"))
    }

    fn set(&mut self, name: &str, v: &SettingValue) -> Result<(), TtcgError> {
        match name {
            "sampler" => {} // chose the defaults
            // Only a sampler with the IEC correction has a beta to set.
            "iec_beta" if self.iec_beta.is_none() => {}
            "iec_beta" => self.iec_beta = Some(real(name, v)?),
            "model_beta" => {
                self.model = ModelPolicy::Greed {
                    beta: real(name, v)?,
                }
            }
            "key_cards" => self.key_cards = count(name, v)? as usize,
            "strata" => self.stratum_weights = StratumWeights::named(text(name, v)?)?,
            "chains" => self.chains = count(name, v)? as usize,
            "burn_in" => self.burn_in = count(name, v)?,
            "thin" => self.thin = count(name, v)?,
            _ => unreachable!("names are checked before"),
        }
        Ok(())
    }

    fn check_for(&self, game: &dyn TrickGame) -> Result<(), TtcgError> {
        self.check(game)
    }
}

fn count(name: &str, v: &SettingValue) -> Result<u64, TtcgError> {
    match v {
        SettingValue::Int(i) if *i < 0 => invalid(format!("{name} must not be negative, got {i}")),
        // Too large: the bound check names the setting and its bound.
        SettingValue::Int(i) => Ok(*i as u64),
        _ => invalid(format!("{name} must be an int, got {v:?}")),
    }
}

fn real(name: &str, v: &SettingValue) -> Result<f64, TtcgError> {
    match v {
        SettingValue::Int(i) => Ok(*i as f64),
        SettingValue::Float(f) => Ok(*f),
        _ => invalid(format!("{name} must be a number, got {v:?}")),
    }
}

fn text<'a>(name: &str, v: &'a SettingValue) -> Result<&'a str, TtcgError> {
    match v {
        SettingValue::Text(t) => Ok(t),
        _ => invalid(format!("{name} must be a string, got {v:?}")),
    }
}

fn flag(name: &str, v: &SettingValue) -> Result<bool, TtcgError> {
    match v {
        SettingValue::Bool(b) => Ok(*b),
        _ => invalid(format!("{name} must be a bool, got {v:?}")),
    }
}

impl CardSearchConfig {
    /// Every setting's value (`seconds` only when set), by name: what Python shows as the
    /// defaults of a game.
    pub fn settings(&self) -> Vec<(&'static str, SettingValue)> {
        let s = &self.sampler;
        let mut out = vec![
            ("sampler", SettingValue::Text(s.name())),
            ("deals", SettingValue::Int(self.deals as i64)),
            ("iterations", SettingValue::Int(self.iterations as i64)),
        ];
        if let Some(t) = self.seconds {
            out.push(("seconds", SettingValue::Float(t)));
        }
        out.push(("exploration", SettingValue::Float(self.exploration)));
        out.push(("threads", SettingValue::Int(self.threads as i64)));
        if let ModelPolicy::Greed { beta } = s.model {
            out.push(("model_beta", SettingValue::Float(beta)));
        }
        if let Some(b) = s.iec_beta {
            out.push(("iec_beta", SettingValue::Float(b)));
        }
        out.push(("key_cards", SettingValue::Int(s.key_cards as i64)));
        let strata = match s.stratum_weights {
            StratumWeights::Exact => "exact",
            StratumWeights::Equal => "equal",
        };
        out.push(("strata", SettingValue::Text(strata.into())));
        out.push(("chains", SettingValue::Int(s.chains as i64)));
        out.push(("burn_in", SettingValue::Int(s.burn_in as i64)));
        out.push(("thin", SettingValue::Int(s.thin as i64)));
        out.push(("shared_tree", SettingValue::Bool(self.shared_tree)));
        out
    }
}

impl FromSettings for CardSearchConfig {
    const NAMES: &'static [&'static str] = CARD_SEARCH_SETTINGS;

    /// The game's search defaults around the sampler the sampler's settings give.
    fn defaults(game: &dyn TrickGame, given: &[(String, SettingValue)]) -> Result<Self, TtcgError> {
        let of_sampler: Vec<_> = given
            .iter()
            .filter(|(n, _)| SAMPLER_SETTINGS.contains(&n.as_str()))
            .cloned()
            .collect();
        let sampler = SamplerConfig::from_settings(game, &of_sampler)?;
        Ok(CardSearchConfig::for_game(game, sampler))
    }

    fn set(&mut self, name: &str, v: &SettingValue) -> Result<(), TtcgError> {
        match name {
            "deals" => self.deals = count(name, v)?.min(usize::MAX as u64) as usize,
            "iterations" => self.iterations = count(name, v)?,
            "seconds" => self.seconds = Some(real(name, v)?),
            "exploration" => self.exploration = real(name, v)?,
            "threads" => self.threads = count(name, v)?.min(usize::MAX as u64) as usize,
            "shared_tree" => self.shared_tree = flag(name, v)?,
            _ => {} // the sampler's: in the defaults
        }
        Ok(())
    }

    fn check_for(&self, game: &dyn TrickGame) -> Result<(), TtcgError> {
        self.check(game)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ttcg::registry::game_spec;

    fn set(pairs: &[(&str, SettingValue)]) -> Vec<(String, SettingValue)> {
        pairs
            .iter()
            .map(|(k, v)| (k.to_string(), v.clone()))
            .collect()
    }

    #[test]
    fn settings_merge_over_the_games_defaults_and_are_checked() {
        let oh_hell = game_spec("oh_hell").unwrap().game(&[]).unwrap();
        let c = CardSearchConfig::from_settings(&*oh_hell, &[]).unwrap();
        assert_eq!((c.deals, c.exploration, c.shared_tree), (256, 7.0, true));
        let c = CardSearchConfig::from_settings(
            &*oh_hell,
            &set(&[
                ("deals", SettingValue::Int(8)),
                ("shared_tree", SettingValue::Bool(false)),
            ]),
        )
        .unwrap();
        assert_eq!((c.deals, c.shared_tree), (8, false));
        for bad in [
            set(&[("deals", SettingValue::Int(0))]),
            set(&[("deals", SettingValue::Float(2.0))]),
            set(&[("colour", SettingValue::Int(1))]),
            set(&[("sampler", SettingValue::Text("us+iec".into()))]),
        ] {
            assert!(CardSearchConfig::from_settings(&*oh_hell, &bad).is_err());
        }
        let gongzhu = game_spec("gongzhu").unwrap().game(&[]).unwrap();
        let c = CardSearchConfig::from_settings(
            &*gongzhu,
            &set(&[
                ("sampler", SettingValue::Text("ss+iec".into())),
                ("iec_beta", SettingValue::Float(0.03)),
            ]),
        )
        .unwrap();
        assert_eq!(c.sampler.iec_beta, Some(0.03));
        let names: Vec<&str> = c.settings().iter().map(|(n, _)| *n).collect();
        assert!(names.iter().all(|n| CARD_SEARCH_SETTINGS.contains(n)));
    }
}
