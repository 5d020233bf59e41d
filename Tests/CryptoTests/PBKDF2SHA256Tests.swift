import Testing
import Crypto

/// PBKDF2-HMAC-SHA256 against RFC 7914 §11 (the scrypt RFC publishes both vectors).
struct PBKDF2SHA256Tests {
    @Test func oneIterationOfPasswdAndSalt() {
        let derived = PBKDF2SHA256.derive(password: Array("passwd".utf8), salt: Array("salt".utf8), iterations: 1, length: 64)
        #expect(Hex.encode(derived) == "55ac046e56e3089fec1691c22544b605f94185216dde0465e68b9d57c20dacbc"
            + "49ca9cccf179b645991664b39d77ef317c71b845b1e30bd509112041d3a19783")
    }

    @Test func eightyThousandIterationsOfPasswordAndNaCl() {
        let derived = PBKDF2SHA256.derive(password: Array("Password".utf8), salt: Array("NaCl".utf8), iterations: 80000, length: 64)
        #expect(Hex.encode(derived) == "4ddcd8f60b98be21830cee5ef22701f9641a4418d04c0414aeff08876b34ab56"
            + "a1d425a1225833549adb841b51c9b3176a272bdebba1d078478f62b397f33c8d")
    }

    @Test func aShorterLengthIsAPrefixOfTheLongerOne() {
        let long = PBKDF2SHA256.derive(password: Array("passwd".utf8), salt: Array("salt".utf8), iterations: 1, length: 64)
        let short = PBKDF2SHA256.derive(password: Array("passwd".utf8), salt: Array("salt".utf8), iterations: 1, length: 20)
        #expect(short == Array(long.prefix(20)))
    }
}
