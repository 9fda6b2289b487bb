//! The pair-block update: an optional second kernel for the TTCG Gibbs chain.
//!
//! Under a peaked joint policy the paper's RingSwap proposal (which re-deals every hidden card of a
//! neighbouring suit-length table) is rarely accepted: on the 544,320-history states at policy bias
//! 0.9 the chain moves on about 5 % of transitions and the deal value decorrelates over ~130 of them
//! (bench/RESULTS.md). The pair-block update changes few cards at a time but picks among them by
//! their reach, so it moves where the range is:
//!
//! 1. choose two owners (players or the undealt pile) holding hidden cards, uniformly;
//! 2. choose up to [`BLOCK_CARDS_PER_OWNER`] of each one's hidden cards, uniformly;
//! 3. the block is every way to split the chosen cards between the two owners with the same counts
//!    and no card in a suit its new owner is void in; move to another split `j` of the block with
//!    probability `w_j / max(W - w_i, W - w_j)` (`w` the splits' reach, `W` their sum, `i` the
//!    current split), which is Metropolised Gibbs: a proposal in proportion to reach among the other
//!    splits, accepted with probability `min{1, (W - w_i) / (W - w_j)}`.
//!
//! Step 1 and 2 do not depend on the split (each owner's count of hidden cards is fixed by the
//! observation), and the move probability is symmetric in `w_i w_j`, so the update is reversible
//! with respect to the reach. It cannot cross every constraint on its own (voids can make a
//! three-way exchange necessary), so the chain's `Pairs` kernel mixes it with RingSwap steps.

use super::constraints::{Card, Owner};
use super::suit_lengths::DealSpace;
use super::target::LogTarget;
use crate::rng::Rng;

/// Cards taken from each owner of the pair: a block has at most `C(6, 3) = 20` splits, so a step
/// costs at most 20 reach evaluations however large the hands are.
pub const BLOCK_CARDS_PER_OWNER: usize = 3;
const MAX_BLOCK: usize = 2 * BLOCK_CARDS_PER_OWNER;

/// The owners that can exchange cards and the hidden cards' suits, precomputed from a deal space.
#[derive(Clone, Debug)]
pub struct PairBlocks {
    pairs: Vec<(Owner, Owner)>,
    hidden: Vec<Card>,
    block_sizes: Vec<(usize, usize)>,
}

/// The cards of one block: `cards[..from_first]` were drawn from `first`'s hand, the rest from
/// `second`'s.
#[derive(Clone, Copy, Debug, Default)]
pub struct Block {
    pub first: Owner,
    pub second: Owner,
    pub cards: [Card; MAX_BLOCK],
    pub len: usize,
    pub from_first: usize,
}

impl Block {
    fn empty(first: Owner, second: Owner, from_first: usize) -> Self {
        Block {
            first,
            second,
            from_first,
            ..Block::default()
        }
    }

    fn push(&mut self, card: Card) {
        self.cards[self.len] = card;
        self.len += 1;
    }

    /// The split of the block's cards given by `mask` (bit `k`: card `k` goes to `first`) is
    /// allowed: it keeps `first`'s count and puts no card in a suit its owner is void in.
    fn allows(&self, space: &DealSpace, mask: u32) -> bool {
        if mask.count_ones() as usize != self.from_first {
            return false;
        }
        (0..self.len).all(|k| {
            let owner = if mask >> k & 1 == 1 {
                self.first
            } else {
                self.second
            };
            space.is_open(owner as usize, self.cards[k] as usize % space.num_suits)
        })
    }

    /// The split the assignment holds now.
    fn current_mask(&self, assignment: &[Owner]) -> u32 {
        (0..self.len)
            .filter(|&k| assignment[self.cards[k] as usize] == self.first)
            .fold(0, |m, k| m | 1 << k)
    }

    fn write(&self, mask: u32, assignment: &mut [Owner]) {
        for k in 0..self.len {
            assignment[self.cards[k] as usize] = if mask >> k & 1 == 1 {
                self.first
            } else {
                self.second
            };
        }
    }

    /// The allowed splits and their log reach, the current one included (its log reach is
    /// `log_target_now`, already known, so it is not evaluated again). Returns the current split's
    /// index in `out`, `None` if the assignment breaks the block's constraints.
    fn splits<T: LogTarget + ?Sized>(
        &self,
        space: &DealSpace,
        target: &T,
        assignment: &mut [Owner],
        log_target_now: f64,
        out: &mut Vec<(u32, f64)>,
    ) -> Option<usize> {
        out.clear();
        let original = self.current_mask(assignment);
        let mut current = None;
        for mask in 0..1u32 << self.len {
            if !self.allows(space, mask) {
                continue;
            }
            if mask == original {
                current = Some(out.len());
                out.push((mask, log_target_now));
            } else {
                self.write(mask, assignment);
                out.push((mask, target.log_weight(assignment)));
            }
        }
        self.write(original, assignment);
        current
    }
}

impl PairBlocks {
    pub fn new(space: &DealSpace) -> Self {
        let holders: Vec<Owner> = (0..space.num_owners)
            .filter(|&o| space.owner_totals[o] > 0)
            .map(|o| o as Owner)
            .collect();
        let mut pairs = Vec::new();
        for (i, &a) in holders.iter().enumerate() {
            for &b in &holders[i + 1..] {
                pairs.push((a, b));
            }
        }
        let block_sizes = pairs
            .iter()
            .map(|&(a, b)| {
                (
                    space.owner_totals[a as usize].min(BLOCK_CARDS_PER_OWNER),
                    space.owner_totals[b as usize].min(BLOCK_CARDS_PER_OWNER),
                )
            })
            .collect();
        let hidden = (0..space.num_suits)
            .flat_map(|s| space.hidden_cards_of_suit(s).iter().copied())
            .collect();
        PairBlocks {
            pairs,
            hidden,
            block_sizes,
        }
    }

    /// Fewer than two owners hold hidden cards: the deal is fully determined.
    pub fn is_empty(&self) -> bool {
        self.pairs.is_empty()
    }

    /// The hidden cards `owner` holds in `assignment`.
    fn held_by<'a>(
        &'a self,
        owner: Owner,
        assignment: &'a [Owner],
    ) -> impl Iterator<Item = Card> + 'a {
        self.hidden
            .iter()
            .copied()
            .filter(move |&c| assignment[c as usize] == owner)
    }

    /// Draws a pair and up to [`BLOCK_CARDS_PER_OWNER`] hidden cards of each (steps 1 and 2).
    fn draw(&self, assignment: &[Owner], rng: &mut Rng, scratch: &mut Vec<Card>) -> Block {
        let p = rng.below(self.pairs.len() as u64) as usize;
        let (first, second) = self.pairs[p];
        let (take_first, take_second) = self.block_sizes[p];
        let mut block = Block::empty(first, second, take_first);
        for (owner, take) in [(first, take_first), (second, take_second)] {
            scratch.clear();
            scratch.extend(self.held_by(owner, assignment));
            for k in 0..take {
                let j = k + rng.below((scratch.len() - k) as u64) as usize;
                scratch.swap(k, j);
                block.push(scratch[k]);
            }
        }
        block
    }

    /// Every block a step from `assignment` can draw, each with its probability.
    fn all_blocks(&self, assignment: &[Owner]) -> Vec<(Block, f64)> {
        let mut out = Vec::new();
        for (p, &(first, second)) in self.pairs.iter().enumerate() {
            let (take_first, take_second) = self.block_sizes[p];
            let held = |owner| self.held_by(owner, assignment).collect::<Vec<_>>();
            let subsets_first = subsets(&held(first), take_first);
            let subsets_second = subsets(&held(second), take_second);
            let each = 1.0 / (self.pairs.len() * subsets_first.len() * subsets_second.len()) as f64;
            for a in &subsets_first {
                for b in &subsets_second {
                    let mut block = Block::empty(first, second, take_first);
                    for &c in a.iter().chain(b) {
                        block.push(c);
                    }
                    out.push((block, each));
                }
            }
        }
        out
    }
}

/// The probability of moving from split `from` to each split of the block (Metropolised Gibbs on
/// the splits' reach), written as `(index, probability)` for every other split with a positive one.
fn move_probabilities(splits: &[(u32, f64)], from: usize, out: &mut Vec<(usize, f64)>) {
    out.clear();
    let top = splits
        .iter()
        .map(|&(_, l)| l)
        .fold(f64::NEG_INFINITY, f64::max);
    if top == f64::NEG_INFINITY {
        return;
    }
    let mut weights = [0.0; 1 << MAX_BLOCK];
    for (w, &(_, l)) in weights.iter_mut().zip(splits) {
        *w = (l - top).exp();
    }
    let weights = &weights[..splits.len()];
    // Sums of the other splits' weights, added up directly rather than as W - w_k, which cancels
    // when one split holds nearly all of the block's reach.
    let others = |k: usize| -> f64 {
        weights
            .iter()
            .enumerate()
            .filter(|&(m, _)| m != k)
            .map(|(_, w)| w)
            .sum()
    };
    let leave = others(from);
    if leave == 0.0 {
        return;
    }
    for (j, &w) in weights.iter().enumerate() {
        if j != from && w > 0.0 {
            out.push((j, w / leave.max(others(j))));
        }
    }
}

/// The reusable buffers of one chain's pair-block steps.
#[derive(Default)]
pub struct PairScratch {
    cards: Vec<Card>,
    splits: Vec<(u32, f64)>,
    moves: Vec<(usize, f64)>,
}

/// One pair-block update of `assignment` (whose log target is `log_target`) in place. Returns the
/// new log target when the assignment changed, `None` when it stayed.
pub fn pair_step<T: LogTarget + ?Sized>(
    blocks: &PairBlocks,
    space: &DealSpace,
    target: &T,
    assignment: &mut [Owner],
    log_target: f64,
    rng: &mut Rng,
    scratch: &mut PairScratch,
) -> Option<f64> {
    if blocks.is_empty() {
        return None;
    }
    let block = blocks.draw(assignment, rng, &mut scratch.cards);
    let from = block.splits(space, target, assignment, log_target, &mut scratch.splits)?;
    move_probabilities(&scratch.splits, from, &mut scratch.moves);
    let mut u = rng.next_f64();
    for &(j, p) in &scratch.moves {
        if u < p {
            let (mask, log_target) = scratch.splits[j];
            block.write(mask, assignment);
            return Some(log_target);
        }
        u -= p;
    }
    None
}

/// The exact transition probabilities of one pair-block step from `state` (the stay probability
/// included), for stationarity checks and exact mixing on small states.
pub fn exact_pair_transitions<T: LogTarget + ?Sized>(
    blocks: &PairBlocks,
    space: &DealSpace,
    target: &T,
    state: &[Owner],
) -> Vec<(Vec<Owner>, f64)> {
    let mut out = Vec::new();
    let mut leave = 0.0;
    let mut work = state.to_vec();
    let mut splits = Vec::new();
    let mut moves = Vec::new();
    let log_target = target.log_weight(state);
    for (block, chance) in blocks.all_blocks(state) {
        let Some(from) = block.splits(space, target, &mut work, log_target, &mut splits) else {
            continue;
        };
        move_probabilities(&splits, from, &mut moves);
        for &(j, p) in &moves {
            block.write(splits[j].0, &mut work);
            out.push((work.clone(), chance * p));
            leave += chance * p;
        }
        block.write(splits[from].0, &mut work);
    }
    out.push((state.to_vec(), 1.0 - leave));
    out
}

/// Every `k`-subset of `items`, in lexicographic order of positions.
fn subsets(items: &[Card], k: usize) -> Vec<Vec<Card>> {
    if k == 0 {
        return vec![Vec::new()];
    }
    let mut out = Vec::new();
    for (i, &first) in items.iter().enumerate() {
        for mut rest in subsets(&items[i + 1..], k - 1) {
            rest.insert(0, first);
            out.push(rest);
        }
    }
    out
}
