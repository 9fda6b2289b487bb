//! Cards, decks and the two rules every trick-taking game shares: follow suit, and who wins a
//! trick.
//!
//! Cards are numbered as OpenSpiel numbers them: `rank * num_suits + suit`, ranks from the two
//! upwards, suits clubs, diamonds, spades, hearts. A hand is a 64-bit mask with bit `c` set when
//! it holds card `c`, so every deck up to 52 cards fits one word.

/// Card id: `rank * num_suits + suit`.
pub type Card = u8;
/// A set of cards: bit `c` set when card `c` is in it.
pub type Hand = u64;

pub const SUIT_NAMES: [char; 4] = ['C', 'D', 'S', 'H'];
pub const RANK_NAMES: [char; 13] = [
    '2', '3', '4', '5', '6', '7', '8', '9', 'T', 'J', 'Q', 'K', 'A',
];
pub const MAX_RANKS: usize = 13;

/// A deck of `num_suits` suits of `num_ranks` ranks each; rank 0 is the lowest.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Deck {
    pub num_suits: usize,
    pub num_ranks: usize,
    /// Each suit's cards, computed once: following suit is asked for at every play of every
    /// reach evaluation.
    suit_masks: [Hand; 4],
}

impl Deck {
    /// The 52-card deck.
    pub const STANDARD: Deck = Deck::new(4, 13);

    /// A deck of `num_suits` (at most 4) suits of `num_ranks` ranks.
    pub const fn new(num_suits: usize, num_ranks: usize) -> Deck {
        let mut suit_masks = [0u64; 4];
        let mut c = 0;
        while c < num_suits * num_ranks && num_suits <= 4 {
            suit_masks[c % num_suits] |= 1u64 << c;
            c += 1;
        }
        Deck {
            num_suits,
            num_ranks,
            suit_masks,
        }
    }

    pub fn num_cards(&self) -> usize {
        self.num_suits * self.num_ranks
    }

    #[inline]
    pub fn suit_of(&self, card: Card) -> usize {
        card as usize % self.num_suits
    }

    #[inline]
    pub fn rank_of(&self, card: Card) -> usize {
        card as usize / self.num_suits
    }

    #[inline]
    pub fn card(&self, rank: usize, suit: usize) -> Card {
        (rank * self.num_suits + suit) as Card
    }

    /// Every card of the deck.
    pub fn all(&self) -> Hand {
        if self.num_cards() == 64 {
            u64::MAX
        } else {
            (1u64 << self.num_cards()) - 1
        }
    }

    /// The cards of `suit`.
    #[inline]
    pub fn suit_mask(&self, suit: usize) -> Hand {
        self.suit_masks[suit]
    }

    /// The cards of `hand` a player may play when the trick was led with `lead` (None: the player
    /// leads): the cards of the led suit if the hand has any, else the whole hand.
    #[inline]
    pub fn legal_plays(&self, hand: Hand, lead: Option<Card>) -> Hand {
        match lead {
            Some(lead) => {
                let follow = hand & self.suit_mask(self.suit_of(lead));
                if follow != 0 {
                    follow
                } else {
                    hand
                }
            }
            None => hand,
        }
    }

    /// Which of a trick's cards wins: the highest card of the trump suit if any was played, else
    /// the highest card of the led suit. `cards[0]` is the lead; returns the index into `cards`.
    /// Within a suit a higher card has a higher id, so ids are compared directly.
    #[inline]
    pub fn trick_winner(&self, cards: &[Card], trump_suit: Option<usize>) -> usize {
        let led = self.suit_mask(self.suit_of(cards[0]));
        let trump = trump_suit.map_or(0, |t| self.suit_mask(t));
        let strength = |c: Card| {
            let bit = 1u64 << c;
            if trump & bit != 0 {
                512 + c as u32
            } else if led & bit != 0 {
                256 + c as u32
            } else {
                0
            }
        };
        let mut best = 0;
        let mut top = strength(cards[0]);
        for (i, &c) in cards.iter().enumerate().skip(1) {
            let s = strength(c);
            if s > top {
                best = i;
                top = s;
            }
        }
        best
    }

    /// A card's name for people, rank then suit ("AS", "TC"); a short deck is named as the top
    /// ranks of a standard one (a display convention only).
    pub fn name(&self, card: Card) -> String {
        let rank = MAX_RANKS - self.num_ranks + self.rank_of(card);
        format!("{}{}", RANK_NAMES[rank], SUIT_NAMES[self.suit_of(card)])
    }
}

/// Hands (masks) from lists of card ids of `deck`, refusing an id outside the deck or a card
/// listed twice within a hand (across hands, the game's deal checks).
pub fn hands_from_ids(deck: &Deck, hands: &[Vec<i64>]) -> Result<Vec<Hand>, super::TtcgError> {
    hands
        .iter()
        .map(|h| {
            h.iter().try_fold(0u64, |m, &c| {
                if !(0..deck.num_cards() as i64).contains(&c) || m >> c & 1 == 1 {
                    Err(super::TtcgError::InvalidInput(format!(
                        "card {c} is not a card of the deck, or is repeated"
                    )))
                } else {
                    Ok(m | 1 << c)
                }
            })
        })
        .collect()
}

/// The cards of a mask in ascending id order.
pub fn cards_of(mut hand: Hand) -> impl Iterator<Item = Card> {
    std::iter::from_fn(move || {
        if hand == 0 {
            return None;
        }
        let c = hand.trailing_zeros() as Card;
        hand &= hand - 1;
        Some(c)
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn cards_are_numbered_as_openspiel_numbers_them() {
        let d = Deck::STANDARD;
        assert_eq!(d.card(12, 2), 50); // the ace of spades
        assert_eq!(d.name(50), "AS");
        assert_eq!(d.name(0), "2C");
        assert_eq!(d.suit_mask(3).count_ones(), 13);
        assert_eq!(d.all().count_ones(), 52);
        // A short deck is named as the top ranks: 3 suits of 4 ranks are J, Q, K, A.
        let short = Deck::new(3, 4);
        assert_eq!(short.name(0), "JC");
        assert_eq!(short.name(11), "AS");
    }

    #[test]
    fn players_follow_suit_when_they_can() {
        let d = Deck::STANDARD;
        let hand = 1u64 << d.card(3, 0) | 1u64 << d.card(5, 1) | 1u64 << d.card(7, 1);
        let diamonds = 1u64 << d.card(5, 1) | 1u64 << d.card(7, 1);
        assert_eq!(d.legal_plays(hand, Some(d.card(0, 1))), diamonds);
        assert_eq!(d.legal_plays(hand, Some(d.card(0, 3))), hand);
        assert_eq!(d.legal_plays(hand, None), hand);
    }

    #[test]
    fn trumps_beat_the_led_suit_and_discards_never_win() {
        let d = Deck::STANDARD;
        let trick = [d.card(2, 0), d.card(12, 1), d.card(5, 0), d.card(0, 3)];
        assert_eq!(d.trick_winner(&trick, None), 2);
        assert_eq!(d.trick_winner(&trick, Some(3)), 3);
        assert_eq!(d.trick_winner(&trick, Some(1)), 1);
        assert_eq!(cards_of(0b1010_0001).collect::<Vec<_>>(), vec![0, 5, 7]);
    }
}
