//! The shipped example shaders under `shaders/` and where their bytes come
//! from. Until the assembler exists, `shaders/shadow_pcf.dxbc` is built here
//! from the IR (its `.asm` beside it is the readable source, and this test
//! checks that the binary disassembles to exactly that text). Regenerate the
//! binary with `DXBC_DBG_REGENERATE=1 cargo test --test example_shaders`.

use std::path::Path;

use dxbc_dbg::dxbc::container::build_container;
use dxbc_dbg::dxbc::encode::encode_program;
use dxbc_dbg::dxbc::ir::*;
use dxbc_dbg::dxbc::{ParseOptions, Shader, listing};

fn operand(
    ty: OperandType,
    index: &[u32],
    components: Components,
    selection: Selection,
) -> Operand {
    Operand {
        ty,
        components,
        selection,
        indices: index.iter().map(|&i| Index::Imm32(i)).collect(),
        modifier: Modifier::None,
        min_precision: MinPrecision::Default,
        nonuniform: false,
        extended: false,
        imm: Lanes::new(),
    }
}

fn mask(ty: OperandType, index: &[u32], m: u8) -> Operand {
    operand(ty, index, Components::Four, Selection::Mask(m))
}

fn swz(ty: OperandType, index: &[u32], s: [u8; 4]) -> Operand {
    operand(ty, index, Components::Four, Selection::Swizzle(s))
}

fn sel(ty: OperandType, index: &[u32], c: u8) -> Operand {
    operand(ty, index, Components::Four, Selection::Select1(c))
}

fn imm4(v: [f32; 4]) -> Operand {
    let mut o = operand(
        OperandType::IMMEDIATE32,
        &[],
        Components::Four,
        Selection::Mask(0),
    );
    o.imm = v.iter().map(|f| f.to_bits()).collect();
    o
}

fn inst(
    opcode: u16,
    controls: u32,
    extended: Vec<ExtendedOpcode>,
    ops: Vec<Operand>,
    decl: DeclKind,
) -> Instruction {
    Instruction {
        opcode,
        controls,
        extended,
        operands: ops.into_iter().collect(),
        decl,
        custom: None,
        trailing: Vec::new(),
        offset: 0,
        length: 0,
    }
}

const FLOAT4: [ReturnType; 4] = [ReturnType(5); 4];

fn tex2d_ext() -> Vec<ExtendedOpcode> {
    vec![
        ExtendedOpcode::ResourceDim {
            dim: ResourceDim(3),
            stride: 0,
            raw: 2 | (3 << 6),
        },
        ExtendedOpcode::ReturnType {
            types: FLOAT4,
            raw: 3 | 0x5555 << 6,
        },
    ]
}

/// A 2x2 PCF shadow lookup: one hardware-filtered `sample_c_lz` averaged
/// with a `gather4_c` of the neighbouring footprint.
fn shadow_pcf() -> Program {
    use OperandType as T;
    let xyxx = [0, 1, 0, 0];
    let instructions = vec![
        inst(106, 1 << 11, vec![], vec![], DeclKind::Plain),
        inst(
            89,
            0,
            vec![],
            vec![operand(
                T::CONSTANT_BUFFER,
                &[0, 1],
                Components::Four,
                Selection::Swizzle([0, 1, 2, 3]),
            )],
            DeclKind::Plain,
        ),
        inst(
            90,
            1 << 11,
            vec![],
            vec![operand(T::SAMPLER, &[0], Components::Zero, Selection::None)],
            DeclKind::Plain,
        ),
        inst(
            88,
            3 << 11,
            vec![],
            vec![operand(
                T::RESOURCE,
                &[0],
                Components::Zero,
                Selection::None,
            )],
            DeclKind::ReturnTypes(FLOAT4),
        ),
        inst(
            98,
            2 << 11,
            vec![],
            vec![mask(T::INPUT, &[1], 0b0111)],
            DeclKind::Plain,
        ),
        inst(
            101,
            0,
            vec![],
            vec![mask(T::OUTPUT, &[0], 0b1111)],
            DeclKind::Plain,
        ),
        inst(104, 0, vec![], vec![], DeclKind::Count(2)),
        // sample_c_lz r0.x, v1.xy, t0.x, s0, v1.z
        inst(
            71,
            0,
            tex2d_ext(),
            vec![
                mask(T::TEMP, &[0], 0b0001),
                swz(T::INPUT, &[1], xyxx),
                swz(T::RESOURCE, &[0], [0, 0, 0, 0]),
                operand(T::SAMPLER, &[0], Components::Zero, Selection::None),
                sel(T::INPUT, &[1], 2),
            ],
            DeclKind::Plain,
        ),
        // gather4_c with offset (1,0): the texels to the right
        inst(
            126,
            0,
            {
                let mut e = vec![ExtendedOpcode::SampleControls {
                    offsets: [1, 0, 0],
                    raw: 1 | (1 << 9),
                }];
                e.extend(tex2d_ext());
                e
            },
            vec![
                mask(T::TEMP, &[1], 0b1111),
                swz(T::INPUT, &[1], xyxx),
                swz(T::RESOURCE, &[0], [0, 1, 2, 3]),
                sel(T::SAMPLER, &[0], 0),
                sel(T::INPUT, &[1], 2),
            ],
            DeclKind::Plain,
        ),
        inst(
            17,
            0,
            vec![],
            vec![
                mask(T::TEMP, &[0], 0b0010),
                swz(T::TEMP, &[1], [0, 1, 2, 3]),
                imm4([0.25; 4]),
            ],
            DeclKind::Plain,
        ),
        inst(
            0,
            0,
            vec![],
            vec![
                mask(T::TEMP, &[0], 0b0001),
                sel(T::TEMP, &[0], 1),
                sel(T::TEMP, &[0], 0),
            ],
            DeclKind::Plain,
        ),
        inst(
            56,
            0,
            vec![],
            vec![
                mask(T::OUTPUT, &[0], 0b1111),
                swz(T::TEMP, &[0], [0, 0, 0, 0]),
                swz(T::CONSTANT_BUFFER, &[0, 0], [0, 1, 2, 3]),
            ],
            DeclKind::Plain,
        ),
        inst(62, 0, vec![], vec![], DeclKind::Plain),
    ];
    Program {
        kind: ShaderKind::Pixel,
        major: 5,
        minor: 0,
        shex: true,
        instructions,
    }
}

/// ISGN/OSGN with 24-byte elements: name offset, index, system value,
/// component type, register, mask, read/write mask.
fn signature(elements: &[(&str, u32, u32, u32, u8, u8)]) -> Vec<u8> {
    let mut head = Vec::new();
    head.extend((elements.len() as u32).to_le_bytes());
    head.extend(8u32.to_le_bytes());
    let mut names = Vec::new();
    let names_at = 8 + 24 * elements.len();
    for (name, index, sv, reg, m, rw) in elements {
        let at = (names_at + names.len()) as u32;
        names.extend(name.as_bytes());
        names.push(0);
        for w in [at, *index, *sv, 3, *reg] {
            head.extend(w.to_le_bytes());
        }
        head.extend([*m, *rw, 0, 0]);
    }
    while names.len() % 4 != 0 {
        names.push(0xab);
    }
    head.extend(names);
    head
}

fn build_shadow_pcf() -> Vec<u8> {
    let isgn = signature(&[
        ("SV_POSITION", 0, 1, 0, 0xf, 0),
        ("TEXCOORD", 0, 0, 1, 0x7, 0x7),
    ]);
    let osgn = signature(&[("SV_TARGET", 0, 0, 0, 0xf, 0)]);
    let shex: Vec<u8> = encode_program(&shadow_pcf())
        .iter()
        .flat_map(|w| w.to_le_bytes())
        .collect();
    build_container(&[(b"ISGN", &isgn), (b"OSGN", &osgn), (b"SHEX", &shex)])
}

#[test]
fn shadow_pcf_example_is_current() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("shaders");
    let bytes = build_shadow_pcf();
    if std::env::var_os("DXBC_DBG_REGENERATE").is_some() {
        std::fs::write(dir.join("shadow_pcf.dxbc"), &bytes).expect("write");
        let shader = Shader::parse(&bytes, ParseOptions::default()).expect("parses");
        std::fs::write(dir.join("shadow_pcf.asm"), listing::listing(&shader)).expect("write");
    }
    let committed = std::fs::read(dir.join("shadow_pcf.dxbc")).expect("shaders/shadow_pcf.dxbc");
    assert_eq!(
        committed, bytes,
        "shaders/shadow_pcf.dxbc is stale: regenerate it"
    );
    let shader = Shader::parse(&committed, ParseOptions::default()).expect("parses");
    let asm = std::fs::read_to_string(dir.join("shadow_pcf.asm")).expect("shaders/shadow_pcf.asm");
    assert_eq!(listing::listing(&shader), asm);
}

/// A vertex shader exercising block indentation, an immediate constant
/// buffer, relative constant-buffer indexing and integer immediates.
fn control_flow_vs() -> Program {
    use OperandType as T;
    let mut icb = inst(53, 3 << 11, vec![], vec![], DeclKind::Plain);
    icb.custom = Some(CustomData::ImmediateConstantBuffer(vec![
        1.0f32.to_bits(),
        0,
        0x7f80_0000,
        u32::MAX,
        0.5f32.to_bits(),
        16,
        0x8000_0000,
        0x7fc0_0000,
    ]));
    let mut rel = swz(T::CONSTANT_BUFFER, &[2, 0], [0, 1, 2, 3]);
    rel.indices[1] = Index::Imm32Relative(3, Box::new(sel(T::TEMP, &[0], 0)));
    let mut int1 = operand(T::IMMEDIATE32, &[], Components::One, Selection::None);
    int1.imm = [4u32].into_iter().collect();
    let mut neg = sel(T::TEMP, &[0], 1);
    neg.modifier = Modifier::Neg;
    neg.extended = true;
    let instructions = vec![
        icb,
        inst(
            89,
            1 << 11,
            vec![],
            vec![operand(
                T::CONSTANT_BUFFER,
                &[2, 8],
                Components::Four,
                Selection::Swizzle([0, 1, 2, 3]),
            )],
            DeclKind::Plain,
        ),
        inst(
            95,
            0,
            vec![],
            vec![mask(T::INPUT, &[0], 0b0001)],
            DeclKind::Plain,
        ),
        inst(
            103,
            0,
            vec![],
            vec![mask(T::OUTPUT, &[0], 0b1111)],
            DeclKind::SystemValue(1),
        ),
        inst(104, 0, vec![], vec![], DeclKind::Count(1)),
        inst(
            43,
            0,
            vec![],
            vec![mask(T::TEMP, &[0], 0b0001), sel(T::INPUT, &[0], 0)],
            DeclKind::Plain,
        ),
        inst(48, 0, vec![], vec![], DeclKind::Plain),
        inst(
            33,
            0,
            vec![],
            vec![
                mask(T::TEMP, &[0], 0b0010),
                sel(T::TEMP, &[0], 0),
                int1.clone(),
            ],
            DeclKind::Plain,
        ),
        inst(
            3,
            1 << 18,
            vec![],
            vec![sel(T::TEMP, &[0], 1)],
            DeclKind::Plain,
        ),
        inst(31, 0, vec![], vec![neg.clone()], DeclKind::Plain),
        inst(
            54,
            1 << 13,
            vec![],
            vec![mask(T::OUTPUT, &[0], 0b1111), rel],
            DeclKind::Plain,
        ),
        inst(18, 0, vec![], vec![], DeclKind::Plain),
        inst(
            30,
            0,
            vec![],
            vec![mask(T::TEMP, &[0], 0b0001), sel(T::TEMP, &[0], 0), int1],
            DeclKind::Plain,
        ),
        inst(21, 0, vec![], vec![], DeclKind::Plain),
        inst(22, 0, vec![], vec![], DeclKind::Plain),
        inst(62, 0, vec![], vec![], DeclKind::Plain),
    ];
    Program {
        kind: ShaderKind::Vertex,
        major: 4,
        minor: 0,
        shex: false,
        instructions,
    }
}

#[test]
fn snapshots_of_disasm_and_info() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("shaders");
    let bytes = std::fs::read(dir.join("shadow_pcf.dxbc")).expect("example");
    let shader = Shader::parse(&bytes, ParseOptions::default()).expect("parses");
    insta::assert_snapshot!("shadow_pcf_disasm", listing::listing(&shader));
    insta::assert_snapshot!(
        "shadow_pcf_info",
        dxbc_dbg::dxbc::info::report("shaders/shadow_pcf.dxbc", &shader)
    );

    let shdr: Vec<u8> = encode_program(&control_flow_vs())
        .iter()
        .flat_map(|w| w.to_le_bytes())
        .collect();
    let blob = build_container(&[(b"SHDR", &shdr)]);
    let vs = Shader::parse(&blob, ParseOptions::default()).expect("parses");
    insta::assert_snapshot!("control_flow_vs_disasm", vs.program_lines().join("\n"));
    insta::assert_snapshot!(
        "control_flow_vs_info",
        dxbc_dbg::dxbc::info::report("control_flow_vs", &vs)
    );

    // Errors name the byte offset.
    let mut cut = blob[..blob.len() - 6].to_vec();
    let len = cut.len() as u32;
    cut[24..28].copy_from_slice(&len.to_le_bytes());
    let err = Shader::parse(
        &cut,
        ParseOptions {
            verify_checksum: false,
        },
    )
    .expect_err("truncated");
    insta::assert_snapshot!("truncated_error", err.to_string());
}
