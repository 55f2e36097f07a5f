import { describe, expect, it } from "vitest";
import { officialExportNotice } from "./official";

// The published evaluate_html.py main() opens `answer` as an image path; the export's answer is HTML.
describe("the frontend official export's notice", () => {
  it("says which part of the published frontend script runs on the file and which does not", () => {
    const notice = officialExportNotice("frontend")!;
    expect(notice).toMatch(/pair code .* runs on this file/);
    expect(notice).toMatch(/main\(\) re-scoring does not/);
    expect(notice).toMatch(/black image/);
  });

  it("is silent for backend, whose published main() runs on the export", () => {
    expect(officialExportNotice("backend")).toBeNull();
  });
});
