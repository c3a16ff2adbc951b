//! Load statistics, as seed 003 measures balance.
//!
//! Seed 003 computes the standard deviation of per-server counts around the ideal mean
//! `keys / servers` (a population standard deviation: divide by N, not N−1). Its Java code
//! divides two `int`s for the mean, which truncates; we use the exact mean, which is the
//! same number whenever keys divide evenly among servers (as in the seed's 1,000,000 / 10).

/// Balance figures over the live servers' key counts.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Stats {
    /// Keys owned by live servers.
    pub keys: u64,
    /// Live servers.
    pub servers: usize,
    /// Mean keys per live server.
    pub mean: f64,
    /// Population standard deviation of the counts.
    pub stddev: f64,
    /// Coefficient of variation: stddev / mean.
    pub cv: f64,
    /// Largest count divided by the mean (1.0 is perfect balance).
    pub peak_to_mean: f64,
}

impl Stats {
    /// Computes the figures for one count per live server.
    pub fn from_counts(counts: &[u64]) -> Stats {
        if counts.is_empty() {
            return Stats::default();
        }
        let keys: u64 = counts.iter().sum();
        let n = counts.len() as f64;
        let mean = keys as f64 / n;
        let variance = counts
            .iter()
            .map(|&c| (c as f64 - mean).powi(2))
            .sum::<f64>()
            / n;
        let stddev = variance.sqrt();
        let peak = counts.iter().copied().max().unwrap_or(0) as f64;
        let ratio = |x: f64| if mean > 0.0 { x / mean } else { 0.0 };
        Stats {
            keys,
            servers: counts.len(),
            mean,
            stddev,
            cv: ratio(stddev),
            peak_to_mean: ratio(peak),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn population_stddev_around_the_mean() {
        let s = Stats::from_counts(&[2, 4, 4, 4, 5, 5, 7, 9]);
        assert_eq!(s.mean, 5.0);
        assert_eq!(s.stddev, 2.0);
        assert_eq!(s.cv, 0.4);
        assert_eq!(s.peak_to_mean, 1.8);
        assert_eq!(Stats::from_counts(&[]), Stats::default());
    }
}
