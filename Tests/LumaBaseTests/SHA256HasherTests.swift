import LumaBase
import Testing

/// `SHA256Hasher` gives FIPS 180-2's digests (its appendix B), however the bytes are cut into
/// pieces, and behaves as a value: a wrong binding of libcrypto, a digest finished twice or a
/// context shared between copies fails here before any golden log does.
@Suite("SHA256Hasher: FIPS 180-2's test vectors, in any pieces, as a value")
struct SHA256HasherTests {
    /// FIPS 180-2, appendix B.1, B.2 and B.3, and the empty message.
    static let abc = "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"
    static let empty = "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"
    static let twoBlocks = "abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq"  // 448 bits
    static let twoBlocksDigest = "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1"
    static let millionA = "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0"

    @Test("\"abc\", the empty message and the 448-bit two-block message, in one call and streamed")
    func shortMessages() {
        for (message, digest) in [("abc", Self.abc), ("", Self.empty), (Self.twoBlocks, Self.twoBlocksDigest)] {
            let bytes = Array(message.utf8)
            #expect(SHA256Hasher.hash(bytes).hexString == digest, "hash(\"\(message)\")")
            bytes.withUnsafeBytes { #expect(SHA256Hasher.hash($0).hexString == digest, "hash(raw \"\(message)\")") }
            var hasher = SHA256Hasher()
            hasher.update(bytes)
            #expect(hasher.finalize().hexString == digest, "update then finalize \"\(message)\"")
            #expect(hasher.finalize().count == SHA256Hasher.byteCount)
        }
        #expect(SHA256Hasher().finalize().hexString == Self.empty, "a hasher given nothing")
    }

    @Test("one million 'a' fed in uneven pieces, across every block boundary, with empty ones between")
    func millionInPieces() {
        let a = [UInt8](repeating: UInt8(ascii: "a"), count: 1_000_000)
        // Around SHA-256's 64-byte block and its 56-byte padding limit, and larger than a block.
        let sizes = [1, 0, 55, 56, 57, 63, 64, 65, 127, 128, 129, 1000, 4097, 3]
        var hasher = SHA256Hasher()
        var fed = 0, piece = 0
        a.withUnsafeBytes { all in
            while fed < all.count {
                let count = min(sizes[piece % sizes.count], all.count - fed)
                hasher.update(UnsafeRawBufferPointer(rebasing: all[fed..<fed + count]))
                fed += count
                piece += 1
            }
        }
        #expect(piece > 1000, "fed in \(piece) pieces")
        #expect(hasher.finalize().hexString == Self.millionA)
        #expect(SHA256Hasher.hash(a).hexString == Self.millionA, "in one call")
    }

    @Test("finalize leaves the hasher going; a copy hashes on alone, and so does the original")
    func valueSemantics() {
        var hasher = SHA256Hasher()
        hasher.update(Array("ab".utf8))
        let copy = hasher
        #expect(hasher.finalize() == SHA256Hasher.hash(Array("ab".utf8)))
        hasher.update(Array("c".utf8))
        #expect(hasher.finalize().hexString == Self.abc, "finalize did not end the hasher")
        #expect(hasher.finalize().hexString == Self.abc, "finalize twice gives the same digest")
        #expect(copy.finalize() == SHA256Hasher.hash(Array("ab".utf8)), "the copy did not see the original's \"c\"")
        var other = copy
        other.update(Array("cdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq".utf8))
        #expect(other.finalize().hexString == Self.twoBlocksDigest)
        #expect(copy.finalize() == SHA256Hasher.hash(Array("ab".utf8)), "the copy's own copy did not change it")
    }

    @Test("hashers on several threads at once give the digests one thread gives")
    func concurrentHashers() async {
        let shared = { var h = SHA256Hasher(); h.update(Array("ab".utf8)); return h }()
        let digests = await withTaskGroup(of: (String, String).self) { group in
            for _ in 0..<8 {
                group.addTask {
                    var own = shared
                    own.update(Array("c".utf8))
                    return (own.finalize().hexString, SHA256Hasher.hash(Array(Self.twoBlocks.utf8)).hexString)
                }
            }
            return await group.reduce(into: []) { $0.append($1) }
        }
        #expect(digests.count == 8)
        #expect(digests.allSatisfy { $0 == (Self.abc, Self.twoBlocksDigest) })
    }
}
