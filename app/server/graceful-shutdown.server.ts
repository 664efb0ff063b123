import { createServer, type IncomingMessage, type RequestListener, type ServerResponse } from "node:http";
import { Server as NetServer, type Socket } from "node:net";

type ShutdownLog = {
  info(details: object, message: string): void;
  warn(details: object, message: string): void;
};

export type DrainResult = {
  /** Every connection ended on its own before the deadline. */
  drained: boolean;
  /** Requests still unanswered at the deadline, cut off with their connections. */
  cutRequests: number;
  /** Connections still open at the deadline (idle or busy), closed by the server. */
  cutConnections: number;
  milliseconds: number;
};

/**
 * An HTTP server that can be taken out of service without failing a request, for rolling
 * restarts behind a reverse proxy (docs/deploy.md). `drain()`:
 *
 * 1. `/readyz` answers 503 "stopping" at once, so a load balancer that polls it stops sending;
 * 2. the listening socket closes: a proxy's new connection is refused, which it may retry on
 *    another server for any request, POST included, since nothing was sent;
 * 3. every answer from then on says `Connection: close`, so the client (the proxy's keep-alive
 *    pool) drops the connection after it instead of sending the next request down it;
 * 4. requests in flight finish; idle keep-alive connections are left for the client to close
 *    (the proxy's upstream keepalive timeout, or its next request, answered with close).
 *
 * The server never closes an idle keep-alive connection itself before the deadline: the client
 * may be writing a request into it at that very moment, and a proxy does not retry a POST it has
 * sent. At the deadline whatever is still open is closed, answered or not.
 */
export function gracefulServer(handler: RequestListener, options: { timeoutMs: number; log?: ShutdownLog }) {
  let stopping = false;
  /** Each answer not yet finished, with the method it answers. */
  const inFlight = new Map<ServerResponse, string>();
  const sockets = new Set<Socket>();
  let settle: (() => void) | null = null;
  const settleWhenQuiet = () => {
    if (stopping && sockets.size === 0) settle?.();
  };

  const server = createServer((req: IncomingMessage, res: ServerResponse) => {
    inFlight.set(res, req.method ?? "GET");
    res.once("close", () => {
      inFlight.delete(res);
    });
    if (stopping) {
      res.shouldKeepAlive = false;
      if (isReadiness(req)) return stoppingAnswer(res);
    }
    handler(req, res);
  });
  server.on("connection", (socket: Socket) => {
    sockets.add(socket);
    socket.once("close", () => {
      sockets.delete(socket);
      settleWhenQuiet();
    });
  });

  let draining: Promise<DrainResult> | null = null;
  /**
   * `closeIdle`: close the kept-alive connections with nothing in flight at once, for a stop
   * asked for at a terminal (Ctrl-C), where no proxy shares them and a browser tab left open
   * would otherwise hold the server until the deadline.
   */
  function drain(drainOptions: { closeIdle?: boolean } = {}): Promise<DrainResult> {
    draining ??= new Promise<DrainResult>((resolve) => {
      const started = performance.now();
      stopping = true;
      // Answers not begun yet close their connection when they are done.
      for (const res of inFlight.keys()) if (!res.headersSent) res.shouldKeepAlive = false;
      const writes = [...inFlight.values()].filter((method) => !READS.has(method)).length;
      options.log?.info({ requests: inFlight.size, writes, connections: sockets.size }, "draining: no new connections");
      // net.Server's close, not http.Server's: the latter also closes idle keep-alive connections
      // at once, which is the race described above.
      NetServer.prototype.close.call(server);
      if (drainOptions.closeIdle) server.closeIdleConnections();

      const finish = (drained: boolean) => {
        clearTimeout(deadline);
        settle = null;
        const result: DrainResult = {
          drained,
          cutRequests: drained ? 0 : inFlight.size,
          cutConnections: drained ? 0 : sockets.size,
          milliseconds: Math.round(performance.now() - started),
        };
        if (!drained) {
          options.log?.warn(result, "drain deadline reached: closing what is still open");
          for (const socket of sockets) socket.destroy();
        } else {
          options.log?.info(result, "drained");
        }
        resolve(result);
      };
      const deadline = setTimeout(() => finish(false), options.timeoutMs);
      settle = () => finish(true);
      settleWhenQuiet();
    });
    return draining;
  }

  return {
    server,
    drain,
    get stopping() {
      return stopping;
    },
    /** Requests being answered now, for logs and tests. */
    get inFlight() {
      return inFlight.size;
    },
  };
}

const READS = new Set(["GET", "HEAD", "OPTIONS"]);

function isReadiness(req: IncomingMessage) {
  const url = req.url ?? "";
  return (req.method === "GET" || req.method === "HEAD") && (url === "/readyz" || url.startsWith("/readyz?"));
}

function stoppingAnswer(res: ServerResponse) {
  res.writeHead(503, { "Content-Type": "application/json; charset=utf-8", "Cache-Control": "no-store" });
  res.end(JSON.stringify({ status: "stopping" }));
}

/**
 * The order a server stops in on SIGTERM: the web server drains first (its requests may still
 * queue jobs and need the database), then the job queue stops taking jobs and waits for the
 * running ones, then the database closes. Returns the exit code.
 */
export async function shutDown(steps: {
  drain: () => Promise<DrainResult>;
  /** Stops the job queue (gracefully) and closes the database. */
  stopRuntime: () => Promise<void>;
  log?: ShutdownLog & { error(details: object, message: string): void };
}) {
  try {
    await steps.drain();
    await steps.stopRuntime();
    steps.log?.info({}, "stopped");
    return 0;
  } catch (error) {
    steps.log?.error({ err: error }, "shutdown failed");
    return 1;
  }
}
