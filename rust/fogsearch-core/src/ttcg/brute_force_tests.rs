//! Specifications of the game, observation, construction, reach and enumeration, checked against
//! brute force over every deal order through the game engine.

use std::collections::HashSet;

use super::constraints::{Card, Owner};
use super::enumerate::{enumerate_assignments, enumerate_weighted};
use super::error::TtcgError;
use super::flow::{construct_assignment, construct_suit_lengths, is_consistent};
use super::history::log_reach;
use super::observation::observe;
use super::ohhell::{Action, Actor, OhHellParams, OhHellPhase as Phase, OhHellState};
use super::openspiel::{deal_orders_per_assignment, for_each_history, openspiel_actions};
use super::policy::{
    extend_public_key, initial_public_key, BiasPolicy, BuiltinPolicy, InfoStateView, Policy,
    SoftmaxPolicy,
};
use crate::rng::Rng;
use crate::stop::NEVER;

fn params(players: usize, suits: usize, ranks: usize, tricks: i64) -> OhHellParams {
    OhHellParams {
        players,
        num_suits: suits,
        num_cards_per_suit: ranks,
        num_tricks_fixed: tricks,
        ..OhHellParams::default()
    }
}

/// A random history that stops after `extra` public actions past the deal.
fn random_history(p: &OhHellParams, rng: &mut Rng, extra: usize) -> Vec<Action> {
    let mut s = OhHellState::new(p.clone()).unwrap();
    let mut public = 0;
    while !s.is_terminal() {
        if s.actor() != Actor::Chance {
            if public == extra {
                break;
            }
            public += 1;
        }
        let legal = s.legal_actions();
        let a = legal[rng.below(legal.len() as u64) as usize];
        s.apply_action(a).unwrap();
    }
    s.history().to_vec()
}

/// Reach of a full history computed by replaying it through the game engine.
fn engine_log_reach(p: &OhHellParams, actions: &[Action], policy: &dyn Policy) -> f64 {
    let mut s = OhHellState::new(p.clone()).unwrap();
    let mut public: Vec<Action> = Vec::new();
    let mut key = 0;
    let mut log_p = 0.0;
    for &a in actions {
        if let Actor::Player(player) = s.actor() {
            if public.is_empty() {
                key = initial_public_key(&s.table().unwrap());
            }
            let legal = s.legal_actions();
            let hand = |only_current: bool| {
                let mut m = 0u64;
                for (c, o) in s.initial_deal().iter().enumerate() {
                    let played = public.contains(&(c as Action));
                    if *o == Some(player as u8) && !(only_current && played) {
                        m |= 1 << c;
                    }
                }
                m
            };
            let view = InfoStateView {
                player,
                dealt_hand: hand(false),
                current_hand: hand(true),
                table: &s.table().unwrap(),
                public: &s.table_state().unwrap().public,
                public_actions: &public,
                public_key: key,
                legal_actions: &legal,
            };
            let i = legal.iter().position(|&x| x == a).unwrap();
            log_p += policy.action_probability(&view, i).ln();
            public.push(a);
            key = extend_public_key(key, a);
        }
        s.apply_action(a).unwrap();
    }
    log_p
}

/// Every OpenSpiel history with the same trump card and public actions as `actions` whose deal
/// gives `observer` (if any) the same hand: brute force over all deal orders via the engine.
fn brute_force_histories(
    p: &OhHellParams,
    actions: &[Action],
    observer: Option<usize>,
) -> Vec<Vec<Action>> {
    let truth = OhHellState::from_actions(p.clone(), actions).unwrap();
    let tricks = truth.num_tricks();
    let slots = p.players * tricks;
    let deal_end = 2 + slots;
    let trump = actions[deal_end];
    let public = &actions[deal_end + 1..];
    let cards: Vec<Action> = (0..p.num_cards() as Action)
        .filter(|&c| c != trump)
        .collect();
    let mut out = Vec::new();
    let mut chosen = Vec::with_capacity(slots);
    let mut used = vec![false; cards.len()];
    #[allow(clippy::too_many_arguments)]
    fn rec(
        p: &OhHellParams,
        cards: &[Action],
        used: &mut [bool],
        chosen: &mut Vec<Action>,
        slots: usize,
        prefix: &[Action],
        suffix: &[Action],
        observer_hand: &Option<(usize, Vec<Option<u8>>)>,
        out: &mut Vec<Vec<Action>>,
    ) {
        if chosen.len() == slots {
            let mut h = prefix.to_vec();
            h.extend_from_slice(chosen);
            h.extend_from_slice(suffix);
            if OhHellState::from_actions(p.clone(), &h).is_ok() {
                out.push(h);
            }
            return;
        }
        let slot_owner = chosen.len() % p.players;
        for i in 0..cards.len() {
            if used[i] {
                continue;
            }
            if let Some((obs, deal)) = observer_hand {
                let is_obs_card = deal[cards[i] as usize] == Some(*obs as u8);
                if is_obs_card != (slot_owner == *obs) {
                    continue;
                }
            }
            used[i] = true;
            chosen.push(cards[i]);
            rec(
                p,
                cards,
                used,
                chosen,
                slots,
                prefix,
                suffix,
                observer_hand,
                out,
            );
            chosen.pop();
            used[i] = false;
        }
    }
    let mut suffix = vec![trump];
    suffix.extend_from_slice(public);
    let observer_hand = observer.map(|o| (o, truth.initial_deal().to_vec()));
    rec(
        p,
        &cards,
        &mut used,
        &mut chosen,
        slots,
        &actions[..2],
        &suffix,
        &observer_hand,
        &mut out,
    );
    out
}

#[test]
fn game_follows_openspiel_rules_on_a_hand_checked_example() {
    // 3 players, 2 suits x 4 ranks (cards: rank*2+suit; suit 0 = C, 1 = D), 2 tricks, dealer 2.
    let p = params(3, 2, 4, 2);
    let mut s = OhHellState::new(p.clone()).unwrap();
    assert_eq!(s.legal_actions(), vec![2]);
    for a in [2, 2, /* deal */ 0, 1, 2, 4, 3, 5, /* trump D */ 7] {
        s.apply_action(a).unwrap();
    }
    // Hands: p0 {0 C2, 4 C4}, p1 {1 D2, 3 D3}, p2 {2 C3, 5 D4}. Bidding starts left of dealer 2.
    assert_eq!(s.actor(), Actor::Player(0));
    assert_eq!(s.legal_actions(), vec![8, 9, 10]);
    s.apply_action(9).unwrap(); // p0 bids 1
    s.apply_action(8).unwrap(); // p1 bids 0
                                // p2 is last: may not bid 1 (1 + 0 + 1 == 2 tricks).
    assert_eq!(s.legal_actions(), vec![8, 10]);
    s.apply_action(8).unwrap();
    assert_eq!(s.phase(), Phase::Play);
    assert_eq!(s.actor(), Actor::Player(0));
    s.apply_action(4).unwrap(); // p0 leads C4
    assert_eq!(s.legal_actions(), vec![1, 3], "p1 has no club: any card");
    s.apply_action(1).unwrap(); // p1 trumps with D2
    assert_eq!(s.legal_actions(), vec![2], "p2 must follow clubs");
    s.apply_action(2).unwrap();
    assert_eq!(
        s.actor(),
        Actor::Player(1),
        "the trump wins and its player leads"
    );
    s.apply_action(3).unwrap();
    s.apply_action(5).unwrap();
    s.apply_action(0).unwrap();
    assert!(s.is_terminal());
    // Trick 2: D3 led, D4 beats it. Each of p1 and p2 won 1 trick having bid 0: 1 point each;
    // p0 won none having bid 1: 0.
    assert_eq!(s.returns(), &[0.0, 1.0, 1.0]);
    assert!(matches!(s.apply_action(0), Err(TtcgError::InvalidInput(_))));
}

#[test]
fn invalid_parameters_are_rejected_with_their_name() {
    for (p, needle) in [
        (params(2, 4, 13, -1), "players"),
        (params(3, 5, 13, -1), "num_suits"),
        (params(3, 4, 1, -1), "num_cards_per_suit"),
        (params(3, 1, 3, -1), "too small"),
        (params(3, 2, 4, 3), "num_tricks_fixed"),
    ] {
        let e = OhHellState::new(p).unwrap_err().to_string();
        assert!(e.contains(needle), "{e}");
    }
}

#[test]
fn paper_public_states_have_192_12960_544320_histories() {
    // (game, tricks played) -> histories, as pyspiel enumerates the TTCG paper's public states;
    // each state has no revealed void.
    let cases = [
        ((2usize, 4usize, 2i64), 1usize, 24usize, 192u128),
        ((3, 4, 3), 2, 60, 12_960),
        ((3, 4, 3), 1, 2_520, 544_320),
    ];
    let mut rng = Rng::new(7);
    for ((suits, ranks, tricks), played, assignments, histories) in cases {
        let p = params(3, suits, ranks, tricks);
        let obs = loop {
            let h = random_history(&p, &mut rng, 3 + 3 * played);
            let o = observe(&p, &h, None).unwrap();
            if o.constraints.voids.iter().flatten().all(|v| !v) {
                break o;
            }
        };
        let all = enumerate_assignments(&obs.constraints, 1_000_000, &NEVER).unwrap();
        assert_eq!(all.len(), assignments);
        let orders = deal_orders_per_assignment(&obs.template);
        assert_eq!(all.len() as f64 * orders, histories as f64);
        let weighted = enumerate_weighted(
            &obs.constraints,
            &obs.template,
            &BuiltinPolicy::Uniform,
            1_000_000,
            &NEVER,
        )
        .unwrap();
        assert_eq!(
            weighted.assignments.len(),
            assignments,
            "every consistent deal has positive reach"
        );
        if histories <= 12_960 {
            let mut seen = HashSet::new();
            let n = for_each_history(&obs.template, &all, &NEVER, |h| {
                assert!(seen.insert(h.to_vec()));
            })
            .unwrap();
            assert_eq!(n as u128, histories);
        }
    }
}

#[test]
fn enumeration_matches_brute_force_over_deal_orders_with_reach() {
    let p = params(3, 2, 4, 2);
    let mut rng = Rng::new(11);
    let policies = [
        BuiltinPolicy::Uniform,
        BuiltinPolicy::Bias(BiasPolicy { seed: 3, bias: 0.7 }),
        BuiltinPolicy::Softmax(SoftmaxPolicy { seed: 5, beta: 5.0 }),
    ];
    for round in 0..60 {
        let extra = 1 + rng.below(8) as usize;
        let h = random_history(&p, &mut rng, extra);
        let observer = match round % 4 {
            3 => None,
            o => Some(o),
        };
        let obs = observe(&p, &h, observer).unwrap();
        let brute = brute_force_histories(&p, &h, observer);
        let all = enumerate_assignments(&obs.constraints, 100_000, &NEVER).unwrap();
        let mut ours = HashSet::new();
        for_each_history(&obs.template, &all, &NEVER, |x| {
            ours.insert(x.to_vec());
        })
        .unwrap();
        let brute_set: HashSet<Vec<Action>> = brute.iter().cloned().collect();
        assert_eq!(ours, brute_set, "history {h:?} observer {observer:?}");
        for a in &all {
            assert!(is_consistent(&obs.constraints, a));
            let full = openspiel_actions(&obs.template, a);
            for policy in &policies {
                let ours = log_reach(&obs.template, a, policy);
                let engine = engine_log_reach(&p, &full, policy);
                assert!((ours - engine).abs() < 1e-12, "{ours} vs {engine}");
            }
        }
    }
}

#[test]
fn constructed_deals_are_consistent_for_every_observer() {
    let mut rng = Rng::new(5);
    for round in 0..300 {
        let players = 3 + rng.below(3) as usize;
        let suits = 1 + rng.below(4) as usize;
        let ranks = 2 + rng.below(12) as usize;
        let p = params(players, suits, ranks, -1);
        if p.validate().is_err() {
            continue;
        }
        let extra = rng.below(40) as usize;
        let h = random_history(&p, &mut rng, extra);
        let observer = if round % 2 == 0 {
            None
        } else {
            Some(round % players)
        };
        let obs = observe(&p, &h, observer).unwrap();
        assert!(is_consistent(&obs.constraints, &obs.actual_assignment));
        let a = construct_assignment(&obs.constraints).unwrap();
        assert!(is_consistent(&obs.constraints, &a));
        assert!(log_reach(&obs.template, &a, &BuiltinPolicy::Uniform) > f64::NEG_INFINITY);
    }
}

#[test]
fn flow_is_full_exactly_when_some_deal_exists() {
    // Random voids on small public states: construction succeeds iff enumeration finds a deal.
    let p = params(3, 3, 4, 3);
    let mut rng = Rng::new(9);
    let (mut feasible, mut infeasible) = (0, 0);
    for _ in 0..400 {
        let extra = 3 + rng.below(4) as usize;
        let h = random_history(&p, &mut rng, extra);
        let mut c = observe(&p, &h, None).unwrap().constraints;
        for row in c.voids.iter_mut() {
            for v in row.iter_mut() {
                *v |= rng.below(3) == 0;
            }
        }
        let exists = !enumerate_assignments(&c, 1_000_000, &NEVER)
            .unwrap()
            .is_empty();
        match construct_suit_lengths(&c) {
            Ok(_) => {
                assert!(exists);
                feasible += 1;
            }
            Err(TtcgError::Infeasible(m)) => {
                assert!(!exists, "{m}");
                assert!(m.contains("no deal is consistent"));
                infeasible += 1;
            }
            Err(e) => panic!("{e}"),
        }
    }
    assert!(feasible > 50 && infeasible > 50, "{feasible} {infeasible}");
}

#[test]
fn infeasible_constraints_name_the_binding_players_and_suits() {
    let p = params(3, 3, 4, 3);
    let h = random_history(&p, &mut Rng::new(1), 3);
    let mut c = observe(&p, &h, None).unwrap().constraints;
    // Players 1 and 2 (3 hidden cards each) void in everything but C, which has at most 4 cards.
    for pl in [1, 2] {
        c.voids[pl] = vec![false, true, true];
    }
    let m = construct_assignment(&c).unwrap_err().to_string();
    assert!(m.contains("players 1 and 2 need 6 hidden cards"), "{m}");
    assert!(m.contains("void in D, S"), "{m}");
    assert!(m.contains("of C remain"), "{m}");
}

#[test]
fn malformed_constraints_are_rejected() {
    let p = params(3, 2, 4, 2);
    let h = random_history(&p, &mut Rng::new(2), 2);
    let good = observe(&p, &h, Some(0)).unwrap().constraints;
    let mut c = good.clone();
    c.hidden_counts[0] += 1;
    assert!(construct_assignment(&c)
        .unwrap_err()
        .to_string()
        .contains("sum to"));
    let mut c = good.clone();
    c.known_owner[0] = Some(9 as Owner);
    assert!(construct_assignment(&c)
        .unwrap_err()
        .to_string()
        .contains("owner code 9"));
    let mut c = good.clone();
    c.voids.pop();
    assert!(construct_assignment(&c)
        .unwrap_err()
        .to_string()
        .contains("voids"));
    let _: Card = 0;
}
