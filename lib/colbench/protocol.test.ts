import { describe, expect, it } from "vitest";
import { backend } from "../benchmarks/backend";
import { frontend } from "../benchmarks/frontend";
import { cutReply, extractAnswer, extractHtml, formatDialogue, normalizeImageUrls, splitAgentOutput } from "./protocol";

describe("agent output", () => {
  it("keeps only what follows the first OUTPUT:, up to a second one", () => {
    expect(splitAgentOutput("plain question?")).toEqual({ content: "plain question?", raw: "plain question?" });
    expect(splitAgentOutput("THOUGHT: hmm\nOUTPUT: What size?")).toEqual({
      content: " What size?",
      raw: "THOUGHT: hmm\nOUTPUT: What size?",
    });
    expect(splitAgentOutput("a OUTPUT: b OUTPUT: c")).toEqual({ content: " b ", raw: "a OUTPUT: b " });
    expect(splitAgentOutput("OUTPUT:")).toEqual({ content: "", raw: "OUTPUT:" });
  });

  it("takes the answer after the marker, up to a second marker, or the whole message", () => {
    expect(extractAnswer("I WANT TO ANSWER:\ndef f(): return 1")).toBe("\ndef f(): return 1");
    expect(extractAnswer("Sure. I WANT TO ANSWER: x I WANT TO ANSWER: y")).toBe(" x ");
    expect(extractAnswer("def f(): return 2")).toBe("def f(): return 2");
  });
});

describe("frontend proposals", () => {
  it("takes the first <html> block, else the first <body> block", () => {
    const page = '<html lang="en">\n<body class="p-4">A</body>\n</html>';
    expect(extractHtml(`Here:\n${page}\nand <html>second</html>`)).toBe(page);
    expect(extractHtml('text <body class="x">only body</body> more')).toBe('<body class="x">only body</body>');
    expect(extractHtml("no markup at all")).toBeNull();
    expect(extractHtml("<html>never closed")).toBeNull();
  });

  it("points random Unsplash images and plain picsum sizes at picsum image 48", () => {
    expect(normalizeImageUrls("https://source.unsplash.com/random/800x600/?city")).toBe(
      "https://picsum.photos/id/48/800/600",
    );
    expect(normalizeImageUrls("https://picsum.photos/300/200")).toBe("https://picsum.photos/id/48/300/200");
    expect(normalizeImageUrls("https://picsum.photos/id/7/300/200")).toBe("https://picsum.photos/id/7/300/200");
    expect(extractHtml('<html><img src="https://picsum.photos/640/480"></html>')).toBe(
      '<html><img src="https://picsum.photos/id/48/640/480"></html>',
    );
  });
});

describe("simulator side", () => {
  it("formats the transcript as role:content blocks ending with the agent's cue", () => {
    expect(
      formatDialogue([
        { role: "user", content: "Need a fn" },
        { role: "assistant", content: "Which?" },
      ]),
    ).toBe("user:Need a fn\n\n\n\nassistant:Which?\n\n\n\nagent:");
  });

  it("cuts replies to 400 (backend) and 1000 (frontend) characters, counting code points", () => {
    expect(cutReply("x".repeat(500), backend.episode.replyLimit)).toHaveLength(400);
    expect(cutReply("x".repeat(1500), frontend.episode.replyLimit)).toHaveLength(1000);
    const emoji = "😀".repeat(401);
    expect(Array.from(cutReply(emoji, 400))).toHaveLength(400);
    expect(cutReply("short", 400)).toBe("short");
  });
});
