//! The vnode sweep: seed 003's experiment, the standard deviation of keys per server as
//! the virtual nodes per server grow, on one scenario's servers, hash and keys.
//!
//! The keys are hashed once; each further point is the engine's own `vnodes:N` change,
//! which recomputes only the keys in arcs that changed hands. The work is stepped like
//! every other change (`advance` with a budget), so the page can draw the curve as it grows
//! without blocking.

use super::scenario::Scenario;
use super::sim::{Change, Simulation, Work};
use crate::problem::Problem;

/// The vnode counts of a sweep, about evenly spaced on a log scale from 1 to 1,000.
pub const SWEEP_VNODES: [u32; 16] = [
    1, 2, 3, 5, 10, 20, 30, 50, 75, 100, 150, 200, 300, 500, 750, 1000,
];

/// One measured point.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct SweepPoint {
    /// Virtual nodes per server.
    pub vnodes: u32,
    /// Standard deviation of keys per live server.
    pub stddev: f64,
    /// Coefficient of variation (σ / mean).
    pub cv: f64,
}

/// A sweep in progress.
pub struct Sweep {
    sim: Option<Simulation>,
    work: Option<Work>,
    points: Vec<SweepPoint>,
}

impl Sweep {
    /// Starts a sweep of `scenario`'s ring (its own vnodes setting is replaced).
    pub fn new(scenario: &Scenario) -> Result<Sweep, Problem> {
        if !scenario.settings.algo.balance_follows_vnodes() {
            return Err(Problem::SweepNeedsRing);
        }
        let mut first = scenario.clone();
        first.settings.vnodes = SWEEP_VNODES[0];
        Ok(Sweep {
            sim: None,
            work: Some(Work::load(&first)?),
            points: Vec::new(),
        })
    }

    /// Does about `budget` units of work (the engine's units, ~10 ns each in the browser).
    pub fn advance(&mut self, budget: usize) -> Result<(), Problem> {
        let mut left = budget;
        while left > 0 && !self.is_finished() {
            let Some(work) = self.work.as_mut() else {
                // Start the next point from the last one.
                let sim = self
                    .sim
                    .as_ref()
                    .ok_or(Problem::Internal("the sweep has no simulation"))?;
                let vnodes = SWEEP_VNODES[self.points.len()];
                self.work = Some(sim.start(&Change::SetVnodes(vnodes))?);
                continue;
            };
            let spent = work.advance(left)?;
            left = left.saturating_sub(spent.max(1));
            if work.is_finished() {
                let work = self.work.take().ok_or(Problem::Internal("no work"))?;
                let mut sim = match self.sim.take() {
                    Some(sim) => sim,
                    None => Simulation::unassigned(work.config().clone()),
                };
                sim.finish(work)?;
                let stats = sim.stats();
                self.points.push(SweepPoint {
                    vnodes: sim.settings().vnodes,
                    stddev: stats.stddev,
                    cv: stats.cv,
                });
                self.sim = Some(sim);
            }
        }
        Ok(())
    }

    /// The points measured so far, in vnode order.
    pub fn points(&self) -> &[SweepPoint] {
        &self.points
    }

    /// True when every point is measured.
    pub fn is_finished(&self) -> bool {
        self.points.len() == SWEEP_VNODES.len()
    }

    /// Runs the sweep to the end.
    pub fn run(mut self) -> Result<Vec<SweepPoint>, Problem> {
        while !self.is_finished() {
            self.advance(usize::MAX)?;
        }
        Ok(self.points)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn seed_003(keys: &str) -> Scenario {
        let nodes: Vec<String> = (1..=10).map(|i| format!("127.0.0.{i}")).collect();
        Scenario::from_pairs([
            ("hash", "fnv-hutool"),
            ("label", "{node}@{i}"),
            ("nodes", nodes.join(",").as_str()),
            ("keys", keys),
        ])
        .unwrap()
    }

    #[test]
    fn each_point_equals_a_fresh_simulation_with_those_vnodes() {
        let scenario = seed_003("key-{i}:0..3000");
        let points = Sweep::new(&scenario).unwrap().run().unwrap();
        assert_eq!(points.len(), SWEEP_VNODES.len());
        for p in &points {
            let mut s = scenario.clone();
            s.settings.vnodes = p.vnodes;
            let fresh = Simulation::new(&s).unwrap().stats();
            assert_eq!(p.stddev, fresh.stddev, "vnodes {}", p.vnodes);
        }
    }

    #[test]
    fn small_steps_give_the_same_curve_and_it_flattens() {
        let scenario = seed_003("key-{i}:0..20000");
        let mut stepped = Sweep::new(&scenario).unwrap();
        let mut steps = 0;
        while !stepped.is_finished() {
            stepped.advance(200_000).unwrap();
            steps += 1;
        }
        assert!(steps > 2, "{steps} steps");
        let once = Sweep::new(&scenario).unwrap().run().unwrap();
        assert_eq!(stepped.points(), once.as_slice());
        let at = |v: u32| once.iter().find(|p| p.vnodes == v).unwrap().cv;
        assert!(at(1) > 4.0 * at(200), "{} vs {}", at(1), at(200));
    }

    #[test]
    fn only_the_ring_can_be_swept() {
        let s = Scenario::from_pairs([("algo", "modn")]).unwrap();
        assert!(Sweep::new(&s)
            .err()
            .unwrap()
            .to_string()
            .contains("algo ring"));
    }
}
