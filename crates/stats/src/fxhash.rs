//! A fast, non-cryptographic hasher (the multiply-rotate "Fx" hash of
//! rustc) for the enumeration's memo tables. Their keys are small vectors
//! and integers hashed thousands of times per file, where the standard
//! SipHash took a large share of the whole statistics' time. The tables are
//! bounded by the enumeration's [`Budget`](super::Budget), so crafted
//! collisions cannot make the work unbounded.

use std::collections::HashMap;
use std::hash::{BuildHasherDefault, Hasher};

const SEED: u64 = 0x51_7c_c1_b7_27_22_0a_95;

#[derive(Clone, Copy, Debug, Default)]
pub struct FxHasher {
    hash: u64,
}

impl FxHasher {
    #[inline]
    fn add(&mut self, word: u64) {
        self.hash = (self.hash.rotate_left(5) ^ word).wrapping_mul(SEED);
    }
}

impl Hasher for FxHasher {
    #[inline]
    fn write(&mut self, bytes: &[u8]) {
        let mut chunks = bytes.chunks_exact(8);
        for chunk in &mut chunks {
            let mut word = [0u8; 8];
            word.copy_from_slice(chunk);
            self.add(u64::from_le_bytes(word));
        }
        let rest = chunks.remainder();
        if !rest.is_empty() {
            let mut word = [0u8; 8];
            word[..rest.len()].copy_from_slice(rest);
            self.add(u64::from_le_bytes(word));
        }
    }

    #[inline]
    fn write_u8(&mut self, i: u8) {
        self.add(u64::from(i));
    }

    #[inline]
    fn write_u16(&mut self, i: u16) {
        self.add(u64::from(i));
    }

    #[inline]
    fn write_u32(&mut self, i: u32) {
        self.add(u64::from(i));
    }

    #[inline]
    fn write_u64(&mut self, i: u64) {
        self.add(i);
    }

    #[inline]
    fn write_usize(&mut self, i: usize) {
        self.add(i as u64);
    }

    /// The product's low bits depend only on the words' low bits, and the
    /// tables pick buckets by them: a key of one word whose low bits are
    /// all alike (a mask of levels from 5 up) would land in a few buckets.
    /// Turned so that the product's well-mixed high bits come low (as
    /// rustc-hash 2 does).
    #[inline]
    fn finish(&self) -> u64 {
        self.hash.rotate_left(26)
    }
}

pub type FxHashMap<K, V> = HashMap<K, V, BuildHasherDefault<FxHasher>>;

#[cfg(test)]
mod tests {
    use super::*;
    use std::hash::{BuildHasher, Hash};

    fn hash<T: Hash>(t: &T) -> u64 {
        BuildHasherDefault::<FxHasher>::default().hash_one(t)
    }

    #[test]
    fn equal_keys_hash_equal_and_different_keys_differ() {
        assert_eq!(hash(&vec![1u16, 2, 3]), hash(&vec![1u16, 2, 3]));
        assert_ne!(hash(&vec![1u16, 2, 3]), hash(&vec![1u16, 2, 4]));
        assert_ne!(hash(&vec![0i8; 9]), hash(&vec![0i8; 10]));
        let mut m: FxHashMap<Vec<i8>, u32> = FxHashMap::default();
        m.insert(vec![1, -1], 7);
        assert_eq!(m.get(&vec![1i8, -1]), Some(&7));
        assert_eq!(m.get(&vec![-1i8, 1]), None);
    }
}
