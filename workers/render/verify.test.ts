import { describe, expect, it } from "vitest";
import { RENDERER_REVISION } from "../../lib/scoring/frontend/render-protocol";
import { mayChangeAfterParse } from "./css-subset";
import { mayNavigateLater, promisesContent, verifyCapture } from "./verify";

describe("pages that may navigate their reused document later", () => {
  it("are the pages with a meta refresh, however its value is spelt", () => {
    expect(mayNavigateLater('<meta http-equiv="refresh" content="1;url=about:srcdoc">')).toBe(true);
    expect(mayNavigateLater("<META HTTP-EQUIV=Refresh CONTENT=2>")).toBe(true);
    expect(mayNavigateLater('<meta content="1" http-equiv="&#114;efresh">')).toBe(true);
    expect(mayNavigateLater('<meta content="1" http-equiv="re&#x66;resh">')).toBe(true);
  });

  it("are not pages whose meta says something else, nor pages that only mention a refresh", () => {
    expect(mayNavigateLater('<meta http-equiv="X-UA-Compatible" content="IE=edge"><p>hello</p>')).toBe(false);
    expect(mayNavigateLater("<p>refresh your browser</p>")).toBe(false);
  });

  it("include an entity-encoded data:text/html URL among those that may change after parsing", () => {
    expect(mayChangeAfterParse('<meta http-equiv="refresh" content="1;url=data:text/h&#116;ml,<p>x</p>">')).toBe(true);
    expect(mayChangeAfterParse('<a href="java&#115;cript:void(0)">x</a>')).toBe(true);
    expect(mayChangeAfterParse('<p class="p-4">plain &amp; static</p>')).toBe(false);
  });
});

describe("what a page's markup promises to draw", () => {
  it("is something when its body has text or elements", () => {
    expect(promisesContent("<html><body><h1>x</h1></body></html>")).toBe(true);
    expect(promisesContent("<html><head><title>t</title></head>hello</html>")).toBe(true);
    expect(promisesContent('<html><body><div class="h-32 bg-green-500"></div></body></html>')).toBe(true);
  });

  it("is nothing for an empty body, comments, a head alone, or blank entities", () => {
    expect(promisesContent("<html><head><title>only</title><style>p{}</style></head><body>\n</body></html>")).toBe(
      false,
    );
    expect(promisesContent("<!doctype html><html><body><!-- <h1>x</h1> --></body></html>")).toBe(false);
    expect(promisesContent("<html><body>&nbsp; &#32;</body></html>")).toBe(false);
  });

  it("is not judged for a page whose scripts decide its content", () => {
    expect(promisesContent("<html><body><h1>x</h1><script>document.body.innerHTML = ''</script></body></html>")).toBe(
      false,
    );
  });
});

describe("the verdict on a capture", () => {
  const good = { sameDocument: true, extent: { width: 1354, height: 1060 }, hasContent: true };

  it("records how an ok capture was checked", () => {
    expect(verifyCapture({ width: 1354, height: 1060 }, good, true)).toEqual({
      verified: {
        revision: RENDERER_REVISION,
        document: "same",
        extent: { width: 1354, height: 1060 },
        content: "found",
      },
    });
    expect(
      verifyCapture(
        { width: 1366, height: 8 },
        { ...good, extent: { width: 1366, height: 8 }, hasContent: false },
        false,
      ),
    ).toMatchObject({ verified: { content: "not expected" } });
  });

  it("fails a capture taken after the page was navigated away", () => {
    const v = verifyCapture(
      { width: 1366, height: 8 },
      { sameDocument: false, navigatedTo: "about:blank", extent: { width: 1366, height: 8 }, hasContent: false },
      true,
    );
    expect(v).toEqual({
      why: expect.stringMatching(/navigated away .*\(to about:blank\)/) as unknown,
      navigated: true,
    });
  });

  it("fails an empty capture, one shorter or narrower than the page's laid-out extent, and one of an emptied document", () => {
    expect(verifyCapture({ width: 0, height: 0 }, good, true)).toEqual({
      why: expect.stringMatching(/empty/) as unknown,
    });
    expect(verifyCapture({ width: 1354, height: 800 }, good, true)).toEqual({
      why: expect.stringMatching(/smaller than the page's laid-out extent .*1354x1060/) as unknown,
    });
    expect(verifyCapture({ width: 1200, height: 1060 }, good, true)).toEqual({
      why: expect.stringMatching(/smaller/) as unknown,
    });
    expect(
      verifyCapture(
        { width: 1366, height: 8 },
        { ...good, extent: { width: 1366, height: 8 }, hasContent: false },
        true,
      ),
    ).toEqual({ why: expect.stringMatching(/empty document/) as unknown });
    expect(verifyCapture({ width: 1354, height: 1060 }, { ...good, extent: null }, true)).toEqual({
      why: expect.stringMatching(/could not be measured/) as unknown,
    });
  });
});
