"use client";

import { useEffect, useState } from "react";
import DOMPurify from "dompurify";
import { marked } from "marked";

/**
 * A queue's instructions: Markdown rendered by marked, then sanitised by DOMPurify in the browser
 * (scripts, event handlers and javascript: links removed) before it reaches the page. Until then,
 * and on the server, the text is shown as it was written.
 */
export function Markdown({ text }: { text: string }) {
  const [html, setHtml] = useState<string | null>(null);
  useEffect(() => {
    const raw = marked.parse(text, { async: false, gfm: true });
    // DOMPurify needs the browser's DOM, so the sanitised HTML can only be made after mounting; the server's
    // render (the plain text) and the first client render agree.
    // eslint-disable-next-line react-hooks/set-state-in-effect
    setHtml(
      DOMPurify.sanitize(raw, {
        USE_PROFILES: { html: true },
        FORBID_TAGS: ["style", "form", "input", "button", "iframe"],
        FORBID_ATTR: ["style"],
      }),
    );
  }, [text]);
  if (html === null) return <div className="whitespace-pre-wrap text-sm text-stone-700">{text}</div>;
  return (
    <div
      className="prose-sm space-y-2 text-sm text-stone-800 [&_a]:text-teal-700 [&_a]:underline [&_code]:rounded [&_code]:bg-stone-100 [&_code]:px-1 [&_h1]:text-lg [&_h1]:font-semibold [&_h2]:font-semibold [&_li]:ml-5 [&_ol]:list-decimal [&_ul]:list-disc"
      data-testid="instructions"
      dangerouslySetInnerHTML={{ __html: html }}
    />
  );
}
