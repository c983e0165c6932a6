# nbgrader configuration of the Benchbook course (Swift notebooks, the "swift" kernel).
# Run nbgrader in this folder: see course/README.md.
c = get_config()  # noqa: F821 (provided by nbgrader)

c.CourseDirectory.course_id = "benchbook"

# What a student finds in place of a solution region (`// BEGIN SOLUTION` ... `// END
# SOLUTION`, matched as substrings, so Swift comments work). nbgrader picks the stub by the
# notebook's `metadata.kernelspec.language` and stops with an error for a language it has
# none for. `fatalError` makes the function compile and stops a check cell that calls it
# with an error output, which scores 0.
c.ClearSolutions.code_stub = {
    "python": "# YOUR CODE HERE\nraise NotImplementedError()",
    "swift": '// YOUR CODE HERE\nfatalError("not implemented")',
}

# Each cell is compiled before it runs (about a second on a busy 2-core machine, more in
# a class that grades at once): nbgrader's 30 s default per cell is too tight for the
# accuracy check, which classifies 200 images one by one.
c.Execute.timeout = 300
