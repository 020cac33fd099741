//! Floats in the results document. JSON has no NaN or infinity (serde_json
//! would write `null` and then refuse to read it back), yet an error can be
//! infinite and a worst pixel's texel NaN: a non-finite value is written as
//! the string `"NaN"`, `"inf"` or `"-inf"`, a finite one as a number.

use serde::{Deserialize, Deserializer, Serialize, Serializer};

#[derive(Serialize, Deserialize)]
#[serde(untagged)]
enum Wire<T> {
    Number(T),
    Word(String),
}

fn word(nan: bool, positive: bool) -> String {
    if nan {
        "NaN".into()
    } else if positive {
        "inf".into()
    } else {
        "-inf".into()
    }
}

fn unword<E: serde::de::Error>(w: &str) -> Result<f64, E> {
    match w {
        "NaN" => Ok(f64::NAN),
        "inf" => Ok(f64::INFINITY),
        "-inf" => Ok(f64::NEG_INFINITY),
        _ => Err(E::custom(format!(
            "`{w}` is not a number (nor NaN, inf or -inf)"
        ))),
    }
}

/// `#[serde(with = "float::f64")]`.
pub mod f64 {
    use super::*;

    pub fn serialize<S: Serializer>(v: &f64, s: S) -> Result<S::Ok, S::Error> {
        if v.is_finite() {
            Wire::Number(*v).serialize(s)
        } else {
            Wire::<f64>::Word(word(v.is_nan(), *v > 0.0)).serialize(s)
        }
    }

    pub fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<f64, D::Error> {
        match Wire::<f64>::deserialize(d)? {
            Wire::Number(v) => Ok(v),
            Wire::Word(w) => unword(&w),
        }
    }
}

/// `#[serde(with = "float::f32x4")]`: a texel.
pub mod f32x4 {
    use super::*;

    pub fn serialize<S: Serializer>(v: &[f32; 4], s: S) -> Result<S::Ok, S::Error> {
        let wire: Vec<Wire<f32>> = v
            .iter()
            .map(|c| {
                if c.is_finite() {
                    Wire::Number(*c)
                } else {
                    Wire::Word(word(c.is_nan(), *c > 0.0))
                }
            })
            .collect();
        wire.serialize(s)
    }

    pub fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<[f32; 4], D::Error> {
        let wire = <[Wire<f32>; 4]>::deserialize(d)?;
        let mut out = [0.0; 4];
        for (o, w) in out.iter_mut().zip(wire) {
            *o = match w {
                Wire::Number(v) => v,
                Wire::Word(w) => unword(&w)? as f32,
            };
        }
        Ok(out)
    }
}
