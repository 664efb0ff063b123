import express from "express";
import { afterEach, describe, expect, it } from "vitest";
import { closeServers, listen } from "./listen.test-support";
import { refuseNulInAddress } from "./nul-in-address.server";

afterEach(closeServers);

describe("addresses with a NUL character", () => {
  it("are answered 400 before any route sees them, in the path or the query", async () => {
    const app = express();
    app.use(refuseNulInAddress);
    app.get("/{*rest}", (_req, res) => void res.send("page"));
    const base = await listen(app);
    for (const address of ["/giveaways/x%00", "/blog?q=%00", "/events?q=a%00b"]) {
      const response = await fetch(`${base}${address}`);
      expect(response.status).toBe(400);
      expect(await response.text()).toBe("This address contains a character that is not allowed.");
    }
    const ordinary = await fetch(`${base}/blog?q=100%25%20original`);
    expect(ordinary.status).toBe(200);
  });
});
