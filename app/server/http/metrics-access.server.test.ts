import express from "express";
import { afterEach, describe, expect, it } from "vitest";
import { closeServers, listen } from "./listen.test-support";
import { metricsAccess } from "./metrics-access.server";

afterEach(closeServers);

function metricsApp(token: string | undefined) {
  const app = express();
  app.get("/metrics", metricsAccess(token), (_req, res) => void res.send("metrics"));
  return listen(app);
}

describe("/metrics", () => {
  it("does not exist without a token, even for this machine", async () => {
    const base = await metricsApp(undefined);
    expect((await fetch(`${base}/metrics`)).status).toBe(404);
    expect((await fetch(`${base}/metrics`, { headers: { authorization: "Bearer " } })).status).toBe(404);
  });

  it("answers only with its token, even to this machine", async () => {
    const base = await metricsApp("s3cret-token");
    expect((await fetch(`${base}/metrics`)).status).toBe(403);
    expect((await fetch(`${base}/metrics`, { headers: { authorization: "Bearer wrong" } })).status).toBe(403);
    expect((await fetch(`${base}/metrics`, { headers: { authorization: "Bearer s3cret-token!" } })).status).toBe(403);
    const allowed = await fetch(`${base}/metrics`, { headers: { authorization: "Bearer s3cret-token" } });
    expect(allowed.status).toBe(200);
    expect(await allowed.text()).toBe("metrics");
  });
});
