// The kept bit, shared by every pass that reads or writes max-allowable-size texels: MAS <= b <=
// 2048 never reaches bit 31, so bit 31 carries "this element itself is kept" and the jump loop
// reads one texel per step (max-allowable-size.glsl writes it, the searches read it).
const uint KEPT_BIT = 0x80000000u;
const uint MAS_MASK = 0x7FFFFFFFu;
