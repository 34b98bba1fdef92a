extension XMLTokenizer {
    /// Checks that the bytes from the tokenizer's position are UTF-8 and that every character is one XML allows
    /// (no control characters but tab and line breaks, no U+FFFE or U+FFFF), so tokens can be sliced freely.
    func validateCharacters() throws(XMLSyntaxError) {
        var i = index
        while i < bytes.count {
            let lead = bytes[i]
            if lead < 0x80 {
                guard XMLTokenizer.isCharacter(UInt32(lead)) else {
                    throw error("a control character (byte 0x\(hex(lead))) is not allowed in XML", at: mark(at: i))
                }
                i += 1
                continue
            }
            let (length, minimum): (Int, UInt32) =
                switch lead {
                case 0xC2...0xDF: (2, 0x80)
                case 0xE0...0xEF: (3, 0x800)
                case 0xF0...0xF4: (4, 0x10000)
                default: (0, 0)
                }
            var value = UInt32(lead) & (0xFF >> (length + 1))
            var valid = length > 0 && i + length <= bytes.count
            if valid {
                for offset in 1..<length {
                    let next = bytes[i + offset]
                    guard next & 0xC0 == 0x80 else {
                        valid = false
                        break
                    }
                    value = value << 6 | UInt32(next & 0x3F)
                }
            }
            // Overlong forms, surrogates and values past U+10FFFF are not UTF-8.
            guard valid, value >= minimum, value <= 0x10FFFF, !(0xD800...0xDFFF).contains(value) else {
                throw error("invalid UTF-8 (byte 0x\(hex(lead))); save the file as UTF-8", at: mark(at: i))
            }
            guard XMLTokenizer.isCharacter(value) else {
                throw error(
                    "character U+\(String(value, radix: 16, uppercase: true)) is not allowed in XML",
                    at: mark(at: i))
            }
            i += length
        }
    }

    private func hex(_ byte: UInt8) -> String {
        let digits = String(byte, radix: 16, uppercase: true)
        return byte < 0x10 ? "0" + digits : digits
    }
}
