import { describe, expect, it } from "vitest";
import { commitmentOf, drawWinners, listHashOf, type PublishedDraw } from "./fairness";
import { parsePublishedDraw, verifyReport } from "./verify-report";

async function record(): Promise<PublishedDraw> {
  const seed = "ab".repeat(32);
  const entries = [2, 4, 6, 8];
  const listHash = await listHashOf(entries);
  const beacon = { source: "UK National Lottery, draw of 5 December", value: "4 12 19 33 41 58" };
  return {
    algorithm: "pitlane-draw-1",
    slug: "winter-prize",
    commitment: await commitmentOf(seed),
    seed,
    beacon,
    entries,
    listHash,
    winners: await drawWinners({ seed, listHash, beacon: beacon.value, entries }),
  };
}

describe("npm run verify-draw", () => {
  it("reads only draw records", () => {
    expect(() => parsePublishedDraw({ hello: "world" })).toThrow("not a pitlane-draw-1 draw record");
    expect(() => parsePublishedDraw({ algorithm: "pitlane-draw-1", commitment: "x" })).toThrow(
      "commitment and list hash must be SHA-256 hex",
    );
  });

  it("reports every check of an honest draw, and the draw checks out", async () => {
    const honest = await record();
    const report = await verifyReport(parsePublishedDraw(JSON.parse(JSON.stringify(honest))));
    expect(report.ok).toBe(true);
    expect(report.lines[0]).toBe("Draw winter-prize (4 eligible entries, pitlane-draw-1)");
    expect(report.lines).toContain(`✔ entry list hashes to ${honest.listHash}`);
    expect(report.lines.at(-1)).toBe("The draw checks out.");
  });

  it("says when a record was tampered with", async () => {
    const honest = await record();
    const report = await verifyReport({ ...honest, entries: [2, 4, 6] });
    expect(report.ok).toBe(false);
    expect(report.lines).toContain(`✘ entry list hashes to ${honest.listHash}`);
  });
});
