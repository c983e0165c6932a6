import JupyterWire

/// Which message on stdin answers one `input_request`.
///
/// The kernel drops what waits on stdin before it sends the request (as ipykernel does),
/// then takes the first `input_reply` that belongs to the request: its parent is the
/// request, or it has no parent (jupyter_client's `input()` sends none). A reply to
/// another request, or another kind of message, answers nothing. So a stale reply never
/// answers the next question, and each question gets its own answer.
///
/// Thread rules: a value.
struct InputReplyMatch: Sendable, Equatable {
    /// What to do with a message read while waiting.
    enum Verdict: Sendable, Equatable {
        /// The answer to the request.
        case answer(String)
        /// Not the answer; why, for the log.
        case drop(String)
    }

    /// The `msg_id` of the `input_request` sent.
    let requestID: String

    /// Decides what a message read on stdin is.
    func verdict(on message: Message) -> Verdict {
        guard message.type == "input_reply" else { return .drop("a '\(message.type)' message on stdin") }
        if let parent = message.parentHeaderJSON["msg_id"]?.stringValue, !parent.isEmpty, parent != requestID {
            return .drop("an input_reply to another request (\(parent))")
        }
        return .answer(message.content["value"]?.stringValue ?? "")
    }
}
