import Foundation
import Testing

/// The judge of the whole-word tests: how a label was broken into lines, checked against the
/// label itself with rules of its own (not the charts' break characters), so a chart that
/// breaks a word between two letters fails however its breaking code is written.
enum WholeWords {
    /// What is wrong with `lines` as the drawn form of `label`, one sentence per fault; empty
    /// when every word is whole.
    ///
    /// A fault: an ellipsis that the label does not have; lines that do not add up to the label
    /// (a character lost, added or changed); a line break between two letters or digits
    /// ("Trous / er"), or inside a number ("127. / 5").
    static func faults(label: String, lines: [String]) -> [String] {
        var faults: [String] = []
        let drawn = lines.joined(separator: " / ")
        if lines.contains(where: { $0.contains("…") || $0.contains("...") && !label.contains("...") }),
           !label.contains("…") {
            faults.append("\"\(label)\" is drawn with an ellipsis: \(drawn)")
        }
        // Walk the label, consuming each line; between lines the label may have spaces (the
        // break dropped them) or nothing (a break inside a word).
        let characters = Array(label)
        var position = 0
        for (index, line) in lines.enumerated() {
            if index > 0 {
                var skipped = false
                while position < characters.count, characters[position] == " " {
                    position += 1
                    skipped = true
                }
                if !skipped, position > 0, position < characters.count {
                    let before = characters[position - 1], after = characters[position]
                    let beforeBefore: Character? = position >= 2 ? characters[position - 2] : nil
                    if isWordCharacter(before) && isWordCharacter(after) {
                        faults.append("\"\(label)\" is broken between \"\(before)\" and \"\(after)\": \(drawn)")
                    } else if [".", ","].contains(before), let beforeBefore, beforeBefore.isNumber, after.isNumber {
                        faults.append("\"\(label)\" is broken inside a number: \(drawn)")
                    }
                }
            }
            let lineCharacters = Array(line)
            guard position + lineCharacters.count <= characters.count,
                  Array(characters[position..<position + lineCharacters.count]) == lineCharacters
            else {
                faults.append("the lines of \"\(label)\" are not the label: \(drawn)")
                return faults
            }
            position += lineCharacters.count
        }
        if characters[position...].contains(where: { $0 != " " }) {
            faults.append("\"\(label)\" is not drawn in full: \(drawn)")
        }
        return faults
    }

    /// Letters and digits: a break between two of them splits a word.
    static func isWordCharacter(_ character: Character) -> Bool { character.isLetter || character.isNumber }

    /// Records a test issue for every fault of every label.
    static func expectWhole(_ labels: [String], _ lines: [[String]], _ context: String,
                            sourceLocation: SourceLocation = #_sourceLocation) {
        #expect(labels.count == lines.count, "\(context): \(labels.count) labels but \(lines.count) laid out",
                sourceLocation: sourceLocation)
        for (label, labelLines) in zip(labels, lines) {
            for fault in faults(label: label, lines: labelLines) {
                Issue.record("\(context): \(fault)", sourceLocation: sourceLocation)
            }
        }
    }
}
