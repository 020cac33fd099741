//! D3D11's standard multisample patterns, which the emulator's
//! `samplepos` and rasterizer and the GLSL lowering of `samplepos` share.

/// D3D11's standard multisample patterns
/// (`D3D11_STANDARD_MULTISAMPLE_PATTERN`, D3D11 functional spec 3.5.6.1):
/// sample `i`'s offset from the pixel centre in 1/16 pixel, x right and y
/// down. Counts without a standard pattern give `None`.
pub fn standard_pattern(count: u32) -> Option<&'static [[i8; 2]]> {
    const X1: [[i8; 2]; 1] = [[0, 0]];
    const X2: [[i8; 2]; 2] = [[4, 4], [-4, -4]];
    const X4: [[i8; 2]; 4] = [[-2, -6], [6, -2], [-6, 2], [2, 6]];
    const X8: [[i8; 2]; 8] = [
        [1, -3],
        [-1, 3],
        [5, 1],
        [-3, -5],
        [-5, 5],
        [-7, -1],
        [3, 7],
        [7, -7],
    ];
    const X16: [[i8; 2]; 16] = [
        [1, 1],
        [-1, -3],
        [-3, 2],
        [4, -1],
        [-5, -2],
        [2, 5],
        [5, 3],
        [3, -5],
        [-2, 6],
        [0, -7],
        [-4, -6],
        [-6, 4],
        [-8, 0],
        [7, -4],
        [6, 7],
        [-7, -8],
    ];
    Some(match count {
        1 => &X1,
        2 => &X2,
        4 => &X4,
        8 => &X8,
        16 => &X16,
        _ => return None,
    })
}
