//! Gongzhu (ScrofaZero paper §2, Table 1): four players, partners sitting across (seats 0 and 2
//! against 1 and 3), thirteen cards each from a standard deck, no bidding, no trump, follow suit.
//! Points go to whoever takes the cards:
//!
//! - hearts: A −50, K −40, Q −30, J −20, 5 to 10 −10 each, 2 to 4 nothing (−200 in all), but a
//!   player who takes all thirteen hearts counts +200 for them instead;
//! - the queen of spades (the "pig") −100, the jack of diamonds (the "sheep") +100;
//! - the ten of clubs (the "transformer") doubles the taker's other points, or counts +50 when it
//!   is the only one of the sixteen scoring cards (the hearts, SQ, DJ, C10) the player took.
//!
//! Points are a player's own; a team scores the sum of its two players. A seat's return is its
//! team's points minus the other team's, so the game is zero-sum and a team's mean return against
//! an opponent is the paper's "winning points".
//!
//! Dealing, as OpenSpiel deals oh_hell: 52 chance actions, card ids, round-robin from seat 0. Seat
//! 0 leads the first trick (the dealer is seat 3); matches rotate the seats.

use super::cards::{cards_of, Card, Deck, Hand};
use super::encoding::{Reader, Writer};
use super::error::{invalid, TtcgError};
use super::game::{fixed_table, Action, Scores, Table, TrickGame, MAX_PLAYERS};
use super::play::{PublicPlay, TableState};

pub const PLAYERS: usize = 4;
pub const TRICKS: usize = 13;
pub const DECK: Deck = Deck::STANDARD;

pub const CLUBS: usize = 0;
pub const DIAMONDS: usize = 1;
pub const SPADES: usize = 2;
pub const HEARTS: usize = 3;

/// Ranks, counted from the two.
pub const TEN: usize = 8;
pub const JACK: usize = 9;
pub const QUEEN: usize = 10;
pub const KING: usize = 11;
pub const ACE: usize = 12;

pub const PIG: Card = (QUEEN * 4 + SPADES) as Card;
pub const SHEEP: Card = (JACK * 4 + DIAMONDS) as Card;
pub const TRANSFORMER: Card = (TEN * 4 + CLUBS) as Card;

/// Every heart.
pub const ALL_HEARTS: Hand = 0x0008_8888_8888_8888;
/// The sixteen cards that score: the hearts, the pig, the sheep and the transformer.
pub const SCORING_CARDS: Hand = ALL_HEARTS | 1 << PIG | 1 << SHEEP | 1 << TRANSFORMER;

/// The points a heart of `rank` is worth (Table 1).
pub const fn heart_points(rank: usize) -> i32 {
    match rank {
        ACE => -50,
        KING => -40,
        QUEEN => -30,
        JACK => -20,
        3..=TEN => -10,
        _ => 0,
    }
}

/// The points a card is worth before the transformer's rule: hearts, pig, sheep; 0 otherwise.
pub const fn card_points(card: Card) -> i32 {
    let suit = card as usize % 4;
    if suit == HEARTS {
        heart_points(card as usize / 4)
    } else if card == PIG {
        -100
    } else if card == SHEEP {
        100
    } else {
        0
    }
}

/// The points of a player who took the cards `taken`.
pub fn points_of(taken: Hand) -> i32 {
    let hearts = taken & ALL_HEARTS;
    let heart_total = if hearts == ALL_HEARTS {
        200
    } else {
        cards_of(hearts).map(card_points).sum()
    };
    let mut total = heart_total;
    if taken >> PIG & 1 == 1 {
        total -= 100;
    }
    if taken >> SHEEP & 1 == 1 {
        total += 100;
    }
    if taken >> TRANSFORMER & 1 == 1 {
        if taken & SCORING_CARDS == 1 << TRANSFORMER {
            50
        } else {
            2 * total
        }
    } else {
        total
    }
}

/// The game; it has no parameters.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Gongzhu;

/// Seat 3 deals, so seat 0 leads the first trick.
pub const TABLE: Table = Table {
    num_tricks: TRICKS,
    dealer: PLAYERS - 1,
    trump_card: None,
};

impl TrickGame for Gongzhu {
    fixed_table!("gongzhu", DECK, PLAYERS);

    fn num_teams(&self) -> usize {
        2
    }

    fn team_of(&self, seat: usize) -> usize {
        seat % 2
    }

    /// The pig, then the hearts that cost most, the sheep, the transformer, and the spades that
    /// catch the pig (the cards ScrofaZero's statistics single out, §6.1-6.2).
    fn key_cards(&self, _table: &Table) -> Vec<Card> {
        vec![
            PIG,
            DECK.card(ACE, HEARTS),
            DECK.card(KING, HEARTS),
            SHEEP,
            TRANSFORMER,
            DECK.card(ACE, SPADES),
            DECK.card(KING, SPADES),
            DECK.card(QUEEN, HEARTS),
        ]
    }

    fn points(&self, _table: &Table, public: &PublicPlay) -> Scores {
        let mut out = [0.0; MAX_PLAYERS];
        for (seat, points) in out.iter_mut().enumerate().take(PLAYERS) {
            *points = points_of(public.taken[seat]) as f64;
        }
        out
    }

    /// The seat's team's points minus the other team's.
    fn returns(&self, table: &Table, public: &PublicPlay) -> Scores {
        let points = self.points(table, public);
        let team = [points[0] + points[2], points[1] + points[3]];
        let mut out = [0.0; MAX_PLAYERS];
        for (seat, r) in out.iter_mut().enumerate().take(PLAYERS) {
            *r = team[seat % 2] - team[1 - seat % 2];
        }
        out
    }
}

/// A Gongzhu game from the first card dealt to the last trick; `apply_action` validates.
#[derive(Clone, Debug)]
pub struct GongzhuState {
    dealt: Hand,
    hands: [Hand; MAX_PLAYERS],
    num_dealt: usize,
    table: Option<TableState>,
    history: Vec<Action>,
}

impl Default for GongzhuState {
    fn default() -> Self {
        Self::new()
    }
}

impl GongzhuState {
    /// Before the deal: the next 52 actions are chance's.
    pub fn new() -> Self {
        GongzhuState {
            dealt: 0,
            hands: [0; MAX_PLAYERS],
            num_dealt: 0,
            table: None,
            history: Vec::new(),
        }
    }

    /// The state reached by applying `actions` from the start.
    pub fn from_actions(actions: &[Action]) -> Result<Self, TtcgError> {
        let mut state = Self::new();
        for (i, &a) in actions.iter().enumerate() {
            state.apply_action(a).map_err(|e| {
                TtcgError::InvalidInput(format!("action {i} of the history ({a}): {e}"))
            })?;
        }
        Ok(state)
    }

    /// The state as bytes: its history ([`super::encoding`]).
    pub fn to_bytes(&self) -> Vec<u8> {
        Writer::new(b"FSGZ").actions(&self.history)
    }

    /// Inverse of [`Self::to_bytes`]; the history is replayed.
    pub fn from_bytes(bytes: &[u8]) -> Result<Self, TtcgError> {
        Self::from_actions(&Reader::new(bytes, b"FSGZ", "Gongzhu state")?.actions()?)
    }

    /// The chance actions that deal `hands` (13 cards per seat, every card once): round-robin
    /// from seat 0, each hand in ascending order.
    pub fn deal_actions(hands: &[Hand]) -> Result<Vec<Action>, TtcgError> {
        if hands.len() != PLAYERS {
            return invalid(format!("a Gongzhu deal has 4 hands, got {}", hands.len()));
        }
        let mut all = 0u64;
        for (seat, &h) in hands.iter().enumerate() {
            if h.count_ones() as usize != TRICKS || h & !DECK.all() != 0 {
                return invalid(format!(
                    "hand {seat} must hold 13 of the 52 cards, got {} cards",
                    h.count_ones()
                ));
            }
            if all & h != 0 {
                return invalid(format!("hand {seat} repeats a card of an earlier hand"));
            }
            all |= h;
        }
        let sorted: Vec<Vec<Card>> = hands.iter().map(|&h| cards_of(h).collect()).collect();
        Ok((0..TRICKS)
            .flat_map(|i| sorted.iter().map(move |h| h[i] as Action))
            .collect())
    }

    pub fn history(&self) -> &[Action] {
        &self.history
    }

    pub fn table_state(&self) -> Option<&TableState> {
        self.table.as_ref()
    }

    /// The plays so far (the history after the 52 dealing actions).
    pub fn public_actions(&self) -> &[Action] {
        &self.history[52.min(self.history.len())..]
    }

    /// Every play so far with the seat that made it, in order.
    pub fn plays(&self) -> Vec<(usize, Card)> {
        let Some(now) = &self.table else {
            return Vec::new();
        };
        let mut state = TableState::new(&Gongzhu, now.table, &self.hands);
        self.public_actions()
            .iter()
            .map(|&a| {
                let seat = state.to_act();
                state.apply(a);
                (seat, a as Card)
            })
            .collect()
    }

    /// Each seat's dealt hand.
    pub fn dealt_hands(&self) -> &[Hand] {
        &self.hands[..PLAYERS]
    }

    pub fn is_chance_node(&self) -> bool {
        self.table.is_none()
    }

    pub fn is_terminal(&self) -> bool {
        self.table.is_some_and(|t| t.is_over())
    }

    /// The seat to act (None at chance nodes and at the end).
    pub fn current_player(&self) -> Option<usize> {
        self.table.filter(|t| !t.is_over()).map(|t| t.to_act())
    }

    pub fn legal_actions(&self) -> Vec<Action> {
        match &self.table {
            Some(t) => t.legal_action_vec(&Gongzhu),
            None => cards_of(DECK.all() & !self.dealt)
                .map(|c| c as Action)
                .collect(),
        }
    }

    pub fn apply_action(&mut self, action: Action) -> Result<(), TtcgError> {
        match &mut self.table {
            Some(t) => {
                if !t.is_legal(&Gongzhu, action) {
                    return invalid(format!(
                        "action {action} is not legal (legal: {:?})",
                        t.legal_action_vec(&Gongzhu)
                    ));
                }
                t.apply(action);
            }
            None => {
                if action >= 52 || self.dealt >> action & 1 == 1 {
                    return invalid(format!("chance action {action} is not a card left to deal"));
                }
                self.dealt |= 1u64 << action;
                self.hands[self.num_dealt % PLAYERS] |= 1u64 << action;
                self.num_dealt += 1;
                if self.num_dealt == 52 {
                    self.table = Some(TableState::new(&Gongzhu, TABLE, &self.hands));
                }
            }
        }
        self.history.push(action);
        Ok(())
    }

    /// Each seat's own points so far (final once the game is over).
    pub fn points(&self) -> Vec<f64> {
        match &self.table {
            Some(t) => t.points(&Gongzhu)[..PLAYERS].to_vec(),
            None => vec![0.0; PLAYERS],
        }
    }

    /// Each seat's return: its team's points minus the other team's (zero before the end).
    pub fn returns(&self) -> Vec<f64> {
        match &self.table {
            Some(t) if t.is_over() => t.returns(&Gongzhu)[..PLAYERS].to_vec(),
            _ => vec![0.0; PLAYERS],
        }
    }
}

/// What [`check_random_games`] found.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct RandomPlayReport {
    pub games: u64,
    /// The first few broken invariants, described.
    pub violations: Vec<String>,
    pub violation_count: u64,
    /// How often each scoring situation arose, so a caller can see every rule was exercised.
    pub all_hearts: u64,
    pub transformer_alone: u64,
    pub transformer_doubling: u64,
    pub pig_and_sheep_together: u64,
}

/// The most games one [`check_random_games`] call plays (minutes of work; the call stops on
/// Ctrl-C before that).
pub const MAX_CHECK_GAMES: u64 = 100_000_000;

/// Plays `games` Gongzhu games with uniformly random legal plays (game `i` from stream `i` of
/// `seed`) and checks, after every game: 13 tricks were played and 52 cards, each taken exactly
/// once; each seat took 4 cards a trick it won; every play followed suit when the hand could;
/// each seat's points are those of the cards it took; returns are team points minus the other
/// team's, partners equal, summing to zero.
pub fn check_random_games(
    games: u64,
    seed: u64,
    stop: &crate::stop::Stop,
) -> Result<RandomPlayReport, TtcgError> {
    use crate::rng::Rng;
    if games > MAX_CHECK_GAMES {
        return Err(TtcgError::TooLarge(format!(
            "games = {games} is too many: at most {MAX_CHECK_GAMES} random games per check"
        )));
    }
    let mut report = RandomPlayReport::default();
    let mut legal = [0 as Action; super::play::MAX_LEGAL];
    for g in 0..games {
        if g % 1024 == 0 && stop.requested() {
            return Err(TtcgError::Interrupted);
        }
        let mut rng = Rng::stream(seed, g);
        let mut cards: Vec<Card> = (0..52).collect();
        rng.shuffle(&mut cards);
        let mut hands = [0u64; PLAYERS];
        for (i, &c) in cards.iter().enumerate() {
            hands[i % PLAYERS] |= 1 << c;
        }
        let mut t = TableState::new(&Gongzhu, TABLE, &hands);
        let mut problems = Vec::new();
        while !t.is_over() {
            let seat = t.to_act();
            let n = t.legal_actions(&Gongzhu, &mut legal);
            let card = legal[rng.below(n as u64) as usize] as Card;
            if let Some(lead) = t.public.lead() {
                let has_suit = t.hands[seat] & DECK.suit_mask(DECK.suit_of(lead)) != 0;
                if has_suit && DECK.suit_of(card) != DECK.suit_of(lead) {
                    problems.push(format!("seat {seat} did not follow suit with {card}"));
                }
            }
            t.apply(card as Action);
        }
        let p = &t.public;
        let taken: Hand = p.taken[..PLAYERS].iter().fold(0, |a, &b| {
            if a & b != 0 {
                problems.push("a card was taken twice".into());
            }
            a | b
        });
        if taken != DECK.all() || p.played != DECK.all() || p.tricks_done as usize != TRICKS {
            problems.push("not every card was played and taken in 13 tricks".into());
        }
        let points = t.points(&Gongzhu);
        let returns = t.returns(&Gongzhu);
        for seat in 0..PLAYERS {
            if p.taken[seat].count_ones() != 4 * p.tricks_won[seat] as u32 {
                problems.push(format!("seat {seat} took cards of tricks it did not win"));
            }
            if points[seat] != points_of(p.taken[seat]) as f64 {
                problems.push(format!("seat {seat}'s points are not those of its cards"));
            }
            let team = points[seat % 2] + points[seat % 2 + 2];
            let other = points[1 - seat % 2] + points[3 - seat % 2];
            if returns[seat] != team - other {
                problems.push(format!("seat {seat}'s return is not its team's difference"));
            }
            let taken = p.taken[seat];
            if taken & ALL_HEARTS == ALL_HEARTS {
                report.all_hearts += 1;
            }
            if taken >> TRANSFORMER & 1 == 1 {
                if taken & SCORING_CARDS == 1 << TRANSFORMER {
                    report.transformer_alone += 1;
                } else {
                    report.transformer_doubling += 1;
                }
            }
            if taken >> PIG & 1 == 1 && taken >> SHEEP & 1 == 1 {
                report.pig_and_sheep_together += 1;
            }
        }
        if returns[..PLAYERS].iter().sum::<f64>() != 0.0 {
            problems.push("returns do not sum to zero".into());
        }
        report.games += 1;
        report.violation_count += problems.len() as u64;
        for problem in problems {
            if report.violations.len() < 10 {
                report.violations.push(format!("game {g}: {problem}"));
            }
        }
    }
    Ok(report)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rng::Rng;

    fn hand(cards: &[Card]) -> Hand {
        cards.iter().fold(0, |h, &c| h | 1 << c)
    }

    fn c(rank: usize, suit: usize) -> Card {
        DECK.card(rank, suit)
    }

    #[test]
    fn every_scoring_rule_on_hand_made_piles() {
        // Hearts by Table 1: A -50, K -40, Q -30, J -20, 5..10 -10, 2..4 nothing.
        assert_eq!(points_of(hand(&[c(ACE, HEARTS)])), -50);
        assert_eq!(points_of(hand(&[c(KING, HEARTS), c(QUEEN, HEARTS)])), -70);
        assert_eq!(points_of(hand(&[c(JACK, HEARTS), c(3, HEARTS)])), -30); // HJ + H5
        assert_eq!(
            points_of(hand(&[c(0, HEARTS), c(1, HEARTS), c(2, HEARTS)])),
            0
        );
        assert_eq!(points_of(hand(&[c(TEN, HEARTS), c(4, HEARTS)])), -20); // H10 + H6
        assert_eq!((0..13).map(heart_points).sum::<i32>(), -200);
        // Pig and sheep; other cards score nothing.
        assert_eq!(points_of(hand(&[PIG])), -100);
        assert_eq!(points_of(hand(&[SHEEP])), 100);
        assert_eq!(points_of(hand(&[c(ACE, SPADES), c(KING, SPADES)])), 0);
        assert_eq!(points_of(hand(&[PIG, SHEEP, c(ACE, HEARTS)])), -50);
        // The transformer alone: +50; with anything that scores, doubling.
        assert_eq!(points_of(hand(&[TRANSFORMER, c(ACE, CLUBS)])), 50);
        assert_eq!(points_of(hand(&[TRANSFORMER, PIG])), -200);
        assert_eq!(points_of(hand(&[TRANSFORMER, SHEEP])), 200);
        assert_eq!(points_of(hand(&[TRANSFORMER, SHEEP, c(ACE, HEARTS)])), 100);
        // A zero-point heart is a scoring card: the transformer doubles nothing, not +50.
        assert_eq!(points_of(hand(&[TRANSFORMER, c(0, HEARTS)])), 0);
        // All thirteen hearts count +200 instead of -200, with the pig, the sheep, the transformer.
        assert_eq!(points_of(ALL_HEARTS), 200);
        assert_eq!(points_of(ALL_HEARTS | 1 << PIG), 100);
        assert_eq!(points_of(ALL_HEARTS | 1 << TRANSFORMER), 400);
        assert_eq!(points_of(ALL_HEARTS & !(1 << c(0, HEARTS))), -200);
        assert_eq!(ALL_HEARTS.count_ones(), 13);
        assert_eq!(DECK.suit_mask(HEARTS), ALL_HEARTS);
    }

    #[test]
    fn follow_suit_trick_winner_and_team_returns_on_a_hand_made_deal() {
        // A balanced deal: seat s holds every card of rank r with (r + suit) % 4 == s.
        let mut hands = [0u64; 4];
        for suit in 0..4 {
            for rank in 0..13 {
                hands[(rank + suit) % 4] |= 1 << c(rank, suit);
            }
        }
        let actions = GongzhuState::deal_actions(&hands).unwrap();
        let mut s = GongzhuState::from_actions(&actions).unwrap();
        assert!(!s.is_chance_node());
        assert_eq!(s.current_player(), Some(0));
        // Seat 0 leads the two of clubs (rank 0, suit 0: (0+0)%4 == 0).
        assert!(s.legal_actions().contains(&(c(0, CLUBS) as Action)));
        s.apply_action(c(0, CLUBS) as Action).unwrap();
        // Seat 1 must follow clubs: its clubs are ranks 1, 5, 9.
        assert_eq!(
            s.legal_actions(),
            vec![
                c(1, CLUBS) as Action,
                c(5, CLUBS) as Action,
                c(9, CLUBS) as Action
            ]
        );
        assert!(s.apply_action(c(0, DIAMONDS) as Action).is_err());
        s.apply_action(c(9, CLUBS) as Action).unwrap(); // CJ
        s.apply_action(c(2, CLUBS) as Action).unwrap();
        s.apply_action(c(3, CLUBS) as Action).unwrap();
        // Seat 1 took the trick and leads.
        assert_eq!(s.current_player(), Some(1));
        assert_eq!(s.table_state().unwrap().public.taken[1].count_ones(), 4);
    }

    #[test]
    fn random_games_keep_the_invariants() {
        // The >= 100,000-game run is tests/test_ttcg_gongzhu.py (through Python, in Rust loops);
        // this is the same check at a unit test's size.
        let mut rng = Rng::new(5);
        for _ in 0..2_000 {
            let mut s = GongzhuState::new();
            while !s.is_terminal() {
                let legal = s.legal_actions();
                s.apply_action(legal[rng.below(legal.len() as u64) as usize])
                    .unwrap();
            }
            let t = s.table_state().unwrap();
            let taken: Hand = t.public.taken[..4].iter().fold(0, |a, &b| {
                assert_eq!(a & b, 0);
                a | b
            });
            assert_eq!(taken, DECK.all());
            let points = s.points();
            let returns = s.returns();
            assert_eq!(returns.iter().sum::<f64>(), 0.0);
            assert_eq!(returns[0], points[0] + points[2] - points[1] - points[3]);
            assert_eq!(
                t.public.tricks_won[..4]
                    .iter()
                    .map(|&w| w as usize)
                    .sum::<usize>(),
                13
            );
        }
    }
}
