// Jinja's `trim` filter and a string's `.strip()`, `.lstrip()`, `.rstrip()` are Python's str.strip in
// transformers' renderer, and JavaScript's String.prototype.trim in @huggingface/jinja. The two strip
// different characters: Python also strips U+001C..U+001F and U+0085, and keeps U+FEFF, which
// JavaScript strips. A message with one of them at its edge rendered differently from transformers
// (16 of 300 renders, Llama 3, 3.1, 3.2 and Gemma templates). This rewrites those calls in a parsed
// template into calls of Python's definition, and nothing else: the rest of the library is untouched.

/** Characters for which Python's str.isspace() is true: what str.strip() removes. */
const PYTHON_SPACE =
  "\\t\\n\\x0b\\x0c\\r\\x1c-\\x1f \\x85\\xa0\\u1680\\u2000-\\u200a\\u2028\\u2029\\u202f\\u205f\\u3000";
const LEADING = new RegExp(`^[${PYTHON_SPACE}]+`);
const TRAILING = new RegExp(`[${PYTHON_SPACE}]+$`);

/** A value's text: as it is, a number's or a boolean's, nothing for none, else its JSON (never "[object Object]"). */
const text = (value: unknown): string =>
  typeof value === "string"
    ? value
    : typeof value === "number" || typeof value === "boolean"
      ? String(value)
      : value === null || value === undefined
        ? ""
        : JSON.stringify(value);

/** The globals the rewritten calls name. */
export const PYTHON_STRIP_GLOBALS: Record<string, (value: unknown) => string> = {
  __python_strip: (value) => text(value).replace(LEADING, "").replace(TRAILING, ""),
  __python_lstrip: (value) => text(value).replace(LEADING, ""),
  __python_rstrip: (value) => text(value).replace(TRAILING, ""),
};

interface Node {
  type?: string;
  [key: string]: unknown;
}

const callOf = (name: string, argument: unknown): Node => ({
  type: "CallExpression",
  callee: { type: "Identifier", value: name },
  args: [argument],
});

/** The Python call a node stands for, or null: `x | trim`, `x.strip()`, `x.lstrip()`, `x.rstrip()`, without arguments. */
function pythonCall(node: Node): Node | null {
  if (node.type === "FilterExpression") {
    const filter = node.filter as Node;
    if (filter?.type === "Identifier" && filter.value === "trim") return callOf("__python_strip", node.operand);
  }
  if (node.type === "CallExpression" && Array.isArray(node.args) && node.args.length === 0) {
    const callee = node.callee as Node;
    const property = callee?.property as Node | undefined;
    if (
      callee?.type === "MemberExpression" &&
      !callee.computed &&
      property?.type === "Identifier" &&
      ["strip", "lstrip", "rstrip"].includes(property.value as string)
    ) {
      return callOf(`__python_${property.value as string}`, callee.object);
    }
  }
  return null;
}

/** Rewrites, in place, every Python strip in a parsed template (a Template's `parsed`). */
export function usePythonStrip(root: unknown): void {
  const visit = (value: unknown): unknown => {
    if (Array.isArray(value)) {
      for (let i = 0; i < value.length; i++) value[i] = visit(value[i]);
      return value;
    }
    if (!value || typeof value !== "object") return value;
    const node = value as Node;
    for (const key of Object.keys(node)) node[key] = visit(node[key]);
    return pythonCall(node) ?? node;
  };
  visit(root);
}
