"""The Swift parameter translator: papermill values as Swift constants.

papermill writes the parameters it was given into a new cell after the cell tagged
``parameters``; for a Swift notebook that cell reads, for example::

    // Parameters
    let threads = 2
    let modelFile = "models/fashion_cnn_int8.ptl"
    let sizes = [224, 160]
    let notes: [String: Any] = ["runs": 40, "label": "int8"]

Each value is a Swift literal: ``str`` a string literal (escaped), ``int`` an ``Int``
(64-bit), ``float`` a ``Double`` (``Double.nan``, ``Double.infinity``), ``bool``
``true``/``false``, ``None`` ``nil``, ``list`` an array and ``dict`` a dictionary.
A type is written only where Swift cannot infer it from the literal: ``nil`` alone
(``Any?``), empty collections and collections of mixed types (``[Any]``,
``[String: Any]``). In the Benchbook kernel a later cell's ``let`` replaces the
parameters cell's, so the injected values win.
"""
import math
import re

from papermill.models import Parameter
from papermill.translators import Translator

INT_MIN, INT_MAX = -(2**63), 2**63 - 1

# Swift keywords that cannot be a constant's name without backticks.
SWIFT_KEYWORDS = frozenset("""
    associatedtype borrowing class consuming deinit enum extension fileprivate func import init inout
    internal let nonisolated open operator private precedencegroup protocol public rethrows static
    struct subscript typealias var break case catch continue default defer do else fallthrough for
    guard if in repeat return throw switch where while Any as await false is nil self Self super
    throws true try
""".split())

_IDENTIFIER = re.compile(r"[^\W\d]\w*\Z")


class SwiftTranslationError(ValueError):
    """A parameter that has no Swift form; the message says which and what to do."""


# Types are kept as small trees while collections are unified, then written as Swift:
# a name ("Int"), ("array", element), ("dictionary", key, value), NIL for nil and EMPTY
# for the element of an empty collection (it takes the type of its siblings).
NIL, EMPTY = "nil", "empty"


def type_tree(value):
    """The type of a parameter value as a tree (see above)."""
    if value is None:
        return NIL
    if isinstance(value, bool):
        return "Bool"
    if isinstance(value, int):
        return "Int"
    if isinstance(value, float):
        return "Double"
    if isinstance(value, str):
        return "String"
    if isinstance(value, (list, tuple)):
        return ("array", unify_trees([type_tree(v) for v in value]))
    if isinstance(value, dict):
        return ("dictionary", _key_type(value), unify_trees([type_tree(v) for v in value.values()]))
    raise SwiftTranslationError(f"a {type(value).__name__} value has no Swift literal; "
                                "use str, int, float, bool, None, list or dict")


def unify_trees(trees):
    """The one type that collection elements of these types have in Swift: equal types
    stay, Int among Doubles is a Double, empty collections take their siblings' type,
    nil makes it optional, and anything else is Any."""
    optional = NIL in trees
    concrete = [t for t in trees if t != NIL]
    if not concrete:
        return ("optional", EMPTY) if optional else EMPTY
    base = concrete[0]
    for other in concrete[1:]:
        base = _merge(base, other)
    return ("optional", base) if optional else base


def _merge(a, b):
    if a == b:
        return a
    if {a, b} == {"Int", "Double"}:
        return "Double"           # Swift reads 1 as a Double among doubles
    if a == EMPTY or b == EMPTY:
        return b if a == EMPTY else a
    if _is_optional(a) or _is_optional(b):
        merged = _merge(_unwrapped(a), _unwrapped(b))
        return ("optional", merged) if merged != "Any" else "Any"
    if isinstance(a, tuple) and isinstance(b, tuple) and a[0] == b[0] == "array":
        merged = _merge(a[1], b[1])
        return ("array", merged) if merged != "Any" else "Any"
    if isinstance(a, tuple) and isinstance(b, tuple) and a[0] == b[0] == "dictionary" and a[1] == b[1]:
        merged = _merge(a[2], b[2])
        return ("dictionary", a[1], merged) if merged != "Any" else "Any"
    return "Any"


def _is_optional(tree):
    return isinstance(tree, tuple) and tree[0] == "optional"


def _unwrapped(tree):
    return tree[1] if _is_optional(tree) else tree


def render(tree):
    """Swift text of a type tree; an unknown (empty) element is Any."""
    if tree == EMPTY:
        return "Any"
    if isinstance(tree, str):
        return tree
    if tree[0] == "optional":
        return render(tree[1]) + "?"
    if tree[0] == "array":
        return f"[{render(tree[1])}]"
    return f"[{tree[1]}: {render(tree[2])}]"


def swift_type(value):
    """The Swift type of a parameter value; None stands for ``nil`` (no type of its own)."""
    tree = type_tree(value)
    return None if tree == NIL else render(tree)


def _key_type(mapping):
    kinds = {type_tree(k) for k in mapping}
    if NIL in kinds or kinds - {"String", "Int", "Double", "Bool"}:
        raise SwiftTranslationError("dictionary keys must be strings or numbers to become Swift keys")
    if len(kinds) > 1:
        raise SwiftTranslationError(f"dictionary keys of mixed types ({', '.join(sorted(kinds))}) "
                                    "cannot be one Swift key type; use strings")
    return kinds.pop() if kinds else "String"


# The deepest nesting of lists and dictionaries a parameter may have. Swift's parser takes
# exponential time in nested square brackets (about 0.25 s at 16 levels, and the kernel
# refuses a cell past about 19), and reading deeper values here would exhaust Python's
# recursion limit (a 400-deep list raised RecursionError).
MAXIMUM_NESTING = 16


def nesting(value):
    """How deep lists, tuples and dictionaries nest in a value (0 for a scalar), without
    recursion, so any depth can be measured."""
    deepest = 0
    pending = [(value, 1)]
    while pending:
        item, depth = pending.pop()
        if isinstance(item, (list, tuple)):
            children = item
        elif isinstance(item, dict):
            children = list(item.keys()) + list(item.values())
        else:
            continue
        deepest = max(deepest, depth)
        pending.extend((child, depth + 1) for child in children)
    return deepest


def needs_annotation(type_name):
    """True when Swift cannot infer this type from the literal alone."""
    return type_name is None or "Any" in type_name


class SwiftTranslator(Translator):
    """papermill translator for the ``swift`` language (the Benchbook kernel)."""

    @classmethod
    def translate_str(cls, val):
        out = []
        for ch in val:
            code = ord(ch)
            if ch == "\\":
                out.append("\\\\")
            elif ch == '"':
                out.append('\\"')
            elif ch == "\n":
                out.append("\\n")
            elif ch == "\r":
                out.append("\\r")
            elif ch == "\t":
                out.append("\\t")
            elif ch == "\0":
                out.append("\\0")
            elif 0xD800 <= code <= 0xDFFF:
                raise SwiftTranslationError(f"the string {val[:40]!r} contains a lone UTF-16 surrogate, "
                                            "which a Swift string cannot hold")
            elif code < 0x20 or code == 0x7F:
                out.append(f"\\u{{{code:X}}}")
            else:
                out.append(ch)
        return '"' + "".join(out) + '"'

    @classmethod
    def translate_none(cls, val):
        return "nil"

    @classmethod
    def translate_int(cls, val):
        if not INT_MIN <= val <= INT_MAX:
            raise SwiftTranslationError(f"{val} does not fit Swift's Int (64 bits); pass it as a float or a string")
        return str(val)

    @classmethod
    def translate_float(cls, val):
        if math.isnan(val):
            return "Double.nan"
        if math.isinf(val):
            return "Double.infinity" if val > 0 else "-Double.infinity"
        return repr(val)   # shortest round-trip form, valid Swift (2.0, 1e-05, 1e+16)

    @classmethod
    def translate_bool(cls, val):
        return "true" if val else "false"

    @classmethod
    def translate_list(cls, val):
        element = render(unify_trees([type_tree(v) for v in val]))
        return "[" + ", ".join(cls._element(v, element) for v in val) + "]"

    @classmethod
    def translate_dict(cls, val):
        if not val:
            return "[:]"
        _key_type(val)
        element = render(unify_trees([type_tree(v) for v in val.values()]))
        return "[" + ", ".join(f"{cls.translate(k)}: {cls._element(v, element)}" for k, v in val.items()) + "]"

    @classmethod
    def _element(cls, value, context):
        """An element literal; a nested collection that Swift could not type inside an
        ``Any`` collection gets ``as <type>``."""
        text = cls.translate(value)
        own = swift_type(value)
        if context.rstrip("?") == "Any" and isinstance(value, (list, tuple, dict)) and needs_annotation(own):
            return f"{text} as {own}"
        return text

    @classmethod
    def translate(cls, val):
        if isinstance(val, tuple):
            return cls.translate_list(list(val))
        return super().translate(val)

    @classmethod
    def comment(cls, cmt_str):
        return f"// {cmt_str}".strip()

    @classmethod
    def name(cls, name):
        """The parameter's name as a Swift identifier (keywords in backticks)."""
        if not isinstance(name, str) or not _IDENTIFIER.match(name):
            raise SwiftTranslationError(f"parameter name {name!r} is not a Swift identifier; "
                                        "use letters, digits and underscores, not starting with a digit")
        return f"`{name}`" if name in SWIFT_KEYWORDS else name

    @classmethod
    def assign(cls, name, str_val):
        return f"let {cls.name(name)} = {str_val}"

    @classmethod
    def codify(cls, parameters, comment="Parameters"):
        lines = [cls.comment(comment)]
        for name, value in parameters.items():
            depth = nesting(value)
            if depth > MAXIMUM_NESTING:
                raise SwiftTranslationError(
                    f"parameter {name!r} is a value nested {depth} levels deep; a Swift literal nested more than "
                    f"{MAXIMUM_NESTING} levels is not written (Swift's parser takes exponential time in nested square "
                    "brackets): pass it flatter, or as a JSON string the notebook decodes")
            type_name = swift_type(value)
            literal = cls.translate(value)
            if needs_annotation(type_name):
                lines.append(f"let {cls.name(name)}: {type_name or 'Any?'} = {literal}")
            else:
                lines.append(cls.assign(name, literal))
        return "\n".join(lines) + "\n"

    @classmethod
    def inspect(cls, parameters_cell):
        """The parameters a Swift ``parameters`` cell declares, for ``papermill --help-notebook``:
        ``let``/``var`` lines, with an optional type, a default, and a ``//`` comment as help.
        Definitions over several lines are joined; anything else is skipped."""
        params = []
        pending = ""
        for line in parameters_cell["source"].splitlines():
            code, help_text = _split_comment(line)
            pending = f"{pending} {code.strip()}".strip() if pending else code.strip()
            if not pending or _depth(pending) > 0:
                continue
            match = re.match(r"(?:let|var)\s+`?(\w+)`?\s*(?::\s*([^=]+?))?\s*=\s*(.+)\Z", pending)
            if match:
                name, annotation, default = match.groups()
                params.append(Parameter(name=name, inferred_type_name=annotation or _literal_type(default),
                                        default=default.strip(), help=help_text))
            pending = ""
        return params


def _outside_strings(text):
    """(index, character) of each character of ``text`` outside Swift string literals."""
    in_string = escaped = False
    for i, ch in enumerate(text):
        if in_string:
            if escaped:
                escaped = False
            elif ch == "\\":
                escaped = True
            elif ch == '"':
                in_string = False
        elif ch == '"':
            in_string = True
        else:
            yield i, ch


def _split_comment(line):
    """(code, comment) of one line, ``//`` outside string literals starting the comment."""
    for i, _ in _outside_strings(line):
        if line.startswith("//", i):
            return line[:i], line[i + 2:].strip()
    return line, ""


def _depth(code):
    """Open brackets minus closed ones, outside string literals."""
    depth = 0
    for _, ch in _outside_strings(code):
        if ch in "([{":
            depth += 1
        elif ch in ")]}":
            depth -= 1
    return depth


def _literal_type(default):
    """The type Swift infers for a simple literal, or "None" when it is not one."""
    text = default.strip()
    if text in ("true", "false"):
        return "Bool"
    if text == "nil":
        return "NoneType"
    if text.startswith('"'):
        return "String"
    if re.fullmatch(r"-?\d[\d_]*", text):
        return "Int"
    if re.fullmatch(r"-?\d[\d_]*(\.\d[\d_]*)?([eE][+-]?\d+)?", text):
        return "Double"
    return "None"
