import { createServer as createHttpServer, type RequestListener } from "node:http";
import type { AddressInfo } from "node:net";
import { Writable } from "node:stream";
import type { Express } from "express";

// Servers on a free port of this machine for the HTTP steps' tests, and a log to read back.

const servers: { close(): void }[] = [];

/** Closes the servers the test started; call it after each test. */
export function closeServers() {
  for (const server of servers.splice(0)) server.close();
}

/** Serves an Express app, or a plain request listener, and answers its address. */
export async function listen(app: Express | RequestListener) {
  const server = createHttpServer(app).listen(0, "127.0.0.1");
  servers.push(server);
  await new Promise((resolve) => server.once("listening", resolve));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

/** A stream the log writes to, and the lines written to it. */
export function logSink() {
  const lines: string[] = [];
  const sink = new Writable({
    write(chunk, _encoding, done) {
      lines.push(String(chunk));
      done();
    },
  });
  return { lines, sink };
}
