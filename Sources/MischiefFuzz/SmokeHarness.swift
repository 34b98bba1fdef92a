/// Checks the driver itself: decodes the bytes as UTF-8, repairing what is invalid, and counts the scalars.
let smokeHarness = FuzzHarness(name: "smoke", summary: "the driver itself: bytes to repaired UTF-8") { bytes in
    let text = String(decoding: bytes, as: UTF8.self)
    fuzzCheck(text.unicodeScalars.count <= bytes.count, "more scalars than bytes")
}
