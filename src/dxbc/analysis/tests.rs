//! Hand-made programs, with the expected structure and layout worked out
//! from the D3D11 rules for each instruction, not from the pass itself.

use super::*;
use crate::dxbc::enums::{ComponentType, Interpolation, SystemValue};
use crate::dxbc::{ParseOptions, Shader, asm};

fn shader(text: &str) -> Shader {
    let bytes = asm::assemble(text).expect("assembles");
    Shader::parse(&bytes, ParseOptions::default()).expect("parses")
}

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
