//! RingSwap (Algorithm 1 of the sampler paper): the neighbours of a suit-length table.
//!
//! For every row `i` and pair of open suits `j != k` with `A[i][k] > 0`, the swap `(i; j, k)` gives
//! row `i` one more card of `j` and one fewer of `k`. Column `j` then holds one card too many and
//! column `k` one too few; a breadth of repair swaps in *other* rows moves the surplus along
//! `j -> l -> ... -> k` until the column sums are right again. Every valid table so reached is a
//! neighbour.
//!
//! Repairs visit each row at most once (the supplement's Theorem 3 shows longer ones add nothing)
//! and each column at most once. The second rule makes the relation symmetric: a ring that passed
//! the surplus back through `j` would close early when walked backwards, so `B` could be a
//! neighbour of `A` without `A` being one of `B`, and the Metropolis-Hastings correction, which
//! assumes symmetry, would be wrong. With both rules a neighbour is exactly `A + D` where `D` is a
//! simple alternating cycle in the (owner, suit) grid, and `-D` walks back. Such cycles still
//! connect every pair of tables: the difference of two tables decomposes into simple cycles.

use super::suit_lengths::{DealSpace, SuitLengths, MAX_OWNERS, MAX_SUITS};

/// The RingSwap neighbours of `table`, sorted (tests compare neighbour sets with it). The table itself is never among them (row `i`
/// always changes).
#[cfg(test)]
pub fn ring_swap_neighbours(space: &DealSpace, table: SuitLengths) -> Vec<SuitLengths> {
    let mut out = Vec::new();
    for_each_ring_swap_neighbour(space, table, |n, _| out.push(n));
    out.sort_unstable();
    out
}

/// Calls `visit(neighbour, count_ratio)` once for every RingSwap neighbour of `table`, where
/// `count_ratio` is the neighbour's deal count divided by the table's.
///
/// Every ring is started from its lowest row, with its repair in higher rows only. A neighbour is
/// `table + D` for one simple cycle `D` with a direction, and a cycle has one lowest row, so each
/// neighbour is visited exactly once; no set is needed. The count ratio is carried along the ring:
/// raising a cell from `a` to `a + 1` divides the multinomial by `a + 1`, lowering it from `a`
/// multiplies it by `a`, and a simple cycle touches each cell once.
pub fn for_each_ring_swap_neighbour(
    space: &DealSpace,
    table: SuitLengths,
    mut visit: impl FnMut(SuitLengths, f64),
) {
    for row in 0..space.num_owners {
        for lose in 0..space.num_suits {
            let have = table.get(row, lose);
            if have == 0 || !space.is_open(row, lose) {
                continue;
            }
            for gain in 0..space.num_suits {
                if gain == lose || !space.is_open(row, gain) {
                    continue;
                }
                let swapped = table.swapped(row, gain, lose);
                let ratio = have as f64 / (table.get(row, gain) + 1) as f64;
                let mut seen_suits = [false; MAX_SUITS];
                seen_suits[gain] = true;
                let ring = Ring {
                    space,
                    original: table,
                    deficit: lose,
                };
                let mut used_rows = [false; MAX_OWNERS];
                used_rows[..=row].fill(true);
                ring.repair(
                    swapped,
                    ratio,
                    gain,
                    &mut used_rows,
                    &mut seen_suits,
                    &mut visit,
                );
            }
        }
    }
}

struct Ring<'a> {
    space: &'a DealSpace,
    original: SuitLengths,
    /// The suit one card short since the first swap; reaching it closes the ring.
    deficit: usize,
}

impl Ring<'_> {
    /// Moves the card surplus of suit `surplus` into some unused row's open suit, closing the ring
    /// when that suit is the deficit, otherwise carrying the surplus on.
    fn repair(
        &self,
        table: SuitLengths,
        ratio: f64,
        surplus: usize,
        used_rows: &mut [bool; MAX_OWNERS],
        seen_suits: &mut [bool; MAX_SUITS],
        visit: &mut impl FnMut(SuitLengths, f64),
    ) {
        for row in 0..self.space.num_owners {
            // Unused rows are untouched, so their counts are the original table's.
            let have = self.original.get(row, surplus);
            if used_rows[row] || have == 0 {
                continue;
            }
            for next in 0..self.space.num_suits {
                if seen_suits[next] || !self.space.is_open(row, next) {
                    continue;
                }
                let repaired = table.swapped(row, next, surplus);
                let ratio = ratio * have as f64 / (self.original.get(row, next) + 1) as f64;
                if next == self.deficit {
                    visit(repaired, ratio);
                } else {
                    used_rows[row] = true;
                    seen_suits[next] = true;
                    self.repair(repaired, ratio, next, used_rows, seen_suits, visit);
                    used_rows[row] = false;
                    seen_suits[next] = false;
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::super::suit_lengths::tests::{
        figure_3, hand_made, paper_192, three_by_four, three_suits_with_a_void,
    };
    use super::*;

    fn is_valid(space: &DealSpace, t: SuitLengths) -> bool {
        space.tables().contains(&t)
    }

    #[test]
    fn figure_3_example_neighbours() {
        // Figure 3's only table has no neighbours.
        let space = DealSpace::new(&figure_3()).unwrap();
        assert_eq!(space.suit_totals, vec![3, 1, 2]);
        let tables = space.tables();
        assert_eq!(tables.len(), 1);
        assert_eq!(
            tables[0].to_matrix(3, 3),
            vec![vec![2, 1, 0], vec![1, 0, 2], vec![0, 0, 0]]
        );
        assert!(ring_swap_neighbours(&space, tables[0]).is_empty());
    }

    #[test]
    fn two_by_two_swaps_are_the_only_neighbours_of_a_two_suit_state() {
        let space = DealSpace::new(&paper_192()).unwrap();
        for t in space.tables() {
            for n in ring_swap_neighbours(&space, t) {
                let m = t.to_matrix(4, 2);
                let d = n.to_matrix(4, 2);
                let changed = (0..4).filter(|&o| m[o] != d[o]).count();
                assert_eq!(changed, 2, "a two-suit ring touches two rows");
            }
        }
    }

    #[test]
    fn neighbours_are_valid_distinct_and_symmetric() {
        let states = [
            paper_192(),
            three_by_four(&[2, 2, 2, 2], &[]),
            three_by_four(&[2, 2, 2, 2], &[(0, 1), (2, 0)]),
            hand_made(
                4,
                4,
                &[(0, 0), (1, 1), (2, 2), (3, 3), (5, 5)],
                &[3, 3, 3, 2, 0],
                &[(1, 3)],
            ),
        ];
        for c in &states {
            let space = DealSpace::new(c).unwrap();
            let tables = space.tables();
            for &t in &tables {
                let ns = ring_swap_neighbours(&space, t);
                assert!(!ns.contains(&t));
                assert!(
                    ns.windows(2).all(|w| w[0] != w[1]),
                    "a neighbour visited twice"
                );
                let mut ratios = Vec::new();
                for_each_ring_swap_neighbour(&space, t, |n, r| ratios.push((n, r)));
                for (n, r) in ratios {
                    let expected = (space.log_deal_count(n) - space.log_deal_count(t)).exp();
                    assert!((r - expected).abs() < 1e-12 * expected.max(1.0));
                }
                for &n in &ns {
                    assert!(is_valid(&space, n));
                    assert!(
                        ring_swap_neighbours(&space, n).contains(&t),
                        "{:?} -> {:?} has no way back",
                        t.to_matrix(space.num_owners, space.num_suits),
                        n.to_matrix(space.num_owners, space.num_suits)
                    );
                }
            }
        }
    }

    #[test]
    fn ring_swaps_connect_every_table() {
        let space = DealSpace::new(&three_suits_with_a_void()).unwrap();
        let tables = space.tables();
        let mut reached = vec![tables[0]];
        let mut frontier = vec![tables[0]];
        while let Some(t) = frontier.pop() {
            for n in ring_swap_neighbours(&space, t) {
                if !reached.contains(&n) {
                    reached.push(n);
                    frontier.push(n);
                }
            }
        }
        assert_eq!(reached.len(), tables.len());
    }
}
