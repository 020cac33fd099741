//! The generator's one source of variety: SplitMix64 (Steele, Lea and
//! Flood, "Fast splittable pseudorandom number generators", 2014), small
//! and the same on every platform, so a seed gives the same case anywhere.

/// A SplitMix64 stream.
#[derive(Debug, Clone)]
pub struct Rng(u64);

impl Rng {
    pub fn new(seed: u64) -> Rng {
        Rng(seed)
    }

    /// A stream for one part of the case (`"cb"` slot 2, `"texture"` slot
    /// 0, ...), so adding a section does not shift every later value.
    pub fn for_part(seed: u64, part: &str, index: u64) -> Rng {
        let mut h = seed ^ 0x6a09_e667_f3bc_c908;
        for b in part.bytes() {
            h = mix(h ^ u64::from(b));
        }
        Rng(mix(h ^ index))
    }

    pub fn next_u64(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9e37_79b9_7f4a_7c15);
        mix(self.0)
    }

    /// An integer in `lo..=hi`.
    pub fn range(&mut self, lo: u32, hi: u32) -> u32 {
        lo + (self.next_u64() % u64::from(hi - lo + 1)) as u32
    }

    /// A multiple of 1/16 in `[lo, hi]` (both multiples of 1/16): exact in
    /// every float format and short to read.
    pub fn sixteenths(&mut self, lo: f32, hi: f32) -> f32 {
        let (a, b) = ((lo * 16.0) as u32, (hi * 16.0) as u32);
        self.range(a, b) as f32 / 16.0
    }

    /// A float in `[lo, hi)`.
    pub fn float(&mut self, lo: f32, hi: f32) -> f32 {
        let unit = (self.next_u64() >> 40) as f32 / (1u64 << 24) as f32;
        lo + (hi - lo) * unit
    }
}

/// SplitMix64's finaliser: every input bit reaches every output bit.
pub fn mix(mut z: u64) -> u64 {
    z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    z ^ (z >> 31)
}
