import { Agent, request } from "node:http";
import type { AddressInfo } from "node:net";
import { afterEach, describe, expect, it } from "vitest";
import { type DrainResult, gracefulServer, shutDown } from "./graceful-shutdown.server";

type Answer = { status: number; body: string; connection: string | undefined };

/** One request over `agent`, as a proxy's keep-alive pool would send it. */
function send(port: number, agent: Agent, path: string, method = "GET") {
  return new Promise<Answer>((resolve, reject) => {
    const req = request({ host: "127.0.0.1", port, path, method, agent }, (res) => {
      let body = "";
      res.setEncoding("utf8");
      res.on("data", (chunk) => {
        body += chunk;
      });
      res.on("end", () => resolve({ status: res.statusCode ?? 0, body, connection: res.headers.connection }));
    });
    req.on("error", reject);
    req.end(method === "POST" ? "paid=1" : undefined);
  });
}

/** A server whose /slow requests wait until the test releases them. */
async function startServer(timeoutMs = 5_000) {
  const held: (() => void)[] = [];
  const graceful = gracefulServer(
    (req, res) => {
      if (req.url === "/readyz") return void res.end(JSON.stringify({ status: "ready" }));
      if (req.url === "/slow") return void held.push(() => res.end("slow done"));
      res.end("ok");
    },
    { timeoutMs },
  );
  await new Promise<void>((resolve) => graceful.server.listen(0, "127.0.0.1", resolve));
  const port = (graceful.server.address() as AddressInfo).port;
  return { graceful, port, held };
}

const until = async (check: () => boolean) => {
  while (!check()) await new Promise((resolve) => setTimeout(resolve, 5));
};

describe("gracefulServer", () => {
  const agents: Agent[] = [];
  const keepAlive = () => {
    const agent = new Agent({ keepAlive: true, maxSockets: 1 });
    agents.push(agent);
    return agent;
  };
  afterEach(() => {
    for (const agent of agents.splice(0)) agent.destroy();
  });

  it("answers /readyz 503 stopping at once, and refuses new connections", async () => {
    const { graceful, port, held } = await startServer();
    const agent = keepAlive();
    expect((await send(port, agent, "/readyz")).status).toBe(200);
    // A request in flight keeps the server draining while the test looks at it.
    const slow = send(port, keepAlive(), "/slow");
    await until(() => held.length === 1);

    const drained = graceful.drain();
    expect(graceful.stopping).toBe(true);
    // The idle keep-alive connection is still open: its next request is answered, and closes it.
    const readiness = await send(port, agent, "/readyz");
    expect(readiness).toEqual({ status: 503, body: JSON.stringify({ status: "stopping" }), connection: "close" });
    await expect(send(port, new Agent(), "/")).rejects.toMatchObject({ code: "ECONNREFUSED" });

    held[0]!();
    expect(await slow).toMatchObject({ status: 200, body: "slow done", connection: "close" });
    expect(await drained).toMatchObject({ drained: true, cutRequests: 0, cutConnections: 0 });
  });

  it("finishes a POST in flight and answers it with Connection: close", async () => {
    const { graceful, port, held } = await startServer();
    const posting = send(port, keepAlive(), "/slow", "POST");
    await until(() => held.length === 1);
    const drained = graceful.drain();
    held[0]!();
    expect(await posting).toEqual({ status: 200, body: "slow done", connection: "close" });
    expect((await drained).drained).toBe(true);
  });

  it("leaves an idle keep-alive connection for the client to close, and then has drained", async () => {
    const { graceful, port } = await startServer();
    const agent = keepAlive();
    expect(await send(port, agent, "/")).toMatchObject({ status: 200, connection: "keep-alive" });
    let result: DrainResult | undefined;
    const drained = graceful.drain().then((value) => {
      result = value;
    });
    // Not cut from under the client: another request still finds it open.
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(result).toBeUndefined();
    expect(await send(port, agent, "/")).toMatchObject({ status: 200, body: "ok", connection: "close" });
    await drained;
    expect(result).toMatchObject({ drained: true, cutRequests: 0 });
  });

  it("closes idle connections at once when asked to (a stop from the terminal)", async () => {
    const { graceful, port } = await startServer();
    const agent = keepAlive();
    expect(await send(port, agent, "/")).toMatchObject({ status: 200, connection: "keep-alive" });
    expect(await graceful.drain({ closeIdle: true })).toMatchObject({ drained: true, cutConnections: 0 });
  });

  it("closes what is still open at the deadline", async () => {
    const { graceful, port, held } = await startServer(200);
    const stuck = send(port, keepAlive(), "/slow");
    await until(() => held.length === 1);
    const result = await graceful.drain();
    expect(result).toMatchObject({ drained: false, cutRequests: 1, cutConnections: 1 });
    await expect(stuck).rejects.toMatchObject({ code: "ECONNRESET" });
  });

  it("drains once however often it is asked", async () => {
    const { graceful } = await startServer();
    const first = graceful.drain();
    expect(graceful.drain()).toBe(first);
    expect((await first).drained).toBe(true);
  });
});

describe("shutDown", () => {
  const drained: DrainResult = { drained: true, cutRequests: 0, cutConnections: 0, milliseconds: 1 };

  it("drains the web server before stopping the jobs and the database, and exits 0", async () => {
    const order: string[] = [];
    const code = await shutDown({
      drain: async () => {
        order.push("drain");
        return drained;
      },
      stopRuntime: async () => {
        order.push("jobs and database");
      },
    });
    expect(order).toEqual(["drain", "jobs and database"]);
    expect(code).toBe(0);
  });

  it("exits 1 when stopping fails", async () => {
    const errors: object[] = [];
    const code = await shutDown({
      drain: async () => drained,
      stopRuntime: () => Promise.reject(new Error("pool already ended")),
      log: { info: () => {}, warn: () => {}, error: (details) => errors.push(details) },
    });
    expect(code).toBe(1);
    expect(errors).toHaveLength(1);
  });
});
