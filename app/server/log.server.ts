import pino from "pino";

const globalLog = globalThis as unknown as { __pitlaneLog?: pino.Logger };

export function getLog(): pino.Logger {
  globalLog.__pitlaneLog ??= pino({
    level: process.env.LOG_LEVEL ?? "info",
    base: undefined,
    redact: ["req.headers.cookie", "req.headers.authorization", "req.headers.referer", 'res.headers["set-cookie"]'],
  });
  return globalLog.__pitlaneLog;
}
