//! Simple Communication Game of length L (paper 002, Definition 1).
//!
//! Chance deals P1 a private number `s1` in `0..2^L`, uniformly. P1 then sends L public binary
//! signals, one per turn, and P2 guesses `s1`; both receive 1 if the guess is right, else 0.
//!
//! States (Table 1): the root, `2^L` deals times the `2^(L+1) - 1` signal prefixes (P1's
//! `2^L - 1` decision states and P2's `2^L`), and `2^(3L)` terminals: L = 3 gives
//! 1 + 8 * 15 + 512 = 633. Table 1's information sets: the root, P1's `2^L (2^L - 1)` and P2's
//! `2^L` decision sets, and the terminals grouped as P2 sees them (signals and guess, `2^(2L)`),
//! the key the paper's code gives a finished game: `2^(2L+1) + 1`.

use super::error::{bounded, JpsError};
use super::tree::{Actor, Rules, Turn};

/// The largest L supported: L = 7 has 2,129,793 states.
pub const MAX_LENGTH: u32 = 7;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Comm {
    length: u32,
}

#[derive(Clone, Copy, Debug)]
pub(crate) struct CommState {
    secret: Option<u32>,
    /// The signals sent so far, the first in the lowest bit.
    signals: u32,
    sent: u32,
    guess: Option<u32>,
}

impl Comm {
    pub fn new(length: u32) -> Result<Comm, JpsError> {
        bounded("comm:l (the number of signals)", length, 1, MAX_LENGTH)?;
        Ok(Comm { length })
    }

    pub fn length(&self) -> u32 {
        self.length
    }

    fn secrets(&self) -> u32 {
        1 << self.length
    }

    fn signal_text(&self, s: &CommState) -> String {
        (0..s.sent)
            .map(|i| if s.signals >> i & 1 == 1 { '1' } else { '0' })
            .collect()
    }
}

impl Rules for Comm {
    type State = CommState;

    fn name(&self) -> String {
        format!("comm:l={}", self.length)
    }

    fn num_states(&self) -> u64 {
        let n = 1u64 << self.length;
        1 + n * (2 * n - 1) + n * n * n
    }

    fn num_distinct_actions(&self) -> u16 {
        self.secrets().max(2) as u16
    }

    fn max_chance_outcomes(&self) -> u16 {
        self.secrets() as u16
    }

    fn root(&self) -> CommState {
        CommState {
            secret: None,
            signals: 0,
            sent: 0,
            guess: None,
        }
    }

    fn turn(&self, s: &CommState) -> Turn {
        let n = self.secrets();
        match (s.secret, s.guess) {
            (None, _) => Turn::Chance((0..n as u16).map(|a| (a, 1.0 / n as f64)).collect()),
            (Some(_), None) if s.sent < self.length => Turn::Player {
                player: 0,
                actions: vec![0, 1],
            },
            (Some(_), None) => Turn::Player {
                player: 1,
                actions: (0..n as u16).collect(),
            },
            (Some(secret), Some(guess)) => Turn::Terminal {
                utility: if secret == guess { 1.0 } else { 0.0 },
            },
        }
    }

    fn apply(&self, s: &CommState, action: u16) -> CommState {
        let mut next = *s;
        let a = action as u32;
        if s.secret.is_none() {
            next.secret = Some(a);
        } else if s.sent < self.length {
            next.signals |= a << s.sent;
            next.sent += 1;
        } else {
            next.guess = Some(a);
        }
        next
    }

    fn infoset_key(&self, s: &CommState, player: u8) -> u128 {
        let public = (s.sent as u128) << 32 | s.signals as u128;
        if player == 0 {
            1 << 120 | (s.secret.unwrap_or(0) as u128) << 64 | public
        } else {
            2 << 120 | public
        }
    }

    fn terminal_key(&self, s: &CommState) -> u128 {
        3 << 120 | (s.guess.unwrap_or(0) as u128) << 64 | s.signals as u128
    }

    fn infoset_label(&self, s: &CommState, player: u8) -> String {
        if player == 0 {
            format!(
                "p0 s={} signals={}",
                s.secret.unwrap_or(0),
                self.signal_text(s)
            )
        } else {
            format!("p1 signals={}", self.signal_text(s))
        }
    }

    fn deal_view(&self, action: u16, player: u8) -> String {
        if player == 0 {
            format!("s{action}")
        } else {
            String::new()
        }
    }

    fn action_label(&self, actor: Actor, action: u16) -> String {
        match actor {
            Actor::Chance => format!("s={action}"),
            Actor::Player(0) => format!("signal {action}"),
            _ => format!("guess {action}"),
        }
    }
}

#[cfg(test)]
mod tests {
    use crate::jps::policy::{expected_reward, JointPolicy};
    use crate::jps::testing::game;

    /// P1 sends `s1` in binary, P2 reads it back: the perfect code every L allows.
    fn binary_code(l: u32) -> JointPolicy {
        let tree = game(&format!("comm:l={l}"));
        let mut policy = JointPolicy::uniform(tree);
        for i in 0..tree.num_infosets() as u32 {
            // Labels read "p0 s=5 signals=01" or "p1 signals=011" (first signal first).
            let label = tree.infoset_label(i).to_string();
            let field = |key: &str| {
                label
                    .split_whitespace()
                    .find_map(|t| t.strip_prefix(key))
                    .unwrap()
                    .to_string()
            };
            let signals = field("signals=");
            let a = if label.starts_with("p0") {
                let secret: u16 = field("s=").parse().unwrap();
                secret >> signals.len() & 1
            } else {
                signals
                    .chars()
                    .rev()
                    .fold(0u16, |n, c| n << 1 | (c == '1') as u16)
            };
            policy.set_pure(tree, i, a);
        }
        policy
    }

    #[test]
    fn a_binary_code_always_wins_and_guessing_blind_wins_one_in_2_to_the_l() {
        for l in [3, 5] {
            let tree = game(&format!("comm:l={l}"));
            assert_eq!(expected_reward(tree, &binary_code(l)).unwrap(), 1.0);
            let uniform = expected_reward(tree, &JointPolicy::uniform(tree)).unwrap();
            assert!((uniform - 1.0 / (1u32 << l) as f64).abs() < 1e-12);
        }
    }
}
