//! 2-Suit Mini-Bridge of size N (paper 002, Definition 3).
//!
//! Chance deals each player `s_i` spades, uniformly and independently in `0..=N` (the other
//! `N - s_i` of its N cards are hearts). The bids are 1♥ < 1♠ < 2♥ < 2♠ < ... < N♠ (action ids
//! 1..=2N; Pass is 0). P1 opens; P1's opening pass does not end the auction, but any later pass
//! does (two opening passes are a pass-out, worth 0). Each bid must be higher than the last. The
//! final bid k♠ makes when `s1 + s2 >= N + k` and k♥ when `s1 + s2 <= N - k` (the side holds at
//! least N + k cards of the suit); a made contract pays `2^(k-1)`, a failed one -1. After N♠ only
//! Pass is legal (still a decision).
//!
//! States (Table 1): with `b = 2N` bids each deal has `2^(b+2) - 1` states, so there are
//! `1 + (N+1)^2 (2^(2N+2) - 1)`: 4081, 25576, 147421 for N = 3, 4, 5. Table 1's information sets
//! count each public state once per private value of the player whose turn it is (for a finished
//! game, the player whose turn would come next), plus the root: `1 + (N+1)(2^(2N+2) - 1)`.

use super::error::{bounded, JpsError};
use super::tree::{private_card_key, Actor, Rules, Turn};

pub const MAX_N: u32 = 6;
const PASS: u16 = 0;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct MiniBridge {
    n: u32,
}

#[derive(Clone, Copy, Debug, Default)]
pub(crate) struct AuctionState {
    deal: Option<(u32, u32)>,
    /// P1 passed on the first turn.
    opened_with_pass: bool,
    /// Bit `a - 1` set when bid `a` was made; bids only rise, so this is the bidding history.
    bids: u32,
    ended: bool,
}

impl AuctionState {
    fn actions_taken(&self) -> u32 {
        self.opened_with_pass as u32 + self.bids.count_ones() + self.ended as u32
    }
}

impl MiniBridge {
    pub fn new(n: u32) -> Result<MiniBridge, JpsError> {
        bounded("mini_bridge:n (the cards per hand)", n, 1, MAX_N)?;
        Ok(MiniBridge { n })
    }

    pub fn n(&self) -> u32 {
        self.n
    }

    fn bid_text(action: u16) -> String {
        let level = action.div_ceil(2);
        let suit = if action.is_multiple_of(2) { 'S' } else { 'H' };
        format!("{level}{suit}")
    }

    fn history_text(s: &AuctionState) -> String {
        let mut parts: Vec<String> = Vec::new();
        if s.opened_with_pass {
            parts.push("P".into());
        }
        parts.extend(
            (0..32u16)
                .filter(|k| s.bids >> k & 1 == 1)
                .map(|k| Self::bid_text(k + 1)),
        );
        if s.ended {
            parts.push("P".into());
        }
        parts.join(",")
    }

    fn public_key(s: &AuctionState) -> u128 {
        (s.opened_with_pass as u128) << 40 | (s.ended as u128) << 41 | s.bids as u128
    }
}

impl Rules for MiniBridge {
    type State = AuctionState;

    fn name(&self) -> String {
        format!("mini_bridge:n={}", self.n)
    }

    fn num_states(&self) -> u64 {
        let deals = (self.n as u64 + 1).pow(2);
        1 + deals * ((1u64 << (2 * self.n + 2)) - 1)
    }

    fn num_distinct_actions(&self) -> u16 {
        2 * self.n as u16 + 1
    }

    fn max_chance_outcomes(&self) -> u16 {
        ((self.n + 1) * (self.n + 1)) as u16
    }

    fn root(&self) -> AuctionState {
        AuctionState::default()
    }

    fn turn(&self, s: &AuctionState) -> Turn {
        let Some((s1, s2)) = s.deal else {
            let outcomes = (self.n + 1) * (self.n + 1);
            let p = 1.0 / outcomes as f64;
            return Turn::Chance((0..outcomes as u16).map(|a| (a, p)).collect());
        };
        if s.ended {
            if s.bids == 0 {
                return Turn::Terminal { utility: 0.0 };
            }
            let last = (32 - s.bids.leading_zeros()) as u16;
            let level = (last as u32).div_ceil(2);
            let spades = last.is_multiple_of(2);
            let made = if spades {
                s1 + s2 >= self.n + level
            } else {
                s1 + s2 + level <= self.n
            };
            return Turn::Terminal {
                utility: if made {
                    (1u64 << (level - 1)) as f64
                } else {
                    -1.0
                },
            };
        }
        let player = (s.actions_taken() % 2) as u8;
        let lowest = 32 - s.bids.leading_zeros();
        let mut actions = vec![PASS];
        actions.extend((lowest..2 * self.n).map(|k| k as u16 + 1));
        Turn::Player { player, actions }
    }

    fn apply(&self, s: &AuctionState, action: u16) -> AuctionState {
        let mut next = *s;
        if s.deal.is_none() {
            let width = self.n + 1;
            next.deal = Some((action as u32 / width, action as u32 % width));
        } else if action == PASS {
            if s.actions_taken() == 0 {
                next.opened_with_pass = true;
            } else {
                next.ended = true;
            }
        } else {
            next.bids |= 1 << (action - 1);
        }
        next
    }

    fn infoset_key(&self, s: &AuctionState, player: u8) -> u128 {
        private_card_key(s.deal, player, Self::public_key(s))
    }

    fn terminal_key(&self, s: &AuctionState) -> u128 {
        // The paper's code keys a finished game by the player whose turn would come next.
        let (s1, s2) = s.deal.unwrap_or((0, 0));
        let next = s.actions_taken() % 2;
        let own = if next == 0 { s1 } else { s2 };
        2 << 120 | (next as u128) << 96 | (own as u128) << 64 | Self::public_key(s)
    }

    fn infoset_label(&self, s: &AuctionState, player: u8) -> String {
        let (s1, s2) = s.deal.unwrap_or((0, 0));
        let own = if player == 0 { s1 } else { s2 };
        format!("p{player} spades={own} bids={}", Self::history_text(s))
    }

    fn deal_view(&self, action: u16, player: u8) -> String {
        let width = self.n as u16 + 1;
        let own = if player == 0 {
            action / width
        } else {
            action % width
        };
        format!("s{own}")
    }

    fn action_label(&self, actor: Actor, action: u16) -> String {
        match actor {
            Actor::Chance => {
                let width = self.n as u16 + 1;
                format!("s1={} s2={}", action / width, action % width)
            }
            _ if action == PASS => "Pass".into(),
            _ => Self::bid_text(action),
        }
    }
}

#[cfg(test)]
mod tests {
    use std::collections::HashMap;

    use crate::jps::policy::{expected_reward, JointPolicy};
    use crate::jps::testing::game;
    use crate::jps::tree::Actor;

    /// Table 4 of the paper (Appendix C): the auction JPS found for N = 4, by the hearts of P1
    /// (rows) and of P2 (columns); the paper says it scores the best known 1.84.
    const TABLE4: [[&str; 5]; 5] = [
        [
            "1S-2S-3S-4S-P",
            "1S-2S-3S-P",
            "1S-2H-2S-P",
            "1S-P",
            "1S-2H-2S-4H-4S-P",
        ],
        ["P-2S-3S-P", "P-1S-2S-P", "P-P", "P-P", "P-1H-P"],
        ["P-2S-P", "P-1S-P", "P-P", "P-P", "P-1H-2H-P"],
        ["1H-1S-P", "1H-P", "1H-P", "1H-2H-P", "1H-3H-P"],
        [
            "1H-1S-4H-4S-P",
            "1H-P",
            "1H-P",
            "1H-2H-3H-P",
            "1H-3H-3S-4H-P",
        ],
    ];

    #[test]
    fn the_paper_s_table_4_auction_scores_1_84() {
        let tree = game("mini_bridge:n=4");
        let id = |bid: &str| {
            (0..tree.num_distinct_actions())
                .find(|&a| tree.action_label(Actor::Player(0), a) == Some(bid))
                .unwrap_or_else(|| panic!("no bid {bid}"))
        };
        // Replay every deal's auction; each decision fixes its information set's action, and a
        // policy must never need two actions in one set.
        let mut choice: HashMap<u32, u16> = HashMap::new();
        for deal in tree.children(0) {
            let a = tree.action(deal) as usize;
            let (spades1, spades2) = (a / 5, a % 5);
            let row = TABLE4[4 - spades1][4 - spades2];
            let mut node = deal;
            for bid in row.split('-') {
                let bid = if bid == "P" { "Pass" } else { bid };
                let action = id(bid);
                let i = tree.infoset_of(node).unwrap();
                assert_eq!(*choice.entry(i).or_insert(action), action, "{row}");
                node = tree
                    .children(node)
                    .find(|&c| tree.action(c) == action)
                    .unwrap();
            }
            assert!(tree.children(node).is_empty(), "{row} ends the auction");
        }
        let mut policy = JointPolicy::uniform(tree);
        for (i, a) in choice {
            let index = tree
                .children(tree.states(i)[0])
                .position(|c| tree.action(c) == a);
            policy.set_pure(tree, i, index.unwrap() as u16);
        }
        let value = expected_reward(tree, &policy).unwrap();
        assert!((value - 1.84).abs() < 1e-12, "{value}");
    }
}
