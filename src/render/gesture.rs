//! Pointer gestures over the ring, as a small state machine: a press that does not move
//! is a tap (touch screens have no hover, so a tap describes what is under the finger),
//! one pressed pointer pans, two pinch-zoom about their midpoint, and a pointer that is not
//! pressed hovers. The page feeds it pointer events and applies what comes back.

use super::Viewport;

/// How far (CSS pixels) a press may wander and still be a tap.
pub const TAP_SLOP_PX: f64 = 4.0;

/// What a pointer movement asks for.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Gesture {
    /// Nothing pressed: describe what is under (x, y).
    Hover(f64, f64),
    /// A pan or a pinch: show this view.
    View(Viewport),
}

/// The pressed pointers and whether the current press is still a tap.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Gestures {
    pointers: Vec<(i32, f64, f64)>,
    tap: Option<(f64, f64)>,
}

impl Gestures {
    /// A pointer went down at (x, y).
    pub fn down(&mut self, id: i32, x: f64, y: f64) {
        self.pointers.retain(|p| p.0 != id);
        self.pointers.push((id, x, y));
        self.tap = (self.pointers.len() == 1).then_some((x, y));
    }

    /// A pointer moved to (x, y) while the view was `view`.
    pub fn moved(&mut self, id: i32, x: f64, y: f64, view: &Viewport) -> Gesture {
        let Some(i) = self.pointers.iter().position(|p| p.0 == id) else {
            return Gesture::Hover(x, y);
        };
        let (_, px, py) = self.pointers[i];
        if self
            .tap
            .is_some_and(|(tx, ty)| crate::math::hypot(x - tx, y - ty) > TAP_SLOP_PX)
        {
            self.tap = None;
        }
        let next = if self.pointers.len() == 2 {
            // Pinch: scale by the change in distance between the two pointers.
            let (_, ox, oy) = self.pointers[1 - i];
            let before = crate::math::hypot(px - ox, py - oy).max(1.0);
            let after = crate::math::hypot(x - ox, y - oy).max(1.0);
            view.zoom_at(after / before, (x + ox) / 2.0, (y + oy) / 2.0)
        } else {
            view.pan(x - px, y - py)
        };
        self.pointers[i] = (id, x, y);
        Gesture::View(next)
    }

    /// A pointer went up (or was cancelled); a tap returns where it happened.
    pub fn up(&mut self, id: i32) -> Option<(f64, f64)> {
        self.pointers.retain(|p| p.0 != id);
        self.tap.take()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_press_without_movement_is_a_tap() {
        let mut g = Gestures::default();
        g.down(1, 100.0, 100.0);
        let v = Viewport::default();
        assert_eq!(
            g.moved(1, 102.0, 101.0, &v),
            Gesture::View(v),
            "no pan at zoom 1"
        );
        assert_eq!(g.up(1), Some((100.0, 100.0)));
        assert_eq!(g.up(1), None);
    }

    #[test]
    fn dragging_pans_and_is_no_tap() {
        let mut g = Gestures::default();
        let v = Viewport::default().zoom_at(4.0, 200.0, 200.0);
        g.down(1, 100.0, 100.0);
        let Gesture::View(next) = g.moved(1, 130.0, 90.0, &v) else {
            panic!("a pan");
        };
        assert_eq!((next.ox - v.ox, next.oy - v.oy), (30.0, -10.0));
        assert_eq!(next.zoom, v.zoom);
        assert_eq!(g.up(1), None);
    }

    #[test]
    fn two_pointers_pinch_about_their_middle() {
        let mut g = Gestures::default();
        let v = Viewport::default();
        g.down(1, 100.0, 200.0);
        g.down(2, 300.0, 200.0);
        // Spread from 200 px apart to 400: zoom ×2 about the midpoint (pointer 2 moved).
        let Gesture::View(next) = g.moved(2, 500.0, 200.0, &v) else {
            panic!("a pinch");
        };
        assert!((next.zoom - 2.0).abs() < 1e-9);
        let mid = (300.0, 200.0);
        assert!((next.ox - (mid.0 - mid.0 * 2.0)).abs() < 1e-9);
        assert_eq!(g.up(2), None, "a pinch is no tap");
    }

    #[test]
    fn an_unpressed_pointer_hovers() {
        let mut g = Gestures::default();
        assert_eq!(
            g.moved(7, 5.0, 6.0, &Viewport::default()),
            Gesture::Hover(5.0, 6.0)
        );
    }
}
