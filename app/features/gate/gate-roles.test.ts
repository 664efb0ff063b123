import { describe, expect, it } from "vitest";
import { GATE_POWERS, holderShownTo } from "./gate-roles";

describe("roles at the gate", () => {
  it("a steward reads initials; a supervisor reads the name", () => {
    expect(holderShownTo("steward", "Sam Hartley")).toBe("S. H.");
    expect(holderShownTo("supervisor", "Sam Hartley")).toBe("Sam Hartley");
  });

  it("a steward only scans; a supervisor also searches, lets in by hand, sees conflicts and counts per gate", () => {
    expect(Object.values(GATE_POWERS.steward).every((power) => power === false)).toBe(true);
    expect(Object.values(GATE_POWERS.supervisor).every((power) => power === true)).toBe(true);
  });
});
