import express from "express";
import { afterEach, describe, expect, it } from "vitest";
import { closeServers, listen } from "./listen.test-support";
import { originCheck } from "./origin-check.server";

afterEach(closeServers);

describe("the Origin check", () => {
  it("lets reads through and takes forms only from the site's own origin", async () => {
    const app = express();
    app.use(originCheck("https://club.example"));
    app.all("/{*rest}", (_req, res) => void res.send("done"));
    const base = await listen(app);
    const post = (origin?: string) =>
      fetch(`${base}/login`, { method: "POST", headers: origin ? { origin } : {}, body: "x" });

    expect((await fetch(`${base}/login`, { headers: { origin: "https://elsewhere.example" } })).status).toBe(200);
    expect((await post("https://club.example")).status).toBe(200);
    expect((await post(base)).status).toBe(200);
    const refused = await post("https://elsewhere.example");
    expect(refused.status).toBe(403);
    expect(await refused.text()).toBe("Forbidden: this request did not come from this site");
    expect((await post()).status).toBe(403);
  });
});
