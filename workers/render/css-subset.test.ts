import { describe, expect, it } from "vitest";
import { mayChangeAfterParse, pageTokens, requiredClasses, StylesheetSubsetter } from "./css-subset";
import { tailwindSubsetter } from "./tailwind";

describe("requiredClasses", () => {
  it("lists the classes each selector needs, unescaped and lower-cased", () => {
    expect(requiredClasses(".md\\:w-1\\/2")).toEqual([["md:w-1/2"]]);
    expect(requiredClasses(".\\32xl\\:p-4")).toEqual([["2xl:p-4"]]);
    expect(requiredClasses(".group:hover .group-hover\\:text-white")).toEqual([["group", "group-hover:text-white"]]);
    expect(requiredClasses(".space-x-4>:not([hidden])~:not([hidden])")).toEqual([["space-x-4"]]);
    expect(requiredClasses(".A,.b .c")).toEqual([["a"], ["b", "c"]]);
  });

  it("requires nothing for selectors without classes or classes only inside :not()", () => {
    expect(requiredClasses("h1,.title")).toBeNull();
    expect(requiredClasses(":not(.x)")).toBeNull();
    expect(requiredClasses('a[href$=".pdf"]')).toBeNull();
  });
});

describe("StylesheetSubsetter", () => {
  const css = `/*! c */@charset "utf-8";*{box-sizing:border-box}.a{color:red}.b,.c{color:blue}.d .e{x:y}@media (min-width:640px){.a{color:green}.z{color:black}}@keyframes spin{to{transform:rotate(1turn)}}.f{content:"}"}`;
  const s = new StylesheetSubsetter(css);

  it("keeps exactly the rules a page can match, in order, inside their @media", () => {
    expect(s.subset(new Set(["a"]))).toBe(
      `@charset "utf-8";*{box-sizing:border-box}.a{color:red}@media (min-width:640px){.a{color:green}}@keyframes spin{to{transform:rotate(1turn)}}`,
    );
    expect(s.subset(new Set(["c", "d", "f"]))).toBe(
      `@charset "utf-8";*{box-sizing:border-box}.b,.c{color:blue}@keyframes spin{to{transform:rotate(1turn)}}.f{content:"}"}`,
    );
    expect(s.subset(new Set(["d", "e", "z"]))).toContain(".d .e{x:y}@media (min-width:640px){.z{color:black}}");
  });

  it("matches class names whatever their case (quirks mode) and through entities", () => {
    const tokens = pageTokens(`<div class="BG-Green-500 md&#58;flex">`);
    expect(tokens.has("bg-green-500")).toBe(true);
    expect(tokens.has("md:flex")).toBe(true);
  });

  it("serves the whole sheet to pages that could change after parsing", () => {
    expect(mayChangeAfterParse("<div onclick='x()'>")).toBe(true);
    expect(mayChangeAfterParse("<script>1</script>")).toBe(true);
    expect(mayChangeAfterParse('<iframe srcdoc="...">')).toBe(true);
    expect(mayChangeAfterParse('<div class="p-4">on = off</div>')).toBe(false);
    expect(s.forPage("<script></script><p class=a>")).toBe(css);
  });

  it("parses Tailwind 2.2.19 whole", () => {
    const tw = tailwindSubsetter("tailwind.min.css");
    expect(tw.ruleCount).toBeGreaterThan(39_000);
    const sub = tw.forPage('<html><body class="bg-gray-100"><div class="md:w-1/2 p-4"></div></body></html>');
    expect(sub).toContain(".bg-gray-100{");
    expect(sub).toContain("@media (min-width:768px){.md\\:w-1\\/2{width:50%}}");
    expect(sub).not.toContain(".bg-red-500{");
    expect(sub.length).toBeLessThan(20_000);
  });
});
