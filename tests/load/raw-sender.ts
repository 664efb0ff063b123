import { connect, type Socket } from "node:net";

/** One POST, whole: request line, headers and body, as the bytes that go on the wire. */
export type PreparedRequest = { url: URL; bytes: Buffer };

/** What a prepared request got: its status (or that the server could not be reached) and when, on `performance.now()`. */
export type SentAnswer = { status: number | "unreachable"; at: number };

/**
 * The bytes of a POST of `body` to `url`, made before a measured window so that sending it costs
 * the sender nothing but a write.
 */
export function preparePost(url: URL, body: string, headers: Record<string, string>): PreparedRequest {
  const payload = Buffer.from(body);
  const lines = [
    `POST ${url.pathname}${url.search} HTTP/1.1`,
    `Host: ${url.host}`,
    `Content-Length: ${payload.length}`,
    "Connection: keep-alive",
    ...Object.entries(headers).map(([name, value]) => `${name}: ${value}`),
  ];
  return { url, bytes: Buffer.concat([Buffer.from(`${lines.join("\r\n")}\r\n\r\n`), payload]) };
}

/**
 * A sender of prepared requests over `connections` kept-alive connections to each server, opened
 * up front: a load generator that shares the machine with what it measures should take as little
 * of it as it can, as wrk does, and Node's HTTP client takes several times what a write and a
 * read of the status line take. Each connection carries one request at a time (no pipelining);
 * answers must carry a Content-Length (the servers' answers to these requests do).
 */
export async function openRawSender(targets: URL[], connections: number) {
  const byHost = new Map<string, Connection[]>();
  for (const target of targets) {
    if (byHost.has(target.host)) continue;
    byHost.set(target.host, await Promise.all(Array.from({ length: connections }, () => openConnection(target))));
  }
  return {
    /** Sends every request, each host's on its connections as they come free; answers in the same order. */
    async send(requests: PreparedRequest[]): Promise<SentAnswer[]> {
      const answers: SentAnswer[] = new Array(requests.length);
      const queues = new Map<string, number[]>();
      requests.forEach((request, index) => {
        const queue = queues.get(request.url.host) ?? [];
        queue.push(index);
        queues.set(request.url.host, queue);
      });
      const workers: Promise<void>[] = [];
      for (const [host, queue] of queues) {
        const open = byHost.get(host);
        if (!open) throw new Error(`No connections to ${host}: open the sender with it`);
        for (const connection of open) {
          workers.push(
            (async () => {
              for (let index = queue.shift(); index !== undefined; index = queue.shift()) {
                const status = await connection.exchange(requests[index]!.bytes).catch(() => "unreachable" as const);
                answers[index] = { status, at: performance.now() };
              }
            })(),
          );
        }
      }
      await Promise.all(workers);
      return answers;
    },
    close() {
      for (const open of byHost.values()) for (const connection of open) connection.socket.destroy();
    },
  };
}

type Connection = { socket: Socket; exchange(bytes: Buffer): Promise<number> };

const HEAD_END = Buffer.from("\r\n\r\n");

function openConnection(target: URL): Promise<Connection> {
  return new Promise((resolve, reject) => {
    const socket = connect({ host: target.hostname, port: Number(target.port), noDelay: true });
    let received: Buffer = Buffer.alloc(0);
    let waiting: { resolve(status: number): void; reject(error: Error): void } | null = null;
    const fail = (error: Error) => {
      const pending = waiting;
      waiting = null;
      pending?.reject(error);
    };
    socket.on("data", (chunk: Buffer) => {
      received = received.length === 0 ? chunk : Buffer.concat([received, chunk]);
      const headEnd = received.indexOf(HEAD_END);
      if (headEnd === -1 || !waiting) return;
      const head = received.subarray(0, headEnd).toString("latin1");
      const status = Number(head.slice(9, 12));
      const length = Number(/\r\ncontent-length:\s*(\d+)/i.exec(head)?.[1] ?? Number.NaN);
      if (!Number.isInteger(status) || !Number.isInteger(length)) {
        // What follows on this connection could not be told apart: it is not used again.
        socket.destroy();
        return fail(new Error(`Cannot read the answer: ${head.slice(0, 200)}`));
      }
      const end = headEnd + HEAD_END.length + length;
      if (received.length < end) return;
      received = received.subarray(end);
      const pending = waiting;
      waiting = null;
      pending.resolve(status);
    });
    socket.on("error", (error) => {
      fail(error);
      reject(error);
    });
    socket.on("close", () => fail(new Error("The server closed the connection")));
    socket.once("connect", () =>
      resolve({
        socket,
        exchange(bytes) {
          return new Promise<number>((resolveAnswer, rejectAnswer) => {
            if (socket.destroyed) return rejectAnswer(new Error("The connection is closed"));
            waiting = { resolve: resolveAnswer, reject: rejectAnswer };
            socket.write(bytes);
          });
        },
      }),
    );
  });
}
