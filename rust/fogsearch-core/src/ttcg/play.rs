//! Play at a table once the cards are dealt: one round of bids if the game has them, then tricks,
//! following suit, the winner of each trick leading the next. The state is a small `Copy` value
//! (hands are bit masks), so searches clone it freely.

use super::cards::{cards_of, Card, Deck, Hand};
use super::game::{Action, PlayRules, Scores, Table, TrickGame, MAX_PLAYERS, NO_BID};
pub use super::game::{Phase, PublicPlay};

/// A deal in play with every hand known: what a perfect-information search searches, and what a
/// game engine keeps.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct TableState {
    pub table: Table,
    pub deck: Deck,
    /// The cards each seat still holds.
    pub hands: [Hand; MAX_PLAYERS],
    pub public: PublicPlay,
    /// What the game adds to following suit (see [`PlayRules`]).
    pub rules: PlayRules,
}

/// Enough room for every legal action: at most 52 cards, or at most 52 bids.
pub const MAX_LEGAL: usize = 64;

impl TableState {
    /// Play about to start with `hands` dealt (one per seat, `table.num_tricks` cards each); the
    /// seat left of the dealer acts first.
    pub fn new(game: &dyn TrickGame, table: Table, hands: &[Hand]) -> Self {
        let players = game.num_players();
        let mut all = [0; MAX_PLAYERS];
        all[..players].copy_from_slice(&hands[..players]);
        let first = table.first_seat(players) as u8;
        TableState {
            table,
            deck: game.deck(),
            hands: all,
            rules: game.play_rules(),
            public: PublicPlay {
                phase: if game.has_bidding() {
                    Phase::Bid
                } else {
                    Phase::Play
                },
                players: players as u8,
                to_act: first,
                bids: [NO_BID; MAX_PLAYERS],
                num_bids: 0,
                trick: [0; MAX_PLAYERS],
                trick_len: 0,
                leader: first,
                played: 0,
                taken: [0; MAX_PLAYERS],
                tricks_won: [0; MAX_PLAYERS],
                tricks_done: 0,
                voids: [0; MAX_PLAYERS],
            },
        }
    }

    #[inline]
    pub fn players(&self) -> usize {
        self.public.players as usize
    }

    #[inline]
    pub fn to_act(&self) -> usize {
        self.public.to_act as usize
    }

    #[inline]
    pub fn phase(&self) -> Phase {
        self.public.phase
    }

    #[inline]
    pub fn is_over(&self) -> bool {
        self.public.phase == Phase::Over
    }

    /// The cards the seat to act may play (0 outside the play phase).
    #[inline]
    pub fn legal_plays(&self) -> Hand {
        if self.public.phase != Phase::Play {
            return 0;
        }
        let hand = self.hands[self.to_act()];
        let follow = self.deck.legal_plays(hand, self.public.lead());
        if self.rules == PlayRules::default() {
            return follow;
        }
        let in_led_suit = match self.public.lead() {
            Some(lead) => hand & self.deck.suit_mask(self.deck.suit_of(lead)),
            None => 0,
        };
        self.rules.restrict(hand, in_led_suit, &self.public)
    }

    /// Writes the legal actions, ascending, into `out`; returns how many.
    pub fn legal_actions(&self, game: &dyn TrickGame, out: &mut [Action; MAX_LEGAL]) -> usize {
        let mut n = 0;
        match self.public.phase {
            Phase::Play => {
                for c in cards_of(self.legal_plays()) {
                    out[n] = c as Action;
                    n += 1;
                }
            }
            Phase::Bid => {
                let bids = game.legal_bids(&self.table, &self.public, self.to_act());
                let base = self.deck.num_cards() as Action;
                for b in cards_of(bids) {
                    out[n] = base + b as Action;
                    n += 1;
                }
            }
            Phase::Over => {}
        }
        n
    }

    /// The legal actions as a vector (for callers off the hot path).
    pub fn legal_action_vec(&self, game: &dyn TrickGame) -> Vec<Action> {
        let mut buffer = [0; MAX_LEGAL];
        let n = self.legal_actions(game, &mut buffer);
        buffer[..n].to_vec()
    }

    /// Whether `action` is legal now.
    pub fn is_legal(&self, game: &dyn TrickGame, action: Action) -> bool {
        match self.public.phase {
            Phase::Play => (action as usize) < 64 && self.legal_plays() >> action & 1 == 1,
            Phase::Bid => {
                let base = self.deck.num_cards() as Action;
                action >= base
                    && action - base < 64
                    && game.legal_bids(&self.table, &self.public, self.to_act()) >> (action - base)
                        & 1
                        == 1
            }
            Phase::Over => false,
        }
    }

    /// Applies a legal action (the caller checks legality: see [`Self::is_legal`]).
    pub fn apply(&mut self, action: Action) {
        let players = self.players();
        let p = &mut self.public;
        match p.phase {
            Phase::Bid => {
                let seat = p.to_act as usize;
                p.bids[seat] = (action as usize - self.deck.num_cards()) as u8;
                p.num_bids += 1;
                p.to_act = ((seat + 1) % players) as u8;
                if p.num_bids as usize == players {
                    p.phase = Phase::Play;
                }
            }
            Phase::Play => self.play(action as Card),
            Phase::Over => debug_assert!(false, "no action is legal once play is over"),
        }
    }

    fn play(&mut self, card: Card) {
        let players = self.players();
        let seat = self.to_act();
        self.hands[seat] &= !(1u64 << card);
        let p = &mut self.public;
        p.played |= 1u64 << card;
        if p.trick_len == 0 {
            p.leader = seat as u8;
        } else {
            let led = self.deck.suit_of(p.trick[0]);
            if self.deck.suit_of(card) != led {
                p.voids[seat] |= 1 << led;
            }
        }
        p.trick[p.trick_len as usize] = card;
        p.trick_len += 1;
        if p.trick_len as usize == players {
            let w = self
                .deck
                .trick_winner(&p.trick[..players], self.table.trump_suit(&self.deck));
            let winner = (p.leader as usize + w) % players;
            p.tricks_won[winner] += 1;
            for &c in &p.trick[..players] {
                p.taken[winner] |= 1u64 << c;
            }
            p.trick_len = 0;
            p.leader = winner as u8;
            p.to_act = winner as u8;
            p.tricks_done += 1;
            if p.tricks_done as usize == self.table.num_tricks {
                p.phase = Phase::Over;
            }
        } else {
            p.to_act = ((seat + 1) % players) as u8;
        }
    }

    /// Each seat's points (meaningful once play is over).
    pub fn points(&self, game: &dyn TrickGame) -> Scores {
        game.points(&self.table, &self.public)
    }

    /// Each seat's return (meaningful once play is over).
    pub fn returns(&self, game: &dyn TrickGame) -> Scores {
        game.returns(&self.table, &self.public)
    }
}
