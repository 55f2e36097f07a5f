// What the agent seat's editor holds before the person types: the function the task asks for
// (every official backend task ends "The signature of the function is: def …").

const SIGNATURE = /The signature of the function is:\s*(def\s+[A-Za-z_]\w*\s*\(.*)$/s;

function balanced(text: string): boolean {
  let depth = 0;
  for (const c of text) {
    if (c === "(" || c === "[" || c === "{") depth++;
    else if (c === ")" || c === "]" || c === "}") depth--;
    if (depth < 0) return false;
  }
  return depth === 0;
}

/** The editor's first text for a task. */
export function starterFunction(problemDescription: string): string {
  const match = SIGNATURE.exec(problemDescription.trim());
  if (!match) return "def solution():\n    pass\n";
  const signature = match[1]!.trim().replace(/:\s*$/, "");
  // A few official tasks cut their signature short (at a colon inside a default); the person finishes it.
  return balanced(signature) && signature.endsWith(")") ? `${signature}:\n    pass\n` : `${signature}\n`;
}
