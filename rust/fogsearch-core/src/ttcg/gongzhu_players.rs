//! Rule-based Gongzhu players, written from the ScrofaZero paper's descriptions (§5.1, §8.2,
//! Table 4) without its code: Mr. Random plays a uniformly random legal card; Mr. If follows a
//! few dozen rules of human experience; Mr. Greed scores every legal card by the trick it leads to
//! (a one-trick look-ahead over the unseen cards, by counting) and by the value of the cards it
//! keeps (Table 4: SA −50, SK −30 while the pig is out, ...), and plays the best.
//!
//! Greed's scores double as a model of how people play: [`GreedPolicy`] is a softmax over them
//! (the reach model of the Gibbs sampler), and [`IecWeight`] is the paper's IEC correction
//! factor γ = exp(−β (q_max − q_a)) on the important history slices (§5.4, §8.12).
//!
//! Every function sees only what its seat knows: its own hand and [`PublicPlay`].

use super::cards::{cards_of, Card, Hand};
use super::error::TtcgError;
use super::game::{Action, Table};
use super::gongzhu::{
    card_points, points_of, ACE, ALL_HEARTS, CLUBS, DECK, DIAMONDS, HEARTS as HEARTS_SUIT, JACK,
    KING, PIG, PLAYERS, QUEEN, SHEEP, SPADES, TRANSFORMER,
};
use super::play::{PublicPlay, TableState};
use super::policy::{check_beta, InfoStateView, Policy};
use crate::rng::Rng;

/// What a seat knows when it plays: its seat, its cards, and public play.
#[derive(Clone, Copy, Debug)]
pub struct SeatView<'a> {
    pub seat: usize,
    pub hand: Hand,
    pub table: &'a Table,
    pub public: &'a PublicPlay,
}

impl<'a> SeatView<'a> {
    /// What `seat` knows at `state`'s table.
    pub fn at(state: &'a TableState, seat: usize) -> Self {
        SeatView {
            seat,
            hand: state.hands[seat],
            table: &state.table,
            public: &state.public,
        }
    }

    fn legal(&self) -> Hand {
        DECK.legal_plays(self.hand, self.public.lead())
    }

    /// Cards neither in this hand nor played: what the other three hold.
    fn unseen(&self) -> Hand {
        DECK.all() & !self.hand & !self.public.played
    }

    fn is_played(&self, card: Card) -> bool {
        self.public.played >> card & 1 == 1
    }

    fn holds(&self, card: Card) -> bool {
        self.hand >> card & 1 == 1
    }

    fn same_team(&self, seat: usize) -> bool {
        seat % 2 == self.seat % 2
    }
}

fn rank(card: Card) -> usize {
    DECK.rank_of(card)
}

fn suit(card: Card) -> usize {
    DECK.suit_of(card)
}

fn card(rank: usize, suit: usize) -> Card {
    DECK.card(rank, suit)
}

/// `cards` without the pig, unless the pig is all there is.
fn without_pig(cards: Hand) -> Hand {
    if cards & !(1 << PIG) != 0 {
        cards & !(1 << PIG)
    } else {
        cards
    }
}

fn lowest(cards: Hand) -> Card {
    // Lowest rank first; within a rank, the lowest id.
    cards_of(cards)
        .min_by_key(|&c| (rank(c), c))
        .expect("non-empty")
}

fn highest(cards: Hand) -> Card {
    cards_of(cards)
        .max_by_key(|&c| (rank(c), c))
        .expect("non-empty")
}

/// The cards of `cards` that rank below `winner` in its suit.
fn below(cards: Hand, winner: Card) -> Hand {
    cards_of(cards & DECK.suit_mask(suit(winner)))
        .filter(|&c| rank(c) < rank(winner))
        .fold(0, |h, c| h | 1 << c)
}

fn above(cards: Hand, winner: Card) -> Hand {
    cards_of(cards & DECK.suit_mask(suit(winner)))
        .filter(|&c| rank(c) > rank(winner))
        .fold(0, |h, c| h | 1 << c)
}

/// The first of `preferences` that holds a card (the last, the legal cards, always does).
fn first_held(preferences: &[Hand]) -> Hand {
    let last = *preferences.last().expect("a preference");
    preferences
        .iter()
        .copied()
        .find(|&h| h != 0)
        .unwrap_or(last)
}

/// The suit of `choices` in which `counted` holds the fewest cards (the first such).
fn shortest_suit(choices: Hand, counted: Hand) -> usize {
    (0..4)
        .filter(|&s| choices & DECK.suit_mask(s) != 0)
        .min_by_key(|&s| (counted & DECK.suit_mask(s)).count_ones())
        .expect("a legal card")
}

/// Mr. Random: a uniformly random legal action.
pub fn mr_random(legal: &[Action], rng: &mut Rng) -> Action {
    legal[rng.below(legal.len() as u64) as usize]
}

/// Mr. If: rules of thumb, in the order a player asks them (17 rules in 30 `if`s here; the paper's
/// Mr. If has 33).
pub fn mr_if(v: &SeatView<'_>) -> Card {
    let legal = v.legal();
    if legal.count_ones() == 1 {
        return legal.trailing_zeros() as Card;
    }
    if v.public.trick_len == 0 {
        return if_lead(v, legal);
    }
    let trick = TrickSoFar::of(v);
    if legal & DECK.suit_mask(trick.led) != 0 {
        if_follow(v, legal, &trick)
    } else {
        if_discard(v, legal, &trick)
    }
}

/// The trick Mr. If answers, as its rules read it.
struct TrickSoFar<'a> {
    cards: &'a [Card],
    led: usize,
    winner_seat: usize,
    /// The card winning the trick so far.
    winning: Card,
    partner_wins: bool,
    /// Whether this seat plays the trick's last card.
    last: bool,
    points: i32,
}

impl<'a> TrickSoFar<'a> {
    fn of(v: &SeatView<'a>) -> Self {
        let trick = v.public.trick();
        let winner_seat = v
            .public
            .winning_seat(&DECK, v.table)
            .expect("a trick in progress");
        TrickSoFar {
            cards: trick,
            led: suit(trick[0]),
            winner_seat,
            winning: trick[DECK.trick_winner(trick, None)],
            partner_wins: v.same_team(winner_seat),
            last: trick.len() == PLAYERS - 1,
            points: trick.iter().map(|&c| card_points(c)).sum(),
        }
    }
}

/// Mr. If following suit (rules 1 to 8).
fn if_follow(v: &SeatView<'_>, legal: Hand, t: &TrickSoFar<'_>) -> Card {
    let (trick, led, winning, partner_wins, last) =
        (t.cards, t.led, t.winning, t.partner_wins, t.last);
    let trick_points = t.points;
    // 1. The pig goes under an opponent's ace or king of spades.
    if led == SPADES && v.holds(PIG) && !partner_wins && rank(winning) > QUEEN {
        return PIG;
    }
    // 2. The sheep goes to a partner who is winning the diamonds above it, when nobody is left.
    if led == DIAMONDS && v.holds(SHEEP) && partner_wins && last && rank(winning) > JACK {
        return SHEEP;
    }
    // 3. The sheep on the table is worth winning, with the lowest card that does.
    if trick.contains(&SHEEP) && !partner_wins && above(legal, winning) != 0 {
        return lowest(above(legal, winning));
    }
    let under = below(legal, winning) & !(1 << PIG);
    // 4. Under a partner who is winning, shed the highest card that stays under.
    if partner_wins {
        if under != 0 {
            return highest(under);
        }
        return lowest(without_pig(legal));
    }
    if last {
        // 5. A trick that costs points is ducked if possible, else won with the highest card.
        if trick_points < 0 || trick.contains(&TRANSFORMER) {
            if under != 0 {
                return highest(under);
            }
            return highest(without_pig(legal));
        }
        // 6. A harmless trick is taken with the highest card (it sheds a dangerous one), but
        //    not with the pig.
        let over = above(legal, winning) & !(1 << PIG);
        if over != 0 {
            return highest(over);
        }
        return lowest(legal);
    }
    // 7. Not last: duck under the winning card with the highest card that does.
    if under != 0 {
        return highest(under);
    }
    // 8. Forced to go over: the lowest card, so a later player may still take the trick; the
    //    ace and king of spades go before the pig does.
    let over = legal & !(1 << PIG);
    if over != 0 {
        return lowest(over);
    }
    PIG
}

/// Mr. If void in the led suit: a discard (rules 9 to 14).
fn if_discard(v: &SeatView<'_>, legal: Hand, t: &TrickSoFar<'_>) -> Card {
    let (winner_seat, partner_wins) = (t.winner_seat, t.partner_wins);
    let pig_out = !v.is_played(PIG);
    // 9. The pig onto an opponent's trick.
    if v.holds(PIG) && !partner_wins {
        return PIG;
    }
    // 10. The sheep onto a partner's trick.
    if v.holds(SHEEP) && partner_wins {
        return SHEEP;
    }
    // 11. The transformer onto an opponent who has taken points: it doubles them.
    if v.holds(TRANSFORMER) && !partner_wins && points_of(v.public.taken[winner_seat]) < 0 {
        return TRANSFORMER;
    }
    let hearts = legal & ALL_HEARTS;
    // 12. The highest heart onto an opponent's trick.
    if hearts != 0 && !partner_wins {
        return highest(hearts);
    }
    // 13. The cards that would catch the pig, while it is out.
    for danger in [card(ACE, SPADES), card(KING, SPADES)] {
        if pig_out && v.holds(danger) {
            return danger;
        }
    }
    // 14. Otherwise the highest card of the shortest suit that is not hearts and not a gift (the
    //     sheep to an opponent, the transformer anywhere).
    let keep = 1u64 << SHEEP | 1u64 << TRANSFORMER | 1u64 << PIG;
    let choices = first_held(&[legal & !keep & !ALL_HEARTS, legal & !keep, legal]);
    let shortest = shortest_suit(choices, v.hand);
    highest(choices & DECK.suit_mask(shortest))
}

fn if_lead(v: &SeatView<'_>, legal: Hand) -> Card {
    let pig_out = !v.is_played(PIG);
    let spades = legal & DECK.suit_mask(SPADES);
    // 15. Hunting the pig: without it, lead a spade below the queen while it is out.
    if pig_out && !v.holds(PIG) {
        let low = below(spades, PIG);
        if low != 0 {
            return lowest(low);
        }
    }
    // 16. Never lead the suit of the pig while holding it, nor hearts, nor spades while holding
    //     the ace or king of spades with the pig out (they would catch it), while another suit is
    //     left: lead the lowest card of the shortest other suit (to make a void for discards).
    let mut avoid = ALL_HEARTS;
    if v.holds(PIG) {
        avoid |= DECK.suit_mask(SPADES);
    }
    if pig_out && (v.holds(card(ACE, SPADES)) || v.holds(card(KING, SPADES))) {
        avoid |= DECK.suit_mask(SPADES);
    }
    let choices = first_held(&[legal & !avoid, legal & !ALL_HEARTS, legal]);
    let shortest = shortest_suit(choices, choices);
    // 17. Within it the lowest card, but not the transformer or the sheep if another is left.
    let suit_cards = choices & DECK.suit_mask(shortest);
    let safe = suit_cards & !(1u64 << TRANSFORMER | 1u64 << SHEEP);
    lowest(if safe != 0 { safe } else { suit_cards })
}

/// What a card left in hand is worth to its holder (Table 4, Mr. Greed's column): the high
/// spades catch the pig, the high clubs the transformer, the high diamonds the sheep, each only
/// while that card is out. Holding the pig itself is a liability of its own.
pub fn holding_value(card_id: Card, public: &PublicPlay) -> f64 {
    let out = |c: Card| public.played >> c & 1 == 0;
    match (suit(card_id), rank(card_id)) {
        (SPADES, ACE) if out(PIG) => -50.0,
        (SPADES, KING) if out(PIG) => -30.0,
        (SPADES, QUEEN) => -30.0,
        (CLUBS, ACE) if out(TRANSFORMER) => -20.0,
        (CLUBS, KING) if out(TRANSFORMER) => -15.0,
        (CLUBS, QUEEN) if out(TRANSFORMER) => -10.0,
        (CLUBS, JACK) if out(TRANSFORMER) => -5.0,
        (DIAMONDS, ACE) if out(SHEEP) => 30.0,
        (DIAMONDS, KING) if out(SHEEP) => 20.0,
        (DIAMONDS, QUEEN) if out(SHEEP) => 10.0,
        _ => 0.0,
    }
}

/// The change in `seat`'s points if it takes `cards` now (exact, the transformer and all-hearts
/// rules included, given what it has taken so far).
fn marginal_points(public: &PublicPlay, seat: usize, cards: Hand) -> f64 {
    (points_of(public.taken[seat] | cards) - points_of(public.taken[seat])) as f64
}

/// Mr. Greed's score of every legal card, in ascending card order: the expected change in its
/// team's points minus the other team's from the trick the card leads to, plus (weighted by
/// [`HOLDING_WEIGHT`]) the holding values it gives up. `out` receives `(card, score)`; returns how many.
pub fn greed_scores(v: &SeatView<'_>, out: &mut [(Card, f64); 13]) -> usize {
    let legal = v.legal();
    let mut n = 0;
    for c in cards_of(legal) {
        out[n] = (
            c,
            trick_expectation(v, c) - HOLDING_WEIGHT * holding_value(c, v.public),
        );
        n += 1;
    }
    n
}

/// The expected team-relative value of the trick after playing `c`, by counting over the unseen
/// cards (partial backward induction on the trick): who would win it as it stands; what each later
/// seat adds (an opponent of the winner throws the pig or its worst heart when void, or drops them
/// under the winning card when following; a partner of the winner gives it the sheep); and the
/// chance that a later opponent holds a higher card and takes over a trick worth having.
fn trick_expectation(v: &SeatView<'_>, c: Card) -> f64 {
    let public = v.public;
    let mut cards = [0 as Card; PLAYERS];
    let before = public.trick();
    cards[..before.len()].copy_from_slice(before);
    cards[before.len()] = c;
    let trick = &cards[..=before.len()];
    let pile: Hand = trick.iter().fold(0, |h, &x| h | 1 << x);
    let leader = public.leader as usize;
    let winner_index = DECK.trick_winner(trick, None);
    let winner = (leader + winner_index) % PLAYERS;
    let winning = trick[winner_index];
    let sign = if v.same_team(winner) { 1.0 } else { -1.0 };
    let now = marginal_points(public, winner, pile);
    let later = trick.len()..PLAYERS;
    if later.is_empty() {
        return sign * now;
    }
    let led = suit(trick[0]);
    let unseen = v.unseen();
    // The chance a later seat holds a given unseen card: one over the seats that may hold it.
    let may_hold = |seat: usize, card: Card| -> f64 {
        if unseen >> card & 1 == 0 || public.is_void(seat, suit(card)) {
            return 0.0;
        }
        let holders = (0..PLAYERS)
            .filter(|&s| s != v.seat && !public.is_void(s, suit(card)))
            .count();
        1.0 / holders as f64
    };
    let heart_below = |limit: Option<Card>| -> Option<Card> {
        cards_of(unseen & ALL_HEARTS)
            .filter(|&h| limit.is_none_or(|l| rank(h) < rank(l)))
            .max_by_key(|&h| rank(h))
    };
    let mut extra = 0.0;
    let mut takers = Vec::new();
    for i in later {
        let seat = (leader + i) % PLAYERS;
        let opponent = seat % 2 != winner % 2;
        if public.is_void(seat, led) {
            if opponent {
                extra += may_hold(seat, PIG) * -100.0;
                if let Some(h) = heart_below(None) {
                    extra += may_hold(seat, h) * card_points(h) as f64;
                }
            } else {
                extra += may_hold(seat, SHEEP) * 100.0;
            }
            continue;
        }
        if opponent {
            if led == SPADES && rank(winning) > QUEEN {
                extra += may_hold(seat, PIG) * -100.0;
            }
            if led == HEARTS_SUIT {
                if let Some(h) = heart_below(Some(winning)) {
                    extra += may_hold(seat, h) * card_points(h) as f64;
                }
            }
            if above(unseen, winning) != 0 {
                takers.push(seat);
            }
        } else if led == DIAMONDS && rank(winning) > JACK {
            extra += may_hold(seat, SHEEP) * 100.0;
        }
    }
    let value = now + extra;
    // Nobody takes over a trick that costs points; an opponent with a higher card takes over one
    // worth having, with the chance it holds one.
    let p_over = if value <= 0.0 || takers.is_empty() {
        0.0
    } else {
        let higher = above(unseen, winning).count_ones() as i32;
        let holders = (0..PLAYERS)
            .filter(|&s| s != v.seat && !public.is_void(s, led))
            .count()
            .max(1);
        let share = takers.len() as f64 / holders as f64;
        1.0 - (1.0 - share).powi(higher)
    };
    (1.0 - p_over) * sign * value - p_over * sign * value
}

/// Mr. Greed: the legal card of the best score. Scores within [`GREED_MARGIN`] points of the best
/// are a tie, settled by Mr. If's rules when they pick one of the tied cards (the strategy the
/// one-trick count cannot see: hunting the pig, making voids), else by the lower card.
pub fn mr_greed(v: &SeatView<'_>) -> Card {
    let mut scores = [(0 as Card, 0.0); 13];
    let n = greed_scores(v, &mut scores);
    let top = scores[..n]
        .iter()
        .map(|s| s.1)
        .fold(f64::NEG_INFINITY, f64::max);
    let tied = |c: Card| {
        scores[..n]
            .iter()
            .any(|&(d, s)| d == c && s >= top - GREED_MARGIN)
    };
    let rule = mr_if(v);
    if tied(rule) {
        return rule;
    }
    let mut best = scores[0];
    for &(c, s) in &scores[1..n] {
        if s > best.1 + 1e-9 || ((s - best.1).abs() <= 1e-9 && rank(c) < rank(best.0)) {
            best = (c, s);
        }
    }
    best.0
}

/// Points within which Greed's scores count as equal. Measured over 1,000 duplicate deals against
/// Mr. If (bench/NOTEBOOK.md): settling exact ties by If's rules lifts Greed from +15 to +50;
/// widening the margin to 5 or 15 points lowers it again.
pub const GREED_MARGIN: f64 = 1.0;

/// How much of Table 4's holding values Greed counts next to its trick count: half measured about
/// 10 points better against Mr. If than all of it (and all of it 30 better than none) on 2 x 1,000
/// duplicate deals (bench/NOTEBOOK.md).
pub const HOLDING_WEIGHT: f64 = 0.5;

/// The acting seat's view inside a reach computation.
fn seat_view<'a>(info: &InfoStateView<'a>) -> SeatView<'a> {
    SeatView {
        seat: info.player,
        hand: info.current_hand,
        table: info.table,
        public: info.public,
    }
}

/// Greed's scores at `info`, by legal-action index. A sampler asks for the same information
/// states over and over (every deal of a chain replays the same public history), so the scores
/// are kept in a small table per thread keyed by the information state; a kept value is the
/// computed one, so the table changes speed only.
fn scores_at(info: &InfoStateView<'_>, out: &mut [f64; 13]) -> usize {
    score_cache::get_or_insert(info.key(), out, |out| {
        let mut scores = [(0 as Card, 0.0); 13];
        let n = greed_scores(&seat_view(info), &mut scores);
        debug_assert_eq!(n, info.legal_actions.len());
        for (slot, &(_, s)) in out.iter_mut().zip(&scores[..n]) {
            *slot = s;
        }
        n
    })
}

mod score_cache {
    use std::cell::RefCell;

    const SLOTS: usize = 1 << 12;

    #[derive(Clone, Copy)]
    struct Entry {
        key: u64,
        len: u8,
        scores: [f64; 13],
    }

    thread_local! {
        static ENTRIES: RefCell<Vec<Entry>> = RefCell::new(vec![
            Entry { key: 0, len: u8::MAX, scores: [0.0; 13] };
            SLOTS
        ]);
    }

    /// `key` identifies the information state (seat, dealt hand, public history), which fixes
    /// the hand and so the legal cards and their scores.
    pub(super) fn get_or_insert(
        key: u64,
        out: &mut [f64; 13],
        compute: impl FnOnce(&mut [f64; 13]) -> usize,
    ) -> usize {
        ENTRIES.with(|entries| {
            let mut entries = entries.borrow_mut();
            let slot = &mut entries[(key as usize) & (SLOTS - 1)];
            if slot.len == u8::MAX || slot.key != key {
                let n = compute(&mut slot.scores);
                slot.key = key;
                slot.len = n as u8;
            }
            out.copy_from_slice(&slot.scores);
            slot.len as usize
        })
    }
}

/// People modelled as softmax players over Mr. Greed's scores: π(a | I) ∝ exp(β q_a). β is in
/// inverse points; the ScrofaZero paper reads its network's correction factors at β = 0.015.
#[derive(Clone, Copy, Debug)]
pub struct GreedPolicy {
    pub beta: f64,
}

impl GreedPolicy {
    /// The softmax over Greed's scores with inverse temperature `beta` (finite, ≥ 0).
    pub fn new(beta: f64) -> Result<Self, TtcgError> {
        Ok(GreedPolicy {
            beta: check_beta(beta)?,
        })
    }
}

impl Policy for GreedPolicy {
    fn action_probability(&self, info: &InfoStateView<'_>, index: usize) -> f64 {
        if info.legal_actions.len() == 1 {
            return 1.0;
        }
        let mut q = [0.0; 13];
        let n = scores_at(info, &mut q);
        let max = q[..n].iter().cloned().fold(f64::NEG_INFINITY, f64::max);
        let z: f64 = q[..n].iter().map(|&x| (self.beta * (x - max)).exp()).sum();
        (self.beta * (q[index] - max)).exp() / z
    }
}

/// The IEC correction factor (§5.4, Algorithm 1) as a per-decision weight: γ = exp(−β (q_max −
/// q_a)) with Greed's scores as q, on the important history slices only (a card of rank eight or
/// higher, §8.12), 1 elsewhere. Unnormalised on purpose, as IEC's score is: the log reach of a
/// deal under this "policy" is log s(c) of Algorithm 1.
#[derive(Clone, Copy, Debug)]
pub struct IecWeight {
    pub beta: f64,
}

impl IecWeight {
    /// IEC's correction factor with inverse temperature `beta` (finite, ≥ 0).
    pub fn new(beta: f64) -> Result<Self, TtcgError> {
        Ok(IecWeight {
            beta: check_beta(beta)?,
        })
    }
}

/// §8.12: "only history slices with the card played greater than 7".
pub const IEC_MIN_RANK: usize = 6;

impl Policy for IecWeight {
    fn action_probability(&self, info: &InfoStateView<'_>, index: usize) -> f64 {
        let played = info.legal_actions[index] as Card;
        if info.legal_actions.len() == 1 || rank(played) < IEC_MIN_RANK {
            return 1.0;
        }
        let mut q = [0.0; 13];
        let n = scores_at(info, &mut q);
        let max = q[..n].iter().cloned().fold(f64::NEG_INFINITY, f64::max);
        (-self.beta * (max - q[index])).exp()
    }
}

#[cfg(test)]
mod tests {
    use super::super::gongzhu::HEARTS;
    use super::super::gongzhu::{Gongzhu, TABLE};
    use super::*;

    fn hand(cards: &[Card]) -> Hand {
        cards.iter().fold(0, |h, &c| h | 1 << c)
    }

    /// A table where seat 0 leads `lead_cards[0]`, the next seats follow with the rest.
    fn table_after(hands: [Hand; 4], plays: &[Card]) -> TableState {
        let mut t = TableState::new(&Gongzhu, TABLE, &hands);
        for &c in plays {
            t.apply(c as Action);
        }
        t
    }

    fn deal_around(fixed: &[(usize, &[Card])]) -> [Hand; 4] {
        let mut hands = [0u64; 4];
        let mut used = 0u64;
        for &(s, cards) in fixed {
            hands[s] = hand(cards);
            used |= hands[s];
        }
        let mut free = cards_of(DECK.all() & !used);
        for h in hands.iter_mut() {
            while h.count_ones() < 13 {
                *h |= 1 << free.next().unwrap();
            }
        }
        hands
    }

    #[test]
    fn mr_if_drops_the_pig_under_an_opponents_ace_of_spades() {
        let sa = card(ACE, SPADES);
        let hands = deal_around(&[(0, &[sa]), (1, &[PIG, card(2, SPADES)])]);
        let t = table_after(hands, &[sa]);
        let v = SeatView::at(&t, 1);
        assert_eq!(mr_if(&v), PIG);
        assert_eq!(mr_greed(&v), PIG);
    }

    #[test]
    fn greed_ducks_a_heart_trick_it_would_otherwise_take() {
        // Seat 0 leads the king of hearts; seat 1 holds the ace and the two of hearts: playing
        // the ace takes -90 points, the two lets seat 0 keep them.
        let hk = card(KING, HEARTS);
        let (ha, h2) = (card(ACE, HEARTS), card(0, HEARTS));
        let hands = deal_around(&[(0, &[hk]), (1, &[ha, h2])]);
        let t = table_after(hands, &[hk]);
        let v = SeatView::at(&t, 1);
        let mut scores = [(0, 0.0); 13];
        let n = greed_scores(&v, &mut scores);
        let of = |c: Card| scores[..n].iter().find(|s| s.0 == c).unwrap().1;
        assert!(of(h2) > of(ha), "{:?}", &scores[..n]);
        // Greed ducks, and throws the most costly heart it can under the king onto seat 0.
        let choice = mr_greed(&v);
        let ducks = below(t.hands[1] & ALL_HEARTS, hk);
        assert!(ducks >> choice & 1 == 1, "{choice}");
        assert_eq!(
            card_points(choice),
            cards_of(ducks).map(card_points).min().unwrap()
        );
        assert!(ducks >> mr_if(&v) & 1 == 1);
    }

    #[test]
    fn the_greed_policy_is_a_distribution_and_iec_weights_skip_low_cards() {
        let hands = deal_around(&[]);
        let t = table_after(hands, &[]);
        let legal: Vec<Action> = t.legal_action_vec(&Gongzhu);
        let info = InfoStateView {
            player: 0,
            dealt_hand: t.hands[0],
            current_hand: t.hands[0],
            table: &t.table,
            public: &t.public,
            public_actions: &[],
            public_key: 1,
            legal_actions: &legal,
        };
        let p = GreedPolicy { beta: 0.015 };
        let total: f64 = (0..legal.len())
            .map(|i| p.action_probability(&info, i))
            .sum();
        assert!((total - 1.0).abs() < 1e-12);
        let w = IecWeight { beta: 0.015 };
        for (i, &a) in legal.iter().enumerate() {
            let g = w.action_probability(&info, i);
            assert!(g > 0.0 && g <= 1.0);
            if rank(a as Card) < IEC_MIN_RANK {
                assert_eq!(g, 1.0);
            }
        }
    }
}
