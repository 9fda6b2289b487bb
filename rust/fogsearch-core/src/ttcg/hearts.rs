//! Hearts with OpenSpiel's `hearts` rules, parameters and action ids.
//!
//! Chance picks the pass direction (action 0 none, 1 left, 2 across, 3 right; only 0 without
//! `pass_cards`), then deals the 52 cards one by one round-robin from seat 0 (action = card id,
//! `rank * 4 + suit`, suits clubs, diamonds, hearts, spades). Unless nobody passes, seats 0 to 3
//! each pass three cards (one action per card) to the seat `direction` places on their left. The
//! holder of the two of clubs leads it; play follows suit; the highest card of the led suit wins
//! and leads next. On the first trick a seat that cannot follow may not discard a heart or the
//! queen of spades (`no_pts_on_first_trick`) unless it holds nothing else; hearts are not led
//! until a heart (or the queen of spades, `qs_breaks_hearts`) has been played
//! (`must_break_hearts`) unless the leader holds nothing else.
//!
//! Each heart taken is a point, the queen of spades 13 (the jack of diamonds -10 with
//! `jd_bonus`). A seat that takes every heart and the queen "shoots the moon": it scores 0 and the
//! others 26. With `avoid_all_tricks_bonus` a seat that takes no trick scores -5 (when nobody
//! shot the moon). A seat's return is 26 minus its points.

use std::sync::Arc;

use super::cards::{cards_of, Card, Deck, Hand};
use super::error::{invalid, TtcgError};
use super::game::{fixed_table, Action, PlayRules, Scores, Table, TrickGame, MAX_PLAYERS};
use super::observation::Observation;
use super::play::{PublicPlay, TableState};
use super::spec::{
    bool_param, observe_after_chance, CardGameState, GameSpec, ParamSpec, ParamValue,
    SearchDefaults,
};

const PLAYERS: usize = 4;
const TRICKS: usize = 13;
const PASSED: usize = 3;
const DECK: Deck = Deck::STANDARD;
const HEARTS: usize = 2;
const TWO_OF_CLUBS: Card = 0;
const QUEEN_OF_SPADES: Card = 10 * 4 + 3;
const JACK_OF_DIAMONDS: Card = 9 * 4 + 1;
const ALL_HEARTS: Hand = 0x0004_4444_4444_4444;
const ALL_CLUBS: Hand = 0x0001_1111_1111_1111;
/// What every seat's points add up to (all hearts and the queen of spades).
const TOTAL_POINTS: f64 = 26.0;
const AVOID_ALL_TRICKS_BONUS: f64 = -5.0;

/// The game's parameters under OpenSpiel's names, with OpenSpiel's defaults.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct HeartsParams {
    pub pass_cards: bool,
    pub no_pts_on_first_trick: bool,
    pub can_lead_any_club: bool,
    pub jd_bonus: bool,
    pub avoid_all_tricks_bonus: bool,
    pub must_break_hearts: bool,
    pub qs_breaks_hearts: bool,
}

const PARAMS: &[ParamSpec] = &[
    ParamSpec::bool("pass_cards", true),
    ParamSpec::bool("no_pts_on_first_trick", true),
    ParamSpec::bool("can_lead_any_club", false),
    ParamSpec::bool("jd_bonus", false),
    ParamSpec::bool("avoid_all_tricks_bonus", false),
    ParamSpec::bool("must_break_hearts", true),
    ParamSpec::bool("qs_breaks_hearts", true),
    ParamSpec::bool("can_lead_hearts_instead_of_qs", false),
];

/// Hearts' registry entry.
pub(super) const SPEC: GameSpec = GameSpec {
    name: "hearts",
    params: PARAMS,
    // Untuned: a tree per deal as for Gongzhu, UCB's c at half the spread of the returns (0 to
    // 26), as Oh Hell's 7 is for its returns.
    search: SearchDefaults {
        deals: 16,
        iterations: 400,
        exploration: 13.0,
        shared_tree: false,
    },
    greed_players: false,
    openspiel_ismcts: false,
    new_state,
    observe,
};

fn new_state(v: &[ParamValue]) -> Result<Box<dyn CardGameState>, TtcgError> {
    if bool_param(v, 7) {
        return invalid("can_lead_hearts_instead_of_qs is not supported");
    }
    let params = HeartsParams {
        pass_cards: bool_param(v, 0),
        no_pts_on_first_trick: bool_param(v, 1),
        can_lead_any_club: bool_param(v, 2),
        jd_bonus: bool_param(v, 3),
        avoid_all_tricks_bonus: bool_param(v, 4),
        must_break_hearts: bool_param(v, 5),
        qs_breaks_hearts: bool_param(v, 6),
    };
    Ok(Box::new(HeartsState::new(params)))
}

fn observe(
    v: &[ParamValue],
    actions: &[Action],
    observer: Option<usize>,
) -> Result<Observation, TtcgError> {
    observe_after_chance(v, new_state, actions, observer)
}

impl TrickGame for HeartsParams {
    fixed_table!("hearts", DECK, PLAYERS);

    fn play_rules(&self) -> PlayRules {
        PlayRules {
            opening: if self.can_lead_any_club {
                ALL_CLUBS
            } else {
                1 << TWO_OF_CLUBS
            },
            first_trick_banned: if self.no_pts_on_first_trick {
                ALL_HEARTS | 1 << QUEEN_OF_SPADES
            } else {
                0
            },
            lead_banned_until_broken: if self.must_break_hearts {
                ALL_HEARTS
            } else {
                0
            },
            breaking: if self.qs_breaks_hearts {
                ALL_HEARTS | 1 << QUEEN_OF_SPADES
            } else {
                ALL_HEARTS
            },
        }
    }

    fn points(&self, _table: &Table, public: &PublicPlay) -> Scores {
        let mut points = [0.0; MAX_PLAYERS];
        let shooter = (0..PLAYERS).find(|&s| {
            public.taken[s] & (ALL_HEARTS | 1 << QUEEN_OF_SPADES)
                == ALL_HEARTS | 1 << QUEEN_OF_SPADES
        });
        for (seat, p) in points.iter_mut().enumerate().take(PLAYERS) {
            let taken = public.taken[seat];
            *p = (taken & ALL_HEARTS).count_ones() as f64;
            if taken >> QUEEN_OF_SPADES & 1 == 1 {
                *p += 13.0;
            }
            if self.jd_bonus && taken >> JACK_OF_DIAMONDS & 1 == 1 {
                *p -= 10.0;
            }
            match shooter {
                Some(s) if s == seat => *p -= TOTAL_POINTS,
                Some(_) => *p += TOTAL_POINTS,
                None if self.avoid_all_tricks_bonus && public.tricks_won[seat] == 0 => {
                    *p += AVOID_ALL_TRICKS_BONUS
                }
                None => {}
            }
        }
        points
    }

    fn returns(&self, table: &Table, public: &PublicPlay) -> Scores {
        let mut out = self.points(table, public);
        for r in out.iter_mut().take(PLAYERS) {
            *r = TOTAL_POINTS - *r;
        }
        out
    }

    /// The queen of spades and the spades above it, then the hearts from the top.
    fn key_cards(&self, _table: &Table) -> Vec<Card> {
        let spades = [QUEEN_OF_SPADES, DECK.card(12, 3), DECK.card(11, 3)];
        let hearts = (0..13).rev().map(|rank| DECK.card(rank, HEARTS));
        spades.into_iter().chain(hearts).collect()
    }
}

/// Where a game stands.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Stage {
    PassDirection,
    Deal,
    Pass,
    Play,
}

/// A Hearts game exactly as OpenSpiel's: chance, the passes, then play at the table.
#[derive(Clone, Debug)]
pub struct HeartsState {
    params: HeartsParams,
    stage: Stage,
    direction: usize,
    num_dealt: usize,
    hands: [Hand; MAX_PLAYERS],
    /// The cards each seat passed, in order.
    passed: [Vec<Card>; PLAYERS],
    table: Option<TableState>,
    history: Vec<Action>,
    public_start: usize,
}

impl HeartsState {
    pub fn new(params: HeartsParams) -> Self {
        HeartsState {
            params,
            stage: Stage::PassDirection,
            direction: 0,
            num_dealt: 0,
            hands: [0; MAX_PLAYERS],
            passed: Default::default(),
            table: None,
            history: Vec::new(),
            public_start: 0,
        }
    }

    /// The seat passing now: seats pass three cards each, in turn from seat 0.
    fn passer(&self) -> usize {
        self.passed.iter().take_while(|p| p.len() == PASSED).count()
    }

    fn start_play(&mut self) {
        if self.direction != 0 {
            for seat in 0..PLAYERS {
                let to = (seat + self.direction) % PLAYERS;
                for &c in &self.passed[seat] {
                    self.hands[to] |= 1u64 << c;
                }
            }
        }
        let leader = (0..PLAYERS)
            .find(|&s| self.hands[s] >> TWO_OF_CLUBS & 1 == 1)
            .expect("someone holds the two of clubs");
        let table = Table {
            num_tricks: TRICKS,
            dealer: (leader + PLAYERS - 1) % PLAYERS,
            trump_card: None,
        };
        self.stage = Stage::Play;
        self.public_start = self.history.len();
        self.table = Some(TableState::new(&self.params, table, &self.hands));
    }

    fn apply_unchecked(&mut self, action: Action) {
        let card = action as Card;
        match self.stage {
            Stage::PassDirection => {
                self.direction = action as usize;
                self.stage = Stage::Deal;
            }
            Stage::Deal => {
                self.hands[self.num_dealt % PLAYERS] |= 1u64 << card;
                self.num_dealt += 1;
                if self.num_dealt == DECK.num_cards() && self.direction != 0 {
                    self.stage = Stage::Pass;
                }
            }
            Stage::Pass => {
                let seat = self.passer();
                self.hands[seat] &= !(1u64 << card);
                self.passed[seat].push(card);
            }
            Stage::Play => self.table.as_mut().expect("play").apply(action),
        }
    }

    /// Whether the history so far has left chance and passing behind (play must start).
    fn play_due(&self) -> bool {
        match self.stage {
            Stage::Deal => self.num_dealt == DECK.num_cards() && self.direction == 0,
            Stage::Pass => self.passer() == PLAYERS,
            _ => false,
        }
    }
}

impl CardGameState for HeartsState {
    fn game(&self) -> Arc<dyn TrickGame> {
        Arc::new(self.params)
    }

    fn history(&self) -> &[Action] {
        &self.history
    }

    fn legal_actions(&self) -> Vec<Action> {
        match self.stage {
            Stage::PassDirection if self.params.pass_cards => (0..PLAYERS as Action).collect(),
            Stage::PassDirection => vec![0],
            Stage::Deal => {
                let dealt = self.hands.iter().fold(0, |a, h| a | h);
                cards_of(DECK.all() & !dealt).map(|c| c as Action).collect()
            }
            Stage::Pass => cards_of(self.hands[self.passer()])
                .map(|c| c as Action)
                .collect(),
            Stage::Play => self
                .table
                .as_ref()
                .expect("play")
                .legal_action_vec(&self.params),
        }
    }

    fn apply_action(&mut self, action: Action) -> Result<(), TtcgError> {
        if !self.legal_actions().contains(&action) {
            return invalid(format!(
                "action {action} is not legal (legal: {:?})",
                self.legal_actions()
            ));
        }
        self.apply_unchecked(action);
        self.history.push(action);
        if self.play_due() {
            self.start_play();
        }
        Ok(())
    }

    fn is_chance_node(&self) -> bool {
        matches!(self.stage, Stage::PassDirection | Stage::Deal)
    }

    fn is_terminal(&self) -> bool {
        self.table.is_some_and(|t| t.is_over())
    }

    fn current_player(&self) -> Option<usize> {
        match self.stage {
            Stage::Pass => Some(self.passer()),
            Stage::Play => self.table.filter(|t| !t.is_over()).map(|t| t.to_act()),
            _ => None,
        }
    }

    fn returns(&self) -> Vec<f64> {
        match &self.table {
            Some(t) if t.is_over() => t.returns(&self.params)[..PLAYERS].to_vec(),
            _ => vec![0.0; PLAYERS],
        }
    }

    fn table_state(&self) -> Option<&TableState> {
        self.table.as_ref()
    }

    /// The hands after the passes: what each seat held when play started.
    fn dealt_hands(&self) -> &[Hand] {
        &self.hands[..PLAYERS]
    }

    fn public_actions(&self) -> &[Action] {
        self.history.get(self.public_start..).unwrap_or(&[])
    }

    fn box_clone(&self) -> Box<dyn CardGameState> {
        Box::new(self.clone())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rng::Rng;

    fn random_game(seed: u64) -> Box<dyn CardGameState> {
        let mut rng = Rng::new(seed);
        let mut s = SPEC.start(&[]).unwrap();
        while !s.is_terminal() {
            let legal = s.legal_actions();
            let a = legal[rng.below(legal.len() as u64) as usize];
            s.apply_action(a).unwrap();
        }
        s
    }

    #[test]
    fn points_always_total_26_or_a_moon_shot() {
        for seed in 0..500 {
            let s = random_game(seed);
            let returns = s.returns();
            let total: f64 = returns.iter().sum();
            // Without a moon shot the points sum to 26 (returns to 4 x 26 - 26); with one, the
            // shooter returns 26 and the others 0.
            assert!(total == 78.0 || total == 26.0, "{returns:?}");
            assert_eq!(
                s.history().len(),
                1 + 52 + if s.history()[0] == 0 { 0 } else { 12 } + 52
            );
        }
    }

    #[test]
    fn the_two_of_clubs_opens_and_hearts_wait_until_broken() {
        let mut s = SPEC.start(&[]).unwrap();
        s.apply_action(0).unwrap();
        for c in 0..52 {
            s.apply_action(c).unwrap();
        }
        // Seat 0 holds 0, 4, 8, ...: the two of clubs (0) leads.
        assert_eq!(s.current_player(), Some(0));
        assert_eq!(s.legal_actions(), vec![TWO_OF_CLUBS as Action]);
        assert!(s.apply_action(4).is_err());
    }
}
