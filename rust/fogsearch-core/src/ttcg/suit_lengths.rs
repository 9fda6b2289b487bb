//! Suit-length assignments: how many hidden cards of each suit every owner holds.
//!
//! A suit-length table is the matrix of §5.3 of the sampler paper, with one row per player plus a
//! row for the undealt pile (which may hold any suit) and one column per suit. Its row sums are the
//! owners' hidden-card counts, its column sums the hidden cards per suit, and void cells are zero.
//! A table stands for the product over suits of multinomial coefficients worth of assignments, a
//! number far beyond `u64` in a 52-card deck, so deal counts live in log space.

use std::fmt;

use super::constraints::{Card, DealConstraints, Owner};
use crate::rng::Rng;

/// Columns reserved per row in a packed table; Oh Hell has at most four suits.
pub const MAX_SUITS: usize = 4;
/// Rows a packed table can hold: seven players plus the undealt pile.
pub const MAX_OWNERS: usize = 8;
/// A cell holds at most this many cards (four bits).
pub const MAX_CELL: usize = 15;

/// Why a deal space could not be built, or why no deal fits it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum DealSpaceError {
    /// The constraints contradict themselves (wrong lengths, counts that do not add up).
    Malformed(String),
    /// The constraints are well formed but no assignment satisfies them.
    NoConsistentDeal(String),
}

impl fmt::Display for DealSpaceError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            DealSpaceError::Malformed(why) => write!(f, "malformed deal constraints: {why}"),
            DealSpaceError::NoConsistentDeal(why) => write!(f, "no deal is consistent: {why}"),
        }
    }
}

impl std::error::Error for DealSpaceError {}

/// A suit-length table packed four bits per cell into a `u128`, so that it is `Copy`, hashes in
/// one step and compares in one instruction (the Gibbs chain keys its neighbourhood cache on it).
/// Cell `(owner, suit)` lives at bit `4 * (owner * MAX_SUITS + suit)`.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct SuitLengths(pub u128);

impl SuitLengths {
    #[inline]
    fn shift(owner: usize, suit: usize) -> u32 {
        (4 * (owner * MAX_SUITS + suit)) as u32
    }

    #[inline]
    pub fn get(self, owner: usize, suit: usize) -> usize {
        ((self.0 >> Self::shift(owner, suit)) & 0xF) as usize
    }

    /// This table with one more card of `gain` and one fewer of `lose` in `owner`'s row: the swap
    /// `(owner; gain, lose)` of the paper. The caller guarantees the cell being decreased is positive.
    #[inline]
    pub fn swapped(self, owner: usize, gain: usize, lose: usize) -> Self {
        let up = 1u128 << Self::shift(owner, gain);
        let down = 1u128 << Self::shift(owner, lose);
        SuitLengths(self.0 + up - down)
    }

    #[inline]
    pub(crate) fn incremented(self, owner: usize, suit: usize) -> Self {
        SuitLengths(self.0 + (1u128 << Self::shift(owner, suit)))
    }

    /// The table as a dense `owners x suits` matrix.
    pub fn to_matrix(self, num_owners: usize, num_suits: usize) -> Vec<Vec<usize>> {
        (0..num_owners)
            .map(|o| (0..num_suits).map(|s| self.get(o, s)).collect())
            .collect()
    }
}

/// Everything the samplers need to know about a public or information state, precomputed once from
/// [`DealConstraints`]: the hidden cards per suit, the margins of every suit-length table, the
/// cells that voids close, and log-factorials for deal counts.
#[derive(Clone, Debug)]
pub struct DealSpace {
    pub num_players: usize,
    /// Rows of a table: the players, then the undealt pile.
    pub num_owners: usize,
    pub num_suits: usize,
    /// The assignment with every known card filled in; hidden cards hold the undealt code until a
    /// sampler overwrites them.
    known_assignment: Vec<Owner>,
    hidden_by_suit: Vec<Vec<Card>>,
    /// Column sums: hidden cards of each suit.
    pub suit_totals: Vec<usize>,
    /// Row sums: hidden cards each owner holds.
    pub owner_totals: Vec<usize>,
    /// `open[owner * MAX_SUITS + suit]`: the owner may hold hidden cards of the suit.
    open: [bool; MAX_OWNERS * MAX_SUITS],
    log_factorial: Vec<f64>,
}

impl DealSpace {
    /// Checks that the constraints are well formed and precomputes the tables' margins. Whether any
    /// deal satisfies them is a separate question (see [`DealSpace::tables`] and the max-flow
    /// construction).
    pub fn new(c: &DealConstraints) -> Result<Self, DealSpaceError> {
        let malformed = |why: String| Err(DealSpaceError::Malformed(why));
        if c.num_suits == 0 || c.num_suits > MAX_SUITS {
            return malformed(format!(
                "num_suits must be 1..={MAX_SUITS}, got {}",
                c.num_suits
            ));
        }
        if c.num_players == 0 || c.num_players + 1 > MAX_OWNERS {
            return malformed(format!(
                "num_players must be 1..={}, got {}",
                MAX_OWNERS - 1,
                c.num_players
            ));
        }
        if c.num_ranks == 0 || c.num_ranks > MAX_CELL {
            return malformed(format!(
                "num_ranks must be 1..={MAX_CELL}, got {}",
                c.num_ranks
            ));
        }
        let num_cards = c.num_cards();
        if c.known_owner.len() != num_cards {
            return malformed(format!(
                "known_owner has {} entries but the deck has {num_cards} cards",
                c.known_owner.len()
            ));
        }
        let num_owners = c.num_players + 1;
        if c.hidden_counts.len() != num_owners {
            return malformed(format!(
                "hidden_counts needs {num_owners} entries (players, then the undealt pile), got {}",
                c.hidden_counts.len()
            ));
        }
        if c.voids.len() != c.num_players || c.voids.iter().any(|row| row.len() != c.num_suits) {
            return malformed(format!(
                "voids must be {} rows of {} flags",
                c.num_players, c.num_suits
            ));
        }
        for (card, owner) in c.known_owner.iter().enumerate() {
            if let Some(o) = owner {
                if *o as usize > c.num_players + 1 {
                    return malformed(format!("card {card} has unknown owner code {o}"));
                }
            }
        }
        let mut hidden_by_suit = vec![Vec::new(); c.num_suits];
        for card in c.hidden_cards() {
            hidden_by_suit[c.suit_of(card)].push(card);
        }
        let num_hidden: usize = hidden_by_suit.iter().map(Vec::len).sum();
        let counted: usize = c.hidden_counts.iter().sum();
        if counted != num_hidden {
            return malformed(format!(
                "hidden_counts sum to {counted} but {num_hidden} cards are hidden"
            ));
        }
        let mut open = [false; MAX_OWNERS * MAX_SUITS];
        for owner in 0..num_owners {
            for suit in 0..c.num_suits {
                let void = owner < c.num_players && c.voids[owner][suit];
                open[owner * MAX_SUITS + suit] = !void;
            }
        }
        let known_assignment = c
            .known_owner
            .iter()
            .map(|o| o.unwrap_or(c.num_players as Owner))
            .collect();
        let mut log_factorial = vec![0.0; num_cards + 1];
        for n in 1..=num_cards {
            log_factorial[n] = log_factorial[n - 1] + (n as f64).ln();
        }
        Ok(DealSpace {
            num_players: c.num_players,
            num_owners,
            num_suits: c.num_suits,
            known_assignment,
            suit_totals: hidden_by_suit.iter().map(Vec::len).collect(),
            hidden_by_suit,
            owner_totals: c.hidden_counts.clone(),
            open,
            log_factorial,
        })
    }

    pub fn num_cards(&self) -> usize {
        self.known_assignment.len()
    }

    /// `ln(n!)` for `n` up to the deck's size.
    pub fn log_factorials(&self) -> &[f64] {
        &self.log_factorial
    }

    /// The owner may hold hidden cards of the suit (it has not shown a void in it).
    #[inline]
    pub fn is_open(&self, owner: usize, suit: usize) -> bool {
        self.open[owner * MAX_SUITS + suit]
    }

    pub fn hidden_cards_of_suit(&self, suit: usize) -> &[Card] {
        &self.hidden_by_suit[suit]
    }

    /// Log of the number of assignments the table stands for: the product over suits of the
    /// multinomial coefficient splitting that suit's hidden cards among the owners.
    pub fn log_deal_count(&self, table: SuitLengths) -> f64 {
        let mut total = 0.0;
        for suit in 0..self.num_suits {
            total += self.log_factorial[self.suit_totals[suit]];
            for owner in 0..self.num_owners {
                total -= self.log_factorial[table.get(owner, suit)];
            }
        }
        total
    }

    /// The table of an assignment, after checking that the assignment satisfies every constraint:
    /// known cards where they are known, hidden cards only with players or the undealt pile, no
    /// hidden card in a void suit, and every owner holding its count.
    pub fn table_of(&self, assignment: &[Owner]) -> Result<SuitLengths, String> {
        if assignment.len() != self.num_cards() {
            return Err(format!(
                "an assignment has {} entries but the deck has {} cards",
                assignment.len(),
                self.num_cards()
            ));
        }
        for suit in 0..self.num_suits {
            for &card in &self.hidden_by_suit[suit] {
                let owner = assignment[card as usize] as usize;
                if owner >= self.num_owners {
                    return Err(format!("hidden card {card} given to owner code {owner}"));
                }
            }
        }
        let mut table = SuitLengths::default();
        let mut held = vec![0usize; self.num_owners];
        let mut is_hidden = vec![false; self.num_cards()];
        for cards in &self.hidden_by_suit {
            for &card in cards {
                is_hidden[card as usize] = true;
            }
        }
        for (card, &owner) in assignment.iter().enumerate() {
            if !is_hidden[card] {
                if owner != self.known_assignment[card] {
                    return Err(format!(
                        "card {card} is known to belong to owner {} but the assignment gives it to {owner}",
                        self.known_assignment[card]
                    ));
                }
                continue;
            }
            let suit = card % self.num_suits;
            let owner = owner as usize;
            if !self.is_open(owner, suit) {
                return Err(format!(
                    "player {owner} is void in suit {suit} but holds hidden card {card}"
                ));
            }
            held[owner] += 1;
            if held[owner] > self.owner_totals[owner] {
                return Err(format!(
                    "owner {owner} holds more than its {} hidden cards",
                    self.owner_totals[owner]
                ));
            }
            table = table.incremented(owner, suit);
        }
        Ok(table)
    }

    /// Every suit-length table consistent with the margins and voids, in a fixed order. Their
    /// number grows quickly with the deck; this is for exact baselines on small and mid-sized states.
    pub fn tables(&self) -> Vec<SuitLengths> {
        let mut out = Vec::new();
        let mut room = self.owner_totals.clone();
        self.fill_suit(0, SuitLengths::default(), &mut room, &mut out);
        out
    }

    fn fill_suit(
        &self,
        suit: usize,
        table: SuitLengths,
        room: &mut [usize],
        out: &mut Vec<SuitLengths>,
    ) {
        if suit == self.num_suits {
            if room.iter().all(|&r| r == 0) {
                out.push(table);
            }
            return;
        }
        self.fill_cell(suit, 0, self.suit_totals[suit], table, room, out);
    }

    fn fill_cell(
        &self,
        suit: usize,
        owner: usize,
        left: usize,
        table: SuitLengths,
        room: &mut [usize],
        out: &mut Vec<SuitLengths>,
    ) {
        if owner == self.num_owners {
            if left == 0 {
                self.fill_suit(suit + 1, table, room, out);
            }
            return;
        }
        let most = if self.is_open(owner, suit) {
            left.min(room[owner])
        } else {
            0
        };
        let mut t = table;
        for take in 0..=most {
            room[owner] -= take;
            self.fill_cell(suit, owner + 1, left - take, t, room, out);
            room[owner] += take;
            t = t.incremented(owner, suit);
        }
    }

    /// Writes into `out` a uniformly random assignment with the given table: known cards as known,
    /// and each suit's hidden cards shuffled and dealt to the owners by the table's counts.
    /// `scratch` avoids an allocation per draw.
    pub fn deal_uniformly_within(
        &self,
        table: SuitLengths,
        rng: &mut Rng,
        scratch: &mut Vec<Card>,
        out: &mut [Owner],
    ) {
        out.copy_from_slice(&self.known_assignment);
        for suit in 0..self.num_suits {
            scratch.clear();
            scratch.extend_from_slice(&self.hidden_by_suit[suit]);
            // A partial Fisher-Yates: each prefix position gets a uniform card from the rest.
            let mut pos = 0;
            for owner in 0..self.num_owners {
                for _ in 0..table.get(owner, suit) {
                    let j = pos + rng.below((scratch.len() - pos) as u64) as usize;
                    scratch.swap(pos, j);
                    out[scratch[pos] as usize] = owner as Owner;
                    pos += 1;
                }
            }
        }
    }

    /// The table of an assignment already known to satisfy the constraints (a chain's own state):
    /// [`Self::table_of`] without the checks, for the hot path.
    pub fn table_of_consistent(&self, assignment: &[Owner]) -> SuitLengths {
        let mut table = SuitLengths::default();
        for (suit, cards) in self.hidden_by_suit.iter().enumerate() {
            for &card in cards {
                table = table.incremented(assignment[card as usize] as usize, suit);
            }
        }
        table
    }

    /// Every assignment with the given table (multinomially many), for exact checks on tiny states.
    pub fn assignments_within(&self, table: SuitLengths) -> Vec<Vec<Owner>> {
        let mut out = vec![self.known_assignment.clone()];
        for suit in 0..self.num_suits {
            let mut owners_in_order = Vec::new();
            for owner in 0..self.num_owners {
                owners_in_order.extend(std::iter::repeat_n(owner as Owner, table.get(owner, suit)));
            }
            let splits = distinct_permutations(&owners_in_order);
            let cards = &self.hidden_by_suit[suit];
            out = out
                .iter()
                .flat_map(|partial| {
                    splits.iter().map(move |split| {
                        let mut a = partial.clone();
                        for (card, owner) in cards.iter().zip(split) {
                            a[*card as usize] = *owner;
                        }
                        a
                    })
                })
                .collect();
        }
        out
    }

    /// Every consistent assignment, table by table (exact enumeration without reach weights).
    pub fn all_assignments(&self) -> Vec<Vec<Owner>> {
        self.tables()
            .into_iter()
            .flat_map(|t| self.assignments_within(t))
            .collect()
    }
}

/// The distinct orderings of a sorted multiset, in lexicographic order.
fn distinct_permutations(sorted: &[Owner]) -> Vec<Vec<Owner>> {
    let mut current = sorted.to_vec();
    let mut out = vec![current.clone()];
    loop {
        let Some(i) = (1..current.len())
            .rev()
            .find(|&i| current[i - 1] < current[i])
        else {
            return out;
        };
        let j = (i..current.len())
            .rev()
            .find(|&j| current[j] > current[i - 1])
            .unwrap();
        current.swap(i - 1, j);
        current[i..].reverse();
        out.push(current.clone());
    }
}

/// `log(sum(exp(x)))` without overflow.
pub fn log_sum_exp(xs: impl IntoIterator<Item = f64> + Clone) -> f64 {
    let max = xs.clone().into_iter().fold(f64::NEG_INFINITY, f64::max);
    if max == f64::NEG_INFINITY {
        return max;
    }
    max + xs.into_iter().map(|x| (x - max).exp()).sum::<f64>().ln()
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;

    /// A hand-made state: 3 players, `num_suits` x `num_ranks` deck, the first `known` cards known
    /// (dealt round-robin to players as if played), the rest hidden with the given counts.
    pub(crate) fn hand_made(
        num_suits: usize,
        num_ranks: usize,
        known: &[(Card, Owner)],
        hidden_counts: &[usize],
        voids: &[(usize, usize)],
    ) -> DealConstraints {
        let num_players = hidden_counts.len() - 1;
        let mut known_owner = vec![None; num_suits * num_ranks];
        for &(card, owner) in known {
            known_owner[card as usize] = Some(owner);
        }
        let mut void_flags = vec![vec![false; num_suits]; num_players];
        for &(p, s) in voids {
            void_flags[p][s] = true;
        }
        DealConstraints {
            num_players,
            num_suits,
            num_ranks,
            known_owner,
            hidden_counts: hidden_counts.to_vec(),
            voids: void_flags,
        }
    }

    /// Three suits of four ranks after the first trick and one more card (cards 0, 1, 2 and 4
    /// known), the other eight hidden with `hidden_counts` and `voids`: the small state most
    /// sampler tests share.
    pub(crate) fn three_by_four(
        hidden_counts: &[usize],
        voids: &[(usize, usize)],
    ) -> DealConstraints {
        hand_made(
            3,
            4,
            &[(0, 0), (1, 1), (2, 2), (4, 4)],
            hidden_counts,
            voids,
        )
    }

    /// Eight hidden cards in three suits, two per owner, player 0 void in suit 1.
    pub(crate) fn three_suits_with_a_void() -> DealConstraints {
        three_by_four(&[2, 2, 2, 2], &[(0, 1)])
    }

    /// Figure 3 of the paper: suits with 3, 1, 2 unknown cards, two players with 3 each, player
    /// 0 void in suit 2, player 1 void in suit 1 (no undealt pile here); its only table is
    /// [[2,1,0],[1,0,2]].
    pub(crate) fn figure_3() -> DealConstraints {
        let mut c = hand_made(3, 4, &[], &[3, 3, 0], &[(0, 2), (1, 1)]);
        // Keep 3, 1, 2 hidden cards of suits 0, 1, 2: mark the rest as played by player 0.
        let keep = [0u8, 3, 6, 1, 2, 5];
        for card in 0..12u8 {
            if !keep.contains(&card) {
                c.known_owner[card as usize] = Some(0);
            }
        }
        c
    }

    /// The paper's smallest public state: 3 players, 2 suits x 4 ranks, 2 tricks, after trick 1.
    /// Three cards were played, one is the trump card; four are hidden (one per hand plus one
    /// undealt), so there are 4! = 24 assignments, i.e. 192 OpenSpiel histories.
    pub(crate) fn paper_192() -> DealConstraints {
        hand_made(2, 4, &[(0, 0), (1, 1), (2, 2), (3, 4)], &[1, 1, 1, 1], &[])
    }

    #[test]
    fn paper_192_has_24_assignments_over_its_tables() {
        let space = DealSpace::new(&paper_192()).unwrap();
        let all = space.all_assignments();
        assert_eq!(all.len(), 24);
        let total: f64 = space
            .tables()
            .iter()
            .map(|&t| space.log_deal_count(t).exp())
            .sum();
        assert!((total - 24.0).abs() < 1e-9);
    }

    #[test]
    fn deal_counts_are_products_of_multinomials() {
        // 5 hidden cards of suit 0 split 3/2 and 2 of suit 1 split 1/1.
        let c = hand_made(2, 5, &[(1, 0), (3, 1), (5, 2)], &[4, 3, 0, 0], &[]);
        let space = DealSpace::new(&c).unwrap();
        assert_eq!(space.suit_totals, vec![5, 2]);
        let t = space
            .tables()
            .into_iter()
            .find(|t| t.to_matrix(4, 2) == vec![vec![3, 1], vec![2, 1], vec![0, 0], vec![0, 0]]);
        let t = t.expect("table exists");
        // 5!/(3!2!) * 2!/(1!1!) = 10 * 2.
        assert!((space.log_deal_count(t) - 20f64.ln()).abs() < 1e-12);
        assert_eq!(space.assignments_within(t).len(), 20);
    }

    #[test]
    fn tables_respect_margins_and_voids() {
        let c = three_by_four(&[3, 3, 1, 1], &[(0, 1), (1, 0)]);
        let space = DealSpace::new(&c).unwrap();
        let tables = space.tables();
        assert!(!tables.is_empty());
        for t in &tables {
            let m = t.to_matrix(4, 3);
            for (o, row) in m.iter().enumerate() {
                assert_eq!(row.iter().sum::<usize>(), space.owner_totals[o]);
            }
            for s in 0..3 {
                assert_eq!(m.iter().map(|r| r[s]).sum::<usize>(), space.suit_totals[s]);
            }
            assert_eq!(m[0][1], 0);
            assert_eq!(m[1][0], 0);
        }
        let by_tables: usize = tables
            .iter()
            .map(|&t| space.assignments_within(t).len())
            .sum();
        let all = space.all_assignments();
        assert_eq!(by_tables, all.len());
        for a in &all {
            assert!(space.table_of(a).is_ok());
        }
    }

    #[test]
    fn uniform_deal_within_a_table_hits_every_assignment_equally() {
        let space = DealSpace::new(&paper_192()).unwrap();
        let mut rng = Rng::new(5);
        let mut scratch = Vec::new();
        for table in space.tables() {
            let all = space.assignments_within(table);
            let mut counts = std::collections::HashMap::new();
            let mut out = vec![0; space.num_cards()];
            let n = 6000 * all.len();
            for _ in 0..n {
                space.deal_uniformly_within(table, &mut rng, &mut scratch, &mut out);
                assert_eq!(space.table_of(&out), Ok(table));
                *counts.entry(out.clone()).or_insert(0usize) += 1;
            }
            assert_eq!(counts.len(), all.len());
            for c in counts.values() {
                assert!((*c as f64 - 6000.0).abs() < 5.0 * 6000f64.sqrt(), "{c}");
            }
        }
    }

    #[test]
    fn malformed_constraints_are_explained() {
        let mut c = paper_192();
        c.hidden_counts = vec![1, 1, 1, 2];
        let err = DealSpace::new(&c).unwrap_err();
        assert!(
            err.to_string().contains("sum to 5 but 4 cards are hidden"),
            "{err}"
        );
    }
}
