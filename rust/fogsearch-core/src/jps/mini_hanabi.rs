//! Mini-Hanabi: the two-step matrix game of the Bayesian Action Decoder paper, which is
//! OpenSpiel's `tiny_hanabi` with its default parameters.
//!
//! Each player is dealt a card in {0, 1}, uniformly and independently, and sees only its own.
//! P1 acts (3 actions), then P2 acts (3 actions) knowing its card and P1's action; both receive
//! `PAYOFF[((c1 * 2 + c2) * 3 + a1) * 3 + a2]`.
//!
//! OpenSpiel deals the two cards with two chance nodes (55 states); Table 1 counts one joint deal
//! of 4 outcomes: 1 + 4 + 12 + 36 = 53 states. Its 45 information sets are the root, P1's 2 and
//! P2's 6 decision sets, and the 36 terminals, each its own key (the paper's code keys a finished
//! Mini-Hanabi game by its full state).
//!
//! Information-set labels are OpenSpiel's information-state strings (`p0:d1`, `p1:d0 p0:a2`).

use super::tree::{Actor, Rules, Turn};

/// OpenSpiel `tiny_hanabi`'s default `payoff` parameter, in its order.
pub const PAYOFF: [f64; 36] = [
    10., 0., 0., 4., 8., 4., 10., 0., 0., //
    0., 0., 10., 4., 8., 4., 0., 0., 10., //
    0., 0., 10., 4., 8., 4., 0., 0., 0., //
    10., 0., 0., 4., 8., 4., 10., 0., 0.,
];

#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct MiniHanabi;

#[derive(Clone, Copy, Debug, Default)]
pub(crate) struct MiniHanabiState {
    cards: Option<(u8, u8)>,
    first: Option<u8>,
    second: Option<u8>,
}

impl Rules for MiniHanabi {
    type State = MiniHanabiState;

    fn name(&self) -> String {
        "mini_hanabi".into()
    }

    fn num_states(&self) -> u64 {
        53
    }

    fn num_distinct_actions(&self) -> u16 {
        3
    }

    fn max_chance_outcomes(&self) -> u16 {
        4
    }

    fn root(&self) -> MiniHanabiState {
        MiniHanabiState::default()
    }

    fn turn(&self, s: &MiniHanabiState) -> Turn {
        match (s.cards, s.first, s.second) {
            (None, _, _) => Turn::Chance((0..4).map(|a| (a, 0.25)).collect()),
            (Some(_), None, _) => Turn::Player {
                player: 0,
                actions: vec![0, 1, 2],
            },
            (Some(_), Some(_), None) => Turn::Player {
                player: 1,
                actions: vec![0, 1, 2],
            },
            (Some((c1, c2)), Some(a1), Some(a2)) => {
                let index = ((c1 as usize * 2 + c2 as usize) * 3 + a1 as usize) * 3 + a2 as usize;
                Turn::Terminal {
                    utility: PAYOFF[index],
                }
            }
        }
    }

    fn apply(&self, s: &MiniHanabiState, action: u16) -> MiniHanabiState {
        let mut next = *s;
        let a = action as u8;
        if s.cards.is_none() {
            next.cards = Some((a / 2, a % 2));
        } else if s.first.is_none() {
            next.first = Some(a);
        } else {
            next.second = Some(a);
        }
        next
    }

    fn infoset_key(&self, s: &MiniHanabiState, player: u8) -> u128 {
        let (c1, c2) = s.cards.unwrap_or((0, 0));
        if player == 0 {
            1 << 120 | c1 as u128
        } else {
            2 << 120 | (c2 as u128) << 8 | s.first.unwrap_or(0) as u128
        }
    }

    fn terminal_key(&self, s: &MiniHanabiState) -> u128 {
        let (c1, c2) = s.cards.unwrap_or((0, 0));
        let (a1, a2) = (s.first.unwrap_or(0), s.second.unwrap_or(0));
        3 << 120 | (c1 as u128) << 24 | (c2 as u128) << 16 | (a1 as u128) << 8 | a2 as u128
    }

    fn infoset_label(&self, s: &MiniHanabiState, player: u8) -> String {
        let (c1, c2) = s.cards.unwrap_or((0, 0));
        if player == 0 {
            format!("p0:d{c1}")
        } else {
            format!("p1:d{c2} p0:a{}", s.first.unwrap_or(0))
        }
    }

    fn deal_view(&self, action: u16, player: u8) -> String {
        let card = if player == 0 { action / 2 } else { action % 2 };
        format!("d{card}")
    }

    fn action_label(&self, actor: Actor, action: u16) -> String {
        match actor {
            Actor::Chance => format!("d{}{}", action / 2, action % 2),
            _ => format!("a{action}"),
        }
    }
}

#[cfg(test)]
mod tests {
    use crate::jps::policy::{expected_reward, JointPolicy};
    use crate::jps::testing::game;

    fn pure(choices: &[(&str, u16)]) -> JointPolicy {
        let tree = game("mini_hanabi");
        let mut policy = JointPolicy::uniform(tree);
        for i in 0..tree.num_infosets() as u32 {
            let (_, a) = choices
                .iter()
                .find(|(label, _)| *label == tree.infoset_label(i))
                .unwrap();
            policy.set_pure(tree, i, *a);
        }
        policy
    }

    #[test]
    fn the_bad_papers_optimal_convention_scores_10_and_always_hinting_8() {
        // P1 signals its card with actions 0 (card 1) and 2 (card 0); P2 decodes it.
        let optimal = pure(&[
            ("p0:d0", 2),
            ("p0:d1", 0),
            ("p1:d0 p0:a0", 2),
            ("p1:d0 p0:a1", 2),
            ("p1:d0 p0:a2", 0),
            ("p1:d1 p0:a0", 0),
            ("p1:d1 p0:a1", 2),
            ("p1:d1 p0:a2", 2),
        ]);
        let tree = game("mini_hanabi");
        assert_eq!(expected_reward(tree, &optimal).unwrap(), 10.0);
        let safe: Vec<(&str, u16)> = (0..tree.num_infosets() as u32)
            .map(|i| (tree.infoset_label(i), 1))
            .collect();
        assert_eq!(expected_reward(tree, &pure(&safe)).unwrap(), 8.0);
    }
}
