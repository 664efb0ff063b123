import { describe, expect, it } from "vitest";
import { intentOf, readForm } from "./form-data.server";

describe("reading a form", () => {
  it("gives the form's fields, and its intent cut to a sane length", async () => {
    const request = new Request("http://club.test/x", {
      method: "POST",
      body: new URLSearchParams({ intent: "save" }),
    });
    const form = await readForm(request);
    expect(intentOf(form)).toBe("save");
    const long = new URLSearchParams({ intent: "x".repeat(500) });
    expect(intentOf(await readForm(new Request("http://club.test/x", { method: "POST", body: long })))).toHaveLength(
      40,
    );
    expect(intentOf(new FormData())).toBe("");
  });

  it("answers a body that is not a form with a 400 and a plain message", async () => {
    const request = new Request("http://club.test/x", {
      method: "POST",
      headers: { "Content-Type": "multipart/form-data; boundary=nope" },
      body: "not a form",
    });
    await expect(readForm(request)).rejects.toMatchObject({
      init: { status: 400 },
      data: "The form could not be read. Reload the page and try again.",
    });
  });
});
