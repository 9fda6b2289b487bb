//! Key finalisation and set identifiers.

use crate::rng::splitmix64;

/// The finaliser every sketch applies to keys first: SplitMix64's mixer, a bijection of `u64`
/// with full avalanche. Zobrist keys are XOR-linear (the key of a position is the XOR of its
/// pieces' keys), so without it related positions would get related buckets and minima.
#[inline]
pub fn mix64(key: u64) -> u64 {
    splitmix64(key)
}

/// A seeded variant of [`mix64`]: a different bijection of `u64` for every seed.
#[inline]
pub(crate) fn seeded_mix64(key: u64, seed_salt: u64) -> u64 {
    mix64(key ^ seed_salt)
}

/// The salt a user seed turns into, so that seeds 0, 1, 2... give unrelated bijections.
#[inline]
pub(crate) fn seed_salt(seed: u64) -> u64 {
    splitmix64(seed ^ 0x5EED_5EED_5EED_5EED)
}

const SET_ID_SALT: u64 = 0x1D5E_7A11_0C4E_D00D;

/// An order-independent 64-bit identifier of a collection of keys.
///
/// The id is a finalised wrapping sum of `mix64(key ^ salt)` over the keys and of their count, so
/// equal collections get equal ids whatever the order. It is a *multiset* id: a key given twice
/// counts twice (`[a, a]` and `[a]` differ). Board sets hold each key once, which makes this a set
/// id for them without the cost of deduplicating; deduplicate first for set semantics otherwise.
/// Distinct collections collide with probability about 2^-64.
pub fn set_id(keys: &[u64]) -> u64 {
    let sum = keys
        .iter()
        .fold(0u64, |acc, &key| acc.wrapping_add(mix64(key ^ SET_ID_SALT)));
    mix64(sum ^ mix64(keys.len() as u64))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn mix64_is_a_bijection_on_a_sample_and_breaks_xor_linearity() {
        let (a, b) = (0x1234_5678_9ABC_DEF0u64, 0x0F0F_0F0F_0F0F_0F0Fu64);
        // XOR-linear keys: k(a^b) = k(a)^k(b); the finaliser must not preserve that.
        assert_ne!(mix64(a ^ b), mix64(a) ^ mix64(b));
        let mut seen: Vec<u64> = (0..10_000u64).map(mix64).collect();
        seen.sort_unstable();
        seen.dedup();
        assert_eq!(seen.len(), 10_000);
    }

    #[test]
    fn set_id_ignores_order_but_not_content_or_multiplicity() {
        let keys = [5u64, 17, 99, 1 << 40];
        let reversed = [1u64 << 40, 99, 17, 5];
        assert_eq!(set_id(&keys), set_id(&reversed));
        assert_ne!(set_id(&keys), set_id(&keys[..3]));
        assert_ne!(set_id(&[5, 5]), set_id(&[5]));
        assert_ne!(set_id(&[]), set_id(&[0]));
    }

    mod properties {
        use super::*;
        use proptest::prelude::*;

        proptest! {
            #![proptest_config(crate::sketch::proptest_config(512))]

            #[test]
            fn set_id_depends_on_the_multiset_only(
                keys in prop::collection::vec(any::<u64>(), 0..40), rotate: usize, extra: u64,
            ) {
                let mut moved = keys.clone();
                if !moved.is_empty() {
                    let by = rotate % moved.len();
                    moved.rotate_left(by);
                    moved.reverse();
                }
                prop_assert_eq!(set_id(&keys), set_id(&moved));
                moved.push(extra);
                prop_assert_ne!(set_id(&keys), set_id(&moved));
            }
        }
    }
}
