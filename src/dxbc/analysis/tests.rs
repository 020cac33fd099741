//! Hand-made programs, with the expected structure and layout worked out
//! from the D3D11 rules for each instruction, not from the pass itself.

use super::*;
use crate::dxbc::analysis::{Check, IndexableTemp};
use crate::dxbc::asm::test_shader as shader;
use crate::dxbc::enums::{ComponentType, Interpolation, SystemValue};

fn blocks(body: &str) -> Result<Blocks, AnalysisError> {
    Blocks::of(&shader(&format!("ps_4_0\ndcl_temps 1\n{body}")).program)
}

#[test]
fn matches_every_opener_with_its_closer() {
    // 0 dcl_temps; the body starts at 1.
    let b = blocks(
        "if_nz r0.x\n\
         mov r0.y, l(1.0)\n\
         else\n\
         loop\n\
         breakc_z r0.x\n\
         switch r0.z\n\
         case l(3)\n\
         break\n\
         case l(7)\n\
         default\n\
         break\n\
         endswitch\n\
         endloop\n\
         endif\n\
         ret\n",
    )
    .expect("balanced");
    assert_eq!(b.entry, 1);
    // if (1) has its else at 3 and both close at 14.
    assert_eq!(b.else_of[1], Some(3));
    assert_eq!(b.end_of[1], Some(14));
    assert_eq!(b.end_of[3], Some(14));
    // loop (4) .. endloop (13).
    assert_eq!(b.end_of[4], Some(13));
    assert_eq!(b.loop_of[13], Some(4));
    // switch (6) .. endswitch (12) with its two case values.
    assert_eq!(b.end_of[6], Some(12));
    assert_eq!(b.cases[6], vec![3, 7]);
    assert!(b.cases[1].is_empty());
    assert_eq!(b.else_of[4], None);
}

#[test]
fn labels_are_found_by_number() {
    let b = blocks("call l2\nret\nlabel l2\nmov r0.x, l(1.0)\nret\n").expect("balanced");
    // 0 dcl_temps, 1 call, 2 ret, 3 label l2.
    assert_eq!(b.labels, vec![(2, 3)]);
    assert_eq!(b.label(2), Some(3));
    assert_eq!(b.label(0), None);
}

#[test]
fn program_without_code_has_its_entry_at_the_end() {
    let b = Blocks::of(&shader("ps_4_0\ndcl_temps 1\n").program).expect("empty");
    assert_eq!(b.entry, 1);
}

fn error(body: &str) -> (usize, String) {
    let text = format!("ps_4_0\ndcl_temps 1\n{body}");
    let s = shader(&text);
    let e = Blocks::of(&s.program).expect_err("malformed");
    // The offset is the named instruction's, so a reader can find the bytes.
    assert_eq!(e.offset, s.program.instructions[e.index].offset);
    (e.index, e.message)
}

#[test]
fn a_stray_closer_is_named() {
    assert_eq!(
        error("mov r0.x, l(1.0)\nendif\nret\n"),
        (2, "`endif` without `if`".to_string())
    );
    // Closing the inner block with the outer's closer.
    assert_eq!(
        error("loop\nif_nz r0.x\nendloop\nendif\nret\n"),
        (3, "`endloop` without `loop`".to_string())
    );
    assert_eq!(
        error("loop\nelse\nendloop\nret\n"),
        (2, "`else` without `if`".to_string())
    );
    assert_eq!(
        error("if_z r0.x\nelse\nelse\nendif\nret\n"),
        (3, "second `else` for one `if`".to_string())
    );
}

#[test]
fn an_unclosed_block_is_named_at_its_opener() {
    assert_eq!(
        error("loop\nif_nz r0.x\nendif\nret\n"),
        (1, "block is never closed".to_string())
    );
    // A subroutine cannot close what the code before it opened.
    assert_eq!(
        error("if_nz r0.x\nret\nlabel l0\nendif\nret\n"),
        (1, "block is never closed".to_string())
    );
}

#[test]
fn break_continue_and_case_need_their_block() {
    assert_eq!(
        error("if_nz r0.x\nbreak\nendif\nret\n"),
        (2, "`break` outside `loop` or `switch`".to_string())
    );
    assert_eq!(
        error("switch r0.x\ncase l(0)\ncontinue\nendswitch\nret\n"),
        (3, "`continue` outside `loop`".to_string())
    );
    assert_eq!(
        error("loop\ncase l(1)\nendloop\nret\n"),
        (2, "`case` outside `switch`".to_string())
    );
    assert_eq!(
        error("default\nret\n"),
        (1, "`default` outside `switch`".to_string())
    );
    // Inside an `if` inside a loop, both are allowed.
    assert!(blocks("loop\nif_nz r0.x\ncontinue\nendif\nbreak\nendloop\nret\n").is_ok());
}

#[test]
fn pixel_inputs_from_declarations() {
    let s = shader(
        "ps_4_0\n\
         dcl_input_ps_siv linear noperspective v0.xy, position\n\
         dcl_input_ps linear centroid v1.xy\n\
         dcl_input_ps linear centroid v1.z\n\
         dcl_input_ps constant v3.w\n\
         dcl_input_ps_sgv v4.y, is_front_face\n\
         dcl_output o0.xyzw\n\
         mov o0.xyzw, v1.xyzz\n\
         ret\n",
    );
    let a = Analysis::of_shader(&s).expect("balanced");
    let regs: Vec<u32> = a.inputs.registers.iter().map(|r| r.register).collect();
    assert_eq!(regs, vec![0, 1, 3, 4]);
    assert_eq!(a.inputs.count(), 5);
    let v0 = a.inputs.get(0).unwrap();
    assert_eq!(v0.mask, 0b0011);
    assert_eq!(v0.system_value, SystemValue::Position);
    assert_eq!(v0.interpolation, Some(Interpolation::LinearNoPerspective));
    // Two declarations of one register: the masks join.
    let v1 = a.inputs.get(1).unwrap();
    assert_eq!(v1.mask, 0b0111);
    assert_eq!(v1.system_value, SystemValue::Undefined);
    assert_eq!(v1.interpolation, Some(Interpolation::LinearCentroid));
    assert_eq!(v1.component_type, ComponentType::Float32);
    assert!(a.inputs.get(2).is_none());
    assert_eq!(
        a.inputs.get(3).unwrap().interpolation,
        Some(Interpolation::Constant)
    );
    assert_eq!(a.inputs.get(3).unwrap().first_component(), 3);
    // A system-generated value is constant across the primitive even though
    // the token names no mode, and SV_IsFrontFace is a uint.
    let v4 = a.inputs.declared_with(SystemValue::IsFrontFace).unwrap();
    assert_eq!(v4.register, 4);
    assert_eq!(v4.interpolation, Some(Interpolation::Constant));
    assert_eq!(v4.first_component(), 1);
    assert_eq!(v4.component_type, ComponentType::Uint32);
    assert_eq!(a.outputs.registers.len(), 1);
    assert_eq!(a.outputs.get(0).unwrap().mask, 0b1111);
    assert_eq!(a.outputs.get(0).unwrap().interpolation, None);
}

#[test]
fn signature_types_and_undeclared_elements() {
    let s = shader(
        "//\n\
         // Generated by Microsoft (R) HLSL Shader Compiler 10.1\n\
         //\n\
         //\n\
         // Input signature:\n\
         //\n\
         // Name                 Index   Mask Register SysValue  Format   Used\n\
         // -------------------- ----- ------ -------- -------- ------- ------\n\
         // TEXCOORD                 0   xy          0     NONE    uint   xy  \n\
         // TEXCOORD                 1   xyzw        2     NONE   float       \n\
         //\n\
         //\n\
         // Output signature:\n\
         //\n\
         // Name                 Index   Mask Register SysValue  Format   Used\n\
         // -------------------- ----- ------ -------- -------- ------- ------\n\
         // SV_Position              0   xyzw        0      POS   float   xyzw\n\
         // TEXCOORD                 0   xy          1     NONE     int   xy  \n\
         //\n\
         vs_4_0\n\
         dcl_input v0.xy\n\
         dcl_output_siv o0.xyzw, position\n\
         dcl_output o1.xy\n\
         mov o0.xyzw, l(0,0,0,0)\n\
         mov o1.xy, v0.xyxx\n\
         ret\n",
    );
    let a = Analysis::of_shader(&s).expect("balanced");
    let v0 = a.inputs.get(0).unwrap();
    assert_eq!(v0.component_type, ComponentType::Uint32);
    assert!(v0.declared);
    assert_eq!(v0.interpolation, None);
    // In the signature, never declared: listed, with no declared components.
    let v2 = a.inputs.get(2).unwrap();
    assert!(!v2.declared);
    assert_eq!((v2.mask, v2.signature_mask), (0, 0b1111));
    assert_eq!(v2.component_type, ComponentType::Float32);
    let o0 = a.outputs.get(0).unwrap();
    assert_eq!(o0.system_value, SystemValue::Position);
    assert_eq!(
        a.outputs.get(1).unwrap().component_type,
        ComponentType::Sint32
    );
    // Without the signatures, only the declarations speak.
    let bare = Analysis::of(&s.program).expect("balanced");
    assert_eq!(
        bare.inputs.get(0).unwrap().component_type,
        ComponentType::Float32
    );
    assert!(bare.inputs.get(2).is_none());
}

/// The analysis of a hand-made program, with the first failure's
/// instruction index, rule and message.
fn failure(text: &str) -> (usize, Check, String) {
    let s = shader(text);
    let e = Analysis::of_shader(&s).expect_err("rejected");
    assert_eq!(e.offset, s.program.instructions[e.index].offset);
    (e.index, e.check, e.message)
}

#[test]
fn a_temp_past_dcl_temps_is_named() {
    // 0 dcl_output, 1 dcl_temps 2, 2 mov r1 (r0 and r1 exist), 3 mov r2.
    let (index, check, message) = failure(
        "ps_4_0\ndcl_output o0.xyzw\ndcl_temps 2\n\
         mov r1.x, l(1.0)\nmov r2.x, l(1.0)\nret\n",
    );
    assert_eq!((index, check), (3, Check::Range));
    assert_eq!(message, "r2 used, but `dcl_temps` declares 2");
    // Without `dcl_temps` there are no temps at all.
    assert_eq!(
        failure("ps_4_0\ndcl_output o0.xyzw\nmov o0.xyzw, r0.xyzw\nret\n").2,
        "r0 used, but `dcl_temps` declares 0"
    );
}

#[test]
fn a_temp_in_a_relative_index_is_checked_too() {
    // 0 dcl_constantbuffer, 1 dcl_output, 2 dcl_temps 1, 3 mov reading
    // cb0[r4.x + 0]: the index register r4 is past the one temp.
    let (index, _, message) = failure(
        "ps_4_0\ndcl_constantbuffer cb0[4], dynamicIndexed\ndcl_output o0.xyzw\ndcl_temps 1\n\
         mov o0.xyzw, cb0[r4.x + 0].xyzw\nret\n",
    );
    assert_eq!(
        (index, message.as_str()),
        (3, "r4 used, but `dcl_temps` declares 1")
    );
}

#[test]
fn indexable_temps_must_be_declared_and_immediate_indices_in_range() {
    let prefix = "ps_5_0\ndcl_output o0.xyzw\ndcl_temps 1\ndcl_indexableTemp x0[4], 4\n";
    // x0 has elements 0..3: x0[3] and a relative index are fine (the
    // relative one is only known when the shader runs), x0[4] is not.
    let ok = shader(&format!(
        "{prefix}mov x0[3].xyzw, l(1.0,1.0,1.0,1.0)\nmov r0.x, x0[r0.x + 9].x\nret\n"
    ));
    let a = Analysis::of_shader(&ok).expect("in range");
    assert_eq!(
        a.registers.indexable.get(&0),
        Some(&IndexableTemp {
            size: 4,
            components: 4
        })
    );
    // 0 dcl_output, 1 dcl_temps, 2 dcl_indexableTemp, 3 the first
    // instruction.
    assert_eq!(
        failure(&format!("{prefix}mov x0[4].x, l(1.0)\nret\n")),
        (
            3,
            Check::Range,
            "x0[4] used, but x0 has 4 elements".to_string()
        )
    );
    assert_eq!(
        failure(&format!("{prefix}mov x1[0].x, l(1.0)\nret\n")),
        (3, Check::Range, "x1 used, but never declared".to_string())
    );
}

#[test]
fn inputs_and_outputs_must_be_declared_or_in_the_signature() {
    // 0 dcl_input_ps v0, 1 dcl_output o0, 2 mov reads v1: declared nowhere.
    assert_eq!(
        failure(
            "ps_4_0\ndcl_input_ps linear v0.xy\ndcl_output o0.xyzw\n\
             mov o0.xyzw, v1.xyzw\nret\n"
        ),
        (
            2,
            Check::Range,
            "v1 used, but neither declared nor in the input signature".to_string()
        )
    );
    assert_eq!(
        failure(
            "ps_4_0\ndcl_input_ps linear v0.xy\ndcl_output o0.xyzw\n\
             mov o1.xyzw, v0.xyxy\nret\n"
        )
        .2,
        "o1 used, but neither declared nor in the output signature"
    );
}

#[test]
fn constant_buffer_rows_must_be_within_the_declared_size() {
    // cb0[2] holds rows 0 and 1.
    let prefix = "ps_4_0\ndcl_constantbuffer cb0[2], immediateIndexed\ndcl_output o0.xyzw\n";
    let ok = shader(&format!("{prefix}mov o0.xyzw, cb0[1].xyzw\nret\n"));
    let a = Analysis::of_shader(&ok).expect("in range");
    assert_eq!(
        a.registers.constant_buffers.iter().collect::<Vec<_>>(),
        vec![(&0, &2)]
    );
    assert_eq!(
        failure(&format!("{prefix}mov o0.xyzw, cb0[2].xyzw\nret\n")),
        (
            2,
            Check::Range,
            "cb0[2] used, but cb0 declares 2 rows".to_string()
        )
    );
}

#[test]
fn icb_rows_must_be_within_the_icb() {
    let icb = "dcl_immediateConstantBuffer { { 1.0, 2.0, 3.0, 4.0},\n\
               { 5.0, 6.0, 7.0, 8.0} }\n";
    // 0 the ICB (two rows), 1 dcl_output, 2 the first instruction.
    let ok = shader(&format!(
        "ps_4_0\n{icb}dcl_output o0.xyzw\nmov o0.xyzw, icb[1].xyzw\nret\n"
    ));
    assert_eq!(
        Analysis::of_shader(&ok)
            .expect("in range")
            .registers
            .icb_rows,
        Some(2)
    );
    assert_eq!(
        failure(&format!(
            "ps_4_0\n{icb}dcl_output o0.xyzw\nmov o0.xyzw, icb[2].xyzw\nret\n"
        )),
        (
            2,
            Check::Range,
            "icb[2] used, but the icb has 2 rows".to_string()
        )
    );
    // No ICB at all: even a relative read names nothing that exists.
    assert_eq!(
        failure(
            "ps_4_0\ndcl_output o0.xyzw\ndcl_temps 1\n\
             mov o0.xyzw, icb[r0.x + 0].xyzw\nret\n"
        )
        .2,
        "icb used, but no immediate constant buffer is declared"
    );
}

#[test]
fn undeclared_resources_are_named_at_their_first_use() {
    let prefix = "ps_4_0\ndcl_sampler s0, mode_default\n\
                  dcl_resource_texture2d (float,float,float,float) t0\n\
                  dcl_input_ps linear v0.xy\ndcl_output o0.xyzw\ndcl_temps 1\n";
    // 0..4 the declarations, 5 the first sample.
    let ok = shader(&format!(
        "{prefix}sample r0.xyzw, v0.xyxx, t0.xyzw, s0\nmov o0.xyzw, r0.xyzw\nret\n"
    ));
    let a = Analysis::of_shader(&ok).expect("declared");
    assert_eq!(a.resources.textures.declared.get(&0), Some(&1));
    assert_eq!(a.resources.textures.used.get(&0), Some(&5));
    assert_eq!(a.resources.samplers.declared.get(&0), Some(&0));
    assert!(a.resources.samplers.is_used(0));
    assert!(a.resources.constant_buffers.used.is_empty());
    // t1 and s1 are used by instruction 6; t1 is listed first.
    assert_eq!(
        failure(&format!(
            "{prefix}sample r0.xyzw, v0.xyxx, t0.xyzw, s0\n\
             sample r0.xyzw, v0.xyxx, t1.xyzw, s1\nret\n"
        )),
        (
            6,
            Check::Undeclared,
            "t1 used, but never declared".to_string()
        )
    );
    assert_eq!(
        failure(&format!(
            "{prefix}sample r0.xyzw, v0.xyxx, t0.xyzw, s2\nret\n"
        ))
        .2,
        "s2 used, but never declared"
    );
    assert_eq!(
        failure(&format!("{prefix}mov o0.xyzw, cb3[0].xyzw\nret\n")),
        (
            5,
            Check::Undeclared,
            "cb3 used, but never declared".to_string()
        )
    );
    assert_eq!(
        failure(
            &format!("{prefix}ld_uav_typed r0.xyzw, l(0,0,0,0), u1.xyzw\nret\n")
                .replace("ps_4_0", "ps_5_0")
        )
        .2,
        "u1 used, but never declared"
    );
}

#[test]
fn the_shader_keeps_its_analysis() {
    let s = shader("ps_4_0\ndcl_output o0.xyzw\ndcl_temps 3\nmov o0.xyzw, r2.xyzw\nret\n");
    let a = s.analysis().expect("valid");
    assert_eq!(a.registers.temps, 3);
    // Worked out once: the second call returns the same value.
    assert!(std::ptr::eq(a, s.analysis().expect("valid")));
    let bad = shader("ps_4_0\ndcl_output o0.xyzw\ndcl_temps 2\nmov o0.xyzw, r2.xyzw\nret\n");
    assert_eq!(bad.analysis().expect_err("r2 past 2").index, 2);
}

#[test]
fn each_hull_shader_phase_declares_its_own_temps() {
    let hull = |join_temps: &str| {
        format!(
            "hs_5_0\nhs_decls\ndcl_input_control_point_count 1\n\
             dcl_output_control_point_count 1\ndcl_tessellator_domain domain_isoline\n\
             dcl_tessellator_partitioning partitioning_integer\n\
             dcl_tessellator_output_primitive output_line\n\
             hs_fork_phase\ndcl_output_siv o0.x, finalLineDetailTessFactor\ndcl_temps 2\n\
             mov r1.x, l(1.0)\nmov o0.x, r1.x\nret\n\
             hs_join_phase\ndcl_output_siv o1.x, finalLineDensityTessFactor\n{join_temps}\
             mov r1.x, l(1.0)\nmov o1.x, r1.x\nret\n"
        )
    };
    let ok = shader(&hull("dcl_temps 2\n"));
    assert_eq!(
        Analysis::of_shader(&ok).expect("declared").registers.temps,
        2
    );
    // The join phase declares no temps of its own: the fork phase's two do
    // not carry over. 0 hs_decls, 1..5 its declarations, 6 hs_fork_phase,
    // 7 dcl_output_siv, 8 dcl_temps, 9..11 body, 12 hs_join_phase,
    // 13 dcl_output_siv, 14 its first mov.
    let (index, check, message) = failure(&hull(""));
    assert_eq!((index, check), (14, Check::Range));
    assert_eq!(message, "r1 used, but `dcl_temps` declares 0");
}
