//! The few transcendental functions drawing needs (`sin`, `cos`, `atan2`, `log10`, `powf`,
//! `exp`), a floating-point remainder and a plain `hypot`, taken from the browser's `Math` in
//! the page and from the standard library natively.
//!
//! Why: Rust's own versions (libm's argument reduction, `fmod`, `atan`, `log10`) add
//! ~9 KB of code to the page although every browser already has them, exact to an ulp.
//! They only place pixels and round displayed numbers, never decide an owner, so the
//! native tests of geometry and wording check the same rules the page runs.

#[cfg(target_arch = "wasm32")]
mod imp {
    use js_sys::Math;

    pub fn sin(x: f64) -> f64 {
        Math::sin(x)
    }
    pub fn cos(x: f64) -> f64 {
        Math::cos(x)
    }
    pub fn atan2(y: f64, x: f64) -> f64 {
        Math::atan2(y, x)
    }
    pub fn log10(x: f64) -> f64 {
        Math::log10(x)
    }
    pub fn powf(x: f64, y: f64) -> f64 {
        Math::pow(x, y)
    }
    pub fn exp(x: f64) -> f64 {
        Math::exp(x)
    }
}

#[cfg(not(target_arch = "wasm32"))]
mod imp {
    pub fn sin(x: f64) -> f64 {
        x.sin()
    }
    pub fn cos(x: f64) -> f64 {
        x.cos()
    }
    pub fn atan2(y: f64, x: f64) -> f64 {
        y.atan2(x)
    }
    pub fn log10(x: f64) -> f64 {
        x.log10()
    }
    pub fn powf(x: f64, y: f64) -> f64 {
        x.powf(y)
    }
    pub fn exp(x: f64) -> f64 {
        x.exp()
    }
}

/// The sine of `x` radians.
pub fn sin(x: f64) -> f64 {
    imp::sin(x)
}

/// The cosine of `x` radians.
pub fn cos(x: f64) -> f64 {
    imp::cos(x)
}

/// The angle of the point (x, y) from the positive x axis, in −π..=π.
pub fn atan2(y: f64, x: f64) -> f64 {
    imp::atan2(y, x)
}

/// The base-10 logarithm.
pub fn log10(x: f64) -> f64 {
    imp::log10(x)
}

/// `x` raised to the power `y` (libm's `pow` is 2 KB of code).
pub fn powf(x: f64, y: f64) -> f64 {
    imp::powf(x, y)
}

/// The length of (x, y): `sqrt(x² + y²)` — pixel distances, far from overflow, so without
/// libm's careful `hypot`.
pub fn hypot(x: f64, y: f64) -> f64 {
    (x * x + y * y).sqrt()
}

/// e raised to the power `x`.
pub fn exp(x: f64) -> f64 {
    imp::exp(x)
}

/// `x` modulo `m` (m > 0) in `0..m`, like `f64::rem_euclid` but without `fmod`'s code:
/// `x − ⌊x / m⌋·m`, folded back into range where rounding lands on `m` or below 0.
pub fn wrap(x: f64, m: f64) -> f64 {
    let r = x - (x / m).floor() * m;
    if r >= m {
        r - m
    } else if r < 0.0 {
        r + m
    } else {
        r
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::f64::consts::TAU;

    #[test]
    fn wrap_agrees_with_rem_euclid_on_angles() {
        for x in [
            0.0,
            1.0,
            -1.0,
            TAU,
            -TAU,
            7.5,
            -7.5,
            1e6,
            -1e-12,
            3.0 * TAU + 0.1,
        ] {
            let (a, b) = (wrap(x, TAU), x.rem_euclid(TAU));
            assert!((a - b).abs() < 1e-9, "{x}: {a} vs {b}");
            assert!((0.0..TAU).contains(&a), "{x}: {a}");
        }
        assert_eq!(wrap(725.0, 360.0), 5.0);
    }
}
