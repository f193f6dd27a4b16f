//! A small deterministic random-number generator (SplitMix64): the demo data
//! must be the same for the same seed on every machine and every build.

#[derive(Debug, Clone)]
pub struct Rng(u64);

impl Rng {
    #[cfg(test)]
    pub fn new(seed: u64) -> Self {
        Rng(seed)
    }

    /// An independent stream for one item of one kind (e.g. finding 17's
    /// activity), so items can be rebuilt alone, in any order.
    pub fn for_item(seed: u64, stream: u64, index: u64) -> Self {
        let mut r = Rng(seed ^ stream.wrapping_mul(0x9E37_79B9_7F4A_7C15));
        r.0 ^= index.wrapping_mul(0xD1B5_4A32_D192_ED03);
        r.next_u64();
        r
    }

    pub fn next_u64(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    /// Uniform in `0..n` (`n` > 0).
    pub fn below(&mut self, n: usize) -> usize {
        debug_assert!(n > 0);
        ((self.next_u64() >> 11) % n.max(1) as u64) as usize
    }

    /// [`Rng::below`] as a `u8`, for `n` at most 256 (a table's index).
    pub fn below_u8(&mut self, n: usize) -> u8 {
        u8::try_from(self.below(n)).unwrap_or(u8::MAX)
    }

    /// [`Rng::below`] as a `u16`, for `n` at most 65,536.
    pub fn below_u16(&mut self, n: usize) -> u16 {
        u16::try_from(self.below(n)).unwrap_or(u16::MAX)
    }

    /// Uniform in `lo..=hi`.
    pub fn range(&mut self, lo: i64, hi: i64) -> i64 {
        if hi <= lo {
            return lo;
        }
        // Both positive and at most the span: exact (saturating never).
        let span = u64::try_from(hi - lo + 1).unwrap_or(u64::MAX);
        lo + i64::try_from(self.next_u64() % span).unwrap_or(i64::MAX)
    }

    /// True with probability `p`.
    pub fn chance(&mut self, p: f64) -> bool {
        self.unit() <= p
    }

    /// A float in `[0, 1)`.
    // 53 bits over 2^53: both exact in f64.
    #[allow(clippy::cast_precision_loss)]
    pub fn unit(&mut self) -> f64 {
        (self.next_u64() >> 11) as f64 / (1u64 << 53) as f64
    }

    pub fn pick<'a, T>(&mut self, items: &'a [T]) -> &'a T {
        &items[self.below(items.len())]
    }

    /// An index drawn by weight.
    pub fn weighted(&mut self, weights: &[u32]) -> usize {
        let total: u32 = weights.iter().sum();
        let mut x = u32::try_from(self.below(total.max(1) as usize)).unwrap_or(u32::MAX);
        for (i, w) in weights.iter().enumerate() {
            if x < *w {
                return i;
            }
            x -= w;
        }
        weights.len() - 1
    }

    /// `k` distinct indices below `n` (fewer when `n` < `k`), sorted.
    pub fn sample(&mut self, n: usize, k: usize) -> Vec<usize> {
        let mut picked: Vec<usize> = Vec::with_capacity(k);
        while picked.len() < k.min(n) {
            let i = self.below(n);
            if !picked.contains(&i) {
                picked.push(i);
            }
        }
        picked.sort_unstable();
        picked
    }

    /// A lowercase hex string of `len` characters.
    pub fn hex(&mut self, len: usize) -> String {
        let mut s = String::with_capacity(len);
        while s.len() < len {
            s.push_str(&format!("{:016x}", self.next_u64()));
        }
        s.truncate(len);
        s
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn same_seed_same_stream() {
        let a: Vec<u64> = (0..5).map(|_| Rng::new(7).next_u64()).collect();
        assert!(a.windows(2).all(|w| w[0] == w[1]));
        let mut r1 = Rng::for_item(1, 2, 3);
        let mut r2 = Rng::for_item(1, 2, 4);
        assert_ne!(r1.next_u64(), r2.next_u64());
    }

    #[test]
    fn helpers_stay_in_bounds() {
        let mut r = Rng::new(42);
        for _ in 0..1000 {
            assert!(r.below(7) < 7);
            let v = r.range(-3, 3);
            assert!((-3..=3).contains(&v));
            assert!(r.weighted(&[0, 5, 0]) == 1);
        }
        assert_eq!(r.sample(3, 10).len(), 3);
        assert_eq!(r.hex(40).len(), 40);
    }
}
