//! `--shard K/N`: one of N disjoint slices of a run's cases, chosen by a
//! hash of each case's name, so that N machines each running slice K of the
//! same case set share the cases out without talking to each other.
//!
//! The hash is 64-bit FNV-1a over the name's UTF-8 bytes, written here:
//! std's hasher is seeded randomly per process, and two machines must put
//! a case in the same slice. A case is in slice `floor(hash * N / 2^64) + 1`
//! (the hash's high bits). Names are the paths relative to the directory
//! searched, joined with `/` on every platform, so the slices agree across
//! systems too.

use std::fmt;

use serde::{Deserialize, Serialize};

/// Slice `index` (1-based) of `count`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Shard {
    pub index: u32,
    pub count: u32,
}

/// 64-bit FNV-1a.
pub fn fnv1a(bytes: &[u8]) -> u64 {
    const OFFSET: u64 = 0xcbf2_9ce4_8422_2325;
    const PRIME: u64 = 0x0000_0100_0000_01b3;
    bytes
        .iter()
        .fold(OFFSET, |h, &b| (h ^ b as u64).wrapping_mul(PRIME))
}

impl Shard {
    /// Parses `K/N` with 1 <= K <= N.
    pub fn parse(s: &str) -> Result<Shard, String> {
        let (k, n) = s
            .split_once('/')
            .ok_or_else(|| format!("`{s}` is not a shard: expected K/N, e.g. 2/4"))?;
        let num = |v: &str, what: &str| {
            v.trim()
                .parse::<u32>()
                .map_err(|_| format!("`{s}` is not a shard: {what} `{v}` is not a whole number"))
        };
        let (index, count) = (num(k, "K")?, num(n, "N")?);
        if count == 0 {
            return Err(format!("`{s}` is not a shard: N must be at least 1"));
        }
        if index == 0 || index > count {
            return Err(format!(
                "`{s}` is not a shard: K must be between 1 and N ({count})"
            ));
        }
        Ok(Shard { index, count })
    }

    /// The slice (1-based) a case of this name belongs to among `count`.
    pub fn slice_of(name: &str, count: u32) -> u32 {
        // The hash's high bits pick the slice (the hash scaled into
        // 0..count): FNV's low bits mix poorly (its last multiply by an
        // odd prime keeps the low bit of the last XOR), so `% 2` would
        // split by little more than the parity of the names' bytes.
        ((fnv1a(name.as_bytes()) as u128 * count.max(1) as u128) >> 64) as u32 + 1
    }

    pub fn contains(&self, name: &str) -> bool {
        Shard::slice_of(name, self.count) == self.index
    }
}

impl fmt::Display for Shard {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}/{}", self.index, self.count)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fnv1a_matches_the_published_vectors() {
        // The FNV reference test vectors for the 64-bit FNV-1a variant.
        assert_eq!(fnv1a(b""), 0xcbf2_9ce4_8422_2325);
        assert_eq!(fnv1a(b"a"), 0xaf63_dc4c_8601_ec8c);
        assert_eq!(fnv1a(b"foobar"), 0x8594_4171_f739_67e8);
    }

    #[test]
    fn slices_are_disjoint_and_cover_the_set() {
        let names: Vec<String> = (0..2000)
            .map(|i| format!("group{}/case_{i}", i % 7))
            .collect();
        for count in [1u32, 2, 3, 5, 8] {
            let mut seen = vec![0u32; names.len()];
            let mut sizes = Vec::new();
            for index in 1..=count {
                let shard = Shard { index, count };
                let mut size = 0;
                for (i, n) in names.iter().enumerate() {
                    if shard.contains(n) {
                        seen[i] += 1;
                        size += 1;
                    }
                }
                sizes.push(size);
            }
            // Every name in exactly one slice.
            assert!(seen.iter().all(|&s| s == 1), "count {count}");
            // And the slices share the work out: none is empty or holds
            // more than twice its share (a constant hash would fail this).
            let share = names.len() as u32 / count;
            assert!(
                sizes.iter().all(|&s| s > 0 && s < 2 * share + 1),
                "count {count}: {sizes:?}"
            );
        }
    }

    #[test]
    fn parse_takes_k_of_n_and_refuses_the_rest() {
        assert_eq!(Shard::parse("2/4"), Ok(Shard { index: 2, count: 4 }));
        assert_eq!(Shard::parse("1/1"), Ok(Shard { index: 1, count: 1 }));
        for bad in [
            "0/4", "5/4", "1/0", "0/0", "3", "a/2", "2/b", "-1/2", "1/2/3", "",
        ] {
            let e = Shard::parse(bad).expect_err(bad);
            assert!(e.contains(&format!("`{bad}` is not a shard")), "{e}");
        }
        assert_eq!(Shard { index: 3, count: 7 }.to_string(), "3/7");
    }
}
