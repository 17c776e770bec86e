pub fn disasm(_i: &crate::isa::Inst) -> String {
    String::new()
}
pub fn disasm_kernel(_b: &[u8]) -> Result<String, super::DecodeError> {
    Ok(String::new())
}
