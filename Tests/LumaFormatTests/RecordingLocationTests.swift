import LumaFormat
import Testing

/// What a recording's location shows of itself: a URL's password and query may be secrets (a
/// presigned URL's signature), so they never reach a message; joining a file name to a folder URL
/// puts it in the path, before the query.
@Suite("Recording locations: paths and URLs, shown without their secrets")
struct RecordingLocationTests {
    @Test("a URL shows scheme, host, port and path; the password goes and the query becomes ?…",
          arguments: [
              ("https://alice:S3CRET@bucket.example:8443/clips/shot.luma?X-Amz-Signature=SIG#t=1", "https://bucket.example:8443/clips/shot.luma?…"),
              ("http://127.0.0.1:18081/honest/toss-real.luma", "http://127.0.0.1:18081/honest/toss-real.luma"),
              ("HTTP://user@host/a.luma#frag", "HTTP://host/a.luma?…"),
              ("http://a:b@c@host/x.luma", "http://host/x.luma"),
              ("https://host?sig=1", "https://host?…"),
          ])
    func shownWithoutSecrets(typed: String, shown: String) {
        let location = RecordingLocation(typed)
        #expect(location.isURL)
        #expect(location.description == shown)
        #expect("\(location)" == shown)
        #expect(location.openableText == typed)
        #expect(location.filePath == nil)
    }

    @Test("a path is shown as it is and is its own file")
    func path() {
        let location = RecordingLocation("clips/a?b#c.luma")
        #expect(!location.isURL)
        #expect(location.description == "clips/a?b#c.luma")
        #expect(location.filePath == "clips/a?b#c.luma")
        #expect(location.fileName == "a?b#c.luma")
    }

    @Test("a URL's file name is its path's last segment, without the query")
    func fileName() {
        #expect(RecordingLocation("https://u:p@host/clips/shot.luma?sig=x").fileName == "shot.luma")
        #expect(RecordingLocation("http://host/odd%20name.luma").fileName == "odd%20name.luma")
    }

    @Test("a file name joins a folder URL's path, percent-encoded, before its query")
    func appending() {
        let folder = RecordingLocation("http://u:PW@127.0.0.1:18090/corpus/?sig=SIGQ")
        let joined = folder.appending(fileName: "toss real#1.luma")
        #expect(joined.openableText == "http://u:PW@127.0.0.1:18090/corpus/toss%20real%231.luma?sig=SIGQ")
        #expect(joined.description == "http://127.0.0.1:18090/corpus/toss%20real%231.luma?…")
        #expect(RecordingLocation("http://host/corpus").appending(fileName: "a.luma").openableText == "http://host/corpus/a.luma")
        #expect(RecordingLocation("http://host").appending(fileName: "a.luma").openableText == "http://host/a.luma")
        #expect(RecordingLocation("corpus").appending(fileName: "a.luma").openableText == "corpus/a.luma")
        #expect(RecordingLocation("corpus/").appending(fileName: "a.luma").openableText == "corpus/a.luma")
    }

    @Test("a file name that is not UTF-8 is joined to a URL by its bytes")
    func bytesOfName() {
        let name = "bad" + String(Unicode.Scalar(0xF7FF)!) + ".luma"   // the byte 0xFF, as SystemPath carries it
        #expect(RecordingLocation("http://host/").appending(fileName: name).openableText == "http://host/bad%FF.luma")
    }
}
