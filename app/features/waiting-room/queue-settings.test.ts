import { describe, expect, it } from "vitest";
import { readQueueSettings } from "./queue-settings.server";

const form = (fields: Record<string, string>) => {
  const data = new FormData();
  for (const [name, value] of Object.entries(fields)) data.set(name, value);
  return data;
};

describe("the organizer's queue settings form", () => {
  it("reads a switched-on queue with its rate and minutes to buy", () => {
    expect(readQueueSettings(form({ enabled: "on", ratePerMinute: " 120 ", admissionMinutes: "10" }))).toEqual({
      ok: true,
      settings: { enabled: true, ratePerMinute: 120, admissionMinutes: 10 },
    });
    expect(readQueueSettings(form({ ratePerMinute: "1", admissionMinutes: "240" }))).toMatchObject({
      ok: true,
      settings: { enabled: false },
    });
  });

  it("names each field's problem in the words every form uses", () => {
    expect(readQueueSettings(form({ ratePerMinute: "2.5", admissionMinutes: "999" }))).toEqual({
      ok: false,
      errors: {
        ratePerMinute: "Enter the people let through a minute as a whole number",
        admissionMinutes: "Enter at most 240",
      },
    });
    expect(readQueueSettings(form({ ratePerMinute: "0" }))).toEqual({
      ok: false,
      errors: { ratePerMinute: "Enter at least 1", admissionMinutes: "Enter the minutes to buy" },
    });
  });
});
