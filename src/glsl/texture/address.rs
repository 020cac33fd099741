//! GLSL helpers the emulated texture reads share (gather and the manual
//! sampling path): the snapped texel-space position, the address modes on
//! integer texel indices and the comparison functions. They follow
//! `src/vm/texture/address.rs` and `sample.rs` rule for rule, so an emulated
//! read picks the same texels with the same weights as the reference.

use super::super::emit::Emitter;

pub const TEXEL_POS: &str = "hlslcc_texelPos";
pub const ADDRESS: &str = "hlslcc_addressTexel";
pub const COMPARE: &str = "hlslcc_compareTexel";

const TEXEL_POS_TEXT: &str = "\
// u·size snapped to 8 fractional bits (ties to even), as D3D's fixed-point
// texel addressing. Wrap and mirror first reduce u by a multiple of 2 (the
// texel index moves by a multiple of the period); the clamp-like modes keep
// it within 2^24 texels. NaN reads as 0.
float hlslcc_texelPos(float u, int size, int mode) {
    if (isnan(u)) u = 0.0;
    float x;
    if (mode == 1 || mode == 2) {
        if (isinf(u) || abs(u) >= 16777216.0) u = 0.0;
        else if (abs(u) >= 2.0) u = u - 2.0 * trunc(u * 0.5);
        x = u * float(size);
    } else {
        x = clamp(u * float(size), -16777216.0, 16777216.0);
    }
    return roundEven(x * 256.0) / 256.0;
}";

const ADDRESS_TEXT: &str = "\
int hlslcc_euclidMod(int i, int n) {
    int a = i < 0 ? -(i + 1) : i;
    int r = a % n;
    return i < 0 ? n - 1 - r : r;
}

// D3D11_TEXTURE_ADDRESS_MODE on an integer texel index; -1 is the border.
int hlslcc_addressTexel(int i, int n, int mode) {
    n = max(n, 1);
    if (mode == 1) return hlslcc_euclidMod(i, n);
    if (mode == 2) {
        int m = hlslcc_euclidMod(i, 2 * n);
        return m < n ? m : 2 * n - 1 - m;
    }
    if (mode == 4) return (i >= 0 && i < n) ? i : -1;
    if (mode == 5) return clamp(i < 0 ? -1 - i : i, 0, n - 1);
    return clamp(i, 0, n - 1);
}";

const COMPARE_TEXT: &str = "\
// D3D11_COMPARISON_FUNC as `reference <func> texel`: 1.0 or 0.0.
float hlslcc_compareTexel(float r, float t, int f) {
    bool p = f == 8;
    if (f == 2) p = r < t;
    else if (f == 3) p = r == t;
    else if (f == 4) p = r <= t;
    else if (f == 5) p = r > t;
    else if (f == 6) p = r != t;
    else if (f == 7) p = r >= t;
    return p ? 1.0 : 0.0;
}";

/// Requests `hlslcc_texelPos` and `hlslcc_addressTexel` (with its
/// `hlslcc_euclidMod`), ahead of any helper that calls them.
pub(crate) fn use_addressing(e: &mut Emitter) {
    e.helpers.use_custom_static(TEXEL_POS, TEXEL_POS_TEXT);
    e.helpers.use_custom_static(ADDRESS, ADDRESS_TEXT);
}

/// Requests `hlslcc_compareTexel`.
pub(crate) fn use_compare(e: &mut Emitter) {
    e.helpers.use_custom_static(COMPARE, COMPARE_TEXT);
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn snap_and_modes_follow_the_reference() {
        // 8 fractional bits, ties to even (vm address.rs `snap`).
        assert!(TEXEL_POS_TEXT.contains("roundEven(x * 256.0) / 256.0"));
        // Mirror once: −1 ↔ 0 about the origin, then clamp.
        assert!(
            ADDRESS_TEXT.contains("if (mode == 5) return clamp(i < 0 ? -1 - i : i, 0, n - 1);")
        );
        assert!(ADDRESS_TEXT.contains("if (mode == 4) return (i >= 0 && i < n) ? i : -1;"));
        // Never (1) and unknown functions fail; Always (8) passes.
        assert!(COMPARE_TEXT.contains("bool p = f == 8;"));
    }
}
