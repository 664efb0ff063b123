import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterEach, describe, expect, it } from "vitest";
import { openRawSender, preparePost } from "./raw-sender";

let server: Server | undefined;

afterEach(async () => {
  server?.closeAllConnections();
  await new Promise((resolve) => server?.close(resolve) ?? resolve(undefined));
  server = undefined;
});

/** A server that answers each POST with the status its body names, and a body of its own length. */
async function echoServer(received: string[], connections: Set<unknown>) {
  server = createServer((req, res) => {
    connections.add(req.socket);
    const chunks: Buffer[] = [];
    req.on("data", (chunk: Buffer) => chunks.push(chunk));
    req.on("end", () => {
      const body = Buffer.concat(chunks).toString("utf8");
      received.push(`${req.headers["stripe-signature"]} ${body}`);
      const { status, answer } = JSON.parse(body) as { status: number; answer: string };
      // Written in two pieces, so an answer may reach the sender split across reads.
      res.writeHead(status, { "Content-Type": "text/plain", "Content-Length": Buffer.byteLength(answer) });
      res.write(answer.slice(0, 3));
      setTimeout(() => res.end(answer.slice(3)), 1);
    });
  });
  await new Promise<void>((resolve) => server!.listen(0, "127.0.0.1", resolve));
  return new URL(`http://127.0.0.1:${(server!.address() as AddressInfo).port}/api/webhooks/stripe`);
}

describe("the raw sender of prepared requests", () => {
  it("sends each request whole over the connections it opened, and answers each status in order", async () => {
    const received: string[] = [];
    const connections = new Set<unknown>();
    const url = await echoServer(received, connections);
    const requests = Array.from({ length: 40 }, (_, index) =>
      preparePost(
        url,
        JSON.stringify({ status: index % 5 === 0 ? 400 : 200, answer: `answer ${index} ${"é".repeat(index * 50)}` }),
        { "Content-Type": "application/json", "Stripe-Signature": `t=1,v1=${index}` },
      ),
    );
    const sender = await openRawSender([url], 4);
    const before = performance.now();
    const answers = await sender.send(requests);
    sender.close();

    expect(answers.map((answer) => answer.status)).toEqual(
      Array.from({ length: 40 }, (_, index) => (index % 5 === 0 ? 400 : 200)),
    );
    for (const answer of answers) expect(answer.at).toBeGreaterThanOrEqual(before);
    expect(received.toSorted()).toEqual(
      requests
        .map(
          (_, index) =>
            `t=1,v1=${index} ${JSON.stringify({ status: index % 5 === 0 ? 400 : 200, answer: `answer ${index} ${"é".repeat(index * 50)}` })}`,
        )
        .toSorted(),
    );
    expect(connections.size).toBe(4);
  });

  it("answers unreachable for a request whose connection the server closed", async () => {
    const statuses = await twoRequestsOnOneConnection(createServer((req) => req.socket.destroy()));
    expect(statuses).toEqual(["unreachable", "unreachable"]);
  });

  it("answers unreachable for an answer without a length, and does not use its connection again", async () => {
    let requests = 0;
    const streaming = createServer((_req, res) => {
      requests++;
      // Chunked: no Content-Length to tell where the answer ends.
      res.writeHead(200, { "Content-Type": "text/plain" });
      res.end("streamed");
    });
    expect(await twoRequestsOnOneConnection(streaming)).toEqual(["unreachable", "unreachable"]);
    expect(requests).toBe(1);
  });
});

/** Starts `started` on a free port and sends it two requests over one connection: their statuses. */
async function twoRequestsOnOneConnection(started: Server) {
  server = started;
  await new Promise<void>((resolve) => started.listen(0, "127.0.0.1", resolve));
  const url = new URL(`http://127.0.0.1:${(started.address() as AddressInfo).port}/`);
  const sender = await openRawSender([url], 1);
  const answers = await sender.send([preparePost(url, "{}", {}), preparePost(url, "{}", {})]);
  sender.close();
  return answers.map((answer) => answer.status);
}
