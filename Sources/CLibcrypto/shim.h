#ifndef LUMATRACE_CLIBCRYPTO_SHIM_H
#define LUMATRACE_CLIBCRYPTO_SHIM_H
// OpenSSL 3's libcrypto (Debian libssl-dev), for SHA-256 only (LumaBase's SHA256Hasher): the EVP
// digest calls, a library context of our own, and the error queue for the message of a failure.
// Deprecated interfaces (SHA256_Init, ENGINE) are hidden, so none can creep in.
#define OPENSSL_NO_DEPRECATED
#include <openssl/crypto.h>
#include <openssl/err.h>
#include <openssl/evp.h>
#include <openssl/provider.h>
#endif
