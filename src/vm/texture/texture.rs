//! Texture resources: shape (dimension, sizes, mips, layers, samples) and
//! decoded texel storage.
//!
//! Memory layout, for bytes in and out and for the decoded store: D3D
//! subresource order — array layer by layer (a cube's six faces are six
//! consecutive layers in D3D face order +X, −X, +Y, −Y, +Z, −Z; a cube
//! array is cube after cube), each layer holding its mip chain from level 0
//! down, each level tightly packed slice by slice (3D), row by row, texel by
//! texel, and for multisampled textures every texel's samples consecutively.

use std::sync::Arc;

use super::bc::{BLOCK, blocks_across, decode_block};
use super::desc::{Dimension, MAX_MIPS, TextureDesc, TextureError};
use super::format::Format;
use super::view::Window;

/// A texture with decoded texels. Immutable once built, so views share
/// the store: a [`Texture`] is either a whole resource or a view of one
/// (see [`Texture::with_view`]), and every read goes through what the
/// shader sees (the view's dimension, format, mips and layers).
#[derive(Debug, Clone, PartialEq)]
pub struct Texture {
    /// The shape as the shader sees it (a view's, when there is one).
    pub(super) desc: TextureDesc,
    /// Internal layer count the shader sees: array layers, ×6 for cubes,
    /// 1 for 3D.
    pub(super) layers: u32,
    pub(super) texels: Arc<Vec<[u32; 4]>>,
    /// Block-compressed formats: the resource's blocks as given (D3D
    /// subresource order), kept so a GPU that reads the format can get them
    /// unchanged; shared by its views like the texels.
    pub(super) blocks: Option<Arc<Vec<u8>>>,
    /// Offset of each level's first texel within one layer's chain (of the
    /// resource).
    pub(super) level_offsets: [usize; MAX_MIPS],
    pub(super) layer_stride: usize,
    /// Where a view sits in its resource; `None` for a whole resource.
    pub(super) window: Option<Window>,
}

impl Texture {
    /// Builds the shape with an empty store.
    pub(super) fn with_shape(desc: TextureDesc) -> Result<Texture, TextureError> {
        let (desc, layers) = desc.normalized()?;
        let mut level_offsets = [0usize; MAX_MIPS];
        let mut per_layer = 0usize;
        for (level, slot) in level_offsets
            .iter_mut()
            .enumerate()
            .take(desc.mip_levels as usize)
        {
            *slot = per_layer;
            let [w, h, d] = level_extent(&desc, level as u32);
            // Limits keep this under 2^45 per layer.
            per_layer += w as usize * h as usize * d as usize * desc.sample_count as usize;
        }
        Ok(Texture {
            desc,
            layers,
            texels: Arc::new(Vec::new()),
            blocks: None,
            level_offsets,
            layer_stride: per_layer,
            window: None,
        })
    }

    /// Reserves the texel store once the input has been checked against
    /// the shape, so a bogus description fails before anything is allocated.
    fn reserve(&self) -> Result<Vec<[u32; 4]>, TextureError> {
        let total = self.texel_count();
        let mut v = Vec::new();
        v.try_reserve_exact(total)
            .map_err(|_| TextureError::OutOfMemory { texels: total })?;
        Ok(v)
    }

    /// Texels (samples included) a texture of `desc` would hold, after
    /// the same checks as building it, without allocating: so a caller can
    /// bound memory before asking for it.
    pub fn texels_for(desc: TextureDesc) -> Result<usize, TextureError> {
        Ok(Texture::with_shape(desc)?.texel_count())
    }

    /// Texels (samples included) the resource holds (a view's whole
    /// resource).
    pub fn texel_count(&self) -> usize {
        let layers = self
            .window
            .as_ref()
            .map_or(self.layers, |w| w.resource_layers);
        self.layer_stride * layers as usize
    }

    /// Builds a texture from bytes in the format's memory layout, in the
    /// order described in the module documentation.
    /// Block-compressed formats take their 4x4 blocks instead (see
    /// [`Texture::block_data_len`]).
    pub fn from_bytes(desc: TextureDesc, bytes: &[u8]) -> Result<Texture, TextureError> {
        let mut tex = Texture::with_shape(desc)?;
        let format = tex.desc.format;
        if format.is_block_compressed() {
            return tex.fill_from_blocks(bytes);
        }
        let bpt = format.bytes_per_texel();
        let expected = tex.texel_count() * bpt;
        if bytes.len() != expected {
            return Err(TextureError::ByteLength {
                format: format.name(),
                expected,
                got: bytes.len(),
            });
        }
        let mut store = tex.reserve()?;
        store.extend(bytes.chunks_exact(bpt).map(|c| format.decode(c)));
        tex.texels = Arc::new(store);
        Ok(tex)
    }

    /// Builds a texture from one float4 per texel (same order as bytes).
    /// Values are first stored in the format (unorm clamps and rounds, half
    /// rounds to nearest even, integers convert with saturation), so the
    /// texture holds exactly what a GPU would hold for the same input.
    pub fn from_f32(desc: TextureDesc, texels: &[[f32; 4]]) -> Result<Texture, TextureError> {
        Texture::from_encoded(desc, texels, |f, v, out| f.encode_f32(*v, out))
    }

    /// Builds a texture from one lane vector per texel in the decoded
    /// representation (float bits, or integer bits for uint/sint formats);
    /// values are stored in the format first, as in [`Texture::from_f32`].
    pub fn from_lanes(desc: TextureDesc, texels: &[[u32; 4]]) -> Result<Texture, TextureError> {
        Texture::from_encoded(desc, texels, |f, v, out| f.encode_lanes(*v, out))
    }

    fn from_encoded<T>(
        desc: TextureDesc,
        texels: &[T],
        encode: impl Fn(Format, &T, &mut [u8]),
    ) -> Result<Texture, TextureError> {
        let mut tex = Texture::with_shape(desc)?;
        if tex.desc.format.is_block_compressed() {
            // Encoding blocks would be a lossy choice of the emulator's,
            // not something a case could check against D3D.
            return Err(TextureError::NotFromTexels {
                format: tex.desc.format.name(),
            });
        }
        if texels.len() != tex.texel_count() {
            return Err(TextureError::TexelCount {
                expected: tex.texel_count(),
                got: texels.len(),
            });
        }
        let mut store = tex.reserve()?;
        let format = tex.desc.format;
        let mut buf = [0u8; 16];
        store.extend(texels.iter().map(|t| {
            encode(format, t, &mut buf);
            format.decode(&buf[..format.bytes_per_texel()])
        }));
        tex.texels = Arc::new(store);
        Ok(tex)
    }

    /// A texture whose bytes are all zero (every stored component 0, the
    /// missing ones at their defaults).
    /// (Block-compressed: all-zero blocks, which decode as D3D decodes
    /// them, e.g. opaque black for BC1.)
    pub fn zeroed(desc: TextureDesc) -> Result<Texture, TextureError> {
        let mut tex = Texture::with_shape(desc)?;
        if tex.desc.format.is_block_compressed() {
            let len = tex.block_data_len();
            return tex.fill_from_blocks(&vec![0; len]);
        }
        let mut store = tex.reserve()?;
        let zero = tex.desc.format.decode(&[]);
        store.resize(tex.texel_count(), zero);
        tex.texels = Arc::new(store);
        Ok(tex)
    }

    /// The resource's texel data in its format's memory layout (the
    /// inverse of [`Texture::from_bytes`]; a view gives its whole
    /// resource's bytes), for uploading the same texture to a GPU.
    /// Block-compressed formats give their blocks back unchanged.
    pub fn to_bytes(&self) -> Vec<u8> {
        let format = self
            .window
            .as_ref()
            .map_or(self.desc.format, |w| w.resource.format);
        if let Some(blocks) = &self.blocks {
            return blocks.to_vec();
        }
        let bpt = format.bytes_per_texel();
        let mut out = vec![0u8; self.texels.len() * bpt];
        for (t, chunk) in self.texels.iter().zip(out.chunks_exact_mut(bpt)) {
            format.encode_lanes(*t, chunk);
        }
        out
    }

    /// The texel data encoded in another format of the same shape, for a
    /// GPU that lacks this one (A8 as RGBA8, BGRA as RGBA): the decoded
    /// lanes are encoded as `format` would store them.
    pub fn to_bytes_as(&self, format: Format) -> Vec<u8> {
        let bpt = format.bytes_per_texel();
        let mut out = vec![0u8; self.texels.len() * bpt];
        for (t, chunk) in self.texels.iter().zip(out.chunks_exact_mut(bpt)) {
            format.encode_lanes(*t, chunk);
        }
        out
    }

    /// Every texel's decoded lanes as 16 bytes (the `R32G32B32A32`
    /// layout), in the same order: what a GPU without a block format's
    /// support is given instead of the blocks.
    pub fn decoded_bytes(&self) -> Vec<u8> {
        self.texels
            .iter()
            .flat_map(|t| t.iter().flat_map(|l| l.to_le_bytes()))
            .collect()
    }

    /// Bytes of one layer's level `level` in memory: texels times their
    /// size, or for block-compressed formats whole 4x4 blocks (rounded up
    /// on each side) times the block size. 0 past the chain.
    pub fn level_data_len(&self, level: u32) -> usize {
        let Some([w, h, d]) = self.level_size(level) else {
            return 0;
        };
        let f = self.desc.format;
        match f.block_bytes() {
            Some(b) => {
                let (bw, bh) = blocks_across(w, h);
                bw as usize * bh as usize * d as usize * b
            }
            None => {
                w as usize
                    * h as usize
                    * d as usize
                    * self.desc.sample_count as usize
                    * f.bytes_per_texel()
            }
        }
    }

    /// Bytes of the whole texture in memory, every layer and level.
    pub fn block_data_len(&self) -> usize {
        let per_layer: usize = (0..self.desc.mip_levels)
            .map(|l| self.level_data_len(l))
            .sum();
        per_layer * self.layers as usize
    }

    /// Decodes a block-compressed texture's blocks (layer by layer, level
    /// by level, slice by slice, block row by block row) into the store.
    fn fill_from_blocks(mut self, bytes: &[u8]) -> Result<Texture, TextureError> {
        let format = self.desc.format;
        let expected = self.block_data_len();
        if bytes.len() != expected {
            return Err(TextureError::ByteLength {
                format: format.name(),
                expected,
                got: bytes.len(),
            });
        }
        let mut store = self.reserve()?;
        store.resize(self.texel_count(), [0; 4]);
        let bsize = format.block_bytes().unwrap_or(16);
        let mut chunks = bytes.chunks_exact(bsize);
        for layer in 0..self.layers {
            for level in 0..self.desc.mip_levels {
                let [w, h, d] = level_extent(&self.desc, level);
                let (bw, bh) = blocks_across(w, h);
                let base = layer as usize * self.layer_stride + self.level_offsets[level as usize];
                for z in 0..d {
                    for by in 0..bh {
                        for bx in 0..bw {
                            let block = decode_block(format, chunks.next().unwrap_or(&[]));
                            for (i, texel) in block.iter().enumerate() {
                                let x = bx * BLOCK + i as u32 % BLOCK;
                                let y = by * BLOCK + i as u32 / BLOCK;
                                // Texels of a block past a small level's
                                // edge are not part of the texture.
                                if x < w && y < h {
                                    let at = base
                                        + ((z as usize * h as usize + y as usize) * w as usize
                                            + x as usize);
                                    store[at] = *texel;
                                }
                            }
                        }
                    }
                }
            }
        }
        self.texels = Arc::new(store);
        self.blocks = Some(Arc::new(bytes.to_vec()));
        Ok(self)
    }

    pub fn desc(&self) -> &TextureDesc {
        &self.desc
    }
    pub fn format(&self) -> Format {
        self.desc.format
    }
    pub fn dimension(&self) -> Dimension {
        self.desc.dimension
    }
    pub fn mip_levels(&self) -> u32 {
        self.desc.mip_levels
    }
    /// Stored layers: array layers, six per cube, 1 for 3D textures.
    pub fn layers(&self) -> u32 {
        self.layers
    }
    pub fn sample_count(&self) -> u32 {
        self.desc.sample_count
    }

    /// [width, height, depth] of a mip level, `None` past the chain.
    pub fn level_size(&self, level: u32) -> Option<[u32; 3]> {
        (level < self.desc.mip_levels).then(|| level_extent(&self.desc, level))
    }

    /// The decoded lanes of one texel sample, `None` when any index is out
    /// of range.
    pub fn texel(&self, layer: u32, level: u32, xyz: [u32; 3], sample: u32) -> Option<[u32; 4]> {
        let [w, h, d] = self.level_size(level)?;
        if layer >= self.layers || xyz[0] >= w || xyz[1] >= h || xyz[2] >= d {
            return None;
        }
        if sample >= self.desc.sample_count {
            return None;
        }
        // A view's layer and level are relative to its window.
        let (layer, level) = match &self.window {
            Some(v) => (layer + v.first_layer, level + v.first_mip),
            None => (layer, level),
        };
        let s = self.desc.sample_count as usize;
        let index = layer as usize * self.layer_stride
            + *self.level_offsets.get(level as usize)?
            + ((xyz[2] as usize * h as usize + xyz[1] as usize) * w as usize + xyz[0] as usize) * s
            + sample as usize;
        let lanes = self.texels.get(index).copied()?;
        Some(match &self.window {
            // A block format's view holds its own decoding (`with_view`).
            Some(v)
                if v.resource.format != self.desc.format
                    && !self.desc.format.is_block_compressed() =>
            {
                v.reinterpret(self.desc.format, lanes)
            }
            _ => lanes,
        })
    }
}

/// Size of a level: max(1, size >> level) on every axis.
pub(super) fn level_extent(desc: &TextureDesc, level: u32) -> [u32; 3] {
    let shrink = |n: u32| n.checked_shr(level).unwrap_or(0).max(1);
    [shrink(desc.width), shrink(desc.height), shrink(desc.depth)]
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::dxbc::ir::ResourceDimension;

    #[test]
    fn mip_chain_sizes_and_offsets() {
        let desc = TextureDesc::tex2d(Format::R8Unorm, 5, 3).with_mips(0);
        let bytes: Vec<u8> = (0..(15 + 2 + 1) as u8).collect();
        let tex = Texture::from_bytes(desc, &bytes).unwrap();
        assert_eq!(tex.mip_levels(), 3); // 5x3, 2x1, 1x1
        assert_eq!(tex.level_size(0), Some([5, 3, 1]));
        assert_eq!(tex.level_size(1), Some([2, 1, 1]));
        assert_eq!(tex.level_size(2), Some([1, 1, 1]));
        assert_eq!(tex.level_size(3), None);
        // Level 1's second texel is byte 16; level 2's only texel byte 17.
        let r = |l, x, y| f32::from_bits(tex.texel(0, l, [x, y, 0], 0).unwrap()[0]);
        assert_eq!(r(0, 4, 2), 14.0 / 255.0);
        assert_eq!(r(1, 1, 0), 16.0 / 255.0);
        assert_eq!(r(2, 0, 0), 17.0 / 255.0);
        assert_eq!(tex.texel(0, 1, [2, 0, 0], 0), None);
        assert_eq!(tex.to_bytes(), bytes);
    }

    #[test]
    fn layers_hold_whole_chains() {
        // 2 layers of a 2x1 texture with 2 mips: layer-major order.
        let desc = TextureDesc::tex2d_array(Format::R32Uint, 2, 1, 2).with_mips(2);
        let lanes: Vec<[u32; 4]> = (0..6).map(|i| [i, 0, 0, 0]).collect();
        let tex = Texture::from_lanes(desc, &lanes).unwrap();
        assert_eq!(tex.texel(1, 0, [0, 0, 0], 0).unwrap()[0], 3);
        assert_eq!(tex.texel(1, 1, [0, 0, 0], 0).unwrap()[0], 5);
        assert_eq!(tex.texel(0, 1, [0, 0, 0], 0).unwrap(), [2, 0, 0, 1]);
        assert_eq!(tex.texel(2, 0, [0, 0, 0], 0), None);
    }

    #[test]
    fn cube_layers_are_faces() {
        let desc = TextureDesc::cube_array(Format::R32Float, 1, 2);
        let texels: Vec<[f32; 4]> = (0..12).map(|i| [i as f32, 0.0, 0.0, 0.0]).collect();
        let tex = Texture::from_f32(desc, &texels).unwrap();
        assert_eq!(tex.layers(), 12);
        assert_eq!(
            f32::from_bits(tex.texel(7, 0, [0, 0, 0], 0).unwrap()[0]),
            7.0
        );
    }

    #[test]
    fn multisample_texels_interleave_samples() {
        let desc = TextureDesc::tex2d_ms(Format::R32Uint, 2, 1, 2);
        let lanes: Vec<[u32; 4]> = (0..4).map(|i| [10 + i, 0, 0, 0]).collect();
        let tex = Texture::from_lanes(desc, &lanes).unwrap();
        assert_eq!(tex.texel(0, 0, [1, 0, 0], 0).unwrap()[0], 12);
        assert_eq!(tex.texel(0, 0, [1, 0, 0], 1).unwrap()[0], 13);
        assert_eq!(tex.texel(0, 0, [1, 0, 0], 2), None);
    }

    #[test]
    fn bad_descriptions_are_typed_errors() {
        let f = Format::R8Unorm;
        let e = |d: TextureDesc| Texture::from_bytes(d, &[]).unwrap_err();
        assert_eq!(
            e(TextureDesc::tex2d(f, 0, 4)),
            TextureError::ZeroSize { what: "width" }
        );
        assert!(matches!(
            e(TextureDesc::tex2d(f, 16385, 1)),
            TextureError::TooLarge { .. }
        ));
        assert!(matches!(
            e(TextureDesc::tex3d(f, 4, 4, 4096)),
            TextureError::TooLarge { .. }
        ));
        assert!(matches!(
            e(TextureDesc::cube_array(f, 4, 400)),
            TextureError::TooLarge { .. }
        ));
        let mut not_square = TextureDesc::cube(f, 4);
        not_square.height = 2;
        assert!(matches!(e(not_square), TextureError::CubeNotSquare { .. }));
        assert_eq!(
            e(TextureDesc::tex2d(f, 4, 4).with_mips(4)),
            TextureError::TooManyMips { mips: 4, max: 3 }
        );
        assert!(matches!(
            e(TextureDesc::tex2d_ms(f, 4, 4, 1).with_mips(2)),
            TextureError::MipsNotAllowed { .. }
        ));
        assert!(matches!(
            e(TextureDesc::tex2d_ms(f, 4, 4, 0)),
            TextureError::BadSampleCount { .. }
        ));
        assert_eq!(
            e(TextureDesc::tex2d(f, 2, 2)),
            TextureError::ByteLength {
                format: "R8_UNORM",
                expected: 4,
                got: 0
            }
        );
        assert_eq!(
            Texture::from_f32(TextureDesc::tex1d(f, 3), &[[0.0; 4]]).unwrap_err(),
            TextureError::TexelCount {
                expected: 3,
                got: 1
            }
        );
    }

    #[test]
    fn unused_fields_are_normalized() {
        let mut d = TextureDesc::tex1d(Format::R8Unorm, 2);
        d.height = 9;
        d.depth = 0;
        d.array_size = 0;
        let tex = Texture::from_bytes(d, &[1, 2]).unwrap();
        assert_eq!(
            (tex.desc().height, tex.desc().depth, tex.desc().array_size),
            (1, 1, 1)
        );
    }

    #[test]
    fn dimension_from_dxbc() {
        assert_eq!(
            Dimension::from_resource_dim(ResourceDimension::Texture2DArray),
            Some(Dimension::Tex2DArray)
        );
        assert_eq!(
            Dimension::from_resource_dim(ResourceDimension::TextureCubeArray),
            Some(Dimension::CubeArray)
        );
        assert_eq!(
            Dimension::from_resource_dim(ResourceDimension::RawBuffer),
            None
        );
    }
}
