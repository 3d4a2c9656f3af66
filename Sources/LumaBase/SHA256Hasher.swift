import CLibcrypto

/// SHA-256 of bytes given in pieces, computed by the system's libcrypto (OpenSSL 3): the digest a
/// recording keeps of its frames, an event log of its events, a corpus listing of its goldens, and
/// the seed of every derived identifier.
///
/// A value, as the bytes it hashes are: a copy goes on independently of the original, and
/// ``finalize()`` leaves the hasher as it was, so more bytes may follow and a later digest covers
/// them all. The pieces do not matter, only the bytes: "ab" then "c" hashes as "abc".
///
/// ```swift
/// var hasher = SHA256Hasher()
/// hasher.update(Array("ab".utf8))
/// hasher.update(Array("c".utf8))
/// hasher.finalize().hexString        // "ba7816bf…f20015ad"
/// SHA256Hasher.hash(Array("abc".utf8)) // the same 32 bytes, in one call
/// ```
///
/// Why libcrypto: it is on every Linux machine that builds Lumatrace (Debian's libssl-dev), and its
/// SHA-256 uses the processor's SHA instructions where there are some. The package it replaces,
/// swift-crypto, compiled its own copy of BoringSSL in every fresh build, and in the first build of
/// every analyzer package, for this one function.
///
/// Nothing in hashing can fail but memory. libcrypto's allocations can, and then the process stops
/// with a message naming the call, as it does when Swift itself runs out of memory; there is no
/// error to handle. What could fail for other reasons is settled once, here: SHA-256 is taken from
/// libcrypto's built-in default provider in a library context of Lumatrace's own, never from the
/// machine's OpenSSL configuration, so no `openssl.cnf` or `OPENSSL_CONF` can take it away or
/// replace it (a digest names a recording on every machine; it must not depend on one's settings).
public struct SHA256Hasher: Sendable {
    /// The length of a digest: 32 bytes.
    public static let byteCount = 32

    /// The OpenSSL context, shared between copies until one of them is updated (copy-on-write).
    private var context: Context

    /// A hasher that has seen no bytes yet.
    public init() { context = Context() }

    /// Adds `bytes` to what is hashed.
    public mutating func update(_ bytes: UnsafeRawBufferPointer) {
        guard !bytes.isEmpty else { return }
        // Another copy of this hasher holds the same context: give this one its own before changing it.
        if !isKnownUniquelyReferenced(&context) { context = Context(copying: context) }
        context.update(bytes)
    }

    /// Adds `bytes` to what is hashed.
    public mutating func update(_ bytes: [UInt8]) {
        bytes.withUnsafeBytes { update($0) }
    }

    /// The digest of every byte added so far (``byteCount`` bytes). The hasher is unchanged: it can
    /// take more bytes, and finalize again.
    public func finalize() -> [UInt8] {
        // OpenSSL's final step ends the context it is given, so it is given a copy.
        Context(copying: context).finish()
    }

    /// The digest of `bytes`, in one call.
    public static func hash(_ bytes: UnsafeRawBufferPointer) -> [UInt8] {
        let context = Context()
        if !bytes.isEmpty { context.update(bytes) }
        return context.finish()
    }

    /// The digest of `bytes`, in one call.
    public static func hash(_ bytes: [UInt8]) -> [UInt8] {
        bytes.withUnsafeBytes { hash($0) }
    }
}

extension SHA256Hasher {
    /// One `EVP_MD_CTX`, freed with its owner. Only a context no other hasher holds is updated or
    /// finished (``SHA256Hasher`` copies a shared one first, and finishes a copy); a shared one is
    /// only read, by `EVP_MD_CTX_copy_ex`, which is safe from several threads at once.
    private final class Context: @unchecked Sendable {
        /// The `EVP_MD_CTX *`.
        private let pointer: OpaquePointer

        /// A context ready for SHA-256's first bytes.
        init() {
            pointer = Self.allocate()
            libcryptoRequire(EVP_DigestInit_ex2(pointer, Algorithm.sha256, nil) == 1, "EVP_DigestInit_ex2")
        }

        /// A context that has hashed what `other` has, and goes on alone.
        init(copying other: Context) {
            pointer = Self.allocate()
            libcryptoRequire(EVP_MD_CTX_copy_ex(pointer, other.pointer) == 1, "EVP_MD_CTX_copy_ex")
        }

        deinit { EVP_MD_CTX_free(pointer) }

        private static func allocate() -> OpaquePointer {
            let context = EVP_MD_CTX_new()
            libcryptoRequire(context != nil, "EVP_MD_CTX_new")
            return context.unsafelyUnwrapped
        }

        /// Hashes `bytes` (not empty: an empty buffer may have no address).
        func update(_ bytes: UnsafeRawBufferPointer) {
            libcryptoRequire(EVP_DigestUpdate(pointer, bytes.baseAddress, bytes.count) == 1, "EVP_DigestUpdate")
        }

        /// The digest. The context can take no more bytes after this.
        func finish() -> [UInt8] {
            [UInt8](unsafeUninitializedCapacity: SHA256Hasher.byteCount) { buffer, initialized in
                var length: UInt32 = 0
                libcryptoRequire(EVP_DigestFinal_ex(pointer, buffer.baseAddress, &length) == 1, "EVP_DigestFinal_ex")
                precondition(length == SHA256Hasher.byteCount, "libcrypto's SHA-256 gave a digest of \(length) bytes, not 32")
                initialized = Int(length)
            }
        }
    }

    /// SHA-256 as libcrypto implements it (`EVP_MD *`), fetched once for the whole process.
    private enum Algorithm {
        /// Fetched from the built-in default provider in a library context of Lumatrace's own: a new
        /// library context reads no configuration file, and the default provider is compiled into
        /// libcrypto, so only memory can make this fail. An `EVP_MD` may be used by many threads at
        /// once. The context and the algorithm live as long as the process: nothing frees them.
        nonisolated(unsafe) static let sha256: OpaquePointer = {
            let library = OSSL_LIB_CTX_new()
            libcryptoRequire(library != nil, "OSSL_LIB_CTX_new")
            libcryptoRequire(OSSL_PROVIDER_load(library, "default") != nil, "OSSL_PROVIDER_load(\"default\")")
            let algorithm = EVP_MD_fetch(library, "SHA2-256", nil)
            libcryptoRequire(algorithm != nil, "EVP_MD_fetch(\"SHA2-256\")")
            return algorithm.unsafelyUnwrapped
        }()
    }
}

/// Stops the process when a libcrypto call `call` did not succeed, with OpenSSL's own words for why
/// (its error queue, of this thread): for SHA-256 that can only be memory running out.
private func libcryptoRequire(_ succeeded: Bool, _ call: @autoclosure () -> String) {
    guard !succeeded else { return }
    var words = [CChar](repeating: 0, count: 256)
    let code = ERR_get_error()
    if code != 0 { ERR_error_string_n(code, &words, words.count) }
    let reason = code == 0 ? "no OpenSSL error recorded" : String(decoding: words.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    preconditionFailure("SHA-256: libcrypto's \(call()) failed (\(reason)); out of memory?")
}
