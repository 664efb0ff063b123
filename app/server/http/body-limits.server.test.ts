import express from "express";
import { afterEach, describe, expect, it } from "vitest";
import { bodyLimit, parseSize } from "./body-limits.server";
import { closeServers, listen } from "./listen.test-support";

afterEach(closeServers);

describe("body limits", () => {
  it("reads BODY_LIMIT in bytes, kilobytes or megabytes, and 1 MB when it cannot", () => {
    expect(parseSize("2048")).toBe(2048);
    expect(parseSize("512kb")).toBe(512 * 1024);
    expect(parseSize(" 2MB ")).toBe(2 * 1024 * 1024);
    expect(parseSize("lots")).toBe(1024 * 1024);
  });

  it("refuses a form over the limit, lets an upload form send more, and lets reads through", async () => {
    const app = express();
    app.use(bodyLimit("10b", 100));
    app.all("/{*rest}", (_req, res) => void res.send("read"));
    const base = await listen(app);
    const post = (path: string, size: number) => fetch(`${base}${path}`, { method: "POST", body: "x".repeat(size) });

    const refused = await post("/events", 11);
    expect(refused.status).toBe(413);
    expect(await refused.text()).toBe("Payload too large");
    expect((await post("/events", 10)).status).toBe(200);
    expect((await post("/admin/events/abc/cover", 100)).status).toBe(200);
    expect((await post("/admin/events/abc/cover.data", 100)).status).toBe(200);
    expect((await post("/admin/events/abc/cover", 101)).status).toBe(413);
    expect((await fetch(`${base}/events`)).status).toBe(200);
  });
});
