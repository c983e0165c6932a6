"""The jupyter-kernel-test suite against the installed Benchbook kernelspec."""
import unittest

import jupyter_kernel_test

from benchbook_kit.kernel import KERNEL_NAME


class BenchbookKernelConformance(jupyter_kernel_test.KernelTests):
    kernel_name = KERNEL_NAME
    language_name = "swift"
    file_extension = ".swift"

    code_hello_world = 'print("hello, world")'
    code_stderr = 'import Foundation\nFileHandle.standardError.write("oops\\n".data(using: .utf8)!)'
    code_generate_error = "struct Oops: Error {}\nthrow Oops()"
    code_execute_result = [
        {"code": "6 * 7", "result": "42"},
        {"code": '"bench" + "book"', "result": '"benchbook"'},
        {"code": "[1, 2, 3].map { $0 * 2 }", "result": "[2, 4, 6]"},
    ]
    code_display_data = [
        {"code": 'display("a display")', "mime": "text/plain"},
        {"code": 'display(MimeBundle(plainText: "x").adding("text/html", "<b>x</b>"))', "mime": "text/plain"},
    ]
    code_history_pattern = "6 * *"
    supported_history_operations = ("tail", "range", "search")
    complete_code_samples = ["let x = 1", "print(1)", "func f() {}\nf()", "struct S { var a: Int }"]
    incomplete_code_samples = ["func f() {", "let values = [1,\n2,", "if true {\n    print(1)", 'let s = """\nabc']
    invalid_code_samples = ["let = 5", "}", "print(1))"]
    code_clear_output = "clearOutput()"
    completion_samples = [
        {"text": "let zebraCount = 3\nzebraC", "matches": ["zebraCount"]},
        {"text": "Int.bitW", "matches": ["bitWidth"]},
    ]
    code_inspect_sample = "clearOutput("


if __name__ == "__main__":
    unittest.main()
