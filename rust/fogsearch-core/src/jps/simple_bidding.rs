//! Simple Bidding of size N (paper 002, Definition 2).
//!
//! Chance deals P1 and P2 private numbers `s1, s2` uniformly in `0..N`. The bids are
//! `2^0, 2^1, ..., 2^(m-1)`, every power of two up to `2(N - 1)` (the largest sum), so
//! `m = floor(log2(2N - 2)) + 1`. P1 opens with a bid (passing is not allowed before any bid,
//! as in the paper's code: with no bid there is no contract), then the players alternate, each
//! bid higher than the last, until someone passes. The final bid `2^k` pays `2^k` to both if
//! `s1 + s2 >= 2^k`, else 0. After the top bid only Pass is legal (still a decision).
//!
//! States (Table 1): each deal has `2^(m+1) - 1` states (every increasing set of bids is a
//! decision state, and each but the empty one also ends with a pass), so there are
//! `1 + N^2 (2^(m+1) - 1)`: 241, 1985, 16129 for N = 4, 8, 16. Table 1's information sets
//! count each of those `2^(m+1) - 1` public states once per private number of the player whose
//! turn it is (for a finished game, the player whose turn would come next), plus the root:
//! `1 + N (2^(m+1) - 1)` = 61, 249, 1009.

use super::error::{bounded, JpsError};
use super::tree::{private_card_key, Actor, Rules, Turn};

pub const MAX_N: u32 = 64;
const PASS: u16 = 0;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SimpleBidding {
    n: u32,
    bids: u32,
}

#[derive(Clone, Copy, Debug, Default)]
pub(crate) struct BiddingState {
    deal: Option<(u32, u32)>,
    /// Bit `k` set when `2^k` was bid; bids only rise, so this is the whole public history.
    bids: u32,
    passed: bool,
}

impl SimpleBidding {
    pub fn new(n: u32) -> Result<SimpleBidding, JpsError> {
        bounded(
            "simple_bidding:n (the number of private values)",
            n,
            2,
            MAX_N,
        )?;
        let bids = (2 * n - 2).ilog2() + 1;
        Ok(SimpleBidding { n, bids })
    }

    pub fn n(&self) -> u32 {
        self.n
    }

    /// The number of bids, `m`.
    pub fn num_bids(&self) -> u32 {
        self.bids
    }

    fn per_deal(&self) -> u64 {
        (1u64 << (self.bids + 1)) - 1
    }

    fn history_text(s: &BiddingState) -> String {
        let mut parts: Vec<String> = (0..32)
            .filter(|k| s.bids >> k & 1 == 1)
            .map(|k| (1u64 << k).to_string())
            .collect();
        if s.passed {
            parts.push("P".into());
        }
        parts.join(",")
    }
}

impl Rules for SimpleBidding {
    type State = BiddingState;

    fn name(&self) -> String {
        format!("simple_bidding:n={}", self.n)
    }

    fn num_states(&self) -> u64 {
        1 + (self.n as u64).pow(2) * self.per_deal()
    }

    fn num_distinct_actions(&self) -> u16 {
        self.bids as u16 + 1
    }

    fn max_chance_outcomes(&self) -> u16 {
        (self.n * self.n) as u16
    }

    fn root(&self) -> BiddingState {
        BiddingState::default()
    }

    fn turn(&self, s: &BiddingState) -> Turn {
        let Some((s1, s2)) = s.deal else {
            let p = 1.0 / (self.n * self.n) as f64;
            return Turn::Chance((0..(self.n * self.n) as u16).map(|a| (a, p)).collect());
        };
        if s.passed {
            let k = 31 - s.bids.leading_zeros();
            let contract = 1u64 << k;
            let made = (s1 + s2) as u64 >= contract;
            return Turn::Terminal {
                utility: if made { contract as f64 } else { 0.0 },
            };
        }
        let player = (s.bids.count_ones() % 2) as u8;
        let lowest = if s.bids == 0 {
            0
        } else {
            32 - s.bids.leading_zeros()
        };
        let mut actions: Vec<u16> = if s.bids == 0 { vec![] } else { vec![PASS] };
        actions.extend((lowest..self.bids).map(|k| k as u16 + 1));
        Turn::Player { player, actions }
    }

    fn apply(&self, s: &BiddingState, action: u16) -> BiddingState {
        let mut next = *s;
        if s.deal.is_none() {
            next.deal = Some((action as u32 / self.n, action as u32 % self.n));
        } else if action == PASS {
            next.passed = true;
        } else {
            next.bids |= 1 << (action - 1);
        }
        next
    }

    fn infoset_key(&self, s: &BiddingState, player: u8) -> u128 {
        private_card_key(s.deal, player, s.bids as u128)
    }

    fn terminal_key(&self, s: &BiddingState) -> u128 {
        // The paper's code keys a finished game by the player whose turn would come next.
        let (s1, s2) = s.deal.unwrap_or((0, 0));
        let next = (s.bids.count_ones() + 1) % 2;
        let own = if next == 0 { s1 } else { s2 };
        2 << 120 | (next as u128) << 96 | (own as u128) << 64 | s.bids as u128
    }

    fn infoset_label(&self, s: &BiddingState, player: u8) -> String {
        let (s1, s2) = s.deal.unwrap_or((0, 0));
        let own = if player == 0 { s1 } else { s2 };
        format!("p{player} s={own} bids={}", Self::history_text(s))
    }

    fn deal_view(&self, action: u16, player: u8) -> String {
        let (s1, s2) = (action as u32 / self.n, action as u32 % self.n);
        format!("s{}", if player == 0 { s1 } else { s2 })
    }

    fn action_label(&self, actor: Actor, action: u16) -> String {
        match actor {
            Actor::Chance => format!(
                "s1={} s2={}",
                action as u32 / self.n,
                action as u32 % self.n
            ),
            _ if action == PASS => "Pass".into(),
            _ => (1u64 << (action - 1)).to_string(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::jps::policy::{expected_reward, JointPolicy};
    use crate::jps::testing::game;
    use crate::jps::tree::Actor;

    #[test]
    fn the_bids_are_the_powers_of_two_up_to_the_largest_sum() {
        for (n, m) in [
            (2, 2),
            (3, 3),
            (4, 3),
            (5, 4),
            (8, 4),
            (16, 5),
            (17, 6),
            (64, 7),
        ] {
            assert_eq!(SimpleBidding::new(n).unwrap().num_bids(), m, "N={n}");
        }
    }

    #[test]
    fn opening_with_1_and_passing_pays_1_unless_both_hold_0() {
        let tree = game("simple_bidding:n=4");
        let mut policy = JointPolicy::uniform(tree);
        for i in 0..tree.num_infosets() as u32 {
            // Action 0 is the lowest bid at the opening and Pass afterwards.
            policy.set_pure(tree, i, 0);
        }
        let value = expected_reward(tree, &policy).unwrap();
        assert!((value - 15.0 / 16.0).abs() < 1e-12, "{value}");
        // P1 may not pass before any bid.
        let opening = tree.children(1).map(|c| tree.action(c)).collect::<Vec<_>>();
        assert_eq!(opening, vec![1, 2, 3]);
        assert_eq!(tree.action_label(Actor::Player(0), 3), Some("4"));
    }
}
