import Foundation
import JSONCore
import Testing

/// JSONCore's reader and writer, checked against Foundation's JSONSerialization.
@Suite struct JSONTests {
    @Test(arguments: [
        #"null"#, #"true"#, #"false"#, #"0"#, #"-12"#, #"3.25"#, #"1e-05"#, #"-2.5E+3"#, #""""#,
        #"{"a":[1,2,{"b":null}],"c":"d"}"#, #"[[],{},[[]]]"#, #"  { "spaced" : [ 1 , 2 ] }  "#,
        #""tab\tnewline\nquote\"slash\/back\\""#, #""\u00e9\u4e2d\ud83d\ude00""#,
    ])
    func readsWhatFoundationReads(text: String) throws {
        let ours = try JSONValue(parsing: text)
        let theirs = try JSONSerialization.jsonObject(with: Data(text.utf8), options: [.fragmentsAllowed])
        #expect(ours == Self.value(from: theirs))
    }

    @Test func writesTextFoundationReadsBack() throws {
        let value: JSONValue = [
            "control": .string("a\u{01}b\u{1f}\n\r\t\"\\/é😀"), "integer": 42, "negative": -7,
            "fraction": .number(0.1), "big": .number(1e20), "list": [true, false, nil], "empty": [:],
        ]
        let text = value.serializedText(sortingKeys: true)
        let theirs = try JSONSerialization.jsonObject(with: Data(text.utf8), options: [])
        #expect(Self.value(from: theirs) == value)
        #expect(try JSONValue(parsing: text) == value)
        #expect(text.hasPrefix(#"{"big":1e+20,"control":"a\u0001b\u001f\n\r\t\"\\/é😀""#))
        #expect(JSONValue.number(.nan).serializedText() == "null")
    }

    /// Every byte that needs an escape, at every position of an eight-byte word (strings
    /// are checked eight bytes at a time), among bytes that do not.
    @Test func everyEscapeIsFoundWhereverItFalls() throws {
        let special: [Character] = ["\u{00}", "\u{01}", "\u{1f}", "\n", "\r", "\t", "\"", "\\", " ", "!", "#", "[", "]", "\u{7f}", "é"]
        for character in special {
            for offset in 0..<17 {
                let text = String(repeating: "a", count: offset) + String(character) + String(repeating: "b", count: 9)
                let written = JSONValue.string(text).serializedText()
                let theirs = try JSONSerialization.jsonObject(with: Data(written.utf8), options: [.fragmentsAllowed]) as? String
                #expect(theirs == text, "\(character.unicodeScalars.first!.value) at \(offset): \(written)")
            }
        }
    }

    @Test(arguments: [
        "", "nul", "[1,]", "{\"a\"}", "{\"a\":1,}", "\"unterminated", "01x", "[1] 2", "\"\u{01}\"",
        "\"\\x\"", "\"\\u12\"", "-", "1.", "1e", "{1:2}",
    ])
    func refusesWhatIsNotJSON(text: String) {
        #expect(throws: JSONParseError.self) { try JSONValue(parsing: text) }
    }

    @Test func refusesNestingBeyondTheLimitWithoutExhaustingTheStack() throws {
        let deep = String(repeating: "[", count: 100_000) + String(repeating: "]", count: 100_000)
        let error = try #require(throws: JSONParseError.self) { try JSONValue(parsing: deep) }
        #expect(error.reason.contains("nested deeper"))
        let allowed = String(repeating: "[", count: JSONValue.maximumNestingDepth)
            + String(repeating: "]", count: JSONValue.maximumNestingDepth)
        #expect(throws: Never.self) { try JSONValue(parsing: allowed) }
    }

    @Test func aLoneSurrogateBecomesAReplacementCharacter() throws {
        #expect(try JSONValue(parsing: #""\ud800x""#) == .string("\u{FFFD}x"))
    }

    /// Issue 37, item 8: a reader's work can be bounded by the number of values.
    @Test func aValueLimitRefusesLargerTextEarlyAndCountsEveryValue() throws {
        let text = Array(#"{"a": [1, "two", null, true, {}], "b": 2.5}"#.utf8)
        let read = try JSONValue.parsing(text, maximumValues: 8, validatingUTF8: false)
        #expect(read.count == 8, "the object, the array and its five elements, and 2.5")
        do {
            _ = try JSONValue(parsing: text, maximumValues: 7)
            Issue.record("a limit of seven values let eight through")
        } catch {
            #expect(error.exceededLimit)
        }
    }

    @Test func utf8IsCheckedWhenAsked() throws {
        let bad: [UInt8] = Array(#"{"s": ""#.utf8) + [0xFF, 0xFE] + Array(#""}"#.utf8)
        #expect(try JSONValue(parsing: bad) == ["s": "\u{FFFD}\u{FFFD}"], "repaired without the check")
        #expect(throws: JSONParseError.self) { try JSONValue(parsing: bad, validatingUTF8: true) }
        let overlong: [UInt8] = Array(#"""#.utf8) + [0xC0, 0xAF] + Array(#"""#.utf8)
        #expect(throws: JSONParseError.self) { try JSONValue(parsing: overlong, validatingUTF8: true) }
        #expect(try JSONValue(parsing: Array(#""é€😀""#.utf8), validatingUTF8: true) == "é€😀")
    }

    /// Indented text (for files people read) holds the same value, one member a line.
    @Test func indentedTextIsTheSameValueOneMemberALine() throws {
        let value: JSONValue = ["b": [1, .number(2.5), [:], []], "a": ["x": "y\n"], "c": nil]
        let text = value.serializedText(sortingKeys: true, indented: true)
        #expect(text == """
            {
              "a": {
                "x": "y\\n"
              },
              "b": [
                1,
                2.5,
                {},
                []
              ],
              "c": null
            }
            """)
        #expect(try JSONValue(parsing: text) == value)
        let theirs = try JSONSerialization.jsonObject(with: Data(text.utf8), options: [])
        #expect(Self.value(from: theirs) == value)
        #expect(JSONValue.number(3).serializedText(indented: true) == "3")
        #expect(value.serializedText(sortingKeys: true) == #"{"a":{"x":"y\n"},"b":[1,2.5,{},[]],"c":null}"#)
    }

    @Test func doubleValueIsAnyNumberAndOnlyANumber() {
        #expect(JSONValue.number(0.25).doubleValue == 0.25)
        #expect(JSONValue.number(3).doubleValue == 3)
        #expect(JSONValue.string("3").doubleValue == nil)
        #expect(JSONValue.bool(true).doubleValue == nil)
    }

    /// Foundation's parse result as a JSONValue.
    static func value(from object: Any) -> JSONValue {
        switch object {
        case is NSNull: return .null
        case let number as NSNumber where String(describing: type(of: number)).contains("Boolean"): return .bool(number.boolValue)
        case let number as NSNumber: return .number(number.doubleValue)
        case let string as String: return .string(string)
        case let array as [Any]: return .array(array.map(value(from:)))
        case let dictionary as [String: Any]: return .object(dictionary.mapValues(value(from:)))
        default: return .null
        }
    }
}
